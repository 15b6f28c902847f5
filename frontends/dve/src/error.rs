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

/// An error while reading a DVE file. `Display` is always a single line:
/// `FILE:LINE:COL: message` when the position is known, else `FILE: message`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}{}: {message}", position_suffix(.position))]
pub struct DveError {
    kind: ErrorKind,
    file: String,
    position: Option<(u32, u32)>,
    message: String,
}

fn position_suffix(position: &Option<(u32, u32)>) -> String {
    match position {
        Some((line, col)) => format!(":{line}:{col}"),
        None => String::new(),
    }
}

/// Escapes line breaks and other control characters so that the rendered
/// error stays on one line whatever names or paths it quotes.
fn one_line(s: &str) -> String {
    if !s.chars().any(char::is_control) {
        return s.to_owned();
    }
    s.chars()
        .flat_map(|c| {
            if c.is_control() {
                c.escape_default().collect::<Vec<_>>()
            } else {
                vec![c]
            }
        })
        .collect()
}

impl DveError {
    /// An error with no known position.
    pub fn new(kind: ErrorKind, file: &str, message: impl AsRef<str>) -> Self {
        DveError {
            kind,
            file: one_line(file),
            position: None,
            message: one_line(message.as_ref()),
        }
    }

    /// An error at `line`:`col` (both 1-based) of `file`.
    pub fn at(kind: ErrorKind, file: &str, line: u32, col: u32, message: impl AsRef<str>) -> Self {
        DveError {
            position: Some((line, col)),
            ..DveError::new(kind, file, message)
        }
    }

    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The file label the error names (a path, or the label given to
    /// [`crate::parse_str`]).
    pub fn file(&self) -> &str {
        &self.file
    }

    /// 1-based line, when known.
    pub fn line(&self) -> Option<u32> {
        self.position.map(|(l, _)| l)
    }

    /// 1-based column (in characters), when known.
    pub fn column(&self) -> Option<u32> {
        self.position.map(|(_, c)| c)
    }

    /// The message without the `FILE:LINE:COL: ` prefix.
    pub fn message(&self) -> &str {
        &self.message
    }
}

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
