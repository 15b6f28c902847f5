//! A bijection between a deferred set and `INTEGER` (`f : S >->> INTEGER`,
//! a top-level PROPERTIES conjunct, `f` a constant): ProB gives `S` as
//! many elements as `MININT..MAXINT` holds and solves `f` as a bijection
//! onto that interval, fixed up to `S`'s symmetry (`bijection`).
//!
//! ProB's counts: KuratowskiPairDefinition_INT_ctx (`bij : S1 >->>
//! INTEGER` beside four constants `x, y, u, v : S1`: 1,250 states, 625
//! constant solutions, `5 ^ 4` for `S1` of 5 elements, `MININT..MAXINT` =
//! `-1..3`, one `bij`), C_bijNAT_ctx (`num : S >->> INTEGER`: one
//! solution). With the default size (2) there would be 16 solutions (or
//! none, `INTEGER` being infinite).
//!
//! Read only where nothing else sizes `S` (no `card(S)`, no `scope_S`):
//! the conjunct is rewritten `f : S >->> MININT..MAXINT` (literal bounds)
//! before the sizes are inferred, so that `deferred_mincard` sizes `S`
//! and `bijection` fixes `f`. Owns that reading; the sizes are
//! `setsize`'s.

use crate::ast::*;

/// Rewrites each such conjunct of the machines' PROPERTIES (see the
/// module comment); `scoped(S)`: `scope_S` sizes `S`.
pub fn read_integer_bijections(
    machines: &mut [Machine],
    (minint, maxint): (i64, i64),
    scoped: &dyn Fn(Sym) -> bool,
) {
    crate::deferred_rest::rewrite_properties(machines, &|c, deferred, consts, all| {
        let (f, s, pos) = integer_bijection(c, deferred, consts)?;
        if scoped(s) || all.iter().any(|c| names_card_of(c, s)) {
            return None;
        }
        let int = |n| {
            Box::new(Expr {
                kind: ExprKind::Int(n),
                pos,
            })
        };
        let interval = Expr {
            kind: ExprKind::Bin(BinOp::Interval, int(minint), int(maxint)),
            pos,
        };
        let space = Expr {
            kind: ExprKind::Bin(
                BinOp::Space(SpaceKind::TotalBij),
                Box::new(s_ident(s, pos)),
                Box::new(interval),
            ),
            pos,
        };
        Some(Expr {
            kind: ExprKind::Bin(BinOp::In, Box::new(f), Box::new(space)),
            pos: c.pos,
        })
    });
}

fn s_ident(s: Sym, pos: Pos) -> Expr {
    Expr {
        kind: ExprKind::Ident(s),
        pos,
    }
}

/// `(f, S, position of INTEGER)` when `c` is `f : S >->> INTEGER`, `f` a
/// constant and `S` a deferred set.
fn integer_bijection(c: &Expr, deferred: &[Sym], consts: &[Sym]) -> Option<(Expr, Sym, Pos)> {
    let ExprKind::Bin(BinOp::In, f, space) = &c.kind else {
        return None;
    };
    let ExprKind::Bin(BinOp::Space(SpaceKind::TotalBij), a, b) = &space.kind else {
        return None;
    };
    match (&f.kind, &a.kind, &b.kind) {
        (ExprKind::Ident(x), ExprKind::Ident(s), ExprKind::Named(NamedSet::Integer))
            if consts.contains(x) && deferred.contains(s) =>
        {
            Some(((**f).clone(), *s, b.pos))
        }
        _ => None,
    }
}

/// Whether `c` names `card(S)`.
fn names_card_of(c: &Expr, s: Sym) -> bool {
    let mut found = false;
    crate::compile::visit(c, &mut |e| {
        if let ExprKind::Call(Builtin::Card, a) = &e.kind {
            found |= matches!(a.first().map(|x| &x.kind), Some(ExprKind::Ident(x)) if *x == s);
        }
    });
    found
}
