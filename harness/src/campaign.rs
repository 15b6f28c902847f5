//! `statebench run`: a campaign is the product of selected model instances,
//! engines, thread counts and repetitions (`--repetitions`, numbered in the
//! `repetition` column), possibly one shard of it (`--shard`, rule in
//! `shard`), each run in its own child process, one CSV row per run
//! appended and flushed as it finishes, `--resume` skipping rows already
//! present, a live progress display, and a summary and the report
//! (`report`) at the end.
//!
//! Owns model selection, the plan, the turning of a child's outcome into a
//! [`Row`], and the campaign directory. The CSV columns themselves live in
//! `schema`, the process mechanics in `isolate`.

use crate::datasets::{self, Entry, ModelSource};
use crate::isolate::{self, ChildMessage, Ending, Limits};
use crate::machine::Machine;
use crate::schema::{read_rows, Row, RowWriter, RunKey, Status};
use crate::shard::{self, Shard};
use crate::summary;
use anyhow::{bail, Context as _};
use globset::{Glob, GlobSetBuilder};
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// Share of the memory limit an engine's tables may take; the rest is for
/// the model, the search queue and the process itself.
const ENGINE_SHARE: f64 = 0.7;

/// Model selection, shared by `run` and `list`.
#[derive(Clone, Debug, clap::Args, serde::Serialize, serde::Deserialize)]
pub struct Selection {
    /// Suites to run, comma-separated (see `statebench list`).
    #[arg(long, value_delimiter = ',', default_value = "builtin")]
    pub suite: Vec<String>,
    /// Only instances whose name matches one of these globs (comma-separated).
    #[arg(long, value_delimiter = ',')]
    pub models: Vec<String>,
    /// Only instances whose oracle state count is at least this (e.g. 1e5).
    #[arg(long, value_parser = parse_count)]
    pub min_states: Option<u64>,
    /// Only instances whose oracle state count is at most this (e.g. 1e7);
    /// instances whose oracle is only a lower bound are left out.
    #[arg(long, value_parser = parse_count)]
    pub max_states: Option<u64>,
}

/// Options of `statebench run`.
#[derive(Clone, Debug, clap::Args)]
pub struct RunArgs {
    #[command(flatten)]
    pub selection: Selection,
    /// Engines, comma-separated (see `statebench list`); `all` is every
    /// statebench engine (not the peers such as `spin`: name them).
    #[arg(long, value_delimiter = ',', default_value = "all")]
    pub engines: Vec<String>,
    /// Engine parameter, `ENGINE.key=value`; repeatable.
    #[arg(long = "param")]
    pub params: Vec<String>,
    /// Parameter sweep, `ENGINE.key=v1,v2,...`; repeatable: the engine runs
    /// once per value (per combination, over several sweeps of one engine),
    /// each configuration its own row, so variants are compared within one
    /// campaign. The first values form the engine's first configuration.
    #[arg(long = "sweep")]
    pub sweeps: Vec<String>,
    /// With --sweep: an engine's later configurations run only on the
    /// instances (and thread counts, repetitions) where its first
    /// configuration finished; elsewhere they get no row. Saves the limit's
    /// worth of time per instance the first configuration could not finish,
    /// when later ones are not expected to either.
    #[arg(long, requires = "sweeps")]
    pub sweep_where_first_finished: bool,
    /// With several --threads: the later thread counts run only on the
    /// instances (and configurations, repetitions) where the first thread
    /// count finished; elsewhere they get no row (there is nothing to
    /// compare them with, and no speedup).
    #[arg(long)]
    pub threads_where_first_finished: bool,
    /// With several engines: the later engines do not run on the instances
    /// (and thread counts, repetitions) where the first engine of
    /// --engines, in its first configuration, reached the --timeout; they
    /// get no row there. Name the fastest engine first: where it runs out
    /// of time, the slower ones are not tried (a limit's worth of time
    /// saved per engine on instances too large for all of them). Where it
    /// runs out of memory, the others still run.
    #[arg(long)]
    pub engines_where_first_finished: bool,
    /// Wall-clock limit per run, seconds.
    #[arg(long, default_value_t = 180.0, value_parser = parse_seconds)]
    pub timeout: f64,
    /// Memory limit per run, GiB (default: 16 or 80% of RAM, the smaller).
    #[arg(long)]
    pub mem_limit: Option<f64>,
    /// Campaign name; the CSV is RESULTS/CAMPAIGN/runs.csv.
    #[arg(long)]
    pub campaign: Option<String>,
    /// Directory holding campaigns.
    #[arg(long, default_value = "results")]
    pub results: PathBuf,
    /// Continue a campaign: skip runs already in its CSV (the latest
    /// campaign under RESULTS when --campaign is not given).
    #[arg(long)]
    pub resume: bool,
    /// Do not write the campaign's report (report.html, report.md and
    /// figures/ beside runs.csv) at the end.
    #[arg(long)]
    pub no_report: bool,
    /// Worker threads, comma-separated: one run (row) per count, e.g.
    /// `1,2,4`. An engine without a concurrent form reports `unsupported`
    /// for counts above 1.
    #[arg(long, value_delimiter = ',', default_value = "1")]
    pub threads: Vec<u32>,
    /// Thread counts 1, 2, 4, ... up to the machine's cores (and the core
    /// count itself); overrides --threads.
    #[arg(long)]
    pub scaling: bool,
    /// Runs per model, engine, configuration and thread count, numbered
    /// 0..N-1 in the `repetition` column (`statebench compare` takes the
    /// median of the noisy figures over them); run in rounds, the whole
    /// campaign once per repetition.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub repetitions: u32,
    /// Run only shard I of N (1 <= I <= N) of the campaign: the selected
    /// instances dealt round-robin, every engine, thread count and
    /// repetition of an instance in the same shard. `statebench merge`
    /// joins the shards' CSVs.
    #[arg(long, value_name = "I/N", value_parser = shard::parse)]
    pub shard: Option<Shard>,
}

/// The thread counts of `--scaling` on a machine with `cores` cores.
pub fn scaling_threads(cores: u32) -> Vec<u32> {
    let cores = cores.max(1);
    let mut out: Vec<u32> = std::iter::successors(Some(1u32), |&t| t.checked_mul(2))
        .take_while(|&t| t <= cores)
        .collect();
    if out.last() != Some(&cores) {
        out.push(cores);
    }
    out
}

/// Parses counts like `1e7`, `250000`, `2.5e6`.
pub fn parse_count(text: &str) -> Result<u64, String> {
    let v: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number (e.g. 1e7)"))?;
    if !(v >= 0.0 && v.is_finite()) {
        return Err(format!("'{text}' must be a non-negative number"));
    }
    Ok(v.round() as u64)
}

/// The longest limit a duration option takes, seconds (ten years): far
/// beyond any run, and well within what a clock can add.
pub const MAX_SECONDS: f64 = 10.0 * 365.0 * 24.0 * 3600.0;

/// Parses a duration in seconds (`--timeout`): a finite number above 0 and
/// at most [`MAX_SECONDS`], so `0`, `nan`, `inf` and `1e300` are refused.
pub fn parse_seconds(text: &str) -> Result<f64, String> {
    let v: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds (e.g. 180 or 0.5)"))?;
    check_seconds(v).map_err(|e| format!("'{text}' {e}"))
}

fn check_seconds(v: f64) -> Result<f64, String> {
    if !(v > 0.0 && v <= MAX_SECONDS) {
        return Err(format!(
            "must be a number of seconds above 0 and at most {MAX_SECONDS:.0} (ten years)"
        ));
    }
    Ok(v)
}

/// The entries a selection picks, suites in the order given, each suite's
/// instances by increasing oracle count (unknown last), then name.
pub fn select(sel: &Selection) -> anyhow::Result<Vec<Entry>> {
    let all = datasets::suites();
    let mut globs = GlobSetBuilder::new();
    for g in &sel.models {
        globs.add(Glob::new(g).with_context(|| format!("--models: bad glob '{g}'"))?);
    }
    let globs = globs.build()?;
    let mut out = Vec::new();
    for name in &sel.suite {
        let Some(suite) = all.iter().find(|s| s.name == name) else {
            let known: Vec<_> = all.iter().map(|s| s.name).collect();
            bail!("unknown suite '{name}' (known: {})", known.join(", "));
        };
        let mut entries: Vec<Entry> = suite
            .entries
            .iter()
            .filter(|e| sel.models.is_empty() || globs.is_match(&e.instance))
            .filter(|e| match (sel.min_states, e.oracle_states) {
                (Some(min), Some(s)) => s >= min,
                (Some(_), None) => false,
                (None, _) => true,
            })
            .filter(|e| match (sel.max_states, e.oracle_states) {
                // A lower bound says nothing about an upper limit.
                (Some(max), Some(s)) => s <= max && e.complete != "no",
                (Some(_), None) => false,
                (None, _) => true,
            })
            .cloned()
            .collect();
        entries.sort_by(|a, b| {
            (a.oracle_states.is_none(), a.oracle_states, &a.instance).cmp(&(
                b.oracle_states.is_none(),
                b.oracle_states,
                &b.instance,
            ))
        });
        out.extend(entries);
    }
    Ok(out)
}

/// One run of a campaign.
#[derive(Clone, Debug)]
pub struct Planned {
    pub entry: Entry,
    pub engine: String,
    /// Requested engine parameters, `key=value;...`.
    pub engine_config: String,
    pub threads: u32,
    pub repetition: u32,
}

impl Planned {
    fn key(&self) -> RunKey {
        RunKey {
            suite: self.entry.suite.clone(),
            instance: self.entry.instance.clone(),
            engine: self.engine.clone(),
            engine_config: self.engine_config.clone(),
            threads: self.threads,
            repetition: self.repetition,
        }
    }
}

/// Settings shared by every run of a campaign.
pub struct RunContext {
    pub campaign: String,
    pub machine: Machine,
    pub limits: Limits,
}

/// Default memory limit, bytes: 16 GiB or 80% of RAM, the smaller.
pub fn default_mem_limit(machine: &Machine) -> u64 {
    (16u64 << 30).min(machine.mem_total_bytes / 10 * 8)
}

pub fn gib(v: f64) -> anyhow::Result<u64> {
    if !(v > 0.0 && v.is_finite()) {
        bail!("--mem-limit must be a positive number of GiB");
    }
    Ok((v * (1u64 << 30) as f64) as u64)
}

fn now_rfc3339() -> String {
    humantime::format_rfc3339_seconds(SystemTime::now()).to_string()
}

/// The message of a run stopped at a limit: what stopped it and the last
/// progress figures, with the explicit explorer's open set (states and the
/// bytes of their `k`-slot vectors), which the engine's own figures leave out.
fn limit_message(what: &str, progress: Option<(u64, u64, u64)>, k: Option<u64>) -> String {
    match progress {
        Some((s, t, 0)) => format!("{what} ({s} states, {t} transitions explored so far)"),
        Some((s, t, q)) => {
            let queue = match k {
                Some(k) => format!(
                    "; {q} states queued, {:.2} GiB of vectors",
                    (q * k * std::mem::size_of::<pins::Value>() as u64) as f64
                        / (1u64 << 30) as f64
                ),
                None => format!("; {q} states queued"),
            };
            format!("{what} ({s} states, {t} transitions explored so far{queue})")
        }
        None => what.to_string(),
    }
}

fn one_line(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" | ")
}

/// A row with everything known before the run.
fn base_row(ctx: &RunContext, run: &Planned) -> Row {
    let m = &ctx.machine;
    let e = &run.entry;
    Row {
        campaign: ctx.campaign.clone(),
        timestamp: now_rfc3339(),
        git_commit: m.git_commit.clone(),
        host: m.host.clone(),
        cpu_model: m.cpu_model.clone(),
        cores: m.cores,
        mem_total_bytes: m.mem_total_bytes,
        os: m.os.clone(),
        suite: e.suite.clone(),
        formalism: e.formalism.clone(),
        model: e.model.clone(),
        instance: e.instance.clone(),
        k: None,
        groups: None,
        engine: run.engine.clone(),
        engine_config: run.engine_config.clone(),
        engine_params: String::new(),
        threads: run.threads,
        repetition: run.repetition,
        timeout_s: ctx.limits.timeout.as_secs_f64(),
        mem_limit_bytes: ctx.limits.mem_limit_bytes,
        status: Status::Crashed,
        message: String::new(),
        states: None,
        transitions: None,
        oracle_states: e.oracle_states,
        oracle_transitions: e.oracle_transitions,
        oracle_complete: e.oracle_states.map(|_| e.complete != "no"),
        states_match: None,
        transitions_match: None,
        levels: None,
        time_s: None,
        parse_time_s: None,
        wall_time_s: 0.0,
        states_per_s: None,
        engine_bytes_used: None,
        engine_bytes_alloc: None,
        bits_per_state: None,
        bits_per_state_alloc: None,
        rss_peak_bytes: None,
        dd_final_nodes: None,
        dd_peak_nodes: None,
        max_slot_bits: None,
        locality_bound_bits: None,
        speedup: None,
        counters: String::new(),
        op_latency_p50_ns: None,
        op_latency_p99_ns: None,
        op_latency_p999_ns: None,
        universe_log2: None,
        combinatorial_bound_bits: None,
        bits_per_state_rss: None,
        speedup_concurrent: None,
    }
}

/// Runs one planned run in a child and returns its row. `source` is the
/// resolved and verified model, or why it could not be.
pub fn execute(
    ctx: &RunContext,
    run: &Planned,
    source: Result<&ModelSource, &str>,
    mut on_progress: impl FnMut(u64),
) -> Row {
    let mut row = base_row(ctx, run);
    let source = match source {
        Ok(s) => s,
        Err(message) => {
            row.status = Status::ModelError;
            row.message = one_line(message);
            row.derive();
            return row;
        }
    };
    if let Some(peer) = crate::peers::find(&run.engine) {
        let path = std::env::var_os("PATH");
        crate::peers::execute(peer, ctx, run, source, path.as_deref(), &mut row);
        if row.status == Status::Ok && run.threads == 1 {
            row.speedup = Some(1.0);
        }
        row.derive();
        return row;
    }
    let exe = match std::env::current_exe() {
        Ok(exe) => exe,
        Err(e) => {
            row.message = format!("cannot find the statebench executable: {e}");
            return row;
        }
    };
    let path = std::env::var_os("PATH");
    let (mut cmd, placement) = crate::numa::command(
        &exe,
        run.threads,
        crate::numa::machine_nodes(),
        path.as_deref(),
    );
    cmd.arg("child")
        .arg("--model")
        .arg(source.to_arg())
        .arg("--engine")
        .arg(&run.engine)
        .arg("--params")
        .arg(&run.engine_config)
        .arg("--mem-budget")
        .arg(((ctx.limits.mem_limit_bytes as f64 * ENGINE_SHARE) as u64).to_string())
        .arg("--threads")
        .arg(run.threads.to_string());
    let outcome = match isolate::run(cmd, ctx.limits, |msg| {
        if let ChildMessage::Progress { states, .. } = msg {
            on_progress(*states)
        }
    }) {
        Ok(o) => o,
        Err(e) => {
            row.message = format!("cannot start the child process: {e}");
            return row;
        }
    };
    row.wall_time_s = outcome.wall_time_s;
    row.rss_peak_bytes = Some(outcome.rss_peak_bytes);
    let mut reported = false;
    let mut progress_states = None;
    for msg in &outcome.messages {
        match msg {
            ChildMessage::Loaded {
                k,
                groups,
                parse_time_s,
            } => {
                row.k = Some(*k);
                row.groups = Some(*groups);
                row.parse_time_s = Some(*parse_time_s);
            }
            ChildMessage::Configured { engine_params } => {
                row.engine_params = engine_params.clone();
            }
            ChildMessage::Progress {
                states,
                transitions,
                queued,
            } => progress_states = Some((*states, *transitions, *queued)),
            ChildMessage::Report(r) => {
                reported = true;
                row.status = match r.status {
                    engines::RunStatus::Ok => Status::Ok,
                    engines::RunStatus::TableFull => Status::TableFull,
                    // A construct the front-end does not handle, met while
                    // exploring (`pins::ModelError::unsupported`).
                    engines::RunStatus::ModelError
                        if r.message.starts_with(pins::UNSUPPORTED_PREFIX) =>
                    {
                        Status::Unsupported
                    }
                    engines::RunStatus::ModelError => Status::ModelError,
                };
                let message = r.message.strip_prefix(pins::UNSUPPORTED_PREFIX);
                row.message = one_line(message.unwrap_or(&r.message));
                row.states = Some(r.states);
                row.transitions = Some(r.transitions);
                row.levels = r.levels;
                row.time_s = Some(r.explore_time_s);
                row.engine_bytes_used = Some(r.engine_bytes_used);
                row.engine_bytes_alloc = Some(r.engine_bytes_alloc);
                row.engine_params = r.engine_params.clone();
                row.dd_final_nodes = r.dd_final_nodes;
                row.dd_peak_nodes = r.dd_peak_nodes;
                row.max_slot_bits = Some(r.max_slot_bits);
                row.universe_log2 = r.universe_log2;
                row.op_latency_p50_ns = r.op_latency.map(|l| l.p50_ns);
                row.op_latency_p99_ns = r.op_latency.map(|l| l.p99_ns);
                row.op_latency_p999_ns = r.op_latency.map(|l| l.p999_ns);
                row.counters = r
                    .counters
                    .iter()
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect::<Vec<_>>()
                    .join(";");
                if run.threads > 1 {
                    if !row.counters.is_empty() {
                        row.counters.push(';');
                    }
                    row.counters.push_str(&placement.counters());
                }
            }
            ChildMessage::Failed { status, message } => {
                reported = true;
                row.status = match status.as_str() {
                    "unsupported" => Status::Unsupported,
                    _ => Status::ModelError,
                };
                row.message = one_line(message);
            }
        }
    }
    let k = row.k;
    let limit_text = |what: &str| limit_message(what, progress_states, k);
    match outcome.ending {
        Ending::Timeout => {
            row.status = Status::Timeout;
            row.message = limit_text(&format!(
                "timeout after {:.0} s",
                ctx.limits.timeout.as_secs_f64()
            ));
            row.states = progress_states.map(|p| p.0);
            row.transitions = progress_states.map(|p| p.1);
        }
        Ending::MemoryLimit => {
            row.status = Status::MemoryLimit;
            row.message = limit_text(&format!(
                "resident set passed the memory limit of {} MiB",
                ctx.limits.mem_limit_bytes >> 20
            ));
            row.states = progress_states.map(|p| p.0);
            row.transitions = progress_states.map(|p| p.1);
        }
        Ending::Signaled(sig) => {
            row.status = Status::Crashed;
            row.message = one_line(&format!("killed by signal {sig}: {}", outcome.stderr_tail));
        }
        Ending::Exited(code) if !reported => {
            row.status = Status::Crashed;
            row.message = one_line(&format!(
                "exited with code {code} and no report: {}",
                outcome.stderr_tail
            ));
        }
        Ending::Exited(_) => {}
    }
    if row.status == Status::Ok && run.threads == 1 {
        row.speedup = Some(1.0);
    }
    row.derive();
    row
}

/// The row's speedup: exploration time of the 1-thread row of the same
/// model, engine, configuration and repetition (`baselines`, keyed by
/// [`RunKey`] with `threads = 1`) over its own. `None` unless both ran ok.
/// With `--repetitions`, repetition `r` of a t-thread run is measured
/// against repetition `r` of the 1-thread run (the plan runs them in that
/// order, the 1-thread one first when 1 is listed first in `--threads`).
pub fn speedup(row: &Row, baselines: &HashMap<RunKey, f64>) -> Option<f64> {
    speedup_over(row, baselines, &row.engine_config)
}

/// The paper's speedup of a row (`speedup_concurrent`): as [`speedup`],
/// against the same engine's concurrent form at one thread (the run of
/// configuration [`concurrent_config`]).
pub fn speedup_concurrent(row: &Row, baselines: &HashMap<RunKey, f64>) -> Option<f64> {
    speedup_over(row, baselines, &concurrent_config(&row.engine_config))
}

/// `config` with `form=concurrent` (the engine's concurrent form).
pub fn concurrent_config(config: &str) -> String {
    let form = format!("{}=concurrent", engines::FORM_PARAM);
    if config.is_empty() {
        form
    } else {
        format!("{config};{form}")
    }
}

fn speedup_over(row: &Row, baselines: &HashMap<RunKey, f64>, config: &str) -> Option<f64> {
    if row.status != Status::Ok {
        return None;
    }
    let mut key = row.key();
    key.threads = 1;
    key.engine_config = config.to_string();
    let base = *baselines.get(&key)?;
    let own = row.time_s?;
    (own > 0.0 && base > 0.0).then(|| base / own)
}

/// The universe of slot-value combinations is the instance's, whatever the
/// engine: a finished row that could not measure it (BDD/MDD never see
/// the states one by one) takes it from a finished row of the same
/// instance with the same state count, earlier in the campaign, and so
/// gets its combinatorial bound; a row that measured it records it.
fn share_universe(row: &mut Row, universes: &mut HashMap<(String, String), (u64, f64)>) {
    let (Status::Ok, Some(states)) = (row.status, row.states) else {
        return;
    };
    let key = (row.suite.clone(), row.instance.clone());
    match row.universe_log2 {
        Some(u) => {
            universes.insert(key, (states, u));
        }
        None => {
            if let Some(&(n, u)) = universes.get(&key) {
                if n == states {
                    row.universe_log2 = Some(u);
                    row.derive();
                }
            }
        }
    }
}

/// Records `row` as a baseline if it is an ok 1-thread row.
fn note_baseline(row: &Row, baselines: &mut HashMap<RunKey, f64>) {
    if row.threads == 1 && row.status == Status::Ok {
        if let Some(t) = row.time_s {
            baselines.insert(row.key(), t);
        }
    }
}

/// Before `--resume` appends to a CSV written by an older statebench (a
/// subset of today's columns, e.g. before the latency columns), rewrites
/// it in today's schema, the new columns empty in the old rows; the
/// original is kept beside it as `runs.csv.SCHEMA-UPGRADE.bak`. A file with
/// columns this statebench does not know (a newer one) is left alone and
/// `read_rows` refuses it.
fn upgrade_older_schema(csv_path: &Path) -> anyhow::Result<()> {
    let headers = csv::Reader::from_path(csv_path)
        .and_then(|mut r| r.headers().cloned())
        .with_context(|| format!("cannot read {}", csv_path.display()))?;
    if headers.iter().collect::<Vec<_>>().join(",") == crate::schema::header_line() {
        return Ok(());
    }
    let loaded = crate::schema::read_rows_tolerant(csv_path)?;
    if !loaded.unknown_columns.is_empty() || loaded.missing_columns.is_empty() {
        return Ok(());
    }
    let backup = csv_path.with_extension("csv.SCHEMA-UPGRADE.bak");
    std::fs::copy(csv_path, &backup)
        .with_context(|| format!("cannot back up {}", csv_path.display()))?;
    crate::schema::write_rows(csv_path, &loaded.rows)?;
    eprintln!(
        "{}: written by an older statebench; rewritten in this schema ({} rows, new columns empty: {}); original kept as {}",
        csv_path.display(),
        loaded.rows.len(),
        loaded.missing_columns.join(", "),
        backup.display()
    );
    Ok(())
}

/// The command that resumes `campaign`, as this process was started
/// (`statebench`, `target/release/statebench`, ...), quoted for a shell.
fn resume_command(campaign: &str, results: &Path, no_report: bool) -> String {
    let quote = |text: &str| {
        let plain = !text.is_empty()
            && text
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_-./:=+,@%".contains(c));
        if plain {
            text.to_string()
        } else {
            format!("'{}'", text.replace('\'', "'\\''"))
        }
    };
    let program = std::env::args_os()
        .next()
        .map_or("statebench".into(), |p| p.to_string_lossy().into_owned());
    format!(
        "{} run --resume --campaign {} --results {}{}",
        quote(&program),
        quote(campaign),
        quote(&results.to_string_lossy()),
        if no_report { " --no-report" } else { "" }
    )
}

/// Whether a campaign CSV is empty or white space only (no header).
fn holds_nothing(csv_path: &Path) -> anyhow::Result<bool> {
    let meta = std::fs::metadata(csv_path)
        .with_context(|| format!("cannot read {}", csv_path.display()))?;
    // Any header is longer; a large file is not read whole here.
    if meta.len() > 64 {
        return Ok(false);
    }
    let text =
        std::fs::read(csv_path).with_context(|| format!("cannot read {}", csv_path.display()))?;
    Ok(text.iter().all(u8::is_ascii_whitespace))
}

/// The campaign's CSV path, creating nothing.
fn campaign_csv(results: &Path, campaign: &str) -> PathBuf {
    results.join(campaign).join("runs.csv")
}

/// What a campaign was started with, stored beside its CSV
/// (`campaign.json`) so that `--resume` continues the same plan whatever
/// the command line of the resume says.
#[derive(serde::Serialize, serde::Deserialize)]
struct Settings {
    selection: Selection,
    engines: Vec<String>,
    params: Vec<String>,
    timeout: f64,
    mem_limit: Option<f64>,
    #[serde(default = "one_thread")]
    threads: Vec<u32>,
    #[serde(default = "one_repetition")]
    repetitions: u32,
    #[serde(default)]
    shard: Option<Shard>,
    #[serde(default)]
    sweeps: Vec<String>,
    #[serde(default)]
    sweep_where_first_finished: bool,
    #[serde(default)]
    threads_where_first_finished: bool,
    #[serde(default)]
    engines_where_first_finished: bool,
}

fn one_thread() -> Vec<u32> {
    vec![1]
}

fn one_repetition() -> u32 {
    1
}

fn settings_path(results: &Path, campaign: &str) -> PathBuf {
    results.join(campaign).join("campaign.json")
}

fn latest_campaign(results: &Path) -> anyhow::Result<String> {
    let mut best: Option<(SystemTime, String)> = None;
    for entry in std::fs::read_dir(results)
        .with_context(|| format!("--resume: cannot read {}", results.display()))?
        .flatten()
    {
        let csv = entry.path().join("runs.csv");
        if let Ok(meta) = csv.metadata() {
            let t = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
            if best.as_ref().is_none_or(|(bt, _)| t > *bt) {
                best = Some((t, entry.file_name().to_string_lossy().into_owned()));
            }
        }
    }
    best.map(|(_, name)| name)
        .ok_or_else(|| anyhow::anyhow!("--resume: no campaign under {}", results.display()))
}

/// Every engine name `--engines` accepts: statebench's, then the peers.
pub fn known_engines() -> String {
    let names: Vec<_> = engines::ENGINES
        .iter()
        .map(|s| s.name)
        .chain(crate::peers::PEERS.iter().map(|p| p.name))
        .collect();
    names.join(", ")
}

/// Splits `ENGINE.key=value` (`what` names the flag in errors), checking
/// that the engine is among `--engines` and has the parameter.
pub fn engine_param<'a>(
    what: &str,
    p: &'a str,
    engines_: &[String],
) -> anyhow::Result<(&'a str, &'a str, &'a str)> {
    let (engine, kv) = p
        .split_once('.')
        .filter(|(_, kv)| kv.contains('='))
        .ok_or_else(|| anyhow::anyhow!("{what} {p}: expected ENGINE.key=value"))?;
    if !engines_.iter().any(|e| e == engine) {
        bail!("{what} {p}: engine '{engine}' is not among --engines");
    }
    let (key, value) = kv.split_once('=').expect("checked above");
    let key = key.trim();
    let known: Option<Vec<&str>> = engines::find(engine)
        .map(|s| s.all_params().iter().map(|p| p.name()).collect())
        .or_else(|| crate::peers::find(engine).map(|p| p.params.iter().map(|(n, _)| *n).collect()));
    if let Some(names) = known {
        if !names.contains(&key) {
            bail!(
                "{what} {p}: engine {engine} has no parameter '{key}' (it has: {})",
                names.join(", ")
            );
        }
    }
    Ok((engine, key, value))
}

/// Per engine, its configurations as `key=value;...` strings: the
/// `--param` settings, then one combination of the `--sweep` values each
/// (the first values first). An engine without sweeps has one.
fn engine_configs(
    engines_: &[String],
    params: &[String],
    sweeps: &[String],
) -> anyhow::Result<HashMap<String, Vec<String>>> {
    let mut fixed: HashMap<String, Vec<String>> = HashMap::new();
    for p in params {
        let (engine, _, _) = engine_param("--param", p, engines_)?;
        // As given (`key=value`), so a resumed campaign's configurations
        // are the strings its rows carry.
        let (_, kv) = p.split_once('.').expect("checked by engine_param");
        fixed
            .entry(engine.to_string())
            .or_default()
            .push(kv.to_string());
    }
    let mut out: HashMap<String, Vec<String>> = engines_
        .iter()
        .map(|e| {
            (
                e.clone(),
                vec![fixed.get(e).cloned().unwrap_or_default().join(";")],
            )
        })
        .collect();
    let mut swept = HashSet::new();
    for p in sweeps {
        let (engine, key, values) = engine_param("--sweep", p, engines_)?;
        let values: Vec<&str> = values.split(',').map(str::trim).collect();
        if values.iter().any(|v| v.is_empty()) {
            bail!("--sweep {p}: expected ENGINE.key=v1,v2,... with no empty value");
        }
        if fixed.get(engine).is_some_and(|kvs| {
            kvs.iter()
                .any(|kv| kv.split('=').next().map(str::trim) == Some(key))
        }) {
            bail!("--sweep {p}: {engine}.{key} is also set by --param");
        }
        if !swept.insert((engine, key)) {
            bail!("--sweep {p}: {engine}.{key} is swept twice");
        }
        let configs = out
            .get_mut(engine)
            .expect("every engine has a configuration");
        *configs = configs
            .iter()
            .flat_map(|c| {
                values.iter().map(move |v| {
                    if c.is_empty() {
                        format!("{key}={v}")
                    } else {
                        format!("{c};{key}={v}")
                    }
                })
            })
            .collect();
    }
    Ok(out)
}

/// The configuration of the paper's speedup baseline for `engine` run with
/// `config` at `threads`: its concurrent form at one thread, when some
/// count is above one and the engine has a concurrent form of its own
/// (not the symbolic engines, whose threads are oxidd's) and `config`
/// does not already name a form.
fn paper_baseline(engine: &str, config: &str, threads: &[u32]) -> Option<String> {
    let names_form = config.split(';').any(|kv| {
        kv.split_once('=')
            .is_some_and(|(k, _)| k == engines::FORM_PARAM)
    });
    (threads.iter().any(|&t| t > 1) && engines::has_concurrent_form(engine) && !names_form)
        .then(|| concurrent_config(config))
}

/// Why `run` is not run: a run it depends on on the same instance ended
/// without finishing, or was itself skipped: the engine's first
/// configuration (`--sweep-where-first-finished`) or its first thread count
/// (`--threads-where-first-finished`); or the first engine's run at the
/// same thread count (`--engines-where-first-finished`) ran out of time:
/// only a timeout, since an engine that runs out of memory says nothing of
/// a more compact one, and a skipped run of the first engine is left to
/// the other rules. `None` while those runs have no row yet (they come
/// first in the plan) or finished.
fn skipped_because(
    run: &Planned,
    args: &RunArgs,
    configs: &HashMap<String, Vec<String>>,
    statuses: &HashMap<RunKey, Status>,
    skipped: &HashSet<RunKey>,
) -> Option<String> {
    let own = run.key();
    let mut first = Vec::new();
    if args.engines_where_first_finished && run.engine != args.engines[0] {
        let mut key = own.clone();
        key.engine = args.engines[0].clone();
        key.engine_config = configs[&key.engine][0].clone();
        let what = format!("the first engine's run ({})", key.engine);
        first.push((key, what, true));
    }
    if args.sweep_where_first_finished {
        let mut key = own.clone();
        key.engine_config = configs[&run.engine][0].clone();
        let what = format!("its first configuration [{}]", key.engine_config);
        first.push((key, what, false));
    }
    if args.threads_where_first_finished {
        let mut key = own.clone();
        key.threads = args.threads[0];
        // The paper's baseline (the concurrent form at one thread) serves
        // the later thread counts: it depends on its configuration's first.
        if let Some(base) = configs[&run.engine]
            .iter()
            .find(|c| concurrent_config(c) == run.engine_config)
        {
            key.engine_config = base.clone();
        }
        let what = format!("its {}-thread run", key.threads);
        first.push((key, what, false));
    }
    first
        .into_iter()
        .filter(|(key, _, _)| *key != own)
        .find_map(|(key, what, only_timeout)| {
            if skipped.contains(&key) && !only_timeout {
                return Some(format!("{what} was skipped"));
            }
            let status = statuses.get(&key).filter(|s| {
                if only_timeout {
                    **s == Status::Timeout
                } else {
                    **s != Status::Ok
                }
            })?;
            Some(format!("{what} ended {status}"))
        })
}

/// `statebench run`. Returns the process exit code.
pub fn run(mut args: RunArgs) -> anyhow::Result<i32> {
    // A resumed campaign keeps the settings it was started with.
    if args.resume {
        let campaign = match &args.campaign {
            Some(c) => c.clone(),
            None => latest_campaign(&args.results)?,
        };
        let path = settings_path(&args.results, &campaign);
        if path.exists() {
            let text = std::fs::read_to_string(&path)
                .with_context(|| format!("--resume: cannot read {}", path.display()))?;
            let stored: Settings = serde_json::from_str(&text)
                .with_context(|| format!("--resume: {} is not valid", path.display()))?;
            args.selection = stored.selection;
            args.engines = stored.engines;
            args.params = stored.params;
            args.timeout = stored.timeout;
            args.mem_limit = stored.mem_limit;
            args.threads = stored.threads;
            args.scaling = false;
            args.repetitions = stored.repetitions.max(1);
            args.shard = stored.shard;
            args.sweeps = stored.sweeps;
            args.sweep_where_first_finished = stored.sweep_where_first_finished;
            args.threads_where_first_finished = stored.threads_where_first_finished;
            args.engines_where_first_finished = stored.engines_where_first_finished;
            eprintln!(
                "resuming campaign {campaign} with its original settings (suites {}, engines {}, timeout {} s, {} repetition(s){})",
                args.selection.suite.join(","),
                args.engines.join(","),
                args.timeout,
                args.repetitions,
                args.shard.map_or(String::new(), |s| format!(", shard {s}"))
            );
        }
        args.campaign = Some(campaign);
    }
    if args.engines.iter().any(|e| e == "all") {
        let mut expanded = Vec::new();
        for e in &args.engines {
            if e == "all" {
                expanded.extend(engines::ENGINES.iter().map(|s| s.name.to_owned()));
            } else {
                expanded.push(e.clone());
            }
        }
        let mut seen = std::collections::HashSet::new();
        expanded.retain(|e| seen.insert(e.clone()));
        args.engines = expanded;
    }
    for e in &args.engines {
        if engines::find(e).is_none() && crate::peers::find(e).is_none() {
            bail!("unknown engine '{e}' (known: {})", known_engines());
        }
    }
    // Checked again: a resumed campaign's timeout comes from campaign.json.
    if let Err(e) = check_seconds(args.timeout) {
        bail!("--timeout {}: {e}", args.timeout);
    }
    let configs = engine_configs(&args.engines, &args.params, &args.sweeps)?;
    let entries = select(&args.selection)?;
    if entries.is_empty() {
        let sel = &args.selection;
        bail!(
            "no model of suite(s) {} matches --models {:?}, --min-states {:?}, --max-states {:?} (see `statebench list`)",
            sel.suite.join(", "),
            sel.models.join(","),
            sel.min_states,
            sel.max_states
        );
    }
    let machine = Machine::detect();
    if args.scaling {
        args.threads = scaling_threads(machine.cores);
    }
    if args.threads.is_empty() || args.threads.contains(&0) {
        bail!("--threads must list positive thread counts");
    }
    let mut seen_threads = HashSet::new();
    args.threads.retain(|t| seen_threads.insert(*t));
    let mem_limit = match args.mem_limit {
        Some(g) => gib(g)?,
        None => default_mem_limit(&machine),
    };
    let campaign = match (&args.campaign, args.resume) {
        (Some(c), _) => c.clone(),
        (None, true) => latest_campaign(&args.results)?,
        (None, false) => format!(
            "{}-{}{}",
            args.selection.suite.join("+"),
            now_rfc3339().replace([':', '-'], "").trim_end_matches('Z'),
            args.shard
                .map_or(String::new(), |s| format!("-shard{}of{}", s.index, s.count))
        ),
    };
    let csv_path = campaign_csv(&args.results, &campaign);
    let previous = if csv_path.exists() {
        if !args.resume {
            bail!(
                "campaign '{campaign}' already has {}; pass --resume to continue it or --campaign NAME for a new one",
                csv_path.display()
            );
        }
        if holds_nothing(&csv_path)? {
            // Created but never written (killed at once, or emptied by
            // hand): a campaign with no run done; the header comes anew.
            std::fs::write(&csv_path, "")
                .with_context(|| format!("cannot write {}", csv_path.display()))?;
            Vec::new()
        } else {
            upgrade_older_schema(&csv_path)?;
            read_rows(&csv_path)?
        }
    } else {
        Vec::new()
    };
    let done: HashSet<RunKey> = previous.iter().map(Row::key).collect();
    let settings = settings_path(&args.results, &campaign);
    if !settings.exists() {
        std::fs::create_dir_all(settings.parent().expect("campaign directory"))?;
        let stored = Settings {
            selection: args.selection.clone(),
            engines: args.engines.clone(),
            params: args.params.clone(),
            timeout: args.timeout,
            mem_limit: args.mem_limit,
            threads: args.threads.clone(),
            repetitions: args.repetitions,
            shard: args.shard,
            sweeps: args.sweeps.clone(),
            sweep_where_first_finished: args.sweep_where_first_finished,
            threads_where_first_finished: args.threads_where_first_finished,
            engines_where_first_finished: args.engines_where_first_finished,
        };
        std::fs::write(&settings, serde_json::to_string_pretty(&stored)? + "\n")
            .with_context(|| format!("cannot write {}", settings.display()))?;
    }

    // Sharding is by instance (module `shard`): a shard takes whole
    // instances, with all their engines, thread counts and repetitions.
    let entries: Vec<&Entry> = entries
        .iter()
        .enumerate()
        .filter(|(position, _)| args.shard.is_none_or(|s| s.takes(*position)))
        .map(|(_, e)| e)
        .collect();
    // Repetitions run in rounds (the whole selection once, then again), so
    // a stretch of load on a shared machine slows one repetition of many
    // runs rather than every repetition of a few: the median over
    // repetitions and `compare`'s range rule then see it as noise.
    let mut plan = Vec::new();
    for repetition in 0..args.repetitions {
        for entry in &entries {
            for engine in &args.engines {
                for config in &configs[engine] {
                    let mut baseline = paper_baseline(engine, config, &args.threads);
                    for &threads in &args.threads {
                        // The concurrent form at one thread comes right
                        // before the first multi-thread run it is the
                        // baseline of.
                        if threads > 1 {
                            if let Some(config) = baseline.take() {
                                plan.push(Planned {
                                    entry: (*entry).clone(),
                                    engine: engine.clone(),
                                    engine_config: config,
                                    threads: 1,
                                    repetition,
                                });
                            }
                        }
                        plan.push(Planned {
                            entry: (*entry).clone(),
                            engine: engine.clone(),
                            engine_config: config.clone(),
                            threads,
                            repetition,
                        });
                    }
                }
            }
        }
    }
    if let (Some(s), true) = (args.shard, plan.is_empty()) {
        eprintln!("warning: shard {s} has no instance (fewer instances selected than shards)");
    }
    let todo: Vec<&Planned> = plan.iter().filter(|p| !done.contains(&p.key())).collect();
    eprintln!(
        "campaign {campaign}: {} runs ({} models{} x {} engine configurations x threads {:?} x {} repetition(s)), {} already done; timeout {} s, memory limit {:.1} GiB; CSV {}",
        plan.len(),
        entries.len(),
        args.shard.map_or(String::new(), |s| format!(" of shard {s}")),
        configs.values().map(Vec::len).sum::<usize>(),
        args.threads,
        args.repetitions,
        plan.len() - todo.len(),
        args.timeout,
        mem_limit as f64 / (1u64 << 30) as f64,
        csv_path.display()
    );
    let ctx = RunContext {
        campaign: campaign.clone(),
        machine,
        limits: Limits {
            timeout: Duration::from_secs_f64(args.timeout),
            mem_limit_bytes: mem_limit,
        },
    };
    let mut writer = RowWriter::append(&csv_path)?;
    // The runs are numbered in the whole campaign: a resumed one goes on
    // from the runs already done.
    let already = plan.len() - todo.len();
    let bar = ProgressBar::new(plan.len() as u64);
    bar.set_position(already as u64);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} runs  {msg}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    let mut sources: HashMap<String, Result<ModelSource, String>> = HashMap::new();
    let mut new_rows = Vec::new();
    let mut baselines: HashMap<RunKey, f64> = HashMap::new();
    let mut universes = HashMap::new();
    for row in &previous {
        note_baseline(row, &mut baselines);
        share_universe(&mut row.clone(), &mut universes);
    }
    let mut statuses: HashMap<RunKey, Status> =
        previous.iter().map(|r| (r.key(), r.status)).collect();
    let mut skipped = HashSet::new();
    if let Err(e) = crate::interrupt::catch() {
        eprintln!("warning: Ctrl-C will end the campaign without a word: {e}");
    }
    let mut interrupted = false;
    for (i, run) in todo.iter().enumerate() {
        if crate::interrupt::requested() {
            interrupted = true;
            break;
        }
        let i = already + i;
        if let Some(reason) = skipped_because(run, &args, &configs, &statuses, &skipped) {
            skipped.insert(run.key());
            bar.inc(1);
            bar.suspend(|| {
                eprintln!(
                    "[{}/{}] {}: skipped, {reason}",
                    i + 1,
                    plan.len(),
                    run.key().label()
                )
            });
            continue;
        }
        let source = sources
            .entry(format!("{}/{}", run.entry.suite, run.entry.instance))
            .or_insert_with(|| {
                datasets::resolve(&run.entry)
                    .and_then(|s| datasets::verify(&run.entry, &s).map(|_| s))
            });
        let mut label = format!(
            "{} / {} / {} thread(s)",
            run.entry.instance, run.engine, run.threads
        );
        if args.repetitions > 1 {
            label.push_str(&format!(" / repetition {}", run.repetition));
        }
        bar.set_message(label.clone());
        let mut row = execute(
            &ctx,
            run,
            source.as_ref().map_err(String::as_str),
            |states| bar.set_message(format!("{label}: {states} states")),
        );
        if crate::interrupt::requested() {
            // Stopped by Ctrl-C, not by the run itself: no row; it reruns on resume.
            interrupted = true;
            break;
        }
        if run.threads > 1 {
            row.speedup = speedup(&row, &baselines);
            row.speedup_concurrent = speedup_concurrent(&row, &baselines);
        }
        note_baseline(&row, &mut baselines);
        share_universe(&mut row, &mut universes);
        statuses.insert(row.key(), row.status);
        writer.write(&row)?;
        bar.inc(1);
        bar.suspend(|| eprintln!("[{}/{}] {}", i + 1, plan.len(), summary::run_line(&row)));
        new_rows.push(row);
    }
    bar.finish_and_clear();
    if interrupted {
        eprintln!(
            "interrupted: {} of {} runs done ({} in this session), rows in {}; the run in progress left no row.\nresume with: {}",
            already + new_rows.len(),
            plan.len(),
            new_rows.len(),
            csv_path.display(),
            resume_command(&campaign, &args.results, args.no_report)
        );
        return Ok(130);
    }
    let all_rows = read_rows(&csv_path)?;
    let planned_keys: HashSet<RunKey> = plan.iter().map(Planned::key).collect();
    let campaign_rows: Vec<Row> = all_rows
        .into_iter()
        .filter(|r| planned_keys.contains(&r.key()))
        .collect();
    println!("{}", summary::table(&campaign_rows));
    println!("rows: {}", csv_path.display());
    if !args.no_report {
        // The rows are the campaign's product: a report that cannot be
        // written is a warning, not a failed campaign.
        match crate::report::write(&csv_path, None) {
            Ok(written) => {
                println!("report: {}", written.html.display());
                if let Some(e) = written.figures_error {
                    eprintln!("warning: the report has no figures: {e}");
                }
            }
            Err(e) => eprintln!("warning: no report written: {e:#}"),
        }
    }
    Ok(summary::exit_code(&campaign_rows))
}

#[cfg(test)]
mod tests {
    use super::{engine_configs, limit_message};

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn sweeps_multiply_an_engines_configurations_first_values_first() {
        let engines_ = names(&["bdd", "hash-table"]);
        let configs = engine_configs(
            &engines_,
            &names(&["bdd.order=interleaved"]),
            &names(&["bdd.strategy=saturation,bfs", "bdd.threads=1,2"]),
        )
        .unwrap();
        assert_eq!(
            configs["bdd"],
            names(&[
                "order=interleaved;strategy=saturation;threads=1",
                "order=interleaved;strategy=saturation;threads=2",
                "order=interleaved;strategy=bfs;threads=1",
                "order=interleaved;strategy=bfs;threads=2",
            ])
        );
        assert_eq!(configs["hash-table"], names(&[""]));
    }

    #[test]
    fn bad_sweeps_are_refused() {
        let engines_ = names(&["bdd"]);
        for (params, sweep) in [
            (&[][..], "bdd.strategy=bfs,"),
            (&[][..], "mdd.strategy=bfs"),
            (&[][..], "bdd.nosuch=1,2"),
            (&["bdd.strategy=bfs"][..], "bdd.strategy=saturation,bfs"),
            (&[][..], "bdd.strategy=bfs;bdd.strategy=saturation"),
        ] {
            assert!(
                // `;` separates two --sweep flags here.
                engine_configs(
                    &engines_,
                    &names(params),
                    &names(&sweep.split(';').collect::<Vec<_>>())
                )
                .is_err(),
                "{sweep} with {params:?}"
            );
        }
    }

    #[test]
    fn a_limit_message_names_the_queue() {
        assert_eq!(
            limit_message("timeout after 9 s", None, Some(4)),
            "timeout after 9 s"
        );
        assert_eq!(
            limit_message("timeout after 9 s", Some((10, 20, 0)), Some(4)),
            "timeout after 9 s (10 states, 20 transitions explored so far)"
        );
        // 2^20 queued vectors of 256 slots of 4 bytes: 1 GiB.
        assert_eq!(
            limit_message("memory", Some((10, 20, 1 << 20)), Some(256)),
            "memory (10 states, 20 transitions explored so far; 1048576 states queued, 1.00 GiB of vectors)"
        );
        assert_eq!(
            limit_message("memory", Some((10, 20, 3)), None),
            "memory (10 states, 20 transitions explored so far; 3 states queued)"
        );
    }
}

#[cfg(test)]
mod skip_tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        run: RunArgs,
    }

    fn planned(engine: &str, threads: u32) -> Planned {
        let entry = Entry {
            suite: "beem".into(),
            instance: "m".into(),
            model: "m".into(),
            formalism: "dve".into(),
            path: String::new(),
            source_url: String::new(),
            sha256: String::new(),
            oracle_states: None,
            oracle_transitions: None,
            complete: String::new(),
            notes: String::new(),
        };
        Planned {
            entry,
            engine: engine.into(),
            engine_config: String::new(),
            threads,
            repetition: 0,
        }
    }

    /// `--engines-where-first-finished` skips after the first engine's
    /// timeout only; the thread rule then skips the 2-thread run too.
    #[test]
    fn run_skipping_after_a_timeout() {
        let args = Cli::parse_from([
            "run",
            "--engines",
            "hash-table,tree",
            "--threads",
            "1,2",
            "--threads-where-first-finished",
            "--engines-where-first-finished",
        ])
        .run;
        let configs = engine_configs(&args.engines, &[], &[]).unwrap();
        let why = |first: Status, skipped: &[Planned], run: &Planned| {
            let statuses = HashMap::from([(planned("hash-table", 1).key(), first)]);
            let skipped: HashSet<RunKey> = skipped.iter().map(Planned::key).collect();
            skipped_because(run, &args, &configs, &statuses, &skipped)
        };
        let ht2 = planned("hash-table", 2);
        let (tree1, tree2) = (planned("tree", 1), planned("tree", 2));
        assert_eq!(
            why(Status::Timeout, &[], &ht2).as_deref(),
            Some("its 1-thread run ended timeout")
        );
        assert_eq!(
            why(Status::Timeout, std::slice::from_ref(&ht2), &tree1).as_deref(),
            Some("the first engine's run (hash-table) ended timeout")
        );
        assert_eq!(
            why(Status::Timeout, &[ht2.clone(), tree1.clone()], &tree2).as_deref(),
            Some("its 1-thread run was skipped")
        );
        for status in [Status::TableFull, Status::MemoryLimit] {
            assert_eq!(why(status, std::slice::from_ref(&ht2), &tree1), None);
            assert_eq!(why(status, std::slice::from_ref(&ht2), &tree2), None);
        }
        assert_eq!(why(Status::Ok, &[], &tree1), None);
    }
}
