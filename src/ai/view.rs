//! What a side knows, from its report, in the shape the opponents think in:
//! regions by index, the roads a force can march, its own forces and their
//! strength, the enemy as last seen, the HQs; and distances on foot.

use super::odds::{Ground, ground_of};
use crate::model::report::Report;
use crate::model::{
    Feature, ForceId, RegionId, RiverCrossing, RoadKind, RuleSetId, SideId, StandId, StandKind, Wing,
};
use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashMap};

/// An own force as the opponents see it.
#[derive(Debug, Clone)]
pub struct OwnForce {
    pub id: ForceId,
    pub name: String,
    pub region: usize,
    pub points: f64,
    /// All its stands light cavalry: a scout.
    pub scout: bool,
    /// On the march between regions (it goes on unless told otherwise).
    pub en_route: bool,
    /// On the march: the region at the road's far end.
    pub toward: Option<usize>,
    /// Must rest this game move: it cannot march.
    pub must_rest: bool,
    /// In a pending battle: it cannot march until the battle is decided.
    pub in_battle: bool,
    /// Game moves cut off from every HQ of its side.
    pub cut_moves: u32,
    /// Its stands: id, kind and points.
    pub stands: Vec<(StandId, StandKind, u32)>,
}

/// An enemy force as last seen.
#[derive(Debug, Clone)]
pub struct EnemyForce {
    /// "Blue Host" or "blind 3": the side's own name for it.
    pub label: String,
    /// The side's marker number for it, which stays with the force.
    pub marker: u32,
    pub side: SideId,
    pub region: usize,
    /// Its points when seen in full; a blind's is guessed (`guessed`).
    pub points: f64,
    pub guessed: bool,
    pub seen_turn: u32,
    pub in_sight: bool,
}

/// An HQ, public to every side.
#[derive(Debug, Clone)]
pub struct KnownHq {
    pub side: SideId,
    pub wing: Wing,
    pub region: usize,
    pub name: String,
    pub held_by: SideId,
}

/// A side's picture of the campaign, built from its report alone.
#[derive(Debug, Clone)]
pub struct Known {
    pub side: SideId,
    pub turn: u32,
    pub region_ids: Vec<RegionId>,
    pub region_names: Vec<String>,
    /// For each region, the regions a force can march to and the miles.
    pub neighbours: Vec<Vec<(usize, f64)>>,
    pub forces: Vec<OwnForce>,
    pub enemies: Vec<EnemyForce>,
    pub hqs: Vec<KnownHq>,
    /// About one game move's march, for "near" and "within a move": the
    /// median length of the roads a force can march. Maps lay neighbouring
    /// regions about a march apart (20 to 30 miles on the Egyptian map, a
    /// mile on Scruby's Jumbo table), so the measure follows the map's scale.
    pub move_miles: f64,
    /// Miles infantry march on a road in one game move: Scruby's 6 inches
    /// a move at the campaign's miles an inch, each day of the game move.
    pub foot_miles_per_move: f64,
    /// The railways and the steamer rivers: for each region, the regions a
    /// train (a steamer) goes on to, with the share of a game move the leg
    /// takes; where one may board or alight (a station, a landing place on
    /// the river); and how many stands of the side one line carries a game
    /// move (the campaign's `[railways]` and `[rivers]`, in the report).
    pub rail: Carried,
    pub river: Carried,
    /// The campaign's battle rule set, and each region's ground and whether
    /// a fort entrenches its defender: what the engine's odds depend on
    /// (`odds::attack_odds`).
    pub rules: RuleSetId,
    pub grounds: Vec<(Ground, bool)>,
}

/// The legs and stops of one way of being carried (trains or steamers).
#[derive(Debug, Clone, Default)]
pub struct Carried {
    pub legs: Vec<Vec<(usize, f64)>>,
    pub stops: Vec<bool>,
    pub stands_per_move: u32,
}

impl Carried {
    /// The game moves carried from `from` to every region (infinite where
    /// no line leads), through no region `avoid` names, by Dijkstra's search.
    pub fn moves_from(&self, from: usize, avoid: impl Fn(usize) -> bool) -> (Vec<f64>, Vec<Option<usize>>) {
        let mut moves = vec![f64::INFINITY; self.legs.len()];
        let mut previous: Vec<Option<usize>> = vec![None; self.legs.len()];
        let mut queue = BinaryHeap::new();
        if let Some(m) = moves.get_mut(from) {
            *m = 0.0;
            queue.push(Step(0.0, from));
        }
        while let Some(Step(d, region)) = queue.pop() {
            if moves.get(region).is_some_and(|&m| d > m) {
                continue;
            }
            for &(next, share) in self.legs.get(region).map_or(&[][..], Vec::as_slice) {
                if avoid(next) {
                    continue;
                }
                let through = d + share;
                if let Some(m) = moves.get_mut(next)
                    && through < *m
                {
                    *m = through;
                    if let Some(p) = previous.get_mut(next) {
                        *p = Some(region);
                    }
                    queue.push(Step(through, next));
                }
            }
        }
        (moves, previous)
    }

    pub fn is_stop(&self, region: usize) -> bool {
        self.stops.get(region).copied().unwrap_or(false)
    }
}

impl Known {
    pub fn of(report: &Report) -> Known {
        let map = &report.map;
        let index: HashMap<&RegionId, usize> =
            map.regions.iter().enumerate().map(|(i, r)| (&r.id, i)).collect();
        let mut neighbours = vec![Vec::new(); map.regions.len()];
        for road in &map.roads {
            // On foot: no steamer river, and no water without a bridge or ford.
            if road.kind == RoadKind::River || road.river == Some(RiverCrossing::None) {
                continue;
            }
            let (Some(&a), Some(&b)) = (index.get(&road.from), index.get(&road.to)) else {
                continue;
            };
            let miles = if road.miles.is_finite() && road.miles > 0.0 {
                road.miles
            } else {
                1.0
            };
            if let Some(list) = neighbours.get_mut(a) {
                list.push((b, miles));
            }
            if let Some(list) = neighbours.get_mut(b) {
                list.push((a, miles));
            }
        }
        let at = |id: &RegionId| index.get(id).copied();
        let forces: Vec<OwnForce> = report
            .forces
            .iter()
            .filter(|f| f.side == report.side && !f.stands.is_empty())
            .filter_map(|f| {
                Some(OwnForce {
                    id: f.id.clone(),
                    name: f.name.clone(),
                    region: at(&f.region)?,
                    points: f.stands.iter().map(|s| f64::from(s.strength)).sum(),
                    scout: f.stands.iter().all(|s| s.kind == StandKind::LightCavalry),
                    en_route: f.en_route.is_some(),
                    toward: f.en_route.as_ref().and_then(|e| at(&e.toward)),
                    must_rest: f.fatigue.must_rest,
                    in_battle: report
                        .battles
                        .iter()
                        .any(|b| b.forces.iter().any(|bf| bf.id == f.id)),
                    cut_moves: f.supply.cut_moves,
                    stands: f.stands.iter().map(|s| (s.id, s.kind, s.strength)).collect(),
                })
            })
            .collect();
        // A blind is guessed at the strongest enemy force seen in full, or,
        // with none seen, the side's own strongest: a blind at an HQ is as
        // likely the enemy's main body as a brigade, and the tournament
        // showed the mean (a brigade's strength) sending the body into the
        // turtle's main body at its centre HQ (`--seed 2 --only
        // commander-turtle --trace`, game move 15).
        let seen_max = report
            .known
            .iter()
            .filter(|k| k.side != report.side)
            .filter_map(|k| k.points)
            .max()
            .map(|p| p as f64);
        let guess = seen_max.unwrap_or_else(|| {
            forces
                .iter()
                .map(|f| f.points)
                .fold(None, |m: Option<f64>, p| Some(m.map_or(p, |m| m.max(p))))
                .unwrap_or(100.0)
        });
        let enemies = report
            .known
            .iter()
            .filter(|k| k.side != report.side)
            .filter_map(|k| {
                Some(EnemyForce {
                    label: k.label(),
                    marker: k.marker,
                    side: k.side.clone(),
                    region: at(&k.region)?,
                    points: k.points.map_or(guess, |p| p as f64),
                    guessed: k.points.is_none(),
                    seen_turn: k.seen_turn,
                    in_sight: k.in_sight,
                })
            })
            .collect();
        let hqs = report
            .hqs
            .iter()
            .filter_map(|h| {
                Some(KnownHq {
                    side: h.side.clone(),
                    wing: h.wing,
                    region: at(&h.region)?,
                    name: h
                        .name
                        .clone()
                        .unwrap_or_else(|| format!("{} HQ", map.region_name(&h.region))),
                    held_by: h.held_by.clone(),
                })
            })
            .collect();
        let carried = |kind: RoadKind, stop: Feature, stands_per_move: u32, rate: &dyn Fn(bool) -> f64| {
            let mut legs = vec![Vec::new(); map.regions.len()];
            for road in map.roads.iter().filter(|r| r.kind == kind) {
                let (Some(&a), Some(&b)) = (index.get(&road.from), index.get(&road.to)) else {
                    continue;
                };
                let miles = if road.miles.is_finite() && road.miles > 0.0 {
                    road.miles
                } else {
                    1.0
                };
                // A river road runs from its upstream end: from `to` to `from` is upstream.
                for (x, y, upstream) in [(a, b, false), (b, a, true)] {
                    let per_move = rate(upstream);
                    if per_move > 0.0
                        && let Some(list) = legs.get_mut(x)
                    {
                        list.push((y, miles / per_move));
                    }
                }
            }
            let stops = map
                .regions
                .iter()
                .zip(&legs)
                .map(|(r, l)| r.has(stop) && !l.is_empty())
                .collect();
            Carried {
                legs,
                stops,
                stands_per_move,
            }
        };
        let transport = &report.transport;
        let rail = carried(
            RoadKind::Railway,
            Feature::Station,
            transport.rail_stands_per_move,
            &|_| transport.rail_miles_per_move,
        );
        let river = carried(
            RoadKind::River,
            Feature::Port,
            transport.river_stands_per_move,
            &|upstream| {
                if upstream {
                    transport.river_upstream_miles_per_move
                } else {
                    transport.river_downstream_miles_per_move
                }
            },
        );
        let foot_miles_per_move = 6.0 * report.miles_per_inch * f64::from(report.days_per_turn.max(1));
        let mut lengths: Vec<f64> = neighbours.iter().flatten().map(|&(_, miles)| miles).collect();
        lengths.sort_by(f64::total_cmp);
        let move_miles = lengths.get(lengths.len() / 2).copied().unwrap_or(20.0);
        Known {
            move_miles,
            foot_miles_per_move,
            rail,
            river,
            rules: report.rules,
            grounds: map.regions.iter().map(ground_of).collect(),
            side: report.side.clone(),
            turn: report.turn,
            region_ids: map.regions.iter().map(|r| r.id.clone()).collect(),
            region_names: map.regions.iter().map(|r| r.name.clone()).collect(),
            neighbours,
            forces,
            enemies,
            hqs,
        }
    }

    pub fn region_name(&self, region: usize) -> &str {
        self.region_names.get(region).map_or("?", String::as_str)
    }

    pub fn region_id(&self, region: usize) -> Option<&RegionId> {
        self.region_ids.get(region)
    }

    /// Miles on foot from the nearest of `sources` to every region
    /// (infinite where no road leads), by Dijkstra's search.
    pub fn miles_from(&self, sources: &[usize]) -> Vec<f64> {
        let mut miles = vec![f64::INFINITY; self.neighbours.len()];
        let mut queue = BinaryHeap::new();
        for &s in sources {
            if let Some(m) = miles.get_mut(s) {
                *m = 0.0;
                queue.push(Step(0.0, s));
            }
        }
        while let Some(Step(d, region)) = queue.pop() {
            if miles.get(region).is_some_and(|&m| d > m) {
                continue;
            }
            for &(next, length) in self.neighbours.get(region).map_or(&[][..], Vec::as_slice) {
                let through = d + length;
                if let Some(m) = miles.get_mut(next)
                    && through < *m
                {
                    *m = through;
                    queue.push(Step(through, next));
                }
            }
        }
        miles
    }

    /// For every region, the next region on the quickest way on foot to
    /// `to` through no region `avoid` names (but `to`); `None` where no such
    /// way is. One search serves every force bound for `to`.
    pub fn ways_to(&self, to: usize, avoid: impl Fn(usize) -> bool) -> Vec<Option<usize>> {
        let mut miles = vec![f64::INFINITY; self.neighbours.len()];
        let mut next: Vec<Option<usize>> = vec![None; self.neighbours.len()];
        let mut queue = BinaryHeap::new();
        if let Some(m) = miles.get_mut(to) {
            *m = 0.0;
            queue.push(Step(0.0, to));
        }
        while let Some(Step(d, region)) = queue.pop() {
            if miles.get(region).is_some_and(|&m| d > m) {
                continue;
            }
            // A force in an avoided region may still leave it, but no way runs through one.
            if region != to && avoid(region) {
                continue;
            }
            for &(from, length) in self.neighbours.get(region).map_or(&[][..], Vec::as_slice) {
                let through = d + length;
                if let Some(m) = miles.get_mut(from)
                    && through < *m
                {
                    *m = through;
                    if let Some(n) = next.get_mut(from) {
                        *n = Some(region);
                    }
                    queue.push(Step(through, from));
                }
            }
        }
        next
    }

    /// HQs held by the side, and by anyone else.
    pub fn own_hqs(&self) -> impl Iterator<Item = &KnownHq> {
        self.hqs.iter().filter(|h| h.held_by == self.side)
    }

    pub fn other_hqs(&self) -> impl Iterator<Item = &KnownHq> {
        self.hqs.iter().filter(|h| h.held_by != self.side)
    }

    /// The enemy's known points in and around `region` (within `reach` miles).
    pub fn enemy_points_near(&self, miles: &[f64], reach: f64) -> f64 {
        self.enemies
            .iter()
            .filter(|e| miles.get(e.region).is_some_and(|&m| m <= reach))
            .map(|e| e.points)
            .sum()
    }
}

/// A region and its distance in the search's queue, nearest first.
#[derive(PartialEq)]
struct Step(f64, usize);

impl Eq for Step {}

impl Ord for Step {
    fn cmp(&self, other: &Self) -> Ordering {
        other.0.total_cmp(&self.0).then_with(|| self.1.cmp(&other.1))
    }
}

impl PartialOrd for Step {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
