//! Solving predicates by enumeration: for the identifiers bound by a
//! quantifier, a comprehension, an ANY, a `:(`, an operation's parameters
//! or the PROPERTIES' constants, a [`Plan`] says in which order to bind
//! them and which conjunct generates each one's candidates, pruned by the
//! conjuncts that fix a value:
//!
//! 1. `x = E` (or `E = x`): the single value of `E`;
//! 2. `A = B` where `x` occurs once in a `+`/`-` chain: the solved value;
//! 3. `x : E`, `x |-> y : E`: the elements of `E` (finite sets, `POW`,
//!    function spaces... enumerated by `eval`);
//! 4. `x <: E`, `x <<: E`: the subsets of `E`; `{.., x, ..} <: E` (or
//!    `<<:`, `=` either way round): the elements of `E`;
//! 5. `P : E` with `P` a maplet mixing unbound identifiers and expressions
//!    of bound ones (`cur |-> to : succs`): the distinct projections of
//!    `E`'s elements on those identifiers, `P : E` being checked after;
//! 6. `#ys.(Q)`: the distinct values of the unbound identifiers it
//!    mentions in the solutions of `Q` (planned for them and `ys`);
//! 7. failing all of these, integer bounds (`x > a & x <= b`,
//!    `x : NATURAL`, ...): the integers between them (see `bounds`, also
//!    for ProB's clipping of an infinite domain to `MININT..MAXINT`), also
//!    bounds through identifiers not yet bound (`x < y & y <= 9`, see
//!    `chain`);
//! 8. failing that, `x = TRUE` (or `FALSE`, `/=`) anywhere in a conjunct,
//!    under `or`, `not`...: `x` is a boolean and ranges over `BOOL`;
//! 9. failing that, `a \/ x = E` (the subsets of `E` holding what the
//!    other operands leave out, see `carrier_union`), `f : lo..x --> R`
//!    with `f` known (the end of `dom(f)`), `a ^ x ^ b = E` (the slices
//!    of `E`, see `concat`); and, with the first ones,
//!    `x |-> y = E` (`E` taken apart) and `{x} : E` (as 5.): see
//!    `shapes`; failing those, `f(x)` in a strict position with `f`
//!    known: the elements of `dom(f)` (see `applied`); failing those,
//!    `x` fixed in every case of a disjunction (`(x = a & ..) or (x = b &
//!    ..)`) or by `P => x = E` conjuncts (see `cases`), or `x : seq(S)
//!    & size(x) = n` (the sequences of length `n`, see `sized`), or `x :
//!    D +-> INTEGER` alone (the range clipped, see `clipped`);
//! 10. failing that, `f : D --> R` with `R` infinite and equations
//!     `f(a) = E`: the function they fix (see `points`);
//! 11. failing that, the values of `x`'s B type, read from an expression
//!     next to an occurrence of `x` (`x /: ran(r)`, `p(x) = 3`; see
//!     `typing`), an integer shown only by `x /= E` in a guard's binder
//!     ranging over `MININT..MAXINT` (see `carrier_ints`), or typed by
//!     `INTEGER` beside implications `P => x = E` the state decides (see
//!     `carrier_implied`), a non-empty
//!     set of integers bounded by `min(x) >= lo` and `max(x) <= hi` over
//!     the subsets of `lo..hi` (see `carrier_extremes`), a function into
//!     `NATURAL` of fixed `SIGMA` over the functions of that sum (see
//!     `carrier_sums`);
//! 12. failing that, case splits fixing `x` in each case: `(.. & x = E1)
//!     or (.. & x = E2)`, `(A1 => x = E1) & (A2 => x = E2)` (see `cases`);
//!
//! where `E` mentions only identifiers already bound. An existential
//! whose identifiers have no plan but are typed as unbounded integers is
//! decided by a witness in `MININT..MAXINT` when there is one (see
//! `witness`). Every other conjunct
//! is checked, in the order written, as soon as its identifiers are bound.
//! Every solution is produced (ProB counts them all), in a deterministic
//! order. A plan is pure syntax, computed once per binder.
//!
//! Owns the enumeration loop; the planning is the `plan` module, integer
//! ranges derived from bounds the `bounds` module, generators read from
//! a conjunct's shape `shapes`, pointwise functions `points`, large
//! function spaces point by point `fspace`, subsets pruned by the
//! conjuncts checked first `subsets`, types `typing` (with the
//! slots' declared types, `declared`), which well-definedness errors in a
//! guard ProB reports `wd`; values and evaluation
//! are `value` and `eval`.

mod applied;
mod bounds;
mod carrier_extremes;
mod carrier_images;
mod carrier_implied;
mod carrier_ints;
mod carrier_locals;
mod carrier_params;
mod carrier_relations;
mod carrier_sums;
mod carrier_union;
#[cfg(test)]
mod carrier_union_partition_tests;
#[cfg(test)]
mod carrier_union_tests;
mod carrier_wdfree;
mod cases;
mod chain;
mod clipped;
mod concat;
mod consequent;
mod declared;
pub(crate) mod deferred_homogeneous;
mod deferred_prune;
#[cfg(test)]
mod deferred_prune_tests;
mod errors_antitone;
mod errors_determined;
mod errors_recurrence;
mod errors_relational;
mod errors_unsat;
mod fast_alternative;
mod fast_comprehensions;
#[cfg(test)]
mod fast_comprehensions_tests;
mod fast_forall;
mod fast_given_bijection;
mod fast_sets;
mod fast_symmetry;
mod fspace;
mod fspace_arrows;
mod fspace_curried;
mod fspace_order;
mod fspace_split;
mod memo;
mod monotone;
mod plan;
mod points;
mod range_alias;
mod range_arith;
#[cfg(test)]
mod range_arith_tests;
mod range_beyond;
#[cfg(test)]
mod range_beyond_tests;
mod range_double;
#[cfg(test)]
mod range_exists_tests;
mod range_forall;
#[cfg(test)]
mod range_forall_tests;
mod range_group;
#[cfg(test)]
mod range_group_tests;
mod range_holes;
#[cfg(test)]
mod range_holes_tests;
mod range_image;
#[cfg(test)]
mod range_image_tests;
mod range_interval;
mod range_labelled;
#[cfg(test)]
mod range_labelled_tests;
mod range_member;
#[cfg(test)]
mod range_member_tests;
mod range_negated;
#[cfg(test)]
mod range_negated_tests;
#[cfg(test)]
mod range_order_tests;
mod range_product;
mod range_pushed;
#[cfg(test)]
mod range_pushed_tests;
mod range_subset;
mod range_tail;
#[cfg(test)]
mod range_tail_tests;
mod range_typed;
mod range_typed_guards;
#[cfg(test)]
mod range_typed_tests;
mod range_types;
mod shapes;
mod sized;
mod subsets;
mod typed_subsets;
#[cfg(test)]
mod typed_subsets_tests;
mod typing;
mod wd;
mod witness;

pub use carrier_params::clipped_parameter;
pub use consequent::{forall_typed_by_body, untyped};
pub use declared::Declared;
pub use errors_determined::prob_order;
pub use errors_unsat::false_beside_wd;
pub use fast_given_bijection::given as given_bijection;
pub use fast_sets::SetCache;
pub use fast_symmetry::Canon;
pub(crate) use fspace_arrows::members as space_members;
pub use plan::{
    conjuncts, idents, infinite_type, plan, plan_deferring, plan_deferring_first, plan_exists,
    plan_properties, Gen, Plan, PlanResult,
};
pub use range_forall::decide as forall_over_counterexamples;
pub use range_forall::unbounded;
pub use range_typed::type_quantified;
pub use wd::closed_wd;
pub use witness::{exists_in_window, forall_refuted_in_window, window_typed};

use crate::ast::*;
use crate::eval::{Env, Fail, E};
use crate::value::Value;

/// Calls `f` once per solution of `pred` for `ids` (bound as locals of
/// `env` while `f` runs); `f` returns `false` to stop. Returns `false` when
/// stopped early.
///
/// `guard`: the predicate is a guard (operation parameters, ANY, `:(`,
/// PROPERTIES), whose conjuncts are false where they apply a function
/// outside its domain (see [`Env::holds_guard`]); elsewhere (quantifiers,
/// comprehensions inside expressions) that is an error, which the
/// enclosing guard conjunct may then turn into false.
pub fn solve(
    ids: &[Sym],
    pred: &Expr,
    plan: &Plan,
    env: &mut Env,
    guard: bool,
    f: &mut dyn FnMut(&mut Env) -> E<bool>,
) -> E<bool> {
    solve_pruned(ids, pred, (plan, None), env, guard, f)
}

/// `solve`, stopping at partial assignments that `canon`, if any, shows
/// have no solution ProB's symmetry reduction keeps (see `fast_symmetry`).
pub fn solve_pruned(
    ids: &[Sym],
    pred: &Expr,
    (plan, canon): (&Plan, Option<&Canon>),
    env: &mut Env,
    guard: bool,
    f: &mut dyn FnMut(&mut Env) -> E<bool>,
) -> E<bool> {
    let cs = conjuncts(pred);
    let mut undecided = Vec::new();
    for &c in &plan.pre {
        match check(env, cs[c], guard) {
            Ok(true) => {}
            Ok(false) => return Ok(true),
            Err(Fail::Unsupported(..)) if plan.deferring => undecided.push(c),
            Err(e) => return Err(e),
        }
    }
    let mut run = Run {
        plan,
        memo: memo::Memo::new(plan.steps.len()),
        canon,
    };
    if undecided.is_empty() {
        return step(ids, &cs, &mut run, 0, env, guard, f);
    }
    // a solution of the rest: the undecided conjuncts are unsupported again
    let mut last = |env: &mut Env| {
        for &c in &undecided {
            if !check(env, cs[c], guard)? {
                return Ok(true);
            }
        }
        f(env)
    };
    step(ids, &cs, &mut run, 0, env, guard, &mut last)
}

/// A plan and the generating sets remembered while following it.
struct Run<'p> {
    plan: &'p Plan,
    memo: memo::Memo,
    canon: Option<&'p Canon>,
}

fn check(env: &mut Env, c: &Expr, guard: bool) -> E<bool> {
    if guard {
        return env.holds_guard(c);
    }
    match env.holds(c) {
        Err(f) if errors_relational::false_constraint(c, &f, env) => Ok(false),
        r => r,
    }
}

fn step(
    ids: &[Sym],
    cs: &[&Expr],
    run: &mut Run,
    k: usize,
    env: &mut Env,
    guard: bool,
    f: &mut dyn FnMut(&mut Env) -> E<bool>,
) -> E<bool> {
    let plan = run.plan;
    let Some(st) = plan.steps.get(k) else {
        return f(env);
    };
    let cands = match candidates(ids, cs, (plan, k, &mut run.memo), env, guard) {
        Err(Fail::Wd(m, _))
            if guard && m.starts_with("function appl") && !wd::reported(ids, cs, plan, k) =>
        {
            env.swallowed_wd();
            Vec::new()
        }
        Err(f)
            if !guard
                && errors_relational::generator(&st.gen, cs)
                    .is_some_and(|c| errors_relational::false_constraint(c, &f, env)) =>
        {
            Vec::new()
        }
        r => r?,
    };
    for vals in cands {
        let base = env.locals.len();
        let sampled = env.local_samples.len();
        for (&k, v) in st.vars.iter().zip(vals) {
            env.locals.push((ids[k], v));
        }
        carrier_locals::record(st, cs, base, env);
        let mut ok = run.canon.is_none_or(|c| c.prefix_holds(env));
        for &c in st.checks.iter().filter(|_| ok) {
            match check(env, cs[c], guard) {
                Ok(true) => {}
                Ok(false) => {
                    ok = false;
                    break;
                }
                Err(e) => {
                    env.locals.truncate(base);
                    env.local_samples.truncate(sampled);
                    return Err(e);
                }
            }
        }
        let cont = if ok {
            step(ids, cs, run, k + 1, env, guard, f)
        } else {
            Ok(true)
        };
        env.locals.truncate(base);
        env.local_samples.truncate(sampled);
        if !cont? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The candidate values of one step's identifiers.
fn candidates(
    ids: &[Sym],
    cs: &[&Expr],
    (plan, k, memo): (&Plan, usize, &mut memo::Memo),
    env: &mut Env,
    guard: bool,
) -> E<Vec<Vec<Value>>> {
    let st = &plan.steps[k];
    Ok(match &st.gen {
        Gen::Eq { c, left } => {
            let ExprKind::Bin(_, a, b) = &cs[*c].kind else {
                unreachable!()
            };
            vec![vec![env.eval(if *left { b } else { a })?]]
        }
        Gen::Lin { c, left } => {
            let ExprKind::Bin(_, a, b) = &cs[*c].kind else {
                unreachable!()
            };
            let (side, other) = if *left { (a, b) } else { (b, a) };
            let target = env
                .eval(other)?
                .as_int()
                .map_err(|m| Fail::Wd(m, other.pos))?;
            match env.invert_lin(side, ids[st.vars[0]], target)? {
                Some(v) => vec![vec![Value::Int(v)]],
                None => vec![],
            }
        }
        Gen::In { c } => {
            let ExprKind::Bin(_, a, b) = &cs[*c].kind else {
                unreachable!()
            };
            if let ExprKind::Ident(f) = a.kind {
                if let Some(fs) = points::fixed_by_checks(f, b, cs, &st.checks, env)? {
                    return Ok(fs.into_iter().map(|v| vec![v]).collect());
                }
                let fs = match fspace::search(f, b, cs, &st.checks, env) {
                    Ok(Some(fs)) => Ok(fs),
                    Ok(None) => match carrier_images::search(f, b, cs, &st.checks, env) {
                        Some(rs) => Ok(rs),
                        None => match carrier_relations::pruned(f, b, cs, &st.checks, env) {
                            Some(rs) => Ok(rs),
                            None => memo.elements(k, b, ids, env),
                        },
                    },
                    Err(e) => Err(e),
                };
                let fs =
                    fs.or_else(|e| fast_alternative::candidates(f, cs[*c], cs, &st.checks, env, e));
                return Ok(fs?.into_iter().map(|v| vec![v]).collect());
            }
            let vars: Vec<Sym> = st.vars.iter().map(|&k| ids[k]).collect();
            members(a, memo.elements(k, b, ids, env)?, &vars)?
        }
        Gen::Elem { c, left } => {
            let ExprKind::Bin(_, a, b) = &cs[*c].kind else {
                unreachable!()
            };
            let set = if *left { b } else { a };
            memo.elements(k, set, ids, env)?
                .into_iter()
                .map(|v| vec![v])
                .collect()
        }
        Gen::Proj { c } => {
            let ExprKind::Bin(_, a, b) = &cs[*c].kind else {
                unreachable!()
            };
            let vars: Vec<Sym> = st.vars.iter().map(|&k| ids[k]).collect();
            projections(a, b, &vars, env)?
        }
        Gen::Range(range) => bounds::candidates(range, cs, env, guard)?
            .into_iter()
            .map(|n| vec![Value::Int(n)])
            .collect(),
        Gen::Exists {
            c,
            ids: inner,
            plan,
        } => {
            let vars: Vec<Sym> = st.vars.iter().map(|&k| ids[k]).collect();
            witnesses(cs[*c], inner, plan, &vars, env)?
        }
        Gen::Bool => vec![vec![Value::Bool(false)], vec![Value::Bool(true)]],
        Gen::Applied { c, path } => applied::candidates(cs[*c], path, ids[st.vars[0]], env)?
            .into_iter()
            .map(|v| vec![v])
            .collect(),
        Gen::Cases { c, unbound, ws } => {
            let (p, x) = (c.map(|c| cs[c]), ids[st.vars[0]]);
            let vals = match cases::candidates(p, cs, x, unbound, env) {
                Err(f) if cases::unfixed(&f) && !ws.is_empty() => {
                    typed_or_bounded(ws, (ids, cs, x), env, guard)
                }
                r => r,
            };
            vals?.into_iter().map(|v| vec![v]).collect()
        }
        Gen::Clipped { c, bounds } => {
            let bs: Vec<&Expr> = bounds.iter().map(|&b| cs[b]).collect();
            clipped::bounds_within(&bs, ids[st.vars[0]], env)?;
            clipped::candidates(cs[*c], env, guard)?
                .into_iter()
                .map(|v| vec![v])
                .collect()
        }
        Gen::Sized { set, len } => {
            let (s, n) = (cs[*set], cs[*len]);
            let x = ids[st.vars[0]];
            let (Some(s), Some(n)) = (sized::elements_set(s, x), sized::length(n, x)) else {
                unreachable!("planned by sized")
            };
            sized::candidates(s, n, env)?
                .into_iter()
                .map(|v| vec![v])
                .collect()
        }
        Gen::Product { c, left } => {
            let (a, b) = sides(cs[*c]);
            let (side, other) = if *left { (a, b) } else { (b, a) };
            let target = env
                .eval(other)?
                .as_int()
                .map_err(|m| Fail::Wd(m, other.pos))?;
            range_product::candidates(side, ids[st.vars[0]], target, env)?
                .into_iter()
                .map(|n| vec![Value::Int(n)])
                .collect()
        }
        Gen::LinIn { c } => {
            let (a, b) = sides(cs[*c]);
            range_member::candidates(a, ids[st.vars[0]], b, env)?
                .into_iter()
                .map(|v| vec![v])
                .collect()
        }
        Gen::Unbounded(m, pos) => return Err(Fail::Unsupported(m.clone(), *pos)),
        Gen::Labelled(l) => {
            let pos = cs.first().map(|c| c.pos).unwrap_or_default();
            range_labelled::candidates(l, env, guard, pos)?
        }
        Gen::Points { c, eqs } => vec![vec![points::candidate(*c, eqs, cs, env)?]],
        Gen::Type(ws) => {
            let x = ids[st.vars[0]];
            if let Some(subs) = typed_subsets::pruned(ws, (cs, &st.checks), x, env) {
                return Ok(subs.into_iter().map(|v| vec![v]).collect());
            }
            typed_or_bounded(ws, (ids, cs, x), env, guard)?
                .into_iter()
                .map(|v| vec![v])
                .collect()
        }
        Gen::Pattern { c, left } => {
            let (a, b) = sides(cs[*c]);
            let (pat, other) = if *left { (a, b) } else { (b, a) };
            let vars: Vec<Sym> = st.vars.iter().map(|&k| ids[k]).collect();
            shapes::take_apart(pat, other, &vars, env)?
        }
        Gen::UnionPart { c, left } => {
            let (a, b) = sides(cs[*c]);
            let sides = if *left { (a, b) } else { (b, a) };
            let unbound: Vec<Sym> = plan.steps[k..]
                .iter()
                .flat_map(|s| s.vars.iter().map(|&v| ids[v]))
                .collect();
            let checks: Vec<&Expr> = st.checks.iter().map(|&k| cs[k]).collect();
            let x = ids[st.vars[0]];
            carrier_union::candidates(x, sides, &unbound, (cs[*c], &checks), env)?
                .into_iter()
                .map(|v| vec![v])
                .collect()
        }
        Gen::Slice { c, left } => {
            let (a, b) = sides(cs[*c]);
            let seq = if *left { b } else { a };
            concat::slices(seq, env)?
                .into_iter()
                .map(|v| vec![v])
                .collect()
        }
        Gen::DomainEnd { c } => shapes::domain_last(sides(cs[*c]).0, env)?
            .into_iter()
            .map(|v| vec![v])
            .collect(),
        Gen::Subset { c, strict } => {
            let x = ids[st.vars[0]];
            let subs =
                subset_candidates((ids, x), cs[*c], *strict, (cs, &st.checks), (k, memo), env);
            let subs =
                subs.or_else(|e| fast_alternative::candidates(x, cs[*c], cs, &st.checks, env, e));
            subs?.into_iter().map(|v| vec![v]).collect()
        }
    })
}

/// For `Gen::Subset`: the subsets of `S` for `x` in conjunct `c`, `x <: S`
/// (`x <<: S` if `strict`), pruned by the step's `checks` where they can
/// (`ids`: the binder's identifiers).
fn subset_candidates(
    (ids, x): (&[Sym], Sym),
    c: &Expr,
    strict: bool,
    (cs, checks): (&[&Expr], &[usize]),
    (k, memo): (usize, &mut memo::Memo),
    env: &mut Env,
) -> E<Vec<Value>> {
    let (_, b) = sides(c);
    let s = memo.elements(k, b, ids, env)?;
    let checks: Vec<&Expr> = checks.iter().map(|&k| cs[k]).collect();
    if let Some(subs) = subsets::pruned(x, &s, &checks, strict, env) {
        return Ok(subs);
    }
    let mut subs = crate::value::subsets(&s, 24).map_err(|m| Fail::Unsupported(m, b.pos))?;
    if strict {
        subs.retain(|x| x.as_set().is_ok_and(|x| x.len() < s.len()));
    }
    Ok(subs)
}

/// The values of `x`'s type shown by the witnesses `ws` (see `typing`);
/// failing that, in a guard's binder, those of `bounded_carrier`.
fn typed_or_bounded(
    ws: &[typing::Witness],
    (ids, cs, x): (&[Sym], &[&Expr], Sym),
    env: &mut Env,
    guard: bool,
) -> E<Vec<Value>> {
    match typing::candidates(ws, cs, x, slot(x, env), env) {
        Err(f) if guard && untyped(&f) => bounded_carrier(ids, cs, x, env)?.ok_or(f),
        r => r,
    }
}

/// The candidates of `x`, of a guard's binder, whose type has no finite
/// carrier but whose conjuncts bound it as ProB's propagation does: an
/// integer shown only by `x /= E` (`carrier_ints`) or fixed by decided
/// implications (`carrier_implied`), a set of integers
/// between its extremes (`carrier_extremes`), a function into `NATURAL`
/// of fixed sum (`carrier_sums`).
fn bounded_carrier(ids: &[Sym], cs: &[&Expr], x: Sym, env: &mut Env) -> E<Option<Vec<Value>>> {
    if let Some(vs) = carrier_ints::candidates(ids, cs, x, env)? {
        return Ok(Some(vs));
    }
    if let Some(vs) = carrier_implied::candidates(ids, cs, x, env)? {
        return Ok(Some(vs));
    }
    if let Some(vs) = carrier_extremes::candidates(ids, cs, x, env)? {
        return Ok(Some(vs));
    }
    carrier_sums::candidates(ids, cs, x, env)
}

/// Whether `x` is a state slot (a constant, or a variable of `:(`).
fn slot(x: Sym, env: &Env) -> bool {
    matches!(
        env.w.globals.get(x as usize),
        Some(Some(crate::eval::Global::Slot(_)))
    )
}

/// The sides of a binary conjunct (a generator's, so binary by planning).
fn sides(c: &Expr) -> (&Expr, &Expr) {
    match &c.kind {
        ExprKind::Bin(_, a, b) => (a, b),
        _ => unreachable!("a generating conjunct is binary"),
    }
}

/// For `Gen::In`: the values of `vars` in `elems` (the set's elements) matching
/// the maplet pattern `pat` (`x |-> x : r` keeps the pairs on the diagonal).
fn members(pat: &Expr, elems: Vec<Value>, vars: &[Sym]) -> E<Vec<Vec<Value>>> {
    let mut out = Vec::with_capacity(elems.len());
    'el: for v in elems {
        let mut vals = vec![Value::Bool(false); vars.len()];
        let mut flat = Vec::new();
        if !destructure(pat, v, &mut flat) {
            return Err(Fail::Wd(
                "pattern does not match the set's elements".into(),
                pat.pos,
            ));
        }
        // `flat` pairs each pattern identifier with its value.
        for (s, val) in flat {
            match vars.iter().position(|&x| x == s) {
                Some(k) => vals[k] = val,
                None => continue 'el,
            }
        }
        out.push(vals);
    }
    Ok(out)
}

/// For `Gen::Proj`: the distinct projections on `vars` of the elements of
/// `set` matched against the maplet `pat`.
fn projections(pat: &Expr, set: &Expr, vars: &[Sym], env: &mut Env) -> E<Vec<Vec<Value>>> {
    let mut out: Vec<Vec<Value>> = Vec::new();
    let mut seen = rustc_hash::FxHashSet::default();
    for v in env.elements(set)? {
        let mut flat = Vec::new();
        if !project(pat, v, vars, &mut flat) {
            return Err(Fail::Unsupported(
                "a maplet pattern that does not match the set's elements".into(),
                pat.pos,
            ));
        }
        // an element that is not a singleton where `pat` has `{P}`
        // projects on no value
        if vars.iter().any(|x| !flat.iter().any(|(s, _)| s == x)) {
            continue;
        }
        let mut vals = vec![Value::Bool(false); vars.len()];
        for (s, val) in flat {
            if let Some(k) = vars.iter().position(|&x| x == s) {
                vals[k] = val;
            }
        }
        if seen.insert(vals.clone()) {
            out.push(vals);
        }
    }
    Ok(out)
}

/// For `Gen::Exists`: the distinct values of `vars` in the solutions of
/// the body of `#ys.(q)` (conjunct `c`) for `inner` (`ys` and `vars`). A
/// well-definedness error while solving is unsupported: evaluated as a
/// whole, the quantifier would have failed for some values only.
fn witnesses(
    c: &Expr,
    inner: &[Sym],
    plan: &Plan,
    vars: &[Sym],
    env: &mut Env,
) -> E<Vec<Vec<Value>>> {
    let ExprKind::Quant { pred, .. } = &c.kind else {
        unreachable!("Gen::Exists on a quantifier")
    };
    let mut out: Vec<Vec<Value>> = Vec::new();
    let mut seen = rustc_hash::FxHashSet::default();
    let r = solve(inner, pred, plan, env, false, &mut |env| {
        let vals = vars
            .iter()
            .map(|&s| env.lookup(s, c.pos))
            .collect::<E<Vec<_>>>()?;
        if seen.insert(vals.clone()) {
            out.push(vals);
        }
        Ok(true)
    });
    wd_unsupported(
        r,
        "solving an existential quantifier for its free identifiers",
    )
    .map(|_| out)
}

/// `r`, a well-definedness failure while `doing` something turned
/// unsupported (evaluated as a whole, the predicate may have failed for
/// some values only).
pub(super) fn wd_unsupported<T>(r: E<T>, doing: &str) -> E<T> {
    r.map_err(|f| match f {
        Fail::Wd(m, pos) => Fail::Unsupported(format!("{m}, while {doing}"), pos),
        f => f,
    })
}

/// For `Gen::Proj`: the values of the identifiers `vars` among the leaves
/// of maplet `p` matched against `v` (none under a singleton `{P}` that
/// `v` is not); `false` if `v` has not `p`'s shape.
fn project(p: &Expr, v: Value, vars: &[Sym], out: &mut Vec<(Sym, Value)>) -> bool {
    match &p.kind {
        ExprKind::Bin(BinOp::Maplet, a, b) => match v {
            Value::Pair(pv) => {
                let (x, y) = (*pv).clone();
                project(a, x, vars, out) && project(b, y, vars, out)
            }
            _ => false,
        },
        ExprKind::SetExt(q) if q.len() == 1 => match v.as_set() {
            Ok([e]) => project(&q[0], e.clone(), vars, out),
            Ok(_) => true,
            Err(_) => false,
        },
        ExprKind::Ident(s) if vars.contains(s) => {
            out.push((*s, v));
            true
        }
        _ => true,
    }
}

fn destructure(p: &Expr, v: Value, out: &mut Vec<(Sym, Value)>) -> bool {
    match &p.kind {
        ExprKind::Ident(s) => {
            if let Some((_, old)) = out.iter().find(|(x, _)| x == s) {
                return *old == v;
            }
            out.push((*s, v));
            true
        }
        ExprKind::Bin(BinOp::Maplet, a, b) => match v {
            Value::Pair(pv) => {
                let (x, y) = (*pv).clone();
                destructure(a, x, out) && destructure(b, y, out)
            }
            _ => false,
        },
        _ => false,
    }
}
