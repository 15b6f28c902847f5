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
//!   breadth-first search (the sample below): the subtrees are built
//!   bottom-up, each joining the two free subtrees whose joint values grow
//!   least over the larger one's (see `pairing`), so slots that decide
//!   each other (rushhour's board cells and its cars' coordinates) share a
//!   subtree and no root half holds a whole encoding of the state.
//! - `sample`: dynamic: stores the first states of a breadth-first search
//!   (at most [`SAMPLE_STATES`], and [`SAMPLE_VALUES`] slot values) in a
//!   tree in the model's order (the search's visited set; its queue holds
//!   references), stores them again, read back in the order found, in a
//!   tree of each other order above, one at a time (`pairing` is fitted to
//!   the states read back slot by slot, as numbered columns), and takes
//!   the one whose node tables hold the fewest tuples (`pairing`'s counted
//!   10/9, as it is fitted to the sample), another than `model` only if its
//!   share of `model`'s tuples does not rise
//!   from the sample's first quarter to the whole sample (an order that
//!   wins only on the first states loses on the whole state space: on
//!   needham.3 `groups` takes 0.76 of `model`'s tuples on the sample and
//!   1.11 of its bits on all states).
//!
//! The order is computed once, from the model, when the engine is
//! configured; the walk then reads each state through the permutation
//! (lossless, every answer unchanged). It owns only the orders; the tree
//! shape is `shape`'s. It must not know front-ends.

use super::pairing::{pairing_order_of_columns, thinning, NumberedColumn, SlotColumn};
use super::{tree_spec, HashRoot, Tree, TreeConfig, TreeDb};
use crate::blocks::index_table::Growth;
use crate::blocks::budget::Budget;
use crate::registry::words;
use crate::visited::{TableFull, VisitedSet};
use pins::{Model, Value};

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
            pairing_order_of_columns(sample.columns(model.slot_count()))
        }
        SlotOrder::Sample => {
            let scores = sample_scores(model);
            let [quarter, all] = scores[0].2;
            // `pairing` is fitted to the sample itself: it counts 10/9 of
            // its tuples (on leader_election.4 it takes 0.97 of `groups`'
            // tuples on the sample and 1.10 of its bits on all states).
            let cost = |c: &Scored| match c.0 {
                SlotOrder::Pairing => c.2[1].saturating_mul(10) / 9,
                _ => c.2[1],
            };
            // Fewer tuples on the sample, and a share of model's that does
            // not rise from the sample's first quarter to all of it.
            let wins = |c: &Scored| {
                let [q, a] = c.2;
                cost(c) < all && a as f64 / all as f64 <= q as f64 / quarter.max(1) as f64
            };
            let best = scores.into_iter().filter(wins).min_by_key(cost);
            best.map(|c| c.1).unwrap_or_default()
        }
    }
}

/// A candidate of `sample`: the order, its slots, and its node tuples on
/// the sample's first quarter and on all of it.
pub type Scored = (SlotOrder, Vec<usize>, [u64; 2]);

/// The candidates of `sample` (`model` first), each with its order and the
/// node tuples its tree takes on the first quarter of the first states of
/// `model` and on all of them.
pub fn sample_scores(model: &dyn Model) -> Vec<Scored> {
    let k = model.slot_count();
    let mut sample = Sample::explored(model);
    let mut scores = vec![(SlotOrder::Model, Vec::new(), sample.model_tuples())];
    // The other candidates are scored one at a time on the sample's states,
    // read back from the model's tree in the order they were found, so only
    // one more tree is alive at a time. `pairing` is fitted to the sample
    // read back slot by slot.
    let groups = slot_order(SlotOrder::Groups, model);
    let tuples = sample.tuples_in_order(k, &groups);
    scores.push((SlotOrder::Groups, groups, tuples));
    let order = pairing_order_of_columns(sample.columns(k));
    let tuples = sample.tuples_in_order(k, &order);
    scores.push((SlotOrder::Pairing, order, tuples));
    scores
}

/// Slots whose values one pass over the sample numbers (each holds its
/// numbering while the pass runs).
const COLUMNS_PER_PASS: usize = 16;

/// States the `sample` order explores and stores at most.
pub const SAMPLE_STATES: usize = 1 << 15;
/// Slot values (states × slots) the `sample` order stores at most.
pub const SAMPLE_VALUES: usize = 1 << 21;

/// The first states of a breadth-first search, stored in a tree in the
/// model's order (none: it could not store them), the search's visited
/// set; its queue holds references ([`VisitedSet::recall`] gives the states
/// back), so no state vector is kept.
struct Sample {
    seen: Option<Tree>,
    /// The tree's node tuples after each stored state.
    tuples: Vec<u32>,
    /// The stored states' references in the tree, in BFS order.
    queue: Vec<u64>,
}

impl Sample {
    /// The tree over the first states of a breadth-first search of `model`
    /// (at most [`SAMPLE_STATES`] and [`SAMPLE_VALUES`] slot values).
    fn explored(model: &dyn Model) -> Self {
        let k = model.slot_count();
        let max = (SAMPLE_VALUES / k.max(1)).clamp(1, SAMPLE_STATES);
        let mut sample = Sample {
            seen: sample_tree(k, Vec::new()).ok(),
            tuples: Vec::new(),
            queue: Vec::new(),
        };
        sample.explore(model, max);
        sample
    }

    /// The stored states slot by slot, as `pairing` reads them (the states
    /// [`thinning`] keeps, each slot's values numbered), read back from the
    /// first tree [`COLUMNS_PER_PASS`] slots at a time (none if it could not
    /// store them).
    fn columns(&mut self, k: usize) -> Vec<NumberedColumn> {
        let step = thinning(k, self.queue.len());
        let kept = self.queue.len().div_ceil(step);
        let Some(seen) = self.seen.as_mut() else {
            return Vec::new();
        };
        let (mut state, mut columns) = (vec![0; k], Vec::with_capacity(k));
        for first in (0..k).step_by(COLUMNS_PER_PASS) {
            let slots = first..(first + COLUMNS_PER_PASS).min(k);
            let mut pass: Vec<_> = slots.clone().map(|_| SlotColumn::with_capacity(kept)).collect();
            for &r in self.queue.iter().step_by(step) {
                seen.recall(r, &mut state, &mut []);
                for (column, &v) in pass.iter_mut().zip(&state[slots.clone()]) {
                    column.push(v);
                }
            }
            columns.extend(pass.into_iter().map(SlotColumn::finish));
        }
        columns
    }

    /// The node tuples of a tree over `k` slots in `order` after storing
    /// the first quarter of the sample and after storing all of it (as
    /// [`Sample::node_tuples`]), the states read back one at a time.
    fn tuples_in_order(&mut self, k: usize, order: &[usize]) -> [u64; 2] {
        let (Some(seen), Ok(mut tree)) = (
            self.seen.as_mut(),
            sample_tree(k, order.to_vec()),
        ) else {
            return [u64::MAX; 2];
        };
        let (n, mut state) = (self.queue.len(), vec![0; k]);
        let mut tuples = [0; 2];
        for (i, &r) in self.queue.iter().enumerate() {
            seen.recall(r, &mut state, &mut []);
            if tree.find_or_insert(&state).is_err() {
                return [u64::MAX; 2];
            }
            if i + 1 == n / 4 {
                tuples[0] = tree.node_entries();
            }
        }
        tuples[1] = tree.node_entries();
        tuples
    }

    /// Stores the first (at most `max`) states of a breadth-first search
    /// of `model`. A model error ends the sample early (the search reports
    /// it).
    fn explore(&mut self, model: &dyn Model, max: usize) {
        self.offer(&model.initial_state());
        let (mut next, mut source) = (0, vec![0; model.slot_count()]);
        while next < self.queue.len() && self.queue.len() < max {
            let Some(seen) = self.seen.as_mut() else {
                return;
            };
            seen.recall(self.queue[next], &mut source, &mut []);
            next += 1;
            let emitted = model.next_all(&source, &mut |_, t| {
                if self.queue.len() < max {
                    self.offer(t);
                }
            });
            if emitted.is_err() {
                return;
            }
        }
    }

    /// Stores `state` if the tree has not seen it, and its reference in
    /// the queue.
    fn offer(&mut self, state: &[Value]) {
        let Some(seen) = self.seen.as_mut() else {
            return;
        };
        match seen.find_or_insert(state) {
            Ok(r) if r.is_new() => {
                self.queue.push(r.reference());
                self.tuples.push(seen.node_entries() as u32);
            }
            Ok(_) => {}
            Err(_) => self.seen = None,
        }
    }

    /// The tree's node tuples after storing the first quarter of the
    /// sample and after storing all of it (`u64::MAX`: it could not).
    fn model_tuples(&self) -> [u64; 2] {
        let n = self.queue.len();
        let at = |stored: usize| if stored == 0 { 0 } else { self.tuples[stored - 1] as u64 };
        match self.seen {
            Some(_) => [at(n / 4), at(n)],
            None => [u64::MAX; 2],
        }
    }
}

/// A tree of the sample over `k` slots in `order`: node tables growing
/// finely (the tuples they count do not depend on their sizes).
fn sample_tree(k: usize, order: Vec<usize>) -> Result<Tree, TableFull> {
    let config = TreeConfig {
        initial_buckets: 16,
        ..TreeConfig::default()
    };
    let (mut spec, initial) = tree_spec(k, &config, order);
    spec.node_growth = Growth::Fine;
    TreeDb::build(spec, HashRoot::new(initial, Budget::unlimited())?, Budget::unlimited())
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
    use super::*;

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
