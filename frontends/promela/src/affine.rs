//! Affine expressions compiled at load time: an expression built of
//! constants, stored scalars (or array elements at constant indices), `+`,
//! `-`, unary `-` and products with a constant is kept as `k + c1*v1 + ..`
//! and evaluated in one pass over the state vector. BEEM's array indices
//! (`a[((y)*10+x-1)]`) are such expressions; compiled as a tree of closures
//! they cost one call per node.
//!
//! The form is exact: the evaluation of these operators is arithmetic
//! modulo 2^32 (wrapping, `model`), a ring, so regrouping the terms gives
//! the same value, and none of them can fail. Owns the recognition and the
//! evaluation only; `code` decides where to use them.

use crate::compile::{CExpr, Place, VarRef};
use crate::ops::{BinOp, UnOp};
use crate::parse::BaseType;

/// `coef * v`, `v` the value of a stored scalar.
#[derive(Clone, Copy, Debug)]
struct Term {
    /// The slot (a global) or the offset among the locals (a local).
    at: usize,
    /// All ones for a local (the locals' first slot is added), else 0.
    local: usize,
    /// 16 for a `short` (sign-extended from its 16-bit pattern), else 0.
    shift: u32,
    coef: i32,
}

/// `k + Σ coef_i * v_i`, wrapping.
#[derive(Clone, Debug)]
pub(crate) struct Affine {
    k: i32,
    terms: Box<[Term]>,
}

impl Affine {
    /// The affine form of `e`, if it has one.
    pub fn of(e: &CExpr) -> Option<Affine> {
        let (k, terms) = form(e)?;
        Some(Affine {
            k,
            terms: terms.into_boxed_slice(),
        })
    }

    /// The affine form of an expression with at least one operator (a
    /// constant or a variable alone is compiled more simply elsewhere).
    pub fn of_compound(e: &CExpr) -> Option<Affine> {
        match e {
            CExpr::Binary(BinOp::Add | BinOp::Sub | BinOp::Mul, ..)
            | CExpr::Unary(UnOp::Neg, _) => Affine::of(e),
            _ => None,
        }
    }

    /// The value in `st`, for the process whose locals start at slot
    /// `locals`.
    #[inline(always)]
    pub fn eval(&self, st: &[u32], locals: usize) -> i32 {
        (self.terms.iter()).fold(self.k, |acc, t| acc.wrapping_add(t.value(st, locals)))
    }

    /// The same form kept inline, when it has at most two terms.
    pub fn inline(&self) -> Option<Affine2> {
        let unused = Term {
            at: 0,
            local: 0,
            shift: 0,
            coef: 0,
        };
        let terms = match *self.terms {
            [] => [unused; 2],
            [a] => [a, unused],
            [a, b] => [a, b],
            _ => return None,
        };
        Some(Affine2 { k: self.k, terms })
    }
}

impl Term {
    /// `coef * v` in `st`, wrapping.
    #[inline(always)]
    fn value(&self, st: &[u32], locals: usize) -> i32 {
        let raw = st[self.at + (locals & self.local)];
        let v = ((raw << self.shift) as i32) >> self.shift;
        v.wrapping_mul(self.coef)
    }
}

/// An [`Affine`] form of at most two terms kept inline (`Copy`, no
/// pointer to follow), evaluated without a loop: a guard's array index
/// (`a[((y)*8+x-1)]`). An unused term reads slot 0 times 0.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Affine2 {
    k: i32,
    terms: [Term; 2],
}

impl Affine2 {
    /// The value in `st`, as [`Affine::eval`].
    #[inline(always)]
    pub fn eval(&self, st: &[u32], locals: usize) -> i32 {
        let [a, b] = &self.terms;
        (self.k)
            .wrapping_add(a.value(st, locals))
            .wrapping_add(b.value(st, locals))
    }
}

type Form = (i32, Vec<Term>);

fn form(e: &CExpr) -> Option<Form> {
    match e {
        CExpr::Const(c) => Some((*c, Vec::new())),
        CExpr::Var(v) => variable(v),
        CExpr::Unary(UnOp::Neg, a) => Some(scaled(form(a)?, -1)),
        CExpr::Binary(op @ (BinOp::Add | BinOp::Sub), a, b, _) => {
            let (ka, mut ta) = form(a)?;
            let (kb, tb) = scaled(form(b)?, if *op == BinOp::Add { 1 } else { -1 });
            ta.extend(tb);
            Some((ka.wrapping_add(kb), ta))
        }
        CExpr::Binary(BinOp::Mul, a, b, _) => match (form(a)?, form(b)?) {
            ((c, t), f) | (f, (c, t)) if t.is_empty() => Some(scaled(f, c)),
            _ => None,
        },
        _ => None,
    }
}

fn scaled((k, terms): Form, c: i32) -> Form {
    let terms = terms
        .into_iter()
        .map(|t| Term {
            coef: t.coef.wrapping_mul(c),
            ..t
        })
        .collect();
    (k.wrapping_mul(c), terms)
}

/// A scalar, or an array element at a constant index in range; a hidden
/// scalar reads 0.
fn variable(v: &VarRef) -> Option<Form> {
    let i = match v.idx.as_deref() {
        None => 0,
        Some(&CExpr::Const(i)) if i >= 0 && (i as usize) < v.len => i as usize,
        Some(_) => return None,
    };
    let Some(at) = v.at else {
        return v.idx.is_none().then(|| (0, Vec::new()));
    };
    let term = Term {
        at: at + i,
        local: match v.place {
            Place::Global(_) => 0,
            Place::Local(_) => usize::MAX,
        },
        shift: if v.ty == BaseType::Short { 16 } else { 0 },
        coef: 1,
    };
    Some((0, vec![term]))
}
