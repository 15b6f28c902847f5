//! Operation parameters that the guard does not mention, typed by the body
//! instead (`T1Calculate(p) = PRE T1_state = T1_CALC THEN T1_writevalue :=
//! p || ..` with `T1_writevalue : INTEGER`, ProB's CAN_BUS; `Send(mm) =
//! SELECT chan = <> THEN chan := [mm] END` with `chan : seq(MSG)`): ProB
//! infers the parameter's type from the assignment and enumerates it over
//! that type, an integer over `MININT..MAXINT`. The guard gets the typing
//! conjunct `p : INTEGER` (or `p : S`, `S` a set of SETS, or `p : BOOL`),
//! which the solver then enumerates as it does a written one.
//!
//! Only an assignment `v := p` (or `v := [p]`) at the top of the body (in
//! its `||`) types `p`, and only by a declaration `v : T` (a conjunct of an
//! INVARIANT) whose `T` names the whole type: an integer set (`NAT`,
//! `0..9`, `INTEGER`: the type is `INTEGER`), `BOOL`, a set of SETS, or
//! `seq(..)`, `seq1(..)`, `iseq(..)` of one for `v := [p]`. An operation
//! without a guard gets the typing conjuncts as a top-level PRE; there,
//! `p` an operand of `+` in an assignment's value at the top types it
//! too (COUNTER's `up(m) = c := c + m`, where ProB reports `c mod 2` of
//! a negative `c`: it enumerates `m` from MININT).
//!
//! Owns only this rewriting of the machines, before `compile` plans them.

use crate::ast::*;

/// Adds the typing conjuncts of the parameters of `machines`' operations
/// that their guard (a top-level PRE or SELECT) does not mention.
pub fn type_params_by_body(machines: &mut [Machine]) {
    let sets: Vec<Sym> = machines
        .iter()
        .flat_map(|m| m.sets.iter().map(|s| s.name))
        .collect();
    let decls: Vec<(Sym, Expr)> = machines
        .iter()
        .flat_map(|m| &m.invariant)
        .flat_map(crate::solve::conjuncts)
        .filter_map(|c| match &c.kind {
            ExprKind::Bin(BinOp::In, v, t) => match v.kind {
                ExprKind::Ident(v) => Some((v, (**t).clone())),
                _ => None,
            },
            _ => None,
        })
        .collect();
    for op in machines.iter_mut().flat_map(|m| m.operations.iter_mut()) {
        guard_unguarded(op, &decls, &sets);
        let params = op.params.clone();
        let (guard, body) = match &mut op.body.kind {
            SubstKind::Pre(g, b) => (g, &**b),
            SubstKind::Select(br, None) if br.len() == 1 => {
                let (g, b) = &mut br[0];
                (g, &*b)
            }
            _ => continue,
        };
        let mut typings = Vec::new();
        for p in params {
            let mut used = Vec::new();
            crate::solve::idents(guard, &mut used);
            if used.contains(&p) {
                continue;
            }
            if let Some(t) = assigned_type(body, p, &decls, &sets) {
                typings.push(t);
            }
        }
        for t in typings {
            let pos = guard.pos;
            let g = std::mem::replace(guard, t.clone());
            *guard = Expr {
                kind: ExprKind::Bin(BinOp::And, Box::new(g), Box::new(t)),
                pos,
            };
        }
    }
}

/// Gives an operation with parameters and no top-level PRE, SELECT or
/// ANY the PRE of its parameters' typings by the body, when every
/// parameter has one.
fn guard_unguarded(op: &mut Operation, decls: &[(Sym, Expr)], sets: &[Sym]) {
    let guarded = matches!(
        op.body.kind,
        SubstKind::Pre(..) | SubstKind::Select(..) | SubstKind::Any { .. }
    );
    if guarded || op.params.is_empty() {
        return;
    }
    let typings: Option<Vec<Expr>> = op
        .params
        .iter()
        .map(|&p| assigned_type(&op.body, p, decls, sets).or_else(|| summed_type(&op.body, p)))
        .collect();
    let Some(mut typings) = typings else {
        return;
    };
    let mut guard = typings.remove(0);
    for t in typings {
        let pos = guard.pos;
        guard = Expr {
            kind: ExprKind::Bin(BinOp::And, Box::new(guard), Box::new(t)),
            pos,
        };
    }
    let pos = op.body.pos;
    let body = std::mem::replace(
        &mut op.body,
        Subst {
            kind: SubstKind::Skip,
            pos,
        },
    );
    op.body = Subst {
        kind: SubstKind::Pre(guard, Box::new(body)),
        pos,
    };
}

/// The conjunct `p : T` given by an assignment `v := p` (`v := [p]`) at
/// the top of `body`, if any.
fn assigned_type(body: &Subst, p: Sym, decls: &[(Sym, Expr)], sets: &[Sym]) -> Option<Expr> {
    let is_p = |e: &Expr| matches!(e.kind, ExprKind::Ident(s) if s == p);
    match &body.kind {
        SubstKind::Par(v) => v.iter().find_map(|s| assigned_type(s, p, decls, sets)),
        SubstKind::Assign(lhs, rhs) => lhs.iter().zip(rhs).find_map(|(l, r)| {
            let ExprKind::Ident(v) = l.kind else {
                return None;
            };
            let decl = decls.iter().find(|(d, _)| *d == v).map(|(_, t)| t)?;
            let ty = match &r.kind {
                _ if is_p(r) => whole_type(decl, sets)?,
                ExprKind::SeqExt(es) if es.len() == 1 && is_p(&es[0]) => match &decl.kind {
                    ExprKind::Call(Builtin::Seq | Builtin::Seq1 | Builtin::Iseq, a) => {
                        whole_type(a.first()?, sets)?
                    }
                    _ => return None,
                },
                _ => return None,
            };
            Some(member(p, ty, r.pos))
        }),
        _ => None,
    }
}

/// `p : INTEGER` when `p` is an operand of a `+` in the value of an
/// assignment at the top of `body` (`c := c + m`).
fn summed_type(body: &Subst, p: Sym) -> Option<Expr> {
    match &body.kind {
        SubstKind::Par(v) => v.iter().find_map(|s| summed_type(s, p)),
        SubstKind::Assign(_, rhs) => rhs.iter().find(|r| added(r, p)).map(|r| {
            let int = Expr {
                kind: ExprKind::Named(NamedSet::Integer),
                pos: r.pos,
            };
            member(p, int, r.pos)
        }),
        _ => None,
    }
}

/// `p : ty`.
fn member(p: Sym, ty: Expr, pos: Pos) -> Expr {
    let x = Expr {
        kind: ExprKind::Ident(p),
        pos,
    };
    Expr {
        kind: ExprKind::Bin(BinOp::In, Box::new(x), Box::new(ty)),
        pos,
    }
}

/// Whether `p` is an operand of a `+` in `e` (an integer in B).
fn added(e: &Expr, p: Sym) -> bool {
    let is_p = |e: &Expr| matches!(e.kind, ExprKind::Ident(s) if s == p);
    let mut found = false;
    crate::compile::visit(e, &mut |x| {
        if let ExprKind::Bin(BinOp::Plus, a, b) = &x.kind {
            found |= is_p(a) || is_p(b);
        }
    });
    found
}

/// The type whose values are the elements of `t` when `t` is a whole type
/// or a set of integers: `INTEGER` for a set of integers, `t` itself for
/// `BOOL` or a set of SETS.
fn whole_type(t: &Expr, sets: &[Sym]) -> Option<Expr> {
    use NamedSet::*;
    let kind = match &t.kind {
        ExprKind::Named(Nat | Nat1 | Int | Natural | Natural1 | Integer)
        | ExprKind::Bin(BinOp::Interval, ..) => ExprKind::Named(Integer),
        ExprKind::Named(Bool) => ExprKind::Named(Bool),
        ExprKind::Ident(s) if sets.contains(s) => ExprKind::Ident(*s),
        _ => return None,
    };
    Some(Expr { kind, pos: t.pos })
}
