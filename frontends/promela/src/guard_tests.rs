//! The compiled guards (`guard`) against the interpreter, on every
//! reachable state of small BEEM Promela models of each family: wherever a
//! guard blocks a transition, the interpreter must find it not executable
//! (and meet no error); wherever an exact guard lets one through, the
//! interpreter must find it executable; the per-location dispatch must
//! offer the transitions of each location in order and block exactly what
//! the guards block. A model the corpus lacks fails the test under CI.

use super::PromelaModel;
use crate::guard::Verdict;
use frontend_testkit::bfs::for_each_state;
use frontend_testkit::corpus;
use pins::Model;

/// The files of `corpus::BEEM_SMALL` (`None`, said, when the corpus is
/// absent outside CI).
pub(super) fn small_models() -> Option<Vec<std::path::PathBuf>> {
    corpus::instances(
        "beem/promela",
        "BEEM Promela models",
        &corpus::BEEM_SMALL,
        "pm",
    )
}

/// Calls `f(state, pid, k)` for every reachable state of `m` and every
/// transition `k` offered to process `pid` at its location there.
pub(super) fn for_each_offered(m: &PromelaModel, mut f: impl FnMut(&[u32], usize, usize)) {
    for_each_state(m, |s| {
        for pid in 0..m.proc_base.len() {
            let Some(t) = m.ptype_of(s, pid) else {
                break;
            };
            for &k in &m.ptypes[t].auto.locs[s[m.proc_base[pid] + 1] as usize] {
                f(s, pid, k);
            }
        }
    });
}

/// How many (state, transition) pairs a guard blocked; panics at the first
/// one the interpreter would have executed.
fn blocked_pairs(m: &PromelaModel) -> u64 {
    let mut blocked = 0;
    for_each_offered(m, |s, pid, k| {
        let t = m.ptype_of(s, pid).unwrap_or(0);
        if !m.ptypes[t].auto.trans[k]
            .guard
            .blocks(s, m.proc_base[pid] + 2)
        {
            return;
        }
        blocked += 1;
        let fires = m.executable(s, pid, k, &m.ptypes[t].auto.trans[k]);
        assert!(
            matches!(fires, Ok(false)),
            "{}: the guard of transition {k} of process {pid} blocks it in \
             {s:?}, the interpreter says {fires:?}",
            m.name()
        );
    });
    blocked
}

/// Asserts that `pairs` (which panics at a disagreement) finds pairs to
/// check in at least half of the small models: guards that never apply
/// would make the test pass without checking anything. Nothing to check
/// without the corpus (said, outside CI).
fn check_small_models(what: &str, pairs: fn(&PromelaModel) -> u64) {
    let Some(files) = small_models() else {
        return;
    };
    let applied = (files.iter())
        .filter(|f| pairs(&crate::parse_file(f).expect("parses")) > 0)
        .count();
    assert!(
        applied >= corpus::BEEM_SMALL.len() / 2,
        "{what} in {applied} models"
    );
}

#[test]
fn guards_block_only_what_the_interpreter_blocks() {
    // most families begin their steps with simple guards (hanoi's index
    // arrays by variables)
    check_small_models("guards blocked", blocked_pairs);
}

/// How many (state, transition) pairs an exact guard let through; panics
/// at the first one the interpreter finds not executable, and where the
/// dispatch disagrees with the location's transitions or their guards.
fn exact_pairs(m: &PromelaModel) -> u64 {
    let mut exact = 0;
    for_each_offered(m, |s, pid, k| {
        let t = m.ptype_of(s, pid).unwrap_or(0);
        let (auto, locals) = (&m.ptypes[t].auto, m.proc_base[pid] + 2);
        let loc = s[m.proc_base[pid] + 1] as usize;
        let dispatch = &m.dispatch[t];
        let at = auto.locs[loc]
            .iter()
            .position(|&o| o == k)
            .expect("offered");
        let e = &dispatch.at(loc)[at];
        let tr = &auto.trans[k];
        assert_eq!(e.tr, k, "{}: dispatch order at location {loc}", m.name());
        let verdict = dispatch.verdict(e, s, locals);
        let blocked = verdict == Verdict::Blocked || (e.multi && tr.guard.blocks(s, locals));
        assert_eq!(
            blocked,
            tr.guard.blocks(s, locals),
            "{}: dispatch of {k}",
            m.name()
        );
        if verdict != Verdict::Open || blocked || !e.exact {
            return;
        }
        exact += 1;
        let fires = m.executable(s, pid, k, tr);
        assert!(
            matches!(fires, Ok(true)),
            "{}: the exact guard of transition {k} of process {pid} holds in \
             {s:?}, the interpreter says {fires:?}",
            m.name()
        );
    });
    exact
}

#[test]
fn exact_guards_fire_and_dispatch_filters_as_the_guards() {
    check_small_models("exact guards let transitions through", exact_pairs);
}
