//! Tests of witnesses given one refinement above the concrete machine
//! (qs9's shape: `qs8` drops `a` and gives `a' = h'` in its
//! INITIALISATION, `qs9` refines `qs8`) and of `Space /= {}` decided from
//! the sets of a function space (`nonempty`).

use super::tests_typing::count;

/// `M` (variable `h`) refines `A1` (variable `h`, which drops `a` with
/// the witness `witness` in its INITIALISATION) refining `A0` (variable
/// `a`, `a :| a' : 0..1`). `flip` does `h := 1 - h`, `A0`'s `flip`
/// `a := a`.
fn chain(witness: &str) -> String {
    let (h, a) = ("identifier(none,h)", "identifier(none,a)");
    let a_after = "identifier(none,'a\\'')";
    let flip_h = format!("assign(none,[{h}],[minus(none,integer(none,1),{h})])");
    let h_init =
        format!("becomes_element_of(none,[{h}],interval(none,integer(none,0),integer(none,1)))");
    let machine = |name: &str, refines: &str, var: &str, init: &str, w: &str, flip: &str| {
        format!(
            "event_b_model(none,'{name}',[sees(none,[]),{refines}
               variables(none,[{var}]),invariant(none,[]),theorems(none,[]),
               events(none,[event(none,'INITIALISATION',ordinary(none),['INITIALISATION'],[],[],
                 [{init}],[{w}]),
                 event(none,flip,ordinary(none),[flip],[],[],[{flip}],[])])])"
        )
    };
    let m = machine("M", "refines(none,'A1'),", h, &h_init, "", &flip_h);
    let a1 = machine("A1", "refines(none,'A0'),", h, &h_init, witness, &flip_h);
    let a0_init = format!(
        "becomes_such(none,[{a}],member(none,{a_after},interval(none,integer(none,0),integer(none,1))))"
    );
    let a0 = machine(
        "A0",
        "",
        a,
        &a0_init,
        "",
        &format!("assign(none,[{a}],[{a}])"),
    );
    format!("package(load_event_b_project([{m},{a1},{a0}],[],[],_E)).")
}

#[test]
fn a_witness_of_the_refinement_that_drops_a_variable_gives_its_after_value() {
    let w = "witness(none,identifier(none,'a\\''),
               equal(none,identifier(none,'a\\''),identifier(none,'h\\'')))";
    // (h, a): (0,0) and (1,1) initially, flips lead to (1,0) and (0,1):
    // 4 states and the root; 2 initialisations and 4 flips (without `a`,
    // 2 states)
    assert_eq!(count(&chain(w)), Ok((5, 6)));
    // no witness: refused
    let e = count(&chain("")).expect_err("refused");
    assert!(
        e.contains("the abstract action becomes_such on the dropped variable a"),
        "{e}"
    );
}

/// A context with the constant `c : 0..2` and the axiom `space /= {}`.
fn context(space: &str) -> String {
    let c = "identifier(none,c)";
    format!(
        "package(load_event_b_project([],[event_b_context(none,'C',[extends(none,[]),
           constants(none,[{c}]),
           axioms(none,[member(none,{c},interval(none,integer(none,0),integer(none,2))),
             not_equal(none,{space},empty_set(none))]),
           theorems(none,[]),sets(none,[])])],[],_E))."
    )
}

#[test]
fn a_function_space_is_empty_only_from_a_nonempty_domain_to_an_empty_set() {
    let dom = "interval(none,integer(none,1),identifier(none,c))";
    // each solution is a SETUP_CONSTANTS state and its initialised
    // state, besides the root: 1 + 2 * solutions states, 2 * solutions
    // edges. 1..c --> {} is not empty only for c = 0: one solution
    let to_empty = format!("total_function(none,{dom},empty_set(none))");
    assert_eq!(count(&context(&to_empty)), Ok((3, 2)));
    // into INTEGER, or partial: every c (3 solutions)
    let to_int = format!("total_function(none,{dom},integer_set(none))");
    assert_eq!(count(&context(&to_int)), Ok((7, 6)));
    let partial = format!("partial_function(none,{dom},empty_set(none))");
    assert_eq!(count(&context(&partial)), Ok((7, 6)));
}
