//! Tests of `maximal_sets`: a union with a large maximal set stays one
//! state (ProB simplifies it to the set), a union with a large set that
//! is not maximal (over integers) is an explicit set, a second state
//! beside the closure (`set_representation`).

use crate::tests::count;

/// `s := POW(ID)` (8,192 sets), `s := s \/ {{a}}` and `s := {{a}} \/ s`:
/// values `{}`, `{{a}}` and `POW(ID)`, each with three operations.
const MAXIMAL: &str = "MACHINE M SETS ID = {a,b,c,d,e,f,g,h,i,j,k,l,m}
     VARIABLES s INITIALISATION s := {}
     OPERATIONS all = BEGIN s := POW(ID) END;
                add = BEGIN s := s \\/ {{a}} END;
                add2 = BEGIN s := {{a}} \\/ s END END";

#[test]
fn a_union_with_a_maximal_set_is_that_set() {
    // root + 3 states; the initialisation + 3 operations from each state
    assert_eq!(count(MAXIMAL), (4, 10));
}

#[test]
fn a_union_with_a_large_integer_set_is_a_second_state() {
    let ints = MAXIMAL
        .replace(
            "SETS ID = {a,b,c,d,e,f,g,h,i,j,k,l,m}",
            "DEFINITIONS ID == 0..12",
        )
        .replace("{{a}}", "{{0}}");
    // root, {}, {{0}}, POW(0..12) as a closure and as an explicit set
    // (add, add2 from the closure); the initialisation + 3 from each
    assert_eq!(count(&ints), (5, 13));
}
