//! Pruned candidates of `x <: E` (`Gen::Subset`): the conjuncts checked
//! first once `x` is bound that say `x /\ A = {}` (`A /\ x = {}`, `A`
//! not mentioning `x`) drop `A`'s elements from `E`, and `card(x) = n`
//! (also at the end of a `+`/`-` chain: `card(x) + card(y) = 4`),
//! `card(x) <= n`, `<`, `>=`, `>` bound the subsets' sizes (ProB's
//! AbiKursWahl: 2^18 subsets per state, a few hundred admitted). Only the
//! subsets these conjuncts admit are produced, in the order of the full
//! enumeration (the masks over `E`'s sorted elements, ascending). A check
//! antitone in `x` drops the elements failing it alone (see `monotone`).
//!
//! Only the step's leading checks are read, past those that cannot fail
//! with a well-definedness error (see `carrier_wdfree`), so a subset left
//! out would have been rejected before any error could be met; an
//! evaluation that fails, or a result too large to hold, falls back to
//! the full enumeration: solutions and errors are those of the full
//! enumeration.

use super::bounds::mirror;
use super::plan::{chain_path, idents};
use crate::ast::*;
use crate::eval::Env;
use crate::value::Value;

/// At most this many subsets are produced (the full enumeration's own
/// limit is 2^24).
const MAX_SUBSETS: u64 = 1 << 22;

/// What the leading checks admit: elements of `E` left out, sizes.
struct Admit {
    without: Vec<Value>,
    lo: i64,
    hi: i64,
}

/// The subsets of `set` (sorted elements) admitted by the leading
/// conjuncts of `checks` about `x`, or `None` when none of them prunes or
/// a value cannot be had (the caller enumerates every subset).
pub fn pruned(
    x: Sym,
    set: &[Value],
    checks: &[&Expr],
    strict: bool,
    env: &mut Env,
) -> Option<Vec<Value>> {
    let mut adm = Admit {
        without: Vec::new(),
        lo: 0,
        hi: i64::MAX,
    };
    let mut any = false;
    for c in checks {
        let antitone = super::monotone::excluded(c, x, set, env).map(|out| {
            adm.without.extend(out.iter().flatten().cloned());
            adm.without.sort_unstable();
            out.is_some()
        });
        match antitone.or_else(|| read(c, x, &mut adm, env)) {
            Some(true) => any = true,
            Some(false) => return None,
            None if super::carrier_wdfree::wd_free(c) => continue,
            None => break,
        }
    }
    if !any {
        return None;
    }
    let kept: Vec<Value> = set
        .iter()
        .filter(|v| adm.without.binary_search(v).is_err())
        .cloned()
        .collect();
    let n = kept.len() as i64;
    let (lo, hi) = (adm.lo.max(0), adm.hi.min(n));
    if kept.len() > 63 || count(kept.len(), lo, hi)? > MAX_SUBSETS {
        return None;
    }
    let mut masks = Vec::new();
    for j in lo..=hi {
        with_popcount(kept.len() as u32, j as u32, &mut masks);
    }
    masks.sort_unstable();
    let subs = masks.into_iter().map(|m| {
        Value::set_sorted(
            kept.iter()
                .enumerate()
                .filter(|(i, _)| m & (1 << i) != 0)
                .map(|(_, v)| v.clone())
                .collect(),
        )
    });
    Some(
        subs.filter(|s| !strict || s.as_set().is_ok_and(|s| s.len() < set.len()))
            .collect(),
    )
}

/// Reads conjunct `c` into `adm`: `Some(true)` when it prunes,
/// `Some(false)` when a value it needs cannot be had, `None` when it is
/// not one of the shapes read.
fn read(c: &Expr, x: Sym, adm: &mut Admit, env: &mut Env) -> Option<bool> {
    let free = |e: &Expr| {
        let mut v = Vec::new();
        idents(e, &mut v);
        !v.contains(&x)
    };
    let is_card = |e: &Expr| is_card_of(e, x);
    let ExprKind::Bin(op, a, b) = &c.kind else {
        return None;
    };
    match op {
        BinOp::Eq => {
            if let Some(other) = disjoint_from(a, b, x).or_else(|| disjoint_from(b, a, x)) {
                if !free(other) {
                    return None;
                }
                let Ok(Value::Set(s)) = env.eval(other) else {
                    return Some(false);
                };
                adm.without.extend(s.iter().cloned());
                adm.without.sort_unstable();
                return Some(true);
            }
            let (side, other) = if chain_path(a, x, &is_card) && free(b) {
                (a, b)
            } else if chain_path(b, x, &is_card) && free(a) {
                (b, a)
            } else {
                return None;
            };
            let Ok(Value::Int(t)) = env.eval(other) else {
                return Some(false);
            };
            match env.invert_chain(side, x, t, &is_card) {
                Ok(Some(k)) => {
                    adm.lo = adm.lo.max(k);
                    adm.hi = adm.hi.min(k);
                    Some(true)
                }
                _ => Some(false),
            }
        }
        BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
            let (op, other) = if is_card(a) && free(b) {
                (*op, b)
            } else if is_card(b) && free(a) {
                (mirror(*op), a)
            } else {
                return None;
            };
            let Ok(Value::Int(n)) = env.eval(other) else {
                return Some(false);
            };
            match op {
                BinOp::Lt => adm.hi = adm.hi.min(n.saturating_sub(1)),
                BinOp::Le => adm.hi = adm.hi.min(n),
                BinOp::Gt => adm.lo = adm.lo.max(n.saturating_add(1)),
                _ => adm.lo = adm.lo.max(n),
            }
            Some(true)
        }
        _ => None,
    }
}

/// `card(x)`.
fn is_card_of(e: &Expr, x: Sym) -> bool {
    match &e.kind {
        ExprKind::Call(Builtin::Card, args) => {
            matches!(args.as_slice(), [a] if matches!(a.kind, ExprKind::Ident(s) if s == x))
        }
        _ => false,
    }
}

/// For `inter = empty` with `inter` being `x /\ A` or `A /\ x` and
/// `empty` the empty set: `A`.
pub(super) fn disjoint_from<'a>(inter: &'a Expr, empty: &Expr, x: Sym) -> Option<&'a Expr> {
    if !matches!(empty.kind, ExprKind::EmptySet) {
        return None;
    }
    let ExprKind::Bin(BinOp::Inter, p, q) = &inter.kind else {
        return None;
    };
    let is_x = |e: &Expr| matches!(e.kind, ExprKind::Ident(s) if s == x);
    if is_x(p) {
        Some(q)
    } else if is_x(q) {
        Some(p)
    } else {
        None
    }
}

/// The number of subsets of an `n`-set with `lo..=hi` elements (`None`
/// past `u64`).
fn count(n: usize, lo: i64, hi: i64) -> Option<u64> {
    let mut total: u64 = 0;
    let mut binom: u64 = 1; // C(n, j) for j = 0
    for j in 0..=hi.max(-1) {
        if j >= lo {
            total = total.checked_add(binom)?;
        }
        binom = binom.checked_mul(n as u64 - j as u64)? / (j as u64 + 1);
    }
    Some(total)
}

/// Appends the `n`-bit masks with `k` bits set, ascending (Gosper's hack).
fn with_popcount(n: u32, k: u32, out: &mut Vec<u64>) {
    if k == 0 {
        out.push(0);
        return;
    }
    let end = 1u64 << n;
    let mut v = (1u64 << k) - 1;
    while v < end {
        out.push(v);
        let c = v & v.wrapping_neg();
        let r = v + c;
        v = (((r ^ v) >> 2) / c) | r;
    }
}
