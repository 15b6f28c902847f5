//! An integer `x : INTEGER` of a guard's binder (operation parameters,
//! ANY, `:(`) whose other conjuncts are implications `P => x = E` with
//! `P` naming none of the binder's identifiers, decided by the state:
//! ProB's solver, `P` known, either posts `x = E` (`P` holds: the one
//! candidate is `E`'s value) or drops the implication (`P` fails), `x`
//! being then typed only by `INTEGER` and enumerated over `MININT..MAXINT`
//! as `bounds` clips it (ExistsBodyWarningTest's `foo : INTEGER & (xx :
//! {aa} => foo = 1)`).
//!
//! Every conjunct stays a check. Not applied when another conjunct
//! mentions `x` (it might give ProB a finite domain, see `bounds`), when
//! `E` names a binder's identifier, or when `P` or `E` cannot be
//! evaluated.
//!
//! Owns that test and those candidates; must not change what `typing`
//! finds for a type with a finite carrier.

use crate::ast::*;
use crate::eval::{Env, E};
use crate::value::Value;

/// The candidates of `x`, or `None` when the conjuncts `cs` mentioning
/// `x` are not `x : INTEGER` and such implications (at least one each).
pub fn candidates(ids: &[Sym], cs: &[&Expr], x: Sym, env: &mut Env) -> E<Option<Vec<Value>>> {
    let (mut typed, mut implied, mut fixed) = (false, false, None);
    for c in cs.iter().filter(|c| crate::symbolic::mentions(c, x)) {
        if typed_integer(c, x) {
            typed = true;
            continue;
        }
        let Some((p, e)) = implication(c, x) else {
            return Ok(None);
        };
        if mentions_any(p, ids) || mentions_any(e, ids) {
            return Ok(None);
        }
        implied = true;
        let Ok(Value::Bool(holds)) = env.eval(p) else {
            return Ok(None);
        };
        if holds && fixed.is_none() {
            let Ok(v @ Value::Int(_)) = env.eval(e) else {
                return Ok(None);
            };
            fixed = Some(v);
        }
    }
    if !(typed && implied) {
        return Ok(None);
    }
    Ok(Some(match fixed {
        Some(v) => vec![v],
        None => (env.w.minint..=env.w.maxint).map(Value::Int).collect(),
    }))
}

/// Whether `c` is `x : INTEGER`.
fn typed_integer(c: &Expr, x: Sym) -> bool {
    matches!(&c.kind, ExprKind::Bin(BinOp::In, a, b)
        if matches!(a.kind, ExprKind::Ident(s) if s == x)
            && matches!(b.kind, ExprKind::Named(NamedSet::Integer)))
}

/// `(P, E)` when `c` is `P => x = E` (or `E = x`), `P` and `E` not
/// mentioning `x`.
fn implication(c: &Expr, x: Sym) -> Option<(&Expr, &Expr)> {
    let ExprKind::Bin(BinOp::Implies, p, q) = &c.kind else {
        return None;
    };
    let ExprKind::Bin(BinOp::Eq, a, b) = &q.kind else {
        return None;
    };
    let is_x = |e: &Expr| matches!(e.kind, ExprKind::Ident(s) if s == x);
    let e = match (is_x(a), is_x(b)) {
        (true, false) => b,
        (false, true) => a,
        _ => return None,
    };
    let free = !crate::symbolic::mentions(p, x) && !crate::symbolic::mentions(e, x);
    free.then_some((&**p, &**e))
}

fn mentions_any(e: &Expr, ids: &[Sym]) -> bool {
    !super::plan::mentions(e, ids).is_empty()
}
