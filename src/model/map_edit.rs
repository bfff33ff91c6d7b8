//! A map being drawn in the window's map maker: the edits it makes (regions
//! added, moved, renamed and deleted, roads drawn between them), undo and
//! redo as a stack of map states, and the problems `umpire check` would
//! report on the map as written, each placed at its region or road.
//!
//! Pure: the window sends edits here and draws what comes back; the files
//! are read and written by `crate::files`.

use super::check::{Source, check_map};
use super::map::{Map, MapPoint, Region, Road, RoadKind, Terrain};
use super::map_file::map_file_text;
use super::{RegionId, Severity};

/// How many map states undo keeps.
pub const UNDO_DEPTH: usize = 200;

/// What the first line of a map file written by the map maker says.
pub const WRITTEN_BY: &str =
    "Drawn in umpire's map maker. `umpire check` reads this file; it may be edited by hand too.";

/// A map with its undo and redo stacks.
#[derive(Debug, Clone, PartialEq)]
pub struct MapEdits {
    map: Map,
    past: Vec<Map>,
    future: Vec<Map>,
    /// The kind of the last change, when changes of that kind merge into one
    /// undo step (typing a name, dragging a region).
    merging: Option<String>,
    /// Counts every change, undo and redo, so the window knows when to check again.
    revision: u64,
}

impl MapEdits {
    /// Starts editing `map`, with nothing to undo.
    pub fn new(map: Map) -> MapEdits {
        MapEdits {
            map,
            past: Vec::new(),
            future: Vec::new(),
            merging: None,
            revision: 0,
        }
    }

    pub fn map(&self) -> &Map {
        &self.map
    }

    pub fn revision(&self) -> u64 {
        self.revision
    }

    pub fn can_undo(&self) -> bool {
        !self.past.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.future.is_empty()
    }

    /// Changes the map by `edit`, as one undo step; a change with the same
    /// `merge` key as the one before it joins that step (each letter typed in a
    /// name, each frame of a drag). Returns what `edit` returned.
    pub fn change<T>(&mut self, merge: Option<&str>, edit: impl FnOnce(&mut Map) -> T) -> T {
        let joins = merge.is_some() && self.merging.as_deref() == merge;
        if !joins {
            self.past.push(self.map.clone());
            if self.past.len() > UNDO_DEPTH {
                self.past.remove(0);
            }
        }
        self.merging = merge.map(str::to_owned);
        self.future.clear();
        self.revision += 1;
        edit(&mut self.map)
    }

    /// Ends the step a merging change is in: the next change is a step of its own.
    pub fn end_step(&mut self) {
        self.merging = None;
    }

    /// Takes the last step back; false when there is none.
    pub fn undo(&mut self) -> bool {
        let Some(before) = self.past.pop() else {
            return false;
        };
        self.future.push(std::mem::replace(&mut self.map, before));
        self.merging = None;
        self.revision += 1;
        true
    }

    /// Gives back the last step undone; false when there is none.
    pub fn redo(&mut self) -> bool {
        let Some(after) = self.future.pop() else {
            return false;
        };
        self.past.push(std::mem::replace(&mut self.map, after));
        self.merging = None;
        self.revision += 1;
        true
    }
}

/// An id made of `name` as a region id must be (lowercase letters, digits,
/// `_`, starting with a letter, at most 64): "Bridge Z Farm" → "bridge_z_farm".
/// `None` when the name has no letter or digit to make one of.
pub fn id_from_name(name: &str) -> Option<String> {
    let mut id = String::with_capacity(name.len());
    for c in name.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            id.push(c);
        } else if !id.is_empty() && !id.ends_with('_') {
            id.push('_');
        }
    }
    let id = id.trim_end_matches('_');
    let id = match id.chars().next() {
        None => return None,
        Some(c) if c.is_ascii_digit() => format!("r_{id}"),
        Some(_) => id.to_owned(),
    };
    Some(
        id.chars()
            .take(64)
            .collect::<String>()
            .trim_end_matches('_')
            .to_owned(),
    )
}

/// [`id_from_name`] made unique among `taken` (`_2`, `_3`… after it) and
/// added to it; "region" when the name makes none.
pub fn unique_id_from_name(name: &str, taken: &mut std::collections::HashSet<String>) -> String {
    let mut base = id_from_name(name).unwrap_or_else(|| "region".to_owned());
    // Room for the suffix within the 64 characters of a key.
    base.truncate(56);
    let mut id = base.clone();
    let mut n = 2;
    while taken.contains(&id) {
        id = format!("{base}_{n}");
        n += 1;
    }
    taken.insert(id.clone());
    id
}

/// A new region at `at` (miles), named "Region N" with the first N whose name
/// and id are free, in open ground with no features.
pub fn new_region(map: &Map, at: MapPoint) -> Region {
    let taken = |name: &str, id: &str| {
        map.regions
            .iter()
            .any(|r| r.name.eq_ignore_ascii_case(name) || r.id.as_str() == id)
    };
    let mut n = map.regions.len() + 1;
    loop {
        let name = format!("Region {n}");
        let id = format!("region_{n}");
        if !taken(&name, &id) {
            return Region {
                id: RegionId::new(id),
                name,
                terrain: Terrain::Open,
                x: round_to(at[0], 100.0),
                y: round_to(at[1], 100.0),
                features: Vec::new(),
                shape: Vec::new(),
            };
        }
        n += 1;
    }
}

fn round_to(value: f64, per_unit: f64) -> f64 {
    (value * per_unit).round() / per_unit
}

/// The straight line between two regions in miles (their positions are in
/// miles), to a tenth of a mile and at least a tenth: the length a new road
/// is given until the club sets the real one.
pub fn straight_miles(a: &Region, b: &Region) -> f64 {
    round_to((a.x - b.x).hypot(a.y - b.y), 10.0).max(0.1)
}

/// The index of the region with `id`.
pub fn region_index(map: &Map, id: &RegionId) -> Option<usize> {
    map.regions.iter().position(|r| &r.id == id)
}

/// Adds a road of `kind` between two regions (by index), its miles the
/// straight line between them. `Err` with the index of the road already
/// there when the two are joined by one of that kind, or when `from` and `to`
/// are the same region or not on the map (`Err(None)`).
pub fn add_road(map: &mut Map, from: usize, to: usize, kind: RoadKind) -> Result<usize, Option<usize>> {
    let (Some(a), Some(b)) = (map.regions.get(from), map.regions.get(to)) else {
        return Err(None);
    };
    if from == to {
        return Err(None);
    }
    if let Some(existing) = map.roads.iter().position(|r| {
        r.kind == kind && ((r.from == a.id && r.to == b.id) || (r.from == b.id && r.to == a.id))
    }) {
        return Err(Some(existing));
    }
    map.roads.push(Road {
        from: a.id.clone(),
        to: b.id.clone(),
        kind,
        miles: straight_miles(a, b),
        river: None,
        name: None,
    });
    Ok(map.roads.len() - 1)
}

/// Deletes a region and every road touching it; returns how many roads went.
pub fn remove_region(map: &mut Map, index: usize) -> usize {
    if index >= map.regions.len() {
        return 0;
    }
    let region = map.regions.remove(index);
    let before = map.roads.len();
    map.roads.retain(|r| r.other_end(&region.id).is_none());
    before - map.roads.len()
}

/// Moves a region to `to` (miles, to a hundredth), its drawn shape with it.
/// Roads from it whose miles were the straight line get the new straight line;
/// roads whose miles the club set keep them.
pub fn move_region(map: &mut Map, index: usize, to: MapPoint) {
    let Some(region) = map.regions.get(index).cloned() else {
        return;
    };
    let to = [round_to(to[0], 100.0), round_to(to[1], 100.0)];
    let mut moved = region.clone();
    let (dx, dy) = (to[0] - region.x, to[1] - region.y);
    moved.x = to[0];
    moved.y = to[1];
    for point in &mut moved.shape {
        point[0] += dx;
        point[1] += dy;
    }
    for road in &mut map.roads {
        let Some(other) = road
            .other_end(&region.id)
            .and_then(|id| map.regions.iter().find(|r| &r.id == id))
        else {
            continue;
        };
        if (road.miles - straight_miles(&region, other)).abs() < 0.05 {
            road.miles = straight_miles(&moved, other);
        }
    }
    if let Some(slot) = map.regions.get_mut(index) {
        *slot = moved;
    }
}

/// Renames a region. When its id was made from its old name ("Region 3" →
/// "region_3"), the id follows the new name, roads and all, unless another
/// region has that id already.
pub fn rename_region(map: &mut Map, index: usize, name: &str) {
    let Some(region) = map.regions.get(index) else {
        return;
    };
    let follows = id_from_name(&region.name).is_some_and(|old| old == region.id.as_str());
    let new_id = id_from_name(name).filter(|id| !map.regions.iter().any(|r| r.id.as_str() == id));
    if follows && let Some(id) = new_id {
        set_region_id(map, index, &id);
    }
    if let Some(region) = map.regions.get_mut(index) {
        region.name = name.to_owned();
    }
}

/// Gives a region another id, and its roads with it.
pub fn set_region_id(map: &mut Map, index: usize, id: &str) {
    let Some(region) = map.regions.get_mut(index) else {
        return;
    };
    let old = std::mem::replace(&mut region.id, RegionId::new(id));
    for road in &mut map.roads {
        for end in [&mut road.from, &mut road.to] {
            if *end == old {
                *end = RegionId::new(id);
            }
        }
    }
}

/// Where on the map a problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProblemAt {
    /// The whole map (its name, description, or no regions at all).
    Map,
    Region(usize),
    Road(usize),
    Water(usize),
    Background,
}

/// A problem `umpire check` would report on the map as written.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    pub at: ProblemAt,
    pub error: bool,
    pub message: String,
}

/// The problems of `map` written as a map file and read back by
/// `check_map`, exactly as `umpire check` finds them, each placed at the
/// region, road, water or background it was found in.
pub fn problems(map: &Map) -> Vec<Problem> {
    let text = match map_file_text(map, WRITTEN_BY) {
        Ok(text) => text,
        Err(e) => {
            return vec![Problem {
                at: ProblemAt::Map,
                error: true,
                message: e.to_string(),
            }];
        }
    };
    let checked = check_map(Source {
        name: "map",
        text: &text,
    });
    let places = places_by_line(&text);
    checked
        .diagnostics
        .into_iter()
        .map(|d| Problem {
            at: places
                .get(d.location.line.saturating_sub(1))
                .copied()
                .unwrap_or(ProblemAt::Map),
            error: d.severity == Severity::Error,
            message: d.message,
        })
        .collect()
}

/// For each line of a map file (from 0), the table it is in.
fn places_by_line(text: &str) -> Vec<ProblemAt> {
    let (mut regions, mut roads, mut waters) = (0, 0, 0);
    let mut at = ProblemAt::Map;
    text.lines()
        .map(|line| {
            match line.trim() {
                "[[regions]]" => {
                    at = ProblemAt::Region(regions);
                    regions += 1;
                }
                "[[roads]]" => {
                    at = ProblemAt::Road(roads);
                    roads += 1;
                }
                "[[waters]]" => {
                    at = ProblemAt::Water(waters);
                    waters += 1;
                }
                "[background]" => at = ProblemAt::Background,
                _ => {}
            }
            at
        })
        .collect()
}
