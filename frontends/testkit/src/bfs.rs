//! The naive breadth-first search the front-ends' tests and development
//! examples check models with: full state vectors in a hash set, every
//! successor `next_all` emits counted as a transition. Knows models only
//! through [`pins::Model`]; must not know any formalism or engine.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use pins::{Model, ModelError};
use rustc_hash::FxHashSet;

/// The states seen so far and the queue of those still to expand.
pub struct Frontier {
    seen: FxHashSet<Vec<u32>>,
    queue: VecDeque<Vec<u32>>,
}

impl Frontier {
    /// Seen and queued: `init` only.
    pub fn new(init: &[u32]) -> Frontier {
        let mut f = Frontier {
            seen: FxHashSet::default(),
            queue: VecDeque::new(),
        };
        f.offer(init);
        f
    }

    /// Seen and queued: the initial state of `m` only.
    pub fn of(m: &dyn Model) -> Frontier {
        Frontier::new(&m.initial_state())
    }

    /// The next state to expand.
    pub fn pop(&mut self) -> Option<Vec<u32>> {
        self.queue.pop_front()
    }

    /// Records `s` and queues it when it is new; whether it was.
    pub fn offer(&mut self, s: &[u32]) -> bool {
        if self.seen.contains(s) {
            return false;
        }
        self.seen.insert(s.to_vec());
        self.queue.push_back(s.to_vec());
        true
    }

    /// How many states were seen.
    pub fn states(&self) -> usize {
        self.seen.len()
    }

    /// Whether `s` was seen.
    pub fn contains(&self, s: &[u32]) -> bool {
        self.seen.contains(s)
    }
}

/// How a [`bfs`] ended.
#[derive(Debug)]
pub enum Bfs {
    /// Reachable states and transitions.
    Done(u64, u64),
    /// More than the state limit, or out of time (which of them).
    GaveUp(String),
    Error(ModelError),
}

/// Naive BFS of `m`, every successor checked against its group's write set
/// ([`within_write_set`]): gives up beyond `limit` states or after `time`.
pub fn bfs(m: &dyn Model, limit: usize, time: Option<Duration>) -> Bfs {
    let t0 = Instant::now();
    let mut f = Frontier::of(m);
    let mut edges = 0u64;
    let mut succ: Vec<(usize, Vec<u32>)> = Vec::new();
    while let Some(s) = f.pop() {
        if let Some(time) = time.filter(|t| t0.elapsed() > *t) {
            return Bfs::GaveUp(format!("more than {time:?}"));
        }
        succ.clear();
        if let Err(e) = m.next_all(&s, &mut |g, t| succ.push((g, t.to_vec()))) {
            return Bfs::Error(e);
        }
        edges += succ.len() as u64;
        for (g, t) in &succ {
            if let Err(e) = within_write_set(m, *g, &s, t) {
                return Bfs::Error(e);
            }
            if f.offer(t) && f.states() > limit {
                return Bfs::GaveUp(format!("more than {limit} states"));
            }
        }
    }
    match m.complete() {
        Ok(()) => Bfs::Done(f.states() as u64, edges),
        Err(e) => Bfs::Error(e),
    }
}

/// Checks that the successor `t` of `s` by group `g` differs from `s`
/// only in the group's write set (what the dependency matrix promises,
/// and what the symbolic engines and the tree's incremental insertion
/// rely on): an error naming the group and the slot otherwise.
pub fn within_write_set(m: &dyn Model, g: usize, s: &[u32], t: &[u32]) -> Result<(), ModelError> {
    let group = &m.groups()[g];
    let slots = m.slots();
    match (0..s.len()).find(|&i| s[i] != t[i] && group.write.binary_search(&i).is_err()) {
        None => Ok(()),
        Some(i) => Err(ModelError::new(format!(
            "group {g} ({}) changed slot {i} ({}), which is not in its write set",
            group.label, slots[i].name
        ))),
    }
}

/// Reachable (states, transitions) of `m`, which must be small and free
/// of model errors (a unit test's model): panics otherwise.
pub fn count(m: &dyn Model) -> (usize, usize) {
    match bfs(m, usize::MAX, None) {
        Bfs::Done(states, transitions) => (states as usize, transitions as usize),
        Bfs::Error(e) => panic!("{e}"),
        Bfs::GaveUp(why) => panic!("gave up: {why}"),
    }
}

/// Calls `visit` on every reachable state of `m`, breadth-first; `m` must
/// be free of model errors (panics otherwise).
pub fn for_each_state(m: &dyn Model, mut visit: impl FnMut(&[u32])) {
    let mut f = Frontier::of(m);
    while let Some(s) = f.pop() {
        visit(&s);
        m.next_all(&s, &mut |_, t| {
            f.offer(t);
        })
        .unwrap_or_else(|e| panic!("{e}"));
    }
}
