//! The element type of a constant set that no conjunct types directly,
//! read from a homogeneous relation: `r : A <-> B` (any relation or
//! function space) with `r` closed somewhere in the PROPERTIES
//! (`closure(r)`, `closure1(r)`, `iterate(r, n)`) relates elements of one
//! type, so `A`'s elements have `B`'s type (B's typing of the closures).
//! ToyFileSystem: `contents : Dir <-> OBJ` beside
//! `closure(contents)[{root}]` makes `Dir` a set of `OBJ`'s elements.
//!
//! Two readers: the planner enumerates such a set over its type when no
//! conjunct generates it (`witnesses`, as `typing`'s witnesses do), and
//! the deferred-set symmetry (`element_type`) takes a constant said an
//! element of such a set, or of a set `s <: S`, for one of `S`'s elements
//! (ProB's MACE-style enumeration goes by the constants' types: see
//! `deferred_part_members`).
//!
//! Owns those readings of the PROPERTIES; the witnesses' evaluation is
//! `typing`'s, the symmetry `symmetry`'s.

use crate::ast::*;

use super::typing::Witness;

/// Whether `r` is closed (`closure(r)`, `closure1(r)`, `iterate(r, n)`)
/// in one of `conjuncts`.
fn closed(conjuncts: &[&Expr], r: Sym) -> bool {
    let mut found = false;
    for c in conjuncts {
        crate::compile::visit(c, &mut |e| {
            if let ExprKind::Call(Builtin::Closure | Builtin::Closure1 | Builtin::Iterate, a) =
                &e.kind
            {
                found |= matches!(a.first().map(|x| &x.kind), Some(ExprKind::Ident(s)) if *s == r);
            }
        });
    }
    found
}

/// The sides of `c` when it is `r : A <-> B` (any space) with `r` an
/// identifier closed in `conjuncts`.
fn homogeneous<'e>(c: &'e Expr, conjuncts: &[&Expr]) -> Option<(&'e Expr, &'e Expr)> {
    let ExprKind::Bin(BinOp::In, r, space) = &c.kind else {
        return None;
    };
    let (ExprKind::Ident(r), ExprKind::Bin(BinOp::Space(_), a, b)) = (&r.kind, &space.kind) else {
        return None;
    };
    closed(conjuncts, *r).then_some((&**a, &**b))
}

/// The witnesses of the type of `x`, a set: the other side `E` (`ready`)
/// of a homogeneous `r : x <-> E` or `r : E <-> x` among `conjuncts`
/// (number `c` each), a value of `x`'s type as it is.
pub fn witnesses(conjuncts: &[&Expr], x: Sym, ready: &dyn Fn(&Expr) -> bool) -> Vec<Witness> {
    let is_x = |e: &Expr| matches!(e.kind, ExprKind::Ident(s) if s == x);
    let mut out = Vec::new();
    for (c, e) in conjuncts.iter().enumerate() {
        let Some((a, b)) = homogeneous(e, conjuncts) else {
            continue;
        };
        let side = match (is_x(a), is_x(b)) {
            (true, false) if ready(b) => 1,
            (false, true) if ready(a) => 0,
            _ => continue,
        };
        out.push(Witness {
            c,
            path: vec![1, side],
            projs: Vec::new(),
        });
    }
    out
}

/// The deferred set (among `deferred`) whose elements the elements of the
/// constant set `s` are: `s <: S`, `s <<: S` or `s : POW(S)` with `S`
/// deferred, or the other side `S` of a homogeneous `r : s <-> S`.
pub fn element_type(conjuncts: &[&Expr], s: Sym, deferred: &[Sym]) -> Option<Sym> {
    let is_s = |e: &Expr| matches!(e.kind, ExprKind::Ident(x) if x == s);
    let deferred_ident = |e: &Expr| match e.kind {
        ExprKind::Ident(d) if deferred.contains(&d) => Some(d),
        _ => None,
    };
    conjuncts.iter().find_map(|c| match &c.kind {
        ExprKind::Bin(BinOp::Subset | BinOp::StrictSubset, a, b) if is_s(a) => deferred_ident(b),
        ExprKind::Bin(BinOp::In, a, b) if is_s(a) => match &b.kind {
            ExprKind::Call(Builtin::Pow | Builtin::Pow1 | Builtin::Fin | Builtin::Fin1, v)
                if v.len() == 1 =>
            {
                deferred_ident(&v[0])
            }
            _ => None,
        },
        _ => {
            let (a, b) = homogeneous(c, conjuncts)?;
            match (is_s(a), is_s(b)) {
                (true, false) => deferred_ident(b),
                (false, true) => deferred_ident(a),
                _ => None,
            }
        }
    })
}
