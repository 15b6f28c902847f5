//! Whether every deferred set has a size that ProB cannot infer
//! otherwise from the PROPERTIES: then PROPERTIES without solution are
//! ProB's 0 states too, as for machines without deferred sets.
//!
//! ProB fixes a deferred set's size before it solves the PROPERTIES (its
//! documentation, "Deferred Sets"): `card(S) = n` or `scope_S` set it,
//! and other PROPERTIES (`card(S) > 1`, `a : S & b : S & a /= b`, `S =
//! {a, b} & a /= b`, ...) may make it infer another size than the
//! DEFAULT_SETSIZE preference. A size is given here when:
//!
//! - `scope_S` sizes `S` (phonebook7_cbc_add's `scope_Name == 1..4`);
//! - a top-level conjunct says `card(S) = e`, `e` known before solving
//!   (`setinfer`: a literal, MAXINT, constants equated to such values):
//!   Ancestors_Unsat's `card(Personne) = 5`;
//! - no PROPERTIES conjunct names `S` at all: there is nothing to infer a
//!   size from (LawUnivExistQuantifier's unused `T1`).
//!
//! ProB's counts of these models are 0 states and 0 transitions. Where a
//! set named by the PROPERTIES has no given size, ProB's counts of
//! PROPERTIES our default size cannot satisfy differ (DeferredSetMinCard:
//! 15 states; OpenRecordSimple: 48): those stay refused (`model`).
//!
//! Owns that test; the sizes themselves are `setsize`'s.

use rustc_hash::FxHashMap;

use crate::ast::*;
use crate::setinfer::{card_before_solving, Before, Bounds};

/// Whether every deferred set of `machines` has a size ProB cannot infer
/// from the PROPERTIES (see the module comment). `scopes`: the `scope_S`
/// sizes by set name.
pub fn sizes_given(
    machines: &[Machine],
    syms: &Syms,
    scopes: &FxHashMap<String, i64>,
    bounds: &Bounds,
) -> bool {
    let all: Vec<&Expr> = machines
        .iter()
        .flat_map(|m| &m.properties)
        .flat_map(crate::solve::conjuncts)
        .collect();
    let consts: Vec<Sym> = machines
        .iter()
        .flat_map(|m| m.constants.iter().copied())
        .collect();
    machines
        .iter()
        .flat_map(|m| &m.sets)
        .filter(|d| d.elements.is_none())
        .all(|d| {
            scopes.contains_key(syms.name(d.name))
                || !named(&all, d.name)
                || all
                    .iter()
                    .any(|c| card_given(c, d.name, &consts, &all, bounds))
        })
}

/// Whether a conjunct of `all` names `s`.
fn named(all: &[&Expr], s: Sym) -> bool {
    all.iter().any(|c| {
        let mut ids = Vec::new();
        crate::solve::idents(c, &mut ids);
        ids.contains(&s)
    })
}

/// Whether `c` is `card(s) = e` (either way round) with `e` known before
/// solving.
fn card_given(c: &Expr, s: Sym, consts: &[Sym], all: &[&Expr], bounds: &Bounds) -> bool {
    let ExprKind::Bin(BinOp::Eq, a, b) = &c.kind else {
        return false;
    };
    let card_s = |e: &Expr| matches!(&e.kind, ExprKind::Call(Builtin::Card, x) if matches!(x[0].kind, ExprKind::Ident(y) if y == s));
    [(a, b), (b, a)].iter().any(|(p, q)| {
        card_s(p)
            && matches!(
                card_before_solving(q, consts, all, bounds),
                Before::Known(_)
            )
    })
}

/// The deferred sets of `machines`, in declaration order.
pub fn deferred_sets(machines: &[Machine]) -> Vec<Sym> {
    machines
        .iter()
        .flat_map(|m| &m.sets)
        .filter(|d| d.elements.is_none())
        .map(|d| d.name)
        .collect()
}

/// The constants of `machines`, in declaration order.
pub fn constants(machines: &[Machine]) -> Vec<Sym> {
    machines
        .iter()
        .flat_map(|m| m.constants.iter().copied())
        .collect()
}
