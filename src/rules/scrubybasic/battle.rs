//! The battle: the stands on the table, the Sequence of Action, the result.
//!
//! Positions here are in inches of table (the scenario's cells times
//! `cell_inches`), so the seed's moves and ranges apply as printed (times
//! the small-table scale).

mod fire;
mod melee;
mod movement;

use super::{
    CANISTER_INCHES, CONTACT_INCHES, DEFENCE_MORALE_FACTOR, GUN_HITS_TO_DESTROY, GUN_MOVE_AND_FIRE_INCHES,
    Going, KillRow, PURSUED_FACTOR, RANK_INCHES, RETIRE_MOVES, Troop, artillery_range,
    attacker_position_factor, canister_factor, caught_in_flank, cavalry_may_charge, counter_battery_hit,
    defensive_fire_factor, flank_factors, greater_loss, house_attackers_allowed, house_defence_factor, kills,
    melee_ranks, models_at, morale_multiplier, morale_value, move_inches, musket_range, rank_factor,
    slope_inches, stand_share, stands_to_kill, table_scale, troop_for,
};
use crate::model::RuleSetId;
use crate::rules::approach::{Generals, Movers, Opening};
use crate::rules::board::{Board, Point};
use crate::rules::dice::Dice;
use crate::rules::doctrine::{self, Bounds, SideBounds};
use crate::rules::engine::{self, Clock, Ending, Member, Roster, Setting, Turns};
use crate::rules::{Fate, Log, Outcome};
use crate::rules::{LastWord, Resolve, ResolveThrow};
use crate::scenario::{Ground, Role, Scenario, TableStand};

/// Slack for comparing distances.
const EPSILON: f64 = 1e-6;

/// Command and transport keep up at the Infantry open move
/// (scruby-basic-war-game-rules.txt, Movement chart: Infantry Open 2″).
/// This program's: they are not on the chart.
const COMMAND_MOVE_INCHES: f64 = 2.0;

/// A kill's share lost to a fire "beyond" its target's friends: kills fall
/// on the target and its friends within this many inches (this program's).
const FIGHT_INCHES: f64 = 3.0;

/// Cavalry keep this far beyond musket range while no charge is favoured
/// (this program's doctrine, Musket Fire 1: 6″ range).
const CAVALRY_STANDOFF_INCHES: f64 = 0.5;

/// Foot forming to storm guns halts this far beyond musket range, the
/// guns' canister (this program's doctrine, Artillery 7: canister "is the
/// length of musket fire (6″)").
const ASSAULT_EDGE_INCHES: f64 = 0.5;

/// A defender off strong ground goes to meet an enemy this many times
/// the attacker's engaging distance away (this program's doctrine).
const ENGAGE_FACTOR: f64 = 2.0;

/// The defender's line stands within this many cells of the objective it
/// guards, and no further than [`LINE_FORWARD_CELLS`] toward the enemy
/// (this program's own: the ground about the objective, five 3-inch cells,
/// a wall or entrenchment thrown up before it among them). A line held
/// forward reaches as far across as one held back: its radius is the
/// hypotenuse of the two, so its front rank, [`LINE_FORWARD_CELLS`] ahead,
/// spans as many cells as a line on the objective (this program's
/// doctrine: a line held forward in a narrow wedge, two ranks deep and
/// seven cells across, is turned by an attack on a wing).
const LINE_RADIUS_CELLS: f64 = 5.0;
const LINE_FORWARD_CELLS: f64 = 4.0;

/// The defender's horse waits this many cells behind the objective (this
/// program's own: out of the musketry, within a charge of the line).
const RESERVE_BACK_CELLS: f64 = 3.0;

/// Throws of the morale dice before a tie goes to the defender (this
/// program's: the seed throws until one side is higher).
const MAX_RETHROWS: u32 = 20;

use crate::rules::engine::Status;

/// What the attacker adds to its resolve ([`Resolve`]), as a share of its
/// points: nothing. This program's own: the proving ground's mirror
/// battles under this rule set do not lean one way at every size (the
/// attacker ahead at 9 and 20 a side, the defender at 40), so no one
/// bonus evens them.
pub(super) const ATTACKER_RESOLVE: f64 = 0.0;

/// How a general throws for his resolve ([`Resolve`]): one die, every
/// break from 5% to 55% of his points as likely (the same bounds and mean
/// as the other rule sets' 2D6, [`ResolveThrow::ONE_DIE`]). This program's
/// own: this rule set's odds were the most certain of the five (2:1 on
/// open ground won 95.8%, 3:1 99.9%; the mirrors 0.14 A / 0.19 A / 0.19 D
/// at 9, 20 and 40 a side; the history set's Brier 0.310), and which army
/// gives up first is less certain with the flat throw: 91.2% and 99.9%,
/// the mirrors 0.12 A / 0.14 A / 0.14 D, the Brier 0.303 (the notebook,
/// "scruby-basic's and scruby-1965's resolve on one die").
pub(super) const RESOLVE_THROW: ResolveThrow = ResolveThrow::ONE_DIE;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Formation {
    /// Deployed, two ranks.
    Line,
    /// Marching column.
    Column,
    Square,
}

/// A charge ordered this game move, at the stand charged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Charge {
    None,
    /// Fire and Charge (Fire and Charge Rule).
    Volley(usize),
    /// The special Cavalry Charge Move (Special Moves 2).
    Cavalry(usize),
    /// Cavalry following the troops they beat (Special Moves 1.1.1).
    Pursuit(usize),
}

/// A stand on the table, its centre in inches.
type Unit<'a> = Member<'a, Point, Stand>;

/// What this rule set keeps of a stand on the table.
#[derive(Debug, Clone)]
struct Stand {
    troop: Option<Troop>,
    /// Model soldiers on the stand.
    models: u32,
    /// Where a defender holds (its deployed place).
    post: Option<Point>,
    formation: Formation,
    moved: f64,
    /// Retired: no forward movement or offensive action through this turn.
    shaken_until: u32,
    /// Beaten and pursued by cavalry: half value in its next melee.
    pursued: bool,
    gun_hits: u32,
    charge: Charge,
    /// Holds its fire for charging cavalry.
    withhold: bool,
    /// Its share of a kill of a 4-model stand (for the doctrine's sums).
    power: f64,
    /// Its place across its side's front at the start, 0 on the left wing
    /// to 1 on the right (for an attack in echelon).
    across: f64,
    /// Killed by canister: fires its muskets, then goes.
    doomed: bool,
    /// Fought a melee this phase.
    fought: bool,
}

impl Unit<'_> {
    fn combatant(&self) -> bool {
        self.fighting() && self.troop.is_some()
    }

    fn is(&self, f: fn(Troop) -> bool) -> bool {
        self.troop.is_some_and(f)
    }

    fn weight(&self) -> u32 {
        self.troop.map_or(0, Troop::weight)
    }

    fn move_of(&self, going: Going) -> f64 {
        self.troop.map_or(COMMAND_MOVE_INCHES, |t| move_inches(t, going))
    }
}

#[derive(Debug, Clone)]
struct Side<'a> {
    name: &'a str,
    role: Role,
    goal: Point,
    /// Unit vector toward its own table edge.
    rear: Point,
    /// Its general's plan, drawn by dice before the battle.
    plan: doctrine::Plan,
}

/// A combatant as listed for the scans of every pair of stands: its index,
/// centre and troop.
#[derive(Debug, Clone, Copy)]
struct Present {
    i: usize,
    at: Point,
    troop: Troop,
}

/// A link of fire or melee between two stands, for judging morale.
#[derive(Debug, Clone, Copy)]
struct Link {
    a: usize,
    b: usize,
    /// The side that fired.
    by: usize,
}

#[derive(Debug, Clone)]
pub(super) struct Battle<'a> {
    scenario: &'a Scenario,
    board: &'a Board,
    dice: Dice,
    log: Log,
    turn: u32,
    clock: Clock,
    /// The side that moved first this game move.
    first: usize,
    /// Per stand: an enemy of the side moving within musket range of one
    /// of its combatants.
    engaged: Vec<bool>,
    scale: f64,
    /// Whether any cell blocks sight (if none, every line is clear).
    blocking: bool,
    /// Whether each side has cavalry on the table (squares are formed only then).
    cavalry: [bool; 2],
    sides: [Side<'a>; 2],
    units: Roster<'a, Point, Stand>,
    /// Each side's run of indices in `units` ([`Roster::span`]), for the
    /// scans of one side's stands ([`Battle::side_units`]).
    spans: [std::ops::Range<usize>; 2],
    links: Vec<Link>,
    /// Stands killed this fire phase.
    killed: Vec<usize>,
    /// Pools of kill shares per target stand, against 2, 3 and 4 models.
    pools: Vec<[f64; 3]>,
    parent: Vec<usize>,
    /// Scratch for musket fire: (firer, enemy in reach, squared distance).
    seen: Vec<(usize, usize, f64)>,
    /// Each side's combatants in index order, listed by [`Self::list_present`]
    /// at the start of a side's move, of the orders (kept for the artillery)
    /// and of the musketry, while no stand they hold moves or falls (a
    /// moving side's own list goes stale as it moves: only its enemy's is
    /// read then).
    present: [Vec<Present>; 2],
    /// The box about each side's combatants as last listed (`None` for
    /// none): a look for one within a reach of a place beyond it is passed
    /// over whole.
    present_bounds: SideBounds,
    /// The foremost foot's distance ([`Self::foot_front_unengaged`]) of the
    /// side moving, until one of its foot moves.
    front: Option<Option<f64>>,
    /// Whether the moving side's foot is forming to storm the enemy's guns
    /// ([`Self::forming_on_guns`]), worked out as its move begins.
    forming: bool,
    /// The enemy guns of the side moving, each with the reach of its fire
    /// (Artillery 2: its range from the level it stands on), listed as the
    /// move begins ([`Self::under_gun_fire`], [`Self::forming_on_guns`]).
    guns: Vec<(Point, f64)>,
    /// Routes round the water: a stand goes anywhere but into a river
    /// (no Movement chart figure for crossing one).
    routes: crate::rules::route::WaterRoutes,
}

/// "Players dice to see who gets the next 'game move'" (Sequence of
/// Action 8): the higher throw moves first; equal throws again. After
/// [`MAX_RETHROWS`] equal throws the attacker moves first.
fn throw_for_move(scenario: &Scenario, dice: &mut Dice) -> usize {
    for _ in 0..MAX_RETHROWS {
        let (a, b) = (dice.d6(), dice.d6());
        if a != b {
            return usize::from(b > a);
        }
    }
    usize::from(scenario.sides.get(1).is_some_and(|s| s.role == Role::Attacker))
}

impl<'a> Opening<'a> for Battle<'a> {
    const RESOLVE_THROW: ResolveThrow = RESOLVE_THROW;
    const ATTACKER_RESOLVE: f64 = ATTACKER_RESOLVE;

    fn lay_out(setting: &'a Setting<'a>, generals: Generals<'a>) -> Battle<'a> {
        Battle::lay_out(setting, generals, false)
    }

    fn first_mover(setting: &Setting<'a>, _: Movers, dice: &mut Dice) -> usize {
        throw_for_move(setting.scenario, dice)
    }

    fn dice(&self) -> &Dice {
        &self.dice
    }

    fn go_on_with(&mut self, dice: Dice, resolve: Resolve) {
        self.dice = dice;
        self.units.resolve = resolve;
    }

    fn lost_nothing(&self) -> bool {
        // Standing as the army's break counts it ([`Battle::over`]).
        self.units
            .lost_nothing(|u| if u.fighting() { u.before() } else { 0 })
    }

    fn outcome(self, seed: u64) -> Outcome {
        Battle::outcome(self, seed)
    }
}

fn unit_vec(v: Point) -> Point {
    let len = (v.0 * v.0 + v.1 * v.1).sqrt();
    if len > 0.0 {
        (v.0 / len, v.1 / len)
    } else {
        (0.0, 1.0)
    }
}

fn pool_index(models: u32) -> usize {
    usize::try_from(models.clamp(2, 4) - 2).unwrap_or(0)
}

impl<'a> Battle<'a> {
    pub(super) fn set_out(setting: &'a Setting<'a>, seed: u64, keep_log: bool) -> Battle<'a> {
        Battle::lay_out(setting, <Battle as Opening>::draw(setting, seed), keep_log)
    }

    /// The battle `generals` fight on `setting`'s table, set out.
    fn lay_out(setting: &'a Setting<'a>, generals: Generals<'a>, keep_log: bool) -> Battle<'a> {
        let scenario = setting.scenario;
        let board = &setting.board;
        let inches = board.cell_inches;
        let scale = table_scale(f64::from(board.depth) * inches);
        let Generals { dice, resolve, sides } = generals;
        let plans = sides.map(|s| s.plan);
        let side_of = |i: usize| -> Side<'a> {
            let me = scenario.sides.get(i);
            let home = me.map_or((0.0, 0.0), |s| s.deployment.centre());
            let away = scenario
                .sides
                .get(1 - i)
                .map_or((0.0, 0.0), |s| s.deployment.centre());
            let g = setting.goal(i);
            Side {
                name: me.map_or("", |s| s.name.as_str()),
                role: me.map_or(Role::Attacker, |s| s.role),
                goal: (g.0 * inches, g.1 * inches),
                rear: unit_vec((home.0 - away.0, home.1 - away.1)),
                plan: if i == 0 { plans[0] } else { plans[1] },
            }
        };
        let sides = [side_of(0), side_of(1)];
        let mut units = Roster::with_resolve(resolve);
        for i in 0..scenario.sides.len().min(2) {
            units.place_side(setting, i, |start, placed| {
                let mut u = stand(start.stand);
                u.post = placed.post;
                u
            });
        }
        let n = units.len();
        let routes = crate::rules::route::WaterRoutes::new(board);
        let spans = [units.span(0), units.span(1)];
        let mut b = Battle {
            scenario,
            board,
            dice,
            log: Log::new(keep_log),
            turn: 0,
            clock: Clock::default(),
            first: 0,
            engaged: Vec::with_capacity(n),
            scale,
            blocking: scenario
                .table
                .cells()
                .iter()
                .any(crate::scenario::Cell::blocks_sight),
            cavalry: [false; 2],
            sides,
            units,
            spans,
            links: Vec::new(),
            killed: Vec::new(),
            pools: vec![[0.0; 3]; n],
            parent: (0..n).collect(),
            seen: Vec::new(),
            present: [Vec::new(), Vec::new()],
            present_bounds: SideBounds::default(),
            front: None,
            forming: false,
            guns: Vec::new(),
            routes,
        };
        b.log.say(0, || {
            format!("table scale {scale:.2}: moves and ranges as printed times {scale:.2}")
        });
        b.post_defenders(setting);
        for s in 0..2 {
            let rear = b.side(s).rear;
            let places: Vec<Point> = b.units.iter().filter(|u| u.side == s).map(|u| u.at).collect();
            for u in b.units.iter_mut().filter(|u| u.side == s) {
                u.across = doctrine::across_front(u.at, rear, places.iter().copied());
            }
            let (name, role, plan) = (b.side(s).name, b.side(s).role, b.side(s).plan);
            let resolve = b.units.resolve;
            b.log.say(1, || {
                let does = match role {
                    Role::Attacker => "attacks",
                    Role::Defender => "defends",
                };
                format!("{name} {does}: it {}; it {}", plan.describe(), resolve.words(s))
            });
        }
        b
    }

    /// Posts the defender's stands on the table at the start: a firing
    /// line about the objective it guards ([`doctrine::line_posts`]: one
    /// company on the objective, the rest on the best ground about it, in
    /// reach of the enemy; no further forward than the objective when its
    /// general holds back), its foot first, then its guns; its horse in
    /// reserve behind the objective, or in the line when it has nothing
    /// else. Each deploys as near its post as its zone allows.
    fn post_defenders(&mut self, setting: &Setting<'_>) {
        let cell = self.board.cell_inches;
        for s in 0..2 {
            let side = self.side(s);
            if side.role != Role::Defender {
                continue;
            }
            let (rear, hold_back) = (side.rear, side.plan.hold_back);
            let guard = doctrine::nearest_objective(self.scenario, s)
                .unwrap_or((side.goal.0 / cell, side.goal.1 / cell));
            let forward = if hold_back { 0.0 } else { LINE_FORWARD_CELLS };
            // A stand the scenario places holds where it is put.
            let posted =
                |u: &Unit<'_>| u.side == s && u.post.is_some() && u.fighting() && u.stand.at.is_none();
            let rank = |u: &Unit<'_>| match u.troop {
                Some(Troop::Artillery) => 1,
                Some(t) if t.is_cavalry() => 2,
                Some(_) => 0,
                None => 3,
            };
            let mut line: Vec<usize> = (0..self.units.len())
                .filter(|&i| self.u(i).is_some_and(|u| posted(u) && rank(u) < 2))
                .collect();
            if line.is_empty() {
                line = (0..self.units.len())
                    .filter(|&i| self.u(i).is_some_and(|u| posted(u) && rank(u) < 3))
                    .collect();
            }
            line.sort_by_key(|&i| self.u(i).map_or(3, rank));
            // As wide held forward as held back (LINE_RADIUS_CELLS).
            let radius = LINE_RADIUS_CELLS.hypot(forward);
            let posts = setting.line_posts(guard, rear, forward, radius, line.len());
            for (&i, &p) in line.iter().zip(&posts) {
                if let Some(u) = self.units.get_mut(i) {
                    u.post = Some((p.0 * cell, p.1 * cell));
                }
            }
            let reserve = self.board.clamp((
                guard.0 + rear.0 * RESERVE_BACK_CELLS,
                guard.1 + rear.1 * RESERVE_BACK_CELLS,
            ));
            for (i, u) in self.units.iter_mut().enumerate() {
                if !posted(u) || line.contains(&i) {
                    continue;
                }
                u.post = u.troop.map(|_| (reserve.0 * cell, reserve.1 * cell));
            }
            // Deploy as near the post as the zone allows.
            let Some(zone) = self.scenario.sides.get(s).map(|x| x.deployment) else {
                continue;
            };
            let (x0, y0) = (f64::from(zone.x) + 0.5, f64::from(zone.y) + 0.5);
            let (x1, y1) = (
                (x0 + f64::from(zone.w) - 1.0).max(x0),
                (y0 + f64::from(zone.h) - 1.0).max(y0),
            );
            for i in 0..self.units.len() {
                let Some(post) = self.u(i).filter(|u| posted(u)).and_then(|u| u.post) else {
                    continue;
                };
                let at = ((post.0 / cell).clamp(x0, x1), (post.1 / cell).clamp(y0, y1));
                if self.board.cell_at(at).is_water() || !self.board.on_table(at) {
                    continue;
                }
                if let Some(u) = self.units.get_mut(i) {
                    u.at = (at.0 * cell, at.1 * cell);
                }
            }
        }
    }

    fn side(&self, s: usize) -> &Side<'a> {
        self.sides.get(s).unwrap_or(&self.sides[0])
    }

    fn u(&self, i: usize) -> Option<&Unit<'a>> {
        self.units.get(i)
    }

    fn name(&self, i: usize) -> &'a str {
        self.units.get(i).map_or("?", |u| u.name())
    }

    /// Whether the straight way from `a` to `b` crosses no river.
    pub(super) fn dry_way(&self, a: Point, b: Point) -> bool {
        self.routes.dry_way(self.board, a, b)
    }

    /// How far a stand at `from` may go toward `to` before the water.
    pub(super) fn dry_reach(&self, from: Point, to: Point) -> Point {
        self.routes.dry_reach(self.board, from, to)
    }

    fn cell(&self, p: Point) -> crate::scenario::Cell {
        let ci = self.board.cell_inches;
        self.board.cell_at((p.0 / ci, p.1 / ci))
    }

    /// Houses, woods, walls, hedges (Musket Fire 3), and entrenchments to
    /// a stand of the side that holds them ([`crate::scenario::Cell::held_by`]):
    /// whether a stand of side `side` at `p` is in a defensive position.
    fn defensive(&self, p: Point, side: usize) -> bool {
        let c = self.cell(p).held_by(self.side(side).role);
        c.cover.is_some()
            || matches!(
                c.ground,
                Ground::BuiltUpOuter | Ground::BuiltUpInner | Ground::ForestEdge | Ground::ForestInterior
            )
    }

    fn house(&self, p: Point) -> bool {
        matches!(self.cell(p).ground, Ground::BuiltUpOuter | Ground::BuiltUpInner)
    }

    fn walls_or_woods(&self, p: Point) -> bool {
        let c = self.cell(p);
        c.cover.is_some() || matches!(c.ground, Ground::ForestEdge | Ground::ForestInterior)
    }

    fn sight(&self, a: Point, b: Point) -> bool {
        if !self.blocking {
            return true;
        }
        let ci = self.board.cell_inches;
        self.board.clear_sight((a.0 / ci, a.1 / ci), (b.0 / ci, b.1 / ci))
    }

    fn on_table(&self, p: Point) -> bool {
        let ci = self.board.cell_inches;
        self.board.on_table((p.0 / ci, p.1 / ci))
    }

    fn dist(&self, i: usize, j: usize) -> f64 {
        match (self.units.get(i), self.units.get(j)) {
            (Some(a), Some(b)) => doctrine::dist(a.at, b.at),
            _ => f64::INFINITY,
        }
    }

    fn can_act(&self, i: usize) -> bool {
        self.u(i)
            .is_some_and(|u| u.combatant() && u.shaken_until < self.turn)
    }

    /// The stands of side `side` with their indices, in the roster's order:
    /// those in its span, the only ones a scan of that side need look at
    /// (every stand of the side lies there; so may another side's, which
    /// the scans' own tests pass over).
    fn side_units(&self, side: usize) -> impl Iterator<Item = (usize, &Unit<'a>)> + '_ {
        self.units.in_span(self.spans.get(side).unwrap_or(&(0..0)))
    }

    /// Lists each side's combatants afresh ([`Battle::present`]).
    fn list_present(&mut self) {
        let mut present = std::mem::take(&mut self.present);
        for list in &mut present {
            list.clear();
        }
        for (i, u) in self.units.iter().enumerate() {
            if let (Some(troop), Some(list)) = (u.troop.filter(|_| u.fighting()), present.get_mut(u.side)) {
                list.push(Present { i, at: u.at, troop });
            }
        }
        self.present_bounds =
            SideBounds([0, 1].map(|s| Bounds::of(present.get(s).into_iter().flatten().map(|p| p.at))));
        self.present = present;
    }

    /// The combatants of side `side`, as last listed.
    fn present(&self, side: usize) -> &[Present] {
        self.present.get(side).map_or(&[], Vec::as_slice)
    }

    /// The combatants of the enemy of side `side`, as last listed.
    fn enemies(&self, side: usize) -> &[Present] {
        self.present(1 - side.min(1))
    }

    /// The nearest enemy combatant satisfying `ok`, and its distance (the
    /// enemy as last listed).
    fn nearest_enemy(&self, i: usize, ok: impl Fn(&Unit<'_>) -> bool) -> Option<(usize, f64)> {
        let me = self.u(i)?;
        let mut best: Option<(usize, f64)> = None;
        for e in self.enemies(me.side) {
            let (dx, dy) = (e.at.0 - me.at.0, e.at.1 - me.at.1);
            let d2 = dx * dx + dy * dy;
            if best.is_none_or(|(_, b)| d2 < b - EPSILON) && self.u(e.i).is_some_and(&ok) {
                best = Some((e.i, d2));
            }
        }
        best.map(|(j, d2)| (j, d2.sqrt()))
    }

    /// Infantry with no infantry friend within [`RANK_INCHES`]: single rank.
    fn single_rank(&self, i: usize) -> bool {
        let Some(me) = self.u(i) else { return false };
        if !me.is(Troop::is_infantry) || me.formation == Formation::Square {
            return false;
        }
        !self.side_units(me.side).any(|(j, f)| {
            j != i
                && f.side == me.side
                && f.combatant()
                && f.is(Troop::is_infantry)
                && doctrine::dist(me.at, f.at) <= RANK_INCHES + EPSILON
        })
    }

    /// Over when a side has no stand left on the table or to come, or
    /// has broken (kills take whole stands: a stand standing keeps its points).
    fn over(&self) -> bool {
        self.units.over(
            |u| u.waiting() || u.fighting(),
            |u| if u.fighting() { u.before() } else { 0 },
        )
    }

    /// The Sequence of Action, game move by game move.
    pub(super) fn run(&mut self) {
        engine::run(self);
    }

    fn begin(&mut self) {
        let mut cavalry = [false; 2];
        for u in self
            .units
            .iter()
            .filter(|u| u.combatant() && u.is(Troop::is_cavalry))
        {
            if let Some(c) = cavalry.get_mut(u.side) {
                *c = true;
            }
        }
        self.cavalry = cavalry;
        for u in &mut self.units {
            u.moved = 0.0;
            u.withhold = false;
            u.fought = false;
            if !matches!(u.charge, Charge::Pursuit(_)) {
                u.charge = Charge::None;
            }
        }
    }

    /// "Players dice to see who gets the next 'game move'" (Sequence of
    /// Action 8): the higher throw moves first; equal throws again.
    fn first_mover(&mut self) -> usize {
        let scenario = self.scenario;
        self.dice.for_move(|dice| throw_for_move(scenario, dice))
    }

    fn facing(&self, side: usize) -> Point {
        let r = self.side(side).rear;
        (-r.0, -r.1)
    }

    /// The last word ([`LastWord`]), thrown when the battle reaches its turn
    /// limit with neither army broken nor spent: Judging the Morale for the
    /// two armies. "Each player counts up the loss he has sustained.
    /// Whoever had the greatest loss must retire" (1, 2): the stands each
    /// side has had killed, Grenadiers and Guards counted as two. "If both
    /// sides lose the same number of casualties" (4): each counts the model
    /// soldiers it has standing (Grenadiers and Guards double), those in a
    /// defensive position with "50% more value" (6), and multiplies them
    /// by one die's multiplier (1-3 two, 4-6 three); the higher holds its
    /// ground, equal totals throwing again. `None` when the battle ended
    /// otherwise: the judge has no need of it.
    fn last_word(&mut self) -> Option<LastWord> {
        if self.over() {
            return None;
        }
        let mut loss = [0_u32; 2];
        let mut models = [0.0_f64; 2];
        for u in &self.units {
            let side = u.side;
            match u.status {
                Status::Out(Fate::Destroyed) => {
                    if let Some(l) = loss.get_mut(side) {
                        *l += u.weight();
                    }
                }
                Status::Fighting if u.combatant() => {
                    let value = f64::from(u.models * u.weight())
                        * if self.defensive(u.at, u.side) {
                            DEFENCE_MORALE_FACTOR
                        } else {
                            1.0
                        };
                    if let Some(m) = models.get_mut(side) {
                        *m += value;
                    }
                }
                _ => {}
            }
        }
        let (n0, n1) = (self.side(0).name, self.side(1).name);
        let [l0, l1] = loss;
        if let Some(loser) = greater_loss(loss) {
            return Some(LastWord {
                holds: Some(1 - loser),
                why: format!(
                    "judging the morale for the armies, {n0} lost {l0} stands and {n1} {l1}: the greater loss retires"
                ),
            });
        }
        let [m0, m1] = models;
        for _ in 0..MAX_RETHROWS {
            let (f0, f1) = (self.dice.d6(), self.dice.d6());
            let (v0, v1) = (
                m0 * f64::from(morale_multiplier(f0)),
                m1 * f64::from(morale_multiplier(f1)),
            );
            if (v0 - v1).abs() > EPSILON {
                return Some(LastWord {
                    holds: Some(usize::from(v1 > v0)),
                    why: format!(
                        "judging the morale for the armies, {l0} stands lost each: {n0} {m0:.0} models x {} = {v0:.0}, {n1} {m1:.0} x {} = {v1:.0}",
                        morale_multiplier(f0),
                        morale_multiplier(f1)
                    ),
                });
            }
        }
        Some(LastWord {
            holds: None,
            why: format!("judging the morale for the armies, {l0} stands lost each and the dice equal"),
        })
    }

    pub(super) fn outcome(mut self, seed: u64) -> Outcome {
        let last_word = self.last_word();
        let inches = self.board.cell_inches;
        let endings = self.units.iter().map(|u| {
            let fate = match u.status {
                Status::Waiting => Fate::NotEngaged,
                Status::Fighting => Fate::Stood,
                Status::Out(f) => f,
            };
            Ending {
                stand: u.stand,
                side: u.side,
                fate,
                // Kills take whole stands: the models left are all or none.
                strength_after: if fate == Fate::Destroyed { 0 } else { u.before() },
                at: (u.at.0 / inches, u.at.1 / inches),
            }
        });
        engine::finish(
            self.scenario,
            engine::Ended {
                rules: RuleSetId::ScrubyBasic,
                seed,
                turns: self.clock.fought,
                resolve: self.units.resolve,
                last_word,
            },
            endings,
            self.log,
            true,
        )
    }
}

impl Turns for Battle<'_> {
    const ENDS_ON_ARRIVAL: bool = true;

    fn clock(&mut self) -> &mut Clock {
        &mut self.clock
    }

    fn turn_limit(&self) -> u32 {
        self.scenario.turn_limit
    }

    fn begin_turn(&mut self, turn: u32) {
        self.turn = turn;
        let log = &mut self.log;
        self.units.arrive(turn, |name, _| {
            log.say(turn, || format!("{name} comes on with the reserve"));
        });
    }

    fn phases(&mut self, _turn: u32) {
        self.begin();
        // 8 (of the move before): the dice say who moves first.
        let first = self.first_mover();
        self.first = first;
        // 1. Both players move all their soldiers.
        self.move_side(first);
        self.move_side(1 - first);
        // The combatants as the moves leave them, listed once for the
        // orders and the artillery: between the two none moves or falls
        // (the captures take only command and transport, never listed).
        self.list_present();
        self.orders();
        self.captures();
        // 2. Artillery fires. 3. Musket fire. 3.1 Fire and charge.
        self.links.clear();
        self.killed.clear();
        self.artillery();
        self.musket();
        self.fire_and_charge();
        // 3.1 The fire and charge melees are "made and judged" before the
        // post-volley morale, "morale is judged from the results of the
        // melee" (Fire and Charge 6); 5, 6: pursuits, and morale after each.
        self.melees();
        // 4. Post-volley morale, for the stands that did not melee.
        self.judge_fire();
        // 7. Special cavalry charges.
        self.cavalry_charges();
        self.captures();
    }

    fn over(&self) -> bool {
        Battle::over(self)
    }
}

/// This rule set's data for stand `t` as it starts.
fn stand(t: &TableStand) -> Stand {
    let troop = troop_for(t.kind);
    Stand {
        troop,
        models: troop.map_or(0, |tr| models_at(tr, t.strength, t.full)),
        post: None,
        formation: Formation::Line,
        moved: 0.0,
        shaken_until: 0,
        pursued: false,
        gun_hits: 0,
        charge: Charge::None,
        withhold: false,
        doomed: false,
        fought: false,
        across: 0.5,
        power: troop.map_or(0.0, |tr| stand_share(tr, models_at(tr, t.strength, t.full), 4)),
    }
}

#[cfg(test)]
mod approach_tests {
    use super::*;

    /// Battles sharing their opening turns are the battles fought alone
    /// ([`crate::rules::approach::check_shares`]).
    #[test]
    fn shared_turns_change_no_battle() {
        let scenario = crate::rules::tests::scenario();
        crate::rules::approach::check_shares::<Battle>(&Setting::new(&scenario));
    }
}

#[cfg(test)]
mod posts_tests {
    use super::*;

    use crate::model::{ArmyKind, RuleSetId, StandKind};
    use crate::scenario::{Area, Objective, ObjectiveKind, Scenario, ScenarioSide, Table, TableStand};

    /// Open ground 32 x 24 cells of 3 inches, the crossroads in the middle
    /// (cell (16, 12)), sixteen companies of foot a side, the defender's
    /// zone the top nine rows.
    fn open_ground() -> Scenario {
        let side = |id: &str, role, y, h, base: u32| ScenarioSide {
            id: id.to_owned(),
            name: id.to_owned(),
            army: ArmyKind::Regular,
            role,
            colour: None,
            deployment: Area { x: 1, y, w: 30, h },
            stands: (base..base + 16)
                .map(|k| TableStand::fresh(k, StandKind::LineInfantry))
                .collect(),
            reserves: Vec::new(),
        };
        Scenario {
            title: "open ground".to_owned(),
            rules: RuleSetId::ScrubyBasic,
            seed: 1,
            turn_limit: 12,
            table: Table {
                width: 32,
                depth: 24,
                cell_inches: 3.0,
                grid: false,
                terrain: Vec::new(),
            },
            sides: vec![
                side("red", Role::Defender, 0, 9, 1),
                side("blue", Role::Attacker, 20, 4, 101),
            ],
            objectives: vec![Objective {
                name: "the crossroads".to_owned(),
                kind: ObjectiveKind::Crossroads,
                x: 16,
                y: 12,
            }],
            notes: None,
        }
    }

    /// A defender's line about an objective on open ground is as wide
    /// whether its general holds forward or back: forward, its companies
    /// stand a rank or two ahead of the objective, not a narrow wedge a
    /// wing attack turns.
    #[test]
    fn a_line_held_forward_is_as_wide_as_one_held_back() {
        let scenario = open_ground();
        let setting = Setting::new(&scenario);
        let cell = scenario.table.cell_inches;
        let mut widths = [Vec::new(), Vec::new()];
        for seed in 0..40 {
            let battle = Battle::set_out(&setting, seed, false);
            let posts: Vec<Point> = battle
                .units
                .iter()
                .filter(|u| u.side == 0)
                .filter_map(|u| u.post)
                .map(|p| (p.0 / cell, p.1 / cell))
                .collect();
            assert_eq!(posts.len(), 16, "seed {seed}");
            let hold_back = battle.side(0).plan.hold_back;
            let xs = || posts.iter().map(|p| p.0);
            let width = xs().fold(f64::MIN, f64::max) - xs().fold(f64::MAX, f64::min);
            widths[usize::from(hold_back)].push(width);
            if !hold_back {
                // All but the company on the objective (its centre at row
                // 12.5) stand three or four cells ahead of it
                // (LINE_FORWARD_CELLS).
                let ahead = posts.iter().filter(|p| p.1 >= 12.5 + 3.0 - 1e-9).count();
                assert_eq!(ahead, 15, "seed {seed}: {posts:?}");
            }
        }
        let [forward, back] = widths;
        assert!(!forward.is_empty() && !back.is_empty());
        let narrowest_forward = forward.iter().copied().fold(f64::MAX, f64::min);
        let widest_back = back.iter().copied().fold(f64::MIN, f64::max);
        assert!(
            narrowest_forward >= widest_back - 1e-9,
            "forward {forward:?}, back {back:?}"
        );
    }
}
