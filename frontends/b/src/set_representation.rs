//! Which assignments ProB computes as explicit sets although they read a
//! large set it keeps symbolic.
//!
//! ProB holds a large interval, relation space or comprehension assigned
//! to a variable as a closure (see `lazy_sets`); a union with, or a
//! difference from, a non-empty set extension is computed as an explicit
//! set, a term other than the closure even where the value is the same.
//! ProB's EnumerateFunctionTests2 (`funs := ID <-> ID` over `ID ==
//! 1..4`, then `funs := funs \/ {{1|->1}}`, which changes no value) counts
//! the 65,536 relations as two states (16, one more than its enumerated-set
//! twin, whose maximal set absorbs the union: `maximal_sets`), and
//! repeating the union adds no third one: the union's result is explicit,
//! not a term that grows.
//!
//! [`explicit_writes`] finds, in an operation, the variables whose every
//! assignment has that form (`x := E \/ {a, ..}`, `x := {a, ..} \/ E`,
//! `x := E - {a, ..}`), so that `model` gives their large values the
//! explicit origin of `lazy_sets` (interned apart from closures). Any
//! other computation keeps its origin there, and a value reached from two
//! such origins stays refused.
//!
//! Owns this syntactic test only; it reads operations and changes nothing.

use crate::ast::*;
use crate::visit::{walk_subst, Role, SubstVisitor};

/// The variables `body` assigns only as a union with, or a difference
/// from, a non-empty set extension; none when `body` calls an operation
/// (whose writes it does not see).
pub(crate) fn explicit_writes(body: &Subst) -> Vec<Sym> {
    let mut w = Assigned::default();
    let Ok(()) = walk_subst(body, &mut w);
    if w.calls {
        return Vec::new();
    }
    let mut out: Vec<Sym> = w
        .explicit
        .into_iter()
        .filter(|x| !w.other.contains(x))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Whether ProB computes `e` as an explicit set (see the module comment).
fn is_explicit_result(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Bin(BinOp::Union, a, b) => is_listed(a) || is_listed(b),
        ExprKind::Bin(BinOp::Minus, _, b) => is_listed(b),
        _ => false,
    }
}

/// Whether `e` is a non-empty set extension `{a, ..}`.
fn is_listed(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::SetExt(xs) if !xs.is_empty())
}

#[derive(Default)]
struct Assigned {
    explicit: Vec<Sym>,
    other: Vec<Sym>,
    calls: bool,
}

impl SubstVisitor for Assigned {
    type Err = std::convert::Infallible;
    fn expr(&mut self, e: &Expr, role: Role) -> Result<(), Self::Err> {
        if role == Role::Output {
            crate::solve::idents(e, &mut self.other);
        }
        Ok(())
    }
    fn assign(&mut self, lhs: &[Expr], rhs: &[Expr]) {
        for (l, r) in lhs.iter().zip(rhs) {
            match &l.kind {
                ExprKind::Ident(x) if is_explicit_result(r) => self.explicit.push(*x),
                _ => crate::solve::idents(l, &mut self.other),
            }
        }
    }
    fn becomes(&mut self, ids: &[Sym]) {
        self.other.extend_from_slice(ids);
    }
    fn call(&mut self, _name: Sym) -> Result<(), Self::Err> {
        self.calls = true;
        Ok(())
    }
}
