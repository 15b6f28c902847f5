//! Models on which ProB reported an error (`prob_result` of `oracle.csv`
//! neither `all` nor `not_run`): each must end as a model error (not a
//! count, not a refusal) whose message names the machine's file and the
//! kind of error ProB's result names. Missing dataset: fails under
//! `CI=true`, otherwise prints a notice.

mod common;

use frontend_testkit::bfs::{bfs, Bfs};
use frontend_testkit::corpus;

/// Instance, a word of ProB's `prob_result`, the word our message has.
const MODELS: &[(&str, &str, &str)] = &[
    // a precondition violated (Conflict), reached through lambdas over
    // POW(ID * ID) applied in place
    (
        "ASM/TranslationToB/TestParIf2_normalized",
        "precondition_error",
        "precondition",
    ),
    // Event-B: SEQ_append (a constant) applied in append's action once
    // the sequence is full (ProB's action_not_executable)
    (
        "B/Tickets/Georghe1/seq_m_mch",
        "action_not_executable",
        "action_not_executable",
    ),
    // the negative number reached by Dec, Dec, with AnyInc's xx : (xx >
    // xx$0) at xx = MAXINT left provisional (errors_provisional)
    (
        "B/FeatureChecks/TestPrimedBecomeSuch",
        "mod not defin",
        "modulo of a negative number",
    ),
    // up(m) = c := c + m: m an integer by its use, -1 from MININT
    (
        "B/FeatureChecks/RenameParameterTests/Decomposition/COUNTER",
        "mod not defin",
        "modulo of a negative number",
    ),
    // DSees SEES C: C's inc composed (as ProB's model checker does), so
    // the loop's INVARIANT y > x - 10 fails once x reaches 13
    (
        "B/Tickets/Hansen22_WhileOpCallPrefix/DSees",
        "while_invariant_violation",
        "WHILE loop INVARIANT violated",
    ),
    // SINx(10 - xx, xx) at xx = 10 (reached by Inc10): ProB's external
    // divides by the multiplier 0; the other calls are not modelled and
    // left provisional (errors_math, errors_provisional)
    (
        "B/ExternalFunctions/ErrorInLibraryCall",
        "general_error",
        "division by zero",
    ),
    // fact(x) = x * fact(x - 1) into NATURAL under MAXINT = 100: 21! is
    // beyond 64 bits (errors_recurrence)
    (
        "B/FunctionalProgramming/FactorialNonSymbolic",
        "CLPFD_integer_overflow",
        "CLPFD_integer_overflow",
    ),
    // Event-B: two colours for a graph of 40 nodes with an odd cycle, the
    // colourings searched point by point (errors_antitone)
    (
        "EventBPrologPackages/GraphColouring/Coloring_40_wo_axm9",
        "action_not_executable",
        "action_not_executable",
    ),
];

#[test]
fn prob_error_rows_end_as_model_errors() {
    let Some(dir) = common::b_dir() else {
        return;
    };
    let rows = corpus::csv_columns(
        &dir.join("oracle.csv"),
        &["instance", "path", "prob_result"],
    );
    for (inst, prob_kind, ours) in MODELS {
        let row = rows
            .iter()
            .find(|r| r[0] == *inst)
            .unwrap_or_else(|| panic!("{inst} not in oracle.csv"));
        assert!(
            row[2].contains(prob_kind),
            "{inst}: ProB's result {}",
            row[2]
        );
        let path = dir.parent().expect("datasets root").join(&row[1]);
        let m = bmethod::parse_file(&path).unwrap_or_else(|e| panic!("{inst}: {e}"));
        match bfs(&m, 1_000_000, None) {
            Bfs::Error(e) => {
                let msg = e.to_string();
                assert!(!bmethod::is_unsupported(&e), "{inst}: refused: {msg}");
                let file = path.file_name().expect("file").to_string_lossy();
                assert!(msg.contains(&*file), "{inst}: no file in {msg}");
                assert!(msg.contains(ours), "{inst}: {msg}");
            }
            Bfs::Done(s, t) => panic!("{inst}: counted {s} states / {t} transitions"),
            Bfs::GaveUp(why) => panic!("{inst}: gave up: {why}"),
        }
    }
}
