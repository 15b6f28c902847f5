//! Guards compiled at load time: for each transition, a necessary condition
//! of its executability made of comparisons of one stored variable (or an
//! array element at a constant index) with a constant (`token == 1 &&
//! t[0] != 0`), checked on the state vector
//! before the interpreter (`model`) runs the transition. Most transitions
//! tried in a state are blocked by such a guard (BEEM's d_steps begin with
//! one), and the check costs a few loads instead of a copy of the state and
//! an expression walk. The interpreter stays the semantics: a guard only
//! says "blocked" where the interpreter would return "not executable"
//! without meeting an error (see [`Guard::of`]), and `tests` checks this on
//! every reachable state of real models.

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
        }
    }

    /// Whether the comparison holds in `st`, for the process whose locals
    /// start at slot `locals`.
    #[inline]
    pub fn holds(&self, st: &[u32], locals: usize) -> bool {
        let raw = st[self.at + (locals & self.local)];
        self.test.holds(((raw << self.shift) as i32) >> self.shift)
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
            && self
                .any_of
                .iter()
                .all(|conj| conj.iter().any(|a| !a.holds(st, locals)))
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
    let compare = |v: &VarRef, op, k| {
        let (cell, ty) = cell(v, scope)?;
        Some(Atom::new(cell, ty, op, k))
    };
    match e {
        CExpr::Var(v) => compare(v, Cmp::Ne, 0),
        CExpr::Unary(UnOp::Not, a) => match &**a {
            CExpr::Var(v) => compare(v, Cmp::Eq, 0),
            _ => None,
        },
        CExpr::Binary(BinOp::Cmp(op), a, b, _) => match (&**a, &**b) {
            (CExpr::Var(v), CExpr::Const(k)) => compare(v, *op, *k),
            (CExpr::Const(k), CExpr::Var(v)) => compare(v, op.mirrored(), *k),
            _ => None,
        },
        _ => None,
    }
}

/// The cell of a stored scalar variable or array element at a constant
/// index in range (never hidden: a hidden variable has no cell).
fn cell(v: &VarRef, scope: &Scope) -> Option<(Cell, BaseType)> {
    let (var, global) = match v.place {
        Place::Global(i) => (scope.globals.get(i)?, true),
        Place::Local(i) => (&scope.locals.get(i)?.0, false),
    };
    let k = match v.idx.as_deref() {
        None if !var.is_array => 0,
        Some(CExpr::Const(k)) if var.is_array => usize::try_from(*k).ok()?,
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
    ))
}

#[cfg(test)]
mod tests {
    use super::{Atom, BaseType, Cell, Cmp};
    use crate::model::{load, truncate};

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
                        assert_eq!(g.holds(&st, 0), want, "{ty:?} {v} {op:?} {k}");
                        assert_eq!(l.holds(&st, 1), want, "{ty:?} {v} {op:?} {k} (local)");
                    }
                }
            }
        }
    }
}
