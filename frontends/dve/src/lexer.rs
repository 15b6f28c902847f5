//! Tokeniser of DVE text: identifiers, keywords, decimal (and `0x`
//! hexadecimal) numbers, punctuation and operators, skipping white space and
//! `//` / `/* */` comments. Every token carries its 1-based line and column
//! (columns count characters) so that later errors can name the position.
//!
//! This module knows only the lexical level; what a keyword means is the
//! parser's business.

use scan::{Lexeme, Scanner, C_COMMENTS};

use crate::error::{DveError, ErrorKind};

pub use scan::Pos;

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

/// Tells [`scan::Tokens`] the symbols and words.
pub fn lexeme(t: &Token) -> Lexeme<'_> {
    match &t.tok {
        Tok::Sym(s) => Lexeme::Symbol(s),
        Tok::Ident(w) => Lexeme::Word(w),
        Tok::Num(_) | Tok::Eof => Lexeme::Other,
    }
}

/// Splits `text` into tokens, ending with [`Tok::Eof`].
pub fn tokenize(text: &str, file: &str) -> Result<Vec<Token>, DveError> {
    let err = |p: Pos, msg: String| DveError::at(ErrorKind::Syntax, file, p.line, p.col, msg);
    let mut s = Scanner::new(text);
    let mut out = Vec::with_capacity(text.len() / 3);
    let white = |c: char| c.is_ascii_whitespace();
    let unterminated = |p| err(p, "unterminated comment '/*'".into());
    while let Some((pos, c)) = s.token_start(white, C_COMMENTS).map_err(unterminated)? {
        let tok = if let Some(w) = s.identifier(|_| false) {
            Tok::Ident(w.to_owned())
        } else if c.is_ascii_digit() {
            Tok::Num(number(&mut s).map_err(|word| err(pos, format!("invalid number '{word}'")))?)
        } else {
            let Some(sym) = s.symbol(SYMBOLS) else {
                return Err(err(
                    pos,
                    format!("unexpected character '{}'", c.escape_default()),
                ));
            };
            Tok::Sym(sym)
        };
        out.push(Token { tok, pos });
    }
    out.push(Token {
        tok: Tok::Eof,
        pos: s.pos(),
    });
    Ok(out)
}

/// A decimal or `0x` hexadecimal number (the scanner stands on its first
/// digit) of at most 32 bits; its text when it is not one.
fn number<'a>(s: &mut Scanner<'a>) -> Result<i64, &'a str> {
    let from = s.rest();
    let hex = from.starts_with("0x") || from.starts_with("0X");
    if hex {
        s.bump_n(2);
    }
    s.eat_while(|c| c.is_ascii_alphanumeric() || c == '_');
    let word = &from[..from.len() - s.rest().len()];
    let value = if hex {
        i64::from_str_radix(&word[2..], 16)
    } else {
        word.parse::<i64>()
    };
    value.ok().filter(|v| *v <= i64::from(u32::MAX)).ok_or(word)
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
