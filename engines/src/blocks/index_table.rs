//! A table that gives every distinct fixed-width tuple of `u32` words a
//! dense, stable index (0, 1, 2, ... in insertion order).
//!
//! This is the building block of the schemes that refer to stored tuples
//! by index: COLLAPSE's component tables (sub-vector → index) and the tree
//! database's inner and leaf node tables ((left, right) → index). Indices
//! never move, so a parent may store them; growth re-hashes only the small
//! `u32` bucket array (each bucket holds index + 1, 0 = empty; linear
//! probing from the top bits of an xxh3 hash), while the tuples stay in
//! segments that double in size and are never copied. The bucket array
//! doubles at load 1/2: every probe past the home bucket costs a cache miss
//! on a tuple, and at load 1/2 an absent tuple is found after 2.5 buckets
//! on average instead of 8.5 at load 3/4 (Knuth's linear-probing bounds),
//! for 4 bytes of bucket per entry more in the allocation.
//!
//! Accounting: `used` = entries × (4·width bytes of tuple + 4-byte bucket);
//! `alloc` = bucket array + allocated segments. Every allocation is first
//! reserved in the engine's shared [`Budget`]; a table that cannot grow
//! returns [`TableFull`]. The number of entries is also capped by
//! `max_entries` (the index width a parent can store).
//!
//! It owns only this table; it must not know states, models or trees.

use crate::blocks::budget::Budget;
use crate::visited::TableFull;
use xxhash_rust::xxh3::xxh3_64;

/// log2 of the entries in the first segment.
const FIRST_SEGMENT_BITS: u32 = 6;

/// Dense-index tuple table; see the module documentation.
pub struct IndexTable {
    name: String,
    width: usize,
    budget: Budget,
    buckets: Vec<u32>,
    bits: u32,
    /// Segment 0 holds 2^FIRST_SEGMENT_BITS entries; segment i ≥ 1 holds
    /// 2^(FIRST_SEGMENT_BITS + i - 1) and starts at that same index.
    segments: Vec<Box<[u32]>>,
    len: u64,
    max_entries: u64,
    grow_at: u64,
    probes: u64,
    reserved: u64,
}

/// What a table of tuples holds, as both tuple tables take it (this
/// sequential one and the hash table's concurrent `SharedTable`).
#[derive(Clone, Debug)]
pub struct Tuples {
    /// Prefixes `table_full` messages.
    pub name: String,
    /// Words per tuple (at least 1).
    pub width: usize,
    /// Initial buckets (rounded up to a power of two, and to the table's
    /// minimum).
    pub initial_buckets: usize,
    /// Most tuples the table may hold (the index width a parent stores).
    pub max_entries: u64,
}

impl Tuples {
    /// `width`-word tuples named `name`, from 16 buckets, without a cap.
    /// Panics if `width` is 0.
    pub fn new(name: impl Into<String>, width: usize) -> Self {
        assert!(width > 0, "tuple tables: zero-width tuples");
        Tuples {
            name: name.into(),
            width,
            initial_buckets: 16,
            max_entries: u64::MAX,
        }
    }

    /// The same, from `initial_buckets` buckets.
    pub fn buckets(self, initial_buckets: usize) -> Self {
        Tuples {
            initial_buckets,
            ..self
        }
    }

    /// The same, holding at most `max_entries` tuples.
    pub fn at_most(self, max_entries: u64) -> Self {
        Tuples {
            max_entries,
            ..self
        }
    }
}

impl IndexTable {
    /// A table of `tuples` (at most 2^32 − 1 of them; at least 16
    /// buckets), allocating from `budget`.
    pub fn new(tuples: Tuples, budget: Budget) -> Result<Self, TableFull> {
        let n = tuples.initial_buckets.max(16).next_power_of_two();
        let mut t = IndexTable {
            name: tuples.name,
            width: tuples.width,
            budget,
            buckets: Vec::new(),
            bits: n.trailing_zeros(),
            segments: Vec::new(),
            len: 0,
            max_entries: tuples.max_entries.min(u32::MAX as u64 - 1),
            grow_at: 0,
            probes: 0,
            reserved: 0,
        };
        t.reserve(n as u64 * 4)?;
        t.buckets = vec![0; n];
        t.grow_at = n as u64 / 2;
        Ok(t)
    }

    fn reserve(&mut self, bytes: u64) -> Result<(), TableFull> {
        self.budget.reserve(bytes, &self.name)?;
        self.reserved += bytes;
        Ok(())
    }

    fn release(&mut self, bytes: u64) {
        self.budget.release(bytes);
        self.reserved -= bytes;
    }

    /// Tuple width in words.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of distinct tuples stored.
    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes of occupied entries (tuple + bucket).
    pub fn used_bytes(&self) -> u64 {
        self.len * (4 * self.width as u64 + 4)
    }

    /// Bytes allocated (bucket array + segments).
    pub fn alloc_bytes(&self) -> u64 {
        self.reserved
    }

    /// Buckets inspected beyond the first, over all look-ups.
    pub fn probes(&self) -> u64 {
        self.probes
    }

    #[inline]
    fn locate(index: u64) -> (usize, usize) {
        if index < (1 << FIRST_SEGMENT_BITS) {
            (0, index as usize)
        } else {
            let log = 63 - index.leading_zeros();
            let seg = (log - FIRST_SEGMENT_BITS + 1) as usize;
            (seg, (index - (1u64 << log)) as usize)
        }
    }

    fn segment_entries(seg: usize) -> usize {
        if seg == 0 {
            1 << FIRST_SEGMENT_BITS
        } else {
            1 << (FIRST_SEGMENT_BITS as usize + seg - 1)
        }
    }

    /// The tuple with index `index` (which must be below `len()`).
    #[inline]
    pub fn get(&self, index: u32) -> &[u32] {
        debug_assert!((index as u64) < self.len);
        let (seg, off) = Self::locate(index as u64);
        let w = self.width;
        &self.segments[seg][off * w..off * w + w]
    }

    /// Whether entry `index` holds `tuple` (word-wise for narrow tuples,
    /// avoiding a `memcmp` call per probe).
    #[inline]
    fn entry_is(&self, index: u32, tuple: &[u32]) -> bool {
        let (seg, off) = Self::locate(index as u64);
        let w = self.width;
        let stored = &self.segments[seg][off * w..off * w + w];
        match (stored, tuple) {
            ([a, b], [c, d]) => a == c && b == d,
            ([a], [c]) => a == c,
            _ => stored == tuple,
        }
    }

    #[inline]
    fn home(&self, hash: u64) -> usize {
        (hash >> (64 - self.bits)) as usize
    }

    /// `Ok(index)` if stored, else `Err(first empty bucket)`.
    #[inline]
    fn probe(&mut self, tuple: &[u32], hash: u64) -> Result<u32, usize> {
        let mask = self.buckets.len() - 1;
        let mut pos = self.home(hash);
        loop {
            let b = self.buckets[pos];
            if b == 0 {
                return Err(pos);
            }
            if self.entry_is(b - 1, tuple) {
                return Ok(b - 1);
            }
            self.probes += 1;
            pos = (pos + 1) & mask;
        }
    }

    /// The index of `tuple` if it is stored.
    pub fn find(&mut self, tuple: &[u32]) -> Option<u32> {
        debug_assert_eq!(tuple.len(), self.width);
        self.probe(tuple, hash_tuple(tuple)).ok()
    }

    /// The index of `tuple`, inserting it if absent; the flag tells whether
    /// it was inserted now.
    pub fn find_or_insert(&mut self, tuple: &[u32]) -> Result<(u32, bool), TableFull> {
        debug_assert_eq!(tuple.len(), self.width);
        let hash = hash_tuple(tuple);
        let mut pos = match self.probe(tuple, hash) {
            Ok(i) => return Ok((i, false)),
            Err(pos) => pos,
        };
        if self.len >= self.max_entries {
            return Err(TableFull {
                message: format!(
                    "{}: {} entries, the limit of its index width",
                    self.name, self.max_entries
                ),
            });
        }
        if self.len + 1 > self.grow_at {
            self.grow()?;
            pos = match self.probe(tuple, hash) {
                Ok(_) => unreachable!("tuple appeared during growth"),
                Err(pos) => pos,
            };
        }
        let index = self.len;
        let (seg, off) = Self::locate(index);
        if seg == self.segments.len() {
            let entries = Self::segment_entries(seg);
            self.reserve(entries as u64 * self.width as u64 * 4)?;
            self.segments
                .push(vec![0; entries * self.width].into_boxed_slice());
        }
        let w = self.width;
        self.segments[seg][off * w..off * w + w].copy_from_slice(tuple);
        self.buckets[pos] = index as u32 + 1;
        self.len += 1;
        Ok((index as u32, true))
    }

    fn grow(&mut self) -> Result<(), TableFull> {
        let n = self.buckets.len() * 2;
        self.reserve(n as u64 * 4)?;
        let old = std::mem::replace(&mut self.buckets, vec![0; n]);
        self.bits += 1;
        let mask = n - 1;
        for b in old.iter().copied().filter(|&b| b != 0) {
            let mut pos = self.home(hash_tuple(self.get(b - 1)));
            while self.buckets[pos] != 0 {
                pos = (pos + 1) & mask;
            }
            self.buckets[pos] = b;
        }
        self.release(old.len() as u64 * 4);
        self.grow_at = n as u64 / 2;
        Ok(())
    }
}

/// The hash of a tuple, for the tables of tuples (this one and the
/// concurrent `SharedTable`): pairs (every tree node) and single words take
/// one multiply-xorshift round of a 64-bit mixer instead of a
/// byte-oriented hash; wider tuples xxh3.
#[inline]
pub(crate) fn hash_tuple(tuple: &[u32]) -> u64 {
    match *tuple {
        [a, b] => mix64((a as u64) << 32 | b as u64),
        [a] => mix64(a as u64),
        _ => xxh3_64(bytemuck::cast_slice(tuple)),
    }
}

/// A 64-bit finaliser (murmur3's fmix64): a bijection with good avalanche,
/// enough for the home bucket taken from its top bits.
#[inline]
pub(crate) fn mix64(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^= x >> 33;
    x
}

impl Drop for IndexTable {
    fn drop(&mut self) {
        self.budget.release(self.reserved);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;

    #[test]
    fn indices_are_dense_and_stable_across_growth() {
        let mut t = IndexTable::new(Tuples::new("t", 2), Budget::unlimited()).unwrap();
        for i in 0..10_000u32 {
            assert_eq!(t.find_or_insert(&[i, i ^ 7]).unwrap(), (i, true));
        }
        for i in 0..10_000u32 {
            assert_eq!(t.find_or_insert(&[i, i ^ 7]).unwrap(), (i, false));
            assert_eq!(t.get(i), &[i, i ^ 7]);
        }
        assert_eq!(t.find(&[1, 1]), None);
        assert_eq!(t.used_bytes(), 10_000 * 12);
    }

    #[test]
    fn budget_and_index_width_give_table_full() {
        let b = Budget::new(4096);
        let mut t = IndexTable::new(Tuples::new("node 1", 1), b.clone()).unwrap();
        let mut full = None;
        for i in 0..100_000u32 {
            if let Err(e) = t.find_or_insert(&[i]) {
                full = Some((i, e));
                break;
            }
        }
        let (i, e) = full.expect("a 4 KiB budget must fill up");
        assert!(
            i > 100 && e.message.starts_with("node 1:"),
            "{i} {}",
            e.message
        );
        assert!(b.reserved() <= 4096);
        assert_eq!(t.alloc_bytes(), b.reserved());
        drop(t);
        assert_eq!(b.reserved(), 0);

        let mut t =
            IndexTable::new(Tuples::new("leaf", 2).at_most(3), Budget::unlimited()).unwrap();
        for i in 0..3 {
            t.find_or_insert(&[i, 0]).unwrap();
        }
        assert!(t.find_or_insert(&[9, 9]).is_err());
        assert_eq!(t.find_or_insert(&[2, 0]).unwrap(), (2, false));
    }

    proptest! {
        #[test]
        fn behaves_like_a_hash_map(tuples in proptest::collection::vec(
            proptest::collection::vec(0u32..6, 3), 0..400)) {
            let mut t = IndexTable::new(Tuples::new("p", 3), Budget::unlimited()).unwrap();
            let mut reference: HashMap<Vec<u32>, u32> = HashMap::new();
            for tu in &tuples {
                let next = reference.len() as u32;
                let expect_new = !reference.contains_key(tu);
                let want = *reference.entry(tu.clone()).or_insert(next);
                prop_assert_eq!(t.find_or_insert(tu).unwrap(), (want, expect_new));
            }
            prop_assert_eq!(t.len(), reference.len() as u64);
            for (tu, &i) in &reference {
                prop_assert_eq!(t.get(i), tu.as_slice());
            }
        }
    }
}
