//! Compressed size: bits per state of every finished run against the
//! vector length k (paper Fig. 8) and against the state count (Fig. 9), a
//! panel per engine, with two references: each instance's
//! information-theoretic lower bound `u + log2(k) + 2` (the row's
//! `lower_bound_bits`, DESIGN.md) and the Compact Tree's best case, a root
//! entry at the largest root table `m = w + o`: `w − o + 3` bits.
//! Builds figure data only.

use super::{
    by_formalism, finished_sequential, no_points_note, param, variants, Axis, Figure, Input, Panel,
    Reference, Scale,
};
use crate::schema::Row;

/// The x of a compression figure.
struct Against {
    name: &'static str,
    title: &'static str,
    column: &'static str,
    label: &'static str,
    value: fn(&Row) -> Option<f64>,
}

const AGAINST: [Against; 2] = [
    Against {
        name: "bits-vs-k",
        title: "Bits per state against vector length",
        column: "k",
        label: "vector length k (slots)",
        value: |r| r.k.map(|k| k as f64),
    },
    Against {
        name: "bits-vs-states",
        title: "Bits per state against state count",
        column: "states",
        label: "states",
        value: |r| r.states.map(|s| s as f64),
    },
];

/// The Compact Tree's best case in bits per state, `w − o + 3`, from the
/// parameters its rows report (the default configuration's when there are
/// several), with the text of the legend.
fn compact_tree_best_case(rows: &[Row]) -> Option<(f64, String)> {
    let mut ct: Vec<&Row> = rows
        .iter()
        .filter(|r| r.engine == "compact-tree" && !r.engine_params.is_empty())
        .collect();
    ct.sort_by_key(|r| !r.engine_config.is_empty());
    let r = ct.first()?;
    let (w, o) = (param(&r.engine_params, "w")?, param(&r.engine_params, "o")?);
    let bits = w - o + 3.0;
    Some((
        bits,
        format!("Compact Tree best case w−o+3 = {bits} (w={w}, o={o})"),
    ))
}

pub fn figures(input: &Input) -> Vec<Figure> {
    AGAINST.iter().map(|a| figure(input, a)).collect()
}

fn figure(input: &Input, against: &Against) -> Figure {
    let best = compact_tree_best_case(&input.rows);
    let mut panels = Vec::new();
    for v in variants(&input.rows) {
        let rows: Vec<&Row> = input.rows.iter().filter(|r| r.variant() == v).collect();
        let plotted: Vec<(&Row, f64, f64)> = finished_sequential(&input.rows)
            .filter(|r| r.variant() == v)
            .filter_map(|r| Some((r, (against.value)(r)?, r.bits_per_state?)))
            .collect();
        let mut references = Vec::new();
        let bounds: Vec<(f64, f64)> = plotted
            .iter()
            .filter_map(|(r, x, _)| Some((*x, r.lower_bound_bits?)))
            .collect();
        references.push(Reference::Marks {
            label: "lower bound u+log2(k)+2".into(),
            points: bounds,
        });
        if let Some((bits, label)) = &best {
            references.push(Reference::Horizontal {
                label: label.clone(),
                y: *bits,
            });
        }
        let note = plotted
            .is_empty()
            .then(|| no_points_note(input, &rows, &[against.column, "bits_per_state"]));
        panels.push(Panel {
            title: v,
            series: by_formalism(
                plotted
                    .iter()
                    .map(|(r, x, y)| (r.formalism.as_str(), (*x, *y))),
            ),
            references,
            note,
        });
    }
    if panels.is_empty() {
        panels.push(Panel::empty(
            "all engines",
            no_points_note(input, &[], &[against.column, "bits_per_state"]),
        ));
    }
    let mut caption = format!(
        "{}: one point per finished single-thread run, a panel per engine, colour by formalism. \
         Bits per state = 8 × engine bytes used / states. Crosses: each instance's information-theoretic \
         lower bound u + log2(k) + 2 (u = widest slot in bits).",
        against.title
    );
    match &best {
        Some((bits, _)) => caption.push_str(&format!(
            " Dashed: the Compact Tree's best case, {bits} bits (a root entry at m = w + o)."
        )),
        None => caption.push_str(" No compact-tree row: its best case is not drawn."),
    }
    Figure {
        name: against.name.into(),
        title: against.title.into(),
        caption,
        x: Axis::new(against.label, Scale::Auto),
        y: Axis::new("bits per state", Scale::Auto),
        square: false,
        panels,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::fixture;

    #[test]
    fn one_point_per_finished_row_with_bits_and_k() {
        let input = fixture::input("small/runs.csv");
        let figs = figures(&input);
        let finished = input
            .rows
            .iter()
            .filter(|r| {
                r.status == crate::schema::Status::Ok
                    && r.threads == 1
                    && r.bits_per_state.is_some()
            })
            .count();
        for f in &figs {
            assert_eq!(f.points(), finished, "{}", f.name);
        }
        let best = compact_tree_best_case(&input.rows).unwrap().0;
        let ct = input
            .rows
            .iter()
            .find(|r| r.engine == "compact-tree")
            .unwrap();
        let w = param(&ct.engine_params, "w").unwrap();
        let o = param(&ct.engine_params, "o").unwrap();
        assert_eq!(best, w - o + 3.0);
    }
}
