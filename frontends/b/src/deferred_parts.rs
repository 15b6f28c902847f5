//! The least size of a deferred set `S` that a tree of partitions into
//! non-empty parts demands: `S = A \/ B` with `A /\ B = {}` (Event-B's
//! `partition(S, A, B)`), each part non-empty (`A /= {}`) or itself
//! partitioned the same way (`B = C \/ D`, `C /\ D = {}`, `C /= {}`, `D
//! /= {}`). A part of `S` needs at least one element when said non-empty
//! and at least the sum of its parts' least sizes when partitioned, so
//! `S` needs the sum over its own parts.
//!
//! ProB raises a deferred set's default size to such a bound (its
//! documentation, "Deferred Sets": PROPERTIES other than `card(S) = n`
//! influence the size). ProB's count: the SteveWright_VM ControlFlow
//! model, `Inst = InvalidInst \/ ValidInst` and `ValidInst = StopInst \/
//! ExecInst`, the three leaves non-empty, no size given: 338 states and
//! 3,790 transitions, the counts with `Inst` of 3 elements (none with the
//! default 2; 2,958 states with 4). Inclusions (`A <: B`) and strict ones
//! are not followed: no ProB count shows that it does.
//!
//! Owns that bound; `setsize` applies it as `deferred_mincard`'s.

use crate::ast::*;
use crate::partition::partition_of;

/// The least number of elements of `s` (a deferred set or a constant)
/// that the partitions and non-emptiness conjuncts among `conjuncts`
/// demand; 0 when none does.
pub fn least_by_parts(conjuncts: &[&Expr], s: Sym) -> i64 {
    least_at(conjuncts, s, &mut Vec::new())
}

fn least_at(conjuncts: &[&Expr], s: Sym, visiting: &mut Vec<Sym>) -> i64 {
    if visiting.contains(&s) {
        return 0;
    }
    visiting.push(s);
    let own = i64::from(conjuncts.iter().any(|c| says_nonempty(c, s)));
    let parts = partition_of(conjuncts, s).map_or(0, |parts| {
        parts
            .iter()
            .map(|&p| least_at(conjuncts, p, visiting))
            .fold(0i64, i64::saturating_add)
    });
    visiting.pop();
    own.max(parts)
}

/// Whether `c` is `A /= {}`, `{} /= A` or `not(A = {})`.
pub(crate) fn says_nonempty(c: &Expr, a: Sym) -> bool {
    let pair = |l: &Expr, r: &Expr| {
        let is = |e: &Expr| matches!(e.kind, ExprKind::Ident(x) if x == a);
        let empty = |e: &Expr| matches!(e.kind, ExprKind::EmptySet);
        (is(l) && empty(r)) || (empty(l) && is(r))
    };
    match &c.kind {
        ExprKind::Bin(BinOp::Neq, l, r) => pair(l, r),
        ExprKind::Call(Builtin::Not, v) => {
            matches!(v.first().map(|e| &e.kind), Some(ExprKind::Bin(BinOp::Eq, l, r)) if pair(l, r))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use crate::tests::count;

    /// A machine partitioning `S` into `A` and `B`, `B` into `C` and `D`,
    /// with `extra` PROPERTIES; `x :: S` shows `S`'s size.
    fn tree(extra: &str) -> String {
        format!(
            "MACHINE P SETS S CONSTANTS A, B, C, D
             PROPERTIES S = A \\/ B & A /\\ B = {{}} & B = C \\/ D & C /\\ D = {{}}
               & A /= {{}} & C /= {{}} {extra}
             VARIABLES x INITIALISATION x :: S END"
        )
    }

    #[test]
    fn non_empty_leaves_raise_the_default_size() {
        // A, C, D non-empty: S needs 3 elements. The free elements go to
        // A and B in order (`partition`): A = {0}, B = {1, 2}; C and D
        // split B two ways. Root + 2 constants states + 2 * 3 states;
        // 2 + 6 edges
        assert_eq!(count(&tree("& D /= {}")), (9, 8));
    }

    #[test]
    fn leaves_that_may_be_empty_keep_the_default_size() {
        // A and C non-empty: 2 elements suffice, the default. A = {0}, B =
        // {1} (A = {0, 1} leaves C empty), C = {1}, D = {}: root + 1 + 2
        // states; 1 + 2 edges
        assert_eq!(count(&tree("")), (4, 3));
    }

    #[test]
    fn a_given_size_is_not_raised() {
        // card(S) = 2 cannot hold three non-empty leaves: no solution,
        // ProB's 0 states (the root alone)
        assert_eq!(count(&tree("& D /= {} & card(S) = 2")), (1, 0));
    }
}
