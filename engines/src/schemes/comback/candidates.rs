//! ComBack's candidate set (delayed duplicate detection): the distinct
//! full vectors that got a MAYBE answer since the last duplicate
//! detection, each with the back-edge it would be stored with (the
//! predecessor id and event of its first arrival), its signature, how many
//! MAYBE answers it got, and the stored id found equal to it (if any).
//!
//! Layout: entries in arrival order (vectors back to back, metadata in a
//! parallel array) and an open-addressing index of `u32` buckets (entry + 1,
//! 0 = empty; linear probing from an xxh3 hash) that the set keeps at most
//! half full. Every growth is reserved in the engine's [`Budget`] first.
//!
//! Accounting: `used` = per entry `4k` bytes of vector, 24 bytes of
//! metadata and one 4-byte bucket; `alloc` = the capacities.
//!
//! Owns only the set; it must not know the model or the stored states.

use super::back_edges::NONE;
use super::{capacity_bytes, grow_for};
use crate::blocks::budget::Budget;
use crate::visited::TableFull;
use pins::Value;
use xxhash_rust::xxh3::xxh3_64;

/// What the set keeps with each vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// Back-edge of the first arrival.
    pub pred: u32,
    pub event: u32,
    pub signature: u32,
    /// The stored id equal to this vector, `NONE` until one is found.
    pub matched: u32,
    /// MAYBE answers this vector got.
    pub answers: u64,
}

/// The candidate set; see the module documentation.
pub struct Candidates {
    k: usize,
    capacity: usize,
    vectors: Vec<Value>,
    meta: Vec<Candidate>,
    index: Vec<u32>,
    budget: Budget,
}

const WHO: &str = "comback candidate set";

impl Candidates {
    /// An empty set of `k`-slot vectors that is full at `capacity` entries.
    pub fn new(k: usize, capacity: usize, budget: Budget) -> Result<Self, TableFull> {
        let mut c = Candidates {
            k,
            capacity,
            vectors: Vec::new(),
            meta: Vec::new(),
            index: Vec::new(),
            budget,
        };
        c.resize_index(16)?;
        Ok(c)
    }

    fn resize_index(&mut self, buckets: usize) -> Result<(), TableFull> {
        let old = self.index.len() as u64 * 4;
        self.budget.reserve(buckets as u64 * 4, WHO)?;
        self.index = vec![0; buckets];
        self.budget.release(old);
        for i in 0..self.meta.len() {
            let slot = self.free_slot(self.vector(i));
            self.index[slot] = i as u32 + 1;
        }
        Ok(())
    }

    fn home(&self, v: &[Value]) -> usize {
        (xxh3_64(bytemuck::cast_slice(v)) as usize) & (self.index.len() - 1)
    }

    fn free_slot(&self, v: &[Value]) -> usize {
        let mut i = self.home(v);
        while self.index[i] != 0 {
            i = (i + 1) & (self.index.len() - 1);
        }
        i
    }

    /// The entry holding `v`, if any.
    pub fn find(&self, v: &[Value]) -> Option<usize> {
        let mut i = self.home(v);
        loop {
            let b = self.index[i];
            if b == 0 {
                return None;
            }
            if self.vector(b as usize - 1) == v {
                return Some(b as usize - 1);
            }
            i = (i + 1) & (self.index.len() - 1);
        }
    }

    /// Records a MAYBE answer for `v`: a new entry with this back-edge, or
    /// one more answer for the entry already holding `v`.
    pub fn insert(
        &mut self,
        v: &[Value],
        signature: u32,
        pred: u32,
        event: u32,
    ) -> Result<(), TableFull> {
        debug_assert_eq!(v.len(), self.k);
        if let Some(e) = self.find(v) {
            self.meta[e].answers += 1;
            return Ok(());
        }
        if (self.meta.len() + 1) * 2 > self.index.len() {
            self.resize_index(self.index.len() * 2)?;
        }
        grow_for(&mut self.vectors, self.k, &self.budget, WHO)?;
        grow_for(&mut self.meta, 1, &self.budget, WHO)?;
        let slot = self.free_slot(v);
        self.index[slot] = self.meta.len() as u32 + 1;
        self.vectors.extend_from_slice(v);
        self.meta.push(Candidate {
            pred,
            event,
            signature,
            matched: NONE,
            answers: 1,
        });
        Ok(())
    }

    /// Distinct vectors held.
    pub fn len(&self) -> usize {
        self.meta.len()
    }

    pub fn is_empty(&self) -> bool {
        self.meta.is_empty()
    }

    /// Whether the set holds its capacity.
    pub fn is_full(&self) -> bool {
        self.meta.len() >= self.capacity
    }

    pub fn vector(&self, entry: usize) -> &[Value] {
        &self.vectors[entry * self.k..(entry + 1) * self.k]
    }

    pub fn get(&self, entry: usize) -> &Candidate {
        &self.meta[entry]
    }

    pub fn set_matched(&mut self, entry: usize, id: u32) {
        self.meta[entry].matched = id;
    }

    /// Empties the set (keeping its allocations).
    pub fn clear(&mut self) {
        self.vectors.clear();
        self.meta.clear();
        self.index.fill(0);
    }

    pub fn used_bytes(&self) -> u64 {
        self.meta.len() as u64 * (4 * self.k as u64 + 24 + 4)
    }

    pub fn alloc_bytes(&self) -> u64 {
        capacity_bytes(&self.vectors) + capacity_bytes(&self.meta) + capacity_bytes(&self.index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_distinct_and_count_their_answers() {
        let mut c = Candidates::new(3, 100, Budget::unlimited()).unwrap();
        for round in 0..3u32 {
            for i in 0..100u32 {
                c.insert(&[i, i % 7, 0], i % 5, i, round).unwrap();
            }
        }
        assert_eq!(c.len(), 100);
        assert!(c.is_full());
        for i in 0..100u32 {
            let e = c.find(&[i, i % 7, 0]).unwrap();
            assert_eq!(e, i as usize, "arrival order");
            let m = c.get(e);
            assert_eq!((m.pred, m.event, m.signature, m.answers), (i, 0, i % 5, 3));
        }
        assert_eq!(c.find(&[1, 2, 3]), None);
        assert!(c.used_bytes() <= c.alloc_bytes());
        c.clear();
        assert!(c.is_empty() && c.find(&[0, 0, 0]).is_none());
    }
}
