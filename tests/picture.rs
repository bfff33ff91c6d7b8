#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]
//! The battle pack's table picture, through the public API: proportions,
//! terrain colours, stands in their sides' colours, the legend, and no panic
//! on odd scenarios.

use image::RgbImage;
use umpire::handoff::picture::{
    FRAME_WIDTH, Feature, PixelRect, cover_colour, ground_colour, side_colour, table_picture, table_png,
};
use umpire::model::{ArmyKind, Colour, Quality, RuleSetId, StandId, StandKind};
use umpire::rules::board::Board;
use umpire::rules::doctrine;
use umpire::scenario::{
    Area, Cover, Ground, Objective, ObjectiveKind, Patch, Reserve, Role, Scenario, ScenarioSide, Table,
    TableStand,
};

fn example(name: &str) -> Scenario {
    let path = format!("{}/campaigns/scenarios/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn decode(png: &[u8]) -> RgbImage {
    image::load_from_memory_with_format(png, image::ImageFormat::Png)
        .expect("table_png gives a PNG")
        .to_rgb8()
}

/// The longest run of `colour` along any row, and along any column: the
/// frame's outer width and height.
fn longest_runs(img: &RgbImage, colour: [u8; 3]) -> (u32, u32) {
    let (w, h) = img.dimensions();
    let mut across = 0;
    for y in 0..h {
        let mut run = 0;
        for x in 0..w {
            run = if img.get_pixel(x, y).0 == colour {
                run + 1
            } else {
                0
            };
            across = across.max(run);
        }
    }
    let mut down = 0;
    for x in 0..w {
        let mut run = 0;
        for y in 0..h {
            run = if img.get_pixel(x, y).0 == colour {
                run + 1
            } else {
                0
            };
            down = down.max(run);
        }
    }
    (across, down)
}

fn count_in(img: &RgbImage, r: PixelRect, colour: [u8; 3]) -> usize {
    let mut n = 0;
    for y in r.y..(r.y + r.h).min(img.height()) {
        for x in r.x..(r.x + r.w).min(img.width()) {
            if img.get_pixel(x, y).0 == colour {
                n += 1;
            }
        }
    }
    n
}

#[test]
fn the_table_frame_has_the_tables_proportions_in_both_examples() {
    for (name, out) in [
        ("abu_tleih_1895.json", "/tmp/picture-abu.png"),
        ("kassassin_bridge.json", "/tmp/picture-kassassin.png"),
    ] {
        let scenario = example(name);
        let png = table_png(&scenario).unwrap();
        std::fs::write(out, &png).unwrap();
        let img = decode(&png);
        // The frame, found in the decoded picture: the longest black runs.
        let (outer_w, outer_h) = longest_runs(&img, [0, 0, 0]);
        let (w, h) = (outer_w - 2 * FRAME_WIDTH, outer_h - 2 * FRAME_WIDTH);
        let t = &scenario.table;
        let (w_in, d_in) = (
            f64::from(t.width) * t.cell_inches,
            f64::from(t.depth) * t.cell_inches,
        );
        let expected_w = f64::from(h) * w_in / d_in;
        assert!(
            (f64::from(w) - expected_w).abs() <= 1.0,
            "{name}: the frame holds {w} x {h} px; the table is {w_in} x {d_in} in"
        );
        let picture = table_picture(&scenario);
        assert_eq!((picture.table.w, picture.table.h), (w, h), "{name}");
        assert!(
            (1000..=2500).contains(&img.width()),
            "{name}: {} px wide",
            img.width()
        );
        assert_eq!(img.dimensions(), picture.image.dimensions(), "{name}");
    }
}

fn stand(id: u32, kind: StandKind, at: Option<(f64, f64)>) -> TableStand {
    TableStand {
        id: StandId(id),
        name: format!("Stand {id}"),
        kind,
        quality: Quality::Trained,
        strength: 100,
        full: 100,
        at,
        weapon: None,
    }
}

fn side(name: &str, role: Role, deployment: Area, stands: Vec<TableStand>) -> ScenarioSide {
    ScenarioSide {
        id: name.to_lowercase(),
        name: name.to_owned(),
        army: ArmyKind::Regular,
        role,
        colour: None,
        deployment,
        stands,
        reserves: Vec::new(),
    }
}

fn patch(x: u32, y: u32, w: u32, h: u32) -> Patch {
    Patch {
        area: Area { x, y, w, h },
        ground: None,
        level: None,
        road: None,
        cover: None,
    }
}

/// A 20 x 12 table with every ground in a column of its own, hills of three
/// levels, a road, a wall and an entrenchment, and two small sides.
fn every_terrain(grid: bool) -> Scenario {
    let grounds = [
        Ground::BuiltUpOuter,
        Ground::BuiltUpInner,
        Ground::ForestEdge,
        Ground::ForestInterior,
        Ground::River,
        Ground::Bridge,
        Ground::Ford,
        Ground::TallCrops,
    ];
    let mut terrain: Vec<Patch> = grounds
        .iter()
        .enumerate()
        .map(|(i, g)| Patch {
            ground: Some(*g),
            ..patch(2 * u32::try_from(i).unwrap(), 4, 2, 3)
        })
        .collect();
    terrain.push(Patch {
        level: Some(1),
        ..patch(0, 8, 6, 4)
    });
    terrain.push(Patch {
        level: Some(2),
        ..patch(1, 9, 4, 2)
    });
    terrain.push(Patch {
        level: Some(3),
        ..patch(2, 9, 2, 2)
    });
    terrain.push(Patch {
        road: Some(true),
        ..patch(0, 7, 20, 1)
    });
    terrain.push(Patch {
        cover: Some(Cover::WallOrHedge),
        ..patch(8, 9, 3, 1)
    });
    terrain.push(Patch {
        cover: Some(Cover::Entrenchment),
        ..patch(13, 9, 3, 1)
    });
    Scenario {
        title: "Every terrain".to_owned(),
        rules: RuleSetId::Cordery2009,
        seed: 1,
        turn_limit: 10,
        table: Table {
            width: 20,
            depth: 12,
            cell_inches: if grid { 2.0 } else { 6.0 },
            grid,
            terrain,
        },
        sides: vec![
            side(
                "Blue",
                Role::Attacker,
                Area {
                    x: 0,
                    y: 0,
                    w: 20,
                    h: 3,
                },
                vec![
                    stand(1, StandKind::LineInfantry, None),
                    stand(2, StandKind::HeavyCavalry, None),
                    stand(3, StandKind::FootArtillery, Some((17.5, 1.5))),
                ],
            ),
            side(
                "Red",
                Role::Defender,
                Area {
                    x: 12,
                    y: 9,
                    w: 8,
                    h: 3,
                },
                vec![
                    stand(4, StandKind::NativeSpearmen, None),
                    stand(5, StandKind::MachineGun, None),
                    stand(6, StandKind::Command, None),
                ],
            ),
        ],
        objectives: vec![Objective {
            name: "The ford".to_owned(),
            kind: ObjectiveKind::Bridge,
            x: 12,
            y: 5,
        }],
        notes: None,
    }
}

#[test]
fn every_terrain_features_colour_is_inside_the_table() {
    for grid in [true, false] {
        let scenario = every_terrain(grid);
        assert_eq!(scenario.problems(), vec![]);
        let picture = table_picture(&scenario);
        let png = table_png(&scenario).unwrap();
        if std::env::var_os("PICTURE_SCRATCH").is_some() {
            std::fs::write(format!("/tmp/picture-every-{grid}.png"), &png).unwrap();
        }
        let img = decode(&png);
        let mut features: Vec<(Feature, [u8; 3])> = Ground::ALL
            .into_iter()
            .map(|g| (Feature::Ground(g), ground_colour(g)))
            .collect();
        features.extend([1, 2, 3].map(|l| (Feature::Hill(l), Feature::Hill(l).colour())));
        features.push((Feature::Road, Feature::Road.colour()));
        for c in [Cover::WallOrHedge, Cover::Entrenchment] {
            features.push((Feature::Cover(c), cover_colour(c)));
        }
        // The colours are all different, so each count is of one feature.
        for (i, (a, ca)) in features.iter().enumerate() {
            for (b, cb) in &features[i + 1..] {
                assert_ne!(ca, cb, "{a:?} and {b:?} share a colour");
            }
        }
        // A feature covering part of a cell still shows over many pixels.
        let min = picture.pixels_per_cell * picture.pixels_per_cell / 20.0;
        for (feature, colour) in &features {
            let n = count_in(&img, picture.table, *colour);
            assert!(
                n as f64 >= min,
                "grid {grid}: {feature:?} ({colour:?}) has {n} pixels in the table, fewer than {min}"
            );
        }
    }
}

#[test]
fn each_sides_colour_is_where_its_stands_start() {
    let mut abu = example("abu_tleih_1895.json");
    abu.sides[1].colour = Some(Colour([20, 120, 40]));
    for scenario in [
        abu,
        example("kassassin_bridge.json"),
        every_terrain(true),
        every_terrain(false),
    ] {
        let picture = table_picture(&scenario);
        let board = Board::new(&scenario);
        let mut checked = 0;
        for (i, s) in scenario.sides.iter().enumerate() {
            let colour = side_colour(s.colour, i);
            for start in doctrine::starts(&board, &scenario, i) {
                let (x, y) = picture.pixel_at(start.at).expect("the stand starts on the table");
                let around = PixelRect {
                    x: x - 8,
                    y: y - 8,
                    w: 17,
                    h: 17,
                };
                assert!(
                    count_in(&picture.image, around, colour) > 0,
                    "{}: stand {} of {} at {:?} shows no {colour:?}",
                    scenario.title,
                    start.stand.name,
                    s.name,
                    start.at
                );
                checked += 1;
            }
        }
        assert!(checked >= 6, "{}", scenario.title);
    }
    // The defaults: blue for the first side, red for the second.
    let [r0, _, b0] = side_colour(None, 0);
    let [r1, _, b1] = side_colour(None, 1);
    assert!(b0 > r0 && r1 > b1);
}

#[test]
fn reserves_show_in_their_arrival_area() {
    let scenario = example("abu_tleih_1895.json");
    let reserve = &scenario.sides[0].reserves[0];
    let picture = table_picture(&scenario);
    let board = Board::new(&scenario);
    let colour = side_colour(None, 0);
    let late: Vec<_> = doctrine::starts(&board, &scenario, 0)
        .into_iter()
        .filter(|s| s.arrives == reserve.turn)
        .collect();
    assert_eq!(late.len(), reserve.stands.len());
    for start in late {
        assert!(reserve.area.contains(start.at.0, start.at.1));
        let (x, y) = picture.pixel_at(start.at).unwrap();
        // Hollow: the middle is white, the side's colour close by.
        let around = PixelRect {
            x: x - 16,
            y: y - 16,
            w: 33,
            h: 33,
        };
        assert!(count_in(&picture.image, around, colour) > 20);
        assert!(count_in(&picture.image, around, [255, 255, 255]) > 20);
    }
}

#[test]
fn the_legend_is_below_the_table_and_has_something_in_it() {
    for scenario in [example("abu_tleih_1895.json"), example("kassassin_bridge.json")] {
        let picture = table_picture(&scenario);
        let (t, l) = (picture.table, picture.legend);
        assert!(l.y > t.y + t.h, "the legend starts below the table");
        assert!(l.y + l.h <= picture.image.height());
        assert!(l.h >= 150, "the legend band is {} px deep", l.h);
        let ink = l.w as usize * l.h as usize - count_in(&picture.image, l, [255, 255, 255]);
        assert!(
            ink > 5_000,
            "{}: {ink} pixels drawn in the legend",
            scenario.title
        );
        // Every terrain colour present has its swatch in the legend.
        for g in [Ground::Open, Ground::River, Ground::Bridge, Ground::TallCrops] {
            let present = scenario
                .table
                .cells()
                .iter()
                .any(|c| c.ground == g && c.level == 0);
            let swatch = count_in(&picture.image, l, ground_colour(g));
            assert_eq!(swatch > 100, present, "{}: {g:?}", scenario.title);
        }
    }
}

fn odd_cases() -> Vec<(&'static str, Scenario)> {
    let base = || example("abu_tleih_1895.json");
    let mut cases = Vec::new();
    let mut s = base();
    s.table.width = 1;
    s.table.depth = 1;
    s.table.terrain.clear();
    cases.push(("1x1 table", s));
    let mut s = base();
    s.table.width = 0;
    s.table.depth = 0;
    cases.push(("0x0 table", s));
    let mut s = base();
    s.sides.clear();
    cases.push(("no sides", s));
    let mut s = base();
    for side in &mut s.sides {
        side.stands.clear();
        side.reserves.clear();
    }
    cases.push(("sides without stands", s));
    let mut s = base();
    s.sides[0].stands[0].at = Some((-5.0, 400.0));
    s.sides[0].stands[1].at = Some((f64::NAN, f64::INFINITY));
    s.sides[1].deployment = Area {
        x: u32::MAX - 1,
        y: 3,
        w: u32::MAX,
        h: u32::MAX,
    };
    s.sides[0].reserves[0].area = Area {
        x: 0,
        y: 0,
        w: 0,
        h: 0,
    };
    s.objectives[0].x = u32::MAX;
    cases.push(("stands and zones off the table", s));
    let mut s = base();
    s.table.width = 1000;
    s.table.depth = 1000;
    s.table.cell_inches = 6.0;
    s.table.grid = true;
    s.sides[0].deployment = Area {
        x: 0,
        y: 0,
        w: 1000,
        h: 40,
    };
    cases.push(("1000x1000 cells", s));
    let mut s = base();
    s.table.width = u32::MAX;
    s.table.depth = u32::MAX;
    cases.push(("u32::MAX cells a side", s));
    let mut s = base();
    s.table.width = 3000;
    s.table.depth = 2;
    s.table.cell_inches = 1e300;
    cases.push(("absurd inches", s));
    for bad in [0.0, -6.0, f64::NAN, f64::INFINITY, 1e-300] {
        let mut s = base();
        s.table.cell_inches = bad;
        cases.push(("bad cell_inches", s));
    }
    let mut s = example("kassassin_bridge.json");
    s.table.width = 2;
    s.table.depth = 2;
    cases.push(("grid of 2x2 with terrain off it", s));
    let mut s = base();
    s.title = "A very long title ".repeat(5000);
    s.sides[0].name = "Ω".repeat(300);
    s.objectives[0].name = String::new();
    for i in 0..20 {
        let mut extra = s.sides[1].clone();
        extra.id = format!("extra{i}");
        extra.stands.clear();
        s.sides.push(extra);
    }
    cases.push(("long names, many sides", s));
    let mut s = base();
    s.sides[0].colour = Some(Colour([255, 255, 255]));
    s.sides[1].colour = Some(Colour([0, 0, 0]));
    s.sides[0].reserves.push(Reserve {
        turn: 0,
        area: Area {
            x: 15,
            y: 11,
            w: 9,
            h: 9,
        },
        stands: vec![stand(900, StandKind::Transport, None)],
    });
    cases.push(("white and black sides, a reserve half off", s));
    cases
}

#[test]
fn odd_scenarios_are_drawn_without_panic() {
    for (i, (name, scenario)) in odd_cases().into_iter().enumerate() {
        let started = std::time::Instant::now();
        let png = table_png(&scenario).unwrap_or_else(|e| panic!("{name}: {e}"));
        if std::env::var_os("PICTURE_SCRATCH").is_some() {
            std::fs::write(format!("/tmp/picture-odd-{i}.png"), &png).unwrap();
            eprintln!("{i} {name}: {:?}", started.elapsed());
        }
        let img = decode(&png);
        assert!(
            img.width() >= 1000 && img.width() <= 2500,
            "{name}: {} wide",
            img.width()
        );
        assert!(img.height() <= 4000, "{name}: {} high", img.height());
        assert!(
            started.elapsed().as_secs() < 60,
            "{name}: {:?} to draw",
            started.elapsed()
        );
    }
}

mod props {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        #[test]
        fn any_table_and_placement_draws(
            width in 0u32..60,
            depth in 0u32..60,
            cell_inches in prop_oneof![Just(0.0), 0.01f64..20.0, Just(f64::NAN)],
            grid: bool,
            patches in proptest::collection::vec((0u32..70, 0u32..70, 0u32..80, 0u32..80, 0u8..12, any::<bool>()), 0..8),
            ats in proptest::collection::vec((-10.0f64..70.0, -10.0f64..70.0), 0..8),
            zone in (0u32..70, 0u32..70, 0u32..80, 0u32..80),
        ) {
            let mut s = every_terrain(grid);
            s.table.width = width;
            s.table.depth = depth;
            s.table.cell_inches = cell_inches;
            for (x, y, w, h, level, road) in patches {
                s.table.terrain.push(Patch { level: Some(level), road: Some(road), ..patch(x, y, w, h) });
            }
            for (i, at) in ats.into_iter().enumerate() {
                s.sides[0].stands.push(stand(100 + u32::try_from(i).unwrap(), StandKind::LightCavalry, Some(at)));
            }
            s.sides[1].deployment = Area { x: zone.0, y: zone.1, w: zone.2, h: zone.3 };
            let picture = table_picture(&s);
            prop_assert!(picture.image.width() >= 1000);
            prop_assert!(picture.table.x + picture.table.w <= picture.image.width());
        }
    }
}

/// One stand of `kind` numbered `id` on a table of each rule set's shape,
/// and the pixels around it.
fn one_stand_on(shape: (u32, u32, f64, bool), id: u32, kind: StandKind) -> (Vec<[u8; 3]>, f64) {
    let (width, depth, cell_inches, grid) = shape;
    let at = (f64::from(width) / 2.0, f64::from(depth) / 2.0);
    let scenario = Scenario {
        title: "One stand".into(),
        rules: RuleSetId::Scruby1961,
        seed: 1,
        turn_limit: 12,
        table: Table {
            width,
            depth,
            cell_inches,
            grid,
            terrain: vec![],
        },
        sides: vec![
            side(
                "Red",
                Role::Defender,
                Area {
                    x: 0,
                    y: 0,
                    w: width,
                    h: 2,
                },
                vec![stand(id, kind, Some(at))],
            ),
            side(
                "Blue",
                Role::Attacker,
                Area {
                    x: 0,
                    y: depth - 2,
                    w: width,
                    h: 2,
                },
                vec![stand(99, StandKind::LineInfantry, None)],
            ),
        ],
        objectives: vec![],
        notes: None,
    };
    let picture = table_picture(&scenario);
    let (x, y) = picture.pixel_at(at).unwrap();
    let cell = u32::try_from(umpire::rules::board::floor(picture.pixels_per_cell.ceil())).unwrap();
    let mut pixels = Vec::new();
    for py in y.saturating_sub(cell)..(y + cell).min(picture.image.height()) {
        for px in x.saturating_sub(cell)..(x + cell).min(picture.image.width()) {
            pixels.push(picture.image.get_pixel(px, py).0);
        }
    }
    (pixels, picture.pixels_per_cell)
}

/// Every rule set's table (the shapes `umpire scenario` lays: scruby-1961's
/// 48 x 36 cells of 2 in, the 8 x 6 ft table of 3 in cells of scruby-basic
/// and 1965, Harman's 6 in squares, Cordery's 2 in squares) shows each
/// stand's number, and tells grenadiers, guards and light infantry from line
/// infantry and heavy cavalry from light.
#[test]
fn stand_numbers_and_kinds_show_on_every_rule_sets_table() {
    use umpire::handoff::picture::stand_tag;
    for shape in [
        (48, 36, 2.0, false),
        (32, 24, 3.0, false),
        (16, 12, 6.0, true),
        (18, 12, 2.0, true),
    ] {
        let (line7, ppc) = one_stand_on(shape, 7, StandKind::LineInfantry);
        let (line8, _) = one_stand_on(shape, 8, StandKind::LineInfantry);
        assert_ne!(
            line7, line8,
            "{shape:?} ({ppc} px a cell): stands 7 and 8 look the same"
        );
        for (a, b) in [
            (StandKind::GrenadierInfantry, StandKind::LineInfantry),
            (StandKind::GuardInfantry, StandKind::LineInfantry),
            (StandKind::LightInfantry, StandKind::LineInfantry),
            (StandKind::HeavyCavalry, StandKind::LightCavalry),
        ] {
            let (pa, _) = one_stand_on(shape, 7, a);
            let (pb, _) = one_stand_on(shape, 7, b);
            assert_ne!(pa, pb, "{shape:?}: {a:?} and {b:?} look the same");
            assert_ne!(stand_tag(StandId(7), a), stand_tag(StandId(7), b));
        }
    }
}
