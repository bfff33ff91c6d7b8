//! `umpire orders`: a bad orders file is refused whole, with a reason at the
//! line and column of each bad order.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;
use common::*;
use std::path::Path;

const MAP: &str = r##"name = "Orders test ground"

[[regions]]
id = "camp"
name = "Camp"
terrain = "open"
x = 0.0
y = 0.0

[[regions]]
id = "bridge-town"
name = "Bridge Town"
terrain = "urban"
x = 10.0
y = 0.0
features = ["town", "bridge"]

[[regions]]
id = "far-bank"
name = "Far Bank"
terrain = "open"
x = 20.0
y = 0.0

[[regions]]
id = "hill"
name = "Hill"
terrain = "hills"
x = 0.0
y = 5.0

[[regions]]
id = "enemy-town"
name = "Enemy Town"
terrain = "urban"
x = 0.0
y = 15.0

[[regions]]
id = "blue-home"
name = "Blue Home"
terrain = "open"
x = 0.0
y = 25.0

[[regions]]
id = "distant"
name = "Distant"
terrain = "desert"
x = 500.0
y = 0.0

[[roads]]
from = "camp"
to = "bridge-town"
kind = "road"
miles = 10.0

[[roads]]
from = "bridge-town"
to = "far-bank"
kind = "road"
miles = 10.0
river = "none"

[[roads]]
from = "camp"
to = "hill"
kind = "track"
miles = 5.0

[[roads]]
from = "hill"
to = "enemy-town"
kind = "road"
miles = 10.0

[[roads]]
from = "enemy-town"
to = "blue-home"
kind = "road"
miles = 10.0

[[roads]]
from = "camp"
to = "distant"
kind = "road"
miles = 500.0
"##;

const CAMPAIGN: &str = r##"title = "Orders test"
map = "map.toml"
start_date = 1895-03-01
seed = 3
rules = "cordery-2009"

[[sides]]
id = "red"
name = "Red Army"
colour = "#cc0000"
army = "regular"

[[sides]]
id = "blue"
name = "Blue Army"
colour = "#0000cc"
army = "native"

[[hqs]]
side = "red"
wing = "left"
region = "camp"

[[hqs]]
side = "red"
wing = "centre"
region = "camp"

[[hqs]]
side = "red"
wing = "right"
region = "camp"

[[hqs]]
side = "blue"
wing = "left"
region = "blue-home"

[[hqs]]
side = "blue"
wing = "centre"
region = "blue-home"

[[hqs]]
side = "blue"
wing = "right"
region = "blue-home"

[[forces]]
id = "red-1"
name = "First Column"
side = "red"
region = "camp"
  [[forces.stands]]
  id = 1
  name = "First Company"
  kind = "line_infantry"
  [[forces.stands]]
  id = 2
  name = "Second Company"
  kind = "line_infantry"

[[forces]]
id = "red-2"
name = "Hill Picket"
side = "red"
region = "hill"
  [[forces.stands]]
  id = 3
  name = "Hill Company"
  kind = "light_infantry"

[[forces]]
id = "red-tired"
name = "Flying Column"
side = "red"
region = "camp"
  [[forces.stands]]
  id = 4
  name = "Flying Squadron A"
  kind = "light_cavalry"
  [[forces.stands]]
  id = 5
  name = "Flying Squadron B"
  kind = "light_cavalry"
  [[forces.stands]]
  id = 6
  name = "Flying Squadron C"
  kind = "light_cavalry"
  [[forces.stands]]
  id = 7
  name = "Flying Squadron D"
  kind = "light_cavalry"

[[forces]]
id = "blue-1"
name = "Blue Warband"
side = "blue"
region = "enemy-town"
  [[forces.stands]]
  id = 100
  name = "Blue Spearmen"
  kind = "native_spearmen"
"##;

/// A save of the orders campaign in a temporary folder.
fn save() -> tempfile::TempDir {
    let dir = campaign_dir(MAP, CAMPAIGN);
    let out = umpire(dir.path(), &["new", "campaign.toml", "war.umpire"]);
    assert!(out.status.success(), "{}", stderr(&out));
    dir
}

fn give(dir: &Path, side: &str, orders: &str) -> std::process::Output {
    std::fs::write(dir.join("orders.toml"), orders).unwrap();
    umpire(dir, &["orders", "war.umpire", side, "orders.toml"])
}

/// One refusal: the orders, and the message expected at the line and column
/// of `at` in them.
struct Refusal {
    name: &'static str,
    orders: &'static str,
    at: &'static str,
    message: &'static str,
}

const REFUSALS: &[Refusal] = &[
    Refusal {
        name: "unknown force",
        orders: "[[orders]]\nforce = \"red-9\"\nhold = true\n",
        at: "\"red-9\"",
        message: "unknown force `red-9` (did you mean `red-1`?)",
    },
    Refusal {
        // Red has never made out blue-1, so to Red it is no more than a
        // misspelt id: the refusal must not tell it the force exists.
        name: "an enemy force the side has not identified",
        orders: "[[orders]]\nforce = \"blue-1\"\nhold = true\n",
        at: "\"blue-1\"",
        message: "unknown force `blue-1`",
    },
    Refusal {
        name: "regions not joined on the map",
        orders: "[[orders]]\nforce = \"red-1\"\nmarch = [\"hill\", \"blue-home\"]\n",
        at: "\"blue-home\"",
        message: "Hill and Blue Home are not joined by a road on the map",
    },
    Refusal {
        name: "a forced march into an enemy-held region",
        orders: "[[orders]]\nforce = \"red-2\"\nmarch = [\"enemy-town\"]\nforced = true\n",
        at: "\"enemy-town\"",
        message: "a forced march may not be used to attack (Strategic Rules 3.4): Enemy Town on its path is held by the enemy",
    },
    Refusal {
        name: "a river crossed where there is no bridge or ford",
        orders: "[[orders]]\nforce = \"red-1\"\nmarch = [\"bridge-town\", \"far-bank\"]\n",
        at: "\"far-bank\"",
        message: "the road from Bridge Town to Far Bank crosses the river where there is no bridge or ford",
    },
    Refusal {
        name: "a route that needs an unbridged crossing",
        orders: "[[orders]]\nforce = \"red-1\"\nto = \"far-bank\"\n",
        at: "\"far-bank\"",
        message: "no road leads from Camp to Far Bank: roads that meet a river with no bridge or ford cannot be used",
    },
    Refusal {
        name: "unknown region",
        orders: "[[orders]]\nforce = \"red-1\"\nmarch = [\"bridge-twon\"]\n",
        at: "\"bridge-twon\"",
        message: "unknown region `bridge-twon` (did you mean `bridge-town`, Bridge Town?)",
    },
    Refusal {
        name: "two orders for one force",
        orders: "[[orders]]\nforce = \"red-1\"\nhold = true\n\n[[orders]]\nforce = \"red-1\"\nmarch = [\"hill\"]\n",
        at: "\"red-1\"\nmarch",
        message: "second march or hold order for force `red-1`: the first is order 1",
    },
    Refusal {
        name: "an order that does two things",
        orders: "[[orders]]\nforce = \"red-1\"\nhold = true\nmarch = [\"hill\"]\n",
        at: "[\"hill\"]",
        message: "one order does one thing: `march` comes with `hold`; write two orders",
    },
    Refusal {
        name: "orders for another game move",
        orders: "turn = 7\n\n[[orders]]\nforce = \"red-1\"\nhold = true\n",
        at: "7",
        message: "these orders are for game move 7, but the campaign is at game move 1",
    },
    Refusal {
        name: "orders of another side",
        orders: "side = \"blue\"\n\n[[orders]]\nforce = \"red-1\"\nhold = true\n",
        at: "\"blue\"",
        message: "these orders are for side `blue`, but were given for side `red`",
    },
    Refusal {
        name: "orders for another campaign",
        orders: "campaign = \"The Crimea\"\n\n[[orders]]\nforce = \"red-1\"\nhold = true\n",
        at: "\"The Crimea\"",
        message: "these orders are for the campaign \"The Crimea\", but the save holds \"Orders test\"",
    },
    Refusal {
        name: "a split of a stand that is not there",
        orders: "[[orders]]\nforce = \"red-1\"\nsplit = { stands = [1, 3], id = \"red-1b\", name = \"Detachment\" }\n",
        at: "3]",
        message: "stand #3 is not in force `red-1`",
    },
];

fn line_col(text: &str, needle: &str) -> (usize, usize) {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("`{needle}` is in the orders"));
    let before = &text[..at];
    (
        before.matches('\n').count() + 1,
        before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1,
    )
}

#[test]
fn every_bad_order_is_refused_at_its_line_with_its_reason() {
    let dir = save();
    for case in REFUSALS {
        let out = give(dir.path(), "red", case.orders);
        let (line, column) = line_col(case.orders, case.at);
        let expected = format!("orders.toml:{line}:{column}: error: {}", case.message);
        let err = stderr(&out);
        assert!(
            err.lines().any(|l| l.starts_with(&expected)),
            "case `{}`: expected\n  {expected}\ngot:\n{err}",
            case.name
        );
        assert!(
            err.contains("no orders were taken"),
            "case `{}`: {err}",
            case.name
        );
        assert_eq!(out.status.code(), Some(1), "case `{}`", case.name);
    }
    // Nothing was recorded by any of them.
    let log = stdout(&umpire(dir.path(), &["log", "war.umpire"]));
    assert!(!log.contains("gave orders"), "{log}");
}

#[test]
fn a_resting_force_ordered_to_move_is_refused() {
    let dir = save();
    let ok = give(
        dir.path(),
        "red",
        "[[orders]]\nforce = \"red-tired\"\nto = \"distant\"\nforced = true\n",
    );
    assert!(ok.status.success(), "{}", stderr(&ok));
    for _ in 0..3 {
        assert!(umpire(dir.path(), &["turn", "war.umpire"]).status.success());
    }
    let orders = "[[orders]]\nforce = \"red-tired\"\nto = \"distant\"\n";
    let out = give(dir.path(), "red", orders);
    let err = stderr(&out);
    assert!(
        err.contains("orders.toml:3:6: error: force `red-tired` made three forced marches in a row and must rest this game move (Strategic Rules 3.2)"),
        "{err}"
    );
    // Holding is allowed.
    assert!(
        give(
            dir.path(),
            "red",
            "[[orders]]\nforce = \"red-tired\"\nhold = true\n"
        )
        .status
        .success()
    );
}

#[test]
fn one_bad_order_refuses_the_whole_file() {
    let dir = save();
    let orders =
        "[[orders]]\nforce = \"red-1\"\nmarch = [\"hill\"]\n\n[[orders]]\nforce = \"red-9\"\nhold = true\n";
    let out = give(dir.path(), "red", orders);
    assert_eq!(out.status.code(), Some(1));
    assert!(umpire(dir.path(), &["turn", "war.umpire"]).status.success());
    let status = stdout(&umpire(dir.path(), &["status", "war.umpire"]));
    assert!(
        status.contains("First Column   Camp"),
        "red-1 did not march: {status}"
    );
}

#[test]
fn an_unreadable_orders_file_is_refused_at_its_name() {
    let dir = save();
    std::fs::write(dir.path().join("latin1.toml"), b"side = \"red\" # caf\xe9\n").unwrap();
    // (file given, what the refusal says about it)
    let cases = [
        ("missing.toml", "missing.toml:1:1: error: cannot read the file"),
        (
            "latin1.toml",
            "latin1.toml:1:1: error: the file is not UTF-8 text",
        ),
    ];
    for (file, says) in cases {
        let out = umpire(dir.path(), &["orders", "war.umpire", "red", file]);
        assert!(!out.status.success(), "{file} was taken");
        assert!(stderr(&out).contains(says), "{file}: {}", stderr(&out));
    }
}

#[test]
fn good_orders_are_taken_and_carried_out() {
    let dir = save();
    let orders = r#"# Red's orders for the first game move.
side = "red"
turn = 1
campaign = "Orders test"

[[orders]]
force = "red-1"
to = "bridge-town"

[[orders]]
force = "red-1"
split = { stands = [2], id = "red-1b", name = "Second Column" }

[[orders]]
force = "red-1b"
march = ["hill"]
"#;
    let out = give(dir.path(), "red", orders);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with("Orders for Red Army, game move 1, taken: 2 marches, 1 split."),
        "{text}"
    );
    assert!(text.contains("red-1: march through Bridge Town"), "{text}");
    let turn = umpire(dir.path(), &["turn", "war.umpire"]);
    let text = stdout(&turn);
    assert!(
        text.contains("First Column splits at Camp: Second Company form Second Column."),
        "{text}"
    );
    assert!(
        text.contains("First Column marched 10.0 miles from Camp to Bridge Town."),
        "{text}"
    );
    assert!(
        text.contains("Second Column marched 5.0 miles from Camp to Hill."),
        "{text}"
    );
}
