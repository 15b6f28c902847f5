//! Definitions that do not stop an integer from being clipped (see
//! `bounds`): a conjunct `y = E` (or `E = y`) with `E` mentioning `x` and
//! `y` an identifier of the binder not yet bound that no other open
//! conjunct mentions (`x' = x0'` in Rodin's `x, x0 :| x' : NATURAL1 & x'
//! = x0'`). Whatever `x` is, `y` takes `E`'s value and nothing else
//! constrains it, so the conjunct gives ProB's solver no bound on `x`:
//! `x` ranges over its clipped range as if the conjunct were not there,
//! and `y` follows from it.
//!
//! Owns that shape test.

use super::plan::idents;
use crate::ast::*;

/// The binder's identifiers, which of them are bound, and its conjuncts
/// with those already checked.
pub(super) struct Open<'a> {
    pub ids: &'a [Sym],
    pub bound: &'a [bool],
    pub cs: &'a [&'a Expr],
    pub checked: &'a [bool],
}

/// Whether conjunct `c` (not yet checked) is `y = E` or `E = y` with `E`
/// mentioning `x` and `y` an unbound identifier of the binder mentioned
/// by no other open conjunct.
pub(super) fn defines_unused(c: &Expr, x: Sym, open: &Open) -> bool {
    let ExprKind::Bin(BinOp::Eq, a, b) = &c.kind else {
        return false;
    };
    let defined = |side: &Expr, def: &Expr| {
        let ExprKind::Ident(y) = side.kind else {
            return false;
        };
        let unbound = open
            .ids
            .iter()
            .position(|&i| i == y)
            .is_some_and(|k| !open.bound[k]);
        y != x && unbound && mentions(def, x) && !mentions(def, y) && unused(y, c, open)
    };
    defined(a, b) || defined(b, a)
}

/// Whether no open conjunct other than `c` mentions `y`.
fn unused(y: Sym, c: &Expr, open: &Open) -> bool {
    open.cs
        .iter()
        .zip(open.checked)
        .all(|(e, &done)| done || std::ptr::eq(*e, c) || !mentions(e, y))
}

fn mentions(e: &Expr, y: Sym) -> bool {
    let mut v = Vec::new();
    idents(e, &mut v);
    v.contains(&y)
}

#[cfg(test)]
mod tests {
    //! Unused definitions beside a clipped integer, counted by hand with
    //! `MAXINT = 3`.
    use crate::tests::count;

    #[test]
    fn an_unused_definition_leaves_the_integer_clipped() {
        // mx in 0..3, ds = 0..mx, x0 = mx + 1: 4 constant solutions
        let m = "MACHINE D CONSTANTS mx, ds, x0
                 PROPERTIES mx : NATURAL & ds = 0..mx & x0 = mx + 1
                 VARIABLES v INVARIANT v : INTEGER INITIALISATION v := 0 END";
        assert_eq!(count(m), (9, 8));
    }

    #[test]
    fn a_used_definition_stops_the_clipping() {
        // 5 : ds bounds mx from below through ds: left unsupported
        let m = "MACHINE E CONSTANTS mx, ds
                 PROPERTIES mx : NATURAL & ds = 0..mx & 5 : ds
                 VARIABLES v INVARIANT v : INTEGER INITIALISATION v := 0 END";
        let e = crate::tests::first_error(m).expect("undecided");
        assert!(e.contains("cannot enumerate"), "{e}");
    }
}
