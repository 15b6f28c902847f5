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
//! Hot-loop layout: one 24-byte record per transition, scanned sequentially,
//! holding its first pre-set arc inline (most transitions are rejected by
//! that single test) and offsets into two flat arrays: the remaining pre-set
//! arcs (place, weight) and the non-zero net changes (place, post - pre).
//! No `Vec<Vec<_>>` and no per-call allocation but one scratch state.

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

/// The hot-loop record of one transition.
#[derive(Clone, Copy, Debug)]
struct HotTransition {
    /// The first pre-set arc, tested before anything else. A transition
    /// with an empty pre-set has `weight` 0 on place 0 (always true).
    first: InputArc,
    /// The other pre-set arcs: `input_arcs[rest_start..rest_end]`.
    rest_start: u32,
    rest_end: u32,
    /// Its net changes: `changes[change_start..change_end]`.
    change_start: u32,
    change_end: u32,
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
    // hot loop (see the module documentation)
    hot: Vec<HotTransition>,
    input_arcs: Vec<InputArc>,
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

        // Offsets are u32: the parser refuses nets with more than u32::MAX
        // arcs (a PNML file of hundreds of gigabytes).
        let offset = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        let mut groups = Vec::with_capacity(transitions.len());
        let mut hot = Vec::with_capacity(transitions.len());
        let mut input_arcs = Vec::new();
        let mut changes = Vec::new();
        for t in &transitions {
            let (read, write, delta) = dependencies(t);
            let first = match t.pre.first() {
                Some(&(p, w)) => InputArc {
                    place: p as u32,
                    weight: w,
                },
                None => InputArc {
                    place: 0,
                    weight: 0,
                },
            };
            let rest_start = offset(input_arcs.len());
            input_arcs.extend(t.pre.iter().skip(1).map(|&(p, w)| InputArc {
                place: p as u32,
                weight: w,
            }));
            let change_start = offset(changes.len());
            changes.extend(delta.into_iter().map(|(p, d)| Change {
                place: p as u32,
                delta: d,
            }));
            hot.push(HotTransition {
                first,
                rest_start,
                rest_end: offset(input_arcs.len()),
                change_start,
                change_end: offset(changes.len()),
            });
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
            hot,
            input_arcs,
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

    /// Whether transition `h` is enabled in `state` (`state` non-empty).
    #[inline(always)]
    fn enabled(&self, h: &HotTransition, state: &[Value]) -> bool {
        state[h.first.place as usize] >= h.first.weight
            && self.input_arcs[h.rest_start as usize..h.rest_end as usize]
                .iter()
                .all(|a| state[a.place as usize] >= a.weight)
    }

    /// Writes into `scratch` (equal to `state` on entry) the successor of
    /// `state` by the enabled transition `t`; [`Self::restore`] undoes it.
    #[inline(always)]
    fn apply(
        &self,
        t: usize,
        h: &HotTransition,
        state: &[Value],
        scratch: &mut [Value],
    ) -> Result<(), ModelError> {
        for c in &self.changes[h.change_start as usize..h.change_end as usize] {
            let p = c.place as usize;
            // Never negative: a negative change comes from a pre-set arc
            // whose weight the enabling test has checked.
            let v = i64::from(state[p]) + c.delta;
            if v > i64::from(Value::MAX) {
                return Err(self.overflow(t, p, state[p], c.delta));
            }
            scratch[p] = v as Value;
        }
        Ok(())
    }

    /// Undoes [`Self::apply`] of transition `h` on `scratch`.
    #[inline(always)]
    fn restore(&self, h: &HotTransition, state: &[Value], scratch: &mut [Value]) {
        for c in &self.changes[h.change_start as usize..h.change_end as usize] {
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
    pins::describe_model!("pnml", id, slots, process_names, groups);

    fn initial_state(&self) -> Vec<Value> {
        self.initial_marking.clone()
    }

    fn next(&self, state: &[Value], group: usize, emit: &mut pins::Emit) -> pins::Step {
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
        if self.places.is_empty() {
            // No place: every transition (necessarily with empty pre- and
            // post-set) is enabled and leads to the empty marking.
            emit(&[]);
            return Ok(());
        }
        let h = &self.hot[group];
        if self.enabled(h, state) {
            let mut scratch = state.to_vec();
            self.apply(group, h, state, &mut scratch)?;
            emit(&scratch);
        }
        Ok(())
    }

    fn next_all(&self, state: &[Value], emit: &mut pins::EmitAll) -> pins::Step {
        self.check_state(state)?;
        if self.places.is_empty() {
            for t in 0..self.hot.len() {
                emit(t, &[]);
            }
            return Ok(());
        }
        let mut scratch = state.to_vec();
        for (t, h) in self.hot.iter().enumerate() {
            if self.enabled(h, state) {
                self.apply(t, h, state, &mut scratch)?;
                emit(t, &scratch);
                self.restore(h, state, &mut scratch);
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
