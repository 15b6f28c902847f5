//! Integer values of ProB's preference pragmas (`SET_PREF_MAXINT ==
//! 2**31-1`): literals combined with `+`, `-`, `*`, `**` and
//! parentheses, evaluated with overflow checks.

/// The integer `text` denotes, `None` if it is not such an expression or
/// overflows.
pub(crate) fn int_value(text: &str) -> Option<i64> {
    let toks = tokens(text)?;
    let mut p = Cursor { toks: &toks, at: 0 };
    let v = p.sum()?;
    (p.at == toks.len()).then_some(v)
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Tok {
    Num(i64),
    Op(&'static str),
}

fn tokens(text: &str) -> Option<Vec<Tok>> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b' ' | b'\t' | b'\n' | b'\r' => i += 1,
            b'0'..=b'9' => {
                let start = i;
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
                out.push(Tok::Num(text[start..i].parse().ok()?));
            }
            b'*' if b.get(i + 1) == Some(&b'*') => {
                out.push(Tok::Op("**"));
                i += 2;
            }
            c => {
                let op = ["+", "-", "*", "(", ")"]
                    .into_iter()
                    .find(|o| o.as_bytes()[0] == c)?;
                out.push(Tok::Op(op));
                i += 1;
            }
        }
    }
    Some(out)
}

struct Cursor<'t> {
    toks: &'t [Tok],
    at: usize,
}

impl Cursor<'_> {
    fn eat(&mut self, op: &str) -> bool {
        let hit = matches!(self.toks.get(self.at), Some(Tok::Op(o)) if *o == op);
        self.at += usize::from(hit);
        hit
    }

    fn sum(&mut self) -> Option<i64> {
        let mut v = self.product()?;
        loop {
            if self.eat("+") {
                v = v.checked_add(self.product()?)?;
            } else if self.eat("-") {
                v = v.checked_sub(self.product()?)?;
            } else {
                return Some(v);
            }
        }
    }

    fn product(&mut self) -> Option<i64> {
        let mut v = self.power()?;
        while self.eat("*") {
            v = v.checked_mul(self.power()?)?;
        }
        Some(v)
    }

    /// `a ** b ** c` is `a ** (b ** c)`; a unary minus binds looser
    /// than `**` (`-2**2` is -4).
    fn power(&mut self) -> Option<i64> {
        if self.eat("-") {
            return self.power()?.checked_neg();
        }
        let base = self.atom()?;
        if self.eat("**") {
            let e = u32::try_from(self.power()?).ok()?;
            return base.checked_pow(e);
        }
        Some(base)
    }

    fn atom(&mut self) -> Option<i64> {
        match *self.toks.get(self.at)? {
            Tok::Num(n) => {
                self.at += 1;
                Some(n)
            }
            Tok::Op("(") => {
                self.at += 1;
                let v = self.sum()?;
                self.eat(")").then_some(v)
            }
            Tok::Op(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::int_value;

    #[test]
    fn pragma_integer_expressions() {
        assert_eq!(int_value("2**31"), Some(2_147_483_648));
        assert_eq!(int_value("2**31-1"), Some(2_147_483_647));
        assert_eq!(int_value(" -2 ** 31 "), Some(-2_147_483_648));
        assert_eq!(int_value("2**3**2"), Some(512));
        assert_eq!(int_value("(1+2)*3"), Some(9));
        assert_eq!(int_value("10"), Some(10));
        assert_eq!(int_value("2**64"), None);
        assert_eq!(int_value("MAXINT"), None);
        assert_eq!(int_value("1 2"), None);
    }
}
