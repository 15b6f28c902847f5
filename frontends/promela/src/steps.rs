//! The one-step successors of a state, kept flat: every candidate successor
//! is written in place at the end of one buffer and kept (with its group,
//! the process that may keep control and whether it does) or dropped, so
//! that computing successors allocates nothing per successor, and the
//! buffers are reused from state to state (a per-thread pool). Owns the
//! storage only; which successors exist is `model`'s.

use std::cell::RefCell;

/// What `model` knows of a kept successor besides its vector.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StepInfo {
    pub group: usize,
    /// The process that moved (the receiver of a rendezvous).
    pub pid: usize,
    /// Whether `pid` keeps control (inside `atomic`).
    pub atom: bool,
    /// Which kept vector (in the order they were kept).
    pub at: usize,
}

/// Successor vectors of length `k`, one after the other.
#[derive(Default)]
pub(crate) struct Steps {
    k: usize,
    states: Vec<u32>,
    info: Vec<StepInfo>,
}

impl Steps {
    /// Empties the buffer for vectors of length `k`.
    pub fn reset(&mut self, k: usize) {
        self.k = k;
        self.states.clear();
        self.info.clear();
    }

    /// A copy of `st` to change into a candidate successor; [`Steps::keep`]
    /// keeps it, [`Steps::drop_candidate`] forgets it.
    pub fn candidate(&mut self, st: &[u32]) -> &mut [u32] {
        let at = self.info.len() * self.k;
        self.states.truncate(at);
        self.states.extend_from_slice(st);
        &mut self.states[at..]
    }

    pub fn keep(&mut self, group: usize, pid: usize, atom: bool) {
        let at = self.info.len();
        self.info.push(StepInfo {
            group,
            pid,
            atom,
            at,
        });
    }

    pub fn drop_candidate(&mut self) {
        self.states.truncate(self.info.len() * self.k);
    }

    pub fn is_empty(&self) -> bool {
        self.info.is_empty()
    }

    /// Orders the kept successors by group, stably (the order in which
    /// `next_all` emits them).
    pub fn sort_by_group(&mut self) {
        self.info.sort_by_key(|s| s.group);
    }

    pub fn info(&self) -> &[StepInfo] {
        &self.info
    }

    pub fn state(&self, s: &StepInfo) -> &[u32] {
        &self.states[s.at * self.k..(s.at + 1) * self.k]
    }
}

thread_local! {
    static POOL: RefCell<Vec<Steps>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` with an empty buffer for vectors of length `k`, taken from this
/// thread's pool and given back afterwards (a nested call gets its own).
pub(crate) fn with_steps<T>(k: usize, f: impl FnOnce(&mut Steps) -> T) -> T {
    let mut steps = POOL.with(|p| p.borrow_mut().pop()).unwrap_or_default();
    steps.reset(k);
    let out = f(&mut steps);
    POOL.with(|p| p.borrow_mut().push(steps));
    out
}
