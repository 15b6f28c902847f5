//! Models of ProB's collection whose PROPERTIES fix a total function into
//! an infinite set by a start and a recurrence (`f(first) = 0 &
//! !x.(P => f(next(x)) = f(x) + 1)`, `solve::points`). Each is loaded and
//! explored with a naive BFS; its counts must be ProB's (`oracle.csv`,
//! read here) plus the root state. Missing dataset: fails under
//! `CI=true`, otherwise prints a notice.

mod common;

use common::assert_oracle_matches;

/// Classical B: Pascal's triangle row by row.
const MODELS: &[&str] = &["B/Mathematical/BinomialCoefficients"];

#[test]
fn binomial_coefficients_by_recurrence_match_prob() {
    assert_oracle_matches(MODELS, Some("b"), 100_000, "recurrence");
}

/// Event-B: `VSS_i(Next_VSS(v)) = VSS_i(v) + 1` from `VSS_i(Fst_VSS) =
/// 0` (1,025 states).
const EVENTB_MODELS: &[&str] = &["EventBPrologPackages/UML_HL3/Env_M3_mch"];

#[test]
fn section_indices_by_recurrence_match_prob() {
    assert_oracle_matches(EVENTB_MODELS, Some("eventb"), 100_000, "recurrence");
}
