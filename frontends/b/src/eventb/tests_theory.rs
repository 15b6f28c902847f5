//! Tests of theory operators with a direct definition (`theory`): their
//! applications are the definitions with the arguments put in; others are
//! refused by name.

use frontend_testkit::bfs::{bfs, Bfs};

/// A machine with the boolean `c` (TRUE at first) and the event `flip`
/// doing `c := NOT(c)`, with the theory operator NOT defined by `def`
/// (`direct` for a direct definition, else a recursive case list).
fn flip(direct: bool) -> String {
    let c = "identifier(none,c)";
    let a = "identifier(none,a)";
    let def = format!("convert_bool(none,negation(none,equal(none,{a},boolean_true(none))))");
    let (defs, rec) = if direct {
        (format!("[{def}]"), "[]".to_owned())
    } else {
        ("[]".to_owned(), format!("[{def}]"))
    };
    format!(
        "package(load_event_b_project([event_b_model(none,'M',[sees(none,[]),
          variables(none,[{c}]),invariant(none,[]),theorems(none,[]),
          events(none,[event(none,'INITIALISATION',ordinary(none),[],[],[],[],
            [assign(none,[{c}],[boolean_true(none)])],[]),
          event(none,flip,ordinary(none),[],[],[],[],
            [assign(none,[{c}],[extended_expr(none,'NOT',[{c}],[])])],[])])])],[],
          [theory([],[],[operator('NOT',[argument({a},bool_set(none))],truth(none),{defs},{rec})])],_E))."
    )
}

#[test]
fn a_theory_operator_is_its_direct_definition() {
    let m = crate::parse_str(&flip(true), "M_mch.eventb").expect("parses");
    // TRUE and FALSE plus the root; init + a flip from each
    assert!(matches!(bfs(&m, 100, None), Bfs::Done(3, 3)));
    let e = crate::parse_str(&flip(false), "M_mch.eventb").expect_err("refused");
    assert!(
        e.to_string()
            .contains("the theory operator NOT (no direct definition)"),
        "{e}"
    );
}

#[test]
fn a_binder_of_a_definition_does_not_capture_an_argument() {
    // GT(a) = bool(#x.(x : 0..3 & x > a)) applied to the variable x:
    // inc (x := x + 1) is enabled while x < 3, so x = 0..3 and the root,
    // the initialisation and 3 increments; with the binder capturing
    // the argument (x > x) inc would never be enabled
    let x = "identifier(none,x)";
    let a = "identifier(none,a)";
    let range = "interval(none,integer(none,0),integer(none,3))";
    let def = format!(
        "convert_bool(none,exists(none,[{x}],conjunct(none,member(none,{x},{range}),greater(none,{x},{a}))))"
    );
    let text = format!(
        "package(load_event_b_project([event_b_model(none,'M',[sees(none,[]),
          variables(none,[{x}]),invariant(none,[]),theorems(none,[]),
          events(none,[event(none,'INITIALISATION',ordinary(none),[],[],[],[],
            [assign(none,[{x}],[integer(none,0)])],[]),
          event(none,inc,ordinary(none),[],[],
            [equal(none,extended_expr(none,'GT',[{x}],[]),boolean_true(none))],[],
            [assign(none,[{x}],[add(none,{x},integer(none,1))])],[])])])],[],
          [theory([],[],[operator('GT',[argument({a},integer_set(none))],truth(none),[{def}],[])])],_E))."
    );
    let m = crate::parse_str(&text, "M_mch.eventb").expect("parses");
    assert!(matches!(bfs(&m, 100, None), Bfs::Done(5, 4)));
}

/// A machine with the set `s` ({1} at first) and the event `op` doing
/// `s := OP(s)`, OP over `POW(T)` (`T` its theory's type parameter)
/// defined by `def`.
fn typed_op(def: &str) -> String {
    let s = "identifier(none,s)";
    format!(
        "package(load_event_b_project([event_b_model(none,'M',[sees(none,[]),
          variables(none,[{s}]),invariant(none,[]),theorems(none,[]),
          events(none,[event(none,'INITIALISATION',ordinary(none),[],[],[],[],
            [assign(none,[{s}],[set_extension(none,[integer(none,1)])])],[]),
          event(none,op,ordinary(none),[],[],[],[],
            [assign(none,[{s}],[extended_expr(none,'OP',[{s}],[])])],[])])])],[],
          [theory([],['T'],[operator('OP',[argument(identifier(none,a),pow_subset(none,identifier(none,'T')))],
            truth(none),[{def}],[])])],_E))."
    )
}

#[test]
fn a_type_parameter_only_in_a_type_annotation_is_not_read() {
    // OP(a) = a \/ typeof({}, POW(T)) = a: s stays {1}; the root, the
    // initialisation and a loop
    let t = "identifier(none,'T')";
    let a = "identifier(none,a)";
    let def = format!("union(none,{a},typeof(none,empty_set(none),pow_subset(none,{t})))");
    let m = crate::parse_str(&typed_op(&def), "M_mch.eventb").expect("parses");
    assert!(matches!(bfs(&m, 100, None), Bfs::Done(2, 2)));
    // OP(a) = T \ a reads T as a value (ProB gives it the argument's type)
    let def = format!("set_subtraction(none,{t},{a})");
    let e = crate::parse_str(&typed_op(&def), "M_mch.eventb").expect_err("refused");
    assert!(
        e.to_string()
            .contains("a type parameter of its theory as a value"),
        "{e}"
    );
}
