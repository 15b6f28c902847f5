//! Which groups may fire in a state: per process, per control state, the
//! groups whose transition (a rendezvous pair: its receiver's) leaves that
//! control state, each with the comparisons its guards begin with, of a
//! variable (or an array element at a constant index) with a constant
//! (`token == 1 && a[3] == 0 && ...`), compiled at load time.
//! `DveModel::fire` tests the control state first, then the guards in
//! order, and answers "not enabled" as soon as one is false, so a group of
//! another control state, or whose first comparisons fail, is not enabled
//! and evaluating it meets no error: the successor function tries only the
//! other groups. Also owns the per-thread buffers the successor function
//! reuses from state to state.

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
            let t = match *kind {
                GroupKind::Single(t) => &trans[t],
                GroupKind::Pair { recv, .. } => &trans[recv],
            };
            let start = atoms.len() as u32;
            leading_comparisons(&t.guards, &mut atoms);
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

    /// The groups that may be enabled in `s`, in increasing order, into
    /// `out` (emptied first).
    pub(crate) fn candidates(&self, s: &[Value], out: &mut Vec<u32>) {
        out.clear();
        let mut lists = 0;
        for (slot, by_state) in &self.procs {
            let Some(leaving) = by_state.get(s[*slot as usize] as usize) else {
                continue;
            };
            lists += usize::from(!leaving.groups.is_empty());
            if leaving.guarded {
                let open = leaving.groups.iter().filter(|c| self.opens(c.atoms, s));
                out.extend(open.map(|c| c.group));
            } else {
                out.extend(leaving.groups.iter().map(|c| c.group));
            }
        }
        // one process's list is in order already
        if lists > 1 {
            out.sort_unstable();
        }
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
    static SCRATCH: RefCell<(Vec<u32>, Vec<Value>)> = const { RefCell::new((Vec::new(), Vec::new())) };
}

/// Runs `f` with this thread's buffers for the candidate groups and for a
/// successor (so that a state's successors allocate nothing); a nested
/// call gets fresh ones.
pub(crate) fn with_scratch<T>(f: impl FnOnce(&mut Vec<u32>, &mut Vec<Value>) -> T) -> T {
    let (mut groups, mut out) = SCRATCH.with(|s| std::mem::take(&mut *s.borrow_mut()));
    let result = f(&mut groups, &mut out);
    SCRATCH.with(|s| *s.borrow_mut() = (groups, out));
    result
}

/// The comparisons the guards begin with, in evaluation order, up to the
/// first conjunct that is not one: the guards are evaluated in order, each
/// `a && b` left to right, and a comparison of a slot with a constant
/// cannot fail, so when one of these is false nothing after it is
/// evaluated.
fn leading_comparisons(guards: &[Ex], out: &mut Vec<Atom>) {
    for g in guards {
        if !conjunction(g, out) {
            break;
        }
    }
}

/// Appends the comparisons `e` begins with; false when it met a conjunct
/// that is not one.
fn conjunction(e: &Ex, out: &mut Vec<Atom>) -> bool {
    if let Ex::Bin(BinOp::And, a, b, _) = e {
        return conjunction(a, out) && conjunction(b, out);
    }
    match atom(e) {
        Some(a) => {
            out.push(a);
            true
        }
        None => false,
    }
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
fn element(e: &Ex) -> Option<(u32, Ty)> {
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
