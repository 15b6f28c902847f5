//! A recursive-descent parser for mCRL2's text syntax, restricted to what a
//! linear process specification printed by `lpspp` contains: the data
//! specification (`sort`, `cons`, `map`, `var`, `eqn`), `act`, `glob`, one
//! `proc P(params) = summand + ... ;` in linear form and `init P(values);`.
//! Data expressions follow mCRL2's operator priorities (from the toolset's
//! grammar: `whr` 0, binders 1, `=>` 2 right, `||` 3 right, `&&` 4 right,
//! `== !=` 5, `< <= > >= in` 6, `|>` 7 right, `<|` 8, `++` 9, `+ -` 10,
//! `/ div mod` 11, `* .` 12, prefix `! - #` 13, application and update 14;
//! so `i mod 2 * n` is `i mod (2 * n)`).
//!
//! Owns only text -> [`crate::ast`]; it must not resolve names. A process
//! section that is not linear (a second process equation, an `init` that
//! is not `P(values)`) is reported as [`ErrorKind::NotLinear`].

use scan::Tokens;

use crate::ast::*;
use crate::error::{ErrorKind, Mcrl2Error};
use crate::lexer::{lexeme, tokenize, Tok, Token};

/// Keywords that open a section.
const SECTIONS: &[&str] = &[
    "sort", "cons", "map", "var", "eqn", "act", "glob", "proc", "init",
];

/// Parses a whole linear process specification.
pub fn parse_spec(text: &str, file: &str) -> Result<Spec, Mcrl2Error> {
    let toks = Tokens::new(tokenize(text, file)?, lexeme);
    let mut p = Parser { toks, file };
    p.spec()
}

/// Parses one data expression (for tests and tools).
pub fn parse_expr(text: &str) -> Result<Expr, Mcrl2Error> {
    let toks = Tokens::new(tokenize(text, "<expr>")?, lexeme);
    let mut p = Parser {
        toks,
        file: "<expr>",
    };
    let e = p.expr()?;
    p.expect_eof()?;
    Ok(e)
}

struct Parser<'a> {
    toks: Tokens<Token>,
    file: &'a str,
}

type R<T> = Result<T, Mcrl2Error>;

impl Parser<'_> {
    fn peek(&self) -> &Tok {
        &self.toks.current().0
    }

    fn peek_at(&self, k: usize) -> &Tok {
        &self.toks.ahead(k).0
    }

    fn pos(&self) -> Pos {
        self.toks.current().1
    }

    fn bump(&mut self) -> Tok {
        self.toks.pass().0.clone()
    }

    fn err_kind<T>(&self, kind: ErrorKind, msg: impl AsRef<str>) -> R<T> {
        let p = self.pos();
        Err(Mcrl2Error::at(kind, self.file, p.line, p.col, msg))
    }

    fn err<T>(&self, msg: impl AsRef<str>) -> R<T> {
        let found = match self.peek() {
            Tok::Ident(s) | Tok::Number(s) => format!("'{s}'"),
            Tok::Sym(s) => format!("'{s}'"),
            Tok::Eof => "end of file".to_owned(),
        };
        self.err_kind(
            ErrorKind::Syntax,
            format!("{}, found {found}", msg.as_ref()),
        )
    }

    fn expect_sym(&mut self, s: &str) -> R<()> {
        if self.toks.eat_sym(s) {
            Ok(())
        } else {
            self.err(format!("expected '{s}'"))
        }
    }

    fn expect_eof(&self) -> R<()> {
        if matches!(self.peek(), Tok::Eof) {
            Ok(())
        } else {
            self.err("expected end of input")
        }
    }

    fn ident(&mut self) -> R<String> {
        match self.peek() {
            Tok::Ident(s) if !SECTIONS.contains(&s.as_str()) => {
                let s = s.clone();
                self.bump();
                Ok(s)
            }
            _ => self.err("expected an identifier"),
        }
    }

    fn at_section(&self) -> bool {
        matches!(self.peek(), Tok::Ident(s) if SECTIONS.contains(&s.as_str()))
            || matches!(self.peek(), Tok::Eof)
    }

    // ---- specification ----

    fn spec(&mut self) -> R<Spec> {
        let mut spec = Spec::default();
        let mut vars: Vec<VarDecl> = Vec::new();
        loop {
            let Tok::Ident(word) = self.peek().clone() else {
                if matches!(self.peek(), Tok::Eof) {
                    break;
                }
                return self.err("expected a section keyword (sort, map, eqn, act, proc, init...)");
            };
            match word.as_str() {
                "sort" => {
                    self.bump();
                    while !self.at_section() {
                        let pos = self.pos();
                        let mut names = vec![self.ident()?];
                        while self.toks.eat_sym(",") {
                            names.push(self.ident()?);
                        }
                        let def = if self.toks.eat_sym("=") {
                            Some(self.sort()?)
                        } else {
                            None
                        };
                        self.expect_sym(";")?;
                        for name in names {
                            spec.sorts.push(SortDecl {
                                name,
                                def: def.clone(),
                                pos,
                            });
                        }
                    }
                }
                "cons" | "map" | "glob" => {
                    self.bump();
                    let decls = self.id_decls()?;
                    match word.as_str() {
                        "cons" => spec.cons.extend(decls),
                        "map" => spec.maps.extend(decls),
                        _ => spec.globals.extend(decls),
                    }
                }
                "var" => {
                    self.bump();
                    vars = self
                        .id_decls()?
                        .into_iter()
                        .map(|d| (d.name, d.sort))
                        .collect();
                }
                "eqn" => {
                    self.bump();
                    while !self.at_section() {
                        let pos = self.pos();
                        let first = self.expr()?;
                        let (condition, lhs) = if self.toks.eat_sym("->") {
                            (Some(first), self.expr()?)
                        } else {
                            (None, first)
                        };
                        self.expect_sym("=")?;
                        let rhs = self.expr()?;
                        self.expect_sym(";")?;
                        spec.equations.push(Equation {
                            vars: vars.clone(),
                            condition,
                            lhs,
                            rhs,
                            pos,
                        });
                    }
                    vars.clear();
                }
                "act" => {
                    self.bump();
                    while !self.at_section() {
                        let mut names = vec![self.ident()?];
                        while self.toks.eat_sym(",") {
                            names.push(self.ident()?);
                        }
                        let sorts = if self.toks.eat_sym(":") {
                            self.sort_product()?
                        } else {
                            Vec::new()
                        };
                        self.expect_sym(";")?;
                        for name in names {
                            spec.actions.push(ActionDecl {
                                name,
                                sorts: sorts.clone(),
                            });
                        }
                    }
                }
                "proc" => {
                    self.bump();
                    if spec.process.is_some() {
                        return self.err_kind(
                            ErrorKind::NotLinear,
                            "a second process equation: not a linear process specification",
                        );
                    }
                    spec.process = Some(self.process()?);
                    if !self.at_section() {
                        return self.err_kind(
                            ErrorKind::NotLinear,
                            "more than one process equation: not a linear process specification",
                        );
                    }
                }
                "init" => {
                    self.bump();
                    let pos = self.pos();
                    let name = self.ident()?;
                    let args = if self.toks.eat_sym("(") {
                        self.expr_list(")")?
                    } else {
                        Vec::new()
                    };
                    if !self.toks.is_sym(";") {
                        return self.err_kind(
                            ErrorKind::NotLinear,
                            "the initial process is not 'P(values)': not a linear process specification",
                        );
                    }
                    self.bump();
                    if let Some(p) = &spec.process {
                        if p.name != name {
                            return Err(Mcrl2Error::at(
                                ErrorKind::NotLinear,
                                self.file,
                                pos.line,
                                pos.col,
                                format!("init names '{name}', not the linear process '{}'", p.name),
                            ));
                        }
                    }
                    spec.init = Some((args, pos));
                }
                _ => {
                    return self
                        .err("expected a section keyword (sort, map, eqn, act, proc, init...)")
                }
            }
        }
        Ok(spec)
    }

    /// `a, b: S; c: T; ...` up to the next section.
    fn id_decls(&mut self) -> R<Vec<Decl>> {
        let mut out = Vec::new();
        while !self.at_section() {
            let mut names = vec![(self.pos(), self.ident()?)];
            while self.toks.eat_sym(",") {
                names.push((self.pos(), self.ident()?));
            }
            self.expect_sym(":")?;
            let sort = self.sort()?;
            self.expect_sym(";")?;
            for (pos, name) in names {
                out.push(Decl {
                    name,
                    sort: sort.clone(),
                    pos,
                });
            }
        }
        Ok(out)
    }

    /// `x, y: S, z: T` (parameters, sum variables, binders).
    fn var_decls(&mut self) -> R<Vec<VarDecl>> {
        let mut out = Vec::new();
        loop {
            let mut names = vec![self.ident()?];
            while self.toks.eat_sym(",") {
                names.push(self.ident()?);
            }
            self.expect_sym(":")?;
            let sort = self.sort()?;
            out.extend(names.into_iter().map(|n| (n, sort.clone())));
            if !self.toks.eat_sym(",") {
                return Ok(out);
            }
        }
    }

    // ---- sorts ----

    fn sort(&mut self) -> R<SortExpr> {
        let mut dom = self.sort_product()?;
        if self.toks.eat_sym("->") {
            let cod = self.sort()?;
            Ok(SortExpr::Func(dom, Box::new(cod)))
        } else if dom.len() == 1 {
            Ok(dom.pop().expect("one sort"))
        } else {
            self.err("expected '->' after a sort product")
        }
    }

    fn sort_product(&mut self) -> R<Vec<SortExpr>> {
        let mut out = vec![self.sort_primary()?];
        while self.toks.eat_sym("#") {
            out.push(self.sort_primary()?);
        }
        Ok(out)
    }

    fn sort_primary(&mut self) -> R<SortExpr> {
        if self.toks.eat_sym("(") {
            let s = self.sort()?;
            self.expect_sym(")")?;
            return Ok(s);
        }
        let name = self.ident()?;
        let container = |p: &mut Self, f: fn(Box<SortExpr>) -> SortExpr| -> R<SortExpr> {
            p.expect_sym("(")?;
            let s = p.sort()?;
            p.expect_sym(")")?;
            Ok(f(Box::new(s)))
        };
        match name.as_str() {
            "Bool" => Ok(SortExpr::Bool),
            "Pos" => Ok(SortExpr::Pos),
            "Nat" => Ok(SortExpr::Nat),
            "Int" => Ok(SortExpr::Int),
            "Real" => Ok(SortExpr::Real),
            "List" => container(self, SortExpr::List),
            "Set" => container(self, SortExpr::Set),
            "FSet" => container(self, SortExpr::FSet),
            "Bag" => container(self, SortExpr::Bag),
            "FBag" => container(self, SortExpr::FBag),
            "struct" => {
                let mut ctors = vec![self.struct_ctor()?];
                while self.toks.eat_sym("|") {
                    ctors.push(self.struct_ctor()?);
                }
                Ok(SortExpr::Struct(ctors))
            }
            _ => Ok(SortExpr::Named(name)),
        }
    }

    fn struct_ctor(&mut self) -> R<StructCtor> {
        let name = self.ident()?;
        let mut args = Vec::new();
        if self.toks.eat_sym("(") {
            loop {
                let proj = if matches!(self.peek(), Tok::Ident(_))
                    && matches!(self.peek_at(1), Tok::Sym(":"))
                {
                    let p = self.ident()?;
                    self.bump();
                    Some(p)
                } else {
                    None
                };
                args.push((proj, self.sort()?));
                if !self.toks.eat_sym(",") {
                    break;
                }
            }
            self.expect_sym(")")?;
        }
        let recogniser = if self.toks.eat_sym("?") {
            Some(self.ident()?)
        } else {
            None
        };
        Ok(StructCtor {
            name,
            args,
            recogniser,
        })
    }

    // ---- process ----

    fn process(&mut self) -> R<Process> {
        let pos = self.pos();
        let name = self.ident()?;
        let params = if self.toks.eat_sym("(") {
            let v = if self.toks.is_sym(")") {
                Vec::new()
            } else {
                self.var_decls()?
            };
            self.expect_sym(")")?;
            v
        } else {
            Vec::new()
        };
        self.expect_sym("=")?;
        let mut summands = vec![self.summand(&name)?];
        while self.toks.eat_sym("+") {
            summands.push(self.summand(&name)?);
        }
        self.expect_sym(";")?;
        Ok(Process {
            name,
            params,
            summands,
            pos,
        })
    }

    /// A summand's `c ->`, if it has one: the tokens before the
    /// multi-action's `.` hold a `->` outside brackets.
    fn condition(&mut self) -> R<Option<Expr>> {
        if !self.has_condition() {
            return Ok(None);
        }
        let c = self.expr_prec(1)?;
        self.expect_sym("->")?;
        Ok(Some(c))
    }

    /// Looks ahead (and rewinds) for a `->` at bracket depth 0 before the
    /// first `.` or `;` at depth 0.
    fn has_condition(&mut self) -> bool {
        let start = self.toks.index();
        let mut depth = 0usize;
        let found = loop {
            if depth == 0 && self.toks.is_sym("->") {
                break true;
            }
            if depth == 0 && (self.toks.is_sym(".") || self.toks.is_sym(";"))
                || matches!(self.peek(), Tok::Eof)
            {
                break false;
            }
            if ["(", "[", "{"].iter().any(|b| self.toks.is_sym(b)) {
                depth += 1;
            } else if [")", "]", "}"].iter().any(|b| self.toks.is_sym(b)) {
                depth = depth.saturating_sub(1);
            }
            self.toks.pass();
        };
        self.toks.rewind(start);
        found
    }

    fn summand(&mut self, proc_name: &str) -> R<Summand> {
        let pos = self.pos();
        let sum_vars = if self.toks.eat_word("sum") {
            let v = self.var_decls()?;
            self.expect_sym(".")?;
            v
        } else {
            Vec::new()
        };
        let condition = self.condition()?;
        let actions = if self.toks.eat_word("delta") {
            None
        } else {
            let mut acts = Vec::new();
            loop {
                let apos = self.pos();
                let name = self.ident()?;
                if name != "tau" {
                    let args = if self.toks.eat_sym("(") {
                        self.expr_list(")")?
                    } else {
                        Vec::new()
                    };
                    acts.push(Action {
                        name,
                        args,
                        pos: apos,
                    });
                }
                if !self.toks.eat_sym("|") {
                    break;
                }
            }
            Some(acts)
        };
        let timed = if self.toks.eat_sym("@") {
            self.expr_prec(13)?;
            true
        } else {
            false
        };
        let mut updates = Vec::new();
        let mut continues = false;
        if actions.is_some() && self.toks.eat_sym(".") {
            continues = true;
            let ppos = self.pos();
            let name = self.ident()?;
            if name != proc_name {
                return Err(Mcrl2Error::at(
                    ErrorKind::NotLinear,
                    self.file,
                    ppos.line,
                    ppos.col,
                    format!(
                        "summand continues as '{name}', not '{proc_name}': not a linear process"
                    ),
                ));
            }
            if self.toks.eat_sym("(") {
                if !self.toks.is_sym(")") {
                    loop {
                        let var = self.ident()?;
                        self.expect_sym("=")?;
                        updates.push((var, self.expr()?));
                        if !self.toks.eat_sym(",") {
                            break;
                        }
                    }
                }
                self.expect_sym(")")?;
            }
        }
        if !(self.toks.is_sym("+") || self.toks.is_sym(";")) {
            return self.err_kind(
                ErrorKind::NotLinear,
                "expected '+' or ';' after a summand: not a linear process (or a syntax error)",
            );
        }
        Ok(Summand {
            sum_vars,
            condition,
            actions,
            updates,
            continues,
            timed,
            pos,
        })
    }

    // ---- data expressions ----

    fn expr_list(&mut self, close: &str) -> R<Vec<Expr>> {
        let mut out = Vec::new();
        if self.toks.eat_sym(close) {
            return Ok(out);
        }
        loop {
            out.push(self.expr()?);
            if !self.toks.eat_sym(",") {
                break;
            }
        }
        self.expect_sym(close)?;
        Ok(out)
    }

    /// A full data expression, `whr` included.
    fn expr(&mut self) -> R<Expr> {
        let e = self.expr_prec(1)?;
        if self.toks.is_word("whr") {
            let pos = self.pos();
            self.bump();
            let mut defs = Vec::new();
            loop {
                let name = self.ident()?;
                self.expect_sym("=")?;
                defs.push((name, self.expr()?));
                if !self.toks.eat_sym(",") {
                    break;
                }
            }
            if !self.toks.eat_word("end") {
                return self.err("expected 'end' after 'whr' definitions");
            }
            return Ok(Expr {
                kind: ExprKind::Whr(Box::new(e), defs),
                pos,
            });
        }
        Ok(e)
    }

    /// The binary operator at the cursor: (op, priority, right-assoc).
    fn binop(&self) -> Option<(BinOp, u8, bool)> {
        Some(match self.peek() {
            Tok::Sym("=>") => (BinOp::Implies, 2, true),
            Tok::Sym("||") => (BinOp::Or, 3, true),
            Tok::Sym("&&") => (BinOp::And, 4, true),
            Tok::Sym("==") => (BinOp::Eq, 5, false),
            Tok::Sym("!=") => (BinOp::Neq, 5, false),
            Tok::Sym("<") => (BinOp::Lt, 6, false),
            Tok::Sym("<=") => (BinOp::Le, 6, false),
            Tok::Sym(">") => (BinOp::Gt, 6, false),
            Tok::Sym(">=") => (BinOp::Ge, 6, false),
            Tok::Ident(w) if w == "in" => (BinOp::In, 6, false),
            Tok::Sym("|>") => (BinOp::Cons, 7, true),
            Tok::Sym("<|") => (BinOp::Snoc, 8, false),
            Tok::Sym("++") => (BinOp::Concat, 9, false),
            Tok::Sym("+") => (BinOp::Add, 10, false),
            Tok::Sym("-") => (BinOp::Sub, 10, false),
            Tok::Sym("*") => (BinOp::Mul, 12, false),
            Tok::Sym("/") => (BinOp::Div, 11, false),
            Tok::Ident(w) if w == "div" => (BinOp::IntDiv, 11, false),
            Tok::Ident(w) if w == "mod" => (BinOp::Mod, 11, false),
            Tok::Sym(".") => (BinOp::At, 12, false),
            _ => return None,
        })
    }

    fn expr_prec(&mut self, min: u8) -> R<Expr> {
        let mut lhs = self.unary()?;
        while let Some((op, prec, right)) = self.binop() {
            if prec < min {
                break;
            }
            let pos = self.pos();
            self.bump();
            let rhs = self.expr_prec(if right { prec } else { prec + 1 })?;
            lhs = Expr {
                kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
                pos,
            };
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> R<Expr> {
        let pos = self.pos();
        let op = match self.peek() {
            Tok::Sym("!") => Some(UnOp::Not),
            Tok::Sym("-") => Some(UnOp::Neg),
            Tok::Sym("#") => Some(UnOp::Size),
            _ => None,
        };
        if let Some(op) = op {
            self.bump();
            let e = self.unary()?;
            return Ok(Expr {
                kind: ExprKind::Unary(op, Box::new(e)),
                pos,
            });
        }
        for (word, which) in [("forall", 0), ("exists", 1), ("lambda", 2)] {
            if self.toks.is_word(word) {
                self.bump();
                let vars = self.var_decls()?;
                self.expect_sym(".")?;
                let body = Box::new(self.expr_prec(1)?);
                let kind = match which {
                    0 => ExprKind::Forall(vars, body),
                    1 => ExprKind::Exists(vars, body),
                    _ => ExprKind::Lambda(vars, body),
                };
                return Ok(Expr { kind, pos });
            }
        }
        let mut e = self.primary()?;
        loop {
            let pos = self.pos();
            if self.toks.eat_sym("(") {
                let args = self.expr_list(")")?;
                e = Expr {
                    kind: ExprKind::Apply(Box::new(e), args),
                    pos,
                };
            } else if self.toks.is_sym("[") {
                self.bump();
                let x = self.expr()?;
                self.expect_sym("->")?;
                let v = self.expr()?;
                self.expect_sym("]")?;
                e = Expr {
                    kind: ExprKind::Update(Box::new(e), Box::new(x), Box::new(v)),
                    pos,
                };
            } else {
                return Ok(e);
            }
        }
    }

    fn primary(&mut self) -> R<Expr> {
        let pos = self.pos();
        match self.peek().clone() {
            Tok::Number(n) => {
                self.bump();
                Ok(Expr {
                    kind: ExprKind::Number(n),
                    pos,
                })
            }
            Tok::Ident(w) if !SECTIONS.contains(&w.as_str()) && w != "whr" && w != "end" => {
                self.bump();
                Ok(Expr {
                    kind: ExprKind::Id(w),
                    pos,
                })
            }
            Tok::Sym("(") => {
                self.bump();
                let e = self.expr()?;
                self.expect_sym(")")?;
                Ok(e)
            }
            Tok::Sym("[") => {
                self.bump();
                let items = self.expr_list("]")?;
                Ok(Expr {
                    kind: ExprKind::List(items),
                    pos,
                })
            }
            Tok::Sym("{") => {
                self.bump();
                if self.toks.eat_sym("}") {
                    return Ok(Expr {
                        kind: ExprKind::Set(Vec::new()),
                        pos,
                    });
                }
                if self.toks.is_sym(":") && matches!(self.peek_at(1), Tok::Sym("}")) {
                    self.bump();
                    self.bump();
                    return Ok(Expr {
                        kind: ExprKind::Bag(Vec::new()),
                        pos,
                    });
                }
                // `{ x: S | p }`: an identifier, ':' and a sort, then '|'.
                if matches!(self.peek(), Tok::Ident(_)) && matches!(self.peek_at(1), Tok::Sym(":"))
                {
                    let save = self.toks.index();
                    let name = self.ident()?;
                    self.bump();
                    if let Ok(sort) = self.sort() {
                        if self.toks.eat_sym("|") {
                            let body = self.expr()?;
                            self.expect_sym("}")?;
                            return Ok(Expr {
                                kind: ExprKind::Comprehension((name, sort), Box::new(body)),
                                pos,
                            });
                        }
                    }
                    self.toks.rewind(save);
                }
                let first = self.expr()?;
                if self.toks.eat_sym(":") {
                    let mut items = vec![(first, self.expr()?)];
                    while self.toks.eat_sym(",") {
                        let e = self.expr()?;
                        self.expect_sym(":")?;
                        items.push((e, self.expr()?));
                    }
                    self.expect_sym("}")?;
                    return Ok(Expr {
                        kind: ExprKind::Bag(items),
                        pos,
                    });
                }
                let mut items = vec![first];
                while self.toks.eat_sym(",") {
                    items.push(self.expr()?);
                }
                self.expect_sym("}")?;
                Ok(Expr {
                    kind: ExprKind::Set(items),
                    pos,
                })
            }
            _ => self.err("expected a data expression"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(e: &Expr) -> String {
        match &e.kind {
            ExprKind::Id(s) | ExprKind::Number(s) => s.clone(),
            ExprKind::Binary(op, a, b) => format!("({} {op:?} {})", show(a), show(b)),
            ExprKind::Unary(op, a) => format!("({op:?} {})", show(a)),
            ExprKind::Apply(f, args) => format!(
                "{}[{}]",
                show(f),
                args.iter().map(show).collect::<Vec<_>>().join(",")
            ),
            other => format!("{other:?}"),
        }
    }

    #[test]
    fn priorities() {
        let e = parse_expr("a && b || c => d").unwrap();
        assert_eq!(show(&e), "(((a And b) Or c) Implies d)");
        let e = parse_expr("x |> y |> l ++ m").unwrap();
        assert_eq!(show(&e), "(x Cons (y Cons (l Concat m)))");
        let e = parse_expr("!f(x) == 1 + 2 * 3").unwrap();
        assert_eq!(show(&e), "((Not f[x]) Eq (1 Add (2 Mul 3)))");
        let e = parse_expr("n - 1 - 2").unwrap();
        assert_eq!(show(&e), "((n Sub 1) Sub 2)");
        let e = parse_expr("i mod 2 * n").unwrap();
        assert_eq!(show(&e), "(i Mod (2 Mul n))");
        let e = parse_expr("#l < 1 && a in s").unwrap();
        assert_eq!(show(&e), "(((Size l) Lt 1) And (a In s))");
    }

    #[test]
    fn linear_process() {
        let text = "sort D = struct d1 | d2(x: Nat)?is_d2;\nact a: D;\n\
                    proc P(s: Pos, d: D) = sum e: Bool. (s == 1) -> a(d) . P(s = 2) + delta;\n\
                    init P(1, d1);";
        let spec = parse_spec(text, "t").unwrap();
        let p = spec.process.unwrap();
        assert_eq!(p.params.len(), 2);
        assert_eq!(p.summands.len(), 2);
        assert!(p.summands[1].actions.is_none());
        assert_eq!(p.summands[0].updates.len(), 1);
        assert_eq!(spec.init.unwrap().0.len(), 2);
    }

    #[test]
    fn non_linear_is_reported() {
        let text = "act a;\nproc P = a . Q;\nQ = a . P;\ninit P;";
        let e = parse_spec(text, "t").unwrap_err();
        assert_eq!(e.kind(), ErrorKind::NotLinear);
        let text = "act a;\nproc P = a . P;\ninit allow({a}, P || P);";
        assert_eq!(
            parse_spec(text, "t").unwrap_err().kind(),
            ErrorKind::NotLinear
        );
    }
}
