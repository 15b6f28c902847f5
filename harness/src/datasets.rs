//! Suites and their manifests, and where model files are found.
//!
//! Owns: the manifests embedded from `datasets/*.csv` (names, formalisms,
//! paths, sources, checksums, oracle counts), the built-in models' entries
//! (their text is embedded by `source`), the data lookup order of DESIGN.md
//! (`$STATEBENCH_DATA`, then `datasets/cache/`, then `../shared/datasets/`)
//! and checksum verification. Must not parse models nor run anything.

use serde::Deserialize;
use sha2::{Digest, Sha256};
use std::io::Read;
use std::path::{Path, PathBuf};

pub use statebench_child::source::{embedded_text, ModelSource};

/// The suites statebench knows: (name, description, manifest CSV text).
const MANIFESTS: &[(&str, &str, &str)] = &[
    (
        "builtin",
        "nets written by the project (embedded; the default suite)",
        include_str!("../../datasets/builtin.csv"),
    ),
    (
        "beem",
        "BEEM DVE instances (Pelanek 2007); oracle: DiVinE's counts",
        include_str!("../../datasets/beem.csv"),
    ),
    (
        "mcc",
        "Model Checking Contest 2021 P/T nets with at most 1e9 states",
        include_str!("../../datasets/mcc.csv"),
    ),
    (
        "mcrl2",
        "mCRL2 example specifications as linear processes (mcrl22lps); oracle: lps2lts's counts",
        include_str!("../../datasets/mcrl2.csv"),
    ),
    (
        "beem-promela",
        "BEEM's Promela translations; oracle: SPIN 6.5.2's states stored (-DSAFETY -DNOREDUCE)",
        include_str!("../../datasets/promela.csv"),
    ),
    (
        "b",
        "classical B machines of the ProB examples; oracle: ProB's counts + 1 (the artificial root)",
        include_str!("../../datasets/b.csv"),
    ),
    (
        "eventb",
        "Event-B models of the ProB examples (Rodin/ProB Prolog exports); oracle: ProB's counts + 1 (the artificial root)",
        include_str!("../../datasets/eventb.csv"),
    ),
];

/// One model instance of a manifest.
#[derive(Clone, Debug, Deserialize)]
pub struct Entry {
    #[serde(skip)]
    pub suite: String,
    pub instance: String,
    pub model: String,
    pub formalism: String,
    /// Relative to a data root (or to `datasets/` for built-in models).
    pub path: String,
    pub source_url: String,
    pub sha256: String,
    pub oracle_states: Option<u64>,
    pub oracle_transitions: Option<u64>,
    /// `yes` when the oracle count is exact, `no` when only a lower bound.
    pub complete: String,
    /// How the oracle was obtained and other remarks, `key=value;...`
    /// (the SPIN peers read their hints from here).
    pub notes: String,
}

/// A named list of model instances.
#[derive(Clone, Debug)]
pub struct Suite {
    pub name: &'static str,
    pub description: &'static str,
    pub entries: Vec<Entry>,
}

/// Every suite, parsed from the embedded manifests.
pub fn suites() -> Vec<Suite> {
    MANIFESTS
        .iter()
        .map(|&(name, description, text)| Suite {
            name,
            description,
            entries: parse_manifest(name, text)
                .unwrap_or_else(|e| panic!("embedded manifest of suite {name} is invalid: {e}")),
        })
        .collect()
}

/// Parses a manifest CSV; `suite` is stamped on every entry.
pub fn parse_manifest(suite: &str, text: &str) -> Result<Vec<Entry>, String> {
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    reader
        .deserialize()
        .enumerate()
        .map(|(i, r)| {
            r.map(|mut e: Entry| {
                e.suite = suite.to_string();
                e
            })
            .map_err(|e| format!("line {}: {e}", i + 2))
        })
        .collect()
}

/// The project root this binary was built from.
pub fn project_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

/// Data roots in lookup order: `$STATEBENCH_DATA`, `datasets/cache/`,
/// `../shared/datasets/` (of the project, then of the working directory).
pub fn data_roots() -> Vec<PathBuf> {
    let mut roots = Vec::new();
    if let Some(dir) = std::env::var_os("STATEBENCH_DATA") {
        roots.push(PathBuf::from(dir));
    }
    let root = project_root();
    roots.push(root.join("datasets/cache"));
    roots.push(root.join("../shared/datasets"));
    if let Ok(cwd) = std::env::current_dir() {
        for candidate in [cwd.join("datasets/cache"), cwd.join("../shared/datasets")] {
            if !roots.contains(&candidate) {
                roots.push(candidate);
            }
        }
    }
    roots
}

/// Finds an entry's model: embedded for built-in models, else the first
/// data root holding the file. The error lists where it looked.
pub fn resolve(entry: &Entry) -> Result<ModelSource, String> {
    if embedded_text(&entry.path).is_some() {
        return Ok(ModelSource::Embedded {
            label: entry.path.clone(),
        });
    }
    let roots = data_roots();
    for root in &roots {
        let candidate = root.join(&entry.path);
        if candidate.is_file() {
            return Ok(ModelSource::File(candidate));
        }
    }
    let looked: Vec<_> = roots.iter().map(|r| r.display().to_string()).collect();
    Err(format!(
        "model file {} not found under {} (run scripts/fetch-datasets.sh)",
        entry.path,
        looked.join(", ")
    ))
}

/// SHA-256 of a file or embedded text, lower-case hex.
pub fn sha256_of(source: &ModelSource) -> std::io::Result<String> {
    let mut hasher = Sha256::new();
    match source {
        ModelSource::Embedded { label } => {
            hasher.update(embedded_text(label).unwrap_or_default().as_bytes())
        }
        ModelSource::File(path) => {
            let mut file = std::fs::File::open(path)?;
            let mut buf = vec![0u8; 1 << 20];
            loop {
                let n = file.read(&mut buf)?;
                if n == 0 {
                    break;
                }
                hasher.update(&buf[..n]);
            }
        }
    }
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

/// Checks a resolved model against its manifest checksum.
pub fn verify(entry: &Entry, source: &ModelSource) -> Result<(), String> {
    if entry.sha256.is_empty() {
        return Ok(());
    }
    let actual = sha256_of(source).map_err(|e| format!("{}: {e}", source.to_arg()))?;
    if actual != entry.sha256 {
        return Err(format!(
            "{}: sha256 {actual} differs from the manifest's {} (corrupt or different file)",
            source.to_arg(),
            entry.sha256
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_manifests_parse_and_name_unique_instances() {
        for suite in suites() {
            let mut names: Vec<_> = suite.entries.iter().map(|e| &e.instance).collect();
            let n = names.len();
            names.sort();
            names.dedup();
            assert_eq!(names.len(), n, "duplicate instance in suite {}", suite.name);
            assert!(n > 0, "suite {} is empty", suite.name);
        }
    }

    #[test]
    fn builtin_models_are_embedded_and_match_their_checksums() {
        let builtin = suites().into_iter().find(|s| s.name == "builtin").unwrap();
        for e in &builtin.entries {
            let source = resolve(e).unwrap();
            assert!(
                matches!(source, ModelSource::Embedded { .. }),
                "{}",
                e.instance
            );
            verify(e, &source).unwrap();
        }
    }

    #[test]
    fn checksum_mismatch_and_missing_file_are_reported() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("x.pnml");
        std::fs::write(&file, "abc").unwrap();
        let mut entry = parse_manifest(
            "t",
            "instance,model,formalism,path,source_url,sha256,oracle_states,oracle_transitions,complete,notes\n\
             x,x,pnml,nowhere/x.pnml,,ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad,,,yes,\n",
        )
        .unwrap()
        .remove(0);
        assert_eq!(entry.oracle_states, None);
        let err = resolve(&entry).unwrap_err();
        assert!(err.contains("nowhere/x.pnml not found"), "{err}");
        let source = ModelSource::File(file);
        verify(&entry, &source).unwrap();
        entry.sha256 = "00".repeat(32);
        assert!(verify(&entry, &source).unwrap_err().contains("differs"));
    }
}
