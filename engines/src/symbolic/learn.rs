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
//! Slots written but not read are part of the projection too, so a group
//! that writes a slot only on some successors (copy semantics) is still
//! exact.
//!
//! A batch (the unseen projections of one image) is expanded completely
//! before anything is added, and becomes one diagram
//! ([`Diagram::relation`]) joined to the group's relation by one union.
//!
//! Owns the calls to the model and the learned-pair count. Must not know
//! search strategies; the diagram is used only through [`Diagram`].

use super::diagram::{Diagram, GroupShape, OutOfNodes};
use pins::{Model, ModelError, Value};

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

pub struct Learner<'m> {
    model: &'m dyn Model,
    filler: Vec<Value>,
    /// Transitions (distinct pairs of short vectors) added to relations.
    pub learned: u64,
    /// Calls of the model's successor function.
    pub calls: u64,
    /// OR of every value seen (the widest slot value).
    pub value_bits_or: Value,
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
        let mut failure: Option<Stop> = None;
        let mut misfits: Vec<(usize, Value)> = Vec::new();
        let mut full = self.filler.clone();
        let model = self.model;
        let mut calls = 0u64;
        let mut or = 0;
        d.for_each_vector(short, &shape.proj, &mut |cur| {
            if failure.is_some() {
                return;
            }
            for (&i, &v) in shape.proj.iter().zip(cur) {
                full[i] = v;
            }
            calls += 1;
            let result = model.next(&full, g, &mut |succ| {
                if failure.is_some() {
                    return;
                }
                let mut w = 0;
                for (i, (&a, &b)) in full.iter().zip(succ).enumerate() {
                    if shape.write.get(w) == Some(&i) {
                        w += 1;
                        if !d.layout().fits(i, b) {
                            match misfits.iter_mut().find(|m| m.0 == i) {
                                Some(m) => m.1 = m.1.max(b),
                                None => misfits.push((i, b)),
                            }
                        }
                        or |= b;
                    } else if a != b {
                        failure = Some(Stop::Model(ModelError::new(format!(
                            "group {g} ({}) changed slot {i} ({}), which is not in its write set",
                            model.groups()[g].label,
                            model.slots()[i].name
                        ))));
                        return;
                    }
                }
                let next = shape.write.iter().map(|&i| succ[i]).collect();
                pairs.push((cur.to_vec(), next));
            });
            if let Err(e) = result {
                failure = Some(Stop::Model(e));
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
        pairs.sort_unstable();
        pairs.dedup();
        self.learned += pairs.len() as u64;
        Ok(d.relation(shape, &pairs)?)
    }
}
