//! B values in canonical form: integers, booleans, strings, elements of
//! enumerated and deferred sets, pairs, records and finite sets (kept
//! sorted and duplicate-free, so that equal B values are equal Rust values
//! and hash alike). Relations, functions and sequences are sets of pairs
//! (a sequence is a function from `1..n`).
//!
//! Owns the representation and the value-level operations of B's set,
//! relation and sequence algebra; it must not know syntax or states.

use std::sync::Arc;

/// A B value. The derived order is a total order used to keep sets sorted;
/// values of one B type always share a variant.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Value {
    Bool(bool),
    Int(i64),
    /// Element `index` of the enumerated or deferred set number `set`.
    Elem(u32, u32),
    Str(Arc<str>),
    Pair(Arc<(Value, Value)>),
    /// A record: fields sorted by name.
    Rec(Arc<Vec<(Arc<str>, Value)>>),
    /// A finite set, sorted, without duplicates.
    Set(Arc<Vec<Value>>),
}

/// Failures of value operations: a message (the caller adds the position).
pub type VResult<T> = Result<T, String>;

impl Value {
    pub fn pair(a: Value, b: Value) -> Value {
        Value::Pair(Arc::new((a, b)))
    }
    /// The set of `v` (sorted and deduplicated here).
    pub fn set(mut v: Vec<Value>) -> Value {
        v.sort_unstable();
        v.dedup();
        Value::Set(Arc::new(v))
    }
    /// A set from an already sorted, duplicate-free vector.
    pub fn set_sorted(v: Vec<Value>) -> Value {
        debug_assert!(v.windows(2).all(|w| w[0] < w[1]));
        Value::Set(Arc::new(v))
    }
    pub fn empty() -> Value {
        Value::Set(Arc::new(Vec::new()))
    }
    pub fn as_int(&self) -> VResult<i64> {
        match self {
            Value::Int(n) => Ok(*n),
            v => Err(format!("expected an integer, found {}", v.kind())),
        }
    }
    pub fn as_bool(&self) -> VResult<bool> {
        match self {
            Value::Bool(b) => Ok(*b),
            v => Err(format!("expected a boolean, found {}", v.kind())),
        }
    }
    pub fn as_set(&self) -> VResult<&[Value]> {
        match self {
            Value::Set(s) => Ok(s),
            v => Err(format!("expected a set, found {}", v.kind())),
        }
    }
    pub fn as_pair(&self) -> VResult<(&Value, &Value)> {
        match self {
            Value::Pair(p) => Ok((&p.0, &p.1)),
            v => Err(format!("expected a pair, found {}", v.kind())),
        }
    }
    fn kind(&self) -> &'static str {
        match self {
            Value::Bool(_) => "a boolean",
            Value::Int(_) => "an integer",
            Value::Elem(..) => "a set element",
            Value::Str(_) => "a string",
            Value::Pair(_) => "a pair",
            Value::Rec(_) => "a record",
            Value::Set(_) => "a set",
        }
    }
    pub fn contains(&self, x: &Value) -> VResult<bool> {
        Ok(self.as_set()?.binary_search(x).is_ok())
    }
}

pub fn union(a: &[Value], b: &[Value]) -> Value {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => {
                out.push(a[i].clone());
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(b[j].clone());
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                out.push(a[i].clone());
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    Value::set_sorted(out)
}

/// The union of many sets, added one by one (`UNION(x).(P | E)`): their
/// elements gathered, sorted once at the end (merging each set into the
/// union so far took time quadratic in the number of sets: Event-B's
/// `{m1, m2 . P | (m1 |-> m2) |-> E}` of 65,536 singletons), the
/// duplicates dropped whenever they could have doubled the gathered
/// elements, so that memory stays within twice the union's size.
#[derive(Default)]
pub struct Union {
    elements: Vec<Value>,
    distinct: usize,
}

impl Union {
    pub fn add(&mut self, s: &[Value]) {
        self.elements.extend_from_slice(s);
        if self.elements.len() > 2 * self.distinct.max(4096) {
            self.elements.sort_unstable();
            self.elements.dedup();
            self.distinct = self.elements.len();
        }
    }

    pub fn value(self) -> Value {
        Value::set(self.elements)
    }
}

pub fn inter(a: &[Value], b: &[Value]) -> Value {
    Value::set_sorted(
        a.iter()
            .filter(|x| b.binary_search(x).is_ok())
            .cloned()
            .collect(),
    )
}

pub fn diff(a: &[Value], b: &[Value]) -> Value {
    Value::set_sorted(
        a.iter()
            .filter(|x| b.binary_search(x).is_err())
            .cloned()
            .collect(),
    )
}

/// The pairs of a relation.
pub fn pairs(r: &[Value]) -> VResult<impl Iterator<Item = (&Value, &Value)>> {
    for v in r {
        v.as_pair()?;
    }
    Ok(r.iter().map(|v| v.as_pair().expect("checked")))
}

pub fn dom(r: &[Value]) -> VResult<Value> {
    Ok(Value::set(pairs(r)?.map(|(a, _)| a.clone()).collect()))
}

pub fn ran(r: &[Value]) -> VResult<Value> {
    Ok(Value::set(pairs(r)?.map(|(_, b)| b.clone()).collect()))
}

pub fn inverse(r: &[Value]) -> VResult<Value> {
    Ok(Value::set(
        pairs(r)?
            .map(|(a, b)| Value::pair(b.clone(), a.clone()))
            .collect(),
    ))
}

/// The pairs of `r` whose first component is `x` (pairs sort by first
/// component, so they are contiguous).
pub fn lookup<'a>(r: &'a [Value], x: &Value) -> &'a [Value] {
    let lo = r.partition_point(|p| match p {
        Value::Pair(p) => p.0 < *x,
        other => other < x,
    });
    let hi = lo
        + r[lo..].partition_point(|p| match p {
            Value::Pair(p) => p.0 == *x,
            _ => false,
        });
    &r[lo..hi]
}

/// Function application `f(x)`: exactly one pair with first component `x`.
pub fn apply(f: &[Value], x: &Value) -> VResult<Value> {
    match lookup(f, x) {
        [one] => Ok(one.as_pair()?.1.clone()),
        [] => Err("function applied outside its domain".into()),
        _ => {
            Err("function application of a relation that is not a function at this argument".into())
        }
    }
}

pub fn image(r: &[Value], s: &[Value]) -> VResult<Value> {
    if let [x] = s {
        return image_of(r, x);
    }
    let mut out = Vec::new();
    for x in s {
        for p in lookup(r, x) {
            out.push(p.as_pair()?.1.clone());
        }
    }
    Ok(Value::set(out))
}

/// `r[{x}]`: the pairs of `x` are contiguous and sorted by their second
/// component, so the image is sorted and duplicate-free as it comes.
pub fn image_of(r: &[Value], x: &Value) -> VResult<Value> {
    let mut out = Vec::new();
    for p in lookup(r, x) {
        out.push(p.as_pair()?.1.clone());
    }
    Ok(Value::set_sorted(out))
}

pub fn override_(r: &[Value], s: &[Value]) -> VResult<Value> {
    let d = dom(s)?;
    let d = d.as_set()?;
    let mut out: Vec<Value> = Vec::with_capacity(r.len() + s.len());
    for p in r {
        if d.binary_search(p.as_pair()?.0).is_err() {
            out.push(p.clone());
        }
    }
    out.extend(s.iter().cloned());
    Ok(Value::set(out))
}

pub fn dom_restrict(s: &[Value], r: &[Value], keep: bool) -> VResult<Value> {
    restrict(r, s, keep, |(a, _)| a)
}

pub fn ran_restrict(r: &[Value], s: &[Value], keep: bool) -> VResult<Value> {
    restrict(r, s, keep, |(_, b)| b)
}

/// The pairs of `r` whose `side` (domain or range element) is in `s`
/// (`keep`) or not in it.
fn restrict<'a>(
    r: &'a [Value],
    s: &[Value],
    keep: bool,
    side: fn((&'a Value, &'a Value)) -> &'a Value,
) -> VResult<Value> {
    let mut out = Vec::new();
    for p in r {
        if s.binary_search(side(p.as_pair()?)).is_ok() == keep {
            out.push(p.clone());
        }
    }
    Ok(Value::set_sorted(out))
}

pub fn compose(r: &[Value], s: &[Value]) -> VResult<Value> {
    let mut out = Vec::new();
    for (a, b) in pairs(r)? {
        for p in lookup(s, b) {
            out.push(Value::pair(a.clone(), p.as_pair()?.1.clone()));
        }
    }
    Ok(Value::set(out))
}

pub fn direct_product(r: &[Value], s: &[Value]) -> VResult<Value> {
    let mut out = Vec::new();
    for (a, b) in pairs(r)? {
        for p in lookup(s, a) {
            out.push(Value::pair(
                a.clone(),
                Value::pair(b.clone(), p.as_pair()?.1.clone()),
            ));
        }
    }
    Ok(Value::set(out))
}

pub fn parallel_product(r: &[Value], s: &[Value]) -> VResult<Value> {
    let mut out = Vec::new();
    for (a, b) in pairs(r)? {
        for (c, d) in pairs(s)? {
            out.push(Value::pair(
                Value::pair(a.clone(), c.clone()),
                Value::pair(b.clone(), d.clone()),
            ));
        }
    }
    Ok(Value::set(out))
}

pub fn cartesian(a: &[Value], b: &[Value]) -> Value {
    let mut out = Vec::with_capacity(a.len() * b.len());
    for x in a {
        for y in b {
            out.push(Value::pair(x.clone(), y.clone()));
        }
    }
    Value::set_sorted(out)
}

/// Whether every first component occurs once.
pub fn is_function(r: &[Value]) -> VResult<bool> {
    let mut prev: Option<&Value> = None;
    for (a, _) in pairs(r)? {
        if prev == Some(a) {
            return Ok(false);
        }
        prev = Some(a);
    }
    Ok(true)
}

pub fn is_injective(r: &[Value]) -> VResult<bool> {
    let mut seen: Vec<&Value> = pairs(r)?.map(|(_, b)| b).collect();
    let n = seen.len();
    seen.sort();
    seen.dedup();
    Ok(seen.len() == n)
}

/// The elements of a sequence in order, or `None` when `s` is not a sequence.
pub fn seq_elems(s: &[Value]) -> Option<Vec<Value>> {
    let mut out = Vec::with_capacity(s.len());
    for (i, v) in s.iter().enumerate() {
        match v {
            Value::Pair(p) if p.0 == Value::Int(i as i64 + 1) => out.push(p.1.clone()),
            _ => return None,
        }
    }
    Some(out)
}

/// The sequence of `elems`.
pub fn seq_of(elems: Vec<Value>) -> Value {
    Value::set_sorted(
        elems
            .into_iter()
            .enumerate()
            .map(|(i, v)| Value::pair(Value::Int(i as i64 + 1), v))
            .collect(),
    )
}

pub fn as_seq(v: &Value) -> VResult<Vec<Value>> {
    seq_elems(v.as_set()?).ok_or_else(|| "expected a sequence".to_string())
}

/// The most elements (over all subsets) [`subsets`] may build.
const SUBSET_ELEMENTS: u64 = 1 << 27;

/// Every subset of `s` (in a deterministic order); `limit` bounds the size of `s`.
pub fn subsets(s: &[Value], limit: usize) -> VResult<Vec<Value>> {
    if s.len() > limit {
        return Err(format!(
            "enumerating the subsets of a set of {} elements",
            s.len()
        ));
    }
    // about 16 bytes per element held: 2^24 subsets of 24 elements would
    // exhaust memory (Minesweeper_v3's `b <: (1..6)*(1..4)`)
    if (1u64 << s.len()) * (s.len() as u64 + 4) / 2 > SUBSET_ELEMENTS {
        return Err(format!(
            "enumerating the subsets of a set of {} elements (more than {SUBSET_ELEMENTS} elements to hold)",
            s.len()
        ));
    }
    let mut out = Vec::with_capacity(1 << s.len());
    for mask in 0u64..(1u64 << s.len()) {
        out.push(Value::set_sorted(
            s.iter()
                .enumerate()
                .filter(|(i, _)| mask & (1 << i) != 0)
                .map(|(_, v)| v.clone())
                .collect(),
        ));
    }
    Ok(out)
}

/// Transitive closure of a relation (`closure1`).
pub fn closure1(r: &[Value]) -> VResult<Value> {
    let mut cur = Value::set_sorted(r.to_vec());
    loop {
        let c = cur.as_set()?;
        let next = union(c, compose(c, r)?.as_set()?);
        if next == cur {
            return Ok(cur);
        }
        cur = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn i(n: i64) -> Value {
        Value::Int(n)
    }
    fn rel(v: &[(i64, i64)]) -> Value {
        Value::set(v.iter().map(|&(a, b)| Value::pair(i(a), i(b))).collect())
    }

    #[test]
    fn sets_are_canonical() {
        assert_eq!(
            Value::set(vec![i(2), i(1), i(2)]),
            Value::set(vec![i(1), i(2)])
        );
        let a = Value::set(vec![i(1), i(2)]);
        let b = Value::set(vec![i(2), i(3)]);
        assert_eq!(
            union(a.as_set().unwrap(), b.as_set().unwrap()),
            Value::set(vec![i(1), i(2), i(3)])
        );
        assert_eq!(
            inter(a.as_set().unwrap(), b.as_set().unwrap()),
            Value::set(vec![i(2)])
        );
        assert_eq!(
            diff(a.as_set().unwrap(), b.as_set().unwrap()),
            Value::set(vec![i(1)])
        );
    }

    #[test]
    fn relations() {
        let f = rel(&[(1, 10), (2, 20)]);
        let f = f.as_set().unwrap();
        assert_eq!(apply(f, &i(2)), Ok(i(20)));
        assert!(apply(f, &i(3)).is_err());
        let g = rel(&[(2, 30)]);
        assert_eq!(
            override_(f, g.as_set().unwrap()).unwrap(),
            rel(&[(1, 10), (2, 30)])
        );
        assert_eq!(inverse(f).unwrap(), rel(&[(10, 1), (20, 2)]));
        let r = rel(&[(1, 2), (2, 3)]);
        assert_eq!(
            closure1(r.as_set().unwrap()).unwrap(),
            rel(&[(1, 2), (1, 3), (2, 3)])
        );
        assert_eq!(
            image(r.as_set().unwrap(), &[i(1), i(2)]).unwrap(),
            Value::set(vec![i(2), i(3)])
        );
    }

    #[test]
    fn sequences() {
        let s = seq_of(vec![i(5), i(6)]);
        assert_eq!(as_seq(&s).unwrap(), vec![i(5), i(6)]);
        assert!(as_seq(&rel(&[(2, 1)])).is_err());
        assert_eq!(subsets(&[i(1), i(2)], 10).unwrap().len(), 4);
        // 2^24 subsets of 24 elements: refused before any is built
        let big: Vec<Value> = (0..24).map(i).collect();
        assert!(subsets(&big, 24).is_err_and(|m| m.contains("to hold")));
    }
}
