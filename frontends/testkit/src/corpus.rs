//! Where the front-ends' tests find their shared data and how they read
//! it: the `../shared/datasets/` folder beside the workspace (absent data
//! goes through [`crate::missing`]), a folder's files of one extension, and
//! the columns of an oracle CSV. Reads only; must not know any formalism
//! nor what an oracle's columns mean.

use std::path::{Path, PathBuf};

/// `<workspace>/../shared/datasets/<rel>`, whether or not it exists.
pub fn datasets(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/datasets")
        .join(rel)
}

/// [`datasets`]`(rel)` when it holds every entry of `needs` (the folder
/// itself when `needs` is empty); otherwise [`crate::missing`] (a failure
/// under CI) says `{what} not found at ...` and this is `None`.
pub fn dataset(rel: &str, what: &str, needs: &[&str]) -> Option<PathBuf> {
    let dir = datasets(rel);
    let present = if needs.is_empty() {
        dir.is_dir()
    } else {
        needs.iter().all(|n| dir.join(n).exists())
    };
    if present {
        return Some(dir);
    }
    let needs = if needs.is_empty() {
        String::new()
    } else {
        format!(" ({})", needs.join(" and "))
    };
    crate::missing(&format!("{what} not found at {}{needs}", dir.display()));
    None
}

/// One small BEEM instance (a few thousand to fifty thousand states) of
/// each of twelve families, present in DVE and in Promela: for tests that
/// check something on every reachable state.
pub const BEEM_SMALL: [&str; 12] = [
    "at.1",
    "blocks.2",
    "brp.2",
    "frogs.2",
    "hanoi.1",
    "lamport.1",
    "leader_filters.2",
    "peterson.1",
    "reader_writer.2",
    "rether.2",
    "sorter.1",
    "telephony.2",
];

/// The files `<name>.<ext>` of [`dataset`]`(rel)`, one per name of
/// `names`, when all are there; otherwise as [`dataset`] (a failure under
/// CI) and `None`.
pub fn instances(rel: &str, what: &str, names: &[&str], ext: &str) -> Option<Vec<PathBuf>> {
    let files: Vec<String> = names.iter().map(|n| format!("{n}.{ext}")).collect();
    let needs: Vec<&str> = files.iter().map(String::as_str).collect();
    let dir = dataset(rel, what, &needs)?;
    Some(files.iter().map(|f| dir.join(f)).collect())
}

/// Every file of `dir` whose extension is `ext`, sorted; panics when there
/// is none (an empty corpus is a broken setup, not a pass).
pub fn files_with_extension(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("list {}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .{ext} file in {}", dir.display());
    files
}

/// The named columns of every non-blank row of the CSV file `path` (no
/// quoting: fields are split at commas and trimmed), in file order; each
/// row holds the fields in the order of `columns`. Panics when the file
/// cannot be read or lacks a column.
pub fn csv_columns(path: &Path, columns: &[&str]) -> Vec<Vec<String>> {
    let text =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split(',').collect();
    let index: Vec<usize> = columns
        .iter()
        .map(|name| {
            header
                .iter()
                .position(|h| h.trim() == *name)
                .unwrap_or_else(|| panic!("{} has no column {name}", path.display()))
        })
        .collect();
    lines
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split(',').collect();
            index
                .iter()
                .map(|&i| f.get(i).map_or("", |s| s.trim()).to_owned())
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_columns_picks_named_fields_in_order() {
        let dir = std::env::temp_dir().join(format!("testkit-csv-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("o.csv");
        std::fs::write(&f, "a,b,c\n1, 2,3\n\n4,5,6\n").unwrap();
        let rows = csv_columns(&f, &["c", "b"]);
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(rows, vec![vec!["3", "2"], vec!["6", "5"]]);
    }
}
