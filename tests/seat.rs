//! The hot seat's passphrases: kept hashed in the save, set by `umpire seat
//! passphrase` or the umpire's dialog, asked by the pass-the-screen page.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use common::{repo, stderr, stdout, umpire, umpire_bin};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use std::io::Write;
use std::path::Path;
use std::process::{Output, Stdio};
use umpire::model::SideId;
use umpire::store::{SCHEMA_VERSION, Store, StoreError};
use umpire::ui::seat::Command as ViewCommand;
use umpire::ui::{Command, Launch, UmpireApp};

/// A new save of the bundled Egyptian campaign in `dir`.
fn egypt(dir: &Path) -> std::path::PathBuf {
    let campaign = repo().join("campaigns/egyptian_rebellion_1895.toml");
    let out = umpire(dir, &["new", campaign.to_str().unwrap(), "egypt.umpire"]);
    assert!(out.status.success(), "{}", stderr(&out));
    dir.join("egypt.umpire")
}

/// Runs `umpire` with `args` in `dir`, `input` on its standard input.
fn umpire_with_input(dir: &Path, args: &[&str], input: &str) -> Output {
    let mut child = std::process::Command::new(umpire_bin())
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

/// The save's bytes, with its write-ahead log's while a window holds it open.
fn save_bytes(path: &Path) -> Vec<u8> {
    let mut bytes = std::fs::read(path).unwrap();
    let wal = path.with_extension("umpire-wal");
    if let Ok(more) = std::fs::read(wal) {
        bytes.extend(more);
    }
    bytes
}

fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle.as_bytes())
}

fn british() -> SideId {
    SideId::new("british")
}

#[test]
fn a_passphrase_is_kept_hashed_checked_and_cleared() {
    let dir = tempfile::tempdir().unwrap();
    let path = egypt(dir.path());
    let mut store = Store::open(&path).unwrap();
    let at = store.revision().unwrap();
    assert!(!store.has_passphrase(Some(&british())).unwrap());
    assert!(
        store.check_passphrase(Some(&british()), "").unwrap(),
        "no passphrase: open"
    );
    store
        .set_passphrase(at, Some(&british()), Some("Kitchener's own riddle"))
        .unwrap();
    store.set_passphrase(at, None, Some("umpire-only 1895")).unwrap();
    drop(store);
    // Not in the file's bytes; its hash is, as a PHC string.
    let bytes = save_bytes(&path);
    for plain in ["Kitchener's own riddle", "umpire-only 1895"] {
        assert!(!contains(&bytes, plain), "`{plain}` kept in plain text");
    }
    assert!(contains(&bytes, "$argon2id$v=19$"));
    let store = Store::open(&path).unwrap();
    assert!(store.has_passphrase(Some(&british())).unwrap());
    assert!(store.has_passphrase(None).unwrap());
    assert!(!store.has_passphrase(Some(&SideId::new("rebels"))).unwrap());
    for (seat, given, opens) in [
        (Some(british()), "Kitchener's own riddle", true),
        (Some(british()), "kitchener's own riddle", false),
        (Some(british()), "", false),
        (Some(british()), "umpire-only 1895", false),
        (None, "umpire-only 1895", true),
        (None, "Kitchener's own riddle", false),
        (Some(SideId::new("rebels")), "anything", true),
    ] {
        assert_eq!(
            store.check_passphrase(seat.as_ref(), given).unwrap(),
            opens,
            "{seat:?} {given}"
        );
    }
    // Salted: the same passphrase twice is two different hashes.
    let mut store = store;
    let at = store.revision().unwrap();
    store
        .set_passphrase(at, Some(&SideId::new("rebels")), Some("umpire-only 1895"))
        .unwrap();
    drop(store);
    let bytes = save_bytes(&path);
    let hashes = String::from_utf8_lossy(&bytes).matches("$argon2id$v=19$").count();
    assert!(hashes >= 3, "{hashes}");
    // Cleared: open again.
    let mut store = Store::open(&path).unwrap();
    let at = store.revision().unwrap();
    store.set_passphrase(at, Some(&british()), None).unwrap();
    assert!(!store.has_passphrase(Some(&british())).unwrap());
    assert!(store.check_passphrase(Some(&british()), "").unwrap());
    // Refused: empty, an unknown side, a save that moved on since it was read.
    let empty = store.set_passphrase(at, None, Some("")).unwrap_err();
    assert!(empty.to_string().contains("clear it instead"), "{empty}");
    let unknown = store
        .set_passphrase(at, Some(&SideId::new("french")), Some("x"))
        .unwrap_err();
    assert!(unknown.to_string().contains("no side `french`"), "{unknown}");
    let out = umpire(dir.path(), &["turn", "egypt.umpire"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let moved = store.set_passphrase(at, None, Some("late")).unwrap_err();
    assert!(matches!(moved, StoreError::Moved { .. }), "{moved}");
    assert!(
        store.check_passphrase(None, "umpire-only 1895").unwrap(),
        "unchanged"
    );
}

#[test]
fn undo_leaves_the_passphrases_as_they_are() {
    let dir = tempfile::tempdir().unwrap();
    let path = egypt(dir.path());
    let out = umpire(dir.path(), &["turn", "egypt.umpire"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let mut store = Store::open(&path).unwrap();
    let at = store.revision().unwrap();
    store.set_passphrase(at, Some(&british()), Some("sand")).unwrap();
    let out = umpire(dir.path(), &["undo", "egypt.umpire"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        Store::open(&path)
            .unwrap()
            .check_passphrase(Some(&british()), "sand")
            .unwrap()
    );
    assert!(
        !Store::open(&path)
            .unwrap()
            .check_passphrase(Some(&british()), "")
            .unwrap()
    );
}

#[test]
fn old_saves_migrate_and_take_passphrases() {
    for fixture in [
        "tests/fixtures/schema6/egypt.umpire",
        "tests/fixtures/egypt_1895_move9.umpire",
    ] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.umpire");
        std::fs::copy(repo().join(fixture), &path).unwrap();
        let mut store = Store::open(&path).unwrap();
        assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION, "{fixture}");
        assert!(!store.has_passphrase(None).unwrap());
        let at = store.revision().unwrap();
        store.set_passphrase(at, None, Some("old hand")).unwrap();
        assert!(store.check_passphrase(None, "old hand").unwrap());
    }
}

/// The table of the CLI: what it is given, what it says, and whether the view opens after.
#[test]
fn the_cli_sets_and_clears_a_passphrase_read_from_standard_input() {
    let dir = tempfile::tempdir().unwrap();
    let path = egypt(dir.path());
    let d = dir.path();
    let set = umpire_with_input(
        d,
        &["seat", "passphrase", "egypt.umpire", "British Field Force"],
        "Zebra-onyx\n",
    );
    assert!(set.status.success(), "{}", stderr(&set));
    assert!(
        stdout(&set).contains("Set the passphrase of British Field Force's view"),
        "{}",
        stdout(&set)
    );
    let set = umpire_with_input(
        d,
        &["seat", "passphrase", "egypt.umpire", "umpire"],
        "all seeing\r\n",
    );
    assert!(set.status.success(), "{}", stderr(&set));
    let store = Store::open(&path).unwrap();
    assert!(store.check_passphrase(Some(&british()), "Zebra-onyx").unwrap());
    assert!(
        store.check_passphrase(None, "all seeing").unwrap(),
        "the line's end is not part of it"
    );
    drop(store);
    assert!(!contains(&save_bytes(&path), "Zebra-onyx"));

    for (args, input, says) in [
        (vec!["nobody"], "x\n", "no side `nobody`"),
        (vec!["rebels"], "\n", "no passphrase was given"),
        (vec!["rebels"], "", "no passphrase was given"),
    ] {
        let mut all = vec!["seat", "passphrase", "egypt.umpire"];
        all.extend(args);
        let out = umpire_with_input(d, &all, input);
        assert!(!out.status.success(), "{all:?}");
        assert!(stderr(&out).contains(says), "{all:?}: {}", stderr(&out));
    }

    let clear = umpire(d, &["seat", "passphrase", "egypt.umpire", "british", "--clear"]);
    assert!(clear.status.success(), "{}", stderr(&clear));
    assert!(stdout(&clear).contains("Cleared the passphrase of British Field Force's view"));
    let store = Store::open(&path).unwrap();
    assert!(!store.has_passphrase(Some(&british())).unwrap());
    assert!(store.has_passphrase(None).unwrap(), "the umpire's stays");
}

fn window(save: &Path) -> Harness<'static, UmpireApp> {
    let save = save.to_owned();
    let mut h = common::window::window(
        [1280.0, 800.0],
        Launch {
            open: Some(save),
            ..Launch::default()
        },
    );
    h.run();
    h
}

fn type_passphrase(h: &mut Harness<'_, UmpireApp>, text: &str) {
    h.get_by_label("Passphrase").click();
    h.run();
    h.get_by_label("Passphrase").type_text(text);
    h.run();
    h.get_by_label("Continue").click();
    h.run();
}

/// With a passphrase on the British view, Continue on the page that hands
/// the screen to it asks for it: nothing or a wrong one is refused and the
/// view stays; the right one opens it. A view without one opens as before,
/// and the umpire's own passphrase is asked on the way back.
#[test]
fn the_window_asks_a_views_passphrase_before_it_shows_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = egypt(dir.path());
    let mut h = window(&path);
    // The umpire sets them in the window's dialog.
    h.get_by_label("View").click();
    h.run();
    h.get_by_label("Hot seat passphrases…").click();
    h.run();
    h.get_by_label("British Field Force's view").click();
    h.run();
    h.get_by_label("New passphrase").click();
    h.run();
    h.get_by_label("New passphrase").type_text("Zebra-quartz");
    h.run();
    h.get_by_label("Set passphrase").click();
    h.run();
    h.get_by_label("The umpire's view").click();
    h.run();
    h.get_by_label("New passphrase").click();
    h.run();
    h.get_by_label("New passphrase").type_text("whistle");
    h.run();
    h.get_by_label("Set passphrase").click();
    h.run();
    let notes: Vec<String> = h.state().notes().iter().map(|n| n.text.clone()).collect();
    assert!(
        notes
            .iter()
            .any(|n| n.contains("Set the passphrase of the umpire's view")),
        "{notes:?}"
    );
    let bytes = save_bytes(&path);
    assert!(contains(&bytes, "$argon2id$") && !contains(&bytes, "Zebra-quartz"));

    h.state_mut()
        .send(Command::View(ViewCommand::ViewAs(Some(british()))));
    h.run();
    h.get_by_label_contains("British Field Force's view has a passphrase");
    // Nothing typed, then a wrong one: refused, the page stays, the umpire's view under it.
    h.get_by_label("Continue").click();
    h.run();
    assert!(h.state().passing_the_screen());
    assert_eq!(h.state().viewer(), None);
    type_passphrase(&mut h, "Zebra-quarts");
    assert!(h.state().passing_the_screen());
    assert_eq!(h.state().viewer(), None);
    h.get_by_label_contains("That is not British Field Force's passphrase");
    // The right one opens it.
    type_passphrase(&mut h, "Zebra-quartz");
    assert!(!h.state().passing_the_screen());
    assert_eq!(h.state().viewer(), Some(&british()));
    // In a side's view there is no passphrase dialog, and a command for one is refused.
    h.get_by_label("View").click();
    h.run();
    assert!(h.query_by_label("Hot seat passphrases…").is_none());
    h.get_by_label("View").click();
    h.run();
    h.state_mut().send(Command::View(ViewCommand::SetPassphrase {
        seat: None,
        passphrase: Some("mine now".to_owned()),
    }));
    h.run();
    assert!(
        Store::open(&path)
            .unwrap()
            .check_passphrase(None, "whistle")
            .unwrap()
    );

    // The rebels' view has none: it opens as before.
    h.state_mut()
        .send(Command::View(ViewCommand::ViewAs(Some(SideId::new("rebels")))));
    h.run();
    assert!(h.query_by_label("Passphrase").is_none());
    h.get_by_label("Continue").click();
    h.run();
    assert_eq!(h.state().viewer(), Some(&SideId::new("rebels")));
    // Back to the umpire: asked; Back leaves the rebels' view as it was.
    h.state_mut().send(Command::View(ViewCommand::ViewAs(None)));
    h.run();
    type_passphrase(&mut h, "Zebra-quartz");
    assert!(h.state().passing_the_screen());
    h.get_by_label("Back").click();
    h.run();
    assert!(!h.state().passing_the_screen());
    assert_eq!(h.state().viewer(), Some(&SideId::new("rebels")));
    h.state_mut().send(Command::View(ViewCommand::ViewAs(None)));
    h.run();
    type_passphrase(&mut h, "whistle");
    assert_eq!(h.state().viewer(), None);
    assert!(!h.state().passing_the_screen());
}
