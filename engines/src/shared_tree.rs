//! The concurrent `tree` engine: the tree database of [`crate::tree`]
//! (same shape, same incremental insertion from the predecessor's node
//! indices) over lock-free tables shared by every worker, as in Laarman,
//! van de Pol and Weber, "Parallel recursive state compression for free"
//! (2011).
//!
//! Every non-root node has a [`SharedTable`] of `(left, right)` tuples
//! (dense, stable indices as in the sequential tree, at most 2^w of them,
//! growing at load 1/2 by the stop-the-world protocol of
//! [`crate::concurrent`]); the root is a [`SharedTable`] of root tuples
//! growing at load 3/4. The per-insertion scratch (node indices, which
//! nodes changed) is the calling worker's, so insertions share nothing but
//! the tables.
//!
//! Differences from the sequential `tree`, all in memory: a shared bucket
//! is 8 bytes (hash memo + index, the CAS word of the protocol) where the
//! sequential node table has 4, and the root stores the tuple (8 bytes)
//! and an 8-byte bucket where the sequential root stores 8 bytes. So
//! `used` = node entries × 16 + states × 16 bytes. The `compact-tree`'s
//! Cleary root has no concurrent form yet (that engine runs with one
//! thread only).
//!
//! It owns only this adapter; the tree shape is `tree`'s, the tables are
//! `shared_table`'s. It must not know models nor the search order.

use crate::budget::Budget;
use crate::concurrent::{ConcurrentVisitedSet, InsertError};
use crate::shared_table::SharedTable;
use crate::tree::{build, Child, Node, TreeConfig};
use crate::visited::{Inserted, MemoryUsage, TableFull};
use pins::Value;

/// The concurrent tree database; see the module documentation.
pub struct SharedTree {
    k: usize,
    nodes: Vec<Node>,
    tables: Vec<SharedTable>,
    root: SharedTable,
    incremental: bool,
    params: String,
}

impl SharedTree {
    /// A tree for vectors of length `k ≥ 1` within `budget`.
    pub fn new(k: usize, config: &TreeConfig, budget: Budget) -> Result<Self, TableFull> {
        assert!(k >= 1, "tree: vectors of length 0");
        let mut nodes = Vec::with_capacity(k.saturating_sub(1));
        if k >= 2 {
            build(0, k, &mut nodes);
        }
        let inner = k.saturating_sub(2);
        let initial = config
            .initial_buckets
            .clamp(16, 1 << 40)
            .next_power_of_two();
        let tables = (0..inner)
            .map(|j| {
                SharedTable::new(
                    format!("tree node table {j}"),
                    2,
                    initial / 64,
                    0.5,
                    1u64 << config.w,
                    budget.clone(),
                )
            })
            .collect::<Result<Vec<_>, _>>()?;
        let root = SharedTable::new("tree root table", 2, initial, 0.75, u64::MAX, budget)?;
        Ok(SharedTree {
            k,
            nodes,
            tables,
            root,
            incremental: config.incremental,
            params: format!(
                "w={};incremental={};initial_buckets={initial}",
                config.w, config.incremental
            ),
        })
    }
}

impl ConcurrentVisitedSet for SharedTree {
    fn side_words(&self) -> usize {
        if self.incremental {
            self.tables.len()
        } else {
            0
        }
    }

    fn find_or_insert_from(
        &self,
        state: &[Value],
        pred: Option<(&[Value], &[u32])>,
        side: &mut [u32],
        scratch: &mut Vec<u32>,
    ) -> Result<Inserted, InsertError> {
        debug_assert_eq!(state.len(), self.k);
        let (l, r) = if self.k == 1 {
            (state[0], 0)
        } else {
            let inner = self.tables.len();
            let pred = if self.incremental { pred } else { None };
            // scratch = node indices, then one changed-flag per node.
            scratch.clear();
            scratch.resize(2 * inner, 0);
            let (idx, changed) = scratch.split_at_mut(inner);
            let value = |c: Child, idx: &[u32]| match c {
                Child::Slot(s) => state[s],
                Child::Node(n) => idx[n],
            };
            for j in 0..inner {
                let node = self.nodes[j];
                if let Some((pvec, pside)) = pred {
                    let differs = |c: Child, changed: &[u32]| match c {
                        Child::Slot(s) => state[s] != pvec[s],
                        Child::Node(n) => changed[n] != 0,
                    };
                    let ch = differs(node.left, changed) || differs(node.right, changed);
                    changed[j] = ch as u32;
                    if !ch {
                        idx[j] = pside[j];
                        continue;
                    }
                }
                let tuple = [value(node.left, idx), value(node.right, idx)];
                idx[j] = self.tables[j].find_or_insert(&tuple)?.0;
            }
            if side.len() == inner {
                side.copy_from_slice(idx);
            }
            let root = self.nodes[inner];
            (value(root.left, idx), value(root.right, idx))
        };
        let (index, new) = self.root.find_or_insert(&[l, r])?;
        Ok(if new {
            Inserted::New(index as u64)
        } else {
            Inserted::Found(index as u64)
        })
    }

    fn grow(&mut self) -> Result<(), TableFull> {
        for t in &mut self.tables {
            t.grow()?;
        }
        self.root.grow()
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
        vec![
            (
                "node_entries".into(),
                self.tables.iter().map(|t| t.len()).sum(),
            ),
            ("root_buckets".into(), self.root.buckets()),
        ]
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::explore::ExploreConfig;
    use crate::parallel::explore_parallel;
    use crate::report::RunStatus;
    use crate::test_models::Counters;

    fn tree(k: usize, incremental: bool) -> Box<dyn ConcurrentVisitedSet> {
        let config = TreeConfig {
            incremental,
            initial_buckets: 16,
            ..TreeConfig::default()
        };
        Box::new(SharedTree::new(k, &config, Budget::unlimited()).unwrap())
    }

    #[test]
    fn parallel_search_counts_are_exact_for_every_shape() {
        for (n, m) in [(1, 50), (2, 30), (3, 12), (5, 6), (9, 3)] {
            let states = (m as u64).pow(n as u32);
            for incremental in [true, false] {
                for threads in [1, 2, 8] {
                    let model = Counters::new(n, m);
                    let r = explore_parallel(
                        &model,
                        tree(n, incremental),
                        threads,
                        ExploreConfig::default(),
                    );
                    assert_eq!(r.status, RunStatus::Ok, "{}", r.message);
                    assert_eq!(
                        (r.states, r.transitions),
                        (states, n as u64 * states),
                        "k={n} incremental={incremental} threads={threads}"
                    );
                }
            }
        }
    }

    #[test]
    fn stress_many_threads_small_tree() {
        let model = Counters::new(6, 4);
        for rep in 0..50 {
            let r = explore_parallel(&model, tree(6, true), 8, ExploreConfig::default());
            assert_eq!(
                (r.states, r.transitions),
                (4096, 6 * 4096),
                "repetition {rep}"
            );
        }
    }

    #[test]
    fn node_index_width_limit_is_table_full() {
        let config = TreeConfig {
            w: 3,
            initial_buckets: 16,
            ..TreeConfig::default()
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
