//! ProB's `SCOPE == P` definition, which restricts its model checking to
//! the states satisfying `P`.
//!
//! ProB's counts with a SCOPE (its three models: scope_b, 6 / 7;
//! scheduler_with_scope, 28 / 113; MCInnerFIFO_Internal, 3,865 / 9,661):
//! an initialised state outside the scope is neither counted nor
//! explored, but the transition reaching it is counted (scope_b: the
//! sequences of length 0..5, 6 states, and 7 transitions, the append to
//! length 6 among them). A PINS model counts a state per successor that
//! is new, so such a transition is given as an edge back to its source
//! (a self-loop): one transition more, no state more, nothing explored
//! beyond it. The decision reads the target's values of `P`'s variables,
//! so every group that reaches initialised states reads their slots too
//! (see `model`).
//!
//! Owns reading the definition, the scope test and the emission adapter;
//! it must not touch how successors are computed (`model`, `exec`).

use pins::Value as PValue;
use rustc_hash::FxHashMap;

use crate::ast::{Expr, Machine, Sym};
use crate::error::{BError, ErrorKind};
use crate::eval::{Env, Fail, E};
use crate::model::BModel;
use crate::parse::{err_at, Def, Parser};

type R<T> = Result<T, BError>;

/// The predicate of a parameterless `SCOPE` definition among `defs`
/// (expanded through the other definitions), if there is one.
pub(crate) fn read(
    defs: &FxHashMap<String, Def>,
    files: &[String],
    syms: &mut crate::ast::Syms,
) -> R<Option<Expr>> {
    let Some(def) = defs.get("SCOPE").filter(|d| d.params.is_empty()) else {
        return Ok(None);
    };
    let mut p = Parser::new(def.body.clone(), files, syms, defs);
    let e = p.expr()?;
    p.expect_eof()?;
    Ok(Some(e))
}

/// The SCOPE predicate ProB applies: the main machine's (the last of
/// `machines`). A SCOPE of another machine, or one with parameters, is
/// refused.
pub(crate) fn of_main(machines: &[Machine], files: &[String]) -> R<Option<Expr>> {
    let Some((main, rest)) = machines.split_last() else {
        return Ok(None);
    };
    for m in rest.iter().chain([main]) {
        let Some((_, _, pos)) = m.settings.iter().find(|(k, _, _)| k == "SCOPE") else {
            continue;
        };
        if m.name != main.name || main.scope.is_none() {
            return Err(err_at(
                files,
                ErrorKind::Unsupported,
                *pos,
                "a SCOPE definition outside the main machine or with parameters",
            ));
        }
    }
    Ok(main.scope.clone())
}

impl BModel {
    /// Whether the SCOPE (if any) holds in `t`; states before the
    /// INITIALISATION (phase 0 or 1) are always in scope.
    fn in_scope(&self, scope: &Expr, t: &[PValue]) -> E<bool> {
        if t[0] != 2 {
            return Ok(true);
        }
        let mut env = Env {
            w: &self.world,
            slots: self.decode(t),
            locals: Vec::new(),
            local_samples: Vec::new(),
            symbolic: false,
        };
        env.holds(scope)
    }

    /// Runs `successors` from `source`, passing each successor to `emit`
    /// or, when it is outside the SCOPE, `source` itself (see the module
    /// documentation). Without a SCOPE, `successors` runs on `emit` as
    /// it is.
    pub(crate) fn within_scope(
        &self,
        source: &[PValue],
        emit: &mut dyn FnMut(&[PValue]),
        successors: impl FnOnce(&mut dyn FnMut(&[PValue])) -> E<()>,
    ) -> E<()> {
        let Some(scope) = &self.world.scope else {
            return successors(emit);
        };
        let mut failed: Option<Fail> = None;
        let r = successors(&mut |t: &[PValue]| {
            if failed.is_some() {
                return;
            }
            match self.in_scope(scope, t) {
                Ok(true) => emit(t),
                Ok(false) => emit(source),
                Err(f) => failed = Some(f),
            }
        });
        r?;
        failed.map_or(Ok(()), Err)
    }
}

/// The slots a SCOPE reads, by `slot_of` (for the groups' read sets).
pub(crate) fn reads(scope: Option<&Expr>, slot_of: &dyn Fn(Sym) -> Option<usize>) -> Vec<usize> {
    let mut ids = Vec::new();
    if let Some(e) = scope {
        crate::solve::idents(e, &mut ids);
    }
    ids.into_iter().filter_map(slot_of).collect()
}
