//! A negated inclusion of an interval, `not(E1..E2 <: S)` (or `E1..E2
//! /<: S`, strict alike): ProB's finite-domain solver waits until the
//! interval's bounds are known before it decides such a conjunct (its
//! `not_subset_of` on a partially instantiated interval, PROBCORE-45), so
//! the conjunct gives the identifiers it mentions no domain: an integer
//! or a function into an infinite integer set mentioned only by it (and
//! by typings) is clipped to `MININT..MAXINT` as if it were not there,
//! and the conjunct is a check once they are bound (NotIntervalSol_v2's
//! `ia : NATURAL` and `csrs, totCSR : {"SD","HD","MD"} --> NATURAL`: the
//! 4^7 solutions of the clipped box, as ProB's 32,768 states).
//!
//! Only the negation of an inclusion whose left side is an interval: a
//! negated comparison (`not(x > 5)`) is a bound to ProB (it pushes the
//! negation inward), and `not(x : S)` an exclusion (see `range_member`).
//!
//! Owns the shape test; `bounds` and `plan::clipped` use it.

use crate::ast::*;

/// Whether conjunct `c` is a negated inclusion of an interval (see the
/// module's doc).
pub fn waits(c: &Expr) -> bool {
    match &c.kind {
        ExprKind::Call(Builtin::Not, a) if a.len() == 1 => matches!(
            &a[0].kind,
            ExprKind::Bin(BinOp::Subset | BinOp::StrictSubset, l, _) if interval(l)
        ),
        ExprKind::Bin(BinOp::NotSubset | BinOp::NotStrictSubset, l, _) => interval(l),
        _ => false,
    }
}

fn interval(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Bin(BinOp::Interval, ..))
}
