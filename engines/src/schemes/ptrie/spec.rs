//! The PTrie's parameters and its registry entry.
//!
//! Owns the `trie` engine's parameter declarations and the construction
//! of both forms from them (the concurrent form: one trie per shard); the
//! trie itself is in `mod.rs` and `concurrent.rs`.

use super::concurrent::{shards_for, ShardedPTrie};
use super::{Encoding, PTrie, PTrieConfig, DEFAULT_BUCKET_SIZE, MAX_BUCKET_SIZE};
use crate::registry::{any, explicit, within, ConcurrentScheme, EngineOptions, EngineSpec};
use crate::registry::{Param, Scheme};
use crate::visited::TableFull;
use pins::Model;

pub const BUCKET_SIZE: Param<usize> = Param {
    name: "bucket_size",
    meaning: "entries a bucket holds before it splits, 1..=65535",
    default: DEFAULT_BUCKET_SIZE,
    check: within::<usize, 1, { MAX_BUCKET_SIZE as u64 }>,
};

pub const ENCODING: Param<Encoding> = Param {
    name: "encoding",
    meaning: "slot bytes of the key: varint (prefix varint, 1-5 bytes), fixed4 (4 bytes) or packed (per-state bit width)",
    default: Encoding::Packed,
    check: any,
};

/// The `trie` engine.
pub const SPEC: EngineSpec = EngineSpec {
    name: "trie",
    summary: "PTrie prefix-sharing trie (Jensen, Larsen, Srba 2017)",
    params: &[&BUCKET_SIZE, &ENCODING],
    run: explicit::<PTrieScheme>(),
};

/// The PTrie as a registered scheme.
pub struct PTrieScheme;

impl Scheme for PTrieScheme {
    type Config = PTrieConfig;
    type Set = PTrie;
    fn config(_: &dyn Model, opts: &EngineOptions) -> Result<PTrieConfig, String> {
        Ok(PTrieConfig {
            bucket_size: BUCKET_SIZE.value(opts)?,
            encoding: ENCODING.value(opts)?,
            mem_budget: opts.mem_budget,
        })
    }
    fn sequential(
        model: &dyn Model,
        config: PTrieConfig,
        _: &EngineOptions,
    ) -> Result<PTrie, TableFull> {
        PTrie::new(model.slot_count(), config)
    }
}

impl ConcurrentScheme for PTrieScheme {
    type Shared = ShardedPTrie;
    fn concurrent(
        model: &dyn Model,
        config: PTrieConfig,
        opts: &EngineOptions,
    ) -> Result<ShardedPTrie, TableFull> {
        ShardedPTrie::new(model.slot_count(), config, shards_for(opts.threads))
    }
}
