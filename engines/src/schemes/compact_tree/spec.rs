//! The Compact Tree's parameters and its registry entry.
//!
//! Owns the `compact-tree` engine's parameter declarations and the
//! construction of both forms from them. The parameters' ranges (some
//! involve two of them: `o ≤ w`, `m ≤ w + o`) are checked by
//! [`CompactTreeConfig::check`], which direct constructors use too, so
//! each range is written once.

use super::concurrent::SharedCompactTree;
use super::{CompactTree, CompactTreeConfig};
use crate::blocks::budget::Budget;
use crate::registry::{any, explicit, ConcurrentScheme, EngineOptions, EngineSpec};
use crate::registry::{words, Param, ParamValue, Scheme};
use crate::visited::TableFull;
use pins::Model;

/// How the root table is sized (`m`).
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum RootSize {
    /// The largest size within half the memory budget, from the start
    /// (the paper's fixed table).
    Budget,
    /// Start small and double up to that size.
    Auto,
    /// Fixed log2 of the root buckets.
    Log2(u32),
}

impl RootSize {
    /// The configuration's `(m, grow)`.
    pub fn m_and_grow(self) -> (Option<u32>, bool) {
        match self {
            RootSize::Budget => (None, false),
            RootSize::Auto => (None, true),
            RootSize::Log2(m) => (Some(m), false),
        }
    }
}

impl ParamValue for RootSize {
    fn parse(text: &str) -> Result<Self, String> {
        match text {
            "budget" => Ok(RootSize::Budget),
            "auto" => Ok(RootSize::Auto),
            _ => text
                .parse()
                .map(RootSize::Log2)
                .map_err(|_| "not a valid value".to_owned()),
        }
    }
    fn show(&self) -> String {
        match self {
            RootSize::Budget => "budget".to_owned(),
            RootSize::Auto => "auto".to_owned(),
            RootSize::Log2(m) => m.to_string(),
        }
    }
}

words! {
    /// How wide the root table's keys are (`root_key`).
    pub enum RootKeyMode {
        /// `2w` bits, as in the paper.
        Fixed = "fixed",
        /// The children's current index width, re-stored as node tables grow.
        Adaptive = "adaptive",
    }
}

pub const W: Param<u32> = Param {
    name: "w",
    meaning: "index bits of node tables, 1..=32",
    default: 30,
    check: any,
};

pub const O: Param<u32> = Param {
    name: "o",
    meaning: "overcommit: root buckets up to 2^(w+o)",
    default: 2,
    check: any,
};

pub const U: Param<u32> = Param {
    name: "u",
    meaning: "bits of a slot value, 1..=32",
    default: 30,
    check: any,
};

pub const M: Param<RootSize> = Param {
    name: "m",
    meaning: "log2 of root buckets, 4..=w+o; budget: the largest within half the memory budget, from the start (the paper); auto: grow up to it",
    default: RootSize::Auto,
    check: any,
};

pub const MAX_LOAD: Param<f64> = Param {
    name: "max_load",
    meaning: "load at which the root table is full",
    default: 0.9,
    check: any,
};

pub const GROW_LOAD: Param<f64> = Param {
    name: "grow_load",
    meaning: "with m=auto: load at which the root table doubles; lower = longer quotient, shorter entries, more memory",
    default: 0.75,
    check: any,
};

pub const ROOT_KEY: Param<RootKeyMode> = Param {
    name: "root_key",
    meaning: "fixed: root keys of 2w bits as in the paper; adaptive: of the children's current index width, re-stored as node tables grow",
    default: RootKeyMode::Adaptive,
    check: any,
};

pub const INCREMENTAL: Param<bool> = Param {
    name: "incremental",
    meaning: "reuse the predecessor's node indices",
    default: true,
    check: any,
};

/// The `compact-tree` engine. Its defaults met both targets of the
/// compression issue in the BEEM campaign; `m=budget root_key=fixed` is
/// the paper's configuration.
pub const SPEC: EngineSpec = EngineSpec {
    name: "compact-tree",
    summary: "tree with a Cleary compact root table (w, o, u)",
    params: &[
        &W,
        &O,
        &U,
        &M,
        &MAX_LOAD,
        &GROW_LOAD,
        &ROOT_KEY,
        &INCREMENTAL,
    ],
    run: explicit::<CompactTreeScheme>(),
};

/// The Compact Tree as a registered scheme.
pub struct CompactTreeScheme;

impl Scheme for CompactTreeScheme {
    type Config = CompactTreeConfig;
    type Set = CompactTree;
    fn config(_model: &dyn Model, opts: &EngineOptions) -> Result<CompactTreeConfig, String> {
        let (m, grow) = M.value(opts)?.m_and_grow();
        let config = CompactTreeConfig {
            w: W.value(opts)?,
            o: O.value(opts)?,
            u: U.value(opts)?,
            m,
            grow,
            max_load: MAX_LOAD.value(opts)?,
            grow_load: GROW_LOAD.value(opts)?,
            adaptive_key: ROOT_KEY.value(opts)? == RootKeyMode::Adaptive,
            incremental: INCREMENTAL.value(opts)?,
            ..CompactTreeConfig::default()
        };
        config
            .check()
            .map_err(|e| format!("engine parameter {e}"))?;
        Ok(config)
    }
    fn sequential(
        model: &dyn Model,
        config: CompactTreeConfig,
        opts: &EngineOptions,
    ) -> Result<CompactTree, TableFull> {
        CompactTree::new(model.slot_count(), &config, Budget::new(opts.mem_budget))
    }
}

impl ConcurrentScheme for CompactTreeScheme {
    type Shared = SharedCompactTree;
    fn concurrent(
        model: &dyn Model,
        config: CompactTreeConfig,
        opts: &EngineOptions,
    ) -> Result<SharedCompactTree, TableFull> {
        SharedCompactTree::new(model.slot_count(), &config, Budget::new(opts.mem_budget))
    }
}
