//! The declared types of the state slots, for `typing`: an identifier is
//! enumerated over its B type, read from a value next to it (`p /: dom(book)`);
//! when that value shows no element (`book = {}` in the initial state),
//! its type is read instead from the same expression evaluated on *type
//! samples*: each slot declared by a top-level conjunct `v : E`, `v <: E`
//! or `v <<: E` of the INVARIANT or PROPERTIES holds a value of its type
//! with every set non-empty (`{a |-> TRUE}` for `book : OBJ +-> BOOL`).
//!
//! Sound because B is typed: every slot, sample or not, holds a value of
//! its type, so a non-empty value of the witness is made of elements of the
//! witness's type whatever the values (the counts never depend on the
//! samples, only the carrier read from them does).
//!
//! Owns the declarations (pure syntax, gathered once) and the samples.

use crate::ast::*;
use crate::eval::Env;
use crate::value::Value;

/// How a slot is declared by a set expression.
#[derive(Clone, Debug)]
struct Decl {
    set: Expr,
    /// `v <: E` (a subset of `E`) rather than `v : E`.
    subset: bool,
}

/// The declarations of each state slot (constants, then variables).
#[derive(Debug, Default)]
pub struct Declared {
    slots: Vec<Vec<Decl>>,
    /// The slots' identifiers (a constant is a local while PROPERTIES
    /// are solved).
    ids: Vec<Sym>,
}

impl Declared {
    /// The declarations of `slot_ids` in the machines' INVARIANT and
    /// PROPERTIES (top-level conjuncts whose set does not mention the slot).
    pub fn of(machines: &[Machine], slot_ids: &[Sym]) -> Self {
        let mut slots = vec![Vec::new(); slot_ids.len()];
        let preds = machines
            .iter()
            .flat_map(|m| m.invariant.iter().chain(&m.properties));
        for p in preds {
            for c in super::conjuncts(p) {
                let ExprKind::Bin(op, a, b) = &c.kind else {
                    continue;
                };
                let subset = match op {
                    BinOp::In => false,
                    BinOp::Subset | BinOp::StrictSubset => true,
                    _ => continue,
                };
                let ExprKind::Ident(x) = a.kind else { continue };
                let Some(k) = slot_ids.iter().position(|&s| s == x) else {
                    continue;
                };
                let mut ids = Vec::new();
                super::idents(b, &mut ids);
                if !ids.contains(&x) {
                    slots[k].push(Decl {
                        set: (**b).clone(),
                        subset,
                    });
                }
            }
        }
        Declared {
            slots,
            ids: slot_ids.to_vec(),
        }
    }

    /// Whether no slot is declared.
    pub fn is_empty(&self) -> bool {
        self.slots.iter().all(Vec::is_empty)
    }
}

/// `env` with each declared slot holding a sample of its type (two rounds,
/// so that a declaration by another slot's value, `rr : waiting`, sees
/// that slot's sample); other slots keep their values. A constant bound
/// as a local (PROPERTIES being solved) gets the sample too, where its
/// value has the sample's form (see `same_form`).
pub fn sample_env<'w>(env: &Env<'w>) -> Env<'w> {
    let mut s = Env {
        w: env.w,
        slots: env.slots.clone(),
        locals: env.locals.clone(),
        local_samples: env.local_samples.clone(),
        symbolic: false,
    };
    super::carrier_locals::apply(&mut s);
    let declared = &env.w.declared;
    for _ in 0..2 {
        for (k, decls) in declared.slots.iter().enumerate() {
            if k >= s.slots.len() {
                break;
            }
            let sample = decls.iter().find_map(|d| {
                let e = elem_sample(&d.set, &mut s)?;
                Some(if d.subset { Value::set(vec![e]) } else { e })
            });
            if let Some(v) = sample {
                resample_local(&mut s, declared.ids[k], &v);
                s.slots[k] = v;
            }
        }
    }
    s
}

/// Gives the sample `v` to the innermost local binding `x`, if its value
/// has `v`'s form.
fn resample_local(env: &mut Env, x: Sym, v: &Value) {
    if let Some(l) = env.locals.iter_mut().rev().find(|l| l.0 == x) {
        if same_form(&l.1, v) {
            l.1 = v.clone();
        }
    }
}

/// Whether `a` and `b` are values of the same form (of one type where
/// they show it): the same kind, elements of the same set, pairs of
/// such sides, sets of such elements (an empty set has every set's form).
fn same_form(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Bool(_), Value::Bool(_))
        | (Value::Int(_), Value::Int(_))
        | (Value::Str(_), Value::Str(_))
        | (Value::Rec(_), Value::Rec(_)) => true,
        (Value::Elem(s, _), Value::Elem(t, _)) => s == t,
        (Value::Pair(p), Value::Pair(q)) => same_form(&p.0, &q.0) && same_form(&p.1, &q.1),
        (Value::Set(s), Value::Set(t)) => match (s.first(), t.first()) {
            (Some(x), Some(y)) => same_form(x, y),
            _ => true,
        },
        _ => false,
    }
}

/// A value of the type of `set`'s elements, every set in it non-empty:
/// from the form of `set` for the type constructors, else from its first
/// element in `env`.
pub(super) fn elem_sample(set: &Expr, env: &mut Env) -> Option<Value> {
    use ExprKind::*;
    let pair = |a: Value, b: Value| Value::pair(a, b);
    Some(match &set.kind {
        Named(NamedSet::Bool) => Value::Bool(false),
        Named(NamedSet::String) => Value::Str("".into()),
        Named(
            NamedSet::Nat
            | NamedSet::Nat1
            | NamedSet::Int
            | NamedSet::Natural
            | NamedSet::Natural1
            | NamedSet::Integer,
        )
        | Bin(BinOp::Interval, ..) => Value::Int(0),
        Bin(BinOp::Mul, a, b) => pair(elem_sample(a, env)?, elem_sample(b, env)?),
        Bin(BinOp::Space(_), a, b) => {
            Value::set(vec![pair(elem_sample(a, env)?, elem_sample(b, env)?)])
        }
        Call(Builtin::Pow | Builtin::Pow1 | Builtin::Fin | Builtin::Fin1, a) if a.len() == 1 => {
            Value::set(vec![elem_sample(&a[0], env)?])
        }
        Call(Builtin::Seq | Builtin::Seq1 | Builtin::Iseq | Builtin::Iseq1 | Builtin::Perm, a)
            if a.len() == 1 =>
        {
            Value::set(vec![pair(Value::Int(1), elem_sample(&a[0], env)?)])
        }
        // an element that shows its type, if any does (`{}` does not)
        _ => {
            let v = env.eval(set).ok()?;
            let s = v.as_set().ok()?;
            s.iter().find(|v| !typeless(v)).or(s.first())?.clone()
        }
    })
}

/// Whether `v` has an empty set where its type would show (an empty set,
/// a pair with such a side, a set whose first element is such a value).
pub(super) fn typeless(v: &Value) -> bool {
    match v {
        Value::Set(s) => s.first().is_none_or(typeless),
        Value::Pair(p) => typeless(&p.0) || typeless(&p.1),
        _ => false,
    }
}
