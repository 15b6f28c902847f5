//! Tests of `{x, n . P | x}` read as `{x | #n.P}` (`projected_set`):
//! counts computed by hand.

use frontend_testkit::bfs::{bfs, Bfs};

use super::tests_datatypes::int;

/// A context with the constant `s` given by `axioms` (terms), and the
/// set `SEQ = {f, n . n : NAT & f : 1..n --> 0..1 | f}` of the
/// sequences over 0..1.
fn context(axioms: &[String]) -> String {
    format!(
        "package(load_event_b_project([],[event_b_context(none,'C',[extends(none,[]),
          constants(none,[identifier(none,s)]),axioms(none,[{}]),theorems(none,[]),
          sets(none,[])])],[],_E)).",
        axioms.join(",")
    )
}

fn seqs() -> String {
    let (f, n) = ("identifier(none,f)", "identifier(none,n)");
    format!(
        "event_b_comprehension_set(none,[{n},{f}],{f},conjunct(none,member(none,{n},natural_set(none)),
          member(none,{f},total_function(none,interval(none,{one},{n}),interval(none,{zero},{one})))))",
        one = int(1),
        zero = int(0),
    )
}

/// `[x1, .., xk]` as `{1 |-> x1, ..}`.
fn seq_of(xs: &[i64]) -> String {
    let pairs: Vec<String> = (1..)
        .zip(xs)
        .map(|(i, x)| format!("couple(none,[{},{}])", int(i), int(*x)))
        .collect();
    format!("set_extension(none,[{}])", pairs.join(","))
}

fn states(text: &str) -> u64 {
    let m = crate::parse_str(text, "C_ctx.eventb").unwrap_or_else(|e| panic!("{e}"));
    match bfs(&m, 1000, None) {
        Bfs::Done(states, _) => states,
        _ => panic!("exploration failed"),
    }
}

#[test]
fn membership_in_a_projected_set_solves_the_other_identifiers() {
    let s = "identifier(none,s)";
    let member = |xs: &[i64]| {
        context(&[
            format!("equal(none,{s},{})", seq_of(xs)),
            format!("member(none,{s},{})", seqs()),
        ])
    };
    // a sequence of 5 (longer than MAXINT): the root, the constants and
    // the initialisation
    assert_eq!(states(&member(&[0, 1, 1, 0, 1])), 3);
    // 2 out of 0..1: no constants
    assert_eq!(states(&member(&[0, 2])), 1);
    // s : SEQ & s : 1..2 --> {0, 1}: 4 constants, each initialised
    let text = context(&[
        format!("member(none,{s},{})", seqs()),
        format!(
            "member(none,{s},total_function(none,interval(none,{},{}),interval(none,{},{})))",
            int(1),
            int(2),
            int(0),
            int(1)
        ),
    ]);
    assert_eq!(states(&text), 9);
}
