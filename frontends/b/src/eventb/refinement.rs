//! The refinement chain of an Event-B export: ProB keeps in its states the
//! variables of the abstract machines that the concrete machine drops
//! (they appear in gluing invariants), and updates them by the actions of
//! the abstract events each concrete event refines. This module finds
//! those variables and, for one concrete event, the abstract actions on
//! them, following the `refines` links machine by machine.
//!
//! Supported: abstract actions `x := E` whose abstract parameters are
//! parameters of the concrete event or given by its witnesses,
//! nondeterministic abstract actions on dropped variables whose
//! after-values the concrete event gives by witnesses `x' = E` (witnesses
//! reading after-values are `after`'s), and merged abstract events
//! without parameters whose actions are the same. Refused (the message
//! says why): other nondeterministic abstract actions on a dropped
//! variable, abstract parameters without a witness, other merged events,
//! a missing abstract event.
//!
//! Owns only the walk over the terms; translation is `project`'s.

use super::expr::ident_name_of;
use super::term::Term;

/// The parts of an `event(...)` term.
#[derive(Clone)]
pub struct EventParts<'t> {
    pub name: &'t str,
    /// `convergent`, `anticipated` or `ordinary`.
    pub status: &'t str,
    pub refines: Vec<&'t str>,
    pub params: &'t [Term],
    pub guards: &'t [Term],
    /// The guards marked as theorems.
    pub theorems: &'t [Term],
    pub actions: &'t [Term],
    /// `witness(_, identifier(_, p), Pred)`: the abstract parameters the
    /// event gives by a predicate.
    pub witnesses: &'t [Term],
}

/// An abstract action on a dropped variable, with the witnesses of the
/// abstract parameters it uses (name, predicate).
pub type AbstractAction<'t> = (&'t Term, Vec<(&'t str, &'t Term)>);

/// `event(Pos, Name, Status, Refines, Params, Guards, Theorems, Actions,
/// Witnesses)`, or without Theorems, or without Status and Theorems
/// (older exports).
pub fn event_parts(e: &Term) -> Option<EventParts<'_>> {
    let (n, st, r, p, g, t, a, w) = match e.app()? {
        ("event", [_, n, s, r, p, g, t, a, w]) => (n, Some(s), r, p, g, t.list()?, a, w),
        ("event", [_, n, s, r, p, g, a, w]) => (n, Some(s), r, p, g, &[][..], a, w),
        ("event", [_, n, r, p, g, a, w]) => (n, None, r, p, g, &[][..], a, w),
        _ => return None,
    };
    Some(EventParts {
        name: n.atom()?,
        status: st.and_then(Term::app).map_or("ordinary", |(f, _)| f),
        theorems: t,
        refines: match r {
            // older exports: one abstract event's name, '' for none
            Term::Atom(a) if a.is_empty() => Vec::new(),
            Term::Atom(a) => vec![a.as_str()],
            _ => r.list()?.iter().filter_map(Term::atom).collect(),
        },
        params: p.list()?,
        guards: g.list()?,
        actions: a.list()?,
        witnesses: w.list().unwrap_or(&[]),
    })
}

/// The sections of a machine term.
fn section<'t>(m: &'t Term, name: &str) -> &'t [Term] {
    let secs = m.app().and_then(|(_, a)| a.get(2)).and_then(Term::list);
    secs.unwrap_or(&[])
        .iter()
        .find_map(|s| match s.app() {
            Some((f, [_, Term::List(v)])) if f == name => Some(v.as_slice()),
            _ => None,
        })
        .unwrap_or(&[])
}

pub fn var_names(m: &Term) -> Vec<&str> {
    section(m, "variables")
        .iter()
        .filter_map(ident_name_of)
        .collect()
}

/// The abstract machines of `concrete`, most concrete first (following
/// `refines(_, Name)` among `machines`).
pub fn chain<'t>(concrete: &'t Term, machines: &'t [Term]) -> Vec<&'t Term> {
    let mut out: Vec<&Term> = Vec::new();
    let mut cur = concrete;
    while let Some(name) = section_atom(cur, "refines") {
        let Some(a) = machines
            .iter()
            .find(|m| m.app().and_then(|(_, a)| a.get(1)).and_then(Term::atom) == Some(name))
        else {
            break;
        };
        if out.iter().any(|o| std::ptr::eq(*o, a)) || out.len() > machines.len() {
            break;
        }
        out.push(a);
        cur = a;
    }
    out
}

fn section_atom<'t>(m: &'t Term, name: &str) -> Option<&'t str> {
    let secs = m.app().and_then(|(_, a)| a.get(2)).and_then(Term::list)?;
    secs.iter().find_map(|s| match s.app() {
        Some((f, [_, x])) if f == name => x.atom(),
        _ => None,
    })
}

/// The variables of the abstract machines that `concrete` drops, in
/// order of appearance (most concrete abstraction first).
pub fn dropped_variables(concrete: &Term, chain: &[&Term]) -> Vec<String> {
    let kept = var_names(concrete);
    let mut out: Vec<String> = Vec::new();
    for a in chain {
        for v in var_names(a) {
            if !kept.contains(&v) && !out.iter().any(|o| o == v) {
                out.push(v.to_owned());
            }
        }
    }
    out
}

/// The abstract actions on the dropped variables performed with concrete
/// event `ev` (of `concrete`), or why they are not supported.
pub fn abstract_actions<'t>(
    concrete: &Term,
    ev: &EventParts<'t>,
    chain: &[&'t Term],
    dropped: &[String],
) -> Result<Vec<AbstractAction<'t>>, String> {
    let init = ev.name == "INITIALISATION";
    let mut handled: Vec<&str> = var_names(concrete);
    let mut refines: Vec<&str> = if init {
        vec!["INITIALISATION"]
    } else {
        ev.refines.clone()
    };
    let mut out = Vec::new();
    // the abstract events refined so far, nearest the concrete first
    let mut below: Vec<EventParts<'t>> = Vec::new();
    for a in chain {
        let vars = var_names(a);
        let open: Vec<&str> = vars
            .iter()
            .copied()
            .filter(|v| !handled.contains(v) && dropped.iter().any(|d| d == v))
            .collect();
        if refines.is_empty() {
            break;
        }
        let ae = match refines.as_slice() {
            [r] => section(a, "events")
                .iter()
                .filter_map(event_parts)
                .find(|e| e.name == *r)
                .ok_or_else(|| format!("abstract event {r} not found"))?,
            _ => merged_events(a, &refines)?.swap_remove(0),
        };
        for act in ae.actions {
            if let Some(x) = action_on(act, &open, &ae, (&below, ev))? {
                out.push(x);
            }
        }
        refines = if init {
            vec!["INITIALISATION"]
        } else {
            ae.refines.clone()
        };
        below.insert(0, ae);
        handled.extend(vars);
    }
    Ok(out)
}

/// The abstract events `names` of machine `a` that one concrete event
/// merges, when they have no parameters, the same actions and refine the
/// same events (so one of them stands for all in the actions); otherwise
/// why not supported.
pub fn merged_events<'t>(a: &'t Term, names: &[&str]) -> Result<Vec<EventParts<'t>>, String> {
    let events = named_events(a, names);
    let [first, rest @ ..] = events.as_slice() else {
        return Err(format!("abstract events {} not found", names.join(", ")));
    };
    let alike = |e: &EventParts<'_>| {
        e.params.is_empty()
            && e.refines == first.refines
            && e.actions.len() == first.actions.len()
            && e.actions
                .iter()
                .zip(first.actions)
                .all(|(x, y)| same_but_labels(x, y))
    };
    if events.len() != names.len() || !alike(first) || !rest.iter().all(alike) {
        return Err(
            "an event refining several abstract events (merging) with parameters or different actions"
                .into(),
        );
    }
    Ok(events)
}

/// The abstract events `names` of machine `a`, when each is there and
/// has no parameters.
pub fn parameterless_events<'t>(a: &'t Term, names: &[&str]) -> Option<Vec<EventParts<'t>>> {
    let events = named_events(a, names);
    (events.len() == names.len() && events.iter().all(|e| e.params.is_empty())).then_some(events)
}

/// The events of machine `a` named in `names`, in the machine's order.
fn named_events<'t>(a: &'t Term, names: &[&str]) -> Vec<EventParts<'t>> {
    section(a, "events")
        .iter()
        .filter_map(event_parts)
        .filter(|e| names.contains(&e.name))
        .collect()
}

/// Whether `a` and `b` are the same term but for their Rodin labels
/// (`rodinpos(...)`) and positions.
fn same_but_labels(a: &Term, b: &Term) -> bool {
    match (a, b) {
        (Term::App(f, _, _), Term::App(g, _, _)) if f == "rodinpos" && g == "rodinpos" => true,
        (Term::App(f, x, _), Term::App(g, y, _)) => {
            f == g && x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_but_labels(p, q))
        }
        (Term::List(x), Term::List(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_but_labels(p, q))
        }
        _ => a == b,
    }
}

/// `act` when it assigns one of the `open` variables (it must be a plain
/// assignment of those only), with the witnesses of the abstract
/// parameters it uses that the concrete event `ev` drops (a witness must
/// not mention after-values); `below` are the abstract events between
/// `ae` and `ev`, nearest `ae` first.
fn action_on<'t>(
    act: &'t Term,
    open: &[&str],
    ae: &EventParts<'_>,
    (below, ev): (&[EventParts<'t>], &EventParts<'t>),
) -> Result<Option<AbstractAction<'t>>, String> {
    let (f, lhs) = match act.app() {
        Some((f, [_, Term::List(l), _])) => (f, l),
        _ => return Err("an abstract action of an unknown form".into()),
    };
    let targets = action_targets(lhs);
    let on_open = targets.iter().filter(|t| open.contains(t)).count();
    if on_open == 0 {
        return Ok(None);
    }
    let mut witnessed = Vec::new();
    if f != "assign" && on_open == targets.len() {
        // a nondeterministic action on dropped variables whose
        // after-values the concrete event gives by witnesses `x' = E`
        witnessed = after_witnesses(&targets, below, ev)?.unwrap_or_default();
    }
    if (f != "assign" && witnessed.is_empty()) || on_open != targets.len() {
        return Err(format!(
            "the abstract action {f} on the dropped variable {} (in abstract event {})",
            targets.join(", "),
            ae.name
        ));
    }
    let mut ids = Vec::new();
    identifiers(act, &mut ids);
    let abstract_params: Vec<&str> = ae.params.iter().filter_map(ident_name_of).collect();
    for p in ids.iter().filter(|i| abstract_params.contains(i)) {
        match parameter_witness(p, below, ev) {
            Ok(Some(pred)) => {
                if !witnessed.iter().any(|(q, _)| q == p) {
                    witnessed.push((*p, pred));
                }
            }
            Ok(None) => {}
            Err(why) => return Err(format!("the abstract parameter {p} of {} {why}", ae.name)),
        }
    }
    Ok(Some((act, witnessed)))
}

/// The witness giving abstract parameter `p` (of the event refined by
/// the first of `below`, or by `ev` when `below` is empty): that of the
/// nearest refining event which gives one, `p` staying a parameter of
/// the events in between; none when `p` is a parameter of the concrete
/// event `ev` itself. Refused when a witness found in an intermediate
/// event reads one of the intermediate events' parameters that `ev`
/// drops (its value would need a witness in turn).
fn parameter_witness<'t>(
    p: &str,
    below: &[EventParts<'t>],
    ev: &EventParts<'t>,
) -> Result<Option<&'t Term>, String> {
    let has_param =
        |e: &EventParts<'_>, q: &str| e.params.iter().any(|x| ident_name_of(x) == Some(q));
    let concrete: Vec<&str> = ev.params.iter().filter_map(ident_name_of).collect();
    for (level, e) in below.iter().chain(std::iter::once(ev)).enumerate() {
        let is_concrete = level == below.len();
        if let Some(pred) = e.witnesses.iter().find_map(|w| match w.app() {
            Some(("witness", [_, x, pred])) if ident_name_of(x) == Some(p) => Some(pred),
            _ => None,
        }) {
            let mut used = Vec::new();
            identifiers(pred, &mut used);
            let hidden = used.iter().find(|u| {
                **u != p && !concrete.contains(u) && below.iter().any(|b| has_param(b, u))
            });
            return match hidden {
                Some(u) => Err(format!(
                    "given by a witness reading the parameter {u} of an intermediate event"
                )),
                None => Ok(Some(pred)),
            };
        }
        if !has_param(e, p) {
            return Err("given by no witness".into());
        }
        if is_concrete {
            return Ok(None);
        }
    }
    Ok(None)
}

/// Whether witness `(name, pred)` gives an after-value (`x'`) or reads one.
pub fn reads_after_values((name, pred): &(&str, &Term)) -> bool {
    let mut used = Vec::new();
    identifiers(pred, &mut used);
    name.ends_with('\'') || used.iter().any(|u| u.ends_with('\''))
}

/// The witnesses `x' = E` for the after-values of the dropped variables
/// `targets`, when there is one for each: in the event refining the
/// abstract event that acts on them (the first of `below`, the abstract
/// events between it and the concrete event `ev`, else `ev`), or in `ev`.
/// Refused when a witness of an intermediate event reads one of its
/// parameters that `ev` drops.
fn after_witnesses<'t>(
    targets: &[&str],
    below: &[EventParts<'t>],
    ev: &EventParts<'t>,
) -> Result<Option<Vec<(&'t str, &'t Term)>>, String> {
    let found = |e: &EventParts<'t>| -> Option<Vec<(&'t str, &'t Term)>> {
        targets
            .iter()
            .map(|t| {
                e.witnesses.iter().find_map(|w| match w.app() {
                    Some(("witness", [_, x, pred])) => {
                        let x = ident_name_of(x)?;
                        (x.strip_suffix('\'') == Some(*t)).then_some((x, pred))
                    }
                    _ => None,
                })
            })
            .collect()
    };
    let Some(refining) = below.first() else {
        return Ok(found(ev));
    };
    let Some(ws) = found(refining) else {
        return Ok(found(ev));
    };
    let concrete: Vec<&str> = ev.params.iter().filter_map(ident_name_of).collect();
    for (_, pred) in &ws {
        let mut used = Vec::new();
        identifiers(pred, &mut used);
        let hidden = used.iter().find(|u| {
            !concrete.contains(u)
                && below
                    .iter()
                    .any(|b| b.params.iter().any(|x| ident_name_of(x) == Some(**u)))
        });
        if let Some(u) = hidden {
            return Err(format!(
                "the after-value of {} given by a witness reading the parameter {u} of an intermediate event",
                targets.join(", ")
            ));
        }
    }
    Ok(Some(ws))
}

/// The witness `x = E` of the abstract parameter `p` in event `ev`, when
/// it has that form and `E` reads no after-value.
pub fn equality_witness<'t>(ev: &EventParts<'t>, p: &str) -> Option<&'t Term> {
    let pred = ev.witnesses.iter().find_map(|w| match w.app() {
        Some(("witness", [_, x, pred])) if ident_name_of(x) == Some(p) => Some(pred),
        _ => None,
    })?;
    let Some(("equal", [_, x, e])) = pred.app() else {
        return None;
    };
    let mut used = Vec::new();
    identifiers(e, &mut used);
    (ident_name_of(x) == Some(p) && !used.iter().any(|u| u.ends_with('\'') || *u == p))
        .then_some(pred)
}

/// The variables an action's left-hand sides `lhs` assign (`x`, `f(a)`).
pub fn action_targets(lhs: &[Term]) -> Vec<&str> {
    lhs.iter()
        .filter_map(|t| {
            ident_name_of(t).or_else(|| match t.app() {
                Some(("function", [_, g, _])) => ident_name_of(g),
                _ => None,
            })
        })
        .collect()
}

/// The names of every `identifier(_, Name)` in `t`.
fn identifiers<'t>(t: &'t Term, out: &mut Vec<&'t str>) {
    if let Some(n) = ident_name_of(t) {
        out.push(n);
        return;
    }
    match t {
        Term::App(_, args, _) => args.iter().for_each(|a| identifiers(a, out)),
        Term::List(xs) => xs.iter().for_each(|a| identifiers(a, out)),
        _ => {}
    }
}
