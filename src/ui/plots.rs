//! Plots of the campaign's history (egui_plot): each side's strength over
//! the game moves, stands lost by cause, and HQs held.

use super::history::{Cause, SideTally, Timeline};
use super::session::Session;
use super::state::Timelines;
use egui::{Color32, Ui};
use egui_plot::{Bar, BarChart, GridMark, Legend, Line, LineStyle, MarkerShape, Plot, PlotPoints, Points};

/// Each side's line drawn differently, so that two sides with the same
/// figures (both holding 3 HQs) both show: the first side broad and solid,
/// the next narrower and dashed on top of it, and so on; a marker of its
/// own shape at every game move.
fn look(side: usize) -> (f32, LineStyle, MarkerShape) {
    match side % 4 {
        0 => (5.0, LineStyle::Solid, MarkerShape::Circle),
        1 => (2.5, LineStyle::dashed_loose(), MarkerShape::Diamond),
        2 => (2.0, LineStyle::dotted_dense(), MarkerShape::Square),
        _ => (1.5, LineStyle::dashed_dense(), MarkerShape::Cross),
    }
}

/// Where the bars of side `side` stand on the losses chart: one group of
/// the causes per side, a gap between groups.
fn group_at(side: usize) -> f64 {
    side as f64 * (Cause::ALL.len() as f64 + 1.0)
}

pub fn plots_ui(ui: &mut Ui, session: Option<&Session>, timelines: &mut Timelines) {
    let Some(session) = session else {
        ui.label("No campaign is open.");
        return;
    };
    let sides: Vec<(String, Color32)> = session
        .campaign()
        .sides
        .iter()
        .map(|s| {
            let [r, g, b] = s.colour.0;
            (s.name.clone(), Color32::from_rgb(r, g, b))
        })
        .collect();
    let timeline = timelines.of(session);
    if timeline.moments.len() < 2 {
        ui.weak("The plots fill in as game moves are played; the start is shown.");
    }
    let height = ((ui.available_height() - 60.0) / 3.0).max(110.0);

    ui.label("Strength in roster points after each game move (0 is the start)");
    Plot::new("strength")
        .height(height)
        .legend(Legend::default())
        .x_axis_label("game move")
        .y_axis_label("points")
        .allow_scroll(false)
        .show(ui, |plot| {
            side_lines(plot, &sides, timeline, |s| s.points as f64);
        });

    ui.label("Stands lost, by side and cause");
    let side_names: Vec<String> = sides.iter().map(|(name, _)| name.clone()).collect();
    let middle = (Cause::ALL.len() as f64 - 1.0) / 2.0;
    let groups = sides.len();
    Plot::new("losses")
        .height(height)
        .legend(Legend::default())
        .x_axis_label("side")
        .y_axis_label("stands")
        // One mark under the middle of each side's group of bars, named.
        .x_grid_spacer(move |_| {
            (0..groups)
                .map(|s| GridMark {
                    value: group_at(s) + middle,
                    step_size: Cause::ALL.len() as f64 + 1.0,
                })
                .collect()
        })
        .x_axis_formatter(move |mark, _| {
            (0..side_names.len())
                .find(|&s| (group_at(s) + middle - mark.value).abs() < 0.01)
                .and_then(|s| side_names.get(s).cloned())
                .unwrap_or_default()
        })
        .allow_scroll(false)
        .show(ui, |plot| {
            let colours = [
                Color32::from_rgb(180, 0, 60),
                Color32::from_rgb(200, 90, 0),
                Color32::from_rgb(120, 120, 120),
                Color32::from_rgb(60, 60, 160),
            ];
            for (c, cause) in Cause::ALL.iter().enumerate() {
                let bars: Vec<Bar> = sides
                    .iter()
                    .enumerate()
                    .map(|(s, (name, _))| {
                        let stands: usize = timeline
                            .losses
                            .iter()
                            .filter(|l| l.side == s && l.cause == *cause)
                            .map(|l| l.stands)
                            .sum();
                        Bar::new(group_at(s) + c as f64, stands as f64)
                            .width(0.9)
                            .name(format!("{name}: {}", cause.label()))
                    })
                    .collect();
                plot.bar_chart(
                    BarChart::new(cause.label(), bars)
                        .color(colours.get(c).copied().unwrap_or(Color32::GRAY)),
                );
            }
        });

    ui.label("HQs held after each game move");
    Plot::new("hqs")
        .height(height)
        .legend(Legend::default())
        .x_axis_label("game move")
        .y_axis_label("HQs")
        .allow_scroll(false)
        .show(ui, |plot| {
            side_lines(plot, &sides, timeline, |s| s.hqs_held as f64);
        });
}

/// One line a side over the game moves, `figure` read from each side's
/// figures after each, drawn as [`look`] says, with a marker at each move.
fn side_lines(
    plot: &mut egui_plot::PlotUi<'_>,
    sides: &[(String, Color32)],
    timeline: &Timeline,
    figure: impl Fn(&SideTally) -> f64,
) {
    for (i, (name, colour)) in sides.iter().enumerate() {
        let series: Vec<[f64; 2]> = timeline
            .moments
            .iter()
            .filter_map(|m| m.sides.get(i).map(|s| [f64::from(m.turn), figure(s)]))
            .collect();
        let (width, style, marker) = look(i);
        plot.line(
            Line::new(name.clone(), PlotPoints::from(series.clone()))
                .color(*colour)
                .width(width)
                .style(style),
        );
        plot.points(
            Points::new(name.clone(), series)
                .color(*colour)
                .shape(marker)
                .radius(3.5),
        );
    }
}
