//! Parses every Promela file of the BEEM corpus
//! (`../shared/datasets/beem/promela/`): each must parse, pass
//! `pins::validate`, and have a partition covering every slot once.
//! When the corpus is absent: fails under CI, else says it skipped.

mod common;

use pins::Model;

#[test]
fn every_beem_promela_model_parses_and_validates() {
    let Some(dir) = common::promela_dir() else {
        return;
    };
    let files = common::pm_files(&dir);
    assert!(!files.is_empty(), "empty corpus");
    let mut failures = Vec::new();
    for path in &files {
        let m = match promela::parse_file(path) {
            Ok(m) => m,
            Err(e) => {
                failures.push(e.to_string());
                continue;
            }
        };
        if let Err(e) = pins::validate(&m) {
            failures.push(format!("{}: {e}", path.display()));
        }
        let mut covered: Vec<usize> = m.partition().into_iter().flat_map(|c| c.slots).collect();
        covered.sort_unstable();
        if covered != (0..m.slot_count()).collect::<Vec<_>>() {
            failures.push(format!(
                "{}: partition does not cover every slot once",
                path.display()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} files failed:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}
