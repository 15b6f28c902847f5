//! Promela tokens with their 1-based line and column. Owns only the
//! splitting of text into tokens (comments skipped); it must not know the
//! grammar. The C preprocessor is not run: a `#` line is refused.

use scan::{Lexeme, Pos, Scanner, C_COMMENTS};

use crate::error::{ErrorKind, PromelaError};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    Ident(String),
    Num(i64),
    Str,
    /// Punctuation and operators, as written (`::`, `->`, `==`, ...).
    P(&'static str),
    Eof,
}

#[derive(Clone, Debug)]
pub struct Token {
    pub tok: Tok,
    pub line: u32,
    pub col: u32,
}

const PUNCT: [&str; 43] = [
    "::", "->", "==", "!=", "<=", ">=", "&&", "||", "<<", ">>", "++", "--", "??", "?<", "!!", ";",
    ",", ":", "(", ")", "[", "]", "{", "}", "=", "<", ">", "+", "-", "*", "/", "%", "&", "|", "^",
    "~", "!", "?", ".", "@", "'", "$", "#",
];

/// Tells [`scan::Tokens`] the symbols and words.
pub fn lexeme(t: &Token) -> Lexeme<'_> {
    match &t.tok {
        Tok::P(s) => Lexeme::Symbol(s),
        Tok::Ident(w) => Lexeme::Word(w),
        Tok::Num(_) | Tok::Str | Tok::Eof => Lexeme::Other,
    }
}

pub fn lex(text: &str, file: &str) -> Result<Vec<Token>, PromelaError> {
    let err = |p: Pos, kind, msg: String| PromelaError::at(kind, file, p.line, p.col, msg);
    let mut s = Scanner::new(text);
    let mut out = Vec::new();
    let unterminated = |p| err(p, ErrorKind::Syntax, "unterminated comment".into());
    while let Some((p, c)) = s
        .token_start(char::is_whitespace, C_COMMENTS)
        .map_err(unterminated)?
    {
        let tok = if let Some(w) = s.identifier(|_| false) {
            Tok::Ident(w.to_owned())
        } else if c.is_ascii_digit() {
            let n = s.eat_while(|c| c.is_ascii_alphanumeric());
            let v = n.parse::<i64>();
            Tok::Num(v.map_err(|_| err(p, ErrorKind::Syntax, format!("bad number '{n}'")))?)
        } else if c == '"' {
            string(&mut s).ok_or_else(|| err(p, ErrorKind::Syntax, "unterminated string".into()))?
        } else {
            match s.symbol(&PUNCT) {
                Some("#") => return Err(err(
                    p,
                    ErrorKind::Unsupported,
                    "preprocessor directives (#define, #include, ...) are not supported; run cpp first".into(),
                )),
                Some(q) => Tok::P(q),
                None => {
                    let msg = format!("unexpected character '{}'", c.escape_default());
                    return Err(err(p, ErrorKind::Syntax, msg));
                }
            }
        };
        out.push(Token {
            tok,
            line: p.line,
            col: p.col,
        });
    }
    let p = s.pos();
    out.push(Token {
        tok: Tok::Eof,
        line: p.line,
        col: p.col,
    });
    Ok(out)
}

/// A string literal (the scanner stands on its `"`); `None` when it does
/// not end. Its text is not kept: Promela strings only appear in `printf`.
fn string(s: &mut Scanner) -> Option<Tok> {
    s.bump();
    loop {
        match s.bump()? {
            '"' => return Some(Tok::Str),
            '\\' => {
                s.bump()?;
            }
            _ => {}
        }
    }
}
