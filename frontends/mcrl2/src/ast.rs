//! The syntax tree of a linear process specification as read from text:
//! sorts, constructors, maps, equations, actions, global variables, the one
//! linear process and its initial state. Names are still strings; every
//! node that can be wrong carries its source position.
//!
//! Owns only the shape of the text; it must not resolve names nor evaluate
//! (that is `sorts`, `compile` and `rewriter`).

pub use crate::lexer::Pos;

/// A sort expression.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SortExpr {
    Bool,
    Pos,
    Nat,
    Int,
    Real,
    /// A user sort or alias.
    Named(String),
    List(Box<SortExpr>),
    Set(Box<SortExpr>),
    FSet(Box<SortExpr>),
    Bag(Box<SortExpr>),
    FBag(Box<SortExpr>),
    /// `S1 # ... # Sn -> T`.
    Func(Vec<SortExpr>, Box<SortExpr>),
    Struct(Vec<StructCtor>),
}

/// One constructor of a structured sort: `c(p1: S1, S2)?is_c`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StructCtor {
    pub name: String,
    /// Argument sorts with their projection names.
    pub args: Vec<(Option<String>, SortExpr)>,
    pub recogniser: Option<String>,
}

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    Not,
    Neg,
    Size,
}

/// Binary operators (`.` is `At`, list element access).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Implies,
    Or,
    And,
    Eq,
    Neq,
    Lt,
    Le,
    Gt,
    Ge,
    In,
    Cons,
    Snoc,
    Concat,
    Add,
    Sub,
    Mul,
    Div,
    IntDiv,
    Mod,
    At,
}

/// A data expression with its position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    pub kind: ExprKind,
    pub pos: Pos,
}

/// A typed variable declaration `x: S`.
pub type VarDecl = (String, SortExpr);

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExprKind {
    Id(String),
    Number(String),
    Apply(Box<Expr>, Vec<Expr>),
    /// `f[x -> v]`.
    Update(Box<Expr>, Box<Expr>, Box<Expr>),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    List(Vec<Expr>),
    Set(Vec<Expr>),
    /// `{:}` is an empty `Bag`.
    Bag(Vec<(Expr, Expr)>),
    /// `{ x: S | p }`.
    Comprehension(VarDecl, Box<Expr>),
    Lambda(Vec<VarDecl>, Box<Expr>),
    Forall(Vec<VarDecl>, Box<Expr>),
    Exists(Vec<VarDecl>, Box<Expr>),
    /// `e whr x = e1, y = e2 end`.
    Whr(Box<Expr>, Vec<(String, Expr)>),
}

/// A named declaration `name: sort` at a position (constructors, maps,
/// global variables).
#[derive(Clone, Debug)]
pub struct Decl {
    pub name: String,
    pub sort: SortExpr,
    pub pos: Pos,
}

/// `sort name = sort;` (an alias or structured sort) or `sort name;`.
#[derive(Clone, Debug)]
pub struct SortDecl {
    pub name: String,
    pub def: Option<SortExpr>,
    pub pos: Pos,
}

/// One rewrite rule `[cond ->] lhs = rhs` with the variables of its `var`
/// section.
#[derive(Clone, Debug)]
pub struct Equation {
    pub vars: Vec<VarDecl>,
    pub condition: Option<Expr>,
    pub lhs: Expr,
    pub rhs: Expr,
    pub pos: Pos,
}

/// `act a: S1 # S2;`.
#[derive(Clone, Debug)]
pub struct ActionDecl {
    pub name: String,
    pub sorts: Vec<SortExpr>,
}

/// One action of a multi-action: `a(e1, ..., en)`.
#[derive(Clone, Debug)]
pub struct Action {
    pub name: String,
    pub args: Vec<Expr>,
    pub pos: Pos,
}

/// One summand: `sum vars. cond -> multiaction . P(updates)`; `actions`
/// is `None` for `delta` (a summand without transitions) and empty for
/// `tau`.
#[derive(Clone, Debug)]
pub struct Summand {
    pub sum_vars: Vec<VarDecl>,
    pub condition: Option<Expr>,
    pub actions: Option<Vec<Action>>,
    pub updates: Vec<(String, Expr)>,
    /// Whether the summand ends in `P(...)` (false: a terminating action).
    pub continues: bool,
    pub timed: bool,
    pub pos: Pos,
}

/// The linear process `proc P(params) = summands;`.
#[derive(Clone, Debug)]
pub struct Process {
    pub name: String,
    pub params: Vec<VarDecl>,
    pub summands: Vec<Summand>,
    pub pos: Pos,
}

/// A whole linear process specification.
#[derive(Clone, Debug, Default)]
pub struct Spec {
    pub sorts: Vec<SortDecl>,
    pub cons: Vec<Decl>,
    pub maps: Vec<Decl>,
    pub equations: Vec<Equation>,
    pub actions: Vec<ActionDecl>,
    pub globals: Vec<Decl>,
    pub process: Option<Process>,
    pub init: Option<(Vec<Expr>, Pos)>,
}
