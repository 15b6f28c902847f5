//! The operators of compiled expressions: the parser's operator symbols
//! turned once, at load time, into enums, so that evaluating an expression
//! dispatches on a small integer instead of comparing strings, and what a
//! binary operator computes on C's 32-bit `int` (see `model` for SPIN's
//! arithmetic: wrapping `+ - *`, model errors for what C leaves undefined).

use scan::Cmp;

/// A binary operator of C (Promela's expression operators).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Shl,
    Shr,
    BitAnd,
    BitOr,
    BitXor,
    /// `==`, `!=`, `<`, `<=`, `>`, `>=`.
    Cmp(Cmp),
    And,
    Or,
}

const BIN_SYMBOLS: [(&str, BinOp); 18] = [
    ("+", BinOp::Add),
    ("-", BinOp::Sub),
    ("*", BinOp::Mul),
    ("/", BinOp::Div),
    ("%", BinOp::Mod),
    ("<<", BinOp::Shl),
    (">>", BinOp::Shr),
    ("&", BinOp::BitAnd),
    ("|", BinOp::BitOr),
    ("^", BinOp::BitXor),
    ("==", BinOp::Cmp(Cmp::Eq)),
    ("!=", BinOp::Cmp(Cmp::Ne)),
    ("<", BinOp::Cmp(Cmp::Lt)),
    ("<=", BinOp::Cmp(Cmp::Le)),
    (">", BinOp::Cmp(Cmp::Gt)),
    (">=", BinOp::Cmp(Cmp::Ge)),
    ("&&", BinOp::And),
    ("||", BinOp::Or),
];

impl BinOp {
    /// The operator written `symbol`, if it is one.
    pub fn of(symbol: &str) -> Option<BinOp> {
        BIN_SYMBOLS
            .iter()
            .find(|(s, _)| *s == symbol)
            .map(|&(_, op)| op)
    }

    /// `x op y` as pan computes it; `Err(message)` where C's result is
    /// undefined (division by zero, `INT_MIN / -1`, shift out of 0..31).
    /// `&&` and `||` see a left operand that did not decide them alone
    /// (`model` short-circuits), so their value is the right one's truth.
    #[inline]
    pub fn apply(self, x: i32, y: i32) -> Result<i32, String> {
        Ok(match self {
            BinOp::Add => x.wrapping_add(y),
            BinOp::Sub => x.wrapping_sub(y),
            BinOp::Mul => x.wrapping_mul(y),
            BinOp::Div | BinOp::Mod => return self.divide(x, y),
            BinOp::Shl | BinOp::Shr if !(0..32).contains(&y) => {
                return Err(format!(
                    "shift count {y} out of range 0..31 (undefined in C)"
                ))
            }
            BinOp::Shl => x << y,
            BinOp::Shr => x >> y,
            BinOp::BitAnd => x & y,
            BinOp::BitOr => x | y,
            BinOp::BitXor => x ^ y,
            BinOp::Cmp(c) => c.holds(x, y) as i32,
            BinOp::And | BinOp::Or => (y != 0) as i32,
        })
    }

    fn divide(self, x: i32, y: i32) -> Result<i32, String> {
        if y == 0 {
            return Err("division by zero".into());
        }
        if x == i32::MIN && y == -1 {
            return Err(format!(
                "integer overflow: {x} {} -1 is undefined in C (pan traps)",
                self.symbol()
            ));
        }
        Ok(if self == BinOp::Div { x / y } else { x % y })
    }

    /// How the operator is written (for messages).
    pub fn symbol(self) -> &'static str {
        BIN_SYMBOLS
            .iter()
            .find(|(_, op)| *op == self)
            .map_or("?", |&(s, _)| s)
    }
}

/// A unary operator: `-`, `~`, `!`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    BitNot,
    Not,
}

impl UnOp {
    pub fn of(symbol: &str) -> Option<UnOp> {
        match symbol {
            "-" => Some(UnOp::Neg),
            "~" => Some(UnOp::BitNot),
            "!" => Some(UnOp::Not),
            _ => None,
        }
    }
}

/// A channel predicate: `len`, `empty`, `nempty`, `full`, `nfull`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChanFn {
    Len,
    Empty,
    NEmpty,
    Full,
    NFull,
}

impl ChanFn {
    pub fn of(name: &str) -> Option<ChanFn> {
        match name {
            "len" => Some(ChanFn::Len),
            "empty" => Some(ChanFn::Empty),
            "nempty" => Some(ChanFn::NEmpty),
            "full" => Some(ChanFn::Full),
            "nfull" => Some(ChanFn::NFull),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbols_round_trip() {
        for (s, op) in BIN_SYMBOLS {
            assert_eq!(BinOp::of(s), Some(op));
            assert_eq!(op.symbol(), s);
        }
        assert_eq!(BinOp::of("->"), None);
        assert_eq!(UnOp::of("+"), None);
        assert_eq!(ChanFn::of("size"), None);
    }
}
