//! Large sets that ProB may keep symbolic in variables.
//!
//! ProB holds a large interval, comprehension or lambda (and what it
//! computes from one) in a variable as a closure rather than as an
//! explicit set, and a state is a term: the same set reached by two
//! different computations may be two states for ProB (its
//! EnumerateFunctionTests2: `funs := ID <-> ID` and `funs := funs \/
//! {{1|->1}}` give the same 65,536 relations, two states). A value is a
//! value whatever its representation, so our counts equal ProB's exactly
//! when every large symbolic set a variable holds has one *origin*: the
//! transition group, its parameter values and the values (with their own
//! origins) of the slots it reads where it is computed. ProB's
//! representation of the result is a function of these, so one origin
//! per (variable, value) means one ProB state per state of ours. A value
//! reached from two origins is unsupported, whatever the order of
//! exploration (ProB's Sieve: `numbers := 2..lim` from two states with
//! `cur = 1` has one origin; TestBZTT_Data's `xx := xx \/ yy` and `xx,yy
//! := yy,xx` two).
//!
//! A large set built without any symbolic part (a union of explicit
//! sets) is explicit in ProB too: its origin is [`EXPLICIT`]. A large
//! set tested for membership in a relation, function or sequence space
//! is refused (ProB decides these on the closure, not always as on the
//! set: its SeqCheck counts 3 transitions fewer).
//!
//! A large set of symbolic origin is interned apart from the same value
//! of explicit origin: ProB's closure and explicit set are two states
//! (see `set_representation`).
//!
//! Owns the origin table and the membership check; `model` calls it
//! where a variable is written and an operation starts.

use std::cell::Cell;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use pins::Value as PValue;
use rustc_hash::{FxHashMap, FxHasher};

use crate::ast::*;
use crate::eval::{Fail, E, LARGE_SET};
use crate::exec::Callee;
use crate::value::Value;
use crate::visit::{walk_subst, Role, SubstVisitor};

/// The origin of a large set computed without a symbolic part.
const EXPLICIT: u128 = 0;

/// Where a written value was computed: the transition group, its
/// parameter values and the source state, of which the slots in `reads`
/// (1-based pins slots) are those the group evaluates.
pub(crate) struct Origin<'a> {
    pub group: usize,
    pub params: &'a [Value],
    pub state: &'a [PValue],
    pub reads: &'a [usize],
}

/// The origins of the large sets a state holds: (variable slot, 0-based;
/// origin fingerprint), in increasing slot order.
pub(crate) type Held = Vec<(usize, u128)>;

/// Per state holding large sets, their origins.
#[derive(Default)]
pub(crate) struct LazySets {
    origins: Mutex<FxHashMap<Vec<PValue>, Held>>,
    /// Whether `origins` has an entry (so that models without large sets
    /// skip the table).
    any: AtomicBool,
}

impl LazySets {
    /// Whether no state holds a large set yet (`fast_projection` caches
    /// successors only then).
    pub(crate) fn none_held(&self) -> bool {
        !self.any.load(Ordering::Acquire)
    }

    /// The origins of the large sets `state` holds.
    fn origins_in(&self, state: &[PValue]) -> Held {
        if !self.any.load(Ordering::Acquire) {
            return Held::new();
        }
        let t = self.origins.lock().unwrap_or_else(|e| e.into_inner());
        t.get(state).cloned().unwrap_or_default()
    }

    /// Whether a slot of `state` that `reads` lists holds a large set of
    /// symbolic origin (so that what is computed from it may be symbolic).
    pub(crate) fn tainted(&self, state: &[PValue], reads: &[usize]) -> bool {
        self.origins_in(state)
            .iter()
            .any(|&(i, o)| o != EXPLICIT && reads.binary_search(&(i + 1)).is_ok())
    }

    /// A 128-bit fingerprint of `o` (two independent 64-bit hashes).
    fn fingerprint(&self, o: &Origin) -> u128 {
        let held = self.origins_in(o.state);
        let mut a = FxHasher::default();
        #[allow(deprecated)]
        let mut b = std::hash::SipHasher::new_with_keys(0x5eed, 0xb5e7);
        for h in [&mut a as &mut dyn Hasher, &mut b] {
            o.group.hash(&mut HashTo(h));
            o.params.hash(&mut HashTo(h));
            for &r in o.reads {
                (r, o.state[r]).hash(&mut HashTo(h));
                let origin = held.iter().find(|&&(i, _)| i + 1 == r).map(|p| p.1);
                origin.hash(&mut HashTo(h));
            }
        }
        (u128::from(a.finish()) << 64) | u128::from(b.finish())
    }

    /// The origins of the large sets of the state reached at `o`:
    /// `written` lists the variable slots (0-based) the transition
    /// assigns, with the number of elements of those given a large set;
    /// the others keep their origin in the source. `symbolic`: the large
    /// sets written come from a large interval, comprehension or symbolic
    /// constant, or from a slot of symbolic origin; those of `explicit`
    /// (`set_representation`) are explicit all the same.
    pub(crate) fn held(
        &self,
        written: &[(usize, Option<usize>)],
        symbolic: bool,
        explicit: &[usize],
        o: &Origin,
    ) -> Held {
        if !self.any.load(Ordering::Acquire) && written.iter().all(|w| w.1.is_none()) {
            return Held::new();
        }
        let fresh = if symbolic {
            self.fingerprint(o)
        } else {
            EXPLICIT
        };
        let mut held: Held = self
            .origins_in(o.state)
            .into_iter()
            .filter(|(i, _)| !written.iter().any(|w| w.0 == *i))
            .collect();
        held.extend(written.iter().filter(|w| w.1.is_some()).map(|w| {
            let origin = if explicit.contains(&w.0) {
                EXPLICIT
            } else {
                fresh
            };
            (w.0, origin)
        }));
        held.sort_unstable();
        held
    }

    /// Records `held`, the origins of the large sets of `target` (which
    /// interns each as a closure or not, see [`is_closure`]): `Err(slot)`
    /// when `target` was reached before with other origins.
    pub(crate) fn record(&self, target: &[PValue], held: Held) -> Result<(), usize> {
        if held.is_empty() {
            return Ok(());
        }
        let mut t = self.origins.lock().unwrap_or_else(|e| e.into_inner());
        match t.get(target) {
            Some(seen) if *seen != held => Err(held
                .iter()
                .zip(seen)
                .find(|(h, s)| h != s)
                .map_or(held[0], |p| *p.0)
                .0),
            Some(_) => Ok(()),
            None => {
                t.insert(target.to_vec(), held);
                self.any.store(true, Ordering::Release);
                Ok(())
            }
        }
    }
}

/// Whether `held` gives slot `i` (0-based) a symbolic origin: ProB holds
/// its large set as a closure, a state other than the explicit set.
pub(crate) fn is_closure(held: &Held, i: usize) -> bool {
    held.iter().any(|&(j, o)| j == i && o != EXPLICIT)
}

/// The refusal of a state reached with a large set of variable `name`
/// computed in two ways.
pub(crate) fn conflict(name: &str, len: usize, pos: Pos) -> Fail {
    Fail::Unsupported(
        format!(
            "variable {name} holding a set of {len} elements computed in two ways \
             (ProB keeps such sets symbolic and may count one value as two states)"
        ),
        pos,
    )
}

/// Feeds a `dyn Hasher` through the generic [`Hash`] interface.
struct HashTo<'h>(&'h mut dyn Hasher);

impl Hasher for HashTo<'_> {
    fn finish(&self) -> u64 {
        self.0.finish()
    }
    fn write(&mut self, bytes: &[u8]) {
        self.0.write(bytes)
    }
}

thread_local! {
    /// Whether an INITIALISATION or operation is being computed here.
    static IN_TRANSITION: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` as the computation of an INITIALISATION or an operation (see
/// [`check_space_member`]).
pub(crate) fn in_transition<R>(f: impl FnOnce() -> R) -> R {
    let was = IN_TRANSITION.with(|c| c.replace(true));
    let r = f();
    IN_TRANSITION.with(|c| c.set(was));
    r
}

/// Whether `x` is a set large enough for ProB to keep it symbolic.
pub(crate) fn is_large(x: &Value) -> bool {
    matches!(x, Value::Set(s) if s.len() > LARGE_SET)
}

/// Refuses `x : s` for a large set `x` of a symbolic evaluation and a
/// relation, function or sequence space `s` (see the module comment).
pub(crate) fn check_space_member(x: &Value, s: &Expr, symbolic: bool) -> E<()> {
    if !IN_TRANSITION.with(Cell::get) {
        // constants (PROPERTIES) hold their large sets as ours: ID_Checks
        return Ok(());
    }
    let space = matches!(
        s.kind,
        ExprKind::Bin(BinOp::Space(_), ..)
            | ExprKind::Call(
                Builtin::Seq | Builtin::Seq1 | Builtin::Iseq | Builtin::Iseq1 | Builtin::Perm,
                _
            )
    );
    if symbolic && space && is_large(x) {
        let n = x.as_set().map_or(0, |s| s.len());
        return Err(Fail::Unsupported(
            format!(
                "membership of a set of {n} elements ProB keeps symbolic in a relation, \
                 function or sequence space (ProB decides it on its symbolic form)"
            ),
            s.pos,
        ));
    }
    Ok(())
}

/// The slots (1-based) whose identifiers `s` evaluates (not those it only
/// assigns), through the operations it calls; `slot_of` maps an
/// identifier to its slot.
pub(crate) fn reads_of(
    s: &Subst,
    callee: &dyn Callee,
    slot_of: &dyn Fn(Sym) -> Option<usize>,
) -> Vec<usize> {
    let mut c = ReadCollector {
        callee,
        ids: Vec::new(),
        calls: Vec::new(),
    };
    let Ok(()) = walk_subst(s, &mut c);
    let mut out: Vec<usize> = c.ids.into_iter().filter_map(slot_of).collect();
    out.push(0);
    out.sort_unstable();
    out.dedup();
    out
}

struct ReadCollector<'a> {
    callee: &'a dyn Callee,
    ids: Vec<Sym>,
    calls: Vec<Sym>,
}

impl SubstVisitor for ReadCollector<'_> {
    type Err = std::convert::Infallible;
    fn expr(&mut self, e: &Expr, role: Role) -> Result<(), Self::Err> {
        match (role, &e.kind) {
            // `x := E` does not read `x`; `f(a) := E` reads `f` and `a`
            (Role::Target, ExprKind::Ident(_)) | (Role::Output, _) => {}
            _ => crate::solve::idents(e, &mut self.ids),
        }
        Ok(())
    }
    fn call(&mut self, name: Sym) -> Result<(), Self::Err> {
        if !self.calls.contains(&name) {
            self.calls.push(name);
            if let Some(op) = self.callee.operation(name) {
                walk_subst(&op.body, self)?;
            }
        }
        Ok(())
    }
}
