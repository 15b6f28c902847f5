//! Narrowing `Gen::UnionPart`'s candidates: for `a \/ x \/ .. = E`, `x`
//! ranges over the sets between a lower and an upper bound instead of all
//! of `E`'s subsets. When every other operand of the union is ready,
//! `x` contains `E` minus their union; when a conjunct `x /\ a = {}` (or
//! `a /\ x = {}`, either way round) has `a` ready, `x` misses `a`. The
//! partition `DomSet \/ NDS = Vertices & DomSet /\ NDS = {}`
//! (DominatingSet) then gives `NDS` one candidate for each `DomSet`
//! instead of 2^15.
//!
//! Every solution lies between the bounds and the conjuncts stay checks,
//! so the solutions are exactly the predicate's. Owns the bounds (found
//! when planning, applied when enumerating); must not touch the plan's
//! order nor other generators.

use super::plan::operands;
use crate::ast::*;
use crate::eval::{Env, Fail, E};
use crate::value::{self as v, Value};

/// What narrows `x`'s candidates, found when planning.
#[derive(Clone, Debug, Default)]
pub struct Narrow {
    /// Every operand of the union other than `x` is ready.
    pub rest_ready: bool,
    /// Conjunct `x /\ a = {}` (or mirrored) with `a` ready: the
    /// conjunct and `a`'s place (`true`: left of `/\`).
    pub disjoint: Option<(usize, bool)>,
}

/// The bounds known for `x` (an unbound identifier among the operands of
/// `union`), conjuncts `cs` being the binder's, `ready` telling an
/// expression that mentions only bound identifiers.
pub(super) fn narrow(x: Sym, union: &Expr, cs: &[&Expr], ready: &dyn Fn(&Expr) -> bool) -> Narrow {
    let mut ops = Vec::new();
    operands(union, BinOp::Union, &mut ops);
    let rest_ready = ops.iter().all(|o| is(o, x) || ready(o));
    let disjoint = cs.iter().enumerate().find_map(|(c, e)| {
        let side = disjoint_with(e, x)?;
        ready(side.0).then_some((c, side.1))
    });
    Narrow {
        rest_ready,
        disjoint,
    }
}

fn is(e: &Expr, x: Sym) -> bool {
    matches!(e.kind, ExprKind::Ident(s) if s == x)
}

/// `a` (and whether it is left of `/\`) when `e` is `x /\ a = {}`,
/// `a /\ x = {}` or one of their mirrors `{} = ..`.
fn disjoint_with(e: &Expr, x: Sym) -> Option<(&Expr, bool)> {
    let ExprKind::Bin(BinOp::Eq, l, r) = &e.kind else {
        return None;
    };
    let inter = match (&l.kind, &r.kind) {
        (_, ExprKind::EmptySet) => l,
        (ExprKind::EmptySet, _) => r,
        _ => return None,
    };
    let ExprKind::Bin(BinOp::Inter, a, b) = &inter.kind else {
        return None;
    };
    match (is(a, x), is(b, x)) {
        (true, false) => Some((b, false)),
        (false, true) => Some((a, true)),
        _ => None,
    }
}

/// The candidates of `x` for `union = set` narrowed by `n`: the sets
/// between the lower and the upper bound, at most 2^24 of them.
pub(super) fn candidates(
    x: Sym,
    (union, set): (&Expr, &Expr),
    n: &Narrow,
    cs: &[&Expr],
    env: &mut Env,
) -> E<Vec<Value>> {
    let s = env.elements(set)?;
    // a bound whose operand fails to evaluate is left out: the conjuncts,
    // checked as before, then report that failure
    let lower = if n.rest_ready {
        let mut ops = Vec::new();
        operands(union, BinOp::Union, &mut ops);
        let rest: Option<Vec<Value>> =
            ops.into_iter()
                .filter(|o| !is(o, x))
                .try_fold(Vec::new(), |acc, o| {
                    let os = set_value(o, env)?;
                    Some(set_of(v::union(&acc, &os)))
                });
        rest.map_or_else(Vec::new, |r| set_of(v::diff(&s, &r)))
    } else {
        Vec::new()
    };
    let upper = match n.disjoint.and_then(|d| set_value(apart(d, cs), env)) {
        Some(a) => set_of(v::diff(&s, &a)),
        None => s.clone(),
    };
    if lower.iter().any(|e| upper.binary_search(e).is_err()) {
        return Ok(Vec::new());
    }
    let free = set_of(v::diff(&upper, &lower));
    let subs = v::subsets(&free, 24).map_err(|m| Fail::Unsupported(m, set.pos))?;
    Ok(subs
        .into_iter()
        .map(|t| match t {
            Value::Set(t) => v::union(&lower, &t),
            other => other,
        })
        .collect())
}

/// The operand `a` of the disjointness `(c, left)` found by [`narrow`].
fn apart<'e>((c, left): (usize, bool), cs: &[&'e Expr]) -> &'e Expr {
    let ExprKind::Bin(_, l, r) = &cs[c].kind else {
        unreachable!("planned by narrow")
    };
    let inter = if matches!(l.kind, ExprKind::EmptySet) {
        r
    } else {
        l
    };
    let ExprKind::Bin(_, a, b) = &inter.kind else {
        unreachable!("planned by narrow")
    };
    if left {
        a
    } else {
        b
    }
}

/// The elements of `e`'s value, `None` when it fails or is no set.
fn set_value(e: &Expr, env: &mut Env) -> Option<Vec<Value>> {
    match env.eval(e).ok()? {
        Value::Set(s) => Some(s.to_vec()),
        _ => None,
    }
}

/// The elements of a set value built by `value`'s set operations.
fn set_of(x: Value) -> Vec<Value> {
    match x {
        Value::Set(s) => std::sync::Arc::try_unwrap(s).unwrap_or_else(|s| (*s).clone()),
        _ => unreachable!("a set operation gives a set"),
    }
}
