//! mCRL2 front-end for statebench: reads a **linear process
//! specification** (LPS) in mCRL2's text syntax, as `lpspp` prints it, and
//! exposes it as a [`pins::Model`] the way LTSmin's mCRL2 module does: one
//! slot per process parameter, one transition group per summand.
//!
//! # Pipeline
//! `lexer` -> `parser` (syntax tree, [`ast`]) -> `sorts` (aliases,
//! structured sorts) -> `compile` (names resolved: [`term`]) -> `model`
//! (summands, initial state, `pins`), with `rewriter` evaluating data terms
//! to normal forms ([`value`]; `cases` recognises the case functions it
//! evaluates lazily, `fold` evaluates closed subterms once at load),
//! `enumerator` finding the values of sum variables, and `interner`
//! numbering each parameter's values (LTSmin's chunk maps: a state is a
//! vector of `u32` indices).
//!
//! # Why our own parser, not `merc_syntax`
//! `merc_syntax` 2.0.0 (the pest grammar and AST of the whole mCRL2
//! language) was judged and not used: (1) its `DataExpr` nodes carry no
//! source position (only declarations have a `Span`), so errors in a
//! condition or an equation could not name `file:line:column`; (2) it
//! depends on `merc_lts`, `merc_refinement`, `merc_data`, `merc_aterm`...:
//! 159 crates in `cargo tree`, including `bindgen` (libclang at build
//! time), against this crate's two; (3) an LPS printed by `lpspp` uses a
//! small, regular part of the language (one process, summands in a fixed
//! shape), which a recursive-descent parser of about 1000 lines (with its lexer)
//! covers: every one of the 163 corpus files parses (`tests/corpus.rs`).
//!
//! # Semantics
//! - Data: Bool, Pos, Nat, Int (128-bit; leaving that range is a model
//!   error, never a wrapped value), Real (reduced fractions), structured
//!   sorts with projections and recognisers, List, Set/FSet, Bag/FBag,
//!   function sorts with update `f[x -> v]`, lambda, `if`, `whr`,
//!   `forall`/`exists` over finite sorts, sort aliases, and user maps
//!   defined by equations: see `rewriter` for the strategy (rules tried in
//!   order, innermost arguments but jitty's laziness for the arguments a
//!   rule never inspects, lazy `if`/`&&`/`||`/`=>` with jitty's rules
//!   deciding an operand that has no normal form). A term mCRL2 leaves
//!   unrewritten (`head([])`, `s_(NONE)`) is stored as it is when it is a
//!   parameter update or action argument, as lps2lts stores it; in a
//!   condition, which must rewrite to `true` or `false`, it is a model
//!   error naming the summand and the term (lps2lts stops there too).
//!   Constructors overloaded by argument sort (`key(Nat) | key(Bool)`)
//!   are refused (unsupported), not guessed. Rules for built-in
//!   functions (`if(a, false, true) = !a`) are identities closed terms do
//!   not need, and are skipped.
//! - `glob` (don't-care) variables take their sort's default value: the
//!   first constant constructor, 0 for Nat/Int, 1 for Pos, `false` for
//!   Bool, empty containers (after mCRL2's representative generator;
//!   checked only through the corpus counts, where dc values of Nat, Pos,
//!   Bool and two-constant sorts are common).
//! - Sorts: `typecheck` checks each summand's condition, updates and
//!   action arguments and the initial values against the declared sorts
//!   at load time (a partial inference: what it cannot be sure of it
//!   leaves to mCRL2's own type checker), so a mistyped expression is a
//!   [`ErrorKind::Semantic`] error at its file:line:column.
//! - Sum variables: see `enumerator`; a sum variable over an infinite sort
//!   that the condition does not bound makes the load fail with
//!   [`ErrorKind::Unsupported`] naming the summand.
//! - `delta` summands have no transitions and get no group; a timed or
//!   terminating summand is refused (unsupported).
//!
//! # Counting
//! `lps2lts` counts one transition per solution of a summand's sum
//! variables whose condition holds, without merging equal (label, target)
//! pairs: on the corpus, `forall` (`sum e: Enum4. tau . P()`, one state)
//! has 4 transitions in the oracle, `lambda` 3, `numbers` 59. So does this
//! front-end: every solution is emitted, within a summand and across
//! summands, and `pins`' count (every emitted successor) is lps2lts's.
//!
//! # Files that are not linear
//! [`parse_file`] on a specification that is not an LPS runs `mcrl22lps`
//! and `lpspp` when both are on `PATH`; otherwise it fails with
//! [`ErrorKind::NotLinear`], saying how to linearise the file first.

pub mod ast;
mod cases;
mod compile;
mod enumerator;
mod error;
mod fold;
mod interner;
mod lexer;
mod model;
pub mod parser;
mod rewriter;
mod sorts;
mod term;
mod typecheck;
mod value;

#[cfg(test)]
mod tests;

use std::path::Path;
use std::process::Command;

pub use error::{ErrorKind, Mcrl2Error};
pub use model::{Label, Mcrl2Model};

/// Reads and loads the linear process in `path` (linearising it first with
/// `mcrl22lps | lpspp` when it is not linear and the tools are on `PATH`).
pub fn parse_file(path: &Path) -> Result<Mcrl2Model, Mcrl2Error> {
    let label = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|e| Mcrl2Error::new(ErrorKind::Io, &label, format!("cannot read: {e}")))?;
    let name = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("model")
        .to_owned();
    match load_text(&text, &label, &name) {
        Err(e) if e.kind() == ErrorKind::NotLinear => {
            let lps = linearise(path, &label, &e)?;
            load_text(&lps, &format!("{label} (linearised)"), &name)
        }
        other => other,
    }
}

/// Loads a linear process from text; `file_label` names it in messages.
pub fn parse_str(text: &str, file_label: &str) -> Result<Mcrl2Model, Mcrl2Error> {
    let name = Path::new(file_label)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("model")
        .to_owned();
    load_text(text, file_label, &name)
}

fn load_text(text: &str, file: &str, name: &str) -> Result<Mcrl2Model, Mcrl2Error> {
    let spec = parser::parse_spec(text, file)?;
    model::load(&spec, file, name)
}

fn on_path(tool: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(tool).is_file()))
}

/// `mcrl22lps FILE | lpspp`: the linear process as text.
fn linearise(path: &Path, label: &str, why: &Mcrl2Error) -> Result<String, Mcrl2Error> {
    if !(on_path("mcrl22lps") && on_path("lpspp")) {
        return Err(Mcrl2Error::new(
            ErrorKind::NotLinear,
            label,
            format!(
                "{why} -- this front-end reads linear processes; linearise the file first: \
                 `mcrl22lps {label} out.lps && lpspp out.lps out.mcrl2` (mCRL2 toolset), \
                 or put mcrl22lps and lpspp on PATH"
            ),
        ));
    }
    let dir = std::env::temp_dir().join(format!("statebench-mcrl2-{}", std::process::id()));
    std::fs::create_dir_all(&dir)
        .map_err(|e| Mcrl2Error::new(ErrorKind::Io, label, format!("temporary directory: {e}")))?;
    let lps = dir.join("out.lps");
    let run = |cmd: &mut Command| -> Result<std::process::Output, Mcrl2Error> {
        let out = cmd.output().map_err(|e| {
            Mcrl2Error::new(ErrorKind::Io, label, format!("running mCRL2 tools: {e}"))
        })?;
        if !out.status.success() {
            return Err(Mcrl2Error::new(
                ErrorKind::Io,
                label,
                format!(
                    "linearisation failed: {}",
                    String::from_utf8_lossy(&out.stderr)
                        .lines()
                        .last()
                        .unwrap_or("")
                ),
            ));
        }
        Ok(out)
    };
    run(Command::new("mcrl22lps").arg("-q").arg(path).arg(&lps))?;
    let out = run(Command::new("lpspp").arg("-q").arg(&lps))?;
    let _ = std::fs::remove_dir_all(&dir);
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}
