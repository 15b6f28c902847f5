//! A set-typed identifier enumerated over its type (`Gen::Type`, see
//! `typing`) whose type is `POW(C)`, pruned as a generator `x <: C` is
//! (see `subsets`): the step's leading checks `x /\ A = {}` drop `A`'s
//! elements from `C`, `card(x)` comparisons bound the sizes, before any
//! subset is built (TestDisjoint: seven pairwise disjoint non-empty
//! subsets of a deferred set of 7 elements, typed by `b /\ c = {}` only;
//! each level built and checked all 128 subsets).
//!
//! `C` is read from the witness `typing` would read first: this applies
//! only when that witness's value is a non-empty set whose elements' type
//! has a carrier `typing` enumerates (then `typing`'s candidates are
//! exactly the subsets of `C`); in every other case the caller enumerates
//! as before. The subsets kept are those `subsets::pruned` admits, in the
//! order of the full enumeration; solutions and errors are those of the
//! full enumeration (the checks read are those past which no
//! well-definedness error can be met, see `subsets`).
//!
//! Owns that recognition only; must not change `typing`'s carriers.

use super::typing::{self, Witness};
use crate::ast::*;
use crate::eval::Env;
use crate::value::Value;

/// The most elements of `C` for which `typing` enumerates the subsets.
const TYPED_SUBSETS: usize = 20;

/// The candidates of `x`, typed by the witnesses `ws` among the
/// conjuncts `cs`, pruned by its step's `checks`; `None` when `x`'s type
/// is not shown as `POW(C)` first or no check prunes (the caller
/// enumerates the type whole).
pub(super) fn pruned(
    ws: &[Witness],
    (cs, checks): (&[&Expr], &[usize]),
    x: Sym,
    env: &mut Env,
) -> Option<Vec<Value>> {
    let checks: Vec<&Expr> = checks.iter().map(|&k| cs[k]).collect();
    if !checks.iter().any(|c| says_disjoint(c, x)) {
        return None;
    }
    let elements = element_carrier(ws, cs, env)?;
    super::subsets::pruned(x, &elements, &checks, false, env)
}

/// Whether `c` is `x /\ A = {}` (either way round).
fn says_disjoint(c: &Expr, x: Sym) -> bool {
    let ExprKind::Bin(BinOp::Eq, a, b) = &c.kind else {
        return false;
    };
    let from = super::subsets::disjoint_from;
    from(a, b, x).or_else(|| from(b, a, x)).is_some()
}

/// `C`, when the first witness of `ws` whose value shows a carrier (as
/// `typing` reads them) shows a set whose elements' type has a carrier of
/// at most `TYPED_SUBSETS` values: `typing::candidates` then returns the
/// subsets of `C` (a set's sample meets none of its refusals). `None`
/// at the first witness showing something else.
fn element_carrier(ws: &[Witness], cs: &[&Expr], env: &mut Env) -> Option<Vec<Value>> {
    for w in ws {
        let Some(e) = typing::at(cs[w.c], &w.path) else {
            continue;
        };
        let Ok(v) = env.eval(e) else { continue };
        let Some(sample) = typing::project(v, &w.projs) else {
            continue;
        };
        let Value::Set(s) = &sample else {
            return None;
        };
        // an empty set, or elements of a type with no carrier, shows no
        // carrier: `typing` reads the next witness
        let Some(first) = s.first() else { continue };
        let Some(mut elements) = typing::carrier(first, env).ok()? else {
            continue;
        };
        elements.sort_unstable();
        return (elements.len() <= TYPED_SUBSETS).then_some(elements);
    }
    None
}
