//! An integer added to itself in a bound, `x + x` (CSE_Properties_Test's
//! `(x+x) > 10 & (x+x) < 20`): read as `x * 2` by the chains of `chain`
//! and solved as such by `bounds` (`x` in `6..9`). The conjuncts stay
//! checks, so the range is only what is enumerated.
//!
//! Owns the shape test only.

use crate::ast::*;

/// Whether `e` is `x + x`.
pub(super) fn doubled(e: &Expr, x: Sym) -> bool {
    let is_x = |e: &Expr| matches!(e.kind, ExprKind::Ident(s) if s == x);
    matches!(&e.kind, ExprKind::Bin(BinOp::Plus, a, b) if is_x(a) && is_x(b))
}

#[cfg(test)]
mod tests {
    use crate::tests::{count, first_error};

    #[test]
    fn an_integer_added_to_itself_is_bounded_as_its_double() {
        // x + x in 11..19: x in 6..9, by brute force over a wide window
        let n = (-100i64..100).filter(|x| x + x > 10 && x + x < 20).count();
        let m = "MACHINE D CONSTANTS x PROPERTIES (x+x) > 10 & (x+x) < 20
                 VARIABLES v INVARIANT v : INTEGER INITIALISATION v := 0 END";
        assert_eq!(count(m), (2 * n + 1, 2 * n));
        // odd bounds round inwards: 2x in 3..7 has x in 2..3
        let n = (-100i64..100).filter(|x| 3 <= x + x && x + x <= 7).count();
        let m = "MACHINE D CONSTANTS x PROPERTIES x + x : 3..7
                 VARIABLES v INVARIANT v : INTEGER INITIALISATION v := 0 END";
        assert_eq!(count(m), (2 * n + 1, 2 * n));
        // one side only: no finite range
        let m = "MACHINE D CONSTANTS x PROPERTIES x + x > 10
                 VARIABLES v INVARIANT v : INTEGER INITIALISATION v := 0 END";
        assert!(first_error(m).is_some());
    }
}
