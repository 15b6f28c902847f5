//! The concurrent forms of `collapse` and `trie` on real models: with 1, 2
//! and 4 threads (the concurrent set driven by `explore_parallel`, also
//! with one worker) they must find exactly the states and transitions of
//! the sequential engine and of the manifest's oracle; on a small model
//! where every insertion races, repeatedly. Built-in nets from
//! `datasets/builtin`, BEEM models from `../shared/datasets` (or
//! `$STATEBENCH_DATA`).

use engines::{create, explore_parallel, lookup, EngineOptions, ExploreConfig};
use pins::Model;

mod real_models;
use real_models::{load, manifest};

const ENGINES: [&str; 2] = ["collapse", "trie"];

fn opts(threads: usize) -> EngineOptions {
    EngineOptions {
        mem_budget: u64::MAX,
        params: Vec::new(),
        threads,
    }
}

/// (states, transitions) of the concurrent set of `engine` explored by
/// `threads` workers.
fn parallel(engine: &str, model: &dyn Model, threads: usize) -> (u64, u64) {
    let set = lookup(engine)
        .unwrap()
        .build_concurrent_set(model, &opts(threads))
        .unwrap();
    let r = explore_parallel(model, set, threads, ExploreConfig::default());
    assert_eq!(r.status, engines::RunStatus::Ok, "{engine}: {}", r.message);
    (r.states, r.transitions)
}

/// Every engine's sequential run of `instance` finds the oracle's states,
/// and its concurrent form, `repetitions` times at each thread count,
/// the sequential run's states and transitions.
fn same_counts_in_parallel(suite: &str, instance: &str, threads: &[usize], repetitions: usize) {
    let (path, oracle) = manifest(suite, instance);
    let model = load(&path);
    for engine in ENGINES {
        let seq = create(engine, model.as_ref(), &opts(1), ExploreConfig::default()).unwrap();
        assert_eq!(seq.states, oracle, "{instance} {engine} sequential");
        for rep in 0..repetitions {
            for &threads in threads {
                assert_eq!(
                    parallel(engine, model.as_ref(), threads),
                    (seq.states, seq.transitions),
                    "{instance} {engine} threads={threads} repetition {rep}"
                );
            }
        }
    }
}

#[test]
fn one_two_and_four_threads_find_the_sequential_counts() {
    let cases = [
        ("builtin", "kanban-2"),
        ("builtin", "token-ring-8-8"),
        ("beem", "anderson.4"),
        ("beem", "at.1"),
        ("beem", "bakery.3"),
    ];
    for (suite, instance) in cases {
        same_counts_in_parallel(suite, instance, &[1, 2, 4], 1);
    }
}

/// A small model (a few hundred states) with more workers than cores:
/// nearly every insertion races with another.
#[test]
fn racy_small_models_give_identical_counts_every_time() {
    for (suite, instance) in [("builtin", "philosophers-7"), ("beem", "bridge.1")] {
        same_counts_in_parallel(suite, instance, &[2, 4], 20);
    }
}

/// The concurrent forms take the sequential engines' parameters and
/// reject unknown ones with the same message.
#[test]
fn concurrent_forms_take_the_sequential_parameters() {
    let (path, _) = manifest("builtin", "kanban-1");
    let model = load(&path);
    for (engine, good, bad) in [
        (
            "collapse",
            ("initial_buckets", "1024"),
            ("bucket_size", "4"),
        ),
        ("trie", ("bucket_size", "4"), ("initial_buckets", "1024")),
    ] {
        let with = |(k, v): (&str, &str)| EngineOptions {
            params: vec![(k.to_string(), v.to_string())],
            ..opts(2)
        };
        let spec = lookup(engine).unwrap();
        assert!(spec
            .build_concurrent_set(model.as_ref(), &with(good))
            .is_ok());
        let seq = spec.build_visited_set(model.as_ref(), &with(bad)).err();
        let par = spec.build_concurrent_set(model.as_ref(), &with(bad)).err();
        assert!(seq.is_some(), "{engine}");
        assert_eq!(seq, par, "{engine}");
    }
}
