//! Operators of ProB's theory plug-in with a direct definition
//! (`operator(Name, [argument(a, T), ..], WD, [Definition], [])` in a
//! `theory(...)` term of the export's extras): an application
//! `extended_expr(_, Name, Args, [])` (or `extended_pred`) is the
//! definition with the arguments put for the parameters, as ProB
//! evaluates it, its binders renamed apart from the arguments. Refused:
//! operators defined by axioms (those by cases are `datatypes`'),
//! predicate arguments, a binder named as a parameter, a definition
//! applying its own operator or reading a type parameter of its theory.
//!
//! Owns only the terms; translation is `expr`'s.

use super::expr::ident_name_of;
use super::term::Term;

/// A theory operator with a direct definition.
pub struct Operator {
    pub name: String,
    params: Vec<String>,
    def: Term,
    /// Whether the definition reads a type parameter of its theory as a
    /// value (ProB instantiates it by the arguments' types: refused).
    reads_type: bool,
}

/// The operators with a direct definition of the `theory(...)` terms
/// among the export's `extras`.
pub fn operators(extras: &[Term]) -> Vec<Operator> {
    let mut out = Vec::new();
    for t in extras {
        if t.app().is_some_and(|(f, _)| f == "theory") {
            collect(t, &mut out);
        }
    }
    let types = type_params(extras);
    for op in &mut out {
        let mut used = Vec::new();
        value_names(&op.def, &mut used);
        op.reads_type = used
            .iter()
            .any(|u| types.contains(u) && !op.params.contains(u));
    }
    out
}

/// The type parameters of the `theory(...)` terms among `extras` (`T`
/// of `List(T)`): the lists of atoms among their arguments.
pub(super) fn type_params(extras: &[Term]) -> Vec<String> {
    let mut out = Vec::new();
    for t in extras {
        if let Some(("theory", xs)) = t.app() {
            for x in xs.iter().filter_map(Term::list) {
                out.extend(x.iter().filter_map(Term::atom).map(str::to_owned));
            }
        }
    }
    out
}

fn collect(t: &Term, out: &mut Vec<Operator>) {
    if let Some(("operator", [name, Term::List(args), _wd, Term::List(defs), Term::List(rec)])) =
        t.app()
    {
        let params: Option<Vec<String>> = args
            .iter()
            .map(|a| match a.app() {
                Some(("argument", [x, _])) => {
                    ident_name_of(x).or_else(|| x.atom()).map(str::to_owned)
                }
                _ => None,
            })
            .collect();
        if let (Some(name), Some(params), [def], []) =
            (name.atom(), params, defs.as_slice(), rec.as_slice())
        {
            out.push(Operator {
                name: name.to_owned(),
                params,
                def: def.clone(),
                reads_type: false,
            });
        }
        return;
    }
    match t {
        Term::App(_, xs, _) | Term::List(xs) => xs.iter().for_each(|x| collect(x, out)),
        _ => {}
    }
}

/// The definition of `op` applied to `args`, or why not.
pub fn instantiate(op: &Operator, args: &[Term]) -> Result<Term, String> {
    if args.len() != op.params.len() {
        return Err(format!(
            "the theory operator {} with {} arguments",
            op.name,
            args.len()
        ));
    }
    if op.reads_type {
        return Err(format!(
            "the theory operator {} (a type parameter of its theory as a value)",
            op.name
        ));
    }
    let mut bound = Vec::new();
    binders(&op.def, &mut bound);
    if bound.iter().any(|b| op.params.contains(b)) || applies(&op.def, &op.name) {
        return Err(format!(
            "the theory operator {} (a binder of its definition meets a parameter, or it applies itself)",
            op.name
        ));
    }
    // the binders renamed apart from the arguments' identifiers: the
    // definition is closed but for its parameters, so every occurrence of
    // a bound name is bound
    let fresh: Vec<Term> = bound
        .iter()
        .map(|b| identifier(&format!("{b}$th_{}", op.name)))
        .collect();
    // (`substitute` renames the binding occurrences too: they are
    // identifiers in the binders' lists)
    let def = substitute(&op.def, &bound, &fresh);
    Ok(substitute(&def, &op.params, args))
}

/// `identifier(none, name)`.
pub(super) fn identifier(name: &str) -> Term {
    let none = Term::Atom("none".into());
    Term::App(
        "identifier".into(),
        vec![none, Term::Atom(name.into())],
        crate::ast::Pos::default(),
    )
}

pub(super) fn substitute(t: &Term, params: &[String], args: &[Term]) -> Term {
    if let Some(n) = ident_name_of(t) {
        if let Some(k) = params.iter().position(|p| p == n) {
            return args[k].clone();
        }
    }
    match t {
        Term::App(f, xs, p) => Term::App(
            f.clone(),
            xs.iter().map(|x| substitute(x, params, args)).collect(),
            *p,
        ),
        Term::List(xs) => Term::List(xs.iter().map(|x| substitute(x, params, args)).collect()),
        _ => t.clone(),
    }
}

/// The names bound by the quantifiers and comprehensions in `t`.
pub(super) fn binders(t: &Term, out: &mut Vec<String>) {
    if let Some((
        "forall"
        | "exists"
        | "quantified_union"
        | "quantified_intersection"
        | "event_b_comprehension_set",
        [_, ids, ..],
    )) = t.app()
    {
        names(ids, out);
    }
    match t {
        Term::App(_, xs, _) | Term::List(xs) => xs.iter().for_each(|x| binders(x, out)),
        _ => {}
    }
}

/// The identifiers in `t`.
pub(super) fn names(t: &Term, out: &mut Vec<String>) {
    walk_names(t, out, false);
}

/// The identifiers `t` reads as values: those of `names`, but for the
/// types of `typeof(_, e, Type)` annotations, which translation drops
/// (not those of Event-B's generic `id`, `prj1` and `prj2`, which read
/// their type).
pub(super) fn value_names(t: &Term, out: &mut Vec<String>) {
    walk_names(t, out, true);
}

fn walk_names(t: &Term, out: &mut Vec<String>, values_only: bool) {
    if let (true, Some(("typeof", [_, e, _]))) = (values_only, t.app()) {
        let generic = e.app().is_some_and(|(f, _)| {
            matches!(
                f,
                "event_b_identity" | "event_b_first_projection_v2" | "event_b_second_projection_v2"
            )
        });
        if !generic {
            return walk_names(e, out, values_only);
        }
    }
    if let Some(n) = ident_name_of(t) {
        out.push(n.to_owned());
        return;
    }
    match t {
        Term::App(_, xs, _) | Term::List(xs) => {
            xs.iter().for_each(|x| walk_names(x, out, values_only))
        }
        _ => {}
    }
}

/// Whether `t` applies the operator `name`.
fn applies(t: &Term, name: &str) -> bool {
    match t {
        Term::App(f, xs, _) => {
            let own = (f == "extended_expr" || f == "extended_pred")
                && xs.get(1).and_then(Term::atom) == Some(name);
            own || xs.iter().any(|x| applies(x, name))
        }
        Term::List(xs) => xs.iter().any(|x| applies(x, name)),
        _ => false,
    }
}
