//! When Event-B's `{x . P | E}` (read as `UNION(x).(P | {E})`) is an
//! infinite set, so that ProB keeps a constant it defines symbolic: `P`
//! names an infinite set (`NATURAL`, a symbolic constant) and some bound
//! variable has no finite range among the conjuncts of `P` (no `x : S`
//! with `S` finite by its syntax, no `x = E`). `{s . s : INTEGER & s :
//! 0..3 | s |-> 2*s}` is finite (sieve_parallel_mch: computed once, not
//! solved anew at each application); `{x . x : S * NATURAL | x |-> 0}`
//! (Kanso_Symbolic) and `{w . w : NATURAL & w mod 2 = 0 | w}`
//! (TestEnumWarning) are infinite.
//!
//! Such a former whose element is `P |-> E`, `P` a maplet pattern of
//! exactly its bound variables, is a lambda `%P.(pred | E)`: applied
//! point by point, by matching the argument against `P` (`{x . x :
//! NATURAL | x |-> 2 * x}(3)`), never computed whole.
//!
//! Owns that decision and that application; `symbolic::unbounded` asks
//! the first and owns the rest of the syntax of infinite sets,
//! `Env::images` the second and the other relations' images.

use crate::ast::*;
use crate::eval::{Env, E};
use crate::solve::conjuncts;
use crate::symbolic::unbounded;
use crate::value::Value;

/// Whether the set former with bound `ids` and predicate `pred` is
/// infinite, `names` being the symbolic constants.
pub(crate) fn infinite_former(ids: &[Sym], pred: &Expr, names: &[Sym]) -> bool {
    let mut mentioned = false;
    crate::compile::visit(pred, &mut |x| mentioned |= unbounded(x, names));
    mentioned && ids.iter().any(|&x| !ranged(x, pred, names))
}

/// Whether a top-level conjunct of `pred` gives `x` a finite range.
fn ranged(x: Sym, pred: &Expr, names: &[Sym]) -> bool {
    conjuncts(pred).into_iter().any(|c| match &c.kind {
        ExprKind::Bin(BinOp::In, a, s) => binds(a, x) && !unbounded(s, names),
        ExprKind::Bin(BinOp::Eq, a, b) => is(a, x) || is(b, x),
        _ => false,
    })
}

/// Whether the pattern `a` (a name or nested maplets of names) has `x`.
fn binds(a: &Expr, x: Sym) -> bool {
    match &a.kind {
        ExprKind::Bin(BinOp::Maplet, l, r) => binds(l, x) || binds(r, x),
        _ => is(a, x),
    }
}

fn is(a: &Expr, x: Sym) -> bool {
    matches!(a.kind, ExprKind::Ident(s) if s == x)
}

/// The pattern and the image of a former's element `{P |-> E}` (body
/// `body`) when `P` binds each of `ids` once and nothing else.
pub(crate) fn maplet_element<'a>(ids: &[Sym], body: &'a Expr) -> Option<(&'a Expr, &'a Expr)> {
    let ExprKind::SetExt(xs) = &body.kind else {
        return None;
    };
    let [x] = xs.as_slice() else { return None };
    let ExprKind::Bin(BinOp::Maplet, pat, image) = &x.kind else {
        return None;
    };
    let mut names = Vec::new();
    pattern_names(pat, &mut names)?;
    let mut sorted = names.clone();
    sorted.sort_unstable();
    sorted.dedup();
    let mut want = ids.to_vec();
    want.sort_unstable();
    (sorted.len() == names.len() && sorted == want).then_some((&**pat, &**image))
}

/// The names of a maplet pattern of names; `None` for any other form.
fn pattern_names(p: &Expr, out: &mut Vec<Sym>) -> Option<()> {
    match &p.kind {
        ExprKind::Ident(s) => {
            out.push(*s);
            Some(())
        }
        ExprKind::Bin(BinOp::Maplet, l, r) => {
            pattern_names(l, out)?;
            pattern_names(r, out)
        }
        _ => None,
    }
}

/// Binds the names of `pat` to the parts of `x`; false when `x` has not
/// its shape.
fn bind(pat: &Expr, x: &Value, locals: &mut Vec<(Sym, Value)>) -> bool {
    match &pat.kind {
        ExprKind::Ident(s) => {
            locals.push((*s, x.clone()));
            true
        }
        ExprKind::Bin(BinOp::Maplet, l, r) => match x.as_pair() {
            Ok((a, b)) => bind(l, a, locals) && bind(r, b, locals),
            Err(_) => false,
        },
        _ => false,
    }
}

impl Env<'_> {
    /// The image of `x` under the former `{pat . pred | pat |-> image}`:
    /// none when `x` does not match `pat` or `pred` fails there.
    pub(crate) fn former_images(
        &mut self,
        pat: &Expr,
        pred: &Expr,
        image: &Expr,
        x: &Value,
    ) -> E<Vec<Value>> {
        let base = self.locals.len();
        let r = if bind(pat, x, &mut self.locals) && self.holds(pred)? {
            self.eval(image).map(|y| vec![y])
        } else {
            Ok(Vec::new())
        };
        self.locals.truncate(base);
        r
    }
}
