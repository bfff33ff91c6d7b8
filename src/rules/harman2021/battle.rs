//! The battle: units on the grid, the turn sequence, fire, close combat and
//! the end. Units live in the battle core's [`Roster`]; an occupancy grid
//! holds one fighting unit a square (Generals and ADCs ride with a unit and hold no square).

mod arms;
mod conduct;
mod fire;
mod melee;

use super::tables::{
    BayonetAnswer, CAVALRY_CHARGE, CAVALRY_MANOEUVRE, CavalryReply, Condition, FOOT_ARTILLERY_MOVE,
    FlagEffect, HORSE_ARTILLERY_MOVE, Hit, INFANTRY_MARCH, INFANTRY_TACTICAL, LEADER_MOVE, MUSKET_RANGE,
    SKIRMISH_DICE, SKIRMISHER_MOVE, SquareResult, Throw, Unit, artillery_fire, artillery_ranges,
    attacker_commits, bayonet_answer, bayonet_return_dice, blocks_sight, casualty, cavalry_against_foot,
    cavalry_reply, cavalry_reply_dice, close_combat_dice, combat_value, condition, dice_for_condition,
    fire_at, flag_effect, forest_allows_skirmish_fire, halted, initiative, is_bua, may_engage, may_enter,
    must_stop, pursuit_dice, rallies, skirmish_falls_back, square_reply, strength_after, tactical_dice,
    terrain_move_cap, undecided_retire, unit_of, wounded_leaves,
};
use crate::model::{RuleSetId, StandKind};
use crate::rules::approach::{Generals, Movers, Opening};
use crate::rules::board::{Board, Point, centre, front_of, show, square_of};
use crate::rules::dice::Dice;
use crate::rules::engine::{self, Clock, Ending, Member, Roster, Setting, Status, Turns};
use crate::rules::{Fate, Log, Outcome, Resolve, ResolveThrow, doctrine};
use crate::scenario::{Cell, Role, Scenario};

/// What the attacker adds to its resolve ([`Resolve`]), as a share of its
/// points: this program's own, set on the proving ground's mirror battles
/// (the same army each side, open ground). Under this rule set the
/// attacker comes on into the fire of a standing line, so at an equal
/// resolve it broke first in 55% of the mirrors at every size; half a pip
/// (2.5%) evens them. CDB90's 51 battles of 1800-1849
/// (`../shared/history/`), in which the attackers won 55%, agree that an
/// attacker gave up no sooner than a defender.
pub(super) const ATTACKER_RESOLVE: f64 = 0.025;

/// A square: (x, y).
pub use crate::rules::board::Square;

const EMPTY: u32 = u32::MAX;
const FAR: u8 = u8::MAX;
const ORTHOGONAL: [Square; 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

/// The battle lasts the scenario's turns; the seed sets no limit.
const DEFAULT_TURNS: u32 = 12;

/// A unit on the grid: the core's member (its scenario stand, side,
/// square, arrival, status: routed off or a leader forced from the field by
/// a wound is out `Routed`, a leader killed out `Destroyed`) with what
/// Harman's rules ask of it.
type Piece<'a> = Member<'a, Square, Stand>;

/// What Harman's rules keep of a unit.
#[derive(Debug, Clone)]
struct Stand {
    unit: Unit,
    /// Tactical dice of its troop quality.
    quality: u32,
    cv_start: u32,
    cv: u32,
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
    /// A defending unit's post on or about the objective it guards.
    post: Option<Square>,
}

impl Piece<'_> {
    fn on(&self) -> bool {
        self.fighting()
    }
    fn condition(&self) -> Condition {
        condition(self.cv_start, self.cv)
    }
    /// Tactical dice it throws now: quality, less one when Shaken, less the
    /// turn's Flags.
    fn dice(&self) -> u32 {
        dice_for_condition(self.quality, self.condition()).saturating_sub(self.penalty)
    }
    fn combatant(&self) -> bool {
        self.on() && self.unit.fights()
    }
    fn may_attack(&self) -> bool {
        self.combatant() && self.condition() == Condition::Fresh && !self.retiring && !self.halted
    }
}

/// What a square's terrain asks of a unit moving, in a byte: whether it
/// may enter (`may_enter`), must stop there (`must_stop`), and how far it
/// may move from there in a turn (`terrain_move_cap`: 1, 2 or no limit).
struct Passage;

impl Passage {
    const ENTER: u8 = 1;
    const STOP: u8 = 2;
    const CAP_ONE: u8 = 4;
    const CAP_TWO: u8 = 8;
    const CLASSES: usize = 8;

    fn of(unit: Unit, cell: &Cell) -> u8 {
        let flag = |on: bool, f: u8| if on { f } else { 0 };
        let cap = terrain_move_cap(unit, cell);
        flag(may_enter(unit, cell), Passage::ENTER)
            | flag(must_stop(unit, cell), Passage::STOP)
            | flag(cap == 1, Passage::CAP_ONE)
            | flag(cap == 2, Passage::CAP_TWO)
    }

    fn cap(pass: u8) -> u32 {
        if pass & Passage::CAP_ONE != 0 {
            1
        } else if pass & Passage::CAP_TWO != 0 {
            2
        } else {
            u32::MAX
        }
    }

    /// Units the terrain treats alike share a class.
    fn class(unit: Unit) -> usize {
        match unit {
            Unit::FormedInfantry { .. } => 0,
            Unit::Skirmishers => 1,
            Unit::FootArtillery => 2,
            Unit::HorseArtillery => 3,
            Unit::Cavalry => 4,
            Unit::General => 5,
            Unit::Adc => 6,
            Unit::Transport => 7,
        }
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
    pieces: Roster<'a, Square, Stand>,
    grid: Vec<u32>,
    /// Per row of the grid, on a table at most 64 squares wide (else
    /// empty): which of its squares `grid` holds a unit in, bit `x` for
    /// column `x`; kept with `grid`, so that the squares about a battery
    /// are looked up a row at a time ([`Battle::stops_near`]).
    rows: Vec<u64>,
    /// Per square: (the reach it was stamped by, its steps).
    dist: Vec<(u32, u8)>,
    stamp: u32,
    /// How far the last [`Battle::reach`] went.
    reach_radius: u8,
    /// Per side: its enemies' squares and indices, and per square whether
    /// an enemy is orthogonally next to it; rebuilt when stale.
    foes: [Vec<(Square, usize)>; 2],
    /// The same enemies' columns and rows, apart, in the same order: the
    /// nearest is found in one pass the compiler does several at a time.
    foe_x: [Vec<i32>; 2],
    foe_y: [Vec<i32>; 2],
    contact: [Vec<bool>; 2],
    stale: [bool; 2],
    /// Per side: bumped whenever its enemies move or fall.
    versions: [u32; 2],
    /// Per piece: (its side's version, its square, its nearest enemy).
    nearest: Vec<std::cell::Cell<Nearest>>,
    /// Whether any square can block sight (else every sight is clear).
    blind: bool,
    /// Per corner `(x, y)` of the grid (`(width + 1)` a row): how many
    /// squares above and left of it could block someone's sight, so that a
    /// line with none in its box is seen without tracing it.
    blinds_before: Vec<u32>,
    /// Per square: whether it could block someone's sight.
    may_block: Vec<bool>,
    /// Scratch for the guns' candidate targets (distance, enemy).
    candidates: Vec<u64>,
    /// Scratch for the squares a battery weighs as its position, nearest its goal first.
    gun_squares: Vec<(f64, Square)>,
    /// Per kind of unit ([`Passage::class`]), per square: what its terrain
    /// asks of the unit moving ([`Passage::of`]); empty until first used.
    passages: [Vec<u8>; Passage::CLASSES],
    /// Lines of sight already traced: per square looked from, empty until
    /// first used, then per square and viewer class 0 (not yet), 1 (seen)
    /// or 2 (blocked). The terrain never changes within a battle.
    sight_memo: std::cell::RefCell<Vec<Vec<u8>>>,
    /// The squares the last [`Battle::reach`] reached, in order.
    reached: Vec<Square>,
    dice: Dice,
    log: Log,
    turn: u32,
    last_turn: u32,
    goals: [Point; 2],
    roles: [Role; 2],
    fronts: [Square; 2],
    /// Each side's general's plan, drawn by dice before the battle.
    plans: [doctrine::Plan; 2],
    /// Turns running each side has won the initiative.
    streaks: [u32; 2],
    engaged: Vec<Engagement>,
    clock: Clock,
    seed: u64,
}

/// How a general throws for his resolve ([`Resolve`]): 2D6, 5% and 5% a
/// pip over two ([`ResolveThrow::TWO_DICE`], the battle core's).
const RESOLVE_THROW: ResolveThrow = ResolveThrow::TWO_DICE;

impl<'a> Opening<'a> for Battle<'a> {
    const RESOLVE_THROW: ResolveThrow = RESOLVE_THROW;
    const ATTACKER_RESOLVE: f64 = ATTACKER_RESOLVE;

    fn lay_out(setting: &'a Setting<'a>, generals: Generals<'a>) -> Battle<'a> {
        Battle::lay_out(setting, generals, 0, false)
    }

    fn first_mover(_: &Setting<'a>, movers: Movers, dice: &mut Dice) -> usize {
        initiative(dice, [movers.streak(0), movers.streak(1)])
    }

    fn dice(&self) -> &Dice {
        &self.dice
    }

    fn go_on_with(&mut self, dice: Dice, resolve: Resolve) {
        self.dice = dice;
        self.pieces.resolve = resolve;
    }

    fn lost_nothing(&self) -> bool {
        // Standing as the army's break counts it ([`Battle::over`]).
        self.pieces
            .lost_nothing(|p| if p.on() { self.after(p) } else { 0 })
    }

    fn outcome(mut self, seed: u64) -> Outcome {
        self.seed = seed;
        self.finish()
    }
}

impl<'a> Battle<'a> {
    /// [`Battle::set_out`] on the scenario's own setting.
    pub fn new(scenario: &'a Scenario, seed: u64, keep_log: bool) -> Battle<'a> {
        Battle::set_out(&Setting::new(scenario), seed, keep_log)
    }

    /// Sets out the table for the battle of `seed`: its generals drawn
    /// ([`Generals`]), every unit on its place.
    pub fn set_out(setting: &Setting<'a>, seed: u64, keep_log: bool) -> Battle<'a> {
        let generals = Generals::draw(setting, seed, RESOLVE_THROW, ATTACKER_RESOLVE);
        Battle::lay_out(setting, generals, seed, keep_log)
    }

    /// The battle of `seed` that `generals` fight on `setting`'s table, set
    /// out. Throws no die: a battle whose first turns are taken from
    /// another's table ([`Opening`]) goes on with its own.
    fn lay_out(setting: &Setting<'a>, generals: Generals<'a>, seed: u64, keep_log: bool) -> Battle<'a> {
        let scenario = setting.scenario;
        let board = setting.board.clone();
        let width = i32::try_from(board.width).unwrap_or(0);
        let depth = i32::try_from(board.depth).unwrap_or(0);
        let n = usize::try_from(width).unwrap_or(0) * usize::try_from(depth).unwrap_or(0);
        let role = |s: usize| scenario.sides.get(s).map_or(Role::Defender, |x| x.role);
        let Generals { dice, resolve, sides } = generals;
        let plans = sides.map(|s| s.plan);
        let mut b = Battle {
            scenario,
            goals: [setting.goal(0), setting.goal(1)],
            board,
            width,
            depth,
            cells: scenario.table.cells(),
            pieces: Roster::with_resolve(resolve),
            grid: vec![EMPTY; n],
            rows: if width <= 64 {
                vec![0; usize::try_from(depth).unwrap_or(0)]
            } else {
                Vec::new()
            },
            dist: vec![(0, FAR); n],
            stamp: 0,
            reach_radius: 0,
            foes: [Vec::new(), Vec::new()],
            foe_x: [Vec::new(), Vec::new()],
            foe_y: [Vec::new(), Vec::new()],
            contact: [vec![false; n], vec![false; n]],
            stale: [true, true],
            versions: [1, 1],
            nearest: Vec::new(),
            blind: scenario
                .table
                .cells()
                .iter()
                .any(|c| blocks_sight(c, Unit::FootArtillery, 0) || c.level > 0),
            blinds_before: Vec::new(),
            may_block: scenario
                .table
                .cells()
                .iter()
                .map(|c| blocks_sight(c, Unit::FootArtillery, 0))
                .collect(),
            candidates: Vec::new(),
            gun_squares: Vec::new(),
            passages: Default::default(),
            sight_memo: std::cell::RefCell::new(vec![Vec::new(); n]),
            reached: Vec::new(),
            dice,
            log: Log::new(keep_log),
            turn: 0,
            last_turn: if scenario.turn_limit == 0 {
                DEFAULT_TURNS
            } else {
                scenario.turn_limit
            },
            roles: [role(0), role(1)],
            fronts: [front_of(scenario, 0), front_of(scenario, 1)],
            plans,
            streaks: [0, 0],
            engaged: Vec::new(),
            clock: Clock::default(),
            seed,
        };
        b.blinds_before = b.count_blinds();
        for (s, plan) in plans.iter().enumerate().take(scenario.sides.len()) {
            let name = scenario.sides.get(s).map_or("", |x| x.name.as_str());
            let plan = plan.describe();
            let resolve = b.pieces.resolve;
            b.log.say(1, || format!("{name} {plan}; it {}", resolve.words(s)));
            b.deploy_side(setting, s);
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
        // A negative coordinate read as unsigned is past any edge, so one
        // test a coordinate finds it off the table on either side (the
        // width and depth are never negative: `set_out`).
        let (x, y) = (sq.0.cast_unsigned(), sq.1.cast_unsigned());
        let (width, depth) = (self.width.cast_unsigned(), self.depth.cast_unsigned());
        if x >= width || y >= depth {
            return None;
        }
        usize::try_from(y * width + x).ok()
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

    /// The square `sq` as a unit of side `side` fights from it: a trench
    /// shelters only the defender's ([`crate::scenario::Cell::held_by`]).
    fn cell_held(&self, sq: Square, side: usize) -> Cell {
        let role = self.plans.get(side).map_or(Role::Defender, |p| p.role);
        self.cell(sq).held_by(role)
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
            let held = *g != EMPTY;
            self.mark(sq, held);
        }
        if let Some(p) = self.pieces.get_mut(i) {
            p.at = sq;
            p.status = Status::Fighting;
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
            self.mark(at, false);
        }
    }

    /// Keeps [`Battle::rows`] with the grid: square `sq` (on the table)
    /// now holds a unit, or not.
    fn mark(&mut self, sq: Square, held: bool) {
        let (Ok(x), Ok(y)) = (u32::try_from(sq.0), usize::try_from(sq.1)) else {
            return;
        };
        if let Some(row) = self.rows.get_mut(y) {
            let bit = 1_u64.checked_shl(x).unwrap_or(0);
            if held {
                *row |= bit;
            } else {
                *row &= !bit;
            }
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
        let mut xs = self.foe_x.get_mut(side).map(std::mem::take).unwrap_or_default();
        let mut ys = self.foe_y.get_mut(side).map(std::mem::take).unwrap_or_default();
        foes.clear();
        xs.clear();
        ys.clear();
        contact.fill(false);
        for (e, p) in self.pieces.iter().enumerate() {
            if p.side == side || !p.combatant() {
                continue;
            }
            foes.push((p.at, e));
            xs.push(p.at.0);
            ys.push(p.at.1);
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
        if let Some(f) = self.foe_x.get_mut(side) {
            *f = xs;
        }
        if let Some(f) = self.foe_y.get_mut(side) {
            *f = ys;
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

    /// Whether an enemy of `side` is fewer than `keep` squares from `sq`.
    fn threatened(&self, side: usize, sq: Square, keep: u32) -> bool {
        self.foes
            .get(side.min(1))
            .is_some_and(|f| f.iter().any(|&(at, _)| cheb(at, sq) < keep))
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
            .filter(move |(_, p)| p.side != side && p.combatant())
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
        // The nearest, the first listed among equals (the list is in the
        // order of the pieces, so the lowest index), as one key: the
        // distance above, the place in the list below. Columns and rows
        // apart, so the compiler scans several enemies at a time.
        let (xs, ys) = (self.foe_x.get(side)?, self.foe_y.get(side)?);
        let n = xs.len().min(ys.len()).min(NEAREST_PLACES);
        let (xs, ys) = (xs.get(..n)?, ys.get(..n)?);
        let best = xs
            .iter()
            .zip(ys)
            .zip(0_i32..)
            .map(|((&x, &y), k)| {
                let d = x
                    .wrapping_sub(at.0)
                    .wrapping_abs()
                    .max(y.wrapping_sub(at.1).wrapping_abs());
                (d.clamp(0, NEAREST_FAR) << 16) | k
            })
            .min()?;
        let (k, d) = (
            usize::try_from(best & 0xFFFF).ok()?,
            u32::try_from(best >> 16).ok()?,
        );
        self.foes.get(side)?.get(k).map(|&(_, e)| (e, d))
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
                .filter(|&o| self.side(o) != side && self.pieces.get(o).is_some_and(Piece::combatant))
        })
    }

    // ------------------------------------------------------------------------
    // Setting out.

    fn after(&self, p: &Piece<'_>) -> u32 {
        if p.unit.fights() {
            strength_after(p.before(), p.cv_start, p.cv)
        } else {
            p.before()
        }
    }

    /// A side has broken (the core's count, each unit standing at its
    /// Combat Value's share of its points) or has no fighting unit left on
    /// the table or to come.
    fn over(&self) -> bool {
        let standing = |p: &Piece<'_>| if p.on() { self.after(p) } else { 0 };
        self.pieces
            .over(|p| p.unit.fights() && (p.combatant() || p.waiting()), standing)
    }

    pub fn finish(self) -> Outcome {
        let endings: Vec<Ending<'_>> = self
            .pieces
            .iter()
            .map(|p| {
                let after = self.after(p);
                let (after, fate) = match p.status {
                    Status::Waiting => (p.before(), Fate::NotEngaged),
                    Status::Out(Fate::Destroyed) => (0, Fate::Destroyed),
                    _ if p.unit.fights() && p.cv == 0 => (0, Fate::Destroyed),
                    Status::Fighting => (after, Fate::Stood),
                    Status::Out(fate) => (after, fate),
                };
                Ending {
                    stand: p.stand,
                    side: p.side,
                    fate,
                    strength_after: after,
                    at: centre(p.at),
                }
            })
            .collect();
        engine::finish(
            self.scenario,
            engine::Ended {
                rules: RuleSetId::Harman2021,
                seed: self.seed,
                turns: self.clock.fought,
                resolve: self.pieces.resolve,
                last_word: None,
            },
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
        self.pieces.get(i).map_or("?", |p| p.name())
    }

    fn side_name(&self, s: usize) -> &str {
        self.scenario.sides.get(s).map_or("?", |x| x.name.as_str())
    }
}

/// [`Battle::find_nearest`]'s key: the place in the list in its low 16
/// bits (no army has 65,536 pieces), the distance above them, held under
/// 32,768 squares (no table is so wide).
const NEAREST_PLACES: usize = 1 << 16;
const NEAREST_FAR: i32 = (1 << 15) - 1;

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
        let streaks = self.streaks;
        let first = self.dice.for_move(|dice| initiative(dice, streaks));
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
        Battle::over(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Arm;

    /// Battles that take their quiet opening turns from other battles are
    /// each the battle fought alone
    /// ([`crate::rules::approach::check_shares`]). Abu Tleih's foot alone:
    /// the British battery and Maxim fire from the first turn, so no turn
    /// of the whole table is quiet, and its horse and mounted infantry
    /// charge in most first turns.
    #[test]
    fn shared_turns_change_no_battle() {
        let mut scenario = crate::rules::tests::scenario();
        for side in &mut scenario.sides {
            side.stands.retain(|s| {
                s.kind != StandKind::MountedInfantry
                    && s.kind.arm() != Arm::Cavalry
                    && s.kind.arm() != Arm::Artillery
            });
        }
        crate::rules::approach::check_shares::<Battle>(&Setting::new(&scenario));
    }

    /// The nearest enemy found from the side's list, several at a time,
    /// is the one a plain look over every enemy piece finds: the nearest,
    /// the lowest index among equals; from every square of the table and
    /// round it, for both sides, before and after the first moves.
    #[test]
    fn the_nearest_enemy_from_the_list_is_the_nearest_of_all() {
        let scenario = crate::rules::tests::scenario();
        let mut b = Battle::new(&scenario, 1, false);
        let (w, d) = (b.width, b.depth);
        let mut ties = 0;
        for round in 0..3 {
            for side in 0..2 {
                b.refresh(side);
                assert!(!b.stale[side]);
                for y in -2..d + 2 {
                    for x in -2..w + 2 {
                        let plain = b
                            .pieces
                            .iter()
                            .enumerate()
                            .filter(|(_, p)| p.side != side && p.combatant())
                            .map(|(e, p)| (e, cheb((x, y), p.at)))
                            .min_by_key(|&(e, dist)| (dist, e));
                        let listed = b.find_nearest(side, (x, y));
                        assert_eq!(listed, plain, "side {side} from ({x}, {y}), round {round}");
                        let equals = b
                            .pieces
                            .iter()
                            .filter(|p| p.side != side && p.combatant())
                            .filter(|p| plain.is_some_and(|(_, dist)| cheb((x, y), p.at) == dist))
                            .count();
                        ties += usize::from(equals > 1);
                    }
                }
            }
            // Both sides move and fight, and the lists are made again.
            for side in 0..2 {
                b.side_phase(side);
            }
        }
        assert!(ties > 0, "some squares have two enemies at the nearest distance");
    }

    /// The squares a unit can reach, the queue of squares reached read
    /// ring by ring, are those of a search that keeps each ring apart: the
    /// same squares in the same order, at the same steps, for every unit,
    /// budgets of one to four, before and after the first moves.
    #[test]
    fn reach_is_the_search_ring_by_ring() {
        let scenario = crate::rules::tests::scenario();
        let mut b = Battle::new(&scenario, 3, false);
        let mut reaches = 0;
        for round in 0..3 {
            for i in 0..b.pieces.len() {
                if !b.pieces[i].on() {
                    continue;
                }
                for budget in 1..=4 {
                    b.reach(i, budget);
                    // The plain search: each ring its own list.
                    let (unit, side, start) = (b.unit(i), b.side(i), b.at(i));
                    let budget = budget.min(terrain_move_cap(unit, &b.cell(start)));
                    let pass = |sq: Square| b.slot(sq).map_or(0, |k| Passage::of(unit, &b.cells[k]));
                    let contact = |sq: Square| b.slot(sq).is_some_and(|k| b.contact[side.min(1)][k]);
                    let mut steps_to = std::collections::HashMap::from([(start, 0_u32)]);
                    let (mut order, mut ring) = (vec![start], vec![start]);
                    for steps in 1..=budget {
                        let mut next = Vec::new();
                        for &sq in &ring {
                            let held = sq != start && b.occupant(sq).is_some();
                            let stops = sq != start && (pass(sq) & Passage::STOP != 0 || contact(sq));
                            if stops || steps > Passage::cap(pass(sq)) || held {
                                continue;
                            }
                            for d in ORTHOGONAL {
                                let n = (sq.0 + d.0, sq.1 + d.1);
                                if b.slot(n).is_none() || steps_to.contains_key(&n) {
                                    continue;
                                }
                                let enemy = b.occupant(n).is_some_and(|o| b.side(o) != side);
                                if pass(n) & Passage::ENTER == 0 || enemy {
                                    continue;
                                }
                                steps_to.insert(n, steps);
                                next.push(n);
                                order.push(n);
                            }
                        }
                        ring = next;
                    }
                    assert_eq!(b.reached, order, "unit {i}, budget {budget}, round {round}");
                    for (&sq, &steps) in &steps_to {
                        assert_eq!(b.steps_to(sq), Some(steps), "unit {i} to {sq:?}");
                    }
                    reaches += 1;
                }
            }
            for side in 0..2 {
                b.side_phase(side);
            }
        }
        assert!(reaches > 0);
    }

    /// `slot`'s one unsigned test a coordinate agrees with the four
    /// comparisons it replaced, on the table, just off each edge and at
    /// the far ends of the coordinates.
    #[test]
    fn slot_finds_every_square_on_the_table_and_none_off_it() {
        let scenario = crate::rules::tests::scenario();
        let b = Battle::new(&scenario, 1, false);
        crate::rules::board::assert_slots(b.width, b.depth, |sq| b.slot(sq));
    }
}
