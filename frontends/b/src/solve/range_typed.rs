//! Quantified identifiers that no conjunct of their antecedent gives a
//! finite range, typed by B's type inference instead: Rodin's axioms
//! `!r, s.(r <: s & (s ; r) <: s => closure(r) <: s)` (Basin's topology
//! discovery contexts) leave `r` and `s` typed only by the declaration
//! of `closure : (NODES <-> NODES) --> (NODES <-> NODES)`. A universal
//! (an existential) ranges over the whole type of its identifiers, so
//! adding `r : POW(NODES * NODES)` to its antecedent (its predicate)
//! changes nothing in its meaning, and gives the planner a finite range:
//! ProB likewise expands such a quantifier over the type's values.
//!
//! Only where the quantifier's plan fails as written (no other plan
//! changes), only types with a finite carrier (made of SETS, `BOOL`,
//! `POW` and `*`; never `INTEGER` or `STRING`, whose enumeration ProB
//! clips), and only when the plan then succeeds. The types are inferred
//! by `range_types` over the whole top-level conjunct.
//!
//! Owns that rewriting of the machines' PROPERTIES and operations'
//! predicates (walked by `range_typed_guards`), before `compile` plans
//! them.

use super::range_types::{Infer, Scope, Ty};
use crate::ast::*;
use rustc_hash::FxHashMap;
use std::sync::OnceLock;

/// Types the quantified identifiers of the PROPERTIES of `machines` that
/// have no finite range otherwise (see the module's doc).
pub fn type_quantified(machines: &mut [Machine], syms: &Syms) {
    let sets: Vec<Sym> = machines
        .iter()
        .flat_map(|m| m.sets.iter().map(|s| s.name))
        .collect();
    let elements: FxHashMap<Sym, Sym> = machines
        .iter()
        .flat_map(|m| &m.sets)
        .flat_map(|s| s.elements.iter().flatten().map(move |&e| (e, s.name)))
        .collect();
    let decls = declarations(machines);
    let scope = Scope {
        sets: &sets,
        elements: &elements,
        decls: &decls,
    };
    let mut retype = |p: &mut Expr, locals: &[Sym]| match typed(p, locals, &scope, syms) {
        Some(e) => {
            *p = e;
            true
        }
        None => false,
    };
    for machine in machines.iter_mut() {
        for p in &mut machine.properties {
            retype(p, &[]);
        }
        for op in &mut machine.operations {
            let locals: Vec<Sym> = op.params.iter().chain(&op.outs).copied().collect();
            super::range_typed_guards::walk(&mut op.body, &locals, &mut retype);
        }
    }
}

/// The declarations `v : S` among the top-level conjuncts of the
/// machines' PROPERTIES and INVARIANT.
fn declarations(machines: &[Machine]) -> FxHashMap<Sym, Expr> {
    let mut out = FxHashMap::default();
    for m in machines {
        for c in m.properties.iter().chain(&m.invariant) {
            for c in super::conjuncts(c) {
                if let ExprKind::Bin(BinOp::In, v, s) = &c.kind {
                    if let ExprKind::Ident(v) = v.kind {
                        out.entry(v).or_insert_with(|| (**s).clone());
                    }
                }
            }
        }
    }
    out
}

/// `p` with typings added to the quantifiers that need them, if any does;
/// `locals`: identifiers bound around `p` (operation parameters, ANY),
/// of unknown types (they may hide a global of the same name).
fn typed(p: &Expr, locals: &[Sym], scope: &Scope, syms: &Syms) -> Option<Expr> {
    if !has_unplanned(p, syms) {
        return None;
    }
    let mut inf = Infer::new(scope);
    inf.bind_fresh(locals);
    inf.ty(p);
    if inf.clash {
        return None;
    }
    let types: Vec<Vec<Ty>> = inf
        .quants
        .iter()
        .map(|ts| ts.iter().map(|t| inf.resolve(t)).collect())
        .collect();
    let mut out = p.clone();
    let mut next = 0;
    let changed = retype(&mut out, &types, &mut next, syms);
    changed.then_some(out)
}

/// Whether a universal or existential in `e` has no plan as written, or
/// the antecedent `Q or not(Q)` (see `tautology`).
fn has_unplanned(e: &Expr, syms: &Syms) -> bool {
    let mut found = false;
    crate::compile::visit(e, &mut |x| {
        if let Some((ids, dom)) = quantified(x) {
            found |= tautology(dom) || super::plan(ids, dom, syms).is_err();
        }
    });
    found
}

/// Whether `d` is `Q or not(Q)`, the antecedent Event-B's import writes
/// for Rodin's `!xs.(TRUE => Q)` so that `Q` shows the identifiers' types
/// while the antecedent is solved (`eventb::expr`): true wherever `Q` is
/// defined, and `Q` is evaluated for each instance anyway.
fn tautology(d: &Expr) -> bool {
    match &d.kind {
        ExprKind::Bin(BinOp::Or, q, n) => match &n.kind {
            ExprKind::Call(Builtin::Not, v) if v.len() == 1 => {
                format!("{:?}", q.kind) == format!("{:?}", v[0].kind)
            }
            _ => false,
        },
        _ => false,
    }
}

/// The identifiers and the predicate planned of a universal (its
/// antecedent) or an existential.
fn quantified(e: &Expr) -> Option<(&[Sym], &Expr)> {
    match &e.kind {
        ExprKind::Quant {
            kind: QuantKind::Forall,
            ids,
            pred,
            ..
        } => match &pred.kind {
            ExprKind::Bin(BinOp::Implies, d, _) => Some((ids, d)),
            _ => None,
        },
        ExprKind::Quant {
            kind: QuantKind::Exists,
            ids,
            pred,
            ..
        } => Some((ids, pred)),
        _ => None,
    }
}

/// Adds the typings to the quantifiers of `e` (numbered in pre-order by
/// `next`, as `Infer` met them) that need them; whether any changed.
fn retype(e: &mut Expr, types: &[Vec<Ty>], next: &mut usize, syms: &Syms) -> bool {
    use ExprKind::*;
    match &mut e.kind {
        Quant {
            kind,
            ids,
            pred,
            body,
            plan,
        } => {
            let slot = *next;
            *next += 1;
            let mut changed = retype(pred, types, next, syms);
            if let Some(b) = body {
                changed |= retype(b, types, next, syms);
            }
            let tys = types.get(slot).map_or(&[][..], |v| &v[..]);
            if add_typings(*kind, ids, pred, tys, syms) {
                *plan = OnceLock::new();
                changed = true;
            }
            changed
        }
        Ident(_) | Int(_) | Str(_) | ExprKind::Bool(_) | Named(_) | EmptySet | EmptySeq => false,
        SetExt(v) | SeqExt(v) | Call(_, v) => {
            let mut changed = false;
            for x in v {
                changed |= retype(x, types, next, syms);
            }
            changed
        }
        Bin(_, a, b) | Apply(a, b) | Image(a, b) => {
            let l = retype(a, types, next, syms);
            retype(b, types, next, syms) | l
        }
        Neg(a) | Inverse(a) | Field(a, _) => retype(a, types, next, syms),
        Rec(f) | Struct(f) => {
            let mut changed = false;
            for (_, x) in f {
                changed |= retype(x, types, next, syms);
            }
            changed
        }
    }
}

/// Adds `x : T` to the predicate planned of the quantifier (`kind`,
/// `ids`, `pred`) for each identifier of a finite type `T` when its plan
/// fails as written (or is that of a `tautology`, then replaced by
/// `TRUE`) and succeeds so; whether it did.
fn add_typings(kind: QuantKind, ids: &[Sym], pred: &mut Expr, tys: &[Ty], syms: &Syms) -> bool {
    let dom: &mut Expr = match (kind, &mut pred.kind) {
        (QuantKind::Forall, ExprKind::Bin(BinOp::Implies, d, _)) => d,
        (QuantKind::Exists, _) => pred,
        _ => return false,
    };
    let tautology = tautology(dom);
    if tys.len() != ids.len() || (!tautology && super::plan(ids, dom, syms).is_ok()) {
        return false;
    }
    let mut ext = match tautology {
        true => Expr {
            kind: ExprKind::Bool(true),
            pos: dom.pos,
        },
        false => dom.clone(),
    };
    for (&x, t) in ids.iter().zip(tys).rev() {
        let Some(set) = type_expr(t, dom.pos) else {
            continue;
        };
        let typing = bin(BinOp::In, ident(x, dom.pos), set, dom.pos);
        ext = bin(BinOp::And, typing, ext, dom.pos);
    }
    if super::plan(ids, &ext, syms).is_err() {
        return false;
    }
    *dom = ext;
    true
}

/// The set of the values of `t`, when `t` is known and has a finite
/// carrier.
fn type_expr(t: &Ty, pos: Pos) -> Option<Expr> {
    let kind = match t {
        Ty::Bool => ExprKind::Named(NamedSet::Bool),
        Ty::Given(s) => ExprKind::Ident(*s),
        Ty::Pow(a) => ExprKind::Call(Builtin::Pow, vec![type_expr(a, pos)?]),
        Ty::Prod(a, b) => {
            return Some(bin(BinOp::Mul, type_expr(a, pos)?, type_expr(b, pos)?, pos));
        }
        Ty::Int | Ty::Str | Ty::Var(_) => return None,
    };
    Some(Expr { kind, pos })
}

fn ident(s: Sym, pos: Pos) -> Expr {
    Expr {
        kind: ExprKind::Ident(s),
        pos,
    }
}

fn bin(op: BinOp, a: Expr, b: Expr, pos: Pos) -> Expr {
    Expr {
        kind: ExprKind::Bin(op, Box::new(a), Box::new(b)),
        pos,
    }
}
