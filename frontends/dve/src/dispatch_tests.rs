//! The dispatch (`dispatch`) against the interpreter, on every reachable
//! state of small BEEM models of each family: every group it leaves out,
//! by control state or by a false leading comparison, must be one that
//! `DveModel::fire` finds not enabled without meeting an error (checked
//! with [`ErrorPolicy::Fail`], where an error is reported); and
//! `next_all`, which fires the groups it lets through without testing
//! again what it tested, must emit what `next` (every test) emits group
//! after group. A model the corpus lacks fails the test under CI.

use super::{DveModel, ErrorPolicy};
use frontend_testkit::bfs::for_each_state;
use frontend_testkit::corpus;
use pins::Model;

/// How many (state, group) pairs a leading comparison ruled out; panics at
/// the first group left out that the interpreter would fire (or fail on).
fn left_out_pairs(m: &DveModel) -> u64 {
    let mut strict = m.clone();
    strict.set_error_policy(ErrorPolicy::Fail);
    let (mut by_guard, mut candidates, mut out) = (0, Vec::new(), Vec::new());
    for_each_state(m, |s| {
        m.dispatch.candidates(s, &mut candidates);
        let committed = strict.committed_state(s);
        let left_out =
            (0..m.kinds.len()).filter(|&g| candidates.binary_search(&(g as u32)).is_err());
        for g in left_out {
            by_guard += u64::from(m.dispatch.blocks(g, s));
            let fires = strict.fire(s, g, committed, false, &mut out);
            assert!(
                matches!(fires, Ok(false)),
                "{}: group {g} left out in {s:?}, the interpreter says {fires:?}",
                m.name()
            );
        }
    });
    by_guard
}

#[test]
fn dispatch_leaves_out_only_groups_the_interpreter_does_not_fire() {
    let Some(files) = corpus::instances("beem/dve", "BEEM DVE models", &corpus::BEEM_SMALL, "dve")
    else {
        return;
    };
    let mut guarded = Vec::new();
    for f in &files {
        let m = crate::parse_file(f).expect("parses");
        if left_out_pairs(&m) > 0 {
            guarded.push(m.name().to_owned());
        }
    }
    // most families guard their transitions with simple comparisons:
    // comparisons that never rule a group out would check nothing here
    assert!(
        guarded.len() >= corpus::BEEM_SMALL.len() / 2,
        "comparisons ruled out groups only in {guarded:?}"
    );
}

/// Successors with the group that emitted each.
type Labelled = Vec<(usize, Vec<u32>)>;

/// Every successor `next_all` emits in `s`, and the same from `next` on
/// each group in turn.
fn both_ways(m: &DveModel, s: &[u32]) -> (Labelled, Labelled) {
    let mut all = Vec::new();
    m.next_all(s, &mut |g, t| all.push((g, t.to_vec())))
        .unwrap_or_else(|e| panic!("{e}"));
    let mut each = Vec::new();
    for g in 0..m.groups().len() {
        m.next(s, g, &mut |t| each.push((g, t.to_vec())))
            .unwrap_or_else(|e| panic!("{e}"));
    }
    (all, each)
}

#[test]
fn next_all_emits_what_next_emits_group_after_group() {
    let Some(files) = corpus::instances("beem/dve", "BEEM DVE models", &corpus::BEEM_SMALL, "dve")
    else {
        return;
    };
    for f in &files {
        let m = crate::parse_file(f).expect("parses");
        let mut emitted = 0;
        for_each_state(&m, |s| {
            let (all, each) = both_ways(&m, s);
            assert_eq!(all, each, "{} in {s:?}", m.name());
            emitted += all.len();
        });
        assert!(emitted > 0, "{}: no successor", m.name());
    }
}

/// A control state whose groups share a test evaluates its tests at once,
/// one with a single long guard (frogs' `Check`) group by group, stopping
/// at the first false test; both let through exactly the groups `next`
/// fires, whichever test is false.
#[test]
fn tests_at_once_and_in_order_let_through_the_same_groups() {
    let text = "byte a[6];
        process Long { state q, r; init q;
            trans q -> r { guard a[0] == 0 && a[1] == 0 && a[2] == 0 && a[3] == 0
                && a[4] == 0 && a[5] == 1; }; }
        process Shared { state q; init q;
            trans q -> q { guard a[0] == 1 && a[1] == 0; effect a[5] = 1; },
                  q -> q { guard a[0] == 1 && a[2] == 0; effect a[0] = 0; }; }
        system async;";
    let m = crate::parse_str(text, "ways.dve").expect("parses");
    assert_eq!(m.dispatch.ways(), (1, 1));
    let mut s = m.initial_state();
    let mut candidates = Vec::new();
    for bits in 0..64u32 {
        for (i, slot) in s[..6].iter_mut().enumerate() {
            *slot = (bits >> i) & 1;
        }
        let (all, each) = both_ways(&m, &s);
        assert_eq!(all, each, "in {s:?}");
        m.dispatch.candidates(&s, &mut candidates);
        let long = bits == 0b10_0000;
        assert_eq!(candidates.contains(&0), long, "in {s:?}");
    }
}
