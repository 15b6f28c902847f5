//! Abstract actions on the variables a refinement drops whose witnesses
//! read after-values: nondeterministic ones (`x :: S`, `x :| P`) whose
//! after-values the concrete event gives by witnesses `x' = E`
//! (NonDetAssign1: `x' = y' - 1`), and `x := E` reading an abstract
//! parameter given by such a witness (CoffeR2: `x = level(clvl')`).
//! ProB keeps `x` in its states: after the concrete actions, the
//! witnesses are read with the concrete after-values `y'` and the
//! before-values `y`; `x` takes the witnessed value, which a
//! nondeterministic abstract action must admit (`x' : S`, `P`), else the
//! event's action is not executable (ProB's `action_not_executable`).
//!
//! Built as `ANY v$0 WHERE v$0 = v THEN actions ; step END` over the
//! state variables `v` (their before-values `v$0`), a step being
//! `ANY x' WHERE witness THEN CHECK(admitted) x := x' END` or
//! `ANY p WHERE witness THEN x := E END`.

use crate::ast::*;
use crate::error::{BError, ErrorKind};

use super::expr::{conj, mk, Tr};
use super::term::Term;

type R<T> = Result<T, BError>;

/// The steps that run after an event's concrete actions and the state
/// variables whose before-values they read (none in the
/// INITIALISATION).
#[derive(Default)]
pub struct After {
    pub steps: Vec<Subst>,
    pub before: Vec<String>,
}

fn before(v: &str) -> String {
    format!("{v}$0")
}

impl Tr<'_> {
    /// The step of abstract action `act` on dropped variables with the
    /// `witnesses` (name, predicate) it needs, some reading after-values:
    /// those of the variables' after-values `x'` (`becomes_element_of`,
    /// `becomes_such`) or of abstract parameters (`assign`); `state`
    /// names the state variables, `after.before` those with before-values.
    pub fn after_step(
        &mut self,
        act: &Term,
        witnesses: &[(&str, &Term)],
        state: &[String],
        after: &After,
    ) -> R<Subst> {
        let pos = self.pos_of(act);
        let bound: Vec<Sym> = witnesses.iter().map(|(p, _)| self.syms.intern(p)).collect();
        // the witness: y' is y now, y is y$0, x' the bound after-value
        let befores = after.before.iter().map(|v| (v.clone(), before(v)));
        self.rename = state
            .iter()
            .map(|v| (format!("{v}'"), v.clone()))
            .chain(befores)
            .filter(|(from, _)| !witnesses.iter().any(|(p, _)| p == from))
            .collect();
        let preds = witnesses
            .iter()
            .map(|(_, w)| self.expr(w))
            .collect::<R<Vec<_>>>();
        self.rename.clear();
        let witness = conj(preds?, pos);
        let body = match act.app() {
            Some(("assign", _)) => {
                // `x := E` reading the abstract parameters the witnesses give
                self.rename = after
                    .before
                    .iter()
                    .map(|v| (v.clone(), before(v)))
                    .collect();
                let r = self.action(act);
                self.rename.clear();
                r?
            }
            _ => self.admitted_assign(act, witnesses, &bound, after)?,
        };
        let step = Subst {
            kind: SubstKind::Any {
                ids: bound,
                pred: witness,
                body: Box::new(body),
                plan: Default::default(),
            },
            pos,
        };
        let what = format!(
            "no_witness_found: the after-values of the dropped variables in {}",
            self.what
        );
        Ok(super::project::wrap(EventCheck::Executable { what }, step))
    }

    /// `x := x'` for the dropped variables `x` whose after-values `x'`
    /// the witnesses give, under the check that the nondeterministic
    /// abstract action `act` admits them.
    fn admitted_assign(
        &mut self,
        act: &Term,
        witnesses: &[(&str, &Term)],
        bound: &[Sym],
        after: &After,
    ) -> R<Subst> {
        let pos = self.pos_of(act);
        if let Some((p, _)) = witnesses.iter().find(|(p, _)| !p.ends_with('\'')) {
            let msg = format!("the abstract parameter {p} of a nondeterministic abstract action on a dropped variable");
            return Err(self.err(ErrorKind::Unsupported, act, msg));
        }
        let admitted = self.admitted(act, &after.before)?;
        let (targets, values): (Vec<Expr>, Vec<Expr>) = witnesses
            .iter()
            .zip(bound)
            .map(|((p, _), &s)| {
                let x = self.syms.intern(p.trim_end_matches('\''));
                (mk(ExprKind::Ident(x), pos), mk(ExprKind::Ident(s), pos))
            })
            .unzip();
        let assign = Subst {
            kind: SubstKind::Assign(targets, values),
            pos,
        };
        let what = format!(
            "action_not_executable: the abstract action {} of {} on the dropped variables, for the witnessed after-values",
            super::project::label(act),
            self.what
        );
        Ok(super::project::wrap(
            EventCheck::Holds {
                what,
                pred: admitted,
            },
            assign,
        ))
    }

    /// Whether the abstract action `act` admits the after-values `x'`
    /// (bound by the step) from the before-values `v$0` of the variables
    /// `before`.
    fn admitted(&mut self, act: &Term, before_values: &[String]) -> R<Expr> {
        let pos = self.pos_of(act);
        self.rename = before_values
            .iter()
            .map(|v| (v.clone(), before(v)))
            .collect();
        let r = match act.app() {
            Some(("becomes_element_of", [_, Term::List(ids), s])) if ids.len() == 1 => {
                let x = self.ident_name(&ids[0])?.to_owned();
                let after = mk(ExprKind::Ident(self.syms.intern(&format!("{x}'"))), pos);
                self.expr(s)
                    .map(|s| mk(ExprKind::Bin(BinOp::In, Box::new(after), Box::new(s)), pos))
            }
            Some(("becomes_such", [_, _, p])) => self.expr(p),
            _ => Err(self.err(
                ErrorKind::Unsupported,
                act,
                "an abstract action of an unknown form",
            )),
        };
        self.rename.clear();
        r
    }

    /// `then` followed by the steps of `after`, under the before-values
    /// of the state variables.
    pub fn sequenced(&mut self, then: Subst, after: After) -> Subst {
        if after.steps.is_empty() {
            return then;
        }
        let pos = then.pos;
        let mut ids = Vec::new();
        let mut eqs = Vec::new();
        for v in &after.before {
            let b = self.syms.intern(&before(v));
            let x = self.syms.intern(v);
            ids.push(b);
            let (l, r) = (mk(ExprKind::Ident(b), pos), mk(ExprKind::Ident(x), pos));
            eqs.push(mk(ExprKind::Bin(BinOp::Eq, Box::new(l), Box::new(r)), pos));
        }
        let mut seq = vec![then];
        seq.extend(after.steps);
        let seq = Subst {
            kind: SubstKind::Seq(seq),
            pos,
        };
        if ids.is_empty() {
            return seq;
        }
        Subst {
            kind: SubstKind::Any {
                ids,
                pred: conj(eqs, pos),
                body: Box::new(seq),
                plan: Default::default(),
            },
            pos,
        }
    }
}
