//! The tail of an integer range clipped above, past values excluded at
//! its edge (`newPtr : NATURAL & newPtr /: 1..MaxVector`, ControlFlowR2).
//! ProB's finite-domain solver cuts the excluded values out of `x`'s
//! domain `lo..sup`, which then ends in an infinite interval `T..sup`;
//! its enumeration clips that interval to `T..max(T, MAXINT)`, as it
//! clips `lo..sup` to `lo..max(lo, MAXINT)` (see `range_beyond`): with
//! `MaxVector = 3` (`MAXINT = 3`) it enumerates `0` and `4`, with
//! `MaxVector = 2` `0` and `3` (ControlFlowR2's 1,425,468 transitions are
//! those of this rule, not of `0..MAXINT` nor of `0..4`).
//!
//! This front-end does the same only in the case observed, the tail
//! starting right past `MAXINT`: the excluded values at least `lo` end
//! at `MAXINT` exactly (a value cut beyond it, as in `x /= 5`, leaves a
//! finite interval or a later tail past `MAXINT`, whose enumeration is
//! not known: unsupported), the excluded values known (`x /= E`, `x :
//! NATURAL - {..}`, `A /: S`, none from a partner), `lo` at most
//! `MAXINT`, no partner compared with `x`. The candidates are then
//! `lo..MAXINT + 1`, the conjuncts checked as for any range.
//!
//! Owns the tail's test and its end; `bounds` the rest of the range.

use super::bounds::Range;
use super::range_holes::{hole_values, Hole};
use crate::ast::*;
use crate::eval::{Env, E};
use crate::value::Value;

/// The end `MAXINT + 1` of the range `lo..` (clipped above) when its
/// holes and exclusions cut values up to `MAXINT` exactly (see the
/// module's doc); `None` otherwise (no value excluded at the edge, or a
/// case left to `bounds`' refusal).
pub(super) fn end(r: &Range, lo: i64, cs: &[&Expr], env: &mut Env) -> E<Option<i64>> {
    let maxint = env.w.maxint;
    if !r.ties.is_empty() || lo > maxint || r.holes.iter().any(|h| matches!(h, Hole::Partner)) {
        return Ok(None);
    }
    let mut cut: Vec<i64> = Vec::new();
    for h in &r.holes {
        cut.extend(ints(hole_values(h, cs, env)?));
    }
    cut.extend(super::range_member::excluded_values(&r.excluded, cs, env)?);
    cut.retain(|&n| n >= lo);
    // the tail starts right past MAXINT: `MAXINT` cut, nothing beyond
    let top = cut.iter().max().copied();
    Ok((top == Some(maxint))
        .then(|| maxint.checked_add(1))
        .flatten())
}

fn ints(vs: Vec<Value>) -> impl Iterator<Item = i64> {
    vs.into_iter().filter_map(|v| match v {
        Value::Int(n) => Some(n),
        _ => None,
    })
}
