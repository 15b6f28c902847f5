//! A theory datatype's set as a value (`Pair(1..5)`), for a datatype
//! whose destructors' types name no datatype once its type parameters are
//! given (no recursion: the set is that of its constructors' values over
//! the destructors' types). The set is the union over the constructors
//! `c(d1 : T1, .., dn : Tn)` of
//! `UNION(v1, .., vn).(v1 : T1 & .. & vn : Tn | {rec($ctor: "c", d1: v1, ..)})`
//! (`{rec($ctor: "c")}` for a constructor without destructors): the
//! records `datatypes` builds for the constructors' values. An infinite
//! type argument gives an infinite union, which the evaluator refuses.
//!
//! Refused: a recursive datatype's set, and one whose destructor's type
//! names a datatype (its set would be a membership test, not a value the
//! solver can enumerate). Owns only this translation; the datatypes'
//! records and memberships are `datatypes`'.

use crate::ast::*;
use crate::error::{BError, ErrorKind};

use super::datatypes::{untyped, CTOR};
use super::expr::{bin, conj, mk, Tr};
use super::term::Term;

type R<T> = Result<T, BError>;

/// The prefix of the bound names of the constructors' unions.
const BOUND: &str = "$dt_set_";

impl Tr<'_> {
    /// `name(targs)` when `name` is a datatype: its set, or why not.
    pub(super) fn datatype_set(&mut self, t: &Term, name: &str, targs: &[Term]) -> R<Option<Expr>> {
        let Some(dt) = self.theory.datatype(name) else {
            return Ok(None);
        };
        let refuse = |tr: &Self, why: &str| {
            let m = format!("the datatype {name}'s set as a value ({why})");
            Err(tr.err(ErrorKind::Unsupported, t, m))
        };
        if targs.len() != dt.params.len() {
            return refuse(self, "type arguments not its parameters");
        }
        let params = dt.params.clone();
        let ctors = dt.signatures();
        let pos = self.pos_of(t);
        let mut parts = Vec::new();
        for (c, dests) in ctors {
            let mut tys = Vec::new();
            for (d, ty) in dests {
                let ty = super::theory::substitute(untyped(&ty), &params, targs);
                if self.names_datatype(&ty) {
                    return refuse(self, "a destructor's type names a datatype");
                }
                tys.push((d, ty));
            }
            parts.push(self.ctor_values(&c, &tys, pos)?);
        }
        let set = parts.into_iter().reduce(|a, b| bin(BinOp::Union, a, b));
        Ok(Some(set.unwrap_or_else(|| mk(ExprKind::EmptySet, pos))))
    }

    /// The values of constructor `c` with destructors `dests` (name, type).
    fn ctor_values(&mut self, c: &str, dests: &[(String, Term)], pos: Pos) -> R<Expr> {
        let mut fields = vec![(self.syms.intern(CTOR), mk(ExprKind::Str(c.into()), pos))];
        let mut ids = Vec::new();
        let mut typing = Vec::new();
        for (d, ty) in dests {
            let v = self.syms.intern(&format!("{BOUND}{d}"));
            let ident = mk(ExprKind::Ident(v), pos);
            typing.push(bin(BinOp::In, ident.clone(), self.expr(ty)?));
            fields.push((self.syms.intern(d), ident));
            ids.push(v);
        }
        let single = mk(ExprKind::SetExt(vec![mk(ExprKind::Rec(fields), pos)]), pos);
        if ids.is_empty() {
            return Ok(single);
        }
        Ok(mk(
            ExprKind::Quant {
                kind: QuantKind::Union,
                ids,
                pred: Box::new(conj(typing, pos)),
                body: Some(Box::new(single)),
                plan: Default::default(),
            },
            pos,
        ))
    }

    /// Whether `t` applies a datatype's name (or one of its constructors).
    fn names_datatype(&self, t: &Term) -> bool {
        match t {
            Term::App(f, xs, _) => {
                let own = f == "extended_expr"
                    && xs.get(1).and_then(Term::atom).is_some_and(|n| {
                        self.theory.datatype(n).is_some() || self.theory.is_ctor(n)
                    });
                own || xs.iter().any(|x| self.names_datatype(x))
            }
            Term::List(xs) => xs.iter().any(|x| self.names_datatype(x)),
            _ => false,
        }
    }
}
