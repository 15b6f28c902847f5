//! The bitwise integer functions of ProB's `LibraryBits.def` (`BNOT`,
//! `BAND`, `BOR`, `BXOR`, `BLSHIFT`, `BRSHIFT`): ProB computes them on
//! unbounded two's-complement integers, which agree with `i64` while the
//! result fits. A shift by a negative amount, or a left shift leaving
//! 64 bits, is refused (`None`). Owns no parsing and no B value.

/// One function of `LibraryBits.def`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BitOp {
    /// `BNOT(x)`: every bit flipped (`-x - 1`).
    Not,
    /// `BAND(x, y)`: bitwise and.
    And,
    /// `BOR(x, y)`: bitwise or.
    Or,
    /// `BXOR(x, y)`: bitwise exclusive or.
    Xor,
    /// `BLSHIFT(x, n)`: `x * 2^n`.
    ShiftLeft,
    /// `BRSHIFT(x, n)`: `x / 2^n` rounded down (arithmetic shift).
    ShiftRight,
}

impl BitOp {
    /// The function the external `name` of `LibraryBits.def` stands for.
    pub(crate) fn named(name: &str) -> Option<BitOp> {
        Some(match name {
            "BNOT" => BitOp::Not,
            "BAND" => BitOp::And,
            "BOR" => BitOp::Or,
            "BXOR" => BitOp::Xor,
            "BLSHIFT" => BitOp::ShiftLeft,
            "BRSHIFT" => BitOp::ShiftRight,
            _ => return None,
        })
    }

    /// The number of integer arguments.
    pub(crate) fn arity(self) -> usize {
        match self {
            BitOp::Not => 1,
            _ => 2,
        }
    }

    /// The result on `args` (of [`BitOp::arity`] integers); `None` where
    /// it is not an `i64` or the shift amount is negative.
    pub(crate) fn apply(self, args: &[i64]) -> Option<i64> {
        match (self, args) {
            (BitOp::Not, &[x]) => Some(!x),
            (BitOp::And, &[x, y]) => Some(x & y),
            (BitOp::Or, &[x, y]) => Some(x | y),
            (BitOp::Xor, &[x, y]) => Some(x ^ y),
            (BitOp::ShiftLeft, &[x, n]) if n >= 0 => shift_left(x, n),
            (BitOp::ShiftRight, &[x, n]) if n >= 0 => Some(x >> n.min(63)),
            _ => None,
        }
    }
}

/// `x * 2^n` when it fits in an `i64`.
fn shift_left(x: i64, n: i64) -> Option<i64> {
    if x == 0 {
        return Some(0);
    }
    let n = u32::try_from(n).ok().filter(|&n| n < 64)?;
    let r = x.checked_shl(n)?;
    (r >> n == x).then_some(r)
}

#[cfg(test)]
mod tests {
    use super::BitOp::{self, *};

    /// The operations against arithmetic definitions: `BNOT` as `-x-1`,
    /// shifts as multiplication and floored division by powers of two,
    /// and the others bit by bit over the 64 positions.
    #[test]
    fn against_arithmetic() {
        let bit = |x: i64, i: u32| (x >> i) & 1;
        let by_bits = |x: i64, y: i64, f: fn(i64, i64) -> i64| {
            (0..64).fold(0i64, |acc, i| acc | (f(bit(x, i), bit(y, i)) << i))
        };
        for x in -40i64..40 {
            assert_eq!(Not.apply(&[x]), Some(-x - 1));
            for y in -40i64..40 {
                assert_eq!(And.apply(&[x, y]), Some(by_bits(x, y, |a, b| a * b)));
                assert_eq!(Or.apply(&[x, y]), Some(by_bits(x, y, |a, b| a.max(b))));
                assert_eq!(Xor.apply(&[x, y]), Some(by_bits(x, y, |a, b| (a + b) % 2)));
            }
            for n in 0..8 {
                assert_eq!(ShiftLeft.apply(&[x, n]), Some(x * 2i64.pow(n as u32)));
                let down = (x as f64 / 2f64.powi(n as i32)).floor() as i64;
                assert_eq!(ShiftRight.apply(&[x, n]), Some(down));
            }
        }
    }

    #[test]
    fn out_of_range_refused() {
        assert_eq!(BitOp::ShiftLeft.apply(&[1, 63]), None);
        assert_eq!(BitOp::ShiftLeft.apply(&[3, 62]), None);
        assert_eq!(BitOp::ShiftLeft.apply(&[1, 62]), Some(1 << 62));
        assert_eq!(BitOp::ShiftLeft.apply(&[-1, 63]), Some(i64::MIN));
        assert_eq!(BitOp::ShiftLeft.apply(&[0, 1000]), Some(0));
        assert_eq!(BitOp::ShiftLeft.apply(&[1, -1]), None);
        assert_eq!(BitOp::ShiftRight.apply(&[-5, 1000]), Some(-1));
        assert_eq!(BitOp::ShiftRight.apply(&[5, 1000]), Some(0));
        assert_eq!(BitOp::ShiftRight.apply(&[5, -1]), None);
        assert_eq!(BitOp::named("BXOR"), Some(BitOp::Xor));
        assert_eq!(BitOp::named("BFOO"), None);
    }
}
