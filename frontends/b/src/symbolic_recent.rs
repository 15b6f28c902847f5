//! The last few applications `c(x)` of a symbolic constant remembered
//! (see `symbolic`): SonLazySetEvaluation's `ADD_MSG(m1 |-> m2)` applies
//! `CARRY_MSG(m1 |-> m2)` once per bit of its result, each a constraint
//! solved anew, and a guard `p = ADD_MSG(m1 |-> m2)` is evaluated twice
//! (ProB's posting order, then the solver). Only constants whose value
//! is the same in every state remember (those without slot dependencies,
//! evaluated without the local bindings of the use site): `c(x)` then
//! depends on `x` alone. Failures are not remembered.
//!
//! Owns that memory; never computes an application.

use std::sync::Mutex;

use crate::recent::Recent;
use crate::value::Value;

/// The last applications of one symbolic constant, argument and result.
#[derive(Default)]
pub struct Applications(Mutex<Recent<Value, Value>>);

impl std::fmt::Debug for Applications {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Applications")
    }
}

impl Applications {
    /// The result remembered for argument `x`.
    pub fn find(&self, x: &Value) -> Option<Value> {
        self.0.lock().ok()?.find(|k| k == x)
    }

    /// Remembers that the constant maps `x` to `y`.
    pub fn remember(&self, x: Value, y: Value) {
        if let Ok(mut m) = self.0.lock() {
            m.remember(x, y);
        }
    }
}
