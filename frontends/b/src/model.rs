//! [`BModel`]: a composed B machine as a [`pins::Model`].
//!
//! State vector: slot 0 is the phase (0 = ProB's artificial root, 1 =
//! constants set up, 2 = initialised), then one slot per constant and one
//! per variable (of every composed machine, in dependency order). A slot
//! stores its value as an index into a per-slot table of the B values seen
//! so far (a thread-safe interner), plus one; 0 means "not yet set".
//!
//! Groups: `SETUP_CONSTANTS` (only when there are constants or
//! PROPERTIES, as in ProB: root ->
//! phase 1, one successor per solution of the PROPERTIES),
//! `INITIALISATION` (phase 1, or the root when there are no constants ->
//! phase 2, one successor per outcome), then each operation offered
//! (phase 2). A group emits one successor per distinct (parameter values,
//! result values, target state): ProB's transitions. So our state count
//! is ProB's plus the root, and the transition counts are equal.
//!
//! Read and write sets come from the syntax: a group reads the phase and
//! every slot whose identifier occurs in it (or in an operation it calls)
//! and writes the phase (setup and initialisation only) and every slot it
//! assigns.
//!
//! Owns the state layout and successor generation; B semantics live in
//! `eval`, `exec` and `solve`.

use std::sync::atomic::Ordering;
use std::sync::{OnceLock, RwLock};

use pins::{ModelError, Slot, TransitionGroup, Value as PValue};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::ast::*;
use crate::eval::{Env, Fail, Global, World, E, LARGE_SET};
use crate::exec::{Callee, Target, Writes};
use crate::lazy_sets::{self, LazySets, Origin};
use crate::solve::{idents, solve, solve_pruned, Canon, PlanResult};
use crate::value::Value;
use crate::visit::{walk_subst, Role, SubstVisitor};

#[derive(Default)]
struct Table {
    map: FxHashMap<Value, u32>,
    /// Large sets of symbolic origin, interned apart (see `lazy_sets`).
    closures: FxHashMap<Value, u32>,
    vals: Vec<Value>,
}

/// What a transition group does.
#[derive(Clone, Copy, Debug)]
enum Kind {
    Setup,
    Init,
    /// Operation `(machine, index)`.
    Op(usize, usize),
}

/// A classical B machine presented as a PINS model (formalism `b`).
pub struct BModel {
    name: String,
    pub(crate) world: World,
    pub(crate) machines: Vec<Machine>,
    callable: FxHashMap<Sym, (usize, usize)>,
    const_ids: Vec<Sym>,
    properties: Option<Expr>,
    /// A MINIMIZE_EXPR/MAXIMIZE_EXPR conjunct taken out of the PROPERTIES.
    objective: E<Option<crate::library_optimize::Objective>>,
    const_plan: OnceLock<PlanResult>,
    setup_cache: OnceLock<Result<Vec<Vec<Value>>, Fail>>,
    nconst: usize,
    nslots: usize,
    kinds: Vec<Kind>,
    param_plans: Vec<OnceLock<PlanResult>>,
    slots: Vec<Slot>,
    groups: Vec<TransitionGroup>,
    procs: Vec<String>,
    tables: Vec<RwLock<Table>>,
    /// Origins of the large sets variables hold (see `lazy_sets`).
    lazy: LazySets,
    /// Per group, the slots it evaluates (not those it only assigns).
    lazy_reads: Vec<Vec<usize>>,
    /// Per group, the variable slots (0-based) it computes as explicit
    /// sets (see `set_representation`).
    explicit_writes: Vec<Vec<usize>>,
    /// The first refusal deferred by a provisional binder (see
    /// `errors_provisional`), reported at the end of the exploration.
    provisional: OnceLock<Fail>,
    /// Operations' successors by read projection (`fast_projection`).
    projections: crate::fast_projection::Projections,
}

impl Callee for BModel {
    fn operation(&self, name: Sym) -> Option<&Operation> {
        self.callable
            .get(&name)
            .map(|&(m, k)| &self.machines[m].operations[k])
    }
}

/// The guard typing an operation's parameters and the body under it.
pub(crate) fn split_guard(op: &Operation) -> (Option<&Expr>, &Subst) {
    match &op.body.kind {
        SubstKind::Pre(p, b) => (Some(p), b),
        SubstKind::Select(br, None) if br.len() == 1 => (Some(&br[0].0), &br[0].1),
        _ => (None, &op.body),
    }
}

/// The binder of an operation's parameters: the identifiers it binds, the
/// predicate typing them and the body run for each solution. A top-level
/// PRE or SELECT binds the parameters; a top-level ANY typing them (as in
/// ProB's translations of TLA+ actions: `op(i) = ANY x_n WHERE i : S &
/// ... THEN ..`) binds the parameters and its own identifiers together
/// (transitions stay distinct by parameters and target only). `None`
/// otherwise.
pub(crate) fn param_binder(op: &Operation) -> Option<(Vec<Sym>, &Expr, &Subst)> {
    if let SubstKind::Any {
        ids, pred, body, ..
    } = &op.body.kind
    {
        if ids.iter().any(|x| op.params.contains(x)) {
            return None;
        }
        let all = op.params.iter().chain(ids).copied().collect();
        return Some((all, pred, body));
    }
    let (guard, body) = split_guard(op);
    guard.map(|g| (op.params.clone(), g, body))
}

impl BModel {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        name: String,
        world: World,
        machines: Vec<Machine>,
        offered: Vec<(usize, usize)>,
        callable: FxHashMap<Sym, (usize, usize)>,
        const_ids: Vec<Sym>,
        var_ids: Vec<Sym>,
        properties: Option<Expr>,
    ) -> Self {
        let (properties, objective) = crate::library_optimize::split(properties);
        let nconst = const_ids.len();
        let nslots = nconst + var_ids.len();
        let mut slots = vec![Slot {
            name: "phase".into(),
            process: None,
            bits: 2,
        }];
        for &s in const_ids.iter().chain(&var_ids) {
            slots.push(Slot {
                name: world.syms.name(s).to_owned(),
                process: None,
                bits: 32,
            });
        }
        let mut kinds = Vec::new();
        let has_setup = (nconst > 0 || properties.is_some()) && !world.symmetry.all_fixed;
        if has_setup {
            kinds.push(Kind::Setup);
        }
        kinds.push(Kind::Init);
        kinds.extend(offered.iter().map(|&(m, k)| Kind::Op(m, k)));
        let mut model = BModel {
            name,
            world,
            machines,
            callable,
            const_ids,
            properties,
            objective,
            const_plan: OnceLock::new(),
            setup_cache: OnceLock::new(),
            nconst,
            nslots,
            param_plans: kinds.iter().map(|_| OnceLock::new()).collect(),
            kinds,
            slots,
            groups: Vec::new(),
            procs: Vec::new(),
            tables: (0..nslots).map(|_| RwLock::new(Table::default())).collect(),
            lazy: LazySets::default(),
            lazy_reads: Vec::new(),
            explicit_writes: Vec::new(),
            provisional: OnceLock::new(),
            projections: crate::fast_projection::Projections::new(&[], 0, |_| false),
        };
        model.groups = model.kinds.iter().map(|k| model.group_of(*k)).collect();
        model.lazy_reads = model.kinds.iter().map(|k| model.reads_of(*k)).collect();
        model.explicit_writes = model.kinds.iter().map(|k| model.explicit_of(*k)).collect();
        let ops: Vec<bool> = model
            .kinds
            .iter()
            .map(|k| matches!(k, Kind::Op(..)))
            .collect();
        model.projections =
            crate::fast_projection::Projections::new(&model.groups, nconst, |g| ops[g]);
        model
    }

    /// Global slot (1-based pins slot) of identifier `s`, if any.
    fn slot_of(&self, s: Sym) -> Option<usize> {
        match self.world.globals.get(s as usize).and_then(|g| g.as_ref()) {
            Some(Global::Slot(i)) => Some(i + 1),
            _ => None,
        }
    }

    /// The variable slots (0-based) group `k` computes as explicit sets.
    fn explicit_of(&self, k: Kind) -> Vec<usize> {
        let Kind::Op(m, i) = k else {
            return Vec::new();
        };
        let body = &self.machines[m].operations[i].body;
        crate::set_representation::explicit_writes(body)
            .into_iter()
            .filter_map(|s| self.slot_of(s).map(|i| i - 1))
            .collect()
    }

    /// The slots group `k` evaluates (see [`lazy_sets::reads_of`]).
    fn reads_of(&self, k: Kind) -> Vec<usize> {
        let slot_of = |s| self.slot_of(s);
        let substs: Vec<&Subst> = match k {
            Kind::Setup => Vec::new(),
            Kind::Init => self
                .machines
                .iter()
                .filter_map(|m| m.init.as_ref())
                .collect(),
            Kind::Op(m, i) => vec![&self.machines[m].operations[i].body],
        };
        let mut out: Vec<usize> = substs
            .into_iter()
            .flat_map(|s| lazy_sets::reads_of(s, self, &slot_of))
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    fn group_of(&self, k: Kind) -> TransitionGroup {
        let mut read = FxHashSet::default();
        let mut write = FxHashSet::default();
        read.insert(0usize);
        let label = match k {
            Kind::Setup => {
                write.insert(0);
                for i in 1..=self.nconst {
                    write.insert(i);
                }
                "SETUP_CONSTANTS".to_owned()
            }
            Kind::Init => {
                write.insert(0);
                // Without a SETUP_CONSTANTS step the INITIALISATION also
                // writes the constants ProB fixes (`fix_constants`).
                let first = if self.world.symmetry.all_fixed {
                    1
                } else {
                    self.nconst + 1
                };
                for i in first..=self.nslots {
                    write.insert(i);
                }
                let mut ids = Vec::new();
                let mut seen = FxHashSet::default();
                for m in &self.machines {
                    if let Some(s) = &m.init {
                        self.subst_idents(s, &mut ids, &mut Vec::new(), &mut seen);
                    }
                }
                read.extend(ids.into_iter().filter_map(|s| self.slot_of(s)));
                "INITIALISATION".to_owned()
            }
            Kind::Op(m, i) => {
                let op = &self.machines[m].operations[i];
                let (mut ids, mut assigned) = (Vec::new(), Vec::new());
                self.subst_idents(&op.body, &mut ids, &mut assigned, &mut FxHashSet::default());
                read.extend(ids.into_iter().filter_map(|s| self.slot_of(s)));
                write.extend(assigned.into_iter().filter_map(|s| self.slot_of(s)));
                self.world.syms.name(op.name).to_owned()
            }
        };
        if !matches!(k, Kind::Setup) {
            let slot_of = |s| self.slot_of(s);
            read.extend(crate::library_scope::reads(
                self.world.scope.as_ref(),
                &slot_of,
            ));
        }
        // A written slot that is not assigned on every path keeps its value:
        // it is read too (conservative and always correct).
        let w: Vec<usize> = write.iter().copied().collect();
        if !matches!(k, Kind::Setup) {
            read.extend(w.iter().copied().filter(|&s| s != 0));
        }
        let mut read: Vec<usize> = read.into_iter().collect();
        let mut write: Vec<usize> = write.into_iter().collect();
        read.sort_unstable();
        write.sort_unstable();
        TransitionGroup { label, read, write }
    }

    /// Identifiers occurring in `s` (and in operations it calls), and those it assigns.
    fn subst_idents(
        &self,
        s: &Subst,
        ids: &mut Vec<Sym>,
        assigned: &mut Vec<Sym>,
        calls: &mut FxHashSet<Sym>,
    ) {
        let mut c = IdentCollector {
            model: self,
            ids,
            assigned,
            calls,
        };
        let Ok(()) = walk_subst(s, &mut c);
    }

    fn decode_slot(&self, state: &[PValue], i: usize) -> Value {
        match state[i + 1] {
            0 => crate::exec::unset(),
            k => self.tables[i].read().expect("table lock").vals[(k - 1) as usize].clone(),
        }
    }

    pub(crate) fn decode(&self, state: &[PValue]) -> Vec<Value> {
        (0..self.nslots)
            .map(|i| self.decode_slot(state, i))
            .collect()
    }

    fn intern(&self, i: usize, v: &Value) -> PValue {
        self.intern_as(i, v, false)
    }

    /// [`Self::intern`], a large set of symbolic origin (`closure`) apart.
    fn intern_as(&self, i: usize, v: &Value, closure: bool) -> PValue {
        let pick = |t: &Table| if closure { &t.closures } else { &t.map }.get(v).copied();
        if let Some(k) = pick(&self.tables[i].read().expect("table lock")) {
            return k + 1;
        }
        let mut t = self.tables[i].write().expect("table lock");
        if let Some(k) = pick(&t) {
            return k + 1;
        }
        let k = t.vals.len() as u32;
        t.vals.push(v.clone());
        match closure {
            true => t.closures.insert(v.clone(), k),
            false => t.map.insert(v.clone(), k),
        };
        k + 1
    }

    /// PROPERTIES without solution: ProB counts no state (no transition),
    /// unless its solver may have found one where ours found none:
    /// a conjunct taken as false for a function applied outside its
    /// domain (wd_if_then_else: 2 states), deferred sets (whose size
    /// ProB may infer from the PROPERTIES: DeferredSetMinCard, 15 states;
    /// OpenRecordSimple, 48; not when every size is given: see
    /// `deferred_given`),
    /// or strict inclusions (UnsatTest3_union's `V <<: W`: 2 states).
    fn unsatisfiable(&self, pos: Pos) -> E<()> {
        let why = if self.world.wd_swallowed.load(Ordering::Relaxed) {
            Some("a function applied outside its domain while solving them")
        } else if !self.world.sizes_given {
            Some("deferred sets, whose size ProB may infer")
        } else if self.properties.as_ref().is_some_and(|p| {
            let mut strict = false;
            crate::compile::visit(p, &mut |e| {
                strict |= matches!(
                    e.kind,
                    ExprKind::Bin(BinOp::StrictSubset | BinOp::NotStrictSubset, ..)
                )
            });
            strict
        }) {
            Some("strict inclusions")
        } else {
            None
        };
        match why {
            Some(why) => Err(Fail::Unsupported(
                format!("PROPERTIES without solution, with {why} (ProB may find one)"),
                pos,
            )),
            None => Ok(()),
        }
    }

    /// Whether a constant of `slots` holds a set of over [`LARGE_SET`]
    /// elements (ProB may keep it symbolic).
    fn large_constant(&self, slots: &[Value]) -> bool {
        slots[..self.nconst]
            .iter()
            .any(|v| matches!(v, Value::Set(s) if s.len() > LARGE_SET))
    }

    /// Writes `w` into `t` (a copy of the source of `o`), interning each
    /// large set as a closure or not by its origin, and records the
    /// origins of the large sets `t` holds (see `lazy_sets`): a state
    /// reached with a large set computed in two ways from a `symbolic`
    /// evaluation is unsupported.
    fn place(&self, t: &mut [PValue], w: &Writes, symbolic: bool, o: &Origin, pos: Pos) -> E<()> {
        let mut last: Vec<(usize, &Value)> = Vec::new();
        let mut written: Vec<(usize, Option<usize>)> = Vec::new();
        for (tg, v) in w.iter().rev() {
            if let Target::Slot(i) = *tg {
                if last.iter().any(|x| x.0 == i) {
                    continue;
                }
                last.push((i, v));
                if i >= self.nconst && !self.keeps_maximal(o, i, v) {
                    let large = lazy_sets::is_large(v).then(|| v.as_set().map_or(0, |s| s.len()));
                    written.push((i, large));
                }
            }
        }
        let held = self
            .lazy
            .held(&written, symbolic, &self.explicit_writes[o.group], o);
        for &(i, v) in &last {
            t[i + 1] = match written.iter().any(|x| x.0 == i) || i < self.nconst {
                true => self.intern_as(i, v, lazy_sets::is_closure(&held, i)),
                false => o.state[i + 1],
            };
        }
        self.lazy.record(t, held).map_err(|i| {
            let len = self.decode_slot(t, i).as_set().map_or(0, |s| s.len());
            lazy_sets::conflict(&self.slots[i + 1].name, len, pos)
        })
    }

    /// Whether slot `i` keeps the maximal set `v` the source of `o` held
    /// there, so that ProB's union with it is it (`maximal_sets`): its
    /// value and origin stay those of the source.
    fn keeps_maximal(&self, o: &Origin, i: usize, v: &Value) -> bool {
        let held_there = |k: PValue| {
            let t = self.tables[i].read().expect("table lock");
            t.vals.get((k as usize).wrapping_sub(1)) == Some(v)
        };
        lazy_sets::is_large(v)
            && held_there(o.state[i + 1])
            && crate::maximal_sets::is_maximal(v, &self.world)
    }

    /// [`Self::fail`], the message naming the transition group.
    fn group_error(&self, group: usize, f: Fail) -> ModelError {
        let f = match self.kinds[group] {
            Kind::Op(m, k) => {
                let op = &self.machines[m].operations[k];
                let file = self.world.files.get(usize::from(op.pos.file));
                let event_b = file.is_some_and(|f| crate::is_event_b(f));
                crate::errors_constraint::refused(op, f, event_b, &|c| {
                    self.const_ids.contains(&c)
                        || matches!(
                            self.world.globals.get(c as usize),
                            Some(Some(Global::Symbolic(_)))
                        )
                })
            }
            _ => f,
        };
        let mut e = self.fail(f);
        e.message = format!("{} ({})", e.message, self.groups[group].label);
        e
    }

    pub(crate) fn fail(&self, f: Fail) -> ModelError {
        let (msg, pos, unsup) = match f {
            Fail::Wd(m, p) => (m, p, false),
            Fail::Unsupported(m, p) => (m, p, true),
        };
        let file = self
            .world
            .files
            .get(pos.file as usize)
            .map_or("?", |s| s.as_str());
        let loc = format!("{file}:{}:{}", pos.line, pos.col);
        if unsup {
            ModelError::unsupported(loc, msg)
        } else {
            ModelError::at(loc, msg)
        }
    }

    /// The solutions of the PROPERTIES (constant values in slot order).
    pub(crate) fn setup(&self) -> Result<&Vec<Vec<Value>>, Fail> {
        self.setup_cache
            .get_or_init(|| {
                self.world.wd_swallowed.store(false, Ordering::Relaxed);
                let mut env = Env {
                    w: &self.world,
                    slots: vec![crate::exec::unset(); self.nslots],
                    locals: Vec::new(),
                    local_samples: Vec::new(),
                    symbolic: false,
                };
                let mut sols = Vec::new();
                let mut seen = 0;
                let mut every = Vec::new();
                let truth = Expr {
                    kind: ExprKind::Bool(true),
                    pos: Pos::default(),
                };
                let pred = self.properties.as_ref().unwrap_or(&truth);
                let canon = Canon::of_world(&self.world, &self.const_ids);
                let first = canon
                    .as_ref()
                    .map_or(Vec::new(), |c| c.first(&self.const_ids));
                let plan = self
                    .const_plan
                    .get_or_init(|| {
                        crate::solve::plan_deferring_first(
                            &self.const_ids,
                            pred,
                            &env.w.syms,
                            &first,
                        )
                    })
                    .as_ref()
                    .map_err(|(m, p)| Fail::Unsupported(m.clone(), *p));
                let plan =
                    plan.map_err(|f| crate::solve::closed_wd(f, &self.const_ids, pred, &mut env))?;
                let objective = self.objective.as_ref().map_err(Clone::clone)?;
                if let (Some(o), Some(_)) = (objective, &canon) {
                    return Err(Fail::Unsupported(
                        "MINIMIZE_EXPR/MAXIMIZE_EXPR beside deferred-set symmetry".into(),
                        o.expr.pos,
                    ));
                }
                let mut scores = Vec::new();
                let plan_canon = (plan, canon.as_ref());
                let r = solve_pruned(
                    &self.const_ids,
                    pred,
                    plan_canon,
                    &mut env,
                    true,
                    &mut |env| {
                        let vals = self
                            .const_ids
                            .iter()
                            .map(|&c| env.lookup(c, pred.pos))
                            .collect::<E<Vec<Value>>>()?;
                        seen += 1;
                        crate::deferred_unique::beyond_limit(
                            &self.world.unmodelled_symmetry,
                            seen,
                        )?;
                        if self.world.unmodelled_symmetry.is_some() {
                            every.push(vals.clone());
                        }
                        if self.world.symmetry.keeps(&vals) {
                            if let Some(o) = objective {
                                let v = env.eval(&o.expr);
                                scores.push(crate::library_optimize::score(o, v)?);
                            }
                            sols.push(vals);
                        }
                        Ok(true)
                    },
                );
                r.map_err(|f| crate::solve::closed_wd(f, &self.const_ids, pred, &mut env))
                    .map_err(|f| {
                        crate::solve::false_beside_wd(f, &self.const_ids, pred, &mut env)
                    })?;
                let u = &self.world.unmodelled_symmetry;
                crate::deferred_unique::one_per_orbit(u, &self.world.orbits, &every, &sols)?;
                if let Some(o) = objective {
                    let scored = scores.into_iter().zip(sols).collect();
                    sols = crate::library_optimize::keep_best(o, scored);
                }
                Ok(sols)
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    fn successors(&self, state: &[PValue], group: usize, emit: &mut dyn FnMut(&[PValue])) -> E<()> {
        let phase = state[0];
        let kind = self.kinds[group];
        match kind {
            Kind::Setup => {
                if phase != 0 {
                    return Ok(());
                }
                let sols = self.setup()?;
                let pos = self.properties.as_ref().map_or(Pos::default(), |p| p.pos);
                if sols.is_empty() {
                    // ProB then counts no state (InconsistentPROPERTIES: 0)
                    return self.unsatisfiable(pos);
                }
                for sol in sols {
                    let mut t = vec![0; self.nslots + 1];
                    t[0] = 1;
                    for (i, v) in sol.iter().enumerate() {
                        t[i + 1] = self.intern(i, v);
                    }
                    emit(&t);
                }
                Ok(())
            }
            Kind::Init => self.init_successors(state, emit),
            Kind::Op(m, k) => {
                if phase != 2 {
                    return Ok(());
                }
                self.op_projected(state, group, (m, k), &mut None, emit)
            }
        }
    }

    /// [`Self::op_successors`] through the cache of `fast_projection`,
    /// `decoded` being `state` decoded once needed.
    fn op_projected(
        &self,
        state: &[PValue],
        group: usize,
        op: (usize, usize),
        decoded: &mut Option<Vec<Value>>,
        emit: &mut dyn FnMut(&[PValue]),
    ) -> E<()> {
        let cache = &self.projections;
        let hit = cache.lookup(group, state);
        if let Some(h) = hit.as_ref().filter(|_| !cache.checking()) {
            cache.replay(group, state, h, emit);
            return Ok(());
        }
        let mut rec = cache.recorder(group);
        let slots = decoded.get_or_insert_with(|| self.decode(state));
        let mut emit_rec = |t: &[PValue]| {
            if let Some(r) = rec.as_mut() {
                cache.record(group, state, t, r);
            }
            emit(t)
        };
        let clean = self.op_successors(state, group, op, slots, &mut emit_rec)?;
        if let Some(r) = rec {
            match &hit {
                Some(h) => cache.verify(group, h, &r),
                None => cache.store(group, state, r, clean && self.lazy.none_held()),
            }
        }
        Ok(())
    }

    /// The successors of `state` by operation `op` (machine, index) of
    /// `group`, `slots` being `state` decoded; `slots` is left as it was
    /// found (writes are applied with [`Env::with_writes`], which restores
    /// them), so that [`pins::Model::next_all`] decodes a state once for
    /// all operations. True when no refusal was deferred (see
    /// `errors_provisional`).
    fn op_successors(
        &self,
        state: &[PValue],
        group: usize,
        (m, k): (usize, usize),
        slots: &mut Vec<Value>,
        emit: &mut dyn FnMut(&[PValue]),
    ) -> E<bool> {
        let op = &self.machines[m].operations[k];
        let mut env = Env {
            w: &self.world,
            symbolic: self.large_constant(slots)
                || self.lazy.tainted(state, &self.lazy_reads[group]),
            slots: std::mem::take(slots),
            locals: Vec::new(),
            local_samples: Vec::new(),
        };
        let allowed = crate::errors_provisional::allowed(&self.world, op);
        let (r, deferred) = crate::errors_provisional::within(allowed, || {
            let r = lazy_sets::in_transition(|| {
                self.op_successors_in(state, group, op, &mut env, emit)
            });
            crate::errors_provisional::skip_unmodelled(r)
        });
        let (r, skipped) = r;
        let deferred = deferred.or(skipped);
        let clean = deferred.is_none();
        if let Some(f) = deferred {
            let _ = self.provisional.set(f);
        }
        *slots = env.slots;
        r.map(|()| clean)
    }

    fn op_successors_in(
        &self,
        state: &[PValue],
        group: usize,
        op: &Operation,
        env: &mut Env,
        emit: &mut dyn FnMut(&[PValue]),
    ) -> E<()> {
        for &o in &op.outs {
            env.locals.push((o, crate::exec::unset_result()));
        }
        let mut seen: FxHashSet<(Vec<Value>, Vec<Value>, Vec<PValue>)> = FxHashSet::default();
        let mut run = |env: &mut Env, params: Vec<Value>, body: &Subst| -> E<()> {
            let outs = env.exec(body, self)?;
            for w in outs {
                let mut t = state.to_vec();
                let mut results = Vec::with_capacity(op.outs.len());
                let o = Origin {
                    group,
                    params: &params,
                    state,
                    reads: &self.lazy_reads[group],
                };
                self.place(&mut t, &w, env.symbolic, &o, op.pos)?;
                for &o in &op.outs {
                    let v = w
                        .iter()
                        .rev()
                        .find(|(tg, _)| *tg == Target::Local(o))
                        .map(|(_, v)| v.clone())
                        .unwrap_or_else(crate::exec::unset);
                    results.push(v);
                }
                let key = (params.clone(), results, t);
                if !seen.contains(&key) {
                    if seen.len() >= TRANSITIONS_HELD {
                        return Err(Fail::Unsupported(
                            format!(
                                "more than {TRANSITIONS_HELD} transitions of {} from one state \
                                 (parameter values times outcomes)",
                                self.world.syms.name(op.name)
                            ),
                            op.pos,
                        ));
                    }
                    emit(&key.2);
                    seen.insert(key);
                }
            }
            Ok(())
        };
        let (guard, body) = split_guard(op);
        let any_ids = self.shown_any(op);
        if op.params.is_empty() && any_ids.is_empty() {
            if let Some(g) = guard {
                if !guard_holds(env, g)? {
                    return Ok(());
                }
            }
            return run(env, Vec::new(), body);
        }
        let Some((ids, guard, body)) = param_binder(op) else {
            return Err(Fail::Unsupported(
                "operation parameters not typed by a top-level PRE, SELECT or ANY".into(),
                op.pos,
            ));
        };
        let by = match crate::errors_provisional::active() {
            true => crate::errors_provisional::plan_params,
            false => crate::solve::plan,
        };
        let plan = env.plan_by(&self.param_plans[group], &ids, guard, by)?;
        crate::errors_provisional::note(plan);
        if crate::errors_provisional::active() {
            crate::solve::prob_order(&ids, guard, env)?;
        }
        solve(&ids, guard, plan, env, true, &mut |env| {
            let params = op
                .params
                .iter()
                .chain(any_ids)
                .map(|&p| env.lookup(p, op.pos))
                .collect::<E<Vec<_>>>()?;
            run(env, params, body)?;
            Ok(true)
        })?;
        Ok(())
    }

    /// The identifiers of `op`'s top-level ANY when their values are part
    /// of its transitions (`SET_PREF_SHOW_EVENTB_ANY_VALUES`).
    fn shown_any<'o>(&self, op: &'o Operation) -> &'o [Sym] {
        match &op.body.kind {
            SubstKind::Any { ids, .. } if self.world.any_values => ids,
            _ => &[],
        }
    }

    /// INITIALISATION successors of `state` (the root or a constants state).
    fn init_successors(&self, state: &[PValue], emit: &mut dyn FnMut(&[PValue])) -> E<()> {
        if state[0] != u32::from(matches!(self.kinds[0], Kind::Setup)) {
            return Ok(());
        }
        let mut state = state.to_vec();
        if self.world.symmetry.all_fixed {
            self.fix_constants(&mut state)?;
        }
        let state = &state[..];
        let slots = self.decode(state);
        let group = usize::from(matches!(self.kinds[0], Kind::Setup));
        let o = Origin {
            group,
            params: &[],
            state,
            reads: &self.lazy_reads[group],
        };
        let mut env = Env {
            w: &self.world,
            symbolic: self.large_constant(&slots) || self.lazy.tainted(state, o.reads),
            slots,
            locals: Vec::new(),
            local_samples: Vec::new(),
        };
        let inits: Vec<&Subst> = self
            .machines
            .iter()
            .filter_map(|m| m.init.as_ref())
            .collect();
        let outs = lazy_sets::in_transition(|| self.exec_list(&mut env, &inits))?;
        if outs.is_empty() && matches!(self.kinds[0], Kind::Setup) {
            // ProB reports a constants state from which the
            // INITIALISATION has no solution as an error; without
            // constants it counts no state (FailingInit5: 0 / 0)
            return Err(Fail::Wd(
                "INITIALISATION has no solution (initialisation fails)".into(),
                inits.first().map_or(Pos::default(), |s| s.pos),
            ));
        }
        let pos = inits.first().map_or(Pos::default(), |s| s.pos);
        let mut seen: FxHashSet<Vec<PValue>> = FxHashSet::default();
        for w in outs {
            let mut t = state.to_vec();
            t[0] = 2;
            let mut written = vec![false; self.nslots];
            for (tg, _) in &w {
                if let Target::Slot(i) = tg {
                    written[*i] = true;
                }
            }
            self.place(&mut t, &w, env.symbolic, &o, pos)?;
            if let Some(i) = (self.nconst..self.nslots).find(|&i| !written[i]) {
                return Err(Fail::Wd(
                    format!("variable {} not initialised", self.slots[i + 1].name),
                    self.machines.last().map_or(Pos::default(), |m| m.pos),
                ));
            }
            if seen.insert(t.clone()) {
                emit(&t);
            }
        }
        Ok(())
    }

    /// The constants ProB fixes as deferred-set elements (no
    /// SETUP_CONSTANTS step, see `symmetry`) written into `state`: the
    /// PROPERTIES must then have exactly one solution.
    fn fix_constants(&self, state: &mut [PValue]) -> E<()> {
        let pos = self.properties.as_ref().map_or(Pos::default(), |p| p.pos);
        match self.setup()?.as_slice() {
            [sol] => {
                for (i, v) in sol.iter().enumerate() {
                    state[i + 1] = self.intern(i, v);
                }
                Ok(())
            }
            sols => Err(Fail::Unsupported(
                format!(
                    "PROPERTIES with {} solutions for constants ProB fixes as deferred-set elements",
                    sols.len()
                ),
                pos,
            )),
        }
    }

    fn exec_list(&self, env: &mut Env, list: &[&Subst]) -> E<Vec<Writes>> {
        let Some((first, rest)) = list.split_first() else {
            return Ok(vec![Vec::new()]);
        };
        let outs = env.exec(first, self)?;
        if rest.is_empty() {
            return Ok(outs);
        }
        let mut all = Vec::new();
        for w in outs {
            let tails = env.with_writes(&w, |env| self.exec_list(env, rest))?;
            for t in tails {
                let mut w2 = w.clone();
                w2.extend(t);
                all.push(crate::exec::compact(w2));
            }
        }
        Ok(all)
    }
}

impl pins::Model for BModel {
    pins::describe_model!("b", name, slots, procs, groups);

    fn initial_state(&self) -> Vec<PValue> {
        vec![0; self.nslots + 1]
    }
    fn next(&self, state: &[PValue], group: usize, emit: &mut pins::Emit) -> pins::Step {
        self.within_scope(state, emit, |emit| self.successors(state, group, emit))
            .map_err(|f| self.group_error(group, f))
    }
    /// As the default (groups in order, stopping at the first error), but
    /// decodes an initialised state once for all operations.
    fn next_all(&self, state: &[PValue], emit: &mut dyn FnMut(usize, &[PValue])) -> pins::Step {
        if self.world.scope.is_some() {
            for g in 0..self.groups.len() {
                self.next(state, g, &mut |t| emit(g, t))?;
            }
            return Ok(());
        }
        let mut decoded: Option<Vec<Value>> = None;
        for g in 0..self.groups.len() {
            let mut emit_g = |t: &[PValue]| emit(g, t);
            let r = match self.kinds[g] {
                Kind::Op(m, k) if state[0] == 2 => {
                    self.op_projected(state, g, (m, k), &mut decoded, &mut emit_g)
                }
                _ => self.successors(state, g, &mut emit_g),
            };
            r.map_err(|f| self.group_error(g, f))?;
        }
        Ok(())
    }
    fn complete(&self) -> pins::Step {
        match self.provisional.get() {
            Some(f) => Err(self.fail(crate::errors_provisional::at_end(f))),
            None => Ok(()),
        }
    }
}

impl std::fmt::Debug for BModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BModel")
            .field("name", &self.name)
            .field("slots", &self.slots.len())
            .field("groups", &self.groups.len())
            .finish()
    }
}

/// The most distinct transitions of one operation from one state that
/// are held while they are merged (each is kept to recognise repeats):
/// beyond it the operation is refused rather than memory exhausted
/// (B/BZTT/DAB: 9000^4 parameter combinations). No state of ProB's
/// examples has more than about 125,000 outgoing transitions.
const TRANSITIONS_HELD: usize = 1 << 18;

/// A top-level guard, conjunct by conjunct (see [`Env::holds_guard`]).
fn guard_holds(env: &mut Env, g: &Expr) -> E<bool> {
    for c in crate::solve::conjuncts(g) {
        if !env.holds_guard(c)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The identifiers a substitution mentions (`ids`) and the variables it
/// assigns (`assigned`), through the operations it calls (each once).
struct IdentCollector<'a> {
    model: &'a BModel,
    ids: &'a mut Vec<Sym>,
    assigned: &'a mut Vec<Sym>,
    calls: &'a mut FxHashSet<Sym>,
}

impl SubstVisitor for IdentCollector<'_> {
    type Err = std::convert::Infallible;
    fn expr(&mut self, e: &Expr, role: Role) -> Result<(), Self::Err> {
        idents(e, self.ids);
        match role {
            Role::Target => {
                let mut base = e;
                while let ExprKind::Apply(f, _) | ExprKind::Field(f, _) = &base.kind {
                    base = f;
                }
                if let ExprKind::Ident(s) = base.kind {
                    self.assigned.push(s);
                }
            }
            Role::Output => {
                if let ExprKind::Ident(s) = e.kind {
                    self.assigned.push(s);
                }
            }
            Role::Read | Role::Label => {}
        }
        Ok(())
    }
    fn becomes(&mut self, ids: &[Sym]) {
        self.assigned.extend(ids);
        self.ids.extend(ids);
    }
    /// The abstract action is only read: what it assigns is not written.
    fn simulated(&mut self, action: &Subst) -> Result<(), Self::Err> {
        let kept = std::mem::take(self.assigned);
        let walked = walk_subst(action, self);
        *self.assigned = kept;
        walked
    }
    fn call(&mut self, name: Sym) -> Result<(), Self::Err> {
        if self.calls.insert(name) {
            if let Some(op) = self.model.operation(name) {
                walk_subst(&op.body, self)?;
            }
        }
        Ok(())
    }
}
