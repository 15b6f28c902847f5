//! Criterion benchmark of the mCRL2 front-end's successor function
//! (`pins::Model::next_all`: every summand, with the rewriter and the
//! enumeration of sum variables) on reachable states of two corpus
//! models: `onebit` (a mid-size protocol with case functions and light
//! data) and `Knuth` (a mutual-exclusion algorithm over registers with
//! sets and function updates: heavy data, sum variables over Nat pinned
//! by the condition).
//!
//! For each model a fixed sample is taken first: the first `SAMPLE`
//! states of a breadth-first search from the initial state (the test
//! kit's `Frontier`, no engine). The benchmark then expands every state of the
//! sample; throughput is in expanded states per second.
//!
//! The corpus lives in `../shared/datasets/mcrl2` beside the workspace;
//! when it (or a model) is missing or does not load, that model is
//! skipped with a message on stderr: a benchmark, not a test.
//!
//! Run with `cargo bench -p statebench-mcrl2 --bench next_all` (add
//! `-- Knuth` to filter; `-- --test` runs each benchmark once).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use frontend_testkit::bfs::Frontier;
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

impl Sample {
    /// The first `SAMPLE` states of a breadth-first search of `model`.
    fn take(name: &'static str, model: mcrl2::Mcrl2Model) -> Result<Sample, String> {
        let k = model.slot_count().max(1);
        let mut frontier = Frontier::of(&model);
        let mut states = Vec::with_capacity(SAMPLE * k);
        while let Some(s) = frontier.pop() {
            states.extend_from_slice(&s);
            if states.len() >= SAMPLE * k {
                break;
            }
            let step = model.next_all(&s, &mut |_, t| {
                frontier.offer(t);
            });
            step.map_err(|e| e.to_string())?;
        }
        Ok(Sample {
            name,
            model,
            k,
            states,
        })
    }

    /// Expands every state of the sample: the number of successors.
    fn expand(&self) -> usize {
        let mut successors = 0;
        for state in self.states.chunks_exact(self.k) {
            // Every sampled state was reached, so it expands without error.
            let _ = self.model.next_all(state, &mut |_, t| {
                std::hint::black_box(t);
                successors += 1;
            });
        }
        successors
    }
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
            .and_then(|m| Sample::take(name, m))
        {
            Ok(s) => out.push(s),
            Err(e) => eprintln!("bench: skipping {name} ({e})"),
        }
    }
    out
}

fn next_all_bench(c: &mut Criterion) {
    for s in samples() {
        let n = s.states.len() / s.k;
        let mut group = c.benchmark_group(format!("mcrl2/{} (k={}, {n} states)", s.name, s.k));
        group.throughput(Throughput::Elements(n as u64));
        group.sample_size(10);
        group.bench_function("next_all", |b| b.iter(|| std::hint::black_box(s.expand())));
        group.finish();
    }
}

criterion_group!(benches, next_all_bench);
criterion_main!(benches);
