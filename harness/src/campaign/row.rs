//! A run's row: what is known before the run, the figures and status a
//! child's messages and ending give it, and what a row takes from earlier
//! rows of the campaign (the speedup over the 1-thread run, the universe
//! of slot values).
//!
//! Owns the filling of a [`Row`] from a statebench child's outcome and the
//! speedup rules. Must not define or order CSV columns (`schema`, their
//! one home), start processes (`execute`, `isolate`) nor plan (`plan`).

use crate::isolate::{ChildMessage, ChildOutcome, Ending, Limits};
use crate::runner::{one_line, Planned, RunContext};
use crate::schema::{Row, RunKey, Status};
use std::collections::HashMap;
use std::time::SystemTime;

pub(super) fn now_rfc3339() -> String {
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

/// A row with everything known before the run.
pub(super) fn base_row(ctx: &RunContext, run: &Planned) -> Row {
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

/// Fills `row` from a statebench child's outcome: its messages (shape,
/// parameters, progress, report or failure), then how it ended (a limit,
/// a signal, an exit without a report). `run_counters`: the run's own
/// counters (which child binary ran, a multi-thread run's NUMA
/// placement), appended to the engine's.
pub(super) fn fill_from_child(
    row: &mut Row,
    outcome: &ChildOutcome,
    limits: Limits,
    run_counters: &str,
) {
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
                fill_from_report(row, r, run_counters);
            }
            ChildMessage::Peak { .. } => {}
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
    fill_from_ending(row, outcome, limits, progress_states, reported);
}

/// The engine's report into the row.
fn fill_from_report(row: &mut Row, r: &engines::RunReport, run_counters: &str) {
    row.status = match r.status {
        engines::RunStatus::Ok => Status::Ok,
        engines::RunStatus::TableFull => Status::TableFull,
        // A construct the front-end does not handle, met while
        // exploring (`pins::ModelError::unsupported`).
        engines::RunStatus::ModelError if r.message.starts_with(pins::UNSUPPORTED_PREFIX) => {
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
    if !run_counters.is_empty() {
        if !row.counters.is_empty() {
            row.counters.push(';');
        }
        row.counters.push_str(run_counters);
    }
}

/// How the child ended into the row: a limit (with the last progress
/// figures), a signal, or an exit without a report.
fn fill_from_ending(
    row: &mut Row,
    outcome: &ChildOutcome,
    limits: Limits,
    progress_states: Option<(u64, u64, u64)>,
    reported: bool,
) {
    let k = row.k;
    let limit_text = |what: &str| limit_message(what, progress_states, k);
    match outcome.ending {
        Ending::Timeout => {
            row.status = Status::Timeout;
            row.message = limit_text(&format!(
                "timeout after {:.0} s",
                limits.timeout.as_secs_f64()
            ));
            row.states = progress_states.map(|p| p.0);
            row.transitions = progress_states.map(|p| p.1);
        }
        Ending::MemoryLimit => {
            row.status = Status::MemoryLimit;
            row.message = limit_text(&format!(
                "resident set passed the memory limit of {} MiB",
                limits.mem_limit_bytes >> 20
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
}

/// The columns computed from the others, once the run has filled the row;
/// a finished 1-thread run is its own speedup baseline (speedup 1).
pub(super) fn finish(row: &mut Row, run: &Planned) {
    if row.status == Status::Ok && run.threads == 1 {
        row.speedup = Some(1.0);
    }
    row.derive();
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

/// What a campaign's later rows take from its earlier ones: the 1-thread
/// baselines of the speedups and the instances' universes.
#[derive(Default)]
pub(super) struct Earlier {
    baselines: HashMap<RunKey, f64>,
    universes: HashMap<(String, String), (u64, f64)>,
}

impl Earlier {
    /// Notes a row written before (a resumed campaign's), unchanged.
    pub(super) fn note(&mut self, row: &Row) {
        note_baseline(row, &mut self.baselines);
        share_universe(&mut row.clone(), &mut self.universes);
    }

    /// Completes a new row from the earlier ones (speedups, universe),
    /// then notes it.
    pub(super) fn complete(&mut self, row: &mut Row) {
        if row.threads > 1 {
            row.speedup = speedup(row, &self.baselines);
            row.speedup_concurrent = speedup_concurrent(row, &self.baselines);
        }
        note_baseline(row, &mut self.baselines);
        share_universe(row, &mut self.universes);
    }
}

#[cfg(test)]
mod tests {
    use super::limit_message;

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
