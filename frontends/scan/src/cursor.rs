//! The token stream a recursive-descent parser walks: the token it stands
//! on, the ones ahead, and the questions every parser asks of it (is it
//! this symbol or this word, and if so, pass it). Owns only the walking;
//! each parser keeps its tokens' contents, its position bookkeeping and
//! the wording of its errors.

/// What [`Tokens`] needs to know of a token: the symbol (punctuation or
/// operator) or the word (identifier or keyword) it is, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lexeme<'a> {
    Symbol(&'a str),
    Word(&'a str),
    Other,
}
/// Tokens ending with the end-of-text token, and where the parser stands:
/// passing the last token stays on it.
pub struct Tokens<T> {
    toks: Vec<T>,
    i: usize,
    lexeme: fn(&T) -> Lexeme<'_>,
}

impl<T> Tokens<T> {
    /// At the first of `toks` (which must not be empty: the lexers end
    /// them with an end-of-text token); `lexeme` tells symbols and words.
    pub fn new(toks: Vec<T>, lexeme: fn(&T) -> Lexeme<'_>) -> Tokens<T> {
        assert!(!toks.is_empty(), "no end-of-text token");
        Tokens { toks, i: 0, lexeme }
    }

    /// The token the parser stands on.
    pub fn current(&self) -> &T {
        &self.toks[self.i]
    }

    /// The token `k` places ahead (the last one beyond the end).
    pub fn ahead(&self, k: usize) -> &T {
        &self.toks[(self.i + k).min(self.toks.len() - 1)]
    }

    /// Passes the current token and returns it.
    pub fn pass(&mut self) -> &T {
        let at = self.i;
        self.i = (self.i + 1).min(self.toks.len() - 1);
        &self.toks[at]
    }

    /// Where the parser stands, to come back to with [`Tokens::rewind`].
    pub fn index(&self) -> usize {
        self.i
    }

    /// Back (or forward) to `index`, as [`Tokens::index`] gave it.
    pub fn rewind(&mut self, index: usize) {
        self.i = index.min(self.toks.len() - 1);
    }

    /// Replaces the `n` tokens from the current one on by `with` (a
    /// definition's expansion); the end-of-text token stays last.
    pub fn replace_ahead(&mut self, n: usize, with: impl IntoIterator<Item = T>) {
        let end = (self.i + n).min(self.toks.len() - 1);
        self.toks.splice(self.i..end, with);
    }

    /// Whether the current token is the symbol `s`.
    pub fn is_sym(&self, s: &str) -> bool {
        (self.lexeme)(self.current()) == Lexeme::Symbol(s)
    }

    /// Whether the current token is the word `w`.
    pub fn is_word(&self, w: &str) -> bool {
        (self.lexeme)(self.current()) == Lexeme::Word(w)
    }

    /// Passes the symbol `s` if it is current; whether it was.
    pub fn eat_sym(&mut self, s: &str) -> bool {
        let here = self.is_sym(s);
        if here {
            self.pass();
        }
        here
    }

    /// Passes the word `w` if it is current; whether it was.
    pub fn eat_word(&mut self, w: &str) -> bool {
        let here = self.is_word(w);
        if here {
            self.pass();
        }
        here
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    enum T {
        W(&'static str),
        S(&'static str),
        Eof,
    }

    fn lexeme(t: &T) -> Lexeme<'_> {
        match t {
            T::S(s) => Lexeme::Symbol(s),
            T::W(w) => Lexeme::Word(w),
            T::Eof => Lexeme::Other,
        }
    }

    #[test]
    fn eat_passes_only_a_match_and_stays_at_the_end() {
        let mut t = Tokens::new(vec![T::W("if"), T::S("("), T::Eof], lexeme);
        assert!(!t.eat_sym("if") && t.eat_word("if"));
        assert!(t.is_sym("(") && t.eat_sym("("));
        t.pass();
        assert!(matches!((t.current(), t.ahead(5)), (T::Eof, T::Eof)));
        t.rewind(0);
        assert!(t.is_word("if"));
    }
}
