//! A lambda written in place and applied at once, `%x.(P | E)(a)`, is
//! evaluated at `a` alone: `x` bound to `a`, `P` checked (false: a
//! function applied outside its domain), `E` evaluated, as ProB does
//! with lambdas it keeps symbolic, instead of building the whole
//! function first. ASM's normalised translations
//! (TestParIf2_normalized's `%(UU).(UU : POW(ID * ID) | ...)(ff)`
//! chains, whose functions have 512 points each) reach the precondition
//! error ProB reports only so.
//!
//! An error inside the lambda is reported as one in building it was
//! (`eval::quantified`). Owns only this shortcut of `Apply`; the binding
//! and the check are those of symbolic constants (`Env::images`).

use crate::ast::*;
use crate::eval::{quantified, Env, Fail, E};
use crate::value::Value;

impl Env<'_> {
    /// `f(x)` evaluated at `x` alone when `f` is a lambda written in
    /// place; `None` for any other `f`.
    pub(crate) fn lambda_in_place(&mut self, f: &Expr, x: &Expr, pos: Pos) -> Option<E<Value>> {
        if !matches!(
            f.kind,
            ExprKind::Quant {
                kind: QuantKind::Lambda,
                body: Some(_),
                ..
            }
        ) {
            return None;
        }
        Some(self.eval(x).and_then(|xv| {
            // errors inside the lambda stay those of building it
            let strict = self.w.try_find_abort;
            let mut found = self
                .images(f, &xv, pos)
                .map_err(|e| quantified(e, f, strict))?;
            match found.len() {
                1 => Ok(found.swap_remove(0)),
                _ => Err(Fail::Wd(crate::errors_constraint::OUTSIDE.into(), pos)),
            }
        }))
    }
}

#[cfg(test)]
mod tests {
    use crate::tests::{count, first_error};

    #[test]
    fn lambda_applied_in_place_over_a_large_domain() {
        // %s.(s : POW(1..30) | s \/ {1})(v): 2^30 points, never built;
        // v goes {} -> {1} and stays (root, 2 states, init + 2 steps)
        let m = "MACHINE L VARIABLES v INVARIANT v <: 1..30 INITIALISATION v := {}
                 OPERATIONS step = BEGIN v := %s.(s : POW(1..30) | s \\/ {1})(v) END END";
        assert_eq!(count(m), (3, 3));
    }

    #[test]
    fn lambda_applied_in_place_outside_its_domain() {
        // n = 0 is outside 1..3: a well-definedness error
        let m = "MACHINE L VARIABLES n INVARIANT n : INTEGER INITIALISATION n := 1
                 OPERATIONS step = BEGIN n := %x.(x : 1..3 | x - 1)(n) END END";
        let e = first_error(m).expect("outside the domain");
        assert!(e.contains("outside its domain"), "{e}");
    }
}
