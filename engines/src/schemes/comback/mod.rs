//! `comback-ddd`: the ComBack method (Westergaard, Evangelista, Kristensen)
//! with delayed duplicate detection (Evangelista, Westergaard, Kristensen,
//! "The ComBack method revisited", Algorithm 4).
//!
//! A stored state is only a hash *signature* (in the [`state_table`]) and a
//! *back-edge* (in [`back_edges`]): the id of the predecessor it was first
//! reached from and the *event* (transition group, successor index) that
//! leads from that predecessor to it. Any stored state can be rebuilt by
//! replaying events from the initial state through [`pins::Model::next`].
//!
//! Inserting a successor answers NEW when no stored state has its
//! signature (it is stored at once) and MAYBE otherwise. A MAYBE state is
//! either resolved at once (`delayed=false`, the basic ComBack method:
//! every stored state with the same signature is rebuilt by backtracking,
//! in id order, until one equals it), or put in the [`candidates`] set
//! (`delayed=true`, the default). Duplicate detection ([`traversal`]) runs
//! when the candidate set is full or the queue is empty:
//! every stored state sharing a signature with a candidate gets its check
//! bit set, and so do its ancestors; a depth-first traversal from the
//! initial state along the back-edge tree's successor lists (only into
//! checked children) rebuilds them all, each event executed once for the
//! whole group; a candidate equal to a rebuilt state is a duplicate, the
//! others are new and stored.
//!
//! The search ([`search`]) follows Algorithm 4 by default: one FIFO queue
//! holds every open state; a NEW state joins it at once, a MAYBE state
//! waits in the candidate set, and the candidates found new by a duplicate
//! detection join it then. Duplicate detection runs only when the set is
//! full or the whole queue is empty, so a deep model costs a few
//! traversals, not one per level. The order is then not breadth-first by
//! levels (a delayed state is expanded after states of deeper levels), so
//! the engine reports no level count (`levels` is empty in the CSV); the
//! number of duplicate detections is the `candidate_flushes` counter. Since
//! states are queued in the order they are stored, the queue is always the
//! id range from the next state to expand up to the last stored state.
//!
//! `level_sync=true` is the level-synchronous variant: the queue is the
//! current BFS level, and the candidates are also resolved at the end of
//! every level, so every state of level `d + 1` is stored while level `d`
//! is expanded: ids are assigned level by level, levels are exact (the
//! same `levels` as the generic explorer) and back-edge paths are shortest
//! paths, at the price of one traversal per level with a MAYBE answer.
//!
//! Variants (engine parameters):
//! - `candidates` (10⁴): capacity of the candidate set (distinct vectors);
//! - `delayed` (true): false = the basic ComBack method;
//! - `cache` (0 = off): a cache of the full vectors of the `cache` most
//!   recently stored states (a ring indexed by id); backtracking and the
//!   traversal start from a cached state instead of the initial state, and
//!   a cached target is not rebuilt at all;
//! - `id_queue` (false): the queue holds ids instead of full vectors. Since
//!   queued ids are consecutive, the queue is an id range (no memory at
//!   all); its states are rebuilt `batch` at a time by one grouped
//!   traversal (the same as duplicate detection's);
//! - `batch` (10⁴): states rebuilt per grouped reconstruction (`id_queue`);
//! - `signature_bits` (32, 1..=32): width of the hash signature, its real
//!   width in the packed state table: fewer bits save memory and make
//!   collisions (and reconstructions) more frequent;
//! - `level_sync` (false): level by level (see above).
//!
//! Counters (the `counters` CSV column):
//! - `maybe`: MAYBE answers (successors whose signature was stored);
//! - `reconstructions`: stored states rebuilt to be compared with a MAYBE
//!   state (basic: one per backtrack; delayed: one per signature mate
//!   reached by a traversal, each once per flush), cached ones included;
//! - `queue_reconstructions`: queued states rebuilt for expansion
//!   (`id_queue`);
//! - `events_reexecuted`: events replayed through the model (each a call
//!   of `Model::next`), by backtracks and traversals;
//! - `cache_hits`: vectors taken from the cache instead of being rebuilt
//!   (as a target, or as the start of a replay);
//! - `candidate_flushes`: duplicate detections run (traversals for the
//!   candidate set), `candidate_duplicates`: candidates found stored,
//!   `candidate_new`: candidates found new;
//! - `basic_reconstructions`: the reconstructions the basic method would
//!   make for the same MAYBE answers against the same stored states: for
//!   each MAYBE answer, the stored states with its signature in id order up
//!   to and including the first equal one (all of them when none is); a
//!   state that an earlier MAYBE answer of the same flush found new counts
//!   as stored (the basic method would have stored it at once, after every
//!   older state, in the order the candidates first arrived). Computed
//!   exactly at each flush; equals `reconstructions` with `delayed=false`;
//! - `reconstructions_saved`: `basic_reconstructions − reconstructions`
//!   (0 when the delay did not save any: with frequent collisions the
//!   traversal rebuilds every signature mate where the basic method may
//!   stop at the first);
//! - `queue_peak_bytes`: the largest size of the open set (full vectors, or
//!   with `id_queue` the batch of rebuilt states), which is not part of the
//!   engine bytes (as for the generic explorer's queue).
//!
//! Memory accounting (`engine_bytes_used` / `engine_bytes_alloc`): every
//! allocation of the state table, back-edge table, candidate set, cache and
//! traversal stacks is reserved in the engine's [`Budget`] first (a table
//! that cannot grow ends the run as `table_full`). The two tables are
//! packed at their real bit widths ([`packed`]). `used` counts, per stored
//! state, its state-table pair (`signature_bits + b` bits, 2^b buckets, at
//! most 3/4 full), its back-edge record (predecessor, first child and next
//! sibling in `⌈log2(n + 1)⌉` bits each for `n` states, the event in the
//! bits of the largest event: group bits plus successor-index bits) and its
//! check bit, each array rounded up to whole bytes once; plus the occupied
//! parts of the candidate set (`4k + 24` bytes per entry + its 4-byte index
//! bucket), of the cache (`4k` bytes per cached state) and of the traversal
//! stacks. So for 10⁶ states, 32-bit signatures and 8-bit events, a state
//! takes 32 + 21 + 3 × 20 + 8 + 1 = 122 bits (98 with 8-bit signatures).
//! `alloc` is the capacity of all of them (the state table's empty buckets
//! included).
//!
//! This module owns the engine; it knows models only through
//! [`pins::Model`] and must not know formalisms, the harness or CSV.

pub mod back_edges;
pub mod cache;
pub mod candidates;
pub mod packed;
pub mod search;
mod spec;
pub mod state_table;
pub mod traversal;

#[cfg(test)]
mod tests;

pub use search::explore;
pub use spec::SPEC;

use crate::blocks::budget::Budget;
use crate::visited::TableFull;

/// Parameters of the engine (see the module documentation).
#[derive(Clone, Debug, PartialEq)]
pub struct ComBackConfig {
    pub candidates: usize,
    pub delayed: bool,
    pub cache: usize,
    pub id_queue: bool,
    pub batch: usize,
    pub signature_bits: u32,
    pub level_sync: bool,
}

impl Default for ComBackConfig {
    fn default() -> Self {
        ComBackConfig {
            candidates: spec::CANDIDATES.default.0,
            delayed: spec::DELAYED.default,
            cache: spec::CACHE.default.0,
            id_queue: spec::ID_QUEUE.default,
            batch: spec::BATCH.default.0,
            signature_bits: spec::SIGNATURE_BITS.default,
            level_sync: spec::LEVEL_SYNC.default,
        }
    }
}

impl ComBackConfig {
    /// Checks the ranges of the parameters.
    pub fn check(&self) -> Result<(), String> {
        if self.candidates == 0 {
            return Err("candidates=0: must be at least 1".into());
        }
        if self.batch == 0 {
            return Err("batch=0: must be at least 1".into());
        }
        if !(1..=32).contains(&self.signature_bits) {
            return Err(format!(
                "signature_bits={}: must be in 1..=32",
                self.signature_bits
            ));
        }
        Ok(())
    }

    /// `key=value;...` with every parameter.
    pub fn params(&self) -> String {
        format!(
            "candidates={};delayed={};cache={};id_queue={};batch={};signature_bits={};level_sync={}",
            self.candidates,
            self.delayed,
            self.cache,
            self.id_queue,
            self.batch,
            self.signature_bits,
            self.level_sync
        )
    }
}

/// Grows `v` so that it can hold `additional` more elements, doubling its
/// capacity, after reserving the extra bytes in `budget`. `who` names the
/// table in the `table_full` message.
pub(crate) fn grow_for<T>(
    v: &mut Vec<T>,
    additional: usize,
    budget: &Budget,
    who: &str,
) -> Result<(), TableFull> {
    let needed = v.len() + additional;
    if needed <= v.capacity() {
        return Ok(());
    }
    let target = needed.max(v.capacity() * 2).max(16);
    let size = std::mem::size_of::<T>() as u64;
    let before = v.capacity() as u64;
    budget.reserve((target as u64 - before) * size, who)?;
    v.reserve_exact(target - v.len());
    // The allocator may round up; account for what it really gave.
    let extra = v.capacity() as u64 - target as u64;
    if extra > 0 {
        budget.reserve(extra * size, who)?;
    }
    Ok(())
}

/// Bytes of `v`'s allocation.
pub(crate) fn capacity_bytes<T>(v: &Vec<T>) -> u64 {
    v.capacity() as u64 * std::mem::size_of::<T>() as u64
}

/// Why a search stopped early.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    TableFull(String),
    ModelError(String),
}

impl From<TableFull> for Stop {
    fn from(full: TableFull) -> Self {
        Stop::TableFull(full.message)
    }
}
