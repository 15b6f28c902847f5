//! The concurrent `compact-tree` on real models: the project's built-in
//! Petri nets (`datasets/builtin`) and, when the shared dataset directory
//! is present, a few BEEM DVE instances (absent: a failure under CI).
//! Every thread count must give the oracle's state count and the same
//! transition count as one thread, repeatedly (the interleavings differ
//! from run to run).

use engines::{build_concurrent_set, explore_parallel, EngineOptions, ExploreConfig, RunStatus};
use frontend_testkit::missing;
use pins::Model;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Explores `model` with `compact-tree` (parameters `params`) at
/// `threads` workers: (states, transitions).
fn run(model: &dyn Model, params: &[(&str, &str)], threads: usize) -> (u64, u64) {
    let opts = EngineOptions {
        mem_budget: 1 << 30,
        params: params
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        threads,
    };
    let set = build_concurrent_set("compact-tree", model, &opts).unwrap();
    let r = explore_parallel(model, set, threads, ExploreConfig::default());
    assert_eq!(r.status, RunStatus::Ok, "{}: {}", model.name(), r.message);
    (r.states, r.transitions)
}

fn check(model: &dyn Model, oracle: u64, reps: usize) {
    let modes: [&[(&str, &str)]; 3] = [
        &[],
        &[("m", "budget"), ("root_key", "fixed")],
        &[("m", "20"), ("incremental", "false")],
    ];
    for params in modes {
        let (states, transitions) = run(model, params, 1);
        assert_eq!(states, oracle, "{} {params:?} 1 thread", model.name());
        for rep in 0..reps {
            for threads in [2, 4] {
                assert_eq!(
                    run(model, params, threads),
                    (states, transitions),
                    "{} {params:?} {threads} threads, repetition {rep}",
                    model.name()
                );
            }
        }
    }
}

#[test]
fn builtin_petri_nets_at_one_two_and_four_threads() {
    for (file, oracle, reps) in [
        ("philosophers-7.pnml", 478, 20),
        ("mutex-10.pnml", 6144, 20),
        ("kanban-2.pnml", 26325, 3),
        ("token-ring-8-8.pnml", 6435, 10),
    ] {
        let net = pnml::parse_file(&root().join("datasets/builtin").join(file)).unwrap();
        check(&net, oracle, reps);
    }
}

#[test]
fn beem_instances_at_one_two_and_four_threads() {
    let dir = root().join("../shared/datasets/beem/dve");
    if !dir.is_dir() {
        missing(&format!("BEEM corpus not found at {}", dir.display()));
        return;
    }
    for (file, oracle, reps) in [
        ("adding.1.dve", 7372, 20),
        ("blocks.2.dve", 7057, 10),
        ("brp.1.dve", 18928, 3),
    ] {
        let path = dir.join(file);
        if !path.is_file() {
            missing(&format!("{} not found", path.display()));
            continue;
        }
        let model = dve::parse_file(&path).unwrap();
        check(&model, oracle, reps);
    }
}
