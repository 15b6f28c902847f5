//! A cursor over source text that knows its [`Pos`]: every character it
//! passes moves the column by one, a line break starts the next line.
//! Owns only the walking and matching of characters; what a token is, and
//! which error an unexpected character is, stays with each lexer.

use crate::Pos;

/// How a language writes comments: to the end of the line after `line`,
/// and between a `block` pair when it has them.
#[derive(Clone, Copy, Debug)]
pub struct Comments {
    pub line: &'static str,
    pub block: Option<(&'static str, &'static str)>,
}

/// C's comments (`// ...` and `/* ... */`), as DVE, Promela and B write them.
pub const C_COMMENTS: Comments = Comments {
    line: "//",
    block: Some(("/*", "*/")),
};

/// Where a lexer stands in its text.
pub struct Scanner<'a> {
    text: &'a str,
    /// Byte offset of the next character.
    i: usize,
    pos: Pos,
}

impl<'a> Scanner<'a> {
    /// At the first character of `text` (line 1, column 1).
    pub fn new(text: &'a str) -> Scanner<'a> {
        Scanner {
            text,
            i: 0,
            pos: Pos { line: 1, col: 1 },
        }
    }

    /// The position of the next character (or of the end of the text).
    pub fn pos(&self) -> Pos {
        self.pos
    }

    /// The text not yet passed.
    pub fn rest(&self) -> &'a str {
        &self.text[self.i..]
    }

    /// The next character, if any.
    pub fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    /// The character `n` places after the next one.
    pub fn peek_at(&self, n: usize) -> Option<char> {
        self.rest().chars().nth(n)
    }

    /// Whether the rest of the text starts with `s`.
    pub fn starts_with(&self, s: &str) -> bool {
        self.rest().starts_with(s)
    }

    /// Passes the next character and returns it.
    pub fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.i += c.len_utf8();
        if c == '\n' {
            self.pos.line += 1;
            self.pos.col = 1;
        } else {
            self.pos.col += 1;
        }
        Some(c)
    }

    /// Passes `n` characters (fewer at the end of the text).
    pub fn bump_n(&mut self, n: usize) {
        for _ in 0..n {
            self.bump();
        }
    }

    /// Passes the characters that satisfy `f` and returns them.
    pub fn eat_while(&mut self, f: impl Fn(char) -> bool) -> &'a str {
        let start = self.i;
        while self.peek().is_some_and(&f) {
            self.bump();
        }
        &self.text[start..self.i]
    }

    /// When the text goes on with `open`, passes it and the rest of the
    /// line (not the line break); whether it did.
    pub fn skip_line_comment(&mut self, open: &str) -> bool {
        if !self.starts_with(open) {
            return false;
        }
        self.eat_while(|c| c != '\n');
        true
    }

    /// When the text goes on with `open`, passes it up to and including
    /// the next `close`: `Ok(true)`; `Ok(false)` when it does not start with
    /// `open`; `Err` with the position of `open` when no `close` follows.
    pub fn skip_block_comment(&mut self, open: &str, close: &str) -> Result<bool, Pos> {
        if !self.starts_with(open) {
            return Ok(false);
        }
        let start = self.pos;
        let body = &self.rest()[open.len()..];
        let Some(end) = body.find(close) else {
            return Err(start);
        };
        let n = open.chars().count() + body[..end].chars().count() + close.chars().count();
        self.bump_n(n);
        Ok(true)
    }

    /// Passes white space (the characters `white` accepts) and comments,
    /// then says where the next token starts and its first character;
    /// `None` at the end of the text, `Err` with the position of a block
    /// comment that does not end.
    pub fn token_start(
        &mut self,
        white: fn(char) -> bool,
        comments: Comments,
    ) -> Result<Option<(Pos, char)>, Pos> {
        loop {
            self.eat_while(white);
            let in_block = match comments.block {
                Some((open, close)) => self.skip_block_comment(open, close)?,
                None => false,
            };
            if !in_block && !self.skip_line_comment(comments.line) {
                return Ok(self.peek().map(|c| (self.pos, c)));
            }
        }
    }

    /// An identifier when the text goes on with one: an ASCII letter or
    /// `_`, then ASCII letters, digits, `_` and the characters `more`
    /// accepts.
    pub fn identifier(&mut self, more: fn(char) -> bool) -> Option<&'a str> {
        let first = self.peek()?;
        if !(first.is_ascii_alphabetic() || first == '_') {
            return None;
        }
        Some(self.eat_while(|c| c.is_ascii_alphanumeric() || c == '_' || more(c)))
    }

    /// The first of `symbols` that the text goes on with, passed (list
    /// longer symbols before their prefixes).
    pub fn symbol(&mut self, symbols: &[&'static str]) -> Option<&'static str> {
        let s = *symbols.iter().find(|s| self.starts_with(s))?;
        self.bump_n(s.chars().count());
        Some(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_characters_and_lines() {
        let mut s = Scanner::new("aé\n  b");
        assert_eq!(s.eat_while(char::is_alphabetic), "aé");
        assert_eq!(s.pos(), Pos { line: 1, col: 3 });
        s.eat_while(char::is_whitespace);
        assert_eq!((s.pos(), s.peek()), (Pos { line: 2, col: 3 }, Some('b')));
    }

    #[test]
    fn comments_and_symbols() {
        let mut s = Scanner::new("/* x\n */// y\n->");
        assert_eq!(s.skip_block_comment("/*", "*/"), Ok(true));
        assert!(s.skip_line_comment("//"));
        s.bump();
        assert_eq!(s.symbol(&["->", "-"]), Some("->"));
        assert_eq!(s.pos(), Pos { line: 3, col: 3 });
        let mut open = Scanner::new(" /* never closed *");
        open.bump();
        assert_eq!(
            open.skip_block_comment("/*", "*/"),
            Err(Pos { line: 1, col: 2 })
        );
    }
}
