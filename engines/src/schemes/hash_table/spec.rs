//! The hash table's parameters and its registry entry.
//!
//! Owns the `hash-table` engine's parameter declarations (they are its
//! configuration) and the construction of both forms from a [`Setup`]; the
//! table itself is in `mod.rs` and `concurrent.rs`, the packed layout in
//! `packing.rs`.

use super::concurrent::SharedHashTable;
use super::{HashTable, Packing};
use crate::registry::{
    explicit, open_unit, params, words, Build, Configure, EngineOptions, EngineSpec, ParamInfo,
    Setup,
};
use crate::visited::TableFull;
use pins::Model;

/// What both forms are built from: the table's parameters and, under
/// `layout=bytes`, the model's packing.
type Parts = (HashTableConfig, Option<Packing>);

/// The `hash-table` engine.
pub const SPEC: EngineSpec = EngineSpec::new(
    "hash-table",
    explicit::<Parts, HashTable, SharedHashTable>(),
)
.summary("open addressing over full vectors (LTSmin dbs-ll)")
.params(PARAMS);

params! {
    /// Parameters of the hash table.
    pub struct HashTableConfig, listed in TABLE_PARAMS {
        /// load factor that doubles the bucket array
        max_load: f64 = MAX_LOAD("max_load"), default 0.75, check open_unit;
        /// initial bucket count, rounded up to a power of two
        initial_buckets: usize = INITIAL_BUCKETS("initial_buckets"), default 1 << 16;
    }
}

words! {
    /// How a stored vector holds its slots.
    pub enum Layout {
        /// A `u32` per slot (LTSmin's dbs-ll).
        Words = "words",
        /// 1, 2 or 4 bytes per slot from its declared bits (SPIN).
        Bytes = "bytes",
    }
}

params! {
    /// stored vector: words (4 bytes per slot) or bytes (1, 2 or 4 per slot from its
    /// declared bits, sequential form only)
    const LAYOUT: Layout = "layout", default Layout::Words;
}

const PARAMS: &[&dyn ParamInfo] = &[TABLE_PARAMS[0], TABLE_PARAMS[1], &LAYOUT];

/// The configuration of a run: its parameters, and the model's slots
/// under `layout=bytes`.
impl Configure for Parts {
    fn configure(model: &dyn Model, opts: &EngineOptions) -> Result<Self, String> {
        let config = HashTableConfig::configure(model, opts)?;
        let packing = match LAYOUT.value(opts)? {
            Layout::Words => None,
            Layout::Bytes if opts.threads > 1 => {
                return Err(BYTES_IS_SEQUENTIAL.to_owned());
            }
            Layout::Bytes => Some(Packing::new(model.slots())),
        };
        Ok((config, packing))
    }
}

/// Why `layout=bytes` does not run concurrently.
const BYTES_IS_SEQUENTIAL: &str =
    "engine parameter layout=bytes: the concurrent hash table stores words only (layout=words)";

impl Build<Parts> for HashTable {
    fn build(s: Setup<Parts>) -> Result<Self, TableFull> {
        match s.config {
            (config, None) => Self::with_budget(s.slots, config, s.budget),
            (config, Some(packing)) => Self::packed(packing, config, s.budget),
        }
    }
}

impl Build<Parts> for SharedHashTable {
    fn build(s: Setup<Parts>) -> Result<Self, TableFull> {
        match s.config {
            (config, None) => Self::new(s.slots, config, s.budget),
            // `form=concurrent` at one thread: the form is not known when
            // the parameters are read.
            (_, Some(_)) => Err(TableFull::new(BYTES_IS_SEQUENTIAL.to_owned())),
        }
    }
}
