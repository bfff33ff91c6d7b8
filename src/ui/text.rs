//! Words and colours for the window, shared by the map and the panels: pure
//! functions of the model, importing nothing of the window's own modules.

use crate::model::{Campaign, Force, RegionId, SideId};
use crate::strategy::{MarchForecast, SupplyLine};
use egui::Color32;

/// A side's colour; grey for a side the campaign does not know.
pub fn side_colour(campaign: &Campaign, side: &SideId) -> Color32 {
    campaign.side(side).map_or(Color32::GRAY, |s| {
        let [r, g, b] = s.colour.0;
        Color32::from_rgb(r, g, b)
    })
}

/// A side's name; its id when the campaign does not know it.
pub fn side_name<'a>(campaign: &'a Campaign, side: &'a SideId) -> &'a str {
    campaign.side(side).map_or(side.as_str(), |s| s.name.as_str())
}

/// "" for one, "s" for more.
pub fn plural(n: u32) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// "2 game moves, 38 miles (24 hours); no losses": the forecast's own words
/// (`MarchForecast::text`), which `umpire route` prints too.
pub fn forecast_text(f: &MarchForecast, forced: bool) -> String {
    f.text(forced)
}

/// How a force goes, for a march's line: "Forced march", "Marching", "By
/// train", "By steamer" (with `capital`), else "forced march", "march", "by
/// train", "by steamer".
pub fn march_words(forced: bool, by: crate::model::Conveyance, capital: bool) -> &'static str {
    use crate::model::Conveyance;
    match (by, forced, capital) {
        (Conveyance::Rail, _, true) => "By train",
        (Conveyance::River, _, true) => "By steamer",
        (Conveyance::Rail | Conveyance::River, _, false) => by.phrase(),
        (Conveyance::Foot, true, true) => "Forced march",
        (Conveyance::Foot, true, false) => "forced march",
        (Conveyance::Foot, false, true) => "Marching",
        (Conveyance::Foot, false, false) => "march",
    }
}

/// A force's supply line in words: where it is supplied from, or where it is cut.
pub fn supply_text(campaign: &Campaign, line: &SupplyLine) -> String {
    let names = |list: &[RegionId]| -> String {
        list.iter()
            .map(|r| campaign.map.region_name(r))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if line.supplied {
        format!(
            "Supplied from {} by {} road{}",
            line.route.last().map_or("?", |r| campaign.map.region_name(r)),
            line.route.len().saturating_sub(1),
            if line.route.len() == 2 { "" } else { "s" }
        )
    } else if line.route.is_empty() {
        format!(
            "Cut off: no road leads to a held HQ; {} game move{} before it loses stands",
            line.moves_before_losses,
            plural(line.moves_before_losses)
        )
    } else {
        format!(
            "Cut off at {} ({} game moves cut so far); {} before it loses a stand each move (after {}, Strategic Rules 2.2)",
            names(&line.cuts),
            line.cut_moves,
            match line.moves_before_losses {
                0 => "none left".to_owned(),
                n => format!("{n} game move{}", plural(n)),
            },
            campaign.house_rules.cut_moves_before_losses()
        )
    }
}

/// "Cairo" or "on the road from Cairo to Benha, 5.0 miles out".
pub fn where_is(campaign: &Campaign, force: &Force) -> String {
    match &force.en_route {
        None => campaign.map.region_name(&force.region).to_owned(),
        Some(e) => format!(
            "the road from {} to {}, {:.1} miles out",
            campaign.map.region_name(&force.region),
            campaign.map.region_name(&e.toward),
            e.miles
        ),
    }
}

/// The colour an enemy force is drawn in: its side's when in sight, paler
/// when only remembered.
pub fn mark_colour(colour: Color32, in_sight: bool) -> Color32 {
    if in_sight { colour } else { remembered(colour) }
}

/// A colour washed out towards grey: a force remembered, not seen now.
pub fn remembered(colour: Color32) -> Color32 {
    let grey = |c: u8| ((u16::from(c) + 2 * 150) / 3).min(255);
    Color32::from_rgb(
        u8::try_from(grey(colour.r())).unwrap_or(150),
        u8::try_from(grey(colour.g())).unwrap_or(150),
        u8::try_from(grey(colour.b())).unwrap_or(150),
    )
}

/// A stand's line: "1st Sikhs (infantry) 40/40".
pub fn stand_line(stand: &crate::model::Stand) -> String {
    format!(
        "{} ({}) {}/{}",
        stand.name,
        stand.kind.label(),
        stand.strength,
        stand.full
    )
}
