//! The error type of the Promela front-end: every way reading a model can
//! fail, rendered as ONE line `FILE:LINE:COL: message` (or `FILE: message`).
//! Its kinds are [`pins::ErrorKind`]'s `Syntax` (bad token, unbalanced
//! braces, unexpected end of file), `Semantic` (unknown name, label or
//! proctype, wrong number of arguments, non-constant array size),
//! `Unsupported` (a feature this front-end does not implement), `Limit`
//! (processes, channel capacity, channels beyond a fixed limit) and `Io`.
//!
//! Owns only the error representation. Errors found while *exploring* a
//! model (division by zero, index out of range, assertion violated, ...) are
//! [`pins::ModelError`]s raised by `model`.

pub use pins::ErrorKind;

/// An error while reading a Promela file (see [`pins::SourceError`]).
pub type PromelaError = pins::SourceError<ErrorKind>;
