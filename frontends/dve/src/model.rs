//! The compiled DVE model ([`DveModel`]) and its semantics: expression
//! evaluation over a state vector, the enabling rule (control state, guards,
//! channel conditions, committed states) and the successor function, plus
//! the `pins::Model` implementation.
//!
//! Expressions are trees with every name already resolved to a slot index
//! (see `compile`), so evaluation does no look-up. Arithmetic is done on
//! `i32` like DiVinE's C code (values are at most 16 bits wide, so nothing
//! overflows except through shifts, which wrap). Run-time errors follow
//! DiVinE 2's interpreter: evaluation goes on (the bad operation gives 0),
//! the error is flagged, and [`ErrorPolicy`] decides what the transition
//! does.

use pins::{ModelError, Slot, TransitionGroup, Value};

use crate::code::Code;
use crate::dispatch::{with_scratch, Dispatch};
use crate::lexer::Pos;
use crate::parse::{BinOp, Ty, UnOp};

/// A compiled expression.
#[derive(Clone, Debug)]
pub(crate) enum Ex {
    Const(i32),
    /// A scalar variable of the given type.
    Var(u32, Ty),
    /// `a[idx]`: array of `len` slots starting at `base`.
    Elem {
        base: u32,
        len: u32,
        ty: Ty,
        idx: Box<Ex>,
        pos: Pos,
    },
    /// An element of a constant array.
    ConstElem {
        values: Box<[i32]>,
        idx: Box<Ex>,
        pos: Pos,
        name: Box<str>,
    },
    /// `P.s`: whether the control state in `slot` equals `state`.
    InState {
        slot: u32,
        state: u32,
    },
    Un(UnOp, Box<Ex>),
    Bin(BinOp, Box<Ex>, Box<Ex>, Pos),
}

/// An assignable location.
#[derive(Clone, Debug)]
pub(crate) enum LVal {
    Var(u32, Ty, Pos),
    Elem {
        base: u32,
        len: u32,
        ty: Ty,
        idx: Ex,
        pos: Pos,
    },
}

/// A run-time evaluation error, turned into a [`ModelError`] by the caller.
#[derive(Clone, Debug)]
pub(crate) struct EvalError {
    pub pos: Pos,
    pub message: String,
}

/// Evaluation context: slot names (for messages) and the first error met.
/// Like DiVinE 2's interpreter, evaluation goes on after an error (a bad
/// read gives 0, a division by zero gives 0) and only flags it.
pub(crate) struct Ctx<'a> {
    pub names: &'a [Slot],
    pub err: Option<EvalError>,
}

impl<'a> Ctx<'a> {
    pub(crate) fn new(names: &'a [Slot]) -> Self {
        Ctx { names, err: None }
    }
    #[cold]
    pub(crate) fn fail(&mut self, pos: Pos, message: impl FnOnce(&[Slot]) -> String) {
        if self.err.is_none() {
            self.err = Some(EvalError {
                pos,
                message: message(self.names),
            });
        }
    }
}

pub(crate) fn read_slot(v: Value, ty: Ty) -> i32 {
    match ty {
        Ty::Byte => (v & 0xFF) as i32,
        Ty::Int => i32::from(v as u16 as i16),
    }
}

/// The slot encoding of `v` truncated to `ty` (byte: low 8 bits; int: 16-bit
/// two's complement).
pub(crate) fn wrap(v: i32, ty: Ty) -> Value {
    match ty {
        Ty::Byte => Value::from(v as u8),
        Ty::Int => Value::from(v as i16 as u16),
    }
}

pub(crate) fn in_range(v: i32, ty: Ty) -> bool {
    match ty {
        Ty::Byte => (0..=255).contains(&v),
        Ty::Int => (-32768..=32767).contains(&v),
    }
}

fn ty_name(ty: Ty) -> &'static str {
    match ty {
        Ty::Byte => "byte",
        Ty::Int => "int",
    }
}

/// Checks an array index; `None` (and a flagged error) when out of range.
pub(crate) fn index(
    ctx: &mut Ctx,
    idx: i32,
    len: u32,
    pos: Pos,
    what: impl FnOnce(&[Slot]) -> String,
) -> Option<u32> {
    if idx >= 0 && (idx as u32) < len {
        Some(idx as u32)
    } else {
        ctx.fail(pos, |names| {
            format!(
                "array index {idx} out of range for {} of size {len}",
                what(names)
            )
        });
        None
    }
}

impl Ex {
    pub(crate) fn eval(&self, s: &[Value], ctx: &mut Ctx) -> i32 {
        match self {
            Ex::Const(c) => *c,
            Ex::Var(slot, ty) => read_slot(s[*slot as usize], *ty),
            Ex::Elem { idx, .. } | Ex::ConstElem { idx, .. } => {
                let i = idx.eval(s, ctx);
                self.element(s, i, ctx)
            }
            Ex::InState { slot, state } => i32::from(s[*slot as usize] == *state),
            Ex::Un(op, e) => {
                let v = e.eval(s, ctx);
                match op {
                    UnOp::Neg => v.wrapping_neg(),
                    UnOp::BitNot => !v,
                    UnOp::Not => i32::from(v == 0),
                }
            }
            Ex::Bin(op, a, b, pos) => {
                let x = a.eval(s, ctx);
                match op {
                    BinOp::And => {
                        return if x == 0 {
                            0
                        } else {
                            i32::from(b.eval(s, ctx) != 0)
                        }
                    }
                    BinOp::Or => {
                        return if x != 0 {
                            1
                        } else {
                            i32::from(b.eval(s, ctx) != 0)
                        }
                    }
                    BinOp::Imply => {
                        return if x == 0 {
                            1
                        } else {
                            i32::from(b.eval(s, ctx) != 0)
                        }
                    }
                    _ => {}
                }
                let y = b.eval(s, ctx);
                match op {
                    BinOp::BitOr => x | y,
                    BinOp::BitXor => x ^ y,
                    BinOp::BitAnd => x & y,
                    BinOp::Cmp(c) => i32::from(c.holds(x, y)),
                    BinOp::Shl => x.wrapping_shl(y as u32),
                    BinOp::Shr => x.wrapping_shr(y as u32),
                    BinOp::Add => x.wrapping_add(y),
                    BinOp::Sub => x.wrapping_sub(y),
                    BinOp::Mul => x.wrapping_mul(y),
                    BinOp::Div | BinOp::Mod => {
                        if y == 0 {
                            ctx.fail(*pos, |_| {
                                if *op == BinOp::Div {
                                    "division by zero"
                                } else {
                                    "modulo by zero"
                                }
                                .into()
                            });
                            0
                        } else if *op == BinOp::Div {
                            x.wrapping_div(y)
                        } else {
                            x.wrapping_rem(y)
                        }
                    }
                    BinOp::And | BinOp::Or | BinOp::Imply => unreachable!("handled above"),
                }
            }
        }
    }

    /// Element `i` of array element expression `self` (`Ex::Elem` of a
    /// variable or `Ex::ConstElem` of a constant array, its index already
    /// evaluated to `i`): 0 and an error flagged when out of range. The
    /// one bounds check of array reads, for the interpreter and `code`.
    #[inline]
    pub(crate) fn element(&self, s: &[Value], i: i32, ctx: &mut Ctx) -> i32 {
        match self {
            Ex::Elem {
                base, len, ty, pos, ..
            } => match index(ctx, i, *len, *pos, |n| array_name(n, *base)) {
                Some(i) => read_slot(s[(*base + i) as usize], *ty),
                None => 0,
            },
            Ex::ConstElem {
                values, pos, name, ..
            } => {
                let len = values.len() as u32;
                match index(ctx, i, len, *pos, |_| format!("array '{name}'")) {
                    Some(i) => values[i as usize],
                    None => 0,
                }
            }
            _ => 0,
        }
    }

    /// Adds the slots this expression may read to `out`.
    pub(crate) fn reads(&self, out: &mut Vec<usize>) {
        match self {
            Ex::Const(_) => {}
            Ex::Var(slot, _) => out.push(*slot as usize),
            Ex::Elem { base, len, idx, .. } => {
                match **idx {
                    Ex::Const(k) if k >= 0 && (k as u32) < *len => {
                        out.push((*base + k as u32) as usize)
                    }
                    _ => out.extend((*base..*base + *len).map(|x| x as usize)),
                }
                idx.reads(out);
            }
            Ex::ConstElem { idx, .. } => idx.reads(out),
            Ex::InState { slot, .. } => out.push(*slot as usize),
            Ex::Un(_, e) => e.reads(out),
            Ex::Bin(_, a, b, _) => {
                a.reads(out);
                b.reads(out);
            }
        }
    }

    /// Whether the expression reads no slot.
    pub(crate) fn is_closed(&self) -> bool {
        match self {
            Ex::Const(_) => true,
            Ex::Var(..) | Ex::Elem { .. } | Ex::InState { .. } => false,
            Ex::ConstElem { idx, .. } => idx.is_closed(),
            Ex::Un(_, e) => e.is_closed(),
            Ex::Bin(_, a, b, _) => a.is_closed() && b.is_closed(),
        }
    }
}

fn array_name(names: &[Slot], base: u32) -> String {
    let n = names.get(base as usize).map_or("?", |s| s.name.as_str());
    format!("array '{}'", n.strip_suffix("[0]").unwrap_or(n))
}

impl LVal {
    /// Adds the slots written to `write` and the slots read to `read`
    /// (an element with a non-constant index writes, and reads, the whole
    /// array: unwritten elements are copied).
    pub(crate) fn deps(&self, write: &mut Vec<usize>, read: &mut Vec<usize>) {
        match self {
            LVal::Var(slot, ..) => write.push(*slot as usize),
            LVal::Elem { base, len, idx, .. } => {
                match *idx {
                    Ex::Const(k) if k >= 0 && (k as u32) < *len => {
                        write.push((*base + k as u32) as usize)
                    }
                    _ => {
                        write.extend((*base..*base + *len).map(|x| x as usize));
                        read.extend((*base..*base + *len).map(|x| x as usize));
                    }
                }
                idx.reads(read);
            }
        }
    }

    /// Stores `v`; a value out of the type's range is flagged as an error
    /// (DiVinE 2: "breaking bounds") and stored truncated.
    pub(crate) fn store(&self, out: &mut [Value], v: i32, ctx: &mut Ctx) {
        let (slot, ty, pos) = match self {
            LVal::Var(slot, ty, pos) => (*slot, *ty, *pos),
            LVal::Elem {
                base,
                len,
                ty,
                idx,
                pos: ipos,
            } => {
                let i = idx.eval(out, ctx);
                match index(ctx, i, *len, *ipos, |n| array_name(n, *base)) {
                    Some(i) => (*base + i, *ty, *ipos),
                    None => return,
                }
            }
        };
        if !in_range(v, ty) {
            ctx.fail(pos, |names| {
                format!(
                    "value {v} out of range of {} variable '{}'",
                    ty_name(ty),
                    names.get(slot as usize).map_or("?", |s| s.name.as_str())
                )
            });
        }
        out[slot as usize] = wrap(v, ty);
    }
}

/// A channel: rendezvous (`cap == 0`) or a FIFO buffer of `cap` tuples.
#[derive(Clone, Debug)]
pub(crate) struct Chan {
    pub name: String,
    /// Component types, when declared (`channel {byte,int} c[2]`).
    pub types: Option<Vec<Ty>>,
    pub cap: u32,
    /// Slot of the item count (buffered channels only).
    pub count_slot: u32,
}

impl Chan {
    fn arity(&self) -> usize {
        self.types.as_ref().map_or(0, Vec::len)
    }
    fn item_slot(&self, item: u32, comp: usize) -> usize {
        self.count_slot as usize + 1 + item as usize * self.arity() + comp
    }
}

#[derive(Clone, Debug)]
pub(crate) enum CSync {
    None,
    Send { chan: usize, vals: Vec<Ex> },
    Recv { chan: usize, lvals: Vec<LVal> },
}

/// One compiled process transition.
#[derive(Clone, Debug)]
pub(crate) struct CTrans {
    pub proc: usize,
    pub pc_slot: u32,
    pub from: u32,
    pub to: u32,
    pub from_committed: bool,
    pub guards: Vec<Ex>,
    pub sync: CSync,
    pub effects: Vec<(LVal, Ex)>,
    pub label: String,
    pub pos: Pos,
    /// `guards` and `effects` compiled (filled when the model is built).
    pub code: Code,
}

/// What a transition group fires.
#[derive(Clone, Copy, Debug)]
pub(crate) enum GroupKind {
    /// A transition without rendezvous (possibly on a buffered channel).
    Single(usize),
    /// A rendezvous: receiver and sender transitions (indices into `trans`).
    Pair { recv: usize, send: usize },
}

/// The synchronous composition of a `system sync` model (DiVinE 2's
/// `get_sync_succs_internal`; see the crate documentation).
#[derive(Clone, Debug)]
pub(crate) struct SyncSystem {
    /// Per process: its transitions (indices into `DveModel::trans`) in the
    /// order DiVinE tries them: without sync, then rendezvous sends, then
    /// rendezvous receives, each in declaration order. Transitions on
    /// buffered channels are absent: they never fire in a synchronous system.
    pub order: Vec<Vec<usize>>,
    /// Per process: its slots (control state, then locals), contiguous.
    pub regions: Vec<std::ops::Range<usize>>,
    /// Per transition: the global variables its effects assign (DiVinE's
    /// `glob_mask`), a bit set over `globals` in words of 64 bits.
    pub masks: Vec<Vec<u64>>,
    /// Per transition: the slots of those variables (whole arrays), which
    /// the composed successor takes from this transition's successor.
    pub glob_slots: Vec<Vec<u32>>,
    /// Global variable names (bit `i` of a mask is `globals[i]`).
    pub globals: Vec<String>,
}

/// What happens when evaluating a transition meets a run-time error
/// (division or modulo by zero, array index out of range, a value out of
/// the range of the variable it is assigned to).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ErrorPolicy {
    /// DiVinE 2's behaviour, with which BEEM's state counts were computed:
    /// the transition leads to the single *error state* (every slot 0,
    /// except the control state of the first process, set to that process's
    /// number of states, a value no state has). The error state is explored
    /// like any other state, except that it counts as committed when the
    /// first process has an even number of states (DiVinE reads an
    /// uninitialised flag there; see the crate documentation). In a
    /// synchronous system an erroneous transition is composed with the
    /// other processes' moves instead, and erroneous states have no
    /// successors (see the crate documentation). See
    /// [`DveModel::is_error_state`].
    #[default]
    ErrorState,
    /// Report the error as a [`ModelError`] naming `FILE:LINE:COL` and the
    /// transition, and stop.
    Fail,
}

/// A DVE model compiled for exploration; see the crate documentation for
/// the state vector layout and the semantics.
#[derive(Clone, Debug)]
pub struct DveModel {
    pub(crate) name: String,
    pub(crate) file: String,
    pub(crate) slots: Vec<Slot>,
    pub(crate) procs: Vec<String>,
    pub(crate) init: Vec<Value>,
    pub(crate) groups: Vec<TransitionGroup>,
    pub(crate) kinds: Vec<GroupKind>,
    pub(crate) trans: Vec<CTrans>,
    pub(crate) chans: Vec<Chan>,
    /// Control-state slots of processes with committed states, and which of
    /// their states are committed.
    pub(crate) committed: Vec<(u32, Vec<bool>)>,
    /// DiVinE's error state.
    pub(crate) error_state: Vec<Value>,
    /// The first process's control-state slot and its value in the error
    /// state (no other state has it).
    pub(crate) error_pc: Option<(u32, Value)>,
    /// Whether the error state counts as committed. DiVinE 2 decides this
    /// by reading the first process's committed flag one past its array
    /// (`dve_process_t::get_commited` admits `lid == size`), that is,
    /// uninitialised memory. We model the flag as set iff the first process
    /// has an even number of states: the one rule that reproduces BEEM's
    /// counts for both instance families known to reach the error state
    /// (see the crate documentation).
    pub(crate) error_committed: bool,
    pub(crate) policy: ErrorPolicy,
    /// `Some` for a `system sync` model: then there is a single group
    /// (`sync-step`) and `kinds` is empty.
    pub(crate) sync: Option<SyncSystem>,
    /// The groups each control state may fire (of `kinds`).
    pub(crate) dispatch: Dispatch,
}

#[cfg(test)]
#[path = "dispatch_tests.rs"]
mod dispatch_tests;

#[cfg(test)]
#[path = "code_tests.rs"]
mod code_tests;

impl DveModel {
    /// Number of process transitions (before pairing rendezvous).
    pub fn transition_count(&self) -> usize {
        self.trans.len()
    }

    /// Number of channels (rendezvous and buffered).
    pub fn channel_count(&self) -> usize {
        self.chans.len()
    }

    /// The current run-time error policy (default [`ErrorPolicy::ErrorState`]).
    pub fn error_policy(&self) -> ErrorPolicy {
        self.policy
    }

    /// Chooses what a run-time error does.
    pub fn set_error_policy(&mut self, policy: ErrorPolicy) {
        self.policy = policy;
    }

    /// Whether `state` is erroneous in DiVinE's sense (`is_erroneous`): the
    /// first process's control state holds its number of states, a value no
    /// transition sets. In an asynchronous system the only such state is
    /// the error state (see [`ErrorPolicy`]). In a synchronous one a step
    /// whose first-process transition fails also composes that marker with
    /// the other processes' successors, so several erroneous states may be
    /// reachable (all without successors; see the crate documentation).
    pub fn is_error_state(&self, state: &[Value]) -> bool {
        state.len() == self.slots.len()
            && self
                .error_pc
                .is_some_and(|(slot, n)| state[slot as usize] == n)
    }

    /// Whether the model is a synchronous system (`system sync`).
    pub fn is_synchronous(&self) -> bool {
        self.sync.is_some()
    }

    fn model_error(&self, t: &CTrans, e: EvalError) -> ModelError {
        ModelError::at(
            format!("{}:{}:{}", self.file, e.pos.line, e.pos.col),
            format!("{} (transition {})", e.message, t.label),
        )
    }

    fn in_committed(&self, s: &[Value]) -> bool {
        self.committed
            .iter()
            .any(|(slot, c)| c.get(s[*slot as usize] as usize).copied().unwrap_or(false))
    }

    /// Control state and guards; errors are flagged in `ctx`. With
    /// `checked`, the dispatch found the control state and the leading
    /// comparisons true: only the rest of the guards is evaluated.
    fn enabled_local(&self, t: &CTrans, s: &[Value], checked: bool, ctx: &mut Ctx) -> bool {
        if checked {
            return t.code.rest.iter().all(|g| g(s, ctx) != 0);
        }
        s[t.pc_slot as usize] == t.from && t.code.guards.iter().all(|g| g(s, ctx) != 0)
    }

    /// Control state, then the effects in order, each seeing the previous.
    fn apply_effects(&self, t: &CTrans, out: &mut [Value], ctx: &mut Ctx) {
        out[t.pc_slot as usize] = t.to;
        for effect in t.code.effects.iter() {
            effect(out, ctx);
        }
    }

    /// Applies the error policy after firing transition `t` (or a pair whose
    /// first erroneous side is `t`).
    #[inline]
    fn finish(&self, t: &CTrans, ctx: Ctx, out: &mut Vec<Value>) -> Result<bool, ModelError> {
        match ctx.err {
            None => Ok(true),
            Some(e) => self.failed(t, e, out),
        }
    }

    /// [`DveModel::finish`] after an error.
    #[cold]
    fn failed(&self, t: &CTrans, e: EvalError, out: &mut Vec<Value>) -> Result<bool, ModelError> {
        match self.policy {
            ErrorPolicy::Fail => Err(self.model_error(t, e)),
            ErrorPolicy::ErrorState => {
                out.clear();
                out.extend_from_slice(&self.error_state);
                Ok(true)
            }
        }
    }

    /// Whether some process of `s` is in a committed state (the error state
    /// counting as one as [`DveModel::error_committed`] says).
    fn committed_state(&self, s: &[Value]) -> bool {
        (!self.committed.is_empty() && self.in_committed(s))
            || (self.error_committed
                && self.error_pc.is_some_and(|(slot, n)| s[slot as usize] == n))
    }

    /// Fires `group` from `s` into `out`; `Ok(false)` when the group is not
    /// enabled. Follows DiVinE 2's interpreter (`dve_explicit_system`).
    /// `committed` is [`DveModel::committed_state`]`(s)`. `checked`: the
    /// group passed [`Dispatch::try_each_candidate`]'s tests in `s`, which
    /// are not repeated (see `Dispatch::new` for what they cover).
    #[inline(always)]
    pub(crate) fn fire(
        &self,
        s: &[Value],
        group: usize,
        committed: bool,
        checked: bool,
        out: &mut Vec<Value>,
    ) -> Result<bool, ModelError> {
        match self.kinds[group] {
            GroupKind::Single(ti) => self.fire_single(&self.trans[ti], s, committed, checked, out),
            GroupKind::Pair { recv, send } => {
                let (r, w) = (&self.trans[recv], &self.trans[send]);
                self.fire_pair(r, w, s, committed, checked, out)
            }
        }
    }

    /// [`DveModel::fire`] of a transition without rendezvous (none, or on
    /// a buffered channel).
    #[inline(always)]
    fn fire_single(
        &self,
        t: &CTrans,
        s: &[Value],
        committed: bool,
        checked: bool,
        out: &mut Vec<Value>,
    ) -> Result<bool, ModelError> {
        if committed && !t.from_committed {
            return Ok(false);
        }
        let mut ctx = Ctx::new(&self.slots);
        if !self.enabled_local(t, s, checked, &mut ctx) {
            return self.not_enabled(t, ctx);
        }
        if !self.buffer_ready(t, s) {
            return Ok(false);
        }
        copy_state(s, out);
        // DiVinE 2 applies the effects first, then the buffer operation.
        self.apply_effects(t, out, &mut ctx);
        if !matches!(t.sync, CSync::None) {
            self.buffer_op(t, s, out, &mut ctx);
        }
        self.finish(t, ctx, out)
    }

    /// [`DveModel::fire`] of a rendezvous: receiver `r`, sender `w`.
    fn fire_pair(
        &self,
        r: &CTrans,
        w: &CTrans,
        s: &[Value],
        committed: bool,
        checked: bool,
        out: &mut Vec<Value>,
    ) -> Result<bool, ModelError> {
        if committed && !(r.from_committed && w.from_committed) {
            return Ok(false);
        }
        let mut ctx = Ctx::new(&self.slots);
        // the dispatch checks the sender too when the receiver's
        // guards are all leading comparisons
        let sender_checked = checked && r.code.rest.is_empty();
        let enabled = self.enabled_local(r, s, checked, &mut ctx)
            && self.enabled_local(w, s, sender_checked, &mut ctx);
        if !enabled {
            return self.not_enabled(r, ctx);
        }
        copy_state(s, out);
        for (store, value) in r.code.recvs.iter().zip(w.code.sends.iter()) {
            let v = value(out, &mut ctx);
            store(out, v, &mut ctx);
        }
        self.apply_effects(r, out, &mut ctx);
        self.apply_effects(w, out, &mut ctx);
        self.finish(r, ctx, out)
    }

    /// The answer when the guards of `t` (a pair's receiver) are false:
    /// not enabled, or the error their evaluation met under
    /// [`ErrorPolicy::Fail`].
    fn not_enabled(&self, t: &CTrans, ctx: Ctx) -> Result<bool, ModelError> {
        match (ctx.err, self.policy) {
            (Some(e), ErrorPolicy::Fail) => Err(self.model_error(t, e)),
            _ => Ok(false),
        }
    }

    /// Whether the buffer of `t`'s channel lets it fire: a send needs room,
    /// a receive an item; true without a buffered channel.
    #[inline]
    fn buffer_ready(&self, t: &CTrans, s: &[Value]) -> bool {
        let (CSync::Send { chan, .. } | CSync::Recv { chan, .. }) = &t.sync else {
            return true;
        };
        let c = &self.chans[*chan];
        let n = s[c.count_slot as usize];
        match t.sync {
            CSync::Send { .. } => n < c.cap,
            _ => n != 0 && n <= c.cap,
        }
    }

    /// The buffer operation of `t` on `out` (its effects applied), `s` the
    /// source state: a send appends the values, evaluated on `out`; a
    /// receive stores the oldest item into its lvalues and shifts the rest.
    #[cold]
    fn buffer_op(&self, t: &CTrans, s: &[Value], out: &mut [Value], ctx: &mut Ctx) {
        match &t.sync {
            CSync::Send { chan, .. } => {
                let c = &self.chans[*chan];
                let n = s[c.count_slot as usize];
                out[c.count_slot as usize] = n + 1;
                for (k, value) in t.code.sends.iter().enumerate() {
                    let v = value(out, ctx);
                    let ty = c.types.as_ref().map_or(Ty::Int, |t| t[k]);
                    out[c.item_slot(n, k)] = wrap(v, ty);
                }
            }
            CSync::Recv { chan, .. } => {
                let c = &self.chans[*chan];
                let n = out[c.count_slot as usize];
                let types = c.types.as_deref().unwrap_or(&[]);
                for (k, store) in t.code.recvs.iter().enumerate() {
                    let v = read_slot(out[c.item_slot(0, k)], types[k]);
                    store(out, v, ctx);
                }
                for item in 1..n {
                    for k in 0..c.arity() {
                        out[c.item_slot(item - 1, k)] = out[c.item_slot(item, k)];
                    }
                }
                for k in 0..c.arity() {
                    out[c.item_slot(n - 1, k)] = 0;
                }
                out[c.count_slot as usize] = n - 1;
            }
            CSync::None => {}
        }
    }
}

/// `out` becomes a copy of `s` (reusing its buffer).
#[inline]
fn copy_state(s: &[Value], out: &mut Vec<Value>) {
    if out.len() == s.len() {
        out.copy_from_slice(s);
    } else {
        out.clear();
        out.extend_from_slice(s);
    }
}

impl DveModel {
    /// One step of a synchronous system, following DiVinE 2's
    /// `get_sync_succs_internal`: every process makes exactly one transition.
    ///
    /// First, for each process in order, the successor of each of its
    /// enabled transitions (in `SyncSystem::order`) is computed separately
    /// from `s`: control state and effects, or the error state if the guard
    /// or an effect fails (a guard whose evaluation fails counts as enabled,
    /// as in DiVinE's `passed_through`). A process without enabled
    /// transition makes `s` a deadlock. Then every combination (process 0's
    /// choice varying fastest) is composed (`create_state_by_composition`):
    /// a copy of `s` that takes each process's region from that process's
    /// successor, and the global variables the transition assigns from the
    /// same successor. When two transitions of the combination assign a
    /// common global variable (`not_in_glob_conflict`) the result is the
    /// error state.
    fn sync_step(
        &self,
        sy: &SyncSystem,
        s: &[Value],
        emit: &mut dyn FnMut(&[Value]),
    ) -> Result<(), ModelError> {
        let (n, k) = (sy.order.len(), s.len());
        if n == 0 {
            return Ok(());
        }
        // Successors of single transitions, `k` values each, and the
        // transition that made each; `start[p]..start[p + 1]` are process p's.
        let mut succs: Vec<Value> = Vec::new();
        let mut fired: Vec<usize> = Vec::new();
        let mut start = Vec::with_capacity(n + 1);
        for order in &sy.order {
            let first = fired.len();
            start.push(first);
            for &ti in order {
                let t = &self.trans[ti];
                if s[t.pc_slot as usize] != t.from {
                    continue;
                }
                let mut ctx = Ctx::new(&self.slots);
                let pass = t.guards.iter().all(|g| g.eval(s, &mut ctx) != 0);
                if !pass && ctx.err.is_none() {
                    continue;
                }
                let at = succs.len();
                succs.extend_from_slice(s);
                if ctx.err.is_none() {
                    self.apply_effects(t, &mut succs[at..], &mut ctx);
                }
                if let Some(e) = ctx.err {
                    if self.policy == ErrorPolicy::Fail {
                        return Err(self.model_error(t, e));
                    }
                    succs[at..].copy_from_slice(&self.error_state);
                }
                fired.push(ti);
            }
            if fired.len() == first {
                return Ok(());
            }
        }
        start.push(fired.len());
        let words = sy.masks.first().map_or(0, Vec::len);
        let mut acc = vec![0u64; words];
        let mut cur = vec![0usize; n];
        let mut out = vec![0; k];
        loop {
            out.copy_from_slice(s);
            acc.fill(0);
            let mut conflict = None;
            for (p, region) in sy.regions.iter().enumerate() {
                let j = start[p] + cur[p];
                let (ti, succ) = (fired[j], &succs[j * k..(j + 1) * k]);
                out[region.clone()].copy_from_slice(&succ[region.clone()]);
                for &g in &sy.glob_slots[ti] {
                    out[g as usize] = succ[g as usize];
                }
                if conflict.is_none() {
                    let mask = &sy.masks[ti];
                    if mask.iter().zip(&acc).any(|(m, a)| m & a != 0) {
                        conflict = Some(p);
                    } else {
                        acc.iter_mut().zip(mask).for_each(|(a, m)| *a |= m);
                    }
                }
            }
            if let Some(p) = conflict {
                if self.policy == ErrorPolicy::Fail {
                    let chosen: Vec<usize> = (0..=p).map(|q| fired[start[q] + cur[q]]).collect();
                    return Err(self.conflict_error(sy, &chosen));
                }
                out.copy_from_slice(&self.error_state);
            }
            emit(&out);
            // Next combination, the first process's choice varying fastest.
            let mut i = 0;
            while i + 1 < n && start[i] + cur[i] + 1 >= start[i + 1] {
                cur[i] = 0;
                i += 1;
            }
            cur[i] += 1;
            if start[n - 1] + cur[n - 1] >= start[n] {
                return Ok(());
            }
        }
    }

    /// The error of a synchronous step whose last chosen transition assigns
    /// a global variable that an earlier one assigns too.
    #[cold]
    fn conflict_error(&self, sy: &SyncSystem, chosen: &[usize]) -> ModelError {
        let (&last, earlier) = chosen
            .split_last()
            .expect("a conflict needs two transitions");
        let mask = &sy.masks[last];
        let other = earlier
            .iter()
            .copied()
            .find(|&o| sy.masks[o].iter().zip(mask).any(|(a, b)| a & b != 0))
            .unwrap_or(last);
        let common: Vec<&str> = sy
            .globals
            .iter()
            .enumerate()
            .filter(|(i, _)| {
                let bit = 1u64 << (i % 64);
                mask[i / 64] & bit != 0 && sy.masks[other][i / 64] & bit != 0
            })
            .map(|(_, name)| name.as_str())
            .collect();
        let t = &self.trans[last];
        ModelError::at(
            format!("{}:{}:{}", self.file, t.pos.line, t.pos.col),
            format!(
                "transitions {} and {} both assign global variable{} '{}' in the same synchronous step",
                self.trans[other].label,
                t.label,
                if common.len() > 1 { "s" } else { "" },
                common.join("', '")
            ),
        )
    }
}

impl DveModel {
    /// A state of the wrong length is an error, never a panic.
    fn check_len(&self, state: &[Value]) -> Result<(), ModelError> {
        if state.len() == self.slots.len() {
            return Ok(());
        }
        Err(ModelError::new(format!(
            "state has {} values, model has {} slots",
            state.len(),
            self.slots.len()
        )))
    }
}

impl pins::Model for DveModel {
    pins::describe_model!("dve", name, slots, procs, groups);

    fn initial_state(&self) -> Vec<Value> {
        self.init.clone()
    }

    fn is_error_state(&self, state: &[Value]) -> bool {
        // Only the asynchronous error state is one constant vector; a
        // synchronous system has a single group writing every slot.
        !self.is_synchronous() && DveModel::is_error_state(self, state)
    }

    fn next(&self, state: &[Value], group: usize, emit: &mut pins::Emit) -> pins::Step {
        self.check_len(state)?;
        if group >= self.groups.len() {
            return Err(ModelError::new(format!(
                "group {group} out of range ({} groups)",
                self.groups.len()
            )));
        }
        if let Some(sy) = &self.sync {
            return self.sync_step(sy, state, emit);
        }
        let mut out = Vec::with_capacity(state.len());
        if self.fire(state, group, self.committed_state(state), false, &mut out)? {
            emit(&out);
        }
        Ok(())
    }

    fn next_all(&self, state: &[Value], emit: &mut pins::EmitAll) -> pins::Step {
        self.check_len(state)?;
        if let Some(sy) = &self.sync {
            return self.sync_step(sy, state, &mut |t| emit(0, t));
        }
        let committed = self.committed_state(state);
        with_scratch(|out| {
            self.dispatch.try_each_candidate(state, |g| {
                if self.fire(state, g, committed, true, out)? {
                    emit(g, out);
                }
                Ok(())
            })
        })
    }
}
