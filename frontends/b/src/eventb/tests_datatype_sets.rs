//! Tests of a theory datatype's set as a value (`datatype_sets`): counts
//! computed by hand in each test.

use frontend_testkit::bfs::{bfs, Bfs};

use super::tests_datatypes::{assign, event, ext, id, int};

/// `Pair(T)` (`mk(l : T, r : T)`), `Opt(T)` (`none`, `some(val : T)`)
/// and the recursive `L(T)` (`nil`, `cons(hd : T, tl : L(T))`).
fn theory() -> String {
    let t = id("'T'");
    let lt = ext("'L'", std::slice::from_ref(&t));
    format!(
        "theory([],[],['T'],[datatype('Pair',[{t}],[constructor(mk,[destructor(l,{t}),destructor(r,{t})])]),
         datatype('Opt',[{t}],[constructor(none,[]),constructor(some,[destructor(val,{t})])]),
         datatype('L',[{t}],[constructor(nil,[]),constructor(cons,[destructor(hd,{t}),destructor(tl,{lt})])])],
         [],[],[])"
    )
}

fn machine(init: &[String], events: &[String]) -> String {
    format!(
        "package(load_event_b_project([event_b_model(none,'M',[sees(none,[]),
          variables(none,[{},{}]),invariant(none,[]),theorems(none,[]),
          events(none,[event(none,'INITIALISATION',ordinary(none),[],[],[],[],[{}],[]),
          {}])])],[],[{}],_E)).",
        id("p"),
        id("n"),
        init.join(","),
        events.join(","),
        theory()
    )
}

fn interval(a: i64, b: i64) -> String {
    format!("interval(none,{},{})", int(a), int(b))
}

fn count(text: &str) -> (u64, u64) {
    let m = crate::parse_str(text, "M_mch.eventb").unwrap_or_else(|e| panic!("{e}"));
    match bfs(&m, 1000, None) {
        Bfs::Done(states, transitions) => (states, transitions),
        _ => panic!("exploration failed"),
    }
}

#[test]
fn a_datatype_set_is_its_constructors_values() {
    // p :: Pair(1..2): the 4 pairs; n := card(Opt(1..3)) = 4 (none and 3
    // somes); `swap` exchanges the sides (4 transitions), `chk` loops
    // where n = 4 (4): 4 states and the root, 4 + 4 + 4 transitions
    let p = id("p");
    let init = [
        format!(
            "becomes_element_of(none,[{p}],{})",
            ext("'Pair'", &[interval(1, 2)])
        ),
        assign(
            "n",
            &format!("card(none,{})", ext("'Opt'", &[interval(1, 3)])),
        ),
    ];
    let swapped = ext(
        "mk",
        &[
            ext("r", std::slice::from_ref(&p)),
            ext("l", std::slice::from_ref(&p)),
        ],
    );
    let events = [
        event("swap", &[], &[], &[assign("p", &swapped)]),
        event(
            "chk",
            &[],
            &[format!("equal(none,{},{})", id("n"), int(4))],
            &[],
        ),
    ];
    assert_eq!(count(&machine(&init, &events)), (5, 12));
}

#[test]
fn a_recursive_datatype_set_is_refused() {
    let init = [
        assign("p", &int(0)),
        assign(
            "n",
            &format!("card(none,{})", ext("'L'", &[interval(1, 2)])),
        ),
    ];
    let e = crate::parse_str(
        &machine(&init, &[event("nop", &[], &[], &[])]),
        "M_mch.eventb",
    )
    .err()
    .map(|e| e.to_string())
    .expect("refused");
    assert!(e.contains("the datatype L's set as a value"), "{e}");
}
