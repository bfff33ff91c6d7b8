//! The window's End turn with battles pending, and Help > Rule sources,
//! run headless with egui_kittest.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use common::*;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use std::path::{Path, PathBuf};
use umpire::ui::{Launch, UmpireApp};

fn opened(save: &Path) -> Harness<'static, UmpireApp> {
    let launch = Launch {
        open: Some(save.to_owned()),
        ..Launch::default()
    };
    let mut harness = common::window::window([1280.0, 800.0], launch);
    harness.run();
    harness
}

/// The Egyptian Rebellion after four game moves: battle 1 pending at Beni Suef.
fn with_a_battle_pending(dir: &Path) -> PathBuf {
    let repo = repo();
    let campaign = repo.join("campaigns/egyptian_rebellion_1895.toml");
    let run = |args: &[&str]| {
        let out = umpire(dir, args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    };
    run(&["new", campaign.to_str().unwrap(), "war.umpire"]);
    for (side, file) in [("british", "british_move1.toml"), ("rebels", "rebels_move1.toml")] {
        let orders = repo.join("campaigns/orders").join(file);
        run(&["orders", "war.umpire", side, orders.to_str().unwrap()]);
    }
    for _ in 0..4 {
        run(&["turn", "war.umpire"]);
    }
    dir.join("war.umpire")
}

fn turn(h: &Harness<'_, UmpireApp>) -> u32 {
    h.state().session().unwrap().campaign().turn
}

#[test]
fn end_turn_with_battles_pending_warns_and_goes_on_only_when_told() {
    let dir = tempfile::tempdir().unwrap();
    let save = with_a_battle_pending(dir.path());
    let mut h = opened(&save);
    assert_eq!(turn(&h), 5);

    h.get_by_label("End turn").click();
    h.run();
    h.get_by_label("End turn with battles pending?");
    h.get_by_label_contains(
        "battle 1 at Beni Suef (since game move 4): Army of the Rebellion attacking British Field Force",
    );
    assert_eq!(turn(&h), 5, "nothing resolved while the warning is up");

    // Cancel: the warning goes, the game move waits.
    h.get_by_label("Cancel").click();
    h.run();
    assert!(h.query_by_label("End turn with battles pending?").is_none());
    assert_eq!(turn(&h), 5);

    // Again, and end the turn anyway: the battle stays pending.
    h.get_by_label("End turn").click();
    h.run();
    h.get_by_label("End turn anyway").click();
    h.run();
    h.run();
    assert_eq!(turn(&h), 6);
    assert!(h.query_by_label("End turn with battles pending?").is_none());
    let c = h.state().session().unwrap().campaign().clone();
    assert_eq!(c.battles[0].status, umpire::model::BattleStatus::Pending);

    // The next End turn warns again: "anyway" was for one game move.
    h.get_by_label("End turn").click();
    h.run();
    h.get_by_label("End turn with battles pending?");
    assert_eq!(turn(&h), 6);
}

#[test]
fn end_turn_with_no_battle_pending_asks_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let campaign = repo().join("campaigns/egyptian_rebellion_1895.toml");
    let out = umpire(dir.path(), &["new", campaign.to_str().unwrap(), "war.umpire"]);
    assert!(out.status.success());
    let mut h = opened(&dir.path().join("war.umpire"));
    h.get_by_label("End turn").click();
    h.run();
    h.run();
    assert!(h.query_by_label("End turn with battles pending?").is_none());
    assert_eq!(turn(&h), 2);
}

#[test]
fn rule_sources_cite_publications_not_seed_files() {
    let dir = tempfile::tempdir().unwrap();
    let campaign = repo().join("campaigns/egyptian_rebellion_1895.toml");
    let out = umpire(dir.path(), &["new", campaign.to_str().unwrap(), "war.umpire"]);
    assert!(out.status.success());
    let mut h = opened(&dir.path().join("war.umpire"));
    h.get_by_label("Help").click();
    h.run();
    h.query_all_by_label("Rule sources")
        .next()
        .expect("Help > Rule sources")
        .click();
    h.run();
    h.get_by_label_contains("scruby-1965: Jack Scruby, \u{201c}Unbalanced Equality\u{201d} War Game Rules, Table Top Talk, November 1965");
    h.get_by_label_contains("harman-2021: Arthur Harman, Fighting Toy Soldier Battles");
    h.get_by_label_contains("cordery-2009: Bob Cordery");
    // The campaign's Strategic Rules and the scruby-basic battles: one publication.
    assert_eq!(
        h.query_all_by_label_contains("Basic War Game Rules, Soldier Factory News no. 1")
            .count(),
        2
    );
    assert!(
        h.query_all_by_label_contains(".txt").next().is_none(),
        "no seed file is named"
    );
}

#[test]
fn rule_sources_list_the_campaigns_house_rules() {
    let dir = tempfile::tempdir().unwrap();
    let campaign = repo().join("campaigns/egyptian_rebellion_1895.toml");
    let text = std::fs::read_to_string(&campaign).unwrap();
    let at = text.find("[[sides]]").unwrap();
    let ruled = format!(
        "{}[house_rules]\nforced_march_loss_per = 5\n\n{}",
        &text[..at],
        &text[at..]
    );
    // The campaign and its map (with its picture) copied as they lie in the repository.
    for folder in ["campaigns", "maps"] {
        std::fs::create_dir(dir.path().join(folder)).unwrap();
    }
    for map in ["egypt_1895.toml", "egypt_1895.png"] {
        std::fs::copy(repo().join("maps").join(map), dir.path().join("maps").join(map)).unwrap();
    }
    let file = dir.path().join("campaigns/ruled.toml");
    std::fs::write(&file, ruled).unwrap();
    let out = umpire(dir.path(), &["new", file.to_str().unwrap(), "war.umpire"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let mut h = opened(&dir.path().join("war.umpire"));
    h.get_by_label("Help").click();
    h.run();
    h.query_all_by_label("Rule sources")
        .next()
        .expect("Help > Rule sources")
        .click();
    h.run();
    h.get_by_label_contains(
        "House rule: forced march loses 1 stand in 5 (the seed: 1 in 10, scruby-basic Strategic Rules 3.1).",
    );
}

#[test]
fn file_export_writes_a_sides_report_page_as_umpire_report_does() {
    let dir = tempfile::tempdir().unwrap();
    let save = with_a_battle_pending(dir.path());
    let mut h = opened(&save);
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Export a side's report…").click();
    h.run();
    // The first side, its page beside the save, named for the game move.
    h.get_by_label("Export").click();
    h.run();
    let notes: Vec<String> = h.state().notes().iter().map(|n| n.text.clone()).collect();
    let page = dir.path().join("british_move5.html");
    assert!(page.is_file(), "{notes:?}");
    assert!(
        notes.iter().any(
            |n| n.contains("Wrote British Field Force's report for game move 5 to")
                && n.contains("a page to read in any browser")
        ),
        "{notes:?}"
    );
    let text = std::fs::read_to_string(&page).unwrap();
    assert!(
        text.starts_with("<!DOCTYPE html>") && text.contains("<svg"),
        "{text:.200}"
    );
    // The same text as the command line writes from the same save.
    let out = umpire(dir.path(), &["report", "war.umpire", "british", "cli.html"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        text,
        std::fs::read_to_string(dir.path().join("cli.html")).unwrap()
    );
}

#[test]
fn file_export_chronicle_writes_the_page_umpire_chronicle_writes() {
    let dir = tempfile::tempdir().unwrap();
    let save = with_a_battle_pending(dir.path());
    let mut h = opened(&save);
    let export = |h: &mut Harness<'_, UmpireApp>, side: Option<&str>| {
        h.get_by_label("File").click();
        h.run();
        h.get_by_label("Export chronicle…").click();
        h.run();
        if let Some(side) = side {
            h.get_by_label("Whose").click();
            h.run();
            // The choice in the open list: drawn last, over the window.
            h.query_all_by_label(side)
                .last()
                .expect("the side in the list")
                .click();
            h.run();
        }
        h.get_by_label("Export").click();
        h.run();
    };
    // The umpire's, beside the save.
    export(&mut h, None);
    let notes: Vec<String> = h.state().notes().iter().map(|n| n.text.clone()).collect();
    let page = dir.path().join("chronicle.html");
    assert!(page.is_file(), "{notes:?}");
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("Wrote the umpire's chronicle to")
                && n.contains("a page to read in any browser")),
        "{notes:?}"
    );
    let out = umpire(dir.path(), &["chronicle", "war.umpire", "cli.html"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&page).unwrap();
    assert!(
        text.contains("id=\"move-4\"") && text.contains("Battle 1"),
        "{text:.300}"
    );
    assert_eq!(
        text,
        std::fs::read_to_string(dir.path().join("cli.html")).unwrap()
    );
    // A side's: what the British knew, as `--side british` writes it.
    export(&mut h, Some("British Field Force"));
    let out = umpire(
        dir.path(),
        &["chronicle", "war.umpire", "cli.html", "--side", "british"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(&page).unwrap(),
        std::fs::read_to_string(dir.path().join("cli.html")).unwrap()
    );
}

/// With the house rule `odds_in_reports`, the report page's battle odds are
/// fought on another thread: the window goes on drawing, and says when the
/// page is written.
#[test]
fn a_report_with_battle_odds_is_written_on_another_thread() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let repo = repo();
    std::fs::create_dir_all(d.join("campaigns")).unwrap();
    std::fs::create_dir_all(d.join("maps")).unwrap();
    for file in ["egypt_1895.toml", "egypt_1895.png"] {
        std::fs::copy(repo.join("maps").join(file), d.join("maps").join(file)).unwrap();
    }
    let text = std::fs::read_to_string(repo.join("campaigns/egyptian_rebellion_1895.toml"))
        .unwrap()
        .replacen("[end]", "[house_rules]\nodds_in_reports = true\n\n[end]", 1);
    std::fs::write(d.join("campaigns/rebellion.toml"), text).unwrap();
    let run = |args: &[&str]| {
        let out = umpire(d, args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    };
    run(&["new", "campaigns/rebellion.toml", "war.umpire"]);
    for (side, file) in [("british", "british_move1.toml"), ("rebels", "rebels_move1.toml")] {
        let orders = repo.join("campaigns/orders").join(file);
        run(&["orders", "war.umpire", side, orders.to_str().unwrap()]);
    }
    for _ in 0..4 {
        run(&["turn", "war.umpire"]);
    }
    let mut h = opened(&d.join("war.umpire"));
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Export a side's report…").click();
    h.run();
    h.get_by_label("Export").click();
    h.run();
    assert!(h.state().exporting(), "the odds are fought on another thread");
    let notes = |h: &Harness<'_, UmpireApp>| -> Vec<String> {
        h.state().notes().iter().map(|n| n.text.clone()).collect()
    };
    assert!(
        notes(&h)
            .iter()
            .any(|n| n.contains("Working out the battles' odds")),
        "{:?}",
        notes(&h)
    );
    // Done within a minute, even in a debug build on a loaded machine.
    for _ in 0..600 {
        if !h.state().exporting() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
        h.run();
    }
    assert!(
        !h.state().exporting(),
        "the report is still being written after a minute"
    );
    assert!(
        notes(&h)
            .iter()
            .any(|n| n.contains("Wrote British Field Force's report for game move 5 to")),
        "{:?}",
        notes(&h)
    );
    let page = std::fs::read_to_string(d.join("british_move5.html")).unwrap();
    assert!(page.contains("<p class=\"odds\">"), "{page:.300}");
}

/// View > Played by the program: the umpire ticks a side, End turn gives its
/// orders from its own report (kept with its reasons), and resolves the move.
#[test]
fn a_side_played_by_the_program_gives_its_orders_at_end_turn() {
    let dir = tempfile::tempdir().unwrap();
    let campaign = repo().join("campaigns/egyptian_rebellion_1895.toml");
    assert!(
        umpire(dir.path(), &["new", campaign.to_str().unwrap(), "solo.umpire"])
            .status
            .success()
    );
    let save = dir.path().join("solo.umpire");
    let mut h = opened(&save);
    h.get_by_label("View").click();
    h.run();
    h.get_by_label("Played by the program");
    // (The open menu shows in two layers of the accessibility tree; either will do.)
    h.get_all_by_role_and_label(egui::accesskit::Role::CheckBox, "Army of the Rebellion")
        .next()
        .unwrap()
        .click();
    h.run();
    assert_eq!(
        umpire::store::Store::open(&save)
            .unwrap()
            .programmed_sides()
            .unwrap(),
        vec![umpire::model::SideId::new("rebels")]
    );
    h.key_press(egui::Key::Escape);
    h.run();
    h.get_by_label("End turn").click();
    h.run();
    h.run();
    assert_eq!(turn(&h), 2);
    let log = stdout(&umpire(dir.path(), &["log", "solo.umpire", "--turn", "1"]));
    assert!(
        log.contains("Army of the Rebellion gave orders for game move 1 (programmed commander)"),
        "{log}"
    );
    assert!(log.contains("      Plan: "), "{log}");
    // The British, a person's side, gave none.
    assert!(!log.contains("British Field Force gave orders"), "{log}");
}
