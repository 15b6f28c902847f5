//! The elements of costly comprehension sets and lambdas remembered
//! across calls of `solve` for the whole exploration, as `fast_sets` does
//! for function spaces: ComplexGuards_Best_Case's events each take a
//! parameter from `{s | s : 0..mx & !s1.(s1 : 1..mx => s mod s1 = 0 or
//! !s2.(..))}` with the constant `mx = 5000`: thousands of evaluations
//! per event and state, always the same set (in each of 22 events). A set is known
//! by a fingerprint of its syntax (the kind and names of each node) and
//! the values of the identifiers it mentions, so a remembered value is
//! the set's value wherever it is used again.
//!
//! Only a comprehension found slow once (by its fingerprint) is looked up
//! or remembered: a small set is evaluated many times per state, and its
//! key (the values it reads) costs more than its fingerprint. A value is
//! not remembered when its
//! evaluation made a guard false for a function applied outside its
//! domain (`World::wd_swallowed`), nor looked up or remembered while a
//! function is searched point by point (`errors_relational::Partial`),
//! where such an application is "not decided yet" instead.
//!
//! Owns the fingerprint and the choice of sets; the cache itself is
//! `fast_sets`'.

use std::hash::{Hash, Hasher};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::plan::idents;
use crate::ast::*;
use crate::eval::{Env, E};
use crate::value::Value;

/// An evaluation slower than this marks its comprehension as costly.
const SLOW: Duration = Duration::from_micros(200);

/// A comprehension's key: its fingerprint and the values of the
/// identifiers it mentions.
pub(super) type Key = ((u64, u64), Vec<Option<Value>>);

/// Whether `set` is a comprehension set or a lambda.
pub(super) fn comprehension(set: &Expr) -> bool {
    matches!(
        &set.kind,
        ExprKind::Quant {
            kind: QuantKind::Comprehension | QuantKind::Lambda,
            ..
        }
    )
}

/// `env.elements(set)` for a comprehension `set`, remembered when it is
/// costly (see the module's doc).
pub(super) fn elements(set: &Expr, env: &mut Env) -> E<Vec<Value>> {
    if super::errors_relational::partial() {
        return env.elements(set);
    }
    let print = fingerprint(set);
    let cache = &env.w.sets;
    let mut key = None;
    if cache.costly(print) {
        let k = key_of(print, set, env);
        if let Some((v, symbolic)) = cache.comprehension(&k) {
            env.symbolic |= symbolic;
            return Ok(v);
        }
        key = Some(k);
    }
    let before = (env.symbolic, env.w.wd_swallowed.load(Ordering::Relaxed));
    env.symbolic = false;
    let t0 = Instant::now();
    let r = env.elements(set);
    let slow = t0.elapsed() > SLOW;
    let symbolic = env.symbolic;
    env.symbolic |= before.0;
    let v = r?;
    let swallowed = !before.1 && env.w.wd_swallowed.load(Ordering::Relaxed);
    if swallowed || (key.is_none() && !slow) {
        return Ok(v);
    }
    let cache = &env.w.sets;
    cache.mark_costly(print);
    let key = key.unwrap_or_else(|| key_of(print, set, env));
    env.w.sets.remember_comprehension(key, &v, symbolic);
    Ok(v)
}

/// The key of `set` (fingerprint `print`): with the values of the
/// identifiers it mentions (`None` for one without a value here, such as
/// its own bound ones).
fn key_of(print: (u64, u64), set: &Expr, env: &Env) -> Key {
    let mut seen = Vec::new();
    idents(set, &mut seen);
    seen.sort_unstable();
    seen.dedup();
    let vals = seen.iter().map(|&s| env.lookup(s, set.pos).ok()).collect();
    (print, vals)
}

/// Two independent hashes of the kind and names of every node of `e`
/// (not its position: the same set written in several events is one).
fn fingerprint(e: &Expr) -> (u64, u64) {
    let mut a = std::collections::hash_map::DefaultHasher::new();
    let mut b = rustc_hash::FxHasher::default();
    0x9e37_79b9_u32.hash(&mut b);
    crate::compile::visit(e, &mut |x| {
        node(x, &mut a);
        node(x, &mut b);
    });
    (a.finish(), b.finish())
}

/// Hashes what `x` itself holds (not its sub-expressions).
fn node(x: &Expr, h: &mut impl Hasher) {
    use std::mem::discriminant;
    discriminant(&x.kind).hash(h);
    match &x.kind {
        ExprKind::Ident(s) => s.hash(h),
        ExprKind::Int(n) => n.hash(h),
        ExprKind::Str(s) => s.hash(h),
        ExprKind::Bool(v) => v.hash(h),
        ExprKind::Named(n) => discriminant(n).hash(h),
        ExprKind::Bin(op, ..) => {
            discriminant(op).hash(h);
            if let BinOp::Space(k) = op {
                discriminant(k).hash(h);
            }
        }
        ExprKind::Call(f, v) => {
            // the whole builtin: `External(..)` and `Theory(..)` differ
            // by their payload only
            f.hash(h);
            v.len().hash(h);
        }
        ExprKind::SetExt(v) | ExprKind::SeqExt(v) => v.len().hash(h),
        ExprKind::Quant {
            kind, ids, body, ..
        } => {
            discriminant(kind).hash(h);
            ids.hash(h);
            body.is_some().hash(h);
        }
        ExprKind::Field(_, s) => s.hash(h),
        ExprKind::Rec(fs) | ExprKind::Struct(fs) => {
            fs.iter().for_each(|(s, _)| s.hash(h));
        }
        _ => {}
    }
}
