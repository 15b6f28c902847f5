//! The residual conditions (`residual`) against the interpreter, on every
//! reachable state of small BEEM Promela models: wherever the dispatch
//! lets a transition with a residual through (its guard's comparisons
//! hold), the residual must answer as the interpreter's evaluation of the
//! whole condition (true, false, or the same error). A model the corpus
//! lacks fails the test under CI.

use super::guard_tests::{for_each_offered, small_models};
use super::PromelaModel;
use crate::guard::{verdict, Verdict};
use crate::residual::condition;
use pins::Model;

/// How many (state, transition) pairs were compared; panics at the first
/// one where the residual and the interpreter differ.
fn residual_pairs(m: &PromelaModel) -> u64 {
    let mut compared = 0;
    for_each_offered(m, |s, pid, k| {
        let t = m.ptype_of(s, pid).unwrap_or(0);
        let tr = &m.ptypes[t].auto.trans[k];
        let locals = m.proc_base[pid] + 2;
        // the residual stands for the condition where its comparisons hold
        let open = match tr.guard.conjunction() {
            Some(atoms) => verdict(atoms, s, locals) == Verdict::Open,
            None => !tr.guard.blocks(s, locals),
        };
        if !open {
            return;
        }
        let Some(by_rest) = tr.residual.holds(s, &m.env(pid)) else {
            return;
        };
        compared += 1;
        let cond = condition(&tr.act).expect("a residual has a condition");
        let by_tree = m.eval(s, pid, cond).map(|v| v != 0);
        assert_eq!(
            by_rest.map_err(|e| e.to_string()),
            by_tree.map_err(|e| e.to_string()),
            "{}: residual of transition {k} of process {pid} in {s:?}",
            m.name()
        );
    });
    compared
}

#[test]
fn residuals_answer_as_the_whole_condition() {
    let Some(files) = small_models() else {
        return;
    };
    let applied = (files.iter())
        .filter(|f| residual_pairs(&crate::parse_file(f).expect("parses")) > 0)
        .count();
    // BEEM's grid models (frogs, blocks, ...) index arrays by variables
    // after a scalar comparison
    assert!(applied > 0, "residuals compared in no model");
}
