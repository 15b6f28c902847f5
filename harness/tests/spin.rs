//! End-to-end tests of the SPIN peer engines through the `statebench`
//! binary, on hand-written Promela models (`tests/fixtures/spin/*.pm`)
//! whose oracle counts are in `tests/fixtures/spin/manifest.csv`, written by
//! the project's SPIN oracle tooling (`scripts/spin-oracle.py --models`).
//! Needs spin and gcc (`scripts/install-deps.sh`).

mod common;

use common::statebench;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/spin")
}

/// The oracle manifest of the fixtures: instance -> oracle states.
fn oracle() -> HashMap<String, u64> {
    let mut reader = csv::Reader::from_path(fixtures().join("manifest.csv")).unwrap();
    let headers = reader.headers().unwrap().clone();
    let col = |name: &str| headers.iter().position(|h| h == name).unwrap();
    let (inst, states, complete) = (col("instance"), col("oracle_states"), col("complete"));
    reader
        .records()
        .map(|r| r.unwrap())
        .filter(|r| &r[complete] == "yes")
        .map(|r| (r[inst].to_string(), r[states].parse().unwrap()))
        .collect()
}

/// `statebench explore <fixture>.pm --engine ENGINE --json` with `extra`
/// arguments; the run's row as JSON.
fn explore(model: &str, engine: &str, extra: &[&str], path: Option<&Path>) -> serde_json::Value {
    let mut cmd = statebench();
    cmd.arg("explore")
        .arg(fixtures().join(format!("{model}.pm")))
        .args([
            "--engine",
            engine,
            "--json",
            "--timeout",
            "120",
            "--mem-limit",
            "1",
        ])
        .args(extra);
    if let Some(p) = path {
        cmd.env("PATH", p);
    }
    let out = cmd.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    serde_json::from_str(stdout.trim()).unwrap_or_else(|e| panic!("{e}: {stdout} {stderr}"))
}

/// `statebench explore FILE --engine ENGINE --json`; the run's row as JSON.
fn explore_file(file: &Path, engine: &str) -> serde_json::Value {
    let out = statebench()
        .arg("explore")
        .arg(file)
        .args(["--engine", engine, "--json"])
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap()
}

fn field<'a>(row: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    &row[name]
}

/// The text in column `name` of `row`.
fn text_of<'a>(row: &'a serde_json::Value, name: &str) -> &'a str {
    field(row, name).as_str().unwrap()
}

/// The row of exploring a file `name` holding `text` with `engine`.
fn explore_text(name: &str, text: &str, engine: &str) -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(name);
    std::fs::write(&file, text).unwrap();
    explore_file(&file, engine)
}

#[test]
fn spin_peers_match_the_spin_oracle_manifest() {
    let oracle = oracle();
    assert_eq!(
        oracle.len(),
        3,
        "channels, counter and spawn have exact counts"
    );
    let runs = [
        ("channels", "spin"),
        ("channels", "spin-collapse"),
        ("channels", "spin-ma"),
        ("counter", "spin"),
        ("spawn", "spin-ma"),
    ];
    for (model, engine) in runs {
        let row = explore(model, engine, &["--param", "depth=10000"], None);
        assert_eq!(field(&row, "status"), "ok", "{model}/{engine}: {row}");
        assert_eq!(
            field(&row, "states").as_u64(),
            Some(oracle[model]),
            "{model}/{engine}"
        );
        let used = field(&row, "engine_bytes_used").as_u64().unwrap();
        let alloc = field(&row, "engine_bytes_alloc").as_u64().unwrap();
        assert!(used > 0 && alloc >= used, "{model}/{engine}: {row}");
        assert!(field(&row, "rss_peak_bytes").as_u64().unwrap() > 0);
        assert!(field(&row, "parse_time_s").as_f64().is_some());
        assert!(field(&row, "time_s").as_f64().is_some());
        let counters = field(&row, "counters").as_str().unwrap();
        assert!(counters.contains("spin_total_bytes="), "{counters}");
    }
}

#[test]
fn a_search_cut_by_the_depth_bound_is_rerun_deeper() {
    // counter.pm reaches depth 502; -m100 cuts it, -m1000 does not.
    let row = explore("counter", "spin", &["--param", "depth=100"], None);
    assert_eq!(field(&row, "status"), "ok", "{row}");
    assert_eq!(field(&row, "states").as_u64(), Some(oracle()["counter"]));
    assert!(text_of(&row, "counters").contains("spin_runs=2"));
    assert!(text_of(&row, "message").contains("-m100 too small"));
    assert!(text_of(&row, "engine_params").contains("depth=1000"));
}

#[test]
fn a_too_small_ma_is_recompiled_larger() {
    let row = explore(
        "channels",
        "spin-ma",
        &["--param", "depth=10000", "--param", "ma=4"],
        None,
    );
    assert_eq!(field(&row, "status"), "ok", "{row}");
    assert_eq!(field(&row, "states").as_u64(), Some(oracle()["channels"]));
    assert!(text_of(&row, "message").contains("-DMA=4 too small"));
}

#[test]
fn missing_spin_is_unsupported() {
    let empty = tempfile::tempdir().unwrap();
    let row = explore("channels", "spin", &[], Some(empty.path()));
    assert_eq!(field(&row, "status"), "unsupported", "{row}");
    assert!(text_of(&row, "message").contains("not found in PATH"));
}

#[test]
fn peers_refuse_models_that_are_not_promela() {
    let row = explore_text("m.dve", "byte x;\n", "spin-collapse");
    assert_eq!(field(&row, "status"), "unsupported", "{row}");
    assert!(text_of(&row, "message").contains("Promela models"));
}

#[test]
fn bad_promela_is_a_model_error_with_spin_s_message() {
    let row = explore_text("bad.pm", "active proctype p() {\n  x = ;\n}\n", "spin");
    assert_eq!(field(&row, "status"), "model_error", "{row}");
    let message = text_of(&row, "message");
    assert!(message.contains("bad.pm"), "{message}");
}

#[test]
fn statebench_engines_on_promela_end_cleanly() {
    // Before the Promela front-end this is `unsupported`; after, the count
    // must be SPIN's. Never a crash.
    let row = explore("channels", "hash-table", &[], None);
    match field(&row, "status").as_str().unwrap() {
        "unsupported" => {}
        "ok" => assert_eq!(field(&row, "states").as_u64(), Some(oracle()["channels"])),
        other => panic!("status {other}: {row}"),
    }
}

/// SPIN's transitions count steps executed, statebench's (state, enabled
/// transition) pairs: a campaign running both on a Promela model compares
/// their states only, and passes.
#[test]
fn spin_and_a_statebench_engine_in_one_campaign_agree() {
    let dir = tempfile::tempdir().unwrap();
    let out = statebench()
        .args([
            "run",
            "--suite",
            "beem-promela",
            "--models",
            "adding.1",
            "--engines",
            "spin,hash-table",
            "--campaign",
            "c",
            "--results",
        ])
        .arg(dir.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(!stdout.contains("disagree"), "{stdout}");
    let mut reader = csv::Reader::from_path(dir.path().join("c/runs.csv")).unwrap();
    let headers = reader.headers().unwrap().clone();
    let col = |name: &str| headers.iter().position(|h| h == name).unwrap();
    let rows: Vec<csv::StringRecord> = reader.records().map(|r| r.unwrap()).collect();
    assert_eq!(rows.len(), 2);
    // Same states, different transition counts: the case of the comparison.
    assert!(rows.iter().all(|r| &r[col("status")] == "ok"));
    assert_eq!(&rows[0][col("states")], &rows[1][col("states")]);
    assert_ne!(&rows[0][col("transitions")], &rows[1][col("transitions")]);
    let report = std::fs::read_to_string(dir.path().join("c/report.md")).unwrap();
    assert!(report.contains("compared with SPIN's only"), "{report}");
}
