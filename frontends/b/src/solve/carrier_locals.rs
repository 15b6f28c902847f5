//! Type samples of the locals a solver step binds to a value that shows
//! no type: `c = {}` among the candidates of `c : graph +-> C` (the
//! comprehension `valid = {c | c : graph +-> C & !x.(!y.(!d.((x |-> y)
//! |-> d : c => ..)))}` of the Vizing_Breitner models). `typing` reads
//! `x`'s type from `c`'s value; when that value is empty it tries the
//! same witness on type samples (`declared::sample_env`), which hold a
//! value of each state slot's declared type: this module gives such a
//! local a sample of the set it was drawn from, `{(v |-> v) |-> c0}` here.
//!
//! Sound for the same reason as `declared`'s samples: the local holds a
//! value of the declared set's element type (`x : E`) or of its powerset
//! (`x <: E`) whatever its value; only the carrier is read from the
//! sample, never a count.
//!
//! Owns the recording of those samples (while a step's locals are bound)
//! and their reading into a sample environment; must not change any value
//! a predicate is evaluated on.

use super::plan::{Gen, Step};
use crate::ast::*;
use crate::eval::Env;
use crate::value::Value;

/// Records a type sample for the local the step `st` has just bound at
/// `env.locals[base]`, if its value shows no type and the step drew it
/// from a declared set (`x : E` or `x <: E`, conjunct of `cs`).
pub fn record(st: &Step, cs: &[&Expr], base: usize, env: &mut Env) {
    let (c, subset) = match &st.gen {
        Gen::In { c } => (*c, false),
        Gen::Subset { c, .. } => (*c, true),
        _ => return,
    };
    let (Some(local), ExprKind::Bin(_, a, set)) = (env.locals.get(base), &cs[c].kind) else {
        return;
    };
    if st.vars.len() != 1
        || !matches!(a.kind, ExprKind::Ident(_))
        || !super::declared::typeless(&local.1)
    {
        return;
    }
    let Some(e) = super::declared::elem_sample(set, env) else {
        return;
    };
    let sample = if subset { Value::set(vec![e]) } else { e };
    env.local_samples.push((base, sample));
}

/// Gives each local with a recorded sample that sample in `s`.
pub fn apply(s: &mut Env) {
    for (k, v) in std::mem::take(&mut s.local_samples) {
        if let Some(l) = s.locals.get_mut(k) {
            l.1 = v.clone();
        }
        s.local_samples.push((k, v));
    }
}

#[cfg(test)]
mod tests {
    use crate::tests::count;

    /// `valid`: the relations `c` of `decl` whose every pair maps to
    /// `TRUE`, the quantified `x` and `d` typed only by `x |-> d : c`
    /// (`c = {}` is the first candidate: its sample gives S * BOOL).
    fn valid_machine(decl: &str) -> String {
        format!(
            "MACHINE L SETS S = {{a, b}} CONSTANTS valid
             PROPERTIES valid = {{c | {decl} &
               !x.(x /: {{}} => !d.(d /: {{}} => (x |-> d : c => d = TRUE)))}}
             VARIABLES v INVARIANT v : valid INITIALISATION v := {{}}
             OPERATIONS set(f) = PRE f : valid THEN v := f END END"
        )
    }

    #[test]
    fn local_drawn_from_a_function_space() {
        // valid = the 4 functions of a subset of S to TRUE: states: the
        // constants' and v in valid (4), plus the root; transitions: setup,
        // init, and 4 per state
        assert_eq!(count(&valid_machine("c : S +-> BOOL")), (6, 18));
    }

    #[test]
    fn local_drawn_from_subsets() {
        // the same 4 relations, as subsets of S * BOOL
        assert_eq!(count(&valid_machine("c <: S * BOOL")), (6, 18));
    }
}
