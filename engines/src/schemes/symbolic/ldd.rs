//! The `mdd` engine's default encoding: a list decision diagram (Sylvan's
//! LDD, as LTSmin's `ldd` backend), our own, since oxidd has no
//! multi-valued diagram. One level per slot, values as edges: a node is
//! `(value, down, right)`, `down` the set of suffixes after that value,
//! `right` the node of the next larger value at the same level (or the
//! empty set). Terminals: [`EMPTY`] (no vector) and [`END`] (the empty
//! vector). Nodes are hash-consed (one unique table, [`unique`]), so equal sets are
//! equal ids and a node count is the LDD's node count (one per present
//! value of a slot under a given prefix, as the one-hot ZBDD's).
//!
//! A set of states has one level per slot. A relation of group `g` has,
//! for each slot of its read ∪ write set in order, a level with the
//! current value, followed by a level with the next value if the group
//! writes the slot (Sylvan's read/write levels of `relprod`); its learned
//! projections have the current levels only. The relational product walks
//! the set and the relation together, copies the slots outside the group
//! and stops below the group's last slot; an image starts at the group's
//! top slot, from the sets there that hold a value the relation reads,
//! and rebuilds their ancestors only ([`ldtop`]).
//!
//! Values are edges, so any 32-bit value fits: the layout has no widths
//! and this encoding never re-encodes (counters cost one node per value
//! present, not a variable per value of a domain).
//!
//! One operation cache (union, difference, projection, image) keyed by
//! node ids, kept across calls, direct-mapped and lossy as Sylvan's,
//! growing with the nodes in use ([`opcache`]).
//!
//! Garbage collection ([`Diagram::collect`]): the search offers its live
//! roots (visited set, frontier, relations, learned projections and the
//! sets its current step holds) at points between operations; once the
//! nodes in use reach the trigger, the nodes reachable from the roots are
//! marked, the others go on a free list that [`Store::make`] reuses (ids
//! of live nodes never move), the unique table keeps the live nodes only,
//! and the operation cache keeps the entries whose operands and result
//! are all live (an entry naming a freed id could otherwise answer for a
//! new node that reuses it). The trigger is [`COLLECT_FLOOR`] nodes (or
//! half the node capacity, if less), then twice the live nodes after a
//! collection (at least that floor, at most the capacity): the store, its
//! unique table and the operation cache stay near the live nodes instead
//! of filling memory with garbage (issue 36: with the trigger at half a
//! capacity of 2²⁸ nodes no run collected, and waiting on the memory of
//! cache probes was 42% of BridgeAndVehicles-PT-V10P10N10's time). A
//! step that fills the table between two such points still ends the run
//! as `table_full`.
//!
//! Owns the node store of one search and every set in it. Must not know
//! models, strategies or learning.

use super::diagram::{set_algebra, DdResult, Diagram, FxHashMap, GroupShape, OutOfNodes, Support};
use super::layout::Layout;
use pins::Value;
use opcache::OpCache;
use std::cell::{RefCell, RefMut};
use ldtop::Above;
use unique::{node_hash, Probe, Unique};

/// A node id: [`EMPTY`], [`END`] or an inner node.
pub type Id = u32;
/// The empty set.
pub const EMPTY: Id = 0;
/// Nodes in use at which the first collection runs, and the least
/// trigger after one (see the module doc).
const COLLECT_FLOOR: usize = 1 << 21;
/// The set holding the empty vector (below the last level).
pub const END: Id = 1;
/// In a merged relation ([`ddmerge`]), the value of a slot that the
/// member group does not touch: any current value, kept as the next.
pub const ANY: Value = Value::MAX;

#[path = "ddmerge.rs"]
mod ddmerge;
#[path = "ldtop.rs"]
mod ldtop;
#[path = "opcache.rs"]
mod opcache;
#[path = "unique.rs"]
mod unique;

/// One LDD node.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Node {
    value: Value,
    down: Id,
    right: Id,
}

impl Node {
    /// Its unique-table hash.
    fn hash(self) -> u64 {
        node_hash([self.value, self.down, self.right])
    }
}

/// Level kinds of a group's relation, from one slot on.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    /// Not in the group: copied.
    Skip,
    /// Read only: one level, next = current.
    Read,
    /// Written: a current level and a next level.
    Write,
}

/// Which operation a cache entry belongs to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    Union,
    Minus,
    /// Image by group `g`'s relation from slot `l`.
    Image(u32, u32),
    /// Suffixes below slot `t` from slot `l`.
    Suffixes(u32, u32),
    /// Whether group `g`'s relation from slot `l` has a pair from a set
    /// (result [`EMPTY`] or [`END`]).
    Enables(u32, u32),
}

impl Op {
    /// The operation as one word: tag, group, slot (slots below 2²⁴).
    fn word(self) -> u64 {
        let (tag, g, l) = match self {
            Op::Union => (1, 0, 0),
            Op::Minus => (2, 0, 0),
            Op::Image(g, l) => (4, g, l),
            Op::Suffixes(t, l) => (6, t, l),
            Op::Enables(g, l) => (7, g, l),
        };
        (tag << 56) | (u64::from(g) << 24) | u64::from(l & 0xff_ffff)
    }
}

/// The memo of one walk: (set, second operand, slot) → result.
type Walks = FxHashMap<(Id, Id, u32), Id>;

struct Store {
    nodes: Vec<Node>,
    unique: Unique,
    /// The operation cache ([`opcache`]).
    cache: OpCache,
    capacity: usize,
    /// Freed ids, reused before the node vector grows.
    free: Vec<Id>,
    /// Nodes in use at which the next collection runs.
    collect_at: usize,
    /// Collections so far.
    collections: u64,
    /// Mark bits and the ids marked ([`Store::mark`]).
    marks: Vec<u64>,
    marked: Vec<Id>,
}

pub struct Ldd {
    layout: Layout,
    store: RefCell<Store>,
    /// Per group, then per merged class ([`ddmerge`], index the group
    /// count plus the class), the role of every slot.
    roles: Vec<Vec<Role>>,
    /// Per group, then per class, the slot after its last one (0 for
    /// none).
    ends: Vec<usize>,
    /// Groups of one top slot, two or more, whose relations are also
    /// kept merged ([`ddmerge`]).
    classes: Vec<Vec<usize>>,
    /// The memo of [`Ldd::unseen_rec`], emptied per call but kept: grown
    /// from empty for every group's walk, its rehashing was 14% of
    /// BridgeAndVehicles-PT-V20P20N20's time.
    walks: RefCell<Walks>,
    /// The levels above the slots of the set last imaged ([`ldtop`]),
    /// shared by the groups applied to it.
    above: RefCell<Above>,
}

impl Store {
    fn node(&self, id: Id) -> Node {
        self.nodes[id as usize]
    }

    /// The node `(value, down, right)`, or `right` where `down` is empty.
    fn make(&mut self, value: Value, down: Id, right: Id) -> DdResult<Id> {
        if down == EMPTY {
            return Ok(right);
        }
        let n = Node { value, down, right };
        let h = n.hash();
        let at = match self.unique.find(h, |id| self.nodes[id as usize] == n) {
            Probe::Found(id) => return Ok(id),
            Probe::Vacant(at) => at,
        };
        if self.in_use() >= self.capacity {
            return Err(OutOfNodes);
        }
        let id = match self.free.pop() {
            Some(id) => {
                self.nodes[id as usize] = n;
                id
            }
            None => {
                self.nodes.push(n);
                (self.nodes.len() - 1) as Id
            }
        };
        let nodes = &self.nodes;
        self.unique.insert(at, h, id, |id| nodes[id as usize].hash());
        self.cache.fit(self.unique.len());
        Ok(id)
    }

    /// Inner nodes in use (terminals' placeholders excluded).
    fn in_use(&self) -> usize {
        self.nodes.len() - 2 - self.free.len()
    }

    /// Sets the bits of `marks` for the inner nodes reachable from `roots`
    /// and lists them in `marked`; returns how many. Both buffers stay
    /// between calls and [`Store::unmark`] clears the marked words only,
    /// so counting a small set costs its own nodes, not a bit vector as
    /// long as the store (zeroed at every sampling point before: a
    /// chaining sweep per value of a counter paid it every sweep).
    fn mark(&mut self, roots: impl IntoIterator<Item = Id>) -> u64 {
        let words = self.nodes.len().div_ceil(64);
        if self.marks.len() < words {
            self.marks.resize(words, 0);
        }
        let mut stack: Vec<Id> = roots.into_iter().collect();
        while let Some(id) = stack.pop() {
            let (word, bit) = (id as usize / 64, 1u64 << (id % 64));
            if id > END && self.marks[word] & bit == 0 {
                self.marks[word] |= bit;
                self.marked.push(id);
                let n = self.node(id);
                stack.push(n.down);
                stack.push(n.right);
            }
        }
        self.marked.len() as u64
    }

    /// Clears what [`Store::mark`] set.
    fn unmark(&mut self) {
        for id in self.marked.drain(..) {
            self.marks[id as usize / 64] = 0;
        }
    }

    /// Frees every inner node no root reaches (see the module doc).
    fn collect(&mut self, roots: impl IntoIterator<Item = Id>) {
        let live = self.mark(roots) as usize;
        let marks = std::mem::take(&mut self.marks);
        let alive = |id: Id| id <= END || marks[id as usize / 64] & (1 << (id % 64)) != 0;
        self.free.clear();
        for id in (2..self.nodes.len() as Id).rev() {
            if !alive(id) {
                self.nodes[id as usize] = Node { value: 0, down: EMPTY, right: EMPTY };
                self.free.push(id);
            }
        }
        let live_ids = (2..self.nodes.len() as Id).filter(|&id| alive(id)).collect();
        let nodes = &self.nodes;
        self.unique.rebuild(live_ids, |id| nodes[id as usize].hash());
        self.cache
            .retain(|ab, x| alive((ab >> 32) as Id) && alive(ab as Id) && alive(x));
        self.marks = marks;
        self.unmark();
        self.collect_at = (2 * live).clamp(COLLECT_FLOOR.min(self.capacity / 2), self.capacity);
        self.collections += 1;
    }

    /// The suffix set after value `x` in the level `id`, if `x` is there.
    fn below(&self, mut id: Id, x: Value) -> Option<Id> {
        while id > END && self.node(id).value < x {
            id = self.node(id).right;
        }
        (id > END && self.node(id).value == x).then(|| self.node(id).down)
    }

    /// The entries `(value, down)` of a level, values increasing.
    fn entries(&self, mut id: Id) -> Vec<(Value, Id)> {
        let mut out = Vec::new();
        while id > END {
            let n = self.node(id);
            out.push((n.value, n.down));
            id = n.right;
        }
        out
    }

    /// The level with `entries` (values increasing and distinct).
    fn level(&mut self, entries: &[(Value, Id)]) -> DdResult<Id> {
        let mut acc = EMPTY;
        for &(v, d) in entries.iter().rev() {
            acc = self.make(v, d, acc)?;
        }
        Ok(acc)
    }

    /// The key's two words.
    fn words((op, a, b): (Op, Id, Id)) -> (u64, u64) {
        (op.word(), (u64::from(a) << 32) | u64::from(b))
    }

    fn cached(&self, key: (Op, Id, Id)) -> Option<Id> {
        let (w, ab) = Store::words(key);
        self.cache.get(w, ab)
    }

    fn remember(&mut self, key: (Op, Id, Id), id: Id) {
        let (w, ab) = Store::words(key);
        self.cache.put(w, ab, id);
    }

    /// The union, along both levels' value lists at once (as Sylvan's:
    /// each rest of a list is an operation of its own, cached, and no
    /// list is copied).
    fn union(&mut self, a: Id, b: Id) -> DdResult<Id> {
        if a == b || b == EMPTY {
            return Ok(a);
        }
        if a == EMPTY {
            return Ok(b);
        }
        let key = (Op::Union, a.min(b), a.max(b));
        if let Some(x) = self.cached(key) {
            return Ok(x);
        }
        let (na, nb) = (self.node(a), self.node(b));
        let x = if na.value < nb.value {
            let right = self.union(na.right, b)?;
            self.make(na.value, na.down, right)?
        } else if nb.value < na.value {
            let right = self.union(a, nb.right)?;
            self.make(nb.value, nb.down, right)?
        } else {
            let down = self.union(na.down, nb.down)?;
            let right = self.union(na.right, nb.right)?;
            self.make(na.value, down, right)?
        };
        self.remember(key, x);
        Ok(x)
    }

    /// The difference, along both value lists as [`Store::union`].
    fn minus(&mut self, a: Id, b: Id) -> DdResult<Id> {
        if a == b || a == EMPTY {
            return Ok(EMPTY);
        }
        if b == EMPTY {
            return Ok(a);
        }
        let key = (Op::Minus, a, b);
        if let Some(x) = self.cached(key) {
            return Ok(x);
        }
        let (na, nb) = (self.node(a), self.node(b));
        let x = if na.value < nb.value {
            let right = self.minus(na.right, b)?;
            self.make(na.value, na.down, right)?
        } else if nb.value < na.value {
            self.minus(a, nb.right)?
        } else {
            let down = self.minus(na.down, nb.down)?;
            let right = self.minus(na.right, nb.right)?;
            self.make(na.value, down, right)?
        };
        self.remember(key, x);
        Ok(x)
    }

    /// Exact number of vectors (`None` past `u128`).
    fn count(&self, id: Id, memo: &mut FxHashMap<Id, Option<u128>>) -> Option<u128> {
        if id <= END {
            return Some(u128::from(id));
        }
        if let Some(&c) = memo.get(&id) {
            return c;
        }
        let mut c = Some(0u128);
        for (_, d) in self.entries(id) {
            c = c.and_then(|c| c.checked_add(self.count(d, memo)?));
        }
        memo.insert(id, c);
        c
    }
}

impl Ldd {
    /// `merge`: the groups of one top slot also form classes
    /// ([`ddmerge`]).
    pub fn new(layout: Layout, shapes: &[GroupShape], capacity: usize, merge: bool) -> DdResult<Ldd> {
        let k = layout.width.len();
        let roles = shapes
            .iter()
            .map(|g| {
                (0..k)
                    .map(|i| {
                        if g.write.binary_search(&i).is_ok() {
                            Role::Write
                        } else if g.proj.binary_search(&i).is_ok() {
                            Role::Read
                        } else {
                            Role::Skip
                        }
                    })
                    .collect()
            })
            .collect();
        let mut roles: Vec<Vec<Role>> = roles;
        let mut ends: Vec<usize> = shapes
            .iter()
            .map(|g| g.proj.last().map_or(0, |&l| l + 1))
            .collect();
        let classes = if merge { ddmerge::classes(shapes) } else { Vec::new() };
        for c in &classes {
            roles.push(ddmerge::class_roles(&roles, c));
            ends.push(c.iter().map(|&g| ends[g]).max().unwrap_or(0));
        }
        // At most as many cache entries as an eighth of the node capacity,
        // a power of two, at most 2²⁴ (16M entries of 24 bytes); it grows
        // to that with the nodes in use.
        let entries = (capacity / 8).clamp(1 << 12, 1 << 24).next_power_of_two();
        let store = Store {
            // Two placeholders for the terminals' ids.
            nodes: vec![Node { value: 0, down: EMPTY, right: EMPTY }; 2],
            unique: Unique::new(),
            cache: OpCache::new(entries),
            capacity: capacity.max(16),
            free: Vec::new(),
            collect_at: COLLECT_FLOOR.min(capacity.max(16) / 2),
            collections: 0,
            marks: Vec::new(),
            marked: Vec::new(),
        };
        Ok(Ldd {
            layout,
            store: RefCell::new(store),
            roles,
            ends,
            classes,
            walks: RefCell::new(Walks::default()),
            above: RefCell::new(Above::new(EMPTY, u64::MAX)),
        })
    }

    /// The levels of `s` above the slots ([`ldtop`]): those kept from the
    /// last call on `s` while the store has not collected since, built
    /// anew otherwise.
    fn above_of(&self, st: &Store, s: Id) -> RefMut<'_, Above> {
        let mut above = self.above.borrow_mut();
        if !above.is_of(s, st.collections) {
            *above = Above::new(s, st.collections);
        }
        above
    }

    /// Group (or class) `g`'s top slot, its first read or written one.
    fn top(&self, g: usize) -> Option<usize> {
        self.roles[g].iter().position(|&r| r != Role::Skip)
    }

    /// The projections of `s` (over slots `≥ l`) on group `g`'s slots that
    /// `seen` lacks, walking both at once: where `seen` ends, nothing is
    /// built, so a set whose projections are all learned costs a walk of
    /// its nodes above the group's last slot and no union. With `seen`
    /// empty, the projection. Memoised in `memo`, one map per call, not
    /// in the operation cache: `seen` grows with every learned batch, so
    /// an entry is seldom asked for again by a later call, and the lookups
    /// of a walk stay in a small map instead of missing a large table
    /// (issue 36: 75% of BridgeAndVehicles-PT-V20P10N50's time was this
    /// walk, most of it waiting on the cache's memory).
    fn unseen_rec(
        &self,
        st: &mut Store,
        (s, seen): (Id, Id),
        g: usize,
        l: usize,
        memo: &mut Walks,
    ) -> DdResult<Id> {
        if s == EMPTY {
            return Ok(EMPTY);
        }
        if l >= self.ends[g] {
            return Ok(if seen == EMPTY { END } else { EMPTY });
        }
        let key = (s, seen, l as u32);
        if let Some(&x) = memo.get(&key) {
            return Ok(x);
        }
        // Along the lists, `s`'s and `seen`'s at once (issue 36: a vector
        // of entries per node, and a memo grown from empty per call, were
        // a third of the walk on BridgeAndVehicles-PT-V20P20N20).
        let mut a = s;
        let x = if self.roles[g][l] == Role::Skip {
            let mut acc = EMPTY;
            while a > END {
                let n = st.node(a);
                let p = self.unseen_rec(st, (n.down, seen), g, l + 1, memo)?;
                acc = st.union(acc, p)?;
                a = n.right;
            }
            acc
        } else {
            let mut out = Vec::new();
            let mut b = seen;
            while a > END {
                let n = st.node(a);
                while b > END && st.node(b).value < n.value {
                    b = st.node(b).right;
                }
                let below = if b > END && st.node(b).value == n.value {
                    st.node(b).down
                } else {
                    EMPTY
                };
                let x = self.unseen_rec(st, (n.down, below), g, l + 1, memo)?;
                if x != EMPTY {
                    out.push((n.value, x));
                }
                a = n.right;
            }
            st.level(&out)?
        };
        memo.insert(key, x);
        Ok(x)
    }

    /// The suffixes below slot `t` of `s` (over slots `≥ l`).
    fn suffixes_rec(&self, st: &mut Store, s: Id, t: usize, l: usize) -> DdResult<Id> {
        if l >= t || s == EMPTY {
            return Ok(s);
        }
        let key = (Op::Suffixes(t as u32, l as u32), s, EMPTY);
        if let Some(x) = st.cached(key) {
            return Ok(x);
        }
        let (mut acc, mut a) = (EMPTY, s);
        while a > END {
            let n = st.node(a);
            let x = self.suffixes_rec(st, n.down, t, l + 1)?;
            acc = st.union(acc, x)?;
            a = n.right;
        }
        st.remember(key, acc);
        Ok(acc)
    }

    /// Whether some vector of `s` (over slots `≥ l`) has a successor by
    /// `r` (group `g`'s relation from slot `l`).
    fn enables_rec(&self, st: &mut Store, s: Id, r: Id, g: usize, l: usize) -> bool {
        if s == EMPTY || r == EMPTY {
            return false;
        }
        if l >= self.ends[g] {
            return true;
        }
        let key = (Op::Enables(g as u32, l as u32), s, r);
        if let Some(x) = st.cached(key) {
            return x == END;
        }
        let role = self.roles[g][l];
        let rel = rel_entries(st, r, role);
        let mut found = false;
        for (v, d) in st.entries(s) {
            found = if role == Role::Skip {
                self.enables_rec(st, d, r, g, l + 1)
            } else {
                matches(&rel, v).any(|(_, rd)| self.enables_rec(st, d, rd, g, l + 1))
            };
            if found {
                break;
            }
        }
        st.remember(key, if found { END } else { EMPTY });
        found
    }

    /// Successors of `s` (over slots `≥ l`) by `r`, group `g`'s relation
    /// from slot `l` on.
    fn image_rec(&self, st: &mut Store, s: Id, r: Id, g: usize, l: usize) -> DdResult<Id> {
        if s == EMPTY || r == EMPTY {
            return Ok(EMPTY);
        }
        if l >= self.ends[g] {
            return Ok(s);
        }
        let key = (Op::Image(g as u32, l as u32), s, r);
        if let Some(x) = st.cached(key) {
            return Ok(x);
        }
        let mut out: Vec<(Value, Id)> = Vec::new();
        let rel = rel_entries(st, r, self.roles[g][l]);
        // Along `s`'s list, no vector of its entries (malloc and free
        // were a tenth of BridgeAndVehicles-PT-V10P10N10's instructions,
        // these vectors among them).
        let mut a = s;
        while a > END {
            let Node { value: v, down: d, right } = st.node(a);
            a = right;
            if self.roles[g][l] == Role::Skip {
                out.push((v, self.image_rec(st, d, r, g, l + 1)?));
                continue;
            }
            for (w, rd) in matches(&rel, v) {
                let x = self.image_rec(st, d, rd, g, l + 1)?;
                match out.binary_search_by_key(&w, |e| e.0) {
                    Ok(i) => out[i].1 = st.union(out[i].1, x)?,
                    Err(i) => out.insert(i, (w, x)),
                }
            }
        }
        let x = st.level(&out)?;
        st.remember(key, x);
        Ok(x)
    }

    /// Pairs (vector of `s`, successor by `r`) from slot `l` on.
    fn pairs_rec(
        &self,
        st: &Store,
        (s, r): (Id, Id),
        g: usize,
        l: usize,
        memo: &mut FxHashMap<(Id, Id, usize), Option<u128>>,
        states: &mut FxHashMap<Id, Option<u128>>,
    ) -> Option<u128> {
        if s == EMPTY || r == EMPTY {
            return Some(0);
        }
        if l >= self.ends[g] {
            return st.count(s, states);
        }
        if let Some(&c) = memo.get(&(s, r, l)) {
            return c;
        }
        // Along the lists, nothing allocated (issue 36: this count per
        // group was a third of PhilosophersDyn-PT-10's run once learning
        // got cheap).
        let role = self.roles[g][l];
        let mut total = Some(0u128);
        let mut add = |c: Option<u128>| total = total.and_then(|t| t.checked_add(c?));
        let (mut a, mut b) = (s, r);
        while a > END {
            let na = st.node(a);
            if role == Role::Skip {
                add(self.pairs_rec(st, (na.down, r), g, l + 1, memo, states));
                a = na.right;
                continue;
            }
            if b <= END {
                break;
            }
            let nb = st.node(b);
            if na.value < nb.value {
                a = na.right;
            } else if nb.value < na.value {
                b = nb.right;
            } else {
                if role == Role::Read {
                    add(self.pairs_rec(st, (na.down, nb.down), g, l + 1, memo, states));
                } else {
                    let mut w = nb.down;
                    while w > END {
                        let nw = st.node(w);
                        add(self.pairs_rec(st, (na.down, nw.down), g, l + 1, memo, states));
                        w = nw.right;
                    }
                }
                a = na.right;
                b = nb.right;
            }
        }
        memo.insert((s, r, l), total);
        total
    }
}

/// The set of `rows` (sorted, distinct, of one length) from column `col`
/// on, a trie built bottom-up: one level per column.
fn trie(st: &mut Store, rows: &[Vec<Value>], col: usize) -> DdResult<Id> {
    let Some(first) = rows.first() else {
        return Ok(EMPTY);
    };
    if col == first.len() {
        return Ok(END);
    }
    let mut entries = Vec::new();
    let mut start = 0;
    while start < rows.len() {
        let v = rows[start][col];
        let end = start + rows[start..].partition_point(|r| r[col] == v);
        entries.push((v, trie(st, &rows[start..end], col + 1)?));
        start = end;
    }
    st.level(&entries)
}

/// The (next value, rest) of the pairs of `rel` ([`rel_entries`]) whose
/// current value is `v`, then of those whose current value is [`ANY`]
/// (a merged relation's untouched slot: the next value is `v`).
fn matches(rel: &[(Value, Value, Id)], v: Value) -> impl Iterator<Item = (Value, Id)> + '_ {
    let lo = rel.partition_point(|e| e.0 < v);
    let exact = rel[lo..].iter().take_while(move |e| e.0 == v);
    let any = rel[rel.partition_point(|e| e.0 < ANY)..].iter();
    let any = any.filter(move |_| v != ANY);
    exact
        .chain(any)
        .map(move |&(_, w, d)| (if w == ANY { v } else { w }, d))
}

/// The pairs (current, next, rest) of a relation level with role `role`
/// (empty for [`Role::Skip`]).
fn rel_entries(st: &Store, r: Id, role: Role) -> Vec<(Value, Value, Id)> {
    let mut out = Vec::new();
    match role {
        Role::Skip => {}
        Role::Read => out.extend(st.entries(r).into_iter().map(|(v, d)| (v, v, d))),
        Role::Write => {
            for (v, rest) in st.entries(r) {
                out.extend(st.entries(rest).into_iter().map(|(w, d)| (v, w, d)));
            }
        }
    }
    out
}

impl Diagram for Ldd {
    type Set = Id;
    set_algebra!(Id, |d, a, b| empty EMPTY, union d.store.borrow_mut().union(*a, *b),
        minus d.store.borrow_mut().minus(*a, *b), is_empty *a == EMPTY);

    fn state(&self, v: &[Value]) -> DdResult<Id> {
        let mut st = self.store.borrow_mut();
        let mut acc = END;
        for &x in v.iter().rev() {
            acc = st.make(x, acc, EMPTY)?;
        }
        Ok(acc)
    }

    fn project(&self, s: &Id, g: usize, slot: usize) -> DdResult<Id> {
        let mut memo = Walks::default();
        let st = &mut self.store.borrow_mut();
        self.unseen_rec(st, (*s, EMPTY), g, slot, &mut memo)
    }

    fn suffixes(&self, s: &Id, slot: usize) -> DdResult<Option<Id>> {
        Ok(Some(self.suffixes_rec(&mut self.store.borrow_mut(), *s, slot, 0)?))
    }

    /// On the suffixes of `s` below the group's top slot, walked from
    /// slot 0 with the operation cache, whose entries stay valid while the
    /// frontier grows (issue 36: answered instead from [`ldtop`]'s levels,
    /// which are rebuilt for every new set, per set of the top slot, per
    /// distinct suffix under the values read, or on the union of the top
    /// slot's sets, the enabling tests and images of
    /// BridgeAndVehicles-PT-V10P10N10 took 27%, 19% and 40% more
    /// instructions).
    fn enables(&self, s: &Id, rel: &Id, g: usize) -> bool {
        let st = &mut self.store.borrow_mut();
        let t = self.top(g).unwrap_or(0);
        // Out of nodes for the suffixes: the image answers (and reports it).
        match self.suffixes_rec(st, *s, t, 0) {
            Ok(below) => self.enables_rec(st, below, *rel, g, t),
            Err(OutOfNodes) => true,
        }
    }

    fn classes(&self) -> &[Vec<usize>] {
        &self.classes
    }

    fn lift(&self, rel: &Id, g: usize, c: usize) -> DdResult<Id> {
        let u = self.roles.len() - self.classes.len() + c;
        let mut memo = FxHashMap::default();
        self.lift_rec(&mut self.store.borrow_mut(), (*rel, g, u, 0), &mut memo)
    }

    fn unseen(&self, s: &Id, seen: &Id, g: usize, slot: usize) -> DdResult<Id> {
        let mut memo = self.walks.borrow_mut();
        // Emptying costs the capacity: a map grown past a million entries
        // is dropped instead.
        if memo.capacity() > 1 << 20 {
            *memo = Walks::default();
        }
        memo.clear();
        let st = &mut self.store.borrow_mut();
        self.unseen_rec(st, (*s, *seen), g, slot, &mut memo)
    }

    fn for_each_vector(&self, s: &Id, slots: &[usize], f: &mut dyn FnMut(&[Value])) {
        fn rec(st: &Store, s: Id, k: usize, values: &mut Vec<Value>, f: &mut dyn FnMut(&[Value])) {
            if k == values.len() {
                if s == END {
                    f(values);
                }
                return;
            }
            for (v, d) in st.entries(s) {
                values[k] = v;
                rec(st, d, k + 1, values, f);
            }
        }
        let st = self.store.borrow();
        rec(&st, *s, 0, &mut vec![0; slots.len()], f);
    }

    fn relation(&self, g: &GroupShape, pairs: &[(Vec<Value>, Vec<Value>)]) -> DdResult<Id> {
        // Rows: per slot of the group, its current value, then its next
        // value if written; a trie built bottom-up from the sorted rows.
        let mut rows: Vec<Vec<Value>> = pairs
            .iter()
            .map(|(cur, next)| {
                let mut row = Vec::with_capacity(cur.len() + next.len());
                let mut w = 0;
                for (&i, &x) in g.proj.iter().zip(cur) {
                    row.push(x);
                    if g.write.get(w) == Some(&i) {
                        row.push(next[w]);
                        w += 1;
                    }
                }
                row
            })
            .collect();
        rows.sort_unstable();
        rows.dedup();
        trie(&mut self.store.borrow_mut(), &rows, 0)
    }

    fn contains(&self, s: &Id, v: &[Value]) -> bool {
        let st = self.store.borrow();
        v.iter().try_fold(*s, |id, &x| st.below(id, x)) == Some(END)
    }

    /// One walk down the relation's levels (as [`Ldd::relation`] lays
    /// out a row), no node built.
    fn relates(&self, rel: &Id, g: &GroupShape, from: &[Value], to: &[Value]) -> bool {
        let st = self.store.borrow();
        let mut id = *rel;
        let mut w = 0;
        for &i in &g.proj {
            let Some(down) = st.below(id, from[i]) else {
                return false;
            };
            id = down;
            if g.write.get(w) == Some(&i) {
                w += 1;
                let Some(down) = st.below(id, to[i]) else {
                    return false;
                };
                id = down;
            }
        }
        id == END
    }

    fn states(&self, vs: &[Vec<Value>]) -> DdResult<Id> {
        trie(&mut self.store.borrow_mut(), vs, 0)
    }

    /// From the group's top slot ([`ldtop`]): the levels above it are
    /// walked once per set, not once per group.
    fn image(&self, s: &Id, rel: &Id, g: usize) -> DdResult<Id> {
        let st = &mut self.store.borrow_mut();
        let Some(t) = self.top(g) else {
            return self.image_rec(st, *s, *rel, g, 0);
        };
        let mut above = self.above_of(st, *s);
        self.image_from_top(st, &mut above, *rel, g, t)
    }

    fn count_states(&self, s: &Id) -> Option<u128> {
        self.store.borrow().count(*s, &mut FxHashMap::default())
    }

    fn count_pairs(&self, s: &Id, rel: &Id, g: usize) -> DdResult<Option<u128>> {
        let st = self.store.borrow();
        let (mut memo, mut states) = (FxHashMap::default(), FxHashMap::default());
        Ok(self.pairs_rec(&st, (*s, *rel), g, 0, &mut memo, &mut states))
    }

    /// Issue 36: one walk of `s` per group from the root cost
    /// PhilosophersDyn-PT-10 (2,310 groups, 193,122 nodes) most of its
    /// summary; the prefixes above each level are counted once
    /// ([`Above::prefix_counts`]) and each group walks from its top slot
    /// only.
    fn count_pairs_each(&self, s: &Id, rels: &[(usize, &Id)]) -> Vec<Option<u128>> {
        let st = self.store.borrow();
        let top = |g: usize| self.top(g).unwrap_or(0);
        let deepest = rels.iter().map(|&(g, _)| top(g)).max().unwrap_or(0);
        let heads = self.above_of(&st, *s).prefix_counts(&st, deepest);
        let mut states = FxHashMap::default();
        let mut memo = FxHashMap::default();
        rels.iter()
            .map(|&(g, r)| {
                // One map for every group, emptied: its capacity stays.
                memo.clear();
                let mut total = Some(0u128);
                for &(h, paths) in &heads[top(g)] {
                    let c = self.pairs_rec(&st, (h, *r), g, top(g), &mut memo, &mut states);
                    let add = c.and_then(|c| paths.and_then(|p| p.checked_mul(c)));
                    total = total.and_then(|t| t.checked_add(add?));
                }
                total
            })
            .collect()
    }

    fn shared_nodes(&self, roots: &[&Id]) -> u64 {
        // One bit per node of the store: cheaper than hashing each id.
        let mut st = self.store.borrow_mut();
        let count = st.mark(roots.iter().map(|&&r| r));
        st.unmark();
        count
    }

    fn collection_due(&self) -> bool {
        let st = self.store.borrow();
        st.in_use() >= st.collect_at
    }

    fn collect(&self, roots: &[&Id]) -> u64 {
        let mut st = self.store.borrow_mut();
        st.collect(roots.iter().map(|&&r| r));
        st.collections
    }

    fn entries(&self, s: &Id, _slot: usize) -> Vec<(Value, Id)> {
        self.store.borrow().entries(*s)
    }

    fn set_of_entries(&self, _slot: usize, entries: &[(Value, Id)]) -> DdResult<Id> {
        self.store.borrow_mut().level(entries)
    }

    fn rel_entries(&self, r: &Id, _slot: usize, writes: bool) -> Vec<(Value, Value, Id)> {
        let role = if writes { Role::Write } else { Role::Read };
        rel_entries(&self.store.borrow(), *r, role)
    }

    fn transfer(&self, old: &Ldd, sets: &[(&Id, Support)]) -> DdResult<Vec<Id>> {
        // Values are edges: the layout never widens, but a copy between
        // stores is still exact.
        fn copy(from: &Store, to: &mut Store, id: Id, memo: &mut FxHashMap<Id, Id>) -> DdResult<Id> {
            if id <= END {
                return Ok(id);
            }
            if let Some(&x) = memo.get(&id) {
                return Ok(x);
            }
            let n = from.node(id);
            let down = copy(from, to, n.down, memo)?;
            let right = copy(from, to, n.right, memo)?;
            let x = to.make(n.value, down, right)?;
            memo.insert(id, x);
            Ok(x)
        }
        let from = old.store.borrow();
        let mut to = self.store.borrow_mut();
        let mut memo = FxHashMap::default();
        sets.iter()
            .map(|&(s, _)| copy(&from, &mut to, *s, &mut memo))
            .collect()
    }
}

/// Sets the LDD's tests build and read (here and in the modules below).
#[cfg(test)]
mod test_sets {
    use super::{Diagram, Id, Ldd};
    use pins::Value;

    /// The vectors of `s` over slots `0..k`, in order.
    pub(super) fn vectors(d: &Ldd, s: Id, k: usize) -> Vec<Vec<Value>> {
        let mut out = Vec::new();
        d.for_each_vector(&s, &(0..k).collect::<Vec<_>>(), &mut |v| out.push(v.to_vec()));
        out
    }

    /// A scattered subset (about 2 in 5) of the 3^k vectors of `k ≤ 5`
    /// slots valued 0..3, another one for each `seed`; sorted.
    pub(super) fn scattered(k: usize, seed: u32) -> Vec<Vec<Value>> {
        let mut states: Vec<Vec<Value>> = (0..3u32.pow(5))
            .filter(|i| (i * 2_654_435_761u32.wrapping_add(seed)).rotate_left(seed % 29) % 5 < 2)
            .map(|i| (0..k).map(|j| (i / 3u32.pow(j as u32)) % 3).collect())
            .collect();
        states.sort_unstable();
        states
    }
}

#[cfg(test)]
mod tests {
    use super::super::layout::Encoding;
    use super::*;

    /// The set of `vectors`, one state and one union at a time.
    fn set_of(d: &Ldd, vectors: &[Vec<Value>]) -> Id {
        vectors.iter().fold(EMPTY, |acc, v| {
            let one = d.state(v).unwrap();
            d.union(&acc, &one).unwrap()
        })
    }

    fn vectors(d: &Ldd, s: Id) -> Vec<Vec<Value>> {
        super::test_sets::vectors(d, s, 3)
    }

    #[test]
    fn collection_frees_the_unreached_nodes_and_keeps_the_roots_exact() {
        let layout = Layout::for_initial(Encoding::List, &[0, 0, 0]);
        let d = Ldd::new(layout, &[], 1 << 16, false).unwrap();
        let grid = |m: Value| -> Vec<Vec<Value>> {
            (0..m * m * m)
                .map(|i| vec![i % m, (i / m) % m, i / (m * m)])
                .filter(|v| (v[0] + 2 * v[1] + v[2]) % 3 != 0)
                .collect()
        };
        let (kept_vectors, dropped_vectors) = (grid(9), grid(12));
        let kept = set_of(&d, &kept_vectors);
        let dropped = set_of(&d, &dropped_vectors);
        let before = d.store.borrow().in_use();
        let live = d.shared_nodes(&[&kept]);
        assert!(before > live as usize, "garbage: {before} in use, {live} live");
        d.store.borrow_mut().collect([kept]);
        assert_eq!(d.store.borrow().in_use(), live as usize);
        // The root is unchanged, and hash-consing still finds its nodes:
        // building it again gives the same id without a new node.
        assert_eq!(vectors(&d, kept), kept_vectors.iter().cloned().collect::<std::collections::BTreeSet<_>>().into_iter().collect::<Vec<_>>());
        assert_eq!(set_of(&d, &kept_vectors), kept);
        // Freed ids are reused, and no cached operation answers with one of
        // them: the dropped set built again is exact.
        let again = set_of(&d, &dropped_vectors);
        assert!(d.store.borrow().nodes.len() <= before + 2);
        assert_eq!(d.count_states(&again), Some(dropped_vectors.len() as u128));
        let both = d.union(&kept, &again).unwrap();
        let minus = d.minus(&both, &kept).unwrap();
        let expect: std::collections::BTreeSet<_> = dropped_vectors
            .iter()
            .filter(|v| !kept_vectors.contains(v))
            .cloned()
            .collect();
        assert_eq!(vectors(&d, minus), expect.into_iter().collect::<Vec<_>>());
        let _ = dropped;
    }
}
