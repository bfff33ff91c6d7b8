//! The battle: units on the grid, the turn sequence, fire, close combat and
//! the end. Units live in one `Vec`; an occupancy grid holds one fighting
//! unit a square (Generals and ADCs ride with a unit and hold no square).

use super::tables::{
    BayonetAnswer, CAVALRY_CHARGE, CAVALRY_MANOEUVRE, CavalryReply, Condition, FOOT_ARTILLERY_MOVE,
    FlagEffect, HORSE_ARTILLERY_MOVE, Hit, INFANTRY_MARCH, INFANTRY_TACTICAL, LEADER_MOVE, MUSKET_RANGE,
    SKIRMISH_DICE, SKIRMISHER_MOVE, SquareResult, Throw, Unit, artillery_fire, bayonet_answer,
    bayonet_return_dice, blocks_sight, casualty, cavalry_against_foot, cavalry_reply, cavalry_reply_dice,
    close_combat_dice, combat_value, condition, dice_for_condition, fire_at, flag_effect,
    forest_allows_skirmish_fire, halted, initiative, is_bua, may_engage, may_enter, must_stop, pursuit_dice,
    rallies, skirmish_falls_back, square_reply, strength_after, tactical_dice, terrain_move_cap,
    undecided_retire, unit_of, wounded_leaves,
};
use crate::model::{RuleSetId, StandKind};
use crate::rules::board::{Board, Point, centre, front_of, show, square_of};
use crate::rules::dice::Dice;
use crate::rules::engine::{self, Clock, Ending, Turns};
use crate::rules::{Fate, Log, Outcome, doctrine};
use crate::scenario::{Area, Cell, Role, Scenario, TableStand};

/// A square: (x, y).
pub type Square = (i32, i32);

const EMPTY: u32 = u32::MAX;
const FAR: u8 = u8::MAX;
const ORTHOGONAL: [Square; 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

/// The battle lasts the scenario's turns; the seed sets no limit.
const DEFAULT_TURNS: u32 = 12;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Waiting,
    On,
    /// Routed off, or a leader forced from the field by a wound.
    Gone,
    /// A leader killed.
    Killed,
}

#[derive(Debug, Clone)]
struct Piece<'a> {
    source: &'a TableStand,
    side: usize,
    unit: Unit,
    /// Tactical dice of its troop quality.
    quality: u32,
    cv_start: u32,
    cv: u32,
    at: Square,
    state: State,
    arrival: Option<(u32, Area)>,
    /// Dice lost to Flags this turn.
    penalty: u32,
    halted: bool,
    retiring: bool,
    limbered: bool,
    in_square: bool,
    moved: bool,
    attacked: bool,
    fought: bool,
    /// Turns of rest left after the horses were blown.
    blown: u8,
    /// Flags scored on it by enemy skirmishers this turn.
    skirmish_flags: u32,
    wounded: bool,
    /// A leader's unit.
    with: Option<usize>,
}

impl Piece<'_> {
    fn on(&self) -> bool {
        self.state == State::On
    }
    fn condition(&self) -> Condition {
        condition(self.cv_start, self.cv)
    }
    /// Tactical dice it throws now: quality, less one when Shaken, less the
    /// turn's Flags.
    fn dice(&self) -> u32 {
        dice_for_condition(self.quality, self.condition()).saturating_sub(self.penalty)
    }
    fn fighting(&self) -> bool {
        self.on() && self.unit.fights()
    }
    fn may_attack(&self) -> bool {
        self.fighting() && self.condition() == Condition::Fresh && !self.retiring && !self.halted
    }
}

/// A close combat that goes on into the next turn.
#[derive(Debug, Clone, Copy)]
struct Engagement {
    attacker: usize,
    defender: usize,
    round: u32,
    /// The square the attacker charged from.
    from: Square,
}

/// A cached nearest enemy: (version, square, enemy and distance).
type Nearest = (u32, Square, Option<(usize, u32)>);

/// A battle under Harman's rules.
#[derive(Debug, Clone)]
pub struct Battle<'a> {
    scenario: &'a Scenario,
    board: Board,
    width: i32,
    depth: i32,
    cells: Vec<Cell>,
    pieces: Vec<Piece<'a>>,
    grid: Vec<u32>,
    /// Per square: (the reach it was stamped by, its steps).
    dist: Vec<(u32, u8)>,
    stamp: u32,
    /// How far the last [`Battle::reach`] went.
    reach_radius: u8,
    /// Per side: its enemies' squares and indices, and per square whether
    /// an enemy is orthogonally next to it; rebuilt when stale.
    foes: [Vec<(Square, usize)>; 2],
    contact: [Vec<bool>; 2],
    stale: [bool; 2],
    /// Per side: bumped whenever its enemies move or fall.
    versions: [u32; 2],
    /// Per piece: (its side's version, its square, its nearest enemy).
    nearest: Vec<std::cell::Cell<Nearest>>,
    /// Whether any square can block sight (else every sight is clear).
    blind: bool,
    /// Lines of sight already traced: per square looked from, empty until
    /// first used, then per square and viewer class 0 (not yet), 1 (seen)
    /// or 2 (blocked). The terrain never changes within a battle.
    sight_memo: std::cell::RefCell<Vec<Vec<u8>>>,
    frontier: Vec<Square>,
    /// The squares the last [`Battle::reach`] reached, in order.
    reached: Vec<Square>,
    next: Vec<Square>,
    dice: Dice,
    log: Log,
    turn: u32,
    last_turn: u32,
    goals: [Point; 2],
    roles: [Role; 2],
    fronts: [Square; 2],
    /// Turns running each side has won the initiative.
    streaks: [u32; 2],
    engaged: Vec<Engagement>,
    clock: Clock,
    seed: u64,
}

impl<'a> Battle<'a> {
    pub fn new(scenario: &'a Scenario, seed: u64, keep_log: bool) -> Battle<'a> {
        let board = Board::new(scenario);
        let width = i32::try_from(board.width).unwrap_or(0);
        let depth = i32::try_from(board.depth).unwrap_or(0);
        let n = usize::try_from(width).unwrap_or(0) * usize::try_from(depth).unwrap_or(0);
        let role = |s: usize| scenario.sides.get(s).map_or(Role::Defender, |x| x.role);
        let mut b = Battle {
            scenario,
            goals: [
                doctrine::goal(&board, scenario, 0),
                doctrine::goal(&board, scenario, 1),
            ],
            board,
            width,
            depth,
            cells: scenario.table.cells(),
            pieces: Vec::new(),
            grid: vec![EMPTY; n],
            dist: vec![(0, FAR); n],
            stamp: 0,
            reach_radius: 0,
            foes: [Vec::new(), Vec::new()],
            contact: [vec![false; n], vec![false; n]],
            stale: [true, true],
            versions: [1, 1],
            nearest: Vec::new(),
            blind: scenario
                .table
                .cells()
                .iter()
                .any(|c| blocks_sight(c, Unit::FootArtillery, 0) || c.level > 0),
            sight_memo: std::cell::RefCell::new(vec![Vec::new(); n]),
            frontier: Vec::new(),
            reached: Vec::new(),
            next: Vec::new(),
            dice: Dice::new(seed),
            log: Log::new(keep_log),
            turn: 0,
            last_turn: if scenario.turn_limit == 0 {
                DEFAULT_TURNS
            } else {
                scenario.turn_limit
            },
            roles: [role(0), role(1)],
            fronts: [front_of(scenario, 0), front_of(scenario, 1)],
            streaks: [0, 0],
            engaged: Vec::new(),
            clock: Clock::default(),
            seed,
        };
        for s in 0..scenario.sides.len().min(2) {
            b.deploy_side(s);
        }
        b.nearest = vec![std::cell::Cell::new((0, (0, 0), None)); b.pieces.len()];
        b
    }

    pub fn is_over(&self) -> bool {
        self.clock.over
    }

    // ------------------------------------------------------------------------
    // Squares.

    fn slot(&self, sq: Square) -> Option<usize> {
        if sq.0 < 0 || sq.1 < 0 || sq.0 >= self.width || sq.1 >= self.depth {
            return None;
        }
        usize::try_from(sq.1 * self.width + sq.0).ok()
    }

    fn cell(&self, sq: Square) -> Cell {
        self.slot(sq)
            .and_then(|k| self.cells.get(k))
            .copied()
            .unwrap_or_default()
    }

    fn occupant(&self, sq: Square) -> Option<usize> {
        let v = self
            .slot(sq)
            .and_then(|k| self.grid.get(k))
            .copied()
            .unwrap_or(EMPTY);
        (v != EMPTY).then(|| usize::try_from(v).ok()).flatten()
    }

    fn free(&self, sq: Square) -> bool {
        self.slot(sq).is_some() && self.occupant(sq).is_none()
    }

    fn side(&self, i: usize) -> usize {
        self.pieces.get(i).map_or(0, |p| p.side)
    }

    fn at(&self, i: usize) -> Square {
        self.pieces.get(i).map_or((0, 0), |p| p.at)
    }

    fn unit(&self, i: usize) -> Unit {
        self.pieces.get(i).map_or(Unit::Transport, |p| p.unit)
    }

    fn put(&mut self, i: usize, sq: Square) {
        self.touch(i);
        let Some(k) = self.slot(sq) else { return };
        if let Some(g) = self.grid.get_mut(k) {
            *g = u32::try_from(i).unwrap_or(EMPTY);
        }
        if let Some(p) = self.pieces.get_mut(i) {
            p.at = sq;
            p.state = State::On;
        }
        self.follow(i);
    }

    fn lift(&mut self, i: usize) {
        self.touch(i);
        let at = self.at(i);
        if self.occupant(at) == Some(i)
            && let Some(g) = self.slot(at).and_then(|k| self.grid.get_mut(k))
        {
            *g = EMPTY;
        }
    }

    fn move_to(&mut self, i: usize, sq: Square) {
        if sq == self.at(i) {
            return;
        }
        self.lift(i);
        self.put(i, sq);
        if let Some(p) = self.pieces.get_mut(i) {
            p.moved = true;
            p.in_square = false;
        }
    }

    /// A unit moved or fell: its enemies' maps are stale.
    fn touch(&mut self, i: usize) {
        let side = self.side(i).min(1);
        if let Some(st) = self.stale.get_mut(1 - side) {
            *st = true;
        }
        if let Some(v) = self.versions.get_mut(1 - side) {
            *v = v.wrapping_add(1);
        }
    }

    /// Rebuilds side `side`'s list and map of the enemy if stale.
    fn refresh(&mut self, side: usize) {
        let side = side.min(1);
        if !self.stale.get(side).copied().unwrap_or(true) {
            return;
        }
        let mut foes = self.foes.get_mut(side).map(std::mem::take).unwrap_or_default();
        let mut contact = self.contact.get_mut(side).map(std::mem::take).unwrap_or_default();
        foes.clear();
        contact.fill(false);
        for (e, p) in self.pieces.iter().enumerate() {
            if p.side == side || !p.fighting() {
                continue;
            }
            foes.push((p.at, e));
            for d in ORTHOGONAL {
                if let Some(c) = self
                    .slot((p.at.0 + d.0, p.at.1 + d.1))
                    .and_then(|k| contact.get_mut(k))
                {
                    *c = true;
                }
            }
        }
        if let Some(f) = self.foes.get_mut(side) {
            *f = foes;
        }
        if let Some(c) = self.contact.get_mut(side) {
            *c = contact;
        }
        if let Some(st) = self.stale.get_mut(side) {
            *st = false;
        }
    }

    /// Squares from `sq` to the nearest enemy of `side` (map refreshed).
    /// Side `side`'s enemies (squares and indices), as last refreshed.
    fn foes(&self, side: usize) -> &[(Square, usize)] {
        self.foes.get(side.min(1)).map_or(&[], Vec::as_slice)
    }

    fn threat_at(&self, side: usize, sq: Square) -> u32 {
        self.foes.get(side.min(1)).map_or(u32::MAX, |f| {
            f.iter().map(|&(at, _)| cheb(at, sq)).min().unwrap_or(u32::MAX)
        })
    }

    /// Leaders with unit `i` keep to its square.
    fn follow(&mut self, i: usize) {
        let at = self.at(i);
        for p in &mut self.pieces {
            if p.with == Some(i) && p.on() {
                p.at = at;
            }
        }
    }

    /// Whether a General (not an ADC) is with unit `i`.
    fn general_with(&self, i: usize) -> bool {
        self.pieces
            .iter()
            .any(|p| p.with == Some(i) && p.on() && p.unit == Unit::General)
    }

    fn enemies(&self, side: usize) -> impl Iterator<Item = usize> + '_ {
        self.pieces
            .iter()
            .enumerate()
            .filter(move |(_, p)| p.side != side && p.fighting())
            .map(|(k, _)| k)
    }

    /// The nearest enemy and its distance, from the side's map (which the
    /// caller has refreshed; a stale map is rebuilt by the `&mut` callers).
    fn nearest_enemy(&self, i: usize) -> Option<(usize, u32)> {
        let (side, at) = (self.side(i).min(1), self.at(i));
        let version = self.versions.get(side).copied().unwrap_or(0);
        if let Some(c) = self.nearest.get(i) {
            let (v, sq, found) = c.get();
            if v == version && sq == at {
                return found;
            }
            let found = self.find_nearest(side, at);
            c.set((version, at, found));
            return found;
        }
        self.find_nearest(side, at)
    }

    fn find_nearest(&self, side: usize, at: Square) -> Option<(usize, u32)> {
        if self.stale.get(side).copied().unwrap_or(true) {
            return self
                .enemies(side)
                .map(|e| (e, cheb(at, self.at(e))))
                .min_by_key(|&(e, d)| (d, e));
        }
        self.foes
            .get(side)?
            .iter()
            .map(|&(sq, e)| (e, cheb(at, sq)))
            .min_by_key(|&(e, d)| (d, e))
    }

    /// Whether an enemy is orthogonally next to `sq` (from the map when fresh).
    fn in_contact(&self, sq: Square, side: usize) -> bool {
        let side = side.min(1);
        if self.stale.get(side).copied().unwrap_or(true) {
            return self.enemy_orthogonal(sq, side).is_some();
        }
        self.slot(sq)
            .and_then(|k| self.contact.get(side)?.get(k).copied())
            .unwrap_or(false)
    }

    fn enemy_orthogonal(&self, sq: Square, side: usize) -> Option<usize> {
        ORTHOGONAL.iter().find_map(|d| {
            self.occupant((sq.0 + d.0, sq.1 + d.1))
                .filter(|&o| self.side(o) != side && self.pieces.get(o).is_some_and(Piece::fighting))
        })
    }

    // ------------------------------------------------------------------------
    // Setting out.

    fn deploy_side(&mut self, s: usize) {
        let scenario = self.scenario;
        let Some(side) = scenario.sides.get(s) else { return };
        let first = self.pieces.len();
        let mut commands = 0;
        let mut add = |b: &mut Battle<'a>, stand: &'a TableStand, arrival: Option<(u32, Area)>| {
            let is_command = stand.kind == StandKind::Command;
            let unit = unit_of(stand.kind, is_command && commands == 0);
            if is_command {
                commands += 1;
            }
            let cv = combat_value(unit, stand.quality, stand.strength, stand.full);
            b.pieces.push(Piece {
                source: stand,
                side: s,
                unit,
                quality: tactical_dice(unit, stand.quality),
                cv_start: cv,
                cv,
                at: (0, 0),
                state: State::Waiting,
                arrival,
                penalty: 0,
                halted: false,
                retiring: false,
                limbered: false,
                in_square: false,
                moved: false,
                attacked: false,
                fought: false,
                blown: 0,
                skirmish_flags: 0,
                wounded: false,
                with: None,
            });
        };
        for stand in &side.stands {
            add(self, stand, None);
        }
        for r in &side.reserves {
            for stand in &r.stands {
                add(self, stand, Some((r.turn, r.area)));
            }
        }
        let count = side.stands.iter().filter(|t| t.at.is_none()).count();
        let toward = self.goals.get(s).copied().unwrap_or_default();
        let mut spots = doctrine::deploy(&self.board, &side.deployment, side.role, toward, count).into_iter();
        for k in 0..side.stands.len() {
            let i = first + k;
            let Some(stand) = side.stands.get(k) else { continue };
            let wanted = stand
                .at
                .or_else(|| spots.next())
                .map(|p| square_of(self.board.clamp(p)));
            if self.unit(i).is_leader() {
                if let Some(w) = wanted
                    && let Some(p) = self.pieces.get_mut(i)
                {
                    p.at = w;
                    p.state = State::On;
                }
                continue;
            }
            if let Some(sq) = wanted.and_then(|w| self.free_near(w, i)) {
                self.put(i, sq);
            }
        }
        for i in first..self.pieces.len() {
            if self.unit(i).is_leader() && self.pieces.get(i).is_some_and(Piece::on) {
                self.join_nearest(i, u32::MAX);
            }
        }
    }

    fn free_near(&self, wanted: Square, i: usize) -> Option<Square> {
        let unit = self.unit(i);
        let widest = self.width.max(self.depth);
        (0..=widest).find_map(|r| {
            (-r..=r)
                .flat_map(move |dy| (-r..=r).map(move |dx| (dx, dy)))
                .filter(|&(dx, dy)| dx.abs().max(dy.abs()) == r)
                .map(|(dx, dy)| (wanted.0 + dx, wanted.1 + dy))
                .find(|&sq| self.free(sq) && may_enter(unit, &self.cell(sq)))
        })
    }

    /// Leader `l` joins the friendly unit most in need within `reach`
    /// squares: one that has suffered a Flag (to rally it), else the one
    /// nearest the enemy.
    fn join_nearest(&mut self, l: usize, reach: u32) {
        let (side, at) = (self.side(l), self.at(l));
        let best = self
            .pieces
            .iter()
            .enumerate()
            .filter(|(_, p)| p.side == side && p.fighting() && p.cv > 0)
            .map(|(k, p)| {
                let need = u32::from(!(p.halted || p.retiring));
                let front = self.nearest_enemy(k).map_or(u32::MAX, |e| e.1);
                (need, front, k, p.at)
            })
            .filter(|t| cheb(at, t.3) <= reach)
            .min_by_key(|t| (t.0, t.1, t.2));
        if let Some(p) = self.pieces.get_mut(l) {
            if let Some((_, _, k, sq)) = best {
                p.with = Some(k);
                p.at = sq;
            } else {
                p.with = None;
            }
        }
    }

    fn bring_on_reserves(&mut self) {
        for i in 0..self.pieces.len() {
            let Some(p) = self.pieces.get(i) else { continue };
            let Some((turn, area)) = p.arrival else { continue };
            if p.state != State::Waiting || turn > self.turn {
                continue;
            }
            let c = square_of(area.centre());
            if self.unit(i).is_leader() {
                if let Some(p) = self.pieces.get_mut(i) {
                    p.at = c;
                    p.state = State::On;
                }
                self.join_nearest(i, u32::MAX);
                continue;
            }
            if let Some(sq) = self
                .free_near(c, i)
                .filter(|sq| cheb(*sq, c) <= area.w.max(area.h))
            {
                self.put(i, sq);
                if let Some(p) = self.pieces.get_mut(i) {
                    p.fought = true;
                }
                self.say(|me| format!("{} comes on at {}.", me.name(i), show(sq)));
            }
        }
    }

    // ------------------------------------------------------------------------
    // The turn sequence.

    pub fn play_turn(&mut self) {
        engine::play_turn(self);
    }

    fn side_phase(&mut self, side: usize) {
        self.refresh(side);
        let mut order: Vec<(u32, usize)> = self
            .pieces
            .iter()
            .enumerate()
            .filter(|(_, p)| p.side == side && p.fighting())
            .map(|(k, _)| (self.nearest_enemy(k).map_or(u32::MAX, |e| e.1), k))
            .collect();
        order.sort_unstable();
        for (_, i) in order {
            if self.clock.over {
                return;
            }
            self.act(i);
        }
        for l in 0..self.pieces.len() {
            let p = self.pieces.get(l);
            if p.is_some_and(|p| p.side == side && p.on() && p.unit.is_leader()) {
                // He stays with his unit while it fights, unless a shaken
                // unit within his reach needs rallying.
                let flagged = |u: &Piece<'_>| u.fighting() && (u.halted || u.retiring) && u.cv > 0;
                let with = p.and_then(|p| p.with).and_then(|w| self.pieces.get(w));
                let at = p.map_or((0, 0), |p| p.at);
                let needed = self
                    .pieces
                    .iter()
                    .any(|u| u.side == side && flagged(u) && cheb(u.at, at) <= LEADER_MOVE);
                let keep = with.is_some_and(|u| flagged(u) || (u.fighting() && u.cv > 0 && !needed));
                if !keep {
                    self.join_nearest(l, LEADER_MOVE);
                }
            }
        }
    }

    fn act(&mut self, i: usize) {
        let Some(p) = self.pieces.get(i) else { return };
        if !p.fighting() || p.fought || p.unit == Unit::Transport {
            return;
        }
        if p.retiring || p.cv == 0 {
            self.retire(i);
            return;
        }
        if p.blown > 0 {
            if let Some(p) = self.pieces.get_mut(i) {
                p.blown -= 1;
            }
            return;
        }
        match p.unit {
            Unit::FormedInfantry { fires } => self.infantry(i, fires),
            Unit::Skirmishers => self.skirmishers(i),
            Unit::Cavalry => self.cavalry(i),
            Unit::FootArtillery | Unit::HorseArtillery => self.artillery_move(i),
            _ => {}
        }
    }

    // ------------------------------------------------------------------------
    // Movement.

    /// Squares reachable by `i` in `budget` orthogonal steps; `self.dist`
    /// holds the steps. Squares next to an enemy end a move (Close Combat).
    fn reach(&mut self, i: usize, budget: u32) {
        self.refresh(self.side(i));
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.dist.fill((0, FAR));
            self.stamp = 1;
        }
        let stamp = self.stamp;
        let (unit, side, start) = (self.unit(i), self.side(i), self.at(i));
        let budget = budget.min(terrain_move_cap(unit, &self.cell(start)));
        self.reach_radius = u8::try_from(budget).unwrap_or(FAR);
        let Some(k0) = self.slot(start) else { return };
        if let Some(d) = self.dist.get_mut(k0) {
            *d = (stamp, 0);
        }
        let mut frontier = std::mem::take(&mut self.frontier);
        let mut next = std::mem::take(&mut self.next);
        frontier.clear();
        frontier.push(start);
        self.reached.clear();
        self.reached.push(start);
        let mut steps = 0;
        while steps < budget && !frontier.is_empty() {
            steps += 1;
            next.clear();
            for &sq in &frontier {
                let cell = self.cell(sq);
                let stops = sq != start && (must_stop(unit, &cell) || self.in_contact(sq, side));
                if stops
                    || steps > terrain_move_cap(unit, &cell)
                    || (sq != start && self.occupant(sq).is_some())
                {
                    continue;
                }
                for d in ORTHOGONAL {
                    let n = (sq.0 + d.0, sq.1 + d.1);
                    let Some(k) = self.slot(n) else { continue };
                    if self.dist.get(k).is_none_or(|&v| v.0 == stamp) {
                        continue;
                    }
                    let c = self.cell(n);
                    let enemy = self.occupant(n).is_some_and(|o| self.side(o) != side);
                    if !may_enter(unit, &c) || enemy {
                        continue;
                    }
                    if let Some(v) = self.dist.get_mut(k) {
                        *v = (stamp, u8::try_from(steps).unwrap_or(FAR));
                    }
                    next.push(n);
                    self.reached.push(n);
                }
            }
            std::mem::swap(&mut frontier, &mut next);
        }
        self.frontier = frontier;
        self.next = next;
    }

    fn steps_to(&self, sq: Square) -> Option<u32> {
        self.slot(sq)
            .and_then(|k| self.dist.get(k))
            .copied()
            .filter(|&(g, d)| g == self.stamp && d != FAR)
            .map(|(_, d)| u32::from(d))
    }

    /// The reachable free square nearest `goal` that no enemy is
    /// orthogonally next to, at least `keep` squares from every enemy.
    fn best_move(&mut self, i: usize, goal: Point, keep: u32) -> Option<Square> {
        self.refresh(self.side(i));
        let side = self.side(i);
        let here = self.at(i);
        let mut best: Option<(f64, Square)> = None;
        for &sq in &self.reached {
            if sq != here && !self.free(sq) {
                continue;
            }
            if self.in_contact(sq, side) {
                continue;
            }
            if keep > 0 && self.threat_at(side, sq) < keep {
                continue;
            }
            let d = doctrine::dist(centre(sq), goal);
            if best.is_none_or(|(b, _)| d < b - 1e-9) {
                best = Some((d, sq));
            }
        }
        best.map(|b| b.1)
    }

    fn goal_of(&self, i: usize) -> Point {
        let side = self.side(i);
        match (self.roles.get(side), self.nearest_enemy(i)) {
            (Some(Role::Attacker), Some((e, d))) if d <= 6 => centre(self.at(e)),
            (Some(Role::Attacker), _) => self.goals.get(side).copied().unwrap_or_default(),
            (_, Some((e, d))) if d <= 3 => centre(self.at(e)),
            _ => self.goals.get(side).copied().unwrap_or_default(),
        }
    }

    /// A retiring unit falls back a square from the enemy; from its own
    /// edge it leaves the field.
    fn retire(&mut self, i: usize) {
        let side = self.side(i);
        let at = self.at(i);
        let back = self.fronts.get(side).copied().unwrap_or((0, 1));
        let behind = (at.0 - back.0, at.1 - back.1);
        if self.slot(behind).is_none() {
            // Off its own edge: a unit that must retire leaves the field;
            // one only falling back to rally stays.
            if self.pieces.get(i).is_some_and(|p| p.retiring || p.cv == 0) {
                self.leave(i, "retires off the field");
            }
            return;
        }
        let unit = self.unit(i);
        let choice = [
            behind,
            (at.0 + back.1, at.1 + back.0),
            (at.0 - back.1, at.1 - back.0),
        ]
        .into_iter()
        .find(|&sq| self.free(sq) && may_enter(unit, &self.cell(sq)));
        match choice {
            Some(sq) => {
                self.move_to(i, sq);
                self.say(|me| format!("{} falls back to {}.", me.name(i), show(sq)));
            }
            // Hemmed in: it stays where it is (the seed is silent).
            None => self.say(|me| format!("{} cannot fall back and stands.", me.name(i))),
        }
    }

    fn leave(&mut self, i: usize, why: &'static str) {
        self.lift(i);
        if let Some(p) = self.pieces.get_mut(i) {
            p.state = State::Gone;
        }
        self.say(|me| format!("{} {why}.", me.name(i)));
        for l in 0..self.pieces.len() {
            if self.pieces.get(l).is_some_and(|p| p.with == Some(i)) {
                self.join_nearest(l, LEADER_MOVE);
            }
        }
    }

    fn infantry(&mut self, i: usize, fires: bool) {
        let side = self.side(i);
        if let Some(e) = self.enemy_orthogonal(self.at(i), side) {
            // In contact already (a halted charge): an exchange of Fire.
            if fires && self.pieces.get(i).is_some_and(Piece::may_attack) {
                self.musketry(i, e);
            }
            return;
        }
        let may_attack = self.pieces.get(i).is_some_and(Piece::may_attack);
        self.refresh(side);
        let distance = self.nearest_enemy(i).map_or(u32::MAX, |e| e.1);
        // A charge needs an enemy within two squares, musketry within one.
        if distance <= INFANTRY_TACTICAL + 1 {
            self.reach(i, INFANTRY_TACTICAL);
            if may_attack && let Some((sq, e)) = self.charge_target(i, false) {
                let from = self.at(i);
                self.move_to(i, sq);
                self.bayonet(i, e, 1, from);
                return;
            }
            if fires
                && may_attack
                && let Some(e) = self.musket_target(i)
            {
                self.musketry(i, e);
                return;
            }
        }
        let near = distance <= 3;
        // The defender holds its ground until the enemy comes near.
        if !near && self.roles.get(side) == Some(&Role::Defender) {
            return;
        }
        let goal = self.goal_of(i);
        if !near {
            self.reach(i, INFANTRY_MARCH);
        }
        if let Some(sq) = self.best_move(i, goal, 0) {
            self.move_to(i, sq);
        }
        if near
            && fires
            && may_attack
            && let Some(e) = self.musket_target(i)
        {
            self.musketry(i, e);
        }
    }

    /// A square reachable (see [`Battle::reach`]) orthogonally next to an
    /// enemy this unit may and would charge. `cavalry`: charging squares
    /// must finish straight.
    fn charge_target(&mut self, i: usize, cavalry: bool) -> Option<(Square, usize)> {
        let side = self.side(i);
        self.refresh(side);
        let me = self.pieces.get(i)?;
        let mine = me.dice() + u32::from(self.general_with(i));
        let mut best: Option<(u32, u32, usize, Square)> = None;
        for &(_, e) in self.foes(side) {
            let them = self.pieces.get(e)?;
            if cheb(me.at, them.at) > u32::from(self.reach_radius) + 1 {
                continue;
            }
            if !(cavalry || them.unit.is_infantry() || them.unit.is_artillery()) {
                continue;
            }
            if cavalry && them.in_square {
                continue;
            }
            for d in ORTHOGONAL {
                let sq = (them.at.0 + d.0, them.at.1 + d.1);
                let Some(steps) = self.steps_to(sq) else { continue };
                if sq != me.at && !self.free(sq) {
                    continue;
                }
                if !may_engage(me.unit, &self.cell(sq), &self.cell(them.at)) {
                    continue;
                }
                if cavalry && !self.straight_into(sq, (-d.0, -d.1)) {
                    continue;
                }
                let theirs = them.dice() + u32::from(them.unit.is_infantry() && !cavalry && them.cv > 0);
                let favoured = doctrine::charge_favoured(f64::from(mine), f64::from(theirs))
                    || them.halted
                    || them.condition() != Condition::Fresh
                    || (!cavalry && mine >= theirs && them.cv <= me.cv);
                let cav_ok = !cavalry
                    || them.unit.is_cavalry()
                    || them.unit.is_artillery()
                    || them.condition() != Condition::Fresh
                    || mine > them.quality;
                if !favoured || !cav_ok {
                    continue;
                }
                let key = (them.cv, steps, e, sq);
                if best.is_none_or(|b| key < b) {
                    best = Some(key);
                }
            }
        }
        best.map(|b| (b.3, b.2))
    }

    /// Whether a charge can end in `sq` moving in direction `d` with its
    /// last two squares in a straight line (Cavalry Regiments).
    fn straight_into(&self, sq: Square, d: Square) -> bool {
        let one = (sq.0 - d.0, sq.1 - d.1);
        let two = (sq.0 - 2 * d.0, sq.1 - 2 * d.1);
        match (self.steps_to(one), self.steps_to(two)) {
            (Some(0), _) => true,
            (Some(a), Some(b)) => a == b + 1 && self.free(one),
            _ => false,
        }
    }

    fn musket_target(&mut self, i: usize) -> Option<usize> {
        let (side, at, unit) = (self.side(i), self.at(i), self.unit(i));
        self.refresh(side);
        self.foes(side)
            .iter()
            .map(|&(_, e)| e)
            .filter(|&e| cheb(at, self.at(e)) <= MUSKET_RANGE && self.sight(at, self.at(e), unit))
            .filter(|&e| {
                unit != Unit::Skirmishers
                    || forest_allows_skirmish_fire(
                        &self.cell(at),
                        &self.cell(self.at(e)),
                        self.unit(e) == Unit::Skirmishers,
                        cheb(at, self.at(e)),
                    )
            })
            .min_by_key(|&e| (self.pieces.get(e).map_or(0, |p| p.cv), e))
    }

    fn skirmishers(&mut self, i: usize) {
        let may_attack = self.pieces.get(i).is_some_and(Piece::may_attack);
        if !may_attack {
            return;
        }
        if self.musket_target(i).is_none() {
            let (side, at) = (self.side(i), self.at(i));
            let goal = self.goal_of(i);
            self.reach(i, SKIRMISHER_MOVE);
            // The best square in musket range of an enemy, else toward the goal.
            let mut best: Option<(u32, f64, Square)> = None;
            for &sq in &self.reached {
                if sq != at && !self.free(sq) {
                    continue;
                }
                if self.in_contact(sq, side) {
                    continue;
                }
                let in_range = self.foes(side).iter().any(|&(f, _)| cheb(f, sq) <= MUSKET_RANGE);
                let key = (u32::from(!in_range), doctrine::dist(centre(sq), goal), sq);
                if best.is_none_or(|b| key.0 < b.0 || (key.0 == b.0 && key.1 < b.1 - 1e-9)) {
                    best = Some(key);
                }
            }
            if let Some((_, _, sq)) = best {
                self.move_to(i, sq);
            }
        }
        if let Some(e) = self.musket_target(i) {
            if self.unit(e) == Unit::Skirmishers {
                self.skirmish(i, e);
            } else {
                self.fire(i, e, SKIRMISH_DICE, Hit::Fire, true);
            }
        }
    }

    fn cavalry(&mut self, i: usize) {
        if !self.pieces.get(i).is_some_and(Piece::may_attack) {
            return;
        }
        self.refresh(self.side(i));
        let distance = self.nearest_enemy(i).map_or(u32::MAX, |e| e.1);
        if distance <= CAVALRY_CHARGE + 1
            && let Some((sq, e)) = {
                self.reach(i, CAVALRY_CHARGE);
                self.charge_target(i, true)
            }
        {
            let from = self.at(i);
            self.move_to(i, sq);
            if self.unit(e).is_cavalry() {
                self.cavalry_charge(i, e, 1, from);
            } else {
                self.cavalry_against_foot(i, e, from);
            }
            return;
        }
        self.reach(i, CAVALRY_MANOEUVRE);
        let goal = self.goal_of(i);
        if let Some(sq) = self.best_move(i, goal, 2) {
            self.move_to(i, sq);
        }
    }

    fn artillery_move(&mut self, i: usize) {
        let unit = self.unit(i);
        let horse = unit == Unit::HorseArtillery;
        if self.gun_target(i).is_some() {
            if self.pieces.get(i).is_some_and(|p| p.limbered) {
                // Unlimber: foot artillery fires next turn; horse artillery
                // having not moved may fire now.
                if let Some(p) = self.pieces.get_mut(i) {
                    p.limbered = false;
                }
                if horse {
                    self.gun_fire(i);
                }
            } else if horse && !self.pieces.get(i).is_some_and(|p| p.fought) {
                self.gun_fire(i);
            }
            return;
        }
        let full = if horse {
            HORSE_ARTILLERY_MOVE
        } else {
            FOOT_ARTILLERY_MOVE
        };
        // "Limbering up reduces movement by one square."
        let limbered = self.pieces.get(i).is_some_and(|p| p.limbered);
        let budget = if limbered { full } else { full - 1 };
        self.reach(i, budget);
        let goal = self.goal_of(i);
        if let Some(sq) = self.best_move(i, goal, 3) {
            self.move_to(i, sq);
        }
        if let Some(p) = self.pieces.get_mut(i) {
            p.limbered = true;
        }
        // Horse artillery may "move one square, unlimber and Fire the same turn".
        if horse && self.gun_target(i).is_some() {
            if let Some(p) = self.pieces.get_mut(i) {
                p.limbered = false;
            }
            self.gun_fire(i);
        }
    }

    // ------------------------------------------------------------------------
    // Fire.

    /// Whether `viewer` at `a` sees `b`: traced once per battle, then remembered.
    fn sight(&self, a: Square, b: Square, viewer: Unit) -> bool {
        if !self.blind || cheb(a, b) <= 1 {
            return true;
        }
        // Only whether the viewer sees over tall crops depends on it.
        let class = usize::from(viewer.is_cavalry() || viewer.is_leader());
        let (Some(from), Some(to)) = (self.slot(a), self.slot(b)) else {
            return self.trace_sight(a, b, viewer);
        };
        let n = self.cells.len();
        let known = self
            .sight_memo
            .borrow()
            .get(from)
            .and_then(|row| row.get(to * 2 + class))
            .copied()
            .unwrap_or(0);
        if known != 0 {
            return known == 1;
        }
        let seen = self.trace_sight(a, b, viewer);
        if let Some(row) = self.sight_memo.borrow_mut().get_mut(from) {
            if row.is_empty() {
                row.resize(n * 2, 0);
            }
            if let Some(slot) = row.get_mut(to * 2 + class) {
                *slot = if seen { 1 } else { 2 };
            }
        }
        seen
    }

    fn trace_sight(&self, a: Square, b: Square, viewer: Unit) -> bool {
        let steps = 2 * cheb(a, b);
        let top = self.cell(a).level.max(self.cell(b).level);
        let (fa, fb) = (centre(a), centre(b));
        for t in 1..steps {
            let f = f64::from(t) / f64::from(steps);
            let p = (fa.0 + (fb.0 - fa.0) * f, fa.1 + (fb.1 - fa.1) * f);
            let sq = square_of(p);
            if sq != a && sq != b && blocks_sight(&self.cell(sq), viewer, top) {
                return false;
            }
        }
        true
    }

    /// Whether the guns at `a` have a line of fire to `b`: not over troops,
    /// unless "firing from a hill ... over friendly troops on lower ground".
    fn line_of_fire(&self, a: Square, b: Square) -> bool {
        if cheb(a, b) <= 1 {
            return true;
        }
        let steps = 2 * cheb(a, b);
        let level = self.cell(a).level;
        let (fa, fb) = (centre(a), centre(b));
        for t in 1..steps {
            let f = f64::from(t) / f64::from(steps);
            let sq = square_of((fa.0 + (fb.0 - fa.0) * f, fa.1 + (fb.1 - fa.1) * f));
            if sq != a
                && sq != b
                && self.occupant(sq).is_some()
                && !(level > 0 && self.cell(sq).level < level)
            {
                return false;
            }
        }
        true
    }

    fn gun_target(&mut self, i: usize) -> Option<(usize, u32, Hit)> {
        self.refresh(self.side(i));
        let p = self.pieces.get(i)?;
        if !p.fighting() || p.condition() != Condition::Fresh || p.retiring {
            return None;
        }
        let on_hill = self.cell(p.at).level > 0;
        // The nearest enemy in range that the guns can see and fire at:
        // nearest first, so sight is traced only as far as needed.
        let mut candidates: Vec<(u32, usize)> = self
            .foes(p.side)
            .iter()
            .map(|&(f, e)| (cheb(p.at, f), e))
            .filter(|&(d, _)| artillery_fire(p.unit, on_hill, d).is_some())
            .collect();
        candidates.sort_unstable();
        candidates.into_iter().find_map(|(d, e)| {
            let at = self.at(e);
            let (dice, hit) = artillery_fire(p.unit, on_hill, d)?;
            (self.sight(p.at, at, p.unit) && self.line_of_fire(p.at, at)).then_some((e, dice, hit))
        })
    }

    fn gun_fire(&mut self, i: usize) {
        if let Some((e, dice, hit)) = self.gun_target(i) {
            let dice = dice.saturating_sub(self.pieces.get(i).map_or(0, |p| p.penalty));
            self.fire(i, e, dice, hit, false);
            if let Some(p) = self.pieces.get_mut(i) {
                p.fought = true;
            }
        }
    }

    fn artillery_phase(&mut self) {
        // Simultaneous: every battery picks and throws, then all the hits fall.
        let mut shots = Vec::new();
        for i in 0..self.pieces.len() {
            let Some(p) = self.pieces.get(i) else { continue };
            if !(p.unit == Unit::FootArtillery || p.unit == Unit::HorseArtillery) || p.limbered {
                continue;
            }
            if let Some((e, dice, hit)) = self.gun_target(i) {
                let (dice, hit) = fire_at(dice, hit, &self.cell(self.at(e)));
                shots.push((i, e, self.throw(dice), hit));
                if let Some(p) = self.pieces.get_mut(i) {
                    p.fought = p.unit == Unit::HorseArtillery;
                }
            }
        }
        for (i, e, t, hit) in shots {
            self.land(i, e, t, hit, false);
        }
    }

    fn musketry(&mut self, i: usize, e: usize) {
        let dice = self.pieces.get(i).map_or(0, Piece::dice);
        self.fire(i, e, dice, Hit::Target, true);
    }

    /// Fire by `i` at `e`: the terrain's reductions, the throw, its effects.
    fn fire(&mut self, i: usize, e: usize, dice: u32, hit: Hit, musketry: bool) {
        let (dice, hit) = fire_at(dice, hit, &self.cell(self.at(e)));
        let t = self.throw(dice);
        self.land(i, e, t, hit, musketry);
    }

    fn land(&mut self, i: usize, e: usize, t: Throw, hit: Hit, musketry: bool) {
        let screened = musketry && self.screened(e);
        let hits = if screened { 0 } else { t.hits(hit) };
        self.say(|me| {
            format!(
                "{} fires at {} ({} {}): {hits} hit{}, {} Flag{}{}.",
                me.name(i),
                me.name(e),
                t.dice,
                if t.dice == 1 { "die" } else { "dice" },
                plural(hits),
                t.flags,
                plural(t.flags),
                if screened {
                    "; its skirmishers screen it"
                } else {
                    ""
                }
            )
        });
        if self.unit(i) == Unit::Skirmishers
            && let Some(p) = self.pieces.get_mut(e)
        {
            p.skirmish_flags += t.flags;
        }
        if let Some(p) = self.pieces.get_mut(e) {
            p.attacked = true;
        }
        self.officers(e, &t, hits);
        self.suffer(e, hits, t.flags);
    }

    /// Skirmishing: "Skirmishers deploy ... covering the front of a unit ...
    /// which cannot receive hits from musketry while the skirmishers remain
    /// in front of it": a friendly skirmisher in the square ahead of it or
    /// either forward diagonal.
    fn screened(&self, e: usize) -> bool {
        let Some(p) = self.pieces.get(e) else { return false };
        if !p.unit.is_formed() {
            return false;
        }
        let f = self.fronts.get(p.side).copied().unwrap_or((0, 1));
        let ahead = (p.at.0 + f.0, p.at.1 + f.1);
        let side_step = (f.1, f.0);
        [
            ahead,
            (ahead.0 + side_step.0, ahead.1 + side_step.1),
            (ahead.0 - side_step.0, ahead.1 - side_step.1),
        ]
        .into_iter()
        .any(|sq| {
            self.occupant(sq)
                .and_then(|o| self.pieces.get(o))
                .is_some_and(|o| o.side == p.side && o.unit == Unit::Skirmishers && o.fighting())
        })
    }

    /// Skirmishers against skirmishers: one die a line each, Fire hits,
    /// "Only Fire and Flags count"; more Flags fall back a square.
    fn skirmish(&mut self, a: usize, b: usize) {
        let ta = self.throw(SKIRMISH_DICE);
        let tb = self.throw(SKIRMISH_DICE);
        self.say(|me| {
            format!(
                "{} and {} skirmish: {} Fire and {} Flag against {}, {} Fire and {} Flag against {}.",
                me.name(a),
                me.name(b),
                ta.fires,
                ta.flags,
                me.name(b),
                tb.fires,
                tb.flags,
                me.name(a)
            )
        });
        for (who, t) in [(b, ta), (a, tb)] {
            if let Some(p) = self.pieces.get_mut(who) {
                p.attacked = true;
            }
            self.hit(who, t.fires);
        }
        match skirmish_falls_back(tb.flags, ta.flags) {
            Some(true) => self.fall_back(a),
            Some(false) => self.fall_back(b),
            None => {}
        }
    }

    /// Beaten skirmishers fall back one square; into their own formed
    /// troops' square they are "driven in" and leave the screen.
    fn fall_back(&mut self, i: usize) {
        if !self.pieces.get(i).is_some_and(Piece::fighting) {
            return;
        }
        let side = self.side(i);
        let at = self.at(i);
        let f = self.fronts.get(side).copied().unwrap_or((0, 1));
        let back = (at.0 - f.0, at.1 - f.1);
        if self.free(back) && may_enter(self.unit(i), &self.cell(back)) {
            self.move_to(i, back);
            self.say(|me| format!("{} fall back to {}.", me.name(i), show(back)));
        } else if self.slot(back).is_none() {
            self.leave(i, "are driven off the field");
        } else {
            // Driven in behind their formed troops.
            let further = (back.0 - f.0, back.1 - f.1);
            if self.free(further) {
                self.move_to(i, further);
            }
            self.say(|me| format!("{} are driven in.", me.name(i)));
        }
    }

    // ------------------------------------------------------------------------
    // Losses.

    /// Hits off the Combat Value. A unit at 0 CV retires; one hit again
    /// routs ("any further ... hits or Flags will cause it to rout").
    fn hit(&mut self, i: usize, hits: u32) {
        if hits == 0 {
            return;
        }
        let Some(p) = self.pieces.get_mut(i) else { return };
        if !p.fighting() {
            return;
        }
        if p.cv == 0 {
            self.leave(i, "is struck again while spent and routs");
            return;
        }
        p.cv = p.cv.saturating_sub(hits);
        if p.cv == 0 {
            p.retiring = true;
            self.say(|me| format!("{} has lost all its Combat Value and retires.", me.name(i)));
        }
    }

    /// Hits and Flags suffered together.
    fn suffer(&mut self, i: usize, hits: u32, flags: u32) {
        let was_spent = self.pieces.get(i).is_some_and(|p| p.cv == 0);
        self.hit(i, hits);
        if flags == 0 || !self.pieces.get(i).is_some_and(Piece::fighting) {
            return;
        }
        if was_spent {
            self.leave(i, "suffers a Flag while spent and routs");
            return;
        }
        let quality = self.pieces.get(i).map_or(0, |p| p.quality);
        let effect = flag_effect(flags, quality, self.general_with(i));
        self.flags(i, effect);
    }

    fn flags(&mut self, i: usize, effect: FlagEffect) {
        let Some(p) = self.pieces.get_mut(i) else { return };
        match effect {
            FlagEffect::None => return,
            FlagEffect::OneDieLess => p.penalty += 1,
            FlagEffect::Halts => {
                p.penalty += 1;
                p.halted = true;
            }
            FlagEffect::Retires => {
                p.halted = true;
                p.retiring = true;
            }
            FlagEffect::Routs => {
                self.leave(i, "routs at its falling Flags");
                return;
            }
        }
        self.say(|me| format!("{} suffers Flags: {effect}.", me.name(i)));
    }

    /// General and ADC casualties (General Officers and ADCs).
    fn officers(&mut self, i: usize, t: &Throw, hits: u32) {
        if !t.endangers_officers(hits) {
            return;
        }
        for l in 0..self.pieces.len() {
            if !self.pieces.get(l).is_some_and(|p| p.with == Some(i) && p.on()) {
                continue;
            }
            let c = casualty(self.dice.d6());
            let wounded_before = self.pieces.get(l).is_some_and(|p| p.wounded);
            if let Some(p) = self.pieces.get_mut(l) {
                match c {
                    super::tables::Casualty::Killed => {
                        p.state = State::Killed;
                        p.with = None;
                    }
                    super::tables::Casualty::Wounded if wounded_before => {}
                    super::tables::Casualty::Wounded => p.wounded = true,
                    super::tables::Casualty::Unscathed => {}
                }
            }
            self.say(|me| format!("{} is in danger: {c}.", me.name(l)));
        }
    }

    fn wounded_leaders(&mut self) {
        for l in 0..self.pieces.len() {
            if !self.pieces.get(l).is_some_and(|p| p.on() && p.wounded) {
                continue;
            }
            if wounded_leaves(self.dice.d6()) {
                if let Some(p) = self.pieces.get_mut(l) {
                    p.state = State::Gone;
                    p.with = None;
                }
                self.say(|me| format!("{} is forced from the field by his wound.", me.name(l)));
            }
        }
    }

    /// Rallying: a General or ADC with a unit that suffered a Falling Flag,
    /// stationary and not charged or fired upon this turn, on a 6.
    fn rally(&mut self) {
        for l in 0..self.pieces.len() {
            let Some(u) = self.pieces.get(l).filter(|p| p.on()).and_then(|p| p.with) else {
                continue;
            };
            let Some(p) = self.pieces.get(u) else { continue };
            if !p.fighting() || !(p.retiring || p.halted) || p.cv == 0 {
                continue;
            }
            let (stationary, attacked) = (!p.moved, p.attacked);
            if rallies(self.dice.d6(), stationary, attacked) {
                if let Some(p) = self.pieces.get_mut(u) {
                    p.retiring = false;
                    p.halted = false;
                }
                self.say(|me| format!("{} rallies {}.", me.name(l), me.name(u)));
            }
        }
    }

    // ------------------------------------------------------------------------
    // Close combat.

    fn cc_dice(&self, a: usize, d: usize) -> u32 {
        let dice = self.pieces.get(a).map_or(0, Piece::dice);
        close_combat_dice(dice, self.general_with(a), &self.cell(self.at(d)))
    }

    fn mark_fought(&mut self, a: usize, d: usize) {
        for k in [a, d] {
            if let Some(p) = self.pieces.get_mut(k) {
                p.fought = true;
                p.attacked = true;
            }
        }
    }

    /// Bayonet Charges by Formed Troops.
    fn bayonet(&mut self, a: usize, d: usize, round: u32, from: Square) {
        self.mark_fought(a, d);
        let t = self.throw(self.cc_dice(a, d));
        let extra = self.pieces.get(d).map_or(0, |p| p.skirmish_flags);
        let dq = self.pieces.get(d).map_or(0, |p| p.quality);
        let answer = bayonet_answer(t.flags + extra, t.sabres, dq);
        self.say(|me| {
            format!(
                "{} charges {} with the bayonet (round {round}): {} Sabre, {} Flag{}: {answer}.",
                me.name(a),
                me.name(d),
                t.sabres,
                t.flags,
                if extra > 0 {
                    " and the skirmishers' Flags"
                } else {
                    ""
                }
            )
        });
        self.officers(d, &t, t.sabres);
        self.hit(d, t.sabres);
        if answer == BayonetAnswer::Flee {
            let dsq = self.at(d);
            if self.pieces.get(d).is_some_and(Piece::fighting) {
                self.leave(d, "panics and flees");
            }
            if self.free(dsq) {
                self.move_to(a, dsq);
            }
            return;
        }
        if !self.pieces.get(d).is_some_and(Piece::fighting) {
            return;
        }
        let du = self.unit(d);
        let base = if du.is_artillery() {
            3
        } else if du == (Unit::FormedInfantry { fires: false }) {
            0
        } else {
            self.pieces.get(d).map_or(0, Piece::dice)
        };
        let reply = self.throw(bayonet_return_dice(answer, base));
        let aq = self.pieces.get(a).map_or(0, |p| p.quality);
        let effect = flag_effect(reply.flags, aq, self.general_with(a));
        self.say(|me| {
            format!(
                "{} fires back ({} dice): {} hit{}, {} Flag{}.",
                me.name(d),
                reply.dice,
                reply.targets,
                plural(reply.targets),
                reply.flags,
                plural(reply.flags)
            )
        });
        self.officers(a, &reply, reply.targets);
        self.hit(a, reply.targets);
        self.flags(a, effect);
        let stopped = halted(effect) || !self.pieces.get(a).is_some_and(|p| p.fighting() && p.cv > 0);
        if stopped {
            return;
        }
        if answer == BayonetAnswer::FireThenRetire {
            let dsq = self.at(d);
            self.retire(d);
            if self.free(dsq) && self.pieces.get(a).is_some_and(Piece::fighting) {
                self.move_to(a, dsq);
            }
            return;
        }
        self.undecided(a, d, round, from);
    }

    /// No decision: the combat goes on next turn, or after the second turn
    /// both retire (only the attackers from a BUA).
    fn undecided(&mut self, a: usize, d: usize, round: u32, from: Square) {
        let in_bua = is_bua(&self.cell(self.at(d)));
        match undecided_retire(round, in_bua) {
            None => self.engaged.push(Engagement {
                attacker: a,
                defender: d,
                round: round + 1,
                from,
            }),
            Some((attackers, defenders)) => {
                self.say(|me| {
                    format!(
                        "No decision after two turns between {} and {}: they retire to rally.",
                        me.name(a),
                        me.name(d)
                    )
                });
                if attackers {
                    self.back_to(a, from);
                }
                if defenders && self.pieces.get(d).is_some_and(Piece::fighting) {
                    self.retire(d);
                }
            }
        }
    }

    fn back_to(&mut self, i: usize, from: Square) {
        if !self.pieces.get(i).is_some_and(Piece::fighting) {
            return;
        }
        if self.free(from) || self.at(i) == from {
            self.move_to(i, from);
        } else {
            self.retire(i);
        }
    }

    fn continue_close_combat(&mut self, side: usize) {
        let all = std::mem::take(&mut self.engaged);
        let (mine, rest): (Vec<Engagement>, Vec<Engagement>) =
            all.into_iter().partition(|e| self.side_of(e.attacker) == side);
        self.engaged = rest;
        for e in mine {
            let both = [e.attacker, e.defender].iter().all(|&k| {
                self.pieces
                    .get(k)
                    .is_some_and(|p| p.fighting() && !p.retiring && p.cv > 0)
            });
            let attacker_halted = self.pieces.get(e.attacker).is_some_and(|p| p.halted);
            let adjacent = manhattan(self.at(e.attacker), self.at(e.defender)) == 1;
            // A halted attacker fights no more: "there will be an exchange of Fire".
            if !both || !adjacent || attacker_halted {
                continue;
            }
            if self.unit(e.attacker).is_cavalry() {
                self.cavalry_charge(e.attacker, e.defender, e.round, e.from);
            } else {
                self.bayonet(e.attacker, e.defender, e.round, e.from);
            }
        }
    }

    fn side_of(&self, i: usize) -> usize {
        self.side(i)
    }

    fn throw(&mut self, n: u32) -> Throw {
        Throw::roll(&mut self.dice, n)
    }

    /// Cavalry vs Cavalry.
    fn cavalry_charge(&mut self, a: usize, d: usize, round: u32, from: Square) {
        self.mark_fought(a, d);
        let t = self.throw(self.cc_dice(a, d));
        let dq = self.pieces.get(d).map_or(0, |p| p.quality);
        let flags = if self.general_with(d) {
            t.flags.saturating_sub(1)
        } else {
            t.flags
        };
        let reply = cavalry_reply(flags, dq);
        self.say(|me| {
            format!(
                "{} charges {} (round {round}): {} Sabre, {} Flag: {reply}.",
                me.name(a),
                me.name(d),
                t.sabres,
                t.flags
            )
        });
        self.officers(d, &t, t.sabres);
        self.hit(d, t.sabres);
        if reply == CavalryReply::Breaks {
            // The pursuit: "suffering further hits and Flags ... without being able to reply".
            let p = self.throw(self.cc_dice(a, d));
            self.hit(d, p.sabres);
            if self.pieces.get(d).is_some_and(Piece::fighting) {
                if flags + p.flags > dq {
                    self.leave(d, "routs before the charge");
                } else {
                    self.flags(d, FlagEffect::Retires);
                    self.retire(d);
                }
            }
            return;
        }
        if !self.pieces.get(d).is_some_and(Piece::fighting) {
            return;
        }
        let dice = cavalry_reply_dice(reply, self.pieces.get(d).map_or(0, Piece::dice));
        let r = self.throw(dice + u32::from(self.general_with(d)));
        self.officers(a, &r, r.sabres);
        self.hit(a, r.sabres);
        let aq = self.pieces.get(a).map_or(0, |p| p.quality);
        let effect = flag_effect(r.flags, aq, self.general_with(a));
        if effect >= FlagEffect::Retires {
            self.flags(a, effect);
        }
        let alive = [a, d].iter().all(|&k| {
            self.pieces
                .get(k)
                .is_some_and(|p| p.fighting() && !p.retiring && p.cv > 0)
        });
        if !alive {
            return;
        }
        if round >= super::tables::CLOSE_COMBAT_TURNS {
            // Blown: back to the original position to rally.
            self.say(|me| {
                format!(
                    "{} and {} are blown and fall back to rally.",
                    me.name(a),
                    me.name(d)
                )
            });
            self.back_to(a, from);
            for k in [a, d] {
                if let Some(p) = self.pieces.get_mut(k) {
                    p.blown = 1;
                }
            }
        } else {
            // They pass through each other and turn to charge again next turn.
            self.engaged.push(Engagement {
                attacker: a,
                defender: d,
                round: round + 1,
                from,
            });
        }
    }

    /// Cavalry vs Infantry/Artillery.
    fn cavalry_against_foot(&mut self, a: usize, d: usize, from: Square) {
        self.mark_fought(a, d);
        let t = self.throw(self.cc_dice(a, d));
        let Some(def) = self.pieces.get(d) else { return };
        let (dq, artillery, in_square) = (def.quality, def.unit.is_artillery(), def.in_square);
        let result = cavalry_against_foot(t.flags, t.sabres, dq, in_square);
        self.say(|me| {
            format!(
                "{} charges {}: {} Sabre, {} Flag: {result}.",
                me.name(a),
                me.name(d),
                t.sabres,
                t.flags
            )
        });
        let dice_now = if artillery {
            3
        } else {
            self.pieces.get(d).map_or(0, Piece::dice)
        };
        let (reply_dice, suffers) = square_reply(result, artillery, dice_now);
        if suffers {
            self.officers(d, &t, t.sabres);
            self.hit(d, t.sabres);
        }
        if result == SquareResult::Broken {
            let p = self.throw(pursuit_dice(self.cc_dice(a, d)));
            self.hit(d, p.sabres);
            if self.pieces.get(d).is_some_and(Piece::fighting) {
                self.leave(d, "breaks before the cavalry and routs");
            }
            return;
        }
        if !artillery && let Some(p) = self.pieces.get_mut(d) {
            p.in_square = true;
        }
        let fires = !(self.unit(d) == (Unit::FormedInfantry { fires: false }));
        let r = self.throw(if fires { reply_dice } else { 0 });
        self.officers(a, &r, r.targets);
        self.hit(a, r.targets);
        let aq = self.pieces.get(a).map_or(0, |p| p.quality);
        let effect = flag_effect(r.flags, aq, self.general_with(a));
        self.flags(a, effect);
        if artillery && result == SquareResult::JustFormed && self.pieces.get(d).is_some_and(Piece::fighting)
        {
            self.retire(d);
        }
        // The unsuccessful charge flows past and returns to rally.
        self.back_to(a, from);
    }

    // ------------------------------------------------------------------------
    // The end.

    fn points(&self, s: usize) -> (u64, u64) {
        self.pieces
            .iter()
            .filter(|p| p.side == s && p.state != State::Waiting)
            .fold((0, 0), |(b, a), p| {
                let standing = if p.on() { u64::from(self.after(p)) } else { 0 };
                (b + u64::from(p.source.strength), a + standing)
            })
    }

    fn after(&self, p: &Piece<'_>) -> u32 {
        if p.unit.fights() {
            strength_after(p.source.strength, p.cv_start, p.cv)
        } else {
            p.source.strength
        }
    }

    fn broken(&self, s: usize) -> bool {
        let (before, standing) = self.points(s);
        crate::rules::has_broken(before, standing)
    }

    fn finished(&self, s: usize) -> bool {
        !self
            .pieces
            .iter()
            .any(|p| p.side == s && p.unit.fights() && (p.fighting() || p.state == State::Waiting))
    }

    pub fn finish(self) -> Outcome {
        let endings: Vec<Ending<'_>> = self
            .pieces
            .iter()
            .map(|p| {
                let after = self.after(p);
                let (after, fate) = match p.state {
                    State::Waiting => (p.source.strength, Fate::NotEngaged),
                    State::Killed => (0, Fate::Destroyed),
                    _ if p.unit.fights() && p.cv == 0 => (0, Fate::Destroyed),
                    State::On => (after, Fate::Stood),
                    State::Gone => (after, Fate::Routed),
                };
                Ending {
                    stand: p.source,
                    side: p.side,
                    fate,
                    strength_after: after,
                    at: centre(p.at),
                }
            })
            .collect();
        engine::finish(
            self.scenario,
            RuleSetId::Harman2021,
            self.seed,
            self.clock.fought,
            endings.into_iter(),
            self.log,
            false,
        )
    }

    fn say(&mut self, text: impl FnOnce(&Self) -> String) {
        let mut log = std::mem::take(&mut self.log);
        log.say(self.turn, || text(self));
        self.log = log;
    }

    fn name(&self, i: usize) -> &str {
        self.pieces.get(i).map_or("?", |p| p.source.name.as_str())
    }

    fn side_name(&self, s: usize) -> &str {
        self.scenario.sides.get(s).map_or("?", |x| x.name.as_str())
    }
}

fn plural(n: u32) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Distance in squares, diagonals counting one.
pub fn cheb(a: Square, b: Square) -> u32 {
    (a.0 - b.0).unsigned_abs().max((a.1 - b.1).unsigned_abs())
}

fn manhattan(a: Square, b: Square) -> u32 {
    (a.0 - b.0).unsigned_abs() + (a.1 - b.1).unsigned_abs()
}

impl Turns for Battle<'_> {
    const ENDS_ON_ARRIVAL: bool = false;

    fn clock(&mut self) -> &mut Clock {
        &mut self.clock
    }

    fn turn_limit(&self) -> u32 {
        self.last_turn
    }

    fn begin_turn(&mut self, turn: u32) {
        self.turn = turn;
        for p in &mut self.pieces {
            p.penalty = 0;
            p.moved = false;
            p.attacked = false;
            p.fought = false;
            p.skirmish_flags = 0;
        }
        self.bring_on_reserves();
    }

    fn phases(&mut self, _turn: u32) {
        self.wounded_leaders();
        // The Turn Sequence: "Both sides fire their Artillery, save for Horse
        // Artillery, which may Fire after moving ... deemed to be simultaneous".
        self.artillery_phase();
        // "Both sides throw a D6 die; that with the lower score can choose
        // whether to move and Fire first." The doctrine: the winner moves first.
        let first = initiative(&mut self.dice, self.streaks);
        for (s, streak) in self.streaks.iter_mut().enumerate() {
            *streak = if s == first { *streak + 1 } else { 0 };
        }
        self.say(|me| format!("{} wins the initiative and moves first.", me.side_name(first)));
        for side in [first, 1 - first] {
            self.continue_close_combat(side);
            self.side_phase(side);
            for p in &mut self.pieces {
                if p.side == side {
                    p.halted = false;
                }
            }
        }
        self.rally();
    }

    fn over(&self) -> bool {
        self.finished(0) || self.finished(1) || self.broken(0) || self.broken(1)
    }
}
