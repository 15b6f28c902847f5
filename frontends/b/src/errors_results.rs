//! Results of the operations ProB runs itself (not those called by
//! another operation) start undefined in ProB: reading one before the
//! body assigns it is an error of the model (Copy's `PRE xx : INT`,
//! systeme1's `PRE out1 : 0..10`, TypingReturnValues' `xx : POW(NAT)`,
//! all errors in ProB). A typing predicate `x : T` over a whole type `T`
//! (`dd : DATA`, GSM_revue, counted by ProB) is another matter, which
//! ProB's type checker takes out: refused as before, never an error.
//! An operation call storing a result anywhere but in a variable is an
//! error of the model too.

use crate::ast::*;
use crate::eval::{Env, Fail, E};
use crate::exec::UNSET_RESULT;
use crate::value::Value;

/// Whether `v` is the placeholder of an unassigned result.
pub fn is_unset_result(v: &Value) -> bool {
    matches!(v, Value::Str(s) if &**s == UNSET_RESULT)
}

/// The error of reading the unassigned result `name`.
pub fn read_error(name: &str, pos: Pos) -> Fail {
    Fail::Wd(
        format!("result '{name}' of the operation read before it is assigned (ProB starts it undefined)"),
        pos,
    )
}

/// Refuses the typing predicate `a : b` of an unassigned result `a` over
/// a whole type `b`; any other membership goes on.
pub fn typing_of_unset(env: &Env, a: &Expr, b: &Expr) -> E<()> {
    let ExprKind::Ident(s) = a.kind else {
        return Ok(());
    };
    let unset = env
        .locals
        .iter()
        .rev()
        .find(|(x, _)| *x == s)
        .is_some_and(|(_, v)| is_unset_result(v));
    if unset && crate::symbolic::is_type(b, &env.w.globals) {
        return Err(Fail::Unsupported(
            format!(
                "'{}' read before it is assigned (a typing predicate of a result)",
                env.w.syms.name(s)
            ),
            a.pos,
        ));
    }
    Ok(())
}

/// The results of an operation call go into variables only (`zz, ww <--
/// op`); storing one into a function application or a record field
/// (IllegalOpCall's `zz(1), ww <-- Copy2(zz(1))`, which Atelier-B refuses)
/// is an error of the model, as in ProB.
pub fn stored_into_variables(outs: &[Expr]) -> E<()> {
    match outs.iter().find(|o| !matches!(o.kind, ExprKind::Ident(_))) {
        Some(o) => Err(Fail::Wd(
            "the result of an operation call stored into an expression, not a variable (B allows only variables there)".into(),
            o.pos,
        )),
        None => Ok(()),
    }
}
