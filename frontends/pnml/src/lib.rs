//! PNML front-end of statebench: reads place/transition nets in PNML (the
//! dialect of the Model Checking Contest, net type
//! `http://www.pnml.org/version-2009/grammar/ptnet`) and presents them as a
//! [`pins::Model`].
//!
//! Model mapping: one slot per place (document order; slot name = place id,
//! value = token count, 32 bits since markings are not bounded statically),
//! one transition group per transition (document order; label = transition
//! id), read set = pre-set ∪ post-set, write set = places whose token count
//! the transition changes. Coloured nets and special arcs are refused with
//! [`ErrorKind::Unsupported`], never mis-parsed. The process partition is
//! derived as described in the `partition` module (NUPN units when the file
//! carries them, else a capped structural token-flow heuristic).
//!
//! This crate owns only PNML reading and P/T net semantics; it must not know
//! any storage engine nor the harness (data flows file → frontend →
//! `pins::Model`), and must not change the `pins` interface.
//!
//! Modules: `parse` (XML → net, all input checks), `net` ([`PetriNet`], the
//! firing rule and the `pins::Model` implementation), `partition` (process
//! partition), `error` ([`PnmlError`]).

use std::path::Path;

mod error;
mod net;
mod parse;
mod partition;

pub use error::{ErrorKind, PnmlError};
pub use net::{PetriNet, Transition};
pub use parse::{MAX_XML_ATTRIBUTES, MAX_XML_DEPTH, MAX_XML_NAMESPACES, PTNET_TYPE};
pub use partition::{PartitionMethod, MAX_COMPONENT_PLACES};

/// Reads the P/T net in the PNML file at `path`. Errors name the file as
/// `path.display()`.
pub fn parse_file(path: &Path) -> Result<PetriNet, PnmlError> {
    let label = path.display().to_string();
    let bytes = std::fs::read(path)
        .map_err(|e| PnmlError::new(ErrorKind::Io, &label, format!("cannot read file: {e}")))?;
    let text = std::str::from_utf8(&bytes).map_err(|e| {
        let valid = &bytes[..e.valid_up_to()];
        // `valid` is UTF-8 by construction.
        let before = std::str::from_utf8(valid).unwrap_or("");
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
        PnmlError::at(
            ErrorKind::Syntax,
            &label,
            u32::try_from(line).unwrap_or(u32::MAX),
            u32::try_from(col).unwrap_or(u32::MAX),
            "file is not valid UTF-8",
        )
    })?;
    parse::parse(text, &label)
}

/// Reads a P/T net from PNML `text`; `file_label` names the source in errors
/// and model error locations.
pub fn parse_str(text: &str, file_label: &str) -> Result<PetriNet, PnmlError> {
    parse::parse(text, file_label)
}

#[cfg(test)]
mod tests;
