//! Tokens of mCRL2's text syntax as `lpspp` prints it: identifiers,
//! numbers, punctuation and operators, each with its 1-based line and
//! column. `%` starts a comment that runs to the end of the line.
//!
//! Owns only the scanning of characters into tokens; it must not know the
//! grammar (that is `parser`) nor any meaning of the words.

use crate::error::{ErrorKind, Mcrl2Error};

/// A position in the source text (1-based line and column).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pos {
    pub line: u32,
    pub col: u32,
}

/// One token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    Ident(String),
    Number(String),
    /// Punctuation and operators, as their text (`->`, `||`, `(`...).
    Sym(&'static str),
    Eof,
}

/// Multi-character symbols first, so that the longest one wins.
const SYMBOLS: &[&str] = &[
    "->", "=>", "==", "!=", "<=", ">=", "&&", "||", "|>", "<|", "++", "(", ")", "[", "]", "{", "}",
    ",", ";", ":", ".", "|", "!", "=", "<", ">", "+", "-", "*", "/", "#", "@", "?",
];

/// Splits `text` into tokens (the last one is [`Tok::Eof`]).
pub fn tokenize(text: &str, file: &str) -> Result<Vec<(Tok, Pos)>, Mcrl2Error> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let (mut i, mut line, mut col) = (0usize, 1u32, 1u32);
    while i < bytes.len() {
        let c = bytes[i];
        let pos = Pos { line, col };
        if c == b'\n' {
            i += 1;
            line += 1;
            col = 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            col += 1;
            continue;
        }
        if c == b'%' {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < bytes.len()
                && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b'\'')
            {
                i += 1;
            }
            col += (i - start) as u32;
            out.push((Tok::Ident(text[start..i].to_owned()), pos));
            continue;
        }
        if c.is_ascii_digit() {
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            col += (i - start) as u32;
            out.push((Tok::Number(text[start..i].to_owned()), pos));
            continue;
        }
        match SYMBOLS.iter().find(|s| text[i..].starts_with(**s)) {
            Some(s) => {
                i += s.len();
                col += s.len() as u32;
                out.push((Tok::Sym(s), pos));
            }
            None => {
                let ch = text[i..].chars().next().unwrap_or('?');
                return Err(Mcrl2Error::at(
                    ErrorKind::Syntax,
                    file,
                    line,
                    col,
                    format!("unexpected character {ch:?}"),
                ));
            }
        }
    }
    out.push((Tok::Eof, Pos { line, col }));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn longest_symbol_and_positions() {
        let t = tokenize("a |> b||c\n  x->1 % comment\n", "t").unwrap();
        let toks: Vec<_> = t.iter().map(|(t, _)| t.clone()).collect();
        assert_eq!(
            toks,
            vec![
                Tok::Ident("a".into()),
                Tok::Sym("|>"),
                Tok::Ident("b".into()),
                Tok::Sym("||"),
                Tok::Ident("c".into()),
                Tok::Ident("x".into()),
                Tok::Sym("->"),
                Tok::Number("1".into()),
                Tok::Eof
            ]
        );
        assert_eq!(t[5].1, Pos { line: 2, col: 3 });
    }

    #[test]
    fn bad_character_is_an_error_with_position() {
        let e = tokenize("a\n  $", "f.mcrl2").unwrap_err();
        assert_eq!(e.to_string(), "f.mcrl2:2:3: unexpected character '$'");
    }
}
