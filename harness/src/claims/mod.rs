//! `statebench claims [ARTIFACT.md]`: recomputes every number of the
//! document's claims table from the committed campaign rows and fails,
//! naming the claim, where they disagree.
//!
//! Each row of the table (the one whose header starts `| claim |`) has a
//! check block, an HTML comment anywhere in the document:
//!
//! ```text
//! <!-- claim: NAME (the row's first cell)
//! rows: [--rerun-replaces] CAMPAIGN...   RESULTS/CAMPAIGN/runs.csv, joined as `merge` joins them
//! let NAME: FILTER...                    $NAME in a query stands for the filters
//! VALUE = QUERY [/ QUERY | / NUMBER]     VALUE as the document writes it; QUERY: see `query`
//! not kept (WHY): VALUE...               from rows that were not kept: reported, never checked
//! given (WHY): VALUE...                  a setting, date or label, not a result
//! -->
//! ```
//!
//! Every number in the row's result cells (all but the claim and the
//! command) must be one entry of the block, as often as the row writes it,
//! and every entry one number of the row: a number changed on either side
//! fails. A computed figure agrees when it rounds to the VALUE at the
//! digits the VALUE is written with. Owns the document's blocks and the
//! accounting; the queries live in [`query`].

mod document;
pub mod query;

use crate::merge;
use anyhow::Context as _;
use document::{Block, Entry};
use query::{Query, Record};
use std::path::{Path, PathBuf};

/// Options of `statebench claims`.
#[derive(Clone, Debug, clap::Args)]
pub struct ClaimsArgs {
    /// The document whose claims table is checked.
    #[arg(default_value = "ARTIFACT.md")]
    pub document: PathBuf,
    /// The directory holding the campaigns the blocks name.
    #[arg(long, default_value = "results/paper")]
    pub results: PathBuf,
    /// Print every number with what its query gives, not only the failures.
    #[arg(long)]
    pub verbose: bool,
    /// Also fail when a claim has numbers whose rows were not kept.
    #[arg(long)]
    pub strict: bool,
}

/// What checking one claim found.
#[derive(Debug, Default)]
pub struct Outcome {
    pub claim: String,
    pub checked: usize,
    /// One line per failure (a figure that differs, a number unaccounted for...).
    pub failures: Vec<String>,
    /// `(why, value)` of the numbers whose rows were not kept.
    pub not_kept: Vec<(String, String)>,
    pub given: usize,
    /// `value = query -> figure` of every checked number.
    pub lines: Vec<String>,
}

/// `statebench claims`: exit code 1 when a claim fails (or, `--strict`, has
/// numbers whose rows were not kept).
pub fn command(args: ClaimsArgs) -> anyhow::Result<i32> {
    let text = std::fs::read_to_string(&args.document)
        .with_context(|| format!("cannot read {}", args.document.display()))?;
    let outcomes = check(&text, &args.results)?;
    let mut failed = false;
    let (mut checked, mut not_kept, mut given) = (0, 0, 0);
    println!(
        "claims of {} against {}:",
        args.document.display(),
        args.results.display()
    );
    for o in &outcomes {
        print_outcome(o, args.verbose);
        failed |= !o.failures.is_empty() || (args.strict && !o.not_kept.is_empty());
        checked += o.checked;
        not_kept += o.not_kept.len();
        given += o.given;
    }
    let failures: usize = outcomes.iter().map(|o| o.failures.len()).sum();
    println!(
        "{} claims: {checked} numbers recomputed from the rows, {failures} failures; \
         {not_kept} NOT VERIFIABLE (their rows were not kept); {given} given (settings, dates)",
        outcomes.len()
    );
    Ok(i32::from(failed))
}

fn print_outcome(o: &Outcome, verbose: bool) {
    let verdict = match (o.failures.is_empty(), o.not_kept.is_empty(), o.checked) {
        (false, _, _) => "FAILS",
        (true, true, _) => "ok",
        (true, false, 0) => "NOT VERIFIABLE",
        (true, false, _) => "ok in part",
    };
    println!(
        "  {verdict}: \"{}\": {} recomputed, {} failures, {} not verifiable, {} given",
        o.claim,
        o.checked,
        o.failures.len(),
        o.not_kept.len(),
        o.given
    );
    for f in &o.failures {
        println!("    FAIL {f}");
    }
    let mut whys: Vec<&str> = o.not_kept.iter().map(|(w, _)| w.as_str()).collect();
    whys.dedup();
    for why in whys {
        let values: Vec<&str> = o
            .not_kept
            .iter()
            .filter(|(w, _)| w == why)
            .map(|(_, v)| v.as_str())
            .collect();
        println!("    NOT VERIFIABLE ({why}): {}", values.join(" "));
    }
    if verbose {
        for line in &o.lines {
            println!("    {line}");
        }
    }
}

/// Checks every claim of `document` against the campaigns under `results`.
pub fn check(document: &str, results: &Path) -> anyhow::Result<Vec<Outcome>> {
    let claims = document::claims_table(document)?;
    let mut blocks = document::blocks(document)?;
    let mut outcomes = Vec::new();
    let mut loaded = Loaded::default();
    for claim in &claims {
        let mut outcome = Outcome {
            claim: claim.name.clone(),
            ..Outcome::default()
        };
        match blocks.iter().position(|b| b.claim == claim.name) {
            Some(at) => {
                let block = blocks.remove(at);
                account(&claim.numbers, &block, &mut outcome);
                evaluate(&block, results, &mut loaded, &mut outcome);
            }
            None => outcome
                .failures
                .push("no check block (<!-- claim: NAME ... -->) for this claim".into()),
        }
        outcomes.push(outcome);
    }
    for block in blocks {
        outcomes.push(Outcome {
            claim: block.claim.clone(),
            failures: vec!["a check block whose claim is not a row of the claims table".into()],
            ..Outcome::default()
        });
    }
    Ok(outcomes)
}

/// The block's entries against the row's numbers, as multisets of their text.
fn account(numbers: &[String], block: &Block, outcome: &mut Outcome) {
    let mut left: Vec<&str> = numbers.iter().map(String::as_str).collect();
    for entry in &block.entries {
        let value = entry.value();
        match left.iter().position(|n| *n == value) {
            Some(at) => {
                left.remove(at);
            }
            None => outcome.failures.push(format!(
                "{value}: in the check block, not (or not as often) in the claim's row"
            )),
        }
        match entry {
            Entry::NotKept { why, value } => outcome.not_kept.push((why.clone(), value.clone())),
            Entry::Given { .. } => outcome.given += 1,
            Entry::Checked { .. } => {}
        }
    }
    for n in left {
        outcome.failures.push(format!(
            "{n}: a number of the claim's row that its check block does not account for"
        ));
    }
}

/// The rows of each `rows:` line read so far (claims share campaigns),
/// or why they could not be read.
#[derive(Default)]
struct Loaded(Vec<(document::Rows, Result<Vec<Record>, String>)>);

impl Loaded {
    fn get(&mut self, rows: &document::Rows, results: &Path) -> &Result<Vec<Record>, String> {
        let at = match self.0.iter().position(|(r, _)| r == rows) {
            Some(at) => at,
            None => {
                let records = load(rows, results).map_err(|e| format!("{e:#}"));
                self.0.push((rows.clone(), records));
                self.0.len() - 1
            }
        };
        &self.0[at].1
    }
}

/// Computes each checked entry on its rows.
fn evaluate(block: &Block, results: &Path, loaded: &mut Loaded, outcome: &mut Outcome) {
    for entry in &block.entries {
        let Entry::Checked {
            value,
            queries,
            divisor,
            rows,
            ..
        } = entry
        else {
            continue;
        };
        outcome.checked += 1;
        let records = match loaded.get(&block.rows[*rows], results) {
            Ok(records) => records,
            Err(e) => {
                outcome.failures.push(format!("{value}: {e}"));
                continue;
            }
        };
        let text = entry.query_text();
        match figure(queries, *divisor, records) {
            Ok(got) if document::agrees(value, got) => {
                outcome.lines.push(format!("{value} = {text} -> {got}"))
            }
            Ok(got) => outcome.failures.push(format!(
                "{value} = {text}: the rows give {}",
                document::shown(got)
            )),
            Err(e) => outcome.failures.push(format!("{value} = {text}: {e:#}")),
        }
    }
}

fn figure(queries: &[Query], divisor: Option<f64>, records: &[Record]) -> anyhow::Result<f64> {
    let mut value = queries[0].evaluate(records)?;
    if let Some(q) = queries.get(1) {
        value /= q.evaluate(records)?;
    }
    if let Some(d) = divisor {
        value /= d;
    }
    Ok(value)
}

/// The rows of a `rows:` line, joined as `statebench merge` joins them.
fn load(rows: &document::Rows, results: &Path) -> anyhow::Result<Vec<Record>> {
    let inputs: Vec<PathBuf> = rows
        .campaigns
        .iter()
        .map(|c| results.join(c).join("runs.csv"))
        .collect();
    for input in &inputs {
        if !input.is_file() {
            anyhow::bail!("rows missing: {} (not kept? rerun it)", input.display());
        }
    }
    let joined = merge::join(&inputs, rows.rerun_replaces)?;
    joined.rows.into_iter().map(Record::new).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
    }

    fn artifact() -> String {
        std::fs::read_to_string(root().join("ARTIFACT.md")).unwrap()
    }

    fn failures(document: &str, results: &Path) -> Vec<(String, String)> {
        check(document, results)
            .unwrap()
            .into_iter()
            .flat_map(|o| {
                let claim = o.claim.clone();
                o.failures.into_iter().map(move |f| (claim.clone(), f))
            })
            .collect()
    }

    #[test]
    fn artifact_md_agrees_with_the_committed_rows() {
        let outcomes = check(&artifact(), &root().join("results/paper")).unwrap();
        assert_eq!(outcomes.len(), 8);
        for o in &outcomes {
            assert!(o.failures.is_empty(), "{}: {:?}", o.claim, o.failures);
        }
        assert!(outcomes.iter().map(|o| o.checked).sum::<usize>() > 100);
    }

    #[test]
    fn a_changed_number_fails_naming_its_claim() {
        let results = root().join("results/paper");
        let doc = artifact();
        let claim = "Decision diagrams peak well above their final size";
        // In the table only: the block no longer accounts for it.
        let changed = doc.replacen(
            "peak/final median **2.71**",
            "peak/final median **2.72**",
            1,
        );
        assert_ne!(changed, doc);
        let f = failures(&changed, &results);
        assert!(
            f.iter().any(|(c, m)| c == claim && m.starts_with("2.72:")),
            "{f:?}"
        );
        assert!(
            f.iter().any(|(c, m)| c == claim && m.starts_with("2.71:")),
            "{f:?}"
        );
        // In the table and its block: the rows give another figure.
        let both = changed.replacen("\n2.71 = median", "\n2.72 = median", 1);
        let f = failures(&both, &results);
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(
            f[0].0 == claim && f[0].1.contains("the rows give 2.71"),
            "{f:?}"
        );
    }

    #[test]
    fn missing_rows_and_blocks_fail() {
        let doc = artifact();
        let empty = tempfile::tempdir().unwrap();
        let f = failures(&doc, empty.path());
        assert!(
            f.iter()
                .any(|(c, m)| c == "Speedup with threads" && m.contains("rows missing")),
            "{f:?}"
        );
        let unblocked = doc.replacen("<!-- claim: Speedup with threads", "<!-- Speedup", 1);
        let f = failures(&unblocked, &root().join("results/paper"));
        assert!(
            f.iter()
                .any(|(c, m)| c == "Speedup with threads" && m.contains("no check block")),
            "{f:?}"
        );
    }
}
