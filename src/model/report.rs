//! A side's report, for play by email: what that side knows, and nothing else.
//!
//! `umpire report SAVE SIDE OUT` writes one; the player's app opens it
//! read-only and writes the side's orders file from it. The shape is JSON,
//! documented in docs/FILES.md; [`write_report`] and [`read_report`] are the
//! pure pair that turn a [`Report`] into text and back.
//!
//! A report holds the public things (the map, the sides, the HQs and who
//! holds them), the side's own forces in full with their orders and supply,
//! the enemy forces as the side last saw them ([`crate::model::Knowledge`]:
//! a blind has only its marker number and place), the pending battles it is
//! in with both sides in full (the table needs them), and the last game
//! move's events as its commanders would hear of them ([`heard_by`]). Never
//! a name, an id, a strength or a position of an enemy force the side has
//! not seen.

use super::campaign::{Approach, Campaign, EnRoute, Force, Hq, RuleSetId, Side};
use super::date::Date;
use super::event::{Edit, Event, EventKind};
use super::history::History;
use super::house_rules::HouseRules;
use super::ids::{ForceId, RegionId, SideId};
use super::knowledge::{How, Seen, Sighting};
use super::map::Map;
use super::stand::Stand;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};

/// The `format` of every report.
pub const REPORT_FORMAT: &str = "umpire-report";

/// The report shape this build writes; it reads this one and older.
pub const REPORT_VERSION: u32 = 1;

/// One side's report at the start of a game move.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// Always [`REPORT_FORMAT`].
    pub format: String,
    /// [`REPORT_VERSION`] when written.
    pub version: u32,
    /// The campaign's title: an orders file's `campaign`.
    pub campaign: String,
    /// The side it is for: an orders file's `side`.
    pub side: SideId,
    pub side_name: String,
    /// The game move to give orders for: an orders file's `turn`.
    pub turn: u32,
    /// Its date; `None` past the calendar's end.
    pub date: Option<Date>,
    pub days_per_turn: u32,
    pub miles_per_inch: f64,
    /// Railway and river steamer rates and capacities, when not this program's defaults.
    #[serde(default, skip_serializing_if = "super::Transport::is_default")]
    pub transport: super::Transport,
    /// The campaign's house rules, public: every side plays by them.
    /// Left out when they are the seeds'.
    #[serde(default, skip_serializing_if = "HouseRules::is_seed")]
    pub house_rules: HouseRules,
    /// The campaign's default battle rule set.
    pub rules: RuleSetId,
    /// The map, public: regions and roads.
    pub map: Map,
    /// Every side, public: id, name, colour, army.
    pub sides: Vec<Side>,
    /// Every HQ and who holds it, public: fixed places on the map.
    pub hqs: Vec<Hq>,
    /// The side's own forces in full: stands, march, fatigue, supply.
    pub forces: Vec<Force>,
    /// Enemy forces as the side last saw them.
    pub known: Vec<KnownForce>,
    /// Pending battles the side is in, both sides in full.
    pub battles: Vec<ReportBattle>,
    /// The last game move's events as the side's commanders heard of them.
    pub events: Vec<HeardEvent>,
    /// How the campaign ends, public: its conditions, and the end once it came.
    #[serde(default, skip_serializing_if = "super::end::End::is_unset")]
    pub end: super::end::End,
}

/// An enemy force as a side knows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KnownForce {
    /// The side's number for it: "blind 3".
    pub marker: u32,
    /// Whose force it is.
    pub side: SideId,
    /// A blind: seen but not made out; then `id`, `name`, `points` and `stands` are `None`.
    pub blind: bool,
    pub id: Option<ForceId>,
    pub name: Option<String>,
    /// Its strength in roster points when last seen in full.
    pub points: Option<u64>,
    pub stands: Option<usize>,
    /// Where it was last seen.
    pub region: RegionId,
    pub en_route: Option<EnRoute>,
    /// The game move in which it was last seen.
    pub seen_turn: u32,
    /// Seen at the end of the last game move; `false`: remembered.
    pub in_sight: bool,
    pub how: How,
}

impl KnownForce {
    /// The side's view of one sighting: a blind without name, id or strength.
    pub fn of(sighting: &Sighting) -> KnownForce {
        let (id, name, points, stands) = match &sighting.seen {
            Seen::Blind => (None, None, None, None),
            Seen::Full { name, points, stands } => (
                Some(sighting.force.clone()),
                Some(name.clone()),
                Some(*points),
                Some(*stands),
            ),
        };
        KnownForce {
            marker: sighting.marker,
            side: sighting.side.clone(),
            blind: sighting.seen.is_blind(),
            id,
            name,
            points,
            stands,
            region: sighting.region.clone(),
            en_route: sighting.en_route.clone(),
            seen_turn: sighting.turn,
            in_sight: sighting.in_sight,
            how: sighting.how,
        }
    }

    /// "Blue Host" or "blind 3".
    pub fn label(&self) -> String {
        match &self.name {
            Some(name) if !self.blind => name.clone(),
            _ => format!("blind {}", self.marker),
        }
    }
}

/// A pending battle in a report: both sides' forces in full.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReportBattle {
    pub id: u32,
    /// The game move in which the forces met.
    pub turn: u32,
    pub region: RegionId,
    pub attacker: SideId,
    pub defender: SideId,
    pub forces: Vec<BattleForce>,
    /// Forces of either side within one move, which may join.
    pub reserves: Vec<BattleForce>,
    /// The region each force marched in from: its table edge.
    pub came_from: Vec<Approach>,
}

/// A force in a battle, as both sides see it on the table: its stands, not
/// its orders or supply.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BattleForce {
    pub id: ForceId,
    pub name: String,
    pub side: SideId,
    pub region: RegionId,
    pub stands: Vec<Stand>,
}

/// An event as a side heard of it: its sentence, not its data.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeardEvent {
    pub turn: u32,
    pub seq: u32,
    pub kind: String,
    pub sentence: String,
}

/// Why a report could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReportError {
    #[error("{line}:{column}: {message}: the report is not valid JSON; write it again with `umpire report`")]
    Json {
        line: usize,
        column: usize,
        message: String,
    },
    #[error("this is not an umpire report ({why}): open a file written by `umpire report`")]
    NotAReport { why: String },
    #[error(
        "this report is version {found}, newer than this umpire reads (up to {known}): update umpire to open it"
    )]
    Newer { found: u32, known: u32 },
}

/// The report as JSON text, ending in a newline.
pub fn write_report(report: &Report) -> String {
    let mut text = serde_json::to_string_pretty(report).unwrap_or_default();
    text.push('\n');
    text
}

/// Reads a report written by [`write_report`]: refuses anything that is not
/// a report, or a newer version of one, before reading its contents.
pub fn read_report(text: &str) -> Result<Report, ReportError> {
    let json = |e: serde_json::Error| {
        let message = e.to_string();
        ReportError::Json {
            line: e.line(),
            column: e.column(),
            message: message.split(" at line ").next().unwrap_or_default().to_owned(),
        }
    };
    let value: serde_json::Value = serde_json::from_str(text).map_err(json)?;
    let format = value.get("format").and_then(|f| f.as_str());
    if format != Some(REPORT_FORMAT) {
        let why = match format {
            Some(other) => format!("its `format` is \"{other}\", not \"{REPORT_FORMAT}\""),
            None => format!("it has no `format = \"{REPORT_FORMAT}\"`"),
        };
        return Err(ReportError::NotAReport { why });
    }
    let version = value
        .get("version")
        .and_then(serde_json::Value::as_u64)
        .map_or(u32::MAX, |v| u32::try_from(v).unwrap_or(u32::MAX));
    if version > REPORT_VERSION {
        return Err(ReportError::Newer {
            found: version,
            known: REPORT_VERSION,
        });
    }
    serde_json::from_str(text).map_err(json)
}

impl Report {
    /// `side`'s report on `campaign` now. `log` is the save's event log
    /// (oldest first), from which the last game move's events are taken.
    /// `None` when the campaign has no such side.
    pub fn of(campaign: &Campaign, side: &SideId, log: &[Event]) -> Option<Report> {
        let me = campaign.side(side)?;
        let forces: Vec<Force> = campaign.forces_of(side).cloned().collect();
        let known = campaign.knowledge.of(side).map(KnownForce::of).collect();
        let battle_force = |id: &ForceId| {
            campaign.force(id).map(|f| BattleForce {
                id: f.id.clone(),
                name: f.name.clone(),
                side: f.side.clone(),
                region: f.region.clone(),
                stands: f.stands.clone(),
            })
        };
        let battles = campaign
            .battles
            .iter()
            .filter(|b| b.status == super::campaign::BattleStatus::Pending && in_battle(campaign, side, b))
            .map(|b| ReportBattle {
                id: b.id,
                turn: b.turn,
                region: b.region.clone(),
                attacker: b.attacker.clone(),
                defender: b.defender.clone(),
                forces: b.forces.iter().filter_map(battle_force).collect(),
                reserves: b.reserves.iter().filter_map(battle_force).collect(),
                came_from: b.came_from.clone(),
            })
            .collect();
        let last = campaign.turn.checked_sub(1);
        // The last game move's events, then what has happened since: the
        // results of battles fought before these orders.
        let mut standing = match last {
            Some(t) if t >= campaign.start_turn => standing_events(log, t),
            _ => Vec::new(),
        };
        standing.extend(standing_events(log, campaign.turn));
        let events = heard_by(campaign, side, log, &standing);
        Some(Report {
            format: REPORT_FORMAT.to_owned(),
            version: REPORT_VERSION,
            campaign: campaign.title.clone(),
            side: side.clone(),
            side_name: me.name.clone(),
            turn: campaign.turn,
            date: campaign.date(),
            days_per_turn: campaign.days_per_turn,
            miles_per_inch: campaign.miles_per_inch,
            transport: campaign.transport.clone(),
            house_rules: campaign.house_rules.clone(),
            rules: campaign.rules,
            map: campaign.map.clone(),
            sides: campaign.sides.clone(),
            hqs: campaign.hqs.clone(),
            forces,
            known,
            battles,
            events,
            // The conditions are public; another side's starting strength is not.
            end: {
                let mut end = campaign.end.clone();
                end.rules.start_points.retain(|p| &p.side == side);
                end
            },
        })
    }
}

/// Whether `side` fights in `battle`: as attacker, defender, or with a force in it.
fn in_battle(campaign: &Campaign, side: &SideId, battle: &super::campaign::Battle) -> bool {
    &battle.attacker == side
        || &battle.defender == side
        || battle
            .forces
            .iter()
            .any(|f| campaign.force(f).is_some_and(|f| &f.side == side))
}

/// The events of game move `turn` in `log` that still stand: not taken back
/// by an undo ([`History`]), and not the log's bookkeeping (checkpoints, undos).
pub fn standing_events(log: &[Event], turn: u32) -> Vec<&Event> {
    let history = History::of(log);
    log.iter()
        .enumerate()
        .filter(|(i, e)| e.turn == turn && !e.kind.is_bookkeeping() && !history.is_undone(*i))
        .map(|(_, e)| e)
        .collect()
}

/// Whose each force was, for every force the log and the campaign name: the
/// starting forces, forces made by splits, and the forces now.
fn force_sides(campaign: &Campaign, log: &[Event]) -> HashMap<ForceId, SideId> {
    let mut sides: HashMap<ForceId, SideId> = HashMap::new();
    let text = |v: &serde_json::Value, key: &str| v.get(key).and_then(|x| x.as_str()).map(str::to_owned);
    for event in log {
        if let EventKind::CampaignCreated(start) = &event.kind {
            for f in start
                .get("forces")
                .and_then(|f| f.as_array())
                .into_iter()
                .flatten()
            {
                if let (Some(id), Some(side)) = (text(f, "id"), text(f, "side")) {
                    sides.insert(ForceId::new(id), SideId::new(side));
                }
            }
        } else if let EventKind::ForceSplit(split) = &event.kind
            && let Some(side) = sides.get(&split.force).cloned()
        {
            sides.insert(split.new_force.clone(), side);
        } else if let EventKind::Edited(edited) = &event.kind
            && let Edit::AddForce { force, side, .. } = &edited.edit
        {
            sides.insert(force.clone(), side.clone());
        } else if let EventKind::ReinforcementArrived(r) = &event.kind {
            sides.insert(r.force.clone(), r.side.clone());
        } else if let EventKind::ReplacementsArrived(r) = &event.kind {
            sides.insert(r.force.clone(), r.side.clone());
        }
    }
    for f in &campaign.forces {
        sides.insert(f.id.clone(), f.side.clone());
    }
    sides
}

/// Which of `events` `side` hears of, as it hears them:
///
/// - orders it gave or withdrew;
/// - the events of its own forces (marches, rests, losses, splits and
///   merges, supply, destruction);
/// - battles it is in (both sides named: the battle shows them in full),
///   and their results;
/// - HQ events about its own HQs, or HQs it took or holds;
/// - what it saw and what its scouts did (`force_sighted`, `force_identified`,
///   `force_concealed`, `force_lost_sight`, `force_gone`, `scouts_*` with
///   `by` = the side).
///
/// Never the log's bookkeeping (`campaign_created`, `log_started`,
/// `checkpoint`, `turn_undone`), the move's end (it counts every battle), nor
/// another side's events. Every kind is listed: a new kind does not compile
/// until it is placed here. A supply event naming where the enemy cuts the
/// road names only places where the side sees an enemy force now; otherwise
/// it says the road is cut, not where.
pub fn heard_by(campaign: &Campaign, side: &SideId, log: &[Event], events: &[&Event]) -> Vec<HeardEvent> {
    use EventKind as K;
    let sides = force_sides(campaign, log);
    let own = |f: &ForceId| sides.get(f) == Some(side);
    let battles: HashSet<u32> = campaign
        .battles
        .iter()
        .filter(|b| in_battle(campaign, side, b))
        .map(|b| b.id)
        .collect();
    let in_it = |b: u32| battles.contains(&b);
    // Regions where the side sees an enemy force now.
    let seen_at: HashSet<&RegionId> = campaign
        .knowledge
        .of(side)
        .filter(|s| s.in_sight && s.en_route.is_none())
        .map(|s| &s.region)
        .collect();
    let mut heard = Vec::new();
    for event in events {
        let mut sentence = event.sentence.clone();
        let hears = match &event.kind {
            K::CampaignCreated(_)
            | K::LogStarted(_)
            | K::Checkpoint(_)
            | K::TurnUndone(_)
            | K::TurnEnded(_) => false,
            // The umpire's server settings (the deadline is on the side's orders page).
            K::ServerSettings(_) => false,
            // The end and the final standing are public: every side hears them.
            K::CampaignEnded(_) => true,
            K::OrdersGiven(o) => &o.side == side,
            K::OrdersWithdrawn(o) => &o.side == side,
            K::Moved(m) => own(&m.force),
            K::Rested(r) | K::MustRest(r) => own(&r.force),
            K::ForcedMarchLoss(l) => own(&l.force),
            // Others learn of the new strength only as the fog lets them.
            K::StandsRejoined(r) => own(&r.force),
            K::OrderLapsed(l) => own(&l.force),
            K::ForceSplit(s) => own(&s.force),
            K::ForcesMerged(m) => own(&m.force),
            K::SupplyRestored(s) => own(&s.force),
            K::SupplyCut(s) => {
                sentence = unseen_cuts_hidden(campaign, &seen_at, &s.force, &s.cut_at, sentence);
                own(&s.force)
            }
            K::SupplyStillCut(s) => {
                sentence = unseen_cuts_hidden(campaign, &seen_at, &s.force, &s.cut_at, sentence);
                own(&s.force)
            }
            K::SupplyLoss(s) => {
                sentence = if s.cut_at.is_empty() {
                    // Written before the regions were kept with the loss: name none.
                    cuts_unnamed(&sentence)
                } else {
                    unseen_cuts_hidden(campaign, &seen_at, &s.force, &s.cut_at, sentence)
                };
                own(&s.force)
            }
            K::ForceDestroyed(d) => own(&d.force),
            K::BattleCreated(b) => in_it(b.battle),
            K::BattleJoined(b) => in_it(b.battle),
            K::BattleCalledOff(b) => in_it(b.battle),
            K::HqCaptured(h) | K::HqRetaken(h) => &h.side == side || &h.held_by == side,
            K::HqLoss(h) => &h.side == side,
            K::ForceSighted(s) | K::ForceIdentified(s) | K::ForceConcealed(s) | K::ForceLostSight(s) => {
                &s.by == side
            }
            K::ForceGone(g) => &g.sighted.by == side,
            K::ScoutsDroveOffScreen(s) | K::ScoutsBrokeCover(s) | K::ScoutsDrivenOff(s) => {
                &s.sighted.by == side
            }
            K::ResultUndone(r) => in_it(r.battle),
            // The pencil: the sides it concerns hear of it; others learn of
            // what it changed only as the fog lets them.
            K::Edited(e) => edit_heard_by(side, &e.edit, &own),
            K::EditUndone(_) => false,
            K::BattleLosses(b) => in_it(b.battle),
            K::GunCaptured(g) => in_it(g.battle),
            K::BattleFought(b) => in_it(b.battle),
            K::Retreated(r) => in_it(r.battle),
            K::DestroyedInRetreat(d) => in_it(d.battle),
            // Troops arriving: their own side hears; the others see them only
            // as the fog lets them, as any force that marched in.
            K::ReinforcementArrived(r) => &r.side == side,
            K::ReplacementsArrived(r) => &r.side == side,
            K::ReplacementsWithheld(r) => &r.side == side,
        };
        if !hears {
            continue;
        }
        heard.push(HeardEvent {
            turn: event.turn,
            seq: event.seq,
            kind: event.kind.name().to_owned(),
            sentence,
        });
    }
    heard
}

/// Whether `side` hears of the umpire's edit `edit`: a ruling, every side;
/// an HQ handed over, its own side and the side given it; a stand's
/// strength or its removal, and anything done to a force, the force's side.
fn edit_heard_by(side: &SideId, edit: &Edit, own: &impl Fn(&ForceId) -> bool) -> bool {
    match edit {
        Edit::Ruling | Edit::EndCampaign => true,
        Edit::HandOverHq { side: of, to, .. } => of == side || to == side,
        Edit::AddForce { side: of, .. } => of == side,
        Edit::MoveForce { force, .. }
        | Edit::AddStands { force, .. }
        | Edit::SetState { force, .. }
        | Edit::RemoveStand { force, .. }
        | Edit::SetStrength { force, .. } => own(force),
    }
}

/// A supply sentence about force `force` without the places the enemy cuts
/// the road (`cuts`), when the side does not see an enemy force at every one
/// of them.
/// A supply sentence with whatever regions it names as cutting the road
/// taken out, for losses kept before their regions were recorded.
fn cuts_unnamed(sentence: &str) -> String {
    let (start, end) = ("the enemy holds ", " on its road to the nearest HQ");
    match sentence.find(start) {
        Some(at) => match sentence.get(at..).and_then(|rest| rest.find(end)) {
            Some(len) => format!(
                "{}the enemy holds its road to the nearest HQ{}",
                sentence.get(..at).unwrap_or_default(),
                sentence.get(at + len + end.len()..).unwrap_or_default()
            ),
            None => sentence.to_owned(),
        },
        None => sentence.to_owned(),
    }
}

fn unseen_cuts_hidden(
    campaign: &Campaign,
    seen_at: &HashSet<&RegionId>,
    force: &ForceId,
    cuts: &[RegionId],
    sentence: String,
) -> String {
    if cuts.iter().all(|r| seen_at.contains(r)) {
        return sentence;
    }
    let names: Vec<&str> = cuts.iter().map(|r| campaign.map.region_name(r)).collect();
    // The words of `strategy::turn`'s supply sentences.
    let told = format!(
        "the enemy holds {} on its road to the nearest HQ",
        names.join(", ")
    );
    let sentence = sentence.replace(&told, "the enemy holds its road to the nearest HQ");
    let unseen = cuts
        .iter()
        .filter(|r| !seen_at.contains(r))
        .map(|r| campaign.map.region_name(r));
    let still_named = unseen.clone().any(|name| sentence.contains(name));
    if !still_named {
        return sentence;
    }
    // Worded otherwise than expected: say only that it is cut off.
    let force = campaign.force(force).map_or("A force", |f| f.name.as_str());
    format!("{force} is cut off from its HQs (Strategic Rules 2.2).")
}
