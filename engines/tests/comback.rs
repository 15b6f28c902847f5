//! `comback-ddd` on real models: small BEEM (DVE) and MCC (PNML) instances
//! of `../shared/datasets` and the built-in nets, on every combination of
//! the engine's variants, must give the manifest's oracle state count and
//! exactly the states and transitions of `hash-table` (and its levels when
//! searching level by level), also on a deep model (`plc.1`). Signatures
//! of 4 bits (collisions everywhere) and candidate sets of 1 and 2 (a
//! flush after nearly every MAYBE answer) are among the variants.
//!
//! Models are loaded through the front-ends (dev-dependencies); the
//! oracles are read from `datasets/*.csv`.

use engines::{EngineOptions, ExploreConfig, RunReport, RunStatus};
use pins::Model;
use std::path::Path;

mod real_models;
use real_models::{instances, load};

fn run(model: &dyn Model, engine: &str, params: &[(&str, String)]) -> RunReport {
    let opts = EngineOptions {
        mem_budget: 1 << 30,
        threads: 1,
        params: params
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
    };
    engines::create(engine, model, &opts, ExploreConfig::default()).unwrap()
}

/// Every variant of the engine; `tiny` adds 4-bit signatures.
fn variants(tiny: bool) -> Vec<Vec<(&'static str, String)>> {
    let mut out = Vec::new();
    let widths: &[u32] = if tiny { &[32, 4] } else { &[32] };
    for &bits in widths {
        for (delayed, candidates) in [(false, 10_000), (true, 1), (true, 2), (true, 10_000)] {
            for cache in [0, 50] {
                // Level by level only without cache (the cache does not
                // depend on the search order).
                let syncs: &[bool] = if cache == 0 { &[false, true] } else { &[false] };
                for (id_queue, batch) in [(false, 10_000), (true, 5), (true, 10_000)] {
                    for &level_sync in syncs {
                        out.push(vec![
                            ("signature_bits", bits.to_string()),
                            ("delayed", delayed.to_string()),
                            ("candidates", candidates.to_string()),
                            ("cache", cache.to_string()),
                            ("id_queue", id_queue.to_string()),
                            ("batch", batch.to_string()),
                            ("level_sync", level_sync.to_string()),
                        ]);
                    }
                }
            }
        }
    }
    out
}

fn check(instance: &str, path: &Path, oracle: u64, tiny: bool) {
    check_variants(instance, path, oracle, &variants(tiny));
}

fn check_variants(
    instance: &str,
    path: &Path,
    oracle: u64,
    variants: &[Vec<(&'static str, String)>],
) {
    let model = load(path);
    let want = run(model.as_ref(), "hash-table", &[]);
    assert_eq!(want.status, RunStatus::Ok, "{instance}: {}", want.message);
    assert_eq!(
        want.states, oracle,
        "{instance}: hash-table against the oracle"
    );
    for params in variants {
        let got = run(model.as_ref(), "comback-ddd", params);
        let what = format!("{instance} [{}]", got.engine_params);
        assert_eq!(got.status, RunStatus::Ok, "{what}: {}", got.message);
        assert_eq!(got.states, oracle, "{what}: states");
        assert_eq!(got.transitions, want.transitions, "{what}: transitions");
        if params.contains(&("level_sync", "true".to_string())) {
            assert_eq!(got.levels, want.levels, "{what}: levels");
        } else {
            assert_eq!(got.levels, None, "{what}: levels (not level by level)");
        }
    }
}

/// Three instances of the manifest `csv` with 50 to 600 states, checked
/// with every variant, and three with 601 to 8,000, with the larger ones.
fn small_and_larger(csv: &str) {
    let small = instances(csv, 50, 600, 3);
    let larger = instances(csv, 601, 8_000, 3);
    assert_eq!(small.len() + larger.len(), 6, "too few instances in {csv}");
    for (name, path, oracle) in &small {
        check(name, path, *oracle, true);
    }
    for (name, path, oracle) in &larger {
        check(name, path, *oracle, false);
    }
}

#[test]
fn beem_instances_count_like_the_oracle_and_the_hash_table() {
    small_and_larger("beem.csv");
}

#[test]
fn a_deep_beem_instance_counts_like_the_oracle_and_the_hash_table() {
    // plc.1: few states, but hundreds of BFS levels (a duplicate detection
    // per level when searching level by level).
    let deep = instances("beem.csv", 1, 8_000, usize::MAX);
    let (name, path, oracle) = deep
        .iter()
        .find(|(name, _, _)| name == "plc.1")
        .expect("plc.1 in the BEEM manifest");
    // Every variant on hundreds of levels would take minutes (each
    // reconstruction replays a path as long as the search is deep): the
    // variants below keep every mechanism (flushes of a full set, new
    // candidates joining the queue with 16-bit signatures, the id queue,
    // level by level) at a fraction of a second each.
    let variants: Vec<Vec<(&str, String)>> = [
        "",
        "candidates=10;cache=50",
        "signature_bits=16;candidates=100;cache=50",
        "id_queue=true;batch=100;cache=50",
        "level_sync=true;cache=50",
        "level_sync=true;id_queue=true;batch=100;cache=50;signature_bits=16",
    ]
    .iter()
    .map(|v| {
        v.split(';')
            .filter(|kv| !kv.is_empty())
            .map(|kv| {
                let (k, v) = kv.split_once('=').unwrap();
                let k: &'static str = [
                    "candidates",
                    "cache",
                    "signature_bits",
                    "id_queue",
                    "batch",
                    "level_sync",
                ]
                .into_iter()
                .find(|&name| name == k)
                .unwrap();
                (k, v.to_string())
            })
            .collect()
    })
    .collect();
    check_variants(name, path, *oracle, &variants);
}

#[test]
fn mcc_instances_count_like_the_oracle_and_the_hash_table() {
    small_and_larger("mcc.csv");
}

#[test]
fn builtin_nets_count_like_the_oracle_and_the_hash_table() {
    let nets = instances("builtin.csv", 1, 5_000, 20);
    assert!(nets.len() >= 5, "too few built-in nets");
    for (name, path, oracle) in &nets {
        check(name, path, *oracle, oracle <= &1_000);
    }
}
