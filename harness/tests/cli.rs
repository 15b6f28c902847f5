//! End-to-end tests of the `statebench` binary: the default suite against
//! the manifest's independently derived oracles, a campaign killed half-way
//! and resumed, and broken models giving one-line errors and rows.

mod common;

use common::{read_csv, resume, run_without_report, statebench, succeed, workspace};
use std::collections::HashMap;
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

/// The oracle counts of the built-in manifest: instance -> (states, transitions).
fn builtin_oracles() -> HashMap<String, (String, String)> {
    read_csv(&workspace().join("datasets/builtin.csv"))
        .into_iter()
        .map(|r| {
            (
                r["instance"].clone(),
                (r["oracle_states"].clone(), r["oracle_transitions"].clone()),
            )
        })
        .collect()
}

#[test]
fn default_suite_matches_the_manifest_oracles() {
    let dir = tempfile::tempdir().unwrap();
    let out = statebench()
        .args(["run", "--campaign", "t", "--results"])
        .arg(dir.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "run failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows = read_csv(&dir.path().join("t/runs.csv"));
    let oracles = builtin_oracles();
    // The default is every registered engine on every built-in net, each
    // pair exactly once.
    assert_eq!(rows.len(), oracles.len() * engines::ENGINES.len());
    let pairs: std::collections::HashSet<(String, String)> = rows
        .iter()
        .map(|r| (r["instance"].clone(), r["engine"].clone()))
        .collect();
    assert_eq!(
        pairs.len(),
        rows.len(),
        "duplicated (instance, engine) rows"
    );
    for e in engines::ENGINES {
        assert!(
            rows.iter().any(|r| r["engine"] == e.name),
            "no {} rows",
            e.name
        );
    }
    for row in &rows {
        let (states, transitions) = &oracles[&row["instance"]];
        assert_eq!(row["status"], "ok", "{row:?}");
        assert_eq!(&row["states"], states, "{}", row["instance"]);
        assert_eq!(&row["transitions"], transitions, "{}", row["instance"]);
        assert_eq!(row["states_match"], "true");
        let rss: u64 = row["rss_peak_bytes"].parse().unwrap();
        assert!(rss > 0, "no peak RSS for {}", row["instance"]);
        // Cargo builds `statebench-child` beside `statebench` for the tests:
        // the runs went through it.
        assert!(row["counters"].contains("lean_child=1"), "{row:?}");
    }
    assert!(
        stdout.contains("builtin  hash-table"),
        "no summary table:\n{stdout}"
    );
    // The campaign ends with its report.
    for f in [
        "report.html",
        "report.md",
        "figures/figures.json",
        "figures/solved.png",
    ] {
        assert!(dir.path().join("t").join(f).is_file(), "run wrote no {f}");
    }
}

fn data_rows(csv: &Path) -> usize {
    std::fs::read_to_string(csv)
        .map(|t| t.lines().count().saturating_sub(1))
        .unwrap_or(0)
}

/// `run` of every built-in instance on hash-table as campaign `name` under
/// `results`, `extra` added, in the background; its stderr goes to `stderr`.
fn start_campaign(results: &Path, name: &str, extra: &[&str], stderr: Stdio) -> Child {
    statebench()
        .args(["run", "--engines", "hash-table", "--campaign", name])
        .args(extra)
        .arg("--results")
        .arg(results)
        .stdout(Stdio::null())
        .stderr(stderr)
        .spawn()
        .unwrap()
}

/// Waits until `csv` holds `rows` rows, while the campaign `parent` runs.
fn wait_for_rows(csv: &Path, rows: usize, parent: &mut Child) {
    let start = Instant::now();
    while data_rows(csv) < rows {
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "campaign made no progress"
        );
        assert!(
            parent.try_wait().unwrap().is_none(),
            "campaign ended before it was stopped"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
}

#[test]
fn killed_campaign_resumes_without_lost_or_duplicated_rows() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("k/runs.csv");
    let total = builtin_oracles().len();
    let mut parent = start_campaign(dir.path(), "k", &[], Stdio::null());
    // Kill the parent once most small runs are written: the large runs left
    // take seconds, so the kill lands in the middle of the campaign.
    wait_for_rows(&csv, total - 4, &mut parent);
    parent.kill().unwrap();
    parent.wait().unwrap();
    let before = data_rows(&csv);
    assert!(before < total, "the kill came too late to test anything");

    let out = succeed(
        statebench()
            .args(["run", "--resume", "--results"])
            .arg(dir.path()),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!("{before} already done")),
        "{stderr}"
    );
    let rows = read_csv(&csv);
    let mut instances: Vec<&str> = rows.iter().map(|r| r["instance"].as_str()).collect();
    instances.sort();
    let mut expected: Vec<String> = builtin_oracles().into_keys().collect();
    expected.sort();
    assert_eq!(instances, expected, "lost or duplicated rows");
    assert!(rows.iter().all(|r| r["status"] == "ok"));

    // A second resume has nothing left to do and adds no row.
    let again = statebench()
        .args(["run", "--resume", "--campaign", "k", "--results"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(again.status.success());
    assert_eq!(data_rows(&csv), total);
}

#[test]
fn starting_an_existing_campaign_without_resume_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let run = || {
        statebench()
            .args([
                "run",
                "--models",
                "token-ring-4-3",
                "--campaign",
                "c",
                "--results",
            ])
            .arg(dir.path())
            .output()
            .unwrap()
    };
    assert!(run().status.success());
    assert!(dir.path().join("c/report.html").is_file());
    let quiet = run_without_report(
        dir.path(),
        &["--models", "token-ring-4-3", "--campaign", "d"],
    );
    assert!(quiet.status.success());
    assert!(dir.path().join("d/runs.csv").is_file());
    assert!(
        !dir.path().join("d/report.html").exists(),
        "--no-report wrote a report"
    );
    let second = run();
    assert!(!second.status.success());
    assert!(String::from_utf8_lossy(&second.stderr).contains("--resume"));
}

const NET_HEAD: &str = r#"<?xml version="1.0"?>
<pnml xmlns="http://www.pnml.org/version-2009/grammar/pnml">
<net id="broken" type="http://www.pnml.org/version-2009/grammar/ptnet"><page id="p">
<place id="p1"><initialMarking><text>1</text></initialMarking></place>
<transition id="t1"/>
"#;
const NET_TAIL: &str = "</page></net></pnml>\n";

#[test]
fn broken_pnml_gives_a_one_line_error_and_a_model_error_row() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("truncated", format!("{NET_HEAD}<arc id=\"a1\" source=\"p1\" tar")),
        (
            "missing-place",
            format!("{NET_HEAD}<arc id=\"a1\" source=\"p9\" target=\"t1\"/>{NET_TAIL}"),
        ),
        (
            "arc-to-nowhere",
            format!("{NET_HEAD}<arc id=\"a1\" source=\"t1\" target=\"nowhere\"/>{NET_TAIL}"),
        ),
        (
            "negative-weight",
            format!(
                "{NET_HEAD}<arc id=\"a1\" source=\"p1\" target=\"t1\"><inscription><text>-2</text></inscription></arc>{NET_TAIL}"
            ),
        ),
    ];
    let csv = dir.path().join("rows.csv");
    for (name, text) in &cases {
        let file = dir.path().join(format!("{name}.pnml"));
        std::fs::write(&file, text).unwrap();
        let out = statebench()
            .arg("explore")
            .arg(&file)
            .arg("--csv")
            .arg(&csv)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{name}: exit code 0");
        assert!(!stderr.contains("panicked"), "{name}: {stderr}");
        let lines: Vec<&str> = stderr.lines().collect();
        assert_eq!(lines.len(), 1, "{name}: not one line: {stderr}");
        assert!(
            lines[0].contains(&format!("{name}.pnml")),
            "{name}: file not named: {stderr}"
        );
        assert!(lines[0].contains("model_error"), "{name}: {stderr}");
    }
    let rows = read_csv(&csv);
    assert_eq!(rows.len(), cases.len());
    assert!(
        rows.iter().all(|r| r["status"] == "model_error"),
        "{rows:?}"
    );
}

#[test]
fn explore_json_carries_the_csv_fields() {
    let file = workspace().join("datasets/builtin/token-ring-8-8.pnml");
    let out = succeed(statebench().arg("explore").arg(&file).arg("--json"));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let (states, transitions) = &builtin_oracles()["token-ring-8-8"];
    assert_eq!(v["status"], "ok");
    assert_eq!(v["states"].to_string(), *states);
    assert_eq!(v["transitions"].to_string(), *transitions);
    assert_eq!(
        v["oracle_states"].to_string(),
        *states,
        "oracle found from the manifest"
    );
    assert!(v["bits_per_state"].as_f64().unwrap() > 0.0);
}

#[test]
fn list_names_suites_models_and_engines() {
    let out = statebench()
        .args(["list", "--suite", "builtin,mcc"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for needle in [
        "builtin",
        "mcc",
        "hash-table",
        "kanban-3",
        "Kanban-PT-00005",
        "2546432",
    ] {
        assert!(text.contains(needle), "missing {needle}");
    }
}

#[test]
fn bad_arguments_are_clear_errors() {
    for args in [
        &["run", "--engines", "nosuch"][..],
        &["run", "--suite", "nosuch"],
        &["run", "--max-states", "lots"],
        &["run", "--models", "nosuch*"],
        &["run", "--param", "hash-table.nosuch=1"],
    ] {
        let out = statebench().args(args).output().unwrap();
        assert!(!out.status.success(), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(
            stderr.contains("nosuch") || stderr.contains("lots"),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn malformed_dve_names_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.dve");
    std::fs::write(
        &file,
        "byte x;\nprocess P {\n  state a, b;\n  init a;\n  trans a -> b { effect y = 1; };\n}\nsystem async;\n",
    )
    .unwrap();
    let out = statebench().arg("explore").arg(&file).output().unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("bad.dve:5:"), "no file:line:col: {stderr}");
    assert!(stderr.contains('y'), "unknown variable not named: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// Runs `explore --json` on a built-in model with extra arguments.
fn explore_json(model: &str, extra: &[&str]) -> (bool, serde_json::Value) {
    let file = workspace().join(format!("datasets/builtin/{model}.pnml"));
    let out = statebench()
        .arg("explore")
        .arg(&file)
        .arg("--json")
        .args(extra)
        .output()
        .unwrap();
    let row = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "no JSON row ({e}): {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.success(), row)
}

#[test]
fn explicit_engines_report_ordered_latency_percentiles_and_comback_none() {
    let columns = [
        "op_latency_p50_ns",
        "op_latency_p99_ns",
        "op_latency_p999_ns",
    ];
    // `tree` takes the incremental insertion path, `hash-table` the plain
    // one; two threads merge the workers' samples.
    for (engine, threads) in [("hash-table", "1"), ("tree", "1"), ("hash-table", "2")] {
        let (ok, row) = explore_json("kanban-2", &["--engine", engine, "--threads", threads]);
        assert!(ok, "{row}");
        let p: Vec<u64> = columns
            .iter()
            .map(|c| {
                row[c]
                    .as_u64()
                    .unwrap_or_else(|| panic!("{engine}: no {c}: {row}"))
            })
            .collect();
        assert!(
            0 < p[0] && p[0] <= p[1] && p[1] <= p[2],
            "{engine}: percentiles out of order: {p:?}"
        );
    }
    let (ok, row) = explore_json("kanban-2", &["--engine", "comback-ddd"]);
    assert!(ok, "{row}");
    for c in columns {
        assert!(
            row[c].is_null(),
            "comback-ddd has its own search: {c} = {}",
            row[c]
        );
    }
}

/// `explore_json` of a run that must fail with `status`, its message
/// saying `says`; the row.
fn stopped_run(model: &str, extra: &[&str], status: &str, says: &str) -> serde_json::Value {
    let (ok, row) = explore_json(model, extra);
    assert!(!ok);
    assert_eq!(row["status"], status, "{row}");
    assert!(row["message"].as_str().unwrap().contains(says), "{row}");
    row
}

#[test]
fn timeout_is_a_row_with_the_progress_made() {
    // cycles-10-4 has 1,048,576 states: far more than 0.3 s of work in a test build.
    let row = stopped_run(
        "cycles-10-4",
        &["--timeout", "0.3"],
        "timeout",
        "timeout after",
    );
    assert!(row["rss_peak_bytes"].as_u64().unwrap() > 0);
    assert_eq!(row["states_match"], serde_json::Value::Null);
    // No report came, but the engine announced its parameters at start.
    assert!(
        row["engine_params"]
            .as_str()
            .unwrap()
            .starts_with("max_load="),
        "{row}"
    );
}

#[test]
fn a_table_that_cannot_grow_within_the_memory_limit_is_table_full() {
    // 0.2 GiB limit: the hash table may allocate 70% (143 MB), while
    // cycles-10-4 needs 1,048,576 x (8 + 4 x 40) bytes = 168 MiB of entries
    // in chunks plus a 16 MiB bucket array; the resident set stays below
    // the limit, so the engine's own budget check is what stops the run.
    let row = stopped_run(
        "cycles-10-4",
        &["--mem-limit", "0.2"],
        "table_full",
        "memory budget",
    );
    let states = row["states"].as_u64().unwrap();
    assert!(states > 0 && states < 1_048_576, "{row}");
    let alloc = row["engine_bytes_alloc"].as_u64().unwrap();
    assert!(
        alloc <= (0.2 * 0.7 * (1u64 << 30) as f64) as u64,
        "allocated {alloc} bytes beyond the budget"
    );
}

/// `--threads 1,2`: one row per thread count; every engine with a
/// concurrent form finds exactly the 1-thread (and oracle) counts with 2
/// threads and gets a speedup, every other engine reports `unsupported`.
/// On the built-in nets of at most 5·10^4 states (11 of 16), to keep CI
/// within its time; `.ci/run`'s multi-core step covers BEEM and MCC.
#[test]
fn two_threads_give_the_one_thread_counts_or_unsupported() {
    let dir = tempfile::tempdir().unwrap();
    let out = statebench()
        .args(["run", "--threads", "1,2", "--max-states", "5e4"])
        .args(["--campaign", "t", "--results"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "run failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let rows = read_csv(&dir.path().join("t/runs.csv"));
    let mut oracles = builtin_oracles();
    oracles.retain(|_, (states, _)| states.parse::<u64>().unwrap() <= 50_000);
    assert!(
        oracles.len() >= 5,
        "too few built-in nets of at most 5e4 states"
    );
    // A row per engine and thread count, plus the concurrent form at one
    // thread (form=concurrent) of every engine that has one.
    let concurrent = engines::ENGINES
        .iter()
        .filter(|e| engines::has_concurrent_form(e.name))
        .count();
    assert_eq!(
        rows.len(),
        oracles.len() * (2 * engines::ENGINES.len() + concurrent)
    );
    for row in rows
        .iter()
        .filter(|r| r["engine_config"] == "form=concurrent")
    {
        assert_eq!(row["threads"], "1", "{row:?}");
        assert_eq!(row["status"], "ok", "{row:?}");
        assert_eq!(&row["states"], &oracles[&row["instance"]].0, "{row:?}");
    }
    let one: HashMap<(String, String), &HashMap<String, String>> = rows
        .iter()
        .filter(|r| r["threads"] == "1" && r["engine_config"].is_empty())
        .map(|r| ((r["instance"].clone(), r["engine"].clone()), r))
        .collect();
    let mut parallel_ok = 0;
    for row in rows.iter().filter(|r| r["threads"] == "2") {
        let base = one[&(row["instance"].clone(), row["engine"].clone())];
        if engines::supports_threads(&row["engine"]) {
            assert_eq!(row["status"], "ok", "{row:?}");
            assert_eq!(row["states"], base["states"], "{row:?}");
            assert_eq!(row["transitions"], base["transitions"], "{row:?}");
            assert_eq!(&row["states"], &oracles[&row["instance"]].0);
            let s: f64 = row["speedup"].parse().expect("a speedup");
            assert!(s > 0.0 && s.is_finite());
            if engines::has_concurrent_form(&row["engine"]) {
                let p: f64 = row["speedup_concurrent"]
                    .parse()
                    .expect("the paper's speedup");
                assert!(p > 0.0 && p.is_finite());
            }
            parallel_ok += 1;
        } else {
            assert_eq!(row["status"], "unsupported", "{row:?}");
        }
    }
    assert!(
        parallel_ok >= 2 * oracles.len(),
        "hash-table and tree at least"
    );
}

/// `--sweep` gives one row per configuration; with
/// `--sweep-where-first-finished` the later configurations run only where
/// the first finished, and `--resume` keeps both settings.
#[test]
fn a_sweep_runs_later_configurations_only_where_the_first_finished() {
    let dir = tempfile::tempdir().unwrap();
    // At 0.2 GiB the hash table cannot hold cycles-10-4 (see the
    // table_full test); kanban-1 fits under either load factor.
    let run = |extra: &[&str]| {
        statebench()
            .args(["run", "--campaign", "s", "--results"])
            .arg(dir.path())
            .args(extra)
            .output()
            .unwrap()
    };
    run(&[
        "--models",
        "kanban-1,cycles-10-4",
        "--engines",
        "hash-table",
        "--sweep",
        "hash-table.max_load=0.5,0.8",
        "--sweep-where-first-finished",
        "--mem-limit",
        "0.2",
        "--no-report",
    ]);
    let rows = read_csv(&dir.path().join("s/runs.csv"));
    let configs = |instance: &str| {
        let mut v: Vec<(String, String)> = rows
            .iter()
            .filter(|r| r["instance"] == instance)
            .map(|r| (r["engine_config"].clone(), r["status"].clone()))
            .collect();
        v.sort();
        v
    };
    let ok = |c: &str| (c.to_string(), "ok".to_string());
    assert_eq!(
        configs("kanban-1"),
        vec![ok("max_load=0.5"), ok("max_load=0.8")]
    );
    assert_eq!(
        configs("cycles-10-4"),
        vec![("max_load=0.5".to_string(), "table_full".to_string())]
    );
    let kanban: Vec<_> = rows
        .iter()
        .filter(|r| r["instance"] == "kanban-1")
        .collect();
    assert_eq!(kanban[0]["states"], kanban[1]["states"]);
    assert_eq!(&kanban[0]["states"], &builtin_oracles()["kanban-1"].0);
    // Resumed: nothing left to run, the skip still applies.
    let out = run(&["--resume", "--no-report"]);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("skipped"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(read_csv(&dir.path().join("s/runs.csv")).len(), 3);
}

/// `--threads-where-first-finished`: the 2-thread run only where the
/// 1-thread run finished.
#[test]
fn later_thread_counts_run_only_where_the_first_finished() {
    let dir = tempfile::tempdir().unwrap();
    statebench()
        .args(["run", "--campaign", "t", "--no-report", "--results"])
        .arg(dir.path())
        .args([
            "--models",
            "kanban-1,cycles-10-4",
            "--engines",
            "hash-table",
        ])
        .args(["--threads", "1,2", "--threads-where-first-finished"])
        .args(["--mem-limit", "0.2"])
        .output()
        .unwrap();
    let rows = read_csv(&dir.path().join("t/runs.csv"));
    let mut runs: Vec<(String, String, String)> = rows
        .iter()
        .map(|r| {
            (
                r["instance"].clone(),
                r["threads"].clone(),
                r["status"].clone(),
            )
        })
        .collect();
    runs.sort();
    let run = |i: &str, t: &str, s: &str| (i.to_string(), t.to_string(), s.to_string());
    assert_eq!(
        runs,
        vec![
            run("cycles-10-4", "1", "table_full"),
            // The concurrent form at one thread (the paper's speedup
            // baseline) runs where the 2-thread run does.
            run("kanban-1", "1", "ok"),
            run("kanban-1", "1", "ok"),
            run("kanban-1", "2", "ok"),
        ]
    );
}

/// Rows of a `--no-report` campaign over kanban-1 and cycles-10-4 at
/// 0.2 GiB (where the hash table cannot hold cycles-10-4), as sorted
/// (instance, engine, engine_config, threads, status).
fn skip_campaign(extra: &[&str]) -> Vec<[String; 5]> {
    let dir = tempfile::tempdir().unwrap();
    statebench()
        .args(["run", "--campaign", "k", "--no-report", "--results"])
        .arg(dir.path())
        .args(["--models", "kanban-1,cycles-10-4", "--mem-limit", "0.2"])
        .args(extra)
        .output()
        .unwrap();
    let mut runs: Vec<[String; 5]> = read_csv(&dir.path().join("k/runs.csv"))
        .iter()
        .map(|r| ["instance", "engine", "engine_config", "threads", "status"].map(|k| r[k].clone()))
        .collect();
    runs.sort();
    runs
}

fn run_of(instance: &str, engine: &str, config: &str, threads: &str, status: &str) -> [String; 5] {
    [instance, engine, config, threads, status].map(str::to_string)
}

/// `--engines-where-first-finished` skips only where the first engine ran
/// out of time (`run_skipping_after_a_timeout` below): hash-table's full
/// table on cycles-10-4 does not stop tree, whose 2-thread run then
/// depends on its own 1-thread run.
#[test]
fn later_engines_still_run_where_the_first_ran_out_of_memory() {
    let runs = skip_campaign(&[
        "--engines",
        "hash-table,tree",
        "--threads",
        "1,2",
        "--threads-where-first-finished",
        "--engines-where-first-finished",
    ]);
    assert_eq!(
        runs,
        vec![
            run_of("cycles-10-4", "hash-table", "", "1", "table_full"),
            run_of("cycles-10-4", "tree", "", "1", "ok"),
            run_of("cycles-10-4", "tree", "", "2", "ok"),
            run_of("cycles-10-4", "tree", "form=concurrent", "1", "ok"),
            run_of("kanban-1", "hash-table", "", "1", "ok"),
            run_of("kanban-1", "hash-table", "", "2", "ok"),
            run_of("kanban-1", "hash-table", "form=concurrent", "1", "ok"),
            run_of("kanban-1", "tree", "", "1", "ok"),
            run_of("kanban-1", "tree", "", "2", "ok"),
            run_of("kanban-1", "tree", "form=concurrent", "1", "ok"),
        ]
    );
}

/// A sweep and several thread counts, both restricted: the second
/// configuration at 2 threads depends on two skipped runs and is skipped.
#[test]
fn a_run_depending_on_skipped_runs_is_skipped() {
    let runs = skip_campaign(&[
        "--engines",
        "hash-table",
        "--sweep",
        "hash-table.max_load=0.5,0.8",
        "--sweep-where-first-finished",
        "--threads",
        "1,2",
        "--threads-where-first-finished",
    ]);
    let cycles: Vec<_> = runs.iter().filter(|r| r[0] == "cycles-10-4").collect();
    assert_eq!(
        cycles,
        vec![&run_of(
            "cycles-10-4",
            "hash-table",
            "max_load=0.5",
            "1",
            "table_full"
        )]
    );
    // kanban-1: two configurations at 1 and 2 threads, and each one's
    // concurrent form at one thread.
    assert_eq!(runs.len(), 7, "{runs:?}");
}

/// `statebench ARGS` with its stdout a pipe whose reader is gone (as in
/// `statebench list | head -2` once head has exited); stderr is captured.
fn into_closed_pipe(args: &[&str]) -> std::process::Output {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    statebench()
        .args(args)
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .unwrap()
}

#[test]
fn a_closed_pipe_ends_output_quietly() {
    use std::os::unix::process::ExitStatusExt;
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().to_str().unwrap();
    for args in [
        &["list"][..],
        &["list", "--suite", "beem"],
        &[
            "run",
            "--models",
            "token-ring-4-3",
            "--engines",
            "hash-table",
            "--no-report",
            "--campaign",
            "p",
            "--results",
            results,
        ],
    ] {
        let out = into_closed_pipe(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(
            out.status.success() || out.status.signal() == Some(libc::SIGPIPE),
            "{args:?}: {:?}: {stderr}",
            out.status
        );
    }
    // The campaign's rows are written before its summary meets the pipe.
    assert_eq!(data_rows(&dir.path().join("p/runs.csv")), 1);
}

/// The `[i/N]` numbers of a campaign's progress lines.
fn progress_numbers(stderr: &str) -> Vec<(usize, usize)> {
    stderr
        .lines()
        .filter_map(|l| {
            let (i, n) = l.strip_prefix('[')?.split_once(']')?.0.split_once('/')?;
            Some((i.parse().ok()?, n.parse().ok()?))
        })
        .collect()
}

#[test]
fn ctrl_c_tells_how_to_resume_and_the_resume_numbers_on() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("i/runs.csv");
    let total = builtin_oracles().len();
    let mut parent = start_campaign(dir.path(), "i", &["--no-report"], Stdio::piped());
    // Ctrl-C once the small runs are written, during one of the large ones.
    wait_for_rows(&csv, total - 3, &mut parent);
    let pid = libc::pid_t::try_from(parent.id()).unwrap();
    // SAFETY: sending a signal to our own child process touches no memory.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);
    let out = parent.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    let done = data_rows(&csv);
    assert!(done < total, "the Ctrl-C came too late to test anything");
    assert!(
        stderr.contains(&format!("interrupted: {done} of {total} runs done")),
        "{stderr}"
    );
    let command = format!(
        "{} run --resume --campaign i --results {} --no-report",
        env!("CARGO_BIN_EXE_statebench"),
        dir.path().display()
    );
    assert!(
        stderr.contains(&format!("resume with: {command}")),
        "{stderr}"
    );
    assert!(
        read_csv(&csv).iter().all(|r| r["status"] == "ok"),
        "the interrupted run left a row"
    );

    let out = resume(dir.path(), "i");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let numbers = progress_numbers(&stderr);
    let expected: Vec<(usize, usize)> = (done + 1..=total).map(|i| (i, total)).collect();
    assert_eq!(numbers, expected, "{stderr}");
    assert_eq!(data_rows(&csv), total);
}

#[test]
fn explore_takes_run_s_form_of_engine_parameters() {
    let model = workspace().join("datasets/builtin/mutex-4.pnml");
    for param in ["compact-tree.m=budget", "m=budget"] {
        let out = statebench()
            .arg("explore")
            .arg(&model)
            .args(["--engine", "compact-tree", "--json", "--param", param])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{param}: {stderr}");
        let row: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(row["engine_config"], "m=budget", "{param}");
        assert!(
            row["engine_params"]
                .as_str()
                .unwrap()
                .contains(";m=budget;"),
            "{param}: {row}"
        );
    }
    // The same string works in `run`.
    let dir = tempfile::tempdir().unwrap();
    let out = run_without_report(
        dir.path(),
        &[
            "--models",
            "mutex-4",
            "--engines",
            "compact-tree",
            "--param",
            "compact-tree.m=budget",
        ],
    );
    assert!(out.status.success());
    for (param, needle) in [
        ("tree.m=budget", "is not the --engine"),
        ("compact-tree.nosuch=1", "no parameter 'nosuch'"),
        ("nosuch=1", "no parameter 'nosuch'"),
    ] {
        let out = statebench()
            .arg("explore")
            .arg(&model)
            .args(["--engine", "compact-tree", "--param", param])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{param}: {stderr}");
        assert!(stderr.contains(needle), "{param}: {stderr}");
    }
}

#[test]
fn durations_must_be_finite_and_positive() {
    let model = workspace().join("datasets/builtin/mutex-4.pnml");
    let dir = tempfile::tempdir().unwrap();
    for value in ["inf", "1e300", "0", "nan", "-1", "soon"] {
        let timeout = format!("--timeout={value}");
        let explore = statebench()
            .arg("explore")
            .arg(&model)
            .arg(&timeout)
            .output()
            .unwrap();
        let run = statebench()
            .args(["run", "--models", "mutex-4", &timeout])
            .arg("--results")
            .arg(dir.path())
            .output()
            .unwrap();
        for (what, out) in [("explore", explore), ("run", run)] {
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(
                out.status.code(),
                Some(2),
                "{what} --timeout {value}: {stderr}"
            );
            assert!(!stderr.contains("panicked"), "{what} {value}: {stderr}");
            assert!(stderr.contains("--timeout"), "{what} {value}: {stderr}");
        }
    }
    assert!(
        std::fs::read_dir(dir.path()).unwrap().next().is_none(),
        "a refused run left a campaign"
    );
}

#[test]
fn an_empty_runs_csv_resumes() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("e")).unwrap();
    let csv = dir.path().join("e/runs.csv");
    for empty in ["", "\n"] {
        std::fs::write(&csv, empty).unwrap();
        succeed(
            statebench()
                .args([
                    "run",
                    "--resume",
                    "--campaign",
                    "e",
                    "--models",
                    "mutex-4",
                    "--engines",
                    "hash-table",
                    "--no-report",
                    "--results",
                ])
                .arg(dir.path()),
        );
        assert_eq!(data_rows(&csv), 1, "{empty:?}");
        std::fs::remove_file(dir.path().join("e/campaign.json")).unwrap();
    }
}

#[test]
fn csv_errors_name_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.csv");
    let model = workspace().join("datasets/builtin/mutex-4.pnml");
    for _ in 0..2 {
        let out = statebench()
            .arg("explore")
            .arg(&model)
            .arg("--csv")
            .arg(&good)
            .output()
            .unwrap();
        assert!(out.status.success());
    }
    let text = std::fs::read_to_string(&good).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3);
    // Line 3 broken (status `okk`), with Unix and with Windows line ends.
    let broken = lines[2].replacen(",ok,", ",okk,", 1);
    assert_ne!(broken, lines[2]);
    for end in ["\n", "\r\n"] {
        let bad = dir.path().join("bad.csv");
        std::fs::write(&bad, [lines[0], lines[1], &broken].join(end) + end).unwrap();
        let campaign = dir.path().join("r/c");
        std::fs::create_dir_all(&campaign).unwrap();
        std::fs::copy(&bad, campaign.join("runs.csv")).unwrap();
        let merged = dir.path().join("merged.csv");
        let mut commands = [
            ("compare", statebench()),
            ("merge", statebench()),
            ("report", statebench()),
            ("resume", statebench()),
        ];
        commands[0].1.arg("compare").arg(&bad).arg(&good);
        commands[1]
            .1
            .args(["merge", "--force"])
            .arg(&merged)
            .arg(&bad);
        commands[2].1.arg("report").arg(&bad);
        commands[3]
            .1
            .args(["run", "--resume", "--campaign", "c", "--results"])
            .arg(dir.path().join("r"));
        for (what, mut cmd) in commands {
            let out = cmd.output().unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{what} {end:?}: {stderr}");
            assert!(
                stderr.contains(".csv:3: ") && stderr.contains("okk"),
                "{what} {end:?}: {stderr}"
            );
        }
    }
}

/// `statebench claims`: ARTIFACT.md agrees with the committed rows (exit
/// 0, the not-kept numbers said); one number changed in its table fails
/// with exit code 1, naming the claim and the number.
#[test]
fn claims_of_artifact_md_are_recomputed_from_the_committed_rows() {
    let root = workspace();
    let claims = |doc: &Path| {
        let out = statebench()
            .arg("claims")
            .arg(doc)
            .arg("--results")
            .arg(root.join("results/paper"))
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        (out.status.code(), stdout)
    };
    let (code, stdout) = claims(&root.join("ARTIFACT.md"));
    assert_eq!(code, Some(0), "{stdout}");
    assert!(stdout.contains(" 0 failures;"), "{stdout}");
    // Every number of the table comes from committed rows.
    assert!(stdout.contains(" 0 NOT VERIFIABLE"), "{stdout}");

    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(root.join("ARTIFACT.md")).unwrap();
    let changed = text.replacen(
        "median hash-table **1.92**",
        "median hash-table **1.93**",
        1,
    );
    assert_ne!(changed, text);
    let doc = dir.path().join("ARTIFACT.md");
    std::fs::write(&doc, changed).unwrap();
    let (code, stdout) = claims(&doc);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout.contains("FAILS: \"Speedup with threads\"") && stdout.contains("FAIL 1.93:"),
        "{stdout}"
    );
}
