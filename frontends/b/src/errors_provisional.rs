//! Provisional explorations: an operation of a classical B machine whose
//! binder (its parameters, an ANY, a `:(`) meets an integer enumeration
//! we cannot be sure ProB makes (TestPrimedBecomeSuch's `xx : (xx >
//! xx$0)` at `xx = MAXINT`: ProB's candidates beyond MAXINT are not
//! known) gives no transition for it instead of refusing the whole model
//! at once, and the refusal is remembered. Every transition we then make
//! is one ProB makes, so a model error met later is in a state ProB
//! reaches too (ProB's error row); an exploration that ends without one
//! is refused at its end ([`pins::Model::complete`]), never counted.
//!
//! Only positive binders (solved with `guard`) take part: a quantifier
//! or comprehension inside an expression, where missing values could make
//! a formula true that ProB finds false, still refuses at once. Not for
//! Event-B (its refinement checks read abstract guards, where a missing
//! value would be a false simulation error), nor in SETUP_CONSTANTS or
//! the INITIALISATION (no solution there is an error of its own).
//! ProB's per-state caps (`SET_PREF_MAX_OPERATIONS`) do not cut its
//! counts (see the crate's documentation), so they do not matter here.
//!
//! Parameters no conjunct gives a finite range (BarRel_CXCC_Feb08's
//! `i > 1 & i : NATURAL1 & route(i) = n`) are planned last
//! ([`plan_params`]): the operation gives the transitions of the other
//! parameters' values only where its guard has no solution whatever
//! theirs (none reaching them), and its refusal is remembered at each
//! try, so that such an exploration is never counted either.
//!
//! A call of one of ProB's library externals this front-end does not
//! evaluate ([`unmodelled`]: `SINx(m, x)` for `m /= 0`, `TEST`...) in such
//! an operation drops that operation's transitions from the state at hand
//! the same way, its refusal remembered ([`skip_unmodelled`]): the states
//! then reached are ProB's, and ErrorInLibraryCall's `SINx(0, 10)`, met in
//! a state reached by its other operations, is ProB's error.
//!
//! Owns only this bookkeeping: which enumerations are uncertain stays in
//! `solve::bounds`, and the explorer's end in the engines.

use std::cell::{Cell, RefCell};

use crate::ast::{Expr, Operation, Pos, Sym, Syms};
use crate::eval::{Fail, World, E};
use crate::solve::{Gen, Plan, PlanResult};

thread_local! {
    static ALLOWED: Cell<bool> = const { Cell::new(false) };
    static MET: RefCell<Option<Fail>> = const { RefCell::new(None) };
    static UNMODELLED: RefCell<Option<(String, Pos)>> = const { RefCell::new(None) };
}

/// Runs `f` (an operation's successors) with provisional binders allowed
/// when `allowed`; returns its result and the first refusal deferred.
pub(crate) fn within<R>(allowed: bool, f: impl FnOnce() -> R) -> (R, Option<Fail>) {
    let before = ALLOWED.with(|a| a.replace(allowed));
    UNMODELLED.with(|u| u.borrow_mut().take());
    let r = f();
    ALLOWED.with(|a| a.set(before));
    (r, MET.with(|m| m.borrow_mut().take()))
}

/// No candidates for an uncertain enumeration of a positive binder
/// (`guard`) while provisional binders are allowed, the refusal `f`
/// remembered; `f` itself otherwise.
pub(crate) fn defer<T>(f: Fail, guard: bool) -> E<Vec<T>> {
    if !guard || !ALLOWED.with(Cell::get) {
        return Err(f);
    }
    MET.with(|m| {
        m.borrow_mut().get_or_insert(f);
    });
    Ok(Vec::new())
}

/// Whether provisional binders are allowed now (inside [`within`]).
pub(crate) fn active() -> bool {
    ALLOWED.with(Cell::get)
}

/// The plan of an operation's parameters `ids` typed by `pred`: ProB's
/// (`solve::plan`), or, where some parameter has no finite range, the
/// plan binding those last (`solve::plan_deferring`), whose unbounded
/// step then defers (see [`defer`]) and whose refusal [`note`] keeps.
pub(crate) fn plan_params(ids: &[Sym], pred: &Expr, syms: &Syms) -> PlanResult {
    crate::solve::plan(ids, pred, syms)
        .or_else(|f| crate::solve::plan_deferring(ids, pred, syms).map_err(|_| f))
}

/// Remembers the refusal of `plan`'s unbounded step, if it has one
/// (a [`plan_params`] fallback), whether or not a state reaches it.
pub(crate) fn note(plan: &Plan) {
    let unbounded = plan.steps.iter().find_map(|s| match &s.gen {
        Gen::Unbounded(m, p) => Some(Fail::Unsupported(m.clone(), *p)),
        _ => None,
    });
    if let Some(f) = unbounded.filter(|_| active()) {
        MET.with(|m| {
            m.borrow_mut().get_or_insert(f);
        });
    }
}

/// Whether `op`'s binders may be provisional: a classical B operation
/// (not Event-B).
pub(crate) fn allowed(w: &World, op: &Operation) -> bool {
    let file = w.files.get(usize::from(op.pos.file));
    !file.is_some_and(|f| crate::is_event_b(f))
}

/// The refusal `f` deferred until a complete exploration without a model
/// error, as reported then.
pub(crate) fn at_end(f: &Fail) -> Fail {
    match f {
        Fail::Unsupported(m, p) => Fail::Unsupported(
            format!("{m} (met in an operation; the exploration without its values found no model error)"),
            *p,
        ),
        other => other.clone(),
    }
}

/// The refusal of a call of a library external this front-end does not
/// evaluate (`what`, at `pos`), marked as one [`skip_unmodelled`] may
/// drop while provisional binders are allowed.
pub(crate) fn unmodelled(what: String, pos: Pos) -> Fail {
    if active() {
        UNMODELLED.with(|u| *u.borrow_mut() = Some((what.clone(), pos)));
    }
    Fail::Unsupported(what, pos)
}

/// An operation's successors `r` (computed inside [`within`]): a refusal
/// by the last [`unmodelled`] call becomes no further transition, the
/// refusal returned to be remembered; anything else as it was.
pub(crate) fn skip_unmodelled(r: E<()>) -> (E<()>, Option<Fail>) {
    let marked = UNMODELLED.with(|u| u.borrow_mut().take());
    match (r, marked) {
        (Err(Fail::Unsupported(m, p)), Some((um, up))) if m == um && p == up => {
            (Ok(()), Some(Fail::Unsupported(m, p)))
        }
        (r, _) => (r, None),
    }
}
