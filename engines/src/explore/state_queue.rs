//! A FIFO of fixed-length state vectors in fixed-size blocks (the
//! explorer's open set). Vectors are copied in once and out once: the
//! queue never moves what it holds (a flat buffer compacted as its head
//! advances moved half of it each time, 5% of the instructions of a
//! Promela search), and a block is given back once read, keeping one spare
//! so that a queue that fills and drains does not allocate. Owns only the
//! blocks; knows nothing of engines or models.

use pins::Value;
use std::collections::VecDeque;

/// Values a block holds at least (64 KiB), rounded to whole vectors.
const BLOCK_VALUES: usize = 1 << 14;

/// FIFO of vectors of length `k`, stored back to back in blocks.
pub struct StateQueue {
    k: usize,
    /// Values of a block (a multiple of `k`, at least one vector).
    block: usize,
    blocks: VecDeque<Box<[Value]>>,
    /// A block read to the end, kept for the next one needed.
    spare: Option<Box<[Value]>>,
    /// Where the oldest vector starts in the first block.
    head: usize,
    /// Where the next vector goes in the last block.
    tail: usize,
    len: usize,
}

impl StateQueue {
    pub fn new(k: usize) -> Self {
        StateQueue {
            k,
            block: k * (BLOCK_VALUES / k.max(1)).max(1),
            blocks: VecDeque::new(),
            spare: None,
            head: 0,
            tail: 0,
            len: 0,
        }
    }

    pub fn push(&mut self, state: &[Value]) {
        debug_assert_eq!(state.len(), self.k);
        self.slot().copy_from_slice(state);
    }

    /// Pushes one entry given as two parts (a state vector and its side
    /// data) whose lengths add up to the queue's entry length.
    pub fn push_parts(&mut self, state: &[Value], side: &[u32]) {
        debug_assert_eq!(state.len() + side.len(), self.k);
        let (a, b) = self.slot().split_at_mut(state.len());
        a.copy_from_slice(state);
        b.copy_from_slice(side);
    }

    /// The room for one more vector at the end, counted as pushed.
    fn slot(&mut self) -> &mut [Value] {
        if self.blocks.is_empty() || self.tail == self.block {
            let fresh = self.spare.take();
            let block = fresh.unwrap_or_else(|| vec![0; self.block].into_boxed_slice());
            self.blocks.push_back(block);
            self.tail = 0;
        }
        let at = self.tail;
        self.tail += self.k;
        self.len += 1;
        let last = self.blocks.back_mut().expect("a block was just ensured");
        &mut last[at..at + self.k]
    }

    /// Moves the oldest vector into `out`; false when empty.
    pub fn pop_into(&mut self, out: &mut Vec<Value>) -> bool {
        if self.len == 0 {
            return false;
        }
        out.clear();
        out.extend_from_slice(self.oldest());
        self.consume();
        true
    }

    /// Copies the oldest vector into `out` (of length `k`) and drops it;
    /// false when empty.
    pub fn pop_to(&mut self, out: &mut [Value]) -> bool {
        if self.len == 0 {
            return false;
        }
        out.copy_from_slice(self.oldest());
        self.consume();
        true
    }

    /// The oldest vector (the queue is not empty).
    fn oldest(&self) -> &[Value] {
        &self.blocks[0][self.head..self.head + self.k]
    }

    /// Drops the oldest vector; a block read to the end becomes the spare
    /// (the last block too, once the queue is empty).
    fn consume(&mut self) {
        self.head += self.k;
        self.len -= 1;
        let last = self.blocks.len() == 1;
        if self.head == self.block || (last && self.len == 0) {
            self.spare = self.blocks.pop_front();
            self.head = 0;
            if last {
                self.tail = 0;
            }
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes allocated by the blocks (the spare included).
    pub fn bytes(&self) -> u64 {
        let held = self.blocks.len() + usize::from(self.spare.is_some());
        (held * self.block) as u64 * 4
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fifo_order_across_blocks() {
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
    fn blocks_are_reused_and_parts_kept_in_order() {
        // vectors wider than a block's minimum: one vector per block
        let k = BLOCK_VALUES + 3;
        let mut q = StateQueue::new(k);
        let mut out = Vec::new();
        for round in 0..3u32 {
            for i in 0..4u32 {
                let state = vec![round * 10 + i; k - 1];
                q.push_parts(&state, &[i]);
            }
            for i in 0..4u32 {
                assert!(q.pop_into(&mut out));
                assert_eq!(out.len(), k);
                assert_eq!((out[0], out[k - 1]), (round * 10 + i, i));
            }
            assert!(q.is_empty() && !q.pop_into(&mut out));
        }
        // drained: one block kept as the spare
        assert_eq!(q.bytes(), k as u64 * 4);
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
