//! Movement in squares (cordery-2009-late-19th-century-rules.txt, MOVEMENT)
//! and the withdrawal forced by combat.
//!
//! A move is searched in a window of squares around the stand, on the stack:
//! what the rules ask of each square is read once into the window, then the
//! search works on the window alone. No allocation, however often it runs.

use super::battle::{Battle, Withdrawal};
use super::bits::cost_of;
use super::tables::{CONTOUR_COST, Facing, ROAD_BONUS, Square, WITHDRAW_AT_MOST};

/// The eight steps of the grid, clockwise from "along x".
pub(super) const DIRECTIONS: [Facing; 8] = [
    Facing { dx: 1, dy: 0 },
    Facing { dx: 1, dy: 1 },
    Facing { dx: 0, dy: 1 },
    Facing { dx: -1, dy: 1 },
    Facing { dx: -1, dy: 0 },
    Facing { dx: -1, dy: -1 },
    Facing { dx: 0, dy: -1 },
    Facing { dx: 1, dy: -1 },
];

/// The farthest a move can go: 5 squares of Native Cavalry and 1 for a road.
pub(super) const REACH: i32 = 6;
/// The window reaches one square farther, for the withdrawal's last step.
pub(super) const RADIUS: i32 = REACH + 1;
pub(super) const SPAN: i32 = 2 * RADIUS + 1;
/// `SPAN * SPAN` squares.
pub(super) const WINDOW: usize = 15 * 15;
pub(super) const UNREACHED: u8 = u8::MAX;

// What the window holds of each square, for the stand moving.
const ROAD: u8 = 1;
/// An obstacle of note viii.
const OBSTACLE: u8 = 2;
/// An enemy stand is in it.
const ENEMY: u8 = 4;
/// An enemy stand is in a square next to it.
const NEAR_ENEMY: u8 = 8;
/// The stand moving may enter it from any square: on the table, not water,
/// no enemy stand in it, and not woods or a wall unless it is infantry.
const FREE: u8 = 16;
/// The stand moving may enter it only along a road (woods or a wall on the
/// road, for all but infantry).
const GATE: u8 = 32;

/// The kind of step being tried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    /// An ordinary move.
    Move,
    /// A move made entirely along a road.
    Road,
    /// A withdrawal forced by combat.
    Withdraw,
}

/// Index of `sq` in a window centred on `origin`.
fn index(origin: Square, sq: Square) -> Option<usize> {
    index_by(origin, sq, SPAN)
}

/// Index of `sq` in a window of `SPAN` rows centred on `origin`, `stride`
/// places to a row.
fn index_by(origin: Square, sq: Square, stride: i32) -> Option<usize> {
    let (dx, dy) = (sq.0 - origin.0 + RADIUS, sq.1 - origin.1 + RADIUS);
    if (0..SPAN).contains(&dx) && (0..SPAN).contains(&dy) {
        usize::try_from(dy * stride + dx).ok()
    } else {
        None
    }
}

/// The squares round a stand as its move sees them.
#[derive(Debug, Clone)]
struct Ground {
    origin: Square,
    marks: [u8; WINDOW],
    level: [u8; WINDOW],
    infantry: bool,
    artillery: bool,
}

impl Ground {
    fn marks(&self, sq: Square) -> u8 {
        index(self.origin, sq)
            .and_then(|k| self.marks.get(k).copied())
            .unwrap_or(0)
    }

    fn marks_at(&self, k: usize) -> u8 {
        self.marks.get(k).copied().unwrap_or(0)
    }

    /// The squares of allowance one step `d` from the window's square `from`
    /// costs, or `None` if the rules forbid it. `from` must lie at least one
    /// square inside the window's edge.
    fn step_cost(&self, from: usize, d: Facing, step: Step) -> Option<i32> {
        let to = shift(from, d.dx, d.dy)?;
        self.step_cost_to(from, to, d, step)
    }

    /// [`Ground::step_cost`] with the window's square `to` the step reaches
    /// already worked out.
    fn step_cost_to(&self, from: usize, to: usize, d: Facing, step: Step) -> Option<i32> {
        let (a, b) = (self.marks_at(from), self.marks_at(to));
        // MOVEMENT: "Stands can move through friendly stands but not through
        // enemy stands." (Water and the table's edge stop them too.) "Only
        // Infantry may move off-road through woods or can cross vertical
        // obstacles (e.g. walls, hedges, fences etc.)" (see `ground_in`).
        let may_enter = b & FREE != 0 || (b & GATE != 0 && a & ROAD != 0);
        if !may_enter || (step == Step::Road && b & ROAD == 0) {
            return None;
        }
        // MOVEMENT: "Stands cannot move diagonally between enemy stands or
        // between an enemy stand and an obstacle (viii)."
        if d.dx != 0 && d.dy != 0 {
            let x = shift(from, d.dx, 0).map_or(0, |k| self.marks_at(k));
            let y = shift(from, 0, d.dy).map_or(0, |k| self.marks_at(k));
            let (ex, ey) = (x & ENEMY != 0, y & ENEMY != 0);
            let (ox, oy) = (x & OBSTACLE != 0, y & OBSTACLE != 0);
            // Two enemies, or an enemy and an obstacle.
            if (ex || ox) && (ey || oy) && (ex || ey) {
                return None;
            }
        }
        // MOVEMENT: "Artillery stands may not be moved into a square that is
        // adjacent to a square occupied by an enemy stand."
        if self.artillery && step != Step::Withdraw && b & NEAR_ENEMY != 0 {
            return None;
        }
        // MOVEMENT: "Stands crossing a hill contour reduce their movement
        // distance by 1 square per contour crossed."
        let (la, lb) = (self.level.get(from).copied(), self.level.get(to).copied());
        let contours = i32::from(la.unwrap_or(0).abs_diff(lb.unwrap_or(0)));
        Some(1 + CONTOUR_COST * contours)
    }
}

/// The window's square `dx`, `dy` from square `k`.
fn shift(k: usize, dx: i32, dy: i32) -> Option<usize> {
    let offset = isize::try_from(dx + dy * SPAN).ok()?;
    k.checked_add_signed(offset).filter(|&k| k < WINDOW)
}

/// The squares a stand can reach this activation, with the squares of
/// allowance each costs.
#[derive(Debug, Clone)]
pub(super) struct Reach {
    pub(super) origin: Square,
    /// How far the search could go.
    radius: i32,
    /// The cost of each square of the window, [`REACH_STRIDE`] to a row (the
    /// layout of [`super::bits`]'s windows), [`UNREACHED`] where none.
    cost: [u8; REACH_WINDOW],
}

/// Places from one row of a [`Reach`] to the next: a row's `SPAN` squares and
/// one place unused.
pub(super) const REACH_STRIDE: i32 = SPAN + 1;
/// `SPAN` rows of [`REACH_STRIDE`].
pub(super) const REACH_WINDOW: usize = 15 * 16;
const _: () = assert!(WINDOW == (SPAN * SPAN).unsigned_abs() as usize);
const _: () = assert!(REACH_WINDOW == (SPAN * REACH_STRIDE).unsigned_abs() as usize);

impl Reach {
    /// What reaching `sq` costs, if it can be reached.
    pub(super) fn cost_at(&self, sq: Square) -> Option<u8> {
        index_by(self.origin, sq, REACH_STRIDE)
            .and_then(|k| self.cost.get(k).copied())
            .filter(|&c| c != UNREACHED)
    }

    /// Every square reached (the start included), with its cost, row by row.
    pub(super) fn squares(&self) -> impl Iterator<Item = (Square, u8)> + '_ {
        // One range over the box's squares, read straight from the window.
        let r = self.radius.clamp(0, RADIUS);
        let side = 2 * r + 1;
        (0..side * side).filter_map(move |n| {
            let (dx, dy) = (n % side - r, n / side - r);
            let k = usize::try_from((dy + RADIUS) * REACH_STRIDE + dx + RADIUS).ok()?;
            let c = self.cost.get(k).copied().filter(|&c| c != UNREACHED)?;
            Some(((self.origin.0 + dx, self.origin.1 + dy), c))
        })
    }

    /// The costs of a search of [`Ground`]'s window, `SPAN` to a row, laid
    /// out as a reach's.
    fn of_window(origin: Square, radius: i32, window: &[u8; WINDOW]) -> Reach {
        let mut cost = [UNREACHED; REACH_WINDOW];
        let (span, stride) = (SPAN.unsigned_abs() as usize, REACH_STRIDE.unsigned_abs() as usize);
        for (row, costs) in window.chunks(span).enumerate() {
            if let Some(place) = cost.get_mut(row * stride..row * stride + span) {
                place.copy_from_slice(costs);
            }
        }
        Reach { origin, radius, cost }
    }
}

impl Battle<'_> {
    /// The squares within `radius` of stand `i` as its move sees them.
    fn ground(&self, i: usize, radius: i32) -> Ground {
        let r = radius.clamp(0, RADIUS);
        self.ground_in(i, (-r, r), (-r, r))
    }

    /// The squares `xs` across and `ys` down from stand `i` (offsets, the
    /// ends included, at most [`RADIUS`]) as its move sees them.
    fn ground_in(&self, i: usize, xs: (i32, i32), ys: (i32, i32)) -> Ground {
        let origin = self.pieces.get(i).map_or((0, 0), |p| p.at);
        let side = self.pieces.get(i).map_or(0, |p| p.side);
        let mut ground = Ground {
            origin,
            marks: [0; WINDOW],
            level: [0; WINDOW],
            infantry: self.pieces.get(i).is_some_and(|p| p.infantry),
            artillery: self.pieces.get(i).is_some_and(|p| p.artillery),
        };
        let ours = u8::try_from(side + 1).unwrap_or(0);
        let infantry = ground.infantry;
        // The box's squares on the table, row by row: each row's squares
        // read in one run from the table's going and owners into the
        // window's run (the box is within the window, so every square of
        // it on the table has its place there).
        let (x0, x1) = (
            xs.0.max(-RADIUS).max(-origin.0),
            xs.1.min(RADIUS).min(self.width - 1 - origin.0),
        );
        let (y0, y1) = (
            ys.0.max(-RADIUS).max(-origin.1),
            ys.1.min(RADIUS).min(self.depth - 1 - origin.1),
        );
        let run = usize::try_from(x1 - x0 + 1).unwrap_or(0);
        for dy in y0..=y1 {
            let (Ok(slot), Ok(k)) = (
                usize::try_from((origin.1 + dy) * self.width + origin.0 + x0),
                usize::try_from((dy + RADIUS) * SPAN + x0 + RADIUS),
            ) else {
                continue;
            };
            let (Some(goings), Some(owners), Some(marks), Some(levels)) = (
                self.going.get(slot..slot + run),
                self.owner.get(slot..slot + run),
                ground.marks.get_mut(k..k + run),
                ground.level.get_mut(k..k + run),
            ) else {
                continue;
            };
            for (((going, &o), m), l) in goings.iter().zip(owners).zip(marks).zip(levels) {
                let enemy = o != 0 && o != ours;
                let flag = |on: bool, f: u8| if on { f } else { 0 };
                let enterable = !going.water() && !enemy;
                // MOVEMENT: "Only Infantry may move off-road through woods or can
                // cross vertical obstacles (e.g. walls, hedges, fences etc.)"
                let open_to_it = infantry || !going.infantry_only();
                *m = flag(going.road(), ROAD)
                    | flag(going.obstacle(), OBSTACLE)
                    | flag(enemy, ENEMY)
                    | flag(enterable && open_to_it, FREE)
                    | flag(enterable && !open_to_it && going.road(), GATE);
                *l = going.level;
            }
        }
        if ground.artillery {
            for dy in ys.0.max(-RADIUS)..=ys.1.min(RADIUS) {
                for dx in xs.0.max(-RADIUS)..=xs.1.min(RADIUS) {
                    let sq = (origin.0 + dx, origin.1 + dy);
                    let inside = dx > xs.0 && dx < xs.1 && dy > ys.0 && dy < ys.1;
                    let near = if inside {
                        DIRECTIONS
                            .iter()
                            .any(|d| ground.marks((sq.0 + d.dx, sq.1 + d.dy)) & ENEMY != 0)
                    } else {
                        // At the window's edge its neighbours are not all in it.
                        self.enemy_adjacent(sq, side)
                    };
                    if near && let Some(m) = index(origin, sq).and_then(|k| ground.marks.get_mut(k)) {
                        *m |= NEAR_ENEMY;
                    }
                }
            }
        }
        ground
    }

    /// Stand `i`'s move this activation, as the searches of its squares
    /// take it.
    fn move_of(&self, i: usize) -> Move {
        let origin = self.pieces.get(i).map_or((0, 0), |p| p.at);
        let moves = self
            .pieces
            .get(i)
            .map_or(0, |p| p.moves)
            .clamp(0, REACH - ROAD_BONUS);
        let on_road = self.going(origin).road();
        Move {
            origin,
            moves,
            on_road,
            radius: moves + if on_road { ROAD_BONUS } else { 0 },
        }
    }

    /// Where stand `i` may move this activation: every square it can reach,
    /// whether or not it may stop there (see [`Battle::can_stop`]).
    pub(super) fn reach(&self, i: usize) -> Reach {
        let m = self.move_of(i);
        let (origin, moves, radius) = (m.origin, m.moves, m.radius);
        if let (Some(bits), Some(p)) = (self.bits.as_ref(), self.pieces.get(i)) {
            // The same search a row of squares at a time.
            let window = bits.window(origin, p.side, p.infantry, p.artillery, radius);
            let moved = window.search(moves, false, p.artillery);
            let cost = if m.on_road {
                cost_of(&[moved, window.search(moves + ROAD_BONUS, true, p.artillery)])
            } else {
                cost_of(&[moved])
            };
            return Reach { origin, radius, cost };
        }
        self.reach_by_search(i)
    }

    /// [`Battle::reach`] square by square: on a table too wide for
    /// [`Battle::bits`], and the measure the search by bits is tested
    /// against.
    pub(super) fn reach_by_search(&self, i: usize) -> Reach {
        let m = self.move_of(i);
        let (origin, moves, radius) = (m.origin, m.moves, m.radius);
        if !m.on_road
            && let Some(cost) = self.open_reach(i, moves)
        {
            return Reach::of_window(origin, radius, &cost);
        }
        let ground = self.ground(i, radius);
        // MOVEMENT: the move in squares, by type.
        let mut cost = search(&ground, moves, Step::Move);
        // MOVEMENT: "Stands making their entire move along a road may increase
        // their movement distance by 1 square."
        if m.on_road {
            let road = search(&ground, moves + ROAD_BONUS, Step::Road);
            for (c, r) in cost.iter_mut().zip(road) {
                *c = (*c).min(r);
            }
        }
        Reach::of_window(origin, radius, &cost)
    }

    /// What each square within `moves` costs stand `i` when the ground
    /// leaves nothing to search: no enemy stand within its move (for guns,
    /// one square more: they may not enter a square next to an enemy), and
    /// every square on the table within it at the stand's own level and open
    /// to it (no water; no woods or walls but for infantry). Each step then
    /// costs one square (MOVEMENT), no diagonal is barred (it takes an enemy
    /// stand, note viii), and the table's edge bars no short way, so a square
    /// costs its distance in squares, as [`search`] would find. `None` when
    /// the ground asks for the search. (Off a road only: a road's bonus asks
    /// for the search along it.)
    fn open_reach(&self, i: usize, moves: i32) -> Option<[u8; WINDOW]> {
        let p = self.pieces.get(i)?;
        let (origin, infantry) = (p.at, p.infantry);
        let ours = u8::try_from(p.side + 1).ok()?;
        let level = self.going(origin).level;
        let look = moves + i32::from(p.artillery);
        let mut cost = [UNREACHED; WINDOW];
        for dy in -look..=look {
            for dx in -look..=look {
                let sq = (origin.0 + dx, origin.1 + dy);
                let Some(slot) = self.slot(sq) else {
                    continue;
                };
                if self.owner.get(slot).is_some_and(|&o| o != 0 && o != ours) {
                    return None;
                }
                let apart = dx.abs().max(dy.abs());
                if apart > moves {
                    continue;
                }
                let going = self.going.get(slot).copied().unwrap_or_default();
                if going.water() || going.level != level || (!infantry && going.infantry_only()) {
                    return None;
                }
                if let (Some(c), Ok(apart)) = (
                    index(origin, sq).and_then(|k| cost.get_mut(k)),
                    u8::try_from(apart),
                ) {
                    *c = apart;
                }
            }
        }
        Some(cost)
    }

    /// Whether stand `i` may end its move in `sq`: room for it there.
    pub(super) fn can_stop(&self, i: usize, sq: Square) -> bool {
        self.has_room(sq, i)
    }

    /// Moves stand `i` to `to`, facing the way it went if it went forward;
    /// a stand that went back or across its side's front halts facing that
    /// front, toward the enemy's side of the table. (This program's own: the
    /// seed asks only that two stands in a square "face in the same
    /// direction" (THE BATTLEFIELD) and that fire be "within a 90° arc to
    /// the front" (Fire Combat); a line of the period stepping back to its
    /// place or sideways along it kept, or turned again to, its front, and a
    /// stand left facing its own rear could neither fire on the enemy nor
    /// meet a charge but with its back.)
    pub(super) fn move_to(&mut self, i: usize, to: Square) {
        let Some((from, side)) = self.pieces.get(i).map(|p| (p.at, p.side)) else {
            return;
        };
        if from == to {
            return;
        }
        self.lift(i);
        let front = self.front(side);
        if let (Some(p), Some(f)) = (self.pieces.get_mut(i), Facing::toward(from, to)) {
            let forward = f.dx * front.dx + f.dy * front.dy > 0;
            p.facing = if forward { f } else { front };
        }
        if !self.put(i, to) {
            // Never expected: the move was searched for room. Back it goes.
            self.put(i, from);
            return;
        }
        self.say(|me| {
            format!(
                "{} moves from {} to {}.",
                me.name(i),
                super::battle::show(from),
                super::battle::show(to)
            )
        });
    }

    /// Where stand `i` must withdraw to: "until they are one square away from
    /// the nearest enemy stand. This movement must be within a 90° arc to the
    /// rear of the withdrawing stand. If the stand has to withdraw more than
    /// four squares to comply with this rule or it is prevented from doing so
    /// because of an obstacle or enemy stand, the withdrawing stand is deemed
    /// to have been destroyed" (MOVEMENT).
    ///
    /// Read here as: at least one square back, each step to the rear or half
    /// right or left of it, stopping at the first square with room and no
    /// enemy stand adjacent to it. A step the stand could not make in an
    /// ordinary move (water, woods or walls for all but infantry, an enemy
    /// stand, between an enemy and an obstacle) or off the table is blocked.
    pub(super) fn withdrawal_of(&self, i: usize) -> Withdrawal {
        let Some(p) = self.pieces.get(i) else {
            return Withdrawal::Destroyed;
        };
        if !p.on_table() {
            return Withdrawal::Destroyed;
        }
        let back = rear_steps(p.facing);
        // Only the squares behind it matter.
        let span = |d: i32| match d {
            0 => (-WITHDRAW_AT_MOST, WITHDRAW_AT_MOST),
            d if d < 0 => (-WITHDRAW_AT_MOST, 0),
            _ => (0, WITHDRAW_AT_MOST),
        };
        let behind = p.facing.about();
        let ground = self.ground_in(i, span(behind.dx), span(behind.dy));
        let origin = p.at;
        let mut seen = [false; WINDOW];
        let mut frontier = [(0, 0); WINDOW];
        let mut next = [(0, 0); WINDOW];
        let mut len = 1;
        if let Some(first) = frontier.first_mut() {
            *first = origin;
        }
        for squares in 1..=WITHDRAW_AT_MOST {
            let mut n = 0;
            for &from in frontier.iter().take(len) {
                for d in back {
                    let to = (from.0 + d.dx, from.1 + d.dy);
                    let Some(k) = index(origin, to) else {
                        continue;
                    };
                    let blocked =
                        index(origin, from).is_none_or(|f| ground.step_cost(f, d, Step::Withdraw).is_none());
                    if seen.get(k).copied().unwrap_or(true) || blocked {
                        continue;
                    }
                    if let Some(s) = seen.get_mut(k) {
                        *s = true;
                    }
                    if let Some(slot) = next.get_mut(n) {
                        *slot = to;
                        n += 1;
                    }
                }
            }
            if let Some(&square) = next
                .iter()
                .take(n)
                .find(|&&sq| self.has_room(sq, i) && !self.enemy_adjacent(sq, p.side))
            {
                return Withdrawal::To { square, squares };
            }
            std::mem::swap(&mut frontier, &mut next);
            len = n;
            if len == 0 {
                break;
            }
        }
        Withdrawal::Destroyed
    }

    /// Squares stand `id` could end its move in this activation (for tests
    /// and tools; the battle itself does not allocate for this).
    pub fn reachable(&self, id: crate::model::StandId) -> Vec<Square> {
        let Some(i) = self.index_of(id) else {
            return Vec::new();
        };
        self.reach(i)
            .squares()
            .map(|(sq, _)| sq)
            .filter(|&sq| self.can_stop(i, sq))
            .collect()
    }

    /// Where stand `id` would go if it had to withdraw now.
    pub fn withdrawal(&self, id: crate::model::StandId) -> Withdrawal {
        self.index_of(id)
            .map_or(Withdrawal::Destroyed, |i| self.withdrawal_of(i))
    }
}

/// A stand's move this activation: where from, its squares (MOVEMENT, by
/// type), whether it starts on a road, and so how far it could go.
#[derive(Debug, Clone, Copy)]
struct Move {
    origin: Square,
    moves: i32,
    on_road: bool,
    radius: i32,
}

/// Lowest cost from the window's centre to each square within `allowance`:
/// a shortest-path search over buckets of equal cost (every step costs at
/// least 1, and the allowance is at most [`REACH`]).
fn search(ground: &Ground, allowance: i32, step: Step) -> [u8; WINDOW] {
    const LEVELS: usize = REACH as usize + 1;
    let mut cost = [UNREACHED; WINDOW];
    let allowance = allowance.clamp(0, REACH);
    let Some(start) = index(ground.origin, ground.origin) else {
        return cost;
    };
    // Each step with its offset in the window, worked out once.
    let steps = DIRECTIONS.map(|d| (d, isize::try_from(d.dx + d.dy * SPAN).unwrap_or(0)));
    let mut buckets = [[0_u8; WINDOW]; LEVELS];
    let mut lens = [0_usize; LEVELS];
    if let (Some(c), Some(b), Some(l), Ok(k)) = (
        cost.get_mut(start),
        buckets.first_mut().and_then(|b| b.first_mut()),
        lens.first_mut(),
        u8::try_from(start),
    ) {
        *c = 0;
        *b = k;
        *l = 1;
    }
    for level in 0..allowance {
        let Ok(here) = usize::try_from(level) else {
            break;
        };
        let len = lens.get(here).copied().unwrap_or(0);
        for n in 0..len {
            let Some(from) = buckets.get(here).and_then(|b| b.get(n)).map(|&k| usize::from(k)) else {
                continue;
            };
            if cost.get(from).map(|&c| i32::from(c)) != Some(level) {
                continue; // reached more cheaply since
            }
            for (d, offset) in steps {
                // A step off the window wraps past its end: `cost` has no
                // such square, and it is passed over below as `shift` would.
                let to = from.wrapping_add_signed(offset);
                // Every step costs at least one square: a square already
                // reached as cheaply (or off the window) is passed over
                // before the step is weighed.
                if cost.get(to).is_none_or(|&c| i32::from(c) <= level + 1) {
                    continue;
                }
                let Some(c) = ground.step_cost_to(from, to, d, step) else {
                    continue;
                };
                let total = level + c;
                let (Ok(total_u8), Ok(bucket)) = (u8::try_from(total), usize::try_from(total)) else {
                    continue;
                };
                if total > allowance || cost.get(to).is_none_or(|&c| c <= total_u8) {
                    continue;
                }
                if let Some(slot) = cost.get_mut(to) {
                    *slot = total_u8;
                }
                if total < allowance
                    && let (Some(len), Ok(k)) = (lens.get_mut(bucket), u8::try_from(to))
                    && let Some(place) = buckets.get_mut(bucket).and_then(|b| b.get_mut(*len))
                {
                    *place = k;
                    *len += 1;
                }
            }
        }
    }
    cost
}

/// The three steps within the 90° arc to the rear of a stand facing
/// `facing`: straight back first, then half left and half right of it.
fn rear_steps(facing: Facing) -> [Facing; 3] {
    let back = facing.about();
    let k = DIRECTIONS.iter().position(|d| *d == back).unwrap_or(0);
    let at = |k: usize| DIRECTIONS.get(k % 8).copied().unwrap_or(back);
    [at(k), at(k + 7), at(k + 1)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rear_steps_are_straight_back_then_half_left_and_right() {
        let up = Facing { dx: 0, dy: 1 };
        assert_eq!(
            rear_steps(up),
            [
                Facing { dx: 0, dy: -1 },
                Facing { dx: -1, dy: -1 },
                Facing { dx: 1, dy: -1 }
            ]
        );
        let diagonal = Facing { dx: 1, dy: 1 };
        assert_eq!(
            rear_steps(diagonal),
            [
                Facing { dx: -1, dy: -1 },
                Facing { dx: -1, dy: 0 },
                Facing { dx: 0, dy: -1 }
            ]
        );
    }

    #[test]
    fn window_indices_stay_in_the_window() {
        let o = (3, 3);
        assert_eq!(index(o, o), Some(WINDOW / 2));
        assert_eq!(index(o, (3 + RADIUS + 1, 3)), None);
        assert_eq!(shift(0, -1, 0), None);
        assert_eq!(shift(WINDOW - 1, 1, 0), None);
        assert_eq!(shift(WINDOW / 2, 1, 1), Some(WINDOW / 2 + 1 + 15));
    }
}
