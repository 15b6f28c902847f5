//! Enumerating a function into an infinite integer set typed by nothing
//! else: `a : NAT1 +-> INTEGER` as the only conjunct on `a` (Demo's
//! SortByPermutationPF: `a :(a : NAT1 +-> INTEGER)`, 7^4 initial states
//! with `MAXINT = 4`), `c : S --> NATURAL` alone in the PROPERTIES. ProB's
//! model checker enumerates the range as it enumerates an integer with an
//! infinite domain, between `MININT` and `MAXINT` (`NATURAL` from 0,
//! `NATURAL1` from 1), and so does this front-end, under the same
//! conditions as `bounds`: in a guard's binder, and only where no other
//! conjunct mentions the function (one might give ProB another domain)
//! but pointwise bounds `!x.(P => f(x) > n)` (`<`, `<=`, `>=`, `/=`; `P`
//! not mentioning `f`, `n` a literal) whose bound lies in
//! `MININT..MAXINT` (OLSR's M2_corrected: `tc_sqn : Tc --> NATURAL` with
//! `tc_sqn(tc) > 0`): ProB narrows each point's domain to that bound
//! before clipping the other side, which is the clipped space filtered by
//! the bound; a bound outside `MININT..MAXINT` is unsupported (ProB would
//! enumerate beyond `MAXINT`).
//!
//! Owns the shape tests (planning) and the clipped space (enumeration).

use crate::ast::*;
use crate::eval::{Env, Fail, E};
use crate::value::Value;

/// Whether conjunct `c` is `x : D +-> R` (or `-->`) with `R` one of
/// `INTEGER`, `NATURAL`, `NATURAL1` and `D` `ready`.
pub fn typing(c: &Expr, x: Sym, ready: &dyn Fn(&Expr) -> bool) -> bool {
    let ExprKind::Bin(BinOp::In, a, s) = &c.kind else {
        return false;
    };
    let ExprKind::Bin(BinOp::Space(SpaceKind::Partial | SpaceKind::Total), d, r) = &s.kind else {
        return false;
    };
    matches!(a.kind, ExprKind::Ident(y) if y == x)
        && ready(d)
        && matches!(
            r.kind,
            ExprKind::Named(NamedSet::Integer | NamedSet::Natural | NamedSet::Natural1)
        )
}

/// The bound conjunct `c` gives every point of function `f` when it is
/// `!x.(P => f(x) op n)` (or `n op f(x)`) with `P` not mentioning `f` and
/// `ready`: `Some(Some(b))` for `<`, `<=`, `>`, `>=` (the bound `b` after
/// the shift of a strict comparison), `Some(None)` for `/=`.
pub fn pointwise_bound(c: &Expr, f: Sym, ready: &dyn Fn(&Expr) -> bool) -> Option<Option<i64>> {
    let ExprKind::Quant {
        kind: QuantKind::Forall,
        ids,
        pred,
        ..
    } = &c.kind
    else {
        return None;
    };
    let ([x], ExprKind::Bin(BinOp::Implies, dom, body)) = (ids.as_slice(), &pred.kind) else {
        return None;
    };
    let mut used = Vec::new();
    super::plan::idents(dom, &mut used);
    if used.contains(&f) || !ready(dom) {
        return None;
    }
    let at_x = |e: &Expr| match &e.kind {
        ExprKind::Apply(g, a) => {
            matches!(g.kind, ExprKind::Ident(s) if s == f)
                && matches!(a.kind, ExprKind::Ident(s) if s == *x)
        }
        _ => false,
    };
    let ExprKind::Bin(op, a, b) = &body.kind else {
        return None;
    };
    let (op, n) = match (&a.kind, &b.kind) {
        (_, ExprKind::Int(n)) if at_x(a) => (*op, *n),
        (ExprKind::Int(n), _) if at_x(b) && *op == BinOp::Neq => (BinOp::Neq, *n),
        (ExprKind::Int(n), _) if at_x(b) => (super::bounds::mirror(*op), *n),
        _ => return None,
    };
    match op {
        BinOp::Lt => Some(Some(n - 1)),
        BinOp::Gt => Some(Some(n + 1)),
        BinOp::Le | BinOp::Ge => Some(Some(n)),
        BinOp::Neq => Some(None),
        _ => None,
    }
}

/// Unsupported unless every bound of `bounds` (see `pointwise_bound`)
/// lies in `MININT..MAXINT`.
pub fn bounds_within(bounds: &[&Expr], f: Sym, env: &Env) -> E<()> {
    for c in bounds {
        let b = pointwise_bound(c, f, &|_| true).flatten();
        if b.is_some_and(|b| !(env.w.minint..=env.w.maxint).contains(&b)) {
            return Err(Fail::Unsupported(
                "a pointwise bound outside MININT..MAXINT on a function into an infinite integer set (ProB enumerates beyond the clipped range)".into(),
                c.pos,
            ));
        }
    }
    Ok(())
}

/// The elements of conjunct `c`'s space with its range clipped to
/// `MININT..MAXINT`; unsupported outside a `guard`'s binder.
pub fn candidates(c: &Expr, env: &mut Env, guard: bool) -> E<Vec<Value>> {
    let ExprKind::Bin(BinOp::In, _, s) = &c.kind else {
        unreachable!("planned by clipped")
    };
    let ExprKind::Bin(op, d, r) = &s.kind else {
        unreachable!("planned by clipped")
    };
    if !guard {
        return Err(Fail::Unsupported(
            "enumerating a function into an infinite integer set (ProB's result depends on how it clips it to MININT..MAXINT)".into(),
            c.pos,
        ));
    }
    let lo = match r.kind {
        ExprKind::Named(NamedSet::Natural) => 0,
        ExprKind::Named(NamedSet::Natural1) => 1,
        _ => env.w.minint,
    };
    let int = |n: i64| Expr {
        kind: ExprKind::Int(n),
        pos: r.pos,
    };
    let range = Expr {
        kind: ExprKind::Bin(
            BinOp::Interval,
            Box::new(int(lo)),
            Box::new(int(env.w.maxint)),
        ),
        pos: r.pos,
    };
    let space = Expr {
        kind: ExprKind::Bin(*op, d.clone(), Box::new(range)),
        pos: s.pos,
    };
    env.elements(&space)
}

#[cfg(test)]
mod tests {
    use crate::tests::{count, first_error};

    #[test]
    fn a_function_into_natural_typed_by_nothing_else() {
        // 4^2 functions from {a, b} into 0..MAXINT, each initialised
        let m = "MACHINE C SETS S = {a, b} CONSTANTS f PROPERTIES f : S --> NATURAL END";
        assert_eq!(count(m), (33, 32));
        // another conjunct on f might give ProB another range: refused
        let m = "MACHINE C SETS S = {a, b} CONSTANTS f
                 PROPERTIES f : S --> NATURAL & f(a) > 5 END";
        assert!(first_error(m).is_some());
    }
}
