//! Deciding `#xs.(P)` when no generator gives its identifiers a finite
//! range but each is an integer typed by `x : INTEGER` (`NATURAL`,
//! `NATURAL1`) among `P`'s conjuncts (`#x.(x : INTEGER & (x : 2..mx & x
//! mod d = 0 => Q))`): the candidates in `MININT..MAXINT` (within the
//! typing set) are tried in order, and a witness proves the formula
//! true, whatever the order in which ProB's constraint solver would find
//! one. Failing a witness there, the formula is left undecided (the
//! caller's `unsupported`): it may hold beyond the window. A candidate
//! whose evaluation fails also leaves it undecided, since ProB need not
//! evaluate that candidate.
//!
//! Dually, `!xs.(P => Q)` with each identifier so typed among `P`'s
//! conjuncts is decided false by a counterexample in the window (`!x,y,z.
//! (x : INTEGER & .. & x * y = x * z => y = z)` with `x = 0`, Abrial's
//! hybrid contexts), and left undecided otherwise.
//!
//! An identifier without such a typing conjunct is an integer too when it
//! is an operand of `/`, `mod`, `<`, `<=`, `>`, `>=`, `..` or unary `-`
//! in the quantifier, or of `*` in an Event-B model (whose cartesian
//! product is another operator): it gets the whole window (`!x,y,z.(x * y
//! = x * z => y = z)` as Rodin exports it without typing).

use super::plan::conjuncts;
use crate::ast::*;
use crate::eval::Env;

/// The most candidate tuples tried.
const MOST_TUPLES: usize = 4096;

/// Whether every identifier of `ids` is typed by `x : INTEGER`
/// (`NATURAL`, `NATURAL1`) among `pred`'s conjuncts: `#ids.(pred)` is
/// then decided by a witness in the window when one lies there.
pub fn window_typed(ids: &[Sym], pred: &Expr, whole: &Expr, event_b: bool) -> bool {
    let cs = conjuncts(pred);
    ids.iter()
        .all(|&x| window_of(x, &cs, whole, event_b).is_some())
}

/// How `x` is typed for the window: the least element of its typing set
/// (`None` for `INTEGER` or an operand of arithmetic in `whole`), if it
/// is an integer.
fn window_of(x: Sym, cs: &[&Expr], whole: &Expr, event_b: bool) -> Option<Option<i64>> {
    cs.iter()
        .find_map(|c| integer_typing(c, x))
        .or_else(|| arithmetic_operand(whole, x, event_b).then_some(None))
}

/// Whether `x` is an operand of an integer-only operator in `e` (and no
/// quantifier inside `e` binds it again).
fn arithmetic_operand(e: &Expr, x: Sym, event_b: bool) -> bool {
    use BinOp::*;
    let is_x = |e: &Expr| matches!(e.kind, ExprKind::Ident(s) if s == x);
    let (mut found, mut rebound) = (false, false);
    crate::compile::visit(e, &mut |e| match &e.kind {
        ExprKind::Bin(op, a, b) => {
            let int_op =
                matches!(op, Div | Mod | Lt | Le | Gt | Ge | Interval) || (*op == Mul && event_b);
            found |= int_op && (is_x(a) || is_x(b));
        }
        ExprKind::Neg(a) => found |= is_x(a),
        ExprKind::Quant { ids, .. } => rebound |= ids.contains(&x),
        _ => {}
    });
    found && !rebound
}

/// `Some(true)` when a witness of `#ids.(pred)` lies in the window; `None`
/// when the identifiers are not all typed by an infinite integer set, or
/// no witness lies there.
pub fn exists_in_window(ids: &[Sym], pred: &Expr, env: &mut Env) -> Option<bool> {
    let cs = conjuncts(pred);
    let event_b = in_event_b(pred, env);
    let all = |env: &mut Env| {
        cs.iter().try_fold(true, |all, c| match all {
            true => env.holds(c),
            false => Ok(false),
        })
    };
    find_in_window(ids, (&cs, pred, event_b), env, &all)
}

/// `Some(false)` when a counterexample of `!ids.(dom => body)` lies in the
/// window; `None` otherwise (as `exists_in_window`).
pub fn forall_refuted_in_window(
    ids: &[Sym],
    dom: &Expr,
    body: &Expr,
    env: &mut Env,
) -> Option<bool> {
    let cs = conjuncts(dom);
    let event_b = in_event_b(dom, env);
    let whole = Expr {
        kind: ExprKind::Bin(
            BinOp::Implies,
            Box::new(dom.clone()),
            Box::new(body.clone()),
        ),
        pos: dom.pos,
    };
    let refutes = |env: &mut Env| {
        for c in &cs {
            if !env.holds(c)? {
                return Ok(false);
            }
        }
        Ok(!env.holds(body)?)
    };
    find_in_window(ids, (&cs, &whole, event_b), env, &refutes).map(|_| false)
}

/// `Some(true)` when `test` holds for a tuple of `ids` in the window (each
/// typed by a conjunct of `cs` or by its uses in `whole`, see
/// `window_of`); `None` when none does, or a test fails.
fn find_in_window(
    ids: &[Sym],
    (cs, whole, event_b): (&[&Expr], &Expr, bool),
    env: &mut Env,
    test: &dyn Fn(&mut Env) -> crate::eval::E<bool>,
) -> Option<bool> {
    let (lo, hi) = (env.w.minint, env.w.maxint);
    let mut windows = Vec::with_capacity(ids.len());
    for &x in ids {
        let low = window_of(x, cs, whole, event_b)?;
        windows.push((low.map_or(lo, |l| l.max(lo)), hi));
    }
    let sizes: Vec<usize> = windows
        .iter()
        .map(|&(l, h)| usize::try_from(h - l + 1).unwrap_or(0))
        .collect();
    let total = sizes
        .iter()
        .try_fold(1usize, |acc, &n| acc.checked_mul(n))
        .filter(|&t| t <= MOST_TUPLES)?;
    for i in 0..total {
        let base = env.locals.len();
        let mut rest = i;
        for (k, &(l, _)) in windows.iter().enumerate() {
            let n = rest % sizes[k];
            rest /= sizes[k];
            let n = i64::try_from(n).ok()?;
            env.locals.push((ids[k], crate::value::Value::Int(l + n)));
        }
        let holds = test(env);
        env.locals.truncate(base);
        match holds {
            Ok(true) => return Some(true),
            Ok(false) => {}
            Err(_) => return None,
        }
    }
    None
}

/// Whether `e` is in an Event-B model.
fn in_event_b(e: &Expr, env: &Env) -> bool {
    env.w
        .files
        .get(usize::from(e.pos.file))
        .is_some_and(|f| crate::is_event_b(f))
}

/// For `c` being `x : INTEGER` (`NATURAL`, `NATURAL1`): the typing set's
/// least element (`None` for `INTEGER`).
fn integer_typing(c: &Expr, x: Sym) -> Option<Option<i64>> {
    let ExprKind::Bin(BinOp::In, a, s) = &c.kind else {
        return None;
    };
    if !matches!(a.kind, ExprKind::Ident(y) if y == x) {
        return None;
    }
    match s.kind {
        ExprKind::Named(NamedSet::Integer) => Some(None),
        ExprKind::Named(NamedSet::Natural) => Some(Some(0)),
        ExprKind::Named(NamedSet::Natural1) => Some(Some(1)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    //! Existentials over unbounded integers, counted by hand.
    use crate::tests::{count, first_error};

    #[test]
    fn a_witness_in_the_window_decides_the_existential() {
        // #x.(x : INTEGER & (x : 2..10 => x > 100)) holds (x = -1): op
        // is enabled in both states (n = 0, n = 1)
        let m = "MACHINE W VARIABLES n INVARIANT n : NAT INITIALISATION n := 0
                 OPERATIONS op = SELECT #x.(x : INTEGER & (x : 2..10 => x > 100))
                 THEN n := 1 END END";
        assert_eq!(count(m), (3, 3));
    }

    #[test]
    fn a_counterexample_in_the_window_refutes_the_universal() {
        // x * y = x * z => y = z fails for x = 0: no constants, no state
        let m = "MACHINE K CONSTANTS c PROPERTIES c : NAT &
                 !(x, y, z).(x : INTEGER & y : INTEGER & z : INTEGER & x * y = x * z => y = z)
                 VARIABLES n INVARIANT n : NAT INITIALISATION n := 0 END";
        assert_eq!(count(m).0, 1);
    }

    #[test]
    fn an_untyped_divisor_is_an_integer() {
        // !x.(TRUE => 2 * (x / 2) = x) fails for x = 1 (x an operand of
        // `/`): no constants, no state
        let m = "MACHINE L CONSTANTS c PROPERTIES c : NAT & !x.(1 = 1 => 2 * (x / 2) = x)
                 VARIABLES n INVARIANT n : NAT INITIALISATION n := 0 END";
        assert_eq!(count(m).0, 1);
    }

    #[test]
    fn no_witness_in_the_window_is_unsupported() {
        // a witness exists (x = 8) but beyond MAXINT: left undecided
        let m = "MACHINE V VARIABLES n INVARIANT n : NAT INITIALISATION n := 0
                 OPERATIONS op = SELECT #x.(x : NATURAL & x mod 9 = 8)
                 THEN n := 1 END END";
        let e = first_error(m).expect("undecided");
        assert!(e.contains("cannot enumerate 'x'"), "{e}");
    }
}
