//! Models of ProB's collection whose PROPERTIES make a constant an
//! element of a constant set of a deferred set's elements (`pw : waiting
//! & waiting <: PID`; `root : Dir` with `Dir` typed by a relation closed
//! by `closure`: `solve::deferred_homogeneous`), or a bijection onto
//! `INTEGER` size a deferred set (`deferred_integer_bijection`). Each is
//! loaded and explored with a naive BFS; its counts must be ProB's
//! (`oracle.csv`, read here) plus the root state. Missing dataset: fails
//! under `CI=true`, otherwise prints a notice.

mod common;

use common::assert_oracle_matches;

/// Classical B instances of `oracle.csv`, each explored in well under a
/// second in release.
const MODELS: &[&str] = &["B/BZTT/PO_Scheduler", "B/Alloy/ToyFileSystem"];

#[test]
fn elements_of_typed_constant_sets_match_prob() {
    assert_oracle_matches(MODELS, Some("b"), 100_000, "elements of typed sets");
}

/// Event-B instances of `oracle.csv`: `bij : S1 >->> INTEGER`.
const EVENTB_MODELS: &[&str] = &["EventBPrologPackages/Laws/KuratowskiPairDefinition_INT_ctx"];

#[test]
fn a_bijection_onto_integer_matches_prob() {
    assert_oracle_matches(EVENTB_MODELS, Some("eventb"), 100_000, "integer bijection");
}
