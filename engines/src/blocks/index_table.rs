//! A table that gives every distinct fixed-width tuple of `u32` words a
//! dense, stable index (0, 1, 2, ... in insertion order).
//!
//! This is the building block of the schemes that refer to stored tuples by
//! index: COLLAPSE's component tables (sub-vector → index) and the tree
//! database's inner and leaf node tables ((left, right) → index). Indices
//! never move, so a parent may store them; growth re-hashes only the small
//! `u32` bucket array (each bucket holds index + 1, 0 = empty; linear
//! probing from the top bits of a [`word_hash`](crate::blocks::word_hash)),
//! while the tuples stay in segments that double in size and are never
//! copied. The bucket array doubles at load 1/2: every probe past the home
//! bucket costs a cache miss on a tuple, and at load 1/2 an absent tuple is
//! found after 2.5 buckets on average instead of 8.5 at load 3/4 (Knuth's
//! linear-probing bounds), for 4 bytes of bucket per entry more in the
//! allocation.
//!
//! **Fine growth** ([`Growth::Fine`], our extension): the allocation
//! follows the entries closely instead of up to twice them. The bucket
//! array has any length `n` (home bucket: the hash's top bits scaled to
//! `n`, Lemire's multiply-shift) and grows by a quarter at load 3/4, so it
//! stays at load 0.6..0.75 instead of 0.25..0.5; the tuples' segments of
//! each power-of-two range of indices are cut into [`FINE_CHUNKS`] chunks,
//! so at most an eighth of the range is allocated ahead. The longer probe
//! sequences stay cheap because a bucket's bits above those an index
//! needs before the next growth hold a **tag** (bits of the hash the home
//! bucket does not use): a probe compares the tuple only when the tags
//! agree. Growth re-hashes more often (about 5 times every entry in all
//! instead of 2).
//!
//! Accounting: `used` = entries × (4·width bytes of tuple + 4-byte bucket);
//! `alloc` = bucket array + allocated segments. Every allocation is first
//! reserved in the engine's shared [`Budget`]; a table that cannot grow
//! returns [`TableFull`]. The number of entries is also capped by
//! `max_entries` (the index width a parent can store).
//!
//! It owns only this table; it must not know states, models or trees.

use crate::blocks::budget::Budget;
use crate::blocks::word_hash::hash_words;
use crate::visited::TableFull;

/// log2 of the entries in the first segment.
const FIRST_SEGMENT_BITS: u32 = 6;

/// log2 of the chunks each power-of-two range of indices is cut into with
/// [`Growth::Fine`].
const FINE_CHUNK_BITS: u32 = 3;

/// Chunks per power-of-two range of indices with [`Growth::Fine`].
pub const FINE_CHUNKS: u32 = 1 << FINE_CHUNK_BITS;

/// How a table's allocation grows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Growth {
    /// Bucket array and tuple segments double (power-of-two sizes).
    Double,
    /// Bucket array grows by a quarter, tuple segments by an eighth of
    /// their power-of-two range (see the module documentation).
    Fine,
}

/// Dense-index tuple table; see the module documentation.
pub struct IndexTable {
    name: String,
    width: usize,
    budget: Budget,
    buckets: Vec<u32>,
    growth: Growth,
    /// log2 of the chunks per power-of-two range of indices (0: doubling).
    chunk_bits: u32,
    /// Segment 0 holds indices below 2^FIRST_SEGMENT_BITS; then each range
    /// [2^b, 2^(b+1)) is cut into 2^chunk_bits segments of equal length.
    segments: Vec<Box<[u32]>>,
    len: u64,
    max_entries: u64,
    grow_at: u64,
    /// Low bits of a bucket holding index + 1 (up to `grow_at`); the bits
    /// above hold the tag (none with [`Growth::Double`]: 32).
    index_bits: u32,
    /// Those bits as a mask (kept beside `index_bits`: every probe takes
    /// it).
    index_mask: u32,
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
    /// How its allocation grows.
    pub growth: Growth,
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
            growth: Growth::Double,
        }
    }

    /// The same, from `initial_buckets` buckets.
    pub fn buckets(self, initial_buckets: usize) -> Self {
        Tuples {
            initial_buckets,
            ..self
        }
    }

    /// The same, growing as `growth` says.
    pub fn growing(self, growth: Growth) -> Self {
        Tuples { growth, ..self }
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
    /// buckets, a power of two unless it grows finely), allocating from
    /// `budget`.
    pub fn new(tuples: Tuples, budget: Budget) -> Result<Self, TableFull> {
        let n = match tuples.growth {
            Growth::Double => tuples.initial_buckets.max(16).next_power_of_two(),
            Growth::Fine => tuples.initial_buckets.max(16),
        };
        let mut t = IndexTable {
            name: tuples.name,
            width: tuples.width,
            budget,
            buckets: Vec::new(),
            growth: tuples.growth,
            chunk_bits: match tuples.growth {
                Growth::Double => 0,
                Growth::Fine => FINE_CHUNK_BITS,
            },
            segments: Vec::new(),
            len: 0,
            max_entries: tuples.max_entries.min(u32::MAX as u64 - 1),
            grow_at: 0,
            index_bits: 32,
            index_mask: u32::MAX,
            probes: 0,
            reserved: 0,
        };
        t.reserve(n as u64 * 4)?;
        t.buckets = vec![0; n];
        t.set_grow_at(n);
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

    /// The growth threshold of `n` buckets (load 1/2, or 3/4 growing
    /// finely) and the index bits it needs.
    fn set_grow_at(&mut self, n: usize) {
        self.grow_at = match self.growth {
            Growth::Double => n as u64 / 2,
            Growth::Fine => {
                let at = n as u64 * 3 / 4;
                self.index_bits = (64 - at.leading_zeros()).clamp(1, 32);
                at
            }
        };
        self.index_mask = (u32::MAX as u64 >> (32 - self.index_bits)) as u32;
    }

    /// The bits of a bucket that hold index + 1.
    #[inline]
    fn index_mask(&self) -> u32 {
        self.index_mask
    }

    /// The tag of `hash`: its low word's bits above the index bits.
    #[inline]
    fn tag(&self, hash: u64) -> u32 {
        (hash as u32) & !self.index_mask()
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

    /// The segment of entry `index` and its offset there.
    #[inline(always)]
    fn locate(&self, index: u64) -> (usize, usize) {
        // Both chunkings as constants: the shifts need no register.
        if self.chunk_bits == FINE_CHUNK_BITS {
            locate_in::<FINE_CHUNK_BITS>(index)
        } else {
            locate_in::<0>(index)
        }
    }

    /// Entries of segment `seg`.
    fn segment_entries(&self, seg: usize) -> usize {
        if seg == 0 {
            1 << FIRST_SEGMENT_BITS
        } else {
            let log = FIRST_SEGMENT_BITS as usize + ((seg - 1) >> self.chunk_bits);
            1 << (log - self.chunk_bits as usize)
        }
    }

    /// The tuple with index `index` (which must be below `len()`).
    #[inline]
    pub fn get(&self, index: u32) -> &[u32] {
        debug_assert!((index as u64) < self.len);
        let (seg, off) = self.locate(index as u64);
        let w = self.width;
        &self.segments[seg][off * w..off * w + w]
    }

    /// The pair with index `index` of a table of width 2 (which must be
    /// below `len()`): [`get`](Self::get) without the slice, and without
    /// bounds checks past the one on `index` (a tree's node look-ups and
    /// recalls take most of their instructions here).
    #[inline(always)]
    pub fn get_pair(&self, index: u32) -> [u32; 2] {
        debug_assert_eq!(self.width, 2);
        assert!((index as u64) < self.len && self.width >= 2);
        let (seg, off) = self.locate(index as u64);
        // SAFETY: `index < len`, so its segment was allocated when the
        // entry was inserted (`insert_at` pushes every segment up to the
        // one of index `len - 1`), and `off` is below that segment's
        // `segment_entries`, whose slice holds `width ≥ 2` words per
        // entry: words `2·off` and `2·off + 1` lie inside it.
        unsafe {
            let segment = self.segments.get_unchecked(seg);
            [
                *segment.get_unchecked(2 * off),
                *segment.get_unchecked(2 * off + 1),
            ]
        }
    }

    /// Whether entry `index` holds `tuple` (word-wise for narrow tuples,
    /// avoiding a `memcmp` call per probe).
    #[inline]
    fn entry_is(&self, index: u32, tuple: &[u32]) -> bool {
        let (seg, off) = self.locate(index as u64);
        let w = self.width;
        let stored = &self.segments[seg][off * w..off * w + w];
        match (stored, tuple) {
            ([a, b], [c, d]) => a == c && b == d,
            ([a], [c]) => a == c,
            _ => stored == tuple,
        }
    }

    /// The home bucket of `hash` among `n` buckets: its top bits scaled
    /// to `n` (for n = 2^b, its top b bits).
    #[inline]
    fn home(hash: u64, n: usize) -> usize {
        ((hash as u128 * n as u128) >> 64) as usize
    }

    /// The bucket after `pos` among `n` (wrapping).
    #[inline]
    fn next(pos: usize, n: usize) -> usize {
        if pos + 1 == n {
            0
        } else {
            pos + 1
        }
    }

    /// `Ok(index)` if stored, else `Err(first empty bucket)`; `holds(self,
    /// i)` says whether entry `i` is the tuple of `hash` (asked only where
    /// the tag agrees).
    #[inline(always)]
    fn probe(&mut self, hash: u64, holds: impl Fn(&Self, u32) -> bool) -> Result<u32, usize> {
        let n = self.buckets.len();
        let (tag, mask) = (self.tag(hash), self.index_mask);
        let mut pos = Self::home(hash, n);
        let mut extra = 0;
        let found = loop {
            debug_assert!(pos < n);
            // SAFETY: `home` is below `n` ((hash · n) / 2^64 < n) and
            // `next` wraps at `n`, the length of `buckets`.
            let b = unsafe { *self.buckets.get_unchecked(pos) };
            if b == 0 {
                break Err(pos);
            }
            if b & !mask == tag && holds(self, (b & mask) - 1) {
                break Ok((b & mask) - 1);
            }
            extra += 1;
            pos = Self::next(pos, n);
        };
        self.probes += extra;
        found
    }

    /// The index of `tuple` if it is stored.
    pub fn find(&mut self, tuple: &[u32]) -> Option<u32> {
        debug_assert_eq!(tuple.len(), self.width);
        self.probe(hash_words(tuple), |t, i| t.entry_is(i, tuple))
            .ok()
    }

    /// The index of `tuple`, inserting it if absent; the flag tells whether
    /// it was inserted now.
    pub fn find_or_insert(&mut self, tuple: &[u32]) -> Result<(u32, bool), TableFull> {
        debug_assert_eq!(tuple.len(), self.width);
        let hash = hash_words(tuple);
        match self.probe(hash, |t, i| t.entry_is(i, tuple)) {
            Ok(i) => Ok((i, false)),
            Err(pos) => self.insert_at(tuple, hash, pos),
        }
    }

    /// [`find_or_insert`](Self::find_or_insert) of a pair in a table of
    /// width 2 (a tree node's look-up), inlined into its caller: the pair
    /// is compared as two words, and only an insertion makes a call.
    #[inline(always)]
    pub fn find_or_insert_pair(&mut self, pair: [u32; 2]) -> Result<(u32, bool), TableFull> {
        debug_assert_eq!(self.width, 2);
        let hash = hash_words(&pair);
        match self.probe(hash, |t, i| t.get_pair(i) == pair) {
            Ok(i) => Ok((i, false)),
            Err(pos) => self.insert_at(&pair, hash, pos),
        }
    }

    /// Stores the absent `tuple` of hash `hash`, whose probe ended at the
    /// empty bucket `pos`, growing the table first when it is due.
    #[inline(never)]
    fn insert_at(
        &mut self,
        tuple: &[u32],
        hash: u64,
        mut pos: usize,
    ) -> Result<(u32, bool), TableFull> {
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
            pos = match self.probe(hash, |t, i| t.entry_is(i, tuple)) {
                Ok(_) => unreachable!("tuple appeared during growth"),
                Err(pos) => pos,
            };
        }
        let index = self.len;
        let (seg, off) = self.locate(index);
        if seg == self.segments.len() {
            let entries = self.segment_entries(seg);
            self.reserve(entries as u64 * self.width as u64 * 4)?;
            self.segments
                .push(vec![0; entries * self.width].into_boxed_slice());
        }
        let w = self.width;
        self.segments[seg][off * w..off * w + w].copy_from_slice(tuple);
        self.buckets[pos] = self.tag(hash) | (index as u32 + 1);
        self.len += 1;
        Ok((index as u32, true))
    }

    /// Enlarges the bucket array (doubling, or by a quarter when growing
    /// finely), re-inserting every entry in index order.
    fn grow(&mut self) -> Result<(), TableFull> {
        let old_n = self.buckets.len();
        let n = match self.growth {
            Growth::Double => old_n * 2,
            Growth::Fine => old_n + old_n.div_ceil(4),
        };
        self.reserve(n as u64 * 4)?;
        let old = std::mem::replace(&mut self.buckets, vec![0; n]);
        drop(old);
        self.set_grow_at(n);
        for index in 0..self.len as u32 {
            let hash = hash_words(self.get(index));
            let mut pos = Self::home(hash, n);
            while self.buckets[pos] != 0 {
                pos = Self::next(pos, n);
            }
            self.buckets[pos] = self.tag(hash) | (index + 1);
        }
        self.release(old_n as u64 * 4);
        Ok(())
    }
}

/// The segment of entry `index` and its offset there, each power-of-two
/// range of indices cut into 2^`CHUNK_BITS` segments.
#[inline(always)]
fn locate_in<const CHUNK_BITS: u32>(index: u64) -> (usize, usize) {
    if index < (1 << FIRST_SEGMENT_BITS) {
        (0, index as usize)
    } else {
        let log = 63 - index.leading_zeros();
        let shift = log - CHUNK_BITS;
        let chunk = (index >> shift) & ((1 << CHUNK_BITS) - 1);
        let seg = 1 + (((log - FIRST_SEGMENT_BITS) as u64) << CHUNK_BITS) + chunk;
        (seg as usize, (index & ((1u64 << shift) - 1)) as usize)
    }
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

    /// A table growing as `growth` says, holding `n` pairs whose indices
    /// are checked dense and stable across growth.
    fn pairs(growth: Growth, n: u32) -> IndexTable {
        let mut t =
            IndexTable::new(Tuples::new("t", 2).growing(growth), Budget::unlimited()).unwrap();
        for i in 0..n {
            assert_eq!(t.find_or_insert(&[i, i ^ 7]).unwrap(), (i, true));
        }
        for i in 0..n {
            assert_eq!(t.find_or_insert(&[i, i ^ 7]).unwrap(), (i, false));
            assert_eq!(t.get(i), &[i, i ^ 7]);
        }
        assert_eq!(t.find(&[1, 1]), None);
        assert_eq!(t.used_bytes(), n as u64 * 12);
        t
    }

    #[test]
    fn indices_are_dense_and_stable_across_growth() {
        pairs(Growth::Double, 10_000);
    }

    #[test]
    fn pair_lookups_agree_with_slice_lookups_and_count_the_same_probes() {
        for growth in [Growth::Double, Growth::Fine] {
            let tuples = Tuples::new("t", 2).growing(growth);
            let mut by_slice = IndexTable::new(tuples.clone(), Budget::unlimited()).unwrap();
            let mut by_pair = IndexTable::new(tuples, Budget::unlimited()).unwrap();
            // Repeats among 3,000 pairs: found and inserted look-ups mixed.
            for i in 0..6_000u32 {
                let pair = [(i * 7919) % 3_000, i % 5];
                let want = by_slice.find_or_insert(&pair).unwrap();
                assert_eq!(by_pair.find_or_insert_pair(pair).unwrap(), want, "{pair:?}");
                assert_eq!(by_pair.get_pair(want.0), pair);
            }
            assert_eq!(by_pair.len(), by_slice.len());
            assert!(by_pair.probes() > 0);
            assert_eq!(by_pair.probes(), by_slice.probes());
            assert_eq!(by_pair.alloc_bytes(), by_slice.alloc_bytes());
        }
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

    #[test]
    fn fine_growth_allocates_close_to_use() {
        // 16 buckets to start: the bucket array is never a power of two
        // for long, and the segments are eighths of their ranges.
        let alloc_per_used = |growth, n: u32| {
            let t = pairs(growth, n);
            let load = if growth == Growth::Fine { 0.75 } else { 0.5 };
            assert!(t.len() as f64 <= t.buckets.len() as f64 * load);
            t.alloc_bytes() as f64 / t.used_bytes() as f64
        };
        for n in [1u32, 64, 65, 1000, 70_000, 140_000] {
            let fine = alloc_per_used(Growth::Fine, n);
            let double = alloc_per_used(Growth::Double, n);
            if n >= 1000 {
                assert!(fine <= double, "{n} tuples: fine {fine}, double {double}");
                // Buckets at load 0.6..0.75 (5.3..6.7 bytes) and at most
                // an eighth of the tuples' range ahead (9 bytes): 15.7 of
                // 12.
                assert!(fine <= 15.7 / 12.0, "{n} tuples: fine {fine}");
            }
        }
        // 70,000 tuples: segments up to 2^17 with doubling.
        assert!(alloc_per_used(Growth::Double, 70_000) > 2.0);
    }

    #[test]
    fn fine_segments_cover_every_index_once() {
        let t = IndexTable::new(
            Tuples::new("t", 1).growing(Growth::Fine),
            Budget::unlimited(),
        )
        .unwrap();
        let mut next = (0usize, 0usize);
        for index in 0..(1u64 << 12) {
            let (seg, off) = t.locate(index);
            if (seg, off) != next {
                assert_eq!((seg, off), (next.0 + 1, 0), "index {index}");
            }
            assert!(off < t.segment_entries(seg), "index {index}");
            next = (seg, off + 1);
        }
    }

    proptest! {
        #[test]
        fn behaves_like_a_hash_map(tuples in proptest::collection::vec(
            proptest::collection::vec(0u32..6, 3), 0..400), fine in any::<bool>()) {
            let growth = if fine { Growth::Fine } else { Growth::Double };
            let tuples_of = Tuples::new("p", 3).growing(growth);
            let mut t = IndexTable::new(tuples_of, Budget::unlimited()).unwrap();
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
