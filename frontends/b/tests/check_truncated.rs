//! Robustness: machine files of ProB's collection (classical B and
//! Event-B exports, one in [`STRIDE`] of them) cut at pseudo-random points,
//! and cut with a span deleted, must be read or refused with an error,
//! never a panic. Only reading is tried (parsing, loading, compiling): a
//! cut PROPERTIES may leave constants without a finite range, whose
//! solving costs time, not coverage of the reader. The machines a cut
//! file names are looked up in the current folder, where there are none.

mod common;

use std::path::{Path, PathBuf};

use frontend_testkit::fuzz::Rng;

/// One file in this many is cut (all of them cost minutes).
const STRIDE: usize = 6;

/// A char boundary of `text` drawn at random.
fn cut_point(rng: &mut Rng, text: &str) -> usize {
    let mut cut = rng.below(text.len() + 1);
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    cut
}

/// The machine files under `dir` (`.mch`, `.ref`, `.imp`, `.sys`,
/// `.eventb`), sorted.
fn machine_files(dir: &Path) -> Vec<PathBuf> {
    let kinds = ["mch", "ref", "imp", "sys", "eventb"];
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(d) = pending.pop() {
        for e in std::fs::read_dir(&d).expect("list the collection") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                pending.push(p);
            } else if p.extension().is_some_and(|x| kinds.iter().any(|k| x == *k)) {
                found.push(p);
            }
        }
    }
    found.sort();
    found
}

#[test]
fn truncated_collection_files_never_panic() {
    let Some(dir) = common::b_dir() else {
        return;
    };
    let files = machine_files(&dir.join("prob-examples"));
    assert!(files.len() > 3000, "{} machine files", files.len());
    let mut rng = Rng(0x9e3779b97f4a7c15);
    let mut tried = 0;
    for p in files.iter().step_by(STRIDE) {
        let Ok(text) = std::fs::read_to_string(p) else {
            continue; // not UTF-8: the reader's own error, no cut to try
        };
        if text.len() > 200_000 {
            continue; // the large files cost time, not coverage
        }
        let label = p.display().to_string();
        let cut = cut_point(&mut rng, &text);
        let _ = bmethod::parse_str(&text[..cut], &label);
        // the same cut with the rest of the file after a deleted span
        let skip = (cut + 1 + rng.below(40)).min(text.len());
        if text.is_char_boundary(skip) {
            let _ = bmethod::parse_str(&format!("{}{}", &text[..cut], &text[skip..]), &label);
        }
        tried += 2;
    }
    eprintln!("{tried} cut files read or refused without a panic");
}
