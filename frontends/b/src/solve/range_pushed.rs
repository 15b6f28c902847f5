//! Partners that push a clipped integer out of `MININT..MAXINT` (see
//! `range_group`): `hi > 10 & hi < lo` with `lo` labelled first. ProB
//! propagates `hi > 10` through `hi < lo` before it labels anything:
//! `lo`'s domain is `12..sup`, which it enumerates from 12 (see
//! `range_beyond`), where clipping `lo` to `MININT..MAXINT` finds no
//! solution at all; the same through a chain of partners (`a >= 2 & b >
//! a & c > b` has `c` in `4..sup`). So an identifier whose side is clipped is refused
//! when a partner's own bound, carried over by the comparison, lies
//! beyond that side of the box: for `x > y` (`x >= y + 1`), `y`'s own
//! lower bounds plus 1 against `MAXINT`; for `x < y`, `y`'s own upper
//! bounds minus 1 against `MININT`. A partner's own bound inside the box
//! leaves the solutions those of the box (the bound is checked).
//!
//! The same from `x`'s own candidates (`tops_out`): with `x < y` and
//! `x`'s range reaching `MAXINT`, ProB labelling `x` first at `MAXINT`
//! has `y`'s domain `MAXINT+1..sup`, which it enumerates from `MAXINT+1`
//! (see `range_beyond`), a solution outside the box; labelling `y` first
//! (in `MININT..MAXINT`, or from its own bound carried over) it finds
//! none there. ProB labels such integers in the order they are declared:
//! CrsCtl's `Tmin > 0 & Tmin < Tmax` (constants `Amax, Tmax, Tmin`) has
//! the 36 states of the box, where labelling `Tmin` first would add
//! `Tmin = 3, Tmax = 4` (48). So a candidate of `x` pushing a partner
//! beyond the box (`x`'s bounds tightened by the partners' own bounds
//! carried over, as ProB propagates them) is accepted only when that
//! partner is declared before `x`, and refused otherwise (`x : INTEGER &
//! y : INTEGER & x < y`, either order: one of them pushes the other).
//!
//! Owns the partners' own bounds (planning) and the tests (enumeration);
//! the bounds themselves stay in `bounds`.

use super::bounds::{extreme, range_of, Bound, Range};
use crate::ast::*;
use crate::eval::{Env, E};

/// One partner's own bounds carried over to `x`: `x >= b + shift` for
/// its lower bounds `b` (`below`), `x <= b - shift` for its upper ones.
#[derive(Clone, Debug)]
pub struct Push {
    pub own: Vec<Bound>,
    pub shift: i64,
    pub below: bool,
}

/// The pushes of `x`'s partners (`r.below`, `r.above`) by their own
/// conjuncts (comparisons with `x` and the other `partner`s being no
/// obstacle), and through them of their partners on the same side,
/// the shifts adding up (`a >= 2 & b > a & c > b`: `c >= 4`); a partner
/// without a range of its own pushes nothing.
pub(super) fn pushes(
    x: Sym,
    r: &Range,
    cs: &[&Expr],
    ready: &dyn Fn(&Expr) -> bool,
    mentions: &dyn Fn(Sym, usize) -> bool,
    partner: &dyn Fn(Sym) -> bool,
) -> Vec<Push> {
    let none = |_: &Expr| false;
    let checked = vec![false; cs.len()];
    let own = |y: Sym| {
        let partner = |s: Sym| s == x || partner(s);
        range_of(y, cs, &checked, ready, &|c| mentions(y, c), &partner, &none)
    };
    let mut out = Vec::new();
    for (first, below) in [(&r.below, true), (&r.above, false)] {
        // (partner, shift so far, the path to it)
        let mut todo: Vec<(Sym, i64, Vec<Sym>)> =
            first.iter().map(|&(y, s)| (y, s, vec![x])).collect();
        while let Some((y, shift, path)) = todo.pop() {
            let Some(o) = own(y) else { continue };
            let (bounds, next) = if below {
                (o.lower, o.below)
            } else {
                (o.upper, o.above)
            };
            if !bounds.is_empty() {
                out.push(Push {
                    own: bounds,
                    shift,
                    below,
                });
            }
            for (z, s) in next {
                if !path.contains(&z) && z != y && path.len() < cs.len() {
                    let mut p = path.clone();
                    p.push(y);
                    todo.push((z, shift.saturating_add(s), p));
                }
            }
        }
    }
    out
}

/// Whether a partner pushes `x` beyond the clipped side of its range
/// (`clipped`: lower side, upper side), see the module's doc.
pub(super) fn beyond(r: &Range, clipped: (bool, bool), cs: &[&Expr], env: &mut Env) -> E<bool> {
    let (minint, maxint) = (env.w.minint, env.w.maxint);
    for p in &r.pushes {
        let out = match p.below {
            true => extreme(&p.own, cs, env, i64::max)?
                .is_some_and(|b| clipped.1 && b.saturating_add(p.shift) > maxint),
            false => extreme(&p.own, cs, env, i64::min)?
                .is_some_and(|b| clipped.0 && b.saturating_sub(p.shift) < minint),
        };
        if out {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Whether a candidate of `x` in `lo..hi` pushes a partner declared
/// after `x` beyond `MININT..MAXINT` (see the module's doc).
pub(super) fn tops_out(r: &Range, (lo, hi): (i64, i64), cs: &[&Expr], env: &mut Env) -> E<bool> {
    let (minint, maxint) = (env.w.minint, env.w.maxint);
    let (mut lo, mut hi) = (lo, hi);
    for p in &r.pushes {
        match p.below {
            true => {
                if let Some(b) = extreme(&p.own, cs, env, i64::max)? {
                    lo = lo.max(b.saturating_add(p.shift));
                }
            }
            false => {
                if let Some(b) = extreme(&p.own, cs, env, i64::min)? {
                    hi = hi.min(b.saturating_sub(p.shift));
                }
            }
        }
    }
    let later = |y: &Sym| !r.before.contains(y);
    let up = r
        .above
        .iter()
        .any(|(y, s)| later(y) && hi.saturating_add(*s) > maxint);
    let down = r
        .below
        .iter()
        .any(|(y, s)| later(y) && lo.saturating_sub(*s) < minint);
    Ok(lo <= hi && (up || down))
}
