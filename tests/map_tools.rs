//! `umpire map generate` and `umpire map import`: the maps they make pass the
//! map check, read back as written, and say what they left out.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use common::{repo, stdout, umpire};
use proptest::prelude::*;
use umpire::map_tools::generate::{GenerateError, GenerateOptions, Layout, generate_map};
use umpire::map_tools::import::{ImportError, ImportOptions, Units, import_geojson};
use umpire::model::check::{Source, check_map};
use umpire::model::map_file::map_file_text;
use umpire::model::{Feature, Map, RiverCrossing, RoadKind, Severity, WaterKind};

/// The map's text checked: every diagnostic, and the map read back.
fn checked(map: &Map) -> (Vec<String>, Option<Map>) {
    let text = map_file_text(map, "test").unwrap();
    let checked = check_map(Source {
        name: "generated.toml",
        text: &text,
    });
    let problems = checked
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error || d.severity == Severity::Warning)
        .map(|d| d.to_string())
        .collect();
    (problems, checked.value)
}

fn generate(regions: usize, seed: u64, layout: Layout) -> Map {
    generate_map(&GenerateOptions {
        regions,
        seed,
        layout,
    })
    .unwrap()
}

#[test]
fn generated_maps_pass_the_check_and_read_back_identical() {
    for (regions, seed, layout) in [
        (2, 1, Layout::Voronoi),
        (3, 7, Layout::Hex),
        (8, 2, Layout::Voronoi),
        (40, 3, Layout::Voronoi),
        (60, 4, Layout::Hex),
        (500, 5, Layout::Voronoi),
        // Found by the property below: the track joining two parts ran
        // beside a road across a river with no crossing, a second road
        // between the same two regions.
        (8, 15_869_915_414_683_354_586, Layout::Voronoi),
    ] {
        let map = generate(regions, seed, layout);
        assert_eq!(map.regions.len(), regions, "{regions} regions, seed {seed}");
        let (problems, back) = checked(&map);
        assert!(
            problems.is_empty(),
            "{regions} regions, seed {seed}: {problems:?}"
        );
        assert_eq!(back.as_ref(), Some(&map), "{regions} regions, seed {seed}");
        // Hexes carry their hexagon; scattered points have theirs derived.
        assert!(
            map.regions
                .iter()
                .all(|r| r.shape.len() == if layout == Layout::Hex { 6 } else { 0 })
        );
        assert_eq!(map.waters.iter().filter(|w| w.kind == WaterKind::Sea).count(), 1);
    }
}

#[test]
fn a_generated_map_has_what_a_campaign_needs() {
    let map = generate(500, 11, Layout::Voronoi);
    let count = |f: Feature| map.regions.iter().filter(|r| r.has(f)).count();
    assert!(count(Feature::Town) >= 500 / 8, "towns: {}", count(Feature::Town));
    assert!(count(Feature::Station) >= 2);
    assert!(map.roads.iter().any(|r| r.kind == RoadKind::Railway));
    assert!(map.roads.iter().any(|r| r.kind == RoadKind::Track));
    let rivers = map.waters.iter().filter(|w| w.kind == WaterKind::River).count();
    assert!(rivers >= 3, "{rivers} rivers");
    // Rivers cut roads: some cross by bridge, and every bridge has its feature at an end.
    let bridges: Vec<_> = map
        .roads
        .iter()
        .filter(|r| r.river == Some(RiverCrossing::Bridge))
        .collect();
    assert!(!bridges.is_empty());
    // Neighbours only: no road longer than twice the spacing, except the joins of cut-off parts.
    let long = map
        .roads
        .iter()
        .filter(|r| r.miles > 2.0 * 1.3 * 20.0 * 1.8)
        .count();
    assert!(long <= 2, "{long} long roads");
    // Connected: one part.
    assert_eq!(map.connected_parts().len(), 1);
}

#[test]
fn the_same_seed_gives_the_same_map_and_another_seed_another() {
    let a = map_file_text(&generate(120, 9, Layout::Voronoi), "t").unwrap();
    let b = map_file_text(&generate(120, 9, Layout::Voronoi), "t").unwrap();
    let c = map_file_text(&generate(120, 10, Layout::Voronoi), "t").unwrap();
    assert_eq!(a, b);
    assert_ne!(a, c);
}

#[test]
fn too_few_or_too_many_regions_are_refused() {
    let ask = |regions| {
        generate_map(&GenerateOptions {
            regions,
            seed: 1,
            layout: Layout::Voronoi,
        })
    };
    assert_eq!(ask(0).unwrap_err(), GenerateError::TooFew(0));
    assert_eq!(ask(1).unwrap_err(), GenerateError::TooFew(1));
    assert!(matches!(
        ask(2_000_000).unwrap_err(),
        GenerateError::TooMany { .. }
    ));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn any_generated_map_passes_the_check(regions in 2usize..150, seed in any::<u64>(), hex in any::<bool>()) {
        let layout = if hex { Layout::Hex } else { Layout::Voronoi };
        let map = generate(regions, seed, layout);
        let (problems, back) = checked(&map);
        prop_assert!(problems.is_empty(), "{:?}", problems);
        prop_assert_eq!(back.as_ref(), Some(&map));
        for r in &map.regions {
            prop_assert!(r.x.is_finite() && r.y.is_finite());
        }
    }
}

fn thames() -> String {
    std::fs::read_to_string(repo().join("tests/fixtures/geojson/thames_valley.geojson")).unwrap()
}

fn options() -> ImportOptions {
    ImportOptions {
        name: "Thames Valley".to_owned(),
        name_property: "name".to_owned(),
        units: Units::Degrees,
    }
}

#[test]
fn geojson_points_polygons_and_lines_become_regions_roads_and_water() {
    let imported = import_geojson(&thames(), &options()).unwrap();
    let map = &imported.map;
    let region = |id: &str| map.regions.iter().find(|r| r.id.as_str() == id).unwrap();
    assert_eq!(map.regions.len(), 7);
    // Reading is west of Wokingham and north of it, by about the true distance.
    let (reading, wokingham) = (region("reading"), region("wokingham"));
    let miles = (reading.x - wokingham.x).hypot(reading.y - wokingham.y);
    assert!((6.0..7.5).contains(&miles), "Reading to Wokingham {miles} miles");
    assert!(reading.x < wokingham.x && reading.y < wokingham.y);
    assert_eq!(
        reading.features,
        vec![Feature::Town, Feature::Station, Feature::Bridge]
    );
    assert_eq!(region("henley").features, vec![Feature::Town, Feature::Bridge]);
    // The polygon is the region's shape, its point inside it.
    let park = region("windsor_great_park");
    assert_eq!(park.shape.len(), 4);
    let (xs, ys): (Vec<f64>, Vec<f64>) = park.shape.iter().map(|p| (p[0], p[1])).unzip();
    let within = |v: f64, vs: &[f64]| {
        vs.iter().cloned().fold(f64::INFINITY, f64::min) < v
            && v < vs.iter().cloned().fold(f64::NEG_INFINITY, f64::max)
    };
    assert!(within(park.x, &xs) && within(park.y, &ys));
    // The railway through three stations is two roads, each its own length along the line.
    let railways: Vec<(&str, &str)> = map
        .roads
        .iter()
        .filter(|r| r.kind == RoadKind::Railway)
        .map(|r| (r.from.as_str(), r.to.as_str()))
        .collect();
    assert_eq!(
        railways,
        vec![
            ("newbury", "pangbourne"),
            ("pangbourne", "reading"),
            ("reading", "wokingham")
        ]
    );
    // The road whose end lies inside the park's outline reaches the park.
    assert!(
        map.roads
            .iter()
            .any(|r| r.to.as_str() == "windsor_great_park" && r.kind == RoadKind::Road)
    );
    let bridge = map.roads.iter().find(|r| r.to.as_str() == "henley").unwrap();
    assert_eq!(bridge.river, Some(RiverCrossing::Bridge));
    // Water: the Thames (an OpenStreetMap waterway tag) and a lake (natural = water).
    let waters: Vec<(WaterKind, Option<&str>)> =
        map.waters.iter().map(|w| (w.kind, w.name.as_deref())).collect();
    assert_eq!(
        waters,
        vec![
            (WaterKind::River, Some("Thames")),
            (WaterKind::Lake, Some("Virginia Water"))
        ]
    );
    // What was left out or taken by default, each at its feature.
    let notes = imported.notes.join("\n");
    assert!(
        notes.contains("feature 5 (Pangbourne): terrain `swamp`"),
        "{notes}"
    );
    assert!(notes.contains("feature `castle`"), "{notes}");
    assert!(
        notes.contains("feature 11: a track that reaches 1 region: left out"),
        "{notes}"
    );
    // And it passes the check (the lone region is a warning: not connected).
    let (problems, back) = checked(map);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].contains("not connected"));
    assert_eq!(back.as_ref(), Some(map));
}

#[test]
fn what_is_not_geojson_or_has_no_regions_is_refused() {
    let err = import_geojson("{\"type\": \"Nonsense\"}", &options()).unwrap_err();
    assert!(matches!(err, ImportError::NotGeoJson(_)), "{err}");
    let lines_only = r#"{"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[0, 0], [1, 1]]}}]}"#;
    let err = import_geojson(lines_only, &options()).unwrap_err();
    assert!(matches!(err, ImportError::NoRegions), "{err}");
    assert!(err.to_string().contains("no Point or Polygon"));
    // Metres (a projected grid) read as degrees: refused, with what to give instead.
    let metres = r#"{"type": "Feature", "properties": {"name": "Mill"}, "geometry": {"type": "Point", "coordinates": [451200.0, 5698300.0]}}"#;
    let err = import_geojson(metres, &options()).unwrap_err();
    assert!(
        err.to_string().contains("give --units km or --units miles"),
        "{err}"
    );
    let km = ImportOptions {
        units: Units::Kilometres,
        ..options()
    };
    assert_eq!(import_geojson(metres, &km).unwrap().map.regions.len(), 1);
}

#[test]
fn the_command_line_writes_checked_maps_and_refuses_to_overwrite() {
    let dir = tempfile::tempdir().unwrap();
    let out = umpire(
        dir.path(),
        &["map", "generate", "--regions", "30", "--seed", "4", "island.toml"],
    );
    assert!(out.status.success(), "{}", stdout(&out));
    assert!(
        stdout(&out).starts_with("wrote island.toml: map \"Generated map: 30 regions, seed 4\": 30 regions,")
    );
    let check = umpire(dir.path(), &["check", "island.toml"]);
    assert!(check.status.success());
    assert!(
        stdout(&check).contains("0 errors, 0 warnings"),
        "{}",
        stdout(&check)
    );
    let text = std::fs::read_to_string(dir.path().join("island.toml")).unwrap();
    assert!(text.starts_with("# Written by `umpire map generate --regions 30 --seed 4`."));

    let again = umpire(
        dir.path(),
        &["map", "generate", "--regions", "30", "--seed", "5", "island.toml"],
    );
    assert!(!again.status.success());
    assert!(
        common::stderr(&again).contains("island.toml already exists: give --force"),
        "{}",
        common::stderr(&again)
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("island.toml")).unwrap(),
        text
    );

    let geojson = repo().join("tests/fixtures/geojson/thames_valley.geojson");
    let out = umpire(
        dir.path(),
        &["map", "import", geojson.to_str().unwrap(), "thames.toml"],
    );
    assert!(out.status.success(), "{}", stdout(&out));
    let said = stdout(&out);
    assert!(said.contains("terrain `swamp`"), "{said}");
    assert!(
        said.contains("wrote thames.toml: map \"Thames valley\": 7 regions, 7 roads, 1 river or canal"),
        "{said}"
    );
    assert!(umpire(dir.path(), &["check", "thames.toml"]).status.success());

    // Not a map: nothing written, the reason said.
    std::fs::write(dir.path().join("bad.geojson"), "{\"type\": \"Point\"").unwrap();
    let out = umpire(dir.path(), &["map", "import", "bad.geojson", "bad.toml"]);
    assert!(!out.status.success());
    assert!(
        common::stderr(&out).contains("bad.geojson: nothing imported"),
        "{}",
        common::stderr(&out)
    );
    assert!(!dir.path().join("bad.toml").exists());
}
