//! The campaign the benchmarks play on: a generated map of `n` regions,
//! about three roads per region, and two forces for every ten regions, every
//! force marching on a standing order (see `benches/turn.rs`).
//!
//! The map is a jittered grid, 10 miles between neighbours, each region joined
//! to its east and south neighbours and to one diagonal neighbour below it.
//! Red holds the west half and blue the east half; each side's forces march
//! three to six regions toward the other, half of them from a band along the
//! middle, so some meet the enemy and fight.
//!
//! About one road in seven is a railway, and every region a railway reaches
//! is a station; a navigable river runs north down every tenth column, every
//! region on it a landing. One force in four that stands at a station (a
//! landing) goes by train (by steamer) along its line instead of marching.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, dead_code)]

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::cmp::Ordering;
use umpire::model::{
    ArmyKind, Campaign, Colour, Conveyance, DEFAULT_MILES_PER_INCH, Date, Fatigue, Feature, Force, ForceId,
    Hq, Map, Quality, Region, RegionId, RngState, Road, RoadKind, RuleSetId, Side, SideId, Stand, StandId,
    StandKind, StandingOrder, Supply, Terrain, Wing,
};

/// Miles between neighbouring grid points.
const SPACING: f64 = 10.0;

/// The map's regions laid out on a grid `cols` wide, and who borders whom.
struct Grid {
    map: Map,
    cols: usize,
    /// For each region, the regions a road joins it to.
    adjacent: Vec<Vec<usize>>,
}

impl Grid {
    fn col(&self, region: usize) -> usize {
        region % self.cols
    }
}

fn region_id(i: usize) -> RegionId {
    RegionId::new(format!("r{i}"))
}

/// A map of `n` regions: a grid of about sqrt(n) by sqrt(n), each region
/// joined to its east and south neighbours and to one diagonal neighbour in
/// the row below, so about three roads per region.
fn generate_map(n: usize, rng: &mut ChaCha8Rng) -> Grid {
    let cols = n.isqrt().max(2);
    let terrains = [
        Terrain::Open,
        Terrain::Cultivated,
        Terrain::Hills,
        Terrain::Desert,
    ];
    let regions: Vec<Region> = (0..n)
        .map(|i| Region {
            id: region_id(i),
            name: format!("Region {i}"),
            terrain: terrains[rng.random_range(0..terrains.len())],
            x: (i % cols) as f64 * SPACING + rng.random_range(-2.0..2.0),
            y: (i / cols) as f64 * SPACING + rng.random_range(-2.0..2.0),
            features: vec![],
            shape: vec![],
        })
        .collect();

    let mut roads = Vec::with_capacity(3 * n);
    let mut adjacent = vec![Vec::new(); n];
    let mut join = |a: usize, b: usize, rng: &mut ChaCha8Rng| {
        let (ra, rb) = (&regions[a], &regions[b]);
        let miles = (ra.x - rb.x).hypot(ra.y - rb.y) * 1.1;
        let kind = match rng.random_range(0..20) {
            0..10 => RoadKind::Road,
            10..17 => RoadKind::Track,
            _ => RoadKind::Railway,
        };
        roads.push(Road {
            from: ra.id.clone(),
            to: rb.id.clone(),
            kind,
            miles,
            river: None,
            name: None,
        });
        adjacent[a].push(b);
        adjacent[b].push(a);
    };
    for i in 0..n {
        let col = i % cols;
        if col + 1 < cols && i + 1 < n {
            join(i, i + 1, rng);
        }
        if i + cols < n {
            join(i, i + cols, rng);
        }
        // One diagonal down-left or down-right. Only region `i` makes roads
        // to the row below on a diagonal, so no pair is joined twice.
        let diagonal = if rng.random_bool(0.5) {
            (col + 1 < cols).then(|| i + cols + 1)
        } else {
            (col > 0).then(|| i + cols - 1)
        };
        if let Some(j) = diagonal.filter(|&j| j < n) {
            join(i, j, rng);
        }
    }

    // Rivers down every tenth column, written from upstream (south) to
    // downstream (north), beside the roads; their regions are landings.
    let mut regions = regions;
    for col in (5..cols).step_by(10) {
        let mut row = 0;
        while (row + 1) * cols + col < n {
            let (a, b) = ((row + 1) * cols + col, row * cols + col);
            let miles = (regions[a].x - regions[b].x).hypot(regions[a].y - regions[b].y) * 1.2;
            roads.push(Road {
                from: regions[a].id.clone(),
                to: regions[b].id.clone(),
                kind: RoadKind::River,
                miles,
                river: None,
                name: None,
            });
            for r in [a, b] {
                if !regions[r].features.contains(&Feature::Port) {
                    regions[r].features.push(Feature::Port);
                }
            }
            row += 1;
        }
    }
    for road in &roads {
        if road.kind == RoadKind::Railway {
            for id in [&road.from, &road.to] {
                let r = id.as_str()[1..].parse::<usize>().unwrap();
                if !regions[r].features.contains(&Feature::Station) {
                    regions[r].features.push(Feature::Station);
                }
            }
        }
    }

    let map = Map {
        name: format!("Generated map of {n} regions"),
        description: None,
        regions,
        roads,
        background: None,
        waters: Vec::new(),
    };
    Grid { map, cols, adjacent }
}

/// 4 to 12 stands of mixed kinds, numbered on from `next_stand`.
fn generate_stands(rng: &mut ChaCha8Rng, next_stand: &mut u32) -> Vec<Stand> {
    let kinds = [
        StandKind::LineInfantry,
        StandKind::LineInfantry,
        StandKind::LightInfantry,
        StandKind::HeavyCavalry,
        StandKind::LightCavalry,
        StandKind::FootArtillery,
    ];
    let qualities = [Quality::Elite, Quality::Trained, Quality::Trained, Quality::Raw];
    (0..rng.random_range(4..=12))
        .map(|_| {
            let kind = kinds[rng.random_range(0..kinds.len())];
            let id = *next_stand;
            *next_stand += 1;
            Stand {
                id: StandId(id),
                name: format!("{} {id}", kind.label()),
                kind,
                quality: qualities[rng.random_range(0..qualities.len())],
                strength: kind.roster_points(),
                full: kind.roster_points(),
            }
        })
        .collect()
}

/// A march of 3 to 6 regions from `start`, each a neighbour of the last,
/// toward the enemy's edge of the map (`east`: toward the east): a step
/// forward when there is one, else a step along the column, never back.
fn march_path(grid: &Grid, start: usize, east: bool, rng: &mut ChaCha8Rng) -> Vec<RegionId> {
    let mut path = Vec::new();
    let mut visited = vec![start];
    let mut here = start;
    for _ in 0..rng.random_range(3..=6) {
        let steps_toward = |next: usize| {
            let (from, to) = (grid.col(here), grid.col(next));
            if east { to.cmp(&from) } else { from.cmp(&to) }
        };
        let unvisited = grid.adjacent[here]
            .iter()
            .copied()
            .filter(|n| !visited.contains(n));
        let (forward, along): (Vec<usize>, Vec<usize>) = unvisited
            .filter(|&n| steps_toward(n) != Ordering::Less)
            .partition(|&n| steps_toward(n) == Ordering::Greater);
        let choices = if forward.is_empty() { along } else { forward };
        if choices.is_empty() {
            break;
        }
        here = choices[rng.random_range(0..choices.len())];
        visited.push(here);
        path.push(region_id(here));
    }
    path
}

/// The campaign on a generated map of `n` regions with `n / 5` forces.
pub fn generate_campaign(n: usize) -> Campaign {
    let mut rng = ChaCha8Rng::seed_from_u64(1895);
    let grid = generate_map(n, &mut rng);
    let cols = grid.cols;
    let full_rows = n / cols;
    let half = cols / 2;
    let front = (cols / 8).max(2).min(half);
    let at = |row: usize, col: usize| row * cols + col;

    let side = |id: &str, name: &str, colour: [u8; 3]| Side {
        id: SideId::new(id),
        name: name.to_owned(),
        colour: Colour(colour),
        army: ArmyKind::Regular,
    };
    let sides = vec![
        side("red", "Red Army", [0xc0, 0x20, 0x20]),
        side("blue", "Blue Army", [0x20, 0x40, 0xc0]),
    ];

    // Three HQs a side near its own edge, a sixth, half and five sixths down.
    let mut hqs = Vec::new();
    for (side_id, col) in [("red", 1), ("blue", cols - 2)] {
        let side = SideId::new(side_id);
        for (wing, row) in [
            (Wing::Left, full_rows / 6),
            (Wing::Centre, full_rows / 2),
            (Wing::Right, full_rows * 5 / 6),
        ] {
            hqs.push(Hq {
                side: side.clone(),
                wing,
                region: region_id(at(row, col)),
                name: None,
                held_by: side.clone(),
                captured_turn: None,
            });
        }
    }

    let mut next_stand = 1;
    let forces = (0..n / 5)
        .map(|k| {
            let red = k % 2 == 0;
            let row = rng.random_range(0..full_rows);
            // Half of each side's forces stand in a band along the middle,
            // the front; the rest anywhere in its own half.
            let depth = if rng.random_bool(0.5) { front } else { half };
            let col = if red {
                half - 1 - rng.random_range(0..depth)
            } else {
                half + rng.random_range(0..depth)
            };
            let region = at(row, col);
            Force {
                id: ForceId::new(format!("f{k}")),
                name: format!("Column {k}"),
                side: SideId::new(if red { "red" } else { "blue" }),
                region: region_id(region),
                stands: generate_stands(&mut rng, &mut next_stand),
                en_route: None,
                order: StandingOrder::March {
                    path: march_path(&grid, region, red, &mut rng),
                    forced: false,
                    by: Conveyance::Foot,
                },
                fatigue: Fatigue::default(),
                supply: Supply::default(),
                fallen_out: Vec::new(),
            }
        })
        .collect::<Vec<Force>>();
    let mut forces = forces;
    carried_orders(&grid, &mut forces);

    Campaign {
        title: format!("Benchmark campaign of {n} regions"),
        description: None,
        map: grid.map,
        turn: 1,
        start_turn: 1,
        start_date: Date::from_ymd(1895, 3, 1).unwrap(),
        days_per_turn: 1,
        rules: RuleSetId::Scruby1965,
        rng: RngState::new(1895),
        miles_per_inch: DEFAULT_MILES_PER_INCH,
        transport: Default::default(),
        sides,
        hqs,
        forces,
        battles: vec![],
        knowledge: Default::default(),
        reinforcements: Vec::new(),
        replacements: Vec::new(),
        house_rules: Default::default(),
        end: Default::default(),
    }
}

/// One force in four at a station (a landing) goes by train (by steamer)
/// instead: up to four stops along its railway (its river), never back.
fn carried_orders(grid: &Grid, forces: &mut [Force]) {
    let index = |id: &RegionId| id.as_str()[1..].parse::<usize>().unwrap();
    let mut lines: Vec<Vec<(usize, RoadKind)>> = vec![Vec::new(); grid.map.regions.len()];
    for road in &grid.map.roads {
        if matches!(road.kind, RoadKind::Railway | RoadKind::River) {
            let (a, b) = (index(&road.from), index(&road.to));
            lines[a].push((b, road.kind));
            lines[b].push((a, road.kind));
        }
    }
    for (k, force) in forces.iter_mut().enumerate() {
        if k % 4 != 3 {
            continue;
        }
        let start = index(&force.region);
        for (kind, by) in [
            (RoadKind::Railway, Conveyance::Rail),
            (RoadKind::River, Conveyance::River),
        ] {
            let mut path = Vec::new();
            let mut here = start;
            let mut seen = vec![start];
            while path.len() < 4 {
                let Some(next) = lines[here]
                    .iter()
                    .find(|(n, k)| *k == kind && !seen.contains(n))
                    .map(|(n, _)| *n)
                else {
                    break;
                };
                seen.push(next);
                path.push(region_id(next));
                here = next;
            }
            if !path.is_empty() {
                force.order = StandingOrder::March {
                    path,
                    forced: false,
                    by,
                };
                break;
            }
        }
    }
}
