//! Which well-definedness errors met while solving a guard ProB reports.
//!
//! A guard conjunct that applies a function outside its domain is false
//! (see [`crate::eval::Env::holds_guard`]): ProB's constraint solver
//! delays the error and drops it when another conjunct fails. The one
//! case it reports is a generator `x = E` whose `E` mentions none of the
//! binder's identifiers (a value of the state alone, ImpAckProtocol's
//! `nr : NATURAL & Buffer(destination) = nr`), reached with every
//! conjunct written before it known to hold (or typing a parameter,
//! `x : NATURAL`): nothing can fail before ProB evaluates `E`, so the
//! error stands.
//!
//! Where the PROPERTIES cannot be solved (unsupported), an arithmetic
//! error (a division by zero...) in a conjunct that is closed (it names
//! no constant) or gives a constant a closed value (`c = E`) is still
//! ProB's error (UnsatTest4_WD's `zz = {vv | vv : 0..1 & 10/vv < 20}`),
//! provided every closed conjunct written before it holds.
//!
//! Likewise, a constant `x` typed by `x <: S` or `x : seq(S)` (or
//! `POW`, `FIN`, `iseq`) may be the empty set, the first value ProB's
//! solver tries: where every conjunct naming `x` (and no other constant)
//! holds or fails with a well-definedness error for `x = {}`, and one does
//! fail, that error is ProB's (MaxOfEmptySet's `nrs <: NATURAL1 &
//! max(nrs) = 3`, LastEmptySeq's `iv : seq(ID) & last(iv) = aa`).

use super::plan::{idents, is_int_typing, Gen, Plan};
use crate::ast::*;
use crate::eval::{Env, Fail};

/// Whether a function applied outside its domain while computing the
/// candidates of step `k` of `plan` is an error ProB reports.
pub(super) fn reported(ids: &[Sym], cs: &[&Expr], plan: &Plan, k: usize) -> bool {
    let Some(Gen::Eq { c, left }) = plan.steps.get(k).map(|s| &s.gen) else {
        return false;
    };
    let ExprKind::Bin(BinOp::Eq, a, b) = &cs[*c].kind else {
        return false;
    };
    let mut used = Vec::new();
    idents(if *left { b } else { a }, &mut used);
    if used.iter().any(|s| ids.contains(s)) {
        return false;
    }
    let held = |j: usize| {
        plan.pre.contains(&j)
            || plan.steps[..k]
                .iter()
                .any(|st| st.checks.contains(&j) || generator(&st.gen, cs) == Some(j))
    };
    (0..*c).all(|j| held(j) || is_int_typing(cs[j], ids))
}

/// The conjunct a step's generator reads, for the generators that bind
/// only values satisfying it (`x = E`, `x : E`).
fn generator(g: &Gen, cs: &[&Expr]) -> Option<usize> {
    match g {
        Gen::Eq { c, .. } => Some(*c),
        Gen::In { c } => match &cs[*c].kind {
            ExprKind::Bin(_, x, _) if matches!(x.kind, ExprKind::Ident(_)) => Some(*c),
            _ => None,
        },
        _ => None,
    }
}

/// `f`, the failure to solve `pred` for the constants `ids`, or, when it
/// is unsupported, the arithmetic error of a closed conjunct (see the
/// module's doc).
pub fn closed_wd(f: Fail, ids: &[Sym], pred: &Expr, env: &mut Env) -> Fail {
    if !matches!(f, Fail::Unsupported(..)) {
        return f;
    }
    for c in super::plan::conjuncts(pred) {
        let r = match closed_part(c, ids) {
            Some(Closed::Whole) => env.holds(c),
            Some(Closed::Value(e)) => env.eval(e).map(|_| true),
            None => continue,
        };
        match r {
            Ok(true) => {}
            Err(Fail::Wd(m, at)) if !m.starts_with("function appl") => return Fail::Wd(m, at),
            _ => return f,
        }
    }
    if let Err(Fail::Wd(m, at)) = super::errors_determined::prob_order(ids, pred, env) {
        if m == super::errors_determined::CLPFD_OVERFLOW {
            return Fail::Wd(m, at);
        }
    }
    ids.iter()
        .find_map(|&x| empty_candidate_wd(x, ids, pred, env))
        .unwrap_or(f)
}

/// The well-definedness error of `x = {}` in the conjuncts naming `x`
/// alone among `ids`, when `x` may be empty and none of them is false
/// for it (see the module's doc).
fn empty_candidate_wd(x: Sym, ids: &[Sym], pred: &Expr, env: &mut Env) -> Option<Fail> {
    let own: Vec<&Expr> = super::plan::conjuncts(pred)
        .into_iter()
        .filter(|c| {
            let mut used = Vec::new();
            idents(c, &mut used);
            used.contains(&x) && used.iter().all(|s| *s == x || !ids.contains(s))
        })
        .collect();
    if !own.iter().any(|c| may_be_empty(c, x)) {
        return None;
    }
    let base = env.locals.len();
    env.locals.push((x, crate::value::Value::empty()));
    let mut first = None;
    let mut consistent = true;
    for c in &own {
        match env.holds(c) {
            Ok(true) => {}
            Err(Fail::Wd(m, at)) if !m.starts_with("function appl") => {
                first = first.or(Some(Fail::Wd(m, at)));
            }
            _ => consistent = false,
        }
    }
    env.locals.truncate(base);
    first.filter(|_| consistent)
}

/// Whether `c` is `x <: S` or `x : T(S)` for a type constructor `T`
/// whose sets contain the empty set (`POW`, `FIN`, `seq`, `iseq`).
fn may_be_empty(c: &Expr, x: Sym) -> bool {
    let is_x = |e: &Expr| matches!(e.kind, ExprKind::Ident(s) if s == x);
    match &c.kind {
        ExprKind::Bin(BinOp::Subset, a, _) => is_x(a),
        ExprKind::Bin(BinOp::In, a, b) => {
            is_x(a)
                && matches!(
                    b.kind,
                    ExprKind::Call(
                        Builtin::Pow | Builtin::Fin | Builtin::Seq | Builtin::Iseq,
                        _
                    )
                )
        }
        _ => false,
    }
}

/// What of a conjunct can be evaluated without the constants.
enum Closed<'e> {
    /// The conjunct names none of them.
    Whole,
    /// `c = E` (or `E = c`) with `E` naming none: `E`.
    Value(&'e Expr),
}

fn closed_part<'e>(c: &'e Expr, ids: &[Sym]) -> Option<Closed<'e>> {
    let names = |e: &Expr| {
        let mut used = Vec::new();
        idents(e, &mut used);
        used.iter().any(|s| ids.contains(s))
    };
    if !names(c) {
        return Some(Closed::Whole);
    }
    let ExprKind::Bin(BinOp::Eq, a, b) = &c.kind else {
        return None;
    };
    let is_id = |e: &Expr| matches!(e.kind, ExprKind::Ident(s) if ids.contains(&s));
    match (is_id(a), is_id(b)) {
        (true, false) if !names(b) => Some(Closed::Value(b)),
        (false, true) if !names(a) => Some(Closed::Value(a)),
        _ => None,
    }
}
