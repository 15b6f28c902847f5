//! Unit tests of `carrier_union` on guards partitioning a set (`a \/ b =
//! S & a /\ b = {}` and variants) on a small machine, whose counts are
//! brute-forced here over the subsets of `S` (bit masks).

use crate::tests::count;

/// The machine: `x <: S` moves to `a` of the solutions of `guard` (over
/// `a`, `b`, `c`, subsets of `S`).
fn machine(guard: &str) -> String {
    format!(
        "MACHINE P SETS S = {{s0,s1,s2,s3}} VARIABLES x INVARIANT x <: S
         INITIALISATION x := {{}}
         OPERATIONS op = ANY a, b, c WHERE {guard}
           THEN x := a END END"
    )
}

/// States and transitions (root and initialisation included) of
/// [`machine`], `holds(x, a, b, c)` being its guard on bit masks.
fn explore(holds: &dyn Fn(u8, u8, u8, u8) -> bool) -> (usize, usize) {
    let mut seen = vec![0u8];
    let mut transitions = 1;
    let mut k = 0;
    while k < seen.len() {
        let x = seen[k];
        let mut targets: Vec<u8> = Vec::new();
        for a in 0..16u8 {
            let fired = (0..16u8).any(|b| (0..16u8).any(|c| holds(x, a, b, c)));
            if fired {
                targets.push(a);
            }
        }
        transitions += targets.len();
        for a in targets {
            if !seen.contains(&a) {
                seen.push(a);
            }
        }
        k += 1;
    }
    (seen.len() + 1, transitions)
}

const S: u8 = 15;

#[test]
fn a_partition_with_the_state_in_a_part() {
    let guard = "a \\/ b = S & a /\\ b = {} & c = {} & x <: b";
    let holds = |x: u8, a: u8, b: u8, c: u8| a | b == S && a & b == 0 && c == 0 && x & !b == 0;
    assert_eq!(count(&machine(guard)), explore(&holds));
}

#[test]
fn a_partition_written_the_other_way_round() {
    let guard = "S = b \\/ a & {} = b /\\ a & c = {} & a /= x";
    let holds = |x: u8, a: u8, b: u8, c: u8| a | b == S && a & b == 0 && c == 0 && a != x;
    assert_eq!(count(&machine(guard)), explore(&holds));
}

#[test]
fn a_ready_operand_gives_a_lower_bound() {
    // `x` is bound: `a` contains `S - x - b`; `b` and `a` may overlap
    let guard = "x \\/ b \\/ a = S & c = b & card(b) <= 1";
    let holds = |x: u8, a: u8, b: u8, c: u8| x | a | b == S && c == b && b.count_ones() <= 1;
    assert_eq!(count(&machine(guard)), explore(&holds));
}

#[test]
fn three_parts_some_of_them_disjoint() {
    let guard = "a \\/ b \\/ c = S - x & a /\\ c = {} & b /\\ a = {}";
    let holds = |x: u8, a: u8, b: u8, c: u8| a | b | c == S & !x && a & c == 0 && b & a == 0;
    assert_eq!(count(&machine(guard)), explore(&holds));
}

#[test]
fn a_disjointness_from_a_bound_part_with_an_overlapping_union() {
    let guard = "b = x & c \\/ a = S & a /\\ b = {}";
    let holds = |x: u8, a: u8, b: u8, c: u8| b == x && c | a == S && a & b == 0;
    assert_eq!(count(&machine(guard)), explore(&holds));
}
