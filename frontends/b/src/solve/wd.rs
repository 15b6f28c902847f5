//! Which well-definedness errors met while solving a guard ProB reports.
//!
//! A guard conjunct that applies a function outside its domain is false
//! (see [`crate::eval::Env::holds_guard`]): ProB's constraint solver
//! delays the error and drops it when another conjunct fails. The one
//! case it reports is a generator `x = E` whose `E` mentions none of the
//! binder's identifiers (a value of the state alone, ImpAckProtocol's
//! `nr : NATURAL & Buffer(destination) = nr`), reached with every
//! conjunct written before it known to hold: nothing can fail before
//! ProB evaluates `E`, so the error stands.

use super::plan::{idents, Gen, Plan};
use crate::ast::*;

/// Whether a function applied outside its domain while computing the
/// candidates of step `k` of `plan` is an error ProB reports.
pub(super) fn reported(ids: &[Sym], cs: &[&Expr], plan: &Plan, k: usize) -> bool {
    let Some(Gen::Eq { c, left }) = plan.steps.get(k).map(|s| &s.gen) else {
        return false;
    };
    let ExprKind::Bin(BinOp::Eq, a, b) = &cs[*c].kind else {
        return false;
    };
    let mut used = Vec::new();
    idents(if *left { b } else { a }, &mut used);
    if used.iter().any(|s| ids.contains(s)) {
        return false;
    }
    let held = |j: usize| {
        plan.pre.contains(&j)
            || plan.steps[..k]
                .iter()
                .any(|st| st.checks.contains(&j) || generator(&st.gen, cs) == Some(j))
    };
    (0..*c).all(|j| held(j) || typing(cs[j], ids))
}

/// The conjunct a step's generator reads, for the generators that bind
/// only values satisfying it (`x = E`, `x : E`).
fn generator(g: &Gen, cs: &[&Expr]) -> Option<usize> {
    match g {
        Gen::Eq { c, .. } => Some(*c),
        Gen::In { c } => match &cs[*c].kind {
            ExprKind::Bin(_, x, _) if matches!(x.kind, ExprKind::Ident(_)) => Some(*c),
            _ => None,
        },
        _ => None,
    }
}

/// `x : S` with `x` one of `ids` and `S` a non-empty built-in set: true
/// for some value of `x`, and typing it.
fn typing(e: &Expr, ids: &[Sym]) -> bool {
    match &e.kind {
        ExprKind::Bin(BinOp::In, x, s) => {
            matches!(x.kind, ExprKind::Ident(v) if ids.contains(&v))
                && matches!(
                    s.kind,
                    ExprKind::Named(
                        NamedSet::Nat
                            | NamedSet::Nat1
                            | NamedSet::Int
                            | NamedSet::Natural
                            | NamedSet::Natural1
                            | NamedSet::Integer
                            | NamedSet::Bool
                            | NamedSet::String
                    )
                )
        }
        _ => false,
    }
}
