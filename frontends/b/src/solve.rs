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
//! 4. `x <: E`, `x <<: E`: the subsets of `E`;
//! 5. `P : E` with `P` a maplet mixing unbound identifiers and expressions
//!    of bound ones (`cur |-> to : succs`): the distinct projections of
//!    `E`'s elements on those identifiers, `P : E` being checked after;
//!
//! where `E` mentions only identifiers already bound. Every other conjunct
//! is checked, in the order written, as soon as its identifiers are bound.
//! Every solution is produced (ProB counts them all), in a deterministic
//! order. A plan is pure syntax, computed once per binder.
//!
//! Owns planning and the enumeration loop; values and evaluation are
//! `value` and `eval`.

use crate::ast::*;
use crate::eval::{Env, Fail, E};
use crate::value::Value;

/// How one step of a plan generates candidate values.
#[derive(Clone, Debug)]
pub enum Gen {
    /// Conjunct `c` is `x = E` (`left`: `x` is the left side).
    Eq { c: usize, left: bool },
    /// Conjunct `c` is `A = B` with the identifier in a `+`/`-` chain of one side.
    Lin { c: usize, left: bool },
    /// Conjunct `c` is `pattern : E`; the pattern binds `vars`.
    In { c: usize },
    /// Conjunct `c` is `x <: E` (`strict` for `<<:`).
    Subset { c: usize, strict: bool },
    /// Conjunct `c` is `P : E` with `P` a maplet of expressions, some of
    /// them unbound identifiers (`cur |-> to : succs`): candidates are the
    /// distinct projections of `E`'s elements on those identifiers; the
    /// conjunct itself is checked once they are bound.
    Proj { c: usize },
}

/// One binding step.
#[derive(Clone, Debug)]
pub struct Step {
    /// Indices (into the binder's identifiers) this step binds.
    pub vars: Vec<usize>,
    pub gen: Gen,
    /// Conjuncts to check once this step has bound its identifiers.
    pub checks: Vec<usize>,
}

/// The order of binding and checking for one binder.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Conjuncts that mention none of the identifiers.
    pub pre: Vec<usize>,
    pub steps: Vec<Step>,
}

/// A plan, or why none exists (message, position).
pub type PlanResult = Result<Plan, (String, Pos)>;

/// The top-level conjuncts of `p`.
pub fn conjuncts(p: &Expr) -> Vec<&Expr> {
    let mut out = Vec::new();
    fn go<'a>(e: &'a Expr, out: &mut Vec<&'a Expr>) {
        match &e.kind {
            ExprKind::Bin(BinOp::And, a, b) => {
                go(a, out);
                go(b, out);
            }
            _ => out.push(e),
        }
    }
    go(p, &mut out);
    out
}

/// Every identifier occurring in `e` (bound or free: conservative).
pub fn idents(e: &Expr, out: &mut Vec<Sym>) {
    use ExprKind::*;
    match &e.kind {
        Ident(s) => out.push(*s),
        Int(_) | Str(_) | Bool(_) | Named(_) | EmptySet | EmptySeq => {}
        SetExt(v) | SeqExt(v) | Call(_, v) => v.iter().for_each(|x| idents(x, out)),
        Bin(_, a, b) | Apply(a, b) | Image(a, b) => {
            idents(a, out);
            idents(b, out);
        }
        Neg(a) | Inverse(a) | Field(a, _) => idents(a, out),
        Quant { pred, body, .. } => {
            idents(pred, out);
            if let Some(b) = body {
                idents(b, out);
            }
        }
        Rec(f) | Struct(f) => f.iter().for_each(|(_, x)| idents(x, out)),
    }
}

fn mentions(e: &Expr, ids: &[Sym]) -> Vec<usize> {
    let mut v = Vec::new();
    idents(e, &mut v);
    let mut out: Vec<usize> = ids
        .iter()
        .enumerate()
        .filter(|(_, s)| v.contains(s))
        .map(|(i, _)| i)
        .collect();
    out.dedup();
    out
}

fn ident_of(e: &Expr) -> Option<Sym> {
    match e.kind {
        ExprKind::Ident(s) => Some(s),
        _ => None,
    }
}

/// Whether `x` occurs exactly once in `e`, along a chain of `+` and `-`.
fn lin_path(e: &Expr, x: Sym) -> bool {
    match &e.kind {
        ExprKind::Ident(s) => *s == x,
        ExprKind::Bin(BinOp::Plus | BinOp::Minus, a, b) => {
            let (ma, mb) = (mentions(a, &[x]).len(), mentions(b, &[x]).len());
            match (ma, mb) {
                (1, 0) => lin_path(a, x),
                (0, 1) => lin_path(b, x),
                _ => false,
            }
        }
        _ => false,
    }
}

/// Identifiers of a maplet pattern `x |-> y |-> z` (or a single `x`).
fn pattern_ids(e: &Expr, out: &mut Vec<Sym>) -> bool {
    match &e.kind {
        ExprKind::Ident(s) => {
            out.push(*s);
            true
        }
        ExprKind::Bin(BinOp::Maplet, a, b) => pattern_ids(a, out) && pattern_ids(b, out),
        _ => false,
    }
}

/// Plans the binding of `ids` by `pred`; `Err` names an identifier for which
/// no conjunct gives a finite range.
pub fn plan(ids: &[Sym], pred: &Expr, syms: &Syms) -> Result<Plan, (String, Pos)> {
    let cs = conjuncts(pred);
    let ment: Vec<Vec<usize>> = cs.iter().map(|c| mentions(c, ids)).collect();
    let mut bound = vec![false; ids.len()];
    let mut checked = vec![false; cs.len()];
    let mut pre = Vec::new();
    for (i, m) in ment.iter().enumerate() {
        if m.is_empty() {
            pre.push(i);
            checked[i] = true;
        }
    }
    // Solving `A = B` for `x` through `+` and `-` is only sound for
    // integers (`-` is also set difference): require a conjunct `x : a..b`
    // or `x : NAT` (...) as evidence.
    let int_evidence: Vec<bool> = ids
        .iter()
        .map(|&x| {
            cs.iter().any(|c| match &c.kind {
                ExprKind::Bin(BinOp::In, a, b) => {
                    matches!(a.kind, ExprKind::Ident(s) if s == x)
                        && (matches!(b.kind, ExprKind::Bin(BinOp::Interval, ..))
                            || is_integer_set(&b.kind))
                }
                _ => false,
            })
        })
        .collect();
    let mut steps = Vec::new();
    while bound.iter().any(|b| !b) {
        let ready = |e: &Expr, bound: &[bool]| mentions(e, ids).iter().all(|&k| bound[k]);
        let mut best: Option<(u8, Vec<usize>, Gen)> = None;
        for (c, e) in cs.iter().enumerate() {
            if checked[c] {
                continue;
            }
            let cand: Option<(u8, Vec<usize>, Gen)> = match &e.kind {
                ExprKind::Bin(BinOp::Eq, a, b) => {
                    let unb = |s: Option<Sym>| {
                        s.and_then(|s| ids.iter().position(|&i| i == s))
                            .filter(|&k| !bound[k])
                    };
                    if let (Some(k), true) = (unb(ident_of(a)), ready(b, &bound)) {
                        Some((0, vec![k], Gen::Eq { c, left: true }))
                    } else if let (Some(k), true) = (unb(ident_of(b)), ready(a, &bound)) {
                        Some((0, vec![k], Gen::Eq { c, left: false }))
                    } else {
                        let free: Vec<usize> =
                            ment[c].iter().copied().filter(|&k| !bound[k]).collect();
                        if free.len() == 1 && int_evidence[free[0]] {
                            let x = ids[free[0]];
                            if lin_path(a, x) && mentions(b, &[x]).is_empty() {
                                Some((1, free, Gen::Lin { c, left: true }))
                            } else if lin_path(b, x) && mentions(a, &[x]).is_empty() {
                                Some((1, free, Gen::Lin { c, left: false }))
                            } else {
                                None
                            }
                        } else {
                            None
                        }
                    }
                }
                ExprKind::Bin(BinOp::In, a, b) if ready(b, &bound) && !infinite(b) => {
                    in_step(a, ids, &bound, c).or_else(|| {
                        proj_vars(a, ids, &bound, &|e: &Expr| ready(e, &bound))
                            .map(|ks| (2, ks, Gen::Proj { c }))
                    })
                }
                ExprKind::Bin(op @ (BinOp::Subset | BinOp::StrictSubset), a, b)
                    if ready(b, &bound) =>
                {
                    ident_of(a)
                        .and_then(|s| ids.iter().position(|&i| i == s))
                        .filter(|&k| !bound[k])
                        .map(|k| {
                            (
                                3,
                                vec![k],
                                Gen::Subset {
                                    c,
                                    strict: *op == BinOp::StrictSubset,
                                },
                            )
                        })
                }
                _ => None,
            };
            if let Some(cand) = cand {
                let better = match &best {
                    None => true,
                    Some((p, ks, _)) => cand.0 < *p || (cand.0 == *p && cand.1[0] < ks[0]),
                };
                if better {
                    best = Some(cand);
                }
            }
        }
        let Some((_, vars, gen)) = best else {
            let k = bound.iter().position(|b| !b).expect("unbound");
            return Err((
                format!(
                    "cannot enumerate '{}': no conjunct gives it a finite range (x = E, x : S, x <: S)",
                    syms.name(ids[k])
                ),
                pred.pos,
            ));
        };
        for &k in &vars {
            bound[k] = true;
        }
        let exact = match gen {
            Gen::Eq { c, .. } | Gen::In { c } | Gen::Subset { c, .. } => Some(c),
            Gen::Lin { .. } | Gen::Proj { .. } => None,
        };
        if let Some(c) = exact {
            checked[c] = true;
        }
        let mut checks = Vec::new();
        for c in 0..cs.len() {
            if !checked[c] && ment[c].iter().all(|&k| bound[k]) {
                checked[c] = true;
                if !is_int_typing(cs[c], ids) {
                    checks.push(c);
                }
            }
        }
        steps.push(Step { vars, gen, checks });
    }
    Ok(Plan { pre, steps })
}

/// Whether `c` is `x : NAT` (or `NAT1`, `INT`, `NATURAL`, `NATURAL1`,
/// `INTEGER`) for a bound identifier `x`. When such a conjunct does not
/// generate `x`, ProB takes it as `x`'s typing and does not check it
/// (`length : NAT & length = 5` holds with `MAXINT = 3`), while
/// `a * b : NAT` is checked against `MAXINT`.
/// Whether `k` names one of B's integer sets (NAT, NAT1, INT, NATURAL,
/// NATURAL1, INTEGER).
fn is_integer_set(k: &ExprKind) -> bool {
    matches!(
        k,
        ExprKind::Named(
            NamedSet::Nat
                | NamedSet::Nat1
                | NamedSet::Int
                | NamedSet::Natural
                | NamedSet::Natural1
                | NamedSet::Integer
        )
    )
}

fn is_int_typing(c: &Expr, ids: &[Sym]) -> bool {
    match &c.kind {
        ExprKind::Bin(BinOp::In, a, b) => {
            matches!(a.kind, ExprKind::Ident(x) if ids.contains(&x)) && is_integer_set(&b.kind)
        }
        _ => false,
    }
}

/// Sets that are infinite whatever the state (never used as generators).
fn infinite(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Named(n) => matches!(
            n,
            NamedSet::Natural | NamedSet::Natural1 | NamedSet::Integer | NamedSet::String
        ),
        ExprKind::Call(Builtin::Seq | Builtin::Seq1, _) => true,
        ExprKind::Call(Builtin::Pow | Builtin::Pow1 | Builtin::Fin | Builtin::Fin1, a) => {
            a.iter().any(infinite)
        }
        ExprKind::Bin(BinOp::Space(_) | BinOp::Mul, a, b) => infinite(a) || infinite(b),
        _ => false,
    }
}

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
    let cs = conjuncts(pred);
    for &c in &plan.pre {
        if !check(env, cs[c], guard)? {
            return Ok(true);
        }
    }
    step(ids, &cs, plan, 0, env, guard, f)
}

fn check(env: &mut Env, c: &Expr, guard: bool) -> E<bool> {
    if guard {
        env.holds_guard(c)
    } else {
        env.holds(c)
    }
}

fn step(
    ids: &[Sym],
    cs: &[&Expr],
    plan: &Plan,
    k: usize,
    env: &mut Env,
    guard: bool,
    f: &mut dyn FnMut(&mut Env) -> E<bool>,
) -> E<bool> {
    let Some(st) = plan.steps.get(k) else {
        return f(env);
    };
    let cands = match candidates(ids, cs, st, env) {
        Err(Fail::Wd(m, _)) if guard && m.starts_with("function appl") => Vec::new(),
        r => r?,
    };
    for vals in cands {
        let base = env.locals.len();
        for (&k, v) in st.vars.iter().zip(vals) {
            env.locals.push((ids[k], v));
        }
        let mut ok = true;
        for &c in &st.checks {
            match check(env, cs[c], guard) {
                Ok(true) => {}
                Ok(false) => {
                    ok = false;
                    break;
                }
                Err(e) => {
                    env.locals.truncate(base);
                    return Err(e);
                }
            }
        }
        let cont = if ok {
            step(ids, cs, plan, k + 1, env, guard, f)
        } else {
            Ok(true)
        };
        env.locals.truncate(base);
        if !cont? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The candidate values of one step's identifiers.
fn candidates(ids: &[Sym], cs: &[&Expr], st: &Step, env: &mut Env) -> E<Vec<Vec<Value>>> {
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
            let elems = env.elements(b)?;
            let mut pv = Vec::new();
            pattern_ids(a, &mut pv);
            let mut out = Vec::with_capacity(elems.len());
            'el: for v in elems {
                let mut vals = vec![Value::Bool(false); st.vars.len()];
                let mut flat = Vec::new();
                if !destructure(a, v, &mut flat) {
                    return Err(Fail::Wd(
                        "pattern does not match the set's elements".into(),
                        a.pos,
                    ));
                }
                // `flat` pairs each pattern identifier with its value.
                for (s, val) in flat {
                    let k = st.vars.iter().position(|&k| ids[k] == s);
                    match k {
                        Some(k) => vals[k] = val,
                        None => continue 'el,
                    }
                }
                out.push(vals);
            }
            out
        }
        Gen::Proj { c } => {
            let ExprKind::Bin(_, a, b) = &cs[*c].kind else {
                unreachable!()
            };
            let vars: Vec<Sym> = st.vars.iter().map(|&k| ids[k]).collect();
            let mut out: Vec<Vec<Value>> = Vec::new();
            let mut seen = rustc_hash::FxHashSet::default();
            for v in env.elements(b)? {
                let mut flat = Vec::new();
                if !project(a, v, &vars, &mut flat) {
                    return Err(Fail::Unsupported(
                        "a maplet pattern that does not match the set's elements".into(),
                        a.pos,
                    ));
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
            out
        }
        Gen::Subset { c, strict } => {
            let ExprKind::Bin(_, _, b) = &cs[*c].kind else {
                unreachable!()
            };
            let s = env.elements(b)?;
            let mut subs =
                crate::value::subsets(&s, 24).map_err(|m| Fail::Unsupported(m, b.pos))?;
            if *strict {
                subs.retain(|x| x.as_set().is_ok_and(|x| x.len() < s.len()));
            }
            subs.into_iter().map(|v| vec![v]).collect()
        }
    })
}

/// For `Gen::In`: conjunct `c` is `pattern : E` whose pattern is made of
/// distinct unbound identifiers of `ids` only.
fn in_step(a: &Expr, ids: &[Sym], bound: &[bool], c: usize) -> Option<(u8, Vec<usize>, Gen)> {
    let mut pv = Vec::new();
    if !pattern_ids(a, &mut pv) {
        return None;
    }
    let mut ks: Vec<usize> = pv
        .iter()
        .map(|s| ids.iter().position(|i| i == s).filter(|&k| !bound[k]))
        .collect::<Option<_>>()?;
    let n = ks.len();
    ks.sort_unstable();
    ks.dedup();
    (n > 0 && ks.len() == n).then_some((2, ks, Gen::In { c }))
}

/// For `Gen::Proj`: the unbound identifiers among the leaves of the maplet
/// `p` (each once), when every other leaf is `ready`; `None` otherwise.
fn proj_vars(
    p: &Expr,
    ids: &[Sym],
    bound: &[bool],
    ready: &dyn Fn(&Expr) -> bool,
) -> Option<Vec<usize>> {
    fn go(
        p: &Expr,
        ids: &[Sym],
        bound: &[bool],
        ready: &dyn Fn(&Expr) -> bool,
        out: &mut Vec<usize>,
    ) -> bool {
        if let ExprKind::Bin(BinOp::Maplet, a, b) = &p.kind {
            return go(a, ids, bound, ready, out) && go(b, ids, bound, ready, out);
        }
        let k = ident_of(p).and_then(|s| ids.iter().position(|&i| i == s));
        match k {
            Some(k) if !bound[k] => {
                let fresh = !out.contains(&k);
                out.push(k);
                fresh
            }
            _ => ready(p),
        }
    }
    let mut out = Vec::new();
    if !matches!(p.kind, ExprKind::Bin(BinOp::Maplet, ..)) || !go(p, ids, bound, ready, &mut out) {
        return None;
    }
    out.sort_unstable();
    (!out.is_empty()).then_some(out)
}

/// For `Gen::Proj`: the values of the identifiers `vars` among the leaves
/// of maplet `p` matched against `v`; `false` if `v` has not `p`'s shape.
fn project(p: &Expr, v: Value, vars: &[Sym], out: &mut Vec<(Sym, Value)>) -> bool {
    match &p.kind {
        ExprKind::Bin(BinOp::Maplet, a, b) => match v {
            Value::Pair(pv) => {
                let (x, y) = (*pv).clone();
                project(a, x, vars, out) && project(b, y, vars, out)
            }
            _ => false,
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
