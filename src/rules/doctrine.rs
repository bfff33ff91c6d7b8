//! The plain doctrine both sides follow under every rule set: the attacker
//! makes for the objectives and concentrates; the defender holds the best
//! terrain; both fire at what is in range and charge when the odds favour
//! them. (This is the program's own, as DESIGN.md asks; the seeds leave the
//! generals to the players.)

use super::board::{Board, Point};
use crate::scenario::{Area, Role, Scenario, ScenarioSide};

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

/// Starting places for `count` stands of a side in its deployment zone: the
/// defender on the zone's best ground first, the attacker in a line across
/// the zone's front (the edge nearer the enemy), both spread over the zone.
pub fn deploy(board: &Board, side: &ScenarioSide, toward: Point, count: usize) -> Vec<Point> {
    let zone = side.deployment;
    let mut cells: Vec<Point> = area_centres(&zone)
        .filter(|c| !board.cell_at(*c).is_water())
        .collect();
    if cells.is_empty() {
        cells.push(zone.centre());
    }
    match side.role {
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
