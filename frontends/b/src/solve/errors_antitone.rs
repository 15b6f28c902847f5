//! The conjuncts that prune a function built point by point (`fspace`)
//! because they are antitone in it: `f` occurs only as `t : f` (or in
//! `dom(f)`, `ran(f)`) where a larger `f` can only make the conjunct
//! false (see `monotone`), as in graph colouring's `!(n1, n2, c1, c2).(n1
//! |-> n2 : GRAPH & n1 |-> c1 : f & n2 |-> c2 : f => c1 /= c2)`. Such a
//! conjunct false on the points chosen so far is false on every function
//! extending them, so the search drops that branch. Coloring_40_wo_axm9's
//! action `colored_nodes_m0 :| colored_nodes_m0' : NODES --> COLORS &
//! ...` over 40 nodes and two colours (2^40 functions) then finds that
//! the graph, which has an odd cycle, has no colouring: ProB's
//! `action_not_executable`.
//!
//! Unlike the conjuncts applying `f` (`fast_forall`), an instance true
//! now may turn false as points are chosen, so these are evaluated whole
//! at each point. Owns only the choice of these conjuncts.

use crate::ast::*;

/// The conjuncts among `checks` of `cs` antitone in `f` that `applied`
/// (the conjuncts applying `f` only) has not taken.
pub(super) fn conjuncts<'a>(
    f: Sym,
    cs: &[&'a Expr],
    checks: &[usize],
    applied: &dyn Fn(&Expr) -> bool,
) -> Vec<&'a Expr> {
    checks
        .iter()
        .map(|&c| cs[c])
        .filter(|e| !applied(e) && super::monotone::antitone_in(e, f))
        .collect()
}
