//! Tests of the solver's planning around constants kept symbolic as
//! infinite closures (`Syms::is_infinite_closure`, `Planner::applied`):
//! an identifier applied by such a function is not drawn from its domain.

use crate::tests::count;

#[test]
fn argument_of_an_infinite_closure_is_drawn_from_its_own_typing() {
    // num reads a digit sequence as a number (Euler_Problem_004): t of
    // size 2 with num(t) : 1..3 is [1, 0], [2, 0] or [3, 0]: card(ap) = 3
    // (a wrong card leaves no solution: root only). States: root,
    // constants, n = 3; transitions: setup, init
    let m = "MACHINE A CONSTANTS num, ap
             PROPERTIES num = %s.(s : seq(0..9) | SIGMA(i).(i : dom(s) | s(i) * 10 ** (i - 1))) &
               ap = {x, t | x : 1..3 & t : seq(0..9) & size(t) = 2 & num(t) = x} & card(ap) = 3
             VARIABLES n INVARIANT n : NATURAL INITIALISATION n := card(ap) END";
    assert_eq!(count(m), (3, 2));
}
