//! A universal quantifier `!xs.(P => Q)` whose antecedent `P` shows no
//! finite carrier for an identifier's type at hand (`!z.(z /: S => ..)`
//! with `S = {}`: see `typing`) is evaluated over `P & (Q or not(Q))`,
//! the same solutions, whose second conjunct shows the type from `Q`
//! (`Conflict[{z}] /\ S /= {}`: `z` is a state), as ProB enumerates `z`
//! over its type (DFA_Minimizing's Merge).
//!
//! Sound because `Q or not(Q)` holds wherever `Q` is defined, and `Q` is
//! evaluated for every solution of `P` by the quantifier anyway (in the
//! same order, just before); the plan is made per evaluation (only where
//! the antecedent's plan failed so).
//!
//! Owns that retry.

use super::{plan, solve};
use crate::ast::*;
use crate::eval::{Env, Fail, E};

/// Whether `f` is the failure this module retries.
pub fn untyped(f: &Fail) -> bool {
    matches!(f, Fail::Unsupported(m, _) if m.contains("has no finite carrier shown"))
}

/// Whether `!ids.(dom => body)` holds, over `dom & (body or not(body))`.
pub fn forall_typed_by_body(ids: &[Sym], dom: &Expr, body: &Expr, env: &mut Env) -> E<bool> {
    let pos = dom.pos;
    let not_body = Expr {
        kind: ExprKind::Call(Builtin::Not, vec![body.clone()]),
        pos,
    };
    let either = Expr {
        kind: ExprKind::Bin(BinOp::Or, Box::new(body.clone()), Box::new(not_body)),
        pos,
    };
    let ext = Expr {
        kind: ExprKind::Bin(BinOp::And, Box::new(dom.clone()), Box::new(either)),
        pos,
    };
    let p = plan(ids, &ext, &env.w.syms).map_err(|(m, at)| Fail::Unsupported(m, at))?;
    let mut all = true;
    solve(ids, &ext, &p, env, false, &mut |env| {
        if !env.holds(body)? {
            all = false;
        }
        Ok(all)
    })?;
    Ok(all)
}

#[cfg(test)]
mod tests {
    use crate::tests::count;

    #[test]
    fn a_universal_typed_by_its_consequent() {
        // S = {} shows no type for z in z /: S; c[{z}] does: the guard
        // fails for S = {} (c[{a}] /\ {} = {}) and holds for {a}, {b},
        // {a, b}, so m ranges over the 8 sets of those
        let m = "MACHINE U SETS T = {a, b} CONSTANTS c PROPERTIES c = {a |-> b, b |-> a}
                 VARIABLES m INVARIANT m <: POW(T) INITIALISATION m := {}
                 OPERATIONS merge(S) = PRE S <: T & !z.(z /: S => c[{z}] /\\ S /= {}) &
                   S /: m THEN m := m \\/ {S} END END";
        // root, the constants state, 8 states; setup, init, and from each
        // m one merge per set not in it (3 * 4)
        assert_eq!(count(m), (10, 14));
    }
}
