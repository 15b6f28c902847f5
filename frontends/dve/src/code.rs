//! Guards, effects and rendezvous value passing compiled at load time into
//! closures over the state vector: each expression node becomes a closure
//! made for its operator and operand kinds (a variable or an element at a
//! constant index compared with a constant, an arithmetic operation with a
//! constant, an element read...), so that a transition runs no `match` over
//! the expression tree. Affine expressions (`affine`: array indices such as
//! `a[((y)*8+x-1)]`, values such as `x-1`) are one node, evaluated in one
//! pass; an element read at an index of at most two terms, alone or
//! compared with a constant, is one closure.
//!
//! The tree interpreter ([`Ex::eval`], [`LVal::store`]) stays the
//! semantics: a store this module cannot do directly (index or value out of
//! range) is [`LVal::store`], and errors are flagged in the same [`Ctx`]
//! with the same messages (`code_tests` checks both on every reachable
//! state of the small BEEM models).

use std::sync::Arc;

use pins::Value;
use scan::Interval;

use crate::affine::{Affine, Affine2};
use crate::dispatch::{element, residual};
use crate::lexer::Pos;
use crate::model::{in_range, read_slot, wrap, CSync, Ctx, Ex, LVal};
use crate::parse::{BinOp, Ty, UnOp};

type ExFn = Box<dyn Fn(&[Value], &mut Ctx) -> i32 + Send + Sync>;
type StoreFn = Box<dyn Fn(&mut [Value], &mut Ctx) + Send + Sync>;
/// Stores a received value (evaluated elsewhere) into an lvalue.
type RecvFn = Box<dyn Fn(&mut [Value], i32, &mut Ctx) + Send + Sync>;

/// A transition's guards, effects and sync values, compiled.
#[derive(Clone, Default)]
pub(crate) struct Code {
    /// Every guard, in order.
    pub guards: Arc<[ExFn]>,
    /// The conjuncts of the guards left after their leading comparisons
    /// (`dispatch::residual`): what is still to test once the dispatch
    /// found the control state and those comparisons true.
    pub rest: Arc<[ExFn]>,
    pub effects: Arc<[StoreFn]>,
    /// A send's values, in order.
    pub sends: Arc<[ExFn]>,
    /// A receive's lvalues, in order.
    pub recvs: Arc<[RecvFn]>,
}

impl std::fmt::Debug for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Code({} guards, {} left after the dispatch, {} effects)",
            self.guards.len(),
            self.rest.len(),
            self.effects.len()
        )
    }
}

impl Code {
    pub(crate) fn of(guards: &[Ex], sync: &CSync, effects: &[(LVal, Ex)]) -> Code {
        let (sends, recvs): (&[Ex], &[LVal]) = match sync {
            CSync::None => (&[], &[]),
            CSync::Send { vals, .. } => (vals, &[]),
            CSync::Recv { lvals, .. } => (&[], lvals),
        };
        Code {
            guards: guards.iter().map(expr).collect(),
            rest: residual(guards).into_iter().map(expr).collect(),
            effects: effects.iter().map(|(lv, e)| effect(lv, e)).collect(),
            sends: sends.iter().map(expr).collect(),
            recvs: recvs.iter().map(store).collect(),
        }
    }
}

/// The slot and type of a scalar or of an element at a constant index in
/// range: a place read or written without any check of the index.
fn place(lv: &LVal) -> Option<(usize, Ty)> {
    match lv {
        LVal::Var(slot, ty, _) => Some((*slot as usize, *ty)),
        LVal::Elem {
            base, len, ty, idx, ..
        } => match *idx {
            Ex::Const(k) if k >= 0 && (k as u32) < *len => Some(((base + k as u32) as usize, *ty)),
            _ => None,
        },
    }
}

/// An operand evaluated without a call when it is affine (an array index
/// `y*8+x-1`, an assigned value `x-1`), else by its compiled closure.
enum Operand {
    Affine(Affine),
    Code(ExFn),
}

impl Operand {
    fn of(e: &Ex) -> Operand {
        match Affine::of(e) {
            Some(a) => Operand::Affine(a),
            None => Operand::Code(expr(e)),
        }
    }
}

/// What computes an array index: an [`Operand`], or an [`Affine2`] when
/// the index is known to be one (a closure without any `match`).
trait Index: Send + Sync + 'static {
    fn index(&self, s: &[Value], ctx: &mut Ctx) -> i32;
}

impl Index for Operand {
    #[inline(always)]
    fn index(&self, s: &[Value], ctx: &mut Ctx) -> i32 {
        match self {
            Operand::Affine(a) => a.eval(s),
            Operand::Code(f) => f(s, ctx),
        }
    }
}

impl Index for Affine2 {
    #[inline(always)]
    fn index(&self, s: &[Value], _: &mut Ctx) -> i32 {
        self.eval(s)
    }
}

/// A read of `a[idx]` (a variable or a constant array) at an index that
/// is not a constant: the index, then the element, the bounds check and
/// its error by [`Ex::element`] when out of range.
struct ElemRead<I> {
    /// The element at index `i` in range: slot `base + i` of type `ty`, or
    /// `values[i]` of a constant array.
    base: u32,
    ty: Ty,
    values: Option<Box<[i32]>>,
    len: u32,
    idx: I,
    at: Ex,
}

impl<I> ElemRead<I> {
    /// The same read, its index computed by `idx`.
    fn at_index<J>(self, idx: J) -> ElemRead<J> {
        let ElemRead {
            base,
            ty,
            values,
            len,
            at,
            ..
        } = self;
        ElemRead {
            base,
            ty,
            values,
            len,
            idx,
            at,
        }
    }
}

impl<I: Index> ElemRead<I> {
    #[inline(always)]
    fn get(&self, s: &[Value], ctx: &mut Ctx) -> i32 {
        let i = self.idx.index(s, ctx);
        // a negative index is above every length (at most 65536)
        if (i as u32) >= self.len {
            return self.at.element(s, i, ctx);
        }
        match &self.values {
            None => read_slot(s[(self.base + i as u32) as usize], self.ty),
            Some(values) => values[i as usize],
        }
    }

    /// The closure reading the element, or testing it against `test`.
    fn compiled(self, test: Option<Interval>) -> ExFn {
        match test {
            None => Box::new(move |s, ctx| self.get(s, ctx)),
            Some(t) => Box::new(move |s, ctx| i32::from(t.holds(self.get(s, ctx)))),
        }
    }
}

/// `e` compiled when it is an array element at a non-constant index: its
/// value, or with `test` whether the test holds of it.
fn elem_read(e: &Ex, test: Option<Interval>) -> Option<ExFn> {
    let (base, ty, values, len, idx) = match e {
        Ex::Elem {
            base, len, ty, idx, ..
        } => (*base, *ty, None, *len, idx),
        Ex::ConstElem { values, idx, .. } => {
            let len = values.len() as u32;
            (0, Ty::Int, Some(values.clone()), len, idx)
        }
        _ => return None,
    };
    let read = ElemRead {
        base,
        ty,
        values,
        len,
        idx: Operand::of(idx),
        at: e.clone(),
    };
    Some(match read.idx {
        Operand::Affine(Affine::Short(idx)) => read.at_index(idx).compiled(test),
        _ => read.compiled(test),
    })
}

/// Stores a value into `lv`, as [`LVal::store`] does.
fn store(lv: &LVal) -> RecvFn {
    let fallback = lv.clone();
    if let Some((slot, ty)) = place(lv) {
        return Box::new(move |out, v, ctx| {
            if in_range(v, ty) {
                out[slot] = wrap(v, ty);
            } else {
                fallback.store(out, v, ctx);
            }
        });
    }
    let LVal::Elem {
        base, len, ty, idx, ..
    } = lv
    else {
        unreachable!("a scalar is a place");
    };
    let (base, len, ty, idx) = (*base, *len, *ty, Operand::of(idx));
    Box::new(move |out, v, ctx| {
        let i = idx.index(out, ctx);
        if (i as u32) < len && in_range(v, ty) {
            out[(base + i as u32) as usize] = wrap(v, ty);
        } else {
            fallback.store(out, v, ctx);
        }
    })
}

/// `lv := e`: evaluated on the successor being built, as
/// `DveModel::apply_effects` does.
fn effect(lv: &LVal, e: &Ex) -> StoreFn {
    match (place(lv), e) {
        (Some((slot, ty)), Ex::Const(k)) if in_range(*k, ty) => {
            let w = wrap(*k, ty);
            Box::new(move |out, _| out[slot] = w)
        }
        (Some((slot, ty)), _) => {
            let (value, fallback) = (Operand::of(e), lv.clone());
            Box::new(move |out, ctx| {
                let v = value.index(out, ctx);
                if in_range(v, ty) {
                    out[slot] = wrap(v, ty);
                } else {
                    fallback.store(out, v, ctx);
                }
            })
        }
        (None, _) => {
            let (value, st) = (Operand::of(e), store(lv));
            Box::new(move |out, ctx| {
                let v = value.index(out, ctx);
                st(out, v, ctx);
            })
        }
    }
}

fn expr(e: &Ex) -> ExFn {
    if let Some((slot, ty)) = element(e) {
        let slot = slot as usize;
        return match ty {
            Ty::Byte => Box::new(move |s, _| (s[slot] & 0xFF) as i32),
            Ty::Int => Box::new(move |s, _| read_slot(s[slot], Ty::Int)),
        };
    }
    if let Some(a) = Affine::of_compound(e) {
        return Box::new(move |s, _| a.eval(s));
    }
    if let Some(f) = elem_read(e, None) {
        return f;
    }
    match e {
        Ex::Const(c) => {
            let c = *c;
            Box::new(move |_, _| c)
        }
        Ex::InState { slot, state } => {
            let (slot, state) = (*slot as usize, *state);
            Box::new(move |s, _| i32::from(s[slot] == state))
        }
        Ex::Un(op, a) => {
            let a = expr(a);
            match op {
                UnOp::Neg => Box::new(move |s, ctx| a(s, ctx).wrapping_neg()),
                UnOp::BitNot => Box::new(move |s, ctx| !a(s, ctx)),
                UnOp::Not => Box::new(move |s, ctx| i32::from(a(s, ctx) == 0)),
            }
        }
        Ex::Bin(op, a, b, pos) => binary(*op, a, b, *pos),
        Ex::Var(..) | Ex::Elem { .. } | Ex::ConstElem { .. } => {
            unreachable!("a variable or an element is read above")
        }
    }
}

/// `a[i] op k` or `k op a[i]` with `a[i]` an element at a non-constant
/// index (`a[((y)*8+x-1)] == 0`, BEEM's puzzles).
fn compare_elem_const(op: BinOp, a: &Ex, b: &Ex) -> Option<ExFn> {
    let BinOp::Cmp(c) = op else {
        return None;
    };
    match (a, b) {
        (_, Ex::Const(k)) => elem_read(a, Some(Interval::of(c, *k))),
        (Ex::Const(k), _) => elem_read(b, Some(Interval::of(c.mirrored(), *k))),
        _ => None,
    }
}

/// `x op k` or `k op x` with `x` a variable (or an element at a constant
/// index) and `k` a constant (most guards).
fn compare_const(op: BinOp, a: &Ex, b: &Ex) -> Option<ExFn> {
    let BinOp::Cmp(c) = op else {
        return None;
    };
    let ((slot, ty), k, c) = match (element(a), b, a, element(b)) {
        (Some(x), Ex::Const(k), _, _) => (x, *k, c),
        (_, _, Ex::Const(k), Some(x)) => (x, *k, c.mirrored()),
        _ => return None,
    };
    let slot = slot as usize;
    Some(Box::new(move |s, _| {
        i32::from(c.holds(read_slot(s[slot], ty), k))
    }))
}

/// `x op k`: an arithmetic operation with a constant right operand that
/// cannot fail (a division by a non-zero constant cannot).
fn arith_const(op: BinOp, a: &Ex, b: &Ex) -> Option<ExFn> {
    let Ex::Const(k) = *b else {
        return None;
    };
    // decided before compiling `a`, so that no operand is compiled twice
    let nonzero = k != 0;
    match op {
        BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Cmp(_) => {}
        BinOp::Div | BinOp::Mod if nonzero => {}
        _ => return None,
    }
    if let (Some((slot, ty)), BinOp::Div | BinOp::Mod) = (element(a), op) {
        return Some(slot_const(op == BinOp::Div, slot as usize, ty, k));
    }
    let x = expr(a);
    Some(match op {
        BinOp::Add => Box::new(move |s, ctx| x(s, ctx).wrapping_add(k)),
        BinOp::Sub => Box::new(move |s, ctx| x(s, ctx).wrapping_sub(k)),
        BinOp::Mul => Box::new(move |s, ctx| x(s, ctx).wrapping_mul(k)),
        BinOp::Div => Box::new(move |s, ctx| x(s, ctx).wrapping_div(k)),
        BinOp::Mod => Box::new(move |s, ctx| x(s, ctx).wrapping_rem(k)),
        BinOp::Cmp(c) => Box::new(move |s, ctx| i32::from(c.holds(x(s, ctx), k))),
        _ => unreachable!("ruled out above"),
    })
}

/// [`arith_const`]'s division or modulo of a slot read directly (`x %
/// 20`); `+`, `-`, `*` of a slot are affine and comparisons
/// [`compare_const`], both compiled before.
fn slot_const(div: bool, slot: usize, ty: Ty, k: i32) -> ExFn {
    if div {
        Box::new(move |s, _| read_slot(s[slot], ty).wrapping_div(k))
    } else {
        Box::new(move |s, _| read_slot(s[slot], ty).wrapping_rem(k))
    }
}

/// A binary node; evaluation order and errors as in [`Ex::eval`].
fn binary(op: BinOp, a: &Ex, b: &Ex, pos: Pos) -> ExFn {
    let special = compare_const(op, a, b)
        .or_else(|| compare_elem_const(op, a, b))
        .or_else(|| arith_const(op, a, b));
    if let Some(f) = special {
        return f;
    }
    let (x, y) = (expr(a), expr(b));
    match op {
        BinOp::And => Box::new(move |s, ctx| i32::from(x(s, ctx) != 0 && y(s, ctx) != 0)),
        BinOp::Or => Box::new(move |s, ctx| i32::from(x(s, ctx) != 0 || y(s, ctx) != 0)),
        BinOp::Imply => Box::new(move |s, ctx| i32::from(x(s, ctx) == 0 || y(s, ctx) != 0)),
        BinOp::Cmp(c) => Box::new(move |s, ctx| {
            let l = x(s, ctx);
            i32::from(c.holds(l, y(s, ctx)))
        }),
        BinOp::BitOr => Box::new(move |s, ctx| x(s, ctx) | y(s, ctx)),
        BinOp::BitXor => Box::new(move |s, ctx| x(s, ctx) ^ y(s, ctx)),
        BinOp::BitAnd => Box::new(move |s, ctx| x(s, ctx) & y(s, ctx)),
        BinOp::Add => Box::new(move |s, ctx| x(s, ctx).wrapping_add(y(s, ctx))),
        BinOp::Sub => Box::new(move |s, ctx| x(s, ctx).wrapping_sub(y(s, ctx))),
        BinOp::Mul => Box::new(move |s, ctx| x(s, ctx).wrapping_mul(y(s, ctx))),
        BinOp::Shl => Box::new(move |s, ctx| x(s, ctx).wrapping_shl(y(s, ctx) as u32)),
        BinOp::Shr => Box::new(move |s, ctx| x(s, ctx).wrapping_shr(y(s, ctx) as u32)),
        BinOp::Div | BinOp::Mod => {
            let div = op == BinOp::Div;
            Box::new(move |s, ctx| {
                let l = x(s, ctx);
                let r = y(s, ctx);
                if r != 0 {
                    return if div {
                        l.wrapping_div(r)
                    } else {
                        l.wrapping_rem(r)
                    };
                }
                ctx.fail(pos, |_| {
                    if div {
                        "division by zero"
                    } else {
                        "modulo by zero"
                    }
                    .into()
                });
                0
            })
        }
    }
}
