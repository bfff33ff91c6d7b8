//! The tournament: whole campaigns played to their end between opponents,
//! each side's orders from its own report, battles fought by the rules
//! engine, on generated balanced maps or a given campaign.
//!
//! The referee here holds the campaign; the opponents never see it (they
//! are called with [`Report::of`] only). Pure: no file is read or written.

use crate::ai::{Memory, Opponent, decide};
use crate::map_tools::generate::{GenerateOptions, Layout, generate_map};
use crate::model::end::{AllHqs, EndRules, Standing};
use crate::model::report::Report;
use crate::model::{
    ArmyKind, BattleStatus, Campaign, Colour, DEFAULT_MILES_PER_INCH, Date, Event, Fatigue, Force, ForceId,
    Hq, Quality, RegionId, RngState, RuleSetId, Side, SideId, Stand, StandId, StandKind, StandingOrder,
    Supply, Transport, Wing,
};
use crate::strategy::aftermath::Verdict;
use crate::strategy::{check_leaving_out, resolve};
use std::collections::HashMap;

/// How one campaign ended.
#[derive(Debug, Clone, PartialEq)]
pub struct Played {
    /// The winner by the seeds' measure (HQs, then points); `None` a draw.
    pub winner: Option<SideId>,
    pub standing: Standing,
    /// Each side's points lost, in the campaign's side order.
    pub points_lost: Vec<(SideId, u64)>,
    pub moves: u32,
    pub battles: usize,
    /// Orders an opponent gave that the orders check refused (dropped).
    pub refused_orders: usize,
    /// Battles that could not be set up, fought or applied (they stay pending).
    pub unfought: usize,
    /// Game move by game move: each side's log and the events, in sentences.
    pub trace: Vec<String>,
}

/// A balanced two-side campaign on a generated map of `regions` regions:
/// Red's three HQs at the west end, Blue's at the east, the same forces each
/// (a main body and a scout at the centre HQ, a garrison at each wing's),
/// ending after `last_move` game moves or when a side holds every enemy HQ.
pub fn balanced_campaign(regions: usize, seed: u64, last_move: u32) -> Option<Campaign> {
    let map = generate_map(&GenerateOptions {
        regions: regions.max(12),
        seed,
        layout: Layout::Voronoi,
    })
    .ok()?;
    let mut by_x: Vec<usize> = (0..map.regions.len()).collect();
    by_x.sort_by(|a, b| {
        let x = |i: usize| map.regions.get(i).map_or(0.0, |r| r.x);
        x(*a).total_cmp(&x(*b))
    });
    let end_regions = |from_west: bool| -> Vec<RegionId> {
        let take = (map.regions.len() / 6).max(3);
        let mut ends: Vec<usize> = if from_west {
            by_x.iter().take(take).copied().collect()
        } else {
            by_x.iter().rev().take(take).copied().collect()
        };
        // North to south: left, centre, right wing facing the enemy; three spread apart.
        ends.sort_by(|a, b| {
            let y = |i: usize| map.regions.get(i).map_or(0.0, |r| r.y);
            y(*a).total_cmp(&y(*b))
        });
        let pick = |k: usize| {
            ends.get(k * (ends.len() - 1) / 2)
                .and_then(|&i| map.regions.get(i))
                .map(|r| r.id.clone())
        };
        (0..3).filter_map(pick).collect()
    };
    let (west, east) = (end_regions(true), end_regions(false));
    if west.len() < 3 || east.len() < 3 {
        return None;
    }
    let mut next_stand = 1u32;
    let mut stands = |kind: StandKind, count: u32| -> Vec<Stand> {
        (0..count)
            .map(|_| {
                let id = next_stand;
                next_stand += 1;
                Stand {
                    id: StandId(id),
                    name: format!("{} {id}", kind.label()),
                    kind,
                    quality: Quality::Trained,
                    strength: kind.roster_points(),
                    full: kind.roster_points(),
                }
            })
            .collect()
    };
    let mut forces = Vec::new();
    let mut hqs = Vec::new();
    for (side, name, places) in [("red", "Red", &west), ("blue", "Blue", &east)] {
        for (wing, region) in Wing::ALL.iter().zip(places.iter()) {
            hqs.push(Hq {
                side: SideId::new(side),
                wing: *wing,
                region: region.clone(),
                name: None,
                held_by: SideId::new(side),
                captured_turn: None,
            });
        }
        let force = |id: String, label: String, region: &RegionId, stands: Vec<Stand>| Force {
            id: ForceId::new(id),
            name: label,
            side: SideId::new(side),
            region: region.clone(),
            stands,
            en_route: None,
            order: StandingOrder::Hold,
            fatigue: Fatigue::default(),
            supply: Supply::default(),
            fallen_out: Vec::new(),
        };
        let [left, centre, right] = places.as_slice() else {
            return None;
        };
        let mut main = stands(StandKind::LineInfantry, 8);
        main.extend(stands(StandKind::HeavyCavalry, 2));
        main.extend(stands(StandKind::FootArtillery, 2));
        forces.push(force(
            format!("{side}-main"),
            format!("{name} Main Body"),
            centre,
            main,
        ));
        forces.push(force(
            format!("{side}-scouts"),
            format!("{name} Scouts"),
            centre,
            stands(StandKind::LightCavalry, 2),
        ));
        for (wing, region) in [("left", left), ("right", right)] {
            let mut garrison = stands(StandKind::LineInfantry, 3);
            garrison.extend(stands(StandKind::FootArtillery, 1));
            forces.push(force(
                format!("{side}-{wing}"),
                format!("{name} {} Brigade", capital(wing)),
                region,
                garrison,
            ));
        }
    }
    let side = |id: &str, name: &str, colour: [u8; 3]| Side {
        id: SideId::new(id),
        name: name.to_owned(),
        colour: Colour(colour),
        army: ArmyKind::Regular,
    };
    let mut campaign = Campaign {
        title: format!("Tournament campaign {seed}"),
        description: None,
        map,
        turn: 1,
        start_turn: 1,
        start_date: Date::from_ymd(1895, 3, 1)?,
        days_per_turn: 1,
        rules: RuleSetId::Scruby1965,
        rng: RngState::new(seed),
        miles_per_inch: DEFAULT_MILES_PER_INCH,
        transport: Transport::default(),
        sides: vec![
            side("red", "Red Army", [200, 40, 40]),
            side("blue", "Blue Army", [40, 60, 200]),
        ],
        hqs,
        forces,
        battles: Vec::new(),
        knowledge: Default::default(),
        reinforcements: Vec::new(),
        replacements: Vec::new(),
        house_rules: Default::default(),
        end: Default::default(),
    };
    campaign.end.rules = EndRules {
        last_move: Some(last_move),
        all_hqs: Some(AllHqs::Enemy),
        ..EndRules::default()
    };
    Some(campaign)
}

fn capital(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// Plays `campaign` to its end (or `max_moves` game moves) with each side's
/// orders from its opponent; every pending battle fought by the engine after
/// each game move.
pub fn play(mut campaign: Campaign, players: &[(SideId, Opponent)], seed: u64, max_moves: u32) -> Played {
    let start: HashMap<SideId, u64> = campaign
        .sides
        .iter()
        .map(|s| (s.id.clone(), campaign.forces_of(&s.id).map(Force::points).sum()))
        .collect();
    let mut log: Vec<Event> = Vec::new();
    let mut memories: HashMap<SideId, Memory> = HashMap::new();
    let mut moves = 0;
    let mut battles = 0;
    let mut refused_orders = 0;
    let mut trace = Vec::new();
    let mut unfought = 0;
    while moves < max_moves && campaign.end.ended.is_none() {
        let mut sets = Vec::new();
        for (k, (side, opponent)) in players.iter().enumerate() {
            let Some(report) = Report::of(&campaign, side, &log) else {
                continue;
            };
            let memory = memories.get(side).cloned().unwrap_or_default();
            let decision = decide(*opponent, &report, &memory, seed.wrapping_add(k as u64 * 7919));
            trace.extend(
                decision
                    .log
                    .iter()
                    .map(|line| format!("move {} {side}: {line}", campaign.turn)),
            );
            memories.insert(side.clone(), decision.memory);
            let (set, refused) = check_leaving_out(&campaign, side, decision.requests);
            refused_orders += refused.len();
            trace.extend(refused.iter().map(|(request, p)| {
                format!(
                    "move {} {side}: order for {} refused: {}",
                    campaign.turn, request.force, p.message
                )
            }));
            sets.push(set);
        }
        let outcome = resolve(&campaign, &sets);
        campaign = outcome.campaign;
        trace.extend(
            outcome
                .events
                .iter()
                .map(|e| format!("move {}: {}", e.turn, e.sentence)),
        );
        log.extend(outcome.events);
        moves += 1;
        let pending: Vec<u32> = campaign
            .battles
            .iter()
            .filter(|b| b.status == BattleStatus::Pending)
            .map(|b| b.id)
            .collect();
        for id in pending {
            let handoff = match crate::handoff::build(&campaign, id, campaign.rules) {
                Ok(handoff) => handoff,
                Err(e) => {
                    trace.push(format!(
                        "move {}: battle {id} could not be set up: {e}",
                        campaign.turn
                    ));
                    unfought += 1;
                    continue;
                }
            };
            let outcome = match crate::rules::fight(&handoff.scenario, campaign.rules, handoff.scenario.seed)
            {
                Ok(outcome) => outcome,
                Err(e) => {
                    trace.push(format!(
                        "move {}: battle {id} could not be fought: {e}",
                        campaign.turn
                    ));
                    unfought += 1;
                    continue;
                }
            };
            let verdict = Verdict::from_outcome(&outcome);
            match crate::strategy::aftermath::apply(&campaign, id, &verdict) {
                Ok((mut after, events)) => {
                    crate::strategy::end::restand(&mut after);
                    campaign = after;
                    trace.extend(events.iter().map(|e| format!("move {}: {}", e.turn, e.sentence)));
                    log.extend(events);
                    battles += 1;
                }
                Err(e) => {
                    trace.push(format!(
                        "move {}: battle {id}'s result could not be applied: {e}",
                        campaign.turn
                    ));
                    unfought += 1;
                }
            }
        }
    }
    let standing = campaign
        .end
        .ended
        .as_ref()
        .map_or_else(|| Standing::of(&campaign), |e| e.standing.clone());
    let points_lost = campaign
        .sides
        .iter()
        .map(|s| {
            let now: u64 = campaign.forces_of(&s.id).map(Force::points).sum();
            (
                s.id.clone(),
                start.get(&s.id).copied().unwrap_or(0).saturating_sub(now),
            )
        })
        .collect();
    Played {
        winner: standing.winner.clone(),
        standing,
        points_lost,
        moves,
        battles,
        refused_orders,
        unfought,
        trace,
    }
}

/// One line of the tournament's table: `first` against `second`, each
/// playing Red in half the campaigns and Blue in the other half.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tally {
    pub campaigns: usize,
    pub first_wins: usize,
    pub second_wins: usize,
    pub draws: usize,
    /// HQs held at the end, summed over the campaigns.
    pub first_hqs: usize,
    pub second_hqs: usize,
    pub first_points_lost: u64,
    pub second_points_lost: u64,
    pub battles: usize,
    pub refused_orders: usize,
    /// Battles that could not be fought (see [`Played::unfought`]).
    pub unfought: usize,
    /// Campaigns and `first`'s wins with `first` on the campaign's first
    /// side (Red on a generated map), then on its second: "playing either side".
    pub by_side: [(usize, usize); 2],
}

/// Where a tournament's campaigns are played.
#[derive(Debug, Clone)]
pub enum Field {
    /// Balanced campaigns on generated maps of this many regions (`balanced_campaign`).
    Generated { regions: usize },
    /// This campaign (its first two sides), its random stream seeded afresh each time.
    Given(Box<Campaign>),
}

/// Campaign `k` of a tournament on `field`: the campaign, its first two
/// sides, the seed of its run (a pair of campaigns, sides swapped, per seed)
/// and the game moves to play: a generated campaign one more than its
/// `last_move` (so its end comes), a given one `last_move` unless it ends sooner.
pub fn campaign_of(
    field: &Field,
    k: usize,
    seed: u64,
    last_move: u32,
) -> Option<(Campaign, [SideId; 2], u64, u32)> {
    let run_seed = seed.wrapping_add((k / 2) as u64);
    let (campaign, max_moves) = match field {
        Field::Generated { regions } => (balanced_campaign(*regions, run_seed, last_move)?, last_move + 1),
        Field::Given(campaign) => {
            let mut campaign = (**campaign).clone();
            campaign.rng = RngState::new(campaign.rng.seed ^ run_seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            (campaign, last_move)
        }
    };
    let sides = match campaign.sides.as_slice() {
        [a, b, ..] => [a.id.clone(), b.id.clone()],
        _ => return None,
    };
    Some((campaign, sides, run_seed, max_moves))
}

/// `campaigns` campaigns of `first` against `second` on `field` (seeds from
/// `seed`), sides swapped every other campaign, each played to its end or
/// `last_move` game moves.
pub fn tally(
    first: Opponent,
    second: Opponent,
    campaigns: usize,
    field: &Field,
    seed: u64,
    last_move: u32,
) -> Tally {
    use rayon::prelude::*;
    let results: Vec<(usize, SideId, SideId, Played)> = (0..campaigns)
        .into_par_iter()
        .filter_map(|k| {
            let (campaign, [a, b], run_seed, max_moves) = campaign_of(field, k, seed, last_move)?;
            let (first_side, second_side) = if k % 2 == 0 { (a, b) } else { (b, a) };
            let players = [(first_side.clone(), first), (second_side.clone(), second)];
            Some((
                k % 2,
                first_side,
                second_side,
                play(campaign, &players, run_seed ^ 0x5EED, max_moves),
            ))
        })
        .collect();
    let mut t = Tally::default();
    for (as_side, first_side, second_side, played) in results {
        t.campaigns += 1;
        let first_won = played.winner.as_ref() == Some(&first_side);
        if let Some((n, won)) = t.by_side.get_mut(as_side) {
            *n += 1;
            *won += usize::from(first_won);
        }
        match played.winner.as_ref() {
            Some(w) if *w == first_side => t.first_wins += 1,
            Some(w) if *w == second_side => t.second_wins += 1,
            _ => t.draws += 1,
        }
        for s in &played.standing.sides {
            if s.side == first_side {
                t.first_hqs += s.hqs;
            } else if s.side == second_side {
                t.second_hqs += s.hqs;
            }
        }
        for (side, lost) in &played.points_lost {
            if *side == first_side {
                t.first_points_lost += lost;
            } else if *side == second_side {
                t.second_points_lost += lost;
            }
        }
        t.battles += played.battles;
        t.refused_orders += played.refused_orders;
        t.unfought += played.unfought;
    }
    t
}
