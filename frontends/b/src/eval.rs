//! Evaluation of B expressions and predicates in an environment ([`Env`]):
//! the machine's constants and variables (one value per state slot) and
//! the identifiers bound locally (quantifiers, parameters, ANY, LET, VAR).
//!
//! Infinite sets (`NATURAL`, `INTEGER`, `STRING`, `seq(S)`, `POW(NATURAL)`)
//! are never built: membership in them is decided from the syntax
//! ([`Env::member`]), and enumerating them is refused. Well-definedness
//! violations (a function applied outside its domain, division by zero,
//! `min({})`, an integer overflow) are [`Fail::Wd`] errors, never a value.
//!
//! Owns expression semantics; substitutions are `exec`, binders' solving
//! is `solve`, value algebra is `value`.

use std::sync::Arc;

use crate::ast::*;
use crate::solve::{plan, solve, Plan};
use crate::symmetry::Symmetry;
use crate::value::{self as v, Value};

/// Why evaluation stopped.
#[derive(Clone, Debug)]
pub enum Fail {
    /// A well-definedness error of the model (ProB reports these too).
    Wd(String, Pos),
    /// A construct this front-end cannot evaluate.
    Unsupported(String, Pos),
}

pub type E<T> = Result<T, Fail>;

/// What a global identifier denotes.
#[derive(Clone, Debug)]
pub enum Global {
    /// State slot `i` (a constant or a variable).
    Slot(usize),
    /// A fixed value (a set of SETS, an element of an enumerated or deferred set).
    Value(Value),
    /// A constant ProB keeps symbolic, by its definition (see `symbolic`).
    Symbolic(Arc<crate::symbolic::Closure>),
}

/// The static context of evaluation: settings and global names.
#[derive(Debug)]
pub struct World {
    pub syms: Syms,
    pub files: Vec<String>,
    pub maxint: i64,
    pub minint: i64,
    /// Indexed by symbol.
    pub globals: Vec<Option<Global>>,
    /// ProB's static symmetry reduction of constants (see `symmetry`).
    pub symmetry: Symmetry,
    /// `SET_PREF_SHOW_EVENTB_ANY_VALUES == TRUE`: the values of an
    /// operation's top-level ANY are part of its transitions, as its
    /// parameters are (see `model`).
    pub any_values: bool,
    /// `SET_PREF_TRY_FIND_ABORT == TRUE`: ProB then reports a function
    /// applied outside its domain in a quantified formula even as a side
    /// of `=` (Frappier1's `f(x) = f(y)`).
    pub try_find_abort: bool,
    /// Set when a guard conjunct was taken as false because it applied a
    /// function outside its domain: ProB's solver may find a value there
    /// (wd_if_then_else), so PROPERTIES found unsatisfiable after it are
    /// not ProB's 0 states (see `model`).
    pub wd_swallowed: std::sync::atomic::AtomicBool,
    /// The slots' declared types (see `solve::Declared`).
    pub declared: crate::solve::Declared,
    /// Elements of expensive generating sets already enumerated.
    pub sets: crate::solve::SetCache,
    /// Every deferred set has a size ProB cannot infer from the
    /// PROPERTIES (see `deferred_given`).
    pub sizes_given: bool,
    /// A symmetry-breaking construct of ProB's not modelled, accepted
    /// with a single solution (see `deferred_unique`).
    pub unmodelled_symmetry: crate::deferred_unique::Unmodelled,
    /// The deferred sets whose permutations `deferred_unique` reduces
    /// the solutions by, under an unmodelled symmetry construct.
    pub orbits: crate::deferred_orbits::Orbits,
    /// The slots typed only by inference enumerated whole
    /// (`deferred_inferred`).
    pub inferred_elements: crate::deferred_inferred::InferredElements,
    /// The Event-B theory operators that call themselves (`eventb_calls`).
    pub calls: crate::eventb_calls::Calls,
    /// The main machine's SCOPE predicate (see `library_scope`).
    pub scope: Option<Expr>,
}

/// Largest set this front-end builds by enumeration.
pub(crate) const ENUM_LIMIT: usize = 1 << 22;

/// The dynamic context: slot values and local bindings.
pub struct Env<'w> {
    pub w: &'w World,
    pub slots: Vec<Value>,
    pub locals: Vec<(Sym, Value)>,
    /// Type samples of locals whose values show no type (index into
    /// `locals`, sample), see `solve::carrier_locals`.
    pub local_samples: Vec<(usize, Value)>,
    /// Whether a set of over [`LARGE_SET`] elements that ProB may keep
    /// symbolic (an interval, a comprehension, a constant) took part in
    /// this evaluation: a variable may then not hold such a set (see
    /// `model`).
    pub symbolic: bool,
}

impl Env<'_> {
    /// The value of the innermost local binding of `s`, if any.
    pub fn local(&self, s: Sym) -> Option<&Value> {
        self.locals
            .iter()
            .rev()
            .find(|(x, _)| *x == s)
            .map(|(_, v)| v)
    }
}

/// A function applied outside its domain inside the quantified formula `q`
/// (a quantifier, a set comprehension, a lambda, SIGMA...) is an error even
/// in a guard conjunct (ProB's TwoPurses: `!c.(c : C => f(c) <= g(c))` in
/// an ANY), unlike one at the conjunct's top level (see
/// [`Env::holds_guard`]), except as a side of `=`, `/=` or `x : {f(y)}`,
/// which ProB solves as `y |-> x : f` (scheduler0_proof's
/// `pst(p) = idle`, PROB-362's `cc : {prealable(sig)}`), unless the
/// machine sets `SET_PREF_TRY_FIND_ABORT` (`strict`).
pub(crate) fn quantified(f: Fail, q: &Expr, strict: bool) -> Fail {
    match f {
        Fail::Wd(m, p) if m.starts_with("function appl") && (strict || !relational_apply(q, p)) => {
            Fail::Wd(format!("in a quantified formula: {m}"), p)
        }
        other => other,
    }
}

/// Whether the application at `at` in `q` is a side of `=`, `/=` or the
/// element of a singleton set a value is said to belong to.
pub(crate) fn relational_apply(q: &Expr, at: Pos) -> bool {
    let apply_at = |e: &Expr| matches!(e.kind, ExprKind::Apply(..)) && e.pos == at;
    let mut found = false;
    crate::compile::visit(q, &mut |e| match &e.kind {
        ExprKind::Bin(BinOp::Eq | BinOp::Neq, a, b) => found |= apply_at(a) || apply_at(b),
        ExprKind::Bin(BinOp::In, _, s) => {
            found |= matches!(&s.kind, ExprKind::SetExt(xs) if xs.len() == 1 && apply_at(&xs[0]))
        }
        _ => {}
    });
    found
}

fn wd<T>(r: Result<T, String>, pos: Pos) -> E<T> {
    r.map_err(|m| Fail::Wd(m, pos))
}

/// ProB's integers are unbounded; ours are 64-bit.
pub(crate) fn overflow(pos: Pos) -> Fail {
    Fail::Unsupported(BEYOND_64_BITS.into(), pos)
}

/// The message of [`overflow`].
pub(crate) const BEYOND_64_BITS: &str = "an integer beyond 64 bits";

impl<'w> Env<'w> {
    pub fn lookup(&self, s: Sym, pos: Pos) -> E<Value> {
        let unset = || {
            Fail::Unsupported(
                format!("'{}' read before it is assigned", self.w.syms.name(s)),
                pos,
            )
        };
        if let Some((_, v)) = self.locals.iter().rev().find(|(x, _)| *x == s) {
            if matches!(v, Value::Str(t) if &**t == crate::exec::UNSET_LOCAL) {
                return Err(Fail::Wd(
                    format!(
                        "VAR local '{}' read before it is assigned",
                        self.w.syms.name(s)
                    ),
                    pos,
                ));
            }
            if crate::errors_results::is_unset_result(v) {
                return Err(crate::errors_results::read_error(self.w.syms.name(s), pos));
            }
            if crate::exec::is_unset(v) {
                return Err(unset());
            }
            return Ok(v.clone());
        }
        match self.w.globals.get(s as usize).and_then(|g| g.as_ref()) {
            Some(Global::Slot(i)) if crate::exec::is_unset(&self.slots[*i]) => Err(unset()),
            Some(Global::Slot(i)) => Ok(self.slots[*i].clone()),
            Some(Global::Value(v)) => Ok(v.clone()),
            Some(Global::Symbolic(_)) => Err(Fail::Unsupported(
                format!(
                    "symbolic constant '{}' read as a value",
                    self.w.syms.name(s)
                ),
                pos,
            )),
            None => Err(Fail::Unsupported(
                format!("unknown identifier '{}'", self.w.syms.name(s)),
                pos,
            )),
        }
    }

    pub fn plan_of<'p>(
        &self,
        cell: &'p std::sync::OnceLock<crate::solve::PlanResult>,
        ids: &[Sym],
        pred: &Expr,
    ) -> E<&'p Plan> {
        self.plan_by(cell, ids, pred, plan)
    }

    /// `plan_of` with the planner `by` (`solve::plan_exists` for an
    /// existential being decided).
    pub fn plan_by<'p>(
        &self,
        cell: &'p std::sync::OnceLock<crate::solve::PlanResult>,
        ids: &[Sym],
        pred: &Expr,
        by: fn(&[Sym], &Expr, &Syms) -> crate::solve::PlanResult,
    ) -> E<&'p Plan> {
        cell.get_or_init(|| by(ids, pred, &self.w.syms))
            .as_ref()
            .map_err(|(m, p)| Fail::Unsupported(m.clone(), *p))
    }

    /// Whether the guard conjunct `e` holds. As in ProB's constraint
    /// solving, a conjunct of a guard (PRE, SELECT, ANY, a binder's
    /// predicate) whose evaluation applies a function outside its domain is
    /// false rather than an error.
    pub fn holds_guard(&mut self, e: &Expr) -> E<bool> {
        match self.holds(e) {
            Err(Fail::Wd(m, _)) if m.starts_with("function appl") => {
                self.swallowed_wd();
                Ok(false)
            }
            r => r,
        }
    }

    /// Records that a well-definedness error made a guard false (see
    /// [`World::wd_swallowed`]).
    pub fn swallowed_wd(&self) {
        self.w
            .wd_swallowed
            .store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// Whether the predicate `e` holds.
    pub fn holds(&mut self, e: &Expr) -> E<bool> {
        use BinOp::*;
        match &e.kind {
            ExprKind::Bin(op, a, b) => match op {
                And => Ok(self.holds(a)? && self.holds(b)?),
                Or => Ok(self.holds(a)? || self.holds(b)?),
                Implies => Ok(!self.holds(a)? || self.holds(b)?),
                Equiv => Ok(self.holds(a)? == self.holds(b)?),
                Eq => Ok(self.eval(a)? == self.eval(b)?),
                Neq => Ok(self.eval(a)? != self.eval(b)?),
                // ProB decides `E : {}` without evaluating `E`.
                In | NotIn if matches!(b.kind, ExprKind::EmptySet) => Ok(*op == NotIn),
                In if crate::errors_results::typing_of_unset(self, a, b) => Ok(true),
                In => {
                    let x = self.eval(a)?;
                    self.member(&x, b)
                }
                NotIn => {
                    let x = self.eval(a)?;
                    Ok(!self.member(&x, b)?)
                }
                Subset | StrictSubset | NotSubset | NotStrictSubset
                    if matches!(b.kind, ExprKind::EmptySet) && Self::infinite_nonempty(a) =>
                {
                    Ok(matches!(op, NotSubset | NotStrictSubset))
                }
                Subset | StrictSubset | NotSubset | NotStrictSubset => {
                    let x = self.eval(a)?;
                    let xs = wd(x.as_set(), a.pos)?;
                    let xlen = xs.len();
                    let mut sub = true;
                    for el in xs {
                        if !self.member(el, b)? {
                            sub = false;
                            break;
                        }
                    }
                    // strict: `b` has more elements than `x`
                    let strict = if sub && matches!(op, StrictSubset | NotStrictSubset) {
                        self.elements(b)?.len() > xlen
                    } else {
                        false
                    };
                    Ok(match op {
                        Subset => sub,
                        NotSubset => !sub,
                        StrictSubset => sub && strict,
                        _ => !(sub && strict),
                    })
                }
                Lt | Gt | Le | Ge => {
                    let x = self.int(a)?;
                    let y = self.int(b)?;
                    Ok(match op {
                        Lt => x < y,
                        Gt => x > y,
                        Le => x <= y,
                        _ => x >= y,
                    })
                }
                _ => wd(self.eval(e)?.as_bool(), e.pos),
            },
            ExprKind::Call(Builtin::Not, a) => Ok(!self.holds(&a[0])?),
            ExprKind::Quant {
                kind: QuantKind::Forall,
                ids,
                pred,
                plan,
                ..
            } => {
                let (dom, body) = match &pred.kind {
                    ExprKind::Bin(Implies, d, b) => (&**d, &**b),
                    _ => {
                        return Err(Fail::Unsupported(
                            "universal quantifier not of the form !x.(P => Q)".into(),
                            pred.pos,
                        ))
                    }
                };
                let p = match self.plan_of(plan, ids, dom) {
                    Ok(p) => p,
                    Err(f) => {
                        return crate::solve::forall_refuted_in_window(ids, dom, body, self)
                            .or_else(|| {
                                let unbounded = crate::solve::unbounded(&f);
                                let decided = crate::solve::forall_over_counterexamples;
                                unbounded.then(|| decided(ids, dom, body, self)).flatten()
                            })
                            .ok_or(f);
                    }
                };
                let mut all = true;
                let r = solve(ids, dom, p, self, false, &mut |env| {
                    if !env.holds(body)? {
                        all = false;
                    }
                    Ok(all)
                });
                match r {
                    Err(f) if crate::solve::untyped(&f) => {
                        crate::solve::forall_typed_by_body(ids, dom, body, self)
                    }
                    Err(f) if crate::solve::unbounded(&f) => {
                        crate::solve::forall_over_counterexamples(ids, dom, body, self).ok_or(f)
                    }
                    r => r.map(|_| all),
                }
                .map_err(|f| quantified(f, e, self.w.try_find_abort))
            }
            ExprKind::Quant {
                kind: QuantKind::Exists,
                ids,
                pred,
                plan,
                ..
            } => {
                let p = match self.plan_by(plan, ids, pred, crate::solve::plan_exists) {
                    Ok(p) => p,
                    Err(f) => {
                        return crate::solve::exists_in_window(ids, pred, self).ok_or(f);
                    }
                };
                let mut found = false;
                solve(ids, pred, p, self, false, &mut |_| {
                    found = true;
                    Ok(false)
                })
                .map_err(|f| quantified(f, e, self.w.try_find_abort))?;
                Ok(found)
            }
            _ => {
                let x = self.eval(e)?;
                x.as_bool().map_err(|m| self.type_error(m, e))
            }
        }
    }

    /// Whether `x` belongs to the set denoted by `s` (decided from the
    /// syntax for infinite sets).
    pub fn member(&mut self, x: &Value, s: &Expr) -> E<bool> {
        crate::lazy_sets::check_space_member(x, s, self.symbolic)?;
        if let Some(d) = crate::symbolic::named(s).and_then(|c| self.closure_of(c)) {
            return self.closure_member(x, &d, s.pos);
        }
        match &s.kind {
            ExprKind::Named(n) => Ok(match (n, x) {
                (NamedSet::Natural, Value::Int(i)) => *i >= 0,
                (NamedSet::Natural1, Value::Int(i)) => *i >= 1,
                (NamedSet::Integer, Value::Int(_)) => true,
                (NamedSet::Nat, Value::Int(i)) => *i >= 0 && *i <= self.w.maxint,
                (NamedSet::Nat1, Value::Int(i)) => *i >= 1 && *i <= self.w.maxint,
                (NamedSet::Int, Value::Int(i)) => *i >= self.w.minint && *i <= self.w.maxint,
                (NamedSet::Bool, Value::Bool(_)) => true,
                (NamedSet::String, Value::Str(_)) => true,
                _ => {
                    let msg = "membership test between different types (in the set)";
                    return Err(self.type_error(msg.into(), s));
                }
            }),
            // ProB decides `E : {}` without evaluating `E`.
            ExprKind::EmptySet => Ok(false),
            ExprKind::Call(
                b @ (Builtin::Pow | Builtin::Pow1 | Builtin::Fin | Builtin::Fin1),
                a,
            ) => {
                let xs = wd(x.as_set(), s.pos)?;
                if matches!(b, Builtin::Pow1 | Builtin::Fin1) && xs.is_empty() {
                    return Ok(false);
                }
                for el in xs {
                    if !self.member(el, &a[0])? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            ExprKind::Bin(BinOp::Space(k), a, b) => {
                let r = wd(x.as_set(), s.pos)?;
                for (p, q) in wd(v::pairs(r), s.pos)? {
                    if !self.member(p, a)? || !self.member(q, b)? {
                        return Ok(false);
                    }
                }
                self.space_props(*k, r, a, b, s.pos)
            }
            ExprKind::Bin(BinOp::Mul, a, b) if matches!(x, Value::Pair(_)) => {
                let (p, q) = wd(x.as_pair(), s.pos)?;
                Ok(self.member(p, a)? && self.member(q, b)?)
            }
            ExprKind::Call(
                b @ (Builtin::Seq | Builtin::Seq1 | Builtin::Iseq | Builtin::Iseq1 | Builtin::Perm),
                a,
            ) => {
                let Some(els) = v::seq_elems(wd(x.as_set(), s.pos)?) else {
                    return Ok(false);
                };
                if matches!(b, Builtin::Seq1 | Builtin::Iseq1) && els.is_empty() {
                    return Ok(false);
                }
                for el in &els {
                    if !self.member(el, &a[0])? {
                        return Ok(false);
                    }
                }
                if matches!(b, Builtin::Iseq | Builtin::Iseq1 | Builtin::Perm) {
                    let mut sorted = els.clone();
                    sorted.sort();
                    sorted.dedup();
                    if sorted.len() != els.len() {
                        return Ok(false);
                    }
                    if *b == Builtin::Perm {
                        let all = self.elements(&a[0])?;
                        return Ok(all.len() == els.len());
                    }
                }
                Ok(true)
            }
            ExprKind::Struct(fields) => {
                let Value::Rec(r) = x else {
                    return Ok(false);
                };
                if r.len() != fields.len() {
                    return Ok(false);
                }
                for (f, e) in fields {
                    let name = self.w.syms.name(*f);
                    let Some((_, fv)) = r.iter().find(|(n, _)| &**n == name) else {
                        return Ok(false);
                    };
                    let fv = fv.clone();
                    if !self.member(&fv, e)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            ExprKind::Quant {
                kind: QuantKind::Comprehension,
                ids,
                pred,
                ..
            } => {
                let base = self.locals.len();
                let ok = bind_tuple(ids, x.clone(), &mut self.locals);
                let r = if ok { self.holds(pred) } else { Ok(false) };
                self.locals.truncate(base);
                r
            }
            ExprKind::Bin(BinOp::Interval, a, b) => {
                let Value::Int(i) = x else {
                    return Err(Fail::Wd(
                        "membership of a non-integer in an interval".into(),
                        s.pos,
                    ));
                };
                Ok(self.int(a)? <= *i && *i <= self.int(b)?)
            }
            ExprKind::Bin(BinOp::Union, a, b) => Ok(self.member(x, a)? || self.member(x, b)?),
            ExprKind::Bin(BinOp::Inter, a, b) => Ok(self.member(x, a)? && self.member(x, b)?),
            // `x : A \ B` without building `A \ B` (`NATURAL - {0}`
            // decided from the syntax, as `NATURAL`); both operands are
            // looked at, as they are for the difference itself
            ExprKind::Bin(BinOp::Minus, a, b) => {
                let (inside, removed) = (self.member(x, a)?, self.member(x, b)?);
                Ok(inside && !removed)
            }
            _ => {
                if let Some(r) = self.member_filtered(x, s) {
                    return r;
                }
                let set = self.eval(s)?;
                wd(set.contains(x), s.pos)
            }
        }
    }

    /// Whether `part` (a relation's domain or range) has as many elements
    /// as the set `whole`, of which it is a subset.
    fn covers(&mut self, part: Result<Value, String>, whole: &Expr, pos: Pos) -> E<bool> {
        let part = wd(part, pos)?;
        // a finite set never covers an infinite one (`f : STRING --> T`)
        let closure = crate::symbolic::named(whole).and_then(|c| self.closure_of(c));
        if crate::solve::infinite_type(closure.as_ref().map_or(whole, |d| &d.def)) {
            return Ok(false);
        }
        let all = self.elements(whole)?;
        Ok(wd(part.as_set(), pos)?.len() == all.len())
    }

    /// Injectivity, totality, surjectivity of relation `r` for space `k` from `a` to `b`.
    pub(crate) fn space_props(
        &mut self,
        k: SpaceKind,
        r: &[Value],
        a: &Expr,
        b: &Expr,
        pos: Pos,
    ) -> E<bool> {
        use SpaceKind::*;
        let func = matches!(
            k,
            Partial
                | Total
                | PartialInj
                | TotalInj
                | PartialSurj
                | TotalSurj
                | PartialBij
                | TotalBij
        );
        if func && !wd(v::is_function(r), pos)? {
            return Ok(false);
        }
        if matches!(k, PartialInj | TotalInj | PartialBij | TotalBij)
            && !wd(v::is_injective(r), pos)?
        {
            return Ok(false);
        }
        if matches!(
            k,
            Total | TotalInj | TotalSurj | TotalBij | TotalRel | TotalSurjRel
        ) && !self.covers(v::dom(r), a, pos)?
        {
            return Ok(false);
        }
        if matches!(
            k,
            PartialSurj | TotalSurj | PartialBij | TotalBij | SurjRel | TotalSurjRel
        ) && !self.covers(v::ran(r), b, pos)?
        {
            return Ok(false);
        }
        Ok(true)
    }

    /// The elements of the finite set denoted by `s` (enumerating `POW`,
    /// function spaces, `iseq`, `perm` and `struct` from their syntax).
    pub fn elements(&mut self, s: &Expr) -> E<Vec<Value>> {
        match &s.kind {
            ExprKind::Call(
                b @ (Builtin::Pow | Builtin::Pow1 | Builtin::Fin | Builtin::Fin1),
                a,
            ) => {
                let base = self.elements(&a[0])?;
                let mut subs = v::subsets(&base, 22).map_err(|m| Fail::Unsupported(m, s.pos))?;
                if matches!(b, Builtin::Pow1 | Builtin::Fin1) {
                    subs.retain(|x| x.as_set().is_ok_and(|x| !x.is_empty()));
                }
                subs.sort();
                Ok(subs)
            }
            ExprKind::Bin(BinOp::Space(k), a, b) => {
                let da = self.elements(a)?;
                let rb = self.elements(b)?;
                if let Some(members) = crate::solve::space_members(*k, &da, &rb, ENUM_LIMIT) {
                    return members.map_err(|n| {
                        let what = format!("enumerating a function space of {n} members");
                        Fail::Unsupported(what, s.pos)
                    });
                }
                let prod = v::cartesian(&da, &rb);
                let mut out = Vec::new();
                let subs = v::subsets(prod.as_set().expect("set"), 22)
                    .map_err(|m| Fail::Unsupported(m, s.pos))?;
                for r in subs {
                    if self.space_props(*k, r.as_set().expect("set"), a, b, s.pos)? {
                        out.push(r);
                    }
                }
                out.sort();
                Ok(out)
            }
            ExprKind::Call(b @ (Builtin::Iseq | Builtin::Iseq1 | Builtin::Perm), a) => {
                let base = self.elements(&a[0])?;
                if base.len() > 8 {
                    return Err(Fail::Unsupported(
                        "enumerating injective sequences over more than 8 elements".into(),
                        s.pos,
                    ));
                }
                let mut out = Vec::new();
                let mut cur = Vec::new();
                let mut used = vec![false; base.len()];
                fn rec(
                    base: &[Value],
                    used: &mut [bool],
                    cur: &mut Vec<Value>,
                    out: &mut Vec<Value>,
                    b: Builtin,
                ) {
                    let keep = match b {
                        Builtin::Perm => cur.len() == base.len(),
                        Builtin::Iseq1 => !cur.is_empty(),
                        _ => true,
                    };
                    if keep {
                        out.push(v::seq_of(cur.clone()));
                    }
                    for i in 0..base.len() {
                        if !used[i] {
                            used[i] = true;
                            cur.push(base[i].clone());
                            rec(base, used, cur, out, b);
                            cur.pop();
                            used[i] = false;
                        }
                    }
                }
                rec(&base, &mut used, &mut cur, &mut out, *b);
                out.sort();
                Ok(out)
            }
            ExprKind::Struct(fields) => {
                let mut recs: Vec<Vec<(Arc<str>, Value)>> = vec![Vec::new()];
                for (f, e) in fields {
                    let name: Arc<str> = self.w.syms.name(*f).into();
                    let vals = self.elements(e)?;
                    let mut next = Vec::new();
                    for r in &recs {
                        for x in &vals {
                            let mut r = r.clone();
                            r.push((name.clone(), x.clone()));
                            next.push(r);
                        }
                    }
                    if next.len() > ENUM_LIMIT {
                        return Err(Fail::Unsupported(
                            "enumerating too many records".into(),
                            s.pos,
                        ));
                    }
                    recs = next;
                }
                let mut out: Vec<Value> = recs
                    .into_iter()
                    .map(|mut r| {
                        r.sort_by(|a, b| a.0.cmp(&b.0));
                        Value::Rec(Arc::new(r))
                    })
                    .collect();
                out.sort();
                Ok(out)
            }
            ExprKind::Bin(BinOp::Interval, a, b) => {
                let (lo, hi) = (self.int(a)?, self.int(b)?);
                if hi >= lo && (hi - lo) as u64 > ENUM_LIMIT as u64 {
                    return Err(Fail::Unsupported(format!("enumerating {lo}..{hi}"), s.pos));
                }
                Ok((lo..=hi).map(Value::Int).collect())
            }
            ExprKind::Named(
                NamedSet::Natural | NamedSet::Natural1 | NamedSet::Integer | NamedSet::String,
            )
            | ExprKind::Call(Builtin::Seq | Builtin::Seq1, _) => Err(Fail::Unsupported(
                "enumerating an infinite set".into(),
                s.pos,
            )),
            _ => {
                let x = self.eval(s)?;
                Ok(wd(x.as_set(), s.pos)?.to_vec())
            }
        }
    }

    /// The values `x :: s` chooses from: the elements of `s`, except that
    /// `INTEGER`, `NATURAL` and `NATURAL1` range over their part of
    /// `MININT..MAXINT`, as ProB's model checker enumerates them (BError_4's
    /// `n :: INTEGER`: 5 states).
    pub fn becomes_in_choices(&mut self, s: &Expr) -> E<Vec<Value>> {
        let lo = match &s.kind {
            ExprKind::Named(NamedSet::Integer) => self.w.minint,
            ExprKind::Named(NamedSet::Natural) => 0,
            ExprKind::Named(NamedSet::Natural1) => 1,
            _ => return self.elements(s),
        };
        Ok((lo..=self.w.maxint).map(Value::Int).collect())
    }

    /// Whether `s` denotes a set known to be non-empty and infinite from
    /// its syntax alone (`INTEGER`, `POW(NATURAL)`, `INTEGER <-> BOOL`...),
    /// so that `s <: {}` is false without enumerating it.
    fn infinite_nonempty(s: &Expr) -> bool {
        match &s.kind {
            ExprKind::Named(
                NamedSet::Natural | NamedSet::Natural1 | NamedSet::Integer | NamedSet::String,
            ) => true,
            ExprKind::Call(Builtin::Seq, _) => true,
            ExprKind::Call(Builtin::Pow | Builtin::Fin, a) => Self::infinite_nonempty(&a[0]),
            // Every space between two infinite (countable) sets has a
            // member: the identity's image under a bijection of them.
            ExprKind::Bin(BinOp::Space(_), a, b) => {
                Self::infinite_nonempty(a) && Self::infinite_nonempty(b)
            }
            _ => false,
        }
    }

    /// `POW(S)`, `S --> T`, `struct(..)`... as a value (a set of sets,
    /// functions or records), symbolic beyond [`LARGE_SET`] elements.
    fn set_value(&mut self, e: &Expr) -> E<Value> {
        let els = self.elements(e)?;
        // kept symbolic by ProB: see `lazy_sets`
        self.symbolic |= els.len() > LARGE_SET;
        Ok(Value::set_sorted(els))
    }

    pub(crate) fn int(&mut self, e: &Expr) -> E<i64> {
        let x = self.eval(e)?;
        x.as_int().map_err(|m| self.type_error(m, e))
    }

    pub(crate) fn set(&mut self, e: &Expr) -> E<Arc<Vec<Value>>> {
        match self.eval(e)? {
            Value::Set(s) => Ok(s),
            v => Err(self.type_error(v.as_set().err().unwrap_or_default(), e)),
        }
    }

    /// A value of the wrong type (`msg` says which) for expression `e`: a
    /// model error naming `e` as written.
    fn type_error(&self, msg: String, e: &Expr) -> Fail {
        let text = crate::check_expr_text::text(e, &self.w.syms);
        Fail::Wd(format!("{msg}: `{text}`"), e.pos)
    }

    /// Solves `side = target` for `x`, `side` a `+`/`-` chain with one `x`.
    pub fn invert_lin(&mut self, side: &Expr, x: Sym, target: i64) -> E<Option<i64>> {
        self.invert_chain(
            side,
            x,
            target,
            &|e| matches!(e.kind, ExprKind::Ident(s) if s == x),
        )
    }

    /// [`Self::invert_lin`] for the value of the sub-expression `hole` picks
    /// (mentioning `x`, the only one that does) instead of `x` itself.
    pub fn invert_chain(
        &mut self,
        side: &Expr,
        x: Sym,
        target: i64,
        hole: &dyn Fn(&Expr) -> bool,
    ) -> E<Option<i64>> {
        if hole(side) {
            return Ok(Some(target));
        }
        match &side.kind {
            ExprKind::Bin(op @ (BinOp::Plus | BinOp::Minus), a, b) => {
                let mut ia = Vec::new();
                crate::solve::idents(a, &mut ia);
                let in_a = ia.contains(&x);
                let (inner, other) = if in_a { (a, b) } else { (b, a) };
                let o = self.int(other)?;
                let t = match (op, in_a) {
                    (BinOp::Plus, _) => target.checked_sub(o),
                    (_, true) => target.checked_add(o),
                    (_, false) => o.checked_sub(target),
                };
                match t {
                    Some(t) => self.invert_chain(inner, x, t, hole),
                    None => Err(overflow(side.pos)),
                }
            }
            _ => Ok(None),
        }
    }

    /// The value of expression `e` (a predicate gives a boolean).
    pub fn eval(&mut self, e: &Expr) -> E<Value> {
        use BinOp::*;
        let pos = e.pos;
        Ok(match &e.kind {
            ExprKind::Ident(s) => match self.closure_of(*s) {
                Some(d) => self.closure_value(&d, pos)?,
                None => self.lookup(*s, pos)?,
            },
            ExprKind::Int(n) => Value::Int(*n),
            ExprKind::Str(s) => Value::Str(s.as_str().into()),
            ExprKind::Bool(b) => Value::Bool(*b),
            ExprKind::EmptySet | ExprKind::EmptySeq => Value::empty(),
            ExprKind::Named(n) => match n {
                NamedSet::Nat => range(0, self.w.maxint, pos)?,
                NamedSet::Nat1 => range(1, self.w.maxint, pos)?,
                NamedSet::Int => range(self.w.minint, self.w.maxint, pos)?,
                NamedSet::Bool => Value::set_sorted(vec![Value::Bool(false), Value::Bool(true)]),
                NamedSet::MaxInt => Value::Int(self.w.maxint),
                NamedSet::MinInt => Value::Int(self.w.minint),
                _ => {
                    return Err(Fail::Unsupported(
                        "an infinite set used as a value".into(),
                        pos,
                    ))
                }
            },
            ExprKind::SetExt(xs) => {
                let mut out = Vec::with_capacity(xs.len());
                for x in xs {
                    out.push(self.eval(x)?);
                }
                Value::set(out)
            }
            ExprKind::SeqExt(xs) => {
                let mut out = Vec::with_capacity(xs.len());
                for x in xs {
                    out.push(self.eval(x)?);
                }
                v::seq_of(out)
            }
            ExprKind::Neg(a) => {
                Value::Int(self.int(a)?.checked_neg().ok_or_else(|| overflow(pos))?)
            }
            ExprKind::Inverse(a) => {
                let s = self.set(a)?;
                wd(crate::fast_inverse::inverse(&s), pos)?
            }
            ExprKind::Apply(f, x) => {
                if let Some(r) = self.lambda_in_place(f, x, pos) {
                    return r;
                }
                if let Some(d) = crate::symbolic::named(f).and_then(|s| self.closure_of(s)) {
                    let xv = self.eval(x)?;
                    return self.closure_apply(&d, xv, pos);
                }
                if let ExprKind::Call(b @ (Builtin::Prj1 | Builtin::Prj2), sets) = &f.kind {
                    let xv = self.eval(x)?;
                    return self.projection(*b, sets, xv, pos);
                }
                let fv = self.set(f)?;
                let xv = self.eval(x)?;
                wd(v::apply(&fv, &xv), pos)?
            }
            ExprKind::Image(r, s) => {
                if let Some(v) = self.filtered(e) {
                    return v;
                }
                if let Some(v) = self.symbolic_image(r, s, pos) {
                    return v;
                }
                if let ExprKind::Call(Builtin::Closure, a) = &r.kind {
                    // closure(a) = id(T) \/ closure1(a), T the type of `s`'s elements
                    let (av, sv) = (self.set(&a[0])?, self.set(s)?);
                    return wd(crate::fast_closure::reflexive_image(&av, &sv), pos);
                }
                let rv = self.set(r)?;
                if let ExprKind::SetExt(xs) = &s.kind {
                    if let [x] = xs.as_slice() {
                        // `r[{x}]` without building `{x}`
                        let xv = self.eval(x)?;
                        return wd(v::image_of(&rv, &xv), pos);
                    }
                }
                let sv = self.set(s)?;
                wd(v::image(&rv, &sv), pos)?
            }
            ExprKind::Field(r, f) => {
                let rv = self.eval(r)?;
                let name = self.w.syms.name(*f);
                match &rv {
                    Value::Rec(fs) => match fs.iter().find(|(n, _)| &**n == name) {
                        Some((_, x)) => x.clone(),
                        None => return Err(Fail::Wd(format!("record has no field {name}"), pos)),
                    },
                    _ => return Err(Fail::Wd("field access on a non-record".into(), pos)),
                }
            }
            ExprKind::Rec(fs) => {
                let mut out: Vec<(Arc<str>, Value)> = Vec::with_capacity(fs.len());
                for (f, x) in fs {
                    out.push((Arc::from(self.w.syms.name(*f)), self.eval(x)?));
                }
                out.sort_by(|a, b| a.0.cmp(&b.0));
                Value::Rec(Arc::new(out))
            }
            ExprKind::Struct(_) => self.set_value(e)?,
            ExprKind::Call(
                Builtin::Pow
                | Builtin::Pow1
                | Builtin::Fin
                | Builtin::Fin1
                | Builtin::Iseq
                | Builtin::Iseq1
                | Builtin::Perm,
                _,
            ) => self.set_value(e)?,
            ExprKind::Call(Builtin::IfThenElse, args) => match args.as_slice() {
                [c, a, b] => {
                    let chosen = if self.holds(c)? { a } else { b };
                    self.eval(chosen)?
                }
                _ => return Err(Fail::Unsupported("a malformed IF expression".into(), pos)),
            },
            ExprKind::Call(b, args) => self.builtin(*b, args, pos)?,
            ExprKind::Quant {
                kind,
                ids,
                pred,
                body,
                plan,
            } => match kind {
                QuantKind::Forall | QuantKind::Exists => Value::Bool(self.holds(e)?),
                _ => {
                    let p = self.plan_of(plan, ids, pred)?;
                    let mut out: Vec<Value> = Vec::new();
                    let mut acc: Option<Value> = None;
                    let mut united = v::Union::default();
                    let kind = *kind;
                    solve(ids, pred, p, self, false, &mut |env| {
                        match kind {
                            QuantKind::Comprehension => out.push(tuple(ids, env)),
                            QuantKind::Union => {
                                united.add(&env.set(body.as_ref().expect("body"))?);
                            }
                            QuantKind::Lambda => {
                                let t = tuple(ids, env);
                                let y = env.eval(body.as_ref().expect("lambda body"))?;
                                out.push(Value::pair(t, y));
                            }
                            QuantKind::Sigma | QuantKind::Pi => {
                                let y = env.int(body.as_ref().expect("body"))?;
                                let cur = match &acc {
                                    Some(Value::Int(c)) => *c,
                                    _ => i64::from(kind == QuantKind::Pi),
                                };
                                let r = if kind == QuantKind::Sigma {
                                    cur.checked_add(y)
                                } else {
                                    cur.checked_mul(y)
                                };
                                acc = Some(Value::Int(r.ok_or_else(|| overflow(pos))?));
                            }
                            _ => {
                                let y = env.set(body.as_ref().expect("body"))?;
                                acc = Some(match acc.take() {
                                    None => Value::Set(y),
                                    Some(Value::Set(c)) => v::inter(&c, &y),
                                    Some(other) => other,
                                });
                            }
                        }
                        Ok(true)
                    })
                    .map_err(|f| quantified(f, e, self.w.try_find_abort))?;
                    self.symbolic |= out.len() > LARGE_SET;
                    if out.len() > LARGE_VALUE {
                        return Err(Fail::Unsupported(
                            format!("a set of {} elements built by comprehension", out.len()),
                            pos,
                        ));
                    }
                    match kind {
                        QuantKind::Comprehension | QuantKind::Lambda => Value::set(out),
                        QuantKind::Sigma => acc.unwrap_or(Value::Int(0)),
                        QuantKind::Pi => acc.unwrap_or(Value::Int(1)),
                        QuantKind::Union => united.value(),
                        _ => match acc {
                            Some(a) => a,
                            None => {
                                return Err(Fail::Wd("INTER over an empty index set".into(), pos))
                            }
                        },
                    }
                }
            },
            ExprKind::Bin(op, a, b) => match op {
                And | Or | Implies | Equiv | Eq | Neq | In | NotIn | Subset | StrictSubset
                | NotSubset | NotStrictSubset | Lt | Gt | Le | Ge => Value::Bool(self.holds(e)?),
                Plus | Div | Mod | Power | PowerNat => {
                    let x = self.int(a)?;
                    let y = self.int(b)?;
                    Value::Int(match op {
                        Plus => x.checked_add(y).ok_or_else(|| overflow(pos))?,
                        Div => {
                            if y == 0 {
                                return Err(Fail::Wd("division by zero".into(), pos));
                            }
                            x.checked_div(y).ok_or_else(|| overflow(pos))?
                        }
                        Mod => {
                            if y <= 0 {
                                return Err(Fail::Wd(
                                    "modulo by a non-positive number".into(),
                                    pos,
                                ));
                            }
                            if x < 0 {
                                return Err(Fail::Wd("modulo of a negative number".into(), pos));
                            }
                            x % y
                        }
                        _ => {
                            if y < 0 {
                                return Err(Fail::Wd("negative exponent".into(), pos));
                            }
                            if *op == PowerNat && x < 0 {
                                return Err(Fail::Wd("power of a negative number".into(), pos));
                            }
                            let y = u32::try_from(y).map_err(|_| overflow(pos))?;
                            x.checked_pow(y).ok_or_else(|| overflow(pos))?
                        }
                    })
                }
                Minus | Mul => {
                    if let Some(v) = self.filtered(e) {
                        return v;
                    }
                    let x = self.eval(a)?;
                    let y = self.eval(b)?;
                    match (&x, &y, op) {
                        (Value::Int(x), Value::Int(y), Minus) => {
                            Value::Int(x.checked_sub(*y).ok_or_else(|| overflow(pos))?)
                        }
                        (Value::Int(x), Value::Int(y), _) => {
                            Value::Int(x.checked_mul(*y).ok_or_else(|| overflow(pos))?)
                        }
                        (Value::Set(x), Value::Set(y), Minus) => v::diff(x, y),
                        (Value::Set(x), Value::Set(y), _) => {
                            if x.len().saturating_mul(y.len()) > ENUM_LIMIT {
                                return Err(Fail::Unsupported(
                                    "a cartesian product too large".into(),
                                    pos,
                                ));
                            }
                            v::cartesian(x, y)
                        }
                        _ => return Err(Fail::Wd("operands of different types".into(), pos)),
                    }
                }
                Interval => {
                    let x = self.int(a)?;
                    let y = self.int(b)?;
                    let r = range(x, y, pos)?;
                    self.symbolic |= r.as_set().is_ok_and(|s| s.len() > LARGE_SET);
                    r
                }
                Maplet => Value::pair(self.eval(a)?, self.eval(b)?),
                Union | Inter | Override | DirectProduct | DomRes | DomSub | RanRes | RanSub
                | Compose | ParProduct => {
                    if let Some(v) = self.filtered(e) {
                        return v;
                    }
                    let x = self.set(a)?;
                    let y = self.set(b)?;
                    match op {
                        Union => v::union(&x, &y),
                        Inter => v::inter(&x, &y),
                        Override => wd(v::override_(&x, &y), pos)?,
                        DirectProduct => wd(v::direct_product(&x, &y), pos)?,
                        DomRes => wd(v::dom_restrict(&x, &y, true), pos)?,
                        DomSub => wd(v::dom_restrict(&x, &y, false), pos)?,
                        RanRes => wd(v::ran_restrict(&x, &y, true), pos)?,
                        RanSub => wd(v::ran_restrict(&x, &y, false), pos)?,
                        Compose => wd(v::compose(&x, &y), pos)?,
                        _ => wd(v::parallel_product(&x, &y), pos)?,
                    }
                }
                Concat => match self.eval(a)? {
                    // ProB's `^` of two strings: their concatenation
                    Value::Str(s) => match self.eval(b)? {
                        Value::Str(t) => Value::Str(format!("{s}{t}").into()),
                        _ => return Err(Fail::Wd("^ of a string and a sequence".into(), pos)),
                    },
                    l => {
                        let mut x = wd(v::as_seq(&l), pos)?;
                        x.extend(wd(v::as_seq(&self.eval(b)?), pos)?);
                        v::seq_of(x)
                    }
                },
                Prepend => {
                    let x = self.eval(a)?;
                    let mut s = vec![x];
                    s.extend(wd(v::as_seq(&self.eval(b)?), pos)?);
                    v::seq_of(s)
                }
                Append => {
                    let mut s = wd(v::as_seq(&self.eval(a)?), pos)?;
                    s.push(self.eval(b)?);
                    v::seq_of(s)
                }
                TakeFirst | DropFirst => {
                    let s = wd(v::as_seq(&self.eval(a)?), pos)?;
                    let n = self.int(b)?;
                    if n < 0 || n as usize > s.len() {
                        return Err(Fail::Wd("sequence restriction out of range".into(), pos));
                    }
                    let n = n as usize;
                    if *op == TakeFirst {
                        v::seq_of(s[..n].to_vec())
                    } else {
                        v::seq_of(s[n..].to_vec())
                    }
                }
                Space(_) => self.set_value(e)?,
            },
        })
    }

    fn builtin(&mut self, b: Builtin, args: &[Expr], pos: Pos) -> E<Value> {
        use Builtin::*;
        if let External(x) = b {
            return self.external(x, args, pos);
        }
        if let Theory(k) = b {
            return crate::eventb_calls::apply(self, k, args, pos);
        }
        let arity = match b {
            Iterate | Prj1 | Prj2 => 2,
            _ => 1,
        };
        if args.len() != arity {
            return Err(Fail::Unsupported(
                format!("{b:?} with {} arguments", args.len()),
                pos,
            ));
        }
        let a = &args[0];
        Ok(match b {
            Bool => Value::Bool(self.holds(a)?),
            Not => Value::Bool(!self.holds(a)?),
            Card => Value::Int(self.card_of(a)?),
            Dom => wd(v::dom(&self.set(a)?), pos)?,
            Ran => wd(v::ran(&self.set(a)?), pos)?,
            Pow | Pow1 | Fin | Fin1 | Iseq | Iseq1 | Perm | IfThenElse | External(_) => {
                unreachable!("handled by eval")
            }
            Seq | Seq1 => {
                return Err(Fail::Unsupported(
                    "seq(S) used as a value (infinite)".into(),
                    pos,
                ))
            }
            GenUnion | GenInter => {
                let s = self.set(a)?;
                let mut acc: Option<Value> = None;
                for x in s.iter() {
                    let xs = wd(x.as_set(), pos)?;
                    acc = Some(match acc {
                        None => Value::set_sorted(xs.to_vec()),
                        Some(c) => {
                            let c = c.as_set().expect("set").to_vec();
                            if b == GenUnion {
                                v::union(&c, xs)
                            } else {
                                v::inter(&c, xs)
                            }
                        }
                    });
                }
                match acc {
                    Some(x) => x,
                    None if b == GenUnion => Value::empty(),
                    None => return Err(Fail::Wd("inter of an empty set".into(), pos)),
                }
            }
            Max | Min => {
                let s = self.set(a)?;
                let x = if b == Max { s.last() } else { s.first() };
                match x {
                    Some(x) => x.clone(),
                    None => {
                        return Err(Fail::Wd(
                            format!("{} of the empty set", if b == Max { "max" } else { "min" }),
                            pos,
                        ))
                    }
                }
            }
            Single => match &self.set(a)?[..] {
                [x] => x.clone(),
                xs => {
                    return Err(Fail::Wd(
                        format!("LET expression with {} values", xs.len()),
                        pos,
                    ))
                }
            },
            Size => Value::Int(wd(v::as_seq(&self.eval(a)?), pos)?.len() as i64),
            First | Last | Front | Tail => {
                let s = wd(v::as_seq(&self.eval(a)?), pos)?;
                if s.is_empty() {
                    return Err(Fail::Wd(
                        format!("{b:?} of the empty sequence").to_lowercase(),
                        pos,
                    ));
                }
                match b {
                    First => s[0].clone(),
                    Last => s[s.len() - 1].clone(),
                    Front => v::seq_of(s[..s.len() - 1].to_vec()),
                    _ => v::seq_of(s[1..].to_vec()),
                }
            }
            Rev => {
                let mut s = wd(v::as_seq(&self.eval(a)?), pos)?;
                s.reverse();
                v::seq_of(s)
            }
            Conc => {
                let ss = wd(v::as_seq(&self.eval(a)?), pos)?;
                let mut out = Vec::new();
                for s in ss {
                    out.extend(wd(v::as_seq(&s), pos)?);
                }
                v::seq_of(out)
            }
            Id => {
                let s = self.set(a)?;
                Value::set_sorted(
                    s.iter()
                        .map(|x| Value::pair(x.clone(), x.clone()))
                        .collect(),
                )
            }
            Prj1 | Prj2 => {
                let x = self.set(a)?;
                let y = self.set(&args[1])?;
                let prod = v::cartesian(&x, &y);
                Value::set(
                    prod.as_set()
                        .expect("set")
                        .iter()
                        .map(|p| {
                            let (l, r) = p.as_pair().expect("pair");
                            Value::pair(p.clone(), if b == Prj1 { l.clone() } else { r.clone() })
                        })
                        .collect(),
                )
            }
            Closure1 => wd(crate::fast_closure::closure1(&self.set(a)?), pos)?,
            Closure => {
                return Err(Fail::Unsupported(
                    "closure (reflexive, over the whole type)".into(),
                    pos,
                ))
            }
            Iterate => {
                let r = self.set(a)?;
                let n = self.int(&args[1])?;
                if n < 1 {
                    return Err(Fail::Unsupported(
                        "iterate(r, 0) (identity over the whole type)".into(),
                        pos,
                    ));
                }
                let mut cur = Value::Set(r.clone());
                for _ in 1..n {
                    cur = wd(v::compose(wd(cur.as_set(), pos)?, &r), pos)?;
                }
                cur
            }
            Fnc | Rel | Succ | Pred | Theory(_) => {
                return Err(Fail::Unsupported(format!("{b:?}").to_lowercase(), pos))
            }
        })
    }
}

/// Largest set of sets, functions or records built as a value (`POW`,
/// `-->`, `struct`...), and largest set a machine *variable* may get from
/// an evaluation where a larger interval, comprehension or constant took
/// part (see [`Env::symbolic`]): ProB keeps larger intervals, comprehensions and such
/// sets symbolic, and one set reached once symbolic, once explicit is two
/// ProB states (TestBZTT_Data's `xx \/ yy`, EnumerateFunctionTests2's
/// `ID <-> ID` over `1..4`), so counts of states holding them in
/// variables are not reproducible.
pub(crate) const LARGE_SET: usize = 5_000;

/// Largest set built from an interval or a comprehension. Beyond
/// [`LARGE_SET`] elements such a set is only kept in constants and local
/// computations (a constant's representation in ProB never changes, so
/// its states are ProB's).
const LARGE_VALUE: usize = 1 << 21;

fn range(lo: i64, hi: i64, pos: Pos) -> E<Value> {
    if hi >= lo && (hi - lo) as u64 >= LARGE_VALUE as u64 {
        return Err(Fail::Unsupported(
            format!("the interval {lo}..{hi} as a value (over {LARGE_VALUE} elements)"),
            pos,
        ));
    }
    Ok(Value::set_sorted((lo..=hi).map(Value::Int).collect()))
}

/// The value of the bound identifiers `ids` as a (left-nested) tuple.
fn tuple(ids: &[Sym], env: &Env) -> Value {
    let get = |s: Sym| env.local(s).cloned().expect("bound");
    let mut t = get(ids[0]);
    for &s in &ids[1..] {
        t = Value::pair(t, get(s));
    }
    t
}

/// Binds `ids` to the components of tuple `x`; false if the shape differs.
pub fn bind_tuple(ids: &[Sym], x: Value, locals: &mut Vec<(Sym, Value)>) -> bool {
    if ids.len() == 1 {
        locals.push((ids[0], x));
        return true;
    }
    match x {
        Value::Pair(p) => {
            let (a, b) = (*p).clone();
            locals.push((ids[ids.len() - 1], b));
            bind_tuple(&ids[..ids.len() - 1], a, locals)
        }
        _ => false,
    }
}

impl Env<'_> {
    /// A call of one of ProB's external functions (see [`External`]).
    fn external(&mut self, x: External, args: &[Expr], pos: Pos) -> E<Value> {
        match x {
            External::Determined => return determined(args, pos),
            External::Optimize(s) => return Err(crate::library_optimize::misplaced(s, pos)),
            _ => {}
        }
        let vals = args
            .iter()
            .map(|a| self.eval(a))
            .collect::<E<Vec<Value>>>()?;
        let text = |v: &Value| match v {
            Value::Str(s) => Ok(s.to_string()),
            _ => Err(Fail::Wd("expected a string".into(), pos)),
        };
        let assert = |b: &Value, msg: &Value| -> E<()> {
            match wd(b.as_bool(), pos)? {
                true => Ok(()),
                false => Err(Fail::Wd(format!("{x:?} failed: {}", text(msg)?), pos)),
            }
        };
        let arity_error =
            || Fail::Unsupported(format!("external {x:?} with {} arguments", vals.len()), pos);
        match (x, vals.as_slice()) {
            (External::Choose, [s]) => choose(wd(s.as_set(), pos)?, pos),
            (External::AssertTrue, [b, msg]) => assert(b, msg).map(|()| Value::Bool(true)),
            (External::AssertExpr, [b, msg, v]) => assert(b, msg).map(|()| v.clone()),
            (External::Printed, [_, ..]) => Ok(Value::Bool(true)),
            (External::ValuePrinted, [.., v]) => Ok(v.clone()),
            (External::StringLength, [s]) => Ok(Value::Int(text(s)?.chars().count() as i64)),
            (External::StringAppend, [a, b]) => Ok(Value::Str((text(a)? + &text(b)?).into())),
            (External::StringChars, [s]) => Ok(crate::value::seq_of(
                text(s)?
                    .chars()
                    .map(|c| Value::Str(c.to_string().into()))
                    .collect(),
            )),
            (External::NoEnumeration, [_]) => Ok(Value::Bool(true)),
            (External::StringIsInt, [s]) => {
                Ok(Value::Bool(crate::library_strings::is_int(&text(s)?)))
            }
            (External::Argv, [n]) => crate::errors_argv::argv(n, pos),
            (External::Bits(op), ints) if ints.len() == op.arity() => {
                let ints = ints
                    .iter()
                    .map(|v| wd(v.as_int(), pos))
                    .collect::<E<Vec<i64>>>()?;
                op.apply(&ints).map(Value::Int).ok_or_else(|| {
                    let what = format!("{op:?} of {ints:?} (beyond 64 bits or a negative shift)");
                    Fail::Unsupported(what, pos)
                })
            }
            (External::Unmodelled, [what, ..]) => Err(crate::errors_provisional::unmodelled(
                format!("{} (ProB built-in library)", text(what)?),
                pos,
            )),
            (External::Scaled(f), [m, x]) => f.apply(m, x, pos),
            _ => Err(arity_error()),
        }
    }
}

/// `IS_EVALUATED(e)` / `IS_DETERMINED(e)`: true for an `e` without
/// identifiers (a literal, known to ProB's solver from the start); for
/// others the answer depends on when ProB's solver reaches the call.
fn determined(args: &[Expr], pos: Pos) -> E<Value> {
    let mut ids = Vec::new();
    args.iter().for_each(|a| crate::solve::idents(a, &mut ids));
    match (args.len(), ids.is_empty()) {
        (1, true) => Ok(Value::Bool(true)),
        _ => Err(Fail::Unsupported(
            "IS_EVALUATED/IS_DETERMINED of an expression with identifiers (the answer \
             depends on the order of ProB's constraint solver)"
                .into(),
            pos,
        )),
    }
}

/// ProB's `CHOOSE`: the least element of a non-empty set, for elements
/// whose order in ProB (integers by value, enumerated and deferred
/// elements by their index, booleans FALSE before TRUE, pairs of those
/// lexicographically) is the order here; others are unsupported.
fn choose(s: &[Value], pos: Pos) -> E<Value> {
    fn ordered_as_prob(v: &Value) -> bool {
        match v {
            Value::Int(_) | Value::Elem(..) | Value::Bool(_) => true,
            Value::Pair(p) => ordered_as_prob(&p.0) && ordered_as_prob(&p.1),
            _ => false,
        }
    }
    match s.first() {
        None => Err(Fail::Wd("CHOOSE applied to the empty set".into(), pos)),
        Some(v) if ordered_as_prob(v) => Ok(v.clone()),
        Some(_) => Err(Fail::Unsupported(
            "CHOOSE of a set of strings, sets or records (ProB's order of them not modelled)"
                .into(),
            pos,
        )),
    }
}
