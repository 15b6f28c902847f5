//! A curried function space `f : D1 --> (D2 --> R)` (the inner arrow any
//! total one) searched point by point as the points of `D1 * D2`, row by
//! row (ProB's SudokuAsConstant: `Board : DOM --> (DOM --> DOM)`, whose
//! range alone has 9^9 members). The partial function seen by the pruning
//! conjuncts maps each row begun to the points of it chosen so far, so
//! that a conjunct applying `f` only as `f(a)(b)` either applies it at
//! chosen points and has its final value there, or fails on a point not
//! chosen yet (see `fspace`, which runs the search).
//!
//! Owns the shape of such a space, the rows' value and the points an
//! application `f(a)(b)` reads; must not know the search itself.

use crate::ast::*;
use crate::eval::{Env, E};
use crate::value::Value;

/// The inner arrow of `space` when it is `D1 --> (D2 k R)` with `k` a
/// total function arrow: `(D2, k, R)`.
pub(super) fn inner(space: &Expr) -> Option<(&Expr, SpaceKind, &Expr)> {
    let ExprKind::Bin(BinOp::Space(SpaceKind::Total), _, r) = &space.kind else {
        return None;
    };
    let ExprKind::Bin(BinOp::Space(k), d2, r2) = &r.kind else {
        return None;
    };
    let total = super::fspace::Arrow::of(*k).is_some_and(|a| a.total);
    total.then_some((&**d2, *k, &**r2))
}

/// The points `x |-> y` of `D1 * D2`, in order (row by row).
pub(super) fn points(d1: &[Value], d2: &[Value]) -> Vec<Value> {
    let mut out = Vec::with_capacity(d1.len() * d2.len());
    for x in d1 {
        for y in d2 {
            out.push(Value::pair(x.clone(), y.clone()));
        }
    }
    out
}

/// The curried function of `chosen`, the points `(x |-> y) |-> v` chosen
/// so far in the search's order: `x |-> {y |-> v, ...}` per row begun.
pub(super) fn curry(chosen: &[Value]) -> Value {
    let mut rows: Vec<Value> = Vec::new();
    let mut row: Vec<Value> = Vec::new();
    let mut at: Option<Value> = None;
    for p in chosen {
        let (xy, v) = p.as_pair().expect("a chosen point");
        let (x, y) = xy.as_pair().expect("a point of D1 * D2");
        if at.as_ref() != Some(x) {
            if let Some(x0) = at.take() {
                rows.push(Value::pair(x0, Value::set_sorted(std::mem::take(&mut row))));
            }
            at = Some(x.clone());
        }
        row.push(Value::pair(y.clone(), v.clone()));
    }
    if let Some(x0) = at {
        rows.push(Value::pair(x0, Value::set_sorted(row)));
    }
    Value::set_sorted(rows)
}

/// Whether every occurrence of `f` in `e` is applied twice (`f(a)(b)`),
/// none of them under a binder of another `f`.
pub(super) fn applied_twice_only(e: &Expr, f: Sym) -> bool {
    let mut all = Vec::new();
    super::plan::idents(e, &mut all);
    let occurrences = all.iter().filter(|&&s| s == f).count();
    let (mut applied, mut rebound) = (0, false);
    crate::compile::visit(e, &mut |x| match &x.kind {
        ExprKind::Apply(g, _) if once(g, f).is_some() => applied += 1,
        ExprKind::Quant { ids, .. } => rebound |= ids.contains(&f),
        _ => {}
    });
    occurrences > 0 && applied == occurrences && !rebound
}

/// `a` when `g` is `f(a)`.
fn once(g: &Expr, f: Sym) -> Option<&Expr> {
    match &g.kind {
        ExprKind::Apply(h, a) if matches!(h.kind, ExprKind::Ident(s) if s == f) => Some(a),
        _ => None,
    }
}

/// The arguments `(a, b)` of the applications `f(a)(b)` in `e`.
pub(super) fn arguments(e: &Expr, f: Sym) -> Vec<(Expr, Expr)> {
    let mut out = Vec::new();
    crate::compile::visit(e, &mut |x| {
        if let ExprKind::Apply(g, b) = &x.kind {
            if let Some(a) = once(g, f) {
                out.push((a.clone(), (**b).clone()))
            }
        }
    });
    out
}

/// The point `a |-> b` an application `f(a)(b)` reads.
pub(super) fn point(a: &Expr, b: &Expr, env: &mut Env) -> E<Value> {
    Ok(Value::pair(env.eval(a)?, env.eval(b)?))
}

#[cfg(test)]
mod tests {
    use crate::tests::count;

    #[test]
    fn a_curried_latin_square_is_searched_point_by_point() {
        // 4x4 Latin squares with the first row 1,2,3,4 as
        // `sq : 1..4 --> (1..4 --> 1..46)` bounded by 4 in a quantifier:
        // the range alone 46^4 functions, beyond what is listed whole, so
        // the search is curried; the solutions are counted by brute force
        // below, one constants state and one initialised state each
        let m = "MACHINE L CONSTANTS sq
             PROPERTIES sq : 1..4 --> (1..4 --> 1..46) &
               !(r, c).(r : 1..4 & c : 1..4 => sq(r)(c) <= 4) &
               sq(1)(1) = 1 & sq(1)(2) = 2 & sq(1)(3) = 3 & sq(1)(4) = 4 &
               !(r, c1, c2).(r : 1..4 & c1 : 1..4 & c2 : 1..4 & c1 < c2 =>
                  sq(r)(c1) /= sq(r)(c2) & sq(c1)(r) /= sq(c2)(r))
             VARIABLES v INVARIANT v : 1..4 INITIALISATION v := sq(2)(1) END";
        let n = latin_with_first_row(4);
        assert_eq!(count(m), (1 + 2 * n, 2 * n));
    }

    #[test]
    fn a_nested_quantifier_prunes_once_flattened() {
        // rows and columns as a quantifier inside a quantifier, the body a
        // conjunction (SudokuAsConstant's shape)
        let m = "MACHINE L CONSTANTS sq
             PROPERTIES sq : 1..4 --> (1..4 --> 1..46) &
               !(r, c).(r : 1..4 & c : 1..4 => sq(r)(c) <= 4) &
               sq(1)(1) = 1 & sq(1)(2) = 2 & sq(1)(3) = 3 & sq(1)(4) = 4 &
               !r.(r : 1..4 => !(c1, c2).(c1 : 1..4 & c2 : 1..4 & c1 < c2 =>
                  sq(r)(c1) /= sq(r)(c2) & sq(c1)(r) /= sq(c2)(r)))
             VARIABLES v INVARIANT v : 1..4 INITIALISATION v := sq(2)(1) END";
        let n = latin_with_first_row(4);
        assert_eq!(count(m), (1 + 2 * n, 2 * n));
    }

    /// Latin squares of order `n` whose first row is `1..n`, by brute
    /// force over the rows (each a permutation).
    fn latin_with_first_row(n: usize) -> usize {
        let perms = permutations(n);
        let mut rows = vec![perms[0].clone()];
        fn extend(rows: &mut Vec<Vec<usize>>, perms: &[Vec<usize>], n: usize) -> usize {
            if rows.len() == n {
                return 1;
            }
            let mut total = 0;
            for p in perms {
                if rows.iter().all(|r| (0..n).all(|c| r[c] != p[c])) {
                    rows.push(p.clone());
                    total += extend(rows, perms, n);
                    rows.pop();
                }
            }
            total
        }
        extend(&mut rows, &perms, n)
    }

    /// The permutations of `0..n`, the identity first.
    fn permutations(n: usize) -> Vec<Vec<usize>> {
        if n == 0 {
            return vec![Vec::new()];
        }
        let mut out = Vec::new();
        for p in permutations(n - 1) {
            for at in (0..n).rev() {
                let mut q = p.clone();
                q.insert(at, n - 1);
                out.push(q);
            }
        }
        out.sort();
        out
    }
}
