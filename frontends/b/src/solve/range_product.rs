//! Integer identifiers solved from a product: `A = B` where the only
//! unbound identifier `x` (an integer by evidence, see `plan`) occurs once
//! on one side as `x * x` (or `x ** 2`), `x * E` / `E * x` with `E`
//! ready, or `x + x` (`y + y = x`, RelClosureLaws' `half`), at the end of a chain of `+` and `-` (`sqrt3 * sqrt3 = 3`,
//! Abrial's hybrid flight context): the chain is inverted (see
//! `Env::invert_chain`) to the value `t` of the product, and `x` ranges
//! over the integer square roots of `t` (none when `t` is not a square),
//! or over `t / E` when `E` divides `t` (every `x` when `E = t = 0`
//! cannot be enumerated: unsupported). These are all the solutions, so
//! the enumeration is exact, whatever order ProB's solver finds them in.
//!
//! Owns the shape test and the candidates.

use super::plan::{chain_path, idents};
use crate::ast::*;
use crate::eval::{Env, Fail, E};

/// Whether `e` is `x * x`, `x ** 2`, `x * E` or `E * x` with `E` ready,
/// or `x + x`.
pub(super) fn is_factor(e: &Expr, x: Sym, ready: &dyn Fn(&Expr) -> bool) -> bool {
    let is_x = |e: &Expr| matches!(e.kind, ExprKind::Ident(s) if s == x);
    match &e.kind {
        ExprKind::Bin(BinOp::Mul, a, b) => {
            (is_x(a) && is_x(b))
                || (is_x(a) && free_of(b, x, ready))
                || (is_x(b) && free_of(a, x, ready))
        }
        ExprKind::Bin(BinOp::Power, a, b) => is_x(a) && matches!(b.kind, ExprKind::Int(2)),
        _ => super::range_double::doubled(e, x),
    }
}

fn free_of(e: &Expr, x: Sym, ready: &dyn Fn(&Expr) -> bool) -> bool {
    let mut v = Vec::new();
    idents(e, &mut v);
    !v.contains(&x) && ready(e)
}

/// Whether `side` holds `x` once, in a product `is_factor` accepts at the
/// end of a `+`/`-` chain.
pub(super) fn solvable(side: &Expr, x: Sym, ready: &dyn Fn(&Expr) -> bool) -> bool {
    chain_path(side, x, &|e| is_factor(e, x, ready))
}

/// The values of `x` for which `side` (see `solvable`) equals `target`.
pub(super) fn candidates(side: &Expr, x: Sym, target: i64, env: &mut Env) -> E<Vec<i64>> {
    let any = |_: &Expr| true;
    let hole = |e: &Expr| is_factor(e, x, &any);
    let Some(t) = env.invert_chain(side, x, target, &hole)? else {
        return Ok(Vec::new());
    };
    let factor = factor_of(side, x).expect("planned by range_product");
    let is_x = |e: &Expr| matches!(e.kind, ExprKind::Ident(s) if s == x);
    match &factor.kind {
        ExprKind::Bin(BinOp::Mul, a, b) if !(is_x(a) && is_x(b)) => {
            let other = if is_x(a) { b } else { a };
            let k = env.int(other)?;
            match (k, t) {
                (0, 0) => Err(Fail::Unsupported(
                    "cannot enumerate an integer multiplied by zero".into(),
                    factor.pos,
                )),
                (0, _) => Ok(Vec::new()),
                (k, t) if t % k == 0 => Ok(vec![t / k]),
                _ => Ok(Vec::new()),
            }
        }
        // `x + x`: `t / 2` when `t` is even (see `range_double`)
        ExprKind::Bin(BinOp::Plus, ..) => Ok(if t % 2 == 0 { vec![t / 2] } else { vec![] }),
        _ => Ok(square_roots(t)),
    }
}

/// The integers whose square is `t`, in increasing order.
fn square_roots(t: i64) -> Vec<i64> {
    if t < 0 {
        return Vec::new();
    }
    let mut r = (t as f64).sqrt() as i64;
    while r > 0 && r.checked_mul(r).is_none_or(|s| s > t) {
        r -= 1;
    }
    while (r + 1).checked_mul(r + 1).is_some_and(|s| s <= t) {
        r += 1;
    }
    match (r * r == t, r) {
        (false, _) => Vec::new(),
        (true, 0) => vec![0],
        (true, r) => vec![-r, r],
    }
}

/// The product holding `x` in the `+`/`-` chain `side`.
fn factor_of(side: &Expr, x: Sym) -> Option<&Expr> {
    let any = |_: &Expr| true;
    if is_factor(side, x, &any) {
        return Some(side);
    }
    match &side.kind {
        ExprKind::Bin(BinOp::Plus | BinOp::Minus, a, b) => {
            let mut ia = Vec::new();
            idents(a, &mut ia);
            factor_of(if ia.contains(&x) { a } else { b }, x)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    //! Products solved for an integer, counted by hand.
    use crate::tests::count;

    #[test]
    fn no_integer_square_root_leaves_no_constants() {
        // s * s = 3 has no integer solution: ProB counts no state, the
        // other constant (unbounded) never needing a value
        let m = "MACHINE R CONSTANTS p, s PROPERTIES p > 0 & s > 0 & s * s = 3
                 VARIABLES v INVARIANT v : INTEGER INITIALISATION v := 0 END";
        assert_eq!(count(m).0, 1);
    }

    #[test]
    fn a_quotient_outside_the_typing_set_is_no_solution() {
        // #z.(z : NAT1 & 5 * z = 20): z = 4 lies beyond MAXINT = 3, so op
        // is never enabled (Typecheckertests/definitions)
        let m = "MACHINE T VARIABLES x INVARIANT x : INTEGER INITIALISATION x := 5
                 OPERATIONS op = PRE #z.(z : NAT1 & x * z = 20) THEN x := 0 END END";
        assert_eq!(count(m), (2, 1));
    }

    #[test]
    fn square_roots_and_quotients() {
        // s * s + 1 = 10: s = -3 or 3; 2 * q = s + 3: q = 0 or 3
        let m =
            "MACHINE Q CONSTANTS s, q PROPERTIES s > -9 & s * s + 1 = 10 & 2 * q = s + 3 & q >= 0
                 VARIABLES v INVARIANT v : INTEGER INITIALISATION v := 0 END";
        // root, 2 constant states, 2 initialised states
        assert_eq!(count(m), (5, 4));
    }

    #[test]
    fn an_integer_added_to_itself_is_halved() {
        // h + h + 1 = 7: h = 3; d + d = 5 has no integer solution
        let m = "MACHINE H CONSTANTS h PROPERTIES h + h + 1 = 7
                 VARIABLES v INVARIANT v : INTEGER INITIALISATION v := h END";
        assert_eq!(count(m), (3, 2));
        let m = "MACHINE H CONSTANTS d PROPERTIES d + d = 5
                 VARIABLES v INVARIANT v : INTEGER INITIALISATION v := d END";
        assert_eq!(count(m).0, 1);
    }
}
