//! Results of the operations ProB runs itself (not those called by
//! another operation) start undefined in ProB: reading one before the
//! body assigns it is an error of the model (Copy's `PRE xx : INT`,
//! systeme1's `PRE out1 : 0..10`, TypingReturnValues' `xx : POW(NAT)`,
//! all errors in ProB). A typing predicate `x : T` over a whole type `T`
//! (`dd : DATA`, GSM_revue, counted by ProB) is another matter, which
//! ProB's type checker takes out: it holds, never an error.
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

/// Whether `a : b` is the typing predicate of an unassigned result `a`
/// over a whole type `b`: ProB's type checker takes it out, so it holds
/// (WhileAssignTupleChoose's loop `INVARIANT p1:INTEGER & p2:INTEGER`
/// before the first iteration assigns `p1`, GSM_revue's `dd : DATA`).
pub fn typing_of_unset(env: &Env, a: &Expr, b: &Expr) -> bool {
    let ExprKind::Ident(s) = a.kind else {
        return false;
    };
    let unset = env
        .locals
        .iter()
        .rev()
        .find(|(x, _)| *x == s)
        .is_some_and(|(_, v)| is_unset_result(v));
    unset && crate::symbolic::is_type(b, &env.w.globals)
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
