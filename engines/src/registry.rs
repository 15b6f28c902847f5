//! The list of engines by name: the one place a new storage scheme is
//! registered (one line in [`ENGINES`]).
//!
//! Owns engine names, their parameters parsed from `key=value` strings, and
//! dispatch to the right search. Must not know formalisms or the harness.

use crate::explore::{explore, ExploreConfig};
use crate::hash_table::{HashTable, HashTableConfig};
use crate::report::{RunReport, RunStatus};
use pins::Model;

/// Everything an engine may be configured with.
#[derive(Clone, Debug, Default)]
pub struct EngineOptions {
    /// Bytes the engine's tables may allocate.
    pub mem_budget: u64,
    /// Engine parameters as `(key, value)`, e.g. `("max_load", "0.8")`.
    pub params: Vec<(String, String)>,
}

impl EngineOptions {
    fn get<T: std::str::FromStr>(&self, key: &str, default: T) -> Result<T, String> {
        match self.params.iter().rev().find(|(k, _)| k == key) {
            None => Ok(default),
            Some((_, v)) => v
                .parse()
                .map_err(|_| format!("engine parameter {key}={v}: not a valid value")),
        }
    }

    fn reject_unknown(&self, engine: &str, known: &[&str]) -> Result<(), String> {
        match self
            .params
            .iter()
            .find(|(k, _)| !known.contains(&k.as_str()))
        {
            Some((k, _)) => Err(format!(
                "engine {engine} has no parameter '{k}' (it has: {})",
                known.join(", ")
            )),
            None => Ok(()),
        }
    }
}

/// A registered engine.
pub struct EngineSpec {
    pub name: &'static str,
    pub summary: &'static str,
    /// Parameter names with their meaning and default.
    pub params: &'static [(&'static str, &'static str)],
    run: fn(&dyn Model, &EngineOptions, ExploreConfig<'_>) -> Result<RunReport, String>,
}

/// Every engine statebench knows, in presentation order.
pub const ENGINES: &[EngineSpec] = &[EngineSpec {
    name: "hash-table",
    summary: "open addressing over full vectors (LTSmin dbs-ll)",
    params: &[
        (
            "max_load",
            "load factor that doubles the bucket array (0.75)",
        ),
        (
            "initial_buckets",
            "initial bucket count, power of two (65536)",
        ),
    ],
    run: run_hash_table,
}];

fn run_hash_table(
    model: &dyn Model,
    opts: &EngineOptions,
    cfg: ExploreConfig<'_>,
) -> Result<RunReport, String> {
    opts.reject_unknown("hash-table", &["max_load", "initial_buckets"])?;
    let config = HashTableConfig {
        initial_buckets: opts.get("initial_buckets", 1usize << 16)?,
        max_load: opts.get("max_load", 0.75f64)?,
        mem_budget: opts.mem_budget,
    };
    if !(config.max_load > 0.0 && config.max_load < 1.0) {
        return Err(format!(
            "engine parameter max_load={}: must be in (0, 1)",
            config.max_load
        ));
    }
    let k = model.slot_count();
    match HashTable::new(k, config) {
        Ok(mut table) => Ok(explore(model, &mut table, cfg)),
        Err(full) => Ok(RunReport {
            status: RunStatus::TableFull,
            message: full.message,
            states: 0,
            transitions: 0,
            levels: 0,
            engine_bytes_used: 0,
            engine_bytes_alloc: 0,
            max_slot_bits: 0,
            explore_time_s: 0.0,
            engine_params: String::new(),
            dd_final_nodes: None,
            dd_peak_nodes: None,
            counters: Vec::new(),
        }),
    }
}

/// Looks an engine up by name.
pub fn find(name: &str) -> Option<&'static EngineSpec> {
    ENGINES.iter().find(|e| e.name == name)
}

/// Explores `model` with the engine `name`. `Err` for an unknown engine or
/// invalid parameters; every outcome of the search itself is a report.
pub fn create(
    name: &str,
    model: &dyn Model,
    opts: &EngineOptions,
    cfg: ExploreConfig<'_>,
) -> Result<RunReport, String> {
    let spec = find(name).ok_or_else(|| {
        let names: Vec<_> = ENGINES.iter().map(|e| e.name).collect();
        format!("unknown engine '{name}' (known: {})", names.join(", "))
    })?;
    (spec.run)(model, opts, cfg)
}
