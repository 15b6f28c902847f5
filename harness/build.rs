//! Embeds the built-in models (datasets/builtin/*) into the binary, so the
//! default suite runs with no dataset on disk, and re-runs when they change.
//! Also stamps the git commit the binary was built from
//! (`STATEBENCH_BUILD_COMMIT`, `-dirty` when tracked files differ), so a copied
//! or stale binary records its own commit in every row, not the checkout's,
//! and the build's identity (`STATEBENCH_BUILD_ID`), by which `statebench`
//! tells a `statebench-child` of its own build from a stale one.

#[path = "src/git.rs"]
mod git;

use git::git;
use std::fmt::Write;
use std::path::Path;

/// HEAD (with `-dirty`) of the checkout, or `unknown` outside one. Re-runs
/// when HEAD, the branch it is on or any workspace source changes.
fn stamp_commit(root: &Path) {
    let commit = git::commit(root);
    println!("cargo:rustc-env=STATEBENCH_BUILD_COMMIT={commit}");
    // This script reruns whenever a watched source changes: the time it
    // ran tells this build from an earlier one of the same commit, so that
    // `statebench` runs no `statebench-child` left from another build.
    let ran = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    println!("cargo:rustc-env=STATEBENCH_BUILD_ID={commit}@{ran}");
    // Not `.git/index`: `git status` (above, and any later one) rewrites it
    // without a change to anything tracked, which would rebuild the harness
    // on every build of a fresh clone. What makes the stamp stale is a new
    // commit (HEAD, the branch's ref, loose or packed) or an edited source
    // (the workspace sources below): watched. Only existing paths are
    // named, since Cargo reruns a script every build for a missing one; a
    // branch ref not yet loose is watched through its directory.
    let mut watched = Vec::new();
    if let Some(head) = git(root, &["rev-parse", "--git-path", "HEAD"]) {
        watched.push(root.join(head));
    }
    if let Some(packed) = git(root, &["rev-parse", "--git-path", "packed-refs"]) {
        watched.push(root.join(packed));
    }
    if let Some(branch) = git(root, &["symbolic-ref", "-q", "HEAD"]) {
        if let Some(loose) = git(root, &["rev-parse", "--git-path", &branch]) {
            let loose = root.join(loose);
            if !loose.exists() {
                if let Some(dir) = loose.parent() {
                    watched.push(dir.to_path_buf());
                }
            }
            watched.push(loose);
        }
    }
    for path in watched.iter().filter(|p| p.exists()) {
        println!("cargo:rerun-if-changed={}", path.display());
    }
    for d in [
        "harness/src",
        "engines/src",
        "pins/src",
        "frontends",
        "Cargo.toml",
        "Cargo.lock",
    ] {
        println!("cargo:rerun-if-changed={}", root.join(d).display());
    }
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    stamp_commit(&root);
    // The lean child at a fixed address: a position-independent executable
    // has the loader relocate its tables of pointers at start, which makes
    // their pages private and resident in the measured process (0.45 MiB of
    // peak RSS on schedule_world.2, 7.3 against 6.9 MiB).
    println!("cargo:rustc-link-arg-bin=statebench-child=-no-pie");
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
