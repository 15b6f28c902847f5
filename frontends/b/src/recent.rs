//! The last few results of one operation, remembered: a ring of
//! [`ENTRIES`] argument–result pairs, the oldest replaced first. Its users
//! (`fast_inverse`, `fast_closure`) keep one per thread and say what makes
//! two arguments the same (the identity of a shared set, or equal values).
//!
//! Owns the ring only; never computes a result.

/// How many results are remembered.
pub const ENTRIES: usize = 4;

/// Arguments and their results, and the entry to replace next.
pub struct Recent<K, V> {
    entries: Vec<(K, V)>,
    next: usize,
}

impl<K, V> Default for Recent<K, V> {
    fn default() -> Self {
        Recent {
            entries: Vec::with_capacity(ENTRIES),
            next: 0,
        }
    }
}

impl<K, V: Clone> Recent<K, V> {
    /// The result remembered for an argument `same` recognises.
    pub fn find(&self, same: impl Fn(&K) -> bool) -> Option<V> {
        self.entries
            .iter()
            .find(|(k, _)| same(k))
            .map(|(_, v)| v.clone())
    }

    /// Remembers `result` for `argument`, forgetting the oldest entry
    /// when the ring is full.
    pub fn remember(&mut self, argument: K, result: V) {
        if self.entries.len() < ENTRIES {
            self.entries.push((argument, result));
        } else {
            self.entries[self.next] = (argument, result);
        }
        self.next = (self.next + 1) % ENTRIES;
    }
}
