//! The worked example of CONTRIBUTING.md: a toy storage scheme, a sorted
//! vector of state vectors, written as a scheme folder would be and run
//! through the conformance checks without being registered.
//!
//! Owns only the toy; it is compiled for tests and never listed in
//! [`ENGINES`](crate::registry::ENGINES).

use super::{counts_a_closed_form_model, sequential_set_answers_like_a_hash_set};
use crate::blocks::budget::Budget;
use crate::registry::{params, sequential_only, Build, EngineOptions, EngineSpec, Setup};
use crate::visited::{Inserted, MemoryUsage, TableFull, VisitedSet};
use pins::Value;

// -- the scheme's `mod.rs`: the set itself --------------------------------

/// The states, sorted, each with its number in insertion order; an
/// insertion is a binary search and a shift.
pub struct SortedVec {
    states: Vec<(Box<[Value]>, u64)>,
    /// Every byte of the vector's capacity is reserved here.
    budget: Budget,
    reserved: u64,
}

impl SortedVec {
    fn new(budget: Budget) -> Self {
        SortedVec {
            states: Vec::new(),
            budget,
            reserved: 0,
        }
    }

    fn bytes_per_state(k: usize) -> u64 {
        (std::mem::size_of::<(Box<[Value]>, u64)>() + 4 * k) as u64
    }
}

impl VisitedSet for SortedVec {
    fn find_or_insert(&mut self, state: &[Value]) -> Result<Inserted, TableFull> {
        match self.states.binary_search_by(|(s, _)| (**s).cmp(state)) {
            Ok(at) => Ok(Inserted::Found(self.states[at].1)),
            Err(at) => {
                let need = Self::bytes_per_state(state.len());
                self.budget.reserve(need, "sorted vector")?;
                self.reserved += need;
                let number = self.states.len() as u64;
                self.states.insert(at, (state.into(), number));
                Ok(Inserted::New(number))
            }
        }
    }

    fn len(&self) -> u64 {
        self.states.len() as u64
    }

    fn memory(&self) -> MemoryUsage {
        MemoryUsage {
            used: self.reserved,
            alloc: self.reserved,
        }
    }

    fn params(&self) -> String {
        String::new()
    }
}

impl Drop for SortedVec {
    fn drop(&mut self) {
        self.budget.release(self.reserved);
    }
}

// -- the scheme's `spec.rs`: parameters and registry entry ----------------

/// What `ENGINES` would list (one line: `&sorted_vec::SPEC,`).
pub const SPEC: EngineSpec = EngineSpec::new(
    "sorted-vec",
    sequential_only::<SortedVecConfig, SortedVec>(),
)
.summary("toy: a sorted vector of states (binary search, shift)")
.params(PARAMS);

// A parameter, declared once: its doc comment is its meaning, then its
// key, its typed default and (here none) its range check.
params! {
    /// The toy's configuration: its one parameter.
    pub struct SortedVecConfig, listed in PARAMS {
        /// states the vector reserves room for at the start
        reserve: usize = RESERVE("reserve"), default 0;
    }
}

impl Build<SortedVecConfig> for SortedVec {
    fn build(setup: Setup<SortedVecConfig>) -> Result<Self, TableFull> {
        let mut set = SortedVec::new(setup.budget);
        set.states.reserve(setup.config.reserve);
        Ok(set)
    }
}

// -- the checks every registered scheme gets -----------------------------

#[test]
fn the_toy_scheme_conforms() {
    counts_a_closed_form_model(&SPEC);
    sequential_set_answers_like_a_hash_set(&SPEC);
}

#[test]
fn the_toy_scheme_checks_its_parameters() {
    let model = crate::test_models::Counters::new(2, 2);
    let opts = |k: &str, v: &str| EngineOptions {
        params: vec![(k.into(), v.into())],
        ..EngineOptions::default()
    };
    assert!(SPEC
        .build_visited_set(&model, &opts("reserve", "64"))
        .is_ok());
    let bad = SPEC.build_visited_set(&model, &opts("reserve", "many"));
    assert_eq!(
        bad.err().as_deref(),
        Some("engine parameter reserve=many: not a valid value")
    );
    let unknown = SPEC.build_visited_set(&model, &opts("w", "3"));
    assert_eq!(
        unknown.err().as_deref(),
        Some("engine sorted-vec has no parameter 'w' (it has: reserve)")
    );
}
