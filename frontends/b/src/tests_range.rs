//! Unit tests of the ranges given to identifiers no `x = E`, `x : S`,
//! `x <: S` or integer bound generates: the domain of a function applied
//! to them (`solve::applied`), the type of an operation parameter read
//! from the body (`bodytyped`), types read from relational images
//! (`solve::typing`), on small machines whose counts are computed by
//! hand.

use crate::tests::{count, first_error};

/// A machine with `f = {2 |-> 1, 4 |-> 7}` and `y` (initially 0), and the
/// operation `read(p)` with guard `guard`, setting `y := f(p)`.
fn reader(guard: &str) -> String {
    format!(
        "MACHINE R VARIABLES f, y INVARIANT f : 1..5 +-> 0..9 & y : INTEGER
         INITIALISATION f := {{2 |-> 1, 4 |-> 7}} || y := 0
         OPERATIONS read(p) = PRE {guard} THEN y := f(p) END END"
    )
}

/// Why the front-end declines `text`: at load, at validation, or when an
/// operation is first tried (untyped parameters are refused then).
fn unsupported(text: &str) -> String {
    match crate::parse_str(text, "t.mch") {
        Ok(m) => match pins::validate(&m) {
            Ok(()) => crate::tests::first_error(text).unwrap_or_else(|| "explored".into()),
            Err(e) => e.to_string(),
        },
        Err(e) => e.to_string(),
    }
}

#[test]
fn an_applied_identifier_ranges_over_the_domain() {
    // p : dom(f) = {2, 4}: y in {0, 1, 7}, root + 3 states; 1 init edge +
    // 2 read edges per state
    assert_eq!(count(&reader("p > 1 & f(p) > 0")), (4, 7));
    // under `&` inside a conjunct, and in an expression: the same
    assert_eq!(count(&reader("(p > 1 & f(p) + 1 > 1)")), (4, 7));
    // p > 3: only p = 4, y in {0, 7}
    assert_eq!(count(&reader("p > 3 & f(p) > 0")), (3, 3));
}

#[test]
fn an_application_under_or_or_typed_gives_no_range() {
    // `f(p) > 0 or p = 9` holds for p = 9, outside dom(f)
    let e = unsupported(&reader("p > 1 & (f(p) > 0 or p = 9)"));
    assert!(e.contains("cannot enumerate 'p'"), "{e}");
    // typed by NATURAL: ProB may label p from its typing
    let e = unsupported(&reader("p : NATURAL & f(p) > 0"));
    assert!(e.contains("cannot enumerate 'p'"), "{e}");
    // `p = 3 => f(p) > 0` holds for p = 5
    let e = unsupported(&reader("p > 1 & (p = 3 => f(p) > 0)"));
    assert!(e.contains("cannot enumerate 'p'"), "{e}");
}

#[test]
fn a_parameter_typed_by_an_assignment_ranges_over_its_type() {
    // p : INTEGER, MININT..MAXINT = -1..3 as in ProB: x in -1..3, root + 5
    // states; 1 init edge + 5 set edges from each state with x < 3
    let m = "MACHINE P VARIABLES x INVARIANT x : INTEGER INITIALISATION x := 0
             OPERATIONS set(p) = PRE x < 3 THEN x := p END END";
    assert_eq!(count(m), (6, 21));
    // m : MSG (2 elements) by chan := [m]: root + [], [m1], [m2]; 1 init
    // edge, 2 send edges, 2 recv edges
    let m = "MACHINE C SETS MSG VARIABLES chan INVARIANT chan : seq(MSG)
             INITIALISATION chan := []
             OPERATIONS send(m) = SELECT chan = [] THEN chan := [m] END;
                        recv = SELECT chan /= [] THEN chan := [] END END";
    assert_eq!(count(m), (4, 5));
    // an expression of p types it only through inference: unsupported
    let m = "MACHINE P VARIABLES x INVARIANT x : INTEGER INITIALISATION x := 0
             OPERATIONS set(p) = PRE x < 3 THEN x := p + 1 END END";
    let e = unsupported(m);
    assert!(e.contains("cannot enumerate 'p'"), "{e}");
}

#[test]
fn images_show_the_type_of_their_argument() {
    // `S <: nxt[S] => S = {}` over the 8 subsets of B = {a, b, c}: holds
    // for the acyclic nxt, not for the cyclic one (no solution: no state)
    let m = |nxt: &str| {
        format!(
            "MACHINE I SETS B = {{a, b, c}} CONSTANTS nxt
             PROPERTIES nxt = {nxt} & !(S).(S <: nxt[S] => S = {{}})
             VARIABLES v INVARIANT v : B INITIALISATION v := a END"
        )
    };
    // constants, then v = a; setup and init edges
    assert_eq!(count(&m("{a |-> b, b |-> c}")), (3, 2));
    assert_eq!(count(&m("{a |-> b, b |-> a}")), (1, 0));
    // `rt[{r}] /= {}` types r as rt's domain, R: r in {r1, r2} (r3 has an
    // empty image); the state `v` grows from {} to {r1, r2}
    let m = "MACHINE J SETS R = {r1, r2, r3}; B = {a, b} CONSTANTS rt
             PROPERTIES rt = {r1 |-> a, r2 |-> b}
             VARIABLES v INITIALISATION v := {}
             OPERATIONS add = ANY r WHERE r /: v & rt[{r}] /= {}
                        THEN v := v \\/ {r} END END";
    // constants, {}, {r1}, {r2}, {r1, r2}; setup, init, 2 + 1 + 1 edges
    assert_eq!(count(m), (6, 6));
}

#[test]
fn properties_without_solution_for_the_bounded_constants() {
    // y has no finite range, but no value of a satisfies the conjuncts
    // without y: the PROPERTIES have no solution (ProB: no state)
    let m = |lower: i64| {
        format!(
            "MACHINE U CONSTANTS a, y PROPERTIES a : 1..3 & a > {lower} & y : INTEGER & y mod 2 = a
             VARIABLES v INVARIANT v : INTEGER INITIALISATION v := 0 END"
        )
    };
    assert_eq!(count(&m(5)).0, 1);
    // with a = 3 a solution of the rest: y must be enumerated
    let e = first_error(&m(2)).expect("unsupported");
    assert!(e.contains("cannot enumerate 'y'"), "{e}");
}
