//! The campaign's end in the window: a banner with when and why it ended,
//! the final standing (HQs held, then points) and the winner, drawn above
//! the map in every view. End turn is disabled with the same reason
//! (`panels::menu_bar_ui`, from [`end_turn_refusal`]).

use crate::model::Campaign;
use egui::{RichText, Ui};

/// Why End turn is disabled: the campaign has ended (`None` while it goes on).
pub fn end_turn_refusal(campaign: &Campaign) -> Option<String> {
    crate::strategy::end::still_open(campaign)
        .err()
        .map(|over| over.to_string())
}

/// The banner, when the campaign has ended.
pub fn banner_ui(ui: &mut Ui, campaign: Option<&Campaign>) {
    let Some((campaign, ended)) = campaign.and_then(|c| c.end.ended.as_ref().map(|e| (c, e))) else {
        return;
    };
    egui::Panel::top("campaign_end").show(ui, |ui| {
        ui.label(
            RichText::new(format!(
                "The campaign ended {}: {}.",
                ended.when_text(),
                ended.why_text(campaign)
            ))
            .strong(),
        );
        ui.label(format!(
            "Final standing, by HQs held and then points: {}.",
            ended.standing.sides_text(campaign)
        ));
        ui.label(RichText::new(ended.standing.winner_text(campaign)).strong());
        ui.weak(
            "No orders or game moves are taken now. Undo takes the end back; the umpire's pencil can change the campaign.",
        );
    });
}
