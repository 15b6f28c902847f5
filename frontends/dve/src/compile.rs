//! Name resolution and compilation of a parsed DVE [`System`] into a
//! [`DveModel`]: lays out the state vector, folds constants, resolves every
//! name to a slot, type-checks (arrays vs scalars, constants, channels,
//! sync arities), builds the transition groups (rendezvous pairs included)
//! and their exact read and write sets.
//!
//! All semantic errors are reported here with the position of the
//! offending name; nothing is evaluated at run time by name.

use std::collections::HashMap;

use pins::{Slot, TransitionGroup, Value};

use crate::code::Code;
use crate::dispatch::Dispatch;
use crate::error::{DveError, ErrorKind};
use crate::lexer::Pos;
use crate::model::{
    wrap, CSync, CTrans, Chan, Ctx, DveModel, ErrorPolicy, Ex, GroupKind, LVal, SyncSystem,
};
use crate::parse::{ChanDecl, Expr, Init, System, SystemKind, Ty, VarDecl};

#[derive(Clone, Debug)]
enum Sym {
    Var { base: u32, len: Option<u32>, ty: Ty },
    Const { values: Vec<i32>, array: bool },
    Chan(usize),
    Process(usize),
}

struct ProcInfo {
    name: String,
    pc_slot: u32,
    states: HashMap<String, u32>,
    state_names: Vec<String>,
    locals: HashMap<String, Sym>,
}

struct Compiler<'a> {
    file: &'a str,
    globals: HashMap<String, Sym>,
    procs: Vec<ProcInfo>,
    slots: Vec<Slot>,
    init: Vec<Value>,
    chans: Vec<Chan>,
}

fn bits_for(count: u64) -> u32 {
    // bits to store values 0..count-1, at least 1
    let mut b = 1;
    while b < 32 && (1u64 << b) < count {
        b += 1;
    }
    b
}

fn ty_bits(ty: Ty) -> u32 {
    match ty {
        Ty::Byte => 8,
        Ty::Int => 16,
    }
}

impl Compiler<'_> {
    fn err<T>(&self, kind: ErrorKind, pos: Pos, msg: impl AsRef<str>) -> Result<T, DveError> {
        Err(DveError::at(kind, self.file, pos.line, pos.col, msg))
    }

    fn lookup(&self, proc: Option<usize>, name: &str) -> Option<&Sym> {
        proc.and_then(|p| self.procs[p].locals.get(name))
            .or_else(|| self.globals.get(name))
    }

    fn constant(&self, proc: Option<usize>, e: &Expr, what: &str) -> Result<i32, DveError> {
        let ex = self.expr(proc, e)?;
        match ex {
            Ex::Const(v) => Ok(v),
            _ => self.err(
                ErrorKind::Semantic,
                e.pos(),
                format!("{what} must be a constant expression"),
            ),
        }
    }

    fn declared_twice<T>(&self, pos: Pos, name: &str) -> Result<T, DveError> {
        self.err(
            ErrorKind::Semantic,
            pos,
            format!("'{name}' is declared twice"),
        )
    }

    /// The constant size `e` (`what`, e.g. "an array size") of `owner` (a
    /// variable, a channel), in `range` (`label` names it when it is not).
    fn size(
        &self,
        proc: Option<usize>,
        e: &Expr,
        (what, label): (&str, &str),
        owner: &str,
        range: std::ops::RangeInclusive<i32>,
    ) -> Result<u32, DveError> {
        let n = self.constant(proc, e, what)?;
        if !range.contains(&n) {
            let (lo, hi) = range.into_inner();
            return self.err(
                ErrorKind::Semantic,
                e.pos(),
                format!("{label} {n} of {owner} out of range {lo}..{hi}"),
            );
        }
        Ok(n as u32)
    }

    /// Declares variables and constants into the given scope, allocating
    /// slots for variables.
    fn declare(&mut self, proc: Option<usize>, decls: &[VarDecl]) -> Result<(), DveError> {
        for d in decls {
            let scope_has = match proc {
                Some(p) => self.procs[p].locals.contains_key(&d.name),
                None => self.globals.contains_key(&d.name),
            };
            if scope_has {
                return self.declared_twice(d.pos, &d.name);
            }
            let len = match &d.size {
                Some(e) => {
                    let owner = format!("'{}'", d.name);
                    Some(self.size(proc, e, ("an array size", "array size"), &owner, 1..=65536)?)
                }
                None => None,
            };
            let n = len.unwrap_or(1) as usize;
            let mut values = vec![0i32; n];
            match &d.init {
                None => {}
                Some(Init::Scalar(e)) => {
                    if len.is_some() {
                        return self.err(
                            ErrorKind::Semantic,
                            e.pos(),
                            format!("array '{}' needs a '{{...}}' initialiser", d.name),
                        );
                    }
                    values[0] = self.constant(proc, e, "an initialiser")?;
                }
                Some(Init::List(items, pos)) => {
                    if len.is_none() {
                        return self.err(
                            ErrorKind::Semantic,
                            *pos,
                            format!("scalar '{}' cannot take a list initialiser", d.name),
                        );
                    }
                    // DiVinE ignores initial values beyond the array size
                    // (BEEM's anderson.* models have one too many); so do we.
                    for (k, e) in items.iter().enumerate() {
                        let v = self.constant(proc, e, "an initialiser")?;
                        if let Some(slot) = values.get_mut(k) {
                            *slot = v;
                        }
                    }
                }
            }
            // Initial values are stored like any assignment: wrapped.
            for v in &mut values {
                *v = match d.ty {
                    Ty::Byte => i32::from(*v as u8),
                    Ty::Int => i32::from(*v as i16),
                };
            }
            let sym = if d.is_const {
                Sym::Const {
                    values,
                    array: len.is_some(),
                }
            } else {
                let base = self.slots.len() as u32;
                let prefix = match proc {
                    Some(p) => format!("{}.{}", self.procs[p].name, d.name),
                    None => d.name.clone(),
                };
                for (k, v) in values.iter().enumerate() {
                    let name = if len.is_some() {
                        format!("{prefix}[{k}]")
                    } else {
                        prefix.clone()
                    };
                    self.slots.push(Slot {
                        name,
                        process: proc,
                        bits: ty_bits(d.ty),
                    });
                    self.init.push(wrap(*v, d.ty));
                }
                Sym::Var {
                    base,
                    len,
                    ty: d.ty,
                }
            };
            match proc {
                Some(p) => self.procs[p].locals.insert(d.name.clone(), sym),
                None => self.globals.insert(d.name.clone(), sym),
            };
        }
        Ok(())
    }

    fn declare_chan(&mut self, c: &ChanDecl) -> Result<(), DveError> {
        if self.globals.contains_key(&c.name) {
            return self.declared_twice(c.pos, &c.name);
        }
        let cap = match &c.size {
            Some(e) => {
                let owner = format!("channel '{}'", c.name);
                self.size(
                    None,
                    e,
                    ("a channel buffer size", "buffer size"),
                    &owner,
                    0..=4096,
                )?
            }
            None => 0,
        };
        if cap > 0 && c.types.is_none() {
            return self.err(
                ErrorKind::Semantic,
                c.pos,
                format!(
                    "buffered channel '{}' needs a type list, e.g. 'channel {{byte}} {}[{cap}]'",
                    c.name, c.name
                ),
            );
        }
        let count_slot = self.slots.len() as u32;
        if cap > 0 {
            self.slots.push(Slot {
                name: format!("{}.count", c.name),
                process: None,
                bits: bits_for(u64::from(cap) + 1),
            });
            self.init.push(0);
            let types = c.types.as_deref().unwrap_or(&[]);
            for item in 0..cap {
                for (k, ty) in types.iter().enumerate() {
                    self.slots.push(Slot {
                        name: format!("{}[{item}].{k}", c.name),
                        process: None,
                        bits: ty_bits(*ty),
                    });
                    self.init.push(0);
                }
            }
        }
        self.globals
            .insert(c.name.clone(), Sym::Chan(self.chans.len()));
        self.chans.push(Chan {
            name: c.name.clone(),
            types: c.types.clone(),
            cap,
            count_slot,
        });
        Ok(())
    }

    fn var_kind_error<T>(&self, sym: &Sym, name: &str, pos: Pos) -> Result<T, DveError> {
        let what = match sym {
            Sym::Chan(_) => "a channel",
            Sym::Process(_) => "a process",
            _ => "not a value",
        };
        self.err(
            ErrorKind::Semantic,
            pos,
            format!("'{name}' is {what}, not a variable"),
        )
    }

    fn scalar(&self, sym: &Sym, name: &str, pos: Pos) -> Result<Ex, DveError> {
        match sym {
            // A scalar, or an array named without an index: its first
            // element, as in DiVinE 2 (crate documentation, "Arrays named
            // without an index"). Arrays have at least one element (checked
            // at their declaration).
            Sym::Var { base, ty, .. } => Ok(Ex::Var(*base, *ty)),
            Sym::Const { values, .. } => Ok(Ex::Const(values[0])),
            _ => self.var_kind_error(sym, name, pos),
        }
    }

    fn element(&self, sym: &Sym, name: &str, pos: Pos, idx: Ex) -> Result<Ex, DveError> {
        match sym {
            Sym::Var {
                base,
                len: Some(len),
                ty,
            } => Ok(Ex::Elem {
                base: *base,
                len: *len,
                ty: *ty,
                idx: Box::new(idx),
                pos,
            }),
            Sym::Const {
                values,
                array: true,
            } => Ok(fold(Ex::ConstElem {
                values: values.clone().into_boxed_slice(),
                idx: Box::new(idx),
                pos,
                name: name.into(),
            })),
            Sym::Var { len: None, .. } | Sym::Const { array: false, .. } => self.err(
                ErrorKind::Semantic,
                pos,
                format!("type error: '{name}' is not an array but is indexed"),
            ),
            _ => self.var_kind_error(sym, name, pos),
        }
    }

    fn unknown<T>(&self, name: &str, pos: Pos) -> Result<T, DveError> {
        self.err(
            ErrorKind::Semantic,
            pos,
            format!("unknown variable '{name}'"),
        )
    }

    /// `P.member[idx]`: a state test or a foreign variable.
    fn dot(
        &self,
        proc: Option<usize>,
        pname: &str,
        member: &str,
        idx: Option<&Expr>,
        pos: Pos,
    ) -> Result<Ex, DveError> {
        let Some(Sym::Process(p)) = self.globals.get(pname) else {
            return self.err(
                ErrorKind::Semantic,
                pos,
                format!("unknown process '{pname}' in '{pname}.{member}'"),
            );
        };
        let info = &self.procs[*p];
        if let (Some(&st), None) = (info.states.get(member), idx) {
            return Ok(Ex::InState {
                slot: info.pc_slot,
                state: st,
            });
        }
        match info.locals.get(member) {
            Some(sym) => match idx {
                None => self.scalar(sym, member, pos),
                Some(i) => {
                    let i = self.expr(proc, i)?;
                    self.element(sym, member, pos, i)
                }
            },
            None => self.err(
                ErrorKind::Semantic,
                pos,
                format!("process '{pname}' has no state or variable '{member}'"),
            ),
        }
    }

    fn expr(&self, proc: Option<usize>, e: &Expr) -> Result<Ex, DveError> {
        Ok(match e {
            Expr::Num(n, pos) => {
                if *n > i64::from(i32::MAX) {
                    return self.err(ErrorKind::Semantic, *pos, format!("number {n} too large"));
                }
                Ex::Const(*n as i32)
            }
            Expr::Var(name, pos) => match self.lookup(proc, name) {
                Some(sym) => self.scalar(sym, name, *pos)?,
                None => self.unknown(name, *pos)?,
            },
            Expr::Index(name, pos, idx) => {
                let i = self.expr(proc, idx)?;
                match self.lookup(proc, name) {
                    Some(sym) => self.element(sym, name, *pos, i)?,
                    None => self.unknown(name, *pos)?,
                }
            }
            Expr::Dot(p, m, idx, pos) => self.dot(proc, p, m, idx.as_deref(), *pos)?,
            Expr::Unary(op, a, _) => fold(Ex::Un(*op, Box::new(self.expr(proc, a)?))),
            Expr::Binary(op, a, b, pos) => fold(Ex::Bin(
                *op,
                Box::new(self.expr(proc, a)?),
                Box::new(self.expr(proc, b)?),
                *pos,
            )),
        })
    }

    /// Every expression of `es`, in order.
    fn exprs(&self, proc: Option<usize>, es: &[Expr]) -> Result<Vec<Ex>, DveError> {
        es.iter().map(|e| self.expr(proc, e)).collect()
    }

    /// Every assignable place of `es`, in order.
    fn lvals(&self, proc: Option<usize>, es: &[Expr]) -> Result<Vec<LVal>, DveError> {
        es.iter().map(|e| self.lval(proc, e)).collect()
    }

    fn lval(&self, proc: Option<usize>, e: &Expr) -> Result<LVal, DveError> {
        let (name, pos, idx) = match e {
            Expr::Var(n, p) => (n, *p, None),
            Expr::Index(n, p, i) => (n, *p, Some(&**i)),
            Expr::Dot(pn, m, _, p) => {
                return self.err(
                    ErrorKind::Semantic,
                    *p,
                    format!("cannot assign to '{pn}.{m}' of another process"),
                )
            }
            other => {
                return self.err(
                    ErrorKind::Semantic,
                    other.pos(),
                    "the left side of an assignment must be a variable or an array element",
                )
            }
        };
        let Some(sym) = self.lookup(proc, name) else {
            return self.unknown(name, pos);
        };
        match (sym, idx) {
            (
                Sym::Var {
                    base,
                    len: None,
                    ty,
                },
                None,
            ) => Ok(LVal::Var(*base, *ty, pos)),
            (
                Sym::Var {
                    base,
                    len: Some(len),
                    ty,
                },
                Some(i),
            ) => Ok(LVal::Elem {
                base: *base,
                len: *len,
                ty: *ty,
                idx: self.expr(proc, i)?,
                pos,
            }),
            // The array's first element, as DiVinE 2 stores it (see `scalar`).
            (
                Sym::Var {
                    base,
                    len: Some(_),
                    ty,
                },
                None,
            ) => Ok(LVal::Var(*base, *ty, pos)),
            (Sym::Var { len: None, .. }, Some(_)) => self.err(
                ErrorKind::Semantic,
                pos,
                format!("type error: '{name}' is not an array but is indexed"),
            ),
            (Sym::Const { .. }, _) => self.err(
                ErrorKind::Semantic,
                pos,
                format!("cannot assign to constant '{name}'"),
            ),
            _ => self.var_kind_error(sym, name, pos),
        }
    }
}

/// Replaces an expression reading no slot by its value (when it evaluates
/// without error; an erroneous constant expression is left for run time).
fn fold(e: Ex) -> Ex {
    if !matches!(e, Ex::Const(_)) && e.is_closed() {
        let mut ctx = Ctx::new(&[]);
        let v = e.eval(&[], &mut ctx);
        if ctx.err.is_none() {
            return Ex::Const(v);
        }
    }
    e
}

fn sorted(mut v: Vec<usize>) -> Vec<usize> {
    v.sort_unstable();
    v.dedup();
    v
}

/// Compiles a parsed system; `file` names the source in errors, `name` is
/// the model instance name.
pub fn compile(sys: &System, file: &str, name: &str) -> Result<DveModel, DveError> {
    if let Some((p, pos)) = &sys.property {
        return Err(DveError::at(
            ErrorKind::Unsupported,
            file,
            pos.line,
            pos.col,
            format!("property process '{p}' (LTL/Büchi product) is not supported"),
        ));
    }
    let mut c = Compiler {
        file,
        globals: HashMap::new(),
        procs: Vec::new(),
        slots: Vec::new(),
        init: Vec::new(),
        chans: Vec::new(),
    };
    // Processes are global names visible everywhere (for `P.s`).
    for (i, p) in sys.procs.iter().enumerate() {
        if c.globals.contains_key(&p.name) {
            return c.declared_twice(p.pos, &p.name);
        }
        c.globals.insert(p.name.clone(), Sym::Process(i));
    }
    // 1. global variables, in declaration order
    c.declare(None, &sys.decls)?;
    // 2. channel buffers
    for ch in &sys.chans {
        c.declare_chan(ch)?;
    }
    // 3. per process: control state, then locals
    for (pi, p) in sys.procs.iter().enumerate() {
        if let Some(ch) = p.chans.first() {
            return c.err(
                ErrorKind::Unsupported,
                ch.pos,
                format!("channel '{}' declared inside process '{}': process-local channels are not supported", ch.name, p.name),
            );
        }
        if p.states.is_empty() {
            return c.err(
                ErrorKind::Semantic,
                p.pos,
                format!("process '{}' declares no state", p.name),
            );
        }
        let mut states = HashMap::new();
        for (k, (s, pos)) in p.states.iter().enumerate() {
            if states.insert(s.clone(), k as u32).is_some() {
                return c.err(
                    ErrorKind::Semantic,
                    *pos,
                    format!("state '{s}' declared twice in process '{}'", p.name),
                );
            }
        }
        let init_state = match &p.init {
            Some((s, pos)) => match states.get(s) {
                Some(&k) => k,
                None => {
                    return c.err(
                        ErrorKind::Semantic,
                        *pos,
                        format!("unknown state '{s}' in process '{}'", p.name),
                    )
                }
            },
            None => 0,
        };
        let pc_slot = c.slots.len() as u32;
        // The first process's control state also encodes DiVinE's error
        // state (value = number of states), hence one more value.
        let values = p.states.len() as u64 + u64::from(pi == 0);
        c.slots.push(Slot {
            name: format!("{}.pc", p.name),
            process: Some(pi),
            bits: bits_for(values),
        });
        c.init.push(init_state);
        c.procs.push(ProcInfo {
            name: p.name.clone(),
            pc_slot,
            states,
            state_names: p.states.iter().map(|(s, _)| s.clone()).collect(),
            locals: HashMap::new(),
        });
        c.declare(Some(pi), &p.decls)?;
    }

    // Transitions.
    let mut trans = Vec::new();
    let mut committed = Vec::new();
    for (pi, p) in sys.procs.iter().enumerate() {
        let info = &c.procs[pi];
        let state_of = |(s, pos): &(String, Pos)| -> Result<u32, DveError> {
            info.states.get(s).copied().ok_or_else(|| {
                DveError::at(
                    ErrorKind::Semantic,
                    file,
                    pos.line,
                    pos.col,
                    format!("unknown state '{s}' in process '{}'", p.name),
                )
            })
        };
        let mut is_committed = vec![false; p.states.len()];
        for s in &p.commit {
            is_committed[state_of(s)? as usize] = true;
        }
        for s in &p.accept {
            state_of(s)?;
        }
        for t in &p.trans {
            let from = state_of(&t.from)?;
            let to = state_of(&t.to)?;
            let guards = c.exprs(Some(pi), &t.guards)?;
            let sync = match &t.sync {
                None => CSync::None,
                Some(s) => {
                    let chan = match c.globals.get(&s.chan) {
                        Some(Sym::Chan(ch)) => *ch,
                        Some(_) => {
                            return c.err(
                                ErrorKind::Semantic,
                                s.pos,
                                format!("sync on '{}', which is not a channel", s.chan),
                            )
                        }
                        None => {
                            return c.err(
                                ErrorKind::Semantic,
                                s.pos,
                                format!("sync on undeclared channel '{}'", s.chan),
                            )
                        }
                    };
                    let ch = &c.chans[chan];
                    if let Some(types) = &ch.types {
                        let ok = s.args.len() == types.len()
                            || (!s.send && ch.cap == 0 && s.args.is_empty());
                        if !ok {
                            return c.err(
                                ErrorKind::Semantic,
                                s.pos,
                                format!(
                                    "type error: channel '{}' carries {} value(s), sync gives {}",
                                    s.chan,
                                    types.len(),
                                    s.args.len()
                                ),
                            );
                        }
                    }
                    if s.send {
                        CSync::Send {
                            chan,
                            vals: c.exprs(Some(pi), &s.args)?,
                        }
                    } else {
                        CSync::Recv {
                            chan,
                            lvals: c.lvals(Some(pi), &s.args)?,
                        }
                    }
                }
            };
            let effects = t
                .effects
                .iter()
                .map(|e| Ok((c.lval(Some(pi), &e.lhs)?, c.expr(Some(pi), &e.rhs)?)))
                .collect::<Result<Vec<_>, DveError>>()?;
            trans.push(CTrans {
                proc: pi,
                pc_slot: info.pc_slot,
                from,
                to,
                from_committed: is_committed[from as usize],
                code: Code::of(&guards, &sync, &effects),
                guards,
                sync,
                effects,
                label: format!(
                    "{}.{}->{}",
                    p.name, info.state_names[from as usize], info.state_names[to as usize]
                ),
                pos: t.pos,
            });
        }
        if is_committed.iter().any(|&b| b) {
            committed.push((info.pc_slot, is_committed));
        }
    }

    // Groups: in transition order; a rendezvous receive yields one group per
    // sender (other process, transition order); a rendezvous send yields none.
    // Senders are listed per channel first, so pairing costs the pairs, not
    // receivers x transitions.
    let mut senders: Vec<Vec<usize>> = vec![Vec::new(); c.chans.len()];
    for (si, s) in trans.iter().enumerate() {
        if let CSync::Send { chan, .. } = &s.sync {
            senders[*chan].push(si);
        }
    }
    let mut kinds = Vec::new();
    for (ti, t) in trans.iter().enumerate() {
        match &t.sync {
            CSync::Recv { chan, lvals } if c.chans[*chan].cap == 0 => {
                for &si in &senders[*chan] {
                    let s = &trans[si];
                    if let CSync::Send { chan: sc, vals } = &s.sync {
                        if sc == chan && s.proc != t.proc {
                            if !lvals.is_empty() && lvals.len() != vals.len() {
                                return c.err(
                                    ErrorKind::Semantic,
                                    t.pos,
                                    format!(
                                        "type error: transition {} receives {} value(s) on '{}' but transition {} (line {}) sends {}",
                                        t.label,
                                        lvals.len(),
                                        c.chans[*chan].name,
                                        s.label,
                                        s.pos.line,
                                        vals.len()
                                    ),
                                );
                            }
                            kinds.push(GroupKind::Pair { recv: ti, send: si });
                        }
                    }
                }
            }
            CSync::Send { chan, .. } if c.chans[*chan].cap == 0 => {}
            _ => kinds.push(GroupKind::Single(ti)),
        }
    }

    // The error state counts as committed when the first process has an even
    // number of states (see `DveModel::error_committed`); then whether any
    // group is enabled depends on the first process's control state.
    let error_committed = c
        .procs
        .first()
        .is_some_and(|p0| p0.state_names.len() % 2 == 0);
    let mut committed_pcs: Vec<usize> = committed.iter().map(|(s, _)| *s as usize).collect();
    if error_committed {
        committed_pcs.extend(c.procs.first().map(|p0| p0.pc_slot as usize));
    }
    // A send or a receive on a buffered channel reads and writes its count
    // and every cell.
    let buffer_deps = |chan: usize, read: &mut Vec<usize>, write: &mut Vec<usize>| {
        let ch = &c.chans[chan];
        if ch.cap > 0 {
            let n = ch.types.as_ref().map_or(0, Vec::len) * ch.cap as usize;
            let all = ch.count_slot as usize..=ch.count_slot as usize + n;
            read.extend(all.clone());
            write.extend(all);
        }
    };
    let side_deps = |t: &CTrans, read: &mut Vec<usize>, write: &mut Vec<usize>| {
        read.push(t.pc_slot as usize);
        write.push(t.pc_slot as usize);
        for g in &t.guards {
            g.reads(read);
        }
        match &t.sync {
            CSync::None => {}
            CSync::Send { chan, vals } => {
                for v in vals {
                    v.reads(read);
                }
                buffer_deps(*chan, read, write);
            }
            CSync::Recv { chan, lvals } => {
                for lv in lvals {
                    lv.deps(write, read);
                }
                buffer_deps(*chan, read, write);
            }
        }
        for (lv, e) in &t.effects {
            lv.deps(write, read);
            e.reads(read);
        }
    };
    let mut groups: Vec<TransitionGroup> = kinds
        .iter()
        .map(|k| {
            let (mut read, mut write) = (committed_pcs.clone(), Vec::new());
            let label = match *k {
                GroupKind::Single(t) => {
                    side_deps(&trans[t], &mut read, &mut write);
                    trans[t].label.clone()
                }
                GroupKind::Pair { recv, send } => {
                    side_deps(&trans[recv], &mut read, &mut write);
                    side_deps(&trans[send], &mut read, &mut write);
                    let ch = match &trans[recv].sync {
                        CSync::Recv { chan, .. } => c.chans[*chan].name.as_str(),
                        _ => "?",
                    };
                    format!("{}!{ch}?{}", trans[send].label, trans[recv].label)
                }
            };
            TransitionGroup {
                label,
                read: sorted(read),
                write: sorted(write),
            }
        })
        .collect();

    // A synchronous system replaces the groups by a single one.
    let sync = if sys.kind == SystemKind::Sync {
        let k = c.slots.len();
        groups = vec![TransitionGroup {
            label: "sync-step".into(),
            read: (0..k).collect(),
            write: (0..k).collect(),
        }];
        kinds = Vec::new();
        Some(sync_system(&c, &trans))
    } else {
        None
    };

    let mut error_state = vec![0; c.slots.len()];
    // DiVinE's error state puts the first process in state `n` (its number
    // of states); see `DveModel::error_committed` for the committed flag
    // DiVinE reads there.
    let mut error_pc = None;
    if let Some(p0) = c.procs.first() {
        let n = p0.state_names.len() as Value;
        error_state[p0.pc_slot as usize] = n;
        error_pc = Some((p0.pc_slot, n));
    }
    Ok(DveModel {
        dispatch: Dispatch::new(&kinds, &trans),
        error_state,
        error_pc,
        error_committed,
        policy: ErrorPolicy::default(),
        name: name.to_owned(),
        file: file.to_owned(),
        slots: c.slots,
        procs: sys.procs.iter().map(|p| p.name.clone()).collect(),
        init: c.init,
        groups,
        kinds,
        trans,
        chans: c.chans,
        committed,
        sync,
    })
}

/// The tables of a synchronous system: each process's transitions in
/// DiVinE's order (`compute_successors_without_sync` visits the sync modes
/// 0..=2, that is without sync, `!`, `?` on rendezvous channels, each in
/// declaration order; buffered channels are modes 3 and 4 and never fire),
/// each process's slot range, and for each transition the global variables
/// its effects assign (DiVinE's `glob_mask`: the parser marks the global
/// variable on the left of every effect; a receive's lvalues are not
/// marked) with their slots.
fn sync_system(c: &Compiler, trans: &[CTrans]) -> SyncSystem {
    let k = c.slots.len();
    let regions: Vec<_> = (0..c.procs.len())
        .map(|p| {
            let end = c.procs.get(p + 1).map_or(k, |q| q.pc_slot as usize);
            c.procs[p].pc_slot as usize..end
        })
        .collect();
    let rendezvous = |ch: usize| c.chans[ch].cap == 0;
    let mode = |t: &CTrans| match t.sync {
        CSync::None => Some(0),
        CSync::Send { chan, .. } if rendezvous(chan) => Some(1),
        CSync::Recv { chan, .. } if rendezvous(chan) => Some(2),
        _ => None,
    };
    let order = (0..c.procs.len())
        .map(|p| {
            let mut ts: Vec<(u8, usize)> = trans
                .iter()
                .enumerate()
                .filter(|(_, t)| t.proc == p)
                .filter_map(|(i, t)| mode(t).map(|m| (m, i)))
                .collect();
            ts.sort_unstable();
            ts.into_iter().map(|(_, i)| i).collect()
        })
        .collect();
    // Global variables (not constants) by first slot; they are the first
    // slots of the state vector, in declaration order.
    let mut globals: Vec<(u32, u32, &str)> = c
        .globals
        .iter()
        .filter_map(|(name, sym)| match sym {
            Sym::Var { base, len, .. } => Some((*base, len.unwrap_or(1), name.as_str())),
            _ => None,
        })
        .collect();
    globals.sort_unstable();
    let words = globals.len().div_ceil(64);
    let global_of = |slot: u32| globals.binary_search_by_key(&slot, |g| g.0).ok();
    let (mut masks, mut glob_slots) = (Vec::new(), Vec::new());
    for t in trans {
        let mut mask = vec![0u64; words];
        let mut slots = Vec::new();
        for (lv, _) in &t.effects {
            let base = match lv {
                LVal::Var(slot, ..) => *slot,
                LVal::Elem { base, .. } => *base,
            };
            if let Some(g) = global_of(base) {
                if mask[g / 64] & (1 << (g % 64)) == 0 {
                    mask[g / 64] |= 1 << (g % 64);
                    let (b, len, _) = globals[g];
                    slots.extend(b..b + len);
                }
            }
        }
        slots.sort_unstable();
        masks.push(mask);
        glob_slots.push(slots);
    }
    SyncSystem {
        order,
        regions,
        masks,
        glob_slots,
        globals: globals.iter().map(|g| g.2.to_owned()).collect(),
    }
}
