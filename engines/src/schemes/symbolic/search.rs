//! The symbolic search: reachability over a [`Diagram`] with relations
//! learned per group ([`super::learn`]), in one of four strategies:
//!
//! - `bfs`: each level applies every group to the frontier; the new
//!   states (minus the visited set) are the next frontier.
//! - `chaining`: one sweep applies the groups in order, each to the
//!   frontier grown by the groups before it in the same sweep.
//! - `saturation` (default): the saturation order applied to whole sets,
//!   as LTSmin's `sat-like` strategy does: from the deepest top slot (first
//!   slot of a group's read ∪ write set) upwards, the groups of a slot are
//!   applied to the visited set and the result is closed by chaining over
//!   every group whose top is at or below that slot.
//! - `node-saturation`: Ciardo's node-wise saturation (Ciardo, Marmorstein,
//!   Siminiceanu 2001/2003) over the slot-level view of the diagram
//!   ([`Diagram::entries`]). `sat(l, s)` saturates the children of the set
//!   `s` (suffixes over slots `≥ l`) and then `fire(l, t)` applies the
//!   groups whose top is `l` to `t` until nothing is added, learning each
//!   group on the projection of the entries that changed first (a group
//!   with top `l` reads only slots `≥ l`, so the suffix set alone decides
//!   its transitions); only entries (values of slot `l`) whose suffix
//!   changed since a group's last application are fired again.
//!   `relprod(l, s, r)` is the image of `s` by the relation node `r` below
//!   the group's top; each node it builds is fired at its own slot, so every
//!   result is saturated. The visited set is `sat(0, {initial state})`: one
//!   call, no global iteration. Results are memoised per call by
//!   (slot, node) / (slot, group, node, relation node); a memoised node stays
//!   valid while the relations grow, because a fired node was learned on
//!   all its own projections and is therefore closed under the model's
//!   true relation, not only the learned one. During the call the visited
//!   set is not updated, so progress reports show the initial count.
//!   Measured (bdd, node-saturation / saturation, s): far faster on
//!   TokenRing-PT-015 (3.5·10⁷ states: 15.7 / 159.8; the set-level order
//!   needed 938,068 whole-set images), faster on at.3 12.2 / 16.3,
//!   SharedMemory-PT-000010 0.94 / 1.18, phils.4 0.33 / 0.50, with far
//!   smaller peaks (at.3 36,608 / 142,885 nodes), but much slower where
//!   groups span many slots: lamport.5 51.7 / 13.7, peterson.4 16.1 / 4.3,
//!   gear.2 4.2 / 3.0, BART-PT-002 over 60 / 7.3 (`mdd` over 60 / 4.4),
//!   Dekker-PT-020 over 30 / 19.1 (every intermediate node is
//!   fired and projected for every group of its slot: 131,694 fires on
//!   peterson.4). Hence selectable, not the default.
//!
//! Re-encoding: a learned value without variables stops the step with
//! [`Stop::Widen`]; the search then moves its visited set, frontier,
//! relations and learned projections to a wider layout
//! ([`Diagram::transfer`], counter `reencodings`) and resumes: `bfs` redoes
//! the interrupted level, `chaining` the interrupted sweep from the grown
//! frontier, `saturation` and `node-saturation` start over from the
//! visited set, keeping every learned transition (no model call is
//! repeated except for the interrupted batch).
//!
//! Error states: the learner sets aside a successor that is the model's
//! error state ([`pins::Model::is_error_state`]); when a strategy ends, the
//! new ones join the visited set as the frontier and the strategy runs
//! again, until none is new.
//!
//! Diagnostics: with `STATEBENCH_SYMBOLIC_TRACE` set in the environment,
//! every sampling point and every progress report (at most one per
//! 250 ms) prints the figures so far on stderr (the node saturation shows
//! no progress otherwise).
//!
//! Node accounting (`dd_peak_nodes`, a lower bound of the true peak): the
//! search counts the inner nodes reachable from everything it keeps live
//! (visited set, frontier, every group's relation and learned projections,
//! each node once) at these points only: the start; after every BFS level,
//! every chaining sweep (also the sweeps inside `saturation`); in
//! `node-saturation`, after the fire step that completes the 1st, 2nd,
//! 4th, 8th, ... (powers of two) fired node of the run, with that node
//! counted too, and at the end. The visited set alone is counted at the
//! same points (`dd_peak_visited_nodes`). Nodes that live only inside one
//! operation (an image, the node saturation's memo) are not sampled. The
//! points of `bfs`, `chaining` and `saturation` are those of the former
//! code; only the walk got cheaper (borrowed edges under one manager lock
//! and an Fx hash set instead of a cloned edge and a SipHash insert per
//! node: hashing was 12% of gear.2 `bdd` before), and the state count for
//! progress reports (a walk of the visited set) runs at most every 250 ms.
//!
//! Owns the strategies, the frontier, the re-encoding of live sets and the
//! sampling. Must not know encodings (only the [`Diagram`] trait) nor the
//! harness.

use super::diagram::{DdResult, Diagram, FxHashMap, GroupShape, Support};
use super::layout::Layout;
use super::learn::{Learner, Stop};
use crate::explore::Progress;
use crate::registry::words;
use pins::{Model, Value};
use std::time::{Duration, Instant};

#[path = "ddunits.rs"]
mod ddunits;

words! {
    /// How groups are applied.
    pub enum Strategy {
        Bfs = "bfs",
        Chaining = "chaining",
        Saturation = "saturation",
        NodeSaturation = "node-saturation",
    }
}

/// Figures of one search.
#[derive(Default)]
pub struct Figures {
    /// The start, then one per BFS level, chaining sweep (also within
    /// `saturation`) or completed node saturation.
    pub rounds: u64,
    /// Relations applied at a group's top (whole-set images, or `relprod`
    /// calls from a fire step).
    pub images: u64,
    /// Node saturation: nodes fired (memo misses of `fire`).
    pub fires: u64,
    pub peak_nodes: u64,
    pub peak_visited_nodes: u64,
    /// Moves to a wider layout.
    pub reencodings: u64,
    /// Garbage collections of the encoding's node table
    /// ([`Diagram::collect`]).
    pub collections: u64,
    /// Applications of a group to a set (enabling test, then image).
    pub applications: u64,
    /// Time spent learning relations (set differences, projections, model
    /// calls, relation building), in nanoseconds.
    pub learn_ns: u64,
    /// Time spent applying learned relations (enabling tests, images).
    pub apply_ns: u64,
    /// States every group was learned on directly
    /// ([`Search::learn_explicitly`]).
    pub explicit_states: u64,
    /// Sets of such states whose successors from learning were added as
    /// their image by every group ([`Search::admit`]).
    pub explicit_images: u64,
}

/// The most states [`Search::learn_explicitly`] learns on at once: a model
/// call per state costs about what one group's walk over a set of that
/// many nodes does.
const EXPLICIT_BATCH: u128 = 1 << 16;

/// The most states per node of a set of new states that
/// [`Search::learn_explicitly`] learns on: more states per node means
/// states that share their projections, which learning on projections
/// expands once each, where learning on states calls the model per state
/// (kanban-3: 633,325 states in at most 283 nodes, 17.3 s of learning on
/// states; PhilosophersDyn-PT-10: 199,051 states in 193,122 nodes).
const EXPLICIT_STATES_PER_NODE: u128 = 16;

/// Groups per slot from which a model's successors found by learning are
/// used as images ([`Search::learn_explicitly`]).
const IMAGE_GROUPS_PER_SLOT: u128 = 4;

/// What [`Search::learn_explicitly`] did with a set of new states.
enum Learned<S> {
    /// Nothing: too many states.
    No,
    /// Every group learned on them; `successors` is their image by every
    /// group, `enabled` the groups with a successor.
    Fully { successors: S, enabled: Vec<usize> },
    /// Every group but some, which are marked dirty and owed, or every
    /// group, their successors not gathered: every group they enable is
    /// owed.
    Partly,
}

/// Makes an empty diagram for a layout.
pub type Make<'a, D> = dyn Fn(Layout) -> DdResult<D> + 'a;

/// Per group `h`, the groups whose read ∪ write slots meet `h`'s write
/// slots (`k` slots).
fn affected(shapes: &[GroupShape], k: usize) -> Vec<Vec<usize>> {
    let mut touching: Vec<Vec<usize>> = vec![Vec::new(); k];
    for (g, s) in shapes.iter().enumerate() {
        for &i in &s.proj {
            touching[i].push(g);
        }
    }
    shapes
        .iter()
        .map(|s| {
            let mut gs: Vec<usize> = s
                .write
                .iter()
                .flat_map(|&i| touching[i].iter().copied())
                .collect();
            gs.sort_unstable();
            gs.dedup();
            gs
        })
        .collect()
}

/// Memo tables of one saturation call.
struct Memo<S> {
    sat: FxHashMap<(usize, S), S>,
    fire: FxHashMap<(usize, S), S>,
    image: FxHashMap<(usize, usize, S, S), S>,
}

pub struct Search<'a, 'm, D: Diagram> {
    pub d: D,
    make: &'a Make<'a, D>,
    shapes: &'a [GroupShape],
    pub learner: Learner<'m>,
    pub rels: Vec<D::Set>,
    /// Per merged class of groups ([`Diagram::classes`]), its relation
    /// ([`ddunits`]).
    class_rels: Vec<D::Set>,
    /// Per group, its merged class.
    class_of: Vec<Option<usize>>,
    learned_on: Vec<D::Set>,
    /// Per group `g`, whether some visited state's projection on `g`'s
    /// slots may not be learned; if not, every one is. A state found by
    /// group `h` agrees with its source outside `h`'s write slots, so it
    /// makes only the groups of `affected[h]` dirty; for the others its
    /// projection is its source's.
    dirty: Vec<bool>,
    /// Per dirty group, the visited set when it became dirty: the states
    /// of the visited set that it lacks are those to learn on. A former
    /// visited set is one id, so marking a group costs no union, and the
    /// difference costs the nodes the two sets do not share.
    since: Vec<D::Set>,
    /// Groups whose successors are not yet in the visited set.
    produced: Vec<usize>,
    /// Per group `g`, whether some visited state that enables `g` may not
    /// have been in a set `g` was applied to. States join the frontier as
    /// they join the visited set, unless their successors by every group
    /// are added with them ([`Search::admit`]), so applying `g` to the
    /// frontier (or the whole visited set) pays what it owes; states
    /// learned on directly but not for every group say which groups they
    /// enable, others make every group owed. A group
    /// not owed costs no enabling test (issue 36: 107,862 applications
    /// for 10,985 images on PhilosophersDyn-PT-10).
    owed: Vec<bool>,
    /// Per group `h`, the groups whose read ∪ write slots meet `h`'s write
    /// slots; empty where the encoding has no suffixes
    /// ([`Diagram::suffixes`]): the binary BDD learns on the set it
    /// applies a group to, as before (GlobalResAllocation-PT-03 timed
    /// out at 90 s with pending sets, 84.7 s without, same load).
    affected: Vec<Vec<usize>>,
    /// Whether groups are learned on their pending states.
    pending_learning: bool,
    /// Whether small sets of new states are learned on their states
    /// ([`Search::learn_explicitly`]); set by [`Search::run`].
    explicit: bool,
    /// The most states a run learns on directly (parameter
    /// `explicit_states`); set by [`Search::run`]. Past it, states that
    /// share their projections (which learning on projections expands
    /// once) would cost a model call each.
    explicit_limit: u64,
    pub visited: D::Set,
    /// While every visited state joined it in a set learned on directly
    /// by every group ([`Learned::Fully`]) and no group was applied, the
    /// successors the model emitted from them: the transition count,
    /// exact, without a walk per group (issue 36: that walk was a fifth
    /// of PhilosophersDyn-PT-10's run). `None` otherwise.
    pub explicit_transitions: Option<u64>,
    /// States not yet expanded by every group.
    frontier: D::Set,
    pub figures: Figures,
    progress: Option<&'a mut dyn FnMut(&Progress)>,
    last_progress: Option<Instant>,
    /// How long the last progress report's state count took.
    progress_cost: Duration,
    /// Groups by top slot; groups touching no slot are in none.
    by_top: Vec<Vec<usize>>,
    /// `groups_below[l]`: some group has its top at slot `≥ l`.
    groups_below: Vec<bool>,
}

impl<'a, 'm, D: Diagram> Search<'a, 'm, D> {
    pub fn new(
        layout: Layout,
        make: &'a Make<'a, D>,
        model: &'m dyn Model,
        shapes: &'a [GroupShape],
        progress: Option<&'a mut dyn FnMut(&Progress)>,
    ) -> Result<Self, Stop> {
        let d = make(layout)?;
        let visited = d.state(&model.initial_state())?;
        let empty = d.empty();
        let k = model.slot_count();
        let pending_learning = d.suffixes(&visited, 0)?.is_some();
        let mut class_of = vec![None; shapes.len()];
        for (c, members) in d.classes().iter().enumerate() {
            for &g in members {
                class_of[g] = Some(c);
            }
        }
        let mut by_top = vec![Vec::new(); k];
        for (g, s) in shapes.iter().enumerate() {
            if let Some(&t) = s.proj.first() {
                by_top[t].push(g);
            }
        }
        let mut groups_below = vec![false; k + 1];
        for l in (0..k).rev() {
            groups_below[l] = groups_below[l + 1] || !by_top[l].is_empty();
        }
        Ok(Search {
            rels: vec![empty.clone(); shapes.len()],
            class_rels: vec![empty.clone(); d.classes().len()],
            class_of,
            learned_on: vec![empty.clone(); shapes.len()],
            dirty: vec![true; shapes.len()],
            since: vec![empty.clone(); shapes.len()],
            produced: Vec::new(),
            owed: vec![true; shapes.len()],
            affected: if pending_learning {
                affected(shapes, k)
            } else {
                vec![Vec::new(); shapes.len()]
            },
            pending_learning,
            explicit: false,
            explicit_limit: 0,
            frontier: empty,
            d,
            make,
            shapes,
            learner: Learner::new(model),
            visited,
            explicit_transitions: None,
            figures: Figures::default(),
            progress,
            last_progress: None,
            progress_cost: Duration::ZERO,
            by_top,
            groups_below,
        })
    }

    /// Learns group `g` on the projections of `from` (a set over slots
    /// `≥ slot`) it has not seen.
    fn learn_on(&mut self, g: usize, from: &D::Set, slot: usize) -> Result<(), Stop> {
        let unseen = self.d.unseen(from, &self.learned_on[g], g, slot)?;
        if !self.d.is_empty(&unseen) {
            let batch = self.learner.learn(&self.d, g, &self.shapes[g], &unseen)?;
            self.grow(g, &batch)?;
            self.learned_on[g] = self.d.union(&self.learned_on[g], &unseen)?;
        }
        Ok(())
    }

    /// Learns a dirty group `g` ([`Search::dirty`]) on the visited states
    /// added since it became dirty, below `g`'s top where the encoding has
    /// suffixes ([`Diagram::suffixes`]). A group none of whose slots
    /// changed since it was last learned costs no walk (issue 36: the walk
    /// of every group over the whole frontier, which grows during a
    /// chaining sweep, was 82% of PhilosophersDyn-PT-10's time).
    fn learn_pending(&mut self, g: usize) -> Result<(), Stop> {
        if !self.dirty[g] {
            return Ok(());
        }
        let started = Instant::now();
        let new = self.d.minus(&self.visited, &self.since[g])?;
        let top = self.shapes[g].proj.first().copied().unwrap_or(0);
        match self.d.suffixes(&new, top)? {
            Some(suffixes) => self.learn_on(g, &suffixes, top)?,
            None => self.learn_on(g, &new, 0)?,
        }
        self.dirty[g] = false;
        self.since[g] = self.d.empty();
        self.figures.learn_ns += started.elapsed().as_nanos() as u64;
        Ok(())
    }

    /// Marks group `g` dirty: the visited states added from now on are to
    /// be learned on.
    fn mark_dirty(&mut self, g: usize) {
        if !self.dirty[g] {
            self.dirty[g] = true;
            self.since[g] = self.visited.clone();
        }
    }

    /// Adds `new` (states not visited) to the visited set with the
    /// relations readied for them, and returns the states among them and
    /// those found from them that still need expanding by the groups (the
    /// caller's frontier). While the states to add are few
    /// ([`Search::learn_explicitly`]), their successors found by learning
    /// on them are their image by every group: those states need no
    /// relational product, and the successors not visited are added the
    /// same way (issue 36: an image cost 74 ms each on
    /// BridgeAndVehicles-PT-V20P10N50 when it walked the frontier from the
    /// root; it now starts at the group's top slot). Otherwise the groups that
    /// the groups of [`Search::produced`] (or those the last batch
    /// enabled) affect are marked dirty and the states are returned.
    /// `live` holds the caller's sets, kept through garbage collections.
    fn admit(&mut self, new: &D::Set, live: &[&D::Set]) -> Result<D::Set, Stop> {
        let mut producers = std::mem::take(&mut self.produced);
        let mut batch = new.clone();
        loop {
            let learned = self.learn_explicitly(&batch)?;
            if let Learned::No = learned {
                // Before the batch joins the visited set: a group marked
                // dirty learns on the visited states added from now on,
                // and the batch is among them. Marked after, its groups
                // never learned on it (the reverted 768b1c4: mdd found
                // 390,050 of philosophers-15's 551,614 states).
                self.owed.fill(true);
                for h in producers {
                    for i in 0..self.affected[h].len() {
                        self.mark_dirty(self.affected[h][i]);
                    }
                }
            }
            self.visited = self.d.union(&self.visited, &batch)?;
            let Learned::Fully {
                successors,
                enabled,
            } = learned
            else {
                return Ok(batch);
            };
            self.figures.explicit_images += 1;
            // Learned with the visited set before the batch as `known`:
            // none of them is visited now.
            batch = successors;
            producers = enabled;
            let mut roots = live.to_vec();
            roots.push(&batch);
            self.collect(&roots);
            self.report_progress();
            if self.d.is_empty(&batch) {
                return Ok(batch);
            }
        }
    }

    /// Learns every group on the states of `new` themselves
    /// ([`Learner::learn_states`]: one model call per state, none per
    /// group) when it holds at most [`EXPLICIT_BATCH`] states, at most
    /// [`EXPLICIT_STATES_PER_NODE`] per node, and the run has learned fewer than [`Search::explicit_limit`] so; the groups that learning
    /// leaves out are marked dirty and, as the states enabling them join
    /// the frontier, owed. Issue 36: with thousands of groups, learning on
    /// projections walks the new states once per group; LTSmin learns on
    /// projections too, but PhilosophersDyn-PT-10 (2,310 groups) spent
    /// 22 ms per group there.
    fn learn_explicitly(&mut self, new: &D::Set) -> Result<Learned<D::Set>, Stop> {
        // Set again below where every group learns on `new`.
        let emitted = self.explicit_transitions.take();
        if !self.explicit || self.figures.explicit_states >= self.explicit_limit {
            return Ok(Learned::No);
        }
        let started = Instant::now();
        let size = self.d.count_states(new).unwrap_or(u128::MAX);
        let nodes = u128::from(self.d.shared_nodes(&[new]));
        if size > EXPLICIT_BATCH || size > EXPLICIT_STATES_PER_NODE * nodes {
            self.figures.learn_ns += started.elapsed().as_nanos() as u64;
            return Ok(Learned::No);
        }
        // The successors are the image where building them from the
        // vectors (about `k` steps per state) costs less than the groups'
        // walks over the set's nodes, and on models with many more groups
        // than slots only: on Philosophers-PT-000010 (50 groups, 50 slots,
        // 59,049 states in 294 nodes) relational products took 1.7 s and
        // the successors of every small batch 3.0 s (a breadth-first start
        // leaves the saturation larger intermediate sets).
        let k = self.d.layout().width.len() as u128;
        let groups = self.shapes.len() as u128;
        let image = groups >= IMAGE_GROUPS_PER_SLOT * k
            && size * k <= groups * nodes;
        let known = image.then(|| self.visited.clone());
        let learned = self
            .learner
            .learn_states(&self.d, self.shapes, new, known.as_ref(), &self.rels)?;
        for (g, batch) in learned.batches {
            self.grow(g, &batch)?;
        }
        self.figures.explicit_states += size as u64;
        self.figures.learn_ns += started.elapsed().as_nanos() as u64;
        if image && learned.fallback.is_empty() {
            self.explicit_transitions = emitted.map(|n| n + learned.emitted);
            return Ok(Learned::Fully {
                successors: learned.successors,
                enabled: learned.enabled,
            });
        }
        for g in learned.fallback {
            self.mark_dirty(g);
        }
        for g in learned.enabled {
            self.owed[g] = true;
        }
        Ok(Learned::Partly)
    }

    /// The successors of `from` (a subset of the visited set) by group
    /// `g` that are not visited, learning `g` first
    /// ([`Search::learn_pending`]) and noting `g` as their producer
    /// ([`Search::admit`]). A group that no state of `from` enables
    /// ([`Diagram::enables`]) costs no image.
    fn successors(&mut self, g: usize, from: &D::Set) -> Result<D::Set, Stop> {
        if !self.owed[g] {
            return Ok(self.d.empty());
        }
        self.explicit_transitions = None;
        self.learn_for(g, from)?;
        let started = Instant::now();
        self.figures.applications += 1;
        self.owed[g] = false;
        let rel = self.rels[g].clone();
        let new = self.unvisited_image(from, &rel, g, &[g]);
        self.figures.apply_ns += started.elapsed().as_nanos() as u64;
        new
    }

    /// The successors of `from` by `rel` that are not visited, `rel` the
    /// relation of the group (or merged class, [`Diagram::classes`]) of
    /// index `unit`; `producers` are noted where there are some. No image
    /// where no state of `from` enables `rel` ([`Diagram::enables`]).
    fn unvisited_image(
        &mut self,
        from: &D::Set,
        rel: &D::Set,
        unit: usize,
        producers: &[usize],
    ) -> Result<D::Set, Stop> {
        if !self.d.enables(from, rel, unit) {
            return Ok(self.d.empty());
        }
        self.figures.images += 1;
        let img = self.d.image(from, rel, unit)?;
        let new = self.d.minus(&img, &self.visited)?;
        if !self.d.is_empty(&new) {
            self.produced.extend_from_slice(producers);
        }
        Ok(new)
    }

    /// Learns group `g` before it is applied to `from`: on its pending
    /// states where the encoding has suffixes, on `from` otherwise.
    fn learn_for(&mut self, g: usize, from: &D::Set) -> Result<(), Stop> {
        if self.pending_learning {
            self.learn_pending(g)
        } else {
            let started = Instant::now();
            self.learn_on(g, from, 0)?;
            self.figures.learn_ns += started.elapsed().as_nanos() as u64;
            Ok(())
        }
    }

    /// Everything live between two steps (visited set, frontier,
    /// relations, learned projections) plus `extra`.
    fn roots<'s>(&'s self, extra: &[&'s D::Set]) -> Vec<&'s D::Set> {
        let mut roots: Vec<&D::Set> = vec![&self.visited, &self.frontier];
        roots.extend(extra);
        roots.extend(self.rels.iter());
        roots.extend(self.class_rels.iter());
        roots.extend(self.learned_on.iter());
        roots.extend(self.since.iter());
        roots
    }

    /// A garbage-collection point: `extra` holds every set of the current
    /// step that is not a field of the search (see [`Diagram::collect`]).
    fn collect(&mut self, extra: &[&D::Set]) {
        if self.d.collection_due() {
            self.figures.collections = self.d.collect(&self.roots(extra));
        }
    }

    /// Records the node figures with everything live plus `extra`.
    fn sample(&mut self, extra: &[&D::Set]) {
        let all = self.d.shared_nodes(&self.roots(extra));
        let visited = self.d.shared_nodes(&[&self.visited]);
        let f = &mut self.figures;
        f.peak_nodes = f.peak_nodes.max(all);
        f.peak_visited_nodes = f.peak_visited_nodes.max(visited);
        if std::env::var_os("STATEBENCH_SYMBOLIC_TRACE").is_some() {
            eprintln!(
                "symbolic: rounds {} images {} fires {} learned {} calls {} live nodes {all} visited nodes {visited} applications {} learn {} ms apply {} ms explicit states {}",
                f.rounds, f.images, f.fires, self.learner.learned, self.learner.calls,
                f.applications, f.learn_ns / 1_000_000, f.apply_ns / 1_000_000, f.explicit_states
            );
        }
        self.report_progress();
    }

    /// Progress is for people: the state count (a walk over the visited
    /// set) at most every 250 ms and at most 5% of the time, also on
    /// stderr with the time figures under `STATEBENCH_SYMBOLIC_TRACE` (a
    /// run that times out reports no counters). Issue 36: on a loaded
    /// machine, 250 ms of wall-clock time gave the search little more
    /// processor time than one count of PhilosophersDyn-PT-10's visited
    /// set took.
    fn report_progress(&mut self) {
        let trace = std::env::var_os("STATEBENCH_SYMBOLIC_TRACE").is_some();
        let pause = Duration::from_millis(250).max(20 * self.progress_cost);
        if (self.progress.is_none() && !trace)
            || self.last_progress.is_some_and(|t| t.elapsed() < pause)
        {
            return;
        }
        let started = Instant::now();
        let states = self.d.count_states(&self.visited).unwrap_or(u128::MAX);
        self.progress_cost = started.elapsed();
        self.last_progress = Some(Instant::now());
        let f = &self.figures;
        if trace {
            eprintln!(
                "symbolic: states {states} images {} applications {} learn {} ms apply {} ms explicit states {} explicit images {}",
                f.images, f.applications, f.learn_ns / 1_000_000, f.apply_ns / 1_000_000,
                f.explicit_states, f.explicit_images
            );
        }
        if let Some(cb) = self.progress.as_mut() {
            cb(&Progress {
                states: u64::try_from(states).unwrap_or(u64::MAX),
                transitions: 0,
                queued: 0,
                levels: f.rounds,
                engine_bytes_alloc: f.peak_nodes * super::BYTES_PER_NODE,
            });
        }
    }

    /// Explores in `strategy`, learning on at most about `explicit_limit`
    /// new states directly ([`Search::learn_explicitly`]; the batch that
    /// reaches the limit is learned whole).
    pub fn run(&mut self, strategy: Strategy, explicit_limit: u64) -> Result<(), Stop> {
        self.frontier = self.visited.clone();
        // Node saturation learns on the nodes it fires, not on new states.
        self.explicit = self.pending_learning && strategy != Strategy::NodeSaturation;
        self.explicit_limit = explicit_limit;
        if self.explicit {
            self.explicit_transitions = Some(0);
            // The initial state learned on as new: the groups left out are
            // marked dirty since the empty set.
            let initial = std::mem::replace(&mut self.visited, self.d.empty());
            self.dirty.fill(false);
            let learned = self.learn_explicitly(&initial)?;
            self.visited = initial;
            match learned {
                Learned::No => self.dirty.fill(true),
                Learned::Partly => {}
                // Its successors are its image by every group: they are
                // admitted as any new states' are, and no group owes the
                // initial state an application (issue 36: otherwise every
                // group was owed and applied once to the whole visited
                // set, 890 images and 115 s of PhilosophersDyn-PT-10's
                // 213 s, though learning had found every state).
                Learned::Fully {
                    successors,
                    enabled,
                } => {
                    self.figures.explicit_images += 1;
                    self.owed.fill(false);
                    self.produced = enabled;
                    let new = self.d.minus(&successors, &self.visited)?;
                    self.frontier = self.admit(&new, &[])?;
                }
            }
        }
        self.figures.rounds += 1;
        self.sample(&[]);
        loop {
            let outcome = match strategy {
                Strategy::Bfs => self.bfs(),
                Strategy::Chaining => {
                    let groups: Vec<usize> = (0..self.shapes.len()).collect();
                    self.chain(&groups)
                }
                Strategy::Saturation => self.sat_like(),
                Strategy::NodeSaturation => self.saturate(),
            };
            match outcome {
                Err(Stop::Widen(misfits)) => self.reencode(&misfits)?,
                Err(stop) => return Err(stop),
                Ok(()) => {
                    if !self.take_escapes()? {
                        return Ok(());
                    }
                }
            }
        }
    }

    /// Adds the error states the learner met ([`Learner::escape_targets`])
    /// to the visited set and makes the new ones the frontier; whether any
    /// was new (the strategy then runs again: `bfs` and `chaining` from
    /// the frontier, the saturations from the whole visited set).
    fn take_escapes(&mut self) -> Result<bool, Stop> {
        let mut targets = self.d.empty();
        for t in &self.learner.escape_targets {
            let one = self.d.state(t)?;
            targets = self.d.union(&targets, &one)?;
        }
        let new = self.d.minus(&targets, &self.visited)?;
        if self.d.is_empty(&new) {
            return Ok(false);
        }
        self.explicit_transitions = None;
        // The new states join the frontier: every group is owed.
        if let Learned::No = self.learn_explicitly(&new)? {
            for g in 0..self.dirty.len() {
                self.mark_dirty(g);
            }
        }
        self.owed.fill(true);
        self.visited = self.d.union(&self.visited, &new)?;
        self.frontier = new;
        Ok(true)
    }

    /// Moves every live set to a layout wide enough for `misfits`.
    fn reencode(&mut self, misfits: &[(usize, Value)]) -> Result<(), Stop> {
        let layout = misfits
            .iter()
            .fold(self.d.layout().clone(), |l, &(slot, v)| l.widened(slot, v));
        let new = (self.make)(layout)?;
        let moved = {
            let mut sets: Vec<(&D::Set, Support)> = vec![
                (&self.visited, Support::State),
                (&self.frontier, Support::State),
            ];
            sets.extend(
                self.rels
                    .iter()
                    .enumerate()
                    .map(|(g, r)| (r, Support::Relation(g))),
            );
            sets.extend(
                self.learned_on
                    .iter()
                    .enumerate()
                    .map(|(g, p)| (p, Support::Projection(g))),
            );
            sets.extend(self.since.iter().map(|v| (v, Support::State)));
            new.transfer(&self.d, &sets)?
        };
        let mut moved = moved.into_iter();
        let mut next = || moved.next().expect("one set per input");
        self.visited = next();
        self.frontier = next();
        for r in &mut self.rels {
            *r = next();
        }
        for p in &mut self.learned_on {
            *p = next();
        }
        for v in &mut self.since {
            *v = next();
        }
        self.d = new;
        self.lift_all()?;
        // An interrupted step is redone: its groups are owed again.
        self.owed.fill(true);
        self.figures.reencodings += 1;
        Ok(())
    }

    fn bfs(&mut self) -> Result<(), Stop> {
        while !self.d.is_empty(&self.frontier) {
            let frontier = self.frontier.clone();
            let mut next = self.d.empty();
            for g in 0..self.shapes.len() {
                let img = self.apply(g, &frontier)?;
                next = self.d.union(&next, &img)?;
                self.collect(&[&next]);
            }
            let new = self.d.minus(&next, &self.visited)?;
            self.frontier = self.admit(&new, &[])?;
            self.figures.rounds += 1;
            self.sample(&[]);
        }
        Ok(())
    }

    /// Chaining sweeps over `groups` from the frontier until no new state.
    fn chain(&mut self, groups: &[usize]) -> Result<(), Stop> {
        while !self.d.is_empty(&self.frontier) {
            let mut sweep = self.d.empty();
            for &g in groups {
                let from = self.frontier.clone();
                let new = self.apply(g, &from)?;
                if !self.d.is_empty(&new) {
                    let rest = self.admit(&new, &[&sweep])?;
                    self.frontier = self.d.union(&self.frontier, &rest)?;
                    sweep = self.d.union(&sweep, &rest)?;
                }
                self.collect(&[&sweep]);
            }
            self.frontier = sweep;
            self.figures.rounds += 1;
            self.sample(&[]);
        }
        Ok(())
    }

    fn sat_like(&mut self) -> Result<(), Stop> {
        let k = self.d.layout().width.len();
        let top = |s: &GroupShape| s.proj.first().copied().unwrap_or(k);
        let mut tops: Vec<usize> = self.shapes.iter().map(top).collect();
        tops.sort_unstable();
        tops.dedup();
        // Deepest top slot first; active groups sorted deepest first too.
        let mut order: Vec<usize> = (0..self.shapes.len()).collect();
        order.sort_by_key(|&g| std::cmp::Reverse(top(&self.shapes[g])));
        for &level in tops.iter().rev() {
            let here: Vec<usize> = order
                .iter()
                .copied()
                .filter(|&g| top(&self.shapes[g]) == level)
                .collect();
            let active: Vec<usize> = order
                .iter()
                .copied()
                .filter(|&g| top(&self.shapes[g]) >= level)
                .collect();
            // The visited set is closed under the deeper groups already:
            // only the groups of this level see all of it.
            let mut new = self.d.empty();
            let all = self.visited.clone();
            for &g in &here {
                let img = self.apply(g, &all)?;
                new = self.d.union(&new, &img)?;
                self.collect(&[&new, &all]);
            }
            let new = self.d.minus(&new, &self.visited)?;
            self.frontier = self.admit(&new, &[])?;
            self.chain(&active)?;
        }
        Ok(())
    }

    fn saturate(&mut self) -> Result<(), Stop> {
        let mut memo = Memo {
            sat: FxHashMap::default(),
            fire: FxHashMap::default(),
            image: FxHashMap::default(),
        };
        let from = self.visited.clone();
        let all = self.sat(0, &from, &mut memo)?;
        drop(memo);
        self.visited = all;
        self.frontier = self.d.empty();
        // Groups touching no slot never fire; they add no state, but their
        // relation counts transitions.
        for g in 0..self.shapes.len() {
            if self.shapes[g].proj.is_empty() {
                let visited = self.visited.clone();
                self.dirty[g] = true;
                self.since[g] = self.d.empty();
                self.successors(g, &visited)?;
            }
        }
        self.figures.rounds += 1;
        self.sample(&[]);
        Ok(())
    }

    /// `s` (suffixes over slots `≥ l`) closed under every group whose top
    /// is at or below `l`.
    fn sat(&mut self, l: usize, s: &D::Set, memo: &mut Memo<D::Set>) -> Result<D::Set, Stop> {
        if !self.groups_below[l] || self.d.is_empty(s) {
            return Ok(s.clone());
        }
        if let Some(t) = memo.sat.get(&(l, s.clone())) {
            return Ok(t.clone());
        }
        let t = if self.groups_below[l + 1] {
            let mut entries = self.d.entries(s, l);
            for e in &mut entries {
                e.1 = self.sat(l + 1, &e.1, memo)?;
            }
            self.d.set_of_entries(l, &entries)?
        } else {
            s.clone()
        };
        let t = self.fire(l, t, memo)?;
        memo.sat.insert((l, s.clone()), t.clone());
        Ok(t)
    }

    /// `t` (whose children are saturated) closed under the groups whose
    /// top is `l`.
    fn fire(&mut self, l: usize, t: D::Set, memo: &mut Memo<D::Set>) -> Result<D::Set, Stop> {
        if self.by_top[l].is_empty() {
            return Ok(t);
        }
        if let Some(x) = memo.fire.get(&(l, t.clone())) {
            return Ok(x.clone());
        }
        let key = t.clone();
        let groups = self.by_top[l].clone();
        // done[i]: the node group i was last applied to; only the entries
        // (values of slot l) whose suffix set changed since are applied
        // again (Ciardo's per-entry firing: the other entries' successors
        // are in t already, and a relation grows only for new projections).
        let mut done = vec![self.d.empty(); groups.len()];
        let mut t = t;
        loop {
            let mut fired = false;
            for (i, &g) in groups.iter().enumerate() {
                let fresh = self.changed(l, &t, &done[i])?;
                if self.d.is_empty(&fresh) {
                    continue;
                }
                fired = true;
                self.learn_on(g, &fresh, l)?;
                let rel = self.rels[g].clone();
                self.figures.images += 1;
                let img = self.relprod(l, &fresh, &rel, g, memo)?;
                done[i] = t.clone();
                t = self.d.union(&t, &img)?;
            }
            if !fired {
                break;
            }
        }
        self.figures.fires += 1;
        if self.figures.fires.is_power_of_two() {
            self.sample(&[&t]);
        }
        memo.fire.insert((l, key), t.clone());
        Ok(t)
    }

    /// The entries of `t` (at slot `l`) that `done` lacks or has with
    /// another suffix set, as a set.
    fn changed(&self, l: usize, t: &D::Set, done: &D::Set) -> DdResult<D::Set> {
        if self.d.is_empty(done) {
            return Ok(t.clone());
        }
        if t == done {
            return Ok(self.d.empty());
        }
        let old = self.d.entries(done, l);
        let fresh: Vec<(Value, D::Set)> = self
            .d
            .entries(t, l)
            .into_iter()
            .filter(|(v, c)| match old.binary_search_by_key(v, |e| e.0) {
                Ok(i) => old[i].1 != *c,
                Err(_) => true,
            })
            .collect();
        self.d.set_of_entries(l, &fresh)
    }

    /// The successors of `s` (suffixes over slots `≥ l`, saturated) by the
    /// relation node `r` of group `g` (its part over slots `≥ l`), each
    /// node below the group's top fired at its slot.
    fn relprod(
        &mut self,
        l: usize,
        s: &D::Set,
        r: &D::Set,
        g: usize,
        memo: &mut Memo<D::Set>,
    ) -> Result<D::Set, Stop> {
        if self.d.is_empty(s) || self.d.is_empty(r) {
            return Ok(self.d.empty());
        }
        let shapes = self.shapes;
        let shape = &shapes[g];
        if shape.proj.last().is_none_or(|&last| l > last) {
            return Ok(s.clone());
        }
        let key = (l, g, s.clone(), r.clone());
        if let Some(x) = memo.image.get(&key) {
            return Ok(x.clone());
        }
        let mut out: Vec<(Value, D::Set)> = Vec::new();
        let se = self.d.entries(s, l);
        if shape.proj.binary_search(&l).is_err() {
            for (v, c) in se {
                let x = self.relprod(l + 1, &c, r, g, memo)?;
                if !self.d.is_empty(&x) {
                    out.push((v, x));
                }
            }
        } else {
            let writes = shape.write.binary_search(&l).is_ok();
            let re = self.d.rel_entries(r, l, writes);
            for (v, c) in se {
                let lo = re.partition_point(|e| e.0 < v);
                for (_, w, rc) in re[lo..].iter().take_while(|e| e.0 == v) {
                    let x = self.relprod(l + 1, &c, rc, g, memo)?;
                    if self.d.is_empty(&x) {
                        continue;
                    }
                    match out.binary_search_by_key(w, |e| e.0) {
                        Ok(i) => out[i].1 = self.d.union(&out[i].1, &x)?,
                        Err(i) => out.insert(i, (*w, x)),
                    }
                }
            }
        }
        let mut res = self.d.set_of_entries(l, &out)?;
        if shape.proj.first() != Some(&l) {
            res = self.fire(l, res, memo)?;
        }
        memo.image.insert(key, res.clone());
        Ok(res)
    }
}
