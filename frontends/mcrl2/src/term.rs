//! Compiled data terms: a data expression with every name resolved
//! (variables to environment slots, constructors, user maps, built-in
//! operations), ready for the rewriter. Also the compiled forms the
//! rewriter needs of rewrite rules (patterns) and lambdas.
//!
//! Owns only the shapes; building them is `compile`, evaluating them is
//! `rewriter`.

use std::sync::Arc;

use crate::sorts::Sort;
use crate::value::{CtorId, Value};

/// Built-in operations of mCRL2's standard data types (strict: every
/// argument is evaluated first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    Not,
    Neg,
    Size,
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
    Head,
    Tail,
    RHead,
    RTail,
    Max,
    Min,
    Abs,
    Succ,
    Pred,
    Exp,
    Int2Nat,
    Int2Pos,
    Nat2Pos,
    /// Pos2Nat, Nat2Int, Pos2Int, Int2Real...: the value is unchanged.
    Widen,
    Floor,
    Ceil,
    Round,
    Count,
    Bag2Set,
    Set2Bag,
}

impl Builtin {
    /// The built-in function of a name used in application position.
    pub fn by_name(name: &str) -> Option<Builtin> {
        Some(match name {
            "head" => Builtin::Head,
            "tail" => Builtin::Tail,
            "rhead" => Builtin::RHead,
            "rtail" => Builtin::RTail,
            "max" => Builtin::Max,
            "min" => Builtin::Min,
            "abs" => Builtin::Abs,
            "succ" => Builtin::Succ,
            "pred" => Builtin::Pred,
            "exp" => Builtin::Exp,
            "Int2Nat" => Builtin::Int2Nat,
            "Int2Pos" => Builtin::Int2Pos,
            "Nat2Pos" => Builtin::Nat2Pos,
            "Pos2Nat" | "Pos2Int" | "Nat2Int" | "Pos2Real" | "Nat2Real" | "Int2Real" => {
                Builtin::Widen
            }
            "floor" => Builtin::Floor,
            "ceil" => Builtin::Ceil,
            "round" => Builtin::Round,
            "count" => Builtin::Count,
            "Bag2Set" => Builtin::Bag2Set,
            "Set2Bag" => Builtin::Set2Bag,
            _ => return None,
        })
    }
}

/// A compiled data term.
#[derive(Clone, Debug)]
pub enum Term {
    Var(u32),
    Const(Value),
    Ctor(CtorId, Vec<Term>),
    /// A user map (index into the map table) applied to one argument group
    /// (empty for a constant); `fallback` is the built-in of the same name,
    /// tried when no rewrite rule applies.
    Call(u32, Vec<Term>, Option<Builtin>),
    /// Application of a function value.
    Apply(Box<Term>, Vec<Term>),
    Builtin(Builtin, Vec<Term>),
    If(Box<Term>, Box<Term>, Box<Term>),
    And(Box<Term>, Box<Term>),
    Or(Box<Term>, Box<Term>),
    Implies(Box<Term>, Box<Term>),
    /// `f[x -> v]`.
    Update(Box<Term>, Box<Term>, Box<Term>),
    /// A lambda (index into the lambda table) and the terms giving the
    /// values of its free variables.
    Lambda(u32, Vec<Term>),
    /// `{ x: S | p }`: the lambda `x. p`, its captures, and the element
    /// sort (enumerated when finite).
    Comprehension(u32, Vec<Term>, Sort),
    Quantifier {
        forall: bool,
        vars: Vec<(u32, Sort)>,
        body: Box<Term>,
    },
    /// `body whr x1 = e1, ...`: each `ei` evaluated into its slot.
    Whr(Box<Term>, Vec<(u32, Term)>),
    List(Vec<Term>),
    Set(Vec<Term>),
    Bag(Vec<(Term, Term)>),
    /// A name that is both a user map and a projection, applied to one
    /// argument: the projection when the argument is a constructor that
    /// has it, the map otherwise.
    Overloaded(u32, Vec<(CtorId, usize)>, Box<Term>),
    /// `is_c(x)`: the constructors of that recogniser name (one per
    /// structured sort that declares it).
    Recogniser(Vec<CtorId>, Box<Term>),
    /// A projection: for each constructor that has it, its argument index.
    Projection(String, Vec<(CtorId, usize)>, Box<Term>),
    /// A user map used as a value with no argument at all (a function
    /// value or a constant).
    MapRef(u32),
}

/// A pattern on the left-hand side of a rewrite rule.
#[derive(Clone, Debug)]
pub enum Pattern {
    /// First occurrence of a variable: binds its slot (checking the sort
    /// when the map is overloaded).
    Bind(u32, Option<Sort>),
    /// A later occurrence: must equal the slot's value.
    Same(u32),
    Ctor(CtorId, Vec<Pattern>),
    Lit(Value),
    /// `x |> l`.
    Cons(Box<Pattern>, Box<Pattern>),
}

/// One rewrite rule, compiled.
#[derive(Clone, Debug)]
pub struct Rule {
    /// The argument groups of the left-hand side (`f(a)(b)`: two).
    pub lhs: Vec<Vec<Pattern>>,
    pub condition: Option<Term>,
    pub rhs: Term,
    /// Environment size (pattern variables and binders).
    pub env_size: usize,
    /// `file:line:col` of the rule, for messages.
    pub location: String,
}

/// A user map name with all its overloads and rules, in declaration order.
#[derive(Clone, Debug, Default)]
pub struct MapInfo {
    pub name: String,
    /// The declared sorts of its overloads.
    pub sorts: Vec<Sort>,
    pub rules: Vec<Rule>,
}

/// A compiled lambda: parameters and captured variables are slots of its
/// own environment.
#[derive(Clone, Debug)]
pub struct LambdaCode {
    pub params: Vec<u32>,
    pub capture_slots: Vec<u32>,
    pub env_size: usize,
    pub body: Arc<Term>,
}
