//! A function applied outside its domain as a side of `=` or `/=` (not
//! `x : {f(y)}`: PROB-362's d3_jpo_cd then counts 17 states, not 2), in a
//! conjunct of a quantified formula's
//! predicate (a comprehension, an `#`, the antecedent of a `!`): ProB
//! solves such a conjunct as the constraint `y |-> x : f` (`y |-> z : f &
//! z /= x`), false where `y` is outside `dom(f)`, so the value is left out
//! of the formula's solutions rather than an error (Guyomard_Queens8_v1's
//! `!(i,j).(1 <= i & i <= 8 & .. & r(i,j) = TRUE => ..)` with `r` over
//! `(1..4) * (1..4)`, SlotToolSolver_Inconsistency's `{d,t,s | .. &
//! day(s) = d & ..}` with `unknown /: dom(day)`). A relation applied where
//! it has several images is not concerned (ProB's constraint then has
//! several solutions), nor is any application under
//! `SET_PREF_TRY_FIND_ABORT`, which makes ProB report these.
//!
//! Not while a function is searched point by point (`fspace`): there an
//! application outside the points chosen so far is "not decided yet",
//! never false ([`Partial`]).
//!
//! Owns only this decision; the guards' own conjuncts (a function applied
//! outside its domain anywhere in them is false) stay in `eval`.

use std::cell::Cell;

use super::plan::Gen;
use crate::ast::*;
use crate::eval::{Env, Fail};

thread_local! {
    static PARTIAL: Cell<usize> = const { Cell::new(0) };
}

/// While alive, functions may be bound to part of their points: no
/// application outside a domain is taken as a false constraint.
pub(super) struct Partial(());

impl Partial {
    pub(super) fn enter() -> Self {
        PARTIAL.with(|p| p.set(p.get() + 1));
        Partial(())
    }
}

/// Whether a function is being searched point by point now.
pub(super) fn partial() -> bool {
    PARTIAL.with(|p| p.get() > 0)
}

impl Drop for Partial {
    fn drop(&mut self) {
        PARTIAL.with(|p| p.set(p.get() - 1));
    }
}

use crate::errors_constraint::OUTSIDE;

/// Whether the failure `f` of the conjunct `c` is an application outside
/// its domain at a side of `c` (`=`, `/=`), which ProB takes as a false
/// constraint.
pub(super) fn false_constraint(c: &Expr, f: &Fail, env: &Env) -> bool {
    let Fail::Wd(m, at) = f else {
        return false;
    };
    if env.w.try_find_abort || m != OUTSIDE || PARTIAL.with(|p| p.get() > 0) {
        return false;
    }
    let apply_at = |e: &Expr| matches!(e.kind, ExprKind::Apply(..)) && e.pos == *at;
    match &c.kind {
        ExprKind::Bin(BinOp::Eq | BinOp::Neq, a, b) => apply_at(a) || apply_at(b),
        _ => false,
    }
}

/// The conjunct of `cs` a generator `x = E` reads, whose `E` failing as
/// [`false_constraint`] says gives no candidate.
pub(super) fn generator<'c>(g: &Gen, cs: &[&'c Expr]) -> Option<&'c Expr> {
    match g {
        Gen::Eq { c, .. } => Some(cs[*c]),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use crate::tests::count;

    /// `m` (ending in `END`) with a variable `x` set to 0.
    fn with_variable(m: &str) -> String {
        let body = m.trim_end().strip_suffix("END").expect("a machine");
        format!("{body} VARIABLES x INITIALISATION x := 0 END")
    }

    /// `!(i,j).(i : 1..3 & j : 1..3 & r(i,j) = TRUE => ..)` over a
    /// function `r` on `(1..2) * (1..2)`: the points outside its domain
    /// are not among the antecedent's solutions. The solutions of the
    /// PROPERTIES, by hand: `r` has at most one TRUE per row (4 choices
    /// of `(r(1,1), r(1,2))` less the one with two TRUE: 3, squared: 9).
    #[test]
    fn applications_outside_the_domain_leave_a_forall_antecedent() {
        let m = "MACHINE Q CONSTANTS r PROPERTIES r : (1..2) * (1..2) --> BOOL &
                 !(i,j).(i : 1..3 & j : 1..3 & r(i,j) = TRUE =>
                   not(#k.(k : 1..2 & k /= j & r(i,k) = TRUE)))
                 END";
        // the root, one state per solution, one initialised state each
        assert_eq!(count(&with_variable(m)).0, 1 + 9 + 9);
    }

    /// `{s | s : 1..3 & f(s) = 5}` with `f = {1 |-> 5, 2 |-> 6}`: `3` is
    /// outside `dom(f)` and left out, so the set is `{1}`; `x` takes it.
    #[test]
    fn applications_outside_the_domain_leave_a_comprehension() {
        let m = "MACHINE Q CONSTANTS f PROPERTIES f = {1 |-> 5, 2 |-> 6}
                 VARIABLES x INITIALISATION x := {s | s : 1..3 & f(s) = 5}
                 OPERATIONS op = PRE x = {1} THEN x := {} END END";
        // root, constants, x = {1}, x = {}
        assert_eq!(count(m).0, 4);
    }

    /// A queens-like search point by point (`fspace`), where applications
    /// outside the points chosen so far are undecided, not false: 4
    /// queens on a 4 x 4 board have 2 solutions (one TRUE per row and
    /// column, no two on a diagonal).
    #[test]
    fn a_point_by_point_search_keeps_undecided_applications() {
        let m = "MACHINE Q CONSTANTS r PROPERTIES r : ((1..4) * (1..4)) --> BOOL &
                 !(i,j).((i : 1..4 & j : 1..4 & r(i,j) = TRUE) => (
                   not(#k.(k : 1..4 & k /= i & r(k,j) = TRUE)) &
                   not(#k.(k : 1..4 & k /= j & r(i,k) = TRUE)) &
                   not(#(k,l).(k : 1..4 & l : 1..4 & k /= i & l /= j &
                               k + l = i + j & r(k,l) = TRUE)) &
                   not(#(k,l).(k : 1..4 & l : 1..4 & k /= i & l /= j &
                               k - l = i - j & r(k,l) = TRUE)))) &
                 !i.(i : 1..4 => #j.(j : 1..4 & r(i,j) = TRUE))
                 END";
        assert_eq!(count(&with_variable(m)).0, 1 + 2 + 2);
    }

    /// Outside a quantified formula the same application stays an error.
    #[test]
    fn an_application_outside_the_domain_in_a_body_stays_an_error() {
        let m = "MACHINE Q CONSTANTS f PROPERTIES f = {1 |-> 5}
                 VARIABLES x INITIALISATION x := 0
                 OPERATIONS op = BEGIN x := bool(f(2) = 5) END END";
        let e = crate::tests_wd::model_error(m);
        assert!(e.contains("function applied outside its domain"), "{e}");
    }
}
