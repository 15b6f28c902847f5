//! ComBack's parameters and its registry entry.
//!
//! Owns the `comback-ddd` engine's parameter declarations and the start
//! of its search from them; the ranges are checked by
//! [`ComBackConfig::check`] (which direct callers use too), so each is
//! written once.

use super::ComBackConfig;
use crate::blocks::budget::Budget;
use crate::explore::ExploreConfig;
use crate::registry::{params, Count, EngineOptions, EngineSpec, Run};
use crate::report::RunReport;
use pins::Model;

/// The `comback-ddd` engine.
pub const SPEC: EngineSpec = EngineSpec::new(
    "comback-ddd",
    Run::Search {
        search: run,
        self_parallel: false,
    },
)
.summary("ComBack: hash signatures + back-edges, states rebuilt to compare; delayed duplicate detection (Evangelista et al.)")
.params(PARAMS);

params! {
    pub const PARAMS = [
        /// capacity of the candidate set, distinct vectors (1e4 accepted)
        CANDIDATES: Count = "candidates", default Count(10_000);
        /// delayed duplicate detection; false: the basic ComBack method
        DELAYED: bool = "delayed", default true;
        /// full vectors of the most recently stored states kept to shorten reconstructions, 0 = off
        CACHE: Count = "cache", default Count(0);
        /// queue of state ids, rebuilt batch by batch, instead of full vectors
        ID_QUEUE: bool = "id_queue", default false;
        /// states rebuilt together with id_queue
        BATCH: Count = "batch", default Count(10_000);
        /// width of the hash signature, 1..=32
        SIGNATURE_BITS: u32 = "signature_bits", default 32;
        /// breadth-first level by level, candidates resolved at the end of every level (exact
        /// levels); false: Algorithm 4's single queue, candidates resolved only when the set is
        /// full or the queue empty
        LEVEL_SYNC: bool = "level_sync", default false;
    ];
}

impl ComBackConfig {
    /// The configuration `opts` sets.
    pub fn from_options(opts: &EngineOptions) -> Result<Self, String> {
        let config = ComBackConfig {
            candidates: CANDIDATES.value(opts)?.0,
            delayed: DELAYED.value(opts)?,
            cache: CACHE.value(opts)?.0,
            id_queue: ID_QUEUE.value(opts)?,
            batch: BATCH.value(opts)?.0,
            signature_bits: SIGNATURE_BITS.value(opts)?,
            level_sync: LEVEL_SYNC.value(opts)?,
        };
        config
            .check()
            .map_err(|e| format!("engine parameter {e}"))?;
        Ok(config)
    }
}

fn run(
    model: &dyn Model,
    opts: &EngineOptions,
    cfg: ExploreConfig<'_>,
) -> Result<RunReport, String> {
    let config = ComBackConfig::from_options(opts)?;
    Ok(super::explore(
        model,
        &config,
        Budget::new(opts.mem_budget),
        cfg,
    ))
}
