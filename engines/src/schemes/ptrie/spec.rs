//! The PTrie's parameters and its registry entry.
//!
//! Owns the `trie` engine's parameter declarations (they are its
//! configuration) and the construction of both forms from a [`Setup`]
//! (the concurrent form: one trie per shard); the trie itself is in
//! `mod.rs` and `concurrent.rs`.

use super::concurrent::{shards_for, ShardedPTrie};
use super::{Encoding, PTrie, DEFAULT_BUCKET_SIZE, MAX_BUCKET_SIZE};
use crate::registry::{explicit, params, within, Build, EngineSpec, Setup};
use crate::visited::TableFull;

/// The `trie` engine.
pub const SPEC: EngineSpec =
    EngineSpec::new("trie", explicit::<PTrieConfig, PTrie, ShardedPTrie>())
        .summary("PTrie prefix-sharing trie (Jensen, Larsen, Srba 2017)")
        .params(PARAMS);

params! {
    /// Parameters of the trie.
    pub struct PTrieConfig, listed in PARAMS {
        /// entries a bucket holds before it splits, 1..=65535
        bucket_size: usize = BUCKET_SIZE("bucket_size"), default DEFAULT_BUCKET_SIZE, check within::<usize, 1, { MAX_BUCKET_SIZE as u64 }>;
        /// slot bytes of the key: varint (prefix varint, 1-5 bytes), fixed4 (4 bytes) or packed
        /// (per-state bit width)
        encoding: Encoding = ENCODING("encoding"), default Encoding::Packed;
    }
}

impl Build<PTrieConfig> for PTrie {
    fn build(s: Setup<PTrieConfig>) -> Result<Self, TableFull> {
        Self::with_budget(s.slots, s.config, s.budget)
    }
}

/// One sub-trie per shard, as many shards as [`shards_for`] the search's
/// threads.
impl Build<PTrieConfig> for ShardedPTrie {
    fn build(s: Setup<PTrieConfig>) -> Result<Self, TableFull> {
        Self::new(s.slots, s.config, shards_for(s.threads), s.budget)
    }
}
