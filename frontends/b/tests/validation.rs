//! The 39 validation models of `../shared/datasets/b/validation.csv`: every
//! classical-B one is loaded and explored with a naive BFS; its counts
//! must be ProB's (`oracle.csv`) plus the root state, or the model must be
//! declined as unsupported. A differing count fails. Models above
//! `CAP` oracle states would be skipped (printed) to keep the test short
//! (none of the 39 is; the models run on every core);
//! `BMETHOD_VALIDATION_ALL=1` runs them anyway.
//! Missing dataset: fails under `CI=true`, otherwise prints a notice.

mod common;

use common::{b_dir, oracle, validation};
use frontend_testkit::bfs::{bfs, Bfs};
use frontend_testkit::parallel;

const CAP: u64 = 1_000_000;

/// What one validation model gave.
enum Outcome {
    Exact,
    Declined(String),
    Failure(String),
}

/// Loads and explores one model whose oracle is `s` states, `t` transitions.
fn check(inst: &str, path: &std::path::Path, s: u64, t: u64) -> Outcome {
    let m = match bmethod::parse_file(path) {
        Ok(m) => m,
        Err(e) if e.kind() == bmethod::ErrorKind::Unsupported => {
            return Outcome::Declined(format!("declined {inst}: {e}"))
        }
        Err(e) => return Outcome::Failure(format!("{inst}: {e}")),
    };
    match bfs(&m, usize::MAX, None) {
        Bfs::Done(gs, gt) if gs == s + 1 && gt == t => Outcome::Exact,
        Bfs::Done(gs, gt) => Outcome::Failure(format!(
            "{inst}: {gs} states / {gt} transitions, oracle {s}+1 / {t}"
        )),
        Bfs::Error(e) if bmethod::is_unsupported(&e) => {
            Outcome::Declined(format!("declined {inst} while exploring: {e}"))
        }
        Bfs::Error(e) => Outcome::Failure(format!("{inst}: model error {e}")),
        Bfs::GaveUp(why) => unreachable!("no limit: {why}"),
    }
}

#[test]
fn validation_models_match_prob_or_are_declined() {
    let Some(dir) = b_dir() else {
        return;
    };
    let all = std::env::var("BMETHOD_VALIDATION_ALL").is_ok();
    let rows = oracle(&dir);
    let mut skipped = 0;
    let mut todo = Vec::new();
    for inst in validation(&dir) {
        let row = rows
            .get(&inst)
            .unwrap_or_else(|| panic!("{inst} not in oracle.csv"));
        if row.formalism != "b" {
            continue;
        }
        let (s, t) = (
            row.states.expect("oracle states"),
            row.transitions.expect("oracle transitions"),
        );
        if s > CAP && !all {
            eprintln!("skipped {inst}: {s} states above the cap {CAP}");
            skipped += 1;
            continue;
        }
        let path = dir.parent().expect("datasets root").join(&row.path);
        todo.push((inst, path, s, t));
    }
    // The largest first, so that no long model starts last.
    todo.sort_by_key(|&(_, _, s, _)| std::cmp::Reverse(s));
    let outcomes = parallel::map(todo, |(inst, path, s, t)| check(inst, path, *s, *t));
    let (mut exact, mut declined) = (0, 0);
    let mut failures = Vec::new();
    for o in outcomes {
        match o {
            Outcome::Exact => exact += 1,
            Outcome::Declined(why) => {
                eprintln!("{why}");
                declined += 1;
            }
            Outcome::Failure(why) => failures.push(why),
        }
    }
    eprintln!(
        "validation: {exact} exact, {declined} declined as unsupported, {skipped} skipped (large)"
    );
    assert!(
        failures.is_empty(),
        "validation failures:\n{}",
        failures.join("\n")
    );
    assert!(exact >= 20, "only {exact} validation models exact");
}
