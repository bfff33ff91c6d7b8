//! Harman's rules, each a small function so it can be read against the seed
//! and tested alone. Every number cites `harman-2021-toy-soldier-battles.txt`
//! and its section.

use crate::model::{Quality, StandKind};
use crate::rules::dice::Dice;
use crate::scenario::{Cell, Cover, Ground};

/// Harman's kinds of unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Formed infantry; `fires` false for spearmen (close combat only).
    FormedInfantry {
        fires: bool,
    },
    Skirmishers,
    FootArtillery,
    HorseArtillery,
    Cavalry,
    /// The side's first command stand.
    General,
    /// Its further command stands.
    Adc,
    /// Takes no part in combat.
    Transport,
}

impl Unit {
    pub fn is_infantry(self) -> bool {
        matches!(self, Unit::FormedInfantry { .. } | Unit::Skirmishers)
    }
    pub fn is_formed_infantry(self) -> bool {
        matches!(self, Unit::FormedInfantry { .. })
    }
    pub fn is_artillery(self) -> bool {
        matches!(self, Unit::FootArtillery | Unit::HorseArtillery)
    }
    pub fn is_cavalry(self) -> bool {
        self == Unit::Cavalry
    }
    pub fn is_leader(self) -> bool {
        matches!(self, Unit::General | Unit::Adc)
    }
    /// Units that fight (not leaders, not transport).
    pub fn fights(self) -> bool {
        !self.is_leader() && self != Unit::Transport
    }
    /// "Formed" troops: everything that fights except skirmishers.
    pub fn is_formed(self) -> bool {
        self.fights() && self != Unit::Skirmishers
    }
}

/// The campaign's stand as Harman's unit (see the module doc). `first_command`
/// is true for a side's first command stand: its General; the rest are ADCs.
pub fn unit_of(kind: StandKind, first_command: bool) -> Unit {
    match kind {
        StandKind::LineInfantry
        | StandKind::GrenadierInfantry
        | StandKind::GuardInfantry
        | StandKind::NativeRegulars => Unit::FormedInfantry { fires: true },
        // The seed has no troops without muskets: spearmen fight only hand to hand.
        StandKind::NativeSpearmen => Unit::FormedInfantry { fires: false },
        StandKind::LightInfantry | StandKind::NativeRiflemen => Unit::Skirmishers,
        StandKind::HeavyCavalry | StandKind::LightCavalry | StandKind::MountedInfantry => Unit::Cavalry,
        StandKind::FootArtillery | StandKind::MachineGun => Unit::FootArtillery,
        StandKind::HorseArtillery => Unit::HorseArtillery,
        StandKind::Command if first_command => Unit::General,
        StandKind::Command => Unit::Adc,
        StandKind::Transport => Unit::Transport,
    }
}

/// Troop Quality and Combat Value: "Veteran, Guard or Elite: throw 4
/// Tactical Dice ... Trained or Regular: 3 ... Conscript, Militia or Raw: 2".
/// "Artillery is always Trained": 3 whatever its campaign quality.
pub fn tactical_dice(unit: Unit, quality: Quality) -> u32 {
    if unit.is_artillery() {
        return 3;
    }
    match quality {
        Quality::Elite => 4,
        Quality::Trained => 3,
        Quality::Raw => 2,
    }
}

/// Troop Quality and Combat Value: full strength CV 10 (elite), 7 (trained),
/// 4 (raw); artillery always Trained (7). Scaled down for a stand below full
/// strength (CV * strength / full, at least 1).
pub fn combat_value(unit: Unit, quality: Quality, strength: u32, full: u32) -> u32 {
    let cv = match tactical_dice(unit, quality) {
        4 => 10,
        3 => 7,
        _ => 4,
    };
    if full == 0 || strength >= full {
        return cv;
    }
    let scaled = u64::from(cv) * u64::from(strength) / u64::from(full);
    u32::try_from(scaled).unwrap_or(cv).clamp(1, cv)
}

/// Strength after the battle: strength scaled by the Combat Value left.
pub fn strength_after(strength: u32, cv_start: u32, cv_left: u32) -> u32 {
    if cv_start == 0 {
        return strength;
    }
    let s = u64::from(strength) * u64::from(cv_left.min(cv_start)) / u64::from(cv_start);
    u32::try_from(s).unwrap_or(strength)
}

/// What the Combat Value lost does to a unit (Troop Quality and Combat Value).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Condition {
    Fresh,
    /// "has lost over \[half\] its Combat Value": one Tactical Die fewer and no
    /// offensive action by Fire or Close Combat; may still defend itself.
    /// (The seed's "lost over its Combat Value" has lost a word: plainly half.)
    Shaken,
    /// "lost all its Combat Value": ineffective, retires; any further hits
    /// or Flags rout it.
    Spent,
}

pub fn condition(cv_start: u32, cv_now: u32) -> Condition {
    if cv_now == 0 {
        Condition::Spent
    } else if (cv_start - cv_now.min(cv_start)) * 2 > cv_start {
        Condition::Shaken
    } else {
        Condition::Fresh
    }
}

/// Dice a unit throws for its Combat Value: one fewer when Shaken.
pub fn dice_for_condition(dice: u32, c: Condition) -> u32 {
    match c {
        Condition::Fresh => dice,
        Condition::Shaken | Condition::Spent => dice.saturating_sub(1),
    }
}

/// The six faces of the Tactical Die (The Tactical Dice).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Face {
    /// 1: an Officer casualty.
    Officer,
    /// 2 and 3: close order Targets for Volley or Canister.
    Target,
    /// 4: a Falling Flag.
    Flag,
    /// 5: Fire from artillery at effective range or skirmishing musketry.
    Fire,
    /// 6: a Sabre for Close Combat.
    Sabre,
}

pub fn face(roll: u32) -> Face {
    match roll {
        1 => Face::Officer,
        2 | 3 => Face::Target,
        4 => Face::Flag,
        5 => Face::Fire,
        _ => Face::Sabre,
    }
}

/// A throw of Tactical Dice, counted by face.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Throw {
    pub dice: u32,
    pub officers: u32,
    pub targets: u32,
    pub flags: u32,
    pub fires: u32,
    pub sabres: u32,
}

impl Throw {
    pub fn of(rolls: &[u32]) -> Throw {
        let mut t = Throw::default();
        for &r in rolls {
            t.add(r);
        }
        t
    }

    fn add(&mut self, roll: u32) {
        self.dice += 1;
        match face(roll) {
            Face::Officer => self.officers += 1,
            Face::Target => self.targets += 1,
            Face::Flag => self.flags += 1,
            Face::Fire => self.fires += 1,
            Face::Sabre => self.sabres += 1,
        }
    }

    /// Throws `n` Tactical Dice.
    pub fn roll(dice: &mut Dice, n: u32) -> Throw {
        let mut t = Throw::default();
        for _ in 0..n {
            t.add(dice.d6());
        }
        t
    }

    /// Hits of the face that counts: Targets, Fire or Sabres.
    pub fn hits(&self, by: Hit) -> u32 {
        match by {
            Hit::Target => self.targets,
            Hit::Fire => self.fires,
            Hit::Sabre => self.sabres,
        }
    }

    /// General and ADC casualties: at least one hit and "another Tactical Die
    /// shows an Officer".
    pub fn endangers_officers(&self, hits: u32) -> bool {
        hits > 0 && self.officers > 0
    }
}

/// Which face scores hits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hit {
    Target,
    Fire,
    Sabre,
}

/// What Falling Flags do (The Tactical Dice, Four). `quality` is the number
/// of Tactical Dice of its troop quality.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum FlagEffect {
    None,
    /// "One Flag causes it to throw one less Tactical Die ... that turn."
    OneDieLess,
    /// "more than one Flag, but less than its troop quality, it halts, but
    /// may Fire or defend itself ..., throwing one less Tactical Die".
    Halts,
    /// "Flags equal to its troop quality, it halts and then begins to retire".
    Retires,
    /// "more Flags than its troop quality, it routs".
    Routs,
}

/// Flags suffered, less the first if a General is in the square ("ignore the
/// first Falling Flag suffered by any unit in the same square as a General").
pub fn flag_effect(flags: u32, quality: u32, with_general: bool) -> FlagEffect {
    let flags = if with_general {
        flags.saturating_sub(1)
    } else {
        flags
    };
    if flags == 0 {
        FlagEffect::None
    } else if flags > quality {
        FlagEffect::Routs
    } else if flags == quality {
        FlagEffect::Retires
    } else if flags == 1 {
        FlagEffect::OneDieLess
    } else {
        FlagEffect::Halts
    }
}

/// The Turn Sequence: "If one side has won the initiative for the last two
/// turns, add 1 to the D6 next time; for the last 3 turns, add 2". `streak`
/// is how many turns running the side has won it. Since the lower score wins,
/// the bonus handicaps the repeated winner.
pub fn initiative_bonus(streak: u32) -> u32 {
    streak.saturating_sub(1)
}

/// The initiative: both throw a D6 plus their bonus, "that with the lower
/// score can choose". Equal scores are thrown again (the seed is silent).
/// Returns the winning side (0 or 1).
pub fn initiative(dice: &mut Dice, streaks: [u32; 2]) -> usize {
    loop {
        let a = dice.d6() + initiative_bonus(streaks[0]);
        let b = dice.d6() + initiative_bonus(streaks[1]);
        if a != b {
            return if a < b { 0 } else { 1 };
        }
    }
}

/// A General or ADC's casualty roll: "1- killed; 2- wounded ...; 3 or above
/// escapes unscathed".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Casualty {
    Killed,
    Wounded,
    Unscathed,
}

pub fn casualty(roll: u32) -> Casualty {
    match roll {
        1 => Casualty::Killed,
        2 => Casualty::Wounded,
        _ => Casualty::Unscathed,
    }
}

/// A wounded General "must now throw 1D6 every turn, being forced to leave
/// the field for 1".
pub fn wounded_leaves(roll: u32) -> bool {
    roll == 1
}

/// "A General or ADC can rally a unit that has suffered a Falling Flag ...
/// provided it is stationary and is not charged or fired upon that turn, by
/// throwing 6 on 1D6."
pub fn rallies(roll: u32, stationary: bool, attacked: bool) -> bool {
    stationary && !attacked && roll == 6
}

/// Close Combat: "Add an extra Tactical Die if the unit is accompanied by a
/// General" (infantry or cavalry, not in Fire; an ADC does not).
pub const GENERAL_CLOSE_COMBAT_DIE: u32 = 1;

// ---------------------------------------------------------------------------
// Movement (THE UNITS; TERRAIN EFFECTS).

/// Formed infantry: "two squares non-tactically, without Firing or engaging
/// in Close Combat" or "one square and engage in Fire and/or Close Combat".
pub const INFANTRY_MARCH: u32 = 2;
pub const INFANTRY_TACTICAL: u32 = 1;
/// Skirmishers: "up to two squares in the open and Fire".
pub const SKIRMISHER_MOVE: u32 = 2;
/// Foot artillery: "Move two squares ... limbered, or one square and
/// unlimber to fire next turn"; "Limbering up reduces movement by one".
pub const FOOT_ARTILLERY_MOVE: u32 = 2;
/// Horse artillery: "Move three squares ... limbered, or two squares,
/// unlimber and Fire next turn, or move one square, unlimber and Fire the
/// same turn".
pub const HORSE_ARTILLERY_MOVE: u32 = 3;
/// Cavalry: "Manoeuvre up to three squares"; "charge up to four squares".
pub const CAVALRY_MANOEUVRE: u32 = 3;
pub const CAVALRY_CHARGE: u32 = 4;
/// Generals and ADCs: "Move up to three squares".
pub const LEADER_MOVE: u32 = 3;

/// The squares `unit` may move in `cell` this turn, by the terrain alone:
/// skirmishers one in a forest, and in tall crops infantry one, cavalry two.
pub fn terrain_move_cap(unit: Unit, cell: &Cell) -> u32 {
    match cell.ground {
        Ground::ForestEdge | Ground::ForestInterior if unit == Unit::Skirmishers => 1,
        Ground::TallCrops if unit.is_infantry() => 1,
        Ground::TallCrops if unit.is_cavalry() => 2,
        _ => u32::MAX,
    }
}

/// Whether `unit` may enter `cell` (Forest, BUA, Rivers): formed units enter
/// a forest only on a road; cavalry and artillery a BUA only on a road;
/// rivers only at a bridge or ford (the river squares themselves never).
pub fn may_enter(unit: Unit, cell: &Cell) -> bool {
    match cell.ground {
        Ground::River => false,
        Ground::ForestEdge | Ground::ForestInterior => {
            unit == Unit::Skirmishers || unit.is_leader() || cell.road
        }
        Ground::BuiltUpOuter | Ground::BuiltUpInner => {
            !(unit.is_cavalry() || unit.is_artillery() || unit == Unit::Transport) || cell.road
        }
        _ => true,
    }
}

/// Whether `unit` must stop on entering `cell`: formed infantry in a BUA
/// (off a road); formed troops, not skirmishers, at a fence or wall.
pub fn must_stop(unit: Unit, cell: &Cell) -> bool {
    let bua = matches!(cell.ground, Ground::BuiltUpOuter | Ground::BuiltUpInner);
    (bua && unit.is_formed_infantry() && !cell.road) || (unit.is_formed() && has_wall(cell))
}

/// A fence or wall in the square; entrenchments are read as walls (the
/// seed has none).
pub fn has_wall(cell: &Cell) -> bool {
    matches!(cell.cover, Some(Cover::WallOrHedge | Cover::Entrenchment))
}

pub fn is_bua(cell: &Cell) -> bool {
    matches!(cell.ground, Ground::BuiltUpOuter | Ground::BuiltUpInner)
}

pub fn is_forest(cell: &Cell) -> bool {
    matches!(cell.ground, Ground::ForestEdge | Ground::ForestInterior)
}

/// Whether a square between firer and target blocks the sight of `viewer`:
/// forests, hills (higher than both ends), BUAs; tall crops for infantry and
/// artillery but not cavalry or Generals; rivers and fences never.
pub fn blocks_sight(between: &Cell, viewer: Unit, top_level: u8) -> bool {
    is_forest(between)
        || is_bua(between)
        || between.level > top_level
        || (between.ground == Ground::TallCrops && !(viewer.is_cavalry() || viewer.is_leader()))
}

// ---------------------------------------------------------------------------
// Fire (Infantry Battalions, Artillery, Skirmishing, terrain).

/// "Musket Range is one square": the square's side is the musketry range.
pub const MUSKET_RANGE: u32 = 1;

/// A gun's ranges in squares (a Musket Range is a square): (canister,
/// effective). Foot: canister 3, effective up to 8; horse: 2 and 6. "Artillery
/// firing from a hill increases its Effective range band by one square".
pub fn artillery_ranges(unit: Unit, on_hill: bool) -> (u32, u32) {
    let (canister, effective) = if unit == Unit::HorseArtillery {
        (2, 6)
    } else {
        (3, 8)
    };
    (canister, effective + u32::from(on_hill))
}

/// The artillery's throw: "3 Tactical Dice" at canister (Targets hit) or
/// effective range (Fire hits); `None` beyond.
pub fn artillery_fire(unit: Unit, on_hill: bool, distance: u32) -> Option<(u32, Hit)> {
    let (canister, effective) = artillery_ranges(unit, on_hill);
    if distance <= canister {
        Some((3, Hit::Target))
    } else if distance <= effective {
        Some((3, Hit::Fire))
    } else {
        None
    }
}

/// Dice and hits when firing at a target in `target_cell`: "When firing on
/// a unit that is in a BUA, reduce the number of Tactical Dice thrown by
/// two"; "behind a fence or wall, only Fire hits".
pub fn fire_at(dice: u32, hit: Hit, target_cell: &Cell) -> (u32, Hit) {
    let dice = if is_bua(target_cell) {
        dice.saturating_sub(2)
    } else {
        dice
    };
    let hit = if has_wall(target_cell) { Hit::Fire } else { hit };
    (dice, hit)
}

/// Skirmishing: "one Tactical Die per skirmish line", Fire hits, against
/// skirmishers or formed troops alike. (The seed says Fire in one place and
/// Target in another for the unscreened formed unit; Fire is the die's own
/// meaning, "skirmishing Musketry", and is taken.)
pub const SKIRMISH_DICE: u32 = 1;

/// Skirmishing: "If one side's skirmishers suffer more Flags than their
/// opponents, they must fall back one square". Returns which of (a, b)
/// falls back, given the Flags each suffered.
pub fn skirmish_falls_back(flags_on_a: u32, flags_on_b: u32) -> Option<bool> {
    match flags_on_a.cmp(&flags_on_b) {
        std::cmp::Ordering::Greater => Some(true),
        std::cmp::Ordering::Less => Some(false),
        std::cmp::Ordering::Equal => None,
    }
}

/// Skirmishers may shoot "inside a forest at other skirmishers, or out of
/// a forest square into an adjacent open square".
pub fn forest_allows_skirmish_fire(
    from: &Cell,
    to: &Cell,
    target_is_skirmisher: bool,
    distance: u32,
) -> bool {
    if !is_forest(from) {
        return !is_forest(to) || target_is_skirmisher;
    }
    if is_forest(to) {
        target_is_skirmisher
    } else {
        distance <= 1
    }
}

// ---------------------------------------------------------------------------
// Close Combat.

/// Dice for an attacker in close combat: troop quality, +1 with a General,
/// -1 against a unit in tall crops, -1 for infantry against troops behind a
/// fence or wall (Field squares; Fences or Walls).
pub fn close_combat_dice(quality_dice: u32, with_general: bool, defender_cell: &Cell) -> u32 {
    let mut d = quality_dice + if with_general { GENERAL_CLOSE_COMBAT_DIE } else { 0 };
    if defender_cell.ground == Ground::TallCrops {
        d = d.saturating_sub(1);
    }
    if has_wall(defender_cell) {
        d = d.saturating_sub(1);
    }
    d
}

/// Whether `attacker` may engage a unit in `defender_cell` in Close Combat:
/// "Only infantry may engage in Close Combat in a BUA"; "cavalry cannot
/// engage troops behind a fence or wall".
pub fn may_engage(attacker: Unit, attacker_cell: &Cell, defender_cell: &Cell) -> bool {
    if !attacker.fights() || attacker.is_artillery() {
        return false;
    }
    if (is_bua(defender_cell) || is_bua(attacker_cell)) && !attacker.is_infantry() {
        return false;
    }
    !(attacker.is_cavalry() && has_wall(defender_cell))
}

/// Bayonet Charges: the Defenders' answer to the Attackers' first throw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BayonetAnswer {
    /// "Flags or Sabres and Flags equals or exceeds the Defenders' Troop
    /// Quality": they flee at once without Firing, suffering the Sabre hits.
    Flee,
    /// Two or more Flags, short of that: they fire back with one die less,
    /// and retire unless their Fire halts the Attackers.
    FireThenRetire,
    /// One Flag: they stand and fire with one die less; Close Combat
    /// continues next turn if the Attackers are not halted.
    StandOneLess,
    /// No Flags: they stand and fire with all their dice.
    Stand,
}

pub fn bayonet_answer(flags: u32, sabres: u32, defender_quality: u32) -> BayonetAnswer {
    if flags + sabres >= defender_quality {
        BayonetAnswer::Flee
    } else if flags >= 2 {
        BayonetAnswer::FireThenRetire
    } else if flags == 1 {
        BayonetAnswer::StandOneLess
    } else {
        BayonetAnswer::Stand
    }
}

/// Dice the Defenders fire back with after a bayonet charge's first throw.
pub fn bayonet_return_dice(answer: BayonetAnswer, defender_dice: u32) -> u32 {
    match answer {
        BayonetAnswer::Flee => 0,
        BayonetAnswer::FireThenRetire | BayonetAnswer::StandOneLess => defender_dice.saturating_sub(1),
        BayonetAnswer::Stand => defender_dice,
    }
}

/// Attackers are halted by the Defenders' Fire when its Flags halt them (or worse).
pub fn halted(effect: FlagEffect) -> bool {
    effect >= FlagEffect::Halts
}

/// Cavalry vs Cavalry: the charged unit's reply to the charger's Flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CavalryReply {
    /// "If no Flags are thrown, the enemy unit counter-charges
    /// simultaneously, throwing ... its troop quality".
    CounterCharge,
    /// "one or more Flags, but less than its troop quality ... throwing one
    /// Tactical Die less".
    AtDisadvantage,
    /// "equal to or more than its troop quality, it retires or routs
    /// immediately, suffering further hits and Flags in any pursuit".
    Breaks,
}

pub fn cavalry_reply(flags: u32, defender_quality: u32) -> CavalryReply {
    if flags >= defender_quality {
        CavalryReply::Breaks
    } else if flags > 0 {
        CavalryReply::AtDisadvantage
    } else {
        CavalryReply::CounterCharge
    }
}

/// Dice the charged cavalry replies with.
pub fn cavalry_reply_dice(reply: CavalryReply, defender_dice: u32) -> u32 {
    match reply {
        CavalryReply::CounterCharge => defender_dice,
        CavalryReply::AtDisadvantage => defender_dice.saturating_sub(1),
        CavalryReply::Breaks => 0,
    }
}

/// Cavalry vs Infantry/Artillery: what the charged unit does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SquareResult {
    /// "Sabres and Flags equal to or more than its troop quality": fail to
    /// form square / gunners panic, and rout; the cavalry pursue with an
    /// extra die; no reply.
    Broken,
    /// Fewer, with Flags: the infantry "only just succeeds in forming square,
    /// suffers Sabre hits, and Fires with only one Tactical Die"; gunners
    /// "Fire hastily, throwing one less Tactical Die, suffer Sabre hits and
    /// then retire".
    JustFormed,
    /// No Flags: the infantry "forms square in good time, ignores any Sabres
    /// and fires back ... half (rounded up)"; gunners "stand to their guns and
    /// Fire canister but do suffer Sabre hits".
    FormedInTime,
}

/// `in_square`: the infantry were in square already: "the square will
/// break" only if the Flags alone reach its troop quality; otherwise it
/// ignores the Sabres and fires (as formed in time).
pub fn cavalry_against_foot(flags: u32, sabres: u32, defender_quality: u32, in_square: bool) -> SquareResult {
    if in_square {
        if flags >= defender_quality {
            SquareResult::Broken
        } else {
            SquareResult::FormedInTime
        }
    } else if flags + sabres >= defender_quality {
        SquareResult::Broken
    } else if flags > 0 {
        SquareResult::JustFormed
    } else {
        SquareResult::FormedInTime
    }
}

/// (Dice the charged foot fire back with, whether it suffers the Sabres).
pub fn square_reply(result: SquareResult, artillery: bool, defender_dice: u32) -> (u32, bool) {
    match (result, artillery) {
        (SquareResult::Broken, _) => (0, true),
        (SquareResult::JustFormed, false) => (1, true),
        (SquareResult::JustFormed, true) => (defender_dice.saturating_sub(1), true),
        (SquareResult::FormedInTime, false) => (defender_dice.div_ceil(2), false),
        (SquareResult::FormedInTime, true) => (defender_dice, true),
    }
}

/// Pursuit of broken foot: "throwing again plus an extra Tactical Die".
pub fn pursuit_dice(cavalry_dice: u32) -> u32 {
    cavalry_dice + 1
}

/// "After two turns of Close Combat, the horses are presumed to be 'blown'";
/// "If there has been no decision after two turns of Close Combat, both
/// sides will retire to rally".
pub const CLOSE_COMBAT_TURNS: u32 = 2;

/// After the last turn of close combat with no decision: (attackers retire,
/// defenders retire). "unless the Defenders were occupying a BUA, when only
/// the Attackers will retire".
pub fn undecided_retire(round: u32, defender_in_bua: bool) -> Option<(bool, bool)> {
    (round >= CLOSE_COMBAT_TURNS).then_some((true, !defender_in_bua))
}

/// Whether a charge path's last two squares are in a straight line
/// (Cavalry Regiments): `path` is the squares entered, in order, after the
/// start square `from`.
pub fn straight_finish(from: (i32, i32), path: &[(i32, i32)]) -> bool {
    let n = path.len();
    if n < 2 {
        return true;
    }
    let prev = |k: usize| {
        if k == 0 {
            Some(from)
        } else {
            path.get(k - 1).copied()
        }
    };
    let (Some(a), Some(b), Some(c)) = (prev(n - 2), path.get(n - 2).copied(), path.get(n - 1).copied())
    else {
        return false;
    };
    (b.0 - a.0, b.1 - a.1) == (c.0 - b.0, c.1 - b.1)
}

// How each result reads in the battle log.

impl std::fmt::Display for FlagEffect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            FlagEffect::None => "no effect",
            FlagEffect::OneDieLess => "it throws one die less this turn",
            FlagEffect::Halts => "it halts",
            FlagEffect::Retires => "it halts and begins to retire",
            FlagEffect::Routs => "it routs",
        })
    }
}

impl std::fmt::Display for Casualty {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Casualty::Killed => "killed",
            Casualty::Wounded => "wounded",
            Casualty::Unscathed => "unscathed",
        })
    }
}

impl std::fmt::Display for BayonetAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            BayonetAnswer::Flee => "the defenders flee without firing",
            BayonetAnswer::FireThenRetire => {
                "the defenders fire back a die short, then retire unless they halt the attack"
            }
            BayonetAnswer::StandOneLess => "the defenders stand and fire back a die short",
            BayonetAnswer::Stand => "the defenders stand and fire",
        })
    }
}

impl std::fmt::Display for CavalryReply {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            CavalryReply::CounterCharge => "the enemy horse counter-charges",
            CavalryReply::AtDisadvantage => "the enemy horse meets it at a disadvantage",
            CavalryReply::Breaks => "the enemy horse breaks",
        })
    }
}

impl std::fmt::Display for SquareResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SquareResult::Broken => "the foot are broken",
            SquareResult::JustFormed => "the foot just form square in time",
            SquareResult::FormedInTime => "the foot stand in square",
        })
    }
}

/// Whether a side of `role` commits everything it has in turn `turn` of
/// `last_turn`: the attacker once half the day is gone
/// (`doctrine::late`), charging whatever the dice. The seed sets no
/// victory conditions; this program's own doctrine: an attacker that
/// stands off until the turn limit has lost, so in the second half of the
/// day its general throws in every unit that can reach the enemy rather
/// than wait for odds that will not come.
pub fn attacker_commits(role: crate::scenario::Role, turn: u32, last_turn: u32) -> bool {
    role == crate::scenario::Role::Attacker && crate::rules::doctrine::late(turn, last_turn)
}
