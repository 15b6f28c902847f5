//! Candidates of a relation `r : A <-> B` whose images of single points
//! are fixed by the conjuncts checked first once `r` is bound: `r[{a}] =
//! E` (either way round, `a` and `E` not mentioning `r`) gives the pairs
//! of `r` from `a`, so only the pairs from the other points of `A` are
//! free (FiveWayTraffic's `CONFLICT : DIRECTION <-> DIRECTION` with the
//! image of each of its 5 directions given: one candidate of 2^25).
//!
//! Only the step's leading checks are read, so a relation left out would
//! have been rejected before any other conjunct was evaluated; a value
//! that cannot be had, or a point or image outside `A` or `B`, falls back
//! to the full enumeration (the caller's), as does a free part of more
//! than [`FREE_PAIRS`] pairs. The candidates keep the full enumeration's
//! order (the masks over the free pairs, ascending).
//!
//! Owns that reading and those candidates; the full enumeration is
//! `Env::elements`'.

use crate::ast::*;
use crate::eval::Env;
use crate::value::{self as v, Value};

/// At most 2^this relations are produced.
const FREE_PAIRS: usize = 22;

/// The candidates for `r` in `r : space` (a plain relation space `A <->
/// B`) admitted by the leading image equations among `checks` of `cs`;
/// `None` when there is none or a value cannot be had.
pub fn search(
    r: Sym,
    space: &Expr,
    cs: &[&Expr],
    checks: &[usize],
    env: &mut Env,
) -> Option<Vec<Value>> {
    let ExprKind::Bin(BinOp::Space(SpaceKind::Rel), a, b) = &space.kind else {
        return None;
    };
    let mut fixed: Vec<(Value, Value)> = Vec::new();
    for &c in checks {
        let Some((point, image)) = image_equation(cs[c], r) else {
            break;
        };
        let (x, ys) = (env.eval(point).ok()?, env.eval(image).ok()?);
        match fixed.iter().find(|(p, _)| *p == x) {
            Some((_, other)) if *other != ys => return Some(Vec::new()),
            Some(_) => {}
            None => fixed.push((x, ys)),
        }
    }
    if fixed.is_empty() {
        return None;
    }
    let (dom, ran) = (env.elements(a).ok()?, env.elements(b).ok()?);
    let mut pairs = Vec::new();
    for (x, ys) in &fixed {
        if !dom.contains(x) {
            return None;
        }
        for y in ys.as_set().ok()? {
            if !ran.contains(y) {
                return None;
            }
            pairs.push(Value::pair(x.clone(), y.clone()));
        }
    }
    let free_points: Vec<Value> = dom
        .into_iter()
        .filter(|x| fixed.iter().all(|(p, _)| p != x))
        .collect();
    let free = v::cartesian(&free_points, &ran);
    let free = free.as_set().ok()?;
    if free.len() > FREE_PAIRS {
        return None;
    }
    let mut out: Vec<Value> = (0u64..1 << free.len())
        .map(|mask| {
            let chosen = free
                .iter()
                .enumerate()
                .filter(|(i, _)| mask & (1 << i) != 0)
                .map(|(_, p)| p.clone());
            Value::set(pairs.iter().cloned().chain(chosen).collect())
        })
        .collect();
    out.sort();
    Some(out)
}

/// The point and image of `c` if it is `r[{a}] = E` or `E = r[{a}]`,
/// neither `a` nor `E` mentioning `r`.
fn image_equation(c: &Expr, r: Sym) -> Option<(&Expr, &Expr)> {
    let ExprKind::Bin(BinOp::Eq, p, q) = &c.kind else {
        return None;
    };
    let (a, e) = match (image_point(p, r), image_point(q, r)) {
        (Some(a), None) => (a, &**q),
        (None, Some(a)) => (a, &**p),
        _ => return None,
    };
    let mut ids = Vec::new();
    super::plan::idents(a, &mut ids);
    super::plan::idents(e, &mut ids);
    (!ids.contains(&r)).then_some((a, e))
}

/// `a` if `e` is `r[{a}]`.
fn image_point(e: &Expr, r: Sym) -> Option<&Expr> {
    let ExprKind::Image(f, s) = &e.kind else {
        return None;
    };
    match &s.kind {
        ExprKind::SetExt(xs) if xs.len() == 1 && matches!(f.kind, ExprKind::Ident(x) if x == r) => {
            Some(&xs[0])
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use crate::tests::count;

    fn relations(props: &str) -> String {
        format!("MACHINE R SETS D = {{a, b, c}} CONSTANTS r PROPERTIES {props} END")
    }

    #[test]
    fn images_fix_the_pairs_of_their_points() {
        // the pairs from a and b are fixed, the 3 from c free: 8 relations,
        // each a constants state and its initialised state, plus the root
        let fixed = relations("r : D <-> D & r[{a}] = {b} & {a, c} = r[{b}]");
        assert_eq!(count(&fixed), (17, 16));
        // the same relations among all 512 subsets of D * D
        let whole = relations("r <: D * D & r[{a}] = {b} & {a, c} = r[{b}]");
        assert_eq!(count(&whole), count(&fixed));
    }

    #[test]
    fn every_point_fixed_leaves_one_relation_of_many() {
        // 2^25 relations on 5 points, one with these images
        let m = "MACHINE F SETS D = {a, b, c, d, e} CONSTANTS r
                 PROPERTIES r : D <-> D & r[{a}] = {b, c} & r[{b}] = {} &
                   r[{c}] = D & r[{d}] = {a} & r[{e}] = {e} & card(r) = 9 END";
        assert_eq!(count(m), (3, 2));
    }
}
