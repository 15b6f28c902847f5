//! Statements compiled at load time into closures over the state vector:
//! conditions, assignments and `++`/`--` (the statements BEEM's models
//! spend their time in, inside and outside `d_step`), with their
//! expressions. Every name is resolved to a slot (a global) or an offset
//! among the running process's locals, and each node is a closure made for
//! its operator and operand kinds, so a step runs no `match` over the
//! syntax tree and looks nothing up.
//!
//! The interpreter (`model`) stays the semantics: what is not compiled
//! here (channel operations, process creation, `d_step` bodies as a whole,
//! `len`/`_nr_pr`, ...) runs there, and a compiled node that meets an error
//! (index out of range, division by zero, a bad shift) hands the same
//! expression or statement, unchanged state, to the interpreter, which
//! reports it exactly as before. Evaluation has no side effect, so doing it
//! again gives the same error.

use crate::affine::{self, Affine};
use crate::compile::{Act, Automaton, CExpr, Place, VarRef};
use crate::model::{load, truncate, PromelaModel, Res};
use crate::ops::{BinOp, UnOp};
use crate::parse::{BaseType, Pos};
use scan::Interval;
use std::sync::Arc;

/// What a compiled node runs in: the model (for the interpreter's
/// fallback), the running process and the slot of its first local.
pub(crate) struct Env<'a> {
    pub model: &'a PromelaModel,
    pub pid: usize,
    pub locals: usize,
}

pub(crate) type ExprFn = Arc<dyn Fn(&[u32], &Env) -> Res<i32> + Send + Sync>;
type StmtFn = Arc<dyn Fn(&mut [u32], &Env) -> Res<bool> + Send + Sync>;

/// A transition's compiled form.
#[derive(Clone, Default)]
pub(crate) enum Code {
    /// Run by the interpreter.
    #[default]
    Interpreted,
    /// A condition: executable when its value is not 0; changes nothing.
    Cond(ExprFn),
    /// A statement that never blocks (assignment, `++`, `--`).
    Stmt(StmtFn),
    /// A `d_step` whose body is a sequence of compiled statements (one
    /// option per location, no loop): its first statement when it is a
    /// condition (`guard`: blocks the `d_step` when false), then `body`,
    /// each of which must be executable (else the `d_step` at `pos` blocks
    /// after its first statement, a model error).
    DStep {
        guard: Option<ExprFn>,
        body: Box<[StmtFn]>,
        pos: Pos,
    },
}

impl std::fmt::Debug for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Code::Interpreted => "Interpreted",
            Code::Cond(_) => "Cond",
            Code::Stmt(_) => "Stmt",
            Code::DStep { .. } => "DStep",
        })
    }
}

/// The compiled form of `act` (at `pos`); a `d_step`'s body must be
/// compiled first.
pub(crate) fn code_of(act: &Act, pos: Pos) -> Code {
    match act {
        Act::DStep(body) => dstep(body, pos),
        Act::Cond(e) => Code::Cond(expr(e)),
        Act::Assign(v, e) => (fixed_store(v, Some(e), 0))
            .or_else(|| indexed_store(v, e, act))
            .or_else(|| store(v, act, Some(expr(e))))
            .map_or(Code::Interpreted, Code::Stmt),
        Act::Incr(v, d) => (fixed_store(v, None, *d))
            .or_else(|| store(v, act, None))
            .map_or(Code::Interpreted, Code::Stmt),
        _ => Code::Interpreted,
    }
}

/// A `d_step` body that is a sequence of compiled statements, as
/// [`Code::DStep`]; else interpreted.
fn dstep(auto: &Automaton, pos: Pos) -> Code {
    let mut seq = Vec::new();
    let mut loc = auto.start;
    while Some(loc) != auto.end {
        let Some(&[k]) = auto.locs.get(loc).map(Vec::as_slice) else {
            return Code::Interpreted;
        };
        let Some(tr) = auto.trans.get(k) else {
            return Code::Interpreted;
        };
        if seq.len() > auto.trans.len() {
            return Code::Interpreted; // a loop
        }
        seq.push(match &tr.code {
            Code::Cond(f) => {
                let f = f.clone();
                Arc::new(move |st: &mut [u32], env: &Env| Ok(f(st, env)? != 0)) as StmtFn
            }
            Code::Stmt(f) => f.clone(),
            Code::Interpreted | Code::DStep { .. } => return Code::Interpreted,
        });
        loc = tr.to;
    }
    let guard = match auto.locs.get(auto.start).map(Vec::as_slice) {
        Some(&[k]) if Some(auto.start) != auto.end => match &auto.trans[k].code {
            Code::Cond(f) => Some(f.clone()),
            _ => None,
        },
        _ => None,
    };
    let skip = guard.is_some() as usize;
    Code::DStep {
        guard,
        body: seq.into_iter().skip(skip).collect(),
        pos,
    }
}

/// An expression left to the interpreter.
fn interpreted(e: &CExpr) -> ExprFn {
    let e = e.clone();
    Arc::new(move |st, env| env.model.eval(st, env.pid, &e))
}

/// The compiled form of `e`.
pub(crate) fn expr(e: &CExpr) -> ExprFn {
    if let Some(a) = affine::of_compound(e) {
        return Arc::new(move |st, env| Ok(a.eval((st, env.locals))));
    }
    match e {
        CExpr::Const(c) => {
            let c = *c;
            Arc::new(move |_, _| Ok(c))
        }
        CExpr::Var(v) => read(v, e),
        CExpr::Unary(op, a) => {
            let a = expr(a);
            match op {
                UnOp::Neg => Arc::new(move |st, env| Ok(a(st, env)?.wrapping_neg())),
                UnOp::BitNot => Arc::new(move |st, env| Ok(!a(st, env)?)),
                UnOp::Not => Arc::new(move |st, env| Ok((a(st, env)? == 0) as i32)),
            }
        }
        CExpr::Binary(op, a, b, _) => binary(*op, a, b, e),
        CExpr::Cond(c, a, b) => {
            let (c, a, b) = (expr(c), expr(a), expr(b));
            Arc::new(move |st, env| {
                if c(st, env)? != 0 {
                    a(st, env)
                } else {
                    b(st, env)
                }
            })
        }
        CExpr::Pid => Arc::new(|_, env| Ok(env.pid as i32)),
        CExpr::ChanFn(..) | CExpr::NrPr => interpreted(e),
    }
}

/// Where a stored scalar (or element 0 of an array) is: a slot, or an
/// offset among the locals.
#[derive(Clone, Copy)]
enum Cell {
    Global(usize),
    Local(usize),
}

impl Cell {
    fn of(v: &VarRef) -> Option<Cell> {
        let at = v.at?;
        Some(match v.place {
            Place::Global(_) => Cell::Global(at),
            Place::Local(_) => Cell::Local(at),
        })
    }

    /// The cell of a scalar, or of an array element at a constant index in
    /// range.
    fn fixed(v: &VarRef) -> Option<Cell> {
        let k = match v.idx.as_deref() {
            None => 0,
            Some(&CExpr::Const(k)) if k >= 0 && (k as usize) < v.len => k as usize,
            Some(_) => return None,
        };
        Some(match Cell::of(v)? {
            Cell::Global(s) => Cell::Global(s + k),
            Cell::Local(at) => Cell::Local(at + k),
        })
    }

    #[inline(always)]
    fn slot(self, env: &Env) -> usize {
        match self {
            Cell::Global(s) => s,
            Cell::Local(at) => env.locals + at,
        }
    }
}

/// The value of a scalar variable (read straight from its cell).
fn scalar(cell: Cell, ty: BaseType) -> ExprFn {
    match (cell, ty) {
        (Cell::Global(s), BaseType::Short) => Arc::new(move |st, _| Ok(load(ty, st[s]))),
        (Cell::Global(s), _) => Arc::new(move |st, _| Ok(st[s] as i32)),
        (Cell::Local(at), BaseType::Short) => {
            Arc::new(move |st, env| Ok(load(ty, st[env.locals + at])))
        }
        (Cell::Local(at), _) => Arc::new(move |st, env| Ok(st[env.locals + at] as i32)),
    }
}

fn read(v: &VarRef, whole: &CExpr) -> ExprFn {
    let Some(cell) = Cell::of(v) else {
        return match v.idx {
            None => Arc::new(|_, _| Ok(0)),
            Some(_) => interpreted(whole),
        };
    };
    if let Some(fixed) = Cell::fixed(v) {
        return scalar(fixed, v.ty);
    }
    let Some(idx) = &v.idx else {
        return scalar(cell, v.ty);
    };
    let (idx, len, ty, whole) = (Index::of(idx), v.len, v.ty, whole.clone());
    Arc::new(move |st, env| {
        let k = idx.get(st, env)?;
        if k < 0 || k as usize >= len {
            return env.model.eval(st, env.pid, &whole);
        }
        Ok(load(ty, st[cell.slot(env) + k as usize]))
    })
}

/// An array index: affine ones are computed inline, others by their
/// compiled expression.
enum Index {
    Affine(Affine),
    Expr(ExprFn),
}

impl Index {
    fn of(e: &CExpr) -> Index {
        match affine::of(e) {
            Some(a) => Index::Affine(a),
            None => Index::Expr(expr(e)),
        }
    }

    #[inline(always)]
    fn get(&self, st: &[u32], env: &Env) -> Res<i32> {
        match self {
            Index::Affine(a) => Ok(a.eval((st, env.locals))),
            Index::Expr(f) => f(st, env),
        }
    }
}

/// `x op k` with `x` a stored scalar, or an array element at an affine
/// index, and `k` a constant (most guards); `whole` is the comparison.
fn compare_const(op: scan::Cmp, a: &CExpr, b: &CExpr, whole: &CExpr) -> Option<ExprFn> {
    let (CExpr::Var(v), CExpr::Const(k)) = (a, b) else {
        return None;
    };
    let (test, ty) = (Interval::of(op, *k), v.ty);
    if let Some(cell) = Cell::fixed(v) {
        return Some(Arc::new(move |st, env| {
            Ok(test.holds(load(ty, st[cell.slot(env)])) as i32)
        }));
    }
    let (cell, idx) = (Cell::of(v)?, affine::of(v.idx.as_deref()?)?);
    let (len, whole) = (v.len, whole.clone());
    Some(Arc::new(move |st, env| {
        let i = idx.eval((st, env.locals));
        if i < 0 || i as usize >= len {
            return env.model.eval(st, env.pid, &whole);
        }
        Ok(test.holds(load(ty, st[cell.slot(env) + i as usize])) as i32)
    }))
}

fn binary(op: BinOp, a: &CExpr, b: &CExpr, whole: &CExpr) -> ExprFn {
    if let BinOp::Cmp(c) = op {
        if let Some(f) = compare_const(c, a, b, whole) {
            return f;
        }
    }
    if let (BinOp::Add | BinOp::Sub, CExpr::Const(k)) = (op, b) {
        let (x, k) = (
            expr(a),
            if op == BinOp::Add {
                *k
            } else {
                k.wrapping_neg()
            },
        );
        return Arc::new(move |st, env| Ok(x(st, env)?.wrapping_add(k)));
    }
    let (x, y) = (expr(a), expr(b));
    match op {
        BinOp::And => Arc::new(move |st, env| Ok((x(st, env)? != 0 && y(st, env)? != 0) as i32)),
        BinOp::Or => Arc::new(move |st, env| Ok((x(st, env)? != 0 || y(st, env)? != 0) as i32)),
        BinOp::Cmp(c) => Arc::new(move |st, env| Ok(c.holds(x(st, env)?, y(st, env)?) as i32)),
        BinOp::Add => Arc::new(move |st, env| Ok(x(st, env)?.wrapping_add(y(st, env)?))),
        BinOp::Sub => Arc::new(move |st, env| Ok(x(st, env)?.wrapping_sub(y(st, env)?))),
        BinOp::Mul => Arc::new(move |st, env| Ok(x(st, env)?.wrapping_mul(y(st, env)?))),
        BinOp::BitAnd => Arc::new(move |st, env| Ok(x(st, env)? & y(st, env)?)),
        BinOp::BitOr => Arc::new(move |st, env| Ok(x(st, env)? | y(st, env)?)),
        BinOp::BitXor => Arc::new(move |st, env| Ok(x(st, env)? ^ y(st, env)?)),
        BinOp::Div | BinOp::Mod | BinOp::Shl | BinOp::Shr => {
            let whole = whole.clone();
            Arc::new(move |st, env| match op.apply(x(st, env)?, y(st, env)?) {
                Ok(v) => Ok(v),
                Err(_) => env.model.eval(st, env.pid, &whole),
            })
        }
    }
}

/// An assignment of `val` to a stored scalar or an array element at a
/// constant index in range (`None`: adds `delta`, a `++`/`--`), which no
/// index error can stop: a constant is stored as its slot value computed
/// here; `None` for any other variable.
fn fixed_store(v: &VarRef, val: Option<&CExpr>, delta: i32) -> Option<StmtFn> {
    let (cell, ty) = (Cell::fixed(v)?, v.ty);
    Some(match val {
        Some(&CExpr::Const(c)) => {
            let raw = truncate(ty, c);
            Arc::new(move |st, env| {
                st[cell.slot(env)] = raw;
                Ok(true)
            })
        }
        Some(e) => match affine::of_compound(e).and_then(|a| a.inline()) {
            // `x = x - 1`: one closure, the value inline
            Some(a) => Arc::new(move |st, env| {
                st[cell.slot(env)] = truncate(ty, a.eval((st, env.locals)));
                Ok(true)
            }),
            None => {
                let f = expr(e);
                Arc::new(move |st, env| {
                    let x = f(st, env)?;
                    st[cell.slot(env)] = truncate(ty, x);
                    Ok(true)
                })
            }
        },
        None => Arc::new(move |st, env| {
            let s = cell.slot(env);
            st[s] = truncate(ty, load(ty, st[s]).wrapping_add(delta));
            Ok(true)
        }),
    })
}

/// An assignment of constant `val` to an array element at an affine index
/// of at most two terms (BEEM's `a[((y)*8+x-2)] = 2`), in one closure: the
/// index inline, the slot value computed here; out of range, the
/// interpreter runs `act` (and reports the error). `None` for any other.
fn indexed_store(v: &VarRef, val: &CExpr, act: &Act) -> Option<StmtFn> {
    let &CExpr::Const(c) = val else {
        return None;
    };
    let (cell, idx) = (Cell::of(v)?, affine::of(v.idx.as_deref()?)?.inline()?);
    let (raw, len, act) = (truncate(v.ty, c), v.len, act.clone());
    Some(Arc::new(move |st, env| {
        let k = idx.eval((st, env.locals));
        if k < 0 || k as usize >= len {
            return env.model.exec(st, env.pid, &act, Pos::default());
        }
        st[cell.slot(env) + k as usize] = raw;
        Ok(true)
    }))
}

/// An assignment of `val` to `v` (`None`: the `++`/`--` of `act`);
/// `None` when left to the interpreter. As there, the value is computed
/// before the index.
fn store(v: &VarRef, act: &Act, val: Option<ExprFn>) -> Option<StmtFn> {
    let delta = match act {
        Act::Incr(_, d) => *d,
        _ => 0,
    };
    let ty = v.ty;
    // the value to store in slot `s`, given the assigned value if any
    let new = move |st: &[u32], s: usize, x: Option<i32>| {
        truncate(ty, x.unwrap_or_else(|| load(ty, st[s]).wrapping_add(delta)))
    };
    let Some(cell) = Cell::of(v) else {
        // a hidden variable: only the value's errors matter
        return v.idx.is_none().then(|| -> StmtFn {
            Arc::new(move |st, env| {
                if let Some(f) = &val {
                    f(st, env)?;
                }
                Ok(true)
            })
        });
    };
    let (cell, idx) = match Cell::fixed(v) {
        Some(fixed) => (fixed, None),
        None => (cell, v.idx.as_deref().map(Index::of)),
    };
    let (len, act) = (v.len, act.clone());
    Some(Arc::new(move |st, env| {
        let x = match &val {
            Some(f) => Some(f(st, env)?),
            None => None,
        };
        let mut s = cell.slot(env);
        if let Some(idx) = &idx {
            let k = idx.get(st, env)?;
            if k < 0 || k as usize >= len {
                return env.model.exec(st, env.pid, &act, Pos::default());
            }
            s += k as usize;
        }
        st[s] = new(st, s, x);
        Ok(true)
    }))
}
