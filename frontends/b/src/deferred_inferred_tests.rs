//! Unit tests of `deferred_inferred`: identifiers typed only by inference
//! as elements of a deferred set, enumerated whole when the module allows
//! it (a variable; a constant of a set its distinct constants fill), on
//! small machines whose counts are computed by hand or by brute force.

use crate::deferred_orbits::permutations;
use crate::tests_deferred::explore;

/// The orbits, under the permutations of `0..n`, of the assignments of
/// `k` constants to `0..n` that `ok` accepts (brute force: an orbit is
/// counted at its least image).
fn orbits(n: u32, k: u32, ok: &dyn Fn(&[u32]) -> bool) -> u64 {
    let perms = permutations(n);
    let mut count = 0;
    for code in 0..n.pow(k) {
        let v: Vec<u32> = (0..k).map(|i| code / n.pow(i) % n).collect();
        if !ok(&v) {
            continue;
        }
        let least = perms
            .iter()
            .map(|p| v.iter().map(|&x| p[x as usize]).collect::<Vec<_>>())
            .min()
            .expect("the identity");
        count += u64::from(least == v);
    }
    count
}

#[test]
fn a_constant_of_a_set_its_distinct_constants_fill_takes_every_element() {
    // a, b, c fill S (3 elements); z /= a is typed only by inference
    let m = "MACHINE D SETS S CONSTANTS a, z, b, c
             PROPERTIES card(S) = 3 & a : S & b : S & c : S & a /= b & a /= c & b /= c
               & a /= z
             VARIABLES v INVARIANT v : S INITIALISATION v := z
             OPERATIONS set(y) = PRE y : S THEN v := y END END";
    let sols = orbits(3, 4, &|x| {
        x[0] != x[2] && x[0] != x[3] && x[2] != x[3] && x[0] != x[1]
    });
    assert_eq!(sols, 2);
    // per solution: its constants state, and v over the 3 elements
    // reached by set (3 parameters from each)
    let states = 1 + sols * (1 + 3);
    let transitions = sols * (1 + 1 + 3 * 3);
    assert_eq!(explore(m), Ok((states, transitions)));
}

#[test]
fn a_constant_of_a_set_not_filled_stays_refused() {
    // a, b distinct leave one of 3 elements free: ProB's reduction of z
    // is not modelled
    let m = "MACHINE D SETS S CONSTANTS a, z, b
             PROPERTIES card(S) = 3 & a : S & b : S & a /= b & a /= z
             VARIABLES v INVARIANT v : S INITIALISATION v := z END";
    let e = explore(m).expect_err("z refused");
    assert!(e.contains("typed only by inference"), "{e}");
}

#[test]
fn a_variable_typed_by_inference_takes_every_element() {
    // c := some element other than d, S of the default 2 elements: from
    // either value, d = the other gives the same c, d = c the other one
    let m = "MACHINE V SETS S VARIABLES c INVARIANT c : S INITIALISATION c :: S
             OPERATIONS flip = ANY d WHERE d : S THEN c :( c /= d ) END END";
    // root + 2 values; 2 INITIALISATION edges, 2 flip targets per state
    assert_eq!(explore(m), Ok((3, 2 + 2 * 2)));
}
