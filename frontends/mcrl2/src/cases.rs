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

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn rule(lhs: Vec<Pattern>, rhs: Term) -> Rule {
        Rule {
            lhs: vec![lhs],
            condition: None,
            rhs,
            env_size: 4,
            location: "t".into(),
        }
    }

    fn ctor(c: CtorId) -> Pattern {
        Pattern::Lit(Value::Ctor(c, Arc::from([])))
    }

    fn vars() -> Vec<Pattern> {
        (1..4).map(|s| Pattern::Bind(s, None)).collect()
    }

    /// `C(e, x, x) = x; C(e5, y1, y2) = y2; C(e7, y1, y2) = y1`.
    fn case_map() -> MapInfo {
        let shortcut = vec![
            Pattern::Bind(0, None),
            Pattern::Bind(1, None),
            Pattern::Same(1),
        ];
        let select = |c, rhs| {
            let mut ps = vec![ctor(c)];
            ps.extend(vars().into_iter().take(2));
            rule(ps, Term::Var(rhs))
        };
        MapInfo {
            name: "C".into(),
            sorts: Vec::new(),
            rules: vec![rule(shortcut, Term::Var(1)), select(5, 2), select(7, 1)],
        }
    }

    #[test]
    fn case_functions_select_by_constructor() {
        let t = case_table(&case_map()).expect("a case function");
        assert_eq!(t.arity, 3);
        assert_eq!((t.select(5), t.select(7)), (Some(2), Some(1)));
        assert_eq!((t.select(4), t.select(6), t.select(8)), (None, None, None));
    }

    #[test]
    fn other_maps_are_not_case_functions() {
        let mut m = case_map();
        m.rules[1].rhs = Term::Const(Value::Int(0));
        assert!(case_table(&m).is_none(), "right-hand side not a variable");
        let mut m = case_map();
        m.rules[2].condition = Some(Term::Const(Value::Bool(true)));
        assert!(case_table(&m).is_none(), "conditional rule");
        let mut m = case_map();
        m.rules[1].lhs[0][2] = Pattern::Same(1);
        assert!(case_table(&m).is_none(), "repeated variable");
    }
}
