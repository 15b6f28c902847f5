//! How deeply a text front-end's recursive-descent parser may nest an
//! expression, so that a hostile file is an error and never a stack
//! overflow: the two limits and the guard that counts against them.
//!
//! Owns the limits and the counting; each front-end words the error of
//! its own constructs at its own position.

/// Deepest nesting of parentheses, indices and unary operators (and DVE's
/// `->`) in one expression: about 10 KiB of stack a level (a dozen parser
/// frames), so 640 KiB at the limit; BEEM needs at most 24 (`plc`).
pub const MAX_NESTING: usize = 64;

/// Highest expression tree, in operators from the root to the deepest
/// operand: about 1.1 KiB of stack a level (compiling), so 560 KiB at the
/// limit; BEEM needs at most 256.
pub const MAX_HEIGHT: usize = 512;

/// How deeply the parser is inside expressions, at most [`MAX_NESTING`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Nesting(usize);

impl Nesting {
    /// One level deeper; `false` past [`MAX_NESTING`] (the parse stops).
    #[inline]
    pub fn enter(&mut self) -> bool {
        self.0 += 1;
        self.0 <= MAX_NESTING
    }

    /// One level back out.
    #[inline]
    pub fn leave(&mut self) {
        self.0 -= 1;
    }
}

/// The height of an expression node over children at most `h` high;
/// `None` past [`MAX_HEIGHT`].
#[inline]
pub fn height(h: usize) -> Option<usize> {
    (h < MAX_HEIGHT).then_some(h + 1)
}

/// What an error says of an expression higher than [`MAX_HEIGHT`].
pub fn too_high() -> String {
    format!(
        "expression nested too deeply (limit {MAX_HEIGHT} operators from the root to the \
         deepest operand)"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nesting_stops_past_the_limit() {
        let mut n = Nesting::default();
        assert!((0..MAX_NESTING).all(|_| n.enter()));
        assert!(!n.enter());
        n.leave();
        n.leave();
        assert!(n.enter());
    }

    #[test]
    fn height_stops_at_the_limit() {
        assert_eq!(height(0), Some(1));
        assert_eq!(height(MAX_HEIGHT - 1), Some(MAX_HEIGHT));
        assert_eq!(height(MAX_HEIGHT), None);
    }
}
