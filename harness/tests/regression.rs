//! End-to-end tests of regression tracking and sharding: `run
//! --repetitions`, `compare` on real campaigns and on edited copies of one,
//! `run --shard I/N` + `merge` against the unsharded campaign. Small
//! built-in nets, engines hash-table and tree; expectations are computed
//! from the CSVs.

mod common;

use common::{read, resume, run_without_report, statebench, text, write, Record, Table};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::process::Output;

/// Small built-in nets (tens to hundreds of states each).
const MODELS: &str = "token-ring-4-3,philosophers-3,mutex-4,cycles-3-4,kanban-1";

/// Runs a campaign `name` of [`MODELS`] under `results`; returns its CSV.
fn campaign(results: &Path, name: &str, extra: &[&str]) -> PathBuf {
    campaign_of(MODELS, results, name, extra)
}

fn campaign_of(models: &str, results: &Path, name: &str, extra: &[&str]) -> PathBuf {
    let out = statebench()
        .args([
            "run",
            "--suite",
            "builtin",
            "--engines",
            "hash-table,tree",
            "--models",
            models,
            "--no-report",
            "--campaign",
            name,
            "--results",
        ])
        .arg(results)
        .args(extra)
        .output()
        .unwrap();
    assert!(out.status.success(), "campaign {name}: {}", text(&out));
    results.join(name).join("runs.csv")
}

/// `merge OUT INPUTS... EXTRA...`.
fn merge<P: AsRef<std::ffi::OsStr>>(out: &Path, inputs: &[P], extra: &[&str]) -> Output {
    statebench()
        .arg("merge")
        .arg(out)
        .args(inputs)
        .args(extra)
        .output()
        .unwrap()
}

fn compare(base: &Path, new: &Path, extra: &[&str]) -> (Option<i32>, String, Output) {
    let out = statebench()
        .arg("compare")
        .arg(base)
        .arg(new)
        .args(extra)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    (out.status.code(), stdout, out)
}

/// The lines of the Markdown section whose title starts with `title`.
fn section<'a>(markdown: &'a str, title: &str) -> Vec<&'a str> {
    let mut lines = markdown.lines();
    let Some(_) = lines.find(|l| l.starts_with(&format!("## {title}"))) else {
        return Vec::new();
    };
    lines
        .take_while(|l| !l.starts_with("## "))
        .filter(|l| l.starts_with("| ") && !l.starts_with("| suite"))
        .collect()
}

const KEY: [&str; 6] = [
    "suite",
    "instance",
    "engine",
    "engine_config",
    "threads",
    "repetition",
];

fn key(r: &Record) -> Vec<String> {
    KEY.iter().map(|c| r[*c].clone()).collect()
}

#[test]
fn two_campaigns_of_one_commit_have_no_regression() {
    let dir = tempfile::tempdir().unwrap();
    let a = campaign(dir.path(), "a", &[]);
    let b = campaign(dir.path(), "b", &[]);
    let runs = read(&a).rows.len();
    assert!(runs > 0);
    let (code, stdout, out) = compare(&a, &b, &[]);
    assert_eq!(code, Some(0), "{}", text(&out));
    assert!(stdout.contains("no regression"), "{stdout}");
    assert!(
        stdout.contains(&format!("{runs} runs compared")),
        "{stdout}"
    );
    assert!(section(&stdout, "Missing").is_empty(), "{stdout}");
    assert!(section(&stdout, "Regressions").is_empty(), "{stdout}");
}

#[test]
fn older_schemas_are_compared_by_column_name() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let (old, new) = (
        fixtures.join("old-schema/runs.csv"),
        fixtures.join("small/runs.csv"),
    );
    let groups = |t: &Table| -> BTreeSet<Vec<String>> {
        t.rows
            .iter()
            .map(|r| {
                let mut k = key(r);
                k.pop();
                k
            })
            .collect()
    };
    let (go, gn) = (groups(&read(&old)), groups(&read(&new)));
    let (code, stdout, out) = compare(&old, &new, &[]);
    assert_eq!(code, Some(0), "{}", text(&out));
    assert!(stdout.contains("older schema: no columns"), "{stdout}");
    let both = go.intersection(&gn).count();
    assert!(both > 0);
    assert!(
        stdout.contains(&format!("{both} runs compared")),
        "{stdout}"
    );
    assert_eq!(
        section(&stdout, "Missing from BASE").len(),
        gn.difference(&go).count(),
        "{stdout}"
    );
}

#[test]
fn edited_campaigns_show_their_edits() {
    let dir = tempfile::tempdir().unwrap();
    let base = campaign(dir.path(), "base", &[]);
    let e = Edits {
        dir: dir.path().to_path_buf(),
        table: read(&base),
        base,
    };
    let copy = unchanged_copy_is_unchanged(&e);
    a_changed_count_is_a_regression(&e);
    slower_runs_are_regressions(&e);
    faster_runs_are_improvements(&e);
    missing_rows_are_named(&e);
    a_failed_run_is_a_regression(&e);
    usage_and_io_errors_exit_2(&e, &copy);
}

/// A campaign's CSV and edited copies of it in `dir`.
struct Edits {
    dir: PathBuf,
    base: PathBuf,
    table: Table,
}

impl Edits {
    /// A copy of the campaign's CSV named `name`, its rows edited by `edit`.
    fn edited(&self, name: &str, edit: &dyn Fn(&mut Vec<Record>)) -> PathBuf {
        let mut rows = self.table.rows.clone();
        edit(&mut rows);
        let path = self.dir.join(name);
        write(&path, &self.table.headers, &rows);
        path
    }

    /// The runs of `engine` with a measured time.
    fn timed(&self, engine: &str) -> usize {
        self.table
            .rows
            .iter()
            .filter(|r| r["engine"] == engine && r["time_s"].parse::<f64>().unwrap() > 0.0)
            .count()
    }
}

/// An edit multiplying the time of `engine`'s runs by `factor`.
fn scale_time(engine: &'static str, factor: f64) -> impl Fn(&mut Vec<Record>) {
    move |rows: &mut Vec<Record>| {
        for r in rows.iter_mut().filter(|r| r["engine"] == engine) {
            let t: f64 = r["time_s"].parse().unwrap();
            r.insert("time_s".into(), (t * factor).to_string());
        }
    }
}

/// An unchanged copy: nothing to report, even with no noise floor; returns it.
fn unchanged_copy_is_unchanged(e: &Edits) -> PathBuf {
    let copy = e.edited("copy.csv", &|_| {});
    let (code, stdout, out) = compare(&e.base, &copy, &["--min-time", "0", "--min-memory", "0"]);
    assert_eq!(code, Some(0), "{}", text(&out));
    assert!(stdout.contains("no regression"), "{stdout}");
    assert!(
        stdout.contains(&format!(
            "{0} runs compared, {0} unchanged",
            e.table.rows.len()
        )),
        "{stdout}"
    );
    copy
}

/// One row's state count changed: a count change naming the row.
fn a_changed_count_is_a_regression(e: &Edits) {
    let target = e.table.rows[e.table.rows.len() / 2].clone();
    let states = e.edited("states.csv", &|rows| {
        let r = rows.iter_mut().find(|r| key(r) == key(&target)).unwrap();
        let s: u64 = r["states"].parse().unwrap();
        r.insert("states".into(), (s + 1).to_string());
    });
    let (code, stdout, out) = compare(&e.base, &states, &[]);
    assert_eq!(code, Some(1), "{}", text(&out));
    assert!(!stdout.contains("no regression"), "{stdout}");
    let regressions = section(&stdout, "Regressions");
    assert_eq!(regressions.len(), 1, "{stdout}");
    let line = regressions[0];
    for needle in [
        target["instance"].as_str(),
        target["engine"].as_str(),
        "states (count change)",
    ] {
        assert!(line.contains(needle), "{needle} not in {line}");
    }
}

/// Every tree run three times slower: one time regression per run,
/// unless a tolerance or the noise floor hides it.
fn slower_runs_are_regressions(e: &Edits) {
    let slow = e.edited("slow.csv", &scale_time("tree", 3.0));
    for tolerance in ["10%", "0.5"] {
        let (code, stdout, out) = compare(
            &e.base,
            &slow,
            &["--min-time", "0", "--time-tolerance", tolerance],
        );
        assert_eq!(code, Some(1), "{}", text(&out));
        let regressions = section(&stdout, "Regressions");
        assert!(e.timed("tree") > 0);
        assert_eq!(regressions.len(), e.timed("tree"), "{stdout}");
        assert!(
            regressions
                .iter()
                .all(|l| l.contains("| tree |") && l.contains("time_s")),
            "{stdout}"
        );
        assert!(section(&stdout, "Improvements").is_empty(), "{stdout}");
    }
    // A tolerance above the slowdown: none.
    let (code, stdout, _) = compare(
        &e.base,
        &slow,
        &["--min-time", "0", "--time-tolerance", "250%"],
    );
    assert_eq!(code, Some(0), "{stdout}");
    // The default noise floor (0.1 s) hides a slowdown of runs this small
    // only when they are all that small.
    let longest: f64 = e
        .table
        .rows
        .iter()
        .filter(|r| r["engine"] == "tree")
        .map(|r| r["time_s"].parse::<f64>().unwrap())
        .fold(0.0, f64::max);
    let (code, _, out) = compare(&e.base, &slow, &[]);
    assert_eq!(
        code,
        Some(i32::from(2.0 * longest >= 0.1)),
        "{}",
        text(&out)
    );
}

/// Every hash-table run three times faster: improvements, exit 0.
fn faster_runs_are_improvements(e: &Edits) {
    let fast = e.edited("fast.csv", &scale_time("hash-table", 1.0 / 3.0));
    let (code, stdout, out) = compare(&e.base, &fast, &["--min-time", "0"]);
    assert_eq!(code, Some(0), "{}", text(&out));
    assert!(stdout.contains("no regression"), "{stdout}");
    let improvements = section(&stdout, "Improvements");
    assert!(e.timed("hash-table") > 0);
    assert_eq!(improvements.len(), e.timed("hash-table"), "{stdout}");
    assert!(improvements.iter().all(|l| l.contains("| hash-table |")));
}

/// A row removed: missing from NEW; the other way, missing from BASE.
fn missing_rows_are_named(e: &Edits) {
    let last = e.table.rows.last().unwrap().clone();
    let removed = e.edited("removed.csv", &|rows| {
        rows.pop();
    });
    let (code, stdout, out) = compare(&e.base, &removed, &[]);
    assert_eq!(code, Some(0), "{}", text(&out));
    let missing = section(&stdout, "Missing from NEW");
    assert_eq!(missing.len(), 1, "{stdout}");
    assert!(
        missing[0].contains(&last["instance"]) && missing[0].contains(&last["engine"]),
        "{stdout}"
    );
    let (_, stdout, _) = compare(&removed, &e.base, &[]);
    assert_eq!(section(&stdout, "Missing from BASE").len(), 1, "{stdout}");
}

/// A status ok -> timeout is a regression.
fn a_failed_run_is_a_regression(e: &Edits) {
    let failed = e.edited("failed.csv", &|rows| {
        rows[0].insert("status".into(), "timeout".into());
    });
    let (code, stdout, _) = compare(&e.base, &failed, &[]);
    assert_eq!(code, Some(1), "{stdout}");
    let regressions = section(&stdout, "Regressions");
    assert!(
        regressions.len() == 1 && regressions[0].contains("status"),
        "{stdout}"
    );
}

/// Usage and IO errors: exit 2.
fn usage_and_io_errors_exit_2(e: &Edits, copy: &Path) {
    for args in [
        vec!["--time-tolerance", "fast"],
        vec!["--memory-tolerance", "5"],
    ] {
        let (code, _, out) = compare(&e.base, copy, &args);
        assert_eq!(code, Some(2), "{args:?}: {}", text(&out));
    }
    let (code, _, out) = compare(&e.base, &e.dir.join("nosuch.csv"), &[]);
    assert_eq!(code, Some(2), "{}", text(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("nosuch.csv"));
}

#[test]
fn repetitions_give_one_row_each_and_survive_resume() {
    let dir = tempfile::tempdir().unwrap();
    let csv = campaign_of(
        "token-ring-4-3,mutex-4",
        dir.path(),
        "r",
        &["--repetitions", "2", "--threads", "1,2"],
    );
    let table = read(&csv);
    let mut groups: BTreeMap<Vec<String>, Vec<String>> = BTreeMap::new();
    for r in &table.rows {
        let mut k = key(r);
        let rep = k.pop().unwrap();
        groups.entry(k).or_default().push(rep);
    }
    let instances: BTreeSet<&str> = table.rows.iter().map(|r| r["instance"].as_str()).collect();
    let threads: BTreeSet<&str> = table.rows.iter().map(|r| r["threads"].as_str()).collect();
    assert_eq!(instances, BTreeSet::from(["token-ring-4-3", "mutex-4"]));
    assert_eq!(threads, BTreeSet::from(["1", "2"]));
    // Per instance and engine: a row per thread count, and the concurrent
    // form at one thread (configuration form=concurrent, the paper's
    // speedup baseline).
    assert_eq!(groups.len(), instances.len() * 2 * (threads.len() + 1));
    for (k, mut reps) in groups {
        reps.sort();
        assert_eq!(reps, ["0", "1"], "{k:?}");
    }
    // A 2-thread row's speedup is against the 1-thread row of its repetition.
    for r in table.rows.iter().filter(|r| r["threads"] == "2") {
        assert_eq!(r["status"], "ok", "{r:?}");
        let base = table
            .rows
            .iter()
            .find(|b| {
                b["threads"] == "1"
                    && KEY
                        .iter()
                        .filter(|c| **c != "threads")
                        .all(|c| b[*c] == r[*c])
            })
            .unwrap();
        let expected = base["time_s"].parse::<f64>().unwrap() / r["time_s"].parse::<f64>().unwrap();
        let speedup: f64 = r["speedup"].parse().unwrap();
        assert!(
            (speedup - expected).abs() <= 1e-9 * expected.max(1.0),
            "{r:?}"
        );
        // The paper's speedup: against the concurrent form at one thread.
        let concurrent = table
            .rows
            .iter()
            .find(|b| {
                b["threads"] == "1"
                    && b["engine_config"] == "form=concurrent"
                    && KEY
                        .iter()
                        .filter(|c| **c != "threads" && **c != "engine_config")
                        .all(|c| b[*c] == r[*c])
            })
            .unwrap();
        let expected =
            concurrent["time_s"].parse::<f64>().unwrap() / r["time_s"].parse::<f64>().unwrap();
        let paper: f64 = r["speedup_concurrent"].parse().unwrap();
        assert!(
            (paper - expected).abs() <= 1e-9 * expected.max(1.0),
            "{r:?}"
        );
    }

    // Keep the first half; a resume without --repetitions reruns the rest,
    // repetition 1 included.
    let half = table.rows.len() / 2;
    write(&csv, &table.headers, &table.rows[..half]);
    let out = resume(dir.path(), "r");
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(&format!("{half} already done")),
        "{}",
        text(&out)
    );
    let mut before: Vec<Vec<String>> = table.rows.iter().map(key).collect();
    let mut after: Vec<Vec<String>> = read(&csv).rows.iter().map(key).collect();
    before.sort();
    after.sort();
    assert_eq!(before, after);
}

/// A campaign written by an older statebench (here: without the latency
/// columns) is rewritten in today's schema when resumed, its old rows
/// kept (new columns empty) and the original backed up.
#[test]
fn resume_upgrades_an_older_schema() {
    let dir = tempfile::tempdir().unwrap();
    let csv = campaign_of("token-ring-4-3,mutex-4", dir.path(), "old", &[]);
    let table = read(&csv);
    let old_headers: Vec<String> = table
        .headers
        .iter()
        .filter(|h| !h.starts_with("op_latency"))
        .cloned()
        .collect();
    assert!(
        old_headers.len() < table.headers.len(),
        "latency columns exist"
    );
    let half = table.rows.len() / 2;
    assert!(half > 0);
    write(&csv, &old_headers, &table.rows[..half]);
    let out = resume(dir.path(), "old");
    assert!(out.status.success(), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("older statebench"), "{}", text(&out));
    assert!(
        stderr.contains(&format!("{half} already done")),
        "{}",
        text(&out)
    );
    let after = read(&csv);
    assert_eq!(after.headers, table.headers);
    assert_eq!(after.rows.len(), table.rows.len());
    for (old, new) in table.rows[..half].iter().zip(&after.rows) {
        assert_eq!(key(old), key(new));
        assert_eq!(old["states"], new["states"]);
        assert_eq!(new["op_latency_p50_ns"], "", "old rows have no latency");
    }
    assert!(after.rows[half..]
        .iter()
        .all(|r| !r["op_latency_p50_ns"].is_empty()));
    let backup = read(&csv.with_extension("csv.SCHEMA-UPGRADE.bak"));
    assert_eq!(backup.headers, old_headers);
    assert_eq!(backup.rows.len(), half);
}

#[test]
fn shards_merged_equal_the_unsharded_campaign() {
    let dir = tempfile::tempdir().unwrap();
    let (full, shards) = sharded_campaigns(dir.path());
    merge_equals_the_unsharded(dir.path(), &full, &shards);
    merge_refuses_a_run_in_two_inputs(dir.path(), &shards);
    merge_rerun_replaces(dir.path(), &shards);
    merge_of_other_schemas(dir.path(), &shards);
}

/// The campaign unsharded (`full`) and in three shards under `dir`,
/// checked to split by instance.
fn sharded_campaigns(dir: &Path) -> (PathBuf, Vec<PathBuf>) {
    let full = campaign(dir, "full", &[]);
    let shards: Vec<PathBuf> = (1..=3)
        .map(|i| campaign(dir, &format!("s{i}"), &["--shard", &format!("{i}/3")]))
        .collect();
    // By instance: disjoint instance sets, none empty with 5 instances.
    let mut owner: HashMap<String, usize> = HashMap::new();
    for (i, s) in shards.iter().enumerate() {
        let t = read(s);
        assert!(!t.rows.is_empty(), "shard {} is empty", i + 1);
        for r in &t.rows {
            let first = *owner.entry(r["instance"].clone()).or_insert(i);
            assert_eq!(first, i, "{} in two shards", r["instance"]);
        }
    }
    // campaign.json keeps the shard for --resume.
    let settings = std::fs::read_to_string(dir.join("s2/campaign.json")).unwrap();
    let settings: serde_json::Value = serde_json::from_str(&settings).unwrap();
    assert_eq!(settings["shard"]["index"], 2);
    assert_eq!(settings["shard"]["count"], 3);

    (full, shards)
}

/// `merge` of the shards equals the unsharded campaign; an existing
/// output is refused without `--force`.
fn merge_equals_the_unsharded(dir: &Path, full: &Path, shards: &[PathBuf]) {
    let merged = dir.join("merged/runs.csv");
    let out = merge(&merged, shards, &[]);
    assert!(out.status.success(), "{}", text(&out));
    let (f, m) = (read(full), read(&merged));
    assert_eq!(f.headers, m.headers);
    let by_key = |t: &Table| -> BTreeMap<Vec<String>, Record> {
        t.rows.iter().map(|r| (key(r), r.clone())).collect()
    };
    let (fk, mk) = (by_key(&f), by_key(&m));
    assert_eq!(mk.len(), m.rows.len(), "duplicate keys in the merge");
    assert_eq!(fk.keys().collect::<Vec<_>>(), mk.keys().collect::<Vec<_>>());
    for (k, fr) in &fk {
        for c in [
            "status",
            "states",
            "transitions",
            "levels",
            "engine_bytes_used",
            "engine_bytes_alloc",
            "bits_per_state",
            "states_match",
            "transitions_match",
            "k",
        ] {
            assert_eq!(fr[c], mk[k][c], "{c} of {k:?}");
        }
    }
    let (code, stdout, out) = compare(full, &merged, &[]);
    assert_eq!(code, Some(0), "{}", text(&out));
    assert!(stdout.contains("no regression"), "{stdout}");

    // OUT exists: refused without --force.
    let again = merge(&merged, shards, &[]);
    assert_eq!(again.status.code(), Some(2), "{}", text(&again));
    assert!(String::from_utf8_lossy(&again.stderr).contains("--force"));
    let forced = merge(&merged, shards, &["--force"]);
    assert!(forced.status.success(), "{}", text(&forced));
    assert_eq!(read(&merged).rows.len(), f.rows.len());
}

/// A run in two inputs is an error, and nothing is written.
fn merge_refuses_a_run_in_two_inputs(dir: &Path, shards: &[PathBuf]) {
    let dup = merge(
        &dir.join("dup.csv"),
        &[&shards[0], &shards[1], &shards[0]],
        &[],
    );
    assert_eq!(dup.status.code(), Some(2), "{}", text(&dup));
    let stderr = String::from_utf8_lossy(&dup.stderr);
    assert!(
        stderr.contains("duplicate run") && stderr.contains(&*shards[0].to_string_lossy()),
        "{stderr}"
    );
    assert!(!dir.join("dup.csv").exists());
}

/// With `--rerun-replaces` the later input's rows win, in place.
fn merge_rerun_replaces(dir: &Path, shards: &[PathBuf]) {
    // The same with --rerun-replaces: the later input's rows win, in place.
    let mut rerun = read(&shards[0]);
    for r in &mut rerun.rows {
        r.insert("message".into(), "rerun".into());
    }
    let rerun_csv = dir.join("rerun.csv");
    write(&rerun_csv, &rerun.headers, &rerun.rows);
    // The rows to be replaced carry another commit; once replaced, it must
    // not be named in the "inputs come from N commits" warning.
    let mut stale = read(&shards[0]);
    for r in &mut stale.rows {
        r.insert("git_commit".into(), "stale-commit".into());
    }
    let stale_csv = dir.join("stale.csv");
    write(&stale_csv, &stale.headers, &stale.rows);
    let replaced = dir.join("replaced.csv");
    let out = merge(
        &replaced,
        &[&stale_csv, &shards[1], &rerun_csv],
        &["--rerun-replaces"],
    );
    assert!(out.status.success(), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("replaced:"), "{}", text(&out));
    assert!(!stderr.contains("stale-commit"), "{}", text(&out));
    let r = read(&replaced);
    let (s0, s1) = (read(&shards[0]).rows, read(&shards[1]).rows);
    assert_eq!(r.rows.len(), s0.len() + s1.len());
    assert_eq!(
        r.rows.iter().map(key).collect::<Vec<_>>(),
        s0.iter().chain(&s1).map(key).collect::<Vec<_>>(),
        "replaced rows keep their place"
    );
    assert!(r.rows[..s0.len()].iter().all(|x| x["message"] == "rerun"));
    assert!(r.rows[s0.len()..].iter().all(|x| x["message"] != "rerun"));
    // A key twice in one input stays an error with the flag.
    let twice = dir.join("twice.csv");
    let doubled: Vec<Record> = s1.iter().chain(&s1).cloned().collect();
    write(&twice, &rerun.headers, &doubled);
    let out = merge(
        &dir.join("twice-out.csv"),
        &[&shards[0], &twice],
        &["--rerun-replaces"],
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("twice in"));
}

/// An input of another schema is refused, one of an older schema read.
fn merge_of_other_schemas(dir: &Path, shards: &[PathBuf]) {
    // An input of another schema (a column dropped).
    let t = read(&shards[2]);
    let headers: Vec<String> = t
        .headers
        .iter()
        .filter(|h| *h != "speedup")
        .cloned()
        .collect();
    let old = dir.join("old.csv");
    write(&old, &headers, &t.rows);
    let bad = merge(&dir.join("bad.csv"), &[&shards[0], &old], &[]);
    assert_eq!(bad.status.code(), Some(2), "{}", text(&bad));
    let stderr = String::from_utf8_lossy(&bad.stderr);
    assert!(
        stderr.contains("old.csv")
            && stderr.contains("header differs")
            && stderr.contains("speedup"),
        "{stderr}"
    );
    assert!(!dir.join("bad.csv").exists());

    // An older schema: the newest columns missing at the end and the
    // locality bound under its old name. Read, with the derived columns
    // recomputed and the measured one empty.
    let newest = t.headers.iter().position(|h| h == "universe_log2").unwrap();
    let mut headers: Vec<String> = t.headers[..newest].to_vec();
    let lb = headers
        .iter()
        .position(|h| h == "locality_bound_bits")
        .unwrap();
    headers[lb] = "lower_bound_bits".into();
    let rows: Vec<Record> = t
        .rows
        .iter()
        .map(|r| {
            let mut r = r.clone();
            r.insert("lower_bound_bits".into(), r["locality_bound_bits"].clone());
            r
        })
        .collect();
    let older = dir.join("older.csv");
    write(&older, &headers, &rows);
    let merged = dir.join("with-older.csv");
    let ok = merge(&merged, &[&shards[0], &older], &[]);
    assert_eq!(ok.status.code(), Some(0), "{}", text(&ok));
    let stderr = String::from_utf8_lossy(&ok.stderr);
    assert!(
        stderr.contains("older schema") && stderr.contains("universe_log2"),
        "{stderr}"
    );
    let m = read(&merged);
    assert_eq!(m.headers, t.headers);
    let last = &m.rows[m.rows.len() - 1];
    assert_eq!(last["universe_log2"], "");
    assert_eq!(
        last["locality_bound_bits"],
        t.rows[t.rows.len() - 1]["locality_bound_bits"]
    );
}

#[test]
fn bad_shard_values_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    for value in ["0/3", "4/3", "x", "1/0", "2"] {
        let out = statebench()
            .args([
                "run",
                "--models",
                "mutex-4",
                "--no-report",
                "--shard",
                value,
                "--results",
            ])
            .arg(dir.path())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{value}: {}", text(&out));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("--shard") && stderr.contains("I/N") && stderr.contains(value),
            "{value}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "a refused run wrote something"
    );
    // More shards than instances: an empty shard is an empty campaign, not an error.
    let out = run_without_report(
        dir.path(),
        &[
            "--models",
            "mutex-4",
            "--engines",
            "hash-table",
            "--shard",
            "2/2",
            "--campaign",
            "e",
        ],
    );
    assert!(out.status.success(), "{}", text(&out));
    let t = read(&dir.path().join("e/runs.csv"));
    assert!(t.rows.is_empty() && !t.headers.is_empty());
}
