//! Integers labelled one after another by ProB when some are the end of
//! another's interval (`rth : 0..m`, `sze : myNAT` with `myNAT =
//! 0..mxint`): ProB's finite-domain solver propagates the bounds of the
//! whole group, then labels the interval's members before its end, the
//! others in the order they are declared, each within the domain it has
//! at that moment, an infinite side clipped as for a single integer
//! (`L..sup` enumerates `L..max(L, MAXINT)`, see `range_beyond`;
//! `inf..U` enumerates `MININT..U`).
//!
//! Established on the rows where the other orders give other counts:
//! Bosch_mini1_m_3 (`n > 0 & m > 0 & rth : 0..m & fth : 0..m & fth <
//! rth & m > 3`, constants `n, fth, m, rth`: `fth` in `0..3`, `rth` in
//! `fth+1..max(fth+1, 3)`, `m = 4`: 168 states and 468 transitions as
//! ProB's, where labelling `m` as declared gives other constants),
//! Bosch_mini1v2_m_3 (132 / 360), Bosch_mini2_m_3 (225 / 582) and the
//! Event-B binary_search (`sze` in `0..3`, then `mxint` in
//! `sze+1..max(sze+1, 3)`: 97,262 / 104,255). Without an interval end
//! the declaration order alone decides (`range_pushed`, CrsCtl): this
//! module plans nothing then.
//!
//! The group: identifiers not yet bound whose open conjuncts are only
//! integer typings, comparisons `A op B` and memberships `x : lo..hi`
//! (inline, or through a set `S = lo..hi` of the binder used only as a
//! membership's set or a function space's range) whose sides are
//! literals, ready expressions or `y + k`, `y - k` with `y` of the group;
//! besides these, a function space `f : lo..x --> R` with `f` not yet
//! bound (ProB enumerates `f` once `x` is known) and the definition of
//! such a set. A membership in a set with another shape (`goal : myINT`,
//! `myINT = -mxint..mxint`) keeps its member out of the group: ProB
//! enumerates it from the set once known.
//!
//! Owns the group (planning) and the labelling (enumeration); a last
//! resort of `plan`, after every other generator.

use super::plan::{is_int_typing, mentions};
use crate::ast::*;
use crate::eval::{Env, Fail, E};
use crate::value::Value;

/// One side of a difference constraint: `x + k` for the group's `j`-th
/// identifier in labelling order, or a value known before the group.
#[derive(Clone, Debug)]
pub enum Term {
    Var(usize, i64),
    Known(Expr, i64),
}

/// The group in labelling order (indices into the binder's identifiers)
/// and its constraints `a <= b`.
#[derive(Clone, Debug)]
pub struct Labelled {
    pub order: Vec<usize>,
    cons: Vec<(Term, Term)>,
}

/// The binder being planned (see `plan::Planner`).
pub(super) struct Binder<'a> {
    pub ids: &'a [Sym],
    pub cs: &'a [&'a Expr],
    pub checked: &'a [bool],
    pub ment: &'a [Vec<usize>],
    /// Identifiers bound to values known exactly (not clipped).
    pub ready: &'a [bool],
    pub bound: &'a [bool],
}

impl Binder<'_> {
    fn index(&self, s: Sym) -> Option<usize> {
        self.ids.iter().position(|&i| i == s)
    }

    fn known(&self, e: &Expr) -> bool {
        mentions(e, self.ids).iter().all(|&j| self.ready[j])
    }

    fn open(&self, k: usize) -> impl Iterator<Item = usize> + '_ {
        (0..self.cs.len()).filter(move |&c| !self.checked[c] && self.ment[c].contains(&k))
    }

    /// `e` as a term: `y`, `y + n`, `y - n`, `n + y` with `y` in `g`, or
    /// a known expression; the identifier's index and shift, or `None`
    /// for a known value (shift 0).
    fn term(&self, e: &Expr, g: &[bool]) -> Option<Option<(usize, i64)>> {
        let var = |e: &Expr| match e.kind {
            ExprKind::Ident(s) => self.index(s).filter(|&j| g[j]),
            _ => None,
        };
        if let Some(j) = var(e) {
            return Some(Some((j, 0)));
        }
        if let ExprKind::Bin(op @ (BinOp::Plus | BinOp::Minus), a, b) = &e.kind {
            match (var(a), &b.kind, var(b), &a.kind) {
                (Some(j), ExprKind::Int(n), _, _) => {
                    return Some(Some((j, if *op == BinOp::Plus { *n } else { -*n })))
                }
                (_, _, Some(j), ExprKind::Int(n)) if *op == BinOp::Plus => {
                    return Some(Some((j, *n)))
                }
                _ => {}
            }
        }
        self.known(e).then_some(None)
    }

    /// The set `S = lo..hi` conjunct `s` names, when `S` is an unbound
    /// identifier of the binder defined so by an open conjunct: (`lo`,
    /// `hi`, the defining conjunct).
    fn alias(&self, s: &Expr) -> Option<(&Expr, &Expr, usize)> {
        let ExprKind::Ident(name) = s.kind else {
            return None;
        };
        let k = self.index(name).filter(|&k| !self.bound[k])?;
        self.open(k).find_map(|c| match &self.cs[c].kind {
            ExprKind::Bin(BinOp::Eq, a, b) if matches!(a.kind, ExprKind::Ident(n) if n == name) => {
                match &b.kind {
                    ExprKind::Bin(BinOp::Interval, lo, hi) => Some((&**lo, &**hi, c)),
                    _ => None,
                }
            }
            _ => None,
        })
    }

    /// Conjunct `c` as a membership `y : lo..hi` (inline or through an
    /// alias): (`y`, `lo`, `hi`).
    fn membership(&self, c: usize) -> Option<(usize, &Expr, &Expr)> {
        let ExprKind::Bin(BinOp::In, a, s) = &self.cs[c].kind else {
            return None;
        };
        let y = match a.kind {
            ExprKind::Ident(y) => self.index(y)?,
            _ => return None,
        };
        match &s.kind {
            ExprKind::Bin(BinOp::Interval, lo, hi) => Some((y, lo, hi)),
            _ => self.alias(s).map(|(lo, hi, _)| (y, lo, hi)),
        }
    }

    /// The constraints `a <= b` conjunct `c` gives the group `g`, or
    /// `None` when it is not one of the group's shapes.
    fn constraints(&self, c: usize, g: &[bool]) -> Option<Vec<(Term, Term)>> {
        let e = self.cs[c];
        let t = |e: &Expr| {
            self.term(e, g).map(|t| match t {
                Some((j, k)) => Term::Var(j, k),
                None => Term::Known(e.clone(), 0),
            })
        };
        let lit = |n: i64| {
            Term::Known(
                Expr {
                    kind: ExprKind::Int(n),
                    pos: e.pos,
                },
                0,
            )
        };
        if let Some((y, lo, hi)) = self.membership(c) {
            if !g[y] {
                return None;
            }
            return Some(vec![(t(lo)?, Term::Var(y, 0)), (Term::Var(y, 0), t(hi)?)]);
        }
        match &e.kind {
            ExprKind::Bin(BinOp::In, a, s) if is_int_typing(e, self.ids) => {
                let y = ident_index(self, a).filter(|&y| g[y])?;
                Some(match s.kind {
                    ExprKind::Named(NamedSet::Natural) => vec![(lit(0), Term::Var(y, 0))],
                    ExprKind::Named(NamedSet::Natural1) => vec![(lit(1), Term::Var(y, 0))],
                    _ => vec![],
                })
            }
            ExprKind::Bin(op @ (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge), a, b) => {
                let (a, b) = (t(a)?, t(b)?);
                Some(vec![match op {
                    BinOp::Lt => (shift(a, 1), b),
                    BinOp::Le => (a, b),
                    BinOp::Gt => (shift(b, 1), a),
                    _ => (b, a),
                }])
            }
            _ => None,
        }
    }

    /// Whether conjunct `c` mentioning `k` (of `g`) gives no bound but
    /// stops nothing: `f : lo..k --> R` with `f` unbound, or the
    /// definition of an alias (see `alias`) whose uses are memberships
    /// and function spaces' ranges.
    fn harmless(&self, c: usize, k: usize) -> bool {
        let e = self.cs[c];
        if self.domain_end(e, k) {
            return true;
        }
        let ExprKind::Bin(BinOp::Eq, a, _) = &e.kind else {
            return false;
        };
        let Some(s) = ident_index(self, a).filter(|&s| !self.bound[s]) else {
            return false;
        };
        s != k
            && self.alias(a).is_some_and(|(_, _, d)| d == c)
            && self.open(s).all(|u| u == c || self.uses(u, s))
    }

    /// Whether `e` is `f : lo..x --> R` (any space) with `x` the `k`-th
    /// identifier, `f` an identifier not yet bound, `lo` known and `R`
    /// not mentioning `x`.
    fn domain_end(&self, e: &Expr, k: usize) -> bool {
        let ExprKind::Bin(BinOp::In, f, space) = &e.kind else {
            return false;
        };
        let ExprKind::Bin(BinOp::Space(_), d, r) = &space.kind else {
            return false;
        };
        let ExprKind::Bin(BinOp::Interval, lo, hi) = &d.kind else {
            return false;
        };
        let unbound_f = ident_index(self, f).is_some_and(|j| !self.bound[j]);
        let is_x = matches!(hi.kind, ExprKind::Ident(s) if s == self.ids[k]);
        unbound_f && is_x && self.known(lo) && mentions(r, &self.ids[k..=k]).is_empty()
    }

    /// Whether conjunct `u` uses the alias `s` only as `y : s` or as the
    /// range of a function space `f : D --> s`.
    fn uses(&self, u: usize, s: usize) -> bool {
        let is_s = |e: &Expr| matches!(e.kind, ExprKind::Ident(n) if n == self.ids[s]);
        let ExprKind::Bin(BinOp::In, a, set) = &self.cs[u].kind else {
            return false;
        };
        if !matches!(a.kind, ExprKind::Ident(_)) || is_s(a) {
            return false;
        }
        match &set.kind {
            ExprKind::Bin(BinOp::Space(_), d, r) => {
                is_s(r) && mentions(d, &self.ids[s..=s]).is_empty()
            }
            _ => is_s(set),
        }
    }

    /// Whether every open conjunct mentioning `k` is one of the group's
    /// shapes (for `g`).
    fn fits(&self, k: usize, g: &[bool]) -> bool {
        let bounded = |c: usize| self.constraints(c, g).is_some();
        self.open(k).any(bounded) && self.open(k).all(|c| bounded(c) || self.harmless(c, k))
    }
}

fn ident_index(b: &Binder, e: &Expr) -> Option<usize> {
    match e.kind {
        ExprKind::Ident(s) => b.index(s),
        _ => None,
    }
}

fn shift(t: Term, n: i64) -> Term {
    match t {
        Term::Var(j, k) => Term::Var(j, k + n),
        Term::Known(e, k) => Term::Known(e, k + n),
    }
}

/// The group of the binder, if some member is the end of another's
/// interval (see the module's doc).
pub(super) fn plan(b: &Binder) -> Option<Labelled> {
    let n = b.ids.len();
    let mut g: Vec<bool> = (0..n).map(|k| !b.bound[k]).collect();
    while let Some(k) = (0..n).find(|&k| g[k] && !b.fits(k, &g)) {
        g[k] = false;
    }
    // members before the ends of their intervals
    let mut after: Vec<(usize, usize)> = Vec::new();
    for c in (0..b.cs.len()).filter(|&c| !b.checked[c]) {
        if let Some((y, lo, hi)) = b.membership(c) {
            for x in mentions(lo, b.ids).into_iter().chain(mentions(hi, b.ids)) {
                if g[y] && g[x] && x != y {
                    after.push((y, x));
                }
            }
        }
    }
    if after.is_empty() {
        return None;
    }
    let mut order: Vec<usize> = Vec::new();
    while let Some(k) = (0..n).find(|&k| {
        g[k] && !order.contains(&k) && after.iter().all(|&(y, x)| x != k || order.contains(&y))
    }) {
        order.push(k);
    }
    if order.len() != g.iter().filter(|&&m| m).count() {
        return None;
    }
    let pos = |j: usize| order.iter().position(|&k| k == j).expect("in the group");
    let renumber = |t: Term| match t {
        Term::Var(j, k) => Term::Var(pos(j), k),
        t => t,
    };
    let mut cons = Vec::new();
    for c in (0..b.cs.len()).filter(|&c| !b.checked[c] && b.ment[c].iter().any(|&k| g[k])) {
        for (l, r) in b.constraints(c, &g).unwrap_or_default() {
            cons.push((renumber(l), renumber(r)));
        }
    }
    Some(Labelled { order, cons })
}

/// A domain side: `None` is infinite.
type Dom = (Option<i64>, Option<i64>);

/// The group's solutions in labelling order (see the module's doc);
/// unsupported outside a `guard`'s binder.
pub fn candidates(l: &Labelled, env: &mut Env, guard: bool, pos: Pos) -> E<Vec<Vec<Value>>> {
    if !guard {
        return Err(Fail::Unsupported(
            "labelling integers with infinite domains outside a guard (ProB may keep them symbolic)".into(),
            pos,
        ));
    }
    let mut cons = Vec::new();
    for (a, b) in &l.cons {
        cons.push((side(a, env)?, side(b, env)?));
    }
    let doms: Vec<Dom> = vec![(None, None); l.order.len()];
    let mut out = Vec::new();
    label(&cons, &doms, 0, (env.w.minint, env.w.maxint), &mut out, pos)?;
    Ok(out)
}

/// A side evaluated: a group member plus a shift, or a value.
#[derive(Clone, Copy)]
enum Side {
    Var(usize, i64),
    Val(i64),
}

fn side(t: &Term, env: &mut Env) -> E<Side> {
    Ok(match t {
        Term::Var(j, k) => Side::Var(*j, *k),
        Term::Known(e, k) => {
            let v = env.eval(e)?.as_int().map_err(|m| Fail::Wd(m, e.pos))?;
            Side::Val(
                v.checked_add(*k)
                    .ok_or_else(|| crate::eval::overflow(e.pos))?,
            )
        }
    })
}

/// The most values one member is labelled with.
const LABELS: i64 = 1 << 20;

/// Too many rounds of propagation: a cycle pushing bounds without end.
const ROUNDS: usize = 10_000;

/// Bounds propagation of `a <= b` over `doms` to a fixpoint; `false`
/// when a domain is empty or a constraint between values fails.
fn propagate(cons: &[(Side, Side)], doms: &mut [Dom], pos: Pos) -> E<bool> {
    let upper = |s: Side, d: &[Dom]| match s {
        Side::Var(j, k) => d[j].1.map(|u| u.saturating_add(k)),
        Side::Val(v) => Some(v),
    };
    let lower = |s: Side, d: &[Dom]| match s {
        Side::Var(j, k) => d[j].0.map(|l| l.saturating_add(k)),
        Side::Val(v) => Some(v),
    };
    for _ in 0..ROUNDS {
        let mut changed = false;
        for &(a, b) in cons {
            if let (Side::Var(i, p), Some(u)) = (a, upper(b, doms)) {
                let u = u.saturating_sub(p);
                if doms[i].1.is_none_or(|old| u < old) {
                    doms[i].1 = Some(u);
                    changed = true;
                }
            }
            if let (Side::Var(j, q), Some(l)) = (b, lower(a, doms)) {
                let l = l.saturating_sub(q);
                if doms[j].0.is_none_or(|old| l > old) {
                    doms[j].0 = Some(l);
                    changed = true;
                }
            }
            if let (Side::Val(x), Side::Val(y)) = (a, b) {
                if x > y {
                    return Ok(false);
                }
            }
        }
        if doms
            .iter()
            .any(|&(l, u)| matches!((l, u), (Some(l), Some(u)) if l > u))
        {
            return Ok(false);
        }
        if !changed {
            return Ok(true);
        }
    }
    Err(Fail::Unsupported(
        "bounds propagation between integers with infinite domains does not settle".into(),
        pos,
    ))
}

/// Labels member `t` and those after it within their propagated
/// domains, clipped as ProB clips an infinite side.
fn label(
    cons: &[(Side, Side)],
    doms: &[Dom],
    t: usize,
    (minint, maxint): (i64, i64),
    out: &mut Vec<Vec<Value>>,
    pos: Pos,
) -> E<()> {
    let mut d = doms.to_vec();
    if !propagate(cons, &mut d, pos)? {
        return Ok(());
    }
    if t == d.len() {
        let vals = d.iter().map(|&(l, _)| Value::Int(l.expect("labelled")));
        out.push(vals.collect());
        return Ok(());
    }
    let (lo, hi) = match d[t] {
        (Some(l), Some(u)) => (l, u),
        (Some(l), None) => (l, l.max(maxint)),
        (None, Some(u)) if u >= minint => (minint, u),
        (None, None) => (minint, maxint),
        (None, Some(_)) => return Err(Fail::Unsupported(
            "an integer bounded above below MININT and not below (how ProB clips it is not known)"
                .into(),
            pos,
        )),
    };
    if hi.saturating_sub(lo) > LABELS {
        return Err(Fail::Unsupported(
            format!("labelling an integer over more than {LABELS} values"),
            pos,
        ));
    }
    for v in lo..=hi {
        let mut next = d.clone();
        next[t] = (Some(v), Some(v));
        label(cons, &next, t + 1, (minint, maxint), out, pos)?;
    }
    Ok(())
}
