//! Tests of ProB's Event-B event checks (variants, theorems among the
//! guards, guard strengthening, abstract actions, feasibility of
//! nondeterministic actions) and of the well-definedness of `^`: each
//! model breaks one check, and its repaired twin explores fine.

use frontend_testkit::bfs::{bfs, Bfs};

/// A machine `M` with variable `n` (initialised to `init`), the given
/// variant section and events, refining `refines` (`none` for none), and
/// the abstract machines `more` after it.
fn package(refines: &str, init: &str, variant: &str, events: &str, more: &str) -> String {
    let refines = match refines {
        "none" => String::new(),
        r => format!("refines(none,'{r}'),"),
    };
    format!(
        "package(load_event_b_project([event_b_model(none,'M',[sees(none,[]),{refines}
          variables(none,[identifier(none,n)]),invariant(none,[]),theorems(none,[]),{variant}
          events(none,[event(none,'INITIALISATION',ordinary(none),[],[],[],
            [assign(none,[identifier(none,n)],[{init}])],[]),{events}])]){more}],[],[],_E))."
    )
}

const INT_VARIANT: &str = "variant(none,identifier(none,n)),";
const TWO: &str = "integer(none,2)";

/// `decr` with `status`, guard `n >= low` and action `n := n - step`.
fn decr(status: &str, low: i64, step: i64) -> String {
    format!(
        "event(none,decr,{status}(none),[],[],
           [greater_equal(none,identifier(none,n),integer(none,{low}))],
           [assign(none,[identifier(none,n)],
              [minus(none,identifier(none,n),integer(none,{step}))])],[])"
    )
}

/// The exploration of `text`: the model error's message, or `ok`.
fn explore(text: &str) -> String {
    let m = match crate::parse_str(text, "M_mch.eventb") {
        Ok(m) => m,
        Err(e) => return format!("parse: {e}"),
    };
    match bfs(&m, 1000, None) {
        Bfs::Done(..) => "ok".into(),
        Bfs::GaveUp(w) => format!("gave up: {w}"),
        Bfs::Error(e) => e.to_string(),
    }
}

#[test]
fn a_convergent_event_needs_a_natural_variant() {
    let bad = package("none", TWO, INT_VARIANT, &decr("convergent", -1, 1), "");
    assert!(explore(&bad).contains("variant_negative: event decr"));
    let bad = package("none", TWO, INT_VARIANT, &decr("anticipated", -1, 1), "");
    assert!(explore(&bad).contains("variant_negative: event decr"));
    let good = package("none", TWO, INT_VARIANT, &decr("convergent", 1, 1), "");
    assert_eq!(explore(&good), "ok");
}

#[test]
fn a_convergent_event_decreases_the_variant_an_anticipated_one_keeps_it() {
    let bad = package("none", TWO, INT_VARIANT, &decr("convergent", 1, 0), "");
    assert!(explore(&bad).contains("invalid_variant: event decr"));
    let bad = package("none", TWO, INT_VARIANT, &decr("anticipated", 1, -1), "");
    assert!(explore(&bad).contains("invalid_variant: event decr"));
    let good = package("none", TWO, INT_VARIANT, &decr("anticipated", 1, 0), "");
    assert_eq!(explore(&good), "ok");
    // no variant: nothing to check
    let good = package("none", TWO, "", &decr("convergent", 1, 0), "");
    assert_eq!(explore(&good), "ok");
}

#[test]
fn a_set_variant_follows_the_subset_order() {
    let init = "set_extension(none,[integer(none,1)])";
    let keep = |status: &str| {
        format!(
            "event(none,keep,{status}(none),[],[],[],
               [assign(none,[identifier(none,n)],[identifier(none,n)])],[])"
        )
    };
    let bad = package("none", init, INT_VARIANT, &keep("convergent"), "");
    assert!(explore(&bad).contains("invalid_variant: event keep"));
    let good = package("none", init, INT_VARIANT, &keep("anticipated"), "");
    assert_eq!(explore(&good), "ok");
}

#[test]
fn a_theorem_among_the_guards_must_hold() {
    let ev = |bound: i64| {
        format!(
            "event(none,decr,ordinary(none),[],[],
               [greater_equal(none,identifier(none,n),integer(none,1))],
               [less_equal(rodinpos(thm1,x),identifier(none,n),integer(none,{bound}))],
               [assign(none,[identifier(none,n)],
                  [minus(none,identifier(none,n),integer(none,1))])],[])"
        )
    };
    let bad = package("none", TWO, "", &ev(1), "");
    assert!(explore(&bad).contains("invalid_theorem_in_guard: event decr, theorem thm1"));
    assert_eq!(explore(&package("none", TWO, "", &ev(2), "")), "ok");
}

/// Machine `A` (to be refined), whose event `decr` with parameters
/// `params` has guards `guards` and `n >= 1`, and action `n := n - 1`.
fn abstract_decr(params: &str, guards: &str) -> String {
    format!(
        ",event_b_model(none,'A',[sees(none,[]),
          variables(none,[identifier(none,n)]),invariant(none,[]),theorems(none,[]),
          events(none,[event(none,'INITIALISATION',ordinary(none),[],[],[],
            [assign(none,[identifier(none,n)],[integer(none,2)])],[]),
          event(none,decr,ordinary(none),[],[{params}],
            [{guards}greater_equal(none,identifier(none,n),integer(none,1))],
            [assign(none,[identifier(none,n)],
              [minus(none,identifier(none,n),integer(none,1))])],[])])])"
    )
}

#[test]
fn a_refined_event_needs_the_abstract_guard() {
    let abs = &abstract_decr("", "");
    let refining = |low: i64| decr("ordinary", low, 1).replacen("[],[],", "[decr],[],", 1);
    let bad = package("A", TWO, "", &refining(0), abs);
    assert!(explore(&bad).contains("simulation_error: event decr"));
    assert_eq!(explore(&package("A", TWO, "", &refining(1), abs)), "ok");
}

#[test]
fn a_witnessed_abstract_parameter_meets_the_abstract_guard() {
    // abstract decr(x) with guard x : NAT1; the refinement gives x by the
    // witness x = w (CoffeR1's fill_mug, whose x = -1 ProB rejects)
    let abs = &abstract_decr(
        "identifier(none,x)",
        "member(none,identifier(none,x),natural1_set(none)),",
    );
    let refining = |w: i64| {
        decr("ordinary", 1, 1)
            .replacen("[],[],", "[decr],[],", 1)
            .replacen(
                "])],[])",
                &format!(
                    "])],[witness(none,identifier(none,x),
                   equal(none,identifier(none,x),integer(none,{w})))])"
                ),
                1,
            )
    };
    let bad = package("A", TWO, "", &refining(-1), abs);
    assert!(
        explore(&bad).contains("simulation_error: event decr"),
        "{}",
        explore(&bad)
    );
    assert_eq!(explore(&package("A", TWO, "", &refining(1), abs)), "ok");
}

#[test]
fn a_nondeterministic_action_needs_a_solution() {
    let ev = |low: i64| {
        format!(
            "event(none,step,ordinary(none),[],[],
               [greater_equal(none,identifier(none,n),integer(none,{low}))],
               [becomes_such(rodinpos(act1,x),[identifier(none,n)],
                  conjunct(none,
                    equal(none,identifier(none,'n\\''),
                      minus(none,identifier(none,n),integer(none,1))),
                    greater_equal(none,identifier(none,'n\\''),integer(none,0))))],[])"
        )
    };
    let bad = package("none", TWO, "", &ev(0), "");
    assert!(explore(&bad).contains("action_not_executable: action act1 of event step"));
    assert_eq!(explore(&package("none", TWO, "", &ev(1), "")), "ok");
}

#[test]
fn a_refined_event_performs_the_abstract_actions() {
    let abs = |step: i64| {
        format!(
            ",event_b_model(none,'A',[sees(none,[]),
          variables(none,[identifier(none,n)]),invariant(none,[]),theorems(none,[]),
          events(none,[event(none,'INITIALISATION',ordinary(none),[],[],[],
            [assign(none,[identifier(none,n)],[integer(none,2)])],[]),
          event(none,decr,ordinary(none),[],[],[],
            [assign(rodinpos(act1,x),[identifier(none,n)],
              [minus(none,identifier(none,n),integer(none,{step}))])],[])])])"
        )
    };
    let refining = decr("ordinary", 1, 1).replacen("[],[],", "[decr],[],", 1);
    let bad = package("A", TWO, "", &refining, &abs(0));
    assert!(explore(&bad).contains("action_not_executable: event decr refines event decr"));
    assert_eq!(explore(&package("A", TWO, "", &refining, &abs(1))), "ok");
}

#[test]
fn an_event_b_power_needs_a_natural_base() {
    let power = |base: i64| format!("power_of(none,integer(none,{base}),integer(none,3))");
    let ev = decr("ordinary", 100, 1);
    let bad = package("none", &power(-2), "", &ev, "");
    assert!(explore(&bad).contains("power of a negative number"));
    assert_eq!(explore(&package("none", &power(2), "", &ev, "")), "ok");
}

#[test]
fn a_new_event_keeps_the_abstract_variables() {
    // `A` has `n`; the refinement's new event `set` (refining none)
    // assigns it: a change is ProB's invalid_modification (Ackermann2's
    // compute_ack), its own value is fine (LandingSystem_1_2), as in a
    // machine that refines none
    let abs = ",event_b_model(none,'A',[sees(none,[]),
          variables(none,[identifier(none,n)]),invariant(none,[]),theorems(none,[]),
          events(none,[event(none,'INITIALISATION',ordinary(none),[],[],[],
            [assign(none,[identifier(none,n)],[integer(none,2)])],[])])])";
    let set = |v: i64| {
        format!(
            "event(none,set,ordinary(none),[],[],[],
               [assign(none,[identifier(none,n)],[integer(none,{v})])],[])"
        )
    };
    let bad = package("A", TWO, "", &set(3), abs);
    assert!(explore(&bad).contains("invalid_modification: new event set"));
    assert_eq!(explore(&package("A", TWO, "", &set(2), abs)), "ok");
    assert_eq!(explore(&package("none", TWO, "", &set(3), "")), "ok");
}

#[test]
fn a_witness_must_have_a_value() {
    // `A` adds a boolean `p` to `s`; `M` drops `s`, counts in `n` and
    // gives `p` by the witness `p : BOOL \ s`: a third add has no witness
    // (ProB's no_witness_found, CCounterErr), two adds are fine
    let id = |n: &str| format!("identifier(none,{n})");
    let (s, p) = (id("s"), id("p"));
    let abs = format!(
        ",event_b_model(none,'A',[sees(none,[]),
          variables(none,[{s}]),invariant(none,[]),theorems(none,[]),
          events(none,[event(none,'INITIALISATION',ordinary(none),[],[],[],[],
            [assign(none,[{s}],[empty_set(none)])],[]),
          event(none,add,ordinary(none),[],[{p}],
            [member(none,{p},bool_set(none)),not_member(none,{p},{s})],[],
            [assign(none,[{s}],[union(none,{s},set_extension(none,[{p}]))])],[])])])"
    );
    let add = |max: i64| {
        format!(
            "event(none,add,ordinary(none),[add],[],
               [less(none,identifier(none,n),integer(none,{max}))],[],
               [assign(none,[identifier(none,n)],
                  [add(none,identifier(none,n),integer(none,1))])],
               [witness(none,{p},member(none,{p},set_subtraction(none,bool_set(none),{s})))])"
        )
    };
    let zero = "integer(none,0)";
    let bad = explore(&package("A", zero, "", &add(3), &abs));
    assert!(
        bad.contains("no_witness_found: abstract parameter p"),
        "{bad}"
    );
    assert_eq!(explore(&package("A", zero, "", &add(2), &abs)), "ok");
}

/// Abstract machine `A` with variable `x` (which `M` drops), from 2, and
/// the events `a1` (`x >= 2`) and `a2` (`x = 1`), each `x := x - 1`, or
/// `x := x - step2` for `a2`.
fn abstract_pair(step2: i64) -> String {
    let ev = |name: &str, guard: &str, step: i64| {
        format!(
            "event(none,{name},ordinary(none),[],[],[{guard}(none,identifier(none,x),integer(none,{}))],
               [assign(none,[identifier(none,x)],
                 [minus(none,identifier(none,x),integer(none,{step}))])],[])",
            if name == "a1" { 2 } else { 1 }
        )
    };
    format!(
        ",event_b_model(none,'A',[sees(none,[]),
          variables(none,[identifier(none,x)]),invariant(none,[]),theorems(none,[]),
          events(none,[event(none,'INITIALISATION',ordinary(none),[],[],[],
            [assign(none,[identifier(none,x)],[integer(none,2)])],[]),
          {},{}])])",
        ev("a1", "greater_equal", 1),
        ev("a2", "equal", step2)
    )
}

#[test]
fn a_merging_event_needs_one_of_the_abstract_guards() {
    let merging = |low: i64| decr("ordinary", low, 1).replacen("[],[],", "[a1,a2],[],", 1);
    // at n = x = 0 neither a1 nor a2 is enabled
    let bad = package("A", TWO, "", &merging(0), &abstract_pair(1));
    assert!(
        explore(&bad).contains("simulation_error: event decr"),
        "{}",
        explore(&bad)
    );
    assert_eq!(
        explore(&package("A", TWO, "", &merging(1), &abstract_pair(1))),
        "ok"
    );
    // abstract events with different actions: each acts where its guard
    // holds (`merge`): x = 2 -a1-> 1 -a2-> -1
    let other = package("A", TWO, "", &merging(1), &abstract_pair(2));
    assert_eq!(explore(&other), "ok");
}
