//! Unit tests of `deferred_listed_parts`: a deferred set partitioned into
//! sets listed by constants and constant parts, on small machines whose
//! counts are computed by hand.

use crate::tests::count;
use crate::tests_setsize::refusal;

/// `S` split into `{a, b}`, `{c}` and the constant parts `rest` (`G` or
/// `G, H`), every two disjoint, with `extra` PROPERTIES.
fn split(rest: &[&str], extra: &str) -> String {
    let mut parts = vec!["{a, b}", "{c}"];
    parts.extend(rest);
    let mut disjoint = Vec::new();
    for (i, p) in parts.iter().enumerate() {
        for q in &parts[..i] {
            disjoint.push(format!("{q} /\\ {p} = {{}}"));
        }
    }
    format!(
        "MACHINE L SETS S CONSTANTS a, b, c, G, H
         PROPERTIES S = {} & {} & H <: S {extra}
         VARIABLES x INITIALISATION x := 0 END",
        parts.join(" \\/ "),
        disjoint.join(" & ")
    )
}

#[test]
fn a_part_said_non_empty_needs_an_element_past_the_listed_ones() {
    // a, b, c distinct (c apart from both by the disjointness): S needs
    // 3 + 1 elements for H /= {}; MACE: a, b, c the first three, H the
    // fourth, G empty: one solution, root + 1 + 1 states, 1 + 1 edges
    let (s, t) = count(&split(&["G", "H"], "& a /= b & H /= {}"));
    assert_eq!((s, t), (3, 2));
    // a = b allowed: c apart from a only, S of 2 + 1 = 3 elements; a
    // first, b = a (c second, H the third) or b second (c the third, H
    // empty: no solution): one solution
    let (s, t) = count(&split(&["G", "H"], "& H /= {}"));
    assert_eq!((s, t), (3, 2));
}

#[test]
fn one_part_takes_the_free_elements() {
    // S of 4: a first; b = a (c second, G the 2 others) or b second (c
    // third, G the fourth): 2 solutions, root + 2 + 2 states, 2 + 2 edges
    let (s, t) = count(&split(&["G"], "& H = {} & card(S) = 4"));
    assert_eq!((s, t), (5, 4));
}

#[test]
fn one_free_element_goes_to_either_part() {
    // S of 4: a, b, c the first three, the fourth in G or in H: 2
    // solutions, root + 2 + 2 states, 2 + 2 edges
    let (s, t) = count(&split(&["G", "H"], "& a /= b & card(S) = 4"));
    assert_eq!((s, t), (5, 4));
}

#[test]
fn free_elements_for_two_parts_are_refused() {
    // card(S) = 5: two free elements past a, b, c
    let e = refusal(&split(&["G", "H"], "& a /= b & card(S) = 5"));
    assert!(e.contains("allocation of the free elements"), "{e}");
}
