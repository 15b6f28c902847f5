//! ComBack's cache of full state descriptors: the vectors of the `size`
//! most recently stored states, in a ring indexed by id (states are stored
//! with consecutive ids, so id `i` is cached exactly while fewer than
//! `size` states were stored after it). Backtracking and traversals start
//! from a cached state instead of the initial state.
//!
//! Accounting: `used` = `4k` bytes per cached state; `alloc` = the ring,
//! allocated (and reserved in the engine's [`Budget`]) when created.
//!
//! Owns only the ring; it must not know the model or the tables.

use crate::blocks::budget::Budget;
use crate::visited::TableFull;
use pins::Value;

/// The ring of recent states; see the module documentation.
pub struct Cache {
    k: usize,
    size: usize,
    ring: Vec<Value>,
    /// Id the next stored state will get.
    next: u64,
}

impl Cache {
    /// A cache of `size` vectors of `k` slots (0: no cache).
    pub fn new(k: usize, size: usize, budget: &Budget) -> Result<Self, TableFull> {
        let words = size.checked_mul(k).ok_or_else(|| TableFull {
            message: format!("comback cache: {size} vectors of {k} slots overflow"),
        })?;
        budget.reserve(words as u64 * 4, "comback cache")?;
        Ok(Cache {
            k,
            size,
            ring: vec![0; words],
            next: 0,
        })
    }

    /// Records the vector of the state just stored with id `id`.
    pub fn store(&mut self, id: u32, v: &[Value]) {
        debug_assert_eq!(id as u64, self.next);
        self.next = id as u64 + 1;
        if self.size > 0 {
            let at = (id as usize % self.size) * self.k;
            self.ring[at..at + self.k].copy_from_slice(v);
        }
    }

    /// The vector of state `id`, if it is cached.
    pub fn get(&self, id: u32) -> Option<&[Value]> {
        let id = id as u64;
        if id < self.next && self.next - id <= self.size as u64 {
            let at = (id as usize % self.size) * self.k;
            Some(&self.ring[at..at + self.k])
        } else {
            None
        }
    }

    pub fn used_bytes(&self) -> u64 {
        self.next.min(self.size as u64) * self.k as u64 * 4
    }

    pub fn alloc_bytes(&self) -> u64 {
        self.ring.len() as u64 * 4
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_exactly_the_most_recent_states() {
        for size in [0usize, 1, 3] {
            let mut c = Cache::new(2, size, &Budget::unlimited()).unwrap();
            for id in 0..10u32 {
                c.store(id, &[id, id * 2]);
                for old in 0..=id {
                    let expect = (id - old) < size as u32;
                    assert_eq!(
                        c.get(old).is_some(),
                        expect,
                        "size {size} id {id} old {old}"
                    );
                    if let Some(v) = c.get(old) {
                        assert_eq!(v, [old, old * 2]);
                    }
                }
                assert_eq!(c.get(id + 1), None);
            }
        }
    }
}
