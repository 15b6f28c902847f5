//! The parsed place/transition net ([`PetriNet`]) and its `pins::Model`
//! semantics: one slot per place holding its token count, one transition
//! group per transition, the firing rule, and the exact read/write sets.
//!
//! This module owns the in-memory net and the successor function (the hot
//! loop of every exploration). It must not touch XML (that is `parse`) nor
//! decide the process partition (that is `partition`); it only receives both
//! results.
//!
//! Firing rule: transition `t` is enabled in marking `m` iff
//! `m(p) >= pre(p, t)` for every place `p` of its pre-set; firing gives
//! `m' = m - pre(., t) + post(., t)`. Every enabled transition yields exactly
//! one successor. A token count above `u32::MAX` is reported as a
//! [`ModelError`] naming the place and the transition, never wrapped.
//!
//! Hot-loop layout: per transition a flat slice of pre-set arcs
//! (place, weight) and a flat slice of non-zero net changes
//! (place, post - pre), both in one `Vec` each with offsets, so enabling
//! and firing touch two contiguous arrays and no `Vec<Vec<_>>`.

use pins::{Model, ModelError, Slot, TransitionGroup, Value};

use crate::partition::{Partition, PartitionMethod};

/// A transition with its pre-set and post-set. Both lists are sorted by
/// place index, name each place at most once (parallel arcs are summed) and
/// carry positive arc weights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transition {
    /// The transition's PNML `id`.
    pub id: String,
    /// Input places: (place index, arc weight), sorted by place index.
    pub pre: Vec<(usize, u32)>,
    /// Output places: (place index, arc weight), sorted by place index.
    pub post: Vec<(usize, u32)>,
}

/// One pre-set arc in the hot loop.
#[derive(Clone, Copy, Debug)]
struct InputArc {
    place: u32,
    weight: u32,
}

/// One non-zero net change of a place when a transition fires.
#[derive(Clone, Copy, Debug)]
struct Change {
    place: u32,
    delta: i64,
}

/// A place/transition net read from PNML; implements [`pins::Model`].
#[derive(Clone, Debug)]
pub struct PetriNet {
    file: String,
    id: String,
    places: Vec<String>,
    initial_marking: Vec<Value>,
    transitions: Vec<Transition>,
    partition_method: PartitionMethod,
    // pins view
    slots: Vec<Slot>,
    groups: Vec<TransitionGroup>,
    process_names: Vec<String>,
    // hot loop: transition t uses input_arcs[input_start[t]..input_start[t+1]]
    // and changes[change_start[t]..change_start[t+1]].
    input_start: Vec<usize>,
    input_arcs: Vec<InputArc>,
    change_start: Vec<usize>,
    changes: Vec<Change>,
}

impl PetriNet {
    /// Builds the net. `transitions` must already have sorted, merged pre
    /// and post lists with place indices below `places.len()` (the parser
    /// guarantees it), and `partition` must cover every place.
    pub(crate) fn new(
        file: &str,
        id: String,
        places: Vec<String>,
        initial_marking: Vec<Value>,
        transitions: Vec<Transition>,
        partition: Partition,
    ) -> PetriNet {
        debug_assert_eq!(places.len(), initial_marking.len());
        debug_assert_eq!(partition.component_of_place.len(), places.len());
        let slots = places
            .iter()
            .zip(&partition.component_of_place)
            .map(|(name, &c)| Slot {
                name: name.clone(),
                process: Some(c),
                bits: 32,
            })
            .collect();

        let mut groups = Vec::with_capacity(transitions.len());
        let mut input_start = Vec::with_capacity(transitions.len() + 1);
        let mut input_arcs = Vec::new();
        let mut change_start = Vec::with_capacity(transitions.len() + 1);
        let mut changes = Vec::new();
        input_start.push(0);
        change_start.push(0);
        for t in &transitions {
            let (read, write, delta) = dependencies(t);
            input_arcs.extend(t.pre.iter().map(|&(p, w)| InputArc {
                place: p as u32,
                weight: w,
            }));
            changes.extend(delta.into_iter().map(|(p, d)| Change {
                place: p as u32,
                delta: d,
            }));
            input_start.push(input_arcs.len());
            change_start.push(changes.len());
            groups.push(TransitionGroup {
                label: t.id.clone(),
                read,
                write,
            });
        }

        PetriNet {
            file: file.to_owned(),
            id,
            places,
            initial_marking,
            transitions,
            partition_method: partition.method,
            slots,
            groups,
            process_names: partition.names,
            input_start,
            input_arcs,
            change_start,
            changes,
        }
    }

    /// The net's PNML `id` (also [`Model::name`]).
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The file label the net was read from.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// Place ids in document order; place `i` is slot `i`.
    pub fn places(&self) -> &[String] {
        &self.places
    }

    /// The initial marking, one token count per place.
    pub fn initial_marking(&self) -> &[Value] {
        &self.initial_marking
    }

    /// Transitions in document order; transition `t` is group `t`.
    pub fn transitions(&self) -> &[Transition] {
        &self.transitions
    }

    /// Index of the place with this id (linear search; for tools and tests).
    pub fn place_index(&self, id: &str) -> Option<usize> {
        self.places.iter().position(|p| p == id)
    }

    /// Index of the transition with this id (linear search).
    pub fn transition_index(&self, id: &str) -> Option<usize> {
        self.transitions.iter().position(|t| t.id == id)
    }

    /// Total number of arcs after merging parallel arcs.
    pub fn arc_count(&self) -> usize {
        self.transitions
            .iter()
            .map(|t| t.pre.len() + t.post.len())
            .sum()
    }

    /// How the process partition was obtained (see the `partition` module).
    pub fn partition_method(&self) -> PartitionMethod {
        self.partition_method
    }

    fn check_state(&self, state: &[Value]) -> Result<(), ModelError> {
        if state.len() == self.places.len() {
            Ok(())
        } else {
            Err(ModelError::at(
                format!("{}:{}", self.file, self.id),
                format!(
                    "state has {} values but the net has {} places",
                    state.len(),
                    self.places.len()
                ),
            ))
        }
    }

    /// If `t` is enabled in `state`, writes its successor into `scratch`
    /// (which must equal `state` on entry) and returns `Ok(true)`; the caller
    /// restores `scratch` with [`Self::restore`]. Returns `Ok(false)` and
    /// leaves `scratch` untouched when `t` is disabled.
    #[inline]
    fn fire_into(
        &self,
        t: usize,
        state: &[Value],
        scratch: &mut [Value],
    ) -> Result<bool, ModelError> {
        let inputs = &self.input_arcs[self.input_start[t]..self.input_start[t + 1]];
        if !inputs.iter().all(|a| state[a.place as usize] >= a.weight) {
            return Ok(false);
        }
        for c in &self.changes[self.change_start[t]..self.change_start[t + 1]] {
            let p = c.place as usize;
            // Never negative: a negative delta comes from a pre-set arc
            // whose weight the enabling test already checked.
            let v = i64::from(state[p]) + c.delta;
            if v > i64::from(Value::MAX) {
                return Err(self.overflow(t, p, state[p], c.delta));
            }
            scratch[p] = v as Value;
        }
        Ok(true)
    }

    /// Undoes [`Self::fire_into`] for transition `t`.
    #[inline]
    fn restore(&self, t: usize, state: &[Value], scratch: &mut [Value]) {
        for c in &self.changes[self.change_start[t]..self.change_start[t + 1]] {
            let p = c.place as usize;
            scratch[p] = state[p];
        }
    }

    #[cold]
    fn overflow(&self, t: usize, p: usize, tokens: Value, delta: i64) -> ModelError {
        ModelError::at(
            format!("{}:{}", self.file, self.transitions[t].id),
            format!(
                "token overflow: firing transition '{}' puts {} + {} tokens into place '{}', \
                 more than {}",
                self.transitions[t].id,
                tokens,
                delta,
                self.places[p],
                Value::MAX
            ),
        )
    }
}

/// Read set, write set and non-zero net changes of a transition whose pre
/// and post lists are sorted by place. Read = pre-set ∪ post-set (the new
/// count of an output place depends on its old count); write = places whose
/// net change post - pre is non-zero (a self-loop with equal weights is read,
/// not written).
fn dependencies(t: &Transition) -> (Vec<usize>, Vec<usize>, Vec<(usize, i64)>) {
    let mut read = Vec::with_capacity(t.pre.len() + t.post.len());
    let mut delta = Vec::with_capacity(t.pre.len() + t.post.len());
    let (mut i, mut j) = (0, 0);
    while i < t.pre.len() || j < t.post.len() {
        let pre = t.pre.get(i).copied();
        let post = t.post.get(j).copied();
        let (place, d) = match (pre, post) {
            (Some((p, w)), Some((q, v))) if p == q => {
                i += 1;
                j += 1;
                (p, i64::from(v) - i64::from(w))
            }
            (Some((p, w)), Some((q, _))) if p < q => {
                i += 1;
                (p, -i64::from(w))
            }
            (Some((p, w)), None) => {
                i += 1;
                (p, -i64::from(w))
            }
            (_, Some((q, v))) => {
                j += 1;
                (q, i64::from(v))
            }
            (None, None) => unreachable!("loop condition"),
        };
        read.push(place);
        if d != 0 {
            delta.push((place, d));
        }
    }
    let write = delta.iter().map(|&(p, _)| p).collect();
    (read, write, delta)
}

impl Model for PetriNet {
    fn formalism(&self) -> &str {
        "pnml"
    }

    fn name(&self) -> &str {
        &self.id
    }

    fn slots(&self) -> &[Slot] {
        &self.slots
    }

    fn process_names(&self) -> &[String] {
        &self.process_names
    }

    fn initial_state(&self) -> Vec<Value> {
        self.initial_marking.clone()
    }

    fn groups(&self) -> &[TransitionGroup] {
        &self.groups
    }

    fn next(
        &self,
        state: &[Value],
        group: usize,
        emit: &mut dyn FnMut(&[Value]),
    ) -> Result<(), ModelError> {
        self.check_state(state)?;
        if group >= self.transitions.len() {
            return Err(ModelError::at(
                format!("{}:{}", self.file, self.id),
                format!(
                    "transition group {group} does not exist (the net has {} transitions)",
                    self.transitions.len()
                ),
            ));
        }
        let mut scratch = state.to_vec();
        if self.fire_into(group, state, &mut scratch)? {
            emit(&scratch);
        }
        Ok(())
    }

    fn next_all(
        &self,
        state: &[Value],
        emit: &mut dyn FnMut(usize, &[Value]),
    ) -> Result<(), ModelError> {
        self.check_state(state)?;
        let mut scratch = state.to_vec();
        for t in 0..self.transitions.len() {
            if self.fire_into(t, state, &mut scratch)? {
                emit(t, &scratch);
                self.restore(t, state, &mut scratch);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dependencies_of_mixed_transition() {
        // p0 -2-> t -2-> p0 (self-loop), p1 -1-> t, t -3-> p2, p3 -1-> t -4-> p3
        let t = Transition {
            id: "t".into(),
            pre: vec![(0, 2), (1, 1), (3, 1)],
            post: vec![(0, 2), (2, 3), (3, 4)],
        };
        let (read, write, delta) = dependencies(&t);
        assert_eq!(read, vec![0, 1, 2, 3]);
        assert_eq!(write, vec![1, 2, 3]);
        assert_eq!(delta, vec![(1, -1), (2, 3), (3, 3)]);
    }

    #[test]
    fn dependencies_of_post_only_and_pre_only() {
        let t = Transition {
            id: "t".into(),
            pre: vec![(5, 1)],
            post: vec![(2, 1)],
        };
        let (read, write, delta) = dependencies(&t);
        assert_eq!(read, vec![2, 5]);
        assert_eq!(write, vec![2, 5]);
        assert_eq!(delta, vec![(2, 1), (5, -1)]);
    }
}
