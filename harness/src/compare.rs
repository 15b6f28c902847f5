//! `statebench compare BASE.csv NEW.csv`: regression tracking between two
//! campaigns, printed as a Markdown summary; exit code 1 on a regression.
//!
//! Rules (also in the README, "Regression tracking and sharding"):
//!
//! - Runs are matched by **(suite, instance, engine, engine_config,
//!   threads)**; the repetitions of a run (`repetition` column) are one
//!   group. A group in one file only is listed as missing (not a
//!   regression: a campaign may cover a subset of the other).
//! - **status**: the set of statuses of a group's repetitions. All `ok`
//!   before and not now is a regression; the reverse an improvement; any
//!   other change (`timeout` -> `memory_limit`, ...) a deterministic change.
//! - **Deterministic figures**, compared exactly when both groups are all
//!   `ok` (a failed run's counts are progress, not results), as the set of
//!   their values over the repetitions: a change in `states` or
//!   `transitions` is a **count change**, a regression; a change in
//!   `levels`, `engine_bytes_used`, `bits_per_state`, `dd_final_nodes`,
//!   `dd_peak_nodes` is a deterministic change (reported, exit code
//!   unaffected). `engine_bytes_alloc` is deterministic for 1-thread runs
//!   (tables grow at the same counts) and compared exactly there; with more
//!   threads growth depends on the interleaving, so it is a noisy figure.
//! - **Noisy figures**, the median over a group's `ok` repetitions:
//!   `time_s` (exploration time) with `--time-tolerance`, `rss_peak_bytes`
//!   (and multi-thread `engine_bytes_alloc`) with `--memory-tolerance`.
//!   With tolerance `t`, a ratio new/base above `1 + t` is a regression,
//!   below `1 / (1 + t)` an improvement, provided the absolute difference
//!   is at least `--min-time` seconds / `--min-memory` MiB (tiny runs are
//!   all noise) and, when both groups have at least two `ok` repetitions,
//!   their ranges do not overlap (a regression needs every new repetition
//!   slower than every base repetition; an improvement the reverse). The
//!   range rule was added after two campaigns of one commit on the shared
//!   2-core VM moved medians by up to ±45 %: of 153 timed runs, 5 passed
//!   the 10 % median rule as slowdowns and 1 also passed the range rule
//!   (results/baseline/MACHINE.md has the whole story and the nightly's
//!   tolerance).
//!
//! Reads CSVs with the tolerant reader (`schema::read_rows_tolerant`, older
//! schemas by column name). Owns only these rules and the summary; must
//! not run anything nor write files.

use crate::report::tables::median;
use crate::schema::{read_rows_tolerant, Row, Status};
use anyhow::bail;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Options of `statebench compare`.
#[derive(Clone, Debug, clap::Args)]
pub struct CompareArgs {
    /// The reference campaign CSV (e.g. the last release's runs.csv).
    pub base: PathBuf,
    /// The campaign CSV checked against it.
    pub new: PathBuf,
    /// Allowed slowdown of the median exploration time, `10%` or `0.1`.
    #[arg(long, default_value = "10%", value_parser = parse_tolerance)]
    pub time_tolerance: f64,
    /// Allowed growth of the median peak RSS, `1%` or `0.01`.
    #[arg(long, default_value = "1%", value_parser = parse_tolerance)]
    pub memory_tolerance: f64,
    /// Time differences below this many seconds are noise, never reported.
    #[arg(long, default_value_t = 0.1)]
    pub min_time: f64,
    /// Memory differences below this many MiB are noise, never reported.
    #[arg(long, default_value_t = 4.0)]
    pub min_memory: f64,
}

/// Parses a tolerance: `10%` (percent) or `0.1` (a fraction, at most 1).
pub fn parse_tolerance(text: &str) -> Result<f64, String> {
    let t = text.trim();
    let (number, percent) = match t.strip_suffix('%') {
        Some(n) => (n.trim(), true),
        None => (t, false),
    };
    let v: f64 = number
        .parse()
        .map_err(|_| format!("'{text}' is not a tolerance (e.g. 10% or 0.1)"))?;
    if !(v.is_finite() && v >= 0.0) {
        return Err(format!("'{text}': a tolerance is a non-negative number"));
    }
    if percent {
        Ok(v / 100.0)
    } else if v > 1.0 {
        Err(format!(
            "'{text}': a tolerance without % is a fraction (at most 1); write {v}% for percent"
        ))
    } else {
        Ok(v)
    }
}

/// What a group of repetitions is matched by.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct GroupKey {
    suite: String,
    instance: String,
    engine: String,
    engine_config: String,
    threads: u32,
}

impl GroupKey {
    fn of(r: &Row) -> Self {
        GroupKey {
            suite: r.suite.clone(),
            instance: r.instance.clone(),
            engine: r.engine.clone(),
            engine_config: r.engine_config.clone(),
            threads: r.threads,
        }
    }

    fn cells(&self) -> String {
        format!(
            "{} | {} | {} | {} | {}",
            cell(&self.suite),
            cell(&self.instance),
            cell(&self.engine),
            cell(&self.engine_config),
            self.threads
        )
    }
}

fn cell(text: &str) -> String {
    if text.is_empty() {
        "-".into()
    } else {
        text.replace('|', "\\|")
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Regression,
    Improvement,
    Change,
}

/// One difference between the groups of a key.
#[derive(Debug)]
struct Finding {
    key: GroupKey,
    figure: String,
    base: String,
    new: String,
    change: String,
    kind: Kind,
}

/// The result of comparing two campaigns.
#[derive(Debug, Default)]
struct Comparison {
    findings: Vec<Finding>,
    compared: usize,
    unchanged: usize,
    only_base: Vec<GroupKey>,
    only_new: Vec<GroupKey>,
}

fn groups(rows: &[Row]) -> BTreeMap<GroupKey, Vec<&Row>> {
    let mut out: BTreeMap<GroupKey, Vec<&Row>> = BTreeMap::new();
    for r in rows {
        out.entry(GroupKey::of(r)).or_default().push(r);
    }
    out
}

fn statuses(rows: &[&Row]) -> BTreeSet<Status> {
    rows.iter().map(|r| r.status).collect()
}

fn status_text(s: &BTreeSet<Status>) -> String {
    s.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("+")
}

fn all_ok(s: &BTreeSet<Status>) -> bool {
    s.len() == 1 && s.contains(&Status::Ok)
}

/// The distinct values of a deterministic figure over the repetitions.
fn values(rows: &[&Row], figure: &dyn Fn(&Row) -> Option<String>) -> BTreeSet<String> {
    rows.iter()
        .map(|r| figure(r).unwrap_or_else(|| "-".into()))
        .collect()
}

fn ok_median(rows: &[&Row], figure: impl Fn(&Row) -> Option<f64>) -> Option<f64> {
    median(
        rows.iter()
            .filter(|r| r.status == Status::Ok)
            .filter_map(|r| figure(r))
            .collect(),
    )
}

fn relative(base: f64, new: f64) -> String {
    if base == 0.0 {
        return if new == 0.0 {
            "0%".into()
        } else {
            "new".into()
        };
    }
    format!("{:+.1}%", (new / base - 1.0) * 100.0)
}

/// The `ok` repetitions' values of a noisy figure.
fn ok_values(rows: &[&Row], figure: impl Fn(&Row) -> Option<f64>) -> Vec<f64> {
    rows.iter()
        .filter(|r| r.status == Status::Ok)
        .filter_map(|r| figure(r))
        .collect()
}

/// Noisy figure, from the groups' repetitions: regression when the new
/// median exceeds the base median by more than the tolerance (as a ratio)
/// and by at least `floor` in absolute terms, and (with two or more
/// repetitions on both sides) every new value exceeds every base value;
/// improvement the other way round.
fn noisy(base: &[f64], new: &[f64], tolerance: f64, floor: f64) -> Option<Kind> {
    let (b, n) = (median(base.to_vec())?, median(new.to_vec())?);
    if (n - b).abs() < floor {
        return None;
    }
    let ranges = base.len() >= 2 && new.len() >= 2;
    let min = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
    let max = |v: &[f64]| v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if n > b * (1.0 + tolerance) && (!ranges || min(new) > max(base)) {
        Some(Kind::Regression)
    } else if n * (1.0 + tolerance) < b && (!ranges || max(new) < min(base)) {
        Some(Kind::Improvement)
    } else {
        None
    }
}

type Figure = (&'static str, fn(&Row) -> Option<String>);

/// Deterministic figures compared exactly; the first two are counts.
const DETERMINISTIC: [Figure; 7] = [
    ("states", |r| r.states.map(|v| v.to_string())),
    ("transitions", |r| r.transitions.map(|v| v.to_string())),
    ("levels", |r| r.levels.map(|v| v.to_string())),
    ("engine_bytes_used", |r| {
        r.engine_bytes_used.map(|v| v.to_string())
    }),
    ("bits_per_state", |r| {
        r.bits_per_state.map(|v| v.to_string())
    }),
    ("dd_final_nodes", |r| {
        r.dd_final_nodes.map(|v| v.to_string())
    }),
    ("dd_peak_nodes", |r| r.dd_peak_nodes.map(|v| v.to_string())),
];
const COUNTS: [&str; 2] = ["states", "transitions"];

fn compare(base: &[Row], new: &[Row], args: &CompareArgs) -> Comparison {
    let base = groups(base);
    let new = groups(new);
    let mut out = Comparison::default();
    for (key, b) in &base {
        let Some(n) = new.get(key) else {
            out.only_base.push(key.clone());
            continue;
        };
        out.compared += 1;
        let before = out.findings.len();
        let mut find = |figure: &str, base: String, new: String, change: String, kind: Kind| {
            out.findings.push(Finding {
                key: key.clone(),
                figure: figure.to_string(),
                base,
                new,
                change,
                kind,
            })
        };
        let (sb, sn) = (statuses(b), statuses(n));
        if sb != sn {
            let kind = if all_ok(&sb) {
                Kind::Regression
            } else if all_ok(&sn) {
                Kind::Improvement
            } else {
                Kind::Change
            };
            find(
                "status",
                status_text(&sb),
                status_text(&sn),
                String::new(),
                kind,
            );
        }
        let both_ok = all_ok(&sb) && all_ok(&sn);
        if both_ok {
            let alloc: Figure = ("engine_bytes_alloc", |r| {
                r.engine_bytes_alloc.map(|v| v.to_string())
            });
            let exact = DETERMINISTIC
                .iter()
                .chain((key.threads == 1).then_some(&alloc));
            for (name, figure) in exact {
                let (vb, vn) = (values(b, figure), values(n, figure));
                if vb == vn {
                    continue;
                }
                let join = |v: &BTreeSet<String>| v.iter().cloned().collect::<Vec<_>>().join(" / ");
                let number = |v: &BTreeSet<String>| -> Option<f64> {
                    (v.len() == 1).then(|| v.first()?.parse().ok()).flatten()
                };
                let change = match (number(&vb), number(&vn)) {
                    (Some(x), Some(y)) => relative(x, y),
                    _ => String::new(),
                };
                let (name, kind) = if COUNTS.contains(name) {
                    (format!("{name} (count change)"), Kind::Regression)
                } else {
                    (name.to_string(), Kind::Change)
                };
                find(&name, join(&vb), join(&vn), change, kind);
            }
        }
        let mib = (1u64 << 20) as f64;
        let mut noisy_figure = |name: &str,
                                figure: &dyn Fn(&Row) -> Option<f64>,
                                tolerance: f64,
                                floor: f64,
                                show: &dyn Fn(f64) -> String| {
            let (Some(x), Some(y)) = (ok_median(b, figure), ok_median(n, figure)) else {
                return;
            };
            let (vb, vn) = (ok_values(b, figure), ok_values(n, figure));
            if let Some(kind) = noisy(&vb, &vn, tolerance, floor) {
                find(name, show(x), show(y), relative(x, y), kind);
            }
        };
        let secs = |v: f64| {
            if v < 1.0 {
                format!("{:.3} ms", v * 1e3)
            } else {
                format!("{v:.3} s")
            }
        };
        let mebi = |v: f64| format!("{:.1} MiB", v / mib);
        noisy_figure(
            "time_s (median)",
            &|r| r.time_s,
            args.time_tolerance,
            args.min_time,
            &secs,
        );
        noisy_figure(
            "rss_peak_bytes (median)",
            &|r| r.rss_peak_bytes.map(|v| v as f64),
            args.memory_tolerance,
            args.min_memory * mib,
            &mebi,
        );
        if key.threads > 1 {
            noisy_figure(
                "engine_bytes_alloc (median)",
                &|r| r.engine_bytes_alloc.map(|v| v as f64),
                args.memory_tolerance,
                args.min_memory * mib,
                &mebi,
            );
        }
        if out.findings.len() == before {
            out.unchanged += 1;
        }
    }
    out.only_new = new
        .keys()
        .filter(|k| !base.contains_key(k))
        .cloned()
        .collect();
    out
}

fn commits(rows: &[Row]) -> String {
    let set: BTreeSet<&str> = rows.iter().map(|r| r.git_commit.as_str()).collect();
    match set.len() {
        0 => "no rows".into(),
        1..=3 => format!("commit {}", set.into_iter().collect::<Vec<_>>().join(", ")),
        n => format!("{n} commits"),
    }
}

/// How many lines of missing runs are listed before "... and N more".
const MISSING_SHOWN: usize = 50;

fn markdown(c: &Comparison, args: &CompareArgs, files: [(&Path, &[Row], &[String]); 2]) -> String {
    let mut out = String::from("# statebench compare\n\n");
    for (label, (path, rows, notes)) in ["base", "new"].iter().zip(files) {
        let _ = writeln!(
            out,
            "- {label}: `{}` ({} rows, {})",
            path.display(),
            rows.len(),
            commits(rows)
        );
        for note in notes {
            let _ = writeln!(out, "  - note: {note}");
        }
    }
    let _ = writeln!(
        out,
        "- rules: runs matched by (suite, instance, engine, engine_config, threads), repetitions grouped; \
         status, states, transitions, levels, engine bytes, bits per state, DD nodes exactly; \
         median time_s of ok repetitions within {:.1}% (differences under {} s ignored); \
         median rss_peak_bytes within {:.1}% (differences under {} MiB ignored); \
         with 2+ repetitions on both sides, a change also needs the repetitions' ranges apart\n",
        args.time_tolerance * 100.0,
        args.min_time,
        args.memory_tolerance * 100.0,
        args.min_memory
    );
    let of = |kind: Kind| c.findings.iter().filter(move |f| f.kind == kind);
    let regressions = of(Kind::Regression).count();
    let count_changes = of(Kind::Regression)
        .filter(|f| f.figure.contains("count change"))
        .count();
    let verdict = if regressions == 0 {
        "no regression".to_string()
    } else {
        format!("{regressions} regression(s), {count_changes} of them count change(s)")
    };
    let _ = writeln!(
        out,
        "**Result: {verdict}**: {} runs compared, {} unchanged; {} improvement(s), {} deterministic change(s); {} run(s) missing from NEW, {} missing from BASE.\n",
        c.compared,
        c.unchanged,
        of(Kind::Improvement).count(),
        of(Kind::Change).count(),
        c.only_base.len(),
        c.only_new.len()
    );
    for (kind, title) in [
        (Kind::Regression, "Regressions"),
        (Kind::Improvement, "Improvements"),
        (Kind::Change, "Deterministic changes"),
    ] {
        let list: Vec<&Finding> = of(kind).collect();
        if list.is_empty() {
            continue;
        }
        let _ = writeln!(out, "## {title} ({})\n", list.len());
        out.push_str(
            "| suite | instance | engine | config | threads | figure | base | new | change |\n",
        );
        out.push_str("|---|---|---|---|---|---|---|---|---|\n");
        for f in list {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} |",
                f.key.cells(),
                f.figure,
                cell(&f.base),
                cell(&f.new),
                cell(&f.change)
            );
        }
        out.push('\n');
    }
    for (keys, title) in [
        (&c.only_base, "Missing from NEW (in BASE only)"),
        (&c.only_new, "Missing from BASE (in NEW only)"),
    ] {
        if keys.is_empty() {
            continue;
        }
        let _ = writeln!(out, "## {title} ({})\n", keys.len());
        out.push_str("| suite | instance | engine | config | threads |\n");
        out.push_str("|---|---|---|---|---|\n");
        for k in keys.iter().take(MISSING_SHOWN) {
            let _ = writeln!(out, "| {} |", k.cells());
        }
        if keys.len() > MISSING_SHOWN {
            let _ = writeln!(out, "\n... and {} more", keys.len() - MISSING_SHOWN);
        }
        out.push('\n');
    }
    out
}

/// `statebench compare`: prints the summary; 0 without regression, 1 with.
pub fn command(args: CompareArgs) -> anyhow::Result<i32> {
    for (name, v) in [
        ("--min-time", args.min_time),
        ("--min-memory", args.min_memory),
    ] {
        if !(v.is_finite() && v >= 0.0) {
            bail!("{name} must be a non-negative number");
        }
    }
    let base = read_rows_tolerant(&args.base)?;
    let new = read_rows_tolerant(&args.new)?;
    let notes = |l: &crate::schema::Loaded| -> Vec<String> {
        let mut n = l.notes.clone();
        if !l.missing_columns.is_empty() {
            n.push(format!(
                "older schema: no columns {} (read as empty, derived ones recomputed)",
                l.missing_columns.join(", ")
            ));
        }
        n
    };
    let c = compare(&base.rows, &new.rows, &args);
    print!(
        "{}",
        markdown(
            &c,
            &args,
            [
                (&args.base, &base.rows, &notes(&base)),
                (&args.new, &new.rows, &notes(&new)),
            ]
        )
    );
    Ok(i32::from(
        c.findings.iter().any(|f| f.kind == Kind::Regression),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args() -> CompareArgs {
        CompareArgs {
            base: "b".into(),
            new: "n".into(),
            time_tolerance: 0.1,
            memory_tolerance: 0.01,
            min_time: 0.0,
            min_memory: 0.0,
        }
    }

    fn row(instance: &str, rep: u32, time: f64) -> Row {
        let mut r = Row::example();
        r.instance = instance.into();
        r.repetition = rep;
        r.time_s = Some(time);
        r.rss_peak_bytes = Some(100 << 20);
        r.derive();
        r
    }

    #[test]
    fn tolerances_accept_percent_and_fractions() {
        assert_eq!(parse_tolerance("10%"), Ok(0.1));
        assert_eq!(parse_tolerance("0.1"), Ok(0.1));
        assert_eq!(parse_tolerance(" 250 % "), Ok(2.5));
        for bad in ["x", "-1%", "10", "nan", "%", ""] {
            assert!(parse_tolerance(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn medians_over_repetitions_decide_noisy_figures() {
        // One slow outlier among three repetitions is not a regression.
        let base = vec![row("a", 0, 1.0), row("a", 1, 1.0), row("a", 2, 1.0)];
        let new = vec![row("a", 0, 1.0), row("a", 1, 9.0), row("a", 2, 1.05)];
        let c = compare(&base, &new, &args());
        assert!(c.findings.is_empty(), "{:?}", c.findings);
        assert_eq!((c.compared, c.unchanged), (1, 1));
        // Two of three slow but one as fast as before: the ranges overlap,
        // noise.
        let new = vec![row("a", 0, 1.0), row("a", 1, 2.0), row("a", 2, 2.0)];
        let c = compare(&base, &new, &args());
        assert!(c.findings.is_empty(), "{:?}", c.findings);
        // All three slower: the median moved and the ranges are apart.
        let new = vec![row("a", 0, 1.9), row("a", 1, 2.0), row("a", 2, 2.0)];
        let c = compare(&base, &new, &args());
        assert_eq!(c.findings.len(), 1, "{:?}", c.findings);
        assert_eq!(c.findings[0].kind, Kind::Regression);
        assert_eq!(c.findings[0].change, "+100.0%");
        // The absolute floor hides it.
        let floor = CompareArgs {
            min_time: 1.5,
            ..args()
        };
        assert!(compare(&base, &new, &floor).findings.is_empty());
    }

    #[test]
    fn overlapping_ranges_are_noise_both_ways() {
        // Medians 1.5 vs 1.0 (+50 %), but the base's slowest repetition is
        // slower than the new fastest: not a regression.
        let base = vec![row("a", 0, 0.9), row("a", 1, 1.0), row("a", 2, 1.6)];
        let new = vec![row("a", 0, 1.4), row("a", 1, 1.5), row("a", 2, 1.5)];
        assert!(compare(&base, &new, &args()).findings.is_empty());
        // The reverse direction: not an improvement either.
        assert!(compare(&new, &base, &args()).findings.is_empty());
        // Apart: an improvement.
        let fast = vec![row("a", 0, 0.5), row("a", 1, 0.6), row("a", 2, 0.6)];
        let c = compare(&base, &fast, &args());
        assert_eq!(c.findings.len(), 1, "{:?}", c.findings);
        assert_eq!(c.findings[0].kind, Kind::Improvement);
        // One repetition per side: the median rule alone decides.
        let c = compare(&base[2..], &new[..1], &args());
        assert_eq!(c.findings.len(), 1, "{:?}", c.findings);
        assert_eq!(c.findings[0].kind, Kind::Improvement);
    }

    #[test]
    fn counts_and_status_are_exact() {
        let base = vec![row("a", 0, 1.0), row("b", 0, 1.0)];
        let mut new = base.clone();
        new[0].states = Some(2);
        new[0].derive();
        new[1].status = Status::Timeout;
        new[1].derive();
        let c = compare(&base, &new, &args());
        let figures: Vec<(&str, &str, Kind)> = c
            .findings
            .iter()
            .map(|f| (f.key.instance.as_str(), f.figure.as_str(), f.kind))
            .collect();
        assert!(figures.contains(&("a", "states (count change)", Kind::Regression)));
        assert!(figures.contains(&("a", "bits_per_state", Kind::Change)));
        assert!(figures.contains(&("b", "status", Kind::Regression)));
        // A failed run's counts are progress: not compared.
        assert!(!figures.iter().any(|f| f.0 == "b" && f.1 != "status"));
        // The reverse is an improvement.
        let c = compare(&new[1..], &base[1..], &args());
        assert_eq!(c.findings[0].kind, Kind::Improvement);
    }
}
