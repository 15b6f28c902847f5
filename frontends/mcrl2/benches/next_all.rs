//! Criterion benchmark of the mCRL2 front-end's successor function
//! (`pins::Model::next_all`: every summand, with the rewriter and the
//! enumeration of sum variables) on reachable states of two corpus
//! models: `onebit` (a mid-size protocol with case functions and light
//! data) and `Knuth` (a mutual-exclusion algorithm over registers with
//! sets and function updates: heavy data, sum variables over Nat pinned
//! by the condition).
//!
//! For each model a fixed sample is taken first: the first `SAMPLE`
//! states of a breadth-first search from the initial state (a `HashSet`
//! of vectors, no engine). The benchmark then expands every state of the
//! sample; throughput is in expanded states per second.
//!
//! The corpus lives in `../shared/datasets/mcrl2` beside the workspace;
//! when it (or a model) is missing or does not load, that model is
//! skipped with a message on stderr: a benchmark, not a test.
//!
//! Run with `cargo bench -p statebench-mcrl2 --bench next_all` (add
//! `-- Knuth` to filter; `-- --test` runs each benchmark once).

use std::collections::{HashSet, VecDeque};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use pins::{Model, Value};

/// States in each model's sample.
const SAMPLE: usize = 2048;

/// The corpus models benchmarked.
const MODELS: [&str; 2] = ["onebit", "Knuth"];

struct Sample {
    name: &'static str,
    model: mcrl2::Mcrl2Model,
    k: usize,
    /// Up to `SAMPLE` states, concatenated.
    states: Vec<Value>,
}

/// The first `SAMPLE` states of a breadth-first search of `model`.
fn sample(name: &'static str, model: mcrl2::Mcrl2Model) -> Result<Sample, String> {
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
                if !seen.contains(succ) {
                    seen.insert(succ.to_vec());
                    queue.push_back(succ.to_vec());
                }
            })
            .map_err(|e| e.to_string())?;
    }
    Ok(Sample {
        name,
        model,
        k,
        states,
    })
}

fn samples() -> Vec<Sample> {
    let dir = frontend_testkit::corpus::datasets("mcrl2/lps");
    let mut out = Vec::new();
    for name in MODELS {
        let path = dir.join(format!("{name}.mcrl2"));
        if !path.is_file() {
            eprintln!("bench: skipping {name} ({} not found)", path.display());
            continue;
        }
        match mcrl2::parse_file(&path)
            .map_err(|e| e.to_string())
            .and_then(|m| sample(name, m))
        {
            Ok(s) => out.push(s),
            Err(e) => eprintln!("bench: skipping {name} ({e})"),
        }
    }
    out
}

fn next_all_bench(c: &mut Criterion) {
    for s in samples() {
        let n = s.states.len() / s.k.max(1);
        let mut group = c.benchmark_group(format!("mcrl2/{} (k={}, {n} states)", s.name, s.k));
        group.throughput(Throughput::Elements(n as u64));
        group.sample_size(10);
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

criterion_group!(benches, next_all_bench);
criterion_main!(benches);
