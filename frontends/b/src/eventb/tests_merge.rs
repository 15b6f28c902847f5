//! Tests of an event merging abstract events whose actions differ
//! (`merge`): one branch per abstract event whose guard holds, each with
//! that event's actions on the dropped variables; a simulation error when
//! none holds; refused when more than one holds.

use super::tests_typing::count as explore;

/// Machine `M` (variable `c`) refining `A` (variables `c`, `d`; `d`
/// dropped): `M`'s `toggle` (`c := 1 - c`, no guard) merges `a1`
/// (guard `g1`, `c := 1 - c` and `d := 1 - d`) and `a2` (guard `g2`,
/// only `c := 1 - c`).
fn package(g1: &str, g2: &str) -> String {
    let c = "identifier(none,c)";
    let d = "identifier(none,d)";
    let toggle = |x: &str| format!("assign(none,[{x}],[minus(none,integer(none,1),{x})])");
    let init = format!(
        "event(none,'INITIALISATION',ordinary(none),[],[],[],
           [assign(none,[{c}],[integer(none,0)]),assign(none,[{d}],[integer(none,0)])],[])"
    );
    let a = |name: &str, guard: &str, acts: &str| {
        format!("event(none,{name},ordinary(none),[],[],[{guard}],[{acts}],[])")
    };
    format!(
        "package(load_event_b_project([event_b_model(none,'M',[sees(none,[]),refines(none,'A'),
          variables(none,[{c}]),invariant(none,[]),theorems(none,[]),
          events(none,[event(none,'INITIALISATION',ordinary(none),[],[],[],
            [assign(none,[{c}],[integer(none,0)])],[]),
            event(none,toggle,ordinary(none),[a1,a2],[],[],[{tc}],[])])]),
        event_b_model(none,'A',[sees(none,[]),
          variables(none,[{c},{d}]),invariant(none,[]),theorems(none,[]),
          events(none,[{init},{a1},{a2}])])],[],[],_E)).",
        tc = toggle(c),
        a1 = a("a1", g1, &format!("{},{}", toggle(c), toggle(d))),
        a2 = a("a2", g2, &toggle(c)),
    )
}

fn eq(x: &str, n: i64) -> String {
    format!("equal(none,identifier(none,{x}),integer(none,{n}))")
}

#[test]
fn each_merged_abstract_event_acts_where_its_guard_holds() {
    // (c, d): (0,0) -a1-> (1,1) -a2-> (0,1) -a1-> (1,0) -a2-> (0,0):
    // 4 states and the root; the initialisation and 4 toggles
    assert_eq!(explore(&package(&eq("c", 0), &eq("c", 1))), Ok((5, 5)));
}

#[test]
fn a_merging_event_with_no_abstract_guard_holding_is_a_simulation_error() {
    // at c = 1 neither a1 (c = 0) nor a2 (c = 2) is enabled
    let e = explore(&package(&eq("c", 0), &eq("c", 2))).expect_err("model error");
    assert!(e.contains("simulation_error: event toggle"), "{e}");
}

#[test]
fn a_merging_event_with_two_abstract_guards_holding_is_refused() {
    // a1's `d = 0` and a2's `c = 0` both hold at (c, d) = (0, 0)
    let e = explore(&package(&eq("d", 0), &eq("c", 0))).expect_err("refused");
    assert!(e.contains("more than one of their guards holds"), "{e}");
}
