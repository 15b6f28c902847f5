//! The set algebra the symbolic search needs, as a trait with one
//! implementation per encoding ([`super::bdd`], [`super::mdd`]), and the
//! generic walks over oxidd nodes both share (top variable, shared node
//! count).
//!
//! Owns the contract between the search and an encoding: sets of states
//! over current variables, relations of one transition group over the
//! current variables of its read ∪ write slots and the next variables of its
//! write slots. Must not know models, strategies or learning.

use super::layout::Layout;
use oxidd::{BooleanFunction, Function, InnerNode, Manager, Node, NodeID};
use pins::Value;
use std::collections::HashSet;

/// The manager ran out of node slots (its capacity comes from the budget).
#[derive(Debug)]
pub struct OutOfNodes;

impl From<oxidd::error::OutOfMemory> for OutOfNodes {
    fn from(_: oxidd::error::OutOfMemory) -> Self {
        OutOfNodes
    }
}

pub type DdResult<T> = Result<T, OutOfNodes>;

/// The slots a transition group touches.
#[derive(Clone, Debug)]
pub struct GroupShape {
    /// Read ∪ write slots, increasing: the projection of a relation's
    /// current side.
    pub proj: Vec<usize>,
    /// Write slots, increasing: the relation's next side.
    pub write: Vec<usize>,
}

/// Sets and relations of one encoding in one manager.
pub trait Diagram {
    type Set: Clone + PartialEq;
    fn layout(&self) -> &Layout;
    fn empty(&self) -> Self::Set;
    fn union(&self, a: &Self::Set, b: &Self::Set) -> DdResult<Self::Set>;
    fn minus(&self, a: &Self::Set, b: &Self::Set) -> DdResult<Self::Set>;
    fn is_empty(&self, a: &Self::Set) -> bool;
    /// The set holding one full state vector.
    fn state(&self, v: &[Value]) -> DdResult<Self::Set>;
    /// `s` projected on `slots` (the other slots' variables quantified).
    fn project(&self, s: &Self::Set, slots: &[usize]) -> DdResult<Self::Set>;
    /// Calls `f` with every vector (values of `slots`, in order) of a set
    /// that depends only on `slots`.
    fn for_each_vector(&self, s: &Self::Set, slots: &[usize], f: &mut dyn FnMut(&[Value]));
    /// The relation holding one pair: values of `g.proj`, values of `g.write`.
    fn pair(&self, g: &GroupShape, cur: &[Value], next: &[Value]) -> DdResult<Self::Set>;
    /// Successors of `s` by the relation `rel` of group `g`.
    fn image(&self, s: &Self::Set, rel: &Self::Set, g: usize) -> DdResult<Self::Set>;
    /// Exact number of states in `s` (`None` past `u128`).
    fn count_states(&self, s: &Self::Set) -> Option<u128>;
    /// Exact number of pairs (state of `s`, successor by `rel` of group `g`).
    fn count_pairs(&self, s: &Self::Set, rel: &Self::Set, g: usize) -> DdResult<Option<u128>>;
    /// Inner nodes reachable from any of `roots`, each counted once.
    fn shared_nodes(&self, roots: &[&Self::Set]) -> u64;
}

/// Node id and level of `f`'s root (`None` for a terminal).
pub fn top<F: Function>(f: &F) -> (NodeID, Option<u32>) {
    f.with_manager_shared(|m, e| {
        let id = e.node_id();
        match m.get_node(e) {
            Node::Inner(n) => {
                let mut level = 0;
                n.check_level(|l| {
                    level = l;
                    true
                });
                (id, Some(level))
            }
            Node::Terminal(_) => (id, None),
        }
    })
}

/// Root level of `f`, `u32::MAX` for a terminal.
pub fn level_of<F: Function>(f: &F) -> u32 {
    top(f).1.unwrap_or(u32::MAX)
}

/// Inner nodes reachable from `roots` (all in one manager), each once.
pub fn shared_inner_nodes<F: Function>(roots: &[&F]) -> u64 {
    let Some(first) = roots.first() else {
        return 0;
    };
    first.with_manager_shared(|m, _| {
        let mut seen: HashSet<NodeID> = HashSet::new();
        let mut stack = Vec::new();
        for r in roots {
            stack.push(m.clone_edge(r.as_edge(m)));
        }
        let mut count = 0u64;
        while let Some(e) = stack.pop() {
            if seen.insert(e.node_id()) {
                if let Node::Inner(n) = m.get_node(e.borrowed()) {
                    count += 1;
                    for c in n.children() {
                        stack.push(m.clone_edge(c));
                    }
                }
            }
            m.drop_edge(e);
        }
        count
    })
}

/// Whether `f` is a terminal other than false / the empty set.
pub fn is_true_terminal<F: BooleanFunction>(f: &F) -> bool {
    top(f).1.is_none() && f.satisfiable()
}
