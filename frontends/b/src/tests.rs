//! Unit tests of the whole pipeline on small machines written here: the
//! parser (precedences, definitions, errors with positions) and the counts
//! of tiny state spaces computed by hand.

use pins::Model;

use crate::{parse_str, ErrorKind};

/// (states, transitions) by naive BFS.
pub(crate) fn count(text: &str) -> (usize, usize) {
    let m = parse_str(text, "t.mch").unwrap_or_else(|e| panic!("{e}"));
    pins::validate(&m).expect("valid model");
    frontend_testkit::bfs::count(&m)
}

#[test]
fn counter_modulo() {
    // root + 4 states; init edge + 4 inc edges
    let (s, t) = count(
        "MACHINE C VARIABLES x INVARIANT x : 0..3 INITIALISATION x := 0
         OPERATIONS inc = BEGIN x := (x + 1) mod 4 END END",
    );
    assert_eq!((s, t), (5, 5));
}

#[test]
fn parameters_count_as_distinct_transitions() {
    // set(v) for v : 0..2 from every state: 3 states, 9 op edges + 1 init edge
    let (s, t) = count(
        "MACHINE P VARIABLES x INITIALISATION x := 0
         OPERATIONS set(v) = PRE v : 0..2 THEN x := v END END",
    );
    assert_eq!((s, t), (4, 10));
    // same target, different parameter: two transitions; ANY choices leading
    // to the same state: one
    let (s, t) = count(
        "MACHINE P VARIABLES x INITIALISATION x := 0
         OPERATIONS nop(v) = PRE v : BOOL THEN skip END;
                    any = ANY y WHERE y : 1..3 THEN skip END END",
    );
    assert_eq!((s, t), (2, 4));
}

#[test]
fn constants_give_one_state_per_solution() {
    // PROPERTIES c : 1..3: 3 constant states, 3 initialised states
    let (s, t) = count(
        "MACHINE K CONSTANTS c PROPERTIES c : 1..3 VARIABLES x
         INITIALISATION x := c OPERATIONS skipit = skip END",
    );
    assert_eq!((s, t), (7, 3 + 3 + 3));
}

#[test]
fn defaults_follow_prob() {
    // NAT = 0..3 (MAXINT = 3), deferred sets of 2 elements
    let (s, _) = count("MACHINE D SETS S VARIABLES x, y INITIALISATION x :: NAT || y :: S END");
    assert_eq!(s, 1 + 4 * 2);
    let (s, _) = count(
        "MACHINE D DEFINITIONS SET_PREF_MAXINT == 5; scope_S == 3
         SETS S VARIABLES x, y INITIALISATION x :: NAT || y :: S END",
    );
    assert_eq!(s, 1 + 6 * 3);
}

#[test]
fn definitions_with_parameters_and_precedence() {
    // sq(1+1) must be (1+1)*(1+1) = 4 (not 1+1*1+1 = 3); `&` binds
    // tighter than `=>`, so the guard's implication is always true:
    // x = 4, 5, 6 plus the root
    let (s, _) = count(
        "MACHINE D DEFINITIONS sq(a) == a*a
         VARIABLES x INITIALISATION x := sq(1+1)
         OPERATIONS op = SELECT x < 6 & (x = 4 & 1 = 2 => 1 = 2) THEN x := x + 1 END END",
    );
    assert_eq!(s, 4);
}

#[test]
fn sequencing_and_parallel() {
    let (s, t) = count(
        "MACHINE S VARIABLES x, y INITIALISATION x := 1; y := x + 1
         OPERATIONS swap = BEGIN x := y || y := x END END",
    );
    assert_eq!((s, t), (3, 3));
}

#[test]
fn relations_and_functions() {
    let (s, _) = count(
        "MACHINE R SETS P = {a, b} VARIABLES f
         INITIALISATION f := {a |-> 1}
         OPERATIONS upd(p) = PRE p : P & p /: dom(f) THEN f(p) := card(f) + 1 END END",
    );
    // {a|->1}, {a|->1, b|->2}
    assert_eq!(s, 3);
}

#[test]
fn syntax_errors_name_file_line_column() {
    let e =
        parse_str("MACHINE M\nVARIABLES x\nINITIALISATION x := \nEND", "m.mch").expect_err("error");
    assert_eq!(e.kind(), ErrorKind::Syntax);
    assert!(e.to_string().starts_with("m.mch:"), "{e}");
}

#[test]
fn unsupported_is_reported() {
    let e = parse_str(
        "MACHINE M DEFINITIONS SET_PREF_KODKOD == TRUE VARIABLES x INITIALISATION x := 0 END",
        "m.mch",
    )
    .expect_err("error");
    assert_eq!(e.kind(), ErrorKind::Unsupported);
    let e = parse_str(
        "MACHINE M VARIABLES x INITIALISATION x := 0 OPERATIONS op(v) = PRE v /= 3 THEN x := v END END",
        "m.mch",
    )
    .expect_err("error");
    assert_eq!(e.kind(), ErrorKind::Unsupported);
}

/// The model error the first state after the initialisation of machine
/// `text` raises.
fn error_after_initialisation(text: &str) -> pins::ModelError {
    let m = parse_str(text, "m.mch").expect("parse");
    let init = m.initial_state();
    let mut states = Vec::new();
    m.next_all(&init, &mut |_, t| states.push(t.to_vec()))
        .expect("init");
    m.next_all(&states[0], &mut |_, _| {})
        .expect_err("model error")
}

#[test]
fn well_definedness_errors_are_model_errors() {
    let err = error_after_initialisation(
        "MACHINE M VARIABLES f INITIALISATION f := {1 |-> 2} OPERATIONS op = BEGIN f := {f(3) |-> 1} END END",
    );
    assert!(err.message.contains("outside its domain"), "{err}");
    assert!(!crate::is_unsupported(&err));
}

#[test]
fn nested_precondition_violation_is_a_model_error() {
    let err = error_after_initialisation(
        "MACHINE M VARIABLES x INITIALISATION x := 0
         OPERATIONS op = PRE x = 0 THEN PRE x = 1 THEN x := 2 END END END",
    );
    assert!(err.message.contains("precondition violated"), "{err}");
}

/// The first model error met by a naive BFS, if any.
pub(crate) fn first_error(text: &str) -> Option<String> {
    let m = parse_str(text, "t.mch").unwrap_or_else(|e| panic!("{e}"));
    match frontend_testkit::bfs::bfs(&m, usize::MAX, None) {
        frontend_testkit::bfs::Bfs::Error(e) => Some(e.to_string()),
        _ => None,
    }
}

#[test]
fn while_invariant_and_variant_are_checked() {
    let m = |inv: &str, var: &str| {
        format!(
            "MACHINE W VARIABLES x INITIALISATION x := 0
             OPERATIONS run = BEGIN x := 0; WHILE x < 3 DO x := x + 1
             INVARIANT {inv} VARIANT {var} END END END"
        )
    };
    assert_eq!(first_error(&m("x <= 3", "3 - x")), None);
    let e = first_error(&m("x <= 2", "3 - x")).expect("invariant error");
    assert!(
        e.contains("INVARIANT violated") && e.contains("t.mch:3:"),
        "{e}"
    );
    let e = first_error(&m("x <= 3", "x")).expect("variant error");
    assert!(e.contains("VARIANT not decreasing"), "{e}");
    let e = first_error(&m("x <= 3", "1 - x")).expect("variant error");
    assert!(e.contains("VARIANT not a natural number"), "{e}");
}

#[test]
fn failing_initialisation() {
    // without constants: no state (ProB counts 0); with constants: an error
    let (s, t) = count("MACHINE F VARIABLES x INITIALISATION x :: {} END");
    assert_eq!((s, t), (1, 0));
    let e = first_error(
        "MACHINE F CONSTANTS c PROPERTIES c : BOOL VARIABLES x
         INITIALISATION x :: {} END",
    )
    .expect("initialisation error");
    assert!(e.contains("INITIALISATION has no solution"), "{e}");
}

#[test]
fn parameters_ranged_by_a_relation_image() {
    // `cur |-> to : succ` enumerates `to` over the pairs from `cur`
    let (s, t) = count(
        "MACHINE G VARIABLES cur INITIALISATION cur := 0
         OPERATIONS go(to) = PRE cur |-> to : {0 |-> 1, 1 |-> 2, 1 |-> 0, 2 |-> 2}
         THEN cur := to END END",
    );
    // root + 3 states; 1 init edge + 4 go edges
    assert_eq!((s, t), (4, 5));
}

#[test]
fn nested_select_and_parallel_conflicts() {
    // a SELECT under the top-level PRE: applying a function outside its
    // domain there is an error, not a false guard
    let e = first_error(
        "MACHINE N VARIABLES f INITIALISATION f := {1 |-> 2}
         OPERATIONS op(x) = PRE x : 1..2 THEN SELECT f(x) = 2 THEN skip END END END",
    )
    .expect("nested SELECT error");
    assert!(e.contains("outside its domain"), "{e}");
    let e = first_error(
        "MACHINE Q VARIABLES f INITIALISATION f := {1 |-> 1, 2 |-> 2}
         OPERATIONS op = BEGIN f(1) := 2 || f(2) := 1 END END",
    )
    .expect("parallel conflict");
    assert!(e.contains("writing one variable differently"), "{e}");
}

#[test]
fn integers_ranged_by_bounds() {
    // y ranges over 1..3 from `y > 0 & y <= 3`: x = 0, 1, 2, 3 plus the
    // root; init edge + 3 set edges from each of the 4 states
    let (s, t) = count(
        "MACHINE B VARIABLES x INITIALISATION x := 0
         OPERATIONS set = ANY y WHERE y > 0 & 3 >= y THEN x := y END END",
    );
    assert_eq!((s, t), (5, 1 + 4 * 3));
    // bounds from an already bound identifier and from NATURAL:
    // pairs a : 1..2, b : a+1..3 (3 pairs); v : 0..x-1
    let (s, t) = count(
        "MACHINE B VARIABLES x INITIALISATION x := 2
         OPERATIONS pick(a, b) = PRE a : 1..2 & b > a & b <= 3 THEN skip END;
                    down(v) = PRE v : NATURAL & v < x THEN x := v END END",
    );
    // states x = 2, 1, 0 plus the root; pick: 3 edges per state;
    // down: 2 + 1 + 0 edges
    assert_eq!((s, t), (4, 1 + 3 * 3 + 3));
}

#[test]
fn unbounded_integers_clipped_as_in_prob() {
    // ProB's model checker enumerates `yy : NATURAL` as 0..MAXINT: x takes
    // 0..3 (4 states plus the root), 4 set edges from each
    let (s, t) = count(
        "MACHINE N VARIABLES x INITIALISATION x := 0
         OPERATIONS set(v) = PRE v : NATURAL THEN x := v END END",
    );
    assert_eq!((s, t), (5, 1 + 4 * 4));
    // a lower bound beyond MAXINT: how ProB clips is not known
    let e = first_error(
        "MACHINE N VARIABLES x INITIALISATION x := 0
         OPERATIONS up(v) = PRE v : NATURAL & v > x THEN x := v END END",
    )
    .expect("unsupported once x = 3");
    assert!(e.contains("infinite domain"), "{e}");
    // in a quantifier (ProB may keep it symbolic)
    let e = first_error(
        "MACHINE N VARIABLES x INITIALISATION x := 0
         OPERATIONS op = SELECT #v.(v : NATURAL & v /= x) THEN skip END END",
    )
    .expect("unsupported");
    assert!(e.contains("infinite domain"), "{e}");
    // another conjunct on v might give ProB a finite domain (here {5})
    let e = parse_str(
        "MACHINE M CONSTANTS f PROPERTIES f = {5 |-> 3} VARIABLES x INITIALISATION x := 0
         OPERATIONS op(v) = PRE v : NATURAL & f(v) = 3 THEN x := v END END",
        "m.mch",
    )
    .expect_err("unsupported");
    assert!(e.to_string().contains("cannot enumerate 'v'"), "{e}");
    // two unbounded identifiers tied together: which ProB labels first matters
    let e = parse_str(
        "MACHINE M VARIABLES x INITIALISATION x := 0
         OPERATIONS op(v, w) = PRE v : NATURAL & w : NATURAL & v = w + 1 THEN x := v END END",
        "m.mch",
    )
    .expect_err("unsupported");
    assert_eq!(e.kind(), ErrorKind::Unsupported);
    assert!(e.to_string().contains("cannot enumerate 'v'"), "{e}");
}

#[test]
fn call_result_assigned_to_a_local_named_like_a_parameter_is_unsupported() {
    // ProB's count differs from B's scoping here (Hansen18's LoopByClash)
    let dir = std::env::temp_dir().join(format!("bmethod-clash-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(
        dir.join("Add.mch"),
        "MACHINE Add VARIABLES x INITIALISATION x := 0
         OPERATIONS res <-- add(aa, bb) = BEGIN res := aa + bb || x := 1 END END",
    )
    .expect("write");
    let error = |call: &str| {
        let main = dir.join("C.mch");
        std::fs::write(
            &main,
            format!(
                "MACHINE C INCLUDES Add
                 OPERATIONS run = VAR aa, bb IN aa := 1; bb := 2; {call} END END"
            ),
        )
        .expect("write");
        let m = crate::parse_file(&main).unwrap_or_else(|e| panic!("{e}"));
        match frontend_testkit::bfs::bfs(&m, usize::MAX, None) {
            frontend_testkit::bfs::Bfs::Error(e) => Some(e.to_string()),
            _ => None,
        }
    };
    let e = error("aa <-- add(bb, aa)").expect("clash");
    assert!(e.contains("named like its parameter 'aa'"), "{e}");
    // the locals passed on, even swapped, but not assigned: fine
    assert_eq!(error("VAR cc IN cc <-- add(bb, aa) END"), None);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn identifiers_ranged_by_an_existential_quantifier() {
    // `#u.(u : 1..3 & y = u mod 2)` gives y the values {0, 1} (each once):
    // from x = 0, set to 0 and to 1; then 2 states plus the root, 1 init
    // edge and 2 set edges from each state
    let (s, t) = count(
        "MACHINE E VARIABLES x INITIALISATION x := 0
         OPERATIONS set(y) = PRE #u.(u : 1..3 & y = u mod 2) THEN x := y END END",
    );
    assert_eq!((s, t), (3, 1 + 2 * 2));
    // as a set comprehension: {y | #u.(u : 1..3 & y = 2 * u)} = {2, 4, 6}
    let (s, _) = count(
        "MACHINE E VARIABLES x INITIALISATION x := card({y | #u.(u : 1..3 & y = 2 * u)})
         OPERATIONS inc = SELECT x < 5 THEN x := x + 1 END END",
    );
    // x = 3, 4, 5 plus the root
    assert_eq!(s, 4);
}

#[test]
fn booleans_typed_by_comparisons_with_true_or_false() {
    // constants typed only by clauses (as in ProB's SAT examples): the
    // solutions of (a or b) & (a => not(b)) are (T,F), (F,T): 2 constant
    // states, 2 initialised states
    let (s, t) = count(
        "MACHINE S CONSTANTS a, b
         PROPERTIES (a = TRUE or b = TRUE) & (a = TRUE => not(b = TRUE))
         VARIABLES x INITIALISATION x := a END",
    );
    assert_eq!((s, t), (5, 2 + 2));
}

#[test]
fn constants_fixed_without_setup_are_in_the_initialisation_s_write_set() {
    // `iv : ID` over a deferred set of one element: ProB fixes iv, so there
    // is no SETUP_CONSTANTS step and the INITIALISATION writes iv's slot.
    // `count` checks every successor against its group's write set.
    let text = "MACHINE F SETS ID DEFINITIONS scope_ID == 1 CONSTANTS iv PROPERTIES iv : ID
         VARIABLES xx INITIALISATION xx := iv
         OPERATIONS set(yy) = PRE yy : ID THEN xx := yy END END";
    let m = parse_str(text, "t.mch").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(m.groups()[0].label, "INITIALISATION", "no SETUP_CONSTANTS");
    assert!(m.groups()[0].write.contains(&1), "iv's slot is written");
    assert_eq!(count(text), (2, 2));
}

#[test]
fn integers_ranged_by_propagated_bounds() {
    // the same pairs and states whether each of a, b is bounded directly or
    // only through the other, through a `+`/`-` chain or a set extension
    let m = |guard: &str| {
        format!(
            "MACHINE P VARIABLES x INITIALISATION x := 0
             OPERATIONS pick(a, b) = PRE {guard} THEN x := a + b END END"
        )
    };
    let direct = count(&m("a : 3..8 & b : 4..9 & a < b"));
    for guard in [
        "a > 2 & a < b & b <= 9",
        "b <= 9 & 2 < a & b > a + 0",
        "a - 3 : 0..5 & 1 + b - 1 <= 9 & a < b",
        "a > 2 & 10 - b >= 1 & b - 1 >= a",
        "{a, b} <: 3..9 & a < b",
        "a * 2 > 5 & 3 * b <= 27 & a < b",
        "2 * a - 1 >= 5 & (b + 1) * 2 < 21 & a < b",
    ] {
        assert_eq!(count(&m(guard)), direct, "{guard}");
    }
    let direct = count(&m("a : {3, 4} & b : {3, 4} & a /= b"));
    assert_eq!(count(&m("{a, b} = {3, 4}")), direct);
    // a factor that is not positive: refused when met
    let e = first_error(&m("a : 3..8 & b * (2 - 3) <= 0 - 4 & a < b")).expect("unsupported");
    assert!(e.contains("not positive"), "{e}");
    // b has no upper bound and, clipped with a, is pushed beyond MAXINT:
    // still refused
    let e = first_error(&m("a > 2 & a < b")).expect("unsupported");
    assert!(e.contains("infinite domain"), "{e}");
}
