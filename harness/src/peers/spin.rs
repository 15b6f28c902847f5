//! SPIN (Holzmann's model checker for Promela) as a peer engine: the
//! harness has SPIN generate its verifier for the model, compiles it with
//! one of SPIN's state-storage schemes, runs it under the campaign's limits
//! and fills the run's row from SPIN's own report.
//!
//! Owns the commands, flags and retries of a SPIN run and the mapping of
//! SPIN's figures to the CSV columns. Must not parse Promela (SPIN does),
//! nor define columns (`schema`), nor enforce limits itself (`isolate`).
//!
//! The commands, in a fresh temporary directory holding a copy of the model:
//!
//! 1. `spin -a model.pm`: writes the verifier `pan.c` (a Promela error here
//!    is a `model_error` row with SPIN's message).
//! 2. `gcc -O2 -DSAFETY -DNOREDUCE -DMEMLIM=<memory limit, MiB> <storage>
//!    -o pan pan.c`. `-DSAFETY`: a safety search (no cycle detection, the
//!    reachability search every statebench engine does); `-DNOREDUCE`:
//!    partial-order reduction off, so pan explores the full state space;
//!    `-DMEMLIM`: pan stops itself at the run's memory limit and still
//!    prints its counts. Storage: none (`spin`: SPIN's default, a hash
//!    table of byte-compressed vectors), `-DCOLLAPSE` (`spin-collapse`),
//!    `-DMA=<N>` (`spin-ma`: a minimised automaton over N-byte vectors;
//!    N is the model's state-vector size), `-DHC` (`spin-hc`: hash
//!    compaction, lossy). `-DVECTORSZ` is added when pan asks for it.
//! 3. `./pan -m<depth> -w<w> -A -E -c0 -n`. `-A`, `-E`: no assertion and
//!    no end-state checks, so no error stops or slows the search (the
//!    states stored are the same); `-c0`: never stop at an error anyway;
//!    `-n`: no unreached-code listing. `-w`: 2^w hash slots (SPIN chains,
//!    so any w is exact; default: the oracle's count rounded up to a power
//!    of two, else SPIN's 24). `-m`: the DFS stack bound; past it pan cuts
//!    the search ("max search depth too small"), so the run is repeated
//!    with ten times the depth while the stack (48 bytes a level) fits in
//!    half the memory limit. Default depth: twice the depth the manifest's
//!    SPIN oracle reached, else 10^7 (less if the memory limit is small).
//!
//! Column mapping: `states` = `states, stored`; `transitions` = SPIN's
//! `transitions` (executed steps, = stored + matched: not the same
//! definition as statebench's (state, enabled transition) pairs);
//! `engine_bytes_used` = `actual memory usage for states` (the state store:
//! compressed vectors and their overhead, COLLAPSE's component tables, the
//! automaton); `engine_bytes_alloc` = that plus `memory used for hash
//! table`; `time_s` = pan's `elapsed time`; `parse_time_s` = generating
//! and compiling the verifier; `wall_time_s` = the whole run (all
//! attempts); `rss_peak_bytes` = the verifier's peak resident set (which
//! includes the preallocated DFS stack). SPIN's other figures go to
//! `counters` (`spin_total_bytes` = `total actual memory usage`, ...).

use super::spin_report::{self, PanReport, Recompile};
use crate::datasets::Entry;
use crate::isolate::{self, ChildOutcome, Ending, Limits};
use crate::runner::{one_line, Planned, RunContext};
use crate::schema::{Row, Status};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// SPIN's state-storage schemes the peers use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Storage {
    /// SPIN's default: a chained hash table of byte-compressed vectors.
    Plain,
    /// `-DCOLLAPSE`: one table per process and for the globals, the state
    /// as the tuple of component indices.
    Collapse,
    /// `-DMA=N`: a minimised automaton (a DAG over the vector's bytes).
    MinimisedAutomaton,
    /// `-DHC`: hash compaction; may lose states.
    HashCompact,
}

impl Storage {
    fn name(self) -> &'static str {
        match self {
            Storage::Plain => "plain",
            Storage::Collapse => "collapse",
            Storage::MinimisedAutomaton => "ma",
            Storage::HashCompact => "hc",
        }
    }
}

/// Compiler flags of every SPIN verifier (before `-DMEMLIM` and storage).
pub const CFLAGS: &[&str] = &["-O2", "-DSAFETY", "-DNOREDUCE"];
/// Verifier flags of every run (after `-m` and `-w`).
pub const PAN_FLAGS: &[&str] = &["-A", "-E", "-c0", "-n"];
/// Bytes of pan's DFS stack per level of `-m` (SPIN 6.5's `Trail`).
const STACK_BYTES_PER_LEVEL: u64 = 48;
/// Runs of the verifier before giving up (recompilations and deeper stacks).
const MAX_ATTEMPTS: usize = 6;
const DEFAULT_DEPTH: u64 = 10_000_000;
const DEFAULT_W: u32 = 24;
/// `-DMA` when the manifest knows no state-vector size.
const DEFAULT_MA: u64 = 64;

/// Where SPIN and the C compiler are.
#[derive(Clone, Debug)]
pub struct Toolchain {
    pub spin: PathBuf,
    pub cc: PathBuf,
}

/// The first executable file `name` in the directories of `path` (a
/// `PATH`-style list).
pub fn find_program(name: &str, path: Option<&OsStr>) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    std::env::split_paths(path?)
        .map(|dir| dir.join(name))
        .find(|p| {
            p.metadata()
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
}

impl Toolchain {
    /// Finds `spin` and `gcc` in `path`; the error says what is missing.
    pub fn find(path: Option<&OsStr>) -> Result<Toolchain, String> {
        let spin = find_program("spin", path);
        let cc = find_program("gcc", path);
        match (spin, cc) {
            (Some(spin), Some(cc)) => Ok(Toolchain { spin, cc }),
            (spin, cc) => {
                let missing: Vec<&str> = [("spin", spin.is_none()), ("gcc", cc.is_none())]
                    .iter()
                    .filter(|(_, m)| *m)
                    .map(|(n, _)| *n)
                    .collect();
                Err(format!(
                    "{} not found in PATH (bash scripts/install-deps.sh installs them)",
                    missing.join(" and ")
                ))
            }
        }
    }
}

/// The settings of one SPIN run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub w: u32,
    pub depth: u64,
    pub ma: u64,
    pub vectorsz: Option<u64>,
}

/// A `key=value` figure of a manifest's `notes` (`a=1;b=2`).
fn note(entry: &Entry, key: &str) -> Option<u64> {
    entry
        .notes
        .split(';')
        .filter_map(|kv| kv.split_once('='))
        .find(|(k, _)| k.trim() == key)
        .and_then(|(_, v)| v.trim().parse().ok())
}

/// The run's settings: parameters first, then the manifest's hints (its
/// oracle count and its SPIN oracle's depth and vector size), then defaults,
/// bounded by the memory limit.
pub fn settings(
    storage: Storage,
    entry: &Entry,
    params: &[(String, String)],
    mem_limit_bytes: u64,
) -> Result<Settings, String> {
    let known: &[&str] = match storage {
        Storage::MinimisedAutomaton => &["depth", "ma"],
        _ => &["depth", "w"],
    };
    let mut w = None;
    let mut depth = None;
    let mut ma = None;
    for (k, v) in params {
        let bad = || format!("parameter {k}={v}: not a valid value");
        match k.as_str() {
            "w" if known.contains(&"w") => {
                w = Some(
                    v.parse::<u32>()
                        .ok()
                        .filter(|w| (4..=40).contains(w))
                        .ok_or_else(bad)?,
                )
            }
            "depth" => depth = Some(v.parse::<u64>().ok().filter(|d| *d > 0).ok_or_else(bad)?),
            "ma" if known.contains(&"ma") => {
                ma = Some(v.parse::<u64>().ok().filter(|m| *m > 1).ok_or_else(bad)?)
            }
            _ => return Err(format!("no parameter '{k}' (it has: {})", known.join(", "))),
        }
    }
    // 2^w slots of 8 bytes in at most a quarter of the memory.
    let max_w = (63 - (mem_limit_bytes / 4 / 8).max(1 << 10).leading_zeros()).min(32);
    let w = w.unwrap_or_else(|| match entry.oracle_states {
        Some(n) => (64 - n.max(1 << 10).saturating_sub(1).leading_zeros()).clamp(10, max_w),
        None => DEFAULT_W.min(max_w),
    });
    let depth = depth.unwrap_or_else(|| match note(entry, "spin_depth") {
        Some(d) => (2 * d + 1000).max(10_000),
        None => DEFAULT_DEPTH
            .min(mem_limit_bytes / 4 / STACK_BYTES_PER_LEVEL)
            .max(10_000),
    });
    let ma = ma
        .or_else(|| note(entry, "spin_vector_bytes"))
        .unwrap_or(DEFAULT_MA);
    Ok(Settings {
        w,
        depth,
        ma,
        vectorsz: None,
    })
}

/// The compiler's arguments for a storage scheme and settings.
pub fn compile_args(storage: Storage, s: &Settings, mem_limit_bytes: u64) -> Vec<String> {
    let mut args: Vec<String> = CFLAGS.iter().map(|f| f.to_string()).collect();
    args.push(format!("-DMEMLIM={}", (mem_limit_bytes >> 20).max(1)));
    match storage {
        Storage::Plain => {}
        Storage::Collapse => args.push("-DCOLLAPSE".into()),
        Storage::MinimisedAutomaton => args.push(format!("-DMA={}", s.ma)),
        Storage::HashCompact => args.push("-DHC".into()),
    }
    if let Some(v) = s.vectorsz {
        args.push(format!("-DVECTORSZ={v}"));
    }
    args.extend(["-o", "pan", "pan.c"].map(String::from));
    args
}

/// The verifier's arguments.
pub fn pan_args(s: &Settings) -> Vec<String> {
    let mut args = vec![format!("-m{}", s.depth), format!("-w{}", s.w)];
    args.extend(PAN_FLAGS.iter().map(|f| f.to_string()));
    args
}

/// The time left of the run's budget, or `None` when it is spent.
fn remaining(start: Instant, limits: Limits) -> Option<Limits> {
    let left = limits.timeout.checked_sub(start.elapsed())?;
    (left > Duration::ZERO).then_some(Limits {
        timeout: left,
        ..limits
    })
}

/// Runs one step (spin, gcc or pan) in `dir` under `limits`.
fn step(
    program: &Path,
    args: &[String],
    dir: &Path,
    limits: Limits,
) -> Result<ChildOutcome, String> {
    let mut cmd = Command::new(program);
    cmd.args(args).current_dir(dir);
    isolate::kill_with_parent(&mut cmd);
    isolate::run(cmd, limits, |_| {})
        .map_err(|e| format!("cannot start {}: {e}", program.display()))
}

/// What ended a step other than finishing: the row's status and message.
fn limit_hit(outcome: &ChildOutcome, what: &str, limits: Limits) -> Option<(Status, String)> {
    match outcome.ending {
        Ending::Timeout => Some((Status::Timeout, format!("timeout while {what}"))),
        Ending::MemoryLimit => Some((
            Status::MemoryLimit,
            format!(
                "resident set passed the memory limit of {} MiB while {what}",
                limits.mem_limit_bytes >> 20
            ),
        )),
        Ending::Signaled(sig) => Some((
            Status::Crashed,
            format!(
                "killed by signal {sig} while {what}: {}",
                one_line(&outcome.stderr_tail)
            ),
        )),
        Ending::Exited(_) => None,
    }
}

/// Why a SPIN run ended without its figures: the row's status and message.
type Failure = (Status, String);

/// Fills `row` with a SPIN run of `model` (a Promela file).
pub fn execute(
    storage: Storage,
    tools: &Toolchain,
    ctx: &RunContext,
    run: &Planned,
    params: &[(String, String)],
    model: &Path,
    row: &mut Row,
) {
    let start = Instant::now();
    let limits = ctx.limits;
    let s = match settings(storage, &run.entry, params, limits.mem_limit_bytes) {
        Ok(s) => s,
        Err(e) => {
            row.status = Status::Unsupported;
            row.message = format!("engine {}: {e}", run.engine);
            return;
        }
    };
    let attempt = Attempt {
        storage,
        tools,
        limits,
        start,
    };
    if let Err((status, message)) = attempt.verify(s, model, row) {
        row.status = status;
        row.message = one_line(&message);
        row.wall_time_s = start.elapsed().as_secs_f64();
    }
}

/// One SPIN run: its storage, tools and limits, and when it started (the
/// steps share the run's time limit).
struct Attempt<'a> {
    storage: Storage,
    tools: &'a Toolchain,
    limits: Limits,
    start: Instant,
}

/// What to do after a verifier run that asked for other settings.
enum Retry {
    /// Compile again with the new settings, then run the verifier.
    Recompile,
    /// Run the same verifier again with a deeper stack.
    Rerun,
}

impl Attempt<'_> {
    /// The limits of the run's time left, or the timeout when it is spent.
    fn left(&self) -> Result<Limits, Failure> {
        remaining(self.start, self.limits)
            .ok_or_else(|| (Status::Timeout, timeout_text(self.limits)))
    }

    /// Generates, compiles and runs the verifier in a fresh directory (again
    /// with other settings where pan asks for them) and fills `row` from
    /// its report.
    fn verify(&self, mut s: Settings, model: &Path, row: &mut Row) -> Result<(), Failure> {
        let crashed = |e: String| (Status::Crashed, e);
        let dir = tempfile::Builder::new()
            .prefix("statebench-spin-")
            .tempdir()
            .map_err(|e| crashed(format!("cannot create a work directory: {e}")))?;
        let local = dir.path().join("model.pm");
        if let Err(e) = std::fs::copy(model, &local) {
            return Err((Status::ModelError, format!("{}: {e}", model.display())));
        }
        let mut prepare_s = self.generate(dir.path(), model)?;
        let mut compiled = false;
        let mut notes: Vec<String> = Vec::new();
        for attempt in 1..=MAX_ATTEMPTS {
            if !compiled {
                prepare_s += self.compile(&s, dir.path())?;
                compiled = true;
            }
            let left = self.left()?;
            let out =
                step(&dir.path().join("pan"), &pan_args(&s), dir.path(), left).map_err(crashed)?;
            row.rss_peak_bytes = Some(out.rss_peak_bytes);
            row.parse_time_s = Some(prepare_s);
            if let Some((status, m)) = limit_hit(&out, "verifying", left) {
                let m = if status == Status::Timeout {
                    timeout_text(self.limits)
                } else {
                    m
                };
                return Err((status, m));
            }
            let report = spin_report::parse(&out.stdout_text)
                .map_err(|e| crashed(format!("{e} {}", one_line(&out.stderr_tail))))?;
            match self.retry(&mut s, &report, &mut notes) {
                Some(Retry::Recompile) => {
                    compiled = false;
                    continue;
                }
                Some(Retry::Rerun) => continue,
                None => {}
            }
            fill(row, self.storage, &s, &report, attempt);
            row.wall_time_s = self.start.elapsed().as_secs_f64();
            let (status, message) = verdict(&report, &s, self.limits, &out.stdout_text);
            row.status = status;
            let mut parts: Vec<String> = Vec::new();
            if !message.is_empty() {
                parts.push(message);
            }
            if self.storage == Storage::HashCompact {
                parts.push("lossy: hash compaction may lose states".into());
            }
            if report.rounded {
                parts.push("SPIN printed a count of 1e8 or more rounded to 8 digits".into());
            }
            parts.extend(notes);
            row.message = parts.join("; ");
            return Ok(());
        }
        Err(crashed(format!(
            "gave up after {MAX_ATTEMPTS} verifier runs: {}",
            notes.join("; ")
        )))
    }

    /// `spin -a`: writes the verifier `pan.c` into `dir`; returns the
    /// seconds it took.
    fn generate(&self, dir: &Path, model: &Path) -> Result<f64, Failure> {
        let t = Instant::now();
        let left = self.left()?;
        let out = step(
            &self.tools.spin,
            &["-a".into(), "model.pm".into()],
            dir,
            left,
        )
        .map_err(|e| (Status::Crashed, e))?;
        let seconds = t.elapsed().as_secs_f64();
        if let Some(hit) = limit_hit(&out, "generating the verifier (spin -a)", left) {
            return Err(hit);
        }
        if out.ending != Ending::Exited(0) || !dir.join("pan.c").is_file() {
            let text = one_line(&format!("{}\n{}", out.stdout_text, out.stderr_tail));
            let shown = model.display().to_string();
            return Err((
                Status::ModelError,
                format!("{shown}: spin -a: {}", text.replace("model.pm", &shown)),
            ));
        }
        Ok(seconds)
    }

    /// Compiles `pan.c` in `dir` with settings `s`; returns the seconds it
    /// took.
    fn compile(&self, s: &Settings, dir: &Path) -> Result<f64, Failure> {
        let left = self.left()?;
        let t = Instant::now();
        let args = compile_args(self.storage, s, self.limits.mem_limit_bytes);
        let out = step(&self.tools.cc, &args, dir, left).map_err(|e| (Status::Crashed, e))?;
        let seconds = t.elapsed().as_secs_f64();
        if let Some(hit) = limit_hit(&out, "compiling the verifier", left) {
            return Err(hit);
        }
        if out.ending != Ending::Exited(0) {
            return Err((
                Status::Crashed,
                format!(
                    "gcc {} failed: {}",
                    args.join(" "),
                    one_line(&out.stderr_tail)
                ),
            ));
        }
        Ok(seconds)
    }

    /// Whether pan's report asks for another verifier run: a larger `-DMA`
    /// or `-DVECTORSZ` (recompiled), or a deeper stack while it fits in
    /// half the memory limit; the new settings go into `s`, a note of them
    /// into `notes`.
    fn retry(
        &self,
        s: &mut Settings,
        report: &PanReport,
        notes: &mut Vec<String>,
    ) -> Option<Retry> {
        match report.recompile {
            Some(Recompile::MaTooSmall(n)) if self.storage == Storage::MinimisedAutomaton => {
                notes.push(format!(
                    "-DMA={} too small, recompiled with {}",
                    s.ma,
                    n + 1
                ));
                s.ma = n + 1;
                return Some(Retry::Recompile);
            }
            Some(Recompile::VectorTooSmall(n)) => {
                let v = (n + 1).max(2 * s.vectorsz.unwrap_or(1024));
                notes.push(format!("-DVECTORSZ raised to {v}"));
                s.vectorsz = Some(v);
                return Some(Retry::Recompile);
            }
            _ => {}
        }
        if report.depth_truncated && !report.out_of_memory {
            let deeper = s.depth.saturating_mul(10);
            if deeper.saturating_mul(STACK_BYTES_PER_LEVEL) <= self.limits.mem_limit_bytes / 2 {
                notes.push(format!("-m{} too small, rerun with -m{deeper}", s.depth));
                s.depth = deeper;
                return Some(Retry::Rerun);
            }
        }
        None
    }
}

/// The status of a verifier run that asks for nothing more, and what is
/// to be said of it (empty when it finished).
fn verdict(report: &PanReport, s: &Settings, limits: Limits, stdout: &str) -> (Status, String) {
    if report.out_of_memory {
        (
            Status::MemoryLimit,
            format!(
                "SPIN stopped at -DMEMLIM={} MiB (counts so far)",
                limits.mem_limit_bytes >> 20
            ),
        )
    } else if report.depth_truncated {
        (
            Status::MemoryLimit,
            format!("SPIN's DFS stack -m{} is too shallow and a deeper one does not fit in half the memory limit (counts so far)", s.depth),
        )
    } else if report.recompile.is_some() || report.not_completed {
        (
            Status::Crashed,
            format!("SPIN did not complete the search: {}", one_line(stdout)),
        )
    } else {
        (Status::Ok, String::new())
    }
}

fn timeout_text(limits: Limits) -> String {
    format!("timeout after {:.0} s", limits.timeout.as_secs_f64())
}

/// SPIN's figures into the row (see the module doc for the mapping).
fn fill(row: &mut Row, storage: Storage, s: &Settings, r: &PanReport, attempts: usize) {
    row.states = Some(r.states_stored);
    row.transitions = r.transitions;
    row.time_s = if r.out_of_memory { None } else { r.elapsed_s };
    row.engine_bytes_used = r.actual_state_bytes;
    row.engine_bytes_alloc = r
        .actual_state_bytes
        .map(|b| b + r.hash_table_bytes.unwrap_or(0));
    let mut params = format!("storage={};depth={}", storage.name(), s.depth);
    if storage == Storage::MinimisedAutomaton {
        params.push_str(&format!(";ma={}", s.ma));
    } else {
        params.push_str(&format!(";w={}", s.w));
    }
    if let Some(v) = s.vectorsz {
        params.push_str(&format!(";vectorsz={v}"));
    }
    row.engine_params = params;
    let mut counters = vec![format!("spin_runs={attempts}")];
    let mut put = |name: &str, v: Option<u64>| {
        if let Some(v) = v {
            counters.push(format!("{name}={v}"));
        }
    };
    put("spin_vector_bytes", r.vector_bytes);
    put("spin_depth", r.depth_reached);
    put("spin_matched", r.states_matched);
    put("spin_atomic_steps", r.atomic_steps);
    put("spin_hash_conflicts", r.hash_conflicts);
    put("spin_equivalent_bytes", r.equivalent_state_bytes);
    put("spin_hash_table_bytes", r.hash_table_bytes);
    put("spin_dfs_stack_bytes", r.dfs_stack_bytes);
    put("spin_other_bytes", r.other_bytes);
    put("spin_total_bytes", r.total_bytes);
    put("spin_ma_sufficient", r.ma_sufficient);
    put("spin_ma_nodes", r.ma_nodes);
    put("spin_ma_edges", r.ma_edges);
    row.counters = counters.join(";");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(notes: &str, oracle: Option<u64>) -> Entry {
        let mut e = crate::datasets::parse_manifest(
            "t",
            "instance,model,formalism,path,source_url,sha256,oracle_states,oracle_transitions,complete,notes\n\
             x,x,promela,x.pm,,,,,yes,\n",
        )
        .unwrap()
        .remove(0);
        e.notes = notes.into();
        e.oracle_states = oracle;
        e
    }

    #[test]
    fn missing_tools_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let err = Toolchain::find(Some(dir.path().as_os_str())).unwrap_err();
        assert!(err.contains("spin and gcc not found"), "{err}");
        assert!(Toolchain::find(None).is_err());
    }

    #[test]
    fn settings_come_from_parameters_then_manifest_hints_then_defaults() {
        let gib = 1u64 << 30;
        let hinted = entry("spin_depth=5000;spin_vector_bytes=52", Some(100_000));
        let s = settings(Storage::Plain, &hinted, &[], 8 * gib).unwrap();
        assert_eq!((s.w, s.depth), (17, 11_000), "2^17 >= 100000; 2*5000+1000");
        let s = settings(Storage::MinimisedAutomaton, &hinted, &[], 8 * gib).unwrap();
        assert_eq!(s.ma, 52);
        let bare = entry("", None);
        let s = settings(Storage::Collapse, &bare, &[], 8 * gib).unwrap();
        assert_eq!((s.w, s.depth), (DEFAULT_W, DEFAULT_DEPTH));
        let small = settings(Storage::Plain, &bare, &[], 64 << 20).unwrap();
        assert!(small.depth * STACK_BYTES_PER_LEVEL <= 16 << 20);
        assert!(8u64 << small.w <= 16 << 20);
        let p = |k: &str, v: &str| vec![(k.to_string(), v.to_string())];
        let s = settings(Storage::Plain, &hinted, &p("w", "20"), 8 * gib).unwrap();
        assert_eq!(s.w, 20);
        assert!(settings(Storage::Plain, &bare, &p("ma", "8"), gib)
            .unwrap_err()
            .contains("no parameter 'ma'"));
        assert!(settings(Storage::MinimisedAutomaton, &bare, &p("w", "8"), gib).is_err());
        assert!(settings(Storage::Plain, &bare, &p("depth", "x"), gib).is_err());
    }

    #[test]
    fn commands_carry_the_documented_flags() {
        let s = Settings {
            w: 20,
            depth: 1000,
            ma: 36,
            vectorsz: Some(2048),
        };
        let cc = compile_args(Storage::MinimisedAutomaton, &s, 2 << 30).join(" ");
        assert_eq!(
            cc,
            "-O2 -DSAFETY -DNOREDUCE -DMEMLIM=2048 -DMA=36 -DVECTORSZ=2048 -o pan pan.c"
        );
        assert!(compile_args(Storage::Collapse, &s, 1 << 30).contains(&"-DCOLLAPSE".to_string()));
        assert!(compile_args(Storage::HashCompact, &s, 1 << 30).contains(&"-DHC".to_string()));
        assert_eq!(pan_args(&s).join(" "), "-m1000 -w20 -A -E -c0 -n");
    }
}
