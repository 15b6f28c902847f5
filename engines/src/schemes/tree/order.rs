//! Slot orders of the tree engines (`tree`, `compact-tree`, parameter
//! `slot_order`): which slot each leaf position of the fixed binary tree
//! holds. The tree pairs positions `2i, 2i + 1` in its lowest tuples and
//! halves `[lo, lo + ⌈n/2⌉)`, `[lo + ⌈n/2⌉, hi)` above them; a node's table
//! holds the distinct projections of the stored states onto the slots
//! under it, so which slots share a subtree decides the tree's size.
//!
//! - `model`: the model's order (the paper's tree).
//! - `groups`: static, from the dependency matrix: a chain in which each
//!   next slot is the unplaced one touched (read or written) by the most
//!   similar set of transition groups (Jaccard), so slots that change
//!   together share the low subtrees (see docs/slot-order.md).
//! - `pairing`: dynamic, from the values of the first states of a
//!   breadth-first search (`sample`'s): the subtrees are built
//!   bottom-up, each joining the two free subtrees whose joint values grow
//!   least over the larger one's (see `pairing`), so slots that decide
//!   each other (rushhour's board cells and its cars' coordinates) share a
//!   subtree and no root half holds a whole encoding of the state.
//! - `sample`: dynamic: stores the first states of a breadth-first search
//!   in a tree of each of the orders above and takes the one that holds
//!   the fewest node tuples on them, another than `model` only where it is
//!   also predicted to save bits on the whole state space (see `sample`).
//!
//! The order is computed once, from the model, when the engine is
//! configured; the walk then reads each state through the permutation
//! (lossless, every answer unchanged). It owns only the orders; the tree
//! shape is `shape`'s. It must not know front-ends.

use super::pairing::pairing_order_of_columns;
use super::sample::{sample_choice, Sample};
pub use super::sample::{sample_profile, sample_scores, Score, SAMPLE_STATES, SAMPLE_VALUES};
use crate::registry::words;
use pins::Model;

words! {
    /// How the tree's leaves order the slots (`slot_order`).
    pub enum SlotOrder {
        /// The model's order.
        Model = "model",
        /// Chained by similarity of the groups touching each slot.
        Groups = "groups",
        /// Subtrees built bottom-up from slots whose joint values are few.
        Pairing = "pairing",
        /// The order above whose tree is smallest on the first states.
        Sample = "sample",
    }
}

/// The slot each leaf position holds (empty: the model's order).
pub fn slot_order(order: SlotOrder, model: &dyn Model) -> Vec<usize> {
    match order {
        SlotOrder::Model => Vec::new(),
        SlotOrder::Groups => group_chain(&touching_groups(model)),
        SlotOrder::Pairing => {
            let mut sample = Sample::explored(model);
            pairing_order_of_columns(sample.columns(model.slot_count(), usize::MAX))
        }
        SlotOrder::Sample => sample_choice(model),
    }
}

/// For each slot, the groups that read or write it (increasing).
fn touching_groups(model: &dyn Model) -> Vec<Vec<usize>> {
    let mut touched = vec![Vec::new(); model.slot_count()];
    for (g, group) in model.groups().iter().enumerate() {
        for &s in group.read.iter().chain(&group.write) {
            if touched[s].last() != Some(&g) {
                touched[s].push(g);
            }
        }
    }
    for t in &mut touched {
        t.sort_unstable();
        t.dedup();
    }
    touched
}

/// Jaccard similarity of two increasing lists, as (shared, union).
fn similarity(a: &[usize], b: &[usize]) -> (usize, usize) {
    let (mut i, mut j, mut shared) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                shared += 1;
                i += 1;
                j += 1;
            }
        }
    }
    (shared, a.len() + b.len() - shared)
}

/// The `groups` order: start at the slot touched by the most groups, then
/// repeatedly append the unplaced slot most similar to the last one
/// (ties: the lowest slot).
fn group_chain(touched: &[Vec<usize>]) -> Vec<usize> {
    let k = touched.len();
    let mut placed = vec![false; k];
    let first = (0..k).max_by_key(|&s| (touched[s].len(), std::cmp::Reverse(s)));
    let mut order: Vec<usize> = first.into_iter().collect();
    if let Some(&f) = order.first() {
        placed[f] = true;
    }
    while order.len() < k {
        let last = &touched[*order.last().unwrap_or(&0)];
        let mut best = (0usize, 1usize, usize::MAX);
        for s in (0..k).filter(|&s| !placed[s]) {
            let (shared, union) = similarity(last, &touched[s]);
            // shared / union > best.0 / best.1, compared without division.
            if best.2 == usize::MAX || shared * best.1 > best.0 * union.max(1) {
                best = (shared, union.max(1), s);
            }
        }
        placed[best.2] = true;
        order.push(best.2);
    }
    order
}

#[cfg(test)]
mod tests {
    use super::super::{Tree, TreeConfig};
    use super::*;
    use crate::blocks::budget::Budget;
    use crate::visited::VisitedSet;

    #[test]
    fn group_chain_places_slots_of_the_same_groups_side_by_side() {
        let touched = vec![vec![0], vec![1], vec![0], vec![1, 2], vec![]];
        // Slot 3 has the most groups; slot 1 shares group 1 with it, then
        // nothing is similar to slot 1: the lowest unplaced slot follows.
        assert_eq!(group_chain(&touched), vec![3, 1, 0, 2, 4]);
        assert!(group_chain(&[]).is_empty());
    }

    #[test]
    fn the_leaves_hold_the_slots_in_the_order() {
        let mut t = Tree::ordered(4, &TreeConfig::default(), vec![0, 2, 1, 3], Budget::unlimited()).unwrap();
        for i in 0..100u32 {
            assert!(t.find_or_insert(&[i, 7, i, 7 + i % 2]).unwrap().is_new());
            assert!(!t.find_or_insert(&[i, 7, i, 7 + i % 2]).unwrap().is_new());
        }
        // Slots 0 and 2 pair (100 tuples), 1 and 3 pair (2 tuples).
        let profile = t.node_profile();
        assert_eq!(profile, vec![(vec![0, 2], 100), (vec![1, 3], 2)]);
    }
}
