//! The successors of the state being expanded, held back with the hashes
//! their visited set gave while prefetching their buckets
//! ([`VisitedSet::prefetch`]): the explorer generates every successor
//! first, then looks them up in order, so the lookups' cache misses
//! overlap one another and the successor function instead of following
//! one by one.
//!
//! Owns only the held vectors and hashes; it must not know the search
//! order nor any storage scheme.

use pins::Value;

/// Vectors of `k` slots, each with the hash its set's prefetch gave.
pub(crate) struct SuccessorBatch {
    k: usize,
    values: Vec<Value>,
    hashes: Vec<Option<u64>>,
}

impl SuccessorBatch {
    /// An empty batch of `k`-slot vectors.
    pub(crate) fn new(k: usize) -> Self {
        SuccessorBatch {
            k,
            values: Vec::new(),
            hashes: Vec::new(),
        }
    }

    /// Forgets the vectors held (keeps the room).
    pub(crate) fn clear(&mut self) {
        self.values.clear();
        self.hashes.clear();
    }

    /// Holds `state` (of `k` slots) with its `hash`.
    #[inline]
    pub(crate) fn push(&mut self, state: &[Value], hash: Option<u64>) {
        debug_assert_eq!(state.len(), self.k);
        self.values.extend_from_slice(state);
        self.hashes.push(hash);
    }

    /// Vectors held.
    pub(crate) fn len(&self) -> usize {
        self.hashes.len()
    }

    /// The `i`-th vector held, with its hash.
    #[inline]
    pub(crate) fn get(&self, i: usize) -> (&[Value], Option<u64>) {
        (&self.values[i * self.k..(i + 1) * self.k], self.hashes[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gives_back_what_was_pushed_in_order_until_cleared() {
        let mut batch = SuccessorBatch::new(3);
        batch.push(&[1, 2, 3], Some(7));
        batch.push(&[4, 5, 6], None);
        assert_eq!(batch.len(), 2);
        assert_eq!(batch.get(0), (&[1, 2, 3][..], Some(7)));
        assert_eq!(batch.get(1), (&[4, 5, 6][..], None));
        batch.clear();
        assert_eq!(batch.len(), 0);
        batch.push(&[9, 9, 9], Some(1));
        assert_eq!(batch.get(0), (&[9, 9, 9][..], Some(1)));
    }

    #[test]
    fn empty_vectors_are_counted() {
        let mut batch = SuccessorBatch::new(0);
        batch.push(&[], Some(3));
        batch.push(&[], Some(4));
        assert_eq!(batch.len(), 2);
        assert_eq!(batch.get(1), (&[][..], Some(4)));
    }
}
