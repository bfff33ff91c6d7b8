//! Many hands on one save: every change is written only if the save is still
//! at the revision it was worked out from (issue 15, item 1). Each race is
//! made certain with a barrier: both hands have read the save before either
//! writes, so exactly one change lands and the other is refused whole.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use common::world::*;
use common::{repo, stderr, stdout, umpire};
use egui_kittest::kittest::Queryable;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Barrier};
use umpire::desk::{self, DeskError};
use umpire::model::{BattleStatus, Campaign, EventKind, RoadKind, StandKind, Terrain};
use umpire::store::{Overwrite, Revision, Store, StoreError};
use umpire::strategy::{self, OrderSet};
use umpire::ui::Launch;

/// Two fronts, each with red holding a town and blue marching on it: after
/// two game moves, battles 1 and 2 are pending.
fn two_battles(dir: &Path) -> PathBuf {
    let place = |id: &str, x: f64| {
        let mut r = region(id, Terrain::Open);
        r.x = x;
        r.y = 10.0;
        r
    };
    let mut c = campaign(
        vec![
            place("west", 0.0),
            place("left", 10.0),
            place("gap", 20.0),
            place("right", 30.0),
            place("east", 40.0),
        ],
        vec![
            road("west", "left", RoadKind::Road, 10.0),
            road("left", "gap", RoadKind::Road, 10.0),
            road("gap", "right", RoadKind::Road, 10.0),
            road("right", "east", RoadKind::Road, 10.0),
        ],
        "west",
        "east",
        vec![
            force(
                "left_holders",
                "red",
                "left",
                stands(StandKind::LineInfantry, 3, 20),
            ),
            force(
                "right_holders",
                "red",
                "right",
                stands(StandKind::LineInfantry, 3, 30),
            ),
            marching(
                force(
                    "left_raiders",
                    "blue",
                    "gap",
                    stands(StandKind::LineInfantry, 4, 40),
                ),
                &["left"],
                false,
            ),
            marching(
                force(
                    "right_raiders",
                    "blue",
                    "east",
                    stands(StandKind::LineInfantry, 4, 50),
                ),
                &["right"],
                false,
            ),
        ],
    );
    play(&mut c, 2);
    assert_eq!(c.battles.len(), 2, "a battle on each front");
    let save = dir.join("fronts.umpire");
    Store::create(&save, &c, Overwrite::Refuse).unwrap();
    save
}

/// The bundled campaign, new, and the British orders for its first move.
fn bundled(dir: &Path) -> (PathBuf, PathBuf) {
    let save = dir.join("r.umpire");
    let campaign = repo().join("campaigns/egyptian_rebellion_1895.toml");
    let made = umpire(dir, &["new", campaign.to_str().unwrap(), save.to_str().unwrap()]);
    assert!(made.status.success(), "{}", stderr(&made));
    (save, repo().join("campaigns/orders/british_move1.toml"))
}

/// `umpire orders SAVE british FILE`, from another program; they are taken.
fn give_british_orders(dir: &Path, save: &Path, file: &Path) {
    let given = umpire(
        dir,
        &[
            "orders",
            save.to_str().unwrap(),
            "british",
            file.to_str().unwrap(),
        ],
    );
    assert!(given.status.success(), "{}", stderr(&given));
    assert!(stdout(&given).contains("taken"), "{}", stdout(&given));
}

fn british_orders(campaign: &Campaign, file: &Path) -> OrderSet {
    let text = std::fs::read_to_string(file).unwrap();
    strategy::read_orders_file(
        campaign,
        &umpire::model::SideId::new("british"),
        umpire::model::check::Source {
            name: "british_move1.toml",
            text: &text,
        },
    )
    .value
    .expect("the bundled orders are good")
}

fn moved(error: StoreError) -> String {
    match error {
        StoreError::Moved { changes, .. } => changes,
        other => panic!("expected the save to have moved on, got: {other}"),
    }
}

fn desk_moved(error: DeskError) -> String {
    match error {
        DeskError::Store(e) => moved(e),
        other => panic!("expected the save to have moved on, got: {other}"),
    }
}

/// A hand's work on the save it read.
type Work = dyn FnOnce(&mut Store, Campaign, Revision) + Send;

/// Runs `first` and `second` on two threads, each with its own store on the
/// save, each reading the save before either writes: the reads meet at a
/// barrier, then `first` writes, then `second`.
fn race<A, B>(save: &Path, first: A, second: B)
where
    A: FnOnce(&mut Store, Campaign, Revision) + Send + 'static,
    B: FnOnce(&mut Store, Campaign, Revision) + Send + 'static,
{
    let read = Arc::new(Barrier::new(2));
    let written = Arc::new(Barrier::new(2));
    let run = |save: PathBuf, read: Arc<Barrier>, written: Arc<Barrier>, writes_first: bool| {
        move |work: Box<Work>| {
            let (mut store, campaign, at) = Store::open_and_load_at(&save).unwrap();
            read.wait();
            if !writes_first {
                written.wait();
            }
            work(&mut store, campaign, at);
            if writes_first {
                written.wait();
            }
        }
    };
    let a = run(save.to_owned(), read.clone(), written.clone(), true);
    let b = run(save.to_owned(), read, written, false);
    let one = std::thread::spawn(move || a(Box::new(first)));
    let two = std::thread::spawn(move || b(Box::new(second)));
    one.join().unwrap();
    two.join().unwrap();
}

#[test]
fn orders_given_while_a_game_move_is_worked_out_refuse_the_move_and_stay_pending() {
    let dir = tempfile::tempdir().unwrap();
    let (save, file) = bundled(dir.path());
    // The game move reads the save before the orders are given; they land
    // first. (Read afterwards, as `umpire turn` reads them, the game move
    // would see them, but it is still refused: it was read at the older revision.)
    race(
        &save,
        move |store, campaign, at| {
            let orders = british_orders(&campaign, &file);
            store.submit_orders(at, &orders, "british_move1.toml").unwrap();
        },
        |store, campaign, at| {
            let orders = store.pending_orders().unwrap();
            let outcome = strategy::resolve(&campaign, &orders);
            let changes = moved(store.commit_turn(at, &campaign, &outcome).unwrap_err());
            assert_eq!(changes, "British Field Force gave orders (british_move1.toml)");
        },
    );
    let store = Store::open(&save).unwrap();
    assert_eq!(store.load().unwrap().turn, 1, "no game move was written");
    assert_eq!(store.pending_orders().unwrap().len(), 1, "the orders wait");
    // Run again, the game move uses them.
    let turned = umpire(dir.path(), &["turn", save.to_str().unwrap()]);
    assert!(turned.status.success(), "{}", stderr(&turned));
    let store = Store::open(&save).unwrap();
    assert_eq!(store.load().unwrap().turn, 2);
    assert!(
        store.events().unwrap().iter().any(|e| e.kind.name() == "moved"),
        "the British march on the orders given"
    );
}

#[test]
fn orders_worked_out_before_a_game_move_are_refused_after_it() {
    let dir = tempfile::tempdir().unwrap();
    let (save, file) = bundled(dir.path());
    race(
        &save,
        |store, campaign, at| {
            let outcome = strategy::resolve(&campaign, &[]);
            store.commit_turn(at, &campaign, &outcome).unwrap();
        },
        move |store, campaign, at| {
            let orders = british_orders(&campaign, &file);
            let changes = moved(
                store
                    .submit_orders(at, &orders, "british_move1.toml")
                    .unwrap_err(),
            );
            assert_eq!(changes, "game move 1 was resolved");
        },
    );
    let store = Store::open(&save).unwrap();
    assert!(store.pending_orders().unwrap().is_empty());
    assert_eq!(store.load().unwrap().turn, 2);
}

#[test]
fn a_result_and_a_game_move_at_once_keep_one_and_refuse_the_other() {
    for result_first in [true, false] {
        let dir = tempfile::tempdir().unwrap();
        let save = two_battles(dir.path());
        let fight = |store: &mut Store, campaign: Campaign, at: Revision| {
            desk::resolve(store, (&campaign, at), 1, None, Some(7)).map(|_| ())
        };
        let turn = |store: &mut Store, campaign: Campaign, at: Revision| {
            let outcome = strategy::resolve(&campaign, &[]);
            store
                .commit_turn(at, &campaign, &outcome)
                .map_err(DeskError::from)
        };
        if result_first {
            race(
                &save,
                move |s, c, at| fight(s, c, at).unwrap(),
                move |s, c, at| {
                    assert_eq!(
                        desk_moved(turn(s, c, at).unwrap_err()),
                        "battle 1's result was applied"
                    )
                },
            );
        } else {
            race(
                &save,
                move |s, c, at| turn(s, c, at).unwrap(),
                move |s, c, at| assert!(desk_moved(fight(s, c, at).unwrap_err()).contains("was resolved")),
            );
        }
        let store = Store::open(&save).unwrap();
        let c = store.load().unwrap();
        let battle = c.battles.iter().find(|b| b.id == 1).unwrap();
        // Whichever landed, the state agrees with the log.
        let fought = store
            .events()
            .unwrap()
            .iter()
            .any(|e| e.kind.name() == "battle_fought");
        assert_eq!(
            battle.status != BattleStatus::Pending,
            fought,
            "result first: {result_first}"
        );
        assert_eq!(fought, result_first);
    }
}

#[test]
fn two_results_at_once_keep_the_first_and_refuse_the_second() {
    let dir = tempfile::tempdir().unwrap();
    let save = two_battles(dir.path());
    race(
        &save,
        |store, campaign, at| {
            desk::resolve(store, (&campaign, at), 1, None, Some(3)).unwrap();
        },
        |store, campaign, at| {
            let error = desk::resolve(store, (&campaign, at), 2, None, Some(3)).unwrap_err();
            assert_eq!(desk_moved(error), "battle 1's result was applied");
        },
    );
    let c = Store::open(&save).unwrap().load().unwrap();
    let status: Vec<_> = c
        .battles
        .iter()
        .map(|b| (b.id, b.status == BattleStatus::Pending))
        .collect();
    assert_eq!(
        status,
        vec![(1, false), (2, true)],
        "battle 2 waits, battle 1's result stands"
    );
    // Fought again on the save as it is now, battle 2 keeps battle 1's result.
    let fought = umpire(
        save.parent().unwrap(),
        &["resolve", save.to_str().unwrap(), "2", "--seed", "3"],
    );
    assert!(fought.status.success(), "{}", stderr(&fought));
    let c = Store::open(&save).unwrap().load().unwrap();
    assert!(c.battles.iter().all(|b| b.status != BattleStatus::Pending));
}

#[test]
fn an_undo_meant_for_one_change_refuses_when_another_came_first() {
    let dir = tempfile::tempdir().unwrap();
    let (save, file) = bundled(dir.path());
    let mut store = Store::open(&save).unwrap();
    let at = store.revision().unwrap();
    // Another program gives orders; this hand meant to undo what it saw.
    give_british_orders(dir.path(), &save, &file);
    let changes = moved(store.undo(at).unwrap_err());
    assert!(changes.contains("gave orders"), "{changes}");
    assert_eq!(store.pending_orders().unwrap().len(), 1, "the orders stand");
}

/// `umpire turn` twice at once, twenty times: every run either resolves one
/// game move or is refused with nothing written; never a move lost or doubled.
#[test]
fn two_turn_commands_at_once_resolve_one_game_move_each_or_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (save, _) = bundled(dir.path());
    let save_arg = save.to_str().unwrap().to_owned();
    let mut refused = 0;
    for round in 0..20 {
        let before = Store::open(&save).unwrap().load().unwrap().turn;
        let start = |arg: &str| {
            std::process::Command::new(common::umpire_bin())
                .current_dir(dir.path())
                .args(["turn", arg])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        };
        let (a, b) = (start(&save_arg), start(&save_arg));
        let outputs = [a.wait_with_output().unwrap(), b.wait_with_output().unwrap()];
        let mut done = 0;
        for output in &outputs {
            if output.status.success() {
                done += 1;
            } else {
                let said = stderr(output);
                assert!(said.contains("the save moved on"), "round {round}: {said}");
                assert!(said.contains("was resolved"), "round {round}: {said}");
                refused += 1;
            }
        }
        let store = Store::open(&save).unwrap();
        let after = store.load().unwrap().turn;
        assert!(done >= 1, "round {round}: one of them resolves");
        assert_eq!(after, before + done, "round {round}: one game move per success");
        // The log tells as many game moves as were resolved.
        let moves = store
            .events()
            .unwrap()
            .iter()
            .filter(|e| e.kind.name() == "turn_ended")
            .count();
        assert_eq!(moves, (after - 1) as usize, "round {round}");
    }
    eprintln!("{refused} of 20 rounds refused one turn");
    // Started together, they usually meet; a race that never happened proves nothing.
    assert!(refused > 0, "in 20 rounds, no turn was ever refused");
}

/// The window open on a save, a command giving orders in a terminal, End
/// turn pressed in the window: the game move uses the command's orders.
#[test]
fn the_window_catches_up_with_orders_given_by_a_command_and_resolves_them() {
    let dir = tempfile::tempdir().unwrap();
    let (save, file) = bundled(dir.path());
    let launch = Launch {
        open: Some(save.clone()),
        ..Launch::default()
    };
    let mut h = common::window::window([1280.0, 800.0], launch);
    h.run();
    h.get_by_label_contains("0 orders given");

    give_british_orders(dir.path(), &save, &file);
    h.run();
    assert_eq!(h.state().session().unwrap().pending().len(), 1, "reloaded");
    h.get_by_label_contains("The save was changed by another program (British Field Force gave orders");

    h.get_by_label("End turn").click();
    h.run();
    let store = Store::open(&save).unwrap();
    let after = store.load().unwrap();
    assert_eq!(after.turn, 2);
    assert!(store.pending_orders().unwrap().is_empty(), "the orders were used");
    let marched = store.events().unwrap().iter().any(|e| match &e.kind {
        EventKind::Moved(m) => after
            .force(&m.force)
            .is_some_and(|f| f.side.as_str() == "british"),
        _ => false,
    });
    assert!(marched, "a British force marched on the command's orders");
}

/// The window resolving from what it read while a command gave orders
/// underneath it (before it noticed): refused, reloaded, and it says so.
#[test]
fn the_window_refuses_a_game_move_worked_out_from_an_old_state_and_reloads() {
    let dir = tempfile::tempdir().unwrap();
    let (save, file) = bundled(dir.path());
    let mut session = umpire::ui::Session::open(&save).unwrap();
    give_british_orders(dir.path(), &save, &file);
    let refusal = session.apply(&umpire::ui::session::Command::EndTurn).unwrap_err();
    assert_eq!(
        refusal.to_string(),
        "The save moved on: British Field Force gave orders (british_move1.toml). \
         The window has reloaded it; press End turn again."
    );
    assert_eq!(session.pending().len(), 1, "reloaded with the command's orders");
    assert_eq!(session.campaign().turn, 1);
    session.apply(&umpire::ui::session::Command::EndTurn).unwrap();
    assert_eq!(session.campaign().turn, 2);
}

/// Orders from a command and from the window in the same game move: both
/// kept, and the game move uses both.
#[test]
fn orders_from_the_window_and_a_command_in_one_game_move_are_both_kept() {
    let dir = tempfile::tempdir().unwrap();
    let (save, file) = bundled(dir.path());
    let mut session = umpire::ui::Session::open(&save).unwrap();
    give_british_orders(dir.path(), &save, &file);
    // A rebel force marches one road from where it stands.
    let c = session.campaign().clone();
    let rebel = c.forces.iter().find(|f| f.side.as_str() == "rebels").unwrap();
    let road = c
        .map
        .roads
        .iter()
        .find(|r| r.from == rebel.region || r.to == rebel.region)
        .unwrap();
    let to = if road.from == rebel.region {
        &road.to
    } else {
        &road.from
    };
    session
        .apply(&umpire::ui::session::Command::Order {
            side: rebel.side.clone(),
            request: strategy::OrderRequest {
                force: rebel.id.clone(),
                action: strategy::Action::To(to.clone()),
                forced: false,
                by: Default::default(),
            },
        })
        .unwrap();
    let sides: Vec<&str> = session.pending().iter().map(|o| o.side.as_str()).collect();
    assert_eq!(sides, ["british", "rebels"], "both kept");
    session.apply(&umpire::ui::session::Command::EndTurn).unwrap();
    let store = Store::open(&save).unwrap();
    let after = store.load().unwrap();
    let marched: std::collections::BTreeSet<&str> = store
        .events()
        .unwrap()
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Moved(m) => c.force(&m.force).map(|f| f.side.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(after.turn, 2);
    assert!(
        marched.contains("british") && marched.contains("rebels"),
        "{marched:?}"
    );
}
