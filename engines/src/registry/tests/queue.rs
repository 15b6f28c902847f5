//! The `queue` parameter over every explicit engine: every queue an
//! engine accepts (`auto`, `vectors`, `references` where the engine gives
//! states back) gives the counts and levels of a queue of full vectors
//! with `hash-table`, in every slot order of the tree engines; `auto`
//! queues references exactly for the engines that give states back; an
//! engine that cannot refuses `references`.

use super::slot_order::coupled;
use super::*;
use crate::explore::QueueMode;
use crate::schemes::tree::SlotOrder;

fn with(params: &[(&str, &str)]) -> EngineOptions {
    EngineOptions {
        mem_budget: 1 << 30,
        params: params
            .iter()
            .map(|&(k, v)| (k.to_owned(), v.to_owned()))
            .collect(),
        threads: 1,
    }
}

/// The slot orders an engine takes (none: the engine has no such
/// parameter).
fn orders(spec: &EngineSpec) -> Vec<Option<&'static str>> {
    if spec.params.iter().any(|p| p.name() == "slot_order") {
        <SlotOrder as Word>::WORDS
            .iter()
            .map(|&(w, _)| Some(w))
            .collect()
    } else {
        vec![None]
    }
}

#[test]
fn every_queue_keeps_every_count_and_level() {
    let model = coupled();
    let expect = find("hash-table")
        .expect("hash-table is registered")
        .explore(
            &model,
            &with(&[(QUEUE_PARAM, "vectors")]),
            Default::default(),
        )
        .unwrap();
    assert!(
        expect.states > 100 && expect.levels > Some(3),
        "the model is not trivial"
    );
    let mut recalling = Vec::new();
    for spec in ENGINES.iter().filter(|s| s.is_explicit()) {
        let gives_back = spec
            .build_visited_set(&model, &with(&[]))
            .unwrap()
            .recalls_states();
        if gives_back {
            recalling.push(spec.name);
        }
        for order in orders(spec) {
            for &(queue, mode) in <QueueMode as Word>::WORDS {
                let mut params = vec![(QUEUE_PARAM, queue)];
                params.extend(order.map(|o| ("slot_order", o)));
                let what = format!("{} {params:?}", spec.name);
                let run = spec.explore(&model, &with(&params), Default::default());
                if mode == QueueMode::References && !gives_back {
                    let e = run.expect_err(&what);
                    assert!(e.contains("queue=references"), "{what}: {e}");
                    continue;
                }
                let r = run.unwrap_or_else(|e| panic!("{what}: {e}"));
                assert_eq!(r.status, RunStatus::Ok, "{what}: {}", r.message);
                assert_eq!(
                    (r.states, r.transitions, r.levels),
                    (expect.states, expect.transitions, expect.levels),
                    "{what}"
                );
            }
        }
    }
    assert_eq!(recalling, ["hash-table", "tree", "compact-tree"]);
}

#[test]
fn the_concurrent_form_refuses_a_queue_of_references() {
    let mut o = with(&[(QUEUE_PARAM, "references"), (FORM_PARAM, "concurrent")]);
    let e = find("compact-tree")
        .unwrap()
        .explore(&Counters::new(2, 3), &o, Default::default())
        .unwrap_err();
    assert!(e.contains("queue=references"), "{e}");
    o.params[0].1 = "auto".into();
    let r = find("compact-tree")
        .unwrap()
        .explore(&Counters::new(2, 3), &o, Default::default())
        .unwrap();
    assert_eq!((r.states, r.transitions), (9, 18));
}
