//! The linear process as a [`pins::Model`]: one slot per process parameter
//! (values interned per slot), one transition group per summand that can
//! act (`delta` summands, which have no transitions, get no group).
//! Building it from the syntax tree (`load`) resolves names, compiles
//! rewrite rules and summands, instantiates `glob` don't-care variables
//! with their sort's default (see [`crate::sorts::SortTable::default_value`]),
//! evaluates the initial state, and refuses summands this front-end cannot
//! enumerate.
//!
//! Successors of a summand: every solution of its sum variables (see
//! `enumerator`) whose condition rewrites to `true` gives one transition,
//! labelled by the multi-action's normal form, to the state of the updated
//! parameters. Within one summand and one source state, solutions with the
//! same label and target are one transition (lps2lts stores a transition
//! once per (source, label, target)); see the crate documentation for
//! duplicates across summands.
//!
//! Owns the compiled process and the `pins` interface; it must not parse
//! text nor know engines.

use pins::{Model, ModelError, Slot, TransitionGroup, Value as Index};
use std::collections::HashMap;

use crate::ast::{Pos, Spec};
use crate::compile::{CompileError, Compiler, Names};
use crate::enumerator::{candidates, is_false, mentions, statically_bounded, Refutation};
use crate::error::{ErrorKind, Mcrl2Error};
use crate::fold::{fold, fold_rules};
use crate::interner::Interner;
use crate::rewriter::{Rewriter, STUCK};
use crate::sorts::{Sort, SortTable};
use crate::term::{MapInfo, Term};
use crate::value::Value;
use std::sync::Arc;

/// One sum variable: its slot, sort and, for a finite sort, its elements.
struct SumVar {
    name: String,
    slot: u32,
    sort: Sort,
    domain: Option<Vec<Value>>,
}

/// A compiled summand.
struct Summand {
    /// `file:line:col` and summand number, for messages.
    location: String,
    /// The sum variables over finite sorts, then those over infinite ones,
    /// each in declaration order.
    finite: Vec<SumVar>,
    infinite: Vec<SumVar>,
    condition: Option<Term>,
    /// (action index, argument terms).
    actions: Vec<(usize, Vec<Term>)>,
    /// (parameter, new value) for the parameters this summand writes.
    updates: Vec<(usize, Term)>,
    env_size: usize,
    read: Vec<usize>,
    guards: Guards,
}

impl Summand {
    /// Folds the closed subterms of every term (see `fold`), then
    /// prepares the guards.
    fn fold(&mut self, rw: &Rewriter) {
        let terms = self
            .condition
            .iter_mut()
            .chain(self.actions.iter_mut().flat_map(|(_, a)| a.iter_mut()))
            .chain(self.updates.iter_mut().map(|(_, t)| t))
            .chain(self.guards.first.iter_mut())
            .chain(self.guards.after.iter_mut().flatten());
        for t in terms {
            fold(rw, t);
        }
        self.guards.prepare(rw);
    }
}

/// The conjuncts of a summand's condition that prune the enumeration of
/// its finite sum variables (in declaration order), as mCRL2's enumerator
/// does: a `false` skips the assignment.
struct Guards {
    /// Conjuncts checked before any sum variable is bound.
    first: Vec<Term>,
    /// The conjuncts that read the i-th finite sum variable, in the
    /// condition's order, checked as soon as it is bound: completely when
    /// it is the last sum variable they read, otherwise as far as the
    /// bound ones decide (see [`Refutation`]).
    after: Vec<Vec<Term>>,
    /// The sum variables unbound after the i-th finite one is bound.
    unbound: Vec<Vec<u32>>,
    /// `after`, prepared for checking ([`Guards::prepare`]).
    plans: Vec<Vec<Refutation>>,
}

impl Guards {
    fn new(condition: Option<&Term>, finite: &[u32], infinite: &[u32]) -> Guards {
        let n = finite.len();
        let mut g = Guards {
            first: Vec::new(),
            after: vec![Vec::new(); n],
            unbound: (0..n)
                .map(|i| finite[i + 1..].iter().chain(infinite).copied().collect())
                .collect(),
            plans: Vec::new(),
        };
        let mut cs = Vec::new();
        if let Some(c) = condition {
            conjuncts(c, &mut cs);
        }
        for t in cs {
            let mut reads_sum_var = mentions(t, infinite);
            for (i, slot) in finite.iter().enumerate() {
                if mentions(t, &[*slot]) {
                    g.after[i].push(t.clone());
                    reads_sum_var = true;
                }
            }
            if !reads_sum_var {
                g.first.push(t.clone());
            }
        }
        g
    }

    /// The refutations of the conjuncts of each level (those that can
    /// refute anything).
    fn prepare(&mut self, rw: &Rewriter) {
        self.plans = self
            .after
            .iter()
            .zip(&self.unbound)
            .map(|(ts, unbound)| {
                ts.iter()
                    .map(|t| Refutation::new(rw, t, unbound))
                    .filter(|r| !r.is_nothing())
                    .collect()
            })
            .collect();
    }

    /// Whether the guards of level `i` (the i-th finite sum variable just
    /// bound) show the condition false.
    fn prune(&self, rw: &Rewriter, i: usize, env: &mut [Value]) -> bool {
        self.plans[i].iter().any(|r| r.refutes(rw, env))
    }
}

/// The conjuncts of a condition (`a && b && c`).
fn conjuncts<'t>(t: &'t Term, out: &mut Vec<&'t Term>) {
    match t {
        Term::And(a, b) => {
            conjuncts(a, out);
            conjuncts(b, out);
        }
        other => out.push(other),
    }
}

/// A transition label: the multi-action, actions sorted.
pub type Label = Vec<(usize, Vec<Value>)>;

/// A linear process specification as a `pins` model.
pub struct Mcrl2Model {
    name: String,
    rewriter: Rewriter,
    param_names: Vec<String>,
    param_sorts: Vec<Sort>,
    action_names: Vec<String>,
    summands: Vec<Summand>,
    slots: Vec<Slot>,
    groups: Vec<TransitionGroup>,
    processes: Vec<String>,
    interner: Interner,
    init: Vec<Index>,
    /// The largest environment a summand needs (at least one slot per
    /// parameter).
    max_env: usize,
    /// Whether a term without constructor normal form may be stored in a
    /// state or label (lps2lts's behaviour, the default) instead of being
    /// an error.
    keep_stuck: bool,
}

fn placeholder() -> Value {
    Value::Bool(false)
}

#[derive(Clone, Copy)]
struct Loader<'a> {
    file: &'a str,
}

impl Loader<'_> {
    fn at(&self, kind: ErrorKind, pos: Pos, msg: impl AsRef<str>) -> Mcrl2Error {
        Mcrl2Error::at(kind, self.file, pos.line, pos.col, msg)
    }

    fn compile_err(&self, e: CompileError) -> Mcrl2Error {
        let kind = if e.unsupported {
            ErrorKind::Unsupported
        } else {
            ErrorKind::Semantic
        };
        self.at(kind, e.pos, e.message)
    }
}

/// Builds the model of a parsed specification.
pub fn load(spec: &Spec, file: &str, name: &str) -> Result<Mcrl2Model, Mcrl2Error> {
    let ld = Loader { file };
    let sort_err = |pos: Pos| move |m: String| ld.at(ErrorKind::Semantic, pos, m);
    let decls: Vec<_> = spec
        .sorts
        .iter()
        .map(|d| (d.name.clone(), d.def.clone()))
        .collect();
    let first_pos = spec.sorts.first().map(|d| d.pos).unwrap_or_default();
    let mut sorts = SortTable::new(&decls).map_err(sort_err(first_pos))?;
    for c in &spec.cons {
        sorts.add_cons(&c.name, &c.sort).map_err(sort_err(c.pos))?;
    }
    let mut names = Names {
        ctors: HashMap::new(),
        map_index: HashMap::new(),
        maps: Vec::new(),
        globals: HashMap::new(),
        recognisers: HashMap::new(),
        projections: HashMap::new(),
        lambdas: Vec::new(),
        sorts,
    };
    for (id, c) in names.sorts.ctors.iter().enumerate() {
        let id = id as u32;
        names.ctors.entry(c.name.clone()).or_default().push(id);
        if let Some(r) = &c.recogniser {
            names.recognisers.entry(r.clone()).or_default().push(id);
        }
        for (i, p) in c.projections.iter().enumerate() {
            if let Some(p) = p {
                names
                    .projections
                    .entry(p.clone())
                    .or_default()
                    .push((id, i));
            }
        }
    }
    for m in &spec.maps {
        let sort = names.sorts.resolve(&m.sort).map_err(sort_err(m.pos))?;
        let idx = match names.map_index.get(&m.name) {
            Some(&i) => i,
            None => {
                let i = names.maps.len() as u32;
                names.maps.push(MapInfo {
                    name: m.name.clone(),
                    ..MapInfo::default()
                });
                names.map_index.insert(m.name.clone(), i);
                i
            }
        };
        names.maps[idx as usize].sorts.push(sort);
    }
    for g in &spec.globals {
        let sort = names.sorts.resolve(&g.sort).map_err(sort_err(g.pos))?;
        let Some(v) = names.sorts.default_value(&sort) else {
            return Err(ld.at(
                ErrorKind::Unsupported,
                g.pos,
                format!(
                    "global variable '{}': no default value for its sort",
                    g.name
                ),
            ));
        };
        names.globals.insert(g.name.clone(), v);
    }
    // Rewrite rules, in declaration order.
    for eq in &spec.equations {
        let location = format!("{file}:{}:{}", eq.pos.line, eq.pos.col);
        let mut closed = |n: &Names, t: &Term| -> Result<Value, String> {
            if let Term::Const(v) = t {
                return Ok(v.clone());
            }
            let rw = Rewriter::new(n.sorts.clone(), n.maps.clone(), n.lambdas.clone());
            rw.eval(t, &mut vec![placeholder(); 64], 0)
        };
        if let Some((map, rule)) =
            Compiler::rule(&mut names, eq, location, &mut closed).map_err(|e| ld.compile_err(e))?
        {
            names.maps[map as usize].rules.push(rule);
        }
    }
    crate::typecheck::check_process(&names, spec)
        .map_err(|(pos, m)| ld.at(ErrorKind::Semantic, pos, m))?;
    let mut action_index = HashMap::new();
    let mut action_names = Vec::new();
    for a in &spec.actions {
        if !action_index.contains_key(&a.name) {
            action_index.insert(a.name.clone(), action_names.len());
            action_names.push(a.name.clone());
        }
    }
    let Some(proc_) = &spec.process else {
        return Err(Mcrl2Error::new(
            ErrorKind::NotLinear,
            file,
            "no 'proc' section: not a linear process specification",
        ));
    };
    let Some((init_args, init_pos)) = &spec.init else {
        return Err(Mcrl2Error::new(
            ErrorKind::Semantic,
            file,
            "no 'init' section",
        ));
    };
    let k = proc_.params.len();
    let mut param_sorts = Vec::new();
    let mut param_index = HashMap::new();
    for (i, (n, s)) in proc_.params.iter().enumerate() {
        param_sorts.push(names.sorts.resolve(s).map_err(sort_err(proc_.pos))?);
        if param_index.insert(n.clone(), i).is_some() {
            return Err(ld.at(
                ErrorKind::Semantic,
                proc_.pos,
                format!("parameter '{n}' declared twice"),
            ));
        }
    }
    let mut summands = Vec::new();
    for (si, s) in proc_.summands.iter().enumerate() {
        let location = format!("{file}:{}:{}: summand {}", s.pos.line, s.pos.col, si + 1);
        let Some(acts) = &s.actions else {
            continue; // delta: no transitions.
        };
        if s.timed {
            return Err(ld.at(
                ErrorKind::Unsupported,
                s.pos,
                format!("summand {}: time is not supported", si + 1),
            ));
        }
        if !s.continues {
            return Err(ld.at(
                ErrorKind::Unsupported,
                s.pos,
                format!(
                    "summand {}: a terminating action (no continuation) is not supported",
                    si + 1
                ),
            ));
        }
        let mut c = Compiler::new(&mut names);
        for (n, _) in &proc_.params {
            c.bind(n);
        }
        let mut sum_vars = Vec::new();
        for (n, srt) in &s.sum_vars {
            let sort = c.sort(srt, s.pos).map_err(|e| ld.compile_err(e))?;
            let slot = c.bind(n);
            let domain = c.names.sorts.elements(&sort);
            sum_vars.push(SumVar {
                name: n.clone(),
                slot,
                sort,
                domain,
            });
        }
        let condition = match &s.condition {
            Some(e) => Some(c.expr(e).map_err(|e| ld.compile_err(e))?),
            None => None,
        };
        let mut actions = Vec::new();
        for a in acts {
            let Some(&ai) = action_index.get(&a.name) else {
                return Err(ld.at(
                    ErrorKind::Semantic,
                    a.pos,
                    format!("unknown action '{}'", a.name),
                ));
            };
            let mut args = Vec::new();
            for e in &a.args {
                args.push(c.expr(e).map_err(|e| ld.compile_err(e))?);
            }
            actions.push((ai, args));
        }
        let mut updates: Vec<(usize, Term)> = Vec::new();
        for (n, e) in &s.updates {
            let Some(&pi) = param_index.get(n) else {
                return Err(ld.at(
                    ErrorKind::Semantic,
                    e.pos,
                    format!("'{n}' is not a process parameter"),
                ));
            };
            if updates.iter().any(|(p, _)| *p == pi) {
                return Err(ld.at(
                    ErrorKind::Semantic,
                    e.pos,
                    format!("parameter '{n}' updated twice"),
                ));
            }
            let t = c.expr(e).map_err(|e| ld.compile_err(e))?;
            if matches!(t, Term::Var(v) if v as usize == pi) {
                continue; // x = x writes nothing.
            }
            updates.push((pi, t));
        }
        updates.sort_by_key(|(p, _)| *p);
        let env_size = c.env_size();
        let params: Vec<u32> = (0..k as u32).collect();
        let mut read: Vec<usize> = Vec::new();
        let mut terms: Vec<&Term> = condition.iter().collect();
        terms.extend(actions.iter().flat_map(|(_, a)| a.iter()));
        terms.extend(updates.iter().map(|(_, t)| t));
        for p in &params {
            if terms.iter().any(|t| mentions(t, &[*p])) {
                read.push(*p as usize);
            }
        }
        let finite_slots: Vec<u32> = sum_vars
            .iter()
            .filter(|v| v.domain.is_some())
            .map(|v| v.slot)
            .collect();
        let infinite_slots: Vec<u32> = sum_vars
            .iter()
            .filter(|v| v.domain.is_none())
            .map(|v| v.slot)
            .collect();
        let guards = Guards::new(condition.as_ref(), &finite_slots, &infinite_slots);
        let (finite, infinite) = sum_vars.into_iter().partition(|v| v.domain.is_some());
        summands.push(Summand {
            location,
            finite,
            infinite,
            condition,
            actions,
            updates,
            env_size,
            read,
            guards,
        });
    }
    let mut init_terms = Vec::new();
    {
        let mut c = Compiler::new(&mut names);
        for a in init_args {
            init_terms.push(c.expr(a).map_err(|e| ld.compile_err(e))?);
        }
    }
    let rewriter = {
        let rw = Rewriter::from_names(names);
        let maps = fold_rules(&rw);
        Rewriter::new(rw.sorts, maps, rw.lambdas)
    };
    for s in &mut summands {
        s.fold(&rewriter);
    }
    // Sum variables over infinite sorts must be bounded by the condition.
    for (s, ast_s) in summands
        .iter()
        .zip(proc_.summands.iter().filter(|s| s.actions.is_some()))
    {
        check_bounded(&rewriter, s, k).map_err(|m| ld.at(ErrorKind::Unsupported, ast_s.pos, m))?;
    }
    // The initial state.
    if init_args.len() != k {
        return Err(ld.at(
            ErrorKind::Semantic,
            *init_pos,
            format!("init gives {} values for {k} parameters", init_args.len()),
        ));
    }
    let interner = Interner::new(k);
    let mut init = Vec::with_capacity(k);
    for (i, t) in init_terms.iter().enumerate() {
        let v = rewriter
            .eval(t, &mut vec![placeholder(); 64], 0)
            .map_err(|m| {
                ld.at(
                    ErrorKind::Semantic,
                    init_args[i].pos,
                    format!("initial value of '{}': {m}", proc_.params[i].0),
                )
            })?;
        init.push(
            interner
                .intern(i, &v)
                .map_err(|m| ld.at(ErrorKind::Semantic, *init_pos, m))?,
        );
    }
    let slots = proc_
        .params
        .iter()
        .zip(&param_sorts)
        .map(|((n, _), s)| Slot {
            name: n.clone(),
            process: None,
            bits: bits_of(&rewriter.sorts, s),
        })
        .collect();
    let groups = summands
        .iter()
        .zip(
            proc_
                .summands
                .iter()
                .enumerate()
                .filter(|(_, s)| s.actions.is_some()),
        )
        .map(|(s, (i, ast_s))| {
            let acts: Vec<&str> = ast_s
                .actions
                .iter()
                .flatten()
                .map(|a| a.name.as_str())
                .collect();
            TransitionGroup {
                label: format!(
                    "summand {} ({})",
                    i + 1,
                    if acts.is_empty() {
                        "tau".into()
                    } else {
                        acts.join("|")
                    }
                ),
                read: s.read.clone(),
                write: s.updates.iter().map(|(p, _)| *p).collect(),
            }
        })
        .collect();
    let max_env = summands
        .iter()
        .map(|s| s.env_size)
        .max()
        .unwrap_or(0)
        .max(k);
    Ok(Mcrl2Model {
        name: name.to_owned(),
        param_names: proc_.params.iter().map(|(n, _)| n.clone()).collect(),
        param_sorts,
        action_names,
        summands,
        slots,
        groups,
        processes: Vec::new(),
        interner,
        init,
        max_env,
        rewriter,
        keep_stuck: true,
    })
}

fn bits_of(sorts: &SortTable, s: &Sort) -> u32 {
    match sorts.cardinality(s) {
        Some(n) if n <= 1 => 1,
        Some(n) => (usize::BITS - (n - 1).leading_zeros()).max(1),
        None => 32,
    }
}

/// Load-time check that every infinite sum variable gets a bound from the
/// condition, for every value of the finite sum variables.
fn check_bounded(rw: &Rewriter, s: &Summand, k: usize) -> Result<(), String> {
    let infinite = &s.infinite;
    if infinite.is_empty() {
        return Ok(());
    }
    let refuse = |v: &SumVar| {
        Err(format!(
            "{}: sum variable '{}' ranges over the infinite sort {} and the condition does not bound it: not supported by this front-end",
            s.location.rsplit(": ").next().unwrap_or(""),
            v.name,
            rw.sorts.show(&v.sort)
        ))
    };
    let Some(cond) = &s.condition else {
        return refuse(&infinite[0]);
    };
    let params: Vec<u32> = (0..k as u32).collect();
    let mut env = vec![placeholder(); s.env_size];
    let mut result = Ok(());
    for_each_assignment(&s.finite, &mut env, &mut |env| {
        let mut unknown: Vec<u32> = infinite.iter().map(|v| v.slot).collect();
        while !unknown.is_empty() {
            let found = infinite.iter().find(|v| {
                unknown.contains(&v.slot)
                    && statically_bounded(rw, cond, v.slot, &v.sort, &unknown, &params, env)
            });
            match found {
                Some(v) => unknown.retain(|u| *u != v.slot),
                None => {
                    let v = infinite
                        .iter()
                        .find(|v| unknown.contains(&v.slot))
                        .expect("unknown var");
                    result = refuse(v);
                    return false;
                }
            }
        }
        true
    });
    result
}

/// Calls `f` with every assignment of the finite sum variables (in
/// declaration order, the last one varying fastest); `f` returns false to
/// stop.
fn for_each_assignment(
    vars: &[SumVar],
    env: &mut [Value],
    f: &mut dyn FnMut(&mut [Value]) -> bool,
) -> bool {
    match vars.split_first() {
        None => f(env),
        Some((v, rest)) => {
            for x in v.domain.as_ref().expect("finite") {
                env[v.slot as usize] = x.clone();
                if !for_each_assignment(rest, env, f) {
                    return false;
                }
            }
            true
        }
    }
}

/// [`for_each_assignment`] that skips an assignment as soon as `pruned`
/// (given the index of the variable just bound) refutes it.
fn for_each_pruned(
    vars: &[SumVar],
    i: usize,
    pruned: &dyn Fn(usize, &mut [Value]) -> bool,
    env: &mut [Value],
    f: &mut dyn FnMut(&mut [Value]) -> bool,
) -> bool {
    let Some(v) = vars.get(i) else {
        return f(env);
    };
    for x in v.domain.as_ref().expect("finite") {
        env[v.slot as usize] = x.clone();
        if pruned(i, env) {
            continue;
        }
        if !for_each_pruned(vars, i + 1, pruned, env, f) {
            return false;
        }
    }
    true
}

impl Mcrl2Model {
    /// A parameter update or action argument that has no constructor
    /// normal form (`head([])`, `x div 0`, a projection of the wrong
    /// constructor, a map no rule applies to) is, by default, a value like
    /// any other: mCRL2 keeps an unrewritable term as its own normal form
    /// and lps2lts stores it in the state (the corpus's `brp` needs this
    /// for its counts). A condition must always rewrite to `true` or
    /// `false`; one that does not is a [`pins::ModelError`] naming the
    /// summand and the term, as in lps2lts. With `keep` false (strict
    /// mode), such an update or argument is an error too.
    pub fn keep_stuck_terms(mut self, keep: bool) -> Self {
        self.keep_stuck = keep;
        self
    }

    /// An evaluation failure in summand `s`: a limit of this front-end
    /// ([`crate::value::NOT_SUPPORTED`]) ends the run `unsupported`,
    /// anything else is an error of the model.
    fn error(&self, s: &Summand, what: &str, msg: String) -> ModelError {
        let text = format!("{what}: {msg}");
        if msg.ends_with(crate::value::NOT_SUPPORTED) {
            ModelError::unsupported(s.location.clone(), text)
        } else {
            ModelError::at(s.location.clone(), text)
        }
    }

    /// The successors of `state` by summand `group`, each with its label,
    /// one per distinct (label, target).
    pub fn successors(
        &self,
        state: &[Index],
        group: usize,
        emit: &mut dyn FnMut(&Label, &[Index]),
    ) -> Result<(), ModelError> {
        let s = &self.summands[group];
        let mut env = vec![placeholder(); s.env_size.max(self.param_names.len())];
        for &p in &s.read {
            env[p] = self
                .interner
                .value(p, state[p])
                .map_err(|m| self.error(s, "reading the state", m))?;
        }
        self.successors_in(s, state, &mut env, emit)
    }

    /// The values of all parameters of `state`, in an environment large
    /// enough for every summand.
    fn state_env(&self, state: &[Index]) -> Result<Vec<Value>, ModelError> {
        let mut env = vec![placeholder(); self.max_env];
        for (p, &i) in state.iter().enumerate() {
            env[p] = self.interner.value(p, i).map_err(|m| {
                ModelError::at(self.name.clone(), format!("reading the state: {m}"))
            })?;
        }
        Ok(env)
    }

    /// [`Mcrl2Model::successors`] by summand `s`, the parameters it reads
    /// being in `env`. Writes only the slots of sum variables and binders
    /// (each written before it is read), so one environment serves every
    /// summand of a state.
    fn successors_in(
        &self,
        s: &Summand,
        state: &[Index],
        env: &mut [Value],
        emit: &mut dyn FnMut(&Label, &[Index]),
    ) -> Result<(), ModelError> {
        let (finite, infinite) = (&s.finite, &s.infinite);
        let rw = &self.rewriter;
        if s.guards.first.iter().any(|g| is_false(rw, g, env)) {
            return Ok(());
        }
        let mut failure: Option<ModelError> = None;
        for_each_pruned(
            finite,
            0,
            &|i, env| s.guards.prune(rw, i, env),
            env,
            &mut |env| {
                let unknown: Vec<u32> = infinite.iter().map(|v| v.slot).collect();
                match self.solve(s, infinite, unknown, env, state, emit) {
                    Ok(()) => true,
                    Err(e) => {
                        failure = Some(e);
                        false
                    }
                }
            },
        );
        match failure {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Binds the infinite sum variables still `unknown` to their candidate
    /// values, then fires the summand for each full assignment.
    fn solve(
        &self,
        s: &Summand,
        infinite: &[SumVar],
        unknown: Vec<u32>,
        env: &mut [Value],
        state: &[Index],
        emit: &mut dyn FnMut(&Label, &[Index]),
    ) -> Result<(), ModelError> {
        if unknown.is_empty() {
            return self.fire(s, env, state, emit);
        }
        let cond = s
            .condition
            .as_ref()
            .expect("checked at load: a bounded summand has a condition");
        for v in infinite.iter().filter(|v| unknown.contains(&v.slot)) {
            if let Some(values) = candidates(&self.rewriter, cond, v.slot, &v.sort, &unknown, env) {
                let rest: Vec<u32> = unknown.iter().copied().filter(|u| *u != v.slot).collect();
                for x in values {
                    env[v.slot as usize] = x;
                    self.solve(s, infinite, rest.clone(), env, state, emit)?;
                }
                return Ok(());
            }
        }
        Err(self.error(
            s,
            "enumerating the sum variables",
            format!("the condition gives no finite range for an infinite sum variable in this state: {}", crate::value::NOT_SUPPORTED),
        ))
    }

    fn fire(
        &self,
        s: &Summand,
        env: &mut [Value],
        state: &[Index],
        emit: &mut dyn FnMut(&Label, &[Index]),
    ) -> Result<(), ModelError> {
        let rw = &self.rewriter;
        if let Some(c) = &s.condition {
            match rw.eval(c, env, 0) {
                Ok(Value::Bool(true)) => {}
                Ok(Value::Bool(false)) => return Ok(()),
                Ok(Value::Undefined(m)) => {
                    return Err(self.error(s, "the condition", m.to_string()))
                }
                Ok(other) => {
                    return Err(self.error(
                        s,
                        "the condition",
                        format!("not a Bool: {}", rw.show(&other)),
                    ))
                }
                Err(m) => return Err(self.error(s, "the condition", m)),
            }
        }
        let mut label: Label = Vec::with_capacity(s.actions.len());
        for (a, args) in &s.actions {
            let mut vals = Vec::with_capacity(args.len());
            for t in args {
                let what = || format!("an argument of action {}", self.action_names[*a]);
                vals.push(match rw.eval(t, env, 0) {
                    Ok(Value::Undefined(m)) => {
                        if self.keep_stuck && m.starts_with(STUCK) {
                            Value::Undefined(m)
                        } else {
                            return Err(self.error(s, &what(), m.to_string()));
                        }
                    }
                    Err(m) if self.keep_stuck && m.starts_with(STUCK) => {
                        Value::Undefined(Arc::from(m.as_str()))
                    }
                    Err(m) => return Err(self.error(s, &what(), m)),
                    Ok(v) => v,
                });
            }
            label.push((*a, vals));
        }
        label.sort();
        let mut target = state.to_vec();
        for (p, t) in &s.updates {
            // A term without a constructor normal form (`s_(NONE)`,
            // `head([])`) is stored as it is, as lps2lts does; any other
            // failure is an error.
            let v = match rw.eval(t, env, 0) {
                Ok(Value::Undefined(m)) => {
                    if self.keep_stuck && m.starts_with(STUCK) {
                        Value::Undefined(m)
                    } else {
                        return Err(self.error(
                            s,
                            &format!("the update of {}", self.param_names[*p]),
                            m.to_string(),
                        ));
                    }
                }
                Err(m) if self.keep_stuck && m.starts_with(STUCK) => {
                    Value::Undefined(Arc::from(m.as_str()))
                }
                Err(m) => {
                    return Err(self.error(
                        s,
                        &format!("the update of {}", self.param_names[*p]),
                        m,
                    ))
                }
                Ok(v) => v,
            };
            if !rw.sorts.has_sort(&v, &self.param_sorts[*p]) {
                return Err(self.error(
                    s,
                    &format!("the update of {}", self.param_names[*p]),
                    format!(
                        "{} is not a value of its sort {}",
                        rw.show(&v),
                        rw.sorts.show(&self.param_sorts[*p])
                    ),
                ));
            }
            target[*p] = self
                .interner
                .intern(*p, &v)
                .map_err(|m| self.error(s, "storing a value", m))?;
        }
        emit(&label, &target);
        Ok(())
    }

    /// A printable form of a label.
    pub fn show_label(&self, label: &Label) -> String {
        if label.is_empty() {
            return "tau".into();
        }
        label
            .iter()
            .map(|(a, args)| {
                let name = &self.action_names[*a];
                if args.is_empty() {
                    name.clone()
                } else {
                    let a: Vec<_> = args.iter().map(|v| self.rewriter.show(v)).collect();
                    format!("{name}({})", a.join(", "))
                }
            })
            .collect::<Vec<_>>()
            .join("|")
    }

    /// The value of slot `slot` in a state, printed.
    pub fn show_slot(&self, slot: usize, index: Index) -> String {
        match self.interner.value(slot, index) {
            Ok(v) => self.rewriter.show(&v),
            Err(m) => m,
        }
    }
}

impl Model for Mcrl2Model {
    pins::describe_model!("mcrl2", name, slots, processes, groups);

    fn initial_state(&self) -> Vec<Index> {
        self.init.clone()
    }

    fn next(&self, state: &[Index], group: usize, emit: &mut pins::Emit) -> pins::Step {
        self.successors(state, group, &mut |_, t| emit(t))
    }

    /// Every summand in turn, the state's values read once.
    fn next_all(
        &self,
        state: &[Index],
        emit: &mut dyn FnMut(usize, &[Index]),
    ) -> Result<(), ModelError> {
        let mut env = self.state_env(state)?;
        for (g, s) in self.summands.iter().enumerate() {
            self.successors_in(s, state, &mut env, &mut |_, t| emit(g, t))?;
        }
        Ok(())
    }
}
