//! Tokens of mCRL2's text syntax as `lpspp` prints it: identifiers,
//! numbers, punctuation and operators, each with its 1-based line and
//! column. `%` starts a comment that runs to the end of the line.
//!
//! Owns only the scanning of characters into tokens; it must not know the
//! grammar (that is `parser`) nor any meaning of the words.

use scan::{Comments, Lexeme, Scanner};

use crate::error::{ErrorKind, Mcrl2Error};

pub use scan::Pos;

/// One token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    Ident(String),
    Number(String),
    /// Punctuation and operators, as their text (`->`, `||`, `(`...).
    Sym(&'static str),
    Eof,
}

/// A token and where it starts.
#[derive(Clone, Debug)]
pub struct Token(pub Tok, pub Pos);

/// Multi-character symbols first, so that the longest one wins.
const SYMBOLS: &[&str] = &[
    "->", "=>", "==", "!=", "<=", ">=", "&&", "||", "|>", "<|", "++", "(", ")", "[", "]", "{", "}",
    ",", ";", ":", ".", "|", "!", "=", "<", ">", "+", "-", "*", "/", "#", "@", "?",
];

/// Tells [`scan::Tokens`] the symbols and words.
pub fn lexeme(t: &Token) -> Lexeme<'_> {
    match &t.0 {
        Tok::Sym(s) => Lexeme::Symbol(s),
        Tok::Ident(w) => Lexeme::Word(w),
        Tok::Number(_) | Tok::Eof => Lexeme::Other,
    }
}

/// Splits `text` into tokens (the last one is [`Tok::Eof`]).
pub fn tokenize(text: &str, file: &str) -> Result<Vec<Token>, Mcrl2Error> {
    let mut out = Vec::new();
    let mut s = Scanner::new(text);
    let white = |c: char| c.is_ascii_whitespace();
    let comments = Comments {
        line: "%",
        block: None,
    };
    // No block comments: `token_start` never fails.
    while let Ok(Some((pos, c))) = s.token_start(white, comments) {
        let tok = if let Some(w) = s.identifier(|c| c == '\'') {
            Tok::Ident(w.to_owned())
        } else if c.is_ascii_digit() {
            Tok::Number(s.eat_while(|c| c.is_ascii_digit()).to_owned())
        } else if let Some(sym) = s.symbol(SYMBOLS) {
            Tok::Sym(sym)
        } else {
            return Err(Mcrl2Error::at(
                ErrorKind::Syntax,
                file,
                pos.line,
                pos.col,
                format!("unexpected character {c:?}"),
            ));
        };
        out.push(Token(tok, pos));
    }
    out.push(Token(Tok::Eof, s.pos()));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn longest_symbol_and_positions() {
        let t = tokenize("a |> b||c\n  x->1 % comment\n", "t").unwrap();
        let toks: Vec<_> = t.iter().map(|t| t.0.clone()).collect();
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
