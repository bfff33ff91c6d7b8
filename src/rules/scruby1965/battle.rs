//! The battle: the stands on the table, the turn sequence, and the result.
//!
//! Positions here are in inches of table (the scenario's cells times
//! `cell_inches`), so the seed's moves and ranges apply as printed.

use std::cell::Cell;

use super::tables::{
    CONTACT_INCHES, CombatLine, OPEN_GAP_INCHES, STAND_FRONT_INCHES, Troop, half_strength, morale_value,
    troop_for,
};
use crate::model::text::quantity;
use crate::model::{ArmyKind, RuleSetId};
use crate::rules::approach::{Generals, Movers, Opening};
use crate::rules::board::{Board, Point};
use crate::rules::dice::Dice;
use crate::rules::doctrine::{self, Bounds};
use crate::rules::engine::{self, Clock, Ending, Member, Roster, Setting, Turns};
use crate::rules::{Fate, Log, Outcome};
use crate::rules::{LastWord, Resolve, ResolveThrow};
use crate::scenario::{Role, Scenario, TableStand};

/// A little slack for comparing distances of points that were placed exactly.
pub(super) const EPSILON: f64 = 1e-6;

/// Command and transport keep up with their side at British Infantry's
/// open-order move (scruby-1965-unbalanced-equality.txt, TABLES, Combat
/// Table: "Open – 6″"). This program's own
/// figure: they are not on the Combat Table.
pub(super) const COMMAND_MOVE_INCHES: f64 = 6.0;

/// Equal throws for the first move thrown again before the attacker is
/// given it (this program's own: a bound on a loop that ends at once).
const MAX_TURN_THROWS: u32 = 20;

/// Why a stand retires, for the log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Why {
    /// Natives who failed their morale under fire, with the die.
    Morale(u32),
    /// The loser of a melee sent back 4 moves.
    Panic,
    /// The loser of a melee pursued 2 moves.
    Pursued,
}

pub(super) use crate::rules::engine::Status;

/// A stand on the table (its centre in inches), with its Combat Table row
/// worked out once.
pub(super) type Unit<'a> = Member<'a, Point, Stand>;

/// What this rule set keeps of a stand on the table.
#[derive(Debug, Clone)]
pub(super) struct Stand {
    /// `None` for command and transport.
    pub(super) line: Option<CombatLine>,
    pub(super) strength: u32,
    pub(super) full: u32,
    /// A defender's post: where it was deployed (`None` for attackers and
    /// reserves).
    pub(super) post: Option<Point>,
    /// Regular infantry in closed order (set after each movement).
    pub(super) closed: bool,
    /// Regular infantry holding or forming closed order this move (not
    /// marching in open order).
    pub(super) forming: bool,
    /// Mounted infantry on its horses.
    pub(super) mounted: bool,
    /// Natives thrown back by morale, waiting to dice to return.
    pub(super) thrown_back: bool,
    /// Locked in a melee carried on by a pursuit: neither moves nor fires.
    pub(super) locked: bool,
    /// The loser of a pursuit: its morale is halved in the next melee unless
    /// fresh troops support it.
    pub(super) pursued: bool,
    /// Hits on a gun.
    pub(super) gun_hits: u32,
    /// Inches moved this game move.
    pub(super) moved: f64,
    /// Stays put this move (it gave men to crew a gun).
    pub(super) held: bool,
    /// Its place across its side's front at the start, 0 on the left wing
    /// to 1 on the right (for an attack in echelon).
    pub(super) across: f64,
    /// A defender's stand posted on the objective itself: it holds there
    /// and never marches to the fighting.
    pub(super) holds: bool,
}

impl Unit<'_> {
    pub(super) fn troop(&self) -> Option<Troop> {
        self.line.map(|l| l.troop)
    }

    /// On the table with men to fight: not command or transport, not a gun
    /// whose crew is lost.
    pub(super) fn combatant(&self) -> bool {
        self.fighting() && self.line.is_some() && self.strength > 0
    }

    pub(super) fn is_gun(&self) -> bool {
        self.troop().is_some_and(Troop::is_gun)
    }

    pub(super) fn is_troop(&self, troop: Troop) -> bool {
        self.troop() == Some(troop)
    }

    pub(super) fn is_regular_infantry(&self) -> bool {
        self.troop().is_some_and(Troop::is_regular_infantry)
    }

    pub(super) fn is_native(&self) -> bool {
        self.troop().is_some_and(Troop::is_native)
    }

    /// Command, transport, or a gun whose crew is lost: taken if reached.
    pub(super) fn can_be_taken(&self) -> bool {
        self.fighting() && (self.line.is_none() || (self.is_gun() && self.strength == 0))
    }

    /// Closed order for regular infantry, off its horses for mounted
    /// infantry: the Combat Table's second figures.
    pub(super) fn closed_or_dismounted(&self) -> bool {
        if self.is_troop(Troop::BritishMountedInfantry) {
            !self.mounted
        } else {
            self.closed
        }
    }

    pub(super) fn half(&self) -> bool {
        half_strength(self.strength, self.full)
    }

    /// Its move in open order, on horse, or the only figure; on foot for
    /// dismounted mounted infantry.
    pub(super) fn full_move(&self) -> f64 {
        match self.line {
            None => COMMAND_MOVE_INCHES,
            Some(l) if l.troop == Troop::BritishMountedInfantry && !self.mounted => l.move_closed,
            Some(l) => l.move_open,
        }
    }
}

/// One battle being fought.
#[derive(Debug, Clone)]
pub(super) struct Battle<'a> {
    pub(super) scenario: &'a Scenario,
    pub(super) board: &'a Board,
    pub(super) dice: Dice,
    pub(super) log: Log,
    pub(super) turn: u32,
    pub(super) clock: Clock,
    pub(super) sides: [Side<'a>; 2],
    pub(super) stands: Roster<'a, Point, Stand>,
    /// Scratch, one entry per stand, reused every game move.
    pub(super) scratch: Scratch,
    /// Routes round the water: a stand goes anywhere but into a river (the
    /// seed's movement gives no figure for crossing one).
    pub(super) routes: crate::rules::route::WaterRoutes,
    /// Each side's run of indices in `stands` ([`Roster::span`]), for the
    /// scans of one side's stands ([`Battle::side_stands`]).
    pub(super) spans: [std::ops::Range<usize>; 2],
}

impl<'a> Opening<'a> for Battle<'a> {
    const RESOLVE_THROW: ResolveThrow = RESOLVE_THROW;
    const ATTACKER_RESOLVE: f64 = ATTACKER_RESOLVE;

    fn lay_out(setting: &'a Setting<'a>, generals: Generals<'a>) -> Battle<'a> {
        Battle::lay_out(setting, generals, false)
    }

    fn first_mover(setting: &Setting<'a>, _: Movers, dice: &mut Dice) -> usize {
        throw_for_move(setting.scenario, dice).0
    }

    fn dice(&self) -> &Dice {
        &self.dice
    }

    fn go_on_with(&mut self, dice: Dice, resolve: Resolve) {
        self.dice = dice;
        self.stands.resolve = resolve;
    }

    fn lost_nothing(&self) -> bool {
        // Standing as the army's break counts it ([`Battle::over`]).
        self.stands
            .lost_nothing(|u| if u.fighting() { u.strength } else { 0 })
    }

    fn outcome(self, seed: u64) -> Outcome {
        Battle::outcome(self, seed)
    }
}

/// Which side moves first this game move, and the throws (its, the
/// other's): see [`Battle::first_to_move`].
fn throw_for_move(scenario: &Scenario, dice: &mut Dice) -> (usize, (u32, u32)) {
    let attacker = usize::from(scenario.sides.get(1).is_some_and(|s| s.role == Role::Attacker));
    let mut first = attacker;
    let mut faces = (0, 0);
    for _ in 0..MAX_TURN_THROWS {
        faces = (dice.d6(), dice.d6());
        if faces.0 != faces.1 {
            first = usize::from(faces.1 > faces.0);
            break;
        }
    }
    let throws = if first == 0 { faces } else { (faces.1, faces.0) };
    (first, throws)
}

/// Working space for the phases, kept to spare allocations in the loop.
#[derive(Debug, Clone, Default)]
pub(super) struct Scratch {
    pub(super) kills: Vec<u32>,
    pub(super) hits: Vec<u32>,
    pub(super) under_fire: Vec<bool>,
    pub(super) target: Vec<Option<usize>>,
    pub(super) group: Vec<usize>,
    /// Whether a stand heads a melee group of more than itself.
    pub(super) heads: Vec<bool>,
    pub(super) was_pursued: Vec<bool>,
    pub(super) members: Vec<usize>,
    /// Chargers at one target: (distance, stand).
    pub(super) chargers: Vec<(f64, usize)>,
    /// Targets of charges: (combat value, stand).
    pub(super) targets: Vec<(f64, usize)>,
    /// Each stand's charge reach this move (negative: not charging).
    pub(super) reach: Vec<f64>,
    /// Enemies of the side moving within RIFLE RANGE of one of its
    /// combatants: the fighting its reserves march to.
    pub(super) engaged: Vec<bool>,
    /// Whether the side moving is formed up to go in.
    pub(super) formed: bool,
    /// Whether the side moving is winning the firefight
    /// ([`Battle::ahead_in_fire`]), worked out as its move begins.
    pub(super) ahead: bool,
    /// The side moving, while it moves: its enemies stand still and none
    /// falls until it is done, so each of its stands' nearest enemy holds
    /// while that stand stays where it was found.
    pub(super) moving: Option<usize>,
    /// For each stand of the side moving: where it stood when its nearest
    /// enemy was found, and that enemy ([`Battle::nearest_enemy`]); `None`
    /// when not looked for this move.
    pub(super) nearest: Vec<Cell<Option<Nearest>>>,
    /// The box about the enemy stands that the side moving may fire at
    /// (combatants not locked in a melee), found as its move begins and
    /// read only while it moves (`moving`).
    pub(super) targets_box: Option<Bounds>,
    /// The box about every enemy stand on the table of the side moving
    /// (each kept off in its move), found as its move begins and read only
    /// while it moves.
    pub(super) foes_box: Option<Bounds>,
    /// The enemy combatants of the side moving, index and centre, in the
    /// roster's order: listed as its move begins for its nearest-enemy looks.
    pub(super) foes: Vec<(usize, Point)>,
}

/// Where a stand stood, and the nearest enemy combatant to there with its
/// distance in inches ([`Battle::nearest_enemy`]).
type Nearest = (Point, Option<(usize, f64)>);

/// Distances closer than this, in inches, are equal: ties go to the lower
/// index whatever the rounding of the arithmetic that placed the stands, so
/// a table and its mirror image fight the same battle.
pub(super) const TIE_INCHES: f64 = 1e-6;

/// The nearest of `stands` (index, centre) to `at`, and its distance: the
/// first of those nearer than the rest by more than a tie.
fn nearest_of(at: Point, stands: impl Iterator<Item = (usize, Point)>) -> Option<(usize, f64)> {
    let mut best: Option<(usize, f64)> = None;
    for (j, p) in stands {
        let d = doctrine::dist(at, p);
        if best.is_none_or(|(_, b)| nearer(d, b)) {
            best = Some((j, d));
        }
    }
    best
}

/// Whether distance `a` is nearer than `b` by more than a tie.
pub(super) fn nearer(a: f64, b: f64) -> bool {
    a < b - TIE_INCHES
}

/// Orders distances in inches to the thousandth of an inch, so that stands
/// placed alike tie (and ties go to the lower index) whatever the rounding
/// of the arithmetic that placed them: a table and its mirror image fight
/// the same battle.
pub(super) fn by_distance(a: f64, b: f64) -> std::cmp::Ordering {
    let thousandths = |d: f64| (d * 1000.0).round();
    thousandths(a).total_cmp(&thousandths(b))
}

/// A side as its generals see it (shared by the inch-table rule sets).
pub(super) type Side<'a> = doctrine::SidePlan<'a>;
pub(super) use doctrine::unit_vector;

/// What the attacker adds to its resolve ([`Resolve`]), as a share of its
/// points: nothing. This program's own: the proving ground's mirror
/// battles under this rule set come out within 0.10 at 9 and 20 a side
/// without it.
pub(super) const ATTACKER_RESOLVE: f64 = 0.0;

/// How a general throws for his resolve ([`Resolve`]): one die, every
/// break from 5% to 55% of his points as likely (the same bounds and mean
/// as the 2D6 of scruby-1961, Harman and Cordery, [`ResolveThrow::ONE_DIE`]).
/// This program's own, as under scruby-basic: with the 2D6 this rule set's
/// odds were among the most certain (2:1 on open ground won 94.1%, 3:1
/// 99.9%; the history set's Brier 0.318), and with the flat throw 88.6%
/// and 100.0%, the Brier 0.306, the mirrors 0.06 A / 0.04 A / 0.06 D (the
/// notebook, "scruby-basic's and scruby-1965's resolve on one die").
pub(super) const RESOLVE_THROW: ResolveThrow = ResolveThrow::ONE_DIE;

impl<'a> Battle<'a> {
    /// [`Battle::set_out`] on the scenario's own setting (kept for the
    /// rest of the test: the battle borrows its table).
    #[cfg(test)]
    pub(super) fn new(scenario: &'a Scenario, seed: u64, keep_log: bool) -> Battle<'a> {
        Battle::set_out(Box::leak(Box::new(Setting::new(scenario))), seed, keep_log)
    }

    /// Sets out the table: every stand on its place (the doctrine's
    /// deployment for those the scenario does not place), reserves waiting.
    pub(super) fn set_out(setting: &'a Setting<'a>, seed: u64, keep_log: bool) -> Battle<'a> {
        Battle::lay_out(setting, <Battle as Opening>::draw(setting, seed), keep_log)
    }

    /// The battle `generals` fight on `setting`'s table, set out.
    fn lay_out(setting: &'a Setting<'a>, generals: Generals<'a>, keep_log: bool) -> Battle<'a> {
        let scenario = setting.scenario;
        let board = &setting.board;
        let Generals { dice, resolve, sides } = generals;
        let mut stands = Roster::with_resolve(resolve);
        for index in 0..scenario.sides.len().min(2) {
            stands.place_side(setting, index, |start, placed| {
                stand(start.stand, army_of(scenario, index), placed.post)
            });
        }
        let n = stands.len();
        let scratch = Scratch {
            kills: vec![0; n],
            hits: vec![0; n],
            under_fire: vec![false; n],
            target: vec![None; n],
            group: vec![0; n],
            heads: vec![false; n],
            was_pursued: vec![false; n],
            members: Vec::with_capacity(n),
            chargers: Vec::with_capacity(n),
            targets: Vec::with_capacity(n),
            reach: vec![f64::NEG_INFINITY; n],
            engaged: vec![false; n],
            formed: true,
            ahead: true,
            moving: None,
            nearest: vec![Cell::new(None); n],
            targets_box: None,
            foes_box: None,
            foes: Vec::with_capacity(n),
        };
        let routes = crate::rules::route::WaterRoutes::new(board);
        let spans = [stands.span(0), stands.span(1)];
        let mut battle = Battle {
            scenario,
            board,
            dice,
            log: Log::new(keep_log),
            turn: 0,
            clock: Clock::default(),
            sides,
            stands,
            scratch,
            routes,
            spans,
        };
        battle.order_of_battle();
        battle.post_defenders(setting);
        battle.set_across();
        battle.say_plans();
        battle
    }

    /// Each stand's place across its side's front at the start (for an
    /// attack in echelon).
    fn set_across(&mut self) {
        for s in 0..2 {
            let rear = self.side(s).rear;
            let places: Vec<Point> = self.stands.iter().filter(|u| u.side == s).map(|u| u.at).collect();
            for u in self.stands.iter_mut().filter(|u| u.side == s) {
                u.across = doctrine::across_front(u.at, rear, places.iter().copied());
            }
        }
    }

    /// The log's first lines (turn 1): each side's strength and aim.
    fn say_plans(&mut self) {
        for s in 0..2 {
            let (name, role, goal, plan) = {
                let side = self.side(s);
                (side.name, side.role, side.goal, side.plan.describe())
            };
            let on_table = self.stands.iter().filter(|u| u.side == s && u.fighting()).count();
            let waiting = self
                .stands
                .iter()
                .filter(|u| u.side == s && u.status == Status::Waiting)
                .count();
            let goal = self.cell_of_point(goal);
            let plan_words = plan;
            let resolve = self.stands.resolve;
            self.log.say(1, || {
                let plan = match role {
                    Role::Attacker => "attacks, making for",
                    Role::Defender => "defends, holding the ground at",
                };
                let reserves = if waiting > 0 {
                    format!(", {waiting} more to come")
                } else {
                    String::new()
                };
                format!(
                    "{name} ({on_table} stands on the table{reserves}) {plan} cell ({}, {}): it {}; it {}",
                    goal.0,
                    goal.1,
                    plan_words,
                    resolve.words(s)
                )
            });
        }
    }

    /// Side `s` (0 or 1).
    pub(super) fn side(&self, s: usize) -> &Side<'a> {
        let [first, second] = &self.sides;
        if s == 0 { first } else { second }
    }

    /// The whole cell (x, y) holding a point in inches, for the log.
    pub(super) fn cell_of_point(&self, p: Point) -> (i64, i64) {
        let c = self.in_cells(p);
        (crate::rules::board::floor(c.0), crate::rules::board::floor(c.1))
    }

    pub(super) fn in_cells(&self, p: Point) -> Point {
        self.board.to_cells(p)
    }

    /// Whether a stand at `at` is in a defensive position against an enemy
    /// at `enemy` (DEFENSIVE POSITIONS: "on top of hills, behind a wall, in
    /// a house"; the cell says, [`crate::scenario::Cell::is_defensive`]).
    /// Walls, houses and woods shelter against anyone, entrenchments only a
    /// stand of the side that holds them ([`crate::scenario::Cell::held_by`];
    /// `side` is the side of the stand at `at`); a hill only against an
    /// enemy lower down: "on top of" a hill is above the enemy, so troops on
    /// one slope of the same hill have no advantage.
    pub(super) fn defended_against(&self, at: Point, side: usize, enemy: Point) -> bool {
        use crate::scenario::Ground;
        let cell = self
            .board
            .cell_at(self.in_cells(at))
            .held_by(self.side(side).role);
        if !cell.is_defensive() {
            return false;
        }
        let sheltered = cell.cover.is_some()
            || matches!(
                cell.ground,
                Ground::BuiltUpOuter | Ground::BuiltUpInner | Ground::ForestEdge | Ground::ForestInterior
            );
        sheltered || cell.level > self.board.cell_at(self.in_cells(enemy)).level
    }

    pub(super) fn on_table(&self, p: Point) -> bool {
        self.board.on_table(self.in_cells(p))
    }

    /// Whether the straight way from `a` to `b` crosses no river.
    pub(super) fn dry_way(&self, a: Point, b: Point) -> bool {
        self.routes.dry_way(self.board, a, b)
    }

    /// How far a stand at `from` may go toward `to` before the water.
    pub(super) fn dry_reach(&self, from: Point, to: Point) -> Point {
        self.routes.dry_reach(self.board, from, to)
    }

    pub(super) fn is_water(&self, p: Point) -> bool {
        self.board.cell_at(self.in_cells(p)).is_water()
    }

    pub(super) fn clamp(&self, p: Point) -> Point {
        self.board.to_inches(self.board.clamp(self.in_cells(p)))
    }

    pub(super) fn clear_sight(&self, a: Point, b: Point) -> bool {
        self.board.clear_sight(self.in_cells(a), self.in_cells(b))
    }

    /// Inches between stands `i` and `j` (infinite if either is missing).
    pub(super) fn gap(&self, i: usize, j: usize) -> f64 {
        match (self.stands.get(i), self.stands.get(j)) {
            (Some(a), Some(b)) => doctrine::dist(a.at, b.at),
            _ => f64::INFINITY,
        }
    }

    /// A stand's combat value where it stands, facing an enemy at `enemy`:
    /// points times morale value (closed order or dismounted, +1 in a
    /// defensive position against that enemy).
    pub(super) fn value_against(&self, i: usize, enemy: Point) -> f64 {
        self.stands.get(i).map_or(0.0, |u| match u.line {
            Some(line) if u.combatant() => {
                let defensive = self.defended_against(u.at, u.side, enemy);
                let morale = morale_value(&line, u.closed_or_dismounted(), defensive);
                f64::from(u.strength) * f64::from(morale)
            }
            _ => 0.0,
        })
    }

    /// The stands of side `side` with their indices, in the roster's order:
    /// those in its span, the only ones a scan of that side need look at
    /// (every stand of the side lies there; so may another side's, which
    /// the scans' own tests pass over).
    pub(super) fn side_stands(
        &self,
        side: usize,
    ) -> impl Iterator<Item = (usize, &Member<'a, Point, Stand>)> + '_ {
        self.stands.in_span(self.spans.get(side).unwrap_or(&(0..0)))
    }

    /// The stands of the enemy of side `side` ([`Battle::side_stands`]).
    pub(super) fn enemy_stands(
        &self,
        side: usize,
    ) -> impl Iterator<Item = (usize, &Member<'a, Point, Stand>)> + '_ {
        self.side_stands(1 - side.min(1))
    }

    /// The enemy combatants of side `side`, index and centre, in the
    /// roster's order: those [`Battle::nearest_enemy`] looks among.
    pub(super) fn enemy_combatants(&self, side: usize) -> impl Iterator<Item = (usize, Point)> + '_ {
        self.enemy_stands(side)
            .filter(move |(_, e)| e.side != side && e.combatant())
            .map(|(j, e)| (j, e.at))
    }

    /// The nearest enemy combatant on the table, and its distance in inches.
    pub(super) fn nearest_enemy(&self, i: usize) -> Option<(usize, f64)> {
        let me = self.stands.get(i)?;
        // Kept for the side moving (`Scratch::moving`) while the stand stays put.
        let kept = self
            .scratch
            .nearest
            .get(i)
            .filter(|_| self.scratch.moving == Some(me.side));
        if let Some((at, found)) = kept.and_then(Cell::get)
            && at == me.at
        {
            return found;
        }
        match kept {
            // The side moving's enemies as listed when its move began.
            Some(kept) => {
                let best = nearest_of(me.at, self.scratch.foes.iter().copied());
                kept.set(Some((me.at, best)));
                best
            }
            None => nearest_of(me.at, self.enemy_combatants(me.side)),
        }
    }

    /// Whether any enemy combatant is within `inches` of stand `i`.
    pub(super) fn enemy_within(&self, i: usize, inches: f64) -> bool {
        self.nearest_enemy(i).is_some_and(|(_, d)| d <= inches + EPSILON)
    }

    /// Whether stand `i` of side `side` has a combatant of `side` other
    /// than itself within `inches`.
    pub(super) fn friend_within(&self, i: usize, inches: f64) -> bool {
        let Some(me) = self.stands.get(i) else {
            return false;
        };
        self.side_stands(me.side).any(|(j, f)| {
            j != i && f.side == me.side && f.combatant() && doctrine::dist(me.at, f.at) <= inches + EPSILON
        })
    }

    /// Regular infantry touching stand `i` (another regular infantry stand
    /// of its side within the 3-inch front).
    pub(super) fn touching(&self, i: usize) -> bool {
        let Some(me) = self.stands.get(i) else {
            return false;
        };
        self.side_stands(me.side).any(|(j, f)| {
            j != i
                && f.side == me.side
                && f.combatant()
                && f.is_regular_infantry()
                && doctrine::dist(me.at, f.at) <= STAND_FRONT_INCHES + EPSILON
        })
    }

    /// The battle is over when a side has nothing left on the table (not
    /// even command, transport or a silent gun to be taken) and no reserve
    /// to come, or has broken.
    fn over(&self) -> bool {
        self.stands.over(
            |u| u.waiting() || (u.fighting() && u.strength > 0),
            |u| if u.fighting() { u.strength } else { 0 },
        )
    }

    /// Which side moves first this game move: each side throws a die, the
    /// higher throw moves first, equal throws are thrown again. The 1965
    /// text is silent on the order; this is its author's own practice in
    /// scruby-1961-strategy-tactical-wargame.txt ("each player rolls a die
    /// at the beginning of the move- high dice winner then chooses which
    /// flank he will move"), the winner choosing to move first, so neither
    /// side's role gives it the first charge every move. After
    /// [`MAX_TURN_THROWS`] equal throws (never, in practice) the attacker
    /// moves first.
    pub(super) fn first_to_move(&mut self) -> usize {
        let scenario = self.scenario;
        let (first, (high, low)) = self.dice.for_move(|dice| throw_for_move(scenario, dice));
        let (name, other) = (self.side(first).name, self.side(1 - first).name);
        self.log.say(self.turn, || {
            format!("{name} throw {high} against {other}'s {low} and move first")
        });
        first
    }

    /// Fights to the turn limit, or until a side has nothing left.
    pub(super) fn run(&mut self) {
        engine::run(self);
    }

    /// MORALE: natives thrown back "must dice a 4,5,6 to return towards the
    /// fight on the next game move. If a 1,2 or 3, they remain where they are".
    fn rally(&mut self) {
        let turn = self.turn;
        for u in &mut self.stands {
            if !(u.thrown_back && u.fighting()) {
                continue;
            }
            let face = self.dice.d6();
            let back = super::tables::returns_to_fight(face);
            u.thrown_back = !back;
            let name = u.name();
            self.log.say(turn, || {
                if back {
                    format!("{name} throw {face} and return towards the fight")
                } else {
                    format!("{name} throw {face} and stay where they are")
                }
            });
        }
    }

    fn begin_move(&mut self) {
        for u in &mut self.stands {
            u.moved = 0.0;
            u.held = false;
            u.forming = u.is_regular_infantry();
        }
    }

    /// Closed order after movement: regular infantry holding or forming,
    /// touching a friend, having moved no more than its closed move (REGULAR
    /// INFANTRY: "Closed Formation is when the stands are placed tightly
    /// against each other"; "In Closed Formation, the stand may only move 3
    /// inches").
    fn set_orders(&mut self) {
        for i in 0..self.stands.len() {
            let closed = self.stands.get(i).is_some_and(|u| {
                u.combatant()
                    && u.forming
                    && !u.thrown_back
                    && u.line.is_some_and(|l| u.moved <= l.move_closed + EPSILON)
            }) && self.touching(i);
            if let Some(u) = self.stands.get_mut(i) {
                u.closed = closed;
            }
        }
    }

    /// Command, transport and crewless guns that an enemy reaches with no
    /// friend beside them are taken.
    pub(super) fn captures(&mut self) {
        for i in 0..self.stands.len() {
            let Some(u) = self.stands.get(i) else { continue };
            if !u.can_be_taken() {
                continue;
            }
            let reached = self.enemy_stands(u.side).any(|(_, e)| {
                e.side != u.side && e.combatant() && doctrine::dist(u.at, e.at) <= CONTACT_INCHES + EPSILON
            });
            if reached && !self.friend_within(i, CONTACT_INCHES) {
                let name = u.name();
                let gun = u.is_gun();
                if let Some(u) = self.stands.get_mut(i) {
                    u.status = Status::Out(Fate::Captured);
                }
                self.log.say(self.turn, || {
                    if gun {
                        format!("the enemy reaches {name}, its crew lost: the gun is taken")
                    } else {
                        format!("the enemy reaches {name}, unescorted: taken")
                    }
                });
            }
        }
    }

    /// Stand `i` retires `moves` of its moves toward its own table edge. A
    /// stand driven off the table is Routed (false); natives are thrown back.
    pub(super) fn retire(&mut self, i: usize, moves: u32, why: Why) -> bool {
        let Some(u) = self.stands.get(i) else {
            return false;
        };
        let rear = self.side(u.side).rear;
        let inches = f64::from(moves) * u.full_move();
        let to = (u.at.0 + rear.0 * inches, u.at.1 + rear.1 * inches);
        let off = !self.on_table(to);
        // A river behind stops the retreat at its bank.
        let to = if off { to } else { self.dry_reach(u.at, to) };
        let went = doctrine::dist(u.at, to);
        let (name, turn) = (u.name(), self.turn);
        self.log.say(turn, || {
            let why = match why {
                Why::Morale(face) => format!("throw {face} and fail their morale"),
                Why::Panic => "are beaten and flee in panic".to_owned(),
                Why::Pursued => "are beaten and fall back, pursued".to_owned(),
            };
            if off {
                format!(
                    "{name} {why}: {} back takes them off the table",
                    quantity(f64::from(moves), 0, "move", "moves")
                )
            } else if went < inches - EPSILON {
                format!(
                    "{name} {why}, retiring {}, stopped by the river after {}",
                    quantity(f64::from(moves), 0, "move", "moves"),
                    quantity(went, 0, "inch", "inches")
                )
            } else {
                format!(
                    "{name} {why}, retiring {} ({})",
                    quantity(f64::from(moves), 0, "move", "moves"),
                    quantity(inches, 0, "inch", "inches")
                )
            }
        });
        let Some(u) = self.stands.get_mut(i) else {
            return false;
        };
        u.closed = false;
        if off {
            u.status = Status::Out(Fate::Routed);
            return false;
        }
        u.at = to;
        if u.is_native() {
            u.thrown_back = true;
        }
        true
    }

    /// The stand's place in the keep-off rule: an inch beyond contact.
    pub(super) fn keep_off() -> f64 {
        CONTACT_INCHES + OPEN_GAP_INCHES
    }

    /// The last word ([`LastWord`]), thrown when the battle reaches its
    /// turn limit with neither army broken nor spent: THE MELEE's Sequence 2
    /// for the two armies. "Taking again ... the original total Combat
    /// Values (combat power multiplied by Morale Values), each player now
    /// rolls one dice. Multiply the total Combat Value of each player by his
    /// dice roll. The highest such total is the winner, and the losing side
    /// is forced to retire." Each army's total is what it has standing as
    /// the test is thrown (its stands' points times their morale values, in
    /// closed order or dismounted, +1 in a defensive position against the
    /// nearest enemy), as a melee's is what stands as it begins; equal
    /// totals are thrown again, as in a melee. `None` when the battle ended
    /// otherwise: the judge has no need of it.
    pub(super) fn last_word(&mut self) -> Option<LastWord> {
        if self.over() {
            return None;
        }
        let total = |s: usize| -> f64 {
            (0..self.stands.len())
                .filter(|&i| self.stands.get(i).is_some_and(|u| u.side == s && u.combatant()))
                .map(|i| {
                    let enemy = self
                        .nearest_enemy(i)
                        .and_then(|(j, _)| self.stands.get(j))
                        .or_else(|| self.stands.get(i))
                        .map_or((0.0, 0.0), |e| e.at);
                    self.value_against(i, enemy)
                })
                .sum()
        };
        let value = [total(0), total(1)];
        let (name0, name1) = (self.side(0).name, self.side(1).name);
        for _ in 0..MAX_TURN_THROWS {
            let faces = [self.dice.d6(), self.dice.d6()];
            let [v0, v1] = value;
            let totals = [v0 * f64::from(faces[0]), v1 * f64::from(faces[1])];
            if totals[0] == totals[1] {
                continue;
            }
            let holds = usize::from(totals[1] > totals[0]);
            let why = format!(
                "Sequence 2 for the armies, {name0} {v0:.0} x {} = {:.0} against {name1} {v1:.0} x {} = {:.0}",
                faces[0], totals[0], faces[1], totals[1]
            );
            return Some(LastWord {
                holds: Some(holds),
                why,
            });
        }
        Some(LastWord {
            holds: None,
            why: format!(
                "Sequence 2 for the armies, {name0} {:.0} and {name1} {:.0}, thrown equal",
                value[0], value[1]
            ),
        })
    }

    /// The battle's result.
    pub(super) fn outcome(mut self, seed: u64) -> Outcome {
        let last_word = self.last_word();
        let board = &self.board;
        let endings = self.stands.iter().map(|u| Ending {
            stand: u.stand,
            side: u.side,
            fate: match u.status {
                Status::Waiting => Fate::NotEngaged,
                Status::Fighting if u.strength == 0 => Fate::Destroyed,
                Status::Fighting => Fate::Stood,
                Status::Out(fate) => fate,
            },
            strength_after: u.strength,
            at: board.to_cells(u.at),
        });
        engine::finish(
            self.scenario,
            engine::Ended {
                rules: RuleSetId::Scruby1965,
                seed,
                turns: self.clock.fought,
                resolve: self.stands.resolve,
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

    /// Reserves whose turn has come go on the table.
    fn begin_turn(&mut self, turn: u32) {
        self.turn = turn;
        let (log, sides) = (&mut self.log, &self.sides);
        self.stands.arrive(turn, |name, side| {
            let side = sides.get(side).map_or("", |s| s.name);
            log.say(turn, || format!("{name} arrives with the {side} reserve"));
        });
    }

    fn phases(&mut self, _turn: u32) {
        self.rally();
        self.begin_move();
        let first = self.first_to_move();
        self.move_side(first);
        self.move_side(1 - first);
        self.set_orders();
        self.captures();
        self.fire();
        self.morale();
        self.melee();
        self.captures();
    }

    fn over(&self) -> bool {
        Battle::over(self)
    }
}

/// The army of side `index`.
fn army_of(scenario: &Scenario, index: usize) -> ArmyKind {
    scenario.sides.get(index).map_or(ArmyKind::Regular, |s| s.army)
}

/// This rule set's data for stand `t` of an army, its post if a defender's.
fn stand(t: &TableStand, army: ArmyKind, post: Option<Point>) -> Stand {
    let line = troop_for(t.kind, army).map(super::tables::line_of);
    Stand {
        line,
        strength: t.strength,
        full: t.full.max(t.strength).max(1),
        post,
        closed: false,
        forming: false,
        mounted: line.is_some_and(|l| l.troop == Troop::BritishMountedInfantry),
        thrown_back: false,
        locked: false,
        pursued: false,
        gun_hits: 0,
        moved: 0.0,
        held: false,
        across: 0.5,
        holds: false,
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
