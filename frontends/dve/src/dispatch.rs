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
    /// What it was made of (slot, type, operator, constant): equal keys,
    /// the same test.
    key: (u32, Option<Ty>, Cmp, i32),
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
            key: (slot, ty, op, k),
        }
    }

    #[inline]
    fn holds(&self, s: &[Value]) -> bool {
        let raw = s[self.slot as usize] & self.mask;
        self.test.holds(((raw << self.shift) as i32) >> self.shift)
    }
}

/// A group leaving a control state: the comparisons of
/// [`Leaving::tests`] it needs (a bit set) and the others, which lie in
/// [`Dispatch::atoms`].
#[derive(Clone, Copy, Debug)]
struct Candidate {
    group: u32,
    needs: u64,
    others: (u32, u32),
}

/// The groups leaving one control state.
#[derive(Clone, Debug, Default)]
struct Leaving {
    /// In increasing order of group.
    groups: Vec<Candidate>,
    /// The first 64 distinct comparisons of the groups, all evaluated
    /// (without branches) each time the control state is met: groups often
    /// share comparisons (`a[3] == 1` in several moves of a puzzle), and a
    /// group's own test is then one mask.
    tests: Vec<Atom>,
    /// Whether all the tests are evaluated at once, without branches:
    /// when two groups share a test, or when there are few. Else each
    /// group evaluates its own in order, up to the first false one: a long
    /// conjunction of one group (`a[0] == 2 and a[1] == 2 and ..`, 14
    /// tests in frogs) usually fails at its first test.
    at_once: bool,
}

impl Leaving {
    /// Adds a group with leading comparisons `atoms`; those beyond the 64
    /// distinct tests go to `others`.
    fn push(&mut self, group: usize, atoms: &[Atom], others: &mut Vec<Atom>) {
        let start = others.len() as u32;
        let mut needs = 0;
        for a in atoms {
            let at = self.tests.iter().position(|t| t.key == a.key);
            match at.or_else(|| (self.tests.len() < 64).then_some(self.tests.len())) {
                Some(i) => {
                    if i == self.tests.len() {
                        self.tests.push(*a);
                    }
                    needs |= 1 << i;
                }
                None => others.push(*a),
            }
        }
        self.groups.push(Candidate {
            group: group as u32,
            needs,
            others: (start, others.len() as u32),
        });
        let used: u32 = self.groups.iter().map(|c| c.needs.count_ones()).sum();
        let shared = used as usize > self.tests.len();
        self.at_once = shared || self.tests.len() <= AT_ONCE_UP_TO;
    }

    /// The tests a candidate needs when they are not [`Leaving::at_once`]:
    /// whether those of `needs` hold in `s`, in order, stopping at the
    /// first false one.
    #[inline]
    fn each_holds(&self, needs: u64, s: &[Value]) -> bool {
        let mut rest = needs;
        while rest != 0 {
            if !self.tests[rest.trailing_zeros() as usize].holds(s) {
                return false;
            }
            rest &= rest - 1;
        }
        true
    }

    /// What [`Dispatch::opens`] needs to know of the tests in `s`: those
    /// that hold when [`Leaving::at_once`], else nothing (each candidate
    /// evaluates its own).
    #[cfg(test)]
    fn holding_if_at_once(&self, s: &[Value]) -> u64 {
        if self.at_once {
            self.holding(s)
        } else {
            0
        }
    }

    /// Bit `i` set iff `tests[i]` holds in `s`.
    #[inline]
    fn holding(&self, s: &[Value]) -> u64 {
        let bits = self.tests.iter().enumerate();
        bits.fold(0, |acc, (i, a)| acc | u64::from(a.holds(s)) << i)
    }
}

/// At most this many distinct tests of a control state are evaluated at
/// once even when no two groups share one (measured with callgrind: 4
/// keeps sorter and telephony as fast as evaluating all always, frogs
/// gains 5% from stopping early in its 14-test guard).
const AT_ONCE_UP_TO: usize = 4;

/// Groups by the control state their transition leaves, with their guards.
#[derive(Clone, Debug, Default)]
pub(crate) struct Dispatch {
    /// Per process that leaves a control state in some group: its
    /// control-state slot and, per control state, the groups in increasing
    /// order.
    procs: Vec<(u32, Vec<Leaving>)>,
    /// The leading comparisons of groups beyond their control state's 64
    /// distinct [`Leaving::tests`], group after group.
    atoms: Vec<Atom>,
}

impl Dispatch {
    pub(crate) fn new(kinds: &[GroupKind], trans: &[CTrans]) -> Dispatch {
        let mut procs: Vec<(u32, Vec<Leaving>)> = Vec::new();
        let mut of_proc: Vec<Option<usize>> = Vec::new();
        let (mut atoms, mut own) = (Vec::new(), Vec::new());
        for (g, kind) in kinds.iter().enumerate() {
            // a pair evaluates its receiver first
            let (t, sender) = match *kind {
                GroupKind::Single(t) => (&trans[t], None),
                GroupKind::Pair { recv, send } => (&trans[recv], Some(&trans[send])),
            };
            own.clear();
            let whole = leading_comparisons(&t.guards, &mut own);
            if let (true, Some(w)) = (whole, sender) {
                own.push(Atom::new(w.pc_slot, None, Cmp::Eq, w.from as i32));
                leading_comparisons(&w.guards, &mut own);
            }
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
            by_state[from].push(g, &own, &mut atoms);
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
            // one loop per way of testing, so that the loop does not branch on it
            if leaving.at_once {
                let holding = leaving.holding(s);
                for c in &leaving.groups {
                    if c.needs & !holding == 0 && self.others_hold(c, s) {
                        f(c.group as usize)?;
                    }
                }
            } else {
                for c in &leaving.groups {
                    if leaving.each_holds(c.needs, s) && self.others_hold(c, s) {
                        f(c.group as usize)?;
                    }
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

    /// How many control states evaluate their tests at once, and how many
    /// group by group ([`Leaving::at_once`]).
    #[cfg(test)]
    pub(crate) fn ways(&self) -> (usize, usize) {
        let all = self.procs.iter().flat_map(|(_, by_state)| by_state);
        let tested: Vec<_> = all.filter(|l| !l.tests.is_empty()).collect();
        let at_once = tested.iter().filter(|l| l.at_once).count();
        (at_once, tested.len() - at_once)
    }

    /// Whether a comparison `group`'s guards begin with is false in `s`.
    #[cfg(test)]
    pub(crate) fn blocks(&self, group: usize, s: &[Value]) -> bool {
        let all = self.procs.iter().flat_map(|(_, by_state)| by_state);
        all.flat_map(|leaving| leaving.groups.iter().map(move |c| (leaving, c)))
            .any(|(leaving, c)| {
                let holding = leaving.holding_if_at_once(s);
                c.group as usize == group && !self.opens(leaving, c, holding, s)
            })
    }

    /// Whether the comparisons of candidate `c` of `leaving` all hold in
    /// `s`, `holding` [`Leaving::holding_if_at_once`].
    #[cfg(test)]
    fn opens(&self, leaving: &Leaving, c: &Candidate, holding: u64, s: &[Value]) -> bool {
        let own = if leaving.at_once {
            c.needs & !holding == 0
        } else {
            leaving.each_holds(c.needs, s)
        };
        own && self.others_hold(c, s)
    }

    /// Whether the comparisons of candidate `c` beyond its control state's
    /// [`Leaving::tests`] hold in `s`.
    #[inline]
    fn others_hold(&self, c: &Candidate, s: &[Value]) -> bool {
        let (start, end) = (c.others.0 as usize, c.others.1 as usize);
        start == end || self.atoms[start..end].iter().all(|a| a.holds(s))
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
