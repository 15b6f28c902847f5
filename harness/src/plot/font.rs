//! The font the figures' text is drawn with. Plotters draws text through
//! `ab_glyph` (pure Rust, no C font libraries), from a TrueType file read at
//! run time: `$STATEBENCH_FONT`, else the first of a few system paths
//! (Debian's `fonts-dejavu-core`, installed by `scripts/install-deps.sh`).
//! No font file is part of the project. Owns nothing but that lookup.

use std::path::PathBuf;
use std::sync::OnceLock;

/// System fonts tried in order when `$STATEBENCH_FONT` is not set.
const CANDIDATES: &[&str] = &[
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", // Debian, Ubuntu: fonts-dejavu-core
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",          // Fedora
    "/usr/share/fonts/TTF/DejaVuSans.ttf",             // Arch
    "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/System/Library/Fonts/Supplemental/Arial.ttf", // macOS
    "/Library/Fonts/Arial.ttf",
];

/// Registers the font as plotters' `sans-serif` once per process; later
/// calls return the first outcome. The error says how to get a font.
pub fn ensure() -> Result<(), String> {
    static LOADED: OnceLock<Result<(), String>> = OnceLock::new();
    LOADED.get_or_init(load).clone()
}

fn load() -> Result<(), String> {
    let paths: Vec<PathBuf> = match std::env::var_os("STATEBENCH_FONT") {
        Some(p) => vec![PathBuf::from(p)],
        None => CANDIDATES.iter().map(PathBuf::from).collect(),
    };
    let Some(path) = paths.iter().find(|p| p.is_file()) else {
        return Err(format!(
            "no TrueType font for the figures' text (looked for {}): install Debian's fonts-dejavu-core \
             (scripts/install-deps.sh does) or set STATEBENCH_FONT=/path/to/font.ttf",
            paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    };
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    // Plotters keeps registered fonts for the whole process; one font, once.
    let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
    plotters::style::register_font("sans-serif", plotters::style::FontStyle::Normal, bytes)
        .map_err(|_| format!("{}: not a TrueType/OpenType font", path.display()))
}
