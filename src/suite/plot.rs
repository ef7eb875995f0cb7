//! The phase-transition picture of a solved suite: per series, P(satisfiable) and the median
//! solve time against the family parameter, as one SVG (plotters, SVG backend, built-in font
//! metrics, so the picture is the same on every machine).

use plotters::prelude::*;

use crate::error::{Error, Result};

/// Solve times below this are drawn at this value (the time axis is logarithmic).
pub const MIN_SECONDS: f64 = 1e-4;

/// One point of a series: the instances of one family-parameter value.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// Family-parameter value.
    pub x: f64,
    /// SAT / (SAT + UNSAT); `None` when every instance is UNKNOWN.
    pub p_sat: Option<f64>,
    /// Median solve seconds over all instances (UNKNOWN ones at their recorded time).
    pub median_seconds: f64,
}

/// A curve: one family (with piece and AMO when the suite varies them).
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// Legend text.
    pub label: String,
    /// Points in increasing `x`.
    pub points: Vec<Point>,
}

/// Aggregates `(x, status, seconds)` samples into points, sorted by `x`.
///
/// ```
/// use queens_sat::suite::plot::points;
/// let p = points(&[(1.0, "SAT", 0.5), (1.0, "UNSAT", 1.5), (1.0, "SAT", 0.1), (2.0, "UNKNOWN", 9.0)]);
/// assert_eq!((p[0].p_sat, p[0].median_seconds), (Some(2.0 / 3.0), 0.5));
/// assert_eq!(p[1].p_sat, None);
/// ```
pub fn points(samples: &[(f64, &str, f64)]) -> Vec<Point> {
    let mut xs: Vec<f64> = samples.iter().map(|s| s.0).collect();
    xs.sort_by(f64::total_cmp);
    xs.dedup();
    xs.into_iter()
        .map(|x| {
            let at: Vec<&(f64, &str, f64)> = samples.iter().filter(|s| s.0 == x).collect();
            let sat = at.iter().filter(|s| s.1 == "SAT").count();
            let unsat = at.iter().filter(|s| s.1 == "UNSAT").count();
            let mut times: Vec<f64> = at.iter().map(|s| s.2).collect();
            times.sort_by(f64::total_cmp);
            let k = times.len();
            let median = if k % 2 == 1 {
                times[k / 2]
            } else {
                (times[k / 2 - 1] + times[k / 2]) / 2.0
            };
            Point {
                x,
                p_sat: (sat + unsat > 0).then(|| sat as f64 / (sat + unsat) as f64),
                median_seconds: median,
            }
        })
        .collect()
}

/// Draws the two panels (P(satisfiable) on top, median solve time below, both against
/// `x_label`) with a legend, and returns the SVG text.
pub fn render_svg(title: &str, x_label: &str, series: &[Series]) -> Result<String> {
    let fail = |e: String| Error::io("<plot>", std::io::Error::other(e));
    let all: Vec<&Point> = series.iter().flat_map(|s| &s.points).collect();
    if all.is_empty() {
        return Err(Error::Usage(
            "nothing to plot: the suite has no solved instance".into(),
        ));
    }
    let (mut x0, mut x1) = all
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| {
            (a.min(p.x), b.max(p.x))
        });
    if x1 - x0 < 1e-9 {
        x0 -= 1.0;
        x1 += 1.0;
    } else {
        let pad = (x1 - x0) * 0.03;
        x0 -= pad;
        x1 += pad;
    }
    let t_max = all
        .iter()
        .map(|p| p.median_seconds.max(MIN_SECONDS))
        .fold(MIN_SECONDS, f64::max);
    let (t0, t1) = (MIN_SECONDS, (t_max * 2.0).max(MIN_SECONDS * 10.0));

    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (1000, 1000)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| fail(e.to_string()))?;
        let root = root
            .titled(title, ("sans-serif", 24))
            .map_err(|e| fail(e.to_string()))?;
        let panels = root.split_evenly((2, 1));
        let color = |i: usize| Palette99::pick(i).to_rgba();

        let mut top = ChartBuilder::on(&panels[0])
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(70)
            .build_cartesian_2d(x0..x1, 0f64..1.05f64)
            .map_err(|e| fail(e.to_string()))?;
        top.configure_mesh()
            .x_desc(x_label)
            .y_desc("P(satisfiable)")
            .draw()
            .map_err(|e| fail(e.to_string()))?;
        for (i, s) in series.iter().enumerate() {
            let c = color(i);
            let pts: Vec<(f64, f64)> = s
                .points
                .iter()
                .filter_map(|p| p.p_sat.map(|y| (p.x, y)))
                .collect();
            top.draw_series(LineSeries::new(pts.clone(), c.stroke_width(2)))
                .map_err(|e| fail(e.to_string()))?
                .label(s.label.clone())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], c.stroke_width(2))
                });
            top.draw_series(pts.into_iter().map(|p| Circle::new(p, 3, c.filled())))
                .map_err(|e| fail(e.to_string()))?;
        }
        top.configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperRight)
            .draw()
            .map_err(|e| fail(e.to_string()))?;

        let mut bottom = ChartBuilder::on(&panels[1])
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(70)
            .build_cartesian_2d(x0..x1, (t0..t1).log_scale())
            .map_err(|e| fail(e.to_string()))?;
        bottom
            .configure_mesh()
            .x_desc(x_label)
            .y_desc("median solve time (s)")
            .y_label_formatter(&|v| format!("{v:.0e}"))
            .draw()
            .map_err(|e| fail(e.to_string()))?;
        for (i, s) in series.iter().enumerate() {
            let c = color(i);
            let pts: Vec<(f64, f64)> = s
                .points
                .iter()
                .map(|p| (p.x, p.median_seconds.max(MIN_SECONDS)))
                .collect();
            bottom
                .draw_series(LineSeries::new(pts.clone(), c.stroke_width(2)))
                .map_err(|e| fail(e.to_string()))?
                .label(s.label.clone())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], c.stroke_width(2))
                });
            bottom
                .draw_series(pts.into_iter().map(|p| Circle::new(p, 3, c.filled())))
                .map_err(|e| fail(e.to_string()))?;
        }
        bottom
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperRight)
            .draw()
            .map_err(|e| fail(e.to_string()))?;
        root.present().map_err(|e| fail(e.to_string()))?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_labelled_svg() {
        let series = vec![
            Series {
                label: "fam-a".into(),
                points: points(&[(1.0, "SAT", 0.01), (2.0, "UNSAT", 0.2), (3.0, "UNSAT", 0.0)]),
            },
            Series {
                label: "fam-b".into(),
                points: points(&[(1.0, "SAT", 0.5), (2.0, "SAT", 1.0)]),
            },
        ];
        let svg = render_svg("suite demo", "blocked cells", &series).unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..80.min(svg.len())]);
        for needle in [
            "suite demo",
            "blocked cells",
            "P(satisfiable)",
            "median solve time",
            "fam-a",
            "fam-b",
        ] {
            assert!(svg.contains(needle), "missing {needle}");
        }
        assert!(render_svg("t", "x", &[]).is_err());
    }
}
