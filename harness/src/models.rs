//! Loading a model: picks the front-end by file extension and turns its
//! errors into `model_error` / `unsupported`. The only place the harness
//! names front-ends. Must not know engines.

use crate::source::{embedded_text, ModelSource};
use pins::Model;
use std::path::Path;

/// Why a model could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// A formalism or construct statebench does not handle (yet).
    Unsupported(String),
    /// A broken model file: the message names the file and the problem.
    Model(String),
}

impl LoadError {
    /// The row status it gives, as the CSV spells it.
    pub fn status(&self) -> &'static str {
        match self {
            LoadError::Unsupported(_) => "unsupported",
            LoadError::Model(_) => "model_error",
        }
    }

    pub fn message(&self) -> &str {
        match self {
            LoadError::Unsupported(m) | LoadError::Model(m) => m,
        }
    }
}

/// The formalism a file name implies, by extension.
pub fn formalism_of(path: &str) -> Option<&'static str> {
    let ext = Path::new(path).extension()?.to_str()?.to_ascii_lowercase();
    match ext.as_str() {
        "pnml" => Some("pnml"),
        "dve" => Some("dve"),
        "pm" | "pml" | "prom" => Some("promela"),
        "mcrl2" => Some("mcrl2"),
        "mch" => Some("b"),
        "eventb" => Some("b"),
        _ => None,
    }
}

/// A front-end's result as a model or a load error; `unsupported` tells
/// which front-end errors mean "not handled" rather than "broken model".
fn loaded<M: Model + 'static, E: std::fmt::Display>(
    result: Result<M, E>,
    unsupported: impl Fn(&E) -> bool,
) -> Result<Box<dyn Model>, LoadError> {
    match result {
        Ok(model) => Ok(Box::new(model)),
        Err(e) if unsupported(&e) => Err(LoadError::Unsupported(e.to_string())),
        Err(e) => Err(LoadError::Model(e.to_string())),
    }
}

fn from_pnml(result: Result<pnml::PetriNet, pnml::PnmlError>) -> Result<Box<dyn Model>, LoadError> {
    loaded(result, |e| e.kind() == pnml::ErrorKind::Unsupported)
}

fn from_dve(result: Result<dve::DveModel, dve::DveError>) -> Result<Box<dyn Model>, LoadError> {
    loaded(result, |e| e.kind() == dve::ErrorKind::Unsupported)
}

fn from_b(result: Result<bmethod::BModel, bmethod::BError>) -> Result<Box<dyn Model>, LoadError> {
    loaded(result, |e| e.kind() == bmethod::ErrorKind::Unsupported)
}

fn from_promela(
    result: Result<promela::PromelaModel, promela::PromelaError>,
) -> Result<Box<dyn Model>, LoadError> {
    loaded(result, |e| e.kind() == promela::ErrorKind::Unsupported)
}

fn from_mcrl2(
    result: Result<mcrl2::Mcrl2Model, mcrl2::Mcrl2Error>,
) -> Result<Box<dyn Model>, LoadError> {
    loaded(result, |e| {
        matches!(
            e.kind(),
            mcrl2::ErrorKind::Unsupported | mcrl2::ErrorKind::NotLinear
        )
    })
}

/// Parses `source` with a front-end's `parse_str` (embedded text) or
/// `parse_file`.
fn parse<M, E>(
    source: &ModelSource,
    parse_str: fn(&str, &str) -> Result<M, E>,
    parse_file: fn(&Path) -> Result<M, E>,
) -> Result<Result<M, E>, LoadError> {
    Ok(match source {
        ModelSource::Embedded { label } => {
            let text = embedded_text(label)
                .ok_or_else(|| LoadError::Model(format!("{label}: no such built-in model")))?;
            parse_str(text, label)
        }
        ModelSource::File(path) => parse_file(path),
    })
}

/// Loads the model named by `source`.
pub fn load(source: &ModelSource) -> Result<Box<dyn Model>, LoadError> {
    let label = match source {
        ModelSource::Embedded { label } => label.clone(),
        ModelSource::File(p) => p.display().to_string(),
    };
    match formalism_of(&label) {
        Some("pnml") => from_pnml(parse(source, pnml::parse_str, pnml::parse_file)?),
        Some("dve") => from_dve(parse(source, dve::parse_str, dve::parse_file)?),
        Some("promela") => from_promela(parse(source, promela::parse_str, promela::parse_file)?),
        Some("mcrl2") => from_mcrl2(parse(source, mcrl2::parse_str, mcrl2::parse_file)?),
        Some("b") => from_b(parse(source, bmethod::parse_str, bmethod::parse_file)?),
        Some(other) => Err(LoadError::Unsupported(format!(
            "{label}: the {other} front-end is not implemented yet"
        ))),
        None => Err(LoadError::Unsupported(format!(
            "{label}: unknown model file extension (known: .pnml, .dve, .pm/.pml/.prom, .mcrl2, .mch, .eventb)"
        ))),
    }
}
