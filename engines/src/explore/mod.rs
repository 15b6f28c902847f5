//! The generic explorer: breadth-first search over a [`pins::Model`] with
//! any [`VisitedSet`] as the visited set.
//!
//! Owns the search order, the counting of states and transitions, the
//! widest-slot measurement and progress reporting. It must not know which
//! storage scheme it drives, nor anything about processes, CSV or limits
//! other than the engine's own `table_full`.
//!
//! Sequential. Its queue ([`open_set`]) holds the states' references
//! when the visited set can give a state back from its reference (the
//! trees, the hash table), else full vectors with their side data ([`QueueMode`],
//! parameter `queue`, chooses). The parallel explorer (`parallel.rs`)
//! queues full vectors.
//!
//! Where the set can prefetch ([`VisitedSet::prefetch`]: the hash table),
//! a state's successors are generated first, each one's home bucket
//! prefetched, and then looked up in order (`successor_batch.rs`), so the
//! lookups' cache misses overlap (task-clock 0.82-0.96 of the unbatched
//! search on four BEEM Promela models of 0.5-1.2 M states).
//!
//! Operation latency: one `find_or_insert` / `find_or_insert_from` call in
//! every [`SAMPLE_EVERY`](crate::explore::latency::SAMPLE_EVERY) (64) is timed with
//! `Instant::now()` around the call alone and recorded in an HDR histogram
//! (3 significant digits); the report carries its p50, p99 and p99.9
//! ([`RunReport::op_latency`]). The timed calls are spread over the whole
//! run (every 64th call, new and found states alike), so the percentiles
//! describe the mix an exploration produces. Cost: two clock reads
//! (~20-25 ns each with the vDSO) per 64 calls plus a counter test on every
//! call. Measured with `statebench explore` of BEEM `fischer.3` (2.9 M
//! states, hash-table; 2-core machine running other jobs), four runs each,
//! alternating: 6.34 s mean with timing, 6.47 s without (run-to-run spread
//! ±6%); `tree` (incremental calls), three runs each: 9.84 s with,
//! 10.00 s without. No slowdown measurable above the noise.
//! [`TIME_OPS`] switches it off for such a comparison.

pub mod latency;
pub mod open_set;
pub mod parallel;
pub mod slot_domains;
pub mod state_queue;
mod successor_batch;

use crate::explore::latency::LatencySampler;
use crate::explore::open_set::OpenSet;
pub use crate::explore::open_set::QueueMode;
use crate::explore::slot_domains::SlotDomains;
use crate::explore::successor_batch::SuccessorBatch;
use crate::report::{RunReport, RunStatus};
use crate::visited::{MemoryUsage, TableFull, VisitedSet};
use pins::{Model, Value};
use std::time::Instant;

/// Whether the explorer times a sample of visited-set calls (module doc).
pub const TIME_OPS: bool = true;

/// Figures passed to the progress callback.
#[derive(Clone, Copy, Debug, Default)]
pub struct Progress {
    pub states: u64,
    pub transitions: u64,
    pub queued: u64,
    pub levels: u64,
    pub engine_bytes_alloc: u64,
}

/// The progress callback of [`ExploreConfig::progress`].
pub type ProgressCallback<'a> = &'a mut dyn FnMut(&Progress);

/// Options of one exploration.
pub struct ExploreConfig<'a> {
    /// Called every `progress_every` expanded states, and once at the end of
    /// a search that expanded at least one state.
    pub progress: Option<ProgressCallback<'a>>,
    pub progress_every: u64,
    /// Called once, as the search starts (before its first expansion),
    /// with the engine's parameters as resolved then (the `engine_params` of the report,
    /// which may still change, e.g. a widened encoding): a run cut short
    /// by a limit has no report, and still records what it ran with.
    pub configured: Option<&'a mut dyn FnMut(&str)>,
}

impl Default for ExploreConfig<'_> {
    fn default() -> Self {
        ExploreConfig {
            progress: None,
            progress_every: 1 << 16,
            configured: None,
        }
    }
}

impl<'a> ExploreConfig<'a> {
    /// Starts a search: announces the engine's parameters to `configured`
    /// (`params` is called only when it is set) and returns what the search
    /// keeps, the progress callback and its period (at least 1).
    pub(crate) fn start(
        self,
        params: impl FnOnce() -> String,
    ) -> (Option<ProgressCallback<'a>>, u64) {
        if let Some(announce) = self.configured {
            announce(&params());
        }
        (self.progress, self.progress_every.max(1))
    }
}

/// What one of the generic explorers measured, with the set's final
/// figures: the [`RunReport`] but for what [`Outcome::report`] adds.
pub(crate) struct Outcome {
    pub(crate) failure: Option<(RunStatus, String)>,
    pub(crate) states: u64,
    pub(crate) transitions: u64,
    pub(crate) levels: Option<u64>,
    pub(crate) memory: MemoryUsage,
    pub(crate) params: String,
    pub(crate) counters: Vec<(String, u64)>,
}

impl Outcome {
    /// The report, with the slot figures of `domains`, the sampled latency
    /// and the time since `start`; no decision-diagram figures.
    pub(crate) fn report(
        self,
        domains: &SlotDomains,
        latency: &LatencySampler,
        start: Instant,
    ) -> RunReport {
        let (status, message) = self.failure.unwrap_or((RunStatus::Ok, String::new()));
        RunReport {
            status,
            message,
            states: self.states,
            transitions: self.transitions,
            levels: self.levels,
            engine_bytes_used: self.memory.used,
            engine_bytes_alloc: self.memory.alloc,
            max_slot_bits: domains.max_slot_bits(),
            universe_log2: domains.universe_log2(),
            explore_time_s: start.elapsed().as_secs_f64(),
            engine_params: self.params,
            dd_final_nodes: None,
            dd_peak_nodes: None,
            op_latency: latency.summary(),
            counters: self.counters,
        }
    }
}

/// Explores `model` breadth-first, storing states in `set`, its queue
/// holding references where `set` gives states back.
pub fn explore(model: &dyn Model, set: &mut dyn VisitedSet, cfg: ExploreConfig<'_>) -> RunReport {
    let by_reference = set.recalls_states();
    search(model, set, by_reference, cfg)
}

/// [`explore`] with the queue `queue` asks for; `Err` when it asks for
/// references of a set that cannot give states back.
pub fn explore_queued(
    model: &dyn Model,
    set: &mut dyn VisitedSet,
    queue: QueueMode,
    cfg: ExploreConfig<'_>,
) -> Result<RunReport, String> {
    let by_reference = queue.by_reference(set)?;
    Ok(search(model, set, by_reference, cfg))
}

/// The search of [`explore`], its queue holding references when
/// `by_reference` (which `set` must then support).
fn search(
    model: &dyn Model,
    set: &mut dyn VisitedSet,
    by_reference: bool,
    cfg: ExploreConfig<'_>,
) -> RunReport {
    let (mut progress, progress_every) = cfg.start(|| set.params());
    let start = Instant::now();
    let k = model.slot_count();
    let mut transitions = 0u64;
    let mut levels = 0u64;
    let mut domains = SlotDomains::new(k);
    let mut failure: Option<(RunStatus, String)> = None;
    let mut latency = LatencySampler::new();

    let init = model.initial_state();
    // Side data the engine keeps per queued state (tree indices): a
    // vector entry is the vector followed by it; a reference entry gives
    // both back.
    let side_words = set.side_words();
    let mut queue = OpenSet::new(k, side_words, by_reference);
    let mut side = vec![0u32; side_words];
    match set.find_or_insert_from(&init, None, &mut side) {
        Ok(r) => {
            domains.observe(&init);
            queue.push(&init, &side, r.reference());
        }
        Err(full) => failure = Some((RunStatus::TableFull, full.message)),
    }

    // Successors are generated first and then looked up, their buckets
    // prefetched, where the set can ([`VisitedSet::prefetch`]).
    let prefetching = side_words == 0 && set.prefetch(&init).is_some();
    let mut batch = SuccessorBatch::new(k);
    let mut current = Vec::with_capacity(k + side_words);
    // States remaining in the current BFS level.
    let mut level_left = queue.len();
    let mut expanded = 0u64;
    while failure.is_none() {
        match queue.pop_into(set, &mut current, side_words) {
            Ok(true) => {}
            Ok(false) => break,
            Err(message) => {
                failure = Some((RunStatus::ModelError, message));
                break;
            }
        }
        let (cur_state, cur_side) = current.split_at(k);
        let (result, insert_error) = if prefetching {
            batch.clear();
            let result = model.next_all(cur_state, &mut |_group, succ| {
                batch.push(succ, set.prefetch(succ));
            });
            transitions += batch.len() as u64;
            let mut store = |succ: &[Value], reference: u64| {
                domains.observe_successor(succ, cur_state);
                queue.push(succ, &[], reference);
            };
            let insert_error =
                insert_batch(set, &batch, &mut latency, &mut store).map_err(|(full, left)| {
                    // Successors after the one that did not fit were
                    // never looked at, as in the unbatched search.
                    transitions -= left as u64;
                    full.message
                });
            (result, insert_error.err())
        } else {
            let mut insert_error = None;
            let result = model.next_all(cur_state, &mut |_group, succ| {
                if insert_error.is_some() {
                    return;
                }
                transitions += 1;
                let mut insert = || {
                    if side_words == 0 {
                        set.find_or_insert(succ)
                    } else {
                        set.find_or_insert_from(succ, Some((cur_state, cur_side)), &mut side)
                    }
                };
                let inserted = if TIME_OPS {
                    latency.time(insert)
                } else {
                    insert()
                };
                match inserted {
                    Ok(r) if r.is_new() => {
                        domains.observe_successor(succ, cur_state);
                        queue.push(succ, &side, r.reference());
                    }
                    Ok(_) => {}
                    Err(full) => insert_error = Some(full.message),
                }
            });
            (result, insert_error)
        };
        if let Some(message) = insert_error {
            failure = Some((RunStatus::TableFull, message));
        } else if let Err(e) = result {
            failure = Some((RunStatus::ModelError, e.to_string()));
        }
        level_left -= 1;
        if level_left == 0 {
            levels += 1;
            level_left = queue.len();
        }
        expanded += 1;
        if expanded.is_multiple_of(progress_every) || queue.is_empty() || failure.is_some() {
            if let Some(cb) = progress.as_mut() {
                cb(&Progress {
                    states: set.len(),
                    transitions,
                    queued: queue.len() as u64,
                    levels,
                    engine_bytes_alloc: set.memory().alloc,
                });
            }
        }
    }
    Outcome {
        failure,
        states: set.len(),
        transitions,
        levels: Some(levels),
        memory: set.memory(),
        params: set.params(),
        counters: set.counters(),
    }
    .report(&domains, &latency, start)
}

/// Looks up the successors held in `batch` in order, handing each new one
/// with its reference to `store`; on a full table, the error and the
/// number of successors after the one that did not fit.
fn insert_batch(
    set: &mut dyn VisitedSet,
    batch: &SuccessorBatch,
    latency: &mut LatencySampler,
    store: &mut dyn FnMut(&[Value], u64),
) -> Result<(), (TableFull, usize)> {
    for i in 0..batch.len() {
        let (succ, hash) = batch.get(i);
        let mut insert = || match hash {
            Some(hash) => set.find_or_insert_hashed(succ, hash),
            None => set.find_or_insert(succ),
        };
        let inserted = if TIME_OPS {
            latency.time(insert)
        } else {
            insert()
        };
        match inserted {
            Ok(r) if r.is_new() => store(succ, r.reference()),
            Ok(_) => {}
            Err(full) => return Err((full, batch.len() - i - 1)),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schemes::hash_table::{HashTable, HashTableConfig};
    use crate::test_models::Counters;
    use crate::visited::Inserted;
    use pins::synthetic::SyntheticModel;

    #[test]
    fn counts_states_transitions_levels_and_width() {
        let model = Counters::new(3, 5);
        let mut set = HashTable::new(3, HashTableConfig::default()).unwrap();
        let mut calls = 0;
        let mut cb = |_: &Progress| calls += 1;
        let r = explore(
            &model,
            &mut set,
            ExploreConfig {
                progress: Some(&mut cb),
                progress_every: 10,
                configured: None,
            },
        );
        assert_eq!(r.status, RunStatus::Ok);
        assert_eq!(r.states, 125);
        assert_eq!(r.transitions, 375);
        assert_eq!(r.levels, Some(3 * 4 + 1));
        assert_eq!(r.max_slot_bits, 3); // largest value 4
        assert_eq!(calls, 125 / 10 + 1);
        let l = r.op_latency.expect("calls were timed");
        assert_eq!(
            l.samples,
            375u64.div_ceil(crate::explore::latency::SAMPLE_EVERY)
        );
        assert!(0 < l.p50_ns && l.p50_ns <= l.p99_ns && l.p99_ns <= l.p999_ns);
    }

    /// A hash table that does not offer [`VisitedSet::prefetch`], so the
    /// explorer inserts successors as they come.
    struct Unbatched(HashTable);

    impl VisitedSet for Unbatched {
        fn find_or_insert(&mut self, state: &[Value]) -> Result<Inserted, TableFull> {
            self.0.find_or_insert(state)
        }
        fn recalls_states(&self) -> bool {
            true
        }
        fn recall(&mut self, reference: u64, state: &mut [Value], side: &mut [u32]) -> bool {
            self.0.recall(reference, state, side)
        }
        fn len(&self) -> u64 {
            self.0.len()
        }
        fn memory(&self) -> MemoryUsage {
            self.0.memory()
        }
        fn params(&self) -> String {
            self.0.params()
        }
    }

    /// The batched search (successors prefetched, then looked up) stores
    /// the same states in the same order, and counts the same transitions
    /// and levels, as the search inserting successors as they come: to
    /// the end, on a model error, and on a full table.
    #[test]
    fn batched_lookups_search_like_inserting_as_successors_come() {
        let cases: [(SyntheticModel, u64, RunStatus); 3] = [
            (Counters::new(4, 6), 1 << 30, RunStatus::Ok),
            (
                Counters::failing_at(3, 6, Some(4)),
                1 << 30,
                RunStatus::ModelError,
            ),
            (
                Counters::new(4, 40),
                16 * 8 + 4 * 1024 * 1024,
                RunStatus::TableFull,
            ),
        ];
        for (model, budget, status) in cases {
            let mut batched = HashTable::small(model.slot_count(), budget);
            assert!(batched.prefetch(&model.initial_state()).is_some());
            let mut unbatched = Unbatched(HashTable::small(model.slot_count(), budget));
            let a = explore(&model, &mut batched, ExploreConfig::default());
            let b = explore(&model, &mut unbatched, ExploreConfig::default());
            assert_eq!(a.status, status);
            assert_eq!(
                (a.status, &a.message, a.states, a.transitions, a.levels),
                (b.status, &b.message, b.states, b.transitions, b.levels)
            );
            for i in 0..a.states {
                assert_eq!(batched.get(i), unbatched.0.get(i), "state {i}");
            }
        }
    }

    #[test]
    fn model_errors_stop_the_search_with_their_location() {
        let model = Counters::failing_at(2, 5, Some(3));
        let mut set = HashTable::new(2, HashTableConfig::default()).unwrap();
        let r = explore(&model, &mut set, ExploreConfig::default());
        assert_eq!(r.status, RunStatus::ModelError);
        assert_eq!(r.message, "inc: value out of range");
    }

    #[test]
    fn table_full_is_a_status() {
        let model = Counters::new(4, 40);
        let mut set = HashTable::small(4, 16 * 8 + 4 * 1024 * 1024);
        let r = explore(&model, &mut set, ExploreConfig::default());
        assert_eq!(r.status, RunStatus::TableFull);
        assert!(r.states > 0 && r.states < 40u64.pow(4));
    }
}
