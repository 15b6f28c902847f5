//! Enumerating an identifier over the domain of a function applied to it:
//! in `prm > 2 & val = locVar(prm)` (ProB's CBC_M), `route(f)(i) = n`,
//! `Examples(i)'input = y`, the identifier `x` of an application `f(x)`,
//! with `f` ready, ranges over `dom(f)` (over its projections on `x`'s
//! place for `f(y |-> x)`, NFA's `delta(cur, input)`), as in ProB, whose solver reads
//! `f(x) = y` as `x |-> y : f` and so never draws `x` outside `dom(f)`.
//!
//! Sound because the application is in a *strict* position of a conjunct:
//! one evaluated whenever the conjunct holds (not under `or`, `=>`, `<=>`,
//! `not`, a quantifier, an `IF` or a `bool`), so every solution has `x` in
//! `dom(f)` (outside it the conjunct is false in a guard and ill-defined
//! elsewhere). The conjunct stays a check.
//!
//! Owns the search for such applications (planning) and the domain's
//! elements (enumeration). An identifier typed by `NATURAL`, `NATURAL1` or
//! `INTEGER` is left to the others (see `Planner::applied`).

use super::typing::{at, pattern_projs, project};
use crate::ast::*;
use crate::eval::{Env, Fail, E};
use crate::value::{self as v, Value};

/// The path (as read by `typing::at`) from conjunct `e` to the function
/// `f` of an application `f(x)` in a strict position with `f` `ready`.
pub fn function_of(e: &Expr, x: Sym, ready: &dyn Fn(&Expr) -> bool) -> Option<Vec<u8>> {
    let mut path = Vec::new();
    search(e, x, ready, &mut path).then_some(path)
}

fn search(e: &Expr, x: Sym, ready: &dyn Fn(&Expr) -> bool, path: &mut Vec<u8>) -> bool {
    use ExprKind::*;
    if let Apply(f, a) = &e.kind {
        if pattern_projs(a, x).is_some() && ready(f) {
            path.push(0);
            return true;
        }
    }
    let mut within = |i: u8, sub: &Expr| {
        path.push(i);
        let found = search(sub, x, ready, path);
        if !found {
            path.pop();
        }
        found
    };
    match &e.kind {
        Bin(BinOp::Or | BinOp::Implies | BinOp::Equiv, ..) => false,
        Bin(_, a, b) | Apply(a, b) | Image(a, b) => within(0, a) || within(1, b),
        Call(_, args) | SetExt(args) | SeqExt(args) => args
            .iter()
            .enumerate()
            .take(u8::MAX as usize)
            .any(|(i, a)| within(i as u8, a)),
        Neg(a) | Inverse(a) | Field(a, _) => within(0, a),
        _ => false,
    }
}

/// The elements of `dom(f)`, `f` at `path` in conjunct `c`, applied to
/// `x`; applied to a maplet pattern (`delta(cur, x)`), their projections
/// on `x`'s place.
pub fn candidates(c: &Expr, path: &[u8], x: Sym, env: &mut Env) -> E<Vec<Value>> {
    let mismatch = || Fail::Unsupported("an applied function's path does not match".into(), c.pos);
    let f = at(c, path).ok_or_else(mismatch)?;
    let app = at(c, &path[..path.len().saturating_sub(1)]).ok_or_else(mismatch)?;
    let projs = match &app.kind {
        ExprKind::Apply(_, a) => pattern_projs(a, x).ok_or_else(mismatch)?,
        _ => return Err(mismatch()),
    };
    let r = env.eval(f)?;
    let dom = r
        .as_set()
        .and_then(v::dom)
        .map_err(|m| Fail::Unsupported(m, f.pos))?;
    let dom = dom.as_set().map_err(|m| Fail::Unsupported(m, f.pos))?;
    if projs.is_empty() {
        return Ok(dom.to_vec());
    }
    let places: std::collections::BTreeSet<Value> = dom
        .iter()
        .filter_map(|d| project(d.clone(), &projs))
        .collect();
    Ok(places.into_iter().collect())
}

#[cfg(test)]
mod tests {
    use crate::tests::count;

    #[test]
    fn parameter_in_a_maplet_argument() {
        // `input` (an integer) ranges over the second places of dom(delta)
        // (NFA's Go): root, the constants, cur = z0, z1; setup, init, two
        // moves from each state
        let m = "MACHINE N SETS S = {z0, z1} CONSTANTS delta
                 PROPERTIES delta = {(z0 |-> 0) |-> {z1}, (z0 |-> 1) |-> {z0},
                   (z1 |-> 0) |-> {z0, z1}, (z1 |-> 1) |-> {}}
                 VARIABLES cur INVARIANT cur : S INITIALISATION cur := z0
                 OPERATIONS go(input, zz) = PRE zz : delta(cur, input) THEN cur := zz END END";
        assert_eq!(count(m), (4, 6));
    }
}
