//! How ProB reads `card(S) = e` in the PROPERTIES when `e` is not an
//! integer literal. ProB fixes a deferred set's size before it solves the
//! PROPERTIES (its documentation, "Deferred Sets": `card(S) = constant`
//! sets it; without a size the DEFAULT_SETSIZE preference applies), from
//! what it can evaluate of `e` then:
//!
//! - `e` evaluates from literals, MAXINT/MININT and constants equated to
//!   such values by other conjuncts (`N = 4 & card(Agents) = N`): `S` gets
//!   that size. ProB's counts: SubsetMC's `card(A) = MAXINT` (9 states,
//!   14 transitions: 2^3 subsets and a SETUP_CONSTANTS step), and the
//!   ExtremaFinding models, where ProB reaches a well-definedness error
//!   that needs `card(Agents) = 4` (with 2 elements PROPERTIES would have
//!   no solution and ProB no state).
//! - `e` names constants that no conjunct equates to anything (`n :
//!   NATURAL1 & card(BUSES) = n`, MIO_ref3..6; `card(NODES) = n & n > 1`,
//!   OLSR's M0 and M1: 230 states, 366 transitions): nothing to evaluate,
//!   `S` keeps the size of the other rules and the conjunct is solved as
//!   any other.
//! - anything else (`card(Forks) = card(Phil)`) stays refused.
//!
//! A lower bound `card(S) > k` (or `>=`) with `k` a literal that the
//! default size does not meet makes `S` the least size that meets it
//! (AbrialAccessControl's `card(L) > 2`: 3 elements, ctx1_ctx_corrected
//! 280 states and mac1 936 states, 2,312 transitions).
//!
//! Owns that reading; the size rules themselves are `setsize`'s.

use crate::ast::*;

/// What ProB evaluates of `e` before solving the PROPERTIES.
#[derive(Debug, PartialEq, Eq)]
pub enum Before {
    /// the value: the deferred set's size
    Known(i64),
    /// constants no conjunct equates to anything: the size stays
    Unknown,
    /// not modelled
    Other,
}

/// The integer settings `e` may name.
pub struct Bounds {
    pub maxint: i64,
    pub minint: i64,
}

/// What ProB makes of `card(S) = e` (see the module comment).
pub fn card_before_solving(e: &Expr, consts: &[Sym], conjuncts: &[&Expr], b: &Bounds) -> Before {
    if let Some(v) = evaluate(e, conjuncts, b, 0) {
        return Before::Known(v);
    }
    if unknown_before_solving(e, consts, conjuncts) {
        return Before::Unknown;
    }
    Before::Other
}

/// The value of `e` from literals, MAXINT/MININT, `+`, `-`, `*` and
/// constants that a conjunct `x = e'` equates to such a value.
fn evaluate(e: &Expr, conjuncts: &[&Expr], b: &Bounds, depth: u32) -> Option<i64> {
    if depth > 8 {
        return None;
    }
    let eval = |x: &Expr| evaluate(x, conjuncts, b, depth + 1);
    match &e.kind {
        ExprKind::Int(n) => Some(*n),
        ExprKind::Named(NamedSet::MaxInt) => Some(b.maxint),
        ExprKind::Named(NamedSet::MinInt) => Some(b.minint),
        ExprKind::Neg(a) => eval(a)?.checked_neg(),
        ExprKind::Bin(op @ (BinOp::Plus | BinOp::Minus | BinOp::Mul), x, y) => {
            let (x, y) = (eval(x)?, eval(y)?);
            match op {
                BinOp::Plus => x.checked_add(y),
                BinOp::Minus => x.checked_sub(y),
                _ => x.checked_mul(y),
            }
        }
        ExprKind::Ident(x) => conjuncts.iter().find_map(|c| match &c.kind {
            ExprKind::Bin(BinOp::Eq, l, r) => [(l, r), (r, l)].iter().find_map(|(p, q)| {
                matches!(p.kind, ExprKind::Ident(y) if y == *x)
                    .then(|| eval(q))
                    .flatten()
            }),
            _ => None,
        }),
        _ => None,
    }
}

/// Whether `card(S) = e` leaves `S`'s size unchanged: `e` is built from
/// integer literals, arithmetic and constants (`consts`) that no conjunct
/// of `conjuncts` other than a `card(..) = ..` equates to anything.
fn unknown_before_solving(e: &Expr, consts: &[Sym], conjuncts: &[&Expr]) -> bool {
    let mut ids = Vec::new();
    if !arithmetic(e, &mut ids) || ids.is_empty() {
        return false;
    }
    ids.iter()
        .all(|&x| consts.contains(&x) && conjuncts.iter().all(|c| !equates(c, x)))
}

/// Whether `e` is integer arithmetic over literals and identifiers,
/// collecting the identifiers into `ids`.
fn arithmetic(e: &Expr, ids: &mut Vec<Sym>) -> bool {
    match &e.kind {
        ExprKind::Ident(x) => {
            ids.push(*x);
            true
        }
        ExprKind::Int(_) => true,
        ExprKind::Neg(a) => arithmetic(a, ids),
        ExprKind::Bin(BinOp::Plus | BinOp::Minus | BinOp::Mul, a, b) => {
            arithmetic(a, ids) && arithmetic(b, ids)
        }
        _ => false,
    }
}

/// Whether `c` is `x = E` or `E = x` with `E` other than a cardinality
/// (`card(T) = x` is the very conjunct this module reads).
fn equates(c: &Expr, x: Sym) -> bool {
    let ExprKind::Bin(BinOp::Eq, a, b) = &c.kind else {
        return false;
    };
    let is_x = |e: &Expr| matches!(e.kind, ExprKind::Ident(y) if y == x);
    let is_card = |e: &Expr| matches!(e.kind, ExprKind::Call(Builtin::Card, _));
    (is_x(a) && !is_card(b)) || (is_x(b) && !is_card(a))
}

/// The least size of `S` that the conjunct `c` allows when it is
/// `card(S) > k` or `card(S) >= k` (either way round), `k` a literal.
pub fn lower_bound(c: &Expr, s: Sym) -> Option<i64> {
    let ExprKind::Bin(op, a, b) = &c.kind else {
        return None;
    };
    let card_s = |e: &Expr| matches!(&e.kind, ExprKind::Call(Builtin::Card, x) if matches!(x[0].kind, ExprKind::Ident(y) if y == s));
    let lit = |e: &Expr| match e.kind {
        ExprKind::Int(k) => Some(k),
        _ => None,
    };
    match op {
        BinOp::Gt if card_s(a) => lit(b)?.checked_add(1),
        BinOp::Ge if card_s(a) => lit(b),
        BinOp::Lt if card_s(b) => lit(a)?.checked_add(1),
        BinOp::Le if card_s(b) => lit(a),
        _ => None,
    }
}
