//! What the benchmarks share: the workspace and loading a model file by
//! its extension.

use pins::Model;
use std::path::{Path, PathBuf};

/// The workspace root.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The model in `path` (`.pnml`, `.dve`, `.pm`, `.mcrl2` or `.mch`), or
/// why there is none.
pub fn load_file(path: &Path) -> Result<Box<dyn Model>, String> {
    if !path.is_file() {
        return Err(format!("{} not available", path.display()));
    }
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    let model: Box<dyn Model> = match ext {
        "pnml" => Box::new(pnml::parse_file(path).map_err(|e| e.to_string())?),
        "dve" => Box::new(dve::parse_file(path).map_err(|e| e.to_string())?),
        "pm" => Box::new(promela::parse_file(path).map_err(|e| e.to_string())?),
        "mcrl2" => Box::new(mcrl2::parse_file(path).map_err(|e| e.to_string())?),
        "mch" => Box::new(bmethod::parse_file(path).map_err(|e| e.to_string())?),
        _ => return Err(format!("{}: unknown extension", path.display())),
    };
    Ok(model)
}
