//! Guards, effects and rendezvous value passing compiled at load time into
//! closures over the state vector: each expression node becomes a closure
//! made for its operator and operand kinds (a variable or an element at a
//! constant index compared with a constant, an arithmetic operation with a
//! constant, an element read...), so that a transition runs no `match` over
//! the expression tree.
//!
//! The tree interpreter ([`Ex::eval`], [`LVal::store`]) stays the
//! semantics: a store this module cannot do directly (index or value out of
//! range) is [`LVal::store`], and errors are flagged in the same [`Ctx`]
//! with the same messages (`code_tests` checks both on every reachable
//! state of the small BEEM models).

use std::sync::Arc;

use pins::Value;

use crate::dispatch::{element, residual};
use crate::lexer::Pos;
use crate::model::{in_range, index, read_slot, wrap, CSync, Ctx, Ex, LVal};
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
    let (base, len, ty, idx) = (*base, *len, *ty, expr(idx));
    Box::new(move |out, v, ctx| {
        let i = idx(out, ctx);
        if i >= 0 && (i as u32) < len && in_range(v, ty) {
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
            let (value, fallback) = (expr(e), lv.clone());
            Box::new(move |out, ctx| {
                let v = value(out, ctx);
                if in_range(v, ty) {
                    out[slot] = wrap(v, ty);
                } else {
                    fallback.store(out, v, ctx);
                }
            })
        }
        (None, _) => {
            let (value, st) = (expr(e), store(lv));
            Box::new(move |out, ctx| {
                let v = value(out, ctx);
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
        Ex::Elem { idx, .. } => {
            let (at, idx) = (e.clone(), expr(idx));
            Box::new(move |s, ctx| {
                let i = idx(s, ctx);
                at.element(s, i, ctx)
            })
        }
        Ex::ConstElem {
            values,
            idx,
            pos,
            name,
        } => {
            let (values, idx, pos, name) = (values.clone(), expr(idx), *pos, name.clone());
            Box::new(move |s, ctx| {
                let i = idx(s, ctx);
                let what = |_: &[pins::Slot]| format!("array '{name}'");
                match index(ctx, i, values.len() as u32, pos, what) {
                    Some(i) => values[i as usize],
                    None => 0,
                }
            })
        }
        Ex::Var(..) => unreachable!("a variable is an element"),
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
    if let Some((slot, ty)) = element(a) {
        return Some(slot_const(op, slot as usize, ty, k));
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

/// [`arith_const`] on a slot read directly (`x + 1`, `x % 20`).
fn slot_const(op: BinOp, slot: usize, ty: Ty, k: i32) -> ExFn {
    match op {
        BinOp::Add => Box::new(move |s, _| read_slot(s[slot], ty).wrapping_add(k)),
        BinOp::Sub => Box::new(move |s, _| read_slot(s[slot], ty).wrapping_sub(k)),
        BinOp::Mul => Box::new(move |s, _| read_slot(s[slot], ty).wrapping_mul(k)),
        BinOp::Div => Box::new(move |s, _| read_slot(s[slot], ty).wrapping_div(k)),
        BinOp::Mod => Box::new(move |s, _| read_slot(s[slot], ty).wrapping_rem(k)),
        BinOp::Cmp(c) => Box::new(move |s, _| i32::from(c.holds(read_slot(s[slot], ty), k))),
        _ => unreachable!("ruled out by arith_const"),
    }
}

/// A binary node; evaluation order and errors as in [`Ex::eval`].
fn binary(op: BinOp, a: &Ex, b: &Ex, pos: Pos) -> ExFn {
    if let Some(f) = compare_const(op, a, b).or_else(|| arith_const(op, a, b)) {
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
