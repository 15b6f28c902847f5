//! ProB's static symmetry breaking of a partition of a deferred set
//! (ProB 1.8 and later; its documentation, "Symmetry Reduction"): when the
//! PROPERTIES say `S = A1 \/ .. \/ Ak` with the `Ai` constants and every
//! pair `Ai /\ Aj = {}` (Event-B's `partition(S, A1, .., Ak)`), ProB
//! allocates the *free* elements of `S` to the parts in order: of two free
//! elements, the smaller goes to a part listed no later than the larger's
//! ("D5 in A and D6 in B, but not D6 in A and D5 in B"). The free elements
//! are those no constant element of `S` can take under the MACE-style
//! enumeration (`symmetry`): the indices from the number of such constants
//! on. Checked against ProB on DefSetPartTest1 (`card(ID) = 4`: 5 of 16
//! partitions), DefSetPartTest2 (three constant elements, two distinct:
//! 72 solutions) and DefSetPartTestUniverse.
//!
//! The partition also sizes `S` when PROPERTIES give no `card(S)` but
//! give every part a literal size (`card(books) = 3 & card(persons) = 4 &
//! card(journals) = 2`: DefSetPartTestUniverse, 9 elements, 2,840
//! states): `S` has their sum.
//!
//! Owns the detection and that selection; `setsize` sizes the set and
//! `symmetry` combines the selections.

use crate::ast::*;
use crate::value::Value;

/// A partition of a deferred set into the constants `parts` (indices
/// among the constants, in the order of the union).
#[derive(Debug, Clone)]
pub struct Partition {
    pub parts: Vec<usize>,
}

/// The partition of `s` that the conjuncts state, when one conjunct is
/// `S = A1 \/ .. \/ Ak` (either way round, `k >= 2`, the `Ai` distinct
/// identifiers) and others say every pair of parts disjoint.
pub fn partition_of(conjuncts: &[&Expr], s: Sym) -> Option<Vec<Sym>> {
    let parts = conjuncts.iter().find_map(|c| union_of(c, s))?;
    let disjoint = |a: Sym, b: Sym| conjuncts.iter().any(|c| says_disjoint(c, a, b));
    let all = parts
        .iter()
        .enumerate()
        .all(|(i, &a)| parts[..i].iter().all(|&b| disjoint(a, b)));
    all.then_some(parts)
}

/// `[A1, .., Ak]` when `c` is `S = A1 \/ .. \/ Ak` or `A1 \/ .. = S`.
pub fn union_of(c: &Expr, s: Sym) -> Option<Vec<Sym>> {
    let ExprKind::Bin(BinOp::Eq, a, b) = &c.kind else {
        return None;
    };
    let is_s = |e: &Expr| matches!(e.kind, ExprKind::Ident(x) if x == s);
    let union = if is_s(a) {
        b
    } else if is_s(b) {
        a
    } else {
        return None;
    };
    let mut parts = Vec::new();
    operands(union, &mut parts)?;
    let distinct = parts
        .iter()
        .enumerate()
        .all(|(i, p)| !parts[..i].contains(p));
    (parts.len() >= 2 && distinct && !parts.contains(&s)).then_some(parts)
}

/// The identifiers of a union `A \/ B \/ ..`; `None` if an operand is
/// not an identifier.
fn operands(e: &Expr, out: &mut Vec<Sym>) -> Option<()> {
    match &e.kind {
        ExprKind::Bin(BinOp::Union, a, b) => {
            operands(a, out)?;
            operands(b, out)
        }
        ExprKind::Ident(x) => {
            out.push(*x);
            Some(())
        }
        _ => None,
    }
}

/// Whether `c` is `A /\ B = {}` (either order, either side).
fn says_disjoint(c: &Expr, a: Sym, b: Sym) -> bool {
    let ExprKind::Bin(BinOp::Eq, l, r) = &c.kind else {
        return false;
    };
    let inter = |e: &Expr| match &e.kind {
        ExprKind::Bin(BinOp::Inter, x, y) => match (&x.kind, &y.kind) {
            (ExprKind::Ident(x), ExprKind::Ident(y)) => (*x, *y) == (a, b) || (*x, *y) == (b, a),
            _ => false,
        },
        _ => false,
    };
    let empty = |e: &Expr| matches!(e.kind, ExprKind::EmptySet);
    (inter(l) && empty(r)) || (inter(r) && empty(l))
}

/// The partitions of the deferred sets (see the module comment), each
/// with the index of its set's first free element: the number of the
/// set's constant elements (`elements[d]`, indices among `consts`).
/// A partition whose parts are not all constants, or of a set a fixed
/// bijection orders (`fixed[d]`), is refused: the message.
pub fn partitions(
    conjuncts: &[&Expr],
    consts: &[Sym],
    deferred: &[Sym],
    elements: &[Vec<usize>],
    fixed: impl Fn(usize) -> bool,
) -> Result<Vec<(Partition, u32)>, String> {
    let mut out = Vec::new();
    for (d, &s) in deferred.iter().enumerate() {
        let Some(names) = partition_of(conjuncts, s) else {
            continue;
        };
        let parts: Option<Vec<usize>> = names
            .iter()
            .map(|x| consts.iter().position(|c| c == x))
            .collect();
        let Some(parts) = parts.filter(|_| !fixed(d)) else {
            return Err("a partition of a deferred set into other than constants, or with a bijection over it".into());
        };
        let free = elements[d].len() as u32;
        out.push((Partition { parts }, free));
    }
    Ok(out)
}

impl Partition {
    /// Whether the constant values `sol` allocate the free elements of
    /// the set (indices from `free`) to the parts in order.
    pub fn keeps(&self, sol: &[Value], free: u32) -> bool {
        let vals: Option<Vec<&Value>> = self.parts.iter().map(|&k| sol.get(k)).collect();
        vals.is_some_and(|vals| allocated_in_order(&vals, free, true))
    }
}

/// Whether the values `vals` of the first parts of a partition (all of
/// them when `all`) hold its free elements (indices from `free`) in
/// order: of two free elements, the smaller in a part listed no later.
/// When not `all`, the later parts hold the free elements these do not,
/// so these must also hold the first free indices, `free..free + m`.
pub fn allocated_in_order(vals: &[&Value], free: u32, all: bool) -> bool {
    let mut owner: Vec<(u32, usize)> = Vec::new();
    for (p, v) in vals.iter().enumerate() {
        let Value::Set(xs) = v else {
            return false;
        };
        for x in xs.iter() {
            match x {
                Value::Elem(_, i) if *i >= free => owner.push((*i, p)),
                Value::Elem(..) => {}
                _ => return false,
            }
        }
    }
    owner.sort_unstable();
    let rising = owner.windows(2).all(|w| w[0].1 <= w[1].1);
    let first = owner.iter().zip(free..).all(|(&(i, _), j)| i == j);
    rising && (all || first)
}

#[cfg(test)]
mod tests {
    use super::Partition;
    use crate::value::Value;

    #[test]
    fn free_elements_go_to_the_parts_in_order() {
        let set = |v: &[u32]| Value::set(v.iter().map(|&i| Value::Elem(0, i)).collect());
        let p = Partition { parts: vec![0, 1] };
        assert!(p.keeps(&[set(&[0, 1]), set(&[2, 3])], 0));
        assert!(!p.keeps(&[set(&[0, 2]), set(&[1, 3])], 0));
        // elements below `free` may go anywhere
        assert!(p.keeps(&[set(&[1, 2]), set(&[0, 3])], 2));
        assert!(!p.keeps(&[set(&[1, 3]), set(&[0, 2])], 2));
    }

    #[test]
    fn first_parts_hold_the_first_free_elements() {
        let set = |v: &[u32]| Value::set(v.iter().map(|&i| Value::Elem(0, i)).collect());
        let (a, b, c) = (set(&[0, 1]), set(&[2]), set(&[1, 2]));
        assert!(super::allocated_in_order(&[&a, &b], 0, false));
        // element 0 left to a later part, after the larger 1 and 2
        assert!(!super::allocated_in_order(&[&c], 0, false));
        assert!(super::allocated_in_order(&[&c], 0, true));
        // below `free`: anywhere
        assert!(super::allocated_in_order(&[&c], 1, false));
    }
}
