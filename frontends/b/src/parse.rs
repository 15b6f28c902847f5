//! Recursive-descent parser for classical B machines (ASCII syntax), with
//! DEFINITIONS expanded at the token level the way ProB reads them: a use
//! of `d(a, b)` is replaced by `d`'s body in which each parameter becomes
//! `(a)`; in expression and predicate position the body is parenthesised,
//! in substitution position it is wrapped in `BEGIN .. END`.
//!
//! Expressions and predicates share one precedence-climbing parser with
//! the ProB / Atelier B priorities (higher binds tighter): `=>` 30, `&` and
//! `or` 40, `<=>` 50, comparisons 60, relation spaces 125, `\/ /\ <+ ><
//! <| <<| |> |>> ^ -> <- /|\ \|/ |->` 160, `..` 170, `+ -` 180, `* / mod`
//! 190, `**` 200 (right), unary minus 210, then `~`, `(..)`, `[..]`, `'`.
//! Commas build pairs only inside parentheses and argument lists; `;` is
//! relational composition inside parentheses.
//!
//! Owns the grammar and definition expansion; it must not evaluate.

use rustc_hash::FxHashMap;
use scan::Tokens;

use crate::ast::*;
use crate::error::{BError, ErrorKind};
use crate::lexer::{lexeme, Tok, Token};

/// A DEFINITIONS entry: parameters and body tokens.
#[derive(Clone, Debug)]
pub struct Def {
    pub params: Vec<String>,
    pub body: Vec<Token>,
}

/// The clause keywords that split a machine into clauses.
pub const CLAUSES: &[&str] = &[
    "MACHINE",
    "REFINEMENT",
    "IMPLEMENTATION",
    "SYSTEM",
    "MODEL",
    "REFINES",
    "SEES",
    "INCLUDES",
    "EXTENDS",
    "PROMOTES",
    "IMPORTS",
    "USES",
    "SETS",
    "CONSTANTS",
    "CONCRETE_CONSTANTS",
    "ABSTRACT_CONSTANTS",
    "VISIBLE_CONSTANTS",
    "HIDDEN_CONSTANTS",
    "PROPERTIES",
    "VARIABLES",
    "CONCRETE_VARIABLES",
    "ABSTRACT_VARIABLES",
    "VISIBLE_VARIABLES",
    "HIDDEN_VARIABLES",
    "INVARIANT",
    "ASSERTIONS",
    "EXPRESSIONS",
    "DEFINITIONS",
    "INITIALISATION",
    "INITIALIZATION",
    "OPERATIONS",
    "LOCAL_OPERATIONS",
    "CONSTRAINTS",
    "VALUES",
    "EVENTS",
    "FREETYPES",
];

pub(crate) fn is_clause(t: &Tok) -> bool {
    matches!(t, Tok::Ident(s) if CLAUSES.contains(&s.as_str()))
}

/// Keywords that open a block closed by `END`.
const OPENERS: &[&str] = &[
    "BEGIN", "PRE", "IF", "SELECT", "ANY", "LET", "VAR", "CHOICE", "CASE", "WHILE", "ASSERT",
    "WHEN",
];

/// Token-stream parser over one clause (or a definition body).
pub struct Parser<'a> {
    toks: Tokens<Token>,
    pub files: &'a [String],
    pub syms: &'a mut Syms,
    pub defs: &'a FxHashMap<String, Def>,
    expansions: usize,
    /// How deep the expressions and substitutions being parsed nest (see
    /// [`MAX_NESTING`]).
    nesting: usize,
}

/// The deepest nesting of expressions or substitutions parsed: deeper
/// input (a definition that expands into itself, ProB's
/// RecursiveDefinition) is refused before the recursive descent
/// exhausts the stack.
pub const MAX_NESTING: usize = 300;

type R<T> = Result<T, BError>;
/// Branches `(guard, S)` and the ELSE branch (SELECT, IF, CASE).
type Branches<G> = (Vec<(G, Subst)>, Option<Box<Subst>>);

/// The only substitution of `v`, or all of them joined by `join` (`;`,
/// `||`) at `pos`.
fn joined(mut v: Vec<Subst>, pos: Pos, join: fn(Vec<Subst>) -> SubstKind) -> Subst {
    if v.len() == 1 {
        v.pop().expect("one")
    } else {
        Subst { kind: join(v), pos }
    }
}

fn sym_bp(s: &str) -> Option<(u8, BinOp)> {
    use BinOp::*;
    use SpaceKind::*;
    Some(match s {
        "=>" => (30, Implies),
        "&" => (40, And),
        "<=>" => (50, Equiv),
        "=" => (60, Eq),
        "/=" => (60, Neq),
        ":" => (60, In),
        "/:" => (60, NotIn),
        "<:" => (60, Subset),
        "<<:" => (60, StrictSubset),
        "/<:" => (60, NotSubset),
        "/<<:" => (60, NotStrictSubset),
        "<" => (60, Lt),
        ">" => (60, Gt),
        "<=" => (60, Le),
        ">=" => (60, Ge),
        "<->" => (125, Space(Rel)),
        "<<->" => (125, Space(TotalRel)),
        "<->>" => (125, Space(SurjRel)),
        "<<->>" => (125, Space(TotalSurjRel)),
        "+->" => (125, Space(Partial)),
        "-->" => (125, Space(Total)),
        ">+>" => (125, Space(PartialInj)),
        ">->" => (125, Space(TotalInj)),
        "+->>" => (125, Space(PartialSurj)),
        "-->>" => (125, Space(TotalSurj)),
        ">+>>" => (125, Space(PartialBij)),
        ">->>" => (125, Space(TotalBij)),
        "\\/" => (160, Union),
        "/\\" => (160, Inter),
        "<+" => (160, Override),
        "><" => (160, DirectProduct),
        "<|" => (160, DomRes),
        "<<|" => (160, DomSub),
        "|>" => (160, RanRes),
        "|>>" => (160, RanSub),
        "^" => (160, Concat),
        "->" => (160, Prepend),
        "<-" => (160, Append),
        "/|\\" => (160, TakeFirst),
        "\\|/" => (160, DropFirst),
        "|->" => (160, Maplet),
        ".." => (170, Interval),
        "+" => (180, Plus),
        "-" => (180, Minus),
        "\\" => (180, Minus),
        "*" => (190, Mul),
        "/" => (190, Div),
        "**" => (200, Power),
        _ => return None,
    })
}

/// The symbol of a binary operator, as [`sym_bp`] reads it (`-` for
/// set difference too; the words `or`, `mod`; `;` and `||` of relations).
pub(crate) fn bin_symbol(op: BinOp) -> &'static str {
    match op {
        BinOp::Or => "or",
        BinOp::Mod => "mod",
        BinOp::Minus => "-",
        BinOp::Compose => ";",
        BinOp::ParProduct => "||",
        BinOp::PowerNat => "^",
        _ => crate::lexer::SYMBOLS
            .iter()
            .copied()
            .find(|s| sym_bp(s).is_some_and(|(_, o)| o == op))
            .unwrap_or("?"),
    }
}

fn builtin(name: &str) -> Option<Builtin> {
    use Builtin::*;
    Some(match name {
        "card" => Card,
        "dom" => Dom,
        "ran" => Ran,
        "POW" => Pow,
        "POW1" => Pow1,
        "FIN" => Fin,
        "FIN1" => Fin1,
        "union" => GenUnion,
        "inter" => GenInter,
        "max" => Max,
        "min" => Min,
        "size" => Size,
        "first" => First,
        "last" => Last,
        "front" => Front,
        "tail" => Tail,
        "rev" => Rev,
        "conc" => Conc,
        "seq" => Seq,
        "seq1" => Seq1,
        "iseq" => Iseq,
        "iseq1" => Iseq1,
        "perm" => Perm,
        "id" => Id,
        "prj1" => Prj1,
        "prj2" => Prj2,
        "closure" => Closure,
        "closure1" => Closure1,
        "iterate" => Iterate,
        "fnc" => Fnc,
        "rel" => Rel,
        "succ" => Succ,
        "pred" => Pred,
        "bool" => Bool,
        "not" => Not,
        _ => return external_builtin(name).map(External),
    })
}

/// Prefix of the internal names the expansion of a supported external
/// call gives its builtin (no B identifier starts with it).
const EXTERNAL_PREFIX: &str = "\u{1}";

/// The internal name (after [`EXTERNAL_PREFIX`]) of the externals this
/// front-end does not evaluate: their calls stay in the machine and are
/// unsupported when evaluated, so that an error reached before them
/// (`wc`'s `ARGV(1)` in the INITIALISATION, before its `EOF(file)`) is
/// reported.
const UNMODELLED: &str = "\u{1}UNMODELLED";

fn external_builtin(name: &str) -> Option<External> {
    Some(match name.strip_prefix(EXTERNAL_PREFIX)? {
        "CHOOSE" => External::Choose,
        "ASSERT_TRUE" => External::AssertTrue,
        "ASSERT_EXPR" => External::AssertExpr,
        "printf" | "fprintf" => External::Printed,
        "vprintf" | "fvprintf" => External::ValuePrinted,
        "STRING_LENGTH" => External::StringLength,
        "STRING_APPEND" => External::StringAppend,
        "STRING_CHARS" => External::StringChars,
        "DO_NOT_ENUMERATE" => External::NoEnumeration,
        "STRING_IS_INT" => External::StringIsInt,
        "ARGV" => External::Argv,
        UNMODELLED => External::Unmodelled,
        "IS_EVALUATED" | "IS_DETERMINED" => External::Determined,
        "MINIMIZE_EXPR" => External::Optimize(crate::library_optimize::Sense::Minimize),
        "MAXIMIZE_EXPR" => External::Optimize(crate::library_optimize::Sense::Maximize),
        "SINx" | "COSx" | "TANx" => External::Scaled(crate::errors_math::Scaled::named(
            name.strip_prefix(EXTERNAL_PREFIX)?,
        )?),
        bits => External::Bits(crate::library_bits::BitOp::named(bits)?),
    })
}

/// The body standing for a call of the external `name` of `kind`
/// (FUNCTION, PREDICATE or SUBSTITUTION) with parameters `params`, if this
/// front-end evaluates it: the internal builtin applied to the
/// parameters, or `skip` for ProB's printing substitutions (which do not
/// change the state).
fn external_body(kind: &str, name: &str, params: &[String], at: &Token) -> Option<Vec<Token>> {
    let tok = |tok: Tok| Token {
        tok,
        file: at.file,
        line: at.line,
        col: at.col,
    };
    if kind == "SUBSTITUTION" {
        return matches!(name, "PRINT" | "PRINTF" | "FPRINTF")
            .then(|| vec![tok(Tok::Ident("skip".into()))]);
    }
    if kind == "FUNCTION" && name == "ARGC" && params.is_empty() {
        return Some(vec![tok(Tok::Int(crate::errors_argv::ARGC))]);
    }
    let mut internal = format!("{EXTERNAL_PREFIX}{name}");
    let mut body = Vec::new();
    if external_builtin(&internal).is_none() || params.is_empty() {
        internal = format!("{EXTERNAL_PREFIX}{UNMODELLED}");
        let what = format!("external {} {name}", kind.to_lowercase());
        body.push(tok(Tok::Str(what)));
    }
    for p in params {
        if !body.is_empty() {
            body.push(tok(Tok::Sym(",")));
        }
        body.push(tok(Tok::Ident(p.clone())));
    }
    body.insert(0, tok(Tok::Sym("(")));
    body.insert(0, tok(Tok::Ident(internal)));
    body.push(tok(Tok::Sym(")")));
    Some(body)
}

fn named(name: &str) -> Option<NamedSet> {
    use NamedSet::*;
    Some(match name {
        "NAT" => Nat,
        "NAT1" => Nat1,
        "INT" => Int,
        "NATURAL" => Natural,
        "NATURAL1" => Natural1,
        "INTEGER" => Integer,
        "BOOL" => NamedSet::Bool,
        "STRING" => NamedSet::String,
        "MAXINT" => MaxInt,
        "MININT" => MinInt,
        _ => return None,
    })
}

/// Words that can never be identifiers of the machine.
const RESERVED: &[&str] = &[
    "THEN",
    "ELSE",
    "ELSIF",
    "END",
    "DO",
    "OF",
    "OR",
    "EITHER",
    "WHERE",
    "IN",
    "BE",
    "VARIANT",
    "INVARIANT",
    "or",
    "mod",
];

impl<'a> Parser<'a> {
    pub fn new(
        mut toks: Vec<Token>,
        files: &'a [String],
        syms: &'a mut Syms,
        defs: &'a FxHashMap<String, Def>,
    ) -> Self {
        if !matches!(toks.last().map(|t| &t.tok), Some(Tok::Eof)) {
            let (file, line, col) = toks.last().map_or((0, 1, 1), |t| (t.file, t.line, t.col));
            toks.push(Token {
                tok: Tok::Eof,
                file,
                line,
                col,
            });
        }
        Parser {
            toks: Tokens::new(toks, lexeme),
            files,
            syms,
            defs,
            expansions: 0,
            nesting: 0,
        }
    }

    /// Runs `f` one level of nesting deeper; an error past [`MAX_NESTING`].
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> R<T>) -> R<T> {
        if self.nesting >= MAX_NESTING {
            let msg = format!(
                "nested more than {MAX_NESTING} deep (a definition that expands into itself?)"
            );
            return Err(self.err(ErrorKind::Unsupported, msg));
        }
        self.nesting += 1;
        let r = f(self);
        self.nesting -= 1;
        r
    }

    fn peek(&self) -> &Tok {
        &self.toks.current().tok
    }
    fn peek_at(&self, k: usize) -> &Tok {
        &self.toks.ahead(k).tok
    }
    pub fn pos(&self) -> Pos {
        let t = self.toks.current();
        Pos {
            file: t.file,
            line: t.line,
            col: t.col,
        }
    }
    fn bump(&mut self) -> Tok {
        self.toks.pass().tok.clone()
    }
    pub fn at_eof(&self) -> bool {
        matches!(self.peek(), Tok::Eof)
    }
    pub fn err(&self, kind: ErrorKind, msg: impl AsRef<str>) -> BError {
        let p = self.pos();
        err_at(self.files, kind, p, msg)
    }
    fn expect_sym(&mut self, s: &str) -> R<()> {
        let found = self.toks.eat_sym(s);
        self.expected(found, s)
    }
    fn expect_kw(&mut self, s: &str) -> R<()> {
        let found = self.toks.eat_word(s);
        self.expected(found, s)
    }
    /// Nothing when `found`; otherwise the syntax error that `s` was
    /// expected at the cursor.
    fn expected(&self, found: bool, s: &str) -> R<()> {
        if found {
            return Ok(());
        }
        Err(self.err(
            ErrorKind::Syntax,
            format!("expected '{s}', found {}", describe(self.peek())),
        ))
    }
    pub fn expect_eof(&self) -> R<()> {
        if self.at_eof() {
            Ok(())
        } else {
            Err(self.err(
                ErrorKind::Syntax,
                format!("unexpected {}", describe(self.peek())),
            ))
        }
    }
    pub fn ident(&mut self) -> R<String> {
        self.expand_defs(false)?;
        self.plain_ident()
    }
    /// An identifier at the cursor, read as it stands (no definition
    /// expanded).
    fn plain_ident(&mut self) -> R<String> {
        match self.peek().clone() {
            Tok::Ident(s) if !RESERVED.contains(&s.as_str()) => {
                self.bump();
                Ok(s)
            }
            t => Err(self.err(
                ErrorKind::Syntax,
                format!("expected an identifier, found {}", describe(&t)),
            )),
        }
    }
    /// A name in an operation's header (`o1, o2 <-- op(p1, p2)`): ProB's
    /// grammar reads these as plain identifiers, so a definition of the
    /// same name (Tantris: operation `Rotate(b)`, definition
    /// `Rotate(T, offset)`) is not expanded there.
    fn header_ident(&mut self) -> R<Sym> {
        let s = self.plain_ident()?;
        Ok(self.syms.intern(&s))
    }
    fn sym_ident(&mut self) -> R<Sym> {
        let s = self.ident()?;
        Ok(self.syms.intern(&s))
    }
    /// `x` or `x, y, z` or `(x, y)`.
    /// `(p1, p2, ...)` after a machine's name, if present.
    pub fn machine_params(&mut self) -> R<Vec<Sym>> {
        if !self.toks.eat_sym("(") {
            return Ok(Vec::new());
        }
        let ids = self.ident_list()?;
        self.expect_sym(")")?;
        Ok(ids)
    }

    /// `(e1, e2, ...)` after the name of an included machine.
    pub fn machine_args(&mut self) -> R<Vec<Expr>> {
        self.expect_sym("(")?;
        let mut args = vec![self.expr_bp(0, true)?];
        while self.toks.eat_sym(",") {
            args.push(self.expr_bp(0, true)?);
        }
        self.expect_sym(")")?;
        Ok(args)
    }

    pub fn ident_list(&mut self) -> R<Vec<Sym>> {
        let paren = self.toks.eat_sym("(");
        let mut v = vec![self.sym_ident()?];
        while self.toks.eat_sym(",") {
            v.push(self.sym_ident()?);
        }
        if paren {
            self.expect_sym(")")?;
        }
        Ok(v)
    }

    /// A VARIABLES list whose items may be parenthesised lists: ProB
    /// accepts `Vars == (x, y, z)` in DEFINITIONS and `VARIABLES Vars, v`.
    pub fn grouped_ident_list(&mut self) -> R<Vec<Sym>> {
        let mut v = Vec::new();
        loop {
            self.expand_defs(false)?;
            if self.toks.eat_sym("(") {
                v.extend(self.grouped_ident_list()?);
                self.expect_sym(")")?;
            } else {
                v.push(self.sym_ident()?);
            }
            if !self.toks.eat_sym(",") {
                return Ok(v);
            }
        }
    }

    /// Expands a definition at the cursor, if there is one; `subst`: in
    /// substitution position. Returns whether it expanded.
    fn expand_defs(&mut self, subst: bool) -> R<bool> {
        let mut any = false;
        loop {
            let name = match self.peek() {
                Tok::Ident(s) if self.defs.contains_key(s) => s.clone(),
                _ => return Ok(any),
            };
            let mut external = None;
            for kind in ["FUNCTION", "PREDICATE", "SUBSTITUTION"] {
                if self.defs.contains_key(&format!("EXTERNAL_{kind}_{name}")) {
                    let params = &self.defs[&name].params;
                    let Some(body) = external_body(kind, &name, params, self.toks.current()) else {
                        return Err(self.err(
                            ErrorKind::Unsupported,
                            format!(
                                "external {} {name} (ProB built-in library)",
                                kind.to_lowercase()
                            ),
                        ));
                    };
                    external = Some(Def {
                        params: params.clone(),
                        body,
                    });
                }
            }
            let def = external.as_ref().unwrap_or(&self.defs[&name]);
            self.expansions += 1;
            if self.expansions > 100_000 {
                return Err(self.err(
                    ErrorKind::Semantic,
                    format!("definition {name} expands forever"),
                ));
            }
            let start = self.toks.index();
            let at = self.toks.current().clone();
            let mut j = start + 1;
            let mut args: Vec<Vec<Token>> = Vec::new();
            if !def.params.is_empty() {
                if !matches!(self.toks.ahead(j - start).tok, Tok::Sym("(")) {
                    return Err(self.err(
                        ErrorKind::Syntax,
                        format!("definition {name} needs {} arguments", def.params.len()),
                    ));
                }
                j += 1;
                let mut depth = 0i32;
                let mut cur = Vec::new();
                loop {
                    let t = self.toks.ahead(j - start);
                    match &t.tok {
                        Tok::Eof => {
                            return Err(self.err(ErrorKind::Syntax, "unclosed argument list"))
                        }
                        Tok::Sym("(") | Tok::Sym("[") | Tok::Sym("{") => depth += 1,
                        Tok::Sym(")") | Tok::Sym("]") | Tok::Sym("}") if depth > 0 => depth -= 1,
                        Tok::Sym(")") => {
                            args.push(std::mem::take(&mut cur));
                            j += 1;
                            break;
                        }
                        Tok::Sym(",") if depth == 0 => {
                            args.push(std::mem::take(&mut cur));
                            j += 1;
                            continue;
                        }
                        _ => {}
                    }
                    cur.push(t.clone());
                    j += 1;
                }
                if args.len() != def.params.len() {
                    // e.g. an operation sharing the definition's name: ProB
                    // tells the two apart, this token-level expansion does not
                    return Err(self.err(
                        ErrorKind::Unsupported,
                        format!(
                            "definition {name} takes {} arguments, given {} \
                             (a name both a definition and something else)",
                            def.params.len(),
                            args.len()
                        ),
                    ));
                }
            }
            let mk = |s: &'static str| Token {
                tok: Tok::Sym(s),
                file: at.file,
                line: at.line,
                col: at.col,
            };
            let kw = |s: &str| Token {
                tok: Tok::Ident(s.into()),
                file: at.file,
                line: at.line,
                col: at.col,
            };
            let mut body = Vec::new();
            for t in &def.body {
                if let Tok::Ident(s) = &t.tok {
                    if let Some(k) = def.params.iter().position(|p| p == s) {
                        // a lone identifier stays bare: it may be bound
                        // there (`UNION(V).(...)` with V a parameter)
                        if let [one @ Token {
                            tok: Tok::Ident(_), ..
                        }] = args[k].as_slice()
                        {
                            body.push(one.clone());
                            continue;
                        }
                        body.push(mk("("));
                        body.extend(args[k].iter().cloned());
                        body.push(mk(")"));
                        continue;
                    }
                }
                body.push(t.clone());
            }
            let substlike = def.body.iter().any(|t| {
                matches!(&t.tok, Tok::Sym(":=") | Tok::Sym("::") | Tok::Sym("<--"))
                    || matches!(&t.tok, Tok::Ident(s) if s == "skip" || OPENERS.contains(&s.as_str()))
            });
            let wrapped: Vec<Token> = if subst && substlike {
                std::iter::once(kw("BEGIN"))
                    .chain(body)
                    .chain(std::iter::once(kw("END")))
                    .collect()
            } else if subst {
                body
            } else {
                std::iter::once(mk("("))
                    .chain(body)
                    .chain(std::iter::once(mk(")")))
                    .collect()
            };
            self.toks.replace_ahead(j - start, wrapped);
            any = true;
        }
    }

    // ----- expressions and predicates -----

    /// A predicate or expression.
    pub fn expr(&mut self) -> R<Expr> {
        self.expr_bp(0, false)
    }

    fn expr_bp(&mut self, min_bp: u8, semi: bool) -> R<Expr> {
        self.nested(|p| p.expr_bp_nested(min_bp, semi))
    }

    fn expr_bp_nested(&mut self, min_bp: u8, semi: bool) -> R<Expr> {
        let mut lhs = self.prefix(semi)?;
        loop {
            self.expand_defs(false)?;
            let pos = self.pos();
            let (bp, op, right) = match self.peek() {
                Tok::Sym(s) => match sym_bp(s) {
                    Some((bp, op)) => (bp, op, op == BinOp::Power),
                    None if *s == ";" && semi => (20, BinOp::Compose, false),
                    None if *s == "||" && semi => (20, BinOp::ParProduct, false),
                    None => break,
                },
                Tok::Ident(s) if s == "or" => (40, BinOp::Or, false),
                Tok::Ident(s) if s == "mod" => (190, BinOp::Mod, false),
                _ => break,
            };
            if bp < min_bp || (bp == min_bp && !right) {
                break;
            }
            self.bump();
            let rhs = self.expr_bp(if right { bp } else { bp + 1 }, semi)?;
            lhs = Expr {
                kind: ExprKind::Bin(op, Box::new(lhs), Box::new(rhs)),
                pos,
            };
        }
        Ok(lhs)
    }

    fn prefix(&mut self, semi: bool) -> R<Expr> {
        self.expand_defs(false)?;
        let pos = self.pos();
        if self.toks.eat_sym("-") {
            let e = self.expr_bp(210, semi)?;
            return Ok(match e.kind {
                ExprKind::Int(n) => Expr {
                    kind: ExprKind::Int(-n),
                    pos,
                },
                k => Expr {
                    kind: ExprKind::Neg(Box::new(Expr {
                        kind: k,
                        pos: e.pos,
                    })),
                    pos,
                },
            });
        }
        let mut e = self.primary()?;
        loop {
            let pos = self.pos();
            if self.toks.is_sym("(") {
                self.bump();
                let arg = self.tuple_until(")")?;
                e = Expr {
                    kind: ExprKind::Apply(Box::new(e), Box::new(arg)),
                    pos,
                };
            } else if self.toks.is_sym("[") {
                self.bump();
                let arg = self.expr_bp(0, true)?;
                self.expect_sym("]")?;
                e = Expr {
                    kind: ExprKind::Image(Box::new(e), Box::new(arg)),
                    pos,
                };
            } else if self.toks.is_sym("~") {
                self.bump();
                e = Expr {
                    kind: ExprKind::Inverse(Box::new(e)),
                    pos,
                };
            } else if self.toks.is_sym("'") {
                self.bump();
                let f = self.sym_ident()?;
                e = Expr {
                    kind: ExprKind::Field(Box::new(e), f),
                    pos,
                };
            } else {
                break;
            }
        }
        Ok(e)
    }

    /// Comma-separated expressions up to `close` (consumed), as left-nested pairs.
    fn tuple_until(&mut self, close: &str) -> R<Expr> {
        let mut e = self.expr_bp(0, true)?;
        while self.toks.is_sym(",") {
            let pos = self.pos();
            self.bump();
            let r = self.expr_bp(0, true)?;
            e = Expr {
                kind: ExprKind::Bin(BinOp::Maplet, Box::new(e), Box::new(r)),
                pos,
            };
        }
        self.expect_sym(close)?;
        Ok(e)
    }

    fn list_until(&mut self, close: &str) -> R<Vec<Expr>> {
        let mut v = Vec::new();
        if self.toks.eat_sym(close) {
            return Ok(v);
        }
        loop {
            v.push(self.expr_bp(0, false)?);
            if self.toks.eat_sym(",") {
                continue;
            }
            self.expect_sym(close)?;
            return Ok(v);
        }
    }

    fn quant_body(&mut self, kind: QuantKind, ids: Vec<Sym>, pos: Pos) -> R<Expr> {
        self.expect_sym(".")?;
        self.expect_sym("(")?;
        let pred = self.expr_bp(0, true)?;
        let body = match kind {
            QuantKind::Forall | QuantKind::Exists => None,
            _ => {
                self.expect_sym("|")?;
                Some(Box::new(self.expr_bp(0, true)?))
            }
        };
        self.expect_sym(")")?;
        Ok(Expr {
            kind: ExprKind::Quant {
                kind,
                ids,
                pred: Box::new(pred),
                body,
                plan: Default::default(),
            },
            pos,
        })
    }

    fn primary(&mut self) -> R<Expr> {
        self.expand_defs(false)?;
        let pos = self.pos();
        let t = self.bump();
        let kind = match t {
            Tok::Int(n) => ExprKind::Int(n),
            Tok::BigInt(n) => {
                return Err(err_at(
                    self.files,
                    ErrorKind::Unsupported,
                    pos,
                    format!("integer literal {n} beyond 64 bits"),
                ))
            }
            Tok::Str(s) => ExprKind::Str(s),
            Tok::Sym("(") => {
                let e = self.tuple_until(")")?;
                return Ok(e);
            }
            Tok::Sym("{") => {
                if self.toks.eat_sym("}") {
                    ExprKind::EmptySet
                } else {
                    // comprehension `{x, y | P}`?
                    let save = self.toks.index();
                    let mut ids = Vec::new();
                    let mut compr = false;
                    loop {
                        match self.peek().clone() {
                            Tok::Ident(s)
                                if !self.defs.contains_key(&s)
                                    && !RESERVED.contains(&s.as_str()) =>
                            {
                                self.bump();
                                ids.push(s);
                                if self.toks.eat_sym(",") {
                                    continue;
                                }
                                compr = self.toks.is_sym("|");
                            }
                            _ => {}
                        }
                        break;
                    }
                    if compr {
                        self.bump();
                        let ids = ids.iter().map(|s| self.syms.intern(s)).collect();
                        let pred = self.expr_bp(0, true)?;
                        self.expect_sym("}")?;
                        ExprKind::Quant {
                            kind: QuantKind::Comprehension,
                            ids,
                            pred: Box::new(pred),
                            body: None,
                            plan: Default::default(),
                        }
                    } else {
                        self.toks.rewind(save);
                        ExprKind::SetExt(self.list_until("}")?)
                    }
                }
            }
            Tok::Sym("<>") => ExprKind::EmptySeq,
            Tok::Sym("[") => {
                let v = self.list_until("]")?;
                if v.is_empty() {
                    ExprKind::EmptySeq
                } else {
                    ExprKind::SeqExt(v)
                }
            }
            Tok::Sym("!") => {
                let ids = self.ident_list()?;
                return self.quant_body(QuantKind::Forall, ids, pos);
            }
            Tok::Sym("#") => {
                let ids = self.ident_list()?;
                return self.quant_body(QuantKind::Exists, ids, pos);
            }
            Tok::Sym("%") => {
                let ids = self.ident_list()?;
                return self.quant_body(QuantKind::Lambda, ids, pos);
            }
            Tok::Ident(s) => {
                let q = match s.as_str() {
                    "SIGMA" => Some(QuantKind::Sigma),
                    "PI" => Some(QuantKind::Pi),
                    "UNION" => Some(QuantKind::Union),
                    "INTER" => Some(QuantKind::Inter),
                    _ => None,
                };
                if let Some(q) = q {
                    let ids = self.ident_list()?;
                    return self.quant_body(q, ids, pos);
                }
                if let Some(b) = builtin(&s) {
                    if self.toks.is_sym("(") {
                        self.bump();
                        let args = if matches!(b, Builtin::Bool | Builtin::Not) {
                            let e = self.expr_bp(0, true)?;
                            self.expect_sym(")")?;
                            vec![e]
                        } else {
                            let mut v = vec![self.expr_bp(0, true)?];
                            while self.toks.eat_sym(",") {
                                v.push(self.expr_bp(0, true)?);
                            }
                            self.expect_sym(")")?;
                            v
                        };
                        if b == Builtin::Not {
                            let e = args.into_iter().next().expect("one argument");
                            return Ok(Expr {
                                kind: ExprKind::Call(Builtin::Not, vec![e]),
                                pos,
                            });
                        }
                        ExprKind::Call(b, args)
                    } else {
                        return Err(err_at(
                            self.files,
                            ErrorKind::Unsupported,
                            pos,
                            format!("'{s}' without arguments (as a value)"),
                        ));
                    }
                } else if let Some(n) = named(&s) {
                    ExprKind::Named(n)
                } else if s == "TRUE" || s == "btrue" {
                    // (`btrue`, `bfalse`: the predicates always true, false)
                    ExprKind::Bool(true)
                } else if s == "FALSE" || s == "bfalse" {
                    ExprKind::Bool(false)
                } else if s == "rec" || s == "struct" {
                    self.expect_sym("(")?;
                    let mut fields = Vec::new();
                    loop {
                        let f = self.sym_ident()?;
                        self.expect_sym(":")?;
                        let e = self.expr_bp(61, false)?;
                        fields.push((f, e));
                        if !self.toks.eat_sym(",") {
                            break;
                        }
                    }
                    self.expect_sym(")")?;
                    if s == "rec" {
                        ExprKind::Rec(fields)
                    } else {
                        ExprKind::Struct(fields)
                    }
                } else if s == "IF" {
                    let e = self.if_expr_tail(pos)?;
                    self.expect_kw("END")?;
                    return Ok(e);
                } else if s == "LET" {
                    return self.let_expr_tail(pos);
                } else if RESERVED.contains(&s.as_str())
                    || CLAUSES.contains(&s.as_str())
                    || OPENERS.contains(&s.as_str())
                {
                    let msg = if s == "LET" {
                        format!("'{s}' as an expression")
                    } else {
                        format!("unexpected '{s}'")
                    };
                    let kind = if s == "LET" {
                        ErrorKind::Unsupported
                    } else {
                        ErrorKind::Syntax
                    };
                    return Err(err_at(self.files, kind, pos, msg));
                } else if s.contains("$0")
                    || s.chars()
                        .next()
                        .is_some_and(|c| c.is_alphabetic() || c == '_')
                {
                    ExprKind::Ident(self.syms.intern(&s))
                } else {
                    return Err(err_at(
                        self.files,
                        ErrorKind::Syntax,
                        pos,
                        format!("unexpected '{s}'"),
                    ));
                }
            }
            other => {
                return Err(err_at(
                    self.files,
                    ErrorKind::Syntax,
                    pos,
                    format!("expected an expression, found {}", describe(&other)),
                ))
            }
        };
        Ok(Expr { kind, pos })
    }

    // ----- substitutions -----

    /// `G THEN S (<again> G THEN S)* [ELSE S] END` after the keyword, each
    /// `G` read by `guard` (SELECT ... WHEN ..., IF ... ELSIF ..., the
    /// values of CASE ... OR ...): the branches and the ELSE branch.
    fn branches<G>(&mut self, again: &str, guard: fn(&mut Self) -> R<G>) -> R<Branches<G>> {
        let mut branches = Vec::new();
        loop {
            let p = guard(self)?;
            self.expect_kw("THEN")?;
            branches.push((p, self.subst()?));
            if !self.toks.eat_word(again) {
                break;
            }
        }
        let els = if self.toks.eat_word("ELSE") {
            Some(Box::new(self.subst()?))
        } else {
            None
        };
        self.expect_kw("END")?;
        Ok((branches, els))
    }

    /// `P THEN E1 ELSE E2` (or `P THEN E1 ELSIF ...`) after `IF` or
    /// `ELSIF` of an IF expression, without its `END`.
    fn if_expr_tail(&mut self, pos: Pos) -> R<Expr> {
        let cond = self.expr_bp(0, true)?;
        self.expect_kw("THEN")?;
        let then = self.expr_bp(0, true)?;
        let els = if self.toks.eat_word("ELSIF") {
            let p = self.pos();
            self.if_expr_tail(p)?
        } else {
            self.expect_kw("ELSE")?;
            self.expr_bp(0, true)?
        };
        Ok(Expr {
            kind: ExprKind::Call(Builtin::IfThenElse, vec![cond, then, els]),
            pos,
        })
    }

    /// `ids BE P IN E END` after `LET` in an expression: the single
    /// element of `ran(%ids.(P | E))` (P gives the identifiers their
    /// values, see [`Builtin::Single`]).
    fn let_expr_tail(&mut self, pos: Pos) -> R<Expr> {
        let ids = self.ident_list()?;
        self.expect_kw("BE")?;
        let pred = self.expr()?;
        self.expect_kw("IN")?;
        let body = self.expr_bp(0, true)?;
        self.expect_kw("END")?;
        let lambda = Expr {
            kind: ExprKind::Quant {
                kind: QuantKind::Lambda,
                ids,
                pred: Box::new(pred),
                body: Some(Box::new(body)),
                plan: Default::default(),
            },
            pos,
        };
        let ran = Expr {
            kind: ExprKind::Call(Builtin::Ran, vec![lambda]),
            pos,
        };
        Ok(Expr {
            kind: ExprKind::Call(Builtin::Single, vec![ran]),
            pos,
        })
    }

    /// A substitution: `||` binds tighter than `;`.
    /// `KW ids <sep> predicate <then> substitution END` after the keyword
    /// (ANY ... WHERE ... THEN, LET ... BE ... IN).
    fn binder(&mut self, sep: &str, then: &str) -> R<(Vec<Sym>, Expr, Subst)> {
        self.bump();
        let ids = self.ident_list()?;
        self.expect_kw(sep)?;
        let pred = self.expr()?;
        self.expect_kw(then)?;
        let body = self.subst()?;
        self.expect_kw("END")?;
        Ok((ids, pred, body))
    }

    pub fn subst(&mut self) -> R<Subst> {
        self.nested(Self::subst_nested)
    }

    fn subst_nested(&mut self) -> R<Subst> {
        let pos = self.pos();
        let mut v = vec![self.par_subst()?];
        while self.toks.is_sym(";") && !self.semi_ends_subst() {
            self.bump();
            v.push(self.par_subst()?);
        }
        Ok(joined(v, pos, SubstKind::Seq))
    }

    /// Whether the `;` at the cursor separates operations rather than
    /// sequencing substitutions (`; name(..) =` or `; out <-- name`).
    fn semi_ends_subst(&self) -> bool {
        let mut k = 1;
        // skip `a, b <--`
        if let Tok::Ident(_) = self.peek_at(k) {
            let mut j = k + 1;
            while matches!(self.peek_at(j), Tok::Sym(","))
                && matches!(self.peek_at(j + 1), Tok::Ident(_))
            {
                j += 2;
            }
            if matches!(self.peek_at(j), Tok::Sym("<--"))
                && matches!(self.peek_at(j + 1), Tok::Ident(_))
            {
                // could be an operation header `o <-- op(..) =` or a call `o <-- op(..)`
                k = j + 1;
            }
        } else {
            return matches!(self.peek_at(k), Tok::Eof);
        }
        if !matches!(self.peek_at(k), Tok::Ident(_)) {
            return false;
        }
        let mut j = k + 1;
        if matches!(self.peek_at(j), Tok::Sym("(")) {
            let mut depth = 0;
            loop {
                match self.peek_at(j) {
                    Tok::Sym("(") => depth += 1,
                    Tok::Sym(")") => {
                        depth -= 1;
                        if depth == 0 {
                            j += 1;
                            break;
                        }
                    }
                    Tok::Eof => return false,
                    _ => {}
                }
                j += 1;
            }
        }
        matches!(self.peek_at(j), Tok::Sym("="))
    }

    fn par_subst(&mut self) -> R<Subst> {
        let pos = self.pos();
        let mut v = vec![self.subst_atom()?];
        while self.toks.eat_sym("||") {
            v.push(self.subst_atom()?);
        }
        Ok(joined(v, pos, SubstKind::Par))
    }

    fn subst_atom(&mut self) -> R<Subst> {
        self.expand_defs(true)?;
        let pos = self.pos();
        let kw = match self.peek() {
            Tok::Ident(s) => s.clone(),
            t => {
                return Err(self.err(
                    ErrorKind::Syntax,
                    format!("expected a substitution, found {}", describe(t)),
                ))
            }
        };
        let kind = match kw.as_str() {
            "skip" => {
                self.bump();
                SubstKind::Skip
            }
            "BEGIN" => {
                self.bump();
                let s = self.subst()?;
                self.expect_kw("END")?;
                return Ok(s);
            }
            "PRE" | "ASSERT" => {
                self.bump();
                let p = self.expr()?;
                self.expect_kw("THEN")?;
                let s = self.subst()?;
                self.expect_kw("END")?;
                if kw == "PRE" {
                    SubstKind::Pre(p, Box::new(s))
                } else {
                    SubstKind::Assert(p, Box::new(s))
                }
            }
            "SELECT" | "WHEN" => {
                self.bump();
                let (branches, els) = self.branches("WHEN", Self::expr)?;
                SubstKind::Select(branches, els)
            }
            "IF" => {
                self.bump();
                let (branches, els) = self.branches("ELSIF", Self::expr)?;
                SubstKind::If(branches, els)
            }
            "ANY" => {
                let (ids, pred, body) = self.binder("WHERE", "THEN")?;
                SubstKind::Any {
                    ids,
                    pred,
                    body: Box::new(body),
                    plan: Default::default(),
                }
            }
            "LET" => {
                let (ids, pred, body) = self.binder("BE", "IN")?;
                SubstKind::Let {
                    ids,
                    pred,
                    body: Box::new(body),
                    plan: Default::default(),
                }
            }
            "VAR" => {
                self.bump();
                let ids = self.ident_list()?;
                self.expect_kw("IN")?;
                let body = self.subst()?;
                self.expect_kw("END")?;
                SubstKind::Var(ids, Box::new(body))
            }
            "CHOICE" => {
                self.bump();
                let mut v = vec![self.subst()?];
                while self.toks.eat_word("OR") {
                    v.push(self.subst()?);
                }
                self.expect_kw("END")?;
                SubstKind::Choice(v)
            }
            "CASE" => {
                self.bump();
                let e = self.expr()?;
                self.expect_kw("OF")?;
                self.expect_kw("EITHER")?;
                let (branches, els) = self.branches("OR", |p| {
                    let mut vals = vec![p.expr_bp(0, false)?];
                    while p.toks.eat_sym(",") {
                        vals.push(p.expr_bp(0, false)?);
                    }
                    Ok(vals)
                })?;
                self.expect_kw("END")?;
                SubstKind::Case(e, branches, els)
            }
            "WHILE" => {
                self.bump();
                let cond = self.expr()?;
                self.expect_kw("DO")?;
                let body = self.subst()?;
                // INVARIANT and VARIANT, in either order
                let (mut inv, mut variant) = (None, None);
                for _ in 0..2 {
                    if self.toks.eat_word("INVARIANT") {
                        inv = Some(self.expr()?);
                    } else if self.toks.eat_word("VARIANT") {
                        variant = Some(self.expr()?);
                    }
                }
                self.expect_kw("END")?;
                SubstKind::While {
                    cond,
                    body: Box::new(body),
                    inv,
                    variant,
                }
            }
            _ => return self.simple_subst(),
        };
        Ok(Subst { kind, pos })
    }

    /// Assignments, `::`, `:(`, and operation calls.
    fn simple_subst(&mut self) -> R<Subst> {
        let pos = self.pos();
        let mut lhs = vec![self.expr_bp(221, false)?];
        while self.toks.eat_sym(",") {
            lhs.push(self.expr_bp(221, false)?);
        }
        let ids = |lhs: &[Expr], p: &Parser| -> R<Vec<Sym>> {
            lhs.iter()
                .map(|e| match e.kind {
                    ExprKind::Ident(s) => Ok(s),
                    _ => Err(err_at(
                        p.files,
                        ErrorKind::Syntax,
                        e.pos,
                        "expected a variable",
                    )),
                })
                .collect()
        };
        let kind = if self.toks.eat_sym(":=") {
            let mut rhs = vec![self.expr_bp(0, false)?];
            while self.toks.eat_sym(",") {
                rhs.push(self.expr_bp(0, false)?);
            }
            if rhs.len() != lhs.len() {
                return Err(err_at(
                    self.files,
                    ErrorKind::Semantic,
                    pos,
                    "assignment with unequal sides",
                ));
            }
            SubstKind::Assign(lhs, rhs)
        } else if self.toks.eat_sym("::") {
            let ids = ids(&lhs, self)?;
            SubstKind::BecomesIn(ids, self.expr()?)
        } else if self.toks.is_sym(":") && matches!(self.peek_at(1), Tok::Sym("(")) {
            self.bump();
            self.bump();
            let ids = ids(&lhs, self)?;
            let pred = self.expr_bp(0, true)?;
            self.expect_sym(")")?;
            SubstKind::BecomesSuch {
                ids,
                pred,
                plan: Default::default(),
            }
        } else if self.toks.eat_sym("<--") {
            let name = self.sym_ident()?;
            let args = if self.toks.eat_sym("(") {
                self.list_until(")")?
            } else {
                Vec::new()
            };
            SubstKind::Call(lhs, name, args)
        } else if lhs.len() == 1 {
            match lhs.pop().expect("one") {
                Expr {
                    kind: ExprKind::Ident(name),
                    ..
                } => SubstKind::Call(Vec::new(), name, Vec::new()),
                Expr {
                    kind: ExprKind::Apply(f, arg),
                    ..
                } if matches!(f.kind, ExprKind::Ident(_)) => {
                    let ExprKind::Ident(name) = f.kind else {
                        unreachable!()
                    };
                    let mut args = Vec::new();
                    flatten_pairs(*arg, &mut args);
                    SubstKind::Call(Vec::new(), name, args)
                }
                _ => return Err(self.err(ErrorKind::Syntax, "expected ':=', '::', ':(' or '<--'")),
            }
        } else {
            return Err(self.err(ErrorKind::Syntax, "expected ':=', '::', ':(' or '<--'"));
        };
        Ok(Subst { kind, pos })
    }

    /// The OPERATIONS clause.
    pub fn operations(&mut self) -> R<Vec<Operation>> {
        let mut ops = Vec::new();
        while !self.at_eof() {
            let pos = self.pos();
            let mut names = vec![self.header_ident()?];
            while self.toks.eat_sym(",") {
                names.push(self.header_ident()?);
            }
            let (outs, name) = if self.toks.eat_sym("<--") {
                (names, self.header_ident()?)
            } else if names.len() == 1 {
                (Vec::new(), names[0])
            } else {
                return Err(self.err(ErrorKind::Syntax, "expected '<--'"));
            };
            let params = if self.toks.eat_sym("(") {
                let mut v = vec![self.header_ident()?];
                while self.toks.eat_sym(",") {
                    v.push(self.header_ident()?);
                }
                self.expect_sym(")")?;
                v
            } else {
                Vec::new()
            };
            self.expect_sym("=")?;
            let body = self.subst()?;
            ops.push(Operation {
                name,
                outs,
                params,
                body,
                pos,
            });
            if !self.toks.eat_sym(";") {
                break;
            }
        }
        self.expect_eof()?;
        Ok(ops)
    }
}

fn flatten_pairs(e: Expr, out: &mut Vec<Expr>) {
    match e.kind {
        ExprKind::Bin(BinOp::Maplet, a, b) => {
            flatten_pairs(*a, out);
            out.push(*b);
        }
        k => out.push(Expr {
            kind: k,
            pos: e.pos,
        }),
    }
}

/// An error at `pos` (file looked up in `files`).
pub fn err_at(files: &[String], kind: ErrorKind, pos: Pos, msg: impl AsRef<str>) -> BError {
    let file = files.get(pos.file as usize).map_or("?", |s| s.as_str());
    BError::at(kind, file, pos.line, pos.col, msg)
}

fn describe(t: &Tok) -> String {
    match t {
        Tok::Ident(s) => format!("'{s}'"),
        Tok::Int(n) => format!("'{n}'"),
        Tok::BigInt(n) => format!("'{n}'"),
        Tok::Str(s) => format!("\"{s}\""),
        Tok::Sym(s) => format!("'{s}'"),
        Tok::Eof => "end of clause".into(),
    }
}

/// Splits a clause's tokens at `;` outside brackets and `BEGIN .. END` blocks.
pub fn split_semis(toks: &[Token]) -> Vec<Vec<Token>> {
    let mut out = vec![Vec::new()];
    let mut depth = 0i32;
    for t in toks {
        match &t.tok {
            Tok::Sym("(") | Tok::Sym("[") | Tok::Sym("{") => depth += 1,
            Tok::Sym(")") | Tok::Sym("]") | Tok::Sym("}") => depth -= 1,
            Tok::Ident(s) if OPENERS.contains(&s.as_str()) => depth += 1,
            Tok::Ident(s) if s == "END" => depth -= 1,
            Tok::Sym(";") if depth == 0 => {
                out.push(Vec::new());
                continue;
            }
            Tok::Eof => continue,
            _ => {}
        }
        out.last_mut().expect("nonempty").push(t.clone());
    }
    out.retain(|v| !v.is_empty());
    out
}

/// Splits a token stream into clauses: (keyword, its tokens, keyword position).
pub fn split_clauses(toks: &[Token]) -> Vec<(String, Vec<Token>, Pos)> {
    let mut out: Vec<(String, Vec<Token>, Pos)> = Vec::new();
    // `INVARIANT` and `VARIANT` also close a WHILE loop: only clause
    // keywords outside `BEGIN .. END` blocks start a clause.
    let mut depth = 0i32;
    for t in toks {
        match &t.tok {
            Tok::Ident(s) if OPENERS.contains(&s.as_str()) => depth += 1,
            Tok::Ident(s) if s == "END" => depth -= 1,
            _ => {}
        }
        if is_clause(&t.tok) && depth <= 0 {
            let Tok::Ident(s) = &t.tok else {
                unreachable!()
            };
            out.push((
                s.clone(),
                Vec::new(),
                Pos {
                    file: t.file,
                    line: t.line,
                    col: t.col,
                },
            ));
        } else if let Some(last) = out.last_mut() {
            last.1.push(t.clone());
        }
    }
    out
}

impl Parser<'_> {
    /// The token at the cursor.
    pub fn peek_tok(&self) -> &Tok {
        self.peek()
    }
    /// Consumes a `,` if there is one.
    pub fn eat_comma(&mut self) -> bool {
        self.toks.eat_sym(",")
    }
}

impl Parser<'_> {
    /// The identifier at the cursor, not consumed.
    pub fn ident_peek(&mut self) -> R<String> {
        let save = self.toks.index();
        let s = self.ident()?;
        if matches!(self.peek(), Tok::Sym("=")) {
            self.toks.rewind(save);
        }
        Ok(s)
    }
}
