//! A bijection over a deferred set whose constant an explicit equation of
//! the PROPERTIES gives: Abrial's train_4 contexts say
//! `SIG : ran(fst) >->> S` and, with `partition(S, {S1}, .., {S5})`,
//! `SIG = {A |-> S1, H |-> S2, ..}`. Its value is then a function of the
//! constants of the extension, so the bijection only checks them and
//! leaves no choice of its own for ProB's symmetry breaking to fix: the
//! solutions are reduced as those constants are (`symmetry`), and
//! `compile` does not refuse the bijection as one whose reduction is not
//! modelled (`deferred_unique`). Refused as before, the full search over
//! `nxt : ROUTES --> (BLOCKS >+> BLOCKS)` (planned before the partitions'
//! constants without the reduction) ended beyond the search's bounds.
//! Checked against ProB on train_4_mch: one constants solution, 627,778
//! states and 3,639,062 transitions, as train_1_prob_mch (the same
//! constants but `SIG`).
//!
//! Owns that exception; the refusal itself is `compile`'s.

use crate::ast::*;

/// Whether `c` is `x : A >->> B` (or `>+>>`) with `x` a constant that a
/// top-level conjunct of `all` equates to a non-empty set extension of
/// constants other than `x` (and literals).
pub fn given(c: &Expr, all: &[&Expr], consts: &[Sym]) -> bool {
    let ExprKind::Bin(BinOp::In, x, space) = &c.kind else {
        return false;
    };
    let (ExprKind::Ident(x), ExprKind::Bin(BinOp::Space(k), ..)) = (&x.kind, &space.kind) else {
        return false;
    };
    matches!(k, SpaceKind::TotalBij | SpaceKind::PartialBij)
        && consts.contains(x)
        && all.iter().any(|e| extension_of(e, *x, consts))
}

/// Whether `e` is `x = {..}` (or `{..} = x`), the extension non-empty and
/// naming constants other than `x` only.
fn extension_of(e: &Expr, x: Sym, consts: &[Sym]) -> bool {
    let ExprKind::Bin(BinOp::Eq, a, b) = &e.kind else {
        return false;
    };
    let ext = match (&a.kind, &b.kind) {
        (ExprKind::Ident(s), _) if *s == x => b,
        (_, ExprKind::Ident(s)) if *s == x => a,
        _ => return false,
    };
    let ExprKind::SetExt(items) = &ext.kind else {
        return false;
    };
    let mut ids = Vec::new();
    super::idents(ext, &mut ids);
    !items.is_empty() && ids.iter().all(|s| *s != x && consts.contains(s))
}

#[cfg(test)]
mod tests {
    use crate::tests::count;

    #[test]
    fn a_bijection_given_by_an_extension_of_symmetric_constants_is_checked_only() {
        // a, b: the 2 elements of S in one of 2 orders, reduced to one
        // (a = S1, b = S2); g is then fixed by its extension and only
        // checked by the bijection (which names a and b, so the bijection
        // module does not fix it). States: root, constants, v = b (the
        // initialisation), v = a; edges: setup, init, go from each v
        let m = "MACHINE T SETS S CONSTANTS a, b, g
             PROPERTIES a : S & b : S & a /= b & g : {a, b} * {0} >->> S &
               g = {(a |-> 0) |-> b, (b |-> 0) |-> a}
             VARIABLES v INVARIANT v : S INITIALISATION v := g(a |-> 0)
             OPERATIONS go = v := g(v |-> 0) END";
        assert_eq!(count(m), (4, 4));
    }
}
