//! Case functions: the maps `Cn_: Enum_n # S # ... # S -> S` that
//! `mcrl22lps` generates, whose rules select one argument by the
//! enumeration value in the first one (`C3_(e1_3, x, y, z) = y`), plus
//! possibly the shortcut `C3_(e, x, x, x) = x`. Recognising them lets the
//! rewriter evaluate only the selector and the selected argument, as
//! jitty does, instead of every argument (innermost): on the corpus's
//! `chatbox` (`C56_` with 57 arguments) and `Knuth` (`C10_3` over ten
//! conditions) this is most of the exploration time.
//!
//! The shortcut changes nothing: where it fires, every argument equals the
//! selected one. A selector value with no selecting rule is left to the
//! ordinary strategy, so results and messages are those of innermost
//! evaluation (failing arguments that are not selected were never used).
//!
//! Owns only the recognition; evaluating is `rewriter`.

use crate::term::{MapInfo, Pattern, Rule, Term};
use crate::value::{CtorId, Value};

/// The selection table of a case function.
#[derive(Clone, Debug)]
pub struct CaseTable {
    /// Number of arguments (selector included).
    pub arity: usize,
    /// The smallest selector constructor with a rule.
    first: CtorId,
    /// For selector constructor `first + i`, the selected argument position.
    selected: Vec<Option<usize>>,
}

impl CaseTable {
    /// The argument position selected by constructor `c`, if a rule does.
    pub fn select(&self, c: CtorId) -> Option<usize> {
        let i = c.checked_sub(self.first)? as usize;
        self.selected.get(i).copied().flatten()
    }
}

/// The constant constructor a pattern matches, if it is one.
fn constant_ctor(p: &Pattern) -> Option<CtorId> {
    match p {
        Pattern::Ctor(c, ps) if ps.is_empty() => Some(*c),
        Pattern::Lit(Value::Ctor(c, args)) if args.is_empty() => Some(*c),
        _ => None,
    }
}

/// The position of the argument rule `r` selects when it has the shape
/// `C(c, y1, ..., yn) = yj` (distinct variables, no sort checks, no
/// condition): `(c, j)`.
fn selecting_rule(r: &Rule) -> Option<(CtorId, usize)> {
    let [ps] = &r.lhs[..] else { return None };
    let c = constant_ctor(ps.first()?)?;
    let Term::Var(target) = &r.rhs else {
        return None;
    };
    let mut seen = Vec::with_capacity(ps.len());
    let mut selected = None;
    for (i, p) in ps.iter().enumerate().skip(1) {
        let Pattern::Bind(s, None) = p else {
            return None;
        };
        if seen.contains(s) {
            return None;
        }
        seen.push(*s);
        if s == target {
            selected = Some(i);
        }
    }
    if r.condition.is_some() {
        return None;
    }
    Some((c, selected?))
}

/// Whether rule `r` is the shortcut `C(e, x, x, ..., x) = x`.
fn shortcut_rule(r: &Rule) -> bool {
    let [ps] = &r.lhs[..] else { return false };
    let (Some(Pattern::Bind(e, None)), Some(Pattern::Bind(x, None))) = (ps.first(), ps.get(1))
    else {
        return false;
    };
    r.condition.is_none()
        && e != x
        && matches!(r.rhs, Term::Var(v) if v == *x)
        && ps[2..]
            .iter()
            .all(|p| matches!(p, Pattern::Same(s) if s == x))
}

/// The table of map `info` when it is a case function.
pub fn case_table(info: &MapInfo) -> Option<CaseTable> {
    let arity = info.rules.first()?.lhs.first()?.len();
    if arity < 2 || info.sorts.len() > 1 {
        return None;
    }
    let mut pairs: Vec<(CtorId, usize)> = Vec::new();
    for r in &info.rules {
        if r.lhs.len() != 1 || r.lhs[0].len() != arity {
            return None;
        }
        if shortcut_rule(r) {
            continue;
        }
        let (c, j) = selecting_rule(r)?;
        // Rules are tried in order: the first for a constructor wins.
        if !pairs.iter().any(|(d, _)| *d == c) {
            pairs.push((c, j));
        }
    }
    let first = pairs.iter().map(|(c, _)| *c).min()?;
    let last = pairs.iter().map(|(c, _)| *c).max()?;
    let mut selected = vec![None; (last - first) as usize + 1];
    for (c, j) in pairs {
        selected[(c - first) as usize] = Some(j);
    }
    Some(CaseTable {
        arity,
        first,
        selected,
    })
}
