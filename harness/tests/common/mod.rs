//! What the `statebench` binary's end-to-end tests share: the binary, the
//! workspace, CSVs as column -> value maps (read and written), and a
//! process's output as text for assertion messages. Each test file uses
//! some of it.
#![allow(dead_code)]

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `statebench` binary under test.
pub fn statebench() -> Command {
    Command::new(env!("CARGO_BIN_EXE_statebench"))
}

/// The workspace root.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A CSV record: column -> value.
pub type Record = HashMap<String, String>;

/// A CSV: its header and its records.
pub struct Table {
    pub headers: Vec<String>,
    pub rows: Vec<Record>,
}

/// Reads a CSV.
pub fn read(path: &Path) -> Table {
    let mut reader = csv::Reader::from_path(path).unwrap();
    let headers: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    let rows = reader
        .records()
        .map(|r| {
            headers
                .iter()
                .cloned()
                .zip(r.unwrap().iter().map(String::from))
                .collect()
        })
        .collect();
    Table { headers, rows }
}

/// Writes a CSV of these columns and records.
pub fn write(path: &Path, headers: &[String], rows: &[Record]) {
    let mut w = csv::Writer::from_path(path).unwrap();
    w.write_record(headers).unwrap();
    for r in rows {
        w.write_record(headers.iter().map(|h| r[h].as_str()))
            .unwrap();
    }
    w.flush().unwrap();
}

/// Reads a CSV into maps column -> value.
pub fn read_csv(path: &Path) -> Vec<Record> {
    read(path).rows
}

/// `run --resume` of campaign `name` under `results`, without a report.
pub fn resume(results: &Path, name: &str) -> Output {
    statebench()
        .args([
            "run",
            "--resume",
            "--campaign",
            name,
            "--no-report",
            "--results",
        ])
        .arg(results)
        .output()
        .unwrap()
}

/// `run ARGS --no-report --results RESULTS`, to its end.
pub fn run_without_report(results: &Path, args: &[&str]) -> Output {
    statebench()
        .arg("run")
        .args(args)
        .args(["--no-report", "--results"])
        .arg(results)
        .output()
        .unwrap()
}

/// A finished process's exit status, stdout and stderr, for an assertion
/// message.
pub fn text(out: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Runs `cmd` to its end, asserting that it succeeded (the message shows
/// its output).
pub fn succeed(cmd: &mut Command) -> Output {
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    out
}
