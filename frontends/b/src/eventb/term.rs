//! A reader for the Prolog terms of ProB's Event-B exports (`.eventb`: one
//! `package(...)` term, optionally ended by `.`): atoms (plain or quoted,
//! with ISO escapes), integers, double-quoted strings, variables, lists
//! and compound terms in canonical (prefix) form. Infix operators do not
//! occur in these exports and are refused.
//!
//! Why hand-written: crates.io's Prolog parsers are either whole Prolog
//! systems or unmaintained; canonical terms need ~150 lines.
//!
//! Owns only the syntax of terms; the meaning of the functors is
//! `translate`'s and `expr`'s.

use crate::ast::Pos;

/// A Prolog term; compound terms carry where their functor starts.
#[derive(Debug, Clone, PartialEq)]
pub enum Term {
    Atom(String),
    Int(i64),
    /// An integer literal beyond 64 bits (kept as written).
    BigInt(String),
    Str(String),
    Var(String),
    List(Vec<Term>),
    App(String, Vec<Term>, Pos),
}

impl Term {
    /// Whether `self` and `other` are the same term, wherever they are
    /// written (positions ignored).
    pub fn same_as(&self, other: &Term) -> bool {
        match (self, other) {
            (Term::App(f, a, _), Term::App(g, b, _)) => {
                f == g && a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.same_as(y))
            }
            (Term::List(a), Term::List(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.same_as(y))
            }
            _ => self == other,
        }
    }

    /// The atom's name, if this is an atom.
    pub fn atom(&self) -> Option<&str> {
        match self {
            Term::Atom(a) => Some(a),
            _ => None,
        }
    }

    /// The functor and arguments, if compound.
    pub fn app(&self) -> Option<(&str, &[Term])> {
        match self {
            Term::App(f, a, _) => Some((f, a)),
            _ => None,
        }
    }

    /// The elements, if a list.
    pub fn list(&self) -> Option<&[Term]> {
        match self {
            Term::List(v) => Some(v),
            _ => None,
        }
    }
}

/// A syntax error: message and position.
pub type TermError = (String, Pos);

/// Deepest nesting accepted (the evaluator recurses over the result).
const MAX_DEPTH: usize = 2000;

/// Reads the clauses of `text` (terms each ended by `.`, the last one
/// possibly not; file index `file` for positions).
pub fn read_terms(text: &str, file: u16) -> Result<Vec<Term>, TermError> {
    let mut r = TermReader {
        s: text.as_bytes(),
        i: 0,
        line: 1,
        col: 1,
        file,
    };
    let mut out = Vec::new();
    loop {
        r.skip_ws();
        if r.i >= r.s.len() {
            return Ok(out);
        }
        out.push(r.term(0)?);
        if !r.eat(b'.') {
            r.skip_ws();
            if r.i < r.s.len() {
                return Err(r.err("expected '.' after the term"));
            }
        }
    }
}

struct TermReader<'a> {
    s: &'a [u8],
    i: usize,
    line: u32,
    col: u32,
    file: u16,
}

impl TermReader<'_> {
    fn pos(&self) -> Pos {
        Pos {
            file: self.file,
            line: self.line,
            col: self.col,
        }
    }

    fn err(&self, m: &str) -> TermError {
        let m = match self.peek() {
            Some(c) => format!("{m} (at '{}')", c as char),
            None => format!("{m} (at the end of the file)"),
        };
        (m, self.pos())
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn bump(&mut self) -> Option<u8> {
        let c = self.peek()?;
        self.i += 1;
        if c == b'\n' {
            self.line += 1;
            self.col = 1;
        } else if c & 0xC0 != 0x80 {
            self.col += 1;
        }
        Some(c)
    }

    fn skip_ws(&mut self) {
        loop {
            match self.peek() {
                Some(c) if c.is_ascii_whitespace() => {
                    self.bump();
                }
                Some(b'%') => {
                    while self.peek().is_some_and(|c| c != b'\n') {
                        self.bump();
                    }
                }
                _ => break,
            }
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        self.skip_ws();
        if self.peek() == Some(c) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn term(&mut self, depth: usize) -> Result<Term, TermError> {
        if depth > MAX_DEPTH {
            return Err(self.err("term nested too deeply"));
        }
        self.skip_ws();
        let pos = self.pos();
        match self.peek() {
            Some(b'[') => {
                self.bump();
                if self.eat(b']') {
                    return Ok(Term::List(Vec::new()));
                }
                let items = self.args(b']', depth)?;
                Ok(Term::List(items))
            }
            Some(b'"') => Ok(Term::Str(self.quoted(b'"')?)),
            Some(b'\'') => {
                let a = self.quoted(b'\'')?;
                self.after_name(a, pos, depth)
            }
            Some(c) if c.is_ascii_digit() || c == b'-' => self.number(),
            Some(c) if c.is_ascii_lowercase() => {
                let a = self.word();
                self.after_name(a, pos, depth)
            }
            Some(c) if c.is_ascii_uppercase() || c == b'_' => Ok(Term::Var(self.word())),
            _ => Err(self.err("expected a term")),
        }
    }

    /// An atom, or a compound term when `(` follows immediately.
    fn after_name(&mut self, name: String, pos: Pos, depth: usize) -> Result<Term, TermError> {
        if self.peek() == Some(b'(') {
            self.bump();
            let args = self.args(b')', depth)?;
            Ok(Term::App(name, args, pos))
        } else {
            Ok(Term::Atom(name))
        }
    }

    /// Comma-separated terms up to `close` (the opening bracket read).
    fn args(&mut self, close: u8, depth: usize) -> Result<Vec<Term>, TermError> {
        let mut v = vec![self.term(depth + 1)?];
        while self.eat(b',') {
            v.push(self.term(depth + 1)?);
        }
        if !self.eat(close) {
            return Err(self.err(&format!("expected '{}' or ','", close as char)));
        }
        Ok(v)
    }

    fn word(&mut self) -> String {
        let start = self.i;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_')
        {
            self.bump();
        }
        String::from_utf8_lossy(&self.s[start..self.i]).into_owned()
    }

    fn number(&mut self) -> Result<Term, TermError> {
        let start = self.i;
        if self.peek() == Some(b'-') {
            self.bump();
        }
        if !self.peek().is_some_and(|c| c.is_ascii_digit()) {
            return Err(self.err("expected a digit (infix operators are not read)"));
        }
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.bump();
        }
        let text = String::from_utf8_lossy(&self.s[start..self.i]).into_owned();
        Ok(match text.parse() {
            Ok(n) => Term::Int(n),
            Err(_) => Term::BigInt(text),
        })
    }

    /// A quoted atom or string (the quote at `self.i`), escapes resolved.
    fn quoted(&mut self, q: u8) -> Result<String, TermError> {
        self.bump();
        let mut out: Vec<u8> = Vec::new();
        loop {
            match self.bump() {
                None => return Err(self.err("unterminated quoted text")),
                Some(c) if c == q => {
                    if self.peek() == Some(q) {
                        self.bump();
                        out.push(q);
                    } else {
                        break;
                    }
                }
                Some(b'\\') => self.escape(&mut out)?,
                Some(c) => out.push(c),
            }
        }
        Ok(String::from_utf8_lossy(&out).into_owned())
    }

    /// One escape sequence after `\`: `\n`, `\t`, `\\`, `\'`, `\"`,
    /// `\NNN\` (octal) and `\xHH\` (hexadecimal) character codes.
    fn escape(&mut self, out: &mut Vec<u8>) -> Result<(), TermError> {
        let c = self.bump().ok_or_else(|| self.err("unterminated escape"))?;
        let simple = match c {
            b'n' => Some(b'\n'),
            b't' => Some(b'\t'),
            b'r' => Some(b'\r'),
            b'a' => Some(7),
            b'b' => Some(8),
            b'f' => Some(12),
            b'v' => Some(11),
            b'0'..=b'7' | b'x' => None,
            b'\n' => return Ok(()),
            other => Some(other),
        };
        if let Some(b) = simple {
            out.push(b);
            return Ok(());
        }
        let (radix, mut digits) = if c == b'x' {
            (16, String::new())
        } else {
            (8, (c as char).to_string())
        };
        while let Some(d) = self.peek().filter(|d| (*d as char).is_digit(radix)) {
            self.bump();
            digits.push(d as char);
        }
        if self.peek() == Some(b'\\') {
            self.bump();
        }
        let ch = u32::from_str_radix(&digits, radix)
            .ok()
            .and_then(char::from_u32)
            .ok_or_else(|| self.err("bad character code"))?;
        let mut buf = [0u8; 4];
        out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_compound_terms_lists_and_quoted_atoms() {
        let ts = read_terms(
            "package(f(none,'A\\'b',[x,-12,\"s\"],'\\101\\c'),[],_E).\nnext(1).",
            0,
        )
        .expect("term");
        assert_eq!(ts.len(), 2);
        let t = &ts[0];
        let (f, args) = t.app().expect("compound");
        assert_eq!(f, "package");
        assert_eq!(args.len(), 3);
        let (g, inner) = args[0].app().expect("inner");
        assert_eq!(g, "f");
        assert_eq!(inner[0].atom(), Some("none"));
        assert_eq!(inner[1].atom(), Some("A'b"));
        assert_eq!(
            inner[2].list().expect("list"),
            &[
                Term::Atom("x".into()),
                Term::Int(-12),
                Term::Str("s".into())
            ]
        );
        assert_eq!(inner[3].atom(), Some("Ac"));
        assert_eq!(args[1], Term::List(vec![]));
        assert_eq!(args[2], Term::Var("_E".into()));
    }

    #[test]
    fn positions_and_errors() {
        let t = read_terms("a(\n  b(c))", 3).expect("term");
        let Term::App(_, args, _) = &t[0] else {
            panic!("compound expected")
        };
        let Term::App(_, _, pos) = &args[0] else {
            panic!("compound expected")
        };
        assert_eq!((pos.file, pos.line, pos.col), (3, 2, 3));
        assert!(read_terms("a(b", 0).is_err());
        assert!(read_terms("a(b) c", 0).is_err());
        assert!(read_terms("'abc", 0).is_err());
        assert!(read_terms("a(x+y)", 0).is_err());
        assert_eq!(
            read_terms("99999999999999999999999.", 0),
            Ok(vec![Term::BigInt("99999999999999999999999".into())])
        );
    }
}
