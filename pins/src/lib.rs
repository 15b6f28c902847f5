//! The model interface shared by every front-end and every engine (after
//! LTSmin's PINS: Partitioned Next-State Interface).
//!
//! A model is a fixed-length vector of `k` slots, each a [`Value`] (`u32`),
//! with an initial state and `G` transition groups. Each group names the
//! slots it reads and the slots it writes (the dependency matrix) and
//! produces successors in a deterministic order, so that the pair
//! (group, successor index) names an event that can be replayed.
//!
//! This crate owns only the interface, the invariants every model must
//! keep ([`validate`]) and the [`synthetic`] models that tests build from
//! data; it must not know any formalism nor any storage engine.
//! Front-ends depend on it to produce models, engines depend on it to
//! explore them, and nothing here depends on either.

use std::fmt;

mod source_error;
pub mod synthetic;
pub use source_error::{model_name, read_source, ErrorKind, SourceError};

/// The value of one slot of a state vector.
pub type Value = u32;

/// Metadata of one slot of the state vector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slot {
    /// Human-readable name (a place id, a variable, `P.pc` for a control state).
    pub name: String,
    /// The process (index into [`Model::process_names`]) owning this slot, or
    /// `None` for global data (shared variables, channels, places of a net
    /// without process structure).
    pub process: Option<usize>,
    /// Bits needed to store every value the slot can take (`u` in the
    /// Compact Tree paper); 32 when the front-end cannot bound it statically.
    pub bits: u32,
}

/// One transition group: a unit of the partitioned transition relation
/// (a Petri net transition, a DVE transition or synchronised pair, ...).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TransitionGroup {
    /// Human-readable label (transition id, `Proc.from->to`, ...).
    pub label: String,
    /// Slots whose value can influence whether the group is enabled or which
    /// successors it produces, in increasing order.
    pub read: Vec<usize>,
    /// Slots the group may change, in increasing order. Every other slot of a
    /// successor equals the same slot of its source state.
    pub write: Vec<usize>,
}

/// One component of the process partition: every slot belongs to exactly
/// one component (SPIN's COLLAPSE stores each component in its own table).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Component {
    /// Process name, or `"globals"` for the slots owned by no process.
    pub name: String,
    /// The component's slots, in increasing order.
    pub slots: Vec<usize>,
}

/// An evaluation error inside a model (division by zero, index out of range,
/// channel or token overflow). Always reported, never a panic or a silent
/// wrong count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelError {
    /// Where in the model source the error arose (`file:line:col`, a
    /// transition id, ...), when known.
    pub location: Option<String>,
    /// What went wrong.
    pub message: String,
    /// Not an error of the model but a construct the front-end does not
    /// handle, met only while exploring ([`ModelError::unsupported`]).
    pub unsupported: bool,
}

/// How the text of an unsupported construct met while exploring begins
/// ([`ModelError::unsupported`]): the harness reports such a run
/// `unsupported`, not `model_error`.
pub const UNSUPPORTED_PREFIX: &str = "unsupported: ";

impl ModelError {
    pub fn new(message: impl Into<String>) -> Self {
        ModelError {
            location: None,
            message: message.into(),
            unsupported: false,
        }
    }

    pub fn at(location: impl Into<String>, message: impl Into<String>) -> Self {
        ModelError {
            location: Some(location.into()),
            message: message.into(),
            unsupported: false,
        }
    }

    /// A construct the front-end does not handle, found while exploring
    /// (never a count it is not sure of): displayed with
    /// [`UNSUPPORTED_PREFIX`] first.
    pub fn unsupported(location: impl Into<String>, message: impl Into<String>) -> Self {
        ModelError {
            unsupported: true,
            ..ModelError::at(location, message)
        }
    }
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.unsupported {
            f.write_str(UNSUPPORTED_PREFIX)?;
        }
        match &self.location {
            Some(loc) => write!(f, "{loc}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for ModelError {}

/// Where [`Model::next`] sends each successor (for implementations: a
/// signature that fits on one line).
pub type Emit<'a> = dyn FnMut(&[Value]) + 'a;

/// Where [`Model::next_all`] sends each (group, successor).
pub type EmitAll<'a> = dyn FnMut(usize, &[Value]) + 'a;

/// What a successor function gives back: nothing, or the model error that
/// stopped it.
pub type Step = Result<(), ModelError>;

/// A model: the only thing engines see of a formalism.
///
/// Successor functions must be deterministic: the same state and group always
/// produce the same successors in the same order (ComBack replays events as
/// (group, successor index) pairs).
pub trait Model: Send + Sync {
    /// Short name of the formalism (`pnml`, `dve`, ...).
    fn formalism(&self) -> &str;

    /// Name of the model instance.
    fn name(&self) -> &str;

    /// The `k` slots of the state vector.
    fn slots(&self) -> &[Slot];

    /// Names of the processes that slots may belong to (see [`Slot::process`]).
    fn process_names(&self) -> &[String];

    /// The initial state, of length `k`.
    fn initial_state(&self) -> Vec<Value>;

    /// The transition groups with their read and write sets.
    fn groups(&self) -> &[TransitionGroup];

    /// Calls `emit` once for every successor of `state` by `group`, in a
    /// deterministic order.
    fn next(
        &self,
        state: &[Value],
        group: usize,
        emit: &mut dyn FnMut(&[Value]),
    ) -> Result<(), ModelError>;

    /// Calls `emit(group, successor)` for every successor of `state` by every
    /// group, groups in increasing order. Front-ends override it when they
    /// can do better than one call per group.
    fn next_all(
        &self,
        state: &[Value],
        emit: &mut dyn FnMut(usize, &[Value]),
    ) -> Result<(), ModelError> {
        for g in 0..self.groups().len() {
            self.next(state, g, &mut |s| emit(g, s))?;
        }
        Ok(())
    }

    /// Whether `state` is the model's *error state*: the one exception to
    /// write sets. A successor that is the error state may differ from its
    /// source outside the group's write set; whether a group reaches it
    /// from a state must depend only on the group's read slots, and the
    /// error state itself on nothing (DiVinE's error state is one constant
    /// vector). Engines that learn groups on projections (the symbolic
    /// ones) add it as a whole state instead of a local change. Default:
    /// the model has no error state.
    fn is_error_state(&self, _state: &[Value]) -> bool {
        false
    }

    /// Called once after an exploration expanded every reachable state,
    /// before its counts stand: a front-end that computed some successors
    /// under a reading it is not sure of (and met no error) refuses the
    /// counts here (an `unsupported` [`ModelError`]). Default: they stand.
    fn complete(&self) -> Result<(), ModelError> {
        Ok(())
    }

    /// Number of slots `k`.
    fn slot_count(&self) -> usize {
        self.slots().len()
    }

    /// The process partition: one component per process that owns a slot,
    /// in process order, then one `globals` component for the slots owned by
    /// no process (if any).
    fn partition(&self) -> Vec<Component> {
        let names = self.process_names();
        let mut per_process: Vec<Vec<usize>> = vec![Vec::new(); names.len()];
        let mut globals = Vec::new();
        for (i, slot) in self.slots().iter().enumerate() {
            match slot.process {
                Some(p) if p < names.len() => per_process[p].push(i),
                _ => globals.push(i),
            }
        }
        let mut out: Vec<Component> = names
            .iter()
            .zip(per_process)
            .filter(|(_, slots)| !slots.is_empty())
            .map(|(name, slots)| Component {
                name: name.clone(),
                slots,
            })
            .collect();
        if !globals.is_empty() {
            out.push(Component {
                name: "globals".into(),
                slots: globals,
            });
        }
        out
    }
}

/// Implements the descriptive methods of [`Model`] inside a model's `impl
/// Model` block, from the formalism's short name and the model's fields
/// holding its name, slots, process names and groups:
/// `pins::describe_model!("dve", name, slots, procs, groups);`.
#[macro_export]
macro_rules! describe_model {
    ($formalism:literal, $name:ident, $slots:ident, $procs:ident, $groups:ident) => {
        fn formalism(&self) -> &str {
            $formalism
        }
        fn name(&self) -> &str {
            &self.$name
        }
        fn slots(&self) -> &[$crate::Slot] {
            &self.$slots
        }
        fn process_names(&self) -> &[String] {
            &self.$procs
        }
        fn groups(&self) -> &[$crate::TransitionGroup] {
            &self.$groups
        }
    };
}

/// Checks the structural invariants of a model: initial state of length `k`,
/// read and write sets sorted, duplicate-free and in range, slot owners in
/// range. Returns a description of the first violation.
pub fn validate(model: &dyn Model) -> Result<(), String> {
    let k = model.slot_count();
    let init = model.initial_state();
    if init.len() != k {
        return Err(format!(
            "initial state has {} values, model has {k} slots",
            init.len()
        ));
    }
    for (i, s) in model.slots().iter().enumerate() {
        if let Some(p) = s.process {
            if p >= model.process_names().len() {
                return Err(format!("slot {i} ({}) names unknown process {p}", s.name));
            }
        }
    }
    for (g, group) in model.groups().iter().enumerate() {
        for (what, set) in [("read", &group.read), ("write", &group.write)] {
            if set.windows(2).any(|w| w[0] >= w[1]) {
                return Err(format!(
                    "group {g} ({}): {what} set is not strictly increasing",
                    group.label
                ));
            }
            if let Some(&bad) = set.iter().find(|&&s| s >= k) {
                return Err(format!(
                    "group {g} ({}): {what} set names slot {bad} of {k}",
                    group.label
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::synthetic::SyntheticModel;

    /// Two counters modulo 3, one per process, around a global slot.
    fn toy() -> SyntheticModel {
        let slot = |name: &str, process| Slot {
            name: name.into(),
            process,
            bits: 2,
        };
        let inc = |label: &str, slot: usize| TransitionGroup {
            label: label.into(),
            read: vec![slot],
            write: vec![slot],
        };
        SyntheticModel::new(
            "toy",
            vec![slot("a", Some(0)), slot("g", None), slot("b", Some(1))],
            vec![inc("inc_a", 0), inc("inc_b", 2)],
            vec![0, 0, 0],
            |state, group, emit| {
                let slot = if group == 0 { 0 } else { 2 };
                let mut s = state.to_vec();
                s[slot] = (s[slot] + 1) % 3;
                emit(&s);
                Ok(())
            },
        )
        .with_processes(&["A", "B"])
    }

    #[test]
    fn partition_puts_unowned_slots_in_globals() {
        let toy = toy();
        let parts = toy.partition();
        let names: Vec<_> = parts.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["A", "B", "globals"]);
        assert_eq!(parts[2].slots, vec![1]);
    }

    #[test]
    fn default_next_all_visits_groups_in_order() {
        let toy = toy();
        let mut seen = Vec::new();
        toy.next_all(&[0, 0, 0], &mut |g, s| seen.push((g, s.to_vec())))
            .unwrap();
        assert_eq!(seen, vec![(0, vec![1, 0, 0]), (1, vec![0, 0, 1])]);
    }

    #[test]
    fn validate_rejects_unsorted_sets() {
        let mut toy = toy();
        assert_eq!(validate(&toy), Ok(()));
        toy.groups[0].read = vec![2, 0];
        assert!(validate(&toy)
            .unwrap_err()
            .contains("not strictly increasing"));
    }

    #[test]
    fn model_error_display_names_location() {
        let e = ModelError::at("net.pnml:t3", "token overflow");
        assert_eq!(e.to_string(), "net.pnml:t3: token overflow");
    }
}
