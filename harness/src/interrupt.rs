//! Ctrl-C during a campaign. `run` catches SIGINT ([`catch`]): the flag it
//! sets makes `isolate` kill the running child and the campaign stop before
//! its next run, writing no row for the interrupted one and telling how to
//! resume. A second Ctrl-C ends the process at once (the default action).
//! Other commands keep the default: Ctrl-C ends them.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// Catches SIGINT from now on: the first sets the flag, a second one (flag
/// already set) terminates the process as if uncaught.
pub fn catch() -> std::io::Result<()> {
    let flag = FLAG.get_or_init(|| Arc::new(AtomicBool::new(false)));
    // Registered first, so it sees the flag before the second registration sets it.
    signal_hook::flag::register_conditional_default(signal_hook::consts::SIGINT, flag.clone())?;
    signal_hook::flag::register(signal_hook::consts::SIGINT, flag.clone())?;
    Ok(())
}

/// Whether a caught Ctrl-C asked the campaign to stop.
pub fn requested() -> bool {
    FLAG.get().is_some_and(|f| f.load(Ordering::SeqCst))
}
