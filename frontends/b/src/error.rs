//! The error type of the B front-end: every way reading a machine can fail
//! (unreadable file, syntax error, semantically wrong machine, a construct
//! this front-end refuses), rendered as ONE line `FILE:LINE:COL: message`.
//!
//! Owns only the error representation; errors found while exploring (a
//! function applied outside its domain, division by zero, ...) are
//! [`pins::ModelError`]s raised by the evaluator.

/// What kind of problem a [`BError`] reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// Not B: bad token, unbalanced `END`, missing operand...
    Syntax,
    /// Well-formed B that does not make sense (unknown identifier, missing
    /// machine, PROPERTIES ill-defined).
    Semantic,
    /// Valid B using a construct or setting this front-end refuses.
    Unsupported,
    /// A file could not be read.
    Io,
}

impl ErrorKind {
    /// Short lower-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::Syntax => "syntax",
            ErrorKind::Semantic => "semantic",
            ErrorKind::Unsupported => "unsupported",
            ErrorKind::Io => "io",
        }
    }
}

/// An error while reading a B machine (see [`pins::SourceError`]).
pub type BError = pins::SourceError<ErrorKind>;
