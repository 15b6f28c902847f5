//! B types inferred from the syntax of one predicate, for the identifiers
//! of the quantifiers in it (see `range_typed`): `!(r, s).(r <: s & (s ;
//! r) <: s => closure(r) <: s)` gives `r` and `s` the type of
//! `closure`'s domain, read from its declaration `closure : (NODES <->
//! NODES) --> (NODES <-> NODES)`. Types are unified as B's type checker
//! does (`x : S` makes `S` a set of `x`'s type, `f(x)` makes `f` a set
//! of pairs whose first side is of `x`'s type...); a construct whose type
//! rule is not written here gives a fresh unknown and no constraint (less
//! information, never a wrong one), and a clash gives up the predicate.
//!
//! Owns the types, the unifier and the typing rules; what is done with a
//! type is `range_typed`'s.

use crate::ast::*;
use rustc_hash::FxHashMap;

/// A B type; `Var` an unknown of the unifier.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Ty {
    Int,
    Bool,
    Str,
    /// The elements of a SETS entry (deferred or enumerated).
    Given(Sym),
    Pow(Box<Ty>),
    Prod(Box<Ty>, Box<Ty>),
    Var(usize),
}

fn pow(t: Ty) -> Ty {
    Ty::Pow(Box::new(t))
}

fn prod(a: Ty, b: Ty) -> Ty {
    Ty::Prod(Box::new(a), Box::new(b))
}

/// What the inference knows outside the predicate: the SETS, the
/// enumerated sets' elements and the declarations `v : S` of the machines'
/// top-level conjuncts (the type of `v` is that of `S`'s elements).
pub(super) struct Scope<'a> {
    pub sets: &'a [Sym],
    pub elements: &'a FxHashMap<Sym, Sym>,
    pub decls: &'a FxHashMap<Sym, Expr>,
}

/// The unifier and the bindings in scope while one predicate is typed.
pub(super) struct Infer<'a> {
    scope: &'a Scope<'a>,
    subst: Vec<Option<Ty>>,
    locals: Vec<(Sym, Ty)>,
    /// Globals whose declaration is being typed (a declaration reading
    /// itself gives no information).
    active: Vec<Sym>,
    /// Whether a clash was met (the predicate is not typed).
    pub clash: bool,
    /// The types of the identifiers of each quantifier met, in pre-order.
    pub quants: Vec<Vec<Ty>>,
}

impl<'a> Infer<'a> {
    pub fn new(scope: &'a Scope<'a>) -> Self {
        Infer {
            scope,
            subst: Vec::new(),
            locals: Vec::new(),
            active: Vec::new(),
            clash: false,
            quants: Vec::new(),
        }
    }

    /// Binds `ids` to unknown types (identifiers bound around the
    /// predicate, hiding any global of the same name).
    pub fn bind_fresh(&mut self, ids: &[Sym]) {
        for &x in ids {
            let t = self.fresh();
            self.locals.push((x, t));
        }
    }

    fn fresh(&mut self) -> Ty {
        self.subst.push(None);
        Ty::Var(self.subst.len() - 1)
    }

    /// `t` with every solved unknown replaced, deeply.
    pub fn resolve(&self, t: &Ty) -> Ty {
        match t {
            Ty::Var(v) => match &self.subst[*v] {
                Some(u) => self.resolve(u),
                None => t.clone(),
            },
            Ty::Pow(a) => pow(self.resolve(a)),
            Ty::Prod(a, b) => prod(self.resolve(a), self.resolve(b)),
            _ => t.clone(),
        }
    }

    fn occurs(&self, v: usize, t: &Ty) -> bool {
        match self.resolve(t) {
            Ty::Var(w) => v == w,
            Ty::Pow(a) => self.occurs(v, &a),
            Ty::Prod(a, b) => self.occurs(v, &a) || self.occurs(v, &b),
            _ => false,
        }
    }

    fn unify(&mut self, a: &Ty, b: &Ty) {
        let (a, b) = (self.resolve(a), self.resolve(b));
        match (&a, &b) {
            _ if a == b => {}
            (Ty::Var(v), t) | (t, Ty::Var(v)) => {
                if self.occurs(*v, t) {
                    self.clash = true;
                } else {
                    self.subst[*v] = Some(t.clone());
                }
            }
            (Ty::Pow(x), Ty::Pow(y)) => self.unify(x, y),
            (Ty::Prod(x1, y1), Ty::Prod(x2, y2)) => {
                self.unify(x1, x2);
                self.unify(y1, y2);
            }
            _ => self.clash = true,
        }
    }

    /// The element type of the set type `t` (unified with `POW(e)`).
    fn elem(&mut self, t: &Ty) -> Ty {
        let e = self.fresh();
        self.unify(t, &pow(e.clone()));
        e
    }

    /// The sides of the relation type `t` (unified with `POW(a * b)`).
    fn rel(&mut self, t: &Ty) -> (Ty, Ty) {
        let (a, b) = (self.fresh(), self.fresh());
        self.unify(t, &pow(prod(a.clone(), b.clone())));
        (a, b)
    }

    /// A sequence of elements of type `e`.
    fn seq(e: Ty) -> Ty {
        pow(prod(Ty::Int, e))
    }

    fn ident(&mut self, s: Sym) -> Ty {
        if let Some((_, t)) = self.locals.iter().rev().find(|(x, _)| *x == s) {
            return t.clone();
        }
        if self.scope.sets.contains(&s) {
            return pow(Ty::Given(s));
        }
        if let Some(&set) = self.scope.elements.get(&s) {
            return Ty::Given(set);
        }
        let decl = self.scope.decls.get(&s);
        match decl {
            Some(d) if !self.active.contains(&s) => {
                self.active.push(s);
                let t = self.ty(d);
                self.active.pop();
                self.elem(&t)
            }
            _ => self.fresh(),
        }
    }

    /// The type of `e` (a predicate's is `BOOL`), its constraints unified.
    pub fn ty(&mut self, e: &Expr) -> Ty {
        use ExprKind::*;
        match &e.kind {
            Ident(s) => self.ident(*s),
            Int(_) => Ty::Int,
            Str(_) => Ty::Str,
            ExprKind::Bool(_) => Ty::Bool,
            EmptySet => {
                let e = self.fresh();
                pow(e)
            }
            EmptySeq => {
                let e = self.fresh();
                Self::seq(e)
            }
            Named(n) => named(*n),
            SetExt(v) | SeqExt(v) => {
                let t = self.fresh();
                for x in v {
                    let u = self.ty(x);
                    self.unify(&t, &u);
                }
                match &e.kind {
                    SetExt(_) => pow(t),
                    _ => Self::seq(t),
                }
            }
            Bin(op, a, b) => self.bin(*op, a, b),
            Apply(f, x) => {
                let (tf, tx) = (self.ty(f), self.ty(x));
                let (d, r) = self.rel(&tf);
                self.unify(&d, &tx);
                r
            }
            Image(f, s) => {
                let (tf, ts) = (self.ty(f), self.ty(s));
                let (d, r) = self.rel(&tf);
                self.unify(&ts, &pow(d));
                pow(r)
            }
            Neg(a) => {
                let t = self.ty(a);
                self.unify(&t, &Ty::Int);
                Ty::Int
            }
            Inverse(a) => {
                let t = self.ty(a);
                let (d, r) = self.rel(&t);
                pow(prod(r, d))
            }
            Call(b, args) => self.call(*b, args),
            Quant {
                kind,
                ids,
                pred,
                body,
                ..
            } => self.quant(*kind, ids, pred, body.as_deref()),
            Rec(f) | Struct(f) => {
                f.iter().for_each(|(_, x)| {
                    self.ty(x);
                });
                self.fresh()
            }
            Field(a, _) => {
                self.ty(a);
                self.fresh()
            }
        }
    }

    fn quant(&mut self, kind: QuantKind, ids: &[Sym], pred: &Expr, body: Option<&Expr>) -> Ty {
        let slot = self.quants.len();
        self.quants.push(Vec::new());
        let tys: Vec<Ty> = ids.iter().map(|_| self.fresh()).collect();
        let base = self.locals.len();
        self.locals
            .extend(ids.iter().copied().zip(tys.iter().cloned()));
        self.ty(pred);
        let tb = body.map(|b| self.ty(b));
        self.locals.truncate(base);
        self.quants[slot] = tys.clone();
        let tuple = || {
            let mut it = tys.iter().cloned();
            let first = it.next().unwrap_or(Ty::Bool);
            it.fold(first, prod)
        };
        match (kind, tb) {
            (QuantKind::Forall | QuantKind::Exists, _) => Ty::Bool,
            (QuantKind::Comprehension, Some(t)) => pow(t),
            (QuantKind::Comprehension, None) => pow(tuple()),
            (QuantKind::Lambda, Some(t)) => pow(prod(tuple(), t)),
            (QuantKind::Sigma | QuantKind::Pi, _) => Ty::Int,
            (QuantKind::Union | QuantKind::Inter, Some(t)) => t,
            _ => self.fresh(),
        }
    }

    fn bin(&mut self, op: BinOp, a: &Expr, b: &Expr) -> Ty {
        use BinOp::*;
        let (ta, tb) = (self.ty(a), self.ty(b));
        match op {
            And | Or | Implies | Equiv => Ty::Bool,
            Eq | Neq => {
                self.unify(&ta, &tb);
                Ty::Bool
            }
            In | NotIn => {
                self.unify(&pow(ta), &tb);
                Ty::Bool
            }
            Subset | StrictSubset | NotSubset | NotStrictSubset => {
                self.unify(&ta, &tb);
                self.elem(&ta);
                Ty::Bool
            }
            Lt | Gt | Le | Ge => {
                self.ints(&ta, &tb);
                Ty::Bool
            }
            Plus | Div | Mod | Power | PowerNat => {
                self.ints(&ta, &tb);
                Ty::Int
            }
            Interval => {
                self.ints(&ta, &tb);
                pow(Ty::Int)
            }
            Minus | Union | Inter | Override | Concat => {
                self.unify(&ta, &tb);
                ta
            }
            Mul => self.times(ta, tb),
            Maplet => prod(ta, tb),
            DirectProduct => {
                let ((x, y), (x2, z)) = (self.rel(&ta), self.rel(&tb));
                self.unify(&x, &x2);
                pow(prod(x, prod(y, z)))
            }
            DomRes | DomSub => {
                let (x, _) = self.rel(&tb);
                self.unify(&ta, &pow(x));
                tb
            }
            RanRes | RanSub => {
                let (_, y) = self.rel(&ta);
                self.unify(&tb, &pow(y));
                ta
            }
            Prepend => {
                self.unify(&tb, &Self::seq(ta));
                tb
            }
            Append => {
                self.unify(&ta, &Self::seq(tb));
                ta
            }
            TakeFirst | DropFirst => {
                self.unify(&tb, &Ty::Int);
                let e = self.fresh();
                self.unify(&ta, &Self::seq(e));
                ta
            }
            Compose => {
                let ((x, y), (y2, z)) = (self.rel(&ta), self.rel(&tb));
                self.unify(&y, &y2);
                pow(prod(x, z))
            }
            ParProduct => {
                let ((x, y), (z, w)) = (self.rel(&ta), self.rel(&tb));
                pow(prod(prod(x, z), prod(y, w)))
            }
            Space(_) => {
                let (x, y) = (self.elem(&ta), self.elem(&tb));
                pow(pow(prod(x, y)))
            }
        }
    }

    fn ints(&mut self, ta: &Ty, tb: &Ty) {
        self.unify(ta, &Ty::Int);
        self.unify(tb, &Ty::Int);
    }

    /// `a * b`: a product of integers or a Cartesian product, as far as
    /// the operands' types tell (nothing when neither does).
    fn times(&mut self, ta: Ty, tb: Ty) -> Ty {
        let (ra, rb) = (self.resolve(&ta), self.resolve(&tb));
        match (ra, rb) {
            (Ty::Int, _) | (_, Ty::Int) => {
                self.ints(&ta, &tb);
                Ty::Int
            }
            (Ty::Pow(_), _) | (_, Ty::Pow(_)) => {
                let (x, y) = (self.elem(&ta), self.elem(&tb));
                pow(prod(x, y))
            }
            _ => self.fresh(),
        }
    }

    fn call(&mut self, b: Builtin, args: &[Expr]) -> Ty {
        use Builtin::*;
        let ts: Vec<Ty> = args.iter().map(|a| self.ty(a)).collect();
        let one = ts.first().cloned();
        match (b, one) {
            (Card | Size, Some(t)) => {
                self.elem(&t);
                Ty::Int
            }
            (Dom, Some(t)) => pow(self.rel(&t).0),
            (Ran, Some(t)) => pow(self.rel(&t).1),
            (Pow | Pow1 | Fin | Fin1, Some(t)) => pow(t),
            (GenUnion | GenInter, Some(t)) => self.elem(&t),
            (Max | Min, Some(t)) => {
                self.unify(&t, &pow(Ty::Int));
                Ty::Int
            }
            (Seq | Seq1 | Iseq | Iseq1 | Perm, Some(t)) => {
                let e = self.elem(&t);
                pow(Self::seq(e))
            }
            (Id, Some(t)) => {
                let e = self.elem(&t);
                pow(prod(e.clone(), e))
            }
            (Closure | Closure1, Some(t)) => {
                let (x, y) = self.rel(&t);
                self.unify(&x, &y);
                t
            }
            (Bool | Not, _) => Ty::Bool,
            _ => self.fresh(),
        }
    }
}

fn named(n: NamedSet) -> Ty {
    use NamedSet::*;
    match n {
        Nat | Nat1 | Int | Natural | Natural1 | Integer => pow(Ty::Int),
        Bool => pow(Ty::Bool),
        String => pow(Ty::Str),
        MaxInt | MinInt => Ty::Int,
    }
}
