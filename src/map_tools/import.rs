//! `umpire map import`: a map from GeoJSON, such as a club draws in QGIS or
//! geojson.io or exports from OpenStreetMap.
//!
//! - A `Point` is a region at that point; a `Polygon` (or the largest part of
//!   a `MultiPolygon`) a region with that outline as its `shape`, its point
//!   inside the outline.
//! - A `LineString` (each part of a `MultiLineString`) is a road: every vertex
//!   within reach of a region point (or inside a region's outline) is a stop,
//!   and each pair of stops in turn is joined by a road whose miles are the
//!   line's own length between them. With `kind = "river"` or `"canal"` (or an
//!   OpenStreetMap `waterway` tag of either) a line is drawn water instead.
//! - A polygon with `kind = "lake"` or `"sea"` (or `natural = "water"`) is water.
//!
//! Properties read: the name (`name`, or the property `--name-property`
//! gives), `id`, `terrain`, `features` (a list or a string, comma or space
//! separated), `kind` (road, track, railway, river, canal, lake, sea, region),
//! `river` (a road's crossing: bridge, ford, none). What is left out or taken
//! by default is told in the notes, feature by feature.
//!
//! Positions: GeoJSON's longitude and latitude (RFC 7946) become miles east
//! and south of the data's north-west corner, an equirectangular projection
//! at the data's middle latitude (the same formula as maps/egypt_1895.toml's
//! header); with `--units miles` or `km` the coordinates are taken as a
//! projected grid, north up.
//!
//! Pure: it returns a [`Map`] and the notes; the command line writes the file.

use crate::model::{
    Feature, Map, MapPoint, Region, RegionId, RiverCrossing, Road, RoadKind, Terrain, Water, WaterKind,
};
use geojson::{GeoJson, GeometryValue, JsonObject, JsonValue, Position};
use std::collections::{HashMap, HashSet};

/// Miles in one degree of latitude (and of longitude at the equator).
const MILES_PER_DEGREE: f64 = 69.17;

/// The units of the file's coordinates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Units {
    /// Longitude and latitude, as RFC 7946 says GeoJSON has them.
    Degrees,
    /// A projected grid in miles, north up.
    Miles,
    /// A projected grid in kilometres, north up.
    Kilometres,
}

/// How to read the file.
#[derive(Debug, Clone)]
pub struct ImportOptions {
    /// The map's name.
    pub name: String,
    /// The property that holds a region's name.
    pub name_property: String,
    pub units: Units,
}

/// The imported map and what the import left out or took by default.
#[derive(Debug)]
pub struct Imported {
    pub map: Map,
    pub notes: Vec<String>,
}

/// Why nothing was imported.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("not GeoJSON: {0}")]
    NotGeoJson(String),
    #[error(
        "no regions: the file has no Point or Polygon features to make regions of (lines and water alone make no map)"
    )]
    NoRegions,
    #[error(
        "the coordinates are not longitude and latitude (one is {0}, beyond 180 or 90 degrees): give --units km or --units miles for a projected grid"
    )]
    NotDegrees(f64),
}

/// One GeoJSON feature as the import sees it.
struct Shape<'a> {
    /// 1-based, in file order, for the notes.
    number: usize,
    properties: Option<&'a JsonObject>,
    geometry: &'a GeometryValue,
}

/// What a feature becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Region,
    Road(RoadKind),
    Water(WaterKind),
}

/// `text` (GeoJSON) read as a map.
pub fn import_geojson(text: &str, options: &ImportOptions) -> Result<Imported, ImportError> {
    let geojson: GeoJson = text
        .parse()
        .map_err(|e: geojson::Error| ImportError::NotGeoJson(e.to_string()))?;
    let mut shapes = Vec::new();
    match &geojson {
        GeoJson::FeatureCollection(collection) => {
            for (k, feature) in collection.features.iter().enumerate() {
                if let Some(geometry) = &feature.geometry {
                    shapes.push((k + 1, feature.properties.as_ref(), &geometry.value));
                }
            }
        }
        GeoJson::Feature(feature) => {
            if let Some(geometry) = &feature.geometry {
                shapes.push((1, feature.properties.as_ref(), &geometry.value));
            }
        }
        GeoJson::Geometry(geometry) => shapes.push((1, None, &geometry.value)),
    }
    // A GeometryCollection's members each stand alone, with the feature's
    // properties and number (its place in the file, from 1).
    let mut flat: Vec<Shape<'_>> = Vec::new();
    for (number, properties, geometry) in shapes {
        match geometry {
            GeometryValue::GeometryCollection { geometries } => {
                flat.extend(geometries.iter().map(|g| Shape {
                    number,
                    properties,
                    geometry: &g.value,
                }));
            }
            geometry => flat.push(Shape {
                number,
                properties,
                geometry,
            }),
        }
    }
    let projection = Projection::new(&flat, options.units);
    if options.units == Units::Degrees
        && let Some(outside) = projection.outside_degrees
    {
        return Err(ImportError::NotDegrees(outside));
    }
    let mut notes = Vec::new();

    // Regions first: the roads are snapped to them.
    let mut regions: Vec<Region> = Vec::new();
    let mut ids: HashSet<String> = HashSet::new();
    let mut names: HashSet<String> = HashSet::new();
    let mut lines: Vec<(&Shape<'_>, RoadKind, Vec<MapPoint>)> = Vec::new();
    let mut waters: Vec<Water> = Vec::new();
    for shape in &flat {
        let role = role(shape);
        let here = format!("feature {}", shape.number);
        match (role, shape.geometry) {
            (Role::Region, GeometryValue::Point { coordinates }) => {
                let point = projection.point(coordinates);
                regions.push(region(
                    shape,
                    point,
                    Vec::new(),
                    options,
                    &mut ids,
                    &mut names,
                    &mut notes,
                ));
            }
            (Role::Region, GeometryValue::MultiPoint { coordinates }) => {
                for c in coordinates {
                    let point = projection.point(c);
                    regions.push(region(
                        shape,
                        point,
                        Vec::new(),
                        options,
                        &mut ids,
                        &mut names,
                        &mut notes,
                    ));
                }
            }
            (Role::Region, GeometryValue::Polygon { coordinates }) => {
                let outline = projection.ring(coordinates.first());
                let point = inside_point(&outline);
                regions.push(region(
                    shape, point, outline, options, &mut ids, &mut names, &mut notes,
                ));
            }
            (Role::Region, GeometryValue::MultiPolygon { coordinates }) => {
                let outlines: Vec<Vec<MapPoint>> =
                    coordinates.iter().map(|p| projection.ring(p.first())).collect();
                let largest = outlines
                    .into_iter()
                    .max_by(|a, b| area(a).total_cmp(&area(b)))
                    .unwrap_or_default();
                if coordinates.len() > 1 {
                    notes.push(format!(
                        "{here}: a MultiPolygon of {} parts; its largest is the region's shape",
                        coordinates.len()
                    ));
                }
                let point = inside_point(&largest);
                regions.push(region(
                    shape, point, largest, options, &mut ids, &mut names, &mut notes,
                ));
            }
            (Role::Road(kind), GeometryValue::LineString { coordinates }) => {
                lines.push((
                    shape,
                    kind,
                    coordinates.iter().map(|c| projection.point(c)).collect(),
                ));
            }
            (Role::Road(kind), GeometryValue::MultiLineString { coordinates }) => {
                for part in coordinates {
                    lines.push((shape, kind, part.iter().map(|c| projection.point(c)).collect()));
                }
            }
            (Role::Water(kind), GeometryValue::LineString { coordinates }) if !kind.is_area() => {
                waters.push(water(
                    shape,
                    kind,
                    coordinates.iter().map(|c| projection.point(c)).collect(),
                ));
            }
            (Role::Water(kind), GeometryValue::MultiLineString { coordinates }) if !kind.is_area() => {
                for part in coordinates {
                    waters.push(water(
                        shape,
                        kind,
                        part.iter().map(|c| projection.point(c)).collect(),
                    ));
                }
            }
            (Role::Water(kind), GeometryValue::Polygon { coordinates }) if kind.is_area() => {
                waters.push(water(shape, kind, projection.ring(coordinates.first())));
            }
            (Role::Water(kind), GeometryValue::MultiPolygon { coordinates }) if kind.is_area() => {
                for polygon in coordinates {
                    waters.push(water(shape, kind, projection.ring(polygon.first())));
                }
            }
            (role, geometry) => notes.push(format!(
                "{here}: left out: a {} cannot be {}",
                geometry.type_name(),
                match role {
                    Role::Region => "a region (regions are Points or Polygons)".to_owned(),
                    Role::Road(kind) => format!("a {kind} (roads are LineStrings)"),
                    Role::Water(kind) if kind.is_area() => format!("a {kind} (areas are Polygons)"),
                    Role::Water(kind) => format!("a {kind} (rivers and canals are LineStrings)"),
                }
            )),
        }
    }
    if regions.is_empty() {
        return Err(ImportError::NoRegions);
    }
    let roads = roads_along(&regions, &lines, &mut notes);
    Ok(Imported {
        map: Map {
            name: options.name.clone(),
            description: Some(format!(
                "Imported from GeoJSON by `umpire map import`: {} regions, {} roads, {} waters.",
                regions.len(),
                roads.len(),
                waters.len()
            )),
            regions,
            roads,
            background: None,
            waters,
        },
        notes,
    })
}

/// What the feature's properties (or, failing them, its geometry) make it.
fn role(shape: &Shape<'_>) -> Role {
    let word = |key: &str| {
        shape
            .properties
            .and_then(|p| p.get(key))
            .and_then(JsonValue::as_str)
            .map(str::to_ascii_lowercase)
    };
    let kind = word("kind")
        .or_else(|| word("waterway"))
        .or_else(|| (word("natural").as_deref() == Some("water")).then(|| "lake".to_owned()));
    if let Some(kind) = kind {
        if let Some(road) = RoadKind::parse(&kind).filter(|k| *k != RoadKind::River) {
            return Role::Road(road);
        }
        if let Some(water) = WaterKind::parse(&kind) {
            return Role::Water(water);
        }
    }
    match shape.geometry {
        GeometryValue::LineString { .. } | GeometryValue::MultiLineString { .. } => {
            Role::Road(RoadKind::Road)
        }
        _ => Role::Region,
    }
}

#[allow(clippy::too_many_arguments)]
fn region(
    shape: &Shape<'_>,
    point: MapPoint,
    outline: Vec<MapPoint>,
    options: &ImportOptions,
    ids: &mut HashSet<String>,
    names: &mut HashSet<String>,
    notes: &mut Vec<String>,
) -> Region {
    let here = format!("feature {}", shape.number);
    let property = |key: &str| shape.properties.and_then(|p| p.get(key));
    let text = |key: &str| {
        property(key)
            .and_then(JsonValue::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
    };
    let number = names.len() + 1;
    let mut name = match text(&options.name_property) {
        Some(name) => name.to_owned(),
        None => {
            notes.push(format!(
                "{here}: no `{}` property: named \"Region {number}\"",
                options.name_property
            ));
            format!("Region {number}")
        }
    };
    if names.contains(&name) {
        let mut k = 2;
        while names.contains(&format!("{name} ({k})")) {
            k += 1;
        }
        notes.push(format!(
            "{here}: a second region named \"{name}\": named \"{name} ({k})\""
        ));
        name = format!("{name} ({k})");
    }
    names.insert(name.clone());
    let id = crate::model::map_edit::unique_id_from_name(text("id").unwrap_or(&name), ids);
    let terrain = match text("terrain") {
        Some(word) => Terrain::parse(&word.to_ascii_lowercase()).unwrap_or_else(|| {
            notes.push(format!(
                "{here} ({name}): terrain `{word}` is not one of {}: taken as open",
                Terrain::choices()
            ));
            Terrain::Open
        }),
        None => Terrain::Open,
    };
    let words: Vec<String> = match property("features") {
        Some(JsonValue::Array(items)) => items
            .iter()
            .filter_map(JsonValue::as_str)
            .map(str::to_owned)
            .collect(),
        Some(JsonValue::String(list)) => list
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|w| !w.is_empty())
            .map(str::to_owned)
            .collect(),
        _ => Vec::new(),
    };
    let mut features = Vec::new();
    for word in words {
        match Feature::parse(&word.to_ascii_lowercase()) {
            Some(f) if !features.contains(&f) => features.push(f),
            Some(_) => {}
            None => notes.push(format!(
                "{here} ({name}): feature `{word}` is not one of {}: left out",
                Feature::choices()
            )),
        }
    }
    Region {
        id: RegionId::new(id),
        name,
        terrain,
        x: round_tenth(point[0]),
        y: round_tenth(point[1]),
        features,
        shape: outline.into_iter().map(round_point).collect(),
    }
}

fn water(shape: &Shape<'_>, kind: WaterKind, points: Vec<MapPoint>) -> Water {
    let name = shape
        .properties
        .and_then(|p| p.get("name"))
        .and_then(JsonValue::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned);
    Water {
        kind,
        name,
        points: points.into_iter().map(round_point).collect(),
    }
}

/// The roads the lines make: each line's stops (vertices at a region) joined in turn.
fn roads_along(
    regions: &[Region],
    lines: &[(&Shape<'_>, RoadKind, Vec<MapPoint>)],
    notes: &mut Vec<String>,
) -> Vec<Road> {
    let points: Vec<MapPoint> = regions.iter().map(|r| [r.x, r.y]).collect();
    // A vertex is at a region when inside its outline, or nearer its point
    // than a third of the way to the region's nearest neighbour (5 miles
    // when the region stands alone).
    let reach: Vec<f64> = points
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let nearest = points
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, q)| distance(*p, *q))
                .fold(f64::INFINITY, f64::min);
            if nearest.is_finite() { nearest / 3.0 } else { 5.0 }
        })
        .collect();
    let at_region = |v: MapPoint| -> Option<usize> {
        if let Some(i) = regions
            .iter()
            .position(|r| r.shape.len() >= 3 && contains(&r.shape, v))
        {
            return Some(i);
        }
        points
            .iter()
            .enumerate()
            .map(|(i, p)| (i, distance(*p, v)))
            .filter(|(i, d)| reach.get(*i).is_some_and(|r| d <= r))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(i, _)| i)
    };
    let mut roads: Vec<Road> = Vec::new();
    let mut seen: HashMap<(usize, usize, RoadKind), usize> = HashMap::new();
    for (shape, kind, line) in lines {
        let here = format!("feature {}", shape.number);
        let property = |key: &str| {
            shape
                .properties
                .and_then(|p| p.get(key))
                .and_then(JsonValue::as_str)
        };
        let river = match property("river") {
            Some(word) => match RiverCrossing::parse(&word.to_ascii_lowercase()) {
                Some(c) => Some(c),
                None => {
                    notes.push(format!(
                        "{here}: river crossing `{word}` is not one of {}: left out",
                        RiverCrossing::choices()
                    ));
                    None
                }
            },
            None => None,
        };
        let name = property("name")
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned);
        let mut stops = 0;
        let mut last: Option<usize> = None;
        let mut along = 0.0;
        let mut previous: Option<MapPoint> = None;
        for &vertex in line {
            if let Some(p) = previous {
                along += distance(p, vertex);
            }
            previous = Some(vertex);
            let Some(stop) = at_region(vertex) else { continue };
            stops += 1;
            if let Some(from) = last
                && from != stop
            {
                let (Some(a), Some(b)) = (regions.get(from), regions.get(stop)) else {
                    continue;
                };
                let straight = distance([a.x, a.y], [b.x, b.y]);
                let key = (from.min(stop), from.max(stop), *kind);
                if let Some(first) = seen.get(&key) {
                    notes.push(format!(
                        "{here}: a second {kind} between {} and {} (the first from feature {first}): left out",
                        a.name, b.name
                    ));
                } else {
                    seen.insert(key, shape.number);
                    if let Some(crossing) = river {
                        note_crossing(crossing, a, b, &here, notes);
                    }
                    roads.push(Road {
                        from: a.id.clone(),
                        to: b.id.clone(),
                        kind: *kind,
                        miles: round_tenth(along.max(straight).max(0.1)),
                        river,
                        name: name.clone(),
                    });
                }
            }
            if last != Some(stop) {
                last = Some(stop);
                along = 0.0;
            }
        }
        if stops < 2 {
            notes.push(format!(
                "{here}: a {kind} that reaches {} region{}: left out (a road's ends must lie at two regions)",
                stops,
                if stops == 1 { "" } else { "s" }
            ));
        }
    }
    roads
}

/// A bridge or ford crossing needs the feature at one end; the check says so
/// at the line, and the note says which road it came from.
fn note_crossing(crossing: RiverCrossing, a: &Region, b: &Region, here: &str, notes: &mut Vec<String>) {
    let needed = match crossing {
        RiverCrossing::Bridge => Feature::Bridge,
        RiverCrossing::Ford => Feature::Ford,
        RiverCrossing::None => return,
    };
    if !a.has(needed) && !b.has(needed) {
        notes.push(format!(
            "{here}: the road from {} to {} crosses by {crossing}, but neither region has the `{needed}` feature: add it to one of them",
            a.name, b.name
        ));
    }
}

/// Longitude and latitude (or a grid) to the map's miles.
struct Projection {
    units: Units,
    /// A coordinate beyond 180 degrees of longitude or 90 of latitude, if any.
    outside_degrees: Option<f64>,
    west: f64,
    north: f64,
    /// Miles per degree of longitude at the middle latitude.
    east_scale: f64,
}

impl Projection {
    fn new(shapes: &[Shape<'_>], units: Units) -> Projection {
        let mut west = f64::INFINITY;
        let mut north = f64::NEG_INFINITY;
        let mut south = f64::INFINITY;
        let mut outside_degrees = None;
        for shape in shapes {
            each_position(shape.geometry, &mut |p: &Position| {
                if let [x, y, ..] = p.as_slice()
                    && x.is_finite()
                    && y.is_finite()
                {
                    west = west.min(*x);
                    north = north.max(*y);
                    south = south.min(*y);
                    if x.abs() > 180.0 {
                        outside_degrees = outside_degrees.or(Some(*x));
                    } else if y.abs() > 90.0 {
                        outside_degrees = outside_degrees.or(Some(*y));
                    }
                }
            });
        }
        if !west.is_finite() {
            (west, north, south) = (0.0, 0.0, 0.0);
        }
        let middle = (north + south) / 2.0;
        Projection {
            units,
            outside_degrees,
            west,
            north,
            east_scale: MILES_PER_DEGREE * middle.to_radians().cos(),
        }
    }

    fn point(&self, p: &Position) -> MapPoint {
        let (x, y) = match p.as_slice() {
            [x, y, ..] => (*x, *y),
            _ => (self.west, self.north),
        };
        match self.units {
            Units::Degrees => [
                (x - self.west) * self.east_scale,
                (self.north - y) * MILES_PER_DEGREE,
            ],
            Units::Miles => [x - self.west, self.north - y],
            // 1 km = 0.621371 miles (the international mile, 1,609.344 m).
            Units::Kilometres => [(x - self.west) * 0.621_371, (self.north - y) * 0.621_371],
        }
    }

    /// A polygon's ring in miles, without the closing point that repeats the first.
    fn ring(&self, ring: Option<&Vec<Position>>) -> Vec<MapPoint> {
        let mut points: Vec<MapPoint> = ring
            .map(|r| r.iter().map(|p| self.point(p)).collect())
            .unwrap_or_default();
        if points.len() > 1 && points.first() == points.last() {
            points.pop();
        }
        points
    }
}

fn each_position(geometry: &GeometryValue, f: &mut impl FnMut(&Position)) {
    match geometry {
        GeometryValue::Point { coordinates } => f(coordinates),
        GeometryValue::MultiPoint { coordinates } | GeometryValue::LineString { coordinates } => {
            coordinates.iter().for_each(f);
        }
        GeometryValue::MultiLineString { coordinates } | GeometryValue::Polygon { coordinates } => {
            coordinates.iter().flatten().for_each(f);
        }
        GeometryValue::MultiPolygon { coordinates } => coordinates.iter().flatten().flatten().for_each(f),
        GeometryValue::GeometryCollection { geometries } => {
            for g in geometries {
                each_position(&g.value, f);
            }
        }
    }
}

/// The outline's signed area's size (shoelace).
fn area(outline: &[MapPoint]) -> f64 {
    let mut twice = 0.0;
    for (i, a) in outline.iter().enumerate() {
        if let Some(b) = outline.get((i + 1) % outline.len()) {
            twice += a[0] * b[1] - b[0] * a[1];
        }
    }
    (twice / 2.0).abs()
}

/// Whether `p` lies inside the outline (even-odd rule).
fn contains(outline: &[MapPoint], p: MapPoint) -> bool {
    let mut inside = false;
    let n = outline.len();
    for i in 0..n {
        let (Some(a), Some(b)) = (outline.get(i), outline.get((i + n - 1) % n)) else {
            continue;
        };
        if (a[1] > p[1]) != (b[1] > p[1]) && p[0] < (b[0] - a[0]) * (p[1] - a[1]) / (b[1] - a[1]) + a[0] {
            inside = !inside;
        }
    }
    inside
}

/// A point inside the outline for the region's counters: its centroid when
/// that is inside (most outlines), else the middle of the widest stretch of
/// the outline across the centroid's row.
fn inside_point(outline: &[MapPoint]) -> MapPoint {
    let n = outline.len();
    if n == 0 {
        return [0.0, 0.0];
    }
    let (mut cx, mut cy, mut twice) = (0.0, 0.0, 0.0);
    for i in 0..n {
        let (Some(a), Some(b)) = (outline.get(i), outline.get((i + 1) % n)) else {
            continue;
        };
        let cross = a[0] * b[1] - b[0] * a[1];
        twice += cross;
        cx += (a[0] + b[0]) * cross;
        cy += (a[1] + b[1]) * cross;
    }
    let mean = {
        let count = outline.len() as f64;
        [
            outline.iter().map(|p| p[0]).sum::<f64>() / count,
            outline.iter().map(|p| p[1]).sum::<f64>() / count,
        ]
    };
    let centroid = if twice.abs() > f64::EPSILON {
        [cx / (3.0 * twice), cy / (3.0 * twice)]
    } else {
        mean
    };
    if contains(outline, centroid) {
        return centroid;
    }
    // Where the centroid's row crosses the outline, the widest inside stretch.
    let y = centroid[1];
    let mut xs: Vec<f64> = (0..n)
        .filter_map(|i| {
            let (a, b) = (outline.get(i)?, outline.get((i + 1) % n)?);
            ((a[1] > y) != (b[1] > y)).then(|| a[0] + (y - a[1]) * (b[0] - a[0]) / (b[1] - a[1]))
        })
        .collect();
    xs.sort_by(f64::total_cmp);
    xs.chunks(2)
        .filter_map(|pair| match pair {
            [a, b] => Some((b - a, [(a + b) / 2.0, y])),
            _ => None,
        })
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map_or(mean, |(_, p)| p)
}

fn distance(a: MapPoint, b: MapPoint) -> f64 {
    (a[0] - b[0]).hypot(a[1] - b[1])
}

fn round_tenth(v: f64) -> f64 {
    (v * 10.0).round() / 10.0
}

fn round_point(p: MapPoint) -> MapPoint {
    [round_tenth(p[0]), round_tenth(p[1])]
}
