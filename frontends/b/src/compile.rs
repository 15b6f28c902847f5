//! From a [`Composed`] machine to a [`BModel`]: ProB's settings (`MAXINT`,
//! `MININT`, deferred set sizes from `SET_PREF_*`, `scope_S` and
//! `card(S) = n`), the global names (sets, their elements, constants and
//! variables), and a static check that every binder can be enumerated, so
//! that unsupported constructs are refused before exploring.
//!
//! Owns settings and name resolution; it must not evaluate the machine
//! beyond literal settings.

use rustc_hash::FxHashMap;

use crate::ast::*;
use crate::error::{BError, ErrorKind};
use crate::eval::{Fail, Global, World};
use crate::load::{Composed, Reader};
use crate::model::{param_binder, BModel};
use crate::parse::err_at;
use crate::setsize::SetSizes;
use crate::solve::plan;
use crate::symmetry::Symmetry;
use crate::value::Value;
use crate::visit::{walk_subst, Role, SubstVisitor};

type R<T> = Result<T, BError>;

/// Settings that change what ProB explores, refused because our oracle
/// runs may have been truncated by them or they change the state space.
const REFUSED_PREFS: &[(&str, &str)] = &[
    (
        "SET_PREF_USE_IGNORE_PRAGMAS",
        "ProB's counts may be reduced by this preference",
    ),
    (
        "SET_PREF_SYMMETRY_MODE",
        "ProB's counts may be reduced by this preference",
    ),
    (
        "SET_PREF_KODKOD",
        "ProB solves the PROPERTIES with Kodkod, whose solutions may differ (Kodkod7_QueensBug)",
    ),
];

fn parse_int(s: &str) -> Option<i64> {
    crate::library_pragmas::int_value(s)
}

/// Builds the model.
pub fn compile(reader: Reader, c: Composed, name: &str) -> R<BModel> {
    let Reader {
        files,
        mut syms,
        symbolic_marks,
    } = reader;
    let Composed {
        mut machines,
        offered,
        callable,
        calls,
    } = c;
    crate::library_opexprs::hoist(&mut machines, &mut syms);
    crate::bodytyped::type_params_by_body(&mut machines);
    crate::solve::type_quantified(&mut machines, &syms);
    crate::deferred_rest::read_rest_parts(&mut machines);
    crate::deferred_listed_parts::read_listed_parts(&mut machines);
    let fixed_vars = crate::symbolic_fixed::take_fixed(&mut machines, &files);
    let mut maxint = 3i64;
    let mut minint = -1i64;
    let mut setsize = 2i64;
    let mut scopes: FxHashMap<String, i64> = FxHashMap::default();
    let mut try_find_abort = false;
    let mut any_values = false;
    let mut lazy_closures = false;
    for m in &machines {
        for (k, v, pos) in &m.settings {
            let bad = |what: &str| {
                err_at(
                    &files,
                    ErrorKind::Unsupported,
                    *pos,
                    format!("{k} == {v}: {what}"),
                )
            };
            if let Some((_, why)) = REFUSED_PREFS.iter().find(|(p, _)| p == k) {
                if v == "off" || v == "false" || v == "FALSE" {
                    continue;
                }
                return Err(bad(why));
            }
            match k.as_str() {
                "SET_PREF_MAXINT" => maxint = parse_int(v).ok_or_else(|| bad("not an integer"))?,
                "SET_PREF_MININT" => minint = parse_int(v).ok_or_else(|| bad("not an integer"))?,
                // ProB's per-state caps do not cut the oracle's counts
                // (see the crate's documentation): nothing to set
                "SET_PREF_MAX_OPERATIONS" | "SET_PREF_MAX_INITIALISATIONS" => {}
                "SET_PREF_SHOW_EVENTB_ANY_VALUES" if v.eq_ignore_ascii_case("true") => {
                    if offered
                        .iter()
                        .any(|&(mi, k)| nested_any(&machines[mi].operations[k].body))
                    {
                        return Err(bad("an ANY below an operation's top level, whose values ProB's transitions may tell apart"));
                    }
                    any_values = true;
                }
                "SET_PREF_SYMBOLIC" => lazy_closures = v.eq_ignore_ascii_case("true"),
                "SET_PREF_TRY_FIND_ABORT" => try_find_abort = v == "TRUE" || v == "true",
                "SET_PREF_DEFAULT_SETSIZE" => {
                    setsize = parse_int(v).ok_or_else(|| bad("not an integer"))?
                }
                _ if k.starts_with("scope_") => {
                    // `scope_S == lo..hi` gives S the size of the interval
                    // (ProB: phonebook's `scope_Code == 6..9`, 4 codes).
                    let n = match v.split_once("..") {
                        Some((lo, hi)) => parse_int(lo)
                            .zip(parse_int(hi))
                            .and_then(|(lo, hi)| hi.checked_sub(lo)?.checked_add(1))
                            .filter(|&n| n >= 1),
                        None => parse_int(v),
                    };
                    scopes.insert(
                        k["scope_".len()..].to_owned(),
                        n.ok_or_else(|| bad("scope not n or lo..hi"))?,
                    );
                }
                _ => {}
            }
        }
    }
    let scoped = |s: Sym| scopes.contains_key(syms.name(s));
    crate::deferred_integer_bijection::read_integer_bijections(
        &mut machines,
        (minint, maxint),
        &scoped,
    );
    let scope = crate::library_scope::of_main(&machines, &files)?;
    // the main machine's own SEES and USES are composed (`load`)
    let main = machines.last().expect("main machine");
    for m in machines.iter().filter(|m| m.name != main.name) {
        for r in m.sees.iter().chain(&m.uses) {
            if let Some(seen) = machines.iter().find(|x| x.name == r.name) {
                if seen.variables.is_empty() && !seen.operations.is_empty() {
                    return Err(err_at(
                        &files,
                        ErrorKind::Unsupported,
                        r.pos,
                        format!("SEES or USES of {}, a machine with operations (ProB's counts include them: Hansen19's Nodes_Sequence)", r.name),
                    ));
                }
                if !seen.variables.is_empty() {
                    return Err(err_at(
                        &files,
                        ErrorKind::Unsupported,
                        r.pos,
                        format!("SEES or USES of {}, a machine with variables (ProB's composition not modelled)", r.name),
                    ));
                }
            }
        }
    }
    let mut globals: Vec<Option<Global>> = Vec::new();
    let set_global = |globals: &mut Vec<Option<Global>>, s: Sym, g: Global| {
        if globals.len() <= s as usize {
            globals.resize(s as usize + 1, None);
        }
        globals[s as usize] = Some(g);
    };
    // sets
    let mut set_no = 0u32;
    let mut numbered = Vec::new();
    for m in &machines {
        for d in &m.sets {
            let elems: Vec<Value> = match &d.elements {
                Some(es) => {
                    for (i, &e) in es.iter().enumerate() {
                        set_global(
                            &mut globals,
                            e,
                            Global::Value(Value::Elem(set_no, i as u32)),
                        );
                    }
                    (0..es.len() as u32)
                        .map(|i| Value::Elem(set_no, i))
                        .collect()
                }
                None => {
                    let sizes = SetSizes {
                        machines: &machines,
                        syms: &syms,
                        scopes: &scopes,
                        default: setsize,
                        bounds: crate::setinfer::Bounds { maxint, minint },
                        files: &files,
                    };
                    let n = sizes.size(d)?;
                    numbered.push(crate::deferred_inferred::NumberedSet {
                        name: d.name,
                        number: set_no,
                        size: n as usize,
                    });
                    (0..n as u32).map(|i| Value::Elem(set_no, i)).collect()
                }
            };
            set_global(
                &mut globals,
                d.name,
                Global::Value(Value::set_sorted(elems)),
            );
            set_no += 1;
        }
    }
    crate::deferred_singletons::type_listed(&mut machines);
    let sizes_given = crate::deferred_given::sizes_given(
        &machines,
        &syms,
        &scopes,
        &crate::setinfer::Bounds { maxint, minint },
    );
    let mut const_ids = Vec::new();
    let mut var_ids = Vec::new();
    for m in &machines {
        const_ids.extend(m.constants.iter().copied());
        var_ids.extend(m.variables.iter().copied());
    }
    // constants ProB keeps symbolic get no slot (see `symbolic`)
    let had_constants = !const_ids.is_empty();
    let mut abstract_ids: Vec<Sym> = machines
        .iter()
        .flat_map(|m| m.abstract_constants.iter().copied())
        .collect();
    let mut machines = machines;
    let mut props: Vec<&mut Expr> = machines
        .iter_mut()
        .flat_map(|m| m.properties.iter_mut())
        .collect();
    // `/*@symbolic*/` marks constants as ABSTRACT_CONSTANTS are marked
    abstract_ids.extend(crate::symbolic_pragma::marked(
        &props,
        &const_ids,
        &symbolic_marks,
    ));
    let lazy = crate::symbolic::Lazy {
        all: lazy_closures,
        abstract_constants: &abstract_ids,
    };
    let closures = crate::symbolic::take_definitions(&mut props, &const_ids, &globals, lazy);
    let closure_names: Vec<Sym> = closures.iter().map(|d| d.0).collect();
    for (v, _) in &fixed_vars {
        syms.mark_fixed_infinite(*v);
    }
    let fixed = fixed_vars.into_iter().map(|(v, e)| (v, e, Vec::new()));
    for (c, d, deps) in closures.into_iter().chain(fixed) {
        if crate::symbolic::unbounded(&d, &closure_names) {
            syms.mark_infinite_closure(c);
        }
        const_ids.retain(|&x| x != c);
        set_global(
            &mut globals,
            c,
            Global::Symbolic(std::sync::Arc::new(crate::symbolic::Closure::new(d, deps))),
        );
    }
    // ProB breaks the symmetry of deferred sets while solving the
    // PROPERTIES: constant elements of a deferred set are enumerated MACE
    // style (`symmetry`); other cases (a constant element of another
    // constant set, a bijection onto a deferred set) are accepted only
    // with a single solution (`deferred_unique`).
    let deferred = crate::deferred_given::deferred_sets(&machines);
    let params: Vec<Sym> = machines.iter().flat_map(|m| m.params.clone()).collect();
    let event_b = machines
        .last()
        .is_some_and(|m| crate::is_event_b(&files[usize::from(m.pos.file)]));
    let symmetry = Symmetry::of(&machines, &const_ids, &params, &deferred, event_b)
        .map_err(|(p, m)| err_at(&files, ErrorKind::Unsupported, p, m))?;
    let orbits = crate::deferred_orbits::Orbits::new(
        numbered.iter().map(|s| (s.number, s.size as u32)).collect(),
    );
    let inferred_elements = crate::deferred_inferred::InferredElements::of(
        &machines,
        &const_ids,
        &numbered,
        &symmetry.bijections,
    );
    // checked once the PROPERTIES are solved (`deferred_unique`)
    let all_properties: Vec<&Expr> = (machines.iter().flat_map(|m| &m.properties))
        .flat_map(crate::solve::conjuncts)
        .collect();
    let unmodelled_symmetry = machines
        .iter()
        .flat_map(|m| &m.properties)
        .filter(|_| !const_ids.is_empty())
        .find_map(|p| symmetric_constants(p, &const_ids, &deferred, &all_properties));
    if let Some((pos, what)) = unmodelled_symmetry.as_ref().filter(|_| {
        let mut infinite = false;
        for p in machines.iter().flat_map(|m| &m.properties) {
            visit(p, &mut |e| {
                infinite |= matches!(
                    e.kind,
                    ExprKind::Named(
                        NamedSet::Integer
                            | NamedSet::Natural
                            | NamedSet::Natural1
                            | NamedSet::String
                    )
                )
            });
        }
        infinite
    }) {
        return Err(err_at(
            &files,
            ErrorKind::Unsupported,
            *pos,
            format!("{what} (ProB breaks deferred-set symmetry while solving PROPERTIES)"),
        ));
    }
    for (i, &s) in const_ids.iter().chain(&var_ids).enumerate() {
        set_global(&mut globals, s, Global::Slot(i));
    }
    // `x$0` symbols exist for every variable (becomes-such-that)
    for &v in &var_ids {
        let n = format!("{}$0", syms.name(v));
        syms.intern(&n);
    }
    globals.resize(syms.len(), None);
    // static plan checks
    for m in &machines {
        for p in &m.properties {
            check_expr(p, &syms, &files)?;
        }
        if let Some(s) = &m.init {
            check_subst(s, &syms, &files)?;
        }
    }
    for &(mi, k) in &offered {
        let op = &machines[mi].operations[k];
        check_subst(&op.body, &syms, &files)?;
        // parameters that are not typed, or that cannot be planned, are
        // refused when the operation is first tried (see `model`), so that
        // an error of an operation tried before it in the same state is
        // still reported (IntegerOperations' `x / y` before `pow(a)`)
        if let Some((_, g, _)) = param_binder(op).filter(|_| !op.params.is_empty()) {
            let classical = !crate::is_event_b(&files[usize::from(op.pos.file)]);
            if let Some(c) = crate::solve::clipped_parameter(&op.params, g).filter(|_| classical) {
                return Err(err_at(
                    &files,
                    ErrorKind::Unsupported,
                    c.pos,
                    "an operation parameter typed only as a function into an infinite \
                     integer set (ProB enumerates it otherwise than clipped to \
                     MININT..MAXINT: LustreTranslations/counter)",
                ));
            }
            if let Some(at) = printed_while_solving(g) {
                return Err(err_at(
                    &files,
                    ErrorKind::Unsupported,
                    at,
                    "printf in the predicate typing operation parameters \
                     (ProB prints while it solves and may fail: LLParsing_simplified)",
                ));
            }
        }
    }
    for &(mi, k) in callable.values() {
        check_subst(&machines[mi].operations[k].body, &syms, &files)?;
    }
    let slot_ids: Vec<Sym> = const_ids.iter().chain(&var_ids).copied().collect();
    let declared = crate::solve::Declared::of(&machines, &slot_ids);
    let mut machines = machines;
    let mut props: Vec<Expr> = machines
        .iter_mut()
        .flat_map(|m| std::mem::take(&mut m.properties))
        .collect();
    let properties = props.drain(..).reduce(|a, b| {
        let pos = a.pos;
        Expr {
            kind: ExprKind::Bin(BinOp::And, Box::new(a), Box::new(b)),
            pos,
        }
    });
    // (classical B only: Event-B's translated axioms about carrier sets
    // have no identifiers left and keep their step, C1_ctx)
    let classical = |p: &&Expr| !crate::is_event_b(&files[usize::from(p.pos.file)]);
    if let Some(p) = properties
        .as_ref()
        .filter(|_| !had_constants)
        .filter(classical)
    {
        let mut closed = true;
        visit(p, &mut |e| {
            closed &= !matches!(e.kind, ExprKind::Ident(_) | ExprKind::Quant { .. })
        });
        if closed {
            return Err(err_at(
                &files,
                ErrorKind::Unsupported,
                p.pos,
                "PROPERTIES of literals only, without constants \
                 (ProB may drop them and the SETUP_CONSTANTS step: TopLevelImplication)",
            ));
        }
    }
    let unplanned = properties
        .as_ref()
        .and_then(|p| crate::solve::plan_properties(&const_ids, p, &syms).err());
    let world = World {
        declared,
        syms,
        files,
        maxint,
        minint,
        globals,
        symmetry,
        any_values,
        try_find_abort,
        wd_swallowed: Default::default(),
        sets: Default::default(),
        sizes_given,
        unmodelled_symmetry,
        orbits,
        inferred_elements,
        calls,
        scope,
    };
    if let (Some((m, at)), Some(p)) = (unplanned, &properties) {
        // left to SETUP_CONSTANTS when a closed conjunct is an error there
        if !closed_wd_error(&world, &const_ids, p, m.clone(), at) {
            return Err(err_at(&world.files, ErrorKind::Unsupported, at, m));
        }
    }
    let model = BModel::new(
        name.to_owned(),
        world,
        machines,
        offered,
        callable,
        const_ids,
        var_ids,
        properties,
    );
    Ok(model)
}

/// Whether PROPERTIES `p`, which cannot be planned for the constants
/// (`m` at `at`), has a closed conjunct that is a well-definedness error
/// (see `solve::closed_wd`).
fn closed_wd_error(world: &World, const_ids: &[Sym], p: &Expr, m: String, at: Pos) -> bool {
    let mut env = crate::eval::Env {
        w: world,
        slots: vec![crate::exec::unset(); world.globals.len() + 1],
        locals: Vec::new(),
        local_samples: Vec::new(),
        symbolic: false,
    };
    let f = crate::solve::closed_wd(Fail::Unsupported(m, at), const_ids, p, &mut env);
    matches!(f, Fail::Wd(..))
}

/// Whether `e` is in an Event-B model.
fn event_b(files: &[String], e: &Expr) -> bool {
    files
        .get(usize::from(e.pos.file))
        .is_some_and(|f| crate::is_event_b(f))
}

fn check_expr(e: &Expr, syms: &Syms, files: &[String]) -> R<()> {
    use ExprKind::*;
    match &e.kind {
        Quant {
            kind,
            ids,
            pred,
            body,
            ..
        } => {
            let dom = match (kind, &pred.kind) {
                (QuantKind::Forall, Bin(BinOp::Implies, d, _)) => &**d,
                (QuantKind::Forall, _) => {
                    return Err(err_at(
                        files,
                        ErrorKind::Unsupported,
                        pred.pos,
                        "universal quantifier not of the form !x.(P => Q)",
                    ))
                }
                _ => &**pred,
            };
            let planned = plan(ids, dom, syms).map(|_| ());
            // a quantifier over unbounded integers: a witness (a counterexample)
            // in the window may decide it
            let planned = planned.or_else(|f| match kind {
                QuantKind::Exists | QuantKind::Forall
                    if crate::solve::window_typed(ids, dom, pred, event_b(files, pred)) =>
                {
                    Ok(())
                }
                _ => Err(f),
            });
            planned.map_err(|(m, p)| err_at(files, ErrorKind::Unsupported, p, m))?;
            check_expr(pred, syms, files)?;
            if let Some(b) = body {
                check_expr(b, syms, files)?;
            }
        }
        Ident(_) | Int(_) | Str(_) | ExprKind::Bool(_) | Named(_) | EmptySet | EmptySeq => {}
        SetExt(v) | SeqExt(v) | Call(_, v) => {
            v.iter().try_for_each(|x| check_expr(x, syms, files))?
        }
        Bin(_, a, b) | Apply(a, b) | Image(a, b) => {
            check_expr(a, syms, files)?;
            check_expr(b, syms, files)?;
        }
        Neg(a) | Inverse(a) | Field(a, _) => check_expr(a, syms, files)?,
        Rec(f) | Struct(f) => f.iter().try_for_each(|(_, x)| check_expr(x, syms, files))?,
    }
    Ok(())
}

fn check_subst(s: &Subst, syms: &Syms, files: &[String]) -> R<()> {
    walk_subst(s, &mut Checker { syms, files })
}

/// The static checks of a substitution: its expressions (not CASE's
/// literal labels) and the plans of the identifiers it solves for.
struct Checker<'a> {
    syms: &'a Syms,
    files: &'a [String],
}

impl SubstVisitor for Checker<'_> {
    type Err = BError;
    fn expr(&mut self, e: &Expr, role: Role) -> R<()> {
        match role {
            Role::Label => Ok(()),
            _ => check_expr(e, self.syms, self.files),
        }
    }
    fn binder(&mut self, ids: &[Sym], pred: &Expr) -> R<()> {
        plan(ids, pred, self.syms)
            .map(|_| ())
            .map_err(|(m, p)| err_at(self.files, ErrorKind::Unsupported, p, m))
    }
}

/// A PROPERTIES conjunct whose solutions ProB reduces by symmetry in a
/// way not modelled: `c : X` with `c` and `X` constants in a machine with
/// deferred sets (without them there is no symmetry to break: ProB's
/// counts of DeadlockBools, the Kodkod Loops, kodex2, LargeAndSmallSets,
/// JavaBC0_TLC) and `X` not a part of a partition of a deferred set
/// (`deferred_part_members`), or a bijection space (`>->>`, `>+>>`) mentioning a
/// deferred set, other than one bijection per deferred set that
/// `bijection` fixes and those an extension of constants in `every` (each
/// PROPERTIES conjunct) gives (`solve::fast_given_bijection`).
fn symmetric_constants(
    p: &Expr,
    consts: &[Sym],
    deferred: &[Sym],
    every: &[&Expr],
) -> Option<(Pos, String)> {
    let all = crate::solve::conjuncts(p);
    for &c in &all {
        if let ExprKind::Bin(BinOp::In, a, b) = &c.kind {
            if let (ExprKind::Ident(x), ExprKind::Ident(s)) = (&a.kind, &b.kind) {
                // an element of a partition's part: `symmetry`'s
                let part = crate::deferred_part_members::element_set(&all, *s, deferred);
                if consts.contains(x)
                    && consts.contains(s)
                    && !deferred.is_empty()
                    && part.is_none()
                {
                    return Some((c.pos, "a constant element of a constant set".into()));
                }
            }
        }
    }
    fn bij(e: &Expr, deferred: &[Sym]) -> Option<Pos> {
        let mut found = None;
        visit(e, &mut |x| {
            if let ExprKind::Bin(BinOp::Space(SpaceKind::TotalBij | SpaceKind::PartialBij), a, b) =
                &x.kind
            {
                let mut ids = Vec::new();
                crate::solve::idents(a, &mut ids);
                crate::solve::idents(b, &mut ids);
                if found.is_none() && ids.iter().any(|s| deferred.contains(s)) {
                    found = Some(x.pos);
                }
            }
        });
        found
    }
    let mut fixed: Vec<Sym> = Vec::new();
    for c in crate::solve::conjuncts(p) {
        match crate::bijection::fixed_bijection(c, consts, deferred) {
            Some(b)
                if ![Some(b.set), b.other]
                    .iter()
                    .flatten()
                    .any(|s| fixed.contains(s)) =>
            {
                fixed.push(b.set);
                fixed.extend(b.other);
            }
            Some(_) => {
                return Some((
                    c.pos,
                    "a second bijection over the same deferred set".into(),
                ))
            }
            // a bijection an extension of constants gives: `fast_given_bijection`
            None if crate::solve::given_bijection(c, every, consts) => {}
            None => {
                if let Some(pos) = bij(c, deferred) {
                    return Some((pos, "a bijection over a deferred set".into()));
                }
            }
        }
    }
    None
}

/// Where `g` prints (ProB's `printf`, `fprintf`), if it does.
fn printed_while_solving(g: &Expr) -> Option<Pos> {
    let mut at = None;
    visit(g, &mut |e| {
        if let ExprKind::Call(Builtin::External(External::Printed), _) = e.kind {
            at = at.or(Some(e.pos));
        }
    });
    at
}

/// Calls `f` on `e` and every sub-expression.
pub(crate) fn visit(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    use ExprKind::*;
    f(e);
    match &e.kind {
        Ident(_) | Int(_) | Str(_) | ExprKind::Bool(_) | Named(_) | EmptySet | EmptySeq => {}
        SetExt(v) | SeqExt(v) | Call(_, v) => v.iter().for_each(|x| visit(x, f)),
        Bin(_, a, b) | Apply(a, b) | Image(a, b) => {
            visit(a, f);
            visit(b, f);
        }
        Neg(a) | Inverse(a) | Field(a, _) => visit(a, f),
        Quant { pred, body, .. } => {
            visit(pred, f);
            if let Some(b) = body {
                visit(b, f);
            }
        }
        Rec(fs) | Struct(fs) => fs.iter().for_each(|(_, x)| visit(x, f)),
    }
}

/// Whether the operation body `s` has an `ANY` other than a top-level one
/// (whose values `SET_PREF_SHOW_EVENTB_ANY_VALUES` makes part of the
/// transitions, as `model` does; where ProB does so for others is not
/// known).
fn nested_any(s: &Subst) -> bool {
    match &s.kind {
        SubstKind::Any { body, .. } => has_any(body),
        _ => has_any(s),
    }
}

fn has_any(s: &Subst) -> bool {
    use SubstKind::*;
    match &s.kind {
        Any { .. } => true,
        Skip | Assign(..) | BecomesIn(..) | BecomesSuch { .. } | Call(..) => false,
        Pre(_, b) | Assert(_, b) | EventCheck(_, b) | Var(_, b) => has_any(b),
        Let { body, .. } | While { body, .. } => has_any(body),
        Choice(v) | Par(v) | Seq(v) => v.iter().any(has_any),
        Select(v, e) | If(v, e) => {
            v.iter().any(|(_, b)| has_any(b)) || e.as_deref().is_some_and(has_any)
        }
        Case(_, v, e) => v.iter().any(|(_, b)| has_any(b)) || e.as_deref().is_some_and(has_any),
    }
}
