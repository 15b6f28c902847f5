//! ProB's simulation check of an Event-B refinement for an abstract action
//! `x :| P` on a variable the refinement keeps: the concrete event's
//! after-value of `x` must be one the abstract action allows, that is,
//! `P` must hold with `x$0` the value before and `x` the concrete value
//! after. Checked on that one value rather than by listing every value
//! the abstract action allows (which needs a finite range for `x`:
//! binarySearchFail's `pos : INTEGER`); the two agree whenever the listing
//! is possible.
//!
//! Owns only that membership test; the other event checks are `exec`'s,
//! their translation `eventb::project`'s.

use crate::ast::{Expr, Pos, Sym};
use crate::eval::{Env, E};
use crate::exec::Writes;

impl Env<'_> {
    /// Whether outcome `w` of the concrete event gives `ids` values that
    /// the abstract action `ids :| pred` allows from the current state.
    pub(crate) fn such_allows(
        &mut self,
        ids: &[Sym],
        pred: &Expr,
        w: &Writes,
        pos: Pos,
    ) -> E<bool> {
        let base = self.locals.len();
        for &x in ids {
            let old = self.read(self.target(x, pos)?);
            let name = format!("{}$0", self.w.syms.name(x));
            if let Some(s0) = self.w.syms.get(&name) {
                self.locals.push((s0, old));
            }
        }
        // conjunct by conjunct, as the solver would test the value
        let cs = crate::solve::conjuncts(pred);
        let r = self.with_writes(w, |env| {
            for c in cs {
                if !env.holds_guard(c)? {
                    return Ok(false);
                }
            }
            Ok(true)
        });
        self.locals.truncate(base);
        r
    }
}
