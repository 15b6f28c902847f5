//! Tests of `maximal_sets`: a union with a large maximal set stays one
//! state (ProB simplifies it to the set), a union with a large set that
//! is not maximal (over integers) is refused as computed in two ways.

use crate::tests::{count, first_error};

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
fn a_union_with_a_large_integer_set_is_refused() {
    let ints = MAXIMAL
        .replace(
            "SETS ID = {a,b,c,d,e,f,g,h,i,j,k,l,m}",
            "DEFINITIONS ID == 0..12",
        )
        .replace("{{a}}", "{{0}}");
    let e = first_error(&ints).expect("refused");
    assert!(e.contains("computed in two ways"), "{e}");
}
