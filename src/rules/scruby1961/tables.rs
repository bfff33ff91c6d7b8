//! The seed's tables and fixed numbers, each a small function or constant so
//! each can be checked alone. Every number names where in
//! `scruby-1961-strategy-tactical-wargame.txt` it comes from; the few that
//! are this program's own say so.

use crate::model::StandKind;
use crate::scenario::{Ground, Weapon};

// ---------------------------------------------------------------------------
// Troops and trays
// ---------------------------------------------------------------------------

/// The troop types of the seed (THE TROOPS; MOVEMENT AND RANGES).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Troop {
    /// A Line regiment.
    Line,
    LightInfantry,
    Grenadiers,
    HeavyCavalry,
    LightCavalry,
    /// A Divisional battery, one cannon.
    Artillery,
    HorseArtillery,
}

impl Troop {
    pub fn is_infantry(self) -> bool {
        matches!(self, Troop::Line | Troop::LightInfantry | Troop::Grenadiers)
    }

    pub fn is_cavalry(self) -> bool {
        matches!(self, Troop::HeavyCavalry | Troop::LightCavalry)
    }

    pub fn is_gun(self) -> bool {
        matches!(self, Troop::Artillery | Troop::HorseArtillery)
    }

    /// Light Infantry and Grenadiers, the "elite" (THE TROOPS).
    pub fn is_elite(self) -> bool {
        matches!(self, Troop::LightInfantry | Troop::Grenadiers)
    }
}

/// The 1961 troop type of a campaign stand; `None` for command and
/// transport, which have no combat power (see the module's mapping).
pub fn troop_for(kind: StandKind) -> Option<Troop> {
    match kind {
        StandKind::LineInfantry
        | StandKind::NativeRegulars
        | StandKind::NativeRiflemen
        | StandKind::NativeSpearmen => Some(Troop::Line),
        StandKind::LightInfantry => Some(Troop::LightInfantry),
        StandKind::GrenadierInfantry | StandKind::GuardInfantry => Some(Troop::Grenadiers),
        StandKind::HeavyCavalry | StandKind::MountedInfantry => Some(Troop::HeavyCavalry),
        StandKind::LightCavalry => Some(Troop::LightCavalry),
        StandKind::FootArtillery | StandKind::MachineGun => Some(Troop::Artillery),
        StandKind::HorseArtillery => Some(Troop::HorseArtillery),
        StandKind::Command | StandKind::Transport => None,
    }
}

/// scruby-1961-strategy-tactical-wargame.txt, BASIC CONCEPTION: the moving
/// tray "built to accommodate four 20mm model soldiers".
pub const TRAY_FIGURES: u32 = 4;

/// scruby-1961-strategy-tactical-wargame.txt, THE TROOPS: "Three 20mm
/// cavalry ... represent a squadron"; the melee table's squadrons are of
/// 3, 2 or 1 units.
pub const SQUADRON_FIGURES: u32 = 3;

/// Figures a full stand of `troop` has: four on a tray, three in a
/// squadron, the one cannon of a battery (ARTILLERY: "a single 20mm scale
/// cannon, with no artillery crew figures").
pub fn figures(troop: Troop) -> u32 {
    if troop.is_cavalry() {
        SQUADRON_FIGURES
    } else if troop.is_gun() {
        1
    } else {
        TRAY_FIGURES
    }
}

/// COMBAT: "INFANTRY REGIMENTS and CAVALRY SQUADRONS are designated as 4
/// Unit, 3 Unit, 2 Unit or 1 Unit forces, depending on how many model
/// soldiers are on the Moving Tray". A campaign stand at `strength` of
/// `full` has ceil(figures * strength / full) of its figures; 0 is gone.
pub fn units_from_strength(troop: Troop, strength: u32, full: u32) -> u32 {
    let n = figures(troop);
    let full = u64::from(full.max(1));
    let s = u64::from(strength).min(full);
    let units = (u64::from(n) * s).div_ceil(full);
    u32::try_from(units).unwrap_or(n).min(n)
}

/// The tray's units: ceil(4 * strength / full) (BASIC CONCEPTION, four
/// figures a tray).
pub fn tray_units(strength: u32, full: u32) -> u32 {
    units_from_strength(Troop::Line, strength, full)
}

/// Strength after the battle, in roster points: the strength it brought,
/// times the share of its figures left, rounded. This program's own
/// conversion back to the campaign (the seed keeps no roster).
pub fn strength_after(before: u32, units_start: u32, units_left: u32) -> u32 {
    if units_start == 0 {
        return 0;
    }
    // Every figure left: the rounding below gives back `before` itself
    // ((2bs + s) / 2s = b), asked of every stand whenever the engine
    // looks whether a side has broken.
    if units_left >= units_start {
        return before;
    }
    let left = u64::from(units_left);
    let v = (u64::from(before) * left * 2 + u64::from(units_start)) / (2 * u64::from(units_start));
    u32::try_from(v).unwrap_or(before)
}

// ---------------------------------------------------------------------------
// Movement
// ---------------------------------------------------------------------------

/// The infantry formations (MOVEMENT AND RANGES).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Formation {
    Line,
    CrossCountryColumn,
    RoadColumn,
}

/// A stand's move in inches a game move.
///
/// scruby-1961-strategy-tactical-wargame.txt, MOVEMENT AND RANGES, "BASIC
/// INFANTRY MOVES: Cross Country in Line 3", Cross Country in Column 4",
/// Columns on Roads 5""; GRENADIER REGIMENTS "move and deploy exactly as
/// LINE REGIMENTS"; LIGHT INFANTRY "whether in Column (Cross Country) or
/// Line, move 4 inches ... a 5 inch move if marching in Road Column";
/// ARTILLERY "at the same speed as Line Infantry" (3 inches, 5 on roads: the
/// guns march on roads as a road column, the plain reading); Horse
/// Artillery "at the same speed as Cavalry" (the seed names no kind: this
/// program gives it Heavy Cavalry's, 4 cross country, 6 on roads, the
/// cavalry whose speed depends on the ground, as a team and limber's does);
/// HEAVY CAVALRY "4 inches cross country, and 6 inches when on Roads";
/// LIGHT CAVALRY "6 inches at all times". Road Column exists only on roads:
/// off them it moves as Cross Country Column.
pub fn move_inches(troop: Troop, formation: Formation, on_road: bool) -> f64 {
    match troop {
        Troop::Line | Troop::Grenadiers => match formation {
            Formation::Line => 3.0,
            Formation::CrossCountryColumn => 4.0,
            Formation::RoadColumn if on_road => 5.0,
            Formation::RoadColumn => 4.0,
        },
        Troop::LightInfantry => {
            if formation == Formation::RoadColumn && on_road {
                5.0
            } else {
                4.0
            }
        }
        Troop::Artillery => {
            if on_road {
                5.0
            } else {
                3.0
            }
        }
        Troop::HeavyCavalry | Troop::HorseArtillery => {
            if on_road {
                6.0
            } else {
                4.0
            }
        }
        Troop::LightCavalry => 6.0,
    }
}

/// SPECIAL MOVEMENT RULES, Towns: "Movement through towns is at ROAD MOVE
/// speed for all troops".
pub fn town_move_inches(troop: Troop) -> f64 {
    move_inches(troop, Formation::RoadColumn, true)
}

/// SPECIAL MOVEMENT RULES, Forests: "approximately 2 inch squares".
pub const FOREST_SQUARE_INCHES: f64 = 2.0;

/// Forests: "all infantry proceed ONE SQUARE PER GAME MOVE (this includes
/// Light Infantry)"; Light Cavalry "may hide in the outer area" (and, rule
/// 15, move "one grid per game move"). The most a stand of `troop` may
/// move a game move when it starts in or enters a forest.
pub fn forest_move_inches(_troop: Troop) -> f64 {
    FOREST_SQUARE_INCHES
}

/// Forests: "Only Infantry may penetrate the interior of the Forests (Light
/// cavalry may "hide" in the outer area)", "Heavy Cavalry and Guns cannot
/// enter any Forest area at all". Rivers (not bridges or fords) stop all.
pub fn may_enter(troop: Troop, ground: Ground) -> bool {
    match ground {
        Ground::River => false,
        Ground::ForestInterior => troop.is_infantry(),
        Ground::ForestEdge => troop.is_infantry() || troop == Troop::LightCavalry,
        _ => true,
    }
}

/// Hills: "All movement uphill is cut in half"; "It can only take one
/// "slope" of the hill per game move"; downhill "at regulation speed".
pub fn uphill_inches(inches: f64) -> f64 {
    inches / 2.0
}

/// The Charge Move: "Infantry are allowed a 4 inch charge move, Light
/// Infantry a 5 inch charge move, and Light and Heavy Cavalry a 6 inch
/// charge move". Guns do not charge.
pub fn charge_inches(troop: Troop) -> Option<f64> {
    match troop {
        Troop::Line | Troop::Grenadiers => Some(4.0),
        Troop::LightInfantry => Some(5.0),
        Troop::HeavyCavalry | Troop::LightCavalry => Some(6.0),
        Troop::Artillery | Troop::HorseArtillery => None,
    }
}

/// "The Charge Move cannot be made by any troops uphill" (FIGURE FOUR:
/// cavalry may charge uphill by the step procedure: this program lets them,
/// at the halved uphill move).
pub fn may_charge_uphill(troop: Troop) -> bool {
    troop.is_cavalry()
}

/// How far a stand goes to come to grips with an enemy, inches: the Charge
/// Move on the level or downhill ("It can be used when charging
/// downhill"); against an enemy above it, cavalry's charge halved (FIGURE
/// FOUR: "Cavalry may charge 'uphill', but must follow this procedure"),
/// and infantry, who may not charge uphill, by their regulation move
/// (REINFORCED MELEES: troops not charging "must use regulation movement"),
/// a column's, halved: "All movement uphill is cut in half". Guns never.
pub fn melee_reach(troop: Troop, uphill: bool) -> Option<f64> {
    let charge = charge_inches(troop)?;
    Some(match (uphill, may_charge_uphill(troop)) {
        (false, _) => charge,
        (true, true) => uphill_inches(charge),
        (true, false) => uphill_inches(move_inches(troop, Formation::CrossCountryColumn, false)),
    })
}

/// ARTILLERY FIRE 7, HORSE ARTILLERY: "make a half-move, unlimber and fire
/// the gun on one game move".
pub fn horse_artillery_half_move(troop: Troop) -> f64 {
    move_inches(troop, Formation::Line, false) / 2.0
}

/// Retiring and being driven back: "retire three moves", "back in
/// confusion three moves" (MORALE FACTOR AFTER A MELEE; ARTILLERY FIRE 2).
pub const RETIRE_MOVES: u32 = 3;

/// A stand retiring `moves` moves goes back its cross-country move each
/// (the plain reading: a stand driven back does not march in column).
pub fn retire_inches(troop: Troop, moves: u32) -> f64 {
    f64::from(moves) * move_inches(troop, Formation::Line, false)
}

// ---------------------------------------------------------------------------
// Ranges and the table
// ---------------------------------------------------------------------------

/// RIFLE RANGE: "In Napoleonic and earlier musket period games we use a 6
/// inch basic musket range. We suggest you go to a 9 inch musket range for
/// later period war games." Muskets and smooth-bore guns take 6 inches;
/// the campaign's rifles (and a stand with no weapon named: the campaign
/// is of the later period) 9 inches.
pub fn musket_range_inches(weapon: Option<Weapon>) -> f64 {
    match weapon {
        Some(
            Weapon::Musket
            | Weapon::HandHeld
            | Weapon::SmoothBoreFieldGun
            | Weapon::SmoothBoreHeavyGun
            | Weapon::SmoothBoreMountainGun,
        ) => 6.0,
        _ => 9.0,
    }
}

/// ARTILLERY FIRE 1: "Artillery firing on flat ground has a 16 inch range.
/// If artillery is firing from a hill, increase the range to 18 inches."
pub fn artillery_range_inches(on_hill: bool) -> f64 {
    if on_hill { 18.0 } else { 16.0 }
}

/// Rifle fire "inside of forests is limited to the square directly in
/// front": one 2-inch square (Forests; FIGURE THREE).
pub const FOREST_FIRE_INCHES: f64 = FOREST_SQUARE_INCHES;

/// How Concealed Troops are Exposed 5: "Whenever enemy troops come within
/// 16 inches of a Concealment Stand ... this is VISION RANGE".
pub const VISION_INCHES: f64 = 16.0;

/// Rule 17A: light cavalry's scouting distance, "within 9 inches".
pub const SCOUTING_INCHES: f64 = 9.0;

/// FIGURE 13: "The screening cavalry must be between the Concealment Stand
/// and the enemy troops, and must be within an inch of the Concealment
/// Stand": an inch between the trays, so centres a tray's length (1 1/2
/// inches) and an inch apart.
pub const SCREEN_INCHES: f64 = TRAY_LENGTH_INCHES + 1.0;

/// BASIC CONCEPTION: "The moving tray is 1/2 inch wide by 1 1/2 inches long".
pub const TRAY_LENGTH_INCHES: f64 = 1.5;

/// BASIC CONCEPTION: the tray's 1/2-inch depth. A charger ends front to
/// front with its target, centres a tray's depth apart; stands are in
/// contact when their centres are within a tray's length (front or flank).
pub const TRAY_DEPTH_INCHES: f64 = 0.5;

/// Stands in contact: centres within a tray's length (this program's
/// reading of base to base on a table of points).
pub const CONTACT_INCHES: f64 = TRAY_LENGTH_INCHES;

/// REINFORCED MELEES: a reinforcing stand must reach "the flank or rear of
/// the ENEMY troops": its centre within a tray's length and a half-inch
/// of the enemy's. This program's own figure.
pub const REINFORCE_INCHES: f64 = TRAY_LENGTH_INCHES + 0.5;

/// MELEEING CANNON CREWS / rifle fire on crews: a crewless gun is "held" by
/// a side with a stand within this distance (a tray's length and an inch)
/// and no enemy as near. This program's own figure.
pub const HOLD_INCHES: f64 = TRAY_LENGTH_INCHES + 1.0;

// ---------------------------------------------------------------------------
// Dice
// ---------------------------------------------------------------------------

/// The seed's "a 1-3-6 thrown on dice": a 1, a 3 or a 6.
pub const ONE_THREE_SIX: &[u32] = &[1, 3, 6];
/// The seed's "3-6": read, like "1-3-6", as the faces named, a 3 or a 6.
pub const THREE_SIX: &[u32] = &[3, 6];
/// "must throw a 6".
pub const SIX: &[u32] = &[6];

/// What it takes to kill.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kill {
    /// So many figures, without a throw.
    Automatic(u32),
    /// One figure if the die shows one of these faces.
    OnFaces(&'static [u32]),
    /// Nothing.
    None,
}

impl Kill {
    /// Whether a die is needed.
    pub fn needs_die(self) -> bool {
        matches!(self, Kill::OnFaces(_))
    }

    /// Figures killed with the die showing `face` (ignored when automatic).
    pub fn kills(self, face: u32) -> u32 {
        match self {
            Kill::Automatic(n) => n,
            Kill::OnFaces(faces) => u32::from(faces.contains(&face)),
            Kill::None => 0,
        }
    }
}

// ---------------------------------------------------------------------------
// Rifle fire: CASUALTY RATES
// ---------------------------------------------------------------------------

/// The casualty rate (1 to 7 of CASUALTY RATES) that applies, and the kill.
///
/// `formation` is the shooter's (Cross Country Column fires "as if one
/// Regiment were firing": the Line figures); `shooter_defensive` is "inside
/// a town, forest or from a hill"; `target_defensive` the same of the target.
///
/// 1. "A 4-3-2 Unit Infantry Regiment, firing from LINE, automatically
///    kills 1 enemy soldier in the open."
/// 2. "A 1 Unit Regiment, firing from LINE, kills 1 enemy soldier if a
///    1-3-6 thrown".
/// 3. "A 4-3-2 Unit Regiment, in ROAD COLUMN, kills 1 ... with throw of 1-3-6".
/// 4. "A 1 Unit Regiment, in ROAD COLUMN, kills 1 ... if throw of 6".
/// 5. "Any 4-3-2-1 Unit Regiment inside a town, forest or from a hill, kills
///    1 enemy soldier automatically unless the enemy regiment is firing
///    from the same. In this case both units must roll dice (1-3-6)".
/// 6. "Any 4-3-2 Unit Regiment, ATTACKING from the open against a village,
///    hill or forest, must throw a 1-3-6 ... A 1-Unit force must throw a 6."
/// 7. "LIGHT INFANTRY and GRENADIERS never have to resort to dice throwing,
///    always make an automatic kill no matter where they are fighting".
pub fn casualty_rate(
    troop: Troop,
    units: u32,
    formation: Formation,
    shooter_defensive: bool,
    target_defensive: bool,
) -> (u8, Kill) {
    if units == 0 || !troop.is_infantry() {
        return (0, Kill::None);
    }
    if troop.is_elite() {
        return (7, Kill::Automatic(1));
    }
    let strong = units >= 2;
    match (shooter_defensive, target_defensive) {
        (true, false) => (5, Kill::Automatic(1)),
        (true, true) => (5, Kill::OnFaces(ONE_THREE_SIX)),
        (false, true) => (6, Kill::OnFaces(if strong { ONE_THREE_SIX } else { SIX })),
        (false, false) => match (formation, strong) {
            (Formation::RoadColumn, true) => (3, Kill::OnFaces(ONE_THREE_SIX)),
            (Formation::RoadColumn, false) => (4, Kill::OnFaces(SIX)),
            (_, true) => (1, Kill::Automatic(1)),
            (_, false) => (2, Kill::OnFaces(ONE_THREE_SIX)),
        },
    }
}

/// CASUALTY RATES 8, RIFLE FIRE AGAINST ARTILLERY CREWS: "A 4-3-2 man
/// regiment of LINE INFANTRY must roll a 3-6 on the dice, which kills the
/// crew"; "A 1 man regiment of LINE INFANTRY must roll a 6"; "Light
/// Infantry or Grenadier (no matter what their strength) must roll a 1-3-6".
pub fn crew_fire(troop: Troop, units: u32) -> Kill {
    if units == 0 || !troop.is_infantry() {
        Kill::None
    } else if troop.is_elite() {
        Kill::OnFaces(ONE_THREE_SIX)
    } else if units >= 2 {
        Kill::OnFaces(THREE_SIX)
    } else {
        Kill::OnFaces(SIX)
    }
}

// ---------------------------------------------------------------------------
// Artillery fire
// ---------------------------------------------------------------------------

/// What one cannon shot does to a stand that is not a gun.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shot {
    /// One figure killed.
    Kill,
    /// Driven back three moves in confusion, nobody killed.
    DriveBack,
    Miss,
}

/// ARTILLERY FIRE 2: "A roll of 1-3-6 kills one enemy soldier"; "A roll of 2
/// drives an enemy unit ... back in confusion three moves ... Only
/// Grenadiers are not affected by this morale type of artillery fire."
/// ARTILLERY FIRE 6: in the OUTER AREAS of villages and forests "an enemy
/// soldier can be killed with a roll of 3-6 ... and the morale factor (roll
/// of 2) has no effect".
pub fn artillery_shot(face: u32, target: Troop, in_outer_area: bool) -> Shot {
    if in_outer_area {
        if THREE_SIX.contains(&face) {
            Shot::Kill
        } else {
            Shot::Miss
        }
    } else if ONE_THREE_SIX.contains(&face) {
        Shot::Kill
    } else if face == 2 && target != Troop::Grenadiers && !target.is_gun() {
        Shot::DriveBack
    } else {
        Shot::Miss
    }
}

/// ARTILLERY FIRE 3: counter-battery fire; the 1-3-6 of rule 2 is a hit ("a
/// roll of 2 has no effect on gun or crew").
pub fn counter_battery_hit(face: u32) -> bool {
    ONE_THREE_SIX.contains(&face)
}

/// ARTILLERY FIRE 3: "it takes three "hits" to destroy a gun".
pub const HITS_TO_DESTROY_GUN: u32 = 3;

pub fn gun_destroyed(hits: u32) -> bool {
    hits >= HITS_TO_DESTROY_GUN
}

/// CANNISTER FIRE: "one figure is automatically killed by the gun" (in the
/// outer areas of villages and forests the 3-6 of ARTILLERY FIRE 6 applies:
/// "Only the OUTER AREAS are affected by artillery fire").
pub fn canister(in_outer_area: bool) -> Kill {
    if in_outer_area {
        Kill::OnFaces(THREE_SIX)
    } else {
        Kill::Automatic(1)
    }
}

// ---------------------------------------------------------------------------
// The melee
// ---------------------------------------------------------------------------

/// THE MELEE, COMBAT VALUE: "Each Line and Light Infantryman ... 4 Combat
/// Points", "Each Light cavalryman ... 5", "Each Grenadier and Heavy
/// Cavalryman ... 6". Guns have none (their crews fight by MELEEING CANNON
/// CREWS).
pub fn combat_points(troop: Troop) -> u32 {
    match troop {
        Troop::Line | Troop::LightInfantry => 4,
        Troop::LightCavalry => 5,
        Troop::Grenadiers | Troop::HeavyCavalry => 6,
        Troop::Artillery | Troop::HorseArtillery => 0,
    }
}

/// THE MELEE, killing power:
/// LINE AND LIGHT INFANTRY "A 4-3-2 unit stand kills 1 opposing soldier
/// automatically", "A 1 Unit stand must throw a 6";
/// GRENADIERS "A 4 unit stand kills 2 ... automatically", "A 3-2-1 unit
/// stand kills 1 enemy soldier automatically";
/// HEAVY CAVALRY "A 3 unit Squadron kills 2", "A 2 Unit Squadron kills 1",
/// "A 1 Unit Squadron must throw a 1-3-6";
/// LIGHT CAVALRY "A 3 unit Squadron kills 1 ... automatically", "A 2 Unit
/// Squadron ... if a 1-3-6 thrown", "A 1 Unit Squadron ... if a 3-6 thrown".
pub fn melee_kill(troop: Troop, units: u32) -> Kill {
    match (troop, units) {
        (_, 0) => Kill::None,
        (Troop::Line | Troop::LightInfantry, 1) => Kill::OnFaces(SIX),
        (Troop::Line | Troop::LightInfantry, _) => Kill::Automatic(1),
        (Troop::Grenadiers, 4..) => Kill::Automatic(2),
        (Troop::Grenadiers, _) => Kill::Automatic(1),
        (Troop::HeavyCavalry, 3..) => Kill::Automatic(2),
        (Troop::HeavyCavalry, 2) => Kill::Automatic(1),
        (Troop::HeavyCavalry, _) => Kill::OnFaces(ONE_THREE_SIX),
        (Troop::LightCavalry, 3..) => Kill::Automatic(1),
        (Troop::LightCavalry, 2) => Kill::OnFaces(ONE_THREE_SIX),
        (Troop::LightCavalry, _) => Kill::OnFaces(THREE_SIX),
        (Troop::Artillery | Troop::HorseArtillery, _) => Kill::None,
    }
}

/// MORALE FACTOR AFTER A MELEE: "each player counts the total number of
/// COMBAT POINTS he has left. He rolls one dice, and multiplies this by the
/// total Combat Points he has. The High total wins".
pub fn morale_total(combat_points: u32, face: u32) -> u32 {
    combat_points.saturating_mul(face)
}

/// Rule 17A, the scouts' "morale combat rule": "Light Cavalry are valued at
/// 5 Combat Points each".
pub const SCOUT_POINTS: u32 = 5;

/// Rule 17A: a Light Cavalry stand's combat points in the morale combat,
/// 5 for each of its `units` figures.
pub fn scout_points(units: u32) -> u32 {
    SCOUT_POINTS.saturating_mul(units)
}

/// Who holds after rule 17A's morale combat: "roll one dice. This throw is
/// multiplied by the number of Combat Points, and high man total holds his
/// ground, and the low man total retires 3 moves."
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scouting {
    /// The light cavalry's total is higher: the other retires.
    ScoutHolds,
    /// The other's total is higher: the light cavalry retire.
    ScoutRetires,
    /// Equal totals: the seed does not say; both throw again.
    ThrowAgain,
}

/// Rule 17A for the scout's `scout` combat points and die `scout_face`
/// against the other force's `other` points and die `other_face`.
pub fn morale_combat(scout: u32, scout_face: u32, other: u32, other_face: u32) -> Scouting {
    let (mine, theirs) = (morale_total(scout, scout_face), morale_total(other, other_face));
    if mine > theirs {
        Scouting::ScoutHolds
    } else if mine < theirs {
        Scouting::ScoutRetires
    } else {
        Scouting::ThrowAgain
    }
}

/// MORALE FACTOR AFTER A MELEE thrown for two whole armies at the end of
/// the battle (the rule set's last word, [`crate::rules::LastWord`]):
/// army 0's `a` combat points times its die `a_face` against army 1's `b`
/// times `b_face`; "The High total wins ... and holds his ground. The Low
/// Total must retire three moves." `Some(0)` or `Some(1)`: the army that
/// holds; `None` for equal totals (the seed does not say: both throw
/// again, as in the melee).
pub fn army_holds(a: u32, a_face: u32, b: u32, b_face: u32) -> Option<usize> {
    let (ta, tb) = (morale_total(a, a_face), morale_total(b, b_face));
    match ta.cmp(&tb) {
        std::cmp::Ordering::Greater => Some(0),
        std::cmp::Ordering::Less => Some(1),
        std::cmp::Ordering::Equal => None,
    }
}

/// MELEEING CANNON CREWS: "If a 1-3-6 is thrown, the attackers are hurled
/// back three moves and the gun is saved."
pub fn gun_crew_saves(face: u32) -> bool {
    ONE_THREE_SIX.contains(&face)
}

/// MELEEING CANNON CREWS / RIFLE FIRE AGAINST ARTILLERY CREWS: "Which ever
/// force holds the gun at the end of 3 moves is then entitled to use the gun".
pub const RECAPTURE_MOVES: u32 = 3;
