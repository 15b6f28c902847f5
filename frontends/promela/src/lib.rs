//! Promela front-end of statebench: reads SPIN models (the dialect of the
//! BEEM Promela translations and more) and presents them as a
//! [`pins::Model`] (formalism `"promela"`) whose reachable state count is
//! SPIN's `states, stored` with partial-order reduction off
//! (`spin -a m.pml; gcc -DNOREDUCE -DSAFETY -o pan pan.c; ./pan -E -c0`,
//! SPIN's default `-o` optimisations on).
//!
//! # Language
//!
//! Supported: global and local `bit`, `bool`, `byte`, `short`, `int`,
//! `unsigned x : w`, `mtype`, `pid` variables and arrays (scalar
//! initialisers), `mtype = {..}`, global channels and channel arrays
//! `chan c[N] = [K] of {t1, ..}` (`K = 0`: rendezvous), `proctype` with
//! parameters, `active [N]`, `init`, `run P(args)` as a statement, `if`/`do`
//! with guards and `else`, `break`, `goto` and labels, `atomic`, `d_step`,
//! `{ .. }`, `skip`, `assert`, `printf` (ignored), assignments, `++`/`--`,
//! send `c!e1,e2` / `c!e1(e2)`, receive `c?x,0,_` / `c?eval(e)` (constants,
//! mtype names and `eval` must match), `len`/`empty`/`nempty`/`full`/`nfull`,
//! `_pid`, `_nr_pr`, `(c -> a : b)` and C's operators.
//!
//! Refused with [`ErrorKind::Unsupported`] (file:line:col): the C
//! preprocessor (`#define`), `never`/`trace`/`ltl`, `typedef`, `inline`,
//! `unless`, `timeout`, `enabled`, `pc_value`, remote references, `??`,
//! `!!`, `?<..>`, `?[..]`, channel variables other than global names
//! (local channels, channel parameters), `run` inside expressions,
//! array initialiser lists. Refused with [`ErrorKind::Limit`]: more than
//! [`MAX_PROCESSES`] processes (also when `run` may create them without
//! bound), channel capacities above [`MAX_CAPACITY`], more than
//! [`MAX_CHANNELS`] channels.
//!
//! # Semantics (SPIN 6.5's verifier)
//!
//! * Automaton: one location per SPIN control state. `goto`, `break`, the
//!   end of an `if`/`do` option and `{ }` are jumps folded into the step
//!   before them (a jump heading an option is a step of its own, as in
//!   SPIN); an `if`/`do` location offers the first statement of every
//!   option, `else` only when no other is executable.
//! * Statement merging (SPIN's default, `-o3` disables): see
//!   `compile::merge_statements`; chains of local assignments become one
//!   step.
//! * Dead variables (SPIN's default dataflow optimisation, `-o1`
//!   disables): after a condition or receive reading a scalar local that is
//!   dead (written before read on every path; the process end and cycles
//!   count as dead), or an assignment to one, the local is reset to 0.
//! * Write-only variables (never read in any expression; `x++` is not a
//!   read) are not stored, as SPIN hides them by default.
//! * Atomicity: after a step inside `atomic` (not its last statement) the
//!   process keeps control: its next steps are taken at once and the
//!   intermediate states are not stored; if it cannot move, the state is
//!   stored and every process may move (the next step of the atomic
//!   process regains control). A `d_step` is one step; inside it the first
//!   executable option of an `if`/`do` is taken; blocking after its first
//!   statement is a model error.
//! * Rendezvous: a send and a matching receive of another process fire
//!   together (values truncated to the field types, constants matched);
//!   the receiver keeps control if its receive is inside `atomic`.
//!   Buffered channels: send blocks when full, receive when empty or when
//!   the head does not match.
//! * Processes: active processes and `init` are created in declaration
//!   order, pids from 0; `run` takes the next pid (the number of running
//!   processes). A process at its end may die (a step) only when it is the
//!   youngest.
//! * Values: expressions on 32-bit `int` (C semantics, wrapping), stores
//!   truncated to the variable's type (`bit`/`bool` keep bit 0, `byte` 8
//!   bits, `short` 16 bits signed, `unsigned : w` w bits).
//! * Model errors ([`pins::ModelError`], `FILE:LINE:COL`): assertion
//!   violated, division by zero, array or channel index out of range,
//!   non-terminating atomic sequence or d_step. (SPIN reports an
//!   assertion violation and continues; statebench stops, so a model that
//!   violates an assertion has no state count here.)
//!
//! # State vector and groups
//!
//! Global variables (declaration order, one slot per element, hidden ones
//! left out), then buffered channels (length, then the items oldest first,
//! one slot per field), then per process slot (pid) `_t` (proctype + 1, 0
//! when free), the location `pc` and the locals (the largest local area of
//! the proctypes the slot may hold, found by a static analysis of process
//! creation). Groups: one per statement of a proctype that is not a
//! rendezvous operation, one per pair (rendezvous send, receive on a
//! possibly equal channel). A group's read and write sets include the
//! slots of every process slot that may hold its proctype, the globals and
//! channels its statements (and any atomic continuation) use; process
//! creation and deletion read and write everything. The process partition
//! has one component per process slot plus `globals`.
//!
//! This crate owns Promela reading and SPIN's semantics only; it must not
//! know any storage engine nor the harness.
//!
//! Modules: `lexer` (tokens with positions), `parse` (syntax tree),
//! `compile` (names, layout, automata, merging, dead variables, process
//! bound, groups), `ops` (operators), `guard` (guards checked before
//! the interpreter), `dispatch` (the transitions of each location with
//! their guards), `model` ([`PromelaModel`], execution), `steps`
//! (successor buffers), `code` (statements compiled to closures), `affine`
//! (affine expressions such as array indices, evaluated in one pass), `error`
//! ([`PromelaError`]).

use std::path::Path;

mod affine;
mod code;
mod compile;
mod dispatch;
mod error;
mod guard;
mod lexer;
mod model;
mod ops;
mod parse;
mod residual;
mod steps;

pub use compile::{MAX_CAPACITY, MAX_CHANNELS, MAX_PROCESSES};
pub use error::{ErrorKind, PromelaError};
pub use model::PromelaModel;
pub use parse::MAX_STATEMENT_NESTING;
pub use scan::{MAX_HEIGHT, MAX_NESTING};

/// Reads the Promela model in the file at `path`; errors name the file as
/// `path.display()`, the model is named after the file stem.
pub fn parse_file(path: &Path) -> Result<PromelaModel, PromelaError> {
    let label = path.display().to_string();
    let spec = parse::parse(&pins::read_source(path, &label)?, &label)?;
    compile::compile(&spec, &label, &pins::model_name(path, &label))
}

/// Reads a Promela model from `text`; `file_label` names the source in
/// errors and is the model name.
pub fn parse_str(text: &str, file_label: &str) -> Result<PromelaModel, PromelaError> {
    let spec = parse::parse(text, file_label)?;
    compile::compile(&spec, file_label, file_label)
}
