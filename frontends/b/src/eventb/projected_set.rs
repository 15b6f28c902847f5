//! Event-B's `{x, n . P | x}`: a comprehension whose expression is one of
//! its bound identifiers (the theory's `seq(a) = {f, n . n : NAT & f :
//! 1..n --> a | f}`) is the set `{x | P1 & #n.(P2)}`, `P1` the conjuncts
//! of `P` without the other identifiers and `P2` the others: the same
//! set, whose membership test `y : S` is `P1 & #n.(P2)` for `x = y`,
//! where `UNION(x, n).(P | {x})` would enumerate `x` and `n` first (over
//! an infinite `NAT` there).
//!
//! Owns only this rewriting of the syntax tree; it must not evaluate.

use crate::ast::*;

use super::expr::{conj, mk};

/// `{x | P1 & #others.(P2)}` when `body` is the bound identifier `x`, one
/// of several `ids`.
pub fn projected(ids: &[Sym], body: &Expr, pred: Box<Expr>, pos: Pos) -> Result<Expr, Box<Expr>> {
    let ExprKind::Ident(x) = body.kind else {
        return Err(pred);
    };
    if ids.len() < 2 || !ids.contains(&x) {
        return Err(pred);
    }
    let others: Vec<Sym> = ids.iter().copied().filter(|&s| s != x).collect();
    let mut cs = Vec::new();
    split_conjuncts(*pred, &mut cs);
    let (outer, inner): (Vec<Expr>, Vec<Expr>) =
        cs.into_iter().partition(|c| !mentions_any(c, &others));
    let mut outer = outer;
    if !inner.is_empty() {
        outer.push(mk(
            ExprKind::Quant {
                kind: QuantKind::Exists,
                ids: others,
                pred: Box::new(conj(inner, pos)),
                body: None,
                plan: Default::default(),
            },
            pos,
        ));
    }
    Ok(mk(
        ExprKind::Quant {
            kind: QuantKind::Comprehension,
            ids: vec![x],
            pred: Box::new(conj(outer, pos)),
            body: None,
            plan: Default::default(),
        },
        pos,
    ))
}

fn split_conjuncts(p: Expr, out: &mut Vec<Expr>) {
    match p.kind {
        ExprKind::Bin(BinOp::And, a, b) => {
            split_conjuncts(*a, out);
            split_conjuncts(*b, out);
        }
        _ => out.push(p),
    }
}

fn mentions_any(e: &Expr, ids: &[Sym]) -> bool {
    let mut v = Vec::new();
    crate::solve::idents(e, &mut v);
    v.iter().any(|s| ids.contains(s))
}
