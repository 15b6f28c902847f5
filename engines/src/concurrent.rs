//! The visited-set abstraction of the multi-threaded explorer: a set that
//! many threads query and extend at once through a shared reference.
//!
//! Owns only the trait and its error type; the concurrent sets live in
//! their schemes' folders (`schemes/<scheme>/concurrent.rs`: the lock-free
//! hash table of `hash-table`, the tree and COLLAPSE over such tables, the
//! Cleary root table with region locks of `compact-tree`, the PTrie in
//! independently locked sub-tries) and the search that drives them in
//! `explore::parallel`. It must not
//! know models or the search order.
//!
//! Growth protocol. Insertions take `&self` and never block on a global
//! lock; a table that wants to grow (its load passed its threshold)
//! answers [`InsertError::Grow`] instead of inserting. The explorer then
//! stops the world: it takes the set exclusively (every other worker
//! finishes its current batch and waits), calls
//! [`grow`](ConcurrentVisitedSet::grow), and retries the insertion. `grow`
//! must be idempotent (another worker may have grown the table in between:
//! it then does nothing).

use crate::blocks::lease::Lease;
use crate::visited::{Inserted, MemoryUsage, TableFull};
use pins::Value;

/// What one worker keeps between its insertions into one set: free scratch
/// words and its leases (`lease`), one per table of the set, numbered by
/// the set. It serves one set: [`ConcurrentVisitedSet::retire`] it into
/// that set when the worker is done (and before it serves another).
#[derive(Debug, Default)]
pub struct WorkerLocal {
    /// Words the set may use freely between calls.
    pub scratch: Vec<u32>,
    leases: Vec<Lease>,
}

impl WorkerLocal {
    /// An empty worker state.
    pub fn new() -> Self {
        Self::default()
    }

    /// The worker's leases for tables `0..n` of its set.
    #[inline]
    pub fn leases(&mut self, n: usize) -> &mut [Lease] {
        if self.leases.len() < n {
            self.leases.resize(n, Lease::new());
        }
        &mut self.leases[..n]
    }

    /// The scratch words and the leases of tables `0..n`, both at once.
    #[inline]
    pub fn split(&mut self, n: usize) -> (&mut Vec<u32>, &mut [Lease]) {
        if self.leases.len() < n {
            self.leases.resize(n, Lease::new());
        }
        (&mut self.scratch, &mut self.leases[..n])
    }
}

/// Why a concurrent insertion did not complete.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InsertError {
    /// No room within the budget or the addressing limits: the search stops.
    Full(TableFull),
    /// The table wants to grow before inserting: call `grow` with exclusive
    /// access and retry.
    Grow,
}

impl From<TableFull> for InsertError {
    fn from(full: TableFull) -> Self {
        InsertError::Full(full)
    }
}

/// A set of state vectors of fixed length `k` shared by many threads.
pub trait ConcurrentVisitedSet: Send + Sync {
    /// Words of side data kept with every queued state (as
    /// [`crate::VisitedSet::side_words`]).
    fn side_words(&self) -> usize {
        0
    }

    /// Inserts `state` if absent; `local` is the calling worker's own
    /// state (scratch words, leases). Exactly one of any number of
    /// concurrent insertions of the same absent vector answers `New`. The
    /// indices answered are unique but need not be dense.
    fn find_or_insert(
        &self,
        state: &[Value],
        local: &mut WorkerLocal,
    ) -> Result<Inserted, InsertError>;

    /// Inserts `state` if absent, as [`find_or_insert`](Self::find_or_insert),
    /// knowing its predecessor and filling its side data (as
    /// [`crate::VisitedSet::find_or_insert_from`]). Sets without side data
    /// ignore `pred` and `side`.
    #[inline]
    fn find_or_insert_from(
        &self,
        state: &[Value],
        pred: Option<(&[Value], &[u32])>,
        side: &mut [u32],
        local: &mut WorkerLocal,
    ) -> Result<Inserted, InsertError> {
        let _ = (pred, side);
        self.find_or_insert(state, local)
    }

    /// Returns what the worker's `local` still holds of this set (unused
    /// leased numbers, tallies). Every worker calls it once it stops
    /// inserting; [`len`](Self::len) and [`memory`](Self::memory) are exact
    /// once every worker did.
    fn retire(&self, _local: &mut WorkerLocal) {}

    /// Number of distinct states stored (exact once no insertion runs and
    /// every worker retired).
    fn len(&self) -> u64;

    /// Whether no state is stored.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Current memory accounting (exact once no insertion runs and every
    /// worker retired).
    fn memory(&self) -> MemoryUsage;

    /// Grows whatever table asked for it (see the module documentation);
    /// nothing when no table needs to grow any more.
    fn grow(&mut self) -> Result<(), TableFull>;

    /// The search runs `threads` workers: `grow` may use as many threads
    /// (every worker waits meanwhile). Called once before the search.
    fn set_workers(&mut self, _threads: usize) {}

    /// The effective parameters, as [`crate::VisitedSet::params`].
    fn params(&self) -> String;

    /// Engine-specific counters worth reporting.
    fn counters(&self) -> Vec<(String, u64)> {
        Vec::new()
    }
}
