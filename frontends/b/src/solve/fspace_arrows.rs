//! Enumerating a function space `D --> R` (any of the function arrows)
//! whole, by its arrow: the value at each element of `D` in turn, a total
//! arrow never leaving a point out, an injective one using a value of `R`
//! once, a surjective one keeping enough points for the values of `R` not
//! yet reached (see `fspace::Arrow`). The members are those of generating
//! every partial function from `D` to `R` and keeping the space's, but the
//! work and the limit are on the members: `1..8 >->> 1..8` has 40,320 of
//! them among 9^8 partial functions.
//!
//! Owns counting a function space's members and generating them.

use super::fspace::{Arrow, HELD};
use crate::ast::SpaceKind;
use crate::value::Value;

/// The members of the function space of arrow `k` from `dom` to `ran`
/// (both sorted, without duplicates), sorted; `Err(count)` (the number of
/// members, saturated) when more than `limit` or holding more than
/// `HELD` points; `None` for a relation arrow.
pub(crate) fn members(
    k: SpaceKind,
    dom: &[Value],
    ran: &[Value],
    limit: usize,
) -> Option<Result<Vec<Value>, u128>> {
    let arrow = Arrow::of(k)?;
    let n = count(arrow, dom.len(), ran.len());
    if n > limit as u128 || n.saturating_mul(dom.len() as u128) > HELD as u128 {
        return Some(Err(n));
    }
    let mut g = Generate {
        arrow,
        points: dom
            .iter()
            .map(|d| {
                ran.iter()
                    .map(|r| Value::pair(d.clone(), r.clone()))
                    .collect()
            })
            .collect(),
        uses: vec![0; ran.len()],
        chosen: Vec::with_capacity(dom.len()),
        out: Vec::with_capacity(n as usize),
    };
    g.point(0);
    let mut out = g.out;
    out.sort_unstable();
    Some(Ok(out))
}

/// The state of one generation.
struct Generate {
    arrow: Arrow,
    /// `points[i][j]`: the pair of the `i`-th element of the domain and
    /// the `j`-th of the range.
    points: Vec<Vec<Value>>,
    uses: Vec<usize>,
    chosen: Vec<Value>,
    out: Vec<Value>,
}

impl Generate {
    /// Chooses the value at the `i`-th element of the domain and the
    /// points after it.
    fn point(&mut self, i: usize) {
        let left = self.points.len() - i;
        if left == 0 {
            // an empty domain reaches no value of a non-empty range
            if !self.arrow.surjective || self.uses.iter().all(|&u| u > 0) {
                self.out.push(Value::set_sorted(self.chosen.clone()));
            }
            return;
        }
        let ran = self.uses.len();
        for choice in std::iter::once(None).chain((0..ran).map(Some)) {
            if !self.arrow.allows(&self.uses, left, choice) {
                continue;
            }
            if let Some(j) = choice {
                self.uses[j] += 1;
                self.chosen.push(self.points[i][j].clone());
            }
            self.point(i + 1);
            if let Some(j) = choice {
                self.uses[j] -= 1;
                self.chosen.pop();
            }
        }
    }
}

/// The number of members of a space of `arrow` from `n` to `m` elements
/// (saturated).
fn count(arrow: Arrow, n: usize, m: usize) -> u128 {
    // ways[k][r]: the functions from k points onto r values among m
    // (injective ones if the arrow is), the points all mapped
    let onto = |k: usize, r: usize| -> u128 { onto(arrow.injective, k, r) };
    let choose = |a: usize, b: usize| binomial(a, b);
    let mut total: u128 = 0;
    // k points of the domain mapped (all of them for a total arrow), onto
    // r values of the range (all of them for a surjective arrow)
    let ks: Vec<usize> = if arrow.total {
        vec![n]
    } else {
        (0..=n).collect()
    };
    for k in ks {
        let rs: Vec<usize> = if arrow.surjective {
            vec![m]
        } else {
            (0..=m.min(k)).collect()
        };
        for r in rs {
            let ways = choose(n, k)
                .saturating_mul(choose(m, r))
                .saturating_mul(onto(k, r));
            total = total.saturating_add(ways);
        }
    }
    total
}

/// The functions from `k` points onto `r` values (injective ones only if
/// `injective`), saturated.
fn onto(injective: bool, k: usize, r: usize) -> u128 {
    if injective {
        return if k == r { factorial(r) } else { 0 };
    }
    // surjections: s(k, r) = r * (s(k-1, r) + s(k-1, r-1))
    let mut row = vec![0u128; r + 1];
    row[0] = 1;
    for _ in 0..k {
        for j in (0..=r).rev() {
            row[j] = if j == 0 {
                0
            } else {
                (j as u128).saturating_mul(row[j].saturating_add(row[j - 1]))
            };
        }
    }
    row[r]
}

fn factorial(r: usize) -> u128 {
    (1..=r as u128).fold(1u128, |a, b| a.saturating_mul(b))
}

fn binomial(a: usize, b: usize) -> u128 {
    if b > a {
        return 0;
    }
    let mut c: u128 = 1;
    for i in 0..b.min(a - b) as u128 {
        c = c.saturating_mul(a as u128 - i) / (i + 1);
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::SpaceKind::*;

    fn ints(n: i64) -> Vec<Value> {
        (1..=n).map(Value::Int).collect()
    }

    /// The members of the space by brute force: every partial function
    /// from `dom` to `ran` with the arrow's properties.
    fn brute(k: SpaceKind, n: i64, m: i64) -> Vec<Value> {
        let arrow = Arrow::of(k).expect("a function arrow");
        let mut out = Vec::new();
        let choices = (m + 1) as u32;
        for code in 0..choices.pow(n as u32) {
            let (mut c, mut f) = (code, Vec::new());
            for d in 1..=n {
                let j = (c % choices) as i64;
                c /= choices;
                if j > 0 {
                    f.push(Value::pair(Value::Int(d), Value::Int(j)));
                }
            }
            let ran: Vec<i64> = f
                .iter()
                .map(|p| p.as_pair().unwrap().1.as_int().unwrap())
                .collect();
            let mut distinct = ran.clone();
            distinct.sort_unstable();
            distinct.dedup();
            let ok = (!arrow.total || f.len() == n as usize)
                && (!arrow.injective || distinct.len() == ran.len())
                && (!arrow.surjective || distinct.len() == m as usize);
            if ok {
                out.push(Value::set_sorted(f));
            }
        }
        out.sort_unstable();
        out
    }

    #[test]
    fn every_arrow_gives_the_members_of_the_whole_enumeration() {
        let functions = [Partial, Total, PartialInj, TotalInj];
        let onto = [PartialSurj, TotalSurj, PartialBij, TotalBij];
        for k in functions.into_iter().chain(onto) {
            for (n, m) in [(0, 2), (2, 0), (3, 3), (4, 2), (2, 4), (5, 3)] {
                let got = members(k, &ints(n), &ints(m), 1 << 20)
                    .expect("a function arrow")
                    .expect("a small space");
                let want = brute(k, n, m);
                assert_eq!(got, want, "{k:?} from {n} to {m}");
                let arrow = Arrow::of(k).expect("a function arrow");
                assert_eq!(count(arrow, n as usize, m as usize), want.len() as u128);
            }
        }
    }

    #[test]
    fn a_space_over_the_limit_is_counted_not_generated() {
        // 1..8 >->> 1..8: 8! members; 1..9 --> 1..9: 9^9
        let bij = members(TotalBij, &ints(8), &ints(8), 1 << 22).expect("an arrow");
        assert_eq!(bij.map(|v| v.len()), Ok(40320));
        let total = members(Total, &ints(9), &ints(9), 1 << 22).expect("an arrow");
        assert_eq!(total.err(), Some(9u128.pow(9)));
        assert!(members(Rel, &ints(2), &ints(2), 1 << 22).is_none());
    }
}
