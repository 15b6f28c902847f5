//! The error type of the DVE front-end: every way reading a model can fail
//! (unreadable file, a syntax error, a semantically wrong model, a language
//! feature this front-end refuses), rendered as ONE line
//! `FILE:LINE:COL: message` (or `FILE: message` when no position is known).
//!
//! This module owns only the error representation. Errors found while
//! *exploring* a model (division by zero, index out of range, ...) are not
//! [`DveError`]s but [`pins::ModelError`]s, raised by `model`.

/// What kind of problem a [`DveError`] reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// The text is not a DVE model: bad token, unbalanced braces, missing
    /// `;`, unexpected end of file...
    Syntax,
    /// Well-formed DVE that does not make sense: unknown variable, state,
    /// process or channel, type error (array used as a scalar, assignment to
    /// a constant), sync on an undeclared channel, non-constant initialiser.
    Semantic,
    /// Valid DVE using a feature this front-end does not implement
    /// (`system sync`, property processes, process-local channels).
    Unsupported,
    /// The file could not be read.
    Io,
}

impl ErrorKind {
    /// Short lower-case name (`syntax`, `semantic`, `unsupported`, `io`).
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::Syntax => "syntax",
            ErrorKind::Semantic => "semantic",
            ErrorKind::Unsupported => "unsupported",
            ErrorKind::Io => "io",
        }
    }
}

/// An error while reading a DVE file (see [`pins::SourceError`]: one
/// line, `FILE:LINE:COL: message` or `FILE: message`).
pub type DveError = pins::SourceError<ErrorKind>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_with_and_without_position() {
        let e = DveError::at(ErrorKind::Semantic, "m.dve", 3, 7, "unknown variable 'x'");
        assert_eq!(e.to_string(), "m.dve:3:7: unknown variable 'x'");
        let e = DveError::new(ErrorKind::Io, "m.dve", "cannot read");
        assert_eq!(e.to_string(), "m.dve: cannot read");
        assert_eq!(e.kind().as_str(), "io");
    }

    #[test]
    fn display_is_one_line() {
        let e = DveError::new(ErrorKind::Syntax, "a\nb.dve", "bad\ntoken");
        assert!(!e.to_string().contains('\n'));
    }
}
