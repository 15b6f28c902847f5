//! A universal quantifier `!xs.(P => Q)` pruning a function `f` built
//! point by point (see `fspace`), with `f` out of `P`, checked instance
//! by instance without repeating work: the solutions of `P` are found
//! once per search (nothing in `P` changes while `f` grows), and an
//! instance found true with some points chosen stays true once more are
//! chosen (they only add points; the values at the chosen ones stay), so
//! a child of the search is checked on the instances its parent did not
//! find true only (NQueens' `!(q1, q2).(.. => queens(q1) .. /=
//! queens(q2))`: the pairs reaching the newest point and those beyond).
//! When the arguments of `f` in `Q` mention neither `f` nor identifiers
//! bound inside `Q`, each instance's points are computed once too, and an
//! instance is evaluated only once all its points are decided.
//! As with `fspace`'s other checks, only an instance found false prunes:
//! missing one leaves a candidate that the enumeration loop checks.
//!
//! Owns that bookkeeping.

use super::fspace_order::Positions;
use crate::ast::*;
use crate::eval::{Env, Fail};
use crate::value::Value;

/// The most instances times points one quantifier may track (one byte
/// each); a larger one is checked whole, as `fspace::refuted` does.
const KNOWN: usize = 1 << 24;

/// The instances of one quantifier and what is known of them.
pub(super) struct Instances {
    /// The values of `xs` in each solution of `P`, in order.
    binds: Vec<Vec<Value>>,
    /// Per number of points decided: which instances were found true on
    /// the current path of the search.
    known: Vec<Vec<bool>>,
    /// Per instance: how many points must be decided before it is
    /// evaluated (the last of the points it applies `f` at, plus one);
    /// empty when not computed.
    ready: Vec<usize>,
    /// With `ready` computed, per number of points decided: the instances
    /// whose last point is the newest (evaluated there only: before, they
    /// apply `f` at a point not chosen; after, their value stays).
    due: Vec<Vec<usize>>,
}

impl Instances {
    /// The instances of conjunct `e` when it is `!xs.(P => Q)` with `f`
    /// out of `P` and `P` solved without failing; `points`: the function's
    /// domain, at their positions in the search's order (`D1 * D2` for a curried space, applied twice: `curried`).
    pub(super) fn of(
        e: &Expr,
        f: Sym,
        points: &Positions,
        curried: bool,
        env: &mut Env,
    ) -> Option<Instances> {
        let (ids, dom, body, plan) = forall(e)?;
        let mut free = Vec::new();
        super::plan::idents(dom, &mut free);
        if free.contains(&f) {
            return None;
        }
        let p = env.plan_of(plan, ids, dom).ok()?;
        let mut binds = Vec::new();
        let r = super::solve(ids, dom, p, env, false, &mut |env| {
            let vals = ids.iter().map(|&x| env.lookup(x, dom.pos));
            binds.push(vals.collect::<Result<Vec<_>, _>>()?);
            Ok(true)
        });
        r.ok()?;
        if binds.len().saturating_mul(points.len() + 1) > KNOWN {
            return None;
        }
        let known = vec![vec![false; binds.len()]; points.len() + 1];
        let ready = readiness(body, (f, curried), ids, &binds, points, env).unwrap_or_default();
        let due = due(&ready, points.len());
        Some(Instances {
            binds,
            known,
            ready,
            due,
        })
    }

    /// With `decided` points decided (at least 1) and the quantifier not
    /// checked: the instances known true are those of the parent.
    pub(super) fn inherit(&mut self, decided: usize) {
        let (before, now) = self.known.split_at_mut(decided);
        now[0].copy_from_slice(&before[decided - 1]);
    }

    /// Whether an instance of `e` is false with `decided` points decided
    /// (at least 1), the instances found true then remembered.
    pub(super) fn refuted(&mut self, e: &Expr, decided: usize, env: &mut Env) -> bool {
        let Some((ids, _, body, _)) = forall(e) else {
            return false;
        };
        if !self.due.is_empty() {
            for &k in &self.due[decided] {
                match holds_at(ids, &self.binds[k], body, env) {
                    Ok(true) => {}
                    Ok(false) => return true,
                    Err(Fail::Wd(m, at))
                        if m.starts_with("function appl") && skippable(e, at, env) => {}
                    Err(_) => return false,
                }
            }
            return false;
        }
        self.inherit(decided);
        let now = &mut self.known[decided];
        for (k, vals) in self.binds.iter().enumerate() {
            if now[k] || self.ready.get(k).is_some_and(|&r| r > decided) {
                continue;
            }
            let base = env.locals.len();
            env.locals
                .extend(ids.iter().copied().zip(vals.iter().cloned()));
            let r = env.holds(body);
            env.locals.truncate(base);
            match r {
                Ok(true) => now[k] = true,
                Ok(false) => return true,
                Err(Fail::Wd(m, at)) if m.starts_with("function appl") && skippable(e, at, env) => {
                }
                Err(_) => return false,
            }
        }
        false
    }
}

/// Whether `body` holds with `ids` bound to `vals`.
fn holds_at(ids: &[Sym], vals: &[Value], body: &Expr, env: &mut Env) -> Result<bool, Fail> {
    let base = env.locals.len();
    env.locals
        .extend(ids.iter().copied().zip(vals.iter().cloned()));
    let r = env.holds(body);
    env.locals.truncate(base);
    r
}

/// Per number of points decided (`0..=points`, at least 1): the instances
/// whose `ready` it is; none when `ready` is empty.
fn due(ready: &[usize], points: usize) -> Vec<Vec<usize>> {
    if ready.is_empty() {
        return Vec::new();
    }
    let mut due = vec![Vec::new(); points + 1];
    for (k, &r) in ready.iter().enumerate() {
        if r <= points {
            due[r.max(1)].push(k);
        }
    }
    due
}

/// How many of `points` must be decided before the conjunct `e`, not a
/// universal quantifier, has its final value, when it is a comparison
/// whose sides evaluate every application of `f` they hold (`f(1)(1) =
/// 7`): before then it fails, after then it is unchanged, so that it is
/// checked at that many points only. `None` otherwise.
pub(super) fn due_at(
    e: &Expr,
    (f, curried): (Sym, bool),
    points: &Positions,
    env: &mut Env,
) -> Option<usize> {
    use BinOp::*;
    let ExprKind::Bin(Eq | Neq | Lt | Le | Gt | Ge, a, b) = &e.kind else {
        return None;
    };
    if !strict(a) || !strict(b) {
        return None;
    }
    let ready = readiness(e, (f, curried), &[], &[Vec::new()], points, env)?;
    ready.first().map(|&r| r.max(1))
}

/// Whether evaluating `e` evaluates each of its subexpressions.
fn strict(e: &Expr) -> bool {
    use BinOp::*;
    match &e.kind {
        ExprKind::Ident(_) | ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Str(_) => true,
        ExprKind::Apply(g, a) => strict(g) && strict(a),
        ExprKind::Neg(a) => strict(a),
        ExprKind::Bin(Plus | Minus | Mul | Div | Mod | Maplet, a, b) => strict(a) && strict(b),
        _ => false,
    }
}

/// Per instance (`binds`, values of `ids`): how many points of `points`
/// must be decided before `body` can be evaluated without applying `f`
/// at a point not chosen yet (`usize::MAX` when it applies `f` outside
/// `points`); `None` when an argument of `f` mentions `f` or fails.
/// `curried`: `f` is applied twice, `f(a)(b)` reading the point `a |-> b`.
fn readiness(
    body: &Expr,
    (f, curried): (Sym, bool),
    ids: &[Sym],
    binds: &[Vec<Value>],
    points: &Positions,
    env: &mut Env,
) -> Option<Vec<usize>> {
    let (mut args, mut bound) = (Vec::new(), vec![f]);
    crate::compile::visit(body, &mut |x| match &x.kind {
        ExprKind::Apply(g, a) if !curried && matches!(g.kind, ExprKind::Ident(s) if s == f) => {
            args.push(((**a).clone(), None))
        }
        ExprKind::Quant { ids, .. } => bound.extend(ids),
        _ => {}
    });
    if curried {
        let twice = super::fspace_curried::arguments(body, f);
        args.extend(twice.into_iter().map(|(a, b)| (a, Some(b))));
    }
    // an identifier bound inside `Q` may shadow a constant or a set's
    // element (Bridges' `SIGMA(l)` with `l` an element of `N`): its
    // value here is not the one `f` is applied at
    for (a, b) in &args {
        let mut seen = Vec::new();
        super::plan::idents(a, &mut seen);
        if let Some(b) = b {
            super::plan::idents(b, &mut seen);
        }
        if seen.iter().any(|s| bound.contains(s)) {
            return None;
        }
    }
    let mut ready = Vec::with_capacity(binds.len());
    for vals in binds {
        let base = env.locals.len();
        env.locals
            .extend(ids.iter().copied().zip(vals.iter().cloned()));
        let mut last = 0;
        for (a, b) in &args {
            let v = match b {
                None => env.eval(a),
                Some(b) => super::fspace_curried::point(a, b, env),
            };
            let Ok(v) = v else {
                env.locals.truncate(base);
                return None;
            };
            last = last.max(points.find(&v).map_or(usize::MAX, |i| i + 1));
        }
        env.locals.truncate(base);
        ready.push(last);
    }
    Some(ready)
}

/// The identifiers, `P`, `Q` and plan of `!xs.(P => Q)`.
#[allow(clippy::type_complexity)]
pub(super) fn forall(
    e: &Expr,
) -> Option<(
    &[Sym],
    &Expr,
    &Expr,
    &std::sync::OnceLock<super::PlanResult>,
)> {
    let ExprKind::Quant {
        kind: QuantKind::Forall,
        ids,
        pred,
        plan,
        ..
    } = &e.kind
    else {
        return None;
    };
    let ExprKind::Bin(BinOp::Implies, dom, body) = &pred.kind else {
        return None;
    };
    Some((ids, dom, body, plan))
}

/// Whether an application outside its domain at `at` in the quantifier
/// `q` makes the whole guard conjunct false rather than an error.
pub(super) fn skippable(q: &Expr, at: Pos, env: &Env) -> bool {
    !env.w.try_find_abort && crate::eval::relational_apply(q, at)
}

#[cfg(test)]
mod tests {
    use crate::tests::count;

    #[test]
    fn queens_are_checked_on_the_pairs_their_points_decide() {
        // 7^6 candidate relations, searched point by point: the 6-queens
        // problem has 4 solutions, one constants state and one
        // initialised state each, plus the root
        let m = "MACHINE Q CONSTANTS q
             PROPERTIES q : 1..6 >->> 1..6 &
               !(i, j).(i : 1..6 & j : 1..6 & i < j => q(i) + j - i /= q(j) & q(i) - j + i /= q(j))
             VARIABLES v INVARIANT v : 1..6 INITIALISATION v := q(1) END";
        assert_eq!(count(m), (9, 8));
    }

    #[test]
    fn a_binder_inside_the_body_shadowing_a_set_element_is_not_its_value() {
        // 4^12 candidates for `f`; `x` bound by SIGMA shadows the element
        // `x` of `N`: the instance for `n` is decided once `f(n)` is
        // chosen and must prune then (taken for a point outside the domain
        // it never would, and 4^12 leaves exceed the search's bounds).
        // One solution, f = %n.(n : 1..12 | 0): the root, one constants
        // state and one initialised state
        let m = "MACHINE S SETS N = {x} CONSTANTS f
             PROPERTIES f : 1..12 --> 0..3 &
               !n.(n : 1..12 => SIGMA(x).(x : {n} | f(x)) = 0)
             VARIABLES v INVARIANT v : 0..3 INITIALISATION v := f(2) END";
        assert_eq!(count(m), (3, 2));
    }
}
