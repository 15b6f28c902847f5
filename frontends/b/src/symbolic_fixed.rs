//! Variables that hold an infinite set and never change: FunLawsStrings'
//! `setX := STRING` in the INITIALISATION, written by no operation. ProB
//! keeps that value symbolic in every state; here, as a constant kept
//! symbolic (see `symbolic`), such a variable gets no slot and denotes
//! its initial expression: `x : setX` and `f : setX +-> T` are decided
//! from the expression, and a use needing its elements stays unsupported.
//! The counts do not change: the value is the same in every state, which
//! differ in the other variables only.
//!
//! Only classical B machines; only a plain `v := E` of the INITIALISATION
//! (in a multiple assignment, possibly inside a parallel or a sequence),
//! `E` an infinite set built from B's types (`STRING`, `POW(INTEGER)`,
//! `NATURAL +-> BOOL`: never enumerable, so never a solver's generator),
//! and no other substitution of any machine writing `v`.
//!
//! Owns that choice and the removal of `v` from its machine's variables
//! and INITIALISATION; the closures themselves are `symbolic`'s.

use crate::ast::*;
use crate::symbolic::mentions;
use crate::visit::{walk_subst, Role, SubstVisitor};

/// The variables of `machines` that keep an infinite initial value (see
/// the module's doc), with that value's expression; each is removed from
/// its machine's variables and INITIALISATION.
pub(crate) fn take_fixed(machines: &mut [Machine], files: &[String]) -> Vec<(Sym, Expr)> {
    let mut out = Vec::new();
    for mi in 0..machines.len() {
        let m = &machines[mi];
        if crate::is_event_b(&files[usize::from(m.pos.file)]) {
            continue;
        }
        let Some(init) = &m.init else { continue };
        let mut found = Vec::new();
        initial_sets(init, &m.variables, &mut found);
        for (v, e) in found {
            if writes(machines, v) != 1 {
                continue;
            }
            let m = &mut machines[mi];
            if let Some(init) = m.init.as_mut() {
                drop_assignment(init, v);
            }
            m.variables.retain(|&x| x != v);
            out.push((v, e));
        }
    }
    out
}

/// The plain assignments `v := E` of `s` (through parallels and
/// sequences) to a variable of `vars`, `E` an infinite set of B's types.
fn initial_sets(s: &Subst, vars: &[Sym], out: &mut Vec<(Sym, Expr)>) {
    match &s.kind {
        SubstKind::Par(xs) | SubstKind::Seq(xs) => {
            xs.iter().for_each(|x| initial_sets(x, vars, out));
        }
        SubstKind::Assign(l, r) if l.len() == r.len() => {
            for (lhs, e) in l.iter().zip(r) {
                let ExprKind::Ident(v) = lhs.kind else {
                    continue;
                };
                if vars.contains(&v) && crate::solve::infinite_type(e) {
                    out.push((v, e.clone()));
                }
            }
        }
        _ => {}
    }
}

/// How many places of the substitutions of `machines` (INITIALISATIONs
/// and operations) write `v` (a target or output mentioning it, `::`,
/// `:(`).
fn writes(machines: &[Machine], v: Sym) -> usize {
    let mut w = Writes { v, n: 0 };
    let substs = machines
        .iter()
        .flat_map(|m| m.init.iter().chain(m.operations.iter().map(|o| &o.body)));
    for s in substs {
        let _ = walk_subst(s, &mut w);
    }
    w.n
}

struct Writes {
    v: Sym,
    n: usize,
}

impl SubstVisitor for Writes {
    type Err = ();
    fn expr(&mut self, e: &Expr, role: Role) -> Result<(), ()> {
        if matches!(role, Role::Target | Role::Output) && mentions(e, self.v) {
            self.n += 1;
        }
        Ok(())
    }
    fn becomes(&mut self, ids: &[Sym]) {
        self.n += usize::from(ids.contains(&self.v));
    }
}

/// Removes `v := E` from the assignments of `s` (see `initial_sets`).
fn drop_assignment(s: &mut Subst, v: Sym) {
    match &mut s.kind {
        SubstKind::Par(xs) | SubstKind::Seq(xs) => {
            xs.iter_mut().for_each(|x| drop_assignment(x, v));
        }
        SubstKind::Assign(l, r) => {
            if let Some(k) = l
                .iter()
                .position(|x| matches!(x.kind, ExprKind::Ident(y) if y == v))
            {
                l.remove(k);
                r.remove(k);
            }
            if l.is_empty() {
                s.kind = SubstKind::Skip;
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use crate::tests::{count, first_error};

    /// `s := STRING`, never written again: `f` takes the 4 subsets of
    /// `{"a", "b"}` mapped to TRUE (4 states and the root); transitions:
    /// the initialisation, `add` 2 + 1 + 1, `part` and `size` in each
    /// state (4 + 4), `tot` never (a finite `f` is not total on STRING).
    #[test]
    fn a_variable_keeping_string_is_symbolic() {
        let m = r#"MACHINE F VARIABLES s, f INITIALISATION s, f := STRING, {}
            OPERATIONS
              add(x) = PRE x : {"a", "b"} & x /: dom(f) THEN f := f \/ {x |-> TRUE} END;
              tot = PRE f : s --> BOOL THEN skip END;
              part = PRE f : s +-> BOOL THEN skip END;
              n <-- size = BEGIN n := card({y | y : s & y : dom(f)}) END
            END"#;
        assert_eq!(count(m), (5, 13));
    }

    /// A finite function is never total on STRING: `tot` is never
    /// enabled (root, 1 state, the initialisation only).
    #[test]
    fn a_finite_function_never_covers_string() {
        let m = r#"MACHINE T VARIABLES f INITIALISATION f := {"a" |-> TRUE}
            OPERATIONS tot = PRE f : STRING --> BOOL THEN skip END END"#;
        assert_eq!(count(m), (2, 1));
    }

    /// Written by an operation: a state variable like any other, whose
    /// infinite value is refused.
    #[test]
    fn a_written_variable_holding_string_is_refused() {
        let m = "MACHINE G VARIABLES s INITIALISATION s := STRING
                 OPERATIONS op = BEGIN s := {} END END";
        let e = first_error(m).expect("refused");
        assert!(e.contains("infinite set used as a value"), "{e}");
    }
}
