//! Shared builders for the rules tests: stands, sides, areas, terrain
//! patches, tables and whole scenarios, and the example scenarios.

use umpire::model::{ArmyKind, Quality, RuleSetId, StandId, StandKind};
use umpire::rules::{Outcome, StandResult};
use umpire::scenario::{Area, Ground, Patch, Reserve, Role, Scenario, ScenarioSide, Table, TableStand};

/// A trained stand of `kind` at full roster strength, at `at` (in cells;
/// `None`: placed by the doctrine), named after its kind and id.
pub fn stand(id: u32, kind: StandKind, at: Option<(f64, f64)>) -> TableStand {
    TableStand {
        at,
        ..TableStand::fresh(id, kind)
    }
}

/// [`stand`] in the middle of grid square `at`.
pub fn stand_in(id: u32, kind: StandKind, at: Option<(i32, i32)>) -> TableStand {
    stand(
        id,
        kind,
        at.map(|(x, y)| (f64::from(x) + 0.5, f64::from(y) + 0.5)),
    )
}

/// A trained stand of `kind` of `quality`, placed by the doctrine.
pub fn stand_of(id: u32, kind: StandKind, quality: Quality) -> TableStand {
    TableStand {
        quality,
        ..stand(id, kind, None)
    }
}

/// A side named "The `id`" with no reserves.
pub fn side(id: &str, army: ArmyKind, role: Role, deployment: Area, stands: Vec<TableStand>) -> ScenarioSide {
    ScenarioSide {
        id: id.to_owned(),
        name: format!("The {id}"),
        army,
        role,
        colour: None,
        deployment,
        stands,
        reserves: Vec::new(),
    }
}

/// [`side`] named "the `id`", as the inch-table rule sets' tests name theirs.
pub fn the_side(
    id: &str,
    army: ArmyKind,
    role: Role,
    deployment: Area,
    stands: Vec<TableStand>,
) -> ScenarioSide {
    ScenarioSide {
        name: format!("the {id}"),
        ..side(id, army, role, deployment, stands)
    }
}

pub fn area(x: u32, y: u32, w: u32, h: u32) -> Area {
    Area { x, y, w, h }
}

/// Stands arriving on `turn` in `area`.
pub fn reserve(turn: u32, area: Area, stands: Vec<TableStand>) -> Reserve {
    Reserve { turn, area, stands }
}

/// A patch that changes nothing yet: set its fields with `..patch(..)`.
pub fn patch(x: u32, y: u32, w: u32, h: u32) -> Patch {
    Patch {
        area: area(x, y, w, h),
        ground: None,
        level: None,
        road: None,
        cover: None,
    }
}

pub fn ground(x: u32, y: u32, w: u32, h: u32, g: Ground) -> Patch {
    Patch {
        ground: Some(g),
        ..patch(x, y, w, h)
    }
}

/// An open table of `width` x `depth` cells of `cell_inches`.
pub fn table(width: u32, depth: u32, cell_inches: f64, grid: bool) -> Table {
    Table {
        width,
        depth,
        cell_inches,
        grid,
        terrain: Vec::new(),
    }
}

/// A scenario titled "test" under `rules` on `table` with `sides`, seed 1,
/// no objectives.
pub fn scenario(rules: RuleSetId, turn_limit: u32, table: Table, sides: Vec<ScenarioSide>) -> Scenario {
    Scenario {
        title: "test".to_owned(),
        rules,
        seed: 1,
        turn_limit,
        table,
        sides,
        objectives: Vec::new(),
        notes: None,
    }
}

/// [`scenario`] on an open inch table of `width` x `depth` cells of 6 inches.
pub fn inch_battle(
    rules: RuleSetId,
    width: u32,
    depth: u32,
    turn_limit: u32,
    sides: Vec<ScenarioSide>,
) -> Scenario {
    scenario(rules, turn_limit, table(width, depth, 6.0, false), sides)
}

/// [`scenario`] of twelve turns on an open grid of `width` x `depth`
/// squares of 2 inches.
pub fn grid_battle(rules: RuleSetId, width: u32, depth: u32, sides: Vec<ScenarioSide>) -> Scenario {
    scenario(rules, 12, table(width, depth, 2.0, true), sides)
}

/// One of the example scenarios in `campaigns/scenarios/`, by file name.
pub fn example(name: &str) -> Scenario {
    let path = format!("{}/campaigns/scenarios/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}")))
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The file names of the example scenarios.
pub const EXAMPLES: [&str; 2] = ["abu_tleih_1895.json", "kassassin_bridge.json"];

/// The result of the stand with id `id`.
pub fn result(outcome: &Outcome, id: u32) -> &StandResult {
    outcome
        .stands
        .iter()
        .find(|s| s.id == StandId(id))
        .unwrap_or_else(|| panic!("stand {id} is in the outcome"))
}

/// Whether any line of the log contains `text`.
pub fn logged(outcome: &Outcome, text: &str) -> bool {
    outcome.log.iter().any(|l| l.text.contains(text))
}

/// The log as "turn: text" lines, for assertion messages.
pub fn log_text(outcome: &Outcome) -> String {
    outcome
        .log
        .iter()
        .map(|l| format!("{}: {}", l.turn, l.text))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every stand of a scenario side, reserves included.
pub fn all_stands(side: &ScenarioSide) -> impl Iterator<Item = &TableStand> {
    side.stands
        .iter()
        .chain(side.reserves.iter().flat_map(|r| r.stands.iter()))
}

/// A table of `width` x 24 cells of 3 inches (six feet deep: scruby-basic
/// moves as printed) under `rules`, with a river a cell wide across row 12,
/// bridged at column `bridge` if any; the north's only stand a general in a
/// corner, the south's a company of foot at (2.5, 20.5); the objective, a
/// mill, on the north bank at (2, 5).
pub fn across_the_river(rules: RuleSetId, width: u32, bridge: Option<u32>, turn_limit: u32) -> Scenario {
    let sides = vec![
        the_side(
            "north",
            ArmyKind::Regular,
            Role::Defender,
            area(0, 0, width, 3),
            vec![stand(1, StandKind::Command, Some((0.5, 0.5)))],
        ),
        the_side(
            "south",
            ArmyKind::Regular,
            Role::Attacker,
            area(0, 21, width, 3),
            vec![stand(100, StandKind::LineInfantry, Some((2.5, 20.5)))],
        ),
    ];
    let mut s = scenario(rules, turn_limit, table(width, 24, 3.0, false), sides);
    s.table.terrain.push(ground(0, 12, width, 1, Ground::River));
    if let Some(x) = bridge {
        s.table.terrain.push(ground(x, 12, 1, 1, Ground::Bridge));
    }
    s.objectives.push(umpire::scenario::Objective {
        name: "the mill".to_owned(),
        kind: umpire::scenario::ObjectiveKind::Town,
        x: 2,
        y: 5,
    });
    s
}

/// Under `rules`, a company of foot with a mill to take beyond a river a
/// cell (3 inches) wide, less than a column's move: bridged at the far
/// end, it marches round by the bridge and takes the mill; unbridged, it
/// may not step over the water, so it never reaches the mill.
pub fn crosses_only_at_the_bridge(rules: RuleSetId) {
    let bridged = across_the_river(rules, 16, Some(15), 40);
    let o = umpire::rules::fight(&bridged, rules, 1).unwrap();
    assert_eq!(
        o.winner.as_deref(),
        Some("south"),
        "{rules}: {}\n{}",
        o.verdict,
        log_text(&o)
    );
    assert!(
        o.verdict.contains("holds 1 of the 1 objectives"),
        "{rules}: {}",
        o.verdict
    );
    let unbridged = across_the_river(rules, 16, None, 40);
    for seed in 0..4 {
        let o = umpire::rules::fight(&unbridged, rules, seed).unwrap();
        assert!(
            !o.verdict.contains("holds 1 of the 1 objectives"),
            "{rules}, seed {seed}: {}\n{}",
            o.verdict,
            log_text(&o)
        );
    }
}
