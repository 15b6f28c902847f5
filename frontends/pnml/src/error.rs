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

/// An error while reading a PNML file (see [`pins::SourceError`]: one
/// line, `FILE:LINE:COL: message` or `FILE: message`).
pub type PnmlError = pins::SourceError<ErrorKind>;

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
