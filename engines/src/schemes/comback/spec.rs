//! ComBack's parameters and its registry entry.
//!
//! Owns the `comback-ddd` engine's parameter declarations and the start
//! of its search from them; the ranges are checked by
//! [`ComBackConfig::check`] (which direct callers use too), so each is
//! written once.

use super::ComBackConfig;
use crate::blocks::budget::Budget;
use crate::explore::ExploreConfig;
use crate::registry::{any, Count, EngineOptions, EngineSpec, Param, Run};
use crate::report::RunReport;
use pins::Model;

pub const CANDIDATES: Param<Count> = Param {
    name: "candidates",
    meaning: "capacity of the candidate set, distinct vectors (1e4 accepted)",
    default: Count(10_000),
    check: any,
};

pub const DELAYED: Param<bool> = Param {
    name: "delayed",
    meaning: "delayed duplicate detection; false: the basic ComBack method",
    default: true,
    check: any,
};

pub const CACHE: Param<Count> = Param {
    name: "cache",
    meaning:
        "full vectors of the most recently stored states kept to shorten reconstructions, 0 = off",
    default: Count(0),
    check: any,
};

pub const ID_QUEUE: Param<bool> = Param {
    name: "id_queue",
    meaning: "queue of state ids, rebuilt batch by batch, instead of full vectors",
    default: false,
    check: any,
};

pub const BATCH: Param<Count> = Param {
    name: "batch",
    meaning: "states rebuilt together with id_queue",
    default: Count(10_000),
    check: any,
};

pub const SIGNATURE_BITS: Param<u32> = Param {
    name: "signature_bits",
    meaning: "width of the hash signature, 1..=32",
    default: 32,
    check: any,
};

pub const LEVEL_SYNC: Param<bool> = Param {
    name: "level_sync",
    meaning: "breadth-first level by level, candidates resolved at the end of every level (exact levels); false: Algorithm 4's single queue, candidates resolved only when the set is full or the queue empty",
    default: false,
    check: any,
};

/// The `comback-ddd` engine.
pub const SPEC: EngineSpec = EngineSpec {
    name: "comback-ddd",
    summary: "ComBack: hash signatures + back-edges, states rebuilt to compare; delayed duplicate detection (Evangelista et al.)",
    params: &[
        &CANDIDATES,
        &DELAYED,
        &CACHE,
        &ID_QUEUE,
        &BATCH,
        &SIGNATURE_BITS,
        &LEVEL_SYNC,
    ],
    run: Run::Search {
        search: run,
        self_parallel: false,
    },
};

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
