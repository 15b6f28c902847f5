//! Integer identifiers clipped together to `MININT..MAXINT` (see
//! `bounds`): a group of identifiers of one binder, not yet bound (or
//! bound by a clipped range), whose conjuncts only type them as integers,
//! bound them by expressions already known, compare them with each other
//! (`yellowTimeMS <= maxElapsedTimeMS`, `Tmin < Tmax`), state that one
//! divides another (`maxElapsedTimeMS mod baseTimeMS = 0`, CarController)
//! or define an identifier nothing else constrains (`Ttds =
//! minTTD..maxTTD`, Frappier's M0: see `range_alias`).
//!
//! None of these conjuncts gives ProB's solver a finite domain for an
//! identifier of the group that is not one of the values already labelled
//! (all inside `MININT..MAXINT`) or a bound already known: ProB clips each
//! identifier it labels, whatever the order, and its solutions are those
//! of the predicate inside the box. A divisibility `a mod b = 0` keeps
//! this only when its dividend is typed `NATURAL` or `NATURAL1` and its
//! divisor `NATURAL1` (or is a positive literal): a labelled dividend `a`
//! then has its divisors in `1..a`, inside the box; with a negative
//! divisor allowed, `-a` would be a solution ProB finds by propagation
//! when it labels `a` first, and not when it labels `b` first.
//!
//! Owns the group's membership and the divisibility shape; the bounds and
//! the clipping itself stay in `bounds`.

use super::plan::{is_int_typing, mentions};
use crate::ast::*;

/// One binder while planning it: its identifiers, conjuncts, which
/// conjuncts are checked and what each mentions, which identifiers are
/// bound and which of those by a clipped range.
pub(super) struct Binder<'a> {
    pub ids: &'a [Sym],
    pub cs: &'a [&'a Expr],
    pub checked: &'a [bool],
    pub ment: &'a [Vec<usize>],
    pub bound: &'a [bool],
    pub clipped: &'a [bool],
}

impl Binder<'_> {
    /// Whether identifier `j` is bound to a value known exactly (not by a
    /// clipped range).
    fn ready_id(&self, j: usize) -> bool {
        self.bound[j] && !self.clipped[j]
    }

    fn ready(&self, e: &Expr) -> bool {
        mentions(e, self.ids).iter().all(|&j| self.ready_id(j))
    }

    /// The identifiers that may be clipped with identifier `k` (itself
    /// one, whatever its own conjuncts: `bounds::range_of` checks them).
    pub fn group(&self, k: usize) -> Vec<bool> {
        let mut g: Vec<bool> = (0..self.ids.len()).map(|j| !self.ready_id(j)).collect();
        loop {
            let out = (0..self.ids.len()).find(|&j| j != k && g[j] && !self.member(j, &g));
            match out {
                Some(j) => g[j] = false,
                None => return g,
            }
        }
    }

    /// Whether every open conjunct mentioning `j` allows clipping it with
    /// the group `g`.
    fn member(&self, j: usize, g: &[bool]) -> bool {
        let y = self.ids[j];
        let in_g = |s: Sym| self.ids.iter().position(|&i| i == s).is_some_and(|i| g[i]);
        (0..self.cs.len())
            .filter(|&c| !self.checked[c] && self.ment[c].contains(&j))
            .all(|c| {
                let e = self.cs[c];
                is_int_typing(e, &[y])
                    || self.compared(e, y, &in_g)
                    || divides(e, y, &in_g, self.cs)
                    || self.defines_unused(e, y)
            })
    }

    /// `z = E` with `E` mentioning `y` and `z` mentioned by no other open
    /// conjunct (see `range_alias`): no bound on `y`.
    fn defines_unused(&self, e: &Expr, y: Sym) -> bool {
        let open = super::range_alias::Open {
            ids: self.ids,
            bound: self.bound,
            cs: self.cs,
            checked: self.checked,
        };
        super::range_alias::defines_unused(e, y, &open)
    }

    /// `y op E` (either way round, `op` a comparison or `/=`) with `E`
    /// ready or an identifier of the group.
    fn compared(&self, e: &Expr, y: Sym, in_g: &dyn Fn(Sym) -> bool) -> bool {
        use BinOp::*;
        let ExprKind::Bin(Lt | Le | Gt | Ge | Neq, a, b) = &e.kind else {
            return false;
        };
        let is_y = |e: &Expr| matches!(e.kind, ExprKind::Ident(s) if s == y);
        let other = |e: &Expr| match e.kind {
            ExprKind::Ident(s) if s != y && in_g(s) => true,
            _ => mentions(e, &[y]).is_empty() && self.ready(e),
        };
        (is_y(a) && other(b)) || (is_y(b) && other(a))
    }
}

/// Whether `c` is `a mod b = 0` (or `0 = a mod b`) with `x` one of `a`,
/// `b` and the other an identifier `partner` accepts (or, as the divisor,
/// a positive literal), the dividend typed `NATURAL` or `NATURAL1` and the
/// divisor `NATURAL1` by conjuncts of `cs` (see the module's doc).
pub(super) fn divides(c: &Expr, x: Sym, partner: &dyn Fn(Sym) -> bool, cs: &[&Expr]) -> bool {
    let ExprKind::Bin(BinOp::Eq, l, r) = &c.kind else {
        return false;
    };
    let m = match (&l.kind, &r.kind) {
        (_, ExprKind::Int(0)) => l,
        (ExprKind::Int(0), _) => r,
        _ => return false,
    };
    let ExprKind::Bin(BinOp::Mod, a, b) = &m.kind else {
        return false;
    };
    let typed = |s: Sym, min: i64| {
        cs.iter()
            .any(|e| typed_from(e, s).is_some_and(|v| v >= min))
    };
    let side = |e: &Expr, min: i64| match e.kind {
        ExprKind::Ident(s) => (s == x || partner(s)) && typed(s, min),
        ExprKind::Int(v) => min == 1 && v >= 1,
        _ => false,
    };
    let is_x = |e: &Expr| matches!(e.kind, ExprKind::Ident(s) if s == x);
    (is_x(a) || is_x(b)) && side(a, 0) && side(b, 1)
}

/// The lower bound `c` gives `s` by typing it: 0 for `s : NATURAL`, 1
/// for `s : NATURAL1`.
fn typed_from(c: &Expr, s: Sym) -> Option<i64> {
    let ExprKind::Bin(BinOp::In, a, b) = &c.kind else {
        return None;
    };
    match (&a.kind, &b.kind) {
        (ExprKind::Ident(i), ExprKind::Named(NamedSet::Natural)) if *i == s => Some(0),
        (ExprKind::Ident(i), ExprKind::Named(NamedSet::Natural1)) if *i == s => Some(1),
        _ => None,
    }
}
