//! The static slot order of the symbolic engines: a permutation of the
//! model's slots chosen before the search, and the model seen through it.
//!
//! Decision diagrams are only as small as their variable order lets them be;
//! the model's own slot order can scatter the slots of one transition group
//! (MCC nets list places by identifier, so `Catch1_1`, `Catch1_10`, …).
//! `force` (default) applies the FORCE heuristic (Aloul, Markov, Sakallah
//! 2003) to the hypergraph whose edges are the groups' read ∪ write sets:
//! each slot moves to the mean centre of gravity of its groups, slots are
//! re-sorted, and the order with the smallest total group span (Σ over
//! groups of last − first position) over the iterations is kept. `model`
//! keeps the model's order.
//!
//! Owns the permutation and the [`Permuted`] adapter (a `pins::Model` whose
//! slot `p` is the inner model's slot `order[p]`). Must not know diagrams.

use pins::{Emit, EmitAll, Model, Slot, Step, TransitionGroup, Value};

/// Total span of the groups' slot sets under `pos` (slot → position).
fn span(sets: &[Vec<usize>], pos: &[usize]) -> u64 {
    sets.iter()
        .filter(|s| !s.is_empty())
        .map(|s| {
            let (lo, hi) = s.iter().fold((usize::MAX, 0), |(lo, hi), &v| {
                (lo.min(pos[v]), hi.max(pos[v]))
            });
            (hi - lo) as u64
        })
        .sum()
}

/// FORCE order of `k` slots for the hyperedges `sets`: position → slot.
pub fn force(k: usize, sets: &[Vec<usize>], iterations: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..k).collect();
    let mut pos: Vec<usize> = (0..k).collect();
    let mut best = (span(sets, &pos), order.clone());
    for _ in 0..iterations {
        let mut sum = vec![0f64; k];
        let mut n = vec![0u32; k];
        for s in sets.iter().filter(|s| !s.is_empty()) {
            let cog = s.iter().map(|&v| pos[v] as f64).sum::<f64>() / s.len() as f64;
            for &v in s {
                sum[v] += cog;
                n[v] += 1;
            }
        }
        let target: Vec<f64> = (0..k)
            .map(|v| {
                if n[v] == 0 {
                    pos[v] as f64
                } else {
                    sum[v] / f64::from(n[v])
                }
            })
            .collect();
        order.sort_by(|&a, &b| target[a].total_cmp(&target[b]).then(a.cmp(&b)));
        for (p, &v) in order.iter().enumerate() {
            pos[v] = p;
        }
        let s = span(sets, &pos);
        if s < best.0 {
            best = (s, order.clone());
        }
    }
    best.1
}

/// `inner` with its slots permuted: slot `p` here is `inner`'s `order[p]`.
pub struct Permuted<'m> {
    inner: &'m dyn Model,
    /// Position → inner slot.
    order: Vec<usize>,
    slots: Vec<Slot>,
    groups: Vec<TransitionGroup>,
}

impl<'m> Permuted<'m> {
    pub fn new(inner: &'m dyn Model, order: Vec<usize>) -> Self {
        let mut pos = vec![0; order.len()];
        for (p, &v) in order.iter().enumerate() {
            pos[v] = p;
        }
        let remap = |set: &[usize]| {
            let mut s: Vec<usize> = set.iter().map(|&v| pos[v]).collect();
            s.sort_unstable();
            s
        };
        let groups = inner
            .groups()
            .iter()
            .map(|g| TransitionGroup {
                label: g.label.clone(),
                read: remap(&g.read),
                write: remap(&g.write),
            })
            .collect();
        let slots = order.iter().map(|&v| inner.slots()[v].clone()).collect();
        Permuted {
            inner,
            order,
            slots,
            groups,
        }
    }

    /// The inner model's vector of `permuted`.
    pub fn to_inner(&self, permuted: &[Value]) -> Vec<Value> {
        let mut out = vec![0; permuted.len()];
        for (p, &v) in self.order.iter().enumerate() {
            out[v] = permuted[p];
        }
        out
    }

    /// `inner` (an inner model's vector) in this order, written to `out`.
    fn permute<'o>(&self, inner: &[Value], out: &'o mut [Value]) -> &'o [Value] {
        for (p, &v) in self.order.iter().enumerate() {
            out[p] = inner[v];
        }
        out
    }
}

impl Model for Permuted<'_> {
    fn formalism(&self) -> &str {
        self.inner.formalism()
    }
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn slots(&self) -> &[Slot] {
        &self.slots
    }
    fn process_names(&self) -> &[String] {
        self.inner.process_names()
    }
    fn initial_state(&self) -> Vec<Value> {
        let init = self.inner.initial_state();
        self.order.iter().map(|&v| init[v]).collect()
    }
    fn groups(&self) -> &[TransitionGroup] {
        &self.groups
    }
    fn is_error_state(&self, state: &[Value]) -> bool {
        self.inner.is_error_state(&self.to_inner(state))
    }
    fn next(&self, state: &[Value], group: usize, emit: &mut Emit) -> Step {
        let mut out = vec![0; state.len()];
        self.inner.next(&self.to_inner(state), group, &mut |succ| {
            emit(self.permute(succ, &mut out));
        })
    }
    /// The inner model's `next_all` (one call per state, not one per
    /// group: the symbolic learner calls it on every new state).
    fn next_all(&self, state: &[Value], emit: &mut EmitAll) -> Step {
        let mut out = vec![0; state.len()];
        self.inner.next_all(&self.to_inner(state), &mut |group, succ| {
            emit(group, self.permute(succ, &mut out));
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn force_gathers_the_slots_of_each_group() {
        // Groups {0,3}, {1,4}, {2,5}: the model order spans 3+3+3.
        let sets = vec![vec![0, 3], vec![1, 4], vec![2, 5]];
        let order = force(6, &sets, 20);
        let mut pos = vec![0; 6];
        for (p, &v) in order.iter().enumerate() {
            pos[v] = p;
        }
        assert_eq!(span(&sets, &pos), 3, "order {order:?}");
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..6).collect::<Vec<_>>());
    }
}
