//! Typing conjuncts of a constant function kept symbolic: `D = (S *
//! NAT) * {0}`, `E = %x.(x : NAT * NAT | s)` or Event-B's
//! `E = {x . x : NAT * NAT | x |-> s}` (Kanso_Symbolic), typed by
//! `D : S * NAT --> NAT` and `E : NAT * NAT --> S`. The function maps
//! every element of its domain `A` to the one value `e`, so it belongs to
//! `A --> B` (or `A +-> B`) exactly when `A` is empty or `e : B`; with `A`
//! infinite by its syntax (so not empty), the conjunct is `e : B`,
//! decided without building the function.
//!
//! Owns the recognition of such definitions and the rewritten conjunct;
//! `symbolic::take_definitions` calls it on the typing conjuncts of its
//! definitions.

use crate::ast::*;
use crate::symbolic::mentions;

/// The domain `A` and the value `e` of the constant function `d`
/// defines: `A * {e}`, `%x.(x : A | e)` or `UNION(x).(x : A | {x |-> e})`
/// (Event-B's comprehension), `e` and `A` not mentioning `x`.
fn constant_function(d: &Expr) -> Option<(&Expr, &Expr)> {
    match &d.kind {
        ExprKind::Bin(BinOp::Mul, a, b) => match &b.kind {
            ExprKind::SetExt(xs) if xs.len() == 1 => Some((a, &xs[0])),
            _ => None,
        },
        ExprKind::Quant {
            kind: QuantKind::Lambda,
            ids,
            pred,
            body: Some(e),
            ..
        } if ids.len() == 1 => over(ids[0], pred, e),
        ExprKind::Quant {
            kind: QuantKind::Union,
            ids,
            pred,
            body: Some(b),
            ..
        } if ids.len() == 1 => match &b.kind {
            ExprKind::SetExt(xs) if xs.len() == 1 => match &xs[0].kind {
                ExprKind::Bin(BinOp::Maplet, y, e) if is(y, ids[0]) => over(ids[0], pred, e),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    }
}

/// `A` and `e` when `pred` is `x : A`, neither `A` nor `e` mentioning `x`.
fn over<'a>(x: Sym, pred: &'a Expr, e: &'a Expr) -> Option<(&'a Expr, &'a Expr)> {
    match &pred.kind {
        ExprKind::Bin(BinOp::In, y, a) if is(y, x) && !mentions(a, x) && !mentions(e, x) => {
            Some((a, e))
        }
        _ => None,
    }
}

fn is(e: &Expr, x: Sym) -> bool {
    matches!(e.kind, ExprKind::Ident(y) if y == x)
}

/// Set expressions compared (`same`) and whole B types (`is_type`, never
/// empty).
pub(crate) struct Sets<'a> {
    pub same: &'a dyn Fn(&Expr, &Expr) -> bool,
    pub is_type: &'a dyn Fn(&Expr) -> bool,
}

/// The conjunct `e : B` standing for `c : S`, `c` defined by `d`, when
/// `d` is a constant function over an infinite `A` and `S` is `A --> B`
/// or `A +-> B`.
pub(crate) fn typing(d: &Expr, s: &Expr, sets: &Sets) -> Option<Expr> {
    let (a, e) = constant_function(d)?;
    let ExprKind::Bin(BinOp::Space(SpaceKind::Total | SpaceKind::Partial), dom, ran) = &s.kind
    else {
        return None;
    };
    if !(sets.same)(a, dom) || !infinite(a, sets) {
        return None;
    }
    Some(Expr {
        kind: ExprKind::Bin(BinOp::In, Box::new(e.clone()), ran.clone()),
        pos: s.pos,
    })
}

/// Whether `a` is infinite (so not empty) by its syntax: an infinite
/// integer set or `STRING`, or a product of such a set and a set not empty.
fn infinite(a: &Expr, sets: &Sets) -> bool {
    match &a.kind {
        ExprKind::Named(
            NamedSet::Natural | NamedSet::Natural1 | NamedSet::Integer | NamedSet::String,
        ) => true,
        ExprKind::Bin(BinOp::Mul, x, y) => {
            (infinite(x, sets) && not_empty(y, sets)) || (not_empty(x, sets) && infinite(y, sets))
        }
        _ => false,
    }
}

/// Whether `a` is not empty by its syntax.
fn not_empty(a: &Expr, sets: &Sets) -> bool {
    match &a.kind {
        ExprKind::SetExt(xs) => !xs.is_empty(),
        ExprKind::Bin(BinOp::Mul, x, y) => not_empty(x, sets) && not_empty(y, sets),
        _ => infinite(a, sets) || (sets.is_type)(a),
    }
}

#[cfg(test)]
mod tests {
    use crate::tests::count;

    #[test]
    fn typing_of_constant_functions() {
        // E = NATURAL * {k} : NATURAL --> 1..2 and D = %x.(x : NATURAL |
        // k - 1) : NATURAL +-> {0, 2} hold for k = 1 only of k : 0..3
        // (k - 1 : {0, 2} leaves k = 1, 3; k : 1..2 leaves 1); n := E(5) + D(7)
        // = 1. States: root, constants, n = 1; transitions: setup, init
        let m = "MACHINE C CONSTANTS k, E, D
                 PROPERTIES k : 0..3 & E = NATURAL * {k} & E : NATURAL --> 1..2 &
                   D = %x.(x : NATURAL | k - 1) & D : NATURAL +-> {0, 2}
                 VARIABLES n INVARIANT n : NATURAL INITIALISATION n := E(5) + D(7) END";
        assert_eq!(count(m), (3, 2));
    }

    #[test]
    fn typing_with_another_domain_is_kept() {
        // E : NATURAL1 --> {k} is not rewritten (domains differ): deciding
        // it needs E's value, infinite: unsupported, not a count
        let m = "MACHINE C CONSTANTS k, E
                 PROPERTIES k : 0..1 & E = NATURAL * {k} & E : NATURAL1 --> {k}
                 VARIABLES n INVARIANT n : NATURAL INITIALISATION n := E(5) END";
        let e = crate::tests::first_error(m).expect("unsupported");
        assert!(e.contains("infinite"), "{e}");
    }
}
