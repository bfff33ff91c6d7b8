//! The map maker in the window, run headless with egui_kittest: a map drawn
//! by clicks, undone and redone, saved, checked by `umpire check` and read
//! back; the bundled maps through its open and save; a bad edit shown.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use egui::{Event, Modifiers, PointerButton, Pos2, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use std::path::{Path, PathBuf};
use umpire::model::map_edit::ProblemAt;
use umpire::model::{Map, RoadKind, Terrain};
use umpire::ui::map_maker::{Edit, MakerCommand, MapMaker, Picked, Start};
use umpire::ui::{Command, Launch, UmpireApp};

fn harness(folder: &Path, edit_map: Option<PathBuf>) -> Harness<'static, UmpireApp> {
    let launch = Launch {
        data_folder: Some(folder.to_owned()),
        edit_map,
        ..Launch::default()
    };
    let mut h = common::window::window([1280.0, 800.0], launch);
    h.run();
    h
}

fn maker<'a>(h: &'a Harness<'_, UmpireApp>) -> &'a MapMaker {
    h.state().map_maker().expect("the map maker is open")
}

fn send(h: &mut Harness<'_, UmpireApp>, command: MakerCommand) {
    h.state_mut()
        .map_maker_mut()
        .expect("the map maker is open")
        .send(command);
    h.run();
    h.run();
}

fn read_map(path: &Path) -> Map {
    let checked = umpire::files::load_map(path);
    let errors: Vec<String> = checked.diagnostics.iter().map(ToString::to_string).collect();
    checked
        .value
        .unwrap_or_else(|| panic!("{} does not check: {errors:?}", path.display()))
}

/// A primary click at a point of the window.
fn click_at(h: &mut Harness<'_, UmpireApp>, pos: Pos2) {
    h.event(Event::PointerMoved(pos));
    h.run();
    for pressed in [true, false] {
        h.event(Event::PointerButton {
            pos,
            button: PointerButton::Primary,
            pressed,
            modifiers: Modifiers::NONE,
        });
    }
    h.run();
    h.run();
}

fn click_region(h: &mut Harness<'_, UmpireApp>, id: &str) {
    let at = maker(h).region_on_screen(id).expect("the region is drawn");
    click_at(h, at);
}

#[test]
fn two_regions_joined_by_a_road_undone_redone_saved_checked_and_read_back() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(dir.path(), None);
    // The File menu opens it over the campaign.
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("New map (map maker)…").click();
    h.run();
    h.run();
    assert!(maker(&h).map().regions.is_empty());

    // Two clicks on the empty map: two regions, named and placed.
    let centre = maker(&h).map_rect().center();
    click_at(&mut h, centre - vec2(150.0, 0.0));
    click_at(&mut h, centre + vec2(150.0, 40.0));
    let map = maker(&h).map().clone();
    let names: Vec<(&str, &str, Terrain)> = map
        .regions
        .iter()
        .map(|r| (r.id.as_str(), r.name.as_str(), r.terrain))
        .collect();
    assert_eq!(
        names,
        [
            ("region_1", "Region 1", Terrain::Open),
            ("region_2", "Region 2", Terrain::Open)
        ]
    );
    assert!(map.regions[1].x > map.regions[0].x && map.regions[1].y > map.regions[0].y);
    // Two regions and no road: not connected, which the check warns of.
    assert!(
        maker(&h)
            .problems()
            .iter()
            .any(|p| !p.error && p.message.contains("not connected")),
        "{:?}",
        maker(&h).problems()
    );

    // The Roads tool: one region, then the other.
    h.get_by_label("Roads").click();
    h.run();
    click_region(&mut h, "region_1");
    click_region(&mut h, "region_2");
    let map = maker(&h).map().clone();
    assert_eq!(map.roads.len(), 1, "{:?}", maker(&h).notes());
    let road = &map.roads[0];
    assert_eq!(
        (road.from.as_str(), road.to.as_str(), road.kind),
        ("region_1", "region_2", RoadKind::Road)
    );
    let (a, b) = (&map.regions[0], &map.regions[1]);
    let straight = ((a.x - b.x).hypot(a.y - b.y) * 10.0).round() / 10.0;
    assert!(
        (road.miles - straight).abs() < 1e-9,
        "{} vs {straight}",
        road.miles
    );
    assert!(maker(&h).problems().is_empty(), "{:?}", maker(&h).problems());
    h.key_press(egui::Key::Escape);
    h.run();

    // Undo takes the road away, redo gives it back.
    h.key_press_modifiers(Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert!(maker(&h).map().roads.is_empty());
    assert_eq!(maker(&h).map().regions.len(), 2);
    h.key_press_modifiers(Modifiers::COMMAND, egui::Key::Y);
    h.run();
    assert_eq!(maker(&h).map(), &map);

    // Saved: `umpire check` passes it, and it reads back as the same map.
    let file = dir.path().join("two.toml");
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, egui::Key::S);
    h.run();
    h.get_by_label("Map file").focus();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, egui::Key::A);
    h.get_by_label("Map file").type_text(file.to_str().unwrap());
    h.run();
    h.get_by_label("Save").click();
    h.run();
    h.run();
    assert!(file.is_file(), "{:?}", maker(&h).notes());
    assert!(!maker(&h).unsaved());
    let out = common::umpire(dir.path(), &["check", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    assert!(
        common::stdout(&out).contains("2 regions, 1 roads"),
        "{}",
        common::stdout(&out)
    );
    assert_eq!(read_map(&file), map);

    // Opened again in the map maker: the same map.
    let again = harness(dir.path(), Some(file.clone()));
    assert_eq!(maker(&again).map(), &map);
    assert_eq!(maker(&again).path(), Some(file.as_path()));

    // Closed: the window is back on the campaign.
    send(&mut h, MakerCommand::Close);
    assert!(h.state().map_maker().is_none());
    assert!(h.state().session().is_some());
}

#[test]
fn both_bundled_maps_go_through_open_and_save_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["egypt_1895.toml", "scruby_jumbo.toml"] {
        let original = common::repo().join("maps").join(name);
        let map = read_map(&original);
        let mut h = harness(dir.path(), Some(original.clone()));
        assert_eq!(maker(&h).map(), &map, "{name}");
        assert!(
            maker(&h).problems().iter().all(|p| !p.error),
            "{name}: {:?}",
            maker(&h).problems()
        );
        let copy = dir.path().join(name);
        send(&mut h, MakerCommand::SaveAs(copy.clone()));
        assert!(!maker(&h).unsaved(), "{name}: {:?}", maker(&h).notes());
        assert_eq!(read_map(&copy), map, "{name}");
    }
}

#[test]
fn a_bad_edit_shows_its_problem_at_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(dir.path(), None);
    h.state_mut().send(Command::MapMaker(Start::New));
    h.run();
    h.run();
    for x in [10.0, 30.0] {
        send(
            &mut h,
            MakerCommand::Edit {
                edit: Edit::AddRegion([x, 20.0]),
                merge: None,
            },
        );
    }
    assert_eq!(maker(&h).picked(), Picked::Region(1));

    // Region 2 renamed "Region 1" in its Name field: two regions of one name.
    h.get_by_label("Name").focus();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, egui::Key::A);
    h.get_by_label("Name").type_text("Region 1");
    h.run();
    h.run();
    assert_eq!(maker(&h).map().regions[1].name, "Region 1");
    let problem = maker(&h)
        .problems()
        .iter()
        .find(|p| p.error)
        .cloned()
        .expect("a problem");
    assert!(problem.message.contains("duplicate region name"), "{problem:?}");
    assert_eq!(problem.at, ProblemAt::Region(1));
    h.get_by_label_contains("duplicate region name");
    h.get_by_label_contains("1 problem ·");

    // Undone, no problem; then a road of 0 miles, ringed at the road.
    h.key_press(egui::Key::Escape);
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, egui::Key::Z);
    h.run();
    h.run();
    assert!(
        maker(&h).problems().iter().all(|p| !p.error),
        "{:?}",
        maker(&h).problems()
    );
    send(
        &mut h,
        MakerCommand::Edit {
            edit: Edit::AddRoad(0, 1, RoadKind::Track),
            merge: None,
        },
    );
    let mut road = maker(&h).map().roads[0].clone();
    road.miles = 0.0;
    send(
        &mut h,
        MakerCommand::Edit {
            edit: Edit::SetRoad(0, road),
            merge: None,
        },
    );
    let problem = maker(&h)
        .problems()
        .iter()
        .find(|p| p.error)
        .cloned()
        .expect("a problem");
    assert_eq!(problem.at, ProblemAt::Road(0));
    assert!(
        problem.message.contains("must be more than 0 miles"),
        "{problem:?}"
    );
    h.get_by_label_contains("must be more than 0 miles");

    // Delete (the key) deletes the selected road.
    assert_eq!(maker(&h).picked(), Picked::Road(0));
    h.key_press(egui::Key::Delete);
    h.run();
    assert!(maker(&h).map().roads.is_empty());
}

#[test]
fn a_region_dragged_moves_with_its_roads_in_one_undo_step_and_delete_takes_its_roads() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(dir.path(), Some(common::repo().join("maps/scruby_jumbo.toml")));
    let before = maker(&h).map().clone();
    let i = before
        .regions
        .iter()
        .position(|r| r.id.as_str() == "central_plain")
        .unwrap();
    let from = maker(&h).region_on_screen("central_plain").unwrap();
    let to = from + vec2(60.0, 30.0);
    h.event(Event::PointerMoved(from));
    h.run();
    h.event(Event::PointerButton {
        pos: from,
        button: PointerButton::Primary,
        pressed: true,
        modifiers: Modifiers::NONE,
    });
    h.run();
    for step in 1..=6 {
        h.event(Event::PointerMoved(from + (to - from) * (step as f32 / 6.0)));
        h.run();
    }
    h.event(Event::PointerButton {
        pos: to,
        button: PointerButton::Primary,
        pressed: false,
        modifiers: Modifiers::NONE,
    });
    h.run();
    h.run();
    let after = maker(&h).map().clone();
    let (was, now) = (&before.regions[i], &after.regions[i]);
    assert!(
        now.x > was.x && now.y > was.y,
        "moved east and south: {was:?} → {now:?}"
    );
    // The map did not pan under it: the region is where the pointer let go.
    let dropped = maker(&h).region_on_screen("central_plain").unwrap();
    assert!(dropped.distance(to) < 2.0, "{dropped:?} vs {to:?}");
    assert_eq!(maker(&h).picked(), Picked::Region(i));
    // One step back: where it was, roads and all.
    h.key_press_modifiers(Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert_eq!(maker(&h).map(), &before);

    // Delete takes the region and its roads; undo brings them back.
    let roads = before.roads_from(&before.regions[i].id).count();
    assert!(roads > 0);
    send(&mut h, MakerCommand::Select(Picked::Region(i)));
    h.key_press(egui::Key::Delete);
    h.run();
    let deleted = maker(&h).map().clone();
    assert_eq!(deleted.regions.len(), before.regions.len() - 1);
    assert_eq!(deleted.roads.len(), before.roads.len() - roads);
    h.key_press_modifiers(Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert_eq!(maker(&h).map(), &before);
}

/// A press, a drag in steps and a release.
fn drag(h: &mut Harness<'_, UmpireApp>, from: Pos2, to: Pos2) {
    h.event(Event::PointerMoved(from));
    h.run();
    h.event(Event::PointerButton {
        pos: from,
        button: PointerButton::Primary,
        pressed: true,
        modifiers: Modifiers::NONE,
    });
    h.run();
    for step in 1..=6 {
        h.event(Event::PointerMoved(from + (to - from) * (step as f32 / 6.0)));
        h.run();
    }
    h.event(Event::PointerButton {
        pos: to,
        button: PointerButton::Primary,
        pressed: false,
        modifiers: Modifiers::NONE,
    });
    h.run();
    h.run();
}

#[test]
fn a_new_campaign_is_set_out_on_the_map_by_dragging_from_the_palette_and_saved_as_a_campaign_file() {
    use umpire::ui::campaign_sketch::{Palette, SketchCommand};
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("maps")).unwrap();
    let map_file = dir.path().join("maps/jumbo.toml");
    std::fs::copy(common::repo().join("maps/scruby_jumbo.toml"), &map_file).unwrap();
    let mut h = harness(dir.path(), Some(map_file.clone()));
    h.get_by_label("Campaign").click();
    h.run();
    h.run();
    let sketch = maker(&h)
        .sketching()
        .expect("the Campaign tool began a campaign")
        .sketch
        .clone();
    assert_eq!(sketch.sides.len(), 2);
    assert!(
        maker(&h)
            .sketching()
            .unwrap()
            .problems()
            .iter()
            .any(|(error, m)| *error && m.contains("has no left HQ")),
        "{:?}",
        maker(&h).sketching().unwrap().problems()
    );

    // Red's left HQ and an infantry brigade dragged from the palette onto the map.
    let palette = h.get_by_label("Left HQ").rect().center();
    let target = maker(&h).region_on_screen("red_left_hq").unwrap();
    drag(&mut h, palette, target);
    let palette = h.get_by_label("Infantry brigade (4)").rect().center();
    drag(&mut h, palette, target);
    let sketch = maker(&h).sketching().unwrap().sketch.clone();
    assert_eq!(
        sketch
            .hqs
            .iter()
            .map(|hq| (hq.side.as_str(), hq.wing.as_str(), hq.region.as_str()))
            .collect::<Vec<_>>(),
        [("red", "left", "red_left_hq")],
        "{:?}",
        maker(&h).notes()
    );
    assert_eq!(sketch.forces.len(), 1);
    assert_eq!(
        (sketch.forces[0].side.as_str(), sketch.forces[0].stands.len()),
        ("red", 4)
    );

    // The rest placed as the palette does: every HQ, a force for Blue.
    for (side, wing, region) in [
        (0, umpire::model::Wing::Centre, "red_centre_hq"),
        (0, umpire::model::Wing::Right, "red_right_hq"),
        (1, umpire::model::Wing::Left, "blue_left_hq"),
        (1, umpire::model::Wing::Centre, "blue_centre_hq"),
        (1, umpire::model::Wing::Right, "blue_right_hq"),
    ] {
        send(&mut h, MakerCommand::Sketch(SketchCommand::Choose(side)));
        send(
            &mut h,
            MakerCommand::Sketch(SketchCommand::Place(
                Palette::Hq(wing),
                umpire::model::RegionId::new(region),
            )),
        );
    }
    send(
        &mut h,
        MakerCommand::Sketch(SketchCommand::Place(
            Palette::Force(1),
            umpire::model::RegionId::new("blue_centre_hq"),
        )),
    );
    let problems = maker(&h).sketching().unwrap().problems().to_vec();
    assert!(problems.iter().all(|(error, _)| !error), "{problems:?}");
    h.get_by_label_contains("`umpire check` passes this campaign");

    // Saved beside the map's folder: it names the map relative to itself,
    // `umpire check` passes it and `umpire new` starts it.
    let file = dir.path().join("campaigns/jumbo_war.toml");
    send(&mut h, MakerCommand::Sketch(SketchCommand::Save(file.clone())));
    assert!(file.is_file(), "{:?}", maker(&h).notes());
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("map = \"../maps/jumbo.toml\""), "{text}");
    let out = common::umpire(dir.path(), &["check", file.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}{}",
        common::stdout(&out),
        common::stderr(&out)
    );
    let out = common::umpire(dir.path(), &["new", file.to_str().unwrap(), "jumbo_war.umpire"]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let campaign = umpire::files::load_campaign(&file)
        .value
        .expect("the campaign checks");
    assert_eq!(
        (campaign.sides.len(), campaign.forces.len(), campaign.hqs.len()),
        (2, 2, 6)
    );
    assert_eq!(campaign.map, read_map(&map_file));
}

#[test]
fn a_campaign_is_not_saved_on_a_map_not_saved() {
    use umpire::ui::campaign_sketch::SketchCommand;
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(dir.path(), None);
    h.state_mut().send(Command::MapMaker(Start::New));
    h.run();
    send(
        &mut h,
        MakerCommand::Edit {
            edit: Edit::AddRegion([1.0, 1.0]),
            merge: None,
        },
    );
    send(&mut h, MakerCommand::Tool(umpire::ui::map_maker::Tool::Campaign));
    let file = dir.path().join("c.toml");
    send(&mut h, MakerCommand::Sketch(SketchCommand::Save(file.clone())));
    assert!(!file.exists());
    assert!(
        maker(&h)
            .notes()
            .iter()
            .any(|n| n.error && n.text.contains("Save the map first")),
        "{:?}",
        maker(&h).notes()
    );
}

#[test]
fn edit_a_map_file_asks_for_the_file_and_opens_it_on_enter() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(dir.path(), None);
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Edit a map file…").click();
    h.run();
    h.run();
    // The form's field has the keyboard: type over it and press Enter.
    let file = common::repo().join("maps/scruby_jumbo.toml");
    h.key_press_modifiers(Modifiers::COMMAND, egui::Key::A);
    h.get_by_label("Map file").type_text(file.to_str().unwrap());
    h.run();
    h.key_press(egui::Key::Enter);
    h.run();
    h.run();
    assert_eq!(maker(&h).path(), Some(file.as_path()), "{:?}", maker(&h).notes());
    assert_eq!(maker(&h).map(), &read_map(&file));
    assert!(h.query_by_label("Open a map file").is_none(), "the form closes");
}
