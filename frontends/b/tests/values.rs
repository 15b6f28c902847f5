//! Models of ProB's examples that use values ProB keeps symbolic (large
//! intervals and comprehensions in constants, `x :: INTEGER`, `S <: {}`
//! for an infinite `S`) or renamed machine instances (`INCLUDES r.M`), or PROPERTIES without
//! solution, or Event-B witnesses of abstract parameters:
//! each must give ProB's counts (`oracle.csv`) plus
//! the root state. Missing dataset: fails under `CI=true`, otherwise
//! prints a notice.

mod common;

use common::assert_oracle_matches;

const MODELS: &[&str] = &[
    "B/Tickets/Vu_Inclusion/BError_4",
    "B/Tickets/PROB-406/Y2",
    "B/Tickets/102/Relations_mch",
    "EventBPrologPackages/Swap/Swap0_mch",
    "B/Daniel/Kodkod/LargerSet",
    "B/PerformanceTests/DataValidationTest",
    "B/Tickets/PROB-356/data",
    "B/FeatureChecks/RenameParameterTests/Customer",
    "B/FeatureChecks/RenameParameterTests/MyTwoDatas",
    "B/Tickets/Vu_Inclusion/BError_2",
    "B/Other/LustreTranslations/Lift",
    "B/ErrorMachines/InconsistentPROPERTIES",
    "B/PerformanceTests/SMTLIB/IDL_SimpleUnsat",
    "EventBPrologPackages/RefinementChecking/CCounter_mch",
];

#[test]
fn symbolic_value_models_match_prob() {
    assert_oracle_matches(MODELS, None, usize::MAX, "symbolic values");
}
