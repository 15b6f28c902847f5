//! Event-B exports (`.eventb`) through the B front-end: a few small models
//! of ProB's collection (contexts only, a refinement chain, abstract
//! variables the refinement drops, partitioned carrier sets, event
//! parameters, becomes-such-that actions, older exports) are loaded
//! and explored with a naive BFS; their counts must be ProB's
//! (`oracle.csv`, read here) plus the root state. Also checks that an
//! Event-B construct the front-end does not know is refused as
//! unsupported, naming the construct.
//! Missing dataset: fails under `CI=true`, otherwise prints a notice.

mod common;

use common::assert_oracle_matches;

/// Instances of `oracle.csv` (formalism `eventb`, a few hundred states at
/// most).
const MODELS: &[&str] = &[
    "B/Puzzles/ShapiroChallenge/JobsPuzzle_ctx",
    "EventBPrologPackages/Simple/Waterboiler_mch",
    "EventBPrologPackages/Simple/BeverageVendingMachine_mch",
    "EventBPrologPackages/scheduler",
    "EventBPrologPackages/Advance/DoorLockSystem/DOOR_31May2013/DOORR2_mch",
    "EventBPrologPackages/Laws/generalized_union_inter_ctx",
    "EventBPrologPackages/ABZ_Landing_Gear_Journal/Ref1_Valve_mch",
    "EventBPrologPackages/BridgePuzzle/Bridge_mch",
    "EventBPrologPackages/HD_ABZ16/m5_mch",
    // abstract variables dropped by the refinement
    "ProofObligations/Abrial_ABZ_Devel1/LPN4_mch",
    // an older export (event/7, package without extras)
    "EventBPrologPackages/TestLargeRel",
    // an event merging abstract events that act differently on a dropped
    // variable
    "EventBPrologPackages/Merging/merging_R2",
];

#[test]
fn small_event_b_models_match_prob() {
    assert_oracle_matches(MODELS, Some("eventb"), 100_000, "Event-B");
}

#[test]
fn unknown_event_b_construct_is_unsupported() {
    let dir = std::env::temp_dir().join(format!("bmethod-eventb-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("Odd_ctx.eventb");
    let text = "package(load_event_b_project([],[event_b_context(none,'Odd',\
        [extends(none,[]),constants(none,[identifier(none,c)]),\
        axioms(none,[equal(rodinpos('Odd',axm1,x),identifier(none,c),\
        strange_operator(none,integer(none,1)))]),theorems(none,[]),sets(none,[])])],[],_E)).";
    std::fs::write(&path, text).expect("write");
    let r = bmethod::parse_file(&path);
    let _ = std::fs::remove_dir_all(&dir);
    let Err(e) = r else {
        panic!("a model built from an unknown construct")
    };
    assert_eq!(e.kind(), bmethod::ErrorKind::Unsupported, "{e}");
    let msg = e.to_string();
    assert!(
        msg.contains("strange_operator") && msg.contains("axm1"),
        "{msg}"
    );
}
