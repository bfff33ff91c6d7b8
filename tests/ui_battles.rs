//! The battles window, run headless with egui_kittest: odds worked out in the
//! background, the battle pack, auto-resolve, and a result entered through
//! the form, checked as the CLI checks a results sheet.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use common::world::*;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use std::path::{Path, PathBuf};
use umpire::model::{BattleStatus, Campaign, ForceId, RoadKind, StandKind, Terrain};
use umpire::store::{Overwrite, Store};
use umpire::ui::{Launch, UmpireApp};

/// Red holds `middle` with a gun and three companies; blue has marched in
/// from `east`: battle 1 is pending.
fn battle_save(dir: &Path) -> PathBuf {
    let place = |id: &str, x: f64| {
        let mut r = region(id, Terrain::Open);
        r.x = x;
        r.y = 10.0;
        r
    };
    let mut holders = stands(StandKind::FootArtillery, 1, 20);
    holders.extend(stands(StandKind::LineInfantry, 3, 21));
    let mut c = campaign(
        vec![place("west", 0.0), place("middle", 10.0), place("east", 20.0)],
        vec![
            road("west", "middle", RoadKind::Road, 10.0),
            road("middle", "east", RoadKind::Road, 10.0),
        ],
        "west",
        "east",
        vec![
            force("holders", "red", "middle", holders),
            marching(
                force("raiders", "blue", "east", stands(StandKind::LineInfantry, 4, 40)),
                &["middle"],
                false,
            ),
        ],
    );
    play(&mut c, 2);
    assert_eq!(c.battles.len(), 1);
    let save = dir.join("battle.umpire");
    Store::create(&save, &c, Overwrite::Refuse).unwrap();
    save
}

fn opened(save: &Path) -> Harness<'static, UmpireApp> {
    let launch = Launch {
        open: Some(save.to_owned()),
        ..Launch::default()
    };
    let mut h = common::window::window([1280.0, 800.0], launch);
    h.run();
    h
}

fn campaign_of(h: &Harness<'_, UmpireApp>) -> Campaign {
    h.state().session().unwrap().campaign().clone()
}

/// Opens the battles window and waits for battle 1's odds.
fn battles_with_odds(h: &mut Harness<'_, UmpireApp>) {
    h.get_by_label("View").click();
    h.run();
    h.get_by_label("Battles").click();
    h.run();
    for _ in 0..600 {
        let done = h
            .state()
            .battle_desk()
            .odds(1)
            .is_some_and(|j| j.result.is_some());
        if done {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
        h.run();
    }
    h.run();
    h.get_by_label_contains("Odds under scruby-1965 (1000 battles): Red Army wins");
}

#[test]
fn a_result_entered_through_the_form_is_applied() {
    let dir = tempfile::tempdir().unwrap();
    let save = battle_save(dir.path());
    let mut h = opened(&save);
    battles_with_odds(&mut h);
    h.get_by_label("Enter result…").click();
    h.run();
    // Apply with no winner: refused as the CLI refuses a sheet, nothing changes.
    let before = campaign_of(&h);
    h.get_by_label("Apply result").click();
    h.run();
    h.run();
    assert!(
        h.get_all_by_label_contains("no winner is given").count() >= 1,
        "the refusal is shown"
    );
    assert_eq!(campaign_of(&h), before);
    assert!(
        h.state().battle_desk().form.is_some(),
        "the form stays open to be corrected"
    );
    // Blue wins; the gun is taken, one company destroyed, another halved.
    h.get_by_role_and_label(egui::accesskit::Role::ComboBox, "Winner")
        .click();
    h.run();
    // The choice in the open list, not the side's line in the forces tree.
    h.get_all_by_label("Blue Army").last().unwrap().click();
    h.run();
    {
        let form = h.state_mut().battle_desk_mut().form.as_mut().unwrap();
        for s in &mut form.stands {
            match s.id.0 {
                20 => s.captured = true,
                21 => s.after = 0,
                22 => s.after = s.before / 2,
                40 => s.after = s.before - 10,
                _ => {}
            }
        }
    }
    h.run();
    h.get_by_label("Apply result").click();
    h.run();
    h.run();
    let after = campaign_of(&h);
    assert_eq!(after.battles[0].status, BattleStatus::Fought);
    let holders = after.force(&ForceId::new("holders")).unwrap();
    assert_eq!(holders.region.as_str(), "west", "the beaten holders fell back");
    let ids: Vec<u32> = holders.stands.iter().map(|s| s.id.0).collect();
    assert_eq!(ids, [22, 23]);
    assert_eq!(
        holders.stands[0].strength,
        StandKind::LineInfantry.roster_points() / 2
    );
    let raiders = after.force(&ForceId::new("raiders")).unwrap();
    assert!(
        raiders.stands.iter().any(|s| s.id.0 == 20),
        "the gun changed side"
    );
    assert!(h.state().battle_desk().form.is_none(), "the form closes");
    let told = "Battle 1 at Middle (fought on the table under scruby-1965, result from the result form): Blue Army wins";
    assert!(
        h.get_all_by_label_contains(told).count() >= 1,
        "the window says what happened"
    );
    // The saved campaign is the one shown.
    assert_eq!(Store::open(&save).unwrap().load().unwrap(), after);
}

#[test]
fn the_battle_pack_and_auto_resolve_from_the_window() {
    let dir = tempfile::tempdir().unwrap();
    let save = battle_save(dir.path());
    let mut h = opened(&save);
    battles_with_odds(&mut h);
    // The sheets on US Letter, chosen beside the button.
    h.get_by_label("Paper").click();
    h.run();
    h.get_by_label("US Letter").click();
    h.run();
    h.get_by_label("Battle pack").click();
    h.run();
    h.run();
    for name in [
        "scenario.json",
        "briefing.md",
        "table.png",
        "result.toml",
        "pack.pdf",
    ] {
        assert!(dir.path().join("battle-1").join(name).is_file(), "{name} written");
    }
    // A Letter page is 612 x 792 points: the last page is a sheet, upright or sideways.
    let pdf = std::fs::read(dir.path().join("battle-1").join("pack.pdf")).unwrap();
    let text = String::from_utf8_lossy(&pdf);
    assert!(
        text.contains("/MediaBox [0 0 612 792]") || text.contains("/MediaBox [0 0 792 612]"),
        "the sheets are on US Letter"
    );
    assert!(!text.contains("/MediaBox [0 0 595"), "no A4 page");
    h.get_by_label_contains("Battle pack for battle 1 written to");
    h.get_by_label("Auto-resolve").click();
    h.run();
    h.run();
    let after = campaign_of(&h);
    assert_eq!(after.battles[0].status, BattleStatus::Fought);
    let result = after.battles[0].record.result.as_ref().unwrap();
    assert!(matches!(
        result.source,
        umpire::model::ResultSource::Engine { .. }
    ));
    assert!(
        after.battles[0].record.prediction.is_some(),
        "the odds were kept before it was fought"
    );
    h.get_by_label("Battle 1 decided");
    assert!(
        h.query_by_label("Auto-resolve").is_none(),
        "no battle is pending now"
    );
}

#[test]
fn a_battles_losses_show_in_the_plots_history_and_go_with_its_undo() {
    use umpire::ui::history::{Cause, Timeline};
    let dir = tempfile::tempdir().unwrap();
    let save = battle_save(dir.path());
    let mut store = Store::open(&save).unwrap();
    let before = Timeline::of(&store.load().unwrap(), &store.events().unwrap());
    // Blue wins by hand: two of red's companies (100 points each) destroyed.
    let (c, at) = store.read_at(Store::load).unwrap();
    let b = umpire::handoff::pending_battle(&c, 1).unwrap();
    let s = umpire::desk::scenario_for(&c, 1, None).unwrap().scenario;
    let filled = umpire::handoff::sheet::Filled {
        winner: "blue".into(),
        notes: String::new(),
        stands: [21, 22]
            .iter()
            .map(|&id| umpire::strategy::aftermath::StandAfter {
                id: umpire::model::StandId(id),
                after: 0,
                captured: false,
            })
            .collect(),
    };
    let text = umpire::handoff::sheet::write_filled_sheet(&c, b, &s, &filled);
    umpire::desk::enter_result_text(&mut store, (&c, at), 1, &text, "test").unwrap();
    let after = Timeline::of(&store.load().unwrap(), &store.events().unwrap());
    let battle: Vec<_> = after.losses.iter().filter(|l| l.cause == Cause::Battle).collect();
    assert_eq!(battle.len(), 1, "{:?}", after.losses);
    assert_eq!((battle[0].side, battle[0].stands, battle[0].points), (0, 2, 200));
    assert_eq!(
        battle[0].turn,
        c.turn - 1,
        "with the game move that made the battle"
    );
    assert_eq!(after.moments.len(), before.moments.len() + 1);
    store.undo(store.revision().unwrap()).unwrap();
    let undone = Timeline::of(&store.load().unwrap(), &store.events().unwrap());
    assert_eq!(undone.moments, before.moments);
    assert!(undone.losses.iter().all(|l| l.cause != Cause::Battle));
}
