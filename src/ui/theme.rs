//! Colours of the map and the app, in one place.

use crate::model::Terrain;
use egui::Color32;

pub const MAP_GROUND: Color32 = Color32::from_rgb(232, 214, 168);
pub const ROAD: Color32 = Color32::from_rgb(120, 72, 40);
pub const TRACK: Color32 = Color32::from_rgb(160, 120, 80);
pub const RAILWAY: Color32 = Color32::from_rgb(40, 40, 40);
pub const RIVER: Color32 = Color32::from_rgb(70, 130, 200);
/// Lakes and the sea (`[[waters]]` areas), and their coast line.
pub const WATER: Color32 = Color32::from_rgb(168, 200, 230);
pub const COAST: Color32 = Color32::from_rgb(79, 127, 174);
/// A territory's border (`ui::map_shapes`).
pub const BORDER: Color32 = Color32::from_rgba_premultiplied(66, 59, 48, 150);
pub const BRIDGE: Color32 = Color32::from_rgb(60, 60, 60);
pub const FORD: Color32 = Color32::from_rgb(240, 240, 240);
pub const REGION_DOT: Color32 = Color32::from_rgb(70, 60, 50);
pub const LABEL: Color32 = Color32::from_rgb(70, 60, 50);
pub const LABEL_STRONG: Color32 = Color32::from_rgb(30, 25, 20);
pub const NOTE_FILL: Color32 = Color32::from_rgba_premultiplied(250, 246, 232, 235);
pub const FLAGPOLE: Color32 = Color32::from_rgb(50, 40, 30);
pub const COUNTER_EDGE: Color32 = Color32::from_rgb(20, 20, 20);
pub const SELECTED: Color32 = Color32::from_rgb(255, 200, 0);
pub const CUT_OFF: Color32 = Color32::from_rgb(220, 30, 30);
pub const ROUTE: Color32 = Color32::from_rgb(30, 60, 160);
pub const FORCED: Color32 = Color32::from_rgb(200, 90, 0);
/// A journey by train, on the map.
pub const RAIL_ROUTE: Color32 = Color32::from_rgb(120, 30, 130);
/// A journey by steamer, on the map.
pub const RIVER_ROUTE: Color32 = Color32::from_rgb(0, 105, 150);
pub const BATTLE: Color32 = Color32::from_rgb(180, 0, 60);
pub const ERROR: Color32 = Color32::from_rgb(200, 30, 30);
pub const GOOD: Color32 = Color32::from_rgb(30, 130, 50);

/// A route's colour on the map and in the inspector: by train, by steamer,
/// forced march, march.
pub fn route(forced: bool, by: crate::model::Conveyance) -> Color32 {
    use crate::model::Conveyance;
    match by {
        Conveyance::Rail => RAIL_ROUTE,
        Conveyance::River => RIVER_ROUTE,
        Conveyance::Foot if forced => FORCED,
        Conveyance::Foot => ROUTE,
    }
}

/// The fill of a region's area on the map, by its ground.
pub fn terrain(terrain: Terrain) -> Color32 {
    let (r, g, b) = match terrain {
        Terrain::Open => (214, 222, 160),
        Terrain::Desert => (232, 205, 140),
        Terrain::Cultivated => (160, 200, 110),
        Terrain::Hills => (190, 160, 110),
        Terrain::Mountains => (150, 125, 100),
        Terrain::Forest => (90, 150, 80),
        Terrain::Marsh => (140, 180, 170),
        Terrain::Urban => (185, 170, 160),
    };
    Color32::from_rgba_unmultiplied(r, g, b, 200)
}

/// The fill of a blind's counter: a marker with a number, no strength.
pub const BLIND_FILL: Color32 = Color32::from_rgb(250, 246, 232);
