//! A pruning conjunct `!xs.(P => Q)` of a point-by-point search (see
//! `fspace`) rewritten into finer universal quantifiers over the same
//! instances, each of which `fast_forall` checks as soon as the points
//! it applies the function at are chosen:
//!
//! * `!xs.(P => A & B)` into `!xs.(P => A)` and `!xs.(P => B)`;
//! * `!xs.(P => (A => B))`, `A` free of the function, into
//!   `!xs.(P & A => B)`;
//! * `!xs.(P => !ys.(P2 => B))`, `P2` free of the function and `ys` new,
//!   into `!(xs, ys).(P & P2 => B)` (SudokuAsConstant's rows and columns:
//!   `!y.(y : DOM => !(x1, x2).(.. => Board(x1)(y) /= Board(x2)(y) & ..))`,
//!   whose instances per `y` need a whole column chosen).
//!
//! Each part holds wherever the conjunct holds, so a part found false
//! prunes only candidates the conjunct rejects; the candidates left are
//! checked against the conjunct itself as before.
//!
//! Owns that rewriting; must not evaluate anything.

use super::fast_forall::forall;
use super::plan::idents;
use crate::ast::*;

/// The parts of the pruning conjunct `e` of a search for `f`.
pub(super) fn split(e: &Expr, f: Sym, out: &mut Vec<Expr>) {
    let Some((ids, dom, body, _)) = forall(e) else {
        out.push(e.clone());
        return;
    };
    let free_of = |x: &Expr, extra: &[Sym]| {
        let mut seen = Vec::new();
        idents(x, &mut seen);
        !seen.contains(&f) && !seen.iter().any(|s| extra.contains(s))
    };
    if !free_of(dom, &[]) {
        out.push(e.clone());
        return;
    }
    match &body.kind {
        ExprKind::Bin(BinOp::And, a, b) => {
            split(&quantified(ids.to_vec(), dom.clone(), a, e.pos), f, out);
            split(&quantified(ids.to_vec(), dom.clone(), b, e.pos), f, out);
        }
        ExprKind::Bin(BinOp::Implies, a, b) if free_of(a, &[]) => {
            split(&quantified(ids.to_vec(), and(dom, a), b, e.pos), f, out);
        }
        ExprKind::Quant {
            kind: QuantKind::Forall,
            ids: inner,
            pred,
            ..
        } => match &pred.kind {
            ExprKind::Bin(BinOp::Implies, d2, b2)
                if free_of(d2, &[])
                    && !inner.contains(&f)
                    && inner.iter().all(|s| !ids.contains(s))
                    && free_of(dom, inner) =>
            {
                let all: Vec<Sym> = ids.iter().chain(inner).copied().collect();
                split(&quantified(all, and(dom, d2), b2, e.pos), f, out);
            }
            _ => out.push(e.clone()),
        },
        _ => out.push(e.clone()),
    }
}

/// `!ids.(dom => body)` at `pos`.
fn quantified(ids: Vec<Sym>, dom: Expr, body: &Expr, pos: Pos) -> Expr {
    let pred = Expr {
        kind: ExprKind::Bin(BinOp::Implies, Box::new(dom), Box::new(body.clone())),
        pos,
    };
    Expr {
        kind: ExprKind::Quant {
            kind: QuantKind::Forall,
            ids,
            pred: Box::new(pred),
            body: None,
            plan: std::sync::OnceLock::new(),
        },
        pos,
    }
}

/// `a & b`.
fn and(a: &Expr, b: &Expr) -> Expr {
    Expr {
        kind: ExprKind::Bin(BinOp::And, Box::new(a.clone()), Box::new(b.clone())),
        pos: a.pos,
    }
}
