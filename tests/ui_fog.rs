//! The window's side views, hot seat and play by email, run headless with
//! egui_kittest: a side sees only what it knows, switching sides passes the
//! screen first, and a report opened in the window gives an orders file that
//! `umpire orders` takes for its own save, side and game move only.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use common::world::*;
use common::{campaign_dir, stderr, stdout, umpire};
use egui::{Event as Input, Modifiers, PointerButton, Pos2};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use std::path::Path;
use umpire::model::report::{Report, read_report};
use umpire::model::*;
use umpire::store::Store;
use umpire::strategy::{Action, OrderRequest, check_requests, fog, read_orders_file, write_orders_file};
use umpire::ui::seat::Command as ViewCommand;
use umpire::ui::session::Command as SessionCommand;
use umpire::ui::view::{SideView, blind_id};
use umpire::ui::{Command, Launch, UmpireApp};

// ---------------------------------------------------------------------------
// The fog test ground of tests/fog.rs: after one game move red's outpost sees
// the column in the plain, a blind in the hamlet, and not the host in the
// desert behind it, which cuts its road home.

use common::fog_ground::{CAMPAIGN, MAP};

/// Every trace of the forces red has not seen: names, ids, stand names.
const HIDDEN: &[&str] = &[
    "Desert Host",
    "desert-host",
    "Host Spearmen",
    "Host Horsemen",
    "Hamlet Garrison",
    "hamlet-garrison",
    "Garrison Company",
    "Garrison Rifles",
];

/// The fog test ground, created and one game move played.
fn fog_ground() -> tempfile::TempDir {
    let dir = campaign_dir(MAP, CAMPAIGN);
    let out = umpire(dir.path(), &["new", "campaign.toml", "fog.umpire"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = umpire(dir.path(), &["turn", "fog.umpire"]);
    assert!(out.status.success(), "{}", stderr(&out));
    dir
}

fn red() -> SideId {
    SideId::new("red")
}

fn blue() -> SideId {
    SideId::new("blue")
}

fn harness(launch: Launch) -> Harness<'static, UmpireApp> {
    let mut harness = common::window::window([1280.0, 800.0], launch);
    harness.run();
    harness
}

fn opened(save: &Path, view: Option<&str>) -> Harness<'static, UmpireApp> {
    harness(Launch {
        open: Some(save.to_owned()),
        view: view.map(str::to_owned),
        ..Launch::default()
    })
}

/// Every label and value the window shows to assistive technology: what a
/// person can read in it, but for what is painted on the map.
fn all_text(h: &Harness<'_, UmpireApp>) -> String {
    h.query_all_by(|_| true)
        .map(|node| {
            let n = node.accesskit_node();
            format!(
                "{} | {}",
                n.label().unwrap_or_default(),
                n.value().unwrap_or_default()
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn hover(h: &mut Harness<'_, UmpireApp>, pos: Pos2) {
    h.event(Input::PointerMoved(pos));
    h.run();
    h.run();
}

fn click_at(h: &mut Harness<'_, UmpireApp>, pos: Pos2) {
    hover(h, pos);
    for pressed in [true, false] {
        h.event(Input::PointerButton {
            pos,
            button: PointerButton::Primary,
            pressed,
            modifiers: Modifiers::NONE,
        });
    }
    h.run();
}

fn notes(h: &Harness<'_, UmpireApp>) -> String {
    h.state()
        .notes()
        .iter()
        .map(|n| n.text.clone())
        .collect::<Vec<_>>()
        .join("\n")
}

fn events_of(save: &Path) -> (Campaign, Vec<Event>) {
    let store = Store::open(save).unwrap();
    (store.load().unwrap(), store.events().unwrap())
}

// ---------------------------------------------------------------------------
// The side's view, pure

#[test]
fn a_side_view_holds_its_own_forces_what_it_saw_and_nothing_more() {
    let dir = fog_ground();
    let (campaign, log) = events_of(&dir.path().join("fog.umpire"));
    let view = SideView::of(&campaign, &red(), &log).unwrap();

    let mut shown: Vec<(String, String, usize)> = view
        .campaign
        .forces
        .iter()
        .map(|f| (f.id.to_string(), f.name.clone(), f.stands.len()))
        .collect();
    shown.sort();
    assert_eq!(
        shown,
        [
            ("blind 2".to_owned(), "blind 2".to_owned(), 0),
            ("red-outpost".to_owned(), "Red Outpost".to_owned(), 1),
            ("seen-column".to_owned(), "Seen Column".to_owned(), 0),
        ]
    );
    let blind = view.mark(&blind_id(2)).unwrap();
    assert!(blind.blind && blind.in_sight && blind.points.is_none());
    let column = view.mark(&ForceId::new("seen-column")).unwrap();
    assert_eq!(
        (column.blind, column.points, column.stands),
        (false, Some(100), Some(1))
    );
    assert!(
        view.mark(&ForceId::new("red-outpost")).is_none(),
        "its own force is no mark"
    );
    assert_eq!(
        view.campaign.forces_of(&red()).next().unwrap(),
        campaign.force(&ForceId::new("red-outpost")).unwrap()
    );

    // Nothing of the unseen forces anywhere in the view but the public map.
    let mut whole = serde_json::to_value(&view.campaign).unwrap();
    whole.as_object_mut().unwrap().remove("map");
    let text = format!("{whole} {:?}", view.log);
    for hidden in HIDDEN.iter().chain(&["Deep Desert", "\"deep\""]) {
        assert!(!text.contains(hidden), "`{hidden}` is in red's view:\n{text}");
    }
    // The log as red heard it: its road is cut, not where.
    assert!(
        view.log
            .iter()
            .any(|e| e.sentence.contains("the enemy holds its road to the nearest HQ")),
        "{:?}",
        view.log
    );
    // Orders on the view are checked against what red knows: it may not order blue's column.
    let refused = check_requests(
        &view.campaign,
        &red(),
        &[OrderRequest {
            force: ForceId::new("seen-column"),
            action: Action::Hold,
            forced: false,
            by: Default::default(),
        }],
    )
    .unwrap_err();
    assert!(refused[0].message.contains("belongs to Blue Army"), "{refused:?}");
}

#[test]
fn a_report_file_gives_the_same_view_as_the_save() {
    let dir = fog_ground();
    let out = umpire(dir.path(), &["report", "fog.umpire", "red", "red.json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let report = read_report(&std::fs::read_to_string(dir.path().join("red.json")).unwrap()).unwrap();
    let (campaign, log) = events_of(&dir.path().join("fog.umpire"));
    let from_save = SideView::of(&campaign, &red(), &log).unwrap();
    let from_file = SideView::from_report(&report).unwrap();
    assert_eq!(from_file.campaign.forces, from_save.campaign.forces);
    assert_eq!(from_file.campaign.knowledge, from_save.campaign.knowledge);
    assert_eq!(from_file.marks, from_save.marks);
    assert_eq!(from_file.campaign.hqs, campaign.hqs);
    assert_eq!(from_file.campaign.map, campaign.map);
    assert_eq!((from_file.campaign.turn, from_file.date), (2, campaign.date()));
    // The report holds the last game move's events as red heard them; the view of the save all of them.
    assert_eq!(from_file.log, Report::of(&campaign, &red(), &log).unwrap().events);
}

#[test]
fn a_battle_shows_both_sides_in_full_in_a_sides_view() {
    let regions = vec![
        at(region("red-home", Terrain::Open), 0.0, 0.0),
        with(at(region("town", Terrain::Urban), 10.0, 0.0), &[Feature::Town]),
        at(region("blue-home", Terrain::Open), 900.0, 0.0),
    ];
    let roads = vec![
        road("red-home", "town", RoadKind::Road, 10.0),
        road("town", "blue-home", RoadKind::Road, 890.0),
    ];
    let mut c = campaign(
        regions,
        roads,
        "red-home",
        "blue-home",
        vec![
            force("red-col", "red", "town", stands(StandKind::LineInfantry, 2, 1)),
            force("blue-col", "blue", "town", stands(StandKind::LineInfantry, 3, 10)),
            force(
                "blue-far",
                "blue",
                "blue-home",
                stands(StandKind::LineInfantry, 1, 20),
            ),
        ],
    );
    c.battles.push(Battle {
        id: 1,
        turn: 1,
        region: RegionId::new("town"),
        attacker: red(),
        defender: blue(),
        forces: vec![ForceId::new("red-col"), ForceId::new("blue-col")],
        reserves: vec![],
        status: BattleStatus::Pending,
        came_from: vec![],
        record: BattleRecord::default(),
    });
    let mut rng = c.rng.generator();
    fog::look(&mut c, &mut rng, 1);
    let view = SideView::of(&c, &red(), &[]).unwrap();
    let enemy = view.campaign.force(&ForceId::new("blue-col")).unwrap();
    assert_eq!(enemy.stands, c.force(&ForceId::new("blue-col")).unwrap().stands);
    let mark = view.mark(&enemy.id).unwrap();
    assert!(mark.in_battle && !mark.blind);
    assert_eq!(view.campaign.battles.len(), 1);
    assert!(view.campaign.force(&ForceId::new("blue-far")).is_none());
}

fn at(mut r: Region, x: f64, y: f64) -> Region {
    r.x = x;
    r.y = y;
    r
}

fn with(mut r: Region, features: &[Feature]) -> Region {
    r.features = features.to_vec();
    r
}

#[test]
fn orders_written_to_a_file_read_back_as_the_same_orders() {
    let mut c = campaign(
        vec![
            region("a", Terrain::Open),
            region("b", Terrain::Open),
            region("c", Terrain::Hills),
        ],
        vec![
            road("a", "b", RoadKind::Road, 10.0),
            road("b", "c", RoadKind::Track, 12.0),
        ],
        "a",
        "c",
        vec![
            force("red-one", "red", "a", stands(StandKind::LineInfantry, 3, 1)),
            force("red-two", "red", "a", stands(StandKind::LineInfantry, 1, 10)),
            force("red-three", "red", "b", stands(StandKind::LightCavalry, 1, 20)),
        ],
    );
    c.title = "A \"quoted\" war".to_owned();
    let request = |force: &str, action: Action, forced: bool| OrderRequest {
        force: ForceId::new(force),
        action,
        forced,
        by: Default::default(),
    };
    let requests = [
        request("red-one", Action::To(RegionId::new("c")), true),
        request(
            "red-one",
            Action::Split {
                stands: vec![StandId(2), StandId(3)],
                new_force: ForceId::new("red-split"),
                name: "Red Split".to_owned(),
            },
            false,
        ),
        request("red-two", Action::MergeInto(ForceId::new("red-one")), false),
        request("red-three", Action::Hold, false),
    ];
    let set = check_requests(&c, &red(), &requests).unwrap();
    let text = write_orders_file(&c.title, &set);
    let read = read_orders_file(
        &c,
        &red(),
        umpire::model::check::Source {
            name: "orders.toml",
            text: &text,
        },
    );
    assert!(read.diagnostics.is_empty(), "{:?}\n{text}", read.diagnostics);
    assert_eq!(read.value.unwrap(), set, "{text}");
    // Another side or game move: refused.
    for (side, turn, refusal) in [
        (
            blue(),
            1,
            "these orders are for side `red`, but were given for side `blue`",
        ),
        (
            red(),
            2,
            "these orders are for game move 1, but the campaign is at game move 2",
        ),
    ] {
        let mut later = c.clone();
        later.turn = turn;
        let read = read_orders_file(
            &later,
            &side,
            umpire::model::check::Source {
                name: "orders.toml",
                text: &text,
            },
        );
        assert!(read.value.is_none());
        assert!(
            read.diagnostics.iter().any(|d| d.message == refusal),
            "{:?}",
            read.diagnostics
        );
    }
}

// ---------------------------------------------------------------------------
// The window

#[test]
fn the_side_view_hides_an_unseen_enemy_force_and_shows_a_blind_as_a_marker() {
    let dir = fog_ground();
    let save = dir.path().join("fog.umpire");

    // The umpire sees everything.
    let h = opened(&save, None);
    let text = all_text(&h);
    assert!(text.contains("Desert Host"), "{text}");
    assert!(h.state().counter_on_screen("desert-host").is_some());
    drop(h);

    let mut h = opened(&save, Some("red"));
    assert_eq!(h.state().viewer(), Some(&red()));
    assert!(
        !h.state().passing_the_screen(),
        "started in red's view: no page to pass"
    );
    let text = all_text(&h);
    for hidden in HIDDEN {
        assert!(!text.contains(hidden), "`{hidden}` shows in red's view:\n{text}");
    }
    h.get_by_label("Red Outpost 100/100");
    h.get_by_label_contains("Blue Army: 2 forces known, 3 HQs");
    h.get_by_label_contains("Seen Column: 100 pts, Plain, in sight");
    h.get_by_label_contains("blind 2: Hamlet, in sight");
    h.get_by_label_contains("as Red Army's commanders heard it");
    h.get_by_label_contains("the enemy holds its road to the nearest HQ");
    assert!(h.state().counter_on_screen("desert-host").is_none());

    // The blind on the map: a marker with its number, no name, no strength.
    assert!(h.state_mut().look_at("hamlet", 3.0));
    h.run();
    let at = h
        .state()
        .counter_on_screen("blind 2")
        .expect("the blind is on the map");
    hover(&mut h, at);
    h.get_by_label("blind 2");
    h.get_by_label_contains("blind: name and strength unknown");
    h.get_by_label_contains("At Hamlet, in sight");

    // Selected, it is inspected, not ordered.
    click_at(&mut h, at);
    assert_eq!(h.state().selection(), &umpire::ui::Selection::Force(blind_id(2)));
    h.get_by_label_contains("Blind 2: a force seen but not made out");
    assert!(h.query_by_label("Hold").is_none());
    let text = all_text(&h);
    for hidden in HIDDEN {
        assert!(!text.contains(hidden), "`{hidden}` shows in red's view:\n{text}");
    }
}

#[test]
fn switching_sides_passes_the_screen_and_hides_the_map_until_continue() {
    let dir = fog_ground();
    let mut h = opened(&dir.path().join("fog.umpire"), None);
    h.get_by_label("Campaign map");

    for (choice, to, viewer) in [
        ("As Red Army", "Red Army", Some(red())),
        ("As Blue Army", "Blue Army", Some(blue())),
        ("As the umpire (everything)", "the umpire", None),
    ] {
        h.get_by_label("View").click();
        h.run();
        h.get_by_label(choice).click();
        h.run();
        assert!(h.state().passing_the_screen());
        h.get_by_label(&format!("Hand the screen to {to}."));
        h.get_by_label_contains("Press Continue when only");
        assert!(
            h.query_by_label("Campaign map").is_none(),
            "the map is drawn under the page"
        );
        let text = all_text(&h);
        for hidden in HIDDEN
            .iter()
            .chain(&["Red Outpost", "Seen Column", "Turn log", "Fog test"])
        {
            assert!(!text.contains(hidden), "`{hidden}` shows under the page:\n{text}");
        }
        h.get_by_label("Continue").click();
        h.run();
        assert!(!h.state().passing_the_screen());
        assert_eq!(h.state().viewer(), viewer.as_ref());
        h.get_by_label("Campaign map");
    }
}

#[test]
fn in_a_sides_view_orders_go_only_to_its_own_forces() {
    let dir = fog_ground();
    let save = dir.path().join("fog.umpire");
    let mut h = opened(&save, Some("blue"));
    let order = |side: &str, force: &str| {
        Command::Session(SessionCommand::Order {
            side: SideId::new(side),
            request: OrderRequest {
                force: ForceId::new(force),
                action: Action::Hold,
                forced: false,
                by: Default::default(),
            },
        })
    };
    h.state_mut().send(order("red", "red-outpost"));
    h.run();
    assert!(
        notes(&h).contains("In Blue Army's view orders go only to Blue Army's own forces."),
        "{}",
        notes(&h)
    );
    h.state_mut().send(order("blue", "desert-host"));
    h.run();
    h.get_by_label_contains("1 order given");
    assert_eq!(h.state().session().unwrap().pending().len(), 1);

    // Red's view does not show blue's orders, and red may not take them back.
    h.state_mut()
        .send(Command::View(ViewCommand::ViewAs(Some(red()))));
    h.run();
    h.get_by_label("Continue").click();
    h.run();
    h.get_by_label_contains("0 orders given");
    h.state_mut().send(Command::Session(SessionCommand::Undo));
    h.run();
    assert!(
        notes(&h).contains("switch to the umpire's view to undo it"),
        "{}",
        notes(&h)
    );
    assert_eq!(h.state().session().unwrap().pending().len(), 1);
}

#[test]
fn a_report_opened_in_the_window_gives_orders_that_umpire_orders_takes_for_its_save_only() {
    let dir = fog_ground();
    let out = umpire(dir.path(), &["report", "fog.umpire", "red", "red.json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let report = dir.path().join("red.json");

    // The window opens on a campaign of its own, with no save of this one.
    let data = tempfile::tempdir().unwrap();
    let mut h = harness(Launch {
        data_folder: Some(data.path().to_owned()),
        ..Launch::default()
    });
    assert!(h.state().has_background(), "the bundled campaign's map picture");
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Open report…").click();
    h.run();
    h.get_by_label("Report file").focus();
    h.run();
    h.get_by_label("Report file").type_text(report.to_str().unwrap());
    h.run();
    h.get_by_label("Open").click();
    h.run();
    h.run();
    assert_eq!(h.state().report_path(), Some(report.as_path()), "{}", notes(&h));
    assert_eq!(h.state().viewer(), Some(&red()));
    assert!(
        !h.state().has_background(),
        "the save's picture is not the report's map"
    );
    h.get_by_label_contains("Fog test: game move 2");
    h.get_by_label("Red Army's report");
    h.get_by_label_contains("Seen Column: 100 pts, Plain, in sight");
    h.get_by_label_contains("blind 2: Hamlet, in sight");
    let text = all_text(&h);
    for hidden in HIDDEN {
        assert!(
            !text.contains(hidden),
            "`{hidden}` shows on red's report:\n{text}"
        );
    }

    // Orders on the map, as in a campaign: select the outpost, click its home.
    h.get_by_label("Red Outpost 100/100").click();
    h.run();
    assert!(h.state_mut().look_at("red-home", 1.5));
    h.run();
    let home = h.state().region_on_screen("red-home").unwrap();
    click_at(&mut h, home);
    assert!(
        notes(&h).contains("Red Outpost: march to Redhome (2 regions)"),
        "{}",
        notes(&h)
    );
    h.get_by_label_contains("1 order given");
    // An enemy force is not the report's to order.
    h.state_mut().send(Command::Session(SessionCommand::Order {
        side: blue(),
        request: OrderRequest {
            force: ForceId::new("seen-column"),
            action: Action::Hold,
            forced: false,
            by: Default::default(),
        },
    }));
    h.run();
    assert!(
        notes(&h).contains("this is Red Army's report: orders go only to its own forces"),
        "{}",
        notes(&h)
    );
    // Nor is the game move.
    h.get_by_label("End turn").click();
    h.run();
    assert!(notes(&h).contains("A report is read-only"), "{}", notes(&h));

    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Write orders…").click();
    h.run();
    h.get_by_label("Write").click();
    h.run();
    let orders = dir.path().join("red_orders.toml");
    assert!(orders.is_file(), "{}", notes(&h));
    assert!(notes(&h).contains("Wrote 1 order to"), "{}", notes(&h));
    let text = std::fs::read_to_string(&orders).unwrap();
    assert!(
        text.contains("campaign = \"Fog test\"\nside = \"red\"\nturn = 2\n"),
        "{text}"
    );

    // Closing the report hands the screen back to the umpire's view of the window's own save.
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Close report").click();
    h.run();
    h.get_by_label("Hand the screen to the umpire.");
    h.get_by_label("Continue").click();
    h.run();
    assert_eq!((h.state().viewer(), h.state().report_path()), (None, None));
    h.get_by_label_contains("The Egyptian Rebellion of 1895: game move 1");
    assert!(h.state().has_background());

    // Refused for another side, another campaign, another game move; taken for its own.
    let give = |save: &str, side: &str| umpire(dir.path(), &["orders", save, side, "red_orders.toml"]);
    let out = give("fog.umpire", "blue");
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("these orders are for side `red`, but were given for side `blue`"),
        "{}",
        stderr(&out)
    );
    std::fs::write(
        dir.path().join("other.toml"),
        CAMPAIGN.replace("title = \"Fog test\"", "title = \"Another war\""),
    )
    .unwrap();
    assert!(
        umpire(dir.path(), &["new", "other.toml", "other.umpire"])
            .status
            .success()
    );
    assert!(umpire(dir.path(), &["turn", "other.umpire"]).status.success());
    let out = give("other.umpire", "red");
    assert!(!out.status.success());
    assert!(
        stderr(&out)
            .contains("these orders are for the campaign \"Fog test\", but the save holds \"Another war\""),
        "{}",
        stderr(&out)
    );
    let out = give("fog.umpire", "red");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("march"), "{}", stdout(&out));
    assert!(umpire(dir.path(), &["turn", "fog.umpire"]).status.success());
    let out = give("fog.umpire", "red");
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("these orders are for game move 2, but the campaign is at game move 3"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_bad_report_file_shows_its_message_and_the_window_goes_on() {
    let dir = fog_ground();
    let save = dir.path().join("fog.umpire");
    std::fs::write(dir.path().join("broken.json"), "{ \"format\": ").unwrap();
    std::fs::write(dir.path().join("other.json"), "{ \"format\": \"something\" }").unwrap();
    let mut h = opened(&save, None);
    for (file, message) in [
        (
            "broken.json",
            "broken.json:1:12: EOF while parsing a value: the report is not valid JSON",
        ),
        (
            "other.json",
            "other.json: this is not an umpire report (its `format` is \"something\"",
        ),
        ("missing.json", "missing.json:1:1: error: cannot read the file"),
        ("fog.umpire", "fog.umpire:1:1: error: the file is not UTF-8 text"),
    ] {
        h.state_mut()
            .send(Command::View(ViewCommand::OpenReport(dir.path().join(file))));
        h.run();
        let said = notes(&h);
        assert!(said.contains(message), "{file}: {said}");
        assert!(h.state().report_path().is_none());
        assert_eq!(h.state().viewer(), None);
        h.get_by_label("Campaign map");
    }
}

#[test]
fn a_force_out_of_sight_is_remembered_where_and_when_it_was_last_seen() {
    let dir = fog_ground();
    let (mut campaign, _) = events_of(&dir.path().join("fog.umpire"));
    for s in &mut campaign.knowledge.sightings {
        if s.force.as_str() == "seen-column" {
            s.in_sight = false;
            s.turn = 1;
        }
    }
    let save = dir.path().join("memory.umpire");
    umpire::store::Store::create(&save, &campaign, umpire::store::Overwrite::Refuse).unwrap();
    let (campaign, log) = events_of(&save);
    let view = SideView::of(&campaign, &red(), &log).unwrap();
    let mark = view.mark(&ForceId::new("seen-column")).unwrap();
    assert_eq!(
        (mark.in_sight, mark.when()),
        (false, "last seen game move 1".to_owned())
    );

    let mut h = opened(&save, Some("red"));
    h.get_by_label_contains("Seen Column: 100 pts, Plain, last seen game move 1");
    assert!(h.state_mut().look_at("plain", 3.0));
    h.run();
    let at = h
        .state()
        .counter_on_screen("seen-column")
        .expect("drawn where it was last seen");
    hover(&mut h, at);
    h.get_by_label_contains("At Plain, last seen game move 1");
    h.get_by_label_contains("1 stand, 100 points when last seen");
}

#[test]
fn a_game_move_ended_in_a_sides_view_tells_only_what_it_heard() {
    let dir = fog_ground();
    let save = dir.path().join("fog.umpire");
    let mut h = opened(&save, Some("blue"));
    h.get_by_label("End turn").click();
    h.run();
    h.get_by_label_contains("Game move 2: what happened");
    // The umpire's log says red's outpost is still cut off; blue never hears of red's supply.
    let (_, log) = events_of(&save);
    let told = "Red Outpost at Outpost has been cut off";
    assert!(
        log.iter().any(|e| e.turn == 2 && e.sentence.starts_with(told)),
        "{:?}",
        log.iter()
            .filter(|e| e.turn == 2)
            .map(|e| &e.sentence)
            .collect::<Vec<_>>()
    );
    let text = all_text(&h);
    assert!(!text.contains(told), "{text}");
    assert!(
        text.contains("Hamlet Garrison at Hamlet has been cut off for 2 game moves (the enemy holds Outpost"),
        "{text}"
    );
    for hidden in ["Red Outpost at Outpost is cut", "Outpost Company"] {
        assert!(!text.contains(hidden), "`{hidden}` shows in blue's view:\n{text}");
    }
}

/// At the hot seat in a side's view, File > Export offers that side's
/// report and chronicle only: neither the umpire's chronicle nor the enemy's.
#[test]
fn in_a_sides_view_the_exports_are_that_sides_own() {
    let dir = fog_ground();
    let save = dir.path().join("fog.umpire");
    for (item, choice) in [
        ("Export chronicle…", "Whose"),
        ("Export a side's report…", "Side"),
    ] {
        let mut h = opened(&save, Some("red"));
        h.get_by_label("File").click();
        h.run();
        h.get_by_label(item).click();
        h.run();
        // The list of whose it may be, opened: red's only.
        h.get_by_label(choice).click();
        h.run();
        assert!(h.query_by_label("The umpire's: everything").is_none(), "{item}");
        assert!(h.query_by_label("Blue Army").is_none(), "{item}");
        assert!(h.query_all_by_label("Red Army").count() >= 1, "{item}");
    }
}
