//! The plain doctrine both sides follow under every rule set: the attacker
//! makes for the objectives and concentrates; the defender holds the best
//! terrain; both fire at what is in range and charge when the odds favour
//! them. (This is the program's own, as DESIGN.md asks; the seeds leave the
//! generals to the players.)

use super::board::{Board, Point};
use crate::scenario::{Area, Role, Scenario, TableStand};

/// Odds at which a stand charges: its fighting score at least this many
/// times the enemy's.
pub const CHARGE_WHEN_ODDS_AT_LEAST: f64 = 1.25;

/// How good a cell is to hold: hills, walls, entrenchments, towns and woods.
pub fn defensive_value(board: &Board, p: Point) -> u32 {
    use crate::scenario::{Cover, Ground};
    let cell = board.cell_at(p);
    if cell.is_water() {
        return 0;
    }
    let ground = match cell.ground {
        Ground::BuiltUpOuter | Ground::ForestEdge => 3,
        Ground::BuiltUpInner | Ground::ForestInterior => 2,
        Ground::TallCrops => 1,
        _ => 0,
    };
    let cover = match cell.cover {
        Some(Cover::Entrenchment) => 4,
        Some(Cover::WallOrHedge) => 3,
        None => 0,
    };
    1 + ground + cover + 2 * u32::from(cell.level)
}

/// Where side `side` aims: the attacker at the objective nearest its
/// deployment (or the enemy's deployment, with no objectives), all its stands
/// at the same one, so it concentrates; the defender at the best ground near
/// the objectives it guards (or its own deployment zone).
pub fn goal(board: &Board, scenario: &Scenario, side: usize) -> Point {
    let Some(me) = scenario.sides.get(side) else {
        return (0.0, 0.0);
    };
    let enemy = scenario.sides.get(1 - side.min(1));
    let home = me.deployment.centre();
    let nearest_objective = scenario
        .objectives
        .iter()
        .map(|o| (f64::from(o.x) + 0.5, f64::from(o.y) + 0.5))
        .min_by(|a, b| dist(*a, home).total_cmp(&dist(*b, home)));
    match me.role {
        Role::Attacker => nearest_objective
            .or(enemy.map(|e| e.deployment.centre()))
            .unwrap_or(home),
        Role::Defender => {
            let anchor = nearest_objective.unwrap_or(home);
            best_ground_near(board, anchor, 3.0).unwrap_or(anchor)
        }
    }
}

/// The best defensive cell within `radius` cells of `anchor`; ties go to the nearer.
pub fn best_ground_near(board: &Board, anchor: Point, radius: f64) -> Option<Point> {
    board
        .centres()
        .filter(|c| dist(*c, anchor) <= radius && !board.cell_at(*c).is_water())
        .max_by(|a, b| {
            defensive_value(board, *a)
                .cmp(&defensive_value(board, *b))
                .then(dist(*b, anchor).total_cmp(&dist(*a, anchor)))
        })
}

/// Starting places for `count` stands deploying in `zone` for a side of
/// `role`: the defender on the zone's best ground first, the attacker in a
/// line across the zone's front (the edge nearer `toward`), both spread over
/// the zone.
pub fn deploy(board: &Board, zone: &Area, role: Role, toward: Point, count: usize) -> Vec<Point> {
    let mut cells: Vec<Point> = area_centres(zone)
        .filter(|c| !board.cell_at(*c).is_water())
        .collect();
    if cells.is_empty() {
        cells.push(zone.centre());
    }
    match role {
        Role::Defender => cells.sort_by(|a, b| {
            defensive_value(board, *b)
                .cmp(&defensive_value(board, *a))
                .then(dist(*a, toward).total_cmp(&dist(*b, toward)))
        }),
        Role::Attacker => cells.sort_by(|a, b| dist(*a, toward).total_cmp(&dist(*b, toward))),
    }
    (0..count)
        .filter_map(|i| cells.get(i % cells.len()).copied())
        .collect()
}

/// Where one stand of a side starts.
#[derive(Debug, Clone, Copy)]
pub struct Start<'s> {
    pub stand: &'s TableStand,
    /// In cells: where the scenario places it, or else the doctrine.
    pub at: Point,
    /// The turn it comes on: 0 for the stands on the table at the start.
    pub arrives: u32,
}

/// Where every stand of side `side` starts, in the scenario's order: its
/// stands in its deployment area, then each reserve's in its arrival area,
/// those the scenario does not place deployed by [`deploy`] toward the
/// side's [`goal`].
pub fn starts<'s>(board: &Board, scenario: &'s Scenario, side: usize) -> Vec<Start<'s>> {
    let Some(me) = scenario.sides.get(side) else {
        return Vec::new();
    };
    let toward = goal(board, scenario, side);
    let mut out = Vec::new();
    let groups = std::iter::once((&me.stands, me.deployment, 0))
        .chain(me.reserves.iter().map(|r| (&r.stands, r.area, r.turn)));
    for (stands, area, arrives) in groups {
        let unplaced = stands.iter().filter(|t| t.at.is_none()).count();
        let mut spots = deploy(board, &area, me.role, toward, unplaced).into_iter();
        for stand in stands {
            let at = stand.at.or_else(|| spots.next()).unwrap_or(area.centre());
            out.push(Start { stand, at, arrives });
        }
    }
    out
}

/// What a side's generals work from on an inch table: who it is, where it
/// aims (in inches) and which way its own table edge lies.
#[derive(Debug, Clone, Copy)]
pub struct SidePlan<'a> {
    pub id: &'a str,
    pub name: &'a str,
    pub role: Role,
    /// Where its doctrine aims, in inches.
    pub goal: Point,
    /// A unit vector toward its own table edge.
    pub rear: Point,
}

impl<'a> SidePlan<'a> {
    pub fn in_inches(board: &Board, scenario: &'a Scenario, side: usize) -> SidePlan<'a> {
        let s = scenario.sides.get(side);
        SidePlan {
            id: s.map_or("", |s| s.id.as_str()),
            name: s.map_or("", |s| s.name.as_str()),
            role: s.map_or(Role::Defender, |s| s.role),
            goal: board.to_inches(goal(board, scenario, side)),
            rear: rear_of(scenario, side),
        }
    }
}

/// A unit vector from side `side`'s enemy's deployment toward its own: the
/// way back to its own edge.
pub fn rear_of(scenario: &Scenario, side: usize) -> Point {
    let centre = |s: usize| scenario.sides.get(s).map(|x| x.deployment.centre());
    let fallback = if side == 0 { (0.0, -1.0) } else { (0.0, 1.0) };
    match (centre(side), centre(1 - side.min(1))) {
        (Some(own), Some(enemy)) => unit_vector(enemy, own).unwrap_or(fallback),
        _ => fallback,
    }
}

/// The unit vector from `a` toward `b`; `None` if they are the same point.
pub fn unit_vector(a: Point, b: Point) -> Option<Point> {
    let d = dist(a, b);
    if d < 1e-6 || !d.is_finite() {
        None
    } else {
        Some(((b.0 - a.0) / d, (b.1 - a.1) / d))
    }
}

fn area_centres(a: &Area) -> impl Iterator<Item = Point> + '_ {
    (a.y..a.y.saturating_add(a.h)).flat_map(move |y| {
        (a.x..a.x.saturating_add(a.w)).map(move |x| (f64::from(x) + 0.5, f64::from(y) + 0.5))
    })
}

/// Distance between two points, in cells.
pub fn dist(a: Point, b: Point) -> f64 {
    ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt()
}

/// The point `step` cells from `from` toward `to` (or `to`, if nearer).
pub fn step_toward(from: Point, to: Point, step: f64) -> Point {
    let d = dist(from, to);
    if d <= step || d == 0.0 {
        to
    } else {
        (
            from.0 + (to.0 - from.0) * step / d,
            from.1 + (to.1 - from.1) * step / d,
        )
    }
}

/// The nearest of `targets` (index, position) within `range` cells of `from`.
pub fn nearest_in_range(
    from: Point,
    range: f64,
    targets: impl Iterator<Item = (usize, Point)>,
) -> Option<usize> {
    targets
        .filter(|(_, p)| dist(from, *p) <= range + 1e-9)
        .min_by(|a, b| dist(from, a.1).total_cmp(&dist(from, b.1)))
        .map(|(i, _)| i)
}

/// Whether the odds favour a charge.
pub fn charge_favoured(mine: f64, theirs: f64) -> bool {
    mine >= theirs * CHARGE_WHEN_ODDS_AT_LEAST
}
