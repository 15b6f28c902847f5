//! Criterion micro-benchmarks of every explicit engine's insert and lookup
//! on vector streams recorded from real models.
//!
//! A stream is the sequence of successor vectors, in the order the BFS
//! explorer hands them to the visited set (duplicates included), recorded
//! from the first `STREAM_LEN` insertions of a model: a built-in Petri net
//! (always available) and BEEM models from `../shared/datasets` when
//! present. Two benchmarks per engine and stream:
//! - `insert`: a fresh set takes the whole stream (the mix of new and
//!   found states an exploration produces);
//! - `lookup`: the same stream again into a set already holding it (every
//!   answer is "found").
//!
//! Throughput is reported in vectors per second. Run with `cargo bench -p
//! statebench --bench engines` (add `-- ENGINE` to filter).
//!
//! This file owns only the benchmark driver; engines are built through the
//! registry, models through the front-ends.

mod common;

use common::{load_file, workspace};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use engines::{EngineOptions, Inserted, MemoryUsage, TableFull, VisitedSet};
use pins::{Model, Value};
use std::path::Path;

const STREAM_LEN: usize = 200_000;

/// Every engine gets this budget (compact-tree sizes its root table from
/// it, as in a campaign with a 2/0.7 GiB memory limit).
fn options() -> EngineOptions {
    EngineOptions {
        mem_budget: 2 << 30,
        params: Vec::new(),
        threads: 1,
    }
}

/// A visited set that records every vector it is asked about.
struct Recorder {
    inner: Box<dyn VisitedSet>,
    k: usize,
    stream: Vec<Value>,
    limit: usize,
}

impl VisitedSet for Recorder {
    fn find_or_insert(&mut self, state: &[Value]) -> Result<Inserted, TableFull> {
        if self.stream.len() / self.k.max(1) >= self.limit {
            return Err(TableFull {
                message: "recorded enough".into(),
            });
        }
        self.stream.extend_from_slice(state);
        self.inner.find_or_insert(state)
    }
    fn len(&self) -> u64 {
        self.inner.len()
    }
    fn memory(&self) -> MemoryUsage {
        self.inner.memory()
    }
    fn params(&self) -> String {
        String::new()
    }
}

struct Stream {
    name: String,
    model: Box<dyn Model>,
    k: usize,
    vectors: Vec<Value>,
}

fn record(name: &str, path: &Path) -> Option<Stream> {
    let model = load_file(path).ok()?;
    let k = model.slot_count();
    let mut rec = Recorder {
        inner: engines::lookup("hash-table")
            .ok()?
            .build_visited_set(model.as_ref(), &options())
            .ok()?,
        k,
        stream: Vec::new(),
        limit: STREAM_LEN,
    };
    engines::explore(model.as_ref(), &mut rec, engines::ExploreConfig::default());
    Some(Stream {
        name: name.to_owned(),
        model,
        k,
        vectors: rec.stream,
    })
}

fn streams() -> Vec<Stream> {
    let root = workspace();
    let mut out = Vec::new();
    let candidates = [
        ("kanban-3", root.join("datasets/builtin/kanban-3.pnml")),
        (
            "anderson.1",
            root.join("../shared/datasets/beem/dve/anderson.1.dve"),
        ),
        (
            "phils.4",
            root.join("../shared/datasets/beem/dve/phils.4.dve"),
        ),
        (
            "telephony.3",
            root.join("../shared/datasets/beem/dve/telephony.3.dve"),
        ),
    ];
    for (name, path) in candidates {
        match record(name, &path) {
            Some(s) => out.push(s),
            None => eprintln!("bench: skipping {name} ({} not available)", path.display()),
        }
    }
    out
}

fn engines_bench(c: &mut Criterion) {
    let streams = streams();
    let engines: Vec<&str> = engines::ENGINES
        .iter()
        .filter(|e| e.is_explicit())
        .map(|e| e.name)
        .collect();
    for s in &streams {
        let n = s.vectors.len() / s.k;
        let mut group = c.benchmark_group(format!("{} (k={}, {} vectors)", s.name, s.k, n));
        group.throughput(Throughput::Elements(n as u64));
        group.sample_size(10);
        for &engine in &engines {
            let make = || {
                engines::lookup(engine)
                    .and_then(|e| e.build_visited_set(s.model.as_ref(), &options()))
                    .expect("engine builds")
            };
            group.bench_function(format!("{engine}/insert"), |b| {
                b.iter_batched(
                    make,
                    |mut set| {
                        for v in s.vectors.chunks_exact(s.k) {
                            std::hint::black_box(set.find_or_insert(v).expect("fits"));
                        }
                        set
                    },
                    BatchSize::LargeInput,
                )
            });
            let mut full = make();
            for v in s.vectors.chunks_exact(s.k) {
                full.find_or_insert(v).expect("fits");
            }
            group.bench_function(format!("{engine}/lookup"), |b| {
                b.iter(|| {
                    for v in s.vectors.chunks_exact(s.k) {
                        std::hint::black_box(full.find_or_insert(v).expect("found"));
                    }
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, engines_bench);
criterion_main!(benches);
