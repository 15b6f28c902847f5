//! Identifiers whose type, the elements of a deferred set, is only
//! inferred from their uses (`a /= zz`, `c_ :| (X |-> z) |-> c_' /: r`):
//! which of them the solver may enumerate over the whole set (`typing`'s
//! last-resort generator) without modelling ProB's symmetry reduction.
//!
//! - A variable (`:(`, `:|`): ProB reduces no variable's values by
//!   symmetry (`SET_PREF_SYMMETRY_MODE` is refused, `compile`), so every
//!   element is a value (Vizing_Breitner's `c_ :| !z.(..)`).
//! - A constant of a deferred set `S` whose constants typed `x : S`
//!   include `card(S)` said pairwise distinct: they take all of `S`, so a
//!   permutation of `S` that fixes their values is the identity, and each
//!   orbit of solutions has exactly one solution whose typed constants are
//!   in the MACE order `symmetry` keeps. Whether ProB reduces the inferred
//!   constant too or not, it keeps one solution per orbit: that many
//!   (DeferredSetMinCard: `a, b, c, d` distinct fix `ID` of 4 elements,
//!   `zz /= a` takes the 3 others: 15 states, 54 transitions).
//!
//! Other constants stay refused (`typing`). Owns that choice; the sizes
//! are `setsize`'s, the MACE order `symmetry`'s.

use crate::ast::*;
use crate::bijection::FixedBijection;

/// The slots and sets whose inferred elements are enumerated whole.
#[derive(Debug, Default)]
pub struct InferredElements {
    /// The number of constants (the first slots).
    constants: usize,
    /// The deferred sets (as `Value::Elem`'s set numbers) that their
    /// constants said pairwise distinct fill.
    filled: Vec<u32>,
}

/// A deferred set as `compile` numbers it: its name, its number among
/// all sets and its number of elements.
pub struct NumberedSet {
    pub name: Sym,
    pub number: u32,
    pub size: usize,
}

impl InferredElements {
    /// `sets`: the deferred sets; `bijections`: those `bijection` fixes
    /// (their sets have no MACE order, so are never filled here).
    pub fn of(
        machines: &[Machine],
        const_ids: &[Sym],
        sets: &[NumberedSet],
        bijections: &[FixedBijection],
    ) -> Self {
        let conjuncts: Vec<&Expr> = machines
            .iter()
            .flat_map(|m| &m.properties)
            .flat_map(crate::solve::conjuncts)
            .collect();
        let filled = sets
            .iter()
            .filter(|s| {
                !bijections
                    .iter()
                    .any(|b| b.set == s.name || b.other == Some(s.name))
            })
            .filter(|s| {
                s.size > 0
                    && crate::setsize::distinct_members(&conjuncts, s.name, const_ids)
                        .is_some_and(|k| k >= s.size)
            })
            .map(|s| s.number)
            .collect();
        InferredElements {
            constants: const_ids.len(),
            filled,
        }
    }

    /// Whether slot `slot`, whose type's sample is `sample`, may take
    /// every value of its type (see the module comment).
    pub fn whole(&self, slot: usize, sample: &crate::value::Value) -> bool {
        slot >= self.constants
            || matches!(sample, crate::value::Value::Elem(s, _) if self.filled.contains(s))
    }
}
