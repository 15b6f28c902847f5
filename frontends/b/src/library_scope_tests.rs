//! Unit tests of ProB's `SCOPE` definition (`library_scope`): states
//! outside it are neither counted nor explored, the transitions reaching
//! them are counted. Counts by hand or by a brute force written here.

use crate::tests::count;

/// States (with the root) and transitions of a machine whose states are
/// integers, initialised to each of `inits`, by the successor lists
/// `next` (one entry per transition), under the scope `inside`: ProB's
/// counting with a SCOPE, computed independently of the front-end.
fn brute_force(
    inits: &[i64],
    next: impl Fn(i64) -> Vec<i64>,
    inside: impl Fn(i64) -> bool,
) -> (usize, usize) {
    let mut seen: Vec<i64> = Vec::new();
    let mut transitions = inits.len();
    let mut todo: Vec<i64> = inits.iter().copied().filter(|&x| inside(x)).collect();
    seen.extend(&todo);
    while let Some(x) = todo.pop() {
        for y in next(x) {
            transitions += 1;
            if inside(y) && !seen.contains(&y) {
                seen.push(y);
                todo.push(y);
            }
        }
    }
    (1 + seen.len(), transitions)
}

#[test]
fn an_unbounded_counter_stops_at_the_scope() {
    // x = 0, 1, 2 inside; the step from 2 to 3 is counted, 3 is not
    let text = "MACHINE C DEFINITIONS SCOPE == x < 3
         VARIABLES x INITIALISATION x := 0
         OPERATIONS inc = BEGIN x := x + 1 END END";
    assert_eq!(count(text), (1 + 3, 1 + 3));
    assert_eq!(count(text), brute_force(&[0], |x| vec![x + 1], |x| x < 3));
}

#[test]
fn every_transition_leaving_the_scope_counts() {
    // from each of x = 0, 1: set(v) for five values of v, two inside
    let text = "MACHINE P DEFINITIONS SCOPE == x <= 1; SET_PREF_MAXINT == 7
         VARIABLES x INITIALISATION x := 0
         OPERATIONS
           set(v) = PRE v : 0..4 THEN x := v END;
           twice = BEGIN x := x + 5 END;
           again = BEGIN x := x + 5 END
         END";
    let want = brute_force(&[0], |x| (0..5).chain([x + 5, x + 5]).collect(), |x| x <= 1);
    assert_eq!(want, (1 + 2, 1 + 2 * 7));
    assert_eq!(count(text), want);
}

#[test]
fn a_scope_through_definitions_and_constants() {
    // lim = 2 set up first (its state is never out of scope); x = 0, 1
    let text = "MACHINE D CONSTANTS lim PROPERTIES lim = 2
         DEFINITIONS Small(v) == v < lim; SCOPE == Small(x)
         VARIABLES x INITIALISATION x := 0
         OPERATIONS inc = BEGIN x := x + 1 END END";
    // root, the constants state, x = 0, 1; setup, init, 2 steps
    assert_eq!(count(text), (1 + 1 + 2, 1 + 1 + 2));
}

#[test]
fn initial_states_outside_the_scope_are_not_counted() {
    // x :: 0..3 with x even inside: x = 0, 2; four initialisations
    let text = "MACHINE I DEFINITIONS SCOPE == x mod 2 = 0
         VARIABLES x INITIALISATION x :: 0..3
         OPERATIONS dec = PRE x > 0 THEN x := x - 1 END END";
    let want = brute_force(
        &[0, 1, 2, 3],
        |x| (x > 0).then_some(x - 1).into_iter().collect(),
        |x| x % 2 == 0,
    );
    // 0 and 2 reached; init edges 4, dec from 2 (to 1, outside)
    assert_eq!(want, (1 + 2, 4 + 1));
    assert_eq!(count(text), want);
}

#[test]
fn a_scope_with_parameters_or_in_a_seen_machine_is_refused() {
    let Err(e) = crate::parse_str(
        "MACHINE Q DEFINITIONS SCOPE(v) == v < 3
         VARIABLES x INITIALISATION x := 0
         OPERATIONS inc = BEGIN x := x + 1 END END",
        "t.mch",
    ) else {
        panic!("a SCOPE with parameters accepted");
    };
    let e = e.to_string();
    assert!(e.contains("SCOPE definition"), "{e}");
}
