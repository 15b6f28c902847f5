//! The report as one self-contained HTML file: inline CSS, the figures as
//! inline SVG, and every row in a table sortable by any column (click its
//! header) and searchable (a filter box), by a few lines of inline
//! JavaScript. No external resource. Formats a [`Page`]; computes nothing.

use super::tables::{failures_text, fmt, mib};
use super::Page;
use crate::schema::{header_line, Row, Status};
use std::fmt::Write;

/// HTML-escapes text for element content and attribute values.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = r#"
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 24px auto; max-width: 1600px; padding: 0 16px; color: #222; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; } h2 { margin-top: 1.6em; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
table { border-collapse: collapse; font-size: 13px; }
th, td { border: 1px solid #ddd; padding: 3px 7px; text-align: left; white-space: nowrap; }
th { background: #f3f3f3; position: sticky; top: 0; }
table.sortable th { cursor: pointer; user-select: none; }
th[data-dir="asc"]::after { content: " \25B2"; } th[data-dir="desc"]::after { content: " \25BC"; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
table.facts th { position: static; width: 12em; }
.wide { overflow-x: auto; max-width: 100%; }
table.summary th { white-space: normal; vertical-align: bottom; min-width: 4em; }
tr.failed td { background: #fff4e5; } tr.attention td { background: #fde2e2; }
.notes li { color: #8a4b00; }
figure { margin: 1.2em 0 2em 0; } figure svg { max-width: 100%; height: auto; border: 1px solid #eee; }
figcaption { max-width: 1100px; font-size: 14px; color: #444; margin-top: 6px; }
#rows { max-height: 80vh; overflow: auto; border: 1px solid #ddd; }
#q { font-size: 14px; padding: 4px 8px; width: 28em; margin: 6px 0; }
.muted { color: #777; font-size: 13px; }
"#;

const SCRIPT: &str = r#"
for (const table of document.querySelectorAll('table.sortable')) {
  const body = table.tBodies[0];
  const heads = [...table.tHead.rows[0].cells];
  heads.forEach((th, i) => th.addEventListener('click', () => {
    const asc = th.dataset.dir !== 'asc';
    heads.forEach(h => delete h.dataset.dir);
    th.dataset.dir = asc ? 'asc' : 'desc';
    const rows = [...body.rows];
    const cell = r => r.cells[i].dataset.v ?? r.cells[i].textContent;
    rows.sort((a, b) => {
      const x = cell(a), y = cell(b);
      if (x === '' || y === '') return (x === '') - (y === '');
      const nx = Number(x), ny = Number(y);
      const c = (!isNaN(nx) && !isNaN(ny)) ? nx - ny : x.localeCompare(y);
      return asc ? c : -c;
    });
    for (const r of rows) body.appendChild(r);
  }));
}
const q = document.getElementById('q');
if (q) {
  const rows = [...document.querySelectorAll('#runs tbody tr')];
  const text = rows.map(r => r.textContent.toLowerCase());
  const shown = document.getElementById('shown');
  q.addEventListener('input', () => {
    const words = q.value.toLowerCase().split(/\s+/).filter(w => w);
    let n = 0;
    rows.forEach((r, i) => {
      const hit = words.every(w => text[i].includes(w));
      r.hidden = !hit;
      if (hit) n++;
    });
    shown.textContent = n;
  });
}
"#;

/// Columns shown first in the table of every run.
const LEADING: [&str; 17] = [
    "suite",
    "instance",
    "engine",
    "engine_config",
    "threads",
    "status",
    "states",
    "transitions",
    "states_match",
    "transitions_match",
    "time_s",
    "bits_per_state",
    "bits_per_state_alloc",
    "bits_per_state_rss",
    "locality_bound_bits",
    "rss_peak_bytes",
    "message",
];

fn num_cell(out: &mut String, text: &str, sort_value: Option<f64>) {
    match sort_value {
        Some(v) => {
            let _ = write!(out, "<td class=num data-v=\"{v}\">{}</td>", esc(text));
        }
        None => {
            let _ = write!(out, "<td class=num data-v=\"\">{}</td>", esc(text));
        }
    }
}

fn facts_table(out: &mut String, facts: &[(String, String)]) {
    out.push_str("<table class=facts>\n");
    for (k, v) in facts {
        let _ = writeln!(out, "<tr><th>{}</th><td>{}</td></tr>", esc(k), esc(v));
    }
    out.push_str("</table>\n");
}

/// Every field of a row as its CSV text, in schema order.
pub fn fields(row: &Row) -> Vec<String> {
    let value = serde_json::to_value(row).unwrap_or_default();
    header_line()
        .split(',')
        .map(|c| match value.get(c) {
            None | Some(serde_json::Value::Null) => String::new(),
            Some(serde_json::Value::String(s)) => s.clone(),
            Some(v) => v.to_string(),
        })
        .collect()
}

/// The page: head, settings, summary, attention list, tables, figures
/// and every run.
pub fn render(page: &Page) -> String {
    let mut o = String::new();
    head(&mut o, page);
    summary(&mut o, page);
    attention(&mut o, page);
    tables(&mut o, page);
    figures(&mut o, page);
    every_run(&mut o, page);
    let _ = write!(o, "<script>{SCRIPT}</script>\n</body>\n</html>\n");
    o
}

/// The document head, the title, the machine and the settings.
fn head(o: &mut String, page: &Page) {
    let _ = write!(
        o,
        "<!doctype html>\n<html lang=en>\n<head>\n<meta charset=utf-8>\n<meta name=viewport content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{}</h1>\n<p class=muted>Written by statebench {} from {}.</p>\n",
        esc(&page.title),
        esc(&page.title),
        env!("CARGO_PKG_VERSION"),
        esc(&page.csv_name)
    );
    o.push_str("<h2>Machine and code</h2>\n");
    facts_table(o, &page.facts);
    o.push_str("<h2>Settings</h2>\n");
    facts_table(o, &page.settings);
    if !page.notes.is_empty() {
        o.push_str("<ul class=notes>\n");
        for n in &page.notes {
            let _ = writeln!(o, "<li>{}</li>", esc(n));
        }
        o.push_str("</ul>\n");
    }
}

/// The summary per engine and formalism.
fn summary(o: &mut String, page: &Page) {
    o.push_str("<h2>Summary per engine and formalism</h2>\n");
    if page.summary.is_empty() {
        o.push_str("<p>This campaign has no rows yet.</p>\n");
    } else {
        o.push_str(
            "<p class=muted>Finished = status ok. Bits per state (used: occupied entries; allocated: what the engine holds, \
             tables sized for growth included), time (exploration, seconds) and memory \
             (peak resident set of the run's process, MiB) over finished runs; geo-mean = geometric mean. \
             Click a header to sort.</p>\n<div class=wide><table class=\"sortable summary\"><thead><tr><th>engine</th><th>formalism</th>\
             <th>runs</th><th>finished</th><th>oracle mismatches</th><th>median bits/state used</th>\
             <th>median bits/state allocated</th><th>geo-mean bits/state used</th>\
             <th>geo-mean bits/state allocated</th><th>median time (s)</th><th>geo-mean time (s)</th>\
             <th>total time (s)</th><th>median peak RSS (MiB)</th><th>max peak RSS (MiB)</th>\
             <th>failures by status</th></tr></thead>\n<tbody>\n",
        );
        for l in &page.summary {
            let _ = write!(
                o,
                "<tr><td>{}</td><td>{}</td>",
                esc(&l.engine),
                esc(&l.formalism)
            );
            num_cell(o, &l.runs.to_string(), Some(l.runs as f64));
            num_cell(o, &l.finished.to_string(), Some(l.finished as f64));
            num_cell(o, &l.mismatches.to_string(), Some(l.mismatches as f64));
            num_cell(o, &fmt(l.bits_median), l.bits_median);
            num_cell(o, &fmt(l.bits_alloc_median), l.bits_alloc_median);
            num_cell(o, &fmt(l.bits_geomean), l.bits_geomean);
            num_cell(o, &fmt(l.bits_alloc_geomean), l.bits_alloc_geomean);
            num_cell(o, &fmt(l.time_median), l.time_median);
            num_cell(o, &fmt(l.time_geomean), l.time_geomean);
            num_cell(o, &fmt(Some(l.time_total)), Some(l.time_total));
            num_cell(o, &mib(l.rss_median), l.rss_median);
            num_cell(o, &mib(l.rss_max), l.rss_max);
            let _ = writeln!(o, "<td>{}</td></tr>", esc(&failures_text(&l.failures)));
        }
        o.push_str("</tbody></table></div>\n");
    }
}

/// The runs and instances that need attention.
fn attention(o: &mut String, page: &Page) {
    if !page.attention.is_empty() {
        let _ = writeln!(
            o,
            "<h3>Needs attention ({} runs or instances: oracle mismatch, engines disagreeing, crash or model error)</h3>\n<ul>",
            page.attention.len()
        );
        for line in &page.attention {
            let _ = writeln!(o, "<li>{}</li>", esc(line));
        }
        o.push_str("</ul>\n");
    }
}

/// The campaign's tables.
fn tables(o: &mut String, page: &Page) {
    for t in &page.tables {
        let _ = write!(
            o,
            "<h2>{}</h2>\n<p class=muted>{} Click a header to sort.</p>\n<div class=wide><table class=\"sortable summary\"><thead><tr>",
            esc(&t.title),
            esc(&t.caption)
        );
        for h in &t.header {
            let _ = write!(o, "<th>{}</th>", esc(h));
        }
        o.push_str("</tr></thead>\n<tbody>\n");
        for r in &t.rows {
            o.push_str("<tr>");
            for c in r {
                match c.value {
                    Some(v) => num_cell(o, &c.text, Some(v)),
                    None if c.text == "-" => num_cell(o, &c.text, None),
                    None => {
                        let _ = write!(o, "<td>{}</td>", esc(&c.text));
                    }
                }
            }
            o.push_str("</tr>\n");
        }
        o.push_str("</tbody></table></div>\n");
    }
}

/// The figures, inline, with their captions and files.
fn figures(o: &mut String, page: &Page) {
    o.push_str("<h2>Figures</h2>\n");
    match &page.figures {
        Err(message) => {
            let _ = writeln!(
                o,
                "<p class=notes>The figures could not be drawn: {}</p>",
                esc(message)
            );
        }
        Ok(figures) => {
            o.push_str("<ul>\n");
            for f in figures.iter() {
                let _ = writeln!(
                    o,
                    "<li><a href=\"#{}\">{}</a></li>",
                    esc(&f.figure.name),
                    esc(&f.figure.title)
                );
            }
            o.push_str("</ul>\n");
            for f in figures.iter() {
                let name = &f.figure.name;
                let _ = writeln!(
                    o,
                    "<figure id=\"{}\">\n<h3>{}</h3>\n{}\n<figcaption>{} ({} points plotted.) Files: <a href=\"{dir}/{name}.svg\">SVG</a>, <a href=\"{dir}/{name}.png\">PNG</a>.</figcaption>\n</figure>",
                    esc(name),
                    esc(&f.figure.title),
                    f.svg_text.trim(),
                    esc(&f.figure.full_caption()),
                    f.figure.points(),
                    dir = esc(&page.figure_dir),
                    name = esc(name),
                );
            }
        }
    }
}

/// Every run, the columns equal in every row said once above the table.
fn every_run(o: &mut String, page: &Page) {
    o.push_str("<h2>Every run</h2>\n");
    let columns: Vec<String> = header_line().split(',').map(str::to_string).collect();
    let table: Vec<Vec<String>> = page.rows.iter().map(fields).collect();
    // Columns equal in every row are said once, above the table.
    let constant: Vec<usize> = (0..columns.len())
        .filter(|&c| table.len() > 1 && table.iter().all(|r| r[c] == table[0][c]))
        .collect();
    if !constant.is_empty() {
        o.push_str("<p class=muted>Same in every row: ");
        let parts: Vec<String> = constant
            .iter()
            .map(|&c| {
                let v = &table[0][c];
                format!(
                    "{} = {}",
                    esc(&columns[c]),
                    if v.is_empty() {
                        "(empty)".into()
                    } else {
                        esc(v)
                    }
                )
            })
            .collect();
        o.push_str(&parts.join("; "));
        o.push_str("</p>\n");
    }
    let _ = writeln!(
        o,
        "<input id=q type=search placeholder=\"filter rows: words that must all appear\" aria-label=\"filter rows\"> <span class=muted><span id=shown>{}</span> of {} rows shown; click a header to sort.</span>",
        page.rows.len(),
        page.rows.len()
    );
    o.push_str("<div id=rows><table id=runs class=sortable><thead><tr>");
    // What a reader looks for first, then the rest in schema order.
    let first: Vec<usize> = LEADING
        .iter()
        .filter_map(|name| columns.iter().position(|c| c == name))
        .collect();
    let shown: Vec<usize> = first
        .iter()
        .copied()
        .chain((0..columns.len()).filter(|c| !first.contains(c)))
        .filter(|c| !constant.contains(c))
        .collect();
    for &c in &shown {
        let _ = write!(o, "<th>{}</th>", esc(&columns[c]));
    }
    o.push_str("</tr></thead>\n<tbody>\n");
    for (row, cells) in page.rows.iter().zip(&table) {
        let class = if super::tables::needs_attention(row) {
            " class=attention"
        } else if row.status != Status::Ok {
            " class=failed"
        } else {
            ""
        };
        let _ = write!(o, "<tr{class}>");
        for &c in &shown {
            let _ = write!(o, "<td>{}</td>", esc(&cells[c]));
        }
        o.push_str("</tr>\n");
    }
    o.push_str("</tbody></table></div>\n");
}
