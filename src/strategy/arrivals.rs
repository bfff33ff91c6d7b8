//! Troops arriving in the game move: the campaign file's reinforcements on
//! their game move, date or HQ's fall, and each side's replacements at an HQ
//! it holds.
//!
//! The seeds are silent on both (the Strategic Rules of
//! `scruby-basic-war-game-rules.txt` and the 1961 Jumbo game fix each side's
//! troops at the start); what follows is this program's choice, for issue 16:
//!
//! - Troops arrive once the marching of the game move is done and before
//!   battles are made, so a reinforcement landing where the enemy stands
//!   makes a battle (or joins the one there) as any force that marched in,
//!   as the side that moved in last; it marches on its orders from the next game move.
//! - A reinforcement `when = "hq_lost"` comes in the first game move that
//!   begins with that HQ in enemy hands (an HQ falls after battles, so the
//!   move after it fell).
//! - Replacements come in game moves `start_turn + every`, `+ 2 × every`, ...
//!   while the side holds its HQ as the move begins; when the enemy holds it,
//!   none come, and the log says so. They join the first force of the side
//!   standing in the HQ's region, or form a new force there.
//!
//! Every arrival is an event; the fog, which looks once every force stands
//! where the move leaves it, sights the new troops by the same rules as a
//! force that marched in. Pure: no I/O, no panics.

use super::edit::{new_stands, next_stand_id};
use crate::model::event::{ReinforcementArrived, ReplacementsArrived, ReplacementsWithheld};
use crate::model::{
    Arrival, Campaign, EventKind, EventLog, Fatigue, Force, ForceId, RegionId, Reinforcement, SideId, Stand,
    StandId, StandingOrder, Supply,
};
use std::collections::HashSet;

/// Brings on the troops due in game move `turn`, telling each arrival (and
/// each draught withheld) into `events`. New stand ids start at `first_free`
/// or above: the id after the highest as the game move began, so a stand lost
/// earlier in the move (on a forced march) does not lend its id to a new one.
/// Returns the forces that came onto the map, by index into `state.forces`
/// (replacements joining a force already there are not among them).
pub(super) fn bring_on(
    state: &mut Campaign,
    turn: u32,
    first_free: u32,
    events: &mut EventLog,
) -> Vec<usize> {
    if state.reinforcements.is_empty() && state.replacements.is_empty() {
        return Vec::new();
    }
    let mut new_forces = reinforcements(state, turn, first_free, events);
    new_forces.extend(replacements(state, turn, first_free, events));
    new_forces
}

/// Whether `arrival` is due in game move `turn`.
fn due(state: &Campaign, arrival: &Arrival, turn: u32) -> bool {
    match arrival {
        Arrival::Turn { turn: on } => *on <= turn,
        Arrival::Date { date } => state.date_of_turn(turn).is_some_and(|today| today >= *date),
        Arrival::HqLost { side, wing } => state
            .hqs
            .iter()
            .any(|h| &h.side == side && h.wing == *wing && h.held_by != h.side),
    }
}

fn side_name(state: &Campaign, id: &SideId) -> String {
    state.side(id).map_or_else(|| id.to_string(), |s| s.name.clone())
}

/// `wanted`, or `wanted-2`, `wanted-3`... when a force of the campaign has
/// that id already (a force split off under it before the reinforcement came).
fn free_force_id(state: &Campaign, wanted: &str) -> ForceId {
    let taken = |id: &str| state.forces.iter().any(|f| f.id.as_str() == id);
    if !taken(wanted) {
        return ForceId::new(wanted);
    }
    (2u32..)
        .map(|n| format!("{wanted}-{n}"))
        .find(|id| !taken(id))
        .map_or_else(|| ForceId::new(wanted), ForceId::new)
}

/// Every stand's name, on the map, fallen out and waiting to rejoin, or still
/// to come: a save keeps each name once.
fn stand_names(state: &Campaign) -> HashSet<String> {
    state
        .forces
        .iter()
        .flat_map(|f| f.stands.iter().chain(f.fallen_out.iter().map(|o| &o.stand)))
        .chain(state.reinforcements.iter().flat_map(|r| &r.stands))
        .map(|s| s.name.clone())
        .collect()
}

fn force_names(state: &Campaign) -> HashSet<String> {
    state.forces.iter().map(|f| f.name.clone()).collect()
}

/// `wanted`, or the first of "`wanted` 2", "`wanted` 3"... not in `taken`, taken now.
fn unique(taken: &mut HashSet<String>, wanted: &str) -> String {
    let name = if taken.contains(wanted) {
        (2u32..)
            .map(|n| format!("{wanted} {n}"))
            .find(|n| !taken.contains(n))
            .unwrap_or_else(|| wanted.to_owned())
    } else {
        wanted.to_owned()
    };
    taken.insert(name.clone());
    name
}

fn stands_and_points(stands: &[Stand]) -> (String, u64) {
    let points: u64 = stands.iter().map(|s| u64::from(s.strength)).sum();
    let words = format!(
        "{} stand{}, {points} points",
        stands.len(),
        if stands.len() == 1 { "" } else { "s" }
    );
    (words, points)
}

fn new_force(id: ForceId, name: String, side: SideId, region: RegionId, stands: Vec<Stand>) -> Force {
    Force {
        fallen_out: Vec::new(),
        id,
        name,
        side,
        region,
        stands,
        en_route: None,
        order: StandingOrder::Hold,
        fatigue: Fatigue::default(),
        supply: Supply::default(),
    }
}

fn reinforcements(state: &mut Campaign, turn: u32, first_free: u32, events: &mut EventLog) -> Vec<usize> {
    let (arriving, waiting): (Vec<Reinforcement>, Vec<Reinforcement>) =
        std::mem::take(&mut state.reinforcements)
            .into_iter()
            .partition(|r| due(state, &r.arrives, turn));
    state.reinforcements = waiting;
    let mut new_forces = Vec::new();
    for r in arriving {
        // The file's stand ids were checked against every other; a stand the
        // pencil numbered by hand since may hold one: such a stand is numbered on.
        let mut used: HashSet<StandId> = state
            .forces
            .iter()
            .flat_map(|f| f.stands.iter().chain(f.fallen_out.iter().map(|o| &o.stand)))
            .chain(state.reinforcements.iter().flat_map(|w| &w.stands))
            .map(|s| s.id)
            .collect();
        let mut next = next_stand_id(state).max(first_free);
        let mut stands = r.stands;
        for stand in &mut stands {
            if !used.insert(stand.id) {
                stand.id = StandId(next.max(stand.id.0.saturating_add(1)));
                next = stand.id.0.saturating_add(1);
                used.insert(stand.id);
            }
        }
        let mut names = stand_names(state);
        for stand in &mut stands {
            stand.name = unique(&mut names, &stand.name);
        }
        let force_name = unique(&mut force_names(state), &r.name);
        let id = free_force_id(state, r.id.as_str());
        let (words, points) = stands_and_points(&stands);
        let why = r.arrives.reason(|s| side_name(state, s));
        let sentence = format!(
            "{force_name} of the {} arrives at {}: {words} (reinforcement, {why}).",
            side_name(state, &r.side),
            state.map.region_name(&r.region),
        );
        let kind = EventKind::ReinforcementArrived(ReinforcementArrived {
            force: id.clone(),
            side: r.side.clone(),
            region: r.region.clone(),
            stands: stands.iter().map(|s| s.id).collect(),
            points,
        });
        state
            .forces
            .push(new_force(id, force_name, r.side, r.region, stands));
        new_forces.push(state.forces.len() - 1);
        events.tell(kind, sentence);
    }
    new_forces
}

fn replacements(state: &mut Campaign, turn: u32, first_free: u32, events: &mut EventLog) -> Vec<usize> {
    let mut new_forces = Vec::new();
    for draught in state.replacements.clone() {
        if !draught.due(turn, state.start_turn) {
            continue;
        }
        let Some(hq) = state
            .hqs
            .iter()
            .find(|h| h.side == draught.side && h.wing == draught.at)
            .cloned()
        else {
            continue;
        };
        let side = side_name(state, &draught.side);
        let label = hq.label(&side);
        let place = state.map.region_name(&hq.region).to_owned();
        if hq.held_by != draught.side {
            let held_by = side_name(state, &hq.held_by);
            events.tell(
                EventKind::ReplacementsWithheld(ReplacementsWithheld {
                    side: draught.side.clone(),
                    wing: draught.at,
                    region: hq.region.clone(),
                    held_by: hq.held_by.clone(),
                }),
                format!(
                    "No replacements reach the {side} at {place}: the {label} is in the hands of the {held_by}."
                ),
            );
            continue;
        }
        let mut next = next_stand_id(state).max(first_free);
        let mut names = stand_names(state);
        let mut stands = Vec::new();
        for group in &draught.stands {
            let made = new_stands(
                state,
                group.kind,
                group.quality,
                group.count,
                group.name.as_deref(),
            );
            // "Draft Company 1", "Draft Company 2"; the next draught "Draft Company 3"...
            let base = group
                .name
                .clone()
                .unwrap_or_else(|| group.kind.as_str().replace('_', " "));
            let mut number = 1u32;
            for mut stand in made {
                stand.id = StandId(next);
                next = next.saturating_add(1);
                if group.count > 1 || names.contains(&base) {
                    while names.contains(&format!("{base} {number}")) {
                        number = number.saturating_add(1);
                    }
                    stand.name = format!("{base} {number}");
                }
                stand.name = unique(&mut names, &stand.name);
                stands.push(stand);
            }
        }
        if stands.is_empty() {
            continue;
        }
        let (words, points) = stands_and_points(&stands);
        let ids: Vec<StandId> = stands.iter().map(|s| s.id).collect();
        let joining = state.forces.iter().position(|f| {
            f.side == draught.side && f.region == hq.region && f.en_route.is_none() && !f.stands.is_empty()
        });
        let (force, formed, sentence) = match joining.and_then(|i| state.forces.get_mut(i)) {
            Some(f) => {
                f.stands.extend(stands);
                let sentence = format!(
                    "Replacements for the {side} reach {place} at the {label}: {words} join {}.",
                    f.name
                );
                (f.id.clone(), false, sentence)
            }
            None => {
                let id = free_force_id(state, &format!("{}-replacements-{turn}", draught.side));
                let name = draught
                    .name
                    .clone()
                    .unwrap_or_else(|| format!("{side} replacements of game move {turn}"));
                let name = unique(&mut force_names(state), &name);
                let sentence = format!(
                    "Replacements for the {side} reach {place} at the {label}: {words} form {name} there."
                );
                state.forces.push(new_force(
                    id.clone(),
                    name,
                    draught.side.clone(),
                    hq.region.clone(),
                    stands,
                ));
                new_forces.push(state.forces.len() - 1);
                (id, true, sentence)
            }
        };
        events.tell(
            EventKind::ReplacementsArrived(ReplacementsArrived {
                side: draught.side.clone(),
                wing: draught.at,
                region: hq.region.clone(),
                force,
                formed,
                stands: ids,
                points,
            }),
            sentence,
        );
    }
    new_forces
}
