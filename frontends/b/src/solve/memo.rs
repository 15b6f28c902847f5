//! The elements of a step's generating set that mentions none of the
//! binder's identifiers (`f : ID -->> ID` after `aa : ID & bb : ID ..`,
//! ProB's DefSetStatiSymTest), computed once per call of `solve` rather
//! than once per candidate of the steps before it: within one call the
//! slots and the outer locals do not change, so neither does the set.
//! Whether the evaluation met a set ProB may keep symbolic
//! ([`Env::symbolic`]) is remembered with the elements.

use super::plan::idents;
use crate::ast::*;
use crate::eval::{Env, E};
use crate::value::Value;

/// What is known of one step's generating set.
#[derive(Clone)]
enum Known {
    /// Not looked at yet.
    Unseen,
    /// It mentions one of the binder's identifiers: evaluated each time.
    Varying,
    /// Its elements, and whether evaluating it set [`Env::symbolic`].
    Fixed(Vec<Value>, bool),
}

/// The remembered elements, per step of a plan.
pub struct Memo(Vec<Known>);

impl Memo {
    pub fn new(steps: usize) -> Self {
        Memo(vec![Known::Unseen; steps])
    }

    /// `env.elements(set)` for the generating set of step `k`.
    pub fn elements(&mut self, k: usize, set: &Expr, ids: &[Sym], env: &mut Env) -> E<Vec<Value>> {
        match &self.0[k] {
            Known::Fixed(v, symbolic) => {
                env.symbolic |= *symbolic;
                return Ok(v.clone());
            }
            Known::Varying => return super::fast_sets::elements(set, env),
            Known::Unseen => {}
        }
        let mut seen = Vec::new();
        idents(set, &mut seen);
        if seen.iter().any(|s| ids.contains(s)) {
            self.0[k] = Known::Varying;
            return super::fast_sets::elements(set, env);
        }
        let before = env.symbolic;
        env.symbolic = false;
        let r = super::fast_sets::elements(set, env);
        let symbolic = env.symbolic;
        env.symbolic |= before;
        let v = r?;
        self.0[k] = Known::Fixed(v.clone(), symbolic);
        Ok(v)
    }
}
