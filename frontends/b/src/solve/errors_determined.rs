//! ProB's left-to-right pass over the guard typing an operation's
//! parameters, for the one well-definedness error it reports there (see
//! `wd`): a generator `x = E` (or `E = x`) whose `E` applies a function
//! outside its domain, reached with every conjunct before it holding, or
//! only posting a domain for a parameter not yet fixed. `E` may name
//! parameters ProB's propagation has fixed before it: by an earlier
//! generator, or by integer bounds leaving a single value (a CLP(FD)
//! domain of one value binds the variable). BarRel_CXCC_Feb08's
//! `ReceiveImpAck`: `n : NODES & i : NATURAL1 & i + 2 <= size(route) &
//! route(i) = n & p : DataPackets & ether(route(i + 2)) = p & ...` fixes
//! `i = 1`, then `n`, and applies `ether = {}` outside its domain in the
//! initial state, although our plan (which enumerates `n` first and fails
//! on a later `n : dom(pout)`) never evaluates that application.
//!
//! The same pass finds ProB's CLP(FD) overflow, in a guard or in the
//! PROPERTIES ProB could not otherwise solve (`wd::closed_wd`): a closed
//! integer beyond 64 bits compared with arithmetic on identifiers not
//! fixed yet, which ProB posts as a constraint of its solver (whose
//! integers are bounded), as in diophantisch_hoch_vier.
//!
//! The pass stops, claiming nothing, at the first conjunct it cannot
//! read so (the solver then decides the guard, its function
//! applications making conjuncts false), at a conjunct that is false or
//! ill-defined otherwise, and at a fixed value that an earlier conjunct
//! rejects. Owns only this pass.

use crate::ast::*;
use crate::eval::{Env, Fail, E};

/// The error ProB reports while posting the conjuncts of `pred` (typing
/// the parameters or constants `ids`) in order, if any (see the
/// module's doc).
pub fn prob_order(ids: &[Sym], pred: &Expr, env: &mut Env) -> E<()> {
    let base = env.locals.len();
    let r = walk(ids, pred, env);
    env.locals.truncate(base);
    r
}

/// The parameters fixed so far and the integer bounds posted.
struct Pass<'i> {
    ids: &'i [Sym],
    fixed: Vec<Sym>,
    posted: Vec<usize>,
    bounds: Vec<(Sym, Option<i64>, Option<i64>)>,
}

fn walk(ids: &[Sym], pred: &Expr, env: &mut Env) -> E<()> {
    let cs = super::conjuncts(pred);
    let mut p = Pass {
        ids,
        fixed: Vec::new(),
        posted: Vec::new(),
        bounds: Vec::new(),
    };
    for (j, c) in cs.iter().enumerate() {
        let open = p.open(c);
        if open.is_empty() {
            if !matches!(env.holds(c), Ok(true)) {
                return Ok(());
            }
            continue;
        }
        if let Some((x, e)) = generator(c, &open) {
            match env.eval(e) {
                Ok(v) => {
                    if !p.fix(x, v, &cs, env) {
                        return Ok(());
                    }
                    continue;
                }
                Err(Fail::Wd(m, at)) if m.starts_with("function appl") => {
                    return Err(Fail::Wd(m, at))
                }
                Err(_) => return Ok(()),
            }
        }
        if open.len() == 1 && typing(c, open[0], env) {
            p.posted.push(j);
            continue;
        }
        let Some((x, lo, hi)) = (open.len() == 1).then(|| bound(c, open[0], env)).flatten() else {
            return clpfd_overflow(c, &open, env);
        };
        p.posted.push(j);
        if let Some(v) = p.narrow(x, lo, hi) {
            if !p.fix(x, crate::value::Value::Int(v), &cs, env) {
                return Ok(());
            }
        }
    }
    Ok(())
}

impl Pass<'_> {
    /// The parameters `c` names that are not fixed yet.
    fn open(&self, c: &Expr) -> Vec<Sym> {
        let mut used = Vec::new();
        super::idents(c, &mut used);
        used.retain(|s| self.ids.contains(s) && !self.fixed.contains(s));
        used.dedup();
        used
    }

    /// Fixes `x` to `v`; false when a conjunct posted before, now closed,
    /// does not hold (ProB fails there).
    fn fix(&mut self, x: Sym, v: crate::value::Value, cs: &[&Expr], env: &mut Env) -> bool {
        env.locals.push((x, v));
        self.fixed.push(x);
        let posted = std::mem::take(&mut self.posted);
        for &j in &posted {
            if self.open(cs[j]).is_empty() && !matches!(env.holds(cs[j]), Ok(true)) {
                return false;
            }
        }
        self.posted = posted
            .into_iter()
            .filter(|&j| !self.open(cs[j]).is_empty())
            .collect();
        true
    }

    /// Posts `lo <= x <= hi`; the single value left, if so.
    fn narrow(&mut self, x: Sym, lo: Option<i64>, hi: Option<i64>) -> Option<i64> {
        let k = match self.bounds.iter().position(|b| b.0 == x) {
            Some(k) => k,
            None => {
                self.bounds.push((x, None, None));
                self.bounds.len() - 1
            }
        };
        let b = &mut self.bounds[k];
        b.1 = b.1.max(lo);
        b.2 = match (b.2, hi) {
            (Some(a), Some(h)) => Some(a.min(h)),
            (a, h) => a.or(h),
        };
        match (b.1, b.2) {
            (Some(l), Some(h)) if l == h => Some(l),
            _ => None,
        }
    }
}

/// ProB's CLP(FD) overflow: `c` equates or compares a closed integer
/// side beyond 64 bits (ProB's own integers are unbounded, its solver's
/// domains are not) with arithmetic on open identifiers, which ProB must
/// post as a constraint (diophantisch_hoch_vier's `a**4 + b**4 + c**4 =
/// d**4` with `a`, `b`, `c` fixed and `d` open).
fn clpfd_overflow(c: &Expr, open: &[Sym], env: &mut Env) -> E<()> {
    use BinOp::*;
    let ExprKind::Bin(Eq | Neq | Lt | Le | Gt | Ge, a, b) = &c.kind else {
        return Ok(());
    };
    let arithmetic = |e: &Expr| {
        let mut used = Vec::new();
        super::idents(e, &mut used);
        matches!(
            e.kind,
            ExprKind::Bin(Plus | Minus | Mul | Div | Mod | Power, ..)
        ) && used.iter().any(|s| open.contains(s))
    };
    let closed = |e: &Expr| {
        let mut used = Vec::new();
        super::idents(e, &mut used);
        !used.iter().any(|s| open.contains(s))
    };
    for (side, other) in [(a, b), (b, a)] {
        if closed(side) && arithmetic(other) {
            if let Err(Fail::Unsupported(m, at)) = env.eval(side) {
                if m == crate::eval::BEYOND_64_BITS {
                    return Err(Fail::Wd(CLPFD_OVERFLOW.into(), at));
                }
            }
        }
    }
    Ok(())
}

/// The message of ProB's CLP(FD) overflow.
pub const CLPFD_OVERFLOW: &str =
    "integer overflow in a constraint (ProB's CLPFD_integer_overflow: the value is beyond its solver's integers)";

/// `x = E` or `E = x` with `x` the only open parameter, not in `E`.
fn generator<'e>(c: &'e Expr, open: &[Sym]) -> Option<(Sym, &'e Expr)> {
    let ExprKind::Bin(BinOp::Eq, a, b) = &c.kind else {
        return None;
    };
    let [x] = open else {
        return None;
    };
    let is_x = |e: &Expr| matches!(e.kind, ExprKind::Ident(s) if s == *x);
    match (is_x(a), is_x(b)) {
        (true, false) => Some((*x, b)),
        (false, true) => Some((*x, a)),
        _ => None,
    }
}

/// Whether `c` is `x : S` with `S` a non-integer set known not empty (a
/// set's name, an extension, their unions, intersections and
/// differences, evaluated), naming no open parameter.
fn typing(c: &Expr, x: Sym, env: &mut Env) -> bool {
    let ExprKind::Bin(BinOp::In, a, s) = &c.kind else {
        return false;
    };
    fn plain(s: &Expr) -> bool {
        match &s.kind {
            ExprKind::Ident(_)
            | ExprKind::SetExt(_)
            | ExprKind::Named(NamedSet::Bool | NamedSet::String) => true,
            ExprKind::Bin(BinOp::Union | BinOp::Inter | BinOp::Minus, l, r) => plain(l) && plain(r),
            _ => false,
        }
    }
    matches!(a.kind, ExprKind::Ident(y) if y == x)
        && plain(s)
        && env
            .eval(s)
            .is_ok_and(|v| v.as_set().is_ok_and(|m| !m.is_empty()))
}

/// The integer bounds `c` posts on `x`: an integer typing (`NATURAL1`,
/// `a..b`...) or `x + k op E` (`x`, `x - k`, `k + x`) with `k`, `E`
/// closed.
fn bound(c: &Expr, x: Sym, env: &mut Env) -> Option<(Sym, Option<i64>, Option<i64>)> {
    let ExprKind::Bin(op, a, b) = &c.kind else {
        return None;
    };
    let is_x = |e: &Expr| matches!(e.kind, ExprKind::Ident(s) if s == x);
    if *op == BinOp::In && is_x(a) {
        let (lo, hi) = match &b.kind {
            ExprKind::Named(NamedSet::Natural) => (Some(0), None),
            ExprKind::Named(NamedSet::Natural1) => (Some(1), None),
            ExprKind::Named(NamedSet::Nat) => (Some(0), Some(env.w.maxint)),
            ExprKind::Named(NamedSet::Nat1) => (Some(1), Some(env.w.maxint)),
            ExprKind::Bin(BinOp::Interval, l, h) => (Some(int(l, env)?), Some(int(h, env)?)),
            _ => return None,
        };
        return Some((x, lo, hi));
    }
    // x + k op r, or r op x + k (read as x + k op' r)
    let (side, r, op) = match (offset(a, x, env), offset(b, x, env)) {
        (Some(k), None) => (k, int(b, env)?, *op),
        (None, Some(k)) => (k, int(a, env)?, mirror(*op)?),
        _ => return None,
    };
    let v = r.checked_sub(side)?;
    Some(match op {
        BinOp::Le => (x, None, Some(v)),
        BinOp::Lt => (x, None, Some(v.checked_sub(1)?)),
        BinOp::Ge => (x, Some(v), None),
        BinOp::Gt => (x, Some(v.checked_add(1)?), None),
        _ => return None,
    })
}

fn mirror(op: BinOp) -> Option<BinOp> {
    Some(match op {
        BinOp::Le => BinOp::Ge,
        BinOp::Lt => BinOp::Gt,
        BinOp::Ge => BinOp::Le,
        BinOp::Gt => BinOp::Lt,
        _ => return None,
    })
}

/// `k` when `e` is `x + k` (`x`, `x - k`, `k + x`) with `k` closed.
fn offset(e: &Expr, x: Sym, env: &mut Env) -> Option<i64> {
    let is_x = |e: &Expr| matches!(e.kind, ExprKind::Ident(s) if s == x);
    match &e.kind {
        _ if is_x(e) => Some(0),
        ExprKind::Bin(BinOp::Plus, a, b) if is_x(a) => int(b, env),
        ExprKind::Bin(BinOp::Plus, a, b) if is_x(b) => int(a, env),
        ExprKind::Bin(BinOp::Minus, a, b) if is_x(a) => int(b, env)?.checked_neg(),
        _ => None,
    }
}

/// The value of the closed integer expression `e` (no open parameter:
/// those are not bound, so evaluating fails).
fn int(e: &Expr, env: &mut Env) -> Option<i64> {
    env.eval(e).ok()?.as_int().ok()
}

#[cfg(test)]
mod tests {
    use crate::tests_deferred::explore;

    /// ProB's BarRel_CXCC_Feb08 in small: `i` is fixed to 1 by its
    /// bounds and `n` by `route(i) = n`, so `ether(route(i + 2))` with
    /// `ether = {}` is a model error in the initial state, although a
    /// later conjunct (`n : dom(pout)`) is false.
    #[test]
    fn fixed_parameters_make_the_application_an_error() {
        let e = explore(&machine("i + 2 <= size(route)", "i + 2")).unwrap_err();
        assert!(e.contains("function applied outside its domain"), "{e}");
        assert!(e.contains("t.mch:7:"), "{e}");
    }

    /// With two values of `i` (ProB labels them after posting every
    /// conjunct, and `n : dom(pout)` fails first) the application only
    /// makes the guard false: no transition, no error.
    #[test]
    fn a_choice_before_keeps_the_guard_false() {
        // the root, the constants and the initialised state: no transition of ack
        assert_eq!(
            explore(&machine("i + 1 <= size(route)", "i + 1")),
            Ok((3, 2))
        );
    }

    /// A closed side beyond 64 bits against arithmetic on an open
    /// constant is ProB's CLP(FD) overflow; with the constant fixed, a
    /// plain comparison of ProB's unbounded integers (false here).
    #[test]
    fn a_closed_side_beyond_64_bits_overflows_the_constraint() {
        let m = |d: &str| {
            format!(
                "MACHINE t CONSTANTS a, d PROPERTIES a : NATURAL1 & d : NATURAL1 &
                 a = 3000000 {d} & a**4 = d**4 + 1 END"
            )
        };
        let e = explore(&m("")).unwrap_err();
        assert!(
            e.contains("CLPFD_integer_overflow") && e.contains("t.mch:2:"),
            "{e}"
        );
        let e = explore(&m("& d = 2")).unwrap_err();
        assert!(!e.contains("CLPFD"), "{e}");
    }

    /// A fixed value an earlier typing rejects fails there first.
    #[test]
    fn a_rejected_value_stops_the_pass() {
        let m = machine("i + 2 <= size(route)", "i + 2").replace("n : N &", "n : N - {k0} &");
        assert_eq!(explore(&m), Ok((3, 2)));
    }

    fn machine(bound: &str, at: &str) -> String {
        format!(
            "MACHINE t SETS N = {{k0, k1, k2}}; P = {{p1, p2}}
            CONSTANTS route PROPERTIES route = [k0, k1, k2]
            VARIABLES ether, pout INVARIANT ether : N +-> P & pout : N +-> P
            INITIALISATION ether := {{}} || pout := {{}}
            OPERATIONS
              ack(n, i, p) = PRE n : N & i : NATURAL1 & {bound} &
                route(i) = n & p : P & ether(route({at})) = p &
                n : dom(pout) & pout(n) = p THEN pout := {{n}} <<| pout END
            END"
        )
    }
}
