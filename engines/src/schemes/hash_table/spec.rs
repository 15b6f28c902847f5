//! The hash table's parameters and its registry entry.
//!
//! Owns the `hash-table` engine's parameter declarations and the
//! construction of both forms from them; the table itself is in `mod.rs`
//! and `concurrent.rs`.

use super::concurrent::SharedHashTable;
use super::{HashTable, HashTableConfig};
use crate::concurrent::ConcurrentVisitedSet;
use crate::registry::{explicit, open_unit, params, ConcurrentScheme, EngineOptions};
use crate::registry::{EngineSpec, Scheme, Setup};
use crate::visited::{TableFull, VisitedSet};
use pins::Model;

/// The `hash-table` engine.
pub const SPEC: EngineSpec = EngineSpec::new("hash-table", explicit::<HashTableScheme>())
    .summary("open addressing over full vectors (LTSmin dbs-ll)")
    .params(PARAMS);

params! {
    pub const PARAMS = [
        /// load factor that doubles the bucket array
        MAX_LOAD: f64 = "max_load", default 0.75, check open_unit;
        /// initial bucket count, rounded up to a power of two
        INITIAL_BUCKETS: usize = "initial_buckets", default 1 << 16;
    ];
}

/// The hash table as a registered scheme.
pub struct HashTableScheme;

impl Scheme for HashTableScheme {
    type Config = HashTableConfig;
    fn config(_: &dyn Model, opts: &EngineOptions) -> Result<HashTableConfig, String> {
        Ok(HashTableConfig {
            initial_buckets: INITIAL_BUCKETS.value(opts)?,
            max_load: MAX_LOAD.value(opts)?,
            mem_budget: opts.mem_budget,
        })
    }
    fn sequential(setup: Setup<HashTableConfig>) -> Result<impl VisitedSet, TableFull> {
        HashTable::new(setup.slots, setup.config)
    }
}

impl ConcurrentScheme for HashTableScheme {
    fn concurrent(setup: Setup<HashTableConfig>) -> Result<impl ConcurrentVisitedSet, TableFull> {
        SharedHashTable::new(setup.slots, setup.config)
    }
}
