//! The report's Markdown twin (`report.md`): the same header, summary,
//! runs needing attention and figures (as links to the PNG files) as the
//! HTML page; the rows themselves are in the CSV it names. Formats a
//! [`Page`]; computes nothing.

use super::tables::{failures_text, fmt, mib};
use super::Page;
use std::fmt::Write;

/// Escapes a table cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

fn facts(o: &mut String, facts: &[(String, String)]) {
    o.push_str("| | |\n|---|---|\n");
    for (k, v) in facts {
        let _ = writeln!(o, "| {} | {} |", cell(k), cell(v));
    }
}

pub fn render(page: &Page) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "# {}\n", page.title);
    let _ = writeln!(
        o,
        "Written by statebench {} from `{}`; the HTML twin (`report.html`) has every row, sortable and searchable.\n",
        env!("CARGO_PKG_VERSION"),
        page.csv_name
    );
    o.push_str("## Machine and code\n\n");
    facts(&mut o, &page.facts);
    o.push_str("\n## Settings\n\n");
    facts(&mut o, &page.settings);
    if !page.notes.is_empty() {
        o.push('\n');
        for n in &page.notes {
            let _ = writeln!(o, "- Note: {n}");
        }
    }
    o.push_str("\n## Summary per engine and formalism\n\n");
    if page.summary.is_empty() {
        o.push_str("This campaign has no rows yet.\n");
    } else {
        o.push_str(
            "Finished = status ok. Bits per state (used: occupied entries; allocated: what the engine holds, tables sized for growth included), time (exploration, seconds) and memory (peak resident set, MiB) over finished runs; geo-mean = geometric mean.\n\n\
             | engine | formalism | runs | finished | oracle mismatches | median bits/state used | median bits/state allocated | geo-mean bits/state used | geo-mean bits/state allocated | median time (s) | geo-mean time (s) | total time (s) | median peak RSS (MiB) | max peak RSS (MiB) | failures by status |\n\
             |---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|\n",
        );
        for l in &page.summary {
            let _ = writeln!(
                o,
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                cell(&l.engine),
                cell(&l.formalism),
                l.runs,
                l.finished,
                l.mismatches,
                fmt(l.bits_median),
                fmt(l.bits_alloc_median),
                fmt(l.bits_geomean),
                fmt(l.bits_alloc_geomean),
                fmt(l.time_median),
                fmt(l.time_geomean),
                fmt(Some(l.time_total)),
                mib(l.rss_median),
                mib(l.rss_max),
                cell(&failures_text(&l.failures))
            );
        }
    }
    if !page.attention.is_empty() {
        let _ = writeln!(
            o,
            "\n### Needs attention ({} runs or instances: oracle mismatch, engines disagreeing, crash or model error)\n",
            page.attention.len()
        );
        for line in &page.attention {
            let _ = writeln!(o, "- {line}");
        }
    }
    for t in &page.tables {
        let _ = writeln!(o, "\n## {}\n\n{}\n", t.title, t.caption);
        let _ = writeln!(
            o,
            "| {} |",
            t.header
                .iter()
                .map(|h| cell(h))
                .collect::<Vec<_>>()
                .join(" | ")
        );
        let align: Vec<&str> = (0..t.header.len())
            .map(|i| {
                let numeric = t
                    .rows
                    .iter()
                    .any(|r| r.get(i).is_some_and(|c| c.value.is_some()));
                if numeric {
                    "--:"
                } else {
                    "---"
                }
            })
            .collect();
        let _ = writeln!(o, "|{}|", align.join("|"));
        for r in &t.rows {
            let cells: Vec<String> = r.iter().map(|c| cell(&c.text)).collect();
            let _ = writeln!(o, "| {} |", cells.join(" | "));
        }
    }
    o.push_str("\n## Figures\n\n");
    match &page.figures {
        Err(message) => {
            let _ = writeln!(o, "The figures could not be drawn: {message}");
        }
        Ok(figures) => {
            for f in figures.iter() {
                let _ = writeln!(
                    o,
                    "### {}\n\n![{}]({}/{}.png)\n\n{} ({} points plotted; [SVG]({}/{}.svg).)\n",
                    f.figure.title,
                    f.figure.title,
                    page.figure_dir,
                    f.figure.name,
                    f.figure.full_caption(),
                    f.figure.points(),
                    page.figure_dir,
                    f.figure.name
                );
            }
        }
    }
    o
}
