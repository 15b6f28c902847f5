//! Small synthetic models with closed-form state and transition counts,
//! for the explorers' unit tests. Owns nothing else.

use pins::{Model, ModelError, Slot, TransitionGroup, Value};

/// `n` independent counters modulo `m`: m^n states, n·m^n transitions,
/// diameter n·(m-1).
pub(crate) struct Counters {
    n: usize,
    m: u32,
    slots: Vec<Slot>,
    groups: Vec<TransitionGroup>,
    pub(crate) fail_at: Option<u32>,
}

impl Counters {
    pub(crate) fn new(n: usize, m: u32) -> Self {
        Counters {
            n,
            m,
            slots: (0..n)
                .map(|i| Slot {
                    name: format!("c{i}"),
                    process: None,
                    bits: 32,
                })
                .collect(),
            groups: (0..n)
                .map(|i| TransitionGroup {
                    label: format!("inc{i}"),
                    read: vec![i],
                    write: vec![i],
                })
                .collect(),
            fail_at: None,
        }
    }
}

impl Model for Counters {
    fn formalism(&self) -> &str {
        "test"
    }
    fn name(&self) -> &str {
        "counters"
    }
    fn slots(&self) -> &[Slot] {
        &self.slots
    }
    fn process_names(&self) -> &[String] {
        &[]
    }
    fn initial_state(&self) -> Vec<Value> {
        vec![0; self.n]
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
        if self.fail_at == Some(state[group]) {
            return Err(ModelError::at("inc", "value out of range"));
        }
        let mut s = state.to_vec();
        s[group] = (s[group] + 1) % self.m;
        emit(&s);
        Ok(())
    }
}
