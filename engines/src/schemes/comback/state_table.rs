//! ComBack's state table: the multiset of (hash signature, state id) pairs.
//!
//! Layout: open addressing over 2^b buckets packed at their real width
//! ([`PackedVec`]): each bucket is empty (0) or `signature << b | (id + 1)`,
//! `signature_bits + b` bits. The id field has `b` bits because the table
//! holds every stored state and stays at most 3/4 full, so `id + 1` is at
//! most the number of states, below 2^b; it widens with the table. Linear
//! probing from a home bucket that depends on the signature only (so that
//! every stored state with a signature lies in the probe run of that
//! signature, however few bits it has). Several ids may share a signature:
//! that is a hash collision, which ComBack resolves by reconstruction. The
//! bucket array doubles past a load of 3/4; every allocation is reserved in
//! the engine's [`Budget`] first.
//!
//! Accounting: `used` = `signature_bits + b` bits per stored pair (rounded
//! up to whole bytes once for the table); `alloc` = the packed bucket array.
//!
//! Owns only the pairs; it must not know vectors, events or the search.

use super::packed::PackedVec;
use crate::blocks::budget::Budget;
use crate::visited::TableFull;
use pins::Value;
use xxhash_rust::xxh3::xxh3_64;

const WHO: &str = "comback state table";
const INITIAL_BITS: u32 = 12;

/// Signature → ids multiset; see the module documentation.
pub struct StateTable {
    signature_bits: u32,
    buckets: PackedVec,
    /// log2 of the bucket count: the width of the id field.
    bits: u32,
    len: u64,
    budget: Budget,
}

impl StateTable {
    /// An empty table of `signature_bits`-bit signatures (1..=32).
    pub fn new(signature_bits: u32, budget: Budget) -> Result<Self, TableFull> {
        assert!((1..=32).contains(&signature_bits));
        Ok(StateTable {
            signature_bits,
            buckets: PackedVec::zeroed(
                signature_bits + INITIAL_BITS,
                1 << INITIAL_BITS,
                budget.clone(),
                WHO,
            )?,
            bits: INITIAL_BITS,
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
        (1usize << self.bits) - 1
    }

    fn split(&self, bucket: u64) -> (u32, u32) {
        (
            (bucket >> self.bits) as u32,
            (bucket & ((1u64 << self.bits) - 1)) as u32,
        )
    }

    /// Whether some stored state has `signature`.
    pub fn contains(&self, signature: u32) -> bool {
        let mut i = self.home(signature);
        loop {
            let b = self.buckets.get(i);
            if b == 0 {
                return false;
            }
            if self.split(b).0 == signature {
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
            let b = self.buckets.get(i);
            if b == 0 {
                break;
            }
            let (s, id1) = self.split(b);
            if s == signature {
                out.push(id1 - 1);
            }
            i = (i + 1) & self.mask();
        }
        out.sort_unstable();
    }

    /// Stores the pair (`signature`, `id`); `id` must be the number of
    /// pairs stored before (ids are given in order).
    pub fn insert(&mut self, signature: u32, id: u32) -> Result<(), TableFull> {
        debug_assert_eq!(id as u64, self.len);
        if (self.len + 1) * 4 > (1u64 << self.bits) * 3 {
            self.grow()?;
        }
        self.place(signature, id + 1);
        self.len += 1;
        Ok(())
    }

    fn place(&mut self, signature: u32, id1: u32) {
        let mut i = self.home(signature);
        while self.buckets.get(i) != 0 {
            i = (i + 1) & self.mask();
        }
        let entry = ((signature as u64) << self.bits) | id1 as u64;
        self.buckets
            .set(i, entry)
            .expect("an entry fits its bucket");
    }

    fn grow(&mut self) -> Result<(), TableFull> {
        if self.bits >= 32 {
            return Err(TableFull::new(format!(
                "comback: {} states, the limit of 32-bit state ids",
                self.len
            )));
        }
        let bits = self.bits + 1;
        let wider = PackedVec::zeroed(
            self.signature_bits + bits,
            1 << bits,
            self.budget.clone(),
            WHO,
        )
        .map_err(|e| TableFull {
            message: format!("{}; {} states stored", e.message, self.len),
        })?;
        let old = std::mem::replace(&mut self.buckets, wider);
        let old_bits = std::mem::replace(&mut self.bits, bits);
        for i in 0..old.len() {
            let b = old.get(i);
            if b != 0 {
                self.place(
                    (b >> old_bits) as u32,
                    (b & ((1u64 << old_bits) - 1)) as u32,
                );
            }
        }
        Ok(())
    }

    /// Stored pairs.
    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bits of one pair: the signature and the id field.
    pub fn entry_bits(&self) -> u32 {
        self.signature_bits + self.bits
    }

    pub fn used_bytes(&self) -> u64 {
        (self.len * self.entry_bits() as u64).div_ceil(8)
    }

    pub fn alloc_bytes(&self) -> u64 {
        self.buckets.alloc_bytes()
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
    fn a_pair_takes_the_signature_and_id_widths() {
        let n = 100_000u32;
        let table = |bits: u32| {
            let mut t = StateTable::new(bits, Budget::unlimited()).unwrap();
            for i in 0..n {
                t.insert(i.wrapping_mul(2_654_435_761) >> (32 - bits), i)
                    .unwrap();
            }
            t
        };
        let (wide, narrow) = (table(32), table(8));
        // 100 000 states at most 3/4 of the buckets: 2^18 buckets, an
        // 18-bit id field.
        assert_eq!((wide.entry_bits(), narrow.entry_bits()), (32 + 18, 8 + 18));
        assert_eq!(wide.used_bytes(), (n as u64 * 50).div_ceil(8));
        assert_eq!(narrow.used_bytes(), (n as u64 * 26).div_ceil(8));
        assert_eq!(narrow.alloc_bytes(), (1u64 << 18) * 26 / 8);
    }

    #[test]
    fn growth_past_the_budget_is_table_full() {
        let mut t = StateTable::new(32, Budget::new((1 << INITIAL_BITS) * 8 * 2)).unwrap();
        let r = (0..1_000_000u32).try_for_each(|i| t.insert(i, i));
        assert!(r.unwrap_err().message.contains("comback state table"));
    }
}
