//! Generators read from case splits, tried when no other generator gives
//! an identifier `x` candidates:
//!
//! * `D1 or D2 or ..` with `x = Ei` among each `Di`'s conjuncts and `Ei`
//!   known (`time = 180 & time_n = 120 or time = 120 & time_n = 90`,
//!   TLA+ translations): every solution satisfies some `Di`, so `x` is
//!   one of the `Ei` (those of the disjuncts whose known conjuncts hold),
//!   `Gen::Cases`;
//! * `A1 => B1`, `A2 => B2`, .. with `x = Ei` among each `Bi`'s conjuncts
//!   and `Ai`, `Ei` known (`(draw = "opened" => state_n = "unlocked") &
//!   (not(draw = "opened") => state_n = "waiting")`): the one candidate
//!   is the `Ei` of the first `Ai` that holds; when none holds `x` is not
//!   fixed and that is unsupported, `Gen::Implied`.
//!
//! The conjuncts stay checks, so the solutions are exactly the
//! predicate's.

use super::plan::{conjuncts, operands, Cand, Gen};
use super::shapes::Known;
use super::typing::Witness;
use crate::ast::*;
use crate::eval::{Env, Fail, E};
use crate::value::Value;

/// The `Ei` of `x = Ei` (either way round) among `p`'s conjuncts with
/// `Ei` known.
fn fixed<'a>(p: &'a Expr, k: usize, kn: &Known) -> Option<&'a Expr> {
    conjuncts(p).into_iter().find_map(|c| match &c.kind {
        ExprKind::Bin(BinOp::Eq, a, b) if kn.unbound(a) == Some(k) && (kn.ready)(b) => Some(&**b),
        ExprKind::Bin(BinOp::Eq, a, b) if kn.unbound(b) == Some(k) && (kn.ready)(a) => Some(&**a),
        _ => None,
    })
}

/// `Gen::Cases` for conjunct `c` and unbound identifier `k`: `c` is a
/// disjunction each of whose operands fixes `k`.
pub(super) fn cases(c: usize, e: &Expr, k: usize, kn: &Known) -> Option<Cand> {
    if !matches!(e.kind, ExprKind::Bin(BinOp::Or, ..)) {
        return None;
    }
    let mut ds = Vec::new();
    operands(e, BinOp::Or, &mut ds);
    ds.iter().all(|d| fixed(d, k, kn).is_some()).then(|| {
        let fallback = Vec::new();
        (8, vec![k], Gen::Cases { c, fallback })
    })
}

/// `Gen::Implied` for unbound identifier `k`: the conjuncts `cs` (not yet
/// `open` ones excluded) `A => B` with `A` known and `B` fixing `k`.
pub(super) fn implied(
    cs: &[&Expr],
    open: &dyn Fn(usize) -> bool,
    k: usize,
    kn: &Known,
) -> Option<Cand> {
    let arms: Vec<usize> = (0..cs.len())
        .filter(|&c| open(c))
        .filter(|&c| match &cs[c].kind {
            ExprKind::Bin(BinOp::Implies, a, b) => (kn.ready)(a) && fixed(b, k, kn).is_some(),
            _ => false,
        })
        .collect();
    let fallback = Vec::new();
    (!arms.is_empty()).then(|| (8, vec![k], Gen::Implied { arms, fallback }))
}

/// `gen` (a split) with the typing witnesses `ws` as its fallback.
pub(super) fn with_fallback(gen: Gen, ws: Vec<Witness>) -> Gen {
    match gen {
        Gen::Cases { c, .. } => Gen::Cases { c, fallback: ws },
        Gen::Implied { arms, .. } => Gen::Implied { arms, fallback: ws },
        other => other,
    }
}

/// For `Gen::Cases`: the values of the `Ei` of the disjuncts of `e`
/// (a superset of `x`'s values in the solutions). An `Ei` that cannot be
/// evaluated (its disjunct's other conjuncts may be what makes it
/// well-defined) is unsupported.
pub(super) fn case_values(e: &Expr, x: Sym, env: &mut Env) -> E<Vec<Value>> {
    let mut ds = Vec::new();
    operands(e, BinOp::Or, &mut ds);
    let mut out = Vec::new();
    for d in ds {
        for c in conjuncts(d) {
            match value_of(c, x, env) {
                Ok(Some(v)) => {
                    out.push(v);
                    break;
                }
                Ok(None) => {}
                Err(f) => return Err(undecided(f)),
            }
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// The value of `E` when `c` is `x = E` (either way round).
fn value_of(c: &Expr, x: Sym, env: &mut Env) -> E<Option<Value>> {
    let is_x = |e: &Expr| matches!(e.kind, ExprKind::Ident(s) if s == x);
    match &c.kind {
        ExprKind::Bin(BinOp::Eq, a, b) if is_x(a) && !is_x(b) => env.eval(b).map(Some),
        ExprKind::Bin(BinOp::Eq, a, b) if is_x(b) => env.eval(a).map(Some),
        _ => Ok(None),
    }
}

/// For `Gen::Implied`: the `Ei` of the first arm whose antecedent holds.
pub(super) fn implied_value(arms: &[&Expr], x: Sym, env: &mut Env) -> E<Vec<Value>> {
    for arm in arms {
        let ExprKind::Bin(BinOp::Implies, a, b) = &arm.kind else {
            continue;
        };
        if !env.holds(a).map_err(undecided)? {
            continue;
        }
        for c in conjuncts(b) {
            if let Some(v) = value_of(c, x, env).map_err(undecided)? {
                return Ok(vec![v]);
            }
        }
    }
    let pos = arms.first().map(|a| a.pos).unwrap_or_default();
    Err(Fail::Unsupported(
        "an identifier fixed only under implications whose antecedents are all false".into(),
        pos,
    ))
}

/// A failure while reading a case's value, which the case's own check
/// might have avoided (a well-definedness error ProB need not meet):
/// unsupported.
fn undecided(f: Fail) -> Fail {
    match f {
        Fail::Wd(m, p) => Fail::Unsupported(format!("a case split whose value fails: {m}"), p),
        f => f,
    }
}

#[cfg(test)]
mod tests {
    //! Case splits on small machines counted by hand.
    use crate::tests::{count, first_error};

    #[test]
    fn a_disjunction_of_equations_gives_its_values() {
        // t cycles 0 -> 2 -> 1 -> 0 through the disjuncts
        let m = "MACHINE T VARIABLES t INVARIANT t : 0..2 INITIALISATION t := 0
                 OPERATIONS step = ANY t_n WHERE
                   (t = 0 & t_n = 2) or (t = 2 & t_n = 1) or (t = 1 & t_n = 0)
                 THEN t := t_n END END";
        assert_eq!(count(m), (4, 4));
    }

    #[test]
    fn complementary_implications_fix_the_value() {
        let m = |second: &str| {
            format!(
                "MACHINE I VARIABLES d, s INVARIANT d : BOOL & s : 0..2
                 INITIALISATION d := FALSE || s := 0
                 OPERATIONS flip = BEGIN d := bool(d = FALSE) END;
                 set = ANY s_n WHERE (d = TRUE => s_n = 1) & ({second} => s_n = 2)
                 THEN s := s_n END END"
            )
        };
        // (d, s): (F,0) (T,0) (F,2) (T,1) (T,2) (F,1); flip 6, set 6, init 1
        assert_eq!(count(&m("d = FALSE")), (7, 13));
        // d = FALSE leaves s_n free: unsupported when met
        let e = first_error(&m("1 = 2")).expect("s_n free");
        assert!(e.contains("antecedents are all false"), "{e}");
    }
}
