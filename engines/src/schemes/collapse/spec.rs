//! The collapse engine's parameters and its registry entry.
//!
//! Owns the `collapse` engine's parameter declarations and the
//! construction of both forms from them and the model's process
//! partition; the tables themselves are in `mod.rs` and `concurrent.rs`.

use super::concurrent::SharedCollapse;
use super::{Collapse, CollapseConfig, SlotPartition};
use crate::concurrent::ConcurrentVisitedSet;
use crate::registry::{
    explicit, params, ConcurrentScheme, EngineOptions, EngineSpec, Scheme, Setup,
};
use crate::visited::{TableFull, VisitedSet};
use pins::Model;

/// The `collapse` engine.
pub const SPEC: EngineSpec = EngineSpec::new("collapse", explicit::<CollapseScheme>())
    .summary("SPIN COLLAPSE: per-process component tables + table of index vectors (Holzmann 1997)")
    .params(PARAMS);

params! {
    pub const PARAMS = [
        /// initial bucket count of the main table, rounded up to a power of two
        INITIAL_BUCKETS: usize = "initial_buckets", default 1 << 16;
    ];
}

/// COLLAPSE as a registered scheme: the model's process partition gives
/// the components.
pub struct CollapseScheme;

impl Scheme for CollapseScheme {
    type Config = (SlotPartition, CollapseConfig);
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
    fn sequential(setup: Setup<Self::Config>) -> Result<impl VisitedSet, TableFull> {
        let budget = setup.budget();
        let (partition, config) = setup.config;
        Collapse::new(partition, config, budget)
    }
}

impl ConcurrentScheme for CollapseScheme {
    fn concurrent(setup: Setup<Self::Config>) -> Result<impl ConcurrentVisitedSet, TableFull> {
        let budget = setup.budget();
        let (partition, config) = setup.config;
        SharedCollapse::new(partition, config, budget)
    }
}
