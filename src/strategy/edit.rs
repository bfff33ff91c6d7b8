//! The umpire's pencil: changes made by hand, outside the rules (a force
//! moved, a reinforcement landed, a stand's strength set, an HQ handed
//! over, a force rested, a ruling written), each checked as a file is and
//! told as one `edited` event with the umpire's reason.
//!
//! Pure: [`apply`] takes the campaign and an [`Edit`] and returns the new
//! campaign and its events, or every problem and nothing changed. After the
//! change the fog looks again (without the scouts' dice, which belong to the
//! game move), so the other sides learn of it only as far as they can see.

use crate::model::check::suggestion;
use crate::model::event::{Edit, Edited, ForceState};
use crate::model::text::{description_problem, name_problem};
use crate::model::{
    Campaign, EventKind, EventLog, Force, ForceId, Quality, RegionId, SideId, Stand, StandId, StandKind,
};

/// Why an edit was refused, every problem in words; nothing was changed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}; nothing was changed", .0.join("; "))]
pub struct EditRefused(pub Vec<String>);

/// The force named `text`, by id or by name, or what is wrong.
pub fn find_force(campaign: &Campaign, text: &str) -> Result<ForceId, String> {
    let text = text.trim();
    if let Some(f) = campaign
        .forces
        .iter()
        .find(|f| f.id.as_str() == text || f.name.eq_ignore_ascii_case(text))
    {
        return Ok(f.id.clone());
    }
    let known = campaign
        .forces
        .iter()
        .flat_map(|f| [f.id.as_str(), f.name.as_str()]);
    let mut hint = suggestion(text, known);
    if hint.is_empty() {
        // "Vanguard of the Rebellion" for "Vanguard of the Rebellion at Minya".
        let lower = text.to_lowercase();
        let mut containing = campaign
            .forces
            .iter()
            .filter(|f| !lower.is_empty() && f.name.to_lowercase().contains(&lower));
        if let (Some(f), None) = (containing.next(), containing.next()) {
            hint = format!(" (did you mean `{}`?)", f.name);
        }
    }
    Err(format!(
        "no force `{text}` in the campaign{hint}; `umpire status` lists the forces with their ids"
    ))
}

/// The region named `text`, by id or by name, or what is wrong.
pub fn find_region(campaign: &Campaign, text: &str) -> Result<RegionId, String> {
    let text = text.trim();
    if let Some(r) = campaign
        .map
        .regions
        .iter()
        .find(|r| r.id.as_str() == text || r.name.eq_ignore_ascii_case(text))
    {
        return Ok(r.id.clone());
    }
    let known = campaign
        .map
        .regions
        .iter()
        .map(|r| (r.id.as_str(), r.name.as_str()));
    Err(format!(
        "no region `{text}` on the map{}",
        crate::model::check::region_suggestion(text, known)
    ))
}

/// The side named `text`, by id or by name, or what is wrong.
pub fn find_side(campaign: &Campaign, text: &str) -> Result<SideId, String> {
    let text = text.trim();
    if let Some(s) = campaign
        .sides
        .iter()
        .find(|s| s.id.as_str() == text || s.name.eq_ignore_ascii_case(text))
    {
        return Ok(s.id.clone());
    }
    let known = campaign.sides.iter().map(|s| s.id.as_str());
    Err(format!(
        "no side `{text}` in the campaign{}; the sides are {}",
        suggestion(text, known),
        campaign
            .sides
            .iter()
            .map(|s| s.id.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    ))
}

/// The force holding stand `stand`, or what is wrong.
pub fn find_stand(campaign: &Campaign, stand: u32) -> Result<(ForceId, StandId), String> {
    campaign
        .stand(StandId(stand))
        .map(|(force, s)| (force.id.clone(), s.id))
        .ok_or_else(|| {
            format!(
                "no stand {stand} in the campaign; `umpire status` lists each force's stands with their ids"
            )
        })
}

/// `count` new stands of `kind` and `quality` at full strength, numbered on
/// from the highest stand id in the campaign (its reinforcements still to
/// come included), named `name` (numbered when there are several) or after their kind.
pub fn new_stands(
    campaign: &Campaign,
    kind: StandKind,
    quality: Quality,
    count: u32,
    name: Option<&str>,
) -> Vec<Stand> {
    let first = next_stand_id(campaign);
    let base = name.map_or_else(|| kind.as_str().replace('_', " "), str::to_owned);
    (0..count)
        .map(|i| Stand {
            id: StandId(first.saturating_add(i)),
            name: if count == 1 {
                base.clone()
            } else {
                format!("{base} {}", i + 1)
            },
            kind,
            quality,
            strength: kind.roster_points(),
            full: kind.roster_points(),
        })
        .collect()
}

/// The id after the highest stand id in the campaign, on the map, fallen
/// out and waiting to rejoin (the house rule), or in a reinforcement still to
/// come; 1 when there is none.
pub fn next_stand_id(campaign: &Campaign) -> u32 {
    campaign
        .forces
        .iter()
        .flat_map(|f| f.stands.iter().chain(f.fallen_out.iter().map(|o| &o.stand)))
        .chain(campaign.reinforcements.iter().flat_map(|r| &r.stands))
        .map(|s| s.id.0)
        .max()
        .map_or(1, |m| m.saturating_add(1))
}

/// The campaign after the umpire's `edit` made for `reason`, with its events
/// (the `edited` event, then what the sides see afresh), or every problem.
pub fn apply(
    campaign: &Campaign,
    edit: &Edit,
    reason: &str,
) -> Result<(Campaign, Vec<crate::model::Event>), EditRefused> {
    let mut problems = Vec::new();
    let what = if matches!(edit, Edit::Ruling) {
        "the ruling"
    } else {
        "the reason"
    };
    if let Some(problem) = description_problem(reason, what) {
        problems.push(problem);
    } else if reason.trim().is_empty() {
        problems.push(format!("{what} is blank: say why the umpire makes this change"));
    }
    let mut state = campaign.clone();
    let said = change(&mut state, edit, &mut problems);
    // The umpire's end: told after the edit, with the final standing.
    let ended = match edit {
        Edit::EndCampaign if problems.is_empty() => match super::end::declare(&mut state, reason) {
            Ok(told) => Some(told),
            Err(problem) => {
                problems.push(problem);
                None
            }
        },
        _ => None,
    };
    if !problems.is_empty() {
        return Err(EditRefused(problems));
    }
    let mut log = EventLog::new(campaign.turn);
    let reason = reason.trim();
    let sentence = match edit {
        Edit::Ruling => format!("The umpire rules: {reason}"),
        _ => format!("The umpire's edit: {said}. Reason: {reason}"),
    };
    log.tell(
        EventKind::Edited(Edited {
            edit: edit.clone(),
            reason: reason.to_owned(),
        }),
        sentence,
    );
    if let Some((kind, sentence)) = ended {
        log.tell(kind, sentence);
    }
    let mut events = log.into_events();
    // Only an edit that moves, adds or takes away troops or strength changes
    // what can be seen; the fog's look without the scouts' dice would
    // otherwise take back what the scouts made out this game move.
    if matches!(
        edit,
        Edit::Ruling | Edit::EndCampaign | Edit::HandOverHq { .. } | Edit::SetState { .. }
    ) {
        return Ok((state, events));
    }
    let gone: Vec<super::fog::Vanished> = campaign
        .forces
        .iter()
        .filter(|f| state.force(&f.id).is_none())
        .map(|f| super::fog::Vanished::of(f, None))
        .collect();
    let seen = super::fog::glance(&mut state, campaign.turn, &gone);
    let first = u32::try_from(events.len()).unwrap_or(u32::MAX);
    events.extend(seen.into_iter().map(|mut e| {
        e.seq = e.seq.saturating_add(first);
        e
    }));
    Ok((state, events))
}

/// Makes `edit` to `state`, pushing what is wrong; says what it did.
fn change(state: &mut Campaign, edit: &Edit, problems: &mut Vec<String>) -> String {
    let turn = state.turn;
    match edit {
        Edit::Ruling => String::new(),
        Edit::EndCampaign => "the campaign is declared ended".to_owned(),
        Edit::MoveForce { force, to } => {
            let Some(region) = region_name(state, to, problems) else {
                return String::new();
            };
            if let Some(battle) = pending_battle_of(state, force) {
                problems.push(format!(
                    "force `{force}` is in battle {battle}, still pending: resolve the battle or enter its result first"
                ));
                return String::new();
            }
            let Some(f) = force_mut(state, force, problems) else {
                return String::new();
            };
            if &f.region == to && f.en_route.is_none() {
                problems.push(format!("{} is at {region} already", f.name));
                return String::new();
            }
            f.region = to.clone();
            f.en_route = None;
            f.order = crate::model::StandingOrder::Hold;
            format!("{} placed at {region}, holding", f.name)
        }
        Edit::AddForce {
            force,
            name,
            side,
            region,
            stands,
        } => {
            if state.force(force).is_some() {
                problems.push(format!(
                    "a force `{force}` is already in the campaign: choose another id"
                ));
            }
            if force.as_str().trim().is_empty() || force.as_str().chars().any(char::is_whitespace) {
                problems.push(format!(
                    "`{force}` cannot be a force's id: use letters, digits and underscores, no spaces"
                ));
            }
            if let Some(problem) = name_problem(name, "the force's name") {
                problems.push(problem);
            }
            let side_name = match state.side(side) {
                Some(s) => s.name.clone(),
                None => {
                    problems.push(format!("no side `{side}` in the campaign"));
                    String::new()
                }
            };
            let region_name = region_name(state, region, problems).unwrap_or_default();
            if stands.is_empty() {
                problems.push("a new force needs at least one stand".to_owned());
            }
            check_new_stands(state, stands, problems);
            if !problems.is_empty() {
                return String::new();
            }
            state.forces.push(Force {
                id: force.clone(),
                name: name.clone(),
                side: side.clone(),
                region: region.clone(),
                stands: stands.clone(),
                en_route: None,
                order: crate::model::StandingOrder::Hold,
                fatigue: Default::default(),
                supply: Default::default(),
                fallen_out: Vec::new(),
            });
            format!(
                "{name} ({side_name}, {}) arrives at {region_name}",
                stands_and_points(stands)
            )
        }
        Edit::AddStands { force, stands } => {
            if stands.is_empty() {
                problems.push("no stands to add".to_owned());
            }
            check_new_stands(state, stands, problems);
            if !problems.is_empty() {
                return String::new();
            }
            let Some(f) = force_mut(state, force, problems) else {
                return String::new();
            };
            f.stands.extend(stands.iter().cloned());
            format!("{} joins {}", stands_and_points(stands), f.name)
        }
        Edit::RemoveStand { force, stand } => {
            let Some(f) = force_mut(state, force, problems) else {
                return String::new();
            };
            let Some(at) = f.stands.iter().position(|s| s.id == *stand) else {
                problems.push(format!("stand {} is not in force `{force}`", stand.0));
                return String::new();
            };
            let gone = f.stands.remove(at);
            let name = f.name.clone();
            if f.stands.is_empty() {
                state.forces.retain(|f| &f.id != force);
                format!(
                    "stand {} ({}) of {name} taken off the map, and with it the force, which has no stands left",
                    gone.id.0, gone.name
                )
            } else {
                format!("stand {} ({}) of {name} taken off the map", gone.id.0, gone.name)
            }
        }
        Edit::SetStrength {
            force,
            stand,
            strength,
        } => {
            let Some(f) = force_mut(state, force, problems) else {
                return String::new();
            };
            let name = f.name.clone();
            let Some(s) = f.stands.iter_mut().find(|s| s.id == *stand) else {
                problems.push(format!("stand {} is not in force `{force}`", stand.0));
                return String::new();
            };
            if *strength > s.full {
                problems.push(format!(
                    "stand {} ({}) is {} points at full strength: it cannot be set to {strength}",
                    s.id.0, s.name, s.full
                ));
                return String::new();
            }
            let was = s.strength;
            if was == *strength {
                problems.push(format!(
                    "stand {} ({}) is at {was} points already",
                    s.id.0, s.name
                ));
                return String::new();
            }
            s.strength = *strength;
            format!(
                "stand {} ({}) of {name} set to {strength} of {} points, from {was}",
                s.id.0, s.name, s.full
            )
        }
        Edit::HandOverHq { side, wing, to } => {
            let of_name = state
                .side(side)
                .map_or_else(|| side.to_string(), |s| s.name.clone());
            let to_name = match state.side(to) {
                Some(s) => s.name.clone(),
                None => {
                    problems.push(format!("no side `{to}` in the campaign"));
                    return String::new();
                }
            };
            let Some(hq) = state.hqs.iter_mut().find(|h| &h.side == side && &h.wing == wing) else {
                problems.push(format!("side `{side}` has no {} HQ", wing.as_str()));
                return String::new();
            };
            if &hq.held_by == to {
                problems.push(format!("{to_name} already holds that HQ"));
                return String::new();
            }
            hq.held_by = to.clone();
            hq.captured_turn = (to != side).then_some(turn);
            match &hq.name {
                Some(name) => format!("{name}, {of_name}'s {} HQ, handed to {to_name}", wing.as_str()),
                None => format!("{of_name}'s {} HQ handed to {to_name}", wing.as_str()),
            }
        }
        Edit::SetState { force, state: set } => {
            let Some(f) = force_mut(state, force, problems) else {
                return String::new();
            };
            match set {
                ForceState::Hold => {
                    f.order = crate::model::StandingOrder::Hold;
                    format!("{} told to hold", f.name)
                }
                ForceState::Rest => {
                    f.fatigue.must_rest = true;
                    format!("{} must rest this game move", f.name)
                }
                ForceState::Fresh => {
                    f.fatigue = Default::default();
                    format!("{} rested: no forced marches counted, no rest owed", f.name)
                }
            }
        }
    }
}

fn force_mut<'c>(
    state: &'c mut Campaign,
    force: &ForceId,
    problems: &mut Vec<String>,
) -> Option<&'c mut Force> {
    let found = state.forces.iter_mut().find(|f| &f.id == force);
    if found.is_none() {
        problems.push(format!("no force `{force}` in the campaign"));
    }
    found
}

fn region_name(state: &Campaign, region: &RegionId, problems: &mut Vec<String>) -> Option<String> {
    let found = state.map.region(region).map(|r| r.name.clone());
    if found.is_none() {
        problems.push(format!("no region `{region}` on the map"));
    }
    found
}

fn pending_battle_of(state: &Campaign, force: &ForceId) -> Option<u32> {
    state
        .battles
        .iter()
        .find(|b| b.status == crate::model::BattleStatus::Pending && b.forces.contains(force))
        .map(|b| b.id)
}

/// New stands: ids not in use (nor twice among them), strengths within full.
fn check_new_stands(state: &Campaign, stands: &[Stand], problems: &mut Vec<String>) {
    let mut ids = std::collections::BTreeSet::new();
    for s in stands {
        let coming = state
            .reinforcements
            .iter()
            .any(|r| r.stands.iter().any(|c| c.id == s.id));
        if state.stand(s.id).is_some() || coming || !ids.insert(s.id) {
            problems.push(format!(
                "stand id {} is already in use: give each stand a new id",
                s.id.0
            ));
        }
        if s.full == 0 {
            problems.push(format!("stand {} ({}) has no full strength", s.id.0, s.name));
        } else if s.strength > s.full {
            problems.push(format!(
                "stand {} ({}) is {} points at full strength: it cannot have {}",
                s.id.0, s.name, s.full, s.strength
            ));
        }
        if let Some(problem) = name_problem(&s.name, "a stand's name") {
            problems.push(problem);
        }
    }
}

fn stands_and_points(stands: &[Stand]) -> String {
    let points: u32 = stands.iter().map(|s| s.strength).sum();
    format!(
        "{} stand{}, {points} points",
        stands.len(),
        if stands.len() == 1 { "" } else { "s" }
    )
}
