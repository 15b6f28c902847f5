//! Inductive datatypes of ProB's theory plug-in (`datatype(Name, TypeParams,
//! [constructor(c, [destructor(d, Type), ..]), ..])` in a `theory(...)`
//! term of the export's extras) and the operators defined by cases over
//! them (`operator(Name, Args, WD, [], [case(x, Vars, Pattern, Body), ..])`).
//!
//! * A value `c(a1, .., an)` is the record `rec($ctor: "c", d1: a1, ..,
//!   dn: an)` (its destructors' names as fields): datatypes are free, so
//!   two values are equal exactly when their records are.
//! * A destructor `d(v)` is the field `v'd` (an error on a value built by
//!   another constructor, as the operator is not well defined there).
//! * An operator defined by cases is applied by the evaluator
//!   (`Builtin::Theory`, see `crate::eventb_calls`): its body tests the
//!   constructor of the value matched (`x'$ctor = "c"`), the pattern's
//!   variables read as the destructors of `x`.
//! * `v : D(S1, ..)` is such an operator too (an instance per datatype and
//!   type arguments): `v` is built by one of the constructors and each
//!   destructor's value belongs to its type with `S1, ..` for the type
//!   parameters; `A <: D(..)` is `!e.(e : A => e : D(..))`.
//!
//! Refused: a datatype's set as a value, a case body whose binders meet
//! the pattern's variables or the operator's parameters. Owns only the
//! translation; evaluation is `eventb_calls`'.

use crate::ast::*;
use crate::error::{BError, ErrorKind};
use crate::eventb_calls::Called;

use super::expr::{bin, ident_name_of, mk, Tr};
use super::term::Term;
use super::theory::identifier;

type R<T> = Result<T, BError>;

/// The field holding a datatype value's constructor.
pub(super) const CTOR: &str = "$ctor";
/// The parameter of the membership operators.
const ELEM: &str = "$dt_elem";

pub(super) struct Datatype {
    name: String,
    pub(super) params: Vec<String>,
    ctors: Vec<Ctor>,
}

struct Ctor {
    name: String,
    /// The destructors and their types.
    dests: Vec<(String, Term)>,
}

struct CaseOp {
    name: String,
    params: Vec<String>,
    /// `(matched parameter, pattern, body)`.
    cases: Vec<(String, Term, Term)>,
}

/// The datatypes and operators by cases of the export's theories, and the
/// operators translated so far for the evaluator.
#[derive(Default)]
pub struct Theory {
    datatypes: Vec<Datatype>,
    case_ops: Vec<CaseOp>,
    /// The type parameters of the theories (`T` of `List(T)`).
    type_params: Vec<String>,
    /// Translated operators, by key (operator name, or datatype with its
    /// type arguments), with their index in `calls`.
    instances: Vec<(String, u32)>,
    pub calls: Vec<Called>,
}

impl Theory {
    /// The datatypes and operators by cases of the `theory(...)` terms
    /// among `extras`.
    pub fn read(extras: &[Term]) -> Theory {
        let mut th = Theory::default();
        for t in extras {
            if t.app().is_some_and(|(f, _)| f == "theory") {
                th.collect(t);
            }
        }
        th.type_params = super::theory::type_params(extras);
        th
    }

    fn collect(&mut self, t: &Term) {
        match t.app() {
            Some(("datatype", [name, Term::List(ps), Term::List(cs)])) => {
                if let Some(d) = datatype(name, ps, cs) {
                    self.datatypes.push(d);
                }
                return;
            }
            Some(("operator", [name, Term::List(args), _, Term::List(defs), Term::List(rec)])) => {
                if let (Some(op), true) = (case_op(name, args, rec), defs.is_empty()) {
                    self.case_ops.push(op);
                }
                return;
            }
            _ => {}
        }
        match t {
            Term::App(_, xs, _) | Term::List(xs) => xs.iter().for_each(|x| self.collect(x)),
            _ => {}
        }
    }

    fn ctor(&self, name: &str) -> Option<&Ctor> {
        let all = self.datatypes.iter().flat_map(|d| &d.ctors);
        all.into_iter().find(|c| c.name == name)
    }

    /// The datatype named `name`.
    pub(super) fn datatype(&self, name: &str) -> Option<&Datatype> {
        self.datatypes.iter().find(|d| d.name == name)
    }

    pub(super) fn is_ctor(&self, name: &str) -> bool {
        self.ctor(name).is_some()
    }

    fn is_dest(&self, name: &str) -> bool {
        let all = self.datatypes.iter().flat_map(|d| &d.ctors);
        all.into_iter()
            .any(|c| c.dests.iter().any(|(d, _)| d == name))
    }
}

impl Datatype {
    /// Its constructors, each with its destructors and their types.
    pub(super) fn signatures(&self) -> Vec<(String, Vec<(String, Term)>)> {
        let sig = |c: &Ctor| (c.name.clone(), c.dests.clone());
        self.ctors.iter().map(sig).collect()
    }
}

fn datatype(name: &Term, ps: &[Term], cs: &[Term]) -> Option<Datatype> {
    let params = ps
        .iter()
        .map(|p| ident_name_of(p).map(str::to_owned))
        .collect::<Option<Vec<_>>>()?;
    let ctors = cs
        .iter()
        .map(|c| match c.app()? {
            ("constructor", [n, Term::List(ds)]) => Some(Ctor {
                name: n.atom()?.to_owned(),
                dests: ds
                    .iter()
                    .map(|d| match d.app()? {
                        ("destructor", [dn, ty]) => Some((dn.atom()?.to_owned(), ty.clone())),
                        _ => None,
                    })
                    .collect::<Option<_>>()?,
            }),
            _ => None,
        })
        .collect::<Option<Vec<_>>>()?;
    Some(Datatype {
        name: name.atom()?.to_owned(),
        params,
        ctors,
    })
}

fn case_op(name: &Term, args: &[Term], rec: &[Term]) -> Option<CaseOp> {
    let params = args
        .iter()
        .map(|a| match a.app()? {
            ("argument", [x, _]) => ident_name_of(x).or_else(|| x.atom()).map(str::to_owned),
            _ => None,
        })
        .collect::<Option<Vec<_>>>()?;
    let cases = rec
        .iter()
        .map(|c| match c.app()? {
            ("case", [x, _, pat, body]) => Some((x.atom()?.to_owned(), pat.clone(), body.clone())),
            _ => None,
        })
        .collect::<Option<Vec<_>>>()?;
    let name = name.atom()?.to_owned();
    (!cases.is_empty()).then_some(CaseOp {
        name,
        params,
        cases,
    })
}

/// `t` without its `typeof(_, t, Type)` wrappers.
pub(super) fn untyped(t: &Term) -> &Term {
    match t.app() {
        Some(("typeof", [_, e, _])) => untyped(e),
        _ => t,
    }
}

/// `t` written out without positions (a key for instances).
fn render(t: &Term) -> String {
    match t {
        Term::App(f, xs, _) => format!("{f}({})", render_all(xs)),
        Term::List(xs) => format!("[{}]", render_all(xs)),
        other => format!("{other:?}"),
    }
}

fn render_all(xs: &[Term]) -> String {
    xs.iter().map(render).collect::<Vec<_>>().join(",")
}

fn ext_expr(name: &str, args: Vec<Term>) -> Term {
    let none = Term::Atom("none".into());
    let xs = vec![
        none,
        Term::Atom(name.into()),
        Term::List(args),
        Term::List(vec![]),
    ];
    Term::App("extended_expr".into(), xs, Pos::default())
}

impl Tr<'_> {
    /// `name(args)` when `name` is a constructor, a destructor or an
    /// operator defined by cases (`pred`: applied as a predicate).
    pub(super) fn datatype_app(
        &mut self,
        t: &Term,
        name: &str,
        args: &[Term],
        pred: bool,
    ) -> R<Option<Expr>> {
        let pos = self.pos_of(t);
        if let Some(c) = self.theory.ctor(name) {
            if c.dests.len() != args.len() {
                let m = format!("the constructor {name} with {} arguments", args.len());
                return Err(self.err(ErrorKind::Unsupported, t, m));
            }
            let fields: Vec<String> = c.dests.iter().map(|(d, _)| d.clone()).collect();
            let mut rec = vec![(self.syms.intern(CTOR), mk(ExprKind::Str(name.into()), pos))];
            for (d, a) in fields.iter().zip(args) {
                let x = self.expr(a)?;
                rec.push((self.syms.intern(d), x));
            }
            return Ok(Some(mk(ExprKind::Rec(rec), pos)));
        }
        if self.theory.is_dest(name) {
            let [a] = args else {
                return Err(self.err(ErrorKind::Unsupported, t, "a destructor with arguments"));
            };
            let x = self.expr(a)?;
            let d = self.syms.intern(name);
            return Ok(Some(mk(ExprKind::Field(Box::new(x), d), pos)));
        }
        let Some(k) = self.theory.case_ops.iter().position(|o| o.name == name) else {
            return Ok(None);
        };
        let idx = self.instance(name.to_owned(), t, |tr| tr.case_body(k, t, pred))?;
        let xs = self.exprs(args)?;
        Ok(Some(mk(ExprKind::Call(Builtin::Theory(idx), xs), pos)))
    }

    /// `x : D(..)`, `x /: D(..)` and `A <: D(..)` for a datatype `D`.
    pub(super) fn datatype_member(&mut self, f: &str, x: &Term, s: &Term) -> R<Option<Expr>> {
        let s = untyped(s);
        let Some(("extended_expr", [_, d, Term::List(targs), Term::List(ps)])) = s.app() else {
            return self.ctor_member(f, x, s);
        };
        let Some(k) = d
            .atom()
            .and_then(|d| self.theory.datatypes.iter().position(|dt| dt.name == d))
        else {
            return Ok(None);
        };
        if !ps.is_empty() || targs.len() != self.theory.datatypes[k].params.len() {
            return Err(self.err(ErrorKind::Unsupported, s, "a datatype's set of this form"));
        }
        let pos = self.pos_of(s);
        let x_expr = self.expr(x)?;
        let Some(member) = self.member_call(k, targs, s, x_expr.clone())? else {
            return Ok(None);
        };
        Ok(Some(match f {
            "member" => member,
            "not_member" => mk(ExprKind::Call(Builtin::Not, vec![member]), pos),
            _ => {
                // A <: D(..): every element of A is a value of D(..)
                let e = self.syms.intern(ELEM);
                let ident = mk(ExprKind::Ident(e), pos);
                let inner = self.member_call(k, targs, s, ident.clone())?;
                let inner = inner.expect("the same instance");
                let dom = bin(BinOp::In, ident, x_expr);
                mk(
                    ExprKind::Quant {
                        kind: QuantKind::Forall,
                        ids: vec![e],
                        pred: Box::new(bin(BinOp::Implies, dom, inner)),
                        body: None,
                        plan: Default::default(),
                    },
                    pos,
                )
            }
        }))
    }

    /// `c(a1, .., an) : S` (`n > 0`, `S` a constant or variable) as
    /// `a1 |-> .. |-> an : {v . v : S & v'$ctor = "c" | v'd1 |-> .. |-> v'dn}`
    /// (the same predicate, whose form lets the solver draw the
    /// arguments from `S`: `single(x) : dvalues` in a guard).
    fn ctor_member(&mut self, f: &str, x: &Term, s: &Term) -> R<Option<Expr>> {
        let (Some(("extended_expr", [_, c, Term::List(args), _])), Some(("identifier", _))) =
            (untyped(x).app(), s.app())
        else {
            return Ok(None);
        };
        let Some(ctor) = c.atom().and_then(|c| self.theory.ctor(c)) else {
            return Ok(None);
        };
        let dests: Vec<String> = ctor.dests.iter().map(|(d, _)| d.clone()).collect();
        if f == "subset" || args.is_empty() || args.len() != dests.len() {
            return Ok(None);
        }
        let c = c.atom().unwrap_or("?").to_owned();
        let pos = self.pos_of(x);
        let v = self.syms.intern(ELEM);
        let fields = dests
            .iter()
            .map(|d| self.field(v, d, pos))
            .collect::<Vec<_>>();
        let tuple = |es: Vec<Expr>| es.into_iter().reduce(|a, b| bin(BinOp::Maplet, a, b));
        let in_s = bin(BinOp::In, mk(ExprKind::Ident(v), pos), self.expr(s)?);
        let pred = bin(BinOp::And, in_s, self.ctor_test(v, &c, pos));
        let set = mk(
            ExprKind::Quant {
                kind: QuantKind::Union,
                ids: vec![v],
                pred: Box::new(pred),
                body: Some(Box::new(mk(
                    ExprKind::SetExt(tuple(fields).into_iter().collect()),
                    pos,
                ))),
                plan: Default::default(),
            },
            pos,
        );
        let elem = tuple(self.exprs(args)?).expect("arguments");
        let op = if f == "member" {
            BinOp::In
        } else {
            BinOp::NotIn
        };
        Ok(Some(bin(op, elem, set)))
    }

    /// The membership of `x` in datatype `k` with type arguments `targs`.
    fn member_call(&mut self, k: usize, targs: &[Term], t: &Term, x: Expr) -> R<Option<Expr>> {
        let key = format!("{}({})", self.theory.datatypes[k].name, render_all(targs));
        let idx = self.instance(key, t, |tr| tr.member_body(k, targs, t))?;
        let pos = x.pos;
        Ok(Some(mk(ExprKind::Call(Builtin::Theory(idx), vec![x]), pos)))
    }

    /// The index of the operator named `key`, translated by `build` the
    /// first time (its index is reserved first: the body may apply it).
    fn instance(
        &mut self,
        key: String,
        t: &Term,
        build: impl FnOnce(&mut Self) -> R<(Vec<Sym>, Expr, bool)>,
    ) -> R<u32> {
        if let Some((_, k)) = self.theory.instances.iter().find(|(n, _)| *n == key) {
            return Ok(*k);
        }
        let idx = self.theory.calls.len() as u32;
        self.theory.instances.push((key.clone(), idx));
        let pos = self.pos_of(t);
        self.theory.calls.push(Called {
            name: key.clone(),
            params: Vec::new(),
            body: mk(ExprKind::Bool(true), pos),
            pred: true,
        });
        let what = std::mem::replace(&mut self.what, format!("theory operator {key}"));
        let rename = std::mem::take(&mut self.rename);
        let built = build(self);
        self.what = what;
        self.rename = rename;
        let (params, body, pred) = match built {
            Ok(b) => b,
            Err(e) => {
                // never applied with the placeholder's body: a body that
                // applied it (mutual recursion) fails when evaluated
                self.theory.instances.retain(|(n, _)| *n != key);
                let missing = ExprKind::Call(Builtin::Theory(u32::MAX), Vec::new());
                self.theory.calls[idx as usize].body = mk(missing, pos);
                self.theory.calls[idx as usize].pred = false;
                return Err(e);
            }
        };
        let c = &mut self.theory.calls[idx as usize];
        (c.params, c.body, c.pred) = (params, body, pred);
        Ok(idx)
    }

    /// The body of membership in datatype `k`: one of the constructors,
    /// with each destructor's value in its type.
    fn member_body(&mut self, k: usize, targs: &[Term], t: &Term) -> R<(Vec<Sym>, Expr, bool)> {
        let pos = self.pos_of(t);
        let e = self.syms.intern(ELEM);
        let dt = &self.theory.datatypes[k];
        let params = dt.params.clone();
        let ctors = dt.signatures();
        let mut alts = Vec::new();
        for (c, dests) in ctors {
            let mut cs = vec![self.ctor_test(e, &c, pos)];
            for (d, ty) in dests {
                let ty = super::theory::substitute(&ty, &params, targs);
                let field = self.field(e, &d, pos);
                cs.push(
                    match self.datatype_member("member", &identifier(ELEM), &ty)? {
                        // the type is a datatype: its membership applied to the field
                        Some(Expr {
                            kind: ExprKind::Call(b, _),
                            pos,
                        }) => mk(ExprKind::Call(b, vec![field]), pos),
                        Some(_) => unreachable!("a membership is a call"),
                        None => bin(BinOp::In, field, self.expr(&ty)?),
                    },
                );
            }
            alts.push(super::expr::conj(cs, pos));
        }
        let body = alts
            .into_iter()
            .reduce(|a, b| bin(BinOp::Or, a, b))
            .unwrap_or_else(|| mk(ExprKind::Bool(false), pos));
        Ok((vec![e], body, true))
    }

    /// `x'$ctor = "c"`.
    fn ctor_test(&mut self, x: Sym, c: &str, pos: Pos) -> Expr {
        let tag = self.field(x, CTOR, pos);
        bin(BinOp::Eq, tag, mk(ExprKind::Str(c.into()), pos))
    }

    fn field(&mut self, x: Sym, name: &str, pos: Pos) -> Expr {
        let f = self.syms.intern(name);
        let v = mk(ExprKind::Ident(x), pos);
        mk(ExprKind::Field(Box::new(v), f), pos)
    }

    /// The body of operator by cases `k`: the cases tested in turn (the
    /// last one taken without a test: the cases cover the datatype).
    fn case_body(&mut self, k: usize, t: &Term, pred: bool) -> R<(Vec<Sym>, Expr, bool)> {
        let pos = self.pos_of(t);
        let op = &self.theory.case_ops[k];
        let (name, params, cases) = (op.name.clone(), op.params.clone(), op.cases.clone());
        let mut arms = Vec::new();
        for (x, pat, body) in &cases {
            let refuse = |tr: &Self, why: &str| {
                let m = format!("the theory operator {name} ({why})");
                Err(tr.err(ErrorKind::Unsupported, t, m))
            };
            let Some(("extended_expr", [_, c, Term::List(vars), _])) = untyped(pat).app() else {
                return refuse(self, "a case pattern not a constructor");
            };
            let c = c.atom().unwrap_or("?").to_owned();
            let Some(ctor) = self.theory.ctor(&c) else {
                return refuse(self, "a case pattern not a constructor");
            };
            let dests: Vec<Term> = ctor
                .dests
                .iter()
                .map(|(d, _)| ext_expr(d, vec![identifier(x)]))
                .collect();
            let names: Option<Vec<String>> = vars
                .iter()
                .map(|v| ident_name_of(v).map(str::to_owned))
                .collect();
            let Some(names) = names.filter(|n| n.len() == dests.len()) else {
                return refuse(self, "a case pattern of other than its variables");
            };
            let mut bound = Vec::new();
            super::theory::binders(body, &mut bound);
            if bound
                .iter()
                .any(|b| names.contains(b) || params.contains(b))
            {
                return refuse(self, "a binder of a case meets its variables");
            }
            let mut used = Vec::new();
            super::theory::value_names(body, &mut used);
            if used.iter().any(|u| self.theory.type_params.contains(u)) {
                // ProB gives it the type of the argument, not shown here
                return refuse(self, "a type parameter as a value");
            }
            let body = super::theory::substitute(body, &names, &dests);
            let x_sym = self.syms.intern(x);
            let test = self.ctor_test(x_sym, &c, pos);
            arms.push((test, self.expr(&body)?));
        }
        let mut arms = arms.into_iter().rev();
        let Some((_, last)) = arms.next() else {
            return Err(self.err(ErrorKind::Unsupported, t, "an operator without cases"));
        };
        let body = arms.fold(last, |rest, (test, e)| {
            mk(
                ExprKind::Call(Builtin::IfThenElse, vec![test, e, rest]),
                pos,
            )
        });
        let params = params.iter().map(|p| self.syms.intern(p)).collect();
        Ok((params, body, pred))
    }
}
