//! An event merging abstract events whose actions differ (merging_R2's
//! `inc` merging `even` and `odd`, which refine abstract events acting
//! differently on a dropped variable): one branch per abstract event,
//! taken when its guard holds, each translated as if the event refined
//! that abstract event alone. ProB reports a simulation error when no
//! abstract guard holds; when more than one holds, which abstract events
//! ProB simulates is not known here, so the event is refused then (a
//! runtime `Exclusive` check). Only parameterless events and abstract
//! events: a witness would have to give each branch's parameters.
//!
//! Owns only the branching; each branch is `refined`'s.

use crate::ast::*;
use crate::error::BError;

use super::expr::{conj, Tr};
use super::project::{component_name, wrap};
use super::refined::MachineCtx;
use super::refinement::{self, EventParts};
use super::term::Term;

type R<T> = Result<T, BError>;

impl Tr<'_> {
    /// The body of event `ev` (term `e`) when it merges abstract events
    /// of the machine it refines that `refinement::merged_events` refuses
    /// and that this module supports; `None` otherwise.
    pub(super) fn merged_body<'t>(
        &mut self,
        e: &Term,
        ev: &EventParts<'t>,
        mc: &MachineCtx<'t>,
    ) -> R<Option<Subst>> {
        let Some(abs) = mc.chain.first().copied() else {
            return Ok(None);
        };
        if ev.refines.len() < 2
            || !ev.params.is_empty()
            || refinement::merged_events(abs, &ev.refines).is_ok()
        {
            return Ok(None);
        }
        let Some(events) = refinement::parameterless_events(abs, &ev.refines) else {
            return Ok(None);
        };
        let pos = self.pos_of(e);
        let mut branches = Vec::new();
        let mut guards = Vec::new();
        for a in &events {
            let one = EventParts {
                refines: vec![a.name],
                ..ev.clone()
            };
            let body = self.refined_body(e, &one, mc)?;
            let guard = conj(self.exprs(a.guards)?, pos);
            guards.push(guard.clone());
            branches.push((guard, body));
        }
        let what = format!(
            "event {} merging {} of machine {} where more than one of their guards holds",
            ev.name,
            ev.refines.join(", "),
            component_name(abs).unwrap_or("?")
        );
        let chosen = Subst {
            kind: SubstKind::Select(branches, None),
            pos,
        };
        let mut body = wrap(
            EventCheck::Exclusive {
                what,
                preds: guards,
            },
            chosen,
        );
        if let Some(c) = self.some_guard_check(ev, abs, &events)? {
            body = wrap(c, body);
        }
        let g = self.exprs(&self.event_guards(ev))?;
        if g.is_empty() {
            return Ok(Some(body));
        }
        Ok(Some(Subst {
            kind: SubstKind::Select(vec![(conj(g, pos), body)], None),
            pos,
        }))
    }

    /// ProB's simulation check for event `ev` merging the abstract
    /// `events` of machine `abs`: the guard of one of them holds; none if
    /// one has no guard.
    pub(super) fn some_guard_check(
        &mut self,
        ev: &EventParts<'_>,
        abs: &Term,
        events: &[EventParts<'_>],
    ) -> R<Option<EventCheck>> {
        let mut any: Option<Expr> = None;
        for e in events {
            let Some(g) = e.guards.first() else {
                return Ok(None);
            };
            let guard = conj(self.exprs(e.guards)?, self.pos_of(g));
            any = Some(match any {
                None => guard,
                Some(a) => Expr {
                    pos: a.pos,
                    kind: ExprKind::Bin(BinOp::Or, Box::new(a), Box::new(guard)),
                },
            });
        }
        let what = format!(
            "simulation_error: event {} enabled where the guards of the events {} it merges in machine {} are all false",
            ev.name,
            ev.refines.join(", "),
            component_name(abs).unwrap_or("?")
        );
        Ok(any.map(|pred| EventCheck::Holds { what, pred }))
    }
}
