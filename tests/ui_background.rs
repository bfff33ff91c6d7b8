//! The map's background picture: checked in the map file, carried into the
//! save by `umpire new` and the app, and drawn by the app.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use common::*;
use umpire::model::check::{Source, check_map};
use umpire::ui::{Launch, Session};

const TABLE: &str =
    "\n[background]\nfile = \"valley.png\"\nleft = -5.0\ntop = -5.0\nright = 40.0\nbottom = 30.0\n";

/// The fixture map with a `[background]` table, with `key = value` replaced.
fn map_with(key: &str, value: &str) -> String {
    let table = TABLE
        .lines()
        .map(|line| {
            if line.starts_with(&format!("{key} =")) {
                format!("{key} = {value}")
            } else {
                line.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    format!("{MAP}{table}\n")
}

#[test]
fn a_bad_background_table_is_named_at_its_line() {
    let cases = [
        (
            "file",
            "\"../valley.png\"",
            "must be the name of a file in the map's own folder",
        ),
        ("file", "\"valley.jpg\"", "must be a PNG picture"),
        (
            "right",
            "-10.0",
            "background right must be east of (greater than) left",
        ),
        (
            "bottom",
            "-10.0",
            "background bottom must be south of (greater than) top",
        ),
        ("top", "nan", "background top must be a number of miles"),
    ];
    for (key, value, expected) in cases {
        let text = map_with(key, value);
        let checked = check_map(Source {
            name: "map.toml",
            text: &text,
        });
        assert!(checked.value.is_none(), "{key} = {value} accepted");
        let line = text
            .lines()
            .position(|l| l.starts_with(&format!("{key} =")))
            .unwrap()
            + 1;
        assert!(
            checked
                .diagnostics
                .iter()
                .any(|d| d.message.contains(expected) && d.location.line == line),
            "{key} = {value}: {:?}",
            checked.diagnostics
        );
    }
    let good = check_map(Source {
        name: "map.toml",
        text: &map_with("file", "\"valley.png\""),
    });
    let background = good.value.unwrap().background.unwrap();
    assert_eq!((background.file.as_str(), background.right), ("valley.png", 40.0));
}

#[test]
fn umpire_new_keeps_the_picture_in_the_save_and_the_app_draws_it() {
    let dir = campaign_dir(&map_with("file", "\"valley.png\""), CAMPAIGN);
    let png = std::fs::read(repo().join("maps/egypt_1895.png")).unwrap();
    std::fs::write(dir.path().join("valley.png"), &png).unwrap();
    let output = umpire(dir.path(), &["new", "campaign.toml", "war.umpire"]);
    assert!(output.status.success(), "{}", stderr(&output));

    // Moved away from the map file, the save still has its picture.
    let moved = tempfile::tempdir().unwrap();
    let save = moved.path().join("war.umpire");
    std::fs::copy(dir.path().join("war.umpire"), &save).unwrap();
    drop(dir);
    let session = Session::open(&save).unwrap();
    let (background, bytes) = session.picture().expect("the picture is in the save");
    assert_eq!((background.file.as_str(), bytes), ("valley.png", png));
    drop(session);

    let mut h = common::window::window(
        [1000.0, 700.0],
        Launch {
            open: Some(save),
            ..Launch::default()
        },
    );
    h.run();
    assert!(h.state().has_background());
}

#[test]
fn umpire_check_warns_of_a_missing_picture() {
    let dir = campaign_dir(&map_with("file", "\"valley.png\""), CAMPAIGN);
    let output = umpire(dir.path(), &["check", "map.toml"]);
    assert!(output.status.success(), "a missing picture is only a warning");
    assert!(
        stdout(&output).contains("warning: [background] file `valley.png` not found"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn the_bundled_campaign_opens_with_its_picture() {
    let folder = tempfile::tempdir().unwrap();
    let mut h = common::window::window(
        [1000.0, 700.0],
        Launch {
            data_folder: Some(folder.path().to_owned()),
            ..Launch::default()
        },
    );
    h.run();
    assert!(h.state().has_background());
}
