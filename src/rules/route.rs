//! Routes round ground a stand may not cross, for the inch-table rule sets:
//! rivers but at their bridges and fords, and (scruby-1961's SPECIAL
//! MOVEMENT RULES) forests for horse and guns. A column marching on a town
//! beyond a river makes for the bridge rather than halting on the bank.
//!
//! A stand walks straight at where it is going while the ground between
//! lets it; when it does not, it follows a field of distances over the cells
//! it may enter, made once per battle for each target cell and kind of going
//! and kept (this program's own: the seeds leave the way to the players).
//!
//! Each engine says what its kinds of going may enter (`open`, by ground)
//! and how it looks at a straight way (`clear`): scruby-1961 in its
//! quarter-inch steps ([`clear_way`]), scruby-basic and scruby-1965 at every
//! cell the way passes through ([`open_way`], by [`WaterRoutes`]). The fields
//! and the steering are the same for all.

use crate::rules::board::{Board, Point, floor};
use crate::scenario::Ground;

/// How many cells of its route a stand looks along for the furthest it can
/// walk to straight (this program's own: more than a cavalry move).
const ROUTE_CELLS: usize = 8;

/// The eight cells about a cell: the route steps straight and diagonally.
const AROUND: [(i64, i64); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// Fields kept before the cache starts again (this program's own: bounds
/// memory; a battle seldom has more distinct targets).
const MAX_FIELDS: usize = 96;

/// Distances within this many inches are the same ([`clear_way`]).
const EPSILON: f64 = 1e-6;

/// Distance fields to target cells, by kind of going (an engine's own
/// index, below [`Routes::new`]'s `kinds`).
#[derive(Debug, Clone, Default)]
pub(crate) struct Routes {
    /// Whether the table has any ground each kind of going may not enter:
    /// without, no stand of that kind ever needs a route.
    blocked: Vec<bool>,
    fields: Vec<((i64, i64), usize, Vec<f32>)>,
}

impl Routes {
    /// Routes on `board` for `kinds` kinds of going, `open(kind, ground)`
    /// saying whether a kind may enter a ground.
    pub(crate) fn new(board: &Board, kinds: usize, open: impl Fn(usize, Ground) -> bool) -> Routes {
        let blocked = (0..kinds)
            .map(|kind| board.grounds().iter().any(|&ground| !open(kind, ground)))
            .collect();
        Routes {
            blocked,
            fields: Vec::new(),
        }
    }

    /// Whether any ground on the table is closed to going `kind`: without,
    /// every straight way is open to it.
    pub(crate) fn needed(&self, kind: usize) -> bool {
        self.blocked.get(kind).copied().unwrap_or(false)
    }

    /// Where a stand of going `kind` at `from` (inches) steers this move on
    /// its way to `to` (inches): `to` itself while the straight way is
    /// ground it may enter (`clear(from, to)`, the engine's own look at
    /// the way; `open` says which ground it may enter), else
    /// the furthest cell centre of its route, within [`ROUTE_CELLS`], it can
    /// walk to straight. `to` when there is no route (it stands on ground it
    /// may not enter, or the target cannot be reached).
    pub(crate) fn steer(
        &mut self,
        board: &Board,
        kind: usize,
        open: impl Fn(Ground) -> bool,
        clear: impl Fn(Point, Point) -> bool,
        from: Point,
        to: Point,
    ) -> Point {
        if !self.needed(kind) || clear(from, to) {
            return to;
        }
        self.round(board, kind, open, clear, from, to)
    }

    /// [`Routes::steer`] for a stand whose straight way is known closed:
    /// the furthest cell centre of its route it can walk to straight, `to`
    /// when there is no route.
    fn round(
        &mut self,
        board: &Board,
        kind: usize,
        open: impl Fn(Ground) -> bool,
        clear: impl Fn(Point, Point) -> bool,
        from: Point,
        to: Point,
    ) -> Point {
        let c = board.cell_inches;
        let target = cell_of(board.to_cells(to));
        let k = match self
            .fields
            .iter()
            .position(|(t, g, _)| *t == target && *g == kind)
        {
            Some(k) => k,
            None => {
                if self.fields.len() >= MAX_FIELDS {
                    self.fields.clear();
                }
                let f = field(board, target, open);
                self.fields.push((target, kind, f));
                self.fields.len() - 1
            }
        };
        let Some((_, _, dist)) = self.fields.get(k) else {
            return to;
        };
        let (w, h) = (i64::from(board.width), i64::from(board.depth));
        let at = |cell: (i64, i64)| -> f32 {
            if cell.0 < 0 || cell.1 < 0 || cell.0 >= w || cell.1 >= h {
                return f32::INFINITY;
            }
            usize::try_from(cell.1 * w + cell.0)
                .ok()
                .and_then(|n| dist.get(n).copied())
                .unwrap_or(f32::INFINITY)
        };
        let mut cell = cell_of(board.to_cells(from));
        if !at(cell).is_finite() {
            return to;
        }
        let mut path = [(0_i64, 0_i64); ROUTE_CELLS];
        let mut len = 0;
        for slot in &mut path {
            let here = at(cell);
            let mut best = (cell, here);
            for (dx, dy) in AROUND {
                let next = (cell.0 + dx, cell.1 + dy);
                // Never across the corner of ground it may not enter, as the
                // field was made.
                if dx != 0
                    && dy != 0
                    && (!at((cell.0 + dx, cell.1)).is_finite() || !at((cell.0, cell.1 + dy)).is_finite())
                {
                    continue;
                }
                let d = at(next);
                if d < best.1 {
                    best = (next, d);
                }
            }
            if best.0 == cell {
                break;
            }
            cell = best.0;
            *slot = cell;
            len += 1;
            if best.1 <= 0.0 {
                break;
            }
        }
        let path = path.get(..len).unwrap_or(&[]);
        #[allow(clippy::cast_precision_loss)]
        let centre = |cell: (i64, i64)| ((cell.0 as f64 + 0.5) * c, (cell.1 as f64 + 0.5) * c);
        let mut aim = path.first().map_or(to, |&p| centre(p));
        for &p in path {
            let p = centre(p);
            if clear(from, p) {
                aim = p;
            }
        }
        aim
    }
}

/// Whether a stand may stand on `ground` where only water bars the way
/// (scruby-basic, scruby-1965: neither's Movement chart gives a figure for
/// crossing a river, so it is not crossed but at its bridges and fords).
pub(crate) fn dry(ground: Ground) -> bool {
    ground != Ground::River
}

/// Routes for the rule sets in which every stand may go anywhere but into
/// a river ([`dry`]): one kind of going, every cell of a way looked at
/// ([`open_way`]), so no river a cell wide is stepped over.
#[derive(Debug, Clone, Default)]
pub(crate) struct WaterRoutes(Routes);

impl WaterRoutes {
    pub(crate) fn new(board: &Board) -> WaterRoutes {
        WaterRoutes(Routes::new(board, 1, |_, ground| dry(ground)))
    }

    /// Whether the table has a river at all: without, every way is dry.
    fn any_water(&self) -> bool {
        self.0.needed(0)
    }

    /// Whether the straight way from `a` to `b` (inches) crosses no river.
    pub(crate) fn dry_way(&self, board: &Board, a: Point, b: Point) -> bool {
        !self.any_water() || open_way(board, dry, a, b)
    }

    /// How far a stand at `from` may go toward `to` (inches) before the
    /// water: `to` when the way is dry, else just short of the first river
    /// on it.
    pub(crate) fn dry_reach(&self, board: &Board, from: Point, to: Point) -> Point {
        if self.any_water() {
            last_open(board, dry, from, to)
        } else {
            to
        }
    }

    /// Where a stand at `from` makes for on its way to `to` (inches) when
    /// water lies between: the way round by the bridge or ford
    /// ([`Routes::steer`]); `None` while the straight way is dry.
    pub(crate) fn round_water(&mut self, board: &Board, from: Point, to: Point) -> Option<Point> {
        if self.dry_way(board, from, to) {
            return None;
        }
        let clear = |a, b| open_way(board, dry, a, b);
        Some(self.0.round(board, 0, dry, clear, from, to))
    }
}

/// Whether the whole straight way from `a` to `b` (inches), looked at every
/// `step` inches, is ground `open` lets a stand enter.
pub(crate) fn clear_way(board: &Board, open: impl Fn(Ground) -> bool, step: f64, a: Point, b: Point) -> bool {
    let total = crate::rules::doctrine::dist(a, b);
    let Some(dir) = crate::rules::doctrine::unit_vector(a, b) else {
        return true;
    };
    if step <= 0.0 || !step.is_finite() {
        return true;
    }
    let c = board.cell_inches;
    let mut walked = step;
    while walked <= total + EPSILON {
        let p = (a.0 + dir.0 * walked, a.1 + dir.1 * walked);
        if !open(board.cell_at((p.0 / c, p.1 / c)).ground) {
            return false;
        }
        walked += step;
    }
    true
}

/// Steps a straight way may take through cells before it is given up: far
/// more than any table's cells across (a bound, so no input can hang it).
const MAX_CELLS_WALKED: u32 = 4096;

/// The cells the straight way from `a` to `b` (in cells) passes through,
/// in order, each with the share of the way (0 to 1) at which it enters
/// it, given to `visit` until it answers false (Amanatides and Woo's
/// traversal: every cell the line touches, however thin the corner it
/// cuts). Whether it went to the end.
pub(crate) fn walk_cells(a: Point, b: Point, mut visit: impl FnMut((i64, i64), f64) -> bool) -> bool {
    if !(a.0.is_finite() && a.1.is_finite() && b.0.is_finite() && b.1.is_finite()) {
        return true;
    }
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let mut cell = cell_of(a);
    let end = cell_of(b);
    if !visit(cell, 0.0) {
        return false;
    }
    let axis = |from: f64, d: f64, at: i64| -> (i64, f64, f64) {
        #[allow(clippy::cast_precision_loss)]
        let at = at as f64;
        if d > 0.0 {
            (1, (at + 1.0 - from) / d, 1.0 / d)
        } else if d < 0.0 {
            (-1, (from - at) / -d, 1.0 / -d)
        } else {
            (0, f64::INFINITY, f64::INFINITY)
        }
    };
    let (step_x, mut next_x, delta_x) = axis(a.0, dx, cell.0);
    let (step_y, mut next_y, delta_y) = axis(a.1, dy, cell.1);
    for _ in 0..MAX_CELLS_WALKED {
        if cell == end {
            break;
        }
        let t = if next_x < next_y {
            cell.0 += step_x;
            let t = next_x;
            next_x += delta_x;
            t
        } else {
            cell.1 += step_y;
            let t = next_y;
            next_y += delta_y;
            t
        };
        if t > 1.0 {
            break;
        }
        if !visit(cell, t) {
            return false;
        }
    }
    true
}

/// Whether every cell the straight way from `a` to `b` (inches) passes
/// through is ground `open` lets a stand enter (off the table counts as
/// open ground, as [`Board::cell`] gives it).
pub(crate) fn open_way(board: &Board, open: impl Fn(Ground) -> bool, a: Point, b: Point) -> bool {
    walk_cells(board.to_cells(a), board.to_cells(b), |c, _| {
        open(board.cell(c.0, c.1).ground)
    })
}

/// How far along the straight way from `a` toward `b` (inches) a stand
/// may go before the first cell `open` closes: `b` when none does, else a
/// hundredth of an inch short of that cell's edge (`a` if it is nearer).
pub(crate) fn last_open(board: &Board, open: impl Fn(Ground) -> bool, a: Point, b: Point) -> Point {
    let mut stop = None;
    walk_cells(board.to_cells(a), board.to_cells(b), |c, t| {
        if open(board.cell(c.0, c.1).ground) {
            true
        } else {
            stop = Some(t);
            false
        }
    });
    let Some(t) = stop else { return b };
    let total = crate::rules::doctrine::dist(a, b);
    if total <= 0.0 || !total.is_finite() {
        return a;
    }
    let t = (t - 0.01 / total).max(0.0);
    (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t)
}

/// The cell of a point in cells.
fn cell_of(p: Point) -> (i64, i64) {
    (floor(p.0), floor(p.1))
}

/// A field of the cost (in cells, diagonal steps 1.41) to reach `target`
/// from every cell `open` lets a stand enter, never cutting the corner of
/// ground it may not.
fn field(board: &Board, target: (i64, i64), open: impl Fn(Ground) -> bool) -> Vec<f32> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let (w, h) = (i64::from(board.width), i64::from(board.depth));
    let index = |c: (i64, i64)| -> Option<usize> {
        (c.0 >= 0 && c.1 >= 0 && c.0 < w && c.1 < h)
            .then(|| usize::try_from(c.1 * w + c.0).ok())
            .flatten()
    };
    let open = |c: (i64, i64)| index(c).is_some() && open(board.cell(c.0, c.1).ground);
    let n = usize::try_from(w * h).unwrap_or(0);
    let mut dist = vec![f32::INFINITY; n];
    // A target on ground it may not enter: the nearest cell it may, as
    // near as it can come.
    let target = if open(target) {
        target
    } else {
        let mut best: Option<((i64, i64), i64)> = None;
        for y in 0..h {
            for x in 0..w {
                let d2 = (x - target.0).pow(2) + (y - target.1).pow(2);
                if open((x, y)) && best.is_none_or(|(_, b)| d2 < b) {
                    best = Some(((x, y), d2));
                }
            }
        }
        match best {
            Some((c, _)) => c,
            None => return dist,
        }
    };
    let Some(t) = index(target) else { return dist };
    if let Some(d) = dist.get_mut(t) {
        *d = 0.0;
    }
    // Costs in hundredths of a cell, as integers for the heap.
    let mut heap = BinaryHeap::new();
    heap.push(Reverse((0_u32, target)));
    while let Some(Reverse((cost, c))) = heap.pop() {
        let Some(ci) = index(c) else { continue };
        if dist
            .get(ci)
            .is_some_and(|&d| f64::from(cost) > f64::from(d) * 100.0 + 0.5)
        {
            continue;
        }
        for (dx, dy) in AROUND {
            let next = (c.0 + dx, c.1 + dy);
            if !open(next) {
                continue;
            }
            let diagonal = dx != 0 && dy != 0;
            if diagonal && (!open((c.0 + dx, c.1)) || !open((c.0, c.1 + dy))) {
                continue;
            }
            let step = if diagonal { 141 } else { 100 };
            let total = cost.saturating_add(step);
            let Some(ni) = index(next) else { continue };
            let better = dist
                .get(ni)
                .is_some_and(|&d| f64::from(total) < f64::from(d) * 100.0 - 0.5);
            if better {
                if let Some(d) = dist.get_mut(ni) {
                    #[allow(clippy::cast_precision_loss)]
                    let v = total as f32 / 100.0;
                    *d = v;
                }
                heap.push(Reverse((total, next)));
            }
        }
    }
    dist
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(a: Point, b: Point) -> Vec<(i64, i64)> {
        let mut seen = Vec::new();
        walk_cells(a, b, |c, _| {
            seen.push(c);
            true
        });
        seen
    }

    #[test]
    fn a_way_passes_through_every_cell_it_touches() {
        // (from, to, the cells in order), in cells.
        type Case = (Point, Point, &'static [(i64, i64)]);
        let cases: [Case; 5] = [
            ((0.5, 0.5), (0.7, 0.2), &[(0, 0)]),
            ((0.5, 0.5), (3.5, 0.5), &[(0, 0), (1, 0), (2, 0), (3, 0)]),
            ((0.5, 2.5), (0.5, 0.5), &[(0, 2), (0, 1), (0, 0)]),
            // A thin corner: from (13.92, 13.8) to the centre of (15, 12)
            // the way cuts the corner of (14, 12) before it reaches (15, 12).
            (
                (13.92, 13.8),
                (15.5, 12.5),
                &[(13, 13), (14, 13), (14, 12), (15, 12)],
            ),
            ((-0.5, 0.5), (0.5, 0.5), &[(-1, 0), (0, 0)]),
        ];
        for (a, b, want) in cases {
            assert_eq!(cells(a, b), want, "{a:?} to {b:?}");
        }
        // No cell at all for a way with no ends.
        assert_eq!(cells((f64::NAN, 0.0), (1.0, 1.0)), Vec::<(i64, i64)>::new());
    }

    #[test]
    fn a_stand_stops_short_of_the_first_closed_cell() {
        use crate::scenario::{Area, Patch, Scenario, Table};
        let table = Table {
            width: 4,
            depth: 4,
            cell_inches: 3.0,
            grid: false,
            terrain: vec![Patch {
                area: Area {
                    x: 0,
                    y: 2,
                    w: 4,
                    h: 1,
                },
                ground: Some(Ground::River),
                level: None,
                road: None,
                cover: None,
            }],
        };
        let board = Board::new(&Scenario {
            title: String::new(),
            rules: crate::model::RuleSetId::ScrubyBasic,
            seed: 0,
            turn_limit: 1,
            table,
            sides: Vec::new(),
            objectives: Vec::new(),
            notes: None,
        });
        let dry = |g: Ground| g != Ground::River;
        // From the middle of row 3 north across the river (rows 2, inches 6 to 9).
        let stop = last_open(&board, dry, (4.5, 10.5), (4.5, 1.5));
        assert!(
            (stop.1 - 9.01).abs() < 1e-9 && (stop.0 - 4.5).abs() < 1e-9,
            "{stop:?}"
        );
        assert!(!open_way(&board, dry, (4.5, 10.5), (4.5, 1.5)));
        assert!(open_way(&board, dry, (4.5, 10.5), (10.5, 10.5)));
        assert_eq!(last_open(&board, dry, (4.5, 10.5), (10.5, 10.5)), (10.5, 10.5));
    }
}
