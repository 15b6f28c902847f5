//! The token-level questions a recursive-descent parser asks of the token
//! it stands on: is it this symbol or this word, and if so, pass it.
//! Owns only those questions; each parser keeps its tokens, its position
//! bookkeeping and the wording of its errors.

/// A token that may be a symbol (punctuation or operator) or a word (an
/// identifier or keyword).
pub trait Token {
    /// The symbol's text, when the token is one.
    fn symbol(&self) -> Option<&str>;
    /// The word's text, when the token is one.
    fn word(&self) -> Option<&str>;
}

/// A parser standing on a token ([`TokenCursor::current`]) that it can pass
/// ([`TokenCursor::advance`]); the rest comes with the trait.
pub trait TokenCursor {
    type Tok: Token;

    /// The token the parser stands on.
    fn current(&self) -> &Self::Tok;

    /// Passes the current token.
    fn advance(&mut self);

    /// Whether the current token is the symbol `s`.
    fn is_sym(&self, s: &str) -> bool {
        self.current().symbol() == Some(s)
    }

    /// Whether the current token is the word `w`.
    fn is_word(&self, w: &str) -> bool {
        self.current().word() == Some(w)
    }

    /// Passes the symbol `s` if it is current; whether it was.
    fn eat_sym(&mut self, s: &str) -> bool {
        let here = self.is_sym(s);
        if here {
            self.advance();
        }
        here
    }

    /// Passes the word `w` if it is current; whether it was.
    fn eat_word(&mut self, w: &str) -> bool {
        let here = self.is_word(w);
        if here {
            self.advance();
        }
        here
    }
}
