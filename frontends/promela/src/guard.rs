//! Guards compiled at load time: for each transition, a necessary condition
//! of its executability made of comparisons of one stored variable (or an
//! array element at a constant index, or at an affine index of at most two
//! terms), or of its quotient or remainder by a positive constant, with a
//! constant (`token == 1 && t[0] != 0 && a[((y)*8+x-1)] == 0 &&
//! (c[p[0]] % 20) == 0`), checked on the state vector
//! before the interpreter (`model`) runs the transition. Most transitions
//! tried in a state are blocked by such a guard (BEEM's d_steps begin with
//! one), and the check costs a few loads instead of a copy of the state and
//! an expression walk. The interpreter stays the semantics: a guard only
//! says "blocked" where the interpreter would return "not executable"
//! without meeting an error (see [`Guard::of`]), and `tests` checks this on
//! every reachable state of real models. A computed index out of range
//! would be an error for the interpreter: the comparisons are tried in the
//! interpreter's order and such an index stops them, unsure
//! ([`Verdict::Unsure`]), so that the whole condition is evaluated and
//! meets the error.

use crate::affine::{self, Affine2};
use crate::compile::{Act, CExpr, Place, Var, VarRef};
use crate::ops::{BinOp, UnOp};
use crate::parse::BaseType;
use scan::{Cmp, Interval};

/// Where a variable's value is: a slot, or an offset among the locals of the
/// running process.
#[derive(Clone, Copy, Debug)]
enum Cell {
    Global(usize),
    Local(usize),
}

/// What an atom compares: the variable's value, or its quotient or
/// remainder (C's, truncated) by a positive constant, which no value makes
/// fail.
#[derive(Clone, Copy, Debug)]
enum Fold {
    Value,
    Div(i32),
    Rem(i32),
}

/// A computed array index: `at` is the array's first element, the element
/// read is `at + index` when `index` is in `0..len`.
#[derive(Clone, Copy, Debug)]
struct Index {
    index: Affine2,
    len: u32,
}

/// What a conjunction of comparisons says of a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// A comparison is false, every one before it evaluated without error:
    /// the interpreter finds the condition false, meeting no error.
    Blocked,
    /// Every comparison holds.
    Open,
    /// A computed index is out of range before any comparison was found
    /// false: only the whole condition (meeting the error) can tell.
    Unsure,
}

/// The [`Verdict`] of the conjunction `atoms` in `st`, for the process
/// whose locals start at slot `locals`: its comparisons in order, as the
/// interpreter evaluates them.
#[inline(always)]
pub(crate) fn verdict(atoms: &[Atom], st: &[u32], locals: usize) -> Verdict {
    for a in atoms {
        match a.holds(st, locals) {
            Some(true) => {}
            Some(false) => return Verdict::Blocked,
            None => return Verdict::Unsure,
        }
    }
    Verdict::Open
}

/// `variable op k` with `op` a comparison, kept as a test without
/// branches: the variable's value `v` (a `short` sign-extended from its
/// 16-bit pattern) satisfies it when `v - lo` (wrapping) is at most `span`,
/// unless `negate` (every comparison of a 32-bit value with a constant is
/// such an interval, or its complement).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Atom {
    /// The slot (a global) or the offset among the locals (a local).
    at: usize,
    /// All ones for a local (the locals' first slot is added), else 0.
    local: usize,
    /// 16 for a `short`, else 0.
    shift: u32,
    test: Interval,
    /// A computed index or a quotient or remainder (`None`: the value at a
    /// fixed cell, the common case, tested with one branch less).
    more: Option<More>,
}

/// What an [`Atom`] adds to reading a fixed cell.
#[derive(Clone, Copy, Debug)]
struct More {
    /// The element's index when computed (`at` is then the array's start).
    index: Option<Index>,
    fold: Fold,
}

impl Atom {
    fn new(cell: Cell, ty: BaseType, op: Cmp, k: i32) -> Atom {
        let (at, local) = match cell {
            Cell::Global(s) => (s, 0),
            Cell::Local(at) => (at, usize::MAX),
        };
        Atom {
            at,
            local,
            shift: if ty == BaseType::Short { 16 } else { 0 },
            test: Interval::of(op, k),
            more: None,
        }
    }

    /// Whether the comparison holds in `st`, for the process whose locals
    /// start at slot `locals` (`None`: its index is out of range).
    #[inline(always)]
    pub fn holds(&self, st: &[u32], locals: usize) -> Option<bool> {
        let mut at = self.at + (locals & self.local);
        let Some(more) = &self.more else {
            return Some(self.test.holds(self.value(st, at)));
        };
        if let Some(Index { index, len }) = &more.index {
            // a negative index wraps above any length
            let i = index.eval((st, locals)) as u32;
            if i >= *len {
                return None;
            }
            at += i as usize;
        }
        let v = self.value(st, at);
        Some(self.test.holds(match more.fold {
            Fold::Value => v,
            Fold::Div(c) => v / c,
            Fold::Rem(c) => v % c,
        }))
    }

    /// The value in slot `at` (a `short` sign-extended).
    #[inline(always)]
    fn value(&self, st: &[u32], at: usize) -> i32 {
        ((st[at] << self.shift) as i32) >> self.shift
    }
}

/// A transition can fire only if one of `any_of`'s conjunctions holds; no
/// conjunction at all means nothing is known (never blocks).
#[derive(Clone, Debug, Default)]
pub(crate) struct Guard {
    any_of: Vec<Vec<Atom>>,
    /// The transition is executable exactly when the one conjunction holds
    /// (a condition, or a `d_step` whose one first option is a condition,
    /// made of comparisons only).
    exact: bool,
}

/// The variables a transition's expressions name: the globals and the
/// locals of its proctype.
pub(crate) struct Scope<'a> {
    pub globals: &'a [Var],
    pub locals: &'a [(Var, Option<CExpr>)],
}

impl Guard {
    /// Whether the guard rules the transition out in `st`, for the process
    /// whose locals start at slot `locals`.
    #[inline]
    pub fn blocks(&self, st: &[u32], locals: usize) -> bool {
        !self.any_of.is_empty()
            && (self.any_of.iter()).all(|conj| verdict(conj, st, locals) == Verdict::Blocked)
    }

    /// The one conjunction of the guard, if it has exactly one.
    pub fn conjunction(&self) -> Option<&[Atom]> {
        match self.any_of.as_slice() {
            [conj] => Some(conj),
            _ => None,
        }
    }

    /// Whether the transition is executable exactly when the guard does not
    /// block it (its condition needs no evaluation then).
    pub fn exact(&self) -> bool {
        self.exact
    }

    /// The guard of a transition doing `act`. A condition `a && b && ..`
    /// gives the comparisons it begins with, up to the first conjunct that
    /// is not one: the interpreter evaluates the conjuncts in order and a
    /// comparison cannot fail, so when one of these is false it answers
    /// "blocked" having evaluated nothing else. A `d_step` gives one
    /// conjunction per option of its first statement when every option is
    /// such a condition (no `else`), since it blocks exactly when all of
    /// them do.
    pub fn of(act: &Act, scope: &Scope) -> Guard {
        let conds: Vec<&CExpr> = match act {
            Act::Cond(e) => vec![e],
            Act::DStep(auto) if auto.end != Some(auto.start) => {
                let Some(options) = auto.locs.get(auto.start) else {
                    return Guard::default();
                };
                let mut conds = Vec::new();
                for &k in options {
                    match &auto.trans[k].act {
                        Act::Cond(e) => conds.push(e),
                        _ => return Guard::default(),
                    }
                }
                conds
            }
            _ => return Guard::default(),
        };
        let mut any_of = Vec::new();
        let mut complete = true;
        for e in &conds {
            let mut conj = Vec::new();
            complete &= conjunction(e, scope, &mut conj);
            if conj.is_empty() {
                return Guard::default();
            }
            any_of.push(conj);
        }
        Guard {
            any_of,
            exact: complete && conds.len() == 1,
        }
    }
}

/// Appends the comparisons `e` begins with (see [`Guard::of`]); false when
/// it met a conjunct that is not one (nothing after it may be added).
fn conjunction(e: &CExpr, scope: &Scope, out: &mut Vec<Atom>) -> bool {
    match e {
        CExpr::Binary(BinOp::And, a, b, _) => {
            conjunction(a, scope, out) && conjunction(b, scope, out)
        }
        _ => match atom(e, scope) {
            Some(a) => {
                out.push(a);
                true
            }
            None => false,
        },
    }
}

fn atom(e: &CExpr, scope: &Scope) -> Option<Atom> {
    let compare = |x: &CExpr, op, k| {
        let (v, fold) = folded(x)?;
        let (cell, ty, index) = cell(v, scope)?;
        let more = match (index, fold) {
            (None, Fold::Value) => None,
            (index, fold) => Some(More { index, fold }),
        };
        Some(Atom {
            more,
            ..Atom::new(cell, ty, op, k)
        })
    };
    match e {
        CExpr::Var(_) => compare(e, Cmp::Ne, 0),
        CExpr::Unary(UnOp::Not, a) => compare(a, Cmp::Eq, 0),
        CExpr::Binary(BinOp::Cmp(op), a, b, _) => match (&**a, &**b) {
            (x, CExpr::Const(k)) => compare(x, *op, *k),
            (CExpr::Const(k), x) => compare(x, op.mirrored(), *k),
            _ => None,
        },
        _ => None,
    }
}

/// The variable `x` reads and what the comparison takes of it: `v`, `v /
/// c` or `v % c` with `c` a positive constant.
fn folded(x: &CExpr) -> Option<(&VarRef, Fold)> {
    match x {
        CExpr::Var(v) => Some((v, Fold::Value)),
        CExpr::Binary(op @ (BinOp::Div | BinOp::Mod), a, b, _) => match (&**a, &**b) {
            (CExpr::Var(v), &CExpr::Const(c)) if c > 0 => Some((
                v,
                if *op == BinOp::Div {
                    Fold::Div(c)
                } else {
                    Fold::Rem(c)
                },
            )),
            _ => None,
        },
        _ => None,
    }
}

/// The cell of a stored scalar variable or array element at a constant
/// index in range (never hidden: a hidden variable has no cell), or the
/// first element of an array indexed by an affine expression of at most
/// two terms, with that index.
fn cell(v: &VarRef, scope: &Scope) -> Option<(Cell, BaseType, Option<Index>)> {
    let (var, global) = match v.place {
        Place::Global(i) => (scope.globals.get(i)?, true),
        Place::Local(i) => (&scope.locals.get(i)?.0, false),
    };
    let (k, index) = match v.idx.as_deref() {
        None if !var.is_array => (0, None),
        Some(CExpr::Const(k)) if var.is_array => (usize::try_from(*k).ok()?, None),
        Some(e) if var.is_array => {
            let index = affine::of(e)?.inline()?;
            let len = u32::try_from(var.len).ok()?;
            (0, Some(Index { index, len }))
        }
        _ => return None,
    };
    if k >= var.len {
        return None;
    }
    let at = var.at? + k;
    Some((
        if global {
            Cell::Global(at)
        } else {
            Cell::Local(at)
        },
        var.ty,
        index,
    ))
}

#[cfg(test)]
mod tests {
    use super::{Atom, BaseType, Cell, Cmp, Fold, More};
    use crate::model::{load, truncate};
    use crate::ops::BinOp;

    #[test]
    fn quotients_and_remainders_compare_as_the_interpreter_computes() {
        let values = [
            i32::MIN,
            -32768,
            -41,
            -20,
            -1,
            0,
            1,
            19,
            20,
            255,
            32767,
            i32::MAX,
        ];
        for ty in [BaseType::Int, BaseType::Short, BaseType::Byte] {
            for c in [1, 3, 20, 100, i32::MAX] {
                for (op, fold) in [(BinOp::Div, Fold::Div(c)), (BinOp::Mod, Fold::Rem(c))] {
                    for k in [-2, 0, 1, 12] {
                        for v in values {
                            let raw = truncate(ty, v);
                            let more = Some(More { index: None, fold });
                            let atom = Atom {
                                more,
                                ..Atom::new(Cell::Global(0), ty, Cmp::Eq, k)
                            };
                            let folded = op.apply(load(ty, raw), c).expect("c > 0");
                            let want = Cmp::Eq.holds(folded, k);
                            assert_eq!(atom.holds(&[raw], 0), Some(want), "{ty:?} {v} {op:?} {c}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn atoms_compare_as_c_does() {
        let ops = Cmp::ALL;
        let edges = [
            i32::MIN,
            i32::MIN + 1,
            -32769,
            -32768,
            -1,
            0,
            1,
            32767,
            65535,
            i32::MAX,
        ];
        for ty in [BaseType::Int, BaseType::Short, BaseType::Byte] {
            for op in ops {
                for k in edges {
                    for v in edges {
                        let raw = truncate(ty, v);
                        let st = [7, raw];
                        let (g, l) = (
                            Atom::new(Cell::Global(1), ty, op, k),
                            Atom::new(Cell::Local(0), ty, op, k),
                        );
                        let want = op.holds(load(ty, raw), k);
                        assert_eq!(g.holds(&st, 0), Some(want), "{ty:?} {v} {op:?} {k}");
                        let local = l.holds(&st, 1);
                        assert_eq!(local, Some(want), "{ty:?} {v} {op:?} {k} (local)");
                    }
                }
            }
        }
    }
}
