//! Holes at the edge of a clipped range: values an integer's conjuncts
//! exclude without bounding it (`x /= E` with `E` known, `x /= y` with
//! `y` clipped with `x`, `x : NATURAL - {3}`). ProB posts these to its
//! finite-domain solver, which cuts them out of `x`'s infinite domain;
//! when the excluded value is at or beyond the edge `MAXINT` (or `MININT`)
//! of a side that this front-end clips, ProB's enumeration goes past the
//! box (`newPtr : NATURAL & newPtr /: 1..3` has it enumerate `4` with
//! `MAXINT = 3`, ControlFlowR2), how far in general is not known: the
//! range is then refused (unsupported) rather than clipped. A hole
//! strictly inside `MININT..MAXINT` changes nothing (the conjunct is
//! checked once `x` is bound).
//!
//! Owns the holes' shapes and the edge test; the bounds and the clipping
//! stay in `bounds`, the memberships `A /: S` in `range_member`.

use super::bounds::Side;
use crate::ast::*;
use crate::eval::{Env, E};
use crate::value::Value;

/// A value (or values) excluded from an integer's domain.
#[derive(Clone, Debug)]
pub enum Hole {
    /// `x /= E`: the value of `side` of conjunct `c`.
    Expr { c: usize, side: Side },
    /// `x : NATURAL - {3, ..}`: the literals of conjunct `c`'s set.
    Literals { c: usize },
    /// `x /= y` with `y` clipped with `x`: `y`'s values reach both edges.
    Partner,
}

/// Whether a hole excludes a value at or beyond `MAXINT` (`MININT`)
/// where the upper (lower) side is `clipped`, as `(lower, upper)`.
pub(super) fn reaches_edge(
    holes: &[Hole],
    clipped: (bool, bool),
    cs: &[&Expr],
    env: &mut Env,
) -> E<bool> {
    if !(clipped.0 || clipped.1) {
        return Ok(false);
    }
    let (minint, maxint) = (env.w.minint, env.w.maxint);
    let at_edge = |n: i64| (clipped.0 && n <= minint) || (clipped.1 && n >= maxint);
    for h in holes {
        if matches!(h, Hole::Partner) {
            return Ok(true);
        }
        if hole_values(h, cs, env)?
            .iter()
            .any(|v| matches!(v, Value::Int(n) if at_edge(*n)))
        {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The values hole `h` excludes (none for `Hole::Partner`, whose values
/// are those of a clipped partner).
pub(super) fn hole_values(h: &Hole, cs: &[&Expr], env: &mut Env) -> E<Vec<Value>> {
    match h {
        Hole::Partner => Ok(Vec::new()),
        Hole::Expr { c, side } => Ok(vec![env.eval(side_of(cs[*c], *side))?]),
        Hole::Literals { c } => excluded_literals(cs[*c], env),
    }
}

/// The side `side` (`Left` or `Right`) of the binary conjunct `c`.
fn side_of(c: &Expr, side: Side) -> &Expr {
    match (&c.kind, side) {
        (ExprKind::Bin(_, a, _), Side::Left) => a,
        (ExprKind::Bin(_, _, b), _) => b,
        _ => unreachable!("a hole is a binary conjunct"),
    }
}

/// The literals `{..}` of `x : S - {..}`.
fn excluded_literals(c: &Expr, env: &mut Env) -> E<Vec<Value>> {
    match &c.kind {
        ExprKind::Bin(BinOp::In, _, s) => match &s.kind {
            ExprKind::Bin(BinOp::Minus, _, lits) => env.elements(lits),
            _ => Ok(Vec::new()),
        },
        _ => Ok(Vec::new()),
    }
}
