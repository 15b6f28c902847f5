//! Constants said elements of a part of a partition of a deferred set:
//! `aa : P1` beside `P1 \/ P2 = ID & P1 /\ P2 = {}` (`partition`). Their
//! type is `ID`'s elements, and ProB's static symmetry reduction
//! enumerates them as it does the constants said `c : ID` (`symmetry`:
//! MACE order, in declaration order), the partition then allocating the
//! free elements, those no such constant can take, to the parts in order.
//!
//! ProB's counts: DefSetPartTest4 (`aa : P1 & bb : P2`, `ID` of 10
//! elements split in two parts of equal size: one solution, 2 states:
//! `aa` the first element, `bb` the second, `P1` the next four free ones)
//! and DefSetPartTest5 (`aa : P1 & bb : P2 & aa /= bb`, 9 elements in
//! three parts of equal size: one solution). Read without the constants'
//! reduction, ProB's allocation would leave `bb` no element of `P2` it
//! can take (no solution) or none reduced (25 and more solutions).
//!
//! So are the constants said elements of a constant set whose elements
//! are a deferred set's by type (`solve::deferred_homogeneous`: `s <: S`,
//! or a homogeneous relation's side), `S` not partitioned. ProB's counts:
//! PO_Scheduler (`pw : waiting & waiting <: PID`: 3 of 6 solutions, `pw`
//! the first element, 6 states) and ToyFileSystem (`root : Dir`, `Dir`
//! typed by `contents : Dir <-> OBJ` beside `closure(contents)`: 2,824 of
//! 14,120 solutions, `root` the first of 5 elements, 5,648 states).
//!
//! Owns that recognition; the MACE order is `symmetry`'s, the allocation
//! `partition`'s.

use crate::ast::Expr;
use crate::ast::Sym;

/// The deferred set whose elements `x : s` makes `x` one of: `s` itself
/// when it is a deferred set, else the deferred set that the conjuncts
/// partition with `s` among the parts.
pub fn element_set(conjuncts: &[&Expr], s: Sym, deferred: &[Sym]) -> Option<Sym> {
    if deferred.contains(&s) {
        return Some(s);
    }
    let parted = |d: Sym| crate::partition::partition_of(conjuncts, d);
    deferred
        .iter()
        .copied()
        .find(|&d| parted(d).is_some_and(|parts| parts.contains(&s)))
        .or_else(|| {
            // a set of `d`'s elements by type (`s <: d`, a homogeneous
            // relation's side), `d` not partitioned
            crate::solve::deferred_homogeneous::element_type(conjuncts, s, deferred)
                .filter(|&d| parted(d).is_none())
        })
}
