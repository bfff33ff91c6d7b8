//! Region shapes and waters on the bundled maps: both maps check with their
//! `[[waters]]`, every region gets a territory (`model::shapes`), the window
//! draws one per region, and a report page's map shows the territories and
//! the Nile as SVG paths.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use common::{repo, stderr, umpire};
use geo::{Intersects, Line, LineString};
use umpire::model::check::{Source, check_map};
use umpire::model::shapes::{OutlineSource, region_outlines};
use umpire::model::{Map, RiverCrossing, WaterKind};
use umpire::ui::Launch;

fn bundled(file: &str) -> Map {
    let text = std::fs::read_to_string(repo().join(file)).unwrap();
    let checked = check_map(Source {
        name: file,
        text: &text,
    });
    let problems: Vec<String> = checked.diagnostics.iter().map(|d| d.to_string()).collect();
    assert!(problems.is_empty(), "{file}: {problems:?}");
    checked.value.unwrap()
}

#[test]
fn both_bundled_maps_check_with_their_waters_and_give_every_region_a_territory() {
    let cases: [(&str, &[(&str, WaterKind)]); 2] = [
        (
            "maps/egypt_1895.toml",
            &[
                ("Nile", WaterKind::River),
                ("Rosetta branch", WaterKind::River),
                ("Damietta branch", WaterKind::River),
                ("Suez canal", WaterKind::Canal),
                ("Sweet Water canal", WaterKind::Canal),
                ("Mahmudiya canal", WaterKind::Canal),
                ("Bahr Yusuf", WaterKind::Canal),
                ("Mediterranean", WaterKind::Sea),
                ("Red Sea", WaterKind::Sea),
                ("Lake Mariut", WaterKind::Lake),
                ("Lake Burullus", WaterKind::Lake),
                ("Lake Manzala", WaterKind::Lake),
                ("Lake Timsah", WaterKind::Lake),
                ("Bitter Lakes", WaterKind::Lake),
                ("Lake Qarun", WaterKind::Lake),
            ],
        ),
        ("maps/scruby_jumbo.toml", &[("The River", WaterKind::River)]),
    ];
    for (file, waters) in cases {
        let map = bundled(file);
        let found: Vec<(&str, WaterKind)> = map
            .waters
            .iter()
            .map(|w| (w.name.as_deref().unwrap_or(""), w.kind))
            .collect();
        assert_eq!(found, waters.to_vec(), "{file}");
        let outlines = region_outlines(&map);
        assert_eq!(outlines.len(), map.regions.len(), "{file}");
        for (region, outline) in map.regions.iter().zip(&outlines) {
            assert!(!outline.rings.is_empty(), "{file}: {} has no outline", region.id);
            if outline.source == OutlineSource::Cell {
                assert!(outline.contains([region.x, region.y]), "{file}: {}", region.id);
            }
        }
        // Most regions read as territories, not discs.
        let cells = outlines
            .iter()
            .filter(|o| o.source == OutlineSource::Cell)
            .count();
        assert!(cells * 10 >= map.regions.len() * 8, "{file}: only {cells} cells");
    }
}

/// The Jumbo table's river crosses exactly the three bridged roads, as its
/// header comment reconstructs it.
#[test]
fn the_jumbo_river_crosses_exactly_the_bridged_roads() {
    let map = bundled("maps/scruby_jumbo.toml");
    let river: LineString<f64> = map.waters[0].points.iter().map(|p| (p[0], p[1])).collect();
    let at = |id: &umpire::model::RegionId| {
        let r = map.regions.iter().find(|r| &r.id == id).unwrap();
        (r.x, r.y)
    };
    let mut crossed = Vec::new();
    for road in &map.roads {
        let line = Line::from([at(&road.from), at(&road.to)]);
        let bridged = road.river == Some(RiverCrossing::Bridge);
        assert_eq!(line.intersects(&river), bridged, "{} - {}", road.from, road.to);
        if bridged {
            crossed.push(format!("{}-{}", road.from, road.to));
        }
    }
    assert_eq!(
        crossed,
        ["bridge_z-z_farm", "the_village-bridge_y", "x_west-bridge_x"]
    );
}

/// The bundled campaign copied into a folder with its map (no picture), made into `r.umpire`.
fn rebellion_save() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for sub in ["campaigns", "maps"] {
        std::fs::create_dir_all(dir.path().join(sub)).unwrap();
    }
    for file in ["maps/egypt_1895.toml", "campaigns/egyptian_rebellion_1895.toml"] {
        std::fs::copy(repo().join(file), dir.path().join(file)).unwrap();
    }
    let out = umpire(
        dir.path(),
        &["new", "campaigns/egyptian_rebellion_1895.toml", "r.umpire"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    dir
}

#[test]
fn a_report_page_draws_the_territories_and_the_waters() {
    let dir = rebellion_save();
    let out = umpire(dir.path(), &["report", "r.umpire", "british", "page.html"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let page = std::fs::read_to_string(dir.path().join("page.html")).unwrap();
    let territories = page
        .split("<g class=\"territories\"")
        .nth(1)
        .and_then(|rest| rest.split("</g>").next())
        .expect("the map has its territories");
    assert_eq!(territories.matches("<path d=\"M").count(), 44, "one per region");
    for name in [
        "Nile",
        "Rosetta branch",
        "Suez canal",
        "Mediterranean",
        "Lake Qarun",
    ] {
        let title = format!("<title>{name}</title></path>");
        assert!(page.contains(&title), "no path for {name}");
    }
}

#[test]
fn the_window_draws_a_territory_for_every_region() {
    let dir = rebellion_save();
    let save = dir.path().join("r.umpire");
    let mut h = common::window::window(
        [1000.0, 700.0],
        Launch {
            open: Some(save),
            ..Launch::default()
        },
    );
    h.run();
    assert_eq!(h.state().territories(), 44);
}
