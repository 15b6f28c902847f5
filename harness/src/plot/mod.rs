//! `statebench plot`: the paper's figures from a campaign's rows, as SVG and
//! PNG files plus `figures.json` (each figure's caption and plotted point
//! count). Each figure family builds plain [`Figure`] data from rows (one
//! module per family); `chart` alone talks to plotters. Reads rows through
//! `schema` only; must not run anything nor write CSV.
//!
//! Families: `compression` (bits per state against vector length and state
//! count, paper Figs. 8–9), `versus` (each engine against the Compact Tree,
//! Figs. 12–19), `dd` (decision-diagram peak against final size, Fig. 20),
//! `scaling` (speedup against threads, Figs. 11, 21–24), `solved`
//! (instances solved within a time).

mod chart;
mod compression;
mod dd;
mod font;
pub(crate) mod scaling;
mod solved;
mod versus;

use crate::schema::{read_rows_tolerant, Row, Status};
use anyhow::Context as _;
use plotters::style::RGBColor;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Rows of a campaign with what is known about the CSV they came from.
pub struct Input {
    pub rows: Vec<Row>,
    /// Schema columns the CSV lacks (older schema); figures needing them say so.
    pub missing_columns: Vec<String>,
    /// Notes from reading (skipped partial line, recomputed columns, ...).
    pub notes: Vec<String>,
    pub csv: PathBuf,
}

impl Input {
    /// Reads `path`: a campaign directory holding `runs.csv`, or a CSV file.
    pub fn load(path: &Path) -> anyhow::Result<Input> {
        let csv = if path.is_dir() {
            let csv = path.join("runs.csv");
            if !csv.is_file() {
                anyhow::bail!(
                    "{}: no runs.csv here (give a campaign directory, RESULTS/CAMPAIGN, or a CSV file)",
                    path.display()
                );
            }
            csv
        } else if path.is_file() {
            path.to_path_buf()
        } else {
            anyhow::bail!("{}: no such campaign directory or CSV file", path.display());
        };
        let loaded = read_rows_tolerant(&csv)?;
        let mut notes = loaded.notes;
        if !loaded.missing_columns.is_empty() {
            notes.push(format!(
                "the CSV lacks the columns {} (an older schema): they are empty in every row",
                loaded.missing_columns.join(", ")
            ));
        }
        if !loaded.unknown_columns.is_empty() {
            notes.push(format!(
                "columns unknown to this statebench were ignored: {}",
                loaded.unknown_columns.join(", ")
            ));
        }
        Ok(Input {
            rows: loaded.rows,
            missing_columns: loaded.missing_columns,
            notes,
            csv,
        })
    }

    /// Keeps the rows of the instances of at least `min` states (the
    /// oracle's count, or else the largest count a run finished with) and
    /// says in a note how many instances were left out: bits per state of
    /// a model of a handful of states measure the tables' fixed sizes.
    pub fn keep_min_states(&mut self, min: f64) {
        let mut size: BTreeMap<(String, String), u64> = BTreeMap::new();
        for r in &self.rows {
            let known = r
                .oracle_states
                .or(r.states.filter(|_| r.status == Status::Ok));
            if let Some(n) = known {
                let e = size
                    .entry((r.suite.clone(), r.instance.clone()))
                    .or_default();
                *e = (*e).max(n);
            }
        }
        let before: BTreeSet<_> = self.rows.iter().map(|r| (&r.suite, &r.instance)).collect();
        let before = before.len();
        self.rows.retain(|r| {
            size.get(&(r.suite.clone(), r.instance.clone()))
                .is_some_and(|&n| n as f64 >= min)
        });
        let after: BTreeSet<_> = self.rows.iter().map(|r| (&r.suite, &r.instance)).collect();
        self.notes.push(format!(
            "--min-states {min}: {} of {before} instances kept (oracle count, or else the largest finished count, at least {min}; instances of unknown size left out)",
            after.len()
        ));
    }

    /// Why a column's figure is empty when the column is absent, if it is.
    fn absent(&self, column: &str) -> Option<String> {
        self.missing_columns
            .iter()
            .any(|c| c == column)
            .then(|| format!("this CSV has no {column} column (an older schema)"))
    }
}

/// How an axis maps values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scale {
    /// Logarithmic when every value is positive and they span two decades
    /// or more, linear otherwise.
    Auto,
    Linear,
}

#[derive(Clone, Debug)]
pub struct Axis {
    /// Quantity and unit, e.g. "time (s)".
    pub label: String,
    pub scale: Scale,
    /// Label only whole numbers (counts such as threads).
    pub integers: bool,
}

impl Axis {
    fn new(label: impl Into<String>, scale: Scale) -> Axis {
        Axis {
            label: label.into(),
            scale,
            integers: false,
        }
    }

    fn integers(mut self) -> Axis {
        self.integers = true;
        self
    }
}

/// Points of one kind in a panel, drawn as filled circles (every circle of
/// a figure is one plotted row or one model).
#[derive(Clone, Debug)]
pub struct Series {
    pub label: String,
    pub colour: RGBColor,
    pub points: Vec<(f64, f64)>,
    /// Also join the points by a line, in order.
    pub joined: bool,
}

/// A reference drawn under the data, never counted as plotted points.
#[derive(Clone, Debug)]
pub enum Reference {
    /// The diagonal y = x over the panel.
    Diagonal { label: String },
    /// A horizontal line at this y.
    Horizontal { label: String, y: f64 },
    /// A cross per value (a bound that differs from row to row).
    Marks {
        label: String,
        points: Vec<(f64, f64)>,
    },
    /// A short horizontal tick per value (a second per-row bound).
    Ticks {
        label: String,
        points: Vec<(f64, f64)>,
    },
}

#[derive(Clone, Debug)]
pub struct Panel {
    pub title: String,
    pub series: Vec<Series>,
    pub references: Vec<Reference>,
    /// Said inside the panel when it has no point, and in the caption.
    pub note: Option<String>,
}

impl Panel {
    fn empty(title: impl Into<String>, note: impl Into<String>) -> Panel {
        Panel {
            title: title.into(),
            series: Vec::new(),
            references: Vec::new(),
            note: Some(note.into()),
        }
    }

    /// A panel of `series` with the diagonal y = x, named `label`;
    /// `why_empty` gives its note when it has no point.
    fn against_diagonal(
        title: impl Into<String>,
        series: Vec<Series>,
        label: &str,
        why_empty: impl FnOnce() -> String,
    ) -> Panel {
        let note = series.is_empty().then(why_empty);
        Panel {
            title: title.into(),
            series,
            references: vec![Reference::Diagonal {
                label: label.into(),
            }],
            note,
        }
    }

    pub fn points(&self) -> usize {
        self.series.iter().map(|s| s.points.len()).sum()
    }
}

/// One figure: panels sharing axes (ranges are common to all panels).
#[derive(Clone, Debug)]
pub struct Figure {
    /// File stem: `NAME.svg`, `NAME.png`.
    pub name: String,
    pub title: String,
    pub caption: String,
    pub x: Axis,
    pub y: Axis,
    /// x and y show the same range (scatter against a reference engine).
    pub square: bool,
    pub panels: Vec<Panel>,
}

impl Figure {
    /// Points drawn: rows (or models) plotted, references excluded.
    pub fn points(&self) -> usize {
        self.panels.iter().map(Panel::points).sum()
    }

    /// The caption followed by the notes of empty panels.
    pub fn full_caption(&self) -> String {
        let mut text = self.caption.clone();
        for p in &self.panels {
            if let (0, Some(note)) = (p.points(), &p.note) {
                text.push_str(&format!(
                    " Empty panel \u{201c}{}\u{201d}: {note}.",
                    p.title
                ));
            }
        }
        text
    }
}

/// Every figure of a campaign, in the report's order.
pub fn figures(input: &Input) -> Vec<Figure> {
    let mut out = compression::figures(input);
    out.extend(versus::figures(input));
    out.push(solved::figure(input));
    out.push(dd::figure(input));
    out.push(scaling::figure(input));
    out
}

/// A figure written to disk.
pub struct Rendered {
    pub figure: Figure,
    /// The SVG document (also written to `svg`).
    pub svg_text: String,
    pub svg: PathBuf,
    pub png: PathBuf,
}

/// Writes every figure as `OUT/NAME.svg` and `OUT/NAME.png`, and
/// `OUT/figures.json` listing them with captions and point counts.
pub fn write(figures: Vec<Figure>, out: &Path) -> anyhow::Result<Vec<Rendered>> {
    font::ensure().map_err(anyhow::Error::msg)?;
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    let mut rendered = Vec::new();
    let mut manifest = Vec::new();
    for figure in figures {
        let svg = out.join(format!("{}.svg", figure.name));
        let png = out.join(format!("{}.png", figure.name));
        let svg_text =
            chart::svg(&figure).map_err(|e| anyhow::anyhow!("figure {}: {e}", figure.name))?;
        std::fs::write(&svg, &svg_text)
            .with_context(|| format!("cannot write {}", svg.display()))?;
        chart::png(&figure, &png).map_err(|e| anyhow::anyhow!("{}: {e}", png.display()))?;
        manifest.push(serde_json::json!({
            "name": figure.name,
            "title": figure.title,
            "caption": figure.full_caption(),
            "points": figure.points(),
            "panels": figure.panels.iter().map(|p| serde_json::json!({
                "title": p.title,
                "points": p.points(),
                "note": p.note,
            })).collect::<Vec<_>>(),
            "svg": svg.file_name().map(|n| n.to_string_lossy().into_owned()),
            "png": png.file_name().map(|n| n.to_string_lossy().into_owned()),
        }));
        rendered.push(Rendered {
            figure,
            svg_text,
            svg,
            png,
        });
    }
    let json = out.join("figures.json");
    std::fs::write(&json, serde_json::to_string_pretty(&manifest)? + "\n")
        .with_context(|| format!("cannot write {}", json.display()))?;
    Ok(rendered)
}

/// Options of `statebench plot`.
#[derive(Clone, Debug, clap::Args)]
pub struct PlotArgs {
    /// A campaign directory (RESULTS/CAMPAIGN, holding runs.csv) or a CSV file.
    pub results: PathBuf,
    /// Where to write the figures (default: the campaign directory's `figures/`).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Only the instances of at least this many states (e.g. 1e5, as the
    /// paper's figures).
    #[arg(long)]
    pub min_states: Option<f64>,
}

/// The default output directory of a campaign's figures.
pub fn default_dir(input: &Input) -> PathBuf {
    input.csv.parent().unwrap_or(Path::new(".")).join("figures")
}

/// `statebench plot`.
pub fn command(args: PlotArgs) -> anyhow::Result<i32> {
    let mut input = Input::load(&args.results)?;
    if let Some(min) = args.min_states {
        input.keep_min_states(min);
    }
    for note in &input.notes {
        eprintln!("note: {note}");
    }
    let out = args.out.unwrap_or_else(|| default_dir(&input));
    let rendered = write(figures(&input), &out)?;
    for r in &rendered {
        println!(
            "{}: {} points; {}, {}",
            r.figure.title,
            r.figure.points(),
            r.svg.display(),
            r.png.display()
        );
    }
    println!("figures: {}", out.display());
    Ok(0)
}

// --- What the families share: which rows, how to name and colour them. ---

/// The campaign's variants, registry order first, then by name.
fn variants(rows: &[Row]) -> Vec<String> {
    let mut seen: BTreeMap<(usize, String), ()> = BTreeMap::new();
    for r in rows {
        let rank = engines::ENGINES
            .iter()
            .position(|e| e.name == r.engine)
            .unwrap_or(usize::MAX);
        seen.insert((rank, r.variant()), ());
    }
    seen.into_keys().map(|(_, v)| v).collect()
}

/// Finished single-thread runs: what the storage figures compare.
fn finished_sequential(rows: &[Row]) -> impl Iterator<Item = &Row> {
    rows.iter()
        .filter(|r| r.status == Status::Ok && r.threads == 1)
}

/// Colour of a formalism: fixed for the known ones, so figures of different
/// campaigns agree.
fn formalism_colour(formalism: &str) -> RGBColor {
    const KNOWN: [(&str, RGBColor); 7] = [
        ("dve", RGBColor(31, 119, 180)),
        ("pnml", RGBColor(214, 39, 40)),
        ("promela", RGBColor(44, 160, 44)),
        ("mcrl2", RGBColor(148, 103, 189)),
        ("prom", RGBColor(140, 86, 75)),
        ("b", RGBColor(255, 127, 14)),
        ("eventb", RGBColor(227, 119, 194)),
    ];
    const OTHERS: [RGBColor; 2] = [RGBColor(188, 189, 34), RGBColor(23, 190, 207)];
    KNOWN
        .iter()
        .find(|(f, _)| *f == formalism)
        .map(|(_, c)| *c)
        .unwrap_or_else(|| {
            let h = formalism.bytes().fold(0usize, |h, b| h * 31 + b as usize);
            OTHERS[h % OTHERS.len()]
        })
}

/// Colour of the i-th engine variant.
fn engine_colour(i: usize) -> RGBColor {
    const PALETTE: [RGBColor; 8] = [
        RGBColor(31, 119, 180),
        RGBColor(255, 127, 14),
        RGBColor(44, 160, 44),
        RGBColor(214, 39, 40),
        RGBColor(148, 103, 189),
        RGBColor(140, 86, 75),
        RGBColor(227, 119, 194),
        RGBColor(127, 127, 127),
    ];
    PALETTE[i % PALETTE.len()]
}

/// Splits points by formalism into series, one colour each, in name order.
fn by_formalism<'a>(items: impl IntoIterator<Item = (&'a str, (f64, f64))>) -> Vec<Series> {
    let mut groups: BTreeMap<&str, Vec<(f64, f64)>> = BTreeMap::new();
    for (f, p) in items {
        groups.entry(f).or_default().push(p);
    }
    groups
        .into_iter()
        .map(|(f, points)| Series {
            label: f.to_string(),
            colour: formalism_colour(f),
            points,
            joined: false,
        })
        .collect()
}

/// A campaign with no rows at all: every family's figure says so.
fn no_rows_note(input: &Input) -> Option<String> {
    input
        .rows
        .is_empty()
        .then(|| "this campaign has no rows yet".to_string())
}

/// Why a panel has no point: an absent column, no finished run (with the
/// outcomes there were), or no finished run reporting the figure's column.
fn no_points_note(input: &Input, rows: &[&Row], columns: &[&str]) -> String {
    if let Some(note) = no_rows_note(input) {
        return note;
    }
    if let Some(note) = columns.iter().find_map(|c| input.absent(c)) {
        return note;
    }
    if rows.is_empty() {
        return "no row".into();
    }
    if !rows.iter().any(|r| r.status == Status::Ok) {
        let mut outcomes: BTreeMap<Status, usize> = BTreeMap::new();
        for r in rows {
            *outcomes.entry(r.status).or_default() += 1;
        }
        let list: Vec<String> = outcomes.iter().map(|(s, n)| format!("{n} {s}")).collect();
        return format!("no run finished ({})", list.join(", "));
    }
    format!("no finished run reports {}", columns.join(" and "))
}

/// Parses `key=value;...` engine parameters.
fn param(params: &str, key: &str) -> Option<f64> {
    params
        .split(';')
        .filter_map(|kv| kv.split_once('='))
        .find(|(k, _)| k.trim() == key)
        .and_then(|(_, v)| v.trim().parse().ok())
}

#[cfg(test)]
pub(crate) mod fixture {
    //! The hand-written campaign the plot and report tests read.
    use super::Input;
    use crate::schema::{Row, Status};
    use std::path::{Path, PathBuf};

    pub fn path(name: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(name)
    }

    pub fn input(name: &str) -> Input {
        Input::load(&path(name)).unwrap()
    }

    /// How many finished 1-thread rows of `input` pass `keep`: the points
    /// a figure of such rows must draw.
    pub fn finished_one_thread(input: &Input, keep: impl Fn(&Row) -> bool) -> usize {
        input
            .rows
            .iter()
            .filter(|r| r.status == Status::Ok && r.threads == 1 && keep(r))
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::fixture;
    use std::collections::BTreeSet;

    #[test]
    fn keep_min_states_keeps_exactly_the_large_instances() {
        let mut input = fixture::input("small/runs.csv");
        let size = |r: &crate::schema::Row| r.oracle_states.or(r.states).unwrap_or(0);
        let all: BTreeSet<u64> = input.rows.iter().map(size).collect();
        let threshold = *all.iter().nth(all.len() / 2).unwrap();
        let expected: BTreeSet<String> = input
            .rows
            .iter()
            .filter(|r| size(r) >= threshold)
            .map(|r| r.instance.clone())
            .collect();
        input.keep_min_states(threshold as f64);
        let kept: BTreeSet<String> = input.rows.iter().map(|r| r.instance.clone()).collect();
        assert!(!kept.is_empty());
        assert_eq!(kept, expected);
        assert!(input.notes.last().unwrap().contains("instances kept"));
    }
}
