//! Reading machines from files: one machine's clauses (with its
//! DEFINITIONS, also those of `"file.def"` includes, expanded), and the
//! composition of a machine with everything it SEES, USES, INCLUDES,
//! EXTENDS or IMPORTS (found beside it as `NAME.mch`, `.ref`, `.imp` or
//! `.sys`) into one flat [`Composed`] machine: all their sets, constants,
//! properties and variables, their initialisations in dependency order,
//! the operations the main machine offers (its own, those of EXTENDS
//! machines and those it PROMOTES) and the ones its substitutions may call.
//!
//! Owns file access, clause splitting and composition; it must not
//! evaluate anything (settings are read as literal tokens).

use std::path::{Path, PathBuf};

use rustc_hash::{FxHashMap, FxHashSet};

use crate::ast::*;
use crate::error::{BError, ErrorKind};
use crate::lexer::{lex, Tok, Token};
use crate::parse::{err_at, split_clauses, split_semis, Def, Parser};

/// Shared tables while reading: file labels and identifiers.
pub struct Reader {
    pub files: Vec<String>,
    pub syms: Syms,
    /// The tokens after a `/*@symbolic*/` pragma (see `symbolic_pragma`).
    pub symbolic_marks: Vec<Pos>,
}

/// A machine with everything it depends on, flattened.
pub struct Composed {
    /// Machines in dependency order, the main machine last.
    pub machines: Vec<Machine>,
    /// Indices (machine, operation) of the operations offered.
    pub offered: Vec<(usize, usize)>,
    /// Operations callable from substitutions: name -> (machine, operation).
    pub callable: FxHashMap<Sym, (usize, usize)>,
    /// Event-B theory operators that call themselves (`eventb_calls`).
    pub calls: crate::eventb_calls::Calls,
}

type R<T> = Result<T, BError>;

impl Reader {
    pub fn new() -> Self {
        Reader {
            files: Vec::new(),
            syms: Syms::default(),
            symbolic_marks: Vec::new(),
        }
    }

    fn add_file(&mut self, label: String) -> u16 {
        self.files.push(label);
        (self.files.len() - 1) as u16
    }

    /// Reads `path` and its dependencies.
    pub fn compose_file(&mut self, path: &Path) -> R<Composed> {
        let label = path.display().to_string();
        let text = read(path, &label)?;
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let main = self.machine(&text, label, &dir)?;
        self.compose(main, &dir)
    }

    /// Reads machine text (dependencies looked up in `dir`).
    pub fn compose_str(&mut self, text: &str, label: &str, dir: &Path) -> R<Composed> {
        let main = self.machine(text, label.to_owned(), dir)?;
        self.compose(main, dir)
    }

    fn compose(&mut self, main: Machine, dir: &Path) -> R<Composed> {
        let mut machines: Vec<Machine> = Vec::new();
        let mut loading: Vec<String> = Vec::new();
        self.load_deps(&main, dir, &mut machines, &mut loading)?;
        machines.push(main);
        crate::rename_nested::check_single_instances(&machines, &self.files)?;
        self.instantiate(&mut machines)?;
        let main_idx = machines.len() - 1;
        if let Some(m) = machines[..main_idx].iter().find(|m| !m.params.is_empty()) {
            return Err(err_at(
                &self.files,
                ErrorKind::Unsupported,
                m.pos,
                format!(
                    "machine parameters of {} (a machine another one uses)",
                    m.name
                ),
            ));
        }
        let offered = self.offered_of(main_idx, &machines, 0)?;
        let mut callable = FxHashMap::default();
        for mi in 0..machines.len() {
            callable.extend(self.callable_of(mi, &machines, 0)?);
        }
        crate::library_opcalls::add_local_operations(&machines, &mut callable);
        Ok(Composed {
            machines,
            offered,
            callable,
            calls: Default::default(),
        })
    }

    /// Binds the parameters of the machines included with arguments
    /// (`INCLUDES M(a, b)`, the arguments names or numbers): each parameter becomes a
    /// constant of `M` (a set parameter no longer a deferred set) and
    /// `p = a` joins the PROPERTIES, so the arguments fix its value.
    fn instantiate(&self, machines: &mut [Machine]) -> R<()> {
        let unsupported =
            |pos: Pos, msg: String| Err(err_at(&self.files, ErrorKind::Unsupported, pos, msg));
        let mut done: Vec<String> = Vec::new();
        for i in 0..machines.len() {
            for (name, args, pos) in std::mem::take(&mut machines[i].instances) {
                let Some(t) = machines.iter().position(|m| m.name == name) else {
                    continue;
                };
                if done.contains(&name) || machines[t].params.len() != args.len() {
                    return unsupported(
                        pos,
                        format!(
                            "machine parameters of {name} (instantiated twice or arity differs)"
                        ),
                    );
                }
                done.push(name.clone());
                let params = std::mem::take(&mut machines[t].params);
                for (p, a) in params.into_iter().zip(args) {
                    let target = &mut machines[t];
                    target.sets.retain(|d| d.name != p);
                    target.constants.retain(|&c| c != p);
                    match a.kind {
                        // `M(p)` for M's own parameter p: the same name
                        ExprKind::Ident(x) if x == p => continue,
                        // a name, or a number (included2(sA, 6)): one value
                        ExprKind::Ident(_) | ExprKind::Int(_) => {}
                        // M1(P, p) INCLUDES M2(P, p + 3): ProB keeps one p
                        // where p + 3 : NAT1 unbounded allows four
                        _ => {
                            return unsupported(
                                a.pos,
                                format!(
                                    "machine parameters of {name}: an argument other than a name or a number"
                                ),
                            )
                        }
                    }
                    let clash = machines.iter().any(|m| {
                        m.constants.contains(&p)
                            || m.variables.contains(&p)
                            || m.params.contains(&p)
                            || m.sets.iter().any(|d| d.name == p)
                    });
                    if clash {
                        let p = self.syms.name(p);
                        return unsupported(
                            pos,
                            format!(
                                "machine parameters of {name}: {p} named in another machine too"
                            ),
                        );
                    }
                    machines[t].constants.push(p);
                    let lhs = Expr {
                        kind: ExprKind::Ident(p),
                        pos,
                    };
                    machines[i].properties.push(Expr {
                        kind: ExprKind::Bin(BinOp::Eq, Box::new(lhs), Box::new(a)),
                        pos,
                    });
                }
            }
        }
        Ok(())
    }

    /// The operations machine `mi` offers: its own, those of the machines
    /// it EXTENDS, and those it PROMOTES; the main machine (`depth` 0) also
    /// those of the machines it SEES or USES, as ProB's model checker does
    /// (LightSwitchSees: 4 states, Switch's toggle among its transitions).
    fn offered_of(&self, mi: usize, ms: &[Machine], depth: usize) -> R<Vec<(usize, usize)>> {
        let m = &ms[mi];
        let mut out: Vec<(usize, usize)> = (0..m.operations.len()).map(|k| (mi, k)).collect();
        if depth > 32 {
            return Err(err_at(
                &self.files,
                ErrorKind::Semantic,
                m.pos,
                "machines nested too deeply",
            ));
        }
        for r in &m.extends {
            out.extend(self.offered_of(index_of(&r.name, ms), ms, depth + 1)?);
        }
        if depth == 0 {
            for r in m.sees.iter().chain(&m.uses) {
                for p in self.offered_of(index_of(&r.name, ms), ms, depth + 1)? {
                    if !out.contains(&p) {
                        out.push(p);
                    }
                }
            }
        }
        if !m.promotes.is_empty() {
            let callable = self.callable_of(mi, ms, depth + 1)?;
            for r in &m.promotes {
                match self.syms.get(&r.name).and_then(|s| callable.get(&s)) {
                    Some(&p) => out.push(p),
                    None => {
                        return Err(err_at(
                            &self.files,
                            ErrorKind::Semantic,
                            r.pos,
                            format!("PROMOTES unknown operation {}", r.name),
                        ))
                    }
                }
            }
        }
        Ok(out)
    }

    /// The operations substitutions of machine `mi` may call: those offered
    /// by the machines it INCLUDES, EXTENDS or IMPORTS.
    fn callable_of(
        &self,
        mi: usize,
        ms: &[Machine],
        depth: usize,
    ) -> R<FxHashMap<Sym, (usize, usize)>> {
        let m = &ms[mi];
        let mut out = FxHashMap::default();
        for r in m.includes.iter().chain(&m.extends).chain(&m.imports) {
            for (a, k) in self.offered_of(index_of(&r.name, ms), ms, depth + 1)? {
                out.insert(ms[a].operations[k].name, (a, k));
            }
        }
        Ok(out)
    }

    fn load_deps(
        &mut self,
        m: &Machine,
        dir: &Path,
        out: &mut Vec<Machine>,
        loading: &mut Vec<String>,
    ) -> R<()> {
        if let Some(r) = m.refines.first() {
            let (kind, what) = match machine_file(dir, &r.name) {
                Ok(_) => (
                    ErrorKind::Unsupported,
                    "REFINES (refinement machines)".into(),
                ),
                Err(looked) => (ErrorKind::Semantic, not_found("machine", &r.name, &looked)),
            };
            return Err(err_at(&self.files, kind, r.pos, what));
        }
        let refs: Vec<MachineRef> = m
            .sees
            .iter()
            .chain(&m.uses)
            .chain(&m.includes)
            .chain(&m.extends)
            .chain(&m.imports)
            .cloned()
            .collect();
        for r in refs {
            if out.iter().any(|x| x.name == r.name) || r.name == m.name {
                continue;
            }
            if loading.contains(&r.name) {
                return Err(err_at(
                    &self.files,
                    ErrorKind::Semantic,
                    r.pos,
                    format!("cyclic reference to {}", r.name),
                ));
            }
            let path = machine_file(dir, &r.name);
            let builtin = crate::library_machines::text(&r.name).filter(|_| path.is_err());
            let path = match (path, builtin) {
                (_, Some(text)) => {
                    let label = format!("ProB's library machine {}", r.name);
                    let dm = self.machine(text, label, dir)?;
                    loading.push(r.name.clone());
                    self.load_deps(&dm, dir, out, loading)?;
                    loading.pop();
                    out.push(dm);
                    continue;
                }
                (path, None) => path,
            };
            let path = match path {
                Ok(path) => path,
                Err(looked) => {
                    // ProB's own library machines (LibraryStrings...) are
                    // not in the model's folder: a construct we lack, not
                    // an error
                    let (kind, what) = if r.name.starts_with("Library") {
                        (ErrorKind::Unsupported, "ProB library machine")
                    } else {
                        (ErrorKind::Semantic, "machine")
                    };
                    let msg = not_found(what, &r.name, &looked);
                    return Err(err_at(&self.files, kind, r.pos, msg));
                }
            };
            let label = path.display().to_string();
            let text = read(&path, &label)?;
            let mut dm = self.machine(&text, label.clone(), dir)?;
            check_declared_name(&dm, &r, &self.files)?;
            if let Some((prefix, _)) = r.name.split_once('.') {
                dm = self.renamed_instance(dm, prefix, &text, label, dir, out)?;
            }
            loading.push(r.name.clone());
            self.load_deps(&dm, dir, out, loading)?;
            loading.pop();
            if !out.iter().any(|x| x.name == dm.name) {
                out.push(dm);
            }
        }
        Ok(())
    }

    /// Machine `m` read again as the instance `prefix.M`: its variables
    /// and operations renamed. Its sets, constants and properties are
    /// shared: only the first instance of `M` loaded declares them.
    fn renamed_instance(
        &mut self,
        m: Machine,
        prefix: &str,
        text: &str,
        label: String,
        dir: &Path,
        loaded: &[Machine],
    ) -> R<Machine> {
        // one instance only when it includes others (see `rename_nested`)
        let names: FxHashSet<String> = m
            .variables
            .iter()
            .chain(m.operations.iter().map(|o| &o.name))
            .map(|&s| self.syms.name(s).to_owned())
            .collect();
        let mut r = self.machine_as(text, label, dir, Some((prefix, &names)))?;
        let shared = loaded
            .iter()
            .any(|x| x.name.rsplit('.').next() == Some(m.name.as_str()));
        if shared {
            r.sets.clear();
            r.constants.clear();
            r.properties.clear();
        }
        r.name = format!("{prefix}.{}", m.name);
        Ok(r)
    }

    /// Parses one machine.
    pub fn machine(&mut self, text: &str, label: String, dir: &Path) -> R<Machine> {
        self.machine_as(text, label, dir, None)
    }

    /// Parses one machine, as the renamed instance `prefix.M` when
    /// `renamed` gives the prefix and the names it renames (see `rename`).
    fn machine_as(
        &mut self,
        text: &str,
        label: String,
        dir: &Path,
        renamed: Option<(&str, &FxHashSet<String>)>,
    ) -> R<Machine> {
        let fid = self.add_file(label.clone());
        let mut toks = lex(text, &label, fid)?;
        toks.pop(); // Eof
        let marks = crate::symbolic_pragma::marks(text, &toks);
        self.symbolic_marks.extend(marks);
        crate::rename::join_renamed(&mut toks);
        if let Some((prefix, names)) = renamed {
            crate::rename::rename(&mut toks, prefix, names);
        }
        match toks.last() {
            Some(Token {
                tok: Tok::Ident(s), ..
            }) if s == "END" => {
                toks.pop();
            }
            _ => {
                return Err(BError::new(
                    ErrorKind::Syntax,
                    &label,
                    "the machine does not end with END",
                ))
            }
        }
        let clauses = split_clauses(&toks);
        let mut defs: FxHashMap<String, Def> = FxHashMap::default();
        let mut settings = Vec::new();
        for (kw, body, _) in &clauses {
            if kw == "DEFINITIONS" {
                self.definitions(body, dir, &mut defs, &mut settings, 0)?;
            }
        }
        let mut m = Machine {
            settings,
            ..Default::default()
        };
        let Some((first, header, hpos)) = clauses.first() else {
            return Err(BError::new(ErrorKind::Syntax, &label, "no MACHINE clause"));
        };
        if toks
            .first()
            .is_some_and(|t| !matches!(&t.tok, Tok::Ident(s) if s == first))
        {
            let t = &toks[0];
            return Err(BError::at(
                ErrorKind::Syntax,
                &label,
                t.line,
                t.col,
                "expected MACHINE",
            ));
        }
        match first.as_str() {
            "MACHINE" | "REFINEMENT" | "IMPLEMENTATION" | "SYSTEM" | "MODEL" => {}
            _ => {
                return Err(err_at(
                    &self.files,
                    ErrorKind::Syntax,
                    *hpos,
                    "expected MACHINE",
                ))
            }
        }
        m.kind = first.clone();
        m.pos = *hpos;
        let files = self.files.clone();
        {
            let mut p = Parser::new(header.clone(), &files, &mut self.syms, &defs);
            m.name = p.ident()?;
            let pos = p.pos();
            m.params = p.machine_params()?;
            for &s in &m.params {
                if p.syms.name(s).chars().any(char::is_lowercase) {
                    m.constants.push(s);
                } else {
                    m.sets.push(SetDecl {
                        name: s,
                        elements: None,
                        pos,
                    });
                }
            }
            p.expect_eof()?;
        }
        for (kw, body, pos) in &clauses[1..] {
            let mut p = Parser::new(body.clone(), &files, &mut self.syms, &defs);
            match kw.as_str() {
                "DEFINITIONS" | "ASSERTIONS" => {}
                // ProB's named expressions (`mcd == card(ID)`), for its
                // views: they neither constrain nor change a state, and a
                // use of one elsewhere is an unknown identifier here
                "EXPRESSIONS" => {}
                // read for the variables' types only: an INVARIANT this
                // parser does not read is left out, not an error
                "INVARIANT" => {
                    if let Ok(e) = p.expr().and_then(|e| p.expect_eof().map(|_| e)) {
                        m.invariant.push(e);
                    }
                }
                "SETS" => {
                    for item in split_semis(body) {
                        let mut p = Parser::new(item, &files, &mut *p.syms, &defs);
                        let pos = p.pos();
                        let name = p.ident_peek()?;
                        let name = p.syms.intern(&name);
                        let elements = if p.at_eof() {
                            None
                        } else {
                            let e = p.expr()?;
                            p.expect_eof()?;
                            match e.kind {
                                ExprKind::Bin(BinOp::Eq, l, r)
                                    if matches!(l.kind, ExprKind::Ident(_)) =>
                                {
                                    let _ = l;
                                    match r.kind {
                                        ExprKind::SetExt(xs) => Some(
                                            xs.iter()
                                                .map(|x| match x.kind {
                                                    ExprKind::Ident(s) => Ok(s),
                                                    _ => Err(err_at(
                                                        &files,
                                                        ErrorKind::Syntax,
                                                        x.pos,
                                                        "expected an element name",
                                                    )),
                                                })
                                                .collect::<R<Vec<Sym>>>()?,
                                        ),
                                        _ => {
                                            return Err(err_at(
                                                &files,
                                                ErrorKind::Syntax,
                                                r.pos,
                                                "expected {a, b, ...}",
                                            ))
                                        }
                                    }
                                }
                                _ => {
                                    return Err(err_at(
                                        &files,
                                        ErrorKind::Syntax,
                                        e.pos,
                                        "expected S = {a, b, ...}",
                                    ))
                                }
                            }
                        };
                        m.sets.push(SetDecl {
                            name,
                            elements,
                            pos,
                        });
                    }
                }
                "CONSTANTS" | "CONCRETE_CONSTANTS" | "ABSTRACT_CONSTANTS" | "VISIBLE_CONSTANTS"
                | "HIDDEN_CONSTANTS" => {
                    if !p.at_eof() {
                        let ids = p.ident_list()?;
                        if kw.as_str() == "ABSTRACT_CONSTANTS" {
                            m.abstract_constants.extend(ids.iter().copied());
                        }
                        m.constants.extend(ids);
                        p.expect_eof()?;
                    }
                }
                "VARIABLES" | "CONCRETE_VARIABLES" | "ABSTRACT_VARIABLES" | "VISIBLE_VARIABLES"
                | "HIDDEN_VARIABLES" => {
                    if !p.at_eof() {
                        m.variables.extend(p.grouped_ident_list()?);
                        p.expect_eof()?;
                    }
                }
                "PROPERTIES" => {
                    if !p.at_eof() {
                        let e = p.expr()?;
                        p.expect_eof()?;
                        m.properties.push(e);
                    }
                }
                "CONSTRAINTS" => {
                    if !p.at_eof() {
                        let e = p.expr()?;
                        p.expect_eof()?;
                        m.properties.push(e);
                    }
                }
                "INITIALISATION" | "INITIALIZATION" => {
                    let s = p.subst()?;
                    p.expect_eof()?;
                    m.init = Some(s);
                }
                // a SYSTEM's EVENTS (Atelier B's event style in a .mch):
                // ProB runs them as operations
                "OPERATIONS" | "EVENTS" => m.operations = p.operations()?,
                "SEES" | "INCLUDES" | "EXTENDS" | "PROMOTES" | "IMPORTS" | "REFINES" | "USES" => {
                    let mut refs = Vec::new();
                    loop {
                        let rpos = p.pos();
                        let name = p.ident()?;
                        if matches!(p.peek_tok(), Tok::Sym(".")) {
                            return Err(
                                p.err(ErrorKind::Unsupported, format!("renamed machine {name}."))
                            );
                        }
                        if matches!(p.peek_tok(), Tok::Sym("(")) {
                            if !matches!(kw.as_str(), "INCLUDES" | "EXTENDS" | "IMPORTS") {
                                return Err(p.err(
                                    ErrorKind::Unsupported,
                                    format!("machine parameters of {name}"),
                                ));
                            }
                            let args = p.machine_args()?;
                            m.instances.push((name.clone(), args, rpos));
                        }
                        refs.push(MachineRef { name, pos: rpos });
                        if !p.eat_comma() {
                            break;
                        }
                    }
                    p.expect_eof()?;
                    let list = match kw.as_str() {
                        "SEES" => &mut m.sees,
                        "INCLUDES" => &mut m.includes,
                        "EXTENDS" => &mut m.extends,
                        "PROMOTES" => &mut m.promotes,
                        "IMPORTS" => &mut m.imports,
                        "USES" => &mut m.uses,
                        _ => &mut m.refines,
                    };
                    list.extend(refs);
                }
                other => {
                    return Err(err_at(
                        &files,
                        ErrorKind::Unsupported,
                        *pos,
                        format!("the {other} clause"),
                    ));
                }
            }
        }
        m.scope = crate::library_scope::read(&defs, &files, &mut self.syms)?;
        Ok(m)
    }

    fn definitions(
        &mut self,
        body: &[Token],
        dir: &Path,
        defs: &mut FxHashMap<String, Def>,
        settings: &mut Vec<(String, String, Pos)>,
        depth: usize,
    ) -> R<()> {
        let mut last: Option<String> = None;
        for item in split_semis(body) {
            let t0 = &item[0];
            let pos = Pos {
                file: t0.file,
                line: t0.line,
                col: t0.col,
            };
            if let Tok::Str(f) = &t0.tok {
                let path: PathBuf = dir.join(f);
                if depth > 10 {
                    return Err(err_at(
                        &self.files,
                        ErrorKind::Semantic,
                        pos,
                        "definition files nested too deeply",
                    ));
                }
                if !path.is_file() {
                    if let Some(lib) =
                        standard_library(f).or_else(|| crate::library_defs::library_file(f))
                    {
                        declare_library(lib, t0, defs);
                        last = None;
                        continue;
                    }
                }
                if !path.is_file() {
                    return Err(err_at(
                        &self.files,
                        ErrorKind::Unsupported,
                        pos,
                        format!(
                            "definition file {f} (not found beside the machine: no {})",
                            path.display()
                        ),
                    ));
                }
                let label = path.display().to_string();
                let text = read(&path, &label)?;
                let fid = self.add_file(label);
                let mut toks = lex(&text, &self.files[fid as usize].clone(), fid)?;
                toks.pop();
                if matches!(toks.first().map(|t| &t.tok), Some(Tok::Ident(s)) if s == "DEFINITIONS")
                {
                    toks.remove(0);
                }
                self.definitions(&toks, dir, defs, settings, depth + 1)?;
                last = None;
                continue;
            }
            // name [ (params) ] == body
            let name = match &t0.tok {
                Tok::Ident(s) => Some(s.clone()),
                _ => None,
            };
            let mut j = 1;
            let mut params = Vec::new();
            let mut ok = name.is_some();
            if ok && matches!(item.get(1).map(|t| &t.tok), Some(Tok::Sym("("))) {
                j = 2;
                loop {
                    match item.get(j).map(|t| &t.tok) {
                        Some(Tok::Ident(p)) => params.push(p.clone()),
                        _ => {
                            ok = false;
                            break;
                        }
                    }
                    match item.get(j + 1).map(|t| &t.tok) {
                        Some(Tok::Sym(",")) => j += 2,
                        Some(Tok::Sym(")")) => {
                            j += 2;
                            break;
                        }
                        _ => {
                            ok = false;
                            break;
                        }
                    }
                }
            }
            ok = ok && matches!(item.get(j).map(|t| &t.tok), Some(Tok::Sym("==")));
            if !ok {
                // a `;` inside a definition body (a sequence of substitutions)
                if let Some(prev) = last.as_ref().and_then(|l| defs.get_mut(l)) {
                    let mut semi = t0.clone();
                    semi.tok = Tok::Sym(";");
                    prev.body.push(semi);
                    prev.body.extend(item.iter().cloned());
                    continue;
                }
                return Err(err_at(
                    &self.files,
                    ErrorKind::Syntax,
                    pos,
                    "expected a definition NAME == ...",
                ));
            }
            let name = name.expect("checked");
            let body: Vec<Token> = item[j + 1..].to_vec();
            if name.starts_with("SET_PREF_") || name.starts_with("scope_") || name == "SCOPE" {
                let text: Vec<String> = body
                    .iter()
                    .map(|t| match &t.tok {
                        Tok::Ident(s) => s.clone(),
                        Tok::Int(n) => n.to_string(),
                        Tok::BigInt(n) | Tok::Str(n) => n.clone(),
                        Tok::Sym(s) => s.to_string(),
                        Tok::Eof => String::new(),
                    })
                    .collect();
                settings.push((name.clone(), text.join(""), pos));
            }
            defs.insert(name.clone(), Def { params, body });
            last = Some(name);
        }
        Ok(())
    }
}

impl Default for Reader {
    fn default() -> Self {
        Self::new()
    }
}

fn index_of(name: &str, ms: &[Machine]) -> usize {
    ms.iter()
        .position(|m| m.name == name)
        .expect("machine loaded")
}

fn read(path: &Path, label: &str) -> R<String> {
    pins::read_source(path, label)
}

// An external of ProB's standard library: kind (FUNCTION, PREDICATE or
// SUBSTITUTION), name and parameters.
use crate::library_defs::LibraryExternal;

/// The externals a standard library definition file of ProB declares, for
/// a machine that names it without a copy beside it (ProB then reads its
/// own). Those `parse` does not evaluate stay unsupported when used.
fn standard_library(file: &str) -> Option<&'static [LibraryExternal]> {
    const F: &str = "FUNCTION";
    const P: &str = "PREDICATE";
    const S: &str = "SUBSTITUTION";
    Some(match file {
        "CHOOSE.def" => &[(F, "CHOOSE", &["X"])],
        "LibraryIO.def" => &[
            (P, "printf", &["f", "v"]),
            (P, "fprintf", &["file", "f", "v"]),
            (F, "vprintf", &["f", "v"]),
            (F, "fvprintf", &["file", "f", "v"]),
            (S, "PRINT", &["x"]),
            (S, "PRINTF", &["f", "v"]),
            (S, "FPRINTF", &["file", "f", "v"]),
            (P, "dprintf", &[]),
            (P, "tprintf", &[]),
            (P, "printf_two", &[]),
            (P, "printf_nonvar", &[]),
            (P, "observe", &[]),
            (P, "tobserve", &[]),
            (P, "TRACE", &[]),
            (P, "ENUMERATE", &[]),
            (P, "EOF", &[]),
            (P, "EOF_STDIN", &[]),
            (P, "SET_PREF", &[]),
            (F, "ARGC", &[]),
            (F, "ARGV", &["x"]),
            (F, "CURRENT_FILE_POSITION", &[]),
            (F, "DELTA_WALLTIME", &[]),
            (F, "GET_CODE", &[]),
            (F, "GET_CODE_STDIN", &[]),
            (F, "GET_INFO", &[]),
            (F, "READ_FILE_AS_STRING", &[]),
            (F, "READ_FILE_AS_STRINGS", &[]),
            (F, "READ_LINE", &[]),
            (F, "TIME", &[]),
            (F, "TIMESTAMP", &[]),
            (F, "TIMESTAMP_INFO", &[]),
            (S, "ADD_ERROR", &[]),
            (S, "DEBUG_PRINT_STATE", &[]),
            (S, "PRINT_BT", &[]),
            (S, "SEE", &[]),
            (S, "SEEN", &[]),
        ],
        "LibraryStrings.def" => &[
            (F, "STRING_LENGTH", &["s"]),
            (F, "STRING_APPEND", &["a", "b"]),
            (F, "STRING_CHARS", &["s"]),
            (F, "STRING_CODES", &[]),
            (F, "STRING_CONTAINS_STRING", &[]),
            (F, "STRING_SPLIT", &[]),
            (F, "STRING_JOIN", &[]),
            (F, "STRING_TO_INT", &[]),
            (F, "STRING_TO_ENUM", &[]),
            (F, "STRING_TO_UPPER", &[]),
            (F, "STRING_TO_LOWER", &[]),
            (F, "SUB_STRING", &[]),
            (F, "TO_STRING", &[]),
            (F, "FORMAT_TO_STRING", &[]),
            (F, "INT_TO_STRING", &[]),
            (F, "DEC_STRING_TO_INT", &[]),
            (F, "INT_TO_DEC_STRING", &[]),
            (P, "STRING_IS_INT", &["s"]),
        ],
        // ProB's own state space, project and preferences, read from
        // inside the model: none is evaluated here.
        "LibraryMeta.def" => &[
            (F, "PROJECT_STATISTICS", &[]),
            (F, "PROJECT_INFO", &[]),
            (F, "MACHINE_STAT", &[]),
            (F, "MACHINE_INFO", &[]),
            (F, "GET_PREF", &[]),
            (F, "GET_PREF_DEFAULT", &[]),
            (F, "PROB_INFO_STR", &[]),
            (F, "PROB_STATISTICS", &[]),
            (F, "CURRENT_STATE_ID", &[]),
            (P, "STATE_TRANS", &[]),
            (P, "STATE_TRANS_ARGS", &[]),
            (P, "STATE_SUCC", &[]),
            (P, "STATE_SAT", &[]),
            (F, "HISTORY", &[]),
            (F, "FORMULA_INFOS", &[]),
            (F, "FORMULA_VALUES", &[]),
        ],
        // Assertions and hints to ProB's solver; the optimising
        // predicates keep only the best solutions (`library_optimize`).
        "LibraryProB.def" => &[
            (F, "ASSERT_EXPR", &["b", "msg", "v"]),
            (P, "ASSERT_TRUE", &["b", "msg"]),
            (P, "DO_NOT_ENUMERATE", &["x"]),
            (F, "FORCE", &[]),
            (F, "COPY", &[]),
            (F, "TO_INT", &[]),
            (P, "LEQ_SYM_BREAK", &[]),
            (P, "MINIMIZE_EXPR", &["x"]),
            (P, "MAXIMIZE_EXPR", &["x"]),
        ],
        _ => return None,
    })
}

/// The file of machine `name` (`r.M` names `M`) beside the machine that
/// names it, in `dir`: the first of `M.mch`, `M.ref`, `M.imp`, `M.sys`
/// that exists, or the `M.mch` path looked for first.
fn machine_file(dir: &Path, name: &str) -> Result<PathBuf, PathBuf> {
    let base = name.split_once('.').map_or(name, |(_, m)| m);
    let path = |e: &str| dir.join(format!("{base}.{e}"));
    ["mch", "ref", "imp", "sys"]
        .iter()
        .map(|e| path(e))
        .find(|p| p.is_file())
        .ok_or_else(|| path("mch"))
}

/// The machine read from the file of reference `r` must bear the name `r`
/// gives it (`r.M` names `M`), or the machines would not link up.
fn check_declared_name(m: &Machine, r: &MachineRef, files: &[String]) -> R<()> {
    let base = r.name.split_once('.').map_or(r.name.as_str(), |(_, m)| m);
    if m.name == base {
        return Ok(());
    }
    let file = files.get(m.pos.file as usize).map_or("?", String::as_str);
    let msg = format!(
        "machine {base} expected in {file}, which declares {}",
        m.name
    );
    Err(err_at(files, ErrorKind::Semantic, r.pos, msg))
}

/// The message for a machine `name` whose file was not found: the path
/// looked for (and the other extensions tried).
fn not_found(what: &str, name: &str, looked: &Path) -> String {
    let tried = "nor .ref, .imp, .sys";
    format!(
        "{what} {name} not found beside it: no {} ({tried})",
        looked.display()
    )
}

/// Declares `lib`'s externals in `defs` (names and `EXTERNAL_` entries),
/// positioned at the `"file.def"` token `at`.
fn declare_library(lib: &[LibraryExternal], at: &Token, defs: &mut FxHashMap<String, Def>) {
    for &(kind, name, params) in lib {
        let params: Vec<String> = params.iter().map(|p| p.to_string()).collect();
        let body = params
            .first()
            .map(|p| Token {
                tok: Tok::Ident(p.clone()),
                ..at.clone()
            })
            .into_iter()
            .collect();
        defs.entry(name.into()).or_insert(Def { params, body });
        defs.entry(format!("EXTERNAL_{kind}_{name}"))
            .or_insert(Def {
                params: Vec::new(),
                body: Vec::new(),
            });
    }
}
