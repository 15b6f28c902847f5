//! ProB's preference `SET_PREF_ALLOW_OPERATION_CALLS_IN_EXPRESSIONS`: an
//! expression of the main machine may call one of its query operations
//! (`r := Divisors(Double(2) * Double(3))`), the call standing for the
//! operation's result.
//!
//! Such calls are hoisted before the assignment that holds them, innermost
//! first, each into a local of its own: `VAR c1, c2, c3 IN c1 <--
//! Double(2); c2 <-- Double(3); c3 <-- Divisors(c1 * c2); r := c3 END`,
//! then run as operation calls are (`exec`, `library_opcalls`). Only where
//! this is the same thing: the called operation has one parameter and
//! one result and assigns no machine variable (a query), and the call
//! stands in the right-hand side of an assignment, under operators that
//! evaluate all their operands and other calls only (never under a binder, whose bound identifiers its
//! argument could name). Any other call is left as it is, and refused
//! where it is evaluated (an unknown identifier).
//!
//! Owns the rewriting; it must not run anything.

use rustc_hash::FxHashSet;

use crate::ast::*;
use crate::visit::{walk_subst, Role, SubstVisitor};

/// The preference that allows calls in expressions.
const PREF: &str = "SET_PREF_ALLOW_OPERATION_CALLS_IN_EXPRESSIONS";

/// Hoists the calls of the main machine's (the last one's) query
/// operations out of its assignments, where the preference allows them.
pub(crate) fn hoist(machines: &mut [Machine], syms: &mut Syms) {
    let Some(main) = machines.last() else { return };
    let allowed = main
        .settings
        .iter()
        .any(|(k, v, _)| k == PREF && v.eq_ignore_ascii_case("true"));
    if !allowed {
        return;
    }
    let variables: FxHashSet<Sym> = machines
        .iter()
        .flat_map(|m| m.variables.iter().copied())
        .collect();
    let main = machines.last_mut().expect("checked");
    let queries: FxHashSet<Sym> = main
        .operations
        .iter()
        .filter(|op| is_query(op, &variables))
        .map(|op| op.name)
        .collect();
    if queries.is_empty() {
        return;
    }
    let mut h = Hoister {
        queries: &queries,
        syms,
        fresh: 0,
    };
    for op in &mut main.operations {
        h.subst(&mut op.body);
    }
}

/// An operation of one parameter and one result that assigns no machine
/// variable and calls nothing.
fn is_query(op: &Operation, variables: &FxHashSet<Sym>) -> bool {
    struct Writes<'a> {
        variables: &'a FxHashSet<Sym>,
        clean: bool,
    }
    impl SubstVisitor for Writes<'_> {
        type Err = ();
        fn expr(&mut self, e: &Expr, role: Role) -> Result<(), ()> {
            if matches!(role, Role::Target | Role::Output) {
                let mut base = e;
                while let ExprKind::Apply(f, _) | ExprKind::Field(f, _) = &base.kind {
                    base = f;
                }
                if matches!(base.kind, ExprKind::Ident(s) if self.variables.contains(&s)) {
                    self.clean = false;
                }
            }
            Ok(())
        }
        fn becomes(&mut self, ids: &[Sym]) {
            self.clean &= !ids.iter().any(|s| self.variables.contains(s));
        }
        fn call(&mut self, _name: Sym) -> Result<(), ()> {
            self.clean = false;
            Ok(())
        }
    }
    if op.params.len() != 1 || op.outs.len() != 1 {
        return false;
    }
    let mut w = Writes {
        variables,
        clean: true,
    };
    walk_subst(&op.body, &mut w).is_ok() && w.clean
}

struct Hoister<'a> {
    queries: &'a FxHashSet<Sym>,
    syms: &'a mut Syms,
    fresh: usize,
}

impl Hoister<'_> {
    /// Rewrites the assignments of `s` reached through the substitutions
    /// that run their parts as they are (PRE, SELECT, IF, blocks).
    fn subst(&mut self, s: &mut Subst) {
        match &mut s.kind {
            SubstKind::Assign(_, rhs) => {
                if let Some(hoisted) = self.assignment(rhs, s.pos) {
                    let assign = std::mem::replace(&mut s.kind, SubstKind::Skip);
                    let (temps, mut steps) = hoisted;
                    steps.push(Subst {
                        kind: assign,
                        pos: s.pos,
                    });
                    s.kind = SubstKind::Var(
                        temps,
                        Box::new(Subst {
                            kind: SubstKind::Seq(steps),
                            pos: s.pos,
                        }),
                    );
                }
            }
            SubstKind::Pre(_, b) | SubstKind::Assert(_, b) | SubstKind::Var(_, b) => self.subst(b),
            SubstKind::Select(branches, other) | SubstKind::If(branches, other) => {
                branches.iter_mut().for_each(|(_, b)| self.subst(b));
                if let Some(b) = other {
                    self.subst(b);
                }
            }
            SubstKind::Par(v) | SubstKind::Seq(v) | SubstKind::Choice(v) => {
                v.iter_mut().for_each(|b| self.subst(b));
            }
            _ => {}
        }
    }

    /// The locals and calls hoisted out of right-hand sides `rhs`
    /// (rewritten to read the locals), `None` when there is no call to
    /// hoist or one that cannot be.
    fn assignment(&mut self, rhs: &mut [Expr], pos: Pos) -> Option<(Vec<Sym>, Vec<Subst>)> {
        if !rhs.iter().any(|e| self.calls_query(e)) {
            return None;
        }
        let mut calls = Vec::new();
        let lifted: Vec<Expr> = rhs
            .iter()
            .map(|e| self.lift(e, &mut calls))
            .collect::<Option<_>>()?;
        rhs.clone_from_slice(&lifted);
        let temps = calls.iter().map(|(t, _, _)| *t).collect();
        let steps = calls
            .into_iter()
            .map(|(t, q, arg)| Subst {
                kind: SubstKind::Call(
                    vec![Expr {
                        kind: ExprKind::Ident(t),
                        pos,
                    }],
                    q,
                    vec![arg],
                ),
                pos,
            })
            .collect();
        Some((temps, steps))
    }

    /// `e` with its calls replaced by fresh locals, the calls appended to
    /// `calls` (local, operation, argument) innermost first; `None` when
    /// a call stands where it cannot be hoisted.
    fn lift(&mut self, e: &Expr, calls: &mut Vec<(Sym, Sym, Expr)>) -> Option<Expr> {
        let kind = match &e.kind {
            ExprKind::Apply(f, arg) if matches!(f.kind, ExprKind::Ident(q) if self.queries.contains(&q)) =>
            {
                let ExprKind::Ident(q) = f.kind else {
                    unreachable!("matched")
                };
                let arg = self.lift(arg, calls)?;
                self.fresh += 1;
                let t = self.syms.intern(&format!("call{}$", self.fresh));
                calls.push((t, q, arg));
                ExprKind::Ident(t)
            }
            // both sides always evaluated (not the logical connectives)
            ExprKind::Bin(op, a, b)
                if !matches!(op, BinOp::And | BinOp::Or | BinOp::Implies | BinOp::Equiv) =>
            {
                ExprKind::Bin(
                    *op,
                    Box::new(self.lift(a, calls)?),
                    Box::new(self.lift(b, calls)?),
                )
            }
            ExprKind::Neg(a) => ExprKind::Neg(Box::new(self.lift(a, calls)?)),
            _ if self.calls_query(e) => return None,
            _ => return Some(e.clone()),
        };
        Some(Expr { kind, pos: e.pos })
    }

    /// Whether `e` names a query operation anywhere.
    fn calls_query(&self, e: &Expr) -> bool {
        let mut found = false;
        crate::compile::visit(e, &mut |x| {
            found |= matches!(x.kind, ExprKind::Ident(s) if self.queries.contains(&s));
        });
        found
    }
}
