//! Unit tests of `fast_projection`: the cache replays a group's targets
//! on the source's other slots, keys by the read slots only, drops a
//! group whose target escapes its write set, and leaves the counts of a
//! machine whose operations share read projections as computed by hand.

use pins::TransitionGroup;

use crate::fast_projection::Projections;
use crate::tests::count;

fn one_group(read: Vec<usize>, write: Vec<usize>) -> Projections {
    let g = TransitionGroup {
        label: "g".into(),
        read,
        write,
    };
    Projections::new(&[g], 0, |_| true)
}

fn replayed(p: &Projections, state: &[u32]) -> Option<Vec<Vec<u32>>> {
    let hit = p.lookup(0, state)?;
    let mut out = Vec::new();
    p.replay(0, state, &hit, &mut |t| out.push(t.to_vec()));
    Some(out)
}

#[test]
fn replays_the_write_slots_on_another_source() {
    let p = one_group(vec![0, 2], vec![2]);
    let s = [2, 5, 7];
    assert!(p.lookup(0, &s).is_none());
    let mut r = p.recorder(0).expect("cached");
    p.record(0, &s, &[2, 5, 9], &mut r);
    p.record(0, &s, &[2, 5, 1], &mut r);
    p.store(0, &s, r, true);
    // slot 1 is not read: the same projection, its value kept
    assert_eq!(
        replayed(&p, &[2, 6, 7]),
        Some(vec![vec![2, 6, 9], vec![2, 6, 1]])
    );
    // slot 2 is read: another projection
    assert_eq!(replayed(&p, &[2, 6, 8]), None);
}

#[test]
fn an_escaping_target_or_a_side_channel_is_not_kept() {
    let p = one_group(vec![0, 2], vec![2]);
    let s = [2, 5, 7];
    let mut r = p.recorder(0).expect("cached");
    p.record(0, &s, &[2, 5, 9], &mut r);
    p.store(0, &s, r, false);
    assert_eq!(replayed(&p, &s), None);
    let mut r = p.recorder(0).expect("cached");
    // slot 1 changed though the group does not write it
    p.record(0, &s, &[2, 4, 9], &mut r);
    p.store(0, &s, r, true);
    assert_eq!(replayed(&p, &s), None);
    assert!(p.recorder(0).is_none());
}

#[test]
fn counts_with_shared_read_projections() {
    // `sety` reads y only: its successors from the 4 states of one y are
    // replayed. States: x in 0..3 times y in 0..2 (12) and the root;
    // edges: 1 init, incx from x < 3 (3 * 3), sety to each other y (12 * 2)
    let (s, t) = count(
        "MACHINE P VARIABLES x, y INITIALISATION x, y := 0, 0
         OPERATIONS incx = SELECT x < 3 THEN x := x + 1 END;
                    sety(v) = PRE v : 0..2 & v /= y THEN y := v END END",
    );
    assert_eq!((s, t), (13, 34));
}
