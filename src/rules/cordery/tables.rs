//! Cordery's tables and modifiers, each a small function of its own so each
//! can be read against the seed and tested alone. Every number here cites
//! `cordery-2009-late-19th-century-rules.txt` and the section it comes from.

use crate::model::{ArmyKind, Quality, StandKind};
use crate::scenario::{Cell, Cover, Ground, Weapon};

/// A square of the grid, `(x, y)`, counted from 0.
pub type Square = (i32, i32);

// ----------------------------------------------------------------------------
// Constants of the rules.

/// cordery-2009-late-19th-century-rules.txt, TURN SEQUENCE: "The battle lasts
/// a maximum of twelve turns."
pub const MAX_TURNS: u32 = 12;

/// cordery-2009-late-19th-century-rules.txt, THE BATTLEFIELD: "No more than
/// two stands may be placed in a square at any one time".
pub const STANDS_PER_SQUARE: usize = 2;

/// cordery-2009-late-19th-century-rules.txt, MOVEMENT: "Stands making their
/// entire move along a road may increase their movement distance by 1 square."
pub const ROAD_BONUS: i32 = 1;

/// cordery-2009-late-19th-century-rules.txt, MOVEMENT: "Stands crossing a hill
/// contour reduce their movement distance by 1 square per contour crossed."
pub const CONTOUR_COST: i32 = 1;

/// cordery-2009-late-19th-century-rules.txt, MOVEMENT: "If the stand has to
/// withdraw more than four squares to comply with this rule ... the
/// withdrawing stand is deemed to have been destroyed".
pub const WITHDRAW_AT_MOST: i32 = 4;

/// cordery-2009-late-19th-century-rules.txt, Fire Combat – Additions and
/// Subtractions: "Add 1 to the firing stand's score if the firing stand is
/// Artillery firing at an enemy stand that is in an adjacent square."
pub const ARTILLERY_AT_ADJACENT: i32 = 1;

/// cordery-2009-late-19th-century-rules.txt, Fire Combat – Additions and
/// Subtractions: "Deduct 2 from the firing stand's score if the enemy stand is
/// behind a wall, in entrenchments, or inside a wood."
pub const FIRE_AT_COVER: i32 = 2;

/// cordery-2009-late-19th-century-rules.txt, Close Combat – Additions and
/// Subtractions: "Add 1 for each friendly stand of the same type that is in an
/// adjacent square."
pub const SAME_TYPE_ADJACENT: i32 = 1;

/// cordery-2009-late-19th-century-rules.txt, Close Combat – Additions and
/// Subtractions: "Add 2 for each friendly stand of the same type that is in
/// the same square."
pub const SAME_TYPE_SAME_SQUARE: i32 = 2;

/// cordery-2009-late-19th-century-rules.txt, Close Combat – Additions and
/// Subtractions: "Add 2 to the score of the stand initiating the close combat
/// if the stand initiating the close combat is on the enemy stand's flank or
/// rear."
pub const FLANK_OR_REAR: i32 = 2;

/// cordery-2009-late-19th-century-rules.txt, Close Combat – Additions and
/// Subtractions: "Add 3 ... if the stand initiating the close combat is
/// Cavalry attacking Infantry or Artillery in flat, open country."
pub const CAVALRY_IN_OPEN: i32 = 3;

/// cordery-2009-late-19th-century-rules.txt, Close Combat – Additions and
/// Subtractions: "Deduct 2 ... if the stand initiating the close combat is in
/// a square that is downhill from the enemy stand's square."
pub const DOWNHILL: i32 = 2;

/// cordery-2009-late-19th-century-rules.txt, Close Combat – Additions and
/// Subtractions: "Deduct 2 ... if the enemy stand is behind a wall or in
/// entrenchments."
pub const CLOSE_COMBAT_AT_COVER: i32 = 2;

// ----------------------------------------------------------------------------
// Types of stand.

/// A General's rating (cordery-2009-late-19th-century-rules.txt, GENERALS and
/// STAND VALUES).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Generalship {
    Exceptional,
    Average,
    Poor,
}

/// Cordery's types of stand (cordery-2009-late-19th-century-rules.txt, STAND
/// VALUES and MOVEMENT).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StandType {
    GuardInfantry,
    RegularInfantry,
    IrregularInfantry,
    NativeInfantry,
    RegularCavalry,
    IrregularCavalry,
    NativeCavalry,
    /// Regular Cavalry fighting on foot.
    DismountedCavalry,
    FieldArtillery,
    MountainArtillery,
    HeavyArtillery,
    MachineGun,
    Transport,
    /// The Command stand: the stand with the General on it.
    General {
        rating: Generalship,
        mounted: bool,
    },
}

impl StandType {
    /// Cordery's name for the type, for the log.
    pub fn label(self) -> &'static str {
        match self {
            StandType::GuardInfantry => "Guard Infantry",
            StandType::RegularInfantry => "Regular Infantry",
            StandType::IrregularInfantry => "Irregular Infantry",
            StandType::NativeInfantry => "Native Infantry",
            StandType::RegularCavalry => "Regular Cavalry",
            StandType::IrregularCavalry => "Irregular Cavalry",
            StandType::NativeCavalry => "Native Cavalry",
            StandType::DismountedCavalry => "Dismounted Cavalry",
            StandType::FieldArtillery => "Field Artillery",
            StandType::MountainArtillery => "Mountain Artillery",
            StandType::HeavyArtillery => "Heavy Artillery",
            StandType::MachineGun => "Machine Gun",
            StandType::Transport => "Transport",
            StandType::General { rating, .. } => match rating {
                Generalship::Exceptional => "Exceptional General",
                Generalship::Average => "Average General",
                Generalship::Poor => "Poor General",
            },
        }
    }
}

/// Infantry, for "Only Infantry may move off-road through woods" and for the
/// cavalry's "attacking Infantry or Artillery". Dismounted cavalry fight on
/// foot and count as infantry here.
pub fn is_infantry(t: StandType) -> bool {
    matches!(
        t,
        StandType::GuardInfantry
            | StandType::RegularInfantry
            | StandType::IrregularInfantry
            | StandType::NativeInfantry
            | StandType::DismountedCavalry
    )
}

/// Mounted troops that charge as Cavalry (a mounted General is not Cavalry).
pub fn is_cavalry(t: StandType) -> bool {
    matches!(
        t,
        StandType::RegularCavalry | StandType::IrregularCavalry | StandType::NativeCavalry
    )
}

/// Artillery: field, mountain and heavy guns. The seed lists Machine Guns
/// beside Artillery, never inside it, so they are not Artillery here.
pub fn is_artillery(t: StandType) -> bool {
    matches!(
        t,
        StandType::FieldArtillery | StandType::MountainArtillery | StandType::HeavyArtillery
    )
}

/// The Command stand.
pub fn is_general(t: StandType) -> bool {
    matches!(t, StandType::General { .. })
}

/// cordery-2009-late-19th-century-rules.txt, STAND VALUES.
pub fn stand_value(t: StandType) -> i32 {
    match t {
        // cordery-2009-late-19th-century-rules.txt, STAND VALUES: "Guard Infantry: 4 points"
        StandType::GuardInfantry => 4,
        // cordery-2009-late-19th-century-rules.txt, STAND VALUES: "Regular Infantry, Regular Cavalry, and Heavy Artillery: 3 points"
        // (Dismounted Cavalry is Regular Cavalry on foot: the same stand, the same value.)
        StandType::RegularInfantry
        | StandType::RegularCavalry
        | StandType::DismountedCavalry
        | StandType::HeavyArtillery => 3,
        // cordery-2009-late-19th-century-rules.txt, STAND VALUES: "Irregular Infantry, Native Infantry, Irregular Cavalry, Native
        // Cavalry, Field Artillery, Mountain Artillery, and Machine Guns: 2 points"
        StandType::IrregularInfantry
        | StandType::NativeInfantry
        | StandType::IrregularCavalry
        | StandType::NativeCavalry
        | StandType::FieldArtillery
        | StandType::MountainArtillery
        | StandType::MachineGun => 2,
        // cordery-2009-late-19th-century-rules.txt, STAND VALUES: "'Exceptional' General: 3 points", "'Average' General: 2 points",
        // "'Poor' General: 1 point"
        StandType::General { rating, .. } => match rating {
            Generalship::Exceptional => 3,
            Generalship::Average => 2,
            Generalship::Poor => 1,
        },
        // cordery-2009-late-19th-century-rules.txt, STAND VALUES: "Transport: 1 point"
        StandType::Transport => 1,
    }
}

/// cordery-2009-late-19th-century-rules.txt, MOVEMENT: the move in squares.
pub fn move_squares(t: StandType) -> i32 {
    match t {
        // cordery-2009-late-19th-century-rules.txt, MOVEMENT: "Irregular Cavalry and Native Cavalry: 5 squares"
        StandType::IrregularCavalry | StandType::NativeCavalry => 5,
        // cordery-2009-late-19th-century-rules.txt, MOVEMENT: "Regular Cavalry and Command (mounted): 4 squares"
        StandType::RegularCavalry | StandType::General { mounted: true, .. } => 4,
        // cordery-2009-late-19th-century-rules.txt, MOVEMENT: "Irregular Infantry and Native Infantry: 3 squares"
        StandType::IrregularInfantry | StandType::NativeInfantry => 3,
        // cordery-2009-late-19th-century-rules.txt, MOVEMENT: "Guard Infantry, Regular Infantry, Dismounted Cavalry, Artillery,
        // Machine Guns, Transport, and Command (on foot): 2 squares"
        StandType::GuardInfantry
        | StandType::RegularInfantry
        | StandType::DismountedCavalry
        | StandType::FieldArtillery
        | StandType::MountainArtillery
        | StandType::HeavyArtillery
        | StandType::MachineGun
        | StandType::Transport
        | StandType::General { mounted: false, .. } => 2,
    }
}

/// cordery-2009-late-19th-century-rules.txt, Fire Combat – Ranges, in squares.
pub fn range_squares(w: Weapon) -> i32 {
    match w {
        // cordery-2009-late-19th-century-rules.txt, Fire Combat – Ranges: "Hand-held Weapons and Muskets: 1 square"
        Weapon::HandHeld | Weapon::Musket => 1,
        // cordery-2009-late-19th-century-rules.txt, Fire Combat – Ranges: "Single-shot Rifles: 2 squares"
        Weapon::SingleShotRifle => 2,
        // cordery-2009-late-19th-century-rules.txt, Fire Combat – Ranges: "Magazine Rifles: 3 squares"
        Weapon::MagazineRifle => 3,
        // cordery-2009-late-19th-century-rules.txt, Fire Combat – Ranges: "Smooth-bore Mountain Artillery, and Machine Guns: 4 squares"
        Weapon::SmoothBoreMountainGun | Weapon::MachineGun => 4,
        // cordery-2009-late-19th-century-rules.txt, Fire Combat – Ranges: "Rifled Mountain Artillery and Smooth-bore Field Artillery: 5 squares"
        Weapon::RifledMountainGun | Weapon::SmoothBoreFieldGun => 5,
        // cordery-2009-late-19th-century-rules.txt, Fire Combat – Ranges: "Rifled Field Artillery and Smooth-bore Heavy Artillery: 6 squares"
        Weapon::RifledFieldGun | Weapon::SmoothBoreHeavyGun => 6,
        // cordery-2009-late-19th-century-rules.txt, Fire Combat – Ranges: "Rifled Heavy Artillery: 8 squares"
        Weapon::RifledHeavyGun => 8,
    }
}

// ----------------------------------------------------------------------------
// The campaign's stands as Cordery's (see the module documentation).

/// The General's rating for a command stand's quality: elite Exceptional,
/// trained Average, raw Poor.
pub fn generalship(q: Quality) -> Generalship {
    match q {
        Quality::Elite => Generalship::Exceptional,
        Quality::Trained => Generalship::Average,
        Quality::Raw => Generalship::Poor,
    }
}

/// Cordery's type for a campaign stand of `kind` and `quality` in an army of
/// `army`.
pub fn stand_type(kind: StandKind, quality: Quality, army: ArmyKind) -> StandType {
    let native = army == ArmyKind::Native;
    match kind {
        StandKind::LineInfantry
        | StandKind::LightInfantry
        | StandKind::GrenadierInfantry
        | StandKind::NativeRegulars => StandType::RegularInfantry,
        StandKind::GuardInfantry => StandType::GuardInfantry,
        StandKind::HeavyCavalry | StandKind::LightCavalry | StandKind::MountedInfantry => {
            if native {
                StandType::NativeCavalry
            } else {
                StandType::RegularCavalry
            }
        }
        StandKind::FootArtillery | StandKind::HorseArtillery => StandType::FieldArtillery,
        StandKind::MachineGun => StandType::MachineGun,
        StandKind::NativeSpearmen | StandKind::NativeRiflemen => StandType::NativeInfantry,
        StandKind::Transport => StandType::Transport,
        StandKind::Command => StandType::General {
            rating: generalship(quality),
            mounted: true,
        },
    }
}

/// The usual weapon of a campaign stand of `kind` in an army of `army`;
/// `None` for stands that do not fire (transport and the General).
pub fn default_weapon(kind: StandKind, army: ArmyKind) -> Option<Weapon> {
    let native = army == ArmyKind::Native;
    match kind {
        StandKind::LineInfantry
        | StandKind::LightInfantry
        | StandKind::GrenadierInfantry
        | StandKind::GuardInfantry => Some(if native {
            Weapon::SingleShotRifle
        } else {
            Weapon::MagazineRifle
        }),
        StandKind::NativeRegulars | StandKind::NativeRiflemen => Some(Weapon::SingleShotRifle),
        StandKind::NativeSpearmen => Some(Weapon::HandHeld),
        StandKind::HeavyCavalry | StandKind::LightCavalry | StandKind::MountedInfantry => {
            Some(Weapon::SingleShotRifle)
        }
        StandKind::FootArtillery | StandKind::HorseArtillery => Some(if native {
            Weapon::SmoothBoreFieldGun
        } else {
            Weapon::RifledFieldGun
        }),
        StandKind::MachineGun => Some(Weapon::MachineGun),
        StandKind::Transport | StandKind::Command => None,
    }
}

// ----------------------------------------------------------------------------
// Facing and arcs.

/// The way a stand faces: one of the eight directions of the grid, as a step
/// `(dx, dy)` with each part -1, 0 or 1 and not both 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Facing {
    pub dx: i32,
    pub dy: i32,
}

impl Facing {
    /// Facing toward growing y (away from side 0's edge).
    pub const UP_THE_TABLE: Facing = Facing { dx: 0, dy: 1 };
    /// Facing toward falling y.
    pub const DOWN_THE_TABLE: Facing = Facing { dx: 0, dy: -1 };

    /// The direction from `from` toward `to` (the sign of each part); `None`
    /// when they are the same square.
    pub fn toward(from: Square, to: Square) -> Option<Facing> {
        let (dx, dy) = ((to.0 - from.0).signum(), (to.1 - from.1).signum());
        (dx != 0 || dy != 0).then_some(Facing { dx, dy })
    }

    /// Facing the other way.
    pub fn about(self) -> Facing {
        Facing {
            dx: -self.dx,
            dy: -self.dy,
        }
    }
}

/// Whether `to` lies within the 90° arc to the front of a stand in `from`
/// facing `facing`: within 45° either side of its facing, the edges included.
/// The stand's own square is in no arc.
pub fn in_front_arc(facing: Facing, from: Square, to: Square) -> bool {
    let (dx, dy) = (i64::from(to.0 - from.0), i64::from(to.1 - from.1));
    let (fx, fy) = (i64::from(facing.dx), i64::from(facing.dy));
    let dot = dx * fx + dy * fy;
    // cos(angle) >= cos 45°  <=>  2 dot² >= |d|² |f|², with dot > 0.
    dot > 0 && 2 * dot * dot >= (dx * dx + dy * dy) * (fx * fx + fy * fy)
}

/// Whether `to` lies within the 90° arc to the rear of a stand in `from`.
pub fn in_rear_arc(facing: Facing, from: Square, to: Square) -> bool {
    in_front_arc(facing.about(), from, to)
}

/// Whether a stand in `from` is on the flank or rear of an enemy stand in
/// `enemy` facing `enemy_facing`: outside the enemy's 90° front arc.
pub fn on_flank_or_rear(enemy_facing: Facing, enemy: Square, from: Square) -> bool {
    from != enemy && !in_front_arc(enemy_facing, enemy, from)
}

/// The distance in squares, diagonal steps counting one.
pub fn squares_apart(a: Square, b: Square) -> i32 {
    (a.0 - b.0).abs().max((a.1 - b.1).abs())
}

// ----------------------------------------------------------------------------
// Terrain.

/// A wood square: "Only Infantry may move off-road through woods".
pub fn is_wood(c: &Cell) -> bool {
    matches!(c.ground, Ground::ForestEdge | Ground::ForestInterior)
}

/// A vertical obstacle: "walls, hedges, fences etc." (MOVEMENT).
pub fn is_vertical_obstacle(c: &Cell) -> bool {
    c.cover == Some(Cover::WallOrHedge)
}

/// cordery-2009-late-19th-century-rules.txt, note viii: "An obstacle is any
/// vertical or horizontal obstruction that requires a degree of physical
/// effort to cross. This includes walls, hedges, fences, fordable rivers,
/// streams, and trenches."
pub fn is_obstacle(c: &Cell) -> bool {
    c.cover.is_some() || matches!(c.ground, Ground::River | Ground::Ford)
}

/// A built-up square: a stand in it fights from behind the walls of its
/// houses (this program's reading: the seed names no towns, and a
/// village's walls are walls).
pub fn is_built_up(c: &Cell) -> bool {
    matches!(c.ground, Ground::BuiltUpOuter | Ground::BuiltUpInner)
}

/// Fire Combat: "if the enemy stand is behind a wall, in entrenchments, or
/// inside a wood"; a built-up square is behind walls.
pub fn covered_from_fire(c: &Cell) -> bool {
    c.cover.is_some() || is_wood(c) || is_built_up(c)
}

/// Close Combat: "if the enemy stand is behind a wall or in entrenchments";
/// a built-up square is behind walls.
pub fn behind_wall_or_entrenched(c: &Cell) -> bool {
    c.cover.is_some() || is_built_up(c)
}

/// "flat, open country" between two squares: both open ground with nothing
/// in them, on the same level.
pub fn flat_open(a: &Cell, b: &Cell) -> bool {
    let open = |c: &Cell| c.ground == Ground::Open && c.cover.is_none();
    open(a) && open(b) && a.level == b.level
}

// ----------------------------------------------------------------------------
// Combat scores.

/// What counts toward the firing stand's score
/// (cordery-2009-late-19th-century-rules.txt, Fire Combat – Additions and
/// Subtractions).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Firing {
    pub firer: StandType,
    /// The values of friendly Command stands in adjacent squares.
    pub command: i32,
    /// The enemy stand is in an adjacent square.
    pub target_adjacent: bool,
    /// The enemy stand is behind a wall, in entrenchments or inside a wood.
    pub target_in_cover: bool,
}

/// The firing stand's final score for a D12 throw of `d12`.
pub fn fire_score(d12: u32, f: &Firing) -> i32 {
    let mut score = die(d12) + stand_value(f.firer) + f.command;
    if is_artillery(f.firer) && f.target_adjacent {
        score += ARTILLERY_AT_ADJACENT;
    }
    if f.target_in_cover {
        score -= FIRE_AT_COVER;
    }
    score
}

/// The score of the stand fired on: its D12, its value and the values of
/// friendly Command stands adjacent to it (the two additions that apply to
/// any stand; the others are the firing stand's).
pub fn fire_target_score(d12: u32, target: StandType, command: i32) -> i32 {
    die(d12) + stand_value(target) + command
}

/// What counts only for the stand initiating a close combat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Charge {
    /// On the enemy stand's flank or rear.
    pub on_flank_or_rear: bool,
    /// Cavalry attacking Infantry or Artillery in flat, open country.
    pub cavalry_against_foot_in_open: bool,
    /// In a square downhill from the enemy's.
    pub downhill: bool,
    /// The enemy is behind a wall or in entrenchments.
    pub enemy_behind_wall_or_entrenched: bool,
}

/// Whether the cavalry's +3 applies: Cavalry attacking Infantry or Artillery
/// in flat, open country (`open` from [`flat_open`]).
pub fn cavalry_against_foot(initiator: StandType, enemy: StandType, open: bool) -> bool {
    open && is_cavalry(initiator) && (is_infantry(enemy) || is_artillery(enemy))
}

/// What counts toward a stand's close-combat score
/// (cordery-2009-late-19th-century-rules.txt, Close Combat – Additions and
/// Subtractions).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CloseCombat {
    pub stand: StandType,
    /// The values of friendly Command stands in adjacent squares.
    pub command: i32,
    /// Friendly stands of the same type in adjacent squares.
    pub same_type_adjacent: i32,
    /// Friendly stands of the same type in the same square.
    pub same_type_same_square: i32,
    /// `Some` for the stand initiating the close combat.
    pub charge: Option<Charge>,
}

/// A stand's final close-combat score for a D12 throw of `d12`.
pub fn close_combat_score(d12: u32, c: &CloseCombat) -> i32 {
    let mut score = die(d12)
        + stand_value(c.stand)
        + c.command
        + SAME_TYPE_ADJACENT * c.same_type_adjacent
        + SAME_TYPE_SAME_SQUARE * c.same_type_same_square;
    if let Some(charge) = c.charge {
        if charge.on_flank_or_rear {
            score += FLANK_OR_REAR;
        }
        if charge.cavalry_against_foot_in_open {
            score += CAVALRY_IN_OPEN;
        }
        if charge.downhill {
            score -= DOWNHILL;
        }
        if charge.enemy_behind_wall_or_entrenched {
            score -= CLOSE_COMBAT_AT_COVER;
        }
    }
    score
}

fn die(d12: u32) -> i32 {
    i32::try_from(d12).unwrap_or(i32::MAX / 4)
}

/// What a combat came to (cordery-2009-late-19th-century-rules.txt, Combat
/// Results).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CombatResult {
    /// "If the final score of the stand that initiated the combat is lower,
    /// the combat has been ineffective."
    Ineffective,
    /// "If both stands' final scores are equal, each stand throws a D12 and
    /// the stand with the lowest score must withdraw".
    DiceOff,
    /// "less than final score of the stand that initiated the combat but more
    /// than half ... the enemy stand must withdraw".
    EnemyWithdraws,
    /// "less than half the final score of the stand that initiated the
    /// combat, the enemy stand is destroyed".
    EnemyDestroyed,
}

/// The result for final scores `initiator` and `enemy`. A score of exactly
/// half, which the seed leaves out, is not "less than half": the enemy
/// withdraws.
pub fn result_of(initiator: i32, enemy: i32) -> CombatResult {
    use std::cmp::Ordering;
    match initiator.cmp(&enemy) {
        Ordering::Less => CombatResult::Ineffective,
        Ordering::Equal => CombatResult::DiceOff,
        Ordering::Greater => {
            if i64::from(enemy) * 2 < i64::from(initiator) {
                CombatResult::EnemyDestroyed
            } else {
                CombatResult::EnemyWithdraws
            }
        }
    }
}
