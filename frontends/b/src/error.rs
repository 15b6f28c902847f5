//! The error type of the B front-end: every way reading a machine can fail,
//! rendered as ONE line `FILE:LINE:COL: message`. Its kinds are
//! [`pins::ErrorKind`]'s `Syntax` (not B: bad token, unbalanced `END`,
//! missing operand), `Semantic` (unknown identifier, missing machine,
//! PROPERTIES ill-defined), `Unsupported` (a construct or setting this
//! front-end refuses) and `Io` (a file could not be read).
//!
//! Owns only the error representation; errors found while exploring (a
//! function applied outside its domain, division by zero, ...) are
//! [`pins::ModelError`]s raised by the evaluator.

pub use pins::ErrorKind;

/// An error while reading a B machine (see [`pins::SourceError`]).
pub type BError = pins::SourceError<ErrorKind>;
