//! The battle: the stands on the table, the Sequence of Action, the result.
//!
//! Positions here are in inches of table (the scenario's cells times
//! `cell_inches`), so the seed's moves and ranges apply as printed (times
//! the small-table scale).

use super::{
    CANISTER_INCHES, CONTACT_INCHES, GUN_HITS_TO_DESTROY, GUN_MOVE_AND_FIRE_INCHES, Going, PURSUED_FACTOR,
    RANK_INCHES, RETIRE_MOVES, Troop, artillery_range, attacker_position_factor, canister_factor,
    caught_in_flank, cavalry_may_charge, counter_battery_hit, defensive_fire_factor, flank_factors,
    greater_loss, house_attackers_allowed, house_defence_factor, melee_ranks, models_at, morale_value,
    move_inches, musket_range, rank_factor, slope_inches, stand_share, table_scale, troop_for,
};
use crate::model::RuleSetId;
use crate::rules::board::{Board, Point};
use crate::rules::dice::Dice;
use crate::rules::doctrine;
use crate::rules::engine::{self, Clock, Ending, Member, Roster, Turns};
use crate::rules::{Fate, Log, Outcome};
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

/// A defender off strong ground goes to meet an enemy this many times
/// the attacker's engaging distance away (this program's doctrine).
const ENGAGE_FACTOR: f64 = 2.0;

/// Throws of the morale dice before a tie goes to the defender (this
/// program's: the seed throws until one side is higher).
const MAX_RETHROWS: u32 = 20;

use crate::rules::engine::Status;

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
    /// Its place relative to its side's deployment centre, in inches.
    offset: Point,
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
    board: Board,
    dice: Dice,
    log: Log,
    turn: u32,
    clock: Clock,
    /// The side that moved first this game move.
    first: usize,
    scale: f64,
    /// Whether any cell blocks sight (if none, every line is clear).
    blocking: bool,
    /// Whether each side has cavalry on the table (squares are formed only then).
    cavalry: [bool; 2],
    sides: [Side<'a>; 2],
    units: Roster<'a, Point, Stand>,
    links: Vec<Link>,
    /// Stands killed this fire phase.
    killed: Vec<usize>,
    /// Pools of kill shares per target stand, against 2, 3 and 4 models.
    pools: Vec<[f64; 3]>,
    parent: Vec<usize>,
    /// Scratch for musket fire: (firer, enemy in reach, squared distance).
    seen: Vec<(usize, usize, f64)>,
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
    pub(super) fn new(scenario: &'a Scenario, seed: u64, keep_log: bool) -> Battle<'a> {
        let board = Board::new(scenario);
        let inches = board.cell_inches;
        let scale = table_scale(f64::from(board.depth) * inches);
        let side_of = |i: usize| -> Side<'a> {
            let me = scenario.sides.get(i);
            let home = me.map_or((0.0, 0.0), |s| s.deployment.centre());
            let away = scenario
                .sides
                .get(1 - i)
                .map_or((0.0, 0.0), |s| s.deployment.centre());
            let g = doctrine::goal(&board, scenario, i);
            Side {
                name: me.map_or("", |s| s.name.as_str()),
                role: me.map_or(Role::Attacker, |s| s.role),
                goal: (g.0 * inches, g.1 * inches),
                rear: unit_vec((home.0 - away.0, home.1 - away.1)),
            }
        };
        let sides = [side_of(0), side_of(1)];
        let mut units = Roster::default();
        for i in 0..scenario.sides.len().min(2) {
            let centre = scenario
                .sides
                .get(i)
                .map_or((0.0, 0.0), |s| s.deployment.centre());
            units.place_side(&board, scenario, i, |start, placed| {
                let mut u = stand(start.stand);
                u.post = placed.post;
                if start.arrives == 0 {
                    u.offset = ((start.at.0 - centre.0) * inches, (start.at.1 - centre.1) * inches);
                }
                u
            });
        }
        let n = units.len();
        let mut b = Battle {
            scenario,
            board,
            dice: Dice::new(seed),
            log: Log::new(keep_log),
            turn: 0,
            clock: Clock::default(),
            first: 0,
            scale,
            blocking: scenario
                .table
                .cells()
                .iter()
                .any(crate::scenario::Cell::blocks_sight),
            cavalry: [false; 2],
            sides,
            units,
            links: Vec::new(),
            killed: Vec::new(),
            pools: vec![[0.0; 3]; n],
            parent: (0..n).collect(),
            seen: Vec::new(),
        };
        b.log.say(0, || {
            format!("table scale {scale:.2}: moves and ranges as printed times {scale:.2}")
        });
        b
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

    fn cell(&self, p: Point) -> crate::scenario::Cell {
        let ci = self.board.cell_inches;
        self.board.cell_at((p.0 / ci, p.1 / ci))
    }

    /// Houses, woods, walls, hedges, entrenchments (Musket Fire 3).
    fn defensive(&self, p: Point) -> bool {
        let c = self.cell(p);
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

    /// The nearest enemy combatant satisfying `ok`, and its distance.
    fn nearest_enemy(&self, i: usize, ok: impl Fn(&Unit<'_>) -> bool) -> Option<(usize, f64)> {
        let me = self.u(i)?;
        let mut best: Option<(usize, f64)> = None;
        for (j, e) in self.units.iter().enumerate() {
            if e.side == me.side || !e.combatant() {
                continue;
            }
            let (dx, dy) = (e.at.0 - me.at.0, e.at.1 - me.at.1);
            let d2 = dx * dx + dy * dy;
            if best.is_none_or(|(_, b)| d2 < b - EPSILON) && ok(e) {
                best = Some((j, d2));
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
        !self.units.iter().enumerate().any(|(j, f)| {
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
        for _ in 0..MAX_RETHROWS {
            let (a, b) = (self.dice.d6(), self.dice.d6());
            if a != b {
                return usize::from(b > a);
            }
        }
        usize::from(self.side(1).role == Role::Attacker)
    }

    /// Moves stand `i` up to its allowance toward `to`, stopping `short`
    /// inches from it; road and slope by the Movement chart.
    fn advance(&mut self, i: usize, to: Point, going: Going, short: f64) {
        let Some(u) = self.u(i) else { return };
        let from = u.at;
        let d = doctrine::dist(from, to) - short;
        if d <= EPSILON {
            return;
        }
        let mut going = going;
        let start = self.cell(from);
        let base = u.move_of(going) * self.scale;
        let probe = doctrine::step_toward(from, to, base.min(d));
        if going == Going::Column && start.road && self.cell(probe).road {
            going = Going::Road;
        }
        let mut allowance = u.move_of(going) * self.scale;
        let end_level = self.cell(doctrine::step_toward(from, to, allowance.min(d))).level;
        if let Some(t) = u.troop
            && end_level != start.level
        {
            allowance = (allowance + slope_inches(t, end_level > start.level) * self.scale).max(0.0);
        }
        let mut dest = doctrine::step_toward(from, to, allowance.min(d));
        // Water stops a stand at its edge (no chart figure: it does not cross).
        let mut tries = 0;
        while self.cell(dest).is_water() && tries < 8 {
            dest = ((dest.0 + from.0) / 2.0, (dest.1 + from.1) / 2.0);
            tries += 1;
        }
        if self.cell(dest).is_water() || !self.on_table(dest) {
            return;
        }
        if let Some(u) = self.units.get_mut(i) {
            u.moved += doctrine::dist(from, dest);
            u.at = dest;
        }
    }

    fn move_side(&mut self, side: usize) {
        for i in 0..self.units.len() {
            if self.u(i).is_some_and(|u| u.side == side && u.fighting()) {
                self.move_stand(i);
            }
        }
    }

    /// The doctrine's move for stand `i`.
    fn move_stand(&mut self, i: usize) {
        let Some(u) = self.u(i) else { return };
        let (side, role, post) = (u.side, self.side(u.side).role, u.post);
        let goal = post.unwrap_or(self.side(side).goal);
        // The attacker's line keeps its frontage: each stand makes for the
        // goal shifted by its own place across the line.
        let goal = if post.is_none() {
            let f = self.facing(side);
            let lateral = u.offset.0 * f.1 - u.offset.1 * f.0;
            (goal.0 + lateral * f.1, goal.1 - lateral * f.0)
        } else {
            goal
        };
        let Some(troop) = u.troop else {
            // Command and transport follow the middle of their side.
            let mut n = 0.0;
            let mut c = (0.0, 0.0);
            for f in self.units.iter().filter(|f| f.side == side && f.combatant()) {
                c = (c.0 + f.at.0, c.1 + f.at.1);
                n += 1.0;
            }
            if n > 0.0 {
                self.advance(i, (c.0 / n, c.1 / n), Going::Open, RANK_INCHES);
            }
            return;
        };
        if let Charge::Pursuit(t) = u.charge {
            // Pursuers follow the beaten troops into contact.
            if let Some(at) = self.u(t).filter(|t| t.fighting()).map(|t| t.at) {
                self.advance(i, at, Going::Column, CONTACT_INCHES);
            }
            return;
        }
        if u.shaken_until >= self.turn {
            return; // "no forward movement or offensive action for one game move"
        }
        let nearest = self.nearest_enemy(i, |_| true);
        if troop.is_infantry() && u.formation == Formation::Square && self.threatened_by_cavalry(i) {
            return; // the square stands
        }
        let range = musket_range(troop, 0).unwrap_or(6.0) * self.scale;
        let reach = move_inches(troop, Going::Column) * self.scale;
        let far = range + reach + move_inches(troop, Going::Open) * self.scale;
        let at = self.u(i).map_or((0.0, 0.0), |u| u.at);
        let formation = match nearest {
            Some((_, d)) if d <= far + EPSILON => Formation::Line,
            _ => Formation::Column,
        };
        if let Some(u) = self.units.get_mut(i) {
            u.formation = formation;
        }
        let going = if formation == Formation::Column {
            Going::Column
        } else {
            Going::Open
        };
        // The defender holds its post; off good ground, it meets an enemy
        // come close as the attacker does.
        let near = |reach: f64| nearest.is_some_and(|(_, d)| d <= reach + EPSILON);
        let strong_post = post.is_some_and(|p| self.defensive(p));
        let hold = |engaged: bool| role == Role::Defender && post.is_some() && (strong_post || !engaged);
        match troop {
            Troop::Artillery => {
                let gun_range = artillery_range(self.cell(at).level) * self.scale;
                let in_range = nearest.is_some_and(|(_, d)| d <= gun_range);
                if hold(near(gun_range * ENGAGE_FACTOR)) || in_range {
                    if !in_range {
                        self.advance(i, goal, going, 0.0);
                    }
                } else {
                    let to = nearest.and_then(|(j, _)| self.u(j)).map_or(goal, |e| e.at);
                    self.advance(i, to, going, gun_range - 1.0);
                }
            }
            Troop::LightCavalry | Troop::HeavyCavalry => {
                let standoff = 6.0 * self.scale + CAVALRY_STANDOFF_INCHES;
                if hold(near((standoff + reach) * ENGAGE_FACTOR)) {
                    self.advance(i, goal, going, 0.0);
                } else {
                    let to = nearest.and_then(|(j, _)| self.u(j)).map_or(goal, |e| e.at);
                    self.advance(i, to, going, standoff);
                }
            }
            _ => {
                let engage = if role == Role::Defender {
                    far * ENGAGE_FACTOR
                } else {
                    far
                };
                if hold(near(engage)) {
                    self.advance(i, goal, going, 0.0);
                } else {
                    match nearest {
                        Some((j, d)) if d <= engage + EPSILON => {
                            let to = self.u(j).map_or(goal, |e| e.at);
                            self.advance(i, to, going, reach.min(range));
                        }
                        _ => self.advance(i, goal, going, 0.0),
                    }
                }
            }
        }
    }

    /// A rough fighting value of the stands of `side` within `radius` of
    /// `at`, for the doctrine's choice of charges.
    fn strength_near(&self, side: usize, at: Point, radius: f64, attacking_position: bool) -> f64 {
        let r2 = (radius + EPSILON) * (radius + EPSILON);
        let mut sum = 0.0;
        for u in &self.units {
            if u.side != side || !u.combatant() {
                continue;
            }
            let (dx, dy) = (u.at.0 - at.0, u.at.1 - at.1);
            if dx * dx + dy * dy <= r2 {
                let elite = u.troop.is_some_and(Troop::is_elite);
                sum += if attacking_position && !elite {
                    u.power * 0.5
                } else {
                    u.power
                };
            }
        }
        sum
    }

    /// The doctrine's value of stand `t` and its friends within 2 inches,
    /// 50% more in a house; kept in `cache`.
    fn defence_near(&self, t: usize, cache: &mut [Option<f64>]) -> f64 {
        if let Some(Some(v)) = cache.get(t) {
            return *v;
        }
        let Some(e) = self.u(t) else { return 0.0 };
        let v = self.strength_near(e.side, e.at, 2.0 * self.scale, false)
            * house_defence_factor(self.house(e.at));
        if let Some(c) = cache.get_mut(t) {
            *c = Some(v);
        }
        v
    }

    /// Fire and charge, and special cavalry charges, ordered before combat.
    fn orders(&mut self) {
        self.form_squares();
        // The defence of each stand charged, worked out once.
        let mut cache: Vec<Option<f64>> = vec![None; self.units.len()];
        for i in 0..self.units.len() {
            if !self.can_act(i) {
                continue;
            }
            let Some(u) = self.u(i) else { continue };
            let Some(troop) = u.troop else { continue };
            if u.formation == Formation::Square || matches!(u.charge, Charge::Pursuit(_)) {
                continue;
            }
            let (side, at) = (u.side, u.at);
            let reach = move_inches(troop, Going::Column) * self.scale + CONTACT_INCHES;
            if troop.is_cavalry() {
                let ok = |e: &Unit<'_>| {
                    !e.is(Troop::is_infantry)
                        || cavalry_may_charge(false, e.formation == Formation::Square, false)
                };
                let Some((t, d)) = self.nearest_enemy(i, ok) else {
                    continue;
                };
                let target = self.u(t).map_or(at, |e| e.at);
                if d > reach + EPSILON
                    || (self.u(t).is_some_and(|e| e.is(Troop::is_infantry)) && self.walls_or_woods(target))
                {
                    continue;
                }
                let position = self.defensive(target);
                let mine = self.strength_near(side, at, RANK_INCHES * 2.0, position);
                let theirs = self.defence_near(t, &mut cache);
                if doctrine::charge_favoured(mine, theirs) {
                    self.set_charge(i, Charge::Cavalry(t));
                    if let Some(e) = self.units.get_mut(t) {
                        e.withhold = true;
                    }
                    let (me, them) = (self.name(i), self.name(t));
                    self.log
                        .say(self.turn, || format!("{me} order a cavalry charge at {them}"));
                }
            } else if let Some(range) = musket_range(troop, self.cell(at).level) {
                let Some((t, d)) = self.nearest_enemy(i, |_| true) else {
                    continue;
                };
                if d > (range * self.scale).min(reach) + EPSILON {
                    continue;
                }
                let target = self.u(t).map_or(at, |e| e.at);
                let position = self.defensive(target);
                let mine = self.strength_near(side, at, RANK_INCHES * 2.0, position);
                let theirs = self.defence_near(t, &mut cache);
                if doctrine::charge_favoured(mine, theirs) {
                    self.set_charge(i, Charge::Volley(t));
                    let (me, them) = (self.name(i), self.name(t));
                    self.log
                        .say(self.turn, || format!("{me} call 'fire and charge' at {them}"));
                }
            }
        }
    }

    /// Infantry within an enemy cavalry charge, and no enemy infantry near,
    /// form square "at the double" (The Melee 3.2); others leave square.
    fn form_squares(&mut self) {
        for i in 0..self.units.len() {
            let Some(u) = self.u(i) else { continue };
            if !(u.combatant() && u.is(Troop::is_infantry)) || matches!(u.charge, Charge::Pursuit(_)) {
                continue;
            }
            let (at, was) = (u.at, u.formation);
            let square = self.threatened_by_cavalry(i) && !self.walls_or_woods(at);
            if square != (was == Formation::Square) {
                if let Some(u) = self.units.get_mut(i) {
                    u.formation = if square {
                        Formation::Square
                    } else {
                        Formation::Line
                    };
                }
                if square {
                    let name = self.name(i);
                    self.log
                        .say(self.turn, || format!("{name} form square against cavalry"));
                }
            }
        }
    }

    /// Enemy cavalry within a charge of stand `i`, and no enemy infantry
    /// within half again its musket range.
    fn threatened_by_cavalry(&self, i: usize) -> bool {
        let enemy = self.u(i).map_or(0, |u| 1 - u.side.min(1));
        if !self.cavalry.get(enemy).copied().unwrap_or(false) {
            return false;
        }
        let Some(me) = self.u(i) else { return false };
        let mut threat = false;
        for e in &self.units {
            if e.side == me.side || !e.combatant() {
                continue;
            }
            let Some(t) = e.troop else { continue };
            let d = doctrine::dist(me.at, e.at);
            if t.is_infantry() && d <= 6.0 * self.scale * 1.5 {
                return false;
            }
            if t.is_cavalry() && d <= move_inches(t, Going::Column) * self.scale + CONTACT_INCHES + 2.0 {
                threat = true;
            }
        }
        threat
    }

    fn set_charge(&mut self, i: usize, c: Charge) {
        if let Some(u) = self.units.get_mut(i) {
            u.charge = c;
        }
    }

    /// Command and transport an enemy reaches with no friend beside them.
    fn captures(&mut self) {
        for i in 0..self.units.len() {
            let Some(u) = self.u(i) else { continue };
            if !(u.fighting() && u.troop.is_none()) {
                continue;
            }
            let near = |s: usize| {
                self.units.iter().any(|e| {
                    e.side == s && e.combatant() && doctrine::dist(u.at, e.at) <= RANK_INCHES + EPSILON
                })
            };
            if near(1 - u.side) && !near(u.side) {
                let name = u.name();
                if let Some(u) = self.units.get_mut(i) {
                    u.status = Status::Out(Fate::Captured);
                }
                self.log.say(self.turn, || {
                    format!("the enemy reaches {name}, unescorted: taken")
                });
            }
        }
    }

    /// The stands a kill at `primary` may fall on: it, then its friends in
    /// the fight, nearest first.
    fn victims(&self, primary: usize) -> Vec<usize> {
        let Some(p) = self.u(primary) else {
            return Vec::new();
        };
        let mut v: Vec<(f64, usize)> = self
            .units
            .iter()
            .enumerate()
            .filter(|(j, e)| {
                *j != primary
                    && e.side == p.side
                    && e.combatant()
                    && doctrine::dist(e.at, p.at) <= FIGHT_INCHES * self.scale.max(0.5) + EPSILON
            })
            .map(|(j, e)| (doctrine::dist(e.at, p.at), j))
            .collect();
        v.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        std::iter::once(primary)
            .chain(v.into_iter().map(|x| x.1))
            .collect()
    }

    /// Takes the kills of `pool` (shares against 2, 3 and 4 models) from
    /// `victims` in order; marks them in `out`, skipping stands already in it.
    fn take_kills(&self, mut pool: [f64; 3], victims: &[usize], out: &mut Vec<usize>) {
        for &v in victims {
            if out.contains(&v) {
                continue;
            }
            let Some(u) = self.u(v) else { continue };
            let k = pool_index(u.models);
            let f = pool.get(k).copied().unwrap_or(0.0);
            if f >= 1.0 - 1e-9 {
                out.push(v);
                let keep = (f - 1.0).max(0.0) / f;
                for p in &mut pool {
                    *p *= keep;
                }
            } else {
                if f > 0.5 + 1e-9 {
                    out.push(v);
                }
                return;
            }
        }
    }

    fn shares(troop: Troop, models: u32, factor: f64) -> [f64; 3] {
        [2, 3, 4].map(|m| stand_share(troop, models, m) * factor)
    }

    fn remove(&mut self, i: usize, how: &str) {
        let name = self.name(i);
        if let Some(u) = self.units.get_mut(i) {
            u.status = Status::Out(Fate::Destroyed);
            u.charge = Charge::None;
        }
        self.log.say(self.turn, || format!("{name} {how}"));
    }

    /// 2. Artillery fire.
    fn artillery(&mut self) {
        for p in &mut self.pools {
            *p = [0.0; 3];
        }
        let mut canister = vec![false; self.units.len()];
        let mut targets = Vec::new();
        let mut silenced = Vec::new();
        for i in 0..self.units.len() {
            let Some(u) = self.u(i) else { continue };
            if !(self.can_act(i) && u.is(|t| t == Troop::Artillery)) {
                continue;
            }
            if u.moved > GUN_MOVE_AND_FIRE_INCHES * self.scale + EPSILON {
                continue;
            }
            let (at, side) = (u.at, u.side);
            let range = artillery_range(self.cell(at).level) * self.scale;
            let visible = |e: &Unit<'_>| doctrine::dist(at, e.at) <= range + EPSILON && self.sight(at, e.at);
            let target = self
                .nearest_enemy(i, |e| !e.is(|t| t == Troop::Artillery) && visible(e))
                .or_else(|| self.nearest_enemy(i, |e| visible(e)));
            let Some((t, d)) = target else { continue };
            self.links.push(Link { a: i, b: t, by: side });
            let Some(e) = self.u(t) else { continue };
            if e.is(|t| t == Troop::Artillery) {
                // 3. Counter-battery: four hits destroy a gun.
                let face = self.dice.d6();
                let hit = counter_battery_hit(face);
                let (me, them) = (self.name(i), self.name(t));
                let hits = if let Some(e) = self.units.get_mut(t) {
                    e.gun_hits += u32::from(hit);
                    e.gun_hits
                } else {
                    0
                };
                self.log.say(self.turn, || {
                    format!(
                        "{me} fire on the gun {them}: {face}, {}",
                        if hit {
                            format!("a hit ({hits})")
                        } else {
                            "a miss".to_owned()
                        }
                    )
                });
                if hits >= GUN_HITS_TO_DESTROY && !silenced.contains(&t) {
                    silenced.push(t);
                }
                continue;
            }
            let close = d <= CANISTER_INCHES * self.scale + EPSILON;
            let factor =
                canister_factor(close) * defensive_fire_factor(Troop::Artillery, self.defensive(e.at));
            let add = Self::shares(Troop::Artillery, 4, factor);
            if let Some(p) = self.pools.get_mut(t) {
                for (a, b) in p.iter_mut().zip(add) {
                    *a += b;
                }
            }
            if close && let Some(c) = canister.get_mut(t) {
                *c = true;
            }
            if !targets.contains(&t) {
                targets.push(t);
            }
        }
        for g in silenced {
            if self.u(g).is_some_and(Unit::fighting) {
                self.killed.push(g);
                self.remove(g, "is destroyed by counter-battery fire");
            }
        }
        for t in targets {
            let pool = self.pools.get(t).copied().unwrap_or([0.0; 3]);
            let mut dead = Vec::new();
            if pool.iter().any(|&p| p > 0.5) {
                self.take_kills(pool, &self.victims(t), &mut dead);
            }
            for v in dead {
                self.killed.push(v);
                if canister.get(t).copied().unwrap_or(false) {
                    if let Some(u) = self.units.get_mut(v) {
                        u.doomed = true;
                    }
                    let name = self.name(v);
                    self.log
                        .say(self.turn, || format!("{name} is cut down by canister"));
                } else {
                    self.remove(v, "is killed by artillery fire");
                }
            }
        }
    }

    /// 3. Musket fire, simultaneous; then canister's dead go too.
    fn musket(&mut self) {
        for p in &mut self.pools {
            *p = [0.0; 3];
        }
        let mut targets = Vec::new();
        // Who can fire at whom: the doctrine concentrates each side's fire
        // on the enemy stand most of its firers reach (then the nearest).
        // (firer, enemy in reach, distance), grouped by firer.
        let mut seen = std::mem::take(&mut self.seen);
        seen.clear();
        let mut exposure = vec![0_u32; self.units.len()];
        for i in 0..self.units.len() {
            let Some(u) = self.u(i) else { continue };
            if !self.can_act(i) || u.withhold {
                continue;
            }
            let Some(troop) = u.troop else { continue };
            let Some(range) = musket_range(troop, self.cell(u.at).level) else {
                continue;
            };
            let (at, side) = (u.at, u.side);
            let range = range * self.scale;
            for (j, e) in self.units.iter().enumerate() {
                if e.side == side || !e.combatant() {
                    continue;
                }
                let (dx, dy) = (e.at.0 - at.0, e.at.1 - at.1);
                let d2 = dx * dx + dy * dy;
                if d2 <= (range + EPSILON) * (range + EPSILON) && self.sight(at, e.at) {
                    seen.push((i, j, d2));
                    if let Some(x) = exposure.get_mut(j) {
                        *x += 1;
                    }
                }
            }
        }
        let mut start = 0;
        while start < seen.len() {
            let i = seen.get(start).map_or(0, |x| x.0);
            let end = seen
                .iter()
                .skip(start)
                .position(|x| x.0 != i)
                .map_or(seen.len(), |n| start + n);
            let options = seen.get(start..end).unwrap_or(&[]);
            start = end;
            let Some(u) = self.u(i) else { continue };
            let Some(troop) = u.troop else { continue };
            let (at, side, models, column) = (u.at, u.side, u.models, u.formation == Formation::Column);
            let best = options.iter().map(|x| (x.1, x.2)).max_by(|a, b| {
                let (ea, eb) = (
                    exposure.get(a.0).copied().unwrap_or(0),
                    exposure.get(b.0).copied().unwrap_or(0),
                );
                ea.cmp(&eb).then(b.1.total_cmp(&a.1)).then(b.0.cmp(&a.0))
            });
            let Some((t, _)) = best else { continue };
            let tat = self.u(t).map_or(at, |e| e.at);
            let ranks = if column { 0.5 } else { 1.0 };
            let factor = ranks * defensive_fire_factor(troop, self.defensive(tat));
            let add = Self::shares(troop, models, factor);
            if let Some(p) = self.pools.get_mut(t) {
                for (a, b) in p.iter_mut().zip(add) {
                    *a += b;
                }
            }
            self.links.push(Link { a: i, b: t, by: side });
            if !targets.contains(&t) {
                targets.push(t);
            }
        }
        self.seen = seen;
        let mut dead = Vec::new();
        for &t in &targets {
            let pool = self.pools.get(t).copied().unwrap_or([0.0; 3]);
            if pool.iter().any(|&p| p > 0.5) {
                self.take_kills(pool, &self.victims(t), &mut dead);
            }
        }
        for v in dead {
            if !self.killed.contains(&v) {
                self.killed.push(v);
            }
            self.remove(v, "is killed by musket fire");
        }
        for i in 0..self.units.len() {
            if self.u(i).is_some_and(|u| u.doomed && u.fighting()) {
                self.remove(i, "falls to the canister");
            }
        }
    }

    /// 3.1 Fire and charge: the chargers who fired advance into contact.
    fn fire_and_charge(&mut self) {
        // The side that moved first charges first.
        let order: Vec<usize> = self.target_order().into_iter().rev().collect();
        for i in order {
            let Some(u) = self.u(i) else { continue };
            let Charge::Volley(t) = u.charge else { continue };
            if !u.combatant() {
                continue;
            }
            let reach = u.move_of(Going::Column) * self.scale + CONTACT_INCHES;
            match self.u(t) {
                Some(e) if e.combatant() && self.dist(i, t) <= reach + EPSILON => {
                    let (to, by) = (e.at, u.side);
                    self.close_in(i, to);
                    self.links.push(Link { a: i, b: t, by });
                }
                _ => self.set_charge(i, Charge::None),
            }
        }
    }

    /// Puts stand `i` in contact with a stand at `to`.
    fn close_in(&mut self, i: usize, to: Point) {
        if let Some(u) = self.units.get_mut(i) {
            let d = doctrine::dist(u.at, to);
            if d > CONTACT_INCHES {
                let at = doctrine::step_toward(u.at, to, d - CONTACT_INCHES);
                u.moved += doctrine::dist(u.at, at);
                u.at = at;
            }
        }
    }

    fn find(&mut self, mut x: usize) -> usize {
        while let Some(&p) = self.parent.get(x) {
            if p == x {
                break;
            }
            let gp = self.parent.get(p).copied().unwrap_or(p);
            if let Some(slot) = self.parent.get_mut(x) {
                *slot = gp;
            }
            x = gp;
        }
        x
    }

    /// 4. Post-volley morale, fight by fight.
    fn judge_fire(&mut self) {
        if self.links.is_empty() {
            return;
        }
        for (i, p) in self.parent.iter_mut().enumerate() {
            *p = i;
        }
        let links = std::mem::take(&mut self.links);
        for l in &links {
            let (ra, rb) = (self.find(l.a), self.find(l.b));
            if let Some(p) = self.parent.get_mut(ra) {
                *p = rb;
            }
        }
        let n = self.units.len();
        let root_of: Vec<usize> = (0..n).map(|i| self.find(i)).collect();
        let mut roots: Vec<usize> = Vec::new();
        for l in &links {
            let r = root_of.get(l.a).copied().unwrap_or(usize::MAX);
            if !roots.contains(&r) {
                roots.push(r);
            }
        }
        for root in roots {
            let members: Vec<usize> = (0..n).filter(|&i| root_of.get(i) == Some(&root)).collect();
            let mut fired = [false; 2];
            for l in &links {
                if root_of.get(l.a) == Some(&root)
                    && let Some(f) = fired.get_mut(l.by)
                {
                    *f = true;
                }
            }
            let killed: Vec<usize> = members
                .iter()
                .copied()
                .filter(|m| self.killed.contains(m))
                .collect();
            let alive: Vec<usize> = members
                .iter()
                .copied()
                .filter(|&m| self.u(m).is_some_and(Unit::combatant))
                .collect();
            if killed.is_empty() && !(fired[0] && fired[1]) {
                continue;
            }
            // Rule 5: attacking defensive positions by fire, no morale.
            let held = |s: usize| {
                let mut mine = alive
                    .iter()
                    .filter_map(|&m| self.u(m))
                    .filter(|u| u.side == s)
                    .peekable();
                mine.peek().is_some() && mine.all(|u| self.defensive(u.at))
            };
            if held(0) || held(1) {
                continue;
            }
            self.judge(&alive, &killed, [false, false], "the firefight");
        }
        self.links = links;
        self.links.clear();
    }

    /// Judges the morale of one fight: the stands `alive` in it, those
    /// `killed`; `position` says which sides hold a defensive position.
    /// Returns the loser; its stands retire.
    fn judge(&mut self, alive: &[usize], killed: &[usize], position: [bool; 2], what: &str) -> Option<usize> {
        let mut loss = [0_u32; 2];
        for &k in killed {
            if let Some(u) = self.u(k)
                && let Some(l) = loss.get_mut(u.side)
            {
                *l += u.weight();
            }
        }
        let mut models = [0_u32; 2];
        for &a in alive {
            if let Some(u) = self.u(a)
                && let Some(m) = models.get_mut(u.side)
            {
                *m += u.models * u.weight();
            }
        }
        let [s0, s1] = models;
        let [p0, p1] = position;
        let loser = match greater_loss(loss) {
            Some(l) => Some(l),
            None if s0 == 0 && s1 == 0 => None,
            None => {
                let mut loser = usize::from(self.side(0).role == Role::Defender);
                let (n0, n1) = (self.side(0).name, self.side(1).name);
                for _ in 0..MAX_RETHROWS {
                    let (f0, f1) = (self.dice.d6(), self.dice.d6());
                    let (v0, v1) = (morale_value(s0, f0, p0), morale_value(s1, f1, p1));
                    self.log.say(self.turn, || {
                        format!(
                            "equal losses in {what}: {} {s0} models x {f0} = {v0}, {} {s1} models x {f1} = {v1}",
                            n0, n1
                        )
                    });
                    if (v0 - v1).abs() > EPSILON {
                        loser = usize::from(v1 < v0);
                        break;
                    }
                }
                Some(loser)
            }
        };
        let loser = loser?;
        let (winner_name, loser_name) = (self.side(1 - loser).name, self.side(loser).name);
        let [l0, l1] = loss;
        self.log.say(self.turn, || {
            format!("{loser_name} lose {what} ({l0} to {l1} stands lost); {winner_name} win the morale")
        });
        for &a in alive {
            if self.u(a).is_some_and(|u| u.side == loser && u.combatant()) {
                self.retire(a);
            }
        }
        Some(loser)
    }

    /// "Retire two regular moves to the rear" (Judging the Morale 2).
    fn retire(&mut self, i: usize) {
        let Some(u) = self.u(i) else { return };
        let rear = self.side(u.side).rear;
        let inches = f64::from(RETIRE_MOVES) * u.move_of(Going::Open) * self.scale;
        let to = (u.at.0 + rear.0 * inches, u.at.1 + rear.1 * inches);
        let off = !self.on_table(to);
        let (name, turn) = (u.name(), self.turn);
        self.log.say(turn, || {
            if off {
                format!("{name} retire off the table")
            } else {
                format!("{name} retire two moves ({inches:.1} inches)")
            }
        });
        let Some(u) = self.units.get_mut(i) else { return };
        u.charge = Charge::None;
        u.formation = Formation::Line;
        u.shaken_until = turn + 1;
        if off {
            u.status = Status::Out(Fate::Routed);
        } else if !self
            .board
            .cell_at((to.0 / self.board.cell_inches, to.1 / self.board.cell_inches))
            .is_water()
        {
            u.at = to;
        }
    }

    /// 5, 6. Melees of fire and charge and of pursuit, each judged.
    fn melees(&mut self) {
        let mut charged = vec![false; self.units.len()];
        for u in &self.units {
            if let Charge::Volley(x) | Charge::Pursuit(x) = u.charge
                && let Some(c) = charged.get_mut(x)
            {
                *c = true;
            }
        }
        for t in self.target_order() {
            if !charged.get(t).copied().unwrap_or(false) {
                continue;
            }
            let attackers: Vec<usize> = (0..self.units.len())
                .filter(|&i| {
                    self.u(i).is_some_and(|u| {
                        u.combatant()
                            && !u.fought
                            && matches!(u.charge, Charge::Volley(x) | Charge::Pursuit(x) if x == t)
                    })
                })
                .collect();
            if attackers.is_empty() {
                continue;
            }
            let ok = self.u(t).is_some_and(|e| e.combatant() && !e.fought);
            let reach_ok: Vec<usize> = attackers
                .iter()
                .copied()
                .filter(|&a| {
                    // Fire and charge: still in contact after the morale;
                    // pursuit: the beaten stand within the cavalry's move.
                    let reach = match self.u(a).map(|u| (u.charge, u.move_of(Going::Column))) {
                        Some((Charge::Pursuit(_), m)) => m * self.scale + CONTACT_INCHES,
                        _ => CONTACT_INCHES,
                    };
                    self.dist(a, t) <= reach + EPSILON
                })
                .collect();
            for &a in &attackers {
                self.set_charge(a, Charge::None);
            }
            if !ok || reach_ok.is_empty() {
                continue;
            }
            self.melee(&reach_ok, t, false);
        }
    }

    /// The stands charged, in the order their melees are fought: the
    /// charges of the side that moved first, then the other's.
    fn target_order(&self) -> Vec<usize> {
        let charged =
            |s: usize| (0..self.units.len()).filter(move |&i| self.u(i).is_some_and(|u| u.side == s));
        charged(1 - self.first).chain(charged(self.first)).collect()
    }

    /// 7. The special cavalry charges, after the regulation combat.
    fn cavalry_charges(&mut self) {
        let mut charged = vec![false; self.units.len()];
        for u in &self.units {
            if let Charge::Cavalry(x) = u.charge
                && let Some(c) = charged.get_mut(x)
            {
                *c = true;
            }
        }
        if !charged.contains(&true) {
            return;
        }
        for t in self.target_order() {
            if !charged.get(t).copied().unwrap_or(false) {
                continue;
            }
            let chargers: Vec<usize> = (0..self.units.len())
                .filter(|&i| {
                    self.u(i)
                        .is_some_and(|u| u.combatant() && !u.fought && u.charge == Charge::Cavalry(t))
                })
                .collect();
            for &c in &chargers {
                self.set_charge(c, Charge::None);
            }
            let Some(e) = self.u(t) else { continue };
            if chargers.is_empty() || !e.combatant() || e.fought {
                continue;
            }
            let mut chargers: Vec<usize> = chargers
                .into_iter()
                .filter(|&c| {
                    let reach =
                        self.u(c).map_or(0.0, |u| u.move_of(Going::Column)) * self.scale + CONTACT_INCHES;
                    self.dist(c, t) <= reach + EPSILON
                })
                .collect();
            if chargers.is_empty() {
                continue;
            }
            // Fire withheld for the charging cavalry (Special Moves 2.4.1).
            let side = e.side;
            let mut pool = [0.0; 3];
            let mut any = false;
            for j in 0..self.units.len() {
                let Some(f) = self.u(j) else { continue };
                if f.side != side || !f.combatant() || !f.withhold || f.shaken_until >= self.turn {
                    continue;
                }
                let Some(troop) = f.troop else { continue };
                let range = musket_range(troop, self.cell(f.at).level).unwrap_or(0.0) * self.scale;
                if chargers.iter().any(|&c| self.dist(j, c) <= range + EPSILON) {
                    let add = Self::shares(troop, f.models, 1.0);
                    for (a, b) in pool.iter_mut().zip(add) {
                        *a += b;
                    }
                    any = true;
                }
            }
            if any {
                let mut order: Vec<(f64, usize)> = chargers.iter().map(|&c| (self.dist(c, t), c)).collect();
                order.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
                let order: Vec<usize> = order.into_iter().map(|x| x.1).collect();
                let mut dead = Vec::new();
                self.take_kills(pool, &order, &mut dead);
                for d in &dead {
                    self.remove(*d, "is shot down charging");
                }
                chargers.retain(|c| !dead.contains(c));
            }
            if !chargers.is_empty() {
                self.melee(&chargers, t, true);
            }
        }
    }

    /// One melee: `attackers` at stand `t` and its close support.
    fn melee(&mut self, attackers: &[usize], t: usize, cavalry_charge: bool) {
        let Some(target) = self.u(t) else { return };
        let (side, tat) = (target.side, target.at);
        let square = target.formation == Formation::Square;
        let pursued = target.pursued;
        let house = self.house(tat);
        let position = self.defensive(tat);
        for &a in attackers {
            self.close_in(a, tat);
        }
        let first = attackers.first().copied().unwrap_or(t);
        let caught = !square
            && self
                .u(first)
                .is_some_and(|a| caught_in_flank(tat, self.facing(side), a.at));
        // Close support: "not over one 'open' move away from the melee".
        let support = move_inches(Troop::Fusilier, Going::Open) * self.scale + CONTACT_INCHES;
        let mut defenders: Vec<(f64, usize)> = self
            .units
            .iter()
            .enumerate()
            .filter(|(j, u)| {
                u.side == side
                    && u.combatant()
                    && !u.fought
                    && (*j == t || doctrine::dist(u.at, tat) <= support + EPSILON)
            })
            .map(|(j, u)| (doctrine::dist(u.at, tat), j))
            .collect();
        defenders.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let mut defenders: Vec<usize> = defenders.into_iter().map(|x| x.1).collect();
        let mut attackers: Vec<usize> = attackers.to_vec();
        attackers.sort_by(|&a, &b| self.dist(a, t).total_cmp(&self.dist(b, t)).then(a.cmp(&b)));
        let n_def = u32::try_from(defenders.len()).unwrap_or(u32::MAX);
        let column = !cavalry_charge
            && attackers
                .iter()
                .any(|&a| self.u(a).is_some_and(|u| u.is(Troop::is_infantry)));
        let cap = if house {
            house_attackers_allowed(n_def)
        } else {
            melee_ranks(column).saturating_mul(n_def)
        };
        attackers.truncate(usize::try_from(cap).unwrap_or(usize::MAX));
        if !square {
            let n_att = u32::try_from(attackers.len()).unwrap_or(u32::MAX);
            defenders
                .truncate(usize::try_from(melee_ranks(false).saturating_mul(n_att)).unwrap_or(usize::MAX));
        }
        let (att_flank, def_flank) = flank_factors(caught);
        let mut att_pool = [0.0; 3];
        for &a in &attackers {
            let Some(u) = self.u(a) else { continue };
            let Some(troop) = u.troop else { continue };
            let f = rank_factor(self.single_rank(a)) * attacker_position_factor(troop, position) * att_flank;
            for (p, s) in att_pool.iter_mut().zip(Self::shares(troop, u.models, f)) {
                *p += s;
            }
        }
        let mut def_pool = [0.0; 3];
        for &d in &defenders {
            let Some(u) = self.u(d) else { continue };
            let Some(troop) = u.troop else { continue };
            let half = if u.pursued { PURSUED_FACTOR } else { 1.0 };
            let f = rank_factor(self.single_rank(d)) * house_defence_factor(house) * def_flank * half;
            for (p, s) in def_pool.iter_mut().zip(Self::shares(troop, u.models, f)) {
                *p += s;
            }
        }
        let (me, them) = (self.name(first), self.name(t));
        let (na, nd) = (attackers.len(), defenders.len());
        self.log.say(self.turn, || {
            format!(
                "melee: {me} and {} more ({na} stands) against {them} ({nd} stands){}{}{}",
                na.saturating_sub(1),
                if caught { ", caught in flank" } else { "" },
                if house { ", in a house" } else { "" },
                if pursued { ", pursued at half value" } else { "" }
            )
        });
        let mut dead = Vec::new();
        self.take_kills(att_pool, &defenders, &mut dead);
        let mut dead_att = Vec::new();
        self.take_kills(def_pool, &attackers, &mut dead_att);
        dead.extend(dead_att);
        for &d in &dead {
            self.remove(d, "falls in the melee");
        }
        for &x in attackers.iter().chain(defenders.iter()) {
            if let Some(u) = self.units.get_mut(x) {
                u.fought = true;
                u.pursued = false;
            }
        }
        let alive: Vec<usize> = attackers
            .iter()
            .chain(defenders.iter())
            .copied()
            .filter(|&x| self.u(x).is_some_and(Unit::combatant))
            .collect();
        let mut pos = [false; 2];
        if let Some(p) = pos.get_mut(side) {
            *p = position;
        }
        let loser = self.judge(&alive, &dead, pos, "the melee");
        // Pursuit: winning cavalry follow the beaten stand.
        if loser == Some(side) && self.u(t).is_some_and(Unit::combatant) {
            let mut any = false;
            for &a in &attackers {
                if self
                    .u(a)
                    .is_some_and(|u| u.combatant() && u.is(Troop::is_cavalry))
                {
                    self.set_charge(a, Charge::Pursuit(t));
                    any = true;
                }
            }
            if any {
                if let Some(u) = self.units.get_mut(t) {
                    u.pursued = true;
                }
                self.log.say(self.turn, || format!("the cavalry pursue {them}"));
            }
        }
    }

    fn facing(&self, side: usize) -> Point {
        let r = self.side(side).rear;
        (-r.0, -r.1)
    }

    pub(super) fn outcome(self, seed: u64) -> Outcome {
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
            RuleSetId::ScrubyBasic,
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
        self.orders();
        self.captures();
        // 2. Artillery fires. 3. Musket fire. 3.1 Fire and charge.
        self.links.clear();
        self.killed.clear();
        self.artillery();
        self.musket();
        self.fire_and_charge();
        // 4. Post-volley morale.
        self.judge_fire();
        // 5, 6. Melees, and morale after each.
        self.melees();
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
        offset: (0.0, 0.0),
        power: troop.map_or(0.0, |tr| stand_share(tr, models_at(tr, t.strength, t.full), 4)),
    }
}
