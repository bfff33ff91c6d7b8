//! The tactical scenario: one battle's table, troops, objectives and limits,
//! as JSON. The hand-off from the campaign writes these; `umpire battle`
//! reads them. Pure: no I/O here.
//!
//! Coordinates: the table is `width` x `depth` cells, each `cell_inches`
//! inches square; x grows to the right, y away from side 0's edge (side 0
//! deploys at low y, side 1 at high y unless the zones say otherwise).
//! Positions of stands are in cells (fractions allowed on inch-scale tables).

use crate::model::{ArmyKind, Colour, Quality, RuleSetId, StandId, StandKind};
use serde::{Deserialize, Serialize};

/// The ground of a cell. Source of the list: the terrain the five seeds use
/// (built-up areas with outer and inner areas, forests with edge and interior
/// squares in `scruby-1961-strategy-tactical-wargame.txt` Figures 2-3; hills
/// with levels, rivers, bridges and fords, fields of tall crops).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ground {
    #[default]
    Open,
    BuiltUpOuter,
    BuiltUpInner,
    ForestEdge,
    ForestInterior,
    River,
    Bridge,
    Ford,
    TallCrops,
}

impl Ground {
    /// Every kind of ground, in the order of the enum.
    pub const ALL: [Ground; 9] = [
        Ground::Open,
        Ground::BuiltUpOuter,
        Ground::BuiltUpInner,
        Ground::ForestEdge,
        Ground::ForestInterior,
        Ground::River,
        Ground::Bridge,
        Ground::Ford,
        Ground::TallCrops,
    ];
}

/// A linear obstacle or prepared position in a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cover {
    WallOrHedge,
    Entrenchment,
}

/// One cell of the table as the engine sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Cell {
    pub ground: Ground,
    /// Hill level: 0 is the plain, 1 the first contour, and so on.
    pub level: u8,
    pub road: bool,
    pub cover: Option<Cover>,
}

impl Cell {
    /// Troops cannot stand in it (rivers away from bridges and fords).
    pub fn is_water(&self) -> bool {
        self.ground == Ground::River
    }

    /// The seeds' "defensive position": on a hill, behind a wall, in a house
    /// (`scruby-1965-unbalanced-equality.txt`, DEFENSIVE POSITIONS), in woods
    /// or entrenchments.
    pub fn is_defensive(&self) -> bool {
        self.level > 0
            || self.cover.is_some()
            || matches!(
                self.ground,
                Ground::BuiltUpOuter | Ground::BuiltUpInner | Ground::ForestEdge | Ground::ForestInterior
            )
    }

    /// The cell as a stand of a side in `role` fights from it. Entrenchments
    /// are the defender's works: the hand-off digs them only on the
    /// defender's line (before a fort or an HQ it holds, or for a posture
    /// entrenched), and their parapet faces the attacker, who, come up to
    /// them, stands before the parapet rather than behind it. So they shelter
    /// the defender's stands only; to the attacker's a trench is open ground
    /// (still an obstacle to cross). Walls, hedges, houses and woods
    /// shelter either side. This program's reading: the seeds name
    /// entrenchments as the defender's ("troops ... in entrenchments",
    /// cordery-2009-late-19th-century-rules.txt, Fire Combat) and never as
    /// ground an attacker takes up.
    pub fn held_by(self, role: Role) -> Cell {
        if role == Role::Attacker && self.cover == Some(Cover::Entrenchment) {
            Cell { cover: None, ..self }
        } else {
            self
        }
    }

    /// Blocks sight through it.
    pub fn blocks_sight(&self) -> bool {
        matches!(self.ground, Ground::BuiltUpInner | Ground::ForestInterior)
    }
}

/// A rectangle of cells: `x..x+w`, `y..y+h`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Area {
    pub x: u32,
    pub y: u32,
    pub w: u32,
    pub h: u32,
}

impl Area {
    pub fn contains(&self, x: f64, y: f64) -> bool {
        x >= f64::from(self.x)
            && y >= f64::from(self.y)
            && x < f64::from(self.x) + f64::from(self.w)
            && y < f64::from(self.y) + f64::from(self.h)
    }

    pub fn centre(&self) -> (f64, f64) {
        (
            f64::from(self.x) + f64::from(self.w) / 2.0,
            f64::from(self.y) + f64::from(self.h) / 2.0,
        )
    }
}

/// A patch of terrain: sets the named properties on every cell of `area`.
/// Patches apply in order, later over earlier; cells no patch touches are open.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Patch {
    pub area: Area,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ground: Option<Ground>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub road: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cover: Option<Cover>,
}

/// The table: its size, its scale and its terrain.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Table {
    /// Cells across.
    pub width: u32,
    /// Cells deep.
    pub depth: u32,
    /// The side of a cell in inches of table.
    pub cell_inches: f64,
    /// A square-grid game (moves and ranges in squares) rather than an inch-scale one.
    pub grid: bool,
    #[serde(default)]
    pub terrain: Vec<Patch>,
}

impl Table {
    /// The ground of cell (`x`, `y`): the last patch over it that sets
    /// one, else open. `None` off the table.
    pub fn ground_at(&self, x: i64, y: i64) -> Option<Ground> {
        let inside = (0..i64::from(self.width)).contains(&x) && (0..i64::from(self.depth)).contains(&y);
        inside.then(|| {
            self.terrain
                .iter()
                .rev()
                .find(|p| p.ground.is_some() && p.area.contains(x as f64 + 0.5, y as f64 + 0.5))
                .and_then(|p| p.ground)
                .unwrap_or_default()
        })
    }

    /// Every cell, row by row (`y * width + x`).
    pub fn cells(&self) -> Vec<Cell> {
        let (w, d) = (self.width as usize, self.depth as usize);
        let mut cells = vec![Cell::default(); w.saturating_mul(d)];
        for patch in &self.terrain {
            let a = patch.area;
            for y in a.y..a.y.saturating_add(a.h).min(self.depth) {
                for x in a.x..a.x.saturating_add(a.w).min(self.width) {
                    if let Some(cell) = cells.get_mut(y as usize * w + x as usize) {
                        if let Some(g) = patch.ground {
                            cell.ground = g;
                        }
                        if let Some(l) = patch.level {
                            cell.level = l;
                        }
                        if let Some(r) = patch.road {
                            cell.road = r;
                        }
                        if patch.cover.is_some() {
                            cell.cover = patch.cover;
                        }
                    }
                }
            }
        }
        cells
    }
}

/// Which part a side plays in the battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Attacker,
    Defender,
}

/// The arms the seeds' range tables distinguish
/// (`cordery-2009-late-19th-century-rules.txt`, Fire Combat – Ranges).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Weapon {
    HandHeld,
    Musket,
    SingleShotRifle,
    MagazineRifle,
    SmoothBoreMountainGun,
    MachineGun,
    RifledMountainGun,
    SmoothBoreFieldGun,
    RifledFieldGun,
    SmoothBoreHeavyGun,
    RifledHeavyGun,
}

/// One stand on the table, keeping its campaign stand id.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableStand {
    pub id: StandId,
    pub name: String,
    pub kind: StandKind,
    #[serde(default = "trained")]
    pub quality: Quality,
    /// Current and full strength in roster points (the 1965 scale).
    pub strength: u32,
    pub full: u32,
    /// Where it starts, in cells; `None`: placed in the deployment zone by the doctrine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<(f64, f64)>,
    /// Its arm for the range tables; `None`: the usual one for its kind and army.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weapon: Option<Weapon>,
}

fn trained() -> Quality {
    Quality::Trained
}

impl TableStand {
    /// A trained stand of `kind` at its full roster strength, named after
    /// its kind and id, its arm the usual one, placed in its side's
    /// deployment zone by the doctrine.
    pub fn fresh(id: u32, kind: StandKind) -> TableStand {
        let full = kind.roster_points();
        TableStand {
            id: StandId(id),
            name: format!("{} {id}", kind.label()),
            kind,
            quality: Quality::Trained,
            strength: full,
            full,
            at: None,
            weapon: None,
        }
    }
}

/// Stands that come on later.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reserve {
    /// The turn they arrive on (1 is the first turn).
    pub turn: u32,
    /// Where they come on.
    pub area: Area,
    pub stands: Vec<TableStand>,
}

/// One side of the battle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScenarioSide {
    /// The campaign side's id.
    pub id: String,
    pub name: String,
    pub army: ArmyKind,
    pub role: Role,
    /// Its colour in the battle pack's pictures; `None`: blue for the first side, red for the second.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub colour: Option<Colour>,
    /// Where its stands deploy.
    pub deployment: Area,
    pub stands: Vec<TableStand>,
    #[serde(default)]
    pub reserves: Vec<Reserve>,
}

/// What an objective stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ObjectiveKind {
    Hq,
    Bridge,
    Town,
    Hill,
    Crossroads,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Objective {
    pub name: String,
    pub kind: ObjectiveKind,
    /// The cell it is in.
    pub x: u32,
    pub y: u32,
}

/// A whole battle to fight.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Scenario {
    pub title: String,
    /// The rule set it is meant for; `umpire battle --rules` may choose another.
    pub rules: RuleSetId,
    pub seed: u64,
    /// Turns before the battle ends undecided.
    pub turn_limit: u32,
    pub table: Table,
    /// Exactly two sides: one attacker, one defender.
    pub sides: Vec<ScenarioSide>,
    #[serde(default)]
    pub objectives: Vec<Objective>,
    /// Free text for the players.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
}

/// A problem with a scenario, said plainly.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ScenarioProblem(pub String);

/// Largest table side, in cells.
const MAX_CELLS_A_SIDE: u32 = 1000;

impl Scenario {
    /// Every problem that would stop the battle being fought.
    pub fn problems(&self) -> Vec<ScenarioProblem> {
        let mut out = Vec::new();
        let mut say = |m: String| out.push(ScenarioProblem(m));
        let t = &self.table;
        if t.width == 0 || t.depth == 0 || t.width > MAX_CELLS_A_SIDE || t.depth > MAX_CELLS_A_SIDE {
            say(format!(
                "the table is {} x {} cells: each side must be 1 to {MAX_CELLS_A_SIDE}",
                t.width, t.depth
            ));
        }
        if !(t.cell_inches.is_finite() && t.cell_inches > 0.0) {
            say(format!("cell_inches {} must be more than 0", t.cell_inches));
        }
        if self.turn_limit == 0 || self.turn_limit > 1000 {
            say(format!("turn_limit {} must be 1 to 1000", self.turn_limit));
        }
        if self.sides.len() != 2 {
            say(format!(
                "a battle has two sides; this one has {}",
                self.sides.len()
            ));
        }
        let roles: Vec<Role> = self.sides.iter().map(|s| s.role).collect();
        if self.sides.len() == 2 && !(roles.contains(&Role::Attacker) && roles.contains(&Role::Defender)) {
            say("one side must be the attacker and the other the defender".to_owned());
        }
        let inside = |a: &Area| {
            a.w > 0 && a.h > 0 && a.x.saturating_add(a.w) <= t.width && a.y.saturating_add(a.h) <= t.depth
        };
        let mut ids = std::collections::HashSet::new();
        for side in &self.sides {
            if !inside(&side.deployment) {
                say(format!(
                    "side `{}`: its deployment zone {:?} is not on the {} x {} table",
                    side.id, side.deployment, t.width, t.depth
                ));
            }
            if side.stands.is_empty() && side.reserves.is_empty() {
                say(format!("side `{}` has no stands", side.id));
            }
            let all = side
                .stands
                .iter()
                .chain(side.reserves.iter().flat_map(|r| r.stands.iter()));
            for stand in all {
                if !ids.insert(stand.id) {
                    say(format!("stand {} appears twice", stand.id));
                }
                if stand.full == 0 || stand.strength > stand.full {
                    say(format!(
                        "stand {} ({}): strength {} of {} must be at most full, and full more than 0",
                        stand.id, stand.name, stand.strength, stand.full
                    ));
                }
                if let Some((x, y)) = stand.at
                    && !(x.is_finite()
                        && y.is_finite()
                        && x >= 0.0
                        && y >= 0.0
                        && x < f64::from(t.width)
                        && y < f64::from(t.depth))
                {
                    say(format!(
                        "stand {} ({}) is placed at ({x}, {y}), off the table",
                        stand.id, stand.name
                    ));
                }
            }
            for reserve in &side.reserves {
                if !inside(&reserve.area) {
                    say(format!(
                        "side `{}`: a reserve arrives in {:?}, off the table",
                        side.id, reserve.area
                    ));
                }
                if reserve.turn == 0 {
                    say(format!(
                        "side `{}`: a reserve arrives on turn 0; the first turn is 1",
                        side.id
                    ));
                }
            }
        }
        for o in &self.objectives {
            if o.x >= t.width || o.y >= t.depth {
                say(format!(
                    "objective `{}` at ({}, {}) is off the table",
                    o.name, o.x, o.y
                ));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example(name: &str) -> Scenario {
        let path = format!("{}/campaigns/scenarios/{name}", env!("CARGO_MANIFEST_DIR"));
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    #[test]
    fn a_trench_shelters_only_the_defender_and_a_wall_either_side() {
        let cell = |cover| Cell {
            cover,
            ..Cell::default()
        };
        let trench = cell(Some(Cover::Entrenchment));
        assert_eq!(trench.held_by(Role::Defender), trench);
        assert_eq!(trench.held_by(Role::Attacker).cover, None);
        assert!(!trench.held_by(Role::Attacker).is_defensive());
        let wall = cell(Some(Cover::WallOrHedge));
        assert_eq!(wall.held_by(Role::Attacker), wall);
        assert_eq!(wall.held_by(Role::Defender), wall);
    }

    #[test]
    fn the_example_scenarios_read_and_have_no_problems() {
        for name in ["abu_tleih_1895.json", "kassassin_bridge.json"] {
            let s = example(name);
            assert_eq!(s.problems(), vec![], "{name}");
        }
    }

    #[test]
    fn patches_apply_in_order_over_open_ground() {
        let s = example("kassassin_bridge.json");
        let cells = s.table.cells();
        let at = |x: usize, y: usize| cells[y * 18 + x];
        assert_eq!(at(0, 0), Cell::default());
        assert_eq!(at(0, 6).ground, Ground::River);
        assert_eq!((at(9, 6).ground, at(9, 6).road), (Ground::Bridge, true));
        assert_eq!(at(9, 8).ground, Ground::BuiltUpInner);
        assert_eq!(at(13, 8).level, 1);
        assert!(at(11, 9).is_defensive());
    }

    #[test]
    fn problems_are_named() {
        let mut s = example("abu_tleih_1895.json");
        s.sides[1].role = Role::Defender;
        s.sides[0].stands[0].strength = 500;
        s.objectives[0].x = 99;
        let problems: Vec<String> = s.problems().into_iter().map(|p| p.0).collect();
        assert!(problems.contains(&"one side must be the attacker and the other the defender".to_owned()));
        assert!(
            problems
                .iter()
                .any(|p| p.starts_with("stand #1 (Coy, 42nd Black Watch 1): strength 500 of 100"))
        );
        assert!(
            problems
                .iter()
                .any(|p| p.starts_with("objective `The wells of Abu Tleih` at (99, 3) is off the table"))
        );
    }
}
