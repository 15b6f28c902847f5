//! The collapse engine's parameters and its registry entry.
//!
//! Owns the `collapse` engine's parameter declarations and the
//! construction of both forms from them and the model's process
//! partition; the tables themselves are in `mod.rs` and `concurrent.rs`.

use super::concurrent::SharedCollapse;
use super::{Collapse, CollapseConfig, SlotPartition};
use crate::registry::{explicit, params, Build, Configure, EngineOptions, EngineSpec, Setup};
use crate::visited::TableFull;
use pins::Model;

/// What both forms are built from.
type Parts = (SlotPartition, CollapseConfig);

/// The `collapse` engine.
pub const SPEC: EngineSpec = EngineSpec::new("collapse", explicit::<Parts, Collapse, SharedCollapse>())
    .summary("SPIN COLLAPSE: per-process component tables + table of index vectors (Holzmann 1997)")
    .params(PARAMS);

params! {
    pub const PARAMS = [
        /// initial bucket count of the main table, rounded up to a power of two
        INITIAL_BUCKETS: usize = "initial_buckets", default 1 << 16;
    ];
}

/// COLLAPSE's configuration: the model's process partition gives the
/// components.
impl Configure for Parts {
    fn configure(model: &dyn Model, opts: &EngineOptions) -> Result<Self, String> {
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
}

impl Build<Parts> for Collapse {
    fn build(s: Setup<Parts>) -> Result<Self, TableFull> {
        let (partition, config) = s.config;
        Self::new(partition, config, s.budget)
    }
}

impl Build<Parts> for SharedCollapse {
    fn build(s: Setup<Parts>) -> Result<Self, TableFull> {
        let (partition, config) = s.config;
        Self::new(partition, config, s.budget)
    }
}
