//! A constant function applied outside its domain in an operation's body,
//! to an argument computed from the operation's parameters:
//! ClosureFunOutsideDomain's `Set3(yy) = PRE yy : ID & state = 2 THEN xx
//! := f(yy) END` with `f = {aa |-> bb}` is such an error in B, yet ProB
//! explores that machine completely (9 states, no error): its solver
//! posts `f(yy)` as the constraint `yy |-> xx : f` before it enumerates
//! `yy`, and `yy = bb` then has no transition. When it does so and when it
//! reports the error is not modelled, so such an error is refused
//! (unsupported) rather than reported. Applications of a variable stay
//! errors (phonebook4's `cc := db(nn)` with `db = {}`, an error in ProB).
//! In an Event-B event such an application in an action (not the guard)
//! stays an error too: ProB runs the actions after it has solved the
//! guard, and an action without a value is its `action_not_executable`
//! (Georghe1's `seq1 := SEQ_append(seq1 |-> x)` once `seq1` is full).
//!
//! Owns only this decision; it changes no evaluation.

use crate::ast::*;
use crate::eval::Fail;
use crate::visit::{walk_subst, Role, SubstVisitor};

/// The message of an application outside the domain (see `value`).
pub(crate) const OUTSIDE: &str = "function applied outside its domain";

/// `f`, or a refusal when `f` is an application of a constant
/// (`is_constant`) outside its domain, in `op`'s body, whose argument
/// names a parameter of `op`; in an Event-B event (`event_b`), ProB's
/// `action_not_executable` when that application is in an action.
pub fn refused(op: &Operation, f: Fail, event_b: bool, is_constant: &dyn Fn(Sym) -> bool) -> Fail {
    let Fail::Wd(m, at) = &f else {
        return f;
    };
    if m != OUTSIDE || op.params.is_empty() {
        return f;
    }
    let found = |s: &Subst| {
        let mut finder = Finder {
            at: *at,
            params: &op.params,
            is_constant,
            found: false,
        };
        let Ok(()) = walk_subst(s, &mut finder);
        finder.found
    };
    if !found(&op.body) {
        return f;
    }
    if event_b {
        if let (Some(_), actions) = crate::model::split_guard(op) {
            if found(actions) {
                return Fail::Wd(format!("action_not_executable: {m} in an action"), *at);
            }
        }
    }
    Fail::Unsupported(
        format!("{m}: a constant function applied to a value of the operation's parameters (ProB may solve it as a constraint and leave the value out)"),
        *at,
    )
}

/// Looks for the application at `at`.
struct Finder<'a> {
    at: Pos,
    params: &'a [Sym],
    is_constant: &'a dyn Fn(Sym) -> bool,
    found: bool,
}

impl SubstVisitor for Finder<'_> {
    type Err = std::convert::Infallible;
    fn expr(&mut self, e: &Expr, _role: Role) -> Result<(), Self::Err> {
        crate::compile::visit(e, &mut |x| {
            let ExprKind::Apply(g, a) = &x.kind else {
                return;
            };
            if x.pos != self.at || !matches!(g.kind, ExprKind::Ident(c) if (self.is_constant)(c)) {
                return;
            }
            let mut used = Vec::new();
            crate::solve::idents(a, &mut used);
            self.found |= used.iter().any(|s| self.params.contains(s));
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::tests::first_error;
    use crate::tests_wd::model_error;

    /// A constant function applied to a parameter outside its domain is
    /// refused; a variable one, or a constant applied to a value that
    /// names no parameter, stays an error.
    #[test]
    fn constant_functions_applied_to_parameters_are_refused() {
        let m = |consts: &str, body: &str| {
            format!(
                "MACHINE C SETS ID = {{aa, bb}} {consts}
                 VARIABLES xx, g INITIALISATION xx := aa || g := {{aa |-> bb}}
                 OPERATIONS Set(yy) = PRE yy : ID THEN {body} END END"
            )
        };
        let consts = "CONSTANTS f PROPERTIES f = {aa |-> bb}";
        let e = first_error(&m(consts, "xx := f(yy)")).expect("refused");
        assert!(
            e.starts_with("unsupported") && e.contains("constant function"),
            "{e}"
        );
        let e = model_error(&m(consts, "xx := g(yy)"));
        assert!(e.contains("function applied outside its domain"), "{e}");
        let e = model_error(&m(consts, "xx := f(bb)"));
        assert!(e.contains("function applied outside its domain"), "{e}");
    }
}
