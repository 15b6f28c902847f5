//! Promela tokens with their 1-based line and column. Owns only the
//! splitting of text into tokens (comments skipped); it must not know the
//! grammar. The C preprocessor is not run: a `#` line is refused.

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

pub fn lex(text: &str, file: &str) -> Result<Vec<Token>, PromelaError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line, mut col) = (0usize, 1u32, 1u32);
    let adv = |i: &mut usize, line: &mut u32, col: &mut u32, n: usize| {
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
            adv(&mut i, &mut line, &mut col, 1);
            continue;
        }
        if c == '/' && chars.get(i + 1) == Some(&'*') {
            let (l0, c0) = (line, col);
            adv(&mut i, &mut line, &mut col, 2);
            loop {
                if i + 1 >= chars.len() {
                    return Err(PromelaError::at(
                        ErrorKind::Syntax,
                        file,
                        l0,
                        c0,
                        "unterminated comment",
                    ));
                }
                if chars[i] == '*' && chars[i + 1] == '/' {
                    adv(&mut i, &mut line, &mut col, 2);
                    break;
                }
                adv(&mut i, &mut line, &mut col, 1);
            }
            continue;
        }
        if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                adv(&mut i, &mut line, &mut col, 1);
            }
            continue;
        }
        let (l0, c0) = (line, col);
        if c.is_ascii_alphabetic() || c == '_' {
            let mut s = String::new();
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                s.push(chars[i]);
                adv(&mut i, &mut line, &mut col, 1);
            }
            out.push(Token {
                tok: Tok::Ident(s),
                line: l0,
                col: c0,
            });
            continue;
        }
        if c.is_ascii_digit() {
            let mut s = String::new();
            while i < chars.len() && chars[i].is_ascii_alphanumeric() {
                s.push(chars[i]);
                adv(&mut i, &mut line, &mut col, 1);
            }
            let v = s.parse::<i64>().map_err(|_| {
                PromelaError::at(ErrorKind::Syntax, file, l0, c0, format!("bad number '{s}'"))
            })?;
            out.push(Token {
                tok: Tok::Num(v),
                line: l0,
                col: c0,
            });
            continue;
        }
        if c == '"' {
            adv(&mut i, &mut line, &mut col, 1);
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' && i + 1 < chars.len() {
                    adv(&mut i, &mut line, &mut col, 1);
                }
                adv(&mut i, &mut line, &mut col, 1);
            }
            if i >= chars.len() {
                return Err(PromelaError::at(
                    ErrorKind::Syntax,
                    file,
                    l0,
                    c0,
                    "unterminated string",
                ));
            }
            adv(&mut i, &mut line, &mut col, 1);
            out.push(Token {
                tok: Tok::Str,
                line: l0,
                col: c0,
            });
            continue;
        }
        let rest: String = chars[i..chars.len().min(i + 2)].iter().collect();
        let p = PUNCT.iter().find(|p| rest.starts_with(**p));
        match p {
            Some(&"#") => return Err(PromelaError::at(
                ErrorKind::Unsupported,
                file,
                l0,
                c0,
                "preprocessor directives (#define, #include, ...) are not supported; run cpp first",
            )),
            Some(p) => {
                adv(&mut i, &mut line, &mut col, p.len());
                out.push(Token {
                    tok: Tok::P(p),
                    line: l0,
                    col: c0,
                });
            }
            None => {
                return Err(PromelaError::at(
                    ErrorKind::Syntax,
                    file,
                    l0,
                    c0,
                    format!("unexpected character '{}'", c.escape_default()),
                ))
            }
        }
    }
    out.push(Token {
        tok: Tok::Eof,
        line,
        col,
    });
    Ok(out)
}
