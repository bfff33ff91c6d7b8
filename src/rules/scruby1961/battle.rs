//! The battle: the stands on the table, the turn sequence, and the result.
//!
//! Positions here are in inches of table (the scenario's cells times
//! `cell_inches`), so the seed's moves and ranges apply as printed.

use super::tables::{
    CONTACT_INCHES, FOREST_FIRE_INCHES, Formation, HOLD_INCHES, Kill, RECAPTURE_MOVES, REINFORCE_INCHES,
    RETIRE_MOVES, SCOUTING_INCHES, SCREEN_INCHES, Scouting, Shot, TRAY_DEPTH_INCHES, TRAY_LENGTH_INCHES,
    Troop, VISION_INCHES, artillery_range_inches, artillery_shot, canister, casualty_rate, charge_inches,
    combat_points, counter_battery_hit, crew_fire, figures, forest_move_inches, gun_crew_saves,
    gun_destroyed, horse_artillery_half_move, may_charge_uphill, may_enter, melee_kill, morale_combat,
    morale_total, move_inches, musket_range_inches, retire_inches, scout_points, strength_after,
    town_move_inches, troop_for, units_from_strength,
};
use crate::model::RuleSetId;
use crate::rules::board::{Board, Point};
use crate::rules::dice::Dice;
use crate::rules::doctrine;
use crate::rules::engine::{self, Clock, Ending, Member, Roster, Turns};
use crate::rules::{Fate, Log, Outcome};
use crate::scenario::{Cell, Ground, Role, Scenario, TableStand};

/// A little slack for comparing distances of points placed exactly.
const EPSILON: f64 = 1e-6;

/// Steps, in inches, in which a move is walked over the ground (this
/// program's own: a quarter of an inch, half a tray's depth).
const STEP_INCHES: f64 = 0.25;

/// An attacker makes for the nearest enemy stand rather than its goal once
/// one is within this distance: twice the seed's VISION RANGE (How Concealed
/// Troops are Exposed 5), this program's own figure.
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
                if self.crewed && self.owner == self.side {
                    self.gun_points()
                } else {
                    0
                }
            }
            Some(_) => strength_after(self.before(), self.units_start, self.units),
        }
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
    board: Board,
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
}

/// Distances closer than this are equal: ties go to the lower index.
fn nearer(a: f64, b: f64) -> bool {
    a < b - 1e-6
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

impl<'a> Battle<'a> {
    pub(super) fn new(scenario: &'a Scenario, seed: u64, keep_log: bool) -> Battle<'a> {
        let board = Board::new(scenario);
        let sides = [
            Side::in_inches(&board, scenario, 0),
            Side::in_inches(&board, scenario, 1),
        ];
        let mut stands = Roster::default();
        for index in 0..scenario.sides.len().min(2) {
            stands.place_side(&board, scenario, index, |start, placed| {
                stand(start.stand, index, placed.post)
            });
        }
        let n = stands.len();
        let mut battle = Battle {
            scenario,
            board,
            dice: Dice::new(seed),
            log: Log::new(keep_log),
            turn: 0,
            clock: Clock::default(),
            sides,
            stands,
            kills: vec![0; n],
            crew_killed: vec![false; n],
            charge_at: vec![None; n],
        };
        battle.say_plans();
        battle
    }

    fn say_plans(&mut self) {
        for s in 0..2 {
            let (name, role) = (self.side(s).name, self.side(s).role);
            let n = self.stands.iter().filter(|u| u.side == s).count();
            let hidden = self.stands.iter().filter(|u| u.side == s && u.concealed).count();
            self.log.say(1, || {
                let plan = match role {
                    Role::Attacker => "attacks",
                    Role::Defender => "defends",
                };
                format!("{name} {plan} with {n} stands, {hidden} of them in concealed columns")
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
    /// than the enemy (on one hill's level, neither has the advantage).
    fn defensive(&self, at: Point, enemy: Point) -> bool {
        let c = self.cell(at);
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
        for _ in 0..100 {
            let (a, b) = (self.dice.d6(), self.dice.d6());
            if a != b {
                let first = usize::from(b > a);
                let (turn, name) = (self.turn, self.side(first).name);
                self.log.say(turn, || {
                    format!(
                        "{name} wins the throw for the move ({} to {})",
                        a.max(b),
                        a.min(b)
                    )
                });
                return first;
            }
        }
        0
    }

    // -----------------------------------------------------------------------
    // Movement
    // -----------------------------------------------------------------------

    fn move_side(&mut self, side: usize) {
        for i in 0..self.stands.len() {
            let Some(u) = self.stands.get(i) else { continue };
            if u.owner != side || !u.combatant() || u.engaged {
                continue;
            }
            if u.is_gun() {
                self.move_gun(i);
            } else if !self.try_charge(i) {
                self.manoeuvre(i);
            }
        }
    }

    /// Walks stand `i` toward `to`, `budget` inches of its move, over the
    /// ground: it stops short of ground it may not enter (Forests, rivers);
    /// in a forest it goes one square; uphill costs double ("All movement
    /// uphill is cut in half") and it climbs one level ("slope") at most.
    /// Returns where it ends.
    fn travel(&self, i: usize, to: Point, budget: f64) -> Point {
        let Some(u) = self.stands.get(i) else {
            return to;
        };
        let Some(troop) = u.troop else { return u.at };
        let start = u.at;
        let c0 = self.cell(start);
        let Some(dir) = unit_vector(start, to) else {
            return start;
        };
        let total = doctrine::dist(start, to);
        let mut budget = budget;
        if is_town(c0) {
            // Towns: "at ROAD MOVE speed for all troops".
            budget = budget.max(town_move_inches(troop));
        }
        let mut spent = 0.0;
        let mut walked = 0.0;
        let mut at = start;
        let mut level = c0.level;
        let mut in_forest = is_forest(c0);
        while walked < total - EPSILON {
            let step = STEP_INCHES.min(total - walked);
            let next = (at.0 + dir.0 * step, at.1 + dir.1 * step);
            if !self.on_table(next) {
                break;
            }
            let c = self.cell(next);
            if !may_enter(troop, c.ground) || c.level > c0.level + 1 {
                break;
            }
            in_forest = in_forest || is_forest(c);
            let cost = if c.level > level || c.level > c0.level {
                2.0 * step
            } else {
                step
            };
            let cap = if in_forest {
                budget.min(forest_move_inches(troop))
            } else {
                budget
            };
            if spent + cost > cap + EPSILON {
                break;
            }
            spent += cost;
            walked += step;
            level = c.level;
            at = next;
        }
        at
    }

    fn go(&mut self, i: usize, to: Point) {
        let Some(u) = self.stands.get_mut(i) else { return };
        u.moved += doctrine::dist(u.at, to);
        u.at = to;
    }

    /// Its move this game move, by formation and road.
    fn move_budget(&self, i: usize, to: Point) -> f64 {
        let Some(u) = self.stands.get(i) else { return 0.0 };
        let Some(t) = u.troop else { return 0.0 };
        let on_road = self.cell(u.at).road && self.cell(to).road;
        move_inches(t, u.formation, on_road)
    }

    /// The Charge Move, when the doctrine's odds favour it: the weakest
    /// enemy within the charge reach that this stand may melee.
    fn try_charge(&mut self, i: usize) -> bool {
        let Some(u) = self.stands.get(i) else { return false };
        let Some(troop) = u.troop else { return false };
        let Some(reach) = charge_inches(troop) else {
            return false;
        };
        let (me, at, owner) = (u.melee_points(), u.at, u.owner);
        let my_level = self.cell(at).level;
        let mut best: Option<(usize, f64, f64)> = None;
        for (j, e) in self.stands.iter().enumerate() {
            if e.owner == owner || !e.combatant() || e.concealed || e.engaged {
                continue;
            }
            let d = doctrine::dist(at, e.at);
            if d > reach + TRAY_DEPTH_INCHES + EPSILON {
                continue;
            }
            let c = self.cell(e.at);
            // "The Charge Move cannot be made by any troops uphill".
            if c.level > my_level && !may_charge_uphill(troop) {
                continue;
            }
            // Villages: outer areas "cannot be attacked by cavalry"; forests:
            // cavalry and guns cannot enter; "At no time can Light Cavalry be
            // used to attack a cannon" (rule 18).
            if troop.is_cavalry() && (c.ground == Ground::BuiltUpOuter || is_forest(c)) {
                continue;
            }
            if troop == Troop::LightCavalry && e.is_gun() {
                continue;
            }
            // Rule 14: light cavalry are "not used as combat troops"; rule
            // 17: they meet Line Infantry and Light Cavalry (and screens of
            // any kind) by the morale combat, not the charge; rule 16: in
            // melee only heavy cavalry kill them.
            if troop == Troop::LightCavalry
                || (e.troop == Some(Troop::LightCavalry) && troop != Troop::HeavyCavalry)
            {
                continue;
            }
            let theirs = f64::from(e.melee_points()) + self.support(j, e.owner);
            let mine = f64::from(me) + self.charging_points(j);
            if !e.is_gun() && !self.will_charge(owner, mine, theirs) {
                continue;
            }
            if e.is_gun() && !self.will_charge(owner, mine, self.support(j, e.owner)) {
                continue;
            }
            if best
                .is_none_or(|(_, bt, bd)| theirs < bt - EPSILON || (theirs <= bt + EPSILON && nearer(d, bd)))
            {
                best = Some((j, theirs, d));
            }
        }
        let Some((j, _, _)) = best else { return false };
        let Some(target_at) = self.stands.get(j).map(|e| e.at) else {
            return false;
        };
        // It ends front to front, a tray's depth from the target.
        let stop = match unit_vector(target_at, at) {
            Some(v) => (
                target_at.0 + v.0 * TRAY_DEPTH_INCHES,
                target_at.1 + v.1 * TRAY_DEPTH_INCHES,
            ),
            None => target_at,
        };
        let mut budget = reach;
        if self.cell(target_at).level > my_level {
            budget = super::tables::uphill_inches(reach);
        }
        let end = self.travel(i, stop, budget + 2.0 * TRAY_DEPTH_INCHES);
        if doctrine::dist(end, target_at) > CONTACT_INCHES + EPSILON {
            return false;
        }
        self.go(i, end);
        if let Some(c) = self.charge_at.get_mut(i) {
            *c = Some(j);
        }
        for k in [i, j] {
            if let Some(s) = self.stands.get_mut(k) {
                s.engaged = true;
                s.concealed = false;
                if s.troop.is_some_and(Troop::is_infantry) && s.formation == Formation::RoadColumn {
                    s.formation = Formation::CrossCountryColumn;
                }
            }
        }
        let (turn, name, target) = (
            self.turn,
            self.stands.get(i).map_or("", |s| s.name()),
            self.stands.get(j).map_or("", |s| s.name()),
        );
        self.log.say(turn, || format!("{name} charges {target}"));
        true
    }

    /// Whether side `side` charges at these odds: the defender when the
    /// doctrine's odds favour it ([`doctrine::charge_favoured`]); the
    /// attacker, who must come to grips to take the ground, at even odds or
    /// better (this program's own doctrine: the fire tables kill alike on
    /// both sides, and an attacker who only traded volleys would never win).
    fn will_charge(&self, side: usize, mine: f64, theirs: f64) -> bool {
        match self.side(side).role {
            Role::Attacker => mine >= theirs && mine > 0.0,
            Role::Defender => doctrine::charge_favoured(mine, theirs),
        }
    }

    /// Melee points of side `side`'s fighters within reinforcing distance
    /// of stand `j` (not `j` itself).
    fn support(&self, j: usize, side: usize) -> f64 {
        let Some(t) = self.stands.get(j) else { return 0.0 };
        self.stands
            .iter()
            .enumerate()
            .filter(|(k, f)| {
                *k != j
                    && f.owner == side
                    && f.fighter()
                    && !f.concealed
                    && doctrine::dist(f.at, t.at) <= REINFORCE_INCHES + EPSILON
            })
            .map(|(_, f)| f64::from(f.melee_points()))
            .sum()
    }

    /// Melee points already charging stand `j`.
    fn charging_points(&self, j: usize) -> f64 {
        self.charge_at
            .iter()
            .zip(&self.stands)
            .filter(|(c, _)| **c == Some(j))
            .map(|(_, f)| f64::from(f.melee_points()))
            .sum()
    }

    /// Every other move, by the doctrine: deploy, advance, hold.
    fn manoeuvre(&mut self, i: usize) {
        let Some(u) = self.stands.get(i) else { return };
        let Some(troop) = u.troop else { return };
        let side = u.owner;
        let role = self.side(side).role;
        // Cavalry do not ride at guns (their canister reaches further than
        // the charge); they charge one only when it is within reach.
        let nearest_any = self.nearest(i, |e| {
            e.fighting() && e.troop.is_some() && !(troop.is_cavalry() && e.is_gun())
        });
        // The attacker's infantry that means to charge goes on in column
        // (4 inches a move, then the charge) rather than deploy.
        let assault = role == Role::Attacker
            && nearest_any.is_some_and(|(j, _)| {
                self.stands.get(j).is_some_and(|e| {
                    self.will_charge(
                        side,
                        f64::from(u.melee_points()),
                        f64::from(e.melee_points()) + self.support(j, e.owner),
                    )
                })
            });
        // Deploying from column into Line: "no forward movement is allowed";
        // concealed troops deployed into Line "must expose" (Concealed Forces).
        if troop.is_infantry()
            && !assault
            && u.formation != Formation::Line
            && nearest_any.is_some_and(|(_, d)| d <= VISION_INCHES + EPSILON)
        {
            if let Some(u) = self.stands.get_mut(i) {
                u.formation = Formation::Line;
                u.concealed = false;
            }
            let (turn, name) = (self.turn, self.stands.get(i).map_or("", |s| s.name()));
            self.log
                .say(turn, || format!("{name} deploys from column into line"));
            return;
        }
        let Some(u) = self.stands.get(i) else { return };
        // Where it makes for, and how near it goes.
        let (to, stop) = match (role, u.post) {
            (Role::Defender, Some(post)) => (post, 0.0),
            _ => match nearest_any {
                Some((j, d)) if d <= ENGAGE_INCHES => {
                    let at = self.stands.get(j).map_or(u.at, |e| e.at);
                    let enemy_range = self.stands.get(j).map_or(9.0, |e| e.range);
                    let stop = if troop.is_cavalry() || role == Role::Attacker {
                        // Cavalry keep out of musket range until a charge is
                        // in prospect, then close to the charge reach.
                        let reach = charge_inches(troop).unwrap_or(6.0);
                        let favoured = self.stands.get(j).is_some_and(|e| {
                            self.will_charge(
                                side,
                                f64::from(u.melee_points()),
                                f64::from(e.melee_points()) + self.support(j, e.owner),
                            )
                        });
                        if favoured {
                            reach - 0.5
                        } else if troop.is_cavalry() {
                            enemy_range + 0.5
                        } else {
                            u.range - STEP_INCHES
                        }
                    } else {
                        u.range - STEP_INCHES
                    };
                    // Into a forest only the adjoining square is fired on
                    // (Figures 2-3), and an enemy out of sight cannot be
                    // fired on at all: close in until it can, short of contact.
                    let in_wood = self.cell(at).ground == Ground::ForestInterior
                        || self.cell(u.at).ground == Ground::ForestInterior;
                    let stop = if !self.clear_sight(u.at, at) {
                        stop.min(CONTACT_INCHES + 1.0 + STEP_INCHES)
                    } else if in_wood {
                        stop.min(FOREST_FIRE_INCHES - STEP_INCHES)
                    } else {
                        stop
                    };
                    (at, stop)
                }
                _ => (self.side(side).goal, 0.0),
            },
        };
        let here = u.at;
        if role == Role::Defender && u.post.is_some() && doctrine::dist(here, to) <= POST_SLACK_INCHES {
            return;
        }
        let d = doctrine::dist(here, to);
        if d <= stop + EPSILON {
            return;
        }
        let aim = doctrine::step_toward(here, to, d - stop);
        let budget = self.move_budget(i, aim);
        // Road Column only on roads, and never for concealed troops.
        let road = self.cell(here).road && self.cell(aim).road;
        let end = self.travel(i, aim, budget);
        // Keep off: a stand not charging does not end in contact.
        let clash = self.stands.iter().any(|e| {
            e.owner != side
                && e.combatant()
                && doctrine::dist(e.at, end) <= CONTACT_INCHES + STEP_INCHES / 2.0
        });
        if clash {
            return;
        }
        self.go(i, end);
        if let Some(u) = self.stands.get_mut(i)
            && troop.is_infantry()
            && u.formation != Formation::Line
        {
            u.formation = if road && !u.concealed {
                Formation::RoadColumn
            } else {
                Formation::CrossCountryColumn
            };
        }
    }

    /// ARTILLERY: "Artillery may move OR fire, but cannot do both"; horse
    /// artillery "make a half-move, unlimber and fire". A gun with a target
    /// stays to fire; otherwise it moves with its side, stopping when a
    /// target would be in range, and out of the enemy's musket range.
    fn move_gun(&mut self, i: usize) {
        if self.gun_target(i).is_some() {
            return;
        }
        let Some(u) = self.stands.get(i) else { return };
        let Some(troop) = u.troop else { return };
        let side = u.owner;
        let role = self.side(side).role;
        let (to, stop) = match (role, u.post) {
            (Role::Defender, Some(post)) => (post, 0.0),
            _ => match self.nearest(i, |e| e.fighting() && e.troop.is_some()) {
                Some((j, d)) if d <= ENGAGE_INCHES => {
                    let at = self.stands.get(j).map_or(u.at, |e| e.at);
                    (at, artillery_range_inches(false) - 1.0)
                }
                _ => (self.side(side).goal, 0.0),
            },
        };
        let here = u.at;
        let d = doctrine::dist(here, to);
        if d <= stop + EPSILON || (role == Role::Defender && d <= POST_SLACK_INCHES) {
            return;
        }
        let aim = doctrine::step_toward(here, to, d - stop);
        let budget = if troop == Troop::HorseArtillery {
            horse_artillery_half_move(troop)
        } else {
            self.move_budget(i, aim)
        };
        let end = self.travel(i, aim, budget);
        let threatened = self.stands.iter().any(|e| {
            e.owner != side && e.combatant() && doctrine::dist(e.at, end) <= e.range.max(CONTACT_INCHES) + 1.0
        });
        if !threatened {
            self.go(i, end);
        }
    }

    /// Concealed columns seen: "Whenever enemy troops come within 16 inches
    /// of a Concealment Stand, and provided the Stand is not screened
    /// correctly ... the column must be completely exposed" (rule 5); a
    /// screen is a friend exposed within an inch of it and between it and
    /// the enemy (FIGURE 13, rule 8). In villages and forests they stay
    /// concealed until attacked or deployed (rules 10, 11).
    fn expose(&mut self) {
        for i in 0..self.stands.len() {
            let Some(u) = self.stands.get(i) else { continue };
            if !u.concealed || !u.fighting() {
                continue;
            }
            let c = self.cell(u.at);
            if is_town(c) || is_forest(c) {
                continue;
            }
            let (at, owner) = (u.at, u.owner);
            let seen = self.stands.iter().any(|e| {
                let d = doctrine::dist(e.at, at);
                e.owner != owner
                    && e.fighting()
                    && e.troop.is_some()
                    && d <= VISION_INCHES + EPSILON
                    && !self.stands.iter().any(|f| {
                        f.owner == owner
                            && !f.concealed
                            && f.fighter()
                            && doctrine::dist(f.at, at) <= SCREEN_INCHES + EPSILON
                            && doctrine::dist(f.at, e.at) < d
                    })
            });
            if seen {
                if let Some(u) = self.stands.get_mut(i) {
                    u.concealed = false;
                }
                let (turn, name) = (self.turn, self.stands.get(i).map_or("", |s| s.name()));
                self.log.say(turn, || {
                    format!("{name} is seen within 16 inches: its column is exposed")
                });
            }
        }
    }

    /// The concealed friends stand `j` screens: its side's concealed stands
    /// within an inch of it (FIGURE 13), nearest first. Only an exposed
    /// fighter screens.
    fn screened_by(&self, j: usize) -> Vec<usize> {
        let Some(f) = self.stands.get(j) else {
            return Vec::new();
        };
        if f.concealed || !f.fighter() {
            return Vec::new();
        }
        let mut near: Vec<(usize, f64)> = self
            .stands
            .iter()
            .enumerate()
            .filter(|&(k, c)| k != j && c.owner == f.owner && c.concealed && c.fighting())
            .map(|(k, c)| (k, doctrine::dist(c.at, f.at)))
            .filter(|&(_, d)| d <= SCREEN_INCHES + EPSILON)
            .collect();
        near.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
        near.into_iter().map(|(k, _)| k).collect()
    }

    /// THE USE OF LIGHT CAVALRY WHERE CONCEALMENT RULES ARE USED, rule 17:
    /// every exposed Light Cavalry stand "within 9 inches" of an enemy screen
    /// or enemy Light Cavalry fights the "morale combat" with it, each pair
    /// once a game move; a screen driven off no longer screens, so
    /// [`Battle::expose`] then finds its column (17C).
    fn scouting(&mut self) {
        let n = self.stands.len();
        let mut met: Vec<(usize, usize)> = Vec::new();
        for i in 0..n {
            for j in 0..n {
                let pair = (i.min(j), i.max(j));
                if met.contains(&pair) {
                    continue;
                }
                let (Some(a), Some(b)) = (self.stands.get(i), self.stands.get(j)) else {
                    continue;
                };
                let ready = |u: &Unit<'_>| u.fighter() && !u.concealed && !u.engaged;
                if a.troop != Some(Troop::LightCavalry)
                    || a.owner == b.owner
                    || !ready(a)
                    || !ready(b)
                    || doctrine::dist(a.at, b.at) > SCOUTING_INCHES + EPSILON
                {
                    continue;
                }
                let b_screens = self.screened_by(j);
                let b_light = b.troop == Some(Troop::LightCavalry);
                if !b_screens.is_empty() {
                    met.push(pair);
                    self.scout(i, j, b_screens.first().copied());
                } else if b_light {
                    met.push(pair);
                    // Two light cavalry: the one screening is scouted.
                    let a_screens = self.screened_by(i);
                    match a_screens.first().copied() {
                        Some(c) => self.scout(j, i, Some(c)),
                        None => self.scout(i, j, None),
                    }
                }
            }
        }
    }

    /// Rule 17's morale combat of light cavalry `i` against `j` (screening
    /// `column`, if any). 17B: against Light Infantry or Grenadiers the
    /// light cavalry "first must take their casualties" (the fire tables'
    /// volley, which is that stand's fire for the move); then 17A: 5 points a
    /// light cavalryman, the other's combat points (THE MELEE's), a die each
    /// multiplying them; the low total retires 3 moves, equal totals throw
    /// again.
    fn scout(&mut self, i: usize, j: usize, column: Option<usize>) {
        let turn = self.turn;
        let (sname, oname) = (self.name_of(i), self.name_of(j));
        let cname = column.map(|c| self.name_of(c));
        let (Some(s), Some(o)) = (self.stands.get(i), self.stands.get(j)) else {
            return;
        };
        let Some(otroop) = o.troop else { return };
        if matches!(otroop, Troop::LightInfantry | Troop::Grenadiers) {
            let (rate, kill) = casualty_rate(
                otroop,
                o.units,
                o.formation,
                self.defensive(o.at, s.at),
                self.defensive(s.at, o.at),
            );
            let face = if kill.needs_die() { self.dice.d6() } else { 0 };
            let n = kill.kills(face);
            self.log.say(turn, || {
                format!("{oname} fire on the scouts {sname} first (casualty rate {rate}): {n} killed")
            });
            self.kill(i, n);
            if let Some(o) = self.stands.get_mut(j) {
                o.fired_back = true;
            }
            if !self.stands.get(i).is_some_and(Unit::fighter) {
                return;
            }
        }
        let mine = scout_points(self.stands.get(i).map_or(0, |u| u.units));
        let theirs = self.stands.get(j).map_or(0, Unit::melee_points);
        if mine == 0 || theirs == 0 {
            return;
        }
        for _ in 0..100 {
            let (fs, fo) = (self.dice.d6(), self.dice.d6());
            let holds = match morale_combat(mine, fs, theirs, fo) {
                Scouting::ScoutHolds => true,
                Scouting::ScoutRetires => false,
                Scouting::ThrowAgain => continue,
            };
            let (ts, to) = (morale_total(mine, fs), morale_total(theirs, fo));
            let moves = RETIRE_MOVES;
            self.log.say(turn, || {
                let throw = format!("{mine} x {fs} = {ts} against {theirs} x {fo} = {to}");
                match (cname, holds) {
                    (Some(c), true) => format!(
                        "{sname} scouts the screen of {c}, {oname}: {throw}; the screen falls back {moves} moves"
                    ),
                    (Some(c), false) => format!(
                        "{sname} scouts the screen of {c}, {oname}: {throw}; the scouts fall back {moves} moves"
                    ),
                    (None, true) => format!("{sname} meets {oname}: {throw}; {oname} fall back {moves} moves"),
                    (None, false) => format!("{sname} meets {oname}: {throw}; {sname} fall back {moves} moves"),
                }
            });
            self.retire(if holds { j } else { i }, moves);
            return;
        }
    }

    // -----------------------------------------------------------------------
    // Fire
    // -----------------------------------------------------------------------

    /// Whether a friend of `owner` stands in the gun's lane of fire ("Lanes
    /// of Fire must be left between infantry in order for the guns to
    /// fire"): within half a tray's length of the line from `a` to `b`.
    fn lane_blocked(&self, owner: usize, a: Point, b: Point, skip: usize) -> bool {
        let len = doctrine::dist(a, b);
        if len < EPSILON {
            return false;
        }
        let dir = ((b.0 - a.0) / len, (b.1 - a.1) / len);
        self.stands.iter().enumerate().any(|(k, f)| {
            if k == skip || f.owner != owner || !f.fighting() || f.is_gun() || f.troop.is_none() {
                return false;
            }
            let v = (f.at.0 - a.0, f.at.1 - a.1);
            let along = v.0 * dir.0 + v.1 * dir.1;
            if along <= TRAY_DEPTH_INCHES || along >= len - TRAY_DEPTH_INCHES {
                return false;
            }
            let across = (v.0 * dir.1 - v.1 * dir.0).abs();
            across < TRAY_LENGTH_INCHES / 2.0
        })
    }

    /// A gun's target: the nearest enemy it can see in range, not concealed,
    /// not in a melee ("no troops or guns may fire into the melee"), not in
    /// the inner area of a village or forest.
    fn gun_target(&self, g: usize) -> Option<usize> {
        let gun = self.stands.get(g)?;
        if !gun.combatant() || !gun.is_gun() {
            return None;
        }
        let range = artillery_range_inches(self.cell(gun.at).level > 0);
        let mut best: Option<(usize, f64)> = None;
        for (j, e) in self.stands.iter().enumerate() {
            if e.owner == gun.owner || !e.combatant() || e.concealed || e.engaged {
                continue;
            }
            let d = doctrine::dist(gun.at, e.at);
            if d > range + EPSILON || best.is_some_and(|(_, b)| !nearer(d, b)) {
                continue;
            }
            if immune_to_cannon(self.cell(e.at))
                || !self.clear_sight(gun.at, e.at)
                || self.lane_blocked(gun.owner, gun.at, e.at, g)
            {
                continue;
            }
            best = Some((j, d));
        }
        best.map(|(j, _)| j)
    }

    /// Side `side`'s cannons fire, each once, results at once (COMBAT 1:
    /// "Cannons are fired and casualties removed immediately").
    fn artillery(&mut self, side: usize) {
        for g in 0..self.stands.len() {
            let Some(gun) = self.stands.get(g) else { continue };
            if gun.owner != side || !gun.combatant() || !gun.is_gun() || gun.engaged {
                continue;
            }
            let Some(troop) = gun.troop else { continue };
            let moved_too_far = match troop {
                Troop::HorseArtillery => gun.moved > horse_artillery_half_move(troop) + EPSILON,
                _ => gun.moved > EPSILON,
            };
            if moved_too_far {
                continue;
            }
            let Some(t) = self.gun_target(g) else { continue };
            self.cannon_shot(g, t);
        }
    }

    fn cannon_shot(&mut self, g: usize, t: usize) {
        let (Some(gun), Some(target)) = (self.stands.get(g), self.stands.get(t)) else {
            return;
        };
        let (gun_name, name, turn) = (gun.name(), target.name(), self.turn);
        let Some(ttroop) = target.troop else { return };
        let outer = outer_area(self.cell(target.at));
        let d = doctrine::dist(gun.at, target.at);
        if target.is_gun() {
            // Counter-battery fire: three hits destroy a gun.
            let face = self.dice.d6();
            if !counter_battery_hit(face) {
                self.log
                    .say(turn, || format!("{gun_name} fires on {name}: {face}, no hit"));
                return;
            }
            let Some(target) = self.stands.get_mut(t) else {
                return;
            };
            target.hits += 1;
            let hits = target.hits;
            let gone = gun_destroyed(hits);
            if gone {
                target.status = Status::Out(Fate::Destroyed);
            }
            self.log.say(turn, || {
                if gone {
                    format!("{gun_name} fires on {name}: {face}, the third hit destroys it")
                } else {
                    format!("{gun_name} fires on {name}: {face}, hit {hits}")
                }
            });
            return;
        }
        if d <= gun.range + EPSILON {
            // CANNISTER FIRE, with the target's simultaneous return fire.
            let shot = canister(outer);
            let face = if shot.needs_die() { self.dice.d6() } else { 0 };
            let killed = shot.kills(face);
            let back = crew_fire(ttroop, target.units);
            let back_face = if back.needs_die() { self.dice.d6() } else { 0 };
            let crew_lost = back.kills(back_face) > 0;
            self.kill(t, killed);
            if let Some(u) = self.stands.get_mut(t) {
                u.fired_back = true;
            }
            if crew_lost {
                self.lose_crew(g);
            }
            self.log.say(turn, || {
                let back = match back {
                    Kill::None => String::new(),
                    _ if crew_lost => format!("; their return fire ({back_face}) kills the crew"),
                    _ => format!("; their return fire ({back_face}) misses the crew"),
                };
                format!("{gun_name} fires canister into {name}, killing {killed}{back}")
            });
            return;
        }
        let face = self.dice.d6();
        match artillery_shot(face, ttroop, outer) {
            Shot::Kill => {
                self.kill(t, 1);
                self.log.say(turn, || {
                    format!("{gun_name} fires on {name}: {face}, one figure killed")
                });
            }
            Shot::DriveBack => {
                self.log.say(turn, || {
                    format!("{gun_name} fires on {name}: {face}, driven back in confusion")
                });
                self.retire(t, RETIRE_MOVES);
            }
            Shot::Miss => self
                .log
                .say(turn, || format!("{gun_name} fires on {name}: {face}, no effect")),
        }
    }

    fn kill(&mut self, t: usize, n: u32) {
        let Some(u) = self.stands.get_mut(t) else { return };
        u.units = u.units.saturating_sub(n);
        if u.units == 0 && u.fighting() {
            u.status = Status::Out(Fate::Destroyed);
            let (turn, name) = (self.turn, u.name());
            self.log.say(turn, || format!("{name} has no figures left"));
        }
    }

    /// "When the crew of the gun is killed in this manner, the gun cannot be
    /// fired nor moved."
    fn lose_crew(&mut self, g: usize) {
        if let Some(gun) = self.stands.get_mut(g) {
            gun.crewed = false;
            gun.held_by = None;
            gun.held_for = 0;
        }
    }

    /// Whether a stand in Cross Country Column is behind another of its
    /// column (a friend in column within a tray's length, nearer `target`):
    /// only the front of a column fights ("the same as if one Regiment were
    /// firing").
    fn behind_in_column(&self, i: usize, target: Point) -> bool {
        let Some(u) = self.stands.get(i) else { return false };
        if u.formation != Formation::CrossCountryColumn {
            return false;
        }
        let mine = doctrine::dist(u.at, target);
        self.stands.iter().enumerate().any(|(k, f)| {
            k != i
                && f.owner == u.owner
                && f.fighter()
                && f.formation == Formation::CrossCountryColumn
                && doctrine::dist(f.at, u.at) <= TRAY_LENGTH_INCHES + EPSILON
                && nearer(doctrine::dist(f.at, target), mine)
        })
    }

    /// Rifle fire "on a simultaneous basis, with casualties immediately
    /// removed from both sides": every shot from the table as it stands,
    /// then all the losses together.
    fn rifle_fire(&mut self) {
        self.kills.iter_mut().for_each(|k| *k = 0);
        self.crew_killed.iter_mut().for_each(|k| *k = false);
        let turn = self.turn;
        for i in 0..self.stands.len() {
            let Some(u) = self.stands.get(i) else { continue };
            let Some(troop) = u.troop else { continue };
            if !troop.is_infantry() || !u.fighter() || u.concealed || u.engaged || u.fired_back {
                continue;
            }
            let in_forest = self.cell(u.at).ground == Ground::ForestInterior;
            let mut best: Option<(usize, f64)> = None;
            for (j, e) in self.stands.iter().enumerate() {
                if e.owner == u.owner || !e.combatant() || e.concealed || e.engaged {
                    continue;
                }
                let d = doctrine::dist(u.at, e.at);
                let ec = self.cell(e.at);
                // Inside forests, fire only into the adjoining square.
                let range = if in_forest || ec.ground == Ground::ForestInterior {
                    FOREST_FIRE_INCHES
                } else {
                    u.range
                };
                if d > range + EPSILON || best.is_some_and(|(_, b)| !nearer(d, b)) {
                    continue;
                }
                if ec.ground == Ground::BuiltUpInner || !self.clear_sight(u.at, e.at) {
                    continue;
                }
                best = Some((j, d));
            }
            let Some((j, _)) = best else { continue };
            let Some(e) = self.stands.get(j) else { continue };
            if self.behind_in_column(i, e.at) {
                continue;
            }
            let (name, target) = (u.name(), e.name());
            if e.is_gun() {
                let kill = crew_fire(troop, u.units);
                let face = self.dice.d6();
                let hit = kill.kills(face) > 0;
                if hit && let Some(k) = self.crew_killed.get_mut(j) {
                    *k = true;
                }
                self.log.say(turn, || {
                    if hit {
                        format!("{name} fire on the crew of {target}: {face}, the crew is killed")
                    } else {
                        format!("{name} fire on the crew of {target}: {face}, missed")
                    }
                });
                continue;
            }
            let (rate, kill) = casualty_rate(
                troop,
                u.units,
                u.formation,
                self.defensive(u.at, e.at),
                self.defensive(e.at, u.at),
            );
            let face = if kill.needs_die() { self.dice.d6() } else { 0 };
            let n = kill.kills(face);
            if let Some(k) = self.kills.get_mut(j) {
                *k += n;
            }
            self.log.say(turn, || {
                let how = if kill.needs_die() {
                    format!("throw {face}")
                } else {
                    "automatic".to_owned()
                };
                format!("{name} fire on {target} (casualty rate {rate}, {how}): {n} killed")
            });
        }
        for j in 0..self.stands.len() {
            let n = self.kills.get(j).copied().unwrap_or(0);
            if n > 0 {
                self.kill(j, n);
            }
            if self.crew_killed.get(j).copied().unwrap_or(false) {
                self.lose_crew(j);
            }
        }
    }

    // -----------------------------------------------------------------------
    // Melee
    // -----------------------------------------------------------------------

    fn strike(&mut self, from: usize, onto: usize) -> u32 {
        let Some(u) = self.stands.get(from) else { return 0 };
        let Some(troop) = u.troop else { return 0 };
        if !self.stands.get(onto).is_some_and(Unit::fighter) || u.units == 0 {
            return 0;
        }
        let kill = melee_kill(troop, u.units);
        let face = if kill.needs_die() { self.dice.d6() } else { 0 };
        kill.kills(face)
    }

    /// THE MELEE, for every stand charged: the original melee, the
    /// reinforcing troops against the remnants, then the morale throw.
    fn melees(&mut self) {
        let n = self.stands.len();
        let mut chargers: Vec<usize> = Vec::new();
        for t in 0..n {
            chargers.clear();
            chargers.extend((0..n).filter(|&i| self.charge_at.get(i).copied().flatten() == Some(t)));
            if chargers.is_empty() {
                continue;
            }
            chargers.sort_by(|&a, &b| self.gap(a, t).total_cmp(&self.gap(b, t)).then(a.cmp(&b)));
            chargers.retain(|&a| self.stands.get(a).is_some_and(Unit::fighter));
            let Some(&first) = chargers.first() else { continue };
            if !self.stands.get(t).is_some_and(Unit::combatant) {
                continue;
            }
            self.melee(t, first, &chargers.clone());
            if self.over() {
                return;
            }
        }
    }

    fn melee(&mut self, t: usize, first: usize, chargers: &[usize]) {
        let turn = self.turn;
        let (tname, aname) = (self.name_of(t), self.name_of(first));
        let defender = self.stands.get(t).map_or(0, |u| u.owner);
        let attacker = 1 - defender;
        if self.stands.get(t).is_some_and(Unit::is_gun) {
            // MELEEING CANNON CREWS: the crew fires; 1-3-6 saves the gun.
            let face = self.dice.d6();
            if gun_crew_saves(face) {
                self.log.say(turn, || {
                    format!(
                        "the crew of {tname} throw {face}: {aname} and the other attackers are hurled back"
                    )
                });
                for &a in chargers {
                    self.retire(a, RETIRE_MOVES);
                }
                return;
            }
            self.log.say(turn, || {
                format!("the crew of {tname} throw {face}: killed by {aname}, the gun is taken")
            });
            self.lose_crew(t);
            if let Some(g) = self.stands.get_mut(t) {
                g.held_by = Some(attacker);
            }
        } else {
            // The original melee, simultaneous.
            let a_kills = self.strike(first, t);
            let t_kills = self.strike(t, first);
            self.log.say(turn, || {
                format!("{aname} and {tname} melee: {a_kills} and {t_kills} killed")
            });
            self.kill(t, a_kills);
            self.kill(first, t_kills);
        }
        // REINFORCED MELEES: the attacker's other chargers against the
        // target's remnant, the defender's stands at the attacker's flank or
        // rear against the first charger's remnant.
        let helpers: Vec<usize> = (0..self.stands.len())
            .filter(|&k| {
                self.stands.get(k).is_some_and(|f| {
                    k != t
                        && f.owner == defender
                        && f.fighter()
                        && !f.engaged
                        && !f.concealed
                        && doctrine::dist(f.at, self.stands.get(first).map_or(f.at, |a| a.at))
                            <= REINFORCE_INCHES + EPSILON
                })
            })
            .collect();
        let more: Vec<usize> = chargers.iter().copied().skip(1).collect();
        let target_fights = self.stands.get(t).is_some_and(Unit::fighter);
        if !more.is_empty() || !helpers.is_empty() {
            let mut blows: Vec<(usize, u32)> = Vec::new();
            for (n, &r) in more.iter().enumerate() {
                if target_fights {
                    blows.push((t, self.strike(r, t)));
                    if n == 0 {
                        blows.push((r, self.strike(t, r)));
                    }
                }
            }
            for (n, &h) in helpers.iter().enumerate() {
                blows.push((first, self.strike(h, first)));
                if n == 0 {
                    blows.push((h, self.strike(first, h)));
                }
            }
            for &h in &helpers {
                if let Some(f) = self.stands.get_mut(h) {
                    f.engaged = true;
                }
            }
            let total: u32 = blows.iter().map(|b| b.1).sum();
            self.log.say(turn, || {
                format!("reinforcements join the melee at {tname}: {total} more killed")
            });
            for (k, n) in blows {
                self.kill(k, n);
            }
        }
        // MORALE FACTOR AFTER A MELEE.
        let points = |b: &Battle<'_>, list: &[usize]| -> u32 {
            list.iter()
                .filter_map(|&k| b.stands.get(k))
                .filter(|u| u.fighter())
                .map(Unit::melee_points)
                .sum()
        };
        let mut defenders = helpers;
        if target_fights {
            defenders.push(t);
        }
        let (a_points, d_points) = (points(self, chargers), points(self, &defenders));
        if a_points == 0 || d_points == 0 {
            return;
        }
        let mut attacker_wins = false;
        for _ in 0..100 {
            let (fa, fd) = (self.dice.d6(), self.dice.d6());
            let (ta, td) = (morale_total(a_points, fa), morale_total(d_points, fd));
            if ta != td {
                attacker_wins = ta > td;
                self.log.say(turn, || {
                    format!(
                        "morale at {tname}: the attackers {a_points} x {fa} = {ta}, the defenders {d_points} x {fd} = {td}"
                    )
                });
                break;
            }
        }
        let (losers, winners): (Vec<usize>, Vec<usize>) = if attacker_wins {
            (defenders, chargers.to_vec())
        } else {
            (chargers.to_vec(), defenders)
        };
        self.light_cavalry_meleed(&losers, &winners);
        for k in losers {
            if self.stands.get(k).is_some_and(Unit::fighter) {
                self.retire(k, RETIRE_MOVES);
            }
        }
    }

    /// Rule 17D: "If Light Cavalry are meleed by Heavy Cavalry, the Moral
    /// Throw determines if the concealed column is exposed or not": light
    /// cavalry that lose the morale throw to a side with heavy cavalry in
    /// the melee expose the columns they screen at once; winning, the
    /// columns stay concealed.
    fn light_cavalry_meleed(&mut self, losers: &[usize], winners: &[usize]) {
        let turn = self.turn;
        let heavy = |b: &Battle<'_>, list: &[usize]| {
            list.iter().any(|&k| {
                b.stands
                    .get(k)
                    .is_some_and(|u| u.fighter() && u.troop == Some(Troop::HeavyCavalry))
            })
        };
        for (light, other, lost) in [(losers, winners, true), (winners, losers, false)] {
            if !heavy(self, other) {
                continue;
            }
            for &k in light {
                if !self
                    .stands
                    .get(k)
                    .is_some_and(|u| u.troop == Some(Troop::LightCavalry))
                {
                    continue;
                }
                let lname = self.name_of(k);
                for c in self.screened_by(k) {
                    let cname = self.name_of(c);
                    if lost {
                        if let Some(u) = self.stands.get_mut(c) {
                            u.concealed = false;
                        }
                        self.log.say(turn, || {
                            format!("{lname} lose the morale throw to heavy cavalry: {cname}, which they screened, is exposed")
                        });
                    } else {
                        self.log.say(turn, || {
                            format!("{lname} hold against heavy cavalry: {cname} stays concealed")
                        });
                    }
                }
            }
        }
    }

    /// Stand `i` retires `moves` moves toward its own table edge; off the
    /// table it is Routed.
    fn retire(&mut self, i: usize, moves: u32) {
        let Some(u) = self.stands.get(i) else { return };
        let Some(troop) = u.troop else { return };
        let rear = self.side(u.owner).rear;
        let inches = retire_inches(troop, moves);
        let to = (u.at.0 + rear.0 * inches, u.at.1 + rear.1 * inches);
        let (name, turn) = (u.name(), self.turn);
        if !self.on_table(to) {
            if let Some(u) = self.stands.get_mut(i) {
                u.status = Status::Out(Fate::Routed);
            }
            self.log
                .say(turn, || format!("{name} retire {moves} moves, off the table"));
            return;
        }
        // It goes back over ground it may stand on; water stops it short.
        let mut end = u.at;
        let steps = board_steps(inches);
        for s in 1..=steps {
            let f = f64::from(s) / f64::from(steps);
            let p = (u.at.0 + rear.0 * inches * f, u.at.1 + rear.1 * inches * f);
            if self.cell(p).is_water() {
                break;
            }
            end = p;
        }
        self.log.say(turn, || {
            format!("{name} retire {moves} moves ({inches:.0} inches)")
        });
        if let Some(u) = self.stands.get_mut(i) {
            u.at = end;
        }
    }

    /// Crewless guns: "Which ever force holds the gun at the end of 3 moves
    /// is then entitled to use the gun"; "it remains where it is until one
    /// side or the other has captured it and held it for three game moves".
    fn hold_guns(&mut self) {
        let turn = self.turn;
        for g in 0..self.stands.len() {
            let Some(gun) = self.stands.get(g) else { continue };
            if !gun.fighting() || !gun.is_gun() || gun.crewed {
                continue;
            }
            let at = gun.at;
            let near = |s: usize| {
                self.stands
                    .iter()
                    .any(|f| f.owner == s && f.fighter() && doctrine::dist(f.at, at) <= HOLD_INCHES + EPSILON)
            };
            let holder = match (near(0), near(1)) {
                (true, false) => Some(0),
                (false, true) => Some(1),
                _ => None,
            };
            let name = gun.name();
            let Some(gun) = self.stands.get_mut(g) else {
                continue;
            };
            match holder {
                None => gun.held_for = 0,
                Some(s) if gun.held_by == Some(s) => gun.held_for += 1,
                Some(s) => {
                    gun.held_by = Some(s);
                    gun.held_for = 1;
                }
            }
            if let Some(s) = holder
                && gun.held_for >= RECAPTURE_MOVES
            {
                gun.crewed = true;
                gun.owner = s;
                gun.held_by = None;
                gun.held_for = 0;
                let side = self.side(s).name;
                self.log.say(turn, || {
                    format!("{name}, held three moves, is manned again by {side}")
                });
            }
        }
    }

    /// Command and transport that an enemy reaches with no friend beside
    /// them are taken (the brief: no combat, "can be captured").
    fn captures(&mut self) {
        for i in 0..self.stands.len() {
            let Some(u) = self.stands.get(i) else { continue };
            if !u.fighting() || u.troop.is_some() {
                continue;
            }
            let (at, owner) = (u.at, u.owner);
            let close = |s: usize| {
                self.stands.iter().any(|e| {
                    e.owner == s && e.fighter() && doctrine::dist(e.at, at) <= CONTACT_INCHES + EPSILON
                })
            };
            if close(1 - owner) && !close(owner) {
                let (turn, name) = (self.turn, u.name());
                if let Some(u) = self.stands.get_mut(i) {
                    u.status = Status::Out(Fate::Captured);
                }
                self.log
                    .say(turn, || format!("the enemy reaches {name}, unescorted: taken"));
            }
        }
    }

    pub(super) fn outcome(self, seed: u64) -> Outcome {
        let board = &self.board;
        let endings = self.stands.iter().map(|u| {
            let enemy = 1 - u.side.min(1);
            let fate = match u.status {
                Status::Waiting => Fate::NotEngaged,
                Status::Out(f) => f,
                Status::Fighting if u.is_gun() => {
                    if u.owner != u.side || (!u.crewed && u.held_by == Some(enemy)) {
                        Fate::Captured
                    } else {
                        Fate::Stood
                    }
                }
                Status::Fighting if u.troop.is_some() && u.units == 0 => Fate::Destroyed,
                Status::Fighting => Fate::Stood,
            };
            let after = match fate {
                Fate::NotEngaged => u.before(),
                Fate::Destroyed | Fate::Captured => 0,
                // A gun left crewless that the enemy did not take gets fresh
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
            RuleSetId::Scruby1961,
            seed,
            self.clock.fought,
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
    }
}
