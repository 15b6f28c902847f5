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

use crate::compile::{
    group_sets, groups_of, type_bits, Act, Automaton, CExpr, CRecv, Chan, ChanRef, GroupKind,
    Place, ProcType, Tr, Var, VarRef,
};
use crate::parse::{BaseType, Pos};
use pins::{Model, ModelError, Slot, TransitionGroup, Value};
use std::collections::{BTreeSet, HashMap};

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

fn load(ty: BaseType, raw: u32) -> i32 {
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
    step_group: HashMap<(usize, usize), usize>,
    rv_group: HashMap<(usize, usize, usize, usize), usize>,
}

type Res<T> = Result<T, ModelError>;

/// Bound on the steps of one atomic continuation or d_step.
const MAX_CHAIN: usize = 1_000_000;

/// A one-step successor: group, state, the process that may keep control
/// and whether it does.
type Step = (usize, Vec<u32>, usize, bool);

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
        step_group: HashMap::new(),
        rv_group: HashMap::new(),
    };
    for (g, k) in kinds.iter().enumerate() {
        match *k {
            GroupKind::Step { ptype, tr } => m.step_group.insert((ptype, tr), g),
            GroupKind::Rendezvous {
                sptype,
                str,
                rptype,
                rtr,
            } => m.rv_group.insert((sptype, str, rptype, rtr), g),
        };
    }
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

    fn var<'a>(&'a self, st: &[u32], pid: usize, v: &VarRef) -> Res<(&'a Var, Option<usize>)> {
        let var = match v.place {
            Place::Global(i) => &self.globals[i],
            Place::Local(i) => {
                let t = self
                    .ptype_of(st, pid)
                    .ok_or_else(|| ModelError::new("no process"))?;
                &self.ptypes[t].locals[i].0
            }
        };
        let k = match &v.idx {
            Some(e) => {
                let i = self.eval(st, pid, e)?;
                if i < 0 || i as usize >= var.len {
                    return Err(ModelError::at(
                        self.loc(v.pos),
                        format!("index {i} out of range for '{}[{}]'", var.name, var.len),
                    ));
                }
                i as usize
            }
            None => 0,
        };
        let slot = var.at.map(|at| match v.place {
            Place::Global(_) => at + k,
            Place::Local(_) => self.proc_base[pid] + 2 + at + k,
        });
        Ok((var, slot))
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
                    return Err(ModelError::at(
                        self.loc(c.pos),
                        format!("channel index {i} out of range"),
                    ));
                }
                Ok(c.base + i as usize)
            }
        }
    }

    fn eval(&self, st: &[u32], pid: usize, e: &CExpr) -> Res<i32> {
        Ok(match e {
            CExpr::Const(c) => *c,
            CExpr::Var(v) => {
                let (var, slot) = self.var(st, pid, v)?;
                match slot {
                    Some(s) => load(var.ty, st[s]),
                    None => 0,
                }
            }
            CExpr::Unary(op, a) => {
                let a = self.eval(st, pid, a)?;
                match *op {
                    "-" => a.wrapping_neg(),
                    "~" => !a,
                    _ => (a == 0) as i32,
                }
            }
            CExpr::Binary(op, a, b, pos) => {
                let x = self.eval(st, pid, a)?;
                match *op {
                    "&&" if x == 0 => return Ok(0),
                    "||" if x != 0 => return Ok(1),
                    _ => {}
                }
                let y = self.eval(st, pid, b)?;
                match *op {
                    "+" => x.wrapping_add(y),
                    "-" => x.wrapping_sub(y),
                    "*" => x.wrapping_mul(y),
                    "/" | "%" if y == 0 => {
                        return Err(ModelError::at(self.loc(*pos), "division by zero"))
                    }
                    "/" | "%" if x == i32::MIN && y == -1 => {
                        return Err(ModelError::at(
                            self.loc(*pos),
                            format!("integer overflow: {x} {op} -1 is undefined in C (pan traps)"),
                        ))
                    }
                    "/" => x / y,
                    "%" => x % y,
                    "<<" | ">>" if !(0..32).contains(&y) => {
                        return Err(ModelError::at(
                            self.loc(*pos),
                            format!("shift count {y} out of range 0..31 (undefined in C)"),
                        ))
                    }
                    "<<" => x << y,
                    ">>" => x >> y,
                    "&" => x & y,
                    "|" => x | y,
                    "^" => x ^ y,
                    "==" => (x == y) as i32,
                    "!=" => (x != y) as i32,
                    "<" => (x < y) as i32,
                    "<=" => (x <= y) as i32,
                    ">" => (x > y) as i32,
                    ">=" => (x >= y) as i32,
                    _ => (y != 0) as i32,
                }
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
                (match *f {
                    "len" => return Ok(len as i32),
                    "empty" => len == 0,
                    "nempty" => len != 0,
                    "full" => len == ch.cap,
                    _ => len != ch.cap,
                }) as i32
            }
            CExpr::Pid => pid as i32,
            CExpr::NrPr => self.nr_pr(st) as i32,
        })
    }

    fn store(&self, st: &mut [u32], pid: usize, v: &VarRef, val: i32) -> Res<()> {
        let (var, slot) = self.var(st, pid, v)?;
        if let Some(s) = slot {
            st[s] = truncate(var.ty, val);
        }
        Ok(())
    }

    /// Creates a process of proctype `t` in the first free process slot.
    fn create(&self, st: &mut [u32], t: usize, args: &[i32]) -> Res<usize> {
        let pid = self.nr_pr(st);
        if pid >= self.proc_base.len() || !self.hosts[pid].contains(&t) {
            return Err(ModelError::new(format!(
                "process slot {pid} cannot hold a new '{}' (creation analysis)",
                self.ptypes[t].name
            )));
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
    fn run_chain(&self, st: &mut Vec<u32>, pid: usize, auto: &Automaton, tr: &Tr) -> Res<()> {
        for &c in &tr.chain {
            let m = &auto.trans[c];
            if !self.exec(st, pid, &m.act, m.pos)? {
                return Err(ModelError::at(self.loc(m.pos), "merged statement blocked"));
            }
            self.reset_dead(st, pid, m);
        }
        Ok(())
    }

    fn is_rv(&self, c: &ChanRef) -> bool {
        self.chans[c.base].cap == 0
    }

    /// Executes a non-rendezvous, non-else action on `st` (in place) if it
    /// is executable; returns whether it was.
    fn exec(&self, st: &mut Vec<u32>, pid: usize, act: &Act, pos: Pos) -> Res<bool> {
        match act {
            Act::Cond(e) => Ok(self.eval(st, pid, e)? != 0),
            Act::Assign(v, e) => {
                let x = self.eval(st, pid, e)?;
                self.store(st, pid, v, x)?;
                Ok(true)
            }
            Act::Incr(v, d) => {
                let (var, slot) = self.var(st, pid, v)?;
                if let Some(s) = slot {
                    st[s] = truncate(var.ty, load(var.ty, st[s]).wrapping_add(*d));
                }
                Ok(true)
            }
            Act::Skip | Act::Else => Ok(true),
            Act::Assert(e) => {
                if self.eval(st, pid, e)? == 0 {
                    return Err(ModelError::at(self.loc(pos), "assertion violated"));
                }
                Ok(true)
            }
            Act::Send(c, args) => {
                let (ch, s, n) = self.buffer(st, pid, c, pos)?;
                if n == ch.cap {
                    return Ok(false);
                }
                let vals = args
                    .iter()
                    .map(|a| self.eval(st, pid, a))
                    .collect::<Res<Vec<_>>>()?;
                let w = ch.fields.len();
                for (f, v) in vals.into_iter().enumerate() {
                    st[s + 1 + n * w + f] = truncate(ch.fields[f], v);
                }
                st[s] += 1;
                Ok(true)
            }
            Act::Recv(c, args) => {
                let (ch, s, n) = self.buffer(st, pid, c, pos)?;
                if n == 0 {
                    return Ok(false);
                }
                let w = ch.fields.len();
                let head: Vec<i32> = (0..w).map(|f| load(ch.fields[f], st[s + 1 + f])).collect();
                for (a, &v) in args.iter().zip(&head) {
                    if let CRecv::Match(e) = a {
                        if self.eval(st, pid, e)? != v {
                            return Ok(false);
                        }
                    }
                }
                for k in 0..(n - 1) * w {
                    st[s + 1 + k] = st[s + 1 + w + k];
                }
                for k in (n - 1) * w..n * w {
                    st[s + 1 + k] = 0;
                }
                st[s] -= 1;
                for (a, &v) in args.iter().zip(&head) {
                    if let CRecv::Var(r) = a {
                        self.store(st, pid, r, v)?;
                    }
                }
                Ok(true)
            }
            Act::Run(t, args) => {
                if self.nr_pr(st) >= self.proc_base.len() {
                    return Err(ModelError::at(self.loc(pos), "too many processes"));
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
                for k in 0..self.proc_len[pid] {
                    st[b + k] = 0;
                }
                Ok(true)
            }
            Act::DStep(auto) => self.dstep(st, pid, auto, pos),
        }
    }

    /// Runs a d_step body as one indivisible step: at each location the first
    /// executable statement (else: when no other is) is taken.
    fn dstep(&self, st: &mut Vec<u32>, pid: usize, auto: &Automaton, pos: Pos) -> Res<bool> {
        let mut cur = st.clone();
        let mut loc = auto.start;
        let mut steps = 0;
        while Some(loc) != auto.end {
            let mut moved = None;
            for &k in &auto.locs[loc] {
                let tr = &auto.trans[k];
                if matches!(tr.act, Act::Send(ref c, _) | Act::Recv(ref c, _) if self.is_rv(c)) {
                    return Err(ModelError::at(self.loc(tr.pos), "rendezvous inside d_step"));
                }
                if matches!(tr.act, Act::Else) {
                    moved = Some(tr.to);
                    break;
                }
                let mut next = cur.clone();
                if self.exec(&mut next, pid, &tr.act, tr.pos)? {
                    cur = next;
                    moved = Some(tr.to);
                    break;
                }
            }
            match moved {
                Some(to) => loc = to,
                None if steps == 0 => return Ok(false),
                None => {
                    return Err(ModelError::at(
                        self.loc(pos),
                        "d_step blocks after its first statement",
                    ))
                }
            }
            steps += 1;
            if steps > MAX_CHAIN {
                return Err(ModelError::at(self.loc(pos), "d_step does not terminate"));
            }
        }
        *st = cur;
        Ok(true)
    }

    /// Whether transition `tr` of process `pid` can fire in `st`.
    fn executable(&self, st: &[u32], pid: usize, t: usize, tr: &Tr) -> Res<bool> {
        match &tr.act {
            Act::Send(c, _) if self.is_rv(c) => {
                let mut any = false;
                self.rendezvous(st, pid, t, tr, None, &mut |_| any = true)?;
                Ok(any)
            }
            Act::Recv(c, _) if self.is_rv(c) => {
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
                            let mut hit = false;
                            self.rendezvous(st, q, k, s, Some((pid, t)), &mut |_| hit = true)?;
                            if hit {
                                return Ok(true);
                            }
                        }
                    }
                }
                Ok(false)
            }
            Act::Else => Ok(true),
            act => {
                let mut s = st.to_vec();
                self.exec(&mut s, pid, act, tr.pos)
            }
        }
    }

    /// Every rendezvous of send `tr` (transition `t`) of `pid` with a
    /// matching receive of another process (only `only` if given); calls
    /// `found((group, state, receiver, receiver keeps control))`.
    fn rendezvous(
        &self,
        st: &[u32],
        pid: usize,
        t: usize,
        tr: &Tr,
        only: Option<(usize, usize)>,
        found: &mut dyn FnMut(Step),
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
                    vals = Some(
                        args.iter()
                            .map(|a| self.eval(st, pid, a))
                            .collect::<Res<Vec<_>>>()?,
                    );
                }
                let ch = &self.chans[cid];
                let vs: Vec<i32> = vals.as_ref().map_or(Vec::new(), |v| {
                    v.iter()
                        .zip(&ch.fields)
                        .map(|(&x, &f)| load(f, truncate(f, x)))
                        .collect()
                });
                let mut ok = true;
                for (a, &v) in rargs.iter().zip(&vs) {
                    if let CRecv::Match(e) = a {
                        if self.eval(st, q, e)? != v {
                            ok = false;
                            break;
                        }
                    }
                }
                if !ok {
                    continue;
                }
                let mut n = st.to_vec();
                n[self.proc_base[pid] + 1] = tr.to as u32;
                for (a, &v) in rargs.iter().zip(&vs) {
                    if let CRecv::Var(x) = a {
                        self.store(&mut n, q, x, v)?;
                    }
                }
                n[qb + 1] = r.to as u32;
                self.reset_dead(&mut n, pid, tr);
                self.reset_dead(&mut n, q, r);
                self.run_chain(&mut n, q, auto, r)?;
                let g = self
                    .rv_group
                    .get(&(sptype, t, qt, k))
                    .copied()
                    .unwrap_or(usize::MAX);
                found((g, n, q, r.atom));
            }
        }
        Ok(())
    }

    /// One-step successors by process `pid` (as sender for rendezvous),
    /// restricted to group `only` if given.
    fn steps_of(
        &self,
        st: &[u32],
        pid: usize,
        only: Option<usize>,
        out: &mut Vec<Step>,
    ) -> Res<()> {
        let Some(t) = self.ptype_of(st, pid) else {
            return Ok(());
        };
        let auto = &self.ptypes[t].auto;
        let here = &auto.locs[st[self.proc_base[pid] + 1] as usize];
        for &k in here {
            let tr = &auto.trans[k];
            let rv = matches!(&tr.act, Act::Send(c, _) | Act::Recv(c, _) if self.is_rv(c));
            if let Some(g) = only {
                match self.kinds[g] {
                    GroupKind::Step { tr, .. } if tr != k => continue,
                    GroupKind::Rendezvous { str, .. } if str != k => continue,
                    _ => {}
                }
            }
            if rv {
                if matches!(tr.act, Act::Send(..)) {
                    let restrict = only.and_then(|g| match self.kinds[g] {
                        GroupKind::Rendezvous { rtr, .. } => Some(rtr),
                        _ => None,
                    });
                    self.rendezvous(st, pid, k, tr, None, &mut |s| {
                        if restrict.is_none() || only == Some(s.0) {
                            out.push(s)
                        }
                    })?;
                }
                continue;
            }
            if matches!(tr.act, Act::Else) {
                let mut other = false;
                for &o in here {
                    if o != k && self.executable(st, pid, o, &auto.trans[o])? {
                        other = true;
                        break;
                    }
                }
                if other {
                    continue;
                }
            }
            let mut n = st.to_vec();
            if self.exec(&mut n, pid, &tr.act, tr.pos)? {
                if !matches!(tr.act, Act::End) {
                    n[self.proc_base[pid] + 1] = tr.to as u32;
                    self.reset_dead(&mut n, pid, tr);
                    self.run_chain(&mut n, pid, auto, tr)?;
                }
                let g = self.step_group.get(&(t, k)).copied().unwrap_or(usize::MAX);
                out.push((g, n, pid, tr.atom));
            }
        }
        Ok(())
    }

    /// Follows an atomic sequence: while process `pid` keeps control and can
    /// move, its steps are taken without emitting the intermediate states.
    fn settle(
        &self,
        s: Vec<u32>,
        pid: usize,
        atom: bool,
        depth: usize,
        emit: &mut dyn FnMut(&[u32]),
    ) -> Res<()> {
        if !atom {
            emit(&s);
            return Ok(());
        }
        if depth > MAX_CHAIN {
            return Err(ModelError::new(format!(
                "{}: atomic sequence does not terminate",
                self.file
            )));
        }
        let mut next = Vec::new();
        self.steps_of(&s, pid, None, &mut next)?;
        if next.is_empty() {
            emit(&s);
        }
        for (_, n, q, a) in next {
            self.settle(n, q, a, depth + 1, emit)?;
        }
        Ok(())
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

    fn next(&self, state: &[Value], group: usize, emit: &mut pins::Emit) -> Res<()> {
        let ptype = match self.kinds.get(group) {
            Some(GroupKind::Step { ptype, .. }) => *ptype,
            Some(GroupKind::Rendezvous { sptype, .. }) => *sptype,
            None => return Err(ModelError::new(format!("no group {group}"))),
        };
        for pid in 0..self.proc_base.len() {
            if self.ptype_of(state, pid) != Some(ptype) {
                continue;
            }
            let mut steps = Vec::new();
            self.steps_of(state, pid, Some(group), &mut steps)?;
            for (g, n, q, a) in steps {
                if g == group {
                    self.settle(n, q, a, 0, emit)?;
                }
            }
        }
        Ok(())
    }

    fn next_all(&self, state: &[Value], emit: &mut pins::EmitAll) -> Res<()> {
        let mut steps = Vec::new();
        for pid in 0..self.proc_base.len() {
            if self.ptype_of(state, pid).is_none() {
                break;
            }
            self.steps_of(state, pid, None, &mut steps)?;
        }
        steps.sort_by_key(|s| s.0);
        for (g, n, q, a) in steps {
            self.settle(n, q, a, 0, &mut |s| emit(g, s))?;
        }
        Ok(())
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
