//! The LDD's unique table: which inner node id holds a given node, by
//! open addressing over a vector of buckets (linear probing from the top
//! bits of the node's hash, the project's [`hash_words`]). A bucket is
//! one word: the id in its low half, the hash's low half above it as a
//! tag, 0 for a vacant bucket (inner ids are at least 2, so no full
//! bucket is 0). A probe reads a node only where the tags agree, so a
//! miss costs the buckets of one cache line, not a node per bucket.
//! The table doubles at load 1/2 (as [`crate::blocks::index_table`]:
//! an absent node is found after 2.5 buckets on average).
//!
//! Not [`crate::blocks::index_table::IndexTable`]: that table gives
//! dense indices in insertion order and never deletes, where the LDD's
//! garbage collection frees ids and reuses them; here the nodes stay in
//! the store and the table is rebuilt from the live ids after a
//! collection ([`Unique::rebuild`]). Replaces a `std` `HashMap<Node,
//! Id>` (issue 36: 36% of BridgeAndVehicles-PT-V20P20N20's time).
//!
//! Owns the buckets only; it must not know what a node holds (the caller
//! hashes and compares nodes) nor decide which ids are live.

use super::Id;
use crate::blocks::word_hash::hash_words;

/// Buckets of a fresh table.
const MIN_BUCKETS: usize = 1 << 16;

/// The hash of a node's three words (value, down, right).
#[inline]
pub fn node_hash(words: [u32; 3]) -> u64 {
    hash_words(&words)
}

/// Where [`Unique::find`] ended: the id holding the node, or the vacant
/// bucket where it goes.
pub enum Probe {
    Found(Id),
    Vacant(usize),
}

/// The table; see the module documentation.
pub struct Unique {
    buckets: Vec<u64>,
    /// log2 of the bucket count.
    bits: u32,
    len: usize,
}

impl Unique {
    /// An empty table of [`MIN_BUCKETS`] buckets.
    pub fn new() -> Unique {
        Unique::with_buckets(MIN_BUCKETS)
    }

    /// An empty table of `n` buckets (a power of two, at least
    /// [`MIN_BUCKETS`]).
    fn with_buckets(n: usize) -> Unique {
        let n = n.max(MIN_BUCKETS).next_power_of_two();
        Unique {
            buckets: vec![0; n],
            bits: n.trailing_zeros(),
            len: 0,
        }
    }

    /// Ids stored.
    pub fn len(&self) -> usize {
        self.len
    }

    /// The home bucket of hash `h`.
    #[inline]
    fn home(&self, h: u64) -> usize {
        (h >> (64 - self.bits)) as usize
    }

    /// The id whose node has hash `h` and for which `is` holds, or the
    /// vacant bucket where such a node goes.
    #[inline]
    pub fn find(&self, h: u64, is: impl Fn(Id) -> bool) -> Probe {
        let (mask, tag) = (self.buckets.len() - 1, h << 32);
        let mut i = self.home(h);
        loop {
            let b = self.buckets[i];
            if b == 0 {
                return Probe::Vacant(i);
            }
            if b & !0xffff_ffff == tag && is(b as Id) {
                return Probe::Found(b as Id);
            }
            i = (i + 1) & mask;
        }
    }

    /// Puts `id` (hash `h`) in the vacant bucket `at` that [`Unique::find`]
    /// returned for it; doubles the table past load 1/2, rehashing every id
    /// by `hash_of`.
    pub fn insert(&mut self, at: usize, h: u64, id: Id, hash_of: impl Fn(Id) -> u64) {
        debug_assert_eq!(self.buckets[at], 0);
        self.buckets[at] = (h << 32) | u64::from(id);
        self.len += 1;
        if 2 * self.len > self.buckets.len() {
            let ids = self.ids();
            self.refill(2 * self.buckets.len(), ids, hash_of);
        }
    }

    /// The table of the ids `live` alone (after a garbage collection),
    /// at load at most 1/4.
    pub fn rebuild(&mut self, live: Vec<Id>, hash_of: impl Fn(Id) -> u64) {
        self.refill(4 * live.len(), live, hash_of);
    }

    /// Every id stored.
    fn ids(&self) -> Vec<Id> {
        self.buckets.iter().filter(|&&b| b != 0).map(|&b| b as Id).collect()
    }

    /// A table of `n` buckets holding `ids` (distinct nodes).
    fn refill(&mut self, n: usize, ids: Vec<Id>, hash_of: impl Fn(Id) -> u64) {
        *self = Unique::with_buckets(n);
        self.len = ids.len();
        let mask = self.buckets.len() - 1;
        for id in ids {
            let h = hash_of(id);
            let mut i = self.home(h);
            while self.buckets[i] != 0 {
                i = (i + 1) & mask;
            }
            self.buckets[i] = (h << 32) | u64::from(id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Nodes as a store holds them: index = id (0 and 1 unused).
    fn lookup(t: &Unique, nodes: &[[u32; 3]], n: [u32; 3]) -> Probe {
        t.find(node_hash(n), |id| nodes[id as usize] == n)
    }

    #[test]
    fn equal_nodes_get_one_id_across_growth_and_rebuild() {
        let mut nodes: Vec<[u32; 3]> = vec![[0; 3]; 2];
        let mut t = Unique::new();
        // Small dense words, as LDD nodes are: enough to double twice.
        let all: Vec<[u32; 3]> = (0..200_000u32).map(|i| [i % 7, 2 + i / 7, i % 5]).collect();
        for &n in &all {
            match lookup(&t, &nodes, n) {
                Probe::Found(_) => panic!("{n:?} found before it was put"),
                Probe::Vacant(at) => {
                    nodes.push(n);
                    let id = (nodes.len() - 1) as Id;
                    t.insert(at, node_hash(n), id, |id| node_hash(nodes[id as usize]));
                }
            }
        }
        assert_eq!(t.len(), all.len());
        assert!(t.buckets.len() >= 2 * all.len());
        for (i, &n) in all.iter().enumerate() {
            assert!(matches!(lookup(&t, &nodes, n), Probe::Found(id) if id as usize == i + 2));
        }
        // Keep the even ids only: the odd ones are gone, the even found.
        let live: Vec<Id> = (2..nodes.len() as Id).filter(|id| id % 2 == 0).collect();
        t.rebuild(live.clone(), |id| node_hash(nodes[id as usize]));
        assert_eq!(t.len(), live.len());
        for (i, &n) in all.iter().enumerate() {
            let id = (i + 2) as Id;
            match lookup(&t, &nodes, n) {
                Probe::Found(x) => assert!(id.is_multiple_of(2) && x == id),
                Probe::Vacant(_) => assert!(id % 2 == 1),
            }
        }
    }
}
