//! `Space /= {}` for a space of relations or functions between sets
//! (qs0's `D --> INTEGER /= {}`): decided from the sets instead of
//! enumerating the space, which may be infinite. Relations, partial
//! functions and partial injections hold the empty relation; a space of
//! total functions `A --> B` (or total relations) is not empty exactly
//! when `A` is empty or `B` is not (`INTEGER`, `NATURAL`, `NATURAL1`,
//! `BOOL` and carrier sets are not).
//!
//! Owns only this rewriting of the Event-B term; evaluation is the
//! evaluator's.

use crate::ast::*;
use crate::error::BError;

use super::expr::{bin, mk, Tr};
use super::term::Term;

type R<T> = Result<T, BError>;

impl Tr<'_> {
    /// `space /= {}` decided from the sets of `space`, when it is such a
    /// space; `None` otherwise.
    pub(super) fn nonempty_space(&mut self, space: &Term) -> R<Option<Expr>> {
        let pos = self.pos_of(space);
        let Some((f, [_, a, b])) = space.app() else {
            return Ok(None);
        };
        Ok(Some(match f {
            "relations" | "partial_function" | "partial_injection" => mk(ExprKind::Bool(true), pos),
            "total_function" | "total_relation" => {
                if self.never_empty(b) {
                    return Ok(Some(mk(ExprKind::Bool(true), pos)));
                }
                let empty = |e| bin(BinOp::Eq, e, mk(ExprKind::EmptySet, pos));
                let some = |e| bin(BinOp::Neq, e, mk(ExprKind::EmptySet, pos));
                bin(BinOp::Or, empty(self.expr(a)?), some(self.expr(b)?))
            }
            _ => return Ok(None),
        }))
    }

    /// Whether `t` is `INTEGER`, `NATURAL`, `NATURAL1`, `BOOL` or a
    /// carrier set (not empty in ProB).
    fn never_empty(&self, t: &Term) -> bool {
        let named = t.app().is_some_and(|(f, _)| {
            matches!(
                f,
                "integer_set" | "natural_set" | "natural1_set" | "bool_set"
            )
        });
        named || self.is_carrier(t)
    }
}
