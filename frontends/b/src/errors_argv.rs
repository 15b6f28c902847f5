//! ProB's command-line externals of `LibraryIO.def`, `ARGC` and
//! `ARGV(n)`, as its model checker sees them: it runs a machine with no
//! arguments after the machine's file, so `ARGC` is 0 and `ARGV(n)` for
//! `n >= 1` names an argument that does not exist, an error of the model
//! (ProB's `Argv`, `wc` and `WordHistogram` end in an error; `SheBang`,
//! which only reads `ARGC`, is explored completely). `ARGV(0)` and
//! negative positions are left unsupported (ProB's answer not modelled).
//!
//! Owns only these two externals' values; the expansion of external
//! definitions stays in `parse`, their evaluation dispatch in `eval`.

use crate::ast::Pos;
use crate::eval::{Fail, E};
use crate::value::Value;

/// The number of command-line arguments ProB's model checker passes on.
pub const ARGC: i64 = 0;

/// `ARGV(n)`: with no arguments, an error for every `n >= 1`.
pub fn argv(n: &Value, pos: Pos) -> E<Value> {
    match n {
        Value::Int(i) if *i > ARGC => Err(Fail::Wd(
            format!("ARGV({i}): command-line argument {i} does not exist (ProB's model checker passes {ARGC})"),
            pos,
        )),
        Value::Int(i) => Err(Fail::Unsupported(
            format!("ARGV({i}) (ProB's value for a position below 1 not modelled)"),
            pos,
        )),
        _ => Err(Fail::Wd("ARGV of a value that is not an integer".into(), pos)),
    }
}
