//! Every value of `compact-tree`'s `node_growth`, in every form: the counts
//! equal `hash-table`'s on a model large enough for the node tables to
//! grow many times, the reported parameters say which growth ran (the
//! concurrent form's shared tables double), and the sequential set
//! answers like a `HashSet` on the adversarial streams.

use super::*;
use crate::schemes::compact_tree::TableGrowth;

fn with_growth(threads: usize, form: Option<&str>, growth: &str) -> EngineOptions {
    let mut o = opts(threads, form);
    o.params.push(("node_growth".into(), growth.into()));
    o
}

#[test]
fn every_node_growth_keeps_every_count_and_answer() {
    // 4 counters modulo 9: 6,561 states; node tables of 81 tuples.
    let model = Counters::new(4, 9);
    let expect = find("hash-table")
        .expect("hash-table is registered")
        .explore(&model, &opts(1, None), Default::default())
        .unwrap();
    let spec = find("compact-tree").expect("compact-tree is registered");
    for &(growth, _) in <TableGrowth as Word>::WORDS {
        for (threads, form) in configurations(spec) {
            let what = format!("node_growth={growth} threads={threads} form={form:?}");
            let options = with_growth(threads, form, growth);
            let counts = (expect.states, expect.transitions);
            let report = explored(spec, &model, &options, counts, &what);
            let ran = if threads == 1 && form.is_none() {
                growth
            } else {
                "double"
            };
            assert!(
                report.engine_params.contains(&format!("node_growth={ran}")),
                "{what}: {}",
                report.engine_params
            );
        }
        for stream in adversarial_streams(4, MAX_VALUE) {
            let mut set = spec
                .build_visited_set(&model, &with_growth(1, None, growth))
                .unwrap();
            check_stream(set.as_mut(), &stream);
        }
    }
}
