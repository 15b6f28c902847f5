//! A campaign's directory between sessions: its name, its CSV, the
//! settings it was started with (`campaign.json`, which `--resume` takes
//! over the command line's), the rows of earlier sessions (a CSV of an
//! older schema upgraded first), and the command that resumes it.
//!
//! Owns the files of the campaign directory other than the rows' format.
//! Must not define CSV columns (`schema`), plan (`plan`) nor run anything
//! (`execute`).

use super::args::{RunArgs, Selection};
use super::row::now_rfc3339;
use crate::schema::{read_rows, Row};
use crate::shard::Shard;
use anyhow::{bail, Context as _};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

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
pub(super) fn resume_command(campaign: &str, results: &Path, no_report: bool) -> String {
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
pub(super) fn campaign_csv(results: &Path, campaign: &str) -> PathBuf {
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

impl Settings {
    /// The settings of `args`.
    fn of(args: &RunArgs) -> Settings {
        Settings {
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
        }
    }

    /// Puts the settings into `args` (`--scaling`'s counts are stored as
    /// the thread counts).
    fn apply(self, args: &mut RunArgs) {
        args.selection = self.selection;
        args.engines = self.engines;
        args.params = self.params;
        args.timeout = self.timeout;
        args.mem_limit = self.mem_limit;
        args.threads = self.threads;
        args.scaling = false;
        args.repetitions = self.repetitions.max(1);
        args.shard = self.shard;
        args.sweeps = self.sweeps;
        args.sweep_where_first_finished = self.sweep_where_first_finished;
        args.threads_where_first_finished = self.threads_where_first_finished;
        args.engines_where_first_finished = self.engines_where_first_finished;
    }
}

/// With `--resume`: names the campaign (the latest under `--results`
/// when none is given) and puts the settings it was started with into
/// `args`, where it stored them.
pub(super) fn restore_settings(args: &mut RunArgs) -> anyhow::Result<()> {
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
        stored.apply(args);
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
    Ok(())
}

/// Stores the settings of `args` beside the campaign's CSV, unless the
/// campaign has them already.
pub(super) fn store_settings(args: &RunArgs, campaign: &str) -> anyhow::Result<()> {
    let settings = settings_path(&args.results, campaign);
    if !settings.exists() {
        std::fs::create_dir_all(settings.parent().expect("campaign directory"))?;
        let stored = Settings::of(args);
        std::fs::write(&settings, serde_json::to_string_pretty(&stored)? + "\n")
            .with_context(|| format!("cannot write {}", settings.display()))?;
    }
    Ok(())
}

/// The campaign's name: `--campaign`, the latest one with `--resume`, or
/// the suites and the time (and the shard) for a new one.
pub(super) fn campaign_name(args: &RunArgs) -> anyhow::Result<String> {
    Ok(match (&args.campaign, args.resume) {
        (Some(c), _) => c.clone(),
        (None, true) => latest_campaign(&args.results)?,
        (None, false) => format!(
            "{}-{}{}",
            args.selection.suite.join("+"),
            now_rfc3339().replace([':', '-'], "").trim_end_matches('Z'),
            args.shard
                .map_or(String::new(), |s| format!("-shard{}of{}", s.index, s.count))
        ),
    })
}

/// The rows a campaign already has: none for a new one; a CSV that exists
/// is refused without `--resume`, emptied when it holds nothing, upgraded
/// when written in an older schema.
pub(super) fn previous_rows(
    csv_path: &Path,
    campaign: &str,
    resume: bool,
) -> anyhow::Result<Vec<Row>> {
    if !csv_path.exists() {
        return Ok(Vec::new());
    }
    if !resume {
        bail!(
            "campaign '{campaign}' already has {}; pass --resume to continue it or --campaign NAME for a new one",
            csv_path.display()
        );
    }
    if holds_nothing(csv_path)? {
        // Created but never written (killed at once, or emptied by
        // hand): a campaign with no run done; the header comes anew.
        std::fs::write(csv_path, "")
            .with_context(|| format!("cannot write {}", csv_path.display()))?;
        Ok(Vec::new())
    } else {
        upgrade_older_schema(csv_path)?;
        read_rows(csv_path)
    }
}
