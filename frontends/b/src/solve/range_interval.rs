//! Interval arithmetic over integers, to prove a universal's consequent
//! for every value of an infinite box (see `range_forall`): each
//! quantified identifier gets the interval its antecedent's typings and
//! bounds give (`x : NATURAL` is `0..`, `x : INTEGER` unbounded), other
//! identifiers their value, and an integer expression built of `+`, `-`,
//! `*`, `/` by a nonzero constant and unary minus the interval of its
//! values (sound: every value lies in it). The consequent is proved when
//! each of its conjuncts is `E : NATURAL` (`NATURAL1`, `INTEGER`) or a
//! comparison whose intervals decide it for every value.
//!
//! Owns the intervals; proves only, never refutes (an interval too wide
//! proves nothing).

use super::{conjuncts, idents};
use crate::ast::*;
use crate::eval::Env;
use crate::value::Value;

/// A closed interval of integers, `None` an infinite end.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Iv {
    lo: Option<i128>,
    hi: Option<i128>,
}

const ALL: Iv = Iv { lo: None, hi: None };

/// Whether `body` holds for every value of `ids` in the box `dom` gives
/// them.
pub fn proves(ids: &[Sym], dom: &Expr, body: &Expr, env: &mut Env) -> bool {
    let boxes: Vec<Iv> = ids.iter().map(|&x| box_of(x, ids, dom, env)).collect();
    let mut ctx = Ctx { ids, boxes, env };
    conjuncts(body).into_iter().all(|c| ctx.holds(c))
}

struct Ctx<'a, 'e, 'w> {
    ids: &'a [Sym],
    boxes: Vec<Iv>,
    env: &'e mut Env<'w>,
}

impl Ctx<'_, '_, '_> {
    fn holds(&mut self, c: &Expr) -> bool {
        use BinOp::*;
        let ExprKind::Bin(op, a, b) = &c.kind else {
            return false;
        };
        let Some(x) = self.iv(a) else { return false };
        let at_least = |n: i128| x.lo.is_some_and(|l| l >= n);
        match (op, &b.kind) {
            (In, ExprKind::Named(NamedSet::Natural)) => at_least(0),
            (In, ExprKind::Named(NamedSet::Natural1)) => at_least(1),
            (In, ExprKind::Named(NamedSet::Integer)) => true,
            (Lt | Le | Gt | Ge, _) => {
                let Some(y) = self.iv(b) else { return false };
                let le = |p: Iv, q: Iv, strict: i128| matches!((p.hi, q.lo), (Some(h), Some(l)) if h + strict <= l);
                match op {
                    Lt => le(x, y, 1),
                    Le => le(x, y, 0),
                    Gt => le(y, x, 1),
                    _ => le(y, x, 0),
                }
            }
            _ => false,
        }
    }

    /// The interval of the integer expression `e`, if known.
    fn iv(&mut self, e: &Expr) -> Option<Iv> {
        use BinOp::*;
        let point = |n: i128| Iv {
            lo: Some(n),
            hi: Some(n),
        };
        match &e.kind {
            ExprKind::Int(n) => Some(point(*n as i128)),
            ExprKind::Ident(s) => match self.ids.iter().position(|i| i == s) {
                Some(k) => Some(self.boxes[k]),
                None => match self.env.eval(e).ok()? {
                    Value::Int(n) => Some(point(n as i128)),
                    _ => None,
                },
            },
            ExprKind::Neg(a) => Some(negate(self.iv(a)?)),
            ExprKind::Bin(op @ (Plus | Minus | Mul | Div), a, b) => {
                let (a, b) = (self.iv(a)?, self.iv(b)?);
                match op {
                    Plus => Some(add(a, b)),
                    Minus => Some(add(a, negate(b))),
                    Mul => mul(a, b),
                    _ => div(a, b),
                }
            }
            _ => None,
        }
    }
}

fn negate(a: Iv) -> Iv {
    Iv {
        lo: a.hi.map(|h| -h),
        hi: a.lo.map(|l| -l),
    }
}

fn add(a: Iv, b: Iv) -> Iv {
    let sum = |x: Option<i128>, y: Option<i128>| x.zip(y).and_then(|(x, y)| x.checked_add(y));
    Iv {
        lo: sum(a.lo, b.lo),
        hi: sum(a.hi, b.hi),
    }
}

/// The product of two intervals with finite lower ends at least 0, or of
/// an interval and a constant; `None` otherwise.
fn mul(a: Iv, b: Iv) -> Option<Iv> {
    let prod = |x: Option<i128>, y: Option<i128>| x.zip(y).and_then(|(x, y)| x.checked_mul(y));
    let nonneg = |v: Iv| v.lo.is_some_and(|l| l >= 0);
    if nonneg(a) && nonneg(b) {
        return Some(Iv {
            lo: prod(a.lo, b.lo),
            hi: prod(a.hi, b.hi),
        });
    }
    let (v, k) = match (a.lo == a.hi, b.lo == b.hi) {
        (_, true) => (a, b.lo?),
        (true, false) => (b, a.lo?),
        _ => return None,
    };
    let scaled = Iv {
        lo: v.lo.and_then(|l| l.checked_mul(k)),
        hi: v.hi.and_then(|h| h.checked_mul(k)),
    };
    Some(match k {
        0 => Iv {
            lo: Some(0),
            hi: Some(0),
        },
        k if k > 0 => scaled,
        _ => Iv {
            lo: scaled.hi,
            hi: scaled.lo,
        },
    })
}

/// `a / k` for a nonzero constant `k` (B's division truncates towards
/// zero, monotone in the dividend); `None` otherwise.
fn div(a: Iv, b: Iv) -> Option<Iv> {
    let k = b.lo.filter(|&k| b.hi == Some(k) && k != 0)?;
    let q = |x: Option<i128>| x.map(|x| x / k);
    Some(match k > 0 {
        true => Iv {
            lo: q(a.lo),
            hi: q(a.hi),
        },
        false => Iv {
            lo: q(a.hi),
            hi: q(a.lo),
        },
    })
}

/// The box of `x` given by the conjuncts of `dom`: typings `x : NATURAL`
/// (`NATURAL1`, `lo..hi`) and comparisons with integer constants.
fn box_of(x: Sym, ids: &[Sym], dom: &Expr, env: &mut Env) -> Iv {
    let mut b = ALL;
    let is_x = |e: &Expr| matches!(e.kind, ExprKind::Ident(s) if s == x);
    let raise = |b: &mut Iv, lo: Option<i128>, hi: Option<i128>| {
        b.lo = match (b.lo, lo) {
            (Some(p), Some(q)) => Some(p.max(q)),
            (p, q) => p.or(q),
        };
        b.hi = match (b.hi, hi) {
            (Some(p), Some(q)) => Some(p.min(q)),
            (p, q) => p.or(q),
        };
    };
    for c in conjuncts(dom) {
        let ExprKind::Bin(op, a, s) = &c.kind else {
            continue;
        };
        if !is_x(a) {
            continue;
        }
        // a constant: no quantified identifier (which would read an outer
        // one of the same name)
        let int = |e: &Expr, env: &mut Env| {
            let mut m = Vec::new();
            idents(e, &mut m);
            match env.eval(e) {
                Ok(Value::Int(n)) if !m.iter().any(|s| ids.contains(s)) => Some(n as i128),
                _ => None,
            }
        };
        match (op, &s.kind) {
            (BinOp::In, ExprKind::Named(NamedSet::Natural)) => raise(&mut b, Some(0), None),
            (BinOp::In, ExprKind::Named(NamedSet::Natural1)) => raise(&mut b, Some(1), None),
            (BinOp::In, ExprKind::Bin(BinOp::Interval, lo, hi)) => {
                let (lo, hi) = (int(lo, env), int(hi, env));
                raise(&mut b, lo, hi)
            }
            (BinOp::Ge, _) => raise(&mut b, int(s, env), None),
            (BinOp::Gt, _) => raise(&mut b, int(s, env).map(|n| n + 1), None),
            (BinOp::Le, _) => raise(&mut b, None, int(s, env)),
            (BinOp::Lt, _) => raise(&mut b, None, int(s, env).map(|n| n - 1)),
            _ => {}
        }
    }
    b
}
