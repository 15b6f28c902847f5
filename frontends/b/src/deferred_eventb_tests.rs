//! Unit tests of `symmetry`'s constants of a deferred set said pairwise
//! distinct and nothing else: in an Event-B context the SETUP_CONSTANTS
//! step stays (one MACE-ordered solution); in classical B they stay
//! refused. Counts computed by hand.

use frontend_testkit::bfs::{bfs, Bfs};

/// A context with deferred set `D` and constants `d1 : D`, `d2 : D`,
/// `d1 /= d2`.
fn distinct_pair() -> String {
    let id = |n: &str| format!("identifier(none,{n})");
    let (d, d1, d2) = (id("'D'"), id("d1"), id("d2"));
    format!(
        "package(load_event_b_project([],[event_b_context(none,c,[extends(none,[]),
          constants(none,[{d1},{d2}]),
          axioms(none,[member(none,{d1},{d}),member(none,{d2},{d}),not_equal(none,{d1},{d2})]),
          theorems(none,[]),sets(none,[deferred_set(none,'D')])])],[],_E))."
    )
}

#[test]
fn distinct_constants_of_an_event_b_context_keep_the_setup_step() {
    // D of 2 elements: d1 = D1, d2 = D2 in MACE order, one solution:
    // root + 1 constants state + 1 initialised state; 1 setup + 1 init
    // edge
    let m = crate::parse_str(&distinct_pair(), "c_ctx.eventb").expect("model");
    match bfs(&m, 1000, None) {
        Bfs::Done(s, t) => assert_eq!((s, t), (3, 2)),
        _ => panic!("not explored"),
    }
}

#[test]
fn distinct_constants_of_a_classical_machine_stay_refused() {
    let e = crate::tests_setsize::refusal(
        "MACHINE C SETS D CONSTANTS d1, d2 PROPERTIES d1 : D & d2 : D & d1 /= d2 END",
    );
    assert!(e.contains("said distinct and nothing else"), "{e}");
}
