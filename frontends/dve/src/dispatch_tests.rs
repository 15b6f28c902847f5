//! The dispatch (`dispatch`) against the interpreter, on every reachable
//! state of small BEEM models of each family: every group it leaves out,
//! by control state or by a false leading comparison, must be one that
//! `DveModel::fire` finds not enabled without meeting an error (checked
//! with [`ErrorPolicy::Fail`], where an error is reported). A model the
//! corpus lacks fails the test under CI.

use super::{DveModel, ErrorPolicy};
use frontend_testkit::bfs::Frontier;
use frontend_testkit::corpus;
use pins::Model;

const MODELS: [&str; 12] = [
    "at.1",
    "blocks.2",
    "brp.2",
    "frogs.2",
    "hanoi.1",
    "lamport.1",
    "leader_filters.2",
    "peterson.1",
    "reader_writer.2",
    "rether.2",
    "sorter.1",
    "telephony.2",
];

/// How many (state, group) pairs a leading comparison ruled out; panics at
/// the first group left out that the interpreter would fire (or fail on).
fn left_out_pairs(m: &DveModel) -> u64 {
    let mut strict = m.clone();
    strict.set_error_policy(ErrorPolicy::Fail);
    let mut seen = Frontier::of(m);
    let (mut by_guard, mut candidates, mut out) = (0, Vec::new(), Vec::new());
    while let Some(s) = seen.pop() {
        m.dispatch.candidates(&s, &mut candidates);
        let committed = strict.committed_state(&s);
        for g in 0..m.kinds.len() {
            if candidates.binary_search(&(g as u32)).is_ok() {
                continue;
            }
            by_guard += u64::from(m.dispatch.blocks(g, &s));
            let fires = strict.fire(&s, g, committed, &mut out);
            assert!(
                matches!(fires, Ok(false)),
                "{}: group {g} left out in {s:?}, the interpreter says {fires:?}",
                m.name()
            );
        }
        m.next_all(&s, &mut |_, t| {
            seen.offer(t);
        })
        .expect("model error");
    }
    by_guard
}

#[test]
fn dispatch_leaves_out_only_groups_the_interpreter_does_not_fire() {
    let needs: Vec<String> = MODELS.iter().map(|m| format!("{m}.dve")).collect();
    let needs: Vec<&str> = needs.iter().map(String::as_str).collect();
    let Some(dir) = corpus::dataset("beem/dve", "BEEM DVE models", &needs) else {
        return;
    };
    let mut guarded = 0;
    for name in MODELS {
        let m = crate::parse_file(&dir.join(format!("{name}.dve"))).expect("parses");
        guarded += usize::from(left_out_pairs(&m) > 0);
    }
    // most families guard their transitions with simple comparisons:
    // comparisons that never rule a group out would check nothing here
    assert!(
        guarded >= MODELS.len() / 2,
        "comparisons ruled out groups in {guarded} models"
    );
}
