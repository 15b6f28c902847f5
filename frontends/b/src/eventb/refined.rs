//! One event of the most concrete machine as the body of a B operation:
//! its guards and actions, the abstract actions on the variables the
//! refinement drops (plain, witnessed, or reading after-values), under
//! ProB's checks when it fires.
//!
//! Owns only the assembly of those parts for one event; the walk over
//! the refinement chain is `refinement`'s, the translation `project`'s.

use crate::ast::Subst;
use crate::error::{BError, ErrorKind};

use super::after::After;
use super::expr::Tr;
use super::refinement::{self, EventParts};
use super::term::Term;

type R<T> = Result<T, BError>;

/// What the translation of an event needs of its machine.
pub struct MachineCtx<'t> {
    /// The machine term.
    pub m: &'t Term,
    /// Its `variant`, if any.
    pub variant: Option<&'t Term>,
    /// Its own variables.
    pub kept: Vec<&'t str>,
    /// Its abstract machines, most concrete first.
    pub chain: Vec<&'t Term>,
    /// The variables of the abstract machines it drops.
    pub dropped: Vec<String>,
}

impl Tr<'_> {
    /// The body of event `ev` (term `e`) of machine `mc.m`.
    pub(super) fn refined_body<'t>(
        &mut self,
        e: &Term,
        ev: &EventParts<'t>,
        mc: &MachineCtx<'t>,
    ) -> R<Subst> {
        let mut actions: Vec<&Term> = ev.actions.iter().collect();
        let mut witnessed = Vec::new();
        let mut after = After::default();
        if !mc.dropped.is_empty() {
            let more = refinement::abstract_actions(mc.m, ev, &mc.chain, &mc.dropped)
                .map_err(|msg| self.err(ErrorKind::Unsupported, e, msg))?;
            for (act, witnesses) in more {
                if witnesses.is_empty() {
                    actions.push(act);
                } else if witnesses.iter().any(refinement::reads_after_values) {
                    let mut state: Vec<String> = mc.kept.iter().map(|v| (*v).to_owned()).collect();
                    state.extend(mc.dropped.iter().cloned());
                    if ev.name != "INITIALISATION" {
                        after.before.clone_from(&state);
                    }
                    let step = self.after_step(act, &witnesses, &state, &after)?;
                    after.steps.push(step);
                } else {
                    witnessed.push(self.witnessed_action(act, &witnesses)?);
                }
            }
        }
        let pos = self.pos_of(e);
        let checks = self.event_checks(ev, mc.variant, mc.chain.first().copied(), &mc.kept)?;
        let guards = self.event_guards(ev);
        self.event_body(&guards, &actions, (witnessed, after), checks, pos)
    }

    /// The guards of `ev` with the typing theorems of its parameters.
    pub(super) fn event_guards(&self, ev: &EventParts<'_>) -> Vec<Term> {
        let mut guards: Vec<Term> = ev.guards.to_vec();
        let typing = super::param_typing::typing_theorems(ev.theorems, ev.params, &self.carriers);
        guards.extend(typing.into_iter().cloned());
        guards
    }
}
