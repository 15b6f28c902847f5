//! Tokeniser of DVE text: identifiers, keywords, decimal (and `0x`
//! hexadecimal) numbers, punctuation and operators, skipping white space and
//! `//` / `/* */` comments. Every token carries its 1-based line and column
//! (columns count characters) so that later errors can name the position.
//!
//! This module knows only the lexical level; what a keyword means is the
//! parser's business.

use crate::error::{DveError, ErrorKind};

/// A position in the source: 1-based line and column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Pos {
    pub line: u32,
    pub col: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    Ident(String),
    Num(i64),
    /// Punctuation and operators, as written (`->`, `<=`, `{`, ...).
    Sym(&'static str),
    Eof,
}

#[derive(Clone, Debug)]
pub struct Token {
    pub tok: Tok,
    pub pos: Pos,
}

/// Operators and punctuation, longest first so that maximal munch works.
const SYMBOLS: &[&str] = &[
    "->", "<=", ">=", "==", "!=", "<<", ">>", "&&", "||", "{", "}", "(", ")", "[", "]", ";", ",",
    ":", ".", "=", "<", ">", "+", "-", "*", "/", "%", "&", "|", "^", "~", "!", "?",
];

/// Splits `text` into tokens, ending with [`Tok::Eof`].
pub fn tokenize(text: &str, file: &str) -> Result<Vec<Token>, DveError> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(text.len() / 3);
    let (mut i, mut line, mut col) = (0usize, 1u32, 1u32);
    // Advances over `n` bytes of ASCII or over one multi-byte character.
    macro_rules! bump {
        () => {{
            if bytes[i] == b'\n' {
                line += 1;
                col = 1;
            } else if bytes[i] & 0xC0 != 0x80 {
                col += 1;
            }
            i += 1;
        }};
    }
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            bump!();
            continue;
        }
        if c == b'/' && bytes.get(i + 1) == Some(&b'/') {
            while i < bytes.len() && bytes[i] != b'\n' {
                bump!();
            }
            continue;
        }
        if c == b'/' && bytes.get(i + 1) == Some(&b'*') {
            let start = Pos { line, col };
            bump!();
            bump!();
            loop {
                if i >= bytes.len() {
                    return Err(DveError::at(
                        ErrorKind::Syntax,
                        file,
                        start.line,
                        start.col,
                        "unterminated comment '/*'",
                    ));
                }
                if bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/') {
                    bump!();
                    bump!();
                    break;
                }
                bump!();
            }
            continue;
        }
        let pos = Pos { line, col };
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                bump!();
            }
            out.push(Token {
                tok: Tok::Ident(text[start..i].to_owned()),
                pos,
            });
            continue;
        }
        if c.is_ascii_digit() {
            let start = i;
            let hex = c == b'0' && matches!(bytes.get(i + 1), Some(b'x' | b'X'));
            if hex {
                bump!();
                bump!();
            }
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                bump!();
            }
            let word = &text[start..i];
            let value = if hex {
                i64::from_str_radix(&word[2..], 16)
            } else {
                word.parse::<i64>()
            };
            let value = value
                .ok()
                .filter(|v| *v <= i64::from(u32::MAX))
                .ok_or_else(|| {
                    DveError::at(
                        ErrorKind::Syntax,
                        file,
                        pos.line,
                        pos.col,
                        format!("invalid number '{word}'"),
                    )
                })?;
            out.push(Token {
                tok: Tok::Num(value),
                pos,
            });
            continue;
        }
        let rest = &bytes[i..];
        match SYMBOLS.iter().find(|s| rest.starts_with(s.as_bytes())) {
            Some(sym) => {
                for _ in 0..sym.len() {
                    bump!();
                }
                out.push(Token {
                    tok: Tok::Sym(sym),
                    pos,
                });
            }
            None => {
                let ch = text[i..].chars().next().unwrap_or('?');
                return Err(DveError::at(
                    ErrorKind::Syntax,
                    file,
                    pos.line,
                    pos.col,
                    format!("unexpected character '{}'", ch.escape_default()),
                ));
            }
        }
    }
    out.push(Token {
        tok: Tok::Eof,
        pos: Pos { line, col },
    });
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_and_comments() {
        let toks = tokenize("a /* x\n y */ ->b // c\n 0x1F <= 3", "t").unwrap();
        let kinds: Vec<_> = toks
            .iter()
            .map(|t| (t.tok.clone(), t.pos.line, t.pos.col))
            .collect();
        assert_eq!(
            kinds,
            vec![
                (Tok::Ident("a".into()), 1, 1),
                (Tok::Sym("->"), 2, 7),
                (Tok::Ident("b".into()), 2, 9),
                (Tok::Num(31), 3, 2),
                (Tok::Sym("<="), 3, 7),
                (Tok::Num(3), 3, 10),
                (Tok::Eof, 3, 11),
            ]
        );
    }

    #[test]
    fn bad_character_is_located() {
        let e = tokenize("a\n  $", "t.dve").unwrap_err();
        assert_eq!(e.to_string(), "t.dve:2:3: unexpected character '$'");
        let e = tokenize("/* open", "t.dve").unwrap_err();
        assert_eq!(e.to_string(), "t.dve:1:1: unterminated comment '/*'");
    }
}
