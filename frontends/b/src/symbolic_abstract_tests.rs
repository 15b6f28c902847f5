//! ABSTRACT_CONSTANTS defined by a lambda stay symbolic (see `symbolic`'s
//! `Lazy`): LibraryLustre's `l_not = %x.(x : POW(REF * BOOL) | ..
//! x(ref) ..)` is undefined at some points of its domain, and ProB counts
//! the models using it (LustreTranslations' LibraryLustre, Sofar,
//! excludes2, speed).

use crate::tests::{count, first_error};

/// A lambda whose body is undefined at some points of its domain (`x(a)`
/// for `x = {a |-> TRUE, a |-> FALSE}`): as an ABSTRACT_CONSTANT it is
/// applied only where used (root, the constants, `v = TRUE`: 3 states);
/// a concrete constant is computed whole, which fails there.
#[test]
fn abstract_constants_defined_by_lambdas_stay_symbolic() {
    let m = |section: &str| {
        format!(
            "MACHINE A SETS S = {{a}} {section} f
             PROPERTIES f : POW(S * BOOL) --> BOOL &
               f = %x.(x : POW(S * BOOL) | IF x = {{}} THEN FALSE ELSE x(a) END)
             VARIABLES v INITIALISATION v := f({{a |-> TRUE}}) END"
        )
    };
    assert_eq!(count(&m("ABSTRACT_CONSTANTS")).0, 3);
    let e = first_error(&m("CONSTANTS")).expect("an error");
    assert!(e.contains("not a function"), "{e}");
}
