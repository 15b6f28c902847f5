//! The concurrent `collapse` engine: SPIN's COLLAPSE (recursive indexing,
//! see [`crate::schemes::collapse`]) over lock-free tables shared by every worker.
//!
//! Same components as the sequential engine (the [`SlotPartition`] the
//! registry builds from the model's process partition, sub-vectors taken
//! in the order listed), same parameters. Every component has a
//! [`SharedTable`] of its sub-vectors (dense, stable `u32` indices, at
//! most `max_component_entries`, growing at load 1/2 like the sequential
//! component tables); the root is a [`SharedTable`] of index vectors, one
//! index per component, growing at load 3/4 like the sequential main
//! table. Both grow by the stop-the-world protocol of
//! [`crate::concurrent`], so an insertion is lock-free: a few look-ups in
//! component tables, then one in the root, each a probe sequence and at
//! most one CAS (the concurrent hash table's protocol; no new atomic protocol here).
//! Two threads inserting the same absent state meet in the same component
//! entries (one inserts each sub-vector, the other finds it) and then in
//! the same root bucket, where exactly one of them answers `New`.
//!
//! Cache. As in the sequential engine, a worker usually inserts the
//! successors of one state in a row and a transition changes one or two
//! processes, so only the components that differ from the previous vector
//! the worker inserted are looked up. The previous vector and its index
//! vector are kept in the worker's own scratch buffer (tagged with the
//! set's identity, cleared while a look-up is under way), so workers share
//! nothing but the tables. Component indices never move (growth re-hashes
//! buckets only), so the cache survives growth. The sequential
//! `component_lookups` and `component_extra_probes` counters are not kept
//! (a shared counter on the hot path would be written by every worker).
//!
//! Accounting (exact once no insertion runs): `used` = Σ over components
//! of entries × (8 + 4·width) + states × (8 + 4·components); `alloc` =
//! every table's bucket array and data chunks, all reserved in one
//! [`Budget`]. Differences from the sequential form, all in memory: a
//! shared component bucket is 8 bytes (hash memo + index, the CAS word)
//! where the sequential [`crate::blocks::index_table::IndexTable`] bucket has 4, so
//! component entries cost 4 bytes more each; root entries cost the same
//! (8-byte bucket + index vector). A model without components stores the
//! one-word vector `[0]` (12 bytes per state, 8 in the sequential form).
//! Every shared table starts with at least 2048 buckets and data for its
//! first threshold (the protocol's margin), so `alloc` of a model with
//! many small components is larger than the sequential one's.
//!
//! It owns only this adapter; the partition is `collapse`'s, the tables
//! are the concurrent hash table's (`hash_table::concurrent`). It must not import a front-end nor know the
//! search order.

use crate::blocks::budget::Budget;
use crate::blocks::index_table::Tuples;
use crate::concurrent::{ConcurrentVisitedSet, InsertError, WorkerLocal};
use crate::schemes::collapse::{CollapseConfig, SlotPartition};
use crate::schemes::hash_table::concurrent::{
    grow_under_root, retire_leases, set_rebuild_threads_under_root, SharedTable,
};
use crate::visited::{Inserted, MemoryUsage, TableFull};
use pins::Value;

/// Load at which a component table doubles (as `IndexTable`).
const COMPONENT_MAX_LOAD: f64 = 0.5;
/// Load at which the root table doubles (as the sequential main table).
const ROOT_MAX_LOAD: f64 = 0.75;
/// Buckets of a fresh component table (raised to the protocol's minimum).
const COMPONENT_INITIAL_BUCKETS: usize = 16;

/// Tags of the sets, so that a worker's cached index vector is never read
/// by another set (0 = no valid cache).
static NEXT_ID: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(1);

/// The concurrent COLLAPSE visited set; see the module documentation.
pub struct SharedCollapse {
    k: usize,
    partition: SlotPartition,
    /// The slots of component 0, then of component 1, ...
    gather: Vec<usize>,
    /// Component `c`'s slots are `gather[bounds[c]..bounds[c + 1]]`.
    bounds: Vec<usize>,
    /// Widest component.
    max_width: usize,
    tables: Vec<SharedTable>,
    root: SharedTable,
    id: u32,
    params: String,
}

impl SharedCollapse {
    /// An empty set of vectors of length `partition.k()`, one component
    /// table per component, every table allocating from `budget`.
    pub fn new(
        partition: SlotPartition,
        config: CollapseConfig,
        budget: Budget,
    ) -> Result<Self, TableFull> {
        let n = partition.components().len();
        let root = SharedTable::new(Tuples::new("collapse main table", n.max(1)).buckets(config.initial_buckets.max(16).next_power_of_two()), ROOT_MAX_LOAD, budget.clone())?;
        let tables = partition
            .components()
            .iter()
            .enumerate()
            .map(|(c, slots)| {
                SharedTable::new(Tuples::new(format!("collapse component {c} (width {})", slots.len()), slots.len()).buckets(COMPONENT_INITIAL_BUCKETS).at_most(config.max_component_entries), COMPONENT_MAX_LOAD, budget.clone())
            })
            .collect::<Result<Vec<_>, _>>()?;
        let gather: Vec<usize> = partition.components().iter().flatten().copied().collect();
        let mut bounds = vec![0];
        for slots in partition.components() {
            bounds.push(bounds.last().unwrap() + slots.len());
        }
        let params = format!(
            "initial_buckets={};components={n};sizes={}",
            root.buckets(),
            partition.sizes_summary()
        );
        Ok(SharedCollapse {
            k: partition.k(),
            max_width: partition
                .components()
                .iter()
                .map(Vec::len)
                .max()
                .unwrap_or(0),
            partition,
            gather,
            bounds,
            tables,
            root,
            id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            params,
        })
    }

    /// The stored vector with reference `index` (below `len()`), rebuilt
    /// from its component indices.
    pub fn get(&self, index: u32) -> Vec<Value> {
        let n = self.tables.len();
        let mut indices = vec![0; n.max(1)];
        self.root.get_into(index, &mut indices);
        let mut state = vec![0; self.k];
        let mut sub = vec![0; self.max_width];
        for (c, slots) in self.partition.components().iter().enumerate() {
            self.tables[c].get_into(indices[c], &mut sub[..slots.len()]);
            for (&s, &v) in slots.iter().zip(&sub) {
                state[s] = v;
            }
        }
        state
    }
}

impl ConcurrentVisitedSet for SharedCollapse {
    fn find_or_insert(
        &self,
        state: &[Value],
        local: &mut WorkerLocal,
    ) -> Result<Inserted, InsertError> {
        assert_eq!(state.len(), self.k, "collapse: vector length");
        let n = self.tables.len();
        // Leases: component table `c` has lease `c`, the main table `n`.
        let (scratch, leases) = local.split(n + 1);
        // scratch = [cache tag, previous vector (k), its indices (n),
        // sub-vector buffer (widest component)].
        let need = 1 + self.k + n.max(1) + self.max_width;
        if scratch.len() != need {
            scratch.clear();
            scratch.resize(need, 0);
        }
        let (tag, rest) = scratch.split_at_mut(1);
        let (prev, rest) = rest.split_at_mut(self.k);
        let (indices, sub) = rest.split_at_mut(n.max(1));
        let cached = tag[0] == self.id;
        // Until every index below matches `state`.
        tag[0] = 0;
        for (c, table) in self.tables.iter().enumerate() {
            let slots = &self.gather[self.bounds[c]..self.bounds[c + 1]];
            if cached && slots.iter().all(|&s| state[s] == prev[s]) {
                continue;
            }
            let sub = &mut sub[..slots.len()];
            for (dst, &s) in sub.iter_mut().zip(slots) {
                *dst = state[s];
            }
            indices[c] = table.find_or_insert(sub, &mut leases[c])?.0;
        }
        prev.copy_from_slice(state);
        tag[0] = self.id;
        let (index, new) = self.root.find_or_insert(indices, &mut leases[n])?;
        Ok(if new {
            Inserted::New(index as u64)
        } else {
            Inserted::Found(index as u64)
        })
    }

    fn retire(&self, local: &mut WorkerLocal) {
        self.root.retire(retire_leases(&self.tables, local));
    }

    fn grow(&mut self) -> Result<(), TableFull> {
        grow_under_root(&mut self.tables, &mut self.root)
    }

    fn set_workers(&mut self, threads: usize) {
        set_rebuild_threads_under_root(&mut self.tables, &mut self.root, threads);
    }

    fn len(&self) -> u64 {
        self.root.len()
    }

    fn memory(&self) -> MemoryUsage {
        let tables = self.tables.iter().chain(std::iter::once(&self.root));
        tables.fold(MemoryUsage::default(), |m, t| MemoryUsage {
            used: m.used + t.used_bytes(),
            alloc: m.alloc + t.alloc_bytes(),
        })
    }

    fn params(&self) -> String {
        self.params.clone()
    }

    fn counters(&self) -> Vec<(String, u64)> {
        let entries = self.tables.iter().map(SharedTable::len);
        vec![
            ("components".into(), self.tables.len() as u64),
            ("component_entries_total".into(), entries.clone().sum()),
            (
                "largest_component_entries".into(),
                entries.max().unwrap_or(0),
            ),
            ("main_buckets".into(), self.root.buckets()),
        ]
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::blocks::lease::LEASE;
    use crate::conformance::{
        concurrent_overlapping_inserts, explore_counters, stress_small_model,
    };
    use crate::schemes::collapse::tests::check_tiny_budget_refused;
    use std::collections::HashSet;

    fn collapse(k: usize, components: Vec<Vec<usize>>, max_entries: u64) -> SharedCollapse {
        let config = CollapseConfig {
            initial_buckets: 16,
            max_component_entries: max_entries,
        };
        let partition = SlotPartition::new(k, components).unwrap();
        SharedCollapse::new(partition, config, Budget::unlimited()).unwrap()
    }

    /// Components [4, 0], [1, 2], [3] of 5-slot vectors.
    fn five() -> SharedCollapse {
        collapse(
            5,
            vec![vec![4, 0], vec![1, 2], vec![3]],
            u32::MAX as u64 - 1,
        )
    }

    fn vector(i: u32) -> Vec<u32> {
        vec![i % 7, i % 11, i % 13 / 2, i % 3, i % 1009]
    }

    #[test]
    fn many_threads_overlapping_inserts_with_growth() {
        for threads in [4, 8] {
            let (set, index_of) = concurrent_overlapping_inserts(five(), threads, 30_000, &vector);
            // Root grew (from 2048 buckets), component [4, 0] too.
            let counters: std::collections::HashMap<_, _> = set.counters().into_iter().collect();
            assert!(counters["main_buckets"] > 2048, "{counters:?}");
            // Unique references (dense but for the holes of retired
            // leases), each resolving to its vector; exact bytes.
            let mut comps: [HashSet<Vec<u32>>; 3] = Default::default();
            let mut refs: Vec<u64> = index_of.values().copied().collect();
            refs.sort_unstable();
            refs.dedup();
            assert_eq!(refs.len(), index_of.len());
            assert!(*refs.last().unwrap() < (index_of.len() as u64 + threads as u64 * LEASE));
            for (v, &r) in &index_of {
                assert_eq!(&set.get(r as u32), v);
            }
            for v in index_of.keys() {
                comps[0].insert(vec![v[4], v[0]]);
                comps[1].insert(vec![v[1], v[2]]);
                comps[2].insert(vec![v[3]]);
            }
            let want = index_of.len() as u64 * (8 + 4 * 3)
                + comps[0].len() as u64 * 16
                + comps[1].len() as u64 * 16
                + comps[2].len() as u64 * 12;
            assert_eq!(set.memory().used, want);
            assert_eq!(
                counters["component_entries_total"],
                comps.iter().map(|c| c.len() as u64).sum::<u64>()
            );
        }
    }

    #[test]
    fn references_resolve_to_their_vectors() {
        let mut set = five();
        let mut local = WorkerLocal::new();
        let mut refs = Vec::new();
        for i in 0..5000 {
            let r = loop {
                match set.find_or_insert_from(&vector(i), None, &mut [], &mut local) {
                    Err(InsertError::Grow) => set.grow().unwrap(),
                    r => break r.unwrap(),
                }
            };
            refs.push((i, r));
        }
        for (i, r) in refs {
            assert_eq!(set.get(r.reference() as u32), vector(i));
        }
    }

    #[test]
    fn a_stale_or_foreign_cache_is_not_trusted() {
        let a = five();
        let b = five();
        let mut local = WorkerLocal::new();
        let ins = |s: &SharedCollapse, v: &[u32], local: &mut WorkerLocal| {
            s.find_or_insert_from(v, None, &mut [], local).unwrap()
        };
        assert!(ins(&a, &[1, 2, 3, 0, 5], &mut local).is_new());
        assert!(ins(&a, &[9, 9, 9, 1, 9], &mut local).is_new());
        // `b` sees `a`'s cache in the scratch: it must look everything up.
        assert_eq!(ins(&b, &[9, 9, 9, 1, 8], &mut local), Inserted::New(0));
        assert_eq!(b.get(0), vec![9, 9, 9, 1, 8]);
        // (`a`'s leases were replaced by `b`'s: a fresh lease of `a`.)
        let r = ins(&a, &[9, 9, 9, 1, 8], &mut local);
        assert!(r.is_new());
        assert_eq!(a.get(r.reference() as u32), vec![9, 9, 9, 1, 8]);
    }

    #[test]
    fn component_index_overflow_is_table_full_and_keeps_the_cache_honest() {
        let set = collapse(2, vec![vec![1], vec![0]], 5);
        let mut local = WorkerLocal::new();
        let mut ins = |v: [u32; 2]| set.find_or_insert_from(&v, None, &mut [], &mut local);
        for a in 0..5u32 {
            for b in 0..5u32 {
                assert!(ins([a, b]).unwrap().is_new());
            }
        }
        match ins([0, 5]) {
            Err(InsertError::Full(f)) => assert!(
                f.message.starts_with("collapse component 0 (width 1)")
                    && f.message.contains("limit of its index width"),
                "{}",
                f.message
            ),
            other => panic!("{other:?}"),
        }
        assert!(ins([0, 5]).is_err());
        assert!(ins([5, 0]).is_err());
        assert_eq!(ins([4, 4]).unwrap(), Inserted::Found(24));
        set.retire(&mut local);
        assert_eq!(set.len(), 25);
    }

    #[test]
    fn parallel_search_counts_are_exact_for_many_partitions() {
        let partitions: Vec<Vec<Vec<usize>>> = vec![
            vec![(0..5).collect()],
            (0..5).map(|s| vec![s]).collect(),
            vec![vec![4, 0], vec![1, 2], vec![3]],
        ];
        for components in partitions {
            for threads in [1, 2, 4, 8] {
                let set = Box::new(collapse(5, components.clone(), u32::MAX as u64 - 1));
                explore_counters(set, (5, 7), threads, &format!("{components:?}"));
            }
        }
    }

    #[test]
    fn stress_many_threads_small_model() {
        stress_small_model(&|| {
            Box::new(collapse(
                6,
                vec![vec![0, 1], vec![2], vec![5, 3, 4]],
                u32::MAX as u64 - 1,
            ))
        });
    }

    #[test]
    fn budget_too_small_is_table_full() {
        check_tiny_budget_refused(|partition, budget| {
            SharedCollapse::new(partition, CollapseConfig::default(), budget)
        });
    }
}
