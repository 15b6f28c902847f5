//! ProB's static symmetry breaking of partitions of deferred sets
//! (`partition`: free elements allocated to the parts in order), applied
//! while solving the PROPERTIES instead of only to their solutions: once
//! the first parts of a partition are bound, their values must hold the
//! first free elements in order (the later parts hold the rest, all
//! larger), or no solution below is kept, so the search stops there.
//! DefSetPartTestUniverse's 9 elements split 3 + 4 + 2 otherwise solved
//! `author` and `lent` for each of the 1,260 partitions and kept one.
//!
//! The kept solutions are unchanged: `Symmetry::keeps` still filters
//! them, and a pruned branch holds none it would keep (in a solution the
//! parts are disjoint and cover the set). Owns the prefix check; the
//! allocation rule is `partition`'s.

use crate::ast::Sym;
use crate::eval::Env;
use crate::partition::allocated_in_order;

/// The partitions' parts, by name in the union's order, each with the
/// index of its set's first free element.
pub struct PartsInOrder {
    partitions: Vec<(Vec<Sym>, u32)>,
}

impl PartsInOrder {
    /// `partitions`: the parts as indices into `const_ids`; `None` when
    /// there is no partition.
    pub fn of(partitions: &[(Vec<usize>, u32)], const_ids: &[Sym]) -> Option<PartsInOrder> {
        let partitions: Vec<(Vec<Sym>, u32)> = partitions
            .iter()
            .map(|(parts, free)| (parts.iter().map(|&k| const_ids[k]).collect(), *free))
            .collect();
        (!partitions.is_empty()).then_some(PartsInOrder { partitions })
    }

    /// Whether the values bound so far (locals of `env`) of each
    /// partition's first parts, up to the first one not bound, hold the
    /// first free elements in order.
    pub fn prefix_holds(&self, env: &Env) -> bool {
        let bound = |x: &Sym| env.local(*x);
        self.partitions.iter().all(|(parts, free)| {
            let vals: Vec<_> = parts.iter().map_while(bound).collect();
            allocated_in_order(&vals, *free, vals.len() == parts.len())
        })
    }
}
