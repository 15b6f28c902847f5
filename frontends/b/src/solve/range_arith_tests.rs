//! Unit tests of integer evidence from arithmetic (`range_arith`): an
//! identifier typed only by the arithmetic around it is solved from a
//! linear equation; counts worked out by hand.

use super::range_pushed_tests::machine;
use crate::tests::count;

fn constants(props: &str) -> String {
    machine("x, y", props)
}

#[test]
fn a_product_inside_a_sum_is_arithmetic() {
    // PexSolve's `x1 * 3 + 27 = 153`: x = 42 only, beyond MAXINT (an
    // equation, not a clipped enumeration); y = x - 40 = 2
    let props = "x * 3 + 27 = 153 & y = x - 40";
    assert_eq!(count(&constants(props)), (3, 2));
    // the literal on the left, the sum on the right
    let props = "153 = 27 + 3 * x & y + 1 = x";
    assert_eq!(count(&constants(props)), (3, 2));
}

#[test]
fn a_difference_with_an_integer_is_arithmetic() {
    // `x - 2 = 5`: x = 7; `10 - y = x`: y = 3
    let props = "x - 2 = 5 & 10 - y = x";
    assert_eq!(count(&constants(props)), (3, 2));
}
