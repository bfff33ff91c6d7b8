//! A save made by the release before typed events (game moves 1-8 of the
//! Egyptian Rebellion: orders given and withdrawn, marches, a forced march,
//! a split, sightings, scouts, a battle resolved, its result taken back and
//! fought again, a game move undone and resolved again) opens with the
//! current code and prints what it printed then, word for word.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;
use common::*;
use std::path::{Path, PathBuf};

const NAME: &str = "egypt_1895_move9";

fn fixture(ext: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(format!("{NAME}.{ext}"))
}

/// A copy of the fixture save in a temporary folder (opening it may migrate it).
fn copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(fixture("umpire"), dir.path().join("g.umpire")).unwrap();
    dir
}

/// The log as the old release printed it, with the one change made since:
/// the events of a battle's result that was taken back are marked
/// `(undone)`, as those of an undone game move always were (one `History`
/// walk now decides what is taken back, for the log, the reports and the
/// window alike). In this save, battle 1's first result: lines 42-45.
fn expected_log() -> String {
    let old = std::fs::read_to_string(fixture("log.txt")).unwrap();
    let mut lines: Vec<String> = old.lines().map(str::to_owned).collect();
    for line in &mut lines[41..45] {
        assert!(line.contains("battle 1") || line.contains("Beni Suef"), "{line}");
        *line = line.replacen("  ", "  (undone) ", 1);
    }
    lines.join("\n") + "\n"
}

#[test]
fn the_old_save_prints_the_same_log_status_and_reports() {
    let dir = copy();
    let out = umpire(dir.path(), &["log", "g.umpire"]);
    assert!(out.status.success(), "umpire log: {}", stderr(&out));
    assert_eq!(stdout(&out), expected_log());
    let cases: &[(&[&str], &str)] = &[
        (&["status", "g.umpire"], "status.txt"),
        (&["status", "g.umpire", "--side", "rebels"], "status_rebels.txt"),
        (&["status", "g.umpire", "--side", "british"], "status_british.txt"),
    ];
    for (args, expected) in cases {
        let out = umpire(dir.path(), args);
        assert!(out.status.success(), "umpire {args:?}: {}", stderr(&out));
        let want = std::fs::read_to_string(fixture(expected)).unwrap();
        // Issue 15 added ids and arrivals; the rest is word for word.
        assert_eq!(
            status_text_before_ids(&stdout(&out)),
            want,
            "umpire {args:?} differs from {expected}"
        );
    }
    for side in ["rebels", "british"] {
        let file = format!("report_{side}.json");
        let out = umpire(dir.path(), &["report", "g.umpire", side, &file]);
        assert!(out.status.success(), "umpire report {side}: {}", stderr(&out));
        let got: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.path().join(&file)).unwrap()).unwrap();
        let want: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(fixture(&file)).unwrap()).unwrap();
        assert_eq!(got, want, "the {side} report differs from {file}");
    }
}

#[test]
fn the_log_of_the_old_save_reads_the_same_by_game_move() {
    let dir = copy();
    let whole = expected_log();
    let mut joined = String::new();
    for turn in 1..=8 {
        let out = umpire(dir.path(), &["log", "g.umpire", "--turn", &turn.to_string()]);
        assert!(out.status.success(), "umpire log --turn {turn}: {}", stderr(&out));
        joined.push_str(&stdout(&out));
    }
    assert_eq!(joined, whole);
}

#[test]
fn every_event_of_the_old_save_reads_as_its_kind_and_writes_back_the_same_json() {
    use umpire::model::EventKind;
    // A copy, so that opening it leaves nothing beside the fixture.
    let dir = copy();
    let conn = rusqlite::Connection::open_with_flags(
        dir.path().join("g.umpire"),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .unwrap();
    let mut statement = conn
        .prepare("SELECT kind, payload FROM events ORDER BY rowid")
        .unwrap();
    let rows: Vec<(String, String)> = statement
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(rows.len() > 50, "the fixture has its log");
    let mut kinds = std::collections::BTreeSet::new();
    for (i, (kind, payload)) in rows.iter().enumerate() {
        let typed = EventKind::read_text(kind, payload)
            .unwrap_or_else(|e| panic!("event {i} ({kind}) does not read: {e}"));
        assert_eq!(typed.name(), kind, "event {i}");
        assert_eq!(
            &typed.payload().to_string(),
            payload,
            "event {i} ({kind}) writes back otherwise"
        );
        kinds.insert(kind.as_str());
    }
    // The kinds the fixture was made to hold.
    for kind in [
        "campaign_created",
        "orders_given",
        "orders_withdrawn",
        "moved",
        "forced_march_loss",
        "force_split",
        "battle_created",
        "battle_losses",
        "battle_fought",
        "retreated",
        "result_undone",
        "turn_undone",
        "checkpoint",
        "force_sighted",
        "force_identified",
        "force_concealed",
        "scouts_broke_cover",
        "scouts_driven_off",
        "turn_ended",
    ] {
        assert!(kinds.contains(kind), "the fixture has no {kind} event");
    }
}

/// `(kind, payload, sentence)` of the events of game move `turn`, in order, as
/// the save keeps them: one row each in the old release, a change's events
/// together since schema 8 (read back through the store).
fn rows_of(path: &Path, turn: u32) -> Vec<(String, String, String)> {
    umpire::store::Store::open(path)
        .unwrap()
        .events()
        .unwrap()
        .into_iter()
        .filter(|e| e.turn == turn)
        .map(|e| (e.kind.name().to_owned(), e.kind.payload().to_string(), e.sentence))
        .collect()
}

#[test]
fn the_last_game_move_undone_and_resolved_again_writes_the_same_events_as_the_old_release() {
    let dir = copy();
    let save = dir.path().join("g.umpire");
    let before = rows_of(&save, 8);
    assert!(before.len() > 3, "game move 8 has its events");
    let out = umpire(dir.path(), &["undo", "g.umpire"]);
    assert!(out.status.success(), "umpire undo: {}", stderr(&out));
    // Battle 2 is pending, as it was when the old release resolved game move 8.
    let out = umpire(dir.path(), &["turn", "g.umpire", "--with-pending"]);
    assert!(out.status.success(), "umpire turn: {}", stderr(&out));
    let after = rows_of(&save, 8);
    // The old move, its undo, then the move again: kinds, JSON payloads and
    // sentences byte for byte (checkpoints keep the state; compared by kind).
    let again = &after[before.len() + 1..];
    assert_eq!(after[before.len()].0, "turn_undone");
    assert_eq!(again.len(), before.len());
    for (old, new) in before.iter().zip(again) {
        assert_eq!(old.0, new.0);
        if old.0 == "moved" && old.2 != new.2 {
            // Since issue 15 a march that began on a road says so, where the
            // old release named the road's end as where it marched from.
            assert!(new.2.contains(" miles out of "), "{} -> {}", old.2, new.2);
        } else {
            assert_eq!(old.2, new.2);
        }
        if old.0 != "checkpoint" {
            assert_eq!(old.1, new.1, "the payload of {}", old.0);
        }
    }
    let out = umpire(dir.path(), &["status", "g.umpire"]);
    assert_eq!(
        status_text_before_ids(&stdout(&out)),
        std::fs::read_to_string(fixture("status.txt")).unwrap()
    );
}

#[test]
fn the_history_walk_takes_back_exactly_what_each_undo_recorded() {
    use umpire::model::{EventKind, History};
    let dir = copy();
    let store = umpire::store::Store::open(&dir.path().join("g.umpire")).unwrap();
    let log = store.events().unwrap();
    // What each undo wrote it took back: its game move's seqs first..=last.
    let recorded: std::collections::BTreeSet<usize> = log
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::TurnUndone(u) => Some((e.turn, u.first_seq, u.last_seq)),
            EventKind::ResultUndone(u) => Some((e.turn, u.first_seq, u.last_seq)),
            _ => None,
        })
        .flat_map(|(turn, first, last)| {
            log.iter()
                .enumerate()
                .filter(move |(_, e)| e.turn == turn && (first..=last).contains(&e.seq))
                .map(|(i, _)| i)
        })
        .collect();
    let history = History::of(&log);
    assert_eq!(history.undone, recorded);
    assert_eq!(
        recorded.len(),
        12,
        "battle 1's first result (4 events and its checkpoint) and game move 6's first run (6 and its checkpoint)"
    );
    // What stands: the start, and one change per game move and battle result kept.
    let kept: Vec<(u32, Option<u32>)> = history.standing.iter().map(|c| (c.turn, c.battle)).collect();
    assert_eq!(
        kept,
        [
            (1, None),
            (1, None),
            (2, None),
            (3, None),
            (4, None),
            (5, None),
            (6, Some(1)),
            (6, None),
            (7, None),
            (8, None)
        ]
    );
}

#[test]
fn the_old_save_tells_its_chronicle_move_by_move() {
    // Checkpoints written before schema 7 keep their whole state in the event.
    let dir = copy();
    let log = expected_log();
    for side in [None, Some("rebels"), Some("british")] {
        let mut args = vec!["chronicle", "g.umpire", "c.html"];
        args.extend(side.iter().flat_map(|s| ["--side", *s]));
        let out = umpire(dir.path(), &args);
        assert!(out.status.success(), "umpire {args:?}: {}", stderr(&out));
        let page = std::fs::read_to_string(dir.path().join("c.html")).unwrap();
        for n in 1..=8 {
            assert!(
                page.contains(&format!("<article id=\"move-{n}\">")),
                "{side:?}: game move {n}"
            );
            assert!(
                log.contains(&format!("Game move {n} ")),
                "the log has game move {n}"
            );
        }
        assert!(
            !page.contains("<article id=\"move-9\">"),
            "game move 9 is not played"
        );
        assert_eq!(page.matches("<svg class=\"map\"").count(), 9, "{side:?}");
    }
}
