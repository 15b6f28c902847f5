//! Unit tests of `deferred_part_members` (constants said elements of a
//! partition's parts, reduced in MACE order before the free elements are
//! allocated to the parts in order) and `deferred_equal_parts` (parts
//! said of equal sizes), on small machines whose counts are computed by
//! hand.

use crate::tests::count;
use crate::tests_setsize::refusal;

/// `ID` of `n` elements split into `P1` and `P2`, with `members`.
fn split(n: u32, members: &str) -> String {
    format!(
        "MACHINE M SETS ID CONSTANTS P1, P2, aa, bb
         PROPERTIES {members} & P1 \\/ P2 = ID & P1 /\\ P2 = {{}} & card(ID) = {n}
         VARIABLES x INITIALISATION x := 0 END"
    )
}

#[test]
fn elements_of_two_parts_take_the_first_elements() {
    // aa the first element, bb in the other part the second; the free
    // elements 3 and 4 go to the parts in order: both to P1, one each,
    // both to P2: 3 solutions, root + 3 + 3 states, 3 + 3 edges
    assert_eq!(count(&split(4, "aa : P1 & bb : P2")), (7, 6));
}

#[test]
fn elements_of_one_part_may_be_equal() {
    // aa the first element; bb the first (element 2 then in either part)
    // or the second; the free element 3 in either part: 2 * 2 + 2 = 6
    // solutions, root + 6 + 6 states, 6 + 6 edges
    assert_eq!(count(&split(3, "aa : P1 & bb : P1")), (13, 12));
}

/// `ID` of `n` elements split into three parts, with `sizes`.
fn three_parts(n: u32, sizes: &str) -> String {
    format!(
        "MACHINE M SETS ID CONSTANTS P1, P2, P3
         PROPERTIES P1 \\/ P2 \\/ P3 = ID & P1 /\\ P2 = {{}} & P1 /\\ P3 = {{}}
           & P2 /\\ P3 = {{}} & card(ID) = {n} {sizes}
         VARIABLES x INITIALISATION x := 0 END"
    )
}

#[test]
fn parts_of_equal_sizes_have_each_a_size() {
    // 6 elements in three parts of 2, allocated in order: one solution,
    // root + 1 + 1 states, 1 + 1 edges
    let equal = "& card(P1) = card(P2) & card(P3) = card(P2)";
    assert_eq!(count(&three_parts(6, equal)), (3, 2));
}

#[test]
fn parts_not_all_said_equal_stay_refused() {
    let e = refusal(&three_parts(6, "& card(P1) = card(P2)"));
    assert!(e.contains("a partition of ID into 3 parts"), "{e}");
    // 7 elements do not split into three equal parts
    let equal = "& card(P1) = card(P2) & card(P3) = card(P2)";
    let e = refusal(&three_parts(7, equal));
    assert!(e.contains("a partition of ID into 3 parts"), "{e}");
}
