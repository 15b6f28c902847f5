//! The query language of ARTIFACT.md's claim checks: one figure computed
//! from campaign rows, e.g. `median bits_per_state threads=1
//! finished=tree,trie of=trie` or `median time_s@bdd:strategy=bfs/time_s@bdd:strategy=saturation`.
//!
//! A query is `STAT [METRIC] FILTER...`. Evaluation: the row filters
//! (`COLUMN OP VALUE`, every column of the CSV schema) pick the
//! population; the instance filters keep the instances whose population
//! rows satisfy them (`finished=V,...`: an `ok` row of each variant;
//! `unfinished=V,...`: no `ok` row of any; `COLUMN@V OP VALUE`: a row of
//! variant V satisfying it); `of=V|V...` then selects the rows the
//! statistic reads. A variant is `ENGINE` or `ENGINE:CONFIG` (the row's
//! `engine_config`). Owns parsing and evaluation; reads rows only.

use crate::report::tables::quantile;
use crate::schema::{header_line, Row, Status};
use anyhow::{anyhow, bail};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// Columns beyond the schema's that filters may name.
const PSEUDO_COLUMNS: [&str; 1] = ["oracle_mismatch"];

/// A row with its columns by name (the schema's, and [`PSEUDO_COLUMNS`]).
pub struct Record {
    pub row: Row,
    fields: Map<String, Value>,
}

impl Record {
    pub fn new(row: Row) -> anyhow::Result<Record> {
        let Value::Object(mut fields) = serde_json::to_value(&row)? else {
            bail!("a row is not a JSON object");
        };
        let mismatch = row.states_match == Some(false) || row.transitions_match == Some(false);
        fields.insert("oracle_mismatch".into(), Value::Bool(mismatch));
        Ok(Record { row, fields })
    }

    fn number(&self, column: &str) -> Option<f64> {
        self.fields.get(column).and_then(Value::as_f64)
    }

    fn text(&self, column: &str) -> String {
        match self.fields.get(column) {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Null) | None => String::new(),
            Some(v) => v.to_string(),
        }
    }

    fn instance(&self) -> (String, String) {
        (self.row.suite.clone(), self.row.instance.clone())
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Stat {
    Count,
    Instances,
    Quantile(f64),
    Mean,
    Min,
    Max,
    Sum,
}

/// `ENGINE` or `ENGINE:CONFIG`.
#[derive(Clone, Debug, PartialEq)]
struct Variant {
    engine: String,
    config: Option<String>,
}

impl Variant {
    fn parse(text: &str) -> anyhow::Result<Variant> {
        let (engine, config) = match text.split_once(':') {
            Some((e, c)) => (e, Some(c.to_string())),
            None => (text, None),
        };
        if engine.is_empty() {
            bail!("empty variant in '{text}'");
        }
        Ok(Variant {
            engine: engine.into(),
            config,
        })
    }

    fn list(text: &str, sep: char) -> anyhow::Result<Vec<Variant>> {
        text.split(sep).map(Variant::parse).collect()
    }

    fn matches(&self, row: &Row) -> bool {
        row.engine == self.engine && self.config.as_ref().is_none_or(|c| *c == row.engine_config)
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Op {
    Eq,
    Ne,
    Ge,
    Le,
    Gt,
    Lt,
}

const OPS: [(&str, Op); 6] = [
    (">=", Op::Ge),
    ("<=", Op::Le),
    ("!=", Op::Ne),
    ("=", Op::Eq),
    (">", Op::Gt),
    ("<", Op::Lt),
];

/// `COLUMN OP VALUE`; `=` and `!=` take alternatives `a|b`.
#[derive(Clone, Debug, PartialEq)]
struct RowFilter {
    column: String,
    op: Op,
    value: String,
}

impl RowFilter {
    fn holds(&self, r: &Record) -> bool {
        let equal = |alt: &str| match (r.number(&self.column), alt.parse::<f64>()) {
            (Some(v), Ok(a)) => v == a,
            _ => r.text(&self.column) == alt,
        };
        let order = |f: fn(f64, f64) -> bool| match (r.number(&self.column), self.value.parse()) {
            (Some(v), Ok(a)) => f(v, a),
            _ => false,
        };
        match self.op {
            Op::Eq => self.value.split('|').any(equal),
            Op::Ne => !self.value.split('|').any(equal),
            Op::Ge => order(|v, a| v >= a),
            Op::Le => order(|v, a| v <= a),
            Op::Gt => order(|v, a| v > a),
            Op::Lt => order(|v, a| v < a),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
enum InstanceFilter {
    Finished(Vec<Variant>),
    Unfinished(Vec<Variant>),
    Has(Variant, RowFilter),
}

impl InstanceFilter {
    fn holds(&self, rows: &[&Record]) -> bool {
        let ok = |v: &Variant| {
            rows.iter()
                .any(|r| r.row.status == Status::Ok && v.matches(&r.row))
        };
        match self {
            InstanceFilter::Finished(vs) => vs.iter().all(ok),
            InstanceFilter::Unfinished(vs) => !vs.iter().any(ok),
            InstanceFilter::Has(v, f) => rows.iter().any(|r| v.matches(&r.row) && f.holds(r)),
        }
    }
}

/// What the statistic reads from each selected row or instance.
#[derive(Clone, Debug, PartialEq)]
enum Metric {
    None,
    Column(String),
    /// `A/B` of each row.
    RowRatio(String, String),
    /// `A@V/B@W`: per instance, column A of its row of variant V over
    /// column B of its row of W.
    VariantRatio((String, Variant), (String, Variant)),
}

/// One parsed query.
#[derive(Clone, Debug, PartialEq)]
pub struct Query {
    stat: Stat,
    metric: Metric,
    population: Vec<RowFilter>,
    instance: Vec<InstanceFilter>,
    of: Option<Vec<Variant>>,
}

fn column(name: &str) -> anyhow::Result<String> {
    let known = header_line().split(',').any(|c| c == name) || PSEUDO_COLUMNS.contains(&name);
    if !known {
        bail!("'{name}' is not a column of the CSV schema");
    }
    Ok(name.to_string())
}

fn parse_stat(word: &str) -> anyhow::Result<Stat> {
    Ok(match word {
        "count" => Stat::Count,
        "instances" => Stat::Instances,
        "median" => Stat::Quantile(0.5),
        "mean" => Stat::Mean,
        "min" => Stat::Min,
        "max" => Stat::Max,
        "sum" => Stat::Sum,
        q if q.starts_with('q') => match q[1..].parse::<f64>() {
            Ok(v) if (0.0..=1.0).contains(&v) => Stat::Quantile(v),
            _ => bail!("'{q}': a quantile is q0.1 .. q1"),
        },
        _ => {
            bail!("unknown statistic '{word}' (count, instances, median, mean, min, max, sum, qX)")
        }
    })
}

fn parse_metric(word: &str) -> anyhow::Result<Metric> {
    let side = |s: &str| -> anyhow::Result<(String, Option<Variant>)> {
        match s.split_once('@') {
            Some((c, v)) => Ok((column(c)?, Some(Variant::parse(v)?))),
            None => Ok((column(s)?, None)),
        }
    };
    let Some((a, b)) = word.split_once('/') else {
        return Ok(Metric::Column(column(word)?));
    };
    match (side(a)?, side(b)?) {
        ((a, None), (b, None)) => Ok(Metric::RowRatio(a, b)),
        ((a, Some(v)), (b, Some(w))) => Ok(Metric::VariantRatio((a, v), (b, w))),
        _ => bail!("'{word}': give a variant on both sides of the ratio or on neither"),
    }
}

/// Splits `COLUMN OP VALUE` at its operator: the first one, or the last one
/// when the column names a variant (`time_s@bdd:strategy=bfs>=1`).
fn split_filter(word: &str) -> anyhow::Result<(String, Op, String)> {
    let found = OPS.iter().filter_map(|(s, op)| {
        let at = if word.contains('@') {
            word.rfind(s)
        } else {
            word.find(s)
        }?;
        Some((at, s.len(), *op))
    });
    // The last operator ends last; of `>=` and its `=`, the longer.
    let pick = if word.contains('@') {
        found.max_by_key(|(at, len, _)| (*at + *len, *len))
    } else {
        found.min_by_key(|(at, len, _)| (*at, usize::MAX - *len))
    };
    let (at, len, op) = pick.ok_or_else(|| anyhow!("'{word}' is no filter (COLUMN OP VALUE)"))?;
    Ok((word[..at].to_string(), op, word[at + len..].to_string()))
}

impl Query {
    pub fn parse(text: &str) -> anyhow::Result<Query> {
        let mut words = text.split_whitespace();
        let stat = parse_stat(words.next().ok_or_else(|| anyhow!("empty query"))?)?;
        let mut query = Query {
            metric: Metric::None,
            population: Vec::new(),
            instance: Vec::new(),
            of: None,
            stat,
        };
        if !matches!(query.stat, Stat::Count | Stat::Instances) {
            let word = words
                .next()
                .ok_or_else(|| anyhow!("'{text}': the statistic needs a column"))?;
            query.metric = parse_metric(word)?;
        }
        for word in words {
            query.add_filter(word)?;
        }
        Ok(query)
    }

    fn add_filter(&mut self, word: &str) -> anyhow::Result<()> {
        let (key, op, value) = split_filter(word)?;
        match (key.as_str(), op) {
            ("of", Op::Eq) => self.of = Some(Variant::list(&value, '|')?),
            ("finished", Op::Eq) => self
                .instance
                .push(InstanceFilter::Finished(Variant::list(&value, ',')?)),
            ("unfinished", Op::Eq) => self
                .instance
                .push(InstanceFilter::Unfinished(Variant::list(&value, ',')?)),
            _ => match key.split_once('@') {
                Some((c, v)) => {
                    let filter = RowFilter {
                        column: column(c)?,
                        op,
                        value,
                    };
                    self.instance
                        .push(InstanceFilter::Has(Variant::parse(v)?, filter));
                }
                None => self.population.push(RowFilter {
                    column: column(&key)?,
                    op,
                    value,
                }),
            },
        }
        Ok(())
    }

    /// The figure the query gives on `records`; an error when it reads no value.
    pub fn evaluate(&self, records: &[Record]) -> anyhow::Result<f64> {
        let mut instances: BTreeMap<(String, String), Vec<&Record>> = BTreeMap::new();
        for r in records
            .iter()
            .filter(|r| self.population.iter().all(|f| f.holds(r)))
        {
            instances.entry(r.instance()).or_default().push(r);
        }
        instances.retain(|_, rows| self.instance.iter().all(|f| f.holds(rows)));
        let selected: Vec<&Record> = instances
            .values()
            .flatten()
            .copied()
            .filter(|r| {
                self.of
                    .as_ref()
                    .is_none_or(|vs| vs.iter().any(|v| v.matches(&r.row)))
            })
            .collect();
        match self.stat {
            Stat::Count => return Ok(selected.len() as f64),
            Stat::Instances => {
                let distinct: std::collections::BTreeSet<_> =
                    selected.iter().map(|r| r.instance()).collect();
                return Ok(distinct.len() as f64);
            }
            _ => {}
        }
        let values = self.values(&selected, &instances)?;
        self.reduce(values)
    }

    fn values(
        &self,
        selected: &[&Record],
        instances: &BTreeMap<(String, String), Vec<&Record>>,
    ) -> anyhow::Result<Vec<f64>> {
        Ok(match &self.metric {
            Metric::None => Vec::new(),
            Metric::Column(c) => selected.iter().filter_map(|r| r.number(c)).collect(),
            Metric::RowRatio(a, b) => selected
                .iter()
                .filter_map(|r| Some(r.number(a)? / r.number(b).filter(|d| *d != 0.0)?))
                .collect(),
            Metric::VariantRatio(num, den) => {
                let mut out = Vec::new();
                for ((_, name), rows) in instances {
                    let pick = |(c, v): &(String, Variant)| -> anyhow::Result<Option<f64>> {
                        let of: Vec<&&Record> = rows.iter().filter(|r| v.matches(&r.row)).collect();
                        if of.len() > 1 {
                            bail!("{name} has {} rows of {}: add filters", of.len(), v.engine);
                        }
                        Ok(of.first().and_then(|r| r.number(c)))
                    };
                    if let (Some(a), Some(b)) = (pick(num)?, pick(den)?) {
                        if b != 0.0 {
                            out.push(a / b);
                        }
                    }
                }
                out
            }
        })
    }

    fn reduce(&self, values: Vec<f64>) -> anyhow::Result<f64> {
        if values.is_empty() {
            bail!("no row gives a value");
        }
        let n = values.len() as f64;
        Ok(match self.stat {
            Stat::Quantile(q) => quantile(values, q).unwrap_or(f64::NAN),
            Stat::Mean => values.iter().sum::<f64>() / n,
            Stat::Min => values.iter().copied().fold(f64::INFINITY, f64::min),
            Stat::Max => values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            Stat::Sum => values.iter().sum(),
            Stat::Count | Stat::Instances => n,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(instance: &str, engine: &str, config: &str, status: Status, bits: f64) -> Record {
        let mut row = Row::example();
        row.instance = instance.into();
        row.engine = engine.into();
        row.engine_config = config.into();
        row.status = status;
        row.bits_per_state = Some(bits);
        row.time_s = Some(bits / 10.0);
        Record::new(row).unwrap()
    }

    fn rows() -> Vec<Record> {
        vec![
            record("a", "tree", "", Status::Ok, 10.0),
            record("a", "trie", "", Status::Ok, 40.0),
            record("b", "tree", "", Status::Ok, 20.0),
            record("b", "trie", "", Status::Timeout, 0.0),
            record("c", "bdd", "strategy=bfs", Status::Ok, 30.0),
            record("c", "bdd", "strategy=saturation", Status::Ok, 15.0),
        ]
    }

    fn eval(q: &str) -> f64 {
        Query::parse(q).unwrap().evaluate(&rows()).unwrap()
    }

    #[test]
    fn statistics_filters_and_variants() {
        assert_eq!(eval("count"), 6.0);
        assert_eq!(eval("instances status=ok"), 3.0);
        assert_eq!(eval("median bits_per_state of=tree"), 15.0);
        assert_eq!(eval("mean bits_per_state finished=tree,trie of=tree"), 10.0);
        assert_eq!(eval("instances unfinished=trie of=tree"), 1.0);
        assert_eq!(eval("max bits_per_state engine=tree|trie status=ok"), 40.0);
        assert_eq!(eval("min bits_per_state status!=timeout"), 10.0);
        assert_eq!(eval("count oracle_mismatch=true"), 0.0);
        assert_eq!(
            eval("median time_s@bdd:strategy=bfs/time_s@bdd:strategy=saturation"),
            2.0
        );
        assert_eq!(eval("median bits_per_state/time_s of=bdd"), 10.0);
        assert_eq!(
            eval("count bits_per_state@bdd:strategy=saturation>=15"),
            2.0
        );
        assert_eq!(eval("count bits_per_state@bdd:strategy=saturation>15"), 0.0);
        assert_eq!(
            eval("count bits_per_state@bdd:strategy=saturation<=15"),
            2.0
        );
        assert_eq!(eval("count status@bdd:strategy=bfs=ok"), 2.0);
        assert_eq!(eval("q1 bits_per_state"), 40.0);
        assert_eq!(eval("sum bits_per_state instance=a"), 50.0);
    }

    #[test]
    fn mistakes_are_errors() {
        for q in [
            "",
            "median",
            "median bits",
            "mode bits_per_state",
            "q2 bits_per_state",
            "count threads",
            "count nosuch=1",
            "median a@tree/bits_per_state",
        ] {
            assert!(Query::parse(q).is_err(), "{q}");
        }
        let q = Query::parse("median bits_per_state engine=none").unwrap();
        assert!(q.evaluate(&rows()).is_err(), "no value is an error");
        let q = Query::parse("median time_s@bdd/time_s@tree").unwrap();
        assert!(q.evaluate(&rows()).is_err(), "two bdd rows of c");
    }
}
