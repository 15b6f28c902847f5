//! The mCRL2 corpus against lps2lts's counts: every model with a complete
//! oracle of at most 2·10^4 states is loaded and explored by a naive BFS;
//! states and transitions must equal the oracle's, or the load or the
//! exploration must end `unsupported`, for at most a tenth of them. A
//! different count is a failure, and so is a load or model error (lps2lts
//! explored these models to the end, so they have none). Explorations
//! beyond the time bound are listed, not failures (they are not counts).
//! Also: every corpus file parses.

mod common;

use std::time::{Duration, Instant};

use frontend_testkit::bfs::{bfs, Bfs};

const MAX_STATES: u64 = 20_000;
/// Per-model exploration bound, so that the test stays within CI time.
const MAX_SECONDS: u64 = 8;

#[test]
fn counts_equal_the_oracle_or_unsupported() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let root = dir.parent().expect("datasets root").to_path_buf();
    let rows = common::oracle(&dir);
    let t0 = Instant::now();
    let mut wrong = Vec::new();
    let (mut matched, mut unsupported, mut errors, mut other) = (0, 0, Vec::new(), Vec::new());
    for r in rows.iter().filter(|r| r.complete) {
        let (Some(os), Some(ot)) = (r.states, r.transitions) else {
            panic!("{}: complete row without counts", r.instance)
        };
        if os > MAX_STATES {
            continue;
        }
        match mcrl2::parse_file(&root.join(&r.path)) {
            Err(e) if e.kind() == mcrl2::ErrorKind::Unsupported => unsupported += 1,
            Err(e) => errors.push(format!("{}: load error: {e}", r.instance)),
            Ok(m) => match bfs(
                &m,
                MAX_STATES as usize * 2,
                Some(Duration::from_secs(MAX_SECONDS)),
            ) {
                Bfs::Done(states, transitions) if (states, transitions) == (os, ot) => matched += 1,
                Bfs::Done(states, transitions) => wrong.push(format!(
                    "{}: {states} states {transitions} transitions, oracle {os} {ot}",
                    r.instance
                )),
                Bfs::Error(e) if e.unsupported => unsupported += 1,
                Bfs::Error(e) => errors.push(format!("{}: model error: {e}", r.instance)),
                Bfs::GaveUp(why) => other.push(format!("{}: gave up: {why}", r.instance)),
            },
        }
    }
    eprintln!(
        "mcrl2 corpus (oracle <= {MAX_STATES} states): {matched} matched, {unsupported} unsupported, {} errors, {} gave up, {} wrong, in {:.1}s",
        errors.len(),
        other.len(),
        wrong.len(),
        t0.elapsed().as_secs_f64()
    );
    for o in &other {
        eprintln!("  {o}");
    }
    assert!(
        wrong.is_empty(),
        "counts differ from lps2lts:\n{}",
        wrong.join("\n")
    );
    assert!(
        errors.is_empty(),
        "errors on models lps2lts explored:\n{}",
        errors.join("\n")
    );
    let considered = matched + unsupported + errors.len() + other.len() + wrong.len();
    assert!(
        unsupported * 10 <= considered,
        "{unsupported} of {considered} models unsupported: more than a tenth"
    );
    assert!(matched > 0, "no model matched");
}

#[test]
fn every_corpus_file_parses_and_loads() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let mut failures = Vec::new();
    let mut n = 0;
    for e in std::fs::read_dir(dir.join("lps")).expect("list lps") {
        let p = e.expect("entry").path();
        let text = std::fs::read_to_string(&p).expect("read");
        n += 1;
        if let Err(e) = mcrl2::parser::parse_spec(&text, &p.display().to_string()) {
            failures.push(e.to_string());
            continue;
        }
        // mcrl22lps printed these files: they are well typed, so loading
        // finds no syntax or sort error (it may refuse a construct).
        match mcrl2::parse_file(&p) {
            Err(e)
                if matches!(
                    e.kind(),
                    mcrl2::ErrorKind::Syntax | mcrl2::ErrorKind::Semantic
                ) =>
            {
                failures.push(e.to_string())
            }
            _ => {}
        }
    }
    assert!(n > 0);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
