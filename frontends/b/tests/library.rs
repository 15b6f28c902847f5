//! Models of ProB's examples that use library predicates this front-end
//! evaluates (`STRING_IS_INT`) or preference pragmas given as integer
//! expressions (`SET_PREF_MAXINT == 2**31-1`), SYSTEM machines and
//! ProB's SCOPE definition: each must give ProB's
//! counts (`oracle.csv`) plus the root state. Missing dataset: fails
//! under `CI=true`, otherwise prints a notice.

mod common;

use common::assert_oracle_matches;

const MODELS: &[&str] = &[
    "B/Tickets/SymbolicSubArgs/SymbolicSubArg",
    "B/Tickets/SymbolicSubArgs/NonSymbolicSubArg",
    "B/Tickets/Burlando1/machine_test_PRINTF",
    "B/Tickets/Mejia5/essai_fncs",
    "B/Tickets/Mejia5/essai_titi",
    // SYSTEM machines with EVENTS
    "B/Other/U2B/ADD4_EventB",
    "B/EventB/toy",
    // a SCOPE predicate (`library_scope`)
    "TLA/TLA_Distribution/FIFO/MCInnerFIFO_Internal",
    "B/FeatureChecks/SCOPE_Predicate/scheduler_with_scope",
    "Z/Daniel/tests/scope_b",
    // query operations called in expressions (`library_opexprs`)
    "B/NewSyntax/CallOperationInExprSimple",
    "B/NewSyntax/CallOperationInExprSimple2",
];

#[test]
fn library_and_pragma_models_match_prob() {
    assert_oracle_matches(MODELS, None, usize::MAX, "library predicates and pragmas");
}
