//! Parses every DVE file of the BEEM corpus (`../shared/datasets/beem/dve/`):
//! each must parse, pass `pins::validate`, have one `P.pc` slot per process
//! (counted independently as `process NAME {` occurrences in the text),
//! a partition covering every slot and an initial state of the right length.
//! A parse failure is a defect.
//!
//! Tests only; reads the shared corpus, never writes it.

mod common;

use std::time::Instant;

use pins::Model;

#[test]
fn every_beem_model_parses_and_validates() {
    let Some(dir) = common::beem_dir() else {
        return;
    };
    let files = common::dve_files(&dir);
    let start = Instant::now();
    let mut failures = Vec::new();
    let (mut bytes, mut slowest) = (0usize, (0.0f64, String::new()));
    for path in &files {
        let text = String::from_utf8_lossy(&std::fs::read(path).expect("read")).into_owned();
        bytes += text.len();
        let t0 = Instant::now();
        let m = match dve::parse_file(path) {
            Ok(m) => m,
            Err(e) => {
                failures.push(e.to_string());
                continue;
            }
        };
        let secs = t0.elapsed().as_secs_f64();
        if secs > slowest.0 {
            slowest = (secs, path.display().to_string());
        }
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        pins::validate(&m).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(m.formalism(), "dve");
        assert_eq!(m.name(), name);
        let code = strip_comments(&text);
        let processes = count_processes(&code);
        assert_eq!(m.process_names().len(), processes, "{name}: processes");
        let pcs = m.slots().iter().filter(|s| s.name.ends_with(".pc")).count();
        assert_eq!(pcs, processes, "{name}: control-state slots");
        let covered: usize = m.partition().iter().map(|c| c.slots.len()).sum();
        assert_eq!(covered, m.slot_count(), "{name}: partition");
        assert!(!m.groups().is_empty(), "{name}: no transition group");
        let init = m.initial_state();
        for (v, s) in init.iter().zip(m.slots()) {
            assert!(
                u64::from(*v) < (1u64 << s.bits),
                "{name}: initial value {v} of {} exceeds {} bits",
                s.name,
                s.bits
            );
        }
    }
    let total = start.elapsed().as_secs_f64();
    eprintln!(
        "parsed {} of {} BEEM models ({:.1} MB) in {total:.2} s ({:.1} MB/s); slowest {:.3} s: {}",
        files.len() - failures.len(),
        files.len(),
        bytes as f64 / 1e6,
        bytes as f64 / 1e6 / total.max(1e-9),
        slowest.0,
        slowest.1
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The text without `//` and `/* */` comments (written independently of
/// the crate's lexer).
fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix("//") {
            rest = r.find('\n').map_or("", |i| &r[i..]);
        } else if let Some(r) = rest.strip_prefix("/*") {
            rest = r.find("*/").map_or("", |i| &r[i + 2..]);
            out.push(' ');
        } else {
            let c = rest.chars().next().unwrap();
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// Occurrences of `process NAME {` as whole words.
fn count_processes(code: &str) -> usize {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    code.match_indices("process")
        .filter(|(i, _)| !code[..*i].ends_with(word))
        .filter(|(i, _)| {
            let rest = &code[i + "process".len()..];
            let trimmed = rest.trim_start();
            if trimmed.len() == rest.len() {
                return false;
            }
            let name_len = trimmed.find(|c: char| !word(c)).unwrap_or(trimmed.len());
            name_len > 0 && trimmed[name_len..].trim_start().starts_with('{')
        })
        .count()
}
