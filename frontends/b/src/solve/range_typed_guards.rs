//! The predicates of an operation's substitution that `range_typed`
//! retypes: guards (PRE, SELECT, ANY, LET), conditions (IF) and `:(`
//! predicates, walked with the identifiers bound around each (the
//! operation's parameters and results, ANY, LET, VAR and `:(`
//! identifiers).
//!
//! Owns that walk only; the typing is `range_typed`'s.

use crate::ast::*;
use std::sync::OnceLock;

/// Retypes a predicate in place given the identifiers bound around it;
/// whether it changed.
pub(super) type Retype<'a> = dyn FnMut(&mut Expr, &[Sym]) -> bool + 'a;

fn with(locals: &[Sym], ids: &[Sym]) -> Vec<Sym> {
    locals.iter().chain(ids).copied().collect()
}

/// Applies `f` to the predicates of `s` (see the module's doc).
pub(super) fn walk(s: &mut Subst, locals: &[Sym], f: &mut Retype) {
    use SubstKind::*;
    match &mut s.kind {
        Pre(g, b) => {
            f(g, locals);
            walk(b, locals, f);
        }
        Select(brs, els) | If(brs, els) => {
            for (g, b) in brs {
                f(g, locals);
                walk(b, locals, f);
            }
            if let Some(b) = els {
                walk(b, locals, f);
            }
        }
        Any {
            ids,
            pred,
            body,
            plan,
        }
        | Let {
            ids,
            pred,
            body,
            plan,
        } => {
            let l = with(locals, ids);
            if f(pred, &l) {
                *plan = OnceLock::new();
            }
            walk(body, &l, f);
        }
        BecomesSuch { ids, pred, plan } => {
            if f(pred, &with(locals, ids)) {
                *plan = OnceLock::new();
            }
        }
        Var(ids, b) => {
            let l = with(locals, ids);
            walk(b, &l, f);
        }
        Assert(_, b) | EventCheck(_, b) => walk(b, locals, f),
        Choice(v) | Par(v) | Seq(v) => v.iter_mut().for_each(|s| walk(s, locals, f)),
        Case(_, brs, els) => {
            brs.iter_mut().for_each(|(_, b)| walk(b, locals, f));
            if let Some(b) = els {
                walk(b, locals, f);
            }
        }
        While { body, .. } => walk(body, locals, f),
        Skip | Assign(..) | BecomesIn(..) | Call(..) => {}
    }
}
