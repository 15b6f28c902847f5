//! Unit tests of the subsets of `x <: E` pruned by the conjuncts checked
//! first (`solve::subsets`): the counts equal those of the full
//! enumeration (the same machine with a leading check the pruning does
//! not read past: `max` may fail with a well-definedness error), and sets too large to enumerate every subset of are
//! enumerated when a cardinality bounds the subsets.

use crate::tests::{count, first_error};

/// `add(w)` with `PRE w <: 1..8 & LEAD w /\ s = {} & card(w) + card(s) = 3`.
fn disjoint_machine(lead: &str) -> String {
    format!(
        "MACHINE P VARIABLES s INVARIANT s <: 1..8 INITIALISATION s := {{}}
         OPERATIONS add(w) = PRE w <: 1..8 & {lead} w /\\ s = {{}} &
           card(w) + card(s) = 3 THEN s := s \\/ w END END"
    )
}

#[test]
fn disjoint_and_card_chain_prune_as_the_full_enumeration() {
    let pruned = count(&disjoint_machine(""));
    let full = count(&disjoint_machine("max(w \\/ {0}) >= 0 &"));
    assert_eq!(pruned, full);
    // root, {}, the C(8,3) = 56 sets of 3; edges: init, 56 adds, and from
    // each set of 3 the add of {} (disjoint, card 0)
    assert_eq!(pruned, (58, 113));
}

/// `pick(w)` with `PRE w OP 1..5 & LEAD card(w) CMP N`.
fn compared_machine(op: &str, lead: &str, cmp: &str) -> String {
    format!(
        "MACHINE C VARIABLES s INITIALISATION s := {{0}}
         OPERATIONS pick(w) = PRE w {op} 1..5 & {lead} card(w) {cmp} THEN s := w END END"
    )
}

#[test]
fn card_comparisons_prune_as_the_full_enumeration() {
    for op in ["<:", "<<:"] {
        for cmp in ["< 2", "<= 2", "> 3", ">= 3", "= 5", "= 0", "= 7", "+ 1 = 3"] {
            let pruned = count(&compared_machine(op, "", cmp));
            let full = count(&compared_machine(op, "max(w \\/ {0}) >= 0 &", cmp));
            assert_eq!(pruned, full, "{op} {cmp}");
        }
    }
}

#[test]
fn a_card_bound_enumerates_subsets_of_a_large_set() {
    let machine = |lead: &str| {
        format!(
            "MACHINE L VARIABLES s INITIALISATION s := {{0}}
             OPERATIONS pick(w) = PRE w <: 1..40 & {lead} card(w) = 2 THEN s := w END END"
        )
    };
    // root, {0} and the C(40,2) = 780 pairs; edges: init and 780 picks
    // from each of the 781 states
    assert_eq!(count(&machine("")), (782, 1 + 780 * 781));
    // without the pruning, 2^40 subsets are refused
    let e = first_error(&machine("max(w \\/ {0}) >= 0 &")).unwrap_or_default();
    assert!(e.contains("subsets of a set of 40 elements"), "{e}");
}
