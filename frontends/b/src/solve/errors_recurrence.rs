//! A total function fixed point by point by a recurrence: a universal
//! quantifier `!x.(x : D1 => f(x) = E)` whose `E` applies `f` itself
//! (FactorialNonSymbolic's `fact : NAT --> NATURAL & fact(0) = 1 &
//! !x.(x : NAT1 => fact(x) = x * fact(x - 1))`): the points are fixed in
//! passes by `points::fixed` (one algorithm); this module owns the
//! errors of the values it computes.
//!
//! ProB types the values of `f : D --> NATURAL` (or `NATURAL1`) with a
//! bound of its CLP(FD) solver, whose integers are bounded (about 2^60):
//! a value beyond 64 bits there is ProB's `CLPFD_integer_overflow` (100!
//! for FactorialNonSymbolic under `MAXINT = 100`), as for the other
//! overflows of `errors_determined`; a value between 2^60 and 64 bits,
//! where the exact bound decides, is unsupported. Into `INTEGER` ProB
//! computes with unbounded integers and reports nothing
//! (Fibonacci_Dynamic_Programming's `fib(200)`, 42 digits): a value
//! beyond 64 bits is unsupported there.
//!
//! Owns only these errors; the planning and solving of pointwise
//! functions stays in `points`.

use crate::ast::*;
use crate::eval::{Fail, E};
use crate::value::Value;

/// Values at or beyond this magnitude may exceed ProB's solver integers.
const SOLVER_BOUND: i64 = 1 << 60;

/// ProB's error for the failure `e` of a recurrence's value in `range`:
/// a value beyond 64 bits is its overflow where its solver types that
/// range (see the module's doc).
pub(super) fn overflow(e: &Fail, range: &Expr) -> Option<Fail> {
    match e {
        Fail::Unsupported(m, pos) if m == crate::eval::BEYOND_64_BITS && solver_typed(range) => {
            Some(Fail::Wd(
                super::errors_determined::CLPFD_OVERFLOW.into(),
                *pos,
            ))
        }
        _ => None,
    }
}

/// Whether ProB types the values in `range` with a bound of its solver
/// (see the module's doc).
fn solver_typed(range: &Expr) -> bool {
    matches!(
        range.kind,
        ExprKind::Named(NamedSet::Natural | NamedSet::Natural1)
    )
}

/// `Ok` when every value of the recurrence's function `pairs` is within
/// ProB's solver integers or untyped by it (`range`); unsupported (at `at`) when one is near their
/// bound, where ProB may or may not overflow.
pub(super) fn within_solver(pairs: &[Value], range: &Expr, at: Pos) -> E<()> {
    if !solver_typed(range) {
        return Ok(());
    }
    for p in pairs {
        if let Value::Pair(xy) = p {
            if let Value::Int(n) = xy.1 {
                if n.checked_abs().is_none_or(|a| a >= SOLVER_BOUND) {
                    return Err(Fail::Unsupported(
                        format!("a recurrence's value {n} near the bound of ProB's CLP(FD) integers (2^60)"),
                        at,
                    ));
                }
            }
        }
    }
    Ok(())
}
