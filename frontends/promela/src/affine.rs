//! Affine expressions compiled at load time, as Promela gives them to the
//! shared recogniser ([`scan::affine`]): an expression built of constants,
//! stored scalars (or array elements at constant indices), `+`, `-`, unary
//! `-` and products with a constant is kept as `k + c1*v1 + ..` and
//! evaluated in one pass over the state vector. BEEM's array indices
//! (`a[((y)*10+x-1)]`) are such expressions; compiled as a tree of closures
//! they cost one call per node.
//!
//! The form is exact: the evaluation of these operators is arithmetic
//! modulo 2^32 (wrapping, `model`). Owns only Promela's view of a
//! [`CExpr`] ([`shape`]) and how a stored scalar is read ([`Scalar`]);
//! `code` and `guard` decide where to use them.

use scan::affine::{self, Leaf, Shape};

use crate::compile::{CExpr, Place, VarRef};
use crate::ops::{BinOp, UnOp};
use crate::parse::BaseType;

/// A stored scalar, read in the state vector `st` for the process whose
/// locals start at slot `locals`; the default reads slot 0.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Scalar {
    /// The slot (a global) or the offset among the locals (a local).
    at: usize,
    /// All ones for a local (the locals' first slot is added), else 0.
    local: usize,
    /// 16 for a `short` (sign-extended from its 16-bit pattern), else 0.
    shift: u32,
}

impl Leaf for Scalar {
    type In<'s> = (&'s [u32], usize);

    #[inline(always)]
    fn read(&self, (st, locals): (&[u32], usize)) -> i32 {
        let raw = st[self.at + (locals & self.local)];
        ((raw << self.shift) as i32) >> self.shift
    }
}

/// `k + Σ coef_i * v_i`, wrapping.
pub(crate) type Affine = affine::Affine<Scalar>;

/// An [`Affine`] form of at most two terms kept inline: a guard's array
/// index (`a[((y)*8+x-1)]`).
pub(crate) type Affine2 = affine::Affine2<Scalar>;

/// The affine form of `e`, if it has one.
pub(crate) fn of(e: &CExpr) -> Option<Affine> {
    Affine::of(e, shape)
}

/// The affine form of an expression with at least one operator (a
/// constant or a variable alone is compiled more simply elsewhere).
pub(crate) fn of_compound(e: &CExpr) -> Option<Affine> {
    Affine::of_compound(e, shape)
}

/// What the recogniser sees of `e`.
fn shape(e: &CExpr) -> Shape<'_, CExpr, Scalar> {
    match e {
        CExpr::Const(c) => Shape::Const(*c),
        CExpr::Var(v) => variable(v),
        CExpr::Unary(UnOp::Neg, a) => Shape::Neg(a),
        CExpr::Binary(BinOp::Add, a, b, _) => Shape::Add(a, b),
        CExpr::Binary(BinOp::Sub, a, b, _) => Shape::Sub(a, b),
        CExpr::Binary(BinOp::Mul, a, b, _) => Shape::Mul(a, b),
        _ => Shape::Other,
    }
}

/// A scalar, or an array element at a constant index in range; a hidden
/// scalar reads 0 (a hidden element has no form).
fn variable(v: &VarRef) -> Shape<'_, CExpr, Scalar> {
    let i = match v.idx.as_deref() {
        None => 0,
        Some(&CExpr::Const(i)) if i >= 0 && (i as usize) < v.len => i as usize,
        Some(_) => return Shape::Other,
    };
    match (v.at, &v.idx) {
        (Some(at), _) => Shape::Leaf(Scalar {
            at: at + i,
            local: match v.place {
                Place::Global(_) => 0,
                Place::Local(_) => usize::MAX,
            },
            shift: if v.ty == BaseType::Short { 16 } else { 0 },
        }),
        (None, None) => Shape::Const(0),
        (None, Some(_)) => Shape::Other,
    }
}
