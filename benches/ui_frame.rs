//! CPU time of one frame of the desktop app, run headless with egui_kittest
//! at 1280 x 800: the whole window (menu, forces tree, inspector, turn log
//! and the map zoomed to fit, so every region, road and counter is on
//! screen) plus the tessellation of what it drew into triangles, which is
//! the CPU side of painting. The GPU upload and draw are not measured.
//!
//! Two campaigns: the bundled Egyptian Rebellion (44 regions) and a
//! generated map of 10,000 regions, about 30,000 roads and 2,000 forces,
//! with the supply and battle overlays on. The goal is under 8 ms a frame.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use criterion::{Criterion, criterion_group, criterion_main};
use egui_kittest::Harness;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;
use umpire::model::{
    ArmyKind, Campaign, Colour, DEFAULT_MILES_PER_INCH, Date, Fatigue, Force, ForceId, Hq, Map, Quality,
    Region, RegionId, RngState, Road, RoadKind, RuleSetId, Side, SideId, Stand, StandId, StandKind,
    StandingOrder, Supply, Terrain, Wing,
};
use umpire::store::{Overwrite, Store};
use umpire::ui::{Launch, UmpireApp};

/// A jittered grid of `n` regions 10 miles apart, each joined to its east
/// and south neighbours and one diagonal; red holds the west half, blue the
/// east; a force every five regions, every tenth of them marching.
fn generated(n: usize) -> Campaign {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let cols = n.isqrt().max(2);
    let terrains = [
        Terrain::Open,
        Terrain::Cultivated,
        Terrain::Hills,
        Terrain::Desert,
    ];
    let regions: Vec<Region> = (0..n)
        .map(|i| Region {
            id: RegionId::new(format!("r{i}")),
            name: format!("Region {i}"),
            terrain: terrains[rng.random_range(0..terrains.len())],
            x: (i % cols) as f64 * 10.0 + rng.random_range(-2.0..2.0),
            y: (i / cols) as f64 * 10.0 + rng.random_range(-2.0..2.0),
            features: vec![],
            shape: vec![],
        })
        .collect();
    let mut roads = Vec::with_capacity(3 * n);
    let mut join = |a: usize, b: usize, rng: &mut ChaCha8Rng| {
        let (ra, rb): (&Region, &Region) = (&regions[a], &regions[b]);
        roads.push(Road {
            from: ra.id.clone(),
            to: rb.id.clone(),
            kind: [RoadKind::Road, RoadKind::Track, RoadKind::Railway][rng.random_range(0..3)],
            miles: (ra.x - rb.x).hypot(ra.y - rb.y) * 1.1,
            river: None,
            name: None,
        });
    };
    for i in 0..n {
        let col = i % cols;
        if col + 1 < cols && i + 1 < n {
            join(i, i + 1, &mut rng);
        }
        if i + cols < n {
            join(i, i + cols, &mut rng);
        }
        if col + 1 < cols && i + cols + 1 < n && rng.random_bool(0.5) {
            join(i, i + cols + 1, &mut rng);
        }
    }
    let side = |id: &str, name: &str, colour| Side {
        id: SideId::new(id),
        name: name.to_owned(),
        colour: Colour(colour),
        army: ArmyKind::Regular,
    };
    let west = |i: usize| i % cols < cols / 2;
    let hqs = [("red", 0usize), ("blue", cols - 1)]
        .into_iter()
        .flat_map(|(s, col)| {
            Wing::ALL.iter().enumerate().map(move |(k, w)| Hq {
                side: SideId::new(s),
                wing: *w,
                region: RegionId::new(format!("r{}", (k * n / 3 / cols) * cols + col)),
                name: None,
                held_by: SideId::new(s),
                captured_turn: None,
            })
        })
        .collect();
    let mut stand_id = 0;
    let forces = (0..n)
        .step_by(5)
        .enumerate()
        .map(|(k, i)| {
            let side = if west(i) { "red" } else { "blue" };
            let stands = (0..4)
                .map(|_| {
                    stand_id += 1;
                    Stand {
                        id: StandId(stand_id),
                        name: format!("Company {stand_id}"),
                        kind: StandKind::LineInfantry,
                        quality: Quality::Trained,
                        strength: 100,
                        full: 100,
                    }
                })
                .collect();
            let order = if k % 10 == 0 && i + 3 < n {
                StandingOrder::March {
                    path: (1..=3).map(|d| RegionId::new(format!("r{}", i + d))).collect(),
                    forced: false,
                    by: umpire::model::Conveyance::Foot,
                }
            } else {
                StandingOrder::Hold
            };
            Force {
                id: ForceId::new(format!("f{k}")),
                name: format!("Column {k}"),
                side: SideId::new(side),
                region: RegionId::new(format!("r{i}")),
                stands,
                en_route: None,
                order,
                fatigue: Fatigue::default(),
                supply: Supply::default(),
                fallen_out: Vec::new(),
            }
        })
        .collect();
    Campaign {
        title: format!("Generated campaign of {n} regions"),
        description: None,
        map: Map {
            name: format!("Generated map of {n} regions"),
            description: None,
            regions,
            roads,
            background: None,
            waters: Vec::new(),
        },
        turn: 1,
        start_turn: 1,
        start_date: Date::from_ymd(1895, 3, 1).unwrap(),
        days_per_turn: 1,
        rules: RuleSetId::Scruby1965,
        rng: RngState::new(1),
        miles_per_inch: DEFAULT_MILES_PER_INCH,
        transport: Default::default(),
        sides: vec![
            side("red", "Red", [200, 40, 40]),
            side("blue", "Blue", [40, 60, 200]),
        ],
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

fn harness(launch: Launch) -> Harness<'static, UmpireApp> {
    let mut h = Harness::builder()
        .with_size([1280.0, 800.0])
        .build_eframe(move |cc| UmpireApp::new(cc, launch));
    let overlays = h.state_mut().overlays_mut();
    overlays.supply = true;
    overlays.battles = true;
    h.run_steps(4);
    h
}

/// One frame: the app's ui and egui's layout, then tessellation; the
/// number of vertices painted.
fn frame(h: &mut Harness<'_, UmpireApp>) -> usize {
    h.step();
    let shapes = h.output().shapes.clone();
    let ppp = h.output().pixels_per_point;
    h.ctx
        .tessellate(shapes, ppp)
        .iter()
        .map(|p| match &p.primitive {
            egui::epaint::Primitive::Mesh(mesh) => mesh.vertices.len(),
            egui::epaint::Primitive::Callback(_) => 0,
        })
        .sum()
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("ui_frame");
    group.measurement_time(Duration::from_secs(8));

    let folder = tempfile::tempdir().unwrap();
    let mut egypt = harness(Launch {
        data_folder: Some(folder.path().to_owned()),
        ..Launch::default()
    });
    eprintln!("Egyptian Rebellion: {} vertices a frame", frame(&mut egypt));
    group.bench_function("egyptian_rebellion_44_regions", |b| {
        b.iter(|| black_box(frame(&mut egypt)))
    });

    let big = generated(10_000);
    let save = folder.path().join("big.umpire");
    Store::create(Path::new(&save), &big, Overwrite::Refuse).unwrap();
    // To look at it: UMPIRE_KEEP_SAVE=big.umpire cargo bench --bench ui_frame; umpire --open big.umpire
    if let Some(keep) = std::env::var_os("UMPIRE_KEEP_SAVE") {
        std::fs::copy(&save, keep).unwrap();
    }
    let mut h = harness(Launch {
        open: Some(save),
        ..Launch::default()
    });
    // Everything is on screen: the whole map's regions, roads and counters.
    let vertices = frame(&mut h);
    assert!(
        vertices > 150_000,
        "the generated map painted only {vertices} vertices"
    );
    eprintln!("generated map: {vertices} vertices a frame");
    group.sample_size(30);
    group.bench_function("generated_10000_regions", |b| b.iter(|| black_box(frame(&mut h))));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
