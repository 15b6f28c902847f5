//! The order in which `fspace`'s point-by-point search decides the points
//! of a function: the points a comparison conjunct fixes alone (a given
//! of ProB's SudokuAsConstant: `Board(1)(5) = 5`) first, then the others
//! in their order. A free point is then checked against the givens as
//! soon as it is chosen (the quantifiers' instances reaching a given are
//! ready at once) instead of after the points before each given in the
//! order, which let whole rows of a hard Sudoku be filled before a clash
//! with a given at their end was seen. The order changes which partial
//! functions are visited, never the candidates left at the leaves: every
//! pruning conjunct is still checked once all its points are decided.
//!
//! Owns the order and the positions of the points in it; must not know
//! the search itself (`fspace`) nor the instances' bookkeeping
//! (`fast_forall`), which read positions from [`Positions`].

use super::fast_forall;
use crate::ast::*;
use crate::eval::Env;
use crate::value::Value;

/// The position in the search's order of each point, looked up by value.
pub(super) struct Positions(Vec<(Value, usize)>);

impl Positions {
    /// The positions of `points`, listed in the search's order.
    pub(super) fn of(points: &[Value]) -> Positions {
        let mut at: Vec<(Value, usize)> = points.iter().cloned().zip(0..).collect();
        at.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        Positions(at)
    }

    /// How many points there are.
    pub(super) fn len(&self) -> usize {
        self.0.len()
    }

    /// The position of point `v`, `None` when `v` is not a point.
    pub(super) fn find(&self, v: &Value) -> Option<usize> {
        let k = self.0.binary_search_by(|(p, _)| p.cmp(v)).ok()?;
        Some(self.0[k].1)
    }
}

/// The search's order of `dom` (indices into it, sorted as it is): the
/// points fixed alone by one of the comparison conjuncts `prune` first.
/// `curried`: `f` is applied twice (see `fspace_curried`).
pub(super) fn givens_first(
    prune: &[&Expr],
    (f, curried): (Sym, bool),
    dom: &[Value],
    env: &mut Env,
) -> Vec<usize> {
    let positions = Positions::of(dom);
    let mut given = vec![false; dom.len()];
    for e in prune {
        if applications(e, (f, curried)) != 1 {
            continue;
        }
        match fast_forall::due_at(e, (f, curried), &positions, env) {
            Some(r) if r <= dom.len() => given[r - 1] = true,
            _ => {}
        }
    }
    let first = (0..dom.len()).filter(|&i| given[i]);
    first.chain((0..dom.len()).filter(|&i| !given[i])).collect()
}

/// How many times `e` applies `f` (twice, `f(a)(b)`, when `curried`).
fn applications(e: &Expr, (f, curried): (Sym, bool)) -> usize {
    if curried {
        return super::fspace_curried::arguments(e, f).len();
    }
    let mut n = 0;
    crate::compile::visit(e, &mut |x| {
        if let ExprKind::Apply(g, _) = &x.kind {
            n += usize::from(matches!(g.kind, ExprKind::Ident(s) if s == f));
        }
    });
    n
}

/// Per position of `order`: the row of its point (`width` points a row,
/// see `fspace_curried`; one row when `None`) and how many points of that
/// row are at that position or after it.
pub(super) fn rows(order: &[usize], width: Option<usize>) -> (Vec<usize>, Vec<usize>) {
    let row_of: Vec<usize> = order
        .iter()
        .map(|&i| width.map_or(0, |w| i / w.max(1)))
        .collect();
    let mut left = vec![0; order.len()];
    let mut seen = vec![0usize; row_of.iter().max().map_or(0, |m| m + 1)];
    for k in (0..order.len()).rev() {
        seen[row_of[k]] += 1;
        left[k] = seen[row_of[k]];
    }
    (row_of, left)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::count;

    /// Latin squares of order 4 (rows and columns `1..4`, values `1..4`)
    /// with the value `v` at row `r`, column `c` for each `(r, c, v)` of
    /// `givens`, by brute force over all 4^16 fillings row by row.
    fn latin4_with(givens: &[(usize, usize, usize)]) -> usize {
        let rows: Vec<[usize; 4]> = (0..256)
            .map(|k| [k % 4 + 1, k / 4 % 4 + 1, k / 16 % 4 + 1, k / 64 + 1])
            .filter(|r| (0..4).all(|i| (0..i).all(|j| r[i] != r[j])))
            .collect();
        let fits = |sq: &[[usize; 4]]| {
            let cols = (0..4).all(|c| (0..4).all(|i| (0..i).all(|j| sq[i][c] != sq[j][c])));
            cols && givens.iter().all(|&(r, c, v)| sq[r - 1][c - 1] == v)
        };
        let mut n = 0;
        for a in &rows {
            for b in &rows {
                for c in &rows {
                    for d in &rows {
                        n += usize::from(fits(&[*a, *b, *c, *d]));
                    }
                }
            }
        }
        n
    }

    #[test]
    fn givens_late_in_the_order_are_decided_first() {
        // `sq : 1..4 --> (1..4 --> 1..46)` bounded by 4: searched point by
        // point, curried (see `fspace_curried`), the givens in the last row
        // and column moved to the front of the search; counted by brute
        // force, one constants state and one initialised state each
        let m = "MACHINE L CONSTANTS sq
             PROPERTIES sq : 1..4 --> (1..4 --> 1..46) &
               !(r, c).(r : 1..4 & c : 1..4 => sq(r)(c) <= 4) &
               sq(4)(4) = 1 & sq(3)(4) = 2 & sq(4)(1) = 3 &
               !(r, c1, c2).(r : 1..4 & c1 : 1..4 & c2 : 1..4 & c1 < c2 =>
                  sq(r)(c1) /= sq(r)(c2) & sq(c1)(r) /= sq(c2)(r))
             VARIABLES v INVARIANT v : 1..4 INITIALISATION v := sq(2)(1) END";
        let n = latin4_with(&[(4, 4, 1), (3, 4, 2), (4, 1, 3)]);
        assert!(n > 1);
        assert_eq!(count(m), (1 + 2 * n, 2 * n));
    }

    #[test]
    fn a_row_injection_is_kept_when_its_points_are_reordered() {
        // the rows' distinctness from the inner arrow `>->` alone: the
        // values used per row are tracked by row, whatever the order
        // (60 values: 60*59*58*57 injections, beyond what is listed whole)
        let m = "MACHINE L CONSTANTS sq
             PROPERTIES sq : 1..4 --> (1..4 >-> 1..60) &
               !(r, c).(r : 1..4 & c : 1..4 => sq(r)(c) <= 4) &
               sq(2)(3) = 4 & sq(4)(2) = 1 &
               !(c, r1, r2).(c : 1..4 & r1 : 1..4 & r2 : 1..4 & r1 < r2 =>
                  sq(r1)(c) /= sq(r2)(c))
             VARIABLES v INVARIANT v : 1..4 INITIALISATION v := sq(1)(1) END";
        let n = latin4_with(&[(2, 3, 4), (4, 2, 1)]);
        assert!(n > 1);
        assert_eq!(count(m), (1 + 2 * n, 2 * n));
    }

    #[test]
    fn a_given_at_the_last_point_of_a_function_prunes_first() {
        // `f : 1..7 --> 1..7` injective with f(7) = 1 and f(6) = 2: the
        // 5! bijections of 1..5 onto 3..7
        let m = "MACHINE F CONSTANTS f
             PROPERTIES f : 1..7 --> 1..7 & f(7) = 1 & f(6) = 2 &
               !(i, j).(i : 1..7 & j : 1..7 & i < j => f(i) /= f(j))
             VARIABLES v INVARIANT v : 1..7 INITIALISATION v := f(1) END";
        assert_eq!(count(m), (1 + 2 * 120, 2 * 120));
    }

    #[test]
    fn positions_follow_the_order_not_the_values() {
        let pts: Vec<Value> = [3, 1, 2].into_iter().map(Value::Int).collect();
        let p = Positions::of(&pts);
        assert_eq!(p.len(), 3);
        assert_eq!(p.find(&Value::Int(3)), Some(0));
        assert_eq!(p.find(&Value::Int(2)), Some(2));
        assert_eq!(p.find(&Value::Int(7)), None);
    }

    #[test]
    fn rows_count_the_points_left_in_each_row() {
        // 2 rows of 2 points, searched as points 3, 0, 1, 2
        let (row_of, left) = rows(&[3, 0, 1, 2], Some(2));
        assert_eq!(row_of, vec![1, 0, 0, 1]);
        assert_eq!(left, vec![2, 2, 1, 1]);
        let (row_of, left) = rows(&[2, 0, 1], None);
        assert_eq!(row_of, vec![0, 0, 0]);
        assert_eq!(left, vec![3, 2, 1]);
    }
}
