//! The `sample` slot order of the tree engines: explores the first states
//! of a breadth-first search (at most [`SAMPLE_STATES`] and
//! [`SAMPLE_VALUES`] slot values) in a tree in the model's order, stores
//! them again, read back, in a tree of each other candidate order
//! (`groups`, `pairing`; see `order`), one at a time, and chooses one.
//!
//! The choice has two steps (docs/slot-order.md has the numbers):
//!
//! 1. On the sample: an order other than `model` must hold fewer node
//!    tuples than `model` on all of the sample (`pairing`'s counted 10/9,
//!    as it is fitted to the sample), and its share of `model`'s tuples
//!    must not rise from the sample's first quarter to all of it (on
//!    needham.3 `groups` takes 0.76 of `model`'s tuples on the sample and
//!    1.11 of its bits on all states); where its compact root key is wider
//!    than `model`'s on the sample, the share must fall by a 64th (on
//!    BridgeAndVehicles-PT-V20P10N10 `groups`' share stays at 0.61 with a
//!    key a bit wider, and on all states it takes 1.34 of `model`'s bits:
//!    `model`'s node tables stop growing, its key stays narrower). The
//!    fewest tuples come first.
//! 2. At scale: the first of those predicted to save bits per state on
//!    the whole state space is taken, else `model`. The prediction is the
//!    node tuples the sample's second half adds to the order's tree, per
//!    state of that half at 96 bits each, with the order fitted without
//!    that half (`pairing` fitted again on the first half alone: fitted to
//!    all of the sample it adds 0.74 of `model`'s tuples on rether.7's
//!    second half, fitted to the first it adds 1.12, and on all states
//!    its tree takes 1.82 of `model`'s tuples), plus the bits of the
//!    compact root key, the index widths of the root's children
//!    (`pairing` on exit.3 saves 0.67 node bits per state on the second
//!    half but widens the key by a bit; on all states 0.54 and 1).
//!
//! It owns the sample and the choice; the candidate orders are `order`'s
//! and `pairing`'s. It must not know front-ends.

use super::order::{slot_order, SlotOrder};
use super::pairing::{pairing_order_of_columns, thinning, NumberedColumn, SlotColumn};
use super::{tree_spec, RootTable, TreeConfig, TreeDb};
use crate::blocks::budget::Budget;
use crate::blocks::index_table::{Growth, IndexTable, Tuples};
use crate::visited::{TableFull, VisitedSet};
use pins::{Model, Value};

/// States the `sample` order explores and stores at most.
pub const SAMPLE_STATES: usize = 1 << 15;
/// Slot values (states × slots) the `sample` order stores at most.
pub const SAMPLE_VALUES: usize = 1 << 21;

/// Used bits of a node tuple (two 32-bit words and a 32-bit bucket, see
/// [`crate::blocks::index_table::IndexTable::used_bytes`]).
const NODE_TUPLE_BITS: f64 = 96.0;

/// Node tuples after the sample's first quarter, its first half, and all
/// of it.
pub type Counts = [u64; 3];

/// A candidate of `sample` scored on the sample.
pub struct Score {
    pub order: SlotOrder,
    /// The slot each leaf position holds.
    pub slots: Vec<usize>,
    /// Node tuples of its tree on the sample (`u64::MAX`: the tree could
    /// not store it).
    pub tuples: Counts,
    /// Tuples of the root's children on all of the sample.
    pub root_children: [u64; 2],
}

/// The order `sample` takes for `model` (empty: the model's order).
pub(super) fn sample_choice(model: &dyn Model) -> Vec<usize> {
    let (mut sample, scores) = scored(model);
    let Some((base, others)) = scores.split_first() else {
        return Vec::new();
    };
    let mut passing: Vec<&Score> = others.iter().filter(|c| beats_on_sample(base, c)).collect();
    passing.sort_by_key(|c| cost(c));
    let k = model.slot_count();
    passing
        .into_iter()
        .find(|c| sample.saving(k, base, c) > 0.0)
        .map(|c| c.slots.clone())
        .unwrap_or_default()
}

/// The candidates of `sample` (`model` first), each scored on the first
/// states of `model` and with the bits per state it is predicted to save
/// over `model` on all states (0 for `model`).
pub fn sample_scores(model: &dyn Model) -> Vec<(Score, f64)> {
    let (mut sample, scores) = scored(model);
    let k = model.slot_count();
    let savings: Vec<f64> = scores.iter().map(|c| sample.saving(k, &scores[0], c)).collect();
    scores.into_iter().zip(savings).collect()
}

/// The sample of `model` and its candidates (`model`, `groups`,
/// `pairing`) scored on it.
fn scored(model: &dyn Model) -> (Sample, Vec<Score>) {
    let k = model.slot_count();
    let mut sample = Sample::explored(model);
    let (tuples, root_children) = sample.model_tuples();
    let mut scores = vec![Score { order: SlotOrder::Model, slots: Vec::new(), tuples, root_children }];
    // The other candidates are scored one at a time on the sample's states,
    // read back from the model's tree; `pairing` is fitted to them, read
    // back slot by slot.
    let groups = slot_order(SlotOrder::Groups, model);
    let (tuples, root_children) = sample.tuples_in_order(k, &groups);
    scores.push(Score { order: SlotOrder::Groups, slots: groups, tuples, root_children });
    let slots = pairing_order_of_columns(sample.columns(k, usize::MAX));
    let (tuples, root_children) = sample.tuples_in_order(k, &slots);
    scores.push(Score { order: SlotOrder::Pairing, slots, tuples, root_children });
    (sample, scores)
}

/// A candidate's tuples on all of the sample for the comparison of step 1:
/// `pairing` is fitted to the sample itself, so it counts 10/9 of its
/// tuples (on leader_election.4 it takes 0.97 of `groups`' tuples on the
/// sample and 1.10 of its bits on all states).
fn cost(c: &Score) -> u64 {
    match c.order {
        SlotOrder::Pairing => c.tuples[2].saturating_mul(10) / 9,
        _ => c.tuples[2],
    }
}

/// The least fall of a candidate's share of `model`'s tuples, from the
/// sample's first quarter to all of it, that step 1 asks of a candidate
/// whose compact root key is wider than `model`'s on the sample.
const KEY_WIDENING_FALL: f64 = 63.0 / 64.0;

/// Step 1: `c` holds fewer tuples than `base` on all of the sample, and
/// its share of `base`'s does not rise from the first quarter to all; if
/// its root key is wider than `base`'s on the sample, the share must fall
/// by [`KEY_WIDENING_FALL`] (BridgeAndVehicles-PT-V20P10N10: `groups`
/// holds 0.612 of `model`'s tuples on the first quarter, 0.607 on all of
/// the sample, with a key one bit wider; on all states its node tables
/// hold 1.95 of `model`'s tuples and its key is two bits wider, 1.34 of
/// the bits; adding.2's `pairing`, 0.535 to 0.522 with a key four bits
/// wider, takes 0.61 of `model`'s bits).
fn beats_on_sample(base: &Score, c: &Score) -> bool {
    let ([quarter, _, all], [q, _, a]) = (base.tuples, c.tuples);
    let fall = match key_bits(c.root_children) > key_bits(base.root_children) {
        true => KEY_WIDENING_FALL,
        false => 1.0,
    };
    cost(c) < all && a as f64 / all as f64 <= fall * q as f64 / quarter.max(1) as f64
}

/// Bits of a compact root key whose children hold these tuples: each
/// child's index width, ⌈log2 tuples⌉.
fn key_bits(root_children: [u64; 2]) -> u32 {
    root_children.iter().map(|&t| u64::BITS - t.saturating_sub(1).leading_zeros()).sum()
}

/// Slots whose values one pass over the sample numbers (each holds its
/// numbering while the pass runs).
const COLUMNS_PER_PASS: usize = 16;

/// A root table for a tree of states known to be distinct (the sample's:
/// found once each by its search, then read back): it keeps no root
/// tuple, only their count, so such a tree holds only its node tables,
/// whose tuples `sample` counts (and from which it reads states back).
#[derive(Default)]
pub(super) struct DistinctRoot {
    stored: u64,
}

impl RootTable for DistinctRoot {
    fn find_or_insert(&mut self, left: u32, right: u32) -> Result<(u64, bool), TableFull> {
        self.stored += 1;
        Ok(((left as u64) << 32 | right as u64, true))
    }

    fn len(&self) -> u64 {
        self.stored
    }

    fn used_bits(&self) -> u64 {
        0
    }

    fn alloc_bytes(&self) -> u64 {
        0
    }

    fn counters(&self, _: &mut Vec<(String, u64)>) {}
}

/// A tree of the sample's states, without a root table.
type SampleTree = TreeDb<DistinctRoot>;

/// The root table of the sample's search ([`Sample::explored`]): its
/// root tuples numbered in the order stored (an [`IndexTable`], whose
/// indices are dense), so that it is the search's queue as well: the
/// `i`-th tuple is the `i`-th state found. Sized for the sample up front
/// (no growth holds two bucket arrays at once): about 13 bytes per state,
/// where a `tree` root table and a queue of references took 24 (32 KiB
/// states, schedule_world.2: 768 KiB).
struct SearchRoot {
    found: IndexTable,
}

impl SearchRoot {
    fn for_states(max: usize) -> Result<Self, TableFull> {
        let tuples = Tuples::new("sample root table", 2)
            .buckets(max * 4 / 3 + 2)
            .growing(Growth::Fine);
        Ok(SearchRoot {
            found: IndexTable::new(tuples, Budget::unlimited())?,
        })
    }

    /// The reference of the `i`-th state found.
    fn reference(&self, i: usize) -> u64 {
        let t = self.found.get(i as u32);
        (t[0] as u64) << 32 | t[1] as u64
    }
}

impl RootTable for SearchRoot {
    fn find_or_insert(&mut self, left: u32, right: u32) -> Result<(u64, bool), TableFull> {
        let (_, new) = self.found.find_or_insert(&[left, right])?;
        Ok(((left as u64) << 32 | right as u64, new))
    }

    fn len(&self) -> u64 {
        self.found.len()
    }

    fn used_bits(&self) -> u64 {
        8 * self.found.used_bytes()
    }

    fn alloc_bytes(&self) -> u64 {
        self.found.alloc_bytes()
    }

    fn counters(&self, _: &mut Vec<(String, u64)>) {}
}

/// The sample's states in the order found, as references into its tree
/// ([`VisitedSet::recall`]): each root tuple packed into one word,
/// `left << 16 | right`, where every one fits (the root's children are
/// node tables of at most [`SAMPLE_STATES`] tuples, so their indices do),
/// else whole (root children that are slots, `k <= 3`, hold values).
enum Queue {
    Packed(Vec<u32>),
    Whole(Vec<u64>),
}

/// The width of a root child's index in a packed [`Queue`] entry.
const PACKED_BITS: u32 = 16;
const PACKED_MASK: u32 = (1 << PACKED_BITS) - 1;
const _: () = assert!(SAMPLE_STATES <= 1 << PACKED_BITS);

impl Queue {
    /// The states `root` found, in its order.
    fn of(root: &SearchRoot) -> Queue {
        let n = root.len() as usize;
        let fits = |r: u64| r >> 32 <= PACKED_MASK as u64 && r as u32 <= PACKED_MASK;
        if (0..n).all(|i| fits(root.reference(i))) {
            let pack = |r: u64| ((r >> 32) as u32) << PACKED_BITS | r as u32;
            Queue::Packed((0..n).map(|i| pack(root.reference(i))).collect())
        } else {
            Queue::Whole((0..n).map(|i| root.reference(i)).collect())
        }
    }

    fn len(&self) -> usize {
        match self {
            Queue::Packed(q) => q.len(),
            Queue::Whole(q) => q.len(),
        }
    }

    /// The reference of the `i`-th state.
    fn get(&self, i: usize) -> u64 {
        match self {
            Queue::Packed(q) => ((q[i] >> PACKED_BITS) as u64) << 32 | (q[i] & PACKED_MASK) as u64,
            Queue::Whole(q) => q[i],
        }
    }
}

/// The first states of a breadth-first search, stored in a tree in the
/// model's order (none: it could not store them); its queue holds
/// references ([`VisitedSet::recall`] gives the states back), so no state
/// vector is kept. Once the search ends the tree's root table is dropped
/// (the states are read back from the node tables alone). The other
/// candidates' trees are built one at a time from the states read back in
/// the order found, each without a root table, so only one more tree's
/// node tables are alive at a time.
pub(super) struct Sample {
    seen: Option<SampleTree>,
    /// The stored states' references in the tree, in BFS order.
    queue: Queue,
    /// The model order's node tuples after storing the sample's first
    /// quarter, its first half and all of it.
    model_tuples: Counts,
}

/// The breadth-first search that [`Sample::explored`] runs: its visited
/// set, a tree in the model's order whose root table is also its queue.
struct SampleSearch {
    seen: Option<TreeDb<SearchRoot>>,
    max: usize,
    /// The tree's node tuples after each stored state.
    tuples: Vec<u32>,
}

impl SampleSearch {
    /// Stores the first (at most `max`) states of a breadth-first search
    /// of `model`, each successor inserted from its source's node indices
    /// (incremental insertion: the tuples stored are the same). A model
    /// error ends the sample early (the search reports it).
    fn run(&mut self, model: &dyn Model) {
        self.offer(&model.initial_state(), None);
        let side = self.seen.as_ref().map_or(0, |t| t.side_words());
        let (mut next, mut source, mut indices) = (0, vec![0; model.slot_count()], vec![0; side]);
        while next < self.stored() && self.stored() < self.max {
            let Some(seen) = self.seen.as_mut() else {
                return;
            };
            seen.recall(seen.root().reference(next), &mut source, &mut indices);
            next += 1;
            let emitted = model.next_all(&source, &mut |_, t| {
                if self.stored() < self.max {
                    self.offer(t, Some((&source, &indices)));
                }
            });
            if emitted.is_err() {
                return;
            }
        }
    }

    /// States stored (none once the tree could not store one).
    fn stored(&self) -> usize {
        self.seen.as_ref().map_or(0, |t| t.root().len() as usize)
    }

    /// Stores `state` if the tree has not seen it (its root table queues
    /// it).
    fn offer(&mut self, state: &[Value], pred: Option<(&[Value], &[u32])>) {
        let Some(seen) = self.seen.as_mut() else {
            return;
        };
        match seen.find_or_insert_from(state, pred, &mut []) {
            Ok(r) if r.is_new() => self.tuples.push(seen.node_entries() as u32),
            Ok(_) => {}
            Err(_) => self.seen = None,
        }
    }
}

impl Sample {
    /// The tree over the first states of a breadth-first search of `model`
    /// (at most [`SAMPLE_STATES`] and [`SAMPLE_VALUES`] slot values).
    pub(super) fn explored(model: &dyn Model) -> Self {
        let k = model.slot_count();
        let max = (SAMPLE_VALUES / k.max(1)).clamp(1, SAMPLE_STATES);
        let root = SearchRoot::for_states(max);
        let mut search = SampleSearch {
            seen: root.and_then(|root| sample_tree(k, Vec::new(), root)).ok(),
            max,
            tuples: Vec::new(),
        };
        search.run(model);
        let SampleSearch { seen, tuples, .. } = search;
        let queue = seen.as_ref().map_or(Queue::Whole(Vec::new()), |t| Queue::of(t.root()));
        let n = queue.len();
        let at = |stored: usize| if stored == 0 { 0 } else { tuples[stored - 1] as u64 };
        Sample {
            seen: seen.map(|t| t.with_root(DistinctRoot::default())),
            queue,
            model_tuples: [at(n / 4), at(n / 2), at(n)],
        }
    }

    /// The first `first` stored states slot by slot, as `pairing` reads
    /// them (the states [`thinning`] keeps, each slot's values numbered),
    /// read back from the first tree [`COLUMNS_PER_PASS`] slots at a time,
    /// each pass through the nodes above its slots only (none if it could
    /// not store them).
    pub(super) fn columns(&mut self, k: usize, first: usize) -> Vec<NumberedColumn> {
        let queued = first.min(self.queue.len());
        let step = thinning(k, queued);
        let kept = queued.div_ceil(step);
        let Some(seen) = self.seen.as_mut() else {
            return Vec::new();
        };
        let mut columns = Vec::with_capacity(k);
        for first in (0..k).step_by(COLUMNS_PER_PASS) {
            let slots = first..(first + COLUMNS_PER_PASS).min(k);
            let mut pass: Vec<_> = slots.clone().map(|_| SlotColumn::with_capacity(kept)).collect();
            // Only the subtrees over this pass's slots are read back.
            let nodes = seen.nodes_above(&slots.clone().collect::<Vec<_>>());
            for i in (0..queued).step_by(step) {
                let state = seen.recall_nodes(self.queue.get(i), &nodes);
                for (column, &v) in pass.iter_mut().zip(&state[slots.clone()]) {
                    column.push(v);
                }
            }
            columns.extend(pass.into_iter().map(SlotColumn::finish));
        }
        columns
    }

    /// A tree over `k` slots in `order` holding the sample's states, read
    /// back one at a time in the order found, each inserted from the one
    /// before (incremental insertion: the tuples stored are the same);
    /// `after(i, tree)` is called after the `i`-th (none: a tree could not
    /// store them).
    fn replay(&mut self, k: usize, order: &[usize], mut after: impl FnMut(usize, &SampleTree)) -> Option<SampleTree> {
        let seen = self.seen.as_mut()?;
        let mut tree = sample_tree(k, order.to_vec(), DistinctRoot::default()).ok()?;
        let side = tree.side_words();
        let (mut state, mut pred) = (vec![0; k], vec![0; k]);
        let (mut indices, mut pred_indices) = (vec![0; side], vec![0; side]);
        for i in 0..self.queue.len() {
            seen.recall(self.queue.get(i), &mut state, &mut []);
            let from = (i > 0).then_some((&pred[..], &pred_indices[..]));
            tree.find_or_insert_from(&state, from, &mut indices).ok()?;
            after(i, &tree);
            std::mem::swap(&mut state, &mut pred);
            std::mem::swap(&mut indices, &mut pred_indices);
        }
        Some(tree)
    }

    /// The node tuples of a tree over `k` slots in `order` after storing
    /// the sample's first quarter, its first half and all of it, and the
    /// tuples of its root's children.
    fn tuples_in_order(&mut self, k: usize, order: &[usize]) -> (Counts, [u64; 2]) {
        let n = self.queue.len();
        let mut tuples = [0; 3];
        let tree = self.replay(k, order, |i, tree| {
            if i + 1 == n / 4 {
                tuples[0] = tree.node_entries();
            }
            if i + 1 == n / 2 {
                tuples[1] = tree.node_entries();
            }
        });
        match tree {
            Some(tree) => {
                tuples[2] = tree.node_entries();
                (tuples, tree.root_children_entries())
            }
            None => ([u64::MAX; 3], [u64::MAX; 2]),
        }
    }

    /// Node tuples the sample's second half adds to `c`'s tree, its order
    /// fitted without that half: `pairing` is fitted again on the first
    /// half alone.
    fn added_unseen(&mut self, k: usize, c: &Score) -> u64 {
        let [_, half, all] = match c.order {
            SlotOrder::Pairing => {
                let slots = pairing_order_of_columns(self.columns(k, self.queue.len() / 2));
                self.tuples_in_order(k, &slots).0
            }
            _ => c.tuples,
        };
        all.saturating_sub(half)
    }

    /// Bits per state `c` is predicted to save over `base` on all states
    /// (step 2 of the module documentation): the node tuples the sample's
    /// second half adds, at [`NODE_TUPLE_BITS`] per state of that half,
    /// and the root key's bits.
    fn saving(&mut self, k: usize, base: &Score, c: &Score) -> f64 {
        if c.tuples[2] == u64::MAX || base.tuples[2] == u64::MAX {
            return 0.0;
        }
        let unseen = (self.queue.len() - self.queue.len() / 2).max(1) as f64;
        let (b, a) = (self.added_unseen(k, base) as f64, self.added_unseen(k, c) as f64);
        let key = key_bits(base.root_children) as f64 - key_bits(c.root_children) as f64;
        NODE_TUPLE_BITS * (b - a) / unseen + key
    }

    /// The model order's node tuples after storing the sample's first
    /// quarter, its first half and all of it, and its root's children's
    /// tuples (`u64::MAX`: it could not store them).
    fn model_tuples(&self) -> (Counts, [u64; 2]) {
        match &self.seen {
            Some(t) => (self.model_tuples, t.root_children_entries()),
            None => ([u64::MAX; 3], [u64::MAX; 2]),
        }
    }
}

/// A tree of the sample over `k` slots in `order` under `root`: node
/// tables growing finely (the tuples they count do not depend on their
/// sizes), insertion incremental.
fn sample_tree<R: RootTable>(k: usize, order: Vec<usize>, root: R) -> Result<TreeDb<R>, TableFull> {
    let config = TreeConfig {
        initial_buckets: 16,
        incremental: true,
        ..TreeConfig::default()
    };
    let (mut spec, _) = tree_spec(k, &config, order);
    spec.node_growth = Growth::Fine;
    TreeDb::build(spec, root, Budget::unlimited())
}

/// Each node's slots and tuples (as [`Tree::node_profile`](super::Tree::node_profile)) of a tree in
/// `order` holding the states `sample` explores of `model`.
pub fn sample_profile(model: &dyn Model, order: &[usize]) -> Vec<(Vec<usize>, u64)> {
    let mut sample = Sample::explored(model);
    let tree = sample.replay(model.slot_count(), order, |_, _| {});
    tree.map(|t| t.node_profile()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schemes::tree::Tree;
    use crate::test_models::Mixer;

    /// The sample's states read back, in the order found.
    fn states(sample: &mut Sample, k: usize) -> Vec<Vec<Value>> {
        let seen = sample.seen.as_mut().expect("the sample is stored");
        let mut state = vec![0; k];
        let mut read = |r: u64| {
            seen.recall(r, &mut state, &mut []);
            state.clone()
        };
        (0..sample.queue.len()).map(|i| read(sample.queue.get(i))).collect()
    }

    #[test]
    fn the_sample_without_its_root_table_gives_its_states_back() {
        let (k, model) = (6, Mixer::new(6, 5, 9, 3));
        let mut sample = Sample::explored(&model);
        let found = states(&mut sample, k);
        assert!(found.len() > 1000, "{} states", found.len());
        // Each state read back is stored again, in a tree with a root
        // table, as a new state: they are distinct and none is lost.
        let mut plain = Tree::new(k, &TreeConfig::default(), Budget::unlimited()).unwrap();
        assert!(found.iter().all(|s| plain.find_or_insert(s).unwrap().is_new()));
        assert_eq!(found[0], model.initial_state());
    }

    #[test]
    fn the_queue_packs_references_whose_indices_fit_and_keeps_the_others_whole() {
        let mut root = SearchRoot::for_states(8).unwrap();
        let tuples = [(0, 0), (3, 65535), (65535, 7)];
        for (left, right) in tuples {
            assert!(root.find_or_insert(left, right).unwrap().1);
        }
        assert!(!root.find_or_insert(3, 65535).unwrap().1, "found, not queued again");
        let whole = |(left, right): (u32, u32)| (left as u64) << 32 | right as u64;
        let expect: Vec<u64> = tuples.iter().map(|&t| whole(t)).collect();
        let queue = Queue::of(&root);
        assert!(matches!(queue, Queue::Packed(_)));
        assert_eq!((0..queue.len()).map(|i| queue.get(i)).collect::<Vec<_>>(), expect);
        root.find_or_insert(1 << 16, 2).unwrap(); // a slot's value, say
        let queue = Queue::of(&root);
        assert!(matches!(queue, Queue::Whole(_)));
        assert_eq!(queue.len(), 4);
        assert_eq!((queue.get(1), queue.get(3)), (expect[1], whole((1 << 16, 2))));
    }

    #[test]
    fn incremental_replays_count_the_tuples_of_plain_insertion() {
        let (k, model) = (6, Mixer::new(6, 5, 9, 3));
        let mut sample = Sample::explored(&model);
        let found = states(&mut sample, k);
        let n = found.len();
        for order in [Vec::new(), vec![5, 0, 3, 1, 4, 2], vec![2, 4, 0, 1, 5, 3]] {
            let config = TreeConfig {
                incremental: false,
                ..TreeConfig::default()
            };
            let mut plain = Tree::ordered(k, &config, order.clone(), Budget::unlimited()).unwrap();
            let mut expect = [0; 3];
            for (i, s) in found.iter().enumerate() {
                plain.find_or_insert(s).unwrap();
                for (t, at) in expect.iter_mut().zip([n / 4, n / 2, n]) {
                    if i + 1 == at {
                        *t = plain.node_entries();
                    }
                }
            }
            let expect = (expect, plain.root_children_entries());
            assert_eq!(sample.tuples_in_order(k, &order), expect, "order {order:?}");
            if order.is_empty() {
                assert_eq!(sample.model_tuples(), expect, "the search's own counts");
            }
        }
    }

    fn score(order: SlotOrder, tuples: Counts, root_children: [u64; 2]) -> Score {
        Score {
            order,
            slots: Vec::new(),
            tuples,
            root_children,
        }
    }

    #[test]
    fn the_key_takes_each_root_child_index_width() {
        assert_eq!(key_bits([1, 1]), 0);
        assert_eq!(key_bits([2, 256]), 1 + 8);
        assert_eq!(key_bits([257, 3]), 9 + 2);
    }

    #[test]
    fn pairing_must_beat_model_by_a_ninth_on_the_sample_without_a_rising_share() {
        let model = score(SlotOrder::Model, [100, 200, 400], [20, 20]);
        let close = score(SlotOrder::Pairing, [90, 180, 370], [20, 20]);
        let better = score(SlotOrder::Pairing, [90, 170, 350], [20, 20]);
        let rising = score(SlotOrder::Groups, [50, 150, 350], [20, 20]);
        assert!(!beats_on_sample(&model, &close), "10/9 of 370 is not below 400");
        assert!(beats_on_sample(&model, &better));
        assert!(!beats_on_sample(&model, &rising), "its share rises from 0.5 to 0.875");
    }

    #[test]
    fn a_wider_root_key_needs_a_falling_share() {
        let model = score(SlotOrder::Model, [9565, 15066, 23034], [8140, 1556]);
        let flat = score(SlotOrder::Groups, [5854, 9138, 13985], [4465, 3330]);
        let same_key = score(SlotOrder::Groups, [5854, 9138, 13985], [8140, 1556]);
        let falling = score(SlotOrder::Groups, [5854, 9138, 13500], [4465, 3330]);
        assert!(key_bits(flat.root_children) > key_bits(model.root_children));
        assert!(!beats_on_sample(&model, &flat), "share 0.612 to 0.607, key a bit wider");
        assert!(beats_on_sample(&model, &same_key), "no wider key: not rising is enough");
        assert!(beats_on_sample(&model, &falling), "share 0.612 to 0.586");
    }
}
