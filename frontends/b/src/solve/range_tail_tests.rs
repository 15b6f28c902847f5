//! Unit tests of the tail past values excluded at `MAXINT`
//! (`range_tail`), with ProB's default `MAXINT = 3`: the candidates are
//! the values of `lo..MAXINT` not excluded, and the tail's start when
//! the values excluded reach `MAXINT`.

use crate::tests::{count, first_error};

const MAXINT: i64 = 3;

/// ProB's enumeration of `p : NATURAL` without the values of `cut`
/// (none beyond `MAXINT`): `0..MAXINT` without them, and `MAXINT + 1`
/// when `MAXINT` is cut (the tail's start).
fn enumerated(cut: &[i64]) -> Vec<i64> {
    let mut out: Vec<i64> = (0..=MAXINT).filter(|p| !cut.contains(p)).collect();
    if cut.contains(&MAXINT) {
        out.push(MAXINT + 1);
    }
    out
}

#[test]
fn a_parameter_outside_an_interval_reaching_maxint() {
    // ControlFlowR2's shape: m chosen among 1..3 at init, then one edge
    // per value of p (the state does not change)
    let m = "MACHINE T VARIABLES m INVARIANT m : 1..3 INITIALISATION m :: 1..3
             OPERATIONS jump(p) = PRE p : NATURAL & p /: 1..m THEN skip END END";
    let edges: usize = (1..=3)
        .map(|m| enumerated(&(1..=m).collect::<Vec<_>>()).len())
        .sum();
    assert_eq!(count(m), (4, 3 + edges));
}

#[test]
fn a_parameter_different_from_maxint() {
    // p /= 3 and p : NATURAL - {3}: 0, 1, 2 and the tail's 4, each
    // reaching its own state
    let ps = enumerated(&[3]);
    for guard in ["p : NATURAL & p /= 3", "p : NATURAL - {3}"] {
        let m = format!(
            "MACHINE T VARIABLES x INVARIANT x : INTEGER INITIALISATION x := -1
             OPERATIONS set(p) = PRE {guard} THEN x := p END END"
        );
        // x = -1 then each p; from each state every p again
        assert_eq!(count(&m), (ps.len() + 2, 1 + (ps.len() + 1) * ps.len()));
    }
}

#[test]
fn a_value_past_maxint_cut_is_refused() {
    // p /: 3..4 starts the tail at 5, past MAXINT + 1: not observed
    let m = "MACHINE T VARIABLES x INVARIANT x : INTEGER INITIALISATION x := 0
             OPERATIONS set(p) = PRE p : NATURAL & p /: 3..4 THEN x := p END END";
    let e = first_error(m).expect("refused");
    assert!(e.contains("infinite domain"), "{e}");
}
