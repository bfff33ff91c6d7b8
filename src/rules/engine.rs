//! The battle core every rule set's engine is built on: the roster of the
//! stands on the table, their arrival and deployment, when a side is spent
//! or broken, the turn loop, and the one `finish` that gives the `Outcome`
//! and the end states [`judge`] weighs from the same per-stand results.
//!
//! An engine keeps its own per-stand data in [`Member::data`] (reached
//! through `Deref`, so `unit.closed` reads the engine's field) and its own
//! position type (a point in inches, or a grid square). It implements
//! [`Turns`]: its turn's phases and when it is over; [`play_turn`] and
//! [`run`] are the loop. Everything is generic, so each engine's hot loop
//! stays monomorphic: the odds fight thousands of battles.

use super::board::{Board, Point, Square, square_of};
use super::{EndState, Fate, LastWord, Log, Outcome, Resolve, StandResult, doctrine, judge};
use crate::model::{Quality, RuleSetId, StandId, StandKind};
use crate::scenario::{Area, Role, Scenario, TableStand};
use std::ops::{Deref, DerefMut, Range};
use std::sync::Mutex;

/// A scenario's table as every battle fought on it begins, before a die is
/// thrown: the board and where each side's stands start
/// ([`doctrine::starts`]). Made once for the thousands of battles
/// [`crate::rules::odds`] fights on one scenario
/// ([`crate::rules::RuleSet::fight_on`]); each battle takes its own copy of
/// the board and sets its stands out from the starts.
#[derive(Debug)]
pub struct Setting<'a> {
    pub scenario: &'a Scenario,
    pub board: Board,
    /// Each side's starts, in [`doctrine::starts`]' order: its stands, then
    /// each reserve's.
    starts: Vec<Vec<doctrine::Start<'a>>>,
    /// Where each side's doctrine aims ([`doctrine::goal`], in cells): the
    /// defender's looks over the whole table for the best ground, so it is
    /// worked out once for every battle.
    goals: Vec<Point>,
    /// The defenders' posts already drawn on this table, by what they were
    /// drawn for ([`Setting::posts`], [`Setting::line_posts`]): a few a
    /// battle, the same for every battle whose generals chose the same plan.
    drawn: Mutex<Vec<(PostsAsked, Vec<Point>)>>,
    /// Posts an engine drew by a rule of its own ([`Setting::engine_posts`]),
    /// by what they were drawn for.
    engine_drawn: Mutex<Vec<EngineDrawn>>,
}

/// Posts an engine drew by a rule of its own: what they were drawn for,
/// and each stand's (none for a stand given no post).
type EngineDrawn = (Vec<u64>, Vec<Option<Point>>);

/// What a defender's posts were drawn for: the doctrine's rule
/// ([`doctrine::posts`] or [`doctrine::line_posts`]) and its arguments, the
/// numbers by their bits (the same numbers give the same posts).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct PostsAsked {
    line: bool,
    numbers: [u64; 6],
    count: usize,
}

/// Kinds of posts a [`Setting`] keeps before it stops keeping more (this
/// program's own: the engines ask for two to eight a battle).
const MAX_DRAWN: usize = 64;

impl<'a> Setting<'a> {
    pub fn new(scenario: &'a Scenario) -> Setting<'a> {
        let board = Board::new(scenario);
        let goals: Vec<Point> = (0..scenario.sides.len())
            .map(|side| doctrine::goal(&board, scenario, side))
            .collect();
        let starts = goals
            .iter()
            .enumerate()
            .map(|(side, &toward)| doctrine::starts_toward(&board, scenario, side, toward))
            .collect();
        Setting {
            scenario,
            board,
            starts,
            goals,
            drawn: Mutex::new(Vec::new()),
            engine_drawn: Mutex::new(Vec::new()),
        }
    }

    /// Where side `side`'s doctrine aims, in cells: [`doctrine::goal`] on
    /// this table, worked out once for all its battles.
    pub fn goal(&self, side: usize) -> Point {
        self.goals
            .get(side)
            .copied()
            .unwrap_or_else(|| doctrine::goal(&self.board, self.scenario, side))
    }

    /// [`doctrine::posts`] on this table, drawn once for all its battles.
    pub fn posts(&self, guard: Point, rear: Point, count: usize) -> Vec<Point> {
        let asked = PostsAsked {
            line: false,
            numbers: [guard.0, guard.1, rear.0, rear.1, 0.0, 0.0].map(f64::to_bits),
            count,
        };
        self.drawn_or(asked, || doctrine::posts(&self.board, guard, rear, count))
    }

    /// [`doctrine::line_posts`] on this table, drawn once for all its
    /// battles.
    pub fn line_posts(
        &self,
        guard: Point,
        rear: Point,
        forward: f64,
        radius: f64,
        count: usize,
    ) -> Vec<Point> {
        let asked = PostsAsked {
            line: true,
            numbers: [guard.0, guard.1, rear.0, rear.1, forward, radius].map(f64::to_bits),
            count,
        };
        self.drawn_or(asked, || {
            doctrine::line_posts(&self.board, guard, rear, forward, radius, count)
        })
    }

    /// The posts drawn for `asked`, else `draw`'s, kept for the next
    /// battle.
    fn drawn_or(&self, asked: PostsAsked, draw: impl FnOnce() -> Vec<Point>) -> Vec<Point> {
        kept_or(&self.drawn, |a| *a == asked, || asked, draw)
    }

    /// Posts an engine draws by a rule of its own for some of its stands,
    /// drawn once for all the battles on this table that ask with the same
    /// `key`: `draw`'s the first time. The key must hold everything the
    /// posts depend on but the table and the stands' places in the roster
    /// (which [`Setting::starts`] fixes): for scruby-1961's line, the
    /// objective, the way to the rear and which stands.
    pub fn engine_posts(&self, key: &[u64], draw: impl FnOnce() -> Vec<Option<Point>>) -> Vec<Option<Point>> {
        kept_or(&self.engine_drawn, |k| k.as_slice() == key, || key.to_vec(), draw)
    }

    /// Where side `side`'s stands start: its stands', then each reserve's.
    pub fn starts(&self, side: usize) -> &[doctrine::Start<'a>] {
        self.starts.get(side).map_or(&[], Vec::as_slice)
    }
}

/// What `kept` holds for the key `is` picks out, else `draw`'s, kept (under
/// `key()`) for the next battle while there is room ([`MAX_DRAWN`]). Battles
/// on other threads ask too: a poisoned lock (a thread that panicked while
/// holding it) only means drawing again.
fn kept_or<K, V: Clone>(
    kept: &Mutex<Vec<(K, V)>>,
    is: impl Fn(&K) -> bool,
    key: impl FnOnce() -> K,
    draw: impl FnOnce() -> V,
) -> V {
    if let Ok(kept) = kept.lock()
        && let Some((_, v)) = kept.iter().find(|(k, _)| is(k))
    {
        return v.clone();
    }
    let v = draw();
    if let Ok(mut kept) = kept.lock()
        && kept.len() < MAX_DRAWN
    {
        kept.push((key(), v.clone()));
    }
    v
}

/// Where a stand is in the battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// A reserve not yet on the table.
    Waiting,
    /// On the table.
    Fighting,
    /// Gone from the table, and what became of it.
    Out(Fate),
}

/// The stand of a member the umpire supplies where the scenario has none
/// (Cordery's General of a side with no Command stand): no id, no name and
/// no strength, so it weighs nothing when points are counted; it never
/// keeps its side in the battle ([`Roster::spent`]) and has no result
/// ([`finish`]). The engine names it.
pub static SUPPLIED: TableStand = TableStand {
    id: StandId(0),
    name: String::new(),
    kind: StandKind::Command,
    quality: Quality::Trained,
    strength: 0,
    full: 0,
    at: None,
    weapon: None,
};

/// One stand on the table: the scenario's stand, its side, where it is,
/// when and where it arrives, its status, and the engine's own data `D`.
#[derive(Debug, Clone)]
pub struct Member<'a, P, D> {
    /// The scenario's stand, or [`SUPPLIED`].
    pub stand: &'a TableStand,
    /// Index of its side in the scenario.
    pub side: usize,
    pub at: P,
    /// The turn it comes on (0: on the table from the start).
    pub arrives: u32,
    /// A reserve's arrival area (`None` for the stands deployed at the start).
    pub area: Option<Area>,
    pub status: Status,
    pub data: D,
}

impl<'a, P, D> Member<'a, P, D> {
    /// A member on the table from the start if `arrives` is 0, else waiting.
    pub fn new(stand: &'a TableStand, side: usize, at: P, arrives: u32, data: D) -> Member<'a, P, D> {
        Member {
            stand,
            side,
            at,
            arrives,
            area: None,
            status: if arrives == 0 {
                Status::Fighting
            } else {
                Status::Waiting
            },
            data,
        }
    }

    /// A stand the umpire supplies to side `side` (see [`SUPPLIED`]),
    /// waiting at `at` until the engine sets it down.
    pub fn supplied(side: usize, at: P, data: D) -> Member<'static, P, D> {
        Member {
            stand: &SUPPLIED,
            side,
            at,
            arrives: 0,
            area: None,
            status: Status::Waiting,
            data,
        }
    }

    /// Whether the umpire supplied it: it is not the scenario's.
    pub fn is_supplied(&self) -> bool {
        std::ptr::eq(self.stand, &SUPPLIED)
    }

    pub fn id(&self) -> StandId {
        self.stand.id
    }

    pub fn name(&self) -> &'a str {
        self.stand.name.as_str()
    }

    pub fn kind(&self) -> StandKind {
        self.stand.kind
    }

    /// Its strength when the battle began, in roster points.
    pub fn before(&self) -> u32 {
        self.stand.strength
    }

    pub fn fighting(&self) -> bool {
        self.status == Status::Fighting
    }

    pub fn waiting(&self) -> bool {
        self.status == Status::Waiting
    }
}

impl<P, D> Deref for Member<'_, P, D> {
    type Target = D;
    fn deref(&self) -> &D {
        &self.data
    }
}

impl<P, D> DerefMut for Member<'_, P, D> {
    fn deref_mut(&mut self) -> &mut D {
        &mut self.data
    }
}

/// The stands of a battle, both sides, in the scenario's order (each side's
/// stands, then its reserves).
#[derive(Debug, Clone)]
pub struct Roster<'a, P, D> {
    members: Vec<Member<'a, P, D>>,
    /// Each side's resolve: when it breaks ([`Roster::broken`]).
    pub resolve: Resolve,
}

impl<P, D> Default for Roster<'_, P, D> {
    fn default() -> Self {
        Roster {
            members: Vec::new(),
            resolve: Resolve::default(),
        }
    }
}

impl<'a, P, D> Roster<'a, P, D> {
    /// An empty roster whose sides break at `resolve`.
    pub fn with_resolve(resolve: Resolve) -> Self {
        Roster {
            members: Vec::new(),
            resolve,
        }
    }

    /// Points side `side` brought on (stands no longer waiting) and points
    /// it has standing, `standing` giving each stand's (0 when not standing).
    /// Counted as [`judge`] counts them.
    pub fn points(&self, side: usize, standing: impl Fn(&Member<'a, P, D>) -> u32) -> (u64, u64) {
        self.members
            .iter()
            .filter(|m| m.side == side)
            .fold((0, 0), |(before, after), m| {
                let brought = if m.waiting() { 0 } else { u64::from(m.before()) };
                (before + brought, after + u64::from(standing(m)))
            })
    }

    /// Whether neither side has lost any of the points it brought on,
    /// `standing` giving each stand's as [`Roster::broken`] counts them: no
    /// side's resolve can then matter yet.
    pub fn lost_nothing(&self, standing: impl Fn(&Member<'a, P, D>) -> u32) -> bool {
        (0..2).all(|side| {
            let (brought, left) = self.points(side, &standing);
            brought == left
        })
    }

    /// Whether side `side` has lost more of the points it brought on than
    /// its resolve ([`Resolve`]) and does not still far outnumber the enemy
    /// ([`Resolve::broken_against`]): it breaks and quits the field.
    pub fn broken(&self, side: usize, standing: impl Fn(&Member<'a, P, D>) -> u32) -> bool {
        let (before, after) = self.points(side, &standing);
        // The enemy's standing points are counted only for a side past its
        // resolve (most looks are at a side that is not).
        self.resolve.broken(side, before, after) && {
            let (_, enemy) = self.points(side ^ 1, &standing);
            self.resolve.broken_against(side, before, after, enemy)
        }
    }

    /// The smallest run of indices that holds every member of side `side`
    /// (empty when it has none). A roster mustered side by side
    /// ([`Roster::place_side`] for side 0, then side 1) keeps each side's
    /// stands in one run, so a scan of one side's stands need look only
    /// there. A pass over the roster: an engine works it out once, as its
    /// battle is set out, and keeps it while no member is added.
    pub fn span(&self, side: usize) -> Range<usize> {
        let first = self.members.iter().position(|m| m.side == side);
        let last = self.members.iter().rposition(|m| m.side == side);
        match (first, last) {
            (Some(a), Some(b)) => a..b.saturating_add(1),
            _ => 0..0,
        }
    }

    /// The members in the run of indices `span` (a side's [`Roster::span`]),
    /// with their indices, in the roster's order; none for a run off the
    /// roster.
    pub fn in_span(&self, span: &Range<usize>) -> impl Iterator<Item = (usize, &Member<'a, P, D>)> + '_ {
        let start = span.start;
        self.members
            .get(span.clone())
            .unwrap_or(&[])
            .iter()
            .enumerate()
            .map(move |(k, m)| (start + k, m))
    }

    /// Whether side `side` has nothing left to fight with: no stand for
    /// which `left` holds (the engine says what still counts, a reserve to
    /// come among them).
    /// A stand the umpire supplied keeps no side in the battle.
    pub fn spent(&self, side: usize, left: impl Fn(&Member<'a, P, D>) -> bool) -> bool {
        !self
            .members
            .iter()
            .any(|m| m.side == side && !m.is_supplied() && left(m))
    }

    /// Whether either side is spent or broken: the battle is over.
    pub fn over(
        &self,
        left: impl Fn(&Member<'a, P, D>) -> bool,
        standing: impl Fn(&Member<'a, P, D>) -> u32,
    ) -> bool {
        self.spent(0, &left) || self.spent(1, &left) || self.broken(0, &standing) || self.broken(1, &standing)
    }

    /// The waiting stands due by `turn`, by index.
    pub fn due(&self, turn: u32) -> impl Iterator<Item = usize> + '_ {
        self.members
            .iter()
            .enumerate()
            .filter(move |(_, m)| m.waiting() && m.arrives <= turn)
            .map(|(i, _)| i)
    }

    /// The arrival area of member `i` if it is a reserve due by `turn` and
    /// still waiting: a grid engine sets it down there (where, by its own
    /// rules), or it waits another turn.
    pub fn due_in(&self, i: usize, turn: u32) -> Option<Area> {
        self.members
            .get(i)
            .filter(|m| m.waiting() && m.arrives <= turn)
            .and_then(|m| m.area)
    }

    /// Reserves whose turn has come go on the table where they wait; each
    /// is told to `say` (its name and its side's index), for the log.
    pub fn arrive(&mut self, turn: u32, mut say: impl FnMut(&'a str, usize)) {
        for m in &mut self.members {
            if m.waiting() && m.arrives <= turn {
                m.status = Status::Fighting;
                say(m.name(), m.side);
            }
        }
    }
}

impl<'a, P, D> Deref for Roster<'a, P, D> {
    type Target = Vec<Member<'a, P, D>>;
    fn deref(&self) -> &Self::Target {
        &self.members
    }
}

impl<P, D> DerefMut for Roster<'_, P, D> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.members
    }
}

impl<'r, 'a, P, D> IntoIterator for &'r Roster<'a, P, D> {
    type Item = &'r Member<'a, P, D>;
    type IntoIter = std::slice::Iter<'r, Member<'a, P, D>>;
    fn into_iter(self) -> Self::IntoIter {
        self.members.iter()
    }
}

impl<'r, 'a, P, D> IntoIterator for &'r mut Roster<'a, P, D> {
    type Item = &'r mut Member<'a, P, D>;
    type IntoIter = std::slice::IterMut<'r, Member<'a, P, D>>;
    fn into_iter(self) -> Self::IntoIter {
        self.members.iter_mut()
    }
}

impl<'a, D> Roster<'a, Point, D> {
    /// Sets out side `index` on an inch table: every stand where
    /// [`doctrine::starts`] puts it (positions in inches), reserves waiting;
    /// `data` makes each stand's own data from its start and side.
    pub fn place_side(
        &mut self,
        setting: &Setting<'a>,
        index: usize,
        mut data: impl FnMut(&doctrine::Start<'a>, &Placed) -> D,
    ) {
        let board = &setting.board;
        let Some(side) = setting.scenario.sides.get(index) else {
            return;
        };
        // `starts` gives the side's stands, then each reserve's, in order.
        let areas = side.stands.iter().map(|_| None).chain(
            side.reserves
                .iter()
                .flat_map(|r| r.stands.iter().map(|_| Some(r.area))),
        );
        for (start, area) in setting.starts(index).iter().zip(areas) {
            let at = board.to_inches(start.at);
            let placed = Placed {
                at,
                // A defender's post: where the doctrine stations it, on the
                // ground it guards.
                post: (start.arrives == 0 && side.role == Role::Defender)
                    .then(|| start.post.map_or(at, |p| board.to_inches(p))),
            };
            let d = data(start, &placed);
            self.members.push(Member {
                area,
                ..Member::new(start.stand, index, at, start.arrives, d)
            });
        }
    }
}

impl<'a, D> Roster<'a, Square, D> {
    /// Musters side `index` on a square grid (Cordery's and Harman's): a
    /// member for each of its stands, then each reserve's, in the scenario's
    /// order, all waiting until the engine sets them down (each grid engine
    /// knows who may share a square); `data` makes each one's own data.
    /// Gives, for each stand deployed at the start, its index and the square
    /// it wants: where the scenario places it, else where
    /// [`doctrine::deploy`] puts it in the deployment area toward the side's
    /// [`doctrine::goal`] (its [`Setting::starts`]).
    pub fn muster_grid(
        &mut self,
        setting: &Setting<'a>,
        index: usize,
        mut data: impl FnMut(&'a TableStand) -> D,
    ) -> Vec<(usize, Square)> {
        let board = &setting.board;
        let Some(side) = setting.scenario.sides.get(index) else {
            return Vec::new();
        };
        let first = self.members.len();
        let waiting = |stand: &'a TableStand, arrives: u32, area: Option<Area>, d: D| Member {
            stand,
            side: index,
            at: (0, 0),
            arrives,
            area,
            status: Status::Waiting,
            data: d,
        };
        for stand in &side.stands {
            let d = data(stand);
            self.members.push(waiting(stand, 0, None, d));
        }
        for reserve in &side.reserves {
            for stand in &reserve.stands {
                let d = data(stand);
                self.members
                    .push(waiting(stand, reserve.turn, Some(reserve.area), d));
            }
        }
        // Where the scenario places a stand, else the doctrine's deployment:
        // the side's own stands come first among its starts.
        setting
            .starts(index)
            .iter()
            .take(side.stands.len())
            .enumerate()
            .map(|(k, start)| (first + k, square_of(board.clamp(start.at))))
            .collect()
    }
}

/// The square nearest `wanted`, ring by ring out to `widest` squares (each
/// ring walked row by row), for which `usable` holds: where a grid engine
/// sets a stand down when its own square is taken.
pub fn nearest_square(wanted: Square, widest: i32, usable: impl Fn(Square) -> bool) -> Option<Square> {
    (0..=widest).find_map(|r| {
        (-r..=r)
            .flat_map(move |dy| (-r..=r).map(move |dx| (dx, dy)))
            .filter(|&(dx, dy)| dx.abs().max(dy.abs()) == r)
            .map(|(dx, dy)| (wanted.0 + dx, wanted.1 + dy))
            .find(|&sq| usable(sq))
    })
}

/// Where [`Roster::place_side`] put a stand, in inches.
#[derive(Debug, Clone, Copy)]
pub struct Placed {
    pub at: Point,
    /// A defender's post: where it was deployed (`None` for attackers and
    /// reserves).
    pub post: Option<Point>,
}

/// The turn and the turns fought, shared by every engine's loop.
#[derive(Debug, Clone, Copy, Default)]
pub struct Clock {
    /// The turn being fought (0 before the first).
    pub turn: u32,
    /// The last turn whose phases were fought.
    pub fought: u32,
    pub over: bool,
}

/// What an engine does each turn; [`play_turn`] and [`run`] drive it.
pub trait Turns {
    /// Whether the battle may end as the turn begins, after arrivals and
    /// before any phase (a side with nothing left does not fight on).
    const ENDS_ON_ARRIVAL: bool;
    fn clock(&mut self) -> &mut Clock;
    /// The last turn.
    fn turn_limit(&self) -> u32;
    /// The turn's beginning: reserves arrive, per-turn marks are cleared.
    fn begin_turn(&mut self, turn: u32);
    /// The turn's phases, in the rule set's order. It may stop early when
    /// the battle is over.
    fn phases(&mut self, turn: u32);
    /// A side is spent or broken.
    fn over(&self) -> bool;
}

/// Fights one turn; nothing once the battle is over.
pub fn play_turn<E: Turns>(e: &mut E) {
    let limit = e.turn_limit();
    let clock = *e.clock();
    if clock.over || clock.turn >= limit {
        e.clock().over = true;
        return;
    }
    let turn = clock.turn + 1;
    e.clock().turn = turn;
    e.begin_turn(turn);
    if E::ENDS_ON_ARRIVAL && e.over() {
        e.clock().over = true;
        return;
    }
    e.clock().fought = turn;
    e.phases(turn);
    if turn >= limit || e.over() {
        e.clock().over = true;
    }
}

/// Fights turn after turn until the battle is over.
pub fn run<E: Turns>(e: &mut E) {
    while !e.clock().over {
        play_turn(e);
    }
}

/// One stand's result, as the engine decides it: everything the `Outcome`
/// and the judge need.
#[derive(Debug, Clone, Copy)]
pub struct Ending<'a> {
    pub stand: &'a TableStand,
    pub side: usize,
    pub fate: Fate,
    pub strength_after: u32,
    /// Where it is, in cells.
    pub at: Point,
}

/// How a battle was fought, for [`finish`]: the rule set and seed, the
/// turns fought, and what it is judged by besides its stands.
#[derive(Debug, Clone)]
pub struct Ended {
    pub rules: RuleSetId,
    pub seed: u64,
    pub turns: u32,
    pub resolve: Resolve,
    pub last_word: Option<LastWord>,
}

/// Ends the battle: judges it on the stands' results and gives the
/// `Outcome`. The end states the judge weighs and the outcome's stands come
/// from the same `endings`, so they cannot disagree: reserves that never
/// came on are not judged, and a stand stands if its fate is `Stood`. With
/// `announce` the log's last line gives the verdict.
pub fn finish<'a>(
    scenario: &Scenario,
    ended: Ended,
    endings: impl Iterator<Item = Ending<'a>>,
    mut log: Log,
    announce: bool,
) -> Outcome {
    // Room for every stand's ending at once.
    let (room, _) = endings.size_hint();
    let mut ends = Vec::with_capacity(room);
    let mut stands = Vec::with_capacity(room);
    for e in endings {
        // A stand the umpire supplied is not the scenario's: no result.
        if std::ptr::eq(e.stand, &SUPPLIED) {
            continue;
        }
        if e.fate != Fate::NotEngaged {
            ends.push(EndState {
                side: e.side,
                strength_before: e.stand.strength,
                strength_after: e.strength_after,
                standing: e.fate == Fate::Stood,
                at: e.at,
            });
        }
        stands.push(StandResult {
            id: e.stand.id,
            name: e.stand.name.clone(),
            kind: e.stand.kind,
            side: scenario
                .sides
                .get(e.side)
                .map(|s| s.id.clone())
                .unwrap_or_default(),
            strength_before: e.stand.strength,
            strength_after: e.strength_after,
            fate: e.fate,
        });
    }
    let (winner, field, verdict) = judge(scenario, &ends, &ended.resolve, ended.last_word.as_ref());
    let id_of = |s: usize| scenario.sides.get(s).map(|x| x.id.clone());
    if announce {
        log.say(ended.turns, || format!("the battle ends: {verdict}"));
    }
    let Ended {
        rules,
        seed,
        turns,
        resolve,
        last_word,
    } = ended;
    Outcome {
        rules,
        seed,
        turns,
        winner: winner.and_then(id_of),
        field_held_by: field.and_then(id_of),
        verdict,
        resolve,
        last_word,
        stands,
        log: log.into_lines(),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]

    use super::*;
    use crate::model::{ArmyKind, RuleSetId};
    use crate::scenario::{Reserve, ScenarioSide, Table};

    fn stand(id: u32, at: Option<(f64, f64)>) -> TableStand {
        TableStand {
            id: StandId(id),
            name: format!("stand {id}"),
            kind: StandKind::LineInfantry,
            quality: Quality::Trained,
            strength: 100,
            full: 100,
            at,
            weapon: None,
        }
    }

    fn grid() -> Scenario {
        let side = |id: &str, role, y, stands| ScenarioSide {
            id: id.to_owned(),
            name: id.to_owned(),
            army: ArmyKind::Regular,
            role,
            colour: None,
            deployment: Area { x: 0, y, w: 6, h: 2 },
            stands,
            reserves: Vec::new(),
        };
        let mut red = side(
            "red",
            Role::Attacker,
            0,
            vec![stand(1, Some((4.5, 1.5))), stand(2, None)],
        );
        red.reserves.push(Reserve {
            turn: 2,
            area: Area {
                x: 0,
                y: 0,
                w: 2,
                h: 1,
            },
            stands: vec![stand(3, None)],
        });
        Scenario {
            title: "grid".to_owned(),
            rules: RuleSetId::Cordery2009,
            seed: 1,
            turn_limit: 12,
            table: Table {
                width: 6,
                depth: 6,
                cell_inches: 2.0,
                grid: true,
                terrain: Vec::new(),
            },
            sides: vec![red, side("blue", Role::Defender, 4, vec![stand(21, None)])],
            objectives: Vec::new(),
            notes: None,
        }
    }

    #[test]
    fn the_grid_muster_waits_every_stand_and_wants_squares_for_those_deployed() {
        let s = grid();
        let setting = Setting::new(&s);
        let mut roster: Roster<'_, Square, u32> = Roster::default();
        let mut made = 0;
        let wants = roster.muster_grid(&setting, 0, |_| {
            made += 1;
            made
        });
        assert_eq!(
            roster.iter().map(|m| (m.id().0, m.data)).collect::<Vec<_>>(),
            [(1, 1), (2, 2), (3, 3)]
        );
        assert!(roster.iter().all(Member::waiting));
        // Stand 1 where the scenario puts it; stand 2 somewhere in its zone;
        // the reserve wants no square until its turn.
        assert_eq!(wants.len(), 2);
        assert_eq!(wants[0], (0, (4, 1)));
        let (i, (x, y)) = wants[1];
        assert_eq!(i, 1);
        assert!((0..6).contains(&x) && (0..2).contains(&y), "{x}, {y}");
        assert_eq!(roster.due_in(2, 1), None);
        assert_eq!(
            roster.due_in(2, 2),
            Some(Area {
                x: 0,
                y: 0,
                w: 2,
                h: 1
            })
        );
        assert_eq!(roster.due_in(0, 12), None, "a stand of the start is never due");
    }

    #[test]
    fn the_nearest_square_goes_ring_by_ring() {
        assert_eq!(nearest_square((2, 2), 5, |_| true), Some((2, 2)));
        assert_eq!(nearest_square((2, 2), 5, |sq| sq != (2, 2)), Some((1, 1)));
        assert_eq!(nearest_square((2, 2), 5, |sq| sq.0 >= 4), Some((4, 0)));
        assert_eq!(nearest_square((2, 2), 1, |sq| sq.0 >= 4), None);
    }

    #[test]
    fn a_sides_span_holds_every_one_of_its_stands_and_no_more_run_than_it_needs() {
        let s = grid();
        let mut roster: Roster<'_, Square, ()> = Roster::default();
        assert_eq!(roster.span(0), 0..0, "an empty roster");
        roster.push(Member::new(&s.sides[0].stands[0], 0, (0, 0), 0, ()));
        roster.push(Member::new(&s.sides[1].stands[0], 1, (0, 5), 0, ()));
        roster.push(Member::supplied(1, (0, 4), ()));
        assert_eq!(roster.span(0), 0..1);
        assert_eq!(
            roster.span(1),
            1..3,
            "the supplied General, last, is in side 1's run"
        );
        assert_eq!(roster.span(2), 0..0, "no such side");
        let in_run = |r: &Roster<'_, Square, ()>, span| r.in_span(&span).map(|(k, _)| k).collect::<Vec<_>>();
        assert_eq!(in_run(&roster, roster.span(1)), vec![1, 2]);
        assert_eq!(
            in_run(&roster, 2..9),
            Vec::<usize>::new(),
            "a run off the roster has none"
        );
        // Sides interleaved (no engine musters so): the run is the whole
        // stretch from the first to the last, the other side's among them.
        roster.push(Member::supplied(0, (0, 1), ()));
        assert_eq!(roster.span(0), 0..4);
        for side in 0..2 {
            let span = roster.span(side);
            assert!(
                roster
                    .iter()
                    .enumerate()
                    .all(|(k, m)| m.side != side || span.contains(&k)),
                "side {side}'s stands all lie in {span:?}"
            );
        }
    }

    #[test]
    fn a_supplied_stand_weighs_nothing_keeps_no_side_in_and_has_no_result() {
        let s = grid();
        let mut roster: Roster<'_, Square, ()> = Roster::default();
        roster.push(Member::new(&s.sides[0].stands[0], 0, (0, 0), 0, ()));
        roster.push(Member::new(&s.sides[1].stands[0], 1, (0, 5), 0, ()));
        let mut general = Member::supplied(1, (0, 4), ());
        general.status = Status::Fighting;
        roster.push(general);
        assert!(roster[2].is_supplied() && !roster[1].is_supplied());
        roster[1].status = Status::Out(Fate::Destroyed);
        let standing = |m: &Member<'_, Square, ()>| if m.fighting() { m.before() } else { 0 };
        assert_eq!(roster.points(1, standing), (100, 0));
        assert!(
            roster.spent(1, |m| m.fighting()),
            "the umpire's General alone fights on"
        );
        assert!(roster.over(|m| m.fighting(), standing));
        let endings = roster.iter().map(|m| Ending {
            stand: m.stand,
            side: m.side,
            fate: match m.status {
                Status::Out(f) => f,
                _ => Fate::Stood,
            },
            strength_after: 0,
            at: (0.0, 0.0),
        });
        let ended = Ended {
            rules: RuleSetId::Cordery2009,
            seed: 1,
            turns: 3,
            resolve: Resolve::default(),
            last_word: None,
        };
        let o = finish(&s, ended, endings, Log::new(false), false);
        assert_eq!(o.stands.iter().map(|r| r.id.0).collect::<Vec<_>>(), [1, 21]);
    }
}
