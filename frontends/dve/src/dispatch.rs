//! Which groups may fire in a state: per process, per control state, the
//! groups whose transition (a rendezvous pair: its receiver's) leaves that
//! control state, each with the comparisons its guards begin with
//! (`token == 1 && ...`) compiled at load time. `DveModel::fire` tests the
//! control state first, then the guards in order, and answers "not
//! enabled" as soon as one is false, so a group of another control state,
//! or whose first comparisons fail, is not enabled and evaluating it meets
//! no error: the successor function tries only the other groups.

use pins::Value;

use crate::model::{read_slot, CTrans, Ex, GroupKind};
use crate::parse::{BinOp, Ty, UnOp};

/// `value op k`, the value a slot's (`ty: None`: the raw control state).
#[derive(Clone, Copy, Debug)]
struct Atom {
    slot: u32,
    ty: Option<Ty>,
    op: BinOp,
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
        match self.op {
            BinOp::Eq => v == self.k,
            BinOp::Ne => v != self.k,
            BinOp::Lt => v < self.k,
            BinOp::Le => v <= self.k,
            BinOp::Gt => v > self.k,
            _ => v >= self.k,
        }
    }
}

/// Groups by the control state their transition leaves, with their guards.
#[derive(Clone, Debug, Default)]
pub(crate) struct Dispatch {
    /// Per process that leaves a control state in some group: its
    /// control-state slot and, per control state, the groups in increasing
    /// order.
    procs: Vec<(u32, Vec<Vec<u32>>)>,
    /// Per group: the comparisons its guards begin with.
    guards: Vec<Box<[Atom]>>,
}

impl Dispatch {
    pub(crate) fn new(kinds: &[GroupKind], trans: &[CTrans]) -> Dispatch {
        let mut procs: Vec<(u32, Vec<Vec<u32>>)> = Vec::new();
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
                by_state.resize(from + 1, Vec::new());
            }
            by_state[from].push(g as u32);
        }
        Dispatch { procs, guards }
    }

    /// The groups that may be enabled in `s`, in increasing order, into
    /// `out` (emptied first).
    pub(crate) fn candidates(&self, s: &[Value], out: &mut Vec<u32>) {
        out.clear();
        for (slot, by_state) in &self.procs {
            if let Some(groups) = by_state.get(s[*slot as usize] as usize) {
                out.extend(groups.iter().filter(|&&g| !self.blocks(g as usize, s)));
            }
        }
        out.sort_unstable();
    }

    /// Whether a comparison `group`'s guards begin with is false in `s`.
    pub(crate) fn blocks(&self, group: usize, s: &[Value]) -> bool {
        self.guards[group].iter().any(|a| !a.holds(s))
    }
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
            op: BinOp::Eq,
            k: i32::try_from(*state).ok()?,
        }),
        Ex::Var(slot, ty) => var(*slot, *ty, BinOp::Ne, 0),
        Ex::Un(UnOp::Not, a) => match &**a {
            Ex::Var(slot, ty) => var(*slot, *ty, BinOp::Eq, 0),
            _ => None,
        },
        Ex::Bin(op, a, b, _) => match (&**a, &**b) {
            (Ex::Var(slot, ty), Ex::Const(k)) => var(*slot, *ty, comparison(*op)?, *k),
            (Ex::Const(k), Ex::Var(slot, ty)) => var(*slot, *ty, mirrored(comparison(*op)?), *k),
            _ => None,
        },
        _ => None,
    }
}

fn comparison(op: BinOp) -> Option<BinOp> {
    matches!(
        op,
        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
    )
    .then_some(op)
}

/// `k op v` as `v op' k`.
fn mirrored(op: BinOp) -> BinOp {
    match op {
        BinOp::Lt => BinOp::Gt,
        BinOp::Le => BinOp::Ge,
        BinOp::Gt => BinOp::Lt,
        BinOp::Ge => BinOp::Le,
        op => op,
    }
}
