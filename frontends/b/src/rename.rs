//! Machine renaming (`INCLUDES r.M`, `EXTENDS r.M`, `SEES r.M`...), at the
//! token level: in the machine that names `r.M`, every `r.x` written
//! without spaces becomes one identifier `r.x` (a variable or operation of
//! the renamed instance); in the instance `r.M`, each variable and
//! operation `x` of `M` becomes `r.x` (`x$0` becomes `r.x$0`), while its
//! sets and constants keep their names, as B's renaming prescribes.
//!
//! Owns only these token rewrites; `load` decides which machines are
//! renamed instances.

use rustc_hash::FxHashSet;

use crate::lexer::{Tok, Token};

/// The clauses whose machine references may be renamed.
const REFERENCE_CLAUSES: &[&str] = &["INCLUDES", "EXTENDS", "SEES", "USES", "IMPORTS", "PROMOTES"];

/// Tokens after which `x.` opens a binder's body, not a renamed name.
const BINDERS: &[&str] = &["!", "#", "%", "SIGMA", "PI", "UNION", "INTER"];

/// Whether `toks[i..i + 3]` is `p . x` written without spaces.
fn dotted(toks: &[Token], i: usize) -> Option<(&str, &str)> {
    let [a, dot, b] = toks.get(i..i + 3)? else {
        return None;
    };
    let (Tok::Ident(p), Tok::Sym("."), Tok::Ident(x)) = (&a.tok, &dot.tok, &b.tok) else {
        return None;
    };
    let width = p.chars().count() as u32;
    let adjacent = a.line == dot.line
        && dot.line == b.line
        && a.col + width == dot.col
        && dot.col + 1 == b.col;
    adjacent.then_some((p, x))
}

/// The renaming prefixes `r` of the references `r.M` in the reference
/// clauses of a machine's tokens.
fn prefixes(toks: &[Token]) -> FxHashSet<String> {
    let mut out = FxHashSet::default();
    let mut in_refs = false;
    for i in 0..toks.len() {
        if let Tok::Ident(s) = &toks[i].tok {
            if crate::parse::is_clause(&toks[i].tok) {
                in_refs = REFERENCE_CLAUSES.contains(&s.as_str());
                continue;
            }
        }
        if in_refs {
            if let Some((p, _)) = dotted(toks, i) {
                out.insert(p.to_owned());
            }
        }
    }
    out
}

/// Joins every `r.x` (no spaces, `r` a prefix of a renamed reference, not
/// after a binder) into the identifier `r.x`.
pub fn join_renamed(toks: &mut Vec<Token>) {
    let prefixes = prefixes(toks);
    if prefixes.is_empty() {
        return;
    }
    let mut out: Vec<Token> = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        let after_binder = out.last().is_some_and(|t| match &t.tok {
            Tok::Sym(s) => BINDERS.contains(s),
            Tok::Ident(s) => BINDERS.contains(&s.as_str()),
            _ => false,
        });
        match dotted(toks, i) {
            Some((p, x)) if prefixes.contains(p) && !after_binder => {
                let mut t = toks[i].clone();
                t.tok = Tok::Ident(format!("{p}.{x}"));
                out.push(t);
                i += 3;
            }
            _ => {
                out.push(toks[i].clone());
                i += 1;
            }
        }
    }
    *toks = out;
}

/// Renames, in the tokens of machine `M` read as the instance `prefix.M`,
/// each identifier of `names` (its variables and operations) to
/// `prefix.name`.
pub fn rename(toks: &mut [Token], prefix: &str, names: &FxHashSet<String>) {
    for t in toks {
        let Tok::Ident(s) = &t.tok else {
            continue;
        };
        let (base, suffix) = match s.strip_suffix("$0") {
            Some(b) => (b, "$0"),
            None => (s.as_str(), ""),
        };
        if names.contains(base) {
            t.tok = Tok::Ident(format!("{prefix}.{base}{suffix}"));
        }
    }
}
