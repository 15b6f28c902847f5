//! End-to-end tests of `statebench plot` and `statebench report` on the
//! hand-written campaigns of `tests/fixtures`: every figure is a valid PNG
//! and SVG whose drawn points are the rows (counted here from the CSV
//! itself), the page is self-contained and holds every row, and missing
//! data (an engine failing everywhere, an empty campaign, an older schema,
//! no font) gives messages and empty panels, never a panic.

mod common;

use common::{read_csv, statebench, text};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// A copy of a fixture campaign in a temporary directory.
fn campaign(name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let to = dir.path().join(name);
    std::fs::create_dir_all(&to).unwrap();
    for f in std::fs::read_dir(fixture(name)).unwrap() {
        let f = f.unwrap().path();
        std::fs::copy(&f, to.join(f.file_name().unwrap())).unwrap();
    }
    (dir, to)
}

fn figures_json(dir: &Path) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(dir.join("figures.json")).unwrap();
    serde_json::from_str::<serde_json::Value>(&text)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

/// Checks a PNG by decoding it whole; returns its size.
fn decode_png(path: &Path) -> (u32, u32) {
    let decoder = png::Decoder::new(std::fs::File::open(path).unwrap());
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    (info.width, info.height)
}

/// Parses an SVG as XML and counts its circles (the plotted points).
fn svg_circles(svg: &str) -> usize {
    let doc = roxmltree::Document::parse(svg).unwrap();
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    doc.descendants()
        .filter(|n| n.tag_name().name() == "circle")
        .count()
}

fn points(figures: &[serde_json::Value], name: &str) -> usize {
    figures
        .iter()
        .find(|f| f["name"] == name)
        .unwrap_or_else(|| panic!("no figure {name}"))["points"]
        .as_u64()
        .unwrap() as usize
}

#[test]
fn figures_are_valid_png_and_svg_with_one_point_per_row() {
    let (_tmp, dir) = campaign("small");
    let out = statebench().arg("plot").arg(&dir).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let figs_dir = dir.join("figures");
    let figures = figures_json(&figs_dir);
    let names: HashSet<&str> = figures
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    for name in [
        "bits-vs-k",
        "bits-vs-states",
        "vs-compact-tree-bits",
        "vs-compact-tree-time",
        "solved",
        "dd-peak-vs-final",
        "speedup",
    ] {
        assert!(names.contains(name), "no figure {name}: {names:?}");
    }
    for f in &figures {
        let svg_path = figs_dir.join(f["svg"].as_str().unwrap());
        let png_path = figs_dir.join(f["png"].as_str().unwrap());
        let (w, h) = decode_png(&png_path);
        assert!(w >= 400 && h >= 300, "{}: {w}x{h}", png_path.display());
        let svg = std::fs::read_to_string(&svg_path).unwrap();
        assert_eq!(
            svg_circles(&svg) as u64,
            f["points"].as_u64().unwrap(),
            "{}: drawn circles against reported points",
            svg_path.display()
        );
    }

    // The expected counts, from the CSV itself.
    let rows = read_csv(&dir.join("runs.csv"));
    let ok = |r: &HashMap<String, String>| r["status"] == "ok" && r["threads"] == "1";
    let with_bits = rows
        .iter()
        .filter(|r| ok(r) && !r["bits_per_state"].is_empty())
        .count();
    assert_eq!(points(&figures, "bits-vs-k"), with_bits);
    assert_eq!(points(&figures, "bits-vs-states"), with_bits);
    let solved = rows
        .iter()
        .filter(|r| ok(r) && r["states_match"] != "false")
        .count();
    assert_eq!(points(&figures, "solved"), solved);
    let dd = rows
        .iter()
        .filter(|r| ok(r) && !r["dd_final_nodes"].is_empty() && !r["dd_peak_nodes"].is_empty())
        .count();
    assert!(dd > 0);
    assert_eq!(points(&figures, "dd-peak-vs-final"), dd);
    let parallel: HashSet<&str> = rows
        .iter()
        .filter(|r| r["threads"] != "1")
        .map(|r| r["engine"].as_str())
        .collect();
    let scaled = rows
        .iter()
        .filter(|r| r["status"] == "ok" && parallel.contains(r["engine"].as_str()))
        .count();
    assert!(scaled > 0);
    assert_eq!(points(&figures, "speedup"), scaled);
    let finished = |engine: &str| -> HashSet<&str> {
        rows.iter()
            .filter(|r| ok(r) && r["engine"] == engine)
            .map(|r| r["instance"].as_str())
            .collect()
    };
    let ct = finished("compact-tree");
    let engines: HashSet<&str> = rows.iter().map(|r| r["engine"].as_str()).collect();
    let pairs: usize = engines
        .iter()
        .filter(|e| **e != "compact-tree")
        .map(|e| finished(e).intersection(&ct).count())
        .sum();
    assert_eq!(points(&figures, "vs-compact-tree-bits"), pairs);
    assert_eq!(points(&figures, "vs-compact-tree-time"), pairs);

    // The engine that failed everywhere has empty panels that say why.
    let bits = figures.iter().find(|f| f["name"] == "bits-vs-k").unwrap();
    let trie = bits["panels"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["title"] == "trie")
        .unwrap();
    assert_eq!(trie["points"], 0);
    let note = trie["note"].as_str().unwrap();
    assert!(
        note.contains("no run finished") && note.contains("timeout"),
        "{note}"
    );
}

#[test]
fn report_is_one_self_contained_page_with_every_row() {
    let (_tmp, dir) = campaign("small");
    let out = statebench().arg("report").arg(&dir).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    let rows = read_csv(&dir.join("runs.csv"));
    let figures = figures_json(&dir.join("figures"));

    // Self-contained: no script, style or image fetched from elsewhere.
    for external in [
        "src=\"http",
        "href=\"http",
        "<link",
        "<script src",
        "@import",
    ] {
        assert!(!html.contains(external), "external resource: {external}");
    }
    assert_eq!(
        html.matches("<svg").count(),
        figures.len(),
        "figures inline"
    );
    // Every row is in the table, and the table can be sorted and searched.
    let table = &html[html.find("<table id=runs").unwrap()..];
    let body = &table[..table.find("</table>").unwrap()];
    assert_eq!(body.matches("<tr").count(), rows.len() + 1, "header + rows");
    assert!(html.contains("id=q type=search") && html.contains("localeCompare"));
    // Escaped: the fixture has a message with <angle brackets> and quotes.
    assert!(!html.contains("<budget>") && html.contains("&lt;budget&gt;"));
    // Facts and settings of the campaign.
    for fact in [
        "abc123",
        "Test CPU",
        "lockfree-hash",
        "selection.suite",
        "beem, mcc",
    ] {
        assert!(html.contains(fact), "{fact} missing from the page");
        assert!(md.contains(fact), "{fact} missing from report.md");
    }
    // The summary: one line per engine and formalism that ran.
    let groups: HashSet<(&str, &str)> = rows
        .iter()
        .map(|r| (r["engine"].as_str(), r["formalism"].as_str()))
        .collect();
    let summary = &md[md.find("## Summary").unwrap()..];
    let summary = &summary[..summary[1..].find("\n## ").unwrap() + 1];
    let lines = summary
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| engine"))
        .count();
    assert_eq!(lines, groups.len(), "{summary}");
    assert!(
        summary.contains("| trie | dve | 2 | 0 |")
            && summary.contains("1 timeout, 1 memory_limit |"),
        "{summary}"
    );
    // The mismatching row is flagged, and so is its instance, where the
    // other engines found the oracle's count.
    assert!(md.contains("Needs attention (2 runs or instances"), "{md}");
    assert!(
        md.contains("beem/anderson.1: engines disagree: 1279 states, 4000 transitions: tree;"),
        "{md}"
    );
    assert!(md.contains("| dve | 2 | 1 | anderson.1 |"), "{md}");
    // The fixture's mdd rows have diagram sizes: their table is on both
    // pages, one line (one configuration, one formalism per line: 2).
    let mdd_formalisms: HashSet<&str> = rows
        .iter()
        .filter(|r| r["engine"] == "mdd" && !r["dd_final_nodes"].is_empty())
        .map(|r| r["formalism"].as_str())
        .collect();
    assert!(!mdd_formalisms.is_empty());
    let dd = &md[md.find("## Decision-diagram sizes").expect("the dd table")..];
    let dd = &dd[..dd[1..].find("\n## ").unwrap() + 1];
    assert_eq!(
        dd.matches("\n| mdd |").count(),
        mdd_formalisms.len(),
        "{dd}"
    );
    assert!(html.contains("<h2>Decision-diagram sizes</h2>"));
    // One configuration per engine: no comparison table.
    assert!(!md.contains("## Configurations compared"));
    // The Markdown twin's images exist.
    for f in &figures {
        let png = format!("figures/{}", f["png"].as_str().unwrap());
        assert!(md.contains(&png), "{png} not linked");
        assert!(dir.join(&png).is_file());
    }
}

#[test]
fn empty_and_older_campaigns_give_empty_panels_and_notes() {
    // Header only, and an empty file: no rows yet.
    for content in [
        std::fs::read_to_string(fixture("small/runs.csv"))
            .unwrap()
            .lines()
            .next()
            .unwrap()
            .to_string()
            + "\n",
        String::new(),
    ] {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("runs.csv"), content).unwrap();
        let out = statebench().arg("report").arg(dir.path()).output().unwrap();
        assert!(out.status.success(), "{}", text(&out));
        let figures = figures_json(&dir.path().join("figures"));
        assert!(!figures.is_empty());
        for f in &figures {
            assert_eq!(f["points"], 0);
            assert!(
                f["caption"].as_str().unwrap().contains("no rows yet"),
                "{}",
                f["caption"]
            );
            decode_png(&dir.path().join("figures").join(f["png"].as_str().unwrap()));
        }
        let md = std::fs::read_to_string(dir.path().join("report.md")).unwrap();
        assert!(md.contains("no rows yet"));
    }

    // An older schema: read by column name, derived figures recomputed.
    let (_tmp, dir) = campaign("old-schema");
    let out = statebench().arg("report").arg(&dir).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(md.contains("lacks the columns oracle_complete"), "{md}");
    let rows = read_csv(&dir.join("runs.csv"));
    assert!(!rows[0].contains_key("bits_per_state"));
    let figures = figures_json(&dir.join("figures"));
    let finished = rows
        .iter()
        .filter(|r| r["status"] == "ok" && !r["engine_bytes_used"].is_empty())
        .count();
    assert!(finished > 0);
    assert_eq!(points(&figures, "bits-vs-k"), finished, "bits recomputed");
    let speedup = figures.iter().find(|f| f["name"] == "speedup").unwrap();
    assert!(speedup["caption"].as_str().unwrap().contains("1 thread"));

    // A CSV that cannot be read is a one-line error with file:line.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("runs.csv"), "instance,states\nx,1\n").unwrap();
    let out = statebench().arg("plot").arg(dir.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("runs.csv:2") && err.contains("lacks the columns"),
        "{err}"
    );
    // Not a campaign at all.
    let out = statebench()
        .arg("report")
        .arg(dir.path().join("nothing"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
}

#[test]
fn without_a_font_the_page_is_written_and_says_why_figures_are_missing() {
    let (_tmp, dir) = campaign("small");
    let out = statebench()
        .arg("report")
        .arg(&dir)
        .env("STATEBENCH_FONT", dir.join("no-such-font.ttf"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("fonts-dejavu-core"));
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(html.contains("could not be drawn") && html.contains("STATEBENCH_FONT"));
    assert!(!html.contains("<svg"));
}
