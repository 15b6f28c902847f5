//! Tests of the abstract actions on dropped variables whose witnesses
//! read after-values (`after`) and of Event-B's untyped projections: a
//! refinement `M` of `A` drops `x`, which `A`'s `inc` changes by
//! `x :: {x + 1, x + 2}`; `M` gives `x'` by a witness on `y'`.

use frontend_testkit::bfs::{bfs, Bfs};

fn id(n: &str) -> String {
    format!("identifier(none,{n})")
}

fn int(n: i64) -> String {
    format!("integer(none,{n})")
}

/// `M` (variable `y`, `y :: {y+1, y+2}` while `y < 5`) refining `A`,
/// with the witness `x' = y' - k` in `inc`.
fn dropped_nondeterministic(k: i64) -> String {
    let (x, y, xp, yp) = (id("x"), id("y"), id("'x\\''"), id("'y\\''"));
    let plus = |v: &str, n: i64| format!("add(none,{v},{})", int(n));
    let next = |v: &str| format!("set_extension(none,[{},{}])", plus(v, 1), plus(v, 2));
    let witness = |e: String| format!("[witness(none,{xp},equal(none,{xp},{e}))]");
    format!(
        "package(load_event_b_project([event_b_model(none,'M',[sees(none,[]),refines(none,'A'),
          variables(none,[{y}]),invariant(none,[]),theorems(none,[]),
          events(none,[event(none,'INITIALISATION',ordinary(none),['INITIALISATION'],[],[],[],
            [assign(none,[{y}],[{two}])],{w0}),
          event(none,inc,ordinary(none),[inc],[],[less(none,{y},{five})],[],
            [becomes_element_of(none,[{y}],{ny})],{w1})])]),
        event_b_model(none,'A',[sees(none,[]),variables(none,[{x}]),invariant(none,[]),
          theorems(none,[]),
          events(none,[event(none,'INITIALISATION',ordinary(none),[],[],[],[],
            [becomes_element_of(none,[{x}],interval(none,{zero},{two}))],[]),
          event(none,inc,ordinary(none),[],[],[],[],
            [becomes_element_of(none,[{x}],{nx})],[])])])],[],[],_E)).",
        two = int(2),
        five = int(5),
        zero = int(0),
        w0 = witness(int(1)),
        w1 = witness(format!("minus(none,{yp},{})", int(k))),
        ny = next(&y),
        nx = next(&x),
    )
}

/// The counts of `text` (states with the root, transitions), or the
/// error's message.
fn explore(text: &str) -> Result<(u64, u64), String> {
    let m = crate::parse_str(text, "M_mch.eventb").map_err(|e| e.to_string())?;
    match bfs(&m, 1000, None) {
        Bfs::Done(s, t) => Ok((s, t)),
        Bfs::GaveUp(w) => Err(format!("gave up: {w}")),
        Bfs::Error(e) => {
            assert!(!crate::is_unsupported(&e), "{e}");
            Err(e.to_string())
        }
    }
}

#[test]
fn a_witnessed_after_value_must_be_admitted_by_the_abstract_action() {
    // x' = y' - 1 with x = y - 1: y' in {y+1, y+2} gives x' in {x+1, x+2}.
    // y = 2..6 (x = y - 1 each), plus the root; init + 2 inc edges from
    // y = 2, 3, 4
    assert_eq!(explore(&dropped_nondeterministic(1)), Ok((6, 7)));
    // x' = y' - 2 gives x' = x for y' = y + 1: not an outcome of x :: ..
    let e = explore(&dropped_nondeterministic(2)).expect_err("not executable");
    assert!(e.contains("action_not_executable"), "{e}");
}

#[test]
fn an_untyped_projection_takes_a_side_of_its_argument() {
    let (p, a) = (id("p"), id("a"));
    let text = format!(
        "package(load_event_b_project([event_b_model(none,'M',[sees(none,[]),
          variables(none,[{p}]),invariant(none,[]),theorems(none,[]),
          events(none,[event(none,'INITIALISATION',ordinary(none),[],[],[],[],
            [assign(none,[{p}],[couple(none,[{one},{two}])])],[]),
          event(none,swap,ordinary(none),[],[{a}],
            [equal(none,{a},function(none,event_b_second_projection_v2(none),[{p}]))],[],
            [assign(none,[{p}],[couple(none,[{a},function(none,event_b_first_projection_v2(none),[{p}])])])],[])])])],[],[],_E)).",
        one = int(1),
        two = int(2),
    );
    // (1, 2) and (2, 1) plus the root; init + one swap from each
    assert_eq!(explore(&text), Ok((3, 3)));
}
