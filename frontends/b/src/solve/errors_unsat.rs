//! A well-definedness error met while solving the PROPERTIES is not
//! ProB's answer when a conjunct naming no constant is false: ProB's
//! solver may find the PROPERTIES false first and count no state
//! (Hansen5's WD_Tests_ctx: `1 = 2 <=> #x.(1/0 = x & x : {})` beside
//! `1/0 : {}`, which ProB takes as false without dividing; 0 states).
//! Such an error becomes a refusal. A membership in the empty set
//! written `E : {}` counts as false here without evaluating `E`.
//!
//! Owns only this check; it decides nothing when the error is alone.

use super::plan::{conjuncts, idents};
use crate::ast::*;
use crate::eval::{Env, Fail};

/// `f`, or a refusal when `f` is a well-definedness error and a closed
/// conjunct of `pred` (naming none of `ids`) is false.
pub fn false_beside_wd(f: Fail, ids: &[Sym], pred: &Expr, env: &mut Env) -> Fail {
    let Fail::Wd(m, at) = &f else {
        return f;
    };
    for c in conjuncts(pred) {
        let mut used = Vec::new();
        idents(c, &mut used);
        if used.iter().any(|s| ids.contains(s)) {
            continue;
        }
        if in_empty_set(c) || matches!(env.holds(c), Ok(false)) {
            return Fail::Unsupported(
                format!("{m}, in PROPERTIES with a conjunct false without any constant (ProB may find them false and count no state)"),
                *at,
            );
        }
    }
    f
}

/// `E : {}`, false whatever `E` is.
fn in_empty_set(c: &Expr) -> bool {
    matches!(&c.kind, ExprKind::Bin(BinOp::In, _, s) if matches!(s.kind, ExprKind::EmptySet))
}
