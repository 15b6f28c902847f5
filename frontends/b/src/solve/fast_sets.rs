//! The elements of expensive generating sets (function spaces, `POW`,
//! `FIN`, `iseq`, `perm`) remembered across calls of `solve` for the whole
//! exploration: an existential `#x.(x : 1..n --> {-1,0,1} & ..)` checked
//! once per candidate of an outer search (StonePuzzle's `Weigh`) would
//! otherwise enumerate its 729 functions each time. A set is known by its
//! text and position and the values of the identifiers it mentions, so a
//! remembered value is the set's value wherever it is used again.
//! Whether the evaluation met a set ProB may keep symbolic
//! ([`Env::symbolic`]) is remembered with the elements.
//!
//! Comprehensions are `fast_comprehensions`' (kept here too).
//!
//! Owns that cache (held by the `World`).

use std::sync::{Arc, Mutex};

use rustc_hash::FxHashMap;

use super::plan::idents;
use crate::ast::*;
use crate::eval::{Env, E};
use crate::value::Value;

/// The most elements the cache holds, all sets together.
const HELD: usize = 1 << 22;

/// Sets with fewer elements are not remembered (cheaper to recompute).
const SMALL: usize = 64;

/// A set's text, position and the values of the identifiers it mentions.
type Key = (String, Vec<Option<Value>>);

/// Remembered elements of expensive sets (see the module's doc).
#[derive(Default)]
pub struct SetCache(Mutex<Cached>);

impl std::fmt::Debug for SetCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SetCache")
    }
}

#[derive(Default)]
struct Cached {
    sets: FxHashMap<Key, (Arc<Vec<Value>>, bool)>,
    held: usize,
    /// Comprehensions found costly (their fingerprints) and their values
    /// (see `fast_comprehensions`).
    costly: rustc_hash::FxHashSet<(u64, u64)>,
    comprehensions: FxHashMap<super::fast_comprehensions::Key, (Arc<Vec<Value>>, bool)>,
}

impl SetCache {
    /// Whether the comprehension of fingerprint `print` was found costly.
    pub(super) fn costly(&self, print: (u64, u64)) -> bool {
        self.0.lock().is_ok_and(|c| c.costly.contains(&print))
    }

    pub(super) fn mark_costly(&self, print: (u64, u64)) {
        if let Ok(mut c) = self.0.lock() {
            c.costly.insert(print);
        }
    }

    /// A remembered comprehension's elements and whether they are symbolic.
    pub(super) fn comprehension(
        &self,
        key: &super::fast_comprehensions::Key,
    ) -> Option<(Vec<Value>, bool)> {
        let c = self.0.lock().ok()?;
        c.comprehensions.get(key).map(|(v, s)| (v.to_vec(), *s))
    }

    /// Remembers a comprehension's elements, within `HELD` elements in all.
    pub(super) fn remember_comprehension(
        &self,
        key: super::fast_comprehensions::Key,
        v: &[Value],
        symbolic: bool,
    ) {
        if let Ok(mut c) = self.0.lock() {
            if c.held + v.len() < HELD {
                c.held += v.len() + 1;
                c.comprehensions
                    .insert(key, (Arc::new(v.to_vec()), symbolic));
            }
        }
    }
}

/// Whether `set` is built by a constructor whose elements are costly to
/// enumerate.
fn expensive(set: &Expr) -> bool {
    use Builtin::*;
    matches!(
        &set.kind,
        ExprKind::Bin(BinOp::Space(_), ..)
            | ExprKind::Call(Pow | Pow1 | Fin | Fin1 | Iseq | Iseq1 | Perm, _)
    )
}

/// `env.elements(set)`, remembered when `set` is expensive (see the
/// module's doc).
pub(super) fn elements(set: &Expr, env: &mut Env) -> E<Vec<Value>> {
    if super::fast_comprehensions::comprehension(set) {
        return super::fast_comprehensions::elements(set, env);
    }
    if !expensive(set) {
        return env.elements(set);
    }
    let mut seen = Vec::new();
    idents(set, &mut seen);
    seen.sort_unstable();
    seen.dedup();
    let vals = seen.iter().map(|&s| env.lookup(s, set.pos).ok()).collect();
    let key: Key = (format!("{:?} {:?}", set.pos, set.kind), vals);
    let cache = &env.w.sets.0;
    if let Some((v, symbolic)) = cache.lock().ok().and_then(|c| c.sets.get(&key).cloned()) {
        env.symbolic |= symbolic;
        return Ok(v.to_vec());
    }
    let before = env.symbolic;
    env.symbolic = false;
    let r = env.elements(set);
    let symbolic = env.symbolic;
    env.symbolic |= before;
    let v = r?;
    if v.len() >= SMALL {
        if let Ok(mut c) = cache.lock() {
            if c.held + v.len() <= HELD {
                c.held += v.len();
                c.sets.insert(key, (Arc::new(v.clone()), symbolic));
            }
        }
    }
    Ok(v)
}
