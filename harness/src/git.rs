//! The project's git commit as statebench records it: `HEAD`, with
//! `-dirty` when tracked files differ, `unknown` outside a checkout. One
//! home for the rule: `build.rs` includes this file to stamp the binary,
//! and `machine` uses it at run time for a binary built outside a checkout.
//!
//! Owns the git commands and the commit text. Must not depend on the rest
//! of the crate (the build script compiles it alone).

use std::path::Path;
use std::process::Command;

/// The trimmed stdout of `git -C root ARGS`, or `None` when git fails.
pub fn git(root: &Path, args: &[&str]) -> Option<String> {
    Command::new("git")
        .arg("-C")
        .arg(root)
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
}

/// `HEAD` of the checkout at `root` (with `-dirty` when tracked files
/// differ), or `unknown` outside one.
pub fn commit(root: &Path) -> String {
    match git(root, &["rev-parse", "HEAD"]) {
        Some(head) if !head.is_empty() => {
            let dirty = git(root, &["status", "--porcelain", "--untracked-files=no"])
                .is_some_and(|s| !s.is_empty());
            if dirty {
                format!("{head}-dirty")
            } else {
                head
            }
        }
        _ => "unknown".into(),
    }
}
