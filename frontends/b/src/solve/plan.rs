//! Planning a binder's enumeration: which conjunct generates each
//! identifier's candidates, in which order, and which conjuncts are
//! checked after each step (pure syntax, computed once per binder).

use super::{
    applied, bounds, cases, chain, clipped, concat, points, range_alias, range_arith, range_beyond,
    range_group, range_product, range_pushed, shapes, sized, typing,
};
use crate::ast::*;

/// How one step of a plan generates candidate values.
#[derive(Clone, Debug)]
pub enum Gen {
    /// Conjunct `c` is `x = E` (`left`: `x` is the left side).
    Eq { c: usize, left: bool },
    /// Conjunct `c` is `A = B` with the identifier in a `+`/`-` chain of one side.
    Lin { c: usize, left: bool },
    /// Conjunct `c` is `pattern : E`; the pattern binds `vars`.
    In { c: usize },
    /// Conjunct `c` is `{.., x, ..} = E` (`left`: the extension is the
    /// left side; either way round), `{.., x, ..} <: E` or `<<:`, with `E`
    /// finite: `x` ranges over `E`'s elements, the conjunct being checked
    /// once the extension's identifiers are bound.
    Elem { c: usize, left: bool },
    /// Conjunct `c` is `x <: E` (`strict` for `<<:`).
    Subset { c: usize, strict: bool },
    /// Conjunct `c` is `P : E` with `P` a maplet of expressions (or a
    /// singleton `{P}`), some of them unbound identifiers (`cur |-> to :
    /// succs`, `{x} : dom(r)`): candidates are the
    /// distinct projections of `E`'s elements on those identifiers; the
    /// conjunct itself is checked once they are bound.
    Proj { c: usize },
    /// The step's identifier ranges over the integers between its bounds.
    Range(bounds::Range),
    /// The step's identifier is a boolean by a comparison with `TRUE` or
    /// `FALSE` somewhere in the predicate (`x20 = FALSE or x7 = TRUE`):
    /// it ranges over `BOOL`, its type, as in ProB.
    Bool,
    /// Conjunct `c` is `#ys.(Q)` mentioning the step's identifiers: their
    /// candidates are the distinct values they take in the solutions of
    /// `Q` for `ids` (`ys` then the step's identifiers), by `plan`.
    Exists {
        c: usize,
        ids: Vec<Sym>,
        plan: Box<Plan>,
    },
    /// Conjunct `c` is `f : D --> R` with `R` infinite and the equations
    /// `eqs` (conjunct, `f(a)` on the left) fix `f` (see `points`).
    Points {
        c: usize,
        eqs: Vec<(usize, points::Fix)>,
    },
    /// Conjunct `c` is `P = E` with `P` a maplet of identifiers (`left`:
    /// `P` is the left side): `E`'s value taken apart (see `shapes`).
    Pattern { c: usize, left: bool },
    /// Conjunct `c` is `a \/ x \/ .. = E` (`left`: the union is the left
    /// side) with `E` finite: `x` ranges over `E`'s subsets.
    UnionPart { c: usize, left: bool },
    /// Conjunct `c` is `a ^ x ^ .. = E` (`left`: the concatenation is the
    /// left side) with `E` ready: `x` ranges over `E`'s slices.
    Slice { c: usize, left: bool },
    /// Conjunct `c` applies a ready function (at `path`, see `applied`)
    /// to the step's identifier in a strict position: it ranges over the
    /// function's domain.
    Applied { c: usize, path: Vec<u8> },
    /// Conjunct `c` is `f : lo..x --> R` (a total space) with `f` ready:
    /// `x` is the largest element of `dom(f)`.
    DomainEnd { c: usize },
    /// Conjunct `c` is a disjunction fixing the step's identifier in each
    /// case (see `cases`), by expressions not mentioning `unbound`; `None`:
    /// conjuncts `P => Q` with `Q` fixing it (the whole conjunction is then
    /// the case).
    /// `ws`: the identifier's type witnesses (see `typing`), for a state
    /// where no antecedent `P` holds.
    Cases {
        c: Option<usize>,
        unbound: Vec<Sym>,
        ws: Vec<typing::Witness>,
    },
    /// Conjunct `c` is `x : D +-> INTEGER` (`-->`, `NATURAL`...), the only
    /// one mentioning `x` but the pointwise bounds `bounds` (see `clipped`).
    Clipped { c: usize, bounds: Vec<usize> },
    /// Conjunct `set` is `x : seq(S)` (`S` finite), `len` is `size(x) =
    /// n` (see `sized`).
    Sized { set: usize, len: usize },
    /// Failing all of the above, the step's identifier ranges over its B
    /// type, read from the first witness that shows it (see `typing`).
    Type(Vec<typing::Witness>),
    /// Conjunct `c` is `A = B` with the step's identifier in a product
    /// (`x * x`, `x * E`) on a `+`/`-` chain of one side (`left`: the
    /// left side; see `range_product`).
    Product { c: usize, left: bool },
    /// Conjunct `c` is `A : S` with the step's identifier on a `+`/`-`
    /// chain of `A` and `S` finite and ready (see `range_member`).
    LinIn { c: usize },
    /// The step's identifiers labelled one after another, some the end
    /// of another's interval (see `range_labelled`).
    Labelled(super::range_labelled::Labelled),
    /// The identifiers no conjunct gives a finite range, last in a
    /// deferring plan (see `plan_deferring`): reaching this step is
    /// unsupported (message, position).
    Unbounded(String, Pos),
}

/// One binding step.
#[derive(Clone, Debug)]
pub struct Step {
    /// Indices (into the binder's identifiers) this step binds.
    pub vars: Vec<usize>,
    pub gen: Gen,
    /// Conjuncts to check once this step has bound its identifiers.
    pub checks: Vec<usize>,
}

/// The order of binding and checking for one binder.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Conjuncts that mention none of the identifiers.
    pub pre: Vec<usize>,
    pub steps: Vec<Step>,
    /// Made by `plan_deferring`: a conjunct of `pre` that cannot be
    /// decided (unsupported) is decided last, once a solution of the
    /// rest is found (none: the predicate has no solution either way).
    pub deferring: bool,
}

/// A plan, or why none exists (message, position).
pub type PlanResult = Result<Plan, (String, Pos)>;

/// The top-level conjuncts of `p`.
pub fn conjuncts(p: &Expr) -> Vec<&Expr> {
    let mut out = Vec::new();
    operands(p, BinOp::And, &mut out);
    out
}

/// The operands of a chain of `op` (`a & (b & c)`: `a`, `b`, `c`).
pub(super) fn operands<'a>(e: &'a Expr, op: BinOp, out: &mut Vec<&'a Expr>) {
    match &e.kind {
        ExprKind::Bin(o, a, b) if *o == op => {
            operands(a, op, out);
            operands(b, op, out);
        }
        _ => out.push(e),
    }
}

/// Every identifier occurring in `e` (bound or free: conservative).
pub fn idents(e: &Expr, out: &mut Vec<Sym>) {
    use ExprKind::*;
    match &e.kind {
        Ident(s) => out.push(*s),
        Int(_) | Str(_) | Bool(_) | Named(_) | EmptySet | EmptySeq => {}
        SetExt(v) | SeqExt(v) | Call(_, v) => v.iter().for_each(|x| idents(x, out)),
        Bin(_, a, b) | Apply(a, b) | Image(a, b) => {
            idents(a, out);
            idents(b, out);
        }
        Neg(a) | Inverse(a) | Field(a, _) => idents(a, out),
        Quant { pred, body, .. } => {
            idents(pred, out);
            if let Some(b) = body {
                idents(b, out);
            }
        }
        Rec(f) | Struct(f) => f.iter().for_each(|(_, x)| idents(x, out)),
    }
}

pub(super) fn mentions(e: &Expr, ids: &[Sym]) -> Vec<usize> {
    let mut v = Vec::new();
    idents(e, &mut v);
    let mut out: Vec<usize> = ids
        .iter()
        .enumerate()
        .filter(|(_, s)| v.contains(s))
        .map(|(i, _)| i)
        .collect();
    out.dedup();
    out
}

fn ident_of(e: &Expr) -> Option<Sym> {
    match e.kind {
        ExprKind::Ident(s) => Some(s),
        _ => None,
    }
}

/// Whether `x` occurs exactly once in `e`, along a chain of `+` and `-`.
fn lin_path(e: &Expr, x: Sym) -> bool {
    chain_path(e, x, &|e| matches!(e.kind, ExprKind::Ident(s) if s == x))
}

/// Whether `x` occurs exactly once in `e`, in the sub-expression `hole`
/// picks at the end of a chain of `+` and `-`.
pub(super) fn chain_path(e: &Expr, x: Sym, hole: &dyn Fn(&Expr) -> bool) -> bool {
    if hole(e) {
        return mentions(e, &[x]).len() == 1;
    }
    match &e.kind {
        ExprKind::Bin(BinOp::Plus | BinOp::Minus, a, b) => {
            let (ma, mb) = (mentions(a, &[x]).len(), mentions(b, &[x]).len());
            match (ma, mb) {
                (1, 0) => chain_path(a, x, hole),
                (0, 1) => chain_path(b, x, hole),
                _ => false,
            }
        }
        _ => false,
    }
}

/// Identifiers of a maplet pattern `x |-> y |-> z` (or a single `x`).
fn pattern_ids(e: &Expr, out: &mut Vec<Sym>) -> bool {
    match &e.kind {
        ExprKind::Ident(s) => {
            out.push(*s);
            true
        }
        ExprKind::Bin(BinOp::Maplet, a, b) => pattern_ids(a, out) && pattern_ids(b, out),
        _ => false,
    }
}

/// A candidate generator for a step: (priority, identifiers, generator).
pub(super) type Cand = (u8, Vec<usize>, Gen);

/// What the planner knows of one binder while planning it.
struct Planner<'a> {
    ids: &'a [Sym],
    syms: &'a Syms,
    cs: Vec<&'a Expr>,
    /// The identifiers each conjunct mentions.
    ment: Vec<Vec<usize>>,
    /// Identifiers with evidence of being integers (for `Gen::Lin`).
    int_evidence: Vec<bool>,
    bound: Vec<bool>,
    /// Identifiers bound by a range clipped to `MININT..MAXINT`: no bound
    /// of another identifier's range goes through them (see `bounds`).
    clipped: Vec<bool>,
    checked: Vec<bool>,
    /// Identifiers bound first among candidates of equal priority.
    prefer: Vec<bool>,
    /// Whether `pred` is the body of an existential being decided (see
    /// `plan_exists`).
    exists: bool,
}

/// Plans the binding of `ids` by `pred`; `Err` names an identifier for which
/// no conjunct gives a finite range.
pub fn plan(ids: &[Sym], pred: &Expr, syms: &Syms) -> Result<Plan, (String, Pos)> {
    plan_with(ids, pred, syms, true, false)
}

/// `plan` for the body of an existential `#ids.(pred)` being decided:
/// an identifier typed by an infinite integer set may range over the
/// domain of a function applied to it (see `Planner::applied`).
pub fn plan_exists(ids: &[Sym], pred: &Expr, syms: &Syms) -> PlanResult {
    let prefer = vec![false; ids.len()];
    plan_preferring(ids, pred, syms, (true, false, true, false), prefer)
}

/// `plan`, except that the identifiers no conjunct gives a finite range
/// are bound last, by `Gen::Unbounded`, every conjunct mentioning them
/// checked after: the solving is then unsupported only when some values
/// of the others satisfy every conjunct that does not mention them
/// (otherwise the predicate has no solution, whatever their values:
/// Abrial's hybrid contexts, `sqrt3 * sqrt3 = 3`, with unbounded reals
/// beside). For the PROPERTIES, whose solving ProB counts.
pub fn plan_deferring(ids: &[Sym], pred: &Expr, syms: &Syms) -> PlanResult {
    plan_with(ids, pred, syms, true, true)
}

/// `plan_deferring` for the PROPERTIES, whose integers ProB labels in the
/// order of `range_labelled` where nothing else generates them.
pub fn plan_properties(ids: &[Sym], pred: &Expr, syms: &Syms) -> PlanResult {
    let prefer = vec![false; ids.len()];
    plan_preferring(ids, pred, syms, (true, true, false, true), prefer)
}

/// `plan_deferring`, binding the identifiers `first` (indices into `ids`)
/// before others their conjuncts would generate at the same priority
/// (the constants a symmetry reduction prunes while solving, see
/// `fast_symmetry`).
pub fn plan_deferring_first(ids: &[Sym], pred: &Expr, syms: &Syms, first: &[usize]) -> PlanResult {
    let mut prefer = vec![false; ids.len()];
    first.iter().for_each(|&k| prefer[k] = true);
    plan_preferring(ids, pred, syms, (true, true, false, true), prefer)
}

/// `plan`; `last_resorts`: whether pointwise functions and types (see
/// `points`, `typing`) may generate. Not for the body of an existential
/// conjunct (`Gen::Exists`), whose generator would otherwise be preferred
/// to an integer range or `BOOL` for the outer identifiers.
fn plan_with(ids: &[Sym], pred: &Expr, syms: &Syms, last_resorts: bool, defer: bool) -> PlanResult {
    let prefer = vec![false; ids.len()];
    plan_preferring(ids, pred, syms, (last_resorts, defer, false, false), prefer)
}

/// `plan_with`; `prefer`: per identifier, whether it is bound first among
/// candidates of equal priority.
fn plan_preferring(
    ids: &[Sym],
    pred: &Expr,
    syms: &Syms,
    (last_resorts, defer, exists, labelled): (bool, bool, bool, bool),
    prefer: Vec<bool>,
) -> PlanResult {
    let cs = conjuncts(pred);
    let ment: Vec<Vec<usize>> = cs.iter().map(|c| mentions(c, ids)).collect();
    let int_evidence = ids.iter().map(|&x| int_evidence(x, &cs)).collect();
    let mut p = Planner {
        ids,
        syms,
        checked: ment.iter().map(|m| m.is_empty()).collect(),
        cs,
        ment,
        int_evidence,
        bound: vec![false; ids.len()],
        clipped: vec![false; ids.len()],
        prefer,
        exists,
    };
    let pre = (0..p.cs.len()).filter(|&c| p.checked[c]).collect();
    let mut steps = Vec::new();
    while let Some(k) = p.bound.iter().position(|b| !b) {
        let found = p.best().or_else(|| p.range(false));
        let found = found.or_else(|| p.chained()).or_else(|| p.range(true));
        let found = found.or_else(|| p.boolean());
        let found = found.or_else(|| p.shaped()).or_else(|| p.applied());
        let found = found.or_else(|| p.cases()).or_else(|| p.sized());
        let found = found.or_else(|| p.clipped());
        let found = match found {
            None if last_resorts => p.pointwise().or_else(|| p.typed()),
            found => found,
        };
        // the PROPERTIES only (see `range_labelled`)
        let found = found.or_else(|| labelled.then(|| p.labelled()).flatten());
        let Some((_, vars, gen)) = found else {
            let m = format!(
                "cannot enumerate '{}': no conjunct gives it a finite range (x = E, x : S, x <: S, integer bounds)",
                syms.name(ids[k])
            );
            if !defer {
                return Err((m, pred.pos));
            }
            let rest = (k..ids.len()).filter(|&j| !p.bound[j]).collect();
            steps.push(p.bind(rest, Gen::Unbounded(m, pred.pos)));
            break;
        };
        steps.push(p.bind(vars, gen));
    }
    Ok(Plan {
        pre,
        steps,
        deferring: defer,
    })
}

/// Solving `A = B` for `x` through `+` and `-` is only sound for integers
/// (`-` is also set difference): evidence is a conjunct `x : a..b`,
/// `x : NAT` (...) or `x` compared by `<`, `<=`, `>`, `>=`.
fn int_evidence(x: Sym, cs: &[&Expr]) -> bool {
    let is_x = |e: &Expr| matches!(e.kind, ExprKind::Ident(s) if s == x);
    cs.iter().any(|c| match &c.kind {
        ExprKind::Bin(BinOp::In, a, b) => {
            is_x(a)
                && (matches!(b.kind, ExprKind::Bin(BinOp::Interval, ..)) || is_integer_set(&b.kind))
        }
        ExprKind::Bin(BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge, a, b)
            if is_x(a) || is_x(b) =>
        {
            true
        }
        _ => range_arith::operand(c, x),
    })
}

impl Planner<'_> {
    /// Whether `e` mentions only bound identifiers.
    fn ready(&self, e: &Expr) -> bool {
        mentions(e, self.ids).iter().all(|&k| self.bound[k])
    }

    /// The unbound identifier `e` is, if any.
    fn unbound(&self, e: &Expr) -> Option<usize> {
        ident_of(e)
            .and_then(|s| self.ids.iter().position(|&i| i == s))
            .filter(|&k| !self.bound[k])
    }

    /// The best generating conjunct: lowest priority, then first identifier.
    fn best(&self) -> Option<Cand> {
        let mut best: Option<Cand> = None;
        for c in 0..self.cs.len() {
            if self.checked[c] {
                continue;
            }
            if let Some(cand) = self.generator(c) {
                let key = |ks: &[usize]| (!ks.iter().any(|&k| self.prefer[k]), ks[0]);
                let better = match &best {
                    None => true,
                    Some((p, ks, _)) => cand.0 < *p || (cand.0 == *p && key(&cand.1) < key(ks)),
                };
                if better {
                    best = Some(cand);
                }
            }
        }
        best
    }

    /// Whether `e` names a variable keeping an infinite set of B's types
    /// (see `symbolic_fixed`), as `infinite` says of the set itself.
    fn fixed(&self, e: &Expr) -> bool {
        ident_of(e).is_some_and(|s| self.syms.is_fixed_infinite(s))
    }

    /// How conjunct `c` could generate candidates now, if it can.
    fn generator(&self, c: usize) -> Option<Cand> {
        let ready = |e: &Expr| self.ready(e);
        match &self.cs[c].kind {
            ExprKind::Bin(BinOp::Eq, a, b) => {
                if let (Some(k), true) = (self.unbound(a), ready(b)) {
                    Some((0, vec![k], Gen::Eq { c, left: true }))
                } else if let (Some(k), true) = (self.unbound(b), ready(a)) {
                    Some((0, vec![k], Gen::Eq { c, left: false }))
                } else {
                    let kn = shapes::Known {
                        ids: self.ids,
                        bound: &self.bound,
                        ready: &ready,
                    };
                    self.lin(c, a, b)
                        .or_else(|| self.product(c, a, b))
                        .or_else(|| self.elem(c, a, b, true))
                        .or_else(|| shapes::pattern(c, (a, b), &kn))
                }
            }
            ExprKind::Bin(BinOp::In, a, b) if ready(b) && !infinite(b) && !self.fixed(b) => {
                in_step(a, self.ids, &self.bound, c)
                    .or_else(|| {
                        proj_vars(a, self.ids, &self.bound, &ready)
                            .map(|ks| (2, ks, Gen::Proj { c }))
                    })
                    .or_else(|| self.lin_in(c, a))
            }
            ExprKind::Bin(op @ (BinOp::Subset | BinOp::StrictSubset), a, b) if ready(b) => {
                let strict = *op == BinOp::StrictSubset;
                let sub = self
                    .unbound(a)
                    .map(|k| (3, vec![k], Gen::Subset { c, strict }));
                sub.or_else(|| self.elem(c, a, b, false))
            }
            ExprKind::Quant {
                kind: QuantKind::Exists,
                ids: ys,
                pred,
                ..
            } => self.exists(c, ys, pred),
            _ => None,
        }
    }

    /// `Gen::Exists` for conjunct `c`, `#ys.(q)`, when `q` can be planned
    /// for `ys` and the unbound identifiers it mentions (none of them
    /// shadowed by `ys`).
    fn exists(&self, c: usize, ys: &[Sym], q: &Expr) -> Option<Cand> {
        let free: Vec<usize> = self.ment[c]
            .iter()
            .copied()
            .filter(|&k| !self.bound[k])
            .collect();
        if free.is_empty() || ys.iter().any(|y| self.ids.contains(y)) {
            return None;
        }
        let inner: Vec<Sym> = ys
            .iter()
            .copied()
            .chain(free.iter().map(|&k| self.ids[k]))
            .collect();
        let plan = plan_with(&inner, q, self.syms, false, false).ok()?;
        let gen = Gen::Exists {
            c,
            ids: inner,
            plan: Box::new(plan),
        };
        Some((5, free, gen))
    }

    /// `Gen::Elem` for conjunct `c`, `a = b` (`both`: either way round) or
    /// `a <: b`: the first unbound identifier among the elements of the
    /// extension `a` (or `b`), the other side being ready and finite.
    fn elem(&self, c: usize, a: &Expr, b: &Expr, both: bool) -> Option<Cand> {
        let pick = |ext: &Expr, set: &Expr| match &ext.kind {
            ExprKind::SetExt(v) if self.ready(set) && !infinite(set) => {
                v.iter().find_map(|e| self.unbound(e))
            }
            _ => None,
        };
        let found = pick(a, b).map(|k| (k, true));
        let found = found.or_else(|| pick(b, a).filter(|_| both).map(|k| (k, false)));
        found.map(|(k, left)| (3, vec![k], Gen::Elem { c, left }))
    }

    /// The only unbound identifier conjunct `c` mentions (as the one index
    /// of a step, and itself), when it is an integer by evidence.
    fn one_integer(&self, c: usize) -> Option<(Vec<usize>, Sym)> {
        let free: Vec<usize> = self.ment[c]
            .iter()
            .copied()
            .filter(|&k| !self.bound[k])
            .collect();
        let x = self.ids[*free.first()?];
        (free.len() == 1 && self.int_evidence[free[0]]).then_some((free, x))
    }

    /// `Gen::Lin` for conjunct `c`, `a = b`, when it has one unbound
    /// identifier, an integer, on a `+`/`-` chain of one side.
    fn lin(&self, c: usize, a: &Expr, b: &Expr) -> Option<Cand> {
        let (free, x) = self.one_integer(c)?;
        if lin_path(a, x) && mentions(b, &[x]).is_empty() {
            Some((1, free, Gen::Lin { c, left: true }))
        } else if lin_path(b, x) && mentions(a, &[x]).is_empty() {
            Some((1, free, Gen::Lin { c, left: false }))
        } else {
            None
        }
    }

    /// `Gen::LinIn` for conjunct `c`, `a : S`, when it has one unbound
    /// identifier, an integer, on a `+`/`-` chain of `a` (see
    /// `range_member`).
    fn lin_in(&self, c: usize, a: &Expr) -> Option<Cand> {
        let (free, x) = self.one_integer(c)?;
        lin_path(a, x).then_some((2, free, Gen::LinIn { c }))
    }

    /// `Gen::Product` for conjunct `c`, `a = b`, when it has one unbound
    /// identifier, an integer, in a product on a `+`/`-` chain of one side
    /// (see `range_product`).
    fn product(&self, c: usize, a: &Expr, b: &Expr) -> Option<Cand> {
        let (free, x) = self.one_integer(c)?;
        let ready = |e: &Expr| self.ready(e);
        let solvable = |side: &Expr, other: &Expr| {
            range_product::solvable(side, x, &ready) && mentions(other, &[x]).is_empty()
        };
        if solvable(a, b) {
            Some((1, free, Gen::Product { c, left: true }))
        } else if solvable(b, a) {
            Some((1, free, Gen::Product { c, left: false }))
        } else {
            None
        }
    }

    /// `Gen::Range` for the first unbound identifier with integer bounds;
    /// `boxed`: compared with partners clipped with it (see `partner`).
    fn range(&self, boxed: bool) -> Option<Cand> {
        (0..self.ids.len())
            .filter(|&k| !self.bound[k])
            .find_map(|k| {
                let ready = |e: &Expr| {
                    let m = mentions(e, self.ids);
                    m.iter().all(|&j| self.bound[j] && !self.clipped[j])
                };
                let mentions_x = |c: usize| self.ment[c].contains(&k);
                let group = if boxed { self.group(k) } else { Vec::new() };
                let partner = |y: Sym| {
                    let j = self.ids.iter().position(|&i| i == y);
                    j.is_some_and(|j| j != k && group.get(j) == Some(&true))
                };
                let (cs, checked) = (&self.cs, &self.checked);
                let open = range_alias::Open {
                    ids: self.ids,
                    bound: &self.bound,
                    cs,
                    checked,
                };
                let x = self.ids[k];
                let defines = |e: &Expr| range_alias::defines_unused(e, x, &open);
                let mut r =
                    bounds::range_of(x, cs, checked, &ready, &mentions_x, &partner, &defines)?;
                let mentions = |y: Sym, c: usize| {
                    let j = self.ids.iter().position(|&i| i == y);
                    j.is_some_and(|j| self.ment[c].contains(&j))
                };
                let lone = |c: usize| {
                    let mut m = Vec::new();
                    idents(cs[c], &mut m);
                    m.iter().all(|&s| s == x)
                };
                r.caps = range_beyond::caps(x, &r, cs, &ready, &mentions, &lone);
                r.pushes = range_pushed::pushes(x, &r, cs, &ready, &mentions, &partner);
                r.before = self.ids[..k].to_vec();
                Some((4, vec![k], Gen::Range(r)))
            })
    }

    /// The identifiers that may be clipped with identifier `k` to
    /// `MININT..MAXINT` (see `range_group`).
    fn group(&self, k: usize) -> Vec<bool> {
        let binder = range_group::Binder {
            ids: self.ids,
            cs: &self.cs,
            checked: &self.checked,
            ment: &self.ment,
            bound: &self.bound,
            clipped: &self.clipped,
        };
        binder.group(k)
    }

    /// `Gen::Range` for the first unbound identifier with a finite range by
    /// propagation through identifiers not yet bound (see `chain`).
    fn chained(&self) -> Option<Cand> {
        let ready = |e: &Expr| self.ready(e);
        let unbound = |s: Sym| (0..self.ids.len()).any(|k| self.ids[k] == s && !self.bound[k]);
        let ctx = chain::Ctx {
            cs: &self.cs,
            checked: &self.checked,
            ready: &ready,
            unbound: &unbound,
        };
        (0..self.ids.len())
            .filter(|&k| !self.bound[k])
            .find_map(|k| Some((4, vec![k], Gen::Range(chain::chained(self.ids[k], &ctx)?))))
    }

    /// `Gen::Bool` for the first unbound identifier compared with `TRUE` or
    /// `FALSE` in a conjunct not yet checked.
    fn boolean(&self) -> Option<Cand> {
        (0..self.ids.len())
            .filter(|&k| !self.bound[k])
            .find(|&k| {
                (0..self.cs.len()).any(|c| {
                    !self.checked[c]
                        && self.ment[c].contains(&k)
                        && compared_with_bool(self.cs[c], self.ids[k])
                })
            })
            .map(|k| (6, vec![k], Gen::Bool))
    }

    /// Failing the generators above, the first conjunct not yet checked
    /// that gives `Gen::UnionPart`, then `Gen::DomainEnd` (see `shapes`),
    /// then `Gen::Slice` (see `concat`).
    fn shaped(&self) -> Option<Cand> {
        let ready = |e: &Expr| self.ready(e);
        let kn = shapes::Known {
            ids: self.ids,
            bound: &self.bound,
            ready: &ready,
        };
        let open = || (0..self.cs.len()).filter(|&c| !self.checked[c]);
        let sides = |c: usize| match &self.cs[c].kind {
            ExprKind::Bin(op, a, b) => Some((*op, &**a, &**b)),
            _ => None,
        };
        let union = |c| match sides(c)? {
            (BinOp::Eq, a, b) => shapes::union_part(c, (a, b), &kn, &infinite),
            _ => None,
        };
        let end = |c| match sides(c)? {
            (BinOp::In, a, b) => shapes::domain_end(c, (a, b), &kn),
            _ => None,
        };
        let slice = |c| match sides(c)? {
            (BinOp::Eq, a, b) => concat::slice(c, (a, b), &kn),
            _ => None,
        };
        let found = open().find_map(union).or_else(|| open().find_map(end));
        found.or_else(|| open().find_map(slice))
    }

    /// `Gen::Applied` for the first unbound identifier applied to by a ready
    /// function in a conjunct not yet checked (see `applied`), unless typed
    /// by an infinite integer set (`i : NATURAL & route(i) = n`: ProB may
    /// label `i` from its typing and apply `route` outside its domain, a
    /// well-definedness error, as in BarRel_CXCC_Feb08's parameters) except
    /// in an existential being decided (CXCC's `#i.(i : NATURAL1 &
    /// route(f)(i) = n & ...)`, whose truth does not depend on the order
    /// ProB labels in: 558 states as ProB's), nor applied by a constant
    /// kept symbolic as an infinite set.
    fn applied(&self) -> Option<Cand> {
        // a function kept symbolic as an infinite closure has no domain
        // to draw from (Euler_Problem_004's `num(s) = p`)
        let infinite = |e: &Expr| ident_of(e).is_some_and(|s| self.syms.is_infinite_closure(s));
        let ready = |e: &Expr| self.ready(e) && !infinite(e);
        (0..self.ids.len())
            .filter(|&k| !self.bound[k])
            .filter(|&k| self.exists || !self.cs.iter().any(|c| is_int_typing(c, &self.ids[k..=k])))
            .find_map(|k| {
                (0..self.cs.len())
                    .filter(|&c| !self.checked[c] && self.ment[c].contains(&k))
                    .find_map(|c| {
                        let path = applied::function_of(self.cs[c], self.ids[k], &ready)?;
                        Some((7, vec![k], Gen::Applied { c, path }))
                    })
            })
    }

    /// The first candidate `f` gives for an unbound identifier.
    fn first_unbound(&self, f: impl Fn(usize) -> Option<Cand>) -> Option<Cand> {
        (0..self.ids.len()).filter(|&k| !self.bound[k]).find_map(f)
    }

    /// `Gen::Cases` for the first unbound identifier fixed in every case of
    /// a disjunction not yet checked (see `cases`).
    fn cases(&self) -> Option<Cand> {
        let ready = |e: &Expr| self.ready(e);
        self.first_unbound(|k| {
            let open = |c: &usize| !self.checked[*c] && self.ment[*c].contains(&k);
            let x = self.ids[k];
            let c = (0..self.cs.len())
                .filter(open)
                .find(|&c| cases::fixes(self.cs[c], x, &ready));
            let implied = || {
                (0..self.cs.len())
                    .filter(open)
                    .any(|c| cases::implies_fixes(self.cs[c], x, &ready))
            };
            if c.is_none() && !implied() {
                return None;
            }
            let unbound = (0..self.ids.len())
                .filter(|&j| !self.bound[j] && j != k)
                .map(|j| self.ids[j])
                .collect();
            let ws = self.witnesses(k);
            Some((7, vec![k], Gen::Cases { c, unbound, ws }))
        })
    }

    /// `Gen::Sized` for the first unbound identifier `x` with conjuncts
    /// `x : seq(S)` (`S` ready and finite, or `ran(x) = R` with `R` so)
    /// and `size(x) = n` (`n` ready).
    fn sized(&self) -> Option<Cand> {
        let open = |c: &usize| !self.checked[*c];
        self.first_unbound(|k| {
            let x = self.ids[k];
            (0..self.cs.len())
                .filter(open)
                .find(|&c| sized::seq_set(self.cs[c], x).is_some())?;
            let set = (0..self.cs.len()).filter(open).find(|&c| {
                sized::elements_set(self.cs[c], x).is_some_and(|s| self.ready(s) && !infinite(s))
            })?;
            let len = (0..self.cs.len())
                .filter(open)
                .find(|&c| sized::length(self.cs[c], x).is_some_and(|n| self.ready(n)))?;
            Some((7, vec![k], Gen::Sized { set, len }))
        })
    }

    /// `Gen::Clipped` for the first unbound identifier whose only conjunct
    /// is `x : D +-> INTEGER` (see `clipped`).
    fn clipped(&self) -> Option<Cand> {
        let ready = |e: &Expr| self.ready(e);
        self.first_unbound(|k| {
            let x = self.ids[k];
            let on_x: Vec<usize> = (0..self.cs.len())
                .filter(|&c| self.ment[c].contains(&k))
                .collect();
            let typed = |&c: &usize| !self.checked[c] && clipped::typing(self.cs[c], x, &ready);
            let c = on_x.iter().copied().find(typed)?;
            let bounds: Vec<usize> = on_x.iter().copied().filter(|&b| b != c).collect();
            let pointwise = |&b: &usize| {
                clipped::pointwise_bound(self.cs[b], x, &ready).is_some()
                    || super::range_negated::waits(self.cs[b])
            };
            bounds
                .iter()
                .all(pointwise)
                .then(|| (7, vec![k], Gen::Clipped { c, bounds }))
        })
    }

    /// `Gen::Labelled` for the group of `range_labelled`, if any.
    fn labelled(&self) -> Option<Cand> {
        let ready: Vec<bool> = (0..self.ids.len())
            .map(|k| self.bound[k] && !self.clipped[k])
            .collect();
        let b = super::range_labelled::Binder {
            ids: self.ids,
            cs: &self.cs,
            checked: &self.checked,
            ment: &self.ment,
            ready: &ready,
            bound: &self.bound,
        };
        let l = super::range_labelled::plan(&b)?;
        Some((7, l.order.clone(), Gen::Labelled(l)))
    }

    /// `Gen::Points` for the first conjunct `f : D --> R` not yet checked
    /// with `D` finite and `R` infinite, when equations `f(a) = E` are
    /// ready (a last resort: a point they leave free is unsupported).
    fn pointwise(&self) -> Option<Cand> {
        (0..self.cs.len())
            .filter(|&c| !self.checked[c])
            .find_map(|c| match &self.cs[c].kind {
                ExprKind::Bin(BinOp::In, a, b) if self.ready(b) && infinite(b) => {
                    self.points(c, a, b)
                }
                _ => None,
            })
    }

    fn points(&self, c: usize, a: &Expr, space: &Expr) -> Option<Cand> {
        let k = self.unbound(a)?;
        let dom = points::total_domain(space)?;
        if infinite(dom) {
            return None;
        }
        let ready = |e: &Expr| self.ready(e);
        let only_f = |c: usize| self.ment[c].iter().all(|&j| j == k || self.bound[j]);
        let eqs = points::equations(self.ids[k], &self.cs, &self.checked, &ready, &only_f);
        (!eqs.is_empty()).then(|| (2, vec![k], Gen::Points { c, eqs }))
    }

    /// `Gen::Type` for the first unbound identifier whose type some
    /// conjunct not yet checked shows (see `typing`).
    fn typed(&self) -> Option<Cand> {
        (0..self.ids.len())
            .filter(|&k| !self.bound[k] && !self.int_evidence[k])
            .filter(|&k| !self.ids[..k].contains(&self.ids[k]))
            .find_map(|k| {
                let ws = self.witnesses(k);
                (!ws.is_empty()).then(|| (7, vec![k], Gen::Type(ws)))
            })
    }

    /// The witnesses of the type of identifier `k` (see `typing`).
    fn witnesses(&self, k: usize) -> Vec<typing::Witness> {
        let ready = |e: &Expr| self.ready(e);
        (0..self.cs.len())
            .filter(|&c| !self.checked[c] && self.ment[c].contains(&k))
            .flat_map(|c| typing::witnesses(self.cs[c], c, self.ids[k], &ready))
            .chain(super::deferred_homogeneous::witnesses(
                &self.cs,
                self.ids[k],
                &ready,
            ))
            .collect()
    }

    /// Binds `vars` by `gen`: the step, with the conjuncts now checkable.
    fn bind(&mut self, vars: Vec<usize>, gen: Gen) -> Step {
        for &k in &vars {
            self.bound[k] = true;
            self.clipped[k] = matches!(&gen, Gen::Range(r) if r.clip);
        }
        // a product's solution must still lie in the typing set (`z : NAT1
        // & 5 * z = 20` has none with MAXINT = 3), and a member's
        // (`p : NATURAL1 & p + 3 : 1..3` has none)
        let typings_checked = matches!(gen, Gen::Product { .. } | Gen::LinIn { .. });
        let exact = match gen {
            Gen::Eq { c, .. }
            | Gen::In { c }
            | Gen::Subset { c, .. }
            | Gen::Exists { c, .. }
            | Gen::Clipped { c, .. } => Some(c),
            Gen::Lin { .. }
            | Gen::Elem { .. }
            | Gen::Proj { .. }
            | Gen::Range(_)
            | Gen::Bool
            | Gen::Type(_)
            | Gen::Applied { .. }
            | Gen::Cases { .. }
            | Gen::Sized { .. }
            | Gen::Points { .. }
            | Gen::Pattern { .. }
            | Gen::UnionPart { .. }
            | Gen::Slice { .. }
            | Gen::Product { .. }
            | Gen::LinIn { .. }
            | Gen::Unbounded(..)
            | Gen::Labelled(_)
            | Gen::DomainEnd { .. } => None,
        };
        if let Some(c) = exact {
            self.checked[c] = true;
        }
        let mut checks = Vec::new();
        for c in 0..self.cs.len() {
            if !self.checked[c] && self.ment[c].iter().all(|&k| self.bound[k]) {
                self.checked[c] = true;
                if typings_checked || !is_int_typing(self.cs[c], self.ids) {
                    checks.push(c);
                }
            }
        }
        Step { vars, gen, checks }
    }
}

/// Whether `p` compares `x` with `TRUE` or `FALSE` (`=`, `/=`), at its top
/// or under `&`, `or`, `not`, `=>`, `<=>` (not inside a binder, which may
/// rebind `x`).
fn compared_with_bool(p: &Expr, x: Sym) -> bool {
    let is_x = |e: &Expr| matches!(e.kind, ExprKind::Ident(s) if s == x);
    let is_lit = |e: &Expr| matches!(e.kind, ExprKind::Bool(_));
    match &p.kind {
        ExprKind::Bin(BinOp::Eq | BinOp::Neq, a, b) => {
            (is_x(a) && is_lit(b)) || (is_lit(a) && is_x(b))
        }
        ExprKind::Bin(BinOp::And | BinOp::Or | BinOp::Implies | BinOp::Equiv, a, b) => {
            compared_with_bool(a, x) || compared_with_bool(b, x)
        }
        ExprKind::Call(Builtin::Not, a) => a.iter().any(|e| compared_with_bool(e, x)),
        _ => false,
    }
}

/// Whether `c` is `x : NAT` (or `NAT1`, `INT`, `NATURAL`, `NATURAL1`,
/// `INTEGER`) for a bound identifier `x`. When such a conjunct does not
/// generate `x`, ProB takes it as `x`'s typing and does not check it
/// (`length : NAT & length = 5` holds with `MAXINT = 3`), while
/// `a * b : NAT` is checked against `MAXINT`.
/// Whether `k` names one of B's integer sets (NAT, NAT1, INT, NATURAL,
/// NATURAL1, INTEGER).
pub(super) fn is_integer_set(k: &ExprKind) -> bool {
    matches!(
        k,
        ExprKind::Named(
            NamedSet::Nat
                | NamedSet::Nat1
                | NamedSet::Int
                | NamedSet::Natural
                | NamedSet::Natural1
                | NamedSet::Integer
        )
    )
}

pub(super) fn is_int_typing(c: &Expr, ids: &[Sym]) -> bool {
    match &c.kind {
        ExprKind::Bin(BinOp::In, a, b) => {
            matches!(a.kind, ExprKind::Ident(x) if ids.contains(&x)) && is_integer_set(&b.kind)
        }
        _ => false,
    }
}

/// Whether `e` is an infinite set built from B's types alone, naming no
/// identifier (`STRING`, `POW(INTEGER)`, `NATURAL +-> BOOL`).
pub fn infinite_type(e: &Expr) -> bool {
    let mut named = false;
    crate::compile::visit(e, &mut |x| named |= matches!(x.kind, ExprKind::Ident(_)));
    !named && infinite(e)
}

/// Sets that are infinite whatever the state (never used as generators).
pub(super) fn infinite(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Named(n) => matches!(
            n,
            NamedSet::Natural | NamedSet::Natural1 | NamedSet::Integer | NamedSet::String
        ),
        ExprKind::Call(Builtin::Seq | Builtin::Seq1, _) => true,
        ExprKind::Call(Builtin::Pow | Builtin::Pow1 | Builtin::Fin | Builtin::Fin1, a) => {
            a.iter().any(infinite)
        }
        // `iseq(NATURAL)` (Sort), a generator only over a finite set
        ExprKind::Call(Builtin::Iseq | Builtin::Iseq1 | Builtin::Perm, a) => a.iter().any(infinite),
        ExprKind::Bin(BinOp::Space(_) | BinOp::Mul, a, b) => infinite(a) || infinite(b),
        // `NATURAL - {0}` (see `bounds::interval`)
        ExprKind::Bin(BinOp::Minus, a, b) => {
            matches!(a.kind, ExprKind::Named(_)) && infinite(a) && super::bounds::literals(b)
        }
        _ => false,
    }
}

/// For `Gen::In`: conjunct `c` is `pattern : E` whose pattern is made of
/// distinct unbound identifiers of `ids` only.
fn in_step(a: &Expr, ids: &[Sym], bound: &[bool], c: usize) -> Option<Cand> {
    let mut pv = Vec::new();
    if !pattern_ids(a, &mut pv) {
        return None;
    }
    let mut ks: Vec<usize> = pv
        .iter()
        .map(|s| ids.iter().position(|i| i == s).filter(|&k| !bound[k]))
        .collect::<Option<_>>()?;
    let n = ks.len();
    ks.sort_unstable();
    ks.dedup();
    (n > 0 && ks.len() == n).then_some((2, ks, Gen::In { c }))
}

/// For `Gen::Proj`: the unbound identifiers among the leaves of the maplet
/// `p` (through singleton extensions `{x |-> x}`; an identifier met twice
/// is projected once, the conjunct's check deciding), when every other
/// leaf is `ready`; `None` otherwise.
fn proj_vars(
    p: &Expr,
    ids: &[Sym],
    bound: &[bool],
    ready: &dyn Fn(&Expr) -> bool,
) -> Option<Vec<usize>> {
    fn go(
        p: &Expr,
        ids: &[Sym],
        bound: &[bool],
        ready: &dyn Fn(&Expr) -> bool,
        out: &mut Vec<usize>,
    ) -> bool {
        match &p.kind {
            ExprKind::Bin(BinOp::Maplet, a, b) => {
                return go(a, ids, bound, ready, out) && go(b, ids, bound, ready, out);
            }
            ExprKind::SetExt(v) if v.len() == 1 => return go(&v[0], ids, bound, ready, out),
            _ => {}
        }
        let k = ident_of(p).and_then(|s| ids.iter().position(|&i| i == s));
        match k {
            Some(k) if !bound[k] => {
                out.push(k);
                true
            }
            _ => ready(p),
        }
    }
    let mut out = Vec::new();
    let shaped = matches!(p.kind, ExprKind::Bin(BinOp::Maplet, ..))
        || matches!(&p.kind, ExprKind::SetExt(v) if v.len() == 1);
    if !shaped || !go(p, ids, bound, ready, &mut out) {
        return None;
    }
    out.sort_unstable();
    out.dedup();
    (!out.is_empty()).then_some(out)
}
