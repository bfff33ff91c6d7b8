//! Plots of the campaign's history (egui_plot): each side's strength over
//! the game moves, stands lost by cause, and HQs held.

use super::history::Cause;
use super::session::Session;
use super::state::Timelines;
use egui::{Color32, Ui};
use egui_plot::{Bar, BarChart, Legend, Line, Plot, PlotPoints};

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
        .allow_scroll(false)
        .show(ui, |plot| {
            for (i, (name, colour)) in sides.iter().enumerate() {
                let points: PlotPoints<'_> = timeline
                    .moments
                    .iter()
                    .filter_map(|m| m.sides.get(i).map(|s| [f64::from(m.turn), s.points as f64]))
                    .collect();
                plot.line(Line::new(name.clone(), points).color(*colour).width(2.0));
            }
        });

    ui.label("Stands lost, by side and cause");
    Plot::new("losses")
        .height(height)
        .legend(Legend::default())
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
                        Bar::new(s as f64 * 5.0 + c as f64, stands as f64)
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
        .allow_scroll(false)
        .show(ui, |plot| {
            for (i, (name, colour)) in sides.iter().enumerate() {
                let points: PlotPoints<'_> = timeline
                    .moments
                    .iter()
                    .filter_map(|m| m.sides.get(i).map(|s| [f64::from(m.turn), s.hqs_held as f64]))
                    .collect();
                plot.line(Line::new(name.clone(), points).color(*colour).width(2.0));
            }
        });
}
