//! Bounded fuzzing of the whole load path (lexer, definitions, parser,
//! loader, compiler) and of exploration: deep nesting, truncations and
//! byte flips of a small seed machine. Every outcome must be a state count
//! (a bounded breadth-first search), a model error or a clean one-line
//! error naming the file; never a panic, and never a stack overflow (which
//! aborts this test binary). Each input runs in a thread with a 2 MiB
//! stack, the smallest a model runs on (see `frontend_testkit::fuzz`).

use frontend_testkit::fuzz::{self, Outcome};

/// The load error of an input past the nesting limit.
const TOO_DEEP: &str = "nested more than";

const SEED: &str = "MACHINE Fuzz
SETS COL = {red, green}
VARIABLES x, s, c
INVARIANT x : 0..3 & s <: 0..3 & c : COL
INITIALISATION x := 0 || s := {} || c := red
OPERATIONS
  inc = PRE x < 3 THEN x := x + 1 || s := s \\/ {x} END;
  swap = IF c = red THEN c := green ELSE c := red END;
  reset(y) = PRE y : s & card(s) > 1 THEN x := y || s := s - {y} END
END
";

/// Loads and explores `text` as `fuzz.mch` ([`fuzz::run`]).
fn run(text: String) -> Result<Outcome, String> {
    fuzz::run(text, "fuzz.mch", bmethod::parse_str)
}

#[test]
fn deep_nesting_is_an_error_or_the_same_count() {
    let n = fuzz::seed_states(run, SEED);
    let guard = "x < 3";
    let with = |e: &str| SEED.replacen(guard, e, 1);
    // Each `0 + (` and each `-(` nests two levels (the operand, the
    // parenthesised expression); the PRE and the operation take a few
    // more: just under the limit, the same state space as the seed.
    let k = (bmethod::MAX_NESTING - 6) / 2;
    let even = k / 2 * 2;
    let same = [
        format!("{}x{} < 3", "0 + (".repeat(k), ")".repeat(k)),
        // an even count keeps the sign
        format!("{}x{} < 3", "-(".repeat(even), ")".repeat(even)),
        format!("{}{guard}{}", "(".repeat(2 * k), ")".repeat(2 * k)),
    ];
    fuzz::assert_preserving(run, same.iter().map(|e| with(e)).collect(), n);
    // Past the limit, up to 100,000 deep: an error at a position.
    let deep: Vec<String> = [bmethod::MAX_NESTING, 100_000]
        .iter()
        .flat_map(|&d| {
            [
                format!("{}x{} < 3", "0 + (".repeat(d), ")".repeat(d)),
                format!("{}{guard}{}", "(".repeat(d), ")".repeat(d)),
            ]
        })
        .map(|e| with(&e))
        .collect();
    fuzz::assert_load_errors(run, deep, TOO_DEEP, "too deep");
}

#[test]
fn truncations_and_byte_flips_are_errors_or_counts() {
    let alphabet = b"()[]{}:=;&|+-*/<>!#%.,'\" xscyTRUEND0123456789\n";
    fuzz::truncations_and_byte_flips(SEED, alphabet, 2_000, run);
}
