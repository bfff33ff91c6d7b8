//! The table as the engine sees it: cells, distances, sight.

use crate::scenario::{Cell, Ground, Scenario};

/// A point on the table, in cells (fractions allowed).
pub type Point = (f64, f64);

/// The table's cells and scale.
#[derive(Debug, Clone)]
pub struct Board {
    pub width: u32,
    pub depth: u32,
    pub cell_inches: f64,
    pub grid: bool,
    cells: Vec<Cell>,
    /// Per corner `(x, y)` of the cells (`width + 1` a row): how many cells
    /// above and left of it block sight, so that [`Board::clear_sight`]
    /// need not trace a line with none about it.
    blinds_before: Vec<u32>,
    /// Each kind of ground on the table, once ([`Board::grounds`]).
    grounds: Vec<Ground>,
    /// `width` and `depth` as floats, for [`Board::cell_at`]'s test.
    width_f: f64,
    depth_f: f64,
}

impl Board {
    pub fn new(scenario: &Scenario) -> Board {
        let t = &scenario.table;
        let cells = t.cells();
        let (w, d) = (
            usize::try_from(t.width).unwrap_or(0),
            usize::try_from(t.depth).unwrap_or(0),
        );
        let mut blinds_before = vec![0_u32; (w + 1) * (d + 1)];
        for y in 0..d {
            let mut row = 0;
            for x in 0..w {
                row += u32::from(cells.get(y * w + x).is_some_and(Cell::blocks_sight));
                let above = blinds_before.get(y * (w + 1) + x + 1).copied().unwrap_or(0);
                if let Some(s) = blinds_before.get_mut((y + 1) * (w + 1) + x + 1) {
                    *s = above + row;
                }
            }
        }
        let mut grounds: Vec<Ground> = Vec::new();
        for k in 0..w * d {
            let ground = cells.get(k).copied().unwrap_or_default().ground;
            if !grounds.contains(&ground) {
                grounds.push(ground);
            }
        }
        Board {
            width: t.width,
            depth: t.depth,
            cell_inches: t.cell_inches,
            grid: t.grid,
            cells,
            blinds_before,
            grounds,
            width_f: f64::from(t.width),
            depth_f: f64::from(t.depth),
        }
    }

    /// The kinds of ground on the table, each once: whether any stand will
    /// ever need a way round (`rules::route::Routes::new`) without looking
    /// at every cell again.
    pub fn grounds(&self) -> &[Ground] {
        &self.grounds
    }

    /// Whether no cell but `ca` and `cb` (those of the finite points `a`
    /// and `b`) blocks sight in the box about them, one cell wider each way
    /// than their own: then no line between them is blocked.
    fn clear_box(&self, (a, b): (Point, Point), ca: (i64, i64), cb: (i64, i64)) -> bool {
        if !(a.0.is_finite() && a.1.is_finite() && b.0.is_finite() && b.1.is_finite()) {
            return false;
        }
        let (w, d) = (i64::from(self.width), i64::from(self.depth));
        let x0 = ca.0.min(cb.0).saturating_sub(1).clamp(0, w);
        let x1 = ca.0.max(cb.0).saturating_add(2).clamp(0, w);
        let y0 = ca.1.min(cb.1).saturating_sub(1).clamp(0, d);
        let y1 = ca.1.max(cb.1).saturating_add(2).clamp(0, d);
        let at = |x: i64, y: i64| {
            usize::try_from(y * (w + 1) + x)
                .ok()
                .and_then(|k| self.blinds_before.get(k))
                .copied()
                .unwrap_or(0)
        };
        let inside = (at(x1, y1) + at(x0, y0)).saturating_sub(at(x0, y1) + at(x1, y0));
        let own = |c: (i64, i64)| u32::from(self.cell(c.0, c.1).blocks_sight());
        let ends = if ca == cb { own(ca) } else { own(ca) + own(cb) };
        inside == ends
    }

    /// The cell at a point; open ground off the table.
    ///
    /// Inlined, so that a caller reading one of the cell's fields reads only
    /// it: the engines look up some 700,000 cells per 200 battles, and out
    /// of line each lookup cost some 50 instructions, a third of them
    /// putting the cell's four fields back together for the return.
    #[inline]
    pub fn cell_at(&self, p: Point) -> Cell {
        // On the table (the engines' usual case) a point's coordinates are
        // non-negative, so truncation is the floor: the same cell, found
        // without [`floor`]'s checks. Anything else (off the table, NaN)
        // goes the long way, out of line.
        if p.0 >= 0.0 && p.1 >= 0.0 && p.0 < self.width_f && p.1 < self.depth_f {
            // Through i64, whose conversion from f64 is the cheaper one.
            #[allow(clippy::cast_possible_truncation)]
            let (x, y) = (p.0 as i64, p.1 as i64);
            if let Some(cell) = usize::try_from(y * i64::from(self.width) + x)
                .ok()
                .and_then(|index| self.cells.get(index))
            {
                return *cell;
            }
        }
        self.cell_off(p)
    }

    /// [`Board::cell_at`] for a point off the table, or not a number.
    #[cold]
    #[inline(never)]
    fn cell_off(&self, p: Point) -> Cell {
        self.cell(floor(p.0), floor(p.1))
    }

    /// The cell at integer coordinates; open ground off the table.
    pub fn cell(&self, x: i64, y: i64) -> Cell {
        if x < 0 || y < 0 || x >= i64::from(self.width) || y >= i64::from(self.depth) {
            return Cell::default();
        }
        let index = usize::try_from(y * i64::from(self.width) + x).unwrap_or(usize::MAX);
        self.cells.get(index).copied().unwrap_or_default()
    }

    pub fn on_table(&self, p: Point) -> bool {
        p.0 >= 0.0 && p.1 >= 0.0 && p.0 < f64::from(self.width) && p.1 < f64::from(self.depth)
    }

    /// Keeps a point on the table.
    pub fn clamp(&self, p: Point) -> Point {
        let max_x = (f64::from(self.width) - 0.01).max(0.0);
        let max_y = (f64::from(self.depth) - 0.01).max(0.0);
        (p.0.clamp(0.0, max_x), p.1.clamp(0.0, max_y))
    }

    /// A point in cells as inches from the table's corner.
    pub fn to_inches(&self, p: Point) -> Point {
        (p.0 * self.cell_inches, p.1 * self.cell_inches)
    }

    /// A point in inches from the table's corner as cells.
    pub fn to_cells(&self, p: Point) -> Point {
        // Times the reciprocal, as the rule sets always scaled: same bits.
        let by = 1.0 / self.cell_inches;
        (p.0 * by, p.1 * by)
    }

    /// Straight-line distance in inches of table.
    pub fn inches(&self, a: Point, b: Point) -> f64 {
        ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt() * self.cell_inches
    }

    /// Distance in squares counting diagonal steps as one (the grid games).
    pub fn squares(a: (i64, i64), b: (i64, i64)) -> i64 {
        (a.0 - b.0).abs().max((a.1 - b.1).abs())
    }

    /// Whether sight from `a` to `b` is clear: no cell strictly between them
    /// blocks it (the inner areas of towns and woods do).
    pub fn clear_sight(&self, a: Point, b: Point) -> bool {
        // A table with no cell that blocks sight (open ground, hills):
        // every line is clear.
        if self.blinds_before.last().is_none_or(|&all| all == 0) {
            return true;
        }
        let steps = -floor(-((a.0 - b.0).abs().max((a.1 - b.1).abs()) * 2.0));
        let (ca, cb) = ((floor(a.0), floor(a.1)), (floor(b.0), floor(b.1)));
        if self.clear_box((a, b), ca, cb) {
            return true;
        }
        for i in 1..steps {
            let t = i as f64 / steps as f64;
            let p = (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
            let c = (floor(p.0), floor(p.1));
            if c != ca && c != cb && self.cell(c.0, c.1).blocks_sight() {
                return false;
            }
        }
        true
    }

    /// Every cell centre of the table, row by row.
    pub fn centres(&self) -> impl Iterator<Item = Point> + '_ {
        // One range over the cells rather than a flat_map of rows: the same
        // centres in the same order, at less cost a cell.
        let (w, d) = (u64::from(self.width), u64::from(self.depth));
        (0..w * d).map(move |k| {
            // Below 2^32: exact in an f64.
            #[allow(clippy::cast_precision_loss)]
            let (x, y) = ((k % w) as f64, (k / w) as f64);
            (x + 0.5, y + 0.5)
        })
    }
}

/// The whole number at or below `v`. Out-of-range values saturate (Rust's
/// float-to-integer `as` is defined to), and NaN gives 0: never a panic.
///
/// Written with a truncating cast rather than `f64::floor`, which on the
/// baseline x86-64 target is a call into the C library: line-of-sight checks
/// call this in their inner loop.
#[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)]
pub fn floor(v: f64) -> i64 {
    let t = v as i64; // toward zero, saturating; NaN gives 0
    if (t as f64) > v { t.saturating_sub(1) } else { t }
}

/// A square of a grid table (Cordery's and Harman's): column and row.
pub type Square = (i32, i32);

/// The square a point lies in (-1 for a point off the low edges).
pub fn square_of(p: Point) -> Square {
    // Non-negative and below the clamp, truncation is the floor (the grid
    // engines' line traces call this in their inner loops).
    #[allow(clippy::cast_possible_truncation)]
    let c = |v: f64| {
        if (0.0..f64::from(i32::MAX / 2)).contains(&v) {
            v as i32
        } else {
            i32::try_from(floor(v).clamp(-1, i64::from(i32::MAX / 2))).unwrap_or(-1)
        }
    };
    (c(p.0), c(p.1))
}

/// The centre of a square, as a point.
pub fn centre(sq: Square) -> Point {
    (f64::from(sq.0) + 0.5, f64::from(sq.1) + 0.5)
}

/// A square for people: "(9, 6)".
pub fn show(sq: Square) -> String {
    format!("({}, {})", sq.0, sq.1)
}

/// Side `s`'s forward direction as a step of one square: straight toward
/// the enemy's deployment zone, along the axis that separates them most
/// (toward rising y for side 0 when the zones coincide, falling y for side 1).
pub fn front_of(scenario: &Scenario, s: usize) -> Square {
    let default = if s == 0 { (0, 1) } else { (0, -1) };
    let (Some(me), Some(them)) = (scenario.sides.get(s), scenario.sides.get(1 - s.min(1))) else {
        return default;
    };
    let (a, b) = (me.deployment.centre(), them.deployment.centre());
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    if dx == 0.0 && dy == 0.0 {
        default
    } else if dy.abs() >= dx.abs() {
        (0, if dy > 0.0 { 1 } else { -1 })
    } else {
        (if dx > 0.0 { 1 } else { -1 }, 0)
    }
}

/// For the grids' tests: holds a grid's look-up of a square's index,
/// `slot`, on a table `w` by `d` to the four comparisons (neither coordinate
/// below 0, neither at or past the width or the depth), on the table, just
/// off each edge and at the far ends of the coordinates.
#[cfg(test)]
pub(crate) fn assert_slots(w: i32, d: i32, slot: impl Fn(Square) -> Option<usize>) {
    assert!(w > 0 && d > 0);
    let mut xs: Vec<i32> = (-3..w + 3).collect();
    let mut ys: Vec<i32> = (-3..d + 3).collect();
    for far in [i32::MIN, i32::MIN + 1, -w, i32::MAX - 1, i32::MAX] {
        xs.push(far);
        ys.push(far);
    }
    let mut on = 0;
    for &y in &ys {
        for &x in &xs {
            let expected = (x >= 0 && y >= 0 && x < w && y < d).then(|| usize::try_from(y * w + x).unwrap());
            assert_eq!(slot((x, y)), expected, "square ({x}, {y}) of {w} x {d}");
            on += usize::from(expected.is_some());
        }
    }
    assert_eq!(on, usize::try_from(w * d).unwrap());
}

#[cfg(test)]
mod tests {
    use super::{Board, floor};
    use crate::scenario::{Cell, Scenario};

    /// `Board::cell` gives every cell on the table as the scenario lays it,
    /// and open ground just off each edge and at the far ends of the
    /// coordinates, never panicking.
    #[test]
    fn a_cell_is_found_on_the_table_and_open_ground_off_it() {
        let path = format!(
            "{}/campaigns/scenarios/kassassin_bridge.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let scenario: Scenario = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let board = Board::new(&scenario);
        let cells = scenario.table.cells();
        let (w, d) = (i64::from(board.width), i64::from(board.depth));
        assert_eq!(cells.len(), usize::try_from(w * d).unwrap());
        assert!(
            cells.iter().any(|c| *c != Cell::default()),
            "a table with some terrain"
        );
        let mut xs: Vec<i64> = (-3..w + 3).collect();
        let mut ys: Vec<i64> = (-3..d + 3).collect();
        for far in [i64::MIN, i64::MIN + 1, -w, i64::MAX - 1, i64::MAX] {
            xs.push(far);
            ys.push(far);
        }
        for &y in &ys {
            for &x in &xs {
                let expected = if x >= 0 && y >= 0 && x < w && y < d {
                    cells[usize::try_from(y * w + x).unwrap()]
                } else {
                    Cell::default()
                };
                assert_eq!(board.cell(x, y), expected, "cell ({x}, {y}) of {w} x {d}");
            }
        }
    }

    #[test]
    fn floor_rounds_down_and_never_panics() {
        let cases = [
            (2.7, 2),
            (2.0, 2),
            (-0.5, -1),
            (-2.0, -2),
            (-2.1, -3),
            (0.0, 0),
            (f64::NAN, 0),
            (f64::INFINITY, i64::MAX),
            (f64::NEG_INFINITY, i64::MIN),
            (1e300, i64::MAX),
            (-1e300, i64::MIN),
        ];
        for (v, expected) in cases {
            assert_eq!(floor(v), expected, "floor({v})");
        }
        for i in -1000..1000_i32 {
            // Against integer floor division: i / 7 rounded down.
            let expected = i64::from(i.div_euclid(7));
            assert_eq!(floor(f64::from(i) / 7.0), expected, "floor({i} / 7)");
        }
    }
}
