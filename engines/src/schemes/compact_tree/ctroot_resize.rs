//! How the sequential Cleary table ([`ClearyTable`]) changes shape without
//! holding two full bucket arrays at once (peak RSS is what the root table
//! is measured by):
//!
//! - **Growth** ([`ClearyTable::grow`], doubling or a fine step of a
//!   quarter to a seventh): the hashes do not change and a hash's new
//!   bucket is about (new n / old n) times its old one (homes are monotone
//!   in the hash, `ctroot_split`), so the entries move
//!   into the new array a run of clusters at a time from the top of the
//!   old one down, and the old array shrinks behind them (its tail is
//!   given back to the allocator, which unmaps it). The new array's pages
//!   are touched in the same order, so the two together stay about the
//!   size of the new one.
//! - **Widening the keys in place** ([`ClearyTable::widen_keys`]): with the
//!   layered hash (`ctroot_hash`) a key `K + d` bits wide hashes to the old
//!   hash shifted by `d`, so every entry keeps its bucket and its
//!   remainder gains `d` low zero bits, at any bucket count (the split of
//!   `ctroot_split` keeps its sub-bucket boundaries): the array is enlarged (a
//!   reallocation, which moves mapped pages without copying them) and
//!   re-packed from the top down.
//!
//! The budget holds the bytes each array holds, released as the old one
//! shrinks. It owns only these two changes of shape; the table, its
//! look-up and insertion are `cleary`'s and `cleary_core`'s. It must not
//! know root keys, trees or models.

use crate::schemes::compact_tree::cleary::{
    array_bytes, check_fits, checked, limits, next_size, ClearyConfig, ClearyTable, OCCUPIED,
};
use crate::schemes::compact_tree::cleary_core::{self, Stream};
use crate::visited::TableFull;

/// Buckets moved between two shrinks of the old array when growing.
const CHUNK_BUCKETS: usize = 1 << 14;

impl ClearyTable {
    /// Grows the bucket array to its next size (doubled, or a fine step),
    /// moving every entry (see the module documentation); the caller
    /// checked that it may grow.
    pub(super) fn grow(&mut self) -> Result<(), TableFull> {
        let buckets = next_size(&self.config, self.packed.split.buckets).expect("may grow");
        let mut bigger =
            Self::with_buckets(self.name.clone(), self.config, buckets, self.budget.clone())?;
        bigger.hash_base = self.hash_base;
        if self.len > 0 {
            self.move_down_into(&mut bigger);
        }
        debug_assert_eq!(bigger.len, self.len);
        bigger.probes = self.probes;
        bigger.shifted = self.shifted;
        bigger.growths = self.growths + 1;
        *self = bigger; // drops (and releases) what is left of the old array
        Ok(())
    }

    /// Inserts every entry into `bigger`, runs of whole clusters from the
    /// top down, shrinking this array below each run once it is moved.
    /// A run's hashes ascend, so most entries are appended where the last
    /// one went (`cleary_core::append`), without a look-up.
    fn move_down_into(&mut self, bigger: &mut ClearyTable) {
        let n = self.packed.count();
        // Positions past n wrap: the first run also takes the cluster that
        // wraps around the end, whose low part is then never read again.
        let start = self.packed.empty_from(0);
        let mut hi = start + n;
        while hi > start {
            let mut lo = hi.saturating_sub(CHUNK_BUCKETS).max(start);
            while self.packed.get(lo % n) & OCCUPIED != 0 {
                lo -= 1; // stops at `start`, an empty bucket
            }
            let mut stream = Stream::default();
            self.packed.for_each_hash_between(lo, hi, |h| {
                if cleary_core::append(&mut bigger.packed, &mut stream, h) {
                    bigger.len += 1;
                } else {
                    let v = bigger.locate(h).expect_err("keys are distinct");
                    bigger.insert_at(v);
                    stream.break_off();
                }
            });
            if lo < n {
                // Buckets above `lo` are moved; no later run reads them.
                self.shrink_to_buckets(lo + 1);
            }
            hi = lo;
        }
    }

    /// Gives back the words beyond those of the first `buckets` buckets.
    fn shrink_to_buckets(&mut self, buckets: usize) {
        let words = (buckets * self.packed.entry_bits as usize).div_ceil(64) + 1;
        let p = &mut self.packed.words;
        if words + (CHUNK_BUCKETS / 8) > p.len() {
            return; // too little to give back
        }
        p.truncate(words);
        p.shrink_to_fit();
        let bytes = 8 * p.len() as u64;
        self.budget.release(self.reserved - bytes);
        self.reserved = bytes;
    }

    /// Widens the keys to `config.key_bits` bits in place, for keys whose
    /// values do not change (the new bits are high zero bits); `config`
    /// must keep ⌊log2⌋ of the bucket count, which stays as it is.
    /// Counters carry over. [`TableFull`] if
    /// the budget cannot hold the wider array or it cannot hold the keys
    /// at its maximal load. Panics on an impossible shape.
    pub fn widen_keys(&mut self, config: ClearyConfig) -> Result<(), TableFull> {
        let config = checked(config, "ClearyTable");
        let (log2, buckets) = (self.packed.log2(), self.packed.split.buckets);
        assert!(config.log2_buckets == log2 && config.key_bits >= self.config.key_bits);
        let grows = next_size(&config, buckets).is_some();
        let (capacity, grow_at) = limits(&config, buckets, grows);
        check_fits(&self.name, self.len, capacity, log2, config.max_load)?;
        let bytes = array_bytes(config.key_bits, buckets);
        self.budget.reserve(bytes - self.reserved, &self.name)?;
        let (words, p) = ((bytes / 8) as usize, &mut self.packed.words);
        p.reserve_exact(words - p.len()); // no amortized spare capacity
        p.resize(words, 0);
        self.reserved = bytes;
        self.packed
            .widen_remainders(config.key_bits - self.config.key_bits);
        self.config = config;
        (self.capacity, self.grow_at) = (capacity, grow_at);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blocks::budget::Budget;
    use crate::schemes::compact_tree::cleary::{table_bytes, test_shape as shape};
    use crate::schemes::compact_tree::ctroot_split::Buckets;
    use std::collections::HashSet;

    fn keys_of(t: &ClearyTable) -> HashSet<u64> {
        let mut got = HashSet::new();
        t.for_each_key(|k| assert!(got.insert(k)));
        got
    }

    #[test]
    fn doubling_in_runs_keeps_every_key_and_gives_the_old_array_back() {
        // 2^16 -> 2^19 buckets: runs of CHUNK_BUCKETS, wrapping clusters.
        let budget = Budget::unlimited();
        let mut t = ClearyTable::new("g", shape(44, 16, 19), budget.clone())
            .unwrap()
            .with_hash_base(20);
        let keys: Vec<u64> = (0..350_000u64)
            .map(|i| (i * 0x9e37_79b9) % (1 << 44))
            .collect();
        let mut reference = HashSet::new();
        for (i, &k) in keys.iter().enumerate() {
            assert_eq!(t.find_or_insert(k).unwrap(), reference.insert(k), "{i}");
        }
        assert_eq!(t.growths(), 3);
        assert_eq!(t.log2_buckets(), 19);
        t.check_invariants();
        assert_eq!(keys_of(&t), reference);
        assert_eq!(budget.reserved(), table_bytes(44, 19));
        assert_eq!(t.alloc_bytes(), table_bytes(44, 19));
        for &k in &keys {
            assert!(!t.find_or_insert(k).unwrap());
        }
    }

    #[test]
    fn fine_growth_steps_by_fractions_and_keeps_every_key() {
        // 2^16 -> 7·2^16 buckets by steps of a quarter to a seventh.
        let budget = Budget::unlimited();
        let config = ClearyConfig {
            fine_growth: true,
            ..shape(44, 16, 19)
        };
        let mut t = ClearyTable::new("g", config, budget.clone())
            .unwrap()
            .with_hash_base(20);
        let mut sizes = vec![t.buckets()];
        let mut reference = HashSet::new();
        for i in 0..300_000u64 {
            let k = (i * 0x9e37_79b9) % (1 << 44);
            assert_eq!(t.find_or_insert(k).unwrap(), reference.insert(k), "{i}");
            if t.buckets() != *sizes.last().unwrap() {
                // Grown at load 0.75, to a load of at least 0.6.
                assert!(t.len() as f64 >= 0.6 * t.buckets() as f64, "{i}");
                sizes.push(t.buckets());
            }
        }
        let k = 1 << 14;
        assert_eq!(
            sizes,
            [4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 28].map(|c| c * k)
        );
        assert_eq!(t.growths(), 11);
        assert_eq!(t.log2_buckets(), 18);
        assert_eq!(t.entry_bits(), 44 - 18 + 3);
        t.check_invariants();
        assert_eq!(keys_of(&t), reference);
        let bytes = array_bytes(44, Buckets::new(7, 16));
        assert_eq!(bytes, (7 << 16) * 29 / 8);
        assert_eq!((budget.reserved(), t.alloc_bytes()), (bytes, bytes));
        assert_eq!(t.used_bits(), 300_000 * 29);
        for &k in &reference {
            assert!(!t.find_or_insert(k).unwrap());
        }
    }

    #[test]
    fn keys_widen_in_place_at_a_bucket_count_not_a_power_of_two() {
        let budget = Budget::unlimited();
        let buckets = Buckets::new(5, 8); // 1280
        let t = ClearyTable::with_buckets("w".into(), shape(12, 10, 10), buckets, budget.clone())
            .unwrap()
            .with_hash_base(12);
        let t = widen_in_steps(t, &budget, 12, &[1, 3, 2], 300);
        assert_eq!(t.buckets(), 1280);
        assert_eq!(budget.reserved(), array_bytes(18, buckets));
    }

    /// Fills `t` (keys of `base` bits, its hash layered from that base)
    /// and widens its keys by each of `steps` in turn, `inserts` keys
    /// before each: every key stays findable, keys using the new bits go
    /// in, and the budget holds exactly the array.
    fn widen_in_steps(
        mut t: ClearyTable,
        budget: &Budget,
        base: u32,
        steps: &[u32],
        inserts: usize,
    ) -> ClearyTable {
        let (mut bits, mut reference, mut x) = (base, HashSet::new(), 7u64);
        for &step in steps {
            for _ in 0..inserts {
                x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                let k = (x >> 20) % (1 << bits);
                assert_eq!(t.find_or_insert(k).unwrap(), reference.insert(k));
            }
            let log2 = t.log2_buckets();
            t.widen_keys(shape(bits + step, log2, log2)).unwrap();
            bits += step;
            assert_eq!(t.key_bits(), bits);
            assert_eq!(t.entry_bits(), bits - log2 + 3);
            assert_eq!(budget.reserved(), t.alloc_bytes());
            assert_eq!(8 * t.packed.words.capacity() as u64, t.alloc_bytes());
            t.check_invariants();
            assert_eq!(keys_of(&t), reference);
            for &k in &reference {
                assert!(t.contains(k));
            }
            // Keys using the new bits go in as well.
            let wide = (1 << (bits - 1)) | (x % 1000);
            assert!(t.find_or_insert(wide).unwrap());
            reference.insert(wide);
        }
        t
    }

    #[test]
    fn shrinking_during_a_doubling_releases_the_budget_in_steps() {
        let budget = Budget::unlimited();
        let mut t = ClearyTable::new("g", shape(30, 17, 17), budget.clone()).unwrap();
        for k in 0..90_000u64 {
            t.find_or_insert(k * 7).unwrap();
        }
        let before = budget.reserved();
        t.shrink_to_buckets(1 << 15);
        assert!(budget.reserved() < before / 2, "{}", budget.reserved());
        assert_eq!(budget.reserved(), t.alloc_bytes());
        assert_eq!(t.alloc_bytes(), 8 * t.packed.words.capacity() as u64);
    }

    #[test]
    fn keys_widen_in_place_and_stay_findable() {
        for (base, steps) in [(10u32, [1u32, 3, 1]), (16, [2, 1, 5])] {
            let budget = Budget::unlimited();
            let t = ClearyTable::new("w", shape(base, 10, 10), budget.clone())
                .unwrap()
                .with_hash_base(base);
            let t = widen_in_steps(t, &budget, base, &steps, 150);
            let bits = base + steps.iter().sum::<u32>();
            assert_eq!(budget.reserved(), table_bytes(bits, t.log2_buckets()));
        }
    }

    #[test]
    fn widening_refused_by_the_budget_leaves_the_table_as_it_was() {
        let budget = Budget::new(table_bytes(20, 8) + 8);
        let mut t = ClearyTable::new("w", shape(20, 8, 8), budget.clone())
            .unwrap()
            .with_hash_base(12);
        for k in 0..100u64 {
            t.find_or_insert(k * 5).unwrap();
        }
        assert!(t.widen_keys(shape(24, 8, 8)).is_err());
        assert_eq!(t.key_bits(), 20);
        assert_eq!(budget.reserved(), table_bytes(20, 8));
        assert_eq!(keys_of(&t), (0..100u64).map(|k| k * 5).collect());
    }
}
