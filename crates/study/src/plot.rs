//! Figures 4.2/4.3: correct predictions, false positives and false
//! negatives (in % of all cells) against the training percentage, one
//! panel per strategy, as SVG.

use std::path::Path;

use plotters::prelude::*;

use super::evaluate::Evaluation;
use super::metrics::Confusion;

/// A share of cells computed from a confusion count.
type Metric = fn(&Confusion) -> Option<f64>;

/// Draws one panel per strategy into an SVG file.
pub fn curves(evals: &[Evaluation], path: &Path) -> anyhow::Result<()> {
    let cols = evals.len().clamp(1, 3);
    let rows = evals.len().div_ceil(cols).max(1);
    let size = (420 * cols as u32, 320 * rows as u32);
    let root = SVGBackend::new(path, size).into_drawing_area();
    root.fill(&WHITE).map_err(plot_err)?;
    let panels = root.split_evenly((rows, cols));
    let series: [(&str, Metric, RGBColor); 3] = [
        ("Correct", Confusion::accuracy, RGBColor(31, 119, 180)),
        (
            "False positives",
            Confusion::false_positive_share,
            RGBColor(214, 39, 40),
        ),
        (
            "False negatives",
            Confusion::false_negative_share,
            RGBColor(44, 160, 44),
        ),
    ];
    for (eval, panel) in evals.iter().zip(&panels) {
        let mut chart = ChartBuilder::on(panel)
            .caption(&eval.strategy, ("sans-serif", 18))
            .margin(8)
            .x_label_area_size(30)
            .y_label_area_size(40)
            .build_cartesian_2d(0u32..100u32, 0f64..100f64)
            .map_err(plot_err)?;
        chart
            .configure_mesh()
            .x_desc("training %")
            .y_desc("% of cells")
            .draw()
            .map_err(plot_err)?;
        for (name, metric, color) in series {
            let points: Vec<(u32, f64)> = eval
                .points
                .iter()
                .filter_map(|p| metric(&p.overall).map(|v| (p.percentage, v)))
                .collect();
            chart
                .draw_series(LineSeries::new(points, color.stroke_width(2)))
                .map_err(plot_err)?
                .label(name)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], color.stroke_width(2)));
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .position(SeriesLabelPosition::MiddleRight)
            .draw()
            .map_err(plot_err)?;
    }
    root.present().map_err(plot_err)?;
    Ok(())
}

fn plot_err(e: impl std::fmt::Display) -> anyhow::Error {
    anyhow::anyhow!("cannot draw plot: {e}")
}
