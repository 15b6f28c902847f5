//! The set algebra the symbolic search needs, as a trait with one
//! implementation per encoding ([`super::bdd`], [`super::mdd`]), and the
//! generic walks over oxidd nodes both share (top variable, shared node
//! count).
//!
//! Owns the contract between the search and an encoding: sets of states
//! over current variables, relations of one transition group over the
//! current variables of its read ∪ write slots and the next variables of its
//! write slots, and the slot-level view of both (a set whose variables all
//! belong to slots `≥ l` as the list of its slot-`l` values with their
//! suffix sets) on which the node-wise saturation of [`super::search`]
//! recurses. Must not know models, strategies or learning.

use super::layout::Layout;
use oxidd::util::FxHasher;
use oxidd::{BooleanFunction, Function, InnerNode, Manager, Node, NodeID};
use pins::Value;
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hash};

/// Hash set with the (fast, non-keyed) hasher oxidd uses itself.
pub type FxHashSet<T> = HashSet<T, BuildHasherDefault<FxHasher>>;
/// Hash map with oxidd's hasher.
pub type FxHashMap<K, V> = std::collections::HashMap<K, V, BuildHasherDefault<FxHasher>>;

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

/// What a set constrains, for moving it to a wider layout
/// ([`Diagram::transfer`]).
#[derive(Clone, Copy, Debug)]
pub enum Support {
    /// A set of states: current variables of every slot.
    State,
    /// Group `g`'s relation: current variables of its read ∪ write slots,
    /// next variables of its write slots.
    Relation(usize),
    /// Group `g`'s learned projections: current variables of its read ∪
    /// write slots.
    Projection(usize),
}

/// Sets and relations of one encoding in one manager.
pub trait Diagram: Sized {
    type Set: Clone + Eq + Hash;
    fn layout(&self) -> &Layout;
    fn empty(&self) -> Self::Set;
    fn union(&self, a: &Self::Set, b: &Self::Set) -> DdResult<Self::Set>;
    fn minus(&self, a: &Self::Set, b: &Self::Set) -> DdResult<Self::Set>;
    fn is_empty(&self, a: &Self::Set) -> bool;
    /// The set holding one full state vector.
    fn state(&self, v: &[Value]) -> DdResult<Self::Set>;
    /// Whether `s`, a set of states, holds the full vector `v` (false
    /// where the test runs out of nodes).
    fn contains(&self, s: &Self::Set, v: &[Value]) -> bool {
        let rest = self.state(v).and_then(|x| self.minus(&x, s));
        rest.is_ok_and(|r| self.is_empty(&r))
    }
    /// Whether `rel`, group `g`'s relation, holds the pair (`from`'s
    /// values of `g.proj`, `to`'s values of `g.write`), `from` and `to`
    /// full vectors (false where the test runs out of nodes).
    fn relates(&self, rel: &Self::Set, g: &GroupShape, from: &[Value], to: &[Value]) -> bool {
        let cur = g.proj.iter().map(|&i| from[i]).collect();
        let next = g.write.iter().map(|&i| to[i]).collect();
        let rest = self.relation(g, &[(cur, next)]).and_then(|x| self.minus(&x, rel));
        rest.is_ok_and(|r| self.is_empty(&r))
    }
    /// The set holding the full state vectors `vs` (sorted, distinct).
    fn states(&self, vs: &[Vec<Value>]) -> DdResult<Self::Set> {
        let mut acc = self.empty();
        for v in vs {
            acc = self.union(&acc, &self.state(v)?)?;
        }
        Ok(acc)
    }
    /// `s`, a set over slots `≥ slot` (`slot` 0 or `g`'s first slot),
    /// projected on group `g`'s read ∪ write slots (the other slots'
    /// variables quantified).
    fn project(&self, s: &Self::Set, g: usize, slot: usize) -> DdResult<Self::Set>;
    /// The projections of `s` (as in [`Diagram::project`]) that `seen`, a
    /// set of group `g`'s projections, lacks. An encoding may do both in
    /// one walk, without building the whole projection.
    fn unseen(&self, s: &Self::Set, seen: &Self::Set, g: usize, slot: usize) -> DdResult<Self::Set> {
        let short = self.project(s, g, slot)?;
        self.minus(&short, seen)
    }
    /// The suffixes over slots `≥ slot` of the vectors of `s` (a set of
    /// states), the other slots quantified; `None` where the encoding has
    /// no cheap form of it (the search then works on the whole set).
    fn suffixes(&self, _s: &Self::Set, _slot: usize) -> DdResult<Option<Self::Set>> {
        Ok(None)
    }
    /// Whether some state of `s` has a successor by `rel`, group `g`'s
    /// relation; `true` where the encoding has no test cheaper than the
    /// image (the image is then empty).
    fn enables(&self, _s: &Self::Set, _rel: &Self::Set, _g: usize) -> bool {
        true
    }
    /// Classes of groups (two or more, of one top slot) whose relations
    /// the encoding can also keep merged, one relation per class, each
    /// group's lifted by [`Diagram::lift`]; class `c`'s relation is then
    /// applied by [`Diagram::image`] and [`Diagram::enables`] as the
    /// group of index (group count + `c`). Empty where it merges none.
    fn classes(&self) -> &[Vec<usize>] {
        &[]
    }
    /// Group `g`'s relation `rel` in the form of class `c`'s merged
    /// relation ([`Diagram::classes`]).
    fn lift(&self, rel: &Self::Set, _g: usize, _c: usize) -> DdResult<Self::Set> {
        Ok(rel.clone())
    }
    /// Calls `f` with every vector (values of `slots`, in order) of a set
    /// that depends only on `slots`.
    fn for_each_vector(&self, s: &Self::Set, slots: &[usize], f: &mut dyn FnMut(&[Value]));
    /// The relation holding the pairs `pairs` (values of `g.proj`, values of
    /// `g.write`; sorted, distinct), built in one go.
    fn relation(&self, g: &GroupShape, pairs: &[(Vec<Value>, Vec<Value>)]) -> DdResult<Self::Set>;
    /// Successors of `s` by the relation `rel` of group `g`.
    fn image(&self, s: &Self::Set, rel: &Self::Set, g: usize) -> DdResult<Self::Set>;
    /// Exact number of states in `s` (`None` past `u128`).
    fn count_states(&self, s: &Self::Set) -> Option<u128>;
    /// Exact number of pairs (state of `s`, successor by `rel` of group `g`).
    fn count_pairs(&self, s: &Self::Set, rel: &Self::Set, g: usize) -> DdResult<Option<u128>>;
    /// [`Diagram::count_pairs`] of `s` by each (group, relation) of
    /// `rels` (`None` where a count does not fit or runs out of nodes);
    /// an encoding may share the walk of `s` above each group's top.
    fn count_pairs_each(&self, s: &Self::Set, rels: &[(usize, &Self::Set)]) -> Vec<Option<u128>> {
        rels.iter()
            .map(|&(g, r)| self.count_pairs(s, r, g).ok().flatten())
            .collect()
    }
    /// Inner nodes reachable from any of `roots`, each counted once.
    fn shared_nodes(&self, roots: &[&Self::Set]) -> u64;
    /// Whether an encoding that collects its own garbage (the list
    /// decision diagram) wants a collection now; oxidd's managers count
    /// references instead and never do.
    fn collection_due(&self) -> bool {
        false
    }
    /// Frees every node that `roots`, every set the caller keeps, do not
    /// reach; returns the collections so far.
    fn collect(&self, _roots: &[&Self::Set]) -> u64 {
        0
    }

    /// The slot-`slot` values of `s` (a set over slots `≥ slot`), increasing,
    /// each with its suffix set over slots `> slot` (never empty).
    fn entries(&self, s: &Self::Set, slot: usize) -> Vec<(Value, Self::Set)>;
    /// The set over slots `≥ slot` with the given entries (values
    /// increasing and distinct; empty suffixes are left out).
    fn set_of_entries(&self, slot: usize, entries: &[(Value, Self::Set)]) -> DdResult<Self::Set>;
    /// The slot-`slot` pairs of a relation `r` over slots `≥ slot`, `slot` in
    /// its group's read ∪ write slots: (current value, next value, rest),
    /// sorted; a slot the group only reads has next = current.
    fn rel_entries(
        &self,
        r: &Self::Set,
        slot: usize,
        writes: bool,
    ) -> Vec<(Value, Value, Self::Set)>;

    /// `sets` of `old` (same encoding, a layout this one widens: every
    /// slot at least as wide) in this manager, each value keeping its
    /// meaning.
    fn transfer(&self, old: &Self, sets: &[(&Self::Set, Support)]) -> DdResult<Vec<Self::Set>>;
}

/// The plain items of a [`Diagram`] impl, written once for the three
/// encodings: `layout` (the impl's `layout` field) and the empty set,
/// union, difference and emptiness from the expressions given, in which
/// `$d` names the diagram and `$a`, `$b` the operands.
macro_rules! set_algebra {
    ($set:ty, |$d:ident, $a:ident, $b:ident| empty $empty:expr, union $union:expr,
        minus $minus:expr, is_empty $is_empty:expr) => {
        fn layout(&self) -> &Layout {
            &self.layout
        }
        #[allow(unused_variables)]
        fn empty(&self) -> $set {
            let $d = self;
            $empty
        }
        #[allow(unused_variables)]
        fn union(&self, $a: &$set, $b: &$set) -> DdResult<$set> {
            let $d = self;
            $union
        }
        #[allow(unused_variables)]
        fn minus(&self, $a: &$set, $b: &$set) -> DdResult<$set> {
            let $d = self;
            $minus
        }
        #[allow(unused_variables)]
        fn is_empty(&self, $a: &$set) -> bool {
            let $d = self;
            $is_empty
        }
    };
}
pub(crate) use set_algebra;

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

/// `f` moved to new variables (a re-encoding): every terminal becomes
/// `leaf(terminal)` and every inner node at level `l` becomes `node(l, hi,
/// lo)` of its moved cofactors; a node shared in `f` (or among the
/// diagrams moved with the same `memo`) is moved once.
pub fn rebuild<F: BooleanFunction>(
    f: &F,
    memo: &mut FxHashMap<NodeID, F>,
    leaf: &impl Fn(&F) -> F,
    node: &impl Fn(u32, &F, &F) -> DdResult<F>,
) -> DdResult<F> {
    let (id, level) = top(f);
    let Some(level) = level else {
        return Ok(leaf(f));
    };
    if let Some(x) = memo.get(&id) {
        return Ok(x.clone());
    }
    let (hi, lo) = f.cofactors().expect("inner node");
    let h = rebuild(&hi, memo, leaf, node)?;
    let l = rebuild(&lo, memo, leaf, node)?;
    let x = node(level, &h, &l)?;
    memo.insert(id, x.clone());
    Ok(x)
}

/// Root level of `f`, `u32::MAX` for a terminal.
pub fn level_of<F: Function>(f: &F) -> u32 {
    top(f).1.unwrap_or(u32::MAX)
}

/// Inner nodes reachable from `roots` (all in one manager), each once: one
/// walk over borrowed edges under one manager lock, a fast-hash seen set.
pub fn shared_inner_nodes<F: Function>(roots: &[&F]) -> u64 {
    let Some(first) = roots.first() else {
        return 0;
    };
    first.with_manager_shared(|m, _| {
        let mut seen: FxHashSet<NodeID> = FxHashSet::default();
        let mut stack = Vec::new();
        for r in roots {
            stack.push(r.as_edge(m));
        }
        let mut count = 0u64;
        while let Some(e) = stack.pop() {
            if let Node::Inner(n) = m.get_node(e) {
                if seen.insert(e.node_id()) {
                    count += 1;
                    stack.extend(n.children());
                }
            }
        }
        count
    })
}

/// Whether `f` is a terminal other than false / the empty set.
pub fn is_true_terminal<F: BooleanFunction>(f: &F) -> bool {
    top(f).1.is_none() && f.satisfiable()
}
