//! Event-B predicates and expressions, as ProB exports them (`member(Pos,
//! X, S)`, `function(Pos, F, [Args])`, ...), translated into the classical
//! B syntax tree ([`Expr`]) that `eval` and `solve` already evaluate.
//! Event-B's own forms map onto B's: `{x . P | E}` becomes `UNION x.(P |
//! {E})`, `partition(S, A, B)` becomes `S = A \/ B & A /\ B = {}`, `g o f`
//! becomes `f ; g`, and in a becomes-such-that predicate `x'` becomes `x`
//! and `x` becomes `x$0` (classical B's convention).
//!
//! Owns the functor table; an unknown functor is refused as unsupported,
//! named, with where it is and which axiom, guard or action holds it.

use crate::ast::*;
use crate::error::{BError, ErrorKind};
use crate::parse::err_at;

use super::term::Term;

type R<T> = Result<T, BError>;

/// Shared state while translating: the symbol table, file labels, the
/// element being translated (for messages) and the renaming of a
/// becomes-such-that predicate.
pub struct Tr<'a> {
    pub syms: &'a mut Syms,
    pub files: &'a [String],
    /// The file's own position, for terms without one.
    pub at: Pos,
    /// What is being translated (`axiom axm1 of C`, `event inc`).
    pub what: String,
    /// `(from, to)` identifier renamings (becomes-such-that).
    pub rename: Vec<(String, String)>,
    /// The carrier sets declared so far (finite in ProB).
    pub carriers: Vec<String>,
    /// The theory operators with a direct definition (see `theory`).
    pub operators: Vec<super::theory::Operator>,
    /// The datatypes and operators by cases of the theories (see
    /// `datatypes`).
    pub theory: super::datatypes::Theory,
    /// The operators ProB applies by an internal implementation (see
    /// `tags`).
    pub tags: super::tags::Tags,
    /// Where each axiom and event starts, and its name (for messages).
    pub regions: Vec<(Pos, String)>,
}

fn bin_op(f: &str) -> Option<BinOp> {
    use BinOp::*;
    use SpaceKind::*;
    Some(match f {
        "member" => In,
        "not_member" => NotIn,
        "equal" => Eq,
        "not_equal" => Neq,
        "subset" => Subset,
        "subset_strict" => StrictSubset,
        "not_subset" => NotSubset,
        "not_subset_strict" => NotStrictSubset,
        "less" => Lt,
        "less_equal" => Le,
        "greater" => Gt,
        "greater_equal" => Ge,
        "conjunct" => And,
        "disjunct" => Or,
        "implication" => Implies,
        "equivalence" => Equiv,
        "add" => Plus,
        "minus" | "set_subtraction" => Minus,
        "multiplication" | "cartesian_product" => Mul,
        "div" => Div,
        "modulo" => Mod,
        "power_of" => PowerNat,
        "interval" => Interval,
        "union" => Union,
        "intersection" => Inter,
        "overwrite" => Override,
        "domain_restriction" => DomRes,
        "domain_subtraction" => DomSub,
        "range_restriction" => RanRes,
        "range_subtraction" => RanSub,
        "composition" => Compose,
        "direct_product" => DirectProduct,
        "parallel_product" => ParProduct,
        "relations" => Space(Rel),
        "total_relation" => Space(TotalRel),
        "surjection_relation" => Space(SurjRel),
        "total_surjection_relation" => Space(TotalSurjRel),
        "partial_function" => Space(Partial),
        "total_function" => Space(Total),
        "partial_injection" => Space(PartialInj),
        "total_injection" => Space(TotalInj),
        "partial_surjection" => Space(PartialSurj),
        "total_surjection" => Space(TotalSurj),
        "partial_bijection" => Space(PartialBij),
        "total_bijection" => Space(TotalBij),
        _ => return None,
    })
}

fn unary(f: &str) -> Option<Builtin> {
    use Builtin::*;
    Some(match f {
        "negation" => Not,
        "card" => Card,
        "domain" => Dom,
        "range" => Ran,
        "pow_subset" => Pow,
        "pow1_subset" => Pow1,
        "general_union" => GenUnion,
        "general_intersection" => GenInter,
        "max" => Max,
        "min" => Min,
        "convert_bool" => Bool,
        _ => return None,
    })
}

fn named_set(f: &str) -> Option<ExprKind> {
    Some(match f {
        "bool_set" => ExprKind::Named(NamedSet::Bool),
        "integer_set" => ExprKind::Named(NamedSet::Integer),
        "natural_set" => ExprKind::Named(NamedSet::Natural),
        "natural1_set" => ExprKind::Named(NamedSet::Natural1),
        "boolean_true" | "truth" => ExprKind::Bool(true),
        "boolean_false" | "falsity" => ExprKind::Bool(false),
        "empty_set" => ExprKind::EmptySet,
        _ => return None,
    })
}

pub fn mk(kind: ExprKind, pos: Pos) -> Expr {
    Expr { kind, pos }
}

pub fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    let pos = a.pos;
    mk(ExprKind::Bin(op, Box::new(a), Box::new(b)), pos)
}

/// The conjunction of `ps` (`TRUE` when empty).
pub fn conj(ps: Vec<Expr>, pos: Pos) -> Expr {
    ps.into_iter()
        .reduce(|a, b| bin(BinOp::And, a, b))
        .unwrap_or_else(|| mk(ExprKind::Bool(true), pos))
}

impl Tr<'_> {
    /// The position of a compound term (the file's otherwise).
    pub fn pos_of(&self, t: &Term) -> Pos {
        match t {
            Term::App(_, _, p) => *p,
            _ => self.at,
        }
    }

    /// An error of `kind` at `t`, naming what is being translated.
    pub fn err(&self, kind: ErrorKind, t: &Term, msg: impl AsRef<str>) -> BError {
        let msg = if self.what.is_empty() {
            msg.as_ref().to_owned()
        } else {
            format!("{} (in {})", msg.as_ref(), self.what)
        };
        err_at(self.files, kind, self.pos_of(t), msg)
    }

    fn malformed(&self, t: &Term) -> BError {
        let f = t.app().map_or("a term", |(f, _)| f);
        self.err(ErrorKind::Syntax, t, format!("malformed {f}(...) term"))
    }

    /// The name of `identifier(_, Name)`.
    pub fn ident_name<'t>(&self, t: &'t Term) -> R<&'t str> {
        ident_name_of(t)
            .ok_or_else(|| self.err(ErrorKind::Syntax, t, "expected identifier(_, Name)"))
    }

    /// The symbol of identifier `name` after renaming.
    pub fn sym(&mut self, name: &str) -> Sym {
        let name = self
            .rename
            .iter()
            .find(|(a, _)| a == name)
            .map_or(name, |(_, b)| b.as_str());
        self.syms.intern(name)
    }

    /// The symbols of a list of identifiers (binders, parameters).
    pub fn ident_syms(&mut self, t: &Term) -> R<Vec<Sym>> {
        let list = t.list().ok_or_else(|| self.malformed(t))?;
        self.ident_list(list)
    }

    /// The symbols of identifiers.
    pub fn ident_list(&mut self, list: &[Term]) -> R<Vec<Sym>> {
        let mut out = Vec::new();
        for x in list {
            let n = self.ident_name(x)?.to_owned();
            out.push(self.syms.intern(&n));
        }
        Ok(out)
    }

    /// Translates a predicate or expression.
    pub fn expr(&mut self, t: &Term) -> R<Expr> {
        let pos = self.pos_of(t);
        let Some((f, args)) = t.app() else {
            return Err(self.err(ErrorKind::Syntax, t, "expected a predicate or expression"));
        };
        if let Some(k) = named_set(f) {
            return Ok(mk(k, pos));
        }
        if let Some(e) = self.generic(f, args, pos)? {
            return Ok(e);
        }
        match (f, args) {
            ("typeof", [_, e, _]) => return self.expr(e),
            ("integer", [_, Term::Int(n)]) => return Ok(mk(ExprKind::Int(*n), pos)),
            ("identifier", [_, _]) => {
                let n = self.ident_name(t)?.to_owned();
                return Ok(mk(ExprKind::Ident(self.sym(&n)), pos));
            }
            _ => {}
        }
        if let ("not_equal", [_, a, e]) = (f, args) {
            if is_empty_set(e) {
                if let Some(x) = self.nonempty_space(a)? {
                    return Ok(x);
                }
            }
        }
        if let ("member" | "not_member" | "subset", [_, x, s]) = (f, args) {
            if let Some(e) = self.datatype_member(f, x, s)? {
                return Ok(e);
            }
        }
        if f == "not_equal" && matches!(args, [_, a, e] if self.is_carrier(a) && is_empty_set(e)) {
            return self.special(f, args, t, pos);
        }
        if let (Some(op), [_, a, b]) = (bin_op(f), args) {
            return Ok(mk(
                ExprKind::Bin(op, Box::new(self.expr(a)?), Box::new(self.expr(b)?)),
                pos,
            ));
        }
        if let (Some(b), [_, a]) = (unary(f), args) {
            return Ok(mk(ExprKind::Call(b, vec![self.expr(a)?]), pos));
        }
        self.special(f, args, t, pos)
    }

    /// The functors that do not map one-to-one onto a B operator.
    fn special(&mut self, f: &str, args: &[Term], t: &Term, pos: Pos) -> R<Expr> {
        let k = match (f, args) {
            ("identity", [_, a]) => ExprKind::Call(Builtin::Id, vec![self.expr(a)?]),
            ("unary_minus", [_, a]) => ExprKind::Neg(Box::new(self.expr(a)?)),
            ("reverse", [_, a]) => ExprKind::Inverse(Box::new(self.expr(a)?)),
            ("image", [_, a, b]) => {
                ExprKind::Image(Box::new(self.expr(a)?), Box::new(self.expr(b)?))
            }
            ("ring", [_, a, b]) => ExprKind::Bin(
                BinOp::Compose,
                Box::new(self.expr(b)?),
                Box::new(self.expr(a)?),
            ),
            ("function", [_, fun, Term::List(xs)]) if !xs.is_empty() => {
                if let Some(("successor" | "predecessor", _)) = fun.app() {
                    let step = if fun.app().is_some_and(|(g, _)| g == "successor") {
                        BinOp::Plus
                    } else {
                        BinOp::Minus
                    };
                    let x = self.tuple(xs, pos)?;
                    return Ok(bin(step, x, mk(ExprKind::Int(1), pos)));
                }
                if let Some(which) = untyped_projection(fun) {
                    // `prj1(x)` with no `typeof`: the side of `x`, total
                    // over the type Event-B's type checker gave `x`
                    let prj = mk(ExprKind::Call(which, Vec::new()), pos);
                    ExprKind::Apply(Box::new(prj), Box::new(self.tuple(xs, pos)?))
                } else {
                    ExprKind::Apply(Box::new(self.expr(fun)?), Box::new(self.tuple(xs, pos)?))
                }
            }
            ("couple", [_, Term::List(xs)]) if !xs.is_empty() => return self.tuple(xs, pos),
            ("set_extension", [_, Term::List(xs)]) => ExprKind::SetExt(self.exprs(xs)?),
            // carrier sets are finite and not empty in ProB
            ("finite", [_, a]) if self.is_carrier(a) => ExprKind::Bool(true),
            ("not_equal", [_, a, e]) if self.is_carrier(a) && is_empty_set(e) => {
                ExprKind::Bool(true)
            }
            ("finite", [_, a]) => {
                // `finite(S)`: S's cardinality is defined (an infinite set
                // is refused by the evaluator)
                let c = mk(ExprKind::Call(Builtin::Card, vec![self.expr(a)?]), pos);
                ExprKind::Bin(BinOp::Ge, Box::new(c), Box::new(mk(ExprKind::Int(0), pos)))
            }
            ("forall" | "exists", [_, ids, p]) => {
                let kind = if f == "forall" {
                    QuantKind::Forall
                } else {
                    QuantKind::Exists
                };
                self.quant(kind, ids, p, None)?
            }
            ("quantified_union" | "quantified_intersection", [_, ids, p, e]) => {
                let kind = if f == "quantified_union" {
                    QuantKind::Union
                } else {
                    QuantKind::Inter
                };
                self.quant(kind, ids, p, Some(e))?
            }
            ("event_b_comprehension_set", [_, ids, e, p]) => return self.comprehension(ids, e, p),
            ("partition", [_, s, Term::List(parts)]) => return self.partition(s, parts, pos),
            ("extended_expr" | "extended_pred", [_, name, Term::List(xs), Term::List(ps)])
                if ps.is_empty() =>
            {
                return self.theory_operator(t, name, xs, f == "extended_pred");
            }
            _ => {
                return Err(self.err(
                    ErrorKind::Unsupported,
                    t,
                    format!("the Event-B construct {f}/{}", args.len()),
                ))
            }
        };
        Ok(mk(k, pos))
    }

    /// The application of theory operator `name` to `args`: its direct
    /// definition with the arguments for its parameters (see `theory`).
    fn theory_operator(&mut self, t: &Term, name: &Term, args: &[Term], pred: bool) -> R<Expr> {
        let name = name.atom().unwrap_or("?");
        if let (Some(b), [arg]) = (self.tags.builtin(name), args) {
            return Ok(mk(ExprKind::Call(b, vec![self.expr(arg)?]), self.pos_of(t)));
        }
        if let Some(e) = self.datatype_app(t, name, args, pred)? {
            return Ok(e);
        }
        if let Some(e) = self.datatype_set(t, name, args)? {
            return Ok(e);
        }
        let Some(op) = self.operators.iter().find(|o| o.name == name) else {
            let msg = format!("the theory operator {name} (no direct definition)");
            return Err(self.err(ErrorKind::Unsupported, t, msg));
        };
        let def = super::theory::instantiate(op, args)
            .map_err(|m| self.err(ErrorKind::Unsupported, t, m))?;
        self.expr(&def)
    }

    /// Event-B's untyped `id`, `prj1` and `prj2` where the context gives
    /// their type: `S <| id` and `id |> S` are `id(S)`, `r /\ id` is
    /// `r /\ id(dom(r))`, `id(x)` is `x`, and a `typeof` annotation gives
    /// the sets (`prj1(A, B)`).
    fn generic(&mut self, f: &str, args: &[Term], pos: Pos) -> R<Option<Expr>> {
        let call = |b, v| mk(ExprKind::Call(b, v), pos);
        Ok(Some(match (f, args) {
            ("domain_restriction", [_, s, i]) | ("range_restriction", [_, i, s]) if is_id(i) => {
                call(Builtin::Id, vec![self.expr(s)?])
            }
            ("intersection", [_, r, i]) | ("intersection", [_, i, r]) if is_id(i) => {
                let dom = call(Builtin::Dom, vec![self.expr(r)?]);
                bin(BinOp::Inter, self.expr(r)?, call(Builtin::Id, vec![dom]))
            }
            ("function", [_, i, Term::List(xs)]) if is_id(i) && xs.len() == 1 => {
                self.expr(&xs[0])?
            }
            ("typeof", [_, g, ty]) => {
                let Some((gf, _)) = g.app() else {
                    return Ok(None);
                };
                // the type is POW(A * B) (id) or POW((A * B) * C) (projections)
                let Some(("pow_subset", [_, prod])) = ty.app() else {
                    return Ok(None);
                };
                let Some(("cartesian_product", [_, l, _])) = prod.app() else {
                    return Ok(None);
                };
                match gf {
                    "event_b_identity" => call(Builtin::Id, vec![self.expr(l)?]),
                    "event_b_first_projection_v2" | "event_b_second_projection_v2" => {
                        let Some(("cartesian_product", [_, a, b])) = l.app() else {
                            return Ok(None);
                        };
                        let which = if gf.starts_with("event_b_first") {
                            Builtin::Prj1
                        } else {
                            Builtin::Prj2
                        };
                        call(which, vec![self.expr(a)?, self.expr(b)?])
                    }
                    _ => return Ok(None),
                }
            }
            _ => return Ok(None),
        }))
    }

    pub(super) fn is_carrier(&self, t: &Term) -> bool {
        ident_name_of(t).is_some_and(|n| self.carriers.iter().any(|c| c == n))
    }

    /// Translates each of `xs`.
    pub fn exprs(&mut self, xs: &[Term]) -> R<Vec<Expr>> {
        xs.iter().map(|x| self.expr(x)).collect()
    }

    /// `a |-> b |-> c` (left-nested) of a non-empty list.
    fn tuple(&mut self, xs: &[Term], pos: Pos) -> R<Expr> {
        let es = self.exprs(xs)?;
        Ok(es
            .into_iter()
            .reduce(|a, b| bin(BinOp::Maplet, a, b))
            .unwrap_or_else(|| mk(ExprKind::EmptySet, pos)))
    }

    fn quant(
        &mut self,
        kind: QuantKind,
        ids: &Term,
        pred: &Term,
        body: Option<&Term>,
    ) -> R<ExprKind> {
        let mut ids = self.ident_syms(ids)?;
        let mut pred = Box::new(self.expr(pred)?);
        if kind == QuantKind::Forall {
            super::nested_forall::merge_nested(&mut ids, &mut pred);
            typed_by_consequent(&mut pred);
        }
        let body = match body {
            Some(b) => Some(Box::new(self.expr(b)?)),
            None => None,
        };
        Ok(ExprKind::Quant {
            kind,
            ids,
            pred,
            body,
            plan: Default::default(),
        })
    }

    /// `{ids . P | E}`: a B comprehension when `E` is the tuple of `ids`,
    /// else `UNION ids.(P | {E})`.
    fn comprehension(&mut self, ids: &Term, e: &Term, p: &Term) -> R<Expr> {
        let pos = self.pos_of(e);
        let syms = self.ident_syms(ids)?;
        let body = self.expr(e)?;
        let at = self.pos_of(p);
        let pred = Box::new(self.expr(p)?);
        let pred = match super::projected_set::projected(&syms, &body, pred, at) {
            Ok(set) => return Ok(set),
            Err(pred) => pred,
        };
        let is_ids = {
            let mut flat = Vec::new();
            flatten_maplets(&body, &mut flat);
            flat.len() == syms.len()
                && flat
                    .iter()
                    .zip(&syms)
                    .all(|(x, s)| matches!(x.kind, ExprKind::Ident(y) if y == *s))
        };
        let (kind, body) = if is_ids {
            (QuantKind::Comprehension, None)
        } else {
            (
                QuantKind::Union,
                Some(Box::new(mk(ExprKind::SetExt(vec![body]), pos))),
            )
        };
        Ok(mk(
            ExprKind::Quant {
                kind,
                ids: syms,
                pred,
                body,
                plan: Default::default(),
            },
            pos,
        ))
    }

    /// `partition(S, A, B, ...)`: `S = A \/ B \/ ... & A /\ B = {} & ...`.
    fn partition(&mut self, s: &Term, parts: &[Term], pos: Pos) -> R<Expr> {
        let mut cs = Vec::new();
        let union = parts
            .iter()
            .map(|p| self.expr(p))
            .reduce(|a, b| Ok(bin(BinOp::Union, a?, b?)))
            .unwrap_or_else(|| Ok(mk(ExprKind::EmptySet, pos)))?;
        cs.push(bin(BinOp::Eq, self.expr(s)?, union));
        for i in 0..parts.len() {
            for j in i + 1..parts.len() {
                let inter = bin(BinOp::Inter, self.expr(&parts[i])?, self.expr(&parts[j])?);
                cs.push(bin(BinOp::Eq, inter, mk(ExprKind::EmptySet, pos)));
            }
        }
        Ok(conj(cs, pos))
    }
}

/// Whether `t` is Event-B's untyped identity relation.
fn is_id(t: &Term) -> bool {
    matches!(t.app(), Some(("event_b_identity", [_])))
}

/// Whether `t` is `{}` (maybe typed: `typeof({}, T)`).
fn is_empty_set(t: &Term) -> bool {
    match t.app() {
        Some(("empty_set", _)) => true,
        Some(("typeof", [_, e, _])) => is_empty_set(e),
        _ => false,
    }
}

/// The name of `identifier(_, Name)`.
pub fn ident_name_of(t: &Term) -> Option<&str> {
    match t.app() {
        Some(("identifier", [_, n])) => n.atom(),
        _ => None,
    }
}

/// The components of a left-nested maplet `a |-> b |-> c`.
fn flatten_maplets<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    match &e.kind {
        ExprKind::Bin(BinOp::Maplet, a, b) => {
            flatten_maplets(a, out);
            out.push(b);
        }
        _ => out.push(e),
    }
}

/// `!xs.(TRUE => Q)` (Rodin's typing left implicit: `!r.(r <: closure(r))`)
/// as `!xs.((Q or not(Q)) => Q)`: the same predicate, whose antecedent
/// shows the identifiers' types to the solver (see `solve::typing`),
/// which enumerates them over their type, as ProB does.
fn typed_by_consequent(pred: &mut Expr) {
    let ExprKind::Bin(BinOp::Implies, d, q) = &mut pred.kind else {
        return;
    };
    if !matches!(d.kind, ExprKind::Bool(true)) {
        return;
    }
    let pos = d.pos;
    let not_q = Expr {
        kind: ExprKind::Call(Builtin::Not, vec![(**q).clone()]),
        pos,
    };
    d.kind = ExprKind::Bin(BinOp::Or, q.clone(), Box::new(not_q));
}

/// `prj1` / `prj2` written without the `typeof` annotation that gives
/// their sets.
fn untyped_projection(t: &Term) -> Option<Builtin> {
    match t.app()? {
        ("event_b_first_projection_v2", [_]) => Some(Builtin::Prj1),
        ("event_b_second_projection_v2", [_]) => Some(Builtin::Prj2),
        _ => None,
    }
}
