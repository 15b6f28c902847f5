//! A total function into an infinite set fixed at every point of its
//! (finite) domain by equations: `speed : Persons --> NATURAL1 &
//! speed(aa) = 1 & speed(bb) = 2 ...`. Whatever the range, a total
//! function on `D` is its values at `D`'s elements, and `f(a) = E` fixes
//! the value at `a`: the only candidate is `{a |-> E, ...}`, the
//! membership and every equation being checked after (two equations for
//! one point that disagree leave no solution). A point no equation fixes
//! is unsupported (ProB would enumerate the range there).
//!
//! Owns the planning of such a step (`equations`) and its candidate.

use crate::ast::*;
use crate::eval::{Env, Fail, E};
use crate::value::Value;

/// The conjuncts among `cs` not yet `checked` that are `f(a) = E` (or
/// `E = f(a)`) with `a` and `E` `ready`: (conjunct, `f(a)` on the left).
pub fn equations(
    f: Sym,
    cs: &[&Expr],
    checked: &[bool],
    ready: &dyn Fn(&Expr) -> bool,
) -> Vec<(usize, bool)> {
    let applies_f = |e: &Expr| matches!(&e.kind, ExprKind::Apply(g, a) if matches!(g.kind, ExprKind::Ident(s) if s == f) && ready(a));
    (0..cs.len())
        .filter(|&c| !checked[c])
        .filter_map(|c| match &cs[c].kind {
            ExprKind::Bin(BinOp::Eq, a, b) if applies_f(a) && ready(b) => Some((c, true)),
            ExprKind::Bin(BinOp::Eq, a, b) if applies_f(b) && ready(a) => Some((c, false)),
            _ => None,
        })
        .collect()
}

/// Whether `e` is a total function space `D --> R` (or `>->`, `-->>`,
/// `>->>`): its domain `D`.
pub fn total_domain(e: &Expr) -> Option<&Expr> {
    match &e.kind {
        ExprKind::Bin(
            BinOp::Space(
                SpaceKind::Total | SpaceKind::TotalInj | SpaceKind::TotalSurj | SpaceKind::TotalBij,
            ),
            d,
            _,
        ) => Some(d),
        _ => None,
    }
}

/// The function fixed by the equations `eqs` at every element of the
/// domain of the space in conjunct `c` (`f : D --> R`).
pub fn candidate(c: usize, eqs: &[(usize, bool)], cs: &[&Expr], env: &mut Env) -> E<Value> {
    let ExprKind::Bin(_, f, space) = &cs[c].kind else {
        unreachable!("a membership conjunct")
    };
    let dom = total_domain(space).expect("planned on a total function space");
    let mut pairs = Vec::new();
    'points: for d in env.elements(dom)? {
        for &(q, left) in eqs {
            let ExprKind::Bin(_, a, b) = &cs[q].kind else {
                unreachable!("an equation")
            };
            let (app, value) = if left { (a, b) } else { (b, a) };
            let ExprKind::Apply(_, arg) = &app.kind else {
                unreachable!("an application")
            };
            if env.eval(arg)? == d {
                pairs.push(Value::pair(d, env.eval(value)?));
                continue 'points;
            }
        }
        return Err(Fail::Unsupported(
            "a total function into an infinite set that no equation f(x) = E fixes at every point"
                .into(),
            f.pos,
        ));
    }
    Ok(Value::set(pairs))
}

#[cfg(test)]
mod tests {
    use crate::tests::{count, first_error};

    fn machine(equations: &str) -> String {
        format!(
            "MACHINE P SETS Q = {{p1, p2, p3}} CONSTANTS sp
             PROPERTIES sp : Q --> NATURAL1 & {equations}
             VARIABLES v INVARIANT v : NATURAL INITIALISATION v := sp(p2)
             OPERATIONS pick(p) = PRE p : Q THEN v := sp(p) END END"
        )
    }

    #[test]
    fn equations_fix_a_total_function() {
        // sp = {p1 |-> 1, p2 |-> 5, p3 |-> 5}: states root, constants,
        // v = 5, v = 1; edges setup, init and 3 picks from each v
        assert_eq!(
            count(&machine("sp(p1) = 1 & sp(p2) = 5 & 5 = sp(p3)")),
            (4, 8)
        );
    }

    #[test]
    fn a_point_left_free_is_unsupported() {
        let e = first_error(&machine("sp(p1) = 1 & sp(p2) = 5")).expect("p3 free");
        assert!(e.contains("fixes at every point"), "{e}");
    }
}
