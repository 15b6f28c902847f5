//! One walk over a substitution's tree ([`walk_subst`]): the static checks
//! (`compile`) and the read/write analysis of transition groups (`model`)
//! both see a substitution's expressions, the identifiers it binds and
//! writes, and the operations it calls through a [`SubstVisitor`].

use crate::ast::*;

/// Where an expression stands in a substitution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Role {
    /// Evaluated: a right-hand side, a guard, a call's argument...
    Read,
    /// The left-hand side of `:=` (`x`, `f(a)`, `r'f`).
    Target,
    /// A branch label of CASE (a literal).
    Label,
    /// An output of an operation call (`outs <-- op(args)`).
    Output,
}

/// What [`walk_subst`] reports; every method but `expr` does nothing by
/// default.
pub(crate) trait SubstVisitor {
    type Err;
    /// An expression of the substitution, in its role.
    fn expr(&mut self, e: &Expr, role: Role) -> Result<(), Self::Err>;
    /// Variables given a value by `::` or `:(`.
    fn becomes(&mut self, _ids: &[Sym]) {}
    /// Identifiers solved from a predicate (ANY, LET, `:(`), reported
    /// before the predicate itself.
    fn binder(&mut self, _ids: &[Sym], _pred: &Expr) -> Result<(), Self::Err> {
        Ok(())
    }
    /// The abstract action an Event-B event must simulate; walked like any
    /// substitution unless overridden.
    fn simulated(&mut self, action: &Subst) -> Result<(), Self::Err>
    where
        Self: Sized,
    {
        walk_subst(action, self)
    }
    /// A called operation.
    fn call(&mut self, _name: Sym) -> Result<(), Self::Err> {
        Ok(())
    }
    /// An assignment `lhs := rhs`, reported before its expressions.
    fn assign(&mut self, _lhs: &[Expr], _rhs: &[Expr]) {}
}

/// Walks `s` and its sub-substitutions, reporting to `v`; stops at the
/// first error.
pub(crate) fn walk_subst<V: SubstVisitor>(s: &Subst, v: &mut V) -> Result<(), V::Err> {
    use SubstKind::*;
    match &s.kind {
        Skip => Ok(()),
        Assign(l, r) => {
            v.assign(l, r);
            l.iter().try_for_each(|x| v.expr(x, Role::Target))?;
            r.iter().try_for_each(|x| v.expr(x, Role::Read))
        }
        BecomesIn(ids, e) => {
            v.becomes(ids);
            v.expr(e, Role::Read)
        }
        BecomesSuch { ids, pred, .. } => {
            v.becomes(ids);
            v.binder(ids, pred)?;
            v.expr(pred, Role::Read)
        }
        Pre(p, b) | Assert(p, b) => {
            v.expr(p, Role::Read)?;
            walk_subst(b, v)
        }
        EventCheck(c, b) => {
            match &**c {
                crate::ast::EventCheck::Holds { pred: e, .. }
                | crate::ast::EventCheck::Variant { expr: e, .. } => v.expr(e, Role::Read)?,
                crate::ast::EventCheck::Executable { .. } => {}
                crate::ast::EventCheck::Simulates { action, .. } => v.simulated(action)?,
                crate::ast::EventCheck::Keeps { vars, .. }
                | crate::ast::EventCheck::Exclusive { preds: vars, .. } => {
                    for e in vars {
                        v.expr(e, Role::Read)?;
                    }
                }
            }
            walk_subst(b, v)
        }
        Select(br, els) | If(br, els) => {
            for (g, b) in br {
                v.expr(g, Role::Read)?;
                walk_subst(b, v)?;
            }
            els.as_deref().map_or(Ok(()), |b| walk_subst(b, v))
        }
        Case(e, br, els) => {
            v.expr(e, Role::Read)?;
            for (labels, b) in br {
                labels.iter().try_for_each(|x| v.expr(x, Role::Label))?;
                walk_subst(b, v)?;
            }
            els.as_deref().map_or(Ok(()), |b| walk_subst(b, v))
        }
        Any {
            ids, pred, body, ..
        }
        | Let {
            ids, pred, body, ..
        } => {
            v.binder(ids, pred)?;
            v.expr(pred, Role::Read)?;
            walk_subst(body, v)
        }
        Var(_, b) => walk_subst(b, v),
        While {
            cond,
            body,
            inv,
            variant,
        } => {
            v.expr(cond, Role::Read)?;
            inv.iter()
                .chain(variant)
                .try_for_each(|x| v.expr(x, Role::Read))?;
            walk_subst(body, v)
        }
        Choice(b) | Par(b) | Seq(b) => b.iter().try_for_each(|x| walk_subst(x, v)),
        Call(outs, name, args) => {
            outs.iter().try_for_each(|x| v.expr(x, Role::Output))?;
            args.iter().try_for_each(|x| v.expr(x, Role::Read))?;
            v.call(*name)
        }
    }
}
