//! The concurrent `compact-tree` engine: the concurrent tree of
//! `shared_tree` (node tables are lock-free [`crate::schemes::hash_table::concurrent`]
//! tables) whose root table is the shared Cleary table of
//! `shared_cleary` ([`SharedClearyRoot`]), with the parameters and the
//! root key of the sequential `compact-tree` ([`CompactTreeConfig`]: w, o,
//! u, m = auto | budget | N, root_key = adaptive | fixed, max_load,
//! grow_load, incremental).
//!
//! Root key, quotient and remainder are the sequential ones: the root
//! tuple `(left, right)` is the key `left << bits(right) | right`, hashed
//! by the bijection of `cleary`; with `m=auto` the root doubles at
//! `grow_load`, with an adaptive key it is re-keyed when a child needs
//! more bits or when 2^K buckets are too few. Both happen with exclusive
//! access (the stop-the-world protocol of [`crate::concurrent`]): an
//! insertion whose child is too wide for the current key records the width
//! it needs and answers [`InsertError::Grow`]; so does an insertion that
//! would pass the growth threshold; [`SharedRoot::grow`] then re-keys
//! and/or doubles the table. With `m = K` and an adaptive key, the table
//! re-keys at the growth load where the sequential root checks
//! [`crate::schemes::compact_tree::cleary::ClearyTable::wants_wider_keys`] before each insertion
//! (the same rule, applied when a new key arrives).
//!
//! Accounting, where it differs from the sequential `compact-tree`
//! (`used` = node tuples × 12 bytes + ⌈states × (K − m + 3) / 8⌉): node
//! tables are shared tables, 16 bytes per tuple (8-byte CAS bucket + the
//! tuple; 12 sequentially); the root entries are the same `K − m + 3` bits,
//! so `used` = node tuples × 16 + ⌈states × (K − m + 3) / 8⌉ bytes;
//! `alloc` adds to the sequential packed root array one 8-byte lock word
//! per 64 root buckets, and the node tables' allocation is that of shared
//! tables (bucket array of at least 2048 buckets + data chunks). Shared
//! tables double: the form reports and runs `node_growth=double`
//! whatever the configuration asks ([`CompactTreeConfig::shared`]).
//!
//! It owns only the root adapter and the engine's constructor; it must not
//! know models or the search order.

use crate::blocks::budget::Budget;
use crate::blocks::lease::Lease;
use crate::blocks::sync::{AtomicU32, Ordering};
use crate::concurrent::InsertError;
use crate::registry::{Build, Setup};
use crate::schemes::compact_tree::cleary_concurrent::SharedClearyTable;
use crate::schemes::compact_tree::root_key::RootKey;
use crate::schemes::compact_tree::{bits_of, reference, tree_spec, CompactTreeConfig};
use crate::schemes::tree::concurrent::{RootInsert, SharedRoot, SharedTreeDb};
use crate::visited::{MemoryUsage, TableFull};

/// The root table of the concurrent `compact-tree`; see the module
/// documentation.
pub struct SharedClearyRoot {
    table: SharedClearyTable,
    key: RootKey,
    /// Widest children asked for by insertions since the last re-keying.
    want_left: AtomicU32,
    want_right: AtomicU32,
}

impl SharedClearyRoot {
    /// The root for vectors of length `k` within `budget`.
    pub fn new(k: usize, config: &CompactTreeConfig, budget: Budget) -> Result<Self, TableFull> {
        let init = config.initial_root(k, budget.limit());
        let key = RootKey::new(&init, config, budget.limit());
        let rekeyable = config.adaptive_key && key.may_widen(init.left_bits, init.right_bits);
        let table =
            SharedClearyTable::new("compact-tree root table", init.table, rekeyable, budget)?;
        Ok(SharedClearyRoot {
            table,
            key,
            want_left: AtomicU32::new(0),
            want_right: AtomicU32::new(0),
        })
    }

    /// The shared Cleary table itself.
    pub fn table(&self) -> &SharedClearyTable {
        &self.table
    }

    /// Times the root was re-keyed.
    pub fn rekeys(&self) -> u64 {
        self.key.rekeys
    }

    /// Re-stores every key with children of `left` and `right` bits (as
    /// the sequential root); exclusive access.
    fn widen(&mut self, left: u32, right: u32) -> Result<(), TableFull> {
        let shape = self.key.widening(left, right, self.table.log2_buckets());
        let rekeyable = self.key.may_widen(left, right);
        // Keys keep their values (`root_key`); the shared table re-hashes.
        self.table = self.table.rekeyed(shape, rekeyable, |key| key)?;
        self.key.widened(left, right, &shape);
        Ok(())
    }
}

impl SharedRoot for SharedClearyRoot {
    #[inline]
    fn find_or_insert(&self, tuple: [u32; 2], lease: &mut Lease) -> RootInsert {
        let [left, right] = tuple;
        if !self.key.fits(left, right) {
            // Only with an adaptive key: a fixed key has the children's
            // full widths (node indices below 2^w, values below 2^u).
            debug_assert!(self.key.adaptive());
            self.want_left.fetch_max(bits_of(left), Ordering::Relaxed);
            self.want_right.fetch_max(bits_of(right), Ordering::Relaxed);
            return Err(InsertError::Grow);
        }
        let key = self.key.key(left, right);
        Ok((
            reference(left, right),
            self.table.find_or_insert(key, lease)?,
        ))
    }

    fn retire(&self, lease: &mut Lease) {
        self.table.retire(lease);
    }

    fn grow(&mut self) -> Result<(), TableFull> {
        if self.key.adaptive() {
            let (l, r) = self.key.bits();
            let want_l = l.max(self.want_left.load(Ordering::Relaxed));
            let want_r = r.max(self.want_right.load(Ordering::Relaxed));
            if (want_l, want_r) != (l, r) {
                self.widen(want_l, want_r)?;
            }
            if self.table.wants_wider_keys() {
                // As the sequential root: 2^K buckets are too few.
                if let Some((l, r)) = self.key.one_more_bit() {
                    self.widen(l, r)?;
                }
            }
        }
        self.table.grow()
    }

    fn len(&self) -> u64 {
        self.table.len()
    }

    fn memory(&self) -> MemoryUsage {
        MemoryUsage {
            used: self.table.used_bits().div_ceil(8),
            alloc: self.table.alloc_bytes(),
        }
    }

    fn counters(&self, out: &mut Vec<(String, u64)>) {
        let t = &self.table;
        let activity = [("root_shifted", t.shifted()), ("root_growths", t.growths())];
        let shape = [t.log2_buckets(), t.key_bits(), t.entry_bits()];
        self.key.counters(out, shape, &activity);
        out.push(("root_regions".into(), t.regions()));
    }

    fn set_rebuild_threads(&mut self, threads: usize) {
        // Growth and re-keying alike (`rekeyed` passes it on).
        self.table.set_rebuild_threads(threads);
    }
}

/// The concurrent `compact-tree` engine.
pub type SharedCompactTree = SharedTreeDb<SharedClearyRoot>;

impl SharedTreeDb<SharedClearyRoot> {
    /// A concurrent compact tree for vectors of length `k` (0 included: the one empty vector). Panics on
    /// parameters [`CompactTreeConfig::check`] rejects; [`TableFull`] if
    /// even the smallest tables do not fit the budget.
    pub fn new(k: usize, config: &CompactTreeConfig, budget: Budget) -> Result<Self, TableFull> {
        let spec = tree_spec(k, &config.shared());
        let root = SharedClearyRoot::new(k, config, budget.clone())?;
        Self::build(spec, root, budget)
    }
}

impl Build<CompactTreeConfig> for SharedCompactTree {
    fn build(s: Setup<CompactTreeConfig>) -> Result<Self, TableFull> {
        Self::new(s.slots, &s.config, s.budget)
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::concurrent::{ConcurrentVisitedSet, WorkerLocal};
    use crate::conformance::{explore_counters, insert_growing, on_threads};
    use crate::explore::parallel::explore_parallel;
    use crate::explore::ExploreConfig;
    use crate::report::RunStatus;
    use crate::test_models::Counters;
    use std::collections::HashSet;
    use std::sync::RwLock;

    fn config(
        m: Option<u32>,
        grow: bool,
        adaptive_key: bool,
        incremental: bool,
    ) -> CompactTreeConfig {
        CompactTreeConfig {
            m,
            grow,
            adaptive_key,
            incremental,
            initial_m: 4,
            node_buckets: 16,
            ..Default::default()
        }
    }

    fn tree(k: usize, c: &CompactTreeConfig) -> Box<dyn ConcurrentVisitedSet> {
        Box::new(SharedCompactTree::new(k, c, Budget::new(1 << 30)).unwrap())
    }

    #[test]
    fn parallel_search_counts_are_exact_for_every_shape_and_mode() {
        let modes = [
            config(None, true, true, true),
            config(None, true, false, false),
            config(None, false, false, true),
            config(Some(16), false, true, true),
        ];
        for (n, m) in [(1, 50), (2, 40), (3, 12), (5, 6), (9, 3)] {
            for c in &modes {
                for threads in [1, 2, 4] {
                    let case = format!("k={n} {} threads={threads}", c.params());
                    explore_counters(tree(n, c), (n, m), threads, &case);
                }
            }
        }
    }

    #[test]
    fn stress_many_threads_growing_and_rekeyed_root() {
        // 4^6 states from a 16-bucket root with 8-bit children: the root
        // doubles and is re-keyed while 8 workers insert.
        let c = config(None, true, true, true);
        for rep in 0..30 {
            let r = explore_counters(tree(6, &c), (6, 4), 8, &format!("repetition {rep}"));
            let count = |name: &str| r.counters.iter().find(|c| c.0 == name).unwrap().1;
            assert!(count("root_growths") > 0);
        }
    }

    #[test]
    fn accounting_and_params_match_the_documentation() {
        let c = config(Some(14), false, false, true);
        let mut set = SharedCompactTree::new(5, &c, Budget::unlimited()).unwrap();
        let mut local = WorkerLocal::new();
        for i in 0..4000u32 {
            let s = [i % 64, i / 64, 1, i % 7, 2];
            let r = loop {
                match set.find_or_insert_from(&s, None, &mut [0; 3], &mut local) {
                    Err(InsertError::Grow) => set.grow().unwrap(),
                    r => break r.unwrap(),
                }
            };
            assert!(r.is_new());
        }
        set.retire(&mut local);
        let root = set.root().table();
        // K = 2w = 60, m = 14: 49-bit entries; node tuples 16 bytes each.
        assert_eq!(root.entry_bits(), 60 - 14 + 3);
        let node_used: u64 = 16 * (4000 + 4000 + 7);
        assert_eq!(set.memory().used, node_used + (4000u64 * 49).div_ceil(8));
        assert_eq!(
            root.alloc_bytes(),
            crate::schemes::compact_tree::cleary::table_bytes(60, 14)
                + (1 << (14 - crate::schemes::compact_tree::cleary_concurrent::REGION_BITS)) * 8
        );
        assert_eq!(set.params(), c.shared().params());
        assert!(set.params().contains("node_growth=double"));
    }

    #[test]
    fn concurrent_rekeying_root_is_a_set() {
        // 8 threads insert root tuples whose children widen from 1 to 20
        // bits: the adaptive root is re-keyed and grown by the
        // stop-the-world protocol while the others insert.
        let c = config(None, true, true, true);
        let root = RwLock::new(SharedClearyRoot::new(2, &c, Budget::unlimited()).unwrap());
        let threads = 8;
        let pair = |i: u32| (i % 300 * (1 + i / 7000 * 997), (i * 31) % 4000);
        let news: Vec<Vec<(u32, u32)>> = on_threads(threads, |t| {
            let mut news = Vec::new();
            let mut lease = Lease::new();
            for n in 0..6000u32 {
                let (l, r) = pair(n + t as u32 * 500);
                let insert = |root: &SharedClearyRoot| root.find_or_insert([l, r], &mut lease);
                let (reference, new) = insert_growing(&root, insert, SharedClearyRoot::grow);
                assert_eq!(reference, (l as u64) << 32 | r as u64);
                if new {
                    news.push((l, r));
                }
            }
            root.read().unwrap().retire(&mut lease);
            news
        });
        let root = root.into_inner().unwrap();
        let reference: HashSet<(u32, u32)> = (0..threads as u32)
            .flat_map(|t| (0..6000).map(move |n| pair(n + t * 500)))
            .collect();
        let mut once = HashSet::new();
        for &p in news.iter().flatten() {
            assert!(once.insert(p), "{p:?} answered new twice");
        }
        assert_eq!(once, reference);
        assert_eq!(root.len(), reference.len() as u64);
        assert!(root.rekeys() >= 2, "{} re-keyings", root.rekeys());
        root.table().check_invariants();
        let mut lease = Lease::new();
        for &(l, r) in &reference {
            assert!(!root.find_or_insert([l, r], &mut lease).unwrap().1);
        }
    }

    #[test]
    fn wide_values_and_full_root_are_table_full() {
        let c = CompactTreeConfig {
            w: 8,
            o: 2,
            u: 6,
            m: Some(10),
            grow: false,
            initial_m: 4,
            node_buckets: 16,
            ..Default::default()
        };
        // k = 3: a root child is a slot, so values must fit u bits.
        let set = SharedCompactTree::new(3, &c, Budget::unlimited()).unwrap();
        let e = set
            .find_or_insert_from(&[1, 64, 1], None, &mut [], &mut WorkerLocal::new())
            .unwrap_err();
        assert_eq!(
            e,
            InsertError::Full(TableFull {
                message: "compact-tree: slot 1 value 64 needs more than u=6 bits".into()
            })
        );
        // k = 4: the values are in the leaves; any u32 is stored exactly.
        let set = SharedCompactTree::new(4, &c, Budget::unlimited()).unwrap();
        let mut side = vec![0u32; set.side_words()];
        let mut local = WorkerLocal::new();
        for v in [[1, 64, 1, 2], [1, 2, u32::MAX, 2]] {
            let first = set.find_or_insert_from(&v, None, &mut side, &mut local);
            assert!(first.unwrap().is_new(), "{v:?}");
            let again = set.find_or_insert_from(&v, None, &mut side, &mut local);
            assert!(!again.unwrap().is_new(), "{v:?}");
        }
        // 2^10 buckets at load 0.9 hold 921 states, then table_full.
        let r = explore_parallel(
            &Counters::new(4, 6),
            tree(4, &c),
            2,
            ExploreConfig::default(),
        );
        assert_eq!(r.status, RunStatus::TableFull);
        assert!(r.message.contains("maximal load"), "{}", r.message);
    }
}
