//! ComBack's state table: the multiset of (hash signature, state id) pairs.
//!
//! Layout: open addressing over `u64` buckets, each empty (0) or
//! `signature << 32 | (id + 1)`; linear probing from a home bucket that
//! depends on the signature only (so that every stored state with a
//! signature lies in the probe run of that signature, however few bits it
//! has). Several ids may share a signature: that is a hash collision, which
//! ComBack resolves by reconstruction. The bucket array doubles past a load
//! of 3/4; every allocation is reserved in the engine's [`Budget`] first.
//!
//! Accounting: `used` = 8 bytes per stored pair; `alloc` = the bucket array.
//!
//! Owns only the pairs; it must not know vectors, events or the search.

use crate::budget::Budget;
use crate::visited::TableFull;
use pins::Value;
use xxhash_rust::xxh3::xxh3_64;

const EMPTY: u64 = 0;
const INITIAL_BUCKETS: usize = 1 << 12;

/// Signature → ids multiset; see the module documentation.
pub struct StateTable {
    signature_bits: u32,
    buckets: Vec<u64>,
    /// log2 of the bucket count.
    bits: u32,
    len: u64,
    budget: Budget,
}

impl StateTable {
    /// An empty table of `signature_bits`-bit signatures (1..=32).
    pub fn new(signature_bits: u32, budget: Budget) -> Result<Self, TableFull> {
        assert!((1..=32).contains(&signature_bits));
        budget.reserve(INITIAL_BUCKETS as u64 * 8, "comback state table")?;
        Ok(StateTable {
            signature_bits,
            buckets: vec![EMPTY; INITIAL_BUCKETS],
            bits: INITIAL_BUCKETS.trailing_zeros(),
            len: 0,
            budget,
        })
    }

    /// The signature of `state`: the top `signature_bits` bits of its
    /// 64-bit xxh3 hash.
    pub fn signature(&self, state: &[Value]) -> u32 {
        (xxh3_64(bytemuck::cast_slice(state)) >> (64 - self.signature_bits)) as u32
    }

    fn home(&self, signature: u32) -> usize {
        let mixed = (signature as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (mixed >> (64 - self.bits)) as usize
    }

    fn mask(&self) -> usize {
        self.buckets.len() - 1
    }

    /// Whether some stored state has `signature`.
    pub fn contains(&self, signature: u32) -> bool {
        let mut i = self.home(signature);
        loop {
            let b = self.buckets[i];
            if b == EMPTY {
                return false;
            }
            if (b >> 32) as u32 == signature {
                return true;
            }
            i = (i + 1) & self.mask();
        }
    }

    /// Replaces `out` with the ids of the stored states with `signature`,
    /// in increasing order (the order they were stored in).
    pub fn mates(&self, signature: u32, out: &mut Vec<u32>) {
        out.clear();
        let mut i = self.home(signature);
        loop {
            let b = self.buckets[i];
            if b == EMPTY {
                break;
            }
            if (b >> 32) as u32 == signature {
                out.push((b as u32) - 1);
            }
            i = (i + 1) & self.mask();
        }
        out.sort_unstable();
    }

    /// Stores the pair (`signature`, `id`); `id` < 2^32 − 1.
    pub fn insert(&mut self, signature: u32, id: u32) -> Result<(), TableFull> {
        debug_assert!(id < u32::MAX);
        if (self.len + 1) * 4 > self.buckets.len() as u64 * 3 {
            self.grow()?;
        }
        self.place(((signature as u64) << 32) | (id as u64 + 1));
        self.len += 1;
        Ok(())
    }

    fn place(&mut self, entry: u64) {
        let mut i = self.home((entry >> 32) as u32);
        while self.buckets[i] != EMPTY {
            i = (i + 1) & self.mask();
        }
        self.buckets[i] = entry;
    }

    fn grow(&mut self) -> Result<(), TableFull> {
        let n = self.buckets.len() * 2;
        self.budget
            .reserve(n as u64 * 8, "comback state table")
            .map_err(|e| TableFull {
                message: format!("{}; {} states stored", e.message, self.len),
            })?;
        let old = std::mem::replace(&mut self.buckets, vec![EMPTY; n]);
        self.bits += 1;
        for e in old.iter().copied().filter(|&e| e != EMPTY) {
            self.place(e);
        }
        self.budget.release(old.len() as u64 * 8);
        Ok(())
    }

    /// Stored pairs.
    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn used_bytes(&self) -> u64 {
        self.len * 8
    }

    pub fn alloc_bytes(&self) -> u64 {
        self.buckets.len() as u64 * 8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mates_are_every_id_of_a_signature_in_id_order_across_growth() {
        for bits in [1u32, 4, 32] {
            let mut t = StateTable::new(bits, Budget::unlimited()).unwrap();
            // Few signature bits make every probe run long: fewer states.
            let n = if bits < 8 { 3_000u32 } else { 20_000 };
            let sig = |i: u32| {
                (i.wrapping_mul(2_654_435_761) >> (32 - bits)) & ((1u64 << bits) - 1) as u32
            };
            for i in 0..n {
                t.insert(sig(i), i).unwrap();
            }
            assert_eq!(t.len(), n as u64);
            let mut out = Vec::new();
            let mut seen = 0;
            let distinct: std::collections::BTreeSet<u32> = (0..n).map(sig).collect();
            for s in distinct {
                assert!(t.contains(s));
                t.mates(s, &mut out);
                let expect: Vec<u32> = (0..n).filter(|&i| sig(i) == s).collect();
                assert_eq!(out, expect, "bits {bits} signature {s}");
                seen += out.len();
            }
            assert_eq!(seen, n as usize);
            assert!(t.used_bytes() <= t.alloc_bytes());
        }
    }

    #[test]
    fn growth_past_the_budget_is_table_full() {
        let mut t = StateTable::new(32, Budget::new(INITIAL_BUCKETS as u64 * 8 * 2)).unwrap();
        let r = (0..1_000_000u32).try_for_each(|i| t.insert(i, i));
        assert!(r.unwrap_err().message.contains("comback state table"));
    }
}
