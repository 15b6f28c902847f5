//! A total function into an infinite set fixed at every point of its
//! (finite) domain by equations: `speed : Persons --> NATURAL1 &
//! speed(aa) = 1 & speed(bb) = 2 ...`. Whatever the range, a total
//! function on `D` is its values at `D`'s elements, and `f(a) = E` fixes
//! the value at `a`: the only candidate is `{a |-> E, ...}`, the
//! membership and every equation being checked after (two equations for
//! one point that disagree leave no solution). A point no equation fixes
//! is unsupported (ProB would enumerate the range there). A universal
//! quantifier `!b.(b : BOOL => f(FALSE |-> b) = 1)` fixes the points its
//! solutions give. A recurrence `!x.(P => f(a) = E)` whose `E` reads
//! `f` (`VSS_i(Next_VSS(v)) = VSS_i(v) + 1`, UML_HL3) fixes the value at
//! `a` once `E` can be evaluated on the points fixed so far: the points
//! are fixed in rounds until none is added, each value forced by the
//! values before it, so the candidate is still the only one.
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
    /// `!ys.(P => ... => f(a) = E)` with `E` reading `f`: the value at `a`
    /// once `E` reads only points already fixed.
    Recurrence,
}

/// The conjuncts among `cs` not yet `checked` that fix points of `f`:
/// `f(a) = E` (or `E = f(a)`) with `a` and `E` `ready`, or a universal
/// quantifier whose only unbound identifier is `f` (`only_f`), `f` out of
/// its domain, ending in such an equation (or a recurrence, kept only
/// beside an equation of another kind).
pub fn equations(
    f: Sym,
    cs: &[&Expr],
    checked: &[bool],
    ready: &dyn Fn(&Expr) -> bool,
    only_f: &dyn Fn(usize) -> bool,
) -> Vec<(usize, Fix)> {
    let applies_f = |e: &Expr| matches!(&e.kind, ExprKind::Apply(g, _) if is(g, f));
    let plain = |e: &Expr| matches!(&e.kind, ExprKind::Apply(_, a) if ready(a));
    let eqs: Vec<(usize, Fix)> = (0..cs.len())
        .filter(|&c| !checked[c])
        .filter_map(|c| match &cs[c].kind {
            ExprKind::Bin(BinOp::Eq, a, b) if applies_f(a) && plain(a) && ready(b) => {
                Some((c, Fix::Left))
            }
            ExprKind::Bin(BinOp::Eq, a, b) if applies_f(b) && plain(b) && ready(a) => {
                Some((c, Fix::Right))
            }
            ExprKind::Quant {
                kind: QuantKind::Forall,
                ids,
                pred,
                ..
            } if only_f(c) && !ids.contains(&f) => match &pred.kind {
                ExprKind::Bin(BinOp::Implies, dom, body)
                    if !mentions(&domain_of_f_as(dom, f, &EMPTY), f) =>
                {
                    if consequent(body, f, false).is_some() {
                        Some((c, Fix::Forall))
                    } else {
                        consequent(body, f, true).map(|_| (c, Fix::Recurrence))
                    }
                }
                _ => None,
            },
            _ => None,
        })
        .collect();
    // a recurrence alone has no start: the plan stays another step's
    let started = eqs.iter().any(|(_, fix)| !matches!(fix, Fix::Recurrence));
    if started {
        eqs
    } else {
        Vec::new()
    }
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
/// (premises, argument `a`, value `E`), `f` out of `a` and the premises,
/// and out of `E` unless `recurrent` (then `E` reads `f`).
fn consequent(mut body: &Expr, f: Sym, recurrent: bool) -> Option<(Vec<&Expr>, &Expr, &Expr)> {
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
    let free = !mentions(arg, f) && mentions(value, f) == recurrent;
    (free && premises.iter().all(|p| !mentions(p, f))).then_some((premises, arg, value))
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
    let dom = total_domain(space).expect("planned on a total function space");
    let ExprKind::Bin(_, _, range) = &space.kind else {
        unreachable!("a function space")
    };
    let points = env.elements(dom)?;
    let mut values: Vec<Option<Value>> = vec![None; points.len()];
    // rounds: a recurrence fixes a point once the points it reads are
    // (after a first round of the other equations alone, so that where
    // they fix every point the recurrences are only checked after)
    let (mut added, mut first) = (true, true);
    while added {
        added = false;
        let fixed = Value::set(fixed_pairs(&points, &values));
        for (d, slot) in points.iter().zip(values.iter_mut()) {
            if slot.is_some() {
                continue;
            }
            for &(q, fix) in eqs {
                if first && matches!(fix, Fix::Recurrence) {
                    continue;
                }
                let v = value_at(cs[q], fix, (fs, dom, &fixed), d, env);
                let v = match fix {
                    Fix::Recurrence => super::errors_recurrence::overflow(v, range)?,
                    _ => v?,
                };
                if let Some(v) = v {
                    *slot = Some(v);
                    added = true;
                    break;
                }
            }
        }
        added |= std::mem::take(&mut first);
    }
    if values.iter().any(Option::is_none) {
        return Err(Fail::Unsupported(
            "a total function into an infinite set that no equation f(x) = E fixes at every point"
                .into(),
            f.pos,
        ));
    }
    let pairs = fixed_pairs(&points, &values);
    if eqs.iter().any(|(_, fix)| matches!(fix, Fix::Recurrence)) {
        super::errors_recurrence::within_solver(&pairs, range, f.pos)?;
    }
    Ok(Value::set(pairs))
}

/// The pairs `d |-> v` of the points fixed so far.
fn fixed_pairs(points: &[Value], values: &[Option<Value>]) -> Vec<Value> {
    let fixed = points.iter().zip(values);
    fixed
        .filter_map(|(d, v)| v.clone().map(|v| Value::pair(d.clone(), v)))
        .collect()
}

/// `f` (its symbol, domain and the points fixed so far).
type Partial<'a> = (Sym, &'a Expr, &'a Value);

/// The value conjunct `q` gives `f` at `d`, if it fixes that point.
fn value_at(q: &Expr, fix: Fix, f: Partial<'_>, d: &Value, env: &mut Env) -> E<Option<Value>> {
    let (app, value) = match (&q.kind, fix) {
        (ExprKind::Bin(_, a, b), Fix::Left) => (a, b),
        (ExprKind::Bin(_, a, b), Fix::Right) => (b, a),
        (_, Fix::Recurrence) => return forall_value(q, f, true, d, env),
        _ => return forall_value(q, f, false, d, env),
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
/// A `recurrent` `E` is read with `f` the points `fixed` so far; where
/// it applies `f` elsewhere, the next solution is tried.
fn forall_value(
    q: &Expr,
    (f, fdom, fixed): Partial<'_>,
    recurrent: bool,
    d: &Value,
    env: &mut Env,
) -> E<Option<Value>> {
    let ExprKind::Quant {
        ids, pred, plan, ..
    } = &q.kind
    else {
        unreachable!("a universal quantifier")
    };
    let ExprKind::Bin(BinOp::Implies, dom, body) = &pred.kind else {
        unreachable!("planned on !ys.(P => Q)")
    };
    let (premises, arg, value) = consequent(body, f, recurrent).expect("planned on f(a) = E");
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
        if env.eval(arg)? != *d {
            return Ok(true);
        }
        if !recurrent {
            out = Some(env.eval(value)?);
            return Ok(false);
        }
        let base = env.locals.len();
        env.locals.push((f, fixed.clone()));
        let v = env.eval(value);
        env.locals.truncate(base);
        match v {
            Ok(v) => out = Some(v),
            Err(Fail::Wd(..)) => return Ok(true),
            Err(e) => return Err(e),
        }
        Ok(false)
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
