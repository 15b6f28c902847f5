//! `collapse`: SPIN's COLLAPSE compression, or recursive indexing (Holzmann
//! 1997, "State compression in SPIN: recursive indexing and compression
//! training runs").
//!
//! The state vector is cut into components along the model's process
//! partition; each component's sub-vector is stored once, in a table of its
//! own that gives it a small dense index, and a global state is stored as
//! the vector of its component indices. Processes change one or two at a
//! time, so the few distinct sub-vectors of each process are shared by many
//! global states, and a state costs one index per component instead of
//! one word per slot.
//!
//! # Components
//!
//! The engine is built from `k` and a partition of the slots `0..k` into
//! non-empty components ([`SlotPartition`], which checks that every slot is
//! in exactly one component); it never looks at a model. A component's
//! slots need not be contiguous nor sorted: its sub-vector takes them in
//! the order listed. The registry hands it whatever
//! [`pins::Model::partition`] returns: one component per process owning a
//! slot, in process order, then a `globals` component for the slots no
//! process owns (shared variables, channels). For DVE models these are the
//! processes of the specification. Petri nets have no processes; the PNML
//! front-end derives components from the net (this module does not import
//! it, it only consumes the partition):
//!
//! 1. the units of the file's NUPN `<toolspecific>` annotation (Nested-Unit
//!    Petri Nets: in every reachable marking at most one place of a unit is
//!    marked, so a unit of `n` places has at most `n + 1` distinct
//!    sub-vectors), one component per unit with places of its own, in
//!    document order, used only when the units are a true partition of the
//!    places;
//! 2. otherwise a structural token-flow heuristic: union-find over places
//!    where no union may create a component of more than 16 places; first
//!    every transition with exactly one input and one output place unites
//!    them, then for every transition the places of pre-set ∪ post-set are
//!    united pairwise along their sorted list; components are numbered by
//!    their first place.
//!
//! Either way every place belongs to some component (no `globals`).
//!
//! # Layout
//!
//! - One [`IndexTable`] per component (width = the component's slot
//!   count): sub-vector → dense, stable `u32` index.
//! - The main table: a [`HashTable`] of index vectors, one `u32` per
//!   component; its state references are the engine's references.
//!
//! All tables allocate from one shared [`Budget`]: when any of them cannot
//! grow, the insertion returns [`TableFull`] (never a panic), and so does a
//! component table holding `max_component_entries` sub-vectors (at most
//! 2^32 − 2, the width of an index). A failed insertion may leave new
//! sub-vectors in component tables, but never a state: the set of stored
//! states is unchanged.
//!
//! SPIN also stores the index vector compactly (each index in as many bytes
//! as it needs, with the byte counts in the vector); here every index is a
//! full `u32`, which keeps the main table a plain fixed-width hash table.
//!
//! # Accounting
//!
//! `used` = Σ over components of entries × (4·width + 4) (sub-vector and
//! its bucket) + states × (8 + 4·components) (main table bucket and index
//! vector); `alloc` = every table's bucket arrays and data segments. Both
//! are exact, and `alloc` equals what the tables reserved in the budget.
//!
//! Insertion allocates nothing: sub-vectors are gathered into a reused
//! scratch buffer, indices into a reused index vector. The engine also
//! keeps the previous inserted vector and its index vector as a cache: the
//! explorer inserts the successors of one state in a row and a transition
//! changes one or two processes, so a (vectorised) comparison with the
//! previous vector finds the few components that changed, and only those
//! are looked up; the others keep their index. This changes no answer nor
//! any byte of the tables; the `component_lookups` counter says how many
//! look-ups were done.
//!
//! This module owns only this storage scheme; it must not import a
//! front-end nor know the search order.

pub mod concurrent;
mod spec;

pub use spec::SPEC;

use crate::blocks::budget::Budget;
use crate::blocks::index_table::{IndexTable, Tuples};
use crate::schemes::hash_table::{HashTable, HashTableConfig};
use crate::visited::{Inserted, MemoryUsage, TableFull, VisitedSet};
use pins::Value;

/// Buckets of a fresh component table (they grow by doubling).
const COMPONENT_INITIAL_BUCKETS: usize = 16;

/// A partition of the slots `0..k` into non-empty components, each slot in
/// exactly one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlotPartition {
    k: usize,
    components: Vec<Vec<usize>>,
}

impl SlotPartition {
    /// Checks that `components` partitions `0..k`: no empty component, no
    /// slot out of range, every slot exactly once.
    pub fn new(k: usize, components: Vec<Vec<usize>>) -> Result<Self, String> {
        let mut owner: Vec<Option<usize>> = vec![None; k];
        for (c, slots) in components.iter().enumerate() {
            if slots.is_empty() {
                return Err(format!("component {c} has no slot"));
            }
            for &s in slots {
                match owner.get_mut(s) {
                    None => return Err(format!("component {c} names slot {s} of {k}")),
                    Some(Some(other)) => {
                        return Err(format!("slot {s} is in components {other} and {c}"))
                    }
                    Some(o) => *o = Some(c),
                }
            }
        }
        if let Some(s) = owner.iter().position(Option::is_none) {
            return Err(format!("slot {s} of {k} is in no component"));
        }
        Ok(SlotPartition { k, components })
    }

    /// Every slot in a component of its own.
    pub fn singletons(k: usize) -> Self {
        SlotPartition {
            k,
            components: (0..k).map(|s| vec![s]).collect(),
        }
    }

    /// Length of the vectors partitioned.
    pub fn k(&self) -> usize {
        self.k
    }

    /// The components, each its slots in sub-vector order.
    pub fn components(&self) -> &[Vec<usize>] {
        &self.components
    }

    /// The component sizes joined by `+`, runs of more than three equal
    /// sizes written `size x count` (`4x12+3`); `min..max` if that is still
    /// longer than 200 characters.
    pub fn sizes_summary(&self) -> String {
        let mut runs: Vec<(usize, usize)> = Vec::new();
        for c in &self.components {
            match runs.last_mut() {
                Some((size, n)) if *size == c.len() => *n += 1,
                _ => runs.push((c.len(), 1)),
            }
        }
        let parts: Vec<String> = runs
            .iter()
            .map(|&(size, n)| {
                if n > 3 {
                    format!("{size}x{n}")
                } else {
                    vec![size.to_string(); n].join("+")
                }
            })
            .collect();
        let joined = parts.join("+");
        if joined.len() <= 200 {
            return joined;
        }
        let sizes = self.components.iter().map(Vec::len);
        format!(
            "{}..{}",
            sizes.clone().min().unwrap_or(0),
            sizes.max().unwrap_or(0)
        )
    }
}

/// Parameters of the collapse engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CollapseConfig {
    /// Initial bucket count of the main table, rounded up to a power of two.
    pub initial_buckets: usize,
    /// Sub-vectors a component table may hold (capped at 2^32 − 2, the
    /// width of a `u32` index). The registry always uses the default;
    /// smaller values exercise index overflow in tests.
    pub max_component_entries: u64,
}

impl Default for CollapseConfig {
    fn default() -> Self {
        CollapseConfig {
            initial_buckets: spec::INITIAL_BUCKETS.default,
            max_component_entries: u32::MAX as u64 - 1,
        }
    }
}

/// The COLLAPSE visited set; see the module documentation.
pub struct Collapse {
    partition: SlotPartition,
    config: CollapseConfig,
    /// The slots of component 0, then of component 1, ...: component `c`'s
    /// sub-vector is gathered as `scratch[i] = state[gather[i]]` for `i` in
    /// `bounds[c]..bounds[c + 1]`.
    gather: Vec<usize>,
    /// Component `c`'s sub-vector is `scratch[bounds[c]..bounds[c + 1]]`.
    bounds: Vec<usize>,
    tables: Vec<IndexTable>,
    main: HashTable,
    /// Component of each slot.
    component_of: Vec<u32>,
    /// Reused sub-vector buffer (length k).
    scratch: Vec<Value>,
    /// The previous vector inserted (length k).
    prev: Vec<Value>,
    /// Reused index vector (one index per component).
    indices: Vec<u32>,
    /// Whether `indices` are the component indices of `prev` (false before
    /// the first insertion and after a failed component look-up).
    cache_valid: bool,
    /// Components to look up in this insertion, each listed once (reused).
    dirty: Vec<u32>,
    /// `dirty_mark[c]`: whether `c` is in `dirty`.
    dirty_mark: Vec<bool>,
    /// Component table look-ups done (the others were cache hits).
    lookups: u64,
}

impl Collapse {
    /// An empty set of vectors of length `partition.k()`, one component
    /// table per component, every table allocating from `budget`.
    pub fn new(
        partition: SlotPartition,
        config: CollapseConfig,
        budget: Budget,
    ) -> Result<Self, TableFull> {
        let main_config = HashTableConfig {
            initial_buckets: config.initial_buckets,
            ..HashTableConfig::default()
        };
        let main = HashTable::with_budget(partition.components.len(), main_config, budget.clone())
            .map_err(main_table_full)?;
        let mut tables = Vec::with_capacity(partition.components.len());
        for (c, slots) in partition.components.iter().enumerate() {
            tables.push(IndexTable::new(Tuples::new(format!("collapse component {c} (width {})", slots.len()), slots.len()).buckets(COMPONENT_INITIAL_BUCKETS).at_most(config.max_component_entries), budget.clone())?);
        }
        let gather: Vec<usize> = partition.components.iter().flatten().copied().collect();
        let mut bounds = Vec::with_capacity(partition.components.len() + 1);
        bounds.push(0);
        for slots in &partition.components {
            bounds.push(bounds.last().unwrap() + slots.len());
        }
        let n = partition.components.len();
        let mut component_of = vec![0; partition.k];
        for (c, slots) in partition.components.iter().enumerate() {
            for &s in slots {
                component_of[s] = c as u32;
            }
        }
        Ok(Collapse {
            component_of,
            scratch: vec![0; partition.k],
            prev: vec![0; partition.k],
            indices: vec![0; n],
            cache_valid: false,
            dirty: Vec::with_capacity(n),
            dirty_mark: vec![false; n],
            lookups: 0,
            partition,
            config,
            gather,
            bounds,
            tables,
            main,
        })
    }

    /// Lists in `dirty` the components of the slots where `state` differs
    /// from `prev`, and makes `prev` a copy of `state`.
    fn mark_changed_components(&mut self, state: &[Value]) {
        const LANES: usize = 8;
        let mut mark = |s: usize| {
            let c = self.component_of[s];
            if !self.dirty_mark[c as usize] {
                self.dirty_mark[c as usize] = true;
                self.dirty.push(c);
            }
        };
        let (new_chunks, prev_chunks) = (state.chunks_exact(LANES), self.prev.chunks_exact(LANES));
        let tail = new_chunks.len() * LANES;
        for (i, (x, y)) in new_chunks.zip(prev_chunks).enumerate() {
            // Fixed-size arrays compare with a few vector instructions.
            let (x, y): (&[Value; LANES], &[Value; LANES]) =
                (x.try_into().unwrap(), y.try_into().unwrap());
            if x != y {
                for j in 0..LANES {
                    if x[j] != y[j] {
                        mark(i * LANES + j);
                    }
                }
            }
        }
        for (j, (x, y)) in state[tail..].iter().zip(&self.prev[tail..]).enumerate() {
            if x != y {
                mark(tail + j);
            }
        }
        self.prev.copy_from_slice(state);
    }

    /// The stored vector with reference `index`, rebuilt from its
    /// component indices.
    pub fn get(&self, index: u64) -> Option<Vec<Value>> {
        let indices = self.main.get(index)?;
        let mut state = vec![0; self.partition.k];
        for ((table, &i), slots) in self
            .tables
            .iter()
            .zip(indices)
            .zip(&self.partition.components)
        {
            for (&s, &v) in slots.iter().zip(table.get(i)) {
                state[s] = v;
            }
        }
        Some(state)
    }
}

fn main_table_full(e: TableFull) -> TableFull {
    TableFull {
        message: format!("collapse main table: {}", e.message),
    }
}

impl VisitedSet for Collapse {
    fn find_or_insert(&mut self, state: &[Value]) -> Result<Inserted, TableFull> {
        assert_eq!(state.len(), self.partition.k, "collapse: vector length");
        self.dirty.clear();
        if std::mem::replace(&mut self.cache_valid, false) {
            self.mark_changed_components(state);
            for &c in &self.dirty {
                self.dirty_mark[c as usize] = false;
            }
        } else {
            self.prev.copy_from_slice(state);
            self.dirty.extend(0..self.tables.len() as u32);
        }
        for &c in &self.dirty {
            let c = c as usize;
            let (start, end) = (self.bounds[c], self.bounds[c + 1]);
            let sub = &mut self.scratch[start..end];
            for (dst, &s) in sub.iter_mut().zip(&self.gather[start..end]) {
                *dst = state[s];
            }
            self.lookups += 1;
            // On failure `cache_valid` stays false: `indices` no longer
            // match `prev`.
            self.indices[c] = self.tables[c].find_or_insert(sub)?.0;
        }
        self.cache_valid = true;
        self.main
            .find_or_insert(&self.indices)
            .map_err(main_table_full)
    }

    fn len(&self) -> u64 {
        self.main.len()
    }

    fn memory(&self) -> MemoryUsage {
        let main = self.main.memory();
        self.tables.iter().fold(main, |m, t| MemoryUsage {
            used: m.used + t.used_bytes(),
            alloc: m.alloc + t.alloc_bytes(),
        })
    }

    fn params(&self) -> String {
        format!(
            "initial_buckets={};components={};sizes={}",
            self.config.initial_buckets.max(16).next_power_of_two(),
            self.tables.len(),
            self.partition.sizes_summary()
        )
    }

    fn counters(&self) -> Vec<(String, u64)> {
        let entries = self.tables.iter().map(IndexTable::len);
        let mut out = vec![
            ("components".into(), self.tables.len() as u64),
            ("component_entries_total".into(), entries.clone().sum()),
            (
                "largest_component_entries".into(),
                entries.max().unwrap_or(0),
            ),
            ("component_lookups".into(), self.lookups),
            (
                "component_extra_probes".into(),
                self.tables.iter().map(IndexTable::probes).sum(),
            ),
        ];
        out.extend(
            self.main
                .counters()
                .into_iter()
                .map(|(name, v)| (format!("main_{name}"), v)),
        );
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::{check_adversarial, check_stream, streams};
    use proptest::prelude::*;
    use std::collections::HashSet;

    fn config() -> CollapseConfig {
        CollapseConfig {
            initial_buckets: 16,
            ..Default::default()
        }
    }

    fn collapse(k: usize, components: Vec<Vec<usize>>) -> Collapse {
        let partition = SlotPartition::new(k, components).unwrap();
        Collapse::new(partition, config(), Budget::unlimited()).unwrap()
    }

    /// The partition families of the issue, for any k ≥ 1.
    fn one_component(k: usize) -> Vec<Vec<usize>> {
        vec![(0..k).collect()]
    }

    fn one_per_slot(k: usize) -> Vec<Vec<usize>> {
        (0..k).map(|s| vec![s]).collect()
    }

    /// Contiguous components of sizes 1, 2, 3, 1, 2, 3, ... (the last one
    /// cut short).
    fn uneven(k: usize) -> Vec<Vec<usize>> {
        let mut out = Vec::new();
        let mut start = 0;
        let mut size = 1;
        while start < k {
            let end = (start + size).min(k);
            out.push((start..end).collect());
            start = end;
            size = size % 3 + 1;
        }
        out
    }

    /// Slots dealt round-robin to three components, each listed backwards
    /// (k = 3: [[0], [1], [2]]; k = 5: [[3, 0], [4, 1], [2]]).
    fn interleaved(k: usize) -> Vec<Vec<usize>> {
        (0..3.min(k))
            .map(|c| (c..k).step_by(3).rev().collect())
            .collect()
    }

    type Family = fn(usize) -> Vec<Vec<usize>>;
    const FAMILIES: [(&str, Family); 4] = [
        ("one component", one_component),
        ("one per slot", one_per_slot),
        ("uneven", uneven),
        ("interleaved", interleaved),
    ];

    #[test]
    fn partition_must_cover_every_slot_exactly_once() {
        assert!(SlotPartition::new(3, vec![vec![0, 2], vec![1]]).is_ok());
        assert!(SlotPartition::new(0, vec![]).is_ok());
        let err = |k, c: Vec<Vec<usize>>| SlotPartition::new(k, c).unwrap_err();
        assert_eq!(err(3, vec![vec![0, 2]]), "slot 1 of 3 is in no component");
        assert_eq!(
            err(3, vec![vec![0, 2], vec![1, 2]]),
            "slot 2 is in components 0 and 1"
        );
        assert_eq!(err(2, vec![vec![0, 1, 2]]), "component 0 names slot 2 of 2");
        assert_eq!(err(2, vec![vec![0, 1], vec![]]), "component 1 has no slot");
        assert_eq!(
            err(2, vec![vec![0, 0], vec![1]]),
            "slot 0 is in components 0 and 0"
        );
    }

    #[test]
    fn empty_vectors_have_no_component() {
        let mut set = collapse(0, vec![]);
        assert_eq!(set.find_or_insert(&[]).unwrap(), Inserted::New(0));
        assert_eq!(set.find_or_insert(&[]).unwrap(), Inserted::Found(0));
        assert_eq!(set.len(), 1);
        assert_eq!(set.memory().used, 8);
        assert_eq!(set.params(), "initial_buckets=16;components=0;sizes=");
    }

    #[test]
    fn non_contiguous_components_store_the_right_sub_vectors() {
        let mut set = collapse(3, vec![vec![0, 2], vec![1]]);
        let a = set.find_or_insert(&[1, 2, 3]).unwrap();
        let b = set.find_or_insert(&[1, 5, 3]).unwrap();
        let c = set.find_or_insert(&[3, 2, 1]).unwrap();
        assert!(a.is_new() && b.is_new() && c.is_new());
        assert_eq!(set.tables[0].get(0), &[1, 3]);
        assert_eq!(set.tables[0].get(1), &[3, 1]);
        assert_eq!(set.tables[1].len(), 2);
        assert_eq!(set.main.get(c.reference()), Some(&[1u32, 0][..]));
        assert_eq!(set.get(a.reference()), Some(vec![1, 2, 3]));
        assert_eq!(set.get(b.reference()), Some(vec![1, 5, 3]));
        assert_eq!(set.get(c.reference()), Some(vec![3, 2, 1]));
        assert_eq!(set.get(3), None);
        assert_eq!(
            set.find_or_insert(&[1, 5, 3]).unwrap(),
            Inserted::Found(b.reference())
        );
    }

    #[test]
    fn unchanged_components_reuse_the_previous_index() {
        let mut set = collapse(4, vec![vec![0], vec![3, 1], vec![2]]);
        let lookups = |set: &Collapse| {
            set.counters()
                .into_iter()
                .find(|(n, _)| n == "component_lookups")
                .unwrap()
                .1
        };
        assert!(set.find_or_insert(&[1, 2, 3, 4]).unwrap().is_new());
        assert_eq!(lookups(&set), 3);
        assert!(set.find_or_insert(&[1, 2, 5, 4]).unwrap().is_new());
        assert_eq!(lookups(&set), 4);
        assert!(set.find_or_insert(&[1, 2, 3, 4]).unwrap() == Inserted::Found(0));
        assert_eq!(lookups(&set), 5);
        assert!(set.find_or_insert(&[0, 2, 3, 0]).unwrap().is_new());
        assert_eq!(lookups(&set), 7);
        assert_eq!(set.get(2), Some(vec![0, 2, 3, 0]));
    }

    #[test]
    fn memory_accounting_is_exact_and_matches_the_budget() {
        let budget = Budget::unlimited();
        let partition = SlotPartition::new(5, vec![vec![4, 0], vec![1, 2], vec![3]]).unwrap();
        let mut set = Collapse::new(partition, config(), budget.clone()).unwrap();
        let mut reference = HashSet::new();
        let mut comps: [HashSet<Vec<u32>>; 3] = Default::default();
        for i in 0..20_000u32 {
            let v = [i % 7, i % 11, i % 13 / 2, i % 3, i % 17];
            set.find_or_insert(&v).unwrap();
            reference.insert(v);
            comps[0].insert(vec![v[4], v[0]]);
            comps[1].insert(vec![v[1], v[2]]);
            comps[2].insert(vec![v[3]]);
        }
        assert_eq!(set.len(), reference.len() as u64);
        let m = set.memory();
        let want = reference.len() as u64 * (8 + 4 * 3)
            + comps[0].len() as u64 * 12
            + comps[1].len() as u64 * 12
            + comps[2].len() as u64 * 8;
        assert_eq!(m.used, want);
        assert_eq!(m.alloc, budget.reserved());
        let counters: std::collections::HashMap<_, _> = set.counters().into_iter().collect();
        assert_eq!(counters["components"], 3);
        assert_eq!(
            counters["component_entries_total"],
            comps.iter().map(|c| c.len() as u64).sum::<u64>()
        );
        assert_eq!(
            counters["largest_component_entries"],
            comps.iter().map(|c| c.len() as u64).max().unwrap()
        );
        assert_eq!(set.params(), "initial_buckets=16;components=3;sizes=2+2+1");
        drop(set);
        assert_eq!(budget.reserved(), 0);
    }

    #[test]
    fn sizes_summary_is_short() {
        let p = SlotPartition::new(19, uneven(19)).unwrap();
        assert_eq!(p.sizes_summary(), "1+2+3+1+2+3+1+2+3+1");
        assert_eq!(SlotPartition::singletons(5).sizes_summary(), "1x5");
        assert_eq!(SlotPartition::singletons(2).sizes_summary(), "1+1");
        let mut comps = uneven(1000);
        comps.push(vec![1000, 1001, 1002, 1003]);
        let p = SlotPartition::new(1004, comps).unwrap();
        assert_eq!(p.sizes_summary(), "1..4");
    }

    #[test]
    fn budget_exhaustion_is_table_full_and_keeps_what_was_stored() {
        // Room for the main table's first 4 MiB chunk and some growth.
        let budget = Budget::new((4 << 20) + (1 << 16));
        let partition = SlotPartition::new(4, vec![vec![0, 1], vec![2], vec![3]]).unwrap();
        let mut set = Collapse::new(partition, config(), budget.clone()).unwrap();
        let mut stored = Vec::new();
        let err = loop {
            let i = stored.len() as u32;
            let v = [i, i / 3, i % 5, i % 2];
            match set.find_or_insert(&v) {
                Ok(r) => assert!(r.is_new()),
                Err(e) => break e,
            }
            stored.push(v);
            assert!(stored.len() < 10_000_000, "budget never enforced");
        };
        assert!(err.message.contains("memory budget"), "{}", err.message);
        assert!(err.message.starts_with("collapse"), "{}", err.message);
        assert_eq!(set.len(), stored.len() as u64);
        assert!(budget.reserved() <= budget.limit());
        assert_eq!(set.memory().alloc, budget.reserved());
        for v in &stored {
            assert!(!set.find_or_insert(v).unwrap().is_new());
        }

        // Too small for the tables themselves.
        check_tiny_budget_refused(|partition, budget| Collapse::new(partition, config(), budget));
    }

    /// Builds a set of two one-slot components with `new` within a budget
    /// of 100 bytes, too small for the main table: checks that it is
    /// refused with the table named and nothing left reserved. (Both forms
    /// of COLLAPSE.)
    pub(crate) fn check_tiny_budget_refused<S>(
        new: impl FnOnce(SlotPartition, Budget) -> Result<S, TableFull>,
    ) {
        let partition = SlotPartition::new(2, one_per_slot(2)).unwrap();
        let budget = Budget::new(100);
        let Err(err) = new(partition, budget.clone()) else {
            panic!("a 100-byte budget cannot hold the main table");
        };
        assert!(
            err.message.starts_with("collapse main table"),
            "{}",
            err.message
        );
        assert_eq!(budget.reserved(), 0);
    }

    #[test]
    fn component_index_overflow_is_table_full() {
        let partition = SlotPartition::new(2, vec![vec![1], vec![0]]).unwrap();
        let mut set = Collapse::new(
            partition,
            CollapseConfig {
                initial_buckets: 16,
                max_component_entries: 5,
            },
            Budget::unlimited(),
        )
        .unwrap();
        for a in 0..5u32 {
            for b in 0..5u32 {
                assert!(set.find_or_insert(&[a, b]).unwrap().is_new());
            }
        }
        let err = set.find_or_insert(&[0, 5]).unwrap_err();
        assert!(
            err.message.starts_with("collapse component 0 (width 1)")
                && err.message.contains("limit of its index width"),
            "{}",
            err.message
        );
        // The failed sub-vector is not mistaken for a cached one.
        assert!(set.find_or_insert(&[0, 5]).is_err());
        assert!(set.find_or_insert(&[5, 0]).is_err());
        assert_eq!(set.len(), 25);
        assert_eq!(set.find_or_insert(&[4, 4]).unwrap(), Inserted::Found(24));
    }

    #[test]
    fn adversarial_streams_behave_like_a_hash_set() {
        for (name, family) in FAMILIES {
            let make = |k: usize| -> Box<dyn VisitedSet> { Box::new(collapse(k, family(k))) };
            eprintln!("partition family: {name}");
            check_adversarial(&make, u32::MAX);
            check_adversarial(&make, 3);
        }
    }

    /// A random partition of `0..k`: each slot gets a component id below
    /// `k`, components listed by first occurrence, slot order shuffled
    /// within each by `key`.
    fn partition_strategy(k: usize) -> impl Strategy<Value = Vec<Vec<usize>>> {
        (
            proptest::collection::vec(0..k, k),
            proptest::collection::vec(any::<u32>(), k),
        )
            .prop_map(move |(owner, key)| {
                let mut comps: Vec<Vec<usize>> = Vec::new();
                let mut index_of = vec![usize::MAX; k];
                for (s, &o) in owner.iter().enumerate() {
                    if index_of[o] == usize::MAX {
                        index_of[o] = comps.len();
                        comps.push(Vec::new());
                    }
                    comps[index_of[o]].push(s);
                }
                for c in &mut comps {
                    c.sort_by_key(|&s| key[s]);
                }
                comps
            })
    }

    proptest! {
        #[test]
        fn random_streams_behave_like_a_hash_set(
            (k, stream, family) in streams(9, 4).prop_flat_map(|(k, stream)| {
                (Just(k), Just(stream), 0..FAMILIES.len())
            })
        ) {
            check_stream(&mut collapse(k, FAMILIES[family].1(k)), &stream);
        }

        #[test]
        fn random_partitions_behave_like_a_hash_set(
            (k, stream, components) in streams(9, 3).prop_flat_map(|(k, stream)| {
                (Just(k), Just(stream), partition_strategy(k))
            })
        ) {
            let mut set = collapse(k, components);
            check_stream(&mut set, &stream);
            // Every reference resolves to its vector.
            for v in &stream {
                let r = set.find_or_insert(v).unwrap().reference();
                prop_assert_eq!(set.get(r), Some(v.clone()));
            }
        }
    }
}
