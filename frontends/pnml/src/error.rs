//! The error type of the PNML front-end: every way reading a net can fail
//! (unreadable file, malformed XML, a malformed or inconsistent net, a net
//! class we do not support), rendered as ONE line `FILE:LINE:COL: message`
//! (or `FILE: message` when no position is known).
//!
//! This module owns only the error representation; it must not know how
//! PNML is parsed, and it never holds XML nodes (errors outlive documents).
//! Errors found while *exploring* a net (token overflow) are not
//! [`PnmlError`]s but [`pins::ModelError`]s, raised by `net`.

/// What kind of problem a [`PnmlError`] reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// The file is not well-formed XML (truncated, bad token, not UTF-8...).
    Syntax,
    /// Well-formed XML that is not a consistent P/T net: missing or
    /// duplicate ids, arcs to unknown nodes, bad markings or weights...
    Structure,
    /// A valid PNML document of a net class this front-end refuses:
    /// coloured (symmetric / high-level) nets, inhibitor or other special
    /// arcs, several nets in one file.
    Unsupported,
    /// The file could not be read.
    Io,
}

impl ErrorKind {
    /// Short lower-case name (`syntax`, `structure`, `unsupported`, `io`).
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::Syntax => "syntax",
            ErrorKind::Structure => "structure",
            ErrorKind::Unsupported => "unsupported",
            ErrorKind::Io => "io",
        }
    }
}

/// An error while reading a PNML file. `Display` is always a single line:
/// `FILE:LINE:COL: message` when the position is known, else `FILE: message`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}{}: {message}", position_suffix(.position))]
pub struct PnmlError {
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
/// error stays on one line whatever ids or paths it quotes.
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

impl PnmlError {
    /// An error with no known position.
    pub fn new(kind: ErrorKind, file: &str, message: impl AsRef<str>) -> Self {
        PnmlError {
            kind,
            file: one_line(file),
            position: None,
            message: one_line(message.as_ref()),
        }
    }

    /// An error at `line`:`col` (both 1-based) of `file`.
    pub fn at(kind: ErrorKind, file: &str, line: u32, col: u32, message: impl AsRef<str>) -> Self {
        PnmlError {
            position: Some((line, col)),
            ..PnmlError::new(kind, file, message)
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

    /// 1-based line of the offending XML node, when known.
    pub fn line(&self) -> Option<u32> {
        self.position.map(|(l, _)| l)
    }

    /// 1-based column of the offending XML node, when known.
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
        let e = PnmlError::at(ErrorKind::Structure, "net.pnml", 3, 7, "duplicate id 'p'");
        assert_eq!(e.to_string(), "net.pnml:3:7: duplicate id 'p'");
        let e = PnmlError::new(ErrorKind::Io, "net.pnml", "cannot read");
        assert_eq!(e.to_string(), "net.pnml: cannot read");
    }

    #[test]
    fn display_is_one_line_even_with_newlines_in_ids() {
        let e = PnmlError::new(ErrorKind::Structure, "a\nb.pnml", "id 'x\ny'");
        let s = e.to_string();
        assert!(!s.contains('\n'), "{s}");
        assert_eq!(s, "a\\nb.pnml: id 'x\\ny'");
    }
}
