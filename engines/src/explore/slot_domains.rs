//! The values each slot took over the stored states: the slot domains
//! actually seen, from which the report derives the largest slot value
//! (`u`, the locality bound's input) and the size of the model's vector
//! universe `U = ∏ d_i` (`d_i` = distinct values of slot `i`), the input of
//! the combinatorial bound `log2 C(U, n) / n` (harness `schema.rs`).
//!
//! Owns only the per-slot value sets; the explorers call [`SlotDomains::observe`]
//! once per *new* state (never per successor), so the cost is `k` bit
//! operations per stored state. Values below [`DENSE_LIMIT`] live in a
//! bitset, larger ones (rare: big token counts, interned data values) in a
//! hash set, so the count is exact for every value. Must not know engines
//! or models.

use pins::Value;
use std::collections::HashSet;

/// Values below this are kept in a slot's bitset (at most 8 KiB a slot).
pub const DENSE_LIMIT: Value = 1 << 16;

/// Slots compared at once by [`SlotDomains::observe_successor`].
const BLOCK: usize = 4;

/// The distinct values seen per slot.
#[derive(Clone, Debug, Default)]
pub struct SlotDomains {
    dense: Vec<Vec<u64>>,
    sparse: Vec<HashSet<Value>>,
    /// Bitwise OR of every value seen (its bit length is `u`).
    value_or: Value,
}

impl SlotDomains {
    /// Empty domains for vectors of `k` slots.
    pub fn new(k: usize) -> Self {
        SlotDomains {
            dense: vec![Vec::new(); k],
            sparse: vec![HashSet::new(); k],
            value_or: 0,
        }
    }

    /// Records the values of one stored state.
    #[inline]
    pub fn observe(&mut self, state: &[Value]) {
        for (slot, &v) in state.iter().enumerate() {
            self.insert(slot, v);
        }
    }

    /// Records a stored successor of an already observed state: only the
    /// slots that differ from `pred` can hold a new value (a successor
    /// usually changes few slots). The vectors are compared
    /// [`BLOCK`] slots at a time without branches, and only a block that
    /// differs is looked at slot by slot.
    #[inline]
    pub fn observe_successor(&mut self, state: &[Value], pred: &[Value]) {
        let n = state.len().min(pred.len());
        let (state, pred) = (&state[..n], &pred[..n]);
        let blocks = state.chunks_exact(BLOCK).zip(pred.chunks_exact(BLOCK));
        for (b, (s, p)) in blocks.enumerate() {
            let differ = s.iter().zip(p).fold(0, |acc, (v, q)| acc | (v ^ q));
            if differ != 0 {
                self.observe_changed(b * BLOCK, s, p);
            }
        }
        let tail = n - n % BLOCK;
        self.observe_changed(tail, &state[tail..], &pred[tail..]);
    }

    /// Records the slots of `state` (starting at slot `first`) that differ
    /// from `pred`.
    fn observe_changed(&mut self, first: usize, state: &[Value], pred: &[Value]) {
        for (slot, (&v, &p)) in state.iter().zip(pred).enumerate() {
            if v != p {
                self.insert(first + slot, v);
            }
        }
    }

    #[inline]
    fn insert(&mut self, slot: usize, v: Value) {
        self.value_or |= v;
        if v < DENSE_LIMIT {
            let bits = &mut self.dense[slot];
            let word = (v >> 6) as usize;
            if word >= bits.len() {
                bits.resize(word + 1, 0);
            }
            bits[word] |= 1 << (v & 63);
        } else {
            self.sparse[slot].insert(v);
        }
    }

    /// Adds another worker's domains (same `k`).
    pub fn merge(&mut self, other: &SlotDomains) {
        self.value_or |= other.value_or;
        for (mine, theirs) in self.dense.iter_mut().zip(&other.dense) {
            if mine.len() < theirs.len() {
                mine.resize(theirs.len(), 0);
            }
            mine.iter_mut().zip(theirs).for_each(|(a, b)| *a |= b);
        }
        for (mine, theirs) in self.sparse.iter_mut().zip(&other.sparse) {
            mine.extend(theirs);
        }
    }

    /// Bits of the largest value any slot took (`u`; 0 when all are 0).
    pub fn max_slot_bits(&self) -> u32 {
        Value::BITS - self.value_or.leading_zeros()
    }

    /// Distinct values of each slot.
    pub fn sizes(&self) -> Vec<u64> {
        self.dense
            .iter()
            .zip(&self.sparse)
            .map(|(bits, sparse)| {
                bits.iter().map(|w| u64::from(w.count_ones())).sum::<u64>() + sparse.len() as u64
            })
            .collect()
    }

    /// `log2 U`, the universe being every combination of the values seen in
    /// each slot; `None` before any state was observed.
    pub fn universe_log2(&self) -> Option<f64> {
        let sizes = self.sizes();
        if sizes.contains(&0) {
            return None;
        }
        Some(sizes.iter().map(|&d| (d as f64).log2()).sum())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_distinct_values_per_slot_dense_and_sparse() {
        let mut d = SlotDomains::new(3);
        assert_eq!(d.universe_log2(), None);
        d.observe(&[0, 5, DENSE_LIMIT + 7]);
        d.observe(&[0, 6, DENSE_LIMIT + 7]);
        d.observe(&[1, 5, 3]);
        assert_eq!(d.sizes(), vec![2, 2, 2]);
        assert_eq!(d.universe_log2(), Some(3.0));
        assert_eq!(d.max_slot_bits(), 17);
        let mut other = SlotDomains::new(3);
        other.observe(&[2, 5, 3]);
        other.observe_successor(&[2, 5, u32::MAX], &[2, 5, 3]);
        d.merge(&other);
        assert_eq!(d.sizes(), vec![3, 2, 3]);
        assert_eq!(d.max_slot_bits(), 32);
    }

    #[test]
    fn successors_record_what_whole_observation_records() {
        // 11 slots: two whole blocks and a tail; changes in each
        let pred: Vec<Value> = (0..11).collect();
        let succs = [
            (0, 40),
            (3, 41),
            (4, 42),
            (7, 43),
            (8, 44),
            (10, DENSE_LIMIT),
        ];
        let (mut whole, mut by_diff) = (SlotDomains::new(11), SlotDomains::new(11));
        whole.observe(&pred);
        by_diff.observe(&pred);
        let mut s = pred.clone();
        for &(slot, v) in &succs {
            s[slot] = v;
            whole.observe(&s);
            by_diff.observe_successor(&s, &pred);
            by_diff.observe_successor(&s, &s); // unchanged: nothing new
        }
        assert_eq!(by_diff.sizes(), whole.sizes());
        assert_eq!(by_diff.max_slot_bits(), whole.max_slot_bits());
    }
}
