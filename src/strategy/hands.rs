//! What changes hands, shared by the game move (`turn`) and a battle's
//! result (`aftermath`): an HQ passing to another side, and forces with no
//! stands struck from the roll. Each returns what to tell as an event.

use crate::model::EventKind;
use crate::model::event::{ForceDestroyed, HqChange};
use crate::model::{BattleStatus, Campaign, ForceId, RegionId, SideId};

/// An event to write: its kind (with its payload) and sentence.
pub(super) type Told = (EventKind, String);

fn side_name(state: &Campaign, id: &SideId) -> String {
    state.side(id).map_or_else(|| id.to_string(), |s| s.name.clone())
}

/// HQ number `h` passes to `taker` in game move `turn`: retaken if `taker`
/// owns it, else captured, its owner losing stands from
/// the campaign's `hq_loss_delay_moves` later (Strategic Rules 2.1). `battle` names the
/// battle that won it, if one did.
pub(super) fn hand_over_hq(
    state: &mut Campaign,
    h: usize,
    taker: &SideId,
    turn: u32,
    battle: Option<u32>,
) -> Option<Told> {
    let hq = state.hqs.get(h)?;
    let owner_name = side_name(state, &hq.side);
    let label = hq.label(&owner_name);
    let place = state.map.region_name(&hq.region).to_owned();
    let taker_name = side_name(state, taker);
    let payload = HqChange {
        side: hq.side.clone(),
        wing: hq.wing,
        region: hq.region.clone(),
        held_by: taker.clone(),
        battle,
    };
    let how = battle.map_or_else(String::new, |b| format!(" by winning battle {b}"));
    let retaken = &hq.side == taker;
    let lost_now = hq.held_by == hq.side;
    let hq = state.hqs.get_mut(h)?;
    hq.held_by = taker.clone();
    if retaken {
        hq.captured_turn = None;
        return Some((
            EventKind::HqRetaken(payload),
            format!("{owner_name} retakes its {label} at {place}{how}."),
        ));
    }
    if lost_now {
        hq.captured_turn = Some(turn);
    }
    let from_move = turn.saturating_add(state.house_rules.hq_loss_delay_moves);
    Some((
        EventKind::HqCaptured(payload),
        format!(
            "{taker_name} takes the {label} at {place}{how}. From game move {from_move} {owner_name} loses a stand each game move until it is retaken (Strategic Rules 2.1)."
        ),
    ))
}

/// Strikes every force with no stands left from the roll and from the
/// pending battles (a fought battle's record keeps its forces).
pub(super) fn strike_empty(state: &mut Campaign) -> Vec<Told> {
    let empty: Vec<(ForceId, String, RegionId)> = state
        .forces
        .iter()
        .filter(|f| f.stands.is_empty())
        .map(|f| (f.id.clone(), f.name.clone(), f.region.clone()))
        .collect();
    state.forces.retain(|f| !f.stands.is_empty());
    let mut told = Vec::new();
    for (id, name, region) in empty {
        for battle in state
            .battles
            .iter_mut()
            .filter(|b| b.status == BattleStatus::Pending)
        {
            battle.forces.retain(|f| f != &id);
            battle.reserves.retain(|f| f != &id);
        }
        let place = state.map.region_name(&region);
        let sentence = format!("{name} has no stands left at {place} and is struck from the roll.");
        told.push((EventKind::ForceDestroyed(ForceDestroyed { force: id }), sentence));
    }
    told.extend(call_off_one_sided(state));
    told
}

/// Calls off every pending battle in which a side has no force left in the
/// region (struck from the roll by supply, an HQ lost or a retreat in the
/// same game move): there is no one to fight, and the other side holds the
/// region. Reserves within a move only join a battle in the region, so
/// they do not keep one alive.
fn call_off_one_sided(state: &mut Campaign) -> Vec<Told> {
    let side_of: std::collections::HashMap<&ForceId, &SideId> =
        state.forces.iter().map(|f| (&f.id, &f.side)).collect();
    let mut off = Vec::new();
    for (i, battle) in state.battles.iter().enumerate() {
        if battle.status != BattleStatus::Pending {
            continue;
        }
        let has = |side: &SideId| {
            battle
                .forces
                .iter()
                .any(|f| side_of.get(f).is_some_and(|s| *s == side))
        };
        let gone: Vec<SideId> = [&battle.attacker, &battle.defender]
            .into_iter()
            .filter(|s| !has(s))
            .cloned()
            .collect();
        if !gone.is_empty() {
            off.push((i, gone));
        }
    }
    let mut told = Vec::new();
    for (i, gone) in off {
        let Some(battle) = state.battles.get_mut(i) else {
            continue;
        };
        battle.status = BattleStatus::CalledOff;
        let place = state.map.region_name(&battle.region);
        let name = |side: &SideId| {
            state
                .sides
                .iter()
                .find(|s| &s.id == side)
                .map_or_else(|| side.to_string(), |s| s.name.clone())
        };
        let why = match gone.as_slice() {
            [one] => {
                let other = if one == &battle.attacker {
                    &battle.defender
                } else {
                    &battle.attacker
                };
                format!(
                    "{} has no force left there, all lost before it could be fought; {} holds {place}",
                    name(one),
                    name(other)
                )
            }
            _ => "neither side has a force left there".to_owned(),
        };
        let sentence = format!("Battle {} at {place} is called off: {why}.", battle.id);
        let kind = EventKind::BattleCalledOff(crate::model::event::BattleCalledOff {
            battle: battle.id,
            region: battle.region.clone(),
            attacker: battle.attacker.clone(),
            defender: battle.defender.clone(),
            gone,
        });
        told.push((kind, sentence));
    }
    told
}
