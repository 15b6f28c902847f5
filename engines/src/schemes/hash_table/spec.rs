//! The hash table's parameters and its registry entry.
//!
//! Owns the `hash-table` engine's parameter declarations (they are its
//! configuration) and the construction of both forms from a [`Setup`]; the
//! table itself is in `mod.rs` and `concurrent.rs`.

use super::concurrent::SharedHashTable;
use super::HashTable;
use crate::registry::{explicit, open_unit, params, Build, EngineSpec, Setup};
use crate::visited::TableFull;

/// The `hash-table` engine.
pub const SPEC: EngineSpec = EngineSpec::new(
    "hash-table",
    explicit::<HashTableConfig, HashTable, SharedHashTable>(),
)
.summary("open addressing over full vectors (LTSmin dbs-ll)")
.params(PARAMS);

params! {
    /// Parameters of the hash table.
    pub struct HashTableConfig, listed in PARAMS {
        /// load factor that doubles the bucket array
        max_load: f64 = MAX_LOAD("max_load"), default 0.75, check open_unit;
        /// initial bucket count, rounded up to a power of two
        initial_buckets: usize = INITIAL_BUCKETS("initial_buckets"), default 1 << 16;
    }
}

impl Build<HashTableConfig> for HashTable {
    fn build(s: Setup<HashTableConfig>) -> Result<Self, TableFull> {
        Self::with_budget(s.slots, s.config, s.budget)
    }
}

impl Build<HashTableConfig> for SharedHashTable {
    fn build(s: Setup<HashTableConfig>) -> Result<Self, TableFull> {
        Self::new(s.slots, s.config, s.budget)
    }
}
