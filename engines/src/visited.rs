//! The visited-set abstraction every explicit engine implements.
//!
//! Owns only the trait and its small result types; the storage schemes live
//! in their own modules and the search that drives them in `explore`.

use pins::Value;

/// Outcome of [`VisitedSet::find_or_insert`]: whether the state was new,
/// and the engine's reference for it (an index the engine can resolve).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Inserted {
    New(u64),
    Found(u64),
}

impl Inserted {
    pub fn is_new(self) -> bool {
        matches!(self, Inserted::New(_))
    }

    pub fn reference(self) -> u64 {
        match self {
            Inserted::New(r) | Inserted::Found(r) => r,
        }
    }
}

/// The engine cannot store one more state within its memory budget or its
/// addressing limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableFull {
    pub message: String,
}

impl TableFull {
    /// The table is full, for the reason `message` gives.
    pub fn new(message: String) -> Self {
        TableFull { message }
    }
}

/// Exact memory accounting of an engine, in bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemoryUsage {
    /// Bytes of occupied entries (the paper's compressed size).
    pub used: u64,
    /// Bytes the engine has allocated for its tables.
    pub alloc: u64,
}

/// A set of state vectors of fixed length `k`.
pub trait VisitedSet: Send {
    /// Inserts `state` if absent. `state.len()` must equal the `k` the set
    /// was created for.
    fn find_or_insert(&mut self, state: &[Value]) -> Result<Inserted, TableFull>;

    /// Words of side data the explorer keeps with every queued state and
    /// hands back when that state's successors are inserted (the tree
    /// database's node indices, for incremental insertion). 0: none.
    fn side_words(&self) -> usize {
        0
    }

    /// Inserts `state` knowing where it came from: `pred` is the
    /// predecessor's vector and side data (`None` for the initial state).
    /// Writes this state's side data into `side` (length
    /// [`side_words`](VisitedSet::side_words)), whether it was new or found.
    /// Engines without side data ignore `pred` and `side`.
    fn find_or_insert_from(
        &mut self,
        state: &[Value],
        pred: Option<(&[Value], &[u32])>,
        side: &mut [u32],
    ) -> Result<Inserted, TableFull> {
        let _ = (pred, side);
        self.find_or_insert(state)
    }

    /// Hashes `state` as [`find_or_insert_hashed`](VisitedSet::find_or_insert_hashed)
    /// takes it and asks the memory system for where the lookup will start,
    /// so that the lookups of a state's successors, made once all are
    /// generated, overlap their cache misses. `None` (the default): the set
    /// has no such lookup, and successors are inserted as they come.
    fn prefetch(&self, state: &[Value]) -> Option<u64> {
        let _ = state;
        None
    }

    /// [`find_or_insert`](VisitedSet::find_or_insert) of a `state` whose
    /// [`prefetch`](VisitedSet::prefetch) gave `hash`.
    fn find_or_insert_hashed(&mut self, state: &[Value], hash: u64) -> Result<Inserted, TableFull> {
        let _ = hash;
        self.find_or_insert(state)
    }

    /// Whether [`recall`](VisitedSet::recall) gives a stored state back
    /// from its reference (the explorer then queues references, not
    /// vectors).
    fn recalls_states(&self) -> bool {
        false
    }

    /// Writes the state stored under `reference` (returned by an insertion
    /// into this set) into `state` (length `k`) and its side data into
    /// `side` (length [`side_words`](VisitedSet::side_words)), as
    /// [`find_or_insert_from`](VisitedSet::find_or_insert_from) would.
    /// False when the set cannot (see
    /// [`recalls_states`](VisitedSet::recalls_states)).
    fn recall(&mut self, reference: u64, state: &mut [Value], side: &mut [u32]) -> bool {
        let _ = (reference, state, side);
        false
    }

    /// Number of distinct states stored.
    fn len(&self) -> u64;

    /// Whether no state is stored.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Current exact memory accounting.
    fn memory(&self) -> MemoryUsage;

    /// The effective parameters, defaults included, as `key=value` pairs
    /// joined by `;` (recorded in every CSV row so a run can be repeated).
    fn params(&self) -> String;

    /// Engine-specific counters worth reporting (name, value).
    fn counters(&self) -> Vec<(String, u64)> {
        Vec::new()
    }
}
