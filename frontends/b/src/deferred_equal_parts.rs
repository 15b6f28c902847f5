//! A partition of a deferred set `S` of known size `n` into `k` parts
//! said of equal sizes: `card(P1) = card(P2) & card(P2) = card(P3)`
//! (DefSetPartTest5: `card(ID) = 9`, three parts). Every part has `n / k`
//! elements, so every part has a size, as when each is given by a
//! literal (`setsize`'s partitions: DefSetPartTestUniverse), and ProB's
//! ordered allocation of the free elements (`partition`) applies.
//!
//! Owns that reading of the `card` equalities; the sizes are `setsize`'s.

use crate::ast::*;

/// Whether the conjuncts link every part by `card(A) = card(B)` and
/// `n` splits into that many parts of equal size.
pub fn equal_parts(parts: &[Sym], n: i64, all: &[&Expr]) -> bool {
    let k = parts.len() as i64;
    if k < 2 || n % k != 0 {
        return false;
    }
    let card_of = |e: &Expr| match &e.kind {
        ExprKind::Call(Builtin::Card, x) => match x.as_slice() {
            [x] => match x.kind {
                ExprKind::Ident(y) => parts.iter().position(|&p| p == y),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    };
    let links: Vec<(usize, usize)> = all
        .iter()
        .filter_map(|c| match &c.kind {
            ExprKind::Bin(BinOp::Eq, a, b) => Some((card_of(a)?, card_of(b)?)),
            _ => None,
        })
        .collect();
    // the parts reached from the first through the links
    let mut reached = vec![false; parts.len()];
    reached[0] = true;
    let mut grew = true;
    while grew {
        grew = false;
        for &(a, b) in &links {
            if reached[a] != reached[b] {
                reached[a] = true;
                reached[b] = true;
                grew = true;
            }
        }
    }
    reached.iter().all(|&r| r)
}
