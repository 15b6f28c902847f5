//! Criterion micro-benchmarks of each front-end's successor function
//! (`pins::Model::next_all`) on reachable states of real models.
//!
//! For every model, a fixed sample is collected first: the first
//! `SAMPLE` states of a breadth-first search from the initial state (a
//! `HashSet` of vectors, no engine involved). The benchmark then calls
//! `next_all` on every state of the sample, consuming the successors;
//! throughput is in expanded states per second. Models:
//! - `builtin/kanban-3` (PNML), embedded in this file: always present;
//! - a PNML and a DVE model, three Promela models (anderson.1; sorter.1
//!   and peterson.2, whose steps are mostly statements: d_steps, guarded
//!   assignments), two mCRL2 linear processes (onebit,
//!   81,920 states of small data; Knuth, 43,447 states of heavy rewriting)
//!   and two B machines (CAN_BUS_tlc, Simpson_Four_Slot) from
//!   `../shared/datasets`, each skipped with a message on stderr when its
//!   file is missing or does not load (never a failure).
//!
//! Run with `cargo bench -p statebench --bench frontends` (add `-- dve` to
//! filter); `-- --test` runs every benchmark once, as CI does.
//!
//! This file owns only the benchmark driver; models are built by the
//! front-end crates, and no engine is involved.

mod common;

use common::{load_file, workspace};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use pins::{Model, Value};
use std::collections::{HashSet, VecDeque};

/// States in each model's sample.
const SAMPLE: usize = 4096;

/// The embedded built-in net (always available).
const KANBAN_3: &str = include_str!("../../datasets/builtin/kanban-3.pnml");

struct Sample {
    name: String,
    model: Box<dyn Model>,
    k: usize,
    /// `SAMPLE` (or fewer, for a small model) states, concatenated.
    states: Vec<Value>,
}

/// The first `SAMPLE` states of a BFS of `model`.
fn sample(name: &str, model: Box<dyn Model>) -> Result<Sample, String> {
    let k = model.slot_count();
    let init = model.initial_state();
    let mut seen: HashSet<Vec<Value>> = HashSet::from([init.clone()]);
    let mut queue = VecDeque::from([init]);
    let mut states = Vec::with_capacity(SAMPLE * k);
    while let Some(s) = queue.pop_front() {
        states.extend_from_slice(&s);
        if states.len() / k.max(1) >= SAMPLE {
            break;
        }
        model
            .next_all(&s, &mut |_, succ| {
                if seen.len() < 4 * SAMPLE && !seen.contains(succ) {
                    seen.insert(succ.to_vec());
                    queue.push_back(succ.to_vec());
                }
            })
            .map_err(|e| e.to_string())?;
    }
    Ok(Sample {
        name: name.to_owned(),
        model,
        k,
        states,
    })
}

fn samples() -> Vec<Sample> {
    let shared = workspace().join("../shared/datasets");
    let mut out = Vec::new();
    let builtin = pnml::parse_str(KANBAN_3, "builtin/kanban-3.pnml")
        .map(|m| Box::new(m) as Box<dyn Model>)
        .map_err(|e| e.to_string());
    let files = [
        ("pnml", "Kanban-PT-00005", "mcc/pnml/Kanban-PT-00005.pnml"),
        ("dve", "anderson.1", "beem/dve/anderson.1.dve"),
        ("promela", "anderson.1", "beem/promela/anderson.1.pm"),
        ("promela", "sorter.1", "beem/promela/sorter.1.pm"),
        ("promela", "peterson.2", "beem/promela/peterson.2.pm"),
        ("mcrl2", "onebit", "mcrl2/lps/onebit.mcrl2"),
        ("mcrl2", "Knuth", "mcrl2/lps/Knuth.mcrl2"),
        (
            "b",
            "CAN_BUS_tlc",
            "b/prob-examples/B/Benchmarks/CAN_BUS_tlc.mch",
        ),
        (
            "b",
            "Simpson_Four_Slot",
            "b/prob-examples/B/Demo/Simpson/Simpson_Four_Slot.mch",
        ),
    ];
    let mut loaded = vec![("pnml/builtin-kanban-3".to_string(), builtin)];
    for (formalism, name, file) in files {
        loaded.push((format!("{formalism}/{name}"), load_file(&shared.join(file))));
    }
    for (name, model) in loaded {
        match model.and_then(|m| sample(&name, m)) {
            Ok(s) => out.push(s),
            Err(e) => eprintln!("bench: skipping {name} ({e})"),
        }
    }
    out
}

fn frontends_bench(c: &mut Criterion) {
    for s in samples() {
        let n = s.states.len() / s.k.max(1);
        let mut group = c.benchmark_group(format!("{} (k={}, {n} states)", s.name, s.k));
        group.throughput(Throughput::Elements(n as u64));
        group.sample_size(20);
        group.bench_function("next_all", |b| {
            b.iter(|| {
                let mut successors = 0u64;
                for state in s.states.chunks_exact(s.k.max(1)) {
                    // Every sampled state was reached, so it expands without error.
                    let _ = s.model.next_all(state, &mut |g, succ| {
                        successors += 1;
                        std::hint::black_box((g, succ));
                    });
                }
                successors
            })
        });
        group.finish();
    }
}

criterion_group!(benches, frontends_bench);
criterion_main!(benches);
