//! The status report: what `umpire status` prints and its `--json` shape.
//!
//! The JSON shape is documented in README.md and kept stable: tests and other
//! tools read it. Add fields; never rename or remove one.

use super::campaign::{Campaign, Force, StandingOrder, Wing};
use super::house_rules::{Difference, differences};
use super::ids::SideId;
use super::knowledge::How;
use super::report::KnownForce;
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
    /// Battles waiting to be fought (in a side's view: those it is in).
    pub battles: Vec<BattleStatus>,
    /// Whose view this is: a side's id, or `None` for the umpire's, which shows everything.
    pub view: Option<String>,
    /// In a side's view: the other sides' forces as it last saw them. Empty in the umpire's.
    pub known: Vec<KnownStatus>,
    /// In the umpire's view: the troops still to come, one sentence each (none in a side's view).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub coming: Vec<String>,
    /// Every house rule in which the campaign differs from the seeds, public
    /// (every side plays by them). Left out when it plays the seeds' rules.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub house_rules: Vec<Difference>,
    /// The campaign file's end conditions in words; absent when it has none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub end_conditions: Vec<String>,
    /// Once the campaign has ended: when, why, the final standing and the winner.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ended: Option<EndedStatus>,
}

/// The end of the campaign, as `status` shows it.
#[derive(Debug, Clone, Serialize)]
pub struct EndedStatus {
    /// The game move that met the condition, or at which the umpire declared the end.
    pub turn: u32,
    /// `last_move`, `last_date`, `all_hqs`, `below_share` or `declared`.
    pub condition: &'static str,
    /// Why, in words.
    pub why: String,
    /// Every side, best first: HQs held, then points.
    pub standing: Vec<StandingStatus>,
    /// The winner's side id; `None`: a draw.
    pub winner: Option<String>,
    pub winner_name: Option<String>,
    /// The outcome in a sentence: "Red Army Corps wins, holding 4 HQs to 2."
    pub outcome: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct StandingStatus {
    pub side: String,
    pub name: String,
    /// HQs held, its own and captured.
    pub hqs: usize,
    /// Roster points of all its stands.
    pub points: u64,
}

impl EndedStatus {
    fn of(campaign: &Campaign, ended: &super::end::Ended) -> EndedStatus {
        let name = |side: &SideId| {
            campaign
                .side(side)
                .map_or_else(|| side.to_string(), |s| s.name.clone())
        };
        EndedStatus {
            turn: ended.turn,
            condition: ended.why.condition(),
            why: ended.why_text(campaign),
            standing: ended
                .standing
                .sides
                .iter()
                .map(|s| StandingStatus {
                    side: s.side.to_string(),
                    name: name(&s.side),
                    hqs: s.hqs,
                    points: s.points,
                })
                .collect(),
            winner: ended.standing.winner.as_ref().map(|s| s.to_string()),
            winner_name: ended.standing.winner.as_ref().map(name),
            outcome: ended.standing.winner_text(campaign),
        }
    }
}

/// An enemy force as the viewing side knows it: a blind has no id, name or strength.
#[derive(Debug, Clone, Serialize)]
pub struct KnownStatus {
    /// The side's number for it: "blind 3".
    pub marker: u32,
    /// Whose force it is.
    pub side: String,
    pub side_name: String,
    pub blind: bool,
    pub id: Option<String>,
    pub name: Option<String>,
    /// Strength in roster points and stands when last seen in full.
    pub points: Option<u64>,
    pub stands: Option<usize>,
    /// Where it was last seen.
    pub region: String,
    pub region_name: String,
    pub en_route: Option<EnRouteStatus>,
    /// The game move in which it was last seen.
    pub seen_turn: u32,
    /// Seen at the end of the last game move; `false`: remembered.
    pub in_sight: bool,
    /// `vision`, `scouts` or `battle`.
    pub how: How,
}

#[derive(Debug, Clone, Serialize)]
pub struct BattleStatus {
    pub id: u32,
    /// The game move in which the forces met.
    pub turn: u32,
    pub region: String,
    pub region_name: String,
    pub attacker: String,
    pub defender: String,
    pub attacker_name: String,
    pub defender_name: String,
    pub forces: Vec<String>,
    pub reserves: Vec<String>,
    /// Force names, in the order of `forces` and `reserves`.
    pub force_names: Vec<String>,
    pub reserve_names: Vec<String>,
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
    /// Part-way along a road: where to and how far out.
    pub en_route: Option<EnRouteStatus>,
    /// `hold`, or `march` with the regions ahead.
    pub order: String,
    pub path: Vec<String>,
    /// The name of the last region of the march, if marching.
    pub destination_name: Option<String>,
    pub forced_march: bool,
    /// On a march by train or steamer; left out on foot.
    #[serde(skip_serializing_if = "crate::model::Conveyance::is_foot")]
    pub by: crate::model::Conveyance,
    /// On a march: the game move it arrives at the end of `path` (no enemy in
    /// the way), as `strategy::forecast::fill_arrivals` forecasts it; `None`
    /// when holding or not forecast.
    pub arrives_turn: Option<u32>,
    /// Forced marches made in a row; and whether it must rest this move.
    pub forced_in_row: u32,
    pub must_rest: bool,
    pub supply: SupplyStatus,
    /// Stands fallen out on a forced march waiting to rejoin (the house rule
    /// `rejoin_after_moves`), with the game move each may rejoin from. Left out when none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fallen_out: Vec<FallenOutStatus>,
}

#[derive(Debug, Clone, Serialize)]
pub struct FallenOutStatus {
    pub id: u32,
    pub name: String,
    /// The first game move at whose end it rejoins if the force is in supply.
    pub rejoins_turn: u32,
}

#[derive(Debug, Clone, Serialize)]
pub struct EnRouteStatus {
    pub toward: String,
    pub toward_name: String,
    pub miles: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct SupplyStatus {
    /// `supplied`, `cut` (no losses yet) or `attrition` (losing a stand each game move).
    pub state: &'static str,
    /// Game moves cut off in a row.
    pub cut_moves: u32,
    /// The game move from which it loses stands if still cut off.
    pub losses_from_turn: Option<u32>,
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

/// The reinforcements still to come and the replacements, one sentence
/// each: "Indian Contingent (British Field Force) at Suez: 4 stands, 290
/// points, due on game move 6".
fn coming(campaign: &Campaign) -> Vec<String> {
    let side_name = |id: &crate::model::SideId| {
        campaign
            .side(id)
            .map_or_else(|| id.to_string(), |s| s.name.clone())
    };
    let reinforcements = campaign.reinforcements.iter().map(|r| {
        let points: u64 = r.stands.iter().map(|s| u64::from(s.strength)).sum();
        format!(
            "{} ({}) at {}: {} stand{}, {points} points, {}",
            r.name,
            side_name(&r.side),
            campaign.map.region_name(&r.region),
            r.stands.len(),
            if r.stands.len() == 1 { "" } else { "s" },
            r.arrives.reason(side_name)
        )
    });
    let replacements = campaign.replacements.iter().map(|r| {
        let stands: Vec<String> = r.stands.iter().map(ToString::to_string).collect();
        format!(
            "replacements for the {}: {} every {} game moves at its {} HQ, while it holds it",
            side_name(&r.side),
            stands.join(", "),
            r.every,
            r.at
        )
    });
    reinforcements.chain(replacements).collect()
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
                        en_route: force.en_route.as_ref().map(|e| EnRouteStatus {
                            toward: e.toward.to_string(),
                            toward_name: map.region_name(&e.toward).to_owned(),
                            miles: e.miles,
                        }),
                        order: match force.order {
                            StandingOrder::Hold => "hold",
                            StandingOrder::March { .. } => "march",
                        }
                        .to_owned(),
                        path: match &force.order {
                            StandingOrder::Hold => Vec::new(),
                            StandingOrder::March { path, .. } => path.iter().map(|r| r.to_string()).collect(),
                        },
                        destination_name: match &force.order {
                            StandingOrder::Hold => None,
                            StandingOrder::March { path, .. } => {
                                path.last().map(|r| map.region_name(r).to_owned())
                            }
                        },
                        forced_march: matches!(force.order, StandingOrder::March { forced: true, .. }),
                        by: match force.order {
                            StandingOrder::March { by, .. } => by,
                            StandingOrder::Hold => crate::model::Conveyance::Foot,
                        },
                        arrives_turn: None,
                        forced_in_row: force.fatigue.forced_in_row,
                        must_rest: force.fatigue.must_rest,
                        supply: supply_status(campaign, force),
                        fallen_out: force
                            .fallen_out
                            .iter()
                            .map(|o| FallenOutStatus {
                                id: o.stand.id.0,
                                name: o.stand.name.clone(),
                                rejoins_turn: o
                                    .turn
                                    .saturating_add(campaign.house_rules.rejoin_after_moves.unwrap_or(0)),
                            })
                            .collect(),
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
        let side_name = |id: &super::SideId| {
            campaign
                .side(id)
                .map_or_else(|| id.to_string(), |s| s.name.clone())
        };
        let force_name = |id: &super::ForceId| {
            campaign
                .force(id)
                .map_or_else(|| id.to_string(), |f| f.name.clone())
        };
        Status {
            title: campaign.title.clone(),
            turn: campaign.turn,
            date: campaign
                .date()
                .map_or_else(|| "beyond the calendar".to_owned(), |d| d.to_string()),
            rules: campaign.rules.to_string(),
            map: map.name.clone(),
            house_rules: differences(campaign),
            sides,
            battles: campaign
                .battles
                .iter()
                .filter(|b| b.status == crate::model::BattleStatus::Pending)
                .map(|b| BattleStatus {
                    id: b.id,
                    turn: b.turn,
                    region: b.region.to_string(),
                    region_name: map.region_name(&b.region).to_owned(),
                    attacker: b.attacker.to_string(),
                    defender: b.defender.to_string(),
                    attacker_name: side_name(&b.attacker),
                    defender_name: side_name(&b.defender),
                    force_names: b.forces.iter().map(&force_name).collect(),
                    reserve_names: b.reserves.iter().map(&force_name).collect(),
                    forces: b.forces.iter().map(|f| f.to_string()).collect(),
                    reserves: b.reserves.iter().map(|f| f.to_string()).collect(),
                })
                .collect(),
            view: None,
            known: Vec::new(),
            coming: coming(campaign),
            end_conditions: campaign.end.rules.texts(),
            ended: campaign
                .end
                .ended
                .as_ref()
                .map(|ended| EndedStatus::of(campaign, ended)),
        }
    }

    /// What `side` knows: its own forces in full; the other sides' forces
    /// only as it last saw them (in `known`; their `forces` are empty and
    /// their `points`, `full_points` and `stands` count only the forces it
    /// last saw in full, as they looked then); only the battles it is in;
    /// HQs, public, for all. `None` when the campaign has no such side.
    pub fn for_side(campaign: &Campaign, side: &SideId) -> Option<Status> {
        campaign.side(side)?;
        let mut status = Status::of(campaign);
        status.coming = Vec::new();
        let known: Vec<KnownForce> = campaign.knowledge.of(side).map(KnownForce::of).collect();
        for other in status.sides.iter_mut().filter(|s| s.id != side.as_str()) {
            let seen = || known.iter().filter(|k| k.side.as_str() == other.id && !k.blind);
            let points = seen().filter_map(|k| k.points).sum();
            other.stands = seen().filter_map(|k| k.stands).sum();
            other.points = points;
            other.full_points = points;
            other.forces = Vec::new();
        }
        status.battles.retain(|b| {
            campaign.battles.iter().any(|battle| {
                battle.id == b.id
                    && (&battle.attacker == side
                        || &battle.defender == side
                        || battle
                            .forces
                            .iter()
                            .any(|f| campaign.force(f).is_some_and(|f| &f.side == side)))
            })
        });
        let map = &campaign.map;
        status.known = known
            .into_iter()
            .map(|k| KnownStatus {
                marker: k.marker,
                side_name: campaign
                    .side(&k.side)
                    .map_or_else(|| k.side.to_string(), |s| s.name.clone()),
                side: k.side.to_string(),
                blind: k.blind,
                id: k.id.map(|i| i.to_string()),
                name: k.name,
                points: k.points,
                stands: k.stands,
                region_name: map.region_name(&k.region).to_owned(),
                region: k.region.to_string(),
                en_route: k.en_route.as_ref().map(|e| EnRouteStatus {
                    toward: e.toward.to_string(),
                    toward_name: map.region_name(&e.toward).to_owned(),
                    miles: e.miles,
                }),
                seen_turn: k.seen_turn,
                in_sight: k.in_sight,
                how: k.how,
            })
            .collect();
        status.view = Some(side.to_string());
        Some(status)
    }
}

fn supply_status(campaign: &Campaign, force: &Force) -> SupplyStatus {
    let cut = force.supply.cut_moves;
    let grace = campaign.house_rules.cut_moves_before_losses();
    SupplyStatus {
        state: match cut {
            0 => "supplied",
            n if n <= grace => "cut",
            _ => "attrition",
        },
        cut_moves: cut,
        // Cut for `cut` moves up to the last; the next move is cut move cut+1.
        losses_from_turn: (cut > 0).then(|| campaign.turn + grace.saturating_sub(cut)),
    }
}
