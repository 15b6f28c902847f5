//! A total function into `NATURAL` (or `NATURAL1`) of a guard's binder
//! whose weighted sum is fixed: `b : DOM --> NATURAL & SIGMA(x).(x : DOM
//! | b(x)) = jv` (Stepmother), `stolen : coins --> NATURAL &
//! SIGMA(x).(x : coins | stolen(x) * x) = 100` (SubsetSum). Its type has
//! no finite carrier (`typing` fails), but the sum bounds every value, as
//! ProB's finite-domain propagation bounds them before it enumerates: the
//! candidates are the functions whose weighted sum is the target, listed
//! point by point, every conjunct staying a check.
//!
//! Exact: the values are at least 0 (1), the weights (`W` in `f(x) * W`,
//! evaluated at each point, 1 when absent) at least 1, so a solution's
//! value at a point is at most the target over that point's weight; the
//! SIGMA's domain must equal the function's. Applied only in a guard's
//! binder, as `bounds` clips (in a quantifier ProB may keep it symbolic).
//!
//! Owns the recognition of that pair of conjuncts and the listing.

use crate::ast::*;
use crate::eval::{Env, E};
use crate::symbolic::mentions;
use crate::value::Value;

/// The most functions listed (beyond: unsupported, as before).
const MAX_FUNCTIONS: usize = 1 << 20;

/// The functions `x : D --> NATURAL` (`NATURAL1`) of `cs` whose sum
/// `SIGMA(y).(y : D | x(y) * W) = E` of `cs` is `E`'s value; `None` when
/// `cs` has no such pair of conjuncts ready in `env`.
pub fn candidates(ids: &[Sym], cs: &[&Expr], x: Sym, env: &mut Env) -> E<Option<Vec<Value>>> {
    let Some((dom, lo)) = cs.iter().find_map(|c| typing(c, x)) else {
        return Ok(None);
    };
    let Ok(dom) = env.eval(dom) else {
        return Ok(None);
    };
    let Ok(points) = dom.as_set().map(<[Value]>::to_vec) else {
        return Ok(None);
    };
    for c in cs {
        let Some((y, sdom, weight, target)) = weighted_sum(c, x) else {
            continue;
        };
        let unbound = |s: &Sym| !env.locals.iter().any(|(l, _)| l == s);
        if mentions(target, x) || ids.iter().any(|s| unbound(s) && mentions(target, *s)) {
            continue;
        }
        let (Ok(sdom), Ok(Value::Int(total))) = (env.eval(sdom), env.eval(target)) else {
            continue;
        };
        if sdom != dom {
            continue;
        }
        let Some(ws) = weights(y, weight, &points, env) else {
            continue;
        };
        let mut out = Vec::new();
        let mut vals = Vec::with_capacity(points.len());
        if !list(&ws, lo, total, &mut vals, &mut |v| {
            out.push(function(&points, v));
            out.len() <= MAX_FUNCTIONS
        }) {
            return Ok(None);
        }
        return Ok(Some(out));
    }
    Ok(None)
}

/// `(D, lowest value)` when `c` is `x : D --> NATURAL` (`NATURAL1`).
fn typing(c: &Expr, x: Sym) -> Option<(&Expr, i64)> {
    let ExprKind::Bin(BinOp::In, a, s) = &c.kind else {
        return None;
    };
    let ExprKind::Bin(BinOp::Space(SpaceKind::Total), d, r) = &s.kind else {
        return None;
    };
    if !matches!(a.kind, ExprKind::Ident(y) if y == x) || mentions(d, x) {
        return None;
    }
    match r.kind {
        ExprKind::Named(NamedSet::Natural) => Some((d, 0)),
        ExprKind::Named(NamedSet::Natural1) => Some((d, 1)),
        _ => None,
    }
}

/// `(y, D, W, E)` when `c` is `SIGMA(y).(y : D | x(y) * W) = E` (either
/// way round; `W * x(y)`, or `x(y)` alone: no `W`), `D` and `W` not
/// mentioning `x`.
fn weighted_sum(c: &Expr, x: Sym) -> Option<(Sym, &Expr, Option<&Expr>, &Expr)> {
    let ExprKind::Bin(BinOp::Eq, a, b) = &c.kind else {
        return None;
    };
    let (sum, target) = match (&a.kind, &b.kind) {
        (ExprKind::Quant { .. }, _) => (a, b),
        (_, ExprKind::Quant { .. }) => (b, a),
        _ => return None,
    };
    let ExprKind::Quant {
        kind: QuantKind::Sigma,
        ids,
        pred,
        body: Some(body),
        ..
    } = &sum.kind
    else {
        return None;
    };
    let [y] = ids[..] else { return None };
    let ExprKind::Bin(BinOp::In, py, d) = &pred.kind else {
        return None;
    };
    if !matches!(py.kind, ExprKind::Ident(s) if s == y) || mentions(d, x) || mentions(d, y) {
        return None;
    }
    let applied = |e: &Expr| {
        matches!(&e.kind, ExprKind::Apply(f, arg)
            if matches!(f.kind, ExprKind::Ident(s) if s == x)
                && matches!(arg.kind, ExprKind::Ident(s) if s == y))
    };
    let weight = match &body.kind {
        _ if applied(body) => None,
        ExprKind::Bin(BinOp::Mul, l, r) if applied(l) => Some(&**r),
        ExprKind::Bin(BinOp::Mul, l, r) if applied(r) => Some(&**l),
        _ => return None,
    };
    if weight.is_some_and(|w| mentions(w, x)) {
        return None;
    }
    Some((y, d, weight, target))
}

/// The weight at each point (`y` bound to it), each at least 1.
fn weights(y: Sym, w: Option<&Expr>, points: &[Value], env: &mut Env) -> Option<Vec<i64>> {
    let Some(w) = w else {
        return Some(vec![1; points.len()]);
    };
    points
        .iter()
        .map(|p| {
            env.locals.push((y, p.clone()));
            let v = env.eval(w);
            env.locals.pop();
            match v {
                Ok(Value::Int(n)) if n >= 1 => Some(n),
                _ => None,
            }
        })
        .collect()
}

/// Calls `f` with every assignment of values `>= lo` to the points (in
/// order, after `vals`) whose weighted sum is `left`; `false` when `f`
/// asked to stop.
fn list(
    ws: &[i64],
    lo: i64,
    left: i64,
    vals: &mut Vec<i64>,
    f: &mut dyn FnMut(&[i64]) -> bool,
) -> bool {
    let Some((&w, rest)) = ws.split_first() else {
        return left != 0 || f(vals);
    };
    // the later points take at least `lo` each
    let floor: i64 = rest.iter().map(|r| r * lo).sum();
    let mut v = lo;
    while v * w + floor <= left {
        vals.push(v);
        let go = list(rest, lo, left - v * w, vals, f);
        vals.pop();
        if !go {
            return false;
        }
        v += 1;
    }
    true
}

/// The function mapping each point to its value.
fn function(points: &[Value], vals: &[i64]) -> Value {
    let pairs = points.iter().zip(vals);
    Value::set(
        pairs
            .map(|(p, &v)| Value::pair(p.clone(), Value::Int(v)))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use crate::tests::{count, first_error};

    /// The assignments of `0..=10` to `n` points (a superset of every
    /// solution below: each sum is under 10).
    fn tuples(n: u32) -> Vec<Vec<i64>> {
        (0..11i64.pow(n))
            .map(|mut k| {
                (0..n)
                    .map(|_| {
                        let d = k % 11;
                        k /= 11;
                        d
                    })
                    .collect()
            })
            .collect()
    }

    fn constants(props: &str) -> (usize, usize) {
        count(&format!("MACHINE C CONSTANTS f PROPERTIES {props} END"))
    }

    #[test]
    fn a_function_into_natural_of_fixed_sum_ranges_over_its_sums() {
        let sols = |ok: &dyn Fn(&[i64]) -> bool| tuples(3).iter().filter(|t| ok(t)).count();
        // root + one constants state and one initialised state per solution
        let n = sols(&|t| t.iter().sum::<i64>() == 4);
        let m = "f : {1, 2, 3} --> NATURAL & SIGMA(x).(x : {1, 2, 3} | f(x)) = 4";
        assert_eq!(constants(m), (1 + 2 * n, 2 * n));
        let n = sols(&|t| t[0] + 2 * t[1] + 3 * t[2] == 6);
        let m = "f : {1, 2, 3} --> NATURAL & 6 = SIGMA(x).(x : {1, 2, 3} | f(x) * x)";
        assert_eq!(constants(m), (1 + 2 * n, 2 * n));
        let n = sols(&|t| t[0] >= 1 && t[1] >= 1 && t[2] == 0 && t[0] + 2 * t[1] == 5);
        let m = "f : {1, 2} --> NATURAL1 & SIGMA(x).(x : {1, 2} | x * f(x)) = 5";
        assert_eq!(constants(m), (1 + 2 * n, 2 * n));
    }

    #[test]
    fn an_operation_parameter_of_fixed_sum() {
        // brute force: b over 0..2 --> 0..10 summing to 2; tot := b(0)
        let bs: Vec<Vec<i64>> = tuples(3)
            .into_iter()
            .filter(|t| t.iter().sum::<i64>() == 2)
            .collect();
        let mut tots: Vec<i64> = bs.iter().map(|b| b[0]).chain([0]).collect();
        tots.sort();
        tots.dedup();
        let m = "MACHINE C VARIABLES tot INVARIANT tot : NATURAL INITIALISATION tot := 0
                 OPERATIONS Put(b) = PRE b : 0..2 --> NATURAL &
                   SIGMA(i).(i : 0..2 | b(i)) = 2 THEN tot := b(0) END END";
        // root + one state per total; init + one edge per (state, b)
        assert_eq!(count(m), (1 + tots.len(), 1 + tots.len() * bs.len()));
    }

    #[test]
    fn values_or_weights_without_a_bound_are_refused() {
        let m = "MACHINE C CONSTANTS f PROPERTIES
                 f : {1, 2} --> INTEGER & SIGMA(x).(x : {1, 2} | f(x)) = 3 END";
        assert!(first_error(m).is_some());
        let m = "MACHINE C CONSTANTS f PROPERTIES
                 f : {0, 1} --> NATURAL & SIGMA(x).(x : {0, 1} | f(x) * x) = 3 END";
        assert!(first_error(m).is_some());
    }
}
