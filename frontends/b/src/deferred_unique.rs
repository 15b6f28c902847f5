//! PROPERTIES with a symmetry-breaking construct of ProB's that is not
//! modelled (a bijection over a deferred set other than those `bijection`
//! fixes, a constant element of a constant set: `compile`) are solved in
//! full, and accepted when they have exactly one solution.
//!
//! ProB's static symmetry breaking (its documentation, "Symmetry
//! Reduction") only drops constant solutions that are images of kept ones
//! under permutations of the deferred sets' elements: it keeps at least
//! one solution of each orbit. A single solution is its own orbit (every
//! permutation maps it to a solution, so to itself): ProB keeps it, and
//! its states are ours. With more solutions ProB's choice is not
//! modelled: refused, with the construct's message, as soon as a second
//! solution is found. No solution is left to `model`'s rule for PROPERTIES
//! without solution. The sizes of the deferred sets are `setsize`'s, as
//! for any other machine.
//!
//! ProB's count: ring_ctx (`n : N >->> N` a single cycle, `N` of the
//! default 2 elements: one solution, 2 states and 2 transitions).
//!
//! Owns that acceptance; solving is `solve`'s.

use crate::ast::Pos;
use crate::eval::Fail;

/// The construct ProB reduces by symmetry in a way not modelled: its
/// position and what it is.
pub type Unmodelled = Option<(Pos, String)>;

/// The refusal once `seen` unreduced solutions are found, when more than
/// one is.
pub fn beyond_one(u: &Unmodelled, seen: usize) -> Result<(), Fail> {
    match u {
        Some((pos, what)) if seen > 1 => Err(Fail::Unsupported(
            format!("{what} (ProB breaks deferred-set symmetry while solving PROPERTIES; more than one solution)"),
            *pos,
        )),
        _ => Ok(()),
    }
}

/// The refusal when the single solution found is not among the `kept`
/// ones (the modelled symmetry reductions dropped it).
pub fn kept_whole(u: &Unmodelled, seen: usize, kept: usize) -> Result<(), Fail> {
    match u {
        Some((pos, what)) if kept != seen => Err(Fail::Unsupported(
            format!("{what} (ProB breaks deferred-set symmetry while solving PROPERTIES)"),
            *pos,
        )),
        _ => Ok(()),
    }
}
