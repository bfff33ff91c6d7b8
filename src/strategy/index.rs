//! A map indexed for game moves: regions by id and the roads out of each.
//!
//! Built once per game move (or per order check) in time linear in the map,
//! so nothing in a game move searches the map's lists.

use crate::model::{Conveyance, Map, RegionId, RiverCrossing, Road, RoadKind};
use rustc_hash::FxHashMap;

/// The map with its regions numbered and its roads listed per region.
#[derive(Debug)]
pub struct MapIndex<'m> {
    pub map: &'m Map,
    /// Hashed fast (the ids are the map file's own; nothing iterates it).
    by_id: FxHashMap<&'m str, usize>,
    /// For each region: (neighbour, road index) for every road out of it.
    pub adjacent: Vec<Vec<(usize, usize)>>,
}

impl<'m> MapIndex<'m> {
    pub fn new(map: &'m Map) -> MapIndex<'m> {
        let by_id: FxHashMap<&str, usize> = map
            .regions
            .iter()
            .enumerate()
            .map(|(i, r)| (r.id.as_str(), i))
            .collect();
        let mut adjacent = vec![Vec::new(); map.regions.len()];
        for (i, road) in map.roads.iter().enumerate() {
            if let (Some(&a), Some(&b)) = (by_id.get(road.from.as_str()), by_id.get(road.to.as_str())) {
                if let Some(list) = adjacent.get_mut(a) {
                    list.push((b, i));
                }
                if let Some(list) = adjacent.get_mut(b) {
                    list.push((a, i));
                }
            }
        }
        MapIndex { map, by_id, adjacent }
    }

    pub fn len(&self) -> usize {
        self.map.regions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.regions.is_empty()
    }

    /// The number of a region, by id.
    pub fn at(&self, id: &RegionId) -> Option<usize> {
        self.by_id.get(id.as_str()).copied()
    }

    pub fn id(&self, region: usize) -> Option<&'m RegionId> {
        self.map.regions.get(region).map(|r| &r.id)
    }

    pub fn name(&self, region: usize) -> &'m str {
        self.map.regions.get(region).map_or("?", |r| r.name.as_str())
    }

    pub fn road(&self, road: usize) -> Option<&'m Road> {
        self.map.roads.get(road)
    }

    /// Roads between two regions, passable or not.
    pub fn roads_between(&self, a: usize, b: usize) -> impl Iterator<Item = usize> + '_ {
        self.adjacent
            .get(a)
            .into_iter()
            .flatten()
            .filter(move |(n, _)| *n == b)
            .map(|(_, r)| *r)
    }

    /// Roads out of `region` that troops can march and supply can follow:
    /// every road except one that meets a river with no bridge or ford, and
    /// a river itself, which only steamers use.
    pub fn passable_from(&self, region: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.adjacent
            .get(region)
            .into_iter()
            .flatten()
            .copied()
            .filter(|(_, road)| self.is_passable(*road))
    }

    pub fn is_passable(&self, road: usize) -> bool {
        self.road(road)
            .is_some_and(|r| r.river != Some(RiverCrossing::None) && r.kind != RoadKind::River)
    }

    /// Whether a force travelling `by` train or steamer can use `road` (`Road::carries`).
    pub fn carries(&self, road: usize, by: Conveyance) -> bool {
        self.road(road).is_some_and(|r| r.carries(by))
    }
}
