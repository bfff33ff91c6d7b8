//! The battle: the stands on the table, the turn sequence, and the result.
//!
//! Positions here are in inches of table (the scenario's cells times
//! `cell_inches`), so the seed's moves and ranges apply as printed.

mod command;
mod fire;
mod melee;
mod movement;
mod route;
mod scouting;

use super::tables::{
    CONTACT_INCHES, FOREST_FIRE_INCHES, Formation, HOLD_INCHES, Kill, RECAPTURE_MOVES, REINFORCE_INCHES,
    RETIRE_MOVES, SCOUTING_INCHES, SCREEN_INCHES, Scouting, Shot, TRAY_DEPTH_INCHES, TRAY_LENGTH_INCHES,
    Troop, VISION_INCHES, army_holds, artillery_range_inches, artillery_shot, canister, casualty_rate,
    charge_inches, combat_points, counter_battery_hit, crew_fire, figures, forest_move_inches,
    gun_crew_saves, gun_destroyed, horse_artillery_half_move, may_charge_uphill, may_enter, melee_kill,
    melee_reach, morale_combat, morale_total, move_inches, musket_range_inches, retire_inches, scout_points,
    strength_after, town_move_inches, troop_for, units_from_strength,
};
use crate::model::RuleSetId;
use crate::rules::Resolve;
use crate::rules::approach::{Generals, Movers, Opening};
use crate::rules::board::{Board, Point};
use crate::rules::dice::Dice;
use crate::rules::doctrine::{self, Bar, Bounds, SideBounds};
use crate::rules::engine::{self, Clock, Ending, Member, Roster, Setting, Turns};
use crate::rules::{Fate, Log, Outcome};
use crate::scenario::{Cell, Ground, Role, Scenario, TableStand};

/// A little slack for comparing distances of points placed exactly.
const EPSILON: f64 = 1e-6;

/// Steps, in inches, in which a move is walked over the ground (this
/// program's own: a quarter of an inch, half a tray's depth).
const STEP_INCHES: f64 = 0.25;

/// A gun with no target makes for the nearest enemy stand rather than its
/// side's goal once one is within this distance: twice the seed's VISION
/// RANGE (How Concealed Troops are Exposed 5), this program's own figure.
const ENGAGE_INCHES: f64 = 2.0 * VISION_INCHES;

/// A defender's stand within this many inches of its post holds it (this
/// program's own: a tray's length).
const POST_SLACK_INCHES: f64 = TRAY_LENGTH_INCHES;

use crate::rules::engine::Status;

/// A stand on the table (its centre in inches), its troop type and figures
/// worked out once.
type Unit<'a> = Member<'a, Point, Stand>;

/// What this rule set keeps of a stand on the table.
#[derive(Debug, Clone)]
struct Stand {
    /// The side it fights for now: a gun taken and re-manned changes sides.
    owner: usize,
    troop: Option<Troop>,
    /// Figures at the start, and now.
    units_start: u32,
    units: u32,
    post: Option<Point>,
    formation: Formation,
    /// Under a Concealment Stand: the enemy does not see what it is.
    concealed: bool,
    /// Its musket range (and a gun's canister range), inches.
    range: f64,
    /// Hits on a gun, and whether it has a crew.
    hits: u32,
    crewed: bool,
    /// A crewless gun: which side holds it and for how many moves.
    held_by: Option<usize>,
    held_for: u32,
    /// Inches moved this game move.
    moved: f64,
    /// In a melee this game move (charging, charged or reinforcing).
    engaged: bool,
    /// Fired its return fire at a gun's canister this game move.
    fired_back: bool,
    /// Its place across its side's front at the start, 0 on the left wing
    /// to 1 on the right as it faces the enemy (for an attack in echelon).
    across: f64,
    /// A defender's stand kept back as its reserve ([`command`]).
    reserve: bool,
    /// An attacker's place in its line of attack: inches to its left of
    /// the middle of the front, and behind the front rank
    /// ([`Battle::assign_slots`]).
    slot: Option<(f64, f64)>,
    /// The objective a defender's stand guards, inches.
    guard: Option<Point>,
}

impl Unit<'_> {
    fn is_gun(&self) -> bool {
        self.troop.is_some_and(Troop::is_gun)
    }

    /// On the table with men to fight (not command or transport, not a
    /// crewless gun).
    fn combatant(&self) -> bool {
        self.fighting()
            && match self.troop {
                None => false,
                Some(t) if t.is_gun() => self.crewed,
                Some(_) => self.units > 0,
            }
    }

    /// Troops that melee: a combatant that is not a gun.
    fn fighter(&self) -> bool {
        self.combatant() && !self.is_gun()
    }

    fn melee_points(&self) -> u32 {
        self.troop
            .map_or(0, |t| combat_points(t).saturating_mul(self.units))
    }

    /// Its roster points now, for its original side.
    fn points(&self) -> u32 {
        if !self.fighting() {
            return 0;
        }
        match self.troop {
            None => self.before(),
            Some(t) if t.is_gun() => {
                if self.gun_counts() {
                    self.gun_points()
                } else {
                    0
                }
            }
            Some(_) => strength_after(self.before(), self.units_start, self.units),
        }
    }

    /// Whether a gun counts for its own side: manned by it, or its crew
    /// killed but its own side holding it (it will be manned again,
    /// "Which ever force holds the gun at the end of 3 moves"). A gun with
    /// no crew that its side does not hold is lost to it, in the battle and
    /// at the end alike.
    fn gun_counts(&self) -> bool {
        self.owner == self.side && (self.crewed || self.held_by == Some(self.side))
    }

    fn gun_points(&self) -> u32 {
        let left = super::tables::HITS_TO_DESTROY_GUN.saturating_sub(self.hits);
        strength_after(self.before(), super::tables::HITS_TO_DESTROY_GUN, left)
    }
}

/// One battle being fought.
#[derive(Debug, Clone)]
pub(super) struct Battle<'a> {
    scenario: &'a Scenario,
    board: &'a Board,
    dice: Dice,
    log: Log,
    turn: u32,
    clock: Clock,
    sides: [Side<'a>; 2],
    stands: Roster<'a, Point, Stand>,
    /// Scratch per stand, reused every game move.
    kills: Vec<u32>,
    crew_killed: Vec<bool>,
    charge_at: Vec<Option<usize>>,
    /// Scratch: the enemy combatants of the side moving and where they
    /// stand, found once a side's move ([`Battle::move_side`]): while a
    /// side moves no enemy stand moves, falls or changes hands.
    foes: Vec<Foe>,
    /// The side whose foes [`Battle::foes`] lists, and the box about them
    /// (`None` for none), with the farthest any of them reaches
    /// ([`Battle::move_gun`]: its musket range, or contact): a look for one
    /// within a reach of a place beyond the box is passed over whole.
    foes_of: Option<usize>,
    foe_bounds: Option<Bounds>,
    foe_reach: f64,
    /// Each stand's nearest enemy combatant as its side's plan found it
    /// ([`Battle::plan_move`]), and for which sides that still holds: until
    /// a side moves, no stand of either side has moved, fallen or changed
    /// hands, so a side that moves first finds the same ([`Battle::move_side`]).
    nears: Vec<Option<(usize, f64)>>,
    nears_hold: [bool; 2],
    /// A defending side's look about the ground its stands guard
    /// ([`Battle::guard_watch`]): each guarded place and radius once, with
    /// the enemy fighter nearest it within the radius, found as its move
    /// begins ([`Battle::move_side`]) from its foes, which do not move
    /// while it moves; empty outside its move.
    watches: Vec<(Point, f64, Option<usize>)>,
    /// Scratch for [`Battle::manoeuvre`]: the enemy regiments whose musket
    /// range a stand keeping out of it might reach on its way (position,
    /// range).
    threats: Vec<(Point, f64)>,
    /// Whether any gun on the table has lost its crew, as a side's move
    /// begins ([`Battle::move_side`]).
    crewless: bool,
    /// Each side's infantry stands, all told (a stand's side and troop
    /// never change): the width of its line of attack.
    foot: [usize; 2],
    /// Routes round ground a stand may not cross.
    routes: crate::rules::route::Routes,
    /// Where each side's attack aims this game move, inches.
    goals: [Point; 2],
    /// Whether each side's attack has gone in ([`Battle::plan_move`]).
    assault: [bool; 2],
    /// The game move the first of each side's stands came up to the enemy.
    up_since: [Option<u32>; 2],
    /// The middle of each side's line: its fighters' median distance to
    /// their nearest enemy, inches.
    front: [f64; 2],
    /// Each objective's centre, inches, with how the judge counts stands
    /// at it (worked out once a battle).
    objective_holds: Vec<(Point, crate::rules::ObjectiveHold)>,
}

/// An enemy combatant of the side moving ([`Battle::list_foes`]).
#[derive(Debug, Clone, Copy)]
struct Foe {
    /// Its index among the stands.
    index: usize,
    /// Where it stands, inches.
    at: Point,
    /// A gun (horse do not go for guns, [`Battle::order`]).
    gun: bool,
}

/// Distances within this many inches are equal ([`nearer`]).
const TIE_INCHES: f64 = 1e-6;

/// Distances closer than [`TIE_INCHES`] are equal: ties go to the lower index.
fn nearer(a: f64, b: f64) -> bool {
    a < b - TIE_INCHES
}

fn is_forest(c: Cell) -> bool {
    matches!(c.ground, Ground::ForestEdge | Ground::ForestInterior)
}

fn is_town(c: Cell) -> bool {
    matches!(c.ground, Ground::BuiltUpOuter | Ground::BuiltUpInner)
}

/// Inner areas are "immune to enemy fire or cannon fire" (FIGURE TWO; FIGURE
/// THREE, "Cannon fire cannot penetrate into the Inner Area").
fn immune_to_cannon(c: Cell) -> bool {
    matches!(c.ground, Ground::BuiltUpInner | Ground::ForestInterior)
}

/// Outer areas of villages and forests (ARTILLERY FIRE 6).
fn outer_area(c: Cell) -> bool {
    matches!(c.ground, Ground::BuiltUpOuter | Ground::ForestEdge)
}

/// A side as its generals see it (shared by the inch-table rule sets).
type Side<'a> = doctrine::SidePlan<'a>;
use doctrine::unit_vector;

/// What the attacker adds to its resolve ([`Resolve`]), as a share of its
/// points: this program's own, set on the proving ground's mirror battles
/// (the same army each side, open ground). Under this rule set the
/// attacker comes on under the fire of a standing line and loses points
/// faster than the line it closes with, so at an equal resolve it broke
/// first in 57% of the mirrors of 9 a side; half a pip (2.5%) evens them.
/// CDB90's 51 battles of 1800-1849 (`../shared/history/`), in which the
/// attackers won 55%, agree that an attacker gave up no sooner than a
/// defender.
pub(super) const ATTACKER_RESOLVE: f64 = 0.025;

impl<'a> Battle<'a> {
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
                stand(start.stand, index, placed.post)
            });
        }
        let n = stands.len();
        for s in 0..2 {
            let rear = sides.get(s).map_or((0.0, 1.0), |x| x.rear);
            let places: Vec<Point> = stands.iter().filter(|u| u.side == s).map(|u| u.at).collect();
            for u in stands.iter_mut().filter(|u| u.side == s) {
                u.across = doctrine::across_front(u.at, rear, places.iter().copied());
            }
        }
        let goals = sides.each_ref().map(|s| s.goal);
        let foot = [0, 1].map(|s| {
            stands
                .iter()
                .filter(|f| f.side == s && f.troop.is_some_and(Troop::is_infantry))
                .count()
        });
        let routes = route::routes(board);
        let objective_holds = scenario
            .objectives
            .iter()
            .map(|o| crate::rules::ObjectiveHold::of(scenario, o))
            .map(|h| (board.to_inches(h.at), h))
            .collect();
        let mut battle = Battle {
            scenario,
            board,
            dice,
            log: Log::new(keep_log),
            turn: 0,
            clock: Clock::default(),
            sides,
            stands,
            kills: vec![0; n],
            crew_killed: vec![false; n],
            charge_at: vec![None; n],
            foes: Vec::with_capacity(n),
            foes_of: None,
            foe_bounds: None,
            foe_reach: 0.0,
            nears: vec![None; n],
            nears_hold: [false; 2],
            watches: Vec::new(),
            threats: Vec::new(),
            crewless: false,
            foot,
            routes,
            goals,
            assault: [false; 2],
            up_since: [None; 2],
            front: [0.0; 2],
            objective_holds,
        };
        battle.set_down();
        battle.assign_posts(setting);
        battle.assign_slots();
        battle.say_plans();
        battle
    }

    /// Horse and guns the doctrine deployed in a forest, where they may not
    /// go (SPECIAL MOVEMENT RULES), are set down in the nearest cell of
    /// their deployment they may enter instead; stands the scenario places
    /// stay where they are put.
    fn set_down(&mut self) {
        for k in 0..self.stands.len() {
            let Some(u) = self.stands.get(k) else { continue };
            let Some(troop) = u.troop else { continue };
            if u.stand.at.is_some() || may_enter(troop, self.cell(u.at).ground) {
                continue;
            }
            let area = u
                .area
                .or_else(|| self.scenario.sides.get(u.side).map(|s| s.deployment));
            let Some(area) = area else { continue };
            let here = self.board.to_cells(u.at);
            let best = self
                .board
                .centres()
                .filter(|p| {
                    p.0 >= f64::from(area.x)
                        && p.1 >= f64::from(area.y)
                        && p.0 < f64::from(area.x) + f64::from(area.w)
                        && p.1 < f64::from(area.y) + f64::from(area.h)
                        && may_enter(troop, self.board.cell_at(*p).ground)
                })
                .min_by(|a, b| doctrine::dist(*a, here).total_cmp(&doctrine::dist(*b, here)));
            if let Some(p) = best {
                let at = self.board.to_inches(p);
                if let Some(u) = self.stands.get_mut(k) {
                    u.at = at;
                }
            }
        }
    }

    fn say_plans(&mut self) {
        for s in 0..2 {
            let (name, plan) = (self.side(s).name, self.side(s).plan.describe());
            let resolve = self.stands.resolve;
            let n = self.stands.iter().filter(|u| u.side == s).count();
            let hidden = self.stands.iter().filter(|u| u.side == s && u.concealed).count();
            let reserve = self.stands.iter().filter(|u| u.side == s && u.reserve).count();
            self.log.say(1, || {
                let reserve = if reserve > 0 {
                    format!(", {reserve} in reserve")
                } else {
                    String::new()
                };
                format!(
                    "{name} {plan} with {n} stands, {hidden} of them in concealed columns{reserve}; it {}",
                    resolve.words(s)
                )
            });
        }
    }

    fn name_of(&self, k: usize) -> &'a str {
        self.stands.get(k).map_or("", |s| s.name())
    }

    fn side(&self, s: usize) -> &Side<'a> {
        let [first, second] = &self.sides;
        if s == 0 { first } else { second }
    }

    fn cell(&self, p: Point) -> Cell {
        let c = self.board.cell_inches;
        self.board.cell_at((p.0 / c, p.1 / c))
    }

    fn on_table(&self, p: Point) -> bool {
        let c = self.board.cell_inches;
        self.board.on_table((p.0 / c, p.1 / c))
    }

    fn clear_sight(&self, a: Point, b: Point) -> bool {
        let c = self.board.cell_inches;
        self.board.clear_sight((a.0 / c, a.1 / c), (b.0 / c, b.1 / c))
    }

    fn gap(&self, i: usize, j: usize) -> f64 {
        match (self.stands.get(i), self.stands.get(j)) {
            (Some(a), Some(b)) => doctrine::dist(a.at, b.at),
            _ => f64::INFINITY,
        }
    }

    /// DEFENSIVE POSITIONS: "troops that are fighting from villages, forests,
    /// or are holding hills": in a town or forest, behind cover, or higher
    /// than the enemy (on one hill's level, neither has the advantage); in
    /// entrenchments only a stand of the side that holds them
    /// ([`crate::scenario::Cell::held_by`]). `side` is the side of the stand
    /// at `at`.
    fn defensive(&self, at: Point, side: usize, enemy: Point) -> bool {
        let c = self.cell(at).held_by(self.side(side).role);
        is_town(c) || is_forest(c) || c.cover.is_some() || c.level > self.cell(enemy).level
    }

    /// The nearest stand of the other side to `i` that `pick` accepts.
    fn nearest(&self, i: usize, pick: impl Fn(&Unit<'_>) -> bool) -> Option<(usize, f64)> {
        let me = self.stands.get(i)?;
        let mut best: Option<(usize, f64)> = None;
        for (j, e) in self.stands.iter().enumerate() {
            if e.owner == me.owner || !pick(e) {
                continue;
            }
            let d = doctrine::dist(me.at, e.at);
            if best.is_none_or(|(_, b)| nearer(d, b)) {
                best = Some((j, d));
            }
        }
        best
    }

    /// [`Battle::nearest`] enemy combatant of stand `i` of the side moving,
    /// from the side's list of foes ([`Battle::move_side`]).
    fn nearest_foe(&self, i: usize) -> Option<(usize, f64)> {
        let at = self.stands.get(i)?.at;
        self.nearest_foe_to(at, f64::INFINITY, |_| true)
    }

    /// The nearest to `at` of the side moving's foes that `pick` accepts,
    /// within `radius` inches (ties to the lower index, as in
    /// [`Battle::nearest`]).
    fn nearest_foe_to(&self, at: Point, radius: f64, pick: impl Fn(&Foe) -> bool) -> Option<(usize, f64)> {
        if self.foe_bounds.is_none_or(|b| b.beyond(at, radius)) {
            return None;
        }
        let mut best: Option<(usize, f64)> = None;
        // A foe passed by the bar can pass neither test below (within
        // `radius`, nearer than the best so far): its root is not taken.
        let mut bar = Bar::new(radius);
        for f in self.foes.iter().filter(|f| pick(f)) {
            let Some(d) = bar.root(at, f.at) else { continue };
            if d <= radius && best.is_none_or(|(_, b)| nearer(d, b)) {
                best = Some((f.index, d));
                bar.lower(d - TIE_INCHES);
            }
        }
        best
    }

    /// Over when a side has nothing left on the table or to come, or has
    /// broken.
    fn over(&self) -> bool {
        self.stands.over(|u| u.waiting() || u.points() > 0, Unit::points)
    }

    /// THE BATTLE's game move: the high die moves and fires its cannons
    /// first (COMBAT: "the high dice winner of the game move gets first
    /// artillery fire with an immediate result"); then rifle fire,
    /// simultaneous; then the melees (SEQUENCE OF COMBAT 1-3).
    pub(super) fn run(&mut self) {
        engine::run(self);
    }

    /// "each player rolls a die at the beginning of the move" (COMBAT); the
    /// seed does not say what a tie does: both throw again.
    fn initiative(&mut self) -> usize {
        let throw = self.dice.for_move(throw_for_move);
        let Some((first, high, low)) = throw else {
            return 0;
        };
        let (turn, name) = (self.turn, self.side(first).name);
        self.log.say(turn, || {
            format!("{name} wins the throw for the move ({high} to {low})")
        });
        first
    }

    // -----------------------------------------------------------------------
    // Movement
    // -----------------------------------------------------------------------

    pub(super) fn outcome(mut self, seed: u64) -> Outcome {
        // The last word only when the day ran out with no army broken and
        // the objectives do not decide it.
        let last_word =
            if self.clock.fought >= self.scenario.turn_limit && !self.over() && !self.objectives_decide() {
                self.last_word()
            } else {
                None
            };
        let board = &self.board;
        let endings = self.stands.iter().map(|u| {
            let enemy = 1 - u.side.min(1);
            let fate = match u.status {
                Status::Waiting => Fate::NotEngaged,
                Status::Out(f) => f,
                Status::Fighting if u.is_gun() => {
                    if u.owner != u.side || (!u.crewed && u.held_by == Some(enemy)) {
                        Fate::Captured
                    } else if u.gun_counts() {
                        Fate::Stood
                    } else {
                        // Its crew killed and the gun held by neither side:
                        // lost to its army, as the battle counted it.
                        Fate::Destroyed
                    }
                }
                Status::Fighting if u.troop.is_some() && u.units == 0 => Fate::Destroyed,
                Status::Fighting => Fate::Stood,
            };
            let after = match fate {
                Fate::NotEngaged => u.before(),
                Fate::Destroyed | Fate::Captured => 0,
                // A gun left crewless that its own side holds gets fresh
                // gunners after the battle ("fresh reserve gunners").
                _ if u.is_gun() => u.gun_points(),
                _ => match u.troop {
                    None => u.before(),
                    Some(_) => strength_after(u.before(), u.units_start, u.units),
                },
            };
            Ending {
                stand: u.stand,
                side: u.side,
                fate,
                strength_after: after,
                at: board.to_cells(u.at),
            }
        });
        engine::finish(
            self.scenario,
            engine::Ended {
                rules: RuleSetId::Scruby1961,
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

    fn begin_turn(&mut self, turn: u32) {
        self.turn = turn;
        let log = &mut self.log;
        self.stands.arrive(turn, |name, _| {
            log.say(turn, || format!("{name} comes on with the reserve"));
        });
    }

    fn phases(&mut self, _turn: u32) {
        self.plan_move();
        let first = self.initiative();
        for u in &mut self.stands {
            u.moved = 0.0;
            u.engaged = false;
            u.fired_back = false;
        }
        self.charge_at.iter_mut().for_each(|c| *c = None);
        self.move_side(first);
        self.move_side(1 - first);
        self.scouting();
        self.expose();
        // A side that breaks quits the field at once: the battle ends
        // after the step in which the first side breaks.
        self.artillery(first);
        if self.over() {
            return;
        }
        self.artillery(1 - first);
        if self.over() {
            return;
        }
        self.rifle_fire();
        if self.over() {
            return;
        }
        self.melees();
        self.hold_guns();
        self.captures();
    }

    fn over(&self) -> bool {
        Battle::over(self)
    }
}

impl<'a> Opening<'a> for Battle<'a> {
    const RESOLVE_THROW: crate::rules::ResolveThrow = crate::rules::ResolveThrow::TWO_DICE;
    const ATTACKER_RESOLVE: f64 = ATTACKER_RESOLVE;

    fn lay_out(setting: &'a Setting<'a>, generals: Generals<'a>) -> Battle<'a> {
        Battle::lay_out(setting, generals, false)
    }

    fn first_mover(_: &Setting<'a>, _: Movers, dice: &mut Dice) -> usize {
        throw_for_move(dice).map_or(0, |(first, _, _)| first)
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
        self.stands.lost_nothing(Unit::points)
    }

    fn outcome(self, seed: u64) -> Outcome {
        Battle::outcome(self, seed)
    }
}

/// "each player rolls a die at the beginning of the move" (COMBAT), both
/// again on a tie: the side that moves first (0 or 1), the high throw and
/// the low; `None` after a hundred ties (the first side then moves first).
fn throw_for_move(dice: &mut Dice) -> Option<(usize, u32, u32)> {
    for _ in 0..100 {
        let (a, b) = (dice.d6(), dice.d6());
        if a != b {
            return Some((usize::from(b > a), a.max(b), a.min(b)));
        }
    }
    None
}

/// Steps of a quarter-inch in `inches` (at least one).
fn board_steps(inches: f64) -> u32 {
    let n = crate::rules::board::floor(inches / STEP_INCHES).max(1);
    u32::try_from(n).unwrap_or(1)
}

/// A stand as it starts: Light Cavalry "cannot be concealed" (rule 14);
/// every other stand starts in a concealed Cross Country Column (rule 1:
/// "the concealment of these troops must be made at the start of the game").
fn stand(t: &TableStand, side: usize, post: Option<Point>) -> Stand {
    let troop = troop_for(t.kind);
    let units = troop.map_or(1, |tr| {
        if tr.is_gun() {
            1
        } else {
            units_from_strength(tr, t.strength, t.full)
        }
    });
    let units_start = troop.map_or(1, |tr| {
        if tr.is_gun() {
            1
        } else {
            figures(tr).min(units.max(1))
        }
    });
    Stand {
        owner: side,
        troop,
        units_start,
        units,
        post,
        formation: Formation::CrossCountryColumn,
        concealed: troop != Some(Troop::LightCavalry),
        range: musket_range_inches(t.weapon),
        hits: 0,
        crewed: t.strength > 0,
        held_by: None,
        held_for: 0,
        moved: 0.0,
        engaged: false,
        fired_back: false,
        across: 0.5,
        reserve: false,
        slot: None,
        guard: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Battles sharing their opening turns are the battles fought alone
    /// ([`crate::rules::approach::check_shares`]).
    #[test]
    fn shared_turns_change_no_battle() {
        let scenario = crate::rules::tests::scenario();
        crate::rules::approach::check_shares::<Battle>(&Setting::new(&scenario));
    }
}
