//! Name resolution: turns the data expressions of the syntax tree into
//! [`Term`]s (variables to environment slots, constructors, user maps,
//! projections, recognisers, built-ins, global don't-care variables to
//! their default value) and the equations into rewrite [`Rule`]s with
//! constructor patterns.
//!
//! Owns scopes and slot allocation; it must not evaluate (except closed
//! non-constructor subterms of a pattern, through the caller) and knows
//! nothing of summands beyond the variables the caller puts in scope.

use std::collections::HashMap;
use std::sync::Arc;

use crate::ast::{BinOp, Expr, ExprKind, Pos, SortExpr, UnOp, VarDecl};
use crate::sorts::{Sort, SortTable};
use crate::term::{Builtin, LambdaCode, MapInfo, Pattern, Rule, Term};
use crate::value::{CtorId, Value};

/// An error of compilation: a position and a message (and whether it is a
/// refusal rather than a mistake).
#[derive(Debug)]
pub struct CompileError {
    pub pos: Pos,
    pub message: String,
    pub unsupported: bool,
}

type R<T> = Result<T, CompileError>;

fn err<T>(pos: Pos, message: impl Into<String>) -> R<T> {
    Err(CompileError {
        pos,
        message: message.into(),
        unsupported: false,
    })
}

fn unsupported<T>(pos: Pos, message: impl Into<String>) -> R<T> {
    Err(CompileError {
        pos,
        message: message.into(),
        unsupported: true,
    })
}

/// One environment frame: the top level of a rule, a summand, or a lambda.
#[derive(Default)]
struct Frame {
    scopes: Vec<(String, u32)>,
    next_slot: u32,
    max_slot: u32,
    /// For a lambda frame: (slot here, term in the enclosing frame).
    captures: Vec<(u32, Term)>,
}

impl Frame {
    fn alloc(&mut self) -> u32 {
        let s = self.next_slot;
        self.next_slot += 1;
        self.max_slot = self.max_slot.max(self.next_slot);
        s
    }
}

/// The global names a specification declares.
pub struct Names {
    pub sorts: SortTable,
    /// Constructor name -> constructor ids (overloads).
    pub ctors: HashMap<String, Vec<CtorId>>,
    /// Map name -> index into `maps`.
    pub map_index: HashMap<String, u32>,
    pub maps: Vec<MapInfo>,
    pub globals: HashMap<String, Value>,
    pub recognisers: HashMap<String, Vec<CtorId>>,
    pub projections: HashMap<String, Vec<(CtorId, usize)>>,
    pub lambdas: Vec<Arc<LambdaCode>>,
}

/// A compiler for one top-level frame.
pub struct Compiler<'a> {
    pub names: &'a mut Names,
    frames: Vec<Frame>,
}

impl<'a> Compiler<'a> {
    pub fn new(names: &'a mut Names) -> Self {
        Compiler {
            names,
            frames: vec![Frame::default()],
        }
    }

    /// Puts a variable in scope at a fresh slot of the top frame.
    pub fn bind(&mut self, name: &str) -> u32 {
        let f = self.frames.last_mut().expect("frame");
        let s = f.alloc();
        f.scopes.push((name.to_owned(), s));
        s
    }

    /// The environment size the compiled terms of this frame need.
    pub fn env_size(&self) -> usize {
        self.frames[0].max_slot as usize
    }

    pub fn sort(&mut self, s: &SortExpr, pos: Pos) -> R<Sort> {
        self.names.sorts.resolve(s).map_err(|m| CompileError {
            pos,
            message: m,
            unsupported: false,
        })
    }

    /// Looks a variable up through the frames, adding captures to lambda
    /// frames in between.
    fn lookup_var(&mut self, name: &str) -> Option<Term> {
        self.lookup_in(self.frames.len() - 1, name).map(Term::Var)
    }

    fn lookup_in(&mut self, depth: usize, name: &str) -> Option<u32> {
        if let Some((_, s)) = self.frames[depth]
            .scopes
            .iter()
            .rev()
            .find(|(n, _)| n == name)
        {
            return Some(*s);
        }
        if depth == 0 {
            return None;
        }
        let outer = self.lookup_in(depth - 1, name)?;
        let f = &mut self.frames[depth];
        let slot = f.alloc();
        f.scopes.insert(0, (name.to_owned(), slot));
        f.captures.push((slot, Term::Var(outer)));
        Some(slot)
    }

    fn with_scope<T>(
        &mut self,
        vars: &[VarDecl],
        pos: Pos,
        body: impl FnOnce(&mut Self, Vec<(u32, Sort)>) -> R<T>,
    ) -> R<T> {
        let mut bound = Vec::new();
        for (n, s) in vars {
            let sort = self.sort(s, pos)?;
            let slot = self.bind(n);
            bound.push((slot, sort));
        }
        let out = body(self, bound);
        let f = self.frames.last_mut().expect("frame");
        for _ in vars {
            f.scopes.pop();
        }
        out
    }

    /// Compiles a lambda body in a new frame: (lambda id, capture terms).
    fn lambda(&mut self, vars: &[VarDecl], body: &Expr, pos: Pos) -> R<(u32, Vec<Term>)> {
        let mut sorts = Vec::new();
        for (_, s) in vars {
            sorts.push(self.sort(s, pos)?);
        }
        self.frames.push(Frame::default());
        let mut params = Vec::new();
        for (n, _) in vars {
            params.push(self.bind(n));
        }
        let compiled = self.expr(body);
        let frame = self.frames.pop().expect("lambda frame");
        let compiled = compiled?;
        let (capture_slots, capture_terms): (Vec<u32>, Vec<Term>) =
            frame.captures.into_iter().unzip();
        let id = self.names.lambdas.len() as u32;
        self.names.lambdas.push(Arc::new(LambdaCode {
            params,
            capture_slots,
            env_size: frame.max_slot as usize,
            body: Arc::new(compiled),
        }));
        Ok((id, capture_terms))
    }

    fn number(&self, n: &str, pos: Pos) -> R<Value> {
        match n.parse::<i128>() {
            Ok(v) => Ok(Value::Int(v)),
            Err(_) => unsupported(pos, format!("number {n} is beyond the 128-bit range")),
        }
    }

    /// Compiles a data expression in the current scope.
    pub fn expr(&mut self, e: &Expr) -> R<Term> {
        let pos = e.pos;
        Ok(match &e.kind {
            ExprKind::Number(n) => Term::Const(self.number(n, pos)?),
            ExprKind::Id(name) => self.identifier(name, pos)?,
            ExprKind::Apply(f, args) => self.application(f, args, pos)?,
            ExprKind::Update(f, x, v) => Term::Update(
                Box::new(self.expr(f)?),
                Box::new(self.expr(x)?),
                Box::new(self.expr(v)?),
            ),
            ExprKind::Unary(op, a) => {
                let a = self.expr(a)?;
                let b = match op {
                    UnOp::Not => Builtin::Not,
                    UnOp::Neg => Builtin::Neg,
                    UnOp::Size => Builtin::Size,
                };
                Term::Builtin(b, vec![a])
            }
            ExprKind::Binary(op, a, b) => {
                let (a, b) = (self.expr(a)?, self.expr(b)?);
                let bx = Box::new;
                let builtin = match op {
                    BinOp::And => return Ok(Term::And(bx(a), bx(b))),
                    BinOp::Or => return Ok(Term::Or(bx(a), bx(b))),
                    BinOp::Implies => return Ok(Term::Implies(bx(a), bx(b))),
                    BinOp::Eq => Builtin::Eq,
                    BinOp::Neq => Builtin::Neq,
                    BinOp::Lt => Builtin::Lt,
                    BinOp::Le => Builtin::Le,
                    BinOp::Gt => Builtin::Gt,
                    BinOp::Ge => Builtin::Ge,
                    BinOp::In => Builtin::In,
                    BinOp::Cons => Builtin::Cons,
                    BinOp::Snoc => Builtin::Snoc,
                    BinOp::Concat => Builtin::Concat,
                    BinOp::Add => Builtin::Add,
                    BinOp::Sub => Builtin::Sub,
                    BinOp::Mul => Builtin::Mul,
                    BinOp::Div => Builtin::Div,
                    BinOp::IntDiv => Builtin::IntDiv,
                    BinOp::Mod => Builtin::Mod,
                    BinOp::At => Builtin::At,
                };
                Term::Builtin(builtin, vec![a, b])
            }
            ExprKind::List(items) => Term::List(self.exprs(items)?),
            ExprKind::Set(items) => Term::Set(self.exprs(items)?),
            ExprKind::Bag(items) => {
                let mut out = Vec::new();
                for (x, n) in items {
                    out.push((self.expr(x)?, self.expr(n)?));
                }
                Term::Bag(out)
            }
            ExprKind::Comprehension((name, sort), body) => {
                let s = self.sort(sort, pos)?;
                let (id, caps) = self.lambda(&[(name.clone(), sort.clone())], body, pos)?;
                Term::Comprehension(id, caps, s)
            }
            ExprKind::Lambda(vars, body) => {
                let (id, caps) = self.lambda(vars, body, pos)?;
                Term::Lambda(id, caps)
            }
            ExprKind::Forall(vars, body) | ExprKind::Exists(vars, body) => {
                let forall = matches!(e.kind, ExprKind::Forall(..));
                self.with_scope(vars, pos, |c, bound| {
                    Ok(Term::Quantifier {
                        forall,
                        vars: bound,
                        body: Box::new(c.expr(body)?),
                    })
                })?
            }
            ExprKind::Whr(body, defs) => {
                let mut compiled = Vec::new();
                for (_, d) in defs {
                    compiled.push(self.expr(d)?);
                }
                let mut slots = Vec::new();
                for (n, _) in defs {
                    slots.push(self.bind(n));
                }
                let b = self.expr(body);
                let f = self.frames.last_mut().expect("frame");
                for _ in defs {
                    f.scopes.pop();
                }
                Term::Whr(Box::new(b?), slots.into_iter().zip(compiled).collect())
            }
        })
    }

    /// The constructor `name` with `arity` arguments. Constructors that
    /// share a name and an arity (`key(SymmetricKey) | key(AsymmetricKey)`)
    /// are told apart by the sorts of their arguments, which this compiler
    /// does not infer: such a use is refused rather than guessed.
    fn ctor_by_arity(&self, name: &str, arity: usize, pos: Pos) -> R<Option<CtorId>> {
        let Some(ids) = self.names.ctors.get(name) else {
            return Ok(None);
        };
        let sorts = &self.names.sorts;
        let mut fitting = ids
            .iter()
            .filter(|&&c| sorts.ctors[c as usize].args.len() == arity);
        match (fitting.next(), fitting.next()) {
            (Some(&c), None) => Ok(Some(c)),
            (None, _) => Ok(None),
            (Some(_), Some(_)) => unsupported(
                pos,
                format!("constructor '{name}' with {arity} arguments is declared more than once (overloaded by argument sorts)"),
            ),
        }
    }

    fn exprs(&mut self, items: &[Expr]) -> R<Vec<Term>> {
        items.iter().map(|x| self.expr(x)).collect()
    }

    fn identifier(&mut self, name: &str, pos: Pos) -> R<Term> {
        if let Some(t) = self.lookup_var(name) {
            return Ok(t);
        }
        match name {
            "true" => return Ok(Term::Const(Value::Bool(true))),
            "false" => return Ok(Term::Const(Value::Bool(false))),
            _ => {}
        }
        if let Some(c) = self.ctor_by_arity(name, 0, pos)? {
            return Ok(Term::Const(Value::Ctor(c, Arc::from(Vec::new()))));
        }
        if let Some(ids) = self.names.ctors.get(name) {
            return Ok(Term::Const(Value::Func(Arc::new(
                crate::value::FuncValue {
                    base: crate::value::FuncBase::Ctor(ids[0]),
                    updates: Vec::new(),
                },
            ))));
        }
        if let Some(&m) = self.names.map_index.get(name) {
            return Ok(Term::MapRef(m));
        }
        if let Some(v) = self.names.globals.get(name) {
            return Ok(Term::Const(v.clone()));
        }
        if name == "tau" || name == "delta" {
            return err(pos, format!("'{name}' is not a data expression"));
        }
        err(pos, format!("unknown name '{name}'"))
    }

    fn application(&mut self, f: &Expr, args: &[Expr], pos: Pos) -> R<Term> {
        if let ExprKind::Id(name) = &f.kind {
            if self.lookup_var(name).is_none() {
                let cargs = self.exprs(args)?;
                if name == "if" {
                    let [c, a, b]: [Term; 3] = cargs.try_into().map_err(|_| CompileError {
                        pos,
                        message: "if takes three arguments".into(),
                        unsupported: false,
                    })?;
                    return Ok(Term::If(Box::new(c), Box::new(a), Box::new(b)));
                }
                if let Some(c) = self.ctor_by_arity(name, cargs.len(), pos)? {
                    return Ok(Term::Ctor(c, cargs));
                }
                if let Some(&m) = self.names.map_index.get(name) {
                    if let (Some(p), 1) = (self.names.projections.get(name), cargs.len()) {
                        let a = cargs.into_iter().next().expect("one");
                        return Ok(Term::Overloaded(m, p.clone(), Box::new(a)));
                    }
                    return Ok(Term::Call(m, cargs, Builtin::by_name(name)));
                }
                if cargs.len() == 1 {
                    if let Some(cs) = self.names.recognisers.get(name) {
                        let a = cargs.into_iter().next().expect("one");
                        return Ok(Term::Recogniser(cs.clone(), Box::new(a)));
                    }
                    if let Some(p) = self.names.projections.get(name) {
                        let a = cargs.into_iter().next().expect("one");
                        return Ok(Term::Projection(name.clone(), p.clone(), Box::new(a)));
                    }
                }
                if let Some(b) = Builtin::by_name(name) {
                    return Ok(Term::Builtin(b, cargs));
                }
                if self.names.globals.contains_key(name) {
                    let head = self.identifier(name, f.pos)?;
                    return Ok(Term::Apply(Box::new(head), cargs));
                }
                return err(f.pos, format!("unknown function '{name}'"));
            }
        }
        let head = self.expr(f)?;
        let cargs = self.exprs(args)?;
        Ok(Term::Apply(Box::new(head), cargs))
    }

    /// Compiles a pattern; `vars` are the rule's variables (name -> sort),
    /// `closed` evaluates a closed non-constructor subterm.
    pub fn pattern(
        &mut self,
        e: &Expr,
        vars: &HashMap<String, Sort>,
        check_sorts: bool,
        closed: &mut dyn FnMut(&Names, &Term) -> Result<Value, String>,
    ) -> R<Pattern> {
        let pos = e.pos;
        match &e.kind {
            ExprKind::Id(name) if vars.contains_key(name) => {
                if let Some(Term::Var(s)) = self.lookup_var(name) {
                    return Ok(Pattern::Same(s));
                }
                let s = self.bind(name);
                let sort = if check_sorts {
                    vars.get(name).cloned()
                } else {
                    None
                };
                Ok(Pattern::Bind(s, sort))
            }
            ExprKind::Apply(f, args) => {
                if let ExprKind::Id(name) = &f.kind {
                    if !vars.contains_key(name) {
                        if let Some(c) = self.ctor_by_arity(name, args.len(), pos)? {
                            let mut ps = Vec::new();
                            for a in args {
                                ps.push(self.pattern(a, vars, check_sorts, closed)?);
                            }
                            return Ok(Pattern::Ctor(c, ps));
                        }
                    }
                }
                self.closed_pattern(e, vars, closed)
            }
            ExprKind::Binary(BinOp::Cons, x, l) => Ok(Pattern::Cons(
                Box::new(self.pattern(x, vars, check_sorts, closed)?),
                Box::new(self.pattern(l, vars, check_sorts, closed)?),
            )),
            _ => self.closed_pattern(e, vars, closed),
        }
        .map_err(|mut e: CompileError| {
            if e.pos == Pos::default() {
                e.pos = pos;
            }
            e
        })
    }

    fn closed_pattern(
        &mut self,
        e: &Expr,
        vars: &HashMap<String, Sort>,
        closed: &mut dyn FnMut(&Names, &Term) -> Result<Value, String>,
    ) -> R<Pattern> {
        if mentions(e, vars) {
            return unsupported(
                e.pos,
                "a rewrite rule whose left-hand side applies a non-constructor to variables",
            );
        }
        let t = self.expr(e)?;
        match closed(self.names, &t) {
            Ok(v) => Ok(Pattern::Lit(v)),
            Err(m) => unsupported(e.pos, format!("a pattern that does not evaluate: {m}")),
        }
    }

    /// Compiles one equation into a rule of map `name`'s table.
    pub fn rule(
        names: &mut Names,
        eq: &crate::ast::Equation,
        location: String,
        closed: &mut dyn FnMut(&Names, &Term) -> Result<Value, String>,
    ) -> R<Option<(u32, Rule)>> {
        let mut c = Compiler::new(names);
        let mut vars = HashMap::new();
        for (n, s) in &eq.vars {
            let sort = c.sort(s, eq.pos)?;
            vars.insert(n.clone(), sort);
        }
        // Peel the argument groups: f(a)(b) -> head f, groups [a], [b].
        let mut groups: Vec<&[Expr]> = Vec::new();
        let mut head = &eq.lhs;
        while let ExprKind::Apply(f, args) = &head.kind {
            groups.push(args);
            head = f;
        }
        groups.reverse();
        let ExprKind::Id(name) = &head.kind else {
            return unsupported(eq.lhs.pos, "a rewrite rule whose head is not a map name");
        };
        let Some(&map) = c.names.map_index.get(name) else {
            // A rule for a built-in function (`if(a, false, true) = !a`):
            // an identity of the built-in's meaning, which closed terms do
            // not need.
            if name == "if" || Builtin::by_name(name).is_some() || name == "==" {
                return Ok(None);
            }
            return unsupported(
                eq.lhs.pos,
                format!("a rewrite rule for '{name}', which is not a declared map"),
            );
        };
        // Patterns with `if(...)`: a closed `if` always rewrites away, so
        // such a rule never applies to normal forms.
        if groups.iter().flat_map(|g| g.iter()).any(has_if) {
            return Ok(None);
        }
        let overloaded = c.names.maps[map as usize].sorts.len() > 1
            || c.names.projections.contains_key(name)
            || c.names.recognisers.contains_key(name)
            || c.names.ctors.contains_key(name)
            || Builtin::by_name(name).is_some();
        let mut lhs = Vec::new();
        for g in groups {
            let mut ps = Vec::new();
            for a in g {
                ps.push(c.pattern(a, &vars, overloaded, closed)?);
            }
            lhs.push(ps);
        }
        let condition = match &eq.condition {
            Some(cond) => Some(c.expr(cond)?),
            None => None,
        };
        let rhs = c.expr(&eq.rhs)?;
        let env_size = c.env_size();
        Ok(Some((
            map,
            Rule {
                lhs,
                condition,
                rhs,
                env_size,
                location,
            },
        )))
    }
}

/// Whether a pattern contains an application of `if`.
fn has_if(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Apply(f, args) => {
            matches!(&f.kind, ExprKind::Id(n) if n == "if") || args.iter().any(has_if)
        }
        ExprKind::Binary(_, a, b) => has_if(a) || has_if(b),
        _ => false,
    }
}

/// Whether expression `e` mentions one of `vars` (free or not: a coarse
/// check for patterns).
fn mentions(e: &Expr, vars: &HashMap<String, Sort>) -> bool {
    let m = |x: &Expr| mentions(x, vars);
    match &e.kind {
        ExprKind::Id(n) => vars.contains_key(n),
        ExprKind::Number(_) => false,
        ExprKind::Apply(f, a) => m(f) || a.iter().any(m),
        ExprKind::Update(a, b, c) => m(a) || m(b) || m(c),
        ExprKind::Unary(_, a) => m(a),
        ExprKind::Binary(_, a, b) => m(a) || m(b),
        ExprKind::List(a) | ExprKind::Set(a) => a.iter().any(m),
        ExprKind::Bag(a) => a.iter().any(|(x, n)| m(x) || m(n)),
        ExprKind::Comprehension(_, b)
        | ExprKind::Lambda(_, b)
        | ExprKind::Forall(_, b)
        | ExprKind::Exists(_, b) => m(b),
        ExprKind::Whr(b, d) => m(b) || d.iter().any(|(_, x)| m(x)),
    }
}
