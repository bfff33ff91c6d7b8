//! Events: the campaign's append-only history.
//!
//! Each kind of event is a variant of [`EventKind`] with its payload. In the
//! save (and in `umpire turn --json`) an event is written as it always was:
//! `kind` (its machine name) and `payload` (a JSON object, keys sorted), so
//! saves written before the kinds were typed still load.

use super::{
    Arm, Conveyance, EnRoute, ForceId, How, RegionId, ResultSource, RuleSetId, Seen, SideId, SideLoss,
    StandId, Wing,
};
use serde::{Deserialize, Serialize};

/// One thing that happened, as kept in the save's event log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(into = "RawEvent", try_from = "RawEvent")]
pub struct Event {
    /// The game move it happened in.
    pub turn: u32,
    /// Its order within the game move, from 0.
    pub seq: u32,
    /// What happened, with its data.
    pub kind: EventKind,
    /// The event told for people, for the turn log.
    pub sentence: String,
}

/// An event as written: kind name and JSON payload.
#[derive(Serialize, Deserialize)]
struct RawEvent {
    turn: u32,
    seq: u32,
    kind: String,
    payload: serde_json::Value,
    sentence: String,
}

impl From<Event> for RawEvent {
    fn from(event: Event) -> RawEvent {
        RawEvent {
            turn: event.turn,
            seq: event.seq,
            kind: event.kind.name().to_owned(),
            payload: event.kind.payload(),
            sentence: event.sentence,
        }
    }
}

impl TryFrom<RawEvent> for Event {
    type Error = serde_json::Error;
    fn try_from(raw: RawEvent) -> Result<Event, serde_json::Error> {
        Ok(Event {
            turn: raw.turn,
            seq: raw.seq,
            kind: EventKind::read(&raw.kind, raw.payload)?,
            sentence: raw.sentence,
        })
    }
}

/// Declares the kinds of event: each variant with its payload and the
/// machine name written in the save, once.
macro_rules! event_kinds {
    ( $( $(#[$meta:meta])* $variant:ident($payload:ty) = $name:literal, )+ ) => {
        /// What happened, with its data. The payload of each kind is written
        /// as the JSON object its struct serializes to.
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "kind", content = "payload")]
        pub enum EventKind {
            $( $(#[$meta])* #[serde(rename = $name)] $variant($payload), )+
        }

        impl EventKind {
            /// The machine names of every kind, as written in the save.
            pub const NAMES: &'static [&'static str] = &[$($name),+];

            /// The kind's machine name, e.g. `campaign_created`.
            pub fn name(&self) -> &'static str {
                match self { $( EventKind::$variant(_) => $name, )+ }
            }
        }
    };
}

event_kinds! {
    /// The campaign began; the payload is its starting state, whole.
    CampaignCreated(serde_json::Value) = "campaign_created",
    /// The log began in a save made before there was one (schema 1, `migrations/0002_event_log.sql`).
    LogStarted(LogStarted) = "log_started",
    /// The state after a change (a game move or a battle's result), kept for undo.
    Checkpoint(Checkpoint) = "checkpoint",
    /// A game move was taken back.
    TurnUndone(TurnUndone) = "turn_undone",
    /// A battle's result was taken back.
    ResultUndone(ResultUndone) = "result_undone",
    OrdersGiven(OrdersGiven) = "orders_given",
    OrdersWithdrawn(OrdersWithdrawn) = "orders_withdrawn",
    OrderLapsed(OrderLapsed) = "order_lapsed",
    ForceSplit(ForceSplit) = "force_split",
    ForcesMerged(ForcesMerged) = "forces_merged",
    Rested(ForceRule) = "rested",
    Moved(Moved) = "moved",
    MustRest(ForceRule) = "must_rest",
    ForcedMarchLoss(StandLost) = "forced_march_loss",
    /// Stands fallen out on a forced march rejoin their force (the house rule
    /// `rejoin_after_moves`; the seed has none).
    StandsRejoined(StandsRejoined) = "stands_rejoined",
    BattleCreated(BattleCreated) = "battle_created",
    BattleJoined(BattleJoined) = "battle_joined",
    /// A pending battle one side has no force left in: it is not fought.
    BattleCalledOff(BattleCalledOff) = "battle_called_off",
    HqCaptured(HqChange) = "hq_captured",
    HqRetaken(HqChange) = "hq_retaken",
    HqLoss(HqLoss) = "hq_loss",
    SupplyRestored(SupplyRestored) = "supply_restored",
    SupplyCut(SupplyCut) = "supply_cut",
    SupplyStillCut(SupplyStillCut) = "supply_still_cut",
    SupplyLoss(SupplyLoss) = "supply_loss",
    ForceDestroyed(ForceDestroyed) = "force_destroyed",
    TurnEnded(TurnEnded) = "turn_ended",
    BattleLosses(BattleLosses) = "battle_losses",
    GunCaptured(GunCaptured) = "gun_captured",
    BattleFought(BattleFought) = "battle_fought",
    Retreated(Retreated) = "retreated",
    DestroyedInRetreat(DestroyedInRetreat) = "destroyed_in_retreat",
    ForceSighted(Sighted) = "force_sighted",
    ForceIdentified(Sighted) = "force_identified",
    ForceConcealed(Sighted) = "force_concealed",
    ForceLostSight(Sighted) = "force_lost_sight",
    /// A force a side knew of leaves its view: seen merging or destroyed, or
    /// not found where it was last seen.
    ForceGone(ForceGone) = "force_gone",
    ScoutsDroveOffScreen(Scouting) = "scouts_drove_off_screen",
    ScoutsBrokeCover(Scouting) = "scouts_broke_cover",
    ScoutsDrivenOff(Scouting) = "scouts_driven_off",
    /// The umpire's pencil: a change outside the rules, with the reason.
    Edited(Edited) = "edited",
    /// An umpire's edit taken back: its events `first_seq..=last_seq` no longer stand.
    EditUndone(EditUndone) = "edit_undone",
    /// A reinforcement of the campaign file comes onto the map (`strategy::arrivals`).
    ReinforcementArrived(ReinforcementArrived) = "reinforcement_arrived",
    /// A side's replacements arrive at one of its HQs.
    ReplacementsArrived(ReplacementsArrived) = "replacements_arrived",
    /// A side's replacements are due but do not come: the enemy holds the HQ.
    ReplacementsWithheld(ReplacementsWithheld) = "replacements_withheld",
    /// The campaign ended: the condition met (or the umpire's declaration) and
    /// the final standing (`model::end`).
    CampaignEnded(super::end::Ended) = "campaign_ended",
    /// The umpire changed a setting of `umpire serve` (resolve when every
    /// side's orders are in, the deadline, the reminders): no change to the
    /// campaign's state, logged so every umpire's client sees the revision move.
    ServerSettings(ServerSettings) = "server_settings",
}

impl Edit {
    /// The force the edit changes, if it changes one.
    pub fn force(&self) -> Option<&ForceId> {
        match self {
            Edit::MoveForce { force, .. }
            | Edit::AddForce { force, .. }
            | Edit::AddStands { force, .. }
            | Edit::SetState { force, .. }
            | Edit::RemoveStand { force, .. }
            | Edit::SetStrength { force, .. } => Some(force),
            Edit::HandOverHq { .. } | Edit::Ruling | Edit::EndCampaign => None,
        }
    }
}

impl EventKind {
    /// Names of the kinds the store looks up in SQL (see the test below).
    pub const CAMPAIGN_CREATED: &'static str = "campaign_created";
    pub const CHECKPOINT: &'static str = "checkpoint";
    pub const TURN_UNDONE: &'static str = "turn_undone";
    pub const RESULT_UNDONE: &'static str = "result_undone";
    pub const EDIT_UNDONE: &'static str = "edit_undone";
    pub const ORDERS_GIVEN: &'static str = "orders_given";
    pub const SERVER_SETTINGS: &'static str = "server_settings";

    /// The kind named `name` with `payload`, as read from the save.
    pub fn read(name: &str, payload: serde_json::Value) -> Result<EventKind, serde_json::Error> {
        let mut raw = serde_json::Map::new();
        raw.insert("kind".to_owned(), serde_json::Value::String(name.to_owned()));
        raw.insert("payload".to_owned(), payload);
        serde_json::from_value(serde_json::Value::Object(raw))
    }

    /// The kind named `name` with the payload written as JSON `payload`.
    pub fn read_text(name: &str, payload: &str) -> Result<EventKind, serde_json::Error> {
        // One whole JSON value, so that nothing in it can stand beside the
        // kind in the object built below; read without building a tree.
        serde_json::from_str::<serde::de::IgnoredAny>(payload)?;
        let name = serde_json::to_string(name)?;
        serde_json::from_str(&format!(r#"{{"kind":{name},"payload":{payload}}}"#))
    }

    /// The payload as written in the save: a JSON object, keys sorted.
    pub fn payload(&self) -> serde_json::Value {
        match serde_json::to_value(self) {
            Ok(serde_json::Value::Object(mut map)) => map.remove("payload").unwrap_or_default(),
            _ => serde_json::Value::Null,
        }
    }

    /// The whole state the event keeps, as JSON: the start's, or a checkpoint's.
    pub fn kept_state(&self) -> Option<&serde_json::Value> {
        if let EventKind::CampaignCreated(state) = self {
            Some(state)
        } else if let EventKind::Checkpoint(c) = self {
            Some(&c.state)
        } else {
            None
        }
    }

    /// The battle the event is about, when it names one.
    pub fn battle(&self) -> Option<u32> {
        use EventKind as K;
        match self {
            K::Checkpoint(c) => c.battle,
            K::ResultUndone(r) => Some(r.battle),
            K::BattleCreated(b) => Some(b.battle),
            K::BattleJoined(b) => Some(b.battle),
            K::BattleCalledOff(b) => Some(b.battle),
            K::HqCaptured(h) | K::HqRetaken(h) => h.battle,
            K::BattleLosses(b) => Some(b.battle),
            K::GunCaptured(g) => Some(g.battle),
            K::BattleFought(b) => Some(b.battle),
            K::Retreated(r) => Some(r.battle),
            K::DestroyedInRetreat(d) => Some(d.battle),
            K::CampaignCreated(_)
            | K::CampaignEnded(_)
            | K::ServerSettings(_)
            | K::LogStarted(_)
            | K::TurnUndone(_)
            | K::Edited(_)
            | K::EditUndone(_)
            | K::OrdersGiven(_)
            | K::OrdersWithdrawn(_)
            | K::OrderLapsed(_)
            | K::ForceSplit(_)
            | K::ForcesMerged(_)
            | K::Rested(_)
            | K::Moved(_)
            | K::MustRest(_)
            | K::ForcedMarchLoss(_)
            | K::StandsRejoined(_)
            | K::HqLoss(_)
            | K::SupplyRestored(_)
            | K::SupplyCut(_)
            | K::SupplyStillCut(_)
            | K::SupplyLoss(_)
            | K::ForceDestroyed(_)
            | K::TurnEnded(_)
            | K::ForceSighted(_)
            | K::ForceIdentified(_)
            | K::ForceConcealed(_)
            | K::ForceLostSight(_)
            | K::ForceGone(_)
            | K::ScoutsDroveOffScreen(_)
            | K::ScoutsBrokeCover(_)
            | K::ScoutsDrivenOff(_)
            | K::ReinforcementArrived(_)
            | K::ReplacementsArrived(_)
            | K::ReplacementsWithheld(_) => None,
        }
    }
}

/// Builds the events of one change (a game move, a battle's result, the
/// fog's look), numbered from 0 in the order told.
#[derive(Debug, Clone, Default)]
pub struct EventLog {
    turn: u32,
    events: Vec<Event>,
}

impl EventLog {
    /// An empty log for game move `turn`.
    pub fn new(turn: u32) -> EventLog {
        EventLog {
            turn,
            events: Vec::new(),
        }
    }

    /// Tells one event, numbered after those told before.
    pub fn tell(&mut self, kind: EventKind, sentence: String) {
        let seq = u32::try_from(self.events.len()).unwrap_or(u32::MAX);
        self.events.push(Event {
            turn: self.turn,
            seq,
            kind,
            sentence,
        });
    }

    /// The events told so far.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The events told, oldest first.
    pub fn into_events(self) -> Vec<Event> {
        self.events
    }
}

/// A reinforcement arrived: the new force `force` of `side` in `region`, with its stands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReinforcementArrived {
    pub force: ForceId,
    pub side: SideId,
    pub region: RegionId,
    pub stands: Vec<StandId>,
    pub points: u64,
}

/// Replacements arrived at `side`'s `wing` HQ in `region`: `stands` joined
/// `force`, which they formed when `formed`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReplacementsArrived {
    pub side: SideId,
    pub wing: Wing,
    pub region: RegionId,
    pub force: ForceId,
    pub formed: bool,
    pub stands: Vec<StandId>,
    pub points: u64,
}

/// Replacements due at `side`'s `wing` HQ did not come: `held_by` holds it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReplacementsWithheld {
    pub side: SideId,
    pub wing: Wing,
    pub region: RegionId,
    pub held_by: SideId,
}

/// Why the log starts late.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LogStarted {
    pub reason: String,
}

/// The state after a change, kept for undo: `state` is the whole campaign as
/// JSON; `first_seq` the change's first event; `battle` the battle whose
/// result it follows, if it is one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint {
    pub first_seq: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub battle: Option<u32>,
    /// The change is an umpire's edit (the pencil), not a game move.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub edit: bool,
    /// The whole state after the change, in checkpoints written before schema 7;
    /// since then the store keeps it apart (`store::checkpoints`) and this is null
    /// except where `Store::events_with_states` fills it in for the app's history.
    #[serde(default, skip_serializing_if = "serde_json::Value::is_null")]
    pub state: serde_json::Value,
}

/// Game move `turn` taken back: its events `first_seq..=last_seq` no longer stand.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TurnUndone {
    pub turn: u32,
    pub first_seq: u32,
    pub last_seq: u32,
}

/// Battle `battle`'s result taken back: its events `first_seq..=last_seq` no longer stand.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResultUndone {
    pub battle: u32,
    pub first_seq: u32,
    pub last_seq: u32,
}

/// An umpire's edit taken back: its events `first_seq..=last_seq` no longer stand.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EditUndone {
    pub first_seq: u32,
    pub last_seq: u32,
}

/// An umpire's edit, with the umpire's reason (for a ruling, its text).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Edited {
    pub edit: Edit,
    pub reason: String,
}

/// A change the umpire makes by hand, outside the rules: what paper,
/// Vassal and every club umpire do with a pencil.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "edit", rename_all = "snake_case")]
pub enum Edit {
    /// Puts a force in a region, off any road, holding.
    MoveForce { force: ForceId, to: RegionId },
    /// A new force (a reinforcement) in a region, with its stands.
    AddForce {
        force: ForceId,
        name: String,
        side: SideId,
        region: RegionId,
        stands: Vec<super::Stand>,
    },
    /// Stands joining a force (replacements).
    AddStands {
        force: ForceId,
        stands: Vec<super::Stand>,
    },
    /// A stand of a force taken off the map.
    RemoveStand { force: ForceId, stand: StandId },
    /// A stand's strength set, in roster points.
    SetStrength {
        force: ForceId,
        stand: StandId,
        strength: u32,
    },
    /// An HQ handed to a side (its own, to give it back).
    HandOverHq { side: SideId, wing: Wing, to: SideId },
    /// A force told to hold, to rest, or rested (its forced marches forgotten).
    SetState { force: ForceId, state: ForceState },
    /// A ruling: words for the log, no change to the map.
    Ruling,
    /// The umpire declares the campaign ended, for the edit's reason.
    EndCampaign,
}

/// What [`Edit::SetState`] sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ForceState {
    /// Stops marching: its march order is dropped.
    Hold,
    /// Must rest this game move (as after forced marches).
    Rest,
    /// Fresh: no rest owed and no forced marches counted.
    Fresh,
}

/// A side's orders, as checked (the orders are kept as their JSON).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OrdersGiven {
    pub side: SideId,
    pub source: String,
    pub orders: serde_json::Value,
    /// Orders given by the programmed commander (`ai`): its log and what it
    /// remembers for the next game move, for the umpire's eyes (no other
    /// side hears of orders given). Absent for orders a person gave.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commander: Option<serde_json::Value>,
}

impl OrdersGiven {
    /// The programmed commander's reasons for these orders, in sentences;
    /// empty for orders a person gave.
    pub fn commander_log(&self) -> Vec<&str> {
        self.commander
            .as_ref()
            .and_then(|note| note.get("log"))
            .and_then(serde_json::Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(serde_json::Value::as_str)
            .collect()
    }
}

/// Which server setting the umpire changed, and to what.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ServerSettings {
    /// `settings` (auto-resolve and the deadline) or `reminders`.
    pub setting: String,
    /// Resolve as soon as every side's orders are in (`settings`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auto_resolve: Option<bool>,
    /// The deadline, Unix seconds (`settings`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline: Option<i64>,
    /// Reminders on, and how many minutes before the deadline (`reminders`;
    /// the webhook's address is not logged).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remind_minutes: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OrdersWithdrawn {
    pub side: SideId,
    pub source: String,
    /// The withdrawn orders' row in the save.
    pub orders_seq: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OrderLapsed {
    pub force: ForceId,
    pub why: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ForceSplit {
    pub force: ForceId,
    pub new_force: ForceId,
    pub name: String,
    pub stands: Vec<StandId>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ForcesMerged {
    pub force: ForceId,
    pub into: ForceId,
    pub stands: usize,
}

/// A force and the rule that applies to it (rested, must rest).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ForceRule {
    pub force: ForceId,
    pub rule: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Moved {
    pub force: ForceId,
    pub from: Option<RegionId>,
    pub to: RegionId,
    pub en_route: Option<EnRoute>,
    pub miles: f64,
    pub forced: bool,
    pub halted: Option<String>,
    /// By train or steamer; left out for a march on foot.
    #[serde(default, skip_serializing_if = "Conveyance::is_foot")]
    pub by: Conveyance,
}

/// A stand lost by a force under a rule (forced march).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StandLost {
    pub force: ForceId,
    pub stand: StandId,
    pub rule: String,
}

/// Stands that come back to a force under a house rule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StandsRejoined {
    pub force: ForceId,
    pub stands: Vec<StandId>,
    pub rule: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BattleCreated {
    pub battle: u32,
    pub region: RegionId,
    pub attacker: SideId,
    pub defender: SideId,
    pub forces: Vec<ForceId>,
    pub reserves: Vec<ForceId>,
}

/// A pending battle called off: `gone` are the sides with no force left in it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BattleCalledOff {
    pub battle: u32,
    pub region: RegionId,
    pub attacker: SideId,
    pub defender: SideId,
    pub gone: Vec<SideId>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BattleJoined {
    pub battle: u32,
    pub force: ForceId,
}

/// An HQ of `side` passing to `held_by`, by winning `battle` if one did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HqChange {
    pub side: SideId,
    pub wing: Wing,
    pub region: RegionId,
    pub held_by: SideId,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub battle: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HqLoss {
    pub side: SideId,
    pub force: ForceId,
    pub stand: StandId,
    pub rule: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SupplyRestored {
    pub force: ForceId,
    pub after_moves: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SupplyCut {
    pub force: ForceId,
    pub cut_at: Vec<RegionId>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SupplyStillCut {
    pub force: ForceId,
    pub cut_moves: u32,
    pub cut_at: Vec<RegionId>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SupplyLoss {
    pub force: ForceId,
    pub stand: StandId,
    pub arm: Arm,
    pub cut_moves: u32,
    pub rule: String,
    /// The enemy-held regions its sentence names, so a side's report can hide
    /// those it has not seen. Absent in saves written before it was kept.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cut_at: Vec<RegionId>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ForceDestroyed {
    pub force: ForceId,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TurnEnded {
    pub turn: u32,
    pub battles_pending: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BattleLosses {
    pub battle: u32,
    pub force: ForceId,
    pub points: u64,
    /// The names of the stands struck off.
    pub destroyed: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GunCaptured {
    pub battle: u32,
    pub stand: StandId,
    pub from: Option<ForceId>,
    pub to: ForceId,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BattleFought {
    pub battle: u32,
    pub region: RegionId,
    pub winner: Option<SideId>,
    pub rules: RuleSetId,
    pub source: ResultSource,
    pub losses: Vec<SideLoss>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Retreated {
    pub battle: u32,
    pub force: ForceId,
    pub from: RegionId,
    pub to: RegionId,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DestroyedInRetreat {
    pub battle: u32,
    pub force: ForceId,
    pub stands: usize,
}

/// What side `by` made of force `force` of side `side`, and where.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sighted {
    pub by: SideId,
    pub force: ForceId,
    pub side: SideId,
    pub marker: u32,
    pub region: RegionId,
    pub en_route: Option<EnRoute>,
    pub seen: Seen,
    pub how: How,
}

/// Why a side's record of a force leaves its view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Gone {
    /// The side saw it merge into another force (`into`).
    Merged,
    /// The side saw it destroyed.
    Destroyed,
    /// The side looked where it was last seen and it is not there.
    NotFound,
}

/// Side `by`'s record of a force, as it was last, leaving its view, and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ForceGone {
    #[serde(flatten)]
    pub sighted: Sighted,
    pub why: Gone,
    /// The game move in which it was last seen.
    pub last_seen: u32,
    /// Merged: the force it joined, when the side knows it (`None`: a force
    /// the side had no record of).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub into: Option<ForceId>,
}

/// A sighting decided by the scouts of force `scouts`, with their morale throws.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Scouting {
    #[serde(flatten)]
    pub sighted: Sighted,
    pub scouts: Option<ForceId>,
    pub scout_points: u32,
    pub scout_die: u32,
    pub other_points: u32,
    pub other_die: u32,
    pub throws: u32,
    pub rule: String,
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[test]
    fn every_name_reads_back_as_its_kind() {
        let kind = EventKind::ForceDestroyed(ForceDestroyed {
            force: ForceId::new("a"),
        });
        let payload = kind.payload();
        assert_eq!(payload, serde_json::json!({ "force": "a" }));
        assert_eq!(EventKind::read(kind.name(), payload).unwrap(), kind);
        assert!(EventKind::NAMES.contains(&kind.name()));
        assert!(EventKind::read("no_such_kind", serde_json::json!({})).is_err());
        assert_eq!(
            EventKind::read_text("force_destroyed", r#"{"force":"a"}"#).unwrap(),
            kind
        );
        // A payload that would close the object and name another kind is refused.
        let forged = r#"{"force":"a"},"kind":"turn_ended","payload":{"turn":1,"battles_pending":0}"#;
        assert!(EventKind::read_text("force_destroyed", forged).is_err());
    }

    #[test]
    fn the_names_the_store_looks_up_are_the_kinds_names() {
        let names = [
            EventKind::CAMPAIGN_CREATED,
            EventKind::CHECKPOINT,
            EventKind::TURN_UNDONE,
            EventKind::RESULT_UNDONE,
            EventKind::ORDERS_GIVEN,
            EventKind::EDIT_UNDONE,
            EventKind::SERVER_SETTINGS,
        ];
        let kinds = [
            EventKind::CampaignCreated(serde_json::Value::Null),
            EventKind::Checkpoint(Checkpoint {
                first_seq: 0,
                battle: None,
                edit: false,
                state: serde_json::Value::Null,
            }),
            EventKind::TurnUndone(TurnUndone {
                turn: 1,
                first_seq: 0,
                last_seq: 0,
            }),
            EventKind::ResultUndone(ResultUndone {
                battle: 1,
                first_seq: 0,
                last_seq: 0,
            }),
            EventKind::OrdersGiven(OrdersGiven {
                side: SideId::new("a"),
                source: String::new(),
                orders: serde_json::Value::Null,
                commander: None,
            }),
            EventKind::EditUndone(EditUndone {
                first_seq: 0,
                last_seq: 0,
            }),
            EventKind::ServerSettings(ServerSettings {
                setting: "settings".to_owned(),
                auto_resolve: Some(true),
                deadline: None,
                remind_minutes: None,
            }),
        ];
        assert_eq!(names, kinds.map(|k| k.name()));
    }

    #[test]
    fn an_event_serializes_as_kind_and_payload() {
        let mut log = EventLog::new(3);
        log.tell(
            EventKind::TurnEnded(TurnEnded {
                turn: 3,
                battles_pending: 1,
            }),
            "Game move 3 ends.".to_owned(),
        );
        let event = log.into_events().remove(0);
        let text = serde_json::to_string(&event).unwrap();
        assert_eq!(
            text,
            r#"{"turn":3,"seq":0,"kind":"turn_ended","payload":{"battles_pending":1,"turn":3},"sentence":"Game move 3 ends."}"#
        );
        assert_eq!(serde_json::from_str::<Event>(&text).unwrap(), event);
    }
}
