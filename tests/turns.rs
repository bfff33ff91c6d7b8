//! `umpire turn`, `log` and `undo` on a real save.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;
use common::*;
use rusqlite::Connection;

/// The fixture campaign with red's column ordered to march on blue's hills.
fn war() -> tempfile::TempDir {
    let dir = campaign_dir(MAP, CAMPAIGN);
    assert!(
        umpire(dir.path(), &["new", "campaign.toml", "war.umpire"])
            .status
            .success()
    );
    std::fs::write(
        dir.path().join("red.toml"),
        "[[orders]]\nforce = \"red-column\"\nmarch = [\"ford\", \"south\"]\n",
    )
    .unwrap();
    let out = umpire(dir.path(), &["orders", "war.umpire", "red", "red.toml"]);
    assert!(out.status.success(), "{}", stderr(&out));
    dir
}

fn status_json(dir: &std::path::Path) -> serde_json::Value {
    serde_json::from_slice(&umpire(dir, &["status", "--json", "war.umpire"]).stdout).unwrap()
}

#[test]
fn a_game_move_is_resolved_reported_and_logged() {
    let dir = war();
    let out = umpire(dir.path(), &["turn", "war.umpire"]);
    assert!(out.status.success(), "{}", stderr(&out));
    // Road miles at 15 a day, then the track uphill into South Hills at 7.5 a day.
    // Out of its town, Red Column is no longer a blind to Blue (strategy::fog).
    assert_eq!(
        stdout(&out),
        "Game move 1, 1895-03-01:
  Red Column marched 11.5 miles from North Town and is 3.5 of 7.5 miles along the road from The Ford to South Hills.
  Blue Army makes out blind 1 on the road from The Ford to South Hills, 3.5 miles out: it is Red Column, 2 stands, about 160 points.
  Game move 1 ends; 0 battles pending.
"
    );
    let text = stdout(&umpire(dir.path(), &["turn", "war.umpire"]));
    assert!(text.starts_with("Game move 2, 1895-03-02:\n"), "{text}");
    // It began the game move 3.5 miles down the road, not at The Ford.
    assert!(text.contains("Red Column, 3.5 miles out of The Ford on the road to South Hills, marched 4.0 miles to South Hills; it halted: met the enemy at South Hills."), "{text}");
    assert!(
        text.contains("Battle at South Hills (battle 1, pending): Red Army moved in on Blue Army."),
        "{text}"
    );
    let status = status_json(dir.path());
    assert_eq!(status["turn"], 3);
    assert_eq!(status["battles"][0]["region"], "south");
    assert_eq!(status["battles"][0]["attacker"], "red");

    let log = stdout(&umpire(dir.path(), &["log", "war.umpire"]));
    assert!(
        log.starts_with("Game move 1 (1895-03-01)\n  Test campaign begins on 1895-03-01"),
        "{log}"
    );
    assert!(
        log.contains("Red Army gave orders for game move 1 (red.toml): 1 march."),
        "{log}"
    );
    assert!(
        !log.contains("kept here, for undo"),
        "checkpoints are not shown: {log}"
    );
    let only = stdout(&umpire(dir.path(), &["log", "war.umpire", "--turn", "2"]));
    assert!(
        only.starts_with("Game move 2 (1895-03-02)\n  Red Column, 3.5 miles out of The Ford on the road to South Hills, marched 4.0 miles"),
        "{only}"
    );
    let none = stdout(&umpire(dir.path(), &["log", "war.umpire", "--turn", "9"]));
    assert_eq!(none, "No events in game move 9.\n");
}

#[test]
fn turn_json_lists_the_events() {
    let dir = war();
    assert!(umpire(dir.path(), &["turn", "war.umpire"]).status.success());
    let out = umpire(dir.path(), &["turn", "--json", "war.umpire"]);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (report["turn"].as_u64(), report["next_turn"].as_u64()),
        (Some(2), Some(3))
    );
    let kinds: Vec<&str> = report["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["moved", "battle_created", "turn_ended"]);
    assert_eq!(report["events"][1]["payload"]["attacker"], "red");
}

#[test]
fn undo_takes_back_orders_then_game_moves_and_redo_gives_the_same_state() {
    let dir = war();
    let start = status_json(dir.path());
    assert!(umpire(dir.path(), &["turn", "war.umpire"]).status.success());
    let after_one = status_json(dir.path());
    let events_one = stdout(&umpire(dir.path(), &["turn", "--json", "war.umpire"]));
    let after_two = status_json(dir.path());

    let undo = umpire(dir.path(), &["undo", "war.umpire"]);
    assert!(
        stdout(&undo).starts_with("Undid game move 2"),
        "{}",
        stdout(&undo)
    );
    assert_eq!(status_json(dir.path()), after_one);
    // Redo: the same events, byte for byte, and the same state.
    assert_eq!(
        stdout(&umpire(dir.path(), &["turn", "--json", "war.umpire"])),
        events_one
    );
    assert_eq!(status_json(dir.path()), after_two);

    assert!(umpire(dir.path(), &["undo", "war.umpire"]).status.success());
    assert!(umpire(dir.path(), &["undo", "war.umpire"]).status.success());
    assert_eq!(status_json(dir.path()), start);
    // Now the orders themselves.
    let undo = umpire(dir.path(), &["undo", "war.umpire"]);
    assert_eq!(
        stdout(&undo),
        "Withdrew the orders Red Army gave for game move 1 (red.toml).\n"
    );
    let nothing = umpire(dir.path(), &["undo", "war.umpire"]);
    assert_eq!(nothing.status.code(), Some(1));
    assert!(
        stderr(&nothing).contains("nothing to undo: no game move has been resolved"),
        "{}",
        stderr(&nothing)
    );
    let log = stdout(&umpire(dir.path(), &["log", "war.umpire"]));
    assert!(log.contains("  (undone) Red Column marched"), "{log}");
    assert!(log.contains("Game move 1 was undone"), "{log}");
}

#[test]
fn a_crash_while_writing_a_game_move_leaves_the_last_one_whole() {
    let dir = war();
    let before = status_json(dir.path());
    let log_before = stdout(&umpire(dir.path(), &["log", "war.umpire"]));
    {
        // The last write of a game move is its checkpoint: fail there, as a
        // crash or a full disk would, after everything else was written.
        let conn = Connection::open(dir.path().join("war.umpire")).unwrap();
        conn.execute_batch(
            "CREATE TRIGGER crash BEFORE INSERT ON events WHEN NEW.kind = 'checkpoint'
             BEGIN SELECT RAISE(ABORT, 'simulated crash'); END;",
        )
        .unwrap();
    }
    let out = umpire(dir.path(), &["turn", "war.umpire"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("simulated crash"), "{}", stderr(&out));
    assert_eq!(
        status_json(dir.path()),
        before,
        "nothing of the failed game move was kept"
    );
    assert_eq!(stdout(&umpire(dir.path(), &["log", "war.umpire"])), log_before);
}
