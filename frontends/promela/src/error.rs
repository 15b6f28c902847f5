//! The error type of the Promela front-end: every way reading a model can
//! fail (unreadable file, a syntax error, a semantically wrong model, a
//! language feature this front-end refuses, a limit exceeded), rendered as
//! ONE line `FILE:LINE:COL: message` (or `FILE: message`).
//!
//! Owns only the error representation. Errors found while *exploring* a
//! model (division by zero, index out of range, assertion violated, ...) are
//! [`pins::ModelError`]s raised by `model`.

/// What kind of problem a [`PromelaError`] reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// Not Promela: bad token, unbalanced braces, unexpected end of file.
    Syntax,
    /// Well-formed Promela that does not make sense: unknown name, label or
    /// proctype, wrong number of arguments, non-constant array size.
    Semantic,
    /// Valid Promela using a feature this front-end does not implement.
    Unsupported,
    /// A model beyond a fixed limit (processes, channel capacity, channels).
    Limit,
    /// The file could not be read.
    Io,
}

impl ErrorKind {
    /// Short lower-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::Syntax => "syntax",
            ErrorKind::Semantic => "semantic",
            ErrorKind::Unsupported => "unsupported",
            ErrorKind::Limit => "limit",
            ErrorKind::Io => "io",
        }
    }
}

/// An error while reading a Promela file (see [`pins::SourceError`]).
pub type PromelaError = pins::SourceError<ErrorKind>;
