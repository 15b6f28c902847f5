//! A total function into an infinite set fixed at every point of its
//! (finite) domain by equations: `speed : Persons --> NATURAL1 &
//! speed(aa) = 1 & speed(bb) = 2 ...`. Whatever the range, a total
//! function on `D` is its values at `D`'s elements, and `f(a) = E` fixes
//! the value at `a`: the only candidate is `{a |-> E, ...}`, the
//! membership and every equation being checked after (two equations for
//! one point that disagree leave no solution). A point no equation fixes
//! is unsupported (ProB would enumerate the range there). A universal
//! quantifier `!b.(b : BOOL => f(FALSE |-> b) = 1)` fixes the points its
//! solutions give.
//!
//! An equation's value may also read `f` itself at other points, a
//! recurrence (`c(1) = 1 & !r.(r : 2..8 => c(r) = CARRY(c(r - 1)))`,
//! SonLazySetEvaluation's carry bits): the points are then fixed in
//! passes, each value evaluated on the points fixed so far (see
//! `recurrence`), until every point is fixed or a pass fixes none. By
//! induction every solution agrees with the candidate at each point so
//! fixed. `fixed_by_checks` offers the same candidate for a finite range
//! (`Gen::In`), where it replaces enumerating the whole space.
//!
//! Owns the planning of such a step (`equations`) and its candidate.

use crate::ast::*;
use crate::eval::{Env, Fail, E};
use crate::value::Value;

/// A stand-in for `f`'s domain while testing the form of an antecedent.
const EMPTY: Expr = Expr {
    kind: ExprKind::EmptySet,
    pos: Pos {
        file: 0,
        line: 0,
        col: 0,
    },
};

/// How a conjunct fixes points of `f`.
#[derive(Clone, Copy, Debug)]
pub enum Fix {
    /// `f(a) = E`.
    Left,
    /// `E = f(a)`.
    Right,
    /// `!ys.(P => f(a) = E)` (or `E = f(a)`, or `P => P2 => ...`): the
    /// value at `a` for each solution of `P` (and `P2`...).
    Forall,
}

/// The conjuncts among `cs` not yet `checked` that fix points of `f`:
/// `f(a) = E` (or `E = f(a)`) with `a` and `E` `ready`, or a universal
/// quantifier whose only unbound identifier is `f` (`only_f`), `f` out of
/// its domain, ending in such an equation.
pub fn equations(
    f: Sym,
    cs: &[&Expr],
    checked: &[bool],
    ready: &dyn Fn(&Expr) -> bool,
    only_f: &dyn Fn(usize) -> bool,
) -> Vec<(usize, Fix)> {
    let applies_f = |e: &Expr| matches!(&e.kind, ExprKind::Apply(g, _) if is(g, f));
    let plain = |e: &Expr| matches!(&e.kind, ExprKind::Apply(_, a) if ready(a) && !mentions(a, f));
    let value = |e: &Expr| ready(e) && (!mentions(e, f) || recurrence(e, f));
    (0..cs.len())
        .filter(|&c| !checked[c])
        .filter_map(|c| match &cs[c].kind {
            ExprKind::Bin(BinOp::Eq, a, b) if applies_f(a) && plain(a) && value(b) => {
                Some((c, Fix::Left))
            }
            ExprKind::Bin(BinOp::Eq, a, b) if applies_f(b) && plain(b) && value(a) => {
                Some((c, Fix::Right))
            }
            ExprKind::Quant {
                kind: QuantKind::Forall,
                ids,
                pred,
                ..
            } if only_f(c) && !ids.contains(&f) => match &pred.kind {
                ExprKind::Bin(BinOp::Implies, dom, body)
                    if !mentions(&domain_of_f_as(dom, f, &EMPTY), f)
                        && consequent(body, f).is_some() =>
                {
                    Some((c, Fix::Forall))
                }
                _ => None,
            },
            _ => None,
        })
        .collect()
}

/// `P` with each conjunct `x : dom(f)` read as `x : d`.
fn domain_of_f_as(p: &Expr, f: Sym, d: &Expr) -> Expr {
    let mut out = p.clone();
    match &mut out.kind {
        ExprKind::Bin(BinOp::And, a, b) => {
            **a = domain_of_f_as(a, f, d);
            **b = domain_of_f_as(b, f, d);
        }
        ExprKind::Bin(BinOp::In, _, s) => {
            if matches!(&s.kind, ExprKind::Call(Builtin::Dom, xs) if matches!(xs.as_slice(), [g] if is(g, f)))
            {
                **s = d.clone();
            }
        }
        _ => {}
    }
    out
}

fn is(e: &Expr, f: Sym) -> bool {
    matches!(e.kind, ExprKind::Ident(s) if s == f)
}

fn mentions(e: &Expr, f: Sym) -> bool {
    let mut v = Vec::new();
    super::plan::idents(e, &mut v);
    v.contains(&f)
}

/// The final `f(a) = E` (or `E = f(a)`) of `P2 => ... => f(a) = E`, as
/// (premises, argument `a`, value `E`), `f` out of `E` and the premises.
fn consequent(mut body: &Expr, f: Sym) -> Option<(Vec<&Expr>, &Expr, &Expr)> {
    let mut premises = Vec::new();
    while let ExprKind::Bin(BinOp::Implies, p, q) = &body.kind {
        premises.push(&**p);
        body = q;
    }
    let ExprKind::Bin(BinOp::Eq, a, b) = &body.kind else {
        return None;
    };
    let (arg, value) = match (&a.kind, &b.kind) {
        (ExprKind::Apply(g, x), _) if is(g, f) => (&**x, &**b),
        (_, ExprKind::Apply(g, x)) if is(g, f) => (&**x, &**a),
        _ => return None,
    };
    let free = !mentions(arg, f) && (!mentions(value, f) || recurrence(value, f));
    (free && premises.iter().all(|p| !mentions(p, f))).then_some((premises, arg, value))
}

/// Whether `value` reads `f` only as `f(a)` in a plain expression: no
/// binder, predicate or library call that could turn the error of a
/// point not yet fixed into a value. Evaluated on the points fixed so
/// far, it then either fails or gives the value every solution has.
fn recurrence(value: &Expr, f: Sym) -> bool {
    let mut plain = super::fspace::applied_only(value, f);
    crate::compile::visit(value, &mut |x| {
        plain &= match &x.kind {
            ExprKind::Quant { .. } | ExprKind::Image(..) => false,
            ExprKind::Call(b, _) => !matches!(
                b,
                Builtin::Bool
                    | Builtin::Not
                    | Builtin::IfThenElse
                    | Builtin::External(_)
                    | Builtin::Theory(_)
            ),
            ExprKind::Bin(op, _, _) => !matches!(
                op,
                BinOp::And
                    | BinOp::Or
                    | BinOp::Implies
                    | BinOp::Equiv
                    | BinOp::Eq
                    | BinOp::Neq
                    | BinOp::In
                    | BinOp::NotIn
                    | BinOp::Subset
                    | BinOp::StrictSubset
                    | BinOp::NotSubset
                    | BinOp::NotStrictSubset
                    | BinOp::Lt
                    | BinOp::Gt
                    | BinOp::Le
                    | BinOp::Ge
            ),
            _ => true,
        }
    });
    plain
}

/// Whether some equation of `eqs` (conjuncts of `cs`) is a recurrence.
fn recurrent(eqs: &[(usize, Fix)], cs: &[&Expr], f: Sym) -> bool {
    eqs.iter().any(|&(q, _)| mentions(cs[q], f))
}

/// Whether `e` is a total function space `D --> R` (or `>->`, `-->>`,
/// `>->>`): its domain `D`.
pub fn total_domain(e: &Expr) -> Option<&Expr> {
    match &e.kind {
        ExprKind::Bin(
            BinOp::Space(
                SpaceKind::Total | SpaceKind::TotalInj | SpaceKind::TotalSurj | SpaceKind::TotalBij,
            ),
            d,
            _,
        ) => Some(d),
        _ => None,
    }
}

/// The function fixed by the equations `eqs` at every element of the
/// domain of the space in conjunct `c` (`f : D --> R`).
pub fn candidate(c: usize, eqs: &[(usize, Fix)], cs: &[&Expr], env: &mut Env) -> E<Value> {
    let ExprKind::Bin(_, f, space) = &cs[c].kind else {
        unreachable!("a membership conjunct")
    };
    let ExprKind::Ident(fs) = f.kind else {
        unreachable!("planned for an identifier")
    };
    fixed(fs, space, eqs, cs, env)?.ok_or_else(|| {
        Fail::Unsupported(
            "a total function into an infinite set that no equation f(x) = E fixes at every point"
                .into(),
            f.pos,
        )
    })
}

/// For `f : space` generating `f` with `space` a total function arrow
/// whose sides are known: the only candidate when equations among the
/// conjuncts `checks` of `cs` fix `f` at every point of its domain (none
/// when it is not a member of `space`); `None` when they do not, or
/// fail, and the space is to be enumerated as before. The candidate is
/// then checked against every conjunct, equations included.
pub fn fixed_by_checks(
    f: Sym,
    space: &Expr,
    cs: &[&Expr],
    checks: &[usize],
    env: &mut Env,
) -> E<Option<Vec<Value>>> {
    if total_domain(space).is_none() {
        return Ok(None);
    }
    let unchecked: Vec<bool> = (0..cs.len()).map(|c| !checks.contains(&c)).collect();
    let eqs = equations(f, cs, &unchecked, &|_| true, &|_| true);
    if eqs.is_empty() {
        return Ok(None);
    }
    let Ok(Some(candidate)) = fixed(f, space, &eqs, cs, env) else {
        return Ok(None);
    };
    Ok(Some(if env.member(&candidate, space)? {
        vec![candidate]
    } else {
        Vec::new()
    }))
}

/// The function the equations `eqs` fix at every element of `dom`, in
/// passes while a recurrence fixes more (`f` bound to the points fixed
/// so far while they are evaluated); `None` when a point stays free. The
/// failure of a recurrence is a point it cannot fix yet.
fn fixed(
    f: Sym,
    space: &Expr,
    eqs: &[(usize, Fix)],
    cs: &[&Expr],
    env: &mut Env,
) -> E<Option<Value>> {
    let (Some(dom), ExprKind::Bin(_, _, range)) = (total_domain(space), &space.kind) else {
        unreachable!("a total function space")
    };
    let points = env.elements(dom)?;
    let recurrent = recurrent(eqs, cs, f);
    let mut values: Vec<Option<Value>> = vec![None; points.len()];
    loop {
        let mut progress = false;
        for (i, d) in points.iter().enumerate() {
            if values[i].is_some() {
                continue;
            }
            let base = env.locals.len();
            if recurrent {
                env.locals.push((f, so_far(&points, &values)));
            }
            let found = point_value(eqs, cs, (f, dom, range), d, recurrent, env);
            env.locals.truncate(base);
            values[i] = found?;
            progress |= values[i].is_some();
        }
        if values.iter().all(Option::is_some) {
            let pairs = points.into_iter().zip(values.into_iter().flatten());
            let pairs: Vec<Value> = pairs.map(|(d, v)| Value::pair(d, v)).collect();
            if recurrent {
                let at = cs[eqs[0].0].pos;
                super::errors_recurrence::within_solver(&pairs, range, at)?;
            }
            return Ok(Some(Value::set(pairs)));
        }
        if !progress || !recurrent {
            return Ok(None);
        }
    }
}

/// The value the first of `eqs` that fixes point `d` gives it; the
/// failure of a recurrence is no value yet.
fn point_value(
    eqs: &[(usize, Fix)],
    cs: &[&Expr],
    (f, dom, range): (Sym, &Expr, &Expr),
    d: &Value,
    recurrent: bool,
    env: &mut Env,
) -> E<Option<Value>> {
    for &(q, fix) in eqs {
        match value_at(cs[q], fix, (f, dom), d, env) {
            Ok(Some(v)) => return Ok(Some(v)),
            Ok(None) => {}
            Err(e) if recurrent => {
                if let Some(error) = super::errors_recurrence::overflow(&e, range) {
                    return Err(error);
                }
            }
            Err(e) => return Err(e),
        }
    }
    Ok(None)
}

/// The points of `points` fixed so far, as a function.
fn so_far(points: &[Value], values: &[Option<Value>]) -> Value {
    let pairs = points.iter().zip(values);
    Value::set(
        pairs
            .filter_map(|(d, v)| v.as_ref().map(|v| Value::pair(d.clone(), v.clone())))
            .collect(),
    )
}

/// The value conjunct `q` gives `f` at `d`, if it fixes that point.
fn value_at(q: &Expr, fix: Fix, f: (Sym, &Expr), d: &Value, env: &mut Env) -> E<Option<Value>> {
    let (app, value) = match (&q.kind, fix) {
        (ExprKind::Bin(_, a, b), Fix::Left) => (a, b),
        (ExprKind::Bin(_, a, b), Fix::Right) => (b, a),
        _ => return forall_value(q, f, d, env),
    };
    let ExprKind::Apply(_, arg) = &app.kind else {
        unreachable!("an application")
    };
    Ok(if env.eval(arg)? == *d {
        Some(env.eval(value)?)
    } else {
        None
    })
}

/// For `!ys.(P => ... => f(a) = E)`: `E` for the first solution of `P`
/// (and the premises after it) where `a` is `d`, `dom(f)` in `P` read as
/// the domain `D` of `f : D --> R` (`f` is total on `D`, and the
/// candidate is checked against every conjunct after). Undefinedness
/// while solving is unsupported (the quantifier as a whole decides it).
fn forall_value(q: &Expr, (f, fdom): (Sym, &Expr), d: &Value, env: &mut Env) -> E<Option<Value>> {
    let ExprKind::Quant {
        ids, pred, plan, ..
    } = &q.kind
    else {
        unreachable!("a universal quantifier")
    };
    let ExprKind::Bin(BinOp::Implies, dom, body) = &pred.kind else {
        unreachable!("planned on !ys.(P => Q)")
    };
    let (premises, arg, value) = consequent(body, f).expect("planned on f(a) = E");
    let own_plan;
    let (dom, plan) = if mentions(dom, f) {
        own_plan = (domain_of_f_as(dom, f, fdom), std::sync::OnceLock::new());
        (&own_plan.0, &own_plan.1)
    } else {
        (&**dom, plan)
    };
    let p = env.plan_of(plan, ids, dom)?;
    let mut out = None;
    let r = super::solve(ids, dom, p, env, false, &mut |env| {
        for pr in &premises {
            if !env.holds(pr)? {
                return Ok(true);
            }
        }
        if env.eval(arg)? == *d {
            out = Some(env.eval(value)?);
            return Ok(false);
        }
        Ok(true)
    });
    super::wd_unsupported(r, "reading a function's points from a universal quantifier").map(|_| out)
}

#[cfg(test)]
mod tests {
    use crate::tests::{count, first_error};

    fn machine(equations: &str) -> String {
        format!(
            "MACHINE P SETS Q = {{p1, p2, p3}} CONSTANTS sp
             PROPERTIES sp : Q --> NATURAL1 & {equations}
             VARIABLES v INVARIANT v : NATURAL INITIALISATION v := sp(p2)
             OPERATIONS pick(p) = PRE p : Q THEN v := sp(p) END END"
        )
    }

    #[test]
    fn equations_fix_a_total_function() {
        // sp = {p1 |-> 1, p2 |-> 5, p3 |-> 5}: states root, constants,
        // v = 5, v = 1; edges setup, init and 3 picks from each v
        assert_eq!(
            count(&machine("sp(p1) = 1 & sp(p2) = 5 & 5 = sp(p3)")),
            (4, 8)
        );
    }

    #[test]
    fn a_universal_quantifier_fixes_points() {
        // the same function, p2 and p3 fixed by one quantifier (nested
        // premises, as Rodin's translation writes them)
        let eqs = "sp(p1) = 1 & !q.(q : Q => (q /= p1 => sp(q) = 5))";
        assert_eq!(count(&machine(eqs)), (4, 8));
    }

    #[test]
    fn a_point_left_free_is_unsupported() {
        let e = first_error(&machine("sp(p1) = 1 & sp(p2) = 5")).expect("p3 free");
        assert!(e.contains("fixes at every point"), "{e}");
    }

    #[test]
    fn a_quantifier_over_the_domain_fixes_every_point() {
        // Rodin's `x : dom(f)`: sp = {p1 |-> 1, p2 |-> 2, p3 |-> 2}, states
        // root, constants, v = 2, v = 1; edges setup, init, 3 picks each
        let eqs = "!q.(q : dom(sp) & q /= p1 => sp(q) = 2) & sp(p1) = 1";
        assert_eq!(count(&machine(eqs)), (4, 8));
    }

    /// `sp` over a chain `nx` of `Q` fixed by a start and a recurrence.
    fn chain(nx: &str, start: &str) -> String {
        let eqs =
            format!("nx = {{{nx}}} & {start} & !q.(q : Q & q : dom(nx) => sp(nx(q)) = sp(q) + 1)");
        machine(&eqs).replace("CONSTANTS sp", "CONSTANTS sp, nx")
    }

    #[test]
    fn a_recurrence_fixes_the_points_after_its_start() {
        // sp = {p1 |-> 4, p2 |-> 5, p3 |-> 6}, beyond MAXINT (no clipping):
        // states root, constants, v = 5, 4, 6; edges setup, init, 3 picks
        // from each v
        let m = chain("p1 |-> p2, p2 |-> p3", "sp(p1) = 4");
        assert_eq!(count(&m), (5, 11));
    }

    #[test]
    fn a_recurrence_without_a_start_leaves_points_free() {
        // p1 and p2 follow each other: sp(p3) = 0 fixes neither
        let m = chain("p1 |-> p2, p2 |-> p1", "sp(p3) = 0");
        let e = first_error(&m).expect("p1, p2 free");
        assert!(e.contains("fixes at every point"), "{e}");
    }

    #[test]
    fn a_quantifier_over_part_of_the_domain_leaves_points_free() {
        let eqs = "!q.(q : dom(sp) & q /= p1 => sp(q) = 5)";
        let e = first_error(&machine(eqs)).expect("p1 free");
        assert!(e.contains("fixes at every point"), "{e}");
    }
}
