//! The tree's parameters and its registry entry.
//!
//! Owns the `tree` engine's parameter declarations and the construction
//! of both forms from them; the tree itself is in `mod.rs` and
//! `concurrent.rs`.

use super::concurrent::SharedTree;
use super::{Tree, TreeConfig};
use crate::blocks::budget::Budget;
use crate::registry::{any, explicit, within, ConcurrentScheme, EngineOptions, EngineSpec};
use crate::registry::{Param, Scheme};
use crate::visited::TableFull;
use pins::Model;

pub const W: Param<u32> = Param {
    name: "w",
    meaning: "index bits of node tables, 1..=32",
    default: 32,
    check: within::<u32, 1, 32>,
};

pub const INCREMENTAL: Param<bool> = Param {
    name: "incremental",
    meaning: "reuse the predecessor's node indices",
    default: true,
    check: any,
};

pub const INITIAL_BUCKETS: Param<usize> = Param {
    name: "initial_buckets",
    meaning: "initial buckets of the root table; node tables get 1/64",
    default: 1 << 16,
    check: any,
};

/// The `tree` engine.
pub const SPEC: EngineSpec = EngineSpec {
    name: "tree",
    summary: "binary tree of tuple tables with incremental insertion (Laarman et al. 2011)",
    params: &[&W, &INCREMENTAL, &INITIAL_BUCKETS],
    run: explicit::<TreeScheme>(),
};

/// The tree as a registered scheme.
pub struct TreeScheme;

impl Scheme for TreeScheme {
    type Config = TreeConfig;
    type Set = Tree;
    fn config(_model: &dyn Model, opts: &EngineOptions) -> Result<TreeConfig, String> {
        Ok(TreeConfig {
            w: W.value(opts)?,
            incremental: INCREMENTAL.value(opts)?,
            initial_buckets: INITIAL_BUCKETS.value(opts)?,
        })
    }
    fn sequential(
        model: &dyn Model,
        config: TreeConfig,
        opts: &EngineOptions,
    ) -> Result<Tree, TableFull> {
        Tree::new(model.slot_count(), &config, Budget::new(opts.mem_budget))
    }
}

impl ConcurrentScheme for TreeScheme {
    type Shared = SharedTree;
    fn concurrent(
        model: &dyn Model,
        config: TreeConfig,
        opts: &EngineOptions,
    ) -> Result<SharedTree, TableFull> {
        SharedTree::new(model.slot_count(), &config, Budget::new(opts.mem_budget))
    }
}
