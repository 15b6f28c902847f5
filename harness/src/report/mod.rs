//! `statebench report`: a campaign's page, `report.html` (self-contained:
//! inline SVG figures, CSS and a sortable, searchable table of every row)
//! and its Markdown twin `report.md`, from `runs.csv` and `campaign.json`.
//! Draws the figures through `plot`; reads rows through `schema`; must not
//! run anything nor write CSV.

pub mod agreement;
mod configurations;
mod dd;
mod facts;
mod formalisms;
mod html;
mod markdown;
mod speedup;
pub mod tables;

use crate::plot::{self, Input, Rendered};
use crate::schema::Row;
use crate::summary;
use anyhow::Context as _;
use std::path::{Path, PathBuf};

/// What both renderings show.
pub struct Page<'a> {
    pub title: String,
    pub csv_name: String,
    pub facts: facts::Facts,
    pub settings: facts::Facts,
    pub notes: Vec<String>,
    pub summary: Vec<tables::Line>,
    /// One line per run needing attention.
    pub attention: Vec<String>,
    /// The tables beyond the summary that the rows call for (counts
    /// across engines, decision-diagram sizes, configurations compared).
    pub tables: Vec<tables::Table>,
    /// The drawn figures, or why there are none.
    pub figures: Result<&'a [Rendered], String>,
    /// Directory of the figure files, relative to the report.
    pub figure_dir: String,
    pub rows: &'a [Row],
}

/// Options of `statebench report`.
#[derive(Clone, Debug, clap::Args)]
pub struct ReportArgs {
    /// A campaign directory (RESULTS/CAMPAIGN, holding runs.csv) or a CSV file.
    pub results: PathBuf,
    /// Where to write report.html, report.md and figures/ (default: the
    /// campaign directory).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Only the instances of at least this many states (e.g. 1e5, as the
    /// paper's figures): figures and tables alike.
    #[arg(long)]
    pub min_states: Option<f64>,
}

/// The files written.
pub struct Written {
    pub html: PathBuf,
    pub markdown: PathBuf,
    /// Why the figures are missing, when they are.
    pub figures_error: Option<String>,
}

/// Writes `OUT/report.html`, `OUT/report.md` and `OUT/figures/` for the
/// campaign at `results` (OUT defaults to the campaign's directory).
pub fn write(
    results: &Path,
    out: Option<&Path>,
    min_states: Option<f64>,
) -> anyhow::Result<Written> {
    let mut input = Input::load(results)?;
    if let Some(min) = min_states {
        input.keep_min_states(min);
    }
    let campaign_dir = input
        .csv
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."));
    let out = out.map(Path::to_path_buf).unwrap_or(campaign_dir.clone());
    std::fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
    let rendered = plot::write(plot::figures(&input), &out.join("figures"));
    let figures_error = rendered.as_ref().err().map(|e| format!("{e:#}"));
    let campaign = input
        .rows
        .first()
        .map(|r| r.campaign.clone())
        .or_else(|| {
            campaign_dir
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
        })
        .unwrap_or_else(|| "campaign".into());
    let (agreement, disagreements) = agreement::check(&input.rows);
    let page = Page {
        title: format!("statebench campaign {campaign}"),
        csv_name: input.csv.display().to_string(),
        facts: facts::from_rows(&input.rows),
        settings: facts::settings(&campaign_dir),
        notes: symbolic_note(&input.rows, &input.notes),
        summary: tables::summary(&input.rows),
        attention: input
            .rows
            .iter()
            .filter(|r| tables::needs_attention(r))
            .map(summary::run_line)
            .chain(disagreements)
            .collect(),
        tables: [
            agreement,
            formalisms::table(&input.rows),
            dd::table(&input.rows),
            configurations::table(&input.rows),
            speedup::table(&input.rows),
        ]
        .into_iter()
        .flatten()
        .collect(),
        figures: rendered
            .as_deref()
            .map_err(|_| figures_error.clone().unwrap_or_default()),
        figure_dir: "figures".into(),
        rows: &input.rows,
    };
    let html = out.join("report.html");
    let markdown = out.join("report.md");
    std::fs::write(&html, html::render(&page))
        .with_context(|| format!("cannot write {}", html.display()))?;
    std::fs::write(&markdown, markdown::render(&page))
        .with_context(|| format!("cannot write {}", markdown.display()))?;
    Ok(Written {
        html,
        markdown,
        figures_error,
    })
}

/// `statebench report`. Exit code 1 when the page was written without its
/// figures.
pub fn command(args: ReportArgs) -> anyhow::Result<i32> {
    let written = write(&args.results, args.out.as_deref(), args.min_states)?;
    println!("report: {}", written.html.display());
    println!("markdown: {}", written.markdown.display());
    if let Some(e) = &written.figures_error {
        eprintln!("error: the report has no figures: {e}");
        return Ok(1);
    }
    Ok(0)
}

/// The input's notes, and what the symbolic engines' bytes are when the
/// campaign has their rows.
fn symbolic_note(rows: &[crate::schema::Row], notes: &[String]) -> Vec<String> {
    let mut out = notes.to_vec();
    if rows.iter().any(|r| r.dd_final_nodes.is_some()) {
        out.push(crate::schema::SYMBOLIC_BYTES_NOTE.to_string());
    }
    out
}
