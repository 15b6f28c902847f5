//! Affine forms of integer expressions, shared by the front-ends that
//! compile expressions at load time (DVE, Promela): an expression built of
//! constants, leaves (stored scalars), `+`, `-`, unary `-` and products
//! with a constant is kept as `k + c1*v1 + ..` and evaluated in one pass
//! over the state vector, without a call per node. BEEM's array indices
//! (`a[((y)*8+x-1)]` in sokoban, frogs) are such expressions.
//!
//! The form is exact for an evaluation with wrapping arithmetic on `i32`,
//! a ring modulo 2^32: regrouping the terms gives the same value, and none
//! of these operators can fail.
//!
//! Owns the recognition ([`Affine::of`]) and the evaluation ([`Affine`],
//! [`Affine2`]). It must not know either language: a front-end shows its
//! node as a [`Shape`] and reads its own leaves ([`Leaf`]); which
//! expressions to compile this way is the front-end's choice.

/// What the recogniser needs to see of a front-end's expression node `E`
/// whose leaves (stored scalars) the front-end names by a `T`.
#[derive(Clone, Copy, Debug)]
pub enum Shape<'a, E, T> {
    Const(i32),
    Leaf(T),
    Neg(&'a E),
    Add(&'a E, &'a E),
    Sub(&'a E, &'a E),
    Mul(&'a E, &'a E),
    /// Anything else: the expression has no affine form.
    Other,
}

/// A front-end's stored scalar, read as an `i32` from `In` (the state
/// vector, and what else locates the scalar). `Default` is a leaf that may
/// be read for nothing: an unused term of an [`Affine2`] reads it times 0.
pub trait Leaf: Copy + Default {
    type In<'s>: Copy;
    fn read(&self, at: Self::In<'_>) -> i32;
}

/// `coef * v`, `v` the value of a leaf.
#[derive(Clone, Copy, Debug, Default)]
pub struct Term<T> {
    leaf: T,
    coef: i32,
}

impl<T: Leaf> Term<T> {
    /// `coef * v` read from `at`, wrapping.
    #[inline(always)]
    fn value(&self, at: T::In<'_>) -> i32 {
        self.leaf.read(at).wrapping_mul(self.coef)
    }
}

/// `k + Σ coef_i * v_i` while it is being recognised.
struct Form<T> {
    k: i32,
    terms: Vec<Term<T>>,
}

impl<T> Form<T> {
    fn constant(k: i32) -> Form<T> {
        Form {
            k,
            terms: Vec::new(),
        }
    }

    fn leaf(leaf: T) -> Form<T> {
        Form {
            k: 0,
            terms: vec![Term { leaf, coef: 1 }],
        }
    }

    /// `c * self`, wrapping.
    fn scaled(self, c: i32) -> Form<T> {
        let terms = (self.terms.into_iter())
            .map(|t| Term {
                coef: t.coef.wrapping_mul(c),
                ..t
            })
            .collect();
        Form {
            k: self.k.wrapping_mul(c),
            terms,
        }
    }

    /// `self + other`, wrapping.
    fn sum(mut self, other: Form<T>) -> Form<T> {
        self.terms.extend(other.terms);
        Form {
            k: self.k.wrapping_add(other.k),
            terms: self.terms,
        }
    }

    /// `self * other` when one of them is a constant.
    fn product(self, other: Form<T>) -> Option<Form<T>> {
        match (self, other) {
            (c, f) | (f, c) if c.terms.is_empty() => Some(f.scaled(c.k)),
            _ => None,
        }
    }

    /// The form of `e` as `view` shows it, if it has one.
    fn of<'a, E>(e: &'a E, view: &impl Fn(&'a E) -> Shape<'a, E, T>) -> Option<Form<T>> {
        match view(e) {
            Shape::Const(c) => Some(Form::constant(c)),
            Shape::Leaf(leaf) => Some(Form::leaf(leaf)),
            Shape::Neg(a) => Some(Form::of(a, view)?.scaled(-1)),
            Shape::Add(a, b) => Some(Form::of(a, view)?.sum(Form::of(b, view)?)),
            Shape::Sub(a, b) => Some(Form::of(a, view)?.sum(Form::of(b, view)?.scaled(-1))),
            Shape::Mul(a, b) => Form::of(a, view)?.product(Form::of(b, view)?),
            Shape::Other => None,
        }
    }
}

/// `k + Σ coef_i * v_i`, wrapping, over any number of terms.
#[derive(Clone, Debug)]
pub struct Affine<T> {
    k: i32,
    terms: Box<[Term<T>]>,
}

impl<T: Leaf> Affine<T> {
    /// The affine form of `e` as `view` shows it, if it has one.
    pub fn of<'a, E>(e: &'a E, view: impl Fn(&'a E) -> Shape<'a, E, T>) -> Option<Affine<T>> {
        let Form { k, terms } = Form::of(e, &view)?;
        Some(Affine {
            k,
            terms: terms.into_boxed_slice(),
        })
    }

    /// The affine form of `e` when `e` has at least one operator (a
    /// constant or a leaf alone is compiled more simply elsewhere).
    pub fn of_compound<'a, E>(
        e: &'a E,
        view: impl Fn(&'a E) -> Shape<'a, E, T>,
    ) -> Option<Affine<T>> {
        match view(e) {
            Shape::Neg(_) | Shape::Add(..) | Shape::Sub(..) | Shape::Mul(..) => Affine::of(e, view),
            _ => None,
        }
    }

    /// The value read from `at`.
    #[inline(always)]
    pub fn eval(&self, at: T::In<'_>) -> i32 {
        (self.terms.iter()).fold(self.k, |acc, t| acc.wrapping_add(t.value(at)))
    }

    /// The same form kept inline, when it has at most two terms.
    pub fn inline(&self) -> Option<Affine2<T>> {
        let unused = Term::default();
        let terms = match *self.terms {
            [] => [unused; 2],
            [a] => [a, unused],
            [a, b] => [a, b],
            _ => return None,
        };
        Some(Affine2 { k: self.k, terms })
    }
}

/// An [`Affine`] form of at most two terms kept inline (`Copy`, no pointer
/// to follow), evaluated without a loop. An unused term reads the default
/// leaf times 0.
#[derive(Clone, Copy, Debug)]
pub struct Affine2<T> {
    k: i32,
    terms: [Term<T>; 2],
}

impl<T: Leaf> Affine2<T> {
    /// The value read from `at`, as [`Affine::eval`].
    #[inline(always)]
    pub fn eval(&self, at: T::In<'_>) -> i32 {
        let [a, b] = &self.terms;
        (self.k).wrapping_add(a.value(at)).wrapping_add(b.value(at))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A toy expression language over a vector of `i32`.
    #[derive(Debug)]
    enum E {
        K(i32),
        V(usize),
        Neg(Box<E>),
        Add(Box<E>, Box<E>),
        Sub(Box<E>, Box<E>),
        Mul(Box<E>, Box<E>),
        Div(Box<E>, Box<E>),
    }

    impl E {
        /// The interpreter: wrapping arithmetic on `i32`.
        fn eval(&self, s: &[i32]) -> i32 {
            match self {
                E::K(k) => *k,
                E::V(i) => s[*i],
                E::Neg(a) => a.eval(s).wrapping_neg(),
                E::Add(a, b) => a.eval(s).wrapping_add(b.eval(s)),
                E::Sub(a, b) => a.eval(s).wrapping_sub(b.eval(s)),
                E::Mul(a, b) => a.eval(s).wrapping_mul(b.eval(s)),
                E::Div(a, b) => a.eval(s).wrapping_div(b.eval(s)),
            }
        }
    }

    #[derive(Clone, Copy, Debug, Default)]
    struct At(usize);

    impl Leaf for At {
        type In<'s> = &'s [i32];
        fn read(&self, s: &[i32]) -> i32 {
            s[self.0]
        }
    }

    fn view(e: &E) -> Shape<'_, E, At> {
        match e {
            E::K(k) => Shape::Const(*k),
            E::V(i) => Shape::Leaf(At(*i)),
            E::Neg(a) => Shape::Neg(a),
            E::Add(a, b) => Shape::Add(a, b),
            E::Sub(a, b) => Shape::Sub(a, b),
            E::Mul(a, b) => Shape::Mul(a, b),
            E::Div(..) => Shape::Other,
        }
    }

    fn b(e: E) -> Box<E> {
        Box::new(e)
    }

    /// `(y*8 + x - 1)`, `-(x)*3 - y + 7`, a constant times a sum, and a
    /// form of three terms, against the interpreter at values that wrap.
    #[test]
    fn affine_forms_evaluate_as_the_interpreter() {
        use E::*;
        let index = Sub(b(Add(b(Mul(b(V(1)), b(K(8)))), b(V(0)))), b(K(1)));
        let neg = Add(b(Sub(b(Mul(b(Neg(b(V(0)))), b(K(3)))), b(V(1)))), b(K(7)));
        let scaled_sum = Mul(b(K(-3)), b(Add(b(V(2)), b(K(i32::MAX)))));
        let three = Add(b(Sub(b(V(0)), b(V(1)))), b(Mul(b(K(-5)), b(V(2)))));
        let states = [
            [0, 0, 0],
            [255, -1, i32::MIN],
            [7, 3, i32::MAX],
            [-9, 0x1_0002, 9],
        ];
        for e in [&index, &neg, &scaled_sum, &three] {
            let a = Affine::of_compound(e, view).expect("affine");
            let short = a.inline();
            assert_eq!(short.is_some(), !std::ptr::eq(e, &three), "{e:?}");
            for s in &states {
                assert_eq!(a.eval(s), e.eval(s), "{e:?} in {s:?}");
                if let Some(short) = short {
                    assert_eq!(short.eval(s), e.eval(s), "{e:?} in {s:?}");
                }
            }
        }
    }

    /// A constant or a leaf alone has a form, but is not compound.
    #[test]
    fn constants_and_leaves_alone_are_not_compound() {
        for e in [E::K(-4), E::V(2)] {
            assert!(Affine::of_compound(&e, view).is_none());
            let a = Affine::of(&e, view).expect("affine");
            let s = [1, 2, 3];
            assert_eq!(a.eval(&s), e.eval(&s));
            assert_eq!(a.inline().expect("short").eval(&s), e.eval(&s));
        }
    }

    /// Not affine: a product of two leaves, a division, anywhere inside.
    #[test]
    fn other_expressions_have_no_affine_form() {
        use E::*;
        let product = Mul(b(V(0)), b(V(1)));
        let nested = Add(b(K(1)), b(Neg(b(Div(b(V(0)), b(K(2)))))));
        assert!(Affine::of(&product, view).is_none());
        assert!(Affine::of(&nested, view).is_none());
    }
}
