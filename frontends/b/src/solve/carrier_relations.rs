//! Candidates of a relation `r : A <-> B` of more pairs than the full
//! enumeration takes (2^24 relations), pruned as a subset of `A * B` by
//! the conjuncts checked once `r` is bound (see `subsets`: `card(r) = 1`,
//! `card(r) < 6`, `r /\ C = {}`): StateExplosion's `rr : (-3..3) <->
//! (-3..3) & dom(rr) = {0} & card(rr) = 1`, FindAttacks' `attacks :
//! ARGUMENTS <-> ARGUMENTS & .. & card(attacks) < 6`, as ProB's solver
//! propagates the cardinality before it enumerates.
//!
//! A check antitone in `r` (see `monotone`: ForAllExpansion's `r : ID <->
//! ID`, 2^25 relations) prunes a relation space of any size.
//!
//! Every relation left out fails one of those conjuncts; the candidates
//! keep the full enumeration's order (the set of all relations, sorted). A value that cannot be had, or no
//! pruning conjunct, leaves the caller's full enumeration (and its
//! refusal).
//!
//! Owns that hook; the pruning is `subsets`', the image equations
//! `carrier_images`'.

use crate::ast::*;
use crate::eval::Env;
use crate::value::{self as v, Value};

/// Up to this many pairs the full enumeration is the caller's.
const FULL: usize = 24;

/// The relations `r : space` (a plain relation space `A <-> B` of more
/// than [`FULL`] pairs, or with a check antitone in `r`) that the
/// conjuncts `checks` of `cs` admit; `None` when they prune nothing or a
/// value cannot be had.
pub fn pruned(
    r: Sym,
    space: &Expr,
    cs: &[&Expr],
    checks: &[usize],
    env: &mut Env,
) -> Option<Vec<Value>> {
    let ExprKind::Bin(BinOp::Space(SpaceKind::Rel), a, b) = &space.kind else {
        return None;
    };
    let checks: Vec<&Expr> = checks.iter().map(|&c| cs[c]).collect();
    let a = env.elements(a).ok()?;
    let b = env.elements(b).ok()?;
    let antitone = checks.iter().any(|c| super::monotone::antitone_in(c, r));
    if a.len().checked_mul(b.len())? <= FULL && !antitone {
        return None;
    }
    let pairs = v::cartesian(&a, &b);
    let pairs = pairs.as_set().ok()?;
    let mut rs = super::subsets::pruned(r, pairs, &checks, false, env)?;
    rs.sort_unstable();
    Some(rs)
}
