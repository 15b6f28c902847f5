//! Tests of the whole engine on small synthetic models: the same states,
//! transitions and levels as the generic explorer with a hash table, for
//! every combination of the engine's variants, including signatures of 4
//! and 1 bits (almost every state collides) and candidate sets of 1 and 2
//! (a duplicate detection after nearly every MAYBE answer). Also the exact
//! accounting, table_full, model errors and the counters' definitions.
//! The models of the datasets are checked through the harness
//! (`harness/tests/comback.rs`). Compiled for tests only.

use super::{explore, ComBackConfig};
use crate::blocks::budget::Budget;
use crate::explore::{explore as explore_generic, ExploreConfig, Progress};
use crate::report::{RunReport, RunStatus};
use crate::schemes::hash_table::{HashTable, HashTableConfig};
use crate::test_models::{Mixer, Ring};
use pins::Model;

fn reference(model: &dyn Model) -> RunReport {
    let mut set = HashTable::new(model.slot_count(), HashTableConfig::default()).unwrap();
    explore_generic(model, &mut set, ExploreConfig::default())
}

fn run(model: &dyn Model, config: &ComBackConfig) -> RunReport {
    config.check().unwrap();
    explore(model, config, Budget::unlimited(), ExploreConfig::default())
}

fn counter(r: &RunReport, name: &str) -> u64 {
    r.counters
        .iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no counter {name}"))
        .1
}

/// Every combination of the variants, for the given signature widths.
fn variants(signature_bits: &[u32]) -> Vec<ComBackConfig> {
    let mut out = Vec::new();
    for &signature_bits in signature_bits {
        for delayed in [false, true] {
            let candidate_sizes: &[usize] = if delayed { &[1, 2, 10_000] } else { &[10_000] };
            for &candidates in candidate_sizes {
                for cache in [0usize, 7] {
                    for id_queue in [false, true] {
                        let batches: &[usize] = if id_queue { &[1, 3, 10_000] } else { &[10_000] };
                        for &batch in batches {
                            // Level by level only without cache (the cache
                            // does not depend on the search order): keeps
                            // the tests' time down.
                            let syncs: &[bool] = if cache == 0 { &[false, true] } else { &[false] };
                            for &level_sync in syncs {
                                out.push(ComBackConfig {
                                    candidates,
                                    delayed,
                                    cache,
                                    id_queue,
                                    batch,
                                    signature_bits,
                                    level_sync,
                                });
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

fn check_model(model: &dyn Model, signature_bits: &[u32]) {
    let want = reference(model);
    assert_eq!(want.status, RunStatus::Ok);
    for config in variants(signature_bits) {
        let got = run(model, &config);
        let what = config.params();
        assert_eq!(got.status, RunStatus::Ok, "{what}: {}", got.message);
        assert_eq!(got.states, want.states, "states, {what}");
        assert_eq!(got.transitions, want.transitions, "transitions, {what}");
        if config.level_sync {
            assert_eq!(got.levels, want.levels, "levels, {what}");
        } else {
            // Not a breadth-first order by levels: no level count.
            assert_eq!(got.levels, None, "levels, {what}");
        }
        assert_eq!(got.max_slot_bits, want.max_slot_bits, "{what}");
        assert!(got.engine_bytes_used <= got.engine_bytes_alloc, "{what}");
        if config.delayed {
            // Every successor is a NEW answer (a state stored at once) or a
            // MAYBE answer; the other states are the candidates found new.
            let new_answers = got.states - 1 - counter(&got, "candidate_new");
            assert_eq!(
                new_answers + counter(&got, "maybe"),
                got.transitions,
                "{what}"
            );
            assert!(
                counter(&got, "candidate_duplicates") + counter(&got, "candidate_new")
                    <= counter(&got, "maybe"),
                "{what}"
            );
        } else {
            assert_eq!(counter(&got, "candidate_flushes"), 0, "{what}");
            assert_eq!(
                counter(&got, "basic_reconstructions"),
                counter(&got, "reconstructions"),
                "{what}"
            );
        }
        if config.id_queue {
            // Every state but the last level's is rebuilt once to be
            // expanded; the last level's too (they are expanded, with no
            // new successor).
            assert_eq!(counter(&got, "queue_reconstructions"), got.states, "{what}");
        }
    }
}

#[test]
fn every_variant_counts_like_the_hash_table() {
    let model = Mixer::new(3, 12, 5, 3);
    let r = reference(&model);
    assert!(r.states > 500 && r.transitions > 3 * r.states, "{r:?}");
    check_model(&model, &[32]);
}

#[test]
fn a_deep_model_counts_like_the_hash_table() {
    let model = Ring::new(160);
    let r = reference(&model);
    assert_eq!(r.states, 320);
    assert!(r.levels.unwrap() > 75, "{r:?}");
    check_model(&model, &[32, 4]);
}

#[test]
fn without_level_sync_duplicate_detection_waits_for_a_full_set_or_an_empty_queue() {
    let model = Ring::new(300);
    let levels = reference(&model).levels.unwrap();
    let run_with = |level_sync, candidates| {
        run(
            &model,
            &ComBackConfig {
                level_sync,
                candidates,
                ..ComBackConfig::default()
            },
        )
    };
    // Level by level: one duplicate detection per level with a duplicate.
    let synced = run_with(true, 10_000);
    assert!(
        counter(&synced, "candidate_flushes") + 2 >= levels,
        "{levels} levels, {:?}",
        synced.counters
    );
    // Algorithm 4: the queue of NEW states only runs empty once the NEW
    // states are exhausted; with a set larger than the MAYBE answers,
    // every duplicate detection runs on an empty queue, and each finds at
    // least one new state but the last.
    let free = run_with(false, 10_000);
    let flushes = counter(&free, "candidate_flushes");
    assert!(
        flushes * 10 < levels,
        "{levels} levels, {:?}",
        free.counters
    );
    assert_eq!(counter(&free, "maybe"), counter(&synced, "maybe"));
    // A set of capacity c runs a detection at least every c distinct
    // candidates.
    let small = run_with(false, 5);
    assert!(
        counter(&small, "candidate_flushes") * 5
            >= counter(&small, "candidate_duplicates") + counter(&small, "candidate_new"),
        "{:?}",
        small.counters
    );
    assert_eq!((free.states, small.states), (600, 600));
}

#[test]
fn tiny_signatures_collide_and_still_count_exactly() {
    let model = Mixer::new(2, 25, 4, 2);
    let r = reference(&model);
    assert!(r.states > 100, "{r:?}");
    check_model(&model, &[4, 1]);
    // With 4 bits nearly every new state gets a MAYBE answer, and is found
    // new after a reconstruction of its signature mates.
    let got = run(
        &model,
        &ComBackConfig {
            signature_bits: 4,
            ..ComBackConfig::default()
        },
    );
    assert!(
        counter(&got, "candidate_new") > r.states / 2,
        "{:?}",
        got.counters
    );
}

#[test]
fn a_candidate_set_of_one_replays_the_basic_method_and_computes_its_cost() {
    // Capacity 1: each MAYBE answer is resolved before the next successor
    // is inserted, so the search stores the same states with the same ids
    // as the basic method, and the basic cost computed by the delayed
    // search must equal what the basic method really did.
    for bits in [32u32, 4, 1] {
        let model = Mixer::new(2, 20, 4, 2);
        let basic = run(
            &model,
            &ComBackConfig {
                delayed: false,
                signature_bits: bits,
                ..ComBackConfig::default()
            },
        );
        let delayed = run(
            &model,
            &ComBackConfig {
                candidates: 1,
                signature_bits: bits,
                ..ComBackConfig::default()
            },
        );
        assert_eq!(
            counter(&delayed, "basic_reconstructions"),
            counter(&basic, "reconstructions"),
            "bits {bits}"
        );
        assert_eq!(counter(&delayed, "maybe"), counter(&basic, "maybe"));
        assert_eq!(
            counter(&delayed, "candidate_flushes"),
            counter(&delayed, "maybe")
        );
    }
}

#[test]
fn the_delay_groups_reconstructions() {
    let model = Mixer::new(3, 12, 5, 3);
    let basic = run(
        &model,
        &ComBackConfig {
            delayed: false,
            ..ComBackConfig::default()
        },
    );
    let delayed = run(&model, &ComBackConfig::default());
    // 32-bit signatures: every MAYBE answer costs the basic method at least
    // one reconstruction; a flush rebuilds each mate once.
    assert!(counter(&delayed, "reconstructions") < counter(&delayed, "basic_reconstructions"));
    assert_eq!(
        counter(&delayed, "reconstructions_saved"),
        counter(&delayed, "basic_reconstructions") - counter(&delayed, "reconstructions")
    );
    assert!(counter(&delayed, "events_reexecuted") < counter(&basic, "events_reexecuted"));
    // A cache shortens the basic method's backtracking.
    let cached = run(
        &model,
        &ComBackConfig {
            delayed: false,
            cache: 100,
            ..ComBackConfig::default()
        },
    );
    assert!(counter(&cached, "cache_hits") > 0);
    assert!(counter(&cached, "events_reexecuted") < counter(&basic, "events_reexecuted"));
}

#[test]
fn accounting_is_exact() {
    // Ring: 3 groups (2 group bits), one successor each (index 0): every
    // event is below 3, and group 2 is taken, so events take 2 bits.
    let model = Ring::new(160);
    for (signature_bits, cache) in [(32u64, 0u64), (8, 0), (32, 50)] {
        let r = run(
            &model,
            &ComBackConfig {
                signature_bits: signature_bits as u32,
                cache: cache as usize,
                ..ComBackConfig::default()
            },
        );
        let n = r.states;
        assert_eq!(n, 320);
        // State table: 2^12 buckets (the initial size, n <= 3/4 of it),
        // each pair a signature and a 12-bit id field.
        let table = (n * (signature_bits + 12)).div_ceil(8);
        // Back-edges: predecessor, first child, next sibling as id + 1 in
        // 9 bits (320 < 2^9), the 2-bit event, the check bit.
        let edges = 3 * (n * 9).div_ceil(8) + (n * 2).div_ceil(8) + n.div_ceil(8);
        // Cached vectors (2 slots); the candidate set is empty at the end.
        let expect = table + edges + n.min(cache) * 2 * 4;
        let what = format!("signature_bits {signature_bits} cache {cache}");
        assert_eq!(r.engine_bytes_used, expect, "{what}");
        assert!(r.engine_bytes_alloc >= r.engine_bytes_used, "{what}");
    }
}

#[test]
fn a_small_budget_is_table_full() {
    let model = Mixer::new(3, 40, 5, 3);
    let full = reference(&model).states;
    let r = explore(
        &model,
        &ComBackConfig::default(),
        Budget::new(200_000),
        ExploreConfig::default(),
    );
    assert_eq!(r.status, RunStatus::TableFull, "{r:?}");
    assert!(r.states > 0 && r.states < full);
    assert!(r.engine_bytes_alloc <= 200_000);
    // A cache that does not fit at all.
    let r = explore(
        &model,
        &ComBackConfig {
            cache: 1 << 20,
            ..ComBackConfig::default()
        },
        Budget::new(1 << 20),
        ExploreConfig::default(),
    );
    assert_eq!(r.status, RunStatus::TableFull);
    assert_eq!(r.states, 0);
}

#[test]
fn model_errors_stop_the_search() {
    let model = Mixer::failing_on(3, 12, 5, 3, Some(vec![3, 0, 0]));
    let want = {
        let mut set = HashTable::new(3, HashTableConfig::default()).unwrap();
        explore_generic(&model, &mut set, ExploreConfig::default())
    };
    assert_eq!(want.status, RunStatus::ModelError);
    for delayed in [false, true] {
        let r = run(
            &model,
            &ComBackConfig {
                delayed,
                ..ComBackConfig::default()
            },
        );
        assert_eq!(r.status, RunStatus::ModelError);
        assert_eq!(r.message, "g: boom");
    }
}

#[test]
fn progress_is_reported() {
    let model = Mixer::new(3, 12, 5, 3);
    let mut last = Progress::default();
    let mut calls = 0;
    let mut cb = |p: &Progress| {
        calls += 1;
        last = *p;
    };
    let r = explore(
        &model,
        &ComBackConfig::default(),
        Budget::unlimited(),
        ExploreConfig {
            progress: Some(&mut cb),
            progress_every: 100,
            configured: None,
        },
    );
    assert_eq!(calls as u64, r.states / 100 + 1);
    assert_eq!((last.states, last.transitions), (r.states, r.transitions));
}
