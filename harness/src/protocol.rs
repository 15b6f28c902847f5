//! The line protocol between a statebench child and its parent: one JSON
//! [`ChildMessage`] per stdout line, and the child's side of its
//! isolation (its peak resident set, dying with its parent). Must not
//! start processes nor enforce limits (the parent's `isolate` does).

use serde::{Deserialize, Serialize};

/// What a child says on its stdout, one JSON object per line.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChildMessage {
    /// The model is loaded: its shape and the time parsing took.
    Loaded {
        k: u64,
        groups: u64,
        parse_time_s: f64,
    },
    /// The engine's parameters as resolved when its search starts (the
    /// report repeats them; a run killed at a limit has only these).
    Configured { engine_params: String },
    /// Figures so far. `queued`: states waiting in the explicit
    /// explorer's open set (full vectors; 0 where the engine has none).
    Progress {
        states: u64,
        transitions: u64,
        #[serde(default)]
        queued: u64,
    },
    /// The child's own peak resident set so far (its `VmHWM`), said just
    /// before its report, so the last moments before it exits count too.
    Peak { rss_bytes: u64 },
    /// The run's report (any status the engine itself can tell).
    Report(engines::RunReport),
    /// The run could not start: a broken or unsupported model, bad options.
    Failed { status: String, message: String },
}

/// Peak resident set of a live process since its last `exec` (`VmHWM` of
/// `/proc/<pid>/status`; `pid` may be `self`), bytes; 0 if it cannot be
/// read (an exited process has none).
pub fn peak_rss(pid: &str) -> u64 {
    let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) else {
        return 0;
    };
    let kib = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok());
    kib.unwrap_or(0) * 1024
}

/// Called first thing in a child: dies with the parent, so that killing a
/// campaign never leaves an orphan exploring.
pub fn die_with_parent() {
    let Some(parent) = std::env::var("STATEBENCH_PARENT_PID")
        .ok()
        .and_then(|p| p.parse::<libc::pid_t>().ok())
    else {
        return;
    };
    // SAFETY: prctl(PR_SET_PDEATHSIG) takes plain integers and touches no memory.
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong);
    }
    // The parent may have died before prctl took effect.
    // SAFETY: getppid has no preconditions.
    if unsafe { libc::getppid() } != parent {
        std::process::exit(3);
    }
}
