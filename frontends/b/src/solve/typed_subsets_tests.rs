//! Unit tests of the set-typed identifiers enumerated over their type
//! pruned by their disjointness checks (`typed_subsets`): the counts equal
//! those of the full enumeration (the same machine with a leading check
//! the pruning does not read past: a division may fail) and a brute
//! force over the elements' owners.

use crate::tests::count;

/// Constants `a <: S`, `b`, `c` pairwise disjoint and non-empty, `b` and
/// `c` typed only by `a /\ b`, `b /\ c` (`lead`: a check read first).
fn disjoint_machine(lead: &str) -> String {
    format!(
        "MACHINE D SETS S = {{s1, s2, s3, s4}} CONSTANTS a, b, c
         PROPERTIES a <: S & a /= {{}} & {lead} b /= {{}} & a /\\ b = {{}} &
           c /= {{}} & a /\\ c = {{}} & b /\\ c = {{}}
         VARIABLES v INVARIANT v : 0..4 INITIALISATION v := card(a) + 0 * card(b \\/ c) END"
    )
}

/// The assignments of 4 elements to one of `a`, `b`, `c` or none with
/// every one of `a`, `b`, `c` owning one at least.
fn brute_force() -> usize {
    (0..4usize.pow(4))
        .filter(|&m| {
            let owners: Vec<usize> = (0..4).map(|i| m / 4usize.pow(i) % 4).collect();
            (1..4).all(|o| owners.contains(&o))
        })
        .count()
}

#[test]
fn disjoint_typed_sets_are_those_of_the_full_enumeration() {
    let pruned = count(&disjoint_machine(""));
    let full = count(&disjoint_machine("card(b) / 1 >= 0 & card(c) / 1 >= 0 &"));
    assert_eq!(pruned, full);
    // the root, one constants state and one initialised state per
    // solution; the setup and initialisation edges
    let n = brute_force();
    assert_eq!(pruned, (1 + 2 * n, 2 * n));
}
