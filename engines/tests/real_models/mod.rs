//! Real models for the engines' integration tests: the manifests under
//! `datasets/` (instance, file, oracle) and the front-ends that load the
//! files (dev-dependencies only: the engines never depend on a front-end).
//! Files are looked up in `$STATEBENCH_DATA`, `datasets/`,
//! `datasets/cache/` and `../shared/datasets/`, as the harness does.
//!
//! Owns only the lookup and loading; every check is in the test files.
#![allow(dead_code)] // each test file uses its own part

use pins::Model;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The workspace root.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The shared dataset folder (present on every development and CI
/// machine).
pub fn shared() -> PathBuf {
    let root = workspace().join("../shared/datasets");
    assert!(
        root.is_dir(),
        "{} is missing (it is present on every development and CI machine)",
        root.display()
    );
    root
}

/// Every row of `datasets/<manifest>` as column → value.
pub fn rows(manifest: &str) -> Vec<HashMap<String, String>> {
    let path = workspace().join("datasets").join(manifest);
    let mut reader =
        csv::Reader::from_path(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let headers = reader.headers().unwrap().clone();
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            headers
                .iter()
                .zip(r.iter())
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

/// Where the model file `rel` (a manifest's `path`) is, if anywhere.
pub fn locate(rel: &str) -> Option<PathBuf> {
    let root = workspace();
    [
        std::env::var("STATEBENCH_DATA").map(PathBuf::from).ok(),
        Some(root.join("datasets")),
        Some(root.join("datasets/cache")),
        Some(root.join("../shared/datasets")),
    ]
    .into_iter()
    .flatten()
    .map(|d| d.join(rel))
    .find(|p| p.is_file())
}

/// (path, oracle states) of `instance` from `datasets/<suite>.csv`.
pub fn manifest(suite: &str, instance: &str) -> (PathBuf, u64) {
    let row = rows(&format!("{suite}.csv"))
        .into_iter()
        .find(|r| r["instance"] == instance)
        .unwrap_or_else(|| panic!("{instance} not in datasets/{suite}.csv"));
    let path = locate(&row["path"])
        .unwrap_or_else(|| panic!("{instance}: model file {} not found", row["path"]));
    (path, row["oracle_states"].parse().unwrap())
}

/// Up to `count` complete instances of `manifest` with an oracle of
/// `min..=max` states whose file is present: (instance, path, oracle).
pub fn instances(manifest: &str, min: u64, max: u64, count: usize) -> Vec<(String, PathBuf, u64)> {
    let mut out = Vec::new();
    for r in rows(manifest) {
        let Ok(states) = r["oracle_states"].parse::<u64>() else {
            continue;
        };
        if r["complete"] != "yes" || !(min..=max).contains(&states) {
            continue;
        }
        if let Some(path) = locate(&r["path"]) {
            out.push((r["instance"].clone(), path, states));
        }
        if out.len() == count {
            break;
        }
    }
    out
}

/// The model in `path` (PNML or DVE).
pub fn load(path: &Path) -> Box<dyn Model> {
    let shown = path.display();
    match path.extension().and_then(|e| e.to_str()) {
        Some("pnml") => Box::new(pnml::parse_file(path).unwrap_or_else(|e| panic!("{shown}: {e}"))),
        Some("dve") => Box::new(dve::parse_file(path).unwrap_or_else(|e| panic!("{shown}: {e}"))),
        _ => panic!("{shown}: not a model"),
    }
}
