//! Unit tests of `deferred_orbits` (the orbit test on values) and of
//! `deferred_unique`'s acceptance of PROPERTIES with an unmodelled
//! symmetry construct whose kept solutions are one per orbit, and of
//! the SETUP_CONSTANTS step kept beside an Event-B listing of a deferred
//! set (`deferred_singletons`). Counts computed by hand.

use crate::deferred_orbits::Orbits;
use crate::value::Value;
use frontend_testkit::bfs::{bfs, Bfs};

fn elem(i: u32) -> Value {
    Value::Elem(0, i)
}

/// The states and transitions of the classical B machine `text`.
fn counts(text: &str) -> (u64, u64) {
    let m = crate::parse_str(text, "t.mch").expect("model");
    match bfs(&m, 100_000, None) {
        Bfs::Done(s, t) => (s, t),
        Bfs::Error(e) => panic!("refused: {e}"),
        _ => panic!("not explored"),
    }
}

#[test]
fn the_elements_of_a_deferred_set_form_one_orbit() {
    // one constant c : S, S of 3 elements: 3 solutions, one orbit
    let orbits = Orbits::new(vec![(0, 3)]);
    let every: Vec<Vec<Value>> = (0..3).map(|i| vec![elem(i)]).collect();
    assert_eq!(orbits.one_per_orbit(&every, &every[1..2]), Some(true));
    assert_eq!(orbits.one_per_orbit(&every, &every[..2]), Some(false));
    assert_eq!(orbits.one_per_orbit(&every, &[]), Some(false));
}

#[test]
fn equal_and_distinct_pairs_are_two_orbits() {
    // two constants of S (2 elements): (a, a) and (b, b) one orbit,
    // (a, b) and (b, a) the other
    let orbits = Orbits::new(vec![(0, 2)]);
    let every: Vec<Vec<Value>> = [(0, 0), (0, 1), (1, 0), (1, 1)]
        .iter()
        .map(|&(x, y)| vec![elem(x), elem(y)])
        .collect();
    let kept = [every[0].clone(), every[1].clone()];
    assert_eq!(orbits.one_per_orbit(&every, &kept), Some(true));
    let same_orbit = [every[0].clone(), every[3].clone()];
    assert_eq!(orbits.one_per_orbit(&every, &same_orbit), Some(false));
}

#[test]
fn sets_and_pairs_are_permuted_inside() {
    // the bijections {a |-> a, b |-> b} and {a |-> b, b |-> a} of S onto
    // itself are two orbits (the identity stays the identity)
    let orbits = Orbits::new(vec![(0, 2)]);
    let bij = |x: u32, y: u32| {
        Value::set(vec![
            Value::pair(elem(0), elem(x)),
            Value::pair(elem(1), elem(y)),
        ])
    };
    let every = vec![vec![bij(0, 1)], vec![bij(1, 0)]];
    assert_eq!(orbits.one_per_orbit(&every, &every), Some(true));
}

#[test]
fn a_bijection_beside_a_partition_in_order_is_accepted() {
    // S of 4 elements split into p and q of 2; neg swaps inside each: 6
    // solutions (the choice of p), one orbit; the partition's order keeps
    // one. States: 1 constants state + 1 initialised state; transitions:
    // setup + initialisation
    let m = "MACHINE M SETS S CONSTANTS neg, p, q PROPERTIES card(S) = 4 &
        neg : S >->> S & neg[p] = p & neg[q] = q & !i.(i : S => neg(i) /= i) &
        card(p) = 2 & card(q) = 2 & p \\/ q = S & p /\\ q = {}
        VARIABLES x INVARIANT x : p INITIALISATION x :: p
        OPERATIONS swap = x := neg(x) END";
    // one solution: 1 constants state, x in p: 2 initialised states,
    // 1 setup + 2 initialisation + 2 swap transitions; bfs counts the root
    assert_eq!(counts(m), (4, 5));
}

#[test]
fn two_bijections_from_one_set_onto_two_are_one_orbit() {
    // f : s >->> t, g : s >->> u, sets of 2: 4 solutions, one orbit, the
    // modelled reductions keep one (as MembershipProperty6)
    let m = "MACHINE M SETS s; t; u CONSTANTS f, g PROPERTIES
        f : s >->> t & g : s >->> u END";
    assert_eq!(counts(m), (3, 2));
}

#[test]
fn two_bijections_between_the_same_sets_stay_refused() {
    // f, g : A >->> B differing everywhere: 2 solutions, one orbit, the
    // modelled reductions keep none (ProB keeps solutions of its own
    // choice: Dining)
    let e = crate::tests_setsize::refusal(
        "MACHINE M SETS A; B CONSTANTS f, g PROPERTIES f : A >->> B &
         g : A >->> B & !x.(x : A => f(x) /= g(x)) END",
    );
    assert!(e.contains("not one per orbit"), "{e}");
}

/// An Event-B context: `D` with `d1, d2 : D` distinct and not listed,
/// `E = {e1, e2}` with `e1 /= e2`, and `more` axioms over constants
/// `extra`.
fn listed_beside(extra: &str, more: &str) -> String {
    let id = |n: &str| format!("identifier(none,{n})");
    let (d, e) = (id("'D'"), id("'E'"));
    let (d1, d2, e1, e2) = (id("d1"), id("d2"), id("e1"), id("e2"));
    format!(
        "package(load_event_b_project([],[event_b_context(none,c,[extends(none,[]),
          constants(none,[{extra}{d1},{d2},{e1},{e2}]),
          axioms(none,[{more}member(none,{d1},{d}),member(none,{d2},{d}),not_equal(none,{d1},{d2}),
            equal(none,{e},set_extension(none,[{e1},{e2}])),not_equal(none,{e1},{e2})]),
          theorems(none,[]),sets(none,[deferred_set(none,'D'),deferred_set(none,'E')])])],[],_E))."
    )
}

fn event_b_counts(text: &str) -> (u64, u64) {
    let m = crate::parse_str(text, "c_ctx.eventb").expect("model");
    match bfs(&m, 1000, None) {
        Bfs::Done(s, t) => (s, t),
        Bfs::Error(e) => panic!("refused: {e}"),
        _ => panic!("not explored"),
    }
}

#[test]
fn distinct_unlisted_constants_keep_the_setup_step_beside_a_listing() {
    // d1, d2 and e1, e2 each in MACE order: one solution; root + 1
    // constants state + 1 initialised state, 1 setup + 1 init edge
    assert_eq!(event_b_counts(&listed_beside("", "")), (3, 2));
}

#[test]
fn a_constant_of_a_listed_set_keeps_the_setup_step() {
    // x : E declared first: x takes either element of E (one solution
    // per orbit, e1 and e2 then fixed): 2 solutions; root + 2 constants
    // states + 2 initialised states, 2 setup + 2 init edges
    let x = "identifier(none,x)";
    let m = listed_beside(
        &format!("{x},"),
        &format!("member(none,{x},identifier(none,'E')),"),
    );
    assert_eq!(event_b_counts(&m), (5, 4));
}
