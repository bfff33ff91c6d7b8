//! The campaign's end in the window (issue 16, item 4), run headless with
//! egui_kittest: the banner with the final standing, End turn disabled with
//! the reason, Ctrl+E refused with it, Ctrl+Z taking the end back, and the
//! pencil's End the campaign.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use common::{CAMPAIGN, MAP, campaign_dir, stderr, umpire};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use std::path::Path;
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

/// The test campaign with `[end]` `last_move = 1`, created and its one game move played.
fn ended_save(dir: &Path) -> std::path::PathBuf {
    for args in [&["new", "campaign.toml", "c.umpire"][..], &["turn", "c.umpire"]] {
        let out = umpire(dir, args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    }
    dir.join("c.umpire")
}

fn turn(h: &Harness<'_, UmpireApp>) -> u32 {
    h.state().session().unwrap().campaign().turn
}

fn end_turn_disabled(h: &Harness<'_, UmpireApp>) -> bool {
    h.get_by_label("End turn").accesskit_node().is_disabled()
}

#[test]
fn the_window_shows_the_end_disables_end_turn_and_undo_takes_it_back() {
    let end = CAMPAIGN.replacen(
        "rules = \"scruby-1965\"\n",
        "rules = \"scruby-1965\"\n\n[end]\nlast_move = 1\n",
        1,
    );
    let dir = campaign_dir(MAP, &end);
    let save = ended_save(dir.path());
    let mut h = opened(&save);
    assert_eq!(turn(&h), 2);
    h.get_by_label("The campaign ended on game move 1: game move 1 was the last (last_move = 1).");
    h.get_by_label(
        "Final standing, by HQs held and then points: Blue Army 3 HQs, 200 points; Red Army 3 HQs, 160 points.",
    );
    h.get_by_label(
        "Blue Army wins on points, 200 to 160, both holding 3 HQs (a tie in HQs is broken by points: this program's choice).",
    );
    assert!(end_turn_disabled(&h), "End turn is disabled after the end");

    // Ctrl+E is refused with the reason; nothing is resolved.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::E);
    h.run();
    h.run();
    assert_eq!(turn(&h), 2);
    h.get_by_label_contains("the campaign ended on game move 1: game move 1 was the last (last_move = 1). No more orders or game moves are taken");

    // Ctrl+Z takes game move 1 back, and its end.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    h.run();
    assert_eq!(turn(&h), 1);
    assert!(
        h.query_by_label_contains("The campaign ended").is_none(),
        "the banner is gone"
    );
    assert!(!end_turn_disabled(&h));
}

#[test]
fn the_pencil_ends_the_campaign_in_the_window() {
    let dir = campaign_dir(MAP, CAMPAIGN);
    let out = umpire(dir.path(), &["new", "campaign.toml", "c.umpire"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let mut h = opened(&dir.path().join("c.umpire"));
    assert!(!end_turn_disabled(&h));
    h.state_mut().pencil_mut().open = true;
    h.state_mut().pencil_mut().reason = "the Mahdi sued for peace".to_owned();
    h.run();
    h.get_by_label("End the campaign (for the reason above)").click();
    h.run();
    h.run();
    h.get_by_label(
        "The campaign ended at game move 1: the umpire declared it over (the Mahdi sued for peace).",
    );
    assert!(end_turn_disabled(&h));
    let c = h.state().session().unwrap().campaign().clone();
    assert_eq!(c.end.ended.unwrap().turn, 1);
    assert!(
        h.get_by_label("End the campaign (for the reason above)")
            .accesskit_node()
            .is_disabled(),
        "not twice"
    );
}
