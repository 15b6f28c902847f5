//! The lean engine child's binary: what it maps beside its own code
//! counts in every peak RSS it measures (harness/src/bin/statebench-child.rs).

/// Whether `binary` holds the bytes `name` (the shared libraries a binary
/// asks the loader for sit in its dynamic string table, as `libX.so.N`).
fn mentions(binary: &[u8], name: &[u8]) -> bool {
    binary.windows(name.len()).any(|w| w == name)
}

#[test]
fn the_lean_child_loads_no_libm() {
    let binary = std::fs::read(env!("CARGO_BIN_EXE_statebench-child")).unwrap();
    // The C library is there: the check reads the right table.
    assert!(mentions(&binary, b"libc.so.6"));
    assert!(
        !mentions(&binary, b"libm.so.6"),
        "statebench-child needs libm.so again: a C math function other than \
         log2 is called (define it in src/bin/statebench-child.rs, or accept \
         the 0.5 MiB of peak RSS)"
    );
}
