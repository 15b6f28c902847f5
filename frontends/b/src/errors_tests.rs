//! Unit tests of the model errors of the `errors_*` modules (ProB's
//! command-line externals, externals left unevaluated until reached,
//! results stored into expressions, errors beside false PROPERTIES, values
//! in error messages, literals beyond 64 bits in unparsed clauses, abstract
//! constants kept symbolic, Event-B actions applying a constant function
//! outside its domain, errors met after a provisional binder), on small
//! machines worked out by hand.

use crate::tests::{count, first_error};
use crate::tests_wd::model_error;
use crate::value::Value;

/// A machine reading ProB's `LibraryIO.def` (no copy beside it) with
/// variable `x` initialised by `init` and the operation `op`.
fn io_machine(init: &str, op: &str) -> String {
    format!(
        "MACHINE P DEFINITIONS \"LibraryIO.def\"
         VARIABLES x INITIALISATION x := {init}
         OPERATIONS {op} END"
    )
}

#[test]
fn argc_is_zero_and_argv_an_error() {
    // x stays 0: root + 1 state; the init edge and step's self-loop
    assert_eq!(
        count(&io_machine("0", "step = BEGIN x := x + ARGC END")),
        (2, 2)
    );
    let e = model_error(&io_machine("0", "r <-- get = BEGIN r := ARGV(1) END"));
    assert!(
        e.contains("ARGV(1): command-line argument 1 does not exist"),
        "{e}"
    );
    let e = first_error(&io_machine("0", "r <-- get = BEGIN r := ARGV(0) END")).expect("refused");
    assert!(e.starts_with("unsupported") && e.contains("ARGV(0)"), "{e}");
}

#[test]
fn an_external_not_evaluated_is_refused_only_when_reached() {
    // READ_LINE is never evaluated: the error of ARGV(1) comes first
    let e = model_error(&io_machine(
        "ARGV(1)",
        "r <-- read = BEGIN r := READ_LINE(x) END",
    ));
    assert!(e.contains("ARGV(1)"), "{e}");
    // reached, it is unsupported and named
    let e = first_error(&io_machine(
        "\"f\"",
        "r <-- read = BEGIN r := READ_LINE(x) END",
    ))
    .expect("refused");
    assert!(
        e.contains("unsupported") && e.contains("external function READ_LINE"),
        "{e}"
    );
    // not reached (a guard false before it): counted; root + 1 state
    let op = "read = SELECT x = \"g\" & READ_LINE(x) = \"h\" THEN skip END";
    assert_eq!(count(&io_machine("\"f\"", op)), (2, 1));
}

#[test]
fn a_call_result_stored_into_a_function_application_is_an_error() {
    let dir = std::env::temp_dir().join(format!("bmethod-errors-call-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(
        dir.join("V.mch"),
        "MACHINE V OPERATIONS a, b <-- get = BEGIN a := 1 || b := 2 END END",
    )
    .expect("write");
    let explore = |target: &str| {
        let main = dir.join("U.mch");
        std::fs::write(
            &main,
            format!(
                "MACHINE U INCLUDES V VARIABLES f, y
                 INITIALISATION f := {{1 |-> 0}} || y := 0
                 OPERATIONS t = BEGIN {target}, y <-- get END END"
            ),
        )
        .expect("write");
        let m = crate::parse_file(&main).unwrap_or_else(|e| panic!("{e}"));
        frontend_testkit::bfs::bfs(&m, usize::MAX, None)
    };
    match explore("f(1)") {
        frontend_testkit::bfs::Bfs::Error(e) => {
            assert!(!crate::is_unsupported(&e), "{e}");
            assert!(e.to_string().contains("not a variable"), "{e}");
        }
        _ => panic!("no error"),
    }
    // into variables: f = {1 |-> 1}, y = 2 after t; root + 2 states
    match explore("f") {
        frontend_testkit::bfs::Bfs::Done(s, t) => assert_eq!((s, t), (3, 3)),
        _ => panic!("not explored"),
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn strings_concatenate_with_the_sequence_operator() {
    // "ab", then "abc" (t is not enabled there): root + 2 states
    let text = "MACHINE S VARIABLES s INITIALISATION s := \"a\" ^ \"b\"
                OPERATIONS t = SELECT s = \"ab\" THEN s := s ^ \"c\" END END";
    assert_eq!(count(text), (3, 2));
}

#[test]
fn a_wd_error_beside_a_false_property_is_refused() {
    let m = |other: &str| {
        format!(
            "MACHINE C CONSTANTS c PROPERTIES c = 1 & 1 / 0 = 0 & {other}
             VARIABLES x INITIALISATION x := c END"
        )
    };
    let e = model_error(&m("1 = 1"));
    assert!(e.contains("division by zero"), "{e}");
    // a false conjunct after the error (`E : {}` false without evaluating
    // E): ProB may find the PROPERTIES false rather than report the error
    for other in ["1 = 2", "1 / 0 : {}"] {
        let e = first_error(&m(other)).expect("refused");
        assert!(
            e.starts_with("unsupported") && e.contains("ProB may find them false"),
            "{e}"
        );
    }
}

#[test]
fn values_in_messages_are_written_in_b() {
    let m = crate::parse_str(
        "MACHINE W SETS E = {red, green}; D
         VARIABLES x INITIALISATION x := 0 END",
        "t.mch",
    )
    .expect("parses");
    let w = &m.world;
    let show = |v: &Value| crate::errors_show::show(v, w);
    assert_eq!(show(&Value::Int(4)), "4");
    assert_eq!(show(&Value::Elem(0, 1)), "green");
    assert_eq!(show(&Value::Elem(1, 1)), "D2");
    let p = Value::pair(Value::Int(-1), Value::Bool(true));
    assert_eq!(show(&p), "(-1|->TRUE)");
    assert_eq!(show(&Value::set(vec![Value::Str("s".into())])), "{\"s\"}");
}

#[test]
fn a_literal_beyond_64_bits_is_refused_only_where_parsed() {
    let m = |clause: &str| {
        format!(
            "MACHINE L VARIABLES x INITIALISATION x := 0
             {clause} END"
        )
    };
    // ASSERTIONS are never parsed: root + x = 0
    assert_eq!(
        count(&m("ASSERTIONS 123456789012345678901234567890 > 0")).0,
        2
    );
    let parsed = "MACHINE L VARIABLES x INITIALISATION x := 123456789012345678901234567890 END";
    let e = crate::parse_str(parsed, "t.mch")
        .expect_err("refused")
        .to_string();
    assert!(e.contains("beyond 64 bits"), "{e}");
}

/// An Event-B machine seeing `f = {0 |-> 5, ..pairs}`, with `n := 0` and
/// `step(x)`: guard `x : 0..1`, action `n := f(x)`.
fn event_applying_a_constant(pairs: &str) -> String {
    let couple = |a: i64, b: i64| format!("couple(none,[integer(none,{a}),integer(none,{b})])");
    let int = |k: i64| format!("integer(none,{k})");
    let (x, n, f) = (
        "identifier(none,x)",
        "identifier(none,n)",
        "identifier(none,f)",
    );
    format!(
        "package(load_event_b_project([event_b_model(none,'M',[sees(none,['C']),
          variables(none,[{n}]),invariant(none,[]),theorems(none,[]),
          events(none,[event(none,'INITIALISATION',ordinary(none),[],[],[],[],
              [assign(none,[{n}],[{zero}])],[]),
            event(none,step,ordinary(none),[],[{x}],
              [member(none,{x},interval(none,{zero},{one}))],[],
              [assign(none,[{n}],[function(none,{f},[{x}])])],[])])])],
          [event_b_context(none,'C',[extends(none,[]),constants(none,[{f}]),
            axioms(none,[equal(none,{f},set_extension(none,[{first}{pairs}]))]),
            theorems(none,[]),sets(none,[])])],[],_E)).",
        zero = int(0),
        one = int(1),
        first = couple(0, 5),
    )
}

#[test]
fn an_event_b_action_outside_a_constant_domain_is_not_executable() {
    let text = event_applying_a_constant("");
    let m = crate::parse_str(&text, "M_mch.eventb").expect("parses");
    let e = match frontend_testkit::bfs::bfs(&m, 100, None) {
        frontend_testkit::bfs::Bfs::Error(e) => e,
        other => panic!("{other:?}"),
    };
    assert!(!crate::is_unsupported(&e), "{e}");
    assert!(e.to_string().contains("action_not_executable"), "{e}");
    // f defined at 1 too: root, setup, n = 0 and n in {5, 6}; edges:
    // setup, init, step(0) and step(1) from each of n = 0, 5, 6
    let text = event_applying_a_constant(",couple(none,[integer(none,1),integer(none,6)])");
    let m = crate::parse_str(&text, "M_mch.eventb").expect("parses");
    assert_eq!(frontend_testkit::bfs::count(&m), (5, 8));
}

/// `xx := 0`, `AnyInc = xx : (xx > xx$0)` (at `xx = MAXINT = 3`, ProB's
/// candidates beyond MAXINT are not known) and `crash` at `xx = 2`.
fn any_inc(crash: &str) -> String {
    format!(
        "MACHINE A VARIABLES xx INITIALISATION xx := 0
         OPERATIONS AnyInc = xx : (xx > xx$0);
           Crash = SELECT xx = 2 THEN xx := {crash} END END"
    )
}

#[test]
fn an_error_after_a_provisional_binder_is_reported() {
    // 0 -AnyInc-> 1..3 (clipped as ProB), 2 -Crash-> 1 / 0
    let e = model_error(&any_inc("1 / (xx - 2)"));
    assert!(e.contains("division by zero"), "{e}");
    // no error: the exploration of 0..3 ends, AnyInc at 3 refused then
    let e = first_error(&any_inc("1 / (xx - 1)")).expect("refused");
    assert!(
        e.starts_with("unsupported") && e.contains("infinite domain"),
        "{e}"
    );
    assert!(e.contains("found no model error"), "{e}");
}

/// `recv(i)`, whose `i` no conjunct bounds (`route(i) = n` beside
/// `i : NATURAL1`), and `crash` at `xx = 1`.
fn unbounded_parameter(crash: &str) -> String {
    format!(
        "MACHINE U SETS N = {{k0, k1}} CONSTANTS route PROPERTIES route = [k0, k1]
         VARIABLES xx INITIALISATION xx := 0
         OPERATIONS recv(n, i) = PRE n : N & xx = 5 & i > 1 & i : NATURAL1 & route(i) = n
             THEN skip END;
           Inc = SELECT xx = 0 THEN xx := 1 END;
           Crash = SELECT xx = 1 THEN xx := {crash} END END"
    )
}

#[test]
fn an_unbounded_parameter_defers_its_refusal() {
    // recv is never enabled (xx /= 5), whatever i: the error at xx = 1
    // is reached through the transitions of Inc alone
    let e = model_error(&unbounded_parameter("1 / (xx - 1)"));
    assert!(e.contains("division by zero"), "{e}");
    // no error: the exploration ends, refused for recv's i all the same
    let e = first_error(&unbounded_parameter("2")).expect("refused");
    assert!(
        e.starts_with("unsupported") && e.contains("cannot enumerate 'i'"),
        "{e}"
    );
    assert!(e.contains("found no model error"), "{e}");
}
