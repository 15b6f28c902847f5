//! Operators of Event-B theories that call themselves (ProB's theory
//! plug-in: operators defined by cases over an inductive datatype, and
//! membership in a datatype's set `List(S)`), as the evaluator applies
//! them: the arguments are evaluated, bound to the operator's parameters
//! as locals, and the operator's body (translated once by
//! `eventb::datatypes`) is evaluated, recursive calls included.
//!
//! Owns only the table of such operators and their application; the
//! translation of their definitions is `eventb`'s.

use crate::ast::{Expr, Pos, Sym};
use crate::eval::{Env, Fail, E};
use crate::value::Value;

/// An operator applied through `Builtin::Theory(index)`.
#[derive(Debug)]
pub struct Called {
    pub name: String,
    pub params: Vec<Sym>,
    /// Its body over the parameters.
    pub body: Expr,
    /// Whether the body is a predicate (the application is TRUE or FALSE).
    pub pred: bool,
}

/// The operators of a model applied by `Builtin::Theory(index)`.
#[derive(Debug, Default)]
pub struct Calls(pub Vec<Called>);

/// Deepest nesting of applications evaluated: the evaluator recurses
/// (some ten frames a level), and a list or tree deeper than this is
/// refused rather than overflowing a thread's stack.
const MAX_DEPTH: u32 = 100;

thread_local! {
    static DEPTH: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// The value of operator `k` applied to `args`.
pub fn apply(env: &mut Env, k: u32, args: &[Expr], pos: Pos) -> E<Value> {
    let w = env.w;
    let Some(op) = w.calls.0.get(k as usize) else {
        return Err(Fail::Unsupported("an unknown theory operator".into(), pos));
    };
    if args.len() != op.params.len() {
        let m = format!(
            "the theory operator {} with {} arguments",
            op.name,
            args.len()
        );
        return Err(Fail::Unsupported(m, pos));
    }
    let mut vals = Vec::with_capacity(args.len());
    for a in args {
        vals.push(env.eval(a)?);
    }
    let depth = DEPTH.with(|d| d.get());
    if depth >= MAX_DEPTH {
        let m = format!(
            "the theory operator {} nested over {MAX_DEPTH} deep",
            op.name
        );
        return Err(Fail::Unsupported(m, pos));
    }
    DEPTH.with(|d| d.set(depth + 1));
    let base = env.locals.len();
    env.locals.extend(op.params.iter().copied().zip(vals));
    let r = if op.pred {
        env.holds(&op.body).map(Value::Bool)
    } else {
        env.eval(&op.body)
    };
    env.locals.truncate(base);
    DEPTH.with(|d| d.set(depth));
    r
}
