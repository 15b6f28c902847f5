//! An identifier of a guard's binder (operation parameters, ANY, `:(`,
//! PROPERTIES) whose only conjuncts are `x /= E`, each `E` an integer of
//! identifiers bound outside the binder: `Find(x) = PRE x /= a & x /= b
//! THEN skip END` (TestEquivArith). Its type, inferred from `E`, is
//! `INTEGER`, which has no finite carrier (`typing` fails), and ProB's
//! model checker enumerates it as it does `x : INTEGER & x /= E` (see
//! `bounds`): over `MININT..MAXINT`, the `/=` conjuncts staying checks.
//!
//! The same conditions as `bounds`' clipping: no other conjunct mentions
//! `x` (one might give ProB a finite domain, `f(x) = 3`, or tie `x` to
//! another unbounded identifier), and the caller applies it only in a
//! guard's binder (in a quantifier or comprehension ProB may keep the
//! set symbolic).
//!
//! Owns that test and those candidates; must not change what `typing`
//! finds for a type with a finite carrier.

use crate::ast::*;
use crate::eval::{Env, E};
use crate::value::Value;

/// `MININT..MAXINT` when every conjunct of `cs` mentioning `x` is `x /= E`
/// (either way round) with `E` mentioning none of `ids` and evaluating to
/// an integer; `None` otherwise.
pub fn candidates(ids: &[Sym], cs: &[&Expr], x: Sym, env: &mut Env) -> E<Option<Vec<Value>>> {
    let mut seen = false;
    for c in cs.iter().filter(|c| crate::symbolic::mentions(c, x)) {
        let Some(other) = differs_from(c, x) else {
            return Ok(None);
        };
        if ids.iter().any(|&y| crate::symbolic::mentions(other, y)) {
            return Ok(None);
        }
        match env.eval(other) {
            Ok(Value::Int(_)) => seen = true,
            _ => return Ok(None),
        }
    }
    Ok(seen.then(|| (env.w.minint..=env.w.maxint).map(Value::Int).collect()))
}

/// `E` when `c` is `x /= E` or `E /= x` with `E` not mentioning `x`.
fn differs_from(c: &Expr, x: Sym) -> Option<&Expr> {
    let ExprKind::Bin(BinOp::Neq, a, b) = &c.kind else {
        return None;
    };
    let is_x = |e: &Expr| matches!(e.kind, ExprKind::Ident(s) if s == x);
    let other = match (is_x(a), is_x(b)) {
        (true, false) => b,
        (false, true) => a,
        _ => return None,
    };
    (!crate::symbolic::mentions(other, x)).then_some(&**other)
}

#[cfg(test)]
mod tests {
    use crate::tests::{count, first_error};

    fn machine(guard: &str) -> String {
        format!(
            "MACHINE C CONSTANTS a PROPERTIES a = 2 VARIABLES v INVARIANT v : INTEGER
             INITIALISATION v := 0
             OPERATIONS Pick(x) = PRE {guard} THEN v := x END END"
        )
    }

    #[test]
    fn a_parameter_typed_only_by_differences_ranges_over_minint_maxint() {
        // brute force: x in MININT..MAXINT = -1..3 except a = 2
        let xs: Vec<i64> = (-1..=3).filter(|&x| x != 2).collect();
        let mut vs = xs.clone();
        vs.push(0);
        vs.sort();
        vs.dedup();
        // root + constants state + one state per value of v
        let states = 2 + vs.len();
        // SETUP_CONSTANTS + INITIALISATION + one Pick edge per (v, x)
        let transitions = 2 + vs.len() * xs.len();
        assert_eq!(count(&machine("x /= a")), (states, transitions));
        assert_eq!(count(&machine("a /= x & x /= a")), (states, transitions));
    }

    #[test]
    fn another_conjunct_on_the_parameter_is_refused() {
        let e = first_error(&machine("x /= a & (v = 1 => x /= 0)"));
        assert!(e.is_some_and(|e| e.contains("no finite carrier")));
        // a comprehension is no guard's binder: ProB may keep it symbolic
        let m = "MACHINE C CONSTANTS a PROPERTIES a = 2 VARIABLES v
                 INVARIANT v : INTEGER INITIALISATION v := 0
                 OPERATIONS Count = BEGIN v := card({x | x /= a}) END END";
        assert!(first_error(m).is_some());
    }
}
