//! Sort checking of a summand's data expressions at load time, so that a
//! mistyped expression is reported with its own file:line:column rather
//! than met while exploring: a condition or an operand of `!`, `&&`, `||`,
//! `=>` that is not a Bool, an arithmetic operand that is not a number, an
//! update or action argument or initial value whose sort is not the one
//! declared (numbers may widen, Pos -> Nat -> Int -> Real, as mCRL2's type
//! checker inserts those conversions).
//!
//! The inference is deliberately partial: an expression whose sort it
//! cannot be sure of (overloaded names, containers, built-ins, lambdas)
//! has no inferred sort and is not checked, so a well-typed specification
//! is never refused. Owns only this check; it must not compile nor
//! evaluate.

use std::collections::HashMap;

use crate::ast::{BinOp, Expr, ExprKind, Pos, SortExpr, Spec, Summand, UnOp};
use crate::compile::Names;
use crate::sorts::Sort;

/// A sort error: where and what.
pub type SortError = (Pos, String);

/// The variables in scope with their sorts.
pub struct Scope<'a> {
    pub names: &'a Names,
    pub vars: HashMap<String, Sort>,
}

/// The numeric sorts in widening order.
fn numeric_rank(s: &Sort) -> Option<u8> {
    match s {
        Sort::Pos => Some(0),
        Sort::Nat => Some(1),
        Sort::Int => Some(2),
        Sort::Real => Some(3),
        _ => None,
    }
}

/// Whether a value of sort `from` may stand where `to` is expected.
fn fits(from: &Sort, to: &Sort) -> bool {
    match (numeric_rank(from), numeric_rank(to)) {
        (Some(a), Some(b)) => a <= b,
        _ => from == to,
    }
}

/// Whether a sort is one this check compares (containers and functions
/// are left to mCRL2's own checker: their literals adapt to context).
fn comparable(s: &Sort) -> bool {
    matches!(
        s,
        Sort::Bool | Sort::Pos | Sort::Nat | Sort::Int | Sort::Real | Sort::Struct(_)
    )
}

impl Scope<'_> {
    fn show(&self, s: &Sort) -> String {
        self.names.sorts.show(s)
    }

    /// Checks that `e` has a sort that fits `want`, where it can tell.
    pub fn expect(&self, e: &Expr, want: &Sort, what: &str) -> Result<(), SortError> {
        match self.sort_of(e)? {
            Some(got) if comparable(&got) && comparable(want) && !fits(&got, want) => Err((
                e.pos,
                format!(
                    "{what}: expected a {}, found an expression of sort {}",
                    self.show(want),
                    self.show(&got)
                ),
            )),
            _ => Ok(()),
        }
    }

    /// The sort of `e` where it is certain (`None`: not known here), after
    /// checking its operands.
    pub fn sort_of(&self, e: &Expr) -> Result<Option<Sort>, SortError> {
        Ok(match &e.kind {
            ExprKind::Id(name) => self.id_sort(name),
            ExprKind::Number(n) => Some(if n.trim_start_matches('0').is_empty() {
                Sort::Nat
            } else {
                Sort::Pos
            }),
            ExprKind::Apply(f, args) => self.apply_sort(f, args)?,
            ExprKind::Unary(op, a) => self.unary_sort(*op, a)?,
            ExprKind::Binary(op, a, b) => self.binary_sort(*op, a, b)?,
            ExprKind::Forall(..) | ExprKind::Exists(..) => Some(Sort::Bool),
            _ => None,
        })
    }

    fn id_sort(&self, name: &str) -> Option<Sort> {
        if let Some(s) = self.vars.get(name) {
            return Some(s.clone());
        }
        if name == "true" || name == "false" {
            return Some(Sort::Bool);
        }
        let sorts = &self.names.sorts;
        match self.names.ctors.get(name).map(Vec::as_slice) {
            Some([c]) if sorts.ctors[*c as usize].args.is_empty() => {
                Some(Sort::Struct(sorts.ctors[*c as usize].sort))
            }
            _ => None,
        }
    }

    fn apply_sort(&self, f: &Expr, args: &[Expr]) -> Result<Option<Sort>, SortError> {
        for a in args {
            self.sort_of(a)?;
        }
        let ExprKind::Id(name) = &f.kind else {
            return Ok(None);
        };
        if self.vars.contains_key(name) {
            return Ok(None);
        }
        let sorts = &self.names.sorts;
        if let Some(ids) = self.names.ctors.get(name) {
            let mut arity = ids
                .iter()
                .filter(|&&c| sorts.ctors[c as usize].args.len() == args.len());
            if let (Some(&c), None) = (arity.next(), arity.next()) {
                let ctor = &sorts.ctors[c as usize];
                for (a, want) in args.iter().zip(&ctor.args) {
                    self.expect(a, want, &format!("argument of {name}"))?;
                }
                return Ok(Some(Sort::Struct(ctor.sort)));
            }
            return Ok(None);
        }
        if self.names.recognisers.contains_key(name) && args.len() == 1 {
            return Ok(Some(Sort::Bool));
        }
        Ok(None)
    }

    fn bool_operand(&self, e: &Expr, op: &str) -> Result<(), SortError> {
        self.expect(e, &Sort::Bool, &format!("operand of {op}"))
    }

    /// The sort of a numeric operand, an error when it is known and not a
    /// number.
    fn number_operand(&self, e: &Expr, op: &str) -> Result<Option<Sort>, SortError> {
        match self.sort_of(e)? {
            Some(s) if matches!(s, Sort::Bool | Sort::Struct(_)) => Err((
                e.pos,
                format!(
                    "operand of {op}: expected a number, found an expression of sort {}",
                    self.show(&s)
                ),
            )),
            Some(s) if numeric_rank(&s).is_some() => Ok(Some(s)),
            _ => Ok(None),
        }
    }

    fn unary_sort(&self, op: UnOp, a: &Expr) -> Result<Option<Sort>, SortError> {
        Ok(match op {
            UnOp::Not => {
                self.bool_operand(a, "!")?;
                Some(Sort::Bool)
            }
            UnOp::Neg => match self.number_operand(a, "-")? {
                Some(Sort::Real) => Some(Sort::Real),
                Some(_) => Some(Sort::Int),
                None => None,
            },
            UnOp::Size => {
                self.sort_of(a)?;
                Some(Sort::Nat)
            }
        })
    }

    fn binary_sort(&self, op: BinOp, a: &Expr, b: &Expr) -> Result<Option<Sort>, SortError> {
        use BinOp::*;
        let name = binop_name(op);
        Ok(match op {
            Implies | Or | And => {
                self.bool_operand(a, name)?;
                self.bool_operand(b, name)?;
                Some(Sort::Bool)
            }
            Eq | Neq | Lt | Le | Gt | Ge | In => {
                self.sort_of(a)?;
                self.sort_of(b)?;
                Some(Sort::Bool)
            }
            Add | Mul | Sub | Div | IntDiv | Mod => self.arithmetic_sort(op, a, b)?,
            Cons | Snoc | Concat | At => {
                self.sort_of(a)?;
                self.sort_of(b)?;
                None
            }
        })
    }

    /// `+ * - / div mod` on numbers (on sets and bags `+ * -` are union,
    /// intersection and difference: no sort inferred there).
    fn arithmetic_sort(&self, op: BinOp, a: &Expr, b: &Expr) -> Result<Option<Sort>, SortError> {
        let name = binop_name(op);
        let (sa, sb) = (self.sort_of(a)?, self.sort_of(b)?);
        let numeric = |s: &Option<Sort>| s.as_ref().is_some_and(|s| numeric_rank(s).is_some());
        let container = |s: &Option<Sort>| matches!(s, Some(Sort::Set(_) | Sort::Bag(_)));
        if container(&sa) || container(&sb) {
            return Ok(None);
        }
        if numeric(&sa) || numeric(&sb) || matches!(op, BinOp::Div | BinOp::IntDiv | BinOp::Mod) {
            self.number_operand(a, name)?;
            self.number_operand(b, name)?;
        }
        let (Some(x), Some(y)) = (sa, sb) else {
            return Ok(None);
        };
        let (Some(rx), Some(ry)) = (numeric_rank(&x), numeric_rank(&y)) else {
            return Ok(None);
        };
        let widest = rx.max(ry);
        Ok(match op {
            BinOp::Div => Some(Sort::Real),
            _ if widest == 3 => Some(Sort::Real),
            BinOp::Sub => Some(Sort::Int),
            BinOp::Add if rx == 0 || ry == 0 => {
                Some(if widest <= 1 { Sort::Pos } else { Sort::Int })
            }
            BinOp::Add | BinOp::Mul if widest <= 1 => {
                Some(if widest == 0 { Sort::Pos } else { Sort::Nat })
            }
            BinOp::Add | BinOp::Mul => Some(Sort::Int),
            // `div` and `mod` take a Pos divisor; their results differ by
            // overload (Int mod Pos is a Nat): left unchecked.
            _ => None,
        })
    }
}

fn binop_name(op: BinOp) -> &'static str {
    use BinOp::*;
    match op {
        Implies => "=>",
        Or => "||",
        And => "&&",
        Eq => "==",
        Neq => "!=",
        Lt => "<",
        Le => "<=",
        Gt => ">",
        Ge => ">=",
        In => "in",
        Cons => "|>",
        Snoc => "<|",
        Concat => "++",
        Add => "+",
        Sub => "-",
        Mul => "*",
        Div => "/",
        IntDiv => "div",
        Mod => "mod",
        At => ".",
    }
}

/// Checks a specification's summands and initial values against the
/// declared sorts: the first mistyped expression, if any.
pub fn check_process(names: &Names, spec: &Spec) -> Result<(), SortError> {
    let Some(proc_) = &spec.process else {
        return Ok(());
    };
    let mut table = names.sorts.clone();
    let mut resolve = |s: &SortExpr| table.resolve(s).ok();
    let mut vars = HashMap::new();
    for g in &spec.globals {
        if let Some(s) = resolve(&g.sort) {
            vars.insert(g.name.clone(), s);
        }
    }
    let params: Vec<(String, Option<Sort>)> = proc_
        .params
        .iter()
        .map(|(n, s)| (n.clone(), resolve(s)))
        .collect();
    let actions: Vec<(&str, Vec<Option<Sort>>)> = spec
        .actions
        .iter()
        .map(|a| (a.name.as_str(), a.sorts.iter().map(&mut resolve).collect()))
        .collect();
    let sum_vars: Vec<Vec<(String, Option<Sort>)>> = proc_
        .summands
        .iter()
        .map(|s| {
            s.sum_vars
                .iter()
                .map(|(n, t)| (n.clone(), resolve(t)))
                .collect()
        })
        .collect();
    vars.extend(
        params
            .iter()
            .filter_map(|(n, s)| Some((n.clone(), s.clone()?))),
    );
    let scope = Scope { names, vars };
    if let Some((values, _)) = &spec.init {
        for (e, (n, want)) in values.iter().zip(&params) {
            if let Some(want) = want {
                scope.expect(e, want, &format!("initial value of {n}"))?;
            }
        }
    }
    let signature = Signature {
        params: &params,
        actions: &actions,
    };
    for (s, bound) in proc_.summands.iter().zip(&sum_vars) {
        let mut inner = Scope {
            names,
            vars: scope.vars.clone(),
        };
        for (n, sort) in bound {
            match sort {
                Some(sort) => inner.vars.insert(n.clone(), sort.clone()),
                None => inner.vars.remove(n),
            };
        }
        inner.check_summand(s, &signature)?;
    }
    Ok(())
}

/// The declared sorts a summand is checked against (`None`: a sort this
/// check could not resolve, left unchecked).
struct Signature<'a> {
    params: &'a [(String, Option<Sort>)],
    actions: &'a [(&'a str, Vec<Option<Sort>>)],
}

impl Scope<'_> {
    /// Checks `e` against `want` where it is known, otherwise only its
    /// operands.
    fn expect_if(
        &self,
        e: &Expr,
        want: Option<&Sort>,
        what: impl FnOnce() -> String,
    ) -> Result<(), SortError> {
        match want {
            Some(w) => self.expect(e, w, &what()),
            None => self.sort_of(e).map(|_| ()),
        }
    }

    fn check_summand(&self, s: &Summand, sig: &Signature) -> Result<(), SortError> {
        if let Some(c) = &s.condition {
            self.expect(c, &Sort::Bool, "the condition")?;
        }
        for a in s.actions.iter().flatten() {
            let mut decls = sig
                .actions
                .iter()
                .filter(|(n, sorts)| *n == a.name && sorts.len() == a.args.len());
            let decl = match (decls.next(), decls.next()) {
                (Some(d), None) => Some(&d.1),
                _ => None,
            };
            for (i, e) in a.args.iter().enumerate() {
                let want = decl.and_then(|d| d[i].as_ref());
                self.expect_if(e, want, || {
                    format!("argument {} of action {}", i + 1, a.name)
                })?;
            }
        }
        for (n, e) in &s.updates {
            let want = sig
                .params
                .iter()
                .find(|(p, _)| p == n)
                .and_then(|(_, s)| s.as_ref());
            self.expect_if(e, want, || format!("the update of {n}"))?;
        }
        Ok(())
    }
}
