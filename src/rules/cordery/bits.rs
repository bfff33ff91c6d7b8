//! The move's search done a row of squares at a time: the table's going and
//! who stands where kept as bits, a row of the table to a word, and the
//! squares round a stand read from them into a window of bits, on which
//! every square reached at one cost steps on together
//! (cordery-2009-late-19th-century-rules.txt, MOVEMENT).
//!
//! The costs are those of [`super::movement`]'s search square by square, to
//! the square: the same steps, barred by the same rules, each costing the
//! same, and the least cost of each square kept. That search stays, for a
//! table too wide for a word a row and as the measure this one is tested
//! against (the tests at the foot of this file).

use super::battle::Going;
use super::movement::{DIRECTIONS, RADIUS, REACH, REACH_STRIDE, REACH_WINDOW, SPAN, UNREACHED};
use super::tables::{CONTOUR_COST, Facing};

/// Bits from one row of the window to the next: a row's `SPAN` squares and
/// a bit always clear after them, so that a step across the window's edge
/// lands on that bit, not on the next row.
const STRIDE: i32 = REACH_STRIDE;
/// The window's squares as bits: `SPAN` rows of [`STRIDE`] bits, in four
/// words.
const WORDS: usize = 4;
/// A row's squares within the window: `SPAN` bits.
const ROW: u64 = (1 << SPAN) - 1;
/// The most hill levels a table may have for this search; a table with more
/// is searched square by square.
const MAX_LEVELS: usize = 4;
/// The costs a square can be reached at: 0 to [`REACH`].
const COSTS: usize = REACH as usize + 1;

/// Squares of the window as bits: square (`c`, `r`) of the window, counted
/// from its top left, is bit `r * STRIDE + c`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Bits([u64; WORDS]);

impl Bits {
    fn and(self, o: Bits) -> Bits {
        let [a, b, c, d] = self.0;
        let [e, f, g, h] = o.0;
        Bits([a & e, b & f, c & g, d & h])
    }

    fn or(self, o: Bits) -> Bits {
        let [a, b, c, d] = self.0;
        let [e, f, g, h] = o.0;
        Bits([a | e, b | f, c | g, d | h])
    }

    /// These squares but not those of `o`.
    fn but(self, o: Bits) -> Bits {
        let [a, b, c, d] = self.0;
        let [e, f, g, h] = o.0;
        Bits([a & !e, b & !f, c & !g, d & !h])
    }

    fn is_empty(self) -> bool {
        self.0 == [0; WORDS]
    }

    /// Every bit moved `by` places up (down when negative), those moved off
    /// either end dropped: `|by|` is less than a word.
    fn shift(self, by: i32) -> Bits {
        let [a, b, c, d] = self.0;
        let n = by.unsigned_abs();
        if n == 0 || n >= 64 {
            return if n == 0 { self } else { Bits::default() };
        }
        let m = 64 - n;
        if by > 0 {
            Bits([
                a << n,
                (b << n) | (a >> m),
                (c << n) | (b >> m),
                (d << n) | (c >> m),
            ])
        } else {
            Bits([
                (a >> n) | (b << m),
                (b >> n) | (c << m),
                (c >> n) | (d << m),
                d >> n,
            ])
        }
    }

    /// Sets row `r` of the window to the `SPAN` low bits of `row`.
    fn set_row(&mut self, r: i32, row: u64) {
        let Ok(bit) = usize::try_from(r * STRIDE) else {
            return;
        };
        if let Some(w) = self.0.get_mut(bit / 64) {
            *w |= (row & ROW) << (bit % 64);
        }
    }

    /// The place of each square set, in order: its bit.
    fn places(self) -> impl Iterator<Item = usize> {
        self.0.into_iter().enumerate().flat_map(|(w, word)| {
            let mut word = word;
            std::iter::from_fn(move || {
                if word == 0 {
                    return None;
                }
                let bit = w * 64 + word.trailing_zeros() as usize;
                word &= word - 1;
                Some(bit)
            })
        })
    }
}

/// The place of a step `d` in the window's bits.
fn offset(d: Facing) -> i32 {
    d.dx + d.dy * STRIDE
}

/// One row of the table as bits (bit `x` is square `x` of the row): its
/// going, and who stands where.
#[derive(Debug, Clone, Copy, Default)]
struct Row {
    /// Squares not water, open to any stand (`[0]`) and to infantry (`[1]`):
    /// "Only Infantry may move off-road through woods or can cross vertical
    /// obstacles (e.g. walls, hedges, fences etc.)" (MOVEMENT).
    open: [u64; 2],
    /// Road squares closed to all but infantry off the road (woods or a
    /// wall on the road), not water: entered by the others only along it.
    gate: u64,
    road: u64,
    /// Obstacles of note viii.
    obstacle: u64,
    /// The squares of each of the table's hill levels
    /// ([`TableBits::levels`]).
    levels: [u64; MAX_LEVELS],
    /// The squares each side's stands are in.
    occupied: [u64; 2],
}

/// The table's going as bits, a row of the table to a word, with who stands
/// where: worked out when the battle is set out, the stands' squares kept as
/// they move.
#[derive(Debug, Clone)]
pub(super) struct TableBits {
    width: i32,
    rows: Vec<Row>,
    /// The table's hill levels, in the order of [`Row::levels`].
    levels: Vec<u8>,
}

impl TableBits {
    /// The table's going (`width` squares a row, row by row) as bits; `None`
    /// when a row is wider than a word or the table has more than
    /// [`MAX_LEVELS`] levels: then the search goes square by square.
    pub(super) fn of(going: &[Going], width: i32) -> Option<TableBits> {
        let w = usize::try_from(width).ok().filter(|&w| w > 0 && w <= 64)?;
        let mut bits = TableBits {
            width,
            rows: vec![Row::default(); going.len() / w],
            levels: Vec::new(),
        };
        for (g, k) in going.iter().zip(0..bits.rows.len() * w) {
            let level = match bits.levels.iter().position(|&l| l == g.level) {
                Some(at) => at,
                None if bits.levels.len() < MAX_LEVELS => {
                    bits.levels.push(g.level);
                    bits.levels.len() - 1
                }
                None => return None,
            };
            let Some(row) = bits.rows.get_mut(k / w) else {
                continue;
            };
            let bit = 1_u64 << (k % w);
            let set = |v: &mut u64, on: bool| {
                if on {
                    *v |= bit;
                }
            };
            let [horse, foot] = &mut row.open;
            set(horse, !g.water() && !g.infantry_only());
            set(foot, !g.water());
            set(&mut row.gate, !g.water() && g.infantry_only() && g.road());
            set(&mut row.road, g.road());
            set(&mut row.obstacle, g.obstacle());
            if let Some(v) = row.levels.get_mut(level) {
                set(v, true);
            }
        }
        Some(bits)
    }

    /// Marks square `slot` (`y * width + x`) as held by side `owner - 1`, or
    /// by nobody when `owner` is 0 (the battle's `owner` of a square).
    pub(super) fn set_owner(&mut self, slot: usize, owner: u8) {
        let Ok(w) = usize::try_from(self.width) else {
            return;
        };
        let bit = 1_u64 << (slot % w);
        let Some(row) = self.rows.get_mut(slot / w) else {
            return;
        };
        for (side, r) in row.occupied.iter_mut().enumerate() {
            if usize::from(owner) == side + 1 {
                *r |= bit;
            } else {
                *r &= !bit;
            }
        }
    }

    /// The window of squares round `origin` as the move of a stand of side
    /// `side` sees them (`infantry`: whether it may enter woods and cross
    /// walls off the road; `artillery`: whether it must keep out of the
    /// squares next to an enemy), its rows within `radius` of `origin`
    /// filled: no move reaches farther.
    pub(super) fn window(
        &self,
        origin: (i32, i32),
        side: usize,
        infantry: bool,
        artillery: bool,
        radius: i32,
    ) -> Window {
        let mut win = Window::default();
        let (enemy_side, open) = (1 - side.min(1), usize::from(infantry));
        // A table row's squares from column `left` on, bit 0 the square of
        // column `left` (`left` within a word either way).
        let view = |row: u64, left: i32| {
            if left >= 0 {
                row.checked_shr(left.unsigned_abs()).unwrap_or(0)
            } else {
                row.checked_shl(left.unsigned_abs()).unwrap_or(0)
            }
        };
        let left = origin.0 - RADIUS;
        let enemies_at = |y: i32| {
            usize::try_from(y)
                .ok()
                .and_then(|y| self.rows.get(y))
                .and_then(|r| r.occupied.get(enemy_side))
                .copied()
                .unwrap_or(0)
        };
        let r = radius.clamp(0, RADIUS);
        let mut levels = [Bits::default(); MAX_LEVELS];
        for row in RADIUS - r..=RADIUS + r {
            let y = origin.1 - RADIUS + row;
            let Some(t) = usize::try_from(y).ok().and_then(|y| self.rows.get(y)) else {
                continue;
            };
            // Where the window's row goes in its words.
            let Ok(bit) = usize::try_from(row * STRIDE) else {
                continue;
            };
            let (word, at) = (bit / 64, bit % 64);
            let place = |bits: &mut Bits, v: u64| {
                if let Some(w) = bits.0.get_mut(word) {
                    *w |= (v & ROW) << at;
                }
            };
            // `place` keeps a row's `SPAN` squares alone.
            let read = |v: u64| view(v, left);
            let enemy = read(t.occupied.get(enemy_side).copied().unwrap_or(0));
            place(
                &mut win.free,
                read(t.open.get(open).copied().unwrap_or(0)) & !enemy,
            );
            if !infantry {
                place(&mut win.gate, read(t.gate) & !enemy);
            }
            place(&mut win.road, read(t.road));
            place(&mut win.enemy, enemy);
            place(&mut win.obstacle, read(t.obstacle));
            if artillery {
                // The enemy stands of this row and the rows either side, from
                // a column before the window's to one after it, spread a
                // square either way: the squares next to an enemy stand.
                let wide = (1_u64 << (SPAN + 2)) - 1;
                let around = (y - 1..=y + 1).fold(0, |acc, y| acc | (view(enemies_at(y), left - 1) & wide));
                place(&mut win.near, around | (around >> 1) | (around >> 2));
            }
            for (bits, &v) in levels.iter_mut().zip(&t.levels).take(self.levels.len()) {
                place(bits, read(v));
            }
        }
        // Only the levels the window's rows hold.
        for (&level, bits) in self.levels.iter().zip(levels) {
            if !bits.is_empty()
                && let Some(slot) = win.levels.get_mut(win.count)
            {
                *slot = (level, bits);
                win.count += 1;
            }
        }
        // "Stands cannot move diagonally between enemy stands or between an
        // enemy stand and an obstacle (viii)": for each diagonal step, the
        // squares it may not start from, the squares beside it, across and
        // along, both barred and one an enemy. None without an enemy.
        if !win.enemy.is_empty() {
            let barrier = win.enemy.or(win.obstacle);
            for (d, barred) in DIRECTIONS.iter().zip(win.barred.iter_mut()) {
                if d.dx == 0 || d.dy == 0 {
                    continue;
                }
                let (across, along) = (-d.dx, -d.dy * STRIDE);
                *barred = barrier
                    .shift(across)
                    .and(barrier.shift(along))
                    .and(win.enemy.shift(across).or(win.enemy.shift(along)));
                win.any_barred = win.any_barred.or(*barred);
            }
        }
        win
    }
}

/// The squares round a stand, as its move sees them, as bits.
#[derive(Debug, Clone, Default)]
pub(super) struct Window {
    /// It may enter them from any square ([`super::movement`]'s `FREE`).
    free: Bits,
    /// It may enter them only from a road square (`GATE`).
    gate: Bits,
    road: Bits,
    enemy: Bits,
    /// Obstacles of note viii.
    obstacle: Bits,
    /// Next to an enemy stand (filled for artillery only).
    near: Bits,
    /// The hill levels in the window and the squares of each; the first
    /// `count` are filled.
    levels: [(u8, Bits); MAX_LEVELS],
    count: usize,
    /// For each of [`DIRECTIONS`], the squares a step that way may not start
    /// from (none for the steps along a row or a column); and all of them.
    barred: [Bits; 8],
    any_barred: Bits,
}

/// The squares reached at each cost, 0 to [`REACH`].
pub(super) type Costs = [Bits; COSTS];

/// The squares one step from any of `from`, every way (and `from`): the
/// steps across, then those up and down from them and from `from`.
fn spread(from: Bits) -> Bits {
    let across = from.or(from.shift(1)).or(from.shift(-1));
    across.or(across.shift(STRIDE)).or(across.shift(-STRIDE))
}

impl Window {
    /// The least cost of each square within `allowance` squares of
    /// allowance from the window's centre, as the square-by-square search
    /// finds it: steps of one square each way, costing one square and one
    /// more a contour crossed, into squares the stand may enter, not
    /// diagonally between enemy stands or an enemy stand and an obstacle;
    /// `road`: every step along a road; `artillery`: never into a square
    /// next to an enemy stand.
    pub(super) fn search(&self, allowance: i32, road: bool, artillery: bool) -> Costs {
        let mut reached: Costs = [Bits::default(); COSTS];
        let allowance = usize::try_from(allowance.clamp(0, REACH)).unwrap_or(0);
        let mut pending: Costs = [Bits::default(); COSTS];
        if let Some(p) = pending.first_mut() {
            p.set_row(RADIUS, 1 << RADIUS);
        }
        // Where a step may end, whatever it starts from; and where one may
        // end from a road square.
        let (mut into, mut gate) = (self.free, self.gate);
        if road {
            into = into.and(self.road);
            gate = gate.and(self.road);
        }
        if artillery {
            into = into.but(self.near);
            gate = gate.but(self.near);
        }
        let levels = self.levels.get(..self.count).unwrap_or(&[]);
        let mut seen = Bits::default();
        for cost in 0..=allowance {
            let Some(&here) = pending.get(cost) else { break };
            let here = here.but(seen);
            seen = seen.or(here);
            if let Some(r) = reached.get_mut(cost) {
                *r = here;
            }
            if cost == allowance || here.is_empty() {
                continue;
            }
            for &(la, a) in levels {
                let from = here.and(a);
                if from.is_empty() {
                    continue;
                }
                // The squares any step may start from, every way at once;
                // those a diagonal may not start from, one way at a time.
                let mut to = spread(from.but(self.any_barred)).and(into);
                let held = from.and(self.any_barred);
                let from_road = if gate.is_empty() {
                    Bits::default()
                } else {
                    from.and(self.road)
                };
                if !held.is_empty() || !from_road.is_empty() {
                    for (&d, &barred) in DIRECTIONS.iter().zip(&self.barred) {
                        let step = offset(d);
                        to = to
                            .or(held.but(barred).shift(step).and(into))
                            .or(from_road.but(barred).shift(step).and(gate));
                    }
                }
                let to = to.but(seen);
                if to.is_empty() {
                    continue;
                }
                // "Stands crossing a hill contour reduce their movement
                // distance by 1 square per contour crossed."
                for &(lb, b) in levels {
                    let arrived = to.and(b);
                    if arrived.is_empty() {
                        continue;
                    }
                    let contours = i32::from(la.abs_diff(lb));
                    let total = cost + usize::try_from(1 + CONTOUR_COST * contours).unwrap_or(COSTS);
                    if let Some(p) = pending.get_mut(total).filter(|_| total <= allowance) {
                        *p = p.or(arrived);
                    }
                }
            }
        }
        reached
    }
}

/// The cost of each square of the window, as [`super::movement::Reach`]
/// lays them out (a row's place for each bit of a window's row), least of the
/// searches, [`UNREACHED`] where none reaches.
pub(super) fn cost_of(searches: &[Costs]) -> [u8; REACH_WINDOW] {
    let mut cost = [UNREACHED; REACH_WINDOW];
    for costs in searches {
        for (c, bits) in costs.iter().enumerate() {
            let Ok(c) = u8::try_from(c) else { continue };
            for k in bits.places() {
                if let Some(slot) = cost.get_mut(k)
                    && c < *slot
                {
                    *slot = c;
                }
            }
        }
    }
    cost
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::super::battle::Battle;
    use super::*;
    use crate::model::{ArmyKind, RuleSetId, StandKind};
    use crate::scenario::{
        Area, Cover, Ground, Objective, ObjectiveKind, Patch, Role, Scenario, ScenarioSide, Table, TableStand,
    };
    use proptest::prelude::*;

    const KINDS: [StandKind; 6] = [
        StandKind::LineInfantry,
        StandKind::NativeSpearmen,
        StandKind::HeavyCavalry,
        StandKind::LightCavalry,
        StandKind::FootArtillery,
        StandKind::MachineGun,
    ];
    /// A patch: its corner and size, ground, level, road and cover, each
    /// drawn as a number.
    type Drawn = (u32, u32, u32, u32, usize, u8, bool, u8);

    fn scenario(width: u32, depth: u32, patches: &[Drawn], kinds: &[(usize, usize)]) -> Scenario {
        let terrain = patches
            .iter()
            .map(|&(x, y, w, h, ground, level, road, cover)| Patch {
                area: Area {
                    x: x % width,
                    y: y % depth,
                    w,
                    h,
                },
                ground: Some(Ground::ALL[ground % Ground::ALL.len()]),
                level: Some(level),
                road: Some(road),
                cover: match cover % 3 {
                    0 => None,
                    1 => Some(Cover::WallOrHedge),
                    _ => Some(Cover::Entrenchment),
                },
            })
            .collect();
        let stand = |id: u32, k: usize| TableStand::fresh(id, KINDS[k % KINDS.len()]);
        let side = |id: &str, role, y, first: u32, pick: fn(&(usize, usize)) -> usize| ScenarioSide {
            id: id.to_owned(),
            name: id.to_owned(),
            army: ArmyKind::Regular,
            role,
            colour: None,
            deployment: Area {
                x: 0,
                y,
                w: width,
                h: 3,
            },
            stands: kinds
                .iter()
                .enumerate()
                .map(|(n, k)| stand(first + u32::try_from(n).unwrap(), pick(k)))
                .collect(),
            reserves: Vec::new(),
        };
        Scenario {
            title: "bits".to_owned(),
            rules: RuleSetId::Cordery2009,
            seed: 0,
            turn_limit: 12,
            table: Table {
                width,
                depth,
                cell_inches: 2.0,
                grid: true,
                terrain,
            },
            sides: vec![
                side("blue", Role::Defender, 0, 1, |k| k.0),
                side("red", Role::Attacker, depth - 3, 101, |k| k.1),
            ],
            objectives: vec![Objective {
                name: "middle".to_owned(),
                kind: ObjectiveKind::Crossroads,
                x: width / 2,
                y: depth / 2,
            }],
            notes: None,
        }
    }

    /// Every stand's move by bits and square by square, the squares and
    /// their costs in the same order.
    fn compare(b: &Battle<'_>) -> Result<(), TestCaseError> {
        for i in 0..b.pieces.len() {
            if !b.pieces.get(i).is_some_and(|p| p.on_table()) {
                continue;
            }
            let by_bits: Vec<_> = b.reach(i).squares().collect();
            let by_squares: Vec<_> = b.reach_by_search(i).squares().collect();
            prop_assert_eq!(
                by_bits,
                by_squares,
                "stand {} at {:?}",
                i,
                b.pieces.get(i).map(|p| p.at)
            );
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(96))]

        /// The search by bits finds each square the search square by square
        /// finds, at the same cost, and no other: on tables of every going
        /// (rivers, woods, towns, walls, roads, hills of up to four levels
        /// and of five, which it leaves to the other), for every kind of
        /// stand, turn by turn as the armies close and fight.
        #[test]
        fn the_search_by_bits_costs_every_square_as_the_search_square_by_square(
            width in 6_u32..30,
            depth in 8_u32..16,
            patches in proptest::collection::vec(
                (0_u32..30, 0_u32..16, 1_u32..8, 1_u32..6, 0_usize..9, 0_u8..5, any::<bool>(), 0_u8..3),
                0..14,
            ),
            kinds in proptest::collection::vec((0_usize..6, 0_usize..6), 2..14),
            seed in 0_u64..1000,
        ) {
            let scenario = scenario(width, depth, &patches, &kinds);
            let mut b = Battle::new(&scenario, seed, false);
            for _ in 0..8 {
                compare(&b)?;
                if b.is_over() {
                    break;
                }
                b.play_turn();
            }
        }
    }

    #[test]
    fn a_step_across_the_window_s_edge_lands_on_no_square() {
        let mut first = Bits::default();
        first.set_row(0, ROW);
        let mut second = Bits::default();
        second.set_row(1, ROW);
        // A step right from the last square of row 0 lands on the bit kept
        // clear after the row, not on row 1's first square; a step left
        // from row 1's first square lands there too.
        assert_eq!(first.shift(1).0[0], ROW << 1);
        assert!(first.shift(1).and(second).is_empty());
        assert_eq!(second.shift(-1).0[0], (ROW << STRIDE) >> 1);
        assert!(second.shift(-1).and(first).is_empty());
        // Off the top of the window, dropped.
        assert!(first.shift(-STRIDE).is_empty());
        let mut last = Bits::default();
        last.set_row(SPAN - 1, 1);
        // Below the last row: the padding after it, which no going sets.
        assert_eq!(last.shift(STRIDE).0, [0, 0, 0, 1 << 48]);
        assert!(
            last.shift(-STRIDE)
                .places()
                .eq([usize::try_from((SPAN - 2) * STRIDE).unwrap()])
        );
    }
}
