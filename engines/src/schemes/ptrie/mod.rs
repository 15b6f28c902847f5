//! `trie`: the PTrie of Jensen, Larsen and Srba, "PTrie: Data Structure for
//! Compressing and Storing Sets via Prefix Sharing" (ICTAC 2017), the
//! visited set of TAPAAL's verifypn (`ptrie.h`).
//!
//! This module owns only this storage scheme: the key encoding of a state
//! vector, the forwarding-node arena, the buckets, their splitting and the
//! byte accounting. It must not know models, front-ends or the search order:
//! it sees `&[u32]` vectors of a fixed length `k` and nothing else.
//!
//! # Key
//!
//! A PTrie stores byte strings. A vector is encoded into a key
//! `header ++ body` (in a scratch buffer that is reused, so the hot path
//! does not allocate). The body, by `encoding`:
//!
//! * `packed` (the default): one byte `w`, the bit width of the vector's
//!   largest value (0..=32), then the `k` values in `w` bits each, most
//!   significant first, zero-padded to a whole byte. `w` is a function of
//!   the vector alone, so a vector always gets the same key (unlike a width
//!   taken from the largest value seen so far), and vectors of one width
//!   share key prefixes slot by slot; a 1-safe net costs one bit per slot.
//!   This follows verifypn, whose marking encoder also chooses a compact
//!   representation per marking and records it in a leading type byte.
//! * `varint`: every slot as a big-endian *prefix varint*: the leading
//!   one-bits of the first byte give the number of extra bytes (`0xxxxxxx`
//!   for v < 2^7, `10xxxxxx` + 1 byte for v < 2^14, `110xxxxx` + 2 for
//!   v < 2^21, `1110xxxx` + 3 for v < 2^28, `11110000` + 4 otherwise).
//!   Canonical and prefix-free, so with `k` fixed the concatenation is
//!   unambiguous and vectors with equal leading slots have equal leading
//!   key bytes.
//! * `fixed4`: every slot as its 4 bytes big-endian.
//!
//! `packed` gave both the smallest and the fastest trie on every model
//! measured (DVE and Petri nets), `fixed4` the largest and slowest.
//!
//! The header is the body's length in bytes, big-endian, as in the paper
//! (verifypn's keys start with their 16-bit length): 2 bytes, or 4 when
//! `k` is so large that a body could exceed 65535 bytes. It makes the key
//! set prefix-free whatever the encoding and puts all keys of one length in
//! one subtree, so below depth `header` every bucket holds entries of a
//! single length (fixed stride, binary search).
//!
//! # Layout
//!
//! * Forwarding nodes: 256 child references (`u32`) each, indexed by one key
//!   byte, in an arena of chunks of [`FWD_PER_CHUNK`] nodes (chunks are
//!   never moved). Node 0 is the root, at depth 0. A reference is `0`
//!   (empty), a forwarding node's index, or a bucket's index with the top
//!   bit set. Unlike verifypn, nodes keep no parent pointer and no path
//!   byte: those serve erasure and iteration, which a visited set never
//!   does.
//! * Buckets (the paper's leaves): a bucket in the forwarding node at depth
//!   `d` covers the aligned range of children `[path, path + 256 >> bits)`,
//!   i.e. the keys whose byte `d` starts with the `bits` high bits of
//!   `path` (bits = 8: exactly one child). Its entries are the keys routed
//!   there, sorted, in one contiguous byte array:
//!   `count × first (u16, big-endian) ++ count suffixes`, where `first` is
//!   key bytes `d, d+1` (byte `d` is kept because a bucket spans several
//!   children; a missing byte `d+1` is 0) and the suffix is bytes `d+2..`.
//!   Below the header all suffixes of a bucket have one length; above it
//!   each entry's length is read from its header bytes (path, `first`,
//!   suffix), as verifypn does with its size bytes.
//!
//! # Operations
//!
//! * Look-up: follow forwarding nodes by key bytes until an empty child
//!   (absent) or a bucket, then search the bucket: binary search on
//!   (`first`, suffix) below the header (verifypn scans linearly; same
//!   result), a linear scan above it.
//! * Insertion into an empty child: a new bucket covering the largest
//!   aligned range of empty children around the key's byte (as verifypn).
//! * Insertion into a bucket of fewer than `bucket_size` entries: the entry
//!   is inserted at its sorted position (the array is reallocated to its
//!   exact new size, as verifypn does).
//! * Split (the paper's rule): a bucket that would hold `bucket_size + 1`
//!   entries is split. While all its entries agree on the next bit of byte
//!   `d` it halves its range (the other half becomes empty); when it covers
//!   one child and still all agree, a new forwarding node replaces it and
//!   its entries move one byte down (`first` takes the next suffix byte);
//!   at the first bit where they differ it becomes two buckets, the low and
//!   the high half. This is computed at once from the longest common bit
//!   prefix of the smallest and largest entry, and it is transactional:
//!   every byte it needs is reserved first, and a refused reservation
//!   leaves the trie unchanged.
//!
//! A look-up allocates nothing (the key and split buffers are reused); an
//! insertion reallocates only the bucket array it grows. `Inserted::New`
//! carries the insertion rank; `Inserted::Found` carries [`NO_REFERENCE`]
//! (the set keeps no per-state index, like verifypn's plain `ptrie::set`).
//!
//! Differences from verifypn's `ptrie.h`: no heap bound (suffixes of 17 or
//! more bytes are not moved out of the bucket behind a pointer, since the
//! array length is not limited to 16 bits here; long vectors simply make
//! big buckets); no parent pointers; child references are 32-bit indices,
//! not pointers; bucket search is binary below the header; the length
//! header widens to 4 bytes for huge `k`. verifypn's marking encoder has
//! several representations (bit vectors, lists of marked places, counts of
//! 1, 2 or 4 bytes); `packed` keeps only the per-vector bit width.
//!
//! # Accounting
//!
//! `used` = forwarding nodes × 1024 bytes + the chunk table + bucket
//! headers (`size_of::<Bucket>()` each) + the bytes of every bucket array.
//! `alloc` = allocated chunks + the capacities of the chunk table, of the
//! bucket-header vector and of every bucket array + the scratch buffers
//! (key, split). Every allocation is first reserved in the [`Budget`]
//! (`alloc` equals what is reserved, always); when a reservation is
//! refused, [`TableFull`] is returned. The allocator's own per-block
//! headers are not visible from here and not counted.

pub mod concurrent;
mod spec;

pub use spec::{PTrieConfig, SPEC};

use crate::blocks::budget::Budget;
use crate::registry::{word, words};
use crate::visited::{Inserted, MemoryUsage, TableFull, VisitedSet};
use pins::Value;
use std::mem::size_of;

/// Entries a bucket holds before it splits (verifypn's `SPLITBOUND` 129
/// splits at 129 entries, so a bucket holds at most 128).
pub const DEFAULT_BUCKET_SIZE: usize = 128;
/// Largest accepted `bucket_size` (entry counts are `u16`).
pub const MAX_BUCKET_SIZE: usize = u16::MAX as usize;
/// Forwarding nodes per arena chunk.
pub const FWD_PER_CHUNK: usize = 16;
const FWD_CHUNK_SHIFT: u32 = FWD_PER_CHUNK.trailing_zeros();
const FWD_CHUNK_WORDS: usize = FWD_PER_CHUNK * 256;
const FWD_NODE_BYTES: u64 = 256 * 4;
const EMPTY: u32 = 0;
const BUCKET_TAG: u32 = 1 << 31;
/// Largest forwarding-node or bucket index a reference can hold.
const MAX_INDEX: u32 = BUCKET_TAG - 1;
/// `Inserted::Found` carries no reference: the trie keeps no per-state index.
pub const NO_REFERENCE: u64 = u64::MAX;

words! {
    /// How a vector becomes a key body; see the module documentation.
    pub enum Encoding {
        /// Big-endian prefix varint, 1 to 5 bytes.
        Varint = "varint",
        /// 4 bytes big-endian.
        Fixed4 = "fixed4",
        /// One byte `w`, the bit width of the vector's largest value, then
        /// every slot in `w` bits, big-endian, zero-padded to a byte.
        Packed = "packed",
    }
}

impl Encoding {
    /// The parameter word naming this encoding.
    pub fn name(self) -> &'static str {
        word(self)
    }

    /// Longest key body of a `k`-slot vector.
    fn max_body(self, k: usize) -> usize {
        match self {
            Encoding::Varint => k.saturating_mul(5),
            Encoding::Fixed4 => k.saturating_mul(4),
            Encoding::Packed => k.saturating_mul(4).saturating_add(1),
        }
    }
}

/// Appends the prefix-varint code of `v`.
#[inline]
fn push_varint(out: &mut Vec<u8>, v: u32) {
    let b = v.to_be_bytes();
    if v < 1 << 7 {
        out.push(v as u8);
    } else if v < 1 << 14 {
        out.extend_from_slice(&[0x80 | b[2], b[3]]);
    } else if v < 1 << 21 {
        out.extend_from_slice(&[0xc0 | b[1], b[2], b[3]]);
    } else if v < 1 << 28 {
        out.extend_from_slice(&[0xe0 | b[0], b[1], b[2], b[3]]);
    } else {
        out.extend_from_slice(&[0xf0, b[0], b[1], b[2], b[3]]);
    }
}

/// Slack the key buffer keeps beyond the longest key: [`push_packed`]
/// writes whole 16-byte words and truncates.
const KEY_SLACK: usize = 16;

/// Appends `w` (the bit width of the largest value), then every value in
/// `w` bits, most significant first, zero-padded to a whole byte. Writes up
/// to [`KEY_SLACK`] bytes past the end (then truncated), so that no copy
/// has a variable length.
#[inline]
fn push_packed(out: &mut Vec<u8>, state: &[Value]) {
    let w = Value::BITS - state.iter().fold(0, |a, &v| a | v).leading_zeros();
    out.push(w as u8);
    if w == 0 {
        return;
    }
    // Eight values of `w` bits are exactly `w` bytes: pack each group of
    // eight at once (independent shifts), no carry to the next group.
    let wb = w as usize;
    let mut groups = state.chunks_exact(8);
    let mut rest = state;
    if w <= 8 {
        for g in &mut groups {
            let mut acc = 0u64;
            for (i, &v) in g.iter().enumerate() {
                acc |= (v as u64) << (w * (7 - i as u32));
            }
            out.extend_from_slice(&(acc << (64 - 8 * w)).to_be_bytes());
            out.truncate(out.len() - (8 - wb));
        }
        rest = groups.remainder();
    } else if w <= 16 {
        for g in &mut groups {
            let (mut hi, mut lo) = (0u64, 0u64);
            for i in 0..4 {
                hi |= (g[i] as u64) << (w * (3 - i as u32));
                lo |= (g[i + 4] as u64) << (w * (3 - i as u32));
            }
            // The group's 8w bits at the top of a 128-bit word.
            let top = ((hi as u128) << (128 - 4 * w)) | ((lo as u128) << (128 - 8 * w));
            out.extend_from_slice(&top.to_be_bytes());
            out.truncate(out.len() - (16 - wb));
        }
        rest = groups.remainder();
    }
    // `n` < 32 pending bits at the bottom of `acc`, flushed 32 at a time.
    let (mut acc, mut n) = (0u64, 0u32);
    for &v in rest {
        acc = (acc << w) | v as u64;
        n += w;
        if n >= 32 {
            n -= 32;
            out.extend_from_slice(&((acc >> n) as u32).to_be_bytes());
        }
    }
    while n >= 8 {
        n -= 8;
        out.push((acc >> n) as u8);
    }
    if n > 0 {
        out.push((acc << (8 - n)) as u8);
    }
}

/// A leaf of the trie: sorted entries in one byte array; see the module
/// documentation.
struct Bucket {
    /// `count` big-endian `first`s, then `count` suffixes.
    data: Vec<u8>,
    count: u16,
    /// First child covered in the parent forwarding node.
    path: u8,
    /// High bits of the parent's key byte fixed by the range (0..=8).
    bits: u8,
}

/// Where a key stops in the trie.
enum Probe {
    Found,
    /// Forwarding node `fwd` (at depth `depth`) has no child for the key.
    Empty {
        fwd: u32,
        depth: usize,
    },
    /// Bucket `bucket`, in forwarding node `fwd` at depth `depth`, lacks the
    /// key; `pos` is its sorted position.
    Absent {
        fwd: u32,
        depth: usize,
        bucket: u32,
        pos: usize,
    },
}

/// The PTrie; see the module documentation.
pub struct PTrie {
    k: usize,
    config: PTrieConfig,
    /// Header bytes (2 or 4).
    header: usize,
    budget: Budget,
    /// Bytes reserved in `budget`; always equals `alloc_bytes()`.
    reserved: u64,
    fwd: Vec<Box<[u32]>>,
    fwd_count: u32,
    buckets: Vec<Bucket>,
    /// Sum of the lengths / capacities of the bucket arrays.
    data_used: u64,
    data_alloc: u64,
    len: u64,
    /// Scratch: the encoded key.
    key: Vec<u8>,
    /// Scratch of a split: the entries' key tails, and where each ends.
    tails: Vec<u8>,
    tail_ends: Vec<u32>,
    bucket_splits: u64,
    max_depth: usize,
}

/// Bytes that raising `v`'s capacity to exactly `len + extra` adds (0 if it
/// already fits); `reserve_exact(extra)` then allocates just that.
fn grown_bytes<T>(v: &Vec<T>, extra: usize) -> u64 {
    let need = v.len() + extra;
    if need > v.capacity() {
        ((need - v.capacity()) * size_of::<T>()) as u64
    } else {
        0
    }
}

/// Capacity of a doubling vector after `extra` more pushes.
fn doubled_capacity<T>(v: &Vec<T>, extra: usize) -> usize {
    let need = v.len() + extra;
    if need <= v.capacity() {
        v.capacity()
    } else {
        need.max(2 * v.capacity()).max(4)
    }
}

/// The `first` of a key tail (its bytes 0 and 1; a missing byte 1 is 0).
#[inline]
fn first_of(tail: &[u8]) -> u16 {
    ((tail[0] as u16) << 8) | tail.get(1).copied().unwrap_or(0) as u16
}

/// The suffix of a key tail (its bytes from 2 on).
#[inline]
fn suffix_of(tail: &[u8]) -> &[u8] {
    tail.get(2..).unwrap_or(&[])
}

impl PTrie {
    /// A trie of `k`-slot vectors without a memory limit.
    pub fn new(k: usize, config: PTrieConfig) -> Result<Self, TableFull> {
        Self::with_budget(k, config, Budget::unlimited())
    }

    /// A trie allocating from `budget`.
    pub fn with_budget(k: usize, config: PTrieConfig, budget: Budget) -> Result<Self, TableFull> {
        assert!(
            (1..=MAX_BUCKET_SIZE).contains(&config.bucket_size),
            "trie: bucket_size {} out of 1..={MAX_BUCKET_SIZE}",
            config.bucket_size
        );
        let max_body = config.encoding.max_body(k);
        let header = if max_body <= u16::MAX as usize { 2 } else { 4 };
        if max_body > u32::MAX as usize {
            return Err(TableFull {
                message: format!("trie: {k}-slot keys exceed the 4-byte length header"),
            });
        }
        let mut trie = PTrie {
            k,
            config,
            header,
            budget,
            reserved: 0,
            fwd: Vec::new(),
            fwd_count: 0,
            buckets: Vec::new(),
            data_used: 0,
            data_alloc: 0,
            len: 0,
            key: Vec::new(),
            tails: Vec::new(),
            tail_ends: Vec::new(),
            bucket_splits: 0,
            max_depth: 0,
        };
        let key_bytes = header + max_body + KEY_SLACK;
        trie.reserve((key_bytes + FWD_CHUNK_WORDS * 4 + size_of::<Box<[u32]>>()) as u64)?;
        trie.key = Vec::with_capacity(key_bytes);
        trie.fwd.reserve_exact(1);
        trie.fwd
            .push(vec![EMPTY; FWD_CHUNK_WORDS].into_boxed_slice());
        trie.fwd_count = 1; // the root
        debug_assert_eq!(trie.reserved, trie.alloc_bytes());
        Ok(trie)
    }

    fn reserve(&mut self, bytes: u64) -> Result<(), TableFull> {
        if bytes == 0 {
            return Ok(());
        }
        self.budget.reserve(bytes, "trie").map_err(|e| TableFull {
            message: format!("{}; {} states stored", e.message, self.len),
        })?;
        self.reserved += bytes;
        Ok(())
    }

    fn release(&mut self, bytes: u64) {
        self.budget.release(bytes);
        self.reserved -= bytes;
    }

    fn alloc_bytes(&self) -> u64 {
        (self.fwd.len() * FWD_CHUNK_WORDS * 4
            + self.fwd.capacity() * size_of::<Box<[u32]>>()
            + self.buckets.capacity() * size_of::<Bucket>()
            + self.key.capacity()
            + self.tails.capacity()
            + self.tail_ends.capacity() * 4) as u64
            + self.data_alloc
    }

    fn used_bytes(&self) -> u64 {
        self.fwd_count as u64 * FWD_NODE_BYTES
            + (self.fwd.len() * size_of::<Box<[u32]>>() + self.buckets.len() * size_of::<Bucket>())
                as u64
            + self.data_used
    }

    /// Encodes `state` into `self.key`.
    fn encode(&mut self, state: &[Value]) {
        let h = self.header;
        let key = &mut self.key;
        key.clear();
        if h == 2 {
            key.extend_from_slice(&[0; 2]);
        } else {
            key.extend_from_slice(&[0; 4]);
        }
        match self.config.encoding {
            Encoding::Varint => {
                for &v in state {
                    push_varint(key, v);
                }
            }
            Encoding::Fixed4 => {
                for &v in state {
                    key.extend_from_slice(&v.to_be_bytes());
                }
            }
            Encoding::Packed => push_packed(key, state),
        }
        let body = key.len() - h;
        if h == 2 {
            key[..2].copy_from_slice(&(body as u16).to_be_bytes());
        } else {
            key[..4].copy_from_slice(&(body as u32).to_be_bytes());
        }
    }

    #[inline]
    fn child(&self, fwd: u32, byte: u8) -> u32 {
        let f = fwd as usize;
        self.fwd[f >> FWD_CHUNK_SHIFT][((f & (FWD_PER_CHUNK - 1)) << 8) | byte as usize]
    }

    fn children_mut(&mut self, fwd: u32) -> &mut [u32] {
        let f = fwd as usize;
        let off = (f & (FWD_PER_CHUNK - 1)) << 8;
        &mut self.fwd[f >> FWD_CHUNK_SHIFT][off..off + 256]
    }

    /// Length of the suffix of the entry with `first` whose suffix starts
    /// at `rest`, in a bucket at depth `depth` reached through `prefix`
    /// (key bytes `0..depth`) by a key of length `key_len`.
    #[inline]
    fn suffix_len(
        &self,
        prefix: &[u8],
        depth: usize,
        key_len: usize,
        first: u16,
        rest: &[u8],
    ) -> usize {
        if depth >= self.header {
            // All keys below the header have the length of the key that led here.
            return key_len.saturating_sub(depth + 2);
        }
        let mut body = 0usize;
        for i in 0..self.header {
            let byte = if i < depth {
                prefix[i]
            } else if i == depth {
                (first >> 8) as u8
            } else if i == depth + 1 {
                first as u8
            } else {
                rest[i - depth - 2]
            };
            body = (body << 8) | byte as usize;
        }
        self.header + body - depth - 2
    }

    /// Searches `key` in bucket `b` at depth `depth`: `Ok(index)` or
    /// `Err(sorted insertion position)`.
    #[inline]
    fn bucket_search(&self, b: u32, key: &[u8], depth: usize) -> Result<usize, usize> {
        let bucket = &self.buckets[b as usize];
        let n = bucket.count as usize;
        let tail = &key[depth..];
        let kf = first_of(tail);
        let ks = suffix_of(tail);
        let (firsts, sufs) = bucket.data.split_at(2 * n);
        let first = |i: usize| u16::from_be_bytes([firsts[2 * i], firsts[2 * i + 1]]);
        if depth >= self.header {
            let s = ks.len();
            let (mut lo, mut hi) = (0, n);
            while lo < hi {
                let mid = (lo + hi) / 2;
                let ord = first(mid)
                    .cmp(&kf)
                    .then_with(|| sufs[mid * s..mid * s + s].cmp(ks));
                match ord {
                    std::cmp::Ordering::Less => lo = mid + 1,
                    std::cmp::Ordering::Greater => hi = mid,
                    std::cmp::Ordering::Equal => return Ok(mid),
                }
            }
            Err(lo)
        } else {
            let mut off = 0;
            for i in 0..n {
                let f = first(i);
                let sl = self.suffix_len(key, depth, key.len(), f, &sufs[off..]);
                match f.cmp(&kf).then_with(|| sufs[off..off + sl].cmp(ks)) {
                    std::cmp::Ordering::Less => off += sl,
                    std::cmp::Ordering::Equal => return Ok(i),
                    std::cmp::Ordering::Greater => return Err(i),
                }
            }
            Err(n)
        }
    }

    fn probe(&self, key: &[u8]) -> Probe {
        let mut fwd = 0u32;
        let mut depth = 0usize;
        loop {
            let c = self.child(fwd, key[depth]);
            if c == EMPTY {
                return Probe::Empty { fwd, depth };
            }
            if c & BUCKET_TAG != 0 {
                let bucket = c & !BUCKET_TAG;
                return match self.bucket_search(bucket, key, depth) {
                    Ok(_) => Probe::Found,
                    Err(pos) => Probe::Absent {
                        fwd,
                        depth,
                        bucket,
                        pos,
                    },
                };
            }
            fwd = c;
            depth += 1;
        }
    }

    fn insert_key(&mut self, key: &[u8]) -> Result<Inserted, TableFull> {
        match self.probe(key) {
            Probe::Found => return Ok(Inserted::Found(NO_REFERENCE)),
            Probe::Empty { fwd, depth } => self.new_bucket(fwd, depth, key)?,
            Probe::Absent {
                fwd,
                depth,
                bucket,
                pos,
            } => {
                if self.buckets[bucket as usize].count as usize >= self.config.bucket_size {
                    self.split_insert(fwd, depth, bucket, pos, key)?;
                } else {
                    self.bucket_insert(bucket, pos, depth, key)?;
                }
            }
        }
        self.len += 1;
        Ok(Inserted::New(self.len - 1))
    }

    /// A new bucket holding only `key`, in the empty child `key[depth]` of
    /// `fwd`, covering the largest aligned range of empty children there.
    fn new_bucket(&mut self, fwd: u32, depth: usize, key: &[u8]) -> Result<(), TableFull> {
        let id = self.buckets.len();
        if id > MAX_INDEX as usize {
            return Err(TableFull {
                message: format!("trie: {id} buckets, the limit of 31-bit references"),
            });
        }
        let c = key[depth] as usize;
        let mut bits = 8u32;
        {
            let children = self.children_mut(fwd);
            while bits > 0 {
                let size = 256usize >> (bits - 1);
                let start = c & !(size - 1);
                if children[start..start + size].iter().all(|&x| x == EMPTY) {
                    bits -= 1;
                } else {
                    break;
                }
            }
        }
        let size = 256usize >> bits;
        let start = c & !(size - 1);
        let tail = &key[depth..];
        let entry = 2 + suffix_of(tail).len();
        let new_cap = doubled_capacity(&self.buckets, 1);
        let header_bytes = ((new_cap - self.buckets.capacity()) * size_of::<Bucket>()) as u64;
        self.reserve(header_bytes + entry as u64)?;
        self.buckets.reserve_exact(new_cap - self.buckets.len());
        let mut data = Vec::with_capacity(entry);
        data.extend_from_slice(&first_of(tail).to_be_bytes());
        data.extend_from_slice(suffix_of(tail));
        self.data_used += entry as u64;
        self.data_alloc += data.capacity() as u64;
        self.buckets.push(Bucket {
            data,
            count: 1,
            path: start as u8,
            bits: bits as u8,
        });
        self.children_mut(fwd)[start..start + size].fill(BUCKET_TAG | id as u32);
        Ok(())
    }

    /// Inserts `key` at sorted position `pos` of bucket `b` (at depth
    /// `depth`), which has room for it.
    fn bucket_insert(
        &mut self,
        b: u32,
        pos: usize,
        depth: usize,
        key: &[u8],
    ) -> Result<(), TableFull> {
        let tail = &key[depth..];
        let first = first_of(tail);
        let suffix = suffix_of(tail);
        let entry = 2 + suffix.len();
        let n = self.buckets[b as usize].count as usize;
        // Offset of entry `pos`'s suffix in the suffix area.
        let soff = if depth >= self.header {
            pos * suffix.len()
        } else {
            let data = &self.buckets[b as usize].data;
            let mut off = 0;
            for i in 0..pos {
                let f = u16::from_be_bytes([data[2 * i], data[2 * i + 1]]);
                off += self.suffix_len(key, depth, key.len(), f, &data[2 * n + off..]);
            }
            off
        };
        let grow = grown_bytes(&self.buckets[b as usize].data, entry);
        self.reserve(grow)?;
        let data = &mut self.buckets[b as usize].data;
        let old_len = data.len();
        data.reserve_exact(entry);
        data.resize(old_len + entry, 0);
        let sstart = 2 * n;
        // Suffixes after `pos` move by a whole entry, those before by 2
        // bytes (the new `first`), the `first`s after `pos` by 2 bytes.
        data.copy_within(sstart + soff..old_len, sstart + soff + entry);
        data.copy_within(sstart..sstart + soff, sstart + 2);
        data[sstart + 2 + soff..sstart + 2 + soff + suffix.len()].copy_from_slice(suffix);
        data.copy_within(2 * pos..2 * n, 2 * pos + 2);
        data[2 * pos..2 * pos + 2].copy_from_slice(&first.to_be_bytes());
        let bucket = &mut self.buckets[b as usize];
        bucket.count += 1;
        self.data_used += entry as u64;
        self.data_alloc += grow;
        Ok(())
    }

    /// Inserts `key` into the full bucket `b` (in `fwd`, at depth `depth`,
    /// sorted position `pos`) and splits it; see the module documentation.
    fn split_insert(
        &mut self,
        fwd: u32,
        depth: usize,
        b: u32,
        pos: usize,
        key: &[u8],
    ) -> Result<(), TableFull> {
        let mut tails = std::mem::take(&mut self.tails);
        let mut ends = std::mem::take(&mut self.tail_ends);
        let result = self
            .gather_tails(depth, b, pos, key, &mut tails, &mut ends)
            .and_then(|()| self.split_at_tails(fwd, depth, b, &tails, &ends));
        self.tails = tails;
        self.tail_ends = ends;
        result
    }

    /// The tails (the bytes from `depth` on) of bucket `b`'s entries with
    /// `key`'s inserted at sorted position `pos`, into `tails`, each
    /// ending at its `ends` offset; scratch growth reserved in the budget.
    fn gather_tails(
        &mut self,
        depth: usize,
        b: u32,
        pos: usize,
        key: &[u8],
        tails: &mut Vec<u8>,
        ends: &mut Vec<u32>,
    ) -> Result<(), TableFull> {
        let n = self.buckets[b as usize].count as usize;
        let m = n + 1;
        let new_tail = &key[depth..];
        // Scratch growth (a tail is at most its entry's 2 + suffix bytes).
        let bound = self.buckets[b as usize].data.len() + 2 + new_tail.len();
        let scratch = grown_bytes(tails, bound.saturating_sub(tails.len()))
            + grown_bytes(ends, m.saturating_sub(ends.len()));
        self.reserve(scratch)?;
        tails.reserve_exact(bound.saturating_sub(tails.len()));
        ends.reserve_exact(m.saturating_sub(ends.len()));
        tails.clear();
        ends.clear();
        {
            let bucket = &self.buckets[b as usize];
            let (firsts, sufs) = bucket.data.split_at(2 * n);
            let mut off = 0;
            for i in 0..n {
                if i == pos {
                    tails.extend_from_slice(new_tail);
                    ends.push(tails.len() as u32);
                }
                let f = u16::from_be_bytes([firsts[2 * i], firsts[2 * i + 1]]);
                let sl = self.suffix_len(key, depth, key.len(), f, &sufs[off..]);
                let tail_len = if depth >= self.header {
                    new_tail.len()
                } else {
                    2 + sl
                };
                tails.extend_from_slice(&f.to_be_bytes()[..tail_len.min(2)]);
                tails.extend_from_slice(&sufs[off..off + sl]);
                ends.push(tails.len() as u32);
                off += sl;
            }
            if pos == n {
                tails.extend_from_slice(new_tail);
                ends.push(tails.len() as u32);
            }
        }
        Ok(())
    }

    /// Splits the full bucket `b` (in `fwd`, at depth `depth`) whose
    /// entries, the new one included, are `tails` (see [`Self::gather_tails`]).
    fn split_at_tails(
        &mut self,
        fwd: u32,
        depth: usize,
        b: u32,
        tails: &[u8],
        ends: &[u32],
    ) -> Result<(), TableFull> {
        let m = ends.len();
        let tail = |e: usize| {
            let start = if e == 0 { 0 } else { ends[e - 1] as usize };
            &tails[start..ends[e] as usize]
        };
        // The entries are sorted: they all share the longest common bit
        // prefix of the smallest and the largest one, and differ right after.
        let (t0, tl) = (tail(0), tail(m - 1));
        let j = t0
            .iter()
            .zip(tl)
            .position(|(x, y)| x != y)
            .expect("trie: distinct keys of a prefix-free set differ within their length");
        let bit = (t0[j] ^ tl[j]).leading_zeros() as usize;
        let mask = 0x80u8 >> bit;
        let q = (0..m)
            .position(|e| tail(e)[j] & mask != 0)
            .expect("the largest entry has the bit set");
        let entry_bytes = |e: usize| 2 + tail(e).len().saturating_sub(j + 2);
        let low_bytes: usize = (0..q).map(entry_bytes).sum();
        let high_bytes: usize = (q..m).map(entry_bytes).sum();

        // Everything the split allocates, reserved at once.
        let fwd_total = self.fwd_count as usize + j;
        if fwd_total > MAX_INDEX as usize + 1 || self.buckets.len() > MAX_INDEX as usize {
            return Err(TableFull {
                message: "trie: node or bucket count at the limit of 31-bit references".into(),
            });
        }
        let chunks = fwd_total.div_ceil(FWD_PER_CHUNK);
        let new_chunks = chunks - self.fwd.len();
        let chunk_cap = doubled_capacity(&self.fwd, new_chunks);
        let bucket_cap = doubled_capacity(&self.buckets, 1);
        let need = (new_chunks * FWD_CHUNK_WORDS * 4
            + (chunk_cap - self.fwd.capacity()) * size_of::<Box<[u32]>>()
            + (bucket_cap - self.buckets.capacity()) * size_of::<Bucket>()
            + low_bytes
            + high_bytes) as u64;
        self.reserve(need)?;
        self.fwd.reserve_exact(chunk_cap - self.fwd.len());
        self.buckets.reserve_exact(bucket_cap - self.buckets.len());
        for _ in 0..new_chunks {
            self.fwd
                .push(vec![EMPTY; FWD_CHUNK_WORDS].into_boxed_slice());
        }

        // Forwarding nodes for the bytes all entries share.
        let (path, bits) = {
            let bk = &self.buckets[b as usize];
            (bk.path as usize, bk.bits as usize)
        };
        let mut parent = fwd;
        let (mut start, mut size) = (path, 256usize >> bits);
        if j > 0 {
            self.children_mut(fwd)[start..start + size].fill(EMPTY);
            for &byte in &t0[..j] {
                let g = self.fwd_count;
                self.fwd_count += 1;
                self.children_mut(parent)[byte as usize] = g;
                parent = g;
            }
            self.max_depth = self.max_depth.max(depth + j);
            (start, size) = (0, 256);
        }
        // In `parent`, the low and high halves of the block of byte `j`
        // values sharing its first `bit` bits.
        let block = 256usize >> bit;
        let low_start = t0[j] as usize & !(block - 1);
        let half = block / 2;
        let h = self.buckets.len() as u32;
        {
            let children = self.children_mut(parent);
            children[start..start + size].fill(EMPTY);
            children[low_start..low_start + half].fill(BUCKET_TAG | b);
            children[low_start + half..low_start + block].fill(BUCKET_TAG | h);
        }
        let build = |range: std::ops::Range<usize>, bytes: usize| {
            let mut data = Vec::with_capacity(bytes);
            for e in range.clone() {
                data.extend_from_slice(&first_of(&tail(e)[j..]).to_be_bytes());
            }
            for e in range {
                data.extend_from_slice(suffix_of(&tail(e)[j..]));
            }
            debug_assert_eq!(data.len(), bytes);
            data
        };
        let low = build(0..q, low_bytes);
        let high = build(q..m, high_bytes);
        let old = std::mem::replace(&mut self.buckets[b as usize].data, low);
        self.data_used = self.data_used - old.len() as u64 + (low_bytes + high_bytes) as u64;
        self.data_alloc = self.data_alloc - old.capacity() as u64 + (low_bytes + high_bytes) as u64;
        let old_cap = old.capacity() as u64;
        drop(old);
        self.release(old_cap);
        {
            let bk = &mut self.buckets[b as usize];
            bk.count = q as u16;
            bk.path = low_start as u8;
            bk.bits = (bit + 1) as u8;
        }
        self.buckets.push(Bucket {
            data: high,
            count: (m - q) as u16,
            path: (low_start + half) as u8,
            bits: (bit + 1) as u8,
        });
        self.bucket_splits += 1;
        Ok(())
    }
}

impl Drop for PTrie {
    fn drop(&mut self) {
        self.budget.release(self.reserved);
    }
}

impl VisitedSet for PTrie {
    fn find_or_insert(&mut self, state: &[Value]) -> Result<Inserted, TableFull> {
        debug_assert_eq!(state.len(), self.k);
        self.encode(state);
        let key = std::mem::take(&mut self.key);
        let result = self.insert_key(&key);
        self.key = key;
        result
    }

    fn len(&self) -> u64 {
        self.len
    }

    fn memory(&self) -> MemoryUsage {
        MemoryUsage {
            used: self.used_bytes(),
            alloc: self.alloc_bytes(),
        }
    }

    fn params(&self) -> String {
        format!(
            "bucket_size={};encoding={}",
            self.config.bucket_size,
            self.config.encoding.name()
        )
    }

    fn counters(&self) -> Vec<(String, u64)> {
        vec![
            ("forwarding_nodes".into(), self.fwd_count as u64),
            ("buckets".into(), self.buckets.len() as u64),
            ("bucket_splits".into(), self.bucket_splits),
            ("max_depth".into(), self.max_depth as u64),
            ("bucket_bytes".into(), self.data_used),
        ]
    }
}

#[cfg(test)]
impl PTrie {
    /// Decodes a key body back into its vector.
    fn decode(&self, body: &[u8]) -> Vec<u32> {
        let mut out = Vec::with_capacity(self.k);
        if self.config.encoding == Encoding::Packed {
            let w = body[0] as usize;
            assert!(w <= 32);
            assert_eq!(body.len(), 1 + (self.k * w).div_ceil(8), "packed length");
            let bit = |i: usize| (body[1 + i / 8] >> (7 - i % 8)) as u32 & 1;
            for s in 0..self.k {
                out.push((0..w).fold(0u32, |a, b| (a << 1) | bit(s * w + b)));
            }
            if w > 0 {
                assert!(out.iter().any(|&v| v >> (w - 1) == 1), "w is not minimal");
            }
            return out;
        }
        let mut i = 0;
        while i < body.len() {
            match self.config.encoding {
                Encoding::Fixed4 => {
                    out.push(u32::from_be_bytes(body[i..i + 4].try_into().unwrap()));
                    i += 4;
                }
                Encoding::Packed => unreachable!(),
                Encoding::Varint => {
                    let extra = body[i].leading_ones() as usize;
                    let mut v = if extra == 4 {
                        0
                    } else {
                        (body[i] & (0x7f >> extra)) as u32
                    };
                    for &x in &body[i + 1..i + 1 + extra] {
                        v = (v << 8) | x as u32;
                    }
                    out.push(v);
                    i += 1 + extra;
                }
            }
        }
        assert_eq!(out.len(), self.k, "key body decodes to a wrong length");
        out
    }

    /// Checks every structural invariant and returns the stored vectors,
    /// rebuilt from the trie (forwarding path + bucket entries).
    pub(crate) fn check_and_enumerate(&self) -> Vec<Vec<u32>> {
        let mut seen = vec![false; self.buckets.len()];
        let mut out = Vec::new();
        let mut fwd_seen = 1;
        self.walk(0, &mut Vec::new(), &mut seen, &mut out, &mut fwd_seen);
        assert!(seen.iter().all(|&s| s), "unreachable bucket");
        assert_eq!(fwd_seen, self.fwd_count, "unreachable forwarding node");
        assert_eq!(out.len() as u64, self.len);
        let data: u64 = self.buckets.iter().map(|b| b.data.len() as u64).sum();
        let cap: u64 = self.buckets.iter().map(|b| b.data.capacity() as u64).sum();
        assert_eq!((data, cap), (self.data_used, self.data_alloc));
        assert_eq!(self.reserved, self.alloc_bytes());
        assert!(self.used_bytes() <= self.alloc_bytes());
        out
    }

    /// Depth-first over the forwarding nodes with an explicit stack (a
    /// chain of forwarding nodes can be as deep as a key is long).
    fn walk(
        &self,
        root: u32,
        prefix: &mut Vec<u8>,
        seen: &mut [bool],
        out: &mut Vec<Vec<u32>>,
        fwd_seen: &mut u32,
    ) {
        let mut stack = vec![(root, 0usize)];
        while let Some(top) = stack.last_mut() {
            let (fwd, c) = *top;
            if c >= 256 {
                stack.pop();
                prefix.pop();
                continue;
            }
            let r = self.child(fwd, c as u8);
            if r == EMPTY {
                top.1 += 1;
            } else if r & BUCKET_TAG == 0 {
                top.1 += 1;
                *fwd_seen += 1;
                prefix.push(c as u8);
                stack.push((r, 0));
            } else {
                top.1 += self.check_bucket(fwd, c, prefix, seen, out);
            }
        }
    }

    /// Checks the bucket at child `c` of `fwd` (reached through `prefix`),
    /// appends its vectors to `out`; returns the children it covers.
    fn check_bucket(
        &self,
        fwd: u32,
        c: usize,
        prefix: &[u8],
        seen: &mut [bool],
        out: &mut Vec<Vec<u32>>,
    ) -> usize {
        let depth = prefix.len();
        let r = self.child(fwd, c as u8);
        let id = (r & !BUCKET_TAG) as usize;
        let b = &self.buckets[id];
        assert!(!seen[id], "bucket {id} referenced twice");
        seen[id] = true;
        let size = 256usize >> b.bits;
        assert_eq!(b.path as usize, c, "bucket range starts at its path");
        assert_eq!(c % size, 0, "bucket range aligned");
        for x in c..c + size {
            assert_eq!(self.child(fwd, x as u8), r, "bucket range contiguous");
        }
        let n = b.count as usize;
        assert!(n >= 1 && n <= self.config.bucket_size, "count {n}");
        let (firsts, sufs) = b.data.split_at(2 * n);
        let mut off = 0;
        let mut prev: Option<Vec<u8>> = None;
        for i in 0..n {
            let f = u16::from_be_bytes([firsts[2 * i], firsts[2 * i + 1]]);
            assert_eq!((f >> 8) as usize & !(size - 1), c, "entry outside range");
            // The key length: from the header (path, first, suffix).
            let mut full = prefix.to_vec();
            full.extend_from_slice(&f.to_be_bytes());
            full.extend_from_slice(&sufs[off..(off + self.header).min(sufs.len())]);
            let body = full[..self.header]
                .iter()
                .fold(0usize, |a, &x| (a << 8) | x as usize);
            let key_len = self.header + body;
            let sl = key_len.saturating_sub(depth + 2);
            let mut key = prefix.to_vec();
            key.extend_from_slice(&f.to_be_bytes()[..(key_len - depth).min(2)]);
            key.extend_from_slice(&sufs[off..off + sl]);
            if key_len - depth == 1 {
                assert_eq!(f & 0xff, 0, "padding byte");
            }
            off += sl;
            if let Some(p) = &prev {
                assert!(p[depth..] < key[depth..], "entries not sorted");
            }
            out.push(self.decode(&key[self.header..]));
            prev = Some(key);
        }
        assert_eq!(off, sufs.len(), "bucket array length");
        size
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashSet;

    fn trie(k: usize, bucket_size: usize, encoding: Encoding) -> PTrie {
        PTrie::new(
            k,
            PTrieConfig {
                bucket_size,
                encoding,
            },
        )
        .unwrap()
    }

    /// Inserts `vectors`, compares every answer with a `HashSet`, then checks
    /// the invariants and that the trie holds exactly the reference set.
    fn check_like_reference(t: &mut PTrie, vectors: &[Vec<u32>]) {
        let mut reference = HashSet::new();
        for v in vectors {
            let got = t.find_or_insert(v).unwrap();
            assert_eq!(got.is_new(), reference.insert(v.clone()), "{v:?}");
            if got.is_new() {
                assert_eq!(got.reference(), reference.len() as u64 - 1);
            }
        }
        assert_eq!(t.len(), reference.len() as u64);
        let stored: HashSet<Vec<u32>> = t.check_and_enumerate().into_iter().collect();
        assert_eq!(stored, reference);
    }

    #[test]
    fn varint_boundaries_round_trip_and_sort_by_value() {
        let values = [
            0u32,
            1,
            127,
            128,
            255,
            256,
            16_383,
            16_384,
            (1 << 21) - 1,
            1 << 21,
            (1 << 28) - 1,
            1 << 28,
            u32::MAX - 1,
            u32::MAX,
        ];
        let t = trie(1, 4, Encoding::Varint);
        let mut prev: Option<Vec<u8>> = None;
        for &v in &values {
            let mut code = Vec::new();
            push_varint(&mut code, v);
            assert_eq!(t.decode(&code), vec![v]);
            if let Some(p) = prev {
                assert!(p < code, "codes are ordered like values");
            }
            prev = Some(code);
        }
        for enc in [Encoding::Varint, Encoding::Fixed4, Encoding::Packed] {
            for bs in [1, 2, 128] {
                let vectors: Vec<Vec<u32>> = values
                    .iter()
                    .flat_map(|&a| values.iter().map(move |&b| vec![a, b, a ^ b]))
                    .collect();
                check_like_reference(&mut trie(3, bs, enc), &vectors);
            }
        }
    }

    #[test]
    fn many_inserts_split_buckets_and_build_forwarding_nodes() {
        for enc in [Encoding::Varint, Encoding::Fixed4, Encoding::Packed] {
            let mut t = trie(3, DEFAULT_BUCKET_SIZE, enc);
            let vectors: Vec<Vec<u32>> = (0..60_000u32)
                .map(|i| vec![i % 7, i / 7, i.wrapping_mul(2_654_435_761) >> 20])
                .chain(
                    (0..10_000u32).map(|i| vec![i % 7, i / 7, i.wrapping_mul(2_654_435_761) >> 20]),
                )
                .collect();
            check_like_reference(&mut t, &vectors);
            assert!(t.fwd_count > 10 && t.bucket_splits > 100, "{}", t.params());
            let m = t.memory();
            assert!(m.used <= m.alloc);
            assert_eq!(t.budget.reserved(), m.alloc);
        }
    }

    #[test]
    fn keys_of_many_lengths_split_above_the_header() {
        // k = 1 varint keys of 1..=5 body bytes: buckets at depth 0 and 1
        // mix lengths until the header bytes are forwarded.
        for bs in [1, 3, 8, 128] {
            let vectors: Vec<Vec<u32>> = (0..3000u32)
                .map(|i| vec![i.wrapping_mul(0x9e37_79b9) >> (i % 32)])
                .collect();
            check_like_reference(&mut trie(1, bs, Encoding::Varint), &vectors);
        }
    }

    #[test]
    fn wide_vectors_use_a_four_byte_header() {
        // 13108 slots × 5 bytes > 65535: the header widens to 4 bytes.
        let k = 13_108;
        let mut t = trie(k, 4, Encoding::Varint);
        assert_eq!(t.header, 4);
        let vectors: Vec<Vec<u32>> = (0..40u32)
            .map(|i| {
                let mut v = vec![1u32; k];
                v[(i as usize * 997) % k] = i * 300;
                v[k - 1] = i % 3;
                v
            })
            .collect();
        check_like_reference(&mut t, &vectors);
        assert_eq!(trie(13_107, 4, Encoding::Varint).header, 2);
    }

    #[test]
    fn table_full_within_budget_leaves_the_trie_intact() {
        for enc in [Encoding::Varint, Encoding::Fixed4, Encoding::Packed] {
            let budget = Budget::new(256 * 1024);
            let config = PTrieConfig {
                bucket_size: 16,
                encoding: enc,
            };
            let mut t = PTrie::with_budget(4, config.clone(), budget.clone()).unwrap();
            let v = |i: u32| vec![i % 5, i.wrapping_mul(2_654_435_761), i / 3, 7];
            let mut inserted = 0u32;
            let err = loop {
                match t.find_or_insert(&v(inserted)) {
                    Ok(r) => assert!(r.is_new()),
                    Err(e) => break e,
                }
                inserted += 1;
                assert!(inserted < 1_000_000, "budget never enforced");
            };
            assert!(err.message.starts_with("trie:"), "{}", err.message);
            assert!(err.message.contains("memory budget"), "{}", err.message);
            assert!(budget.reserved() <= 256 * 1024);
            assert_eq!(t.len(), inserted as u64);
            // Nothing half-done: the failed state is absent, the rest found.
            let stored: HashSet<Vec<u32>> = t.check_and_enumerate().into_iter().collect();
            assert!(!stored.contains(&v(inserted)));
            for i in 0..inserted {
                assert!(!t.find_or_insert(&v(i)).unwrap().is_new());
            }
            assert!(t.find_or_insert(&v(inserted)).is_err());
            drop(t);
            assert_eq!(budget.reserved(), 0);
            // Too small to even create the root.
            let tiny = Budget::new(100);
            assert!(PTrie::with_budget(4, config, tiny.clone()).is_err());
            assert_eq!(tiny.reserved(), 0);
        }
    }

    #[test]
    fn zero_and_one_slot_vectors() {
        let mut t = trie(0, 1, Encoding::Varint);
        check_like_reference(&mut t, &[vec![], vec![]]);
        assert_eq!(t.len(), 1);
        let all: Vec<Vec<u32>> = (0..70_000u32).map(|i| vec![i]).collect();
        check_like_reference(&mut trie(1, 1, Encoding::Varint), &all);
        check_like_reference(&mut trie(1, 128, Encoding::Fixed4), &all);
    }

    #[test]
    fn accounting_counts_nodes_headers_and_buckets() {
        let mut t = trie(2, 2, Encoding::Fixed4);
        let m0 = t.memory();
        assert_eq!(m0.used, FWD_NODE_BYTES + size_of::<Box<[u32]>>() as u64);
        t.find_or_insert(&[1, 2]).unwrap();
        // One bucket: header + first (2) + suffix (10 - 2 = 8 bytes).
        let m1 = t.memory();
        assert_eq!(m1.used - m0.used, size_of::<Bucket>() as u64 + 2 + 8);
        for i in 0..100 {
            t.find_or_insert(&[1, i]).unwrap();
        }
        t.check_and_enumerate();
        let m = t.memory();
        assert_eq!(
            m.used,
            t.fwd_count as u64 * 1024
                + (t.fwd.len() * size_of::<Box<[u32]>>()) as u64
                + (t.buckets.len() * size_of::<Bucket>()) as u64
                + t.data_used
        );
        assert_eq!(t.budget.reserved(), m.alloc);
        assert_eq!(t.params(), "bucket_size=2;encoding=fixed4");
    }

    proptest! {
        #[test]
        fn encodings_round_trip(
            v in proptest::collection::vec(any::<u32>(), 1..40),
            shift in 0u32..32,
        ) {
            let v: Vec<u32> = v.into_iter().map(|x| x >> shift).collect();
            for enc in [Encoding::Varint, Encoding::Fixed4, Encoding::Packed] {
                let mut t = trie(v.len(), 4, enc);
                t.encode(&v);
                let body = (t.key.len() - 2) as u16;
                prop_assert_eq!(&t.key[..2], &body.to_be_bytes()[..]);
                prop_assert_eq!(t.decode(&t.key[2..]), v.clone());
            }
        }

        #[test]
        fn behaves_like_a_hash_set_with_any_bucket_size(
            bucket_size in 1usize..10,
            enc in 0usize..3,
            (k, raw) in crate::conformance::streams(7, 6),
            big in proptest::collection::vec(any::<u32>(), 0..40),
        ) {
            let enc = [Encoding::Varint, Encoding::Fixed4, Encoding::Packed][enc];
            // Scatter full-range values into some vectors.
            let vectors: Vec<Vec<u32>> = raw
                .into_iter()
                .enumerate()
                .map(|(i, mut v)| {
                    if !big.is_empty() && i % 3 == 0 {
                        v[i % k] = big[i % big.len()];
                    }
                    v
                })
                .collect();
            check_like_reference(&mut trie(k, bucket_size, enc), &vectors);
        }
    }
}

#[cfg(test)]
mod conformance_tests {
    use super::*;
    use crate::conformance::{check_adversarial, check_stream, streams};
    use proptest::prelude::*;

    fn make(bucket_size: usize, encoding: Encoding) -> impl Fn(usize) -> Box<dyn VisitedSet> {
        move |k| {
            Box::new(
                PTrie::new(
                    k,
                    PTrieConfig {
                        bucket_size,
                        encoding,
                    },
                )
                .unwrap(),
            )
        }
    }

    #[test]
    fn adversarial_streams_behave_like_a_hash_set() {
        check_adversarial(&make(DEFAULT_BUCKET_SIZE, Encoding::Varint), u32::MAX);
        check_adversarial(&make(DEFAULT_BUCKET_SIZE, Encoding::Fixed4), u32::MAX);
        check_adversarial(&make(DEFAULT_BUCKET_SIZE, Encoding::Packed), u32::MAX);
    }

    #[test]
    fn adversarial_streams_with_tiny_buckets() {
        check_adversarial(&make(1, Encoding::Varint), u32::MAX);
        check_adversarial(&make(3, Encoding::Fixed4), 5);
        check_adversarial(&make(2, Encoding::Varint), 300);
        check_adversarial(&make(1, Encoding::Packed), 2);
        check_adversarial(&make(2, Encoding::Packed), u32::MAX);
    }

    proptest! {
        #[test]
        fn random_streams_behave_like_a_hash_set((k, stream) in streams(9, 4)) {
            check_stream(make(DEFAULT_BUCKET_SIZE, Encoding::Varint)(k).as_mut(), &stream);
            check_stream(make(4, Encoding::Varint)(k).as_mut(), &stream);
            check_stream(make(4, Encoding::Packed)(k).as_mut(), &stream);
        }

        #[test]
        fn random_full_range_streams_behave_like_a_hash_set((k, stream) in streams(5, u32::MAX)) {
            check_stream(make(2, Encoding::Varint)(k).as_mut(), &stream);
            check_stream(make(2, Encoding::Fixed4)(k).as_mut(), &stream);
            check_stream(make(2, Encoding::Packed)(k).as_mut(), &stream);
        }

        #[test]
        fn long_vectors_behave_like_a_hash_set(
            base in proptest::collection::vec(0u32..3, 301),
            edits in proptest::collection::vec((0usize..301, 0u32..200), 1..150),
        ) {
            // A walk of 301-slot vectors, each one edit from the last.
            let mut v = base;
            let mut stream = Vec::new();
            for (p, x) in edits {
                v[p] = x;
                stream.push(v.clone());
            }
            check_stream(make(3, Encoding::Varint)(301).as_mut(), &stream);
            check_stream(make(DEFAULT_BUCKET_SIZE, Encoding::Fixed4)(301).as_mut(), &stream);
            check_stream(make(5, Encoding::Packed)(301).as_mut(), &stream);
        }
    }
}
