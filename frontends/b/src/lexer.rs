//! Tokens of classical B with their 1-based line and column.
//!
//! Owns only the splitting of text into identifiers, integer and string
//! literals and operator symbols, and the skipping of comments (`/* */`,
//! `//`). Keywords (`MACHINE`, `or`, `mod`, ...) are identifiers here; the
//! parser tells them apart. It must not know the grammar. ProB's Unicode
//! notation (`∧`, `∈`, `↦`, `ℕ`, `λ`...) is read as the ASCII symbols it
//! stands for, identifiers may hold Unicode letters (`δ`, `Σ`, `q₀`), and
//! a byte-order mark is white space.

use scan::{Lexeme, Pos, Scanner, C_COMMENTS};

use crate::error::{BError, ErrorKind};

/// One token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    /// An identifier or keyword (`x`, `MACHINE`, `or`); `x$0` keeps its `$0`.
    Ident(String),
    /// An integer literal.
    Int(i64),
    /// An integer literal beyond 64 bits, as written: unsupported where
    /// it is parsed (see `parse`), harmless in a clause never parsed
    /// (LibraryStrings' ASSERTIONS).
    BigInt(String),
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
pub(crate) const SYMBOLS: &[&str] = &[
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
        Tok::Int(_) | Tok::BigInt(_) | Tok::Str(_) | Tok::Eof => Lexeme::Other,
    }
}

/// Splits `text` into tokens, ending with [`Tok::Eof`].
pub fn lex(text: &str, file: &str, file_id: u16) -> Result<Vec<Token>, BError> {
    let err = |p: Pos, kind, msg: String| BError::at(kind, file, p.line, p.col, msg);
    let (mut s, mut out) = (Scanner::new(text), Vec::new());
    if s.starts_with("#!") {
        // a `#!` first line (a machine run as a script) is not B
        s.eat_while(|c| c != '\n');
    }
    let comment = |p| err(p, ErrorKind::Syntax, "unterminated comment".into());
    while let Some((p, c)) = s
        .token_start(|c| c.is_whitespace() || c == '\u{feff}', C_COMMENTS)
        .map_err(comment)?
    {
        if let Some(ascii) = unicode_symbol(&mut s) {
            for t in lex(ascii, file, file_id)? {
                if t.tok != Tok::Eof {
                    let (line, col) = (p.line, p.col);
                    out.push(Token { line, col, ..t });
                }
            }
            continue;
        }
        let tok = if let Some(w) = s.identifier(unicode_letter) {
            let mut w = w.to_owned();
            if s.starts_with("$0") {
                s.bump_n(2);
                w.push_str("$0");
            }
            Tok::Ident(w)
        } else if unicode_letter(c) {
            Tok::Ident(
                s.eat_while(|c| c == '_' || c.is_ascii_alphanumeric() || unicode_letter(c))
                    .to_owned(),
            )
        } else if s.starts_with("0x") && s.peek_at(2).is_some_and(|c| c.is_ascii_hexdigit()) {
            hex_literal(&mut s)
        } else if c.is_ascii_digit() {
            let n = s.eat_while(|c| c.is_ascii_digit());
            n.parse::<i64>()
                .map_or_else(|_| Tok::BigInt(n.to_owned()), Tok::Int)
        } else if s.starts_with("'''") {
            s.bump_n(3);
            multiline_string(&mut s).ok_or_else(|| {
                let msg = "a '''string''' holding a backslash, ending in a quote, or not ending";
                err(p, ErrorKind::Unsupported, msg.into())
            })?
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

/// ProB's hexadecimal literal `0xFF` (255), at `0x` followed by a hex
/// digit; one beyond 64 bits is a [`Tok::BigInt`] keeping its text.
fn hex_literal(s: &mut Scanner) -> Tok {
    s.bump_n(2);
    let digits = s.eat_while(|c| c.is_ascii_hexdigit());
    i64::from_str_radix(digits, 16).map_or_else(|_| Tok::BigInt(format!("0x{digits}")), Tok::Int)
}

/// A non-ASCII letter or digit of an identifier (`δ`, `ä`, `₀`), not one
/// of ProB's Unicode symbols (`λ`, `ℕ`...).
fn unicode_letter(c: char) -> bool {
    !c.is_ascii() && (c.is_alphanumeric() || PRIMES.contains(&c)) && unicode_ascii(c).is_none()
}

/// Prime marks ProB accepts inside identifiers (`Z′`, `z‘`).
const PRIMES: &[char] = &['′', '‘', '’'];

/// The ASCII B text of one of ProB's Unicode symbols.
fn unicode_ascii(c: char) -> Option<&'static str> {
    Some(match c {
        '∧' => "&",
        '∨' => "or",
        '¬' => "not",
        '⇒' => "=>",
        '⇔' => "<=>",
        '∀' => "!",
        '∃' => "#",
        '·' => ".",
        'λ' => "%",
        '∈' => ":",
        '∉' => "/:",
        '⊆' => "<:",
        '⊈' => "/<:",
        '⊂' => "<<:",
        '⊄' => "/<<:",
        '∪' => "\\/",
        '∩' => "/\\",
        '⋃' => "UNION",
        '⋂' => "INTER",
        '∑' => "SIGMA",
        '∏' => "PI",
        '↦' => "|->",
        '×' => "*",
        '÷' => "/",
        '−' => "-",
        '≠' => "/=",
        '≤' => "<=",
        '≥' => ">=",
        '∅' => "{}",
        'ℕ' => "NATURAL",
        'ℤ' => "INTEGER",
        'ℙ' => "POW",
        '↔' => "<->",
        '→' => "-->",
        '⇸' => "+->",
        '↣' => ">->",
        '⤔' => ">+>",
        '↠' => "-->>",
        '⤀' => "+->>",
        '⤖' => ">->>",
        '◁' => "<|",
        '▷' => "|>",
        '⩤' => "<<|",
        '⩥' => "|>>",
        '⊗' => "><",
        '∥' => "||",
        '⌒' => "^",
        '↑' => "/|\\",
        '↓' => "\\|/",
        '‥' => "..",
        '⇾' => "->",
        '⇽' => "<-",
        '≔' => ":=",
        _ => return None,
    })
}

/// The ASCII text of the Unicode symbol the scanner stands on (passed),
/// if it stands on one: `ℕ₁` and `ℙ₁` are NATURAL1 and POW1, `⁻¹` is `~`.
fn unicode_symbol(s: &mut Scanner) -> Option<&'static str> {
    let c = s.peek()?;
    if s.starts_with("⁻¹") {
        s.bump_n(2);
        return Some("~");
    }
    let ascii = unicode_ascii(c)?;
    s.bump();
    if matches!(c, 'ℕ' | 'ℙ') && s.starts_with("₁") {
        s.bump();
        return Some(if c == 'ℕ' { "NATURAL1" } else { "POW1" });
    }
    Some(ascii)
}

/// A string literal (the scanner stands on its `"`) with `\n`, `\t` and
/// `\c` (for `c`) escapes; `None` when it does not end.
/// The rest of a `'''...'''` string after its opening quotes: up to the
/// first `'''`, single quotes included. `None` (unsupported) when it does
/// not end, holds a backslash (whether ProB reads escapes in it is not
/// modelled) or its closing quotes are followed by a fourth one (which
/// of them end it is then unclear).
fn multiline_string(s: &mut Scanner) -> Option<Tok> {
    let mut text = String::new();
    while !s.starts_with("'''") {
        match s.bump()? {
            '\\' => return None,
            ch => text.push(ch),
        }
    }
    s.bump_n(3);
    (s.peek() != Some('\'')).then_some(Tok::Str(text))
}

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

    #[test]
    fn unicode_symbols_are_their_ascii_symbols() {
        assert_eq!(
            toks("\u{feff}∀x·(x ∈ ℕ₁ ∧ x ↦ δ ∉ ∅ ⇒ ¬(x ≠ 1)) ∪ r⁻¹"),
            toks("!x.(x : NATURAL1 & x |-> δ /: {} => not(x /= 1)) \\/ r~")
        );
        assert_eq!(toks("1⇾[2]⇽3 Z′"), toks("1->[2]<-3 Z′"));
        assert_eq!(toks("#!/bin/probcli\nx '''a\"b'''"), toks("x \"a\\\"b\""));
        assert_eq!(toks("x '''a'b''c'''"), toks("x \"a'b''c\""));
        assert!(lex("x = '''a\\nb'''", "t", 0).is_err());
        assert!(lex("x = '''a''''", "t", 0).is_err());
        assert!(lex("x = '''a''", "t", 0).is_err());
        assert_eq!(toks("Z′")[0], Tok::Ident("Z′".into()));
        assert_eq!(
            toks("Σ q₀ Kurswähler")[..3],
            [
                Tok::Ident("Σ".into()),
                Tok::Ident("q₀".into()),
                Tok::Ident("Kurswähler".into()),
            ]
        );
        // positions: the symbol's own
        let t = lex("a ∧ b", "t", 0).unwrap();
        assert_eq!(
            (t[1].tok.clone(), t[1].col, t[2].col),
            (Tok::Sym("&"), 3, 5)
        );
    }
}
