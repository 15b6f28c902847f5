//! Affine expressions recognised at load time, as DVE gives them to the
//! shared recogniser ([`scan::affine`]): an [`Ex`] built of constants,
//! variables (or array elements at constant indices in range), `+`, `-`,
//! unary `-` and products with a constant is kept as `k + c1*v1 + ..` and
//! evaluated in one pass over the state vector, without a call per node.
//! BEEM's array indices (`a[((y)*8+x-1)]` in sokoban, frogs) are such
//! expressions.
//!
//! The form is exact: [`Ex::eval`] computes these operators with wrapping
//! arithmetic on `i32`. Owns only DVE's view of an [`Ex`] ([`shape`]), how
//! a variable is read ([`Slot`]) and the choice between the inline and the
//! list form; `code` decides where to use them.

use pins::Value;
use scan::affine::{self, Leaf, Shape};

use crate::dispatch::element;
use crate::model::Ex;
use crate::parse::{BinOp, Ty, UnOp};

/// A variable read as its type (a byte's low 8 bits, an int's low 16 bits
/// sign-extended), as `Atom` reads it in `dispatch`; the default reads 0.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Slot {
    slot: u32,
    mask: Value,
    shift: u32,
}

impl Slot {
    fn of(slot: u32, ty: Ty) -> Slot {
        let (mask, shift) = match ty {
            Ty::Byte => (0xFF, 0),
            Ty::Int => (Value::MAX, 16),
        };
        Slot { slot, mask, shift }
    }
}

impl Leaf for Slot {
    type In<'s> = &'s [Value];

    #[inline(always)]
    fn read(&self, s: &[Value]) -> i32 {
        let raw = s[self.slot as usize] & self.mask;
        ((raw << self.shift) as i32) >> self.shift
    }
}

/// An affine form of at most two terms, kept inline.
pub(crate) type Affine2 = affine::Affine2<Slot>;

/// `k + Σ coef_i * v_i`, wrapping: [`Affine2`] for at most two terms,
/// else a list.
#[derive(Clone, Debug)]
pub(crate) enum Affine {
    Short(Affine2),
    Long(affine::Affine<Slot>),
}

impl Affine {
    /// The affine form of `e`, if it has one.
    pub(crate) fn of(e: &Ex) -> Option<Affine> {
        affine::Affine::of(e, shape).map(Affine::new)
    }

    /// The affine form of `e` when `e` has at least one operator (a
    /// constant or a variable alone is compiled more simply elsewhere).
    pub(crate) fn of_compound(e: &Ex) -> Option<Affine> {
        affine::Affine::of_compound(e, shape).map(Affine::new)
    }

    fn new(a: affine::Affine<Slot>) -> Affine {
        match a.inline() {
            Some(short) => Affine::Short(short),
            None => Affine::Long(a),
        }
    }

    /// The value in `s`, as [`Ex::eval`] computes it.
    #[inline(always)]
    pub(crate) fn eval(&self, s: &[Value]) -> i32 {
        match self {
            Affine::Short(a) => a.eval(s),
            Affine::Long(a) => a.eval(s),
        }
    }
}

/// What the recogniser sees of `e`: a variable (or an element at a
/// constant index in range) is a leaf.
fn shape(e: &Ex) -> Shape<'_, Ex, Slot> {
    if let Some((slot, ty)) = element(e) {
        return Shape::Leaf(Slot::of(slot, ty));
    }
    match e {
        Ex::Const(c) => Shape::Const(*c),
        Ex::Un(UnOp::Neg, a) => Shape::Neg(a),
        Ex::Bin(BinOp::Add, a, b, _) => Shape::Add(a, b),
        Ex::Bin(BinOp::Sub, a, b, _) => Shape::Sub(a, b),
        Ex::Bin(BinOp::Mul, a, b, _) => Shape::Mul(a, b),
        _ => Shape::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::Pos;
    use crate::model::Ctx;

    fn bin(op: BinOp, a: Ex, b: Ex) -> Ex {
        Ex::Bin(op, Box::new(a), Box::new(b), Pos::default())
    }

    /// `(y*8 + x - 1)`, `-(x) * 3 - y + 7`, and a form of three terms,
    /// against the interpreter on bytes and ints of every sign.
    #[test]
    fn affine_forms_evaluate_as_the_interpreter() {
        let (x, y, z) = (
            Ex::Var(0, Ty::Byte),
            Ex::Var(1, Ty::Int),
            Ex::Var(2, Ty::Int),
        );
        let index = bin(
            BinOp::Sub,
            bin(
                BinOp::Add,
                bin(BinOp::Mul, y.clone(), Ex::Const(8)),
                x.clone(),
            ),
            Ex::Const(1),
        );
        let neg = bin(
            BinOp::Add,
            bin(
                BinOp::Sub,
                bin(
                    BinOp::Mul,
                    Ex::Un(UnOp::Neg, Box::new(x.clone())),
                    Ex::Const(3),
                ),
                y.clone(),
            ),
            Ex::Const(7),
        );
        let three = bin(
            BinOp::Add,
            bin(BinOp::Sub, x, y),
            bin(BinOp::Mul, Ex::Const(-5), z),
        );
        let slots = [pins::Slot {
            name: "x".into(),
            process: None,
            bits: 8,
        }];
        for e in [&index, &neg, &three] {
            let a = Affine::of_compound(e).expect("affine");
            for s in [
                [0, 0, 0],
                [255, 0xFFFF, 0x8000],
                [7, 3, 0x7FFF],
                [0x1FF, 0x1_0002, 9],
            ] {
                let mut ctx = Ctx::new(&slots);
                assert_eq!(a.eval(&s), e.eval(&s, &mut ctx), "{e:?} in {s:?}");
            }
        }
        assert!(matches!(Affine::of_compound(&three), Some(Affine::Long(_))));
    }

    /// Not affine: a product of two variables, a division, a bare variable.
    #[test]
    fn other_expressions_have_no_affine_form() {
        let (x, y) = (Ex::Var(0, Ty::Byte), Ex::Var(1, Ty::Byte));
        assert!(Affine::of_compound(&bin(BinOp::Mul, x.clone(), y.clone())).is_none());
        assert!(Affine::of_compound(&bin(BinOp::Div, x.clone(), Ex::Const(2))).is_none());
        assert!(Affine::of_compound(&x).is_none());
    }
}
