//! Unit tests of synchronous systems (`system sync`): small hand-written
//! models whose state counts and successors are derived by hand in the
//! comments, following DiVinE 2's `get_sync_succs_internal` (see the crate
//! documentation).

use pins::Model;

use crate::tests::{count, reach, TWO_3_CYCLES};
use crate::{parse_str, DveModel, ErrorPolicy};

fn model(text: &str) -> DveModel {
    let m = parse_str(text, "t.dve").unwrap_or_else(|e| panic!("{e}"));
    pins::validate(&m).unwrap();
    m
}

/// The successors of `s` in emission order (checking that `next` on the
/// single group agrees with `next_all`).
fn succs(m: &DveModel, s: &[u32]) -> Vec<Vec<u32>> {
    let mut all = Vec::new();
    m.next_all(s, &mut |g, t| {
        assert_eq!(g, 0);
        all.push(t.to_vec())
    })
    .unwrap();
    let mut one = Vec::new();
    m.next(s, 0, &mut |t| one.push(t.to_vec())).unwrap();
    assert_eq!(all, one);
    all
}

#[test]
fn system_sync_parses_into_one_group() {
    let m = model("byte x; process P { byte y; state a; init a; } system sync;");
    assert!(m.is_synchronous());
    // slots: x, P.pc, P.y; one group reading and writing every slot
    let g = m.groups();
    assert_eq!(g.len(), 1);
    assert_eq!(g[0].label, "sync-step");
    assert_eq!(g[0].read, vec![0, 1, 2]);
    assert_eq!(g[0].write, vec![0, 1, 2]);
    assert!(m.next(&m.initial_state(), 1, &mut |_| {}).is_err());
    let a = model("process P { state a; init a; } system async;");
    assert!(!a.is_synchronous());
}

#[test]
fn processes_step_together() {
    // Two 3-cycles. Every step moves both processes, so from (a,a) only the
    // diagonal is reachable: (a,a) -> (b,b) -> (c,c) -> (a,a): 3 states
    // (interleaving gives all 3 x 3 = 9).
    assert_eq!(count(&format!("{TWO_3_CYCLES} system sync;")), 3);
    assert_eq!(count(&format!("{TWO_3_CYCLES} system async;")), 9);
    // A 3-cycle with a 2-cycle: (i mod 3, i mod 2) for i = 0..5: 6 states.
    let text = "
        process A { state a, b, c; init a; trans a -> b {}, b -> c {}, c -> a {}; }
        process B { state a, b; init a; trans a -> b {}, b -> a {}; }
        system sync;";
    assert_eq!(count(text), 6);
}

#[test]
fn successors_are_all_combinations_in_divine_order() {
    // DiVinE tries a process's transitions by sync mode (none, `!`, `?`),
    // then in declaration order, so A's `s -> y` (no sync) comes before its
    // `s -> x` (a receive); combinations vary process 0's choice fastest.
    // slots: A.pc, B.pc, B.v
    let text = "
        channel c;
        process A { state s, x, y; init s; trans s -> x { sync c?; }, s -> y {}; }
        process B { byte v; state s, t; init s;
          trans s -> t { effect v = 1; }, s -> t { effect v = 2; }; }
        system sync;";
    let m = model(text);
    assert_eq!(
        succs(&m, &m.initial_state()),
        vec![
            vec![2, 1, 1], // (s -> y, v = 1)
            vec![1, 1, 1], // (s -> x, v = 1)
            vec![2, 1, 2], // (s -> y, v = 2)
            vec![1, 1, 2], // (s -> x, v = 2)
        ]
    );
    // A has no transition from x or y: the four successors are deadlocks.
    assert_eq!(count(text), 5);
    // Three processes with 2, 1 and 2 choices: 4 combinations, the first
    // process fastest, then the third. slots: A.pc, B.pc, C.pc.
    let text = "
        process A { state s, x, y; init s; trans s -> x {}, s -> y {}; }
        process B { state s, t; init s; trans s -> t {}; }
        process C { state s, x, y; init s; trans s -> x {}, s -> y {}; }
        system sync;";
    let m = model(text);
    assert_eq!(
        succs(&m, &m.initial_state()),
        vec![vec![1, 1, 1], vec![2, 1, 1], vec![1, 1, 2], vec![2, 1, 2]]
    );
    // One process: its enabled transitions, in order.
    let m = model("process A { state s, x, y; init s; trans s -> y {}, s -> x {}; } system sync;");
    assert_eq!(succs(&m, &m.initial_state()), vec![vec![2], vec![1]]);
}

#[test]
fn a_process_without_enabled_transition_is_a_deadlock() {
    // slots: x, P.pc, Q.pc. (x=0,a,q0) -> (1,b,q1) -> (1,a,q2); there Q has
    // no transition, so the system has no successor although P could move:
    // 3 states.
    let text = "
        byte x;
        process P { state a, b; init a; trans a -> b { effect x = x + 1; }, b -> a {}; }
        process Q { state q0, q1, q2; init q0; trans q0 -> q1 {}, q1 -> q2 {}; }
        system sync;";
    let m = model(text);
    let states = reach(&m).unwrap();
    assert_eq!(states.len(), 3);
    assert!(states.contains(&vec![1, 0, 2]));
    assert!(succs(&m, &[1, 0, 2]).is_empty());
    // A guard that is false disables the transition the same way: with Q's
    // second transition guarded by x == 5, (1,b,q1) is a deadlock: 2 states.
    assert_eq!(
        count(&text.replace("q1 -> q2 {}", "q1 -> q2 { guard x == 5; }")),
        2
    );
}

#[test]
fn effects_see_the_state_before_the_step() {
    // Each process's successor is computed from the original state, so Q
    // copies the g of the previous step. slots: g, P.pc, P.i, Q.pc, Q.j.
    // (g,i,j): (0,0,0) -> (1,1,0) -> (2,2,1) -> (3,3,2), then P's guard is
    // false: a deadlock. 4 states.
    let text = "
        byte g;
        process P { byte i; state s; init s;
          trans s -> s { guard i < 3; effect i = i + 1, g = i; }; }
        process Q { byte j; state s; init s; trans s -> s { effect j = g; }; }
        system sync;";
    let states = reach(&model(text)).unwrap();
    assert_eq!(states.len(), 4);
    assert!(states.contains(&vec![3, 0, 3, 0, 2]));
}

#[test]
fn locals_come_from_each_process_successor() {
    // P counts i = 0..3 (then its guard is false: deadlock); Q has two
    // choices each step: j + 2 (while j < 5) or j = 0. Reachable (i, j):
    //   i = 0: (0,0)
    //   i = 1: (1,2) (1,0)
    //   i = 2: (2,4) (2,0) (2,2)
    //   i = 3: (3,6) (3,0) (3,2) (3,4)
    // 1 + 2 + 3 + 4 = 10 states.
    let text = "
        process P { byte i; state s; init s; trans s -> s { guard i < 3; effect i = i + 1; }; }
        process Q { byte j; state s; init s;
          trans s -> s { guard j < 5; effect j = j + 2; }, s -> s { effect j = 0; }; }
        system sync;";
    let states = reach(&model(text)).unwrap();
    assert_eq!(states.len(), 10);
    // slots: P.pc, P.i, Q.pc, Q.j
    for (i, j) in [(3, 6), (3, 0), (3, 2), (3, 4), (2, 4)] {
        assert!(states.contains(&vec![0, i, 0, j]), "({i},{j})");
    }
}

#[test]
fn channels_only_label_transitions() {
    // In a synchronous system DiVinE treats a rendezvous send or receive as
    // a plain transition: no partner needed, no value evaluated or passed;
    // transitions on buffered channels never fire. slots: q.count, q[0].0,
    // S.pc, S.z, R.pc, R.v. From the initial state only S's `c!` (whose
    // value 10 / z would fail) and R's `c?v` (v stays 5) fire: 2 states.
    let text = "
        channel c; channel {byte} q[1];
        process S { byte z; state a, b; init a;
          trans a -> b { sync c!(10 / z); }, a -> b { sync q!1; }; }
        process R { byte v = 5; state a, b; init a;
          trans a -> b { sync c?v; }, a -> a { sync q?v; }; }
        system sync;";
    let m = model(text);
    assert_eq!(succs(&m, &m.initial_state()), vec![vec![0, 0, 1, 0, 1, 5]]);
    assert_eq!(count(text), 2);
}

#[test]
fn a_global_assigned_by_two_processes_is_an_error() {
    // slots: g, h, P.pc, Q.pc. From the initial state:
    //  (P: g = 1, Q: g = 2) both assign g: the error state (all 0 but P.pc =
    //    2, P's number of states), which has no successor (P has no
    //    transition from state 2);
    //  (P: g = 1, Q: h = g + 7) takes g from P's successor and h from Q's,
    //    computed on the original g = 0: (1, 7, b, b), a deadlock.
    // 3 states.
    let text = "
        byte g, h;
        process P { state a, b; init a; trans a -> b { effect g = 1; }; }
        process Q { state a, b; init a;
          trans a -> b { effect g = 2; }, a -> b { effect h = g + 7; }; }
        system sync;";
    let mut m = model(text);
    let error = vec![0, 0, 2, 0];
    assert!(m.is_error_state(&error));
    assert_eq!(
        succs(&m, &m.initial_state()),
        vec![error.clone(), vec![1, 7, 1, 1]]
    );
    assert!(succs(&m, &error).is_empty());
    assert_eq!(count(text), 3);
    m.set_error_policy(ErrorPolicy::Fail);
    let e = reach(&m).unwrap_err();
    assert_eq!(e.location.as_deref(), Some("t.dve:5:17"));
    assert_eq!(
        e.message,
        "transitions P.a->b and Q.a->b both assign global variable 'g' in the same synchronous step"
    );
    // The test is on variables, not values nor elements: assigning the same
    // value, or different elements of one array, still conflicts.
    let same = "byte g; process P { state a, b; init a; trans a -> b { effect g = 1; }; }
        process Q { state a, b; init a; trans a -> b { effect g = 1; }; } system sync;";
    let m = model(same);
    assert_eq!(succs(&m, &m.initial_state()), vec![vec![0, 2, 0]]);
    let elems = "byte a[2]; process P { state s, t; init s; trans s -> t { effect a[0] = 1; }; }
        process Q { state s, t; init s; trans s -> t { effect a[1] = 1; }; } system sync;";
    let m = model(elems);
    assert_eq!(succs(&m, &m.initial_state()), vec![vec![0, 0, 2, 0]]);
    // A global assigned by one process only, or only read by the other, is
    // no conflict: a -> b with g = 1 in P, Q reads g: (1, b, b, 0).
    let read = "byte g; process P { state a, b; init a; trans a -> b { effect g = 1; }; }
        process Q { byte r; state a, b; init a; trans a -> b { effect r = g; }; } system sync;";
    let m = model(read);
    assert_eq!(succs(&m, &m.initial_state()), vec![vec![1, 1, 1, 0]]);
}

#[test]
fn an_erroneous_transition_is_composed_from_the_error_state() {
    // DiVinE turns the successor of an erroneous transition into the error
    // state, then composes as usual: the failing process's region and the
    // globals its transition assigns come from the error state.
    //
    // The first process fails (10 / (g - 1) with g = 1). slots: g, P.pc,
    // P.x, Q.pc, Q.y; P has 3 states, so the error state is (0,3,0,0,0).
    // Composition of (1,0,9,0,0): P's region from the error state (P.pc = 3,
    // x = 0), Q's region and g from Q's successor (g = 2, Q.pc = 1, y = 3):
    // (2,3,0,1,3), erroneous (P.pc = 3) but not the error state, and without
    // successors (P has no transition from 3). 2 states.
    let text = "
        byte g = 1;
        process P { byte x = 9; state a, b, c; init a; trans a -> b { effect x = 10 / (g - 1); }; }
        process Q { byte y; state a, b; init a; trans a -> b { effect y = 3, g = 2; }; }
        system sync;";
    let mut m = model(text);
    let states = reach(&m).unwrap();
    let composed = vec![2, 3, 0, 1, 3];
    assert_eq!(states.len(), 2);
    assert!(states.contains(&composed));
    assert!(m.is_error_state(&composed));
    assert!(m.is_error_state(&[0, 3, 0, 0, 0]));
    assert!(!m.is_error_state(&m.initial_state()));
    m.set_error_policy(ErrorPolicy::Fail);
    let e = reach(&m).unwrap_err();
    assert_eq!(e.location.as_deref(), Some("t.dve:3:85"));
    assert!(e.message.contains("division by zero"), "{e}");

    // Another process fails (y = 300 is out of range for a byte). slots: g,
    // P.pc, Q.pc, Q.y; error state (0,2,0,0). From (0,a,a,7): P's region
    // from its successor (P.pc = 1), Q's region and g from the error state
    // (Q.pc = 0, y = 0, g = 0): (0,1,0,0), an ordinary state; the error is
    // lost. Then Q fails again at every step while P alternates:
    // (0,0,0,0), (0,1,0,0). Q never reaches b: 3 states.
    let text = "
        byte g;
        process P { state a, b; init a; trans a -> b {}, b -> a {}; }
        process Q { byte y = 7; state a, b; init a; trans a -> b { effect g = 1, y = 300; }, b -> a {}; }
        system sync;";
    let m = model(text);
    let states = reach(&m).unwrap();
    assert_eq!(states.len(), 3);
    for s in [[0, 0, 0, 7], [0, 1, 0, 0], [0, 0, 0, 0]] {
        assert!(states.contains(s.as_slice()), "{s:?}");
        assert!(!m.is_error_state(&s));
    }

    // A guard whose evaluation fails makes the transition enabled and
    // erroneous whatever its value (DiVinE's `passed_through`). slots: z,
    // P.pc, Q.pc: (0,a,a) -> (0,2,b), erroneous: 2 states.
    let text = "
        byte z;
        process P { state a, b; init a; trans a -> b { guard 1 / z == 1; }; }
        process Q { state a, b; init a; trans a -> b {}; }
        system sync;";
    let m = model(text);
    assert_eq!(succs(&m, &m.initial_state()), vec![vec![0, 2, 1]]);
    assert_eq!(count(text), 2);
}

#[test]
fn committed_states_play_no_role() {
    // DiVinE's synchronous step never looks at committed states: Q moves
    // although P is in a committed state. slots: P.pc, Q.pc.
    // (a,a) -> (c,b) -> (d,a) -> (a,b) -> (c,a) -> (d,b) -> (a,a): 6 states.
    let text = "
        process P { state a, c, d; init a; commit c; trans a -> c {}, c -> d {}, d -> a {}; }
        process Q { state a, b; init a; trans a -> b {}, b -> a {}; }
        system sync;";
    let m = model(text);
    assert_eq!(succs(&m, &[1, 0]), vec![vec![2, 1]]);
    assert_eq!(count(text), 6);
}
