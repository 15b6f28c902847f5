//! Tests of Rodin's nested universals with implicit typing (`!x.(TRUE =>
//! !y.(TRUE => !z.(P => Q)))`, see `nested_forall`). Counts by hand.

use frontend_testkit::bfs::{bfs, Bfs};

/// A machine with `r` (initially `{}`) and the event `set(g)`, `g : BOOL
/// <-> BOOL` functional by the guard `!x.(TRUE => !y.(TRUE => !z.((x|->y
/// : g & x|->z : g) => y = z)))` ({inner} names the innermost binder),
/// with action `r := g`.
fn functional(inner: &str) -> String {
    let id = |n: &str| format!("identifier(none,{n})");
    let pair = |a: &str, b: &str| format!("couple(none,[{},{}])", id(a), id(b));
    let forall = |x: &str, body: String| {
        format!(
            "forall(none,[{}],implication(none,truth(none),{body}))",
            id(x)
        )
    };
    let innermost = format!(
        "forall(none,[{}],implication(none,
           conjunct(none,member(none,{},{g}),member(none,{},{g})),
           equal(none,{},{})))",
        id(inner),
        pair("x", "y"),
        pair("x", inner),
        id("y"),
        id(inner),
        g = id("g")
    );
    let guard = forall("x", forall("y", innermost));
    format!(
        "package(load_event_b_project([event_b_model(none,'M',[sees(none,[]),
          variables(none,[identifier(none,r)]),invariant(none,[]),theorems(none,[]),
          events(none,[event(none,'INITIALISATION',ordinary(none),[],[],[],[],
            [assign(none,[identifier(none,r)],[empty_set(none)])],[]),
          event(none,set,ordinary(none),[],[identifier(none,g)],
            [member(none,identifier(none,g),relations(none,bool_set(none),bool_set(none))),
             {guard}],[],
            [assign(none,[identifier(none,r)],[identifier(none,g)])],[])])])],[],[],_E))."
    )
}

#[test]
fn nested_universals_are_typed_by_the_innermost_antecedent() {
    // the partial functions BOOL +-> BOOL: 3 * 3 = 9 values of `r`, all
    // reached from `{}`: 9 states + the root; 1 initialisation, 9 * 9 `set`
    let m = crate::parse_str(&functional("z"), "M_mch.eventb").expect("model");
    match bfs(&m, 1000, None) {
        Bfs::Done(states, transitions) => assert_eq!((states, transitions), (10, 82)),
        Bfs::Error(e) => panic!("{e}"),
        Bfs::GaveUp(_) => panic!("limit"),
    }
}

#[test]
fn an_inner_binder_hiding_an_outer_one_stays_nested() {
    // the innermost binder is `x` again: not merged, so `x` and `y` keep
    // no typing but the universal and the solver refuses them
    let e = match crate::parse_str(&functional("x"), "M_mch.eventb") {
        Ok(m) => match bfs(&m, 1000, None) {
            Bfs::Error(e) => e.to_string(),
            _ => "explored".to_owned(),
        },
        Err(e) => e.to_string(),
    };
    assert!(e.contains("cannot enumerate"), "{e}");
}
