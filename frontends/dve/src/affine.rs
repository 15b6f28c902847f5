//! Affine expressions recognised at load time: an [`Ex`] built of
//! constants, variables (or array elements at constant indices in range),
//! `+`, `-`, unary `-` and products with a constant is kept as
//! `k + c1*v1 + ..` and evaluated in one pass over the state vector,
//! without a call per node. BEEM's array indices (`a[((y)*8+x-1)]` in
//! sokoban, frogs) are such expressions.
//!
//! The form is exact: [`Ex::eval`] computes these operators with wrapping
//! arithmetic on `i32`, a ring modulo 2^32, so regrouping the terms gives
//! the same value, and none of them can fail. Owns the recognition and the
//! evaluation only; `code` decides where to use them.

use pins::Value;

use crate::dispatch::element;
use crate::model::Ex;
use crate::parse::{BinOp, Ty, UnOp};

/// `coef * v`, `v` a slot read as its type (a byte's low 8 bits, an int's
/// low 16 bits sign-extended), as `Atom` reads it in `dispatch`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Term {
    slot: u32,
    mask: Value,
    shift: u32,
    coef: i32,
}

impl Term {
    fn of(slot: u32, ty: Ty) -> Term {
        let (mask, shift) = match ty {
            Ty::Byte => (0xFF, 0),
            Ty::Int => (Value::MAX, 16),
        };
        Term {
            slot,
            mask,
            shift,
            coef: 1,
        }
    }

    /// `coef * v` in `s`, wrapping.
    #[inline(always)]
    fn value(&self, s: &[Value]) -> i32 {
        let raw = s[self.slot as usize] & self.mask;
        (((raw << self.shift) as i32) >> self.shift).wrapping_mul(self.coef)
    }
}

/// `k + Σ coef_i * v_i`, wrapping: [`Affine2`] for at most two terms,
/// else a list.
#[derive(Clone, Debug)]
pub(crate) enum Affine {
    Short(Affine2),
    Long { k: i32, terms: Box<[Term]> },
}

/// An [`Affine`] form of at most two terms kept inline (`Copy`, no
/// pointer to follow, no loop); an unused term reads slot 0 times 0.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Affine2 {
    k: i32,
    terms: [Term; 2],
}

impl Affine2 {
    /// The value in `s`, as [`Ex::eval`] computes it.
    #[inline(always)]
    pub(crate) fn eval(&self, s: &[Value]) -> i32 {
        let [a, b] = &self.terms;
        self.k.wrapping_add(a.value(s)).wrapping_add(b.value(s))
    }
}

impl Affine {
    /// The affine form of `e`, if it has one.
    pub(crate) fn of(e: &Ex) -> Option<Affine> {
        let (k, terms) = form(e)?;
        Some(Affine::new(k, terms))
    }

    /// The affine form of `e` when `e` has at least one operator (a
    /// constant or a variable alone is compiled more simply elsewhere).
    pub(crate) fn of_compound(e: &Ex) -> Option<Affine> {
        match e {
            Ex::Bin(BinOp::Add | BinOp::Sub | BinOp::Mul, ..) | Ex::Un(UnOp::Neg, _) => {
                Affine::of(e)
            }
            _ => None,
        }
    }

    fn new(k: i32, terms: Vec<Term>) -> Affine {
        let unused = Term {
            slot: 0,
            mask: 0,
            shift: 0,
            coef: 0,
        };
        let short = |terms| Affine::Short(Affine2 { k, terms });
        match *terms {
            [] => short([unused; 2]),
            [a] => short([a, unused]),
            [a, b] => short([a, b]),
            _ => Affine::Long {
                k,
                terms: terms.into_boxed_slice(),
            },
        }
    }

    /// The value in `s`, as [`Ex::eval`] computes it.
    #[inline(always)]
    pub(crate) fn eval(&self, s: &[Value]) -> i32 {
        match self {
            Affine::Short(a) => a.eval(s),
            Affine::Long { k, terms } => {
                terms.iter().fold(*k, |acc, t| acc.wrapping_add(t.value(s)))
            }
        }
    }
}

type Form = (i32, Vec<Term>);

fn form(e: &Ex) -> Option<Form> {
    if let Some((slot, ty)) = element(e) {
        return Some((0, vec![Term::of(slot, ty)]));
    }
    match e {
        Ex::Const(c) => Some((*c, Vec::new())),
        Ex::Un(UnOp::Neg, a) => Some(scaled(form(a)?, -1)),
        Ex::Bin(op @ (BinOp::Add | BinOp::Sub), a, b, _) => {
            let (ka, mut ta) = form(a)?;
            let sign = if *op == BinOp::Add { 1 } else { -1 };
            let (kb, tb) = scaled(form(b)?, sign);
            ta.extend(tb);
            Some((ka.wrapping_add(kb), ta))
        }
        Ex::Bin(BinOp::Mul, a, b, _) => match (form(a)?, form(b)?) {
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
        assert!(matches!(
            Affine::of_compound(&three),
            Some(Affine::Long { .. })
        ));
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
