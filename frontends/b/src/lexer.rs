//! Tokens of classical B (ASCII syntax) with their 1-based line and column.
//!
//! Owns only the splitting of text into identifiers, integer and string
//! literals and operator symbols, and the skipping of comments (`/* */`,
//! `//`). Keywords (`MACHINE`, `or`, `mod`, ...) are identifiers here; the
//! parser tells them apart. It must not know the grammar.

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

/// Splits `text` into tokens, ending with [`Tok::Eof`].
pub fn lex(text: &str, file: &str, file_id: u16) -> Result<Vec<Token>, BError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line, mut col) = (0usize, 1u32, 1u32);
    let advance = |i: &mut usize, line: &mut u32, col: &mut u32, n: usize| {
        for _ in 0..n {
            if chars[*i] == '\n' {
                *line += 1;
                *col = 1;
            } else {
                *col += 1;
            }
            *i += 1;
        }
    };
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            advance(&mut i, &mut line, &mut col, 1);
            continue;
        }
        if c == '/' && chars.get(i + 1) == Some(&'*') {
            let (l0, c0) = (line, col);
            advance(&mut i, &mut line, &mut col, 2);
            loop {
                if i + 1 >= chars.len() {
                    return Err(BError::at(
                        ErrorKind::Syntax,
                        file,
                        l0,
                        c0,
                        "unterminated comment",
                    ));
                }
                if chars[i] == '*' && chars[i + 1] == '/' {
                    advance(&mut i, &mut line, &mut col, 2);
                    break;
                }
                advance(&mut i, &mut line, &mut col, 1);
            }
            continue;
        }
        if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                advance(&mut i, &mut line, &mut col, 1);
            }
            continue;
        }
        let (l0, c0) = (line, col);
        if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                advance(&mut i, &mut line, &mut col, 1);
            }
            let mut s: String = chars[start..i].iter().collect();
            if chars.get(i) == Some(&'$') && chars.get(i + 1) == Some(&'0') {
                advance(&mut i, &mut line, &mut col, 2);
                s.push_str("$0");
            }
            out.push(Token {
                tok: Tok::Ident(s),
                file: file_id,
                line: l0,
                col: c0,
            });
            continue;
        }
        if c.is_ascii_digit() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                advance(&mut i, &mut line, &mut col, 1);
            }
            let s: String = chars[start..i].iter().collect();
            let v = s.parse::<i64>().map_err(|_| {
                BError::at(
                    ErrorKind::Unsupported,
                    file,
                    l0,
                    c0,
                    format!("integer literal {s} beyond 64 bits"),
                )
            })?;
            out.push(Token {
                tok: Tok::Int(v),
                file: file_id,
                line: l0,
                col: c0,
            });
            continue;
        }
        if c == '"' {
            advance(&mut i, &mut line, &mut col, 1);
            let mut s = String::new();
            loop {
                match chars.get(i) {
                    None => {
                        return Err(BError::at(
                            ErrorKind::Syntax,
                            file,
                            l0,
                            c0,
                            "unterminated string",
                        ))
                    }
                    Some('"') => {
                        advance(&mut i, &mut line, &mut col, 1);
                        break;
                    }
                    Some('\\') if i + 1 < chars.len() => {
                        let e = chars[i + 1];
                        s.push(match e {
                            'n' => '\n',
                            't' => '\t',
                            other => other,
                        });
                        advance(&mut i, &mut line, &mut col, 2);
                    }
                    Some(&ch) => {
                        s.push(ch);
                        advance(&mut i, &mut line, &mut col, 1);
                    }
                }
            }
            out.push(Token {
                tok: Tok::Str(s),
                file: file_id,
                line: l0,
                col: c0,
            });
            continue;
        }
        let rest = &chars[i..];
        let sym = SYMBOLS.iter().find(|s| {
            let n = s.chars().count();
            rest.len() >= n && s.chars().zip(rest.iter()).all(|(a, b)| a == *b)
        });
        match sym {
            Some(s) => {
                advance(&mut i, &mut line, &mut col, s.chars().count());
                out.push(Token {
                    tok: Tok::Sym(s),
                    file: file_id,
                    line: l0,
                    col: c0,
                });
            }
            None => {
                return Err(BError::at(
                    ErrorKind::Unsupported,
                    file,
                    l0,
                    c0,
                    format!("character {c:?} (only the ASCII syntax of B is supported)"),
                ))
            }
        }
    }
    out.push(Token {
        tok: Tok::Eof,
        file: file_id,
        line,
        col,
    });
    Ok(out)
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
