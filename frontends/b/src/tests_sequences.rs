//! Tests of `solve::sized` with the elements of a sequence over an
//! infinite set given by `ran(x) = R` or `ran(x) <: R`.

use crate::tests::count;

#[test]
fn sequences_over_an_infinite_set_by_their_range() {
    // [0, 1] and [1, 0]: the root and 2 initial states
    let m = "MACHINE S VARIABLES s INVARIANT s : seq(NATURAL)
             INITIALISATION s :(s : iseq(NATURAL) & size(s) = 2 & ran(s) = {0, 1}) END";
    assert_eq!(count(m), (3, 2));
    // the 2^2 sequences of length 2 over {0, 1}
    let m = "MACHINE S VARIABLES s INVARIANT s : seq(NATURAL)
             INITIALISATION s :(s : seq(NATURAL) & size(s) = 2 & ran(s) <: {0, 1}) END";
    assert_eq!(count(m), (5, 4));
}
