//! Tests of the narrowed candidates of large unions and relations
//! (`carrier_union`, `carrier_relations`, the reading past checks free of
//! well-definedness errors, `carrier_wdfree`): small machines whose
//! counts are brute-forced here.

use crate::tests::{count, first_error};

/// The `k`-element subsets of `0..n`, as masks (brute force).
fn subsets_of_size(n: u32, k: u32) -> usize {
    (0u64..(1 << n)).filter(|m| m.count_ones() == k).count()
}

#[test]
fn a_union_part_holds_the_elements_no_other_operand_covers() {
    // S has 27 elements (more than the 2^24 subsets taken whole); b has 3:
    // a = (S - b) \/ T for each T <: b
    let m = "MACHINE U SETS ID = {aa, bb, cc} CONSTANTS a, b, S
             PROPERTIES S = ID * ID * ID & a \\/ b = S & b = {aa} * {aa} * ID
             VARIABLES n INVARIANT n : NATURAL INITIALISATION n := card(a) END";
    let solutions = 1 << 3;
    // root + one state per solution, constants and initialised
    assert_eq!(count(m), (1 + 2 * solutions, 2 * solutions));
}

#[test]
fn a_disjoint_union_part_is_the_rest_of_the_set() {
    let m = "MACHINE U SETS ID = {aa, bb, cc} CONSTANTS a, b, c, S
             PROPERTIES S = ID * ID * ID * ID & a \\/ b \\/ c = S &
               a /\\ b = {} & a /\\ c = {} & b /\\ c = {} &
               b = ID * {aa} * ID * {cc} & c = ID * {bb} * ID * {cc}
             VARIABLES n INVARIANT n : NATURAL INITIALISATION n := card(a) END";
    assert_eq!(count(m), (3, 2));
}

#[test]
fn a_large_relation_is_pruned_by_its_cardinality() {
    // rr : (1..6) <-> (1..5), 30 pairs; dom(rr) = {1} & card(rr) = 2: two
    // of the 5 pairs from 1
    let m = "MACHINE R VARIABLES v INVARIANT v : (1..6) <-> (1..5)
             INITIALISATION v := {}
             OPERATIONS set(rr) = PRE rr : (1..6) <-> (1..5) & dom(rr) = {1} &
               card(rr) = 2 THEN v := rr END END";
    let params = subsets_of_size(5, 2);
    // root + {} + one state per parameter; init + from every state each
    let states = 2 + params;
    assert_eq!(count(m), (states, 1 + (states - 1) * params));
}

#[test]
fn a_check_that_may_fail_stops_the_pruning() {
    // `10 / card(rr)` may divide by zero before `card(rr) = 2` is read:
    // the full enumeration (2^30 relations) is refused
    let m = "MACHINE R VARIABLES v INVARIANT v : (1..6) <-> (1..5)
             INITIALISATION v := {}
             OPERATIONS set(rr) = PRE rr : (1..6) <-> (1..5) & 10 / card(rr) = 5 &
               card(rr) = 2 THEN v := rr END END";
    let e = first_error(m);
    assert!(e.is_some_and(|e| e.contains("subsets of a set of 30")));
}

#[test]
fn an_integer_parameter_fixed_by_a_decided_implication() {
    // b = TRUE: foo = 1; b = FALSE: foo ranges over MININT..MAXINT
    let m = "MACHINE I VARIABLES b, y INVARIANT b : BOOL & y : INTEGER
             INITIALISATION b := TRUE || y := 0
             OPERATIONS
               flip = BEGIN b := bool(b = FALSE) END;
               set = ANY foo WHERE foo : INTEGER & (b = TRUE => foo = 1) THEN y := foo END
             END";
    let ys: Vec<i64> = (-1..=3).collect();
    // reachable: (TRUE, 0), (FALSE, 0), (TRUE, 1) via set, (FALSE, 1),
    // then every (FALSE, y) and (TRUE, y) by flipping
    let states: Vec<(bool, i64)> = [true, false]
        .into_iter()
        .flat_map(|b| ys.iter().map(move |&y| (b, y)))
        .collect();
    let set_edges: usize = states
        .iter()
        .map(|&(b, _)| if b { 1 } else { ys.len() })
        .sum();
    // root + states; init + a flip and the set edges from each state
    assert_eq!(count(m), (1 + states.len(), 1 + states.len() + set_edges));
}
