//! Images through a relation ProB keeps symbolic (see `symbolic`),
//! computed point by point: `half[{xx}]` with `half = {x, y | x : INTEGER
//! & y + y = x}` (RelClosureLaws), `closure1(half)[{xx}]`, `inc[s]`. The
//! relation is infinite, so it cannot be computed whole; its image of a
//! finite set is the union of the images of its elements:
//!
//! * a comprehension `{x1, ..., xn, y | P}` at `a`: `P` solved for `y`
//!   alone with `x1, ..., xn` bound to `a`'s components (no clipping: an
//!   integer `y` without a finite range stays unsupported, as in any
//!   comprehension);
//! * `closure1(r)[S]`: the least set `T` with `r[S] <: T` and `r[T] <: T`,
//!   grown from `r[S]` by the images of the new elements until none is
//!   new (unsupported beyond `REACH_LIMIT` elements: `closure1(inc)[{0}]`
//!   has no end, and ProB's symbolic closure would not end either).
//!
//! Owns these images; `Env::images` owns the other relations' images and
//! `eval` calls `symbolic_image` where an image would be computed whole.

use crate::ast::*;
use crate::eval::{bind_tuple, Env, Fail, E, LARGE_SET};
use crate::symbolic::named;
use crate::value::Value;

/// Most elements `closure1(r)[S]` may reach before it is refused.
const REACH_LIMIT: usize = 1 << 16;

/// Whether `r` is a relation kept symbolic: a symbolic constant, or
/// `closure1` of one.
fn symbolic_relation(env: &Env, r: &Expr) -> bool {
    match &r.kind {
        ExprKind::Call(Builtin::Closure1, a) => a.len() == 1 && symbolic_relation(env, &a[0]),
        _ => named(r).and_then(|c| env.closure_of(c)).is_some(),
    }
}

impl Env<'_> {
    /// `r[s]` for `r` a relation kept symbolic and `s` finite, point by
    /// point; `None` for any other `r`.
    pub(crate) fn symbolic_image(&mut self, r: &Expr, s: &Expr, pos: Pos) -> Option<E<Value>> {
        if !symbolic_relation(self, r) || crate::symbolic_filter::infinite(s) {
            return None;
        }
        Some(self.image_points(r, s, pos))
    }

    fn image_points(&mut self, r: &Expr, s: &Expr, pos: Pos) -> E<Value> {
        let xs = self.set(s)?;
        let out = match &r.kind {
            ExprKind::Call(Builtin::Closure1, a) => self.closure1_image(&a[0], &xs, pos)?,
            _ => self.images_of(r, &xs, pos)?,
        };
        self.symbolic |= out.len() > LARGE_SET;
        Ok(Value::set(out))
    }

    /// The images under `r` of each of `xs`, together.
    fn images_of(&mut self, r: &Expr, xs: &[Value], pos: Pos) -> E<Vec<Value>> {
        let mut out = Vec::new();
        for x in xs {
            out.extend(self.images(r, x, pos)?);
        }
        Ok(out)
    }

    /// `closure1(r)[xs]`: grown from `r[xs]` until closed under `r`.
    fn closure1_image(&mut self, r: &Expr, xs: &[Value], pos: Pos) -> E<Vec<Value>> {
        let mut seen = std::collections::BTreeSet::new();
        let mut frontier = self.images_of(r, xs, pos)?;
        while !frontier.is_empty() {
            let new: Vec<Value> = frontier
                .into_iter()
                .filter(|y| seen.insert(y.clone()))
                .collect();
            if seen.len() > REACH_LIMIT {
                return Err(Fail::Unsupported(
                    format!("closure1 of a symbolic relation reaching over {REACH_LIMIT} elements"),
                    pos,
                ));
            }
            frontier = self.images_of(r, &new, pos)?;
        }
        Ok(seen.into_iter().collect())
    }

    /// The images of `x` under the comprehension `{ids | pred}` (its last
    /// identifier the image, the others the argument); `None` when `ids`
    /// has fewer than two identifiers or `x` does not match them.
    pub(crate) fn comprehension_images(
        &mut self,
        ids: &[Sym],
        pred: &Expr,
        x: &Value,
    ) -> Option<E<Vec<Value>>> {
        let (&y, args) = ids.split_last()?;
        if args.is_empty() {
            return None;
        }
        let base = self.locals.len();
        if !bind_tuple(args, x.clone(), &mut self.locals) {
            self.locals.truncate(base);
            return None;
        }
        let r = self.solved_for(y, pred);
        self.locals.truncate(base);
        Some(r)
    }

    /// The values of `y` that satisfy `pred` (its other identifiers bound).
    fn solved_for(&mut self, y: Sym, pred: &Expr) -> E<Vec<Value>> {
        let plan = super::plan::plan(&[y], pred, &self.w.syms)
            .map_err(|(m, pos)| Fail::Unsupported(m, pos))?;
        let mut out = Vec::new();
        super::solve(&[y], pred, &plan, self, false, &mut |env| {
            out.extend(env.local(y).cloned());
            Ok(true)
        })?;
        Ok(out)
    }
}
