//! Which of its two deferred sets a bijection between deferred sets is
//! fixed by (`bijection`): `f : S >->> T`, both sides plain deferred
//! sets, is fixed by permuting `S` (`FixedBijection::set`) unless `S` is
//! partitioned (`partition`) and `T` is not; then by permuting `T`, which
//! leaves `S`'s symmetry to the ordered allocation of its partition.
//!
//! Every solution maps to one whose partition of `S` is allocated in
//! order (a permutation of `S`), then to one whose `f` pairs the elements
//! in order (a permutation of `T`, which moves neither `S`'s partition
//! nor, `T` having no constant elements (`symmetry` refuses those),
//! anything else of `S`): each orbit keeps a solution. ProB's count:
//! EmbleyDiagram (`A = B \/ C` a partition, `ad : A >->> D`, `ce : C <->
//! E & ran(ce) = E`, `card(B) > 0`: one solution, 2 states).
//!
//! Owns that choice of side; the partitions are `partition`'s, the kept
//! bijection `bijection`'s.

use crate::ast::*;
use crate::bijection::FixedBijection;
use crate::partition::partition_of;

/// Turns round the bijections of `bijections` between two plain deferred
/// sets whose first set is partitioned and second is not (see the module
/// comment); `conjuncts` are the PROPERTIES', `const_ids` the constants.
pub fn free_partitioned_side(
    bijections: &mut [FixedBijection],
    conjuncts: &[&Expr],
    const_ids: &[Sym],
) {
    for b in bijections.iter_mut() {
        let Some(other) = b.other else {
            continue;
        };
        let partitioned = |s| partition_of(conjuncts, s).is_some();
        if partitioned(b.set) && !partitioned(other) && plain(conjuncts, const_ids[b.constant]) {
            *b = FixedBijection {
                constant: b.constant,
                set: other,
                other: Some(b.set),
            };
        }
    }
}

/// Whether a conjunct is `f : X >->> Y` with `X` and `Y` identifiers.
fn plain(conjuncts: &[&Expr], f: Sym) -> bool {
    conjuncts.iter().any(|c| match &c.kind {
        ExprKind::Bin(BinOp::In, x, space) => {
            matches!(x.kind, ExprKind::Ident(y) if y == f)
                && matches!(&space.kind, ExprKind::Bin(BinOp::Space(SpaceKind::TotalBij), a, b)
                    if matches!(a.kind, ExprKind::Ident(_)) && matches!(b.kind, ExprKind::Ident(_)))
        }
        _ => false,
    })
}
