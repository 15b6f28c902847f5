//! Runs one measurement in a fresh child process under a wall-clock limit
//! and a memory limit, and reads the child's peak resident set from the OS.
//!
//! Owns spawning, limit enforcement (the parent polls the child's peak RSS
//! and kills it with SIGKILL past the limit or the timeout), reaping with
//! `wait4`, and the reading of the line protocol by which a child reports
//! (one JSON [`ChildMessage`] per stdout line, defined in the library's
//! `protocol`; other lines are kept as text, for peers such as SPIN's
//! verifier that print their own report).
//! Must not know models, engines or CSV. Linux only (reads `/proc`).

pub use statebench_child::protocol::{peak_rss, ChildMessage};
use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Limits of one child run.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub timeout: Duration,
    pub mem_limit_bytes: u64,
}

/// How the child ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Exited by itself with this code.
    Exited(i32),
    /// Killed by a signal it did not get from us.
    Signaled(i32),
    /// Killed by us at the timeout.
    Timeout,
    /// Killed by us when its RSS passed the memory limit.
    MemoryLimit,
}

/// Everything the parent learnt from one child.
#[derive(Clone, Debug)]
pub struct ChildOutcome {
    pub ending: Ending,
    /// Peak RSS in bytes of the program the child runs: the largest `VmHWM`
    /// the parent polled or the child said ([`ChildMessage::Peak`]). Not the
    /// kernel's `ru_maxrss`: at `exec` it takes the high-water mark of the
    /// memory the child had before, which after `fork` or `vfork` is the
    /// parent's (a child of a 200 MiB parent reports 200 MiB). Only a child
    /// that ends before the first poll and says nothing gets `ru_maxrss`.
    pub rss_peak_bytes: u64,
    pub wall_time_s: f64,
    pub messages: Vec<ChildMessage>,
    /// The last lines the child wrote to stderr.
    pub stderr_tail: String,
    /// The last [`TEXT_LINES`] stdout lines that were not protocol messages.
    pub stdout_text: String,
}

/// How many non-protocol stdout lines a [`ChildOutcome`] keeps.
pub const TEXT_LINES: usize = 1000;

const POLL: Duration = Duration::from_millis(20);

/// Runs `program args` as a child, calling `on_message` for each message as
/// it arrives, and enforcing `limits`.
pub fn run(
    mut command: Command,
    limits: Limits,
    mut on_message: impl FnMut(&ChildMessage),
) -> std::io::Result<ChildOutcome> {
    let start = Instant::now();
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env("STATEBENCH_PARENT_PID", std::process::id().to_string());
    let mut child = command.spawn()?;
    let pid = child.id() as libc::pid_t;
    let stdout = child.stdout.take().expect("piped stdout");
    let mut stderr = child.stderr.take().expect("piped stderr");

    let (tx, rx) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut text = std::collections::VecDeque::new();
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            match serde_json::from_str::<ChildMessage>(&line) {
                Ok(msg) => {
                    if tx.send(msg).is_err() {
                        break;
                    }
                }
                Err(_) => {
                    if text.len() == TEXT_LINES {
                        text.pop_front();
                    }
                    text.push_back(line);
                }
            }
        }
        Vec::from(text).join("\n")
    });
    let err_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = stderr.read_to_end(&mut buf);
        let text = String::from_utf8_lossy(&buf);
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(20)..].join("\n")
    });

    let mut messages: Vec<ChildMessage> = Vec::new();
    let mut polled_peak = 0u64;
    let mut killed: Option<Ending> = None;
    let (status, rusage) = loop {
        while let Ok(msg) = rx.try_recv() {
            on_message(&msg);
            messages.push(msg);
        }
        if let Some(done) = try_reap(pid, killed.is_some())? {
            break done;
        }
        if killed.is_none() {
            polled_peak = polled_peak.max(peak_rss(&pid.to_string()));
            if crate::interrupt::requested() {
                // Ctrl-C: the campaign stops and keeps no row of this run.
                kill(pid);
                killed = Some(Ending::Signaled(libc::SIGINT));
            } else if polled_peak > limits.mem_limit_bytes {
                kill(pid);
                killed = Some(Ending::MemoryLimit);
            } else if start.elapsed() > limits.timeout {
                kill(pid);
                killed = Some(Ending::Timeout);
            }
        }
        std::thread::sleep(POLL);
    };
    let stdout_text = reader.join().unwrap_or_default();
    while let Ok(msg) = rx.try_recv() {
        on_message(&msg);
        messages.push(msg);
    }
    let stderr_tail = err_reader.join().unwrap_or_default();
    let ending = match killed {
        Some(e) => e,
        None if libc::WIFEXITED(status) => Ending::Exited(libc::WEXITSTATUS(status)),
        None if libc::WIFSIGNALED(status) => Ending::Signaled(libc::WTERMSIG(status)),
        None => Ending::Exited(-1),
    };
    let said_peak = messages.iter().map(|m| match m {
        ChildMessage::Peak { rss_bytes } => *rss_bytes,
        _ => 0,
    });
    let peak = said_peak.fold(polled_peak, u64::max);
    Ok(ChildOutcome {
        ending,
        rss_peak_bytes: if peak > 0 {
            peak
        } else {
            rusage.ru_maxrss.max(0) as u64 * 1024
        },
        wall_time_s: start.elapsed().as_secs_f64(),
        messages,
        stderr_tail,
        stdout_text,
    })
}

/// Reaps the child if it has ended (`block`: wait for it).
fn try_reap(pid: libc::pid_t, block: bool) -> std::io::Result<Option<(i32, libc::rusage)>> {
    let mut status = 0;
    // SAFETY: all-zero bytes are a valid `rusage` (plain integers and timevals).
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let flags = if block { 0 } else { libc::WNOHANG };
    loop {
        // SAFETY: `pid` is our own unreaped child (std's `Child` never waits
        // for it: we never call its wait methods); `status` and `usage` are
        // valid, exclusively borrowed out-pointers for the call's duration.
        let r = unsafe { libc::wait4(pid, &mut status, flags, &mut usage) };
        match r {
            0 => return Ok(None),
            r if r == pid => return Ok(Some((status, usage))),
            _ => {
                let err = std::io::Error::last_os_error();
                if err.kind() != std::io::ErrorKind::Interrupted {
                    return Err(err);
                }
            }
        }
    }
}

fn kill(pid: libc::pid_t) {
    // SAFETY: sending a signal has no memory-safety preconditions; `pid` is
    // our unreaped child, so the id cannot have been reused by another process.
    unsafe {
        libc::kill(pid, libc::SIGKILL);
    }
}

/// Makes a command's process receive SIGKILL when this process dies, for
/// children that cannot call `protocol::die_with_parent` themselves (a peer's
/// verifier binary), so that killing a campaign leaves no orphan.
pub fn kill_with_parent(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: the closure runs in the forked child before exec, where only
    // async-signal-safe calls are allowed: prctl is a plain system call; it
    // allocates nothing and touches no memory.
    unsafe {
        command.pre_exec(|| {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong);
            Ok(())
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Command {
        let mut c = Command::new("sh");
        c.arg("-c").arg(script);
        c
    }

    const GENEROUS: Limits = Limits {
        timeout: Duration::from_secs(60),
        mem_limit_bytes: 1 << 40,
    };

    #[test]
    fn messages_arrive_in_order_and_exit_code_is_kept() {
        let script = r#"echo '{"progress":{"states":1,"transitions":2}}'; echo 'not json'; echo '{"failed":{"status":"model_error","message":"m"}}'; echo oops >&2; exit 2"#;
        let mut seen = 0;
        let out = run(sh(script), GENEROUS, |_| seen += 1).unwrap();
        assert_eq!(out.ending, Ending::Exited(2));
        assert_eq!(seen, 2);
        assert!(matches!(
            out.messages[0],
            ChildMessage::Progress { states: 1, .. }
        ));
        assert!(matches!(out.messages[1], ChildMessage::Failed { .. }));
        assert_eq!(out.stderr_tail, "oops");
        assert_eq!(out.stdout_text, "not json");
    }

    #[test]
    fn timeout_kills_the_child() {
        let limits = Limits {
            timeout: Duration::from_millis(300),
            ..GENEROUS
        };
        let out = run(sh("exec sleep 30"), limits, |_| {}).unwrap();
        assert_eq!(out.ending, Ending::Timeout);
        assert!(out.wall_time_s < 10.0);
    }

    #[test]
    fn memory_limit_kills_the_child_and_peak_rss_is_measured() {
        // python3 holds 300 MB resident; the limit is 100 MB.
        let limits = Limits {
            timeout: Duration::from_secs(60),
            mem_limit_bytes: 100 << 20,
        };
        let script =
            "exec python3 -c 'import time; b = bytearray(300 * 1024 * 1024); time.sleep(30)'";
        let out = run(sh(script), limits, |_| {}).unwrap();
        assert_eq!(out.ending, Ending::MemoryLimit);
        assert!(
            out.rss_peak_bytes > 100 << 20,
            "peak {}",
            out.rss_peak_bytes
        );
    }

    #[test]
    fn peak_rss_of_a_finished_child_is_its_high_water_mark() {
        let script = "exec python3 -c 'import time; b = bytearray(200 * 1024 * 1024); del b; time.sleep(0.3)'";
        let out = run(sh(script), GENEROUS, |_| {}).unwrap();
        assert_eq!(out.ending, Ending::Exited(0));
        assert!(
            out.rss_peak_bytes >= 200 << 20,
            "peak {}",
            out.rss_peak_bytes
        );
    }

    #[test]
    fn the_parents_memory_is_not_the_childs() {
        // 256 MiB resident here; the child (a shell, then sleep) holds a few.
        let held = vec![1u8; 256 << 20];
        let out = run(sh("exec sleep 0.3"), GENEROUS, |_| {}).unwrap();
        assert!(held.iter().step_by(4096).all(|&b| b == 1));
        assert_eq!(out.ending, Ending::Exited(0));
        assert!(out.rss_peak_bytes < 64 << 20, "peak {}", out.rss_peak_bytes);
    }

    #[test]
    fn a_child_says_its_peak() {
        let script = r#"echo '{"peak":{"rss_bytes":987654321}}'; sleep 0.1"#;
        let out = run(sh(script), GENEROUS, |_| {}).unwrap();
        assert_eq!(out.rss_peak_bytes, 987654321);
    }

    #[test]
    fn signals_are_told_apart_from_our_kills() {
        let out = run(sh("kill -SEGV $$"), GENEROUS, |_| {}).unwrap();
        assert_eq!(out.ending, Ending::Signaled(libc::SIGSEGV));
    }
}
