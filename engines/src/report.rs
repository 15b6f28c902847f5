//! The result of one exploration, as an engine hands it to the harness.
//!
//! Owns the figures an engine measures itself (counts, engine memory, time
//! of the search); what only the harness can know (RSS, limits, oracle,
//! machine) is not here.

use crate::explore::latency::OpLatency;
use serde::{Deserialize, Serialize};

/// How an exploration ended, as far as the engine can tell. The harness
/// adds the statuses only a parent process can see (timeout, memory limit,
/// crash, unsupported).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    Ok,
    TableFull,
    ModelError,
}

/// Figures of one exploration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunReport {
    pub status: RunStatus,
    /// Empty when `status` is `Ok`.
    pub message: String,
    /// Distinct states stored (for a stopped run, so far).
    pub states: u64,
    /// Successors generated (edges counted with multiplicity per event).
    pub transitions: u64,
    /// BFS levels completed; `None` when the search order is not
    /// level by level (the number is unknown).
    pub levels: Option<u64>,
    pub engine_bytes_used: u64,
    pub engine_bytes_alloc: u64,
    /// Bits of the largest value any slot of any stored state took (`u`).
    pub max_slot_bits: u32,
    /// `log2 U`, `U` the product over slots of the distinct values the slot
    /// took in stored states ([`crate::explore::slot_domains`]); `None` for engines
    /// that never see the states one by one (BDD/MDD) or when none was stored.
    #[serde(default)]
    pub universe_log2: Option<f64>,
    /// Wall time of the engine's work, seconds: the search, and for the
    /// explicit engines the building of their visited set before it (a
    /// `sample` slot order explores its sample then; that part alone is
    /// the counter `setup_us`).
    pub explore_time_s: f64,
    /// Effective engine parameters, `key=value;...`.
    pub engine_params: String,
    pub dd_final_nodes: Option<u64>,
    pub dd_peak_nodes: Option<u64>,
    /// Sampled latency of the visited set's `find_or_insert` (and its
    /// incremental form) as the explorer called it ([`crate::explore::latency`];
    /// with several threads, every worker's samples together); `None` for
    /// engines with their own search (ComBack, BDD/MDD).
    #[serde(default)]
    pub op_latency: Option<OpLatency>,
    /// Engine-specific counters.
    pub counters: Vec<(String, u64)>,
}

impl RunReport {
    /// The report of a run that ended `status` before storing a state:
    /// every figure zero or absent (`levels`: none).
    pub fn failed(status: RunStatus, message: String) -> Self {
        RunReport {
            status,
            message,
            states: 0,
            transitions: 0,
            levels: None,
            engine_bytes_used: 0,
            engine_bytes_alloc: 0,
            max_slot_bits: 0,
            universe_log2: None,
            explore_time_s: 0.0,
            engine_params: String::new(),
            dd_final_nodes: None,
            dd_peak_nodes: None,
            op_latency: None,
            counters: Vec::new(),
        }
    }
}
