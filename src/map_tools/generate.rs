//! `umpire map generate`: a random map for a quick campaign or a benchmark.
//!
//! A landmass with a sea along its northern edge, regions over it (the cells
//! of jittered points, or a hex grid whose hexagons are written as the
//! regions' shapes), roads and tracks between neighbours (the Delaunay
//! triangulation of the region points, long and seaward edges left out),
//! rivers that run down from the high ground to the sea along the borders
//! between regions (so the roads they cut cross by bridge, by ford, or not at
//! all), a railway between the two towns furthest apart, and terrain and
//! features by height, wetness and chance. Every number comes from a ChaCha
//! stream seeded by `--seed`: the same options give the same map, byte for byte.
//!
//! Pure: it returns a [`Map`]; the command line writes the file.

use crate::model::{
    Feature, Map, MapPoint, Region, RegionId, RiverCrossing, Road, RoadKind, Terrain, Water, WaterKind,
};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeSet, HashSet};

/// Miles between neighbouring region points: about the size of a region of
/// the bundled Egyptian map (maps/egypt_1895.toml), a day's march or two.
pub const SPACING_MILES: f64 = 20.0;

/// The most regions a generated map may have: ten times the largest map the
/// benchmarks load (100,000 regions is about 22 MB of map file).
pub const MAX_REGIONS: usize = 1_000_000;

/// How the regions are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Jittered points; their shapes are derived (Voronoi cells) when drawn.
    Voronoi,
    /// A hex grid; each region's hexagon is written as its `shape`.
    Hex,
}

/// What to generate.
#[derive(Debug, Clone)]
pub struct GenerateOptions {
    pub regions: usize,
    pub seed: u64,
    pub layout: Layout,
}

/// Why no map was generated.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum GenerateError {
    #[error("a map needs at least 2 regions (asked for {0}): give --regions 2 or more")]
    TooFew(usize),
    #[error("{asked} regions is more than the {MAX_REGIONS} a generated map may have")]
    TooMany { asked: usize },
}

/// The generated map.
pub fn generate_map(options: &GenerateOptions) -> Result<Map, GenerateError> {
    let n = options.regions;
    if n < 2 {
        return Err(GenerateError::TooFew(n));
    }
    if n > MAX_REGIONS {
        return Err(GenerateError::TooMany { asked: n });
    }
    let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
    let world = World::new(n, &mut rng);
    let points = world.region_points(n, options.layout, &mut rng);
    let heights: Vec<f64> = points.iter().map(|p| world.height(*p)).collect();
    let wetness: Vec<f64> = points.iter().map(|p| world.wetness(*p)).collect();
    let triangulation = delaunator::triangulate(
        &points
            .iter()
            .map(|p| delaunator::Point { x: p[0], y: p[1] })
            .collect::<Vec<_>>(),
    );
    let edges = world.neighbour_edges(&points, &triangulation);
    let rivers = world.rivers(&points, &heights, &triangulation, &mut rng);

    let names = region_names(n, &mut rng);
    let ids = region_ids(&names);
    let mut regions: Vec<Region> = points
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let terrain = world.terrain(
                heights.get(i).copied().unwrap_or(0.0),
                wetness.get(i).copied().unwrap_or(0.0),
                &mut rng,
            );
            let coastal = world.coast_distance(*p) < SPACING_MILES * 1.2;
            Region {
                id: ids
                    .get(i)
                    .cloned()
                    .unwrap_or_else(|| RegionId::new(format!("r{i}"))),
                name: names.get(i).cloned().unwrap_or_else(|| format!("Region {i}")),
                terrain,
                x: round_tenth(p[0]),
                y: round_tenth(p[1]),
                features: features(terrain, coastal, &mut rng),
                shape: match options.layout {
                    Layout::Hex => hexagon(*p),
                    Layout::Voronoi => Vec::new(),
                },
            }
        })
        .collect();

    // Roads between neighbours, each crossing the rivers that cut it.
    let mut roads = Vec::with_capacity(edges.len() + 16);
    for &(a, b) in &edges {
        let (Some(ra), Some(rb)) = (regions.get(a), regions.get(b)) else {
            continue;
        };
        let easy = |t: Terrain| matches!(t, Terrain::Open | Terrain::Cultivated | Terrain::Urban);
        let kind = if easy(ra.terrain) && easy(rb.terrain) {
            RoadKind::Road
        } else {
            RoadKind::Track
        };
        let straight = distance([ra.x, ra.y], [rb.x, rb.y]);
        let miles = round_half((straight * rng.random_range(1.05..1.3)).max(0.5));
        let river = rivers.cut.contains(&(a.min(b), a.max(b))).then(|| {
            let roll: f64 = rng.random();
            if roll < 0.6 {
                RiverCrossing::Bridge
            } else if roll < 0.85 {
                RiverCrossing::Ford
            } else {
                RiverCrossing::None
            }
        });
        if let Some(crossing) = river {
            let feature = match crossing {
                RiverCrossing::Bridge => Some(Feature::Bridge),
                RiverCrossing::Ford => Some(Feature::Ford),
                RiverCrossing::None => None,
            };
            if let Some(feature) = feature
                && let Some(end) = regions.get_mut(if rng.random::<bool>() { a } else { b })
                && !end.has(feature)
            {
                end.features.push(feature);
            }
        }
        roads.push((a, b, kind, miles, river));
    }
    // Two towns at least, and about one region in eight: the railway joins two.
    let towns = regions.iter().filter(|r| r.has(Feature::Town)).count();
    let mut others: Vec<usize> = (0..regions.len())
        .filter(|&i| regions.get(i).is_some_and(|r| !r.has(Feature::Town)))
        .collect();
    for _ in towns..(n / 8).max(2) {
        if others.is_empty() {
            break;
        }
        let pick = others.swap_remove(rng.random_range(0..others.len()));
        if let Some(region) = regions.get_mut(pick) {
            region.features.retain(|f| *f != Feature::Village);
            region.features.insert(0, Feature::Town);
        }
    }
    connect_parts(&points, &mut roads);
    add_railway(&mut regions, &mut roads);

    let roads = roads
        .into_iter()
        .filter_map(|(a, b, kind, miles, river)| {
            Some(Road {
                from: regions.get(a)?.id.clone(),
                to: regions.get(b)?.id.clone(),
                kind,
                miles,
                river,
                name: None,
            })
        })
        .collect();
    let (west, east) = points
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(w, e), p| {
            (w.min(p[0]), e.max(p[0]))
        });
    let mut waters = vec![Water {
        kind: WaterKind::Sea,
        name: Some("The Sea".to_owned()),
        points: world.sea_outline(west - SPACING_MILES, east + SPACING_MILES),
    }];
    waters.extend(rivers.lines.into_iter().enumerate().map(|(i, points)| Water {
        kind: WaterKind::River,
        name: Some(format!("River {}", river_name(i))),
        points,
    }));
    waters.extend(rivers.lakes.into_iter().map(|points| Water {
        kind: WaterKind::Lake,
        name: None,
        points,
    }));
    Ok(Map {
        name: format!("Generated map: {n} regions, seed {}", options.seed),
        description: Some(format!(
            "Made by `umpire map generate --regions {n} --seed {}{}`: {} regions about {SPACING_MILES} miles apart, a sea to the north.",
            options.seed,
            if options.layout == Layout::Hex {
                " --layout hex"
            } else {
                ""
            },
            n
        )),
        regions,
        roads,
        background: None,
        waters,
    })
}

/// The landmass: its size, its coast and its height and wetness fields.
struct World {
    width: f64,
    height: f64,
    /// The coast's mean distance from the top edge, and its waves: (amplitude, frequency, phase).
    coast_mean: f64,
    coast_waves: Vec<(f64, f64, f64)>,
    /// The hills' and the wet ground's waves: (amplitude, x frequency, y frequency, phase).
    hills: Vec<(f64, f64, f64, f64)>,
    wet: Vec<(f64, f64, f64, f64)>,
}

impl World {
    fn new(n: usize, rng: &mut ChaCha8Rng) -> World {
        // Land enough for the regions with a fifth to spare, the sea a band above it.
        let land = count_f64(n) * SPACING_MILES * SPACING_MILES * 1.25;
        let width = (land * 4.0 / 3.0).sqrt().max(SPACING_MILES * 3.0);
        let land_height = (land / width).max(SPACING_MILES * 2.0);
        let coast_mean = SPACING_MILES * 1.5 + land_height * 0.06;
        let mut waves = |count: usize, amplitude: f64, period: f64| -> Vec<(f64, f64, f64)> {
            (1..=count)
                .map(|k| {
                    let k = count_f64(k);
                    (
                        amplitude / k * rng.random_range(0.5..1.0),
                        std::f64::consts::TAU * k / period,
                        rng.random_range(0.0..std::f64::consts::TAU),
                    )
                })
                .collect()
        };
        let coast_waves = waves(4, SPACING_MILES * 0.8 + land_height * 0.04, width);
        let mut field = |count: usize| -> Vec<(f64, f64, f64, f64)> {
            (0..count)
                .map(|_| {
                    let scale = rng.random_range(3.0..8.0) * SPACING_MILES;
                    (
                        rng.random_range(0.3..1.0),
                        std::f64::consts::TAU / scale * rng.random_range(0.5..1.5),
                        std::f64::consts::TAU / scale * rng.random_range(0.5..1.5),
                        rng.random_range(0.0..std::f64::consts::TAU),
                    )
                })
                .collect()
        };
        let hills = field(5);
        let wet = field(4);
        World {
            width,
            height: coast_mean + land_height,
            coast_mean,
            coast_waves,
            hills,
            wet,
        }
    }

    /// The coast's distance from the top edge at `x`.
    fn coast_at(&self, x: f64) -> f64 {
        self.coast_mean
            + self
                .coast_waves
                .iter()
                .map(|(a, f, phase)| a * (f * x + phase).sin())
                .sum::<f64>()
    }

    /// How far inland `p` lies (negative at sea).
    fn coast_distance(&self, p: MapPoint) -> f64 {
        p[1] - self.coast_at(p[0])
    }

    /// The ground's height at `p`, about 0 at the coast and 1 far inland and on the hills.
    fn height(&self, p: MapPoint) -> f64 {
        let inland = (self.coast_distance(p) / (self.height - self.coast_mean)).clamp(0.0, 1.0);
        let hills: f64 = self
            .hills
            .iter()
            .map(|(a, fx, fy, phase)| a * (fx * p[0] + phase).sin() * (fy * p[1] + phase * 0.7).cos())
            .sum();
        inland * 0.7 + hills * 0.1
    }

    /// How wet the ground is at `p`, about -1 to 1.
    fn wetness(&self, p: MapPoint) -> f64 {
        self.wet
            .iter()
            .map(|(a, fx, fy, phase)| a * (fx * p[0] + phase).cos() * (fy * p[1] - phase).sin())
            .sum::<f64>()
            * 0.5
    }

    fn terrain(&self, height: f64, wetness: f64, rng: &mut ChaCha8Rng) -> Terrain {
        let roll: f64 = rng.random();
        if height > 0.75 {
            Terrain::Mountains
        } else if height > 0.55 {
            Terrain::Hills
        } else if wetness > 0.45 && height < 0.2 {
            Terrain::Marsh
        } else if wetness > 0.3 {
            if roll < 0.5 {
                Terrain::Forest
            } else {
                Terrain::Cultivated
            }
        } else if wetness < -0.45 {
            Terrain::Desert
        } else if roll < 0.35 {
            Terrain::Cultivated
        } else {
            Terrain::Open
        }
    }

    /// `n` region points on the land, the ones nearest the land's middle.
    fn region_points(&self, n: usize, layout: Layout, rng: &mut ChaCha8Rng) -> Vec<MapPoint> {
        let row_step = SPACING_MILES * 3f64.sqrt() / 2.0;
        // The middle of the land a little to the north, so the land meets the sea along the coast.
        let middle = [
            self.width / 2.0,
            self.coast_mean + (self.height - self.coast_mean) * 0.4,
        ];
        let mut scale = 1.0;
        loop {
            let width = self.width * scale;
            let height = self.height * scale;
            let rows = whole(height / row_step) + 1;
            let columns = whole(width / SPACING_MILES) + 1;
            let mut points = Vec::with_capacity(rows * columns);
            for row in 0..rows {
                for column in 0..columns {
                    let shift = if row % 2 == 1 { 0.5 } else { 0.0 };
                    let mut p = [
                        (count_f64(column) + shift) * SPACING_MILES + middle[0] - width / 2.0,
                        count_f64(row) * row_step + middle[1] - height / 2.0,
                    ];
                    if layout == Layout::Voronoi {
                        p[0] += rng.random_range(-0.35..0.35) * SPACING_MILES;
                        p[1] += rng.random_range(-0.35..0.35) * SPACING_MILES;
                    }
                    if self.coast_distance(p) > SPACING_MILES * 0.6 {
                        points.push(p);
                    }
                }
            }
            if points.len() >= n {
                // The n nearest the middle, measured across the land's own shape.
                let reach = |p: &MapPoint| {
                    ((p[0] - middle[0]) / self.width).powi(2)
                        + ((p[1] - middle[1]) / (self.height - self.coast_mean)).powi(2)
                };
                points.sort_by(|a, b| reach(a).total_cmp(&reach(b)));
                points.truncate(n);
                // Written north to south, west to east, as a person reads a map.
                points.sort_by(|a, b| a[1].total_cmp(&b[1]).then(a[0].total_cmp(&b[0])));
                return points;
            }
            scale *= 1.25;
        }
    }

    /// Pairs of neighbouring regions (lower index first, sorted): the Delaunay
    /// edges no longer than 1.8 spacings whose middle is on land.
    fn neighbour_edges(
        &self,
        points: &[MapPoint],
        triangulation: &delaunator::Triangulation,
    ) -> Vec<(usize, usize)> {
        let mut edges = BTreeSet::new();
        for (e, &a) in triangulation.triangles.iter().enumerate() {
            let Some(&b) = triangulation.triangles.get(next_halfedge(e)) else {
                continue;
            };
            let (Some(pa), Some(pb)) = (points.get(a), points.get(b)) else {
                continue;
            };
            let middle = [(pa[0] + pb[0]) / 2.0, (pa[1] + pb[1]) / 2.0];
            // A Gabriel edge: no other point within the circle on a-b as its
            // diameter, so no road runs past a region on its way. In a Delaunay
            // triangulation only the points opposite the edge need looking at.
            let opposite = |e: usize| {
                triangulation
                    .triangles
                    .get(next_halfedge(next_halfedge(e)))
                    .and_then(|&c| points.get(c))
            };
            let clear = |c: Option<&MapPoint>| {
                c.is_none_or(|c| (pa[0] - c[0]) * (pb[0] - c[0]) + (pa[1] - c[1]) * (pb[1] - c[1]) > 0.0)
            };
            let twin = triangulation
                .halfedges
                .get(e)
                .copied()
                .filter(|&t| t != delaunator::EMPTY);
            let gabriel = clear(opposite(e)) && clear(twin.and_then(opposite));
            if gabriel && distance(*pa, *pb) <= SPACING_MILES * 1.8 && self.coast_distance(middle) > 0.0 {
                edges.insert((a.min(b), a.max(b)));
            }
        }
        edges.into_iter().collect()
    }

    /// Rivers from high ground down to the sea along the region borders: each
    /// runs through the middles of the Delaunay triangles, from a triangle to
    /// its lowest lower neighbour, crossing (cutting) the edge between them.
    fn rivers(
        &self,
        points: &[MapPoint],
        heights: &[f64],
        triangulation: &delaunator::Triangulation,
        rng: &mut ChaCha8Rng,
    ) -> Rivers {
        let triangles = triangulation.triangles.len() / 3;
        let corner = |t: usize, k: usize| triangulation.triangles.get(3 * t + k).copied();
        let middle = |t: usize| -> Option<MapPoint> {
            let (a, b, c) = (
                points.get(corner(t, 0)?)?,
                points.get(corner(t, 1)?)?,
                points.get(corner(t, 2)?)?,
            );
            Some([(a[0] + b[0] + c[0]) / 3.0, (a[1] + b[1] + c[1]) / 3.0])
        };
        let level = |t: usize| -> f64 {
            (0..3)
                .filter_map(|k| corner(t, k).and_then(|v| heights.get(v)))
                .sum::<f64>()
                / 3.0
        };
        let mut out = Rivers::default();
        if triangles == 0 {
            return out;
        }
        let wanted = (points.len() / 60).clamp(1, 60);
        // Sources on the highest quarter of the ground.
        let mut levels: Vec<f64> = (0..triangles).map(level).collect();
        levels.sort_by(f64::total_cmp);
        let high = levels.get(triangles * 3 / 4).copied().unwrap_or(0.0);
        let mut used: HashSet<usize> = HashSet::new();
        let mut tries = 0;
        while out.lines.len() < wanted && tries < wanted * 20 {
            tries += 1;
            let start = rng.random_range(0..triangles);
            if level(start) < high || used.contains(&start) {
                continue;
            }
            let mut path = vec![start];
            let mut cut = Vec::new();
            let mut joined = false;
            let mut current = start;
            loop {
                // The neighbour across each of the triangle's three edges: the
                // lowest one lower than here, or where there is none (a hollow)
                // the one nearest the sea, as a river cuts its way out; a hollow
                // with no way nearer the sea holds a lake.
                let here = (
                    level(current),
                    middle(current).map_or(0.0, |p| self.coast_distance(p)),
                );
                let mut lower: Option<(usize, usize, f64)> = None;
                let mut seaward: Option<(usize, usize, f64)> = None;
                for k in 0..3 {
                    let e = 3 * current + k;
                    let Some(&twin) = triangulation.halfedges.get(e) else {
                        continue;
                    };
                    if twin == delaunator::EMPTY || path.contains(&(twin / 3)) {
                        continue;
                    }
                    let next = twin / 3;
                    let l = level(next);
                    if l < here.0 && lower.is_none_or(|(_, _, b)| l < b) {
                        lower = Some((next, e, l));
                    }
                    let reach = middle(next).map_or(f64::INFINITY, |p| self.coast_distance(p));
                    if reach < here.1 && seaward.is_none_or(|(_, _, b)| reach < b) {
                        seaward = Some((next, e, reach));
                    }
                }
                let Some((next, e, _)) = lower.or(seaward) else {
                    break;
                };
                let (Some(a), Some(b)) = (
                    triangulation.triangles.get(e),
                    triangulation.triangles.get(next_halfedge(e)),
                ) else {
                    break;
                };
                cut.push(((*a).min(*b), (*a).max(*b)));
                path.push(next);
                current = next;
                if used.contains(&next) {
                    joined = true;
                    break;
                }
                if middle(next).is_some_and(|p| self.coast_distance(p) < SPACING_MILES * 0.8) {
                    break;
                }
            }
            if path.len() < 4 || path.len() > 4 * triangles.min(1_000) {
                continue;
            }
            let mut line: Vec<MapPoint> = path.iter().filter_map(|&t| middle(t)).map(round_point).collect();
            let end = line.last().copied();
            if let Some(end) = end {
                if self.coast_distance(end) < SPACING_MILES * 0.8 && !joined {
                    // On to the sea, straight down to the coast and a little beyond.
                    line.push(round_point([end[0], self.coast_at(end[0]) - 2.0]));
                } else if !joined {
                    // A hollow with no way down: the river ends in a lake.
                    let reach = (0..3)
                        .filter_map(|k| corner(current, k).and_then(|v| points.get(v)))
                        .map(|p| distance(*p, end))
                        .fold(f64::INFINITY, f64::min);
                    if reach.is_finite() && reach > 1.0 {
                        out.lakes.push(circle(end, reach * 0.4, 8));
                    }
                }
            }
            used.extend(path.iter().copied());
            out.cut.extend(cut);
            out.lines.push(line);
        }
        out
    }

    /// The sea from `west` to `east`: the coast and, a spacing beyond the
    /// coast's furthest reach, the sea's top edge, as one area.
    fn sea_outline(&self, west: f64, east: f64) -> Vec<MapPoint> {
        let (west, east) = if west.is_finite() && east > west {
            (west, east)
        } else {
            (0.0, self.width)
        };
        let steps = whole((east - west) / (SPACING_MILES / 2.0)).clamp(16, 2_000);
        let coast: Vec<MapPoint> = (0..=steps)
            .rev()
            .map(|i| {
                let x = west + (east - west) * count_f64(i) / count_f64(steps);
                round_point([x, self.coast_at(x)])
            })
            .collect();
        let top = coast.iter().map(|p| p[1]).fold(f64::INFINITY, f64::min) - SPACING_MILES;
        let mut outline = vec![round_point([west, top]), round_point([east, top])];
        outline.extend(coast);
        outline
    }
}

#[derive(Default)]
struct Rivers {
    lines: Vec<Vec<MapPoint>>,
    lakes: Vec<Vec<MapPoint>>,
    /// The neighbour pairs whose border a river runs along: the road between them crosses it.
    cut: HashSet<(usize, usize)>,
}

/// The halfedge after `e` in its triangle.
fn next_halfedge(e: usize) -> usize {
    if e % 3 == 2 { e - 2 } else { e + 1 }
}

fn features(terrain: Terrain, coastal: bool, rng: &mut ChaCha8Rng) -> Vec<Feature> {
    let mut features = Vec::new();
    let roll: f64 = rng.random();
    if terrain == Terrain::Urban || roll < 0.12 {
        features.push(Feature::Town);
    } else if roll < 0.4 {
        features.push(Feature::Village);
    }
    if coastal && rng.random::<f64>() < 0.5 {
        features.push(Feature::Port);
    }
    if terrain == Terrain::Desert && rng.random::<f64>() < 0.5 {
        features.push(Feature::Wells);
    }
    let roll: f64 = rng.random();
    if roll < 0.04 {
        features.push(Feature::Fort);
    } else if roll < 0.14 && terrain != Terrain::Desert {
        features.push(Feature::Farm);
    }
    features
}

/// Joins every part of the road graph to the largest by a track between
/// their nearest regions, so the map is connected.
fn connect_parts(points: &[MapPoint], roads: &mut Vec<(usize, usize, RoadKind, f64, Option<RiverCrossing>)>) {
    loop {
        // Joined on foot: not across water with no bridge or ford.
        let parts = crate::model::connected_parts(
            points.len(),
            roads
                .iter()
                .filter(|r| r.4 != Some(RiverCrossing::None))
                .map(|r| (r.0, r.1)),
        );
        if parts.len() <= 1 {
            return;
        }
        let Some(main) = parts.iter().max_by_key(|p| p.len()) else {
            return;
        };
        let main: HashSet<usize> = main.iter().copied().collect();
        let Some(other) = parts.iter().find(|p| !p.iter().any(|r| main.contains(r))) else {
            return;
        };
        // A pair already joined by a road (across a river with no crossing)
        // gets no second one: the map takes one road or track between two regions.
        let joined: HashSet<(usize, usize)> = roads.iter().map(|r| (r.0, r.1)).collect();
        let mut best: Option<(usize, usize, f64)> = None;
        for &a in other {
            for &b in &main {
                if joined.contains(&(a.min(b), a.max(b))) {
                    continue;
                }
                let (Some(pa), Some(pb)) = (points.get(a), points.get(b)) else {
                    continue;
                };
                let d = distance(*pa, *pb);
                if best.is_none_or(|(_, _, bd)| d < bd) {
                    best = Some((a, b, d));
                }
            }
        }
        let Some((a, b, d)) = best else { return };
        roads.push((
            a.min(b),
            a.max(b),
            RoadKind::Track,
            round_half((d * 1.2).max(0.5)),
            None,
        ));
    }
}

/// A railway along the roads between the two towns furthest apart, each
/// region on it a station; its river crossings by bridge.
fn add_railway(
    regions: &mut [Region],
    roads: &mut Vec<(usize, usize, RoadKind, f64, Option<RiverCrossing>)>,
) {
    let towns: Vec<usize> = (0..regions.len())
        .filter(|&i| regions.get(i).is_some_and(|r| r.has(Feature::Town)))
        .collect();
    if regions.len() < 12 || towns.len() < 2 || towns.len() > 2_000 {
        return;
    }
    let at = |i: usize| regions.get(i).map_or([0.0, 0.0], |r| [r.x, r.y]);
    let mut ends = (0, 0, 0.0);
    for (k, &a) in towns.iter().enumerate() {
        for &b in towns.iter().skip(k + 1) {
            let d = distance(at(a), at(b));
            if d > ends.2 {
                ends = (a, b, d);
            }
        }
    }
    let mut graph = petgraph::graph::UnGraph::<(), f64>::with_capacity(regions.len(), roads.len());
    let nodes: Vec<_> = (0..regions.len()).map(|_| graph.add_node(())).collect();
    for (a, b, _, miles, river) in roads.iter() {
        if let (Some(&na), Some(&nb)) = (nodes.get(*a), nodes.get(*b))
            && *river != Some(RiverCrossing::None)
        {
            graph.add_edge(na, nb, *miles);
        }
    }
    let (Some(&start), Some(&goal)) = (nodes.get(ends.0), nodes.get(ends.1)) else {
        return;
    };
    let Some((_, path)) = petgraph::algo::astar(&graph, start, |n| n == goal, |e| *e.weight(), |_| 0.0)
    else {
        return;
    };
    for pair in path.windows(2) {
        let [a, b] = pair else { continue };
        let (a, b) = (a.index(), b.index());
        let Some(road) = roads.iter().find(|r| (r.0, r.1) == (a.min(b), a.max(b))) else {
            continue;
        };
        let river = road.4.map(|_| RiverCrossing::Bridge);
        let miles = road.3;
        roads.push((a.min(b), a.max(b), RoadKind::Railway, miles, river));
        for end in [a, b] {
            if let Some(region) = regions.get_mut(end) {
                if !region.has(Feature::Station) {
                    region.features.push(Feature::Station);
                }
                if river.is_some() && !region.has(Feature::Bridge) && end == a {
                    region.features.push(Feature::Bridge);
                }
            }
        }
    }
}

/// Region names made of syllables, all different.
fn region_names(n: usize, rng: &mut ChaCha8Rng) -> Vec<String> {
    const FIRST: &[&str] = &[
        "Al", "Bar", "Cal", "Dun", "El", "Fen", "Gar", "Hal", "Ir", "Kel", "Lor", "Mar", "Nor", "Or", "Pel",
        "Ros", "Sal", "Tor", "Ul", "Val", "Wes", "Yar", "Zan", "Ash", "Bel", "Cor", "Dal", "Est", "Gil",
        "Har",
    ];
    const MIDDLE: &[&str] = &["", "", "a", "e", "i", "o", "an", "en", "ar", "ir", "ol", "um"];
    const LAST: &[&str] = &[
        "ford", "by", "ton", "ham", "wick", "dale", "mere", "stead", "holm", "bury", "gate", "mont", "ville",
        "berg", "field", "moor", "wood", "port", "well", "cross",
    ];
    let mut seen = HashSet::with_capacity(n);
    let mut names = Vec::with_capacity(n);
    for i in 0..n {
        let mut name = String::new();
        for _ in 0..8 {
            let pick = |list: &[&'static str], rng: &mut ChaCha8Rng| {
                list.get(rng.random_range(0..list.len())).copied().unwrap_or("")
            };
            let candidate = format!("{}{}{}", pick(FIRST, rng), pick(MIDDLE, rng), pick(LAST, rng));
            if !seen.contains(&candidate) {
                name = candidate;
                break;
            }
        }
        if name.is_empty() || seen.contains(&name) {
            name = format!("Region {}", i + 1);
        }
        seen.insert(name.clone());
        names.push(name);
    }
    names
}

/// Ids from the names, unique (`map_edit::unique_id_from_name`).
fn region_ids(names: &[String]) -> Vec<RegionId> {
    let mut seen = HashSet::with_capacity(names.len());
    names
        .iter()
        .map(|name| RegionId::new(crate::model::map_edit::unique_id_from_name(name, &mut seen)))
        .collect()
}

fn river_name(i: usize) -> String {
    const NAMES: &[&str] = &[
        "Aln", "Bure", "Cam", "Dove", "Exe", "Frome", "Gade", "Hull", "Isis", "Kent", "Lune", "Mole",
    ];
    match NAMES.get(i) {
        Some(name) => (*name).to_owned(),
        None => format!("{}", i + 1),
    }
}

/// The hexagon (pointy top) of a hex-grid region at `p`.
fn hexagon(p: MapPoint) -> Vec<MapPoint> {
    let radius = SPACING_MILES / 3f64.sqrt();
    (0..6)
        .map(|k| {
            let angle = std::f64::consts::PI / 3.0 * count_f64(k) + std::f64::consts::PI / 6.0;
            round_point([p[0] + radius * angle.cos(), p[1] + radius * angle.sin()])
        })
        .collect()
}

fn circle(centre: MapPoint, radius: f64, sides: usize) -> Vec<MapPoint> {
    (0..sides)
        .map(|k| {
            let angle = std::f64::consts::TAU * count_f64(k) / count_f64(sides);
            round_point([centre[0] + radius * angle.cos(), centre[1] + radius * angle.sin()])
        })
        .collect()
}

fn distance(a: MapPoint, b: MapPoint) -> f64 {
    (a[0] - b[0]).hypot(a[1] - b[1])
}

fn round_tenth(v: f64) -> f64 {
    (v * 10.0).round() / 10.0
}

fn round_half(v: f64) -> f64 {
    (v * 2.0).round() / 2.0
}

fn round_point(p: MapPoint) -> MapPoint {
    [round_tenth(p[0]), round_tenth(p[1])]
}

/// `v` rounded up to a count; 0 for a negative or non-finite `v`.
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
fn whole(v: f64) -> usize {
    if v.is_finite() && v > 0.0 {
        v.ceil().min(1e9) as usize
    } else {
        0
    }
}

#[allow(clippy::cast_precision_loss)]
fn count_f64(n: usize) -> f64 {
    n as f64
}
