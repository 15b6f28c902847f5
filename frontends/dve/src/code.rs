//! Guards and effects compiled at load time into closures over the state
//! vector: each expression node becomes a closure made for its operator and
//! operand kinds (a variable compared with a constant, an element read, an
//! arithmetic operation...), so that a transition runs no `match` over the
//! expression tree. Only what a transition does most often is compiled:
//! guards and effects.
//!
//! The tree interpreter ([`Ex::eval`], [`LVal::store`]) stays the
//! semantics: every node this module does not specialise (constant arrays,
//! division, shifts) is the interpreter itself, a store it cannot do
//! directly (index or value out of range) is [`LVal::store`], and errors
//! are flagged in the same [`Ctx`] with the same messages.

use std::sync::Arc;

use pins::Value;

use crate::model::{in_range, read_slot, wrap, Ctx, Ex, LVal};
use crate::parse::{BinOp, Ty, UnOp};

type ExFn = Arc<dyn Fn(&[Value], &mut Ctx) -> i32 + Send + Sync>;
type StoreFn = Arc<dyn Fn(&mut [Value], &mut Ctx) + Send + Sync>;

/// A transition's guards and effects, compiled.
#[derive(Clone, Default)]
pub(crate) struct Code {
    pub guards: Box<[ExFn]>,
    pub effects: Box<[StoreFn]>,
}

impl std::fmt::Debug for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Code({} guards, {} effects)",
            self.guards.len(),
            self.effects.len()
        )
    }
}

impl Code {
    pub(crate) fn of(guards: &[Ex], effects: &[(LVal, Ex)]) -> Code {
        Code {
            guards: guards.iter().map(expr).collect(),
            effects: effects.iter().map(|(lv, e)| effect(lv, e)).collect(),
        }
    }
}

/// `lv := e`: evaluated on the successor being built, as
/// `DveModel::apply_effects` does; a scalar in range is stored here, the
/// rest (elements, out-of-range values and their error) by [`LVal::store`].
fn effect(lv: &LVal, e: &Ex) -> StoreFn {
    let value = expr(e);
    let lv = lv.clone();
    match lv {
        LVal::Var(slot, ty, _) => Arc::new(move |out, ctx| {
            let v = value(out, ctx);
            if in_range(v, ty) {
                out[slot as usize] = wrap(v, ty);
            } else {
                lv.store(out, v, ctx);
            }
        }),
        LVal::Elem {
            base,
            len,
            ty,
            ref idx,
            ..
        } => {
            let idx = expr(idx);
            Arc::new(move |out, ctx| {
                let v = value(out, ctx);
                let i = idx(out, ctx);
                if i >= 0 && (i as u32) < len && in_range(v, ty) {
                    out[(base + i as u32) as usize] = wrap(v, ty);
                } else {
                    lv.store(out, v, ctx);
                }
            })
        }
    }
}

/// The interpreter on `e`.
fn interpreted(e: &Ex) -> ExFn {
    let e = e.clone();
    Arc::new(move |s, ctx| e.eval(s, ctx))
}

fn expr(e: &Ex) -> ExFn {
    match e {
        Ex::Const(c) => {
            let c = *c;
            Arc::new(move |_, _| c)
        }
        Ex::Var(slot, ty) => {
            let slot = *slot as usize;
            match ty {
                Ty::Byte => Arc::new(move |s, _| (s[slot] & 0xFF) as i32),
                Ty::Int => Arc::new(move |s, _| read_slot(s[slot], Ty::Int)),
            }
        }
        Ex::InState { slot, state } => {
            let (slot, state) = (*slot as usize, *state);
            Arc::new(move |s, _| i32::from(s[slot] == state))
        }
        Ex::Un(op, a) => {
            let a = expr(a);
            match op {
                UnOp::Neg => Arc::new(move |s, ctx| a(s, ctx).wrapping_neg()),
                UnOp::BitNot => Arc::new(move |s, ctx| !a(s, ctx)),
                UnOp::Not => Arc::new(move |s, ctx| i32::from(a(s, ctx) == 0)),
            }
        }
        Ex::Bin(op, a, b, _) => binary(*op, a, b).unwrap_or_else(|| interpreted(e)),
        Ex::Elem { idx, .. } => {
            let (at, idx) = (e.clone(), expr(idx));
            Arc::new(move |s, ctx| {
                let i = idx(s, ctx);
                at.element(s, i, ctx)
            })
        }
        Ex::ConstElem { .. } => interpreted(e),
    }
}

/// `x op k` with `x` a variable and `k` a constant (most guards).
fn compare_const(op: BinOp, a: &Ex, b: &Ex) -> Option<ExFn> {
    let (BinOp::Cmp(c), Ex::Var(slot, ty), Ex::Const(k)) = (op, a, b) else {
        return None;
    };
    let (slot, ty, k) = (*slot as usize, *ty, *k);
    Some(Arc::new(move |s, _| {
        i32::from(c.holds(read_slot(s[slot], ty), k))
    }))
}

/// A binary node, `None` for those left to the interpreter (division and
/// modulo flag errors, shifts).
fn binary(op: BinOp, a: &Ex, b: &Ex) -> Option<ExFn> {
    if let Some(f) = compare_const(op, a, b) {
        return Some(f);
    }
    let (x, y) = (expr(a), expr(b));
    Some(match op {
        BinOp::And => Arc::new(move |s, ctx| i32::from(x(s, ctx) != 0 && y(s, ctx) != 0)),
        BinOp::Or => Arc::new(move |s, ctx| i32::from(x(s, ctx) != 0 || y(s, ctx) != 0)),
        BinOp::Imply => Arc::new(move |s, ctx| i32::from(x(s, ctx) == 0 || y(s, ctx) != 0)),
        BinOp::Cmp(c) => Arc::new(move |s, ctx| {
            let l = x(s, ctx);
            i32::from(c.holds(l, y(s, ctx)))
        }),
        BinOp::BitOr => Arc::new(move |s, ctx| x(s, ctx) | y(s, ctx)),
        BinOp::BitXor => Arc::new(move |s, ctx| x(s, ctx) ^ y(s, ctx)),
        BinOp::BitAnd => Arc::new(move |s, ctx| x(s, ctx) & y(s, ctx)),
        BinOp::Add => Arc::new(move |s, ctx| x(s, ctx).wrapping_add(y(s, ctx))),
        BinOp::Sub => Arc::new(move |s, ctx| x(s, ctx).wrapping_sub(y(s, ctx))),
        BinOp::Mul => Arc::new(move |s, ctx| x(s, ctx).wrapping_mul(y(s, ctx))),
        BinOp::Shl | BinOp::Shr | BinOp::Div | BinOp::Mod => return None,
    })
}
