//! The generator read from a sequence equation `a ^ x ^ b = E` (either way
//! round, `Gen::Slice`): with `E` known, every operand of the
//! concatenation is a contiguous slice of `E`'s value, so the unbound
//! identifier `x` among them ranges over those slices (`x, y : (x ^ y =
//! initial)`, `cur = pre ^ LHS ^ post`). The equation stays a check, so
//! the solutions are exactly the predicate's.

use super::plan::{Cand, Gen};
use super::shapes::{operand_of, Known};
use crate::ast::*;
use crate::eval::{Env, E};
use crate::value::{self as v, Value};

/// `Gen::Slice` for conjunct `c`, `a = b`: one side a concatenation with
/// an unbound identifier among its operands, the other side ready.
pub(super) fn slice(c: usize, sides: (&Expr, &Expr), kn: &Known) -> Option<Cand> {
    let found = operand_of(sides, BinOp::Concat, kn, &|_| true);
    found.map(|(k, left)| (3, vec![k], Gen::Slice { c, left }))
}

/// For `Gen::Slice`: the contiguous slices of the sequence `seq` denotes
/// (the empty one first, then by start and length); none when its value
/// is not a sequence (no concatenation equals it).
pub(super) fn slices(seq: &Expr, env: &mut Env) -> E<Vec<Value>> {
    let Ok(elems) = v::as_seq(&env.eval(seq)?) else {
        return Ok(Vec::new());
    };
    let mut out = vec![v::seq_of(Vec::new())];
    for i in 0..elems.len() {
        for j in i + 1..=elems.len() {
            out.push(v::seq_of(elems[i..j].to_vec()));
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

#[cfg(test)]
mod tests {
    //! Splits of a known sequence, counted by hand.
    use crate::tests::count;

    #[test]
    fn a_split_ranges_over_the_slices() {
        // x ^ y = [1, 2, 3]: 4 splits, one initial state each
        let m = "MACHINE C VARIABLES x, y INVARIANT x : seq(INTEGER) & y : seq(INTEGER)
                 INITIALISATION x, y : (x ^ y = [1, 2, 3]) END";
        assert_eq!(count(m), (5, 4));
    }

    #[test]
    fn a_middle_operand_is_a_slice() {
        // p ^ [2] ^ q = [2, 1, 2]: p = [] or [2, 1]; op(p, q) twice
        let m = "MACHINE D VARIABLES n INVARIANT n : NAT INITIALISATION n := 0
                 OPERATIONS op(p, q) = PRE p ^ [2] ^ q = [2, 1, 2] & n = 0
                 THEN n := size(p) END END";
        // states: root, n = 0, n = 2; op from n = 0 to n = 0 and n = 2
        assert_eq!(count(m), (3, 3));
    }
}
