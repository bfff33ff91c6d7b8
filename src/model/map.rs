//! The strategic map: regions joined by roads.

use super::ids::RegionId;
use super::vocabulary;
use petgraph::graph::{NodeIndex, UnGraph};
use serde::{Deserialize, Serialize};

vocabulary! {
    /// The ground that covers most of a region.
    pub enum Terrain {
        Open = "open",
        Desert = "desert",
        Cultivated = "cultivated",
        Hills = "hills",
        Mountains = "mountains",
        Forest = "forest",
        Marsh = "marsh",
        Urban = "urban",
    }
}

vocabulary! {
    /// A named feature in a region, which the battle generator puts on the table.
    pub enum Feature {
        Town = "town",
        Village = "village",
        Bridge = "bridge",
        Ford = "ford",
        Wells = "wells",
        Fort = "fort",
        Port = "port",
        Farm = "farm",
        Station = "station",
    }
}

vocabulary! {
    /// What joins two regions.
    pub enum RoadKind {
        Road = "road",
        Track = "track",
        Railway = "railway",
        /// A navigable river between two landing places, used only by
        /// steamers (`by = "river"`); written from its upstream end to its
        /// downstream end, so the map says which way the current runs.
        River = "river",
    }
}

vocabulary! {
    /// How a road crosses a river or canal on its way.
    pub enum RiverCrossing {
        Bridge = "bridge",
        Ford = "ford",
        /// The road meets the water with no bridge or ford: no way over.
        None = "none",
    }
}

vocabulary! {
    /// Water drawn on the map (a line or an area), which the map file gives
    /// so that a map needs no background picture.
    pub enum WaterKind {
        /// A river, as a line from its source towards its mouth.
        River = "river",
        /// A canal, as a line.
        Canal = "canal",
        /// A lake, as an area.
        Lake = "lake",
        /// The sea, as an area: its edge is the coast.
        Sea = "sea",
    }
}

impl WaterKind {
    /// Whether the water is an area (a closed polygon) rather than a line.
    pub fn is_area(self) -> bool {
        matches!(self, WaterKind::Lake | WaterKind::Sea)
    }
}

/// A point in the map's miles: east of the left edge, south of the top edge.
pub type MapPoint = [f64; 2];

/// A river, canal, lake or sea drawn on the map (`[[waters]]` in the map file).
/// It only draws: movement follows the roads (a road that crosses water says
/// so with its `river` crossing), and steamers the `river` roads.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Water {
    pub kind: WaterKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The line's points in order, or the area's outline (closed implicitly).
    pub points: Vec<MapPoint>,
}

/// An area of the map.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Region {
    pub id: RegionId,
    pub name: String,
    pub terrain: Terrain,
    /// Miles east of the map's left edge.
    pub x: f64,
    /// Miles south of the map's top edge.
    pub y: f64,
    pub features: Vec<Feature>,
    /// The region's outline, when the map file draws one (`shape`); empty
    /// when the program derives it from the region points.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shape: Vec<MapPoint>,
}

impl Region {
    pub fn has(&self, feature: Feature) -> bool {
        self.features.contains(&feature)
    }
}

/// A way between two regions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Road {
    pub from: RegionId,
    pub to: RegionId,
    pub kind: RoadKind,
    pub miles: f64,
    /// `Some` when the road crosses a river or canal.
    pub river: Option<RiverCrossing>,
    pub name: Option<String>,
}

impl Road {
    /// The other end of the road seen from `region`, if the road touches it.
    pub fn other_end(&self, region: &RegionId) -> Option<&RegionId> {
        if &self.from == region {
            Some(&self.to)
        } else if &self.to == region {
            Some(&self.from)
        } else {
            None
        }
    }
}

/// A picture drawn under the map: a PNG file in the map file's folder, and
/// where its edges fall in the map's miles.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Background {
    /// The file's name, beside the map file.
    pub file: String,
    pub left: f64,
    pub top: f64,
    pub right: f64,
    pub bottom: f64,
}

/// The map graph. Regions and roads keep the order of the map file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Map {
    pub name: String,
    pub description: Option<String>,
    pub regions: Vec<Region>,
    pub roads: Vec<Road>,
    /// The picture under the map, if the map file names one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub background: Option<Background>,
    /// Rivers, canals, lakes and the sea, drawn under the regions.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub waters: Vec<Water>,
}

impl Map {
    pub fn region(&self, id: &RegionId) -> Option<&Region> {
        self.regions.iter().find(|r| &r.id == id)
    }

    /// The region's display name, or its id when it is not on the map.
    pub fn region_name<'a>(&'a self, id: &'a RegionId) -> &'a str {
        self.region(id).map_or(id.as_str(), |r| r.name.as_str())
    }

    /// Roads touching `region`, in map-file order.
    pub fn roads_from<'a>(&'a self, region: &'a RegionId) -> impl Iterator<Item = &'a Road> + 'a {
        self.roads.iter().filter(move |r| r.other_end(region).is_some())
    }

    /// The map as a petgraph graph: node weights are indexes into `regions`,
    /// edge weights indexes into `roads`. Roads naming unknown regions are left out.
    pub fn graph(&self) -> UnGraph<usize, usize> {
        let mut graph = UnGraph::with_capacity(self.regions.len(), self.roads.len());
        let nodes: std::collections::HashMap<&RegionId, NodeIndex> = self
            .regions
            .iter()
            .enumerate()
            .map(|(i, r)| (&r.id, graph.add_node(i)))
            .collect();
        let node_of = |id: &RegionId| nodes.get(id).copied();
        for (i, road) in self.roads.iter().enumerate() {
            if let (Some(a), Some(b)) = (node_of(&road.from), node_of(&road.to)) {
                graph.add_edge(a, b, i);
            }
        }
        graph
    }

    /// The regions grouped into sets joined by roads; one set when the map is
    /// connected. Each set lists region indexes in map-file order.
    pub fn connected_parts(&self) -> Vec<Vec<usize>> {
        let graph = self.graph();
        let edges = graph
            .raw_edges()
            .iter()
            .map(|edge| (edge.source().index(), edge.target().index()));
        connected_parts(self.regions.len(), edges)
    }
}

/// Regions `0..regions` grouped into sets joined by `roads` (pairs of region
/// indexes), each set in index order, the sets in the order of their first region.
pub(crate) fn connected_parts(
    regions: usize,
    roads: impl Iterator<Item = (usize, usize)>,
) -> Vec<Vec<usize>> {
    let mut sets = petgraph::unionfind::UnionFind::<usize>::new(regions);
    for (a, b) in roads {
        sets.union(a, b);
    }
    let mut parts: Vec<Vec<usize>> = Vec::new();
    let mut part_of_root: Vec<Option<usize>> = vec![None; regions];
    for region in 0..regions {
        let root = sets.find(region);
        let Some(slot) = part_of_root.get_mut(root) else {
            continue;
        };
        let part = *slot.get_or_insert_with(|| {
            parts.push(Vec::new());
            parts.len() - 1
        });
        if let Some(p) = parts.get_mut(part) {
            p.push(region);
        }
    }
    parts
}
