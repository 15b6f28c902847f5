//! `card(E)` of the sets whose size follows from their syntax without
//! building them: an interval `a..b`, `POW(S)` / `POW1(S)` and a product
//! `S * T`, the size of their parts found the same way (CardTotFunExpansionTests'
//! `card(1..2147483647)` and `card(POW(1..20))`). Any other set is built
//! and counted. A size beyond 64 bits is unsupported.
//!
//! Owns only this count; it evaluates the operands through `Env` and
//! never builds the sets it counts by syntax.

use crate::ast::*;
use crate::eval::{Env, Fail, E};

impl Env<'_> {
    /// The number of elements of the set `e`.
    pub(crate) fn card_of(&mut self, e: &Expr) -> E<i64> {
        let too_large = || Fail::Unsupported("a cardinality beyond 64 bits".into(), e.pos);
        match &e.kind {
            ExprKind::Bin(BinOp::Interval, a, b) => {
                let (lo, hi) = (self.int(a)?, self.int(b)?);
                Ok(if hi < lo {
                    0
                } else {
                    hi.checked_sub(lo)
                        .and_then(|d| d.checked_add(1))
                        .ok_or_else(too_large)?
                })
            }
            ExprKind::Call(b @ (Builtin::Pow | Builtin::Pow1), a) if a.len() == 1 => {
                let n = self.card_of(&a[0])?;
                let all = u32::try_from(n)
                    .ok()
                    .and_then(|n| 1i64.checked_shl(n))
                    .filter(|&p| p > 0)
                    .ok_or_else(too_large)?;
                Ok(if *b == Builtin::Pow1 { all - 1 } else { all })
            }
            ExprKind::Bin(BinOp::Mul, a, b) if is_set_syntax(a) => {
                let (m, n) = (self.card_of(a)?, self.card_of(b)?);
                m.checked_mul(n).ok_or_else(too_large)
            }
            _ => Ok(self.set(e)?.len() as i64),
        }
    }
}

/// Whether `a` of `a * b` denotes a set (so that `*` is a product), by its
/// syntax: an interval, a power set or a product of those.
fn is_set_syntax(a: &Expr) -> bool {
    match &a.kind {
        ExprKind::Bin(BinOp::Interval, ..) => true,
        ExprKind::Call(Builtin::Pow | Builtin::Pow1, _) => true,
        ExprKind::Bin(BinOp::Mul, x, _) => is_set_syntax(x),
        _ => false,
    }
}
