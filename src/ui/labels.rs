//! Where the map's region names go: a small label placer, pure over
//! rectangles (no painting), so it can be tested alone.
//!
//! Labels come in priority order. Each tries a few places around its region's
//! point ([`CANDIDATES`]) and takes the first whose rectangle lies in the
//! view and overlaps neither a label placed before it nor an obstacle (the
//! counters and flags). A label with no free place is hidden, unless it is
//! marked `always` (the region under the pointer or selected): that one takes
//! its first place in the view regardless. Placed rectangles are kept in a
//! grid of square buckets, so each test looks only at its neighbours; the
//! buckets are reused from frame to frame.

use egui::{Pos2, Rect, Vec2, vec2};

/// A name to place: its region's point on screen, the size of its text, and
/// whether it is shown even where there is no room.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Wanted {
    pub point: Pos2,
    pub size: Vec2,
    pub always: bool,
}

/// The gap between a region's point and its name, in points.
const GAP: f32 = 4.0;

/// The places tried around the point, in order: below (the counters stand
/// above and to the right of the point), right, left, above, then the
/// diagonals. Each is the label's anchor as a share of its size, placed at
/// the point moved by the gap in that direction.
const CANDIDATES: [(Vec2, Vec2); 8] = [
    (vec2(0.5, 0.0), vec2(0.0, 1.0)),
    (vec2(0.0, 0.5), vec2(1.0, 0.0)),
    (vec2(1.0, 0.5), vec2(-1.0, 0.0)),
    (vec2(0.5, 1.0), vec2(0.0, -1.0)),
    (vec2(0.0, 0.0), vec2(0.7, 0.7)),
    (vec2(1.0, 0.0), vec2(-0.7, 0.7)),
    (vec2(1.0, 1.0), vec2(-0.7, -0.7)),
    (vec2(0.0, 1.0), vec2(0.7, -0.7)),
];

/// The rectangles a label may take, in the order tried.
pub fn candidates(wanted: &Wanted) -> impl Iterator<Item = Rect> + '_ {
    CANDIDATES.iter().map(|(anchor, direction)| {
        let min = wanted.point + *direction * GAP - *anchor * wanted.size;
        Rect::from_min_size(min, wanted.size)
    })
}

/// Rectangles bucketed by square cells of the view; reused between frames.
#[derive(Debug)]
pub struct Placer {
    view: Rect,
    cell: f32,
    cols: usize,
    rows: usize,
    buckets: Vec<Vec<u32>>,
    rects: Vec<Rect>,
}

impl Default for Placer {
    fn default() -> Self {
        Placer {
            view: Rect::NOTHING,
            cell: 16.0,
            cols: 0,
            rows: 0,
            buckets: Vec::new(),
            rects: Vec::new(),
        }
    }
}

impl Placer {
    /// Places the labels of `wanted` (in priority order) within `view`, clear
    /// of `obstacles` and of each other: each label's rectangle, or `None`
    /// where it is hidden. `cell` is the bucket size, about a label's height
    /// or more.
    pub fn place(
        &mut self,
        view: Rect,
        cell: f32,
        obstacles: impl IntoIterator<Item = Rect>,
        wanted: &[Wanted],
        placed: &mut Vec<Option<Rect>>,
    ) {
        self.reset(view, cell);
        for o in obstacles {
            let o = o.intersect(view);
            if o.is_positive() {
                self.add(o);
            }
        }
        placed.clear();
        for w in wanted {
            let free = candidates(w).find(|r| view.contains_rect(*r) && !self.overlaps(*r));
            let chosen = match free {
                Some(r) => Some(r),
                None if w.always => candidates(w)
                    .find(|r| view.contains_rect(*r))
                    .or_else(|| candidates(w).next()),
                None => None,
            };
            if let Some(r) = chosen {
                self.add(r);
            }
            placed.push(chosen);
        }
    }

    fn reset(&mut self, view: Rect, cell: f32) {
        self.view = view;
        self.cell = if cell.is_finite() && cell >= 1.0 {
            cell
        } else {
            16.0
        };
        self.cols = cell_count(view.width() / self.cell);
        self.rows = cell_count(view.height() / self.cell);
        let n = self.cols * self.rows;
        for b in self.buckets.iter_mut().take(n) {
            b.clear();
        }
        if self.buckets.len() < n {
            self.buckets.resize_with(n, Vec::new);
        }
        self.rects.clear();
    }

    /// The buckets a rectangle touches, as (col range, row range).
    fn span(&self, r: Rect) -> (std::ops::Range<usize>, std::ops::Range<usize>) {
        let at = |v: f32, from: f32, n: usize| index((v - from) / self.cell).min(n.saturating_sub(1));
        let (c0, c1) = (
            at(r.min.x, self.view.min.x, self.cols),
            at(r.max.x, self.view.min.x, self.cols),
        );
        let (r0, r1) = (
            at(r.min.y, self.view.min.y, self.rows),
            at(r.max.y, self.view.min.y, self.rows),
        );
        (c0..c1 + 1, r0..r1 + 1)
    }

    fn add(&mut self, r: Rect) {
        let Ok(i) = u32::try_from(self.rects.len()) else {
            return;
        };
        self.rects.push(r);
        let (cols, rows) = self.span(r);
        for y in rows {
            for x in cols.clone() {
                if let Some(b) = self.buckets.get_mut(y * self.cols + x) {
                    b.push(i);
                }
            }
        }
    }

    fn overlaps(&self, r: Rect) -> bool {
        let (cols, rows) = self.span(r);
        rows.into_iter().any(|y| {
            cols.clone().any(|x| {
                self.buckets.get(y * self.cols + x).is_some_and(|b| {
                    b.iter().any(|&i| {
                        self.rects
                            .get(i as usize)
                            .is_some_and(|o| strictly_overlap(*o, r))
                    })
                })
            })
        })
    }
}

/// Whether two rectangles share area (touching edges do not count).
pub fn strictly_overlap(a: Rect, b: Rect) -> bool {
    a.min.x < b.max.x && b.min.x < a.max.x && a.min.y < b.max.y && b.min.y < a.max.y
}

/// How many buckets cover a length of `cells` buckets: at least one, at most 4096.
fn cell_count(cells: f32) -> usize {
    (index(cells.ceil()) + 1).clamp(1, 4096)
}

/// A float as a bucket index: rounded down, negative and NaN to 0.
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
fn index(value: f32) -> usize {
    // `as` from a float saturates and turns NaN into 0.
    value.floor().max(0.0) as usize
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;
    use egui::pos2;
    use proptest::prelude::*;

    fn wanted(x: f32, y: f32, w: f32, always: bool) -> Wanted {
        Wanted {
            point: pos2(x, y),
            size: vec2(w, 12.0),
            always,
        }
    }

    fn place(view: Rect, obstacles: &[Rect], wanted: &[Wanted]) -> Vec<Option<Rect>> {
        let mut placed = Vec::new();
        Placer::default().place(view, 16.0, obstacles.iter().copied(), wanted, &mut placed);
        placed
    }

    const VIEW: Rect = Rect::from_min_max(pos2(0.0, 0.0), pos2(400.0, 300.0));

    #[test]
    fn a_label_moves_aside_for_a_counter_and_a_neighbour_and_else_is_hidden() {
        // Alone, below its point.
        let one = place(VIEW, &[], &[wanted(100.0, 100.0, 60.0, false)]);
        assert_eq!(one[0].unwrap().center_top(), pos2(100.0, 104.0));
        // A counter below: the next place, to the right.
        let counter = Rect::from_min_size(pos2(80.0, 106.0), vec2(40.0, 20.0));
        let moved = place(VIEW, &[counter], &[wanted(100.0, 100.0, 60.0, false)]);
        assert_eq!(moved[0].unwrap().left_center(), pos2(104.0, 100.0));
        // Boxed in on every side: hidden, unless it must be shown.
        let all_round = Rect::from_center_size(pos2(100.0, 100.0), vec2(200.0, 100.0));
        assert_eq!(
            place(VIEW, &[all_round], &[wanted(100.0, 100.0, 60.0, false)]),
            [None]
        );
        assert!(place(VIEW, &[all_round], &[wanted(100.0, 100.0, 60.0, true)])[0].is_some());
        // Two names at one point: the first below, the second beside it.
        let both = place(
            VIEW,
            &[],
            &[
                wanted(100.0, 100.0, 60.0, false),
                wanted(100.0, 100.0, 60.0, false),
            ],
        );
        assert!(!strictly_overlap(both[0].unwrap(), both[1].unwrap()));
        // Outside the view: hidden.
        assert_eq!(place(VIEW, &[], &[wanted(480.0, 100.0, 60.0, false)]), [None]);
    }

    fn arb_rect() -> impl Strategy<Value = Rect> {
        (0.0f32..400.0, 0.0f32..300.0, 4.0f32..60.0, 4.0f32..30.0)
            .prop_map(|(x, y, w, h)| Rect::from_min_size(pos2(x, y), vec2(w, h)))
    }

    fn arb_wanted() -> impl Strategy<Value = Wanted> {
        (
            0.0f32..400.0,
            0.0f32..300.0,
            10.0f32..120.0,
            8.0f32..16.0,
            proptest::bool::weighted(0.1),
        )
            .prop_map(|(x, y, w, h, always)| Wanted {
                point: pos2(x, y),
                size: vec2(w, h),
                always,
            })
    }

    proptest! {
        /// Shown labels overlap no other label and no obstacle (only one that
        /// must be shown may), every label that must be shown is, and a hidden
        /// label had no free place: each of its places left the view or met an
        /// obstacle or a label before it (one after it never takes its place).
        #[test]
        fn shown_labels_do_not_overlap_and_priority_holds(
            obstacles in proptest::collection::vec(arb_rect(), 0..12),
            wanted in proptest::collection::vec(arb_wanted(), 0..40),
            cell in 4.0f32..64.0,
        ) {
            let mut placed = Vec::new();
            Placer::default().place(VIEW, cell, obstacles.iter().copied(), &wanted, &mut placed);
            prop_assert_eq!(placed.len(), wanted.len());
            let clipped: Vec<Rect> = obstacles.iter().map(|o| o.intersect(VIEW)).filter(|o| o.is_positive()).collect();
            for (i, (w, p)) in wanted.iter().zip(&placed).enumerate() {
                match p {
                    Some(r) => {
                        prop_assert!(candidates(w).any(|c| c == *r), "a place of its own point");
                        if w.always {
                            continue;
                        }
                        prop_assert!(VIEW.contains_rect(*r));
                        prop_assert!(clipped.iter().all(|o| !strictly_overlap(*o, *r)), "label {} on an obstacle", i);
                        for (j, q) in placed.iter().enumerate().take(i) {
                            if let Some(q) = q {
                                prop_assert!(!strictly_overlap(*q, *r), "labels {} and {} overlap", j, i);
                            }
                        }
                    }
                    None => {
                        prop_assert!(!w.always, "label {} must be shown", i);
                        for c in candidates(w) {
                            let blocked = !VIEW.contains_rect(c)
                                || clipped.iter().any(|o| strictly_overlap(*o, c))
                                || placed.iter().take(i).flatten().any(|q| strictly_overlap(*q, c));
                            prop_assert!(blocked, "label {} hidden with a free place {:?}", i, c);
                        }
                    }
                }
            }
            // Later labels do not overlap an earlier one either (the check above
            // covers pairs with the later one not forced).
            for (i, p) in placed.iter().enumerate() {
                for (j, q) in placed.iter().enumerate().skip(i + 1) {
                    if let (Some(p), Some(q)) = (p, q) && !wanted[j].always {
                        prop_assert!(!strictly_overlap(*p, *q));
                    }
                }
            }
        }
    }
}
