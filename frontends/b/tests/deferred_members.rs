//! Models of ProB's collection whose PROPERTIES make constants elements
//! of the parts of a partition of a deferred set (`aa : P1 & bb : P2`,
//! `deferred_part_members`), or split a set of known size into parts said
//! of equal sizes (`deferred_equal_parts`), or into sets listed by
//! constants and constant parts (`deferred_listed_parts`). Each is loaded and explored
//! with a naive BFS; its counts must be ProB's (`oracle.csv`, read here)
//! plus the root state. Missing dataset: fails under `CI=true`,
//! otherwise prints a notice.

mod common;

use common::assert_oracle_matches;

/// Classical B instances of `oracle.csv`, each explored in well under a
/// second in release.
const MODELS: &[&str] = &[
    "B/SymmetryReduction/StaticSymmetryReduction/DefSetPartTest4",
    "B/SymmetryReduction/StaticSymmetryReduction/DefSetPartTest5",
];

#[test]
fn elements_of_partition_parts_match_prob() {
    assert_oracle_matches(MODELS, Some("b"), 100_000, "elements of partition parts");
}

/// Event-B instances of `oracle.csv`: `partition(DEFSET, {a, b, c}, {d,
/// e, f}, gg, hh)`.
const EVENTB_MODELS: &[&str] = &["EventBPrologPackages/Laws/TestPartitionDeferredSetCardMch_mch"];

#[test]
fn partitions_into_listed_parts_match_prob() {
    assert_oracle_matches(EVENTB_MODELS, Some("eventb"), 100_000, "listed parts");
}
