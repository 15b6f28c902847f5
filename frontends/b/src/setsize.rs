//! The number of elements ProB gives each deferred set: `card(S) = n` in
//! some PROPERTIES (`n` a literal, or an expression ProB evaluates before
//! solving: see `setinfer`), else `scope_S`, else the default set size.
//! `card(S) = e` with `e` naming constants no conjunct equates to anything
//! keeps that size (`setinfer`); other expressions are refused.
//!
//! `S = {x1, .., xk}`, the `xi` distinct constants, is accepted when `S`
//! has `k` elements by those rules: the `xi` are then pairwise distinct,
//! and `symmetry` enumerates them as ProB does, one solution up to the
//! order of `S`'s elements (ProB: DeferredSetAndConstants3,
//! SimpleRodinTypeCheckTest, Ticket_DefSetCst, DefSetCst_ctx). With fewer
//! than `k` elements the size stays and the `xi` are enumerated the same
//! way (Bepi_Soton's M0, M1 and M2: 4 constants over a set of 2).
//! Refused: `xi` all said pairwise distinct (ProB may then make `S` an
//! enumerated set and drop the SETUP_CONSTANTS step: the
//! ModeProtocolMachine models have one state and one transition fewer),
//! more elements than `k` or than a clique of constants said distinct
//! (ProB then infers another size: EnumSetTest's `Single = {ss}`).
//!
//! Bounds `card(S) < e` (`<=`, `>`, `>=`, `/=`) keep the size when `e` is
//! not a literal (Graph, switcher_example) or when the size meets them (arinc653model's `0 < card(PARTITIONS) & card(PARTITIONS) <
//! 256`); otherwise ProB infers another size: refused. `dom(f) = S` and
//! `ran(f) = S` keep it too (Access, Access2, AccessU3, SimpleCycle).
//!
//! A bijection or surjection that needs more elements than the default
//! size (`make : BOOL * BOOL >->> S`) raises it (`deferred_mincard`), as
//! do a tree of partitions into non-empty parts (`deferred_parts`) and
//! constants `x : S` said pairwise distinct (the largest such clique).
//!
//! Other constraints on `S` itself (`S = A \/ B`: ProB's counts of
//! Ancestors and the stellwerk models are smaller than the plain
//! solutions', ProB breaking the symmetry of such partitions) are
//! refused.
//!
//! Owns that choice; the settings themselves are `compile`'s.

use rustc_hash::FxHashMap;

use crate::ast::*;
use crate::deferred_mincard::{known_size, least_size};
use crate::deferred_parts::least_by_parts;
use crate::deferred_singletons::{all_elementary, setup_stays, singleton_union};
use crate::error::{BError, ErrorKind};
use crate::parse::err_at;
use crate::setinfer::{card_before_solving, lower_bound, Before, Bounds};

type R<T> = Result<T, BError>;

/// What the size of a deferred set depends on.
pub struct SetSizes<'a> {
    pub machines: &'a [Machine],
    pub syms: &'a Syms,
    pub scopes: &'a FxHashMap<String, i64>,
    pub default: i64,
    /// MAXINT and MININT, which `card(S) = MAXINT` may name
    pub bounds: Bounds,
    pub files: &'a [String],
}

impl SetSizes<'_> {
    fn conjuncts(&self) -> impl Iterator<Item = &Expr> {
        self.machines
            .iter()
            .flat_map(|m| &m.properties)
            .flat_map(crate::solve::conjuncts)
    }

    fn is_constant(&self, x: Sym) -> bool {
        self.machines.iter().any(|m| m.constants.contains(&x))
    }

    /// The size of deferred set `d`: see the module comment.
    pub fn size(&self, d: &SetDecl) -> R<i64> {
        self.size_at(d, &[])
    }

    /// The size of a set named `x` known before solving: an enumerated
    /// set's, or a deferred set's not among `visiting` (see
    /// `deferred_mincard`).
    fn named_size(&self, x: Sym, visiting: &[Sym]) -> Option<i64> {
        let d = self
            .machines
            .iter()
            .flat_map(|m| &m.sets)
            .find(|d| d.name == x)?;
        match &d.elements {
            Some(es) => Some(es.len() as i64),
            None if visiting.contains(&x) => None,
            None => self.size_at(d, visiting).ok(),
        }
    }

    fn size_at(&self, d: &SetDecl, visiting: &[Sym]) -> R<i64> {
        let name = self.syms.name(d.name);
        let is_card_s = |e: &Expr| matches!(&e.kind, ExprKind::Call(Builtin::Card, a) if matches!(a[0].kind, ExprKind::Ident(s) if s == d.name));
        let is_s = |e: &Expr| matches!(e.kind, ExprKind::Ident(s) if s == d.name);
        let refuse =
            |c: &Expr, what: String| err_at(self.files, ErrorKind::Unsupported, c.pos, what);
        let mut card: Option<i64> = None;
        let consts: Vec<Sym> = self
            .machines
            .iter()
            .flat_map(|m| m.constants.clone())
            .collect();
        let mut listed: Vec<(&Expr, Vec<Sym>)> = Vec::new();
        let mut bounds: Vec<&Expr> = Vec::new();
        let all: Vec<&Expr> = self.conjuncts().collect();
        let partition = crate::partition::partition_of(&all, d.name);
        let mut union_at = None;
        for c in self.conjuncts() {
            if partition.is_some() && crate::partition::union_of(c, d.name) == partition {
                union_at = Some(c);
                continue;
            }
            if let Some(xs) =
                listing(c, d.name, &consts).or_else(|| singleton_union(c, d.name, &consts))
            {
                listed.push((c, xs));
                continue;
            }
            match &c.kind {
                ExprKind::Bin(BinOp::Eq, a, b) if is_card_s(a) || is_card_s(b) => {
                    let other = if is_card_s(a) { b } else { a };
                    match card_before_solving(other, &consts, &all, &self.bounds) {
                        _ if literal(other).is_none() && self.scopes.contains_key(name) => {}
                        Before::Known(n) => card = Some(n),
                        Before::Unknown => {}
                        Before::Other => {
                            return Err(refuse(
                                c,
                                format!(
                                    "card({name}) fixed by an expression ProB may evaluate first"
                                ),
                            ))
                        }
                    }
                }
                // `S /= {}`: true of every deferred set, whatever its size
                // (M0_v2_internal's `colors_list /= {}`)
                ExprKind::Bin(BinOp::Neq, a, b)
                    if [(a, b), (b, a)]
                        .iter()
                        .any(|(p, q)| is_s(p) && matches!(q.kind, ExprKind::EmptySet)) => {}
                // `P = S` defining a constant P (an included machine's set
                // parameter) does not constrain S
                ExprKind::Bin(BinOp::Eq, a, b)
                    if (is_s(a) || is_s(b))
                        && [a, b].iter().any(
                            |e| matches!(e.kind, ExprKind::Ident(x) if self.is_constant(x)),
                        ) => {}
                // `dom(f) = S`, `ran(f) = S`: no size inferred
                ExprKind::Bin(BinOp::Eq, a, b)
                    if [(a, b), (b, a)].iter().any(|(p, q)| {
                        is_s(p) && matches!(q.kind, ExprKind::Call(Builtin::Dom | Builtin::Ran, _))
                    }) => {}
                ExprKind::Bin(BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Neq, a, b)
                    if is_card_s(a) != is_card_s(b) =>
                {
                    bounds.push(c)
                }
                ExprKind::Bin(
                    BinOp::Eq | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Neq,
                    a,
                    b,
                ) if is_card_s(a) || is_card_s(b) || is_s(a) || is_s(b) => {
                    return Err(refuse(
                        c,
                        format!("a constraint on the deferred set {name} itself (ProB may choose its size)"),
                    ));
                }
                _ => {}
            }
        }
        let mut fixed = card.or_else(|| self.scopes.get(name).copied());
        if let (Some(parts), Some(c)) = (&partition, union_at) {
            match self.partition_size(parts, fixed, &all) {
                Ok(size) => fixed = size,
                // every element named: no free element to allocate
                Err(_) if self.names_every_element(&listed, fixed) => {}
                Err(why) => return Err(refuse(c, format!("a partition of {name} into {} parts {why} (ProB may infer its size or break its symmetry otherwise)", parts.len()))),
            }
        }
        let n = match listed.as_slice() {
            [] => fixed.unwrap_or(self.default),
            [(c, xs)] => {
                let (n, k) = (fixed.unwrap_or(self.default), xs.len() as i64);
                let m = largest_clique(xs.len(), &self.distinct_pairs(xs));
                let stays = setup_stays(&all, &consts, xs) || all_elementary(&all);
                if k >= 2 && m == Some(xs.len()) && stays && fixed.is_none_or(|f| f == k) {
                    k
                } else if k >= 2 && m == Some(xs.len()) {
                    return Err(refuse(c, format!("{name} = {{..}} of {k} constants said pairwise distinct (ProB may make {name} an enumerated set without a SETUP_CONSTANTS step: ModeProtocolMachine)")));
                } else if m.is_none_or(|m| n < m as i64) || n > k {
                    return Err(refuse(c, format!("{name} = {{..}} of {k} constants, {name} of {n} elements (ProB may choose its size)")));
                } else {
                    n
                }
            }
            [_, (c, _), ..] => return Err(refuse(c, format!("{name} = {{..}} twice"))),
        };
        let defaulted = fixed.is_none() && listed.is_empty();
        let within: Vec<Sym> = visiting.iter().copied().chain([d.name]).collect();
        let size_of = |e: &Expr| known_size(e, &|x| self.named_size(x, &within));
        let demanded = all.iter().filter_map(|c| least_size(c, d.name, &size_of));
        let least = bounds.iter().filter_map(|c| lower_bound(c, d.name));
        let parts = Some(least_by_parts(&all, d.name)).filter(|&k| k > 0);
        let distinct = self.distinct_elements(d.name, &consts);
        let rest = Some(crate::deferred_rest::least_by_rest(&all, d.name)).filter(|&k| k > 0);
        let listed_parts = Some(crate::deferred_listed_parts::least_by_listed_parts(
            &all, d.name,
        ))
        .filter(|&k| k > 0);
        let n = match least
            .chain(demanded)
            .chain(parts)
            .chain(distinct)
            .chain(rest)
            .chain(listed_parts)
            .max()
        {
            Some(least) if defaulted && least > n => least,
            _ => n,
        };
        for c in bounds {
            self.check_bound(c, d.name, n)?;
        }
        crate::deferred_listed_parts::check_free(&all, d.name, n)
            .map_err(|m| refuse_at(self.files, d.pos, m))?;
        if !(1..=1000).contains(&n) {
            return Err(refuse_at(
                self.files,
                d.pos,
                format!("deferred set of {n} elements"),
            ));
        }
        Ok(n)
    }

    /// The size of a partitioned set (see `partition`): `fixed` (from
    /// `card(S)` or `scope_S`) or the sum of the parts' sizes, else, for
    /// two parts, the default size (ProB's counts of Ancestors and the
    /// stellwerk models). Three parts or more are taken only when every
    /// part has a size: with unknown sizes ProB's counts differ from both
    /// the default size and the parts allocated in order
    /// (data_structure_ctx: 90 constant solutions, not 100).
    fn partition_size(
        &self,
        parts: &[Sym],
        fixed: Option<i64>,
        all: &[&Expr],
    ) -> Result<Option<i64>, &'static str> {
        match (self.parts_size(parts, all), fixed) {
            (Some(sum), Some(n)) if sum != n => Err("whose sizes do not add up to its own"),
            (Some(sum), _) => Ok(Some(sum)),
            (None, Some(n)) if crate::deferred_equal_parts::equal_parts(parts, n, all) => {
                Ok(Some(n))
            }
            (None, _) if parts.len() > 2 => Err("of unknown sizes"),
            (None, fixed) => Ok(fixed),
        }
    }

    /// Whether `listed` is one listing `S = {x1, .., xk}` (or Event-B's
    /// partition into singletons) of `k >= 2` constants said pairwise
    /// distinct, `S` of `k` elements (`fixed`, when given, is `k`): every
    /// element of `S` is then a constant's, none is free, and a partition
    /// of `S` into parts of unknown sizes leaves no choice to ProB's
    /// allocation of free elements (`partition`): its parts are
    /// constraints like any other (Arguments_Example_ctx: `ARGUMENTS`
    /// listed by 5 singletons, partitioned into `in`, `out`, `undec`; one
    /// solution, 2 states).
    fn names_every_element(&self, listed: &[(&Expr, Vec<Sym>)], fixed: Option<i64>) -> bool {
        let [(_, xs)] = listed else {
            return false;
        };
        let k = xs.len();
        k >= 2
            && fixed.is_none_or(|f| f == k as i64)
            && largest_clique(k, &self.distinct_pairs(xs)) == Some(k)
    }

    /// The sum of the parts' sizes when each has `card(A) = e`, `e`
    /// known before solving (see `partition`).
    fn parts_size(&self, parts: &[Sym], all: &[&Expr]) -> Option<i64> {
        parts.iter().try_fold(0i64, |sum, &a| {
            let n = all.iter().find_map(|c| match &c.kind {
                ExprKind::Bin(BinOp::Eq, l, r) => [(l, r), (r, l)].iter().find_map(|(p, q)| {
                    let card_a = matches!(&p.kind, ExprKind::Call(Builtin::Card, x) if matches!(x[0].kind, ExprKind::Ident(y) if y == a));
                    match card_a.then(|| card_before_solving(q, &[], all, &self.bounds)) {
                        Some(Before::Known(n)) => Some(n),
                        _ => None,
                    }
                }),
                _ => None,
            })?;
            sum.checked_add(n)
        })
    }

    /// Checks that `S` of `n` elements satisfies the conjunct `c`,
    /// `card(S) < e` (or `<=`, `>`, `>=`, `/=`, either way round): refused
    /// when `e` is a literal and `n` does not (ProB then infers another
    /// size), accepted when `e` is not a literal (ProB keeps the size:
    /// Graph's `card(Labels) < card(LabelsUniverse)`, switcher_example).
    fn check_bound(&self, c: &Expr, s: Sym, n: i64) -> R<()> {
        let ExprKind::Bin(op, a, b) = &c.kind else {
            return Ok(());
        };
        let card_s = matches!(&a.kind, ExprKind::Call(Builtin::Card, x) if matches!(x[0].kind, ExprKind::Ident(y) if y == s));
        let (op, other) = match (card_s, op) {
            (true, _) => (*op, b),
            (false, BinOp::Lt) => (BinOp::Gt, a),
            (false, BinOp::Le) => (BinOp::Ge, a),
            (false, BinOp::Gt) => (BinOp::Lt, a),
            (false, BinOp::Ge) => (BinOp::Le, a),
            (false, _) => (*op, a),
        };
        let Some(v) = literal(other) else {
            return Ok(());
        };
        let holds = match op {
            BinOp::Lt => n < v,
            BinOp::Le => n <= v,
            BinOp::Gt => n > v,
            BinOp::Ge => n >= v,
            _ => n != v,
        };
        if holds {
            return Ok(());
        }
        let name = self.syms.name(s);
        Err(err_at(
            self.files,
            ErrorKind::Unsupported,
            c.pos,
            format!("a bound on card({name}) that its {n} elements do not meet (ProB may choose its size)"),
        ))
    }

    /// The pairs of `xs` (indices) that a PROPERTIES conjunct says
    /// distinct: `x /= y`, `not(x = y)` or `{x} /\ {y} = {}` (a
    /// partition's translation).
    fn distinct_pairs(&self, xs: &[Sym]) -> Vec<(usize, usize)> {
        distinct_pairs(self.conjuncts(), xs)
    }

    /// The number of constants typed `x : S` by a conjunct that
    /// conjuncts say pairwise distinct, the largest such clique: ProB
    /// fixes them to distinct elements (its documentation, "Deferred
    /// Sets": `aa:AA & bb:AA & aa/=bb` sizes `AA`), so `S` needs that many
    /// (DeferredSetMinCard: 4 of 5 constants, 15 states).
    fn distinct_elements(&self, s: Sym, consts: &[Sym]) -> Option<i64> {
        let all: Vec<&Expr> = self.conjuncts().collect();
        let k = distinct_members(&all, s, consts)?;
        Some(k as i64).filter(|&k| k >= 2)
    }
}

/// The most constants typed `x : s` by one of `conjuncts` that
/// conjuncts say pairwise distinct (`None` past 16 such constants).
pub(crate) fn distinct_members(conjuncts: &[&Expr], s: Sym, consts: &[Sym]) -> Option<usize> {
    let mut xs: Vec<Sym> = Vec::new();
    for c in conjuncts {
        if let ExprKind::Bin(BinOp::In, a, b) = &c.kind {
            if let (ExprKind::Ident(x), ExprKind::Ident(t)) = (&a.kind, &b.kind) {
                if *t == s && consts.contains(x) && !xs.contains(x) {
                    xs.push(*x);
                }
            }
        }
    }
    largest_clique(xs.len(), &distinct_pairs(conjuncts.iter().copied(), &xs))
}

/// The pairs of `xs` (indices) that one of `conjuncts` says distinct:
/// `x /= y`, `not(x = y)` or `{x} /\ {y} = {}` (a partition's
/// translation).
pub(crate) fn distinct_pairs<'e>(
    conjuncts: impl Iterator<Item = &'e Expr>,
    xs: &[Sym],
) -> Vec<(usize, usize)> {
    let at = |e: &Expr| match &e.kind {
        ExprKind::Ident(x) => xs.iter().position(|y| y == x),
        ExprKind::SetExt(v) if v.len() == 1 => match v[0].kind {
            ExprKind::Ident(x) => xs.iter().position(|&y| y == x),
            _ => None,
        },
        _ => None,
    };
    let pair = |e: &Expr, op: BinOp| match &e.kind {
        ExprKind::Bin(o, a, b) if *o == op => at(a).zip(at(b)),
        _ => None,
    };
    conjuncts
        .filter_map(|c| match &c.kind {
            ExprKind::Bin(BinOp::Neq, ..) => pair(c, BinOp::Neq),
            ExprKind::Call(Builtin::Not, a) => a.first().and_then(|e| pair(e, BinOp::Eq)),
            ExprKind::Bin(BinOp::Eq, a, b) => [(a, b), (b, a)]
                .iter()
                .filter(|(_, q)| matches!(q.kind, ExprKind::EmptySet))
                .find_map(|(p, _)| pair(p, BinOp::Inter)),
            _ => None,
        })
        .collect()
}

/// `xs` when the conjunct `c` is `S = {x1, .., xk}` (or `{..} = S`), the
/// `xi` distinct identifiers of constants (`consts`).
pub(crate) fn listing(c: &Expr, s: Sym, consts: &[Sym]) -> Option<Vec<Sym>> {
    let ExprKind::Bin(BinOp::Eq, a, b) = &c.kind else {
        return None;
    };
    let list = match (&a.kind, &b.kind) {
        (ExprKind::Ident(x), ExprKind::SetExt(v)) | (ExprKind::SetExt(v), ExprKind::Ident(x))
            if *x == s =>
        {
            v
        }
        _ => return None,
    };
    let mut xs = Vec::new();
    for e in list {
        match e.kind {
            ExprKind::Ident(x) if consts.contains(&x) && !xs.contains(&x) => xs.push(x),
            _ => return None,
        }
    }
    Some(xs)
}

/// The size of the largest set of `k` items pairwise related by `pairs`;
/// `None` for more than 16 items.
pub(crate) fn largest_clique(k: usize, pairs: &[(usize, usize)]) -> Option<usize> {
    if k > 16 {
        return None;
    }
    let linked = |i: usize, j: usize| pairs.iter().any(|&p| p == (i, j) || p == (j, i));
    let clique = |set: u32| {
        (0..k).all(|i| set & (1 << i) == 0 || (0..i).all(|j| set & (1 << j) == 0 || linked(i, j)))
    };
    (0u32..1 << k)
        .filter(|&s| clique(s))
        .map(|s| s.count_ones() as usize)
        .max()
}

/// The value of `e` when it is an integer literal (or its negation).
fn literal(e: &Expr) -> Option<i64> {
    match &e.kind {
        ExprKind::Int(n) => Some(*n),
        ExprKind::Neg(a) => match a.kind {
            ExprKind::Int(n) => n.checked_neg(),
            _ => None,
        },
        _ => None,
    }
}

fn refuse_at(files: &[String], pos: Pos, what: String) -> BError {
    err_at(files, ErrorKind::Unsupported, pos, what)
}
