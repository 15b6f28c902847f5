//! Embeds the built-in models (datasets/builtin/*) into the binary, so the
//! default suite runs with no dataset on disk, and re-runs when they change.

use std::fmt::Write;
use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../datasets/builtin");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .map(|rd| rd.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.is_file());
    files.sort();
    let mut out = String::from("/// Built-in model files: (path relative to datasets/, contents).\npub const BUILTIN_FILES: &[(&str, &str)] = &[\n");
    for f in files {
        println!("cargo:rerun-if-changed={}", f.display());
        let name = f.file_name().unwrap().to_string_lossy();
        writeln!(
            out,
            "    (\"builtin/{name}\", include_str!({:?})),",
            f.canonicalize().unwrap()
        )
        .unwrap();
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join("builtin_files.rs");
    std::fs::write(dest, out).unwrap();
}
