//! Speed of `odds`: 1,000 seeded battles of 20 stands a side, under each rule
//! set built so far, on all cores. Goal: under 100 ms, so odds feel instant
//! in the app.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;
use umpire::model::{ArmyKind, RuleSetId, StandKind};
use umpire::rules::{odds, rule_sets};
use umpire::scenario::{
    Area, Objective, ObjectiveKind, Patch, Role, Scenario, ScenarioSide, Table, TableStand,
};

// The allocator the `umpire` binary fights its odds with (src/main.rs).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// 20 stands: 12 foot, 4 horse, 2 guns, a Maxim and a general.
fn army(first: u32, infantry: StandKind) -> Vec<TableStand> {
    let mut kinds = vec![infantry; 12];
    kinds.extend([StandKind::LightCavalry; 2]);
    kinds.extend([StandKind::HeavyCavalry; 2]);
    kinds.extend([StandKind::FootArtillery; 2]);
    kinds.extend([StandKind::MachineGun, StandKind::Command]);
    kinds
        .into_iter()
        .enumerate()
        .map(|(i, kind)| TableStand::fresh(first + u32::try_from(i).unwrap_or(0), kind))
        .collect()
}

fn scenario(grid: bool) -> Scenario {
    let (width, depth, cell_inches) = if grid { (18, 12, 2.0) } else { (16, 12, 6.0) };
    Scenario {
        title: "Twenty stands a side".to_owned(),
        rules: umpire::model::RuleSetId::Scruby1965,
        seed: 20,
        turn_limit: 12,
        table: Table {
            width,
            depth,
            cell_inches,
            grid,
            terrain: vec![Patch {
                area: Area {
                    x: width / 2 - 1,
                    y: depth / 2 - 1,
                    w: 2,
                    h: 2,
                },
                ground: None,
                level: Some(1),
                road: None,
                cover: None,
            }],
        },
        sides: vec![
            ScenarioSide {
                id: "red".to_owned(),
                name: "Red".to_owned(),
                army: ArmyKind::Regular,
                role: Role::Defender,
                colour: None,
                deployment: Area {
                    x: 2,
                    y: 0,
                    w: width - 4,
                    h: 3,
                },
                stands: army(1, StandKind::LineInfantry),
                reserves: vec![],
            },
            ScenarioSide {
                id: "blue".to_owned(),
                name: "Blue".to_owned(),
                army: ArmyKind::Native,
                role: Role::Attacker,
                colour: None,
                deployment: Area {
                    x: 2,
                    y: depth - 3,
                    w: width - 4,
                    h: 3,
                },
                stands: army(101, StandKind::NativeRiflemen),
                reserves: vec![],
            },
        ],
        objectives: vec![Objective {
            name: "The hill".to_owned(),
            kind: ObjectiveKind::Hill,
            x: width / 2,
            y: depth / 2,
        }],
        notes: None,
    }
}

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("odds of 1000 battles, 20 stands a side");
    group.sample_size(10).measurement_time(Duration::from_secs(10));
    for rules in rule_sets() {
        // The square-grid games fight on Cordery's 18 x 12 grid, the others on an inch table.
        let grid = matches!(rules.id(), RuleSetId::Cordery2009 | RuleSetId::Harman2021);
        let s = scenario(grid);
        group.bench_with_input(BenchmarkId::from_parameter(rules.id()), &s, |b, s| {
            b.iter(|| black_box(odds(s, rules.id(), 1000, 7).is_ok()))
        });
    }
    group.finish();
}

criterion_group!(odds_bench, benches);
criterion_main!(odds_bench);
