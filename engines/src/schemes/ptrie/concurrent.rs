//! The concurrent `trie` engine: the PTrie of [`crate::schemes::ptrie`] split into
//! independently locked sub-tries (lock striping), one chosen per vector
//! by a hash of its first slots.
//!
//! Design. A PTrie insertion rewrites a bucket array in place, splits
//! buckets into forwarding nodes and grows a node arena: making that
//! lock-free would mean a new trie, so the concurrent form keeps the
//! sequential one unchanged and shares it out instead. The set is `S`
//! sub-tries, each a complete [`PTrie`] (same `bucket_size`, same
//! encoding, same keys) behind its own mutex; vector `v` lives in sub-trie
//! `hash(v[0..p]) mod S`, `p = min(k, SHARD_SLOTS)` = 3. `S` grows with
//! the workers ([`shards_for`]: 8 per thread, a power of two in 16..=1024;
//! 16 for 2 threads), and the `engine_params` column records it. An
//! insertion hashes `p` slots, locks that one sub-trie, encodes and
//! inserts as the sequential trie does, and unlocks: no global lock, and
//! two workers contend only when they touch the same sub-trie at the same
//! moment (about one insertion in `S` when the first slots are spread,
//! more when they take few values: the `largest_shard_states` and
//! `shards_used` counters show the balance). A vector's sub-trie depends
//! on the vector alone, so two insertions of the same vector meet under
//! the same lock and exactly one answers `New`. The sub-tries never ask to
//! grow (they grow under their lock); [`grow`](ConcurrentVisitedSet::grow)
//! does nothing. No atomic protocol of its own (std mutexes only), hence
//! no loom model; the tests insert overlapping sets from 4 to 8 threads.
//!
//! Why the first slots. Vectors that share a key prefix are stored once up
//! to that prefix; routing by the first slots keeps every vector with the
//! same first `p` slots in one sub-trie, so below those slots each sub-trie
//! is exactly the sequential trie's subtree and prefix sharing is kept
//! there. What is lost is the top: every sub-trie has its own root and its
//! own forwarding nodes (1 KiB each) for the key bytes above and within
//! the routing prefix (the 2-byte length header, the packed width byte,
//! the first slots), which the sequential trie stores once. Routing by a
//! hash of the whole vector would spread the load best but lose sharing at
//! every depth. `p` trades balance for sharing (BEEM, 2 threads, 16
//! sub-tries): with `p` = 1 or 2 one sub-trie held 89% or 79% of
//! anderson.1's states; with 4, its largest held 8% but the set cost 20
//! bits/state more than the sequential trie; with 3 the largest sub-trie
//! held 6–24% of the states of the four models below.
//!
//! Memory cost, measured (bits/state from `used`, then from `alloc`;
//! 1 thread = the sequential PTrie, 2 threads = this set with 16
//! sub-tries; default parameters; BEEM, campaign of the issue-7b report):
//!
//! | model (states)      | used 1 → 2 threads | alloc 1 → 2 threads |
//! |---------------------|--------------------|---------------------|
//! | lamport.2 (110,920) | 78.1 → 84.6        | 80.1 → 101.2        |
//! | peterson.2 (124,704)| 62.7 → 68.3        | 64.7 → 78.8         |
//! | anderson.1 (347,039)| 90.2 → 98.5        | 91.5 → 104.4        |
//! | adding.2 (836,838)  | 52.5 → 64.4        | 53.6 → 67.8         |
//!
//! and on the built-in nets (used only): token-ring-12-10 (352,716)
//! 35.8 → 38.6, kanban-3 (633,325) 53.4 → 54.1, philosophers-15 (551,614)
//! 68.2 → 68.5, cycles-10-4 (1,048,576) 53.2 → 53.4. So sharding costs
//! 6–12 bits/state (8–23%) on these BEEM models, under 3 on the nets:
//! duplicated top nodes, and for adding.2, whose first slots are wide
//! counters, sub-tries that each see many routing prefixes. The per-sub-trie node chunk (16 KiB)
//! and key buffer make `alloc` of an empty set `S` times the sequential
//! one's (about 260 KiB for 16).
//!
//! Accounting: `used` and `alloc` are the sums over the sub-tries of the
//! PTrie's exact figures (see [`crate::schemes::ptrie`]), all reserved in one
//! [`Budget`] (exact once no insertion runs). `New` carries
//! `rank × S + shard` (the sub-trie's insertion rank), unique but not
//! dense; `Found` carries [`crate::schemes::ptrie::NO_REFERENCE`] as in the
//! sequential trie.
//!
//! It owns only the sharding; the trie is `ptrie`'s. It must not know
//! models nor the search order.

use crate::blocks::budget::Budget;
use crate::concurrent::{ConcurrentVisitedSet, InsertError, WorkerLocal};
use crate::schemes::ptrie::{PTrie, PTrieConfig};
use crate::visited::{Inserted, MemoryUsage, TableFull, VisitedSet};
use pins::Value;
use std::sync::{Mutex, MutexGuard};
use xxhash_rust::xxh3::xxh3_64;

/// Sub-tries per worker thread (rounded up to a power of two).
pub const SHARDS_PER_THREAD: usize = 8;
/// Fewest and most sub-tries.
pub const MIN_SHARDS: usize = 16;
pub const MAX_SHARDS: usize = 1024;
/// Leading slots whose hash chooses the sub-trie.
pub const SHARD_SLOTS: usize = 3;

/// Sub-tries for a search with `threads` workers: [`SHARDS_PER_THREAD`]
/// per worker, a power of two in [`MIN_SHARDS`]`..=`[`MAX_SHARDS`] (16 up
/// to 2 threads, 32 for 4, 512 for 48).
pub fn shards_for(threads: usize) -> usize {
    (threads.max(1) * SHARDS_PER_THREAD)
        .next_power_of_two()
        .clamp(MIN_SHARDS, MAX_SHARDS)
}

/// The sharded PTrie; see the module documentation.
pub struct ShardedPTrie {
    k: usize,
    bits: u32,
    prefix: usize,
    shards: Box<[Mutex<PTrie>]>,
    params: String,
}

impl ShardedPTrie {
    /// A set of `k`-slot vectors: `shards` sub-tries (a power of two, at
    /// least 2; see [`shards_for`]) allocating from one `budget`.
    pub fn new(
        k: usize,
        config: PTrieConfig,
        shards: usize,
        budget: Budget,
    ) -> Result<Self, TableFull> {
        assert!(
            shards.is_power_of_two() && shards >= 2,
            "trie: {shards} sub-tries, not a power of two"
        );
        let nshards = shards;
        let shards = (0..nshards)
            .map(|_| PTrie::with_budget(k, config.clone(), budget.clone()).map(Mutex::new))
            .collect::<Result<Vec<_>, _>>()?
            .into_boxed_slice();
        let prefix = k.min(SHARD_SLOTS);
        let params = format!(
            "bucket_size={};encoding={};shards={nshards};shard_slots={prefix}",
            config.bucket_size,
            config.encoding.name()
        );
        Ok(ShardedPTrie {
            k,
            bits: nshards.trailing_zeros(),
            prefix,
            shards,
            params,
        })
    }

    /// The sub-trie of `state`.
    #[inline]
    fn shard_of(&self, state: &[Value]) -> usize {
        let h = xxh3_64(bytemuck::cast_slice(&state[..self.prefix]));
        (h >> (64 - self.bits)) as usize
    }

    fn lock(&self, shard: usize) -> MutexGuard<'_, PTrie> {
        // A worker that panicked holding the lock left the trie consistent
        // or the search is failing anyway.
        self.shards[shard].lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Every shard's figures, one lock at a time.
    fn each<T>(&self, f: impl Fn(&PTrie) -> T) -> Vec<T> {
        (0..self.shards.len()).map(|s| f(&self.lock(s))).collect()
    }
}

impl ConcurrentVisitedSet for ShardedPTrie {
    #[inline]
    fn find_or_insert(
        &self,
        state: &[Value],
        _local: &mut WorkerLocal,
    ) -> Result<Inserted, InsertError> {
        debug_assert_eq!(state.len(), self.k);
        let shard = self.shard_of(state);
        match self.lock(shard).find_or_insert(state)? {
            Inserted::New(rank) => Ok(Inserted::New(
                rank * self.shards.len() as u64 + shard as u64,
            )),
            found => Ok(found),
        }
    }

    fn grow(&mut self) -> Result<(), TableFull> {
        Ok(())
    }

    fn len(&self) -> u64 {
        self.each(|t| t.len()).into_iter().sum()
    }

    fn memory(&self) -> MemoryUsage {
        self.each(|t| t.memory())
            .into_iter()
            .fold(MemoryUsage::default(), |m, t| MemoryUsage {
                used: m.used + t.used,
                alloc: m.alloc + t.alloc,
            })
    }

    fn params(&self) -> String {
        self.params.clone()
    }

    fn counters(&self) -> Vec<(String, u64)> {
        let per_shard = self.each(|t| (t.len(), t.counters()));
        let mut out: Vec<(String, u64)> = Vec::new();
        for (_, counters) in &per_shard {
            for (name, v) in counters {
                match out.iter_mut().find(|(n, _)| n == name) {
                    Some((_, total)) if name == "max_depth" => *total = (*total).max(*v),
                    Some((_, total)) => *total += v,
                    None => out.push((name.clone(), *v)),
                }
            }
        }
        let lens = per_shard.iter().map(|(len, _)| *len);
        out.push(("shards".into(), self.shards.len() as u64));
        out.push((
            "shards_used".into(),
            lens.clone().filter(|&n| n > 0).count() as u64,
        ));
        out.push(("largest_shard_states".into(), lens.max().unwrap_or(0)));
        out
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::conformance::{
        concurrent_overlapping_inserts, explore_counters, stress_small_model,
    };
    use crate::explore::parallel::explore_parallel;
    use crate::explore::ExploreConfig;
    use crate::report::RunStatus;
    use crate::schemes::ptrie::{Encoding, NO_REFERENCE};
    use crate::test_models::Counters;
    use std::collections::HashSet;

    fn trie(k: usize, bucket_size: usize, encoding: Encoding, threads: usize) -> ShardedPTrie {
        let config = PTrieConfig {
            bucket_size,
            encoding,
        };
        ShardedPTrie::new(k, config, shards_for(threads), Budget::unlimited()).unwrap()
    }

    #[test]
    fn sub_tries_scale_with_the_workers() {
        let shards: Vec<usize> = [0, 1, 2, 3, 4, 48, 1000].map(shards_for).to_vec();
        assert_eq!(shards, [16, 16, 16, 32, 32, 512, 1024]);
    }

    fn vector(i: u32) -> Vec<u32> {
        vec![
            i % 5,
            i % 3,
            i / 15 % 100,
            i.wrapping_mul(2_654_435_761) >> 22,
            7,
        ]
    }

    /// The stored vectors, every sub-trie checked structurally and holding
    /// only vectors routed to it.
    fn contents(t: &ShardedPTrie) -> HashSet<Vec<u32>> {
        let mut all = HashSet::new();
        for s in 0..t.shards.len() {
            for v in t.lock(s).check_and_enumerate() {
                assert_eq!(t.shard_of(&v), s, "{v:?} in the wrong sub-trie");
                assert!(all.insert(v), "a vector stored twice");
            }
        }
        all
    }

    #[test]
    fn many_threads_overlapping_inserts_with_splits() {
        for (threads, bucket_size, enc) in [
            (4, 128, Encoding::Packed),
            (8, 4, Encoding::Varint),
            (8, 16, Encoding::Fixed4),
        ] {
            let (set, news) = concurrent_overlapping_inserts(
                trie(5, bucket_size, enc, threads),
                threads,
                30_000,
                &vector,
            );
            let want: HashSet<Vec<u32>> = news.keys().cloned().collect();
            assert_eq!(contents(&set), want);
            let refs: HashSet<u64> = news.values().copied().collect();
            assert_eq!(refs.len(), news.len(), "references unique");
            assert!(!refs.contains(&NO_REFERENCE));
            let c: std::collections::HashMap<_, _> = set.counters().into_iter().collect();
            assert!(c["bucket_splits"] > 0 && c["shards_used"] > 8, "{c:?}");
            assert!(c["largest_shard_states"] * set.shards.len() as u64 >= set.len());
        }
    }

    #[test]
    fn accounting_is_the_sum_of_the_sub_tries_and_the_budget() {
        let config = PTrieConfig {
            bucket_size: 8,
            encoding: Encoding::Packed,
        };
        let set = ShardedPTrie::new(5, config.clone(), 16, Budget::unlimited()).unwrap();
        let mut seq = PTrie::new(5, config).unwrap();
        let empty = set.memory();
        assert_eq!(empty.used, 16 * seq.memory().used);
        assert_eq!(empty.alloc, 16 * seq.memory().alloc);
        let mut local = WorkerLocal::new();
        for i in 0..20_000 {
            set.find_or_insert_from(&vector(i), None, &mut [], &mut local)
                .unwrap();
            seq.find_or_insert(&vector(i)).unwrap();
        }
        let m = set.memory();
        assert!(m.used <= m.alloc);
        assert_eq!(set.len(), seq.len());
        // The sharing lost is bounded: the sequential trie plus at most
        // every sub-trie's own top.
        assert!(m.used > seq.memory().used);
    }

    #[test]
    fn parallel_search_counts_are_exact() {
        for (n, m) in [(1, 50), (2, 30), (5, 7), (9, 3)] {
            for threads in [1, 2, 4, 8] {
                let set = Box::new(trie(n, 16, Encoding::Packed, threads));
                explore_counters(set, (n, m), threads, "");
            }
        }
    }

    #[test]
    fn stress_many_threads_small_model() {
        stress_small_model(&|| Box::new(trie(6, 4, Encoding::Packed, 8)));
    }

    #[test]
    fn budget_exhaustion_is_table_full() {
        let config = PTrieConfig {
            bucket_size: 16,
            encoding: Encoding::Packed,
        };
        let set = Box::new(ShardedPTrie::new(5, config.clone(), 16, Budget::new(2 << 20)).unwrap());
        let r = explore_parallel(&Counters::new(5, 40), set, 2, ExploreConfig::default());
        assert_eq!(r.status, RunStatus::TableFull, "{}", r.message);
        assert!(r.message.contains("memory budget"), "{}", r.message);
        assert!(r.engine_bytes_alloc <= 2 << 20);
        assert!(ShardedPTrie::new(5, config, 16, Budget::new(100)).is_err());
    }
}
