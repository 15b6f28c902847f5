//! The tree's parameters and its registry entry.
//!
//! Owns the `tree` engine's parameter declarations (they are its
//! configuration) and the construction of both forms from a [`Setup`]; the
//! tree itself is in `mod.rs` and `concurrent.rs`.

use super::concurrent::SharedTree;
use super::Tree;
use crate::registry::{explicit, params, within, Build, EngineSpec, Setup};
use crate::visited::TableFull;

/// The `tree` engine.
pub const SPEC: EngineSpec = EngineSpec::new("tree", explicit::<TreeConfig, Tree, SharedTree>())
    .summary("binary tree of tuple tables with incremental insertion (Laarman et al. 2011)")
    .params(PARAMS);

params! {
    /// Parameters of `tree`.
    pub struct TreeConfig, listed in PARAMS {
        /// index bits of node tables, 1..=32
        w: u32 = W("w"), default 32, check within::<u32, 1, 32>;
        /// reuse the predecessor's node indices
        incremental: bool = INCREMENTAL("incremental"), default true;
        /// initial buckets of the root table; node tables get 1/64
        initial_buckets: usize = INITIAL_BUCKETS("initial_buckets"), default 1 << 16;
    }
}

impl Build<TreeConfig> for Tree {
    fn build(s: Setup<TreeConfig>) -> Result<Self, TableFull> {
        Self::new(s.slots, &s.config, s.budget)
    }
}

impl Build<TreeConfig> for SharedTree {
    fn build(s: Setup<TreeConfig>) -> Result<Self, TableFull> {
        Self::new(s.slots, &s.config, s.budget)
    }
}
