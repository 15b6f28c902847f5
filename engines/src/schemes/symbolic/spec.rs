//! The symbolic engines' parameters and their registry entries (`bdd`,
//! `mdd`: one search, three encodings of the slots, `mdd` choosing between
//! the list decision diagram and the one-hot ZBDD by `encoding`).
//!
//! Owns the parameter declarations and [`SymbolicConfig`] read from them;
//! the search is in `search.rs`, the encodings in `bdd.rs`, `ldd.rs` and `mdd.rs`.

use super::search::Strategy;
use crate::registry::{params, words, Count, EngineOptions, EngineSpec, ParamValue, Run, SearchFn};

/// The `bdd` engine.
pub const BDD: EngineSpec = EngineSpec::new("bdd", own_search(super::search_with::<super::bdd::Bdd>))
    .summary("symbolic reachability, slots in binary over oxidd BDDs, relations learned per group")
    .params(&[&STRATEGY, &THREADS, &SLOT_ORDER, &ORDER]);

/// The `mdd` engine.
pub const MDD: EngineSpec = EngineSpec::new("mdd", own_search(super::search_mdd))
    .summary("symbolic reachability, one level per slot (a list decision diagram, or one-hot over an oxidd ZBDD), relations learned per group")
    .params(&[&STRATEGY, &THREADS, &SLOT_ORDER, &ENCODING, &MERGE, &EXPLICIT_STATES]);

/// How both run: their own search, on the run's thread count (oxidd's
/// apply workers).
const fn own_search(search: SearchFn) -> Run {
    Run::Search {
        search,
        self_parallel: true,
    }
}

/// Worker threads of the oxidd manager: the run's `--threads` unless set.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Workers(pub Option<u32>);

impl ParamValue for Workers {
    fn parse(text: &str) -> Result<Self, String> {
        match text.parse::<u32>() {
            Ok(0) => Err("must be at least 1".to_owned()),
            Ok(n) => Ok(Workers(Some(n))),
            Err(_) => Err("not a valid value".to_owned()),
        }
    }
    fn show(&self) -> String {
        match self.0 {
            Some(n) => n.to_string(),
            None => "the run's --threads".to_owned(),
        }
    }
}

words! {
    /// Where the slots' variables go in the diagram's order.
    pub enum SlotOrder {
        /// FORCE on the groups' read/write sets.
        Force = "force",
        /// The model's slot order.
        Model = "model",
    }
}

words! {
    /// Where a BDD slot's next-state bits go: `x x'` per bit (interleaved)
    /// or a slot's `x` bits, then its `x'` bits (blocked).
    pub enum BitOrder { Interleaved = "interleaved", Blocked = "blocked" }
}

params! {
    /// bfs, chaining, saturation (the saturation order on whole sets, LTSmin sat-like) or
    /// node-saturation (node-wise, Ciardo)
    pub const STRATEGY: Strategy = "strategy", default Strategy::Saturation;
    /// oxidd worker threads for apply (the list decision diagram runs on one)
    pub const THREADS: Workers = "threads", default Workers(None);
    /// force (FORCE heuristic on the groups' read/write sets) or model
    pub const SLOT_ORDER: SlotOrder = "slot_order", default SlotOrder::Force;
}

words! {
    /// How the `mdd` engine encodes a slot: one level per slot, values as
    /// edges (ldd, our list decision diagram) or a ZBDD variable per slot
    /// value (onehot, over oxidd).
    pub enum MddEncoding { Ldd = "ldd", OneHot = "onehot" }
}

params! {
    /// ldd (one level per slot, values as edges: our list decision diagram, any value fits) or
    /// onehot (a ZBDD variable per slot value, over oxidd)
    pub const ENCODING: MddEncoding = "encoding", default MddEncoding::Ldd;
}

words! {
    /// Whether the list decision diagram also keeps the relations of the
    /// groups of one top slot merged and applies them as one
    /// (`ddmerge.rs`, `ddunits.rs`).
    pub enum Merge { None = "none", Top = "top" }
}

params! {
    /// none, or top (ldd only: the groups of one top slot also applied as one merged relation)
    pub const MERGE: Merge = "merge", default Merge::None;
}

params! {
    /// ldd only: the most states a run learns on directly, one model call per state (past it,
    /// every group is learned on projections of the new states)
    pub const EXPLICIT_STATES: Count = "explicit_states", default Count(1 << 24);
}

params! {
    /// interleaved (x x' per bit) or blocked (a slot's x bits, then its x' bits)
    pub const ORDER: BitOrder = "order", default BitOrder::Interleaved;
}

/// Parameters of the symbolic engines.
#[derive(Clone, Debug)]
pub struct SymbolicConfig {
    pub strategy: Strategy,
    /// Worker threads of the oxidd manager.
    pub threads: u32,
    /// BDD only: interleaved (true) or blocked current/next variables.
    pub interleaved: bool,
    /// Inner-node capacity of the manager.
    pub node_capacity: usize,
    /// Slots reordered by FORCE (true) or in the model's order.
    pub force_order: bool,
    /// MDD only: the list decision diagram (true) or the one-hot ZBDD.
    pub list: bool,
    /// LDD only: groups of one top slot also applied as one merged
    /// relation.
    pub merge: bool,
    /// LDD only: the most states a run learns on directly
    /// ([`super::search`]'s learning on new states).
    pub explicit_states: u64,
}

impl SymbolicConfig {
    /// The configuration `opts` sets (its parameters are already checked
    /// against the engine's list).
    pub fn from_options(opts: &EngineOptions) -> Result<Self, String> {
        // A node costs 16 bytes plus its share of the unique table and the
        // apply cache: give each node 40 bytes of the budget.
        let node_capacity = if opts.mem_budget == 0 {
            1 << 26
        } else {
            (opts.mem_budget / 40).clamp(1 << 16, u64::from(u32::MAX >> 1)) as usize
        };
        Ok(SymbolicConfig {
            strategy: STRATEGY.value(opts)?,
            // oxidd's apply runs on the run's thread count unless set.
            threads: THREADS.value(opts)?.0.unwrap_or(opts.threads.max(1) as u32),
            interleaved: ORDER.value(opts)? == BitOrder::Interleaved,
            node_capacity,
            force_order: SLOT_ORDER.value(opts)? == SlotOrder::Force,
            list: ENCODING.value(opts)? == MddEncoding::Ldd,
            merge: MERGE.value(opts)? == Merge::Top,
            explicit_states: EXPLICIT_STATES.value(opts)?.0 as u64,
        })
    }
}
