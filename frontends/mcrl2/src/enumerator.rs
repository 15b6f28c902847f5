//! The enumerator: the values of a summand's sum variables that can make
//! its condition true. Sum variables over finite sorts (Bool, finite
//! structured sorts) range over all their elements; a sum variable over an
//! infinite sort (Nat, Pos, Int, lists, recursive or numeric structured
//! sorts) takes only the values the condition pins down, found by
//! [`candidates`]: a conjunct `x == e`, `x < e`, `x <= e` (Nat, Pos), or
//! `x in e` whose `e` is known, through `&&`, `||` (both sides bounded) and
//! `if` (the branch the known condition selects). This is a finite
//! superset of the solutions; the full condition then decides each value.
//! mCRL2's enumerator finds the same solutions by narrowing; where this
//! analysis finds no bound the summand is refused at load time
//! ([`statically_bounded`]) rather than enumerated wrongly.
//!
//! Owns only the search for candidate values; it must not know states or
//! parameters beyond the environment slots it is given.

use crate::rewriter::Rewriter;
use crate::sorts::Sort;
use crate::term::{Builtin, Term};
use crate::value::Value;

/// Whether term `t` reads any of `slots`.
pub fn mentions(t: &Term, slots: &[u32]) -> bool {
    let m = |x: &Term| mentions(x, slots);
    match t {
        Term::Var(s) => slots.contains(s),
        Term::Const(_) | Term::MapRef(_) => false,
        Term::Ctor(_, a)
        | Term::Call(_, a, _)
        | Term::Builtin(_, a)
        | Term::List(a)
        | Term::Set(a) => a.iter().any(m),
        Term::Lambda(_, caps) | Term::Comprehension(_, caps, _) => caps.iter().any(m),
        Term::Apply(f, a) => m(f) || a.iter().any(m),
        Term::If(a, b, c) | Term::Update(a, b, c) => m(a) || m(b) || m(c),
        Term::And(a, b) | Term::Or(a, b) | Term::Implies(a, b) => m(a) || m(b),
        Term::Quantifier { body, .. } => m(body),
        Term::Whr(b, d) => m(b) || d.iter().any(|(_, x)| m(x)),
        Term::Bag(items) => items.iter().any(|(x, n)| m(x) || m(n)),
        Term::Recogniser(_, a) | Term::Projection(_, _, a) | Term::Overloaded(_, _, a) => m(a),
    }
}

/// Lower end of a numeric sort (Nat: 0, Pos: 1), for `x < e` bounds.
fn lower_end(s: &Sort) -> Option<i128> {
    match s {
        Sort::Nat => Some(0),
        Sort::Pos => Some(1),
        _ => None,
    }
}

/// A finite superset of the values of slot `x` (of sort `sort`) that can
/// make `t` true, given `env` for every slot not in `unknown`; `None` when
/// no bound is found. `Some(vec![])`: `t` cannot be true.
pub fn candidates(
    rw: &Rewriter,
    t: &Term,
    x: u32,
    sort: &Sort,
    unknown: &[u32],
    env: &mut [Value],
) -> Option<Vec<Value>> {
    if !mentions(t, unknown) {
        return match rw.eval(t, env, 0) {
            Ok(Value::Bool(false)) => Some(Vec::new()),
            _ => None,
        };
    }
    let known = |e: &Term| !mentions(e, unknown);
    match t {
        Term::And(a, b) => {
            let ca = candidates(rw, a, x, sort, unknown, env);
            if ca.as_ref().is_some_and(|c| c.is_empty()) {
                return ca;
            }
            let cb = candidates(rw, b, x, sort, unknown, env);
            match (ca, cb) {
                (Some(a), Some(b)) => Some(a.into_iter().filter(|v| b.contains(v)).collect()),
                (Some(a), None) => Some(a),
                (None, b) => b,
            }
        }
        Term::Or(a, b) => {
            let ca = candidates(rw, a, x, sort, unknown, env)?;
            let cb = candidates(rw, b, x, sort, unknown, env)?;
            let mut out = ca;
            for v in cb {
                if !out.contains(&v) {
                    out.push(v);
                }
            }
            Some(out)
        }
        Term::If(c, a, b) => {
            if known(c) {
                match rw.eval(c, env, 0) {
                    Ok(Value::Bool(true)) => candidates(rw, a, x, sort, unknown, env),
                    Ok(Value::Bool(false)) => candidates(rw, b, x, sort, unknown, env),
                    _ => None,
                }
            } else {
                let ca = candidates(rw, a, x, sort, unknown, env)?;
                let cb = candidates(rw, b, x, sort, unknown, env)?;
                let mut out = ca;
                for v in cb {
                    if !out.contains(&v) {
                        out.push(v);
                    }
                }
                Some(out)
            }
        }
        Term::Builtin(op, args) if args.len() == 2 => {
            let (l, r) = (&args[0], &args[1]);
            let is_x = |e: &Term| matches!(e, Term::Var(s) if *s == x);
            let eval_known = |e: &Term, env: &mut [Value]| -> Option<Value> {
                if known(e) {
                    rw.eval(e, env, 0).ok()
                } else {
                    None
                }
            };
            let keep = |vs: Vec<Value>| -> Vec<Value> {
                let mut out: Vec<Value> = Vec::new();
                for v in vs {
                    if rw.sorts.has_sort(&v, sort) && !out.contains(&v) {
                        out.push(v);
                    }
                }
                out
            };
            let range = |hi: i128, inclusive: bool| -> Option<Vec<Value>> {
                let lo = lower_end(sort)?;
                let hi = if inclusive { hi } else { hi - 1 };
                if hi - lo > 1 << 20 {
                    return None;
                }
                Some((lo..=hi).map(Value::Int).collect())
            };
            match op {
                Builtin::Eq => {
                    if is_x(l) {
                        eval_known(r, env).map(|v| keep(vec![v]))
                    } else if is_x(r) {
                        eval_known(l, env).map(|v| keep(vec![v]))
                    } else {
                        None
                    }
                }
                Builtin::Lt | Builtin::Le | Builtin::Gt | Builtin::Ge => {
                    // x < e, x <= e, e > x, e >= x.
                    let (bound, inclusive) = match op {
                        Builtin::Lt if is_x(l) => (r, false),
                        Builtin::Le if is_x(l) => (r, true),
                        Builtin::Gt if is_x(r) => (l, false),
                        Builtin::Ge if is_x(r) => (l, true),
                        _ => return None,
                    };
                    match eval_known(bound, env)? {
                        Value::Int(hi) => range(hi, inclusive),
                        _ => None,
                    }
                }
                Builtin::In if is_x(l) => match eval_known(r, env)? {
                    Value::List(items) => Some(keep(items.to_vec())),
                    Value::Set(s) if s.pred.is_none() => Some(keep(s.finite.clone())),
                    Value::Bag(items) => Some(keep(items.iter().map(|(v, _)| v.clone()).collect())),
                    _ => None,
                },
                _ => None,
            }
        }
        _ => None,
    }
}

/// Whether [`candidates`] will find a bound for `x` in every state: the
/// same analysis with the process parameters (`params`) unknown but
/// available later, so a branch chosen by a parameter must be bounded on
/// both sides and a closed conjunct gives no information.
pub fn statically_bounded(
    rw: &Rewriter,
    t: &Term,
    x: u32,
    sort: &Sort,
    unknown: &[u32],
    params: &[u32],
    env: &mut [Value],
) -> bool {
    let sb = |t: &Term, env: &mut [Value]| statically_bounded(rw, t, x, sort, unknown, params, env);
    let known_now = |e: &Term| !mentions(e, unknown) && !mentions(e, params);
    let known_later = |e: &Term| !mentions(e, unknown);
    match t {
        Term::And(a, b) => sb(a, env) || sb(b, env),
        Term::Or(a, b) => sb(a, env) && sb(b, env),
        Term::If(c, a, b) => {
            if known_now(c) {
                match rw.eval(c, env, 0) {
                    Ok(Value::Bool(true)) => sb(a, env),
                    Ok(Value::Bool(false)) => sb(b, env),
                    _ => false,
                }
            } else {
                sb(a, env) && sb(b, env)
            }
        }
        Term::Builtin(op, args) if args.len() == 2 => {
            let (l, r) = (&args[0], &args[1]);
            let is_x = |e: &Term| matches!(e, Term::Var(s) if *s == x);
            let numeric = lower_end(sort).is_some();
            match op {
                Builtin::Eq => (is_x(l) && known_later(r)) || (is_x(r) && known_later(l)),
                Builtin::Lt | Builtin::Le => numeric && is_x(l) && known_later(r),
                Builtin::Gt | Builtin::Ge => numeric && is_x(r) && known_later(l),
                Builtin::In => is_x(l) && known_later(r),
                _ => false,
            }
        }
        _ => false,
    }
}
