//! A ProB Event-B export (`package(load_event_b_project(Machines,
//! Contexts, Extras, _))`) as classical B machines that `compile` turns
//! into a [`crate::BModel`]:
//!
//! * Every context of the package (those it extends first) becomes a
//!   machine with SETS (its carrier sets), CONSTANTS and PROPERTIES (its
//!   axioms; theorems are not evaluated). A carrier set that an axiom
//!   partitions into singletons of constants (`partition(S, {a}, {b})`)
//!   becomes the enumerated set `S = {a, b}` and those constants its
//!   elements, as ProB does (the partition and the axioms `a : S` go:
//!   without constants and axioms left, there is no SETUP_CONSTANTS step).
//! * The first machine of the package is the most concrete one, the one
//!   ProB explores: its variables, its INITIALISATION event and its events
//!   (the export holds them flattened: an extended event already carries
//!   the abstract parameters, guards and actions). An event becomes the
//!   operation `name(params) = SELECT guards THEN actions END` (actions in
//!   parallel), under ProB's checks when it fires (`EventCheck`): its
//!   theorems among the guards hold, the guard of the abstract event it
//!   refines holds (for the values of the abstract parameters given by
//!   witnesses `x = E`; not checked when another witness gives one), the
//!   VARIANT is natural and decreases (convergent) or does
//!   not increase (anticipated), a nondeterministic action has an outcome.
//!   A failed check is a model error naming the event and the check.
//!
//! Refused as unsupported: abstract constants, abstract variables that
//! disappear in the refinement, the operators of theories (ProB's theory
//! plug-in), and any construct the expression table does not know.

use crate::ast::*;
use crate::error::{BError, ErrorKind};
use crate::load::{Composed, Reader};

use super::after::After;
use super::expr::{conj, ident_name_of, Tr};
use super::refined::MachineCtx;
use super::refinement::{self, event_parts, EventParts};
use super::term::{read_terms, Term};

type R<T> = Result<T, BError>;

/// Reads `text` (from file `label`) into machines.
pub fn compose(reader: &mut Reader, text: &str, label: &str) -> R<(Composed, Regions)> {
    reader.files.push(label.to_owned());
    let fid = (reader.files.len() - 1) as u16;
    let at = Pos {
        file: fid,
        line: 1,
        col: 1,
    };
    let terms = read_terms(text, fid)
        .map_err(|(m, p)| crate::parse::err_at(&reader.files, ErrorKind::Syntax, p, m))?;
    let package = terms
        .iter()
        .find(|t| t.app().is_some_and(|(f, _)| f == "package"));
    let none = Term::Atom("none".into());
    let term = package.unwrap_or(&none);
    let files = reader.files.clone();
    let mut tr = Tr {
        syms: &mut reader.syms,
        files: &files,
        at,
        what: String::new(),
        rename: Vec::new(),
        carriers: Vec::new(),
        operators: Vec::new(),
        theory: Default::default(),
        tags: Default::default(),
        regions: Vec::new(),
    };
    // the extras: the theories of ProB's theory plug-in, whose operators
    // with a direct definition are expanded where applied (`theory`)
    let (models, contexts) = match project_parts(term) {
        Some(p) => p,
        None => {
            return Err(tr.err(
                ErrorKind::Syntax,
                term,
                "expected package(load_event_b_project(Machines, Contexts, Extras, _))",
            ))
        }
    };
    tr.operators = super::theory::operators(extras(term));
    tr.theory = super::datatypes::Theory::read(extras(term));
    tr.tags = super::tags::Tags::read(extras(term));
    let mut machines = Vec::new();
    let mut enumerated = Vec::new();
    for c in order_contexts(contexts) {
        machines.push(tr.context(c, &mut enumerated)?);
    }
    if let Some(m) = models.first() {
        machines.push(tr.machine(m, &models[1..])?);
    }
    let main = machines.len().saturating_sub(1);
    let offered = machines.last().map_or(0, |m| m.operations.len());
    let regions = Regions(std::mem::take(&mut tr.regions));
    let composed = Composed {
        machines,
        offered: (0..offered).map(|k| (main, k)).collect(),
        callable: Default::default(),
        calls: crate::eventb_calls::Calls(std::mem::take(&mut tr.theory.calls)),
    };
    Ok((composed, regions))
}

/// Where each axiom and event of the export starts, with its name: names
/// the element an error found later (by `compile`) lies in.
pub struct Regions(Vec<(Pos, String)>);

impl Regions {
    /// `e` with the axiom or event it lies in named.
    pub fn name(&self, e: BError) -> BError {
        let (Some(line), Some(col)) = (e.line(), e.column()) else {
            return e;
        };
        let region = self
            .0
            .iter()
            .filter(|(p, _)| (p.line, p.col) <= (line, col))
            .max_by_key(|(p, _)| (p.line, p.col));
        match region {
            Some((_, what)) if !e.message().contains(" (in ") => BError::at(
                e.kind(),
                e.file(),
                line,
                col,
                format!("{} (in {what})", e.message()),
            ),
            _ => e,
        }
    }
}

/// The extras of the package term (theories, proof obligations).
fn extras(t: &Term) -> &[Term] {
    let extras = t
        .app()
        .and_then(|(_, a)| a.first())
        .and_then(Term::app)
        .and_then(|(_, args)| args.get(2))
        .and_then(Term::list);
    extras.unwrap_or(&[])
}

/// The machines and contexts of the package term.
fn project_parts(t: &Term) -> Option<(&[Term], &[Term])> {
    let (_, [p]) = t.app().filter(|(f, _)| *f == "package")? else {
        return None;
    };
    let (f, args) = p.app()?;
    if f != "load_event_b_project" || args.len() < 2 {
        return None;
    }
    Some((args[0].list()?, args[1].list()?))
}

/// The name of a machine or context term (`event_b_model(_, Name, _)`).
pub(super) fn component_name(t: &Term) -> Option<&str> {
    t.app().and_then(|(_, a)| a.get(1)).and_then(Term::atom)
}

/// The sections (`sees(..)`, `axioms(..)`, ...) of a machine or context.
fn sections(t: &Term) -> &[Term] {
    t.app()
        .and_then(|(_, a)| a.get(2))
        .and_then(Term::list)
        .unwrap_or(&[])
}

/// The list argument of section `name` (empty when absent).
fn section<'t>(t: &'t Term, name: &str) -> &'t [Term] {
    sections(t)
        .iter()
        .find_map(|s| match s.app() {
            Some((f, [_, Term::List(v)])) if f == name => Some(v.as_slice()),
            _ => None,
        })
        .unwrap_or(&[])
}

/// Contexts so that every context comes after those it extends; a
/// context the export lists twice (the same term under the same name, as
/// in TestUnionUnion_ctx) is read once, as ProB does: twice, its constants
/// would be declared twice.
fn order_contexts(cs: &[Term]) -> Vec<&Term> {
    let mut out: Vec<&Term> = Vec::new();
    fn visit<'t>(c: &'t Term, cs: &'t [Term], out: &mut Vec<&'t Term>, depth: usize) {
        if depth > cs.len() || out.iter().any(|o| std::ptr::eq(*o, c) || o.same_as(c)) {
            return;
        }
        for e in section(c, "extends") {
            if let Some(d) = cs.iter().find(|d| component_name(d) == e.atom()) {
                visit(d, cs, out, depth + 1);
            }
        }
        if !out.iter().any(|o| std::ptr::eq(*o, c) || o.same_as(c)) {
            out.push(c);
        }
    }
    for c in cs {
        visit(c, cs, &mut out, 0);
    }
    out
}

/// The label of an element (`rodinpos(Component, Label, Id)` or
/// `rodinpos(Label, Id)`), or `?`.
pub(super) fn label(t: &Term) -> String {
    let pos = t.app().and_then(|(_, a)| a.first());
    match pos.and_then(Term::app) {
        Some(("rodinpos", [_, l, _])) | Some(("rodinpos", [l, _])) => match l {
            Term::Atom(a) => a.clone(),
            Term::Int(n) => n.to_string(),
            _ => "?".into(),
        },
        _ => "?".into(),
    }
}

impl Tr<'_> {
    /// A context; `enumerated` collects the carrier sets made enumerated
    /// (with their elements), those of the contexts read before included.
    fn context(&mut self, c: &Term, enumerated: &mut Vec<(String, Vec<String>)>) -> R<Machine> {
        let name = component_name(c).unwrap_or("?").to_owned();
        self.what = format!("context {name}");
        let mut consts: Vec<String> = Vec::new();
        // ProB's abstract constants (those it keeps symbolic) are
        // constants like the others, as classical B's ABSTRACT_CONSTANTS
        let all = section(c, "constants").iter();
        for t in all.chain(section(c, "abstract_constants")) {
            consts.push(self.ident_name(t)?.to_owned());
        }
        let mut axioms: Vec<&Term> = section(c, "axioms").iter().collect();
        let mut sets = Vec::new();
        for s in section(c, "sets") {
            let Some(("deferred_set", [_, n])) = s.app() else {
                return Err(self.err(ErrorKind::Unsupported, s, "a carrier set of this form"));
            };
            let n = n.atom().unwrap_or("?").to_owned();
            self.carriers.push(n.clone());
            let found = enumerating_partition(&n, &axioms, &consts)
                .or_else(|| enumerating_extension(&n, &axioms, &consts));
            let elements = match found {
                Some((k, elems)) => {
                    axioms.remove(k);
                    consts.retain(|c| !elems.contains(c));
                    let syms = elems.iter().map(|e| self.syms.intern(e)).collect();
                    enumerated.push((n.clone(), elems));
                    Some(syms)
                }
                None => None,
            };
            sets.push(SetDecl {
                name: self.syms.intern(&n),
                elements,
                pos: self.pos_of(s),
            });
        }
        axioms.retain(|a| !is_trivial(a, enumerated, &self.carriers));
        let mut properties = Vec::new();
        for a in axioms {
            self.what = format!("axiom {} of context {name}", label(a));
            self.regions.push((self.pos_of(a), self.what.clone()));
            properties.push(self.expr(a)?);
        }
        Ok(Machine {
            name,
            kind: "CONTEXT".into(),
            sets,
            constants: consts.iter().map(|c| self.syms.intern(c)).collect(),
            properties,
            pos: self.pos_of(c),
            ..Default::default()
        })
    }

    /// The most concrete machine `m` (its abstract machines among
    /// `abstract_machines`): its variables and those of the abstract
    /// machines it drops, its events.
    fn machine(&mut self, m: &Term, abstract_machines: &[Term]) -> R<Machine> {
        let name = component_name(m).unwrap_or("?").to_owned();
        self.what = format!("machine {name}");
        let chain = refinement::chain(m, abstract_machines);
        let dropped = refinement::dropped_variables(m, &chain);
        for a in &chain {
            let an = component_name(a).unwrap_or("?");
            for e in section(a, "events") {
                if let Some(ev) = event_parts(e) {
                    let what = format!("abstract event {} of machine {an}", ev.name);
                    self.regions.push((self.pos_of(e), what));
                }
            }
        }
        let mut variables = Vec::new();
        for v in section(m, "variables") {
            let n = self.ident_name(v)?.to_owned();
            variables.push(self.syms.intern(&n));
        }
        variables.extend(dropped.iter().map(|d| self.syms.intern(d)));
        let mc = MachineCtx {
            m,
            variant: section_term(m, "variant"),
            kept: refinement::var_names(m),
            chain,
            dropped,
        };
        let mut init = None;
        let mut operations = Vec::new();
        for e in section(m, "events") {
            let ev = event_parts(e)
                .ok_or_else(|| self.err(ErrorKind::Syntax, e, "expected event/7, /8 or /9"))?;
            self.what = format!("event {} of machine {name}", ev.name);
            self.regions.push((self.pos_of(e), self.what.clone()));
            let pos = self.pos_of(e);
            let params = self.ident_list(ev.params)?;
            let body = match self.merged_body(e, &ev, &mc)? {
                Some(body) => body,
                None => self.refined_body(e, &ev, &mc)?,
            };
            if ev.name == "INITIALISATION" {
                if !params.is_empty() {
                    return Err(self.err(ErrorKind::Unsupported, e, "initialisation parameters"));
                }
                init = Some(body);
            } else {
                operations.push(Operation {
                    name: self.syms.intern(ev.name),
                    outs: Vec::new(),
                    params,
                    body,
                    pos,
                });
            }
        }
        // read for the variables' types only (see `solve::Declared`): an
        // invariant this reader does not translate is left out
        let invariant = std::iter::once(m)
            .chain(mc.chain.iter().copied())
            .flat_map(|x| section(x, "invariant"))
            .filter_map(|i| self.expr(i).ok())
            .collect();
        Ok(Machine {
            name,
            kind: "MACHINE".into(),
            variables,
            invariant,
            init,
            operations,
            pos: self.pos_of(m),
            ..Default::default()
        })
    }

    /// ProB's checks when event `ev` fires, outermost first: its theorems
    /// among the guards, the guards of the abstract event it refines (in
    /// `abs`, the machine it refines; not when an abstract parameter is
    /// given by a witness other than `x = E`), the `variant` of the machine (a convergent or
    /// anticipated event), the abstract event's actions on the variables
    /// `kept` by the refinement.
    pub(super) fn event_checks(
        &mut self,
        ev: &EventParts<'_>,
        variant: Option<&Term>,
        abs: Option<&Term>,
        kept: &[&str],
    ) -> R<Vec<EventCheck>> {
        let at = format!("event {}", ev.name);
        let mut out = Vec::new();
        if let Some(t) = ev.theorems.first() {
            let what = format!("invalid_theorem_in_guard: {at}, theorem {}", label(t));
            let pred = conj(self.exprs(ev.theorems)?, self.pos_of(t));
            out.push(EventCheck::Holds { what, pred });
        }
        if let Some((aname, ae, witnesses)) = abs.and_then(|a| refined_event(ev, a)) {
            if let Some(g) = ae.guards.first() {
                let what = format!(
                    "simulation_error: {at} enabled where the guard of event {} of machine {aname} is false",
                    ae.name
                );
                let pred = conj(self.exprs(ae.guards)?, self.pos_of(g));
                let pred = self.witnessed_guard(&witnesses, pred)?;
                out.push(EventCheck::Holds { what, pred });
            }
            // the abstract actions read the witnessed parameters: not checked
            let actions = if witnesses.is_empty() {
                ae.actions
            } else {
                &[]
            };
            for a in actions {
                let lhs = a.app().and_then(|(_, xs)| xs.get(1)).and_then(Term::list);
                let targets = refinement::action_targets(lhs.unwrap_or(&[]));
                if targets.is_empty() || targets.iter().any(|t| !kept.contains(t)) {
                    continue;
                }
                let what = format!(
                    "action_not_executable: {at} refines event {} of machine {aname}, whose action {} gives {} other values",
                    ae.name,
                    label(a),
                    targets.join(", ")
                );
                let action = Box::new(self.action(a)?);
                out.push(EventCheck::Simulates { what, action });
            }
        }
        if let (Some(a), [_, _, ..]) = (abs, ev.refines.as_slice()) {
            out.extend(self.merged_check(ev, a, kept)?);
        }
        if let Some(keeps) = self.new_event_keeps(ev, abs, kept) {
            out.push(keeps);
        }
        let convergent = match ev.status {
            "convergent" => true,
            "anticipated" => false,
            _ => return Ok(out),
        };
        if let Some(v) = variant.filter(|_| ev.name != "INITIALISATION") {
            let what = format!("{at} ({})", ev.status);
            let expr = self.expr(v)?;
            out.push(EventCheck::Variant {
                what,
                expr,
                convergent,
            });
        }
        Ok(out)
    }

    /// ProB's simulation check for a concrete event `ev` merging abstract
    /// events of `abs` (see `refinement::merged_events`): the guard of one
    /// of them holds; none if one has no guard. Their actions must not
    /// write the variables `kept` by the refinement.
    fn merged_check(
        &mut self,
        ev: &EventParts<'_>,
        abs: &Term,
        kept: &[&str],
    ) -> R<Option<EventCheck>> {
        let events = refinement::merged_events(abs, &ev.refines)
            .map_err(|m| self.err(ErrorKind::Unsupported, abs, m))?;
        for a in events.iter().flat_map(|e| e.actions) {
            let lhs = a.app().and_then(|(_, xs)| xs.get(1)).and_then(Term::list);
            if refinement::action_targets(lhs.unwrap_or(&[]))
                .iter()
                .any(|t| kept.contains(t))
            {
                let msg = "merged abstract events acting on variables the refinement keeps";
                return Err(self.err(ErrorKind::Unsupported, a, msg));
            }
        }
        self.some_guard_check(ev, abs, &events)
    }

    /// The abstract guard `guard` with the abstract parameters given by
    /// `witnesses` (`x = E`, each on before-values, so one value each):
    /// `!xs.(witnesses => guard)` (CoffeR1's fill_mug, whose witness
    /// `x = -1` falsifies the abstract `x : NAT1`; under `=>` the guard
    /// is checked whole, `x : NAT1` included).
    fn witnessed_guard(&mut self, witnesses: &[(&str, &Term)], guard: Expr) -> R<Expr> {
        if witnesses.is_empty() {
            return Ok(guard);
        }
        let pos = guard.pos;
        let preds = witnesses
            .iter()
            .map(|(_, w)| self.expr(w))
            .collect::<R<Vec<Expr>>>()?;
        let pred = Expr {
            kind: ExprKind::Bin(BinOp::Implies, Box::new(conj(preds, pos)), Box::new(guard)),
            pos,
        };
        Ok(Expr {
            kind: ExprKind::Quant {
                kind: QuantKind::Forall,
                ids: witnesses.iter().map(|(p, _)| self.syms.intern(p)).collect(),
                pred: Box::new(pred),
                body: None,
                plan: Default::default(),
            },
            pos,
        })
    }

    /// For a new event `ev` (refining none) of a refinement of `abs`:
    /// the variables of `abs` its actions assign, which it must keep.
    fn new_event_keeps(
        &mut self,
        ev: &EventParts<'_>,
        abs: Option<&Term>,
        kept: &[&str],
    ) -> Option<EventCheck> {
        let abs = abs.filter(|_| ev.refines.is_empty() && ev.name != "INITIALISATION")?;
        let abstract_vars = refinement::var_names(abs);
        let mut assigned: Vec<&str> = Vec::new();
        for a in ev.actions {
            let lhs = a.app().and_then(|(_, xs)| xs.get(1)).and_then(Term::list);
            for t in refinement::action_targets(lhs.unwrap_or(&[])) {
                if abstract_vars.contains(&t) && kept.contains(&t) && !assigned.contains(&t) {
                    assigned.push(t);
                }
            }
        }
        let first = ev.actions.first()?;
        if assigned.is_empty() {
            return None;
        }
        let pos = self.pos_of(first);
        let what = format!(
            "invalid_modification: new event {} changes the abstract variables {}",
            ev.name,
            assigned.join(", ")
        );
        let vars = assigned
            .iter()
            .map(|n| Expr {
                kind: ExprKind::Ident(self.syms.intern(n)),
                pos,
            })
            .collect();
        Some(EventCheck::Keeps { what, vars })
    }

    /// Abstract action `act` with the abstract parameters it uses given
    /// by their witnesses: `ANY p WHERE witness THEN act END`, which must
    /// have a solution.
    pub(super) fn witnessed_action(&mut self, act: &Term, witnesses: &[(&str, &Term)]) -> R<Subst> {
        let body = self.action(act)?;
        let pos = body.pos;
        let ids = witnesses.iter().map(|(p, _)| self.syms.intern(p)).collect();
        let preds = witnesses
            .iter()
            .map(|(_, w)| self.expr(w))
            .collect::<R<Vec<Expr>>>()?;
        let any = Subst {
            kind: SubstKind::Any {
                ids,
                pred: conj(preds, pos),
                body: Box::new(body),
                plan: Default::default(),
            },
            pos,
        };
        // no value satisfying the witnesses: ProB's no_witness_found
        // (CCounterErr's `p : T \ s` once s = T)
        let names: Vec<&str> = witnesses.iter().map(|(p, _)| *p).collect();
        let what = format!(
            "no_witness_found: abstract parameter {} of {}",
            names.join(", "),
            self.what
        );
        Ok(wrap(EventCheck::Executable { what }, any))
    }

    /// `SELECT guards THEN checks(actions) END` (no SELECT when no guard):
    /// a nondeterministic action must have an outcome.
    pub(super) fn event_body(
        &mut self,
        guards: &[Term],
        actions: &[&Term],
        (witnessed, after): (Vec<Subst>, After),
        checks: Vec<EventCheck>,
        pos: Pos,
    ) -> R<Subst> {
        let g = self.exprs(guards)?;
        let mut acts = Vec::with_capacity(actions.len());
        for a in actions {
            let act = self.action(a)?;
            let act = match act.kind {
                SubstKind::BecomesIn(..) | SubstKind::BecomesSuch { .. } => {
                    let what = format!(
                        "action_not_executable: action {} of {}",
                        label(a),
                        self.what
                    );
                    wrap(EventCheck::Executable { what }, act)
                }
                _ => act,
            };
            acts.push(act);
        }
        acts.extend(witnessed);
        let then = match acts.len() {
            0 => Subst {
                kind: SubstKind::Skip,
                pos,
            },
            1 => acts.pop().expect("one action"),
            _ => Subst {
                kind: SubstKind::Par(acts),
                pos,
            },
        };
        let then = self.sequenced(then, after);
        let then = checks.into_iter().rev().fold(then, |b, c| wrap(c, b));
        if g.is_empty() {
            return Ok(then);
        }
        Ok(Subst {
            kind: SubstKind::Select(vec![(conj(g, pos), then)], None),
            pos,
        })
    }

    pub(super) fn action(&mut self, a: &Term) -> R<Subst> {
        let pos = self.pos_of(a);
        let kind = match a.app() {
            Some(("assign", [_, Term::List(l), Term::List(r)])) if l.len() == r.len() => {
                SubstKind::Assign(self.exprs(l)?, self.exprs(r)?)
            }
            Some(("becomes_element_of", [_, ids, s])) => {
                SubstKind::BecomesIn(self.ident_syms(ids)?, self.expr(s)?)
            }
            Some(("becomes_such", [_, ids, p])) => {
                let ids_syms = self.ident_syms(ids)?;
                let names: Vec<String> = ids_syms
                    .iter()
                    .map(|&s| self.syms.name(s).to_owned())
                    .collect();
                self.rename = names
                    .iter()
                    .flat_map(|n| [(n.clone(), format!("{n}$0")), (format!("{n}'"), n.clone())])
                    .collect();
                let pred = self.expr(p);
                self.rename.clear();
                SubstKind::BecomesSuch {
                    ids: ids_syms,
                    pred: pred?,
                    plan: Default::default(),
                }
            }
            _ => {
                let f = a.app().map_or("?", |(f, _)| f);
                return Err(self.err(
                    ErrorKind::Unsupported,
                    a,
                    format!("the Event-B action {f} (action {})", label(a)),
                ));
            }
        };
        Ok(Subst { kind, pos })
    }
}

/// `body` under check `c`.
pub(super) fn wrap(c: EventCheck, body: Subst) -> Subst {
    let pos = body.pos;
    Subst {
        kind: SubstKind::EventCheck(Box::new(c), Box::new(body)),
        pos,
    }
}

/// The single argument of section `name` of machine `m` (`variant(_, E)`).
fn section_term<'t>(m: &'t Term, name: &str) -> Option<&'t Term> {
    sections(m).iter().find_map(|s| match s.app() {
        Some((f, [_, x])) if f == name => Some(x),
        _ => None,
    })
}

/// Abstract parameters and their witnesses `x = E`.
type Witnesses<'t> = Vec<(&'t str, &'t Term)>;

/// The abstract event (of machine `abs`, with that machine's name) that
/// `ev` refines, when it refines one whose parameters are parameters of
/// `ev` or given by a witness `x = E` on before-values (with those
/// witnesses).
fn refined_event<'t>(
    ev: &EventParts<'t>,
    abs: &'t Term,
) -> Option<(&'t str, EventParts<'t>, Witnesses<'t>)> {
    let [r] = ev.refines.as_slice() else {
        return None;
    };
    let ae = section(abs, "events")
        .iter()
        .filter_map(event_parts)
        .find(|a| a.name == *r)?;
    let params: Vec<&str> = ev.params.iter().filter_map(ident_name_of).collect();
    let mut witnesses = Vec::new();
    for p in ae.params {
        let p = ident_name_of(p)?;
        if !params.contains(&p) {
            witnesses.push((p, refinement::equality_witness(ev, p)?));
        }
    }
    Some((component_name(abs)?, ae, witnesses))
}

/// An axiom `partition(S, {a}, {b}, ...)` whose parts are singletons of
/// distinct constants: its index and the constants, in order.
fn enumerating_partition(
    set: &str,
    axioms: &[&Term],
    consts: &[String],
) -> Option<(usize, Vec<String>)> {
    axioms.iter().enumerate().find_map(|(k, a)| {
        let (_, [_, s, Term::List(parts)]) = a.app().filter(|(f, _)| *f == "partition")? else {
            return None;
        };
        if ident_name_of(s)? != set {
            return None;
        }
        let mut elems: Vec<String> = Vec::new();
        for p in parts {
            let (_, [_, Term::List(xs)]) = p.app().filter(|(f, _)| *f == "set_extension")? else {
                return None;
            };
            let [x] = xs.as_slice() else { return None };
            let x = ident_name_of(x)?;
            if !consts.iter().any(|c| c == x) || elems.iter().any(|e| e == x) {
                return None;
            }
            elems.push(x.to_owned());
        }
        (!elems.is_empty()).then_some((k, elems))
    })
}

/// An axiom `S = {a, b, ...}` of distinct constants (every pair also
/// distinct by an axiom `a /= b`, maybe inside a conjunction): its index
/// and the constants, in order.
fn enumerating_extension(
    set: &str,
    axioms: &[&Term],
    consts: &[String],
) -> Option<(usize, Vec<String>)> {
    let mut conjuncts = Vec::new();
    for a in axioms {
        flat_conjuncts(a, &mut conjuncts);
    }
    let distinct = |x: &str, y: &str| {
        conjuncts.iter().any(|c| match c.app() {
            Some(("not_equal", [_, p, q])) => {
                let (p, q) = (ident_name_of(p), ident_name_of(q));
                (p == Some(x) && q == Some(y)) || (p == Some(y) && q == Some(x))
            }
            _ => false,
        })
    };
    axioms.iter().enumerate().find_map(|(k, a)| {
        let (_, [_, s, e]) = a.app().filter(|(f, _)| *f == "equal")? else {
            return None;
        };
        let (_, [_, Term::List(xs)]) = e.app().filter(|(f, _)| *f == "set_extension")? else {
            return None;
        };
        if ident_name_of(s)? != set {
            return None;
        }
        let mut elems: Vec<String> = Vec::new();
        for x in xs {
            let x = ident_name_of(x)?;
            if !consts.iter().any(|c| c == x) || elems.iter().any(|e| !distinct(e, x)) {
                return None;
            }
            elems.push(x.to_owned());
        }
        (!elems.is_empty()).then_some((k, elems))
    })
}

fn flat_conjuncts<'t>(t: &'t Term, out: &mut Vec<&'t Term>) {
    match t.app() {
        Some(("conjunct", [_, p, q])) => {
            flat_conjuncts(p, out);
            flat_conjuncts(q, out);
        }
        _ => out.push(t),
    }
}

/// Whether axiom `a` only types elements of enumerated sets (`e : S`,
/// `e /= f`, `finite(S)`, conjunctions of these): ProB drops such axioms with the
/// constants that became elements (left without constants or axioms, it
/// has no SETUP_CONSTANTS step). `finite(S)` of a deferred carrier set
/// (among `carriers`) is dropped too: ProB's carrier sets are finite
/// (TopologyDiscovery's rm_0, whose only axiom it is: no such step).
fn is_trivial(a: &Term, enumerated: &[(String, Vec<String>)], carriers: &[String]) -> bool {
    let set_of = |t: &Term| {
        let n = ident_name_of(t)?;
        enumerated.iter().find(|(s, _)| s == n)
    };
    match a.app() {
        Some(("member", [_, x, s])) => set_of(s)
            .is_some_and(|(_, es)| ident_name_of(x).is_some_and(|x| es.iter().any(|e| e == x))),
        Some(("finite", [_, s])) => {
            set_of(s).is_some() || ident_name_of(s).is_some_and(|n| carriers.iter().any(|c| c == n))
        }
        Some(("not_equal", [_, x, y])) => {
            let (x, y) = (ident_name_of(x), ident_name_of(y));
            x != y
                && enumerated.iter().any(|(_, es)| {
                    let has = |v: Option<&str>| v.is_some_and(|v| es.iter().any(|e| e == v));
                    has(x) && has(y)
                })
        }
        Some(("conjunct", [_, p, q])) => {
            is_trivial(p, enumerated, carriers) && is_trivial(q, enumerated, carriers)
        }
        _ => false,
    }
}
