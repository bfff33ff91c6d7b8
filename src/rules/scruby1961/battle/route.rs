//! scruby-1961 routes: the way round ground a stand may not cross (rivers
//! but at their bridges and fords; forests for horse and guns, SPECIAL
//! MOVEMENT RULES), so a column marching on a town beyond a river makes for
//! the bridge rather than halting on the bank.
//!
//! A stand walks straight at where it is going while the ground between
//! lets it; when it does not, it follows a field of distances over the cells it
//! may enter, made once per battle for each target cell and kind of going
//! and kept (this program's own: the seed leaves the way to the players).

use super::*;

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

/// The ground a kind of troop may cross (SPECIAL MOVEMENT RULES): foot go
/// everywhere but water; light cavalry not into a forest's interior ("Light
/// cavalry may 'hide' in the outer area"); heavy cavalry and guns into no
/// forest at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Going {
    Foot,
    LightHorse,
    Wheels,
}

impl Going {
    pub(super) fn of(troop: Troop) -> Going {
        match troop {
            Troop::Line | Troop::LightInfantry | Troop::Grenadiers => Going::Foot,
            Troop::LightCavalry => Going::LightHorse,
            Troop::HeavyCavalry | Troop::Artillery | Troop::HorseArtillery => Going::Wheels,
        }
    }

    fn troop(self) -> Troop {
        match self {
            Going::Foot => Troop::Line,
            Going::LightHorse => Troop::LightCavalry,
            Going::Wheels => Troop::HeavyCavalry,
        }
    }

    fn index(self) -> usize {
        match self {
            Going::Foot => 0,
            Going::LightHorse => 1,
            Going::Wheels => 2,
        }
    }
}

/// Distance fields to target cells, by kind of going.
#[derive(Debug, Clone, Default)]
pub(super) struct Routes {
    /// Whether the table has any ground each kind of going may not enter:
    /// without, no stand ever needs a route.
    blocked: [bool; 3],
    fields: Vec<((i64, i64), Going, Vec<f32>)>,
}

impl Routes {
    pub(super) fn new(board: &Board) -> Routes {
        let mut blocked = [false; 3];
        for c in board.centres() {
            let ground = board.cell_at(c).ground;
            for g in [Going::Foot, Going::LightHorse, Going::Wheels] {
                if !may_enter(g.troop(), ground)
                    && let Some(b) = blocked.get_mut(g.index())
                {
                    *b = true;
                }
            }
        }
        Routes {
            blocked,
            fields: Vec::new(),
        }
    }
}

/// The cell of a point in cells.
fn cell_of(p: Point) -> (i64, i64) {
    (crate::rules::board::floor(p.0), crate::rules::board::floor(p.1))
}

/// A field of the cost (in cells, diagonal steps 1.41) to reach `target`
/// from every cell `going` may enter, never cutting the corner of ground
/// it may not.
fn field(board: &Board, target: (i64, i64), going: Going) -> Vec<f32> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let (w, h) = (i64::from(board.width), i64::from(board.depth));
    let index = |c: (i64, i64)| -> Option<usize> {
        (c.0 >= 0 && c.1 >= 0 && c.0 < w && c.1 < h)
            .then(|| usize::try_from(c.1 * w + c.0).ok())
            .flatten()
    };
    let open = |c: (i64, i64)| index(c).is_some() && may_enter(going.troop(), board.cell(c.0, c.1).ground);
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

impl Battle<'_> {
    /// Where stand `i` steers this move on its way to `to` (inches): `to`
    /// itself while the way is straight, else the furthest cell of its route
    /// it can walk to straight.
    pub(super) fn steer(&mut self, i: usize, to: Point) -> Point {
        let Some(u) = self.stands.get(i) else { return to };
        let Some(troop) = u.troop else { return to };
        let going = Going::of(troop);
        let from = u.at;
        if !self.routes.blocked.get(going.index()).copied().unwrap_or(false)
            || self.clear_way(troop, from, to)
        {
            return to;
        }
        let c = self.board.cell_inches;
        let target = cell_of(self.board.to_cells(to));
        let k = match self
            .routes
            .fields
            .iter()
            .position(|(t, g, _)| *t == target && *g == going)
        {
            Some(k) => k,
            None => {
                if self.routes.fields.len() >= MAX_FIELDS {
                    self.routes.fields.clear();
                }
                let f = field(&self.board, target, going);
                self.routes.fields.push((target, going, f));
                self.routes.fields.len() - 1
            }
        };
        let Some((_, _, dist)) = self.routes.fields.get(k) else {
            return to;
        };
        let (w, h) = (i64::from(self.board.width), i64::from(self.board.depth));
        let at = |cell: (i64, i64)| -> f32 {
            if cell.0 < 0 || cell.1 < 0 || cell.0 >= w || cell.1 >= h {
                return f32::INFINITY;
            }
            usize::try_from(cell.1 * w + cell.0)
                .ok()
                .and_then(|n| dist.get(n).copied())
                .unwrap_or(f32::INFINITY)
        };
        let mut cell = cell_of(self.board.to_cells(from));
        if !at(cell).is_finite() {
            return to;
        }
        let mut path = Vec::with_capacity(ROUTE_CELLS);
        for _ in 0..ROUTE_CELLS {
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
            path.push(cell);
            if best.1 <= 0.0 {
                break;
            }
        }
        #[allow(clippy::cast_precision_loss)]
        let centre = |cell: (i64, i64)| ((cell.0 as f64 + 0.5) * c, (cell.1 as f64 + 0.5) * c);
        let mut aim = path.first().map_or(to, |&p| centre(p));
        for &p in &path {
            let p = centre(p);
            if self.clear_way(troop, from, p) {
                aim = p;
            }
        }
        aim
    }

    /// Whether the whole straight way from `a` to `b` is ground `troop` may enter.
    fn clear_way(&self, troop: Troop, a: Point, b: Point) -> bool {
        let total = doctrine::dist(a, b);
        let Some(dir) = unit_vector(a, b) else { return true };
        let step = STEP_INCHES;
        let mut walked = step;
        while walked <= total + EPSILON {
            let p = (a.0 + dir.0 * walked, a.1 + dir.1 * walked);
            if !may_enter(troop, self.cell(p).ground) {
                return false;
            }
            walked += step;
        }
        true
    }
}
