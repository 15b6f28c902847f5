//! Conjuncts that cannot fail with a well-definedness error, whatever the
//! values of their identifiers: no function application, division,
//! modulo, power, `min`/`max`, `first`/`last`/`front`/`tail`, general
//! intersection, `/|\`, `\|/`, no external function, and `card` only of
//! sets that name no infinite set. A generator pruning its candidates by a
//! later conjunct (`card(r) = 1` after `dom(r) = {0}`, see `subsets`) may
//! read past such conjuncts: a candidate left out would have been rejected
//! without any error being met, as in the full enumeration (an evaluation
//! this front-end cannot do, unsupported, is no error of ProB's).
//!
//! Owns that syntactic test only; must not evaluate anything.

use crate::ast::*;

/// Whether evaluating `e` can never raise a well-definedness error.
pub fn wd_free(e: &Expr) -> bool {
    use ExprKind::*;
    match &e.kind {
        Ident(_) | Int(_) | Str(_) | Bool(_) | Named(_) | EmptySet | EmptySeq => true,
        SetExt(v) | SeqExt(v) => v.iter().all(wd_free),
        Bin(op, a, b) => safe_op(*op) && wd_free(a) && wd_free(b),
        Neg(a) | Inverse(a) => wd_free(a),
        Image(a, b) => wd_free(a) && wd_free(b),
        Call(Builtin::Card, args) => args.iter().all(|a| wd_free(a) && !names_infinite(a)),
        Call(f, args) => safe_builtin(*f) && args.iter().all(wd_free),
        Quant { pred, body, .. } => wd_free(pred) && body.as_deref().is_none_or(wd_free),
        Apply(..) | Rec(_) | Struct(_) | Field(..) => false,
    }
}

fn safe_op(op: BinOp) -> bool {
    use BinOp::*;
    !matches!(op, Div | Mod | Power | PowerNat | TakeFirst | DropFirst)
}

fn safe_builtin(f: Builtin) -> bool {
    use Builtin::*;
    matches!(
        f,
        Dom | Ran | Pow | Pow1 | Fin | Fin1 | GenUnion | Rev | Id | Closure | Closure1 | Bool | Not
    )
}

/// Whether `e` names `NATURAL`, `NATURAL1`, `INTEGER` or `STRING`
/// (conservatively, anywhere in it).
fn names_infinite(e: &Expr) -> bool {
    use ExprKind::*;
    match &e.kind {
        Named(n) => matches!(
            n,
            NamedSet::Natural | NamedSet::Natural1 | NamedSet::Integer | NamedSet::String
        ),
        Ident(_) | Int(_) | Str(_) | Bool(_) | EmptySet | EmptySeq => false,
        SetExt(v) | SeqExt(v) | Call(_, v) => v.iter().any(names_infinite),
        Bin(_, a, b) | Apply(a, b) | Image(a, b) => names_infinite(a) || names_infinite(b),
        Neg(a) | Inverse(a) | Field(a, _) => names_infinite(a),
        Quant { pred, body, .. } => {
            names_infinite(pred) || body.as_deref().is_some_and(names_infinite)
        }
        Rec(fs) | Struct(fs) => fs.iter().any(|(_, e)| names_infinite(e)),
    }
}
