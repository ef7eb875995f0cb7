//! Tail statistics and the cactus plot of a benchmark: per configuration the solved count and
//! the median, p90, p99 and maximum solve time, and the picture solver papers use (instances
//! solved against time, one line per configuration), and the median and maximum time against the
//! board side for a family swept over n.

use plotters::prelude::*;

use crate::error::{Error, Result};

/// Times below this are drawn at this value (the time axis is logarithmic).
pub const MIN_SECONDS: f64 = 1e-3;

/// Per-configuration tail statistics. Percentiles are nearest-rank over every run, an unsolved
/// run counting as infinitely slow, so a percentile that falls on an unsolved run is `None`.
#[derive(Clone, Debug, PartialEq)]
pub struct Tail {
    /// Runs.
    pub runs: usize,
    /// Runs solved.
    pub solved: usize,
    /// Median seconds.
    pub median: Option<f64>,
    /// 90th percentile seconds.
    pub p90: Option<f64>,
    /// 99th percentile seconds.
    pub p99: Option<f64>,
    /// Maximum seconds (`None` when a run was unsolved).
    pub max: Option<f64>,
    /// Sum of the solved runs' seconds.
    pub solved_sum: f64,
}

/// Nearest-rank percentile `q` (0 < q <= 1) of `sorted`, where `None` sorts last.
fn percentile(sorted: &[Option<f64>], q: f64) -> Option<f64> {
    if sorted.is_empty() {
        return None;
    }
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

/// The tail statistics of one configuration's runs: `Some(seconds)` when solved, `None` when not.
///
/// ```
/// use queens_sat::suite::cactus::tail;
/// let t = tail(&[Some(1.0), Some(3.0), Some(2.0), None]);
/// assert_eq!((t.solved, t.median, t.p90, t.max), (3, Some(2.0), None, None));
/// ```
pub fn tail(runs: &[Option<f64>]) -> Tail {
    let mut sorted: Vec<Option<f64>> = runs.to_vec();
    sorted.sort_by(|a, b| match (a, b) {
        (Some(x), Some(y)) => x.total_cmp(y),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => std::cmp::Ordering::Equal,
    });
    Tail {
        runs: runs.len(),
        solved: runs.iter().flatten().count(),
        median: percentile(&sorted, 0.5),
        p90: percentile(&sorted, 0.9),
        p99: percentile(&sorted, 0.99),
        max: percentile(&sorted, 1.0),
        solved_sum: runs.iter().flatten().sum(),
    }
}

/// Draws the cactus plot: for each `(label, solved run seconds)` series, the k-th fastest solved
/// run at (k, seconds), on a logarithmic time axis; returns the SVG text.
pub fn render_cactus(title: &str, series: &[(String, Vec<f64>)]) -> Result<String> {
    let fail = |e: String| Error::io("<plot>", std::io::Error::other(e));
    let k_max = series.iter().map(|s| s.1.len()).max().unwrap_or(0).max(1);
    let t_max = series
        .iter()
        .flat_map(|s| s.1.iter().copied())
        .fold(MIN_SECONDS * 10.0, f64::max);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (1000, 700)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| fail(e.to_string()))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 24))
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(70)
            .build_cartesian_2d(
                0f64..(k_max as f64 * 1.03),
                (MIN_SECONDS..t_max * 2.0).log_scale(),
            )
            .map_err(|e| fail(e.to_string()))?;
        chart
            .configure_mesh()
            .x_desc("instances solved")
            .y_desc("time (s)")
            .y_label_formatter(&|v| format!("{v:.0e}"))
            .draw()
            .map_err(|e| fail(e.to_string()))?;
        for (i, (label, times)) in series.iter().enumerate() {
            let c = Palette99::pick(i).to_rgba();
            let mut t = times.clone();
            t.sort_by(f64::total_cmp);
            let pts: Vec<(f64, f64)> = t
                .iter()
                .enumerate()
                .map(|(k, &s)| ((k + 1) as f64, s.max(MIN_SECONDS)))
                .collect();
            chart
                .draw_series(LineSeries::new(pts, c.stroke_width(2)))
                .map_err(|e| fail(e.to_string()))?
                .label(format!("{label} ({} solved)", t.len()))
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], c.stroke_width(2))
                });
        }
        legend_and_present(&mut chart, &root)?;
    }
    Ok(svg)
}

/// Draws the series legend in the upper left corner of `chart` and writes `root` out.
fn legend_and_present<'a, DB, CT>(
    chart: &mut ChartContext<'a, DB, CT>,
    root: &DrawingArea<DB, plotters::coord::Shift>,
) -> Result<()>
where
    DB: DrawingBackend + 'a,
    CT: CoordTranslate,
{
    let fail = |e: String| Error::io("<plot>", std::io::Error::other(e));
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperLeft)
        .draw()
        .map_err(|e| fail(e.to_string()))?;
    root.present().map_err(|e| fail(e.to_string()))
}

/// One configuration's points in [`render_by_n`]: per board side `n`, the median and the maximum
/// seconds, `None` where the statistic falls on an unsolved run.
#[derive(Clone, Debug, PartialEq)]
pub struct ByN {
    /// Legend text (the configuration).
    pub label: String,
    /// `(n, median, max)` in increasing `n`.
    pub points: Vec<(u32, Option<f64>, Option<f64>)>,
}

/// Draws median (solid line, dots) and maximum (dashed line, triangles) seconds against `n` on a
/// logarithmic time axis, one pair of lines per series, with the time limit `timeout` as a grey
/// line; a statistic that falls on an unsolved run is drawn at the time limit as a cross labelled
/// `unsolved`. Returns the SVG text.
pub fn render_by_n(title: &str, timeout: f64, series: &[ByN]) -> Result<String> {
    let fail = |e: String| Error::io("<plot>", std::io::Error::other(e));
    let ns: Vec<u32> = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.0))
        .collect();
    let (Some(&n0), Some(&n1)) = (ns.iter().min(), ns.iter().max()) else {
        return Err(Error::Usage(
            "nothing to plot: no excluded-diagonal runs".into(),
        ));
    };
    let t_max = series
        .iter()
        .flat_map(|s| s.points.iter().flat_map(|p| [p.1, p.2]))
        .flatten()
        .fold(timeout.max(MIN_SECONDS * 10.0), f64::max);
    // The time axis starts a decade below the fastest statistic (not below MIN_SECONDS).
    let t_min = series
        .iter()
        .flat_map(|s| s.points.iter().flat_map(|p| [p.1, p.2]))
        .flatten()
        .fold(timeout, f64::min)
        .max(MIN_SECONDS);
    let t_low = 10f64.powf((t_min / 10.0).log10().floor()).max(MIN_SECONDS);
    let (x0, x1) = (f64::from(n0) - 1.0, f64::from(n1) + 1.0);
    let at = |v: Option<f64>| v.unwrap_or(timeout).max(t_low);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (1000, 700)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| fail(e.to_string()))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 24))
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(70)
            .build_cartesian_2d(x0..x1, (t_low..t_max * 3.0).log_scale())
            .map_err(|e| fail(e.to_string()))?;
        chart
            .configure_mesh()
            .x_desc("n (board side)")
            .y_desc("time (s)")
            .x_label_formatter(&|v| format!("{v:.0}"))
            .y_label_formatter(&|v| format!("{v:.0e}"))
            .draw()
            .map_err(|e| fail(e.to_string()))?;
        let grey = RGBColor(150, 150, 150);
        chart
            .draw_series(DashedLineSeries::new(
                vec![(x0, timeout), (x1, timeout)],
                6,
                4,
                grey.stroke_width(1),
            ))
            .map_err(|e| fail(e.to_string()))?;
        chart
            .draw_series(std::iter::once(Text::new(
                format!("timeout {timeout} s"),
                (x0 + 0.1, timeout * 1.25),
                ("sans-serif", 13).into_font().color(&grey),
            )))
            .map_err(|e| fail(e.to_string()))?;
        for (i, s) in series.iter().enumerate() {
            let c = Palette99::pick(i).to_rgba();
            let median: Vec<(f64, f64)> =
                s.points.iter().map(|p| (f64::from(p.0), at(p.1))).collect();
            let max: Vec<(f64, f64)> = s.points.iter().map(|p| (f64::from(p.0), at(p.2))).collect();
            chart
                .draw_series(LineSeries::new(median.clone(), c.stroke_width(2)))
                .map_err(|e| fail(e.to_string()))?
                .label(format!("{} median", s.label))
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], c.stroke_width(2))
                });
            chart
                .draw_series(median.iter().map(|&p| Circle::new(p, 3, c.filled())))
                .map_err(|e| fail(e.to_string()))?;
            chart
                .draw_series(DashedLineSeries::new(max.clone(), 8, 5, c.stroke_width(2)))
                .map_err(|e| fail(e.to_string()))?
                .label(format!("{} max", s.label))
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 8, y)], c.stroke_width(2))
                });
            chart
                .draw_series(max.iter().map(|&p| TriangleMarker::new(p, 5, c.filled())))
                .map_err(|e| fail(e.to_string()))?;
            // Statistics that fall on an unsolved run: a cross at the time limit and a label.
            let unsolved: Vec<(f64, f64)> = s
                .points
                .iter()
                .filter(|p| p.1.is_none() || p.2.is_none())
                .map(|p| (f64::from(p.0), timeout))
                .collect();
            chart
                .draw_series(
                    unsolved
                        .iter()
                        .map(|&p| Cross::new(p, 7, c.stroke_width(2))),
                )
                .map_err(|e| fail(e.to_string()))?;
            chart
                .draw_series(unsolved.iter().map(|&(x, y)| {
                    Text::new(
                        "unsolved",
                        (x + 0.08, y / 1.6),
                        ("sans-serif", 12).into_font().color(&c),
                    )
                }))
                .map_err(|e| fail(e.to_string()))?;
        }
        legend_and_present(&mut chart, &root)?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tail_statistics_count_unsolved_as_slowest() {
        let runs: Vec<Option<f64>> = (1..=100).map(|k| Some(k as f64)).collect();
        let t = tail(&runs);
        assert_eq!(
            (t.median, t.p90, t.p99, t.max),
            (Some(50.0), Some(90.0), Some(99.0), Some(100.0))
        );
        let mut runs = runs;
        runs[0] = None;
        let t = tail(&runs);
        assert_eq!(
            (t.solved, t.median, t.p99, t.max),
            (99, Some(51.0), Some(100.0), None)
        );
        assert_eq!(tail(&[]).median, None);
    }

    #[test]
    fn by_n_plot_labels_lines_and_unsolved_marks() {
        let series = vec![
            ByN {
                label: "auto".into(),
                points: vec![(22, Some(0.5), Some(2.0)), (24, Some(1.0), None)],
            },
            ByN {
                label: "cadical".into(),
                points: vec![(22, Some(0.7), Some(3.0)), (24, None, None)],
            },
        ];
        let svg = render_by_n("frontier", 20.0, &series).unwrap();
        assert!(svg.starts_with("<svg"));
        for needle in [
            "frontier",
            "n (board side)",
            "auto median",
            "auto max",
            "cadical median",
            "cadical max",
            "timeout 20 s",
            "unsolved",
        ] {
            assert!(svg.contains(needle), "missing {needle}");
        }
        assert!(render_by_n("t", 1.0, &[]).is_err());
    }

    #[test]
    fn cactus_has_one_labelled_line_per_configuration() {
        let svg = render_cactus(
            "tail",
            &[
                ("varisat".into(), vec![0.5, 2.0]),
                ("cubes".into(), vec![0.1, 0.2, 9.0]),
            ],
        )
        .unwrap();
        assert!(svg.starts_with("<svg"));
        for needle in [
            "tail",
            "instances solved",
            "varisat (2 solved)",
            "cubes (3 solved)",
        ] {
            assert!(svg.contains(needle), "missing {needle}");
        }
    }
}
