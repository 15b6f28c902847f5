//! The LDD's operation cache: (operation word, operands word) → result
//! id, direct-mapped and lossy as Sylvan's (a colliding entry replaces
//! the older one), slot from the top bits of the project's
//! [`hash_words`] of the key's four words.
//!
//! It grows with the diagram instead of starting at its largest: one
//! entry per node in use, from 2¹⁶ entries up to the most the store
//! allows (Sylvan sizes its cache to the node table; issue 36: at 2²⁴
//! entries of 24 bytes from the start, a 260 K-state net probed 400 MB
//! at random and the probes were 45% of its time, a miss of the page
//! table and of the memory cache each). Growth re-places the entries
//! that fit.
//!
//! Owns the entries only; it must not know what an operation means nor
//! which ids are live (the caller says, [`OpCache::retain`]).

use super::Id;
use crate::blocks::word_hash::hash_words;

/// An entry: (operation word, operands word, result); operation word 0
/// is a vacant entry.
type Entry = (u64, u64, Id);

/// Entries of a fresh cache.
const MIN_ENTRIES: usize = 1 << 16;

/// The cache; see the module documentation.
pub struct OpCache {
    entries: Vec<Entry>,
    /// log2 of the entry count.
    bits: u32,
    /// The most entries it grows to (a power of two).
    max: usize,
}

impl OpCache {
    /// An empty cache that grows to at most `max` entries (rounded to a
    /// power of two, at least [`MIN_ENTRIES`]).
    pub fn new(max: usize) -> OpCache {
        let max = max.max(MIN_ENTRIES).next_power_of_two();
        OpCache {
            entries: vec![(0, 0, 0); MIN_ENTRIES],
            bits: MIN_ENTRIES.trailing_zeros(),
            max,
        }
    }

    /// The slot of key `(op, ab)`.
    #[inline]
    fn slot(&self, op: u64, ab: u64) -> usize {
        let h = hash_words(&[op as u32, (op >> 32) as u32, ab as u32, (ab >> 32) as u32]);
        (h >> (64 - self.bits)) as usize
    }

    /// The result cached for `(op, ab)` (`op` nonzero).
    #[inline]
    pub fn get(&self, op: u64, ab: u64) -> Option<Id> {
        let e = self.entries[self.slot(op, ab)];
        (e.0 == op && e.1 == ab).then_some(e.2)
    }

    /// Caches `id` for `(op, ab)` (`op` nonzero).
    #[inline]
    pub fn put(&mut self, op: u64, ab: u64, id: Id) {
        let i = self.slot(op, ab);
        self.entries[i] = (op, ab, id);
    }

    /// Doubles the cache while it has fewer entries than `nodes` (nodes
    /// in use) and may grow.
    pub fn fit(&mut self, nodes: usize) {
        if nodes <= self.entries.len() || self.entries.len() >= self.max {
            return;
        }
        let n = nodes.next_power_of_two().min(self.max);
        let old = std::mem::replace(&mut self.entries, vec![(0, 0, 0); n]);
        self.bits = n.trailing_zeros();
        for e in old.into_iter().filter(|e| e.0 != 0) {
            let i = self.slot(e.0, e.1);
            self.entries[i] = e;
        }
    }

    /// Entries it holds now.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.entries.len()
    }

    /// Empties the entries for which `keep(operands word, result)` fails.
    pub fn retain(&mut self, keep: impl Fn(u64, Id) -> bool) {
        for e in &mut self.entries {
            if e.0 != 0 && !keep(e.1, e.2) {
                *e = (0, 0, 0);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn growth_keeps_what_fits_and_never_answers_another_key() {
        let mut c = OpCache::new(1 << 20);
        let key = |i: u64| (1 + (i % 3), i);
        for i in 0..50_000u64 {
            let (op, ab) = key(i);
            c.put(op, ab, i as Id);
        }
        let held = |c: &OpCache| (0..50_000u64).filter(|&i| c.get(key(i).0, key(i).1).is_some()).count();
        let before = held(&c);
        c.fit(300_000);
        assert_eq!(c.len(), 1 << 19);
        // Every entry moves to its new slot; none is lost where no other
        // entry takes its place (twice the slots: collisions only drop).
        assert_eq!(held(&c), before);
        for i in 0..50_000u64 {
            let (op, ab) = key(i);
            assert!(c.get(op, ab).is_none_or(|x| x == i as Id));
        }
        c.fit(1 << 30);
        assert_eq!(c.len(), 1 << 20, "never past its most");
        c.retain(|ab, _| ab % 2 == 0);
        assert!((0..50_000u64).all(|i| i % 2 == 0 || c.get(key(i).0, key(i).1).is_none()));
    }
}
