//! The tree's parameters and its registry entry.
//!
//! Owns the `tree` engine's parameter declarations and the construction
//! of both forms from them; the tree itself is in `mod.rs` and
//! `concurrent.rs`.

use super::concurrent::SharedTree;
use super::{Tree, TreeConfig};
use crate::concurrent::ConcurrentVisitedSet;
use crate::registry::{explicit, params, within, ConcurrentScheme, EngineOptions, EngineSpec};
use crate::registry::{Scheme, Setup};
use crate::visited::{TableFull, VisitedSet};
use pins::Model;

/// The `tree` engine.
pub const SPEC: EngineSpec = EngineSpec::new("tree", explicit::<TreeScheme>())
    .summary("binary tree of tuple tables with incremental insertion (Laarman et al. 2011)")
    .params(PARAMS);

params! {
    pub const PARAMS = [
        /// index bits of node tables, 1..=32
        W: u32 = "w", default 32, check within::<u32, 1, 32>;
        /// reuse the predecessor's node indices
        INCREMENTAL: bool = "incremental", default true;
        /// initial buckets of the root table; node tables get 1/64
        INITIAL_BUCKETS: usize = "initial_buckets", default 1 << 16;
    ];
}

/// The tree as a registered scheme.
pub struct TreeScheme;

impl Scheme for TreeScheme {
    type Config = TreeConfig;
    fn config(_model: &dyn Model, opts: &EngineOptions) -> Result<TreeConfig, String> {
        Ok(TreeConfig {
            w: W.value(opts)?,
            incremental: INCREMENTAL.value(opts)?,
            initial_buckets: INITIAL_BUCKETS.value(opts)?,
        })
    }
    fn sequential(setup: Setup<TreeConfig>) -> Result<impl VisitedSet, TableFull> {
        Tree::new(setup.slots, &setup.config, setup.budget())
    }
}

impl ConcurrentScheme for TreeScheme {
    fn concurrent(setup: Setup<TreeConfig>) -> Result<impl ConcurrentVisitedSet, TableFull> {
        SharedTree::new(setup.slots, &setup.config, setup.budget())
    }
}
