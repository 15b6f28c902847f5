//! Every value of `slot_order`, for every explicit engine that has the
//! parameter (the tree engines; the decision diagrams' `slot_order` is
//! another parameter of the same name), in every form: the counts equal `hash-table`'s on
//! a model whose groups couple slots and leave some unwritten, and the
//! sequential set answers like a `HashSet` on the adversarial streams.

use super::*;
use crate::schemes::tree::SlotOrder;
use pins::synthetic::{plain_slots, SyntheticModel};
use pins::TransitionGroup;

/// 9 slots; group `g` (0..3) reads slots `3g..3g+3` and writes `3g, 3g+1`
/// (`a ← a + 1 mod 3`, `b ← b + a mod 4`); slots `3g + 2` are never
/// written; group 3 copies slot 0 into slot 7 (coupling two thirds).
pub(super) fn coupled() -> SyntheticModel {
    let mut groups: Vec<TransitionGroup> = (0..3)
        .map(|g| TransitionGroup {
            label: format!("step{g}"),
            read: vec![3 * g, 3 * g + 1, 3 * g + 2],
            write: vec![3 * g, 3 * g + 1],
        })
        .collect();
    groups.push(TransitionGroup {
        label: "copy".into(),
        read: vec![0],
        write: vec![7],
    });
    let initial = vec![0, 0, 5, 1, 0, 6, 2, 0, 7];
    SyntheticModel::new(
        "coupled",
        plain_slots("x", 9),
        groups,
        initial,
        |s, g, emit| {
            let mut t = s.to_vec();
            if g == 3 {
                t[7] = s[0];
            } else {
                t[3 * g] = (s[3 * g] + 1) % 3;
                t[3 * g + 1] = (s[3 * g + 1] + s[3 * g]) % 4;
            }
            emit(&t);
            Ok(())
        },
    )
}

fn with_order(threads: usize, form: Option<&str>, order: &str) -> EngineOptions {
    let mut o = opts(threads, form);
    o.params.push(("slot_order".into(), order.into()));
    o
}

#[test]
fn every_slot_order_keeps_every_count_and_answer() {
    let model = coupled();
    let oracle = find("hash-table").expect("hash-table is registered");
    let expect = oracle
        .explore(&model, &opts(1, None), Default::default())
        .unwrap();
    assert!(expect.states > 100, "the model is not trivial");
    let ordered = ENGINES
        .iter()
        .filter(|s| s.is_explicit() && s.params.iter().any(|p| p.name() == "slot_order"));
    let mut engines = 0;
    for spec in ordered {
        engines += 1;
        for &(order, _) in <SlotOrder as Word>::WORDS {
            for (threads, form) in configurations(spec) {
                let what = format!(
                    "{} slot_order={order} threads={threads} form={form:?}",
                    spec.name
                );
                let o = with_order(threads, form, order);
                let report = spec
                    .explore(&model, &o, Default::default())
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
                assert_eq!(report.status, RunStatus::Ok, "{what}: {}", report.message);
                assert_eq!(
                    (report.states, report.transitions),
                    (expect.states, expect.transitions),
                    "{what}"
                );
                assert!(
                    report
                        .engine_params
                        .contains(&format!("slot_order={order}")),
                    "{what}"
                );
            }
            for stream in adversarial_streams(9, MAX_VALUE) {
                let mut set = spec
                    .build_visited_set(&model, &with_order(1, None, order))
                    .unwrap();
                check_stream(set.as_mut(), &stream);
            }
        }
    }
    assert_eq!(engines, 2, "tree and compact-tree have slot_order");
}

#[test]
fn the_sample_phase_is_in_the_engine_time() {
    let model = coupled();
    let ordered = ENGINES
        .iter()
        .filter(|s| s.is_explicit() && s.params.iter().any(|p| p.name() == "slot_order"));
    for spec in ordered {
        for (threads, form) in configurations(spec) {
            let what = format!("{} threads={threads} form={form:?}", spec.name);
            let report = spec
                .explore(
                    &model,
                    &with_order(threads, form, "sample"),
                    Default::default(),
                )
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            let setup_us = report
                .counters
                .iter()
                .find(|(name, _)| name == "setup_us")
                .unwrap_or_else(|| panic!("{what}: no setup_us counter"))
                .1;
            assert!(
                report.explore_time_s * 1e6 + 1.0 >= setup_us as f64,
                "{what}: time {} s leaves out the setup's {setup_us} us",
                report.explore_time_s
            );
        }
    }
}
