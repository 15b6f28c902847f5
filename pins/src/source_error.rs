//! Errors in a model's source text, shared by every front-end: a kind (the
//! front-ends share [`ErrorKind`]; each raises the kinds its docs name), the
//! file, an optional 1-based line and column, and a message, always
//! displayed as ONE line: `FILE:LINE:COL: message`, or `FILE: message` when
//! no position is known.
//!
//! Owns only the representation and its rendering; it must not know any
//! formalism's syntax nor errors found while exploring (those are
//! [`crate::ModelError`]s).

use std::fmt;
use std::path::Path;

/// What kind of problem a front-end's [`SourceError`] reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// Not the formalism's text (or not well-formed XML): bad token,
    /// unbalanced brackets, missing `;`, unexpected end of file.
    Syntax,
    /// Well-formed text that does not make sense: unknown name, wrong number
    /// of arguments, a type error, a non-constant initialiser.
    Semantic,
    /// Well-formed XML that is not a consistent net: missing or duplicate
    /// ids, arcs to unknown nodes, bad markings or weights (PNML).
    Structure,
    /// A process specification that is not linear, and no tool to linearise
    /// it (mCRL2).
    NotLinear,
    /// Valid input using a construct, setting or net class the front-end
    /// refuses.
    Unsupported,
    /// A model beyond a fixed limit of the front-end (processes, channel
    /// capacity, channels: Promela).
    Limit,
    /// A file could not be read (or an external tool failed).
    Io,
}

impl ErrorKind {
    /// Short lower-case name (`syntax`, `not_linear`, `io`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::Syntax => "syntax",
            ErrorKind::Semantic => "semantic",
            ErrorKind::Structure => "structure",
            ErrorKind::NotLinear => "not_linear",
            ErrorKind::Unsupported => "unsupported",
            ErrorKind::Limit => "limit",
            ErrorKind::Io => "io",
        }
    }
}

/// An error while reading a model file, with a kind `K` (a front-end's is
/// [`ErrorKind`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceError<K> {
    kind: K,
    file: String,
    position: Option<(u32, u32)>,
    message: String,
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

impl<K: Copy> SourceError<K> {
    /// An error with no known position.
    pub fn new(kind: K, file: &str, message: impl AsRef<str>) -> Self {
        SourceError {
            kind,
            file: one_line(file),
            position: None,
            message: one_line(message.as_ref()),
        }
    }

    /// An error at `line`:`col` (both 1-based) of `file`.
    pub fn at(kind: K, file: &str, line: u32, col: u32, message: impl AsRef<str>) -> Self {
        SourceError {
            position: Some((line, col)),
            ..SourceError::new(kind, file, message)
        }
    }

    pub fn kind(&self) -> K {
        self.kind
    }

    /// The file label the error names (a path, or the label given to a
    /// front-end's `parse_str`).
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

/// The text of the model file at `path` (invalid UTF-8 replaced), or an
/// [`ErrorKind::Io`] error naming the file as `label`.
pub fn read_source(path: &Path, label: &str) -> Result<String, SourceError<ErrorKind>> {
    let bytes = std::fs::read(path)
        .map_err(|e| SourceError::new(ErrorKind::Io, label, format!("cannot read file: {e}")))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// The name of the model in the file at `path`: the file stem, or `label`
/// when it has none.
pub fn model_name(path: &Path, label: &str) -> String {
    path.file_stem()
        .map_or_else(|| label.to_owned(), |s| s.to_string_lossy().into_owned())
}

impl<K> fmt::Display for SourceError<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.position {
            Some((line, col)) => write!(f, "{}:{line}:{col}: {}", self.file, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

impl<K: fmt::Debug> std::error::Error for SourceError<K> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum Kind {
        Syntax,
    }

    #[test]
    fn display_with_and_without_position() {
        let e = SourceError::at(Kind::Syntax, "m.x", 3, 7, "unknown name 'x'");
        assert_eq!(e.to_string(), "m.x:3:7: unknown name 'x'");
        assert_eq!(
            (e.line(), e.column(), e.kind()),
            (Some(3), Some(7), Kind::Syntax)
        );
        let e = SourceError::new(Kind::Syntax, "m.x", "cannot read");
        assert_eq!(e.to_string(), "m.x: cannot read");
        assert_eq!(e.message(), "cannot read");
        assert_eq!(ErrorKind::NotLinear.as_str(), "not_linear");
    }

    #[test]
    fn display_is_one_line_even_with_newlines_in_names() {
        let e = SourceError::new(Kind::Syntax, "a\nb.x", "id 'x\ny'");
        assert_eq!(e.to_string(), "a\\nb.x: id 'x\\ny'");
    }
}
