//! The PTrie's parameters and its registry entry.
//!
//! Owns the `trie` engine's parameter declarations and the construction
//! of both forms from them (the concurrent form: one trie per shard); the
//! trie itself is in `mod.rs` and `concurrent.rs`.

use super::concurrent::{shards_for, ShardedPTrie};
use super::{Encoding, PTrie, PTrieConfig, DEFAULT_BUCKET_SIZE, MAX_BUCKET_SIZE};
use crate::concurrent::ConcurrentVisitedSet;
use crate::registry::{explicit, params, within, ConcurrentScheme, EngineOptions, EngineSpec};
use crate::registry::{Scheme, Setup};
use crate::visited::{TableFull, VisitedSet};
use pins::Model;

/// The `trie` engine.
pub const SPEC: EngineSpec = EngineSpec::new("trie", explicit::<PTrieScheme>())
    .summary("PTrie prefix-sharing trie (Jensen, Larsen, Srba 2017)")
    .params(PARAMS);

params! {
    pub const PARAMS = [
        /// entries a bucket holds before it splits, 1..=65535
        BUCKET_SIZE: usize = "bucket_size", default DEFAULT_BUCKET_SIZE, check within::<usize, 1, { MAX_BUCKET_SIZE as u64 }>;
        /// slot bytes of the key: varint (prefix varint, 1-5 bytes), fixed4 (4 bytes) or packed
        /// (per-state bit width)
        ENCODING: Encoding = "encoding", default Encoding::Packed;
    ];
}

/// The PTrie as a registered scheme.
pub struct PTrieScheme;

impl Scheme for PTrieScheme {
    type Config = PTrieConfig;
    fn config(_: &dyn Model, opts: &EngineOptions) -> Result<PTrieConfig, String> {
        Ok(PTrieConfig {
            bucket_size: BUCKET_SIZE.value(opts)?,
            encoding: ENCODING.value(opts)?,
            mem_budget: opts.mem_budget,
        })
    }
    fn sequential(setup: Setup<PTrieConfig>) -> Result<impl VisitedSet, TableFull> {
        PTrie::new(setup.slots, setup.config)
    }
}

impl ConcurrentScheme for PTrieScheme {
    fn concurrent(setup: Setup<PTrieConfig>) -> Result<impl ConcurrentVisitedSet, TableFull> {
        let shards = shards_for(setup.threads);
        ShardedPTrie::new(setup.slots, setup.config, shards)
    }
}
