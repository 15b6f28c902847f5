//! The ComBack search driver: Algorithm 4's single FIFO queue (or, with
//! `level_sync`, level-synchronous breadth-first search) with
//! NEW / MAYBE insertion, the basic method's backtracking or the delayed
//! duplicate detection of Algorithm 4, and the queue of full vectors or of
//! ids. Counts states and transitions exactly as the generic explorer does
//! (one transition per successor the model emits), and reports progress
//! the same way.
//!
//! Owns the search order and the counters; the tables, the candidate set,
//! the cache and reconstruction are in their own modules. It must not know
//! formalisms, CSV or the harness.

use super::back_edges::{BackEdges, NONE};
use super::cache::Cache;
use super::candidates::Candidates;
use super::state_table::StateTable;
use super::traversal::Reconstructor;
use super::{capacity_bytes, grow_for, ComBackConfig, Stop};
use crate::blocks::budget::Budget;
use crate::explore::slot_domains::SlotDomains;
use crate::explore::state_queue::StateQueue;
use crate::explore::{ExploreConfig, Progress};
use crate::report::{RunReport, RunStatus};
use pins::{Model, Value};
use std::time::Instant;

const WHO: &str = "comback search";

/// Counters of one search (see the module documentation of `comback`).
#[derive(Clone, Debug, Default)]
struct Counters {
    maybe: u64,
    reconstructions: u64,
    queue_reconstructions: u64,
    flushes: u64,
    candidate_duplicates: u64,
    candidate_new: u64,
    basic_reconstructions: u64,
    queue_peak_bytes: u64,
}

struct Search<'m> {
    model: &'m dyn Model,
    k: usize,
    config: ComBackConfig,
    budget: Budget,
    table: StateTable,
    edges: BackEdges,
    candidates: Candidates,
    cache: Cache,
    rec: Reconstructor<'m>,
    /// The current and next BFS levels as (id, vector) entries (full
    /// vector queue only).
    current: StateQueue,
    next: StateQueue,
    /// The states of the current batch, (id, vector) entries (`id_queue`).
    batch: Vec<Value>,
    /// Successors of the state being expanded, and their events.
    succ: Vec<Value>,
    succ_events: Vec<u32>,
    /// Scratch: signature mates, targets of a traversal, rebuilt vectors,
    /// (signature, entry) pairs.
    mates: Vec<u32>,
    targets: Vec<u32>,
    rebuilt: Vec<Value>,
    pairs: Vec<(u32, u32)>,
    transitions: u64,
    levels: u64,
    domains: SlotDomains,
    counters: Counters,
}

/// Explores `model` with the ComBack method; every allocation of the
/// engine is reserved in `budget`.
pub fn explore(
    model: &dyn Model,
    config: &ComBackConfig,
    budget: Budget,
    cfg: ExploreConfig<'_>,
) -> RunReport {
    let start = Instant::now();
    let mut search = match Search::new(model, config, budget) {
        Ok(s) => s,
        Err(stop) => {
            return report_of_failure(config, stop, start);
        }
    };
    let result = search.run(cfg);
    search.report(result, start)
}

fn report_of_failure(config: &ComBackConfig, stop: Stop, start: Instant) -> RunReport {
    let (status, message) = status_of(stop);
    RunReport {
        levels: config.level_sync.then_some(0),
        explore_time_s: start.elapsed().as_secs_f64(),
        engine_params: config.params(),
        ..RunReport::failed(status, message)
    }
}

fn status_of(stop: Stop) -> (RunStatus, String) {
    match stop {
        Stop::TableFull(m) => (RunStatus::TableFull, m),
        Stop::ModelError(m) => (RunStatus::ModelError, m),
    }
}

/// Bits needed for a group index below `groups`.
fn group_bits(groups: usize) -> u32 {
    if groups <= 1 {
        0
    } else {
        usize::BITS - (groups - 1).leading_zeros()
    }
}

impl<'m> Search<'m> {
    fn new(model: &'m dyn Model, config: &ComBackConfig, budget: Budget) -> Result<Self, Stop> {
        let k = model.slot_count();
        let groups = model.groups().len();
        if groups > 1 << 31 {
            return Err(Stop::TableFull(format!(
                "comback: {groups} transition groups do not fit in an event"
            )));
        }
        Ok(Search {
            model,
            k,
            config: config.clone(),
            table: StateTable::new(config.signature_bits, budget.clone())?,
            edges: BackEdges::new(budget.clone()),
            candidates: Candidates::new(k, config.candidates, budget.clone())?,
            cache: Cache::new(k, config.cache, &budget)?,
            rec: Reconstructor::new(model, group_bits(groups), budget.clone()),
            budget,
            current: StateQueue::new(k + 1),
            next: StateQueue::new(k + 1),
            batch: Vec::new(),
            succ: Vec::new(),
            succ_events: Vec::new(),
            mates: Vec::new(),
            targets: Vec::new(),
            rebuilt: Vec::new(),
            pairs: Vec::new(),
            transitions: 0,
            levels: 0,
            domains: SlotDomains::new(k),
            counters: Counters::default(),
        })
    }

    /// Stores a state known to be new; queues it for the next level.
    fn store(
        &mut self,
        v: &[Value],
        signature: u32,
        pred: Option<u32>,
        event: u32,
    ) -> Result<u32, Stop> {
        let id = self.edges.push(pred, event)?;
        self.table.insert(signature, id)?;
        self.cache.store(id, v);
        self.domains.observe(v);
        if !self.config.id_queue {
            self.next.push_parts(&[id], v);
        }
        Ok(id)
    }

    fn run(&mut self, cfg: ExploreConfig<'_>) -> Result<(), Stop> {
        let (mut progress, every) = cfg.start(|| self.config.params());
        let mut expanded = 0u64;
        let init = self.model.initial_state();
        let signature = self.table.signature(&init);
        self.store(&init, signature, None, 0)?;
        let mut report_progress = |s: &Self, expanded: u64, queued: u64, last: bool| {
            if expanded > 0 && (expanded.is_multiple_of(every) || last) {
                if let Some(cb) = progress.as_mut() {
                    cb(&Progress {
                        states: s.edges.len() as u64,
                        transitions: s.transitions,
                        queued,
                        levels: s.levels,
                        engine_bytes_alloc: s.alloc_bytes(),
                    });
                }
            }
        };
        let mut entry = Vec::with_capacity(self.k + 1);
        let level_sync = self.config.level_sync;
        // With `id_queue`, ids are assigned in the order states are
        // queued, so the queue is the id range [front, stored states);
        // `end` is where the current level ends (`level_sync`).
        let mut front = 0u32;
        let mut end = 1u32;
        // The full-vector queue is `current` followed by `next`: stored
        // states join `next`; `current` is the level being expanded.
        std::mem::swap(&mut self.current, &mut self.next);
        let result = (|| -> Result<(), Stop> {
            loop {
                if self.config.id_queue {
                    loop {
                        let hi = if level_sync {
                            end
                        } else {
                            self.edges.len() as u32
                        };
                        if front >= hi {
                            break;
                        }
                        let b = hi.min(front.saturating_add(self.config.batch as u32));
                        self.rebuild(front, b)?;
                        let batch = std::mem::take(&mut self.batch);
                        let mut outcome = Ok(());
                        for e in batch.chunks_exact(self.k + 1) {
                            outcome = self.expand(e[0], &e[1..]);
                            if outcome.is_err() {
                                break;
                            }
                            expanded += 1;
                            let queued = self.edges.len() as u64 - e[0] as u64 - 1;
                            report_progress(self, expanded, queued, false);
                        }
                        self.batch = batch;
                        outcome?;
                        front = b;
                    }
                } else {
                    loop {
                        if !self.current.pop_into(&mut entry) {
                            if level_sync || self.next.is_empty() {
                                break;
                            }
                            std::mem::swap(&mut self.current, &mut self.next);
                            continue;
                        }
                        self.expand(entry[0], &entry[1..])?;
                        expanded += 1;
                        let queued = (self.current.len() + self.next.len()) as u64;
                        report_progress(self, expanded, queued, false);
                    }
                }
                // The queue (level-synchronous: the current level) is
                // empty: resolve the candidates; the new ones are queued.
                self.flush()?;
                if level_sync {
                    self.levels += 1;
                }
                let stored = self.edges.len() as u32;
                let queue_empty = if self.config.id_queue {
                    front == stored
                } else {
                    self.next.is_empty()
                };
                if queue_empty {
                    return Ok(());
                }
                end = stored;
                std::mem::swap(&mut self.current, &mut self.next);
            }
        })();
        report_progress(self, expanded.max(1), 0, true);
        result
    }

    /// Expands state `id` with vector `v`: every successor is inserted.
    fn expand(&mut self, id: u32, v: &[Value]) -> Result<(), Stop> {
        self.succ.clear();
        self.succ_events.clear();
        let mut last_group = usize::MAX;
        let mut index = 0u32;
        let mut overflow = None;
        let (succ, events, rec) = (&mut self.succ, &mut self.succ_events, &self.rec);
        let result = self.model.next_all(v, &mut |group, s| {
            if group == last_group {
                index += 1;
            } else {
                last_group = group;
                index = 0;
            }
            match rec.encode(group, index) {
                Some(e) => {
                    succ.extend_from_slice(s);
                    events.push(e);
                }
                None => overflow = Some((group, index)),
            }
        });
        self.transitions += self.succ_events.len() as u64;
        if let Some((group, index)) = overflow {
            return Err(Stop::TableFull(format!(
                "comback: successor {index} of group {group} does not fit in a 32-bit event"
            )));
        }
        self.note_queue_bytes();
        let succ = std::mem::take(&mut self.succ);
        let events = std::mem::take(&mut self.succ_events);
        let mut outcome = Ok(());
        for (i, &e) in events.iter().enumerate() {
            let s = &succ[i * self.k..(i + 1) * self.k];
            if let Err(err) = self.insert(s, id, e) {
                outcome = Err(err);
                break;
            }
        }
        self.succ = succ;
        self.succ_events = events;
        outcome?;
        result.map_err(|e| Stop::ModelError(e.to_string()))
    }

    fn note_queue_bytes(&mut self) {
        let bytes = if self.config.id_queue {
            capacity_bytes(&self.batch)
        } else {
            self.current.bytes() + self.next.bytes()
        };
        self.counters.queue_peak_bytes = self.counters.queue_peak_bytes.max(bytes);
    }

    /// Inserts the successor `s` of `pred` by `event`: NEW states are
    /// stored at once, MAYBE states resolved now (basic) or delayed.
    fn insert(&mut self, s: &[Value], pred: u32, event: u32) -> Result<(), Stop> {
        let signature = self.table.signature(s);
        if !self.table.contains(signature) {
            self.store(s, signature, Some(pred), event)?;
            return Ok(());
        }
        self.counters.maybe += 1;
        if self.config.delayed {
            self.candidates.insert(s, signature, pred, event)?;
            if self.candidates.is_full() {
                self.flush()?;
            }
            return Ok(());
        }
        // The basic method: rebuild the signature mates in id order until
        // one equals `s`.
        let mut mates = std::mem::take(&mut self.mates);
        self.table.mates(signature, &mut mates);
        let mut found = false;
        let mut outcome = Ok(());
        for &id in &mates {
            self.counters.reconstructions += 1;
            self.counters.basic_reconstructions += 1;
            if let Err(e) = self
                .rec
                .backtrack(&self.edges, &self.cache, id, &mut self.rebuilt)
            {
                outcome = Err(e);
                break;
            }
            if self.rebuilt == s {
                found = true;
                break;
            }
        }
        self.mates = mates;
        outcome?;
        if !found {
            self.store(s, signature, Some(pred), event)?;
        }
        Ok(())
    }

    /// Duplicate detection: rebuilds every stored state sharing a signature
    /// with a candidate in one traversal, drops the candidates found
    /// stored, stores the others (in arrival order).
    fn flush(&mut self) -> Result<(), Stop> {
        if self.candidates.is_empty() {
            return Ok(());
        }
        self.counters.flushes += 1;
        // Targets: every signature mate of every candidate.
        let mut targets = std::mem::take(&mut self.targets);
        let mut mates = std::mem::take(&mut self.mates);
        targets.clear();
        for e in 0..self.candidates.len() {
            self.table
                .mates(self.candidates.get(e).signature, &mut mates);
            grow_for(&mut targets, mates.len(), &self.budget, WHO)?;
            targets.extend_from_slice(&mates);
        }
        targets.sort_unstable();
        targets.dedup();
        for &t in &targets {
            self.rec.mark(&mut self.edges, &self.cache, t)?;
        }
        let (candidates, counters) = (&mut self.candidates, &mut self.counters);
        let traversal = self
            .rec
            .traverse(&mut self.edges, &self.cache, &mut |id, v| {
                if targets.binary_search(&id).is_ok() {
                    counters.reconstructions += 1;
                    if let Some(e) = candidates.find(v) {
                        candidates.set_matched(e, id);
                    }
                }
            });
        self.targets = targets;
        traversal?;

        // What the basic method would have rebuilt for the same answers.
        let mut pairs = std::mem::take(&mut self.pairs);
        pairs.clear();
        for e in 0..self.candidates.len() {
            let c = *self.candidates.get(e);
            self.table.mates(c.signature, &mut mates);
            let stored = mates.len() as u64;
            if c.matched != NONE {
                let position = mates.partition_point(|&m| m < c.matched) as u64 + 1;
                self.counters.basic_reconstructions += c.answers * position;
                self.counters.candidate_duplicates += 1;
            } else {
                grow_for(&mut pairs, 1, &self.budget, WHO)?;
                pairs.push((c.signature, e as u32));
                // Rank among the new candidates of the same signature:
                // added below, once they are sorted.
                self.counters.basic_reconstructions += stored + (c.answers - 1) * (stored + 1);
            }
        }
        self.mates = mates;
        pairs.sort_unstable();
        for (i, &(signature, e)) in pairs.iter().enumerate() {
            // Earlier new candidates with this signature (arrival order =
            // entry order): the basic method would have stored them first.
            let rank = pairs[..i]
                .iter()
                .rev()
                .take_while(|p| p.0 == signature)
                .count() as u64;
            let answers = self.candidates.get(e as usize).answers;
            self.counters.basic_reconstructions += rank * answers;
        }
        self.pairs = pairs;

        // Store the new candidates in arrival order.
        let mut v = Vec::with_capacity(self.k);
        for e in 0..self.candidates.len() {
            let c = *self.candidates.get(e);
            if c.matched == NONE {
                v.clear();
                v.extend_from_slice(self.candidates.vector(e));
                self.store(&v, c.signature, Some(c.pred), c.event)?;
                self.counters.candidate_new += 1;
            }
        }
        self.candidates.clear();
        Ok(())
    }

    /// Rebuilds the states with ids in `[a, b)` into the batch (one grouped
    /// traversal). The batch is the queue: not part of the engine bytes.
    fn rebuild(&mut self, a: u32, b: u32) -> Result<(), Stop> {
        for id in a..b {
            self.rec.mark(&mut self.edges, &self.cache, id)?;
        }
        let mut batch = std::mem::take(&mut self.batch);
        batch.clear();
        let counters = &mut self.counters;
        let traversal = self
            .rec
            .traverse(&mut self.edges, &self.cache, &mut |id, v| {
                if (a..b).contains(&id) {
                    counters.queue_reconstructions += 1;
                    batch.push(id);
                    batch.extend_from_slice(v);
                }
            });
        self.batch = batch;
        self.note_queue_bytes();
        traversal
    }

    fn used_bytes(&self) -> u64 {
        self.table.used_bytes()
            + self.edges.used_bytes()
            + self.candidates.used_bytes()
            + self.cache.used_bytes()
    }

    fn alloc_bytes(&self) -> u64 {
        self.table.alloc_bytes()
            + self.edges.alloc_bytes()
            + self.candidates.alloc_bytes()
            + self.cache.alloc_bytes()
            + self.rec.alloc_bytes()
            + capacity_bytes(&self.mates)
            + capacity_bytes(&self.targets)
            + capacity_bytes(&self.pairs)
            + capacity_bytes(&self.rebuilt)
    }

    fn report(&self, result: Result<(), Stop>, start: Instant) -> RunReport {
        let (status, message) = match result {
            Ok(()) => (RunStatus::Ok, String::new()),
            Err(stop) => status_of(stop),
        };
        let c = &self.counters;
        let counters = [
            ("maybe", c.maybe),
            ("reconstructions", c.reconstructions),
            ("queue_reconstructions", c.queue_reconstructions),
            ("events_reexecuted", self.rec.events),
            ("cache_hits", self.rec.cache_hits),
            ("candidate_flushes", c.flushes),
            ("candidate_duplicates", c.candidate_duplicates),
            ("candidate_new", c.candidate_new),
            ("basic_reconstructions", c.basic_reconstructions),
            (
                "reconstructions_saved",
                c.basic_reconstructions.saturating_sub(c.reconstructions),
            ),
            ("queue_peak_bytes", c.queue_peak_bytes),
        ];
        RunReport {
            status,
            message,
            states: self.edges.len() as u64,
            transitions: self.transitions,
            levels: self.config.level_sync.then_some(self.levels),
            engine_bytes_used: self.used_bytes(),
            engine_bytes_alloc: self.alloc_bytes(),
            max_slot_bits: self.domains.max_slot_bits(),
            universe_log2: self.domains.universe_log2(),
            explore_time_s: start.elapsed().as_secs_f64(),
            engine_params: self.config.params(),
            dd_final_nodes: None,
            dd_peak_nodes: None,
            op_latency: None,
            counters: counters.iter().map(|(n, v)| (n.to_string(), *v)).collect(),
        }
    }
}
