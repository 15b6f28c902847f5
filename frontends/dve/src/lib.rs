//! DVE front-end of statebench: reads models in DVE, the input language of
//! the DiVinE model checker (the dialect of the BEEM benchmark set), and
//! presents them as a [`pins::Model`] (formalism `"dve"`).
//!
//! # Language
//!
//! Supported: global and process-local `byte` / `int` variables and arrays
//! with initialisers (`byte a[3] = {1,2,3};`), constants (`const byte N = 3;`,
//! also constant arrays), untyped rendezvous channels (`channel a, b;`),
//! typed channels (`channel {byte,int} c[4];`: a FIFO buffer of 4 tuples;
//! size 0 or no size is a rendezvous), processes with `state`, `init`,
//! `accept` (checked, otherwise ignored), `commit` and `trans` with `guard`,
//! `sync c!e` / `c!(e1,e2)` / `c?lval` / `c?(l1,l2)` and `effect` lists,
//! `assert` clauses (parsed and ignored), `system async;` and `system sync;`
//! (interleaving and synchronous composition), and the full expression
//! language: `+ - * / %`, `& | ^ ~ << >>`, `and or not` (also `&& || !`),
//! comparisons, `imply` / `->`, unary minus, array indexing, `P.s` (process
//! `P` is in state `s`), `P.x` / `P->x` (local variable `x` of process `P`),
//! `true` / `false`.
//!
//! Refused with [`ErrorKind::Unsupported`]: `system async property P;` and
//! `system sync property P;` (property automata), channels declared inside
//! a process.
//!
//! # Semantics (following DiVinE 2, which computed BEEM's state counts)
//!
//! * Asynchronous interleaving: a transition of process `P` is enabled when
//!   `P` is in its source state and every guard is non-zero.
//! * Rendezvous: a receive `c?x` of one process and a send `c!e` of another,
//!   both enabled, fire together. Order of effects (as in DiVinE's
//!   `dve_compiler` and interpreter): the sent values are evaluated (in
//!   order, on the state being built) and assigned to the receiver's
//!   lvalues, then the
//!   receiver's control state and effects, then the sender's control state
//!   and effects. A receive without lvalues accepts any sent values.
//! * Buffered channels: a send is enabled only when the buffer is not full
//!   (so overflow cannot happen); a receive only when it is not empty, and
//!   takes the oldest tuple (FIFO). As in DiVinE 2's interpreter, the
//!   transition's effects are applied *before* the buffer operation: sent
//!   values are evaluated after the effects, received values overwrite them.
//!   (DiVinE's C compiler does the opposite; BEEM has no buffered channel,
//!   so its counts do not tell, and we follow the interpreter that
//!   computed them.)
//! * Effects are executed in order, each seeing the previous ones.
//! * Committed states: if some process is in a committed state, only
//!   transitions leaving committed states are enabled, and a rendezvous only
//!   when both sides leave committed states (DiVinE 2's rule).
//! * Values: `byte` is 0..255 and `int` is 16-bit signed (-32768..32767), as
//!   in DiVinE 2 (`uint8_t` / `int16_t` state fields). Expressions are
//!   computed on 32-bit integers (C semantics: division truncates toward
//!   zero; comparisons and logic give 0 or 1; `and` / `or` / `imply`
//!   short-circuit). Initialisers are truncated to the type; extra values in
//!   an array initialiser are ignored (BEEM's `anderson` has one).
//! * Run-time errors: division or modulo by zero, an array index out of
//!   range, and assigning a value out of the variable's range (DiVinE 2
//!   checks this on every store: `byte x = 255; x = x + 1` is an error, not
//!   a wrap). With the default [`ErrorPolicy::ErrorState`] an erroneous transition
//!   (its guard evaluated with the bad operation giving 0 is still true, or
//!   its effects or sync fail) leads to the single *error state* (all slots
//!   0 but the first process's control state, set to its number of states),
//!   which is then explored like any state, under one DiVinE quirk
//!   described next. This is the one exception to
//!   write sets: a successor that is the error state may differ from its
//!   source outside the group's write set ([`DveModel::is_error_state`]
//!   tells it apart). With [`ErrorPolicy::Fail`] the error is reported as a
//!   [`pins::ModelError`] with `FILE:LINE:COL` and the transition instead.
//!   Never a panic.
//!
//!   The committed flag of the error state. In DiVinE 2's interpreter
//!   (`dve_explicit_system_t`) the error state is made by `go_to_error`
//!   (all bytes 0, the first process's state set to its state count, as
//!   here) and expanded like any other state, but `is_commited` calls
//!   `dve_process_t::get_commited(lid)`, whose bound check `lid <= size`
//!   admits `lid == size`: in the error state it reads one flag past the
//!   first process's committed-flag array, i.e. uninitialised heap memory.
//!   When that byte is non-zero the error state counts as committed, only
//!   transitions leaving committed states may fire, and it is usually a
//!   deadlock. BEEM's counts show both outcomes: `anderson.1` (oracle
//!   347,039) needs the error state expanded (347,037 if terminal), and
//!   `resistance.1` (oracle 8,183,469) needs it committed (8,183,492 if
//!   expanded). Of the 187 complete BEEM instances with at most 10^7
//!   states these two are the only ones that reach the error state (found
//!   with `examples/error_reach.rs`). We model the flag as set iff the
//!   first process has an even number of states (`anderson`'s `P_0` has 5,
//!   `resistance`'s `Measuring_0` has 4). That is a fit to this evidence,
//!   not a derivation: the memory DiVinE reads is undefined, and a model
//!   outside BEEM that reaches the error state may disagree with some
//!   DiVinE build. Also, DiVinE's `passed_through` treats a transition
//!   whose guard evaluation failed as enabled and erroneous whatever the
//!   guard's value; here it is erroneous only if the guard, with the bad
//!   operation giving 0, is still true. Both lead to the same single error
//!   state, so counts differ only if the error state is reachable in one
//!   reading and not the other (not seen in BEEM).
//! * Deadlock states simply have no successors (no self-loop is added).
//! * Arrays named without an index. A variable or constant array used
//!   without `[...]`, in an expression or as the target of an assignment or
//!   a receive (`byte e[3]; ... guard e == 1; effect e = list[0];`, BEEM's
//!   `train-gate`), is its first element `e[0]`. DiVinE 2 resolves a name
//!   to its symbol and reads or writes it at element offset 0 unless a
//!   subscript gives another (`Symbol::deref(mem, idx = 0)` and
//!   `Symbol::set` in `divine/dve/symtab.h`; `TI::Identifier` in
//!   `divine/dve/expression.h` evaluates a plain name with the default
//!   offset); BEEM's counts confirm it (`train-gate.1`: 1,020 states and
//!   2,142 edges, `.2`: 22,076 / 47,464, `.3`: 22,496 / 48,384, equal
//!   here). Still refused, with the position of the name, as DiVinE's
//!   semantic checks refuse them: assigning to a constant (array or not),
//!   indexing a scalar, and a channel or process name used as a value.
//!
//! Everything above is the asynchronous (`system async`) semantics. A
//! synchronous system (`system sync`) follows DiVinE 2's interpreter
//! (`get_sync_succs_internal`, `compute_successors_without_sync`,
//! `create_state_by_composition`, `not_in_glob_conflict` in
//! `dve_explicit_system.cc`); no BEEM model is synchronous, so no oracle
//! checks it:
//!
//! * Every process makes exactly one transition per step. For each process
//!   in declaration order, the successor of each of its enabled transitions
//!   is computed separately from the source state (control state, then the
//!   effects in order). The transitions are tried without sync first, then
//!   rendezvous sends, then rendezvous receives (DiVinE's sync-mode order),
//!   each group in declaration order. If some process has no enabled
//!   transition, the state is a deadlock (no successors), even if other
//!   processes could move.
//! * Channels only label transitions: a rendezvous send or receive fires on
//!   its own, without a partner; sent values are not evaluated and
//!   receiving lvalues are not assigned. A transition on a buffered channel
//!   never fires (DiVinE only visits sync modes 0 to 2).
//! * Committed states play no role.
//! * Errors: a transition whose guard evaluation fails is enabled and
//!   erroneous whatever the guard's value (DiVinE's `passed_through`; the
//!   asynchronous semantics differs here, see above), and so is one whose
//!   effects fail. Its successor is the error state.
//! * The successors are all combinations of one successor per process,
//!   process 0's choice varying fastest, then process 1's, and so on. Each
//!   is a copy of the source state that takes each process's own slots
//!   (control state and locals) from that process's successor, and the
//!   global variables that process's transition assigns (whole arrays)
//!   from the same successor. An erroneous transition thus contributes the
//!   error state's values: its process's slots become 0 (the first
//!   process's control state becomes its number of states, which makes the
//!   combined state erroneous, see [`DveModel::is_error_state`], and a
//!   deadlock), and the globals it assigns become 0; the other processes'
//!   parts are kept. If the first process is not the one in error, the
//!   combined state is an ordinary one: DiVinE loses the error.
//! * Conflicts: if two transitions of a combination assign a common global
//!   variable (by syntax: the variables on the left of their effects,
//!   whatever the values or array elements), the combined successor is the
//!   error state. With [`ErrorPolicy::Fail`] it is reported instead, naming
//!   both transitions.
//! * Erroneous states never have successors: the first process has no
//!   transition from the error marker, so DiVinE's committed-flag quirk
//!   above cannot matter.
//!
//! # State vector
//!
//! In this order: global variables in declaration order (one slot per
//! scalar, one per array element), then the buffers of buffered channels in
//! declaration order (the item count, then the items oldest first, each
//! tuple component in its own slot; unused items are 0), then for each
//! process in declaration order its control state (`P.pc`, the index of the
//! state in the `state` list) followed by its local variables
//! (`P.x`, `P.a[2]`). Slots store `byte` values as 0..255 and `int` values as
//! their 16-bit two's complement. [`pins::Slot::process`] is the owning
//! process, `None` for globals and channels; [`pins::Slot::bits`] is 8 for
//! `byte`, 16 for `int`, `ceil(log2(#states))` (at least 1) for a control
//! state (`ceil(log2(#states + 1))` for the first process, whose control
//! state also encodes the error state) and `ceil(log2(capacity + 1))` for an
//! item count.
//!
//! # Transition groups
//!
//! In process and transition order: a transition without rendezvous (none,
//! or on a buffered channel) is one group labelled `P.from->to`; a
//! rendezvous receive yields one group per matching send of another process
//! (in transition order), labelled `Q.a->b!chan?P.from->to`; a rendezvous send
//! has no group of its own. Each group fires at most one successor. Read
//! sets are exact up to arrays: guards, sent values, effect right sides,
//! array indices, the control states involved, `P.s` tests; an array indexed
//! by a non-constant expression is read as a whole, and if assigned, written
//! as a whole and read as a whole (unassigned elements are copied). Buffered
//! channel operations read and write the whole buffer. When the model has
//! committed states, every group also reads the control state of every
//! process that has committed states; when the error state counts as
//! committed (the first process has an even number of states, see above),
//! every group also reads the first process's control state.
//!
//! A synchronous system has a single group, `sync-step`, whose read and
//! write sets are every slot; [`pins::Model::next`] on it emits the
//! successors in the combination order above. Groups per transition cannot
//! express a step in which all processes move, and a group per combination
//! of transitions is no better: their number is the product of the
//! processes' transition counts, DiVinE computes all combinations of one
//! state from shared per-process successors, and a combination's outcome
//! may be the error state (every slot reset) or an error composition
//! (a whole process zeroed), so its write set would be nearly everything
//! anyway.
//!
//! This crate owns only DVE reading and DVE semantics; it must not know any
//! storage engine nor the harness, and must not change the `pins` interface.
//!
//! Modules: `lexer` (tokens with positions), `parse` (syntax tree),
//! `compile` (name resolution, layout, groups, dependencies), `dispatch`
//! (the groups each control state may fire), `model` ([`DveModel`],
//! evaluation, successors), `code` (guards and effects compiled to
//! closures), `affine` (affine expressions evaluated in one pass), `error`
//! ([`DveError`]).

use std::path::Path;

mod affine;
mod code;
mod compile;
mod dispatch;
mod error;
mod lexer;
mod model;
mod parse;

pub use error::{DveError, ErrorKind};
pub use model::{DveModel, ErrorPolicy};
pub use scan::{MAX_HEIGHT, MAX_NESTING};

/// Reads the DVE model in the file at `path`. Errors name the file as
/// `path.display()`; the model is named after the file stem.
pub fn parse_file(path: &Path) -> Result<DveModel, DveError> {
    let label = path.display().to_string();
    let sys = parse::parse(&pins::read_source(path, &label)?, &label)?;
    compile::compile(&sys, &label, &pins::model_name(path, &label))
}

/// Reads a DVE model from `text`; `file_label` names the source in errors,
/// in model error locations, and is the model name.
pub fn parse_str(text: &str, file_label: &str) -> Result<DveModel, DveError> {
    let sys = parse::parse(text, file_label)?;
    compile::compile(&sys, file_label, file_label)
}

#[cfg(test)]
mod sync_tests;
#[cfg(test)]
mod tests;
