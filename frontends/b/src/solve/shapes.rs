//! Generators read from the shape of a conjunct beyond `x = E`, `x : S`,
//! `x <: S` (see the planner's list in `solve`; the first one competes
//! with those, the others are tried only when no generator, integer range
//! or boolean applies):
//!
//! * `P = E` (either way round), `P` a maplet of identifiers with some
//!   not yet bound (`(p |-> k) |-> i = lists(j)(n)`): the one candidate is
//!   `E`'s value taken apart along `P` (`Gen::Pattern`);
//! * `U = E` (either way round), `U` a union `a \/ b \/ ..` with the
//!   identifier `x`, not yet bound, among its operands and `E` finite:
//!   `x` is a subset of `E`, so it ranges over `E`'s subsets
//!   (`Gen::UnionPart`: the partitions `Terminals \/ NonTerminals =
//!   Alphabet`);
//! * `f : lo..x --> R` (a total space, so `dom(f) = lo..x`) with `f`
//!   and `lo` ready: `x` is the largest element of `dom(f)`
//!   (`Gen::DomainEnd`; `f` empty is unsupported);
//!
//! In each case every solution is among the candidates and the conjunct
//! stays a check, so the solutions are exactly the predicate's.

use super::plan::{operands, Cand, Gen};
use crate::ast::*;
use crate::eval::{Env, Fail, E};
use crate::value::Value;

/// What the planner knows of a binder: its identifiers, which are bound,
/// and whether an expression mentions only bound ones.
pub(super) struct Known<'a> {
    pub ids: &'a [Sym],
    pub bound: &'a [bool],
    pub ready: &'a dyn Fn(&Expr) -> bool,
}

impl Known<'_> {
    /// The identifier `e` is, if it is one of `ids` not yet bound.
    pub(super) fn unbound(&self, e: &Expr) -> Option<usize> {
        match e.kind {
            ExprKind::Ident(s) => self
                .ids
                .iter()
                .position(|&i| i == s)
                .filter(|&k| !self.bound[k]),
            _ => None,
        }
    }
}

/// `Gen::Pattern` for conjunct `c`, `a = b`: one side a maplet of
/// identifiers with some unbound, the other side `ready`.
pub(super) fn pattern(c: usize, (a, b): (&Expr, &Expr), kn: &Known) -> Option<Cand> {
    let ready = kn.ready;
    let vars = |p: &Expr| {
        if !matches!(p.kind, ExprKind::Bin(BinOp::Maplet, ..)) {
            return None;
        }
        let mut leaves = Vec::new();
        maplet_leaves(p, &mut leaves).then_some(())?;
        let mut ks: Vec<usize> = leaves.iter().filter_map(|l| kn.unbound(l)).collect();
        ks.sort_unstable();
        ks.dedup();
        let rest_ready = leaves.iter().all(|l| kn.unbound(l).is_some() || ready(l));
        (!ks.is_empty() && rest_ready).then_some(ks)
    };
    if ready(b) {
        if let Some(ks) = vars(a) {
            return Some((1, ks, Gen::Pattern { c, left: true }));
        }
    }
    if ready(a) {
        if let Some(ks) = vars(b) {
            return Some((1, ks, Gen::Pattern { c, left: false }));
        }
    }
    None
}

/// The leaves of a maplet `x |-> (y |-> E)`; `false` if one is itself a
/// binder (whose leaves would need renaming).
fn maplet_leaves<'a>(p: &'a Expr, out: &mut Vec<&'a Expr>) -> bool {
    match &p.kind {
        ExprKind::Bin(BinOp::Maplet, a, b) => maplet_leaves(a, out) && maplet_leaves(b, out),
        ExprKind::Quant { .. } => false,
        _ => {
            out.push(p);
            true
        }
    }
}

/// For `Gen::Pattern`: the value of `other` taken apart along the maplet
/// `pat`, the values of `vars` (leaves that are other expressions are
/// left to the conjunct's check).
pub(super) fn take_apart(
    pat: &Expr,
    other: &Expr,
    vars: &[Sym],
    env: &mut Env,
) -> E<Vec<Vec<Value>>> {
    let v = env.eval(other)?;
    let mut vals: Vec<Option<Value>> = vec![None; vars.len()];
    let mut clash = false;
    if !split(pat, v, vars, (&mut vals, &mut clash)) {
        return Err(Fail::Unsupported(
            "a maplet pattern that does not match the value it equals".into(),
            pat.pos,
        ));
    }
    // an identifier twice in the pattern with two values: no solution
    if clash {
        return Ok(Vec::new());
    }
    Ok(vals
        .into_iter()
        .collect::<Option<Vec<Value>>>()
        .into_iter()
        .collect())
}

/// Takes `v` apart along `p`; `false` if it has not `p`'s shape. An
/// identifier met twice with two values sets `clash`.
fn split(
    p: &Expr,
    v: Value,
    vars: &[Sym],
    (vals, clash): (&mut [Option<Value>], &mut bool),
) -> bool {
    match (&p.kind, v) {
        (ExprKind::Bin(BinOp::Maplet, a, b), Value::Pair(pv)) => {
            let (x, y) = (*pv).clone();
            split(a, x, vars, (&mut *vals, &mut *clash)) && split(b, y, vars, (vals, clash))
        }
        (ExprKind::Bin(BinOp::Maplet, ..), _) => false,
        (ExprKind::Ident(s), v) => {
            if let Some(k) = vars.iter().position(|x| x == s) {
                match &vals[k] {
                    Some(old) => *clash |= *old != v,
                    None => vals[k] = Some(v),
                }
            }
            true
        }
        _ => true,
    }
}

/// `Gen::UnionPart` for conjunct `c`, `a = b`: one side a union with an
/// unbound identifier among its operands, the other side `ready` and not
/// `infinite`.
/// `cs`: the binder's conjuncts, which may narrow the candidates (see
/// `fast_partition`).
pub(super) fn union_part(
    (c, cs): (usize, &[&Expr]),
    sides: (&Expr, &Expr),
    kn: &Known,
    infinite: &dyn Fn(&Expr) -> bool,
) -> Option<Cand> {
    let (k, left) = operand_of(sides, BinOp::Union, kn, &|e| !infinite(e))?;
    let union = if left { sides.0 } else { sides.1 };
    let narrow = super::fast_partition::narrow(kn.ids[k], union, cs, kn.ready);
    Some((3, vec![k], Gen::UnionPart { c, left, narrow }))
}

/// The first unbound identifier among the `op`-operands of one side of
/// `a = b` (`a \/ x \/ ..`) whose other side is `ready` and `fits`, and
/// whether that side is `a`.
pub(super) fn operand_of(
    (a, b): (&Expr, &Expr),
    op: BinOp,
    kn: &Known,
    fits: &dyn Fn(&Expr) -> bool,
) -> Option<(usize, bool)> {
    let pick = |u: &Expr, e: &Expr| {
        let shaped = matches!(&u.kind, ExprKind::Bin(o, ..) if *o == op);
        if !shaped || !(kn.ready)(e) || !fits(e) {
            return None;
        }
        let mut ops = Vec::new();
        operands(u, op, &mut ops);
        ops.iter().find_map(|o| kn.unbound(o))
    };
    pick(a, b)
        .map(|k| (k, true))
        .or_else(|| pick(b, a).map(|k| (k, false)))
}

/// `Gen::DomainEnd` for conjunct `c`, `f : lo..x --> R` (a total space:
/// `dom(f) = lo..x`) with `f` and `lo` ready and `x` unbound.
pub(super) fn domain_end(c: usize, (f, space): (&Expr, &Expr), kn: &Known) -> Option<Cand> {
    let ready = kn.ready;
    use SpaceKind::*;
    let ExprKind::Bin(
        BinOp::Space(TotalRel | TotalSurjRel | Total | TotalInj | TotalSurj | TotalBij),
        d,
        _,
    ) = &space.kind
    else {
        return None;
    };
    let ExprKind::Bin(BinOp::Interval, lo, hi) = &d.kind else {
        return None;
    };
    let k = kn.unbound(hi)?;
    (ready(f) && ready(lo)).then(|| (1, vec![k], Gen::DomainEnd { c }))
}

/// For `Gen::DomainEnd`: the one candidate for `x` in `f : lo..x --> R`,
/// the largest element of `dom(f)`; `f` empty leaves `x` free below `lo`
/// (unsupported).
pub(super) fn domain_last(f: &Expr, env: &mut Env) -> E<Vec<Value>> {
    let fv = env.eval(f)?;
    let pairs = fv.as_set().map_err(|m| Fail::Unsupported(m, f.pos))?;
    let mut last: Option<i64> = None;
    for p in pairs {
        match p {
            Value::Pair(pv) => {
                if let Value::Int(n) = pv.0 {
                    last = Some(last.map_or(n, |l| l.max(n)));
                    continue;
                }
                return Ok(Vec::new());
            }
            _ => return Ok(Vec::new()),
        }
    }
    match last {
        Some(n) => Ok(vec![Value::Int(n)]),
        None => Err(Fail::Unsupported(
            "solving `f : lo..x --> R` for `x` with `f` empty (any `x` below `lo`)".into(),
            f.pos,
        )),
    }
}

#[cfg(test)]
mod tests {
    //! Each shape on a small machine whose count is computed by hand.
    use crate::tests::{count, first_error};

    #[test]
    fn union_partition_ranges_over_subsets() {
        // t and n partition A: 2^3 = 8 constant solutions, one state each
        let m = "MACHINE U SETS A = {a, b, c} CONSTANTS t, n
                 PROPERTIES t \\/ n = A & t /\\ n = {}
                 VARIABLES x INITIALISATION x := card(t) END";
        // root + 8 constant states + 8 initialised states
        assert_eq!(count(m), (17, 16));
    }

    #[test]
    fn maplet_pattern_equation_takes_the_value_apart() {
        let m = "MACHINE P VARIABLES x INITIALISATION x := 0
                 OPERATIONS op(p, q) = SELECT (p |-> q) = ((x + 1) |-> 2) & x < 2
                 THEN x := p END END";
        // x = 0, 1, 2; op(1, 2) and op(2, 2)
        assert_eq!(count(m), (4, 3));
    }

    #[test]
    fn singleton_pattern_projects_a_membership() {
        let m = "MACHINE S CONSTANTS r PROPERTIES r = {{1} |-> 2, {3} |-> 4, {5, 6} |-> 7}
                 VARIABLES v INITIALISATION v := 0
                 OPERATIONS op(x) = PRE {x} : dom(r) THEN v := x END END";
        // root, constants, v = 0, 1, 3; op(1) and op(3) from each of 3
        assert_eq!(count(m), (5, 8));
    }

    #[test]
    fn inclusion_shows_a_superset_its_type() {
        // b ranges over its type POW(S), shown by a: b = {p} or {p, q}
        let m = "MACHINE T SETS S = {p, q} CONSTANTS a, b PROPERTIES a = {p} & a <: b
                 VARIABLES x INITIALISATION x := card(b) END";
        assert_eq!(count(m), (5, 4));
    }

    #[test]
    fn total_function_fixes_its_domain_end() {
        let m = |f: &str| {
            format!(
                "MACHINE E CONSTANTS f, n
                 PROPERTIES n : NATURAL1 & f : 1..n --> INTEGER & f = {f}
                 VARIABLES x INITIALISATION x := n END"
            )
        };
        // n = 3 only (MAXINT is 3: clipping would give the same)
        assert_eq!(count(&m("[4, 3, 7]")), (3, 2));
        // n = 5 lies beyond MAXINT
        assert_eq!(count(&m("[4, 3, 7, 1, 1]")), (3, 2));
        let e = first_error(&m("[]")).expect("f empty");
        assert!(e.contains("with `f` empty"), "{e}");
    }

    #[test]
    fn compared_unbounded_integers_are_clipped_together() {
        // ProB labels hi (declared first) in 2..MAXINT, then lo in
        // 1..hi-1: 3 pairs (see `range_pushed`)
        let m = |extra: &str| {
            format!(
                "MACHINE B CONSTANTS hi, lo, w PROPERTIES lo > 0 & lo < hi {extra}
                 VARIABLES x INITIALISATION x := hi - lo END"
            )
        };
        assert_eq!(count(&m("& w = 0")), (7, 6));
        // lo declared first: lo = MAXINT has hi = MAXINT + 1, refused
        let first = "MACHINE B CONSTANTS lo, hi PROPERTIES lo > 0 & lo < hi
                     VARIABLES x INITIALISATION x := hi - lo END";
        assert!(first_error(first).is_some());
        // a bound to propagate: 1 <= lo < hi <= 9, 36 pairs, no clipping
        assert_eq!(count(&m("& hi <= 9 & w = 0")), (73, 72));
        // a chain through a third identifier: not clipped (unsupported
        // when the constants are set up)
        let e = first_error(&m("& hi < 2 * w & w > 0")).expect("no plan");
        assert!(e.contains("cannot enumerate 'hi'"), "{e}");
    }

    #[test]
    fn domain_end_of_an_unknown_function_is_clipped() {
        // ProB clips n to 1..MAXINT (3): 2 + 4 + 8 functions into BOOL
        let m = "MACHINE C CONSTANTS n, f PROPERTIES 0 < n & f : 1..n --> BOOL
                 VARIABLES x INITIALISATION x := n END";
        assert_eq!(count(m), (29, 28));
    }
}
