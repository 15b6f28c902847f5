//! Enumerating an identifier fixed in every case of a disjunction: in
//! `(dx = x+1 & dy = y+2) or (dx = x-1 & dy = y-2) or ..` (KnightsTour's
//! moves), in a TLA+ translation's `sendVote(i) or abortOnVote(i) or ..`
//! (each case `.. & participant_n = E`), the identifier `x` ranges over the
//! values the cases give it: those of `x = E` (`E = x`) or the elements of
//! `x : S` (`S` finite) in a case, where `E`, `S` mention only identifiers
//! already bound. A case is a conjunction; its conjuncts before the one
//! that fixes `x`, when ready, are checked first (a false one drops the
//! case, so `i : dom(f) & x = f(i)` never applies `f` outside its domain);
//! a ready conjunct `P => Q` whose `P` holds fixes `x` by `Q`'s cases
//! (`(r = [] => t = []) & (r /= [] => t = tail(r))`).
//!
//! Sound because every solution satisfies some case of the disjunction,
//! and so gives `x` one of that case's values; the disjunction stays a
//! check (the candidates are only a finite superset, deduplicated).
//!
//! Owns the shape test (planning) and the candidates (enumeration).

use super::plan::{conjuncts, idents, operands};
use crate::ast::*;
use crate::eval::{Env, Fail, E};
use crate::value::Value;

/// Whether conjunct `p` fixes `x` in each of its cases, by `ready`
/// expressions (`x` itself is not ready).
pub fn fixes(p: &Expr, x: Sym, ready: &dyn Fn(&Expr) -> bool) -> bool {
    let mut cases = Vec::new();
    operands(p, BinOp::Or, &mut cases);
    cases.len() > 1 && cases.iter().all(|q| case_fixes(q, x, ready))
}

fn case_fixes(q: &Expr, x: Sym, ready: &dyn Fn(&Expr) -> bool) -> bool {
    conjuncts(q)
        .iter()
        .any(|c| gives(c, x, ready).is_some() || fixes(c, x, ready) || implies_fixes(c, x, ready))
}

/// Whether conjunct `c` is `P => Q` with `P` ready and `Q` fixing `x`.
pub fn implies_fixes(c: &Expr, x: Sym, ready: &dyn Fn(&Expr) -> bool) -> bool {
    matches!(&c.kind, ExprKind::Bin(BinOp::Implies, p, q)
        if ready(p) && case_fixes(q, x, ready))
}

/// What conjunct `c` gives `x` directly: `x = E` (the value of `E`,
/// `false`) or `x : S` (`S`'s elements, `true`).
fn gives<'a>(c: &'a Expr, x: Sym, ready: &dyn Fn(&Expr) -> bool) -> Option<(&'a Expr, bool)> {
    let is_x = |e: &Expr| matches!(e.kind, ExprKind::Ident(s) if s == x);
    match &c.kind {
        ExprKind::Bin(BinOp::Eq, a, b) if is_x(a) && ready(b) => Some((b, false)),
        ExprKind::Bin(BinOp::Eq, a, b) if is_x(b) && ready(a) => Some((a, false)),
        ExprKind::Bin(BinOp::In, a, b) if is_x(a) && ready(b) && !super::plan::infinite(b) => {
            Some((b, true))
        }
        _ => None,
    }
}

/// The candidates of `x` from conjunct `p` (which `fixes` it), or from
/// the whole conjunction `cs` when `p` is `None` (one of its conjuncts is
/// `P => Q` with `Q` fixing `x`: `implies_fixes`), every identifier of
/// `unbound` (and `x`) being unbound: sorted, distinct.
pub fn candidates(
    p: Option<&Expr>,
    cs: &[&Expr],
    x: Sym,
    unbound: &[Sym],
    env: &mut Env,
) -> E<Vec<Value>> {
    let ready = |e: &Expr| {
        let mut v = Vec::new();
        idents(e, &mut v);
        !v.iter().any(|s| *s == x || unbound.contains(s))
    };
    let mut out = Vec::new();
    let found = match p {
        Some(p) => disjunction(p, x, &ready, env, &mut out),
        None => case(cs, x, &ready, env, &mut out),
    };
    found.map_err(|f| match f {
        Fail::Unsupported(..) => f,
        // every solution meets the conjunction `cs` whose left-to-right
        // evaluation failed: its well-definedness error is the model's
        // (ExtremaFinding_normalized, as ProB)
        Fail::Wd(..) if p.is_none() => f,
        Fail::Wd(m, pos) => Fail::Unsupported(
            format!("a case of a disjunction fixing an identifier is undefined ({m})"),
            pos,
        ),
    })?;
    out.sort();
    out.dedup();
    Ok(out)
}

fn disjunction(
    p: &Expr,
    x: Sym,
    ready: &dyn Fn(&Expr) -> bool,
    env: &mut Env,
    out: &mut Vec<Value>,
) -> E<()> {
    let mut cases = Vec::new();
    operands(p, BinOp::Or, &mut cases);
    cases
        .into_iter()
        .try_for_each(|q| case(&conjuncts(q), x, ready, env, out))
}

/// The candidates from one case (a conjunction), none when a ready
/// conjunct before the one fixing `x` is false.
fn case(
    cs: &[&Expr],
    x: Sym,
    ready: &dyn Fn(&Expr) -> bool,
    env: &mut Env,
    out: &mut Vec<Value>,
) -> E<()> {
    for &c in cs {
        if let Some((e, set)) = gives(c, x, ready) {
            if set {
                out.extend(env.elements(e)?);
            } else {
                out.push(env.eval(e)?);
            }
            return Ok(());
        }
        if fixes(c, x, ready) {
            return disjunction(c, x, ready, env, out);
        }
        if let ExprKind::Bin(BinOp::Implies, p, q) = &c.kind {
            if ready(p) && case_fixes(q, x, ready) {
                if env.holds(p)? {
                    return disjunction(q, x, ready, env, out);
                }
                continue;
            }
        }
        // `y : NAT` is a typing, not checked (see `plan::is_int_typing`)
        let typing = matches!(&c.kind, ExprKind::Bin(BinOp::In, a, b)
            if matches!(a.kind, ExprKind::Ident(_)) && super::plan::is_integer_set(&b.kind));
        if ready(c) && !typing && !env.holds(c)? {
            return Ok(());
        }
    }
    let pos = cs.first().map_or_else(Pos::default, |c| c.pos);
    Err(Fail::Unsupported(UNFIXED.into(), pos))
}

const UNFIXED: &str = "no conjunct of a case fixes the identifier it generates";

/// Whether `f` says that no antecedent `P` of `P => Q` held (the plan's
/// type witnesses may then give the candidates).
pub fn unfixed(f: &Fail) -> bool {
    matches!(f, Fail::Unsupported(m, _) if m == UNFIXED)
}

#[cfg(test)]
mod tests {
    use crate::tests::count;

    #[test]
    fn identifiers_fixed_in_every_case_of_a_disjunction() {
        // z and m fixed in each case: 2 constants states, each initialised;
        // a third case z : {7, 8} gives both elements
        let m = "MACHINE D CONSTANTS z, m
                 PROPERTIES (z = 1 & m = 1) or (m = 2 & z = 5)
                 VARIABLES v INVARIANT v : INTEGER INITIALISATION v := z END";
        assert_eq!(count(m), (5, 4));
        let m = "MACHINE D CONSTANTS z
                 PROPERTIES z = 1 or (z : {7, 8} & z > 7)
                 VARIABLES v INVARIANT v : INTEGER INITIALISATION v := z END";
        assert_eq!(count(m), (5, 4));
    }

    #[test]
    fn identifier_fixed_under_implications() {
        // t is tail(r) while r is not empty, [] after: [1, 2] -> [2] -> []
        // -> [] (a self loop)
        let m = "MACHINE I VARIABLES r INVARIANT r : seq(0..3) INITIALISATION r := [1, 2]
                 OPERATIONS drop = ANY t WHERE t : seq(0..3) &
                   (r = [] => t = []) & (r /= [] => t = tail(r)) THEN r := t END END";
        assert_eq!(count(m), (4, 4));
    }
}
