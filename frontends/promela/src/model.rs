//! The executable Promela model ([`PromelaModel`]): state-vector layout,
//! expression evaluation with SPIN's C-like semantics and truncation on
//! store, statement execution, rendezvous, atomic continuation and process
//! creation and deletion. Owns exploration-time semantics only; names,
//! automata and groups are built by `compile`.
//!
//! Arithmetic is SPIN's: `pan` evaluates every expression as C on `int`
//! (SPIN 6.5.2 `pangen2.c` prints Promela operators as the C operators;
//! checked against `spin -a` + `gcc -O0` on x86-64), so:
//! - `+`, `-`, `*` and unary `-` wrap in 32 bits (signed overflow is
//!   undefined in C; gcc's code, and so pan, wraps);
//! - `/` and `%` by zero, and `INT_MIN / -1` and `INT_MIN % -1`, are
//!   model errors: undefined in C, and pan dies of SIGFPE on each;
//! - a shift by a negative count or by 32 or more is a model error:
//!   undefined in C (C11 6.5.7), pan's result depends on the compiler and
//!   the CPU (x86 masks the count to 5 bits);
//! - `>>` of a negative value is arithmetic (gcc's choice for C's
//!   implementation-defined case);
//! - a store converts to the variable's type as C does ([`truncate`]:
//!   `byte` is `unsigned char`, `short` is `short`, `bit`/`bool` and
//!   `unsigned : w` are bit-fields), silently, as pan does.

use crate::code::{code_of, Code, Env};
use crate::compile::{
    group_sets, groups_of, type_bits, Act, Automaton, CExpr, CRecv, Chan, ChanRef, GroupKind,
    Place, ProcType, Tr, Var, VarRef,
};
use crate::dispatch::Dispatch;
use crate::guard::{Guard, Scope, Verdict};
use crate::ops::{BinOp, ChanFn, UnOp};
use crate::parse::{BaseType, Pos};
use crate::residual::Residual;
use crate::steps::{with_steps, Steps};
use pins::{Model, ModelError, Slot, TransitionGroup, Value};
use rustc_hash::FxHashMap;
use std::collections::BTreeSet;

/// Truncates `v` to a variable of type `ty` and encodes it as a slot value
/// (SPIN stores `bit`/`bool` in one bit, `byte` as `unsigned char`, `short`
/// as `short`, `unsigned : w` in `w` bits; `short` is kept as its 16-bit
/// pattern).
pub fn truncate(ty: BaseType, v: i32) -> u32 {
    match ty {
        BaseType::Bit | BaseType::Bool => (v & 1) as u32,
        BaseType::Byte | BaseType::Mtype | BaseType::Pid | BaseType::Chan => (v & 0xff) as u32,
        BaseType::Short => v as u16 as u32,
        BaseType::Int => v as u32,
        BaseType::Unsigned(w) if w >= 32 => v as u32,
        BaseType::Unsigned(w) => (v as u32) & ((1u32 << w) - 1),
    }
}

/// The value a slot holds for a variable of type `ty` (`short` sign-extended).
#[inline]
pub(crate) fn load(ty: BaseType, raw: u32) -> i32 {
    match ty {
        BaseType::Short => raw as u16 as i16 as i32,
        _ => raw as i32,
    }
}

/// Everything `compile` hands over.
pub(crate) struct Parts {
    pub name: String,
    pub file: String,
    pub globals: Vec<Var>,
    pub chans: Vec<Chan>,
    pub ptypes: Vec<ProcType>,
    pub initial: Vec<usize>,
    pub hosts: Vec<BTreeSet<usize>>,
    pub slots: Vec<Slot>,
    pub init: Vec<u32>,
}

/// A Promela model presented through [`pins::Model`] (formalism `promela`).
pub struct PromelaModel {
    name: String,
    file: String,
    pub(crate) globals: Vec<Var>,
    pub(crate) chans: Vec<Chan>,
    pub(crate) ptypes: Vec<ProcType>,
    pub(crate) hosts: Vec<BTreeSet<usize>>,
    /// First slot (`_t`, then `_p`, then locals) of each process slot (pid).
    pub(crate) proc_base: Vec<usize>,
    pub(crate) proc_len: Vec<usize>,
    pub(crate) slots: Vec<Slot>,
    init: Vec<u32>,
    process_names: Vec<String>,
    kinds: Vec<GroupKind>,
    groups: Vec<TransitionGroup>,
    rv_group: FxHashMap<(usize, usize, usize, usize), usize>,
    /// The transitions leaving each location, per proctype.
    dispatch: Vec<Dispatch>,
}

/// Results inside the model: the error boxed, so that a result fits in
/// registers (evaluation returns one per expression node).
pub(crate) type Res<T> = Result<T, Box<ModelError>>;

/// Bound on the steps of one atomic continuation or d_step.
const MAX_CHAIN: usize = 1_000_000;

pub(crate) fn build(p: Parts) -> Result<PromelaModel, crate::PromelaError> {
    let mut slots = p.slots;
    let mut init = p.init;
    let mut proc_base = Vec::new();
    let mut proc_len = Vec::new();
    let mut process_names = Vec::new();
    let tbits = (usize::BITS - p.ptypes.len().leading_zeros()).max(1);
    for (pid, h) in p.hosts.iter().enumerate() {
        let nl = h
            .iter()
            .map(|&t| p.ptypes[t].nlocal_slots)
            .max()
            .unwrap_or(0);
        let nlocs = h
            .iter()
            .map(|&t| p.ptypes[t].auto.locs.len())
            .max()
            .unwrap_or(1);
        let pname = if h.len() == 1 {
            let t = *h.iter().next().unwrap_or(&0);
            let same = p
                .hosts
                .iter()
                .filter(|o| o.len() == 1 && o.contains(&t))
                .count();
            if same > 1 {
                format!("{}[{pid}]", p.ptypes[t].name)
            } else {
                p.ptypes[t].name.clone()
            }
        } else {
            format!("pid{pid}")
        };
        proc_base.push(slots.len());
        proc_len.push(2 + nl);
        slots.push(Slot {
            name: format!("{pname}._t"),
            process: Some(pid),
            bits: tbits,
        });
        slots.push(Slot {
            name: format!("{pname}.pc"),
            process: Some(pid),
            bits: (usize::BITS - (nlocs.max(2) - 1).leading_zeros()).max(1),
        });
        for k in 0..nl {
            // name the local when the slot hosts one proctype
            let mut nm = format!("{pname}.local{k}");
            let mut bits = 32;
            if h.len() == 1 {
                let t = &p.ptypes[*h.iter().next().unwrap_or(&0)];
                for (v, _) in &t.locals {
                    if let Some(at) = v.at {
                        if (at..at + v.len).contains(&k) {
                            nm = if v.is_array {
                                format!("{pname}.{}[{}]", v.name, k - at)
                            } else {
                                format!("{pname}.{}", v.name)
                            };
                            bits = type_bits(v.ty);
                        }
                    }
                }
            }
            slots.push(Slot {
                name: nm,
                process: Some(pid),
                bits,
            });
        }
        init.extend(std::iter::repeat_n(0, 2 + nl));
        process_names.push(pname);
    }
    let kinds = groups_of(&p.ptypes, &p.chans);
    let mut m = PromelaModel {
        name: p.name,
        file: p.file,
        globals: p.globals,
        chans: p.chans,
        ptypes: p.ptypes,
        hosts: p.hosts,
        proc_base,
        proc_len,
        slots,
        init,
        process_names,
        kinds: Vec::new(),
        groups: Vec::new(),
        rv_group: FxHashMap::default(),
        dispatch: Vec::new(),
    };
    for t in &mut m.ptypes {
        let scope = Scope {
            globals: &m.globals,
            locals: &t.locals,
        };
        for tr in &mut t.auto.trans {
            tr.guard = Guard::of(&tr.act, &scope);
            tr.rv =
                matches!(&tr.act, Act::Send(c, _) | Act::Recv(c, _) if m.chans[c.base].cap == 0);
        }
        compile_codes(&mut t.auto);
        for tr in &mut t.auto.trans {
            let checked = tr.guard.conjunction().map_or(0, <[_]>::len);
            let whole = match &tr.code {
                Code::Cond(f) | Code::DStep { guard: Some(f), .. } => Some(f),
                _ => None,
            };
            tr.residual = Residual::of(&tr.act, checked, whole);
        }
    }
    // the group of each non-rendezvous transition, per proctype
    let mut step_group: Vec<Vec<usize>> = (m.ptypes.iter())
        .map(|t| vec![usize::MAX; t.auto.trans.len()])
        .collect();
    for (g, k) in kinds.iter().enumerate() {
        match *k {
            GroupKind::Step { ptype, tr } => {
                step_group[ptype][tr] = g;
                None
            }
            GroupKind::Rendezvous {
                sptype,
                str,
                rptype,
                rtr,
            } => m.rv_group.insert((sptype, str, rptype, rtr), g),
        };
    }
    m.dispatch = (m.ptypes.iter().zip(&step_group))
        .map(|(t, g)| Dispatch::of(&t.auto, g))
        .collect();
    m.groups = kinds.iter().map(|k| group_sets(&m, k)).collect();
    m.kinds = kinds;
    // the initial processes, created in declaration order
    let mut st = m.init.clone();
    for &t in &p.initial {
        m.create(&mut st, t, &[]).map_err(|e| {
            crate::PromelaError::new(crate::ErrorKind::Semantic, &m.file, e.to_string())
        })?;
    }
    m.init = st;
    Ok(m)
}

/// Compiles every transition of `auto` and of its `d_step` bodies.
fn compile_codes(auto: &mut Automaton) {
    for tr in &mut auto.trans {
        if let Act::DStep(body) = &mut tr.act {
            compile_codes(body);
        }
        tr.code = code_of(&tr.act, tr.pos);
    }
}

#[cfg(test)]
#[path = "guard_tests.rs"]
mod guard_tests;

#[cfg(test)]
#[path = "code_tests.rs"]
mod code_tests;

#[cfg(test)]
#[path = "residual_tests.rs"]
mod residual_tests;

impl PromelaModel {
    fn loc(&self, pos: Pos) -> String {
        format!("{}:{}:{}", self.file, pos.line, pos.col)
    }

    fn ptype_of(&self, st: &[u32], pid: usize) -> Option<usize> {
        match st[self.proc_base[pid]] {
            0 => None,
            t => Some(t as usize - 1),
        }
    }

    fn nr_pr(&self, st: &[u32]) -> usize {
        (0..self.proc_base.len())
            .take_while(|&p| st[self.proc_base[p]] != 0)
            .count()
    }

    /// The type of `v` and its slot for process `pid` in `st` (`None` when
    /// hidden); the index, if any, is evaluated and checked.
    #[inline]
    fn var(&self, st: &[u32], pid: usize, v: &VarRef) -> Res<(BaseType, Option<usize>)> {
        let k = match &v.idx {
            Some(e) => {
                let i = self.eval(st, pid, e)?;
                if i < 0 || i as usize >= v.len {
                    return Err(self.index_error(st, pid, v, i));
                }
                i as usize
            }
            None => 0,
        };
        let slot = v.at.map(|at| match v.place {
            Place::Global(_) => at + k,
            Place::Local(_) => self.proc_base[pid] + 2 + at + k,
        });
        Ok((v.ty, slot))
    }

    #[cold]
    fn index_error(&self, st: &[u32], pid: usize, v: &VarRef, i: i32) -> Box<ModelError> {
        let name = match v.place {
            Place::Global(g) => self.globals[g].name.as_str(),
            Place::Local(l) => self
                .ptype_of(st, pid)
                .map_or("?", |t| self.ptypes[t].locals[l].0.name.as_str()),
        };
        Box::new(ModelError::at(
            self.loc(v.pos),
            format!("index {i} out of range for '{name}[{}]'", v.len),
        ))
    }

    /// The buffered channel `c` names, its first slot and its length; a
    /// rendezvous channel (only inside `d_step`) is a model error.
    fn buffer(&self, st: &[u32], pid: usize, c: &ChanRef, pos: Pos) -> Res<(&Chan, usize, usize)> {
        let ch = &self.chans[self.chan_id(st, pid, c)?];
        let s = ch
            .slot
            .ok_or_else(|| ModelError::at(self.loc(pos), "rendezvous inside d_step"))?;
        Ok((ch, s, st[s] as usize))
    }

    fn chan_id(&self, st: &[u32], pid: usize, c: &ChanRef) -> Res<usize> {
        match &c.idx {
            None => Ok(c.base),
            Some(e) => {
                let i = self.eval(st, pid, e)?;
                if i < 0 || i as usize >= c.len {
                    return Err(Box::new(ModelError::at(
                        self.loc(c.pos),
                        format!("channel index {i} out of range"),
                    )));
                }
                Ok(c.base + i as usize)
            }
        }
    }

    /// The value of `e` for process `pid` in `st`. Constants and scalar
    /// variables, half of the nodes met, are read here without a call.
    #[inline]
    pub(crate) fn eval(&self, st: &[u32], pid: usize, e: &CExpr) -> Res<i32> {
        match e {
            CExpr::Const(c) => Ok(*c),
            CExpr::Var(v) if v.idx.is_none() => self.scalar(st, pid, v),
            _ => self.eval_node(st, pid, e),
        }
    }

    /// The value of a variable without index (`var` with index 0).
    #[inline]
    fn scalar(&self, st: &[u32], pid: usize, v: &VarRef) -> Res<i32> {
        Ok(match (v.at, &v.place) {
            (None, _) => 0,
            (Some(at), Place::Global(_)) => load(v.ty, st[at]),
            (Some(at), Place::Local(_)) => load(v.ty, st[self.proc_base[pid] + 2 + at]),
        })
    }

    fn eval_node(&self, st: &[u32], pid: usize, e: &CExpr) -> Res<i32> {
        Ok(match e {
            CExpr::Const(c) => *c,
            CExpr::Var(v) => {
                let (ty, slot) = self.var(st, pid, v)?;
                match slot {
                    Some(s) => load(ty, st[s]),
                    None => 0,
                }
            }
            CExpr::Unary(op, a) => {
                let a = self.eval(st, pid, a)?;
                match op {
                    UnOp::Neg => a.wrapping_neg(),
                    UnOp::BitNot => !a,
                    UnOp::Not => (a == 0) as i32,
                }
            }
            CExpr::Binary(op, a, b, pos) => {
                let x = self.eval(st, pid, a)?;
                match op {
                    BinOp::And if x == 0 => return Ok(0),
                    BinOp::Or if x != 0 => return Ok(1),
                    _ => {}
                }
                let y = self.eval(st, pid, b)?;
                op.apply(x, y)
                    .map_err(|m| ModelError::at(self.loc(*pos), m))?
            }
            CExpr::Cond(c, a, b) => {
                if self.eval(st, pid, c)? != 0 {
                    self.eval(st, pid, a)?
                } else {
                    self.eval(st, pid, b)?
                }
            }
            CExpr::ChanFn(f, c) => {
                let ch = &self.chans[self.chan_id(st, pid, c)?];
                let len = ch.slot.map_or(0, |s| st[s] as usize);
                (match f {
                    ChanFn::Len => return Ok(len as i32),
                    ChanFn::Empty => len == 0,
                    ChanFn::NEmpty => len != 0,
                    ChanFn::Full => len == ch.cap,
                    ChanFn::NFull => len != ch.cap,
                }) as i32
            }
            CExpr::Pid => pid as i32,
            CExpr::NrPr => self.nr_pr(st) as i32,
        })
    }

    fn store(&self, st: &mut [u32], pid: usize, v: &VarRef, val: i32) -> Res<()> {
        let (ty, slot) = self.var(st, pid, v)?;
        if let Some(s) = slot {
            st[s] = truncate(ty, val);
        }
        Ok(())
    }

    /// Creates a process of proctype `t` in the first free process slot.
    fn create(&self, st: &mut [u32], t: usize, args: &[i32]) -> Res<usize> {
        let pid = self.nr_pr(st);
        if pid >= self.proc_base.len() || !self.hosts[pid].contains(&t) {
            return Err(Box::new(ModelError::new(format!(
                "process slot {pid} cannot hold a new '{}' (creation analysis)",
                self.ptypes[t].name
            ))));
        }
        let pt = &self.ptypes[t];
        let b = self.proc_base[pid];
        st[b] = t as u32 + 1;
        st[b + 1] = pt.auto.start as u32;
        for (i, (v, init)) in pt.locals.iter().enumerate() {
            let val = if i < pt.nparams {
                args.get(i).copied().unwrap_or(0)
            } else {
                match init {
                    Some(e) => self.eval(st, pid, e)?,
                    None => 0,
                }
            };
            if let Some(at) = v.at {
                for k in 0..v.len {
                    st[b + 2 + at + k] = truncate(v.ty, val);
                }
            }
        }
        Ok(pid)
    }

    /// Executes transition `tr` as [`PromelaModel::exec`] does, through its
    /// compiled form when it has one.
    #[inline]
    fn run_tr(&self, st: &mut [u32], pid: usize, tr: &Tr) -> Res<bool> {
        self.fire(st, pid, tr, false)
    }

    /// [`PromelaModel::run_tr`], the guard of a compiled `d_step` already
    /// known to hold when `guarded`.
    fn fire(&self, st: &mut [u32], pid: usize, tr: &Tr, guarded: bool) -> Res<bool> {
        match &tr.code {
            Code::Interpreted => self.exec(st, pid, &tr.act, tr.pos),
            Code::Cond(f) => Ok(f(st, &self.env(pid))? != 0),
            Code::Stmt(f) => f(st, &self.env(pid)),
            Code::DStep { guard, body, pos } => {
                let env = self.env(pid);
                if let Some(g) = guard.as_ref().filter(|_| !guarded) {
                    if g(st, &env)? == 0 {
                        return Ok(false);
                    }
                }
                for f in body.iter() {
                    if !f(st, &env)? {
                        return Err(self.dstep_blocked(*pos));
                    }
                }
                Ok(true)
            }
        }
    }

    #[cold]
    fn dstep_blocked(&self, pos: Pos) -> Box<ModelError> {
        Box::new(ModelError::at(
            self.loc(pos),
            "d_step blocks after its first statement",
        ))
    }

    /// Whether condition `tr` (or the guard of a compiled `d_step`) holds
    /// in `st`; true for any other transition.
    #[inline]
    fn holds(&self, st: &[u32], pid: usize, tr: &Tr) -> Res<bool> {
        Ok(match (&tr.code, &tr.act) {
            (Code::Cond(f), _) | (Code::DStep { guard: Some(f), .. }, _) => {
                f(st, &self.env(pid))? != 0
            }
            (_, Act::Cond(e)) => self.eval(st, pid, e)? != 0,
            _ => true,
        })
    }

    /// Whether `tr` can fire as far as its condition goes, the dispatch
    /// having found its guard's comparisons true: its residual when it has
    /// one, else `holds`.
    #[inline(always)]
    fn open(&self, st: &[u32], pid: usize, tr: &Tr) -> Res<bool> {
        match tr.residual.holds(st, &self.env(pid)) {
            Some(r) => r,
            None => self.holds(st, pid, tr),
        }
    }

    fn env(&self, pid: usize) -> Env<'_> {
        Env {
            model: self,
            pid,
            locals: self.proc_base[pid] + 2,
        }
    }

    /// Resets the dead locals of a step (SPIN's dataflow optimisation).
    fn reset_dead(&self, st: &mut [u32], pid: usize, tr: &Tr) {
        if tr.dead.is_empty() {
            return;
        }
        let Some(t) = self.ptype_of(st, pid) else {
            return;
        };
        for &u in &tr.dead {
            if let Some(at) = self.ptypes[t].locals[u].0.at {
                st[self.proc_base[pid] + 2 + at] = 0;
            }
        }
    }

    /// Executes the statements merged into `tr` (never blocking: SPIN only
    /// merges assignments and assertions).
    fn run_chain(&self, st: &mut [u32], pid: usize, auto: &Automaton, tr: &Tr) -> Res<()> {
        for &c in &tr.chain {
            let m = &auto.trans[c];
            if !self.run_tr(st, pid, m)? {
                return Err(Box::new(ModelError::at(
                    self.loc(m.pos),
                    "merged statement blocked",
                )));
            }
            self.reset_dead(st, pid, m);
        }
        Ok(())
    }

    fn is_rv(&self, c: &ChanRef) -> bool {
        self.chans[c.base].cap == 0
    }

    /// Executes a non-rendezvous, non-else action on `st` (in place) if it
    /// is executable; returns whether it was. An action that is not
    /// executable leaves `st` unchanged (each checks before it writes), so
    /// callers try actions on the state itself, never on a copy.
    pub(crate) fn exec(&self, st: &mut [u32], pid: usize, act: &Act, pos: Pos) -> Res<bool> {
        match act {
            Act::Cond(e) => Ok(self.eval(st, pid, e)? != 0),
            Act::Assign(v, e) => {
                let x = self.eval(st, pid, e)?;
                self.store(st, pid, v, x)?;
                Ok(true)
            }
            Act::Incr(v, d) => {
                let (ty, slot) = self.var(st, pid, v)?;
                if let Some(s) = slot {
                    st[s] = truncate(ty, load(ty, st[s]).wrapping_add(*d));
                }
                Ok(true)
            }
            Act::Skip | Act::Else => Ok(true),
            Act::Assert(e) => {
                if self.eval(st, pid, e)? == 0 {
                    return Err(Box::new(ModelError::at(
                        self.loc(pos),
                        "assertion violated",
                    )));
                }
                Ok(true)
            }
            Act::Send(c, args) => self.send(st, pid, c, args, pos),
            Act::Recv(c, args) => self.receive(st, pid, c, args, pos),
            Act::Run(t, args) => {
                if self.nr_pr(st) >= self.proc_base.len() {
                    return Err(Box::new(ModelError::at(
                        self.loc(pos),
                        "too many processes",
                    )));
                }
                let vals = args
                    .iter()
                    .map(|a| self.eval(st, pid, a))
                    .collect::<Res<Vec<_>>>()?;
                self.create(st, *t, &vals)?;
                Ok(true)
            }
            Act::End => {
                if pid + 1 != self.nr_pr(st) {
                    return Ok(false);
                }
                let b = self.proc_base[pid];
                st[b..b + self.proc_len[pid]].fill(0);
                Ok(true)
            }
            Act::DStep(auto) => self.dstep(st, pid, auto, pos),
        }
    }

    /// A send on a buffered channel: blocks when it is full. The values are
    /// written as they are computed: an expression cannot read the slots
    /// past the channel's length, nor the length, which changes last.
    fn send(&self, st: &mut [u32], pid: usize, c: &ChanRef, args: &[CExpr], pos: Pos) -> Res<bool> {
        let (ch, s, n) = self.buffer(st, pid, c, pos)?;
        if n == ch.cap {
            return Ok(false);
        }
        let w = ch.fields.len();
        for (f, a) in args.iter().enumerate() {
            let v = self.eval(st, pid, a)?;
            st[s + 1 + n * w + f] = truncate(ch.fields[f], v);
        }
        st[s] += 1;
        Ok(true)
    }

    /// A receive from a buffered channel: blocks when it is empty or its
    /// head does not match; else shifts the queue, then stores the fields.
    fn receive(
        &self,
        st: &mut [u32],
        pid: usize,
        c: &ChanRef,
        args: &[CRecv],
        pos: Pos,
    ) -> Res<bool> {
        let (ch, s, n) = self.buffer(st, pid, c, pos)?;
        if n == 0 {
            return Ok(false);
        }
        let w = ch.fields.len();
        let field = |st: &[u32], f: usize| load(ch.fields[f], st[s + 1 + f]);
        for (f, a) in args.iter().enumerate().take(w) {
            if let CRecv::Match(e) = a {
                if self.eval(st, pid, e)? != field(st, f) {
                    return Ok(false);
                }
            }
        }
        let (mut small, mut large) = ([0i32; 8], Vec::new());
        let head: &mut [i32] = if w <= small.len() {
            &mut small[..w]
        } else {
            large.resize(w, 0);
            &mut large
        };
        for (f, h) in head.iter_mut().enumerate() {
            *h = field(st, f);
        }
        st.copy_within(s + 1 + w..s + 1 + n * w, s + 1);
        st[s + 1 + (n - 1) * w..s + 1 + n * w].fill(0);
        st[s] -= 1;
        for (a, &v) in args.iter().zip(head.iter()) {
            if let CRecv::Var(r) = a {
                self.store(st, pid, r, v)?;
            }
        }
        Ok(true)
    }

    /// Runs a d_step body as one indivisible step: at each location the first
    /// executable statement (else: when no other is) is taken. Works on `st`
    /// itself: a blocked first statement leaves it unchanged, a block later
    /// is a model error.
    fn dstep(&self, st: &mut [u32], pid: usize, auto: &Automaton, pos: Pos) -> Res<bool> {
        let mut loc = auto.start;
        let mut steps = 0;
        while Some(loc) != auto.end {
            let mut moved = None;
            for &k in &auto.locs[loc] {
                let tr = &auto.trans[k];
                if matches!(tr.act, Act::Send(ref c, _) | Act::Recv(ref c, _) if self.is_rv(c)) {
                    return Err(Box::new(ModelError::at(
                        self.loc(tr.pos),
                        "rendezvous inside d_step",
                    )));
                }
                if matches!(tr.act, Act::Else) || self.run_tr(st, pid, tr)? {
                    moved = Some(tr.to);
                    break;
                }
            }
            match moved {
                Some(to) => loc = to,
                None if steps == 0 => return Ok(false),
                None => return Err(self.dstep_blocked(pos)),
            }
            steps += 1;
            if steps > MAX_CHAIN {
                return Err(Box::new(ModelError::at(
                    self.loc(pos),
                    "d_step does not terminate",
                )));
            }
        }
        Ok(true)
    }

    /// Whether transition `tr` of process `pid` can fire in `st`.
    fn executable(&self, st: &[u32], pid: usize, t: usize, tr: &Tr) -> Res<bool> {
        match &tr.act {
            Act::Send(c, _) if self.is_rv(c) => with_steps(st.len(), |out| {
                self.rendezvous(st, pid, t, tr, None, None, out)?;
                Ok(!out.is_empty())
            }),
            Act::Recv(c, _) if self.is_rv(c) => self.receive_matched(st, pid, t),
            Act::Else => Ok(true),
            Act::Cond(_) => self.holds(st, pid, tr),
            _ => with_steps(st.len(), |out| {
                let n = out.candidate(st);
                self.run_tr(n, pid, tr)
            }),
        }
    }

    /// Whether rendezvous receive `t` of `pid` has a matching send.
    fn receive_matched(&self, st: &[u32], pid: usize, t: usize) -> Res<bool> {
        with_steps(st.len(), |out| {
            for q in 0..self.proc_base.len() {
                let Some(qt) = self.ptype_of(st, q) else {
                    break;
                };
                if q == pid {
                    continue;
                }
                let auto = &self.ptypes[qt].auto;
                for &k in &auto.locs[st[self.proc_base[q] + 1] as usize] {
                    let s = &auto.trans[k];
                    if matches!(&s.act, Act::Send(sc, _) if self.is_rv(sc)) {
                        self.rendezvous(st, q, k, s, Some((pid, t)), None, out)?;
                        if !out.is_empty() {
                            return Ok(true);
                        }
                    }
                }
            }
            Ok(false)
        })
    }

    /// Every rendezvous of send `tr` (transition `t`) of `pid` with a
    /// matching receive of another process (only `only` if given), kept in
    /// `out` (only those of group `keep` if given) with the receiver as the
    /// process that may keep control.
    #[allow(clippy::too_many_arguments)]
    fn rendezvous(
        &self,
        st: &[u32],
        pid: usize,
        t: usize,
        tr: &Tr,
        only: Option<(usize, usize)>,
        keep: Option<usize>,
        out: &mut Steps,
    ) -> Res<()> {
        let Act::Send(sc, args) = &tr.act else {
            return Ok(());
        };
        let cid = self.chan_id(st, pid, sc)?;
        let sptype = self.ptype_of(st, pid).unwrap_or(0);
        let mut vals: Option<Vec<i32>> = None;
        for q in 0..self.proc_base.len() {
            let Some(qt) = self.ptype_of(st, q) else {
                break;
            };
            if q == pid || only.is_some_and(|(p, _)| p != q) {
                continue;
            }
            let auto = &self.ptypes[qt].auto;
            let qb = self.proc_base[q];
            for &k in &auto.locs[st[qb + 1] as usize] {
                if only.is_some_and(|(_, ot)| ot != k) {
                    continue;
                }
                let r = &auto.trans[k];
                let Act::Recv(rc, rargs) = &r.act else {
                    continue;
                };
                if self.chan_id(st, q, rc)? != cid {
                    continue;
                }
                if vals.is_none() {
                    let fields = &self.chans[cid].fields;
                    let mut vs = Vec::with_capacity(args.len());
                    for (i, a) in args.iter().enumerate() {
                        let x = self.eval(st, pid, a)?;
                        if let Some(&f) = fields.get(i) {
                            vs.push(load(f, truncate(f, x)));
                        }
                    }
                    vals = Some(vs);
                }
                let vs = vals.as_deref().unwrap_or(&[]);
                if !self.matches(st, q, rargs, vs)? {
                    continue;
                }
                let n = out.candidate(st);
                n[self.proc_base[pid] + 1] = tr.to as u32;
                for (a, &v) in rargs.iter().zip(vs) {
                    if let CRecv::Var(x) = a {
                        self.store(n, q, x, v)?;
                    }
                }
                n[qb + 1] = r.to as u32;
                self.reset_dead(n, pid, tr);
                self.reset_dead(n, q, r);
                self.run_chain(n, q, auto, r)?;
                let g = self
                    .rv_group
                    .get(&(sptype, t, qt, k))
                    .copied()
                    .unwrap_or(usize::MAX);
                if keep.is_none_or(|kg| kg == g) {
                    out.keep(g, q, r.atom);
                }
            }
        }
        Ok(())
    }

    /// Whether the constants and `eval`s of a receive match `vals`.
    fn matches(&self, st: &[u32], q: usize, rargs: &[CRecv], vals: &[i32]) -> Res<bool> {
        for (a, &v) in rargs.iter().zip(vals) {
            if let CRecv::Match(e) = a {
                if self.eval(st, q, e)? != v {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }

    /// One-step successors by process `pid` (as sender for rendezvous),
    /// restricted to group `only` if given, kept in `out`.
    fn steps_of(&self, st: &[u32], pid: usize, only: Option<usize>, out: &mut Steps) -> Res<()> {
        let Some(t) = self.ptype_of(st, pid) else {
            return Ok(());
        };
        let auto = &self.ptypes[t].auto;
        let loc = st[self.proc_base[pid] + 1] as usize;
        let locals = self.proc_base[pid] + 2;
        let dispatch = &self.dispatch[t];
        for e in dispatch.at(loc) {
            // unsure: a computed index out of range, the whole condition decides
            let sure = match dispatch.verdict(e, st, locals) {
                Verdict::Blocked => continue,
                Verdict::Open => true,
                Verdict::Unsure => false,
            };
            let k = e.tr;
            let tr = &auto.trans[k];
            if let Some(g) = only {
                match self.kinds[g] {
                    GroupKind::Step { tr, .. } if tr != k => continue,
                    GroupKind::Rendezvous { str, .. } if str != k => continue,
                    _ => {}
                }
            }
            if tr.rv {
                if matches!(tr.act, Act::Send(..)) {
                    let keep =
                        only.filter(|&g| matches!(self.kinds[g], GroupKind::Rendezvous { .. }));
                    self.rendezvous(st, pid, k, tr, None, keep, out)?;
                }
                continue;
            }
            if e.multi && tr.guard.blocks(st, locals) {
                continue;
            }
            // only the youngest process may end (`exec`): no copy otherwise
            if matches!(tr.act, Act::End) && pid + 1 != self.nr_pr(st) {
                continue;
            }
            if matches!(tr.act, Act::Else) && self.other_executable(st, pid, &auto.locs[loc], k)? {
                continue;
            }
            // a false guard needs no copy of the state
            if !sure {
                if !self.holds(st, pid, tr)? {
                    continue;
                }
            } else if !e.exact && !self.open(st, pid, tr)? {
                continue;
            }
            let n = out.candidate(st);
            if matches!(tr.act, Act::Cond(_)) || self.fire(n, pid, tr, true)? {
                if !matches!(tr.act, Act::End) {
                    n[self.proc_base[pid] + 1] = tr.to as u32;
                    if !tr.dead.is_empty() {
                        self.reset_dead(n, pid, tr);
                    }
                    if !tr.chain.is_empty() {
                        self.run_chain(n, pid, auto, tr)?;
                    }
                }
                out.keep(e.group, pid, tr.atom);
            } else {
                out.drop_candidate();
            }
        }
        Ok(())
    }

    /// Whether a transition of `here` other than `k` (an `else`) can fire.
    fn other_executable(&self, st: &[u32], pid: usize, here: &[usize], k: usize) -> Res<bool> {
        let Some(t) = self.ptype_of(st, pid) else {
            return Ok(false);
        };
        let auto = &self.ptypes[t].auto;
        for &o in here {
            if o != k
                && !auto.trans[o].guard.blocks(st, self.proc_base[pid] + 2)
                && self.executable(st, pid, o, &auto.trans[o])?
            {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Follows an atomic sequence: while process `pid` keeps control and can
    /// move, its steps are taken without emitting the intermediate states.
    fn settle(
        &self,
        s: &[u32],
        pid: usize,
        atom: bool,
        depth: usize,
        emit: &mut dyn FnMut(&[u32]),
    ) -> Res<()> {
        if !atom {
            emit(s);
            return Ok(());
        }
        if depth > MAX_CHAIN {
            return Err(Box::new(ModelError::new(format!(
                "{}: atomic sequence does not terminate",
                self.file
            ))));
        }
        with_steps(s.len(), |next| {
            self.steps_of(s, pid, None, next)?;
            if next.is_empty() {
                emit(s);
            }
            for i in next.info() {
                self.settle(next.state(i), i.pid, i.atom, depth + 1, emit)?;
            }
            Ok(())
        })
    }

    /// Whether the state vector slot layout gives process slot `pid` to a
    /// process of proctype `t` in `state` (for tests and diagnostics).
    pub fn process_type(&self, state: &[Value], pid: usize) -> Option<&str> {
        self.ptype_of(state, pid)
            .map(|t| self.ptypes[t].name.as_str())
    }
}

impl Model for PromelaModel {
    pins::describe_model!("promela", name, slots, process_names, groups);

    fn initial_state(&self) -> Vec<Value> {
        self.init.clone()
    }

    fn next(&self, state: &[Value], group: usize, emit: &mut pins::Emit) -> pins::Step {
        self.next_of_group(state, group, emit).map_err(|e| *e)
    }

    fn next_all(&self, state: &[Value], emit: &mut pins::EmitAll) -> pins::Step {
        self.next_of_all(state, emit).map_err(|e| *e)
    }
}

impl PromelaModel {
    fn next_of_group(&self, state: &[Value], group: usize, emit: &mut pins::Emit) -> Res<()> {
        let ptype = match self.kinds.get(group) {
            Some(GroupKind::Step { ptype, .. }) => *ptype,
            Some(GroupKind::Rendezvous { sptype, .. }) => *sptype,
            None => return Err(Box::new(ModelError::new(format!("no group {group}")))),
        };
        for pid in 0..self.proc_base.len() {
            if self.ptype_of(state, pid) != Some(ptype) {
                continue;
            }
            with_steps(state.len(), |steps| -> Res<()> {
                self.steps_of(state, pid, Some(group), steps)?;
                for i in steps.info() {
                    if i.group == group {
                        self.settle(steps.state(i), i.pid, i.atom, 0, emit)?;
                    }
                }
                Ok(())
            })?;
        }
        Ok(())
    }

    fn next_of_all(&self, state: &[Value], emit: &mut pins::EmitAll) -> Res<()> {
        with_steps(state.len(), |steps| {
            for pid in 0..self.proc_base.len() {
                if self.ptype_of(state, pid).is_none() {
                    break;
                }
                self.steps_of(state, pid, None, steps)?;
            }
            steps.sort_by_group();
            for i in steps.info() {
                // outside `atomic` a successor is emitted as it is
                if !i.atom {
                    emit(i.group, steps.state(i));
                    continue;
                }
                self.settle(steps.state(i), i.pid, true, 0, &mut |s| emit(i.group, s))?;
            }
            Ok(())
        })
    }
}

impl PromelaModel {
    fn var_slots(&self, p: usize, v: &VarRef, out: &mut BTreeSet<usize>) {
        match v.place {
            Place::Global(i) => {
                let g = &self.globals[i];
                if let Some(at) = g.at {
                    out.extend(at..at + g.len);
                }
            }
            Place::Local(_) => self.proc_slots(p, out),
        }
    }

    fn proc_slots(&self, p: usize, out: &mut BTreeSet<usize>) {
        for (pid, h) in self.hosts.iter().enumerate() {
            if h.contains(&p) {
                out.extend(self.proc_base[pid]..self.proc_base[pid] + self.proc_len[pid]);
            }
        }
    }

    fn chan_slots(&self, c: &ChanRef, out: &mut BTreeSet<usize>) {
        for ch in &self.chans[c.base..c.base + c.len] {
            if let Some(s) = ch.slot {
                out.extend(s..s + 1 + ch.cap * ch.fields.len());
            }
        }
    }

    /// Returns true when the slots used cannot be bounded cheaply (every
    /// slot then).
    fn expr_reads(&self, p: usize, e: &CExpr, read: &mut BTreeSet<usize>) -> bool {
        match e {
            CExpr::Const(_) | CExpr::Pid => false,
            CExpr::NrPr => true,
            CExpr::Var(v) => {
                self.var_slots(p, v, read);
                v.idx.as_ref().is_some_and(|i| self.expr_reads(p, i, read))
            }
            CExpr::Unary(_, a) => self.expr_reads(p, a, read),
            CExpr::Binary(_, a, b, _) => self.expr_reads(p, a, read) | self.expr_reads(p, b, read),
            CExpr::Cond(a, b, c) => {
                self.expr_reads(p, a, read)
                    | self.expr_reads(p, b, read)
                    | self.expr_reads(p, c, read)
            }
            CExpr::ChanFn(_, c) => {
                self.chan_slots(c, read);
                c.idx.as_ref().is_some_and(|i| self.expr_reads(p, i, read))
            }
        }
    }

    /// Adds the slots `act` of a `p` process may read and write; true when
    /// it may touch anything (process creation and deletion).
    pub(crate) fn touch(
        &self,
        p: usize,
        act: &Act,
        read: &mut BTreeSet<usize>,
        write: &mut BTreeSet<usize>,
    ) -> bool {
        self.proc_slots(p, read);
        self.proc_slots(p, write);
        let mut all = false;
        let lval = |v: &VarRef, read: &mut BTreeSet<usize>, write: &mut BTreeSet<usize>| {
            self.var_slots(p, v, write);
            self.var_slots(p, v, read);
            v.idx.as_ref().is_some_and(|i| self.expr_reads(p, i, read))
        };
        match act {
            Act::Cond(e) | Act::Assert(e) => all |= self.expr_reads(p, e, read),
            Act::Assign(v, e) => {
                all |= lval(v, read, write);
                all |= self.expr_reads(p, e, read);
            }
            Act::Incr(v, _) => all |= lval(v, read, write),
            Act::Send(c, args) => {
                self.chan_slots(c, read);
                self.chan_slots(c, write);
                all |= c.idx.as_ref().is_some_and(|i| self.expr_reads(p, i, read));
                for a in args {
                    all |= self.expr_reads(p, a, read);
                }
            }
            Act::Recv(c, args) => {
                self.chan_slots(c, read);
                self.chan_slots(c, write);
                all |= c.idx.as_ref().is_some_and(|i| self.expr_reads(p, i, read));
                for a in args {
                    match a {
                        CRecv::Var(v) => all |= lval(v, read, write),
                        CRecv::Match(e) => all |= self.expr_reads(p, e, read),
                        CRecv::Any => {}
                    }
                }
            }
            Act::Skip | Act::Else => {}
            Act::Run(..) | Act::End => all = true,
            Act::DStep(auto) => {
                for t in &auto.trans {
                    all |= self.touch(p, &t.act, read, write);
                }
            }
        }
        all
    }
}
