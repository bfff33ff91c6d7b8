//! The Basic War Game Rules' tables and numbers
//! (`../shared/seeds/scruby-basic-war-game-rules.txt`), as small functions
//! tested row by row: troops, movement, fire, morale and melee.

use crate::model::StandKind;

// ---------------------------------------------------------------------------
// Troops
// ---------------------------------------------------------------------------

/// The troops of the Basic rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Troop {
    /// One of the battalion's four Fusilier companies (Moving Stands 4).
    Fusilier,
    /// The battalion's Light Infantry company (Moving Stands 5).
    Light,
    /// The Grenadier company, a double-value stand (Moving Stands 6).
    Grenadier,
    /// A Guard company, "same as a Grenadier Company Stand" (Moving Stands 8).
    Guard,
    LightCavalry,
    HeavyCavalry,
    Artillery,
}

impl Troop {
    pub fn is_infantry(self) -> bool {
        matches!(
            self,
            Troop::Fusilier | Troop::Light | Troop::Grenadier | Troop::Guard
        )
    }

    pub fn is_cavalry(self) -> bool {
        matches!(self, Troop::LightCavalry | Troop::HeavyCavalry)
    }

    /// Grenadiers and guards: "counted as 'two'" in fire, melee and morale,
    /// and at full power against defensive positions (Moving Stands 6, 8, 11).
    pub fn is_elite(self) -> bool {
        matches!(self, Troop::Grenadier | Troop::Guard)
    }

    /// Models on a full stand (Moving Stands 1-3: infantry four, light
    /// cavalry two, heavy cavalry three). A gun: this program's 4 (silent).
    pub fn models(self) -> u32 {
        match self {
            Troop::LightCavalry => 2,
            Troop::HeavyCavalry => 3,
            _ => 4,
        }
    }

    /// How a stand counts in losses and morale: Grenadier and Guard stands
    /// as two (Moving Stands 6, 8).
    pub fn weight(self) -> u32 {
        if self.is_elite() { 2 } else { 1 }
    }
}

/// The Basic rules' troop for a campaign stand; `None` for command and
/// transport, which do not fight.
pub fn troop_for(kind: StandKind) -> Option<Troop> {
    match kind {
        StandKind::LineInfantry
        | StandKind::NativeRegulars
        | StandKind::NativeRiflemen
        | StandKind::NativeSpearmen => Some(Troop::Fusilier),
        StandKind::LightInfantry => Some(Troop::Light),
        StandKind::GrenadierInfantry => Some(Troop::Grenadier),
        StandKind::GuardInfantry => Some(Troop::Guard),
        StandKind::HeavyCavalry | StandKind::MountedInfantry => Some(Troop::HeavyCavalry),
        StandKind::LightCavalry => Some(Troop::LightCavalry),
        StandKind::FootArtillery | StandKind::HorseArtillery | StandKind::MachineGun => {
            Some(Troop::Artillery)
        }
        StandKind::Command | StandKind::Transport => None,
    }
}

/// Models a stand of `troop` brings at `strength` of `full`:
/// `ceil(models * strength / full)`.
pub fn models_at(troop: Troop, strength: u32, full: u32) -> u32 {
    let full = u64::from(full.max(1));
    let m = u64::from(troop.models());
    let n = (m * u64::from(strength)).div_ceil(full);
    u32::try_from(n.min(m)).unwrap_or(0)
}

// ---------------------------------------------------------------------------
// Movement (Movement chart)
// ---------------------------------------------------------------------------

/// How a stand moves, for the Movement chart's columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Going {
    Open,
    Column,
    Road,
}

/// Inches a move (scruby-basic-war-game-rules.txt, Movement chart:
/// Infantry 2/4/6, Light Infantry 4/6/8, Light Cavalry 6/8/10, Heavy
/// Cavalry 4/6/8; Artillery "As per accompanying troops", taken as Infantry).
pub fn move_inches(troop: Troop, going: Going) -> f64 {
    let (open, column, road) = match troop {
        Troop::Light => (4.0, 6.0, 8.0),
        Troop::LightCavalry => (6.0, 8.0, 10.0),
        Troop::HeavyCavalry => (4.0, 6.0, 8.0),
        Troop::Fusilier | Troop::Grenadier | Troop::Guard | Troop::Artillery => (2.0, 4.0, 6.0),
    };
    match going {
        Going::Open => open,
        Going::Column => column,
        Going::Road => road,
    }
}

/// Inches added to a move uphill or downhill (Movement chart: Uphill
/// Infantry "– 1″", the others 0; Downhill "+2″" for all).
pub fn slope_inches(troop: Troop, uphill: bool) -> f64 {
    if !uphill {
        2.0
    } else if matches!(
        troop,
        Troop::Fusilier | Troop::Grenadier | Troop::Guard | Troop::Artillery
    ) {
        -1.0
    } else {
        0.0
    }
}

/// "Infantry formed in square may move at column speed if formed from four
/// stands (plus one in center as support). Larger squares move at 'open'
/// speeds" (Movement).
pub fn square_going(stands: u32) -> Going {
    if stands <= 5 { Going::Column } else { Going::Open }
}

// ---------------------------------------------------------------------------
// Fire
// ---------------------------------------------------------------------------

/// Artillery range, 18 inches, "add 2″ to this range for each level of
/// hill gun might be emplaced on" (Artillery 2).
pub fn artillery_range(level: u8) -> f64 {
    18.0 + 2.0 * f64::from(level)
}

/// "Cannons can move 2″ and fire that move. If they move over this cannot
/// fire" (Artillery 1).
pub const GUN_MOVE_AND_FIRE_INCHES: f64 = 2.0;

/// Canister: "the length of musket fire (6″)" (Artillery 7).
pub const CANISTER_INCHES: f64 = 6.0;

/// Canister doubles "the kill power of each gun" (Artillery 7).
pub fn canister_factor(within_canister: bool) -> f64 {
    if within_canister { 2.0 } else { 1.0 }
}

/// Counter-battery: "Throwing 1-3 or 6 on dice rolls does this ... Other
/// rolls are misses (2-4-5)" (Artillery 3; the seed's "2" in both lists is
/// read as a hit, the first list being the rule).
pub fn counter_battery_hit(face: u32) -> bool {
    matches!(face, 1..=3 | 6)
}

/// "Must make four such 'hits' to destroy an enemy gun" (Artillery 3).
pub const GUN_HITS_TO_DESTROY: u32 = 4;

/// Musket range: 6 inches, "Add one inch to this range for each level of a
/// hill the troops fire from"; Light Cavalry carbines 4 inches (Musket Fire
/// 1, 2). Heavy cavalry "do not fire guns" and guns use [`artillery_range`].
pub fn musket_range(troop: Troop, level: u8) -> Option<f64> {
    let base = match troop {
        t if t.is_infantry() => 6.0,
        Troop::LightCavalry => 4.0,
        _ => return None,
    };
    Some(base + f64::from(level))
}

/// Fire into a defensive position is "cut in half", except the battalion
/// Light Infantry company's (Musket Fire 3, 6).
pub fn defensive_fire_factor(firer: Troop, target_in_defensive_position: bool) -> f64 {
    if target_in_defensive_position && firer != Troop::Light {
        0.5
    } else {
        1.0
    }
}

/// "Two ranks of Infantry or Light Cavalry are counted for musket fire"
/// (Musket Fire 7): of `ranks`, how many fire.
pub fn fire_ranks_counted(ranks: u32) -> u32 {
    ranks.min(2)
}

// ---------------------------------------------------------------------------
// The Combat Table
// ---------------------------------------------------------------------------

/// The rows of the Combat Table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KillRow {
    HeavyCavalry,
    LightCavalry,
    GrenadierGuard,
    LineLight,
    Artillery,
    /// The table for 3-man Infantry stands.
    GrenadierGuard3,
    LineLight3,
}

/// Stands of `row` needed to kill one stand of `target_models` models
/// (Combat Table; the 3-man stand table for the last two rows). A target
/// of fewer than two models is taken as a 2-model stand, of more than four
/// as a 4-model stand.
pub fn stands_to_kill(row: KillRow, target_models: u32) -> u32 {
    let m = target_models.clamp(2, 4);
    let (two, three, four) = match row {
        KillRow::HeavyCavalry => (1, 2, 3),
        KillRow::LightCavalry => (2, 4, 6),
        KillRow::GrenadierGuard => (2, 3, 4),
        KillRow::LineLight => (4, 6, 8),
        KillRow::Artillery => (2, 3, 4),
        KillRow::GrenadierGuard3 => (3, 4, 5),
        KillRow::LineLight3 => (5, 8, 10),
    };
    match m {
        2 => two,
        3 => three,
        _ => four,
    }
}

/// Kills made by `stands` when `required` are needed for one: whole
/// multiples, and "One stand over one-half required to kill is counted as
/// full amount" (Combat Table, Note: six required, 3 stands none, 4 one).
pub fn kills(stands: u32, required: u32) -> u32 {
    let required = required.max(1);
    stands / required + u32::from(2 * (stands % required) > required)
}

/// Kills from pooled shares of a kill (1.0 a kill), the note applied to
/// the last: whole kills, and one more for more than half a kill.
pub fn kills_from_shares(shares: f64) -> u32 {
    if !(shares.is_finite() && shares > 0.0) {
        return 0;
    }
    let whole = (shares + 1e-9).floor();
    let over = shares - whole > 0.5 + 1e-9;
    u32::try_from(crate::rules::board::floor(whole)).unwrap_or(0) + u32::from(over)
}

/// A stand's share of a kill of a stand of `target_models`: one over the
/// stands its row needs. A 4-model infantry stand uses the 4-man table;
/// with 3 models or fewer the 3-man table, scaled by models over 3;
/// cavalry scaled by models over its full stand; a gun whole.
pub fn stand_share(troop: Troop, models: u32, target_models: u32) -> f64 {
    let share = |row: KillRow| 1.0 / f64::from(stands_to_kill(row, target_models));
    match troop {
        Troop::Fusilier | Troop::Light | Troop::Grenadier | Troop::Guard => {
            let (four, three) = if troop.is_elite() {
                (KillRow::GrenadierGuard, KillRow::GrenadierGuard3)
            } else {
                (KillRow::LineLight, KillRow::LineLight3)
            };
            if models >= 4 {
                share(four)
            } else {
                share(three) * f64::from(models.min(3)) / 3.0
            }
        }
        Troop::HeavyCavalry => share(KillRow::HeavyCavalry) * f64::from(models.min(3)) / 3.0,
        Troop::LightCavalry => share(KillRow::LightCavalry) * f64::from(models.min(2)) / 2.0,
        Troop::Artillery => share(KillRow::Artillery),
    }
}

// ---------------------------------------------------------------------------
// Morale
// ---------------------------------------------------------------------------

/// "Whoever had the greatest loss must retire two regular moves" (Judging
/// the Morale 2).
pub const RETIRE_MOVES: u32 = 2;

/// The side (0 or 1) that lost the more, or `None` on equal losses
/// (Judging the Morale 2, 4).
pub fn greater_loss(loss: [u32; 2]) -> Option<usize> {
    match loss[0].cmp(&loss[1]) {
        std::cmp::Ordering::Greater => Some(0),
        std::cmp::Ordering::Less => Some(1),
        std::cmp::Ordering::Equal => None,
    }
}

/// The die as a multiplier: "1-2-3 = 2", "4-5-6 = 3" (Judging the Morale 4.2).
pub fn morale_multiplier(face: u32) -> u32 {
    if face <= 3 { 2 } else { 3 }
}

/// "add 50% more value to the defenders" (Judging the Morale 6.1).
pub const DEFENCE_MORALE_FACTOR: f64 = 1.5;

/// A side's morale value on equal losses: model soldiers (Grenadiers and
/// guards double) plus 50% in a defensive position ("8 model soldiers on
/// defense, add 4 more points = 12"), times the die's multiplier
/// (Judging the Morale 4, 6).
pub fn morale_value(models: u32, face: u32, defending_position: bool) -> f64 {
    let value = if defending_position {
        f64::from(models) * DEFENCE_MORALE_FACTOR
    } else {
        f64::from(models)
    };
    value * f64::from(morale_multiplier(face))
}

// ---------------------------------------------------------------------------
// Melee
// ---------------------------------------------------------------------------

/// Ranks that count in melee: two, or three for an attack column
/// (The Melee 1, 2).
pub fn melee_ranks(attack_column: bool) -> u32 {
    if attack_column { 3 } else { 2 }
}

/// "Infantry squares – may not be attacked by cavalry unless Lancers lead
/// the assault" (The Melee 3).
pub fn cavalry_may_attack_square(lancers_lead: bool) -> bool {
    lancers_lead
}

/// Infantry "caught in single rank kill only at half power in melee"; in
/// two ranks at normal power (The Melee 6, 7).
pub fn rank_factor(single_rank: bool) -> f64 {
    if single_rank { 0.5 } else { 1.0 }
}

/// Caught in flank or rear: "no kill value and attackers kill value is
/// doubled" (The Melee 8). Returns (attacker's factor, caught side's factor).
pub fn flank_factors(caught: bool) -> (f64, f64) {
    if caught { (2.0, 0.0) } else { (1.0, 1.0) }
}

/// Attacking a house, wood or other defensive position: Grenadier and
/// guard stands at full power, all others at half (Moving Stands 11; The
/// Melee 4.1).
pub fn attacker_position_factor(attacker: Troop, defender_in_position: bool) -> f64 {
    if defender_in_position && !attacker.is_elite() {
        0.5
    } else {
        1.0
    }
}

/// Defenders of a house: "50% extra value (Thus two stands in defense are
/// counted as three stands)"; walls, woods and hedges give none (The Melee 4.1, 5).
pub fn house_defence_factor(in_house: bool) -> f64 {
    if in_house { 1.5 } else { 1.0 }
}

/// A house may be attacked by "double the number of troops" holding it (The Melee 4).
pub fn house_attackers_allowed(defenders: u32) -> u32 {
    defenders.saturating_mul(2)
}

/// Troops beaten and pursued by cavalry fight the next melee "at half-value"
/// (Special Moves 1.1.1).
pub const PURSUED_FACTOR: f64 = 0.5;

/// Whether cavalry may charge infantry where it stands: never in walls,
/// woods or hedges (The Melee 5), nor a square unless lancers lead.
pub fn cavalry_may_charge(in_walls_or_woods: bool, square: bool, lancers_lead: bool) -> bool {
    !in_walls_or_woods && (!square || cavalry_may_attack_square(lancers_lead))
}

// ---------------------------------------------------------------------------
// Table geometry (this program's, where the seed is silent)
// ---------------------------------------------------------------------------

/// Stands within this many inches (centres) are in contact: the seed's
/// "one-inch long stand" (Combat Table, the 3-man stand note).
pub const CONTACT_INCHES: f64 = 1.0;

/// Infantry with a friend within this many inches stand in two ranks
/// (this program's: a stand's length and a gap).
pub const RANK_INCHES: f64 = 2.0;

/// The seed's table: "a standard six-foot wide war game table" (Movement).
pub const TABLE_INCHES: f64 = 72.0;

/// "If tabletop is smaller, cut movement and ranges to ratio" (Movement).
pub fn table_scale(depth_inches: f64) -> f64 {
    if depth_inches.is_finite() && depth_inches > 0.0 {
        (depth_inches / TABLE_INCHES).min(1.0)
    } else {
        1.0
    }
}

/// Whether an attacker at `from` catches a stand at `at` facing `facing`
/// (a unit vector) in flank or rear: its approach more than 45 degrees off
/// the stand's front.
pub fn caught_in_flank(at: (f64, f64), facing: (f64, f64), from: (f64, f64)) -> bool {
    let v = (from.0 - at.0, from.1 - at.1);
    let len = (v.0 * v.0 + v.1 * v.1).sqrt();
    if len == 0.0 {
        return false;
    }
    (v.0 * facing.0 + v.1 * facing.1) / len < std::f64::consts::FRAC_1_SQRT_2 - 1e-9
}
