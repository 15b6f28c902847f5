//! What the hand-written lexers and parsers of the text front-ends (DVE,
//! Promela, mCRL2, B) share: a 1-based source position ([`Pos`]), a
//! character [`Scanner`] that keeps the line and column while it skips
//! white space and comments and matches words, numbers and symbols, and
//! the token stream every parser walks ([`Tokens`]), the guard on how
//! deeply a parser nests an expression ([`Nesting`]), and the comparisons
//! the front-ends compile the leading conditions of guards into ([`Cmp`]),
//! and the affine forms they compile arithmetic into ([`affine`]).
//!
//! Owns only these primitives; it must not know any formalism's
//! tokens, keywords or grammar, nor how errors are worded (a front-end
//! builds its own located error from a [`Pos`]; only the height limit's
//! text, which names the limit, is here).
//! Depends on nothing.

pub mod affine;
mod compare;
mod cursor;
mod nesting;
mod scanner;

pub use compare::{Cmp, Interval};
pub use cursor::{Lexeme, Tokens};
pub use nesting::{height, too_high, Nesting, MAX_HEIGHT, MAX_NESTING};
pub use scanner::{Comments, Scanner, C_COMMENTS};

/// A position in source text: 1-based line and column (columns count
/// characters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pos {
    pub line: u32,
    pub col: u32,
}
