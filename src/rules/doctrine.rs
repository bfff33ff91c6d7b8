//! The doctrine both sides follow under every rule set: the attacker
//! makes for the objectives and concentrates; the defender holds the best
//! terrain; both fire at what is in range and charge when the odds favour
//! them. Each side's general draws a [`Plan`] by dice before the battle:
//! where the attack goes in and how boldly, whether the defence stands
//! forward or back, so that one battle is not always fought the same way.
//! (This is the program's own, as DESIGN.md asks; the seeds leave the
//! generals to the players, scruby-1961-strategy-tactical-wargame.txt
//! asking only that "a 'plan of action' must be thought out before the game
//! ever begins".)

use super::board::{Board, Point};
use super::dice::Dice;
use super::engine::Setting;
use crate::scenario::{Area, Ground, Role, Scenario, TableStand};

/// Odds at which a steady general's stand charges: its fighting score at
/// least this many times the enemy's (this program's own).
pub const CHARGE_WHEN_ODDS_AT_LEAST: f64 = 1.25;

/// The odds a bold general charges at, and a cautious one (this program's
/// own: a bold general takes an even fight, a cautious one wants 3:2).
pub const BOLD_CHARGE_ODDS: f64 = 1.0;
pub const CAUTIOUS_CHARGE_ODDS: f64 = 1.5;

/// From this share of the turn limit on, the attacker must take the
/// objectives before the day is out and the defender throw it back: both
/// generals' odds to charge are multiplied by [`LATE_CHARGE_FACTOR`] (this
/// program's own: an attacker that stands off until nightfall has lost).
pub const LATE_FROM_SHARE_OF_TURNS: f64 = 0.5;
pub const LATE_CHARGE_FACTOR: f64 = 0.7;

/// How far (in cells) an attack on a flank swings out from the straight
/// line to the objective while the stand is still far from it; it turns in
/// on the objective within [`TURN_IN_CELLS`] (this program's own: about a
/// third of a standard table's depth).
pub const FLANK_SWING_CELLS: f64 = 5.0;
pub const TURN_IN_CELLS: f64 = 5.0;

/// A defender that holds back stands this many cells behind the ground it
/// guards, toward its own edge, and comes forward to fight for it (this
/// program's own: a reverse-slope defence).
pub const HOLD_BACK_CELLS: f64 = 2.0;

/// Where an attack goes in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Axis {
    /// On the objective's left as the attacker sees it.
    Left,
    Centre,
    Right,
    /// One wing leads, the other follows a turn behind per third of the
    /// front (the wing drawn as `lead_left`).
    Echelon {
        lead_left: bool,
    },
}

/// How boldly a general fights.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Boldness {
    Bold,
    Steady,
    Cautious,
}

/// A side's plan, drawn by dice before the battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Plan {
    pub role: Role,
    /// The attacker's axis (a defender's is `Centre`).
    pub axis: Axis,
    pub boldness: Boldness,
    /// A defender holding back from the ground it guards (never an attacker).
    pub hold_back: bool,
}

impl Plan {
    /// The plan a general of `role` draws: a D6 for the axis (1 left, 2
    /// right, 3-4 centre, 5-6 in echelon, a second D6 saying which wing
    /// leads: 1-3 the left), a D6 for boldness (1-2 cautious, 3-4 steady,
    /// 5-6 bold) and, for a defender, a D6 for holding back (1-2). The
    /// weights are this program's own, after the programmed opponents of
    /// solo wargaming: the plain plans the likelier.
    pub fn draw(dice: &mut Dice, role: Role) -> Plan {
        let axis = match role {
            Role::Attacker => match dice.d6() {
                1 => Axis::Left,
                2 => Axis::Right,
                3 | 4 => Axis::Centre,
                _ => Axis::Echelon {
                    lead_left: dice.d6() <= 3,
                },
            },
            Role::Defender => Axis::Centre,
        };
        let boldness = match dice.d6() {
            1 | 2 => Boldness::Cautious,
            3 | 4 => Boldness::Steady,
            _ => Boldness::Bold,
        };
        let hold_back = role == Role::Defender && dice.d6() <= 2;
        Plan {
            role,
            axis,
            boldness,
            hold_back,
        }
    }

    /// The plan in a few words, for the log.
    pub fn describe(&self) -> String {
        let bold = match self.boldness {
            Boldness::Bold => "boldly",
            Boldness::Steady => "steadily",
            Boldness::Cautious => "cautiously",
        };
        match self.role {
            Role::Attacker => {
                let axis = match self.axis {
                    Axis::Left => "on the left",
                    Axis::Right => "on the right",
                    Axis::Centre => "in the centre",
                    Axis::Echelon { lead_left: true } => "in echelon from the left",
                    Axis::Echelon { lead_left: false } => "in echelon from the right",
                };
                format!("attacks {axis}, {bold}")
            }
            Role::Defender => {
                let stand = if self.hold_back {
                    "holds back from the ground it guards"
                } else {
                    "holds forward on the ground it guards"
                };
                format!("{stand}, fighting {bold}")
            }
        }
    }

    /// The odds (own score over the enemy's) at which this general's stands
    /// charge in turn `turn` of `limit`: by boldness, and lower in the
    /// second half of the day, when the attacker must close or lose and the
    /// defender must throw back those who close.
    pub fn charge_odds(&self, turn: u32, limit: u32) -> f64 {
        let base = match self.boldness {
            Boldness::Bold => BOLD_CHARGE_ODDS,
            Boldness::Steady => CHARGE_WHEN_ODDS_AT_LEAST,
            Boldness::Cautious => CAUTIOUS_CHARGE_ODDS,
        };
        if late(turn, limit) {
            base * LATE_CHARGE_FACTOR
        } else {
            base
        }
    }

    /// Whether the odds favour a charge for this general in turn `turn` of `limit`.
    pub fn charge_favoured(&self, turn: u32, limit: u32, mine: f64, theirs: f64) -> bool {
        mine > 0.0 && mine >= theirs * self.charge_odds(turn, limit)
    }

    /// Where an attacker's stand at `from` aims on its way to `goal` (both
    /// in the same units, `cell` of them to a cell), `rear` being the unit
    /// vector to its own edge: wide of the goal on the plan's flank while
    /// far from it, straight at it within [`TURN_IN_CELLS`]. A defender's
    /// aim is the goal.
    pub fn aim(&self, from: Point, goal: Point, rear: Point, cell: f64) -> Point {
        let swing = match (self.role, self.axis) {
            (Role::Defender, _) | (_, Axis::Centre) | (_, Axis::Echelon { .. }) => 0.0,
            // On a table whose y grows toward the viewer, the left hand of
            // a stand facing (fx, fy) is (fy, -fx).
            (_, Axis::Left) => 1.0,
            (_, Axis::Right) => -1.0,
        };
        let far = dist(from, goal) / cell.max(1e-9);
        if swing == 0.0 || far <= TURN_IN_CELLS {
            return goal;
        }
        let forward = (-rear.0, -rear.1);
        let left = (forward.1, -forward.0);
        let k = swing * FLANK_SWING_CELLS * cell * ((far - TURN_IN_CELLS) / far).clamp(0.0, 1.0);
        (goal.0 + left.0 * k, goal.1 + left.1 * k)
    }

    /// Whether an attacker's stand whose place across the front is `across`
    /// (0 on the left wing to 1 on the right, as the attacker faces) still
    /// waits in turn `turn`: in echelon the trailing wing starts a turn
    /// later per third of the front. Others never wait.
    pub fn waits(&self, across: f64, turn: u32) -> bool {
        let Axis::Echelon { lead_left } = self.axis else {
            return false;
        };
        if self.role != Role::Attacker {
            return false;
        }
        let from_lead = if lead_left { across } else { 1.0 - across };
        let delay = (from_lead.clamp(0.0, 1.0) * 3.0).floor().min(2.0);
        f64::from(turn) <= delay
    }

    /// A defender's post shifted back if it holds back: [`HOLD_BACK_CELLS`]
    /// (`cell` units each) along `rear`.
    pub fn post(&self, post: Point, rear: Point, cell: f64) -> Point {
        if self.hold_back && self.role == Role::Defender {
            (
                post.0 + rear.0 * HOLD_BACK_CELLS * cell,
                post.1 + rear.1 * HOLD_BACK_CELLS * cell,
            )
        } else {
            post
        }
    }
}

/// Whether turn `turn` of `limit` is in the late part of the day.
pub fn late(turn: u32, limit: u32) -> bool {
    f64::from(turn) > f64::from(limit) * LATE_FROM_SHARE_OF_TURNS
}

/// Where stand at `at` stands across its side's front, 0 to 1 from its left
/// to its right as it faces the enemy (`rear` the unit vector to its own
/// edge), among `all` the side's stands' places.
pub fn across_front(at: Point, rear: Point, all: impl Iterator<Item = Point>) -> f64 {
    let forward = (-rear.0, -rear.1);
    let left = (forward.1, -forward.0);
    let side_of = |p: Point| -(p.0 * left.0 + p.1 * left.1);
    let me = side_of(at);
    let (mut lo, mut hi) = (me, me);
    for p in all {
        let v = side_of(p);
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if hi - lo < 1e-9 {
        0.5
    } else {
        (me - lo) / (hi - lo)
    }
}

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
    let nearest_objective = nearest_objective(scenario, side);
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

/// The centre of the objective nearest side `side`'s deployment, in cells.
pub fn nearest_objective(scenario: &Scenario, side: usize) -> Option<Point> {
    let home = scenario.sides.get(side)?.deployment.centre();
    scenario
        .objectives
        .iter()
        .map(|o| (f64::from(o.x) + 0.5, f64::from(o.y) + 0.5))
        .min_by(|a, b| dist(*a, home).total_cmp(&dist(*b, home)))
}

/// The best defensive cell within `radius` cells of `anchor`; ties go to the nearer.
pub fn best_ground_near(board: &Board, anchor: Point, radius: f64) -> Option<Point> {
    board
        .centres()
        .filter(|c| dist(*c, anchor) <= radius && !board.cell_at(*c).is_water())
        // Each cell's value and distance worked out once, not at every comparison.
        .map(|c| (defensive_value(board, c), dist(c, anchor), c))
        .max_by(|a, b| a.0.cmp(&b.0).then(b.1.total_cmp(&a.1)))
        .map(|k| k.2)
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
    // Each cell's value and distance worked out once, not at every comparison.
    let mut keyed: Vec<(u32, f64, Point)> = cells
        .iter()
        .map(|&c| (defensive_value(board, c), dist(c, toward), c))
        .collect();
    match role {
        Role::Defender => keyed.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.total_cmp(&b.1))),
        Role::Attacker => keyed.sort_by(|a, b| a.1.total_cmp(&b.1)),
    }
    let cells: Vec<Point> = keyed.into_iter().map(|k| k.2).collect();
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
    /// A defender's post (in cells), on the ground it guards: `None` for
    /// attackers, reserves and stands the scenario places (they hold where
    /// they are put).
    pub post: Option<Point>,
}

/// Where every stand of side `side` starts, in the scenario's order: its
/// stands in its deployment area, then each reserve's in its arrival area,
/// those the scenario does not place deployed by [`deploy`] toward the
/// side's [`goal`].
pub fn starts<'s>(board: &Board, scenario: &'s Scenario, side: usize) -> Vec<Start<'s>> {
    starts_toward(board, scenario, side, goal(board, scenario, side))
}

/// [`starts`] for a side whose [`goal`] is already worked out: `toward`.
pub fn starts_toward<'s>(
    board: &Board,
    scenario: &'s Scenario,
    side: usize,
    toward: Point,
) -> Vec<Start<'s>> {
    let Some(me) = scenario.sides.get(side) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let groups = std::iter::once((&me.stands, me.deployment, 0))
        .chain(me.reserves.iter().map(|r| (&r.stands, r.area, r.turn)));
    let mut posts = match me.role {
        Role::Defender => posts(
            board,
            nearest_objective(scenario, side).unwrap_or(toward),
            rear_of(scenario, side),
            me.stands.len(),
        ),
        Role::Attacker => Vec::new(),
    }
    .into_iter();
    for (stands, area, arrives) in groups {
        let unplaced = stands.iter().filter(|t| t.at.is_none()).count();
        let mut spots = deploy(board, &area, me.role, toward, unplaced).into_iter();
        for stand in stands {
            let at = stand.at.or_else(|| spots.next()).unwrap_or(area.centre());
            // A stand the scenario places holds where it is put.
            let post = if arrives == 0 && stand.at.is_none() {
                posts.next()
            } else {
                None
            };
            out.push(Start {
                stand,
                at,
                arrives,
                post,
            });
        }
    }
    out
}

/// How far (in cells) behind the ground it guards a defender may post its
/// stands, and how far forward of it (this program's own: the objective's
/// cell and a ring about it, none thrust out toward the enemy).
pub const POST_DEPTH_CELLS: f64 = 4.0;

/// A stand within this many cells of an objective's centre holds it, as
/// [`crate::rules::judge`] counts.
pub const HOLDS_WITHIN_CELLS: f64 = 1.5;
pub const POST_FORWARD_CELLS: f64 = 1.0;

/// Whether cell `c` lies beyond a river from `guard` (in cells), `rear` the
/// unit vector to the defender's own edge: a cell at or forward of `guard`'s
/// line whose way straight back to it crosses (or is) a river, a bridge or a
/// ford, so that a crossing on the objective is held from behind it.
/// A defender holds a crossing from its own bank, its deployment zone
/// being on that bank (issue 14: "each side's deployment zone on its own
/// side of a river (the crossing is the objective)"); a post over the
/// water, with the river at its back, gives up the river and any works
/// dug along it (this program's doctrine: posted there, equal foot had
/// lost a scruby-basic crossing entrenched 95 times in 100).
pub fn beyond_water(board: &Board, c: Point, guard: Point, rear: Point) -> bool {
    /// Half-cell steps looked at, at most: more than any table is deep.
    const MAX_STEPS_BACK: u32 = 4096;
    let back = |p: Point| (p.0 - guard.0) * rear.0 + (p.1 - guard.1) * rear.1;
    // Half-cell steps back toward the defender's edge, to `guard`'s line;
    // bounded, so that a `rear` of no length cannot hold it.
    let mut p = c;
    for _ in 0..MAX_STEPS_BACK {
        if back(p) >= 0.25 {
            break;
        }
        p = (p.0 + rear.0 * 0.5, p.1 + rear.1 * 0.5);
        let cell = board.cell_at(p);
        if cell.is_water() || matches!(cell.ground, Ground::Bridge | Ground::Ford) {
            return true;
        }
    }
    false
}

/// The cells a defender guarding `guard` (in cells) may post a stand on,
/// `rear` the unit vector to its own edge: dry, within `radius` of `guard`,
/// no more than `forward` cells toward the enemy, and not beyond a river
/// ([`beyond_water`]).
fn post_cells(
    board: &Board,
    guard: Point,
    rear: Point,
    forward: f64,
    radius: f64,
) -> impl Iterator<Item = Point> + '_ {
    board.centres().filter(move |c| {
        let back = (c.0 - guard.0) * rear.0 + (c.1 - guard.1) * rear.1;
        !board.cell_at(*c).is_water()
            && dist(*c, guard) <= radius
            && back >= -forward
            && !beyond_water(board, *c, guard, rear)
    })
}

/// Posts for `count` defending stands about `guard` (in cells), `rear` the
/// unit vector to the defender's own edge: the cells holding `guard` (within
/// [`HOLDS_WITHIN_CELLS`], as the judge counts) first, then the best
/// defensive cells, the nearer to `guard` among equals; none in water, none more than
/// [`POST_FORWARD_CELLS`] toward the enemy or [`POST_DEPTH_CELLS`] away, none beyond a
/// river ([`beyond_water`]). Two stands share a cell when the ground runs out.
pub fn posts(board: &Board, guard: Point, rear: Point, count: usize) -> Vec<Point> {
    let mut cells: Vec<Point> =
        post_cells(board, guard, rear, POST_FORWARD_CELLS, POST_DEPTH_CELLS).collect();
    if cells.is_empty() {
        cells.push(guard);
    }
    let holds = |c: &Point| dist(*c, guard) <= HOLDS_WITHIN_CELLS;
    // Each cell's keys worked out once, not at every comparison.
    let mut keyed: Vec<(bool, u32, f64, Point)> = cells
        .iter()
        .map(|c| (holds(c), defensive_value(board, *c), dist(*c, guard), *c))
        .collect();
    keyed.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)).then(a.2.total_cmp(&b.2)));
    let cells: Vec<Point> = keyed.into_iter().map(|k| k.3).collect();
    (0..count)
        .filter_map(|i| cells.get(i % cells.len()).copied())
        .collect()
}

/// What a cell is worth to a firing line: the doctrine's defensive value,
/// and more where the ground toward the enemy is open to fire. A cell whose
/// own ground blocks sight (a town's or wood's heart) sees only its
/// neighbours: it is worth least (this program's own weights; used by
/// scruby-1965 and scruby-basic).
pub fn line_value(board: &Board, c: Point, rear: Point) -> u32 {
    let cell = board.cell_at(c);
    if cell.is_water() {
        return 0;
    }
    if cell.blocks_sight() {
        return 1;
    }
    let ahead = board.cell_at((c.0 - rear.0, c.1 - rear.1));
    let sees_out = !ahead.blocks_sight();
    defensive_value(board, c) + if sees_out { 2 } else { 0 }
}

/// Posts (in cells) for `count` stands guarding `guard`, `rear` the unit
/// vector to the defender's own edge: the first on the objective (the cell
/// nearest it that is not water), then the line's cells, best first (by
/// [`line_value`], then nearer the objective); none more than `forward`
/// cells toward the enemy or `radius` away, nor beyond a river
/// ([`beyond_water`]). Two stands share a cell when the ground runs out.
pub fn line_posts(
    board: &Board,
    guard: Point,
    rear: Point,
    forward: f64,
    radius: f64,
    count: usize,
) -> Vec<Point> {
    let cells: Vec<(u32, f64, Point)> = post_cells(board, guard, rear, forward, radius)
        .map(|c| (line_value(board, c, rear), dist(c, guard), c))
        .collect();
    if cells.is_empty() {
        return vec![guard; count];
    }
    // Distances compared to the thousandth of a cell, and ties broken by
    // the place across the defender's front (its right first), so that a
    // table turned end for end gives the same posts turned with it.
    let key = |v: f64| (v * 1000.0).round();
    let ahead = |c: Point| key(-((c.0 - guard.0) * rear.0 + (c.1 - guard.1) * rear.1));
    let across = |c: Point| key((c.0 - guard.0) * rear.1 - (c.1 - guard.1) * rear.0);
    // Each cell's keys worked out once, not at every comparison: its value,
    // its distance, across and ahead keys.
    let mut cells: Vec<(u32, f64, f64, f64, Point)> = cells
        .into_iter()
        .map(|(v, d, c)| (v, key(d), across(c), ahead(c), c))
        .collect();
    // The objective's own cell (or the nearest dry one) first.
    cells.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.2.total_cmp(&b.2)));
    let mut out = Vec::with_capacity(count);
    if let Some(&(.., c)) = cells.first() {
        out.push(c);
    }
    let rest = cells.get(1..).unwrap_or(&[]);
    let mut rest: Vec<(u32, f64, f64, f64, Point)> = rest.to_vec();
    // Best ground first; among equals the most forward, then the nearest.
    rest.sort_by(|a, b| {
        b.0.cmp(&a.0)
            .then(b.3.total_cmp(&a.3))
            .then(a.1.total_cmp(&b.1))
            .then(a.2.total_cmp(&b.2))
    });
    let all: Vec<Point> = out.iter().copied().chain(rest.iter().map(|x| x.4)).collect();
    (0..count)
        .filter_map(|i| all.get(i % all.len()).copied())
        .collect()
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
    /// Its general's plan, drawn by dice.
    pub plan: Plan,
}

impl<'a> SidePlan<'a> {
    /// Side `side`'s plan on `setting`'s table, its general's drawn from `dice`.
    pub fn in_inches(setting: &Setting<'a>, side: usize, dice: &mut Dice) -> SidePlan<'a> {
        let (board, scenario) = (&setting.board, setting.scenario);
        let s = scenario.sides.get(side);
        let role = s.map_or(Role::Defender, |s| s.role);
        SidePlan {
            plan: Plan::draw(dice, role),
            id: s.map_or("", |s| s.id.as_str()),
            name: s.map_or("", |s| s.name.as_str()),
            role: s.map_or(Role::Defender, |s| s.role),
            goal: board.to_inches(setting.goal(side)),
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

/// Distance between two points, in cells: the root of [`dist2`].
pub fn dist(a: Point, b: Point) -> f64 {
    dist2(a, b).sqrt()
}

/// The square of the distance from `p` to the nearest point of the straight
/// path from `a` to `b` (a stand's ride or march over the ground between
/// them), in the units of [`dist2`]; no root taken.
pub fn dist2_to_path(p: Point, a: Point, b: Point) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    if !(len2 > 1e-12 && len2.is_finite()) {
        return dist2(p, a);
    }
    let k = (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0);
    dist2(p, (a.0 + k * dx, a.1 + k * dy))
}

/// The square of [`dist`], no root taken: `dist(a, b)` is exactly
/// `dist2(a, b).sqrt()`.
pub fn dist2(a: Point, b: Point) -> f64 {
    (a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)
}

/// Whether `dist(a, b) <= limit`, the same answer to the bit, the root
/// taken only when the square is within [`square_bar`]`(limit)`: for a
/// scan that asks of many points and finds most far off.
pub fn within(a: Point, b: Point, limit: f64) -> bool {
    let d2 = dist2(a, b);
    d2 <= square_bar(limit) && d2.sqrt() <= limit
}

/// Whether `dist(a, b) > limit`, the same answer to the bit (not merely
/// `!within`: the two differ for a place not a number), the root taken only
/// when the square is within [`square_bar`]`(limit)`.
pub fn farther(a: Point, b: Point, limit: f64) -> bool {
    root_over(dist2(a, b), limit)
}

/// Whether the root of the square `d2` is over `limit`, the root taken only
/// when `d2` is within [`square_bar`]`(limit)` (one over it has its root
/// over the limit): the test of [`farther`] and [`Bounds::beyond`].
fn root_over(d2: f64, limit: f64) -> bool {
    d2 > square_bar(limit) || d2.sqrt() > limit
}

/// A scan's bar for the squares of distances ([`square_bar`]): the scan
/// for the nearest point within some limit, or nearer than the best so far
/// by some margin, takes a distance's root only for a square within the
/// bar, and lowers the bar as it finds nearer points. A point passed by
/// ([`Bar::root`] is `None`) is over every limit the bar was set to, so it
/// could not have passed the scan's own tests: no answer changes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bar(f64);

impl Bar {
    /// The bar of `limit` (none for a limit infinite or not a number).
    pub fn new(limit: f64) -> Bar {
        Bar(square_bar(limit))
    }

    /// `dist(a, b)`, to the bit, unless its square is over the bar (its
    /// root then over the limit): `None`, no root taken.
    pub fn root(self, a: Point, b: Point) -> Option<f64> {
        let d2 = dist2(a, b);
        if d2 > self.0 { None } else { Some(d2.sqrt()) }
    }

    /// Lowers the bar to `limit`'s, where that is lower.
    pub fn lower(&mut self, limit: f64) {
        self.0 = self.0.min(square_bar(limit));
    }
}

/// A bar for squares of distances ([`dist2`]): a square above
/// `square_bar(limit)` has a [`dist`] above `limit`, so a scan for what is
/// within `limit` may pass it by without taking its root. The bar stands a
/// billionth above `limit`'s square, far beyond the rounding of a square or
/// a root, so nothing a scan would have found is passed by: a pass-by
/// changes no answer. No bar (infinity) for a limit that is infinite or not
/// a number; below any square (−1) for a limit under nothing.
pub fn square_bar(limit: f64) -> f64 {
    // This program's own margin, for the arithmetic only.
    const SLACK: f64 = 1e-9;
    // Under this a limit's square would lose its precision (or vanish):
    // the bar is then this one's square, a square above it having a root
    // above it.
    const TINY: f64 = 1e-150;
    if limit.is_nan() || limit.is_infinite() {
        f64::INFINITY
    } else if limit < 0.0 {
        -1.0
    } else {
        let limit = limit.max(TINY);
        limit * limit * (1.0 + SLACK)
    }
}

/// The least box, its sides along the table's, about some points: a scan
/// of the points for one within a reach of a place can be passed over
/// whole when the box is beyond that reach.
///
/// **Exact as computed**: [`Bounds::dist_from`] is [`dist`] from the place
/// to the box's nearest point, whose every coordinate lies between the
/// place's and each point's, so each difference, its square, their sum and
/// its root round to no more than they do for any of the points. A place
/// farther than `r` from the box, by the float arithmetic, is farther than
/// `r` from each point by the same arithmetic: no answer changes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bounds {
    lo: Point,
    hi: Point,
}

impl Bounds {
    /// The box about `points`; `None` for none. A point with a coordinate
    /// not a number makes it the whole plane: where such a point is, no
    /// box can say, so every scan is then made.
    pub fn of(points: impl IntoIterator<Item = Point>) -> Option<Bounds> {
        let whole = Bounds {
            lo: (f64::NEG_INFINITY, f64::NEG_INFINITY),
            hi: (f64::INFINITY, f64::INFINITY),
        };
        let mut points = points.into_iter();
        let first = points.next()?;
        if first.0.is_nan() || first.1.is_nan() {
            return Some(whole);
        }
        let mut b = Bounds { lo: first, hi: first };
        // Plain comparisons, every point being a number: the same box as
        // `min` and `max` (at most a zero's sign apart), without their
        // checks for what is not a number.
        for p in points {
            if p.0.is_nan() || p.1.is_nan() {
                return Some(whole);
            }
            if p.0 < b.lo.0 {
                b.lo.0 = p.0;
            }
            if p.0 > b.hi.0 {
                b.hi.0 = p.0;
            }
            if p.1 < b.lo.1 {
                b.lo.1 = p.1;
            }
            if p.1 > b.hi.1 {
                b.hi.1 = p.1;
            }
        }
        Some(b)
    }

    /// [`dist`] from `p` to the nearest point of the box: never more than
    /// `dist(p, q)` for a point `q` in it (not a number when `p` is not).
    pub fn dist_from(&self, p: Point) -> f64 {
        dist(p, self.nearest(p))
    }

    /// The square of [`Bounds::dist_from`], `dx * dx + dy * dy` with no
    /// root taken: never more than the same sum for a point in the box.
    pub fn dist2_from(&self, p: Point) -> f64 {
        let q = self.nearest(p);
        let (dx, dy) = (q.0 - p.0, q.1 - p.1);
        dx * dx + dy * dy
    }

    /// The point of the box nearest `p`.
    fn nearest(&self, p: Point) -> Point {
        (
            p.0.max(self.lo.0).min(self.hi.0),
            p.1.max(self.lo.1).min(self.hi.1),
        )
    }

    /// Whether `p` is farther than `reach` from every point in the box
    /// (false when `p` is not a number, or `reach` is not a number or less
    /// than nothing: the scan is then made).
    ///
    /// The same answer to the bit as `reach >= 0.0 && self.dist_from(p) >
    /// reach`, the root taken only for a square within [`square_bar`]`(reach)`
    /// (a square over it has its root over the reach); no place is beyond an
    /// infinite reach, so none is measured for one.
    pub fn beyond(&self, p: Point, reach: f64) -> bool {
        if !(0.0..f64::INFINITY).contains(&reach) {
            return false;
        }
        root_over(self.dist2_from(p), reach)
    }
}

/// The two sides' [`Bounds`], each `None` for a side with no stand in it:
/// the boxes a phase works out once, before it looks side by side.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SideBounds(pub [Option<Bounds>; 2]);

impl SideBounds {
    /// Whether no point of side `side`'s lies within `reach` of `p`: it
    /// has none, or its box is [`Bounds::beyond`]. False for a side that is
    /// neither of the two (the scan is then made).
    pub fn beyond(&self, side: usize, p: Point, reach: f64) -> bool {
        self.0
            .get(side)
            .is_some_and(|b| b.is_none_or(|b| b.beyond(p, reach)))
    }
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]

    use super::*;
    use crate::model::RuleSetId;
    use crate::scenario::{Cover, Ground, Patch, Table};

    #[test]
    fn a_path_is_as_near_as_its_nearest_point() {
        // (point, path from, path to, squared distance)
        let cases = [
            ((3.0, 4.0), (0.0, 0.0), (6.0, 0.0), 16.0),  // beside the middle
            ((-3.0, 4.0), (0.0, 0.0), (6.0, 0.0), 25.0), // before its start
            ((9.0, 4.0), (0.0, 0.0), (6.0, 0.0), 25.0),  // past its end
            ((2.0, 0.0), (0.0, 0.0), (6.0, 0.0), 0.0),   // on it
            ((3.0, 4.0), (0.0, 0.0), (0.0, 0.0), 25.0),  // a path of no length
        ];
        for (p, a, b, want) in cases {
            let got = dist2_to_path(p, a, b);
            assert!(
                (got - want).abs() < 1e-9,
                "{p:?} to {a:?}-{b:?}: {got}, not {want}"
            );
            assert!(
                (dist2_to_path(p, b, a) - want).abs() < 1e-9,
                "the path walked back"
            );
        }
    }

    /// A 20 x 20 table of 3-inch cells with `terrain`; the defender's edge is
    /// the low one (its rear is (0, -1)).
    fn board(terrain: Vec<Patch>) -> Board {
        let s = Scenario {
            title: "posts".to_owned(),
            rules: RuleSetId::Scruby1965,
            seed: 0,
            turn_limit: 12,
            table: Table {
                width: 20,
                depth: 20,
                cell_inches: 3.0,
                grid: false,
                terrain,
            },
            sides: Vec::new(),
            objectives: Vec::new(),
            notes: None,
        };
        Board::new(&s)
    }

    fn patch(x: u32, y: u32, w: u32, h: u32, ground: Option<Ground>, cover: Option<Cover>) -> Patch {
        Patch {
            area: Area { x, y, w, h },
            ground,
            level: None,
            road: None,
            cover,
        }
    }

    const REAR: Point = (0.0, -1.0);

    /// A case: its name, the terrain, the forward limit, how many posts, the
    /// posts wanted first, and the deepest row any may stand on.
    type Case = (&'static str, Vec<Patch>, f64, usize, Vec<Point>, f64);
    const GUARD: Point = (10.5, 8.5);

    #[test]
    fn line_posts_take_the_objective_then_the_best_ground_within_bounds() {
        // (terrain, forward limit, count, the posts wanted first, rows none may pass)
        let hedge = vec![patch(7, 10, 7, 1, None, Some(Cover::WallOrHedge))];
        let town = vec![
            patch(6, 4, 9, 8, Some(Ground::BuiltUpOuter), None),
            patch(7, 5, 7, 6, Some(Ground::BuiltUpInner), None),
        ];
        let cases: Vec<Case> = vec![
            (
                "open ground: the objective, then the most forward",
                vec![],
                4.0,
                2,
                vec![GUARD, (10.5, 12.5)],
                12.5,
            ),
            (
                "a hedge two rows ahead is manned first",
                hedge.clone(),
                4.0,
                3,
                vec![GUARD, (10.5, 10.5), (11.5, 10.5)],
                12.5,
            ),
            (
                "holding back: nothing ahead of the objective",
                hedge,
                0.0,
                6,
                vec![GUARD],
                8.5,
            ),
            (
                "a town: the front of its outer ring, not its blind heart",
                town,
                4.0,
                2,
                vec![GUARD, (10.5, 11.5)],
                12.5,
            ),
        ];
        for (name, terrain, forward, count, first, deepest) in cases {
            let b = board(terrain);
            let posts = line_posts(&b, GUARD, REAR, forward, 6.0, count);
            assert_eq!(posts.len(), count, "{name}");
            assert_eq!(&posts[..first.len()], &first[..], "{name}: {posts:?}");
            for p in &posts {
                assert!(
                    p.1 <= deepest + 1e-9 && dist(*p, GUARD) <= 6.0 + 1e-9,
                    "{name}: {p:?}"
                );
            }
        }
    }

    /// A crossing is held from the near bank: no post, of either kind of
    /// posting, on the bridge, in the water or beyond it, however far
    /// forward the plan holds; the nearest post is on the near bank, within
    /// the judge's reach of the crossing.
    #[test]
    fn a_crossing_is_held_from_the_near_bank() {
        // A river across the table on the objective's row, a bridge on the
        // objective and a ford three cells along.
        let terrain = vec![
            patch(0, 8, 20, 1, Some(Ground::River), None),
            patch(10, 8, 1, 1, Some(Ground::Bridge), None),
            patch(13, 8, 1, 1, Some(Ground::Ford), None),
        ];
        let b = board(terrain);
        for forward in [0.0, 1.0, 4.0] {
            let line = line_posts(&b, GUARD, REAR, forward, 6.0, 30);
            let ring = posts(&b, GUARD, REAR, 30);
            for (kind, found) in [("line", &line), ("ring", &ring)] {
                for p in found {
                    assert!(
                        p.1 < 8.0,
                        "{kind}, forward {forward}: {p:?} is on or beyond the river"
                    );
                }
                let nearest = found
                    .iter()
                    .map(|p| dist(*p, GUARD))
                    .fold(f64::INFINITY, f64::min);
                assert!(nearest <= HOLDS_WITHIN_CELLS, "{kind}: nearest {nearest}");
            }
        }
        // Beyond the water, straight or aslant; on the near bank, not.
        assert!(beyond_water(&b, (10.5, 9.5), GUARD, REAR));
        assert!(beyond_water(&b, (12.5, 11.5), GUARD, REAR));
        assert!(beyond_water(&b, GUARD, GUARD, REAR), "the bridge itself");
        assert!(!beyond_water(&b, (10.5, 7.5), GUARD, REAR));
        assert!(!beyond_water(&b, (14.5, 4.5), GUARD, REAR));
        // With no river, a cell ahead is not beyond anything.
        let open = board(Vec::new());
        assert!(!beyond_water(&open, (10.5, 11.5), GUARD, REAR));
        // A rear of no length (a malformed side) is answered, not looped on.
        assert!(!beyond_water(&open, (10.5, 11.5), GUARD, (0.0, 0.0)));
        assert!(!beyond_water(&b, (10.5, 11.5), GUARD, (f64::NAN, 0.0)));
    }

    #[test]
    fn line_posts_turn_with_the_table() {
        let terrain = vec![patch(3, 9, 14, 2, None, Some(Cover::WallOrHedge))];
        let b = board(terrain.clone());
        let posts = line_posts(&b, GUARD, REAR, 4.0, 6.0, 12);
        // The same table turned end for end: every patch, the objective and
        // the rear turned about the middle.
        let turned: Vec<Patch> = terrain
            .iter()
            .map(|p| Patch {
                area: Area {
                    x: 20 - p.area.x - p.area.w,
                    y: 20 - p.area.y - p.area.h,
                    ..p.area
                },
                ..*p
            })
            .collect();
        let b2 = board(turned);
        let back = line_posts(&b2, (20.0 - GUARD.0, 20.0 - GUARD.1), (0.0, 1.0), 4.0, 6.0, 12);
        let turned_back: Vec<Point> = back.iter().map(|p| (20.0 - p.0, 20.0 - p.1)).collect();
        assert_eq!(posts, turned_back);
    }

    #[test]
    fn bounds_of_no_point_is_none_and_a_nan_makes_every_scan() {
        assert_eq!(Bounds::of(std::iter::empty()), None);
        let b = Bounds::of([(1.0, 1.0), (3.0, 2.0)]).unwrap();
        assert_eq!(b.dist_from((2.0, 1.5)), 0.0);
        assert_eq!(b.dist_from((6.0, 6.0)), 5.0);
        assert_eq!(b.dist2_from((6.0, 6.0)), 25.0);
        assert!(b.beyond((6.0, 6.0), 4.999));
        assert!(!b.beyond((6.0, 6.0), 5.0));
        // A place, or a reach, that is not a number or a reach less than
        // nothing is never beyond: its scan is made.
        assert!(!b.beyond((f64::NAN, 0.0), 1.0));
        assert!(!b.beyond((6.0, 6.0), f64::NAN));
        assert!(!b.beyond((6.0, 6.0), -1.0));
        // A point not a number, first or later, makes the whole plane.
        for points in [
            vec![(f64::NAN, 1.0), (1.0, 1.0)],
            vec![(1.0, 1.0), (3.0, f64::NAN)],
        ] {
            let b = Bounds::of(points).unwrap();
            assert_eq!(b.dist_from((1e6, -1e6)), 0.0);
            assert_eq!(b.dist2_from((1e6, -1e6)), 0.0);
            assert!(!b.beyond((1e6, -1e6), 1.0));
        }
    }

    #[test]
    fn side_bounds_skip_a_side_with_no_stand_and_never_an_unknown_side() {
        let b = SideBounds([None, Bounds::of([(0.0, 0.0)])]);
        assert!(b.beyond(0, (0.0, 0.0), 1.0));
        assert!(!b.beyond(1, (0.5, 0.0), 1.0));
        assert!(b.beyond(1, (2.0, 0.0), 1.0));
        assert!(!b.beyond(2, (2.0, 0.0), 1.0));
    }

    proptest::proptest! {
        /// The box's distance is, as computed, never more than any of its
        /// points' distances: a scan passed over on it loses no answer.
        #[test]
        fn bounds_never_pass_over_a_point_within_reach(
            points in proptest::collection::vec((-200.0..200.0_f64, -200.0..200.0_f64), 1..12),
            p in (-300.0..300.0_f64, -300.0..300.0_f64),
        ) {
            let b = Bounds::of(points.iter().copied()).unwrap();
            let near = b.dist_from(p);
            let near2 = b.dist2_from(p);
            for &q in &points {
                proptest::prop_assert!(near <= dist(p, q));
                proptest::prop_assert!(near <= dist(q, p));
                let (dx, dy) = (q.0 - p.0, q.1 - p.1);
                proptest::prop_assert!(near2 <= dx * dx + dy * dy);
            }
        }

        /// A square over the bar has its distance over the limit, for
        /// limits at the distance itself and a hair either side of it (a
        /// bar of the limit's bare square fails at the distance itself);
        /// and a square well over passes by.
        #[test]
        fn a_square_over_the_bar_is_over_the_limit(
            p in (-300.0..300.0_f64, -300.0..300.0_f64),
            q in (-300.0..300.0_f64, -300.0..300.0_f64),
            hair in -1e-12..1e-12_f64,
        ) {
            let (d, d2) = (dist(p, q), dist2(p, q));
            proptest::prop_assert_eq!(d, d2.sqrt());
            for limit in [d, d * (1.0 + hair), d - 1e-6, d + 1e-6, d.next_down(), d.next_up()] {
                if d2 > square_bar(limit) {
                    proptest::prop_assert!(d > limit, "{d} within {limit} passed by");
                }
            }
            if d > 1e-3 {
                proptest::prop_assert!(d2 > square_bar(d * 0.999));
            }
            // The box about `q` alone is `q`: its `beyond` is the root's answer.
            let b = Bounds::of([q]).unwrap();
            for limit in [d, d.next_down(), d.next_up(), d * (1.0 + hair), d * 0.5] {
                proptest::prop_assert_eq!(b.beyond(p, limit), limit >= 0.0 && b.dist_from(p) > limit);
            }
            for limit in [d, d.next_down(), d.next_up(), d * (1.0 + hair), d * 0.5] {
                proptest::prop_assert_eq!(within(p, q, limit), d <= limit);
                proptest::prop_assert_eq!(farther(p, q, limit), d > limit);
            }
        }
    }

    /// `beyond` without a root where none can matter gives the answer of
    /// the root: for reaches at the box's distance, a hair either side of it,
    /// infinite, not a number and under nothing, and places not a number.
    #[test]
    fn beyond_is_the_box_distance_test() {
        let plain = |b: &Bounds, p: Point, reach: f64| reach >= 0.0 && b.dist_from(p) > reach;
        let boxes = [
            Bounds::of([(1.0, 1.0), (3.0, 2.0)]).unwrap(),
            Bounds::of([(0.1, 0.7)]).unwrap(),
            Bounds::of([(f64::NAN, 1.0)]).unwrap(),
        ];
        let places = [
            (6.0, 6.0),
            (2.0, 1.5),
            (-0.3, 0.9),
            (1e-160, 0.0),
            (f64::NAN, 2.0),
            (f64::INFINITY, 0.0),
        ];
        for b in &boxes {
            for p in places {
                let d = b.dist_from(p);
                for reach in [
                    d,
                    d.next_down(),
                    d.next_up(),
                    d * 0.999,
                    0.0,
                    -0.0,
                    -1e-9,
                    1e-200,
                    f64::INFINITY,
                    f64::NAN,
                ] {
                    assert_eq!(b.beyond(p, reach), plain(b, p, reach), "{b:?} {p:?} {reach}");
                }
            }
        }
    }

    /// A bar passes by only points over its limit, and gives the
    /// distance of every other to the bit; lowered, it keeps the lower.
    #[test]
    fn a_bar_gives_the_distance_within_it() {
        let a = (1.0, 2.0);
        let mut bar = Bar::new(5.0);
        assert_eq!(bar.root(a, (4.0, 6.0)), Some(5.0));
        assert_eq!(bar.root(a, (4.0, 6.1)), None);
        assert_eq!(bar.root(a, (f64::NAN, 6.0)).map(f64::is_nan), Some(true));
        bar.lower(3.0);
        assert_eq!(bar.root(a, (4.0, 6.0)), None);
        assert_eq!(bar.root(a, (4.0, 2.0)), Some(3.0));
        bar.lower(4.0);
        assert_eq!(bar.root(a, (4.0, 2.1)), None, "the lower bar is kept");
        assert_eq!(
            Bar::new(f64::INFINITY).root(a, (1e300, 0.0)),
            Some(dist(a, (1e300, 0.0)))
        );
        assert_eq!(Bar::new(-1.0).root(a, a), None);
    }

    #[test]
    fn within_is_the_distance_test() {
        let a = (1.0, 2.0);
        for (b, limit, near) in [
            ((4.0, 6.0), 5.0, true),
            ((4.0, 6.0), 5.0_f64.next_down(), false),
            ((4.0, 6.0), f64::INFINITY, true),
            ((4.0, 6.0), f64::NAN, false),
            ((1.0, 2.0), 0.0, true),
            ((1.0, 2.0), -1e-9, false),
            ((f64::NAN, 2.0), 10.0, false),
        ] {
            assert_eq!(within(a, b, limit), near, "{b:?} {limit}");
            assert_eq!(within(a, b, limit), dist(a, b) <= limit, "{b:?} {limit}");
            assert_eq!(farther(a, b, limit), dist(a, b) > limit, "{b:?} {limit}");
        }
    }

    #[test]
    fn square_bar_at_the_edges() {
        assert_eq!(square_bar(f64::INFINITY), f64::INFINITY);
        assert_eq!(square_bar(f64::NAN), f64::INFINITY);
        // Under nothing: every square is over it, none within.
        assert_eq!(square_bar(-1e-6), -1.0);
        assert!(0.0 > square_bar(-0.5));
        // At nothing, a square too small to tell from nothing is kept (its
        // root is then taken and tested); a larger one passes by.
        assert!(0.0 <= square_bar(0.0));
        assert!(dist2((0.0, 0.0), (1e-160, 0.0)) <= square_bar(0.0));
        assert!(dist2((0.0, 0.0), (1e-140, 0.0)) > square_bar(0.0));
        // A tiny limit keeps a bar whose squares over it are over the limit.
        for limit in [1e-200, 1e-160, 1e-150, 1e-140] {
            let within = (limit, 0.0);
            assert!(dist2((0.0, 0.0), within) <= square_bar(limit), "{limit}");
        }
        assert_eq!(square_bar(3.0), 9.0 * (1.0 + 1e-9));
    }
}
