//! The hash table's parameters and its registry entry.
//!
//! Owns the `hash-table` engine's parameter declarations and the
//! construction of both forms from them; the table itself is in `mod.rs`
//! and `concurrent.rs`.

use super::concurrent::SharedHashTable;
use super::{HashTable, HashTableConfig};
use crate::registry::{any, explicit, open_unit, ConcurrentScheme, EngineOptions};
use crate::registry::{EngineSpec, Param, Scheme};
use crate::visited::TableFull;
use pins::Model;

pub const MAX_LOAD: Param<f64> = Param {
    name: "max_load",
    meaning: "load factor that doubles the bucket array",
    default: 0.75,
    check: open_unit,
};

pub const INITIAL_BUCKETS: Param<usize> = Param {
    name: "initial_buckets",
    meaning: "initial bucket count, rounded up to a power of two",
    default: 1 << 16,
    check: any,
};

/// The `hash-table` engine.
pub const SPEC: EngineSpec = EngineSpec {
    name: "hash-table",
    summary: "open addressing over full vectors (LTSmin dbs-ll)",
    params: &[&MAX_LOAD, &INITIAL_BUCKETS],
    run: explicit::<HashTableScheme>(),
};

/// The hash table as a registered scheme.
pub struct HashTableScheme;

impl Scheme for HashTableScheme {
    type Config = HashTableConfig;
    type Set = HashTable;
    fn config(_: &dyn Model, opts: &EngineOptions) -> Result<HashTableConfig, String> {
        Ok(HashTableConfig {
            initial_buckets: INITIAL_BUCKETS.value(opts)?,
            max_load: MAX_LOAD.value(opts)?,
            mem_budget: opts.mem_budget,
        })
    }
    fn sequential(
        model: &dyn Model,
        config: HashTableConfig,
        _: &EngineOptions,
    ) -> Result<HashTable, TableFull> {
        HashTable::new(model.slot_count(), config)
    }
}

impl ConcurrentScheme for HashTableScheme {
    type Shared = SharedHashTable;
    fn concurrent(
        model: &dyn Model,
        config: HashTableConfig,
        _: &EngineOptions,
    ) -> Result<SharedHashTable, TableFull> {
        SharedHashTable::new(model.slot_count(), config)
    }
}
