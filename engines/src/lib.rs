//! Visited-set engines and the explorers that drive them.
//!
//! This crate owns the storage schemes (one module each), the common
//! [`VisitedSet`] trait, the generic explorer, the [`RunReport`] an
//! exploration produces, and the [`registry`] that names every engine.
//! It knows models only through [`pins::Model`]: it must never import a
//! front-end, and it must not know about CSV, child processes or plots
//! (that is the harness).

pub mod budget;
pub mod cleary;
pub mod collapse;
pub mod comback;
pub mod compact_tree;
#[cfg(test)]
pub(crate) mod conformance;
pub mod explore;
pub mod hash_table;
pub mod index_table;
pub mod ptrie;
pub mod registry;
pub mod report;
pub mod state_queue;
pub mod symbolic;
pub mod tree;
pub mod visited;

pub use budget::Budget;
pub use explore::{explore, ExploreConfig, Progress};
pub use registry::{build_visited_set, create, find, EngineOptions, EngineSpec, ENGINES};
pub use report::{RunReport, RunStatus};
pub use visited::{Inserted, MemoryUsage, TableFull, VisitedSet};
