//! The tree's parameters and its registry entry.
//!
//! Owns the `tree` engine's parameter declarations (they are its
//! configuration) and the construction of both forms from a [`Setup`]; the
//! tree itself is in `mod.rs` and `concurrent.rs`.

use super::concurrent::SharedTree;
use super::order::{slot_order, SlotOrder};
use super::Tree;
use crate::registry::{explicit, params, within, Build, Configure, EngineOptions, EngineSpec, Setup};
use crate::visited::TableFull;
use pins::Model;

/// What both forms are built from: the slot order (see
/// [`super::order`]) and the parameters.
type Parts = (Vec<usize>, TreeConfig);

/// The `tree` engine.
pub const SPEC: EngineSpec = EngineSpec::new("tree", explicit::<Parts, Tree, SharedTree>())
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
        /// which slot each leaf of the tree holds: model (the model's order), groups (chained by
        /// the similarity of the transition groups touching them), pairing (subtrees joined bottom-up
        /// from slots whose joint values are few on the first states of a breadth-first search),
        /// sample (of those three, the one whose tree is smallest on those states)
        slot_order: SlotOrder = SLOT_ORDER("slot_order"), default SlotOrder::Model;
    }
}

/// The parameters and the slot order they ask for on the model.
impl Configure for Parts {
    fn configure(model: &dyn Model, opts: &EngineOptions) -> Result<Self, String> {
        let config = TreeConfig::configure(model, opts)?;
        Ok((slot_order(config.slot_order, model), config))
    }
}

impl Build<Parts> for Tree {
    fn build(s: Setup<Parts>) -> Result<Self, TableFull> {
        let (order, config) = s.config;
        Self::ordered(s.slots, &config, order, s.budget)
    }
}

impl Build<Parts> for SharedTree {
    fn build(s: Setup<Parts>) -> Result<Self, TableFull> {
        let (order, config) = s.config;
        Self::ordered(s.slots, &config, order, s.budget)
    }
}
