//! The transitive closure `closure1(r)` of a relation by Warshall's
//! algorithm over bit rows of the relation's nodes, instead of composing
//! `r` with itself until nothing changes (each round sorting every pair
//! anew: DominatingSet's `closure1(ds <| g |> ds)`, evaluated for each
//! candidate `ds` and each of its elements, took nine tenths of its time).
//!
//! The last few closures are remembered by their relation's value: that
//! closure is the same for every `x` of `!x.(x : ds => .. closure1(ds <|
//! g |> ds)[{x}] ..)`.
//!
//! Owns the algorithm and that memory; `value::closure1` is the operation,
//! kept for relations of more than [`NODES`] nodes (the bit rows grow as
//! their square).

use std::cell::RefCell;

use crate::recent::Recent;
use crate::value::{self as v, VResult, Value};

thread_local! {
    static MEMORY: RefCell<Recent<Vec<Value>, Value>> = RefCell::default();
}

/// `closure1(r)`, from memory when `r` was closed lately.
pub fn closure1(r: &[Value]) -> VResult<Value> {
    if let Some(known) = MEMORY.with(|m| m.borrow().find(|s| s.as_slice() == r)) {
        return Ok(known);
    }
    let c = warshall(r)?;
    MEMORY.with(|m| m.borrow_mut().remember(r.to_vec(), c.clone()));
    Ok(c)
}

/// `closure(r)[s]`: `closure(r)` is `id(T) \/ closure1(r)` over the
/// whole type `T` of `r`'s nodes, and `s <: T`, so its image of `s` is
/// `s \/ closure1(r)[s]` (the reflexive pairs of `T` outside `s` are not
/// needed).
pub fn reflexive_image(r: &[Value], s: &[Value]) -> VResult<Value> {
    let reached = v::image(closure1(r)?.as_set()?, s)?;
    Ok(v::union(s, reached.as_set()?))
}

/// The most nodes (elements of the domain and range) closed by bit rows.
const NODES: usize = 4096;

/// `closure1(r)` computed.
fn warshall(r: &[Value]) -> VResult<Value> {
    let mut nodes: Vec<&Value> = Vec::with_capacity(2 * r.len());
    for (a, b) in v::pairs(r)? {
        nodes.push(a);
        nodes.push(b);
    }
    nodes.sort_unstable();
    nodes.dedup();
    let n = nodes.len();
    if n > NODES {
        return v::closure1(r);
    }
    let words = n.div_ceil(64);
    let mut reach = vec![0u64; n * words];
    let at = |x: &Value| nodes.binary_search(&x).expect("a node");
    for (a, b) in v::pairs(r)? {
        let (i, j) = (at(a), at(b));
        reach[i * words + j / 64] |= 1 << (j % 64);
    }
    for k in 0..n {
        let (kw, kb) = (k / 64, 1u64 << (k % 64));
        for i in 0..n {
            if i != k && reach[i * words + kw] & kb != 0 {
                for w in 0..words {
                    let via = reach[k * words + w];
                    reach[i * words + w] |= via;
                }
            }
        }
    }
    // nodes ascending, so the pairs come sorted as a set keeps them
    let mut out = Vec::new();
    for (i, a) in nodes.iter().enumerate() {
        for (w, &bits) in reach[i * words..(i + 1) * words].iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                let j = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                out.push(Value::pair((*a).clone(), nodes[j].clone()));
            }
        }
    }
    Ok(Value::set_sorted(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A relation over `0..n` from a seed (a linear congruential choice of
    /// pairs, loops and cycles included).
    fn relation(n: i64, seed: u64, density: u64) -> Vec<Value> {
        let mut x = seed;
        let mut out = Vec::new();
        for a in 0..n {
            for b in 0..n {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                if (x >> 33) % 100 < density {
                    out.push(Value::pair(Value::Int(a), Value::Int(b)));
                }
            }
        }
        match Value::set(out) {
            Value::Set(s) => s.to_vec(),
            _ => unreachable!("a set"),
        }
    }

    #[test]
    fn equals_the_closure_by_composition() {
        for seed in 0..40 {
            let r = relation(2 + (seed as i64 % 9) * 9, seed, 1 + seed % 7);
            assert_eq!(warshall(&r), v::closure1(&r), "seed {seed}");
            assert_eq!(closure1(&r), v::closure1(&r), "seed {seed}");
        }
    }

    #[test]
    fn a_path_closes_to_every_later_node_and_a_cycle_to_all() {
        let path: Vec<Value> = (0..70)
            .map(|k| Value::pair(Value::Int(k), Value::Int(k + 1)))
            .collect();
        let Value::Set(c) = closure1(&path).expect("a relation") else {
            unreachable!("a set")
        };
        assert_eq!(c.len(), 71 * 70 / 2);
        let mut cycle = path.clone();
        cycle.push(Value::pair(Value::Int(70), Value::Int(0)));
        let cycle = match Value::set(cycle) {
            Value::Set(s) => s,
            _ => unreachable!("a set"),
        };
        let Value::Set(c) = closure1(&cycle).expect("a relation") else {
            unreachable!("a set")
        };
        assert_eq!(c.len(), 71 * 71);
    }

    #[test]
    fn the_empty_relation_and_a_non_relation() {
        assert_eq!(closure1(&[]), Ok(Value::empty()));
        assert!(closure1(&[Value::Int(1)]).is_err());
    }
}
