//! PROPERTIES with a symmetry-breaking construct of ProB's that is not
//! modelled (a bijection over a deferred set other than those `bijection`
//! fixes, a constant element of a constant set: `compile`) are solved in
//! full, and accepted when the solutions the modelled reductions keep
//! (`symmetry`) are exactly one of each orbit of all the solutions under
//! the permutations of the deferred sets' elements (`deferred_orbits`).
//!
//! ProB's static symmetry breaking (its documentation, "Symmetry
//! Reduction") only drops constant solutions that are images of kept ones
//! under permutations of the deferred sets' elements: it keeps at least
//! one solution of each orbit, and the solutions of an orbit have
//! isomorphic state spaces. When the modelled reductions already keep a
//! single solution of each orbit, ProB's counts are theirs. ProB's
//! counts: ring_ctx (`n : N >->> N` a single cycle, one solution, 2
//! states), Simpson_Four_Slot_Symm (`neg : INDEX >->> INDEX` beside a
//! partition of INDEX: 6 solutions, one orbit, the partition's order
//! keeps one: 25,345 states, 58,241 transitions), MembershipProperty6
//! (two bijections from `s`: 4 solutions, one orbit, one kept: 2 states),
//! MJB_Theory/M2 (a constant element of a constant set: 4 solutions, 2
//! orbits, 2 kept: 7 states, 13 transitions).
//!
//! Otherwise ProB's choice is not modelled and the machine is refused,
//! with the construct's message: ProB may keep more than one solution of
//! an orbit (rodin_train_4: 4 solutions, one orbit, 24 states = 4 x 6;
//! Dining: 216 solutions, 2 orbits, ProB keeps the 9 whose `lFork` is
//! fixed). (PO_Scheduler, once refused here, is `deferred_part_members`'
//! since its `pw : waiting & waiting <: PID` is reduced in MACE order.) No solution is
//! left to `model`'s rule for PROPERTIES without solution. The sizes of
//! the deferred sets are `setsize`'s, as for any other machine.
//!
//! Owns that acceptance; solving is `solve`'s, the orbits
//! `deferred_orbits`'.

use crate::ast::Pos;
use crate::eval::Fail;
use crate::value::Value;

/// The construct ProB reduces by symmetry in a way not modelled: its
/// position and what it is.
pub type Unmodelled = Option<(Pos, String)>;

/// Most unreduced solutions kept for the orbit test.
const SOLUTIONS_LIMIT: usize = 100_000;

/// The refusal once `seen` unreduced solutions are found, beyond what
/// the orbit test takes.
pub fn beyond_limit(u: &Unmodelled, seen: usize) -> Result<(), Fail> {
    match u {
        Some((pos, what)) if seen > SOLUTIONS_LIMIT => Err(Fail::Unsupported(
            format!("{what} (ProB breaks deferred-set symmetry while solving PROPERTIES; more than {SOLUTIONS_LIMIT} solutions)"),
            *pos,
        )),
        _ => Ok(()),
    }
}

/// The refusal, under an unmodelled construct, unless `kept` (the
/// solutions the modelled reductions keep) holds exactly one solution
/// of each orbit of `every` (all the solutions found): see the module
/// comment.
pub fn one_per_orbit(
    u: &Unmodelled,
    orbits: &crate::deferred_orbits::Orbits,
    every: &[Vec<Value>],
    kept: &[Vec<Value>],
) -> Result<(), Fail> {
    let Some((pos, what)) = u else {
        return Ok(());
    };
    let refuse = |why: &str| {
        Err(Fail::Unsupported(
            format!("{what} (ProB breaks deferred-set symmetry while solving PROPERTIES{why})"),
            *pos,
        ))
    };
    match orbits.one_per_orbit(every, kept) {
        Some(true) => Ok(()),
        Some(false) if every.len() > 1 => refuse(&format!(
            "; {} solutions, {} kept by the modelled reductions, not one per orbit",
            every.len(),
            kept.len()
        )),
        Some(false) => refuse(""),
        None => refuse("; too many permutations of the deferred sets to compare its solutions"),
    }
}
