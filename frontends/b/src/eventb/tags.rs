//! ProB's theory mapping (`tag(Operator, Internal)` in the last list of a
//! `theory(...)` term of the export's extras, from the theory's `.ptm`
//! file): an operator tagged with one of ProB's internal implementations
//! is applied as that implementation, not by its definition. Only the
//! internals whose meaning is one classical B operator are taken here:
//! `closure1` (`cls(r)` is `closure1(r)`, the transitive closure, which
//! the theories define as a fixpoint `fix` with no definition ProB or this
//! reader could evaluate). Any other tag leaves the operator to its
//! definition (`theory`, `datatypes`).
//!
//! Owns only the table of tags; translation is `expr`'s.

use crate::ast::Builtin;

use super::term::Term;

/// The operators tagged with an internal implementation taken here, and
/// the B operator each one is.
#[derive(Default)]
pub struct Tags(Vec<(String, Builtin)>);

/// The B operator of ProB's internal implementation `internal`, when it
/// is one taken here (by its arity: one argument).
fn internal(internal: &str) -> Option<Builtin> {
    match internal {
        "closure1" => Some(Builtin::Closure1),
        _ => None,
    }
}

impl Tags {
    /// The tags of the `theory(...)` terms among `extras`.
    pub fn read(extras: &[Term]) -> Tags {
        let mut out = Vec::new();
        for t in extras {
            if let Some(("theory", xs)) = t.app() {
                let tags = xs.last().and_then(Term::list).unwrap_or(&[]);
                for tag in tags {
                    if let Some(("tag", [op, int])) = tag.app() {
                        if let (Some(op), Some(b)) = (op.atom(), int.atom().and_then(internal)) {
                            out.push((op.to_owned(), b));
                        }
                    }
                }
            }
        }
        Tags(out)
    }

    /// The B operator operator `name` is tagged with, if any.
    pub fn builtin(&self, name: &str) -> Option<Builtin> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, b)| *b)
    }
}
