//! Draws a [`Figure`] with plotters, to an SVG document or a PNG file: the
//! title with one legend for the whole figure under it, the panel grid,
//! ranges shared by all panels (logarithmic where the data span a factor of
//! 30 or more), reference lines, points, and the note of an empty panel
//! written inside it. The only module that uses plotters'
//! drawing API; knows nothing of rows.
//!
//! Data points are the only circles drawn (legend swatches are squares,
//! references lines and crosses), so an SVG's `<circle>` count is the
//! figure's plotted point count.

use super::{Figure, Panel, Reference, Scale};
use plotters::coord::ranged1d::{AsRangedCoord, Ranged, ValueFormatter};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::path::Path;

const PANEL_W: u32 = 520;
const PANEL_H: u32 = 420;
const TITLE_H: u32 = 80;
const GREY: RGBColor = RGBColor(110, 110, 110);
const REFERENCE: RGBColor = RGBColor(60, 60, 60);

/// Pixel size of a figure: up to three panels a row.
pub fn size(figure: &Figure) -> (u32, u32) {
    let (rows, cols) = grid(figure);
    (cols as u32 * PANEL_W, TITLE_H + rows as u32 * PANEL_H)
}

fn grid(figure: &Figure) -> (usize, usize) {
    let n = figure.panels.len().max(1);
    let cols = n.min(3);
    (n.div_ceil(cols), cols)
}

/// The figure as an SVG document.
pub fn svg(figure: &Figure) -> Result<String, String> {
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, size(figure)).into_drawing_area();
        draw(&root, figure)?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(text)
}

/// The figure as a PNG file.
pub fn png(figure: &Figure, path: &Path) -> Result<(), String> {
    let root = BitMapBackend::new(path, size(figure)).into_drawing_area();
    draw(&root, figure)?;
    root.present().map_err(|e| e.to_string())
}

/// An axis range as drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Span {
    lo: f64,
    hi: f64,
    log: bool,
}

fn span(values: &[f64], scale: Scale) -> Span {
    let finite: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
    if finite.is_empty() {
        return Span {
            lo: 0.0,
            hi: 1.0,
            log: false,
        };
    }
    let min = finite.iter().copied().fold(f64::INFINITY, f64::min);
    let max = finite.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if scale == Scale::Auto && min > 0.0 && max / min >= 30.0 {
        // Whole decades with the data off the edges, widened a hair so
        // that rounding keeps their ticks.
        let lo = 10f64.powf((min.log10() - 0.02).floor()) * (1.0 - 1e-9);
        let hi = 10f64.powf((max.log10() + 0.02).ceil()) * (1.0 + 1e-9);
        return Span { lo, hi, log: true };
    }
    let lo = if min >= 0.0 {
        0.0
    } else {
        min - 0.05 * (max - min).max(1.0)
    };
    let hi = if max > lo {
        max + 0.05 * (max - lo)
    } else {
        lo + 1.0
    };
    Span { lo, hi, log: false }
}

/// The ranges of a figure, common to its panels.
fn spans(figure: &Figure) -> (Span, Span) {
    let (mut xs, mut ys) = (Vec::new(), Vec::new());
    for p in &figure.panels {
        for s in &p.series {
            xs.extend(s.points.iter().map(|p| p.0));
            ys.extend(s.points.iter().map(|p| p.1));
        }
        for r in &p.references {
            match r {
                Reference::Marks { points, .. } | Reference::Ticks { points, .. } => {
                    xs.extend(points.iter().map(|p| p.0));
                    ys.extend(points.iter().map(|p| p.1));
                }
                Reference::Horizontal { y, .. } => ys.push(*y),
                Reference::Diagonal { .. } => {}
            }
        }
    }
    if figure.square {
        let all: Vec<f64> = xs.iter().chain(&ys).copied().collect();
        let scale = if figure.x.scale == Scale::Linear || figure.y.scale == Scale::Linear {
            Scale::Linear
        } else {
            Scale::Auto
        };
        let s = span(&all, scale);
        return (s, s);
    }
    (span(&xs, figure.x.scale), span(&ys, figure.y.scale))
}

/// A tick label of an axis: none between the integers of an integer axis.
fn axis_tick(axis: &super::Axis, v: f64) -> String {
    // Mesh values are computed in floating point (2 may come as
    // 1.9999999999): an integer within 1e-6 is labelled as that integer.
    if axis.integers && (v - v.round()).abs() > 1e-6 {
        String::new()
    } else if axis.integers {
        tick(v.round())
    } else {
        tick(v)
    }
}

/// Tick labels: plain for ordinary magnitudes, `2e6` style otherwise.
fn tick(v: f64) -> String {
    let a = v.abs();
    if a == 0.0 {
        "0".into()
    } else if !(1e-2..1e4).contains(&a) {
        let e = a.log10().floor();
        let m = v / 10f64.powf(e);
        let m = format!("{m:.1}");
        let m = m.trim_end_matches('0').trim_end_matches('.');
        if m == "1" {
            format!("1e{e}")
        } else {
            format!("{m}e{e}")
        }
    } else {
        let t = format!("{v:.2}");
        t.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, figure: &Figure) -> Result<(), String> {
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(e)?;
    let (title, body) = root.split_vertically(TITLE_H);
    let (w, _) = title.dim_in_pixel();
    title
        .draw(&Text::new(
            figure.title.clone(),
            (w as i32 / 2, 10),
            ("sans-serif", 26)
                .into_font()
                .color(&BLACK)
                .pos(Pos::new(HPos::Center, VPos::Top)),
        ))
        .map_err(e)?;
    let (_, legend_area) = title.split_vertically(44);
    draw_legend(&legend_area, &legend(figure))?;
    let (x, y) = spans(figure);
    let cells = body.split_evenly(grid(figure));
    for (panel, cell) in figure.panels.iter().zip(&cells) {
        match (x.log, y.log) {
            (false, false) => panel_in(cell, figure, panel, x.lo..x.hi, y.lo..y.hi, x, y),
            (true, false) => panel_in(
                cell,
                figure,
                panel,
                (x.lo..x.hi).log_scale(),
                y.lo..y.hi,
                x,
                y,
            ),
            (false, true) => panel_in(
                cell,
                figure,
                panel,
                x.lo..x.hi,
                (y.lo..y.hi).log_scale(),
                x,
                y,
            ),
            (true, true) => panel_in(
                cell,
                figure,
                panel,
                (x.lo..x.hi).log_scale(),
                (y.lo..y.hi).log_scale(),
                x,
                y,
            ),
        }?;
    }
    Ok(())
}

/// What a legend entry looks like.
#[derive(Clone, Copy, PartialEq)]
enum Swatch {
    Points(RGBColor),
    Dashed,
    Cross,
    Tick,
}

/// The figure's legend: every series and reference label once, in order.
fn legend(figure: &Figure) -> Vec<(Swatch, String)> {
    let mut out: Vec<(Swatch, String)> = Vec::new();
    let mut add = |swatch, label: &str| {
        if !out.iter().any(|(_, l)| l == label) {
            out.push((swatch, label.to_string()));
        }
    };
    for p in &figure.panels {
        for r in &p.references {
            match r {
                Reference::Diagonal { label } | Reference::Horizontal { label, .. } => {
                    add(Swatch::Dashed, label)
                }
                Reference::Marks { label, points } if !points.is_empty() => {
                    add(Swatch::Cross, label)
                }
                Reference::Ticks { label, points } if !points.is_empty() => {
                    add(Swatch::Tick, label)
                }
                Reference::Marks { .. } | Reference::Ticks { .. } => {}
            }
        }
    }
    for p in &figure.panels {
        for s in p.series.iter().filter(|s| !s.points.is_empty()) {
            add(Swatch::Points(s.colour), &s.label);
        }
    }
    out
}

/// Draws the legend as one centred line (two when it is too wide) in `area`.
fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[(Swatch, String)],
) -> Result<(), String> {
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let font = ("sans-serif", 16).into_font();
    let measure = TextStyle::from(font.clone());
    let (w, _) = area.dim_in_pixel();
    let widths: Vec<i32> = entries
        .iter()
        .map(|(_, l)| {
            area.estimate_text_size(l, &measure)
                .map_or(8 * l.len() as i32, |s| s.0 as i32)
                + 40
        })
        .collect();
    // Greedy lines of entries that fit the width.
    let mut lines: Vec<Vec<usize>> = vec![Vec::new()];
    let mut used = 0;
    for (i, wd) in widths.iter().enumerate() {
        if used + wd > w as i32 - 20 && !lines.last().is_some_and(Vec::is_empty) {
            lines.push(Vec::new());
            used = 0;
        }
        used += wd;
        lines.last_mut().expect("a line").push(i);
    }
    for (n, line) in lines.iter().enumerate() {
        let total: i32 = line.iter().map(|&i| widths[i]).sum();
        let mut x = (w as i32 - total) / 2;
        let y = 10 + 20 * n as i32;
        for &i in line {
            let (swatch, label) = &entries[i];
            match swatch {
                Swatch::Points(c) => area
                    .draw(&Rectangle::new([(x, y - 5), (x + 10, y + 5)], c.filled()))
                    .map_err(e)?,
                Swatch::Dashed => {
                    for dx in [0, 10, 20] {
                        area.draw(&PathElement::new(
                            vec![(x + dx, y), (x + dx + 6, y)],
                            REFERENCE.stroke_width(1),
                        ))
                        .map_err(e)?
                    }
                }
                Swatch::Cross => area
                    .draw(&Cross::new((x + 5, y), 4, GREY.stroke_width(1)))
                    .map_err(e)?,
                Swatch::Tick => area
                    .draw(&PathElement::new(
                        vec![(x, y), (x + 10, y)],
                        BLACK.stroke_width(2),
                    ))
                    .map_err(e)?,
            }
            let text_x = if *swatch == Swatch::Dashed {
                x + 32
            } else {
                x + 16
            };
            area.draw(&Text::new(
                label.clone(),
                (text_x, y),
                font.clone()
                    .color(&BLACK)
                    .pos(Pos::new(HPos::Left, VPos::Center)),
            ))
            .map_err(e)?;
            x += widths[i];
        }
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn panel_in<DB, X, Y>(
    area: &DrawingArea<DB, Shift>,
    figure: &Figure,
    panel: &Panel,
    x_spec: X,
    y_spec: Y,
    x: Span,
    y: Span,
) -> Result<(), String>
where
    DB: DrawingBackend,
    X: AsRangedCoord<Value = f64>,
    Y: AsRangedCoord<Value = f64>,
    X::CoordDescType: Ranged<ValueType = f64> + ValueFormatter<f64>,
    Y::CoordDescType: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let mut chart = ChartBuilder::on(area)
        .caption(&panel.title, ("sans-serif", 19))
        .margin(12)
        .x_label_area_size(50)
        .y_label_area_size(72)
        .build_cartesian_2d(x_spec, y_spec)
        .map_err(e)?;
    let empty = panel.points() == 0;
    let mut mesh = chart.configure_mesh();
    if empty {
        // Ranges of nothing: no ticks to misread.
        mesh.disable_mesh().x_labels(0).y_labels(0);
    }
    mesh.x_desc(figure.x.label.as_str())
        .y_desc(figure.y.label.as_str())
        .x_label_formatter(&|v| {
            if empty {
                String::new()
            } else {
                axis_tick(&figure.x, *v)
            }
        })
        .y_label_formatter(&|v| {
            if empty {
                String::new()
            } else {
                axis_tick(&figure.y, *v)
            }
        })
        .label_style(("sans-serif", 15))
        .axis_desc_style(("sans-serif", 16))
        .light_line_style(RGBColor(240, 240, 240))
        .bold_line_style(RGBColor(215, 215, 215))
        .draw()
        .map_err(e)?;
    // An empty panel shows its note alone.
    let references = if empty {
        &[][..]
    } else {
        &panel.references[..]
    };
    for r in references {
        let mut dashed = |points: Vec<(f64, f64)>| {
            chart
                .draw_series(DashedLineSeries::new(
                    points,
                    6,
                    4,
                    REFERENCE.stroke_width(1),
                ))
                .map(|_| ())
        };
        match r {
            Reference::Diagonal { .. } => {
                let lo = x.lo.max(y.lo);
                let hi = x.hi.min(y.hi);
                if lo < hi {
                    dashed(vec![(lo, lo), (hi, hi)]).map_err(e)?;
                }
            }
            Reference::Horizontal { y: level, .. } => {
                dashed(vec![(x.lo, *level), (x.hi, *level)]).map_err(e)?;
            }
            Reference::Marks { points, .. } if !points.is_empty() => {
                chart
                    .draw_series(
                        points
                            .iter()
                            .map(|p| Cross::new(*p, 3, GREY.stroke_width(1))),
                    )
                    .map_err(e)?;
            }
            Reference::Ticks { points, .. } if !points.is_empty() => {
                chart
                    .draw_series(points.iter().map(|p| {
                        EmptyElement::at(*p)
                            + PathElement::new(vec![(-4, 0), (4, 0)], BLACK.stroke_width(2))
                    }))
                    .map_err(e)?;
            }
            Reference::Marks { .. } | Reference::Ticks { .. } => {}
        }
    }
    for s in &panel.series {
        if s.points.is_empty() {
            continue;
        }
        if s.joined {
            chart
                .draw_series(LineSeries::new(
                    s.points.iter().copied(),
                    s.colour.stroke_width(2),
                ))
                .map_err(e)?;
        }
        let radius = if s.joined { 2 } else { 3 };
        chart
            .draw_series(
                s.points
                    .iter()
                    .map(|p| Circle::new(*p, radius, s.colour.mix(0.75).filled())),
            )
            .map_err(e)?;
    }
    if empty {
        let note = panel.note.as_deref().unwrap_or("no data");
        let plot = chart.plotting_area().strip_coord_spec();
        let (w, h) = plot.dim_in_pixel();
        let lines = wrap(note, 42);
        let top = h as i32 / 2 - 10 * lines.len() as i32;
        for (i, line) in lines.iter().enumerate() {
            plot.draw(&Text::new(
                line.clone(),
                (w as i32 / 2, top + 20 * i as i32),
                ("sans-serif", 16)
                    .into_font()
                    .color(&GREY)
                    .pos(Pos::new(HPos::Center, VPos::Top)),
            ))
            .map_err(e)?;
        }
    }
    Ok(())
}

/// Greedy word wrap to lines of at most `width` characters.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(l) if l.len() + 1 + word.len() <= width => {
                l.push(' ');
                l.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_only_when_positive_and_spanning_two_decades() {
        let s = span(&[3.0, 250.0], Scale::Auto);
        assert!(s.log);
        assert!((s.lo - 1.0).abs() < 1e-6 && s.lo <= 1.0, "{s:?}");
        assert!((s.hi - 1000.0).abs() < 1e-3 && s.hi >= 1000.0, "{s:?}");
        let s = span(&[100.0, 250.0, 1e4], Scale::Auto);
        assert!(
            s.lo < 100.0 / 2.0 && s.hi > 1e4 * 2.0,
            "data at a decade is not on the edge: {s:?}"
        );
        assert!(!span(&[3.0, 250.0], Scale::Linear).log);
        assert!(!span(&[3.0, 80.0], Scale::Auto).log);
        assert!(
            !span(&[0.0, 1e6], Scale::Auto).log,
            "zero cannot be on a log axis"
        );
        assert!(!span(&[], Scale::Auto).log);
    }

    #[test]
    fn ticks_read_well() {
        assert_eq!(tick(0.0), "0");
        assert_eq!(tick(100.0), "100");
        assert_eq!(tick(0.25), "0.25");
        assert_eq!(tick(1e6), "1e6");
        assert_eq!(tick(2.5e6), "2.5e6");
        assert_eq!(tick(1e-3), "1e-3");
        assert_eq!(tick(1e4), "1e4");
        let threads = super::super::Axis::new("threads", Scale::Linear).integers();
        assert_eq!(axis_tick(&threads, 2.5), "");
        assert_eq!(axis_tick(&threads, 2.0), "2");
    }

    #[test]
    fn wrap_keeps_words() {
        assert_eq!(wrap("aa bb cc", 5), vec!["aa bb", "cc"]);
        assert_eq!(wrap("", 5), Vec::<String>::new());
    }
}
