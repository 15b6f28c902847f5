//! The comparisons the text front-ends compile the leading conditions of
//! their guards into (`x == 1`, `t[0] < 4`: a value read from a slot
//! against a constant), evaluated with C's meaning on 32-bit integers.

/// A comparison operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Cmp {
    /// Whether `v cmp k`.
    #[inline]
    pub fn holds(self, v: i32, k: i32) -> bool {
        match self {
            Cmp::Eq => v == k,
            Cmp::Ne => v != k,
            Cmp::Lt => v < k,
            Cmp::Le => v <= k,
            Cmp::Gt => v > k,
            Cmp::Ge => v >= k,
        }
    }

    /// The comparison `m` with `k cmp v` exactly when `v m k`.
    pub fn mirrored(self) -> Cmp {
        match self {
            Cmp::Lt => Cmp::Gt,
            Cmp::Le => Cmp::Ge,
            Cmp::Gt => Cmp::Lt,
            Cmp::Ge => Cmp::Le,
            c => c,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Cmp;

    #[test]
    fn mirrored_swaps_the_operands() {
        let all = [Cmp::Eq, Cmp::Ne, Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge];
        for c in all {
            for (v, k) in [(1, 2), (2, 1), (3, 3), (-1, 0)] {
                assert_eq!(c.holds(v, k), c.mirrored().holds(k, v), "{c:?} {v} {k}");
            }
        }
        assert!(Cmp::Le.holds(3, 3) && !Cmp::Lt.holds(3, 3) && Cmp::Ne.holds(-1, 0));
    }
}
