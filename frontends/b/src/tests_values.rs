//! Unit tests of values ProB keeps symbolic: large intervals and
//! comprehensions (kept in constants; in variables see `tests_lazy`), `x ::
//! INTEGER` (clipped to `MININT..MAXINT`) and `S <: {}` for an infinite
//! `S`; and of renamed machine instances (`INCLUDES r.M`), on small
//! machines whose counts are computed by hand.

use crate::tests::{count, first_error};

#[test]
fn becomes_in_an_infinite_integer_set_is_clipped() {
    // MININT..MAXINT = -1..3: 5 initial states; NATURAL: 0..3, NATURAL1: 1..3
    for (set, n) in [("INTEGER", 5), ("NATURAL", 4), ("NATURAL1", 3)] {
        let (s, t) = count(&format!(
            "MACHINE B VARIABLES x INITIALISATION x :: {set} END"
        ));
        assert_eq!((s, t), (n + 1, n), "{set}");
    }
}

#[test]
fn subset_of_empty_of_an_infinite_set_is_false() {
    // b is FALSE in every case: one state
    for set in [
        "INTEGER <-> INTEGER",
        "NATURAL >->> INTEGER",
        "seq(BOOL)",
        "POW(NATURAL)",
    ] {
        let (s, t) = count(&format!(
            "MACHINE E VARIABLES b INITIALISATION b := bool({set} <: {{}})
             OPERATIONS op = SELECT b = FALSE THEN skip END END"
        ));
        assert_eq!((s, t), (2, 2), "{set}");
    }
}

#[test]
fn large_sets_in_constants() {
    // a constant interval of 10,000 elements: root, constants, initialised
    let (s, t) = count(
        "MACHINE L CONSTANTS big PROPERTIES big = 1..10000
         VARIABLES x INITIALISATION x := 1
         OPERATIONS inc = PRE x + 1 : big & x < 3 THEN x := x + 1 END END",
    );
    assert_eq!((s, t), (5, 4));
}

#[test]
fn renamed_instances_have_their_own_variables_and_operations() {
    let bit = "MACHINE Bit SETS MODE = {on, off} VARIABLES b, m INITIALISATION b := 0 || m := off
         OPERATIONS flip = PRE b = 0 THEN b := 1 || m := on END END";
    let two = "MACHINE Two INCLUDES p.Bit, q.Bit PROMOTES p.flip
         OPERATIONS both = PRE p.b = 1 & q.m = off THEN q.flip END END";
    let dir = std::env::temp_dir().join(format!("bvalues-ren-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for (name, text) in [("Bit.mch", bit), ("Two.mch", two)] {
        std::fs::write(dir.join(name), text).expect("write");
    }
    let m = crate::parse_file(&dir.join("Two.mch")).unwrap_or_else(|e| panic!("{e}"));
    // (p.b, q.b): root, 00, 10 (p.flip), 11 (both); 1 + 1 + 1 transitions
    assert_eq!(frontend_testkit::bfs::count(&m), (4, 3));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn properties_without_solution_give_no_state() {
    // ProB counts no state: our root only
    let m = |props: &str, sets: &str| {
        format!(
            "MACHINE U {sets} CONSTANTS c, f PROPERTIES f = {{1 |-> 2}} & c : 1..3 & {props}
             VARIABLES x INITIALISATION x := c END"
        )
    };
    assert_eq!(count(&m("c > 5", "")), (1, 0));
    for (props, sets, why) in [
        // a deferred set the PROPERTIES name, without a given size
        // (an unnamed one: `tests_deferred`)
        ("c > 5 & card(ID) > 0", "SETS ID", "deferred sets"),
        ("f(c) = 7", "", "a function applied outside its domain"),
        ("{c} <<: {}", "", "strict inclusions"),
    ] {
        let e = first_error(&m(props, sets)).expect("refused");
        assert!(e.contains(why), "{props}: {e}");
    }
}

#[test]
fn let_expressions() {
    // x steps 0 -> 2 -> 4 (guarded by a LET of two definitions)
    let (s, t) = count(
        "MACHINE Lt VARIABLES x INITIALISATION x := 0
         OPERATIONS step = PRE LET a, b BE a = x + 1 & b = a + 1 IN b END <= 4 THEN
         x := LET y BE y = x + 2 IN y END END END",
    );
    assert_eq!((s, t), (4, 3));
}
