//! Enumerating a large finite function space `f : D --> R` (any of the
//! function arrows) point by point instead of whole: the value at each
//! element of `D` in turn (absent too, for a partial arrow), pruned by
//!
//! * the arrow itself: an injection uses a value of `R` once, a surjection
//!   keeps enough points for the values of `R` it has not yet reached;
//! * the conjuncts checked once `f` is bound in which `f` occurs only
//!   applied, `f(a)`: evaluated on the function built so far, such a
//!   conjunct either applies `f` only at points already chosen, and then
//!   has its final value, or fails on a point not chosen yet (any error
//!   counts as "not decided yet"). Only a conjunct found false prunes.
//!   A universal quantifier `!xs.(P => Q)` with `f` out of `P` is refuted
//!   by one instance of `Q` found false, skipping the instances that apply
//!   a function outside its domain as a side of `=` or `/=` (a point not
//!   chosen yet, or one that makes the whole conjunct false, see
//!   `Env::holds_guard`); an instance failing otherwise leaves it
//!   undecided, as the whole quantifier could be an error there. Such a
//!   quantifier is checked instance by instance (`fast_forall`).
//!
//! The search is depth first with an explicit stack, not one call per
//! point: a domain of 200,000 points overflowed the thread's stack.
//!
//! Every candidate that survives is a member of the space (checked as
//! `Env::elements` checks it) and is then checked against every conjunct
//! by the enumeration loop as before: the solutions are those of the
//! whole enumeration, in another order. Spaces of at most `WHOLE`
//! candidates are still enumerated whole.
//!
//! Owns the point-by-point search.

use super::fast_forall::{self, Instances};
use super::fspace_order::{self, Positions};
use super::{fspace_curried, fspace_split};
use crate::ast::*;
use crate::eval::{Env, Fail, E, ENUM_LIMIT};
use crate::value::Value;
use std::borrow::Cow;

/// Spaces with at most this many candidate relations are enumerated whole.
const WHOLE: f64 = 65536.0;

/// The most partial functions one search may visit.
const NODES: usize = 1 << 22;

/// The most points the candidates of one search may hold together (about
/// 16 bytes each: ForallConstraints' `array : 1..100 --> ID`, whose
/// quantifier over `dom(array)` prunes nothing, would otherwise exhaust
/// memory before `NODES` stops it).
pub(super) const HELD: usize = 1 << 25;

/// The candidates for `f` in `f : space` (`space` a function arrow with
/// ready sides), pruned by the conjuncts `checks` of `cs`; `None` when
/// the space is not a function arrow or small enough to enumerate whole.
pub fn search(
    f: Sym,
    space: &Expr,
    cs: &[&Expr],
    checks: &[usize],
    env: &mut Env,
) -> E<Option<Vec<Value>>> {
    let ExprKind::Bin(BinOp::Space(k), d, r) = &space.kind else {
        return Ok(None);
    };
    let Some(mut arrow) = Arrow::of(*k) else {
        return Ok(None);
    };
    // a range enumerated whole as before; curried only when it is too large
    let whole = env.elements(r);
    let (dom, ran, row) = match fspace_curried::inner(space).filter(|_| whole.is_err()) {
        Some((d2, k2, r2)) => {
            let (d1, d2) = (env.elements(d)?, env.elements(d2)?);
            arrow = Arrow::of(k2).expect("a function arrow");
            let width = d2.len();
            (
                fspace_curried::points(&d1, &d2),
                env.elements(r2)?,
                Some(width),
            )
        }
        None => (env.elements(d)?, whole?, None),
    };
    if ((ran.len() + 1) as f64).powi(dom.len() as i32) <= WHOLE {
        return Ok(None);
    }
    let prune: Vec<Cow<Expr>> = match row {
        None => checks
            .iter()
            .map(|&c| cs[c])
            .filter(|e| applied_only(e, f))
            .map(Cow::Borrowed)
            .collect(),
        Some(_) => {
            let mut parts = Vec::new();
            for &c in checks {
                fspace_split::split(cs[c], f, &mut parts);
            }
            parts.retain(|e| fspace_curried::applied_twice_only(e, f));
            parts.into_iter().map(Cow::Owned).collect()
        }
    };
    let antitone = match row {
        None => super::errors_antitone::conjuncts(f, cs, checks, &|e| applied_only(e, f)),
        Some(_) => Vec::new(),
    };
    let curried = row.is_some();
    let refs: Vec<&Expr> = prune.iter().map(|e| &**e).collect();
    let order = fspace_order::givens_first(&refs, (f, curried), &dom, env);
    let reordered = order.iter().enumerate().any(|(k, &i)| k != i);
    let dom: Vec<Value> = order.iter().map(|&i| dom[i].clone()).collect();
    let (row_of, left) = fspace_order::rows(&order, row);
    let positions = Positions::of(&dom);
    let instances: Vec<Option<Instances>> = prune
        .iter()
        .map(|e| Instances::of(e, f, &positions, curried, env))
        .collect();
    let due = prune
        .iter()
        .zip(&instances)
        .map(|(e, i)| match i {
            Some(_) => None,
            None => fast_forall::due_at(e, (f, curried), &positions, env),
        })
        .collect();
    let rows = row.map_or(1, |w| dom.len() / w.max(1));
    let mut s = Search {
        f,
        k: *k,
        arrow,
        space,
        uses: vec![0; ran.len() * rows],
        row,
        row_of,
        left,
        reordered,
        dom,
        ran,
        prune,
        antitone,
        instances,
        due,
        pairs: Vec::new(),
        nodes: 0,
        out: Vec::new(),
    };
    s.run(env)?;
    Ok(Some(s.out))
}

/// What an arrow says of the points.
#[derive(Clone, Copy)]
pub(super) struct Arrow {
    pub(super) total: bool,
    pub(super) injective: bool,
    pub(super) surjective: bool,
}

impl Arrow {
    pub(super) fn of(k: SpaceKind) -> Option<Arrow> {
        use SpaceKind::*;
        let (total, injective, surjective) = match k {
            Partial => (false, false, false),
            Total => (true, false, false),
            PartialInj => (false, true, false),
            TotalInj => (true, true, false),
            PartialSurj => (false, false, true),
            TotalSurj => (true, false, true),
            PartialBij => (false, true, true),
            TotalBij => (true, true, true),
            Rel | TotalRel | SurjRel | TotalSurjRel => return None,
        };
        Some(Arrow {
            total,
            injective,
            surjective,
        })
    }

    /// Whether `choice` (an index into the range, `None` for no value) at
    /// a point with `left` points still to choose, itself included, keeps
    /// the arrow satisfiable; `uses`: how many chosen points map to each
    /// element of the range.
    pub(super) fn allows(&self, uses: &[usize], left: usize, choice: Option<usize>) -> bool {
        if self.total && choice.is_none() {
            return false;
        }
        if self.injective && choice.is_some_and(|j| uses[j] > 0) {
            return false;
        }
        if self.total && self.injective {
            // the points after this one need values not yet used
            let unused = uses.iter().filter(|&&u| u == 0).count();
            if unused < left {
                return false;
            }
        }
        if self.surjective {
            let unreached = (0..uses.len())
                .filter(|&j| uses[j] == 0 && choice != Some(j))
                .count();
            return unreached < left;
        }
        true
    }
}

/// Whether every occurrence of `f` in `e` is applied (`f(a)`), none of
/// them under a binder of another `f`.
pub(super) fn applied_only(e: &Expr, f: Sym) -> bool {
    let mut all = Vec::new();
    super::plan::idents(e, &mut all);
    let occurrences = all.iter().filter(|&&s| s == f).count();
    let (mut applied, mut rebound) = (0, false);
    crate::compile::visit(e, &mut |x| match &x.kind {
        ExprKind::Apply(g, _) if matches!(g.kind, ExprKind::Ident(s) if s == f) => applied += 1,
        ExprKind::Quant { ids, .. } => rebound |= ids.contains(&f),
        _ => {}
    });
    occurrences > 0 && applied == occurrences && !rebound
}

/// The state of one point-by-point search.
struct Search<'a> {
    f: Sym,
    k: SpaceKind,
    arrow: Arrow,
    space: &'a Expr,
    /// The points in the order they are decided (see `fspace_order`): of
    /// `D`, or of `D1 * D2` for a curried space `D1 --> (D2 --> R)` (see
    /// `fspace_curried`), whose rows are `row` points wide.
    dom: Vec<Value>,
    row: Option<usize>,
    /// Per position in `dom`: the row of its point (0 when not curried)
    /// and how many points of that row are there or after.
    row_of: Vec<usize>,
    left: Vec<usize>,
    /// Whether `dom` is out of its sorted order.
    reordered: bool,
    ran: Vec<Value>,
    prune: Vec<Cow<'a, Expr>>,
    /// The conjuncts antitone in `f`, checked whole at each point (see
    /// `errors_antitone`).
    antitone: Vec<&'a Expr>,
    /// Per pruning conjunct: its instances, for a universal quantifier
    /// checked instance by instance (see `fast_forall`).
    instances: Vec<Option<Instances>>,
    /// Per pruning conjunct that is not: how many points must be decided
    /// for it to be checked, when it is checked there only (see
    /// `fast_forall::due_at`).
    due: Vec<Option<usize>>,
    /// How many chosen points map to each element of `ran` (per row of a
    /// curried space, see [`Search::slot`]).
    uses: Vec<usize>,
    /// The points chosen so far.
    pairs: Vec<Value>,
    nodes: usize,
    out: Vec<Value>,
}

impl Search<'_> {
    /// Visits every choice of a value (or none, for a partial arrow) at
    /// each point of `dom` in turn, depth first, with an explicit stack
    /// rather than one call per point (a domain of a million points would
    /// otherwise overflow the thread's stack).
    fn run(&mut self, env: &mut Env) -> E<()> {
        let choices = self.ran.len() + usize::from(!self.arrow.total);
        // per point decided: the choice made there and the next to try
        let mut made: Vec<Option<usize>> = Vec::with_capacity(self.dom.len());
        let mut next: Vec<usize> = vec![0];
        while let Some(&c) = next.last() {
            let i = next.len() - 1;
            if i == self.dom.len() || c == choices {
                if i == self.dom.len() {
                    self.leaf(env)?;
                }
                next.pop();
                if let Some(Some(j)) = made.pop() {
                    let at = self.slot(made.len(), j);
                    self.uses[at] -= 1;
                    self.pairs.pop();
                }
                continue;
            }
            next[i] += 1;
            let choice = match self.arrow.total {
                true => Some(c),
                false => c.checked_sub(1),
            };
            if !self.allowed(i, choice) {
                continue;
            }
            self.nodes += 1;
            if self.nodes > NODES {
                return Err(Fail::Unsupported(
                    format!("searching a function space point by point beyond {NODES} partial functions"),
                    self.space.pos,
                ));
            }
            if let Some(j) = choice {
                let at = self.slot(i, j);
                self.uses[at] += 1;
                let pair = Value::pair(self.dom[i].clone(), self.ran[j].clone());
                self.pairs.push(pair);
            }
            if self.consistent(i + 1, env) {
                made.push(choice);
                next.push(0);
            } else if let Some(j) = choice {
                let at = self.slot(i, j);
                self.uses[at] -= 1;
                self.pairs.pop();
            }
        }
        Ok(())
    }

    /// Whether `choice` at `dom[i]` keeps the arrow satisfiable.
    fn allowed(&self, i: usize, choice: Option<usize>) -> bool {
        let (n, r) = (self.ran.len(), self.row_of[i]);
        let uses = &self.uses[r * n..(r + 1) * n];
        self.arrow.allows(uses, self.left[i], choice)
    }

    /// The index in `uses` of the element `j` of `ran` at point `dom[i]`.
    fn slot(&self, i: usize, j: usize) -> usize {
        self.row_of[i] * self.ran.len() + j
    }

    /// The function of the points chosen so far.
    fn chosen(&self) -> Value {
        match self.row {
            None => Value::set(self.pairs.clone()),
            Some(_) if self.reordered => {
                let mut rows = self.pairs.clone();
                rows.sort_unstable();
                fspace_curried::curry(&rows)
            }
            Some(_) => fspace_curried::curry(&self.pairs),
        }
    }

    /// Whether no pruning conjunct is false on the points chosen so far.
    /// `decided`: how many points are decided (chosen or left out).
    fn consistent(&mut self, decided: usize, env: &mut Env) -> bool {
        if self.prune.is_empty() && self.antitone.is_empty() {
            return true;
        }
        let _partial = super::errors_relational::Partial::enter();
        let base = env.locals.len();
        env.locals.push((self.f, self.chosen()));
        let mut ok = true;
        for ((e, inst), due) in self.prune.iter().zip(&mut self.instances).zip(&self.due) {
            let no = match inst {
                Some(inst) => inst.refuted(e, decided, env),
                None if due.is_some_and(|d| d != decided) => false,
                None => refuted(e, self.f, env),
            };
            if no {
                ok = false;
                break;
            }
        }
        ok = ok && !self.antitone.iter().any(|e| refuted(e, self.f, env));
        env.locals.truncate(base);
        ok
    }

    /// A complete choice: a candidate if a member of the space.
    fn leaf(&mut self, env: &mut Env) -> E<()> {
        let f = self.chosen();
        let ExprKind::Bin(_, d, r) = &self.space.kind else {
            unreachable!("a function arrow")
        };
        let set = f.as_set().map_err(|m| Fail::Wd(m, self.space.pos))?;
        let member = match self.row {
            None => env.space_props(self.k, set, d, r, self.space.pos)?,
            Some(_) => env.member(&f, self.space)?,
        };
        if member {
            self.out.push(f);
            if self.out.len().saturating_mul(self.pairs.len().max(1)) > HELD {
                return Err(Fail::Unsupported(
                    format!(
                        "more than {HELD} points in the functions left after pruning the function space"
                    ),
                    self.space.pos,
                ));
            }
            if self.out.len() > ENUM_LIMIT {
                return Err(Fail::Unsupported(
                    format!(
                        "more than {ENUM_LIMIT} functions left after pruning the function space"
                    ),
                    self.space.pos,
                ));
            }
        }
        Ok(())
    }
}

/// Whether conjunct `e` is false on the points of `f` chosen so far (see
/// the module's doc).
fn refuted(e: &Expr, f: Sym, env: &mut Env) -> bool {
    let Some((ids, dom, body, plan)) = fast_forall::forall(e) else {
        return matches!(env.holds(e), Ok(false));
    };
    let mut free = Vec::new();
    super::plan::idents(dom, &mut free);
    if free.contains(&f) {
        return matches!(env.holds(e), Ok(false));
    }
    let Ok(p) = env.plan_of(plan, ids, dom) else {
        return false;
    };
    let mut found = false;
    let _ = super::solve(ids, dom, p, env, false, &mut |env| match env.holds(body) {
        Ok(false) => {
            found = true;
            Ok(false)
        }
        Err(Fail::Wd(m, at))
            if m.starts_with("function appl") && fast_forall::skippable(e, at, env) =>
        {
            Ok(true)
        }
        Ok(true) => Ok(true),
        Err(other) => Err(other),
    });
    found
}

#[cfg(test)]
mod tests {
    use crate::tests::count;

    #[test]
    fn a_large_function_space_is_searched_point_by_point() {
        // 7^6 candidate relations for `f`, above `WHOLE`: the solutions are
        // the 5! = 120 injections with f(1) = 1, one constants state and
        // one initialised state each (plus the root), 120 + 120 edges
        let m = "MACHINE F CONSTANTS f
             PROPERTIES f : 1..6 --> 1..6 & f(1) = 1 &
               !(i, j).(i : 1..6 & j : 1..6 & i < j => f(i) /= f(j))
             VARIABLES v INVARIANT v : 1..6 INITIALISATION v := f(2) END";
        assert_eq!(count(m), (241, 240));
    }

    #[test]
    fn a_domain_of_many_points_is_searched_without_a_call_per_point() {
        // one total function onto {0} over 200,000 points, above `WHOLE`:
        // one call per point overflowed the stack of a test's thread
        let m = "MACHINE D CONSTANTS f PROPERTIES f : 1..200000 --> {0}
             VARIABLES v INVARIANT v : 0..3 INITIALISATION v := f(2) END";
        assert_eq!(count(m), (3, 2));
    }

    #[test]
    fn a_total_injection_into_fewer_values_has_no_member() {
        // 12 points, 11 values: no total injection (pigeonhole); the
        // search stops at the first point instead of visiting the 11!
        // injections of 11 of the points. No constants state: the root
        let m = "MACHINE P CONSTANTS f PROPERTIES f : 1..12 >-> 1..11
             VARIABLES v INVARIANT v : 1..11 INITIALISATION v := f(2) END";
        assert_eq!(count(m), (1, 0));
    }

    #[test]
    fn arrows_prune_as_the_whole_enumeration_checks() {
        // bijections 1..6 >->> 1..6 with f(1) = 1: 5! = 120; partial
        // injections 1..6 >+> 1..6 (7^6 candidates) with 3 /: dom(f)
        // and f(1) = 1: injections of a subset of {2, 4, 5, 6} into
        // 2..6: 1 + 4*5 + 6*5*4 + 4*5*4*3 + 5*4*3*2 = 501
        let bij = "MACHINE F CONSTANTS f
             PROPERTIES f : 1..6 >->> 1..6 & f(1) = 1
             VARIABLES v INVARIANT v : 1..6 INITIALISATION v := f(2) END";
        assert_eq!(count(bij), (241, 240));
        let pinj = "MACHINE F CONSTANTS f
             PROPERTIES f : 1..6 >+> 1..6 & f(1) = 1 & 3 /: dom(f)
             VARIABLES v INVARIANT v : 0..6 INITIALISATION v := card(f) END";
        assert_eq!(count(pinj), (1 + 2 * 501, 2 * 501));
    }
}
