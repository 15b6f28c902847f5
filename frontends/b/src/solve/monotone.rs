//! Checks antitone in a subset being enumerated: `x <: E` followed by a
//! check `C` in which `x` occurs only as `t : x` under a negative
//! polarity (the antecedent of an implication, a negation), as in
//! ForAllExpansian_Cartesian's `!(x,y).(x:set1 & y:set2 => x|->y : cart)`.
//! Such a `C` holding for `x` holds for every subset of `x`, so an
//! element `e` for which `C` fails at `x = {e}` is in no admitted subset:
//! `E`'s elements are pruned one by one (52 checks instead of 2^52
//! subsets).
//!
//! The same holds of `t : dom(x)` and `t : ran(x)`, and of a relation
//! `x : A <-> B` (ForAllExpansion's `r : ID <-> ID`, 2^25 relations) as
//! of a subset of `A * B`.
//!
//! Owns the polarity test and the singleton checks; `subsets` asks it
//! among its leading checks and keeps the order of the full enumeration.
//! A singleton whose check fails with an error prunes nothing.

use super::plan::idents;
use crate::ast::*;
use crate::eval::Env;
use crate::value::Value;

/// The elements of `set` in no subset `x` admitted by `c`, when `c` is
/// antitone in `x`: `None` when it is not; `Some(None)` when a check at a
/// singleton fails with an error.
pub(super) fn excluded(
    c: &Expr,
    x: Sym,
    set: &[Value],
    env: &mut Env,
) -> Option<Option<Vec<Value>>> {
    if !mentions(c, x) || !antitone(c, x, true) {
        return None;
    }
    let mut out = Vec::new();
    for e in set {
        env.locals.push((x, Value::set_sorted(vec![e.clone()])));
        let r = env.holds(c);
        env.locals.pop();
        match r {
            Ok(true) => {}
            Ok(false) => out.push(e.clone()),
            Err(_) => return Some(None),
        }
    }
    Some(Some(out))
}

/// Whether every occurrence of `x` in the predicate `p`, itself of
/// polarity `positive`, is a membership `t : x` that makes `p` weaker as
/// `x` grows (`t : x` negative, `t /: x` positive, `t` without `x`).
fn antitone(p: &Expr, x: Sym, positive: bool) -> bool {
    match &p.kind {
        ExprKind::Bin(BinOp::And | BinOp::Or, a, b) => {
            antitone(a, x, positive) && antitone(b, x, positive)
        }
        ExprKind::Bin(BinOp::Implies, a, b) => {
            antitone(a, x, !positive) && antitone(b, x, positive)
        }
        ExprKind::Call(Builtin::Not, a) if a.len() == 1 => antitone(&a[0], x, !positive),
        ExprKind::Quant {
            kind: QuantKind::Forall | QuantKind::Exists,
            ids,
            pred,
            body: None,
            ..
        } => ids.contains(&x) || antitone(pred, x, positive),
        ExprKind::Bin(BinOp::In, t, s) if grows_with(s, x) => !positive && !mentions(t, x),
        ExprKind::Bin(BinOp::NotIn, t, s) if grows_with(s, x) => positive && !mentions(t, x),
        _ => !mentions(p, x),
    }
}

/// Whether the set `s` is `x`, `dom(x)` or `ran(x)` (growing with `x`).
fn grows_with(s: &Expr, x: Sym) -> bool {
    match &s.kind {
        ExprKind::Ident(y) => *y == x,
        ExprKind::Call(Builtin::Dom | Builtin::Ran, a) => {
            matches!(a.as_slice(), [r] if matches!(r.kind, ExprKind::Ident(y) if y == x))
        }
        _ => false,
    }
}

/// Whether the check `c` is antitone in `r` (see [`excluded`]): the
/// subset pruning then drops elements one by one (`carrier_relations`
/// asks it for relation spaces of any size).
pub(super) fn antitone_in(c: &Expr, r: Sym) -> bool {
    mentions(c, r) && antitone(c, r, true)
}

/// Whether `e` mentions `x` (bound occurrences included: conservative).
fn mentions(e: &Expr, x: Sym) -> bool {
    let mut v = Vec::new();
    idents(e, &mut v);
    v.contains(&x)
}
