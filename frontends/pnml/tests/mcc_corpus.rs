//! Parses every net of the MCC corpus (`../shared/datasets/mcc/pnml/`) and
//! checks it against an independent count: the number of places and
//! transitions must equal the number of `<place ` and `<transition `
//! occurrences in the raw text, `pins::validate` must pass, and the
//! partition must cover every place.
//!
//! Tests only; reads the shared corpus, never writes it.

mod common;

use std::time::Instant;

use pins::Model;

#[test]
fn every_mcc_net_parses_with_the_right_size() {
    let Some(dir) = common::mcc_dir() else { return };
    let mut files: Vec<_> = std::fs::read_dir(dir.join("pnml"))
        .expect("list corpus")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "pnml"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "empty corpus");

    let start = Instant::now();
    let (mut bytes, mut slowest) = (0usize, (0.0f64, String::new()));
    for path in &files {
        let text = std::fs::read_to_string(path).expect("read net");
        bytes += text.len();
        let t0 = Instant::now();
        let net = pnml::parse_file(path).unwrap_or_else(|e| panic!("{e}"));
        let secs = t0.elapsed().as_secs_f64();
        if secs > slowest.0 {
            slowest = (secs, path.display().to_string());
        }

        let name = path.file_stem().unwrap().to_string_lossy();
        assert_eq!(
            net.places().len(),
            text.matches("<place ").count(),
            "{name}: place count"
        );
        assert_eq!(
            net.transitions().len(),
            text.matches("<transition ").count(),
            "{name}: transition count"
        );
        assert!(
            text.matches("<arc ").count() >= net.arc_count(),
            "{name}: arcs"
        );
        pins::validate(&net).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(net.formalism(), "pnml");
        assert_eq!(net.slot_count(), net.places().len());
        assert_eq!(net.groups().len(), net.transitions().len());
        let covered: usize = net.partition().iter().map(|c| c.slots.len()).sum();
        assert_eq!(covered, net.slot_count(), "{name}: partition");
        assert!(net.slots().iter().all(|s| s.process.is_some()));
    }
    eprintln!(
        "parsed {} nets ({:.1} MB) in {:.2?}; slowest {:.3}s ({})",
        files.len(),
        bytes as f64 / 1e6,
        start.elapsed(),
        slowest.0,
        slowest.1
    );
}

#[test]
fn truncated_mcc_net_gives_a_one_line_error_naming_the_file() {
    let Some(dir) = common::mcc_dir() else { return };
    let text = std::fs::read_to_string(dir.join("pnml/Angiogenesis-PT-01.pnml")).expect("read net");
    for cut in [text.len() / 3, text.len() / 2, text.len() - 10] {
        let err = pnml::parse_str(&text[..cut], "Angiogenesis-PT-01.pnml")
            .err()
            .unwrap_or_else(|| panic!("a prefix of {cut} bytes parsed"));
        let shown = err.to_string();
        assert!(!shown.contains('\n'), "{shown}");
        assert_eq!(err.kind(), pnml::ErrorKind::Syntax, "{shown}");
        assert!(shown.starts_with("Angiogenesis-PT-01.pnml:"), "{shown}");
        assert!(shown.contains("truncated XML"), "{shown}");
    }
}
