//! Executing a campaign's runs: one planned run through the [`Runner`] of
//! its kind (a statebench engine in a `statebench child` process, or a
//! peer program), and the campaign's runs in order, skipping those whose
//! first run did not finish, with the live progress display, each row
//! appended to the CSV as it finishes.
//!
//! Owns the child's command line (the lean `statebench-child` beside this
//! binary where it is of this build, else `statebench child`; the row's
//! counter `lean_child` says which ran) and the order of execution. Must not fill
//! a row's figures itself (`row`), plan (`plan`) nor define CSV columns
//! (`schema`); process limits are `isolate`'s.

use super::args::RunArgs;
use super::plan::skipped_because;
use super::row::{self, Earlier};
use crate::datasets::{self, ModelSource};
use crate::isolate::{self, ChildMessage};
use crate::runner::{one_line, Job, Planned, RunContext, Runner};
use crate::schema::{Row, RowWriter, RunKey, Status};
use crate::summary;
use indicatif::{ProgressBar, ProgressStyle};
use statebench_child::child::{self, ChildArgs};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

/// Share of the memory limit an engine's tables may take; the rest is for
/// the model, the search queue and the process itself.
const ENGINE_SHARE: f64 = 0.7;

/// A statebench engine, run by `statebench child` in a child process under
/// the run's limits.
struct EngineChild;

impl Runner for EngineChild {
    fn fill(&self, job: &Job, on_progress: &mut dyn FnMut(u64), row: &mut Row) {
        let Job { ctx, run, source } = *job;
        let exe = match std::env::current_exe() {
            Ok(exe) => exe,
            Err(e) => {
                row.message = format!("cannot find the statebench executable: {e}");
                return;
            }
        };
        let lean = lean_child(&exe);
        let path = std::env::var_os("PATH");
        let (mut cmd, placement) = crate::numa::command(
            lean.unwrap_or(exe.as_path()),
            run.threads,
            crate::numa::machine_nodes(),
            path.as_deref(),
        );
        if lean.is_none() {
            cmd.arg("child");
        }
        cmd.args(child_args(ctx, run, source).to_args());
        let outcome = match isolate::run(cmd, ctx.limits, |msg| {
            if let ChildMessage::Progress { states, .. } = msg {
                on_progress(*states)
            }
        }) {
            Ok(o) => o,
            Err(e) => {
                row.message = format!("cannot start the child process: {e}");
                return;
            }
        };
        let mut counters = format!("lean_child={}", u8::from(lean.is_some()));
        if run.threads > 1 {
            counters = format!("{counters};{}", placement.counters());
        }
        row::fill_from_child(row, &outcome, ctx.limits, &counters);
    }
}

/// The lean child binary's file name, beside `statebench`.
const LEAN_CHILD: &str = "statebench-child";

/// The lean child beside `exe` (see the library's `child`), where it is
/// there and of this build, found once per process; `None`: runs go
/// through `exe child`, the same code linked with the whole harness.
fn lean_child(exe: &Path) -> Option<&'static Path> {
    static LEAN: OnceLock<Option<PathBuf>> = OnceLock::new();
    LEAN.get_or_init(|| lean_child_beside(exe)).as_deref()
}

/// `statebench-child` beside `exe` if it says this build's identity: one
/// left from another build (`cargo run` builds `statebench` alone) is not
/// run.
fn lean_child_beside(exe: &Path) -> Option<PathBuf> {
    let lean = exe.with_file_name(LEAN_CHILD);
    let out = Command::new(&lean)
        .arg(child::BUILD_ID_FLAG)
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    let said = out.stdout.trim_ascii_end();
    (out.status.success() && said == child::BUILD_ID.as_bytes()).then_some(lean)
}

/// The arguments of a child for `run`.
fn child_args(ctx: &RunContext, run: &Planned, source: &ModelSource) -> ChildArgs {
    let budget = (ctx.limits.mem_limit_bytes as f64 * ENGINE_SHARE) as u64;
    ChildArgs {
        model: source.to_arg(),
        engine: run.engine.clone(),
        params: run.engine_config.clone(),
        mem_budget: budget,
        threads: run.threads as usize,
    }
}

/// The kind of run of `engine`: a peer's program, else a statebench engine.
fn runner_for(engine: &str) -> &'static dyn Runner {
    match crate::peers::find(engine) {
        Some(peer) => peer,
        None => &EngineChild,
    }
}

/// Runs one planned run and returns its row. `source` is the resolved and
/// verified model, or why it could not be.
pub fn execute(
    ctx: &RunContext,
    run: &Planned,
    source: Result<&ModelSource, &str>,
    mut on_progress: impl FnMut(u64),
) -> Row {
    let mut row = row::base_row(ctx, run);
    match source {
        Ok(source) => {
            let job = Job { ctx, run, source };
            runner_for(&run.engine).fill(&job, &mut on_progress, &mut row);
        }
        Err(message) => {
            row.status = Status::ModelError;
            row.message = one_line(message);
        }
    }
    row::finish(&mut row, run);
    row
}

/// What the runs of one session came to.
pub(super) struct Done {
    /// Rows written in this session.
    pub rows: usize,
    /// Stopped by Ctrl-C (the run in progress left no row).
    pub interrupted: bool,
}

/// The progress bar of a campaign of `total` runs, `already` of them done.
fn progress_bar(total: usize, already: usize) -> ProgressBar {
    let bar = ProgressBar::new(total as u64);
    bar.set_position(already as u64);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} runs  {msg}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    bar
}

/// Runs `todo`, the runs of `plan` without a row in `previous`, in order,
/// appending each row to `writer` as it finishes; stops at Ctrl-C. The
/// runs are numbered in the whole campaign: a resumed one goes on from
/// the runs already done.
pub(super) fn execute_todo(
    ctx: &RunContext,
    args: &RunArgs,
    configs: &HashMap<String, Vec<String>>,
    plan: &[Planned],
    todo: &[&Planned],
    previous: &[Row],
    writer: &mut RowWriter,
) -> anyhow::Result<Done> {
    let already = plan.len() - todo.len();
    let bar = progress_bar(plan.len(), already);
    let mut sources: HashMap<String, Result<ModelSource, String>> = HashMap::new();
    let mut earlier = Earlier::default();
    previous.iter().for_each(|row| earlier.note(row));
    let mut statuses: HashMap<RunKey, Status> =
        previous.iter().map(|r| (r.key(), r.status)).collect();
    let mut skipped = HashSet::new();
    if let Err(e) = crate::interrupt::catch() {
        eprintln!("warning: Ctrl-C will end the campaign without a word: {e}");
    }
    let mut done = Done {
        rows: 0,
        interrupted: false,
    };
    for (i, run) in todo.iter().enumerate() {
        if crate::interrupt::requested() {
            done.interrupted = true;
            break;
        }
        let number = format!("[{}/{}]", already + i + 1, plan.len());
        if let Some(reason) = skipped_because(run, args, configs, &statuses, &skipped) {
            skipped.insert(run.key());
            bar.inc(1);
            bar.suspend(|| eprintln!("{number} {}: skipped, {reason}", run.key().label()));
            continue;
        }
        let source = sources
            .entry(format!("{}/{}", run.entry.suite, run.entry.instance))
            .or_insert_with(|| {
                datasets::resolve(&run.entry)
                    .and_then(|s| datasets::verify(&run.entry, &s).map(|_| s))
            });
        let label = label(run, args.repetitions);
        bar.set_message(label.clone());
        let mut row = execute(ctx, run, source.as_ref().map_err(String::as_str), |n| {
            bar.set_message(format!("{label}: {n} states"))
        });
        if crate::interrupt::requested() {
            // Stopped by Ctrl-C, not by the run itself: no row; it reruns on resume.
            done.interrupted = true;
            break;
        }
        earlier.complete(&mut row);
        statuses.insert(row.key(), row.status);
        writer.write(&row)?;
        bar.inc(1);
        bar.suspend(|| eprintln!("{number} {}", summary::run_line(&row)));
        done.rows += 1;
    }
    bar.finish_and_clear();
    Ok(done)
}

/// A run as the progress display names it.
fn label(run: &Planned, repetitions: u32) -> String {
    let mut label = format!(
        "{} / {} / {} thread(s)",
        run.entry.instance, run.engine, run.threads
    );
    if repetitions > 1 {
        label.push_str(&format!(" / repetition {}", run.repetition));
    }
    label
}

/// The rows of the CSV at `csv_path` that are runs of `plan`.
pub(super) fn planned_rows(csv_path: &Path, plan: &[Planned]) -> anyhow::Result<Vec<Row>> {
    let planned_keys: HashSet<RunKey> = plan.iter().map(Planned::key).collect();
    Ok(crate::schema::read_rows(csv_path)?
        .into_iter()
        .filter(|r| planned_keys.contains(&r.key()))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    /// A directory holding `statebench` and, if `says` is given, a
    /// `statebench-child` script that prints it on `--build-id`.
    fn install(tag: &str, says: Option<&str>) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("statebench-lean-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        if let Some(id) = says {
            let lean = dir.join(LEAN_CHILD);
            let script = format!("#!/bin/sh\n[ \"$1\" = --build-id ] && echo '{id}'\n");
            std::fs::write(&lean, script).unwrap();
            std::fs::set_permissions(&lean, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        dir
    }

    #[test]
    fn the_lean_child_runs_only_where_it_is_of_this_build() {
        let ours = install("ours", Some(child::BUILD_ID));
        let exe = ours.join("statebench");
        assert_eq!(lean_child_beside(&exe), Some(ours.join(LEAN_CHILD)));
        for (tag, says) in [("none", None), ("stale", Some("0000000@1"))] {
            let dir = install(tag, says);
            assert_eq!(lean_child_beside(&dir.join("statebench")), None, "{tag}");
            std::fs::remove_dir_all(dir).unwrap();
        }
        std::fs::remove_dir_all(ours).unwrap();
    }
}
