//! Integer evidence from arithmetic: an identifier that is an operand of
//! `+`, `/`, `mod`, `**`, a unary minus or a comparison, or of `*` and
//! `-` where these are arithmetic (an operand or the context is surely an
//! integer: `x1 * 3 + 27 = 153`, PexSolve), is an integer (B's typing:
//! `*` and `-` are also the Cartesian product and the set difference,
//! so `s * t` alone says nothing). With this evidence the planner may
//! solve the identifier from a linear equation (`range_product`) or bound
//! it (`bounds`) as it does for one typed `x : INTEGER`.
//!
//! Owns the evidence only; the solving stays in the generators.

use crate::ast::*;

/// Whether conjunct `c` shows `x` to be an integer by arithmetic (see the
/// module's doc); only arithmetic nodes from the conjunct's top are read.
pub(super) fn operand(c: &Expr, x: Sym) -> bool {
    use BinOp::*;
    match &c.kind {
        ExprKind::Bin(Lt | Le | Gt | Ge, a, b) => within(a, x, true) || within(b, x, true),
        ExprKind::Bin(Eq | Neq, a, b) => {
            let int = surely_int(a) || surely_int(b);
            within(a, x, int) || within(b, x, int)
        }
        _ => false,
    }
}

/// Whether `x` occurs in `e` as an integer, `int`: `e` itself is one.
fn within(e: &Expr, x: Sym, int: bool) -> bool {
    use BinOp::*;
    match &e.kind {
        ExprKind::Ident(s) => int && *s == x,
        ExprKind::Neg(a) => within(a, x, true),
        ExprKind::Bin(Plus | Div | Mod | Power | PowerNat, a, b) => {
            within(a, x, true) || within(b, x, true)
        }
        ExprKind::Bin(Mul | Minus, a, b) => {
            let int = int || surely_int(a) || surely_int(b);
            within(a, x, int) || within(b, x, int)
        }
        _ => false,
    }
}

/// Whether `e` is an integer whatever its identifiers' types: a literal,
/// a negation, a sum, quotient, remainder or power, or a product or
/// difference with such an operand.
fn surely_int(e: &Expr) -> bool {
    use BinOp::*;
    match &e.kind {
        ExprKind::Int(_) | ExprKind::Neg(_) => true,
        ExprKind::Bin(Plus | Div | Mod | Power | PowerNat, ..) => true,
        ExprKind::Bin(Mul | Minus, a, b) => surely_int(a) || surely_int(b),
        _ => false,
    }
}
