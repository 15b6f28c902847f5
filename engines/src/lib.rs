//! Visited-set engines and the explorers that drive them.
//!
//! This crate owns the storage schemes (one module each), the common
//! [`VisitedSet`] trait and its concurrent form, the generic explorer and
//! its multi-threaded form, the [`RunReport`] an
//! exploration produces, and the [`registry`] that names every engine.
//! It knows models only through [`pins::Model`]: it must never import a
//! front-end, and it must not know about CSV, child processes or plots
//! (that is the harness).

pub mod blocks;
pub mod concurrent;
#[cfg(test)]
pub(crate) mod conformance;
pub mod explore;
pub mod registry;
pub mod report;
pub mod schemes;
#[cfg(test)]
pub(crate) mod test_models;
pub mod visited;

pub use blocks::budget::Budget;
pub use concurrent::{ConcurrentVisitedSet, InsertError, WorkerLocal};
pub use explore::latency::OpLatency;
pub use explore::parallel::explore_parallel;
pub use explore::{explore, explore_queued, ExploreConfig, Progress, QueueMode};
pub use registry::{
    create, find, has_concurrent_form, lookup, supports_threads, EngineOptions, EngineSpec,
    ENGINES, FORM_PARAM, QUEUE_PARAM,
};
pub use report::{RunReport, RunStatus};
pub use visited::{Inserted, MemoryUsage, TableFull, VisitedSet};
