//! The battle: the stands on the grid, the turn sequence and the end.
//!
//! Stands live in the battle core's [`Roster`] with integer squares; an
//! occupancy grid (two places a square, front then rear) answers "who is in
//! this square".

use super::bits::TableBits;
use super::tables::{
    Facing, MAX_TURNS, STANDS_PER_SQUARE, Square, StandType, behind_wall_or_entrenched, covered_from_fire,
    default_weapon, flat_open, is_artillery, is_cavalry, is_general, is_infantry, is_obstacle,
    is_vertical_obstacle, is_wood, move_squares, range_squares, stand_type, stand_value,
};
use crate::model::StandId;
use crate::rules::Resolve;
use crate::rules::board::{Board, Point};
pub(super) use crate::rules::board::{centre, show, square_of as square_of_point};
use crate::rules::dice::Dice;
use crate::rules::engine::{self, Clock, Ending, Member, Roster, Setting, Status, Turns};
use crate::rules::{Fate, LastWord, Log, Outcome, doctrine};
use crate::scenario::{Cell, Role, Scenario, TableStand};

/// What the attacker adds to its resolve ([`Resolve`]), as a share of its
/// points: nothing. This program's own: the proving ground's mirror
/// battles under this rule set come out within 0.10 without it.
pub(super) const ATTACKER_RESOLVE: f64 = 0.0;

/// No stand in this place of a square.
pub(super) const EMPTY: u32 = u32::MAX;

/// What the rules ask of a square, worked out once per battle.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Going {
    pub(super) level: u8,
    flags: u16,
}

impl Going {
    const WATER: u16 = 1;
    const ROAD: u16 = 2;
    const INFANTRY_ONLY: u16 = 4;
    const OBSTACLE: u16 = 8;
    const COVER_FROM_FIRE: u16 = 16;
    const WALL_OR_TRENCH: u16 = 32;
    const OPEN: u16 = 64;
    /// [`Going::COVER_FROM_FIRE`] and [`Going::WALL_OR_TRENCH`] to an
    /// attacker's stand, for whom a trench is no cover
    /// ([`crate::scenario::Cell::held_by`]).
    const ATTACKER_COVER_FROM_FIRE: u16 = 128;
    const ATTACKER_WALL: u16 = 256;

    fn of(cell: &Cell) -> Going {
        let flag = |on: bool, f: u16| if on { f } else { 0 };
        let attackers = cell.held_by(Role::Attacker);
        Going {
            level: cell.level,
            flags: flag(cell.is_water(), Going::WATER)
                | flag(cell.road, Going::ROAD)
                | flag(is_wood(cell) || is_vertical_obstacle(cell), Going::INFANTRY_ONLY)
                | flag(is_obstacle(cell), Going::OBSTACLE)
                | flag(covered_from_fire(cell), Going::COVER_FROM_FIRE)
                | flag(behind_wall_or_entrenched(cell), Going::WALL_OR_TRENCH)
                | flag(covered_from_fire(&attackers), Going::ATTACKER_COVER_FROM_FIRE)
                | flag(behind_wall_or_entrenched(&attackers), Going::ATTACKER_WALL)
                // A square is open when it is flat open country with itself.
                | flag(flat_open(cell, cell), Going::OPEN),
        }
    }

    /// Fire Combat: "behind a wall, in entrenchments, or inside a wood", to
    /// a stand of a side in `role` here.
    pub(super) fn covered_from_fire(self, role: Role) -> bool {
        let flag = match role {
            Role::Attacker => Going::ATTACKER_COVER_FROM_FIRE,
            Role::Defender => Going::COVER_FROM_FIRE,
        };
        self.flags & flag != 0
    }

    /// Close Combat: "behind a wall or in entrenchments", to a stand of a
    /// side in `role` here.
    pub(super) fn wall_or_trench(self, role: Role) -> bool {
        let flag = match role {
            Role::Attacker => Going::ATTACKER_WALL,
            Role::Defender => Going::WALL_OR_TRENCH,
        };
        self.flags & flag != 0
    }

    /// "flat, open country" between this square and `other`.
    pub(super) fn flat_open_with(self, other: Going) -> bool {
        self.flags & other.flags & Going::OPEN != 0 && self.level == other.level
    }

    /// A river: no stand may enter it.
    pub(super) fn water(self) -> bool {
        self.flags & Going::WATER != 0
    }

    pub(super) fn road(self) -> bool {
        self.flags & Going::ROAD != 0
    }

    /// Woods or a wall or hedge: "Only Infantry may move off-road through
    /// woods or can cross vertical obstacles" (MOVEMENT).
    pub(super) fn infantry_only(self) -> bool {
        self.flags & Going::INFANTRY_ONLY != 0
    }

    /// An obstacle of note viii.
    pub(super) fn obstacle(self) -> bool {
        self.flags & Going::OBSTACLE != 0
    }
}

/// A stand on the grid: the core's member (its scenario stand, or the
/// umpire's General of a side with none; side, square, arrival, status)
/// with what Cordery's rules ask of it.
pub(super) type Piece<'a> = Member<'a, Square, Stand>;

/// Everything the rules ask of a stand, worked out once, and its turn's marks.
#[derive(Debug, Clone)]
pub(super) struct Stand {
    pub(super) kind: StandType,
    pub(super) value: i32,
    pub(super) moves: i32,
    /// Fire range in squares; 0 for stands that do not fire.
    pub(super) range: i32,
    pub(super) infantry: bool,
    pub(super) cavalry: bool,
    pub(super) artillery: bool,
    pub(super) general: bool,
    pub(super) transport: bool,
    pub(super) facing: Facing,
    /// Activated this turn.
    pub(super) activated: bool,
    /// Initiated a combat this turn.
    pub(super) initiated: bool,
    /// A defender's place in the line.
    pub(super) post: Square,
}

impl Piece<'_> {
    /// Infantry and cavalry: the stands the doctrine sends into close combat.
    pub(super) fn fighter(&self) -> bool {
        self.infantry || self.cavalry
    }

    pub(super) fn on_table(&self) -> bool {
        self.fighting()
    }
}

/// Where a stand forced to withdraw ends up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Withdrawal {
    /// It withdraws `squares` squares to `square`.
    To { square: Square, squares: i32 },
    /// It would need more than four squares, or an obstacle, an enemy stand
    /// or the table's edge stops it: it is destroyed.
    Destroyed,
}

/// What a table gives every battle fought on it: worked out once for a run
/// of battles ([`Battle::set_out_on`]), not once a battle.
#[derive(Debug, Clone)]
pub(crate) struct Ground {
    /// Per square: its going.
    going: Vec<Going>,
    /// The going as bits, no stand yet on the table ([`TableBits::of`]).
    bits: Option<TableBits>,
    /// The squares that block sight.
    blinds: Vec<Square>,
}

impl Ground {
    /// The ground of `setting`'s table.
    pub(crate) fn of(setting: &Setting<'_>) -> Ground {
        let board = &setting.board;
        let width = i32::try_from(board.width).unwrap_or(0);
        let depth = i32::try_from(board.depth).unwrap_or(0);
        let going: Vec<Going> = setting.scenario.table.cells().iter().map(Going::of).collect();
        let bits = TableBits::of(&going, width);
        let blinds = (0..depth)
            .flat_map(|y| (0..width).map(move |x| (x, y)))
            .filter(|&(x, y)| board.cell(i64::from(x), i64::from(y)).blocks_sight())
            .collect();
        Ground { going, bits, blinds }
    }
}

/// A battle under Cordery's rules, turn by turn.
#[derive(Debug, Clone)]
pub struct Battle<'a> {
    pub(super) scenario: &'a Scenario,
    pub(super) board: Board,
    pub(super) width: i32,
    pub(super) depth: i32,
    pub(super) pieces: Roster<'a, Square, Stand>,
    /// The names of the Generals the umpire supplies, side by side.
    pub(super) supplied_names: [String; 2],
    /// Per square (`y * width + x`): the front and rear stand, or [`EMPTY`].
    pub(super) squares: Vec<[u32; STANDS_PER_SQUARE]>,
    /// Per square: 0 if empty, else 1 + the side of the stands in it.
    pub(super) owner: Vec<u8>,
    /// Per square: its going.
    pub(super) going: Vec<Going>,
    /// The going and [`Battle::owner`] as bits, a row to a word, for the
    /// move's search; `None` on a table too wide for it or of more hill
    /// levels than it keeps ([`TableBits::of`]).
    pub(super) bits: Option<TableBits>,
    /// The squares that block sight (towns' and woods' inner squares).
    pub(super) blinds: Vec<Square>,
    pub(super) dice: Dice,
    pub(super) log: Log,
    pub(super) turn: u32,
    pub(super) last_turn: u32,
    /// Where each side makes for (the doctrine's goal).
    pub(super) goals: [Point; 2],
    pub(super) roles: [Role; 2],
    /// Each side's general's plan, drawn by dice before the battle: how
    /// boldly his stands charge (`doctrine::Plan`).
    pub(super) plans: [doctrine::Plan; 2],
    /// Each side's facing at deployment: toward the enemy's side of the table.
    pub(super) fronts: [Facing; 2],
    /// Scratch for the order of activation: (priority, distance, stand).
    pub(super) order: Vec<(u8, i32, usize)>,
    /// Scratch for the squares of the enemy stands on the table.
    pub(super) enemy_squares: Vec<Square>,
    /// Scratch for a General's fighting stands, square by square.
    pub(super) fighters: Vec<u8>,
    pub(super) clock: Clock,
    pub(super) seed: u64,
}

impl<'a> Battle<'a> {
    /// [`Battle::set_out`] on the scenario's own setting.
    pub fn new(scenario: &'a Scenario, seed: u64, keep_log: bool) -> Battle<'a> {
        Battle::set_out(&Setting::new(scenario), seed, keep_log)
    }

    /// Sets out the table: both sides deployed, reserves waiting, each side
    /// with its General.
    pub fn set_out(setting: &Setting<'a>, seed: u64, keep_log: bool) -> Battle<'a> {
        Battle::set_out_on(setting, &Ground::of(setting), seed, keep_log)
    }

    /// [`Battle::set_out`] on `ground`, the setting's own ([`Ground::of`]),
    /// worked out once for a run of battles on the same table.
    pub(crate) fn set_out_on(
        setting: &Setting<'a>,
        ground: &Ground,
        seed: u64,
        keep_log: bool,
    ) -> Battle<'a> {
        let scenario = setting.scenario;
        let board = setting.board.clone();
        let width = i32::try_from(board.width).unwrap_or(0);
        let depth = i32::try_from(board.depth).unwrap_or(0);
        let cells = usize::try_from(width).unwrap_or(0) * usize::try_from(depth).unwrap_or(0);
        let role = |s: usize| scenario.sides.get(s).map_or(Role::Defender, |x| x.role);
        let goals = [setting.goal(0), setting.goal(1)];
        let fronts = [front_of(scenario, 0), front_of(scenario, 1)];
        let mut dice = Dice::new(seed);
        let resolve = Resolve::draw(&mut dice, scenario, ATTACKER_RESOLVE);
        let plans = [
            doctrine::Plan::draw(&mut dice, role(0)),
            doctrine::Plan::draw(&mut dice, role(1)),
        ];
        let mut battle = Battle {
            scenario,
            board,
            width,
            depth,
            pieces: Roster::with_resolve(resolve),
            supplied_names: [0, 1].map(|s| {
                let side = scenario.sides.get(s).map_or("?", |x| x.name.as_str());
                format!("the General of {side}")
            }),
            squares: vec![[EMPTY; STANDS_PER_SQUARE]; cells],
            owner: vec![0; cells],
            going: ground.going.clone(),
            bits: ground.bits.clone(),
            blinds: ground.blinds.clone(),
            dice,
            log: Log::new(keep_log),
            turn: 0,
            // cordery-2009-late-19th-century-rules.txt, TURN SEQUENCE: "The battle
            // lasts a maximum of twelve turns."
            last_turn: scenario.turn_limit.min(MAX_TURNS),
            goals,
            roles: [role(0), role(1)],
            plans,
            fronts,
            order: Vec::new(),
            enemy_squares: Vec::new(),
            fighters: Vec::new(),
            clock: Clock::default(),
            seed,
        };
        for s in 0..scenario.sides.len().min(2) {
            let name = scenario.sides.get(s).map_or("?", |x| x.name.as_str());
            // Described only for a battle that keeps its log.
            battle.log.say(1, || {
                let plan = plans.get(s).map(doctrine::Plan::describe).unwrap_or_default();
                format!("{name} {plan}; it {}.", resolve.words(s))
            });
            battle.deploy_side(setting, s);
        }
        for s in 0..2 {
            battle.supply_general(s);
        }
        battle
    }

    /// The turn being fought (0 before the first).
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// Whether the battle has ended.
    pub fn is_over(&self) -> bool {
        self.clock.over
    }

    /// The square of the stand with campaign id `id`, while it is on the table.
    pub fn square_of(&self, id: StandId) -> Option<Square> {
        self.index_of(id)
            .and_then(|i| self.pieces.get(i))
            .filter(|p| p.on_table())
            .map(|p| p.at)
    }

    /// The facing of the stand with campaign id `id`.
    pub fn facing_of(&self, id: StandId) -> Option<Facing> {
        self.index_of(id)
            .and_then(|i| self.pieces.get(i))
            .map(|p| p.facing)
    }

    /// Every stand on the table and its square, the umpire's own General
    /// included (with no id).
    pub fn positions(&self) -> Vec<(Option<StandId>, Square)> {
        self.pieces
            .iter()
            .filter(|p| p.on_table())
            .map(|p| ((!p.is_supplied()).then(|| p.id()), p.at))
            .collect()
    }

    /// The Cordery type of the stand with campaign id `id`.
    pub fn stand_type_of(&self, id: StandId) -> Option<StandType> {
        self.index_of(id).and_then(|i| self.pieces.get(i)).map(|p| p.kind)
    }

    pub(super) fn index_of(&self, id: StandId) -> Option<usize> {
        self.pieces.iter().position(|p| !p.is_supplied() && p.id() == id)
    }

    // ------------------------------------------------------------------------
    // Squares and who is in them.

    /// The index of `sq` in the grid, if it is on the table.
    pub(super) fn slot(&self, sq: Square) -> Option<usize> {
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

    pub(super) fn on_table(&self, sq: Square) -> bool {
        self.slot(sq).is_some()
    }

    /// The going of `sq`; open ground off the table.
    pub(super) fn going(&self, sq: Square) -> Going {
        self.slot(sq)
            .and_then(|k| self.going.get(k))
            .copied()
            .unwrap_or_default()
    }

    /// Whether a stand in `a` can see one in `b` (the board's line of sight,
    /// asked only when a square that blocks sight lies between them).
    pub(super) fn can_see(&self, a: Square, b: Square) -> bool {
        let (x0, x1) = (a.0.min(b.0), a.0.max(b.0));
        let (y0, y1) = (a.1.min(b.1), a.1.max(b.1));
        let between =
            |sq: &Square| *sq != a && *sq != b && (x0..=x1).contains(&sq.0) && (y0..=y1).contains(&sq.1);
        !self.blinds.iter().any(between) || self.board.clear_sight(centre(a), centre(b))
    }

    /// The stands in `sq`, front first.
    pub(super) fn occupants(&self, sq: Square) -> [Option<usize>; STANDS_PER_SQUARE] {
        let places = self
            .slot(sq)
            .and_then(|k| self.squares.get(k))
            .copied()
            .unwrap_or([EMPTY; STANDS_PER_SQUARE]);
        places.map(|p| (p != EMPTY).then(|| usize::try_from(p).ok()).flatten())
    }

    /// The front stand in `sq`.
    pub(super) fn front_at(&self, sq: Square) -> Option<usize> {
        let [front, _] = self.occupants(sq);
        front
    }

    /// How many stands are in `sq`.
    pub fn stands_in(&self, sq: Square) -> usize {
        self.occupants(sq).iter().flatten().count()
    }

    /// Whether `sq` has room for one more stand (not counting `mover`, who
    /// may be in it already).
    pub(super) fn has_room(&self, sq: Square, mover: usize) -> bool {
        self.on_table(sq)
            && self
                .occupants(sq)
                .iter()
                .flatten()
                .filter(|&&o| o != mover)
                .count()
                < STANDS_PER_SQUARE
    }

    /// Whether a stand of the side other than `side` is in `sq`.
    pub(super) fn enemy_in(&self, sq: Square, side: usize) -> bool {
        self.slot(sq)
            .and_then(|k| self.owner.get(k))
            .is_some_and(|&o| o != 0 && usize::from(o) != side + 1)
    }

    /// Whether stands of side `side` are in `sq`.
    pub(super) fn friends_in(&self, sq: Square, side: usize) -> bool {
        self.slot(sq)
            .and_then(|k| self.owner.get(k))
            .is_some_and(|&o| usize::from(o) == side + 1)
    }

    /// Whether an enemy of `side` is in a square adjacent to `sq`.
    pub(super) fn enemy_adjacent(&self, sq: Square, side: usize) -> bool {
        neighbours(sq).any(|n| self.enemy_in(n, side))
    }

    /// Whether stand `i` is the front stand of its square (alone, or first).
    pub(super) fn is_front(&self, i: usize) -> bool {
        self.pieces
            .get(i)
            .is_some_and(|p| p.on_table() && self.front_at(p.at) == Some(i))
    }

    /// The other stand in stand `i`'s square.
    pub(super) fn mate_of(&self, i: usize) -> Option<usize> {
        let at = self.pieces.get(i)?.at;
        self.occupants(at).into_iter().flatten().find(|&o| o != i)
    }

    /// Puts stand `i` in `sq`: in front if the square is empty, else behind
    /// (but in front of a General or Transport, which do not lead a pair
    /// into combat). "They must be placed one behind the other and face in
    /// the same direction" (THE BATTLEFIELD): the stand behind turns to the
    /// front stand's facing. False if there is no room.
    pub(super) fn put(&mut self, i: usize, sq: Square) -> bool {
        let Some(k) = self.slot(sq) else {
            return false;
        };
        let Ok(tag) = u32::try_from(i) else {
            return false;
        };
        let leads = |p: Option<&Piece<'_>>| p.is_some_and(Piece::fighter);
        let there = self
            .squares
            .get(k)
            .and_then(|p| p.first())
            .copied()
            .unwrap_or(EMPTY);
        let there = usize::try_from(there).ok().filter(|_| there != EMPTY);
        let ahead =
            there.is_some() && leads(self.pieces.get(i)) && !leads(there.and_then(|t| self.pieces.get(t)));
        let side = self.pieces.get(i).map_or(0, |p| p.side);
        let Some(places) = self.squares.get_mut(k) else {
            return false;
        };
        let Some(free) = places.iter().position(|&p| p == EMPTY) else {
            return false;
        };
        if let Some(place) = places.get_mut(free) {
            *place = tag;
        }
        if ahead {
            places.swap(0, free.min(STANDS_PER_SQUARE - 1));
        }
        let [front, rear] = *places;
        self.set_owner(k, u8::try_from(side + 1).unwrap_or(u8::MAX));
        if let Some(p) = self.pieces.get_mut(i) {
            p.at = sq;
            p.status = Status::Fighting;
        }
        let facing = usize::try_from(front)
            .ok()
            .and_then(|f| self.pieces.get(f))
            .map(|p| p.facing);
        if let (Some(f), Some(r)) = (
            facing,
            usize::try_from(rear).ok().and_then(|r| self.pieces.get_mut(r)),
        ) {
            r.facing = f;
        }
        true
    }

    /// Takes stand `i` out of its square; the stand behind moves up to the front.
    pub(super) fn lift(&mut self, i: usize) {
        let Some(at) = self.pieces.get(i).map(|p| p.at) else {
            return;
        };
        let Some(slot) = self.slot(at) else {
            return;
        };
        let Some(places) = self.squares.get_mut(slot) else {
            return;
        };
        let tag = u32::try_from(i).unwrap_or(EMPTY);
        if let Some(k) = places.iter().position(|&p| p == tag) {
            for j in k..STANDS_PER_SQUARE {
                let next = places.get(j + 1).copied().unwrap_or(EMPTY);
                if let Some(place) = places.get_mut(j) {
                    *place = next;
                }
            }
        }
        if places.iter().all(|&p| p == EMPTY) {
            self.set_owner(slot, 0);
        }
    }

    /// Who holds square `slot`: 0 for nobody, else 1 + the side
    /// ([`Battle::owner`]), kept in [`Battle::bits`] too.
    fn set_owner(&mut self, slot: usize, owner: u8) {
        if let Some(o) = self.owner.get_mut(slot) {
            *o = owner;
        }
        if let Some(bits) = self.bits.as_mut() {
            bits.set_owner(slot, owner);
        }
    }

    /// Turns stand `i`, and the stand sharing its square with it, to `facing`.
    pub(super) fn turn_to(&mut self, i: usize, facing: Facing) {
        let mate = self.mate_of(i);
        for j in std::iter::once(i).chain(mate) {
            if let Some(p) = self.pieces.get_mut(j) {
                p.facing = facing;
            }
        }
    }

    // ------------------------------------------------------------------------
    // The turn sequence.

    /// Fights one turn; does nothing once the battle is over.
    pub fn play_turn(&mut self) {
        engine::play_turn(self);
    }

    /// Whether side `s` has broken (the core's count: a stand here is
    /// whole or destroyed) or has nothing left on the table and nothing to
    /// come. The battle ends then, as under every rule set.
    pub(super) fn over(&self) -> bool {
        let standing = |p: &Piece<'_>| if p.on_table() { p.before() } else { 0 };
        self.pieces
            .over(|p| !matches!(p.status, Status::Out(_)), standing)
    }

    /// The last word: a battle that ends at its last turn with neither army
    /// broken and the two armies' losses even (shares lost within
    /// [`crate::rules::CLEAR_MARGIN`] of each other) is settled as the seed
    /// settles equal scores in combat: "If both stands' final scores are
    /// equal, each stand throws a D12 and the stand with the lowest score
    /// must withdraw" (COMBAT, Combat Results), equal throws again (note
    /// vii). Each side's General throws; the side with the lower throw
    /// withdraws and the other holds its ground. `None` when the battle
    /// ended otherwise or the losses are not even (the judge's margin
    /// decides those).
    fn last_word(&mut self) -> Option<LastWord> {
        if self.over() || self.clock.fought < self.last_turn {
            return None;
        }
        let share_lost = |s: usize| {
            let (before, standing) = self
                .pieces
                .iter()
                .filter(|p| p.side == s && !p.is_supplied())
                .fold((0_u64, 0_u64), |(b, a), p| {
                    let kept = if matches!(p.status, Status::Out(_)) {
                        0
                    } else {
                        p.before()
                    };
                    (b + u64::from(p.before()), a + u64::from(kept))
                });
            if before == 0 {
                1.0
            } else {
                1.0 - standing as f64 / before as f64
            }
        };
        if (share_lost(0) - share_lost(1)).abs() >= crate::rules::CLEAR_MARGIN {
            return None;
        }
        let (a, b) = loop {
            let (a, b) = (self.dice.d12(), self.dice.d12());
            if a != b {
                break (a, b);
            }
        };
        let holds = if a > b { 0 } else { 1 };
        let why = format!(
            "the Generals throw {a} to {b}, and {} must withdraw",
            self.side_name(1 - holds)
        );
        Some(LastWord {
            holds: Some(holds),
            why,
        })
    }

    /// Ends the battle: judges it and gives every stand's fate.
    pub fn finish(mut self) -> Outcome {
        let last_word = self.last_word();
        // The umpire's own General has no result: the core leaves it out.
        let endings = self.pieces.iter().map(|p| {
            let (after, fate) = match p.status {
                Status::Waiting => (p.before(), Fate::NotEngaged),
                Status::Fighting => (p.before(), Fate::Stood),
                Status::Out(fate) => (0, fate),
            };
            Ending {
                stand: p.stand,
                side: p.side,
                fate,
                strength_after: after,
                at: centre(p.at),
            }
        });
        engine::finish(
            self.scenario,
            engine::Ended {
                rules: crate::model::RuleSetId::Cordery2009,
                seed: self.seed,
                turns: self.clock.fought,
                resolve: self.pieces.resolve,
                last_word,
            },
            endings,
            self.log,
            false,
        )
    }

    // ------------------------------------------------------------------------
    // Words for the log.

    /// Adds a line to the log for this turn; `text` is called only when the
    /// log is kept.
    pub(super) fn say(&mut self, text: impl FnOnce(&Self) -> String) {
        let mut log = std::mem::take(&mut self.log);
        log.say(self.turn, || text(self));
        self.log = log;
    }

    pub(super) fn name(&self, i: usize) -> &str {
        match self.pieces.get(i) {
            Some(p) if p.is_supplied() => self.supplied_names.get(p.side).map_or("?", String::as_str),
            Some(p) => p.name(),
            None => "?",
        }
    }

    pub(super) fn side_name(&self, s: usize) -> &str {
        self.scenario.sides.get(s).map_or("?", |x| x.name.as_str())
    }

    pub(super) fn role(&self, s: usize) -> Role {
        self.roles.get(s).copied().unwrap_or(Role::Defender)
    }

    /// Side `s`'s facing at deployment.
    pub(super) fn front(&self, s: usize) -> Facing {
        self.fronts.get(s).copied().unwrap_or(Facing::UP_THE_TABLE)
    }

    /// Side `s`'s general's plan.
    pub(super) fn plan(&self, s: usize) -> doctrine::Plan {
        self.plans.get(s).copied().unwrap_or(doctrine::Plan {
            role: Role::Defender,
            axis: doctrine::Axis::Centre,
            boldness: doctrine::Boldness::Steady,
            hold_back: false,
        })
    }

    pub(super) fn goal(&self, s: usize) -> Point {
        self.goals.get(s).copied().unwrap_or_default()
    }
}

/// What the rules ask of a scenario stand.
pub(super) fn piece(stand: &TableStand, army: crate::model::ArmyKind, facing: Facing) -> Stand {
    let kind = stand_type(stand.kind, stand.quality, army);
    let weapon = stand.weapon.or_else(|| default_weapon(stand.kind, army));
    Stand {
        kind,
        value: stand_value(kind),
        moves: move_squares(kind),
        range: weapon.map_or(0, range_squares),
        infantry: is_infantry(kind),
        cavalry: is_cavalry(kind),
        artillery: is_artillery(kind),
        general: is_general(kind),
        transport: kind == StandType::Transport,
        facing,
        activated: false,
        initiated: false,
        post: (0, 0),
    }
}

/// A side's facing at deployment: straight toward the enemy's deployment
/// zone, along the axis that separates them most.
fn front_of(scenario: &Scenario, s: usize) -> Facing {
    let (dx, dy) = crate::rules::board::front_of(scenario, s);
    Facing { dx, dy }
}

/// The eight squares around `sq` (some may be off the table).
pub(super) fn neighbours(sq: Square) -> impl Iterator<Item = Square> {
    super::movement::DIRECTIONS
        .iter()
        .map(move |d| (sq.0 + d.dx, sq.1 + d.dy))
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
            p.activated = false;
            p.initiated = false;
        }
        self.bring_on_reserves();
    }

    fn phases(&mut self, _turn: u32) {
        // TURN SEQUENCE: "both sides throw a D12; the side with the highest
        // score has the initiative"; note vii: "In the event of a tie, both
        // sides throw again until one side gains the initiative."
        let (a, b) = loop {
            let (a, b) = (self.dice.d12(), self.dice.d12());
            if a != b {
                break (a, b);
            }
        };
        let first = if a > b { 0 } else { 1 };
        self.say(|me| {
            format!(
                "{} has the initiative ({} to {}).",
                me.side_name(first),
                a.max(b),
                a.min(b)
            )
        });
        for side in [first, 1 - first] {
            // TURN SEQUENCE: "The side with the initiative throws a D12; the score
            // determines the number of stands – or pairs of stands that are sharing
            // the same square – they may activate this turn. ... the other side
            // throws a D12 and follows the same procedure."
            let allowed = self.dice.d12();
            self.say(|me| {
                format!(
                    "{} throws {allowed}: it may activate {allowed} {}.",
                    me.side_name(side),
                    if allowed == 1 {
                        "stand or pair"
                    } else {
                        "stands or pairs"
                    }
                )
            });
            self.side_phase(side, allowed);
        }
    }

    fn over(&self) -> bool {
        Battle::over(self)
    }
}
