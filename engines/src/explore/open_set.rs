//! The sequential explorer's open set (its breadth-first queue) in one of
//! two forms: full vectors with their side data, or, for a visited set
//! that gives a stored state back from its reference
//! ([`VisitedSet::recall`]: the trees rebuild the vector from the root
//! tuple, the hash table copies its stored vector), only the states'
//! references, two words each however long the vector (as LTSmin's tree
//! search queues tree indices). The reference form trades a top-down walk
//! of the tree (or a copy from the table) per expanded state for a queue
//! `(k + side words) / 2` times smaller.
//!
//! Owns the choice of form ([`QueueMode`], parameter `queue`) and the
//! conversion between queue entries and states; the FIFO itself is
//! [`StateQueue`]'s. Knows no storage scheme.

use crate::explore::state_queue::StateQueue;
use crate::registry::words;
use crate::visited::VisitedSet;
use pins::Value;

words! {
    /// What the explorer's queue holds (`queue`).
    pub enum QueueMode {
        /// References where the visited set gives states back, else vectors.
        Auto = "auto",
        /// Full vectors and side data.
        Vectors = "vectors",
        /// References (only for a set that gives states back).
        References = "references",
    }
}

impl QueueMode {
    /// Whether a queue in this mode over `set` holds references; `Err`
    /// when references are asked of a set that cannot give states back.
    pub fn by_reference(self, set: &dyn VisitedSet) -> Result<bool, String> {
        match self {
            QueueMode::Auto => Ok(set.recalls_states()),
            QueueMode::Vectors => Ok(false),
            QueueMode::References if set.recalls_states() => Ok(true),
            QueueMode::References => Err(
                "queue=references: the engine cannot give a state back from its reference".into(),
            ),
        }
    }
}

/// The open set of one search over vectors of `k` slots and `side` words
/// of side data.
pub(crate) struct OpenSet {
    queue: StateQueue,
    by_reference: bool,
    k: usize,
    /// The entry being read or written (references: its two words).
    entry: [Value; 2],
}

impl OpenSet {
    /// An empty open set; it holds references when `by_reference`.
    pub(crate) fn new(k: usize, side_words: usize, by_reference: bool) -> Self {
        let width = if by_reference { 2 } else { k + side_words };
        OpenSet {
            queue: StateQueue::new(width),
            by_reference,
            k,
            entry: [0; 2],
        }
    }

    /// Queues a state given as its vector, side data and reference.
    #[inline]
    pub(crate) fn push(&mut self, state: &[Value], side: &[u32], reference: u64) {
        if self.by_reference {
            self.entry = [(reference >> 32) as Value, reference as Value];
            self.queue.push(&self.entry);
        } else {
            self.queue.push_parts(state, side);
        }
    }

    /// Moves the oldest state into `current` (its vector, then its side
    /// data), asking `set` for it when the queue holds references.
    /// `Ok(false)` when empty; `Err` when the set could not give it back.
    #[inline]
    pub(crate) fn pop_into(
        &mut self,
        set: &mut dyn VisitedSet,
        current: &mut Vec<Value>,
        side_words: usize,
    ) -> Result<bool, String> {
        if !self.by_reference {
            return Ok(self.queue.pop_into(current));
        }
        if !self.queue.pop_to(&mut self.entry) {
            return Ok(false);
        }
        let reference = (self.entry[0] as u64) << 32 | self.entry[1] as u64;
        current.resize(self.k + side_words, 0);
        let (state, side) = current.split_at_mut(self.k);
        if set.recall(reference, state, side) {
            Ok(true)
        } else {
            Err(format!(
                "the engine could not give back the state of reference {reference}"
            ))
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.queue.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }
}
