//! Models of ProB's examples that use values ProB keeps symbolic (large
//! intervals and comprehensions in constants, `x :: INTEGER`, `S <: {}`
//! for an infinite `S`) or renamed machine instances (`INCLUDES r.M`), or PROPERTIES without
//! solution, or Event-B witnesses of abstract parameters:
//! each must give ProB's counts (`oracle.csv`) plus
//! the root state. Missing dataset: fails under `CI=true`, otherwise
//! prints a notice.

mod common;

use common::{b_dir, oracle};
use frontend_testkit::bfs::{bfs, Bfs};

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
    let Some(dir) = b_dir() else {
        return;
    };
    let rows = oracle(&dir);
    let mut failures = Vec::new();
    for inst in MODELS {
        let row = rows
            .get(*inst)
            .unwrap_or_else(|| panic!("{inst} not in oracle.csv"));
        let (s, t) = (
            row.states.expect("states"),
            row.transitions.expect("transitions"),
        );
        let path = dir.parent().expect("datasets root").join(&row.path);
        let got = match bmethod::parse_file(&path) {
            Ok(m) => match bfs(&m, usize::MAX, None) {
                Bfs::Done(gs, gt) => format!("{gs} / {gt}"),
                Bfs::Error(e) => e.to_string(),
                Bfs::GaveUp(why) => why.to_string(),
            },
            Err(e) => e.to_string(),
        };
        if got != format!("{} / {t}", s + 1) {
            failures.push(format!("{inst}: {got}, oracle {s}+1 / {t}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
