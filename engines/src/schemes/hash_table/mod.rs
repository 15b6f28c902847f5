//! `hash-table`: open addressing over full state vectors (the baseline,
//! after LTSmin's `dbs-ll`).
//!
//! Layout: a bucket array of `u64` words, each either empty (0) or
//! `(top 32 hash bits: the memo) << 32 | (state index + 1)`; linear probing
//! from the bucket given by the top bits of a 64-bit hash
//! ([`hash_words`]). The vectors
//! live in a data area of fixed-size chunks (so growth never copies
//! vectors), indexed by insertion order. The bucket array doubles when the
//! load factor passes `max_load`. As the memo *is* the top of the hash and
//! the array has at most 2^32 buckets, growth places every entry from its
//! bucket word alone, in one streaming pass without touching a vector
//! (re-hashing the vectors was a random access per state: a quarter of the
//! run time on million-state models). The price: entries probed from one
//! home share their top `bits` hash bits, so the memo filters the other
//! 32 − `bits` (11 bits at 2^21 buckets). Every allocation is
//! first reserved in a [`Budget`] (the run's, or one
//! shared with the other tables of an engine, see
//! [`HashTable::with_budget`]): when the table cannot grow within it,
//! [`TableFull`] is returned, never an abort.
//!
//! A state's reference is its index, from which [`VisitedSet::recall`]
//! copies the stored vector: the explorer's queue holds indices (two
//! words) instead of vectors, and reads the vectors back in the order they
//! were stored (a breadth-first search expands states in insertion order:
//! a sequential read of the chunks).
//!
//! Layout (`layout`): `words` stores each slot in a `u32` (LTSmin's
//! `dbs-ll`); `bytes` packs each slot into the 1, 2 or 4 bytes its
//! declared width needs ([`Packing`], as SPIN does), padded to whole
//! words: the table then hashes, compares and copies the packed vector,
//! and [`VisitedSet::recall`] unpacks it.
//!
//! Accounting: `used` = states × (8-byte bucket + stored vector: 4k bytes,
//! or the packed words' bytes); `alloc` = bucket array + allocated chunks.
//!
//! This module owns only this storage scheme; it must not know the model
//! (it sees only `&[u32]` vectors) nor the search order.

pub mod concurrent;
mod packing;
mod spec;

pub use packing::Packing;
pub use spec::{HashTableConfig, Layout, SPEC};

use crate::blocks::budget::Budget;
use crate::registry::word;
use crate::visited::{Inserted, MemoryUsage, TableFull, VisitedSet};
use pins::Value;
use crate::blocks::word_hash::hash_words;

/// Vectors per data chunk are chosen so a chunk holds about this many words.
const CHUNK_WORDS: usize = 1 << 20;
const EMPTY: u64 = 0;
/// The memo half of a bucket word: the top 32 bits of the vector's hash.
const MEMO: u64 = 0xffff_ffff_0000_0000;

/// The open-addressing table; see the module documentation.
pub struct HashTable {
    /// Slots of the vectors given and recalled.
    slots: usize,
    /// Words of a stored vector (`slots`, or the packed words).
    k: usize,
    /// `layout=bytes`: how vectors are packed; `None`: stored as given.
    packing: Option<Packing>,
    /// The packed form of the vector being looked up (reused).
    scratch: Vec<Value>,
    config: HashTableConfig,
    /// Every byte of `alloc_bytes()` is reserved here.
    budget: Budget,
    buckets: Vec<u64>,
    /// log2 of the bucket count.
    bits: u32,
    chunks: Vec<Box<[Value]>>,
    /// log2 of the vectors per chunk.
    chunk_shift: u32,
    len: u64,
    grow_at: u64,
    probes: u64,
}

impl HashTable {
    /// A table of `k`-slot vectors from 16 buckets, within `mem_budget`
    /// bytes (the tests that fill a table).
    #[cfg(test)]
    pub(crate) fn small(k: usize, mem_budget: u64) -> HashTable {
        let config = HashTableConfig {
            initial_buckets: 16,
            ..HashTableConfig::default()
        };
        HashTable::with_budget(k, config, Budget::new(mem_budget)).unwrap()
    }

    /// A table of `k`-slot vectors without a memory limit.
    pub fn new(k: usize, config: HashTableConfig) -> Result<Self, TableFull> {
        Self::with_budget(k, config, Budget::unlimited())
    }

    /// A table of `k`-slot vectors allocating from `budget`, which it may
    /// share with other tables (an engine made of several tables).
    /// Everything it reserved is released when it is dropped.
    pub fn with_budget(
        k: usize,
        config: HashTableConfig,
        budget: Budget,
    ) -> Result<Self, TableFull> {
        Self::with_layout(k, None, config, budget)
    }

    /// A table storing vectors packed by `packing` (`layout=bytes`),
    /// allocating from `budget`.
    pub fn packed(
        packing: Packing,
        config: HashTableConfig,
        budget: Budget,
    ) -> Result<Self, TableFull> {
        Self::with_layout(packing.slots(), Some(packing), config, budget)
    }

    fn with_layout(
        slots: usize,
        packing: Option<Packing>,
        config: HashTableConfig,
        budget: Budget,
    ) -> Result<Self, TableFull> {
        let k = packing.as_ref().map_or(slots, Packing::words);
        let buckets = config.initial_buckets.max(16).next_power_of_two();
        let per_chunk = (CHUNK_WORDS / k.max(1)).max(1);
        // Largest power of two not above `per_chunk`.
        let chunk_shift = usize::BITS - 1 - per_chunk.leading_zeros();
        let mut table = HashTable {
            slots,
            k,
            packing,
            scratch: vec![0; k],
            config,
            budget,
            buckets: Vec::new(),
            bits: buckets.trailing_zeros(),
            chunks: Vec::new(),
            chunk_shift,
            len: 0,
            grow_at: 0,
            probes: 0,
        };
        table.reserve(buckets as u64 * 8)?;
        table.buckets = vec![EMPTY; buckets];
        table.grow_at = table.threshold();
        Ok(table)
    }

    fn threshold(&self) -> u64 {
        ((self.buckets.len() as f64) * self.config.max_load) as u64
    }

    fn chunk_words(&self) -> usize {
        (1usize << self.chunk_shift) * self.k
    }

    fn alloc_bytes(&self) -> u64 {
        self.buckets.len() as u64 * 8 + self.chunks.len() as u64 * self.chunk_words() as u64 * 4
    }

    /// Reserves `extra` bytes in the budget before allocating them.
    fn reserve(&self, extra: u64) -> Result<(), TableFull> {
        self.budget
            .reserve(extra, "hash-table")
            .map_err(|e| TableFull {
                message: format!("{}; {} states stored", e.message, self.len),
            })
    }

    fn hash(state: &[Value]) -> u64 {
        hash_words(state)
    }

    fn vector(&self, index: u64) -> &[Value] {
        let chunk = (index >> self.chunk_shift) as usize;
        let offset = (index as usize & ((1 << self.chunk_shift) - 1)) * self.k;
        &self.chunks[chunk][offset..offset + self.k]
    }

    /// The stored vector with reference `index` (packed under
    /// `layout=bytes`).
    pub fn get(&self, index: u64) -> Option<&[Value]> {
        (index < self.len).then(|| self.vector(index))
    }

    fn home(&self, hash: u64) -> usize {
        // Top `bits` bits (4 <= bits <= 32), which are also the top bits of
        // a bucket word holding this hash's memo.
        (hash >> (64 - self.bits)) as usize
    }

    /// Finds `state`: `Ok(index)` if stored, else `Err(first empty bucket)`.
    fn probe(&mut self, state: &[Value], hash: u64) -> Result<u64, usize> {
        let memo = hash & MEMO;
        let mask = self.buckets.len() - 1;
        let mut pos = self.home(hash);
        loop {
            let entry = self.buckets[pos];
            if entry == EMPTY {
                return Err(pos);
            }
            if entry & MEMO == memo {
                let index = (entry & 0xffff_ffff) - 1;
                if self.vector(index) == state {
                    return Ok(index);
                }
            }
            self.probes += 1;
            pos = (pos + 1) & mask;
        }
    }

    fn grow(&mut self) -> Result<(), TableFull> {
        let new_len = self.buckets.len() * 2;
        if self.bits >= 32 {
            return Err(TableFull {
                message: "hash-table: bucket array at its addressing limit (2^32 buckets)".into(),
            });
        }
        self.reserve(new_len as u64 * 8)?;
        let old = std::mem::replace(&mut self.buckets, vec![EMPTY; new_len]);
        self.bits += 1;
        let mask = new_len - 1;
        let old_len = old.len();
        for entry in old.into_iter().filter(|&e| e != EMPTY) {
            // The memo's top bits are the hash's.
            let mut pos = self.home(entry);
            while self.buckets[pos] != EMPTY {
                pos = (pos + 1) & mask;
            }
            self.buckets[pos] = entry;
        }
        self.budget.release(old_len as u64 * 8);
        self.grow_at = self.threshold();
        Ok(())
    }

    fn append(&mut self, state: &[Value]) -> Result<u64, TableFull> {
        let index = self.len;
        if index >= u32::MAX as u64 - 1 {
            return Err(TableFull {
                message: "hash-table: 2^32-2 states, the limit of 32-bit state indices".into(),
            });
        }
        let chunk = (index >> self.chunk_shift) as usize;
        if chunk == self.chunks.len() {
            self.reserve(self.chunk_words() as u64 * 4)?;
            self.chunks
                .push(vec![0; self.chunk_words()].into_boxed_slice());
        }
        let offset = (index as usize & ((1 << self.chunk_shift) - 1)) * self.k;
        self.chunks[chunk][offset..offset + self.k].copy_from_slice(state);
        self.len += 1;
        Ok(index)
    }
}

impl Drop for HashTable {
    fn drop(&mut self) {
        self.budget.release(self.alloc_bytes());
    }
}

/// Asks the cache for the line holding `word`: a hint, which changes no
/// result.
#[inline(always)]
fn prefetch_line(word: &u64) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `_mm_prefetch` needs SSE, part of every x86_64 target; a
    // prefetch never faults nor writes, and `word` is a live reference.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>((word as *const u64).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = word;
}

impl HashTable {
    /// Finds or stores the vector in its stored form.
    fn find_or_insert_stored(&mut self, state: &[Value]) -> Result<Inserted, TableFull> {
        self.find_or_insert_stored_hashed(state, Self::hash(state))
    }

    /// Finds or stores the vector in its stored form, of hash `hash`.
    fn find_or_insert_stored_hashed(
        &mut self,
        state: &[Value],
        hash: u64,
    ) -> Result<Inserted, TableFull> {
        let memo = hash & MEMO;
        let mut pos = match self.probe(state, hash) {
            Ok(index) => return Ok(Inserted::Found(index)),
            Err(empty) => empty,
        };
        if self.len >= self.grow_at {
            self.grow()?;
            pos = self.probe(state, hash).expect_err("absent before growth");
        }
        let index = self.append(state)?;
        self.buckets[pos] = memo | (index + 1);
        Ok(Inserted::New(index))
    }
}

impl VisitedSet for HashTable {
    fn find_or_insert(&mut self, state: &[Value]) -> Result<Inserted, TableFull> {
        debug_assert_eq!(state.len(), self.slots);
        let Some(packing) = &self.packing else {
            return self.find_or_insert_stored(state);
        };
        let mut packed = std::mem::take(&mut self.scratch);
        let result = packing
            .pack(state, &mut packed)
            .and_then(|()| self.find_or_insert_stored(&packed));
        self.scratch = packed;
        result
    }

    /// The hash of a vector stored as given (`layout=words`), its home
    /// bucket prefetched; `None` under `layout=bytes`, whose hash is the
    /// packed vector's.
    fn prefetch(&self, state: &[Value]) -> Option<u64> {
        if self.packing.is_some() {
            return None;
        }
        let hash = Self::hash(state);
        prefetch_line(&self.buckets[self.home(hash)]);
        Some(hash)
    }

    fn find_or_insert_hashed(&mut self, state: &[Value], hash: u64) -> Result<Inserted, TableFull> {
        debug_assert_eq!(state.len(), self.slots);
        if self.packing.is_some() {
            return self.find_or_insert(state);
        }
        debug_assert_eq!(hash, Self::hash(state));
        self.find_or_insert_stored_hashed(state, hash)
    }

    fn recalls_states(&self) -> bool {
        true
    }

    fn recall(&mut self, reference: u64, state: &mut [Value], _side: &mut [u32]) -> bool {
        if reference >= self.len || state.len() != self.slots {
            return false;
        }
        let stored = self.vector(reference);
        match &self.packing {
            Some(packing) => packing.unpack(stored, state),
            None => state.copy_from_slice(stored),
        }
        true
    }

    fn len(&self) -> u64 {
        self.len
    }

    fn memory(&self) -> MemoryUsage {
        MemoryUsage {
            used: self.len * (8 + 4 * self.k as u64),
            alloc: self.alloc_bytes(),
        }
    }

    fn params(&self) -> String {
        // The default layout is left out: rows of `words` runs keep the
        // text they had before the parameter existed.
        let layout = match self.packing {
            Some(_) => format!(";layout={}", word(Layout::Bytes)),
            None => String::new(),
        };
        format!(
            "max_load={};initial_buckets={}{layout}",
            self.config.max_load,
            self.config.initial_buckets.max(16).next_power_of_two(),
        )
    }

    fn counters(&self) -> Vec<(String, u64)> {
        vec![
            ("buckets".into(), self.buckets.len() as u64),
            ("extra_probes".into(), self.probes),
            ("stored_vector_bytes".into(), 4 * self.k as u64),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;

    fn small(k: usize) -> HashTable {
        HashTable::new(
            k,
            HashTableConfig {
                initial_buckets: 16,
                ..Default::default()
            },
        )
        .unwrap()
    }

    /// Checks the table against a `HashMap` reference: same novelty answers,
    /// stable references, stored vectors readable back.
    fn check_like_reference(k: usize, vectors: &[Vec<u32>]) {
        let mut table = small(k);
        let reference = check_table_like_reference(&mut table, k, vectors);
        for (v, &r) in &reference {
            assert_eq!(table.get(r), Some(v.as_slice()));
        }
        let m = table.memory();
        assert_eq!(m.used, reference.len() as u64 * (8 + 4 * k as u64));
    }

    /// Checks `table` of `k`-slot vectors against a `HashMap` reference:
    /// same novelty answers, stable references, stored vectors recalled;
    /// gives the reference back.
    fn check_table_like_reference(
        table: &mut HashTable,
        k: usize,
        vectors: &[Vec<u32>],
    ) -> HashMap<Vec<u32>, u64> {
        let mut reference: HashMap<Vec<u32>, u64> = HashMap::new();
        for v in vectors {
            let got = table.find_or_insert(v).unwrap();
            match reference.get(v) {
                Some(&r) => assert_eq!(got, Inserted::Found(r), "vector {v:?}"),
                None => {
                    assert!(got.is_new(), "vector {v:?} reported as present");
                    reference.insert(v.clone(), got.reference());
                }
            }
        }
        assert_eq!(table.len(), reference.len() as u64);
        for (v, &r) in &reference {
            let mut back = vec![u32::MAX; k];
            assert!(table.recall(r, &mut back, &mut []), "recall {r}");
            assert_eq!(&back, v);
        }
        let mut back = vec![0; k];
        assert!(!table.recall(table.len(), &mut back, &mut []), "no state there");
        let m = table.memory();
        assert!(m.alloc >= m.used);
        reference
    }

    fn slots(bits: &[u32]) -> Vec<pins::Slot> {
        bits.iter()
            .enumerate()
            .map(|(i, &bits)| pins::Slot {
                name: format!("v{i}"),
                process: None,
                bits,
            })
            .collect()
    }

    /// A `layout=bytes` table over slots of `bits`, from 16 buckets.
    fn packed(bits: &[u32], mem_budget: u64) -> HashTable {
        let config = HashTableConfig {
            initial_buckets: 16,
            ..Default::default()
        };
        HashTable::packed(Packing::new(&slots(bits)), config, Budget::new(mem_budget)).unwrap()
    }

    /// A `layout=bytes` table answers like a `HashMap` and accounts the
    /// packed words: slots of 1, 2, 1, 4 and 1 bytes, 9 bytes in 3 words.
    #[test]
    fn packed_layout_behaves_like_a_hash_map_and_counts_packed_bytes() {
        let bits = [3, 16, 8, 32, 1];
        let vectors: Vec<Vec<u32>> = (0..150_000u32)
            .map(|i| vec![i % 7, i % 65_536, (i / 7) % 256, i.wrapping_mul(2_654_435_761), i % 2])
            .chain((0..20_000u32).map(|i| vec![i % 7, i % 65_536, (i / 7) % 256, i.wrapping_mul(2_654_435_761), i % 2]))
            .collect();
        let budget = Budget::new(1 << 30);
        let config = HashTableConfig::default();
        let mut table =
            HashTable::packed(Packing::new(&slots(&bits)), config, budget.clone()).unwrap();
        let reference = check_table_like_reference(&mut table, bits.len(), &vectors);
        let m = table.memory();
        assert_eq!(m.used, reference.len() as u64 * (8 + 12));
        assert_eq!(budget.reserved(), m.alloc, "every allocated byte reserved");
        assert!(table.params().ends_with(";layout=bytes"), "{}", table.params());
    }

    #[test]
    fn packed_layout_reports_a_value_wider_than_its_slot() {
        let mut table = packed(&[8, 4], 1 << 30);
        assert!(table.find_or_insert(&[255, 15]).unwrap().is_new());
        let err = table.find_or_insert(&[256, 0]).unwrap_err();
        assert!(
            err.message.contains("slot v0/0: value 256 exceeds its declared 8 bits"),
            "{}",
            err.message
        );
        // Nothing truncated was stored, and the table still answers.
        assert_eq!(table.len(), 1);
        assert_eq!(table.find_or_insert(&[0, 0]).unwrap(), Inserted::New(1));
        assert_eq!(table.find_or_insert(&[255, 15]).unwrap(), Inserted::Found(0));
    }

    proptest! {
        #[test]
        fn behaves_like_a_hash_map(
            k in 1usize..9,
            raw in proptest::collection::vec(proptest::collection::vec(0u32..4, 8), 0..600),
        ) {
            let vectors: Vec<Vec<u32>> = raw.into_iter().map(|v| v[..k].to_vec()).collect();
            check_like_reference(k, &vectors);
        }
    }

    #[test]
    fn many_inserts_force_growth_and_keep_everything() {
        let vectors: Vec<Vec<u32>> = (0..200_000u32)
            .map(|i| vec![i % 7, i / 7, i.wrapping_mul(2_654_435_761)])
            .chain((0..50_000u32).map(|i| vec![i % 7, i / 7, i.wrapping_mul(2_654_435_761)]))
            .collect();
        check_like_reference(3, &vectors);
    }

    #[test]
    fn adversarial_all_equal_slots_and_long_vectors() {
        let vectors: Vec<Vec<u32>> = (0..3000u32).map(|i| vec![i; 1000]).collect();
        check_like_reference(1000, &vectors);
        let twice: Vec<Vec<u32>> = (0..500u32).flat_map(|i| [vec![i; 2], vec![i; 2]]).collect();
        check_like_reference(2, &twice);
    }

    #[test]
    fn reports_table_full_within_budget() {
        let mut table = HashTable::small(4, 16 * 8 + 40 * 1024 * 1024);
        let mut inserted = 0u32;
        let err = loop {
            match table.find_or_insert(&[inserted, 1, 2, 3]) {
                Ok(r) => assert!(r.is_new()),
                Err(e) => break e,
            }
            inserted += 1;
            assert!(inserted < 10_000_000, "budget never enforced");
        };
        assert!(err.message.contains("memory budget"), "{}", err.message);
        assert_eq!(table.len(), inserted as u64);
        assert!(table.memory().alloc <= 16 * 8 + 40 * 1024 * 1024);
        // Everything stored before the failure is still there.
        for i in 0..inserted {
            assert!(!table.find_or_insert(&[i, 1, 2, 3]).unwrap().is_new());
        }
    }

    #[test]
    fn shared_budget_is_reserved_exactly_and_released_on_drop() {
        // Chunks are 4 MiB whatever k: room for one, not two.
        let budget = Budget::new(6 << 20);
        let config = HashTableConfig {
            initial_buckets: 16,
            ..Default::default()
        };
        let mut a = HashTable::with_budget(2, config.clone(), budget.clone()).unwrap();
        let b = HashTable::with_budget(3, config, budget.clone()).unwrap();
        for i in 0..1000u32 {
            a.find_or_insert(&[i, i]).unwrap();
        }
        assert_eq!(
            budget.reserved(),
            a.memory().alloc + b.memory().alloc,
            "every allocated byte is reserved, nothing more"
        );
        // A second chunk does not fit.
        let mut c = HashTable::with_budget(4, HashTableConfig::default(), budget.clone()).unwrap();
        let err = c.find_or_insert(&[1, 2, 3, 4]).unwrap_err();
        assert!(err.message.contains("memory budget"), "{}", err.message);
        drop((a, b, c));
        assert_eq!(budget.reserved(), 0);
    }
}

#[cfg(test)]
mod conformance_tests {
    use super::*;
    use crate::conformance::{check_adversarial, check_stream, streams};
    use proptest::prelude::*;

    fn make(k: usize) -> Box<dyn VisitedSet> {
        Box::new(HashTable::new(k, HashTableConfig::default()).unwrap())
    }

    /// A `layout=bytes` table of `k` slots of 1, 2 and 4 bytes in turn.
    fn make_packed(k: usize) -> Box<dyn VisitedSet> {
        let slots: Vec<pins::Slot> = (0..k)
            .map(|i| pins::Slot {
                name: format!("v{i}"),
                process: None,
                bits: [5, 16, 32][i % 3],
            })
            .collect();
        let packing = Packing::new(&slots);
        Box::new(HashTable::packed(packing, HashTableConfig::default(), Budget::unlimited()).unwrap())
    }

    #[test]
    fn adversarial_streams_behave_like_a_hash_set() {
        check_adversarial(&make, u32::MAX);
        check_adversarial(&make_packed, u8::MAX as u32);
    }

    proptest! {
        #[test]
        fn random_streams_behave_like_a_hash_set((k, stream) in streams(9, 4)) {
            check_stream(make(k).as_mut(), &stream);
            check_stream(make_packed(k).as_mut(), &stream);
        }
    }
}
