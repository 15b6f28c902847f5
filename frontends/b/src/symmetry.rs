//! ProB's static symmetry reduction of constants that are elements of a
//! deferred set (MACE style): the constants typed `c : S` (or `{c} <: S`,
//! or listed by `S = {c, ..}`: see `setsize`) by a PROPERTIES conjunct,
//! in declaration order, take either an element
//! an earlier one took or the first element none took. So ProB keeps only
//! the constant solutions whose values for them, as element indices, form
//! a restricted growth string (each index at most one more than the
//! largest before it). Checked against ProB on `DefSetWithConstantsTest`
//! (10 of 256 solutions), `DefSetTest1` and the `Hanoi` puzzles (1 of 6).
//!
//!
//! When the PROPERTIES only say `c : S`, for at most one constant `c` per
//! deferred set, ProB fixes those constants as if the set were enumerated:
//! it has no SETUP_CONSTANTS step (SimpleTest: 2 states, PaperroundAny,
//! BirthdayBook, the Disprover's EnumWarningTests). Any other conjunct
//! (`card(S) = 3`: DefSet_NoEnumWarning1) or a machine parameter (PROB-406's
//! Y1) keeps the step. So does, in an Event-B context, a distinctness of
//! such constants (`d1 : D & d2 : D & d1 /= d2` and nothing else:
//! TestMySequences_ctx_ok and _err, one solution, 2 states); in classical
//! B constants only said pairwise distinct elements are not modelled (no
//! ProB count to check it against).
//!
//! Owns that selection; solving the PROPERTIES is `solve`'s.

use crate::ast::*;
use crate::bijection::{fixed_bijection, FixedBijection};
use crate::partition::Partition;
use crate::value::Value;

/// For each deferred set, the indices (in `const_ids`) of the constants
/// that a top-level PROPERTIES conjunct makes elements of it, in
/// declaration order.
fn element_constants(machines: &[Machine], const_ids: &[Sym], deferred: &[Sym]) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = vec![Vec::new(); deferred.len()];
    let all: Vec<&Expr> = machines
        .iter()
        .flat_map(|m| &m.properties)
        .flat_map(crate::solve::conjuncts)
        .collect();
    for m in machines {
        for p in &m.properties {
            for c in crate::solve::conjuncts(p) {
                for (d, &s) in deferred.iter().enumerate() {
                    let listed = crate::setsize::listing(c, s, const_ids)
                        .or_else(|| subset_of(c, s, const_ids))
                        .or_else(|| crate::deferred_singletons::singleton_union(c, s, const_ids));
                    for x in listed.unwrap_or_default() {
                        let k = const_ids.iter().position(|&i| i == x);
                        if let Some(k) = k.filter(|k| !groups[d].contains(k)) {
                            groups[d].push(k);
                        }
                    }
                }
                let Some((x, s)) = element_of(c) else {
                    continue;
                };
                let s = crate::deferred_part_members::element_set(&all, s, deferred).unwrap_or(s);
                let (Some(k), Some(d)) = (
                    const_ids.iter().position(|&i| i == x),
                    deferred.iter().position(|&i| i == s),
                ) else {
                    continue;
                };
                if !groups[d].contains(&k) {
                    groups[d].push(k);
                }
            }
        }
    }
    for g in &mut groups {
        g.sort_unstable();
    }
    groups
}

/// The constants ProB's symmetry reduction enumerates, per deferred set
/// (indices among the constants), and whether it fixes all the constants
/// (no SETUP_CONSTANTS step): see the module comment.
#[derive(Debug, Default)]
pub struct Symmetry {
    pub groups: Vec<Vec<usize>>,
    pub all_fixed: bool,
    /// Bijections fixed up to their deferred set's symmetry (see
    /// `bijection`), whose sets have no group.
    pub bijections: Vec<FixedBijection>,
    /// Partitions of deferred sets, with the index of the first free
    /// element (see `partition`).
    pub partitions: Vec<(Partition, u32)>,
}

impl Symmetry {
    /// `params`: the machine parameters (among `const_ids`); `event_b`:
    /// the machines are an Event-B export's.
    pub fn of(
        machines: &[Machine],
        const_ids: &[Sym],
        params: &[Sym],
        deferred: &[Sym],
        event_b: bool,
    ) -> Result<Symmetry, (Pos, String)> {
        let conjuncts: Vec<&Expr> = machines
            .iter()
            .flat_map(|m| &m.properties)
            .flat_map(crate::solve::conjuncts)
            .collect();
        let mut bijections: Vec<FixedBijection> = conjuncts
            .iter()
            .filter_map(|c| fixed_bijection(c, const_ids, deferred))
            .collect();
        crate::deferred_bijection_side::free_partitioned_side(
            &mut bijections,
            &conjuncts,
            const_ids,
        );
        let bijective = |d: usize| bijections.iter().any(|b| b.set == deferred[d]);
        let elements = element_constants(machines, const_ids, deferred);
        // a bijection between two deferred sets is fixed only when the
        // second has no constant elements (see `bijection`)
        for b in &bijections {
            let d = b.other.and_then(|t| deferred.iter().position(|&s| s == t));
            if d.is_some_and(|d| !elements[d].is_empty()) {
                let pos = conjuncts.first().map_or(Pos::default(), |c| c.pos);
                return Err((
                    pos,
                    "a bijection between two deferred sets, the second with constant elements (ProB breaks deferred-set symmetry while solving PROPERTIES)".into(),
                ));
            }
        }
        let partitions =
            crate::partition::partitions(&conjuncts, const_ids, deferred, &elements, bijective)
                .map_err(|m| (conjuncts.first().map_or(Pos::default(), |c| c.pos), m))?;
        let listed_fixed = event_b
            && crate::deferred_singletons::fixed_as_enumerated(
                &conjuncts, const_ids, params, deferred, &elements,
            );
        // Event-B keeps the step there (`deferred_singletons`)
        if !listed_fixed
            && !event_b
            && crate::deferred_singletons::listing_alone(&conjuncts, const_ids, deferred)
        {
            let pos = conjuncts.first().map_or(Pos::default(), |c| c.pos);
            return Err((
                pos,
                "a deferred set listed by constants said pairwise distinct and little else (ProB may make it an enumerated set and drop the SETUP_CONSTANTS step, or keep it: DeferredSetAndConstants2)".into(),
            ));
        }
        let groups = elements
            .into_iter()
            .enumerate()
            .filter(|&(d, _)| !bijective(d))
            .map(|(_, g)| g)
            .filter(|g| !g.is_empty())
            .collect::<Vec<_>>();
        let member = |c: &&Expr| {
            element_of(c).is_some_and(|(x, s)| const_ids.contains(&x) && deferred.contains(&s))
        };
        let distinct = |c: &&Expr| match &c.kind {
            ExprKind::Bin(BinOp::Neq, a, b) => [a, b]
                .iter()
                .all(|e| matches!(e.kind, ExprKind::Ident(x) if const_ids.contains(&x))),
            _ => false,
        };
        let covered = groups.iter().map(Vec::len).sum::<usize>() == const_ids.len();
        let candidates = !const_ids.is_empty()
            && covered
            && params.iter().all(|p| !const_ids.contains(p))
            && conjuncts.iter().all(|c| member(c) || distinct(c));
        // Event-B's `d1 : D & d2 : D & d1 /= d2`: the step stays (see the
        // module comment)
        let distinct_kept = event_b && conjuncts.iter().any(distinct);
        if candidates && groups.iter().any(|g| g.len() > 1) && !distinct_kept {
            let pos = conjuncts.first().map_or(Pos::default(), |c| c.pos);
            return Err((
                pos,
                "constants of a deferred set said distinct and nothing else (ProB may fix them without a SETUP_CONSTANTS step)".into(),
            ));
        }
        Ok(Symmetry {
            all_fixed: (candidates && conjuncts.iter().all(member)) || listed_fixed,
            groups,
            bijections,
            partitions,
        })
    }
}

/// `[x1, .., xk]` when `c` is `{x1, .., xk} <: S`, the `xi` constants:
/// each is an element of `S`, as `xi : S` says.
fn subset_of(c: &Expr, s: Sym, consts: &[Sym]) -> Option<Vec<Sym>> {
    let ExprKind::Bin(BinOp::Subset, a, b) = &c.kind else {
        return None;
    };
    let (ExprKind::SetExt(xs), ExprKind::Ident(t)) = (&a.kind, &b.kind) else {
        return None;
    };
    if *t != s {
        return None;
    }
    xs.iter()
        .map(|x| match x.kind {
            ExprKind::Ident(x) if consts.contains(&x) => Some(x),
            _ => None,
        })
        .collect()
}

/// `x : S` or `{x} <: S` with `x` and `S` identifiers.
fn element_of(c: &Expr) -> Option<(Sym, Sym)> {
    let (a, b) = match &c.kind {
        ExprKind::Bin(BinOp::In, a, b) => (&**a, &**b),
        ExprKind::Bin(BinOp::Subset, a, b) => match &a.kind {
            ExprKind::SetExt(xs) if xs.len() == 1 => (&xs[0], &**b),
            _ => return None,
        },
        _ => return None,
    };
    match (&a.kind, &b.kind) {
        (ExprKind::Ident(x), ExprKind::Ident(s)) => Some((*x, *s)),
        _ => None,
    }
}

impl Symmetry {
    /// Whether ProB's static symmetry breaking keeps the constant values
    /// `sol` (in `const_ids` order): the MACE-style groups and the fixed
    /// bijections.
    pub fn keeps(&self, sol: &[Value]) -> bool {
        canonical(&self.groups, sol)
            && self
                .bijections
                .iter()
                .all(|b| sol.get(b.constant).is_some_and(crate::bijection::keeps))
            && self.partitions.iter().all(|(p, free)| p.keeps(sol, *free))
    }
}

/// Whether ProB's MACE-style enumeration reaches the constant values
/// `sol` (in `const_ids` order): see the module comment.
pub fn canonical(groups: &[Vec<usize>], sol: &[Value]) -> bool {
    groups
        .iter()
        .all(|g| g.iter().all(|&k| k < sol.len()) && restricted_growth(g.iter().map(|&k| &sol[k])))
}

/// Whether `vals` are elements whose indices form a restricted growth
/// string: each at most one more than the largest before it.
pub fn restricted_growth<'a>(vals: impl Iterator<Item = &'a Value>) -> bool {
    let mut next = 0u32;
    for v in vals {
        match v {
            Value::Elem(_, i) if *i <= next => next = next.max(i + 1),
            _ => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::canonical;
    use crate::value::Value;

    #[test]
    fn restricted_growth_strings() {
        let e = |i| Value::Elem(0, i);
        let g = vec![vec![0, 1, 2]];
        assert!(canonical(&g, &[e(0), e(1), e(0)]));
        assert!(canonical(&g, &[e(0), e(0), e(1)]));
        assert!(!canonical(&g, &[e(1), e(0), e(0)]));
        assert!(!canonical(&g, &[e(0), e(2), e(1)]));
    }
}
