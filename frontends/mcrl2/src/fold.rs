//! Constant folding: every closed subterm of a compiled term (no variable
//! below it) that evaluates to a normal form is replaced by that value
//! once, at load time, so that successor generation does not rebuild
//! `control(2)`, `{}` or `MAX_TID` for every state. A closed subterm whose
//! evaluation fails is left as it is: it fails (or is never needed) at
//! exploration time exactly as before.
//!
//! Owns only the folding; evaluating is `rewriter`.

use crate::rewriter::Rewriter;
use crate::term::{MapInfo, Term};
use crate::value::Value;

/// Folds the closed subterms of `t`.
pub fn fold(rw: &Rewriter, t: &mut Term) {
    let mut children_constant = true;
    for c in children(t) {
        fold(rw, c);
        children_constant &= matches!(c, Term::Const(_));
    }
    let foldable = matches!(
        t,
        Term::Ctor(..)
            | Term::Call(..)
            | Term::Builtin(..)
            | Term::If(..)
            | Term::And(..)
            | Term::Or(..)
            | Term::Implies(..)
            | Term::List(_)
            | Term::Set(_)
            | Term::Bag(_)
            | Term::Recogniser(..)
            | Term::Projection(..)
            | Term::Overloaded(..)
            | Term::MapRef(_)
    );
    if !(foldable && children_constant) {
        return;
    }
    // Closed, and no binder below: the environment is never read.
    match rw.eval(t, &mut [], 0) {
        Ok(Value::Undefined(_)) | Err(_) => {}
        Ok(v) => *t = Term::Const(v),
    }
}

/// Folds the right-hand sides and conditions of every rewrite rule.
pub fn fold_rules(rw: &Rewriter) -> Vec<MapInfo> {
    let mut maps = rw.maps.clone();
    for rule in maps.iter_mut().flat_map(|m| m.rules.iter_mut()) {
        fold(rw, &mut rule.rhs);
        if let Some(c) = &mut rule.condition {
            fold(rw, c);
        }
    }
    maps
}

/// The direct subterms of `t`.
fn children(t: &mut Term) -> Vec<&mut Term> {
    match t {
        Term::Var(_) | Term::Const(_) | Term::MapRef(_) => Vec::new(),
        Term::Ctor(_, a)
        | Term::Call(_, a, _)
        | Term::Builtin(_, a)
        | Term::List(a)
        | Term::Set(a)
        | Term::Lambda(_, a)
        | Term::Comprehension(_, a, _) => a.iter_mut().collect(),
        Term::Apply(f, a) => std::iter::once(&mut **f).chain(a.iter_mut()).collect(),
        Term::If(a, b, c) | Term::Update(a, b, c) => vec![&mut **a, &mut **b, &mut **c],
        Term::And(a, b) | Term::Or(a, b) | Term::Implies(a, b) => vec![&mut **a, &mut **b],
        Term::Quantifier { body, .. } => vec![&mut **body],
        Term::Whr(b, d) => std::iter::once(&mut **b)
            .chain(d.iter_mut().map(|(_, x)| x))
            .collect(),
        Term::Bag(items) => items.iter_mut().flat_map(|(x, n)| [x, n]).collect(),
        Term::Recogniser(_, a) | Term::Projection(_, _, a) | Term::Overloaded(_, _, a) => {
            vec![&mut **a]
        }
    }
}
