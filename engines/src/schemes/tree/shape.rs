//! The shape of a tree database and the walk of one insertion, written
//! once for the sequential tree ([`super::TreeDb`]) and the concurrent one
//! ([`super::concurrent::SharedTreeDb`]): the fixed binary tree over the
//! slots of a vector (see the module documentation of `tree`), the check
//! of slot-value widths, and the bottom-up walk that computes a state's
//! node indices (reusing its predecessor's where no slot below changed)
//! and its root tuple.
//!
//! It owns only the shape and the walk; the tables are its callers' (a
//! walk looks each tuple up through a closure). It must not know tables,
//! models or the search order.

use crate::blocks::index_table::Growth;
use crate::visited::{Inserted, TableFull};
use pins::Value;

/// One side of a node's tuple.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Child {
    /// A single slot: its value stands in the tuple.
    Slot(usize),
    /// A node (by number): its index stands in the tuple.
    Node(usize),
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Node {
    pub(crate) left: Child,
    pub(crate) right: Child,
}

/// Builds the nodes over `[lo, hi)` in post-order into `nodes`.
pub(crate) fn build(lo: usize, hi: usize, nodes: &mut Vec<Node>) -> Child {
    let n = hi - lo;
    if n == 1 {
        return Child::Slot(lo);
    }
    let mid = lo + n.div_ceil(2);
    let left = build(lo, mid, nodes);
    let right = build(mid, hi, nodes);
    nodes.push(Node { left, right });
    Child::Node(nodes.len() - 1)
}

/// Whether the root's left and right children are single slots (for
/// `k = 1`: the root tuple `(value, 0)`, i.e. `(true, _)`).
pub fn root_children_are_slots(k: usize) -> (bool, bool) {
    // Root [0, k): left [0, ⌈k/2⌉), right [⌈k/2⌉, k).
    (k.div_ceil(2) == 1, k / 2 == 1)
}

/// The node holding each slot in its tuple (by slot) and each node's
/// parent (by node, the root left out), for `nodes` over `k` slots.
fn parents(k: usize, nodes: &[Node]) -> (Vec<u32>, Vec<u32>) {
    let mut slot_parent = vec![0; if k >= 2 { k } else { 0 }];
    let mut node_parent = vec![0; nodes.len().saturating_sub(1)];
    for (j, n) in nodes.iter().enumerate() {
        for c in [n.left, n.right] {
            match c {
                Child::Slot(s) => slot_parent[s] = j as u32,
                Child::Node(c) => node_parent[c] = j as u32,
            }
        }
    }
    (slot_parent, node_parent)
}

/// A walk's values: the node indices of a state (`inner` words), then its
/// slots (`k` words), so that a node's child, index or slot, is one
/// position ([`Shape::children`]) and the walks never ask which it is.
/// The scratch of a walk holds them, then one changed-flag per node.
fn values(inner: usize, k: usize) -> usize {
    inner + k
}

/// A state's predecessor, as an incremental insertion sees it: its vector
/// and its side data (node indices).
pub(crate) type Pred<'a> = (&'a [Value], &'a [u32]);

/// What an engine asks of its tree.
pub(crate) struct TreeSpec {
    /// The engine's name (prefixes messages and node table names).
    pub(crate) engine: &'static str,
    /// Slots of a vector (`k` (0 included: the one empty vector)).
    pub(crate) k: usize,
    /// Node tables hold at most 2^`index_bits` tuples (1..=32).
    pub(crate) index_bits: u32,
    /// Slot values must be below 2^`value_bits` (1..=32; 32: no check).
    pub(crate) value_bits: u32,
    /// Reuse the predecessor's node indices (side data).
    pub(crate) incremental: bool,
    /// Initial buckets of every node table.
    pub(crate) node_buckets: usize,
    /// How the (sequential) node tables grow.
    pub(crate) node_growth: Growth,
    /// The slot each leaf position holds, left to right (a permutation of
    /// `0..k`; empty: the model's order), see [`super::order`].
    pub(crate) order: Vec<usize>,
    /// What the engine reports as its parameters.
    pub(crate) params: String,
}

/// The shape of a tree over `k` slots; see the module documentation.
pub(crate) struct Shape {
    pub(crate) engine: &'static str,
    k: usize,
    /// Post-order, root last (`k − 1` nodes; none for `k = 1`).
    nodes: Vec<Node>,
    /// Each node's children as positions in a walk's values (see
    /// [`values`]), in node order.
    children: Vec<[u32; 2]>,
    /// The node whose tuple holds each slot, by slot (the root: `k − 2`).
    slot_parent: Vec<u32>,
    /// The parent of each node but the root, by node.
    node_parent: Vec<u32>,
    incremental: bool,
    /// Slot values must be below 2^value_bits (32: no check).
    value_bits: u32,
    pub(crate) params: String,
}

impl Shape {
    /// The shape `spec` asks for. Panics on `k = 0` or widths outside
    /// 1..=32.
    pub(crate) fn new(spec: TreeSpec) -> Self {
        let TreeSpec {
            engine,
            k,
            index_bits,
            value_bits,
            incremental,
            order,
            params,
            ..
        } = spec;
        assert!((1..=32).contains(&index_bits) && (1..=32).contains(&value_bits));
        let mut nodes = Vec::with_capacity(k.saturating_sub(1));
        if k >= 2 {
            build(0, k, &mut nodes);
        }
        if !order.is_empty() {
            assert_eq!(order.len(), k, "a slot order is a permutation of the slots");
            // Leaf position p holds slot order[p]: the walk reads the
            // state through the permutation, so no vector is copied.
            let place = |c: Child| match c {
                Child::Slot(p) => Child::Slot(order[p]),
                node => node,
            };
            for n in &mut nodes {
                (n.left, n.right) = (place(n.left), place(n.right));
            }
        }
        let (slot_parent, node_parent) = parents(k, &nodes);
        let inner = k.saturating_sub(2);
        let position = |c: Child| match c {
            Child::Slot(s) => (inner + s) as u32,
            Child::Node(n) => n as u32,
        };
        let children = nodes.iter().map(|n| [position(n.left), position(n.right)]).collect();
        Shape {
            engine,
            k,
            nodes,
            children,
            slot_parent,
            node_parent,
            incremental,
            value_bits,
            params,
        }
    }

    /// Nodes with a node table: every node but the root (`k − 2`).
    pub(crate) fn inner(&self) -> usize {
        self.k.saturating_sub(2)
    }

    /// The slots under each non-root node, in node order.
    pub(crate) fn node_slots(&self) -> Vec<Vec<usize>> {
        let mut under: Vec<Vec<usize>> = Vec::with_capacity(self.nodes.len());
        for n in &self.nodes {
            let mut slots = Vec::new();
            for c in [n.left, n.right] {
                match c {
                    Child::Slot(s) => slots.push(s),
                    Child::Node(j) => slots.extend_from_slice(&under[j]),
                }
            }
            under.push(slots);
        }
        under.truncate(self.inner());
        under
    }

    /// Words of scratch a walk takes (see [`values`]).
    pub(crate) fn scratch_words(&self) -> usize {
        values(self.inner(), self.k) + self.inner()
    }

    /// The name of node table `j`.
    pub(crate) fn table_name(&self, j: usize) -> String {
        format!("{} node table {j}", self.engine)
    }

    /// Words of side data per state: the node indices when incremental.
    pub(crate) fn side_words(&self) -> usize {
        if self.incremental {
            self.inner()
        } else {
            0
        }
    }

    #[cold]
    fn value_too_wide(&self, state: &[Value]) -> TableFull {
        let (i, v) = state
            .iter()
            .enumerate()
            .find(|&(_, &v)| v >> self.value_bits != 0)
            .map(|(i, &v)| (i, v))
            .unwrap_or_default();
        TableFull {
            message: format!(
                "{}: slot {i} value {v} needs more than u={} bits",
                self.engine, self.value_bits
            ),
        }
    }

    /// Walks `state` bottom-up: fills the first [`inner`](Self::inner)
    /// words of `scratch` (at least [`scratch_words`](Self::scratch_words)
    /// long) with its node indices,
    /// looking each changed node `j`'s tuple up by `lookup(&mut nodes[j],
    /// j, tuple)` (`nodes`: what the caller keeps per node, at least
    /// `inner`), and returns its root tuple. With a predecessor (`pred`: its
    /// vector and node indices) and an incremental tree, a node none of
    /// whose slots changed takes the predecessor's index (counted in
    /// `saved`); the last `inner` words of `scratch` say which nodes
    /// changed. A slot value wider than the tree's value bits is a
    /// [`TableFull`].
    #[inline]
    pub(crate) fn walk<T, E: From<TableFull>>(
        &self,
        state: &[Value],
        pred: Option<Pred<'_>>,
        nodes: &mut [T],
        scratch: &mut [u32],
        saved: &mut u64,
        mut lookup: impl FnMut(&mut T, usize, [u32; 2]) -> Result<u32, E>,
    ) -> Result<(u32, u32), E> {
        debug_assert_eq!(state.len(), self.k);
        if self.value_bits < 32 && state.iter().fold(0, |a, &v| a | v) >> self.value_bits != 0 {
            return Err(self.value_too_wide(state).into());
        }
        if self.k <= 1 {
            // One slot is its own root tuple; a model without slots has
            // one state, the empty vector, stored as the tuple (0, 0).
            return Ok((state.first().copied().unwrap_or(0), 0));
        }
        let pred = if self.incremental { pred } else { None };
        let inner = self.inner();
        let (vals, changed) = scratch[..self.scratch_words()].split_at_mut(values(inner, self.k));
        vals[inner..].copy_from_slice(state);
        // Exactly `inner` tables and `inner + 1` nodes: the loop indexes
        // them without bounds checks.
        let (per_node, children) = (&mut nodes[..inner], &self.children[..=inner]);
        // With a predecessor, only the nodes above a changed slot are
        // looked up; the others keep its indices.
        let all = match pred {
            None => true,
            Some((pvec, pside)) => {
                debug_assert_eq!((pvec.len(), pside.len()), (self.k, inner));
                vals[..inner].copy_from_slice(pside);
                self.mark_changed(state, pvec, changed);
                false
            }
        };
        let mut looked_up = 0;
        for j in 0..inner {
            if all || changed[j] != 0 {
                let [l, r] = children[j];
                let tuple = [vals[l as usize], vals[r as usize]];
                vals[j] = lookup(&mut per_node[j], j, tuple)?;
                looked_up += 1;
            }
        }
        *saved += (inner - looked_up) as u64;
        let [l, r] = children[inner];
        Ok((vals[l as usize], vals[r as usize]))
    }

    /// Sets `changed[j]` to 1 for every non-root node `j` above a slot
    /// where `state` and `pred` differ, to 0 for the others: each changed
    /// slot marks its path up to the root or to a node already marked, so
    /// a search step that changes a few slots costs a comparison per slot
    /// and a mark per changed node, not a test per node.
    #[inline]
    fn mark_changed(&self, state: &[Value], pred: &[Value], changed: &mut [u32]) {
        let inner = changed.len();
        changed.fill(0);
        for ((&v, &p), &parent) in state.iter().zip(pred).zip(&self.slot_parent) {
            if v != p {
                let mut j = parent as usize;
                while j < inner && changed[j] == 0 {
                    changed[j] = 1;
                    j = self.node_parent[j] as usize;
                }
            }
        }
    }
}

impl Shape {
    /// The inverse of [`walk`](Self::walk): from a state's root tuple,
    /// writes its slots into `state` and its node indices into the first
    /// [`inner`](Self::inner) words of `idx` (if it has that many),
    /// top-down through the values in `scratch` (at least
    /// [`scratch_words`](Self::scratch_words)), reading node `j`'s tuple of
    /// index `i` as `tuple(j, i)`.
    #[inline]
    pub(crate) fn unwalk(
        &self,
        root: (u32, u32),
        state: &mut [Value],
        idx: &mut [u32],
        scratch: &mut [u32],
        tuple: impl Fn(usize, u32) -> [u32; 2],
    ) {
        debug_assert_eq!(state.len(), self.k);
        if self.k <= 1 {
            if let Some(v) = state.first_mut() {
                *v = root.0;
            }
            return;
        }
        let inner = self.inner();
        let vals = &mut scratch[..values(inner, self.k)];
        // Post-order: a node's parent comes after it, so going down the
        // numbers meets every node after the one that names its index.
        self.descend(root, (0..inner).rev(), vals, tuple);
        state.copy_from_slice(&vals[inner..]);
        if let Some(idx) = idx.get_mut(..inner) {
            idx.copy_from_slice(&vals[..inner]);
        }
    }
}

impl Shape {
    /// The non-root nodes above some slot of `slots`, highest number
    /// first (the order [`unwalk_nodes`](Self::unwalk_nodes) takes them).
    pub(crate) fn nodes_above(&self, slots: &[usize]) -> Vec<u32> {
        let under = self.node_slots();
        let above = |j: &usize| under[*j].iter().any(|s| slots.contains(s));
        (0..self.inner()).rev().filter(above).map(|j| j as u32).collect()
    }

    /// [`unwalk`](Self::unwalk) of the nodes `nodes` only (from
    /// [`nodes_above`](Self::nodes_above)): the values of the slots under
    /// them land in the last `k` words of `scratch` (at least
    /// [`scratch_words`](Self::scratch_words)), slot `s` at `inner + s`,
    /// the other slots' words left as they were.
    #[inline]
    pub(crate) fn unwalk_nodes<'s>(
        &self,
        root: (u32, u32),
        nodes: &[u32],
        scratch: &'s mut [u32],
        tuple: impl Fn(usize, u32) -> [u32; 2],
    ) -> &'s [u32] {
        let inner = self.inner();
        let vals = &mut scratch[..values(inner, self.k)];
        if self.k <= 1 {
            if let Some(v) = vals.first_mut() {
                *v = root.0;
            }
            return vals;
        }
        self.descend(root, nodes.iter().map(|&j| j as usize), vals, tuple);
        &vals[inner..]
    }

    /// Fills `vals` (the nodes' indices, then the slots' values) from the
    /// root's tuple down through `nodes`, each of which must come after
    /// the node that names it: the one descent of
    /// [`unwalk`](Self::unwalk) and [`unwalk_nodes`](Self::unwalk_nodes).
    #[inline(always)]
    fn descend(
        &self,
        root: (u32, u32),
        nodes: impl Iterator<Item = usize>,
        vals: &mut [u32],
        tuple: impl Fn(usize, u32) -> [u32; 2],
    ) {
        let inner = self.inner();
        let children = &self.children[..=inner];
        let [l, r] = children[inner];
        (vals[l as usize], vals[r as usize]) = root;
        for j in nodes {
            let [l, r] = children[j];
            [vals[l as usize], vals[r as usize]] = tuple(j, vals[j]);
        }
    }
}

/// The answer for a root tuple stored under `reference`, `new` if this
/// insertion stored it.
#[inline]
pub(crate) fn inserted(reference: u64, new: bool) -> Inserted {
    if new {
        Inserted::New(reference)
    } else {
        Inserted::Found(reference)
    }
}
