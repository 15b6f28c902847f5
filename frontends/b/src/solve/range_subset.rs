//! A subset of an interval ending at an integer not yet bound: `II <:
//! 0..NN` (MinSet_Deadlock's `NN >= 0 & II <: 0..NN`), `s : POW(lo..n)`,
//! with the set `s` not yet bound either. Like `f : lo..x --> R` (see
//! `bounds`), it gives the integer no bound, and ProB, which cannot
//! enumerate the set before the interval's end is known, clips the
//! integer as if the conjunct were not there; the conjunct stays a check
//! once both are bound.
//!
//! Owns the shape test only; the clipping stays in `bounds`.

use crate::ast::*;

/// Whether `c` is `s <: lo..x`, `s <<: lo..x`, `s : POW(lo..x)` or `s :
/// POW1(lo..x)` with `s` an identifier not `ready` (not yet bound) and
/// `lo` ready.
pub(super) fn interval_end(c: &Expr, x: Sym, ready: &dyn Fn(&Expr) -> bool) -> bool {
    let (s, sup): (&Expr, &Expr) = match &c.kind {
        ExprKind::Bin(BinOp::Subset | BinOp::StrictSubset, s, sup) => (s, sup),
        ExprKind::Bin(BinOp::In, s, pow) => match &pow.kind {
            ExprKind::Call(Builtin::Pow | Builtin::Pow1, args) if args.len() == 1 => (s, &args[0]),
            _ => return false,
        },
        _ => return false,
    };
    let ExprKind::Bin(BinOp::Interval, lo, hi) = &sup.kind else {
        return false;
    };
    let unbound_s = matches!(s.kind, ExprKind::Ident(_)) && !ready(s);
    unbound_s && matches!(hi.kind, ExprKind::Ident(h) if h == x) && ready(lo)
}

#[cfg(test)]
mod tests {
    use crate::tests::{count, first_error};

    const MAXINT: i64 = 3;

    #[test]
    fn a_subset_of_an_interval_ending_at_a_clipped_integer() {
        // n in 0..MAXINT, s any subset of 0..n: per solution one
        // constants state and one initialised state
        let n: usize = (0..=MAXINT).map(|n| 1usize << (n + 1)).sum();
        for sub in ["s <: 0..n", "s : POW(0..n)"] {
            let m = format!(
                "MACHINE S CONSTANTS n, s PROPERTIES n >= 0 & {sub}
                 VARIABLES v INVARIANT v : INTEGER INITIALISATION v := 0 END"
            );
            assert_eq!(count(&m), (2 * n + 1, 2 * n), "{sub}");
        }
        // another conjunct on n might give ProB a finite domain: refused
        let m = "MACHINE S CONSTANTS n, s PROPERTIES n >= 0 & s <: 0..n & card(s) = n
                 VARIABLES v INVARIANT v : INTEGER INITIALISATION v := 0 END";
        assert!(first_error(m).is_some());
    }
}
