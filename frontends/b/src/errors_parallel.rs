//! Conflicting parallel writes: two branches of `S || T` that both change
//! one variable, or one point of a function, to different values
//! (`f(x) := a || f(x) := b` with `a /= b`). ProB reports these as errors
//! of the model (a conflict under `ALLOW_SIMULTANEOUS_ASSIGNMENTS`, a
//! variable written twice in parallel otherwise); writes that change
//! different points of one function need a merge and stay unsupported.

use crate::value::{self as v, Value};

/// What conflicts (`two values`, `two values at one point of the
/// function`) between the writes `a` and `b` of one
/// variable whose value before the substitution is `old`, if both change
/// it (or, for functions, one of its points) to different values.
pub fn conflict(old: &Value, a: &Value, b: &Value) -> Option<String> {
    if a == b || a == old || b == old {
        return None;
    }
    match (old.as_set(), a.as_set(), b.as_set()) {
        (Ok(o), Ok(x), Ok(y)) => point_conflict(o, x, y),
        (Err(_), Err(_), Err(_)) => Some("two values".into()),
        _ => None,
    }
}

/// The first point that the functions `a` and `b` both map differently
/// from `old` and from each other.
fn point_conflict(old: &[Value], a: &[Value], b: &[Value]) -> Option<String> {
    let functions = [old, a, b]
        .iter()
        .all(|f| v::is_function(f).unwrap_or(false));
    if !functions {
        return None;
    }
    let image = |f: &[Value], x: &Value| v::apply(f, x).ok();
    for (x, ax) in v::pairs(a).ok()? {
        let (bx, ox) = (image(b, x), image(old, x));
        if bx.as_ref().is_some_and(|bx| bx != ax) && ox.as_ref() != Some(ax) && bx != ox {
            return Some("two values at one point of the function".into());
        }
    }
    None
}
