//! Region outlines: the map file's `shape` where it draws one, otherwise the
//! Voronoi cell of the region points, so a map reads as territories.
//!
//! A derived outline is the region's Voronoi cell (from spade's Delaunay
//! triangulation of the region points), clipped to a disc around the region
//! point whose radius grows with the distance to its nearest neighbour (capped
//! at a multiple of the map's typical spacing, so a lone oasis does not claim
//! the desert), with the map's lakes and seas and the shapes the file draws cut
//! out (geo's boolean operations). Of what is left, the piece holding the region
//! point is kept. A region whose point lies in water, shares its point with an
//! earlier region, or whose cell cannot be worked out gets a small disc instead.
//!
//! Pure and total: any map gives one outline per region, without panicking.

use geo::TriangulateEarcut;
use geo::{BooleanOps, BoundingRect, Contains, Coord, LineString, MultiPolygon, Point, Polygon};
use rstar::primitives::{GeomWithData, Rectangle};
use rstar::{AABB, RTree};
use rustc_hash::FxHashMap;
use spade::{DelaunayTriangulation, HasPosition, Point2, Triangulation};

use super::map::{Map, MapPoint};

/// A derived outline reaches at most this many times the distance from its
/// region point to the nearest other region point.
pub const REACH_PER_NEIGHBOUR: f64 = 3.0;
/// ... and at most this many times the map's spacing (the median distance
/// between a region point and its nearest neighbour).
pub const REACH_PER_SPACING: f64 = 3.0;
/// The fallback disc's radius, as a share of the distance to the nearest
/// neighbour (or of the spacing, when that is less).
pub const DISC_PER_NEIGHBOUR: f64 = 0.3;
/// Points on a derived outline's clipping circle.
const CIRCLE_SEGMENTS: usize = 32;
/// Points on a fallback disc.
const DISC_SEGMENTS: usize = 16;
/// The spacing taken when the map has only one region point.
const LONE_SPACING: f64 = 1.0;
/// Coordinates beyond this (in miles) are not worked on: such a map is broken.
const FAR: f64 = 1e9;

/// Where a region's outline comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutlineSource {
    /// The map file's `shape`.
    Given,
    /// The region's Voronoi cell, clipped.
    Cell,
    /// A small disc round the region point (its point in water, shared with
    /// another region, or no cell could be made).
    Disc,
}

/// A region's outline: its rings in miles, the outer one first and then any
/// holes (a lake inside a territory). Rings are not closed (the last point is
/// not the first again). Empty only for a region whose point is not a number.
#[derive(Debug, Clone, PartialEq)]
pub struct Outline {
    pub rings: Vec<Vec<MapPoint>>,
    pub source: OutlineSource,
}

impl Outline {
    /// The outer ring.
    pub fn exterior(&self) -> &[MapPoint] {
        self.rings.first().map_or(&[], Vec::as_slice)
    }

    /// Whether the point lies inside the outline (not on its edge, not in a hole).
    pub fn contains(&self, point: MapPoint) -> bool {
        polygon_of_rings(&self.rings).contains(&Point::new(point[0], point[1]))
    }

    /// The outline as triangles, for a fill: the points and, three by three,
    /// the indices of each triangle's corners.
    pub fn triangles(&self) -> Triangles {
        triangulate(&polygon_of_rings(&self.rings))
    }
}

/// A filled area as triangles: `points` and, three by three, `indices` into them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Triangles {
    pub points: Vec<MapPoint>,
    pub indices: Vec<u32>,
}

/// The triangles filling an area given by one ring (a lake, the sea, a shape).
pub fn area_triangles(ring: &[MapPoint]) -> Triangles {
    triangulate(&polygon(ring))
}

/// Whether a file-given shape holds a point strictly inside it.
pub fn shape_contains(shape: &[MapPoint], point: MapPoint) -> bool {
    polygon(shape).contains(&Point::new(point[0], point[1]))
}

/// One outline per region of the map, in the map's order.
pub fn region_outlines(map: &Map) -> Vec<Outline> {
    let sites: Vec<MapPoint> = map.regions.iter().map(|r| [r.x, r.y]).collect();
    let given: Vec<Option<&[MapPoint]>> = map
        .regions
        .iter()
        .map(|r| (r.shape.len() >= 3 && r.shape.iter().all(|p| usable(*p))).then_some(r.shape.as_slice()))
        .collect();
    let waters: Vec<&[MapPoint]> = map
        .waters
        .iter()
        .filter(|w| w.kind.is_area() && w.points.len() >= 3 && w.points.iter().all(|p| usable(*p)))
        .map(|w| w.points.as_slice())
        .collect();
    outlines(&sites, &given, &waters)
}

fn usable(p: MapPoint) -> bool {
    p.iter().all(|v| v.is_finite() && v.abs() < FAR)
}

/// A site for the triangulation: its position and which region (or none for
/// the frame's corners).
#[derive(Debug, Clone, Copy)]
struct Site {
    at: Point2<f64>,
    region: Option<usize>,
}

impl HasPosition for Site {
    type Scalar = f64;
    fn position(&self) -> Point2<f64> {
        self.at
    }
}

/// What a cell is cut by: a lake or sea, or a region's drawn shape.
type Cut = GeomWithData<Rectangle<[f64; 2]>, usize>;

/// The outlines for region points `sites`, with each region's drawn shape (if
/// any) and the water areas to cut out.
fn outlines(sites: &[MapPoint], given: &[Option<&[MapPoint]>], waters: &[&[MapPoint]]) -> Vec<Outline> {
    let n = sites.len();
    // Regions with the same point: the first gets the cell, the others a disc.
    let mut first_at: FxHashMap<[u64; 2], usize> = FxHashMap::default();
    let mut twin = vec![false; n];
    let mut live: Vec<usize> = Vec::with_capacity(n);
    for (i, p) in sites.iter().enumerate() {
        if !usable(*p) {
            continue;
        }
        // -0.0 and 0.0 are one place.
        let key = [(p[0] + 0.0).to_bits(), (p[1] + 0.0).to_bits()];
        if first_at.insert(key, i).is_some() {
            if let Some(t) = twin.get_mut(i) {
                *t = true;
            }
        } else {
            live.push(i);
        }
    }

    let cells = cells_of(sites, &live);
    let nearest = nearest_distances(sites, &cells);
    let spacing = median(nearest.iter().flatten().copied()).unwrap_or(LONE_SPACING);

    // The cuts, found by their boxes.
    let mut cut_polys: Vec<Polygon<f64>> = Vec::new();
    let mut cut_owner: Vec<Option<usize>> = Vec::new();
    for ring in waters {
        cut_polys.push(polygon(ring));
        cut_owner.push(None);
    }
    for (i, shape) in given.iter().enumerate() {
        if let Some(shape) = shape {
            cut_polys.push(polygon(shape));
            cut_owner.push(Some(i));
        }
    }
    let tree = RTree::bulk_load(
        cut_polys
            .iter()
            .enumerate()
            .filter_map(|(k, p)| {
                let r = p.bounding_rect()?;
                Some(Cut::new(
                    Rectangle::from_corners([r.min().x, r.min().y], [r.max().x, r.max().y]),
                    k,
                ))
            })
            .collect(),
    );

    (0..n)
        .map(|i| {
            let Some(&site) = sites.get(i).filter(|p| usable(**p)) else {
                return Outline {
                    rings: Vec::new(),
                    source: OutlineSource::Disc,
                };
            };
            if let Some(Some(shape)) = given.get(i) {
                return Outline {
                    rings: vec![shape.to_vec()],
                    source: OutlineSource::Given,
                };
            }
            let near = nearest.get(i).copied().flatten().unwrap_or(spacing);
            let disc = || Outline {
                rings: vec![circle(
                    site,
                    near.min(spacing) * DISC_PER_NEIGHBOUR,
                    DISC_SEGMENTS,
                )],
                source: OutlineSource::Disc,
            };
            if twin.get(i).copied().unwrap_or(true) {
                return disc();
            }
            let Some(Some(cell)) = cells.get(i) else {
                return disc();
            };
            let reach = (near * REACH_PER_NEIGHBOUR).min(spacing * REACH_PER_SPACING);
            match clip_cell(site, &cell.ring, reach, &tree, &cut_polys, &cut_owner, i) {
                Some(rings) => Outline {
                    rings,
                    source: OutlineSource::Cell,
                },
                None => disc(),
            }
        })
        .collect()
}

/// A region's raw Voronoi cell and its Delaunay neighbours.
#[derive(Debug, Clone)]
struct Cell {
    ring: Vec<MapPoint>,
    neighbours: Vec<usize>,
}

/// The Voronoi cell of each live region point (by region index). Four frame
/// points far outside the map make every region point's cell bounded, and the
/// points never all on one line.
fn cells_of(sites: &[MapPoint], live: &[usize]) -> Vec<Option<Cell>> {
    let mut cells = vec![None; sites.len()];
    let points: Vec<MapPoint> = live.iter().filter_map(|&i| sites.get(i).copied()).collect();
    let Some((min, max)) = bounds(&points) else {
        return cells;
    };
    let extent = (max[0] - min[0]).max(max[1] - min[1]);
    let spread = extent.max(LONE_SPACING);
    // Far enough that no frame point's cell reaches within any clipping
    // circle (a circle is at most REACH_PER_SPACING spacings, and the spacing
    // at most the extent).
    let far = spread * (4.0 * REACH_PER_SPACING + 4.0);
    let centre = [(min[0] + max[0]) / 2.0, (min[1] + max[1]) / 2.0];
    let mut input: Vec<Site> = live
        .iter()
        .filter_map(|&i| {
            let p = sites.get(i)?;
            Some(Site {
                at: Point2::new(p[0], p[1]),
                region: Some(i),
            })
        })
        .collect();
    for (dx, dy) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
        input.push(Site {
            at: Point2::new(centre[0] + dx * far, centre[1] + dy * far),
            region: None,
        });
    }
    let Ok(triangulation) = DelaunayTriangulation::<Site>::bulk_load(input) else {
        return cells;
    };
    for vertex in triangulation.vertices() {
        let Some(region) = vertex.data().region else {
            continue;
        };
        let mut ring = Vec::new();
        let mut neighbours = Vec::new();
        let mut bounded = true;
        for edge in vertex.out_edges() {
            if let Some(other) = edge.to().data().region {
                neighbours.push(other);
            }
            match edge.face().as_inner() {
                Some(face) => {
                    let c = face.circumcenter();
                    ring.push([c.x, c.y]);
                }
                None => bounded = false,
            }
        }
        if bounded
            && ring.len() >= 3
            && ring.iter().all(|p| p[0].is_finite() && p[1].is_finite())
            && let Some(slot) = cells.get_mut(region)
        {
            *slot = Some(Cell { ring, neighbours });
        }
    }
    cells
}

/// Each region's distance to its nearest other region point (a Delaunay
/// neighbour), when it has one.
fn nearest_distances(sites: &[MapPoint], cells: &[Option<Cell>]) -> Vec<Option<f64>> {
    cells
        .iter()
        .enumerate()
        .map(|(i, cell)| {
            let p = sites.get(i)?;
            cell.as_ref()?
                .neighbours
                .iter()
                .filter_map(|&j| sites.get(j))
                .map(|q| (q[0] - p[0]).hypot(q[1] - p[1]))
                .filter(|d| *d > 0.0 && d.is_finite())
                .min_by(f64::total_cmp)
        })
        .collect()
}

/// The cell clipped to the reach circle, the cuts taken out and the piece
/// holding the site kept; `None` when nothing holding the site is left.
fn clip_cell(
    site: MapPoint,
    cell: &[MapPoint],
    reach: f64,
    tree: &RTree<Cut>,
    cuts: &[Polygon<f64>],
    owners: &[Option<usize>],
    region: usize,
) -> Option<Vec<Vec<MapPoint>>> {
    if !(reach.is_finite() && reach > 0.0) {
        return None;
    }
    let cell_poly = polygon(cell);
    // The circle as a polygon lies inside the circle; a cell whose corners
    // are all within the polygon's inner radius needs no clipping.
    let apothem = reach * (std::f64::consts::PI / CIRCLE_SEGMENTS as f64).cos();
    let within = cell
        .iter()
        .all(|p| (p[0] - site[0]).hypot(p[1] - site[1]) <= apothem);
    let mut shape = if within {
        MultiPolygon::new(vec![cell_poly])
    } else {
        cell_poly.intersection(&polygon(&circle(site, reach, CIRCLE_SEGMENTS)))
    };
    let r = shape.bounding_rect()?;
    let envelope = AABB::from_corners([r.min().x, r.min().y], [r.max().x, r.max().y]);
    for hit in tree.locate_in_envelope_intersecting(&envelope) {
        let k = hit.data;
        if owners.get(k).copied().flatten() == Some(region) {
            continue;
        }
        if let Some(cut) = cuts.get(k) {
            shape = shape.difference(cut);
        }
    }
    let point = Point::new(site[0], site[1]);
    let piece = shape.0.into_iter().find(|p| p.contains(&point))?;
    let rings: Vec<Vec<MapPoint>> = std::iter::once(piece.exterior())
        .chain(piece.interiors())
        .map(ring_points)
        .filter(|ring| ring.len() >= 3)
        .collect();
    let finite = rings
        .iter()
        .flatten()
        .all(|p| p[0].is_finite() && p[1].is_finite());
    (finite && !rings.is_empty()).then_some(rings)
}

/// A ring's points without the closing repeat.
fn ring_points(ring: &LineString<f64>) -> Vec<MapPoint> {
    let mut points: Vec<MapPoint> = ring.coords().map(|c| [c.x, c.y]).collect();
    if points.len() > 1 && points.first() == points.last() {
        points.pop();
    }
    points
}

fn line(ring: &[MapPoint]) -> LineString<f64> {
    LineString::new(ring.iter().map(|p| Coord { x: p[0], y: p[1] }).collect())
}

fn polygon(ring: &[MapPoint]) -> Polygon<f64> {
    Polygon::new(line(ring), Vec::new())
}

fn polygon_of_rings(rings: &[Vec<MapPoint>]) -> Polygon<f64> {
    let mut rings = rings.iter();
    let exterior = rings
        .next()
        .map(|r| line(r))
        .unwrap_or_else(|| LineString::new(Vec::new()));
    Polygon::new(exterior, rings.map(|r| line(r)).collect())
}

fn triangulate(polygon: &Polygon<f64>) -> Triangles {
    if polygon.exterior().0.len() < 3 || !polygon.exterior().coords().all(|c| usable([c.x, c.y])) {
        return Triangles::default();
    }
    let raw = polygon.earcut_triangles_raw();
    let Ok(indices) = raw
        .triangle_indices
        .iter()
        .map(|&i| u32::try_from(i))
        .collect::<Result<Vec<u32>, _>>()
    else {
        return Triangles::default();
    };
    Triangles {
        points: raw.vertices,
        indices,
    }
}

/// A regular polygon of `segments` points on a circle.
fn circle(centre: MapPoint, radius: f64, segments: usize) -> Vec<MapPoint> {
    (0..segments)
        .map(|k| {
            let angle = k as f64 / segments as f64 * std::f64::consts::TAU;
            [centre[0] + radius * angle.cos(), centre[1] + radius * angle.sin()]
        })
        .collect()
}

fn bounds(points: &[MapPoint]) -> Option<(MapPoint, MapPoint)> {
    let first = points.first()?;
    let mut min = *first;
    let mut max = *first;
    for p in points {
        min = [min[0].min(p[0]), min[1].min(p[1])];
        max = [max[0].max(p[0]), max[1].max(p[1])];
    }
    Some((min, max))
}

fn median(values: impl Iterator<Item = f64>) -> Option<f64> {
    let mut values: Vec<f64> = values.collect();
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]

    use super::*;
    use geo::{Area, BooleanOps};
    use proptest::prelude::*;

    fn outline_polygon(o: &Outline) -> Polygon<f64> {
        polygon_of_rings(&o.rings)
    }

    /// The invariants every set of outlines keeps.
    fn assert_sound(sites: &[MapPoint], outlines: &[Outline]) {
        assert_eq!(outlines.len(), sites.len(), "one outline per region");
        for (i, o) in outlines.iter().enumerate() {
            assert!(
                o.rings
                    .iter()
                    .flatten()
                    .all(|p| p[0].is_finite() && p[1].is_finite()),
                "outline {i} has a point that is not a number"
            );
            assert!(!o.rings.is_empty(), "region {i} has no outline");
            if o.source == OutlineSource::Cell {
                assert!(
                    o.contains(sites[i]),
                    "cell {i} does not hold its point {:?}",
                    sites[i]
                );
            }
        }
        let cells: Vec<(usize, Polygon<f64>)> = outlines
            .iter()
            .enumerate()
            .filter(|(_, o)| o.source == OutlineSource::Cell)
            .map(|(i, o)| (i, outline_polygon(o)))
            .collect();
        for (a, pa) in &cells {
            for (b, pb) in &cells {
                if a < b {
                    let shared = pa.intersection(pb).unsigned_area();
                    let scale = pa.unsigned_area().min(pb.unsigned_area());
                    assert!(
                        shared <= 1e-6 * scale.max(1e-9),
                        "cells {a} and {b} overlap by {shared} square miles"
                    );
                }
            }
        }
    }

    fn map_of(sites: &[MapPoint]) -> Vec<Outline> {
        let given = vec![None; sites.len()];
        outlines(sites, &given, &[])
    }

    #[test]
    fn degenerate_inputs_give_every_region_an_outline() {
        let cases: Vec<(&str, Vec<MapPoint>)> = vec![
            ("none", vec![]),
            ("one region", vec![[5.0, 5.0]]),
            ("two regions", vec![[0.0, 0.0], [10.0, 0.0]]),
            (
                "all on a line",
                (0..20).map(|i| [i as f64 * 3.0, i as f64 * 1.5]).collect(),
            ),
            (
                "duplicates",
                vec![[1.0, 1.0], [1.0, 1.0], [4.0, 2.0], [-0.0, 0.0], [0.0, 0.0]],
            ),
            ("far apart", vec![[0.0, 0.0], [1e8, 0.0], [0.0, 1e-9]]),
        ];
        for (what, sites) in cases {
            let out = map_of(&sites);
            assert_sound(&sites, &out);
            if what == "all on a line" {
                assert!(
                    out.iter().all(|o| o.source == OutlineSource::Cell),
                    "{what}: {out:?}"
                );
            }
            if what == "duplicates" {
                assert_eq!(out[1].source, OutlineSource::Disc, "{what}");
                assert_eq!(out[4].source, OutlineSource::Disc, "{what}");
            }
        }
    }

    #[test]
    fn a_point_that_is_not_a_number_gets_an_empty_outline() {
        let out = map_of(&[[f64::NAN, 0.0], [0.0, 0.0], [5.0, 5.0]]);
        assert!(out[0].rings.is_empty());
        assert_eq!(out[1].source, OutlineSource::Cell);
    }

    #[test]
    fn water_is_cut_out_and_a_point_in_it_keeps_a_disc() {
        // A lake between two regions, a third region in the lake.
        let lake = vec![[4.0, -3.0], [6.0, -3.0], [6.0, 3.0], [4.0, 3.0]];
        let sites = vec![[0.0, 0.0], [10.0, 0.0], [5.0, 0.5], [0.0, 10.0]];
        let out = outlines(&sites, &[None; 4], &[&lake]);
        assert_sound(&sites, &out);
        assert_eq!(out[2].source, OutlineSource::Disc);
        let water = polygon(&lake);
        for i in [0, 1, 3] {
            assert_eq!(out[i].source, OutlineSource::Cell);
            let wet = outline_polygon(&out[i]).intersection(&water).unsigned_area();
            assert!(wet < 1e-6, "region {i} covers {wet} square miles of the lake");
        }
    }

    #[test]
    fn a_lake_inside_a_cell_is_a_hole() {
        let lake = vec![[-0.5, 1.0], [0.5, 1.0], [0.5, 1.5], [-0.5, 1.5]];
        let sites = vec![[0.0, 0.0], [0.0, 10.0], [10.0, 0.0]];
        let out = outlines(&sites, &[None; 3], &[&lake]);
        assert_eq!(out[0].rings.len(), 2, "{:?}", out[0]);
        assert!(!out[0].contains([0.0, 1.2]));
        let t = out[0].triangles();
        assert!(!t.indices.is_empty() && t.indices.len().is_multiple_of(3));
    }

    #[test]
    fn a_drawn_shape_is_kept_and_cut_from_its_neighbours() {
        let shape = vec![[-2.0, -2.0], [3.0, -2.0], [3.0, 2.0], [-2.0, 2.0]];
        let sites = vec![[0.0, 0.0], [4.0, 0.0], [0.0, 4.0]];
        let given = vec![Some(shape.as_slice()), None, None];
        let out = outlines(&sites, &given, &[]);
        assert_eq!(out[0].source, OutlineSource::Given);
        assert_eq!(out[0].rings, vec![shape.clone()]);
        for i in [1, 2] {
            let shared = outline_polygon(&out[i])
                .intersection(&polygon(&shape))
                .unsigned_area();
            assert!(shared < 1e-6, "region {i} overlaps the drawn shape by {shared}");
        }
    }

    #[test]
    fn the_reach_is_capped_for_a_lone_region() {
        let mut sites: Vec<MapPoint> = (0..25).map(|i| [(i % 5) as f64, (i / 5) as f64]).collect();
        sites.push([100.0, 100.0]);
        let out = map_of(&sites);
        let lone = &out[25];
        let far = lone
            .exterior()
            .iter()
            .map(|p| (p[0] - 100.0).hypot(p[1] - 100.0))
            .fold(0.0, f64::max);
        assert!(far <= REACH_PER_SPACING * 1.0 + 1e-5, "reaches {far} miles");
    }

    #[test]
    fn shape_contains_tells_inside_from_outside() {
        let shape = [[0.0, 0.0], [4.0, 0.0], [4.0, 4.0], [0.0, 4.0]];
        assert!(shape_contains(&shape, [2.0, 2.0]));
        assert!(!shape_contains(&shape, [5.0, 2.0]));
        let t = area_triangles(&shape);
        assert_eq!(t.indices.len(), 6);
    }

    #[test]
    fn a_hundred_thousand_regions() {
        let n = 100_000;
        let cols = 316;
        let sites: Vec<MapPoint> = (0..n)
            .map(|i| {
                // A jittered grid, deterministic.
                let j = ((i * 7919) % 1000) as f64 / 1000.0;
                [
                    (i % cols) as f64 * 10.0 + j * 3.0,
                    (i / cols) as f64 * 10.0 - j * 2.0,
                ]
            })
            .collect();
        let out = map_of(&sites);
        assert_eq!(out.len(), n);
        assert!(out.iter().all(|o| o.source == OutlineSource::Cell));
    }

    fn site() -> impl Strategy<Value = MapPoint> {
        // Coarse coordinates make duplicates and lines common.
        (0i32..40, 0i32..40).prop_map(|(x, y)| [f64::from(x) * 0.5, f64::from(y) * 0.5])
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn derived_outlines_hold_their_points_and_do_not_overlap(
            sites in prop::collection::vec(site(), 0..40),
            lake in prop::option::of((0.0f64..20.0, 0.0f64..20.0, 0.5f64..6.0)),
        ) {
            let lake: Vec<MapPoint> = lake
                .map(|(x, y, r)| circle([x, y], r, 7))
                .unwrap_or_default();
            let waters: Vec<&[MapPoint]> = if lake.is_empty() { vec![] } else { vec![&lake] };
            let out = outlines(&sites, &vec![None; sites.len()], &waters);
            assert_sound(&sites, &out);
            for o in &out {
                let t = o.triangles();
                prop_assert!(t.indices.iter().all(|&k| (k as usize) < t.points.len()));
                prop_assert!(t.points.iter().flatten().all(|v| v.is_finite()));
            }
        }
    }
}
