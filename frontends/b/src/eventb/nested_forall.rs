//! Rodin's nested universals with their typing left implicit: `!x.(TRUE
//! => !y.(TRUE => !d.(P => Q)))` (Vizing_Breitner's colourings) is
//! `!x,y,d.(P => Q)`, whose antecedent `P` shows the solver (see
//! `solve::typing`) the types of all three identifiers; nested, the
//! outer ones are typed by nothing but a universal. The merge keeps the
//! meaning: `!x.(!y.R)` is `!(x,y).R` when `y` is not `x` (an inner
//! identifier hiding an outer one stays nested).
//!
//! Owns only this rewriting of the translated syntax tree.

use crate::ast::*;

/// Merges into `!ids.(pred)` the universals nested under `TRUE =>`.
pub fn merge_nested(ids: &mut Vec<Sym>, pred: &mut Box<Expr>) {
    loop {
        let ExprKind::Bin(BinOp::Implies, d, inner) = &mut pred.kind else {
            return;
        };
        if !matches!(d.kind, ExprKind::Bool(true)) {
            return;
        }
        let ExprKind::Quant {
            kind: QuantKind::Forall,
            ids: inner_ids,
            pred: inner_pred,
            body: None,
            ..
        } = &mut inner.kind
        else {
            return;
        };
        if inner_ids.iter().any(|i| ids.contains(i)) {
            return;
        }
        ids.append(inner_ids);
        let inner_pred = std::mem::replace(
            inner_pred,
            Box::new(Expr {
                kind: ExprKind::Bool(true),
                pos: pred.pos,
            }),
        );
        *pred = inner_pred;
    }
}
