//! Visited-set engines and the explorers that drive them.
//!
//! This crate owns the storage schemes (one module each), the common
//! [`VisitedSet`] trait and its concurrent form, the generic explorer and
//! its multi-threaded form, the [`RunReport`] an
//! exploration produces, and the [`registry`] that names every engine.
//! It knows models only through [`pins::Model`]: it must never import a
//! front-end, and it must not know about CSV, child processes or plots
//! (that is the harness).

pub mod budget;
pub mod cleary;
pub mod collapse;
pub mod comback;
pub mod compact_tree;
pub mod concurrent;
#[cfg(test)]
pub(crate) mod conformance;
pub mod explore;
pub mod hash_table;
pub mod index_table;
pub mod latency;
pub mod lease;
pub mod parallel;
pub mod ptrie;
pub mod registry;
pub mod report;
pub mod shared_cleary;
pub mod shared_collapse;
pub mod shared_compact_tree;
pub mod shared_ptrie;
pub mod shared_table;
pub mod shared_tree;
pub mod slot_domains;
pub mod state_queue;
pub mod symbolic;
mod sync;
#[cfg(test)]
pub(crate) mod test_models;
pub mod tree;
pub mod visited;

pub use budget::Budget;
pub use concurrent::{ConcurrentVisitedSet, InsertError, WorkerLocal};
pub use explore::{explore, ExploreConfig, Progress};
pub use latency::OpLatency;
pub use parallel::explore_parallel;
pub use registry::{
    build_concurrent_set, build_visited_set, create, find, has_concurrent_form, supports_threads,
    EngineOptions, EngineSpec, ENGINES, FORM_PARAM,
};
pub use report::{RunReport, RunStatus};
pub use visited::{Inserted, MemoryUsage, TableFull, VisitedSet};
