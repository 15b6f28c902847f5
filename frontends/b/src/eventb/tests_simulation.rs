//! ProB's simulation check for an abstract action `x :| P` on a variable
//! the refinement keeps, with `x` an integer (no finite range to list the
//! values the abstract action allows): the concrete after-value must
//! satisfy `P`. The abstract event `decr` allows any smaller value; the
//! concrete `decr` (`n := n - 1` while `n >= 1`) is one of them, an
//! increment is not.

use frontend_testkit::bfs::{bfs, Bfs};

/// `M` (variable `n` from 2, event `decr` with guard `n >= 1` and action
/// `n := n + step`) refining `A`, whose `decr` is `n :| n' < n`.
fn package(step: i64) -> String {
    format!(
        "package(load_event_b_project([event_b_model(none,'M',[sees(none,[]),refines(none,'A'),
          variables(none,[identifier(none,n)]),invariant(none,[]),theorems(none,[]),
          events(none,[event(none,'INITIALISATION',ordinary(none),[],[],[],
            [assign(none,[identifier(none,n)],[integer(none,2)])],[]),
          event(none,decr,ordinary(none),[decr],[],
            [greater_equal(none,identifier(none,n),integer(none,1))],
            [assign(none,[identifier(none,n)],
              [add(none,identifier(none,n),integer(none,{step}))])],[])])]),
        event_b_model(none,'A',[sees(none,[]),
          variables(none,[identifier(none,n)]),
          invariant(none,[member(none,identifier(none,n),integer_set(none))]),theorems(none,[]),
          events(none,[event(none,'INITIALISATION',ordinary(none),[],[],[],
            [assign(none,[identifier(none,n)],[integer(none,2)])],[]),
          event(none,decr,ordinary(none),[],[],[],
            [becomes_such(rodinpos(act1,x),[identifier(none,n)],
              less(none,identifier(none,'n\\''),identifier(none,n)))],[])])])],[],[],_E))."
    )
}

fn explore(text: &str) -> Result<(u64, u64), String> {
    let m = crate::parse_str(text, "M_mch.eventb").map_err(|e| format!("parse: {e}"))?;
    match bfs(&m, 1000, None) {
        Bfs::Done(s, t) => Ok((s, t)),
        Bfs::GaveUp(w) => Err(format!("gave up: {w}")),
        Bfs::Error(e) => Err(e.to_string()),
    }
}

#[test]
fn a_concrete_decrement_simulates_an_abstract_smaller_value() {
    // n = 2, 1, 0 and the root: 4 states; init + 2 decrements
    assert_eq!(explore(&package(-1)), Ok((4, 3)));
}

#[test]
fn a_concrete_increment_is_no_abstract_smaller_value() {
    let e = explore(&package(1)).expect_err("not simulated");
    assert!(
        e.contains("action_not_executable: event decr refines event decr"),
        "{e}"
    );
}
