//! State reconstruction: replaying events through the model, backtracking
//! one state (the basic ComBack method), and the grouped depth-first
//! traversal of delayed duplicate detection.
//!
//! Grouped reconstruction works in two steps. [`Reconstructor::mark`] sets
//! the check bit of a state to rebuild and of its ancestors, walking its
//! back-edges up until a state already checked, the initial state or a
//! cached state, which becomes a *seed*. [`Reconstructor::traverse`] then
//! walks down from every seed along the successor lists into checked
//! children only, clearing their bits: every checked state is rebuilt once,
//! from its predecessor's vector by one event (or copied from the cache),
//! and handed to the visitor. Both walks use explicit stacks (back-edge
//! paths are as long as the BFS is deep).
//!
//! Accounting: the traversal stacks' capacities (reserved in the engine's
//! [`Budget`]); they are empty between traversals.
//!
//! Owns the replay of events and the stacks; it must not know the
//! candidate set, the state table or the search order.

use super::back_edges::{BackEdges, NONE};
use super::cache::Cache;
use super::{capacity_bytes, grow_for, Stop};
use crate::blocks::budget::Budget;
use pins::{Model, Value};

const WHO: &str = "comback traversal";

/// Rebuilds stored states; see the module documentation.
pub struct Reconstructor<'m> {
    model: &'m dyn Model,
    k: usize,
    group_bits: u32,
    initial: Vec<Value>,
    /// Ids from a backtracked state up to (excluding) its start.
    path: Vec<u32>,
    /// DFS stack: (id, next child to look at).
    stack: Vec<(u32, u32)>,
    /// The vectors of the DFS stack, `k` words per level.
    vectors: Vec<Value>,
    seeds: Vec<u32>,
    scratch: Vec<Value>,
    budget: Budget,
    /// Events replayed so far.
    pub events: u64,
    /// Vectors taken from the cache so far.
    pub cache_hits: u64,
}

impl<'m> Reconstructor<'m> {
    /// A reconstructor for `model`, whose events carry the group in their
    /// low `group_bits` bits.
    pub fn new(model: &'m dyn Model, group_bits: u32, budget: Budget) -> Self {
        let initial = model.initial_state();
        Reconstructor {
            model,
            k: initial.len(),
            group_bits,
            initial,
            path: Vec::new(),
            stack: Vec::new(),
            vectors: Vec::new(),
            seeds: Vec::new(),
            scratch: Vec::new(),
            budget,
            events: 0,
            cache_hits: 0,
        }
    }

    /// The event of the `index`-th successor of `group`, or `None` when the
    /// index does not fit beside the group bits.
    pub fn encode(&self, group: usize, index: u32) -> Option<u32> {
        // In u64: with one group (no group bits) every u32 index fits, and
        // a u32 shifted by 32 would wrap its shift amount.
        let event = group as u64 | (index as u64) << self.group_bits;
        u32::try_from(event).ok()
    }

    /// Writes into `out` the successor of `from` by `event`.
    fn replay(
        model: &dyn Model,
        group_bits: u32,
        from: &[Value],
        event: u32,
        out: &mut [Value],
    ) -> Result<(), Stop> {
        let group = (event as u64 & ((1u64 << group_bits) - 1)) as usize;
        let index = if group_bits == 32 {
            0
        } else {
            event >> group_bits
        };
        let mut seen = 0u32;
        model
            .next(from, group, &mut |s| {
                if seen == index {
                    out.copy_from_slice(s);
                }
                seen += 1;
            })
            .map_err(|e| Stop::ModelError(e.to_string()))?;
        if seen <= index {
            return Err(Stop::ModelError(format!(
                "comback: replaying successor {index} of group {group} found only {seen} successors (the model is not deterministic)"
            )));
        }
        Ok(())
    }

    /// Rebuilds state `id` into `out` by backtracking: its back-edges up to
    /// the initial state or a cached state, then their events replayed down.
    pub fn backtrack(
        &mut self,
        edges: &BackEdges,
        cache: &Cache,
        id: u32,
        out: &mut Vec<Value>,
    ) -> Result<(), Stop> {
        self.path.clear();
        let mut x = id;
        out.clear();
        loop {
            if let Some(v) = cache.get(x) {
                self.cache_hits += 1;
                out.extend_from_slice(v);
                break;
            }
            if x == 0 {
                out.extend_from_slice(&self.initial);
                break;
            }
            grow_for(&mut self.path, 1, &self.budget, WHO)?;
            self.path.push(x);
            x = edges.pred(x);
        }
        if self.scratch.len() != self.k {
            grow_for(&mut self.scratch, self.k, &self.budget, WHO)?;
            self.scratch.resize(self.k, 0);
        }
        for &y in self.path.iter().rev() {
            Self::replay(
                self.model,
                self.group_bits,
                out,
                edges.event(y),
                &mut self.scratch,
            )?;
            out.copy_from_slice(&self.scratch);
            self.events += 1;
        }
        Ok(())
    }

    /// Sets the check bit of `id` and of its ancestors up to a checked
    /// one, the initial state or a cached state (a seed of the next
    /// traversal).
    pub fn mark(&mut self, edges: &mut BackEdges, cache: &Cache, id: u32) -> Result<(), Stop> {
        let mut x = id;
        while !edges.checked(x) {
            edges.set_check(x, true);
            if x == 0 || cache.get(x).is_some() {
                grow_for(&mut self.seeds, 1, &self.budget, WHO)?;
                self.seeds.push(x);
                return Ok(());
            }
            x = edges.pred(x);
        }
        Ok(())
    }

    /// Rebuilds every checked state, clearing its bit, and calls
    /// `visit(id, vector)` for each (in depth-first order from each seed).
    pub fn traverse(
        &mut self,
        edges: &mut BackEdges,
        cache: &Cache,
        visit: &mut dyn FnMut(u32, &[Value]),
    ) -> Result<(), Stop> {
        let k = self.k;
        let seeds = std::mem::take(&mut self.seeds);
        for &seed in &seeds {
            // A seed below another seed may have been reached already.
            if !edges.checked(seed) {
                continue;
            }
            edges.set_check(seed, false);
            self.vectors.clear();
            grow_for(&mut self.vectors, k, &self.budget, WHO)?;
            match cache.get(seed) {
                Some(v) => {
                    self.cache_hits += 1;
                    self.vectors.extend_from_slice(v);
                }
                None => {
                    debug_assert_eq!(seed, 0);
                    self.vectors.extend_from_slice(&self.initial);
                }
            }
            visit(seed, &self.vectors[..k]);
            self.stack.clear();
            grow_for(&mut self.stack, 1, &self.budget, WHO)?;
            self.stack.push((seed, edges.first_child(seed)));
            while let Some(top) = self.stack.last_mut() {
                let mut c = top.1;
                while c != NONE && !edges.checked(c) {
                    c = edges.next_sibling(c);
                }
                if c == NONE {
                    self.stack.pop();
                    continue;
                }
                top.1 = edges.next_sibling(c);
                edges.set_check(c, false);
                let depth = self.stack.len();
                if self.vectors.len() < (depth + 1) * k {
                    grow_for(&mut self.vectors, k, &self.budget, WHO)?;
                    self.vectors.resize((depth + 1) * k, 0);
                }
                let (parents, child) = self.vectors.split_at_mut(depth * k);
                let child = &mut child[..k];
                match cache.get(c) {
                    Some(v) => {
                        self.cache_hits += 1;
                        child.copy_from_slice(v);
                    }
                    None => {
                        Self::replay(
                            self.model,
                            self.group_bits,
                            &parents[(depth - 1) * k..],
                            edges.event(c),
                            child,
                        )?;
                        self.events += 1;
                    }
                }
                visit(c, child);
                grow_for(&mut self.stack, 1, &self.budget, WHO)?;
                self.stack.push((c, edges.first_child(c)));
            }
        }
        self.seeds = seeds;
        self.seeds.clear();
        Ok(())
    }

    pub fn alloc_bytes(&self) -> u64 {
        capacity_bytes(&self.path)
            + capacity_bytes(&self.stack)
            + capacity_bytes(&self.vectors)
            + capacity_bytes(&self.seeds)
            + capacity_bytes(&self.scratch)
    }
}
