//! The multi-threaded explorer: the generic search of `explore` run by
//! several workers over one [`ConcurrentVisitedSet`].
//!
//! Owns the division of work, its termination, the stop-the-world growth
//! of the set, and the counting of states and transitions across threads.
//! Like `explore`, it must not know which storage scheme it drives.
//!
//! Work. States travel in **batches** of at most [`BATCH`] queue entries
//! (vector + side data), all of one search depth. Every worker has its own
//! FIFO deque of batches (crossbeam-deque): it expands the states of the
//! batch it holds, collects the new successors into an output batch that
//! it pushes onto its own deque when full and when the input batch is
//! done, and takes its next batch from its own deque, else steals one from
//! another worker's. So the order is breadth-first within a worker and
//! only approximately across workers; the set of states reached is the
//! same. The hot path takes no lock: insertions go to the concurrent set,
//! batches to the worker's own deque.
//!
//! Latency. Every worker times one `find_or_insert_from` call in 64 into
//! its own histogram (`latency.rs`, as the sequential explorer does); the
//! report has the percentiles of all workers' samples merged. A call that
//! answers "grow" is timed like any other (it is retried after growth).
//!
//! Termination. `pending` counts the batches that exist and are not fully
//! expanded (queued anywhere or held by a worker). A worker increments it
//! for every batch it publishes *before* it decrements it for the batch
//! whose expansion produced them, so `pending` reaches 0 only when no
//! batch exists anywhere and no worker holds one: then every reachable
//! state has been expanded, whatever the interleaving. Idle workers steal
//! until they see `pending == 0` (or a stop).
//!
//! Growth. Workers hold a read guard on the set while they expand a batch;
//! an insertion answering [`InsertError::Grow`] makes its worker drop the
//! guard, count itself in `grow_wanted` (while it is non-zero every worker
//! releases its guard after its current batch), take the write lock, call
//! `grow`, and retry.
//!
//! Figures. States = the set's count (exact once every worker retired its
//! [`WorkerLocal`], which it does when it stops); transitions = successors generated,
//! counted per successor as the sequential explorer does (exact, summed
//! over workers); counter `search_depth` = 1 + the largest depth at which
//! a state was inserted, which equals the BFS level count with one thread
//! and may exceed it with more (a state first reached along a longer
//! path), so `levels` is reported with one thread only. The
//! progress callback runs on the calling thread (worker 0) every
//! `progress_every` expanded states (over all workers) and once at the end.
//! A `table_full` or model error stops every worker after its current
//! state; the counts are then those reached so far.

use crate::concurrent::{ConcurrentVisitedSet, InsertError, WorkerLocal};
use crate::explore::latency::LatencySampler;
use crate::explore::slot_domains::SlotDomains;
use crate::explore::{ExploreConfig, Outcome, Progress};
use crate::report::{RunReport, RunStatus};
use crossbeam_deque::{Steal, Stealer, Worker};
use pins::{Model, Value};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, RwLock, RwLockReadGuard};
use std::time::Instant;

/// Queue entries per batch.
pub const BATCH: usize = 64;

/// States of one depth, back to back (`k + side_words` words each).
struct Batch {
    depth: u32,
    words: Vec<Value>,
}

type SetLock = RwLock<Box<dyn ConcurrentVisitedSet>>;

struct Shared<'a> {
    model: &'a dyn Model,
    set: SetLock,
    stealers: Vec<Stealer<Batch>>,
    k: usize,
    side_words: usize,
    pending: AtomicUsize,
    queued: AtomicU64,
    expanded: AtomicU64,
    transitions: AtomicU64,
    max_depth: AtomicU64,
    stop: AtomicBool,
    grow_wanted: AtomicUsize,
    failure: Mutex<Option<(RunStatus, String)>>,
}

impl Shared<'_> {
    fn read(&self) -> RwLockReadGuard<'_, Box<dyn ConcurrentVisitedSet>> {
        self.set.read().unwrap_or_else(|e| e.into_inner())
    }

    fn fail(&self, status: RunStatus, message: String) {
        let mut f = self.failure.lock().unwrap_or_else(|e| e.into_inner());
        if f.is_none() {
            *f = Some((status, message));
        }
        self.stop.store(true, Ordering::Release);
    }

    /// Grows the set with exclusive access.
    fn grow(&self) -> Result<(), String> {
        self.grow_wanted.fetch_add(1, Ordering::AcqRel);
        let mut set = self.set.write().unwrap_or_else(|e| e.into_inner());
        let r = set.grow();
        drop(set);
        self.grow_wanted.fetch_sub(1, Ordering::AcqRel);
        r.map_err(|full| full.message)
    }

    fn steal(&self, me: usize) -> Option<Batch> {
        let n = self.stealers.len();
        loop {
            let mut retry = false;
            for i in 1..n {
                match self.stealers[(me + i) % n].steal() {
                    Steal::Success(b) => return Some(b),
                    Steal::Retry => retry = true,
                    Steal::Empty => {}
                }
            }
            if !retry {
                return None;
            }
        }
    }
}

/// What a worker counted.
#[derive(Default)]
struct Tally {
    transitions: u64,
    domains: SlotDomains,
    /// This worker's sample of `find_or_insert_from` latencies.
    latency: LatencySampler,
}

/// Explores `model` with `threads` workers over `set`.
pub fn explore_parallel(
    model: &dyn Model,
    mut set: Box<dyn ConcurrentVisitedSet>,
    threads: usize,
    cfg: ExploreConfig<'_>,
) -> RunReport {
    let threads = threads.max(1);
    set.set_workers(threads);
    let start = Instant::now();
    let k = model.slot_count();
    let side_words = set.side_words();
    let workers: Vec<Worker<Batch>> = (0..threads).map(|_| Worker::new_fifo()).collect();
    let shared = Shared {
        model,
        set: RwLock::new(set),
        stealers: workers.iter().map(Worker::stealer).collect(),
        k,
        side_words,
        pending: AtomicUsize::new(0),
        queued: AtomicU64::new(0),
        expanded: AtomicU64::new(0),
        transitions: AtomicU64::new(0),
        max_depth: AtomicU64::new(0),
        stop: AtomicBool::new(false),
        grow_wanted: AtomicUsize::new(0),
        failure: Mutex::new(None),
    };

    let mut domains = SlotDomains::new(k);
    let init = model.initial_state();
    let mut side = vec![0u32; side_words];
    let mut local = WorkerLocal::new();
    loop {
        let r = shared
            .read()
            .find_or_insert_from(&init, None, &mut side, &mut local);
        match r {
            Ok(_) => {
                domains.observe(&init);
                let mut words = init.clone();
                words.extend_from_slice(&side);
                shared.pending.store(1, Ordering::Relaxed);
                shared.queued.store(1, Ordering::Relaxed);
                workers[0].push(Batch { depth: 0, words });
            }
            Err(InsertError::Grow) => match shared.grow() {
                Ok(()) => continue,
                Err(m) => shared.fail(RunStatus::TableFull, m),
            },
            Err(InsertError::Full(full)) => shared.fail(RunStatus::TableFull, full.message),
        }
        break;
    }
    shared.read().retire(&mut local);

    let (mut progress, progress_every) = cfg.start(|| shared.read().params());
    let mut workers = workers.into_iter();
    let first = workers.next().expect("one worker");
    let tallies: Vec<Tally> = std::thread::scope(|scope| {
        let handles: Vec<_> = workers
            .enumerate()
            .map(|(i, w)| {
                let shared = &shared;
                scope.spawn(move || work(shared, i + 1, w, &mut |_| {}, u64::MAX))
            })
            .collect();
        let mut report = |p: &Progress| {
            if let Some(cb) = progress.as_mut() {
                cb(p)
            }
        };
        let mut all = vec![work(&shared, 0, first, &mut report, progress_every)];
        for h in handles {
            match h.join() {
                Ok(t) => all.push(t),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        all
    });

    let set = shared.set.into_inner().unwrap_or_else(|e| e.into_inner());
    let transitions: u64 = tallies.iter().map(|t| t.transitions).sum();
    for t in &tallies {
        domains.merge(&t.domains);
    }
    let mut latency = LatencySampler::new();
    for t in &tallies {
        latency.merge(&t.latency);
    }
    let levels = if set.is_empty() {
        0
    } else {
        shared.max_depth.load(Ordering::Relaxed) + 1
    };
    let expanded = shared.expanded.load(Ordering::Relaxed);
    let memory = set.memory();
    if expanded > 0 {
        if let Some(cb) = progress.as_mut() {
            cb(&Progress {
                states: set.len(),
                transitions,
                queued: shared.queued.load(Ordering::Relaxed),
                levels,
                engine_bytes_alloc: memory.alloc,
            });
        }
    }
    let failure = shared
        .failure
        .into_inner()
        .unwrap_or_else(|e| e.into_inner());
    let mut counters = set.counters();
    counters.push(("threads".into(), threads as u64));
    counters.push(("search_depth".into(), levels));
    Outcome {
        failure,
        states: set.len(),
        transitions,
        // Exact BFS levels only with one worker; with more, a state may be
        // first reached along a longer path (`search_depth` has the figure).
        levels: (threads == 1).then_some(levels),
        memory,
        params: set.params(),
        counters,
    }
    .report(&domains, &latency, start)
}

/// One worker: expands batches until no work is left anywhere or the
/// search stops. `progress` is called every `every` expanded states.
fn work(
    shared: &Shared<'_>,
    me: usize,
    local: Worker<Batch>,
    progress: &mut dyn FnMut(&Progress),
    every: u64,
) -> Tally {
    let width = shared.k + shared.side_words;
    let mut tally = Tally {
        domains: SlotDomains::new(shared.k),
        ..Tally::default()
    };
    let mut side = vec![0u32; shared.side_words];
    let mut mine = WorkerLocal::new();
    let mut guard: Option<RwLockReadGuard<'_, Box<dyn ConcurrentVisitedSet>>> = None;
    let mut next_report = every;
    let mut idle_rounds = 0u32;
    while !shared.stop.load(Ordering::Acquire) {
        let Some(batch) = local.pop().or_else(|| shared.steal(me)) else {
            guard = None;
            if shared.pending.load(Ordering::Acquire) == 0 {
                break;
            }
            idle_rounds += 1;
            if idle_rounds < 64 {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
            continue;
        };
        idle_rounds = 0;
        if guard.is_none() {
            guard = Some(shared.read());
        }
        let depth = batch.depth;
        let mut out = Batch {
            depth: depth + 1,
            words: Vec::with_capacity(BATCH * width),
        };
        let mut error: Option<(RunStatus, String)> = None;
        let mut transitions = 0u64;
        let mut inserted_any = false;
        let entries = batch.words.len() / width.max(1);
        let states = if width == 0 { 1 } else { entries };
        for i in 0..states {
            let entry = &batch.words[i * width..(i + 1) * width];
            let (cur_state, cur_side) = entry.split_at(shared.k);
            let result = shared.model.next_all(cur_state, &mut |_group, succ| {
                if error.is_some() {
                    return;
                }
                transitions += 1;
                loop {
                    let set = guard.as_ref().expect("guard held while expanding");
                    let r = tally.latency.time(|| {
                        if shared.side_words == 0 {
                            set.find_or_insert_from(succ, None, &mut side, &mut mine)
                        } else {
                            set.find_or_insert_from(
                                succ,
                                Some((cur_state, cur_side)),
                                &mut side,
                                &mut mine,
                            )
                        }
                    });
                    match r {
                        Ok(r) => {
                            if r.is_new() {
                                inserted_any = true;
                                tally.domains.observe_successor(succ, cur_state);
                                out.words.extend_from_slice(succ);
                                out.words.extend_from_slice(&side);
                                if out.words.len() >= BATCH * width.max(1) {
                                    let full = std::mem::replace(
                                        &mut out,
                                        Batch {
                                            depth: depth + 1,
                                            words: Vec::with_capacity(BATCH * width),
                                        },
                                    );
                                    publish(shared, &local, full, width);
                                }
                            }
                        }
                        Err(InsertError::Grow) => {
                            guard = None;
                            if let Err(m) = shared.grow() {
                                error = Some((RunStatus::TableFull, m));
                            }
                            guard = Some(shared.read());
                            if error.is_none() {
                                continue;
                            }
                        }
                        Err(InsertError::Full(full)) => {
                            error = Some((RunStatus::TableFull, full.message));
                        }
                    }
                    break;
                }
            });
            if error.is_none() {
                if let Err(e) = result {
                    error = Some((RunStatus::ModelError, e.to_string()));
                }
            }
            if error.is_some() || shared.stop.load(Ordering::Relaxed) {
                break;
            }
        }
        tally.transitions += transitions;
        shared.transitions.fetch_add(transitions, Ordering::Relaxed);
        if inserted_any {
            shared
                .max_depth
                .fetch_max(depth as u64 + 1, Ordering::Relaxed);
        }
        if let Some((status, message)) = error {
            shared.fail(status, message);
        }
        if !out.words.is_empty() || (width == 0 && inserted_any) {
            publish(shared, &local, out, width);
        }
        shared.queued.fetch_sub(states as u64, Ordering::Relaxed);
        let done = shared.expanded.fetch_add(states as u64, Ordering::Relaxed) + states as u64;
        // After the batches it produced are counted.
        shared.pending.fetch_sub(1, Ordering::AcqRel);
        if shared.grow_wanted.load(Ordering::Acquire) > 0 {
            guard = None;
        }
        if done >= next_report {
            next_report = (done / every + 1).saturating_mul(every);
            if let Some(set) = guard.as_ref() {
                progress(&shared.progress(set.as_ref()));
            }
        }
    }
    // Leases back (the set's count is exact once every worker did this).
    match guard {
        Some(set) => set.retire(&mut mine),
        None => shared.read().retire(&mut mine),
    }
    tally
}

impl Shared<'_> {
    /// The search's figures so far, `set` being the visited set.
    fn progress(&self, set: &dyn ConcurrentVisitedSet) -> Progress {
        Progress {
            states: set.len(),
            transitions: self.transitions.load(Ordering::Relaxed),
            queued: self.queued.load(Ordering::Relaxed),
            levels: self.max_depth.load(Ordering::Relaxed) + 1,
            engine_bytes_alloc: set.memory().alloc,
        }
    }
}

/// Makes `batch` available to every worker (counted in `pending` first).
fn publish(shared: &Shared<'_>, local: &Worker<Batch>, batch: Batch, width: usize) {
    let n = batch.words.len().checked_div(width).unwrap_or(1);
    shared.pending.fetch_add(1, Ordering::AcqRel);
    shared.queued.fetch_add(n as u64, Ordering::Relaxed);
    local.push(batch);
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::blocks::budget::Budget;
    use crate::schemes::hash_table::concurrent::SharedHashTable;
    use crate::schemes::hash_table::HashTableConfig;
    use crate::test_models::Counters;

    fn table(k: usize, budget: u64) -> Box<dyn ConcurrentVisitedSet> {
        Box::new(
            SharedHashTable::new(
                k,
                HashTableConfig {
                    initial_buckets: 16,
                    max_load: 0.75,
                },
                Budget::new(budget),
            )
            .unwrap(),
        )
    }

    #[test]
    fn counts_are_exact_with_any_number_of_threads() {
        let model = Counters::new(4, 9); // 6561 states, growth from 2048 buckets
        for threads in [1, 2, 3, 8] {
            let mut calls = 0;
            let mut cb = |_: &Progress| calls += 1;
            let r = explore_parallel(
                &model,
                table(4, u64::MAX),
                threads,
                ExploreConfig {
                    progress: Some(&mut cb),
                    progress_every: 100,
                    configured: None,
                },
            );
            assert_eq!(r.status, RunStatus::Ok, "{}", r.message);
            assert_eq!(r.states, 9u64.pow(4), "{threads} threads");
            assert_eq!(r.transitions, 4 * 9u64.pow(4), "{threads} threads");
            assert_eq!(r.max_slot_bits, 4);
            let depth = r.counters.iter().find(|(k, _)| k == "search_depth");
            assert!(depth.unwrap().1 > 4 * 8, "at least the BFS levels");
            if threads == 1 {
                assert_eq!(r.levels, Some(4 * 8 + 1));
            } else {
                assert_eq!(r.levels, None);
            }
            assert!(calls >= 1);
        }
    }

    /// Many threads on a small model, many times: every insertion races.
    #[test]
    fn stress_racy_small_model_exact_every_time() {
        let model = Counters::new(3, 12);
        for rep in 0..50 {
            let r = explore_parallel(&model, table(3, u64::MAX), 8, ExploreConfig::default());
            assert_eq!(
                (r.status, r.states, r.transitions),
                (RunStatus::Ok, 1728, 3 * 1728),
                "repetition {rep}"
            );
        }
    }

    #[test]
    fn model_errors_and_table_full_stop_every_worker() {
        let model = Counters::failing_at(2, 5, Some(3));
        let r = explore_parallel(&model, table(2, u64::MAX), 2, ExploreConfig::default());
        assert_eq!(r.status, RunStatus::ModelError);
        assert_eq!(r.message, "inc: value out of range");

        let model = Counters::new(4, 40);
        let r = explore_parallel(
            &model,
            table(4, 2048 * 8 + (8 << 20)),
            2,
            ExploreConfig::default(),
        );
        assert_eq!(r.status, RunStatus::TableFull, "{}", r.message);
        assert!(r.states > 0 && r.states < 40u64.pow(4));
    }
}
