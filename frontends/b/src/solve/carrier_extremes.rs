//! A non-empty set of integers of a guard's binder bounded by its
//! extremes: `numbers : POW1(NATURAL) & card(numbers) = 3 & min(numbers)
//! = 990 & max(numbers) <= 992` (MaxPropagation). Its type, `POW(INTEGER)`,
//! has no finite carrier (`typing` fails), but `min(x) >= lo` and `max(x)
//! <= hi` put every element of `x` in `lo..hi`, as ProB's finite-domain
//! propagation does before it enumerates: the candidates are the
//! non-empty subsets of `lo..hi`, every conjunct staying a check.
//!
//! Exact: a solution is non-empty (the typing `x : POW1(S)` or `FIN1(S)`
//! is required), so its extremes are defined and lie within the bounds.
//! Applied only in a guard's binder (in a quantifier or comprehension
//! ProB may keep the set symbolic), and only up to 2^MAX_SPAN subsets.
//!
//! Owns the reading of those bounds and those candidates.

use crate::ast::*;
use crate::eval::{Env, E};
use crate::symbolic::mentions;
use crate::value::Value;

/// The widest `lo..hi` whose subsets are listed.
const MAX_SPAN: i64 = 20;

/// The non-empty subsets of `lo..hi` when conjuncts of `cs` type `x` as a
/// non-empty set and bound `min(x)` below by `lo` and `max(x)` above by
/// `hi`, each bound an expression of the identifiers bound so far; `None`
/// otherwise.
pub fn candidates(ids: &[Sym], cs: &[&Expr], x: Sym, env: &mut Env) -> E<Option<Vec<Value>>> {
    if !cs.iter().any(|c| nonempty_typing(c, x)) {
        return Ok(None);
    }
    let (mut lo, mut hi) = (None, None);
    for c in cs {
        let Some((lower, e)) = extreme_bound(c, x) else {
            continue;
        };
        let unbound = |y: &Sym| !env.locals.iter().any(|(s, _)| s == y);
        if mentions(e, x) || ids.iter().any(|y| unbound(y) && mentions(e, *y)) {
            continue;
        }
        let Ok(Value::Int(n)) = env.eval(e) else {
            continue;
        };
        if lower {
            lo = Some(lo.map_or(n, |m: i64| m.max(n)));
        } else {
            hi = Some(hi.map_or(n, |m: i64| m.min(n)));
        }
    }
    let (Some(lo), Some(hi)) = (lo, hi) else {
        return Ok(None);
    };
    if hi.saturating_sub(lo) >= MAX_SPAN {
        return Ok(None);
    }
    Ok(Some(nonempty_subsets(lo, hi)))
}

/// The non-empty subsets of `lo..hi`.
fn nonempty_subsets(lo: i64, hi: i64) -> Vec<Value> {
    let n = if hi < lo { 0 } else { (hi - lo + 1) as u32 };
    (1u64..1 << n)
        .map(|bits| {
            let elems = (0..n)
                .filter(|i| bits >> i & 1 == 1)
                .map(|i| Value::Int(lo + i as i64));
            Value::set(elems.collect())
        })
        .collect()
}

/// Whether `c` is `x : POW1(S)` or `x : FIN1(S)`.
fn nonempty_typing(c: &Expr, x: Sym) -> bool {
    let ExprKind::Bin(BinOp::In, a, s) = &c.kind else {
        return false;
    };
    matches!(a.kind, ExprKind::Ident(y) if y == x)
        && matches!(&s.kind, ExprKind::Call(Builtin::Pow1 | Builtin::Fin1, _))
}

/// `(true, E)` when `c` bounds `min(x)` below by `E` (`min(x) = E`, `min(x)
/// >= E`, `E <= min(x)`), `(false, E)` when it bounds `max(x)` above.
fn extreme_bound(c: &Expr, x: Sym) -> Option<(bool, &Expr)> {
    use BinOp::*;
    let ExprKind::Bin(op, a, b) = &c.kind else {
        return None;
    };
    let of_x = |e: &Expr, f: Builtin| {
        matches!(&e.kind,
        ExprKind::Call(g, v) if *g == f && v.len() == 1
            && matches!(v[0].kind, ExprKind::Ident(y) if y == x))
    };
    let (min, max) = (Builtin::Min, Builtin::Max);
    match op {
        Eq if of_x(a, min) => Some((true, b)),
        Eq if of_x(b, min) => Some((true, a)),
        Eq if of_x(a, max) => Some((false, b)),
        Eq if of_x(b, max) => Some((false, a)),
        Ge if of_x(a, min) => Some((true, b)),
        Le if of_x(b, min) => Some((true, a)),
        Le if of_x(a, max) => Some((false, b)),
        Ge if of_x(b, max) => Some((false, a)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use crate::tests::{count, first_error};

    /// The non-empty subsets of `0..=6`, a superset of every solution's
    /// elements below (each bound lies inside it).
    fn subsets() -> Vec<Vec<i64>> {
        (1u32..1 << 7)
            .map(|b| (0..7).filter(|i| b >> i & 1 == 1).collect())
            .collect()
    }

    #[test]
    fn a_set_bounded_by_its_extremes_ranges_over_the_subsets_between() {
        let m = "MACHINE C CONSTANTS s PROPERTIES
                 s : POW1(NATURAL) & min(s) = 1 & max(s) <= 3 END";
        let sols = subsets()
            .into_iter()
            .filter(|s| s[0] == 1 && *s.last().unwrap() <= 3)
            .count();
        // root + one constants state and one initialised state per solution
        assert_eq!(count(m), (1 + 2 * sols, 2 * sols));
        // a bound through a constant bound before
        let m = "MACHINE C CONSTANTS s, t PROPERTIES
                 s : POW1(NATURAL) & min(s) = 1 & 3 >= max(s) &
                 t : POW1(INTEGER) & min(t) = min(s) & max(t) = 3 & card(t) = 2 END";
        let ts = |s: &[i64]| {
            subsets()
                .into_iter()
                .filter(|t| t[0] == s[0] && *t.last().unwrap() == 3 && t.len() == 2)
                .count()
        };
        let sols: usize = subsets()
            .into_iter()
            .filter(|s| s[0] == 1 && *s.last().unwrap() <= 3)
            .map(|s| ts(&s))
            .sum();
        assert_eq!(count(m), (1 + 2 * sols, 2 * sols));
    }

    #[test]
    fn a_set_that_may_be_empty_or_has_one_bound_is_refused() {
        let m = "MACHINE C CONSTANTS s PROPERTIES
                 s : POW(NATURAL) & min(s) = 1 & max(s) <= 3 END";
        assert!(first_error(m).is_some());
        let m = "MACHINE C CONSTANTS s PROPERTIES s : POW1(NATURAL) & min(s) = 1 END";
        assert!(first_error(m).is_some());
    }
}
