//! Supply lines: which forces a chain of roads joins to a held HQ of their side.
//!
//! Source: `scruby-basic-war-game-rules.txt`, Strategic Rules 2: "as long as
//! you hold your HQ and the roads that lead from your troops fighting in the
//! field to it, then you have no supply worry." A road is cut where the enemy
//! holds a region on it. One breadth-first search per side, from all of its
//! held HQs at once, finds every region its supply reaches.

use super::index::MapIndex;
use crate::model::{Campaign, Hq, RegionId, Side, SideId};
use std::collections::{HashMap, VecDeque};

/// Who holds what on the map at one moment, region by region. Sides are
/// bits (a campaign has at most 64 sides, as `umpire check` enforces).
#[derive(Debug)]
pub struct Holding {
    /// For each region: the sides with forces there.
    occupants: Vec<u64>,
    /// For each region: the sides holding an HQ there.
    hq_holders: Vec<u64>,
}

fn bit(side: usize) -> u64 {
    u32::try_from(side)
        .ok()
        .and_then(|s| 1u64.checked_shl(s))
        .unwrap_or(0)
}

impl Holding {
    pub fn of(campaign: &Campaign, index: &MapIndex<'_>) -> Holding {
        let standing = campaign
            .forces
            .iter()
            .filter(|f| f.en_route.is_none() && !f.stands.is_empty())
            .map(|f| (&f.side, &f.region));
        Holding::from_parts(&campaign.sides, &campaign.hqs, standing, index)
    }

    /// Who holds what, given the forces standing in a region (each as its
    /// side and region: none on the march or without stands) and the HQs.
    pub fn from_parts<'a>(
        sides: &[Side],
        hqs: &[Hq],
        standing: impl Iterator<Item = (&'a SideId, &'a RegionId)>,
        index: &MapIndex<'_>,
    ) -> Holding {
        let sides: HashMap<&SideId, usize> = sides.iter().enumerate().map(|(i, s)| (&s.id, i)).collect();
        let mut occupants = vec![0u64; index.len()];
        for (side, region) in standing {
            if let (Some(region), Some(side)) = (index.at(region), sides.get(side))
                && let Some(slot) = occupants.get_mut(region)
            {
                *slot |= bit(*side);
            }
        }
        let mut hq_holders = vec![0u64; index.len()];
        for hq in hqs {
            if let (Some(region), Some(side)) = (index.at(&hq.region), sides.get(&hq.held_by))
                && let Some(slot) = hq_holders.get_mut(region)
            {
                *slot |= bit(*side);
            }
        }
        Holding {
            occupants,
            hq_holders,
        }
    }

    /// Whether the enemies of side `side` hold `region`: their forces are
    /// there and none of `side`'s, or, with no forces there, they hold an HQ there.
    pub fn enemy_holds(&self, region: usize, side: usize) -> bool {
        let forces = self.occupants.get(region).copied().unwrap_or(0);
        let holders = if forces != 0 {
            forces
        } else {
            self.hq_holders.get(region).copied().unwrap_or(0)
        };
        holders != 0 && holders & bit(side) == 0
    }

    /// The one side with forces in `region`, if exactly one has.
    pub fn only_side_in(&self, region: usize) -> Option<usize> {
        let forces = self.occupants.get(region).copied().unwrap_or(0);
        (forces.count_ones() == 1).then(|| forces.trailing_zeros() as usize)
    }
}

/// Where one side's supply reaches.
#[derive(Debug)]
pub struct SupplyNet {
    /// Regions joined to a held HQ by roads through regions the enemy does not hold.
    pub reached: Vec<bool>,
    /// The HQ regions it starts from.
    pub sources: Vec<usize>,
}

/// The HQ regions side `side` supplies from: its own HQs that it still holds.
pub fn sources(campaign: &Campaign, index: &MapIndex<'_>, side: &SideId) -> Vec<usize> {
    sources_among(&campaign.hqs, index, side)
}

/// The regions of those of `hqs` that are side `side`'s own and held by it.
pub fn sources_among(hqs: &[Hq], index: &MapIndex<'_>, side: &SideId) -> Vec<usize> {
    hqs.iter()
        .filter(|hq| &hq.side == side && &hq.held_by == side)
        .filter_map(|hq| index.at(&hq.region))
        .collect()
}

/// Breadth-first search from `sources` over usable roads; `blocked` regions
/// are not entered. Returns, for each region, the region it was reached
/// from (itself for a source), or `None` when not reached.
pub fn search(
    index: &MapIndex<'_>,
    sources: &[usize],
    blocked: impl Fn(usize) -> bool,
) -> Vec<Option<usize>> {
    let mut came_from: Vec<Option<usize>> = vec![None; index.len()];
    let mut queue = VecDeque::new();
    for &source in sources {
        if let Some(slot) = came_from.get_mut(source)
            && slot.is_none()
        {
            *slot = Some(source);
            queue.push_back(source);
        }
    }
    while let Some(region) = queue.pop_front() {
        for (next, _) in index.passable_from(region) {
            if blocked(next) {
                continue;
            }
            if let Some(slot) = came_from.get_mut(next)
                && slot.is_none()
            {
                *slot = Some(region);
                queue.push_back(next);
            }
        }
    }
    came_from
}

/// Traces the supply of side number `side`.
pub fn trace(campaign: &Campaign, index: &MapIndex<'_>, holding: &Holding, side: usize) -> SupplyNet {
    let Some(side_id) = campaign.sides.get(side).map(|s| &s.id) else {
        return SupplyNet {
            reached: vec![false; index.len()],
            sources: Vec::new(),
        };
    };
    let sources = sources(campaign, index, side_id);
    let came_from = search(index, &sources, |r| holding.enemy_holds(r, side));
    SupplyNet {
        reached: came_from.iter().map(Option::is_some).collect(),
        sources,
    }
}

/// Why a force at `region` is cut off: the enemy-held regions on the
/// shortest road to a held HQ, found by searching as if nothing were held.
/// Empty when no road at all leads to a held HQ.
pub fn cuts(
    index: &MapIndex<'_>,
    holding: &Holding,
    side: usize,
    open_routes: &[Option<usize>],
    region: usize,
) -> Vec<usize> {
    let mut cuts = Vec::new();
    let mut at = region;
    for _ in 0..index.len() {
        match open_routes.get(at).copied().flatten() {
            Some(previous) if previous != at => {
                if holding.enemy_holds(at, side) && at != region {
                    cuts.push(at);
                }
                at = previous;
            }
            Some(_) => {
                if holding.enemy_holds(at, side) {
                    cuts.push(at);
                }
                break;
            }
            None => return Vec::new(),
        }
    }
    cuts
}
