//! The map sheet: what `umpire map` prints for people writing orders. Regions
//! with who holds them as the viewer knows it, roads with their miles and the
//! march hours of each arm (the movement chart), and the HQs. Pure.
//!
//! Who holds a region is read from a `Status`, the umpire's or a side's
//! (`Status::for_side`), so a side's sheet knows of the enemy exactly what its
//! status and report tell it: its own forces, the enemy forces it last saw
//! (as blinds too), and the HQs, which are public. Regions are held as the
//! game move holds them (`supply::Holding`): by the forces in them, not on the
//! road out; with no forces there, by whoever holds an HQ there.

use super::movement::{MARCH_HOURS_PER_DAY, MoveClass, inches, percent_of_chart};
use crate::model::status::Status;
use crate::model::{Campaign, Feature, RoadKind, Terrain, Wing};
use serde::Serialize;
use std::collections::BTreeSet;

/// The arms of the movement chart, in its order, with the names the sheet gives them.
pub const ARMS: [(MoveClass, &str); 4] = [
    (MoveClass::Infantry, "infantry"),
    (MoveClass::LightInfantry, "light_infantry"),
    (MoveClass::LightCavalry, "light_cavalry"),
    (MoveClass::HeavyCavalry, "heavy_cavalry"),
];

#[derive(Debug, Clone, Serialize)]
pub struct MapSheet {
    pub title: String,
    pub map: String,
    pub turn: u32,
    /// Whose view: a side's id, or `None` for the umpire's.
    pub view: Option<String>,
    pub miles_per_inch: f64,
    pub regions: Vec<RegionEntry>,
    pub roads: Vec<RoadEntry>,
    pub hqs: Vec<HqEntry>,
}

#[derive(Debug, Clone, Serialize)]
pub struct RegionEntry {
    pub id: String,
    pub name: String,
    pub terrain: Terrain,
    pub features: Vec<Feature>,
    /// The sides holding it as the viewer knows it (two or more: contested);
    /// empty when it knows of no one there.
    pub held_by: Vec<String>,
    /// For a side's view: held as last seen, not in sight now.
    pub last_seen: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct RoadEntry {
    pub from: String,
    pub from_name: String,
    pub to: String,
    pub to_name: String,
    pub name: Option<String>,
    pub kind: RoadKind,
    pub miles: f64,
    /// A river or canal with no crossing: no army marches on it.
    pub impassable: bool,
    /// Hours of marching from `from` to `to` and back, for each arm of the
    /// movement chart (a force marches at its slowest stand's).
    pub hours: Vec<ArmHours>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ArmHours {
    /// `infantry` (with the guns and the train), `light_infantry` (with native
    /// foot), `light_cavalry`, `heavy_cavalry` (with mounted infantry and horse
    /// artillery).
    pub arm: &'static str,
    pub there: f64,
    pub back: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct HqEntry {
    /// The side whose HQ it is.
    pub side: String,
    pub wing: Wing,
    pub name: String,
    pub region: String,
    pub region_name: String,
    /// The side holding it now (HQs are public).
    pub held_by: String,
}

impl MapSheet {
    /// The sheet of `campaign` as `status` sees it: the umpire's `Status::of`
    /// or a side's `Status::for_side`.
    pub fn of(campaign: &Campaign, status: &Status) -> MapSheet {
        let map = &campaign.map;
        let mut held: rustc_hash::FxHashMap<&str, BTreeSet<&str>> = Default::default();
        let mut remembered: rustc_hash::FxHashMap<&str, BTreeSet<&str>> = Default::default();
        for side in &status.sides {
            for force in side
                .forces
                .iter()
                .filter(|f| f.en_route.is_none() && !f.stands.is_empty())
            {
                held.entry(force.region.as_str())
                    .or_default()
                    .insert(side.id.as_str());
            }
        }
        for known in status.known.iter().filter(|k| k.en_route.is_none()) {
            let into = if known.in_sight {
                &mut held
            } else {
                &mut remembered
            };
            into.entry(known.region.as_str())
                .or_default()
                .insert(known.side.as_str());
        }
        let regions = map
            .regions
            .iter()
            .map(|r| {
                let id = r.id.as_str();
                let (held_by, last_seen) = match (held.get(id), remembered.get(id)) {
                    (Some(sides), _) => (sides.iter().map(|s| (*s).to_owned()).collect(), false),
                    (None, Some(sides)) => (sides.iter().map(|s| (*s).to_owned()).collect(), true),
                    (None, None) => (
                        campaign
                            .hqs
                            .iter()
                            .filter(|hq| hq.region == r.id)
                            .map(|hq| hq.held_by.to_string())
                            .collect::<BTreeSet<_>>()
                            .into_iter()
                            .collect(),
                        false,
                    ),
                };
                RegionEntry {
                    id: id.to_owned(),
                    name: r.name.clone(),
                    terrain: r.terrain,
                    features: r.features.clone(),
                    held_by,
                    last_seen,
                }
            })
            .collect();
        let terrain = |id| map.region(id).map_or(Terrain::Open, |r| r.terrain);
        let miles_an_inch = campaign.miles_per_inch;
        let march = &campaign.house_rules.march_percent;
        let hours = |class, kind, from, to, miles: f64| {
            let per_move =
                inches(class, kind, from, to) * percent_of_chart(march, class) / 100.0 * miles_an_inch;
            if kind == RoadKind::River {
                // Only steamers use a river (`by = "river"`): nobody marches there.
                f64::INFINITY
            } else if per_move > 0.0 {
                miles / per_move * f64::from(MARCH_HOURS_PER_DAY)
            } else {
                f64::INFINITY
            }
        };
        let roads = map
            .roads
            .iter()
            .map(|road| {
                let (a, b) = (terrain(&road.from), terrain(&road.to));
                RoadEntry {
                    from: road.from.to_string(),
                    from_name: map.region_name(&road.from).to_owned(),
                    to: road.to.to_string(),
                    to_name: map.region_name(&road.to).to_owned(),
                    name: road.name.clone(),
                    kind: road.kind,
                    miles: road.miles,
                    impassable: road.river == Some(crate::model::RiverCrossing::None),
                    hours: ARMS
                        .iter()
                        .map(|&(class, arm)| ArmHours {
                            arm,
                            there: hours(class, road.kind, a, b, road.miles),
                            back: hours(class, road.kind, b, a, road.miles),
                        })
                        .collect(),
                }
            })
            .collect();
        let hqs = campaign
            .hqs
            .iter()
            .map(|hq| HqEntry {
                side: hq.side.to_string(),
                wing: hq.wing,
                name: hq.label(
                    campaign
                        .side(&hq.side)
                        .map_or(hq.side.as_str(), |s| s.name.as_str()),
                ),
                region: hq.region.to_string(),
                region_name: map.region_name(&hq.region).to_owned(),
                held_by: hq.held_by.to_string(),
            })
            .collect();
        MapSheet {
            title: campaign.title.clone(),
            map: map.name.clone(),
            turn: campaign.turn,
            view: status.view.clone(),
            miles_per_inch: campaign.miles_per_inch,
            regions,
            roads,
            hqs,
        }
    }
}
