//! Promela front-end of statebench: reads SPIN models (the dialect of the
//! BEEM Promela translations and more) and presents them as a
//! [`pins::Model`] (formalism `"promela"`) whose reachable state count is
//! SPIN's `states, stored` with partial-order reduction off
//! (`spin -a; gcc -DNOREDUCE -DSAFETY; ./pan`).
//!
//! Modules: `lexer` (tokens with positions), `parse` (syntax tree),
//! `compile` (names, layout, automata, process bound, groups), `model`
//! ([`PromelaModel`], execution), `error` ([`PromelaError`]).

use std::path::Path;

mod compile;
mod error;
mod lexer;
mod model;
mod parse;

pub use compile::{MAX_CAPACITY, MAX_CHANNELS, MAX_PROCESSES};
pub use error::{ErrorKind, PromelaError};
pub use model::PromelaModel;

/// Reads the Promela model in the file at `path`; errors name the file as
/// `path.display()`, the model is named after the file stem.
pub fn parse_file(path: &Path) -> Result<PromelaModel, PromelaError> {
    let label = path.display().to_string();
    let bytes = std::fs::read(path)
        .map_err(|e| PromelaError::new(ErrorKind::Io, &label, format!("cannot read file: {e}")))?;
    let text = String::from_utf8_lossy(&bytes);
    let name = path
        .file_stem()
        .map_or_else(|| label.clone(), |s| s.to_string_lossy().into_owned());
    let spec = parse::parse(&text, &label)?;
    compile::compile(&spec, &label, &name)
}

/// Reads a Promela model from `text`; `file_label` names the source in
/// errors and is the model name.
pub fn parse_str(text: &str, file_label: &str) -> Result<PromelaModel, PromelaError> {
    let spec = parse::parse(text, file_label)?;
    compile::compile(&spec, file_label, file_label)
}
