//! ProB's MACE-style symmetry reduction of the constants that are
//! elements of a deferred set (`symmetry`), applied while solving the
//! PROPERTIES instead of only to their solutions: a partial assignment
//! whose values for a group's first constants (in declaration order) do
//! not form a restricted growth string has no kept extension, so the
//! search stops there. Event-B's `partition(BLOCKS, {A}, .., {I})` beside
//! `rtbl = {A |-> R1, ..}` (Abrial's train contexts) otherwise bound the
//! relations first, over their whole spaces, and then the 9! and 8!
//! orders of the listed constants. The partitions' allocation of free
//! elements in order is checked the same way (`deferred_prune`).
//!
//! The kept solutions are unchanged: `Symmetry::keeps` still filters
//! them, and a pruned branch holds none it would keep. Not used where an
//! unmodelled symmetry construct counts the unreduced solutions
//! (`deferred_unique`).
//!
//! Owns the prefix check and which constants the plan binds first; the
//! reduction itself is `symmetry`'s.

use crate::ast::Sym;
use crate::eval::{Env, World};
use crate::symmetry::restricted_growth;

use super::deferred_prune::PartsInOrder;

/// The symmetry groups of the constants, by name, in declaration order.
pub struct Canon {
    groups: Vec<Vec<Sym>>,
    /// the partitions' allocation in order (`deferred_prune`)
    parts: Option<PartsInOrder>,
}

impl Canon {
    /// The pruning for the groups `groups` and the partitions' parts
    /// `partitions` (indices into `const_ids`, with each set's first free
    /// element); `None` when there is neither.
    pub fn of(
        groups: &[Vec<usize>],
        partitions: &[(Vec<usize>, u32)],
        const_ids: &[Sym],
    ) -> Option<Canon> {
        let groups: Vec<Vec<Sym>> = groups
            .iter()
            .filter(|g| !g.is_empty())
            .map(|g| g.iter().map(|&k| const_ids[k]).collect())
            .collect();
        let parts = PartsInOrder::of(partitions, const_ids);
        (!groups.is_empty() || parts.is_some()).then_some(Canon { groups, parts })
    }

    /// The pruning of the PROPERTIES' solutions for the constants
    /// `const_ids` of `w`; `None` where an unmodelled symmetry construct
    /// needs every unreduced solution.
    pub fn of_world(w: &World, const_ids: &[Sym]) -> Option<Canon> {
        match w.unmodelled_symmetry {
            Some(_) => None,
            None => {
                let partitions: Vec<(Vec<usize>, u32)> = (w.symmetry.partitions.iter())
                    .map(|(p, free)| (p.parts.clone(), *free))
                    .collect();
                Canon::of(&w.symmetry.groups, &partitions, const_ids)
            }
        }
    }

    /// The indices (into `const_ids`) of the grouped constants, for the
    /// plan to bind first.
    pub fn first(&self, const_ids: &[Sym]) -> Vec<usize> {
        let grouped = |s: &Sym| self.groups.iter().any(|g| g.contains(s));
        (0..const_ids.len())
            .filter(|&k| grouped(&const_ids[k]))
            .collect()
    }

    /// Whether the values bound so far (locals of `env`) of each group's
    /// first constants, up to the first one not bound, form a restricted
    /// growth string: each element index at most one more than the
    /// largest before it.
    pub fn prefix_holds(&self, env: &Env) -> bool {
        let bound = |x: &Sym| env.local(*x);
        self.groups
            .iter()
            .all(|g| restricted_growth(g.iter().map_while(bound)))
            && self.parts.as_ref().is_none_or(|p| p.prefix_holds(env))
    }
}

#[cfg(test)]
mod tests {
    use crate::tests::count;

    #[test]
    fn pruned_solving_keeps_the_reduced_solutions() {
        // S has 2 elements; a and b distinct: of the 2 orders the
        // reduction keeps a = S1, b = S2, which fixes f = {S1 |-> 1,
        // S2 |-> 2}. States: root, constants, v = 1, v = 2; edges:
        // setup, init, go from each v. f is declared first, so only the
        // preference binds a and b before it
        let m = "MACHINE T SETS S CONSTANTS f, a, b
             PROPERTIES f : S --> 1..3 & a : S & b : S & a /= b & f(a) = 1 & f(b) = 2
             VARIABLES v INVARIANT v : 1..3 INITIALISATION v := f(a)
             OPERATIONS go = v := f(b) END";
        assert_eq!(count(m), (4, 4));
    }

    #[test]
    fn equal_constants_are_kept_once() {
        // a, b, c of S (2 elements), a = b allowed: restricted growth
        // strings 000, 001, 010, 011 with c /= a: 001 and 011 (a = b or
        // not). Each a constants state: v := card({a, b}) gives 1 and 2
        let m = "MACHINE T SETS S CONSTANTS a, b, c
             PROPERTIES a : S & b : S & c : S & c /= a & card({a, b, c}) >= 2
             VARIABLES v INVARIANT v : 1..3 INITIALISATION v := card({a, b}) END";
        assert_eq!(count(m), (5, 4));
    }
}
