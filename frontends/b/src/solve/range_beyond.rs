//! An integer bounded below beyond `MAXINT` and not above (`maxb > 1000`
//! with `MAXINT = 3`, SimpleAccount): ProB's enumeration of the infinite
//! domain `L..sup` takes `L..max(L, MAXINT)`, the single value `L`
//! (SimpleAccount's 2,007 states and 2,008,016 transitions are those of
//! `maxb = 1001` with `minb` in `MININT..0`; ControlFlowR2's `{0} \/ 4..`
//! enumerates `0` and `4`). This front-end does the same only where `L`
//! is the least value of ProB's domain whatever the order of labelling:
//!
//! * every lower bound is a closed expression (`hi > lo` with `lo` in
//!   `21..30`: which ProB labels first decides whether `hi` has one value
//!   or ten; `v > x` with `x` a variable would grow `x` without end);
//! * no partner is above `x` (`x < y` would push `y` beyond too: refused
//!   by `bounds`' ties);
//! * every partner `y` below `x` (`minb < maxb`) has upper bounds of its
//!   own whose least, plus the comparison's shift, is at most `L`: `y`
//!   then raises neither `x`'s least value (`y > 2000 & x > y` would) nor
//!   gets a domain up to `L` from `x` (`a : NATURAL & a < b` has `a` in
//!   `0..1000` once `b = 1001` is labelled first).
//!
//! Holes at the edge stay refused (`range_holes`, `range_member`).
//!
//! Owns the partners' caps (planning) and the test (enumeration).

use super::bounds::{extreme, range_of, Bound, Range};
use crate::ast::*;
use crate::eval::{Env, E};

/// For each partner `y` below `x` (with the comparison's shift), the
/// upper bounds `y` has of its own (its conjuncts, checked or not); `None`
/// when one has none, or when a lower bound of `x` is not closed
/// (`lone(c)`: conjunct `c` mentions no identifier but `x`).
pub(super) fn caps(
    x: Sym,
    r: &Range,
    cs: &[&Expr],
    ready: &dyn Fn(&Expr) -> bool,
    mentions: &dyn Fn(Sym, usize) -> bool,
    lone: &dyn Fn(usize) -> bool,
) -> Option<Vec<(Vec<Bound>, i64)>> {
    let constant = |b: &Bound| match b {
        Bound::Const(_) => true,
        Bound::Expr { c, .. } => lone(*c),
        Bound::Lin { .. } | Bound::Via { .. } => false,
    };
    if !r.lower.iter().all(constant) {
        return None;
    }
    let none = |_: &Expr| false;
    let checked = vec![false; cs.len()];
    let checked = &checked[..];
    r.below
        .iter()
        .map(|&(y, shift)| {
            let own = range_of(
                y,
                cs,
                checked,
                ready,
                &|c| mentions(y, c),
                &|s| s == x,
                &none,
            )?;
            (!own.upper.is_empty()).then_some((own.upper, shift))
        })
        .collect()
}

/// Whether `x`'s range, bounded below by `lo` beyond `MAXINT` and not
/// above, is the single value `lo` (see the module's doc).
pub(super) fn single(r: &Range, lo: i64, cs: &[&Expr], env: &mut Env) -> E<bool> {
    let Some(caps) = &r.caps else {
        return Ok(false);
    };
    if lo <= env.w.maxint || r.ties.iter().any(|&(above, _)| above) {
        return Ok(false);
    }
    for (upper, shift) in caps {
        match extreme(upper, cs, env, i64::min)? {
            Some(u) if u.saturating_add(*shift) <= lo => {}
            _ => return Ok(false),
        }
    }
    Ok(true)
}
