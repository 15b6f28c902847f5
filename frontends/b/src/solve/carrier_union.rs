//! Candidates of `x` in `U = E` with `U` a union `a \/ x \/ ..`
//! (`Gen::UnionPart`), narrowed as ProB's propagation narrows them: every
//! element of `E` outside the other operands must be in `x`, so when they
//! are all known only the elements of `E` they cover are free; and a
//! conjunct `x /\ A = {}` (either way round) takes `A`'s elements out of
//! those (TestPartition2's `a \/ b = S & a /\ b = {} & b = ..` over an
//! 81-element `S`: one candidate, `S - b`).
//!
//! Every solution is among the candidates (`x` is a subset of `E` holding
//! `E` minus the others, disjoint from each `A`), and the generating
//! conjunct stays a check. The checks are read in order, up to the first
//! that is neither such a shape nor free of well-definedness errors (see
//! `carrier_wdfree`), so a candidate left out would have been rejected
//! without any error being met. An operand mentioning an identifier not
//! yet bound leaves every element of `E` free.
//!
//! Owns that narrowing; the plan's choice of the generator is `shapes`'.

use super::plan::operands;
use super::subsets::disjoint_from;
use crate::ast::*;
use crate::eval::{Env, Fail, E};
use crate::value::{self as v, Value};

/// The candidates of `x` for `union = set` (`union` having `x` among its
/// operands), `unbound` the binder's identifiers not yet bound (`x` among
/// them), pruned by the conjuncts `checks`; `generator` is the
/// conjunct `union = set` itself.
pub fn candidates(
    x: Sym,
    (union, set): (&Expr, &Expr),
    unbound: &[Sym],
    (generator, checks): (&Expr, &[&Expr]),
    env: &mut Env,
) -> E<Vec<Value>> {
    let s = env.elements(set)?;
    let mut required: Vec<Value> = Vec::new();
    let mut free = s.clone();
    for c in checks {
        if std::ptr::eq(*c, generator) {
            if let Some(covered) = others(x, union, unbound, env) {
                required = elems(v::diff(&s, &covered));
                free = elems(v::inter(&free, &covered));
            }
        } else if let Some(a) = disjoint(c, x, unbound) {
            let Ok(Value::Set(a)) = env.eval(a) else {
                break;
            };
            free = elems(v::diff(&free, &a));
        } else if !super::carrier_wdfree::wd_free(c) {
            break;
        }
    }
    let parts = v::subsets(&free, 24).map_err(|m| Fail::Unsupported(m, set.pos))?;
    Ok(parts
        .into_iter()
        .map(|p| v::union(&required, p.as_set().unwrap_or_default()))
        .collect())
}

/// The union of the operands of `union` other than `x`, when each
/// mentions no identifier of `unbound` and evaluates to a set.
fn others(x: Sym, union: &Expr, unbound: &[Sym], env: &mut Env) -> Option<Vec<Value>> {
    let mut ops = Vec::new();
    operands(union, BinOp::Union, &mut ops);
    let mut covered: Vec<Value> = Vec::new();
    let mut seen_x = false;
    for o in ops {
        if matches!(o.kind, ExprKind::Ident(s) if s == x) && !seen_x {
            seen_x = true;
            continue;
        }
        if mentions_any(o, unbound) {
            return None;
        }
        let Ok(Value::Set(vals)) = env.eval(o) else {
            return None;
        };
        covered = elems(v::union(&covered, &vals));
    }
    seen_x.then_some(covered)
}

/// `A` when `c` is `x /\ A = {}` or `A /\ x = {}` (either way round) with
/// `A` mentioning no identifier of `unbound`.
fn disjoint<'a>(c: &'a Expr, x: Sym, unbound: &[Sym]) -> Option<&'a Expr> {
    let ExprKind::Bin(BinOp::Eq, l, r) = &c.kind else {
        return None;
    };
    let a = disjoint_from(l, r, x).or_else(|| disjoint_from(r, l, x))?;
    (!mentions_any(a, unbound)).then_some(a)
}

fn mentions_any(e: &Expr, ids: &[Sym]) -> bool {
    !super::plan::mentions(e, ids).is_empty()
}

/// The elements of a set value.
fn elems(s: Value) -> Vec<Value> {
    match s {
        Value::Set(s) => s.to_vec(),
        _ => Vec::new(),
    }
}
