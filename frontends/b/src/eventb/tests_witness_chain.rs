//! Tests of the witnesses of abstract parameters given two refinements
//! down (by an intermediate event, not the concrete one: ProB's
//! conc_2_mch_finite) and of event parameters typed only by a theorem
//! among the guards (a composed machine's `Send`). Counts by hand.

use frontend_testkit::bfs::{bfs, Bfs};

/// `A0` sets `t` to its parameter `d : 0..2`; `A1` drops `t`, counts in
/// `n` and gives `d` by the witness `{witness}`; `M` refines `A1` and
/// gives no witness (its `put` has none of `A1`'s parameters).
fn chain(witness: &str, a1_params: &str) -> String {
    let id = |n: &str| format!("identifier(none,{n})");
    let (n, t, d) = (id("n"), id("t"), id("d"));
    let init = |v: &str, refines: &str| {
        format!(
            "event(none,'INITIALISATION',ordinary(none),[{refines}],[],[],[],
               [assign(none,[{v}],[integer(none,0)])],[])"
        )
    };
    let count = format!(
        "[less(none,{n},integer(none,2))],[],
         [assign(none,[{n}],[add(none,{n},integer(none,1))])]"
    );
    let machine = |name: &str, refines: &str, vars: &str, events: &str| {
        let refines = match refines {
            "" => String::new(),
            r => format!("refines(none,'{r}'),"),
        };
        format!(
            "event_b_model(none,'{name}',[sees(none,[]),{refines}
               variables(none,[{vars}]),invariant(none,[]),theorems(none,[]),
               events(none,[{events}])])"
        )
    };
    let m = machine(
        "M",
        "A1",
        &n,
        &format!(
            "{},event(none,put,ordinary(none),[put],[],{count},[])",
            init(&n, "'INITIALISATION'")
        ),
    );
    let a1 = machine(
        "A1",
        "A0",
        &n,
        &format!(
            "{},event(none,put,ordinary(none),[put],[{a1_params}],{count},[{witness}])",
            init(&n, "'INITIALISATION'")
        ),
    );
    let a0 = machine(
        "A0",
        "",
        &t,
        &format!(
            "{},event(none,put,ordinary(none),[],[{d}],
               [member(none,{d},interval(none,integer(none,0),integer(none,2)))],[],
               [assign(none,[{t}],[{d}])],[])",
            init(&t, "")
        ),
    );
    format!("package(load_event_b_project([{m},{a1},{a0}],[],[],_E)).")
}

fn explore(text: &str) -> Result<(u64, u64), String> {
    let m = crate::parse_str(text, "M_mch.eventb").map_err(|e| e.to_string())?;
    match bfs(&m, 1000, None) {
        Bfs::Done(states, transitions) => Ok((states, transitions)),
        Bfs::Error(e) => Err(e.to_string()),
        Bfs::GaveUp(_) => Err("limit".into()),
    }
}

#[test]
fn a_witness_of_an_intermediate_event_gives_the_abstract_parameter() {
    // `d = n` (the before-value): (n, t) goes (0, 0), (1, 0), (2, 1):
    // 3 states + the root; 1 initialisation and 2 `put` transitions
    let witness = "witness(none,identifier(none,d),
        equal(none,identifier(none,d),identifier(none,n)))";
    assert_eq!(explore(&chain(witness, "")), Ok((4, 3)));
}

#[test]
fn an_abstract_parameter_without_a_witness_on_the_way_down_is_refused() {
    let e = explore(&chain("", "")).expect_err("no witness");
    assert!(
        e.contains("the abstract parameter d of put given by no witness"),
        "{e}"
    );
}

#[test]
fn a_witness_reading_an_intermediate_parameter_is_refused() {
    // `A1`'s `put` gives `d` by `d = e`, `e` its own parameter, which `M`
    // drops without a witness of its own
    let witness = "witness(none,identifier(none,d),
        equal(none,identifier(none,d),identifier(none,e)))";
    let e = explore(&chain(witness, "identifier(none,e)")).expect_err("hidden parameter");
    assert!(
        e.contains("reading the parameter e of an intermediate event"),
        "{e}"
    );
}

/// A machine with `x` (initially `init`) and the event `set(p)` whose
/// only typing of `p` is the theorem `p : {ty}`, with action `x := p`.
fn typed_by_theorem(init: &str, ty: &str) -> String {
    format!(
        "package(load_event_b_project([event_b_model(none,'M',[sees(none,[]),
          variables(none,[identifier(none,x)]),invariant(none,[]),theorems(none,[]),
          events(none,[event(none,'INITIALISATION',ordinary(none),[],[],[],[],
            [assign(none,[identifier(none,x)],[{init}])],[]),
          event(none,set,ordinary(none),[],[identifier(none,p)],[],
            [member(none,identifier(none,p),{ty})],
            [assign(none,[identifier(none,x)],[identifier(none,p)])],[])])])],[],[],_E))."
    )
}

#[test]
fn a_parameter_typed_by_a_theorem_ranges_over_its_type() {
    // BOOL: 2 states + the root; 1 initialisation, 2 * 2 `set`
    let b = typed_by_theorem("boolean_false(none)", "bool_set(none)");
    assert_eq!(explore(&b), Ok((3, 5)));
    // INTEGER, ProB's MININT..MAXINT = -1..3: 5 states + the root;
    // 1 initialisation, 5 * 5 `set`
    let i = typed_by_theorem("integer(none,0)", "integer_set(none)");
    assert_eq!(explore(&i), Ok((6, 26)));
}
