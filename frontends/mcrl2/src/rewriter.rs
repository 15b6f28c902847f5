//! The rewriter: evaluates a compiled [`Term`] under an environment to its
//! normal form ([`Value`]), with mCRL2's meaning of the standard data types
//! and the specification's rewrite rules for user maps.
//!
//! Strategy (documented against mCRL2's jitty rewriter, the reference):
//! - `if`, `&&`, `||`, `=>` are lazy: the condition (left operand) first,
//!   then only the branch that matters, as jitty's strategy for them does;
//!   a condition without a normal form is decided by the other operands
//!   where jitty's rules decide it (`x && false = false`,
//!   `x || true = true`, `x => true = true`, `if(c, y, y) = y`) and stays
//!   without one otherwise;
//! - everything else is innermost: the arguments of a constructor, a
//!   built-in or a user map are normalised first, then the map's rules are
//!   tried **in declaration order**; the first whose constructor patterns
//!   match (repeated variables must be equal) and whose condition
//!   rewrites to `true` fires, and its right-hand side is normalised;
//! - an argument of a user map that has no normal form (`head([])`,
//!   `Int2Nat(-1)`, a map no rule applies to...) is passed on as
//!   [`Value::Undefined`]: a rule whose pattern there is a variable may
//!   never use it (the case functions `C3_(e, x, y, z)` that `mcrl22lps`
//!   generates select one argument; jitty never rewrites the others). Any
//!   operation that needs its value fails with its message;
//! - a call of a case function (`Cn_(e, x1, ..., xn)`, see `cases`) whose
//!   selector evaluates to a constructor with a selecting rule evaluates
//!   only the selector and the selected argument (jitty's result, and the
//!   innermost one: the other arguments could only have been dropped);
//! - a user map with no applicable rule is a function value when it still
//!   expects argument groups (curried maps, `f: A -> B -> C`); a map with
//!   no rules at all is an uninterpreted symbol whose applications are
//!   normal forms; a built-in of the same name is tried next; otherwise
//!   the term has no normal form here (mCRL2 keeps it unrewritten): the
//!   messages of such terms start with [`STUCK`], and the model decides
//!   whether that is an error (the default) or a value to store (see
//!   `Mcrl2Model::keep_stuck_terms`). Integer overflow beyond 128 bits and
//!   operations this front-end does not implement are always errors.
//!
//! Owns evaluation only; it must not know summands or states.

use std::sync::Arc;

use crate::cases::{case_table, CaseTable};
use crate::compile::Names;
use crate::sorts::{Sort, SortTable};
use crate::term::{Builtin, LambdaCode, MapInfo, Pattern, Term};
use crate::value::{self, overflow, CtorId, FuncBase, FuncValue, SetValue, Value};

/// How deep user-map calls may nest before evaluation gives up (an
/// unbounded recursion in the specification, or a very long list).
pub const MAX_DEPTH: usize = 2000;

/// Evaluation result: a normal form or a message naming what failed.
pub type Eval = Result<Value, String>;

/// The prefix of messages about terms without a constructor normal form.
pub const STUCK: &str = "no rewrite rule applies to ";

/// Whether an evaluation error is about a term without a constructor
/// normal form (rather than a limit of this front-end).
pub fn is_stuck(message: &str) -> bool {
    message.starts_with(STUCK)
}

/// The message for a term that has no constructor normal form (mCRL2
/// keeps such a term as it is: it is its own normal form).
pub fn stuck(term: &str) -> String {
    format!("{STUCK}{term}")
}

/// `v` itself, or its message when it is [`Value::Undefined`].
pub fn defined(v: Value) -> Eval {
    match v {
        Value::Undefined(m) => Err(m.to_string()),
        v => Ok(v),
    }
}

fn defined_all(vs: Vec<Value>) -> Result<Vec<Value>, String> {
    if let Some(Value::Undefined(m)) = vs.iter().find(|v| matches!(v, Value::Undefined(_))) {
        return Err(m.to_string());
    }
    Ok(vs)
}

/// The value of `t` when it is a variable or a constant, read in place.
fn in_place<'v>(t: &'v Term, env: &'v [Value]) -> Option<&'v Value> {
    match t {
        Term::Var(s) => Some(&env[*s as usize]),
        Term::Const(v) => Some(v),
        _ => None,
    }
}

/// Whether `x` and `y` are both variables or constants with values.
fn defined_in_place(x: &Term, y: &Term, env: &[Value]) -> bool {
    [x, y]
        .iter()
        .all(|t| in_place(t, env).is_some_and(|v| !matches!(v, Value::Undefined(_))))
}

/// The constructor and arguments of variable `t`'s value, when it is one.
fn ctor_var<'v>(t: &Term, env: &'v [Value]) -> Option<(CtorId, &'v [Value])> {
    match t {
        Term::Var(s) => match &env[*s as usize] {
            Value::Ctor(d, args) => Some((*d, args)),
            _ => None,
        },
        _ => None,
    }
}

/// The argument a projection (`which`: constructor, position) selects in
/// variable `t`'s value, when it has that constructor.
fn projected<'v>(which: &[(CtorId, usize)], t: &Term, env: &'v [Value]) -> Option<&'v Value> {
    let (d, args) = ctor_var(t, env)?;
    let (_, i) = which.iter().find(|(c, _)| *c == d)?;
    args.get(*i)
}

/// Whether the first argument that a rule's left-hand side does not match
/// with a plain variable is a constructor (or closed value) other than the
/// pattern's: the rule cannot apply, and trying it would only fail there
/// (the variables before it never fail with an error), so it is skipped
/// without building its environment.
fn refuted_at_once(lhs: &[Vec<Pattern>], groups: &[Vec<Value>]) -> bool {
    let pairs = lhs
        .iter()
        .zip(groups)
        .flat_map(|(ps, vs)| ps.iter().zip(vs));
    for (p, v) in pairs {
        return match (p, v) {
            (Pattern::Bind(..) | Pattern::Same(_), _) => continue,
            (_, Value::Undefined(_)) => false,
            (Pattern::Ctor(c, _), Value::Ctor(d, _)) => c != d,
            (Pattern::Lit(l), v) => l != v,
            _ => false,
        };
    }
    false
}

/// The data specification, compiled: everything evaluation needs.
pub struct Rewriter {
    pub sorts: SortTable,
    pub maps: Vec<MapInfo>,
    pub lambdas: Vec<Arc<LambdaCode>>,
    /// Per map, its selection table when it is a case function.
    cases: Vec<Option<CaseTable>>,
}

fn placeholder() -> Value {
    Value::Bool(false)
}

fn as_bool(v: &Value, what: &str) -> Result<bool, String> {
    match v {
        Value::Bool(b) => Ok(*b),
        Value::Undefined(m) => Err(m.to_string()),
        other => Err(format!("{what}: expected a Bool, got {other:?}")),
    }
}

fn as_int(v: &Value, what: &str) -> Result<i128, String> {
    match v {
        Value::Int(n) => Ok(*n),
        Value::Undefined(m) => Err(m.to_string()),
        other => Err(format!("{what}: expected a number, got {other:?}")),
    }
}

impl Rewriter {
    pub fn from_names(names: Names) -> Rewriter {
        Rewriter::new(names.sorts, names.maps, names.lambdas)
    }

    pub fn new(sorts: SortTable, maps: Vec<MapInfo>, lambdas: Vec<Arc<LambdaCode>>) -> Rewriter {
        let cases = maps.iter().map(case_table).collect();
        Rewriter {
            sorts,
            maps,
            lambdas,
            cases,
        }
    }

    /// Whether map `m` is a case function (see `cases`).
    pub fn is_case_function(&self, m: u32) -> bool {
        self.cases[m as usize].is_some()
    }

    /// When map `m` is a case function and its selector `args[0]`
    /// evaluates to a constructor with a selecting rule: the position of
    /// the argument the call equals (see `cases`).
    pub fn selected_argument(
        &self,
        m: u32,
        args: &[Term],
        env: &mut [Value],
        depth: usize,
    ) -> Option<usize> {
        let table = self.cases[m as usize].as_ref()?;
        if args.len() != table.arity {
            return None;
        }
        let Ok(Value::Ctor(c, _)) = self.eval(&args[0], env, depth) else {
            return None;
        };
        table.select(c)
    }

    /// A call of a case function whose selector evaluates to a constructor
    /// with a selecting rule: the selected argument alone, evaluated (a
    /// failure is an undefined value, as for any user-map argument).
    /// `None`: not such a call; the ordinary strategy applies.
    fn select_case(&self, m: u32, args: &[Term], env: &mut [Value], depth: usize) -> Option<Eval> {
        if depth > MAX_DEPTH {
            return None;
        }
        let j = self.selected_argument(m, args, env, depth)?;
        Some(Ok(match self.eval(&args[j], env, depth) {
            Ok(v) => v,
            Err(e) => Value::Undefined(Arc::from(e.as_str())),
        }))
    }

    /// A printable form of a value (constructor names, numbers, lists...).
    pub fn show(&self, v: &Value) -> String {
        match v {
            Value::Undefined(m) => format!("<undefined: {m}>"),
            Value::Bool(b) => b.to_string(),
            Value::Int(n) => n.to_string(),
            Value::Frac(n, d) => format!("{n}/{d}"),
            Value::Ctor(c, args) => {
                let name = &self.sorts.ctors[*c as usize].name;
                if args.is_empty() {
                    name.clone()
                } else {
                    let a: Vec<_> = args.iter().map(|x| self.show(x)).collect();
                    format!("{name}({})", a.join(", "))
                }
            }
            Value::List(items) => {
                let a: Vec<_> = items.iter().map(|x| self.show(x)).collect();
                format!("[{}]", a.join(", "))
            }
            Value::Set(s) => {
                let a: Vec<_> = s.finite.iter().map(|x| self.show(x)).collect();
                match &s.pred {
                    None => format!("{{{}}}", a.join(", ")),
                    Some(p) => format!("@set({}, {{{}}})", self.show(p), a.join(", ")),
                }
            }
            Value::Bag(items) => {
                let a: Vec<_> = items
                    .iter()
                    .map(|(x, n)| format!("{}: {n}", self.show(x)))
                    .collect();
                format!("{{{}}}", a.join(", "))
            }
            Value::Func(f) => {
                let mut s = match &f.base {
                    FuncBase::Map(m, groups) => {
                        let mut s = self.maps[*m as usize].name.clone();
                        for g in groups {
                            let a: Vec<_> = g.iter().map(|x| self.show(x)).collect();
                            s.push_str(&format!("({})", a.join(", ")));
                        }
                        s
                    }
                    FuncBase::Lambda(id, caps) => {
                        let a: Vec<_> = caps.iter().map(|x| self.show(x)).collect();
                        format!("lambda#{id}[{}]", a.join(", "))
                    }
                    FuncBase::Const(v) => format!("lambda _. {}", self.show(v)),
                    FuncBase::Ctor(c) => self.sorts.ctors[*c as usize].name.clone(),
                };
                for (x, v) in &f.updates {
                    s.push_str(&format!("[{} -> {}]", self.show(x), self.show(v)));
                }
                s
            }
        }
    }

    /// Evaluates `t` in `env` (slots of the current frame).
    pub fn eval(&self, t: &Term, env: &mut [Value], depth: usize) -> Eval {
        match t {
            Term::Var(s) => Ok(env[*s as usize].clone()),
            Term::Const(v) => Ok(v.clone()),
            Term::Ctor(c, args) => {
                let vals = defined_all(self.eval_all(args, env, depth)?)?;
                Ok(Value::Ctor(*c, Arc::from(vals)))
            }
            Term::Call(m, args, fallback) => {
                if let Some(result) = self.select_case(*m, args, env, depth) {
                    return result;
                }
                // Arguments that fail stay as undefined terms: a rule whose
                // pattern is a variable there may never need them (jitty).
                let vals = args
                    .iter()
                    .map(|a| match self.eval(a, env, depth) {
                        Ok(v) => v,
                        Err(e) => Value::Undefined(Arc::from(e.as_str())),
                    })
                    .collect();
                self.call_map(*m, vec![vals], fallback.as_ref(), depth)
            }
            Term::Overloaded(m, proj, a) => {
                let v = self.eval(a, env, depth)?;
                if let Value::Ctor(d, args) = &v {
                    if let Some((_, i)) = proj.iter().find(|(c, _)| c == d) {
                        return Ok(args[*i].clone());
                    }
                }
                self.call_map(*m, vec![vec![v]], None, depth)
            }
            Term::MapRef(m) => self.call_map(*m, Vec::new(), None, depth),
            Term::Apply(f, args) => {
                let fv = defined(self.eval(f, env, depth)?)?;
                let vals = defined_all(self.eval_all(args, env, depth)?)?;
                self.apply(&fv, vals, depth)
            }
            Term::Builtin(b, args) => self.eval_builtin(*b, args, env, depth),
            Term::If(c, a, b) => match self.eval_bool(c, env, depth, "if") {
                Ok(true) => self.eval(a, env, depth),
                Ok(false) => self.eval(b, env, depth),
                // jitty's `if(c, x, x) = x`: a stuck condition is harmless
                // where both branches have the same normal form.
                Err(e) if is_stuck(&e) => {
                    let x = defined(self.eval(a, env, depth)?)?;
                    let y = defined(self.eval(b, env, depth)?)?;
                    if self.equal(&x, &y) {
                        Ok(x)
                    } else {
                        Err(e)
                    }
                }
                Err(e) => Err(e),
            },
            Term::And(a, b) => self.connective(a, b, env, depth, false),
            Term::Or(a, b) => self.connective(a, b, env, depth, true),
            Term::Implies(a, b) => match self.eval_bool(a, env, depth, "=>") {
                Ok(true) => self.eval(b, env, depth),
                Ok(false) => Ok(Value::Bool(true)),
                // `x => true = true`
                Err(e) if is_stuck(&e) => match self.eval_bool(b, env, depth, "=>") {
                    Ok(true) => Ok(Value::Bool(true)),
                    _ => Err(e),
                },
                Err(e) => Err(e),
            },
            Term::Update(f, x, v) => {
                let fv = defined(self.eval(f, env, depth)?)?;
                let xv = defined(self.eval(x, env, depth)?)?;
                let vv = defined(self.eval(v, env, depth)?)?;
                self.update(fv, xv, vv, depth)
            }
            Term::Lambda(id, caps) => {
                let vals = defined_all(self.eval_all(caps, env, depth)?)?;
                Ok(Value::Func(Arc::new(FuncValue {
                    base: FuncBase::Lambda(*id, vals),
                    updates: Vec::new(),
                })))
            }
            Term::Comprehension(id, caps, sort) => {
                let vals = defined_all(self.eval_all(caps, env, depth)?)?;
                let pred = Value::Func(Arc::new(FuncValue {
                    base: FuncBase::Lambda(*id, vals),
                    updates: Vec::new(),
                }));
                self.comprehension(pred, sort, depth)
            }
            Term::Quantifier { forall, vars, body } => {
                self.quantifier(*forall, vars, body, env, depth)
            }
            Term::Whr(body, defs) => {
                let mut vals = Vec::with_capacity(defs.len());
                for (_, d) in defs {
                    vals.push(self.eval(d, env, depth)?);
                }
                for ((slot, _), v) in defs.iter().zip(vals) {
                    env[*slot as usize] = v;
                }
                self.eval(body, env, depth)
            }
            Term::List(items) => Ok(Value::list(defined_all(self.eval_all(items, env, depth)?)?)),
            Term::Set(items) => Ok(Value::finite_set(defined_all(
                self.eval_all(items, env, depth)?,
            )?)),
            Term::Bag(items) => {
                let mut out = Vec::new();
                for (x, n) in items {
                    let xv = defined(self.eval(x, env, depth)?)?;
                    let nv = as_int(&self.eval(n, env, depth)?, "bag count")?;
                    if nv < 0 {
                        return Err(format!("negative count {nv} in a bag"));
                    }
                    out.push((xv, nv as u64));
                }
                Ok(Value::bag(out))
            }
            Term::Recogniser(..) | Term::Projection(..) => self.eval_selector(t, env, depth),
        }
    }

    /// A built-in applied to `args` (every built-in takes one or two
    /// arguments: evaluated without building a vector, in the same order
    /// and with the same messages).
    fn eval_builtin(&self, b: Builtin, args: &[Term], env: &mut [Value], depth: usize) -> Eval {
        match args {
            [x] => {
                let a = defined(self.eval(x, env, depth)?)?;
                self.builtin_on(b, a, None)
            }
            [x, y] if matches!(b, Builtin::Eq | Builtin::Neq) && defined_in_place(x, y, env) => {
                let (a, c) = (in_place(x, env), in_place(y, env));
                Ok(Value::Bool((a == c) == (b == Builtin::Eq)))
            }
            [x, y] => {
                let (a, c) = (self.eval(x, env, depth)?, self.eval(y, env, depth)?);
                self.builtin_on(b, defined(a)?, Some(defined(c)?))
            }
            _ => {
                let vals = defined_all(self.eval_all(args, env, depth)?)?;
                self.builtin(b, vals)
            }
        }
    }

    /// A recogniser or a projection (`t`); of a variable, it reads the
    /// value in place (no copy of the constructor term).
    fn eval_selector(&self, t: &Term, env: &mut [Value], depth: usize) -> Eval {
        match t {
            Term::Recogniser(cs, a) if ctor_var(a, env).is_some() => {
                let (d, _) = ctor_var(a, env).expect("checked");
                Ok(Value::Bool(cs.contains(&d)))
            }
            Term::Projection(_, which, a) if projected(which, a, env).is_some() => {
                Ok(projected(which, a, env).expect("checked").clone())
            }
            Term::Recogniser(cs, a) => match defined(self.eval(a, env, depth)?)? {
                Value::Ctor(d, _) => Ok(Value::Bool(cs.contains(&d))),
                other => Err(format!("recogniser applied to {}", self.show(&other))),
            },
            Term::Projection(name, which, a) => match defined(self.eval(a, env, depth)?)? {
                Value::Ctor(d, args) => match which.iter().find(|(c, _)| *c == d) {
                    Some((_, i)) => Ok(args[*i].clone()),
                    None => Err(stuck(&format!(
                        "{name}({})",
                        self.show(&Value::Ctor(d, args.clone()))
                    ))),
                },
                other => Err(format!(
                    "projection {name} applied to {}",
                    self.show(&other)
                )),
            },
            other => Err(format!("not a recogniser nor a projection: {other:?}")),
        }
    }

    /// Evaluates a Bool operand to its truth value.
    fn eval_bool(
        &self,
        t: &Term,
        env: &mut [Value],
        depth: usize,
        what: &str,
    ) -> Result<bool, String> {
        as_bool(&defined(self.eval(t, env, depth)?)?, what)
    }

    /// `a && b` (`short` = false) or `a || b` (`short` = true), left to
    /// right; a left operand without a normal form is decided by the right
    /// one where jitty's rules `x && false = false` and `x || true = true`
    /// decide it, and stays stuck otherwise.
    fn connective(&self, a: &Term, b: &Term, env: &mut [Value], depth: usize, short: bool) -> Eval {
        let what = if short { "||" } else { "&&" };
        match self.eval_bool(a, env, depth, what) {
            Ok(v) if v == short => Ok(Value::Bool(short)),
            Ok(_) => self.eval(b, env, depth),
            Err(e) if is_stuck(&e) => match self.eval_bool(b, env, depth, what) {
                Ok(v) if v == short => Ok(Value::Bool(short)),
                _ => Err(e),
            },
            Err(e) => Err(e),
        }
    }

    fn eval_all(&self, ts: &[Term], env: &mut [Value], depth: usize) -> Result<Vec<Value>, String> {
        ts.iter().map(|t| self.eval(t, env, depth)).collect()
    }

    /// Applies user map `m` to argument groups: the first matching rule,
    /// else a function value (more groups expected), else the built-in
    /// fallback, else an error.
    pub fn call_map(
        &self,
        m: u32,
        groups: Vec<Vec<Value>>,
        fallback: Option<&Builtin>,
        depth: usize,
    ) -> Eval {
        if depth > MAX_DEPTH {
            return Err(format!(
                "rewriting nests deeper than {MAX_DEPTH} calls (in {})",
                self.maps[m as usize].name
            ));
        }
        let info = &self.maps[m as usize];
        'rules: for rule in &info.rules {
            if rule.lhs.len() != groups.len()
                || rule
                    .lhs
                    .iter()
                    .zip(&groups)
                    .any(|(p, g)| p.len() != g.len())
            {
                continue;
            }
            if refuted_at_once(&rule.lhs, &groups) {
                continue;
            }
            let mut env = vec![placeholder(); rule.env_size];
            for (ps, vs) in rule.lhs.iter().zip(&groups) {
                for (p, v) in ps.iter().zip(vs) {
                    if !self.matches(p, v, &mut env)? {
                        continue 'rules;
                    }
                }
            }
            if let Some(c) = &rule.condition {
                match self.eval(c, &mut env, depth + 1) {
                    Ok(Value::Bool(true)) => {}
                    Ok(Value::Bool(false)) => continue,
                    Ok(other) => {
                        return Err(format!(
                            "{}: condition is not a Bool: {}",
                            rule.location,
                            self.show(&other)
                        ))
                    }
                    Err(e) => return Err(e),
                }
            }
            return self.eval(&rule.rhs, &mut env, depth + 1);
        }
        let expects_more = info
            .sorts
            .iter()
            .any(|s| SortTable::arrow_depth(s) > groups.len());
        if expects_more || info.rules.is_empty() {
            // A partial application, or a map without rules: an
            // uninterpreted constant or function, whose applications are
            // normal forms (mCRL2 leaves them as they are).
            let groups = groups
                .into_iter()
                .map(defined_all)
                .collect::<Result<Vec<_>, _>>()?;
            return Ok(Value::Func(Arc::new(FuncValue {
                base: FuncBase::Map(m, groups),
                updates: Vec::new(),
            })));
        }
        if let (Some(b), 1) = (fallback, groups.len()) {
            let args = defined_all(groups.into_iter().next().expect("one group"))?;
            return self.builtin(*b, args);
        }
        if let Some(Value::Undefined(e)) = groups
            .iter()
            .flatten()
            .find(|v| matches!(v, Value::Undefined(_)))
        {
            return Err(e.to_string());
        }
        let args: Vec<String> = groups
            .iter()
            .map(|g| {
                let a: Vec<_> = g.iter().map(|x| self.show(x)).collect();
                format!("({})", a.join(", "))
            })
            .collect();
        Err(stuck(&format!("{}{}", info.name, args.join(""))))
    }

    /// Matches a pattern. A value without normal form matches a variable;
    /// a repeated variable only when it is the very same term (so the
    /// case-function rule `C(e, x, x, x) = x` is skipped, as in jitty);
    /// against a constructor pattern it is an error (conservative: jitty
    /// would try the next rule, which this front-end does not risk).
    pub fn matches(&self, p: &Pattern, v: &Value, env: &mut [Value]) -> Result<bool, String> {
        if let (Value::Undefined(m), Pattern::Ctor(..) | Pattern::Lit(_) | Pattern::Cons(..)) =
            (v, p)
        {
            return Err(m.to_string());
        }
        if matches!(v, Value::Undefined(_)) && matches!(p, Pattern::Bind(_, Some(_))) {
            return Ok(false);
        }
        Ok(match p {
            Pattern::Bind(s, sort) => {
                if let Some(sort) = sort {
                    if !self.sorts.has_sort(v, sort) {
                        return Ok(false);
                    }
                }
                env[*s as usize] = v.clone();
                true
            }
            Pattern::Same(s) => env[*s as usize] == *v,
            Pattern::Lit(l) => l == v,
            Pattern::Ctor(c, ps) => match v {
                Value::Ctor(d, args) if d == c => {
                    for (p, a) in ps.iter().zip(args.iter()) {
                        if !self.matches(p, a, env)? {
                            return Ok(false);
                        }
                    }
                    true
                }
                _ => false,
            },
            Pattern::Cons(h, t) => match v {
                Value::List(items) if !items.is_empty() => {
                    let tail = Value::list(items[1..].to_vec());
                    self.matches(h, &items[0], env)? && self.matches(t, &tail, env)?
                }
                _ => false,
            },
        })
    }

    /// Applies a function value.
    pub fn apply(&self, f: &Value, args: Vec<Value>, depth: usize) -> Eval {
        let Value::Func(fv) = f else {
            return Err(format!("{} applied as a function", self.show(f)));
        };
        if args.len() == 1 {
            if let Ok(i) = fv.updates.binary_search_by(|(x, _)| x.cmp(&args[0])) {
                return Ok(fv.updates[i].1.clone());
            }
        }
        self.apply_base(&fv.base, args, depth)
    }

    fn apply_base(&self, base: &FuncBase, args: Vec<Value>, depth: usize) -> Eval {
        match base {
            FuncBase::Map(m, groups) => {
                let mut g = groups.clone();
                g.push(args);
                self.call_map(*m, g, None, depth + 1)
            }
            FuncBase::Lambda(id, caps) => self.call_lambda(*id, caps, args, depth),
            FuncBase::Const(v) => Ok(v.clone()),
            FuncBase::Ctor(c) => Ok(Value::Ctor(*c, Arc::from(args))),
        }
    }

    fn call_lambda(&self, id: u32, caps: &[Value], args: Vec<Value>, depth: usize) -> Eval {
        if depth > MAX_DEPTH {
            return Err(format!("rewriting nests deeper than {MAX_DEPTH} calls"));
        }
        let code = &self.lambdas[id as usize];
        if code.params.len() != args.len() {
            return Err(format!(
                "lambda of {} parameters applied to {} arguments",
                code.params.len(),
                args.len()
            ));
        }
        let mut env = vec![placeholder(); code.env_size];
        for (s, v) in code.params.iter().zip(args) {
            env[*s as usize] = v;
        }
        for (s, v) in code.capture_slots.iter().zip(caps) {
            env[*s as usize] = v.clone();
        }
        self.eval(&code.body, &mut env, depth + 1)
    }

    /// `f[x -> v]` in canonical form: updates sorted by argument, at most
    /// one per argument, and none that restates what the function without
    /// it gives at `x`.
    pub fn update(&self, f: Value, x: Value, v: Value, depth: usize) -> Eval {
        let Value::Func(fv) = f else {
            return Err(format!("function update of {}", self.show(&f)));
        };
        let mut fv = (*fv).clone();
        if let Ok(i) = fv.updates.binary_search_by(|(k, _)| k.cmp(&x)) {
            fv.updates.remove(i);
        }
        let underlying = self.apply_base(&fv.base, vec![x.clone()], depth)?;
        if underlying != v {
            let i = fv
                .updates
                .binary_search_by(|(k, _)| k.cmp(&x))
                .unwrap_or_else(|i| i);
            fv.updates.insert(i, (x, v));
        }
        Ok(Value::Func(Arc::new(fv)))
    }

    fn comprehension(&self, pred: Value, sort: &Sort, depth: usize) -> Eval {
        if let Some(elems) = self.sorts.elements(sort) {
            let mut out = Vec::new();
            for e in elems {
                if as_bool(
                    &self.apply(&pred, vec![e.clone()], depth)?,
                    "set comprehension",
                )? {
                    out.push(e);
                }
            }
            return Ok(Value::finite_set(out));
        }
        Ok(Value::Set(Arc::new(SetValue {
            pred: Some(pred),
            finite: Vec::new(),
        })))
    }

    fn quantifier(
        &self,
        forall: bool,
        vars: &[(u32, Sort)],
        body: &Term,
        env: &mut [Value],
        depth: usize,
    ) -> Eval {
        let mut domains = Vec::new();
        for (_, s) in vars {
            match self.sorts.elements(s) {
                Some(e) => domains.push(e),
                None => {
                    return Err(format!(
                        "{} over the infinite sort {}: not supported by this front-end",
                        if forall { "forall" } else { "exists" },
                        self.sorts.show(s)
                    ))
                }
            }
        }
        let mut idx = vec![0usize; vars.len()];
        if domains.iter().any(|d| d.is_empty()) {
            return Ok(Value::Bool(forall));
        }
        loop {
            for (k, (slot, _)) in vars.iter().enumerate() {
                env[*slot as usize] = domains[k][idx[k]].clone();
            }
            let b = as_bool(&self.eval(body, env, depth)?, "quantifier body")?;
            if b != forall {
                return Ok(Value::Bool(b));
            }
            let mut k = 0;
            loop {
                if k == vars.len() {
                    return Ok(Value::Bool(forall));
                }
                idx[k] += 1;
                if idx[k] < domains[k].len() {
                    break;
                }
                idx[k] = 0;
                k += 1;
            }
        }
    }

    /// Membership in a set value.
    pub fn set_member(&self, s: &SetValue, x: &Value) -> Result<bool, String> {
        let fin = s.finite.binary_search(x).is_ok();
        match &s.pred {
            None => Ok(fin),
            Some(p) => Ok(as_bool(&self.apply(p, vec![x.clone()], 0)?, "set predicate")? != fin),
        }
    }

    /// A set operation where at least one side has a predicate. Outside
    /// both finite parts, membership is `op(pa(x), pb(x))` with the absent
    /// predicate false; that is again one of the predicates or false
    /// (`{} * !{v}` is finite), which becomes the result's predicate. Its
    /// finite part is the points of either finite part where the result's
    /// membership differs from that predicate. Two different predicates
    /// where both matter: unsupported.
    fn set_combine(&self, a: &SetValue, b: &SetValue, op: fn(bool, bool) -> bool) -> Eval {
        // The predicate outside the finite parts, from op's truth table.
        let pred = match (&a.pred, &b.pred) {
            (None, None) => None,
            (Some(p), None) => match (op(true, false), op(false, false)) {
                (true, false) => Some(p.clone()),
                (false, false) => None,
                _ => return Err("a set operation with a complemented result: not supported by this front-end".into()),
            },
            (None, Some(q)) => match (op(false, true), op(false, false)) {
                (true, false) => Some(q.clone()),
                (false, false) => None,
                _ => return Err("a set operation with a complemented result: not supported by this front-end".into()),
            },
            (Some(p), Some(q)) if p == q => match (op(true, true), op(false, false)) {
                (true, false) => Some(p.clone()),
                (false, false) => None,
                _ => return Err("a set operation with a complemented result: not supported by this front-end".into()),
            },
            _ => {
                return Err("an operation on two sets given by different predicates: not supported by this front-end".into())
            }
        };
        let candidates = value::union(&a.finite, &b.finite);
        let mut finite = Vec::new();
        for x in candidates {
            let want = op(self.set_member(a, &x)?, self.set_member(b, &x)?);
            let p = match &pred {
                Some(p) => as_bool(&self.apply(p, vec![x.clone()], 0)?, "set predicate")?,
                None => false,
            };
            if want != p {
                finite.push(x);
            }
        }
        Ok(Value::Set(Arc::new(SetValue { pred, finite })))
    }

    /// The built-in operations, on normal forms.
    pub fn builtin(&self, b: Builtin, args: Vec<Value>) -> Eval {
        let n = args.len();
        let mut it = args.into_iter();
        match (it.next(), it.next(), n) {
            (Some(a), c, 1 | 2) => self.builtin_on(b, a, c),
            _ => Err(format!("{b:?} applied to {n} arguments")),
        }
    }

    /// [`Rewriter::builtin`] on one argument, or two (`c`).
    fn builtin_on(&self, b: Builtin, a: Value, c: Option<Value>) -> Eval {
        use Builtin as B;
        use Value as V;
        let arity = match b {
            B::Not
            | B::Neg
            | B::Size
            | B::Head
            | B::Tail
            | B::RHead
            | B::RTail
            | B::Abs
            | B::Succ
            | B::Pred
            | B::Int2Nat
            | B::Int2Pos
            | B::Nat2Pos
            | B::Widen
            | B::Floor
            | B::Ceil
            | B::Round
            | B::Bag2Set
            | B::Set2Bag => 1,
            _ => 2,
        };
        let n = 1 + usize::from(c.is_some());
        if n != arity {
            return Err(format!("{b:?} applied to {n} arguments"));
        }
        let num = |x: &Value| x.as_frac();
        let checked = |r: Option<i128>| r.map(V::Int).ok_or_else(overflow);
        match (b, &a, &c) {
            (B::Not, V::Bool(x), _) => Ok(V::Bool(!x)),
            (B::Not, V::Set(s), _) => {
                // Complement: toggle the predicate.
                let pred =
                    match &s.pred {
                        None => V::Func(Arc::new(FuncValue {
                            base: FuncBase::Const(V::Bool(true)),
                            updates: Vec::new(),
                        })),
                        Some(V::Func(f))
                            if matches!(f.base, FuncBase::Const(V::Bool(true)))
                                && f.updates.is_empty() =>
                        {
                            return Ok(V::Set(Arc::new(SetValue {
                                pred: None,
                                finite: s.finite.clone(),
                            })))
                        }
                        Some(_) => return Err(
                            "complement of a set comprehension: not supported by this front-end"
                                .into(),
                        ),
                    };
                Ok(V::Set(Arc::new(SetValue {
                    pred: Some(pred),
                    finite: s.finite.clone(),
                })))
            }
            (B::Neg, V::Int(x), _) => checked(x.checked_neg()),
            (B::Neg, V::Frac(n, d), _) => V::real(-n, *d),
            (B::Size, V::List(l), _) => Ok(V::Int(l.len() as i128)),
            (B::Size, V::Set(s), _) if s.pred.is_none() => Ok(V::Int(s.finite.len() as i128)),
            (B::Size, V::Bag(items), _) => Ok(V::Int(items.iter().map(|(_, n)| *n as i128).sum())),
            (B::Eq, x, Some(y)) => Ok(V::Bool(self.equal(x, y))),
            (B::Neq, x, Some(y)) => Ok(V::Bool(!self.equal(x, y))),
            (B::Lt | B::Le | B::Gt | B::Ge, x, Some(y)) => {
                let ord = self.compare(x, y)?;
                Ok(V::Bool(match b {
                    B::Lt => ord.is_lt(),
                    B::Le => ord.is_le(),
                    B::Gt => ord.is_gt(),
                    _ => ord.is_ge(),
                }))
            }
            (B::In, x, Some(V::List(l))) => Ok(V::Bool(l.contains(x))),
            (B::In, x, Some(V::Set(s))) => Ok(V::Bool(self.set_member(s, x)?)),
            (B::In, x, Some(V::Bag(items))) => Ok(V::Bool(value::bag_count(items, x) > 0)),
            (B::Cons, x, Some(V::List(l))) => {
                let mut v = Vec::with_capacity(l.len() + 1);
                v.push(x.clone());
                v.extend(l.iter().cloned());
                Ok(V::list(v))
            }
            (B::Snoc, V::List(l), Some(x)) => {
                let mut v = (**l).clone();
                v.push(x.clone());
                Ok(V::list(v))
            }
            (B::Concat, V::List(l), Some(V::List(m))) => {
                let mut v = (**l).clone();
                v.extend(m.iter().cloned());
                Ok(V::list(v))
            }
            (B::At, V::List(l), Some(V::Int(i))) => {
                match usize::try_from(*i).ok().and_then(|i| l.get(i)) {
                    Some(v) => Ok(v.clone()),
                    None => Err(stuck(&format!("{}.{i}", self.show(&V::List(l.clone()))))),
                }
            }
            (B::Add, V::Int(x), Some(V::Int(y))) => checked(x.checked_add(*y)),
            (B::Sub, V::Int(x), Some(V::Int(y))) => checked(x.checked_sub(*y)),
            (B::Mul, V::Int(x), Some(V::Int(y))) => checked(x.checked_mul(*y)),
            (B::Add | B::Sub | B::Mul | B::Div, x, Some(y))
                if num(x).is_some() && num(y).is_some() =>
            {
                let ((n1, d1), (n2, d2)) = (num(x).expect("num"), num(y).expect("num"));
                let o = overflow;
                match b {
                    B::Add | B::Sub => {
                        let l = n1.checked_mul(d2).ok_or_else(o)?;
                        let r = n2.checked_mul(d1).ok_or_else(o)?;
                        let n = if b == B::Add {
                            l.checked_add(r)
                        } else {
                            l.checked_sub(r)
                        };
                        V::real(n.ok_or_else(o)?, d1.checked_mul(d2).ok_or_else(o)?)
                    }
                    B::Mul => V::real(
                        n1.checked_mul(n2).ok_or_else(o)?,
                        d1.checked_mul(d2).ok_or_else(o)?,
                    ),
                    _ => V::real(
                        n1.checked_mul(d2).ok_or_else(o)?,
                        d1.checked_mul(n2).ok_or_else(o)?,
                    ),
                }
            }
            (B::IntDiv | B::Mod, V::Int(x), Some(V::Int(y))) => {
                if *y == 0 {
                    return Err(stuck(&format!(
                        "{x} {} 0 (division by zero)",
                        if b == B::Mod { "mod" } else { "div" }
                    )));
                }
                if b == B::IntDiv {
                    checked(x.checked_div_euclid(*y))
                } else {
                    checked(x.checked_rem_euclid(*y))
                }
            }
            (B::Add, V::Set(s), Some(V::Set(t))) => self.set_op(s, t, |x, y| x || y, value::union),
            (B::Sub, V::Set(s), Some(V::Set(t))) => {
                self.set_op(s, t, |x, y| x && !y, value::difference)
            }
            (B::Mul, V::Set(s), Some(V::Set(t))) => {
                self.set_op(s, t, |x, y| x && y, value::intersection)
            }
            (B::Add | B::Sub | B::Mul, V::Bag(x), Some(V::Bag(y))) => {
                let mut keys: Vec<Value> =
                    x.iter().chain(y.iter()).map(|(v, _)| v.clone()).collect();
                keys.sort();
                keys.dedup();
                let out = keys
                    .into_iter()
                    .map(|k| {
                        let (m, n) = (value::bag_count(x, &k), value::bag_count(y, &k));
                        let r = match b {
                            B::Add => m + n,
                            B::Sub => m.saturating_sub(n),
                            _ => m.min(n),
                        };
                        (k, r)
                    })
                    .collect();
                Ok(V::bag(out))
            }
            (B::Head, V::List(l), _) => l.first().cloned().ok_or_else(|| stuck("head([])")),
            (B::RHead, V::List(l), _) => l.last().cloned().ok_or_else(|| stuck("rhead([])")),
            (B::Tail, V::List(l), _) => {
                if l.is_empty() {
                    Err(stuck("tail([])"))
                } else {
                    Ok(V::list(l[1..].to_vec()))
                }
            }
            (B::RTail, V::List(l), _) => {
                if l.is_empty() {
                    Err(stuck("rtail([])"))
                } else {
                    Ok(V::list(l[..l.len() - 1].to_vec()))
                }
            }
            (B::Max | B::Min, x, Some(y)) => {
                let ord = self.compare(x, y)?;
                let pick_x = if b == B::Max {
                    ord.is_ge()
                } else {
                    ord.is_le()
                };
                Ok(if pick_x { x.clone() } else { y.clone() })
            }
            (B::Abs, V::Int(x), _) => checked(x.checked_abs()),
            (B::Abs, V::Frac(n, d), _) => V::real(n.abs(), *d),
            (B::Succ, V::Int(x), _) => checked(x.checked_add(1)),
            (B::Pred, V::Int(x), _) => checked(x.checked_sub(1)),
            (B::Exp, V::Int(x), Some(V::Int(y))) => {
                let e = u32::try_from(*y)
                    .map_err(|_| format!("exp({x}, {y}): exponent out of range"))?;
                checked(x.checked_pow(e))
            }
            (B::Exp, V::Frac(n, d), Some(V::Int(y))) => {
                let e = u32::try_from(*y).map_err(|_| "exp: exponent out of range".to_string())?;
                V::real(
                    n.checked_pow(e).ok_or_else(overflow)?,
                    d.checked_pow(e).ok_or_else(overflow)?,
                )
            }
            (B::Int2Nat, V::Int(x), _) => {
                if *x < 0 {
                    Err(stuck(&format!("Int2Nat({x})")))
                } else {
                    Ok(V::Int(*x))
                }
            }
            (B::Int2Pos | B::Nat2Pos, V::Int(x), _) => {
                if *x <= 0 {
                    Err(stuck(&format!("{b:?}({x})")))
                } else {
                    Ok(V::Int(*x))
                }
            }
            (B::Widen, x, _) => Ok(x.clone()),
            (B::Floor | B::Ceil | B::Round, x, _) if num(x).is_some() => {
                let (n, d) = num(x).expect("num");
                let fl = n.div_euclid(d);
                Ok(V::Int(match b {
                    B::Floor => fl,
                    B::Ceil => {
                        if n.rem_euclid(d) == 0 {
                            fl
                        } else {
                            fl + 1
                        }
                    }
                    _ => (n.checked_mul(2).ok_or_else(overflow)? + d).div_euclid(2 * d),
                }))
            }
            (B::Count, x, Some(V::Bag(items))) => Ok(V::Int(value::bag_count(items, x) as i128)),
            (B::Bag2Set, V::Bag(items), _) => Ok(V::finite_set(
                items.iter().map(|(v, _)| v.clone()).collect(),
            )),
            (B::Set2Bag, V::Set(s), _) if s.pred.is_none() => {
                Ok(V::bag(s.finite.iter().map(|v| (v.clone(), 1)).collect()))
            }
            (B::Set2Bag, V::Set(_), _) => Err(format!(
                "Set2Bag of a complemented or comprehended set: {}",
                value::NOT_SUPPORTED
            )),
            _ => Err(format!(
                "{b:?} is not defined on {}{}",
                self.show(&a),
                c.map(|c| format!(" and {}", self.show(&c)))
                    .unwrap_or_default()
            )),
        }
    }

    fn set_op(
        &self,
        s: &SetValue,
        t: &SetValue,
        op: fn(bool, bool) -> bool,
        finite_op: fn(&[Value], &[Value]) -> Vec<Value>,
    ) -> Eval {
        if s.pred.is_none() && t.pred.is_none() {
            return Ok(Value::Set(Arc::new(SetValue {
                pred: None,
                finite: finite_op(&s.finite, &t.finite),
            })));
        }
        self.set_combine(s, t, op)
    }

    /// Equality of normal forms (numbers compare by value across Int and
    /// Real).
    pub fn equal(&self, x: &Value, y: &Value) -> bool {
        x == y
    }

    /// mCRL2's `<` on numbers, and on lists/sets/bags/constructors the
    /// (total) structural order (sets: subset order).
    pub fn compare(&self, x: &Value, y: &Value) -> Result<std::cmp::Ordering, String> {
        match (x.as_frac(), y.as_frac()) {
            (Some((n1, d1)), Some((n2, d2))) => {
                let l = n1.checked_mul(d2).ok_or_else(overflow)?;
                let r = n2.checked_mul(d1).ok_or_else(overflow)?;
                Ok(l.cmp(&r))
            }
            _ => match (x, y) {
                (Value::Set(a), Value::Set(b)) if a.pred.is_none() && b.pred.is_none() => {
                    // Subset order: a <= b iff a ⊆ b. Not total: incomparable
                    // sets are neither < nor > nor ==; callers use is_lt etc.
                    let sub = a.finite.iter().all(|e| b.finite.binary_search(e).is_ok());
                    let sup = b.finite.iter().all(|e| a.finite.binary_search(e).is_ok());
                    Ok(match (sub, sup) {
                        (true, true) => std::cmp::Ordering::Equal,
                        (true, false) => std::cmp::Ordering::Less,
                        (false, true) => std::cmp::Ordering::Greater,
                        (false, false) => {
                            return Err("comparison of incomparable sets: not supported".into())
                        }
                    })
                }
                (Value::Bool(a), Value::Bool(b)) => Ok(a.cmp(b)),
                (Value::Ctor(..), Value::Ctor(..)) => Ok(x.cmp(y)),
                _ => Err(format!(
                    "cannot compare {} and {}",
                    self.show(x),
                    self.show(y)
                )),
            },
        }
    }
}
