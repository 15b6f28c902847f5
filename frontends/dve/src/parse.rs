//! Recursive-descent parser of DVE (the DiVinE 2 / BEEM dialect) into an
//! abstract syntax tree with source positions; names are not resolved here
//! (that is `compile`'s job), so this module reports only syntax errors.
//!
//! Grammar (informally):
//! ```text
//! model    := (vardecl | chandecl | process)* "system" ("async"|"sync") ("property" ID)? ";"
//! vardecl  := "const"? ("byte"|"int") var ("," var)* ";"
//! var      := ID ("[" expr "]")? ("=" (expr | "{" expr ("," expr)* "}"))?
//! chandecl := "channel" ("{" type ("," type)* "}")? ID ("[" expr "]")? ("," ...)* ";"
//! process  := "process" ID "{" (vardecl | chandecl | "state" IDs ";" | "init" ID ";"
//!             | "accept" IDs ";" | "commit" IDs ";" | "assert" ID ":" expr ("," ...)* ";"
//!             | "trans" trans ("," trans)* ";")* "}"
//! trans    := ID "->" ID "{" ("guard" expr ";" | "sync" ID ("!"|"?") args? ";"
//!             | "effect" lval "=" expr ("," lval "=" expr)* ";")* "}"
//! ```
//! Expression precedence, lowest first (DiVinE's): `->`/`imply` (right),
//! `or`/`||`, `and`/`&&`, `|`, `^`, `&`, `==` `!=`, `<` `<=` `>` `>=`,
//! `<<` `>>`, `+` `-`, `*` `/` `%`, unary `-` `~` `not` `!`.
//!
//! Depth limits: the parser, `compile` and the evaluator recurse on
//! expressions, so an expression may nest parentheses, indices, unary
//! operators and `->` at most [`MAX_NESTING`] deep and its tree may be at
//! most [`MAX_HEIGHT`](scan::MAX_HEIGHT) operators from root to leaf (a chain `1+1+...` is a
//! left-nested tree as high as it is long); beyond either the file gets a
//! syntax error at the offending token, never a stack overflow. Both fit in
//! a 2 MiB thread (Rust's default for spawned threads; the `fuzz` test
//! parses, compiles and explores in one).

use std::collections::HashSet;

use scan::{Cmp, Nesting, Tokens, MAX_NESTING};

use crate::error::{DveError, ErrorKind};
use crate::lexer::{lexeme, tokenize, Pos, Tok, Token};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    Byte,
    Int,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    BitNot,
    Not,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Imply,
    Or,
    And,
    BitOr,
    BitXor,
    BitAnd,
    /// `==`, `!=`, `<`, `<=`, `>`, `>=`.
    Cmp(Cmp),
    Shl,
    Shr,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
}

#[derive(Clone, Debug)]
pub enum Expr {
    Num(i64, Pos),
    /// A name: variable, constant (or, on the left of `->`, a process).
    Var(String, Pos),
    /// `name[index]`.
    Index(String, Pos, Box<Expr>),
    /// `Proc.name`, `Proc->name` or `Proc.name[index]`: a state test or a
    /// foreign variable.
    Dot(String, String, Option<Box<Expr>>, Pos),
    Unary(UnOp, Box<Expr>, Pos),
    Binary(BinOp, Box<Expr>, Box<Expr>, Pos),
}

impl Expr {
    pub fn pos(&self) -> Pos {
        match self {
            Expr::Num(_, p)
            | Expr::Var(_, p)
            | Expr::Index(_, p, _)
            | Expr::Dot(_, _, _, p)
            | Expr::Unary(_, _, p)
            | Expr::Binary(_, _, _, p) => *p,
        }
    }
}

#[derive(Clone, Debug)]
pub enum Init {
    Scalar(Expr),
    List(Vec<Expr>, Pos),
}

#[derive(Clone, Debug)]
pub struct VarDecl {
    pub name: String,
    pub pos: Pos,
    pub ty: Ty,
    pub is_const: bool,
    pub size: Option<Expr>,
    pub init: Option<Init>,
}

#[derive(Clone, Debug)]
pub struct ChanDecl {
    pub name: String,
    pub pos: Pos,
    /// Component types of a typed channel (`channel {byte,int} c[2]`).
    pub types: Option<Vec<Ty>>,
    /// Buffer size; `None` or 0 means rendezvous.
    pub size: Option<Expr>,
}

#[derive(Clone, Debug)]
pub struct Sync {
    pub chan: String,
    pub pos: Pos,
    pub send: bool,
    /// Sent values, or (for a receive) the target lvalues.
    pub args: Vec<Expr>,
}

#[derive(Clone, Debug)]
pub struct Effect {
    pub lhs: Expr,
    pub rhs: Expr,
}

#[derive(Clone, Debug)]
pub struct Trans {
    pub pos: Pos,
    pub from: (String, Pos),
    pub to: (String, Pos),
    pub guards: Vec<Expr>,
    pub sync: Option<Sync>,
    pub effects: Vec<Effect>,
}

#[derive(Clone, Debug, Default)]
pub struct Process {
    pub name: String,
    pub pos: Pos,
    pub decls: Vec<VarDecl>,
    pub chans: Vec<ChanDecl>,
    pub states: Vec<(String, Pos)>,
    pub init: Option<(String, Pos)>,
    pub accept: Vec<(String, Pos)>,
    pub commit: Vec<(String, Pos)>,
    pub trans: Vec<Trans>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SystemKind {
    Async,
    Sync,
}

#[derive(Clone, Debug)]
pub struct System {
    pub decls: Vec<VarDecl>,
    pub chans: Vec<ChanDecl>,
    pub procs: Vec<Process>,
    pub kind: SystemKind,
    pub property: Option<(String, Pos)>,
}

struct Parser<'a> {
    toks: Tokens<Token>,
    file: &'a str,
    /// Current nesting of `expr`/`unary` calls.
    nest: Nesting,
    /// Names declared by `process NAME` anywhere in the file: `P->x` is a
    /// foreign variable, not an implication, when `P` is one of them.
    procs: HashSet<String>,
}

type PResult<T> = Result<T, DveError>;

fn describe(t: &Tok) -> String {
    match t {
        Tok::Ident(s) => format!("'{s}'"),
        Tok::Num(n) => format!("number {n}"),
        Tok::Sym(s) => format!("'{s}'"),
        Tok::Eof => "end of file".into(),
    }
}

/// Binary operator levels, lowest precedence first.
const LEVELS: &[&[(&str, BinOp)]] = &[
    &[("->", BinOp::Imply), ("imply", BinOp::Imply)],
    &[("or", BinOp::Or), ("||", BinOp::Or)],
    &[("and", BinOp::And), ("&&", BinOp::And)],
    &[("|", BinOp::BitOr)],
    &[("^", BinOp::BitXor)],
    &[("&", BinOp::BitAnd)],
    &[("==", BinOp::Cmp(Cmp::Eq)), ("!=", BinOp::Cmp(Cmp::Ne))],
    &[
        ("<", BinOp::Cmp(Cmp::Lt)),
        ("<=", BinOp::Cmp(Cmp::Le)),
        (">", BinOp::Cmp(Cmp::Gt)),
        (">=", BinOp::Cmp(Cmp::Ge)),
    ],
    &[("<<", BinOp::Shl), (">>", BinOp::Shr)],
    &[("+", BinOp::Add), ("-", BinOp::Sub)],
    &[("*", BinOp::Mul), ("/", BinOp::Div), ("%", BinOp::Mod)],
];

impl<'a> Parser<'a> {
    fn peek(&self) -> &Tok {
        &self.toks.current().tok
    }
    fn peek_at(&self, k: usize) -> &Tok {
        &self.toks.ahead(k).tok
    }
    fn pos(&self) -> Pos {
        self.toks.current().pos
    }
    fn advance(&mut self) -> Token {
        self.toks.pass().clone()
    }
    fn err<T>(&self, msg: impl AsRef<str>) -> PResult<T> {
        Err(self.syntax_error_at(self.pos(), msg))
    }
    /// A syntax error at `at`.
    fn syntax_error_at(&self, at: Pos, msg: impl AsRef<str>) -> DveError {
        DveError::at(ErrorKind::Syntax, self.file, at.line, at.col, msg)
    }
    fn expect_sym(&mut self, s: &str, what: &str) -> PResult<Pos> {
        if self.toks.is_sym(s) {
            Ok(self.advance().pos)
        } else {
            self.err(format!(
                "expected '{s}' {what}, found {}",
                describe(self.peek())
            ))
        }
    }
    fn ident(&mut self, what: &str) -> PResult<(String, Pos)> {
        match self.peek().clone() {
            Tok::Ident(s) if !is_reserved(&s) => {
                let p = self.advance().pos;
                Ok((s, p))
            }
            t => self.err(format!("expected {what}, found {}", describe(&t))),
        }
    }
    fn ident_list(&mut self, what: &str) -> PResult<Vec<(String, Pos)>> {
        let mut v = vec![self.ident(what)?];
        while self.toks.eat_sym(",") {
            v.push(self.ident(what)?);
        }
        Ok(v)
    }

    fn system(&mut self) -> PResult<System> {
        let mut decls = Vec::new();
        let mut chans = Vec::new();
        let mut procs = Vec::new();
        loop {
            if self.toks.is_word("const") || self.toks.is_word("byte") || self.toks.is_word("int") {
                self.var_decl(&mut decls)?;
            } else if self.toks.is_word("channel") {
                self.chan_decl(&mut chans)?;
            } else if self.toks.is_word("process") {
                procs.push(self.process()?);
            } else if self.toks.is_word("system") {
                break;
            } else {
                return self.err(format!(
                    "expected a declaration, 'process' or 'system', found {}",
                    describe(self.peek())
                ));
            }
        }
        self.advance(); // system
        let kind = if self.toks.eat_word("async") {
            SystemKind::Async
        } else if self.toks.eat_word("sync") {
            SystemKind::Sync
        } else {
            return self.err(format!(
                "expected 'async' or 'sync' after 'system', found {}",
                describe(self.peek())
            ));
        };
        let property = if self.toks.eat_word("property") {
            Some(self.ident("a property process name")?)
        } else {
            None
        };
        self.expect_sym(";", "after the system declaration")?;
        if *self.peek() != Tok::Eof {
            return self.err(format!(
                "expected end of file after the system declaration, found {}",
                describe(self.peek())
            ));
        }
        Ok(System {
            decls,
            chans,
            procs,
            kind,
            property,
        })
    }

    fn ty(&mut self) -> PResult<Ty> {
        if self.toks.eat_word("byte") {
            Ok(Ty::Byte)
        } else if self.toks.eat_word("int") {
            Ok(Ty::Int)
        } else {
            self.err(format!(
                "expected a type ('byte' or 'int'), found {}",
                describe(self.peek())
            ))
        }
    }

    /// An optional `[size]` after a declared name; `closing` says what a
    /// missing `]` was to do.
    fn size(&mut self, closing: &str) -> PResult<Option<Expr>> {
        if !self.toks.eat_sym("[") {
            return Ok(None);
        }
        let e = self.expr()?;
        self.expect_sym("]", closing)?;
        Ok(Some(e))
    }

    fn var_decl(&mut self, out: &mut Vec<VarDecl>) -> PResult<()> {
        let is_const = self.toks.eat_word("const");
        let ty = self.ty()?;
        loop {
            let (name, pos) = self.ident("a variable name")?;
            let size = self.size("to close the array size")?;
            let init = if self.toks.eat_sym("=") {
                if self.toks.is_sym("{") {
                    let p = self.advance().pos;
                    let mut items = vec![self.expr()?];
                    while self.toks.eat_sym(",") {
                        items.push(self.expr()?);
                    }
                    self.expect_sym("}", "to close the initialiser list")?;
                    Some(Init::List(items, p))
                } else {
                    Some(Init::Scalar(self.expr()?))
                }
            } else {
                None
            };
            out.push(VarDecl {
                name,
                pos,
                ty,
                is_const,
                size,
                init,
            });
            if !self.toks.eat_sym(",") {
                break;
            }
        }
        self.expect_sym(";", "after the variable declaration")?;
        Ok(())
    }

    fn chan_decl(&mut self, out: &mut Vec<ChanDecl>) -> PResult<()> {
        self.advance(); // channel
        let types = if self.toks.eat_sym("{") {
            let mut v = vec![self.ty()?];
            while self.toks.eat_sym(",") {
                v.push(self.ty()?);
            }
            self.expect_sym("}", "to close the channel type list")?;
            Some(v)
        } else {
            None
        };
        loop {
            let (name, pos) = self.ident("a channel name")?;
            let size = self.size("to close the channel buffer size")?;
            out.push(ChanDecl {
                name,
                pos,
                types: types.clone(),
                size,
            });
            if !self.toks.eat_sym(",") {
                break;
            }
        }
        self.expect_sym(";", "after the channel declaration")?;
        Ok(())
    }

    fn process(&mut self) -> PResult<Process> {
        self.advance(); // process
        let (name, pos) = self.ident("a process name")?;
        self.expect_sym("{", "to open the process body")?;
        let mut p = Process {
            name,
            pos,
            ..Process::default()
        };
        loop {
            if self.toks.eat_sym("}") {
                break;
            }
            if self.toks.is_word("const") || self.toks.is_word("byte") || self.toks.is_word("int") {
                self.var_decl(&mut p.decls)?;
            } else if self.toks.is_word("channel") {
                self.chan_decl(&mut p.chans)?;
            } else if self.toks.eat_word("state") {
                p.states.extend(self.ident_list("a state name")?);
                self.expect_sym(";", "after the state list")?;
            } else if self.toks.is_word("init") {
                let at = self.advance().pos;
                if p.init.is_some() {
                    let msg = format!("process '{}' has two 'init' declarations", p.name);
                    return Err(self.syntax_error_at(at, msg));
                }
                p.init = Some(self.ident("the initial state name")?);
                self.expect_sym(";", "after the initial state")?;
            } else if self.toks.eat_word("accept") {
                p.accept.extend(self.ident_list("a state name")?);
                self.expect_sym(";", "after the accepting states")?;
            } else if self.toks.eat_word("commit") {
                p.commit.extend(self.ident_list("a state name")?);
                self.expect_sym(";", "after the committed states")?;
            } else if self.toks.eat_word("assert") {
                // Parsed and ignored: `assert state : expr, ...;`
                loop {
                    self.ident("a state name")?;
                    self.expect_sym(":", "after the asserted state")?;
                    self.expr()?;
                    if !self.toks.eat_sym(",") {
                        break;
                    }
                }
                self.expect_sym(";", "after the assertions")?;
            } else if self.toks.eat_word("trans") {
                if self.toks.is_sym(";") || self.toks.is_sym("}") {
                    self.toks.eat_sym(";");
                    continue;
                }
                loop {
                    p.trans.push(self.transition()?);
                    if !self.toks.eat_sym(",") {
                        break;
                    }
                }
                self.expect_sym(";", "after the transition list")?;
            } else if *self.peek() == Tok::Eof {
                return self.err(format!(
                    "unexpected end of file: missing '}}' to close process '{}'",
                    p.name
                ));
            } else {
                return self.err(format!(
                    "expected a declaration, 'state', 'init', 'accept', 'commit', 'assert', \
                     'trans' or '}}' in process '{}', found {}",
                    p.name,
                    describe(self.peek())
                ));
            }
        }
        Ok(p)
    }

    fn transition(&mut self) -> PResult<Trans> {
        let pos = self.pos();
        let from = self.ident("a source state")?;
        self.expect_sym("->", "between the source and target states")?;
        let to = self.ident("a target state")?;
        self.expect_sym("{", "to open the transition body")?;
        let mut t = Trans {
            pos,
            from,
            to,
            guards: Vec::new(),
            sync: None,
            effects: Vec::new(),
        };
        loop {
            if self.toks.eat_sym("}") {
                break;
            }
            if self.toks.eat_word("guard") {
                t.guards.push(self.expr()?);
                self.expect_sym(";", "after the guard")?;
            } else if self.toks.is_word("sync") {
                let at = self.advance().pos;
                if t.sync.is_some() {
                    let msg = "a transition can have only one 'sync'";
                    return Err(self.syntax_error_at(at, msg));
                }
                let (chan, cpos) = self.ident("a channel name")?;
                let send = if self.toks.eat_sym("!") {
                    true
                } else if self.toks.eat_sym("?") {
                    false
                } else {
                    return self.err(format!(
                        "expected '!' or '?' after channel '{chan}', found {}",
                        describe(self.peek())
                    ));
                };
                let mut args = Vec::new();
                if !self.toks.is_sym(";") {
                    if self.toks.is_sym("(") && self.paren_has_top_comma() {
                        self.advance();
                        args.push(self.expr()?);
                        while self.toks.eat_sym(",") {
                            args.push(self.expr()?);
                        }
                        self.expect_sym(")", "to close the value tuple")?;
                    } else {
                        args.push(self.expr()?);
                    }
                }
                self.expect_sym(";", "after the sync")?;
                t.sync = Some(Sync {
                    chan,
                    pos: cpos,
                    send,
                    args,
                });
            } else if self.toks.eat_word("effect") {
                loop {
                    let lhs = self.expr()?;
                    self.expect_sym("=", "in the assignment")?;
                    let rhs = self.expr()?;
                    t.effects.push(Effect { lhs, rhs });
                    if !self.toks.eat_sym(",") {
                        break;
                    }
                }
                self.expect_sym(";", "after the effects")?;
            } else if *self.peek() == Tok::Eof {
                return self.err("unexpected end of file: missing '}' to close the transition");
            } else {
                return self.err(format!(
                    "expected 'guard', 'sync', 'effect' or '}}' in a transition, found {}",
                    describe(self.peek())
                ));
            }
        }
        Ok(t)
    }

    /// At `(`: whether a `,` occurs at nesting depth 1 before the matching `)`.
    fn paren_has_top_comma(&self) -> bool {
        let mut depth = 0i32;
        for k in 0.. {
            match self.peek_at(k) {
                Tok::Sym("(") | Tok::Sym("[") => depth += 1,
                Tok::Sym(")") | Tok::Sym("]") => {
                    depth -= 1;
                    if depth == 0 {
                        return false;
                    }
                }
                Tok::Sym(",") if depth == 1 => return true,
                Tok::Sym(";") | Tok::Eof => return false,
                _ => {}
            }
        }
        unreachable!("the token stream ends with Eof")
    }

    pub fn expr(&mut self) -> PResult<Expr> {
        Ok(self.expr_h()?.0)
    }

    /// An expression and its height (operators from root to deepest leaf).
    fn expr_h(&mut self) -> PResult<(Expr, usize)> {
        self.nested(|p| p.binary(0))
    }

    /// What `parse` reads one level deeper into an expression; an error
    /// past [`MAX_NESTING`].
    #[inline]
    fn nested<T>(&mut self, parse: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        if !self.nest.enter() {
            return self.too_deep();
        }
        let parsed = parse(self)?;
        self.nest.leave();
        Ok(parsed)
    }

    #[cold]
    fn too_deep<T>(&self) -> PResult<T> {
        self.err(format!(
            "expression nested too deeply (limit {MAX_NESTING} levels of parentheses, \
             indices, unary operators and '->')"
        ))
    }

    /// The height of a node over children of height `h`; an error at `pos`
    /// past [`MAX_HEIGHT`](scan::MAX_HEIGHT).
    #[inline]
    fn height(&self, h: usize, pos: Pos) -> PResult<usize> {
        scan::height(h).ok_or_else(|| self.too_high(pos))
    }

    #[cold]
    fn too_high(&self, pos: Pos) -> DveError {
        self.syntax_error_at(pos, scan::too_high())
    }

    fn binop_at(&self, level: usize) -> Option<BinOp> {
        let word = match self.peek() {
            Tok::Sym(s) => *s,
            Tok::Ident(s) => s.as_str(),
            _ => return None,
        };
        LEVELS[level]
            .iter()
            .find(|(w, _)| *w == word)
            .map(|(_, op)| *op)
    }

    fn binary(&mut self, level: usize) -> PResult<(Expr, usize)> {
        if level == LEVELS.len() {
            return self.unary();
        }
        let (mut lhs, mut h) = self.binary(level + 1)?;
        while let Some(op) = self.binop_at(level) {
            let pos = self.advance().pos;
            if op == BinOp::Imply {
                // right associative
                let (rhs, hr) = self.nested(|p| p.binary(level))?;
                let h = self.height(h.max(hr), pos)?;
                return Ok((Expr::Binary(op, Box::new(lhs), Box::new(rhs), pos), h));
            }
            let (rhs, hr) = self.binary(level + 1)?;
            h = self.height(h.max(hr), pos)?;
            lhs = Expr::Binary(op, Box::new(lhs), Box::new(rhs), pos);
        }
        Ok((lhs, h))
    }

    fn unary(&mut self) -> PResult<(Expr, usize)> {
        let pos = self.pos();
        let op = if self.toks.is_sym("-") {
            Some(UnOp::Neg)
        } else if self.toks.is_sym("~") {
            Some(UnOp::BitNot)
        } else if self.toks.is_sym("!") || self.toks.is_word("not") {
            Some(UnOp::Not)
        } else {
            None
        };
        if let Some(op) = op {
            self.advance();
            let (e, h) = self.nested(Self::unary)?;
            let h = self.height(h, pos)?;
            return Ok((Expr::Unary(op, Box::new(e), pos), h));
        }
        self.primary()
    }

    fn primary(&mut self) -> PResult<(Expr, usize)> {
        let pos = self.pos();
        match self.peek().clone() {
            Tok::Num(n) => {
                self.advance();
                Ok((Expr::Num(n, pos), 0))
            }
            Tok::Sym("(") => {
                self.advance();
                let e = self.expr_h()?;
                self.expect_sym(")", "to close the parenthesis")?;
                Ok(e)
            }
            Tok::Ident(s) if s == "true" => {
                self.advance();
                Ok((Expr::Num(1, pos), 0))
            }
            Tok::Ident(s) if s == "false" => {
                self.advance();
                Ok((Expr::Num(0, pos), 0))
            }
            Tok::Ident(s) if !is_reserved(&s) => {
                self.advance();
                if self.toks.eat_sym("[") {
                    let (idx, h) = self.expr_h()?;
                    self.expect_sym("]", "to close the array index")?;
                    let h = self.height(h, pos)?;
                    Ok((Expr::Index(s, pos, Box::new(idx)), h))
                } else if (self.toks.is_sym(".")
                    || (self.toks.is_sym("->") && self.procs.contains(&s)))
                    && matches!(self.peek_at(1), Tok::Ident(_))
                {
                    self.advance();
                    let (member, _) = match self.peek().clone() {
                        Tok::Ident(m) => {
                            let p = self.advance().pos;
                            (m, p)
                        }
                        _ => unreachable!("checked by peek_at"),
                    };
                    let (idx, h) = if self.toks.eat_sym("[") {
                        let (idx, h) = self.expr_h()?;
                        self.expect_sym("]", "to close the array index")?;
                        (Some(Box::new(idx)), self.height(h, pos)?)
                    } else {
                        (None, 0)
                    };
                    Ok((Expr::Dot(s, member, idx, pos), h))
                } else {
                    Ok((Expr::Var(s, pos), 0))
                }
            }
            t => self.err(format!("expected an expression, found {}", describe(&t))),
        }
    }
}

/// Words that can never be names.
fn is_reserved(s: &str) -> bool {
    matches!(
        s,
        "process"
            | "state"
            | "init"
            | "trans"
            | "guard"
            | "sync"
            | "effect"
            | "system"
            | "async"
            | "channel"
            | "const"
            | "byte"
            | "int"
            | "accept"
            | "commit"
            | "assert"
            | "and"
            | "or"
            | "not"
            | "imply"
            | "true"
            | "false"
    )
}

/// Parses a whole DVE text.
pub fn parse(text: &str, file: &str) -> Result<System, DveError> {
    let toks = tokenize(text, file)?;
    let procs = toks
        .windows(2)
        .filter_map(|w| match (&w[0].tok, &w[1].tok) {
            (Tok::Ident(k), Tok::Ident(n)) if k == "process" => Some(n.clone()),
            _ => None,
        })
        .collect();
    let mut p = Parser {
        toks: Tokens::new(toks, lexeme),
        file,
        procs,
        nest: Nesting::default(),
    };
    p.system()
}
