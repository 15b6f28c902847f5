//! Tests of `cardinality` (`card` of intervals, power sets and products
//! without building them) and of `solve::monotone` (a subset pruned
//! element by element by a check antitone in it).

use crate::tests::{count, first_error};

#[test]
fn cardinalities_by_syntax() {
    // 2^31 - 1, 2^20, 1000 * 1000, 2^3 - 1 and an empty interval, by hand:
    // the guard holds, so set is enabled from both states
    let (s, t) = count(
        "MACHINE C VARIABLES x INITIALISATION x := 0
         OPERATIONS set = SELECT card(1..2147483647) = 2147483647
             & card(POW(1..20)) = 1048576 & card((1..1000) * (1..1000)) = 1000000
             & card(POW1(1..3)) = 7 & card(5..4) = 0 THEN x := 1 END END",
    );
    assert_eq!((s, t), (3, 3));
}

#[test]
fn a_cardinality_beyond_64_bits_is_refused() {
    let e = first_error("MACHINE C VARIABLES x INITIALISATION x := card(POW(1..64)) END")
        .expect("refused");
    assert!(e.contains("beyond 64 bits"), "{e}");
}

/// A machine whose constant `s` is a subset of `ID` with `props`.
fn subsets_of(ids: &str, props: &str) -> String {
    format!(
        "MACHINE S SETS ID = {{{ids}}} CONSTANTS s PROPERTIES s <: ID & {props}
         VARIABLES x INITIALISATION x := 0 OPERATIONS op = skip END"
    )
}

#[test]
fn an_antitone_check_prunes_a_large_subset_search() {
    // 2^30 subsets without the pruning; those of {a,b,c} are admitted, as
    // in the same machine over {a,b,c} alone with no check
    let many: Vec<String> = (0..27).map(|i| format!("e{i}")).collect();
    let pruned = count(&subsets_of(
        &format!("a,b,c,{}", many.join(",")),
        "!(y).(y : s => y : {a,b,c})",
    ));
    assert_eq!(pruned, count(&subsets_of("a,b,c", "1 = 1")));
}

#[test]
fn a_monotone_check_is_not_pruned_as_antitone() {
    // the subsets holding a and b, listed in the second machine
    let monotone = count(&subsets_of("a,b,c,d", "!(y).(y : {a,b} => y : s)"));
    let listed = count(&subsets_of(
        "a,b,c,d",
        "s : {{a,b}, {a,b,c}, {a,b,d}, {a,b,c,d}}",
    ));
    assert_eq!(monotone, listed);
}
