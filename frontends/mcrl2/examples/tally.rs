//! Explores every complete-oracle model of the mCRL2 corpus (with a state
//! and time bound per model) and prints the tally: matched, unsupported
//! (with reasons), gave up, wrong. Usage:
//! `cargo run -p statebench-mcrl2 --release --example tally [MAX_STATES] [SECONDS] [FILTER]`
//! (FILTER: a part of the instance name, or `=NAME` for exactly one).

#[path = "../tests/common/mod.rs"]
mod common;

use std::time::{Duration, Instant};

use frontend_testkit::bfs::{bfs, Bfs};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let limit: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(500_000);
    let secs: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(60);
    let filter = args.get(3).cloned().unwrap_or_default();
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let root = dir.parent().expect("datasets root").to_path_buf();
    let rows = common::oracle(&dir);
    let (mut matched, mut unsupported, mut gave_up, mut wrong, mut errors) = (0, 0, 0, 0, 0);
    for r in rows
        .iter()
        .filter(|r| r.complete && selected(&r.instance, &filter))
    {
        let t0 = Instant::now();
        let (os, ot) = (r.states.unwrap_or(0), r.transitions.unwrap_or(0));
        let verdict = match mcrl2::parse_file(&root.join(&r.path)) {
            Err(e) if e.kind() == mcrl2::ErrorKind::Unsupported => {
                unsupported += 1;
                format!("UNSUPPORTED {e}")
            }
            Err(e) => {
                errors += 1;
                format!("LOAD-ERROR {e}")
            }
            Ok(m) => match explore(m, &root.join(&r.path), limit, secs) {
                (Bfs::Done(states, transitions), kept) if states == os && transitions == ot => {
                    matched += 1;
                    let note = if !kept {
                        " (strict: unrewritable terms are errors)"
                    } else {
                        ""
                    };
                    format!("MATCH {states} {transitions}{note}")
                }
                (Bfs::Done(states, transitions), kept) => {
                    wrong += 1;
                    format!("WRONG ours {states} {transitions} oracle {os} {ot} kept={kept}")
                }
                (Bfs::GaveUp(why), _) => {
                    gave_up += 1;
                    format!("GAVE-UP {why} (oracle {os})")
                }
                (Bfs::Error(e), _) if e.unsupported => {
                    unsupported += 1;
                    format!("UNSUPPORTED {e}")
                }
                (Bfs::Error(e), _) => {
                    errors += 1;
                    format!("MODEL-ERROR {e}")
                }
            },
        };
        println!(
            "{:<32} {:>7.2}s {verdict}",
            r.instance,
            t0.elapsed().as_secs_f64()
        );
    }
    println!(
        "TALLY matched {matched} unsupported {unsupported} gave_up {gave_up} errors {errors} wrong {wrong}"
    );
}

/// Whether instance `name` passes `filter` (see the usage line).
fn selected(name: &str, filter: &str) -> bool {
    match filter.strip_prefix('=') {
        Some(exact) => name == exact,
        None => name.contains(filter),
    }
}

/// Explores `m`; with the environment variable `STRICT_STUCK=1`, updates
/// and action arguments without a normal form are errors
/// (`Mcrl2Model::keep_stuck_terms(false)`) instead of kept as lps2lts keeps
/// them.
fn explore(m: mcrl2::Mcrl2Model, _path: &std::path::Path, limit: usize, secs: u64) -> (Bfs, bool) {
    let keep = !std::env::var("STRICT_STUCK").is_ok_and(|v| v == "1");
    let m = m.keep_stuck_terms(keep);
    (bfs(&m, limit, Some(Duration::from_secs(secs))), keep)
}
