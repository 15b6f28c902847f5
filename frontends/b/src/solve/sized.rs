//! Enumerating a sequence of a given length: `x : seq(S) & size(x) = n`
//! (`seq1`, `iseq`, `iseq1` too; `n = size(x)`, `card(x)` alike), with
//! `S` finite and `n` ready, ranges `x` over the sequences of length `n`
//! over `S` (CSPB's red_sum: `aa : seq(Range) & size(aa) = 3`), where
//! `seq(S)` alone is infinite. With `S` infinite, a conjunct `ran(x) = R`
//! (`R` finite) gives the elements instead. The conjuncts stay checks (an
//! injective `iseq` is one of them), so the solutions are exactly the
//! predicate's.
//!
//! Owns the shape test (planning) and the sequences (enumeration).

use crate::ast::*;
use crate::eval::{Env, Fail, E};
use crate::value::{self as v, Value};

/// The set `S` of conjunct `x : seq(S)` (or `seq1`, `iseq`, `iseq1`).
pub fn seq_set(c: &Expr, x: Sym) -> Option<&Expr> {
    match &c.kind {
        ExprKind::Bin(BinOp::In, a, s) if matches!(a.kind, ExprKind::Ident(y) if y == x) => {
            match &s.kind {
                ExprKind::Call(
                    Builtin::Seq | Builtin::Seq1 | Builtin::Iseq | Builtin::Iseq1,
                    a,
                ) => a.first(),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The set `R` of conjunct `ran(x) = R` (either way round) or `ran(x) <:
/// R`: for a sequence `x`, the set of its elements (Sort's `iarray :
/// iseq(NATURAL) & size(iarray) = 4 & ran(iarray) = {0,1,3,5}`).
fn ran_set(c: &Expr, x: Sym) -> Option<&Expr> {
    let ran_of_x = |e: &Expr| match &e.kind {
        ExprKind::Call(Builtin::Ran, a) => {
            matches!(a.first().map(|a| &a.kind), Some(ExprKind::Ident(y)) if *y == x)
        }
        _ => false,
    };
    match &c.kind {
        ExprKind::Bin(BinOp::Eq | BinOp::Subset, a, b) if ran_of_x(a) => Some(b),
        ExprKind::Bin(BinOp::Eq, a, b) if ran_of_x(b) => Some(a),
        _ => None,
    }
}

/// The set of the elements of the sequence `x` that conjunct `c` gives:
/// `S` of `x : seq(S)`, or `R` of `ran(x) = R` (see [`ran_set`]).
pub fn elements_set(c: &Expr, x: Sym) -> Option<&Expr> {
    seq_set(c, x).or_else(|| ran_set(c, x))
}

/// The length `n` of conjunct `size(x) = n` (`card(x)`, either way round).
pub fn length(c: &Expr, x: Sym) -> Option<&Expr> {
    let size_of_x = |e: &Expr| match &e.kind {
        ExprKind::Call(Builtin::Size | Builtin::Card, a) => {
            matches!(a.first().map(|a| &a.kind), Some(ExprKind::Ident(y)) if *y == x)
        }
        _ => false,
    };
    match &c.kind {
        ExprKind::Bin(BinOp::Eq, a, b) if size_of_x(a) => Some(b),
        ExprKind::Bin(BinOp::Eq, a, b) if size_of_x(b) => Some(a),
        _ => None,
    }
}

/// The sequences of length `n` (conjunct `len`) over `S` (conjunct `set`).
pub fn candidates(set: &Expr, len: &Expr, env: &mut Env) -> E<Vec<Value>> {
    let n = env.eval(len)?.as_int().map_err(|m| Fail::Wd(m, len.pos))?;
    let elems = env.elements(set)?;
    if n < 0 {
        return Ok(Vec::new());
    }
    let total = (elems.len() as f64).powi(n.min(64) as i32);
    if total > crate::eval::ENUM_LIMIT as f64 {
        return Err(Fail::Unsupported(
            format!("enumerating {total} sequences of length {n}"),
            len.pos,
        ));
    }
    let mut seqs: Vec<Vec<Value>> = vec![Vec::new()];
    for _ in 0..n {
        seqs = seqs
            .into_iter()
            .flat_map(|s| {
                elems.iter().map(move |e| {
                    let mut t = s.clone();
                    t.push(e.clone());
                    t
                })
            })
            .collect();
    }
    Ok(seqs.into_iter().map(v::seq_of).collect())
}

#[cfg(test)]
mod tests {
    use crate::tests::count;

    #[test]
    fn sequences_of_a_given_length() {
        // the 2^2 sequences of length 2 over {0, 1}, 3 of them summing to
        // at most 1; the root and 3 initial states
        let m = "MACHINE S VARIABLES s INVARIANT s : seq(0..1)
                 INITIALISATION s :(s : seq(0..1) & size(s) = 2 & s(1) + s(2) <= 1) END";
        assert_eq!(count(m), (4, 3));
        // injective: [0, 1] and [1, 0]
        let m = "MACHINE S VARIABLES s INVARIANT s : seq(0..1)
                 INITIALISATION s :(s : iseq(0..1) & 2 = size(s)) END";
        assert_eq!(count(m), (3, 2));
    }
}
