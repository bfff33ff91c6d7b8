//! The campaign's history read from its event log, for the turn log and the
//! plots: which game moves still stand (undone ones are popped, as `undo`
//! does), each side's strength and HQs after each move, and the stands lost
//! by cause. Computed once per change of the log, never per frame.

use crate::model::{Campaign, Event};
use serde_json::Value;
use std::collections::{BTreeSet, HashMap};

/// Why a stand left the roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Cause {
    Battle,
    ForcedMarch,
    Supply,
    HqLost,
}

impl Cause {
    pub const ALL: [Cause; 4] = [Cause::Battle, Cause::ForcedMarch, Cause::Supply, Cause::HqLost];

    pub fn label(self) -> &'static str {
        match self {
            Cause::Battle => "battle",
            Cause::ForcedMarch => "forced march",
            Cause::Supply => "supply cut",
            Cause::HqLost => "HQ lost",
        }
    }

    /// The cause an event of `kind` records a loss for. Battle results add
    /// their kinds here when they land.
    pub fn of(kind: &str) -> Option<Cause> {
        match kind {
            "forced_march_loss" => Some(Cause::ForcedMarch),
            "supply_loss" => Some(Cause::Supply),
            "hq_loss" => Some(Cause::HqLost),
            "battle_losses" | "destroyed_in_retreat" => Some(Cause::Battle),
            _ => None,
        }
    }
}

/// One side at one moment.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SideTally {
    pub points: u64,
    pub stands: usize,
    pub hqs_held: usize,
}

/// The state after one game move (or at the start).
#[derive(Debug, Clone, PartialEq)]
pub struct Moment {
    /// The game move just played; the start is the first move less one.
    pub turn: u32,
    /// By side, in the campaign's order of sides.
    pub sides: Vec<SideTally>,
}

/// Stands lost in one game move by one side to one cause.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Loss {
    pub turn: u32,
    pub side: usize,
    pub cause: Cause,
    pub stands: usize,
    pub points: u64,
}

/// The history as it stands now.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Timeline {
    pub moments: Vec<Moment>,
    pub losses: Vec<Loss>,
    /// Log entries (indexes into the events) of game moves taken back.
    pub undone: BTreeSet<usize>,
    /// For each event, the sides it concerns (bits by side number).
    pub event_sides: Vec<u64>,
    /// Every kind of event in the log except checkpoints, sorted.
    pub kinds: Vec<String>,
}

struct Frame {
    moment: Moment,
    /// Stand id -> (side, strength) after this moment.
    stands: HashMap<u64, (usize, u64)>,
    losses: Vec<Loss>,
    /// Events of the move that made this frame.
    events: Vec<usize>,
}

impl Timeline {
    pub fn of(campaign: &Campaign, events: &[Event]) -> Timeline {
        let side_of: HashMap<&str, usize> = campaign
            .sides
            .iter()
            .enumerate()
            .map(|(i, s)| (s.id.as_str(), i))
            .collect();
        let mut force_side: HashMap<String, usize> = HashMap::new();
        let mut stack: Vec<Frame> = Vec::new();
        let mut current: Vec<usize> = Vec::new();
        let mut undone = BTreeSet::new();
        let mut kinds = BTreeSet::new();
        for (i, event) in events.iter().enumerate() {
            if event.kind != "checkpoint" {
                kinds.insert(event.kind.clone());
            }
            match event.kind.as_str() {
                "campaign_created" => {
                    let turn = event.turn.saturating_sub(1);
                    stack.push(frame(
                        &event.payload,
                        turn,
                        &side_of,
                        &mut force_side,
                        None,
                        Vec::new(),
                    ));
                    current.clear();
                }
                "checkpoint" => {
                    let state = event.payload.get("state").unwrap_or(&Value::Null);
                    let before = stack.last().map(|f| &f.stands);
                    // A battle's result belongs with the game move that made
                    // the battle: it shows as a step at that move.
                    let turn = if event.payload.get("battle").is_some() {
                        event.turn.saturating_sub(1)
                    } else {
                        event.turn
                    };
                    let losses = losses(events, &current, turn, before, &force_side);
                    let made = std::mem::take(&mut current);
                    stack.push(frame(state, turn, &side_of, &mut force_side, Some(losses), made));
                }
                "turn_undone" | "result_undone" => {
                    if stack.len() > 1
                        && let Some(popped) = stack.pop()
                    {
                        undone.extend(popped.events);
                    }
                    current.clear();
                }
                _ => {
                    note_forces(&event.payload, &side_of, &mut force_side);
                    current.push(i);
                }
            }
        }
        let event_sides = events
            .iter()
            .map(|e| sides_of(&e.payload, &side_of, &force_side))
            .collect();
        Timeline {
            moments: stack.iter().map(|f| f.moment.clone()).collect(),
            losses: stack.iter().flat_map(|f| f.losses.iter().copied()).collect(),
            undone,
            event_sides,
            kinds: kinds.into_iter().collect(),
        }
    }
}

fn frame(
    state: &Value,
    turn: u32,
    side_of: &HashMap<&str, usize>,
    force_side: &mut HashMap<String, usize>,
    losses: Option<Vec<Loss>>,
    events: Vec<usize>,
) -> Frame {
    let mut sides = vec![SideTally::default(); side_of.len()];
    let mut stands = HashMap::new();
    for force in state
        .get("forces")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let Some(side) = force
            .get("side")
            .and_then(Value::as_str)
            .and_then(|s| side_of.get(s))
        else {
            continue;
        };
        if let Some(id) = force.get("id").and_then(Value::as_str) {
            force_side.insert(id.to_owned(), *side);
        }
        for stand in force
            .get("stands")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let strength = stand.get("strength").and_then(Value::as_u64).unwrap_or(0);
            if let Some(tally) = sides.get_mut(*side) {
                tally.points += strength;
                tally.stands += 1;
            }
            if let Some(id) = stand.get("id").and_then(Value::as_u64) {
                stands.insert(id, (*side, strength));
            }
        }
    }
    for hq in state.get("hqs").and_then(Value::as_array).into_iter().flatten() {
        if let Some(tally) = hq
            .get("held_by")
            .and_then(Value::as_str)
            .and_then(|s| side_of.get(s))
            .and_then(|s| sides.get_mut(*s))
        {
            tally.hqs_held += 1;
        }
    }
    Frame {
        moment: Moment { turn, sides },
        stands,
        losses: losses.unwrap_or_default(),
        events,
    }
}

/// Forces named in an event (a split makes a new one) belong to the side of the force they came from.
fn note_forces(payload: &Value, side_of: &HashMap<&str, usize>, force_side: &mut HashMap<String, usize>) {
    let side = payload
        .get("side")
        .and_then(Value::as_str)
        .and_then(|s| side_of.get(s).copied())
        .or_else(|| {
            payload
                .get("force")
                .and_then(Value::as_str)
                .and_then(|f| force_side.get(f).copied())
        });
    if let (Some(side), Some(new)) = (side, payload.get("new_force").and_then(Value::as_str)) {
        force_side.insert(new.to_owned(), side);
    }
}

fn losses(
    events: &[Event],
    made: &[usize],
    turn: u32,
    before: Option<&HashMap<u64, (usize, u64)>>,
    force_side: &HashMap<String, usize>,
) -> Vec<Loss> {
    let mut tally: Vec<Loss> = Vec::new();
    for event in made.iter().filter_map(|i| events.get(*i)) {
        let Some(cause) = Cause::of(&event.kind) else {
            continue;
        };
        let stand = event.payload.get("stand").and_then(Value::as_u64);
        let known = stand.and_then(|s| before.and_then(|b| b.get(&s)).copied());
        let side = known.map(|(side, _)| side).or_else(|| {
            event
                .payload
                .get("force")
                .and_then(Value::as_str)
                .and_then(|f| force_side.get(f).copied())
        });
        let Some(side) = side else { continue };
        // A battle's losses come a force at a time: its points and the
        // stands struck off; a force destroyed in retreat, all its stands.
        let (stands, points) = match event.kind.as_str() {
            "battle_losses" => (
                event
                    .payload
                    .get("destroyed")
                    .and_then(Value::as_array)
                    .map_or(0, Vec::len),
                event.payload.get("points").and_then(Value::as_u64).unwrap_or(0),
            ),
            "destroyed_in_retreat" => (
                event
                    .payload
                    .get("stands")
                    .and_then(Value::as_u64)
                    .and_then(|n| usize::try_from(n).ok())
                    .unwrap_or(0),
                0,
            ),
            _ => (1, known.map_or(0, |(_, p)| p)),
        };
        match tally.iter_mut().find(|l| l.side == side && l.cause == cause) {
            Some(loss) => {
                loss.stands += stands;
                loss.points += points;
            }
            None => tally.push(Loss {
                turn,
                side,
                cause,
                stands,
                points,
            }),
        }
    }
    tally
}

/// The sides an event concerns, as bits by side number.
fn sides_of(payload: &Value, side_of: &HashMap<&str, usize>, force_side: &HashMap<String, usize>) -> u64 {
    let bit = |i: usize| {
        u32::try_from(i)
            .ok()
            .and_then(|i| 1u64.checked_shl(i))
            .unwrap_or(0)
    };
    let mut bits = 0;
    for key in ["side", "attacker", "defender", "held_by"] {
        if let Some(side) = payload
            .get(key)
            .and_then(Value::as_str)
            .and_then(|s| side_of.get(s))
        {
            bits |= bit(*side);
        }
    }
    for key in ["force", "into", "new_force"] {
        if let Some(side) = payload
            .get(key)
            .and_then(Value::as_str)
            .and_then(|f| force_side.get(f))
        {
            bits |= bit(*side);
        }
    }
    if let Some(forces) = payload.get("forces").and_then(Value::as_array) {
        for side in forces
            .iter()
            .filter_map(Value::as_str)
            .filter_map(|f| force_side.get(f))
        {
            bits |= bit(*side);
        }
    }
    bits
}
