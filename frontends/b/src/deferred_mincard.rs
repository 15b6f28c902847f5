//! The least size of a deferred set `S` that a bijection or a surjection
//! in the PROPERTIES demands, when ProB infers it before solving:
//! `f : T >->> S` and `f : S >->> T` need `card(T)` elements,
//! `e : S -->> T` at least `card(T)`, `T` a set whose size is known
//! before solving (a product of `BOOL`, enumerated sets, intervals of
//! literals and deferred sets of known size). ProB's documentation
//! ("Deferred Sets") says that PROPERTIES other than `card(S) = n`
//! influence the size; ProB's counts of the Event-B record encodings,
//! where no size is given, show that it
//! infers this one when the default size is too small:
//!
//! - TestRecordInference: `make : BOOL * BOOL >->> BBREC` and `demake2 :
//!   BBREC2 >->> BOOL * BOOL` (2 states, 3 transitions: one solution,
//!   each set of 4 elements, each bijection fixed by `bijection`);
//! - SampleRecord_ctx: `make_rec1 : Nodes * Nodes >->> rec1` with `a :
//!   rec1 & b : rec1 & a /= b` (24 states: 4 * 3 pairs `a, b` beside the
//!   fixed bijection);
//! - RecordThreeFields_ctx: `(BOOL * Mode) * BOOL >->> Rec3` (12
//!   elements, 2 states);
//! - OpenRecordSimple_ctx: `fld1 >< fld2 : OPRec -->> BOOL * BOOL` (48
//!   states: the 24 surjections of a set of 4 elements, none dropped).
//!
//! A size that the default already meets stays (the other rules apply,
//! `setsize`). Owns that reading; the sizes are `setsize`'s.

use crate::ast::*;

/// The least number of elements of `s` that the conjunct `c` demands
/// (see the module comment); `size_of` gives the size of a set known
/// before solving.
pub fn least_size(c: &Expr, s: Sym, size_of: &dyn Fn(&Expr) -> Option<i64>) -> Option<i64> {
    let ExprKind::Bin(BinOp::In, _, space) = &c.kind else {
        return None;
    };
    let is_s = |e: &Expr| matches!(e.kind, ExprKind::Ident(x) if x == s);
    let names_s = |e: &Expr| {
        let mut ids = Vec::new();
        crate::solve::idents(e, &mut ids);
        ids.contains(&s)
    };
    match &space.kind {
        ExprKind::Bin(BinOp::Space(SpaceKind::TotalBij), a, b) if is_s(b) && !names_s(a) => {
            size_of(a)
        }
        ExprKind::Bin(BinOp::Space(SpaceKind::TotalBij | SpaceKind::TotalSurj), a, b)
            if is_s(a) && !names_s(b) =>
        {
            size_of(b)
        }
        _ => None,
    }
}

/// The size of the set `e` when it is known before solving: `BOOL`,
/// cartesian products (`*`), power sets (`POW`, `FIN`: Mengen_Gesetze_PowBool's
/// `bij : S >->> POW(BOOL)`) and intervals whose bounds are literals or
/// `card` of such sets; `named` gives the size of a set
/// named by an identifier (an enumerated or deferred set), if known.
pub fn known_size(e: &Expr, named: &dyn Fn(Sym) -> Option<i64>) -> Option<i64> {
    match &e.kind {
        ExprKind::Named(NamedSet::Bool) => Some(2),
        ExprKind::Ident(x) => named(*x),
        ExprKind::Bin(BinOp::Mul, a, b) => known_size(a, named)?.checked_mul(known_size(b, named)?),
        ExprKind::Call(Builtin::Pow | Builtin::Fin, a) if a.len() == 1 => 1i64.checked_shl(
            u32::try_from(known_size(&a[0], named)?)
                .ok()
                .filter(|&k| k < 62)?,
        ),
        ExprKind::Bin(BinOp::Interval, a, b) => {
            let (lo, hi) = (known_int(a, named)?, known_int(b, named)?);
            Some(hi.checked_sub(lo)?.checked_add(1)?.max(0))
        }
        _ => None,
    }
}

/// The value of the integer expression `e` when it is known before
/// solving: a literal, or `card(T)` of a set whose size is known
/// (`1..card(V)`: the InitialisationByPredicate models).
fn known_int(e: &Expr, named: &dyn Fn(Sym) -> Option<i64>) -> Option<i64> {
    match &e.kind {
        ExprKind::Int(n) => Some(*n),
        ExprKind::Call(Builtin::Card, a) if a.len() == 1 => known_size(&a[0], named),
        _ => None,
    }
}
