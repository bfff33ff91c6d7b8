//! The campaign: its map, sides, HQs and forces.

use super::date::Date;
use super::house_rules::HouseRules;
use super::ids::{ForceId, RegionId, SideId, StandId};
use super::knowledge::Knowledge;
use super::map::Map;
use super::rng::RngState;
use super::stand::Stand;
use super::transport::{Conveyance, Transport};
use super::vocabulary;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

vocabulary! {
    /// The army kinds the 1965 rules distinguish (`scruby-1965-unbalanced-equality.txt`):
    /// trained regulars, and natives who dice for morale under fire.
    pub enum ArmyKind {
        Regular = "regular",
        Native = "native",
    }
}

vocabulary! {
    /// An HQ's wing. Strategic Rules 1 (`scruby-basic-war-game-rules.txt`):
    /// "Each side has one HQ for left, center and right flanks."
    pub enum Wing {
        Left = "left",
        Centre = "centre",
        Right = "right",
    }
}

vocabulary! {
    /// The battle rule sets, one per seed text.
    pub enum RuleSetId {
        Scruby1961 = "scruby-1961",
        ScrubyBasic = "scruby-basic",
        Harman2021 = "harman-2021",
        Scruby1965 = "scruby-1965",
        Cordery2009 = "cordery-2009",
    }
}

/// A side's colour on the map, `#rrggbb` in files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Colour(pub [u8; 3]);

impl Colour {
    /// Reads `#rrggbb`; `None` for anything else.
    pub fn parse(text: &str) -> Option<Colour> {
        let hex = text.strip_prefix('#')?;
        if hex.len() != 6 || !hex.is_ascii() {
            return None;
        }
        let byte = |i: usize| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok();
        Some(Colour([byte(0)?, byte(2)?, byte(4)?]))
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [r, g, b] = self.0;
        write!(f, "#{r:02x}{g:02x}{b:02x}")
    }
}

impl Serialize for Colour {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Colour {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Colour::parse(&text)
            .ok_or_else(|| serde::de::Error::custom(format!("`{text}` is not a #rrggbb colour")))
    }
}

/// One of the campaign's armies.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Side {
    pub id: SideId,
    pub name: String,
    pub colour: Colour,
    pub army: ArmyKind,
}

/// A headquarters: one of a side's three objectives.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Hq {
    /// The side whose HQ it is.
    pub side: SideId,
    pub wing: Wing,
    pub region: RegionId,
    pub name: Option<String>,
    /// The side holding it now: its own side, or the enemy who took it.
    pub held_by: SideId,
    /// The game move in which its own side lost it, while an enemy holds it.
    #[serde(default)]
    pub captured_turn: Option<u32>,
}

impl Hq {
    /// Its name from the campaign file, or "British Field Force left HQ"
    /// from its side's name when the file gives none.
    pub fn label(&self, side_name: &str) -> String {
        match &self.name {
            Some(name) => name.clone(),
            None => format!("{side_name} {} HQ", self.wing),
        }
    }
}

/// A named column of one side in one region.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Force {
    pub id: ForceId,
    pub name: String,
    pub side: SideId,
    /// The region it is in, or, while `en_route`, the region it last left.
    pub region: RegionId,
    pub stands: Vec<Stand>,
    /// Part-way along a road out of `region`, when a game move ended on the march.
    #[serde(default)]
    pub en_route: Option<EnRoute>,
    /// What it does each game move until told otherwise.
    #[serde(default)]
    pub order: StandingOrder,
    #[serde(default)]
    pub fatigue: Fatigue,
    #[serde(default)]
    pub supply: Supply,
    /// Stands fallen out on a forced march that may rejoin, under the house
    /// rule `rejoin_after_moves`; empty under the seed's rules.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fallen_out: Vec<FallenOut>,
}

/// A stand fallen out on a forced march, waiting to rejoin its force
/// (the house rule `rejoin_after_moves`; the seed removes it, Strategic Rules 3.1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FallenOut {
    pub stand: Stand,
    /// The game move in which it fell out.
    pub turn: u32,
}

/// Where a force is on a road between two regions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EnRoute {
    /// The region at the road's other end, which it is marching to.
    pub toward: RegionId,
    /// Miles marched from `region` so far.
    pub miles: f64,
}

/// A force's standing order, kept from game move to game move.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(tag = "order", rename_all = "snake_case")]
pub enum StandingOrder {
    #[default]
    Hold,
    /// March through `path` (the regions still ahead, in order).
    March {
        path: Vec<RegionId>,
        forced: bool,
        /// On foot, by train or by steamer.
        #[serde(default, skip_serializing_if = "Conveyance::is_foot")]
        by: Conveyance,
    },
}

/// Forced-march fatigue: Strategic Rules 3 of `scruby-basic-war-game-rules.txt`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Fatigue {
    /// Forced marches made in a row, up to the last game move.
    pub forced_in_row: u32,
    /// Must rest this game move: no movement.
    pub must_rest: bool,
}

/// Game moves a force may be cut off before it loses stands, unless the
/// campaign's house rules say otherwise (`HouseRules::supply_grace_moves`).
pub use super::house_rules::CUT_OFF_GRACE_MOVES;

/// A force's supply counters: Strategic Rules 2 of `scruby-basic-war-game-rules.txt`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Supply {
    /// Game moves in a row it has been cut off from every HQ of its side; 0 when supplied.
    pub cut_moves: u32,
    /// The arm whose stand goes next when cut-off losses are taken (they alternate).
    #[serde(default)]
    pub next_loss: Option<super::stand::Arm>,
}

/// Whether a battle still waits to be fought.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BattleStatus {
    /// Waiting to be fought.
    Pending,
    /// Fought, and its result applied to the campaign.
    Fought,
    /// Never fought: every force of one side in it was lost in the same game
    /// move (supply, an HQ lost, a retreat) before it could be fought; the
    /// other side holds the region (`strategy::hands::strike_empty`).
    CalledOff,
}

/// A battle made by a contact on the map.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Battle {
    pub id: u32,
    /// The game move in which the forces met.
    pub turn: u32,
    pub region: RegionId,
    /// The side that moved in.
    pub attacker: SideId,
    pub defender: SideId,
    /// The forces in the region, of both sides.
    pub forces: Vec<ForceId>,
    /// Forces of either side within one move, which may join.
    pub reserves: Vec<ForceId>,
    pub status: BattleStatus,
    /// The region each force marched in from; forces already in the region
    /// (or that came from nowhere, as at the start) have none.
    #[serde(default)]
    pub came_from: Vec<Approach>,
    /// The hand-off and what came of it.
    #[serde(default)]
    pub record: BattleRecord,
}

/// Where a force came into a battle from: its table edge.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Approach {
    pub force: ForceId,
    pub from: RegionId,
}

/// A battle's record: the scenario handed to the table, the odds computed
/// before it was fought, and its result.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct BattleRecord {
    /// The scenario, in the scenario JSON format, once made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prediction: Option<Prediction>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<BattleResult>,
    /// The folder its battle pack was last written to, as the umpire's
    /// machine names it (the chronicle links the pack's files from it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pack: Option<String>,
}

/// The engine's odds for a battle before it was fought.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Prediction {
    pub rules: RuleSetId,
    pub runs: u32,
    pub seed: u64,
    /// Each side's share of wins and its expected losses in points.
    pub sides: Vec<SidePrediction>,
    pub draws: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SidePrediction {
    pub side: SideId,
    pub wins: f64,
    pub expected_losses: f64,
}

impl Prediction {
    /// The side the engine expected to win, if one was more likely than the other and a draw.
    pub fn favourite(&self) -> Option<&SideId> {
        let best = self.sides.iter().max_by(|a, b| a.wins.total_cmp(&b.wins))?;
        let tied = self.sides.iter().filter(|s| s.wins == best.wins).count() > 1;
        (!tied && best.wins > self.draws).then_some(&best.side)
    }
}

/// How a battle came out, and where that came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BattleResult {
    /// The rule set it was fought under.
    pub rules: RuleSetId,
    pub source: ResultSource,
    /// `None`: a draw.
    pub winner: Option<SideId>,
    /// Points each side lost.
    pub losses: Vec<SideLoss>,
    /// In a sentence: the engine's verdict or the umpire's notes.
    pub verdict: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideLoss {
    pub side: SideId,
    pub points: u64,
}

/// Who decided the battle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum ResultSource {
    /// The built-in engine, with the seed that replays it.
    Engine { seed: u64 },
    /// Fought on the table; the results sheet's file name.
    Table { sheet: String },
}

impl Force {
    /// Current strength in roster points.
    pub fn points(&self) -> u64 {
        self.stands.iter().map(|s| u64::from(s.strength)).sum()
    }

    /// Full strength in roster points.
    pub fn full_points(&self) -> u64 {
        self.stands.iter().map(|s| u64::from(s.full)).sum()
    }
}

/// The whole campaign state at one game move.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Campaign {
    pub title: String,
    pub description: Option<String>,
    pub map: Map,
    /// The game move now being played (the first is `start_turn`).
    pub turn: u32,
    pub start_turn: u32,
    pub start_date: Date,
    pub days_per_turn: u32,
    /// The default battle rule set.
    pub rules: RuleSetId,
    pub rng: RngState,
    /// Map miles that one inch of the seeds' movement tables covers in a
    /// game move: the scale between the tabletop and the campaign map.
    #[serde(default = "default_miles_per_inch")]
    pub miles_per_inch: f64,
    /// Railway and river steamer rates and capacities.
    #[serde(default, skip_serializing_if = "Transport::is_default")]
    pub transport: Transport,
    pub sides: Vec<Side>,
    pub hqs: Vec<Hq>,
    pub forces: Vec<Force>,
    #[serde(default)]
    pub battles: Vec<Battle>,
    /// What each side knows of the others' forces (`strategy::fog`).
    #[serde(default)]
    pub knowledge: Knowledge,
    /// Forces still to arrive (`strategy::arrivals`); each leaves the list when it does.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reinforcements: Vec<super::arrival::Reinforcement>,
    /// Stands the sides receive every few game moves at an HQ they hold.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replacements: Vec<super::arrival::Replacements>,
    /// The rule parameters the campaign file sets; the seeds' when it sets none.
    #[serde(default, skip_serializing_if = "HouseRules::is_seed")]
    pub house_rules: HouseRules,
    /// How the campaign ends (`[end]` in its file), and the end once it came.
    #[serde(default, skip_serializing_if = "super::end::End::is_unset")]
    pub end: super::end::End,
}

/// Map miles per inch of the movement tables, unless the campaign file says.
///
/// This program's own scale, not a seed's: the infantry road move of the
/// movement chart (`scruby-basic-war-game-rules.txt`, Movement: 6 inches)
/// becomes a 15-mile day's march, 2.5 miles an inch.
pub const DEFAULT_MILES_PER_INCH: f64 = 2.5;

fn default_miles_per_inch() -> f64 {
    DEFAULT_MILES_PER_INCH
}

impl Campaign {
    pub fn side(&self, id: &SideId) -> Option<&Side> {
        self.sides.iter().find(|s| &s.id == id)
    }

    pub fn force(&self, id: &ForceId) -> Option<&Force> {
        self.forces.iter().find(|f| &f.id == id)
    }

    /// The pending battle in `region`, if any.
    pub fn battle_in(&self, region: &RegionId) -> Option<&Battle> {
        self.battles
            .iter()
            .find(|b| &b.region == region && b.status == BattleStatus::Pending)
    }

    /// The stand and the force it belongs to.
    pub fn stand(&self, id: StandId) -> Option<(&Force, &Stand)> {
        self.forces
            .iter()
            .find_map(|f| f.stands.iter().find(|s| s.id == id).map(|s| (f, s)))
    }

    pub fn forces_of<'a>(&'a self, side: &'a SideId) -> impl Iterator<Item = &'a Force> + 'a {
        self.forces.iter().filter(move |f| &f.side == side)
    }

    /// HQs (its own or captured) that `side` holds now.
    pub fn hqs_held_by<'a>(&'a self, side: &'a SideId) -> impl Iterator<Item = &'a Hq> + 'a {
        self.hqs.iter().filter(move |h| &h.held_by == side)
    }

    /// The date of the current game move: the start date plus
    /// `days_per_turn` for every move since the start. `None` past the calendar's end.
    pub fn date(&self) -> Option<Date> {
        self.date_of_turn(self.turn)
    }

    /// The date of game move `turn` (an earlier one, as a battle's, or the
    /// current one); `None` beyond the calendar.
    pub fn date_of_turn(&self, turn: u32) -> Option<Date> {
        let moves = i64::from(turn) - i64::from(self.start_turn);
        self.start_date
            .plus_days(moves.saturating_mul(i64::from(self.days_per_turn)))
    }
}
