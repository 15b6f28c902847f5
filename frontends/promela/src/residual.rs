//! The part of a condition the dispatch leaves to evaluate: a condition
//! `c1 && c2 && .. && cn` whose first `j` conjuncts are the comparisons
//! of its guard's one conjunction (`guard`) is, once the dispatch has found
//! those true, executable exactly when `c(j+1) && .. && cn` holds. Compiled
//! here (each remaining conjunct by `code`, tried in order, the first that
//! is 0 blocks), it spares re-reading the comparisons and the `&&` nodes
//! joining them in every state where the dispatch lets the transition
//! through (BEEM's `done==0 && a[((y)*8+x-1)]==0`).
//!
//! Exact because the interpreter evaluates `&&` left to right with short
//! circuit and a guard comparison cannot fail: the dropped conjuncts, true,
//! neither change the value nor hide an error. Owns the splitting only;
//! `model` decides when the dispatch has checked the comparisons.

use crate::code::{expr, Env, ExprFn};
use crate::compile::{Act, CExpr};
use crate::model::Res;
use crate::ops::BinOp;
use std::sync::Arc;

/// What the dispatch leaves of a transition's condition: the conjuncts
/// after its guard's comparisons, or the whole compiled condition when the
/// guard checks none (`None`: no compiled condition).
#[derive(Clone, Default)]
pub(crate) struct Residual(Option<ExprFn>);

impl std::fmt::Debug for Residual {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self.0 {
            Some(_) => "Residual",
            None => "Residual(none)",
        })
    }
}

impl Residual {
    /// The rest of the condition that `act` begins with (a condition, or
    /// the one first statement of a `d_step`) after its first `checked`
    /// conjuncts, or `whole` (its compiled form) when none is dropped.
    pub fn of(act: &Act, checked: usize, whole: Option<&ExprFn>) -> Residual {
        let mut all = Vec::new();
        if let Some(cond) = condition(act) {
            conjuncts(cond, &mut all);
        }
        if checked == 0 || checked >= all.len() {
            return Residual(whole.cloned());
        }
        let rest: Box<[ExprFn]> = all[checked..].iter().map(|c| expr(c)).collect();
        Residual(Some(match *rest {
            [ref one] => one.clone(),
            _ => Arc::new(move |st, env| {
                for c in rest.iter() {
                    if c(st, env)? == 0 {
                        return Ok(0);
                    }
                }
                Ok(1)
            }),
        }))
    }

    /// Whether the residual holds in `st` (`None`: there is none, the
    /// interpreter decides).
    #[inline(always)]
    pub fn holds(&self, st: &[u32], env: &Env) -> Option<Res<bool>> {
        let f = self.0.as_ref()?;
        Some(f(st, env).map(|v| v != 0))
    }
}

/// The condition `act` begins with: itself when it is one, or the one
/// first statement of a `d_step` when that is one.
pub(crate) fn condition(act: &Act) -> Option<&CExpr> {
    match act {
        Act::Cond(e) => Some(e),
        Act::DStep(auto) if Some(auto.start) != auto.end => {
            match auto.locs.get(auto.start).map(Vec::as_slice) {
                Some(&[k]) => match &auto.trans[k].act {
                    Act::Cond(e) => Some(e),
                    _ => None,
                },
                _ => None,
            }
        }
        _ => None,
    }
}

/// The leaves of `e`'s `&&` tree, left to right (the order the
/// interpreter evaluates them in).
fn conjuncts<'a>(e: &'a CExpr, out: &mut Vec<&'a CExpr>) {
    match e {
        CExpr::Binary(BinOp::And, a, b, _) => {
            conjuncts(a, out);
            conjuncts(b, out);
        }
        _ => out.push(e),
    }
}
