//! The report's figures as SVG: Figures 4.2/4.3 (correct predictions,
//! false positives and false negatives, in % of all cells, against the
//! training percentage, one panel per strategy), and the per-version table
//! as a figure (each strategy's best accuracy per version beside the
//! all-pass baseline).

use std::path::Path;

use plotters::prelude::*;

use super::evaluate::Evaluation;
use super::matrix::FaultMatrix;
use super::metrics::{Confusion, percentage_of_ones};
use super::tables::{best_of, version_order};

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
        draw_legend(&mut chart, SeriesLabelPosition::MiddleRight)?;
    }
    root.present().map_err(plot_err)?;
    Ok(())
}

/// Per faulty version (x, in the per-version table's order), each
/// strategy's best accuracy and the version's all-pass baseline (y, %).
pub fn per_version(oracle: &FaultMatrix, evals: &[Evaluation], path: &Path) -> anyhow::Result<()> {
    let order = version_order(&oracle.versions);
    let n = order.len().max(1);
    let width = (80 + 14 * n as u32).clamp(640, 2400);
    let root = SVGBackend::new(path, (width, 380)).into_drawing_area();
    root.fill(&WHITE).map_err(plot_err)?;
    let mut chart = ChartBuilder::on(&root)
        .caption("Best accuracy per faulty version", ("sans-serif", 18))
        .margin(8)
        .x_label_area_size(30)
        .y_label_area_size(40)
        .build_cartesian_2d(0..n, 0f64..100f64)
        .map_err(plot_err)?;
    let name = |x: &usize| {
        order
            .get(*x)
            .map_or_else(String::new, |&v| oracle.versions[v].clone())
    };
    chart
        .configure_mesh()
        .x_desc("faulty version")
        .y_desc("accuracy %")
        .x_label_formatter(&name)
        .draw()
        .map_err(plot_err)?;
    let baseline = order
        .iter()
        .enumerate()
        .filter_map(|(x, &v)| percentage_of_ones(&oracle.cells[v]).map(|y| (x, y)));
    chart
        .draw_series(baseline.map(|p| Cross::new(p, 4, BLACK.stroke_width(1))))
        .map_err(plot_err)?
        .label("all-pass baseline")
        .legend(|(x, y)| Cross::new((x + 8, y), 4, BLACK.stroke_width(1)));
    for (i, eval) in evals.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        let best = order
            .iter()
            .enumerate()
            .filter_map(|(x, &v)| best_of(eval, Some(v)).map(|b| (x, b.0)));
        chart
            .draw_series(best.map(|p| Circle::new(p, 3, color.filled())))
            .map_err(plot_err)?
            .label(&eval.strategy)
            .legend(move |(x, y)| Circle::new((x + 8, y), 3, color.filled()));
    }
    draw_legend(&mut chart, SeriesLabelPosition::LowerRight)?;
    root.present().map_err(plot_err)?;
    Ok(())
}

/// The chart's legend, boxed, at `position`.
fn draw_legend<'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, SVGBackend<'a>, CT>,
    position: SeriesLabelPosition,
) -> anyhow::Result<()> {
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(position)
        .draw()
        .map_err(plot_err)
}

fn plot_err(e: impl std::fmt::Display) -> anyhow::Error {
    anyhow::anyhow!("cannot draw plot: {e}")
}
