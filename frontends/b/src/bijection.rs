//! ProB's static symmetry breaking of a bijection between a deferred set
//! `S` and a finite set `T` without deferred sets (`f : S >->> T` or `f :
//! T >->> S`, a top-level PROPERTIES conjunct, `f` a constant): every bijection
//! is the image of any other under a permutation of `S`, so ProB fixes one
//! and enumerates the other constants freely (also the constants `c : S`,
//! whose MACE-style enumeration `symmetry` then drops for `S`). We keep
//! the solutions whose `f` pairs `S`'s elements with `T`'s in the same
//! order. Checked against ProB on RecordDetectionBugSimple (`pos : Agents
//! >->> 1..4` with `self : Agents`: 4 of 96 solutions), ExtremaFinding
//! (3 of 72) and Mengen_Gesetze_Bool (`S >->> BOOL`).
//!
//! A bijection `f : S >->> T` between two deferred sets is fixed the same
//! way (the pairs of equal element indices), when `T` has no constant
//! elements and no other fixed bijection names `T` (`symmetry` and
//! `compile` refuse those): every bijection between them is the image of
//! any other under a permutation of `S`. Checked against ProB on
//! MIO_ref3, MIO_ref4 and MIO_ref6 (`doorSta : DOORS >->> STATS`, 144,090
//! states and 836,148 transitions).
//!
//! A side that is a cartesian product over one other deferred set (`D *
//! D >->> S`) is taken as that deferred set (`deferred_product`).
//!
//! Owns that selection; the refusal of other bijections over deferred
//! sets is `compile`'s.

use crate::ast::*;
use crate::value::Value;

/// A constant fixed up to the symmetry of a deferred set: its index among
/// the constants and the deferred set's name.
#[derive(Debug, Clone, Copy)]
pub struct FixedBijection {
    pub constant: usize,
    pub set: Sym,
    /// The deferred set on the other side, for a bijection between two
    /// deferred sets (see the module comment).
    pub other: Option<Sym>,
}

/// The conjunct `f : S >->> T` or `f : T >->> S` of `c`, when `f` is a
/// constant, `S` a deferred set and `T` another deferred set, or `T`
/// mentions none nor `INTEGER`, `NATURAL`, `NATURAL1` or `STRING`, nor a
/// constant unless `T` is an interval, or `T` is an interval whose bounds
/// are literals or sizes of deferred sets (`1..card(V)`).
pub fn fixed_bijection(c: &Expr, consts: &[Sym], deferred: &[Sym]) -> Option<FixedBijection> {
    let ExprKind::Bin(BinOp::In, f, space) = &c.kind else {
        return None;
    };
    let (ExprKind::Ident(f), ExprKind::Bin(BinOp::Space(SpaceKind::TotalBij), x, y)) =
        (&f.kind, &space.kind)
    else {
        return None;
    };
    let constant = consts.iter().position(|k| k == f)?;
    let deferred_ident = |e: &Expr| match e.kind {
        ExprKind::Ident(s) if deferred.contains(&s) => Some(s),
        _ => None,
    };
    // no deferred set, and none of the infinite sets (INTEGER_Record_Unsat)
    let finite = |e: &Expr| {
        let mut ids = Vec::new();
        crate::solve::idents(e, &mut ids);
        let mut bounded = true;
        crate::compile::visit(e, &mut |x| {
            bounded &= !matches!(
                x.kind,
                ExprKind::Named(
                    NamedSet::Integer | NamedSet::Natural | NamedSet::Natural1 | NamedSet::String
                )
            )
        });
        // A constant's value may hold a deferred set's elements
        // (`ran(fst)`, rodin_train_4): only an interval may name constants.
        let interval = matches!(e.kind, ExprKind::Bin(BinOp::Interval, ..));
        let sized = matches!(&e.kind, ExprKind::Bin(BinOp::Interval, lo, hi) if sized_bound(lo, deferred) && sized_bound(hi, deferred));
        bounded
            && (sized
                || ids.iter().all(|s| !deferred.contains(s))
                    && (interval || ids.iter().all(|s| !consts.contains(s))))
    };
    match (deferred_ident(x), deferred_ident(y)) {
        (Some(set), None) if finite(y) => Some(FixedBijection {
            constant,
            set,
            other: None,
        }),
        (None, Some(set)) if finite(x) => Some(FixedBijection {
            constant,
            set,
            other: None,
        }),
        (Some(set), None) | (None, Some(set)) => {
            let side = if deferred_ident(x).is_some() { y } else { x };
            let other = crate::deferred_product::product_over(side, set, deferred, &finite)?;
            Some(FixedBijection {
                constant,
                set,
                other: Some(other),
            })
        }
        (Some(set), Some(other)) if set != other => Some(FixedBijection {
            constant,
            set,
            other: Some(other),
        }),
        _ => None,
    }
}

/// Whether `e`, an interval's bound, is a literal or the size of a
/// deferred set (`1..card(V)`: the InitialisationByPredicate models),
/// known before the PROPERTIES are solved.
fn sized_bound(e: &Expr, deferred: &[Sym]) -> bool {
    match &e.kind {
        ExprKind::Int(_) => true,
        ExprKind::Call(Builtin::Card, a) => {
            matches!(a.as_slice(), [x] if matches!(x.kind, ExprKind::Ident(d) if deferred.contains(&d)))
        }
        _ => false,
    }
}

/// Whether the bijection `v` (a set of pairs, sorted) is the one ProB
/// keeps: `S`'s elements, in their order, paired with `T`'s in order
/// (either way round, the pairs' second components rise).
pub fn keeps(v: &Value) -> bool {
    let Value::Set(pairs) = v else {
        return false;
    };
    let mut last: Option<&Value> = None;
    pairs.iter().all(|p| match p {
        Value::Pair(p) => {
            let rising = last.is_none_or(|l| *l < p.1);
            last = Some(&p.1);
            rising
        }
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::keeps;
    use crate::value::Value;

    #[test]
    fn the_bijection_kept_rises() {
        let pair = |a, b| Value::pair(a, b);
        let (e, i) = (|k| Value::Elem(0, k), Value::Int);
        let up = Value::set_sorted(vec![pair(e(0), i(1)), pair(e(1), i(2))]);
        let down = Value::set_sorted(vec![pair(e(0), i(2)), pair(e(1), i(1))]);
        assert!(keeps(&up));
        assert!(!keeps(&down));
        let up = Value::set_sorted(vec![pair(i(1), e(0)), pair(i(2), e(1))]);
        let down = Value::set_sorted(vec![pair(i(1), e(1)), pair(i(2), e(0))]);
        assert!(keeps(&up));
        assert!(!keeps(&down));
    }
}
