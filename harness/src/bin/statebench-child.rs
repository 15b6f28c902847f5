//! `statebench-child`: one isolated run (load a model, run one engine,
//! report on stdout), the lean form of `statebench child` that the parent
//! runs when it lies beside `statebench` (see the library's `child`).
//!
//! It also defines the C symbol `log2` (see [`log2`]), so that it loads no
//! `libm.so`.

fn main() {
    std::process::exit(statebench_child::child::main_from(
        std::env::args_os().skip(1),
    ));
}

/// `log2` for the whole child (`f64::log2` calls the C symbol; so does
/// hdrhistogram when it sizes the latency histogram): the `libm` crate's,
/// where the C library's would make the child load the system's
/// `libm.so`, whose pages the loader touches and peak RSS counts (0.5 MiB
/// of file-backed pages on schedule_world.2; it was the only symbol the
/// child took from it).
// SAFETY: `log2` is the C standard's function, same signature and
// contract (a pure function of its argument); the binary defines it once,
// and the `libm` crate's implementation calls no `log2` symbol itself.
// The harness test `the_lean_child_loads_no_libm` checks the symbol's
// effect, `log2_is_the_c_functions` its values.
#[unsafe(no_mangle)]
pub extern "C" fn log2(x: f64) -> f64 {
    libm::log2(x)
}

#[cfg(test)]
mod tests {
    #[test]
    fn log2_is_the_c_functions() {
        assert_eq!(super::log2(1.0), 0.0);
        assert_eq!(super::log2(1024.0), 10.0);
        assert_eq!(super::log2(0.5), -1.0);
        assert!((super::log2(3.0) - 1.584_962_500_721_156).abs() < 1e-15);
        assert!(super::log2(0.0).is_infinite() && super::log2(-1.0).is_nan());
    }
}
