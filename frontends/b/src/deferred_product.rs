//! The other side of a bijection onto a deferred set `S` when it is a
//! cartesian product over one other deferred set `D` (`make : D * D >->>
//! S`, the Event-B record encodings): every such bijection is the image
//! of any other under a permutation of `S`, as for a finite side without
//! deferred sets, so `bijection` fixes it the same way (with `D` as the
//! other deferred set: `symmetry` then refuses it when `D` has constant
//! elements, `compile` when another fixed bijection names `D`). ProB's
//! count: SampleRecord_ctx, `make_rec1 : Nodes * Nodes >->> rec1` with
//! `a : rec1 & b : rec1 & a /= b`, 24 states (12 solutions: the pairs
//! `a, b` beside one bijection; `rec1`'s 4 elements: `deferred_mincard`).
//!
//! Owns that recognition; the fixing is `bijection`'s.

use crate::ast::*;

/// `D` when `e` is a cartesian product whose factors are the deferred set
/// `D` (not `s`, at least once) or sets `finite` accepts; `None` for two
/// different deferred sets or any other factor.
pub fn product_over(
    e: &Expr,
    s: Sym,
    deferred: &[Sym],
    finite: &dyn Fn(&Expr) -> bool,
) -> Option<Sym> {
    let mut found: Option<Sym> = None;
    factors_ok(e, s, deferred, finite, &mut found).then_some(found)?
}

fn factors_ok(
    e: &Expr,
    s: Sym,
    deferred: &[Sym],
    finite: &dyn Fn(&Expr) -> bool,
    found: &mut Option<Sym>,
) -> bool {
    match &e.kind {
        ExprKind::Bin(BinOp::Mul, a, b) => {
            factors_ok(a, s, deferred, finite, found) && factors_ok(b, s, deferred, finite, found)
        }
        ExprKind::Ident(d) if deferred.contains(d) => {
            *d != s && found.replace(*d).is_none_or(|old| old == *d)
        }
        _ => finite(e),
    }
}
