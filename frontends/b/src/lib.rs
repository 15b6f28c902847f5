//! Classical B front-end of statebench: reads B machines (`.mch`, with the
//! machines they SEE, USE, INCLUDE, EXTEND or IMPORT found beside them) and
//! presents them as a [`pins::Model`] (formalism `"b"`) whose counts follow
//! ProB's convention plus one artificial root state (see [`BModel`]).
//! Event-B models, as ProB's Rodin exports (`.eventb`), are translated into
//! the same syntax tree by `eventb` and share everything after it.
//!
//! # Why a hand-written parser
//!
//! crates.io has no maintained B grammar crate, and B's grammar is awkward
//! for generators: DEFINITIONS are macros (with parameters) that may stand
//! for expressions, predicates or substitutions, predicates and expressions
//! interleave (`bool(P)`, `{x | P}`), and `;` is sequencing in substitutions
//! but composition inside parentheses. A small lexer plus a recursive
//! descent parser with precedence climbing (ProB's / Atelier B's priority
//! table, see `parse`) and token-level definition expansion handles this
//! directly, with `FILE:LINE:COL` errors, and no dependency.
//!
//! # Semantics (ProB's model-checking conventions)
//!
//! * Settings: `MAXINT = 3`, `MININT = -1`, deferred sets of 2 elements,
//!   unless `SET_PREF_MAXINT`, `SET_PREF_MININT`,
//!   `SET_PREF_DEFAULT_SETSIZE`, `scope_S == n` / `1..n` or `card(S) = e`
//!   in PROPERTIES (`e` known before solving; `e` naming constants no
//!   conjunct equates to anything keeps the size: `setinfer`) say
//!   otherwise (see `setsize`, which also reads `S = {c1, .., ck}` and bounds on
//!   `card(S)`). `NAT`, `NAT1`, `INT` follow `MAXINT`;
//!   arithmetic is unbounded (64-bit; an overflow is a model error).
//! * Constants: one state per solution of the PROPERTIES; every solution
//!   of an ANY, a `::`, a `:(` or an operation's parameters counts.
//!   Solving enumerates finite ranges, pruned by conjuncts that fix a
//!   value (see `solve`); an integer with an infinite domain in a guard's
//!   binder ranges over `MININT..MAXINT`, as in ProB's model checker.
//! * A top-level PRE or SELECT of an operation is its guard (ProB's model
//!   checking treats preconditions as guards); a top-level ANY typing the
//!   parameters binds them with its own identifiers; a nested PRE, and the PRE
//!   of a *called* operation (INCLUDES), must hold or it is a model error.
//! * A function applied outside its domain in a conjunct of a guard (a
//!   top-level PRE or SELECT, ANY, a binder's predicate) makes the
//!   conjunct false (ProB's constraint solving); anywhere else, inside a
//!   quantified formula of such a conjunct (ProB's TwoPurses) and in a
//!   SELECT nested in the body included, it is a model error (ProB's
//!   Railway0).
//! * Machine parameters (of the main machine): those in upper case are
//!   deferred sets, the others constants typed by the CONSTRAINTS (which
//!   join the PROPERTIES), as ProB sets them up. A machine included with
//!   names as arguments (`INCLUDES M(S, n)`) gets constants bound to them.
//! * A renamed instance `r.M` (INCLUDES, EXTENDS, SEES... `r.M`) has
//!   its variables and operations renamed `r.x`; its sets and constants
//!   are shared by all instances of `M` (see `rename`).
//! * Intervals and comprehensions of up to 2^21 elements are values.
//!   A variable may hold a set of over 5,000 elements that ProB keeps
//!   symbolic when each state holds it from one origin (the operation,
//!   its parameters and the slots it reads): a state reached with one
//!   computed in two ways is unsupported (ProB may count it as two
//!   states), and so is its membership in a function or sequence space
//!   (see `lazy_sets`). `x :: INTEGER` (`NATURAL`, `NATURAL1`)
//!   ranges over `MININT..MAXINT`, as ProB's model checker enumerates it.
//! * A constant defined by `c = E` with `E` infinite by its syntax
//!   (`seq1(BIT)`, a lambda over `NATURAL`), recursive, or a lambda or
//!   comprehension under `SET_PREF_SYMBOLIC` is kept symbolic, as ProB
//!   does: no slot, `x : c` and `c(x)` decided from `E` (see `symbolic`).
//! * Constants that are elements of a deferred set (`c : S`) are
//!   enumerated as ProB's static symmetry reduction does (see `symmetry`),
//!   and a bijection between a deferred set and a finite set or another
//!   deferred set is fixed (see `bijection`, `deferred_product`); a
//!   bijection or surjection needing more elements than the default size
//!   sizes the set (`deferred_mincard`), as do a tree of partitions into
//!   non-empty parts (`deferred_parts`) and a listing of constants said
//!   pairwise distinct (`deferred_singletons`). Other symmetry
//!   breaking of ProB's is accepted when the PROPERTIES have a single
//!   solution (`deferred_unique`). An element of a deferred set typed
//!   only by inference takes every element when it is a variable or the
//!   set's distinct constants fill it (`deferred_inferred`). A partition
//!   of a deferred set into singletons of constants and one more part
//!   types the constants and leaves the rest to the part (`deferred_rest`).
//! * `SET_PREF_MAX_OPERATIONS` / `SET_PREF_MAX_INITIALISATIONS` = n: the
//!   oracle's counts are those of the whole state space, never cut at n
//!   instances per state: every model refused for exceeding its cap gave
//!   ProB's states and transitions exactly without it (countdown's
//!   `mul` with 15 instances under a cap of 10: 19,799 / 85,681;
//!   SortByPermutation, SortByPermutationPF, CrewAllocationConstants_v2's
//!   SETUP_CONSTANTS under a cap of 1, FunLawsWithLambdaMemo, NQueens,
//!   NQueens_Completion, PowerM, PartialFunInverse, TwoBinFunctionsSET),
//!   so these settings are read and ignored.
//! * Parallel branches writing one variable with different values (only
//!   legal under ProB's `ALLOW_SIMULTANEOUS_ASSIGNMENTS`, which merges
//!   them) are unsupported.
//! * Transitions: one per distinct (operation, parameters, results,
//!   target state) from a state; with `SET_PREF_SHOW_EVENTB_ANY_VALUES ==
//!   TRUE`, the values of an operation's top-level ANY count as
//!   parameters (an ANY deeper in an operation is then refused).
//! * Machine INVARIANTs and ASSERTIONS are not evaluated (the oracles come
//!   from runs without violations). A WHILE loop's INVARIANT must hold
//!   before each test of its condition, and its VARIANT must be a natural
//!   number before each iteration and decrease strictly across it, or it
//!   is a model error (as in ProB).
//! * A constants state from which the INITIALISATION has no solution is a
//!   model error (ProB reports it); without constants, such a machine has
//!   no state (ProB's count 0).
//! * PROPERTIES without solution: no state either (ProB's count 0),
//!   unless ProB's solver may find one where ours does not (a deferred
//!   set named by the PROPERTIES without a given size, which ProB may
//!   infer: `deferred_given`; a function applied outside its
//!   domain while solving; strict inclusions): then unsupported.
//!
//! Refused with [`ErrorKind::Unsupported`] (naming the construct and
//! where): REFINES, parameters of a machine another one uses without
//! names as arguments, renamed
//! instances of machines that use others (`INCLUDES r.M` where `M`
//! includes, extends or imports), `SET_PREF_SYMMETRY_MODE`, `SET_PREF_USE_IGNORE_PRAGMAS` (ProB's
//! counts may be reduced by them), `SET_PREF_KODKOD` (another solver for
//! the PROPERTIES), constraints that
//! let ProB choose a deferred set's size, binders with no finite range
//! (`x : NATURAL & f(x) = 3`: only typings and bounds are clipped to
//! `MININT..MAXINT`, as ProB's model checker does; an identifier of a
//! finite B type no conjunct bounds ranges over its type, see `solve`),
//! definition files not found beside the
//! machine (ProB's standard libraries). Constructs found unsupported only
//! while exploring (an infinite set enumerated, a very large function
//! space) end as [`pins::ModelError::unsupported`] (shown after
//! [`pins::UNSUPPORTED_PREFIX`]; the harness reports the run `unsupported`).
//!
//! Modules: `lexer`, `parse` (syntax, definitions), `ast`, `eventb`
//! (Event-B exports), `load` (files, composition), `compile` (settings,
//! names, static checks), `value` (canonical values), `eval`
//! (expressions), `solve` (enumeration), `exec` (substitutions),
//! `symmetry` (ProB's MACE-style constants), `setsize` and `setinfer`
//! (deferred-set sizes), `symbolic` (constants kept
//! as closures), `model` ([`BModel`]),
//! `error` ([`BError`]).

use std::path::Path;

mod ast;
mod bijection;
mod bodytyped;
mod cardinality;
mod check_expr_text;
mod compile;
mod deferred_bijection_side;
mod deferred_equal_parts;
mod deferred_given;
mod deferred_inferred;
mod deferred_integer_bijection;
mod deferred_listed_parts;
mod deferred_mincard;
mod deferred_orbits;
mod deferred_part_members;
mod deferred_parts;
mod deferred_product;
mod deferred_rest;
mod deferred_singletons;
mod deferred_unique;
mod error;
mod errors_argv;
mod errors_beta;
mod errors_constraint;
mod errors_math;
mod errors_parallel;
mod errors_provisional;
mod errors_results;
mod errors_show;
mod eval;
mod eventb;
mod eventb_calls;
mod eventb_simulation;
mod exec;
mod fast_closure;
mod fast_inverse;
mod fast_projection;
mod lazy_sets;
mod lexer;
mod library_bits;
mod library_defs;
mod library_machines;
mod library_opcalls;
mod library_opexprs;
mod library_optimize;
mod library_pragmas;
mod library_scope;
mod library_strings;
mod load;
mod maximal_sets;
mod model;
mod outcomes;
mod parse;
mod partition;
mod recent;
mod rename;
mod rename_nested;
mod set_representation;
mod setinfer;
mod setsize;
mod solve;
mod symbolic;
mod symbolic_constfun;
mod symbolic_deps;
mod symbolic_filter;
mod symbolic_fixed;
mod symbolic_pragma;
mod symbolic_recent;
mod symbolic_setformer;
mod symmetry;
mod value;
mod visit;

pub use error::{BError, ErrorKind};
pub use model::BModel;
pub use parse::MAX_NESTING;

/// Reads the machine in `path` with everything it depends on (beside it),
/// or, for a `.eventb` file, ProB's export of an Event-B machine (see
/// `eventb`). The model is named after the file stem.
pub fn parse_file(path: &Path) -> Result<BModel, BError> {
    let name = path.file_stem().map_or_else(
        || path.display().to_string(),
        |s| s.to_string_lossy().into_owned(),
    );
    let label = path.display().to_string();
    refuse_definitions_file(&label)?;
    on_load_stack(&|| {
        if is_event_b(&label) {
            let text = pins::read_source(path, &label)?;
            return event_b(&text, &label, &name);
        }
        let mut reader = load::Reader::new();
        let c = reader.compose_file(path)?;
        compile::compile(reader, c, &name)
    })
}

/// Reads a machine from `text` (an Event-B export when `file_label` ends
/// in `.eventb`); `file_label` names it in errors and is the model name.
/// Machines it refers to are looked up in the current directory.
pub fn parse_str(text: &str, file_label: &str) -> Result<BModel, BError> {
    refuse_definitions_file(file_label)?;
    on_load_stack(&|| {
        if is_event_b(file_label) {
            return event_b(text, file_label, file_label);
        }
        let mut reader = load::Reader::new();
        let c = reader.compose_str(text, file_label, Path::new("."))?;
        compile::compile(reader, c, file_label)
    })
}

/// The stack a machine is loaded on. The parser bounds nesting
/// ([`MAX_NESTING`]), but a flat chain of `&` is a tree as deep as its
/// length, and typing and solving walk it recursively: a spawned
/// thread's 2 MiB holds about 6,800 levels of typing, and
/// B/PerformanceTests/Generated10000's PROPERTIES has 10,000 conjuncts.
/// Reserved address space, not memory: only the pages a walk touches are
/// resident.
const LOAD_STACK: usize = 256 << 20;

/// Runs `load` on a thread of [`LOAD_STACK`] bytes (on the caller's own
/// stack if no such thread can be started); a panic in it goes on in the
/// caller.
fn on_load_stack<T: Send>(load: &(dyn Fn() -> T + Sync)) -> T {
    std::thread::scope(|s| {
        let spawned = std::thread::Builder::new()
            .name("b-load".into())
            .stack_size(LOAD_STACK)
            .spawn_scoped(s, load);
        match spawned {
            Ok(h) => h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)),
            Err(_) => load(),
        }
    })
}

/// A definitions file (`.def`) holds DEFINITIONS that machines read
/// (`DEFINITIONS "F.def"`), not a machine: given as a model, it is a
/// semantic error saying so, not a parse of it as a machine.
fn refuse_definitions_file(label: &str) -> Result<(), BError> {
    if Path::new(label).extension().is_some_and(|e| e == "def") {
        let msg = "a definitions file (.def) is not a machine: give the machine whose DEFINITIONS name it";
        return Err(BError::new(ErrorKind::Semantic, label, msg));
    }
    Ok(())
}

pub(crate) fn is_event_b(label: &str) -> bool {
    Path::new(label).extension().is_some_and(|e| e == "eventb")
}

/// An Event-B export: errors found by `compile` name their axiom or event.
fn event_b(text: &str, label: &str, name: &str) -> Result<BModel, BError> {
    let mut reader = load::Reader::new();
    let (c, regions) = eventb::compose_str(&mut reader, text, label)?;
    compile::compile(reader, c, name).map_err(|e| regions.name(e))
}

/// Whether a model error reports a construct this front-end does not
/// support (found while exploring) rather than an error of the model.
pub fn is_unsupported(e: &pins::ModelError) -> bool {
    e.unsupported
}

#[cfg(test)]
mod deferred_eventb_tests;
#[cfg(test)]
mod deferred_homogeneous_tests;
#[cfg(test)]
mod deferred_inferred_tests;
#[cfg(test)]
mod deferred_integer_bijection_tests;
#[cfg(test)]
mod deferred_listed_parts_tests;
#[cfg(test)]
mod deferred_nonempty_tests;
#[cfg(test)]
mod deferred_orbits_tests;
#[cfg(test)]
mod deferred_part_members_tests;
#[cfg(test)]
mod deferred_partition_tests;
#[cfg(test)]
mod errors_antitone_tests;
#[cfg(test)]
mod errors_math_tests;
#[cfg(test)]
mod errors_recurrence_tests;
#[cfg(test)]
mod errors_tests;
#[cfg(test)]
mod fast_projection_tests;
#[cfg(test)]
mod library_scope_tests;
#[cfg(test)]
mod library_syntax_tests;
#[cfg(test)]
mod library_tests;
#[cfg(test)]
mod maximal_sets_tests;
#[cfg(test)]
mod set_representation_tests;
#[cfg(test)]
mod symbolic_abstract_tests;
#[cfg(test)]
mod symbolic_plan_tests;
#[cfg(test)]
mod symbolic_recurrence_tests;
#[cfg(test)]
mod symbolic_setformer_tests;
#[cfg(test)]
mod symbolic_shadow_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_cardinality_monotone;
#[cfg(test)]
mod tests_deferred;
#[cfg(test)]
mod tests_lazy;
#[cfg(test)]
mod tests_library;
#[cfg(test)]
mod tests_misc;
#[cfg(test)]
mod tests_range;
#[cfg(test)]
mod tests_sequences;
#[cfg(test)]
mod tests_setsize;
#[cfg(test)]
mod tests_subsets;
#[cfg(test)]
mod tests_tuple_choice;
#[cfg(test)]
mod tests_values;
#[cfg(test)]
mod tests_wd;
