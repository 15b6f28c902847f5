//! Integer ranges propagated through comparisons with identifiers not yet
//! bound, as ProB's finite-domain solver propagates bounds: with `x > 2`,
//! `x < y` and `y <= 9`, `x` ranges over `3..8` before `y` is bound
//! (`y`'s upper bound 9, less one). A bound comes from
//!
//! * `x op E` (`op` one of `<`, `<=`, `>`, `>=`, either way round) and
//!   `x : E1..E2`, `x : NATURAL`, `x : NATURAL1`, with `E` ready;
//! * the same with `E` an identifier `y` not yet bound, plus or minus an
//!   integer literal: then `y`'s own bound in that direction, found the
//!   same way (never through `x` again), shifted;
//! * `A op E` and `A : E1..E2` with `x` once in the chain `A` of `+`, `-`
//!   and products by a factor, the rest of `A` and `E` ready
//!   (`balance + s <= maxb`, `c * k <= r`): `x` solved from `A = E`
//!   (rounded inwards), a bound in the direction of `op`, reversed when
//!   `x` is subtracted; a factor that is not positive is unsupported when
//!   met.
//!
//! Used only when both sides are found: the range is finite without any
//! clipping to `MININT..MAXINT`, and every solution lies in it (each bound
//! follows from conjuncts, which all stay checks), so the solutions are
//! exactly those of the predicate.

use super::bounds::{mirror, Bound, Range, Side};
use crate::ast::*;

/// What the planner knows when it propagates.
pub struct Ctx<'a> {
    pub cs: &'a [&'a Expr],
    pub checked: &'a [bool],
    pub ready: &'a dyn Fn(&Expr) -> bool,
    /// Whether an identifier is one of the binder's, not yet bound.
    pub unbound: &'a dyn Fn(Sym) -> bool,
}

/// The longest chain of identifiers a bound goes through.
const DEPTH: usize = 6;

/// The range of `x` by propagation, when it has both a lower and an upper
/// bound.
pub fn chained(x: Sym, ctx: &Ctx) -> Option<Range> {
    let mut seen = vec![x];
    let lower = bounds_of(x, false, ctx, &mut seen);
    let upper = bounds_of(x, true, ctx, &mut seen);
    (!lower.is_empty() && !upper.is_empty()).then_some(Range {
        lower,
        upper,
        clip: false,
        ..Range::default()
    })
}

/// The upper (or lower) bounds of `x`, through identifiers not in `seen`.
fn bounds_of(x: Sym, upper: bool, ctx: &Ctx, seen: &mut Vec<Sym>) -> Vec<Bound> {
    let is_x = |e: &Expr| matches!(e.kind, ExprKind::Ident(s) if s == x);
    let mut out = Vec::new();
    for (c, e) in ctx.cs.iter().enumerate() {
        let ExprKind::Bin(op, a, b) = &e.kind else {
            continue;
        };
        let (op, other, side) = match () {
            _ if ctx.checked[c] => continue,
            _ if is_x(a) && !is_x(b) => (*op, b, Side::Right),
            _ if is_x(b) && !is_x(a) => (mirror(*op), a, Side::Left),
            _ => {
                out.extend(solved(c, x, upper, ctx));
                continue;
            }
        };
        let (is_upper, shift) = match op {
            BinOp::Lt => (true, -1),
            BinOp::Le => (true, 0),
            BinOp::Gt => (false, 1),
            BinOp::Ge => (false, 0),
            BinOp::In if matches!(side, Side::Right) => {
                out.extend(membership(c, other, upper, ctx, seen));
                continue;
            }
            _ => continue,
        };
        if is_upper == upper {
            out.extend(through(c, side, other, shift, upper, ctx, seen));
        }
    }
    out
}

/// The bound given by `x : set` (conjunct `c`) in the direction asked.
fn membership(c: usize, set: &Expr, upper: bool, ctx: &Ctx, seen: &mut Vec<Sym>) -> Option<Bound> {
    match &set.kind {
        ExprKind::Named(NamedSet::Natural) if !upper => Some(Bound::Const(0)),
        ExprKind::Named(NamedSet::Natural1) if !upper => Some(Bound::Const(1)),
        ExprKind::Bin(BinOp::Interval, lo, hi) => {
            let (side, e) = match upper {
                true => (Side::IntervalHigh, hi),
                false => (Side::IntervalLow, lo),
            };
            through(c, side, e, 0, upper, ctx, seen)
        }
        _ => None,
    }
}

/// The bound `e + shift` (`e` being `side` of conjunct `c`): `e` itself
/// when ready, else through the identifier `e` offsets.
fn through(
    c: usize,
    side: Side,
    e: &Expr,
    shift: i64,
    upper: bool,
    ctx: &Ctx,
    seen: &mut Vec<Sym>,
) -> Option<Bound> {
    if (ctx.ready)(e) {
        return Some(Bound::Expr { c, side, shift });
    }
    let (y, k) = offset_ident(e)?;
    if !(ctx.unbound)(y) || seen.contains(&y) || seen.len() > DEPTH {
        return None;
    }
    seen.push(y);
    let inner = bounds_of(y, upper, ctx, seen);
    seen.pop();
    let shift = shift.checked_add(k)?;
    (!inner.is_empty()).then_some(Bound::Via {
        inner,
        upper,
        shift,
    })
}

/// The bound of `x` in the direction asked from conjunct `c`, `A op E`
/// (either way round) or `A : E1..E2`, with `x` once in the chain
/// `A` (`+`, `-`, products) and everything else ready.
fn solved(c: usize, x: Sym, upper: bool, ctx: &Ctx) -> Option<Bound> {
    let ExprKind::Bin(op, a, b) = &ctx.cs[c].kind else {
        return None;
    };
    let (op, plus, side) = match (sign(a, x, ctx.ready), sign(b, x, ctx.ready)) {
        (Some(plus), None) if (ctx.ready)(b) => (*op, plus, Side::Right),
        (None, Some(plus)) if (ctx.ready)(a) && *op != BinOp::In => (mirror(*op), plus, Side::Left),
        _ => return None,
    };
    // the bound on `A` (upper?, shift, where its value is)
    let (on_upper, shift, side) = match (op, &b.kind) {
        (BinOp::Lt, _) => (true, -1, side),
        (BinOp::Le, _) => (true, 0, side),
        (BinOp::Gt, _) => (false, 1, side),
        (BinOp::Ge, _) => (false, 0, side),
        (BinOp::In, ExprKind::Bin(BinOp::Interval, ..)) if upper == plus => {
            (true, 0, Side::IntervalHigh)
        }
        (BinOp::In, ExprKind::Bin(BinOp::Interval, ..)) => (false, 0, Side::IntervalLow),
        _ => return None,
    };
    // `x` added: a bound on `A` bounds `x` the same way; subtracted: the other
    (on_upper == (upper == plus)).then_some(Bound::Lin {
        c,
        side,
        shift,
        x,
        above: on_upper,
    })
}

/// Whether `x` occurs once in the chain `e` (`+`, `-`, products, a factor
/// taken as positive) with everything else ready: `Some(true)` when added,
/// `Some(false)` when subtracted.
fn sign(e: &Expr, x: Sym, ready: &dyn Fn(&Expr) -> bool) -> Option<bool> {
    match &e.kind {
        ExprKind::Ident(s) if *s == x => Some(true),
        _ if super::range_double::doubled(e, x) => Some(true),
        ExprKind::Bin(BinOp::Plus, a, b) if ready(b) => sign(a, x, ready),
        ExprKind::Bin(BinOp::Plus, a, b) if ready(a) => sign(b, x, ready),
        ExprKind::Bin(BinOp::Minus, a, b) if ready(b) => sign(a, x, ready),
        ExprKind::Bin(BinOp::Minus, a, b) if ready(a) => sign(b, x, ready).map(|p| !p),
        // a factor that is not positive is unsupported when met
        ExprKind::Bin(BinOp::Mul, a, b) if ready(b) => sign(a, x, ready),
        ExprKind::Bin(BinOp::Mul, a, b) if ready(a) => sign(b, x, ready),
        _ => None,
    }
}

/// `y`, `y + k`, `k + y` or `y - k` with `k` an integer literal: `(y, ±k)`.
fn offset_ident(e: &Expr) -> Option<(Sym, i64)> {
    let lit = |e: &Expr| match e.kind {
        ExprKind::Int(k) => Some(k),
        _ => None,
    };
    let id = |e: &Expr| match e.kind {
        ExprKind::Ident(s) => Some(s),
        _ => None,
    };
    match &e.kind {
        ExprKind::Ident(s) => Some((*s, 0)),
        ExprKind::Bin(BinOp::Plus, a, b) => match (id(a), lit(b), lit(a), id(b)) {
            (Some(y), Some(k), ..) | (_, _, Some(k), Some(y)) => Some((y, k)),
            _ => None,
        },
        ExprKind::Bin(BinOp::Minus, a, b) => Some((id(a)?, lit(b)?.checked_neg()?)),
        _ => None,
    }
}
