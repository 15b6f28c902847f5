//! The enumerator: the values of a summand's sum variables that can make
//! its condition true. Sum variables over finite sorts (Bool, finite
//! structured sorts) range over all their elements; a sum variable over an
//! infinite sort (Nat, Pos, Int, lists, recursive or numeric structured
//! sorts) takes only the values the condition pins down, found by
//! [`candidates`]: a conjunct `x == e`, `x < e`, `x <= e` (Nat, Pos),
//! `#x < e`, `#x <= e` (a list over a finite sort: every shorter list),
//! `x in e` or `c(.., x, ..) in e` whose `e` is known, through `&&`, `||`
//! (both sides bounded) and
//! `if` (the branch the known condition selects). This is a finite
//! superset of the solutions; the full condition then decides each value.
//! mCRL2's enumerator finds the same solutions by narrowing; where this
//! analysis finds no bound the summand is refused at load time
//! ([`statically_bounded`]) rather than enumerated wrongly.
//!
//! Owns only the search for candidate values; it must not know states or
//! parameters beyond the environment slots it is given.

use crate::rewriter::Rewriter;
use crate::sorts::Sort;
use crate::term::{Builtin, Pattern, Term};
use crate::value::Value;

/// The terms a user-map call can equal when its known arguments select a
/// rule whose right-hand side is one of its pattern variables (the `Cn_`
/// case functions `mcrl22lps` generates: `C3_(e1_3, x, y, z) = y`). Each
/// inner vector holds argument terms that are all equal to the result of
/// one possible rule; the call equals a member of one of them. `None`: not
/// such a call, or it cannot be decided which rules apply.
fn selected<'t>(
    rw: &Rewriter,
    t: &'t Term,
    known_value: &mut dyn FnMut(&Term) -> Option<Value>,
) -> Option<Vec<Vec<&'t Term>>> {
    let Term::Call(m, args, _) = t else {
        return None;
    };
    let info = &rw.maps[*m as usize];
    // Only arguments some rule matches against a non-variable pattern are
    // evaluated (the enumeration argument of a case function).
    let needed: Vec<bool> = (0..args.len())
        .map(|i| {
            info.rules.iter().any(|r| {
                r.lhs.len() == 1
                    && r.lhs[0].len() == args.len()
                    && !matches!(r.lhs[0][i], Pattern::Bind(..) | Pattern::Same(_))
            })
        })
        .collect();
    let values: Vec<Option<Value>> = args
        .iter()
        .zip(&needed)
        .map(|(a, n)| if *n { known_value(a) } else { None })
        .collect();
    let mut out = Vec::new();
    for rule in &info.rules {
        if rule.lhs.len() != 1 || rule.lhs[0].len() != args.len() {
            continue;
        }
        let mut env = vec![Value::Bool(false); rule.env_size];
        let mut excluded = false;
        let mut certain = rule.condition.is_none();
        // slot -> argument positions that bind or repeat it.
        let mut positions: Vec<(u32, Vec<usize>)> = Vec::new();
        for (i, (p, v)) in rule.lhs[0].iter().zip(&values).enumerate() {
            match (p, v) {
                (Pattern::Bind(slot, _), _) | (Pattern::Same(slot), None) => {
                    match positions.iter_mut().find(|(s, _)| s == slot) {
                        Some((_, ps)) => ps.push(i),
                        None => positions.push((*slot, vec![i])),
                    }
                    if let (Pattern::Bind(_, sort), Some(v)) = (p, v) {
                        if sort.as_ref().is_some_and(|s| !rw.sorts.has_sort(v, s)) {
                            excluded = true;
                        } else {
                            env[*slot as usize] = v.clone();
                        }
                    }
                    if matches!(p, Pattern::Same(_))
                        || matches!(p, Pattern::Bind(_, Some(_))) && v.is_none()
                    {
                        certain = false;
                    }
                }
                (Pattern::Same(slot), Some(v)) => {
                    // Equal to an earlier argument: decidable only when that
                    // one is known too.
                    let first = positions
                        .iter()
                        .find(|(s, _)| s == slot)
                        .map(|(_, ps)| ps[0]);
                    match first.and_then(|f| values[f].as_ref()) {
                        Some(w) if w == v => {}
                        Some(_) => excluded = true,
                        None => certain = false,
                    }
                    if let Some((_, ps)) = positions.iter_mut().find(|(s, _)| s == slot) {
                        ps.push(i);
                    }
                }
                (_, None) => return None,
                (p, Some(v)) => match rw.matches(p, v, &mut env) {
                    Ok(true) => {}
                    Ok(false) => excluded = true,
                    Err(_) => return None,
                },
            }
            if excluded {
                break;
            }
        }
        if excluded {
            continue;
        }
        let Term::Var(r) = &rule.rhs else {
            return None;
        };
        let (_, ps) = positions.iter().find(|(s, _)| s == r)?;
        let group: Vec<&Term> = ps.iter().map(|&i| &args[i]).collect();
        if certain {
            // An earlier uncertain rule whose result equals this one's
            // whenever it applies (`C(e, x, x, x) = x`) adds nothing.
            if let [only] = group[..] {
                out.retain(|g: &Vec<&Term>| !g.iter().any(|t| std::ptr::eq(*t, only)));
            }
            out.push(group);
            return Some(out);
        }
        out.push(group);
    }
    // No rule certainly applies: the call may be stuck; give up.
    None
}

/// The terms `t` can equal, through `if` with a known condition and
/// selecting calls (see [`selected`]): groups of equal terms, one group
/// per possibility; `[[t]]` when nothing is known.
fn resolve<'t>(
    rw: &Rewriter,
    t: &'t Term,
    known_value: &mut dyn FnMut(&Term) -> Option<Value>,
) -> Vec<Vec<&'t Term>> {
    match t {
        Term::If(c, a, b) => match known_value(c) {
            Some(Value::Bool(true)) => resolve(rw, a, known_value),
            Some(Value::Bool(false)) => resolve(rw, b, known_value),
            _ => vec![vec![t]],
        },
        Term::Call(..) => match selected(rw, t, known_value) {
            Some(groups) => groups,
            None => vec![vec![t]],
        },
        _ => vec![vec![t]],
    }
}

/// How a Boolean term can be shown `false` although the slots of a given
/// `unbound` set have no value yet: through `&&` (either side), `if` with
/// a condition that reads no unbound slot, and case-function calls whose
/// selector reads none (the selected argument; see `crate::cases`), down
/// to parts that read no unbound slot and evaluate to `false`. Lets the
/// finite sum variables be pruned before the infinite ones are
/// enumerated. Like the split of the condition into conjuncts, it does
/// not see that an earlier conjunct would fail with an error. Built once
/// per summand and level (which slots are unbound is static), so checking
/// it walks no term to find its variables.
#[derive(Debug)]
pub enum Refutation {
    /// A part that reads no unbound slot: refuted when it is `false`.
    Known(Term),
    /// `a && b`: refuted when either side is.
    Either(Box<Refutation>, Box<Refutation>),
    /// `if(c, a, b)` with `c` known: the branch `c` selects.
    Branch(Term, Box<Refutation>, Box<Refutation>),
    /// A case-function call (map, arguments) with a known selector: the
    /// argument it selects (one refutation per argument).
    Case(u32, Vec<Term>, Vec<Refutation>),
    /// Nothing can be learnt before the unbound slots are bound.
    Nothing,
}

impl Refutation {
    /// The refutation of `t` with the slots of `unbound` unbound.
    pub fn new(rw: &Rewriter, t: &Term, unbound: &[u32]) -> Refutation {
        let sub = |t: &Term| Box::new(Refutation::new(rw, t, unbound));
        if !mentions(t, unbound) {
            return Refutation::Known(t.clone());
        }
        match t {
            Term::And(a, b) => Refutation::Either(sub(a), sub(b)),
            Term::If(c, a, b) if !mentions(c, unbound) => {
                Refutation::Branch((**c).clone(), sub(a), sub(b))
            }
            Term::Call(m, args, _)
                if rw.is_case_function(*m)
                    && args.first().is_some_and(|s| !mentions(s, unbound)) =>
            {
                let plans = args
                    .iter()
                    .map(|a| Refutation::new(rw, a, unbound))
                    .collect();
                Refutation::Case(*m, args.clone(), plans)
            }
            _ => Refutation::Nothing,
        }
    }

    /// Whether this refutation can ever succeed.
    pub fn is_nothing(&self) -> bool {
        matches!(self, Refutation::Nothing)
    }

    /// Whether the term is certainly `false` in `env` (the unbound slots
    /// are not read).
    pub fn refutes(&self, rw: &Rewriter, env: &mut [Value]) -> bool {
        match self {
            Refutation::Known(t) => is_false(rw, t, env),
            Refutation::Either(a, b) => a.refutes(rw, env) || b.refutes(rw, env),
            Refutation::Branch(c, a, b) => match rw.eval(c, env, 0) {
                Ok(Value::Bool(true)) => a.refutes(rw, env),
                Ok(Value::Bool(false)) => b.refutes(rw, env),
                _ => false,
            },
            Refutation::Case(m, args, plans) => rw
                .selected_argument(*m, args, env, 0)
                .is_some_and(|j| plans[j].refutes(rw, env)),
            Refutation::Nothing => false,
        }
    }
}

/// Whether `t` evaluates to `false` (an error is not `false`).
pub fn is_false(rw: &Rewriter, t: &Term, env: &mut [Value]) -> bool {
    matches!(rw.eval(t, env, 0), Ok(Value::Bool(false)))
}

/// Whether term `t` reads any of `slots`.
pub fn mentions(t: &Term, slots: &[u32]) -> bool {
    let m = |x: &Term| mentions(x, slots);
    match t {
        Term::Var(s) => slots.contains(s),
        Term::Const(_) | Term::MapRef(_) => false,
        Term::Ctor(_, a)
        | Term::Call(_, a, _)
        | Term::Builtin(_, a)
        | Term::List(a)
        | Term::Set(a) => a.iter().any(m),
        Term::Lambda(_, caps) | Term::Comprehension(_, caps, _) => caps.iter().any(m),
        Term::Apply(f, a) => m(f) || a.iter().any(m),
        Term::If(a, b, c) | Term::Update(a, b, c) => m(a) || m(b) || m(c),
        Term::And(a, b) | Term::Or(a, b) | Term::Implies(a, b) => m(a) || m(b),
        Term::Quantifier { body, .. } => m(body),
        Term::Whr(b, d) => m(b) || d.iter().any(|(_, x)| m(x)),
        Term::Bag(items) => items.iter().any(|(x, n)| m(x) || m(n)),
        Term::Recogniser(_, a) | Term::Projection(_, _, a) | Term::Overloaded(_, _, a) => m(a),
    }
}

/// Lower end of a numeric sort (Nat: 0, Pos: 1), for `x < e` bounds.
fn lower_end(s: &Sort) -> Option<i128> {
    match s {
        Sort::Nat => Some(0),
        Sort::Pos => Some(1),
        _ => None,
    }
}

/// Whether `e` is `#x`.
fn is_size_of(e: &Term, x: u32) -> bool {
    matches!(e, Term::Builtin(Builtin::Size, a) if matches!(a.as_slice(), [Term::Var(s)] if *s == x))
}

/// Every list of a list sort over a finite element sort with at most
/// `max_len` elements (mCRL2's enumerator narrows `sum l: List(D)` under
/// `#l < n` to the same lists); `None` beyond 2^20 lists or length 2^10.
fn short_lists(rw: &Rewriter, sort: &Sort, max_len: i128) -> Option<Vec<Value>> {
    let Sort::List(e) = sort else { return None };
    if max_len > 1 << 10 {
        return None;
    }
    let elems = rw.sorts.elements(e)?;
    let mut layer: Vec<Vec<Value>> = vec![Vec::new()];
    let mut out = Vec::new();
    for len in 0..=max_len {
        if len > 0 {
            layer = layer
                .iter()
                .flat_map(|l| {
                    elems
                        .iter()
                        .map(move |x| [l.as_slice(), std::slice::from_ref(x)].concat())
                })
                .collect();
        }
        out.extend(layer.iter().cloned().map(Value::list));
        if out.len() > 1 << 20 {
            return None;
        }
    }
    Some(out)
}

/// A finite superset of the values of slot `x` (of sort `sort`) that can
/// make `t` true, given `env` for every slot not in `unknown`; `None` when
/// no bound is found. `Some(vec![])`: `t` cannot be true.
pub fn candidates(
    rw: &Rewriter,
    t: &Term,
    x: u32,
    sort: &Sort,
    unknown: &[u32],
    env: &mut [Value],
) -> Option<Vec<Value>> {
    if !mentions(t, unknown) {
        return match rw.eval(t, env, 0) {
            Ok(Value::Bool(false)) => Some(Vec::new()),
            _ => None,
        };
    }
    let known = |e: &Term| !mentions(e, unknown);
    match t {
        Term::And(a, b) => {
            let ca = candidates(rw, a, x, sort, unknown, env);
            if ca.as_ref().is_some_and(|c| c.is_empty()) {
                return ca;
            }
            let cb = candidates(rw, b, x, sort, unknown, env);
            match (ca, cb) {
                (Some(a), Some(b)) => Some(a.into_iter().filter(|v| b.contains(v)).collect()),
                (Some(a), None) => Some(a),
                (None, b) => b,
            }
        }
        Term::Or(a, b) => {
            let ca = candidates(rw, a, x, sort, unknown, env)?;
            Some(join(ca, candidates(rw, b, x, sort, unknown, env)?))
        }
        Term::If(c, a, b) => {
            if known(c) {
                match rw.eval(c, env, 0) {
                    Ok(Value::Bool(true)) => candidates(rw, a, x, sort, unknown, env),
                    Ok(Value::Bool(false)) => candidates(rw, b, x, sort, unknown, env),
                    _ => None,
                }
            } else {
                let ca = candidates(rw, a, x, sort, unknown, env)?;
                Some(join(ca, candidates(rw, b, x, sort, unknown, env)?))
            }
        }
        Term::Builtin(op, args) if args.len() == 2 => {
            let (l, r) = (&args[0], &args[1]);
            let is_x = |e: &Term| matches!(e, Term::Var(s) if *s == x);
            let eval_known = |e: &Term, env: &mut [Value]| -> Option<Value> {
                if known(e) {
                    rw.eval(e, env, 0).ok()
                } else {
                    None
                }
            };
            let keep = |vs: Vec<Value>| -> Vec<Value> {
                let mut out: Vec<Value> = Vec::new();
                for v in vs {
                    if rw.sorts.has_sort(&v, sort) && !out.contains(&v) {
                        out.push(v);
                    }
                }
                out
            };
            let range = |hi: i128, inclusive: bool| -> Option<Vec<Value>> {
                let lo = lower_end(sort)?;
                let hi = if inclusive { hi } else { hi - 1 };
                if hi - lo > 1 << 20 {
                    return None;
                }
                Some((lo..=hi).map(Value::Int).collect())
            };
            match op {
                Builtin::Eq => {
                    let (side, other) = if known(r) { (l, r) } else { (r, l) };
                    let k = eval_known(other, env)?;
                    eq_candidates(rw, side, &k, x, unknown, env).map(keep)
                }
                Builtin::Lt | Builtin::Le | Builtin::Gt | Builtin::Ge if is_x(l) || is_x(r) => {
                    // x < e, x <= e, e > x, e >= x.
                    let (bound, inclusive) = match op {
                        Builtin::Lt if is_x(l) => (r, false),
                        Builtin::Le if is_x(l) => (r, true),
                        Builtin::Gt if is_x(r) => (l, false),
                        Builtin::Ge if is_x(r) => (l, true),
                        _ => return None,
                    };
                    match eval_known(bound, env)? {
                        Value::Int(hi) => range(hi, inclusive),
                        _ => None,
                    }
                }
                Builtin::Lt | Builtin::Le | Builtin::Gt | Builtin::Ge => {
                    // #x < e, #x <= e, e > #x, e >= #x for a list x.
                    let (bound, inclusive) = match op {
                        Builtin::Lt if is_size_of(l, x) => (r, false),
                        Builtin::Le if is_size_of(l, x) => (r, true),
                        Builtin::Gt if is_size_of(r, x) => (l, false),
                        Builtin::Ge if is_size_of(r, x) => (l, true),
                        _ => return None,
                    };
                    match eval_known(bound, env)? {
                        Value::Int(hi) => {
                            short_lists(rw, sort, if inclusive { hi } else { hi - 1 })
                        }
                        _ => None,
                    }
                }
                Builtin::In => {
                    let elements = match eval_known(r, env)? {
                        Value::List(items) => items.to_vec(),
                        Value::Set(s) if s.pred.is_none() => s.finite.clone(),
                        Value::Bag(items) => items.iter().map(|(v, _)| v.clone()).collect(),
                        _ => return None,
                    };
                    if is_x(l) {
                        return Some(keep(elements));
                    }
                    // `c(.., x, ..) in e`: x unified with each element.
                    let mut out = Vec::new();
                    for v in &elements {
                        out = join(out, eq_candidates(rw, l, v, x, unknown, env)?);
                    }
                    Some(keep(out))
                }
                _ => None,
            }
        }
        Term::Call(..) => {
            let groups = {
                let mut kv = |e: &Term| -> Option<Value> {
                    if known(e) {
                        rw.eval(e, env, 0).ok()
                    } else {
                        None
                    }
                };
                selected(rw, t, &mut kv)?
            };
            union_over(groups, |a| candidates(rw, a, x, sort, unknown, env))
        }
        _ => None,
    }
}

/// The candidates of every group (those of its first alternative that has
/// any), joined in order without repeats; `None` when a group has none.
fn union_over(
    groups: Vec<Vec<&Term>>,
    mut candidates: impl FnMut(&Term) -> Option<Vec<Value>>,
) -> Option<Vec<Value>> {
    let mut out: Vec<Value> = Vec::new();
    for g in groups {
        out = join(out, g.iter().find_map(|a| candidates(a))?);
    }
    Some(out)
}

/// `out` followed by the values of `more` it does not hold yet.
fn join(mut out: Vec<Value>, more: Vec<Value>) -> Vec<Value> {
    for v in more {
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

/// Candidates for `x` from `t == k` with `k` known: `t` is `x`, or a
/// constructor term to unify with `k` argument by argument, or a term that
/// resolves (known `if`, selecting call) to those.
fn eq_candidates(
    rw: &Rewriter,
    t: &Term,
    k: &Value,
    x: u32,
    unknown: &[u32],
    env: &mut [Value],
) -> Option<Vec<Value>> {
    if matches!(t, Term::Var(s) if *s == x) {
        return Some(vec![k.clone()]);
    }
    if !mentions(t, unknown) {
        return match rw.eval(t, env, 0) {
            Ok(v) if v != *k && !matches!(v, Value::Func(_)) => Some(Vec::new()),
            _ => None,
        };
    }
    match t {
        Term::Ctor(c, args) => match k {
            Value::Ctor(d, vals) if d == c && vals.len() == args.len() => {
                let mut acc: Option<Vec<Value>> = None;
                for (a, v) in args.iter().zip(vals.iter()) {
                    if let Some(cs) = eq_candidates(rw, a, v, x, unknown, env) {
                        if cs.is_empty() {
                            return Some(cs);
                        }
                        acc = Some(match acc {
                            None => cs,
                            Some(prev) => prev.into_iter().filter(|p| cs.contains(p)).collect(),
                        });
                    }
                }
                acc
            }
            Value::Ctor(..) => Some(Vec::new()),
            _ => None,
        },
        Term::If(..) | Term::Call(..) => {
            let groups = resolved(rw, t, env, &[unknown])?;
            union_over(groups, |a| eq_candidates(rw, a, k, x, unknown, env))
        }
        _ => None,
    }
}

/// `t` resolved (see [`resolve`]) with the terms that mention none of the
/// variables of `hidden` evaluated; `None` when it resolves only to itself.
fn resolved<'t>(
    rw: &Rewriter,
    t: &'t Term,
    env: &mut [Value],
    hidden: &[&[u32]],
) -> Option<Vec<Vec<&'t Term>>> {
    let mut kv = |e: &Term| -> Option<Value> {
        if hidden.iter().any(|h| mentions(e, h)) {
            None
        } else {
            rw.eval(e, env, 0).ok()
        }
    };
    let groups = resolve(rw, t, &mut kv);
    if groups.len() == 1 && groups[0].len() == 1 && std::ptr::eq(groups[0][0], t) {
        return None;
    }
    Some(groups)
}

/// The static counterpart of [`eq_candidates`].
fn eq_bounded(
    rw: &Rewriter,
    t: &Term,
    x: u32,
    unknown: &[u32],
    params: &[u32],
    env: &mut [Value],
) -> bool {
    if matches!(t, Term::Var(s) if *s == x) {
        return true;
    }
    match t {
        Term::Ctor(_, args) => args
            .iter()
            .any(|a| eq_bounded(rw, a, x, unknown, params, env)),
        Term::If(..) | Term::Call(..) => {
            let Some(groups) = resolved(rw, t, env, &[unknown, params]) else {
                return false;
            };
            groups
                .iter()
                .all(|g| g.iter().any(|a| eq_bounded(rw, a, x, unknown, params, env)))
        }
        _ => false,
    }
}

/// Whether [`candidates`] will find a bound for `x` in every state: the
/// same analysis with the process parameters (`params`) unknown but
/// available later, so a branch chosen by a parameter must be bounded on
/// both sides and a closed conjunct gives no information.
pub fn statically_bounded(
    rw: &Rewriter,
    t: &Term,
    x: u32,
    sort: &Sort,
    unknown: &[u32],
    params: &[u32],
    env: &mut [Value],
) -> bool {
    let sb = |t: &Term, env: &mut [Value]| statically_bounded(rw, t, x, sort, unknown, params, env);
    let known_now = |e: &Term| !mentions(e, unknown) && !mentions(e, params);
    let known_later = |e: &Term| !mentions(e, unknown);
    match t {
        Term::And(a, b) => sb(a, env) || sb(b, env),
        Term::Or(a, b) => sb(a, env) && sb(b, env),
        Term::If(c, a, b) => {
            if known_now(c) {
                match rw.eval(c, env, 0) {
                    Ok(Value::Bool(true)) => sb(a, env),
                    Ok(Value::Bool(false)) => sb(b, env),
                    _ => false,
                }
            } else {
                sb(a, env) && sb(b, env)
            }
        }
        Term::Builtin(op, args) if args.len() == 2 => {
            let (l, r) = (&args[0], &args[1]);
            let is_x = |e: &Term| matches!(e, Term::Var(s) if *s == x);
            let numeric = lower_end(sort).is_some();
            let finite_list = matches!(sort, Sort::List(e) if rw.sorts.elements(e).is_some());
            match op {
                Builtin::Eq => {
                    let (side, other) = if known_later(r) { (l, r) } else { (r, l) };
                    known_later(other) && eq_bounded(rw, side, x, unknown, params, env)
                }
                Builtin::Lt | Builtin::Le => {
                    (numeric && is_x(l) || finite_list && is_size_of(l, x)) && known_later(r)
                }
                Builtin::Gt | Builtin::Ge => {
                    (numeric && is_x(r) || finite_list && is_size_of(r, x)) && known_later(l)
                }
                Builtin::In => {
                    known_later(r) && (is_x(l) || eq_bounded(rw, l, x, unknown, params, env))
                }
                _ => false,
            }
        }
        Term::Call(..) => {
            let mut kv = |e: &Term| -> Option<Value> {
                if known_now(e) {
                    rw.eval(e, env, 0).ok()
                } else {
                    None
                }
            };
            let Some(groups) = selected(rw, t, &mut kv) else {
                return false;
            };
            groups.iter().all(|g| g.iter().any(|a| sb(a, env)))
        }
        _ => false,
    }
}
