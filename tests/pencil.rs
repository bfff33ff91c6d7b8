//! The umpire's pencil (issue 15, item 2): `umpire edit` and the window's
//! pencil. Each edit is one change with the umpire's reason, shown in the
//! log, taken back by undo, checked whole (nothing written when refused),
//! and heard by the other sides only as the fog allows.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use common::fog_ground::{CAMPAIGN, MAP};
use common::{campaign_dir, stderr, stdout, umpire};
use egui_kittest::kittest::Queryable;
use std::path::Path;
use umpire::model::report::read_report;
use umpire::model::{Campaign, ForceId, StandId, StandingOrder, Wing};
use umpire::store::Store;
use umpire::ui::Launch;

/// The fog test ground, created and one game move played (red's outpost
/// sees the column on the plain, a blind in the hamlet, and not the host in
/// the deep desert).
fn ground() -> tempfile::TempDir {
    let dir = campaign_dir(MAP, CAMPAIGN);
    for args in [
        &["new", "campaign.toml", "fog.umpire"][..],
        &["turn", "fog.umpire"],
    ] {
        let out = umpire(dir.path(), args);
        assert!(out.status.success(), "{}", stderr(&out));
    }
    dir
}

fn load(dir: &Path) -> Campaign {
    Store::open(&dir.join("fog.umpire")).unwrap().load().unwrap()
}

fn edit(dir: &Path, args: &[&str]) -> std::process::Output {
    let mut all = vec!["edit", "fog.umpire"];
    all.extend_from_slice(args);
    umpire(dir, &all)
}

fn force<'c>(c: &'c Campaign, id: &str) -> &'c umpire::model::Force {
    c.force(&ForceId::new(id)).unwrap_or_else(|| panic!("force {id}"))
}

type Check = fn(&Campaign);

#[test]
fn each_edit_changes_the_campaign_is_told_in_the_log_and_undo_takes_it_back() {
    let cases: &[(&[&str], &str, Check)] = &[
        (
            &[
                "move",
                "Seen Column",
                "hamlet",
                "--reason",
                "it was there all along",
            ],
            "The umpire's edit: Seen Column placed at Hamlet, holding. Reason: it was there all along",
            |c| {
                let f = force(c, "seen-column");
                assert_eq!(
                    (f.region.as_str(), &f.en_route, &f.order),
                    ("hamlet", &None, &StandingOrder::Hold)
                );
            },
        ),
        (
            &[
                "add-force",
                "relief",
                "--name",
                "Relief Column",
                "--side",
                "red",
                "--region",
                "Redhome",
                "--kind",
                "heavy_cavalry",
                "--count",
                "2",
                "--reason",
                "arrives from the coast",
            ],
            "The umpire's edit: Relief Column (Red Army, 2 stands, 100 points) arrives at Redhome. Reason: arrives from the coast",
            |c| {
                let f = force(c, "relief");
                assert_eq!(
                    (f.side.as_str(), f.region.as_str(), f.stands.len()),
                    ("red", "red-home", 2)
                );
                // Numbered on from the highest stand id (31, the host's horsemen).
                let ids: Vec<u32> = f.stands.iter().map(|s| s.id.0).collect();
                assert_eq!(ids, [32, 33]);
                assert!(f.stands.iter().all(|s| s.strength == 50 && s.full == 50));
            },
        ),
        (
            &[
                "add-stands",
                "red-outpost",
                "--kind",
                "light_infantry",
                "--quality",
                "elite",
                "--reason",
                "drafts",
            ],
            "The umpire's edit: 1 stand, 100 points joins Red Outpost. Reason: drafts",
            |c| assert_eq!(force(c, "red-outpost").stands.len(), 2),
        ),
        (
            &["strength", "21", "20", "--reason", "fever"],
            "The umpire's edit: stand 21 (Garrison Rifles) of Hamlet Garrison set to 20 of 100 points, from 100. Reason: fever",
            |c| assert_eq!(c.stand(StandId(21)).unwrap().1.strength, 20),
        ),
        (
            &["remove-stand", "20", "--reason", "deserted"],
            "The umpire's edit: stand 20 (Garrison Company) of Hamlet Garrison taken off the map. Reason: deserted",
            |c| assert!(c.stand(StandId(20)).is_none()),
        ),
        (
            &["remove-stand", "10", "--reason", "lost in the desert"],
            "The umpire's edit: stand 10 (Column Company) of Seen Column taken off the map, and with it the force, which has no stands left. Reason: lost in the desert",
            |c| assert!(c.force(&ForceId::new("seen-column")).is_none()),
        ),
        (
            &["hand-over", "blue", "left", "red", "--reason", "bribed"],
            "The umpire's edit: Blue Army's left HQ handed to Red Army. Reason: bribed",
            |c| {
                let hq = c
                    .hqs
                    .iter()
                    .find(|h| h.side.as_str() == "blue" && h.wing == Wing::Left)
                    .unwrap();
                assert_eq!((hq.held_by.as_str(), hq.captured_turn), ("red", Some(2)));
            },
        ),
        (
            &["state", "red-outpost", "rest", "--reason", "sunstroke"],
            "The umpire's edit: Red Outpost must rest this game move. Reason: sunstroke",
            |c| assert!(force(c, "red-outpost").fatigue.must_rest),
        ),
        (
            &["ruling", "The wells at Deep Desert are dry until game move 6."],
            "The umpire rules: The wells at Deep Desert are dry until game move 6.",
            |c| assert_eq!(c.turn, 2),
        ),
    ];
    for (args, said, check) in cases {
        let dir = ground();
        let before = load(dir.path());
        let out = edit(dir.path(), args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        let told = stdout(&out);
        assert!(told.starts_with(said), "{args:?}: {told}");
        if args[0] == "ruling" {
            // A ruling changes nothing on the map: the fog does not look again.
            assert_eq!(told.lines().count(), 2, "{told}");
        }
        assert!(told.contains("`umpire undo fog.umpire` takes it back."), "{told}");
        let after = load(dir.path());
        check(&after);
        let log = stdout(&umpire(dir.path(), &["log", "fog.umpire"]));
        assert!(log.contains(said), "{args:?}: the log tells it:\n{log}");
        let undone = umpire(dir.path(), &["undo", "fog.umpire"]);
        assert!(undone.status.success(), "{}", stderr(&undone));
        assert_eq!(
            stdout(&undone),
            "Took back the umpire's last edit (made in game move 2).\n"
        );
        assert_eq!(
            load(dir.path()),
            before,
            "{args:?}: undo gives back the campaign whole"
        );
        let log = stdout(&umpire(dir.path(), &["log", "fog.umpire"]));
        assert!(log.contains(&format!("(undone) {said}")), "{log}");
    }
}

#[test]
fn edits_that_cannot_be_made_are_refused_whole_and_nothing_is_written() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["strength", "21", "160", "--reason", "x"],
            "stand 21 (Garrison Rifles) is 100 points at full strength: it cannot be set to 160; nothing was changed",
        ),
        (
            &["strength", "99", "10", "--reason", "x"],
            "no stand 99 in the campaign",
        ),
        (
            &["move", "Seen Colum", "plain", "--reason", "x"],
            "no force `Seen Colum` in the campaign (did you mean `Seen Column`?)",
        ),
        (
            &["move", "garrison", "plain", "--reason", "x"],
            "no force `garrison` in the campaign (did you mean `Hamlet Garrison`?)",
        ),
        (
            &["move", "seen-column", "Hamlett", "--reason", "x"],
            "no region `Hamlett` on the map (did you mean `hamlet`, Hamlet?)",
        ),
        (
            &["move", "seen-column", "plain", "--reason", "  "],
            "the reason is blank: say why the umpire makes this change",
        ),
        (
            &[
                "add-force",
                "seen-column",
                "--name",
                "Again",
                "--side",
                "red",
                "--region",
                "outpost",
                "--kind",
                "line_infantry",
                "--reason",
                "x",
            ],
            "a force `seen-column` is already in the campaign: choose another id",
        ),
        (
            &[
                "add-force",
                "ghost",
                "--name",
                "Ghost",
                "--side",
                "green",
                "--region",
                "outpost",
                "--kind",
                "line_infantry",
                "--reason",
                "x",
            ],
            "no side `green` in the campaign",
        ),
        (
            &["add-stands", "red-outpost", "--kind", "dragoons", "--reason", "x"],
            "unknown stand kind `dragoons`",
        ),
        (
            &["hand-over", "blue", "left", "blue", "--reason", "x"],
            "Blue Army already holds that HQ",
        ),
        (
            &["state", "red-outpost", "asleep", "--reason", "x"],
            "unknown state `asleep`: use hold, rest or fresh",
        ),
    ];
    let dir = ground();
    let save = dir.path().join("fog.umpire");
    let bytes = std::fs::read(&save).unwrap();
    for (args, said) in cases {
        let out = edit(dir.path(), args);
        assert!(!out.status.success(), "{args:?} was taken");
        let error = stderr(&out);
        assert!(error.contains(said), "{args:?}: {error}");
        assert!(error.contains("nothing was changed"), "{args:?}: {error}");
        assert_eq!(
            std::fs::read(&save).unwrap(),
            bytes,
            "{args:?}: the save was written"
        );
    }
}

fn report_text(dir: &Path, side: &str) -> String {
    let file = format!("{side}.json");
    let out = umpire(dir, &["report", "fog.umpire", side, &file]);
    assert!(out.status.success(), "{}", stderr(&out));
    std::fs::read_to_string(dir.join(file)).unwrap()
}

#[test]
fn the_other_side_hears_of_an_edit_only_as_the_fog_allows() {
    let dir = ground();
    // The host, which red has never seen, loses strength and then moves onto
    // the plain, in sight of red's outpost.
    for args in [
        &["strength", "30", "100", "--reason", "the host is starving"][..],
        &[
            "move",
            "desert-host",
            "plain",
            "--reason",
            "a secret march red could not see",
        ],
    ] {
        let out = edit(dir.path(), args);
        assert!(out.status.success(), "{}", stderr(&out));
    }
    let out = edit(dir.path(), &["ruling", "No quarter is given at the wells."]);
    assert!(out.status.success(), "{}", stderr(&out));
    let red = report_text(dir.path(), "red");
    for secret in ["starving", "secret march", "Host Spearmen", "desert-host"] {
        assert!(!red.contains(secret), "red's report holds `{secret}`:\n{red}");
    }
    let r = read_report(&red).unwrap();
    let sentences: Vec<&str> = r.events.iter().map(|e| e.sentence.as_str()).collect();
    assert!(
        sentences.contains(&"The umpire rules: No quarter is given at the wells."),
        "{sentences:?}"
    );
    // What red sees now: a force on the plain, by the fog's own words.
    assert!(
        r.known
            .iter()
            .any(|k| k.region.as_str() == "plain" && k.id.is_none()),
        "red sees something new on the plain: {:?}",
        r.known.iter().map(|k| k.label()).collect::<Vec<_>>()
    );
    let blue = report_text(dir.path(), "blue");
    let b = read_report(&blue).unwrap();
    let heard: Vec<&str> = b.events.iter().map(|e| e.sentence.as_str()).collect();
    assert!(
        heard.iter().any(|s| s.contains("Reason: the host is starving")),
        "blue hears of the edit to its own force: {heard:?}"
    );
    let status = stdout(&umpire(dir.path(), &["status", "fog.umpire", "--side", "red"]));
    assert!(!status.contains("Desert Host"), "{status}");
}

/// The window: the pencil window's reason and "Must rest" on the selected
/// force; the log shows the edit; Ctrl+Z takes it back.
#[test]
fn the_window_s_pencil_makes_an_edit_shown_in_the_log_and_undone_by_ctrl_z() {
    let dir = ground();
    let save = dir.path().join("fog.umpire");
    let launch = Launch {
        open: Some(save.clone()),
        ..Launch::default()
    };
    let mut h = common::window::window([1280.0, 800.0], launch);
    h.run();
    h.get_by_label("Red Outpost 100/100").click();
    h.run();
    // The inspector opens the pencil on the selected force.
    h.get_by_label("Pencil…").click();
    h.run();
    assert!(h.state_mut().pencil_mut().open);
    h.state_mut().pencil_mut().reason = "sunstroke".to_owned();
    h.run();
    h.get_by_label("Must rest").click();
    h.run();
    assert!(
        load(dir.path())
            .force(&ForceId::new("red-outpost"))
            .unwrap()
            .fatigue
            .must_rest
    );
    assert!(
        h.query_all_by_label_contains(
            "The umpire's edit: Red Outpost must rest this game move. Reason: sunstroke"
        )
        .count()
            >= 1,
        "the edit is told in the window"
    );
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert!(
        !load(dir.path())
            .force(&ForceId::new("red-outpost"))
            .unwrap()
            .fatigue
            .must_rest
    );
    h.get_by_label_contains("Took back the umpire's last edit.");
}

/// A ruling on a save whose sides' scouts made out forces in towns this game
/// move (the move-9 fixture): the fog does not look again without the
/// scouts' dice, so nothing they made out is taken back.
#[test]
fn a_ruling_leaves_what_the_scouts_made_out() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("old.umpire");
    std::fs::copy(
        common::repo().join("tests/fixtures/egypt_1895_move9.umpire"),
        &save,
    )
    .unwrap();
    let out = umpire(
        dir.path(),
        &["edit", "old.umpire", "ruling", "The wells are dry."],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "The umpire rules: The wells are dry.\n`umpire undo old.umpire` takes it back.\n"
    );
}
