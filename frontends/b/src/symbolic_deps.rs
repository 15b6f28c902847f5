//! Symbolic constants whose definition mentions constants that keep their
//! slot: `E = {x . x : NAT * NAT | x |-> s}` with `s : S` solved by the
//! PROPERTIES (Kanso_Symbolic), or a lambda over `seq1(BIT)` applying a
//! constant `bit_and` given by its properties only (Valerio's bit
//! vectors). ProB keeps such a definition symbolic as well (a closure over
//! the constants' values); so do we, for a definition infinite by its
//! syntax only (see `symbolic::take_definitions`): the value, membership
//! and applications are computed anew at each use, from the constants'
//! values at hand: their slots, or while the PROPERTIES are solved (slots
//! not yet set) the solver's bindings of them. A constant read before it
//! has either is unsupported, as any read before assignment.
//!
//! Owns the choice of the bindings a closure evaluation keeps; `symbolic`
//! owns the rest.

use crate::ast::Sym;
use crate::eval::{Env, Global};
use crate::value::Value;

impl Env<'_> {
    /// The bindings of `locals` that a closure depending on `deps` keeps:
    /// those of its dependencies whose slot is not set yet.
    pub(crate) fn dep_bindings(&self, locals: &[(Sym, Value)], deps: &[Sym]) -> Vec<(Sym, Value)> {
        locals
            .iter()
            .filter(|(s, _)| deps.contains(s) && !self.slot_set(*s))
            .cloned()
            .collect()
    }

    /// Whether `s` names a slot that holds a value.
    fn slot_set(&self, s: Sym) -> bool {
        match self.w.globals.get(s as usize) {
            Some(Some(Global::Slot(i))) => !crate::exec::is_unset(&self.slots[*i]),
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::tests::count;

    #[test]
    fn closure_over_a_solved_constant() {
        // f = %x.(x : NATURAL | x + k) stays symbolic with k : 1..3 solved
        // beside; f(1) > 2 (decided while solving) leaves k = 2 and k = 3.
        // k = 2: n = 2, 4, 6 (steps from 2, 4); k = 3: n = 3, 6 (step from
        // 3). States: root, 2 constant states, 5; transitions: 2 setups,
        // 2 initialisations, 3 steps
        let m = "MACHINE K CONSTANTS k, f
                 PROPERTIES k : 1..3 & f = %x.(x : NATURAL | x + k) & f(1) > 2
                 VARIABLES n INVARIANT n : NATURAL INITIALISATION n := f(0)
                 OPERATIONS step = PRE n < 5 THEN n := f(n) END END";
        assert_eq!(count(m), (8, 7));
    }

    #[test]
    fn membership_in_a_closure_over_a_solved_constant() {
        // ev = {x | x : NATURAL & x mod 2 = r}: n steps 0 -> 1 -> 2 -> 3
        // while n + 1 : ev fails for r = 0 at n = 0 (1 /: ev); r : 0..1.
        // r = 0: n = 0 only; r = 1: n = 0, 1 (0 + 1 : ev, 1 + 1 /: ev).
        // States: root, 2 constant states, 3; transitions: 2 + 2 + 1
        let m = "MACHINE M CONSTANTS r, ev
                 PROPERTIES r : 0..1 & ev = {x | x : NATURAL & x mod 2 = r}
                 VARIABLES n INVARIANT n : NATURAL INITIALISATION n := 0
                 OPERATIONS step = PRE n + 1 : ev THEN n := n + 1 END END";
        assert_eq!(count(m), (6, 5));
    }
}
