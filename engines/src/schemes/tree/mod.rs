//! `tree`: the tree database (Blom, Lisser, van de Pol, Weber 2009;
//! Laarman, van de Pol, Weber 2011, "Parallel recursive state compression
//! for free"), and the generic tree ([`TreeDb`]) that `compact-tree` reuses
//! with another root table.
//!
//! Layout. A fixed binary tree over the `k` slots of a state vector: the
//! node covering slots `[lo, hi)` with `n = hi − lo ≥ 2` splits into
//! `left = [lo, lo + ⌈n/2⌉)` and `right = [lo + ⌈n/2⌉, hi)` (the left half
//! takes the odd slot). A child covering one slot stands in its parent's
//! tuple as the slot value itself; a child covering ≥ 2 slots stands as the
//! index of its own tuple in that child's **node table**. So `k ≥ 2` gives
//! `k − 1` nodes, numbered in post-order (children before parents, the
//! **root** last); `k = 1` has no node and its root tuple is `(value, 0)`.
//! Every non-root node has one [`IndexTable`] of `(left, right)` tuples
//! (width 2, dense stable indices, at most 2^w entries); the **root table**
//! stores root tuples only, and a root tuple identifies its state (it is the
//! reference returned). All tables share one [`Budget`].
//!
//! Incremental insertion: the **side data** of a state are the indices of
//! its `k − 2` non-root nodes, in node order. Inserting a successor with its
//! predecessor's vector and side data, a node none of whose slots changed
//! reuses the predecessor's index (a saved look-up, counted in
//! `node_lookups_saved`); only the nodes above changed slots are looked up.
//! The root is always looked up.
//!
//! Root table of `tree` ([`HashRoot`]): open addressing with linear probing
//! over 64-bit words. A root tuple `(l, r)` is the key `l << 32 | r`; the
//! table stores `mix(key)` ([`cleary::mix`] on 64 bits, a bijection), so the
//! home bucket is the stored word's top bits and growth (doubling at load
//! 0.75 while the budget allows) needs no re-hashing. 0 marks an empty
//! bucket; the one key whose mixed value is 0 (the tuple (0, 0): the mixer
//! maps 0 to 0) is kept in a flag instead. When the budget refuses to grow,
//! the table fills to load 0.9 before reporting [`TableFull`].
//!
//! Accounting: `used` = node tables (12 bytes per tuple, see
//! [`IndexTable`]) + root table used bits rounded up to bytes (8 bytes per
//! state here); `alloc` = every table's allocation.
//!
//! This module owns the sequential tree database, the parameters of `tree`
//! and the hash root table; the tree shape and the insertion walk are
//! `shape`'s (written once for both forms of the tree). It must not know
//! models or front-ends (it sees only `&[u32]` vectors), nor the search
//! order.

pub mod concurrent;
pub mod order;
mod pairing;
mod sample;
mod shape;
mod spec;

pub use order::SlotOrder;
pub use spec::{TreeConfig, SPEC};

use crate::blocks::budget::Budget;
use crate::blocks::index_table::{Growth, IndexTable, Tuples};
use crate::registry::word;
use crate::schemes::compact_tree::cleary;
use crate::visited::{Inserted, MemoryUsage, TableFull, VisitedSet};
use pins::Value;
pub use shape::root_children_are_slots;
pub(crate) use shape::TreeSpec;
use shape::{inserted, Pred, Shape};

/// A root table: stores root tuples, nothing points into it.
pub trait RootTable: Send {
    /// Stores the root tuple `(left, right)` if absent: (reference, new).
    /// The reference is `left << 32 | right` (the tree gives the state
    /// back from it, [`VisitedSet::recall`]).
    fn find_or_insert(&mut self, left: u32, right: u32) -> Result<(u64, bool), TableFull>;
    /// Number of root tuples (states) stored.
    fn len(&self) -> u64;
    /// Whether no root tuple is stored.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Bits of the occupied entries.
    fn used_bits(&self) -> u64;
    /// Bytes allocated.
    fn alloc_bytes(&self) -> u64;
    /// Engine counters of the root table.
    fn counters(&self, out: &mut Vec<(String, u64)>);
}

/// The tree database over any root table; see the module documentation.
pub struct TreeDb<R: RootTable> {
    shape: Shape,
    /// One per non-root node.
    tables: Vec<IndexTable>,
    root: R,
    /// Scratch: this insertion's node indices, then which nodes changed.
    scratch: Vec<u32>,
    node_lookups: u64,
    node_lookups_saved: u64,
}

impl<R: RootTable> TreeDb<R> {
    /// The tree `spec` asks for with `root` as root table; node tables
    /// allocate from `budget`.
    pub(crate) fn build(spec: TreeSpec, root: R, budget: Budget) -> Result<Self, TableFull> {
        let (index_bits, node_buckets, growth) = (spec.index_bits, spec.node_buckets, spec.node_growth);
        let shape = Shape::new(spec);
        let scratch = vec![0; shape.scratch_words()];
        let inner = shape.inner();
        let mut tables = Vec::with_capacity(inner);
        for j in 0..inner {
            let name = shape.table_name(j);
            tables.push(IndexTable::new(Tuples::new(name, 2).buckets(node_buckets).at_most(1u64 << index_bits).growing(growth), budget.clone())?);
        }
        Ok(TreeDb {
            shape,
            tables,
            root,
            scratch,
            node_lookups: 0,
            node_lookups_saved: 0,
        })
    }

    /// The root table.
    pub fn root(&self) -> &R {
        &self.root
    }

    /// The same node tables under another root table (the old one is
    /// dropped): the states stored so far are still given back from their
    /// references ([`VisitedSet::recall`] reads only the node tables).
    pub(crate) fn with_root<S: RootTable>(self, root: S) -> TreeDb<S> {
        let lookups = (self.node_lookups, self.node_lookups_saved);
        TreeDb {
            root,
            shape: self.shape,
            tables: self.tables,
            scratch: self.scratch,
            node_lookups: lookups.0,
            node_lookups_saved: lookups.1,
        }
    }

    /// Each non-root node's slots and the tuples its table holds (the
    /// distinct projections of the stored states onto those slots), in
    /// node order (post-order: a node's children before it).
    pub fn node_profile(&self) -> Vec<(Vec<usize>, u64)> {
        let slots = self.shape.node_slots();
        slots.into_iter().zip(self.tables.iter().map(|t| t.len())).collect()
    }

    /// Tuples in the tables of the root's left and right children (1 for
    /// a child that is a single slot). Post-order numbers the left child's
    /// subtree first, so the left child is node `⌈k/2⌉ − 2` and the right
    /// child the last non-root node.
    pub fn root_children_entries(&self) -> [u64; 2] {
        let k = self.tables.len() + 2;
        let (left_slot, right_slot) = root_children_are_slots(k);
        let len = |slot: bool, j: usize| if slot { 1 } else { self.tables.get(j).map_or(1, IndexTable::len) };
        [len(left_slot, k.div_ceil(2).saturating_sub(2)), len(right_slot, k.saturating_sub(3))]
    }

    /// The slots of the state stored under `reference` read back through
    /// the nodes `nodes` only ([`Shape::nodes_above`] some slots: their
    /// values are right, the others' are not): a recall that skips the
    /// subtrees of the slots not asked for.
    pub(crate) fn recall_nodes(&mut self, reference: u64, nodes: &[u32]) -> &[Value] {
        let tables = &self.tables;
        let root = ((reference >> 32) as u32, reference as u32);
        self.shape.unwalk_nodes(root, nodes, &mut self.scratch, |j, i| tables[j].get_pair(i))
    }

    /// The nodes above the slots `slots` (for [`recall_nodes`](Self::recall_nodes)).
    pub(crate) fn nodes_above(&self, slots: &[usize]) -> Vec<u32> {
        self.shape.nodes_above(slots)
    }

    /// Tuples in all node tables.
    pub fn node_entries(&self) -> u64 {
        self.tables.iter().map(|t| t.len()).sum()
    }

    /// Inserts `state`, filling `self.scratch` with its node indices.
    #[inline]
    fn insert(&mut self, state: &[Value], pred: Option<Pred<'_>>) -> Result<Inserted, TableFull> {
        let TreeDb {
            shape,
            tables,
            root,
            scratch,
            node_lookups,
            node_lookups_saved,
        } = self;
        let (l, r) = shape.walk::<_, TableFull>(
            state,
            pred,
            tables,
            scratch,
            node_lookups_saved,
            |table, _, tuple| {
                let index = table.find_or_insert_pair(tuple)?.0;
                *node_lookups += 1;
                Ok(index)
            },
        )?;
        let (reference, new) = root.find_or_insert(l, r)?;
        Ok(inserted(reference, new))
    }
}

impl<R: RootTable> VisitedSet for TreeDb<R> {
    fn find_or_insert(&mut self, state: &[Value]) -> Result<Inserted, TableFull> {
        self.insert(state, None)
    }

    fn side_words(&self) -> usize {
        self.shape.side_words()
    }

    fn find_or_insert_from(
        &mut self,
        state: &[Value],
        pred: Option<Pred<'_>>,
        side: &mut [u32],
    ) -> Result<Inserted, TableFull> {
        let r = self.insert(state, pred)?;
        let idx = &self.scratch[..self.tables.len()];
        if side.len() == idx.len() {
            side.copy_from_slice(idx);
        }
        Ok(r)
    }

    fn recalls_states(&self) -> bool {
        true
    }

    fn recall(&mut self, reference: u64, state: &mut [Value], side: &mut [u32]) -> bool {
        let tables = &self.tables;
        let root = ((reference >> 32) as u32, reference as u32);
        self.shape.unwalk(root, state, side, &mut self.scratch, |j, i| {
            tables[j].get_pair(i)
        });
        true
    }

    fn len(&self) -> u64 {
        self.root.len()
    }

    fn memory(&self) -> MemoryUsage {
        let (mut used, mut alloc) = (0, 0);
        for t in &self.tables {
            used += t.used_bytes();
            alloc += t.alloc_bytes();
        }
        MemoryUsage {
            used: used + self.root.used_bits().div_ceil(8),
            alloc: alloc + self.root.alloc_bytes(),
        }
    }

    fn params(&self) -> String {
        self.shape.params.clone()
    }

    fn counters(&self) -> Vec<(String, u64)> {
        let mut out = vec![
            ("node_lookups".into(), self.node_lookups),
            ("node_lookups_saved".into(), self.node_lookups_saved),
            ("node_entries".into(), self.node_entries()),
            (
                "node_extra_probes".into(),
                self.tables.iter().map(|t| t.probes()).sum(),
            ),
        ];
        self.root.counters(&mut out);
        out
    }
}

/// Load at which the hash root table doubles, and at which it is full when
/// the budget refuses to grow it.
const ROOT_GROW_LOAD: f64 = 0.75;
const ROOT_MAX_LOAD: f64 = 0.9;
const EMPTY: u64 = 0;

/// The root table of `tree`; see the module documentation.
pub struct HashRoot {
    buckets: Vec<u64>,
    bits: u32,
    /// Entries in `buckets` (the zero key excluded).
    stored: u64,
    has_zero: bool,
    grow_at: u64,
    budget: Budget,
    reserved: u64,
    refused: Option<String>,
    probes: u64,
}

impl HashRoot {
    pub fn new(initial_buckets: usize, budget: Budget) -> Result<Self, TableFull> {
        let n = initial_buckets.clamp(16, 1 << 40).next_power_of_two();
        budget.reserve(n as u64 * 8, "tree root table")?;
        Ok(HashRoot {
            buckets: vec![EMPTY; n],
            bits: n.trailing_zeros(),
            stored: 0,
            has_zero: false,
            grow_at: (n as f64 * ROOT_GROW_LOAD) as u64,
            budget,
            reserved: n as u64 * 8,
            refused: None,
            probes: 0,
        })
    }

    #[inline]
    fn home(&self, x: u64) -> usize {
        (x >> (64 - self.bits)) as usize
    }

    fn grow(&mut self) -> Result<(), TableFull> {
        let n = self.buckets.len() * 2;
        if self.bits >= 40 {
            return Err(TableFull {
                message: "tree root table: bucket array at its addressing limit".into(),
            });
        }
        self.budget.reserve(n as u64 * 8, "tree root table")?;
        let old = std::mem::replace(&mut self.buckets, vec![EMPTY; n]);
        self.bits += 1;
        let mask = n - 1;
        for x in old.iter().copied().filter(|&x| x != EMPTY) {
            let mut pos = self.home(x);
            while self.buckets[pos] != EMPTY {
                pos = (pos + 1) & mask;
            }
            self.buckets[pos] = x;
        }
        self.budget.release(old.len() as u64 * 8);
        self.reserved = n as u64 * 8;
        self.grow_at = (n as f64 * ROOT_GROW_LOAD) as u64;
        Ok(())
    }
}

impl Drop for HashRoot {
    fn drop(&mut self) {
        self.budget.release(self.reserved);
    }
}

impl RootTable for HashRoot {
    #[inline]
    fn find_or_insert(&mut self, left: u32, right: u32) -> Result<(u64, bool), TableFull> {
        let key = (left as u64) << 32 | right as u64;
        let x = cleary::mix(key, 64);
        if x == EMPTY {
            let new = !self.has_zero;
            self.has_zero = true;
            return Ok((key, new));
        }
        let mask = self.buckets.len() - 1;
        let mut pos = self.home(x);
        loop {
            let b = self.buckets[pos];
            if b == x {
                return Ok((key, false));
            }
            if b == EMPTY {
                break;
            }
            self.probes += 1;
            pos = (pos + 1) & mask;
        }
        if self.stored >= self.grow_at {
            if self.refused.is_none() {
                match self.grow() {
                    Ok(()) => {
                        let mask = self.buckets.len() - 1;
                        pos = self.home(x);
                        while self.buckets[pos] != EMPTY {
                            pos = (pos + 1) & mask;
                        }
                    }
                    Err(full) => {
                        self.refused = Some(full.message);
                        self.grow_at = (self.buckets.len() as f64 * ROOT_MAX_LOAD) as u64;
                    }
                }
            }
            if self.refused.is_some() && self.stored >= self.grow_at {
                return Err(TableFull {
                    message: format!(
                        "tree root table: {} states at load {}; {}",
                        self.len(),
                        ROOT_MAX_LOAD,
                        self.refused.as_deref().unwrap_or_default()
                    ),
                });
            }
        }
        self.buckets[pos] = x;
        self.stored += 1;
        Ok((key, true))
    }

    fn len(&self) -> u64 {
        self.stored + self.has_zero as u64
    }

    fn used_bits(&self) -> u64 {
        self.len() * 64
    }

    fn alloc_bytes(&self) -> u64 {
        self.reserved
    }

    fn counters(&self, out: &mut Vec<(String, u64)>) {
        out.push(("root_buckets".into(), self.buckets.len() as u64));
        out.push(("root_probes".into(), self.probes));
    }
}

/// The tree that `tree` (either form) asks for with `config` for vectors
/// of length `k`, and its root table's initial buckets.
pub(crate) fn tree_spec(k: usize, config: &TreeConfig, order: Vec<usize>) -> (TreeSpec, usize) {
    let initial = config
        .initial_buckets
        .clamp(16, 1 << 40)
        .next_power_of_two();
    let spec = TreeSpec {
        engine: "tree",
        k,
        index_bits: config.w,
        value_bits: 32,
        incremental: config.incremental,
        node_buckets: (initial / 64).max(16),
        node_growth: Growth::Double,
        order,
        params: format!(
            "w={};incremental={};initial_buckets={initial};slot_order={}",
            config.w,
            config.incremental,
            word(config.slot_order)
        ),
    };
    (spec, initial)
}

/// The `tree` engine.
pub type Tree = TreeDb<HashRoot>;

impl TreeDb<HashRoot> {
    /// A tree database for vectors of length `k` (0 included: the one empty vector).
    pub fn new(k: usize, config: &TreeConfig, budget: Budget) -> Result<Self, TableFull> {
        Self::ordered(k, config, Vec::new(), budget)
    }

    /// The same, its leaves holding the slots in `order` (a permutation of
    /// `0..k`; empty: the model's order).
    pub fn ordered(k: usize, config: &TreeConfig, order: Vec<usize>, budget: Budget) -> Result<Self, TableFull> {
        let (spec, initial) = tree_spec(k, config, order);
        let root = HashRoot::new(initial, budget.clone())?;
        TreeDb::build(spec, root, budget)
    }
}

#[cfg(test)]
mod tests {
    use super::shape::{build, Child};
    use super::*;

    fn shape(k: usize) -> Vec<(Child, Child)> {
        let mut nodes = Vec::new();
        if k >= 2 {
            build(0, k, &mut nodes);
        }
        nodes.iter().map(|n| (n.left, n.right)).collect()
    }

    #[test]
    fn shape_is_a_post_order_binary_tree_with_k_minus_1_nodes() {
        use Child::*;
        assert!(shape(1).is_empty());
        assert_eq!(shape(2), vec![(Slot(0), Slot(1))]);
        assert_eq!(shape(3), vec![(Slot(0), Slot(1)), (Node(0), Slot(2))]);
        assert_eq!(
            shape(5),
            vec![
                (Slot(0), Slot(1)),
                (Node(0), Slot(2)),
                (Slot(3), Slot(4)),
                (Node(1), Node(2)),
            ]
        );
        for k in 1..200 {
            let s = shape(k);
            assert_eq!(s.len(), k.saturating_sub(1));
            let (l, r) = root_children_are_slots(k);
            if let Some(&(a, b)) = s.last() {
                assert_eq!(
                    (matches!(a, Slot(_)), matches!(b, Slot(_))),
                    (l, r),
                    "k={k}"
                );
            }
            // Every slot appears once, every non-root node is a child once.
            let mut slots = vec![0; k];
            let mut used = vec![0; s.len()];
            for (j, &(a, b)) in s.iter().enumerate() {
                for c in [a, b] {
                    match c {
                        Slot(i) => slots[i] += 1,
                        Node(n) => {
                            assert!(n < j, "post-order");
                            used[n] += 1
                        }
                    }
                }
            }
            if k >= 2 {
                assert!(slots.iter().all(|&c| c == 1));
                assert!(used[..s.len() - 1].iter().all(|&c| c == 1));
            }
        }
    }

    pub(super) fn tree(k: usize, incremental: bool) -> Tree {
        Tree::new(
            k,
            &TreeConfig {
                incremental,
                initial_buckets: 16,
                ..Default::default()
            },
            Budget::unlimited(),
        )
        .unwrap()
    }

    #[test]
    fn incremental_insertion_saves_lookups_of_unchanged_subtrees() {
        let k = 8;
        let mut t = tree(k, true);
        assert_eq!(t.side_words(), 6);
        let a = vec![1u32; k];
        let mut sa = vec![0; 6];
        assert!(t.find_or_insert_from(&a, None, &mut sa).unwrap().is_new());
        let c = t.counters();
        assert_eq!(c[0], ("node_lookups".into(), 6));
        let mut b = a.clone();
        b[7] = 2;
        let mut sb = vec![0; 6];
        assert!(t
            .find_or_insert_from(&b, Some((&a, &sa)), &mut sb)
            .unwrap()
            .is_new());
        // Slot 7 lies under [6,8), [4,8): 2 look-ups, 4 saved.
        let c = t.counters();
        assert_eq!(c[0].1, 8);
        assert_eq!(c[1], ("node_lookups_saved".into(), 4));
        // Plain insertion gives the same side data.
        let mut sb2 = vec![0; 6];
        let mut plain = tree(k, true);
        plain.find_or_insert_from(&a, None, &mut sa).unwrap();
        plain.find_or_insert_from(&b, None, &mut sb2).unwrap();
        assert_eq!(sb, sb2);
        // Found again, from either predecessor.
        let mut s = vec![0; 6];
        assert!(!t
            .find_or_insert_from(&a, Some((&b, &sb)), &mut s)
            .unwrap()
            .is_new());
        assert_eq!(s, sa);
        assert_eq!(t.len(), 2);
        // Non-incremental keeps no side data.
        assert_eq!(tree(k, false).side_words(), 0);
    }

    #[test]
    fn incremental_insertion_looks_up_exactly_the_nodes_above_changed_slots() {
        // Successors of a random predecessor that change 1..3 slots, over
        // trees of 3..40 slots: the look-ups are the nodes some changed
        // slot lies under (from `node_profile`), the side data those of a
        // plain insertion.
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |below: u64| {
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (rng >> 33) % below
        };
        for k in [3usize, 4, 5, 7, 8, 17, 40] {
            let (mut inc, mut plain) = (tree(k, true), tree(k, true));
            let node_slots: Vec<Vec<usize>> = inc.node_profile().into_iter().map(|(s, _)| s).collect();
            let mut states = vec![vec![0u32; k]];
            let mut sides = vec![vec![0u32; k - 2]];
            inc.find_or_insert_from(&states[0], None, &mut sides[0]).unwrap();
            plain.find_or_insert(&states[0]).unwrap();
            for _ in 0..500 {
                let p = next(states.len() as u64) as usize;
                let mut succ = states[p].clone();
                for _ in 0..=next(3) {
                    succ[next(k as u64) as usize] = next(4) as u32;
                }
                let changed: Vec<usize> = (0..k).filter(|&s| succ[s] != states[p][s]).collect();
                let above = node_slots.iter().filter(|slots| slots.iter().any(|s| changed.contains(s))).count() as u64;
                let before = inc.counters();
                let mut side = vec![0u32; k - 2];
                let got = inc.find_or_insert_from(&succ, Some((&states[p], &sides[p])), &mut side).unwrap();
                let after = inc.counters();
                assert_eq!(after[0].1 - before[0].1, above, "k={k} changed {changed:?}");
                assert_eq!(after[1].1 - before[1].1, (k - 2) as u64 - above);
                let mut plain_side = vec![0u32; k - 2];
                let want = plain.find_or_insert_from(&succ, None, &mut plain_side).unwrap();
                assert_eq!((got, &side), (want, &plain_side), "k={k}");
                if got.is_new() {
                    states.push(succ);
                    sides.push(side);
                }
            }
            assert_eq!(inc.len(), plain.len());
        }
    }

    #[test]
    fn reading_back_through_the_nodes_above_some_slots_gives_those_slots() {
        for k in [1usize, 2, 3, 5, 16, 17, 40] {
            // The model's order and a reversed one.
            for order in [Vec::new(), (0..k).rev().collect()] {
                let mut t = Tree::ordered(k, &TreeConfig { initial_buckets: 16, ..Default::default() }, order, Budget::unlimited()).unwrap();
                let states: Vec<Vec<u32>> = (0..50u32).map(|i| (0..k as u32).map(|s| i * 7 % (s + 3)).collect()).collect();
                let refs: Vec<u64> = states.iter().map(|v| t.find_or_insert(v).unwrap().reference()).collect();
                for lo in 0..k {
                    let slots: Vec<usize> = (lo..(lo + 4).min(k)).collect();
                    let nodes = t.nodes_above(&slots);
                    if k >= 16 {
                        assert!(nodes.len() < k - 2, "k={k}: the other subtrees are skipped");
                    }
                    for (v, &r) in states.iter().zip(&refs) {
                        let got = t.recall_nodes(r, &nodes);
                        for &s in &slots {
                            assert_eq!(got[s], v[s], "k={k} slot {s}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn root_tuple_zero_is_stored_by_flag_and_memory_is_exact() {
        let mut t = tree(2, true);
        assert!(t.find_or_insert(&[0, 0]).unwrap().is_new());
        assert!(!t.find_or_insert(&[0, 0]).unwrap().is_new());
        assert!(t.find_or_insert(&[0, 1]).unwrap().is_new());
        assert_eq!(t.len(), 2);
        assert_eq!(t.memory().used, 16);
        assert_eq!(
            t.find_or_insert(&[3, 4]).unwrap(),
            Inserted::New(3 << 32 | 4)
        );
        let mut t = tree(6, true);
        for i in 0..1000u32 {
            t.find_or_insert(&[i, 0, 0, i, 0, 0]).unwrap();
        }
        // Nodes [0,2), [0,3), [3,5), [3,6): 1000 tuples each but [3,5)
        // (1000 too: (i, 0)).
        let entries: u64 = t.tables.iter().map(|t| t.len()).sum();
        assert_eq!(entries, 4000);
        assert_eq!(t.memory().used, 4000 * 12 + 1000 * 8);
    }

    #[test]
    fn budget_and_index_width_give_table_full() {
        let budget = Budget::new(64 << 10);
        let mut t = Tree::new(
            4,
            &TreeConfig {
                initial_buckets: 1024,
                ..Default::default()
            },
            budget.clone(),
        )
        .unwrap();
        let mut n = 0u32;
        let err = loop {
            match t.find_or_insert(&[n, n / 3, n / 7, n % 5]) {
                Ok(r) => assert!(r.is_new()),
                Err(e) => break e,
            }
            n += 1;
        };
        assert!(err.message.contains("memory budget"), "{}", err.message);
        assert!(budget.reserved() <= 64 << 10);
        assert_eq!(t.len(), n as u64);
        for i in 0..n {
            assert!(!t
                .find_or_insert(&[i, i / 3, i / 7, i % 5])
                .unwrap()
                .is_new());
        }
        drop(t);
        assert_eq!(budget.reserved(), 0);

        // w = 4: at most 16 tuples per node table.
        let mut t = Tree::new(
            3,
            &TreeConfig {
                w: 4,
                ..Default::default()
            },
            Budget::unlimited(),
        )
        .unwrap();
        for i in 0..16u32 {
            t.find_or_insert(&[i, 0, 0]).unwrap();
        }
        let err = t.find_or_insert(&[16, 0, 0]).unwrap_err();
        assert!(err.message.contains("index width"), "{}", err.message);
        assert!(!t.find_or_insert(&[3, 0, 0]).unwrap().is_new());
        assert!(t.find_or_insert(&[3, 0, 7]).unwrap().is_new());
    }

    #[test]
    fn root_table_grows_and_fills_to_max_load_when_the_budget_refuses() {
        let budget = Budget::new(16 * 8 + 100);
        let mut root = HashRoot::new(16, budget).unwrap();
        let mut n = 0u32;
        let err = loop {
            match root.find_or_insert(n, n) {
                Ok((_, new)) => assert!(new),
                Err(e) => break e,
            }
            n += 1;
        };
        // (0, 0) by flag, then 14 = ⌊0.9 · 16⌋ in the buckets.
        assert_eq!(n, 15);
        assert!(err.message.contains("memory budget"), "{}", err.message);
        let mut root = HashRoot::new(16, Budget::unlimited()).unwrap();
        for i in 0..100_000u32 {
            assert!(root.find_or_insert(i, !i).unwrap().1);
        }
        for i in 0..100_000u32 {
            assert!(!root.find_or_insert(i, !i).unwrap().1);
        }
        assert_eq!(root.len(), 100_000);
        assert_eq!(root.alloc_bytes(), (1 << 18) * 8);
    }
}

#[cfg(test)]
mod conformance_tests {
    use super::*;
    use crate::conformance::{check_adversarial, check_stream, streams};
    use proptest::prelude::*;

    fn make(k: usize, incremental: bool) -> Box<dyn VisitedSet> {
        Box::new(super::tests::tree(k, incremental))
    }

    #[test]
    fn adversarial_streams_behave_like_a_hash_set() {
        check_adversarial(&|k| make(k, true), u32::MAX);
        check_adversarial(&|k| make(k, false), u32::MAX);
    }

    #[test]
    fn all_slots_equal_long_vectors() {
        for k in [2usize, 3, 999, 1000] {
            let mut set = make(k, true);
            let stream: Vec<Vec<u32>> = (0..300u32)
                .flat_map(|i| [vec![i; k], vec![i / 2; k]])
                .collect();
            check_stream(set.as_mut(), &stream);
        }
    }

    proptest! {
        #[test]
        fn random_streams_behave_like_a_hash_set((k, stream) in streams(9, 4), inc in any::<bool>()) {
            check_stream(make(k, inc).as_mut(), &stream);
        }

        #[test]
        fn wide_values_behave_like_a_hash_set(
            (k, stream) in streams(7, 4),
            shift in 28u32..32,
        ) {
            let stream: Vec<Vec<u32>> = stream
                .into_iter()
                .map(|v| v.into_iter().map(|x| x.wrapping_shl(shift) | x).collect())
                .collect();
            check_stream(make(k, true).as_mut(), &stream);
        }
    }
}
