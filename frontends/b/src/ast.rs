//! The syntax tree of classical B after DEFINITIONS are expanded: predicates
//! and expressions share one [`Expr`] type (B's grammar mixes them through
//! `bool(P)`, `{x | P}` and quantifiers), substitutions are [`Subst`], and a
//! machine is a [`Machine`]. Identifiers are interned [`Sym`]s.
//!
//! Owns only the shapes of the tree and the symbol table; it must not
//! evaluate anything (that is `eval` and `exec`).

use std::sync::OnceLock;

use crate::solve::PlanResult;

/// An interned identifier.
pub type Sym = u32;

/// Interns identifier names.
#[derive(Default, Debug)]
pub struct Syms {
    names: Vec<String>,
    ids: rustc_hash::FxHashMap<String, Sym>,
    /// Constants kept symbolic whose definition is infinite by its syntax
    /// (see `symbolic`): never enumerated, so no solver step draws from
    /// their value.
    infinite_closures: Vec<Sym>,
    /// Variables that keep an infinite set of B's types (see
    /// `symbolic_fixed`): never a generator.
    fixed_infinite: Vec<Sym>,
}

impl Syms {
    pub fn intern(&mut self, s: &str) -> Sym {
        if let Some(&id) = self.ids.get(s) {
            return id;
        }
        let id = self.names.len() as Sym;
        self.names.push(s.to_owned());
        self.ids.insert(s.to_owned(), id);
        id
    }
    pub fn name(&self, s: Sym) -> &str {
        &self.names[s as usize]
    }
    pub fn get(&self, s: &str) -> Option<Sym> {
        self.ids.get(s).copied()
    }
    pub fn len(&self) -> usize {
        self.names.len()
    }
    /// Notes that constant `s` is kept symbolic, infinite by its syntax.
    pub fn mark_infinite_closure(&mut self, s: Sym) {
        self.infinite_closures.push(s);
    }
    /// Whether `s` names a constant kept symbolic, infinite by its syntax.
    pub fn is_infinite_closure(&self, s: Sym) -> bool {
        self.infinite_closures.contains(&s)
    }
    /// Notes that variable `s` keeps an infinite set (`symbolic_fixed`).
    pub fn mark_fixed_infinite(&mut self, s: Sym) {
        self.fixed_infinite.push(s);
    }
    /// Whether `s` names a variable that keeps an infinite set.
    pub fn is_fixed_infinite(&self, s: Sym) -> bool {
        self.fixed_infinite.contains(&s)
    }
}

/// A position in a source file (index into the model's file table).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pos {
    pub file: u16,
    pub line: u32,
    pub col: u32,
}

/// A predicate or an expression, with where it starts.
#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub pos: Pos,
}

/// Binary operators (predicate connectives, comparisons, expression operators).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    And,
    Or,
    Implies,
    Equiv,
    Eq,
    Neq,
    In,
    NotIn,
    Subset,
    StrictSubset,
    NotSubset,
    NotStrictSubset,
    Lt,
    Gt,
    Le,
    Ge,
    Plus,
    Minus,
    Mul,
    Div,
    Mod,
    Power,
    /// Event-B's `^`: like `**`, and the base must be natural too.
    PowerNat,
    Interval,
    Union,
    Inter,
    Override,
    DirectProduct,
    DomRes,
    DomSub,
    RanRes,
    RanSub,
    Concat,
    Prepend,
    Append,
    TakeFirst,
    DropFirst,
    Maplet,
    Compose,
    ParProduct,
    /// `<->`, `+->`, `-->`, ... (relation and function spaces).
    Space(SpaceKind),
}

/// The kinds of relation and function spaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpaceKind {
    Rel,
    TotalRel,
    SurjRel,
    TotalSurjRel,
    Partial,
    Total,
    PartialInj,
    TotalInj,
    PartialSurj,
    TotalSurj,
    PartialBij,
    TotalBij,
}

/// Built-in functions and constants applied by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Builtin {
    Card,
    Dom,
    Ran,
    Pow,
    Pow1,
    Fin,
    Fin1,
    GenUnion,
    GenInter,
    Max,
    Min,
    Size,
    First,
    Last,
    Front,
    Tail,
    Rev,
    Conc,
    Seq,
    Seq1,
    Iseq,
    Iseq1,
    Perm,
    Id,
    Prj1,
    Prj2,
    Closure,
    Closure1,
    Iterate,
    Fnc,
    Rel,
    Succ,
    Pred,
    Bool,
    Not,
    /// `IF P THEN E1 ELSE E2 END` as an expression or predicate (ELSIF
    /// nests): arguments `[P, E1, E2]`, only the chosen branch evaluated.
    IfThenElse,
    /// The element of a singleton set (a LET expression's value, the
    /// range of a lambda over its definitions): an error otherwise.
    Single,
    /// ProB's external functions with a clear, deterministic meaning
    /// (see [`External`]), when a machine declares them.
    External(External),
    /// An Event-B theory operator that calls itself, by its index in
    /// `World::calls` (see `eventb_calls`).
    Theory(u32),
}

/// The external functions of ProB's standard library (`CHOOSE.def`,
/// `LibraryIO.def`, `LibraryStrings.def`, `LibraryProB.def`, ProB's
/// assertion predicates)
/// this front-end evaluates; any other external stays unsupported.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum External {
    /// `CHOOSE(S)`: ProB's designated (least) element of a non-empty set.
    Choose,
    /// `ASSERT_TRUE(b, msg)`: true, an error when `b` is FALSE.
    AssertTrue,
    /// `ASSERT_EXPR(b, msg, v)`: `v`, an error when `b` is FALSE.
    AssertExpr,
    /// `printf(fmt, v)`, `fprintf(file, fmt, v)`: print (no effect on
    /// the state space), true.
    Printed,
    /// `vprintf(fmt, v)`, `fvprintf(file, fmt, v)`: print, then `v`.
    ValuePrinted,
    /// `STRING_LENGTH(s)`: the number of characters of `s`.
    StringLength,
    /// `STRING_APPEND(a, b)`: `a` followed by `b`.
    StringAppend,
    /// `STRING_CHARS(s)`: the sequence of the characters of `s`, each a
    /// string of one character.
    StringChars,
    /// `DO_NOT_ENUMERATE(x)` (`LibraryProB.def`): true; it only tells
    /// ProB's solver to wait for `x` to be fixed by the other conjuncts,
    /// so the solutions are those of the rest of the predicate.
    NoEnumeration,
    /// `STRING_IS_INT(s)` (`LibraryStrings.def`): whether `s` is the
    /// decimal notation of an integer (see `library_strings`).
    StringIsInt,
    /// `ARGV(n)` (`LibraryIO.def`): the `n`-th command-line argument
    /// (see `errors_argv`); `ARGC` expands to its constant.
    Argv,
    /// `MINIMIZE_EXPR(e)` / `MAXIMIZE_EXPR(e)` (`LibraryProB.def`): taken
    /// out of the PROPERTIES by `library_optimize`, unsupported elsewhere.
    Optimize(crate::library_optimize::Sense),
    /// A bitwise function of `LibraryBits.def` (see `library_bits`).
    Bits(crate::library_bits::BitOp),
    /// `IS_EVALUATED(e)`, `IS_DETERMINED(e)`: whether ProB's solver knows
    /// the value of `e` when it reaches the call; evaluated only for an
    /// `e` without identifiers (always known: true).
    Determined,
    /// `SINx(m, x)`, `COSx(m, x)`, `TANx(m, x)` of `LibraryMath` (see
    /// `errors_math`).
    Scaled(crate::errors_math::Scaled),
    /// An external this front-end does not evaluate, its first argument
    /// naming it (`external function EOF`): unsupported when evaluated.
    Unmodelled,
}

/// Named constant sets and numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NamedSet {
    Nat,
    Nat1,
    Int,
    Natural,
    Natural1,
    Integer,
    Bool,
    String,
    MaxInt,
    MinInt,
}

/// Binders: quantifiers, comprehension sets, lambda and the generalised
/// sums, products, unions and intersections.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuantKind {
    Forall,
    Exists,
    Comprehension,
    Lambda,
    Sigma,
    Pi,
    Union,
    Inter,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Ident(Sym),
    Int(i64),
    Str(String),
    Bool(bool),
    Named(NamedSet),
    EmptySet,
    EmptySeq,
    SetExt(Vec<Expr>),
    SeqExt(Vec<Expr>),
    Bin(BinOp, Box<Expr>, Box<Expr>),
    Neg(Box<Expr>),
    Inverse(Box<Expr>),
    /// `f(a)` (with `a` a pair when written `f(a, b)`).
    Apply(Box<Expr>, Box<Expr>),
    Image(Box<Expr>, Box<Expr>),
    Call(Builtin, Vec<Expr>),
    /// `ids . (pred)` / `ids . (pred | body)` and `{ ids | pred }`.
    Quant {
        kind: QuantKind,
        ids: Vec<Sym>,
        pred: Box<Expr>,
        body: Option<Box<Expr>>,
        plan: OnceLock<PlanResult>,
    },
    Rec(Vec<(Sym, Expr)>),
    Struct(Vec<(Sym, Expr)>),
    Field(Box<Expr>, Sym),
}

/// A substitution with where it starts.
#[derive(Debug)]
pub struct Subst {
    pub kind: SubstKind,
    pub pos: Pos,
}

#[derive(Debug)]
pub enum SubstKind {
    Skip,
    /// `lhs1, lhs2 := e1, e2` (an lhs is `x`, `f(a)` or `r'f`).
    Assign(Vec<Expr>, Vec<Expr>),
    /// `x :: S`.
    BecomesIn(Vec<Sym>, Expr),
    /// `x :( P )`, with `x$0` the value before.
    BecomesSuch {
        ids: Vec<Sym>,
        pred: Expr,
        plan: OnceLock<PlanResult>,
    },
    Pre(Expr, Box<Subst>),
    Assert(Expr, Box<Subst>),
    /// A check ProB makes when an Event-B event fires (see [`EventCheck`]),
    /// around the event's actions.
    EventCheck(Box<EventCheck>, Box<Subst>),
    /// `SELECT P THEN S WHEN Q THEN T ... ELSE U END`.
    Select(Vec<(Expr, Subst)>, Option<Box<Subst>>),
    Any {
        ids: Vec<Sym>,
        pred: Expr,
        body: Box<Subst>,
        plan: OnceLock<PlanResult>,
    },
    Let {
        ids: Vec<Sym>,
        pred: Expr,
        body: Box<Subst>,
        plan: OnceLock<PlanResult>,
    },
    Var(Vec<Sym>, Box<Subst>),
    Choice(Vec<Subst>),
    If(Vec<(Expr, Subst)>, Option<Box<Subst>>),
    Case(Expr, Vec<(Vec<Expr>, Subst)>, Option<Box<Subst>>),
    /// `WHILE cond DO body INVARIANT inv VARIANT variant END`.
    While {
        cond: Expr,
        body: Box<Subst>,
        inv: Option<Expr>,
        variant: Option<Expr>,
    },
    Par(Vec<Subst>),
    Seq(Vec<Subst>),
    /// `outs <-- op(args)`.
    Call(Vec<Expr>, Sym, Vec<Expr>),
}

/// ProB's checks of an Event-B event that fires (its guards hold); a
/// failed check is a model error naming `what`.
#[derive(Debug)]
pub enum EventCheck {
    /// The predicate must hold (a theorem among the guards, the guard of
    /// the abstract event refined).
    Holds { what: String, pred: Expr },
    /// The machine's VARIANT: an integer must be a natural number before;
    /// after, an integer must be smaller (`convergent`) or not greater, a
    /// set a strict subset (`convergent`) or a subset.
    Variant {
        what: String,
        expr: Expr,
        convergent: bool,
    },
    /// The body (a nondeterministic action) must have an outcome.
    Executable { what: String },
    /// Every outcome of the body must be one of `action` (an action of the
    /// abstract event refined, on variables the refinement keeps) run in
    /// the state before.
    Simulates { what: String, action: Box<Subst> },
    /// A new event (one refining none) of a refinement must leave the
    /// abstract machine's variables `vars` that its actions assign
    /// unchanged: a change is ProB's `invalid_modification` (Ackermann2);
    /// giving them their own values is not (LandingSystem_1_2's
    /// restore_up, counted by ProB).
    Keeps { what: String, vars: Vec<Expr> },
    /// At most one of `preds` holds (the guards of the abstract events
    /// an Event-B event merges, whose actions differ): otherwise the
    /// front-end cannot tell which ProB runs, and refuses.
    Exclusive { what: String, preds: Vec<Expr> },
}

/// One operation: `outs <-- name(params) = body`.
#[derive(Debug)]
pub struct Operation {
    pub name: Sym,
    pub outs: Vec<Sym>,
    pub params: Vec<Sym>,
    pub body: Subst,
    pub pos: Pos,
}

/// A set declared in SETS: deferred (`S`) or enumerated (`S = {a, b}`).
#[derive(Debug)]
pub struct SetDecl {
    pub name: Sym,
    pub elements: Option<Vec<Sym>>,
    pub pos: Pos,
}

/// A reference to another machine (SEES, INCLUDES, ...).
#[derive(Debug, Clone)]
pub struct MachineRef {
    pub name: String,
    pub pos: Pos,
}

/// One parsed machine (MACHINE, REFINEMENT or IMPLEMENTATION), DEFINITIONS
/// already expanded.
#[derive(Debug, Default)]
pub struct Machine {
    pub name: String,
    /// The machine's parameters (`MACHINE M(S, n)`): those in upper case
    /// are deferred sets (in `sets`), the others constants (in
    /// `constants`, their CONSTRAINTS in `properties`), as ProB sets up
    /// the main machine.
    pub params: Vec<Sym>,
    /// `INCLUDES M(args)` (EXTENDS, IMPORTS): the arguments given to the
    /// parameters of `M` (see `load::instantiate`).
    pub instances: Vec<(String, Vec<Expr>, Pos)>,
    /// `MACHINE`, `REFINEMENT`, `IMPLEMENTATION`, `SYSTEM`, `MODEL`.
    pub kind: String,
    pub sets: Vec<SetDecl>,
    pub constants: Vec<Sym>,
    /// The constants declared in ABSTRACT_CONSTANTS (also in
    /// `constants`): ProB keeps those defined by a lambda or a
    /// comprehension symbolic (see `symbolic`).
    pub abstract_constants: Vec<Sym>,
    pub properties: Vec<Expr>,
    /// The INVARIANT, when it parses (read only for the variables' types,
    /// see `solve::declared`; never checked).
    pub invariant: Vec<Expr>,
    pub variables: Vec<Sym>,
    pub init: Option<Subst>,
    pub operations: Vec<Operation>,
    pub sees: Vec<MachineRef>,
    pub includes: Vec<MachineRef>,
    pub extends: Vec<MachineRef>,
    pub promotes: Vec<MachineRef>,
    pub imports: Vec<MachineRef>,
    pub refines: Vec<MachineRef>,
    pub uses: Vec<MachineRef>,
    /// Values of DEFINITIONS that are plain integers or identifiers (for the
    /// `SET_PREF_*` and `scope_*` settings): name -> tokens as text.
    pub settings: Vec<(String, String, Pos)>,
    /// ProB's `SCOPE == P` definition, parsed (see `library_scope`).
    pub scope: Option<Expr>,
    pub pos: Pos,
}
