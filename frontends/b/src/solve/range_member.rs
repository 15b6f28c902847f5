//! Integer identifiers solved from a membership `A : S` where the only
//! unbound identifier `x` (an integer by evidence, see `plan`) occurs once
//! in `A` at the end of a chain of `+` and `-` and `S` is a finite set
//! already known (`ptrInc + instPtr : InstArrayDom`, Steve Wright's
//! virtual machine): `x` ranges over the values that make `A` each
//! integer element of `S` (see `Env::invert_lin`). These are all the
//! solutions of the conjunct, found by ProB's solver by propagation
//! without clipping, whatever the order.
//!
//! The negation `A /: S` (same shape) gives ProB no finite domain (the
//! integers outside a finite set are infinitely many): it does not stop
//! `x` from being clipped (see `bounds`), being checked once `x` is
//! bound, unless it excludes `MAXINT` (or `MININT`) for a side clipped:
//! ProB's domain `{0} \/ 4..` (`newPtr : NATURAL & newPtr /: 1..3`,
//! ControlFlowR2) has it enumerate `4` beyond `MAXINT = 3` (see
//! `range_tail`, the one case known; any other is unsupported).
//!
//! Owns the candidates and the negation's shape test; the membership's
//! shape test is `plan`'s (`lin_path`).

use super::plan::{chain_path, infinite};
use crate::ast::*;
use crate::eval::{Env, E};
use crate::value::Value;

/// The values of `x` for which `side` is an element of `set`, in
/// increasing order (elements of `set` that are not integers have none).
pub(super) fn candidates(side: &Expr, x: Sym, set: &Expr, env: &mut Env) -> E<Vec<Value>> {
    let mut out = Vec::new();
    for v in env.elements(set)? {
        let Value::Int(t) = v else { continue };
        if let Some(n) = env.invert_lin(side, x, t)? {
            out.push(n);
        }
    }
    out.sort_unstable();
    out.dedup();
    Ok(out.into_iter().map(Value::Int).collect())
}

/// Whether `c` is `A /: S` with `x` once in `A` at the end of a chain of
/// `+` and `-` whose other operands are `ready`, and `S` ready and finite.
pub(super) fn excludes(c: &Expr, x: Sym, ready: &dyn Fn(&Expr) -> bool) -> bool {
    let ExprKind::Bin(BinOp::NotIn, a, s) = &c.kind else {
        return false;
    };
    let is_x = |e: &Expr| matches!(e.kind, ExprKind::Ident(i) if i == x);
    chain_path(a, x, &is_x) && others_ready(a, x, ready) && ready(s) && !infinite(s)
}

/// Whether every operand of the `+`/`-` chain `e` but `x` is `ready`.
fn others_ready(e: &Expr, x: Sym, ready: &dyn Fn(&Expr) -> bool) -> bool {
    match &e.kind {
        ExprKind::Ident(i) if *i == x => true,
        ExprKind::Bin(BinOp::Plus | BinOp::Minus, a, b) => {
            others_ready(a, x, ready) && others_ready(b, x, ready)
        }
        _ => ready(e),
    }
}

/// Whether a conjunct `A /: S` of `excluded` (conjunct, identifier)
/// excludes a value of its identifier at or beyond `MAXINT` (`MININT`)
/// where the upper (lower) side is `clipped`, as `(lower, upper)`.
pub(super) fn reaches_edge(
    excluded: &[(usize, Sym)],
    clipped: (bool, bool),
    cs: &[&Expr],
    env: &mut Env,
) -> E<bool> {
    let (minint, maxint) = (env.w.minint, env.w.maxint);
    let at_edge = |n: i64| (clipped.0 && n <= minint) || (clipped.1 && n >= maxint);
    Ok(excluded_values(excluded, cs, env)?.into_iter().any(at_edge))
}

/// The values of their identifiers that the conjuncts `A /: S` of
/// `excluded` (conjunct, identifier) exclude.
pub(super) fn excluded_values(
    excluded: &[(usize, Sym)],
    cs: &[&Expr],
    env: &mut Env,
) -> E<Vec<i64>> {
    let mut out = Vec::new();
    for &(c, x) in excluded {
        let ExprKind::Bin(_, a, s) = &cs[c].kind else {
            continue;
        };
        for v in env.elements(s)? {
            let Value::Int(t) = v else { continue };
            out.extend(env.invert_lin(a, x, t)?);
        }
    }
    Ok(out)
}
