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

/// The lean child's executed functions first in its code, in the order
/// of `harness/child-symbols.order` (written by
/// `scripts/child-symbol-order.sh`): the kernel maps code 64 KiB at a time
/// around each page touched, so code spread over the binary is resident
/// in full windows (schedule_world.2: 4.0 MiB of file-backed pages at the
/// peak in link order, 2.8 packed). Only where rustc links with its own
/// lld (x86_64 Linux, no linker chosen in the flags), which reads the
/// option; names it does not find are skipped without a warning.
fn order_child_code(root: &Path) {
    let order = root.join("harness/child-symbols.order");
    println!("cargo:rerun-if-changed={}", order.display());
    println!("cargo:rerun-if-env-changed=CARGO_ENCODED_RUSTFLAGS");
    let target = std::env::var("TARGET").unwrap_or_default();
    let flags = std::env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    if target != "x86_64-unknown-linux-gnu" || flags.contains("link") || !order.is_file() {
        return;
    }
    for arg in [
        format!("--symbol-ordering-file={}", order.display()),
        "--no-warn-symbol-ordering".to_string(),
    ] {
        println!("cargo:rustc-link-arg-bin=statebench-child=-Wl,{arg}");
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
    order_child_code(&root);
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
