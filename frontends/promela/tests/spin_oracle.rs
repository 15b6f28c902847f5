//! Small hand-written models whose state counts are compared with SPIN's
//! `states, stored`, computed by running SPIN on the same text
//! (`common::spin_states`: `spin -a`, `gcc -DNOREDUCE -DSAFETY`,
//! `./pan -E -c0`). Each model isolates one semantic rule. When `spin` or
//! `gcc` is missing it fails under CI and otherwise says it skipped
//! (`frontend_testkit::missing`); nothing here is a recorded number.

mod common;

/// (name, model text) pairs; each exercises one rule of SPIN's semantics.
const MODELS: &[(&str, &str)] = &[
    // atomic: intermediate states are not stored; process death in pid order
    ("atomic_not_stored", "byte x; active proctype A() { atomic { x = 1; x = 2 }; x == 9 }"),
    ("death_order", "byte x;\nactive proctype A() { x = 1; x = 2; x = 3 }\nactive proctype B() { x = 5 }"),
    // an atomic sequence that blocks loses control; that state is stored
    (
        "atomic_blocks",
        "byte x;\nactive proctype A() { atomic { x = 1; x == 2; x = 3 } ; x == 9 }\nactive proctype B() { x == 1 -> x = 2 }",
    ),
    // write-only variables (globals and locals, x++ included) are hidden
    ("write_only_global", "byte x; byte z;\nactive proctype A() { L: x == 0; z++; goto L }"),
    ("write_only_local", "byte x;\nactive proctype A() { byte y; L: x == 0; y = 1; goto L }"),
    ("write_only_array", "byte x; byte z[2];\nactive proctype A() { L: x == 0; z[x] = 1; goto L }"),
    // dead local reset after a condition reading it
    (
        "dead_after_read",
        "byte g;\nactive proctype A() { byte j; L: if :: j < 3 -> j = j + 1 :: j == 3 -> goto M fi; goto L;\n M: g = (g + 1) % 4; j = 0; goto L }\nactive proctype B() { L: g > 0 -> g = g - 1; goto L }",
    ),
    ("no_reset_after_assign_read", "byte x;\nactive proctype A() { byte y;\nL: if :: y = 1 :: y = 2 fi; x = y; x = 0; x == 9 }"),
    // statement merging: chains of local assignments, a local guard
    // starting a chain, no merging at labels
    ("merge_local_chain", "byte x;\nactive proctype A() { byte y; x = 2; y = 1; y = y + 1; y = y + 3; x = y; x == 9 }"),
    (
        "merge_after_local_guard",
        "byte x;\nactive proctype A() { byte y; x = 2; y = 3; y = y + 1; if :: y > 2 -> y = 1 :: x > 2 -> y = 2 fi; y = 7; x = y }",
    ),
    ("no_merge_at_label", "byte x;\nactive proctype A() { byte y; x = 2; y = 3; N: y = y + 1; y = y + 2; x = y; goto N }"),
    // loops, else, break
    (
        "do_else_break",
        "byte x;\nactive proctype A() { do :: x < 5 -> x++ :: else -> break od; x = 0 }\nactive proctype B() { x > 2 -> x = 1 }",
    ),
    // run, init, _pid, process bound
    (
        "run_and_pid",
        "byte x;\nproctype C(byte k) { x = x + k + _pid }\ninit { atomic { run C(1); run C(2) }; x > 0 }",
    ),
    (
        "run_nondeterministic",
        "byte x;\nactive proctype A() { L: x < 3; x = x + 1; goto L }\nactive proctype B() { L: if :: run C() :: skip fi; false }\nproctype C() { x = 7 }\ninit { x = 1 }",
    ),
    // rendezvous with constant matching, inside atomic on both sides
    (
        "rendezvous",
        "chan c = [0] of {int}; byte t;\nactive proctype S() { L: if :: atomic { t == 0; c!5 } ; goto L :: c!0; goto L fi }\nactive proctype R() { int v; L: if :: c?v; goto M :: atomic { c?0; t = 1 - t }; goto L fi;\n M: t = v % 2; goto L }",
    ),
    // buffered channel FIFO with matching receive
    (
        "buffered",
        "chan q = [2] of {byte, bit};\nactive proctype P() { byte i; do :: i < 4 -> q!i,(i%2); i++ :: i == 4 -> break od }\nactive proctype C() { byte a; L: if :: q?a,1 :: q?a,0 fi; goto L }",
    ),
    // d_step with internal choice, truncation on assignment
    (
        "dstep_truncation",
        "byte b; short s; bit t; unsigned u : 3;\nactive proctype A() { do :: d_step { if :: b > 250 -> b = b + 7 :: else -> b = b + 100 fi; s = s * 300 + b; t = b; u = b } od }",
    ),
];

#[test]
fn counts_equal_spin_states_stored() {
    if !common::spin_available() {
        frontend_testkit::missing(
            "spin or gcc not installed (scripts/install-deps.sh): no SPIN comparison",
        );
        return;
    }
    let mut bad = Vec::new();
    for (name, text) in MODELS {
        let m = promela::parse_str(text, name).unwrap_or_else(|e| panic!("{e}"));
        pins::validate(&m).unwrap_or_else(|e| panic!("{name}: {e}"));
        let ours = common::count(&m) as u64;
        let spin = common::spin_states(text);
        if ours != spin {
            bad.push(format!("{name}: statebench {ours}, SPIN {spin}"));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
