//! Execution of B substitutions: every substitution denotes a set of
//! outcomes, each a list of writes (a machine variable or a local such as
//! an operation result or a VAR, and its new value). Nondeterminism (ANY,
//! CHOICE, SELECT, `::`, `:(`) yields several outcomes; a false guard
//! (SELECT, PRE, ANY without solution) yields none. Parallel `||` joins the
//! writes of its branches, sequencing `;` runs the second from each outcome
//! of the first.
//!
//! Owns substitution semantics and operation calls; expression
//! evaluation is `eval`, the state vector is `model`.

use crate::ast::*;
use crate::errors_show::show;
use crate::eval::{Env, Fail, Global, E};
use crate::solve::solve;
use crate::value::{self as v, Value};

/// Where a write goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    Slot(usize),
    Local(Sym),
}

/// The writes of one outcome, in order (a later write to the same target wins).
pub type Writes = Vec<(Target, Value)>;

/// The operations that substitutions may call (of included machines).
pub trait Callee {
    /// The operation named `name`, if callable.
    fn operation(&self, name: Sym) -> Option<&Operation>;
}

/// Placeholder of a local not yet assigned (VAR, operation results).
pub fn unset() -> Value {
    Value::Str(UNSET.into())
}

/// The text of the placeholder string (not a B string anyone writes).
pub const UNSET: &str = "\u{0}unset";

/// Placeholder of a VAR local not yet assigned: reading it is an error of
/// the model (ProB reports it), not a construct we lack.
pub fn unset_local() -> Value {
    Value::Str(UNSET_LOCAL.into())
}

/// The text of the VAR placeholder.
pub const UNSET_LOCAL: &str = "\u{0}unset VAR";

/// Placeholder of a result of an operation ProB runs itself (not one
/// called): ProB starts those undefined, and reading one is an error of
/// the model (see [`crate::errors_results`]).
pub fn unset_result() -> Value {
    Value::Str(UNSET_RESULT.into())
}

/// The text of the result placeholder.
pub const UNSET_RESULT: &str = "\u{0}unset result";

/// Whether `v` is the placeholder of an unassigned variable.
pub fn is_unset(v: &Value) -> bool {
    matches!(v, Value::Str(s) if &**s == UNSET || &**s == UNSET_LOCAL || &**s == UNSET_RESULT)
}

impl Env<'_> {
    pub(crate) fn target(&self, s: Sym, pos: Pos) -> E<Target> {
        if self.locals.iter().any(|(x, _)| *x == s) {
            return Ok(Target::Local(s));
        }
        match self.w.globals.get(s as usize).and_then(|g| g.as_ref()) {
            Some(Global::Slot(i)) => Ok(Target::Slot(*i)),
            _ => Err(Fail::Unsupported(
                format!("assignment to '{}'", self.w.syms.name(s)),
                pos,
            )),
        }
    }

    /// A conflict between the writes `a` and `b` of parallel branches
    /// (see [`crate::errors_parallel`]).
    fn parallel_conflict(&self, a: &Writes, b: &Writes) -> Option<String> {
        b.iter().find_map(|(t, x)| {
            let (_, y) = a.iter().find(|(u, _)| u == t)?;
            crate::errors_parallel::conflict(&self.read(*t), x, y)
        })
    }

    pub(crate) fn read(&self, t: Target) -> Value {
        match t {
            Target::Slot(i) => self.slots[i].clone(),
            Target::Local(s) => self
                .locals
                .iter()
                .rev()
                .find(|(x, _)| *x == s)
                .map(|(_, v)| v.clone())
                .unwrap_or_else(unset),
        }
    }

    fn write(&mut self, t: Target, val: Value) -> Value {
        match t {
            Target::Slot(i) => std::mem::replace(&mut self.slots[i], val),
            Target::Local(s) => {
                let slot = self
                    .locals
                    .iter_mut()
                    .rev()
                    .find(|(x, _)| *x == s)
                    .expect("local exists");
                std::mem::replace(&mut slot.1, val)
            }
        }
    }

    /// Runs `f` with `w` applied, then restores the environment.
    pub fn with_writes<T>(&mut self, w: &Writes, f: impl FnOnce(&mut Self) -> T) -> T {
        let mut saved = Vec::with_capacity(w.len());
        for (t, val) in w {
            saved.push((*t, self.write(*t, val.clone())));
        }
        let r = f(self);
        for (t, old) in saved.into_iter().rev() {
            self.write(t, old);
        }
        r
    }

    /// The outcomes of substitution `s`.
    pub fn exec(&mut self, s: &Subst, ops: &dyn Callee) -> E<Vec<Writes>> {
        let pos = s.pos;
        Ok(match &s.kind {
            SubstKind::Skip => vec![Vec::new()],
            SubstKind::Assign(lhs, rhs) => {
                let mut vals = Vec::with_capacity(rhs.len());
                for e in rhs {
                    vals.push(self.eval(e)?);
                }
                let mut w = Vec::with_capacity(lhs.len());
                for (l, val) in lhs.iter().zip(vals) {
                    w.push(self.assign(l, val)?);
                }
                vec![w]
            }
            SubstKind::BecomesIn(ids, set) => {
                let targets: Vec<Target> =
                    ids.iter().map(|&x| self.target(x, pos)).collect::<E<_>>()?;
                let mut out = Vec::new();
                for x in self.becomes_in_choices(set)? {
                    // `x, y :: S`: each member of `S` is a tuple `x |-> y`
                    let mut parts = Vec::with_capacity(ids.len());
                    if !crate::eval::bind_tuple(ids, x, &mut parts) {
                        return Err(Fail::Unsupported(
                            "x, y :: S with a member of S not a tuple".into(),
                            pos,
                        ));
                    }
                    let of = |x: Sym| parts.iter().find(|p| p.0 == x).map(|p| p.1.clone());
                    out.push(
                        ids.iter()
                            .zip(&targets)
                            .map(|(&x, &t)| (t, of(x).expect("bound by bind_tuple")))
                            .collect(),
                    );
                }
                out
            }
            SubstKind::BecomesSuch { ids, pred, plan } => {
                let targets: Vec<Target> =
                    ids.iter().map(|&x| self.target(x, pos)).collect::<E<_>>()?;
                let base = self.locals.len();
                for (&x, &t) in ids.iter().zip(&targets) {
                    let old = self.read(t);
                    let name = format!("{}$0", self.w.syms.name(x));
                    if let Some(s0) = self.w.syms.get(&name) {
                        self.locals.push((s0, old));
                    }
                }
                let p = self.plan_of(plan, ids, pred);
                let mut out = Vec::new();
                let r = p.and_then(|p| {
                    solve(ids, pred, p, self, true, &mut |env| {
                        let n = env.locals.len();
                        let vals = &env.locals[n - ids.len()..];
                        // solve pushes in plan order: look each up by name
                        let _ = vals;
                        let mut w = Vec::with_capacity(ids.len());
                        for (&x, &t) in ids.iter().zip(&targets) {
                            w.push((t, env.lookup(x, pos)?));
                        }
                        out.push(w);
                        Ok(true)
                    })
                });
                self.locals.truncate(base);
                r?;
                out
            }
            // The top-level PRE of an operation is its guard (handled by
            // `model`); a nested one must hold, as in ProB.
            SubstKind::Pre(p, body) => {
                if !self.holds(p)? {
                    return Err(Fail::Wd("precondition violated".into(), p.pos));
                }
                self.exec(body, ops)?
            }
            SubstKind::Assert(p, body) => {
                if !self.holds(p)? {
                    return Err(Fail::Wd("ASSERT substitution violated".into(), p.pos));
                }
                self.exec(body, ops)?
            }
            SubstKind::EventCheck(c, body) => self.exec_event_check(c, body, ops)?,
            SubstKind::Select(branches, els) => {
                let mut out = Vec::new();
                let mut any = false;
                for (g, b) in branches {
                    let mut holds = true;
                    for c in crate::solve::conjuncts(g) {
                        if !self.holds(c)? {
                            holds = false;
                            break;
                        }
                    }
                    if holds {
                        any = true;
                        out.extend(self.exec(b, ops)?);
                    }
                }
                if !any {
                    if let Some(e) = els {
                        out = self.exec(e, ops)?;
                    }
                }
                out
            }
            SubstKind::If(branches, els) => {
                for (g, b) in branches {
                    if self.holds(g)? {
                        return self.exec(b, ops);
                    }
                }
                match els {
                    Some(e) => self.exec(e, ops)?,
                    None => vec![Vec::new()],
                }
            }
            SubstKind::Case(e, branches, els) => {
                let x = self.eval(e)?;
                for (vals, b) in branches {
                    for val in vals {
                        if self.eval(val)? == x {
                            return self.exec(b, ops);
                        }
                    }
                }
                match els {
                    Some(e) => self.exec(e, ops)?,
                    None => return Err(Fail::Wd("CASE without a matching branch".into(), pos)),
                }
            }
            SubstKind::Any {
                ids,
                pred,
                body,
                plan,
            }
            | SubstKind::Let {
                ids,
                pred,
                body,
                plan,
            } => {
                let p = self.plan_of(plan, ids, pred)?;
                let mut out = Vec::new();
                solve(ids, pred, p, self, true, &mut |env| {
                    out.extend(env.exec(body, ops)?);
                    Ok(true)
                })?;
                out
            }
            SubstKind::Var(ids, body) => {
                let base = self.locals.len();
                for &x in ids {
                    self.locals.push((x, unset_local()));
                }
                let r = self.exec(body, ops);
                self.locals.truncate(base);
                let mut out = r?;
                for w in &mut out {
                    w.retain(|(t, _)| !matches!(t, Target::Local(s) if ids.contains(s)));
                }
                out
            }
            SubstKind::Choice(alts) => {
                let mut out = Vec::new();
                for a in alts {
                    out.extend(self.exec(a, ops)?);
                }
                out
            }
            SubstKind::Par(parts) => {
                let mut acc: Vec<Writes> = vec![Vec::new()];
                for p in parts {
                    let outs: Vec<Writes> = self.exec(p, ops)?.into_iter().map(compact).collect();
                    let mut next = Vec::with_capacity(acc.len() * outs.len());
                    for a in &acc {
                        for o in &outs {
                            // two branches writing one variable differently
                            // (`f(x) := 1 || f(y) := 2` under ProB's
                            // ALLOW_SIMULTANEOUS_ASSIGNMENTS) would need a merge
                            if let Some(what) = self.parallel_conflict(a, o) {
                                return Err(Fail::Wd(
                                    format!(
                                        "parallel substitutions writing one variable with {what}"
                                    ),
                                    pos,
                                ));
                            }
                            if o.iter()
                                .any(|(t, v)| a.iter().any(|(u, w)| u == t && v != w))
                            {
                                return Err(Fail::Unsupported(
                                    "parallel substitutions writing one variable differently"
                                        .into(),
                                    pos,
                                ));
                            }
                            let mut w = a.clone();
                            w.extend(o.iter().cloned());
                            next.push(w);
                        }
                    }
                    acc = next;
                }
                acc
            }
            SubstKind::Seq(parts) => self.exec_seq(parts, ops)?,
            SubstKind::While {
                cond,
                body,
                inv,
                variant,
            } => self.exec_while(cond, body, inv.as_ref(), variant.as_ref(), pos, ops)?,
            SubstKind::Call(outs, name, args) => self.call(outs, *name, args, pos, ops)?,
        })
    }

    /// A WHILE loop: every outcome of iterating `body` while `cond` holds.
    /// Like ProB, the loop INVARIANT must hold before every test of the
    /// condition, and the VARIANT must be a natural number before each
    /// iteration and strictly smaller than before the previous one;
    /// otherwise a model error.
    fn exec_while(
        &mut self,
        cond: &Expr,
        body: &Subst,
        inv: Option<&Expr>,
        variant: Option<&Expr>,
        pos: Pos,
        ops: &dyn Callee,
    ) -> E<Vec<Writes>> {
        let mut done = Vec::new();
        let mut todo: Vec<(Writes, Option<i64>)> = vec![(Vec::new(), None)];
        let mut steps = 0usize;
        // a VARIANT (checked below) bounds the loop: the cap only guards
        // against a loop without one running forever
        let cap = if variant.is_some() {
            100_000_000
        } else {
            1_000_000
        };
        while let Some((w, before)) = todo.pop() {
            steps += 1;
            if steps > cap {
                return Err(Fail::Unsupported(
                    format!("WHILE loop running over {cap} iterations"),
                    pos,
                ));
            }
            type Step = (Option<Vec<Writes>>, Option<i64>);
            let r = self.with_writes(&w, |env| -> E<Step> {
                if let Some(i) = inv {
                    if !env.holds(i)? {
                        return Err(Fail::Wd("WHILE loop INVARIANT violated".into(), i.pos));
                    }
                }
                let now = match variant {
                    Some(v) => {
                        let n = env.eval(v)?.as_int().map_err(|m| Fail::Wd(m, v.pos))?;
                        Some((n, v.pos))
                    }
                    None => None,
                };
                if !env.holds(cond)? {
                    return Ok((None, None));
                }
                if let Some((n, vpos)) = now {
                    // checked before an iteration only, as ProB does (the
                    // last iteration may leave it unchanged)
                    if before.is_some_and(|b| n >= b) {
                        let m = format!("WHILE loop VARIANT not decreasing (now {n})");
                        return Err(Fail::Wd(m, vpos));
                    }
                    if n < 0 {
                        let m = format!("WHILE loop VARIANT not a natural number ({n})");
                        return Err(Fail::Wd(m, vpos));
                    }
                }
                Ok((Some(env.exec(body, ops)?), now.map(|p| p.0)))
            })?;
            match r {
                (None, _) => done.push(w),
                (Some(outs), now) => {
                    for o in outs {
                        let mut w2 = w.clone();
                        w2.extend(o);
                        todo.push((compact(w2), now));
                    }
                }
            }
        }
        Ok(done)
    }

    /// `body` under one of ProB's Event-B event checks.
    fn exec_event_check(
        &mut self,
        c: &EventCheck,
        body: &Subst,
        ops: &dyn Callee,
    ) -> E<Vec<Writes>> {
        match c {
            EventCheck::Holds { what, pred } => {
                if !self.holds(pred)? {
                    return Err(Fail::Wd(what.clone(), pred.pos));
                }
                self.exec(body, ops)
            }
            EventCheck::Executable { what } => {
                let outs = self.exec(body, ops)?;
                if outs.is_empty() {
                    return Err(Fail::Wd(what.clone(), body.pos));
                }
                Ok(outs)
            }
            EventCheck::Simulates { what, action } => {
                if let SubstKind::BecomesSuch { ids, pred, .. } = &action.kind {
                    let outs = self.exec(body, ops)?;
                    for w in &outs {
                        if !self.such_allows(ids, pred, w, action.pos)? {
                            return Err(Fail::Wd(what.clone(), action.pos));
                        }
                    }
                    return Ok(outs);
                }
                let abstract_outs = crate::outcomes::OutcomeIndex::new(self.exec(action, ops)?);
                let outs = self.exec(body, ops)?;
                for w in &outs {
                    let simulated =
                        self.with_writes(w, |env| abstract_outs.any_agrees(|t| env.read(t)));
                    if !simulated {
                        return Err(Fail::Wd(what.clone(), action.pos));
                    }
                }
                Ok(outs)
            }
            EventCheck::Exclusive { what, preds } => {
                let mut held = 0;
                for p in preds {
                    held += usize::from(self.holds(p)?);
                }
                if held > 1 {
                    return Err(Fail::Unsupported(what.clone(), body.pos));
                }
                self.exec(body, ops)
            }
            EventCheck::Keeps { what, vars } => {
                let before = vars.iter().map(|e| self.eval(e)).collect::<E<Vec<_>>>()?;
                let outs = self.exec(body, ops)?;
                let pos = vars.first().map_or(body.pos, |e| e.pos);
                for w in &outs {
                    let after = self.with_writes(w, |env| {
                        vars.iter().map(|e| env.eval(e)).collect::<E<Vec<_>>>()
                    })?;
                    if after != before {
                        return Err(Fail::Wd(what.clone(), pos));
                    }
                }
                Ok(outs)
            }
            EventCheck::Variant {
                what,
                expr,
                convergent,
            } => {
                let before = self.eval(expr)?;
                if let Value::Int(n) = before {
                    if n < 0 {
                        let m = format!("variant_negative: {what}, the variant is {n}");
                        return Err(Fail::Wd(m, expr.pos));
                    }
                }
                let outs = self.exec(body, ops)?;
                for w in &outs {
                    let after = self.with_writes(w, |env| env.eval(expr))?;
                    if !variant_ok(&before, &after, *convergent)
                        .map_err(|m| Fail::Wd(m, expr.pos))?
                    {
                        let m = format!(
                            "invalid_variant: {what}, from {} to {}",
                            show(&before, self.w),
                            show(&after, self.w)
                        );
                        return Err(Fail::Wd(m, expr.pos));
                    }
                }
                Ok(outs)
            }
        }
    }

    fn exec_seq(&mut self, parts: &[Subst], ops: &dyn Callee) -> E<Vec<Writes>> {
        let Some((first, rest)) = parts.split_first() else {
            return Ok(vec![Vec::new()]);
        };
        let outs = self.exec(first, ops)?;
        if rest.is_empty() {
            return Ok(outs);
        }
        let mut all = Vec::new();
        for w in outs {
            let tails = self.with_writes(&w, |env| env.exec_seq(rest, ops))?;
            for t in tails {
                let mut w2 = w.clone();
                w2.extend(t);
                all.push(compact(w2));
            }
        }
        Ok(all)
    }

    /// The write of `lhs := val` (`f(x) := val` overrides one pair,
    /// `r'f := val` one field).
    fn assign(&mut self, lhs: &Expr, val: Value) -> E<(Target, Value)> {
        match &lhs.kind {
            ExprKind::Ident(s) => Ok((self.target(*s, lhs.pos)?, val)),
            ExprKind::Apply(f, x) => {
                let fv = self.eval(f)?;
                let xv = self.eval(x)?;
                let fs = fv.as_set().map_err(|m| Fail::Wd(m, f.pos))?;
                let nf =
                    v::override_(fs, &[Value::pair(xv, val)]).map_err(|m| Fail::Wd(m, lhs.pos))?;
                self.assign(f, nf)
            }
            ExprKind::Field(r, name) => {
                let rv = self.eval(r)?;
                let fname = self.w.syms.name(*name);
                let Value::Rec(fs) = rv else {
                    return Err(Fail::Wd("field assignment on a non-record".into(), lhs.pos));
                };
                let mut fs = (*fs).clone();
                match fs.iter_mut().find(|(n, _)| &**n == fname) {
                    Some(slot) => slot.1 = val,
                    None => return Err(Fail::Wd(format!("record has no field {fname}"), lhs.pos)),
                }
                self.assign(r, Value::Rec(std::sync::Arc::new(fs)))
            }
            _ => Err(Fail::Unsupported(
                "assignment to this expression".into(),
                lhs.pos,
            )),
        }
    }

    /// `outs <-- op(args)`: runs the called operation's body (its PRE must
    /// hold: a violated precondition is an error) in a fresh scope.
    fn call(
        &mut self,
        outs: &[Expr],
        name: Sym,
        args: &[Expr],
        pos: Pos,
        ops: &dyn Callee,
    ) -> E<Vec<Writes>> {
        let Some(op) = ops.operation(name) else {
            return Err(Fail::Unsupported(
                format!("call of unknown operation '{}'", self.w.syms.name(name)),
                pos,
            ));
        };
        if op.params.len() != args.len() || op.outs.len() != outs.len() {
            return Err(Fail::Wd(
                "operation call with the wrong number of arguments or results".into(),
                pos,
            ));
        }
        crate::errors_results::stored_into_variables(outs)?;
        if let Some(p) = parameter_clash(op, outs, &self.locals) {
            return Err(Fail::Unsupported(
                format!(
                    "a call of '{}' assigning its result to a local named like its parameter '{}' (ProB's result differs from B's scoping there)",
                    self.w.syms.name(name),
                    self.w.syms.name(p)
                ),
                pos,
            ));
        }
        let mut vals = Vec::with_capacity(args.len());
        for a in args {
            vals.push(self.eval(a)?);
        }
        let saved = std::mem::take(&mut self.locals);
        for (&p, val) in op.params.iter().zip(vals) {
            self.locals.push((p, val));
        }
        for &o in &op.outs {
            self.locals.push((o, unset()));
        }
        let r = crate::library_opcalls::nested(pos, || -> E<Vec<Writes>> {
            let body = match &op.body.kind {
                SubstKind::Pre(p, b) => {
                    if !self.holds(p)? {
                        return Err(Fail::Wd(
                            format!(
                                "precondition of operation '{}' violated",
                                self.w.syms.name(name)
                            ),
                            pos,
                        ));
                    }
                    &**b
                }
                _ => &op.body,
            };
            let outcomes = self.exec(body, ops)?;
            let mut res = Vec::with_capacity(outcomes.len());
            for w in outcomes {
                let results: Vec<Value> = self.with_writes(&w, |env| {
                    op.outs
                        .iter()
                        .map(|&o| env.read(Target::Local(o)))
                        .collect()
                });
                let slots: Writes = w
                    .into_iter()
                    .filter(|(t, _)| matches!(t, Target::Slot(_)))
                    .collect();
                res.push((slots, results));
            }
            Ok(res
                .into_iter()
                .map(|(s, r)| {
                    let mut w = s;
                    w.extend(
                        r.into_iter()
                            .enumerate()
                            .map(|(i, val)| (Target::Local(u32::MAX - i as u32), val)),
                    );
                    w
                })
                .collect())
        });
        self.locals = saved;
        let outcomes = r?;
        let mut out = Vec::with_capacity(outcomes.len());
        for w in outcomes {
            let mut nw = Vec::with_capacity(w.len());
            let mut results = Vec::new();
            for (t, val) in w {
                match t {
                    Target::Local(s) if s > u32::MAX - 1024 => results.push((u32::MAX - s, val)),
                    t => nw.push((t, val)),
                }
            }
            for (i, val) in results {
                let write = self.with_writes(&nw, |env| env.assign(&outs[i as usize], val))?;
                nw.push(write);
            }
            out.push(nw);
        }
        Ok(out)
    }
}

/// A parameter of the called `op` named like a local of the caller that
/// the call's results assign (`aa <-- op(bb, aa)` for `res <-- op(aa,
/// bb)`). ProB's count then differs from B's scoping (Hansen18's
/// LoopByClash: 3 states where B's semantics give 5; the caller's `aa`
/// seems to keep the parameter's value rather than the result), so such
/// a call is unsupported. A clash the results do not assign (Hansen32's
/// `foo(q, p)` for `foo(p, q)`) matches ProB.
fn parameter_clash(op: &Operation, outs: &[Expr], locals: &[(Sym, Value)]) -> Option<Sym> {
    let is = |e: &Expr, p: Sym| matches!(e.kind, ExprKind::Ident(s) if s == p);
    op.params
        .iter()
        .copied()
        .find(|&p| locals.iter().any(|(s, _)| *s == p) && outs.iter().any(|o| is(o, p)))
}

/// Keeps only the last write of each target.
pub fn compact(w: Writes) -> Writes {
    let mut out: Writes = Vec::with_capacity(w.len());
    for (t, val) in w.into_iter().rev() {
        if !out.iter().any(|(x, _)| *x == t) {
            out.push((t, val));
        }
    }
    out.reverse();
    out
}

/// Whether the variant goes from `before` to `after` as a convergent
/// (strictly decreasing) or anticipated (not increasing) event must.
fn variant_ok(before: &Value, after: &Value, convergent: bool) -> Result<bool, String> {
    if let (Value::Int(b), Value::Int(a)) = (before, after) {
        return Ok(if convergent { a < b } else { a <= b });
    }
    let (b, a) = (before.as_set()?, after.as_set()?);
    let sub = a.iter().all(|x| b.binary_search(x).is_ok());
    Ok(sub && (!convergent || a.len() < b.len()))
}
