//! The save file: created whole, reopened unchanged, migrated from older
//! schemas, and foreign or damaged files refused and left untouched.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;
use common::*;
use rusqlite::Connection;
use std::path::{Path, PathBuf};
use umpire::files;
use umpire::model::{Campaign, Water, WaterKind};
use umpire::store::{APPLICATION_ID, Overwrite, SCHEMA_VERSION, Store, StoreError};

fn fixture_campaign(dir: &Path) -> Campaign {
    std::fs::write(dir.join("map.toml"), MAP).unwrap();
    std::fs::write(dir.join("campaign.toml"), CAMPAIGN).unwrap();
    let checked = files::load_campaign(&dir.join("campaign.toml"));
    checked
        .value
        .unwrap_or_else(|| panic!("fixture is valid: {:?}", checked.diagnostics))
}

fn new_save(dir: &Path) -> (PathBuf, Campaign) {
    let campaign = fixture_campaign(dir);
    let path = dir.join("test.umpire");
    Store::create(&path, &campaign, Overwrite::Refuse).unwrap();
    (path, campaign)
}

/// Every file in `dir` with its bytes, to prove nothing was written.
fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    files.sort();
    files
}

#[test]
fn a_save_survives_close_and_reopen_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let (path, campaign) = new_save(dir.path());
    let before = snapshot(dir.path());
    {
        let store = Store::open(&path).unwrap();
        assert_eq!(store.load().unwrap(), campaign);
        assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
    }
    // Opening and reading wrote nothing, and the save is one file.
    assert_eq!(snapshot(dir.path()), before);
    let store = Store::open(&path).unwrap();
    assert_eq!(store.load().unwrap(), campaign);
}

#[test]
fn the_first_event_holds_the_whole_starting_state() {
    let dir = tempfile::tempdir().unwrap();
    let (path, campaign) = new_save(dir.path());
    let events = Store::open(&path).unwrap().events().unwrap();
    assert_eq!(events.len(), 1);
    let created = &events[0];
    assert_eq!(
        (created.turn, created.seq, created.kind.name()),
        (1, 0, "campaign_created")
    );
    assert_eq!(
        created.sentence,
        "Test campaign begins on 1895-03-01 (game move 1): 2 sides, 2 forces, 4 stands on Test valley."
    );
    let rebuilt: Campaign = serde_json::from_value(created.kind.payload()).unwrap();
    assert_eq!(rebuilt, campaign);
}

#[test]
fn the_event_log_is_append_only() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = new_save(dir.path());
    let conn = Connection::open(&path).unwrap();
    let update = conn.execute("UPDATE events SET sentence = 'rewritten'", []);
    assert!(update.unwrap_err().to_string().contains("append-only"));
    let delete = conn.execute("DELETE FROM events", []);
    assert!(delete.unwrap_err().to_string().contains("append-only"));
}

/// A game move's events are kept together in one row by its checkpoint
/// (schema 8) and read back as they were told, before the checkpoint; the
/// log's bookkeeping keeps a row each, and both tables stay append-only.
#[test]
fn a_game_move_s_events_are_kept_together_and_read_back_as_told() {
    let dir = tempfile::tempdir().unwrap();
    let (path, campaign) = new_save(dir.path());
    let mut store = Store::open(&path).unwrap();
    let outcome = umpire::strategy::resolve(&campaign, &[]);
    assert!(outcome.events.len() > 1, "the move tells events");
    let at = store.revision().unwrap();
    store.commit_turn(at, &campaign, &outcome).unwrap();
    let log = store.events().unwrap();
    let told: Vec<_> = log[1..log.len() - 1].to_vec();
    assert_eq!(told.len(), outcome.events.len());
    for (i, (kept, event)) in told.iter().zip(&outcome.events).enumerate() {
        // Numbered on from the starting event, game move 1 seq 0.
        assert_eq!(
            (kept.turn, kept.seq),
            (campaign.turn, u32::try_from(i).unwrap() + 1)
        );
        assert_eq!((&kept.kind, &kept.sentence), (&event.kind, &event.sentence));
    }
    assert_eq!(log.last().unwrap().kind.name(), "checkpoint");
    assert_eq!(store.events_from(2).unwrap(), log[2..].to_vec());
    assert_eq!(
        store.events_from(log.len() - 1).unwrap(),
        log[log.len() - 1..].to_vec()
    );
    drop(store);
    let conn = Connection::open(&path).unwrap();
    let rows: i64 = conn
        .query_row("SELECT count(*) FROM events", [], |r| r.get(0))
        .unwrap();
    let kept: i64 = conn
        .query_row("SELECT count FROM change_events", [], |r| r.get(0))
        .unwrap();
    assert_eq!((rows, kept), (2, outcome.events.len() as i64));
    for sql in ["UPDATE change_events SET count = 1", "DELETE FROM change_events"] {
        assert!(
            conn.execute(sql, [])
                .unwrap_err()
                .to_string()
                .contains("append-only")
        );
    }
}

#[test]
fn a_save_made_with_schema_1_is_migrated_on_open() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.umpire");
    {
        // What an umpire of schema 1 wrote: the state tables, no event log.
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(include_str!("../migrations/0001_campaign_state.sql"))
            .unwrap();
        conn.execute_batch(
            "INSERT INTO campaign VALUES (1, 'Old war', NULL, 4, 1, '1895-03-01', 2, 'cordery-2009', '42', '128', 'Old map', NULL);
             INSERT INTO regions VALUES ('a', 0, 'Alpha', 'open', 0, 0, 'town bridge');
             INSERT INTO regions VALUES ('b', 1, 'Beta', 'desert', 3, 4, '');
             INSERT INTO roads VALUES (0, 'a', 'b', 'track', 5.5, 'bridge', NULL);
             INSERT INTO sides VALUES ('red', 0, 'Red', '#ff0000', 'regular');
             INSERT INTO sides VALUES ('blue', 1, 'Blue', '#0000ff', 'native');
             INSERT INTO hqs VALUES (0, 'red', 'left', 'a', NULL, 'blue');
             INSERT INTO forces VALUES ('f', 0, 'First', 'red', 'b');
             INSERT INTO stands VALUES (7, 'f', 0, 'Seventh', 'light_cavalry', 'raw', 12, 30);",
        )
        .unwrap();
        conn.pragma_update(None, "application_id", APPLICATION_ID)
            .unwrap();
        conn.pragma_update(None, "user_version", 1).unwrap();
    }
    let store = Store::open(&path).unwrap();
    assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
    let campaign = store.load().unwrap();
    assert_eq!(campaign.title, "Old war");
    assert_eq!(campaign.turn, 4);
    assert_eq!(campaign.date().unwrap().to_string(), "1895-03-07");
    assert_eq!(campaign.rng.word_pos, 128);
    assert_eq!(campaign.hqs[0].held_by.as_str(), "blue");
    assert_eq!(campaign.forces[0].stands[0].strength, 12);
    let events = store.events().unwrap();
    assert_eq!(events.len(), 1);
    assert_eq!(events[0].kind.name(), "log_started");
    assert_eq!(events[0].turn, 4);
}

/// Opening `path` fails with the error `check` expects, and changes no byte
/// of any file in its folder; so does opening and loading it at once (whose
/// checks run beside the loading), with the same message.
fn refused_untouched(path: &Path, check: impl Fn(&StoreError) -> bool) -> String {
    let dir = path.parent().unwrap();
    let before = snapshot(dir);
    let error = Store::open(path).unwrap_err();
    assert!(check(&error), "unexpected error: {error:?}");
    assert_eq!(
        snapshot(dir),
        before,
        "the refused file and its folder are unchanged"
    );
    let loading = Store::open_and_load(path).map(|_| ()).unwrap_err();
    assert_eq!(loading.to_string(), error.to_string());
    assert_eq!(snapshot(dir), before, "unchanged by open_and_load too");
    error.to_string()
}

#[test]
fn a_foreign_sqlite_file_is_refused_and_left_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("addresses.umpire");
    {
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch("CREATE TABLE people (name TEXT); INSERT INTO people VALUES ('Jack Scruby');")
            .unwrap();
    }
    let message = refused_untouched(&path, |e| matches!(e, StoreError::NotACampaign { .. }));
    assert!(message.ends_with(
        "addresses.umpire: not an umpire campaign save (a SQLite database of another program); the file was left untouched"
    ));
}

#[test]
fn a_text_file_renamed_to_a_save_is_refused_and_left_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.umpire");
    std::fs::write(&path, "Orders for turn 3: the Black Watch holds the bridge.\n").unwrap();
    let message = refused_untouched(&path, |e| matches!(e, StoreError::NotACampaign { .. }));
    assert!(
        message.contains("not an umpire campaign save (not a SQLite database)"),
        "{message}"
    );

    std::fs::write(&path, "").unwrap();
    let message = refused_untouched(&path, |e| matches!(e, StoreError::NotACampaign { .. }));
    assert!(message.contains("(the file is empty)"), "{message}");
}

#[test]
fn a_damaged_save_is_refused_and_left_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = new_save(dir.path());
    let mut bytes = std::fs::read(&path).unwrap();
    let page = 4096;
    assert!(bytes.len() > 3 * page);
    // Scribble over the second and third pages: table b-trees.
    for (i, b) in bytes[page..3 * page].iter_mut().enumerate() {
        *b = u8::try_from(i * 7 % 251).unwrap();
    }
    std::fs::write(&path, &bytes).unwrap();
    let message = refused_untouched(&path, |e| matches!(e, StoreError::Corrupt { .. }));
    assert!(message.contains("the save is damaged"), "{message}");
    assert!(message.contains("restore it from a backup"), "{message}");
}

#[test]
fn a_truncated_save_is_refused_and_left_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = new_save(dir.path());
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    refused_untouched(&path, |e| matches!(e, StoreError::Corrupt { .. }));
}

#[test]
fn a_save_from_a_newer_umpire_is_refused_and_left_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = new_save(dir.path());
    {
        let conn = Connection::open(&path).unwrap();
        conn.pragma_update(None, "user_version", SCHEMA_VERSION + 1)
            .unwrap();
        conn.pragma_update(None, "journal_mode", "DELETE").unwrap();
    }
    let message = refused_untouched(&path, |e| matches!(e, StoreError::NewerSchema { .. }));
    let expected = format!(
        "written by a newer umpire (save schema {}; this umpire reads up to {SCHEMA_VERSION})",
        SCHEMA_VERSION + 1
    );
    assert!(message.contains(&expected), "{message}");
}

#[test]
fn a_missing_save_says_how_to_make_one() {
    let dir = tempfile::tempdir().unwrap();
    let error = Store::open(&dir.path().join("nowhere.umpire")).unwrap_err();
    assert!(matches!(error, StoreError::NotFound { .. }));
    assert!(
        error
            .to_string()
            .contains("create one with `umpire new CAMPAIGN.toml")
    );
    assert!(
        !dir.path().join("nowhere.umpire").exists(),
        "opening does not create"
    );
}

#[test]
fn creating_refuses_to_overwrite_unless_told() {
    let dir = tempfile::tempdir().unwrap();
    let (path, campaign) = new_save(dir.path());
    let before = snapshot(dir.path());
    let error = Store::create(&path, &campaign, Overwrite::Refuse).unwrap_err();
    assert!(matches!(error, StoreError::AlreadyExists { .. }));
    assert_eq!(snapshot(dir.path()), before);

    let mut changed = campaign.clone();
    changed.title = "Second attempt".to_owned();
    Store::create(&path, &changed, Overwrite::Replace).unwrap();
    assert_eq!(
        Store::open(&path).unwrap().load().unwrap().title,
        "Second attempt"
    );
    let names: Vec<String> = snapshot(dir.path()).into_iter().map(|(n, _)| n).collect();
    assert_eq!(
        names,
        ["campaign.toml", "map.toml", "test.umpire"],
        "no temporary files left"
    );
}

#[test]
fn the_cli_refuses_to_overwrite_without_force() {
    let dir = campaign_dir(MAP, CAMPAIGN);
    let first = umpire(dir.path(), &["new", "campaign.toml", "war.umpire"]);
    assert!(first.status.success(), "{}", stderr(&first));
    assert!(stdout(&first).contains("Created war.umpire: \"Test campaign\", game move 1 (1895-03-01)"));
    let again = umpire(dir.path(), &["new", "campaign.toml", "war.umpire"]);
    assert_eq!(again.status.code(), Some(1));
    assert!(stderr(&again).contains("war.umpire: a file already exists there; pass --force to replace it"));
    let forced = umpire(dir.path(), &["new", "campaign.toml", "war.umpire", "--force"]);
    assert!(forced.status.success(), "{}", stderr(&forced));
}

#[test]
fn the_cli_names_a_file_that_is_not_a_save() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.umpire"), "not a save").unwrap();
    let out = umpire(dir.path(), &["status", "notes.umpire"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out).trim(),
        "error: notes.umpire: not an umpire campaign save (not a SQLite database); the file was left untouched"
    );
}

/// The fixture save made by the umpire of schema 6 (whole-state checkpoints).
fn schema6_fixture(dir: &Path, name: &str) {
    let from = repo().join("tests/fixtures/schema6/egypt.umpire");
    std::fs::copy(from, dir.join(name)).unwrap();
}

fn schema6_text(file: &str) -> String {
    std::fs::read_to_string(repo().join("tests/fixtures/schema6").join(file)).unwrap()
}

#[test]
fn a_save_made_with_schema_6_opens_migrated_and_prints_as_it_did() {
    let dir = tempfile::tempdir().unwrap();
    schema6_fixture(dir.path(), "egypt.umpire");
    let ok = |args: &[&str]| {
        let out = umpire(dir.path(), args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        stdout(&out)
    };
    assert_eq!(ok(&["log", "egypt.umpire"]), schema6_text("log.txt"));
    // Issue 15 added ids and arrivals to the status; the rest is as it was.
    assert_eq!(
        status_text_before_ids(&ok(&["status", "egypt.umpire"])),
        schema6_text("status.txt")
    );
    assert_eq!(
        status_json_before_arrivals(&ok(&["status", "--json", "egypt.umpire"])),
        status_json_before_arrivals(&schema6_text("status.json"))
    );
    let store = Store::open(&dir.path().join("egypt.umpire")).unwrap();
    assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
}

#[test]
fn undo_on_a_migrated_schema_6_save_takes_back_what_it_did() {
    let dir = tempfile::tempdir().unwrap();
    schema6_fixture(dir.path(), "work.umpire");
    for n in 1..=4 {
        let out = umpire(dir.path(), &["undo", "work.umpire"]);
        assert!(out.status.success(), "undo {n}: {}", stderr(&out));
        assert_eq!(stdout(&out), schema6_text(&format!("undo{n}.txt")), "undo {n}");
        assert_eq!(
            status_json_before_arrivals(&stdout(&umpire(dir.path(), &["status", "--json", "work.umpire"]))),
            status_json_before_arrivals(&schema6_text(&format!("status_after_undo{n}.json"))),
            "the state after undo {n}"
        );
    }
    assert_eq!(
        stdout(&umpire(dir.path(), &["log", "work.umpire"])),
        schema6_text("log_after_undos.txt")
    );
    // Game move 5 resolved again on the migrated save: the same state as
    // the old umpire reached (before battle 1 was fought).
    let out = umpire(dir.path(), &["turn", "work.umpire", "--with-pending"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let now = status_json_before_arrivals(&stdout(&umpire(dir.path(), &["status", "--json", "work.umpire"])));
    let was = status_json_before_arrivals(&schema6_text("status_after_undo3.json"));
    assert_eq!(now, was);
}

/// A campaign of 40 game moves and a battle's result, each undone in turn:
/// every state comes back exactly, across the whole snapshots and the
/// changes between them (store::checkpoints keeps a snapshot every 16).
#[test]
fn every_state_comes_back_on_undo_across_snapshots_and_changes() {
    use umpire::strategy::resolve;
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = new_save(dir.path());
    let mut store = Store::open(&path).unwrap();
    let mut states = Vec::new();
    for _ in 0..40 {
        let (before, at) = store.read_at(Store::load).unwrap();
        let outcome = resolve(&before, &[]);
        store.commit_turn(at, &before, &outcome).unwrap();
        states.push(before);
    }
    // The app's history sees each checkpoint's whole state.
    let events = store.events_with_states().unwrap();
    let kept: Vec<u64> = events
        .iter()
        .filter_map(|e| match &e.kind {
            umpire::model::EventKind::Checkpoint(c) => Some(c.state["turn"].as_u64().unwrap()),
            _ => None,
        })
        .collect();
    assert_eq!(kept, (2..=41).collect::<Vec<u64>>());
    // Undone and resolved again: the same events, the same state.
    let last = store.load().unwrap();
    store.undo(store.revision().unwrap()).unwrap();
    assert_eq!(store.load().unwrap(), states[39]);
    let outcome = resolve(&states[39], &[]);
    store
        .commit_turn(store.revision().unwrap(), &states[39], &outcome)
        .unwrap();
    assert_eq!(store.load().unwrap(), last);
    for state in states.iter().rev() {
        store.undo(store.revision().unwrap()).unwrap();
        assert_eq!(&store.load().unwrap(), state);
    }
    drop(store);
    assert_eq!(
        Store::open(&path).unwrap().load().unwrap(),
        states[0],
        "the state written back to the tables is the state read back"
    );
}

#[test]
fn region_shapes_and_waters_survive_the_save() {
    let dir = tempfile::tempdir().unwrap();
    let mut campaign = fixture_campaign(dir.path());
    campaign.map.regions[0].shape = vec![[0.0, 0.0], [3.0, 0.0], [3.0, 2.5]];
    campaign.map.waters = vec![
        Water {
            kind: WaterKind::River,
            name: Some("The Brook".to_owned()),
            points: vec![[1.0, 1.0], [2.0, 4.0]],
        },
        Water {
            kind: WaterKind::Lake,
            name: None,
            points: vec![[5.0, 5.0], [6.0, 5.0], [6.0, 6.0]],
        },
    ];
    let path = dir.path().join("shapes.umpire");
    Store::create(&path, &campaign, Overwrite::Refuse).unwrap();
    let store = Store::open(&path).unwrap();
    let loaded = store.load().unwrap();
    assert_eq!(loaded.map, campaign.map);
}
