//! The child side of an isolated run, as a library: where a model's text
//! comes from (`source`), loading it (`models`), running one engine on it
//! and reporting line by line (`child`, `protocol`). Both binaries link it:
//! `statebench` (its parent's side reads the protocol; its hidden `child`
//! subcommand runs a child where the lean binary is missing) and
//! `statebench-child`, the lean binary the parent runs when it lies beside
//! `statebench`. That one links nothing else (no command-line, CSV, figure
//! or report code), so that the code pages a measured child maps, which
//! are part of its peak RSS, are few.

pub mod child;
pub mod models;
pub mod protocol;
pub mod resident;
pub mod source;
