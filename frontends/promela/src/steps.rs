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
    /// `next_all` emits them). Processes are tried in pid order and the
    /// groups of one proctype in transition order, so the successors are
    /// mostly in order already: checking costs less than the sort.
    pub fn sort_by_group(&mut self) {
        if !self.info.is_sorted_by_key(|s| s.group) {
            self.info.sort_by_key(|s| s.group);
        }
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

#[cfg(test)]
mod tests {
    use super::Steps;

    fn kept(groups: &[usize]) -> Steps {
        let mut s = Steps::default();
        s.reset(1);
        for (i, &g) in groups.iter().enumerate() {
            s.candidate(&[0])[0] = i as u32;
            s.keep(g, 0, false);
        }
        s
    }

    fn emitted(s: &Steps) -> Vec<(usize, u32)> {
        (s.info().iter())
            .map(|i| (i.group, s.state(i)[0]))
            .collect()
    }

    #[test]
    fn successors_come_out_by_group_in_kept_order_within_a_group() {
        let mut s = kept(&[3, 1, 3, 0, 1]);
        s.sort_by_group();
        assert_eq!(emitted(&s), [(0, 3), (1, 1), (1, 4), (3, 0), (3, 2)]);
        let mut sorted = kept(&[0, 2, 2, 5]);
        sorted.sort_by_group();
        assert_eq!(emitted(&sorted), [(0, 0), (2, 1), (2, 2), (5, 3)]);
    }
}
