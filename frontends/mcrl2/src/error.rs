//! The error type of the mCRL2 front-end: every way reading a linear process
//! can fail (unreadable file, syntax error, an ill-typed or unknown name, a
//! specification that is not linear, a feature this front-end refuses),
//! rendered as ONE line `FILE:LINE:COL: message` (or `FILE: message`).
//!
//! Owns only the error representation. Errors found while *exploring* (a
//! division by zero, `head([])`, a map with no matching equation) are
//! [`pins::ModelError`]s raised by `model`.

/// What kind of problem a [`Mcrl2Error`] reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// Not mCRL2 text: bad token, unbalanced brackets, missing `;`.
    Syntax,
    /// Well-formed text that does not make sense: unknown name, wrong
    /// number of arguments, a parameter updated twice.
    Semantic,
    /// A process specification that is not linear, and no `mcrl22lps` on
    /// `PATH` to linearise it.
    NotLinear,
    /// Valid mCRL2 this front-end does not handle: time, a sum variable
    /// over an infinite sort that the condition does not bound, an
    /// equation pattern that is not a constructor term.
    Unsupported,
    /// The file could not be read (or the linearisation tools failed).
    Io,
}

impl ErrorKind {
    /// Short lower-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::Syntax => "syntax",
            ErrorKind::Semantic => "semantic",
            ErrorKind::NotLinear => "not_linear",
            ErrorKind::Unsupported => "unsupported",
            ErrorKind::Io => "io",
        }
    }
}

/// An error while reading an mCRL2 file (see [`pins::SourceError`]).
pub type Mcrl2Error = pins::SourceError<ErrorKind>;
