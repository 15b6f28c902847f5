//! Operators with one operand infinite by its syntax (`INTEGER`,
//! `NATURAL1`, `id(INTEGER)`, `NATURAL - {0}`) and a finite result: ProB
//! keeps the infinite operand symbolic and only tests membership in it,
//! so `rel /\ id(INTEGER)`, `id(INTEGER)[2..22]`, `bag~[NATURAL1]` and
//! `x : NATURAL - vals` have values (TestLeftAsID, PROB-351's `setid22`).
//! So do we: the finite operand is filtered by membership in the other
//! (`Env::member`, decided from the syntax), which gives the same set as
//! computing the operator on the whole operand would.
//!
//! Owns the recognition of such operands and those filtered forms; `eval`
//! calls them where an operand would otherwise be evaluated whole.

use crate::ast::*;
use crate::eval::{Env, Fail, E};
use crate::value::{self as v, Value};

/// Whether `e` denotes an infinite set by its syntax alone.
pub(crate) fn infinite(e: &Expr) -> bool {
    use ExprKind::*;
    match &e.kind {
        Named(NamedSet::Natural | NamedSet::Natural1 | NamedSet::Integer | NamedSet::String) => {
            true
        }
        Call(Builtin::Id, a) => a.len() == 1 && infinite(&a[0]),
        Bin(BinOp::Mul, a, b) => infinite(a) || infinite(b),
        Bin(BinOp::Minus, a, _) => infinite(a),
        _ => false,
    }
}

impl Env<'_> {
    /// The value of `e`, an intersection, difference, image or
    /// restriction with one infinite operand and the other finite, from the
    /// finite one; `None` for any other `e`.
    pub(crate) fn filtered(&mut self, e: &Expr) -> Option<E<Value>> {
        use BinOp::*;
        let finite = |x: &Expr| !infinite(x);
        match &e.kind {
            ExprKind::Bin(Inter, a, b) if infinite(b) && finite(a) => {
                Some(self.keep(a, |env, x| env.member(x, b)))
            }
            ExprKind::Bin(Inter, a, b) if infinite(a) && finite(b) => {
                Some(self.keep(b, |env, x| env.member(x, a)))
            }
            ExprKind::Bin(Minus, a, b) if infinite(b) && finite(a) => {
                Some(self.keep(a, |env, x| Ok(!env.member(x, b)?)))
            }
            ExprKind::Bin(op @ (DomRes | DomSub), s, r) if infinite(s) && finite(r) => {
                let inside = *op == DomRes;
                Some(self.keep(r, |env, p| Ok(env.member(first(p, s)?, s)? == inside)))
            }
            ExprKind::Bin(op @ (RanRes | RanSub), r, s) if infinite(s) && finite(r) => {
                let inside = *op == RanRes;
                Some(self.keep(r, |env, p| Ok(env.member(second(p, s)?, s)? == inside)))
            }
            ExprKind::Image(r, s) => match &r.kind {
                ExprKind::Call(Builtin::Id, t) if infinite(r) && finite(s) => {
                    let t = &t[0];
                    Some(self.keep(s, |env, x| env.member(x, t)))
                }
                _ if infinite(s) && finite(r) => Some(self.image_of_infinite(r, s)),
                _ => None,
            },
            _ => None,
        }
    }

    /// Membership in `id(S)` and `A - B` with an infinite operand, if `s`
    /// is such a set.
    pub(crate) fn member_filtered(&mut self, x: &Value, s: &Expr) -> Option<E<bool>> {
        match &s.kind {
            ExprKind::Call(Builtin::Id, t) if infinite(s) => Some((|| {
                let (a, b) = x.as_pair().map_err(|m| Fail::Wd(m, s.pos))?;
                Ok(a == b && self.member(a, &t[0])?)
            })()),
            ExprKind::Bin(BinOp::Minus, a, b) if infinite(s) => {
                Some((|| Ok(self.member(x, a)? && !self.member(x, b)?))())
            }
            _ => None,
        }
    }

    /// The elements of the finite `a` for which `keep` holds.
    fn keep(&mut self, a: &Expr, mut keep: impl FnMut(&mut Self, &Value) -> E<bool>) -> E<Value> {
        let xs = match self.eval(a)? {
            Value::Set(xs) => xs,
            _ => return Err(Fail::Wd("expected a set".into(), a.pos)),
        };
        let mut out = Vec::with_capacity(xs.len());
        for x in xs.iter() {
            if keep(self, x)? {
                out.push(x.clone());
            }
        }
        Ok(Value::set_sorted(out))
    }

    /// `r[s]` for a finite `r` and an infinite `s`: the images of the
    /// pairs of `r` whose first element is in `s`.
    fn image_of_infinite(&mut self, r: &Expr, s: &Expr) -> E<Value> {
        let rel = self.keep(r, |env, p| env.member(first(p, s)?, s))?;
        let rel = rel.as_set().map_err(|m| Fail::Wd(m, r.pos))?;
        let ys: Vec<Value> = v::pairs(rel)
            .map_err(|m| Fail::Wd(m, r.pos))?
            .map(|(_, y)| y.clone())
            .collect();
        Ok(Value::set(ys))
    }
}

fn first<'v>(p: &'v Value, at: &Expr) -> E<&'v Value> {
    Ok(p.as_pair().map_err(|m| Fail::Wd(m, at.pos))?.0)
}

fn second<'v>(p: &'v Value, at: &Expr) -> E<&'v Value> {
    Ok(p.as_pair().map_err(|m| Fail::Wd(m, at.pos))?.1)
}

#[cfg(test)]
mod tests {
    use crate::tests::count;

    #[test]
    fn intersection_with_the_integer_identity() {
        // r /\ id(INTEGER) = {}: the irreflexive relations on {1, 2}
        // (4 of 16); each constants state initialised
        let m = "MACHINE L CONSTANTS r
                 PROPERTIES r : {1, 2} <-> {1, 2} & r /\\ id(INTEGER) = {} END";
        assert_eq!(count(m), (9, 8));
    }

    #[test]
    fn images_through_infinite_sets() {
        // id(INTEGER)[2..4] = 2..4 and {0 |-> a, 1 |-> b}~... : r[NATURAL1]
        // keeps the pairs from 1 on; s : NATURAL - {0, 1} is s >= 2
        let m = "MACHINE I SETS T = {a, b} CONSTANTS r, s
                 PROPERTIES r = {0 |-> a, 1 |-> b} & s : 1..3 & s : NATURAL - {0, 1}
                 VARIABLES q, w INVARIANT q <: INTEGER & w <: T
                 INITIALISATION q := id(INTEGER)[2..4] || w := r[NATURAL1]
                 OPERATIONS shrink = PRE q /= {} & card(q) >= s THEN q := q - {max(q)} END END";
        // constants s = 2, 3; q from {2,3,4}: s = 2 shrinks twice, s = 3 once
        assert_eq!(count(m), (8, 7));
    }
}
