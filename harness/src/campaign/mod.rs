//! `statebench run`: a campaign is the product of selected model instances,
//! engines, thread counts and repetitions (`--repetitions`, numbered in the
//! `repetition` column), possibly one shard of it (`--shard`, rule in
//! `shard`), each run in its own child process, one CSV row per run
//! appended and flushed as it finishes, `--resume` skipping rows already
//! present, a live progress display, and a summary and the report
//! (`report`) at the end.
//!
//! This module is the driver, `run`: it settles the options, plans, runs
//! and reports, each step in its own module:
//!
//! - `args`: the options of `run` and their value rules;
//! - `plan`: model selection, engine configurations, the order of runs
//!   and which runs are skipped;
//! - `execute`: one run through the `Runner` of its kind (a statebench
//!   engine in a child process, or a peer), and the runs in order with the
//!   progress display;
//! - `row`: a run's row from a child's outcome, speedups and what a row
//!   takes from earlier rows;
//! - `resume`: the campaign directory, its stored settings, `--resume` and
//!   the upgrade of a CSV of an older schema.
//!
//! Must not hold the work of those steps itself. The CSV columns live in
//! `schema`, the process mechanics in `isolate`, the planned run and the
//! interface a kind of run implements in `runner`.

mod args;
mod execute;
mod plan;
mod resume;
mod row;

pub use args::{default_mem_limit, gib, parse_seconds, RunArgs, Selection};
pub use execute::execute;
pub use plan::{engine_param, known_engines, select};

use crate::isolate::Limits;
use crate::machine::Machine;
use crate::runner::{Planned, RunContext};
use crate::schema::{Row, RowWriter, RunKey};
use crate::summary;
use anyhow::bail;
use std::collections::HashSet;
use std::path::Path;
use std::time::Duration;

/// `statebench run`. Returns the process exit code.
pub fn run(mut args: RunArgs) -> anyhow::Result<i32> {
    // A resumed campaign keeps the settings it was started with.
    if args.resume {
        resume::restore_settings(&mut args)?;
    }
    plan::settle_engines(&mut args)?;
    // Checked again: a resumed campaign's timeout comes from campaign.json.
    if let Err(e) = args::check_seconds(args.timeout) {
        bail!("--timeout {}: {e}", args.timeout);
    }
    let configs = plan::engine_configs(&args.engines, &args.params, &args.sweeps)?;
    let entries = plan::select_some(&args.selection)?;
    let machine = Machine::detect();
    args::settle_threads(&mut args, &machine)?;
    let mem_limit = args::mem_limit(&args, &machine)?;
    let campaign = resume::campaign_name(&args)?;
    let csv_path = resume::campaign_csv(&args.results, &campaign);
    let previous = resume::previous_rows(&csv_path, &campaign, args.resume)?;
    let done: HashSet<RunKey> = previous.iter().map(Row::key).collect();

    let entries = plan::shard_entries(&entries, args.shard);
    let plan = plan::plan(&args, &entries, &configs);
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
    if args.plan {
        return Ok(0);
    }
    resume::store_settings(&args, &campaign)?;
    let ctx = RunContext {
        campaign: campaign.clone(),
        machine,
        limits: Limits {
            timeout: Duration::from_secs_f64(args.timeout),
            mem_limit_bytes: mem_limit,
        },
    };
    let mut writer = RowWriter::append(&csv_path)?;
    let ran = execute::execute_todo(&ctx, &args, &configs, &plan, &todo, &previous, &mut writer)?;
    if ran.interrupted {
        eprintln!(
            "interrupted: {} of {} runs done ({} in this session), rows in {}; the run in progress left no row.\nresume with: {}",
            plan.len() - todo.len() + ran.rows,
            plan.len(),
            ran.rows,
            csv_path.display(),
            resume::resume_command(&campaign, &args.results, args.no_report)
        );
        return Ok(130);
    }
    finish(&csv_path, &plan, args.no_report)
}

/// The end of a campaign: the summary of its rows and, unless
/// `no_report`, its report. Returns the process exit code.
fn finish(csv_path: &Path, plan: &[Planned], no_report: bool) -> anyhow::Result<i32> {
    let campaign_rows = execute::planned_rows(csv_path, plan)?;
    println!("{}", summary::table(&campaign_rows));
    println!("rows: {}", csv_path.display());
    if !no_report {
        // The rows are the campaign's product: a report that cannot be
        // written is a warning, not a failed campaign.
        match crate::report::write(csv_path, None, None) {
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
