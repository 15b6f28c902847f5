//! ProB's optimising predicates `MINIMIZE_EXPR(e)` / `MAXIMIZE_EXPR(e)`
//! (`LibraryProB.def`) as conjuncts of the PROPERTIES: ProB keeps exactly
//! those solutions of the other conjuncts whose integer `e` is least
//! (greatest). DominatingSet keeps the 5 connected dominating sets of
//! the least size, DominatingSet_BV the 47 dominating sets of size 4.
//! This module takes them out of the PROPERTIES and filters the
//! solutions; the solving itself stays in `model`. Elsewhere (a guard,
//! a nested predicate, two of them) they are unsupported.

use crate::ast::{BinOp, Builtin, Expr, ExprKind, External};
use crate::eval::{Fail, E};
use crate::value::Value;

/// Which end of the objective's values ProB keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sense {
    /// `MINIMIZE_EXPR`: the least.
    Minimize,
    /// `MAXIMIZE_EXPR`: the greatest.
    Maximize,
}

/// The integer expression over the constants to optimise.
#[derive(Clone, Debug)]
pub(crate) struct Objective {
    pub sense: Sense,
    pub expr: Expr,
}

/// PROPERTIES `props` without their optimising conjuncts, and the
/// objective they give (an error for more than one).
pub(crate) fn split(props: Option<Expr>) -> (Option<Expr>, E<Option<Objective>>) {
    let p = match props {
        Some(p) if has_objective(&p) => p,
        other => return (other, Ok(None)),
    };
    let pos = p.pos;
    let mut rest = Vec::new();
    let mut found = Vec::new();
    take_conjuncts(p, &mut rest, &mut found);
    let objective = match found.len() {
        0 | 1 => Ok(found.pop()),
        _ => Err(Fail::Unsupported(
            "more than one MINIMIZE_EXPR/MAXIMIZE_EXPR in the PROPERTIES".into(),
            pos,
        )),
    };
    let rest = rest.into_iter().reduce(|a, b| {
        let pos = a.pos;
        Expr {
            kind: ExprKind::Bin(BinOp::And, Box::new(a), Box::new(b)),
            pos,
        }
    });
    let truth = Expr {
        kind: ExprKind::Bool(true),
        pos,
    };
    (Some(rest.unwrap_or(truth)), objective)
}

/// Whether a conjunct of `e` is an optimising call (`e` is then rebuilt).
fn has_objective(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Bin(BinOp::And, a, b) => has_objective(a) || has_objective(b),
        ExprKind::Call(Builtin::External(External::Optimize(_)), _) => true,
        _ => false,
    }
}

/// Sorts the conjuncts of `e` into the optimising calls and the rest.
fn take_conjuncts(e: Expr, rest: &mut Vec<Expr>, found: &mut Vec<Objective>) {
    match e.kind {
        ExprKind::Bin(BinOp::And, a, b) => {
            take_conjuncts(*a, rest, found);
            take_conjuncts(*b, rest, found);
        }
        ExprKind::Call(Builtin::External(External::Optimize(sense)), mut args)
            if args.len() == 1 =>
        {
            let expr = args.pop().expect("one argument");
            found.push(Objective { sense, expr });
        }
        kind => rest.push(Expr { kind, pos: e.pos }),
    }
}

/// The call evaluated anywhere but as a conjunct of the PROPERTIES.
pub(crate) fn misplaced(sense: Sense, pos: crate::ast::Pos) -> Fail {
    Fail::Unsupported(
        format!("{sense:?} (MINIMIZE_EXPR/MAXIMIZE_EXPR) outside the conjuncts of the PROPERTIES"),
        pos,
    )
}

/// The objective's value in one solution, an integer.
pub(crate) fn score(o: &Objective, v: E<Value>) -> E<i64> {
    match v? {
        Value::Int(i) => Ok(i),
        _ => Err(Fail::Unsupported(
            "MINIMIZE_EXPR/MAXIMIZE_EXPR of a non-integer (ProB's order of it not modelled)".into(),
            o.expr.pos,
        )),
    }
}

/// The solutions `sols` (each with its score) with the best score.
pub(crate) fn keep_best<T>(o: &Objective, sols: Vec<(i64, T)>) -> Vec<T> {
    let best = match o.sense {
        Sense::Minimize => sols.iter().map(|s| s.0).min(),
        Sense::Maximize => sols.iter().map(|s| s.0).max(),
    };
    sols.into_iter()
        .filter(|s| Some(s.0) == best)
        .map(|s| s.1)
        .collect()
}
