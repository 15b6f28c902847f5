//! Models given as plain data plus one successor function, for the tests of
//! code that drives models (the explorers and engines, this crate's own
//! checks): one home for the small synthetic models those tests need.
//!
//! Owns only [`SyntheticModel`] and the slot helper; it must not know any
//! formalism nor any engine, and no front-end should build on it.

use crate::{Model, ModelError, Slot, TransitionGroup, Value};

/// The successor function of a [`SyntheticModel`], as [`Model::next`]:
/// `(state, group, emit)`.
pub type Successors =
    dyn Fn(&[Value], usize, &mut dyn FnMut(&[Value])) -> Result<(), ModelError> + Send + Sync;

/// A model whose slots, groups, processes and initial state are data and
/// whose successors come from one function. Formalism `test`.
pub struct SyntheticModel {
    /// The model's name.
    pub name: String,
    /// The slots of the state vector.
    pub slots: Vec<Slot>,
    /// The transition groups with their read and write sets.
    pub groups: Vec<TransitionGroup>,
    /// Names of the processes the slots may belong to.
    pub process_names: Vec<String>,
    /// The initial state.
    pub initial: Vec<Value>,
    successors: Box<Successors>,
}

impl SyntheticModel {
    /// A model without processes; `successors` must be deterministic (see
    /// [`Model`]).
    pub fn new(
        name: impl Into<String>,
        slots: Vec<Slot>,
        groups: Vec<TransitionGroup>,
        initial: Vec<Value>,
        successors: impl Fn(&[Value], usize, &mut dyn FnMut(&[Value])) -> Result<(), ModelError>
            + Send
            + Sync
            + 'static,
    ) -> Self {
        SyntheticModel {
            name: name.into(),
            slots,
            groups,
            process_names: Vec::new(),
            initial,
            successors: Box::new(successors),
        }
    }

    /// The same model with these process names (for slots that name a
    /// process).
    pub fn with_processes(mut self, names: &[&str]) -> Self {
        self.process_names = names.iter().map(|&n| n.to_string()).collect();
        self
    }
}

/// `n` 32-bit slots of no process, named `{prefix}0`, `{prefix}1`, ...
pub fn plain_slots(prefix: &str, n: usize) -> Vec<Slot> {
    (0..n)
        .map(|i| Slot {
            name: format!("{prefix}{i}"),
            process: None,
            bits: 32,
        })
        .collect()
}

impl Model for SyntheticModel {
    fn formalism(&self) -> &str {
        "test"
    }
    fn name(&self) -> &str {
        &self.name
    }
    fn slots(&self) -> &[Slot] {
        &self.slots
    }
    fn process_names(&self) -> &[String] {
        &self.process_names
    }
    fn initial_state(&self) -> Vec<Value> {
        self.initial.clone()
    }
    fn groups(&self) -> &[TransitionGroup] {
        &self.groups
    }
    fn next(&self, state: &[Value], group: usize, emit: &mut crate::Emit) -> crate::Step {
        (self.successors)(state, group, emit)
    }
}
