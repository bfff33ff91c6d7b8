//! Line charts as inline SVG, for the chronicle: both axes drawn, ticked at
//! round numbers and labelled, each series in its own colour and dash with a
//! marker at every point and its name in the key, so none hides another.

use super::escape;
use std::fmt::Write as _;

/// One line of a chart.
#[derive(Debug, Clone)]
pub(super) struct Series {
    /// Its name in the key (plain text).
    pub name: String,
    /// CSS colour.
    pub colour: String,
    /// A dash pattern (`stroke-dasharray`), empty for a solid line.
    pub dash: &'static str,
    /// (x, y), in the order drawn.
    pub points: Vec<(f64, f64)>,
}

/// The dash patterns, in the order given to series of one colour.
const DASHES: [&str; 4] = ["", "8 4", "2 3", "10 3 2 3"];

/// The `n`th dash pattern, round again after the last.
pub(super) fn dash(n: usize) -> &'static str {
    DASHES.get(n % DASHES.len()).copied().unwrap_or_default()
}

const WIDTH: f64 = 840.0;
const PLOT_LEFT: f64 = 64.0;
const PLOT_RIGHT: f64 = 540.0;
const PLOT_TOP: f64 = 16.0;
const PLOT_BOTTOM: f64 = 236.0;
const HEIGHT: f64 = 280.0;

/// A round step for about `ticks` ticks over `span`.
fn step(span: f64, ticks: f64) -> f64 {
    let raw = (span / ticks).max(1e-9);
    let magnitude = 10f64.powf(raw.log10().floor());
    let nice = [1.0, 2.0, 2.5, 5.0, 10.0]
        .into_iter()
        .map(|m| m * magnitude)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * magnitude);
    if nice.is_finite() && nice > 0.0 { nice } else { 1.0 }
}

/// A number as a tick's label: whole numbers without a point.
fn tick_label(v: f64) -> String {
    if (v - v.round()).abs() < 1e-6 {
        format!("{:.0}", v.round())
    } else {
        format!("{v:.1}")
    }
}

/// A chart of `series` against `x_label` and `y_label` (plain text), with
/// `title` read out by screen readers. Whole-number x ticks (game moves); y
/// from 0. Points that are not finite are left out.
pub(super) fn line_chart(title: &str, x_label: &str, y_label: &str, series: &[Series]) -> String {
    let finite = |&(x, y): &(f64, f64)| x.is_finite() && y.is_finite();
    let all: Vec<(f64, f64)> = series
        .iter()
        .flat_map(|s| s.points.iter().copied())
        .filter(finite)
        .collect();
    let x_min = all.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
    let x_max = all.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
    let (x_min, x_max) = if x_min.is_finite() && x_max.is_finite() {
        (x_min, x_max.max(x_min + 1.0))
    } else {
        (0.0, 1.0)
    };
    let y_top = all.iter().map(|p| p.1).fold(0.0, f64::max);
    // Whole-number ticks: the charts count points, stands and HQs.
    let y_step = step(y_top.max(1.0), 5.0).max(1.0);
    let y_max = ((y_top / y_step).ceil() * y_step).max(y_step);
    let x_step = step(x_max - x_min, 10.0).max(1.0).round();
    let sx = |x: f64| PLOT_LEFT + (x - x_min) / (x_max - x_min) * (PLOT_RIGHT - PLOT_LEFT);
    let sy = |y: f64| PLOT_BOTTOM - y / y_max * (PLOT_BOTTOM - PLOT_TOP);

    let mut svg = String::with_capacity(4096);
    let _ = writeln!(
        svg,
        "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" role=\"img\" aria-label=\"{}\">",
        escape(title)
    );
    // The grid and the y axis's ticks.
    svg.push_str("<g font-size=\"11\" fill=\"#1e1914\">\n");
    let mut y = 0.0;
    while y <= y_max + y_step / 2.0 {
        let at = sy(y);
        let _ = writeln!(
            svg,
            "<line x1=\"{PLOT_LEFT}\" y1=\"{at:.1}\" x2=\"{PLOT_RIGHT}\" y2=\"{at:.1}\" stroke=\"#d8ccb0\" stroke-width=\"1\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            PLOT_LEFT - 6.0,
            at + 4.0,
            tick_label(y)
        );
        y += y_step;
    }
    let mut x = (x_min / x_step).ceil() * x_step;
    while x <= x_max + 1e-9 {
        let at = sx(x);
        let _ = writeln!(
            svg,
            "<line x1=\"{at:.1}\" y1=\"{PLOT_BOTTOM}\" x2=\"{at:.1}\" y2=\"{:.1}\" stroke=\"#1e1914\"/>\
             <text x=\"{at:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            PLOT_BOTTOM + 5.0,
            PLOT_BOTTOM + 18.0,
            tick_label(x)
        );
        x += x_step;
    }
    // The axes and their labels.
    let _ = writeln!(
        svg,
        "<path d=\"M{PLOT_LEFT} {PLOT_TOP}V{PLOT_BOTTOM}H{PLOT_RIGHT}\" fill=\"none\" stroke=\"#1e1914\" stroke-width=\"1.5\"/>\
         <text class=\"axis\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"12\">{}</text>\
         <text class=\"axis\" x=\"14\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"12\" transform=\"rotate(-90 14 {:.1})\">{}</text>",
        (PLOT_LEFT + PLOT_RIGHT) / 2.0,
        HEIGHT - 8.0,
        escape(x_label),
        (PLOT_TOP + PLOT_BOTTOM) / 2.0,
        (PLOT_TOP + PLOT_BOTTOM) / 2.0,
        escape(y_label)
    );
    svg.push_str("</g>\n");
    // The lines, each with a marker at every point, and the key.
    for (i, s) in series.iter().enumerate() {
        let points: Vec<(f64, f64)> = s
            .points
            .iter()
            .filter(|p| finite(p))
            .map(|&(x, y)| (sx(x), sy(y)))
            .collect();
        let coords: Vec<String> = points.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
        let dash = if s.dash.is_empty() {
            String::new()
        } else {
            format!(" stroke-dasharray=\"{}\"", s.dash)
        };
        let name = escape(&s.name);
        // The first series widest, each later one narrower on top of it, so
        // lines that run together all show.
        let later = series.len().saturating_sub(i + 1);
        let width = 2.2 + 1.8 * f64::from(u32::try_from(later).unwrap_or(0).min(4));
        let _ = write!(
            svg,
            "<g class=\"series\"><title>{name}</title><polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{width:.1}\" stroke-opacity=\"0.85\"{dash}/>",
            coords.join(" "),
            s.colour
        );
        for (x, y) in &points {
            let _ = write!(
                svg,
                "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"2.6\" fill=\"{}\"/>",
                s.colour
            );
        }
        svg.push_str("</g>\n");
        let ky = PLOT_TOP + 8.0 + 18.0 * f64::from(u32::try_from(i).unwrap_or(u32::MAX));
        let _ = writeln!(
            svg,
            "<line x1=\"{:.1}\" y1=\"{ky:.1}\" x2=\"{:.1}\" y2=\"{ky:.1}\" stroke=\"{}\" stroke-width=\"{width:.1}\"{dash}/>\
             <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" fill=\"#1e1914\">{name}</text>",
            PLOT_RIGHT + 16.0,
            PLOT_RIGHT + 44.0,
            s.colour,
            PLOT_RIGHT + 50.0,
            ky + 4.0
        );
    }
    svg.push_str("</svg>\n");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_are_round_numbers() {
        for (span, ticks, want) in [
            (100.0, 5.0, 20.0),
            (4400.0, 5.0, 1000.0),
            (3.0, 10.0, 0.5),
            (7.0, 5.0, 2.0),
        ] {
            assert!((step(span, ticks) - want).abs() < 1e-9, "{span}/{ticks}");
        }
    }

    #[test]
    fn a_chart_has_its_axes_labelled_and_every_series_in_the_key() {
        let series = [
            Series {
                name: "Red & co".to_owned(),
                colour: "#c00000".to_owned(),
                dash: dash(0),
                points: vec![(0.0, 100.0), (1.0, 80.0), (2.0, f64::NAN)],
            },
            Series {
                name: "Blue".to_owned(),
                colour: "#0000c0".to_owned(),
                dash: dash(1),
                points: vec![],
            },
        ];
        let svg = line_chart("Strength", "game move", "points", &series);
        assert!(
            svg.contains(">game move</text>") && svg.contains(">points</text>"),
            "{svg}"
        );
        assert!(
            svg.contains(">Red &amp; co</text>") && svg.contains(">Blue</text>"),
            "{svg}"
        );
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert!(!svg.contains("NaN"), "{svg}");
        // No series at all: still a chart, no panic.
        assert!(line_chart("", "x", "y", &[]).contains("</svg>"));
    }
}
