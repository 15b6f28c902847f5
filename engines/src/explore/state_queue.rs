//! A FIFO of fixed-length state vectors in one flat buffer (the explorer's
//! open set). Owns only the buffer; knows nothing of engines or models.

use pins::Value;

/// FIFO of vectors of length `k`, stored back to back.
pub struct StateQueue {
    k: usize,
    buf: Vec<Value>,
    head: usize,
    len: usize,
}

impl StateQueue {
    pub fn new(k: usize) -> Self {
        StateQueue {
            k,
            buf: Vec::new(),
            head: 0,
            len: 0,
        }
    }

    pub fn push(&mut self, state: &[Value]) {
        debug_assert_eq!(state.len(), self.k);
        self.buf.extend_from_slice(state);
        self.len += 1;
    }

    /// Pushes one entry given as two parts (a state vector and its side
    /// data) whose lengths add up to the queue's entry length.
    pub fn push_parts(&mut self, state: &[Value], side: &[u32]) {
        debug_assert_eq!(state.len() + side.len(), self.k);
        self.buf.extend_from_slice(state);
        self.buf.extend_from_slice(side);
        self.len += 1;
    }

    /// Moves the oldest vector into `out`; false when empty.
    pub fn pop_into(&mut self, out: &mut Vec<Value>) -> bool {
        if self.len == 0 {
            return false;
        }
        out.clear();
        out.extend_from_slice(&self.buf[self.head..self.head + self.k]);
        self.consume();
        true
    }

    /// Copies the oldest vector into `out` (of length `k`) and drops it;
    /// false when empty.
    pub fn pop_to(&mut self, out: &mut [Value]) -> bool {
        if self.len == 0 {
            return false;
        }
        out.copy_from_slice(&self.buf[self.head..self.head + self.k]);
        self.consume();
        true
    }

    /// Drops the oldest vector.
    fn consume(&mut self) {
        self.head += self.k;
        self.len -= 1;
        // Reclaim the consumed prefix once it is the larger half.
        if self.head >= 1 << 16 && self.head * 2 >= self.buf.len() {
            self.buf.drain(..self.head);
            self.head = 0;
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes allocated by the buffer.
    pub fn bytes(&self) -> u64 {
        self.buf.capacity() as u64 * 4
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fifo_order_survives_compaction() {
        let mut q = StateQueue::new(2);
        let mut out = Vec::new();
        let mut next_expected = 0u32;
        for i in 0..200_000u32 {
            q.push(&[i, i + 1]);
            if i % 3 == 0 {
                assert!(q.pop_into(&mut out));
                assert_eq!(out, [next_expected, next_expected + 1]);
                next_expected += 1;
            }
        }
        while q.pop_into(&mut out) {
            assert_eq!(out, [next_expected, next_expected + 1]);
            next_expected += 1;
        }
        assert_eq!(next_expected, 200_000);
    }

    #[test]
    fn zero_length_vectors_are_counted() {
        let mut q = StateQueue::new(0);
        q.push(&[]);
        q.push(&[]);
        let mut out = vec![7];
        assert!(q.pop_into(&mut out));
        assert!(out.is_empty());
        assert!(q.pop_into(&mut out));
        assert!(!q.pop_into(&mut out));
    }
}
