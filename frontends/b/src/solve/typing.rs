//! Enumerating an identifier over its B type when no conjunct generates
//! it (ProB enumerates such an identifier over its type's values): in
//! `obj /: ran(on)` the type of `obj` is that of `ran(on)`'s elements, in
//! `x |-> y /: f` that of `f`'s domain, in `p(x) = 3` that of `p`'s
//! domain. Every occurrence of an identifier in a predicate has the same
//! type (B's typing), so any occurrence next to an expression `E` whose
//! identifiers are bound gives it.
//!
//! The type is read from a value of `E`, at enumeration time: a boolean
//! is of type `BOOL`, an element of an enumerated or deferred set of that
//! set, a pair of the product of its sides' types, a non-empty set of the
//! powerset of its elements' type. Types without a finite carrier
//! (integers, strings, records) and values that do not show their type
//! (an empty set) give no carrier; the witnesses are then evaluated on the
//! slots' declared type samples (see `declared`), and failing that the
//! enumeration is unsupported,
//! as it is for a deferred set's element among the PROPERTIES' constants
//! or a `:(`'s variables (ProB's symmetry reduction of constants is
//! `symmetry`'s, for constants typed `c : S` only).
//!
//! Owns the search for such witnesses (planning) and the carriers of the
//! types they show (enumeration).

use crate::ast::*;
use crate::eval::{Env, Fail, Global, E};
use crate::value::Value;

/// How a sample of the identifier's type is read from a witness's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proj {
    /// An element of a set.
    Elem,
    /// The left side of a pair.
    First,
    /// The right side of a pair.
    Second,
    /// The singleton of the value (a set of its type).
    Singleton,
}

/// An expression of bound identifiers (`path` from the conjunct `c`) whose
/// value, read through `projs`, is a value of the identifier's type.
#[derive(Clone, Debug)]
pub struct Witness {
    pub c: usize,
    pub path: Vec<u8>,
    pub projs: Vec<Proj>,
}

/// The witnesses of `x`'s type in conjunct `e` (number `c`): the
/// occurrences of `x` in a maplet pattern `P` of `P : E`, `P /: E`,
/// `P = E`, `P /= E`, `P <: E`, `P <<: E` and their negations (either
/// way round), `P \/ E`, `P /\ E`, `P - E` (either way round), or
/// `E(P)` or `E[{P}]`, or `x` in `E[x]` (a set of `E`'s domain elements:
/// `S <: nxt(r)[S]`), with `E` `ready`.
pub fn witnesses(e: &Expr, c: usize, x: Sym, ready: &dyn Fn(&Expr) -> bool) -> Vec<Witness> {
    let mut out = Vec::new();
    let mut path = Vec::new();
    search(e, c, x, ready, &mut path, &mut out);
    out
}

fn search(
    e: &Expr,
    c: usize,
    x: Sym,
    ready: &dyn Fn(&Expr) -> bool,
    path: &mut Vec<u8>,
    out: &mut Vec<Witness>,
) {
    use ExprKind::*;
    let mut push = |i: u8, pre: &[Proj], pat: &Expr| {
        let scalar = pre.is_empty() && child(e, i).is_some_and(integer_or_string);
        if let (Some(p), false) = (pattern_projs(pat, x), scalar) {
            let mut path = path.clone();
            path.push(i);
            let projs = pre.iter().copied().chain(p).collect();
            out.push(Witness { c, path, projs });
        }
    };
    match &e.kind {
        Bin(BinOp::In | BinOp::NotIn, a, b) if ready(b) => push(1, &[Proj::Elem], a),
        Bin(BinOp::Eq | BinOp::Neq, a, b) if ready(b) => push(1, &[], a),
        Bin(BinOp::Eq | BinOp::Neq, a, b) if ready(a) => push(0, &[], b),
        // both sides of an inclusion are sets of one type
        Bin(op, a, b) if inclusion(*op) && ready(b) => push(1, &[], a),
        Bin(op, a, b) if inclusion(*op) && ready(a) => push(0, &[], b),
        // so are the operands of `\/`, `/\` and `-` (`a /\ b = {}`; an
        // integer `x - y` shows no carrier)
        Bin(BinOp::Union | BinOp::Inter | BinOp::Minus, a, b) if ready(b) => push(1, &[], a),
        Bin(BinOp::Union | BinOp::Inter | BinOp::Minus, a, b) if ready(a) => push(0, &[], b),
        Apply(f, a) if ready(f) => push(0, &[Proj::Elem, Proj::First], a),
        // `f[x]`: `x` is a set of elements of `f`'s domain; `f[{x}]`: one
        Image(f, a) if ready(f) => match &a.kind {
            Ident(s) if *s == x => push(0, &[Proj::Elem, Proj::First, Proj::Singleton], a),
            SetExt(v) if v.len() == 1 => push(0, &[Proj::Elem, Proj::First], &v[0]),
            _ => {}
        },
        _ => {}
    }
    match &e.kind {
        Quant { ids, .. } if ids.contains(&x) => {}
        Quant { pred, body, .. } => {
            descend(pred, 0, c, x, ready, path, out);
            if let Some(b) = body {
                descend(b, 1, c, x, ready, path, out);
            }
        }
        Bin(_, a, b) | Apply(a, b) | Image(a, b) => {
            descend(a, 0, c, x, ready, path, out);
            descend(b, 1, c, x, ready, path, out);
        }
        Call(_, v) | SetExt(v) | SeqExt(v) => {
            for (i, a) in v.iter().enumerate().take(u8::MAX as usize) {
                descend(a, i as u8, c, x, ready, path, out);
            }
        }
        Neg(a) | Inverse(a) => descend(a, 0, c, x, ready, path, out),
        _ => {}
    }
}

fn descend(
    e: &Expr,
    i: u8,
    c: usize,
    x: Sym,
    ready: &dyn Fn(&Expr) -> bool,
    path: &mut Vec<u8>,
    out: &mut Vec<Witness>,
) {
    path.push(i);
    search(e, c, x, ready, path, out);
    path.pop();
}

/// Whether `op` is `<:`, `<<:` or their negations.
fn inclusion(op: BinOp) -> bool {
    use BinOp::*;
    matches!(op, Subset | StrictSubset | NotSubset | NotStrictSubset)
}

/// Side `i` of a binary `e` (0: the left one).
fn child(e: &Expr, i: u8) -> Option<&Expr> {
    match &e.kind {
        ExprKind::Bin(_, a, _) | ExprKind::Apply(a, _) if i == 0 => Some(a),
        ExprKind::Bin(_, _, b) | ExprKind::Apply(_, b) if i == 1 => Some(b),
        _ => None,
    }
}

/// Whether `e` is, by its form, an integer or a string (types without a
/// finite carrier: no witness, the identifier stays unplanned).
fn integer_or_string(e: &Expr) -> bool {
    use ExprKind::*;
    matches!(
        &e.kind,
        Int(_)
            | Str(_)
            | Neg(_)
            | Named(NamedSet::MaxInt | NamedSet::MinInt)
            | Bin(BinOp::Div | BinOp::Mod | BinOp::Power | BinOp::PowerNat, ..)
            | Call(
                Builtin::Card | Builtin::Size | Builtin::Succ | Builtin::Pred,
                _
            )
    )
}

/// Where `x` is in the maplet pattern `p` (`x`, `x |-> y`, `(y |-> x) |-> z`).
pub(super) fn pattern_projs(p: &Expr, x: Sym) -> Option<Vec<Proj>> {
    match &p.kind {
        ExprKind::Ident(s) if *s == x => Some(Vec::new()),
        ExprKind::Bin(BinOp::Maplet, a, b) => {
            let (side, proj) = match (pattern_projs(a, x), pattern_projs(b, x)) {
                (Some(pa), _) => (pa, Proj::First),
                (None, Some(pb)) => (pb, Proj::Second),
                (None, None) => return None,
            };
            Some(std::iter::once(proj).chain(side).collect())
        }
        _ => None,
    }
}

/// The subexpression of `e` at `path` (as built by `witnesses`, or
/// `applied`).
pub(super) fn at<'a>(e: &'a Expr, path: &[u8]) -> Option<&'a Expr> {
    use ExprKind::*;
    let Some((&i, rest)) = path.split_first() else {
        return Some(e);
    };
    let child: &Expr = match (&e.kind, i) {
        (Bin(_, a, _) | Apply(a, _) | Image(a, _), 0) => a,
        (Bin(_, _, b) | Apply(_, b) | Image(_, b), 1) => b,
        (Quant { pred, .. }, 0) => pred,
        (Quant { body: Some(b), .. }, 1) => b,
        (Call(_, v) | SetExt(v) | SeqExt(v), i) => v.get(i as usize)?,
        (Neg(a) | Inverse(a) | Field(a, _), 0) => a,
        _ => return None,
    };
    at(child, rest)
}

/// The values of `x`'s type, read from the first of `ws` that shows it;
/// `slot`: `x` is a state slot (a constant, or a variable of `:(`).
pub fn candidates(
    ws: &[Witness],
    cs: &[&Expr],
    x: Sym,
    slot: bool,
    env: &mut Env,
) -> E<Vec<Value>> {
    let pos = ws.first().map_or_else(Pos::default, |w| cs[w.c].pos);
    let unsupported = |why: &str| {
        Fail::Unsupported(
            format!("cannot enumerate '{}': {why}", env.w.syms.name(x)),
            pos,
        )
    };
    if let Some(c) = shown(ws, cs, x, slot, env, &unsupported)? {
        return Ok(c);
    }
    // the values at hand show no element: the same witnesses on the
    // slots' declared type samples (see `declared`) and the locals'
    // (see `carrier_locals`)
    if !env.w.declared.is_empty() || !env.local_samples.is_empty() {
        let mut samples = super::declared::sample_env(env);
        if let Some(c) = shown(ws, cs, x, slot, &mut samples, &unsupported)? {
            return Ok(c);
        }
    }
    Err(unsupported(
        "its type (inferred from its uses) has no finite carrier shown by the values at hand",
    ))
}

/// The carrier of the type shown by the first of `ws` whose value in `env`
/// shows it, if any.
fn shown(
    ws: &[Witness],
    cs: &[&Expr],
    x: Sym,
    slot: bool,
    env: &mut Env,
    unsupported: &dyn Fn(&str) -> Fail,
) -> E<Option<Vec<Value>>> {
    for w in ws {
        let Some(e) = at(cs[w.c], &w.path) else {
            continue;
        };
        // evaluated out of its context, the witness may be undefined
        let Ok(v) = env.eval(e) else { continue };
        let Some(sample) = project(v, &w.projs) else {
            continue;
        };
        // a set of a deferred set's elements is enumerated whole, as a
        // constant `a <: S` is (`TestDisjoint`: 7! solutions); so are
        // the slots `deferred_inferred` allows
        let set = matches!(sample, Value::Set(_));
        let whole = match env.w.globals.get(x as usize) {
            Some(Some(Global::Slot(i))) => env.w.inferred_elements.whole(*i, &sample),
            _ => false,
        };
        if slot && !set && !whole && has_deferred(&sample, env) {
            return Err(unsupported(
                "an element of a deferred set typed only by inference (ProB's symmetry reduction)",
            ));
        }
        if let Some(c) = carrier(&sample, env)? {
            return Ok(Some(c));
        }
    }
    Ok(None)
}

pub(super) fn project(mut v: Value, projs: &[Proj]) -> Option<Value> {
    for p in projs {
        v = match (p, v) {
            (Proj::Elem, Value::Set(s)) => s.first()?.clone(),
            (Proj::First, Value::Pair(p)) => p.0.clone(),
            (Proj::Second, Value::Pair(p)) => p.1.clone(),
            (Proj::Singleton, v) => Value::set(vec![v]),
            _ => return None,
        };
    }
    Some(v)
}

/// The values of the type of `v`, if finite and shown by `v`.
pub(super) fn carrier(v: &Value, env: &Env) -> E<Option<Vec<Value>>> {
    let too_many = |n: usize| {
        Fail::Unsupported(
            format!("enumerating a type of more than {n} values"),
            Pos::default(),
        )
    };
    Ok(Some(match v {
        Value::Bool(_) => vec![Value::Bool(false), Value::Bool(true)],
        Value::Elem(s, _) => match set_elements(*s, env) {
            Some(es) => es,
            None => return Ok(None),
        },
        Value::Pair(p) => {
            let (Some(a), Some(b)) = (carrier(&p.0, env)?, carrier(&p.1, env)?) else {
                return Ok(None);
            };
            if a.len().saturating_mul(b.len()) > crate::eval::ENUM_LIMIT {
                return Err(too_many(crate::eval::ENUM_LIMIT));
            }
            let mut out = Vec::with_capacity(a.len() * b.len());
            for x in &a {
                out.extend(b.iter().map(|y| Value::pair(x.clone(), y.clone())));
            }
            out
        }
        Value::Set(s) => {
            let Some(elem) = s.first() else {
                return Ok(None);
            };
            let Some(c) = carrier(elem, env)? else {
                return Ok(None);
            };
            crate::value::subsets(&c, 20).map_err(|_| too_many(1 << 20))?
        }
        Value::Int(_) | Value::Str(_) | Value::Rec(_) => return Ok(None),
    }))
}

/// The elements of the enumerated or deferred set number `s`.
fn set_elements(s: u32, env: &Env) -> Option<Vec<Value>> {
    env.w.globals.iter().find_map(|g| match g {
        Some(Global::Value(Value::Set(es)))
            if es
                .first()
                .is_some_and(|e| matches!(e, Value::Elem(t, _) if *t == s)) =>
        {
            Some(es.to_vec())
        }
        _ => None,
    })
}

/// Whether `v` has an element of a deferred set (one whose elements have
/// no names) in it.
fn has_deferred(v: &Value, env: &Env) -> bool {
    match v {
        Value::Elem(s, _) => !env
            .w
            .globals
            .iter()
            .any(|g| matches!(g, Some(Global::Value(Value::Elem(t, _))) if t == s)),
        Value::Pair(p) => has_deferred(&p.0, env) || has_deferred(&p.1, env),
        Value::Set(s) => s.first().is_some_and(|e| has_deferred(e, env)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use crate::tests::{count, first_error};

    #[test]
    fn element_of_a_set_variable() {
        // `o /: s` types `o` as an OBJ: s grows from {a} to every superset
        // (4 states); init 1 + 2 + 1 + 1 + 0 add edges
        let m = "MACHINE T SETS OBJ = {a, b, c} VARIABLES s INVARIANT s <: OBJ
                 INITIALISATION s := {a}
                 OPERATIONS add(o) = PRE o /: s THEN s := s \\/ {o} END END";
        assert_eq!(count(m), (5, 5));
    }

    #[test]
    fn maplet_pattern_outside_a_relation() {
        // `x |-> y /: r` types x as BOOL and y as OBJ: r is any superset of
        // {TRUE |-> a} in BOOL * OBJ (2^5 states); each state has one
        // edge per pair it lacks: 5 * 2^4, plus the initialisation
        let m = "MACHINE R SETS OBJ = {a, b, c} VARIABLES r
                 INVARIANT r : BOOL <-> OBJ INITIALISATION r := {TRUE |-> a}
                 OPERATIONS link(x, y) = PRE x |-> y /: r THEN r := r \\/ {x |-> y} END
                 END";
        assert_eq!(count(m), (33, 81));
    }

    #[test]
    fn argument_of_a_function() {
        // `f(x) = TRUE` types x as f's domain, OBJ: x in {a, c}; states:
        // constants, v = b, a, c; edges: setup, init, 2 per state
        let m = "MACHINE F SETS OBJ = {a, b, c} CONSTANTS f
                 PROPERTIES f = {a |-> TRUE, b |-> FALSE, c |-> TRUE}
                 VARIABLES v INVARIANT v : OBJ INITIALISATION v := b
                 OPERATIONS pick(x) = PRE f(x) = TRUE THEN v := x END END";
        assert_eq!(count(m), (5, 8));
    }

    #[test]
    fn types_without_a_finite_carrier_stay_unsupported() {
        // an integer type (not only `x /= E`: see `carrier_ints`), and a
        // set whose value shows no element
        let m = "MACHINE I VARIABLES n INVARIANT n : NAT INITIALISATION n := 0
                 OPERATIONS other(x) = PRE x /= n & (n = 1 => x /= 0) THEN skip END END";
        let e = first_error(m).expect("integer type");
        assert!(
            e.contains("cannot enumerate 'x'") && e.contains("finite carrier"),
            "{e}"
        );
        // an empty set and no declared type for it
        let m = "MACHINE E SETS OBJ = {a, b} VARIABLES s INVARIANT card(s) <= 2
                 INITIALISATION s := {}
                 OPERATIONS add(o) = PRE o /: s THEN s := s \\/ {o} END END";
        let e = first_error(m).expect("empty witness");
        assert!(e.contains("cannot enumerate 'o'"), "{e}");
    }

    #[test]
    fn declared_type_of_an_empty_set() {
        // `s <: OBJ` types s's elements, `o` ranges over OBJ: the 4
        // subsets of OBJ; edges: init, 2 from {}, 1 from {a} and {b}
        let m = "MACHINE E SETS OBJ = {a, b} VARIABLES s INVARIANT s <: OBJ
                 INITIALISATION s := {}
                 OPERATIONS add(o) = PRE o /: s THEN s := s \\/ {o} END END";
        assert_eq!(count(m), (5, 5));
        // through a function space and dom: `p` is an OBJ, book grows to
        // any partial function OBJ +-> BOOL reached one point at a time
        // (1 + 2*2 + 2*2 = 9 states); edges: init, 4 from {}, 2 from
        // each of the 4 one-point functions
        let m = "MACHINE F SETS OBJ = {a, b} VARIABLES book
                 INVARIANT book : OBJ +-> BOOL INITIALISATION book := {}
                 OPERATIONS add(p, v) = PRE p /: dom(book) & v : BOOL
                 THEN book := book \\/ {p |-> v} END END";
        assert_eq!(count(m), (10, 13));
    }

    #[test]
    fn declared_type_of_a_constant_being_solved() {
        // `g = {}` shows no type for x in g[{x}]; g's declaration does
        // (Vizing's graph): symmetric g with at most N neighbours each,
        // N = 0: {}; N = 1: {}, {a |-> a}, {b |-> b}, both loops, the
        // edge a - b; each of the 6 constants states initialised
        let m = "MACHINE G SETS V = {a, b} CONSTANTS g, N
                 PROPERTIES g : V <-> V & g = g~ & N : 0..1 &
                   not(#x.(card(g[{x}]) > N))
                 VARIABLES q INVARIANT q : BOOL INITIALISATION q := TRUE END";
        assert_eq!(count(m), (13, 12));
    }

    #[test]
    fn sets_typed_by_an_intersection() {
        // b is a set of S (by a /\ b = {}): a = {s1}, b = {s2} and the
        // converse; each constants state initialised
        let m = "MACHINE D SETS S CONSTANTS a, b
                 PROPERTIES a <: S & a /= {} & b /= {} & a /\\ b = {} END";
        assert_eq!(count(m), (5, 4));
    }

    #[test]
    fn deferred_constants_typed_by_inference_stay_unsupported() {
        // ProB's symmetry reduction would apply to c: not modelled
        let m = "MACHINE D SETS S CONSTANTS c, d PROPERTIES d : S & c /= d
                 VARIABLES v INVARIANT v : S INITIALISATION v := c END";
        let e = first_error(m).expect("deferred constant");
        assert!(e.contains("deferred set typed only by inference"), "{e}");
    }
}
