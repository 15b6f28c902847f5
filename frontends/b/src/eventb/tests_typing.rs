//! Tests of Event-B typing read from the invariants and of axioms ProB
//! drops: a parameter typed only by `l /: NET` with `NET` empty, and a
//! context whose only axiom is `finite(L)` of its deferred carrier set;
//! a context the export lists twice; a universal quantifier `!x.(TRUE =>
//! Q)` typing `x` only in `Q`.

use frontend_testkit::bfs::{bfs, Bfs};

/// rm_0's shape: context `C` with deferred set `L` and the axioms
/// `axioms`; machine `M` with `NET`, declared by `invariant`, starting
/// empty, and events adding (`up(l)`, `l /: NET`) and removing
/// (`dn(l)`, `l : NET`) one element.
fn package(axioms: &str, invariant: &str) -> String {
    let id = |n: &str| format!("identifier(none,'{n}')");
    let (net, l) = (id("NET"), id("l"));
    let event = |name: &str, guard: &str, op: &str| {
        format!(
            "event(none,{name},ordinary(none),[],[{l}],[{guard}(none,{l},{net})],
               [assign(none,[{net}],[{op}(none,{net},set_extension(none,[{l}]))])],[])"
        )
    };
    format!(
        "package(load_event_b_project([event_b_model(none,'M',[sees(none,['C']),
          variables(none,[{net}]),invariant(none,[{invariant}]),theorems(none,[]),
          events(none,[event(none,'INITIALISATION',ordinary(none),[],[],[],
            [assign(none,[{net}],[empty_set(none)])],[]),{},{}])])],
          [event_b_context(none,'C',[extends(none,[]),constants(none,[]),
            axioms(none,[{axioms}]),theorems(none,[]),
            sets(none,[deferred_set(none,'L')])])],[],_E)).",
        event("up", "not_member", "union"),
        event("dn", "member", "set_subtraction"),
    )
}

/// The states and edges of exploring `text`, or the error.
pub(super) fn count(text: &str) -> Result<(u64, u64), String> {
    let m = crate::parse_str(text, "M_mch.eventb").map_err(|e| e.to_string())?;
    match bfs(&m, 1000, None) {
        Bfs::Done(s, e) => Ok((s, e)),
        Bfs::GaveUp(w) => Err(format!("gave up: {w}")),
        Bfs::Error(e) => Err(e.to_string()),
    }
}

#[test]
fn a_parameter_typed_by_an_empty_variable_declared_in_the_invariant() {
    // NET <: L (2 elements): the 4 subsets (+ the root); edges: the
    // initialisation and 2 per state (ProB's rm_0: 4 states, 9 edges)
    let fin = "finite(none,identifier(none,'L'))";
    let inv = "subset(none,identifier(none,'NET'),identifier(none,'L'))";
    assert_eq!(count(&package(fin, inv)), Ok((5, 9)));
    // without the invariant, `l`'s type is not shown by `NET = {}`
    let e = count(&package(fin, "")).expect_err("untyped");
    assert!(e.contains("cannot enumerate 'l'"), "{e}");
}

#[test]
fn finite_of_a_carrier_set_adds_no_setup_step() {
    // `L /= {}` is kept (a SETUP_CONSTANTS step and its edge: ProB's
    // C1_ctx), `finite(L)` is dropped
    let inv = "subset(none,identifier(none,'NET'),identifier(none,'L'))";
    let nonempty = "not_equal(none,identifier(none,'L'),empty_set(none))";
    assert_eq!(count(&package(nonempty, inv)), Ok((6, 10)));
}

/// A context `C` with constant `c : 1..n` (no machine), listed `times`
/// times in the package (ProB's exports of TestUnionUnion_ctx list it
/// twice).
fn context_listed(times: usize, n: i64) -> String {
    let c = "identifier(none,c)";
    let ctx = format!(
        "event_b_context(none,'C',[extends(none,[]),constants(none,[{c}]),
           axioms(none,[member(none,{c},interval(none,integer(none,1),integer(none,{n})))]),
           theorems(none,[]),sets(none,[])])"
    );
    let ctxs = vec![ctx; times].join(",");
    format!("package(load_event_b_project([],[{ctxs}],[],_E)).")
}

#[test]
fn a_context_listed_twice_is_read_once() {
    for n in 1..4 {
        let once = count(&context_listed(1, n)).expect("once");
        assert_eq!(count(&context_listed(2, n)), Ok(once), "c : 1..{n}");
    }
}

/// A context with the constant `f` equal to `pairs` (booleans) and the
/// axiom `!x.(TRUE => f(f(x)) = x)`, `x` typed only by the consequent.
fn involution(pairs: &str) -> String {
    let (f, x) = ("identifier(none,f)", "identifier(none,x)");
    format!(
        "package(load_event_b_project([],[event_b_context(none,'C',[extends(none,[]),
           constants(none,[{f}]),
           axioms(none,[equal(none,{f},set_extension(none,[{pairs}])),
             forall(none,[{x}],implication(none,truth(none),
               equal(none,function(none,{f},[function(none,{f},[{x}])]),{x})))]),
           theorems(none,[]),sets(none,[])])],[],_E))."
    )
}

#[test]
fn a_universal_typed_by_its_consequent_ranges_over_the_type() {
    let pair = |a: &str, b: &str| format!("couple(none,[boolean_{a}(none),boolean_{b}(none)])");
    // negation is an involution: root, the constants state and its
    // initialised state; the setup and init edges
    let neg = format!("{},{}", pair("true", "false"), pair("false", "true"));
    assert_eq!(count(&involution(&neg)), Ok((3, 2)));
    // the constant TRUE function is not: no solution, the root only
    let top = format!("{},{}", pair("true", "true"), pair("false", "true"));
    assert_eq!(count(&involution(&top)), Ok((1, 0)));
}
