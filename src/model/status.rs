//! The status report: what `umpire status` prints and its `--json` shape.
//!
//! The JSON shape is documented in README.md and kept stable: tests and other
//! tools read it. Add fields; never rename or remove one.

use super::campaign::{Campaign, Wing};
use super::stand::{Quality, StandKind};
use serde::Serialize;

#[derive(Debug, Clone, Serialize)]
pub struct Status {
    pub title: String,
    pub turn: u32,
    /// `YYYY-MM-DD` of the current game move.
    pub date: String,
    pub rules: String,
    pub map: String,
    pub sides: Vec<SideStatus>,
}

#[derive(Debug, Clone, Serialize)]
pub struct SideStatus {
    pub id: String,
    pub name: String,
    pub army: String,
    pub colour: String,
    /// Current strength of all its stands, in roster points.
    pub points: u64,
    pub full_points: u64,
    pub stands: usize,
    /// HQs this side holds now, its own and any it captured.
    pub hqs_held: Vec<HqStatus>,
    pub forces: Vec<ForceStatus>,
}

#[derive(Debug, Clone, Serialize)]
pub struct HqStatus {
    /// The side whose HQ it is.
    pub side: String,
    pub wing: Wing,
    pub name: String,
    pub region: String,
    pub region_name: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct ForceStatus {
    pub id: String,
    pub name: String,
    pub region: String,
    pub region_name: String,
    pub points: u64,
    pub full_points: u64,
    pub stands: Vec<StandStatus>,
}

#[derive(Debug, Clone, Serialize)]
pub struct StandStatus {
    pub id: u32,
    pub name: String,
    pub kind: StandKind,
    pub quality: Quality,
    pub strength: u32,
    pub full: u32,
}

impl Status {
    pub fn of(campaign: &Campaign) -> Status {
        let map = &campaign.map;
        let sides = campaign
            .sides
            .iter()
            .map(|side| {
                let forces: Vec<ForceStatus> = campaign
                    .forces_of(&side.id)
                    .map(|force| ForceStatus {
                        id: force.id.to_string(),
                        name: force.name.clone(),
                        region: force.region.to_string(),
                        region_name: map.region_name(&force.region).to_owned(),
                        points: force.points(),
                        full_points: force.full_points(),
                        stands: force
                            .stands
                            .iter()
                            .map(|s| StandStatus {
                                id: s.id.0,
                                name: s.name.clone(),
                                kind: s.kind,
                                quality: s.quality,
                                strength: s.strength,
                                full: s.full,
                            })
                            .collect(),
                    })
                    .collect();
                SideStatus {
                    id: side.id.to_string(),
                    name: side.name.clone(),
                    army: side.army.to_string(),
                    colour: side.colour.to_string(),
                    points: forces.iter().map(|f| f.points).sum(),
                    full_points: forces.iter().map(|f| f.full_points).sum(),
                    stands: forces.iter().map(|f| f.stands.len()).sum(),
                    hqs_held: campaign
                        .hqs_held_by(&side.id)
                        .map(|hq| HqStatus {
                            side: hq.side.to_string(),
                            wing: hq.wing,
                            name: hq.label(
                                campaign
                                    .side(&hq.side)
                                    .map_or(hq.side.as_str(), |s| s.name.as_str()),
                            ),
                            region: hq.region.to_string(),
                            region_name: map.region_name(&hq.region).to_owned(),
                        })
                        .collect(),
                    forces,
                }
            })
            .collect();
        Status {
            title: campaign.title.clone(),
            turn: campaign.turn,
            date: campaign
                .date()
                .map_or_else(|| "beyond the calendar".to_owned(), |d| d.to_string()),
            rules: campaign.rules.to_string(),
            map: map.name.clone(),
            sides,
        }
    }
}
