//! Unit tests of the standard-library files of `library_defs`
//! (`LibraryBits.def` evaluated; `LibraryHash.def`, `LibraryRegex.def`
//! declared only), of `IS_EVALUATED` / `IS_DETERMINED` and of
//! `'''strings'''` holding single quotes, and of the optimising
//! predicates of `library_optimize`.

use crate::tests::{count, first_error};
use std::collections::BTreeSet;

/// The bitwise functions against Rust's own operators: the states
/// reachable from 0 by three operations, found by a breadth-first search
/// here, and one transition per operation and state.
#[test]
fn bit_functions_against_native_operators() {
    let (s, t) = count(
        "MACHINE Bits DEFINITIONS \"LibraryBits.def\"
         VARIABLES x INITIALISATION x := 1
         OPERATIONS
           flip = BEGIN x := BXOR(x, 5) END;
           rotate = BEGIN x := BOR(BAND(BLSHIFT(x, 1), 15), BRSHIFT(x, 3)) END;
           invert = BEGIN x := BAND(BNOT(x), 15) END
         END",
    );
    let ops: [fn(i64) -> i64; 3] = [|x| x ^ 5, |x| ((x << 1) & 15) | (x >> 3), |x| !x & 15];
    let (mut seen, mut todo) = (BTreeSet::from([1i64]), vec![1i64]);
    while let Some(x) = todo.pop() {
        for op in ops {
            if seen.insert(op(x)) {
                todo.push(op(x));
            }
        }
    }
    assert_eq!((s, t), (seen.len() + 1, 1 + 3 * seen.len()));
}

#[test]
fn shift_beyond_64_bits_is_unsupported() {
    let e = first_error(
        "MACHINE Big DEFINITIONS \"LibraryBits.def\"
         VARIABLES x INITIALISATION x := BLSHIFT(3, 62) END",
    )
    .expect("unsupported");
    assert!(e.contains("unsupported") && e.contains("ShiftLeft"), "{e}");
}

#[test]
fn hash_and_regex_declared_not_evaluated() {
    // used in the ASSERTIONS only (never evaluated): root + x = 0
    for lib in ["LibraryHash.def", "LibraryRegex.def"] {
        let m = format!(
            "MACHINE H DEFINITIONS \"{lib}\"
             ASSERTIONS HASH(1) = HASH(1); REGEX_MATCH(\"a\", \"a\")
             VARIABLES x INITIALISATION x := 0 END"
        );
        assert_eq!(count(&m), (2, 1), "{lib}");
    }
    for (lib, call, what) in [
        (
            "LibraryHash.def",
            "SHA_HASH(x)",
            "external function SHA_HASH",
        ),
        (
            "LibraryRegex.def",
            "bool(REGEX_MATCH(\"ab\", \"a.\"))",
            "external predicate REGEX_MATCH",
        ),
    ] {
        let m = format!(
            "MACHINE H DEFINITIONS \"{lib}\"
             VARIABLES x, y INITIALISATION x := 0; y := {call} END"
        );
        let e = first_error(&m).expect("unsupported");
        assert!(e.contains("unsupported") && e.contains(what), "{e}");
    }
}

#[test]
fn determined_only_for_literals() {
    let m = |arg: &str| {
        format!(
            "MACHINE D DEFINITIONS
               EXTERNAL_PREDICATE_IS_EVALUATED(T) == T; IS_EVALUATED(v) == (v = v);
               EXTERNAL_PREDICATE_IS_DETERMINED(T) == T; IS_DETERMINED(v) == (v = v)
             CONSTANTS c PROPERTIES c : 1..3 & IS_EVALUATED({arg}) & IS_DETERMINED({arg})
             VARIABLES x INITIALISATION x := c END"
        )
    };
    // three constant solutions, each with its initial state
    assert_eq!(count(&m("\"s\"")), (7, 6));
    assert_eq!(count(&m("(1, {2})")), (7, 6));
    let e = first_error(&m("c")).expect("unsupported");
    assert!(
        e.contains("unsupported") && e.contains("IS_DETERMINED"),
        "{e}"
    );
}

#[test]
fn triple_quoted_string_with_quotes() {
    // '''a'b''' is the string "a'b": two distinct values of the three
    let (s, t) = count(
        "MACHINE Q CONSTANTS s PROPERTIES s : {'''a'b''', \"a'b\", \"ab\"}
         VARIABLES x INITIALISATION x := s END",
    );
    assert_eq!((s, t), (5, 4));
}

/// The constant solutions kept by an optimising predicate, against a
/// brute force over the candidates here: root, then per solution its
/// SETUP_CONSTANTS state and its initial state.
#[test]
fn optimising_predicates_keep_the_best_solutions() {
    let m = |props: &str| {
        format!(
            "MACHINE O DEFINITIONS \"LibraryProB.def\"
             CONSTANTS x, y PROPERTIES x : 1..4 & y : 1..4 & {props}
             VARIABLES v INITIALISATION v := x END"
        )
    };
    let pairs = || (1..=4i64).flat_map(|x| (1..=4i64).map(move |y| (x, y)));
    let best = |keep: fn(&(i64, i64)) -> bool, f: fn(i64, i64) -> i64, max: bool| {
        let vals: Vec<i64> = pairs().filter(keep).map(|(x, y)| f(x, y)).collect();
        let b = if max {
            vals.iter().max()
        } else {
            vals.iter().min()
        };
        let n = vals.iter().filter(|v| Some(*v) == b).count();
        (2 * n + 1, 2 * n)
    };
    assert_eq!(
        count(&m("x /= y & MINIMIZE_EXPR(x * y)")),
        best(|&(x, y)| x != y, |x, y| x * y, false)
    );
    assert_eq!(
        count(&m("MAXIMIZE_EXPR(x + y) & x < y")),
        best(|&(x, y)| x < y, |x, y| x + y, true)
    );
    assert_eq!(
        count(&m("MAXIMIZE_EXPR((x - y) * (x - y))")),
        best(|_| true, |x, y| (x - y) * (x - y), true)
    );
}

#[test]
fn optimising_predicates_elsewhere_unsupported() {
    let m = "MACHINE O DEFINITIONS \"LibraryProB.def\"
             CONSTANTS x PROPERTIES x : 1..4 & MINIMIZE_EXPR(x) & MAXIMIZE_EXPR(x)
             VARIABLES v INITIALISATION v := x END";
    let e = first_error(m).expect("unsupported");
    assert!(
        e.contains("unsupported") && e.contains("more than one"),
        "{e}"
    );
    let m = "MACHINE O DEFINITIONS \"LibraryProB.def\"
             VARIABLES v INITIALISATION v := 0
             OPERATIONS inc = SELECT v < 2 & MAXIMIZE_EXPR(v) THEN v := v + 1 END END";
    let e = first_error(m).expect("unsupported");
    assert!(e.contains("unsupported") && e.contains("Maximize"), "{e}");
}

/// `SEES LibraryStrings` without a copy beside the machine: ProB's
/// library machine, its `chars` and `length` applied; `btrue` a
/// predicate. Solutions by hand: the suffixes of "cat" among the four
/// strings (their characters reversed are a prefix of t, a, c): "t",
/// "at" and "cat", not "ca".
#[test]
fn library_strings_machine_without_a_copy() {
    let (s, t) = count(
        "MACHINE S SEES LibraryStrings
         CONSTANTS s PROPERTIES s : {\"t\", \"at\", \"ca\", \"cat\"} &
           rev(chars(s)) <: rev(chars(\"cat\")) & btrue & not(bfalse)
         VARIABLES n INITIALISATION n := length(s) + length(\"at\") END",
    );
    assert_eq!((s, t), (7, 6));
    let e = first_error(
        "MACHINE S SEES LibraryStrings
         VARIABLES n INITIALISATION n := card(ran(split(\"a.b\", \".\"))) END",
    )
    .expect("unsupported");
    assert!(
        e.contains("unsupported") && e.contains("STRING_SPLIT"),
        "{e}"
    );
}
