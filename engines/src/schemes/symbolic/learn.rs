//! On-the-fly learning of the partitioned transition relation (LTSmin's
//! semi-symbolic scheme): for group `g`, every projection on `g`'s
//! read ∪ write slots of a state the search applies `g` to is, the first
//! time it is seen, expanded once by the model's successor function and the
//! resulting (projection, write values) pairs are added to `g`'s relation.
//!
//! The short vector is completed to a full one with the initial state's
//! values in the other slots: the pins contract says a group reads only its
//! read set and changes only its write set, so any filler gives the same
//! successors; the learner checks the second half (a successor that differs
//! outside the write set is a model error, not a silent wrong count).
//! The one exception is the model's error state
//! ([`pins::Model::is_error_state`], DiVinE's): it is no local change, so
//! it goes into no relation; the learner records it as a whole state
//! ([`Learner::escape_targets`]) and the short vector that reached it
//! ([`Learner::escape_sources`], for the transition count), and the search
//! adds it to the visited set.
//! Slots written but not read are part of the projection too, so a group
//! that writes a slot only on some successors (copy semantics) is still
//! exact.
//!
//! A batch (the unseen projections of one image) is expanded completely
//! before anything is added, and becomes one diagram
//! ([`Diagram::relation`]) joined to the group's relation by one union.
//!
//! Small sets of new states are learned on the states themselves
//! ([`Learner::learn_states`]: one `next_all` per state, whatever the
//! number of groups), their successors gathered as one set where the
//! search adds them as the image; a group whose successors need the
//! checks above (error state, a change outside the write set, a value
//! outside the layout) is left to the learning on projections.
//!
//! Owns the calls to the model and the learned-pair count. Must not know
//! search strategies; the diagram is used only through [`Diagram`].

use super::diagram::{Diagram, GroupShape, OutOfNodes};
use pins::{Model, ModelError, Value};
use std::collections::BTreeSet;

/// Why a search stopped early.
pub enum Stop {
    /// Values with no variables yet, (slot, largest such value) for every
    /// slot of a learned batch that needs it: the search re-encodes its sets
    /// in a wider layout and resumes.
    Widen(Vec<(usize, Value)>),
    Model(ModelError),
    Full,
}

impl From<OutOfNodes> for Stop {
    fn from(_: OutOfNodes) -> Self {
        Stop::Full
    }
}

/// A learned pair (short source, short target) and how many times more
/// than once its group produced it from that source.
pub type Repeat = (Vec<Value>, Vec<Value>, u64);

pub struct Learner<'m> {
    model: &'m dyn Model,
    filler: Vec<Value>,
    /// Transitions (distinct pairs of short vectors) added to relations.
    pub learned: u64,
    /// Calls of the model's successor function.
    pub calls: u64,
    /// OR of every value seen (the widest slot value).
    pub value_bits_or: Value,
    /// Error states reached (full vectors), not yet in the visited set
    /// unless the search has taken them.
    pub escape_targets: BTreeSet<Vec<Value>>,
    /// Per group, the short vectors (values of its read ∪ write slots)
    /// from which it reaches an error state.
    pub escape_sources: Vec<BTreeSet<Vec<Value>>>,
    /// Per group, the learned pairs the group produced more than once from
    /// one source (distinct events with the same target: mCRL2 sum values,
    /// B operation parameters), with how many times more: a relation holds
    /// each pair once, and the transition count adds these back.
    pub repeats: Vec<Vec<Repeat>>,
}

impl<'m> Learner<'m> {
    pub fn new(model: &'m dyn Model) -> Self {
        let filler = model.initial_state();
        let value_bits_or = filler.iter().fold(0, |a, &v| a | v);
        Learner {
            model,
            filler,
            learned: 0,
            calls: 0,
            value_bits_or,
            escape_targets: BTreeSet::new(),
            escape_sources: vec![BTreeSet::new(); model.groups().len()],
            repeats: vec![Vec::new(); model.groups().len()],
        }
    }

    /// The transitions of group `g` from every short vector of `short` (a
    /// set over `shape.proj`, not yet learned), as one relation. A value
    /// outside the layout stops with [`Stop::Widen`] naming every slot of
    /// the batch that needs widening (the batch is learned again after).
    pub fn learn<D: Diagram>(
        &mut self,
        d: &D,
        g: usize,
        shape: &GroupShape,
        short: &D::Set,
    ) -> Result<D::Set, Stop> {
        let mut pairs: Vec<(Vec<Value>, Vec<Value>)> = Vec::new();
        let mut escapes: Vec<(Vec<Value>, Vec<Value>)> = Vec::new();
        let mut failure: Option<Stop> = None;
        let mut misfits: Vec<(usize, Value)> = Vec::new();
        let mut full = self.filler.clone();
        let model = self.model;
        let mut calls = 0u64;
        let mut or = 0;
        // A slot outside the projection, if any: flipping its filler value
        // tells an error transition from a local change that happens to
        // produce the error state (see `expand`).
        let spare = (0..full.len()).find(|i| shape.proj.binary_search(i).is_err());
        d.for_each_vector(short, &shape.proj, &mut |cur| {
            if failure.is_some() {
                return;
            }
            for (&i, &v) in shape.proj.iter().zip(cur) {
                full[i] = v;
            }
            let mut out = Expansion {
                pairs: &mut pairs,
                escapes: &mut escapes,
                misfits: &mut misfits,
                or: &mut or,
            };
            let mark = (out.pairs.len(), out.escapes.len());
            calls += 1;
            match expand(model, d, g, shape, cur, &full, &mut out) {
                Ok(false) => {}
                Ok(true) => {
                    // A successor is the error state but agrees with its
                    // source outside the write set: it may be a local
                    // change or an error. With one spare slot changed, an
                    // error transition still gives the error state, which
                    // now differs outside the write set.
                    if let Some(j) = spare {
                        out.pairs.truncate(mark.0);
                        out.escapes.truncate(mark.1);
                        full[j] ^= 1;
                        calls += 1;
                        let again = expand(model, d, g, shape, cur, &full, &mut out);
                        full[j] ^= 1;
                        if let Err(stop) = again {
                            failure = Some(stop);
                        }
                    }
                }
                Err(stop) => failure = Some(stop),
            }
        });
        self.calls += calls;
        self.value_bits_or |= or;
        if let Some(stop) = failure {
            return Err(stop);
        }
        if !misfits.is_empty() {
            return Err(Stop::Widen(misfits));
        }
        for (from, to) in escapes {
            self.escape_sources[g].insert(from);
            self.escape_targets.insert(to);
        }
        pairs.sort_unstable();
        for run in pairs.chunk_by(|a, b| a == b).filter(|run| run.len() > 1) {
            let (from, to) = run[0].clone();
            self.repeats[g].push((from, to, run.len() as u64 - 1));
        }
        pairs.dedup();
        self.learned += pairs.len() as u64;
        Ok(d.relation(shape, &pairs)?)
    }
}

/// Where [`expand`] puts what it finds.
struct Expansion<'a> {
    pairs: &'a mut Vec<(Vec<Value>, Vec<Value>)>,
    escapes: &'a mut Vec<(Vec<Value>, Vec<Value>)>,
    misfits: &'a mut Vec<(usize, Value)>,
    or: &'a mut Value,
}

impl Expansion<'_> {
    fn check(&mut self, layout: &super::layout::Layout, i: usize, b: Value) {
        if !layout.fits(i, b) {
            match self.misfits.iter_mut().find(|m| m.0 == i) {
                Some(m) => m.1 = m.1.max(b),
                None => self.misfits.push((i, b)),
            }
        }
        *self.or |= b;
    }
}

/// The successors of `full` (whose projection is `cur`) by group `g`: a
/// local change becomes a pair, an error state reached by changing a slot
/// outside the write set an escape, any other change outside the write set
/// a model error. Returns whether some successor was the error state
/// without changing a slot outside the write set (ambiguous: the caller
/// decides).
fn expand<D: Diagram>(
    model: &dyn Model,
    d: &D,
    g: usize,
    shape: &GroupShape,
    cur: &[Value],
    full: &[Value],
    out: &mut Expansion<'_>,
) -> Result<bool, Stop> {
    let mut failure: Option<Stop> = None;
    let mut ambiguous = false;
    let layout = d.layout();
    model
        .next(full, g, &mut |succ| {
            if failure.is_some() {
                return;
            }
            match outside_write(shape, full, succ) {
                Some(_) if model.is_error_state(succ) => {
                    for (i, &b) in succ.iter().enumerate() {
                        out.check(layout, i, b);
                    }
                    out.escapes.push((cur.to_vec(), succ.to_vec()));
                }
                Some(i) => {
                    failure = Some(Stop::Model(ModelError::new(format!(
                        "group {g} ({}) changed slot {i} ({}), which is not in its write set",
                        model.groups()[g].label,
                        model.slots()[i].name
                    ))));
                }
                None => {
                    if succ != full && model.is_error_state(succ) {
                        ambiguous = true;
                    }
                    for &i in &shape.write {
                        out.check(layout, i, succ[i]);
                    }
                    let next = shape.write.iter().map(|&i| succ[i]).collect();
                    out.pairs.push((cur.to_vec(), next));
                }
            }
        })
        .map_err(Stop::Model)?;
    match failure {
        Some(stop) => Err(stop),
        None => Ok(ambiguous),
    }
}

/// The first slot outside `shape`'s write set where `succ` differs from
/// `full`, if any.
fn outside_write(shape: &GroupShape, full: &[Value], succ: &[Value]) -> Option<usize> {
    let mut w = 0;
    (0..full.len()).find(|&i| {
        if shape.write.get(w) == Some(&i) {
            w += 1;
            false
        } else {
            full[i] != succ[i]
        }
    })
}

/// What [`Learner::learn_states`] gives back.
pub struct Explicit<S> {
    /// Per group with new pairs, their relation.
    pub batches: Vec<(usize, S)>,
    /// The groups it did not learn: a successor is the error state or
    /// does not fit the layout; they are to be learned on projections
    /// ([`Learner::learn`]), which sorts these cases out.
    pub fallback: Vec<usize>,
    /// The groups some state enables.
    pub enabled: Vec<usize>,
    /// With `known` given ([`Learner::learn_states`]), every successor
    /// of the states by the groups not in `fallback` that neither `known`
    /// nor the states hold (full vectors, as one set): with `fallback`
    /// empty, the image of the states by every group less `known` and the
    /// states, which the search adds without a relational product. Empty
    /// otherwise.
    pub successors: S,
    /// Successors the model emitted (each event once, repeats included).
    pub emitted: u64,
}

/// Successor vectors gathered before they are joined to the successor set
/// as one diagram ([`Diagram::states`]).
const SUCCESSOR_CHUNK: usize = 1 << 14;

/// The successors of one state, as (group, write values), in `next_all`'s
/// order.
type Successors = Vec<(usize, Vec<Value>)>;

impl Learner<'_> {
    /// Every group learned on the states of `states` themselves (a set of
    /// full vectors): one call of the model's `next_all` per state, each
    /// successor a pair (the state's projection on the group's slots, the
    /// successor's write values). Costs one call per state whatever the
    /// number of groups, where learning on projections walks the set once
    /// per group (issue 36); meant for small sets of new states. With
    /// `known` (a set of states), the successors it lacks are gathered too
    /// ([`Explicit::successors`]). Pairs that `rels` (every group's
    /// relation) hold are not learned again (issue 36: rebuilding and
    /// joining them was most of the relation building on
    /// PhilosophersDyn-PT-10).
    pub fn learn_states<D: Diagram>(
        &mut self,
        d: &D,
        shapes: &[GroupShape],
        states: &D::Set,
        known: Option<&D::Set>,
        rels: &[D::Set],
    ) -> Result<Explicit<D::Set>, Stop> {
        let k = self.filler.len();
        let slots: Vec<usize> = (0..k).collect();
        // The states first, one after the other in one vector: the walk
        // holds the diagram, which the successor chunks need.
        let mut sources: Vec<Value> = Vec::new();
        let mut count = 0;
        d.for_each_vector(states, &slots, &mut |full| {
            sources.extend_from_slice(full);
            count += 1;
        });
        let mut found: Vec<Vec<Value>> = Vec::new();
        let mut successors = d.empty();
        let mut pairs: Vec<Vec<(Vec<Value>, Vec<Value>)>> = vec![Vec::new(); shapes.len()];
        let mut fallback = vec![false; shapes.len()];
        let mut enabled = vec![false; shapes.len()];
        let mut failure = None;
        let mut succs: Successors = Vec::new();
        let mut calls = 0u64;
        let mut emitted = 0u64;
        let mut or = 0;
        let model = self.model;
        let layout = d.layout();
        let repeats = &mut self.repeats;
        for i in 0..count {
            let full = &sources[i * k..(i + 1) * k];
            if failure.is_some() {
                break;
            }
            calls += 1;
            succs.clear();
            let done = model.next_all(full, &mut |g, succ| {
                let shape = &shapes[g];
                enabled[g] = true;
                emitted += 1;
                if model.is_error_state(succ)
                    || outside_write(shape, full, succ).is_some()
                    || shape.write.iter().any(|&i| !layout.fits(i, succ[i]))
                {
                    fallback[g] = true;
                    return;
                }
                // A pair already in the relation was learned with every
                // other pair of its source (and its repeats): nothing new.
                if !d.relates(&rels[g], shape, full, succ) {
                    let next: Vec<Value> = shape.write.iter().map(|&i| succ[i]).collect();
                    or = next.iter().fold(or, |a, &v| a | v);
                    succs.push((g, next));
                }
                if known.is_some_and(|known| !d.contains(known, succ) && !d.contains(states, succ)) {
                    found.push(succ.to_vec());
                }
            });
            if let Err(e) = done {
                failure = Some(Stop::Model(e));
                break;
            }
            succs.sort_unstable();
            for run in succs.chunk_by(|a, b| a.0 == b.0) {
                let g = run[0].0;
                let cur: Vec<Value> = shapes[g].proj.iter().map(|&i| full[i]).collect();
                for same in run.chunk_by(|a, b| a == b) {
                    if same.len() > 1 {
                        let extra = same.len() as u64 - 1;
                        repeats[g].push((cur.clone(), same[0].1.clone(), extra));
                    }
                    pairs[g].push((cur.clone(), same[0].1.clone()));
                }
            }
            if found.len() >= SUCCESSOR_CHUNK {
                successors = join_states(d, &successors, &mut found)?;
            }
        }
        successors = join_states(d, &successors, &mut found)?;
        self.calls += calls;
        self.value_bits_or |= or;
        if let Some(stop) = failure {
            return Err(stop);
        }
        let mut batches = Vec::new();
        for (g, mut p) in pairs.into_iter().enumerate() {
            if p.is_empty() || fallback[g] {
                continue;
            }
            p.sort_unstable();
            p.dedup();
            self.learned += p.len() as u64;
            batches.push((g, d.relation(&shapes[g], &p)?));
        }
        let which = |flags: &[bool]| (0..shapes.len()).filter(|&g| flags[g]).collect();
        Ok(Explicit {
            batches,
            fallback: which(&fallback),
            enabled: which(&enabled),
            successors,
            emitted,
        })
    }
}

/// `acc` joined with the states of `found`, which is emptied.
fn join_states<D: Diagram>(d: &D, acc: &D::Set, found: &mut Vec<Vec<Value>>) -> Result<D::Set, Stop> {
    if found.is_empty() {
        return Ok(acc.clone());
    }
    found.sort_unstable();
    found.dedup();
    let chunk = d.states(found)?;
    found.clear();
    Ok(d.union(acc, &chunk)?)
}
