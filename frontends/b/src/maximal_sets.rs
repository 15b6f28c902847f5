//! Maximal sets: a set value holding every value of its type, the type
//! built from enumerated or deferred sets, `BOOL`, products and power
//! sets only (never integers, strings or records).
//!
//! ProB simplifies a union with its maximal set to that set: its
//! EnumerateFunctionTests (`funs := ID <-> ID` over an enumerated `ID`,
//! then `funs := funs \/ {{aa|->aa}}`) stays one state where the same
//! union over `ID == 1..4` (EnumerateFunctionTests2, not maximal) is a
//! second one. `model` asks [`is_maximal`] before giving a large set a
//! new origin in `lazy_sets`.
//!
//! Owns only this test on values; it reads the world's global sets and
//! changes nothing.

use crate::eval::{Global, World};
use crate::value::Value;

/// The number of elements of the enumerated or deferred set number `set`
/// (the largest global set of its elements, the set itself).
fn given_set_len(set: u32, w: &World) -> Option<usize> {
    w.globals
        .iter()
        .filter_map(|g| match g {
            Some(Global::Value(Value::Set(xs)))
                if matches!(xs.first(), Some(Value::Elem(k, _)) if *k == set) =>
            {
                Some(xs.len())
            }
            _ => None,
        })
        .max()
}

/// Whether the set `xs` (sorted, without duplicates) holds every value of
/// its type; `false` when the type cannot be shown maximal (integers,
/// strings, records, or an empty set of unknown type).
pub(crate) fn is_maximal_set(xs: &[Value], w: &World) -> bool {
    match xs.first() {
        None => false,
        Some(Value::Bool(_)) => xs.len() == 2,
        Some(Value::Elem(set, _)) => given_set_len(*set, w) == Some(xs.len()),
        Some(Value::Pair(_)) => is_product(xs, w),
        Some(Value::Set(_)) => is_powerset(xs, w),
        Some(Value::Int(_) | Value::Str(_) | Value::Rec(_)) => false,
    }
}

/// Whether the value `v` is a maximal set (see [`is_maximal_set`]).
pub(crate) fn is_maximal(v: &Value, w: &World) -> bool {
    matches!(v, Value::Set(xs) if is_maximal_set(xs, w))
}

/// Whether the pairs `xs` are `A * B` for maximal `A` and `B`.
fn is_product(xs: &[Value], w: &World) -> bool {
    let mut dom: Vec<Value> = Vec::new();
    let mut ran: Vec<Value> = Vec::new();
    for x in xs {
        let Value::Pair(p) = x else { return false };
        dom.push(p.0.clone());
        ran.push(p.1.clone());
    }
    for s in [&mut dom, &mut ran] {
        s.sort();
        s.dedup();
    }
    dom.len().checked_mul(ran.len()) == Some(xs.len())
        && is_maximal_set(&dom, w)
        && is_maximal_set(&ran, w)
}

/// Whether the sets `xs` are all the subsets of a maximal set.
fn is_powerset(xs: &[Value], w: &World) -> bool {
    let mut union: Vec<Value> = Vec::new();
    for x in xs {
        let Value::Set(ys) = x else { return false };
        union.extend(ys.iter().cloned());
    }
    union.sort();
    union.dedup();
    u32::try_from(union.len())
        .ok()
        .and_then(|n| 1usize.checked_shl(n))
        .is_some_and(|all| all == xs.len())
        && is_maximal_set(&union, w)
}
