//! Reading ARTIFACT.md for `statebench claims`: the claims table's rows
//! with the numbers they write, the check blocks (`<!-- claim: ... -->`),
//! and how a number as written compares with a computed figure.

use super::query::Query;
use anyhow::{anyhow, bail};

/// One row of a claims table.
#[derive(Debug, PartialEq)]
pub struct Claim {
    pub name: String,
    /// Every number of its result cells (all but `claim` and `command`), as written.
    pub numbers: Vec<String>,
}

/// A `rows:` line: the campaigns whose rows the next entries read.
#[derive(Clone, Debug, PartialEq)]
pub struct Rows {
    pub campaigns: Vec<String>,
    pub rerun_replaces: bool,
}

/// One line of a check block.
#[derive(Debug)]
pub enum Entry {
    Checked {
        value: String,
        /// The query, and the one it is divided by, if any.
        queries: Vec<Query>,
        /// A constant the figure is divided by (`/ 3600`).
        divisor: Option<f64>,
        /// Index of its `rows:` line in [`Block::rows`].
        rows: usize,
        text: String,
    },
    NotKept {
        why: String,
        value: String,
    },
    Given {
        value: String,
    },
}

impl Entry {
    pub fn value(&self) -> &str {
        match self {
            Entry::Checked { value, .. }
            | Entry::NotKept { value, .. }
            | Entry::Given { value } => value,
        }
    }

    pub fn query_text(&self) -> &str {
        match self {
            Entry::Checked { text, .. } => text,
            _ => "",
        }
    }
}

/// A check block.
#[derive(Debug)]
pub struct Block {
    pub claim: String,
    pub rows: Vec<Rows>,
    pub entries: Vec<Entry>,
}

fn cells(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
    inner.split('|').map(|c| c.trim().to_string()).collect()
}

/// The rows of every table whose header's first cell is `claim`.
pub fn claims_table(document: &str) -> anyhow::Result<Vec<Claim>> {
    let lines: Vec<&str> = document.lines().collect();
    let mut claims = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let header = cells(lines[i]);
        if !lines[i].trim_start().starts_with('|') || header[0] != "claim" {
            i += 1;
            continue;
        }
        i += 2; // the header and its |---| line
        while i < lines.len() && lines[i].trim_start().starts_with('|') {
            let row = cells(lines[i]);
            if row.len() != header.len() {
                bail!(
                    "line {}: {} cells where the claims table has {}",
                    i + 1,
                    row.len(),
                    header.len()
                );
            }
            let numbers = row
                .iter()
                .zip(&header)
                .filter(|(_, h)| !["claim", "command"].contains(&h.as_str()))
                .flat_map(|(c, _)| numbers(c))
                .collect();
            claims.push(Claim {
                name: row[0].clone(),
                numbers,
            });
            i += 1;
        }
    }
    if claims.is_empty() {
        bail!("no claims table (a table whose header starts with `| claim |`)");
    }
    Ok(claims)
}

fn word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The numbers of `text` as written: `25.3`, `10^5`, `1.09·10^8`, a date
/// `2026-11-24`; digits inside a word (`65bf27d`, `q0.9`, `rest1`,
/// `sokoban.3`) are no number.
pub fn numbers(text: &str) -> Vec<String> {
    let c: Vec<char> = text.chars().collect();
    let digit = |i: usize| c.get(i).is_some_and(char::is_ascii_digit);
    let is = |i: usize, ch: char| c.get(i) == Some(&ch);
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        let in_word =
            i > 0 && (word_char(c[i - 1]) || (c[i - 1] == '.' && i > 1 && word_char(c[i - 2])));
        if !digit(i) || in_word {
            i += 1;
            continue;
        }
        let start = i;
        let digits = |mut i: usize| {
            while digit(i) {
                i += 1;
            }
            i
        };
        i = digits(i);
        if is(i, '.') && digit(i + 1) {
            i = digits(i + 1);
        }
        if is(i, '·') && is(i + 1, '1') && is(i + 2, '0') && is(i + 3, '^') && digit(i + 4) {
            i = digits(i + 4);
        } else if c[start..i] == ['1', '0'] && is(i, '^') && digit(i + 1) {
            i = digits(i + 1);
        }
        while is(i, '-') && digit(i + 1) {
            i = digits(i + 1);
        }
        if c.get(i).is_some_and(|&ch| word_char(ch)) {
            while c.get(i).is_some_and(|&ch| word_char(ch) || ch == '.') {
                i += 1;
            }
            continue;
        }
        out.push(c[start..i].iter().collect());
    }
    out
}

/// The value of a number as written, and half a unit of its last digit.
fn parse_number(text: &str) -> Option<(f64, f64)> {
    let (mantissa, exponent) = match text.split_once("10^") {
        Some(("", e)) => ("1", e),
        Some((m, e)) => (m.strip_suffix('·')?, e),
        None => (text, "0"),
    };
    let exponent: i32 = exponent.parse().ok()?;
    let decimals = mantissa.split_once('.').map_or(0, |(_, d)| d.len()) as i32;
    let value = mantissa.parse::<f64>().ok()? * 10f64.powi(exponent);
    Some((value, 0.5 * 10f64.powi(exponent - decimals)))
}

/// Whether `got` rounds to `written` at the digits it is written with.
pub fn agrees(written: &str, got: f64) -> bool {
    parse_number(written).is_some_and(|(v, half)| (got - v).abs() <= half * (1.0 + 1e-9) + 1e-12)
}

/// A computed figure for a message.
pub fn shown(got: f64) -> String {
    if got.abs() >= 1e4 {
        format!("{got:.0}")
    } else {
        format!("{got:.4}")
    }
}

/// Every check block of the document, in order.
pub fn blocks(document: &str) -> anyhow::Result<Vec<Block>> {
    let mut out = Vec::new();
    let mut rest = document;
    while let Some(at) = rest.find("<!-- claim:") {
        let body = &rest[at + "<!-- claim:".len()..];
        let end = body
            .find("-->")
            .ok_or_else(|| anyhow!("a check block `<!-- claim:` without its `-->`"))?;
        out.push(block(&body[..end])?);
        rest = &body[end..];
    }
    Ok(out)
}

fn block(text: &str) -> anyhow::Result<Block> {
    let mut lines = text.lines();
    let claim = lines.next().unwrap_or_default().trim().to_string();
    let mut block = Block {
        claim: claim.clone(),
        rows: Vec::new(),
        entries: Vec::new(),
    };
    let mut lets: Vec<(String, String)> = Vec::new();
    for line in lines.map(str::trim).filter(|l| !l.is_empty()) {
        line_of_block(&mut block, &mut lets, line)
            .map_err(|e| anyhow!("check block of \"{claim}\", line `{line}`: {e:#}"))?;
    }
    Ok(block)
}

fn line_of_block(
    block: &mut Block,
    lets: &mut Vec<(String, String)>,
    line: &str,
) -> anyhow::Result<()> {
    if let Some(list) = line.strip_prefix("rows:") {
        let mut campaigns: Vec<String> = list.split_whitespace().map(str::to_string).collect();
        let rerun_replaces = campaigns.first().is_some_and(|c| c == "--rerun-replaces");
        if rerun_replaces {
            campaigns.remove(0);
        }
        if campaigns.is_empty() {
            bail!("no campaign");
        }
        block.rows.push(Rows {
            campaigns,
            rerun_replaces,
        });
    } else if let Some(def) = line.strip_prefix("let ") {
        let (name, filters) = def
            .split_once(':')
            .ok_or_else(|| anyhow!("let NAME: ..."))?;
        lets.push((format!("${}", name.trim()), expand(filters, lets)));
    } else if let Some((why, values)) = labelled(line, "not kept (") {
        block
            .entries
            .extend(values.split_whitespace().map(|v| Entry::NotKept {
                why: why.to_string(),
                value: v.to_string(),
            }));
    } else if let Some((_, values)) = labelled(line, "given (") {
        block
            .entries
            .extend(values.split_whitespace().map(|v| Entry::Given {
                value: v.to_string(),
            }));
    } else if let Some((value, expr)) = line.split_once(" = ") {
        let rows = block
            .rows
            .len()
            .checked_sub(1)
            .ok_or_else(|| anyhow!("a number before any `rows:` line"))?;
        let entry = checked(value.trim(), &expand(expr, lets), rows)?;
        block.entries.push(entry);
    } else {
        bail!("neither `rows:`, `let`, `VALUE = QUERY`, `not kept (WHY):` nor `given (WHY):`");
    }
    Ok(())
}

/// `PREFIX WHY): VALUES` as `(WHY, VALUES)`.
fn labelled<'a>(line: &'a str, prefix: &str) -> Option<(&'a str, &'a str)> {
    line.strip_prefix(prefix)?.split_once("):")
}

fn expand(text: &str, lets: &[(String, String)]) -> String {
    text.split_whitespace()
        .map(|w| {
            lets.iter()
                .find(|(n, _)| n == w)
                .map_or(w.to_string(), |(_, v)| v.clone())
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn checked(value: &str, expr: &str, rows: usize) -> anyhow::Result<Entry> {
    if parse_number(value).is_none() {
        bail!("'{value}' is no number");
    }
    let mut queries = Vec::new();
    let mut divisor = None;
    for part in expr.split(" / ") {
        match part.trim().parse::<f64>() {
            Ok(d) if !queries.is_empty() => divisor = Some(divisor.unwrap_or(1.0) * d),
            _ => queries.push(Query::parse(part)?),
        }
    }
    if queries.len() > 2 {
        bail!("at most one query divides another");
    }
    Ok(Entry::Checked {
        value: value.to_string(),
        queries,
        divisor,
        rows,
        text: expr.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_as_written() {
        let text = "all 187 instances × 5 engines; **25.3** bits (mean 43.3), ≥ 10^5 states, \
            1.09·10^8–9.40·10^8, q0.9 9.19 / 7.39, 65bf27d's parent, 2026-11-24, sokoban.3, \
            `threads-beem-rest1`, 48-core, 0.65×";
        assert_eq!(
            numbers(text),
            [
                "187",
                "5",
                "25.3",
                "43.3",
                "10^5",
                "1.09·10^8",
                "9.40·10^8",
                "9.19",
                "7.39",
                "2026-11-24",
                "48",
                "0.65"
            ]
        );
    }

    #[test]
    fn a_figure_agrees_at_the_written_digits() {
        assert!(agrees("23.0", 23.03));
        assert!(!agrees("23.0", 23.06));
        assert!(agrees("2.8", 2.7534));
        assert!(agrees("157", 157.2));
        assert!(!agrees("157", 157.6));
        assert!(agrees("1.09·10^8", 1.0912e8));
        assert!(!agrees("1.09·10^8", 1.1e8));
        assert!(agrees("10^5", 1e5));
        assert!(agrees("0", 0.0));
    }

    #[test]
    fn table_and_blocks() {
        let doc = "| claim | command | expected result | time here |\n|---|---|---|---|\n\
            | Small | `run --max-states 1e3` | 12 runs, median 3.5 | 2 min |\n\n\
            <!-- claim: Small\nrows: --rerun-replaces a b\nlet one: threads=1\n\
            12 = count $one\n3.5 = median time_s $one / 2\nnot kept (lost): 2\n-->\n";
        let claims = claims_table(doc).unwrap();
        assert_eq!(claims.len(), 1);
        assert_eq!(claims[0].numbers, ["12", "3.5", "2"]);
        let blocks = blocks(doc).unwrap();
        assert_eq!(blocks[0].claim, "Small");
        assert_eq!(
            blocks[0].rows,
            [Rows {
                campaigns: vec!["a".into(), "b".into()],
                rerun_replaces: true
            }]
        );
        assert_eq!(blocks[0].entries.len(), 3);
        assert_eq!(
            blocks[0].entries[1].query_text(),
            "median time_s threads=1 / 2"
        );
        let bad = doc.replace("12 = count", "12 = cout");
        assert!(super::blocks(&bad).is_err());
        let no_rows = doc.replace("rows: --rerun-replaces a b\n", "");
        assert!(super::blocks(&no_rows).is_err());
    }
}
