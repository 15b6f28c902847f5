//! Small synthetic models with closed-form state and transition counts,
//! for the explorers' and engines' unit tests, built on
//! [`pins::synthetic::SyntheticModel`]. Owns nothing else.

use pins::synthetic::{plain_slots, SyntheticModel};
use pins::{ModelError, TransitionGroup, Value};

/// `n` independent counters modulo `m`: m^n states, n·m^n transitions,
/// diameter n·(m-1). (A name for its constructors.)
pub(crate) struct Counters;

// `new` builds the model, not a `Counters` (a name for the constructors).
#[allow(clippy::new_ret_no_self)]
impl Counters {
    pub(crate) fn new(n: usize, m: u32) -> SyntheticModel {
        Counters::failing_at(n, m, None)
    }

    /// As [`Counters::new`], but incrementing a counter that holds
    /// `fail_at` is a model error.
    pub(crate) fn failing_at(n: usize, m: u32, fail_at: Option<u32>) -> SyntheticModel {
        let groups = (0..n)
            .map(|i| TransitionGroup {
                label: format!("inc{i}"),
                read: vec![i],
                write: vec![i],
            })
            .collect();
        SyntheticModel::new(
            "counters",
            plain_slots("c", n),
            groups,
            vec![0; n],
            move |state, group, emit| {
                if fail_at == Some(state[group]) {
                    return Err(ModelError::at("inc", "value out of range"));
                }
                let mut s = state.to_vec();
                s[group] = (s[group] + 1) % m;
                emit(&s);
                Ok(())
            },
        )
    }
}

/// `k` slots modulo `m`; group `g` emits `1 + (s[0] + g) % fanout`
/// successors, the `i`-th setting slot `g % k` to a mix of the state, `g`
/// and `i` (so events have successor indices above 0, and many states are
/// reached along several paths). (A name for its constructors.)
pub(crate) struct Mixer;

// `new` builds the model, not a `Mixer` (a name for the constructors).
#[allow(clippy::new_ret_no_self)]
impl Mixer {
    pub(crate) fn new(k: usize, m: u32, groups: usize, fanout: u32) -> SyntheticModel {
        Mixer::failing_on(k, m, groups, fanout, None)
    }

    /// As [`Mixer::new`], but every successor of state `fail_on` is a
    /// model error.
    pub(crate) fn failing_on(
        k: usize,
        m: u32,
        groups: usize,
        fanout: u32,
        fail_on: Option<Vec<Value>>,
    ) -> SyntheticModel {
        SyntheticModel::new(
            "mixer",
            plain_slots("x", k),
            mixer_groups(k, groups),
            vec![0; k],
            move |state, group, emit| {
                if fail_on.as_deref() == Some(state) {
                    return Err(ModelError::at("g", "boom"));
                }
                let slot = group % k;
                let next = state[(slot + 1) % k];
                let n = 1 + (state[0] + group as u32) % fanout;
                let mut s = state.to_vec();
                for i in 0..n {
                    s[slot] = (state[slot] * 3 + next + group as u32 + i * i) % m;
                    emit(&s);
                }
                Ok(())
            },
        )
    }
}

/// Groups `g0..` of a [`Mixer`] over `k` slots: each reads every slot and
/// writes slot `g % k`.
fn mixer_groups(k: usize, groups: usize) -> Vec<TransitionGroup> {
    (0..groups)
        .map(|g| TransitionGroup {
            label: format!("g{g}"),
            read: (0..k).collect(),
            write: vec![g % k],
        })
        .collect()
}

/// A deep model: slot 0 counts modulo `n` by steps of 1 and 2 (two
/// groups), slot 1 flips (a third group). About `n / 2` BFS levels, each
/// with duplicates (x + 1 + 1 = x + 2). (A name for its constructor.)
pub(crate) struct Ring;

// `new` builds the model, not a `Ring` (a name for the constructors).
#[allow(clippy::new_ret_no_self)]
impl Ring {
    pub(crate) fn new(n: u32) -> SyntheticModel {
        SyntheticModel::new(
            "ring",
            plain_slots("x", 2),
            mixer_groups(2, 3),
            vec![0; 2],
            move |state, group, emit| {
                let mut s = state.to_vec();
                match group {
                    0 | 1 => s[0] = (s[0] + group as u32 + 1) % n,
                    _ => s[1] ^= 1,
                }
                emit(&s);
                Ok(())
            },
        )
    }
}
