//! From syntax tree to executable model: resolves names, lays out the state
//! vector, hides write-only variables, turns every proctype into SPIN's
//! automaton (one location per control state, jumps eliminated), bounds the
//! number of processes and builds the transition groups with their read and
//! write sets. Must not evaluate anything at exploration time (`model`).

use crate::error::{ErrorKind, PromelaError};
use crate::model::PromelaModel;
use crate::ops::{BinOp, ChanFn, UnOp};
use crate::parse::{BaseType, Expr, ExprKind, Pos, RecvArg, Spec, Stmt, StmtKind, VarDecl};
use pins::{Slot, TransitionGroup};
use std::collections::{BTreeSet, HashMap, HashSet};

/// Most processes alive at once (SPIN's limit, 255).
pub const MAX_PROCESSES: usize = 255;
/// Largest channel capacity accepted (SPIN keeps queue lengths in a byte).
pub const MAX_CAPACITY: i64 = 255;
/// Most channels (SPIN's limit).
pub const MAX_CHANNELS: usize = 255;

/// A variable: where its values live and how they are truncated.
#[derive(Clone, Debug)]
pub struct Var {
    pub name: String,
    pub ty: BaseType,
    pub len: usize,
    /// Offset of element 0: a slot for globals, an offset among the locals
    /// of a process for locals. `None` when hidden (never read).
    pub at: Option<usize>,
    pub is_array: bool,
}

#[derive(Clone, Debug)]
pub enum Place {
    Global(usize),
    Local(usize),
}

#[derive(Clone, Debug)]
pub struct VarRef {
    pub place: Place,
    pub idx: Option<Box<CExpr>>,
    pub pos: Pos,
    /// The variable's [`Var::at`], type and length, copied here so that
    /// execution reads the slot without looking the variable up.
    pub at: Option<usize>,
    pub ty: BaseType,
    pub len: usize,
}

#[derive(Clone, Debug)]
pub struct ChanRef {
    /// First channel of the (array of) channel(s).
    pub base: usize,
    pub len: usize,
    pub idx: Option<Box<CExpr>>,
    pub pos: Pos,
}

#[derive(Clone, Debug)]
pub enum CExpr {
    Const(i32),
    Var(VarRef),
    Unary(UnOp, Box<CExpr>),
    Binary(BinOp, Box<CExpr>, Box<CExpr>, Pos),
    Cond(Box<CExpr>, Box<CExpr>, Box<CExpr>),
    ChanFn(ChanFn, ChanRef),
    Pid,
    NrPr,
}

/// `e` with its constant arithmetic done where it cannot fail (array
/// indices such as BEEM's `a[((1)*7+2)]` become constants, which guards and
/// compiled code read directly). `&&`, `||` and `c -> a : b` keep their
/// node (short circuit: `0 && 1/0` is 0), their operands are folded.
fn folded(e: CExpr) -> CExpr {
    match e {
        CExpr::Unary(op, a) => match folded(*a) {
            CExpr::Const(x) => CExpr::Const(match op {
                UnOp::Neg => x.wrapping_neg(),
                UnOp::BitNot => !x,
                UnOp::Not => (x == 0) as i32,
            }),
            a => CExpr::Unary(op, Box::new(a)),
        },
        CExpr::Binary(op, a, b, pos) if !matches!(op, BinOp::And | BinOp::Or) => {
            match (folded(*a), folded(*b)) {
                (CExpr::Const(x), CExpr::Const(y)) if op.apply(x, y).is_ok() => {
                    CExpr::Const(op.apply(x, y).unwrap_or_default())
                }
                (a, b) => CExpr::Binary(op, Box::new(a), Box::new(b), pos),
            }
        }
        CExpr::Binary(op, a, b, pos) => {
            CExpr::Binary(op, Box::new(folded(*a)), Box::new(folded(*b)), pos)
        }
        CExpr::Cond(c, a, b) => CExpr::Cond(
            Box::new(folded(*c)),
            Box::new(folded(*a)),
            Box::new(folded(*b)),
        ),
        e => e,
    }
}

#[derive(Clone, Debug)]
pub enum CRecv {
    Var(VarRef),
    Match(CExpr),
    Any,
}

/// What a transition does.
#[derive(Clone, Debug)]
pub enum Act {
    Cond(CExpr),
    Assign(VarRef, CExpr),
    Incr(VarRef, i32),
    Send(ChanRef, Vec<CExpr>),
    Recv(ChanRef, Vec<CRecv>),
    Run(usize, Vec<CExpr>),
    Assert(CExpr),
    Skip,
    Else,
    DStep(Box<Automaton>),
    /// Process termination (SPIN's `-end-`): only the youngest may die.
    End,
}

#[derive(Clone, Debug)]
pub struct Tr {
    pub from: usize,
    pub to: usize,
    pub act: Act,
    /// The process keeps control after this step (inside `atomic`, not
    /// its last statement).
    pub atom: bool,
    pub pos: Pos,
    /// Local variables (indices into the proctype's locals) reset to 0 after
    /// the step: SPIN's dataflow optimisation (see `dead_variables`).
    pub dead: Vec<usize>,
    /// Statements merged into this step (SPIN's statement merging, see
    /// `merge_statements`), executed after it in order; `to` is then the
    /// location after the last one.
    pub chain: Vec<usize>,
    /// Inside an `atomic` (for merging: global statements may merge there).
    pub in_atomic: bool,
    /// The statement carries a label (never merged).
    pub labeled: bool,
    /// The compiled form of `act` (filled when the model is built).
    pub code: crate::code::Code,
    /// The guard checked before `act` (filled when the model is built).
    pub guard: crate::guard::Guard,
    /// What is left of its condition once the guard's one conjunction holds
    /// (filled when the model is built).
    pub residual: crate::residual::Residual,
    /// A send or receive on a rendezvous channel (filled when the model is
    /// built).
    pub rv: bool,
}

/// Locations and transitions of one proctype (or one `d_step` body).
#[derive(Clone, Debug, Default)]
pub struct Automaton {
    pub trans: Vec<Tr>,
    /// Outgoing transitions (indices into `trans`) per location, in option
    /// order (`else` last).
    pub locs: Vec<Vec<usize>>,
    pub start: usize,
    /// The location after the last statement (d_step: its exit), if reached.
    pub end: Option<usize>,
    /// Locations that are `if`/`do` states (never part of a merge chain).
    pub branch: Vec<bool>,
}

#[derive(Clone, Debug)]
pub struct ProcType {
    pub name: String,
    pub auto: Automaton,
    /// Locals (parameters first) with their initialisers.
    pub locals: Vec<(Var, Option<CExpr>)>,
    pub nparams: usize,
    pub nlocal_slots: usize,
}

#[derive(Clone, Debug)]
pub struct Chan {
    pub name: String,
    pub cap: usize,
    pub fields: Vec<BaseType>,
    /// Slot of the length (then the items), for buffered channels.
    pub slot: Option<usize>,
}

/// What a transition group fires.
#[derive(Clone, Debug)]
pub enum GroupKind {
    /// Transition `tr` of any process of proctype `ptype`.
    Step { ptype: usize, tr: usize },
    /// Rendezvous: send `str` of a `sptype` process with receive `rtr` of
    /// an `rptype` process.
    Rendezvous {
        sptype: usize,
        str: usize,
        rptype: usize,
        rtr: usize,
    },
}

pub fn type_bits(ty: BaseType) -> u32 {
    match ty {
        BaseType::Bit | BaseType::Bool => 1,
        BaseType::Byte | BaseType::Mtype | BaseType::Pid | BaseType::Chan => 8,
        BaseType::Short => 16,
        BaseType::Int => 32,
        BaseType::Unsigned(w) => w,
    }
}

fn bits_for(n: usize) -> u32 {
    (usize::BITS - n.saturating_sub(1).leading_zeros()).max(1)
}

struct Cx<'a> {
    file: &'a str,
    mtypes: HashMap<String, i32>,
    globals: Vec<Var>,
    gnames: HashMap<String, usize>,
    chans: Vec<Chan>,
    cnames: HashMap<String, (usize, usize)>,
    pnames: HashMap<String, usize>,
    /// Names read somewhere (`proc::name` for locals, `name` for globals).
    read: HashSet<String>,
}

type R<T> = Result<T, PromelaError>;

/// Whether the comparison `op` (`==`, `!=`, `<`, `<=`, `>`, `>=`) holds
/// of two values ordered as `order`.
fn holds(op: &str, order: std::cmp::Ordering) -> bool {
    match op {
        "==" => order.is_eq(),
        "!=" => order.is_ne(),
        "<" => order.is_lt(),
        "<=" => order.is_le(),
        ">" => order.is_gt(),
        _ => order.is_ge(),
    }
}

impl Cx<'_> {
    fn err<T>(&self, kind: ErrorKind, pos: Pos, msg: impl AsRef<str>) -> R<T> {
        Err(PromelaError::at(kind, self.file, pos.line, pos.col, msg))
    }

    /// The value of a constant expression (array sizes, capacities,
    /// `active [N]`, initial values), in 64 bits; an error where it
    /// overflows them or where C leaves it undefined (see `model`).
    fn const_eval(&self, e: &Expr) -> R<i64> {
        let overflow = || {
            self.err(
                ErrorKind::Semantic,
                e.pos,
                "constant expression overflows 64 bits",
            )
        };
        Ok(match &e.kind {
            ExprKind::Num(n) => *n,
            ExprKind::Var(n, None) if self.mtypes.contains_key(n) => self.mtypes[n] as i64,
            ExprKind::Unary("-", a) => match self.const_eval(a)?.checked_neg() {
                Some(v) => v,
                None => return overflow(),
            },
            ExprKind::Unary("!", a) => (self.const_eval(a)? == 0) as i64,
            ExprKind::Unary(_, a) => !self.const_eval(a)?,
            ExprKind::Binary(op, a, b) => {
                let (a, b) = (self.const_eval(a)?, self.const_eval(b)?);
                let checked = match *op {
                    "+" => a.checked_add(b),
                    "-" => a.checked_sub(b),
                    "*" => a.checked_mul(b),
                    "/" | "%" if b == 0 => {
                        return self.err(ErrorKind::Semantic, e.pos, "division by zero")
                    }
                    "/" => a.checked_div(b),
                    "%" => a.checked_rem(b),
                    "<<" | ">>" if !(0..32).contains(&b) => {
                        return self.err(
                            ErrorKind::Semantic,
                            e.pos,
                            format!("shift count {b} out of range 0..31 (undefined in C)"),
                        )
                    }
                    "<<" => a.checked_mul(1 << b),
                    _ => Some(0),
                };
                match *op {
                    "+" | "-" | "*" | "/" | "%" | "<<" => match checked {
                        Some(v) => v,
                        None => return overflow(),
                    },
                    ">>" => a >> b,
                    "&" => a & b,
                    "|" => a | b,
                    "^" => a ^ b,
                    "==" | "!=" | "<" | "<=" | ">" | ">=" => holds(op, a.cmp(&b)) as i64,
                    "&&" => (a != 0 && b != 0) as i64,
                    _ => (a != 0 || b != 0) as i64,
                }
            }
            _ => {
                return self.err(
                    ErrorKind::Unsupported,
                    e.pos,
                    "expected a constant expression",
                )
            }
        })
    }

    fn array_len(&self, d: &VarDecl) -> R<usize> {
        match &d.size {
            None => Ok(1),
            Some(e) => {
                let n = self.const_eval(e)?;
                if !(1..=1 << 20).contains(&n) {
                    return self.err(ErrorKind::Semantic, e.pos, format!("bad array size {n}"));
                }
                Ok(n as usize)
            }
        }
    }
}

/// Collects names read in expressions (for hiding write-only variables, as
/// SPIN does by default).
fn collect_reads(proc: &str, locals: &HashSet<String>, stmts: &[Stmt], out: &mut HashSet<String>) {
    fn name(proc: &str, locals: &HashSet<String>, n: &str) -> String {
        if locals.contains(n) {
            format!("{proc}::{n}")
        } else {
            n.to_string()
        }
    }
    fn expr(proc: &str, locals: &HashSet<String>, e: &Expr, out: &mut HashSet<String>) {
        match &e.kind {
            ExprKind::Var(n, i) => {
                out.insert(name(proc, locals, n));
                if let Some(i) = i {
                    expr(proc, locals, i, out);
                }
            }
            ExprKind::Unary(_, a) | ExprKind::ChanFn(_, a) => expr(proc, locals, a, out),
            ExprKind::Binary(_, a, b) => {
                expr(proc, locals, a, out);
                expr(proc, locals, b, out);
            }
            ExprKind::Cond(a, b, c) => {
                expr(proc, locals, a, out);
                expr(proc, locals, b, out);
                expr(proc, locals, c, out);
            }
            ExprKind::Run(_, args) => args.iter().for_each(|a| expr(proc, locals, a, out)),
            _ => {}
        }
    }
    fn lval(proc: &str, locals: &HashSet<String>, e: &Expr, out: &mut HashSet<String>) {
        if let ExprKind::Var(_, Some(i)) = &e.kind {
            expr(proc, locals, i, out);
        }
    }
    for s in stmts {
        match &s.kind {
            StmtKind::Expr(e) | StmtKind::Assert(e) => expr(proc, locals, e, out),
            StmtKind::Assign(l, r) => {
                lval(proc, locals, l, out);
                expr(proc, locals, r, out);
            }
            StmtKind::Incr(l, _) => lval(proc, locals, l, out),
            StmtKind::Send(c, args) => {
                expr(proc, locals, c, out);
                args.iter().for_each(|a| expr(proc, locals, a, out));
            }
            StmtKind::Recv(c, args) => {
                expr(proc, locals, c, out);
                for a in args {
                    match a {
                        RecvArg::Var(v) => {
                            lval(proc, locals, v, out);
                            // an mtype constant written as a name is a match
                            if let ExprKind::Var(n, None) = &v.kind {
                                out.insert(format!("?recv:{n}"));
                            }
                        }
                        RecvArg::Match(e) => expr(proc, locals, e, out),
                        RecvArg::Any => {}
                    }
                }
            }
            StmtKind::If(o) | StmtKind::Do(o) => {
                o.iter().for_each(|s| collect_reads(proc, locals, s, out))
            }
            StmtKind::Atomic(b) | StmtKind::DStep(b) | StmtKind::Block(b) => {
                collect_reads(proc, locals, b, out)
            }
            StmtKind::Labeled(_, s) => collect_reads(proc, locals, std::slice::from_ref(s), out),
            StmtKind::Decl(d) => {
                if let Some(e) = &d.init {
                    expr(proc, locals, e, out)
                }
            }
            _ => {}
        }
    }
}

fn local_decls(stmts: &[Stmt], out: &mut Vec<VarDecl>) {
    for s in stmts {
        match &s.kind {
            StmtKind::Decl(d) => out.push(d.clone()),
            StmtKind::If(o) | StmtKind::Do(o) => o.iter().for_each(|s| local_decls(s, out)),
            StmtKind::Atomic(b) | StmtKind::DStep(b) | StmtKind::Block(b) => local_decls(b, out),
            StmtKind::Labeled(_, s) => local_decls(std::slice::from_ref(s), out),
            _ => {}
        }
    }
}

/// Control-flow graph nodes before jump elimination.
#[derive(Clone, Debug)]
enum Node {
    Stmt {
        act: Act,
        next: usize,
        atom: bool,
        in_atomic: bool,
        pos: Pos,
    },
    Branch {
        opts: Vec<usize>,
        pos: Pos,
    },
    Jump {
        to: JumpTo,
        atom: bool,
        pos: Pos,
    },
    End,
    Placeholder,
}

#[derive(Clone, Debug)]
enum JumpTo {
    Node(usize),
    Label(String),
}

struct Builder<'a, 'b> {
    cx: &'a Cx<'b>,
    proc: usize,
    locals: &'a HashMap<String, usize>,
    local_vars: &'a [Var],
    nodes: Vec<Node>,
    labels: HashMap<String, usize>,
}

impl Builder<'_, '_> {
    fn add(&mut self, n: Node) -> usize {
        self.nodes.push(n);
        self.nodes.len() - 1
    }

    fn var(&self, e: &Expr) -> R<VarRef> {
        let ExprKind::Var(n, idx) = &e.kind else {
            return self
                .cx
                .err(ErrorKind::Semantic, e.pos, "expected a variable");
        };
        let (place, v) = if let Some(&i) = self.locals.get(n) {
            (Place::Local(i), &self.local_vars[i])
        } else if let Some(&i) = self.cx.gnames.get(n) {
            (Place::Global(i), &self.cx.globals[i])
        } else if self.cx.mtypes.contains_key(n) || self.cx.cnames.contains_key(n) {
            return self.cx.err(
                ErrorKind::Semantic,
                e.pos,
                format!("'{n}' is not a variable"),
            );
        } else {
            return self.cx.err(
                ErrorKind::Semantic,
                e.pos,
                format!("unknown variable '{n}'"),
            );
        };
        if v.ty == BaseType::Chan {
            return self.cx.err(
                ErrorKind::Unsupported,
                e.pos,
                "channel variables are only supported as global channel names",
            );
        }
        if v.is_array != idx.is_some() {
            let msg = if v.is_array {
                "array used without index"
            } else {
                "index on a scalar"
            };
            return self
                .cx
                .err(ErrorKind::Semantic, e.pos, format!("{msg}: '{n}'"));
        }
        let idx = match idx {
            Some(i) => Some(Box::new(folded(self.expr(i)?))),
            None => None,
        };
        Ok(VarRef {
            place,
            idx,
            pos: e.pos,
            at: v.at,
            ty: v.ty,
            len: v.len,
        })
    }

    fn chan(&self, e: &Expr) -> R<ChanRef> {
        let ExprKind::Var(n, idx) = &e.kind else {
            return self
                .cx
                .err(ErrorKind::Unsupported, e.pos, "expected a channel name");
        };
        if self.locals.contains_key(n) {
            return self.cx.err(
                ErrorKind::Unsupported,
                e.pos,
                "local channels and channel parameters are not supported",
            );
        }
        let Some(&(base, len)) = self.cx.cnames.get(n) else {
            return self
                .cx
                .err(ErrorKind::Semantic, e.pos, format!("unknown channel '{n}'"));
        };
        let idx = match idx {
            Some(i) => Some(Box::new(self.expr(i)?)),
            None if len > 1 => {
                return self.cx.err(
                    ErrorKind::Semantic,
                    e.pos,
                    "channel array used without index",
                )
            }
            None => None,
        };
        Ok(ChanRef {
            base,
            len,
            idx,
            pos: e.pos,
        })
    }

    /// The operator the parser wrote as `symbol` (every symbol it writes
    /// has one; an unknown one is refused, never guessed).
    fn operator<T>(&self, op: Option<T>, symbol: &str, e: &Expr) -> R<T> {
        match op {
            Some(op) => Ok(op),
            None => self.cx.err(
                ErrorKind::Unsupported,
                e.pos,
                format!("operator '{symbol}' is not supported"),
            ),
        }
    }

    fn expr(&self, e: &Expr) -> R<CExpr> {
        Ok(match &e.kind {
            ExprKind::Num(n) => match i32::try_from(*n) {
                Ok(v) => CExpr::Const(v),
                Err(_) => {
                    return self.cx.err(
                        ErrorKind::Semantic,
                        e.pos,
                        format!("number {n} does not fit in an int (32 bits)"),
                    )
                }
            },
            ExprKind::Var(n, None)
                if self.cx.mtypes.contains_key(n) && !self.locals.contains_key(n) =>
            {
                CExpr::Const(self.cx.mtypes[n])
            }
            ExprKind::Var(..) => CExpr::Var(self.var(e)?),
            ExprKind::Unary(op, a) => {
                CExpr::Unary(self.operator(UnOp::of(op), op, e)?, Box::new(self.expr(a)?))
            }
            ExprKind::Binary(op, a, b) => CExpr::Binary(
                self.operator(BinOp::of(op), op, e)?,
                Box::new(self.expr(a)?),
                Box::new(self.expr(b)?),
                e.pos,
            ),
            ExprKind::Cond(a, b, c) => CExpr::Cond(
                Box::new(self.expr(a)?),
                Box::new(self.expr(b)?),
                Box::new(self.expr(c)?),
            ),
            ExprKind::ChanFn(f, c) => {
                CExpr::ChanFn(self.operator(ChanFn::of(f), f, e)?, self.chan(c)?)
            }
            ExprKind::Pid => CExpr::Pid,
            ExprKind::NrPr => CExpr::NrPr,
            ExprKind::Timeout => {
                return self
                    .cx
                    .err(ErrorKind::Unsupported, e.pos, "'timeout' is not supported")
            }
            ExprKind::Run(..) => {
                return self.cx.err(
                    ErrorKind::Unsupported,
                    e.pos,
                    "'run' is supported only as a statement",
                )
            }
        })
    }

    fn run(&self, pos: Pos, name: &str, args: &[Expr]) -> R<Act> {
        let Some(&p) = self.cx.pnames.get(name) else {
            return self.cx.err(
                ErrorKind::Semantic,
                pos,
                format!("unknown proctype '{name}'"),
            );
        };
        let args = args.iter().map(|a| self.expr(a)).collect::<R<Vec<_>>>()?;
        Ok(Act::Run(p, args))
    }

    /// Builds `stmts` followed by `next`; returns the entry node.
    fn seq(
        &mut self,
        stmts: &[Stmt],
        next: usize,
        brk: Option<usize>,
        atom: bool,
        last_latom: bool,
    ) -> R<usize> {
        let mut cur = next;
        let n = stmts
            .iter()
            .filter(|s| !matches!(s.kind, StmtKind::Decl(_)))
            .count();
        let mut k = n;
        for s in stmts.iter().rev() {
            if matches!(s.kind, StmtKind::Decl(_)) {
                continue;
            }
            k -= 1;
            cur = self.stmt(s, cur, brk, atom, last_latom && k + 1 == n)?;
        }
        Ok(cur)
    }

    fn stmt(
        &mut self,
        s: &Stmt,
        next: usize,
        brk: Option<usize>,
        atom: bool,
        is_last: bool,
    ) -> R<usize> {
        // inside atomic, every statement keeps control except the last one
        let a = atom && !is_last;
        let simple = |b: &mut Self, act: Act| {
            Ok(b.add(Node::Stmt {
                act,
                next,
                atom: a,
                in_atomic: atom,
                pos: s.pos,
            }))
        };
        match &s.kind {
            StmtKind::Expr(Expr {
                kind: ExprKind::Run(n, args),
                ..
            }) => {
                let act = self.run(s.pos, n, args)?;
                simple(self, act)
            }
            StmtKind::Expr(e) => {
                // folded: BEEM compares with `5-1` (frogs), `m/(10*10)`
                // (extinction) and stores `((0)+(0)*20)` (telephony)
                let act = Act::Cond(folded(self.expr(e)?));
                simple(self, act)
            }
            StmtKind::Assign(l, r) => {
                let act = Act::Assign(self.var(l)?, folded(self.expr(r)?));
                simple(self, act)
            }
            StmtKind::Incr(l, d) => {
                let act = Act::Incr(self.var(l)?, *d);
                simple(self, act)
            }
            StmtKind::Send(c, args) => {
                let c = self.chan(c)?;
                let args = args.iter().map(|a| self.expr(a)).collect::<R<Vec<_>>>()?;
                self.check_arity(s.pos, &c, args.len())?;
                simple(self, Act::Send(c, args))
            }
            StmtKind::Recv(c, args) => {
                let c = self.chan(c)?;
                let mut out = Vec::new();
                for a in args {
                    out.push(match a {
                        RecvArg::Any => CRecv::Any,
                        RecvArg::Match(e) => CRecv::Match(self.expr(e)?),
                        RecvArg::Var(e) => match &e.kind {
                            ExprKind::Var(n, None)
                                if self.cx.mtypes.contains_key(n)
                                    && !self.locals.contains_key(n) =>
                            {
                                CRecv::Match(CExpr::Const(self.cx.mtypes[n]))
                            }
                            _ => CRecv::Var(self.var(e)?),
                        },
                    });
                }
                self.check_arity(s.pos, &c, out.len())?;
                simple(self, Act::Recv(c, out))
            }
            StmtKind::Assert(e) => {
                let act = Act::Assert(self.expr(e)?);
                simple(self, act)
            }
            StmtKind::Skip => simple(self, Act::Skip),
            StmtKind::Else => simple(self, Act::Else),
            StmtKind::If(opts) => {
                let mut entries = Vec::new();
                for o in opts {
                    entries.push(self.seq(o, next, brk, atom, false)?);
                }
                Ok(self.add(Node::Branch {
                    opts: entries,
                    pos: s.pos,
                }))
            }
            StmtKind::Do(opts) => {
                let me = self.add(Node::Placeholder);
                let mut entries = Vec::new();
                for o in opts {
                    entries.push(self.seq(o, me, Some(next), atom, false)?);
                }
                self.nodes[me] = Node::Branch {
                    opts: entries,
                    pos: s.pos,
                };
                Ok(me)
            }
            StmtKind::Block(b) => self.seq(b, next, brk, atom, is_last),
            StmtKind::Atomic(b) => {
                if b.is_empty() {
                    return self
                        .cx
                        .err(ErrorKind::Syntax, s.pos, "empty atomic sequence");
                }
                self.seq(b, next, brk, true, !atom || is_last)
            }
            StmtKind::DStep(b) => {
                if b.is_empty() {
                    return self
                        .cx
                        .err(ErrorKind::Syntax, s.pos, "empty d_step sequence");
                }
                let mut sub = Builder {
                    cx: self.cx,
                    proc: self.proc,
                    locals: self.locals,
                    local_vars: self.local_vars,
                    nodes: Vec::new(),
                    labels: HashMap::new(),
                };
                let end = sub.add(Node::End);
                let entry = sub.seq(b, end, None, false, false)?;
                let auto = sub.automaton(entry, s.pos)?;
                simple(self, Act::DStep(Box::new(auto)))
            }
            StmtKind::Goto(l) => Ok(self.add(Node::Jump {
                to: JumpTo::Label(l.clone()),
                atom: a,
                pos: s.pos,
            })),
            StmtKind::Break => match brk {
                Some(b) => Ok(self.add(Node::Jump {
                    to: JumpTo::Node(b),
                    atom: a,
                    pos: s.pos,
                })),
                None => self
                    .cx
                    .err(ErrorKind::Semantic, s.pos, "'break' outside a do loop"),
            },
            StmtKind::Labeled(l, inner) => {
                let e = self.stmt(inner, next, brk, atom, is_last)?;
                if self.labels.insert(l.clone(), e).is_some() {
                    return self.cx.err(
                        ErrorKind::Semantic,
                        s.pos,
                        format!("label '{l}' declared twice"),
                    );
                }
                Ok(e)
            }
            StmtKind::Decl(_) => Ok(next),
        }
    }

    fn check_arity(&self, pos: Pos, c: &ChanRef, n: usize) -> R<()> {
        let want = self.cx.chans[c.base].fields.len();
        if n != want {
            return self.cx.err(
                ErrorKind::Semantic,
                pos,
                format!(
                    "channel '{}' has {want} field(s), got {n}",
                    self.cx.chans[c.base].name
                ),
            );
        }
        Ok(())
    }

    /// Follows jumps from `n` to a statement, branch or end node.
    fn resolve(&self, mut n: usize, pos: Pos) -> R<usize> {
        for _ in 0..=self.nodes.len() {
            match &self.nodes[n] {
                Node::Jump { to, pos: jp, .. } => {
                    n = match to {
                        JumpTo::Node(t) => *t,
                        JumpTo::Label(l) => match self.labels.get(l) {
                            Some(&t) => t,
                            None => {
                                return self.cx.err(
                                    ErrorKind::Semantic,
                                    *jp,
                                    format!("unknown label '{l}' (or a jump out of a d_step)"),
                                )
                            }
                        },
                    }
                }
                _ => return Ok(n),
            }
        }
        self.cx
            .err(ErrorKind::Semantic, pos, "goto loop without statements")
    }

    /// Transitions leaving the control state of node `n`: (act, next node,
    /// atom, pos). A jump heading an option is a step of its own (as in
    /// SPIN, where it is only eliminated when it follows a statement).
    fn expand(
        &self,
        n: usize,
        out: &mut Vec<(Act, usize, bool, Pos, usize)>,
        depth: usize,
    ) -> R<()> {
        match &self.nodes[n] {
            Node::Stmt {
                act,
                next,
                atom,
                pos,
                ..
            } => out.push((act.clone(), *next, *atom, *pos, n)),
            Node::Branch { opts, pos } => {
                if depth > 64 {
                    return self
                        .cx
                        .err(ErrorKind::Unsupported, *pos, "if/do nested too deeply");
                }
                let mut elses = Vec::new();
                for &o in opts {
                    match &self.nodes[o] {
                        Node::Jump { atom, pos, .. } => out.push((Act::Skip, o, *atom, *pos, o)),
                        Node::Stmt { act: Act::Else, .. } => {
                            self.expand(o, &mut elses, depth + 1)?
                        }
                        _ => self.expand(o, out, depth + 1)?,
                    }
                }
                if elses.len() > 1 {
                    return self
                        .cx
                        .err(ErrorKind::Semantic, *pos, "more than one 'else'");
                }
                out.extend(elses);
            }
            Node::End => out.push((Act::End, n, false, Pos::default(), n)),
            Node::Jump { .. } | Node::Placeholder => unreachable!("resolved before expansion"),
        }
        Ok(())
    }

    /// Locations reachable from `entry`, numbered in discovery order.
    fn automaton(&self, entry: usize, pos: Pos) -> R<Automaton> {
        let mut ids: HashMap<usize, usize> = HashMap::new();
        let mut order = Vec::new();
        let start = self.resolve(entry, pos)?;
        ids.insert(start, 0);
        order.push(start);
        let mut auto = Automaton::default();
        let mut i = 0;
        while i < order.len() {
            let n = order[i];
            let mut ts = Vec::new();
            self.expand(n, &mut ts, 0)?;
            let mut here = Vec::new();
            auto.branch
                .push(matches!(self.nodes[n], Node::Branch { .. }));
            for (act, next, atom, tpos, node) in ts {
                let in_atomic = match &self.nodes[node] {
                    Node::Stmt { in_atomic, .. } => *in_atomic,
                    _ => atom,
                };
                let labeled = self.labels.values().any(|&l| l == node);
                let to = if matches!(act, Act::End) {
                    i
                } else {
                    let t = self.resolve(next, tpos)?;
                    *ids.entry(t).or_insert_with(|| {
                        order.push(t);
                        order.len() - 1
                    })
                };
                auto.trans.push(Tr {
                    from: i,
                    to,
                    act,
                    atom,
                    pos: tpos,
                    dead: Vec::new(),
                    chain: Vec::new(),
                    in_atomic,
                    labeled,
                    code: Default::default(),
                    guard: Default::default(),
                    residual: Default::default(),
                    rv: false,
                });
                here.push(auto.trans.len() - 1);
            }
            auto.locs.push(here);
            i += 1;
        }
        if let Some(e) = order
            .iter()
            .position(|&n| matches!(self.nodes[n], Node::End))
        {
            auto.end = Some(e);
        }
        Ok(auto)
    }
}

/// Compiles a parsed specification into a model.
pub fn compile(spec: &Spec, file: &str, name: &str) -> R<PromelaModel> {
    let mut cx = Cx {
        file,
        mtypes: HashMap::new(),
        globals: Vec::new(),
        gnames: HashMap::new(),
        chans: Vec::new(),
        cnames: HashMap::new(),
        pnames: HashMap::new(),
        read: HashSet::new(),
    };
    // SPIN numbers mtype constants from the last declared (1) upwards.
    let n = spec.mtypes.len();
    for (i, (pos, m)) in spec.mtypes.iter().enumerate() {
        if cx.mtypes.insert(m.clone(), (n - i) as i32).is_some() {
            return cx.err(
                ErrorKind::Semantic,
                *pos,
                format!("mtype '{m}' declared twice"),
            );
        }
    }
    for (i, p) in spec.procs.iter().enumerate() {
        if cx.pnames.insert(p.name.clone(), i).is_some() {
            return cx.err(
                ErrorKind::Semantic,
                p.pos,
                format!("proctype '{}' declared twice", p.name),
            );
        }
    }
    if spec.procs.iter().filter(|p| p.is_init).count() > 1 {
        return Err(PromelaError::new(
            ErrorKind::Semantic,
            file,
            "more than one init",
        ));
    }
    // which names are read anywhere
    let mut proc_locals: Vec<Vec<VarDecl>> = Vec::new();
    for p in &spec.procs {
        let mut ds = p.params.clone();
        local_decls(&p.body, &mut ds);
        let names: HashSet<String> = ds.iter().map(|d| d.name.clone()).collect();
        collect_reads(&p.name, &names, &p.body, &mut cx.read);
        for d in &ds {
            if let Some(e) = &d.init {
                collect_reads(
                    &p.name,
                    &names,
                    &[Stmt {
                        pos: d.pos,
                        kind: StmtKind::Expr(e.clone()),
                    }],
                    &mut cx.read,
                );
            }
        }
        proc_locals.push(ds);
    }
    for d in &spec.globals {
        if let Some(e) = &d.init {
            collect_reads(
                "",
                &HashSet::new(),
                &[Stmt {
                    pos: d.pos,
                    kind: StmtKind::Expr(e.clone()),
                }],
                &mut cx.read,
            );
        }
    }
    // globals and channels
    let mut slots: Vec<Slot> = Vec::new();
    let mut init: Vec<u32> = Vec::new();
    for d in &spec.globals {
        if cx.gnames.contains_key(&d.name)
            || cx.cnames.contains_key(&d.name)
            || cx.mtypes.contains_key(&d.name)
        {
            return cx.err(
                ErrorKind::Semantic,
                d.pos,
                format!("'{}' declared twice", d.name),
            );
        }
        let len = cx.array_len(d)?;
        if d.ty == BaseType::Chan {
            let Some(ci) = &d.chan else {
                return cx.err(
                    ErrorKind::Unsupported,
                    d.pos,
                    "uninitialised channel variables are not supported",
                );
            };
            let cap = cx.const_eval(&ci.capacity)?;
            if !(0..=MAX_CAPACITY).contains(&cap) {
                return cx.err(
                    ErrorKind::Limit,
                    ci.capacity.pos,
                    format!("channel capacity {cap} is outside 0..={MAX_CAPACITY}"),
                );
            }
            cx.cnames.insert(d.name.clone(), (cx.chans.len(), len));
            for k in 0..len {
                cx.chans.push(Chan {
                    name: if len > 1 {
                        format!("{}[{k}]", d.name)
                    } else {
                        d.name.clone()
                    },
                    cap: cap as usize,
                    fields: ci.fields.clone(),
                    slot: None,
                });
            }
            if cx.chans.len() > MAX_CHANNELS {
                return cx.err(
                    ErrorKind::Limit,
                    d.pos,
                    format!("more than {MAX_CHANNELS} channels"),
                );
            }
            continue;
        }
        let visible = !d.hidden && cx.read.contains(&d.name);
        let v = Var {
            name: d.name.clone(),
            ty: d.ty,
            len,
            at: visible.then_some(slots.len()),
            is_array: d.size.is_some(),
        };
        let val = match &d.init {
            Some(e) => cx.const_eval(e)?,
            None => 0,
        };
        if visible {
            for k in 0..len {
                slots.push(Slot {
                    name: if v.is_array {
                        format!("{}[{k}]", d.name)
                    } else {
                        d.name.clone()
                    },
                    process: None,
                    bits: type_bits(d.ty),
                });
                init.push(crate::model::truncate(d.ty, val as i32));
            }
        }
        cx.gnames.insert(d.name.clone(), cx.globals.len());
        cx.globals.push(v);
    }
    for c in cx.chans.iter_mut() {
        if c.cap > 0 {
            c.slot = Some(slots.len());
            slots.push(Slot {
                name: format!("{}.len", c.name),
                process: None,
                bits: bits_for(c.cap + 1),
            });
            init.push(0);
            for k in 0..c.cap {
                for (f, ty) in c.fields.iter().enumerate() {
                    slots.push(Slot {
                        name: format!("{}[{k}].{f}", c.name),
                        process: None,
                        bits: type_bits(*ty),
                    });
                    init.push(0);
                }
            }
        }
    }
    // proctypes
    let mut ptypes = Vec::new();
    for (pi, p) in spec.procs.iter().enumerate() {
        let mut vars = Vec::new();
        let mut names = HashMap::new();
        let mut at = 0;
        for d in &proc_locals[pi] {
            if names.contains_key(&d.name) {
                return cx.err(
                    ErrorKind::Semantic,
                    d.pos,
                    format!("local '{}' declared twice", d.name),
                );
            }
            if d.ty == BaseType::Chan {
                return cx.err(
                    ErrorKind::Unsupported,
                    d.pos,
                    "local channels and channel parameters are not supported",
                );
            }
            let len = cx.array_len(d)?;
            let visible = !d.hidden && cx.read.contains(&format!("{}::{}", p.name, d.name));
            names.insert(d.name.clone(), vars.len());
            vars.push(Var {
                name: d.name.clone(),
                ty: d.ty,
                len,
                at: visible.then_some(at),
                is_array: d.size.is_some(),
            });
            if visible {
                at += len;
            }
        }
        let b = Builder {
            cx: &cx,
            proc: pi,
            locals: &names,
            local_vars: &vars,
            nodes: Vec::new(),
            labels: HashMap::new(),
        };
        let mut inits = Vec::new();
        for d in &proc_locals[pi] {
            inits.push(match &d.init {
                Some(e) => Some(b.expr(e)?),
                None => None,
            });
        }
        let mut b = b;
        let end = b.add(Node::End);
        let entry = b.seq(&p.body, end, None, false, false)?;
        let mut auto = b.automaton(entry, p.pos)?;
        let _ = b.proc;
        dead_variables(&mut auto, &vars);
        let rendezvous = cx.chans.iter().any(|c| c.cap == 0);
        merge_statements(&mut auto, rendezvous);
        ptypes.push(ProcType {
            name: p.name.clone(),
            auto,
            locals: vars.into_iter().zip(inits).collect(),
            nparams: p.params.len(),
            nlocal_slots: at,
        });
    }
    // initial processes
    let mut initial = Vec::new();
    for (pi, p) in spec.procs.iter().enumerate() {
        let n = match (&p.active, p.is_init) {
            (_, true) => 1,
            (Some(e), _) => cx.const_eval(e)?,
            (None, _) => 0,
        };
        if !(0..=MAX_PROCESSES as i64).contains(&n) {
            return cx.err(
                ErrorKind::Limit,
                p.pos,
                format!("active [{n}] exceeds the limit of {MAX_PROCESSES} processes"),
            );
        }
        initial.extend(std::iter::repeat_n(pi, n as usize));
    }
    let hosts = process_hosts(&ptypes, &initial, file)?;
    crate::model::build(crate::model::Parts {
        name: name.to_string(),
        file: file.to_string(),
        globals: cx.globals,
        chans: cx.chans,
        ptypes,
        initial,
        hosts,
        slots,
        init,
    })
}

/// Which proctypes each process slot (pid) can hold: an exploration of the
/// control flow of the processes that create or end processes (guards
/// ignored, so an over-approximation), others abstracted to their type.
/// Errors when the number of processes cannot be bounded within
/// [`MAX_PROCESSES`].
fn process_hosts(ptypes: &[ProcType], initial: &[usize], file: &str) -> R<Vec<BTreeSet<usize>>> {
    fn has_run(a: &Automaton) -> bool {
        a.trans.iter().any(|t| match &t.act {
            Act::Run(..) => true,
            Act::DStep(d) => has_run(d),
            _ => false,
        })
    }
    // processes that create others are followed location by location;
    // the others only matter by dying, which they may do whenever youngest
    let relevant: Vec<bool> = ptypes.iter().map(|p| has_run(&p.auto)).collect();
    let can_end: Vec<bool> = ptypes.iter().map(|p| p.auto.end.is_some()).collect();
    let start = |t: usize| relevant[t].then_some(ptypes[t].auto.start);
    let s0: Vec<(usize, Option<usize>)> = initial.iter().map(|&t| (t, start(t))).collect();
    if s0.len() > MAX_PROCESSES {
        return Err(PromelaError::new(
            ErrorKind::Limit,
            file,
            format!("more than {MAX_PROCESSES} processes"),
        ));
    }
    let mut seen = HashSet::new();
    let mut stack = vec![s0.clone()];
    seen.insert(s0);
    let mut hosts: Vec<BTreeSet<usize>> = Vec::new();
    const BUDGET: usize = 200_000;
    while let Some(s) = stack.pop() {
        for (i, (t, _)) in s.iter().enumerate() {
            if hosts.len() <= i {
                hosts.push(BTreeSet::new());
            }
            hosts[i].insert(*t);
        }
        if let Some(&(t, None)) = s.last() {
            if can_end[t] {
                let mut n = s.clone();
                n.pop();
                if seen.insert(n.clone()) {
                    stack.push(n);
                }
            }
        }
        for (i, &(t, loc)) in s.iter().enumerate() {
            let Some(loc) = loc else { continue };
            let auto = &ptypes[t].auto;
            for &k in &auto.locs[loc] {
                let tr = &auto.trans[k];
                let mut n = s.clone();
                let mut runs = Vec::new();
                match &tr.act {
                    Act::Run(p, _) => runs.push(*p),
                    Act::DStep(d) => {
                        fn collect(a: &Automaton, out: &mut Vec<usize>) {
                            for t in &a.trans {
                                match &t.act {
                                    Act::Run(p, _) => out.push(*p),
                                    Act::DStep(d) => collect(d, out),
                                    _ => {}
                                }
                            }
                        }
                        collect(d, &mut runs)
                    }
                    Act::End => {
                        if i + 1 == s.len() {
                            n.pop();
                            if seen.insert(n.clone()) {
                                stack.push(n);
                            }
                        }
                        continue;
                    }
                    _ => {}
                }
                n[i].1 = Some(tr.to);
                for p in runs {
                    n.push((p, start(p)));
                }
                if n.len() > MAX_PROCESSES {
                    return Err(PromelaError::at(
                        ErrorKind::Limit,
                        file,
                        tr.pos.line,
                        tr.pos.col,
                        format!(
                            "process creation may exceed the limit of {MAX_PROCESSES} processes"
                        ),
                    ));
                }
                if seen.insert(n.clone()) {
                    if seen.len() > BUDGET {
                        return Err(PromelaError::new(
                            ErrorKind::Unsupported,
                            file,
                            "cannot bound the processes created by 'run' (too many creation patterns)",
                        ));
                    }
                    stack.push(n);
                }
            }
        }
    }
    Ok(hosts)
}

/// Group list for a model: one per (proctype, transition) that is not a
/// rendezvous operation, one per statically compatible rendezvous pair.
pub fn groups_of(ptypes: &[ProcType], chans: &[Chan]) -> Vec<GroupKind> {
    let mut out = Vec::new();
    let rv = |a: &Act| match a {
        Act::Send(c, _) | Act::Recv(c, _) => chans[c.base].cap == 0,
        _ => false,
    };
    for (p, pt) in ptypes.iter().enumerate() {
        for (t, tr) in pt.auto.trans.iter().enumerate() {
            if !rv(&tr.act) {
                out.push(GroupKind::Step { ptype: p, tr: t });
            }
        }
    }
    for (sp, spt) in ptypes.iter().enumerate() {
        for (st, s) in spt.auto.trans.iter().enumerate() {
            let Act::Send(sc, _) = &s.act else { continue };
            if !rv(&s.act) {
                continue;
            }
            for (rp, rpt) in ptypes.iter().enumerate() {
                for (rt, r) in rpt.auto.trans.iter().enumerate() {
                    let Act::Recv(rc, _) = &r.act else { continue };
                    if may_meet(sc, rc) {
                        out.push(GroupKind::Rendezvous {
                            sptype: sp,
                            str: st,
                            rptype: rp,
                            rtr: rt,
                        });
                    }
                }
            }
        }
    }
    out
}

/// Whether a send on `sc` and a receive on `rc` may use the same channel
/// (the same declaration, and no two different constant indices).
fn may_meet(sc: &ChanRef, rc: &ChanRef) -> bool {
    sc.base == rc.base
        && (sc.len == 1
            || match (&sc.idx, &rc.idx) {
                (Some(a), Some(b)) => match (a.as_ref(), b.as_ref()) {
                    (CExpr::Const(x), CExpr::Const(y)) => x == y,
                    _ => true,
                },
                _ => true,
            })
}

/// The receive transitions (proctype, transition) a rendezvous send `act`
/// may meet; none when `act` is not a rendezvous send.
fn receivers(m: &PromelaModel, act: &Act) -> Vec<(usize, usize)> {
    let Act::Send(sc, _) = act else {
        return Vec::new();
    };
    if m.chans[sc.base].cap != 0 {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (rp, rpt) in m.ptypes.iter().enumerate() {
        for (rt, r) in rpt.auto.trans.iter().enumerate() {
            if matches!(&r.act, Act::Recv(rc, _) if may_meet(sc, rc)) {
                out.push((rp, rt));
            }
        }
    }
    out
}

/// Read and write slots of a group (conservative: whole arrays, whole
/// channels, every slot of every process slot that may run the proctype;
/// the whole vector when an atomic continuation may start or end
/// processes; the receivers' steps when it makes a rendezvous).
pub fn group_sets(m: &PromelaModel, g: &GroupKind) -> TransitionGroup {
    let mut read = BTreeSet::new();
    let mut write = BTreeSet::new();
    let mut all = false;
    let (label, sides) = match g {
        GroupKind::Step { ptype, tr } => {
            let t = &m.ptypes[*ptype].auto.trans[*tr];
            (
                format!("{}.{}->{}", m.ptypes[*ptype].name, t.from, t.to),
                vec![(*ptype, *tr)],
            )
        }
        GroupKind::Rendezvous {
            sptype,
            str,
            rptype,
            rtr,
        } => {
            let s = &m.ptypes[*sptype].auto.trans[*str];
            let r = &m.ptypes[*rptype].auto.trans[*rtr];
            (
                format!(
                    "{}.{}->{}!{}.{}->{}",
                    m.ptypes[*sptype].name, s.from, s.to, m.ptypes[*rptype].name, r.from, r.to
                ),
                vec![(*sptype, *str), (*rptype, *rtr)],
            )
        }
    };
    // the transitions, their locations' siblings (else), and every step
    // an atomic continuation may take: of the same process, or of the
    // receiver a rendezvous send in the continuation hands control to
    // (each entry: proctype, transition, whether it runs as a continuation)
    let mut todo = Vec::new();
    for &(p, t) in &sides {
        let auto = &m.ptypes[p].auto;
        todo.push((p, t, false));
        todo.extend(auto.locs[auto.trans[t].from].iter().map(|&k| (p, k, false)));
    }
    let mut done = HashSet::new();
    while let Some((p, k, continuation)) = todo.pop() {
        if !done.insert((p, k, continuation)) {
            continue;
        }
        let auto = &m.ptypes[p].auto;
        let tr = &auto.trans[k];
        all |= m.touch(p, &tr.act, &mut read, &mut write);
        for &c in &tr.chain {
            all |= m.touch(p, &auto.trans[c].act, &mut read, &mut write);
        }
        if tr.atom {
            todo.extend(auto.locs[tr.to].iter().map(|&n| (p, n, true)));
        }
        if continuation {
            let met = receivers(m, &tr.act);
            todo.extend(met.into_iter().map(|(q, r)| (q, r, false)));
        }
    }
    if all {
        let k = m.slots.len();
        return TransitionGroup {
            label,
            read: (0..k).collect(),
            write: (0..k).collect(),
        };
    }
    TransitionGroup {
        label,
        read: read.into_iter().collect(),
        write: write.into_iter().collect(),
    }
}

/// Scalar locals an action reads (`reads`) and writes, as SPIN's dataflow
/// analysis sees them: array elements are never tracked (only their
/// indices are reads), a receive writes its variables and reads its
/// matched expressions.
fn uses(act: &Act, reads: &mut HashSet<usize>, writes: &mut HashSet<usize>) {
    fn expr(e: &CExpr, r: &mut HashSet<usize>) {
        match e {
            CExpr::Var(v) => var(v, r),
            CExpr::Unary(_, a) => expr(a, r),
            CExpr::Binary(_, a, b, _) => {
                expr(a, r);
                expr(b, r);
            }
            CExpr::Cond(a, b, c) => {
                expr(a, r);
                expr(b, r);
                expr(c, r);
            }
            CExpr::ChanFn(_, c) => {
                if let Some(i) = &c.idx {
                    expr(i, r)
                }
            }
            _ => {}
        }
    }
    fn var(v: &VarRef, r: &mut HashSet<usize>) {
        match (&v.place, &v.idx) {
            (Place::Local(i), None) => {
                r.insert(*i);
            }
            (_, Some(i)) => expr(i, r),
            _ => {}
        }
    }
    fn lval(v: &VarRef, r: &mut HashSet<usize>, w: &mut HashSet<usize>) {
        match (&v.place, &v.idx) {
            (Place::Local(i), None) => {
                w.insert(*i);
            }
            (_, Some(i)) => expr(i, r),
            _ => {}
        }
    }
    match act {
        Act::Cond(e) | Act::Assert(e) => expr(e, reads),
        Act::Assign(v, e) => {
            lval(v, reads, writes);
            expr(e, reads);
        }
        Act::Incr(v, _) => {
            var(v, reads);
            lval(v, reads, writes);
        }
        Act::Send(c, args) => {
            if let Some(i) = &c.idx {
                expr(i, reads)
            }
            args.iter().for_each(|a| expr(a, reads));
        }
        Act::Recv(c, args) => {
            if let Some(i) = &c.idx {
                expr(i, reads)
            }
            for a in args {
                match a {
                    CRecv::Var(v) => lval(v, reads, writes),
                    CRecv::Match(e) => expr(e, reads),
                    CRecv::Any => {}
                }
            }
        }
        Act::Run(_, args) => args.iter().for_each(|a| expr(a, reads)),
        _ => {}
    }
}

/// Locations already visited by a `dead_at` search (automaton address,
/// location).
type Seen = HashSet<(usize, usize)>;

/// Whether local `u` is dead at location `loc`: on every path, written
/// before read (SPIN's `FSM_DFS`: the end of the process and cycles count
/// as dead; a statement that both reads and writes reads first; d_step
/// bodies are walked statement by statement, `after` continuing past
/// their end).
fn dead_at(
    auto: &Automaton,
    loc: usize,
    u: usize,
    seen: &mut Seen,
    after: &mut dyn FnMut(&mut Seen) -> bool,
) -> bool {
    if auto.end == Some(loc) {
        return after(seen);
    }
    if !seen.insert((auto as *const Automaton as usize, loc)) {
        return true;
    }
    for &k in &auto.locs[loc] {
        let tr = &auto.trans[k];
        if let Act::DStep(d) = &tr.act {
            let to = tr.to;
            if !dead_at(d, d.start, u, seen, &mut |seen| {
                dead_at(auto, to, u, seen, after)
            }) {
                return false;
            }
            continue;
        }
        let (mut r, mut w) = (HashSet::new(), HashSet::new());
        uses(&tr.act, &mut r, &mut w);
        if r.contains(&u) {
            return false;
        }
        if w.contains(&u) {
            continue;
        }
        if !dead_at(auto, tr.to, u, seen, after) {
            return false;
        }
    }
    true
}

/// SPIN's dataflow optimisation (on by default, `spin -o1` turns it off):
/// after a step, a scalar local that is dead is reset to 0 when the step
/// is a condition or receive reading it, or writes it (unless by `= 0`).
/// Steps inside `d_step` get no reset (SPIN emits none there).
fn dead_variables(auto: &mut Automaton, vars: &[Var]) {
    let candidates: Vec<usize> = (0..vars.len())
        .filter(|&i| vars[i].at.is_some() && !vars[i].is_array)
        .collect();
    let mut resets = Vec::new();
    for (k, tr) in auto.trans.iter().enumerate() {
        let (mut r, mut w) = (HashSet::new(), HashSet::new());
        uses(&tr.act, &mut r, &mut w);
        for &u in &candidates {
            let read_ok = r.contains(&u) && matches!(tr.act, Act::Cond(_) | Act::Recv(..));
            let write_ok = w.contains(&u) && !matches!(tr.act, Act::Assign(_, CExpr::Const(0)));
            if !(read_ok || write_ok) {
                continue;
            }
            let mut seen = HashSet::new();
            if dead_at(auto, tr.to, u, &mut seen, &mut |_| true) {
                resets.push((k, u));
            }
        }
    }
    for (k, u) in resets {
        auto.trans[k].dead.push(u);
    }
}

/// Whether an action touches global data (variables, channels, process
/// creation, `_nr_pr`).
fn touches_global(act: &Act) -> bool {
    fn e(x: &CExpr) -> bool {
        match x {
            CExpr::Var(v) => {
                matches!(v.place, Place::Global(_)) || v.idx.as_ref().is_some_and(|i| e(i))
            }
            CExpr::Unary(_, a) => e(a),
            CExpr::Binary(_, a, b, _) => e(a) || e(b),
            CExpr::Cond(a, b, c) => e(a) || e(b) || e(c),
            CExpr::ChanFn(..) | CExpr::NrPr => true,
            CExpr::Const(_) | CExpr::Pid => false,
        }
    }
    let v =
        |r: &VarRef| matches!(r.place, Place::Global(_)) || r.idx.as_ref().is_some_and(|i| e(i));
    match act {
        Act::Cond(x) | Act::Assert(x) => e(x),
        Act::Assign(r, x) => v(r) || e(x),
        Act::Incr(r, _) => v(r),
        Act::Skip | Act::Else => false,
        _ => true,
    }
}

/// SPIN's statement merging (on by default, `spin -o3` turns it off;
/// `FSM_MERGER` in SPIN's `pangen5.c`). A statement is *eligible* when it is
/// an assignment, increment or assertion, carries no label, and touches no
/// global data unless inside `atomic`. An eligible statement executes, in
/// the same step, the chain of eligible statements that follow it through
/// locations with a single outgoing statement (not `if`/`do` states). A
/// condition, receive, or (when the model has no rendezvous channel) send
/// that is local or inside `atomic` also executes the chain of the
/// eligible statement that follows it. Intermediate locations of a chain
/// are never stored.
fn merge_statements(auto: &mut Automaton, rendezvous: bool) {
    let eligible = |tr: &Tr| {
        matches!(tr.act, Act::Assign(..) | Act::Incr(..) | Act::Assert(_))
            && !tr.labeled
            && (tr.in_atomic || !touches_global(&tr.act))
    };
    let next_of = |auto: &Automaton, k: usize| {
        let to = auto.trans[k].to;
        match auto.locs[to].as_slice() {
            [j] if !auto.branch[to] && eligible(&auto.trans[*j]) => Some(*j),
            _ => None,
        }
    };
    let chain_after = |auto: &Automaton, k: usize| {
        let mut out: Vec<usize> = Vec::new();
        let mut cur = k;
        while let Some(j) = next_of(auto, cur) {
            if j == k || out.contains(&j) {
                break;
            }
            out.push(j);
            cur = j;
        }
        out
    };
    let mut updates = Vec::new();
    for k in 0..auto.trans.len() {
        let tr = &auto.trans[k];
        let chain = if eligible(tr) {
            chain_after(auto, k)
        } else {
            let start = match &tr.act {
                Act::Cond(_) | Act::Recv(..) => true,
                Act::Send(..) => !rendezvous,
                _ => false,
            };
            let local = tr.in_atomic || !touches_global(&tr.act);
            match next_of(auto, k) {
                Some(j) if start && local && !matches!(tr.act, Act::Skip) => {
                    let mut c = vec![j];
                    c.extend(chain_after(auto, j));
                    c
                }
                _ => Vec::new(),
            }
        };
        if !chain.is_empty() {
            updates.push((k, chain));
        }
    }
    for (k, chain) in updates {
        let last = *chain.last().unwrap_or(&k);
        let (to, atom) = (auto.trans[last].to, auto.trans[last].atom);
        let tr = &mut auto.trans[k];
        tr.to = to;
        tr.atom = atom;
        tr.chain = chain;
    }
}

#[cfg(test)]
mod fold_tests {
    use super::{folded, Act, BinOp, CExpr, Pos};
    use scan::Cmp;

    fn bin(op: BinOp, a: CExpr, b: CExpr) -> CExpr {
        CExpr::Binary(op, Box::new(a), Box::new(b), Pos { line: 1, col: 1 })
    }

    #[test]
    fn operands_of_short_circuits_are_folded_but_not_the_node() {
        // `_pid < 5-1 && 0 && 1/0`: the subtraction folds, `&&` and the
        // division by zero stay (the interpreter reports it, if reached).
        let e = bin(
            BinOp::And,
            bin(
                BinOp::Cmp(Cmp::Lt),
                CExpr::Pid,
                bin(BinOp::Sub, CExpr::Const(5), CExpr::Const(1)),
            ),
            bin(
                BinOp::And,
                CExpr::Const(0),
                bin(BinOp::Div, CExpr::Const(1), CExpr::Const(0)),
            ),
        );
        let CExpr::Binary(BinOp::And, a, b, _) = folded(e) else {
            panic!("the && node is kept");
        };
        assert!(matches!(*a, CExpr::Binary(BinOp::Cmp(Cmp::Lt), _, ref k, _)
            if matches!(**k, CExpr::Const(4))));
        assert!(matches!(*b, CExpr::Binary(BinOp::And, ref z, ref d, _)
            if matches!(**z, CExpr::Const(0)) && matches!(**d, CExpr::Binary(BinOp::Div, ..))));
        let c = CExpr::Cond(
            Box::new(bin(BinOp::Add, CExpr::Const(1), CExpr::Const(1))),
            Box::new(CExpr::Pid),
            Box::new(bin(BinOp::Mul, CExpr::Const(3), CExpr::Const(2))),
        );
        assert!(matches!(folded(c), CExpr::Cond(c, _, e)
            if matches!(*c, CExpr::Const(2)) && matches!(*e, CExpr::Const(6))));
    }

    #[test]
    fn a_condition_comparing_with_constant_arithmetic_gets_an_exact_guard() {
        // frogs' `x<5-1 && a[..]==2`: both conjuncts are guard comparisons
        let m = crate::parse_str(
            "byte a[4]; byte x;\n\
             active proctype P() { do :: x < 5-1 && a[x] == 0 -> x++ od }",
            "t.pml",
        )
        .expect("model compiles");
        let trans = &m.ptypes[0].auto.trans;
        let cond = (trans.iter())
            .find(|t| matches!(t.act, Act::Cond(_)))
            .expect("the condition");
        assert_eq!(cond.guard.conjunction().map(<[_]>::len), Some(2));
        assert!(cond.guard.exact());
    }
}
