//! Unit tests of `errors_math` (LibraryMath's scaled `SINx`, `COSx`,
//! `TANx`: a zero multiplier is an error of the model) and of the
//! unmodelled externals an operation meets while provisional binders are
//! allowed (`errors_provisional::skip_unmodelled`), on small machines
//! worked out by hand.

use crate::tests::first_error;
use crate::tests_wd::model_error;

/// A machine declaring `name` as LibraryMath declares it, with a
/// counter `x` that `inc` raises by one up to `top` and the operation `op`.
fn scaled_machine(name: &str, top: i64, op: &str) -> String {
    format!(
        "MACHINE P DEFINITIONS
           EXTERNAL_FUNCTION_{name} == INTEGER*INTEGER --> INTEGER;
           {name}(m, x) == 0
         VARIABLES x INITIALISATION x := 0
         OPERATIONS
           inc = PRE x < {top} THEN x := x + 1 END;
           {op}
         END"
    )
}

#[test]
fn a_zero_multiplier_is_an_error_where_it_is_reached() {
    // m = 3 - x is 0 only in the state x = 3, three steps from the start;
    // the calls before it (m = 3, 2, 1) are not modelled and skipped
    for name in ["SINx", "COSx", "TANx"] {
        let op = format!("r <-- get = BEGIN r := {name}(3 - x, x) END");
        let e = model_error(&scaled_machine(name, 5, &op));
        assert!(e.contains(&format!("{name}(0,3): division by zero")), "{e}");
    }
}

#[test]
fn unmodelled_calls_alone_leave_the_exploration_refused() {
    // x stops at 2: m = 3 - x never reaches 0, every call is skipped and
    // the exploration, complete without an error, is refused at its end
    let op = "r <-- get = BEGIN r := SINx(3 - x, x) END";
    let e = first_error(&scaled_machine("SINx", 2, op)).expect("refused");
    assert!(
        e.starts_with("unsupported") && e.contains("external function SINx"),
        "{e}"
    );
    assert!(e.contains("found no model error"), "{e}");
}

#[test]
fn a_skipped_call_drops_its_transitions_only() {
    // `jump` (x := 3 through an unmodelled call) never fires, yet `inc`
    // reaches x = 3, where `bad` divides by zero: ProB's states too
    let op = "jump = BEGIN x := 3 + SINx(1, x) END;
              r <-- bad = PRE x = 3 THEN r := 1 / (x - 3) END";
    let e = model_error(&scaled_machine("SINx", 3, op));
    assert!(e.contains("division by zero"), "{e}");
}
