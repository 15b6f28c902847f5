//! `statebench`: the command line. Dispatches to `run` (campaigns), `list`
//! (suites, models, engines), `explore` (one model), `plot` and `report`
//! (a campaign's figures and page), `compare` (regressions between two
//! campaigns), `merge` (a sharded campaign's CSVs), `claims` (ARTIFACT.md's
//! numbers recomputed from the committed rows) and the hidden `child`
//! (one isolated run). Owns argument parsing and human output of `list` and
//! `explore`; the work itself lives in the modules below.

mod campaign;
mod claims;
mod compare;
mod datasets;
mod git;
mod interrupt;
mod isolate;
mod machine;
mod merge;
mod numa;
mod peers;
mod plot;
mod report;
mod runner;
mod schema;
mod shard;
mod summary;

use campaign::{RunArgs, Selection};
use clap::{Parser, Subcommand};
use runner::{Planned, RunContext};
use statebench_child::{child, models};
use std::path::PathBuf;
use std::time::Duration;

#[derive(Parser)]
#[command(
    name = "statebench",
    version,
    about = "Benchmark harness for state-space storage in model checkers"
)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Run a campaign: every selected model with every engine, one CSV row per run.
    Run(RunArgs),
    /// List suites, their models with oracle counts, and the engines.
    List {
        #[command(flatten)]
        selection: Selection,
        /// Show only the suites and engines, not the models.
        #[arg(long)]
        brief: bool,
    },
    /// Explore one model file (formalism by extension) and print its figures.
    Explore(ExploreArgs),
    /// Draw a campaign's figures (SVG and PNG) from its runs.csv.
    Plot(plot::PlotArgs),
    /// Write a campaign's report: report.html (self-contained) and report.md, with the figures.
    Report(report::ReportArgs),
    /// Compare two campaign CSVs: count changes, status changes, time and
    /// memory beyond tolerances (Markdown; exit code 1 on a regression).
    Compare(compare::CompareArgs),
    /// Join the CSVs of a sharded campaign (`run --shard I/N`) into one.
    Merge(merge::MergeArgs),
    /// Recompute every number of ARTIFACT.md's claims table from the
    /// committed rows (results/paper); exit code 1 when one differs.
    Claims(claims::ClaimsArgs),
}

#[derive(clap::Args)]
struct ExploreArgs {
    /// Model file (.pnml, .dve, or .pm for the SPIN peers).
    file: PathBuf,
    #[arg(long, default_value = "hash-table")]
    engine: String,
    /// Engine parameter `ENGINE.key=value`, as in `run` (`key=value` for
    /// short); repeatable.
    #[arg(long = "param")]
    params: Vec<String>,
    /// Wall-clock limit, seconds.
    #[arg(long, default_value_t = 180.0, value_parser = campaign::parse_seconds)]
    timeout: f64,
    /// Memory limit, GiB (default: 16 or 80% of RAM, the smaller).
    #[arg(long)]
    mem_limit: Option<f64>,
    /// Worker threads of the search.
    #[arg(long, default_value_t = 1)]
    threads: u32,
    /// Print the run's CSV fields as one JSON object.
    #[arg(long)]
    json: bool,
    /// Also append the run's row to this CSV.
    #[arg(long)]
    csv: Option<PathBuf>,
}

fn main() {
    restore_sigpipe();
    // `statebench child ...`: one isolated run (used by `run` and
    // `explore` where `statebench-child` is not beside this binary). It
    // parses its own arguments only: building the whole command line runs
    // every subcommand's argument code, and the pages it touches stay
    // resident in the measured process (peak RSS 4.4 MiB before the model
    // is read, against 1.8 for an empty program).
    let mut argv = std::env::args_os().skip(1);
    if argv.next().is_some_and(|a| a == "child") {
        std::process::exit(child::main_from(argv));
    }
    let cli = Cli::parse();
    let code = match cli.command {
        Cmd::Run(args) => exit_code(campaign::run(args)),
        Cmd::List { selection, brief } => exit_code(list(&selection, brief).map(|_| 0)),
        Cmd::Explore(args) => exit_code(explore(args)),
        Cmd::Plot(args) => exit_code(plot::command(args)),
        Cmd::Report(args) => exit_code(report::command(args)),
        Cmd::Compare(args) => exit_code(compare::command(args)),
        Cmd::Merge(args) => exit_code(merge::command(args)),
        Cmd::Claims(args) => exit_code(claims::command(args)),
    };
    std::process::exit(code);
}

/// Output into a closed pipe (`statebench list | head -2`) ends the
/// process quietly, as it does `cat` and `ls`, with the usual status of
/// SIGPIPE, where Rust's default (the signal ignored, the write an error)
/// makes `println!` panic.
fn restore_sigpipe() {
    // SAFETY: called first thing in `main`, before any thread starts;
    // setting a signal's disposition back to its default installs no
    // handler and touches no memory of this process.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn exit_code(result: anyhow::Result<i32>) -> i32 {
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            2
        }
    }
}

fn list(selection: &Selection, brief: bool) -> anyhow::Result<()> {
    println!("suites:");
    for s in datasets::suites() {
        println!(
            "  {:<12} {:>4} models  {}",
            s.name,
            s.entries.len(),
            s.description
        );
    }
    println!("\nengines:");
    for e in engines::ENGINES {
        println!("  {:<12} {}", e.name, e.summary);
        for p in e.all_params() {
            println!("  {:<12}   {}: {}", "", p.name(), p.describe());
        }
    }
    println!("\npeer engines (other model checkers, run as external programs; not in `all`):");
    for p in peers::PEERS {
        let lossy = if p.lossy { " [lossy]" } else { "" };
        println!("  {:<13} {}{lossy}", p.name, p.summary);
        for (name, meaning) in p.params {
            println!("  {:<13}   {name}: {meaning}", "");
        }
    }
    if brief {
        return Ok(());
    }
    let entries = campaign::select(selection)?;
    println!(
        "\nmodels ({} selected from {}):",
        entries.len(),
        selection.suite.join(", ")
    );
    println!(
        "  {:<8} {:<45} {:<8} {:>14} {:>16}  available",
        "suite", "instance", "formalism", "oracle states", "transitions"
    );
    for e in &entries {
        let avail = match datasets::resolve(e) {
            Ok(datasets::ModelSource::Embedded { .. }) => "embedded".to_string(),
            Ok(datasets::ModelSource::File(p)) => p.display().to_string(),
            Err(_) if e.source_url.starts_with("http") => {
                format!(
                    "missing: scripts/fetch-datasets.sh fetches {}",
                    e.source_url
                )
            }
            Err(_) => "missing".to_string(),
        };
        let bound = if e.complete == "no" { ">=" } else { "" };
        let count = |v: Option<u64>| v.map_or("?".to_string(), |v| format!("{bound}{v}"));
        println!(
            "  {:<8} {:<45} {:<8} {:>14} {:>16}  {avail}",
            e.suite,
            e.instance,
            e.formalism,
            count(e.oracle_states),
            count(e.oracle_transitions)
        );
    }
    Ok(())
}

/// The manifest entry of a file, matched by instance name, or a synthesized
/// one (no oracle) for a file no manifest knows.
fn entry_for_file(file: &std::path::Path) -> datasets::Entry {
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = file
        .file_stem()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    for suite in datasets::suites() {
        if let Some(e) = suite
            .entries
            .iter()
            .find(|e| e.path.rsplit('/').next() == Some(name.as_str()))
        {
            return e.clone();
        }
    }
    datasets::Entry {
        suite: "file".into(),
        model: stem.split("-PT-").next().unwrap_or(&stem).to_string(),
        instance: stem,
        formalism: models::formalism_of(&name).unwrap_or("unknown").to_string(),
        path: file.display().to_string(),
        source_url: String::new(),
        sha256: String::new(),
        oracle_states: None,
        oracle_transitions: None,
        complete: "no".into(),
        notes: String::new(),
    }
}

/// The `--param`s of `explore` as the child takes them (`key=value;...`):
/// each `ENGINE.key=value`, the form `run` takes, with ENGINE the one of
/// `--engine`, or `key=value` for short; an unknown key is refused as in `run`.
fn explore_params(engine: &str, params: &[String]) -> anyhow::Result<String> {
    let mut kvs = Vec::new();
    for p in params {
        let short = p.split_once('=').is_some_and(|(k, _)| !k.contains('.'));
        let full = if short {
            format!("{engine}.{p}")
        } else {
            p.clone()
        };
        if let Some((named, _)) = full.split_once('.').filter(|(e, _)| *e != engine) {
            anyhow::bail!("--param {p}: engine '{named}' is not the --engine ({engine})");
        }
        campaign::engine_param("--param", &full, &[engine.to_string()])?;
        let (_, kv) = full.split_once('.').expect("checked by engine_param");
        kvs.push(kv.to_string());
    }
    Ok(kvs.join(";"))
}

fn explore(args: ExploreArgs) -> anyhow::Result<i32> {
    if engines::find(&args.engine).is_none() && peers::find(&args.engine).is_none() {
        anyhow::bail!(
            "unknown engine '{}' (known: {})",
            args.engine,
            campaign::known_engines()
        );
    }
    let machine = machine::Machine::detect();
    let mem_limit = match args.mem_limit {
        Some(g) => campaign::gib(g)?,
        None => campaign::default_mem_limit(&machine),
    };
    let entry = entry_for_file(&args.file);
    let planned = Planned {
        entry,
        engine: args.engine.clone(),
        engine_config: explore_params(&args.engine, &args.params)?,
        threads: args.threads.max(1),
        repetition: 0,
    };
    let ctx = RunContext {
        campaign: "explore".into(),
        machine,
        limits: isolate::Limits {
            timeout: Duration::from_secs_f64(args.timeout),
            mem_limit_bytes: mem_limit,
        },
    };
    let source = if args.file.is_file() {
        Ok(datasets::ModelSource::File(args.file.clone()))
    } else {
        Err(format!(
            "{}: {}",
            args.file.display(),
            if args.file.exists() {
                "not a regular file"
            } else {
                "no such file"
            }
        ))
    };
    let row = campaign::execute(
        &ctx,
        &planned,
        source.as_ref().map_err(String::as_str),
        |_| {},
    );
    if let Some(csv) = &args.csv {
        schema::RowWriter::append(csv)?.write(&row)?;
    }
    if args.json {
        println!("{}", serde_json::to_string(&row)?);
    } else {
        print_explore(&row);
    }
    let failed = !matches!(row.status, schema::Status::Ok)
        || row.states_match == Some(false)
        || row.transitions_match == Some(false);
    if failed && row.status != schema::Status::Ok {
        eprintln!("error: {}: {}", row.status, row.message);
    }
    Ok(i32::from(failed))
}

fn print_explore(r: &schema::Row) {
    let mib = |b: u64| b as f64 / (1u64 << 20) as f64;
    let bound = if r.oracle_complete == Some(false) {
        "lower bound "
    } else {
        ""
    };
    let vs = |v: Option<u64>, o: Option<u64>, agrees: Option<bool>| match (v, o, agrees) {
        (Some(v), Some(o), Some(true)) => format!("{v} (oracle {bound}{o}: match)"),
        (Some(v), Some(o), Some(false)) => format!("{v} (oracle {bound}{o}: MISMATCH)"),
        (Some(v), Some(o), None) => format!("{v} so far (unfinished; oracle {bound}{o})"),
        (Some(v), None, _) => v.to_string(),
        (None, _, _) => "-".into(),
    };
    println!(
        "model        {} ({}, k={}, {} groups)",
        r.instance,
        r.formalism,
        r.k.map_or("?".into(), |k| k.to_string()),
        r.groups.map_or("?".into(), |g| g.to_string())
    );
    println!("engine       {} [{}]", r.engine, r.engine_params);
    println!(
        "status       {}{}",
        r.status,
        if r.message.is_empty() {
            String::new()
        } else {
            format!(": {}", r.message)
        }
    );
    println!(
        "states       {}",
        vs(r.states, r.oracle_states, r.states_match)
    );
    println!(
        "transitions  {}",
        vs(r.transitions, r.oracle_transitions, r.transitions_match)
    );
    if let (Some(t), Some(p)) = (r.time_s, r.parse_time_s) {
        println!(
            "time         {t:.3} s exploring ({} states/s), {p:.3} s parsing, {:.3} s wall",
            r.states_per_s.map_or("-".into(), summary::si),
            r.wall_time_s
        );
    }
    if let (Some(u), Some(a)) = (r.engine_bytes_used, r.engine_bytes_alloc) {
        println!(
            "memory       {:.1} MiB used ({:.1} bits/state), {:.1} MiB allocated ({:.1} bits/state), peak RSS {:.1} MiB",
            mib(u),
            r.bits_per_state.unwrap_or(0.0),
            mib(a),
            r.bits_per_state_alloc.unwrap_or(0.0),
            mib(r.rss_peak_bytes.unwrap_or(0))
        );
    }
    if let Some(lb) = r.locality_bound_bits {
        println!(
            "bounds       locality {lb:.1} bits/state (u + log2(k) + 2, u = {} bits: the worst set with that locality){}",
            r.max_slot_bits.unwrap_or(0),
            r.combinatorial_bound_bits.map_or(String::new(), |c| format!(
                ", combinatorial {c:.1} bits/state (log2 C(U, n) / n, log2 U = {:.1})",
                r.universe_log2.unwrap_or(0.0)
            ))
        );
    }
    if let (Some(p50), Some(p99), Some(p999)) = (
        r.op_latency_p50_ns,
        r.op_latency_p99_ns,
        r.op_latency_p999_ns,
    ) {
        println!(
            "op latency   find_or_insert p50 {p50} ns, p99 {p99} ns, p99.9 {p999} ns (1 call in {} timed)",
            engines::explore::latency::SAMPLE_EVERY
        );
    }
}
