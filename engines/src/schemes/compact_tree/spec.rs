//! The Compact Tree's parameters and its registry entry.
//!
//! Owns the `compact-tree` engine's parameter declarations and reading
//! its configuration from them (each form's `Build` is beside its
//! constructor). The parameters' ranges (some
//! involve two of them: `o ≤ w`, `m ≤ w + o`) are checked by
//! [`CompactTreeConfig::check`], which direct constructors use too, so
//! each range is written once.

use super::{CompactTree, CompactTreeConfig};
use super::concurrent::SharedCompactTree;
use crate::registry::{explicit, params, Configure, EngineOptions, EngineSpec};
use crate::blocks::index_table::Growth;
use crate::registry::{words, ParamValue};
use crate::schemes::tree::order::{slot_order, SlotOrder};
use pins::Model;

/// The `compact-tree` engine. Its defaults met both targets of the
/// compression issue in the BEEM campaign, and `slot_order=sample` took
/// the median used bits per state from 29.3 to 17.6 on 39 BEEM instances
/// of 1e5..1e6 states, none worse, and with `pairing` among its
/// candidates to 14.6 (mean 18.9, none above 64; docs/slot-order.md);
/// `m=budget root_key=fixed slot_order=model` is the paper's configuration.
pub const SPEC: EngineSpec = EngineSpec::new("compact-tree", explicit::<CompactTreeConfig, CompactTree, SharedCompactTree>())
    .summary("tree with a Cleary compact root table (w, o, u)")
    .params(PARAMS);

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
    /// How a table grows: the node tables (`node_growth`) and, with
    /// `m=auto`, the root table (`root_growth`).
    pub enum TableGrowth {
        /// Doubles (node tables: bucket array and tuple segments), as in
        /// the paper.
        Double = "double",
        /// In small steps: node tables' bucket arrays by a quarter and
        /// tuple segments by an eighth; the root by a quarter to a seventh.
        Fine = "fine",
    }
}

impl TableGrowth {
    /// The table's growth.
    pub fn growth(self) -> Growth {
        match self {
            TableGrowth::Double => Growth::Double,
            TableGrowth::Fine => Growth::Fine,
        }
    }

    /// The parameter value of `growth`.
    pub fn of(growth: Growth) -> Self {
        match growth {
            Growth::Double => TableGrowth::Double,
            Growth::Fine => TableGrowth::Fine,
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

params! {
    pub const PARAMS = [
        /// index bits of node tables, 1..=32
        W: u32 = "w", default 30;
        /// overcommit: root buckets up to 2^(w+o)
        O: u32 = "o", default 2;
        /// bits of a slot value, 1..=32
        U: u32 = "u", default 30;
        /// log2 of root buckets, 4..=w+o; budget: the largest within half the memory budget, from
        /// the start (the paper); auto: grow up to it
        M: RootSize = "m", default RootSize::Auto;
        /// load at which the root table is full
        MAX_LOAD: f64 = "max_load", default 0.9;
        /// with m=auto: load at which the root table doubles; lower = longer quotient, shorter
        /// entries, more memory
        GROW_LOAD: f64 = "grow_load", default 0.75;
        /// with m=auto: how the root table grows at grow_load: double, or fine (bucket counts
        /// c*2^j, 4 <= c < 8, by a quarter to a seventh: load 0.6..0.75 instead of 0.375..0.75,
        /// about three times the re-insertions); the concurrent form's shared root doubles
        ROOT_GROWTH: TableGrowth = "root_growth", default TableGrowth::Double;
        /// fixed: root keys of 2w bits as in the paper; adaptive: of the children's current index
        /// width, re-stored as node tables grow
        ROOT_KEY: RootKeyMode = "root_key", default RootKeyMode::Adaptive;
        /// how the sequential node tables grow: double (bucket arrays and tuple segments, as in the
        /// paper) or fine (bucket arrays by a quarter, tuple segments by an eighth: allocation close
        /// to use); the concurrent form's shared tables double
        NODE_GROWTH: TableGrowth = "node_growth", default TableGrowth::Fine;
        /// reuse the predecessor's node indices
        INCREMENTAL: bool = "incremental", default true;
        /// which slot each leaf of the tree holds: model (the model's order), groups (chained by
        /// the similarity of the transition groups touching them), pairing (subtrees joined bottom-up
        /// from slots whose joint values are few on the first states of a breadth-first search),
        /// sample (of those three, the one whose tree is smallest on those states)
        SLOT_ORDER: SlotOrder = "slot_order", default SlotOrder::Sample;
    ];
}

/// The run's parameters, their ranges checked together.
impl Configure for CompactTreeConfig {
    fn configure(model: &dyn Model, opts: &EngineOptions) -> Result<Self, String> {
        let (m, grow) = M.value(opts)?.m_and_grow();
        let config = CompactTreeConfig {
            w: W.value(opts)?,
            o: O.value(opts)?,
            u: U.value(opts)?,
            m,
            grow,
            max_load: MAX_LOAD.value(opts)?,
            grow_load: GROW_LOAD.value(opts)?,
            root_growth: ROOT_GROWTH.value(opts)?.growth(),
            adaptive_key: ROOT_KEY.value(opts)? == RootKeyMode::Adaptive,
            incremental: INCREMENTAL.value(opts)?,
            node_growth: NODE_GROWTH.value(opts)?.growth(),
            slot_order: SLOT_ORDER.value(opts)?,
            order: slot_order(SLOT_ORDER.value(opts)?, model),
            ..CompactTreeConfig::default()
        };
        config
            .check()
            .map_err(|e| format!("engine parameter {e}"))?;
        Ok(config)
    }
}
