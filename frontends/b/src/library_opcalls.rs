//! ProB's preference `SET_PREF_ALLOW_LOCAL_OPERATION_CALLS` (also implied
//! by `SET_PREF_ALLOW_OPERATION_CALLS_IN_EXPRESSIONS`): a substitution of
//! the main machine may call the main machine's own operations
//! (`res <-- FUNC_foo(3)`), run as a call of an included machine's
//! operation is (`exec`'s `call`: its PRE must hold). Also the bound on
//! nested calls, so that an operation calling itself without end is
//! refused instead of exhausting the stack.
//!
//! Owns which operations become callable and the nesting bound; it must
//! not run anything (that is `exec`).

use std::cell::Cell;

use rustc_hash::FxHashMap;

use crate::ast::{Machine, Pos, Sym};
use crate::eval::{Fail, E};

/// The preferences that let a machine call its own operations.
const PREFS: [&str; 2] = [
    "SET_PREF_ALLOW_LOCAL_OPERATION_CALLS",
    "SET_PREF_ALLOW_OPERATION_CALLS_IN_EXPRESSIONS",
];

/// Deepest nesting of operation calls.
const MAX_CALL_DEPTH: usize = 64;

thread_local! {
    static DEPTH: Cell<usize> = const { Cell::new(0) };
}

/// Whether one of the machines sets a preference of [`PREFS`] to TRUE.
pub(crate) fn allows_local_calls(machines: &[Machine]) -> bool {
    machines.iter().any(|m| {
        m.settings
            .iter()
            .any(|(k, v, _)| PREFS.contains(&k.as_str()) && v.eq_ignore_ascii_case("true"))
    })
}

/// Adds the main machine's (the last one's) operations to `callable`
/// where the preference allows it; an operation of an included machine
/// of the same name keeps its entry.
pub(crate) fn add_local_operations(
    machines: &[Machine],
    callable: &mut FxHashMap<Sym, (usize, usize)>,
) {
    if !allows_local_calls(machines) {
        return;
    }
    let main = machines.len() - 1;
    for (k, op) in machines[main].operations.iter().enumerate() {
        callable.entry(op.name).or_insert((main, k));
    }
}

/// Runs `f` one call deeper; refused beyond [`MAX_CALL_DEPTH`] nested
/// calls (an operation calling itself).
pub(crate) fn nested<T>(pos: Pos, f: impl FnOnce() -> E<T>) -> E<T> {
    let depth = DEPTH.with(Cell::get);
    if depth >= MAX_CALL_DEPTH {
        return Err(Fail::Unsupported(
            format!("operation calls nested more than {MAX_CALL_DEPTH} deep"),
            pos,
        ));
    }
    DEPTH.with(|d| d.set(depth + 1));
    let r = f();
    DEPTH.with(|d| d.set(depth));
    r
}
