//! Integer ranges derived from bounds, the way ProB's finite-domain solver
//! narrows an integer before enumerating it: an identifier `x` that no
//! conjunct generates (no `x = E`, `x : S`, `x <: S`) ranges over
//! `max(lower bounds)..min(upper bounds)`, the bounds coming from
//!
//! * `x < E`, `x <= E`, `x > E`, `x >= E` (either way round),
//! * `x : E1..E2` (a side that is ready),
//! * `x : NATURAL` (lower bound 0), `x : NATURAL1` (lower bound 1),
//!
//! with `E` mentioning only identifiers already bound (`chain` adds bounds
//! through identifiers not yet bound and solved from `+`/`-` chains, the
//! `Bound::Via` and `Bound::Lin` evaluated here). The bounding
//! conjuncts stay checks, so the range is only what is enumerated: the
//! solutions are exactly those of the predicate.
//!
//! A missing bound: ProB's model checker enumerates an integer with an
//! infinite domain between `MININT` and `MAXINT` (`yy : NATURAL` as an
//! operation parameter is `0..MAXINT`; `N : NATURAL1` as a constant
//! `1..MAXINT`). This front-end does the same, only where the result
//! cannot depend on how ProB clips:
//!
//! * in a guard's binder (operation parameters, ANY, `:(`, LET,
//!   PROPERTIES), not in a quantifier or comprehension (which ProB may
//!   keep symbolic): there it is unsupported when met;
//! * for an identifier known to be an integer (`x : INTEGER`, `NATURAL`,
//!   `NATURAL1` or compared with `<`...) whose conjuncts are only such
//!   typings, bounds of identifiers already bound and `x /= E`: another
//!   conjunct might give ProB a finite domain (`f(x) = 3`), or tie `x` to
//!   another unbounded identifier (`x = y + 1`: which one ProB labels
//!   first matters);
//! * when the bound it has lies in `MININT..MAXINT` (`m > 3` with
//!   `MAXINT = 3` is unsupported);
//!
//! a conjunct `f : lo..x --> R` with `f` not yet bound being no obstacle
//! (ProB labels `x` before it can enumerate `f`), nor a comparison
//! `x < y` with `y` another identifier not yet bound or clipped itself
//! (both are clipped, the comparison is a check).

use super::range_holes::Hole;
use crate::ast::*;
use crate::eval::{overflow, Env, Fail, E};

/// Where in a conjunct `A op B` a bound's expression is.
#[derive(Clone, Copy, Debug)]
pub enum Side {
    Left,
    Right,
    /// `lo` of `x : lo..hi`.
    IntervalLow,
    /// `hi` of `x : lo..hi`.
    IntervalHigh,
}

/// One bound of an integer identifier.
#[derive(Clone, Debug)]
pub enum Bound {
    /// The value of `side` of conjunct `c`, plus `shift` (`x < E` is the
    /// upper bound `E - 1`).
    Expr { c: usize, side: Side, shift: i64 },
    /// A constant (`x : NATURAL` is the lower bound 0).
    Const(i64),
    /// `x` solved from `A op E` with `x` once in the `+`/`-` chain `A`:
    /// the value of `x` for which `A` equals `side` of conjunct `c` (`E`)
    /// plus `shift` (see `chain`).
    Lin {
        c: usize,
        side: Side,
        shift: i64,
        x: Sym,
        /// Whether `E` bounds `A` from above.
        above: bool,
    },
    /// Through another identifier `y` not yet bound (`x < y + 2` is the
    /// upper bound `b + 1` for `y`'s tightest upper bound `b`, see
    /// `chained`): the tightest of `inner`, plus `shift`.
    Via {
        inner: Vec<Bound>,
        upper: bool,
        shift: i64,
    },
}

/// The lower and upper bounds found for one identifier.
#[derive(Clone, Debug, Default)]
pub struct Range {
    pub lower: Vec<Bound>,
    pub upper: Vec<Bound>,
    /// A missing side is `MININT` or `MAXINT` (see the module's doc).
    pub clip: bool,
    /// Comparisons with partners clipped too (see `compared_with_partner`):
    /// (`true`: the partner is at least `x + shift`; `false`: at most
    /// `x - shift`, shift). A partner pushed out of `MININT..MAXINT` is
    /// unsupported (`a > 2 & a < b`: how ProB clips `b` is not known).
    pub ties: Vec<(bool, i64)>,
    /// Conjuncts `A /: S` excluding values of `x` (see `range_member`).
    pub excluded: Vec<(usize, Sym)>,
    /// Values excluded by `x /= E` and the like (see `range_holes`).
    pub holes: Vec<Hole>,
    /// Partners below `x` (`x > y`: `y`, 1), see `range_beyond`.
    pub below: Vec<(Sym, i64)>,
    /// Partners above `x` (`x < y`: `y`, 1), see `range_pushed`.
    pub above: Vec<(Sym, i64)>,
    /// Their own bounds carried over to `x` (see `range_pushed`).
    pub pushes: Vec<super::range_pushed::Push>,
    /// Their own upper bounds, when each has some (see `range_beyond`).
    pub caps: Option<Vec<(Vec<Bound>, i64)>>,
    /// The binder's identifiers declared before `x` (see `range_pushed`).
    pub before: Vec<Sym>,
}

/// The range of `x` given by the conjuncts `cs` not yet `checked`, whose
/// other side is `ready`; `None` when there is none. `mentions_x(c)`:
/// conjunct `c` mentions `x`. A missing bound is clipped only when every
/// such conjunct is a bound, a typing, `x /= E`, a comparison with a
/// `partner` or a definition that `defines` (see `range_alias`) (so that
/// no other conjunct could give ProB a finite domain, as `f(x) = 3`
/// would).
pub fn range_of(
    x: Sym,
    cs: &[&Expr],
    checked: &[bool],
    ready: &dyn Fn(&Expr) -> bool,
    mentions_x: &dyn Fn(usize) -> bool,
    partner: &dyn Fn(Sym) -> bool,
    defines: &dyn Fn(&Expr) -> bool,
) -> Option<Range> {
    let is_x = |e: &Expr| matches!(e.kind, ExprKind::Ident(s) if s == x);
    let mut r = Range::default();
    let (mut integer, mut only_bounds) = (false, true);
    for (c, e) in cs.iter().enumerate() {
        if checked[c] || !mentions_x(c) {
            continue;
        }
        // `x op E`, or `E op x` read as `x op' E`
        let (side, op) = match &e.kind {
            ExprKind::Bin(op, a, b) if is_x(a) && !is_x(b) && ready(b) => (Side::Right, *op),
            ExprKind::Bin(op, a, b) if is_x(b) && !is_x(a) && ready(a) => (Side::Left, mirror(*op)),
            _ if domain_end_of_unbound(e, x, ready) || defines(e) => continue,
            _ if super::range_member::excludes(e, x, ready) => {
                r.excluded.push((c, x));
                continue;
            }
            _ if super::range_group::divides(e, x, partner, cs) => {
                integer = true;
                continue;
            }
            _ if compared_with_partner(e, x, partner) => {
                if let ExprKind::Bin(op, a, b) = &e.kind {
                    let (op, y) = if is_x(a) { (*op, b) } else { (mirror(*op), a) };
                    // (the partner is above, shift)
                    let tie = match op {
                        BinOp::Lt => Some((true, 1)),
                        BinOp::Le => Some((true, 0)),
                        BinOp::Gt => Some((false, 1)),
                        BinOp::Ge => Some((false, 0)),
                        _ => None,
                    };
                    if let (Some((above, shift)), ExprKind::Ident(y)) = (tie, &y.kind) {
                        let partners = if above { &mut r.above } else { &mut r.below };
                        partners.push((*y, shift));
                    }
                    r.ties.extend(tie);
                    integer |= matches!(op, BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge);
                    if matches!(e.kind, ExprKind::Bin(BinOp::Neq, ..)) {
                        r.holes.push(Hole::Partner);
                    }
                }
                continue;
            }
            // `not(E1..E2 <: S)`: no domain (see `range_negated`)
            _ if super::range_negated::waits(e) => continue,
            _ => {
                only_bounds = false;
                continue;
            }
        };
        let bound = |shift| Bound::Expr { c, side, shift };
        integer |= matches!(op, BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge);
        match (op, &e.kind) {
            (BinOp::Lt, _) => r.upper.push(bound(-1)),
            (BinOp::Le, _) => r.upper.push(bound(0)),
            (BinOp::Gt, _) => r.lower.push(bound(1)),
            (BinOp::Ge, _) => r.lower.push(bound(0)),
            (BinOp::Neq, _) => r.holes.push(Hole::Expr { c, side }),
            // `x /: S`, S finite: no bound (see `range_member`)
            (BinOp::NotIn, ExprKind::Bin(_, _, set))
                if matches!(side, Side::Right) && !super::plan::infinite(set) =>
            {
                r.excluded.push((c, x))
            }
            (BinOp::In, ExprKind::Bin(_, _, set)) if matches!(side, Side::Right) => {
                let typing = interval(c, set, ready, &mut r);
                integer |= typing;
                only_bounds &= typing;
            }
            _ => only_bounds = false,
        }
    }
    r.clip = r.lower.is_empty() || r.upper.is_empty();
    (!r.clip || (integer && only_bounds)).then_some(r)
}

/// Whether `c` is `f : lo..x --> R` (any space of relations) with `f` an
/// identifier not yet bound and `lo` ready: it gives `x` no bound, and
/// ProB, which cannot enumerate `f` before `x`, clips `x` as if the
/// conjunct were not there (`0 < n & f : 1..n --> D` has `n` in
/// `1..MAXINT`).
fn domain_end_of_unbound(c: &Expr, x: Sym, ready: &dyn Fn(&Expr) -> bool) -> bool {
    if super::range_subset::interval_end(c, x, ready) {
        return true;
    }
    let ExprKind::Bin(BinOp::In, f, space) = &c.kind else {
        return false;
    };
    let ExprKind::Bin(BinOp::Space(_), d, r) = &space.kind else {
        return false;
    };
    let ExprKind::Bin(BinOp::Interval, lo, hi) = &d.kind else {
        return false;
    };
    let unbound_f = matches!(f.kind, ExprKind::Ident(_)) && !ready(f);
    unbound_f && matches!(hi.kind, ExprKind::Ident(s) if s == x) && ready(lo) && ready(r)
}

/// Whether `c` is `x op y` (either way round, `op` one of `<`, `<=`, `>`,
/// `>=`, `/=`) with `y` a `partner` (see `range_group`): no bound, and
/// no obstacle to clipping both `x` and `y` to `MININT..MAXINT`, the
/// conjunct being checked once both are bound (`Tmin > 0 & Tmin < Tmax`
/// has ProB's solutions `Tmin` in `1..2`, `Tmax` in `Tmin+1..MAXINT`).
fn compared_with_partner(c: &Expr, x: Sym, partner: &dyn Fn(Sym) -> bool) -> bool {
    use BinOp::*;
    let ExprKind::Bin(Lt | Le | Gt | Ge | Neq, a, b) = &c.kind else {
        return false;
    };
    let is_x = |e: &Expr| matches!(e.kind, ExprKind::Ident(s) if s == x);
    let other = |e: &Expr| matches!(e.kind, ExprKind::Ident(s) if s != x && partner(s));
    (is_x(a) && other(b)) || (is_x(b) && other(a))
}

/// `x op E` read as `E op' x`.
pub(super) fn mirror(op: BinOp) -> BinOp {
    match op {
        BinOp::Lt => BinOp::Gt,
        BinOp::Gt => BinOp::Lt,
        BinOp::Le => BinOp::Ge,
        BinOp::Ge => BinOp::Le,
        // `E : x` and the rest give no bound
        _ => BinOp::NotIn,
    }
}

/// The bounds given by `x : s` (conjunct `c`); whether `s` is a set of
/// integers.
fn interval(c: usize, s: &Expr, ready: &dyn Fn(&Expr) -> bool, r: &mut Range) -> bool {
    match &s.kind {
        ExprKind::Named(NamedSet::Natural) => r.lower.push(Bound::Const(0)),
        ExprKind::Named(NamedSet::Natural1) => r.lower.push(Bound::Const(1)),
        ExprKind::Named(NamedSet::Integer) => {}
        // `x : NATURAL - {0}` (the InitialisationByPredicate models): the
        // bounds of `NATURAL`, the conjunct checked once `x` is bound.
        // Not `NATURAL - vals`: ProB's count of Bicknell_Timeout's `v :
        // NATURAL - vals` (74 states) is not that of `v : 0..MAXINT`.
        ExprKind::Bin(BinOp::Minus, a, b)
            if literals(b)
                && matches!(
                    a.kind,
                    ExprKind::Named(NamedSet::Natural | NamedSet::Natural1 | NamedSet::Integer)
                ) =>
        {
            r.holes.push(Hole::Literals { c });
            return interval(c, a, ready, r);
        }
        ExprKind::Bin(BinOp::Interval, lo, hi) => {
            let bound = |side| Bound::Expr { c, side, shift: 0 };
            if ready(lo) {
                r.lower.push(bound(Side::IntervalLow));
            }
            if ready(hi) {
                r.upper.push(bound(Side::IntervalHigh));
            }
        }
        _ => return false,
    }
    true
}

/// Whether `e` is a set of integer literals (`{0}`, `{0, 2}`).
pub(super) fn literals(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::SetExt(v) if v.iter().all(|x| matches!(x.kind, ExprKind::Int(_))))
}

/// The candidate values of a range: `max(lower)..min(upper)`, a missing
/// side clipped to `MININT`/`MAXINT` in a `guard`'s binder; none where
/// ProB's clipping is not known, in a provisional binder
/// (`errors_provisional`), a refusal elsewhere.
pub fn candidates(r: &Range, cs: &[&Expr], env: &mut Env, guard: bool) -> E<Vec<i64>> {
    let pos = r
        .lower
        .iter()
        .chain(&r.upper)
        .find_map(|b| match b {
            Bound::Expr { c, .. } => Some(cs[*c].pos),
            Bound::Lin { c, .. } => Some(cs[*c].pos),
            Bound::Const(_) | Bound::Via { .. } => None,
        })
        .or_else(|| cs.first().map(|c| c.pos))
        .unwrap_or_default();
    let unbounded = || {
        Fail::Unsupported(
            "enumerating an integer with an infinite domain (ProB's result depends on how it clips it to MININT..MAXINT)".into(),
            pos,
        )
    };
    if r.clip && !guard {
        return Err(unbounded());
    }
    let (minint, maxint) = (env.w.minint, env.w.maxint);
    let lo = extreme(&r.lower, cs, env, i64::max)?;
    let hi = extreme(&r.upper, cs, env, i64::min)?;
    let within = |v: i64| (minint..=maxint).contains(&v);
    let beyond = match (lo, hi) {
        (Some(lo), None) => super::range_beyond::single(r, lo, cs, env)?,
        _ => false,
    };
    let (lo, hi) = match (lo, hi) {
        (Some(lo), Some(hi)) => (lo, hi),
        (Some(lo), None) if beyond => (lo, lo),
        (Some(lo), None) if within(lo) => (lo, maxint),
        (None, Some(hi)) if within(hi) => (minint, hi),
        (None, None) => (minint, maxint),
        _ => return crate::errors_provisional::defer(unbounded(), guard),
    };
    let pushed_out = |&(above, shift): &(bool, i64)| match above {
        true => lo.saturating_add(shift) > maxint,
        false => hi.saturating_sub(shift) < minint,
    };
    if r.ties.iter().any(pushed_out)
        || (lo <= hi && super::range_pushed::tops_out(r, (lo, hi), cs, env)?)
    {
        return crate::errors_provisional::defer(unbounded(), guard);
    }
    let clipped = (r.lower.is_empty(), r.upper.is_empty());
    let tail = match clipped {
        (false, true) => super::range_tail::end(r, lo, cs, env)?,
        _ => None,
    };
    let cut_at_edge = |env: &mut Env| -> E<bool> {
        Ok(
            super::range_member::reaches_edge(&r.excluded, clipped, cs, env)?
                || super::range_holes::reaches_edge(&r.holes, clipped, cs, env)?,
        )
    };
    if super::range_pushed::beyond(r, clipped, cs, env)? || (tail.is_none() && cut_at_edge(env)?) {
        return crate::errors_provisional::defer(unbounded(), guard);
    }
    let hi = tail.unwrap_or(hi);
    if hi < lo {
        return Ok(Vec::new());
    }
    if hi
        .checked_sub(lo)
        .is_none_or(|d| d as u64 >= crate::eval::ENUM_LIMIT as u64)
    {
        return Err(Fail::Unsupported(
            format!("enumerating the integers {lo}..{hi} derived from bounds"),
            pos,
        ));
    }
    Ok((lo..=hi).collect())
}

/// The tightest of `bounds` by `pick` (`max` for lower bounds), if any.
pub(super) fn extreme(
    bounds: &[Bound],
    cs: &[&Expr],
    env: &mut Env,
    pick: fn(i64, i64) -> i64,
) -> E<Option<i64>> {
    let mut out = None;
    for b in bounds {
        let v = value(b, cs, env)?;
        out = Some(out.map_or(v, |o| pick(o, v)));
    }
    Ok(out)
}

fn value(b: &Bound, cs: &[&Expr], env: &mut Env) -> E<i64> {
    let (c, side, shift) = match b {
        Bound::Const(n) => return Ok(*n),
        Bound::Expr { c, side, shift } => (*c, *side, *shift),
        Bound::Lin {
            c,
            side,
            shift,
            x,
            above,
        } => return solved(*c, (*side, *shift, *above), *x, cs, env),
        Bound::Via {
            inner,
            upper,
            shift,
        } => {
            let pick = if *upper { i64::min } else { i64::max };
            let pos = cs.first().map(|c| c.pos).unwrap_or_default();
            let v = extreme(inner, cs, env, pick)?
                .ok_or_else(|| Fail::Unsupported("a bound through no bound".into(), pos))?;
            return v.checked_add(*shift).ok_or_else(|| overflow(pos));
        }
    };
    let e = side_of(cs[c], side);
    let n = env.eval(e)?.as_int().map_err(|m| Fail::Wd(m, e.pos))?;
    n.checked_add(shift).ok_or_else(|| overflow(e.pos))
}

/// `side` of the binary conjunct `c`.
fn side_of(c: &Expr, side: Side) -> &Expr {
    let ExprKind::Bin(_, a, b) = &c.kind else {
        unreachable!("a bound is a binary conjunct")
    };
    match (side, &b.kind) {
        (Side::Left, _) => a,
        (Side::Right, _) => b,
        (Side::IntervalLow, ExprKind::Bin(_, lo, _)) => lo,
        (Side::IntervalHigh, ExprKind::Bin(_, _, hi)) => hi,
        _ => unreachable!("an interval bound is `x : lo..hi`"),
    }
}

/// The bound of `inner` given by `inner * o <= t` (`above`: `floor(t /
/// o)`) or `>= t` (the ceiling), `o` positive.
fn quotient(t: i64, o: i64, above: bool, e: &Expr) -> E<i64> {
    Ok(match above {
        true => t.div_euclid(o),
        false => {
            -(t.checked_neg()
                .ok_or_else(|| overflow(e.pos))?
                .div_euclid(o))
        }
    })
}

/// For `Bound::Lin`: the bound of `x` given by the chain `A` (the side of
/// conjunct `c` other than `side`, the left one for `A : lo..hi`) being at
/// most (`above`) or at least `side`'s value plus `shift`.
fn solved(
    c: usize,
    (side, shift, above): (Side, i64, bool),
    x: Sym,
    cs: &[&Expr],
    env: &mut Env,
) -> E<i64> {
    let other = match side {
        Side::Left => Side::Right,
        _ => Side::Left,
    };
    let chain = side_of(cs[c], other);
    let e = side_of(cs[c], side);
    let t = env.int(e)?;
    let t = t.checked_add(shift).ok_or_else(|| overflow(e.pos))?;
    peel(chain, x, t, above, env)
}

/// The bound of `x` given by `e <= t` (`above`) or `e >= t`, `e` a chain of
/// `+`, `-` and products by a positive factor with one `x`, the rest
/// ready.
fn peel(e: &Expr, x: Sym, t: i64, above: bool, env: &mut Env) -> E<i64> {
    let has_x = |e: &Expr| {
        let mut v = Vec::new();
        crate::solve::idents(e, &mut v);
        v.contains(&x)
    };
    let ExprKind::Bin(op, a, b) = &e.kind else {
        return Ok(t);
    };
    if super::range_double::doubled(e, x) {
        // `x + x <= t` is `x * 2 <= t`
        return peel(a, x, quotient(t, 2, above, e)?, above, env);
    }
    let (inner, other, left) = if has_x(a) {
        (a, b, true)
    } else {
        (b, a, false)
    };
    let o = env.int(other)?;
    let ovf = || overflow(e.pos);
    match (op, left) {
        (BinOp::Plus, _) => peel(inner, x, t.checked_sub(o).ok_or_else(ovf)?, above, env),
        (BinOp::Minus, true) => peel(inner, x, t.checked_add(o).ok_or_else(ovf)?, above, env),
        // `o - inner <= t` is `inner >= o - t`
        (BinOp::Minus, false) => peel(inner, x, o.checked_sub(t).ok_or_else(ovf)?, !above, env),
        (BinOp::Mul, _) if o > 0 => peel(inner, x, quotient(t, o, above, e)?, above, env),
        _ => Err(Fail::Unsupported(
            "a bound through a product by a factor that is not positive".into(),
            e.pos,
        )),
    }
}
