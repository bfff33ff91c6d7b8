//! The desktop app, run headless with egui_kittest: no window, no display.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use common::world::*;
use egui::{Event, Modifiers, PointerButton, Pos2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use std::path::Path;
use umpire::model::{Campaign, Force, RegionId, StandingOrder, Terrain};
use umpire::store::{Overwrite, Store};
use umpire::ui::{Launch, Session, UmpireApp};

fn harness(launch: Launch) -> Harness<'static, UmpireApp> {
    let mut harness = common::window::window([1280.0, 800.0], launch);
    harness.run();
    harness
}

fn bundled(folder: &Path) -> Harness<'static, UmpireApp> {
    harness(Launch {
        data_folder: Some(folder.to_owned()),
        ..Launch::default()
    })
}

fn opened(save: &Path) -> Harness<'static, UmpireApp> {
    harness(Launch {
        open: Some(save.to_owned()),
        ..Launch::default()
    })
}

/// The window on a new save of the bundled Jumbo game (1961) in `dir`.
fn jumbo(dir: &Path) -> Harness<'static, UmpireApp> {
    let campaign = common::repo().join("campaigns/scruby_jumbo_1961.toml");
    let out = common::umpire(dir, &["new", campaign.to_str().unwrap(), "jumbo.umpire"]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let mut h = opened(&dir.join("jumbo.umpire"));
    h.run();
    h
}

fn campaign(h: &Harness<'_, UmpireApp>) -> Campaign {
    h.state()
        .session()
        .expect("a campaign is open")
        .campaign()
        .clone()
}

/// The log the window holds is the save's whole log, read in pieces as it
/// grew, each checkpoint with the state it keeps (for the plots).
fn assert_log_matches_the_save(h: &Harness<'_, UmpireApp>) {
    let session = h.state().session().unwrap();
    let stored = Store::open(session.path()).unwrap().events_with_states().unwrap();
    assert_eq!(session.events(), stored.as_slice());
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
}

/// Centres the map on a region, zoomed in, and clicks it.
fn click_region(h: &mut Harness<'_, UmpireApp>, region: &str) {
    assert!(h.state_mut().look_at(region, 6.0), "the map knows {region}");
    h.run();
    let pos = h.state().region_on_screen(region).unwrap();
    click_at(h, pos);
}

/// The first British force with a neighbouring region free of forces, and that region.
fn one_move_march(c: &Campaign) -> (Force, RegionId) {
    c.forces
        .iter()
        .filter(|f| f.side.as_str() == "british")
        .find_map(|f| {
            let to = c
                .map
                .roads_from(&f.region)
                .filter(|r| r.river != Some(umpire::model::RiverCrossing::None))
                .filter_map(|r| r.other_end(&f.region))
                .find(|other| !c.forces.iter().any(|x| &x.region == *other))?;
            Some((f.clone(), to.clone()))
        })
        .expect("a British force next to an empty region")
}

#[test]
fn the_app_opens_on_the_bundled_campaign_in_the_data_folder() {
    let folder = tempfile::tempdir().unwrap();
    let h = bundled(folder.path());
    assert!(folder.path().join(umpire::ui::BUNDLED_SAVE_NAME).is_file());
    let c = campaign(&h);
    assert_eq!(c.title, "The Egyptian Rebellion of 1895");
    h.get_by_label_contains("The Egyptian Rebellion of 1895: game move 1");
    h.get_by_label_contains("British Field Force: 2900/2900 pts, 3 HQs");
    h.get_by_label_contains("Army of the Rebellion: 4400/4400 pts, 3 HQs");
    h.get_by_label("End turn");
    assert!(
        h.state().notes().iter().all(|n| !n.error),
        "{:?}",
        h.state().notes()
    );

    // The second start opens the same save, not a new one.
    let again = bundled(folder.path());
    assert_eq!(campaign(&again).turn, 1);
}

#[test]
fn selecting_a_force_ordering_a_march_and_ending_the_turn_moves_it() {
    let folder = tempfile::tempdir().unwrap();
    let mut h = bundled(folder.path());
    let c = campaign(&h);
    let (force, target) = one_move_march(&c);

    // Select it in the forces tree, then click the region on the map.
    h.get_by_label_contains(&format!("{} ", force.name)).click();
    h.run();
    assert_eq!(
        h.state().selection(),
        &umpire::ui::Selection::Force(force.id.clone())
    );
    click_region(&mut h, target.as_str());
    let session = h.state().session().unwrap();
    let (path, forced, _) = session.ordered_march(&force.id).expect("the march was ordered");
    assert_eq!((path.last(), forced), (Some(&target), false));
    h.get_by_label_contains("1 order given");

    h.get_by_label("End turn").click();
    h.run();
    let after = campaign(&h);
    assert_eq!(after.turn, 2);
    // Arrived, or on the road to it when the march takes more than one game move.
    let moved = after.force(&force.id).unwrap();
    let days = umpire::strategy::march_forecast(&c, &force, std::slice::from_ref(&target), false).unwrap();
    if days.game_moves == 1 {
        assert_eq!(
            (&moved.region, &moved.en_route, &moved.order),
            (&target, &None, &StandingOrder::Hold)
        );
    } else {
        assert_eq!(moved.region, force.region);
        assert_eq!(moved.en_route.as_ref().map(|e| &e.toward), Some(&target));
    }
    // The summary window tells what happened, and so does the log.
    h.get_by_label("Game move 1: what happened");
    assert!(
        h.query_all_by_label_contains(&format!("{} marched", force.name))
            .count()
            >= 1
    );
}

#[test]
fn undo_and_redo_take_back_and_give_again_an_order() {
    let folder = tempfile::tempdir().unwrap();
    let mut h = bundled(folder.path());
    let c = campaign(&h);
    let (force, target) = one_move_march(&c);
    h.get_by_label_contains(&format!("{} ", force.name)).click();
    h.run();
    click_region(&mut h, target.as_str());
    assert!(h.state().session().unwrap().ordered_march(&force.id).is_some());

    h.key_press_modifiers(Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert!(h.state().session().unwrap().ordered_march(&force.id).is_none());
    assert!(h.state().session().unwrap().can_redo());

    h.key_press_modifiers(Modifiers::COMMAND, egui::Key::Y);
    h.run();
    let (path, _, _) = h
        .state()
        .session()
        .unwrap()
        .ordered_march(&force.id)
        .expect("given again");
    assert_eq!(path.last(), Some(&target));
    h.get_by_label("End turn").click();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert_eq!(campaign(&h).turn, 1, "the game move was undone");
    assert_log_matches_the_save(&h);
}

/// Red's column at c, its HQs at a, blue's column at b astride the road home;
/// blue's own road home runs from b straight to e.
fn cut_off_save(dir: &Path) -> std::path::PathBuf {
    let regions = ["a", "b", "c", "d", "e"]
        .iter()
        .zip(0..)
        .map(|(id, i)| {
            let mut r = region(id, Terrain::Open);
            r.x = f64::from(i) * 15.0;
            r
        })
        .collect();
    let roads = vec![
        road("a", "b", umpire::model::RoadKind::Road, 15.0),
        road("b", "c", umpire::model::RoadKind::Road, 15.0),
        road("c", "d", umpire::model::RoadKind::Road, 15.0),
        road("d", "e", umpire::model::RoadKind::Road, 15.0),
        road("b", "e", umpire::model::RoadKind::Track, 50.0),
    ];
    let mut red = force(
        "red-column",
        "red",
        "c",
        stands(umpire::model::StandKind::LineInfantry, 3, 1),
    );
    red.supply.cut_moves = 2;
    let blue = force(
        "blue-column",
        "blue",
        "b",
        stands(umpire::model::StandKind::LineInfantry, 3, 10),
    );
    let c = common::world::campaign(regions, roads, "a", "e", vec![red, blue]);
    // What each side sees at the start, as `umpire new` gives it.
    let c = umpire::strategy::fog::begin(&c);
    let save = dir.join("cut.umpire");
    Store::create(&save, &c, Overwrite::Refuse).unwrap();
    save
}

#[test]
fn the_supply_overlay_marks_a_cut_off_force() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = opened(&cut_off_save(dir.path()));
    assert!(
        h.state().marked_cut_off().is_empty(),
        "nothing traced with the overlay off"
    );

    h.get_by_label("View").click();
    h.run();
    h.get_by_label("Supply lines").click();
    h.run();
    assert_eq!(h.state().marked_cut_off(), vec!["red-column".to_owned()]);

    h.get_by_label_contains("Red Column ").click();
    h.run();
    // Cut at B for 2 moves so far: 2 more before it loses a stand (Strategic Rules 2.2).
    h.get_by_label_contains("Cut off at B (2 game moves cut so far); 2 game moves before it loses a stand");
}

#[test]
fn a_refused_order_shows_its_message_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = opened(&cut_off_save(dir.path()));
    // A forced march may not attack (Strategic Rules 3.4): red's column onto blue at b.
    h.get_by_label_contains("Red Column ").click();
    h.run();
    h.get_by_label("Forced march").click();
    h.run();
    click_region(&mut h, "b");
    h.get_by_label_contains("a forced march may not be used to attack (Strategic Rules 3.4)");
    let session = h.state().session().unwrap();
    assert!(session.pending().is_empty());
    assert!(h.state().notes().iter().any(|n| n.error));
}

#[test]
fn a_bad_campaign_file_shows_its_message_and_the_campaign_stays_open() {
    let folder = tempfile::tempdir().unwrap();
    let mut h = bundled(folder.path());
    let open = h.state().session().unwrap().path().to_owned();
    let bad = folder.path().join("broken.toml");
    std::fs::write(&bad, "title = \"Broken\"\nmap = 3\n").unwrap();
    h.state_mut().send(umpire::ui::Command::NewCampaign {
        campaign: bad,
        save: folder.path().join("broken.umpire"),
    });
    h.run();
    h.get_by_label_contains("broken.toml cannot be used, nothing was created");
    assert!(!folder.path().join("broken.umpire").exists());
    assert_eq!(h.state().session().unwrap().path(), open);

    h.state_mut()
        .send(umpire::ui::Command::Open(folder.path().join("missing.umpire")));
    h.run();
    h.get_by_label_contains("missing.umpire: no such save file");
    assert_eq!(h.state().session().unwrap().path(), open);
}

#[test]
fn a_force_split_in_the_inspector_and_merged_back_after_the_move() {
    let folder = tempfile::tempdir().unwrap();
    let mut h = bundled(folder.path());
    let c = campaign(&h);
    let force = c
        .forces
        .iter()
        .find(|f| f.side.as_str() == "british" && f.stands.len() >= 3)
        .unwrap()
        .clone();
    h.get_by_label_contains(&format!("{} ", force.name)).click();
    h.run();
    for stand in &force.stands[..2] {
        h.get_by_label_contains(&format!("{} (", stand.name)).click();
        h.run();
    }
    for (field, text) in [
        ("New force id", "flying-column"),
        ("New force name", "Flying Column"),
    ] {
        h.get_by_label(field).focus();
        h.run();
        h.get_by_label(field).type_text(text);
        h.run();
    }
    h.get_by_label("Split off 2 stands").click();
    h.run();
    assert!(
        h.state().notes().iter().all(|n| !n.error),
        "{:?}",
        h.state().notes()
    );
    h.get_by_label("End turn").click();
    h.run();
    let after = campaign(&h);
    let column = after
        .force(&umpire::model::ForceId::new("flying-column"))
        .expect("the new force");
    assert_eq!((column.stands.len(), &column.region), (2, &force.region));
    assert_eq!(
        after.force(&force.id).unwrap().stands.len(),
        force.stands.len() - 2
    );

    // Merge the column back into its parent through the inspector.
    h.get_by_label("Close").click();
    h.run();
    h.get_by_label_contains("Flying Column ").click();
    h.run();
    h.get_by_label("Merge into").click();
    h.run();
    h.get_by_label(&force.name).click();
    h.run();
    h.get_by_label("Merge").click();
    h.run();
    h.get_by_label("End turn").click();
    h.run();
    let merged = campaign(&h);
    assert!(
        merged
            .force(&umpire::model::ForceId::new("flying-column"))
            .is_none()
    );
    assert_eq!(merged.force(&force.id).unwrap().stands.len(), force.stands.len());
}

#[test]
fn the_plots_and_battles_windows_open_after_a_game_move() {
    let folder = tempfile::tempdir().unwrap();
    let mut h = bundled(folder.path());
    h.get_by_label("End turn").click();
    h.run();
    h.get_by_label("View").click();
    h.run();
    h.get_by_label("Plots").click();
    h.run();
    h.get_by_label("Strength in roster points after each game move (0 is the start)");
    h.get_by_label("Stands lost, by side and cause");
    h.get_by_label("HQs held after each game move");
    h.get_by_label("View").click();
    h.run();
    h.get_by_label("Battles").click();
    h.run();
    assert!(
        h.query_by_label_contains("No battles are pending").is_some()
            || h.query_by_label_contains("Battle ").is_some()
    );
}

#[test]
fn save_as_copies_the_history_and_goes_on_in_the_copy() {
    let folder = tempfile::tempdir().unwrap();
    let mut h = bundled(folder.path());
    h.get_by_label("End turn").click();
    h.run();
    let copy = folder.path().join("copy.umpire");
    h.state_mut().send(umpire::ui::Command::SaveAs(copy.clone()));
    h.run();
    let session = h.state().session().unwrap();
    assert_eq!(session.path(), copy);
    assert_eq!(session.campaign().turn, 2);
    assert!(session.events().iter().any(|e| e.kind.name() == "checkpoint"));
    // Undo in the copy leaves the original at game move 2.
    h.state_mut()
        .send(umpire::ui::Command::Session(umpire::ui::session::Command::Undo));
    h.run();
    assert_eq!(campaign(&h).turn, 1);
    let original = Session::open(&folder.path().join(umpire::ui::BUNDLED_SAVE_NAME)).unwrap();
    assert_eq!(original.campaign().turn, 2);
}

/// Presses at `from`, moves in steps to `to` and lets go there.
fn drag(h: &mut Harness<'_, UmpireApp>, from: Pos2, to: Pos2) {
    h.event(Event::PointerMoved(from));
    h.run();
    let button = |pos, pressed| Event::PointerButton {
        pos,
        button: PointerButton::Primary,
        pressed,
        modifiers: Modifiers::NONE,
    };
    h.event(button(from, true));
    h.run();
    for k in 1..=6 {
        h.event(Event::PointerMoved(from + (to - from) * (k as f32 / 6.0)));
        h.run();
    }
    h.event(button(to, false));
    h.run();
}

#[test]
fn dragging_a_counter_onto_a_region_orders_the_march_and_dragging_the_map_pans_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = opened(&cut_off_save(dir.path()));
    assert!(h.state_mut().look_at("c", 6.0));
    h.run();
    let counter = h.state().counter_on_screen("red-column").unwrap();
    let d = h.state().region_on_screen("d").unwrap();
    drag(&mut h, counter, d);
    let session = h.state().session().unwrap();
    let (path, forced, _) = session
        .ordered_march(&umpire::model::ForceId::new("red-column"))
        .expect("the drag ordered a march");
    assert_eq!((path, forced), ([RegionId::new("d")].as_slice(), false));

    // A drag on empty ground moves the map under the pointer.
    let before = h.state().region_on_screen("c").unwrap();
    let empty = before + egui::vec2(0.0, 150.0);
    drag(&mut h, empty, empty + egui::vec2(60.0, 0.0));
    let after = h.state().region_on_screen("c").unwrap();
    assert!((after.x - before.x - 60.0).abs() < 2.0, "{before:?} -> {after:?}");
    assert!(
        h.state().session().unwrap().pending().len() == 1,
        "panning ordered nothing"
    );
}

#[test]
fn keyboard_shortcuts_toggle_forced_march_clear_the_selection_and_zoom_to_fit() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = opened(&cut_off_save(dir.path()));
    let fitted = h.state().region_on_screen("c").unwrap();
    h.get_by_label_contains("Red Column ").click();
    h.run();
    assert!(!h.state().forced());
    h.key_press(egui::Key::F);
    h.run();
    assert!(h.state().forced());
    h.key_press(egui::Key::Escape);
    h.run();
    assert_eq!(h.state().selection(), &umpire::ui::Selection::None);

    assert!(h.state_mut().look_at("a", 20.0));
    h.run();
    assert!(h.state().region_on_screen("c").unwrap().distance(fitted) > 200.0);
    h.key_press(egui::Key::Home);
    h.run();
    // Back to the whole map (the panels beside it may have changed width a little).
    let back = h.state().region_on_screen("c").unwrap();
    assert!(back.distance(fitted) < 20.0, "{fitted:?} -> {back:?}");

    // Ctrl+E ends the turn.
    h.key_press_modifiers(Modifiers::COMMAND, egui::Key::E);
    h.run();
    assert_eq!(campaign(&h).turn, 2);
}

#[test]
fn a_game_move_resolved_on_another_thread_lands_when_done() {
    let folder = tempfile::tempdir().unwrap();
    let mut h = bundled(folder.path());
    h.state_mut().resolve_on_a_thread_above(0);
    h.get_by_label("End turn").click();
    h.step();
    assert!(h.state().resolving(), "the game move went to another thread");
    assert_eq!(campaign(&h).turn, 1);
    let mut frames = 0;
    while campaign(&h).turn == 1 && frames < 500 {
        std::thread::sleep(std::time::Duration::from_millis(5));
        h.step();
        frames += 1;
    }
    assert_eq!(campaign(&h).turn, 2, "resolved within {frames} frames");
    assert!(!h.state().resolving());
    h.run();
    h.get_by_label("Game move 1: what happened");
}

#[test]
fn the_menus_show_each_items_keyboard_shortcut() {
    let folder = tempfile::tempdir().unwrap();
    let mut h = bundled(folder.path());
    for (menu, items) in [
        (
            "Turn",
            &["End turn (resolve the game move) Ctrl+E", "Undo Ctrl+Z"][..],
        ),
        ("File", &["Open… Ctrl+O", "Save as… Ctrl+Shift+S", "Quit Ctrl+Q"]),
        ("View", &["Zoom to fit Home"]),
        ("Help", &["Keyboard shortcuts F1"]),
    ] {
        h.get_by_label(menu).click();
        h.run();
        for item in items {
            h.get_by_label(item);
        }
        h.get_by_label(menu).click();
        h.run();
    }
}

/// The three Red forces at the Red centre HQ of the Jumbo table are one
/// stack: one counter (their points together, their number at its corner)
/// until the pointer comes over it, or one of them is selected.
#[test]
fn forces_in_one_region_are_one_stack_spread_out_under_the_pointer() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = jumbo(dir.path());
    let stack = ["red-div-3", "red-div-4", "red-heavy-cavalry"];
    let shown = |h: &Harness<'_, UmpireApp>| -> Vec<bool> {
        stack
            .iter()
            .map(|f| h.state().counter_shown(f).unwrap())
            .collect()
    };
    assert_eq!(shown(&h), [true, false, false], "one counter for the stack");
    // Over it, the stack spreads out; each counter its own place.
    let top = h.state().counter_on_screen(stack[0]).unwrap();
    h.event(Event::PointerMoved(top));
    h.run();
    assert_eq!(shown(&h), [true, true, true], "spread out under the pointer");
    let places: Vec<Pos2> = stack
        .iter()
        .map(|f| h.state().counter_on_screen(f).unwrap())
        .collect();
    assert!(places[0].distance(places[1]) > 10.0 && places[1].distance(places[2]) > 10.0);
    // Up its column to the last counter, it stays spread; that one can be clicked.
    h.event(Event::PointerMoved(places[2]));
    h.run();
    assert_eq!(shown(&h), [true, true, true]);
    // Away from it, one counter again.
    let away = h.state().region_on_screen("central_plain").unwrap();
    h.event(Event::PointerMoved(away));
    h.run();
    assert_eq!(shown(&h), [true, false, false]);
    // A force of the stack selected in the tree: spread out to show it.
    h.get_by_label_contains("Red Heavy Cavalry ").click();
    h.run();
    h.event(Event::PointerMoved(away));
    h.run();
    assert_eq!(
        shown(&h),
        [true, true, true],
        "the selected force's stack is spread"
    );
}

/// The Jumbo table is a few miles across: zoom to fit fills the map panel
/// with it, as it does with a map of a thousand miles.
#[test]
fn zoom_to_fit_fills_the_panel_with_a_small_map() {
    let dir = tempfile::tempdir().unwrap();
    let h = jumbo(dir.path());
    let c = campaign(&h);
    let spots: Vec<Pos2> = c
        .map
        .regions
        .iter()
        .map(|r| h.state().region_on_screen(r.id.as_str()).unwrap())
        .collect();
    let (min, max) = spots.iter().fold(
        (Pos2::new(f32::MAX, f32::MAX), Pos2::new(f32::MIN, f32::MIN)),
        |(lo, hi), p| (lo.min(*p), hi.max(*p)),
    );
    // The map panel is about 740 x 640 points between the side panels.
    let (wide, high) = (max.x - min.x, max.y - min.y);
    assert!(
        wide > 560.0 || high > 480.0,
        "the regions span {wide} x {high} points"
    );
}

/// On the Egyptian map, the names of Medinet el-Faiyum and Beni Suef (close
/// together, both towns) do not overlap each other or a counter: at the
/// first zoom one may be hidden for want of room; zoomed in, both are shown,
/// apart. The region under the pointer is always named.
#[test]
fn region_names_keep_clear_of_each_other_and_of_the_counters() {
    let folder = tempfile::tempdir().unwrap();
    let mut h = bundled(folder.path());
    let names = ["faiyum", "beni_suef"];
    let apart = |h: &Harness<'_, UmpireApp>| -> Vec<Option<egui::Rect>> {
        let rects: Vec<Option<egui::Rect>> = names.iter().map(|r| h.state().label_on_screen(r)).collect();
        if let [Some(a), Some(b)] = rects[..] {
            assert!(!a.intersects(b), "the names overlap: {a:?} and {b:?}");
        }
        let c = campaign(h);
        for (name, rect) in names.iter().zip(&rects) {
            for f in &c.forces {
                if let (Some(rect), Some(true)) = (rect, h.state().counter_shown(f.id.as_str())) {
                    let at = h.state().counter_on_screen(f.id.as_str()).unwrap();
                    assert!(!rect.contains(at), "{name}'s name under {}'s counter", f.id);
                }
            }
        }
        rects
    };
    let first = apart(&h);
    assert!(
        first.iter().any(Option::is_some),
        "at least one of the two named: {first:?}"
    );
    assert!(h.state_mut().look_at("beni_suef", 12.0));
    h.run();
    h.run();
    let zoomed = apart(&h);
    assert!(
        zoomed.iter().all(Option::is_some),
        "both named zoomed in: {zoomed:?}"
    );
    // At the first zoom again, the pointer over a region names it.
    h.key_press(egui::Key::Home);
    h.run();
    for name in names {
        let at = h.state().region_on_screen(name).unwrap();
        h.event(Event::PointerMoved(at));
        h.run();
        h.run();
        assert!(
            h.state().label_on_screen(name).is_some(),
            "{name} named under the pointer"
        );
        apart(&h);
    }
}
