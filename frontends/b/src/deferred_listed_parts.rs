//! A deferred set partitioned into sets listed by constants and one or
//! more constant parts: `S = {a, b, c} \/ {d, e, f} \/ G \/ H` with every
//! two parts said disjoint (Event-B's `partition(S, {a, b, c}, {d, e, f},
//! G, H)`), some listed part of two constants or more (singletons alone
//! are `deferred_rest`'s and `deferred_singletons`'s). The conjunct is
//! read as `x : S` for each listed constant, `x /= y` for constants of
//! two different listed parts (their disjointness says so), and `G \/ H
//! = S - {a, .., f}`, which the disjointness makes equivalent to it. The
//! listed constants are then enumerated as `symmetry` enumerates constant
//! elements (MACE order), and `S` needs at least the largest clique of
//! them said distinct plus one element per constant part said non-empty
//! (`least_by_listed_parts`), ProB raising its default size to that, as
//! for partitions into non-empty parts (`deferred_parts`).
//!
//! With two constant parts or more, ProB's allocation of the free
//! elements (`partition`: those no listed constant can take) to the parts
//! is not modelled: refused when `S` has two elements or more beyond the
//! constants listed (`check_free`; a single free element goes to any
//! part under that order).
//!
//! ProB's count: TestPartitionDeferredSetCardMch (`a, b, c` distinct,
//! `d /= f`, `H /= {}`: `DEFSET` of 5 + 1 = 6 elements, the machine's
//! theorem `card(DEFSET) >= 6`; 2 solutions, 4 states and 6 transitions;
//! with 7 elements 7 solutions).
//!
//! Owns that reading (a rewrite of the PROPERTIES before the sets are
//! sized); the sizes are `setsize`'s.

use crate::ast::*;

/// A part of the union: a set listed by constants, or a constant.
#[derive(Debug, PartialEq)]
enum Part {
    Listed(Vec<Sym>),
    Set(Sym),
}

fn part(e: &Expr, consts: &[Sym]) -> Option<Part> {
    let constant = |e: &Expr| match e.kind {
        ExprKind::Ident(x) if consts.contains(&x) => Some(x),
        _ => None,
    };
    match &e.kind {
        ExprKind::SetExt(v) => v
            .iter()
            .map(constant)
            .collect::<Option<_>>()
            .map(Part::Listed),
        _ => constant(e).map(Part::Set),
    }
}

fn parts(e: &Expr, consts: &[Sym], out: &mut Vec<Part>) -> Option<()> {
    match &e.kind {
        ExprKind::Bin(BinOp::Union, a, b) => {
            parts(a, consts, out)?;
            parts(b, consts, out)
        }
        _ => {
            out.push(part(e, consts)?);
            Some(())
        }
    }
}

/// Whether `c` is `X /\ Y = {}` (either order, either side) of the parts
/// `x` and `y`.
fn says_disjoint(c: &Expr, x: &Part, y: &Part, consts: &[Sym]) -> bool {
    let ExprKind::Bin(BinOp::Eq, l, r) = &c.kind else {
        return false;
    };
    let inter = |e: &Expr| match &e.kind {
        ExprKind::Bin(BinOp::Inter, a, b) => match (part(a, consts), part(b, consts)) {
            (Some(a), Some(b)) => (&a, &b) == (x, y) || (&a, &b) == (y, x),
            _ => false,
        },
        _ => false,
    };
    let empty = |e: &Expr| matches!(e.kind, ExprKind::EmptySet);
    (inter(l) && empty(r)) || (inter(r) && empty(l))
}

/// The listed parts and the constant parts when `c` is such a union of
/// `s` (see the module comment).
fn listed_parts(
    c: &Expr,
    s: Sym,
    consts: &[Sym],
    all: &[&Expr],
) -> Option<(Vec<Vec<Sym>>, Vec<Sym>)> {
    let union = crate::deferred_singletons::equated_to(c, s)?;
    let mut ps = Vec::new();
    parts(union, consts, &mut ps)?;
    let disjoint = ps.iter().enumerate().all(|(i, x)| {
        ps[..i]
            .iter()
            .all(|y| x != y && all.iter().any(|c| says_disjoint(c, x, y, consts)))
    });
    let (mut listed, mut sets) = (Vec::new(), Vec::new());
    for p in ps {
        match p {
            Part::Listed(xs) => listed.push(xs),
            Part::Set(a) => sets.push(a),
        }
    }
    let wide = listed.iter().any(|xs| xs.len() >= 2);
    (disjoint && wide && !sets.is_empty() && !sets.contains(&s)).then_some((listed, sets))
}

/// Rewrites every such conjunct of a deferred set (see the module
/// comment) in the machines' PROPERTIES.
pub fn read_listed_parts(machines: &mut [Machine]) {
    crate::deferred_rest::rewrite_properties(machines, &|c, deferred, consts, all| {
        let (listed, sets, s) = deferred
            .iter()
            .find_map(|&s| listed_parts(c, s, consts, all).map(|(l, r)| (l, r, s)))?;
        Some(reading(&listed, &sets, s, c.pos))
    });
}

/// `x : S` for each listed `x`, `x /= y` across listed parts, and `A1 \/
/// .. \/ Am = S - {listed}`.
fn reading(listed: &[Vec<Sym>], sets: &[Sym], s: Sym, pos: Pos) -> Expr {
    let mk = |kind| Expr { kind, pos };
    let ident = |x| Box::new(mk(ExprKind::Ident(x)));
    let bin = |op, a, b| mk(ExprKind::Bin(op, a, b));
    let mut xs: Vec<Sym> = Vec::new();
    for &x in listed.iter().flatten() {
        if !xs.contains(&x) {
            xs.push(x);
        }
    }
    let members = xs.iter().map(|&x| bin(BinOp::In, ident(x), ident(s)));
    let mut apart = Vec::new();
    for (i, p) in listed.iter().enumerate() {
        for q in &listed[..i] {
            for &x in p {
                apart.extend(q.iter().map(|&y| bin(BinOp::Neq, ident(x), ident(y))));
            }
        }
    }
    let rest = sets
        .iter()
        .map(|&a| mk(ExprKind::Ident(a)))
        .reduce(|a, b| bin(BinOp::Union, Box::new(a), Box::new(b)))
        .expect("a constant part");
    let named = mk(ExprKind::SetExt(
        xs.iter().map(|&x| mk(ExprKind::Ident(x))).collect(),
    ));
    let rest_is = bin(
        BinOp::Eq,
        Box::new(rest),
        Box::new(bin(BinOp::Minus, ident(s), Box::new(named))),
    );
    members
        .chain(apart)
        .chain([rest_is])
        .reduce(|a, b| bin(BinOp::And, Box::new(a), Box::new(b)))
        .expect("the rest's equation")
}

/// `([x1, .., xj], [A1, .., Am])` when `c` is `A1 \/ .. \/ Am = S - {x1,
/// .., xj}`, the `Ai` said pairwise disjoint (the reading above, or
/// `deferred_rest`'s of one part beside singletons).
fn read_back(c: &Expr, s: Sym, all: &[&Expr]) -> Option<(Vec<Sym>, Vec<Sym>)> {
    let ExprKind::Bin(BinOp::Eq, a, b) = &c.kind else {
        return None;
    };
    let ExprKind::Bin(BinOp::Minus, l, r) = &b.kind else {
        return None;
    };
    let (ExprKind::Ident(t), ExprKind::SetExt(v)) = (&l.kind, &r.kind) else {
        return None;
    };
    let ident = |e: &Expr| match e.kind {
        ExprKind::Ident(x) => Some(x),
        _ => None,
    };
    let xs = v.iter().map(ident).collect::<Option<Vec<Sym>>>()?;
    let mut sets = Vec::new();
    crate::solve::idents(a, &mut sets);
    (*t == s && pairwise_disjoint(all, &sets)).then_some((xs, sets))
}

/// Whether conjuncts of `all` say every two of the constant parts `sets`
/// disjoint.
fn pairwise_disjoint(all: &[&Expr], sets: &[Sym]) -> bool {
    let consts = sets;
    sets.iter().enumerate().all(|(i, &a)| {
        sets[..i].iter().all(|&b| {
            all.iter()
                .any(|c| says_disjoint(c, &Part::Set(a), &Part::Set(b), consts))
        })
    })
}

/// The least size of `s` that such a reading demands: the largest clique
/// of listed constants said distinct, plus one per constant part said
/// non-empty; 0 without one.
pub fn least_by_listed_parts(all: &[&Expr], s: Sym) -> i64 {
    all.iter()
        .filter_map(|c| read_back(c, s, all))
        .filter_map(|(xs, sets)| {
            let pairs = crate::setsize::distinct_pairs(all.iter().copied(), &xs);
            let clique = crate::setsize::largest_clique(xs.len(), &pairs)?;
            let full = sets
                .iter()
                .filter(|&&a| {
                    all.iter()
                        .any(|c| crate::deferred_parts::says_nonempty(c, a))
                })
                .count();
            Some((clique + full) as i64)
        })
        .max()
        .unwrap_or(0)
}

/// Refuses `s` of `n` elements when a reading leaves two free elements
/// or more (past the constants listed) to two constant parts or more:
/// ProB's order between them (`partition`) is not modelled here. One
/// free element may go to any part under that order.
pub fn check_free(all: &[&Expr], s: Sym, n: i64) -> Result<(), String> {
    match all
        .iter()
        .filter_map(|c| read_back(c, s, all))
        .find(|(xs, sets)| sets.len() >= 2 && n > xs.len() as i64 + 1)
    {
        Some((xs, sets)) => Err(format!(
            "a partition into {} listed constants and {} parts, {n} elements (ProB's allocation of the free elements)",
            xs.len(),
            sets.len()
        )),
        None => Ok(()),
    }
}
