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
    /// Every comparison operator.
    pub const ALL: [Cmp; 6] = [Cmp::Eq, Cmp::Ne, Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge];

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

/// `v op k` as the test without branches that `v - lo` (wrapping) is at
/// most `span`, or its complement when `negate`.
#[derive(Clone, Copy, Debug)]
pub struct Interval {
    lo: i32,
    span: u32,
    negate: bool,
}

impl Interval {
    /// The test of `v op k`.
    pub fn of(op: Cmp, k: i32) -> Interval {
        // [k, k], [k, MAX] or [MIN, k], or the complement
        let (lo, hi, negate) = match op {
            Cmp::Eq => (k, k, false),
            Cmp::Ne => (k, k, true),
            Cmp::Ge => (k, i32::MAX, false),
            Cmp::Lt => (k, i32::MAX, true),
            Cmp::Le => (i32::MIN, k, false),
            Cmp::Gt => (i32::MIN, k, true),
        };
        Interval {
            lo,
            span: hi.wrapping_sub(lo) as u32,
            negate,
        }
    }

    /// Whether `v op k` holds.
    #[inline(always)]
    pub fn holds(&self, v: i32) -> bool {
        (v.wrapping_sub(self.lo) as u32 <= self.span) != self.negate
    }
}

#[cfg(test)]
mod tests {
    use super::{Cmp, Interval};

    #[test]
    fn mirrored_swaps_the_operands() {
        for c in Cmp::ALL {
            for (v, k) in [(1, 2), (2, 1), (3, 3), (-1, 0)] {
                assert_eq!(c.holds(v, k), c.mirrored().holds(k, v), "{c:?} {v} {k}");
            }
        }
        assert!(Cmp::Le.holds(3, 3) && !Cmp::Lt.holds(3, 3) && Cmp::Ne.holds(-1, 0));
    }

    #[test]
    fn intervals_agree_with_the_comparisons() {
        let edges = [
            i32::MIN,
            i32::MIN + 1,
            -2,
            -1,
            0,
            1,
            2,
            255,
            i32::MAX - 1,
            i32::MAX,
        ];
        for c in Cmp::ALL {
            for k in edges {
                for v in edges {
                    assert_eq!(Interval::of(c, k).holds(v), c.holds(v, k), "{c:?} {v} {k}");
                }
            }
        }
    }
}
