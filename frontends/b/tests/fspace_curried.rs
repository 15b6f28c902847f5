//! Models of ProB's collection whose constant is a curried function
//! `f : D1 --> (D2 --> R)` with a range too large to enumerate, solved by
//! searching the points of `D1 * D2` (`solve::fspace_curried`): Sudoku
//! boards `Board : 1..9 --> (1..9 --> 1..9)`. Each is loaded and explored
//! with a naive BFS; its counts must be ProB's (`oracle.csv`, read here)
//! plus the root state. Missing dataset: fails under `CI=true`, otherwise
//! prints a notice.

mod common;

use common::assert_oracle_matches;

/// Classical B instances of `oracle.csv`, each explored in about five
/// seconds in release.
const MODELS: &[&str] = &["B/Puzzles/SudokuAsConstant"];

#[test]
fn curried_function_spaces_solved_point_by_point_match_prob() {
    assert_oracle_matches(MODELS, Some("b"), 100_000, "curried function-space");
}
