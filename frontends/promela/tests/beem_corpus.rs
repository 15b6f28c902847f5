//! Parses every Promela file of the BEEM corpus
//! (`../shared/datasets/beem/promela/`): each must parse, pass
//! `pins::validate`, and have a partition covering every slot once, except
//! the files SPIN 6.5.2 itself refuses (`spin_result=error` in
//! `datasets/promela.csv`): where we refuse one too it must be at the line
//! SPIN names (BEEM's train-gate translations, an array used without an
//! index); we may accept one whose refusal is SPIN 6's newer keyword
//! (`production_cell.*` label a statement `done`, reserved since SPIN 6:
//! "bad label-name done"), and then it must parse and validate like any.
//! When the corpus is absent: fails under CI, else says it skipped.

mod common;

use pins::Model;

#[test]
fn every_beem_promela_model_parses_and_validates() {
    let Some(dir) = common::promela_dir() else {
        return;
    };
    let files = common::pm_files(&dir);
    let refused = spin_refused();
    let mut failures = Vec::new();
    for path in &files {
        let instance = path.file_stem().unwrap().to_string_lossy().into_owned();
        let parsed = promela::parse_file(path);
        match (refused.get(&instance), &parsed) {
            (Some((line, _)), Err(e)) => {
                if !e.to_string().contains(&format!(".pm:{line}:")) {
                    failures.push(format!(
                        "{instance}: SPIN refuses line {line}, we said: {e}"
                    ));
                }
                continue;
            }
            (Some((line, true)), Ok(_)) => {
                failures.push(format!(
                    "{instance}: SPIN refuses line {line} (missing array index), we accepted it"
                ));
                continue;
            }
            _ => {}
        }
        let m = match parsed {
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

/// Instances SPIN refuses to compile, with the line its error names and
/// whether we must refuse them too (an array used without an index), from
/// the manifest (`spin_result=error;message=spin -a failed: spin: F.pm:LINE ...`).
fn spin_refused() -> std::collections::HashMap<String, (String, bool)> {
    let manifest =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../datasets/promela.csv");
    let text = std::fs::read_to_string(&manifest).expect("datasets/promela.csv");
    text.lines()
        .skip(1)
        .filter(|l| l.contains(";spin_result=error;"))
        .filter_map(|l| {
            let instance = l.split(',').next()?.to_string();
            let after = l.split(".pm:").nth(1)?;
            let line: String = after.chars().take_while(char::is_ascii_digit).collect();
            let must = l.contains("missing array index");
            (!line.is_empty()).then_some((instance, (line, must)))
        })
        .collect()
}
