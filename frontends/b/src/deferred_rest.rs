//! A deferred set partitioned into singletons of constants and one more
//! part, a constant: `S = {c1} \/ .. \/ {cj} \/ A` with every two parts
//! said disjoint (Event-B's `partition(S, {c1}, .., {cj}, A)`). The
//! conjunct is read as `ci : S` for each `ci` and `A = S - {c1, .., cj}`,
//! which it implies with the disjointness: the `ci` are distinct elements
//! of `S`, enumerated as `symmetry` enumerates constant elements, and `A`
//! holds the rest. `S` keeps the size the other rules give it (`setsize`:
//! the default, or at least `j` as the `ci` are said distinct).
//!
//! ProB's count: the Deploy models' `partition(BLOCK, {ent_pnt},
//! {ext_pnt}, PLATFORM)`, no size given: s1_mch0_blocks has 5 states and 7
//! transitions, the counts with `BLOCK` of the default 2 elements
//! (`PLATFORM` empty; one more element would add states).
//!
//! Owns that reading (a rewrite of the PROPERTIES before the sets are
//! sized); the sizes are `setsize`'s.

use crate::ast::*;

/// The singletons' constants and the remaining part when `c` is `S =
/// {c1} \/ .. \/ {cj} \/ A` (either way round, `j >= 1`, the `ci` and
/// `A` distinct constants, `A` not `S`) and `all` says every two parts
/// disjoint.
fn rest_part(c: &Expr, s: Sym, consts: &[Sym], all: &[&Expr]) -> Option<(Vec<Sym>, Sym)> {
    let union = crate::deferred_singletons::equated_to(c, s)?;
    let (mut singles, mut sets) = (Vec::new(), Vec::new());
    parts(union, consts, &mut singles, &mut sets)?;
    let [rest] = sets[..] else { return None };
    let mut xs = singles.clone();
    xs.push(rest);
    let distinct = xs.iter().enumerate().all(|(i, x)| !xs[..i].contains(x));
    let disjoint = pairwise_distinct(all, &xs);
    (!singles.is_empty() && rest != s && distinct && disjoint).then_some((singles, rest))
}

/// Whether conjuncts of `all` say every two of `xs` distinct (or, as
/// sets, disjoint: `setsize::distinct_pairs`).
fn pairwise_distinct(all: &[&Expr], xs: &[Sym]) -> bool {
    let pairs = crate::setsize::distinct_pairs(all.iter().copied(), xs);
    let linked = |i: usize, j: usize| pairs.iter().any(|&p| p == (i, j) || p == (j, i));
    (0..xs.len()).all(|i| (0..i).all(|j| linked(i, j)))
}

/// Splits a union into its singletons of constants and its constants.
fn parts(e: &Expr, consts: &[Sym], singles: &mut Vec<Sym>, sets: &mut Vec<Sym>) -> Option<()> {
    match &e.kind {
        ExprKind::Bin(BinOp::Union, a, b) => {
            parts(a, consts, singles, sets)?;
            parts(b, consts, singles, sets)
        }
        ExprKind::SetExt(v) if v.len() == 1 => match v[0].kind {
            ExprKind::Ident(x) if consts.contains(&x) => {
                singles.push(x);
                Some(())
            }
            _ => None,
        },
        ExprKind::Ident(x) if consts.contains(x) => {
            sets.push(*x);
            Some(())
        }
        _ => None,
    }
}

/// Rewrites every such conjunct of a deferred set (see the module
/// comment) in the machines' PROPERTIES.
pub fn read_rest_parts(machines: &mut [Machine]) {
    rewrite_properties(machines, &|c, deferred, consts, all| {
        let (singles, rest, s) = deferred
            .iter()
            .find_map(|&s| rest_part(c, s, consts, all).map(|(xs, r)| (xs, r, s)))?;
        Some(reading(&singles, rest, s, c.pos))
    });
}

/// A reading of a conjunct `c`: `read(c, deferred sets, constants, all
/// conjuncts)`, `None` to keep it.
pub(crate) type Reading<'a> = &'a dyn Fn(&Expr, &[Sym], &[Sym], &[&Expr]) -> Option<Expr>;

/// Replaces each top-level PROPERTIES conjunct `c` that `read(c,
/// deferred sets, constants, all conjuncts)` rewrites, the conjuncts
/// being those before any rewrite.
pub(crate) fn rewrite_properties(machines: &mut [Machine], read: Reading) {
    let deferred = crate::deferred_given::deferred_sets(machines);
    let consts = crate::deferred_given::constants(machines);
    let all: Vec<Expr> = machines
        .iter()
        .flat_map(|m| &m.properties)
        .flat_map(crate::solve::conjuncts)
        .cloned()
        .collect();
    let all: Vec<&Expr> = all.iter().collect();
    for m in machines.iter_mut() {
        for p in &mut m.properties {
            rewrite(p, &mut |c| read(c, &deferred, &consts, &all));
        }
    }
}

/// `c1 : S & .. & cj : S & A = S - {c1, .., cj}`.
fn reading(singles: &[Sym], rest: Sym, s: Sym, pos: Pos) -> Expr {
    let mk = |kind| Expr { kind, pos };
    let ident = |x| Box::new(mk(ExprKind::Ident(x)));
    let listed = mk(ExprKind::SetExt(
        singles.iter().map(|&x| mk(ExprKind::Ident(x))).collect(),
    ));
    let rest_is = mk(ExprKind::Bin(
        BinOp::Eq,
        ident(rest),
        Box::new(mk(ExprKind::Bin(BinOp::Minus, ident(s), Box::new(listed)))),
    ));
    singles
        .iter()
        .map(|&x| mk(ExprKind::Bin(BinOp::In, ident(x), ident(s))))
        .chain([rest_is])
        .reduce(|a, b| mk(ExprKind::Bin(BinOp::And, Box::new(a), Box::new(b))))
        .expect("the rest's equation")
}

/// Replaces each top-level conjunct of `p` that `f` rewrites.
fn rewrite(p: &mut Expr, f: &mut dyn FnMut(&Expr) -> Option<Expr>) {
    if let ExprKind::Bin(BinOp::And, a, b) = &mut p.kind {
        rewrite(a, f);
        rewrite(b, f);
    } else if let Some(q) = f(p) {
        *p = q;
    }
}

/// The least size of `s` that a rest part said non-empty demands: `j +
/// 1` when a conjunct is `A = S - {c1, .., cj}` (the reading above), the
/// `ci` said pairwise distinct, and another says `A /= {}` (Deploy's
/// s1_ctx1_blocks: `PLATFORM /= {}`, `BLOCK` of 3 elements, s1_mch1 9
/// states as ProB); 0 otherwise. ProB raises the default size to it, as
/// it does for partitions into non-empty parts (`deferred_parts`).
pub fn least_by_rest(all: &[&Expr], s: Sym) -> i64 {
    all.iter()
        .filter_map(|c| read_back(c, s))
        .filter(|(singles, rest)| {
            pairwise_distinct(all, singles)
                && all
                    .iter()
                    .any(|c| crate::deferred_parts::says_nonempty(c, *rest))
        })
        .map(|(singles, _)| singles.len() as i64 + 1)
        .max()
        .unwrap_or(0)
}

/// `([c1, .., cj], A)` when `c` is `A = S - {c1, .., cj}`.
fn read_back(c: &Expr, s: Sym) -> Option<(Vec<Sym>, Sym)> {
    let ExprKind::Bin(BinOp::Eq, a, b) = &c.kind else {
        return None;
    };
    let (ExprKind::Ident(rest), ExprKind::Bin(BinOp::Minus, l, r)) = (&a.kind, &b.kind) else {
        return None;
    };
    let (ExprKind::Ident(t), ExprKind::SetExt(v)) = (&l.kind, &r.kind) else {
        return None;
    };
    let singles = v
        .iter()
        .map(|e| match e.kind {
            ExprKind::Ident(x) => Some(x),
            _ => None,
        })
        .collect::<Option<Vec<Sym>>>()?;
    (*t == s).then_some((singles, *rest))
}

#[cfg(test)]
mod tests {
    use crate::tests::count;

    /// `S` split into `{a}`, `{b}` and `P`, with `extra` PROPERTIES; `occ`
    /// grows by the elements of `S` one at a time.
    fn machine(extra: &str) -> String {
        format!(
            "MACHINE R SETS S CONSTANTS a, b, P
             PROPERTIES S = {{a}} \\/ {{b}} \\/ P & {{a}} /\\ {{b}} = {{}}
               & {{a}} /\\ P = {{}} & {{b}} /\\ P = {{}} {extra}
             VARIABLES occ INVARIANT occ <: S INITIALISATION occ := {{}}
             OPERATIONS add(x) = PRE x : S - occ THEN occ := occ \\/ {{x}} END END"
        )
    }

    /// The counts (root included) for `S` of `n` elements: one constants
    /// solution (`a`, `b` fixed up to symmetry, `P` the rest), the `2^n`
    /// subsets reached, and an `add` edge per subset and element left.
    fn expected(n: u32) -> (usize, usize) {
        let subsets = 1usize << n;
        let adds = n as usize * (subsets / 2);
        (1 + 1 + subsets, 1 + 1 + adds)
    }

    #[test]
    fn the_rest_part_keeps_the_default_size() {
        assert_eq!(count(&machine("")), expected(2));
    }

    #[test]
    fn a_rest_part_said_non_empty_needs_one_more_element() {
        assert_eq!(count(&machine("& P /= {}")), expected(3));
    }

    #[test]
    fn a_given_size_fills_the_rest_part() {
        assert_eq!(count(&machine("& card(S) = 4")), expected(4));
    }
}
