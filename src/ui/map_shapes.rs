//! The regions' territories and the map's waters in the window: worked out
//! once per campaign map ([`Shapes::of`], from `model::shapes`), triangulated
//! then, and each frame only moved to the screen and culled to the view.
//!
//! Drawn under the roads, in this order: lakes and the sea as blue areas,
//! the territories in their terrain's tint (fainter over the background
//! picture), their borders when there is room, rivers and canals as blue lines
//! whose width grows with the zoom, and the coasts.

use super::theme;
use crate::model::{Map, MapPoint, WaterKind, shapes};
use egui::epaint::{Mesh, Vertex, WHITE_UV};
use egui::{Color32, Pos2, Rect, Vec2, pos2};

/// Territory borders are drawn when regions are at least this many pixels
/// apart, or always on a map of at most [`BORDERS_ALWAYS_UP_TO`] regions.
const BORDERS_FROM_PX: f32 = 14.0;
const BORDERS_ALWAYS_UP_TO: usize = 300;
/// A river's width in miles, drawn at least [`LINE_PX`] and at most 4 times that.
const RIVER_MILES: f32 = 0.35;
const CANAL_MILES: f32 = 0.2;
const LINE_PX: f32 = 2.0;

/// An area as triangles, in miles.
#[derive(Debug, Default)]
struct Fill {
    points: Vec<Pos2>,
    indices: Vec<u32>,
}

impl Fill {
    fn of(t: shapes::Triangles) -> Fill {
        Fill {
            points: t.points.into_iter().map(point).collect(),
            indices: t.indices,
        }
    }
}

#[derive(Debug)]
struct Territory {
    /// Its fill's points and triangles in [`Shapes`]'s flat lists.
    points: std::ops::Range<usize>,
    indices: std::ops::Range<usize>,
    rings: Vec<Vec<Pos2>>,
    bounds: Rect,
}

#[derive(Debug)]
struct Area {
    fill: Fill,
    ring: Vec<Pos2>,
    bounds: Rect,
}

#[derive(Debug)]
struct Line {
    points: Vec<Pos2>,
    kind: WaterKind,
    bounds: Rect,
}

/// The map's territories (one per region, in the map's order) and waters.
#[derive(Debug, Default)]
pub(super) struct Shapes {
    territories: Vec<Territory>,
    /// Every territory's fill, one after another, so a frame reads them in
    /// one sweep: the points, and the triangles' corners (each counted from
    /// its territory's first point).
    fill_points: Vec<Pos2>,
    fill_indices: Vec<u32>,
    areas: Vec<Area>,
    lines: Vec<Line>,
}

/// How a frame draws: map miles to screen points, and what is seen.
#[derive(Debug, Clone, Copy)]
pub(super) struct View {
    /// The screen point of the map's corner (0, 0 miles).
    pub origin: Pos2,
    /// Pixels per mile.
    pub zoom: f32,
    /// What is on screen, in miles.
    pub world: Rect,
    /// Pixels between neighbouring regions.
    pub px_spacing: f32,
    /// The background picture is drawn under the map: territories faint, waters left to it.
    pub picture: bool,
}

impl View {
    fn screen(&self, p: Pos2) -> Pos2 {
        self.origin + p.to_vec2() * self.zoom
    }
}

impl Shapes {
    /// The territories and waters of `map`, worked out once.
    pub(super) fn of(map: &Map) -> Shapes {
        let mut fill_points = Vec::new();
        let mut fill_indices = Vec::new();
        let territories = shapes::region_outlines(map)
            .into_iter()
            .map(|outline| {
                let rings: Vec<Vec<Pos2>> = outline
                    .rings
                    .iter()
                    .map(|r| r.iter().copied().map(point).collect())
                    .collect();
                let t = outline.triangles();
                let (p0, i0) = (fill_points.len(), fill_indices.len());
                fill_points.extend(t.points.into_iter().map(point));
                fill_indices.extend(t.indices);
                Territory {
                    points: p0..fill_points.len(),
                    indices: i0..fill_indices.len(),
                    bounds: bounds(rings.first().map_or(&[], Vec::as_slice)),
                    rings,
                }
            })
            .collect();
        let mut areas = Vec::new();
        let mut lines = Vec::new();
        for water in &map.waters {
            let points: Vec<Pos2> = water.points.iter().copied().map(point).collect();
            let b = bounds(&points);
            if water.kind.is_area() {
                areas.push(Area {
                    fill: Fill::of(shapes::area_triangles(&water.points)),
                    ring: points,
                    bounds: b,
                });
            } else {
                lines.push(Line {
                    points,
                    kind: water.kind,
                    bounds: b,
                });
            }
        }
        Shapes {
            territories,
            fill_points,
            fill_indices,
            areas,
            lines,
        }
    }

    /// How many territories there are: one per region.
    pub(super) fn territories(&self) -> usize {
        self.territories.len()
    }

    /// The waters, territories and borders seen in `view`, into `mesh`;
    /// `tints` is each region's fill.
    pub(super) fn paint(&self, mesh: &mut Mesh, view: View, tints: &[Color32]) {
        if !view.picture {
            for area in self.areas.iter().filter(|a| a.bounds.intersects(view.world)) {
                fill(mesh, &area.fill, view, theme::WATER);
            }
        }
        let faint = |c: Color32| if view.picture { c.gamma_multiply(0.45) } else { c };
        let seen = || {
            self.territories
                .iter()
                .zip(tints)
                .filter(move |(t, _)| t.bounds.intersects(view.world))
        };
        for (t, tint) in seen() {
            let (Some(points), Some(indices)) = (
                self.fill_points.get(t.points.clone()),
                self.fill_indices.get(t.indices.clone()),
            ) else {
                continue;
            };
            let Ok(base) = u32::try_from(mesh.vertices.len()) else {
                return;
            };
            let colour = faint(*tint);
            mesh.vertices.extend(points.iter().map(|p| Vertex {
                pos: view.screen(*p),
                uv: WHITE_UV,
                color: colour,
            }));
            mesh.indices.extend(indices.iter().map(|i| base + i));
        }
        if view.px_spacing >= BORDERS_FROM_PX || self.territories.len() <= BORDERS_ALWAYS_UP_TO {
            let border = faint(theme::BORDER);
            for (t, _) in seen() {
                for ring in &t.rings {
                    polyline(mesh, ring, true, 1.0, border, view);
                }
            }
        }
        if view.picture {
            return;
        }
        for line in self.lines.iter().filter(|l| l.bounds.intersects(view.world)) {
            let miles = if line.kind == WaterKind::River {
                RIVER_MILES
            } else {
                CANAL_MILES
            };
            let width = (miles * view.zoom).clamp(LINE_PX, 4.0 * LINE_PX);
            polyline(mesh, &line.points, false, width, theme::RIVER, view);
        }
        for area in self.areas.iter().filter(|a| a.bounds.intersects(view.world)) {
            polyline(mesh, &area.ring, true, 1.2, theme::COAST, view);
        }
    }
}

fn point(p: MapPoint) -> Pos2 {
    pos2(super::map_view::miles(p[0]), super::map_view::miles(p[1]))
}

fn bounds(points: &[Pos2]) -> Rect {
    if points.is_empty() {
        Rect::NOTHING
    } else {
        Rect::from_points(points)
    }
}

fn fill(mesh: &mut Mesh, fill: &Fill, view: View, colour: Color32) {
    let Ok(base) = u32::try_from(mesh.vertices.len()) else {
        return;
    };
    mesh.vertices.extend(fill.points.iter().map(|p| Vertex {
        pos: view.screen(*p),
        uv: WHITE_UV,
        color: colour,
    }));
    mesh.indices.extend(fill.indices.iter().map(|i| base + i));
}

/// A line through `points` (closed back to the first when `closed`) as
/// quads `width` pixels wide, with the joints filled where it is broad.
fn polyline(mesh: &mut Mesh, points: &[Pos2], closed: bool, width: f32, colour: Color32, view: View) {
    let close = if closed { points.first() } else { None };
    let mut last: Option<Pos2> = None;
    for p in points.iter().chain(close).map(|p| view.screen(*p)) {
        if let Some(a) = last {
            quad(mesh, a, p, width, colour);
            if width > 2.5 {
                joint(mesh, p, width / 2.0, colour);
            }
        }
        last = Some(p);
    }
}

fn vertex(mesh: &mut Mesh, pos: Pos2, color: Color32) -> u32 {
    let i = u32::try_from(mesh.vertices.len()).unwrap_or(u32::MAX);
    mesh.vertices.push(Vertex {
        pos,
        uv: WHITE_UV,
        color,
    });
    i
}

fn quad(mesh: &mut Mesh, a: Pos2, b: Pos2, width: f32, colour: Color32) {
    let along = b - a;
    if along.length_sq() < 1e-6 {
        return;
    }
    let n = along.normalized().rot90() * (width / 2.0);
    let i = vertex(mesh, a + n, colour);
    vertex(mesh, a - n, colour);
    vertex(mesh, b - n, colour);
    vertex(mesh, b + n, colour);
    mesh.add_triangle(i, i + 1, i + 2);
    mesh.add_triangle(i, i + 2, i + 3);
}

/// A small octagon where two pieces of a broad line meet.
fn joint(mesh: &mut Mesh, centre: Pos2, radius: f32, colour: Color32) {
    let c = vertex(mesh, centre, colour);
    for k in 0..8u8 {
        let angle = f32::from(k) / 8.0 * std::f32::consts::TAU;
        vertex(mesh, centre + radius * Vec2::angled(angle), colour);
    }
    for k in 0..8 {
        mesh.add_triangle(c, c + 1 + k, c + 1 + (k + 1) % 8);
    }
}
