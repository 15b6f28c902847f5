//! The command line of `statebench run`: its options ([`RunArgs`], the
//! model [`Selection`] that `list` shares) and the parsing and checking of
//! their values (counts, seconds, GiB, thread counts).
//!
//! Owns the options and their value rules. Must not read campaign files
//! (`resume`), plan runs (`plan`) nor run anything (`execute`).

use crate::machine::Machine;
use crate::shard::{self, Shard};
use anyhow::bail;
use std::collections::HashSet;
use std::path::PathBuf;

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
    /// Print what the campaign would run (runs, models, configurations,
    /// the runs already done) and exit, running and writing nothing.
    #[arg(long)]
    pub plan: bool,
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

pub(super) fn check_seconds(v: f64) -> Result<f64, String> {
    if !(v > 0.0 && v <= MAX_SECONDS) {
        return Err(format!(
            "must be a number of seconds above 0 and at most {MAX_SECONDS:.0} (ten years)"
        ));
    }
    Ok(v)
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

/// Settles `--threads`: `--scaling`'s counts on `machine`, each count
/// positive, each once (the first place kept).
pub(super) fn settle_threads(args: &mut RunArgs, machine: &Machine) -> anyhow::Result<()> {
    if args.scaling {
        args.threads = scaling_threads(machine.cores);
    }
    if args.threads.is_empty() || args.threads.contains(&0) {
        bail!("--threads must list positive thread counts");
    }
    let mut seen_threads = HashSet::new();
    args.threads.retain(|t| seen_threads.insert(*t));
    Ok(())
}

/// The memory limit per run, bytes: `--mem-limit` or the default.
pub(super) fn mem_limit(args: &RunArgs, machine: &Machine) -> anyhow::Result<u64> {
    match args.mem_limit {
        Some(g) => gib(g),
        None => Ok(default_mem_limit(machine)),
    }
}
