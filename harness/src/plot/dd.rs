//! Decision-diagram size (paper Fig. 20): the peak node count of a run
//! against its final one, a panel per symbolic engine, the diagonal as
//! reference (peak = final). Empty, with the reason, until a campaign has
//! rows with `dd_final_nodes` and `dd_peak_nodes`. Builds figure data only.

use super::{
    by_formalism, finished_sequential, no_points_note, variants, Axis, Figure, Input, Panel, Scale,
};
use crate::schema::Row;

pub fn figure(input: &Input) -> Figure {
    let symbolic: Vec<String> = variants(&input.rows)
        .into_iter()
        .filter(|v| {
            input.rows.iter().any(|r| {
                r.variant() == *v && (r.dd_final_nodes.is_some() || r.dd_peak_nodes.is_some())
            })
        })
        .collect();
    let mut panels = Vec::new();
    for v in symbolic {
        let rows: Vec<&Row> = input.rows.iter().filter(|r| r.variant() == v).collect();
        let points = finished_sequential(&input.rows)
            .filter(|r| r.variant() == v)
            .filter_map(|r| {
                Some((
                    r.formalism.as_str(),
                    (r.dd_final_nodes? as f64, r.dd_peak_nodes? as f64),
                ))
            });
        let series = by_formalism(points);
        panels.push(Panel::against_diagonal(v, series, "peak = final", || {
            no_points_note(input, &rows, &["dd_final_nodes", "dd_peak_nodes"])
        }));
    }
    if panels.is_empty() {
        let note = input
            .absent("dd_final_nodes")
            .or_else(|| input.absent("dd_peak_nodes"))
            .unwrap_or_else(|| {
                if input.rows.is_empty() {
                    no_points_note(input, &[], &[])
                } else {
                    "no row has dd_final_nodes or dd_peak_nodes: no decision-diagram engine ran in this campaign"
                        .into()
                }
            });
        panels.push(Panel::empty("symbolic engines", note));
    }
    Figure {
        name: "dd-peak-vs-final".into(),
        title: "Decision diagrams: peak against final size".into(),
        caption: "Decision-diagram size: one point per finished single-thread run of a symbolic engine, \
            the final node count on x, the peak during the run on y, colour by formalism; the distance above \
            the diagonal is the intermediate blow-up."
            .into(),
        x: Axis::new("final nodes", Scale::Auto),
        y: Axis::new("peak nodes", Scale::Auto),
        square: true,
        panels,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::fixture;

    #[test]
    fn points_are_the_symbolic_rows_and_explicit_campaigns_say_why_empty() {
        let input = fixture::input("small/runs.csv");
        let f = figure(&input);
        let dd = fixture::finished_one_thread(&input, |r| {
            r.dd_final_nodes.is_some() && r.dd_peak_nodes.is_some()
        });
        assert!(dd > 0, "the fixture has decision-diagram rows");
        assert_eq!(f.points(), dd);

        let mut explicit = fixture::input("small/runs.csv");
        explicit
            .rows
            .retain(|r| r.dd_final_nodes.is_none() && r.dd_peak_nodes.is_none());
        let f = figure(&explicit);
        assert_eq!(f.points(), 0);
        assert!(
            f.full_caption().contains("no decision-diagram engine"),
            "{}",
            f.full_caption()
        );
    }
}
