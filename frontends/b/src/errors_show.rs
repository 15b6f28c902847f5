//! Values written in B's notation for the messages of model errors
//! (`invalid_variant: event dec, from 4 to 5`, not `Int(4)`): integers,
//! `TRUE`/`FALSE`, quoted strings, `a|->b`, `{...}`, `rec(f:v)`, and the
//! elements of enumerated sets by name, those of deferred sets as ProB
//! names them (`S1`, `S2`, ... for the set `S`).
//!
//! Owns only this rendering; it reads the world's global names and
//! changes nothing.

use crate::eval::{Global, World};
use crate::value::Value;

/// `v` in B's notation, naming set elements with `w`'s globals.
pub fn show(v: &Value, w: &World) -> String {
    match v {
        Value::Bool(b) => (if *b { "TRUE" } else { "FALSE" }).into(),
        Value::Int(i) => i.to_string(),
        Value::Str(s) => format!("{s:?}"),
        Value::Elem(set, i) => element(*set, *i, w),
        Value::Pair(p) => format!("({}|->{})", show(&p.0, w), show(&p.1, w)),
        Value::Rec(fields) => {
            let fs: Vec<String> = fields
                .iter()
                .map(|(f, x)| format!("{f}:{}", show(x, w)))
                .collect();
            format!("rec({})", fs.join(","))
        }
        Value::Set(xs) => {
            let es: Vec<String> = xs.iter().map(|x| show(x, w)).collect();
            format!("{{{}}}", es.join(","))
        }
    }
}

/// The name of element `i` of set number `set`: its enumerated name, or
/// the set's name followed by `i + 1`.
fn element(set: u32, i: u32, w: &World) -> String {
    let target = Value::Elem(set, i);
    let mut set_name: Option<(usize, u32)> = None;
    for (s, g) in w.globals.iter().enumerate() {
        match g {
            Some(Global::Value(v)) if *v == target => return w.syms.name(s as u32).to_owned(),
            Some(Global::Value(Value::Set(xs)))
                if matches!(xs.first(), Some(Value::Elem(k, _)) if *k == set)
                    && set_name.is_none_or(|(n, _)| xs.len() > n) =>
            {
                set_name = Some((xs.len(), s as u32))
            }
            _ => {}
        }
    }
    match set_name {
        Some((_, s)) => format!("{}{}", w.syms.name(s), i + 1),
        None => format!("element {} of set {set}", i + 1),
    }
}
