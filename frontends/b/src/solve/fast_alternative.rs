//! Another generating conjunct for a step whose planned set is too large
//! to enumerate: `adr : POW(ENUM * ENUM) & adr : PARCELS --> Baskets`
//! (Parcel_Sorting) plans the first conjunct, whose 2^121 subsets are
//! refused, where the second has 81 elements. When the planned set of
//! `x : S` or `x <: S` is refused as unsupported, the first conjunct
//! `x : T` or `x <: T` among the step's checks whose set can be
//! enumerated generates instead, its candidates kept when they belong to
//! `S` (tested without enumerating it: `x : POW(..)` is tested element by
//! element). The step's checks, the alternative among them, are checked
//! as before: the solutions are the same.
//!
//! Owns the choice of that alternative.

use crate::ast::*;
use crate::eval::{Env, Fail, E};
use crate::value::Value;

/// The candidates for `x` (planned from conjunct `planned`, `x : S` or
/// `x <: S`) from another conjunct of `checks`, when the planned set
/// failed with `failed`; `failed` again when there is no other.
pub(super) fn candidates(
    x: Sym,
    planned: &Expr,
    cs: &[&Expr],
    checks: &[usize],
    env: &mut Env,
    failed: Fail,
) -> E<Vec<Value>> {
    if !matches!(failed, Fail::Unsupported(..)) {
        return Err(failed);
    }
    for &k in checks {
        let Some((strict, set)) = generating(cs[k], x) else {
            continue;
        };
        let Ok(mut vals) = elements(strict, set, x, cs, checks, env) else {
            continue;
        };
        let mut keep = Vec::with_capacity(vals.len());
        for v in vals.drain(..) {
            if belongs(&v, planned, env)? {
                keep.push(v);
            }
        }
        return Ok(keep);
    }
    Err(failed)
}

/// For `x : T` (`None`), `x <: T` (`Some(false)`), `x <<: T`
/// (`Some(true)`): the kind and `T`.
fn generating(c: &Expr, x: Sym) -> Option<(Option<bool>, &Expr)> {
    let ExprKind::Bin(op, a, b) = &c.kind else {
        return None;
    };
    if !matches!(a.kind, ExprKind::Ident(s) if s == x) || super::plan::infinite(b) {
        return None;
    }
    match op {
        BinOp::In => Some((None, b)),
        BinOp::Subset => Some((Some(false), b)),
        BinOp::StrictSubset => Some((Some(true), b)),
        _ => None,
    }
}

/// The candidates `x : set` (`strict` `None`) or `x <: set` gives.
fn elements(
    strict: Option<bool>,
    set: &Expr,
    x: Sym,
    cs: &[&Expr],
    checks: &[usize],
    env: &mut Env,
) -> E<Vec<Value>> {
    let Some(strict) = strict else {
        if let Some(fs) = super::fspace::search(x, set, cs, checks, env)? {
            return Ok(fs);
        }
        return env.elements(set);
    };
    let s = env.elements(set)?;
    let mut subs = crate::value::subsets(&s, 24).map_err(|m| Fail::Unsupported(m, set.pos))?;
    if strict {
        subs.retain(|v| v.as_set().is_ok_and(|v| v.len() < s.len()));
    }
    Ok(subs)
}

/// Whether `v` satisfies the planned conjunct `x : S` or `x <: S`.
fn belongs(v: &Value, planned: &Expr, env: &mut Env) -> E<bool> {
    let ExprKind::Bin(op, _, s) = &planned.kind else {
        unreachable!("a generating conjunct is binary")
    };
    match op {
        BinOp::In => env.member(v, s),
        _ => {
            let vs = v.as_set().map_err(|m| Fail::Wd(m, s.pos))?;
            for e in vs {
                if !env.member(e, s)? {
                    return Ok(false);
                }
            }
            if *op == BinOp::Subset {
                return Ok(true);
            }
            let all = env.eval(s)?;
            Ok(all.as_set().is_ok_and(|all| vs.len() < all.len()))
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::tests::count;

    #[test]
    fn a_refused_set_gives_way_to_another_conjunct() {
        // POW(E * E) has 2^25 subsets; {a, b} --> {c, d, e} 9 members, all
        // in POW(E * E): 9 constants states, 9 initialised ones, the root
        let m = "MACHINE A SETS E = {a, b, c, d, e} CONSTANTS r
             PROPERTIES r : POW(E * E) & r : {a, b} --> {c, d, e}
             VARIABLES v INVARIANT v : BOOL INITIALISATION v := bool(r(a) = c) END";
        assert_eq!(count(m), (19, 18));
    }
}
