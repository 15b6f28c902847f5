//! What a person reads at the end of a campaign: one line per finished run,
//! a table per suite and engine, the list of anything wrong, and the exit
//! code. Reads rows only; must not run anything nor write CSV.

use crate::report::agreement;
use crate::report::tables::median;
use crate::schema::{Row, Status};
use std::collections::BTreeMap;
use std::fmt::Write;

/// Human figure: 1234567 -> "1.23M".
pub fn si(v: f64) -> String {
    let a = v.abs();
    let (d, s) = if a >= 1e9 {
        (1e9, "G")
    } else if a >= 1e6 {
        (1e6, "M")
    } else if a >= 1e3 {
        (1e3, "k")
    } else {
        return format!("{v:.0}");
    };
    format!("{:.2}{s}", v / d)
}

/// One line for a finished run.
pub fn run_line(row: &Row) -> String {
    let mut line = format!("{}: {}", row.key().label(), row.status);
    if let Some(s) = row.states {
        let _ = write!(line, ", {s} states");
    }
    if let Some(t) = row.transitions {
        let _ = write!(line, ", {t} transitions");
    }
    match (row.states_match, row.transitions_match) {
        (Some(false), _) | (_, Some(false)) => {
            let _ = write!(
                line,
                "  MISMATCH: oracle {} states, {} transitions",
                opt(row.oracle_states),
                opt(row.oracle_transitions)
            );
        }
        (Some(true), _) if row.oracle_complete == Some(false) => {
            line.push_str(" (>= oracle lower bound)")
        }
        (Some(true), _) if row.oracle_states.is_some() => line.push_str(" (= oracle)"),
        _ => {}
    }
    if let Some(t) = row.time_s {
        let _ = write!(line, ", {t:.2} s");
    }
    if let Some(r) = row.states_per_s {
        let _ = write!(line, ", {} states/s", si(r));
    }
    if let Some(b) = row.bits_per_state {
        let _ = write!(line, ", {b:.1} bits/state");
        if let Some(a) = row.bits_per_state_alloc {
            let _ = write!(line, " ({a:.1} allocated)");
        }
    }
    if let (Some(x), true) = (row.speedup, row.threads > 1) {
        let _ = write!(line, ", speedup {x:.2}");
        if let Some(c) = row.speedup_concurrent {
            let _ = write!(line, " ({c:.2} over the concurrent form at 1 thread)");
        }
    }
    if row.status != Status::Ok && !row.message.is_empty() {
        let _ = write!(line, " -- {}", row.message);
    }
    line
}

fn opt(v: Option<u64>) -> String {
    v.map_or("?".into(), |v| v.to_string())
}

fn is_mismatch(r: &Row) -> bool {
    r.states_match == Some(false) || r.transitions_match == Some(false)
}

/// Summary table per (suite, engine), then the runs that need attention.
pub fn table(rows: &[Row]) -> String {
    let mut groups: BTreeMap<(&str, &str), Vec<&Row>> = BTreeMap::new();
    for r in rows {
        groups.entry((&r.suite, &r.engine)).or_default().push(r);
    }
    let mut out = String::new();
    let header = [
        "suite",
        "engine",
        "runs",
        "ok",
        "match",
        "mismatch",
        "failed",
        "median states/s",
        "median bits/state used",
        "alloc",
    ];
    let mut lines: Vec<Vec<String>> = vec![header.iter().map(|s| s.to_string()).collect()];
    for ((suite, engine), rs) in &groups {
        let ok: Vec<&&Row> = rs.iter().filter(|r| r.status == Status::Ok).collect();
        let mut failed: BTreeMap<Status, usize> = BTreeMap::new();
        for r in rs.iter().filter(|r| r.status != Status::Ok) {
            *failed.entry(r.status).or_default() += 1;
        }
        let failed_text = if failed.is_empty() {
            "0".to_string()
        } else {
            failed
                .iter()
                .map(|(s, n)| format!("{n} {s}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        lines.push(vec![
            suite.to_string(),
            engine.to_string(),
            rs.len().to_string(),
            ok.len().to_string(),
            ok.iter()
                .filter(|r| r.states_match == Some(true) && r.transitions_match == Some(true))
                .count()
                .to_string(),
            ok.iter().filter(|r| is_mismatch(r)).count().to_string(),
            failed_text,
            median(ok.iter().filter_map(|r| r.states_per_s).collect()).map_or("-".into(), si),
            median(ok.iter().filter_map(|r| r.bits_per_state).collect())
                .map_or("-".into(), |b| format!("{b:.1}")),
            median(ok.iter().filter_map(|r| r.bits_per_state_alloc).collect())
                .map_or("-".into(), |b| format!("{b:.1}")),
        ]);
    }
    let widths: Vec<usize> = (0..header.len())
        .map(|c| lines.iter().map(|l| l[c].len()).max().unwrap_or(0))
        .collect();
    for (i, l) in lines.iter().enumerate() {
        let cells: Vec<String> = l
            .iter()
            .zip(&widths)
            .map(|(cell, w)| format!("{cell:<w$}"))
            .collect();
        let _ = writeln!(out, "{}", cells.join("  ").trim_end());
        if i == 0 {
            let _ = writeln!(
                out,
                "{}",
                "-".repeat(widths.iter().sum::<usize>() + 2 * (widths.len() - 1))
            );
        }
    }
    let attention: Vec<String> = rows
        .iter()
        .filter(|r| is_mismatch(r) || matches!(r.status, Status::ModelError | Status::Crashed))
        .map(run_line)
        .chain(agreement::check(rows).1)
        .collect();
    if !attention.is_empty() {
        let _ = writeln!(out, "\nneeds attention:");
        for line in attention {
            let _ = writeln!(out, "  {line}");
        }
    }
    out
}

/// 1 when a count disagrees with an oracle or with another engine's (or
/// thread count's) on the same instance, or a run crashed or hit a model
/// error; 0 otherwise (limits reached are outcomes, not failures).
pub fn exit_code(rows: &[Row]) -> i32 {
    let bad = rows
        .iter()
        .any(|r| is_mismatch(r) || matches!(r.status, Status::ModelError | Status::Crashed))
        || !agreement::check(rows).1.is_empty();
    i32::from(bad)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_counts_outcomes_and_flags_mismatches() {
        let mut a = Row::example();
        a.derive();
        let mut b = Row::example();
        b.instance = "m-2".into();
        b.states = Some(2);
        b.derive();
        let mut c = Row::example();
        c.instance = "m-3".into();
        c.status = Status::Timeout;
        c.derive();
        let text = table(&[a.clone(), b.clone(), c]);
        assert!(text.contains("1 timeout"), "{text}");
        assert!(text.contains("needs attention"), "{text}");
        assert!(text.contains("m-2 / hash-table"), "{text}");
        assert_eq!(exit_code(&[a.clone()]), 0);
        assert_eq!(exit_code(&[a, b]), 1);
    }

    #[test]
    fn engines_disagreeing_without_an_oracle_fail_the_campaign() {
        let mut a = Row::example();
        a.oracle_states = None;
        a.oracle_transitions = None;
        a.derive();
        let mut b = a.clone();
        b.engine = "bdd".into();
        assert_eq!(exit_code(&[a.clone(), b.clone()]), 0);
        b.states = Some(2);
        b.derive();
        assert_eq!(exit_code(&[a.clone(), b.clone()]), 1);
        let text = table(&[a, b]);
        assert!(text.contains("engines disagree"), "{text}");
    }

    #[test]
    fn run_lines_tell_thread_counts_and_repetitions_apart() {
        let mut a = Row::example();
        a.derive();
        let one = run_line(&a);
        assert!(!one.contains("threads") && !one.contains('#'), "{one}");
        a.threads = 2;
        a.repetition = 1;
        a.speedup = Some(1.9);
        a.speedup_concurrent = None;
        let two = run_line(&a);
        assert!(two.contains("(2 threads) #1: ok"), "{two}");
        assert!(two.ends_with("speedup 1.90"), "{two}");
        a.speedup_concurrent = Some(1.8);
        let both = run_line(&a);
        assert!(
            both.ends_with("speedup 1.90 (1.80 over the concurrent form at 1 thread)"),
            "{both}"
        );
    }

    #[test]
    fn si_prefixes() {
        assert_eq!(si(999.0), "999");
        assert_eq!(si(1_234_567.0), "1.23M");
    }
}
