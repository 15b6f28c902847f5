//! The error type of the mCRL2 front-end: every way reading a linear process
//! can fail, rendered as ONE line `FILE:LINE:COL: message` (or `FILE:
//! message`). Its kinds are [`pins::ErrorKind`]'s `Syntax` (bad token,
//! unbalanced brackets, missing `;`), `Semantic` (unknown name, wrong number
//! of arguments, a parameter updated twice), `NotLinear` (a process
//! specification that is not linear, and no `mcrl22lps` on `PATH`),
//! `Unsupported` (time, a sum variable over an infinite sort that the
//! condition does not bound, an equation pattern that is not a constructor
//! term) and `Io` (unreadable file, or the linearisation tools failed).
//!
//! Owns only the error representation. Errors found while *exploring* (a
//! division by zero, `head([])`, a map with no matching equation) are
//! [`pins::ModelError`]s raised by `model`.

pub use pins::ErrorKind;

/// An error while reading an mCRL2 file (see [`pins::SourceError`]).
pub type Mcrl2Error = pins::SourceError<ErrorKind>;
