//! The collapse engine's parameters and its registry entry.
//!
//! Owns the `collapse` engine's parameter declarations and the
//! construction of both forms from them and the model's process
//! partition; the tables themselves are in `mod.rs` and `concurrent.rs`.

use super::concurrent::SharedCollapse;
use super::{Collapse, CollapseConfig, SlotPartition};
use crate::blocks::budget::Budget;
use crate::registry::{any, explicit, ConcurrentScheme, EngineOptions, EngineSpec, Param, Scheme};
use crate::visited::TableFull;
use pins::Model;

pub const INITIAL_BUCKETS: Param<usize> = Param {
    name: "initial_buckets",
    meaning: "initial bucket count of the main table, rounded up to a power of two",
    default: 1 << 16,
    check: any,
};

/// The `collapse` engine.
pub const SPEC: EngineSpec = EngineSpec {
    name: "collapse",
    summary: "SPIN COLLAPSE: per-process component tables + table of index vectors (Holzmann 1997)",
    params: &[&INITIAL_BUCKETS],
    run: explicit::<CollapseScheme>(),
};

/// COLLAPSE as a registered scheme: the model's process partition gives
/// the components.
pub struct CollapseScheme;

impl Scheme for CollapseScheme {
    type Config = (SlotPartition, CollapseConfig);
    type Set = Collapse;
    fn config(model: &dyn Model, opts: &EngineOptions) -> Result<Self::Config, String> {
        let config = CollapseConfig {
            initial_buckets: INITIAL_BUCKETS.value(opts)?,
            ..CollapseConfig::default()
        };
        let components = model.partition().into_iter().map(|c| c.slots).collect();
        let partition = SlotPartition::new(model.slot_count(), components).map_err(|e| {
            format!(
                "collapse: invalid process partition of {}: {e}",
                model.name()
            )
        })?;
        Ok((partition, config))
    }
    fn sequential(
        _: &dyn Model,
        (partition, config): Self::Config,
        opts: &EngineOptions,
    ) -> Result<Collapse, TableFull> {
        Collapse::new(partition, config, Budget::new(opts.mem_budget))
    }
}

impl ConcurrentScheme for CollapseScheme {
    type Shared = SharedCollapse;
    fn concurrent(
        _: &dyn Model,
        (partition, config): Self::Config,
        opts: &EngineOptions,
    ) -> Result<SharedCollapse, TableFull> {
        SharedCollapse::new(partition, config, Budget::new(opts.mem_budget))
    }
}
