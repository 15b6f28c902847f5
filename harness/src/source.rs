//! Where a model's text comes from: a file, or a built-in model embedded
//! from `datasets/builtin/` at build time, and how a child's command line
//! names it. Must not know manifests, checksums nor front-ends (the
//! manifests and the data lookup order are `datasets`' in the `statebench`
//! binary; this module is in the library the lean child links too).

use std::path::PathBuf;

include!(concat!(env!("OUT_DIR"), "/builtin_files.rs"));

/// Where a model's text comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModelSource {
    /// A built-in model compiled into the binary.
    Embedded { label: String },
    /// A file on disk.
    File(PathBuf),
}

impl ModelSource {
    /// The argument naming this source on a child's command line.
    pub fn to_arg(&self) -> String {
        match self {
            ModelSource::Embedded { label } => format!("builtin:{label}"),
            ModelSource::File(p) => p.display().to_string(),
        }
    }

    pub fn from_arg(arg: &str) -> ModelSource {
        match arg.strip_prefix("builtin:") {
            Some(label) => ModelSource::Embedded {
                label: label.to_string(),
            },
            None => ModelSource::File(PathBuf::from(arg)),
        }
    }
}

/// The text of an embedded built-in model, by its path relative to `datasets/`.
pub fn embedded_text(label: &str) -> Option<&'static str> {
    BUILTIN_FILES
        .iter()
        .find(|(path, _)| *path == label)
        .map(|(_, text)| *text)
}
