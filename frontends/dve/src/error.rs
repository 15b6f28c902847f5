//! The error type of the DVE front-end: every way reading a model can fail,
//! rendered as ONE line `FILE:LINE:COL: message` (or `FILE: message` when
//! no position is known). Its kinds are [`pins::ErrorKind`]'s `Syntax` (bad
//! token, unbalanced braces, missing `;`, unexpected end of file),
//! `Semantic` (unknown variable, state, process or channel, type error,
//! sync on an undeclared channel, non-constant initialiser), `Unsupported`
//! (`system sync`, property processes, process-local channels) and `Io`.
//!
//! This module owns only the error representation. Errors found while
//! *exploring* a model (division by zero, index out of range, ...) are not
//! [`DveError`]s but [`pins::ModelError`]s, raised by `model`.

pub use pins::ErrorKind;

/// An error while reading a DVE file (see [`pins::SourceError`]: one
/// line, `FILE:LINE:COL: message` or `FILE: message`).
pub type DveError = pins::SourceError<ErrorKind>;
