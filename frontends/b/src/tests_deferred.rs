//! Unit tests of `deferred_given` (PROPERTIES without solution when every
//! deferred set's size is given) and `deferred_mincard` (sizes demanded
//! by bijections and surjections, and by constants said distinct), on
//! small machines whose counts are computed by hand.

use frontend_testkit::bfs::{bfs, Bfs};

use crate::tests::count;

/// The outcome of exploring `text`: its counts (root included), or the
/// error message.
pub(crate) fn explore(text: &str) -> Result<(u64, u64), String> {
    let m = crate::parse_str(text, "t.mch").map_err(|e| e.to_string())?;
    match bfs(&m, 1000, None) {
        Bfs::Done(s, t) => Ok((s, t)),
        Bfs::Error(e) => Err(e.to_string()),
        Bfs::GaveUp(_) => Err("gave up".into()),
    }
}

#[test]
fn unsatisfiable_properties_with_given_sizes_have_no_state() {
    // card(S) = 3 given, or S named by no conjunct: ProB infers no other
    // size, so no solution is its 0 states (the root alone here)
    for props in [
        "card(S) = 3 & x : S & x /= x",
        "x : BOOL & n > 5",
        "x : S & x /= x & card(S) = 1 + 1",
    ] {
        let text = format!("MACHINE C SETS S CONSTANTS x, n PROPERTIES n : 1..3 & {props} END");
        assert_eq!(explore(&text), Ok((1, 0)), "{props}");
    }
    // S named without a size: ProB may infer one
    let e = explore("MACHINE C SETS S CONSTANTS x PROPERTIES x : S & x /= x END").unwrap_err();
    assert!(e.contains("whose size ProB may infer"), "{e}");
}

#[test]
fn a_bijection_from_a_product_sizes_the_deferred_set() {
    // f : BOOL * BOOL >->> S: S has 4 elements, f is fixed (bijection):
    // root + 1 constants state + 4 states (x :: S); 1 + 4 edges
    let (s, t) = count(
        "MACHINE C SETS S CONSTANTS f PROPERTIES f : BOOL * BOOL >->> S
         VARIABLES x INITIALISATION x :: S END",
    );
    assert_eq!((s, t), (6, 5));
}

#[test]
fn a_surjection_onto_a_larger_set_sizes_the_deferred_set() {
    // f : S -->> 1..3: S has 3 elements and every one of the 3! = 6
    // surjections stays: root + 6 constants states + 6 states; 6 + 6 edges
    let (s, t) = count(
        "MACHINE C SETS S CONSTANTS f PROPERTIES f : S -->> 1..3
         VARIABLES x INITIALISATION x := 0 END",
    );
    assert_eq!((s, t), (13, 12));
    // onto 1..1 the default size stays: one function, root + 1 + 1
    let (s, t) = count(
        "MACHINE C SETS S CONSTANTS f PROPERTIES f : S -->> 1..1
         VARIABLES x INITIALISATION x := 0 END",
    );
    assert_eq!((s, t), (3, 2));
}

#[test]
fn a_bijection_from_a_product_of_a_deferred_set_is_fixed() {
    // f : D * D >->> S: S has 4 elements, f is fixed, a : S stays free:
    // root + 4 constants states + 4 states; 4 + 4 edges
    let (s, t) = count(
        "MACHINE C SETS D; S CONSTANTS f, a PROPERTIES f : D * D >->> S & a : S
         VARIABLES x INITIALISATION x := a END",
    );
    assert_eq!((s, t), (9, 8));
    // D with a constant element: refused
    let e = explore(
        "MACHINE C SETS D; S CONSTANTS f, c PROPERTIES f : D * D >->> S & c : D
         VARIABLES x INITIALISATION x := c END",
    )
    .unwrap_err();
    assert!(e.contains("constant elements"), "{e}");
}

#[test]
fn a_partition_into_singletons_beside_other_constants_sizes_the_set() {
    // S = {a} \/ {b} \/ {c}, pairwise disjoint: S has 3 elements and a, b,
    // c one value (symmetry); f : S --> BOOL keeps the SETUP_CONSTANTS
    // step: 8 solutions, root + 8 + 8 states, 8 + 8 edges
    let props = "S = {a} \\/ {b} \\/ {c} & {a} /\\ {b} = {} & {a} /\\ {c} = {} & {b} /\\ {c} = {}";
    let (s, t) = count(&format!(
        "MACHINE C SETS S CONSTANTS a, b, c, f PROPERTIES {props} & f : S --> BOOL
         VARIABLES x INITIALISATION x := f(a) END"
    ));
    assert_eq!((s, t), (17, 16));
    // nothing else: ProB may drop the step, refused
    let e = explore(&format!(
        "MACHINE C SETS S CONSTANTS a, b, c PROPERTIES {props}
         VARIABLES x INITIALISATION x := a END"
    ))
    .unwrap_err();
    assert!(e.contains("pairwise distinct"), "{e}");
}

#[test]
fn a_bijection_over_a_deferred_set_with_one_solution_is_accepted() {
    // n : S >->> S without fixed points: over 2 elements only the swap,
    // root + 1 + 1 states, 1 + 1 edges; over 3 elements two cycles, one
    // orbit, both kept by the modelled reductions (ProB keeps one or
    // both: refused, `deferred_unique`)
    let m = |card: &str| {
        format!(
            "MACHINE C SETS S CONSTANTS n PROPERTIES {card} n : S >->> S & !x.(x : S => n(x) /= x)
             VARIABLES x INITIALISATION x := 0 END"
        )
    };
    assert_eq!(explore(&m("")), Ok((3, 2)));
    let e = explore(&m("card(S) = 3 &")).unwrap_err();
    assert!(e.contains("2 solutions, 2 kept"), "{e}");
}

#[test]
fn constants_said_pairwise_distinct_size_the_deferred_set() {
    // a, b, c : S pairwise distinct: S has 3 elements; the MACE-style
    // enumeration (`symmetry`) leaves a = 0, b = 1, c = 2 (n = 1 keeps
    // the SETUP_CONSTANTS step); x :: S: root + 1 constants state + 3
    // states; 1 + 3 edges
    let (s, t) = count(
        "MACHINE C SETS S CONSTANTS a, b, c, n
         PROPERTIES a : S & b : S & c : S & a /= b & a /= c & b /= c & n = 1
         VARIABLES x INITIALISATION x :: S END",
    );
    assert_eq!((s, t), (5, 4));
    // a /= c missing: two distinct suffice, the default size stays;
    // a = 0, b = 1, c : {0, 1} with c /= b: c = 0; root + 1 + 2; 1 + 2
    let (s, t) = count(
        "MACHINE C SETS S CONSTANTS a, b, c, n
         PROPERTIES a : S & b : S & c : S & a /= b & b /= c & n = 1
         VARIABLES x INITIALISATION x :: S END",
    );
    assert_eq!((s, t), (4, 3));
}

#[test]
fn a_bijection_onto_a_power_set_sizes_the_deferred_set() {
    // f : S >->> POW(BOOL): S has 4 elements, f fixed (`bijection`),
    // x :: S: root + 1 + 4 states; 1 + 4 edges
    let (s, t) = count(
        "MACHINE C SETS S CONSTANTS f PROPERTIES f : S >->> POW(BOOL)
         VARIABLES x INITIALISATION x :: S END",
    );
    assert_eq!((s, t), (6, 5));
}

#[test]
fn a_bijection_from_an_interval_up_to_a_deferred_set_size_is_fixed() {
    // card(V) = 3 and f : 1..card(V) >->> T: T has 3 elements and f is
    // fixed (one of the 3! bijections); x :: T: root + 1 + 3; 1 + 3
    let (s, t) = count(
        "MACHINE C SETS V; T CONSTANTS f PROPERTIES card(V) = 3 & f : 1..card(V) >->> T
         VARIABLES x INITIALISATION x :: T END",
    );
    assert_eq!((s, t), (5, 4));
}

#[test]
fn a_constant_in_natural_minus_a_set_with_a_fixed_bijection() {
    // the InitialisationByPredicate contexts: tmax : NATURAL - {0} takes
    // 1..MAXINT (3 values, as tmax : NATURAL1), color : 1..card(V) >->> C
    // is fixed: root + 3 constants states + 3 states; 3 + 3 edges
    let m = |minus: &str| {
        format!(
            "MACHINE C SETS V; C CONSTANTS tmax, color
             PROPERTIES tmax : NATURAL - {minus} & color : 1..card(V) >->> C
             VARIABLES x INITIALISATION x := tmax END"
        )
    };
    assert_eq!(count(&m("{0}")), (7, 6));
    // without 2 as well: 2 values
    assert_eq!(count(&m("{0, 2}")), (5, 4));
}
