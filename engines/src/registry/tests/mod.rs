//! The conformance suite over every registered engine: a scheme added to
//! [`ENGINES`] is checked here by that line alone.
//!
//! - every engine, in every form it has, explores a model with closed-form
//!   counts and reports them;
//! - every explicit engine's sequential set answers like a `HashSet` on the
//!   adversarial streams and on random ones ([`crate::conformance`]);
//! - every concurrent form does too, driven through its concurrent
//!   interface (one worker, growing when asked).
//!
//! The checks take an [`EngineSpec`], so an unregistered scheme runs
//! them too ([`sorted_vec`], the worked example of CONTRIBUTING.md).
//!
//! Owns no engine and no check of one particular engine.

mod node_growth;
mod queue;
mod slot_order;
mod sorted_vec;

use super::*;
use crate::concurrent::{InsertError, WorkerLocal};
use crate::conformance::{adversarial_streams, check_stream, streams};
use crate::test_models::Counters;
use proptest::prelude::*;
use std::collections::HashSet;

/// Values every engine stores at its default parameters (the Compact
/// Tree's slots are `u = 30` bits wide).
const MAX_VALUE: u32 = (1 << 30) - 1;

fn opts(threads: usize, form: Option<&str>) -> EngineOptions {
    EngineOptions {
        mem_budget: 1 << 30,
        params: form
            .map(|f| vec![(FORM_PARAM.to_owned(), f.to_owned())])
            .unwrap_or_default(),
        threads,
    }
}

/// Every configuration an engine runs in: (threads, form).
fn configurations(spec: &EngineSpec) -> Vec<(usize, Option<&'static str>)> {
    let mut out = vec![(1, None)];
    if spec.concurrent().is_some() {
        out.extend([(1, Some("concurrent")), (2, None)]);
    } else if spec.supports_threads() {
        out.push((2, None));
    }
    out
}

/// The report of `spec` exploring `model` with `options`, checked to be
/// complete with the (states, transitions) `counts`; `what` names the run.
fn explored(
    spec: &EngineSpec,
    model: &dyn pins::Model,
    options: &EngineOptions,
    counts: (u64, u64),
    what: &str,
) -> RunReport {
    let report = spec
        .explore(model, options, Default::default())
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_eq!(report.status, RunStatus::Ok, "{what}: {}", report.message);
    assert_eq!((report.states, report.transitions), counts, "{what}");
    report
}

/// The engine, in every form it has, explores a model with closed-form
/// counts and reports them.
fn counts_a_closed_form_model(spec: &EngineSpec) {
    // 3 counters modulo 5: 125 states, 375 transitions.
    let model = Counters::new(3, 5);
    for (threads, form) in configurations(spec) {
        let what = format!("{} threads={threads} form={form:?}", spec.name);
        let report = spec
            .explore(&model, &opts(threads, form), Default::default())
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(report.status, RunStatus::Ok, "{what}: {}", report.message);
        assert_eq!((report.states, report.transitions), (125, 375), "{what}");
    }
    // A model without slots (mCRL2 processes without parameters): one
    // state, the empty vector, with three self-loops of its one group.
    let model = pins::synthetic::SyntheticModel::new(
        "no slots",
        Vec::new(),
        vec![pins::TransitionGroup {
            label: "loop".into(),
            read: Vec::new(),
            write: Vec::new(),
        }],
        Vec::new(),
        |_, _, emit| {
            (0..3).for_each(|_| emit(&[]));
            Ok(())
        },
    );
    for (threads, form) in configurations(spec) {
        let what = format!(
            "{} without slots, threads={threads} form={form:?}",
            spec.name
        );
        let report = spec
            .explore(&model, &opts(threads, form), Default::default())
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(report.status, RunStatus::Ok, "{what}: {}", report.message);
        assert_eq!((report.states, report.transitions), (1, 3), "{what}");
    }
}

/// The engine's sequential set answers like a `HashSet` on the
/// adversarial streams.
fn sequential_set_answers_like_a_hash_set(spec: &EngineSpec) {
    for k in [1usize, 2, 3, 5, 8, 13, 64] {
        for stream in adversarial_streams(k, MAX_VALUE) {
            let mut set = spec
                .build_visited_set(&Counters::new(k, 2), &opts(1, None))
                .unwrap_or_else(|e| panic!("{}: {e}", spec.name));
            check_stream(set.as_mut(), &stream);
        }
    }
}

#[test]
fn every_engine_in_every_form_counts_a_closed_form_model() {
    ENGINES
        .iter()
        .for_each(|spec| counts_a_closed_form_model(spec));
}

#[test]
fn every_sequential_set_answers_like_a_hash_set() {
    for spec in ENGINES.iter().filter(|s| s.is_explicit()) {
        sequential_set_answers_like_a_hash_set(spec);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]
    #[test]
    fn every_sequential_set_answers_like_a_hash_set_on_random_streams(
        (k, stream) in streams(6, 5),
    ) {
        for spec in ENGINES.iter().filter(|s| s.is_explicit()) {
            let mut set = spec
                .build_visited_set(&Counters::new(k, 2), &opts(1, None))
                .unwrap_or_else(|e| panic!("{}: {e}", spec.name));
            check_stream(set.as_mut(), &stream);
        }
    }
}

/// Inserts `vectors` in order through the concurrent interface with one
/// worker, growing when asked, and compares every answer with a `HashSet`.
fn check_concurrent_stream(name: &str, set: &mut dyn ConcurrentVisitedSet, vectors: &[Vec<u32>]) {
    let mut reference = HashSet::new();
    let mut local = WorkerLocal::new();
    let mut side = vec![0; set.side_words()];
    for (i, v) in vectors.iter().enumerate() {
        let inserted = loop {
            match set.find_or_insert_from(v, None, &mut side, &mut local) {
                Ok(inserted) => break inserted,
                Err(InsertError::Grow) => set.grow().unwrap(),
                Err(InsertError::Full(full)) => panic!("{name}: vector {i}: {}", full.message),
            }
        };
        let expect_new = reference.insert(v.clone());
        assert_eq!(inserted.is_new(), expect_new, "{name}: vector {i} {v:?}");
    }
    set.retire(&mut local);
    assert_eq!(set.len(), reference.len() as u64, "{name}: len");
    let m = set.memory();
    assert!(
        m.used <= m.alloc,
        "{name}: used {} > alloc {}",
        m.used,
        m.alloc
    );
}

#[test]
fn every_concurrent_set_answers_like_a_hash_set() {
    for spec in ENGINES.iter().filter(|s| s.concurrent().is_some()) {
        for k in [1usize, 2, 3, 5, 8, 13, 64] {
            for stream in adversarial_streams(k, MAX_VALUE) {
                let model = Counters::new(k, 2);
                let mut set = spec
                    .build_concurrent_set(&model, &opts(1, None))
                    .unwrap_or_else(|e| panic!("{}: {e}", spec.name));
                check_concurrent_stream(spec.name, set.as_mut(), &stream);
            }
        }
    }
}

#[test]
fn every_parameter_is_checked_before_anything_is_built() {
    let model = Counters::new(2, 2);
    for spec in ENGINES {
        let mut bad = opts(1, None);
        bad.params.push(("no_such_parameter".into(), "1".into()));
        let err = create(spec.name, &model, &bad, Default::default()).unwrap_err();
        assert!(
            err.contains("has no parameter 'no_such_parameter'"),
            "{err}"
        );
        for param in spec.params {
            let mut bad = opts(1, None);
            bad.params.push((param.name().into(), "not a value".into()));
            let err = create(spec.name, &model, &bad, Default::default()).unwrap_err();
            assert!(
                err.starts_with(&format!("engine parameter {}=", param.name())),
                "{}: {err}",
                spec.name
            );
        }
    }
}

/// `hash-table`'s `layout=bytes` (slots packed into 1, 2 or 4 bytes)
/// counts a model with narrow slots, and is refused where it cannot run:
/// above one thread and in the concurrent form.
#[test]
fn hash_table_packed_layout_counts_and_is_sequential_only() {
    // 3 counters modulo 5 in 3-bit slots, one of 12 bits held at 4095:
    // 125 states, 375 transitions.
    let bits = [3, 12, 3, 3];
    let slots = bits
        .iter()
        .enumerate()
        .map(|(i, &bits)| pins::Slot {
            name: format!("c{i}"),
            process: None,
            bits,
        })
        .collect();
    let groups = (0..3)
        .map(|g| pins::TransitionGroup {
            label: format!("inc{g}"),
            read: vec![[0, 2, 3][g]],
            write: vec![[0, 2, 3][g]],
        })
        .collect();
    let model = pins::synthetic::SyntheticModel::new(
        "narrow counters",
        slots,
        groups,
        vec![0, 4095, 0, 0],
        |s, g, emit| {
            let mut t = s.to_vec();
            let slot = [0, 2, 3][g];
            t[slot] = (t[slot] + 1) % 5;
            emit(&t);
            Ok(())
        },
    );
    let spec = lookup("hash-table").unwrap();
    let bytes = |threads: usize, form: Option<&str>| {
        let mut o = opts(threads, form);
        o.params.push(("layout".into(), "bytes".into()));
        o
    };
    let report = explored(spec, &model, &bytes(1, None), (125, 375), "layout=bytes");
    assert_eq!(
        report.engine_bytes_used,
        125 * (8 + 8),
        "6 bytes in 2 words"
    );
    assert!(
        report.engine_params.ends_with("layout=bytes"),
        "{}",
        report.engine_params
    );
    let err = spec
        .explore(&model, &bytes(2, None), Default::default())
        .unwrap_err();
    assert!(err.contains("layout=bytes"), "{err}");
    let report = spec
        .explore(&model, &bytes(1, Some("concurrent")), Default::default())
        .unwrap();
    assert_eq!(report.status, RunStatus::TableFull);
    assert!(
        report.message.contains("layout=words"),
        "{}",
        report.message
    );
}
