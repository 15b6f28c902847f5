//! Promela syntax tree and its recursive-descent parser. Owns only the
//! grammar (what the text says), not its meaning: names are resolved,
//! types checked and automata built in `compile`.
//!
//! Depth limits: the parser, `compile` and the evaluator recurse on the
//! syntax tree, so statements (blocks, `if`, `do`, `atomic`, `d_step`,
//! labels) may nest at most [`MAX_STATEMENT_NESTING`] deep, an expression
//! may nest parentheses, indices and unary operators at most
//! [`MAX_NESTING`] deep, and an expression tree may be at most
//! [`MAX_HEIGHT`](scan::MAX_HEIGHT) operators from root to leaf (a chain `1+1+...` is a
//! left-nested tree as high as it is long). Beyond any of them the file
//! gets a syntax error at the offending token, never a stack overflow; all
//! fit in a 2 MiB thread (Rust's default for spawned threads; the `fuzz`
//! test parses, compiles and explores in one).

use scan::{Nesting, Tokens, MAX_NESTING};

use crate::error::{ErrorKind, PromelaError};
use crate::lexer::{lex, lexeme, Tok, Token};

/// A source position (1-based line and column).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pos {
    pub line: u32,
    pub col: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BaseType {
    Bit,
    Bool,
    Byte,
    Short,
    Int,
    Unsigned(u32),
    Mtype,
    Pid,
    Chan,
}

#[derive(Clone, Debug)]
pub struct ChanInit {
    pub capacity: Expr,
    pub fields: Vec<BaseType>,
}

#[derive(Clone, Debug)]
pub struct VarDecl {
    pub pos: Pos,
    pub ty: BaseType,
    pub name: String,
    pub size: Option<Expr>,
    pub init: Option<Expr>,
    pub chan: Option<ChanInit>,
    pub hidden: bool,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Num(i64),
    /// A name with an optional index (variable, array element, mtype
    /// constant, channel).
    Var(String, Option<Box<Expr>>),
    Unary(&'static str, Box<Expr>),
    Binary(&'static str, Box<Expr>, Box<Expr>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `len`, `empty`, `nempty`, `full`, `nfull` applied to a channel.
    ChanFn(&'static str, Box<Expr>),
    Pid,
    NrPr,
    Timeout,
    Run(String, Vec<Expr>),
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub pos: Pos,
    pub kind: ExprKind,
}

#[derive(Clone, Debug)]
pub enum RecvArg {
    /// A variable (or array element) receiving the field.
    Var(Expr),
    /// A constant the field must equal (`c?0`, `c?eval(x)`).
    Match(Expr),
    /// `_`: any value, not stored.
    Any,
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    Expr(Expr),
    Assign(Expr, Expr),
    Incr(Expr, i32),
    Send(Expr, Vec<Expr>),
    Recv(Expr, Vec<RecvArg>),
    If(Vec<Vec<Stmt>>),
    Do(Vec<Vec<Stmt>>),
    Atomic(Vec<Stmt>),
    DStep(Vec<Stmt>),
    Block(Vec<Stmt>),
    Goto(String),
    Break,
    Skip,
    Else,
    Assert(Expr),
    Labeled(String, Box<Stmt>),
    Decl(VarDecl),
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub pos: Pos,
    pub kind: StmtKind,
}

#[derive(Clone, Debug)]
pub struct Proctype {
    pub pos: Pos,
    pub name: String,
    /// Number of instances started in the initial state (`active [N]`);
    /// 1 for `init`.
    pub active: Option<Expr>,
    pub params: Vec<VarDecl>,
    pub body: Vec<Stmt>,
    pub is_init: bool,
}

#[derive(Clone, Debug, Default)]
pub struct Spec {
    pub globals: Vec<VarDecl>,
    pub mtypes: Vec<(Pos, String)>,
    pub procs: Vec<Proctype>,
}

/// Deepest nesting of statements: blocks, `if`, `do`, `atomic`, `d_step`
/// and labels (compile's `if`/`do` expansion allows 64 too).
pub const MAX_STATEMENT_NESTING: usize = 64;

struct Parser<'a> {
    toks: Tokens<Token>,
    file: &'a str,
    /// Current nesting of expressions.
    nest: Nesting,
    /// Current nesting of statements (at most [`MAX_STATEMENT_NESTING`]).
    stmts: usize,
}

type R<T> = Result<T, PromelaError>;

fn type_of(s: &str) -> Option<BaseType> {
    Some(match s {
        "bit" => BaseType::Bit,
        "bool" => BaseType::Bool,
        "byte" => BaseType::Byte,
        "short" => BaseType::Short,
        "int" => BaseType::Int,
        "unsigned" => BaseType::Unsigned(0),
        "mtype" => BaseType::Mtype,
        "pid" => BaseType::Pid,
        "chan" => BaseType::Chan,
        _ => return None,
    })
}

const UNSUPPORTED_WORDS: [&str; 16] = [
    "never", "trace", "notrace", "ltl", "typedef", "inline", "unless", "c_code", "c_expr",
    "c_decl", "c_state", "c_track", "select", "for", "priority", "provided",
];

impl Parser<'_> {
    fn peek(&self) -> &Tok {
        &self.toks.current().tok
    }
    fn peek_at(&self, k: usize) -> &Tok {
        &self.toks.ahead(k).tok
    }
    fn pos(&self) -> Pos {
        let t = self.toks.current();
        Pos {
            line: t.line,
            col: t.col,
        }
    }
    fn err<T>(&self, kind: ErrorKind, msg: impl AsRef<str>) -> R<T> {
        let p = self.pos();
        Err(PromelaError::at(kind, self.file, p.line, p.col, msg))
    }
    fn describe(&self) -> String {
        match self.peek() {
            Tok::Ident(s) => format!("'{s}'"),
            Tok::Num(n) => format!("'{n}'"),
            Tok::Str => "a string".into(),
            Tok::P(p) => format!("'{p}'"),
            Tok::Eof => "end of file".into(),
        }
    }
    fn expect(&mut self, p: &str) -> R<()> {
        if self.toks.eat_sym(p) {
            Ok(())
        } else {
            self.err(
                ErrorKind::Syntax,
                format!("expected '{p}', found {}", self.describe()),
            )
        }
    }
    fn ident(&mut self) -> R<String> {
        match self.peek().clone() {
            Tok::Ident(s) => {
                self.toks.pass();
                Ok(s)
            }
            _ => self.err(
                ErrorKind::Syntax,
                format!("expected a name, found {}", self.describe()),
            ),
        }
    }
    fn check_unsupported(&self) -> R<()> {
        if let Tok::Ident(s) = self.peek() {
            if UNSUPPORTED_WORDS.contains(&s.as_str()) {
                return self.err(ErrorKind::Unsupported, format!("'{s}' is not supported"));
            }
        }
        Ok(())
    }

    fn spec(&mut self) -> R<Spec> {
        let mut spec = Spec::default();
        loop {
            if self.toks.eat_sym(";") {
                continue;
            }
            match self.peek().clone() {
                Tok::Eof => break,
                Tok::Ident(w)
                    if w == "mtype"
                        && (self.peek_at(1) == &Tok::P("=") || self.peek_at(1) == &Tok::P("{")) =>
                {
                    self.toks.pass();
                    self.toks.eat_sym("=");
                    self.expect("{")?;
                    loop {
                        let p = self.pos();
                        let n = self.ident()?;
                        spec.mtypes.push((p, n));
                        if !self.toks.eat_sym(",") {
                            break;
                        }
                    }
                    self.expect("}")?;
                }
                Tok::Ident(w) if w == "proctype" || w == "active" || w == "init" => {
                    spec.procs.push(self.proctype()?);
                }
                Tok::Ident(_) => {
                    self.check_unsupported()?;
                    let decls = self.decl()?;
                    spec.globals.extend(decls);
                }
                _ => {
                    return self.err(
                        ErrorKind::Syntax,
                        format!(
                            "expected a declaration or proctype, found {}",
                            self.describe()
                        ),
                    )
                }
            }
        }
        Ok(spec)
    }

    fn proctype(&mut self) -> R<Proctype> {
        let pos = self.pos();
        if self.toks.is_word("init") {
            self.toks.pass();
            self.check_unsupported()?;
            let body = self.block()?;
            return Ok(Proctype {
                pos,
                name: "init".into(),
                active: None,
                params: vec![],
                body,
                is_init: true,
            });
        }
        let mut active = None;
        if self.toks.is_word("active") {
            self.toks.pass();
            if self.toks.eat_sym("[") {
                active = Some(self.expr()?);
                self.expect("]")?;
            } else {
                active = Some(Expr {
                    pos,
                    kind: ExprKind::Num(1),
                });
            }
        }
        if !self.toks.is_word("proctype") {
            return self.err(
                ErrorKind::Syntax,
                format!("expected 'proctype', found {}", self.describe()),
            );
        }
        self.toks.pass();
        let name = self.ident()?;
        self.expect("(")?;
        let mut params = Vec::new();
        while !self.toks.is_sym(")") {
            params.extend(self.decl()?);
            if !self.toks.eat_sym(";") && !self.toks.is_sym(")") {
                self.expect(",")?;
            }
        }
        self.expect(")")?;
        self.check_unsupported()?;
        let body = self.block()?;
        Ok(Proctype {
            pos,
            name,
            active,
            params,
            body,
            is_init: false,
        })
    }

    /// A local declaration statement, one variable (`pos` is the
    /// statement's).
    fn local_decl(&mut self, pos: Pos) -> R<StmtKind> {
        let mut d = self.decl()?;
        if d.len() != 1 {
            return Err(PromelaError::at(
                ErrorKind::Unsupported,
                self.file,
                pos.line,
                pos.col,
                "declare one local variable per declaration",
            ));
        }
        Ok(StmtKind::Decl(d.remove(0)))
    }

    /// A declaration `[hidden] type name[[N]] [= init] {, name ...}`.
    fn decl(&mut self) -> R<Vec<VarDecl>> {
        let mut hidden = false;
        while self.toks.is_word("hidden") || self.toks.is_word("local") || self.toks.is_word("show")
        {
            hidden |= self.toks.is_word("hidden");
            self.toks.pass();
        }
        let tpos = self.pos();
        let tname = self.ident()?;
        let Some(ty) = type_of(&tname) else {
            return Err(PromelaError::at(
                ErrorKind::Syntax,
                self.file,
                tpos.line,
                tpos.col,
                format!("expected a type, found '{tname}'"),
            ));
        };
        let mut out = Vec::new();
        loop {
            let pos = self.pos();
            let name = self.ident()?;
            let mut ty = ty;
            if ty == BaseType::Unsigned(0) {
                self.expect(":")?;
                let w = self.expr()?;
                match w.kind {
                    ExprKind::Num(n) if (1..=32).contains(&n) => ty = BaseType::Unsigned(n as u32),
                    _ => {
                        return Err(PromelaError::at(
                            ErrorKind::Semantic,
                            self.file,
                            w.pos.line,
                            w.pos.col,
                            "unsigned width must be a number from 1 to 32",
                        ))
                    }
                }
            }
            let size = if self.toks.eat_sym("[") {
                let e = self.expr()?;
                self.expect("]")?;
                Some(e)
            } else {
                None
            };
            let (mut init, mut chan) = (None, None);
            if self.toks.eat_sym("=") {
                if ty == BaseType::Chan {
                    self.expect("[")?;
                    let capacity = self.expr()?;
                    self.expect("]")?;
                    if !self.toks.is_word("of") {
                        return self.err(ErrorKind::Syntax, "expected 'of'");
                    }
                    self.toks.pass();
                    self.expect("{")?;
                    let mut fields = Vec::new();
                    loop {
                        let p = self.pos();
                        let t = self.ident()?;
                        match type_of(&t) {
                            Some(BaseType::Unsigned(_)) | None => {
                                return Err(PromelaError::at(
                                    ErrorKind::Unsupported,
                                    self.file,
                                    p.line,
                                    p.col,
                                    format!("channel field type '{t}' is not supported"),
                                ))
                            }
                            Some(t) => fields.push(t),
                        }
                        if !self.toks.eat_sym(",") {
                            break;
                        }
                    }
                    self.expect("}")?;
                    chan = Some(ChanInit { capacity, fields });
                } else if self.toks.is_sym("{") {
                    return self.err(
                        ErrorKind::Unsupported,
                        "array initialiser lists are not supported",
                    );
                } else {
                    init = Some(self.expr()?);
                }
            }
            out.push(VarDecl {
                pos,
                ty,
                name,
                size,
                init,
                chan,
                hidden,
            });
            if !self.toks.eat_sym(",") {
                break;
            }
        }
        Ok(out)
    }

    fn block(&mut self) -> R<Vec<Stmt>> {
        self.expect("{")?;
        let s = self.sequence()?;
        self.expect("}")?;
        Ok(s)
    }

    fn at_seq_end(&self) -> bool {
        self.toks.is_sym("}")
            || self.toks.is_sym("::")
            || self.toks.is_word("fi")
            || self.toks.is_word("od")
            || self.peek() == &Tok::Eof
    }

    fn sequence(&mut self) -> R<Vec<Stmt>> {
        let mut out = Vec::new();
        while self.toks.eat_sym(";") || self.toks.eat_sym("->") {}
        while !self.at_seq_end() {
            let s = self.step()?;
            let needs_sep = !matches!(
                s.kind,
                StmtKind::If(_)
                    | StmtKind::Do(_)
                    | StmtKind::Atomic(_)
                    | StmtKind::DStep(_)
                    | StmtKind::Block(_)
            ) && !matches!(&s.kind, StmtKind::Labeled(_, b) if matches!(b.kind, StmtKind::If(_) | StmtKind::Do(_) | StmtKind::Atomic(_) | StmtKind::DStep(_) | StmtKind::Block(_)));
            out.push(s);
            let mut sep = false;
            while self.toks.eat_sym(";") || self.toks.eat_sym("->") {
                sep = true;
            }
            if !sep && needs_sep && !self.at_seq_end() {
                return self.err(
                    ErrorKind::Syntax,
                    format!("expected ';' or '->', found {}", self.describe()),
                );
            }
        }
        Ok(out)
    }

    fn options(&mut self, close: &str) -> R<Vec<Vec<Stmt>>> {
        let mut opts = Vec::new();
        if !self.toks.is_sym("::") {
            return self.err(
                ErrorKind::Syntax,
                format!("expected '::', found {}", self.describe()),
            );
        }
        while self.toks.eat_sym("::") {
            let p = self.pos();
            let s = self.sequence()?;
            if s.is_empty() {
                return Err(PromelaError::at(
                    ErrorKind::Syntax,
                    self.file,
                    p.line,
                    p.col,
                    "empty option",
                ));
            }
            opts.push(s);
        }
        if !self.toks.is_word(close) {
            return self.err(
                ErrorKind::Syntax,
                format!("expected '{close}', found {}", self.describe()),
            );
        }
        self.toks.pass();
        Ok(opts)
    }

    fn step(&mut self) -> R<Stmt> {
        self.stmts += 1;
        if self.stmts > MAX_STATEMENT_NESTING {
            return self.err(
                ErrorKind::Syntax,
                format!("statements nested too deeply (limit {MAX_STATEMENT_NESTING})"),
            );
        }
        let s = self.step_inner()?;
        self.stmts -= 1;
        Ok(s)
    }

    fn step_inner(&mut self) -> R<Stmt> {
        let pos = self.pos();
        self.check_unsupported()?;
        let kind = match self.peek().clone() {
            Tok::P("{") => StmtKind::Block(self.block()?),
            Tok::Ident(w) => match w.as_str() {
                "if" => {
                    self.toks.pass();
                    StmtKind::If(self.options("fi")?)
                }
                "do" => {
                    self.toks.pass();
                    StmtKind::Do(self.options("od")?)
                }
                "atomic" => {
                    self.toks.pass();
                    StmtKind::Atomic(self.block()?)
                }
                "d_step" => {
                    self.toks.pass();
                    StmtKind::DStep(self.block()?)
                }
                "goto" => {
                    self.toks.pass();
                    StmtKind::Goto(self.ident()?)
                }
                "break" => {
                    self.toks.pass();
                    StmtKind::Break
                }
                "skip" => {
                    self.toks.pass();
                    StmtKind::Skip
                }
                "else" => {
                    self.toks.pass();
                    StmtKind::Else
                }
                "assert" => {
                    self.toks.pass();
                    StmtKind::Assert(self.expr()?)
                }
                "printf" | "printm" => {
                    self.toks.pass();
                    self.expect("(")?;
                    let mut depth = 1;
                    while depth > 0 {
                        match self.peek() {
                            Tok::P("(") => depth += 1,
                            Tok::P(")") => depth -= 1,
                            Tok::Eof => return self.err(ErrorKind::Syntax, "unterminated printf"),
                            _ => {}
                        }
                        self.toks.pass();
                    }
                    StmtKind::Skip
                }
                "hidden" | "local" | "show" => self.local_decl(pos)?,
                _ if type_of(&w).is_some() && matches!(self.peek_at(1), Tok::Ident(_)) => {
                    self.local_decl(pos)?
                }
                _ if self.peek_at(1) == &Tok::P(":") => {
                    self.toks.pass();
                    self.toks.pass();
                    let inner = self.step()?;
                    StmtKind::Labeled(w, Box::new(inner))
                }
                _ => self.simple()?,
            },
            _ => self.simple()?,
        };
        Ok(Stmt { pos, kind })
    }

    /// Assignment, increment, send, receive or expression statement.
    fn simple(&mut self) -> R<StmtKind> {
        let e = self.expr()?;
        if self.toks.eat_sym("=") {
            let r = self.expr()?;
            return Ok(StmtKind::Assign(e, r));
        }
        if self.toks.eat_sym("++") {
            return Ok(StmtKind::Incr(e, 1));
        }
        if self.toks.eat_sym("--") {
            return Ok(StmtKind::Incr(e, -1));
        }
        if self.toks.is_sym("??")
            || self.toks.is_sym("?<")
            || self.toks.is_sym("!!")
            || (self.toks.is_sym("?") && self.peek_at(1) == &Tok::P("["))
        {
            return self.err(
                ErrorKind::Unsupported,
                "random receive (??), sorted send (!!), polling (?[ ]) and ?< > are not supported",
            );
        }
        if self.toks.eat_sym("!") {
            let args = self.arg_list(|p| p.expr())?;
            return Ok(StmtKind::Send(e, args));
        }
        if self.toks.eat_sym("?") {
            let args = self.arg_list(|p| {
                if p.toks.is_word("_") {
                    p.toks.pass();
                    return Ok(RecvArg::Any);
                }
                if p.toks.is_word("eval") {
                    p.toks.pass();
                    p.expect("(")?;
                    let e = p.expr()?;
                    p.expect(")")?;
                    return Ok(RecvArg::Match(e));
                }
                let (e, _) = p.unary()?;
                Ok(match e.kind {
                    ExprKind::Var(..) => RecvArg::Var(e),
                    _ => RecvArg::Match(e),
                })
            })?;
            return Ok(StmtKind::Recv(e, args));
        }
        Ok(StmtKind::Expr(e))
    }

    fn arg_list<T>(&mut self, mut one: impl FnMut(&mut Self) -> R<T>) -> R<Vec<T>> {
        // `c!(a,b)` is a parenthesised list, `c!(a+1)%3` an expression:
        // try the list first and fall back when more of an expression follows
        if self.toks.is_sym("(") {
            let (save, nest) = (self.toks.index(), self.nest);
            self.toks.pass();
            let mut out = Vec::new();
            let ok = loop {
                match one(self) {
                    Ok(v) => out.push(v),
                    Err(_) => break false,
                }
                if self.toks.eat_sym(",") {
                    continue;
                }
                break self.toks.eat_sym(")");
            };
            if ok
                && (self.toks.is_sym(";")
                    || self.toks.is_sym("->")
                    || self.at_seq_end()
                    || self.toks.is_word("unless"))
            {
                return Ok(out);
            }
            self.toks.rewind(save);
            self.nest = nest;
        }
        let paren = false;
        let mut out = Vec::new();
        loop {
            out.push(one(self)?);
            if self.toks.eat_sym(",") {
                continue;
            }
            if self.toks.is_sym("(") {
                // `c!a(b)`: SPIN's alternative field notation.
                self.toks.pass();
                out.push(one(self)?);
                self.expect(")")?;
            }
            break;
        }
        if paren {
            self.expect(")")?;
        }
        Ok(out)
    }

    fn expr(&mut self) -> R<Expr> {
        Ok(self.expr_h()?.0)
    }

    /// An expression and its height (operators from root to deepest leaf).
    fn expr_h(&mut self) -> R<(Expr, usize)> {
        self.nested(|p| p.binary(0))
    }

    /// What `parse` reads one level deeper into an expression; an error
    /// past [`MAX_NESTING`].
    fn nested<T>(&mut self, parse: impl FnOnce(&mut Self) -> R<T>) -> R<T> {
        if !self.nest.enter() {
            return self.err(
                ErrorKind::Syntax,
                format!(
                    "expression nested too deeply (limit {MAX_NESTING} levels of parentheses, \
                     indices and unary operators)"
                ),
            );
        }
        let parsed = parse(self)?;
        self.nest.leave();
        Ok(parsed)
    }

    /// The height of a node over children of height `h`; an error at `pos`
    /// past [`MAX_HEIGHT`](scan::MAX_HEIGHT).
    fn height(&self, h: usize, pos: Pos) -> R<usize> {
        scan::height(h).ok_or_else(|| {
            PromelaError::at(
                ErrorKind::Syntax,
                self.file,
                pos.line,
                pos.col,
                scan::too_high(),
            )
        })
    }

    fn binary(&mut self, level: usize) -> R<(Expr, usize)> {
        const LEVELS: [&[&str]; 10] = [
            &["||"],
            &["&&"],
            &["|"],
            &["^"],
            &["&"],
            &["==", "!="],
            &["<", "<=", ">", ">="],
            &["<<", ">>"],
            &["+", "-"],
            &["*", "/", "%"],
        ];
        if level == LEVELS.len() {
            return self.unary();
        }
        let (mut l, mut h) = self.binary(level + 1)?;
        loop {
            let op = match self.peek() {
                Tok::P(p) if LEVELS[level].contains(p) => *p,
                _ => return Ok((l, h)),
            };
            let pos = self.pos();
            self.toks.pass();
            let (r, hr) = self.binary(level + 1)?;
            h = self.height(h.max(hr), pos)?;
            l = Expr {
                pos,
                kind: ExprKind::Binary(op, Box::new(l), Box::new(r)),
            };
        }
    }

    fn unary(&mut self) -> R<(Expr, usize)> {
        let pos = self.pos();
        for op in ["!", "~", "-"] {
            if self.toks.eat_sym(op) {
                let (e, h) = self.nested(Self::unary)?;
                let h = self.height(h, pos)?;
                return Ok((
                    Expr {
                        pos,
                        kind: ExprKind::Unary(op, Box::new(e)),
                    },
                    h,
                ));
            }
        }
        self.primary()
    }

    fn primary(&mut self) -> R<(Expr, usize)> {
        let pos = self.pos();
        // height of the subexpressions
        let mut h = 0;
        let kind = match self.peek().clone() {
            Tok::Num(n) => {
                self.toks.pass();
                ExprKind::Num(n)
            }
            Tok::P("(") => {
                self.toks.pass();
                let (e, he) = self.expr_h()?;
                if self.toks.eat_sym("->") {
                    let (a, ha) = self.expr_h()?;
                    self.expect(":")?;
                    let (b, hb) = self.expr_h()?;
                    self.expect(")")?;
                    h = he.max(ha).max(hb);
                    ExprKind::Cond(Box::new(e), Box::new(a), Box::new(b))
                } else {
                    self.expect(")")?;
                    return Ok((e, he));
                }
            }
            Tok::Ident(w) => {
                self.toks.pass();
                match w.as_str() {
                    "true" => ExprKind::Num(1),
                    "false" => ExprKind::Num(0),
                    "_pid" => ExprKind::Pid,
                    "_nr_pr" => ExprKind::NrPr,
                    "timeout" => ExprKind::Timeout,
                    "len" | "empty" | "nempty" | "full" | "nfull" => {
                        let f = match w.as_str() {
                            "len" => "len",
                            "empty" => "empty",
                            "nempty" => "nempty",
                            "full" => "full",
                            _ => "nfull",
                        };
                        self.expect("(")?;
                        let (c, hc) = self.expr_h()?;
                        self.expect(")")?;
                        h = hc;
                        ExprKind::ChanFn(f, Box::new(c))
                    }
                    "run" => {
                        let name = self.ident()?;
                        self.expect("(")?;
                        let mut args = Vec::new();
                        while !self.toks.is_sym(")") {
                            let (a, ha) = self.expr_h()?;
                            h = h.max(ha);
                            args.push(a);
                            if !self.toks.eat_sym(",") {
                                break;
                            }
                        }
                        self.expect(")")?;
                        ExprKind::Run(name, args)
                    }
                    "enabled" | "pc_value" | "np_" | "_last" | "_priority" | "get_priority"
                    | "set_priority" | "eval" => {
                        return Err(PromelaError::at(
                            ErrorKind::Unsupported,
                            self.file,
                            pos.line,
                            pos.col,
                            format!("'{w}' is not supported"),
                        ));
                    }
                    _ => {
                        let idx = if self.toks.eat_sym("[") {
                            let (e, he) = self.expr_h()?;
                            self.expect("]")?;
                            h = he;
                            Some(Box::new(e))
                        } else {
                            None
                        };
                        if self.toks.is_sym(".") || self.toks.is_sym("@") {
                            return self.err(
                                ErrorKind::Unsupported,
                                "structure fields and remote references are not supported",
                            );
                        }
                        ExprKind::Var(w, idx)
                    }
                }
            }
            _ => {
                return self.err(
                    ErrorKind::Syntax,
                    format!("expected an expression, found {}", self.describe()),
                )
            }
        };
        let h = match kind {
            ExprKind::Num(_)
            | ExprKind::Var(_, None)
            | ExprKind::Pid
            | ExprKind::NrPr
            | ExprKind::Timeout => 0,
            _ => self.height(h, pos)?,
        };
        Ok((Expr { pos, kind }, h))
    }
}

/// Parses a whole Promela specification.
pub fn parse(text: &str, file: &str) -> Result<Spec, PromelaError> {
    let toks = lex(text, file)?;
    let mut p = Parser {
        toks: Tokens::new(toks, lexeme),
        file,
        nest: Nesting::default(),
        stmts: 0,
    };
    p.spec()
}
