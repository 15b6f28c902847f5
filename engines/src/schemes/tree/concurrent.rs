//! The concurrent tree database: the tree of [`crate::schemes::tree`] (same shape,
//! same incremental insertion from the predecessor's node indices) over
//! lock-free tables shared by every worker, as in Laarman, van de Pol and
//! Weber, "Parallel recursive state compression for free" (2011), generic
//! over its root table ([`SharedRoot`]); with a [`SharedTable`] root it is
//! the concurrent `tree` engine ([`SharedTree`]), with a shared Cleary
//! root the concurrent `compact-tree` (`shared_compact_tree`).
//!
//! Every non-root node has a [`SharedTable`] of `(left, right)` tuples
//! (dense, stable indices as in the sequential tree, at most 2^w of them,
//! growing at load 1/2 by the stop-the-world protocol of
//! [`crate::concurrent`]); the root of `tree` is a [`SharedTable`] of root
//! tuples growing at load 3/4. The per-insertion scratch (node indices,
//! which nodes changed) and the index leases (node table `j` has lease
//! `j`, the root the next) are the calling worker's, so insertions share
//! nothing but the tables. Slot values wider than `u` bits (when `u < 32`)
//! are a [`TableFull`] "slot i value v needs more than u=… bits", as in
//! the sequential tree.
//!
//! Differences from the sequential `tree`, all in memory: a shared bucket
//! is 8 bytes (hash memo + index, the CAS word of the protocol) where the
//! sequential node table has 4, and the root stores the tuple (8 bytes)
//! and an 8-byte bucket where the sequential root stores 8 bytes. So
//! `used` = node entries × 16 + states × 16 bytes for `tree`.
//!
//! It owns only this adapter and the root-table trait; the tree shape and
//! the insertion walk are `tree::shape`'s, the tables are `shared_table`'s
//! (and `shared_cleary`'s). It must not know models nor the search order.

use crate::blocks::budget::Budget;
use crate::blocks::lease::Lease;
use crate::concurrent::{ConcurrentVisitedSet, InsertError, WorkerLocal};
use crate::blocks::index_table::Tuples;
use crate::schemes::hash_table::concurrent::{retire_leases, SharedTable};
use crate::schemes::tree::shape::{inserted, Pred, Shape};
use crate::schemes::tree::{tree_spec, TreeConfig, TreeSpec};
use crate::visited::{Inserted, MemoryUsage, TableFull};
use pins::Value;

/// What storing a root tuple answers: (reference, new), or why it could
/// not be stored now.
pub type RootInsert = Result<(u64, bool), InsertError>;

/// The root table of a concurrent tree: stores root tuples.
pub trait SharedRoot: Send + Sync {
    /// Stores the root tuple `[left, right]` if absent, counting it on the
    /// worker's `lease`: (reference, new).
    fn find_or_insert(&self, tuple: [u32; 2], lease: &mut Lease) -> RootInsert;
    /// Returns what the worker's `lease` holds.
    fn retire(&self, lease: &mut Lease);
    /// Grows (or re-keys) with exclusive access if an insertion asked for
    /// it; idempotent.
    fn grow(&mut self) -> Result<(), TableFull>;
    /// Root tuples (states) stored.
    fn len(&self) -> u64;
    /// Whether no root tuple is stored.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Bytes of the occupied entries and bytes allocated.
    fn memory(&self) -> MemoryUsage;
    /// Engine counters of the root table.
    fn counters(&self, out: &mut Vec<(String, u64)>);
    /// Lets `grow` re-insert with `threads` threads.
    fn set_rebuild_threads(&mut self, threads: usize);
}

impl SharedRoot for SharedTable {
    #[inline]
    fn find_or_insert(&self, tuple: [u32; 2], lease: &mut Lease) -> RootInsert {
        let (index, new) = SharedTable::find_or_insert(self, &tuple, lease)?;
        Ok((index as u64, new))
    }

    fn retire(&self, lease: &mut Lease) {
        SharedTable::retire(self, lease);
    }

    fn grow(&mut self) -> Result<(), TableFull> {
        SharedTable::grow(self)
    }

    fn len(&self) -> u64 {
        SharedTable::len(self)
    }

    fn memory(&self) -> MemoryUsage {
        MemoryUsage {
            used: self.used_bytes(),
            alloc: self.alloc_bytes(),
        }
    }

    fn counters(&self, out: &mut Vec<(String, u64)>) {
        out.push(("root_buckets".into(), self.buckets()));
    }

    fn set_rebuild_threads(&mut self, threads: usize) {
        SharedTable::set_rebuild_threads(self, threads);
    }
}

/// The concurrent tree database over any root table; see the module
/// documentation.
pub struct SharedTreeDb<R: SharedRoot> {
    shape: Shape,
    tables: Vec<SharedTable>,
    root: R,
}

/// The concurrent `tree` engine.
pub type SharedTree = SharedTreeDb<SharedTable>;

impl SharedTreeDb<SharedTable> {
    /// A tree for vectors of length `k` (0 included: the one empty vector) within `budget`.
    pub fn new(k: usize, config: &TreeConfig, budget: Budget) -> Result<Self, TableFull> {
        Self::ordered(k, config, Vec::new(), budget)
    }

    /// The same, its leaves holding the slots in `order` (see
    /// [`crate::schemes::tree::order`]).
    pub fn ordered(k: usize, config: &TreeConfig, order: Vec<usize>, budget: Budget) -> Result<Self, TableFull> {
        let (spec, initial) = tree_spec(k, config, order);
        let root = SharedTable::new(Tuples::new("tree root table", 2).buckets(initial), 0.75, budget.clone())?;
        Self::build(spec, root, budget)
    }
}

impl<R: SharedRoot> SharedTreeDb<R> {
    /// The tree `spec` asks for with `root` as root table; node tables
    /// (growing at load 1/2) allocate from `budget`.
    pub(crate) fn build(spec: TreeSpec, root: R, budget: Budget) -> Result<Self, TableFull> {
        let (index_bits, node_buckets) = (spec.index_bits, spec.node_buckets);
        let shape = Shape::new(spec);
        let tables = (0..shape.inner())
            .map(|j| {
                let name = shape.table_name(j);
                SharedTable::new(Tuples::new(name, 2).buckets(node_buckets).at_most(1u64 << index_bits), 0.5, budget.clone())
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(SharedTreeDb {
            shape,
            tables,
            root,
        })
    }

    /// The root table.
    pub fn root(&self) -> &R {
        &self.root
    }
}

impl<R: SharedRoot> ConcurrentVisitedSet for SharedTreeDb<R> {
    fn side_words(&self) -> usize {
        self.shape.side_words()
    }

    fn find_or_insert(
        &self,
        state: &[Value],
        local: &mut WorkerLocal,
    ) -> Result<Inserted, InsertError> {
        self.find_or_insert_from(state, None, &mut [], local)
    }

    fn find_or_insert_from(
        &self,
        state: &[Value],
        pred: Option<Pred<'_>>,
        side: &mut [u32],
        local: &mut WorkerLocal,
    ) -> Result<Inserted, InsertError> {
        let inner = self.tables.len();
        let (scratch, leases) = local.split(inner + 1);
        let (leases, root_lease) = leases.split_at_mut(inner);
        // scratch = node indices and slots, then one changed-flag per node.
        scratch.clear();
        scratch.resize(self.shape.scratch_words(), 0);
        let tables = &self.tables;
        let (l, r) = self.shape.walk::<_, InsertError>(
            state,
            pred,
            leases,
            scratch,
            &mut 0,
            |lease, j, tuple| Ok(tables[j].find_or_insert(&tuple, lease)?.0),
        )?;
        if side.len() == inner {
            side.copy_from_slice(&scratch[..inner]);
        }
        let (reference, new) = self.root.find_or_insert([l, r], &mut root_lease[0])?;
        Ok(inserted(reference, new))
    }

    fn retire(&self, local: &mut WorkerLocal) {
        self.root.retire(retire_leases(&self.tables, local));
    }

    fn grow(&mut self) -> Result<(), TableFull> {
        self.tables.iter_mut().try_for_each(SharedTable::grow)?;
        self.root.grow()
    }

    fn set_workers(&mut self, threads: usize) {
        let tables = self.tables.iter_mut();
        tables.for_each(|t| t.set_rebuild_threads(threads));
        self.root.set_rebuild_threads(threads);
    }

    fn len(&self) -> u64 {
        self.root.len()
    }

    fn memory(&self) -> MemoryUsage {
        let nodes = self
            .tables
            .iter()
            .fold(MemoryUsage::default(), |m, t| MemoryUsage {
                used: m.used + t.used_bytes(),
                alloc: m.alloc + t.alloc_bytes(),
            });
        let root = self.root.memory();
        MemoryUsage {
            used: nodes.used + root.used,
            alloc: nodes.alloc + root.alloc,
        }
    }

    fn params(&self) -> String {
        self.shape.params.clone()
    }

    fn counters(&self) -> Vec<(String, u64)> {
        let mut out = vec![(
            "node_entries".into(),
            self.tables.iter().map(|t| t.len()).sum(),
        )];
        self.root.counters(&mut out);
        out
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::conformance::explore_counters;
    use crate::explore::parallel::explore_parallel;
    use crate::explore::ExploreConfig;
    use crate::report::RunStatus;
    use crate::test_models::Counters;

    /// Small initial tables, so that the tests grow them.
    fn small(incremental: bool) -> TreeConfig {
        TreeConfig {
            incremental,
            initial_buckets: 16,
            ..TreeConfig::default()
        }
    }

    fn tree(k: usize, incremental: bool) -> Box<dyn ConcurrentVisitedSet> {
        Box::new(SharedTree::new(k, &small(incremental), Budget::unlimited()).unwrap())
    }

    #[test]
    fn parallel_search_counts_are_exact_for_every_shape() {
        for (n, m) in [(1, 50), (2, 30), (3, 12), (5, 6), (9, 3)] {
            for incremental in [true, false] {
                for threads in [1, 2, 8] {
                    let case = format!("k={n} incremental={incremental} threads={threads}");
                    explore_counters(tree(n, incremental), (n, m), threads, &case);
                }
            }
        }
    }

    #[test]
    fn stress_many_threads_small_tree() {
        for rep in 0..50 {
            explore_counters(tree(6, true), (6, 4), 8, &format!("repetition {rep}"));
        }
    }

    #[test]
    fn node_index_width_limit_is_table_full() {
        let config = TreeConfig {
            w: 3,
            ..small(true)
        };
        let set = Box::new(SharedTree::new(4, &config, Budget::unlimited()).unwrap());
        let r = explore_parallel(&Counters::new(4, 5), set, 2, ExploreConfig::default());
        assert_eq!(r.status, RunStatus::TableFull);
        assert!(
            r.message.contains("limit of its index width"),
            "{}",
            r.message
        );
    }
}
