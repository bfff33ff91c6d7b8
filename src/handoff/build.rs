//! A pending campaign battle becomes a tactical scenario.
//!
//! The table is turned so that the attacker's main approach is the near edge
//! (high y) and the defender holds the far half (low y); every other force
//! comes on at the edge that faces the region it marched in from (a reserve:
//! the region it stands in). Terrain is laid by the battle's own seeded
//! stream in proportion to the region's terrain, with its named features.

use super::HandoffError;
use crate::model::{
    Battle, Campaign, Feature, Force, Hq, Region, RegionId, RiverCrossing, RuleSetId, Terrain,
};
use crate::rules;
use crate::rules::board::floor;
use crate::scenario::{
    Area, Cover, Ground, Objective, ObjectiveKind, Patch, Reserve, Role, Scenario, ScenarioSide, Table,
    TableStand,
};
use crate::strategy::movement::{MARCH_HOURS_PER_DAY, miles_per_move};
use rand::{Rng, RngExt};
use rand_chacha::ChaCha8Rng;

/// One edge of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Edge {
    /// High y: the attacker's main approach.
    Near,
    /// Low y: behind the defender.
    Far,
    /// x = 0, on the attacker's left as it looks up the table.
    Left,
    /// x = width, on its right.
    Right,
}

impl Edge {
    pub fn label(self) -> &'static str {
        match self {
            Edge::Near => "near edge",
            Edge::Far => "far edge",
            Edge::Left => "left edge",
            Edge::Right => "right edge",
        }
    }
}

/// How one force comes to the table.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ForceEntry {
    pub force: crate::model::ForceId,
    pub name: String,
    pub side: crate::model::SideId,
    pub edge: Edge,
    /// The region it comes from, if it marched in or stands near.
    pub from: Option<RegionId>,
    /// 0: on the table at the start; otherwise the turn it arrives on.
    pub arrives: u32,
}

/// What the hand-off decided beyond the scenario itself, for the briefing.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct TablePlan {
    /// The compass direction the near edge faces, from the battle region.
    pub near_faces: &'static str,
    /// Likewise the far, left and right edges.
    pub far_faces: &'static str,
    pub left_faces: &'static str,
    pub right_faces: &'static str,
    pub forces: Vec<ForceEntry>,
    /// Hours of the battle day one tactical turn stands for.
    pub hours_a_turn: f64,
}

/// The scenario and the plan that made it.
#[derive(Debug, Clone, PartialEq)]
pub struct Handoff {
    pub scenario: Scenario,
    pub plan: TablePlan,
}

/// The table each rule set is played on.
#[derive(Debug, Clone, Copy)]
struct TableSpec {
    /// Cells across and deep at the least.
    width: u32,
    depth: u32,
    cell_inches: f64,
    grid: bool,
    /// Stands a cell holds, for widening a grid table for big armies; 0: an
    /// inch table, never widened.
    per_cell: u32,
    turn_limit: u32,
}

fn table_spec(rules: RuleSetId) -> TableSpec {
    match rules {
        // cordery-2009-late-19th-century-rules.txt, The Battlefield: "The grid
        // is marked in 50mm squares. The battlefield must be no less than 12
        // squares wide and 12 squares deep ... No more than two stands may be
        // placed in a square"; Game Length: twelve turns.
        RuleSetId::Cordery2009 => TableSpec {
            width: 18,
            depth: 12,
            cell_inches: 2.0,
            grid: true,
            per_cell: 2,
            turn_limit: 12,
        },
        // harman-2021-toy-soldier-battles.txt: "a square gridded battlefield
        // ... The sides of the squares should be equal to the frontage of a
        // battalion/musketry range"; one unit a square. Size and length are
        // this program's choice (the seed gives none).
        RuleSetId::Harman2021 => TableSpec {
            width: 16,
            depth: 12,
            cell_inches: 6.0,
            grid: true,
            per_cell: 1,
            turn_limit: 12,
        },
        // scruby-1961-strategy-tactical-wargame.txt, BASIC CONCEPTION: "an 8
        // foot long table top represents almost a five mile area"; towns "no
        // larger than 6 inches square", forests in 2-inch squares (Figures 2-3).
        // No turn limit in the seed: 30 moves, enough for foot in column
        // (4 inches a move, MOVEMENT) to cross the table and fight.
        RuleSetId::Scruby1961 => TableSpec {
            width: 48,
            depth: 36,
            cell_inches: 2.0,
            grid: false,
            per_cell: 0,
            turn_limit: 30,
        },
        // scruby-basic-war-game-rules.txt, scale note: a six-foot-deep table
        // ("Length of the table does not matter"); eight feet across.
        // scruby-1965-unbalanced-equality.txt plays on the same 8 x 6 ft table
        // (its stands are 3 inches by 2; the cell is one stand's front).
        RuleSetId::ScrubyBasic | RuleSetId::Scruby1965 => TableSpec {
            width: 32,
            depth: 24,
            cell_inches: 3.0,
            grid: false,
            per_cell: 0,
            turn_limit: 12,
        },
    }
}

/// Largest width a grid table is widened to: this program's choice (ten feet
/// of Cordery's 50 mm squares); the seeds set only the least size.
const MAX_GRID_WIDTH: u32 = 60;

/// The scenario for pending battle `battle_id` under rule set `rules`.
pub fn build(campaign: &Campaign, battle_id: u32, rules: RuleSetId) -> Result<Handoff, HandoffError> {
    let battle = super::pending_battle(campaign, battle_id)?;
    if rules::rule_set(rules).is_none() {
        return Err(HandoffError::RulesNotBuilt(rules));
    }
    let region = campaign.map.region(&battle.region).ok_or_else(|| {
        HandoffError::Damaged(format!(
            "battle {battle_id} is in unknown region `{}`",
            battle.region
        ))
    })?;
    let mut rng = campaign.rng.battle_stream(battle.id);
    let seed = rng.next_u64();

    // Who comes from where.
    let forces = engaged_forces(campaign, battle);
    let attacker_dir = main_direction(campaign, battle, region, &forces);
    let spec = table_spec(rules);
    let on_table_count = |side: &crate::model::SideId| -> u32 {
        forces
            .iter()
            .filter(|e| &e.force.side == side)
            .map(|e| count_u32(e.force.stands.iter().filter(|s| s.strength > 0).count()))
            .sum()
    };
    let mut width = spec.width;
    if spec.per_cell > 0 {
        // A deployment zone three rows deep must hold the larger side.
        let most = on_table_count(&battle.attacker).max(on_table_count(&battle.defender));
        let needed = most.div_ceil(spec.per_cell * 3) + 4;
        width = width.max(needed).min(MAX_GRID_WIDTH);
    }
    let depth = spec.depth;
    let zone = zone_depth(spec);

    // Terrain.
    let mut lay = Layout::new(width, depth, &mut rng);
    let approaches: Vec<Edge> = forces
        .iter()
        .filter_map(|e| e.dir.map(|d| edge_of(attacker_dir, d)))
        .collect();
    lay.terrain(region, campaign, battle, &approaches);

    // Orders of battle.
    let hours_a_turn = f64::from(MARCH_HOURS_PER_DAY) / f64::from(spec.turn_limit.max(1));
    let mut entries = Vec::new();
    let mut sides = Vec::new();
    for (side_id, role) in [
        (&battle.defender, Role::Defender),
        (&battle.attacker, Role::Attacker),
    ] {
        let Some(side) = campaign.side(side_id) else {
            return Err(HandoffError::Damaged(format!(
                "battle {battle_id} names unknown side `{side_id}`"
            )));
        };
        let deployment = match role {
            Role::Defender => Area {
                x: 1,
                y: 0,
                w: width.saturating_sub(2).max(1),
                // Down to its own bank of the river, if there is one: the
                // crossing is the objective, not a place to deploy beyond
                // (this program's choice, issue 14). Down to its own
                // entrenchments, where a fort or an HQ has them, short of
                // the attacker's zone: a garrison starts in its works
                // rather than racing the attacker to them.
                h: lay
                    .river_y
                    .unwrap_or_else(|| {
                        let works = lay.entrenched_y.map_or(0, |y| y + 1);
                        (depth * 2 / 5).max(works.min(depth.saturating_sub(zone + 1)))
                    })
                    .clamp(1, depth),
            },
            Role::Attacker => edge_area(Edge::Near, width, depth, zone),
        };
        let mut stands = Vec::new();
        let mut reserves: Vec<Reserve> = Vec::new();
        for e in forces.iter().filter(|e| &e.force.side == side_id) {
            let edge = match (e.dir, role) {
                (Some(d), _) => edge_of(attacker_dir, d),
                (None, Role::Attacker) => Edge::Near,
                (None, Role::Defender) => Edge::Far,
            };
            let arrives = if e.reserve {
                arrival_turn(campaign, e.force, &battle.region, hours_a_turn)
            } else {
                0
            };
            let table_stands: Vec<TableStand> = e
                .force
                .stands
                .iter()
                .filter(|s| s.strength > 0)
                .map(table_stand)
                .collect();
            entries.push(ForceEntry {
                force: e.force.id.clone(),
                name: e.force.name.clone(),
                side: side_id.clone(),
                edge,
                from: e.from.clone(),
                arrives,
            });
            // Forces in the main body's place deploy with it; others come on
            // at their own edge, those in the battle on the first turn.
            let main_edge = if role == Role::Attacker {
                Edge::Near
            } else {
                Edge::Far
            };
            if arrives == 0 && (edge == main_edge || e.dir.is_none()) {
                stands.extend(table_stands);
                continue;
            }
            let turn = arrives.max(1);
            let area = own_bank(
                edge_area(edge, width, depth, zone),
                edge,
                role,
                lay.river_y,
                depth,
            );
            match reserves.iter_mut().find(|r| r.turn == turn && r.area == area) {
                Some(r) => r.stands.extend(table_stands),
                None => reserves.push(Reserve {
                    turn,
                    area,
                    stands: table_stands,
                }),
            }
        }
        reserves.sort_by_key(|r| r.turn);
        if stands.is_empty()
            && let Some(first) = reserves.first_mut()
        {
            // A side with nothing on the table at the start brings its first
            // arrivals on at once, where they come from.
            first.turn = 1;
        }
        sides.push(ScenarioSide {
            id: side.id.as_str().to_owned(),
            name: side.name.clone(),
            army: side.army,
            role,
            colour: Some(side.colour),
            deployment,
            stands,
            reserves,
        });
    }

    let objectives = lay.objectives(campaign, battle, region);
    let plan = TablePlan {
        near_faces: compass(attacker_dir),
        far_faces: compass((-attacker_dir.0, -attacker_dir.1)),
        left_faces: compass(left_of(attacker_dir)),
        right_faces: compass((-left_of(attacker_dir).0, -left_of(attacker_dir).1)),
        forces: entries,
        hours_a_turn,
    };
    let scenario = Scenario {
        title: format!(
            "The battle at {} (game move {}, battle {})",
            region.name, battle.turn, battle.id
        ),
        rules,
        seed,
        turn_limit: spec.turn_limit,
        table: Table {
            width,
            depth,
            cell_inches: spec.cell_inches,
            grid: spec.grid,
            terrain: lay.patches,
        },
        sides,
        objectives,
        notes: Some(format!(
            "Made by umpire from campaign \"{}\", battle {} at {}. One turn is {:.0} minutes of the battle day.",
            campaign.title,
            battle.id,
            region.name,
            hours_a_turn * 60.0
        )),
    };
    let problems = scenario.problems();
    if let Some(first) = problems.first() {
        return Err(HandoffError::Damaged(format!(
            "the scenario made for battle {battle_id} is unusable: {first}"
        )));
    }
    Ok(Handoff { scenario, plan })
}

fn count_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Depth in cells of a deployment strip at an edge: three rows on a grid,
/// about a foot on an inch table.
fn zone_depth(spec: TableSpec) -> u32 {
    if spec.grid {
        3
    } else {
        // A foot of table, in whole cells: 12 inches over the cell size
        // (this program's choice: about a move and a half of foot).
        floor_u32(12.0 / spec.cell_inches + 0.5).clamp(1, spec.depth.max(1))
    }
}

/// The strip along `edge`, `zone` cells deep, leaving the corners free.
fn edge_area(edge: Edge, width: u32, depth: u32, zone: u32) -> Area {
    let zone_x = zone.min(width).max(1);
    let zone_y = zone.min(depth).max(1);
    match edge {
        Edge::Near => Area {
            x: 1.min(width.saturating_sub(1)),
            y: depth.saturating_sub(zone_y),
            w: width.saturating_sub(2).max(1),
            h: zone_y,
        },
        Edge::Far => Area {
            x: 1.min(width.saturating_sub(1)),
            y: 0,
            w: width.saturating_sub(2).max(1),
            h: zone_y,
        },
        Edge::Left => Area {
            x: 0,
            y: depth / 4,
            w: zone_x,
            h: (depth / 2).max(1),
        },
        Edge::Right => Area {
            x: width.saturating_sub(zone_x),
            y: depth / 4,
            w: zone_x,
            h: (depth / 2).max(1),
        },
    }
}

/// A flank arrival area (left or right edge) cut to the side's own bank of
/// the river: the strip between the river and the side's own edge, so a
/// force coming on at a flank is not set down across the water from its
/// side. Arrivals at the near and far edges come where they marched from.
fn own_bank(area: Area, edge: Edge, role: Role, river_y: Option<u32>, depth: u32) -> Area {
    let Some(r) = river_y else { return area };
    if !matches!(edge, Edge::Left | Edge::Right) {
        return area;
    }
    let (y0, y1) = match role {
        // Rows 0 .. r: the far bank.
        Role::Defender => (0, r),
        // Rows r + 1 .. depth: the near bank.
        Role::Attacker => (r.saturating_add(1).min(depth.saturating_sub(1)), depth),
    };
    let span = y1.saturating_sub(y0).max(1);
    // The middle half of that bank's length of the edge.
    Area {
        y: y0 + span / 4,
        h: (span - span / 4 - span / 8).max(1),
        ..area
    }
}

/// A force in the battle, or near it as a reserve, and where it comes from.
struct Engaged<'c> {
    force: &'c Force,
    reserve: bool,
    from: Option<RegionId>,
    /// Map direction from the battle region toward `from` (east, south), unit length.
    dir: Option<(f64, f64)>,
}

fn engaged_forces<'c>(campaign: &'c Campaign, battle: &Battle) -> Vec<Engaged<'c>> {
    let here = campaign.map.region(&battle.region);
    let toward = |from: &RegionId| -> Option<(f64, f64)> {
        let (a, b) = (here?, campaign.map.region(from)?);
        unit((b.x - a.x, b.y - a.y))
    };
    let mut out = Vec::new();
    for (ids, reserve) in [(&battle.forces, false), (&battle.reserves, true)] {
        for id in ids {
            let Some(force) = campaign.force(id) else { continue };
            if force.stands.iter().all(|s| s.strength == 0) {
                continue;
            }
            let from = if reserve {
                Some(force.region.clone())
            } else {
                battle
                    .came_from
                    .iter()
                    .find(|a| &a.force == id)
                    .map(|a| a.from.clone())
            };
            let dir = from.as_ref().and_then(toward);
            out.push(Engaged {
                force,
                reserve,
                from,
                dir,
            });
        }
    }
    out
}

/// The attacker's main approach, as a map direction from the battle region:
/// the points-weighted mean of its forces' approaches; failing that, away
/// from the defender's; failing that, from the south.
fn main_direction(
    campaign: &Campaign,
    battle: &Battle,
    region: &Region,
    forces: &[Engaged<'_>],
) -> (f64, f64) {
    let mean = |side: &crate::model::SideId| {
        let mut sum = (0.0, 0.0);
        for e in forces.iter().filter(|e| &e.force.side == side && !e.reserve) {
            if let Some(d) = e.dir {
                #[allow(clippy::cast_precision_loss)]
                let w = e.force.points() as f64;
                sum = (sum.0 + d.0 * w, sum.1 + d.1 * w);
            }
        }
        unit(sum)
    };
    if let Some(d) = mean(&battle.attacker) {
        return d;
    }
    if let Some(d) = mean(&battle.defender) {
        return (-d.0, -d.1);
    }
    // Toward the attacker's nearest HQ, then from the south.
    campaign
        .hqs_held_by(&battle.attacker)
        .filter_map(|h| campaign.map.region(&h.region))
        .filter_map(|r| unit((r.x - region.x, r.y - region.y)))
        .next()
        .unwrap_or((0.0, 1.0))
}

fn unit(v: (f64, f64)) -> Option<(f64, f64)> {
    let len = v.0.hypot(v.1);
    (len.is_finite() && len > 1e-9).then(|| (v.0 / len, v.1 / len))
}

/// The direction on the attacker's left as it faces up the table (into the
/// battle, against `near`). Map y grows southward.
fn left_of(near: (f64, f64)) -> (f64, f64) {
    // Facing f = -near; on a y-down map the left of f is (f.y, -f.x).
    (-near.1, near.0)
}

/// The table edge facing map direction `dir`, with the near edge facing `near`.
pub(crate) fn edge_of(near: (f64, f64), dir: (f64, f64)) -> Edge {
    let along = near.0 * dir.0 + near.1 * dir.1;
    let l = left_of(near);
    let across = l.0 * dir.0 + l.1 * dir.1;
    if along.abs() >= across.abs() {
        if along >= 0.0 { Edge::Near } else { Edge::Far }
    } else if across > 0.0 {
        Edge::Left
    } else {
        Edge::Right
    }
}

/// A map direction as a compass point (x east, y south).
fn compass(dir: (f64, f64)) -> &'static str {
    const POINTS: [&str; 8] = [
        "east",
        "south-east",
        "south",
        "south-west",
        "west",
        "north-west",
        "north",
        "north-east",
    ];
    let angle = dir.1.atan2(dir.0).to_degrees().rem_euclid(360.0);
    // 0..8 by construction; `% 8` folds exactly 360 back to east.
    let i = usize::try_from(floor((angle + 22.5) / 45.0)).unwrap_or(0) % 8;
    POINTS.get(i).copied().unwrap_or("south")
}

/// The turn a reserve reaches the table: its march from its region along the
/// best road, at its slowest stand's road rate (the movement chart of
/// `scruby-basic-war-game-rules.txt`, as the strategic moves use), one
/// tactical turn standing for `hours_a_turn` of the battle day.
fn arrival_turn(campaign: &Campaign, force: &Force, battle_region: &RegionId, hours_a_turn: f64) -> u32 {
    let (Some(from), Some(to)) = (
        campaign.map.region(&force.region),
        campaign.map.region(battle_region),
    ) else {
        return 1;
    };
    let hours = campaign
        .map
        .roads_from(&force.region)
        .filter(|r| r.other_end(&force.region) == Some(battle_region) && r.river != Some(RiverCrossing::None))
        .filter_map(|r| {
            let mpm = miles_per_move(campaign, force, r, from.terrain, to.terrain);
            let mph = mpm / f64::from(MARCH_HOURS_PER_DAY);
            (mph > 0.0).then(|| r.miles / mph)
        })
        .fold(f64::INFINITY, f64::min);
    if !hours.is_finite() || hours_a_turn <= 0.0 {
        return 1;
    }
    u32::try_from(floor(hours / hours_a_turn).saturating_add(1)).unwrap_or(u32::MAX)
}

fn table_stand(s: &crate::model::Stand) -> TableStand {
    TableStand {
        id: s.id,
        name: s.name.clone(),
        kind: s.kind,
        quality: s.quality,
        strength: s.strength,
        full: s.full.max(s.strength),
        at: None,
        weapon: None,
    }
}

/// Shares of the table each region terrain covers with each kind of ground.
/// This program's own proportions: the seeds lay terrain by hand.
#[derive(Debug, Clone, Copy)]
struct Mix {
    hills: f64,
    woods: f64,
    crops: f64,
    hedges: u32,
    built: f64,
    marsh: f64,
}

fn mix(terrain: Terrain) -> Mix {
    let m = |hills, woods, crops, hedges, built, marsh| Mix {
        hills,
        woods,
        crops,
        hedges,
        built,
        marsh,
    };
    match terrain {
        Terrain::Open => m(0.06, 0.05, 0.04, 1, 0.0, 0.0),
        Terrain::Desert => m(0.10, 0.0, 0.0, 0, 0.0, 0.0),
        Terrain::Cultivated => m(0.03, 0.04, 0.25, 4, 0.02, 0.0),
        Terrain::Hills => m(0.30, 0.06, 0.0, 0, 0.0, 0.0),
        Terrain::Mountains => m(0.45, 0.04, 0.0, 0, 0.0, 0.0),
        Terrain::Forest => m(0.05, 0.35, 0.0, 0, 0.0, 0.0),
        Terrain::Marsh => m(0.0, 0.04, 0.0, 0, 0.0, 0.20),
        Terrain::Urban => m(0.0, 0.0, 0.02, 2, 0.20, 0.0),
    }
}

/// The terrain being laid, with the places objectives will name.
struct Layout<'r> {
    width: u32,
    depth: u32,
    rng: &'r mut ChaCha8Rng,
    patches: Vec<Patch>,
    /// Cells covered so far by each kind, to reach the mix's shares.
    town: Option<(u32, u32)>,
    bridge: Option<(u32, u32)>,
    crossroads: Option<(u32, u32)>,
    /// The row of the river, if there is one.
    river_y: Option<u32>,
    /// The row of a fort's or an HQ's entrenchments, if any.
    entrenched_y: Option<u32>,
}

impl<'r> Layout<'r> {
    fn new(width: u32, depth: u32, rng: &'r mut ChaCha8Rng) -> Layout<'r> {
        Layout {
            width,
            depth,
            rng,
            patches: Vec::new(),
            town: None,
            bridge: None,
            crossroads: None,
            river_y: None,
            entrenched_y: None,
        }
    }

    fn cells(&self) -> f64 {
        f64::from(self.width) * f64::from(self.depth)
    }

    fn patch(&mut self, area: Area, ground: Option<Ground>, level: Option<u8>, cover: Option<Cover>) {
        self.patches.push(Patch {
            area,
            ground,
            level,
            road: None,
            cover,
        });
    }

    /// A random rectangle of about `size` cells a side, inside the table.
    fn blob(&mut self, w: u32, h: u32) -> Area {
        let w = w.clamp(1, self.width.max(1));
        let h = h.clamp(1, self.depth.max(1));
        let x = self.rng.random_range(0..=self.width.saturating_sub(w));
        let y = self.rng.random_range(0..=self.depth.saturating_sub(h));
        Area { x, y, w, h }
    }

    fn scale(&self) -> u32 {
        (self.width.min(self.depth) / 6).max(1)
    }

    fn terrain(&mut self, region: &Region, campaign: &Campaign, battle: &Battle, approaches: &[Edge]) {
        let mix = mix(region.terrain);
        let total = self.cells();
        let s = self.scale();
        // Crops, then marsh, hills and woods, each to its share of the table.
        let fill = |lay: &mut Layout<'_>, share: f64, kind: u8| {
            let mut covered = 0.0;
            let mut tries = 0;
            while covered < share * total && tries < 200 {
                tries += 1;
                let (w, h) = (lay.rng.random_range(s..=s * 3), lay.rng.random_range(s..=s * 2));
                let area = lay.blob(w, h);
                covered += f64::from(area.w) * f64::from(area.h);
                match kind {
                    0 => lay.patch(area, Some(Ground::TallCrops), None, None),
                    1 => lay.patch(area, Some(Ground::Ford), None, None),
                    2 => {
                        lay.patch(area, None, Some(1), None);
                        // A crest on the bigger hills.
                        if area.w > 2 && area.h > 2 && lay.rng.random_bool(0.5) {
                            let crest = Area {
                                x: area.x + area.w / 4,
                                y: area.y + area.h / 4,
                                w: (area.w / 2).max(1),
                                h: (area.h / 2).max(1),
                            };
                            let level = if region.terrain == Terrain::Mountains {
                                3
                            } else {
                                2
                            };
                            lay.patch(crest, None, Some(level), None);
                        }
                    }
                    _ => {
                        lay.patch(area, Some(Ground::ForestEdge), None, None);
                        if area.w > 2 && area.h > 2 {
                            let inner = Area {
                                x: area.x + 1,
                                y: area.y + 1,
                                w: area.w - 2,
                                h: area.h - 2,
                            };
                            lay.patch(inner, Some(Ground::ForestInterior), None, None);
                        }
                    }
                }
            }
        };
        fill(self, mix.crops, 0);
        fill(self, mix.marsh, 1);
        fill(self, mix.hills, 2);
        fill(self, mix.woods, 3);
        for _ in 0..mix.hedges {
            let long = self.rng.random_bool(0.5);
            let area = if long {
                self.blob(s * 3, 1)
            } else {
                self.blob(1, s * 3)
            };
            self.patch(area, None, None, Some(Cover::WallOrHedge));
        }

        // A river across the table between the sides, if the region has a
        // bridge or ford or a road into it crosses water.
        let crossing = campaign
            .map
            .roads_from(&region.id)
            .filter_map(|r| r.river)
            .find(|c| *c != RiverCrossing::None);
        let has_bridge = region.has(Feature::Bridge) || crossing == Some(RiverCrossing::Bridge);
        let has_ford = region.has(Feature::Ford) || crossing == Some(RiverCrossing::Ford);
        // Before the defender's key place, so the defender can hold the crossing.
        let river_y = (has_bridge || has_ford).then_some(self.depth * 2 / 5);
        self.river_y = river_y;

        let cx = self.width / 2;
        // Built-up ground: the town, villages and farms, on the defender's half.
        let town_size = if region.terrain == Terrain::Urban || region.has(Feature::Town) {
            Some((s * 2 + 1).min(self.width / 3).max(2))
        } else if region.has(Feature::Village) {
            Some((s + 1).max(2))
        } else {
            None
        };
        if let Some(size) = town_size {
            // On the defender's side of the river, clear of it.
            let size = river_y.map_or(size, |r| size.min(r).max(1));
            let x = cx.saturating_sub(size / 2);
            let y = match river_y {
                Some(r) => r.saturating_sub(size + 1),
                None => (self.depth / 4).saturating_sub(size / 2),
            };
            let town = Area {
                x,
                y,
                w: size.min(self.width),
                h: size.min(self.depth),
            };
            self.patch(town, Some(Ground::BuiltUpOuter), Some(0), None);
            if size > 2 {
                let inner = Area {
                    x: x + 1,
                    y: y + 1,
                    w: size - 2,
                    h: size - 2,
                };
                self.patch(inner, Some(Ground::BuiltUpInner), Some(0), None);
            }
            let (tx, ty) = town.centre();
            self.town = Some((floor_u32(tx), floor_u32(ty)));
            let mut built = f64::from(size * size);
            let mut tries = 0;
            while built < mix.built * self.cells() && tries < 50 {
                tries += 1;
                let area = self.blob(s, s);
                built += f64::from(area.w * area.h);
                self.patch(area, Some(Ground::BuiltUpOuter), None, None);
            }
        }
        for feature in [Feature::Farm, Feature::Station, Feature::Port] {
            if region.has(feature) {
                let area = self.blob(2, 2);
                self.patch(area, Some(Ground::BuiltUpOuter), None, None);
                if feature == Feature::Farm {
                    let wall = Area {
                        x: area.x.saturating_sub(1),
                        y: area.y.saturating_sub(1),
                        w: (area.w + 2).min(self.width),
                        h: 1,
                    };
                    self.patch(wall, None, None, Some(Cover::WallOrHedge));
                }
            }
        }
        // The river, the roads and the crossings go over whatever lies there.
        if let Some(y) = river_y {
            self.patch(
                Area {
                    x: 0,
                    y,
                    w: self.width,
                    h: 1,
                },
                Some(Ground::River),
                Some(0),
                None,
            );
        }
        // Roads: from each approach edge to the centre, and the main road
        // from the near edge to the far one.
        let cy = self.depth / 2;
        self.crossroads = Some((cx, cy));
        let mut edges: Vec<Edge> = vec![Edge::Near, Edge::Far];
        for e in approaches {
            if !edges.contains(e) {
                edges.push(*e);
            }
        }
        for e in edges {
            let area = match e {
                Edge::Near => Area {
                    x: cx,
                    y: cy,
                    w: 1,
                    h: self.depth - cy,
                },
                Edge::Far => Area {
                    x: cx,
                    y: 0,
                    w: 1,
                    h: cy + 1,
                },
                Edge::Left => Area {
                    x: 0,
                    y: cy,
                    w: cx + 1,
                    h: 1,
                },
                Edge::Right => Area {
                    x: cx,
                    y: cy,
                    w: self.width - cx,
                    h: 1,
                },
            };
            // Roads run over open ground: clear woods and crops under them.
            self.patches.push(Patch {
                area,
                ground: Some(Ground::Open),
                level: None,
                road: Some(true),
                cover: None,
            });
        }
        if let Some(y) = river_y {
            let ground = if has_bridge { Ground::Bridge } else { Ground::Ford };
            self.patch(Area { x: cx, y, w: 1, h: 1 }, Some(ground), Some(0), None);
            self.bridge = Some((cx, y));
            if has_bridge && has_ford {
                let x = self.width / 5;
                self.patch(Area { x, y, w: 1, h: 1 }, Some(Ground::Ford), Some(0), None);
            }
        }

        // A fort or an HQ: entrenchments before the defender's key place.
        let hq_here = campaign
            .hqs
            .iter()
            .any(|h| h.region == battle.region && h.held_by == battle.defender);
        if region.has(Feature::Fort) || hq_here {
            let (kx, ky) = self.town.unwrap_or((cx, self.depth / 4));
            // Before the key place, but on the defender's own bank.
            let mut y = (ky + s + 1).min(self.depth.saturating_sub(1));
            if let Some(r) = river_y {
                y = y.min(r.saturating_sub(1));
            }
            let line = Area {
                x: kx.saturating_sub(s * 2),
                y,
                w: (s * 4 + 1).min(self.width),
                h: 1,
            };
            self.patch(line, None, None, Some(Cover::Entrenchment));
            self.entrenched_y = Some(y);
        }
        self.keep_cover_dry();
    }

    /// No wall, hedge or entrenchment in water: each cover patch is cut into
    /// runs along its rows that leave out the river, its bridges and fords
    /// (and marsh, laid as fords). Cover patches set nothing else, so only
    /// their own cells change.
    fn keep_cover_dry(&mut self) {
        let table = Table {
            width: self.width,
            depth: self.depth,
            cell_inches: 1.0,
            grid: false,
            terrain: self.patches.clone(),
        };
        let cells = table.cells();
        let wet = |x: u32, y: u32| {
            usize::try_from(u64::from(y) * u64::from(self.width) + u64::from(x))
                .ok()
                .and_then(|i| cells.get(i))
                .is_none_or(|c| matches!(c.ground, Ground::River | Ground::Bridge | Ground::Ford))
        };
        let mut out = Vec::with_capacity(self.patches.len());
        for p in &self.patches {
            let cover_only = p.cover.is_some() && p.ground.is_none() && p.level.is_none() && p.road.is_none();
            if !cover_only {
                out.push(p.clone());
                continue;
            }
            let a = p.area;
            let x_end = a.x.saturating_add(a.w).min(self.width);
            for y in a.y..a.y.saturating_add(a.h).min(self.depth) {
                let mut run: Option<u32> = None;
                for x in a.x..=x_end {
                    let dry = x < x_end && !wet(x, y);
                    match (run, dry) {
                        (None, true) => run = Some(x),
                        (Some(start), false) => {
                            out.push(Patch {
                                area: Area {
                                    x: start,
                                    y,
                                    w: x - start,
                                    h: 1,
                                },
                                ..p.clone()
                            });
                            run = None;
                        }
                        _ => {}
                    }
                }
            }
        }
        self.patches = out;
    }

    /// The highest ground on the defender's half of the table, nearest the
    /// middle of that half: the heights it holds.
    fn hill_top(&self) -> Option<(u32, u32)> {
        let table = Table {
            width: self.width,
            depth: self.depth,
            cell_inches: 1.0,
            grid: false,
            terrain: self.patches.clone(),
        };
        let cells = table.cells();
        let (mx, my) = (i64::from(self.width / 2), i64::from(self.depth / 4));
        let mut best: Option<(u8, i64, u32, u32)> = None;
        for y in 0..self.depth / 2 {
            for x in 0..self.width {
                let Some(c) = usize::try_from(u64::from(y) * u64::from(self.width) + u64::from(x))
                    .ok()
                    .and_then(|i| cells.get(i))
                else {
                    continue;
                };
                if c.level == 0 || c.is_water() {
                    continue;
                }
                let far = (i64::from(x) - mx).abs() + (i64::from(y) - my).abs();
                let better = best.is_none_or(|(l, d, ..)| c.level > l || (c.level == l && far < d));
                if better {
                    best = Some((c.level, far, x, y));
                }
            }
        }
        best.map(|(_, _, x, y)| (x, y))
    }

    fn objectives(&self, campaign: &Campaign, battle: &Battle, region: &Region) -> Vec<Objective> {
        let mut out = Vec::new();
        let key = self
            .town
            .or(self.crossroads)
            .unwrap_or((self.width / 2, self.depth / 2));
        let hqs: Vec<&Hq> = campaign
            .hqs
            .iter()
            .filter(|h| h.region == battle.region)
            .collect();
        for hq in hqs {
            let holder = campaign
                .side(&hq.held_by)
                .map_or(hq.held_by.as_str(), |s| s.name.as_str());
            out.push(Objective {
                name: hq.label(holder),
                kind: ObjectiveKind::Hq,
                x: key.0,
                y: key.1,
            });
        }
        if let Some((x, y)) = self.bridge {
            out.push(Objective {
                name: format!("The crossing at {}", region.name),
                kind: ObjectiveKind::Bridge,
                x,
                y,
            });
        }
        if let Some((x, y)) = self.town {
            out.push(Objective {
                name: region.name.clone(),
                kind: ObjectiveKind::Town,
                x,
                y,
            });
        }
        if out.is_empty() {
            let (kind, (x, y), name) = match self.hill_top() {
                Some(p) => (ObjectiveKind::Hill, p, format!("The heights of {}", region.name)),
                None => (
                    ObjectiveKind::Crossroads,
                    key,
                    format!("The crossroads at {}", region.name),
                ),
            };
            out.push(Objective { name, kind, x, y });
        }
        out
    }
}

/// The whole number at or below `v`, 0 for anything negative or NaN.
fn floor_u32(v: f64) -> u32 {
    u32::try_from(floor(v)).unwrap_or(if v > 0.0 { u32::MAX } else { 0 })
}
