//! `statebench merge OUT.csv IN1.csv IN2.csv ...`: joins the CSVs of a
//! sharded campaign (`run --shard I/N`) into one.
//!
//! Every input must have the current schema's header, or an older one:
//! the schema only ever appends columns (and renames one, [`RENAMED`]), so
//! an older header is a prefix of today's once renamed; its missing columns
//! are read empty, derived ones recomputed, and said on stderr. Anything
//! else (a column dropped or reordered, a newer schema) is refused. A run key ([`RunKey`]) present
//! twice, in two inputs or in one, is an error naming the files, except
//! that with `--rerun-replaces` a later input's row replaces an earlier
//! input's row of the same key in place (a campaign that reruns some runs
//! of another, merged after it; each replacement is listed on stderr). A
//! key twice in one input is always an error. Rows are
//! written in input order (the inputs in the order given, each file's rows
//! in its order), rewritten through the schema's writer; a last line cut
//! short by a killed shard is skipped with a note (rerun that shard with
//! `--resume`). OUT is written to a temporary file and renamed, and an
//! existing OUT is never replaced without `--force`. Owns only this; must
//! not run anything nor change its inputs.

use crate::schema::{header_line, read_rows_tolerant, write_rows, Row, RunKey, RENAMED};
use anyhow::{bail, Context as _};
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// Options of `statebench merge`.
#[derive(Clone, Debug, clap::Args)]
pub struct MergeArgs {
    /// The merged CSV to write (e.g. results/NAME/runs.csv).
    pub out: PathBuf,
    /// The shards' CSVs (their runs.csv), joined in this order.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// Replace OUT if it exists.
    #[arg(long)]
    pub force: bool,
    /// A run already read from an earlier input is replaced by a later
    /// input's row (give a rerun campaign after the one it reruns); without
    /// it such a run is an error.
    #[arg(long)]
    pub rerun_replaces: bool,
}

/// Checks that `path` has the current schema's header or an older one (a
/// prefix of it once renamed columns take their new names); returns the
/// columns an older header lacks.
fn check_header(path: &Path) -> anyhow::Result<Vec<String>> {
    let mut reader =
        csv::Reader::from_path(path).with_context(|| format!("cannot read {}", path.display()))?;
    let headers = reader
        .headers()
        .with_context(|| format!("{}: cannot read the header", path.display()))?;
    if headers.is_empty() || headers.iter().all(str::is_empty) {
        bail!(
            "{}: empty file, no header (not a campaign's runs.csv?)",
            path.display()
        );
    }
    let expected = header_line();
    let schema: Vec<&str> = expected.split(',').collect();
    let renamed: Vec<&str> = headers
        .iter()
        .map(|h| {
            RENAMED
                .iter()
                .find(|(old, _)| *old == h)
                .map_or(h, |(_, new)| new)
        })
        .collect();
    if renamed.len() <= schema.len() && schema[..renamed.len()] == renamed[..] {
        return Ok(schema[renamed.len()..]
            .iter()
            .map(|c| c.to_string())
            .collect());
    }
    let missing: Vec<&str> = schema
        .iter()
        .copied()
        .filter(|c| !headers.iter().any(|h| h == *c))
        .collect();
    let unknown: Vec<&str> = renamed
        .iter()
        .copied()
        .filter(|h| !schema.contains(h))
        .collect();
    let detail = match (missing.is_empty(), unknown.is_empty()) {
        (true, true) => "same columns in another order".to_string(),
        _ => format!(
            "missing: {}; unknown: {}",
            if missing.is_empty() {
                "none".into()
            } else {
                missing.join(", ")
            },
            if unknown.is_empty() {
                "none".into()
            } else {
                unknown.join(", ")
            }
        ),
    };
    bail!(
        "{}: its header differs from this statebench's CSV schema ({detail}); merge joins CSVs of the current schema or an older one (a prefix of it)",
        path.display()
    )
}

/// The rows of `inputs` joined as `statebench merge` joins them (headers
/// checked, a duplicate run an error unless `rerun_replaces` lets a later
/// input's row replace it), with what to tell the user on the way.
pub struct Joined {
    pub rows: Vec<Row>,
    /// Rows replaced by a later input's (`rerun_replaces`).
    pub replaced: usize,
    /// Older schemas, skipped cut-short lines, each replacement.
    pub notes: Vec<String>,
}

/// Joins the rows of `inputs` in order (see the module's doc).
pub fn join(inputs: &[PathBuf], rerun_replaces: bool) -> anyhow::Result<Joined> {
    let mut seen: HashMap<RunKey, (&Path, usize)> = HashMap::new();
    let mut joined = Joined {
        rows: Vec::new(),
        replaced: 0,
        notes: Vec::new(),
    };
    for input in inputs {
        let missing = check_header(input)?;
        if !missing.is_empty() {
            joined.notes.push(format!(
                "note: {} has an older schema: its rows are written with {} empty (derived ones recomputed)",
                input.display(),
                missing.join(", ")
            ));
        }
        let loaded = read_rows_tolerant(input)?;
        joined
            .notes
            .extend(loaded.notes.iter().map(|n| format!("note: {n}")));
        for row in loaded.rows {
            let key = row.key();
            match seen.get(&key) {
                Some((first, at)) if rerun_replaces && *first != input.as_path() => {
                    joined.notes.push(format!(
                        "replaced: {key} of {} by {}",
                        first.display(),
                        input.display()
                    ));
                    let at = *at;
                    joined.rows[at] = row;
                    seen.insert(key, (input, at));
                    joined.replaced += 1;
                }
                Some((first, _)) => {
                    let place = if *first == input.as_path() {
                        format!("twice in {}", input.display())
                    } else {
                        format!(
                            "in both {} and {} (--rerun-replaces lets the later one win)",
                            first.display(),
                            input.display()
                        )
                    };
                    bail!("duplicate run ({key}) {place}");
                }
                None => {
                    seen.insert(key, (input, joined.rows.len()));
                    joined.rows.push(row);
                }
            }
        }
    }
    Ok(joined)
}

/// `statebench merge`. Returns the exit code (0; errors are `Err`).
pub fn command(args: MergeArgs) -> anyhow::Result<i32> {
    if args.out.exists() && !args.force {
        bail!("{} exists; pass --force to replace it", args.out.display());
    }
    let out_canonical = args.out.canonicalize().ok();
    for input in &args.inputs {
        if out_canonical.is_some() && input.canonicalize().ok() == out_canonical {
            bail!("{} is both the output and an input", input.display());
        }
    }
    let Joined {
        rows,
        replaced,
        notes,
    } = join(&args.inputs, args.rerun_replaces)?;
    for note in &notes {
        eprintln!("{note}");
    }
    // Counted over the merged rows, so a replaced row's commit does not count.
    let commits: BTreeSet<&str> = rows.iter().map(|r| r.git_commit.as_str()).collect();
    if commits.len() > 1 {
        eprintln!(
            "warning: the inputs come from {} commits ({})",
            commits.len(),
            commits.into_iter().collect::<Vec<_>>().join(", ")
        );
    }
    let dir = match args.out.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let tmp = tempfile::Builder::new()
        .prefix(".merge-")
        .suffix(".csv")
        .tempfile_in(&dir)
        .with_context(|| format!("cannot write in {}", dir.display()))?;
    write_rows(tmp.path(), &rows)?;
    let persisted = if args.force {
        tmp.persist(&args.out)
    } else {
        tmp.persist_noclobber(&args.out)
    };
    persisted.map_err(|e| anyhow::anyhow!("cannot write {}: {}", args.out.display(), e.error))?;
    println!(
        "merged {} rows from {} files into {}{}",
        rows.len(),
        args.inputs.len(),
        args.out.display(),
        if replaced > 0 {
            format!(" ({replaced} replaced by a later input)")
        } else {
            String::new()
        }
    );
    Ok(0)
}
