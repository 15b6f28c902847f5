//! The error type of the PNML front-end: every way reading a net can fail,
//! rendered as ONE line `FILE:LINE:COL: message` (or `FILE: message` when
//! no position is known). Its kinds are [`pins::ErrorKind`]'s `Syntax` (not
//! well-formed XML: truncated, bad token, not UTF-8), `Structure` (missing
//! or duplicate ids, arcs to unknown nodes, bad markings or weights),
//! `Unsupported` (coloured nets, inhibitor or other special arcs, several
//! nets in one file) and `Io`.
//!
//! This module owns only the error representation; it must not know how
//! PNML is parsed, and it never holds XML nodes (errors outlive documents).
//! Errors found while *exploring* a net (token overflow) are not
//! [`PnmlError`]s but [`pins::ModelError`]s, raised by `net`.

pub use pins::ErrorKind;

/// An error while reading a PNML file (see [`pins::SourceError`]: one
/// line, `FILE:LINE:COL: message` or `FILE: message`).
pub type PnmlError = pins::SourceError<ErrorKind>;
