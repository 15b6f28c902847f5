//! The concurrent `compact-tree` on real models: the project's built-in
//! Petri nets (`datasets/builtin`) and, when the shared dataset directory
//! is present, a few BEEM DVE instances (absent: a failure under CI); the
//! oracles from the manifests.
//! Every thread count must give the oracle's state count and the same
//! transition count as one thread, repeatedly (the interleavings differ
//! from run to run).

use engines::{explore_parallel, lookup, EngineOptions, ExploreConfig, RunStatus};
use frontend_testkit::missing;
use pins::Model;

mod real_models;
use real_models::{load, locate, manifest, rows};

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
    let set = lookup("compact-tree")
        .unwrap()
        .build_concurrent_set(model, &opts)
        .unwrap();
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
    for (instance, reps) in [
        ("philosophers-7", 20),
        ("mutex-10", 20),
        ("kanban-2", 3),
        ("token-ring-8-8", 10),
    ] {
        let (path, oracle) = manifest("builtin", instance);
        check(load(&path).as_ref(), oracle, reps);
    }
}

#[test]
fn beem_instances_at_one_two_and_four_threads() {
    let beem = rows("beem.csv");
    for (instance, reps) in [("adding.1", 20), ("blocks.2", 10), ("brp.1", 3)] {
        let row = beem
            .iter()
            .find(|r| r["instance"] == instance)
            .unwrap_or_else(|| panic!("{instance} not in datasets/beem.csv"));
        let Some(path) = locate(&row["path"]) else {
            missing(&format!("{instance}: model file {} not found", row["path"]));
            continue;
        };
        let oracle = row["oracle_states"].parse().unwrap();
        check(load(&path).as_ref(), oracle, reps);
    }
}
