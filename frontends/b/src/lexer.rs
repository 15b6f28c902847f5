//! Tokens of classical B (ASCII syntax) with their 1-based line and column.
//!
//! Owns only the splitting of text into identifiers, integer and string
//! literals and operator symbols, and the skipping of comments (`/* */`,
//! `//`). Keywords (`MACHINE`, `or`, `mod`, ...) are identifiers here; the
//! parser tells them apart. It must not know the grammar.

use scan::{Lexeme, Pos, Scanner, C_COMMENTS};

use crate::error::{BError, ErrorKind};

/// One token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    /// An identifier or keyword (`x`, `MACHINE`, `or`); `x$0` keeps its `$0`.
    Ident(String),
    /// An integer literal.
    Int(i64),
    /// A string literal, without its quotes.
    Str(String),
    /// An operator or punctuation symbol (`:=`, `|->`, `(`, ...).
    Sym(&'static str),
    /// End of the text.
    Eof,
}

/// A token with its position (1-based line and column).
#[derive(Clone, Debug)]
pub struct Token {
    pub tok: Tok,
    /// Index of the source file in the model's file table.
    pub file: u16,
    pub line: u32,
    pub col: u32,
}

/// Every symbol, longest first when matched.
const SYMBOLS: &[&str] = &[
    "<<->>", "<<->", "<->>", "/<<:", "+->>", "-->>", ">->>", ">+>>", "<=>", "<->", "+->", "-->",
    ">+>", ">->", "<<:", "/<:", "<--", "|->", "<<|", "|>>", "/|\\", "\\|/", "..", "==", "/=", ":=",
    "::", "/:", "<:", "<=", ">=", "=>", "<+", "><", "<|", "|>", "||", "/\\", "\\/", "->", "<-",
    "<>", "**", "=", ":", "<", ">", "&", "!", "#", "%", ".", "+", "-", "*", "/", "^", "~", ";",
    ",", "(", ")", "[", "]", "{", "}", "|", "'", "\\",
];

/// Tells [`scan::Tokens`] the symbols and words.
pub fn lexeme(t: &Token) -> Lexeme<'_> {
    match &t.tok {
        Tok::Sym(s) => Lexeme::Symbol(s),
        Tok::Ident(w) => Lexeme::Word(w),
        Tok::Int(_) | Tok::Str(_) | Tok::Eof => Lexeme::Other,
    }
}

/// Splits `text` into tokens, ending with [`Tok::Eof`].
pub fn lex(text: &str, file: &str, file_id: u16) -> Result<Vec<Token>, BError> {
    let err = |p: Pos, kind, msg: String| BError::at(kind, file, p.line, p.col, msg);
    let (mut s, mut out) = (Scanner::new(text), Vec::new());
    let comment = |p| err(p, ErrorKind::Syntax, "unterminated comment".into());
    while let Some((p, c)) = s
        .token_start(char::is_whitespace, C_COMMENTS)
        .map_err(comment)?
    {
        let tok = if let Some(w) = s.identifier(|_| false) {
            let mut w = w.to_owned();
            if s.starts_with("$0") {
                s.bump_n(2);
                w.push_str("$0");
            }
            Tok::Ident(w)
        } else if c.is_ascii_digit() {
            let n = s.eat_while(|c| c.is_ascii_digit());
            let beyond = |_| {
                err(
                    p,
                    ErrorKind::Unsupported,
                    format!("integer literal {n} beyond 64 bits"),
                )
            };
            Tok::Int(n.parse::<i64>().map_err(beyond)?)
        } else if c == '"' {
            string(&mut s).ok_or_else(|| err(p, ErrorKind::Syntax, "unterminated string".into()))?
        } else {
            let Some(sym) = s.symbol(SYMBOLS) else {
                let msg = format!("character {c:?} (only the ASCII syntax of B is supported)");
                return Err(err(p, ErrorKind::Unsupported, msg));
            };
            Tok::Sym(sym)
        };
        out.push(Token {
            tok,
            file: file_id,
            line: p.line,
            col: p.col,
        });
    }
    let p = s.pos();
    out.push(Token {
        tok: Tok::Eof,
        file: file_id,
        line: p.line,
        col: p.col,
    });
    Ok(out)
}

/// A string literal (the scanner stands on its `"`) with `\n`, `\t` and
/// `\c` (for `c`) escapes; `None` when it does not end.
fn string(s: &mut Scanner) -> Option<Tok> {
    s.bump();
    let mut text = String::new();
    loop {
        match s.bump()? {
            '"' => return Some(Tok::Str(text)),
            '\\' if s.peek().is_some() => text.push(match s.bump()? {
                'n' => '\n',
                't' => '\t',
                other => other,
            }),
            ch => text.push(ch),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok> {
        lex(s, "t", 0).unwrap().into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn longest_symbols_and_comments() {
        assert_eq!(
            toks("x <-- op /* c */ // d\n a|->b +->> 1..3 x$0"),
            vec![
                Tok::Ident("x".into()),
                Tok::Sym("<--"),
                Tok::Ident("op".into()),
                Tok::Ident("a".into()),
                Tok::Sym("|->"),
                Tok::Ident("b".into()),
                Tok::Sym("+->>"),
                Tok::Int(1),
                Tok::Sym(".."),
                Tok::Int(3),
                Tok::Ident("x$0".into()),
                Tok::Eof
            ]
        );
    }

    #[test]
    fn positions_are_one_based() {
        let t = lex("a\n  bb", "t", 0).unwrap();
        assert_eq!((t[1].line, t[1].col), (2, 3));
    }
}
