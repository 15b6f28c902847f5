//! Constants ProB keeps symbolic: a constant `c` defined by a PROPERTIES
//! conjunct `c = E` where `E` is an infinite set by its syntax (`seq1(BIT)`,
//! `NATURAL`, `{x | x : POW(REF * INTEGER) & card(x) <= 1}`, a lambda
//! over such a set...) and mentions only sets, such constants and
//! constants defined by an equation over sets, inlined.
//! ProB keeps such a value as a closure (see its documentation on
//! symbolic sets); so do we: `c` gets no state slot (its value is the
//! same in every state, so the state counts do not change) and denotes
//! `E` itself: `x : c` is decided as `x : E`, `c(x)` of a lambda binds its
//! parameters, checks its domain predicate (a well-definedness error
//! outside it, as for any function) and evaluates its body, and any other
//! use evaluates `E`, which stays unsupported where `E` is infinite.
//! `E` is evaluated without the local bindings of the use site (its free
//! identifiers are global), to a bounded depth (recursive definitions).
//!
//! Also `prj1(S, T)(x)` and `prj2(S, T)(x)`, applied without building the
//! projection (ProB keeps it symbolic: `prj1(INTEGER, INTEGER)`).
//!
//! Owns the choice of these constants and their evaluation.

use std::cell::Cell;
use std::sync::{Arc, OnceLock};

use crate::ast::*;
use crate::eval::{bind_tuple, Env, Fail, Global, E};
use crate::solve::conjuncts;
use crate::symbolic_setformer::maplet_element;
use crate::value::{self as v, Value};

/// Deepest nesting of symbolic evaluations (recursive functions such as
/// `fac = %x.(x : NATURAL | IF x = 0 THEN 1 ELSE x * fac(x - 1) END)`).
const MAX_DEPTH: usize = 48;

thread_local! {
    static DEPTH: Cell<usize> = const { Cell::new(0) };
}

/// A symbolic constant's definition, with its value once computed when
/// the definition depends on sets and symbolic constants only: `None`
/// when it cannot be computed (an infinite set...). `deps`: the constants
/// with a slot (solved by the PROPERTIES) it mentions (see
/// `symbolic_deps`); with some, nothing is cached.
#[derive(Debug)]
pub struct Closure {
    pub def: Expr,
    pub deps: Vec<Sym>,
    value: OnceLock<Option<Value>>,
    applied: crate::symbolic_recent::Applications,
}

impl Closure {
    pub fn new(def: Expr, deps: Vec<Sym>) -> Self {
        Closure {
            def,
            deps,
            value: OnceLock::new(),
            applied: Default::default(),
        }
    }
}

/// The constants kept symbolic, with their definitions; each defining
/// conjunct `c = E` of `props` is replaced by `TRUE` (so that the
/// PROPERTIES, and ProB's SETUP_CONSTANTS step, remain). `globals` holds
/// the sets and their elements. A definition may mention other constants
/// defined by an equation over sets (`BIT = 0..1` in `BV = seq1(BIT)`):
/// they keep their slot and their definition replaces them in the
/// symbolic one, which thus depends on no slot. `lazy`: the machine sets
/// `SET_PREF_SYMBOLIC` ("ProB will keep lambda expressions and set
/// comprehensions symbolic as much as possible"): every constant defined
/// by a lambda or a comprehension is a candidate, finite or not; without
/// it, those declared in ABSTRACT_CONSTANTS are (see [`Lazy`]).
/// A definition infinite by its syntax may also mention constants that
/// keep their slot (see `symbolic_deps`): they are returned with it.
pub(crate) fn take_definitions(
    props: &mut [&mut Expr],
    const_ids: &[Sym],
    globals: &[Option<Global>],
    lazy: Lazy,
) -> Vec<(Sym, Expr, Vec<Sym>)> {
    let mut defs: Vec<(Sym, Expr, Pos)> = Vec::new();
    for p in props.iter() {
        for c in conjuncts(p) {
            if let Some((s, e)) = definition(c, const_ids) {
                if !defs.iter().any(|d| d.0 == s) {
                    defs.push((s, e.clone(), c.pos));
                }
            }
        }
    }
    // the least set of definitions kept symbolic by their form (infinite
    // through sets or earlier ones, recursive)...
    let mut chosen: Vec<(Sym, Expr, Pos)> = Vec::new();
    loop {
        let names: Vec<Sym> = chosen.iter().map(|d| d.0).collect();
        let more: Vec<_> = defs
            .iter()
            .filter(|(c, e, _)| {
                !names.contains(c) && (symbolic(e, &names, lazy.of(*c)) || recursive(e, *c))
            })
            .cloned()
            .collect();
        if more.is_empty() {
            break;
        }
        chosen.extend(more);
    }
    // ...less those mentioning other than sets, each other and inlined
    // constants
    loop {
        let names: Vec<Sym> = chosen.iter().map(|d| d.0).collect();
        let inlined = inlinable(&defs, &names, globals);
        let before = chosen.len();
        chosen.retain_mut(|(c, e, _)| {
            let known = |s: Sym| names.contains(&s) || is_set(s, globals);
            let slot = |s: Sym| known(s) || const_ids.contains(&s);
            let strict = |known| Known {
                known,
                shadow: false,
            };
            let shadowing = Known {
                known: &known,
                shadow: true,
            };
            let x = inline(e, &inlined, &strict(&known), &mut Vec::new())
                .filter(|x| symbolic(x, &names, lazy.of(*c)) || recursive(x, *c))
                .or_else(|| {
                    inline(e, &inlined, &strict(&slot), &mut Vec::new())
                        .filter(|x| unbounded(x, &names))
                })
                .or_else(|| {
                    inline(e, &inlined, &shadowing, &mut Vec::new())
                        .filter(|x| unbounded(x, &names))
                });
            match x {
                Some(x) => {
                    *e = x;
                    true
                }
                None => false,
            }
        });
        if chosen.len() == before {
            break;
        }
    }
    let names: Vec<Sym> = chosen.iter().map(|d| d.0).collect();
    let inlined = inlinable(&defs, &names, globals);
    for p in props.iter_mut() {
        for (s, _, pos) in &chosen {
            replace_conjunct(p, *s, *pos, const_ids);
        }
        drop_typing(p, &chosen, (&inlined, globals));
    }
    chosen
        .into_iter()
        .map(|(s, e, _)| {
            let deps = slot_deps(&e, &names, const_ids);
            (s, e, deps)
        })
        .collect()
}

/// The constants of `const_ids` (less the symbolic `names`) `e` mentions.
fn slot_deps(e: &Expr, names: &[Sym], const_ids: &[Sym]) -> Vec<Sym> {
    const_ids
        .iter()
        .copied()
        .filter(|&k| !names.contains(&k) && mentions(e, k))
        .collect()
}

/// Which constants defined by a lambda or a comprehension ProB keeps
/// symbolic whatever their size: all of them under `SET_PREF_SYMBOLIC`
/// (`all`), else those declared in ABSTRACT_CONSTANTS (LibraryLustre's
/// `l_not = %x.(x : POW(REF * BOOL) | .. x(ref) ..)`, whose body is not
/// defined at every point of its domain: ProB counts its 2 states).
#[derive(Clone, Copy)]
pub(crate) struct Lazy<'a> {
    pub all: bool,
    pub abstract_constants: &'a [Sym],
}

impl Lazy<'_> {
    fn of(self, c: Sym) -> bool {
        self.all || self.abstract_constants.contains(&c)
    }
}

fn is_set(s: Sym, globals: &[Option<Global>]) -> bool {
    matches!(globals.get(s as usize), Some(Some(Global::Value(_))))
}

/// The constants of `defs` (not in `names`) whose definition, with the
/// earlier ones inlined, mentions only sets and `names`: with their
/// definitions so expanded, in dependency order.
fn inlinable(
    defs: &[(Sym, Expr, Pos)],
    names: &[Sym],
    globals: &[Option<Global>],
) -> Vec<(Sym, Expr)> {
    let mut out: Vec<(Sym, Expr)> = Vec::new();
    loop {
        let before = out.len();
        for (c, e, _) in defs {
            if names.contains(c) || out.iter().any(|d| d.0 == *c) {
                continue;
            }
            let known = |s: Sym| names.contains(&s) || is_set(s, globals);
            let known = Known {
                known: &known,
                shadow: false,
            };
            if let Some(x) = inline(e, &out, &known, &mut Vec::new()) {
                out.push((*c, x));
            }
        }
        if out.len() == before {
            return out;
        }
    }
}

/// `e` with the free occurrences of the constants of `inlined` replaced
/// by their definitions, if every other free identifier is `known` and no
/// binder of `e` hides an identifier of an inlined definition.
fn inline(e: &Expr, inlined: &[(Sym, Expr)], known: &Known, bound: &mut Vec<Sym>) -> Option<Expr> {
    use ExprKind::*;
    let go = |x: &Expr, bound: &mut Vec<Sym>| inline(x, inlined, known, bound).map(Box::new);
    let kind = match &e.kind {
        Ident(s) if bound.contains(s) => Ident(*s),
        Ident(s) => match inlined.iter().find(|d| d.0 == *s) {
            Some((_, d)) => return Some(d.clone()),
            None if (known.known)(*s) => Ident(*s),
            None => return None,
        },
        Int(_) | Str(_) | Bool(_) | Named(_) | EmptySet | EmptySeq => e.kind.clone(),
        SetExt(xs) => SetExt(inline_all(xs, inlined, known, bound)?),
        SeqExt(xs) => SeqExt(inline_all(xs, inlined, known, bound)?),
        Call(b, xs) => Call(*b, inline_all(xs, inlined, known, bound)?),
        Bin(op, a, b) => Bin(*op, go(a, bound)?, go(b, bound)?),
        Apply(a, b) => Apply(go(a, bound)?, go(b, bound)?),
        Image(a, b) => Image(go(a, bound)?, go(b, bound)?),
        Neg(a) => Neg(go(a, bound)?),
        Inverse(a) => Inverse(go(a, bound)?),
        Field(a, f) => Field(go(a, bound)?, *f),
        Quant {
            ids,
            pred,
            body,
            kind,
            ..
        } => {
            if ids.iter().any(|s| hidden(*s, inlined, known)) {
                return None;
            }
            let n = bound.len();
            bound.extend(ids);
            let pred = go(pred, bound);
            let body = body.as_ref().map(|b| go(b, bound));
            bound.truncate(n);
            Quant {
                kind: *kind,
                ids: ids.clone(),
                pred: pred?,
                body: body.map_or(Some(None), |b| b.map(Some))?,
                plan: Default::default(),
            }
        }
        Rec(fs) => Rec(inline_fields(fs, inlined, known, bound)?),
        Struct(fs) => Struct(inline_fields(fs, inlined, known, bound)?),
    };
    Some(Expr { kind, pos: e.pos })
}

/// The free identifiers `inline` keeps, and whether a binder may hide
/// one of them.
struct Known<'a> {
    known: &'a dyn Fn(Sym) -> bool,
    /// A binder may hide a known identifier no inlined definition uses
    /// (`%(a, b).(a <: seq(Sigma) & ..)` with `Sigma = {a, b, c}`,
    /// FormalLanguages): evaluated, the bound value comes first. Only for
    /// a definition infinite by its syntax (it has no value either way).
    shadow: bool,
}

/// Whether binding `s` would hide an inlined constant, or a known
/// identifier (with `known.shadow`: one that an inlined definition
/// mentions, bound or not, conservatively).
fn hidden(s: Sym, inlined: &[(Sym, Expr)], known: &Known) -> bool {
    let used = |(c, d): &(Sym, Expr)| *c == s || (known.shadow && mentions(d, s));
    (!known.shadow && (known.known)(s)) || inlined.iter().any(used)
}

fn inline_all(
    xs: &[Expr],
    inlined: &[(Sym, Expr)],
    known: &Known,
    bound: &mut Vec<Sym>,
) -> Option<Vec<Expr>> {
    xs.iter()
        .map(|x| inline(x, inlined, known, bound))
        .collect()
}

fn inline_fields(
    fs: &[(Sym, Expr)],
    inlined: &[(Sym, Expr)],
    known: &Known,
    bound: &mut Vec<Sym>,
) -> Option<Vec<(Sym, Expr)>> {
    fs.iter()
        .map(|(f, x)| Some((*f, inline(x, inlined, known, bound)?)))
        .collect()
}

/// `c = E` or `E = c` with `c` one of `const_ids`.
pub(crate) fn definition<'a>(c: &'a Expr, const_ids: &[Sym]) -> Option<(Sym, &'a Expr)> {
    let ExprKind::Bin(BinOp::Eq, a, b) = &c.kind else {
        return None;
    };
    match (&a.kind, &b.kind) {
        (ExprKind::Ident(s), _) if const_ids.contains(s) => Some((*s, b)),
        (_, ExprKind::Ident(s)) if const_ids.contains(s) => Some((*s, a)),
        _ => None,
    }
}

/// Replaces the conjunct of `p` at `pos` defining `s` by `TRUE`.
fn replace_conjunct(p: &mut Expr, s: Sym, pos: Pos, const_ids: &[Sym]) {
    if let ExprKind::Bin(BinOp::And, a, b) = &mut p.kind {
        replace_conjunct(a, s, pos, const_ids);
        replace_conjunct(b, s, pos, const_ids);
    } else if p.pos == pos && definition(p, const_ids).is_some_and(|d| d.0 == s) {
        p.kind = ExprKind::Bool(true);
    }
}

/// Whether `e` is a lambda or a comprehension (or a union with one) that
/// mentions `c`: a recursive definition, which ProB keeps symbolic (not
/// an equation such as `r = r~`). Event-B's `{x . P | E}` is read as
/// `UNION(x).(P | {E})`.
fn recursive(e: &Expr, c: Sym) -> bool {
    match &e.kind {
        ExprKind::Quant { kind, body, .. } if set_former(*kind, body.as_deref()) => mentions(e, c),
        ExprKind::Bin(BinOp::Union, a, b) => recursive(a, c) || recursive(b, c),
        _ => false,
    }
}

/// Whether `e` mentions `c`.
pub(crate) fn mentions(e: &Expr, c: Sym) -> bool {
    let mut found = false;
    crate::compile::visit(e, &mut |x| {
        found |= matches!(x.kind, ExprKind::Ident(s) if s == c)
    });
    found
}

/// Replaces by `TRUE` the conjuncts `c : S` of `p` that hold by typing
/// for a symbolic `c` of `chosen`: `S` a relation space between types
/// (`fac : INTEGER <-> INTEGER`), or a function space `A --> T` (or
/// `+->`) with `T` a type and `c` defined by `%x.(x : A | E)` (or
/// `%(x, y).(x : A & y : B | E)` with the space's domain `A * B`).
/// `S` is read with the constants of `inlined` replaced by their
/// definitions, as in the symbolic definitions (`seq(Σ)` with `Σ = {0,1}`).
fn drop_typing(
    p: &mut Expr,
    chosen: &[(Sym, Expr, Pos)],
    (inlined, globals): (&[(Sym, Expr)], &[Option<Global>]),
) {
    match &mut p.kind {
        ExprKind::Bin(BinOp::And, a, b) => {
            drop_typing(a, chosen, (inlined, globals));
            drop_typing(b, chosen, (inlined, globals));
        }
        ExprKind::Bin(BinOp::In, ..) => retype(p, chosen, (inlined, globals)),
        _ => {}
    }
}

/// The typing conjunct `p` (`c : S`) of `drop_typing`, replaced by `TRUE`
/// or rewritten (see `symbolic_constfun`); out of line, so that the
/// recursion over long conjunctions (SATLIB's sudoku) keeps small frames.
#[inline(never)]
fn retype(
    p: &mut Expr,
    chosen: &[(Sym, Expr, Pos)],
    (inlined, globals): (&[(Sym, Expr)], &[Option<Global>]),
) {
    let ExprKind::Bin(BinOp::In, a, s) = &p.kind else {
        return;
    };
    let def = named(a).and_then(|c| chosen.iter().find(|d| d.0 == c));
    let known = |x: Sym| is_set(x, globals) || chosen.iter().any(|d| d.0 == x);
    let known = Known {
        known: &known,
        shadow: false,
    };
    let s = inline(s, inlined, &known, &mut Vec::new()).unwrap_or_else(|| (**s).clone());
    let is_type = |e: &Expr| is_type(e, globals);
    let sets = crate::symbolic_constfun::Sets {
        same: &same,
        is_type: &is_type,
    };
    if def.is_some_and(|(_, d, _)| typed_by(d, &s, globals)) {
        p.kind = ExprKind::Bool(true);
    } else if let Some(t) = def.and_then(|(_, d, _)| crate::symbolic_constfun::typing(d, &s, &sets))
    {
        *p = t;
    }
}

/// Whether a constant defined by `d` belongs to `s` by typing.
fn typed_by(d: &Expr, s: &Expr, globals: &[Option<Global>]) -> bool {
    let ExprKind::Bin(BinOp::Space(k), dom, ran) = &s.kind else {
        return false;
    };
    match k {
        SpaceKind::Rel => is_type(dom, globals) && is_type(ran, globals),
        SpaceKind::Total | SpaceKind::Partial => {
            let ExprKind::Quant {
                kind: QuantKind::Lambda,
                ids,
                pred,
                ..
            } = &d.kind
            else {
                return false;
            };
            lambda_domain(ids, pred).is_some_and(|ds| same_product(&ds, dom))
                && is_type(ran, globals)
        }
        _ => false,
    }
}

/// The sets `A1, .., An` of a lambda's predicate `x1 : A1 & .. & xn :
/// An` over its parameters `ids` (one typing conjunct per parameter, in
/// any order: `%(m, x).(x : INTEGER & m : NATURAL1 | ..)` has the domain
/// `NATURAL1 * INTEGER`; no other conjunct, no `Ai` mentioning a
/// parameter); `xi <: B` is `xi : POW(B)`.
fn lambda_domain(ids: &[Sym], pred: &Expr) -> Option<Vec<Expr>> {
    let cs = conjuncts(pred);
    if cs.len() != ids.len() {
        return None;
    }
    let typing = |c: &Expr, x: Sym| match &c.kind {
        ExprKind::Bin(op @ (BinOp::In | BinOp::Subset), y, a)
            if named(y) == Some(x) && !ids.iter().any(|&i| mentions(a, i)) =>
        {
            Some(match op {
                BinOp::In => (**a).clone(),
                _ => Expr {
                    kind: ExprKind::Call(Builtin::Pow, vec![(**a).clone()]),
                    pos: a.pos,
                },
            })
        }
        _ => None,
    };
    // each parameter is typed by exactly one conjunct, so that (with as
    // many conjuncts as parameters) every conjunct is a typing
    let of = |&x: &Sym| {
        let mut found = cs.iter().filter_map(|c| typing(c, x));
        let a = found.next()?;
        found.next().is_none().then_some(a)
    };
    ids.iter().map(of).collect()
}

/// Whether `dom` is the product `A1 * .. * An` of `ds` (left-associated,
/// as the domain of a lambda over `n` parameters).
fn same_product(ds: &[Expr], dom: &Expr) -> bool {
    match (ds, &dom.kind) {
        ([a], _) => same(a, dom),
        ([rest @ .., last], ExprKind::Bin(BinOp::Mul, l, r)) => {
            same(last, r) && same_product(rest, l)
        }
        _ => false,
    }
}

/// Whether `e` denotes a whole B type (`INTEGER`, `BOOL`, `STRING`, a
/// SETS name, products, powersets and relations of types).
pub(crate) fn is_type(e: &Expr, globals: &[Option<Global>]) -> bool {
    use ExprKind::*;
    match &e.kind {
        Named(NamedSet::Integer | NamedSet::Bool | NamedSet::String) => true,
        Ident(s) => matches!(
            globals.get(*s as usize),
            Some(Some(Global::Value(Value::Set(_))))
        ),
        Bin(BinOp::Mul | BinOp::Space(SpaceKind::Rel), a, b) => {
            is_type(a, globals) && is_type(b, globals)
        }
        Call(Builtin::Pow, a) => is_type(&a[0], globals),
        _ => false,
    }
}

/// Whether `a` and `b` are the same set expression (names and literals).
fn same(a: &Expr, b: &Expr) -> bool {
    use ExprKind::*;
    match (&a.kind, &b.kind) {
        (Named(x), Named(y)) => x == y,
        (Ident(x), Ident(y)) => x == y,
        (Int(x), Int(y)) => x == y,
        (SetExt(xs), SetExt(ys)) => {
            xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| same(x, y))
        }
        (Bin(o, a1, a2), Bin(p, b1, b2)) => o == p && same(a1, b1) && same(a2, b2),
        (Call(f, xs), Call(g, ys)) => {
            f == g && xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| same(x, y))
        }
        _ => false,
    }
}

/// Whether ProB keeps the definition `e` symbolic (see `take_definitions`).
fn symbolic(e: &Expr, names: &[Sym], lazy: bool) -> bool {
    let closure = match &e.kind {
        ExprKind::Quant { kind, .. } => {
            matches!(kind, QuantKind::Comprehension | QuantKind::Lambda)
        }
        ExprKind::Bin(BinOp::Union, a, b) => symbolic(a, names, lazy) && symbolic(b, names, lazy),
        _ => false,
    };
    unbounded(e, names) || (lazy && closure)
}

/// Whether `e` is an infinite set by its syntax, `names` being symbolic.
pub(crate) fn unbounded(e: &Expr, names: &[Sym]) -> bool {
    use ExprKind::*;
    match &e.kind {
        Named(NamedSet::Natural | NamedSet::Natural1 | NamedSet::Integer | NamedSet::String) => {
            true
        }
        Call(Builtin::Seq | Builtin::Seq1 | Builtin::Iseq | Builtin::Iseq1, _) => true,
        Call(Builtin::Pow | Builtin::Pow1 | Builtin::Fin | Builtin::Fin1, a) => {
            unbounded(&a[0], names)
        }
        Bin(BinOp::Space(_) | BinOp::Mul | BinOp::Union, a, b) => {
            unbounded(a, names) || unbounded(b, names)
        }
        Ident(s) => names.contains(s),
        // Event-B's `{x . P | E}` only when a bound variable has no finite
        // range (see `symbolic_setformer`): finite ones are computed once
        Quant {
            kind: QuantKind::Union,
            ids,
            pred,
            body,
            ..
        } if set_former(QuantKind::Union, body.as_deref()) => {
            crate::symbolic_setformer::infinite_former(ids, pred, names)
        }
        Quant {
            kind: QuantKind::Comprehension | QuantKind::Lambda,
            pred,
            ..
        } => {
            let mut found = false;
            crate::compile::visit(pred, &mut |x| found |= unbounded(x, names));
            found
        }
        _ => false,
    }
}

/// Whether a quantifier of `kind` with `body` forms a set element by
/// element: a comprehension, a lambda or Event-B's `{x . P | E}` (read as
/// `UNION(x).(P | {E})`).
fn set_former(kind: QuantKind, body: Option<&Expr>) -> bool {
    match kind {
        QuantKind::Comprehension | QuantKind::Lambda => true,
        QuantKind::Union => {
            matches!(body, Some(b) if matches!(&b.kind, ExprKind::SetExt(xs) if xs.len() == 1))
        }
        _ => false,
    }
}

/// The identifier `e` is, if it is one.
pub(crate) fn named(e: &Expr) -> Option<Sym> {
    match e.kind {
        ExprKind::Ident(s) => Some(s),
        _ => None,
    }
}

impl Env<'_> {
    /// The definition of `s` when it names a symbolic constant that no
    /// local binding hides.
    pub(crate) fn closure_of(&self, s: Sym) -> Option<Arc<Closure>> {
        if self.locals.iter().any(|(x, _)| *x == s) {
            return None;
        }
        match self.w.globals.get(s as usize) {
            Some(Some(Global::Symbolic(d))) => Some(d.clone()),
            _ => None,
        }
    }

    /// Runs `f` without the local bindings (but those of `deps` whose
    /// slot is not yet set, see `symbolic_deps`), one level deeper.
    fn in_closure<T>(&mut self, pos: Pos, deps: &[Sym], f: impl FnOnce(&mut Self) -> E<T>) -> E<T> {
        let depth = DEPTH.with(|d| {
            d.set(d.get() + 1);
            d.get()
        });
        let r = if depth > MAX_DEPTH {
            Err(Fail::Unsupported(
                format!("symbolic constants evaluated more than {MAX_DEPTH} levels deep"),
                pos,
            ))
        } else {
            let saved = std::mem::take(&mut self.locals);
            self.locals = self.dep_bindings(&saved, deps);
            let r = f(self);
            self.locals = saved;
            r
        };
        DEPTH.with(|d| d.set(d.get() - 1));
        r
    }

    /// The value of symbolic constant `c` (computed once).
    pub(crate) fn closure_value(&mut self, c: &Closure, pos: Pos) -> E<Value> {
        if !c.deps.is_empty() {
            let v = self.in_closure(pos, &c.deps, |env| env.eval(&c.def))?;
            self.symbolic |= v.as_set().is_ok_and(|s| s.len() > crate::eval::LARGE_SET);
            return Ok(v);
        }
        let v = match c.value.get() {
            Some(Some(v)) => v.clone(),
            // not computable: computed again for the failure
            Some(None) => self.in_closure(pos, &[], |env| env.eval(&c.def))?,
            None => {
                let r = self.in_closure(pos, &[], |env| env.eval(&c.def));
                c.value.get_or_init(|| r.as_ref().ok().cloned());
                r?
            }
        };
        self.symbolic |= v.as_set().is_ok_and(|s| s.len() > crate::eval::LARGE_SET);
        Ok(v)
    }

    /// Whether `x` belongs to the set symbolic constant `c` denotes: by
    /// its value when it can be computed, else by its definition.
    pub(crate) fn closure_member(&mut self, x: &Value, c: &Closure, pos: Pos) -> E<bool> {
        if !c.deps.is_empty() {
            return self.in_closure(pos, &c.deps, |env| env.member(x, &c.def));
        }
        if c.value.get().is_none() {
            // the failure, if any, is the definition's: not this membership's
            let _ = self.closure_value(c, pos);
        }
        match c.value.get() {
            Some(Some(v)) => v.contains(x).map_err(|m| Fail::Wd(m, pos)),
            _ => self.in_closure(pos, &[], |env| env.member(x, &c.def)),
        }
    }

    /// `c(x)` for a symbolic constant `c`.
    /// Constants without slot dependencies remember their last
    /// applications (see `symbolic_recent`).
    pub(crate) fn closure_apply(&mut self, c: &Closure, x: Value, pos: Pos) -> E<Value> {
        let same_everywhere = c.deps.is_empty();
        if let Some(y) = c.applied.find(&x).filter(|_| same_everywhere) {
            return Ok(y);
        }
        let mut found = self.in_closure(pos, &c.deps, |env| env.images(&c.def, &x, pos))?;
        found.sort();
        found.dedup();
        match found.len() {
            1 => {
                let y = found.swap_remove(0);
                if same_everywhere {
                    c.applied.remember(x, y.clone());
                }
                Ok(y)
            }
            0 => Err(Fail::Wd("function applied outside its domain".into(), pos)),
            _ => Err(Fail::Wd(
                "function application of a relation that is not a function at this argument".into(),
                pos,
            )),
        }
    }

    /// `prj1(S, T)(x)` or `prj2(S, T)(x)` without building the
    /// projection (`S`, `T` may be infinite: `prj1(INTEGER, INTEGER)`):
    /// a side of `x`, defined where `x : S * T`.
    pub(crate) fn projection(&mut self, b: Builtin, sets: &[Expr], x: Value, pos: Pos) -> E<Value> {
        if sets.is_empty() {
            // Event-B's untyped `prj1(x)`: total over the type of `x`
            let (l, r) = x.as_pair().map_err(|m| Fail::Wd(m, pos))?;
            return Ok(if b == Builtin::Prj1 { l } else { r }.clone());
        }
        let [s, t] = sets else {
            return Err(Fail::Unsupported(
                "a projection of other than two sets".into(),
                pos,
            ));
        };
        let (l, r) = x.as_pair().map_err(|m| Fail::Wd(m, pos))?;
        if !self.member(l, s)? || !self.member(r, t)? {
            return Err(Fail::Wd("function applied outside its domain".into(), pos));
        }
        Ok(if b == Builtin::Prj1 {
            l.clone()
        } else {
            r.clone()
        })
    }

    /// The images of `x` under the relation `d` (a lambda by its
    /// parameters and body, a product by its sides, a union side by side, a symbolic constant by
    /// its definition, any other relation by its value).
    pub(crate) fn images(&mut self, d: &Expr, x: &Value, pos: Pos) -> E<Vec<Value>> {
        match &d.kind {
            ExprKind::Quant {
                kind: QuantKind::Lambda,
                ids,
                pred,
                body: Some(body),
                ..
            } => {
                let base = self.locals.len();
                let r = if bind_tuple(ids, x.clone(), &mut self.locals) && self.holds(pred)? {
                    self.eval(body).map(|y| vec![y])
                } else {
                    Ok(Vec::new())
                };
                self.locals.truncate(base);
                r
            }
            // `{P . pred | P |-> E}`: a lambda (see `symbolic_setformer`)
            ExprKind::Quant {
                kind: QuantKind::Union,
                ids,
                pred,
                body: Some(body),
                ..
            } => match maplet_element(ids, body) {
                Some((pat, image)) => self.former_images(pat, pred, image, x),
                None => self.value_images(d, x, pos),
            },
            // `{x, y | P}`: `P` solved for `y` (see `solve::range_image`)
            ExprKind::Quant {
                kind: QuantKind::Comprehension,
                ids,
                pred,
                ..
            } => match self.comprehension_images(ids, pred, x) {
                Some(Ok(ys)) => Ok(ys),
                Some(Err(Fail::Unsupported(..))) | None => self.value_images(d, x, pos),
                Some(Err(f)) => Err(f),
            },
            // a product `A * B`: `B` for `x : A`
            ExprKind::Bin(BinOp::Mul, a, b) => {
                if !self.member(x, a)? {
                    return Ok(Vec::new());
                }
                let ys = self.eval(b)?;
                Ok(ys.as_set().map_err(|m| Fail::Wd(m, pos))?.to_vec())
            }
            ExprKind::Bin(BinOp::Union, a, b) => {
                let mut out = self.images(a, x, pos)?;
                out.extend(self.images(b, x, pos)?);
                Ok(out)
            }
            _ => match named(d).and_then(|c| self.closure_of(c)) {
                Some(inner) => {
                    self.in_closure(pos, &inner.deps, |env| env.images(&inner.def, x, pos))
                }
                None => self.value_images(d, x, pos),
            },
        }
    }

    /// The images of `x` under the value of the relation `d`.
    fn value_images(&mut self, d: &Expr, x: &Value, pos: Pos) -> E<Vec<Value>> {
        let f = self.eval(d)?;
        let f = f.as_set().map_err(|m| Fail::Wd(m, pos))?;
        let ys = v::image(f, std::slice::from_ref(x)).map_err(|m| Fail::Wd(m, pos))?;
        Ok(ys.as_set().map_err(|m| Fail::Wd(m, pos))?.to_vec())
    }
}

#[cfg(test)]
mod tests {
    use crate::tests::{count, first_error};

    #[test]
    fn membership_in_a_symbolic_sequence_set() {
        // BV = seq1(BIT) stays a closure: v ranges over the 4 sequences of
        // 1..2 --> BIT, all members; states: root, constants, 4 values
        let m = "MACHINE S CONSTANTS BIT, BV PROPERTIES BIT = 0..1 & BV = seq1(BIT)
                 VARIABLES v INVARIANT v : 1..2 --> BIT & v : BV
                 INITIALISATION v := [0, 0]
                 OPERATIONS flip(i) = PRE i : 1..2 THEN v(i) := 1 - v(i) END END";
        assert_eq!(count(m).0, 6);
    }

    #[test]
    fn application_of_a_symbolic_lambda() {
        // inc is a lambda over NATURAL: applied, never enumerated
        let m = "MACHINE L CONSTANTS inc PROPERTIES inc = %x.(x : NATURAL | x + 1)
                 VARIABLES n INVARIANT n : 0..3 INITIALISATION n := 0
                 OPERATIONS step = PRE n < 3 THEN n := inc(n) END END";
        assert_eq!(count(m), (6, 5));
        // outside its domain: a well-definedness error
        let m = "MACHINE L CONSTANTS dec PROPERTIES dec = %x.(x : NATURAL1 | x - 1)
                 VARIABLES n INVARIANT n : INTEGER INITIALISATION n := 1
                 OPERATIONS step = BEGIN n := dec(n) END END";
        let e = first_error(m).expect("outside the domain");
        assert!(e.contains("outside its domain"), "{e}");
    }

    #[test]
    fn recursive_symbolic_function() {
        // fac(3) = 6 through 4 nested applications
        let m = "MACHINE F CONSTANTS fac
                 PROPERTIES fac = %x.(x : NATURAL | IF x = 0 THEN 1 ELSE x * fac(x - 1) END)
                 VARIABLES n INVARIANT n : NATURAL INITIALISATION n := fac(3) END";
        assert_eq!(count(m), (3, 2));
    }

    #[test]
    fn union_of_lambdas_and_projections_over_integer() {
        // abs is a union of two lambdas over infinite domains; prj1 of
        // INTEGER * INTEGER is applied without being built: n goes
        // 0 -> 1 -> 2 -> 3 -> 3 (abs(3 - 5) + 1 = 3)
        let m = "MACHINE A CONSTANTS abs
                 PROPERTIES abs = %x.(x : NATURAL | x) \\/ %x.(x < 0 | -x)
                 VARIABLES n INVARIANT n : 0..3 INITIALISATION n := 0
                 OPERATIONS step = PRE n < 3 THEN
                   n := abs(prj1(INTEGER, INTEGER)((n - 5) |-> 0)) - 4 + 2 * n END END";
        assert_eq!(count(m), (6, 5));
    }

    #[test]
    fn typing_conjuncts_of_a_recursive_function() {
        // fac : INTEGER <-> INTEGER holds by typing; fac(3) = 6
        let m = "MACHINE F CONSTANTS fac
                 PROPERTIES fac : INTEGER <-> INTEGER &
                   fac = %x.(x = 0 | 1) \\/ %x.(x > 0 | x * fac(x - 1))
                 VARIABLES n INVARIANT n : NATURAL INITIALISATION n := fac(3) END";
        assert_eq!(count(m), (3, 2));
    }

    #[test]
    fn typing_of_a_lambda_over_two_parameters() {
        // plus : A * A --> A holds by typing (A = POW(REF * INTEGER))
        let m = "MACHINE P SETS REF = {ref} CONSTANTS plus
                 PROPERTIES plus : POW(REF * INTEGER) * POW(REF * INTEGER) --> POW(REF * INTEGER) &
                   plus = %(x, y).(x : POW(REF * INTEGER) & y : POW(REF * INTEGER) |
                     IF x = {} or y = {} THEN {} ELSE {ref |-> x(ref) + y(ref)} END)
                 VARIABLES n INVARIANT n : REF +-> INTEGER INITIALISATION n := {ref |-> 1}
                 OPERATIONS step = PRE n(ref) < 3 THEN n := plus(n, n) END END";
        assert_eq!(count(m), (5, 4));
    }

    #[test]
    fn typing_through_an_inlined_constant() {
        // ds : Z * seq(A) --> Z holds by typing once A = {0, 1} is
        // inlined (DFA_Unicode); ds(z0, [0, 0, 0]) = z1, ds(z1, ..) = z0:
        // root, the constants, q = z0, q = z1; setup, init, two go
        let m = "MACHINE D SETS Z = {z0, z1} CONSTANTS A, d, ds
                 PROPERTIES A = {0, 1} & d : Z * A --> Z &
                   d = {(z0, 0) |-> z1, (z0, 1) |-> z0, (z1, 0) |-> z0, (z1, 1) |-> z1} &
                   ds : Z * seq(A) --> Z &
                   ds = %(z, s).(z : Z & s : seq(A) |
                     IF s = [] THEN z ELSE ds(d(z, first(s)), tail(s)) END)
                 VARIABLES q INVARIANT q : Z INITIALISATION q := z0
                 OPERATIONS go = q := ds(q, [0, 0, 0]) END";
        assert_eq!(count(m), (4, 4));
    }

    #[test]
    fn typing_of_a_lambda_over_a_subset_parameter() {
        // zs <: Z types zs as POW(Z) (NFA_Unicode): ds({z0}, [0]) = {z1},
        // ds({z1}, [0]) = {z0}
        let m = "MACHINE N SETS Z = {z0, z1} CONSTANTS A, d, ds
                 PROPERTIES A = {0, 1} & d = {z0 |-> z1, z1 |-> z0} &
                   ds : POW(Z) * seq(A) --> POW(Z) &
                   ds = %(zs, s).(zs <: Z & s : seq(A) |
                     IF s = [] THEN zs ELSE ds(d[zs], tail(s)) END)
                 VARIABLES q INVARIANT q <: Z INITIALISATION q := {z0}
                 OPERATIONS go = q := ds(q, [0]) END";
        assert_eq!(count(m), (4, 4));
    }

    #[test]
    fn an_infinite_set_read_as_a_value_stays_unsupported() {
        let m = "MACHINE U CONSTANTS N PROPERTIES N = NATURAL
                 VARIABLES s INVARIANT s = N INITIALISATION s := N END";
        let e = first_error(m).expect("infinite value");
        assert!(e.contains("infinite"), "{e}");
    }
}
