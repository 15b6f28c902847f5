//! A deferred set listed by constants said pairwise distinct: `S = {a1,
//! .., ak}` or Event-B's `partition(S, {a1}, .., {ak})` (translated to
//! `S = {a1} \/ .. \/ {ak}` and `{ai} /\ {aj} = {}`), in a context other
//! than the one declaring `S` (the same context's is an enumerated set
//! already: `eventb::project`).
//!
//! ProB's documentation ("Deferred Sets") names `AA = {aa, bb} & aa /=
//! bb` among the PROPERTIES that size `AA`: `S` has `k` elements. Its
//! static symmetry reduction then leaves one value to the `ai` (`symmetry`:
//! each takes the first element none before it took, the `ai` being
//! distinct), and ProB may instead make `S` an enumerated set of the `ai`:
//! the two readings give the same constant solutions for the other
//! constants, so the same counts, as long as a SETUP_CONSTANTS step stays.
//! It stays when a conjunct that is not such a listing, a membership `x :
//! T` or a distinctness names another constant (train_ctx0_prob's `fst :
//! ROUTES --> BLOCKS` beside `partition(BLOCKS, {A}, .., {I})`). Without
//! one ProB may drop the step (the ModeProtocolMachine models: one state
//! and one transition fewer). In an Event-B export ProB drops it when it
//! fixes every constant ([`fixed_as_enumerated`]) and keeps it otherwise:
//! KuratowskiPairDefinition_Enum (`partition(S1, {a}, {b}, {c})` and `x,
//! y, u, v : S1`: 81 solutions, 162 states and transitions),
//! DSAOCSSv003's ModeProtocolMachine (`STAGES` and `SUGGESTIONLEVELS`
//! listed, three constants of `MODES` and two of `MANAGERS` said distinct
//! and not listed: one solution, 62,617 states, 185,288 transitions). In
//! classical B it is refused (`symmetry`).
//!
//! Owns the recognition of these listings; `setsize` sizes the set.

use crate::ast::*;

/// `[a1, .., ak]` when `c` is `S = {a1} \/ .. \/ {ak}` (either way
/// round, `k >= 2`), the `ai` distinct constants.
pub fn singleton_union(c: &Expr, s: Sym, consts: &[Sym]) -> Option<Vec<Sym>> {
    let union = equated_to(c, s)?;
    let mut xs = Vec::new();
    singletons(union, consts, &mut xs)?;
    (xs.len() >= 2).then_some(xs)
}

/// `E` when `c` is `S = E` or `E = S`.
pub fn equated_to(c: &Expr, s: Sym) -> Option<&Expr> {
    let ExprKind::Bin(BinOp::Eq, a, b) = &c.kind else {
        return None;
    };
    match (&a.kind, &b.kind) {
        (ExprKind::Ident(x), _) if *x == s => Some(b),
        (_, ExprKind::Ident(x)) if *x == s => Some(a),
        _ => None,
    }
}

fn singletons(e: &Expr, consts: &[Sym], out: &mut Vec<Sym>) -> Option<()> {
    match &e.kind {
        ExprKind::Bin(BinOp::Union, a, b) => {
            singletons(a, consts, out)?;
            singletons(b, consts, out)
        }
        ExprKind::SetExt(v) if v.len() == 1 => match v[0].kind {
            ExprKind::Ident(x) if consts.contains(&x) && !out.contains(&x) => {
                out.push(x);
                Some(())
            }
            _ => None,
        },
        _ => None,
    }
}

/// Whether a conjunct of `all` keeps ProB's SETUP_CONSTANTS step however
/// it reads the listing of `listed`: it names a constant (of `consts`)
/// not in `listed` and is not a membership of identifiers, a
/// distinctness or a listing itself (see the module comment).
pub fn setup_stays(all: &[&Expr], consts: &[Sym], listed: &[Sym]) -> bool {
    all.iter().any(|c| {
        let mut ids = Vec::new();
        crate::solve::idents(c, &mut ids);
        let other = ids
            .iter()
            .any(|x| consts.contains(x) && !listed.contains(x));
        other && !elementary(c)
    })
}

/// `x : T`, `x /= y`, `not(x = y)`, `{x} /\ {y} = {}` over identifiers,
/// or `S = {..}` / `S = {x} \/ ..`.
fn elementary(c: &Expr) -> bool {
    let ident = |e: &Expr| matches!(e.kind, ExprKind::Ident(_));
    let single = |e: &Expr| matches!(&e.kind, ExprKind::SetExt(v) if v.len() == 1 && ident(&v[0]));
    match &c.kind {
        ExprKind::Bin(BinOp::In | BinOp::Neq, a, b) => ident(a) && ident(b),
        ExprKind::Call(Builtin::Not, v) => {
            matches!(v.first().map(|e| &e.kind), Some(ExprKind::Bin(BinOp::Eq, a, b)) if ident(a) && ident(b))
        }
        ExprKind::Bin(BinOp::Eq, a, b) => {
            let inter = |e: &Expr| matches!(&e.kind, ExprKind::Bin(BinOp::Inter, x, y) if single(x) && single(y));
            let listing = |e: &Expr| match &e.kind {
                ExprKind::SetExt(v) => v.iter().all(ident),
                ExprKind::Bin(BinOp::Union, ..) => true,
                _ => false,
            };
            (inter(a) && matches!(b.kind, ExprKind::EmptySet))
                || (ident(a) && listing(b))
                || (listing(a) && ident(b))
        }
        _ => false,
    }
}

/// Adds `ai : S` for every `S = {a1} \/ .. \/ {ak}` conjunct of a
/// deferred set `S` (which implies them), giving the `ai` the finite
/// range the solver needs.
pub fn type_listed(machines: &mut [Machine]) {
    let deferred = crate::deferred_given::deferred_sets(machines);
    let consts = crate::deferred_given::constants(machines);
    for m in machines.iter_mut() {
        let mut typing = Vec::new();
        for c in m.properties.iter().flat_map(crate::solve::conjuncts) {
            for &s in &deferred {
                for x in singleton_union(c, s, &consts).unwrap_or_default() {
                    let ident = |y| {
                        Box::new(Expr {
                            kind: ExprKind::Ident(y),
                            pos: c.pos,
                        })
                    };
                    typing.push(Expr {
                        kind: ExprKind::Bin(BinOp::In, ident(x), ident(s)),
                        pos: c.pos,
                    });
                }
            }
        }
        m.properties.extend(typing);
    }
}

/// Whether every conjunct of `all` is a membership of identifiers, a
/// distinctness or a listing (see `elementary`).
pub fn all_elementary(all: &[&Expr]) -> bool {
    all.iter().all(|c| elementary(c))
}

/// Whether ProB fixes every constant as an element of an enumerated set,
/// without a SETUP_CONSTANTS step: the PROPERTIES are elementary, list
/// some deferred set, and every constant (no machine parameter) is either
/// in the listing of its set, whose constants are pairwise distinct, or
/// the only constant element of its set, in an Event-B export (as its
/// contexts' enumerated sets: `eventb::project`). ProB's counts: two
/// ModeProtocolMachine models (8,352 states, 22,045 transitions: no step,
/// where ours had one more of each), SetLaws (512 states, 2,305
/// transitions). Classical B keeps the step (DeferredSetAndConstants2: 2
/// states, 2 transitions), not modelled: refused (`symmetry`).
/// `groups`: per deferred set (`deferred`), the indices of its constant
/// elements (`symmetry`).
pub fn fixed_as_enumerated(
    all: &[&Expr],
    consts: &[Sym],
    params: &[Sym],
    deferred: &[Sym],
    groups: &[Vec<usize>],
) -> bool {
    let covered = groups.iter().map(Vec::len).sum::<usize>() == consts.len();
    let sets_ok = deferred.iter().zip(groups).all(|(&s, g)| {
        if g.len() < 2 {
            return true;
        }
        let Some(mut xs) = distinct_listing(all, consts, s) else {
            return false;
        };
        let mut mine: Vec<Sym> = g.iter().map(|&k| consts[k]).collect();
        mine.sort_unstable();
        xs.sort_unstable();
        mine == xs
    });
    !consts.is_empty()
        && params.iter().all(|p| !consts.contains(p))
        && listing_alone(all, consts, deferred)
        && covered
        && sets_ok
}

/// Whether the PROPERTIES `all` are elementary and list some deferred
/// set by constants said pairwise distinct.
pub fn listing_alone(all: &[&Expr], consts: &[Sym], deferred: &[Sym]) -> bool {
    all_elementary(all)
        && deferred
            .iter()
            .any(|&s| distinct_listing(all, consts, s).is_some())
}

/// The constants of a listing of `s` (`S = {..}`, `S = {a} \/ ..`) among
/// `all`, when every pair of them is said distinct.
fn distinct_listing(all: &[&Expr], consts: &[Sym], s: Sym) -> Option<Vec<Sym>> {
    let xs = all.iter().find_map(|c| {
        crate::setsize::listing(c, s, consts).or_else(|| singleton_union(c, s, consts))
    })?;
    (xs.len() >= 2 && pairwise_distinct(all, &xs)).then_some(xs)
}

/// Whether `all` say every two of `xs` distinct.
fn pairwise_distinct(all: &[&Expr], xs: &[Sym]) -> bool {
    let pairs = crate::setsize::distinct_pairs(all.iter().copied(), xs);
    let said = |i: usize, j: usize| pairs.contains(&(i, j)) || pairs.contains(&(j, i));
    (0..xs.len()).all(|i| (0..i).all(|j| said(i, j)))
}
