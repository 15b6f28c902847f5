//! A universal quantifier `!xs.(P => Q)` over integers with an infinite
//! domain (`s1 : INTEGER`, `x : NATURAL`), which the quantifier's plan
//! would have to clip (unsupported: ProB keeps a quantifier symbolic and
//! looks for a counterexample, a solution of `P & not(Q)`, by constraint
//! propagation). Decided exactly, in two ways:
//!
//! 1. over the counterexamples' necessary conditions: conjuncts `G` that
//!    `not(Q)` implies, read from `Q`'s shape (`Q = (A => R) or S` is
//!    false only where `A` holds: ComplexGuards' `!s1.(s1 : INTEGER =>
//!    (s1 : 1..mx => s mod s1 = 0) or ..)`), are added to `P`, and `Q`
//!    is checked for every solution of `P & G`: every counterexample is
//!    one of them, so the answer is the universal's own, found by
//!    enumeration when `P & G` has a finite plan;
//! 2. failing that, by interval arithmetic (see `range_interval`): `Q`
//!    holds for every value of the box `P` gives (`!x.(x : NATURAL => 2 *
//!    ((x * x) / 2) : NATURAL)`, Abrial's hybrid train): true.
//!
//! Either answer is the mathematical truth of the universal, which is
//! ProB's wherever ProB's count is complete (it reports an enumeration
//! warning instead of a guess). Anything else (no finite plan, a failure
//! while checking, no proof) keeps the original failure.
//!
//! Owns the retry and the shapes of `G`; must not clip anything.

use super::{conjuncts, plan, range_interval, solve};
use crate::ast::*;
use crate::eval::{Env, Fail};

/// Whether `f` is the failure this module retries: an integer with an
/// infinite domain outside a guard (see `bounds`).
pub fn unbounded(f: &Fail) -> bool {
    matches!(f, Fail::Unsupported(m, _) if m.starts_with("enumerating an integer with an infinite domain"))
}

/// `!ids.(dom => body)` decided exactly, or `None` (see the module's doc).
pub fn decide(ids: &[Sym], dom: &Expr, body: &Expr, env: &mut Env) -> Option<bool> {
    let mut guards = Vec::new();
    false_only_where(body, &mut guards);
    if !guards.is_empty() {
        if let Some(all) = over_counterexamples(ids, dom, guards, body, env) {
            return Some(all);
        }
    }
    range_interval::proves(ids, dom, body, env).then_some(true)
}

/// Whether `body` holds for every solution of `dom & guards`; `None` when
/// that has no plan or a check fails.
fn over_counterexamples(
    ids: &[Sym],
    dom: &Expr,
    guards: Vec<Expr>,
    body: &Expr,
    env: &mut Env,
) -> Option<bool> {
    let ext = guards.into_iter().fold(dom.clone(), |acc, g| Expr {
        pos: acc.pos,
        kind: ExprKind::Bin(BinOp::And, Box::new(acc), Box::new(g)),
    });
    let p = plan(ids, &ext, &env.w.syms).ok()?;
    let mut all = true;
    let r = solve(ids, &ext, &p, env, false, &mut |env| {
        if !env.holds(body)? {
            all = false;
        }
        Ok(all)
    });
    r.ok().map(|_| all)
}

/// Pushes onto `out` conjuncts that hold wherever `q` is false.
fn false_only_where(q: &Expr, out: &mut Vec<Expr>) {
    use BinOp::*;
    let negated = |op: BinOp| match op {
        NotIn => Some(In),
        Neq => Some(Eq),
        Lt => Some(Ge),
        Le => Some(Gt),
        Gt => Some(Le),
        Ge => Some(Lt),
        _ => None,
    };
    match &q.kind {
        ExprKind::Bin(Or, a, b) => {
            false_only_where(a, out);
            false_only_where(b, out);
        }
        ExprKind::Bin(Implies, a, r) => {
            out.extend(conjuncts(a).into_iter().cloned());
            false_only_where(r, out);
        }
        ExprKind::Call(Builtin::Not, a) => out.extend(conjuncts(&a[0]).into_iter().cloned()),
        ExprKind::Bin(op, a, b) => {
            if let Some(n) = negated(*op) {
                out.push(Expr {
                    kind: ExprKind::Bin(n, a.clone(), b.clone()),
                    pos: q.pos,
                });
            }
        }
        _ => {}
    }
}
