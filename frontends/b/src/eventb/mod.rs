//! Event-B input: ProB's Rodin exports (`.eventb`, one Prolog term
//! `package(...)` holding a machine with its abstract machines and the
//! contexts they see). `term` reads the Prolog term, `expr` translates
//! Event-B predicates and expressions into the classical B syntax tree,
//! `project` turns contexts and the most concrete machine into B machines
//! (SETS/CONSTANTS/PROPERTIES, VARIABLES, INITIALISATION, events as
//! guarded operations), `refinement` adds the abstract variables the
//! concrete machine drops and the abstract actions on them. The result goes through the same `compile`,
//! evaluator and [`crate::BModel`] as classical B, so ProB's conventions
//! (settings, deferred set sizes, counting) are the same.
//!
//! Owns only the Event-B syntax; it must not evaluate anything.

mod expr;
mod project;
mod refinement;
mod term;

use crate::error::BError;
use crate::load::{Composed, Reader};

pub use project::Regions;

/// Reads the Event-B export `text` (from file `label`); the regions name
/// the axiom or event of a later error.
pub fn compose_str(
    reader: &mut Reader,
    text: &str,
    label: &str,
) -> Result<(Composed, Regions), BError> {
    project::compose(reader, text, label)
}
