//! Normal forms of closed data terms, the values a process parameter takes:
//! booleans, numbers (Pos, Nat and Int share one 128-bit integer; an
//! operation that leaves that range is an error, never a wrapped value),
//! reals as reduced fractions, constructor terms, lists, sets and bags
//! (mCRL2's representation: a characteristic function XOR a finite set),
//! and function values (a map partially applied or a lambda closure, plus
//! a sorted list of point updates `f[x -> v]`).
//!
//! Equality of values is structural, so every operation here must build a
//! canonical form: set and bag elements sorted and unique, a fraction with
//! denominator 1 is an integer, an update that restates the underlying
//! function's value is dropped (where that value is known without
//! evaluation). Owns only the representation and the operations that need
//! no rewriting; it must not evaluate terms (that is `rewriter`).

use std::sync::Arc;

/// An index into the constructor table of [`crate::sorts::SortTable`].
pub type CtorId = u32;

/// A closed data term in normal form.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Value {
    Bool(bool),
    /// A value of Pos, Nat or Int (and a Real with denominator 1).
    Int(i128),
    /// A Real `num / den`, reduced, `den > 1`.
    Frac(i128, i128),
    /// A constructor applied to its arguments.
    Ctor(CtorId, Arc<[Value]>),
    List(Arc<Vec<Value>>),
    Set(Arc<SetValue>),
    /// A bag: (element, count > 0), sorted by element.
    Bag(Arc<Vec<(Value, u64)>>),
    Func(Arc<FuncValue>),
    /// A term that does not rewrite to a constructor form (`head([])`, a
    /// map no rule applies to), kept only as an argument of a user map
    /// where jitty's laziness may never need it; any operation that needs
    /// it fails with this message.
    Undefined(Arc<str>),
}

/// A set: `x` is a member when `pred(x) != (x in finite)` (mCRL2's
/// `@set(f, s)`); `pred == None` is the constant-false function, so a
/// finite set is `{ pred: None, finite: elements }`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SetValue {
    pub pred: Option<Value>,
    pub finite: Vec<Value>,
}

/// What a function value is before its point updates.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FuncBase {
    /// A user map (index into the rewriter's map table) applied to some
    /// argument groups (curried application).
    Map(u32, Vec<Vec<Value>>),
    /// A lambda (index into the rewriter's lambda table) with the values of
    /// its free variables.
    Lambda(u32, Vec<Value>),
    /// The constant function.
    Const(Value),
    /// A constructor applied to nothing yet (a constructor used as a
    /// function value).
    Ctor(CtorId),
}

/// A function value: `base[x1 -> v1]...[xn -> vn]`, updates sorted by
/// argument, one per argument.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FuncValue {
    pub base: FuncBase,
    pub updates: Vec<(Value, Value)>,
}

impl Value {
    pub fn empty_set() -> Value {
        Value::Set(Arc::new(SetValue {
            pred: None,
            finite: Vec::new(),
        }))
    }

    pub fn finite_set(mut items: Vec<Value>) -> Value {
        items.sort();
        items.dedup();
        Value::Set(Arc::new(SetValue {
            pred: None,
            finite: items,
        }))
    }

    pub fn list(items: Vec<Value>) -> Value {
        Value::List(Arc::new(items))
    }

    pub fn bag(mut items: Vec<(Value, u64)>) -> Value {
        items.sort();
        let mut out: Vec<(Value, u64)> = Vec::with_capacity(items.len());
        for (v, n) in items {
            match out.last_mut() {
                Some((w, m)) if *w == v => *m += n,
                _ => out.push((v, n)),
            }
        }
        out.retain(|(_, n)| *n > 0);
        Value::Bag(Arc::new(out))
    }

    /// A rational `num / den` in canonical form (an `Int` when whole).
    pub fn real(num: i128, den: i128) -> Result<Value, String> {
        if den == 0 {
            return Err("division by zero".into());
        }
        let g = gcd(num, den);
        let (mut n, mut d) = (num / g, den / g);
        if d < 0 {
            n = n.checked_neg().ok_or_else(overflow)?;
            d = d.checked_neg().ok_or_else(overflow)?;
        }
        Ok(if d == 1 {
            Value::Int(n)
        } else {
            Value::Frac(n, d)
        })
    }

    /// As a fraction (`Int` or `Frac`).
    pub fn as_frac(&self) -> Option<(i128, i128)> {
        match self {
            Value::Int(n) => Some((*n, 1)),
            Value::Frac(n, d) => Some((*n, *d)),
            _ => None,
        }
    }
}

/// mCRL2's integers are unbounded; ours are 128-bit: leaving that range
/// is a limit of this front-end, not an error of the model.
pub fn overflow() -> String {
    format!("an integer beyond the 128-bit range this front-end computes in: {NOT_SUPPORTED}")
}

/// Ends the text of an evaluation failure that is a limit of this
/// front-end (the run is `unsupported`), not an error of the model.
pub const NOT_SUPPORTED: &str = "not supported by this front-end";

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    if a == 0 {
        1
    } else {
        a as i128
    }
}

/// Sorted-vector set operations on the finite parts.
pub fn union(a: &[Value], b: &[Value]) -> Vec<Value> {
    let mut v: Vec<Value> = a.iter().chain(b).cloned().collect();
    v.sort();
    v.dedup();
    v
}

pub fn difference(a: &[Value], b: &[Value]) -> Vec<Value> {
    a.iter()
        .filter(|x| b.binary_search(x).is_err())
        .cloned()
        .collect()
}

pub fn intersection(a: &[Value], b: &[Value]) -> Vec<Value> {
    a.iter()
        .filter(|x| b.binary_search(x).is_ok())
        .cloned()
        .collect()
}

/// Count of `x` in a bag.
pub fn bag_count(bag: &[(Value, u64)], x: &Value) -> u64 {
    match bag.binary_search_by(|(v, _)| v.cmp(x)) {
        Ok(i) => bag[i].1,
        Err(_) => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_and_bags_are_canonical() {
        let a = Value::finite_set(vec![Value::Int(3), Value::Int(1), Value::Int(3)]);
        let b = Value::finite_set(vec![Value::Int(1), Value::Int(3)]);
        assert_eq!(a, b);
        let x = Value::bag(vec![
            (Value::Int(2), 1),
            (Value::Int(1), 1),
            (Value::Int(2), 2),
        ]);
        let y = Value::bag(vec![
            (Value::Int(1), 1),
            (Value::Int(2), 3),
            (Value::Int(5), 0),
        ]);
        assert_eq!(x, y);
    }

    #[test]
    fn reals_reduce() {
        assert_eq!(Value::real(4, 2).unwrap(), Value::Int(2));
        assert_eq!(Value::real(2, -4).unwrap(), Value::Frac(-1, 2));
        assert!(Value::real(1, 0).is_err());
    }

    #[test]
    fn finite_set_operations() {
        let a = [Value::Int(1), Value::Int(2)];
        let b = [Value::Int(2), Value::Int(3)];
        assert_eq!(union(&a, &b).len(), 3);
        assert_eq!(difference(&a, &b), vec![Value::Int(1)]);
        assert_eq!(intersection(&a, &b), vec![Value::Int(2)]);
    }
}
