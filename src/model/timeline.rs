//! The campaign's history read from its event log, for the window's turn log
//! and plots and the chronicle (`export::chronicle`): which game moves still
//! stand ([`History`]: undone ones are popped, as `undo` does), each side's
//! strength and HQs after each move, and the stands lost by cause. The window
//! computes it once per change of the log, never per frame.

use super::{Campaign, Event, EventKind, ForceId, History, SideId, StandId};
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

    /// The cause an event of `kind` records a loss for.
    pub fn of(kind: &EventKind) -> Option<Cause> {
        lost(kind).map(|l| l.cause)
    }
}

/// The loss an event of `kind` records: its cause, the force that lost, and
/// how many stands (a battle's losses count the stands struck off).
pub fn stands_lost(kind: &EventKind) -> Option<(Cause, &ForceId, usize)> {
    lost(kind).map(|l| (l.cause, l.force, l.counted.map_or(1, |(stands, _)| stands)))
}

/// A loss an event records: why, the stand lost (when one is named), the
/// force it was in, and the stands and points lost when the event counts them.
struct Lost<'e> {
    cause: Cause,
    stand: Option<StandId>,
    force: &'e ForceId,
    counted: Option<(usize, u64)>,
}

fn lost(kind: &EventKind) -> Option<Lost<'_>> {
    use EventKind as K;
    let one = |cause, stand, force| {
        Some(Lost {
            cause,
            stand: Some(stand),
            force,
            counted: None,
        })
    };
    match kind {
        K::ForcedMarchLoss(l) => one(Cause::ForcedMarch, l.stand, &l.force),
        K::SupplyLoss(l) => one(Cause::Supply, l.stand, &l.force),
        K::HqLoss(l) => one(Cause::HqLost, l.stand, &l.force),
        // A battle's losses come a force at a time: its points and the
        // stands struck off; a force destroyed in retreat, all its stands.
        K::BattleLosses(b) => Some(Lost {
            cause: Cause::Battle,
            stand: None,
            force: &b.force,
            counted: Some((b.destroyed.len(), b.points)),
        }),
        K::DestroyedInRetreat(d) => Some(Lost {
            cause: Cause::Battle,
            stand: None,
            force: &d.force,
            counted: Some((d.stands, 0)),
        }),
        K::CampaignCreated(_)
        | K::LogStarted(_)
        | K::Checkpoint(_)
        | K::TurnUndone(_)
        | K::ResultUndone(_)
        | K::OrdersGiven(_)
        | K::OrdersWithdrawn(_)
        | K::OrderLapsed(_)
        | K::ForceSplit(_)
        | K::ForcesMerged(_)
        | K::Rested(_)
        | K::Moved(_)
        | K::MustRest(_)
        // A stand fallen out and come back stays counted as lost on the march.
        | K::StandsRejoined(_)
        | K::BattleCreated(_)
        | K::BattleJoined(_)
        | K::BattleCalledOff(_)
        | K::HqCaptured(_)
        | K::HqRetaken(_)
        | K::SupplyRestored(_)
        | K::SupplyCut(_)
        | K::SupplyStillCut(_)
        | K::ForceDestroyed(_)
        | K::TurnEnded(_)
        | K::CampaignEnded(_)
        | K::GunCaptured(_)
        | K::BattleFought(_)
        | K::Retreated(_)
        | K::ForceSighted(_)
        | K::ForceIdentified(_)
        | K::ForceConcealed(_)
        | K::ForceLostSight(_)
        | K::ForceGone(_)
        | K::ScoutsDroveOffScreen(_)
        | K::ScoutsBrokeCover(_)
        | K::ScoutsDrivenOff(_)
        | K::Edited(_)
        | K::EditUndone(_)
        | K::ReinforcementArrived(_)
        | K::ReplacementsArrived(_)
        | K::ReplacementsWithheld(_)
        | K::ServerSettings(_) => None,
    }
}

/// The sides and the forces an event names, for the log's filter by side.
fn named(kind: &EventKind) -> (Vec<&SideId>, Vec<&ForceId>) {
    use EventKind as K;
    match kind {
        K::CampaignCreated(_)
        | K::LogStarted(_)
        | K::Checkpoint(_)
        | K::TurnUndone(_)
        | K::ResultUndone(_)
        | K::EditUndone(_)
        | K::TurnEnded(_)
        | K::GunCaptured(_)
        | K::ServerSettings(_)
        | K::BattleFought(_) => (vec![], vec![]),
        K::CampaignEnded(e) => (e.standing.sides.iter().map(|s| &s.side).collect(), vec![]),
        K::Edited(e) => match &e.edit {
            crate::model::event::Edit::AddForce { side, force, .. } => (vec![side], vec![force]),
            crate::model::event::Edit::HandOverHq { side, to, .. } => (vec![side, to], vec![]),
            edit => (vec![], edit.force().into_iter().collect()),
        },
        K::OrdersGiven(o) => (vec![&o.side], vec![]),
        K::OrdersWithdrawn(o) => (vec![&o.side], vec![]),
        K::OrderLapsed(l) => (vec![], vec![&l.force]),
        K::ForceSplit(s) => (vec![], vec![&s.force, &s.new_force]),
        K::ForcesMerged(m) => (vec![], vec![&m.force, &m.into]),
        K::Rested(r) | K::MustRest(r) => (vec![], vec![&r.force]),
        K::Moved(m) => (vec![], vec![&m.force]),
        K::ForcedMarchLoss(l) => (vec![], vec![&l.force]),
        K::StandsRejoined(r) => (vec![], vec![&r.force]),
        K::BattleCreated(b) => (vec![&b.attacker, &b.defender], b.forces.iter().collect()),
        K::BattleJoined(b) => (vec![], vec![&b.force]),
        K::BattleCalledOff(b) => (vec![&b.attacker, &b.defender], vec![]),
        K::HqCaptured(h) | K::HqRetaken(h) => (vec![&h.side, &h.held_by], vec![]),
        K::HqLoss(h) => (vec![&h.side], vec![&h.force]),
        K::SupplyRestored(s) => (vec![], vec![&s.force]),
        K::SupplyCut(s) => (vec![], vec![&s.force]),
        K::SupplyStillCut(s) => (vec![], vec![&s.force]),
        K::SupplyLoss(s) => (vec![], vec![&s.force]),
        K::ForceDestroyed(d) => (vec![], vec![&d.force]),
        K::BattleLosses(b) => (vec![], vec![&b.force]),
        K::Retreated(r) => (vec![], vec![&r.force]),
        K::DestroyedInRetreat(d) => (vec![], vec![&d.force]),
        K::ForceSighted(s) | K::ForceIdentified(s) | K::ForceConcealed(s) | K::ForceLostSight(s) => {
            (vec![&s.side], vec![&s.force])
        }
        K::ForceGone(g) => (vec![&g.sighted.side], vec![&g.sighted.force]),
        K::ReinforcementArrived(r) => (vec![&r.side], vec![&r.force]),
        K::ReplacementsArrived(r) => (vec![&r.side], vec![&r.force]),
        K::ReplacementsWithheld(r) => (vec![&r.side, &r.held_by], vec![]),
        K::ScoutsDroveOffScreen(s) | K::ScoutsBrokeCover(s) | K::ScoutsDrivenOff(s) => {
            (vec![&s.sighted.side], vec![&s.sighted.force])
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
}

impl Timeline {
    /// The timeline of `events` (each checkpoint with its state, as
    /// `Store::events_with_states` reads them), every loss counted.
    pub fn of(campaign: &Campaign, events: &[Event]) -> Timeline {
        Timeline::counting(campaign, events, |_| true)
    }

    /// The timeline counting only the losses told by the events at the
    /// indexes `counts` takes: a side's chronicle counts those it heard of.
    pub fn counting(campaign: &Campaign, events: &[Event], counts: impl Fn(usize) -> bool) -> Timeline {
        let side_of: HashMap<&str, usize> = campaign
            .sides
            .iter()
            .enumerate()
            .map(|(i, s)| (s.id.as_str(), i))
            .collect();
        let history = History::of(events);
        // Whose each force is: from every state the log keeps, and splits.
        let mut force_side: HashMap<String, usize> = HashMap::new();
        let mut kinds = BTreeSet::new();
        for event in events {
            if let EventKind::CampaignCreated(state) = &event.kind {
                note_states(state, &side_of, &mut force_side);
            } else if let EventKind::Checkpoint(c) = &event.kind {
                note_states(&c.state, &side_of, &mut force_side);
            } else if let EventKind::ForceSplit(split) = &event.kind
                && let Some(side) = force_side.get(split.force.as_str()).copied()
            {
                force_side.insert(split.new_force.as_str().to_owned(), side);
            }
            if !matches!(event.kind, EventKind::Checkpoint(_)) {
                kinds.insert(event.kind.name().to_owned());
            }
        }
        let mut frames: Vec<Frame> = Vec::new();
        for change in &history.standing {
            let Some(state) = events.get(change.at).and_then(|e| e.kind.kept_state()) else {
                continue;
            };
            if change.start {
                frames.push(frame(state, change.turn.saturating_sub(1), &side_of, None));
                continue;
            }
            // A battle's result belongs with the game move that made the
            // battle: it shows as a step at that move.
            let turn = if change.battle.is_some() {
                change.turn.saturating_sub(1)
            } else {
                change.turn
            };
            let before = frames.last().map(|f| &f.stands);
            let counted: Vec<usize> = change.made.iter().copied().filter(|i| counts(*i)).collect();
            let losses = losses(events, &counted, turn, before, &force_side);
            frames.push(frame(state, turn, &side_of, Some(losses)));
        }
        let event_sides = events
            .iter()
            .map(|e| sides_of(&e.kind, &side_of, &force_side))
            .collect();
        Timeline {
            moments: frames.iter().map(|f| f.moment.clone()).collect(),
            losses: frames.iter().flat_map(|f| f.losses.iter().copied()).collect(),
            undone: history.undone,
            event_sides,
            kinds: kinds.into_iter().collect(),
        }
    }
}

/// Notes whose each force in a kept state is.
fn note_states(state: &Value, side_of: &HashMap<&str, usize>, force_side: &mut HashMap<String, usize>) {
    for force in state
        .get("forces")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let (Some(id), Some(side)) = (
            force.get("id").and_then(Value::as_str),
            force
                .get("side")
                .and_then(Value::as_str)
                .and_then(|s| side_of.get(s)),
        ) {
            force_side.insert(id.to_owned(), *side);
        }
    }
}

fn frame(state: &Value, turn: u32, side_of: &HashMap<&str, usize>, losses: Option<Vec<Loss>>) -> Frame {
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
        let Some(lost) = lost(&event.kind) else {
            continue;
        };
        let known = lost
            .stand
            .and_then(|s| before.and_then(|b| b.get(&u64::from(s.0))).copied());
        let side = known
            .map(|(side, _)| side)
            .or_else(|| force_side.get(lost.force.as_str()).copied());
        let Some(side) = side else { continue };
        let cause = lost.cause;
        let (stands, points) = lost.counted.unwrap_or((1, known.map_or(0, |(_, p)| p)));
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
fn sides_of(kind: &EventKind, side_of: &HashMap<&str, usize>, force_side: &HashMap<String, usize>) -> u64 {
    let bit = |i: usize| {
        u32::try_from(i)
            .ok()
            .and_then(|i| 1u64.checked_shl(i))
            .unwrap_or(0)
    };
    let (sides, forces) = named(kind);
    let by_side = sides.into_iter().filter_map(|s| side_of.get(s.as_str()));
    let by_force = forces.into_iter().filter_map(|f| force_side.get(f.as_str()));
    by_side.chain(by_force).fold(0, |bits, side| bits | bit(*side))
}
