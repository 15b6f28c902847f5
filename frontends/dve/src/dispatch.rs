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
use scan::Cmp;

use crate::model::{read_slot, CTrans, Ex, GroupKind};
use crate::parse::{BinOp, Ty, UnOp};

/// `value op k`, the value a slot's (`ty: None`: the raw control state).
#[derive(Clone, Copy, Debug)]
struct Atom {
    slot: u32,
    ty: Option<Ty>,
    op: Cmp,
    k: i32,
}

impl Atom {
    #[inline]
    fn holds(&self, s: &[Value]) -> bool {
        let raw = s[self.slot as usize];
        let v = match self.ty {
            Some(ty) => read_slot(raw, ty),
            None => raw as i32,
        };
        self.op.holds(v, self.k)
    }
}

/// The groups leaving one control state.
#[derive(Clone, Debug, Default)]
struct Leaving {
    /// In increasing order.
    groups: Vec<u32>,
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
    /// Per group: the comparisons its guards begin with.
    guards: Vec<Box<[Atom]>>,
}

impl Dispatch {
    pub(crate) fn new(kinds: &[GroupKind], trans: &[CTrans]) -> Dispatch {
        let mut procs: Vec<(u32, Vec<Leaving>)> = Vec::new();
        let mut of_proc: Vec<Option<usize>> = Vec::new();
        let mut guards = Vec::with_capacity(kinds.len());
        for (g, kind) in kinds.iter().enumerate() {
            // a pair evaluates its receiver first
            let t = match *kind {
                GroupKind::Single(t) => &trans[t],
                GroupKind::Pair { recv, .. } => &trans[recv],
            };
            guards.push(leading_comparisons(&t.guards));
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
            by_state[from].groups.push(g as u32);
            by_state[from].guarded |= !guards[g].is_empty();
        }
        Dispatch { procs, guards }
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
                let open = leaving
                    .groups
                    .iter()
                    .filter(|&&g| !self.blocks(g as usize, s));
                out.extend(open);
            } else {
                out.extend_from_slice(&leaving.groups);
            }
        }
        // one process's list is in order already
        if lists > 1 {
            out.sort_unstable();
        }
    }

    /// Whether a comparison `group`'s guards begin with is false in `s`.
    pub(crate) fn blocks(&self, group: usize, s: &[Value]) -> bool {
        self.guards[group].iter().any(|a| !a.holds(s))
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
fn leading_comparisons(guards: &[Ex]) -> Box<[Atom]> {
    let mut out = Vec::new();
    for g in guards {
        if !conjunction(g, &mut out) {
            break;
        }
    }
    out.into_boxed_slice()
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
    let var = |slot: u32, ty: Ty, op, k| {
        Some(Atom {
            slot,
            ty: Some(ty),
            op,
            k,
        })
    };
    match e {
        Ex::InState { slot, state } => Some(Atom {
            slot: *slot,
            ty: None,
            op: Cmp::Eq,
            k: i32::try_from(*state).ok()?,
        }),
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
