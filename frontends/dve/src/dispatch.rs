//! Which groups may fire in a state: per process, per control state, the
//! groups whose transition (a rendezvous pair: its receiver's) leaves that
//! control state, each with the comparisons its guards begin with, of a
//! variable (or an array element at a constant index) with a constant
//! (`token == 1 && a[3] == 0 && ...`), compiled at load time. When all of
//! a receiver's guards are such comparisons, its pair's comparisons go on
//! with the sender's control state and the comparisons the sender's guards
//! begin with. `DveModel::fire` tests the control state first, then the
//! guards in order (a pair: the receiver's, then the sender's), and
//! answers "not enabled" as soon as one is false, so a group of another
//! control state, or whose first comparisons fail, is not enabled and
//! evaluating it meets no error: the successor function tries only the
//! other groups, and for those evaluates only the conjuncts after the
//! comparisons ([`residual`]). Also owns the per-thread buffer the
//! successor function reuses from state to state.

use std::cell::RefCell;

use pins::Value;
use scan::{Cmp, Interval};

use crate::model::{CTrans, Ex, GroupKind};
use crate::parse::{BinOp, Ty, UnOp};

/// `value op k`, the value a slot's (read as its type: a byte's low 8
/// bits, an int's low 16 bits sign-extended, a control state raw), tested
/// without branches: `(raw & mask) << shift`, shifted back arithmetically,
/// against an [`Interval`].
#[derive(Clone, Copy, Debug)]
struct Atom {
    slot: u32,
    mask: Value,
    shift: u32,
    test: Interval,
}

impl Atom {
    fn new(slot: u32, ty: Option<Ty>, op: Cmp, k: i32) -> Atom {
        let (mask, shift) = match ty {
            Some(Ty::Byte) => (0xFF, 0),
            Some(Ty::Int) => (Value::MAX, 16),
            None => (Value::MAX, 0),
        };
        Atom {
            slot,
            mask,
            shift,
            test: Interval::of(op, k),
        }
    }

    #[inline]
    fn holds(&self, s: &[Value]) -> bool {
        let raw = s[self.slot as usize] & self.mask;
        self.test.holds(((raw << self.shift) as i32) >> self.shift)
    }
}

/// A group leaving a control state and where its leading comparisons lie
/// in [`Dispatch::atoms`].
#[derive(Clone, Copy, Debug)]
struct Candidate {
    group: u32,
    atoms: (u32, u32),
}

/// The groups leaving one control state.
#[derive(Clone, Debug, Default)]
struct Leaving {
    /// In increasing order of group.
    groups: Vec<Candidate>,
    /// Whether one of them has leading comparisons.
    guarded: bool,
}

/// Groups by the control state their transition leaves, with their guards.
#[derive(Clone, Debug, Default)]
pub(crate) struct Dispatch {
    /// Per process that leaves a control state in some group: its
    /// control-state slot and, per control state, the groups in increasing
    /// order.
    procs: Vec<(u32, Vec<Leaving>)>,
    /// Every group's leading comparisons, group after group.
    atoms: Vec<Atom>,
}

impl Dispatch {
    pub(crate) fn new(kinds: &[GroupKind], trans: &[CTrans]) -> Dispatch {
        let mut procs: Vec<(u32, Vec<Leaving>)> = Vec::new();
        let mut of_proc: Vec<Option<usize>> = Vec::new();
        let mut atoms = Vec::new();
        for (g, kind) in kinds.iter().enumerate() {
            // a pair evaluates its receiver first
            let (t, sender) = match *kind {
                GroupKind::Single(t) => (&trans[t], None),
                GroupKind::Pair { recv, send } => (&trans[recv], Some(&trans[send])),
            };
            let start = atoms.len() as u32;
            let whole = leading_comparisons(&t.guards, &mut atoms);
            if let (true, Some(w)) = (whole, sender) {
                atoms.push(Atom::new(w.pc_slot, None, Cmp::Eq, w.from as i32));
                leading_comparisons(&w.guards, &mut atoms);
            }
            let span = (start, atoms.len() as u32);
            if of_proc.len() <= t.proc {
                of_proc.resize(t.proc + 1, None);
            }
            let at = *of_proc[t.proc].get_or_insert_with(|| {
                procs.push((t.pc_slot, Vec::new()));
                procs.len() - 1
            });
            let by_state = &mut procs[at].1;
            let from = t.from as usize;
            if by_state.len() <= from {
                by_state.resize(from + 1, Leaving::default());
            }
            by_state[from].groups.push(Candidate {
                group: g as u32,
                atoms: span,
            });
            by_state[from].guarded |= span.0 < span.1;
        }
        Dispatch { procs, atoms }
    }

    /// Calls `f` on each group that may be enabled in `s`, in increasing
    /// order, up to the first error. The groups of a process are
    /// contiguous, processes in order (`compile` numbers them so), hence
    /// the order.
    pub(crate) fn try_each_candidate<E>(
        &self,
        s: &[Value],
        mut f: impl FnMut(usize) -> Result<(), E>,
    ) -> Result<(), E> {
        for (slot, by_state) in &self.procs {
            let Some(leaving) = by_state.get(s[*slot as usize] as usize) else {
                continue;
            };
            for c in &leaving.groups {
                if !leaving.guarded || self.opens(c.atoms, s) {
                    f(c.group as usize)?;
                }
            }
        }
        Ok(())
    }

    /// The groups that may be enabled in `s`, in increasing order, into
    /// `out` (emptied first).
    #[cfg(test)]
    pub(crate) fn candidates(&self, s: &[Value], out: &mut Vec<u32>) {
        out.clear();
        let _ = self.try_each_candidate(s, |g| -> Result<(), ()> {
            out.push(g as u32);
            Ok(())
        });
    }

    /// Whether a comparison `group`'s guards begin with is false in `s`.
    #[cfg(test)]
    pub(crate) fn blocks(&self, group: usize, s: &[Value]) -> bool {
        let all = self.procs.iter().flat_map(|(_, by_state)| by_state);
        let mut candidates = all.flat_map(|leaving| &leaving.groups);
        candidates.any(|c| c.group as usize == group && !self.opens(c.atoms, s))
    }

    /// Whether the comparisons `atoms[start..end]` all hold in `s`.
    #[inline]
    fn opens(&self, (start, end): (u32, u32), s: &[Value]) -> bool {
        self.atoms[start as usize..end as usize]
            .iter()
            .all(|a| a.holds(s))
    }
}

thread_local! {
    static SCRATCH: RefCell<Vec<Value>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` with this thread's buffer for a successor (so that a state's
/// successors allocate nothing); a nested call gets a fresh one.
pub(crate) fn with_scratch<T>(f: impl FnOnce(&mut Vec<Value>) -> T) -> T {
    let mut out = SCRATCH.with(|s| std::mem::take(&mut *s.borrow_mut()));
    let result = f(&mut out);
    SCRATCH.with(|s| *s.borrow_mut() = out);
    result
}

/// The conjuncts of `guards` in evaluation order: the guards are evaluated
/// in order, each `a && b` left to right, and the transition is enabled
/// iff every conjunct is non-zero, evaluation stopping at the first zero.
fn conjuncts<'a>(guards: &'a [Ex], out: &mut Vec<&'a Ex>) {
    fn split<'a>(e: &'a Ex, out: &mut Vec<&'a Ex>) {
        match e {
            Ex::Bin(BinOp::And, a, b, _) => {
                split(a, out);
                split(b, out);
            }
            _ => out.push(e),
        }
    }
    guards.iter().for_each(|g| split(g, out));
}

/// The comparisons the guards begin with, in evaluation order, up to the
/// first conjunct that is not one (a comparison of a slot with a constant
/// cannot fail, so when one of these is false nothing after it is
/// evaluated); true when every conjunct is one.
fn leading_comparisons(guards: &[Ex], out: &mut Vec<Atom>) -> bool {
    let mut all = Vec::new();
    conjuncts(guards, &mut all);
    let leading = all.iter().map_while(|e| atom(e));
    let before = out.len();
    out.extend(leading);
    out.len() - before == all.len()
}

/// Whether the comparisons `guards` begin with hold in `s`.
#[cfg(test)]
pub(crate) fn leading_comparisons_hold(guards: &[Ex], s: &[Value]) -> bool {
    let mut atoms = Vec::new();
    leading_comparisons(guards, &mut atoms);
    atoms.iter().all(|a| a.holds(s))
}

/// The conjuncts of `guards` after the comparisons they begin with: what
/// is left to evaluate once [`Dispatch`] found those true.
pub(crate) fn residual(guards: &[Ex]) -> Vec<&Ex> {
    let mut all = Vec::new();
    conjuncts(guards, &mut all);
    let n = all.iter().take_while(|e| atom(e).is_some()).count();
    all.split_off(n)
}

fn atom(e: &Ex) -> Option<Atom> {
    let var = |slot: u32, ty: Ty, op, k| Some(Atom::new(slot, Some(ty), op, k));
    match e {
        Ex::InState { slot, state } => {
            Some(Atom::new(*slot, None, Cmp::Eq, i32::try_from(*state).ok()?))
        }
        Ex::Var(..) | Ex::Elem { .. } => {
            let (slot, ty) = element(e)?;
            var(slot, ty, Cmp::Ne, 0)
        }
        Ex::Un(UnOp::Not, a) => {
            let (slot, ty) = element(a)?;
            var(slot, ty, Cmp::Eq, 0)
        }
        Ex::Bin(BinOp::Cmp(op), a, b, _) => match (&**a, &**b) {
            (v, Ex::Const(k)) => {
                let (slot, ty) = element(v)?;
                var(slot, ty, *op, *k)
            }
            (Ex::Const(k), v) => {
                let (slot, ty) = element(v)?;
                var(slot, ty, op.mirrored(), *k)
            }
            _ => None,
        },
        _ => None,
    }
}

/// The slot and type of a variable, or of an array element at a constant
/// index in range (whose read cannot fail).
pub(crate) fn element(e: &Ex) -> Option<(u32, Ty)> {
    match e {
        Ex::Var(slot, ty) => Some((*slot, *ty)),
        Ex::Elem {
            base, len, ty, idx, ..
        } => match **idx {
            Ex::Const(k) if (0..*len as i64).contains(&i64::from(k)) => {
                Some((base + k as u32, *ty))
            }
            _ => None,
        },
        _ => None,
    }
}
