//! Reinforcements and replacements (issue 16, item 1): written in the
//! campaign file, checked at their lines, brought on in the game move as
//! events, taken back by undo, and seen by the enemy only through the fog.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use common::{CAMPAIGN, MAP, campaign_dir, stderr, stdout, umpire};
use std::path::Path;
use umpire::model::{Campaign, ForceId, SideId, StandId};
use umpire::store::Store;

/// A Red reinforcement landing at the ford, arriving as `when` says.
fn guards(when: &str) -> String {
    format!(
        r#"
[[reinforcements]]
id = "red-guards"
name = "Red Guards"
side = "red"
region = "ford"
{when}

  [[reinforcements.stands]]
  id = 20
  name = "Guards Company"
  kind = "line_infantry"
  quality = "elite"

  [[reinforcements.stands]]
  id = 21
  name = "Guards Rifles"
  kind = "light_infantry"
"#
    )
}

/// Red's replacements: two companies every second game move at its centre HQ (North Town).
const RED_REPLACEMENTS: &str = r#"
[[replacements]]
side = "red"
every = 2
at = "centre"

  [[replacements.stands]]
  kind = "line_infantry"
  count = 2
  name = "Draft Company"
"#;

fn run(dir: &Path, args: &[&str]) -> String {
    let out = umpire(dir, args);
    assert!(out.status.success(), "umpire {args:?}: {}", stderr(&out));
    stdout(&out)
}

/// The test campaign with `extra` appended, created as `s.umpire`.
fn started(extra: &str) -> tempfile::TempDir {
    let dir = campaign_dir(MAP, &format!("{CAMPAIGN}{extra}"));
    run(dir.path(), &["new", "campaign.toml", "s.umpire"]);
    dir
}

fn load(dir: &Path) -> Campaign {
    Store::open(&dir.join("s.umpire")).unwrap().load().unwrap()
}

fn turn(dir: &Path) -> String {
    run(dir, &["turn", "s.umpire"])
}

fn has_guards(dir: &Path) -> bool {
    load(dir).force(&ForceId::new("red-guards")).is_some()
}

#[test]
fn a_reinforcement_arrives_on_its_game_move_and_not_before() {
    let dir = started(&guards("turn = 3"));
    let start = load(dir.path());
    assert_eq!(start.reinforcements.len(), 1);
    for _ in 1..=2 {
        turn(dir.path());
        assert!(!has_guards(dir.path()), "arrived before game move 3");
    }
    turn(dir.path());
    let c = load(dir.path());
    let guards = c
        .force(&ForceId::new("red-guards"))
        .expect("arrived on game move 3");
    assert_eq!(guards.region.as_str(), "ford");
    assert_eq!(guards.side, SideId::new("red"));
    assert_eq!(
        guards.stands.iter().map(|s| s.id).collect::<Vec<_>>(),
        [StandId(20), StandId(21)]
    );
    assert!(c.reinforcements.is_empty(), "it arrives once");
    let log = run(dir.path(), &["log", "s.umpire"]);
    assert!(
        log.contains("Red Guards of the Red Army arrives at The Ford: 2 stands, 200 points (reinforcement, due on game move 3)."),
        "{log}"
    );
    // It does not arrive twice.
    turn(dir.path());
    let c = load(dir.path());
    assert_eq!(c.forces.iter().filter(|f| f.name == "Red Guards").count(), 1);
}

#[test]
fn a_reinforcement_arrives_on_its_date() {
    // One day a game move from 1895-03-01: the 4th is game move 4.
    let dir = started(&guards("date = 1895-03-04"));
    for _ in 1..=3 {
        turn(dir.path());
        assert!(!has_guards(dir.path()), "arrived before its date");
    }
    turn(dir.path());
    assert!(has_guards(dir.path()));
    let log = run(dir.path(), &["log", "s.umpire"]);
    assert!(log.contains("(reinforcement, due on 1895-03-04)"), "{log}");
}

#[test]
fn a_reinforcement_arrives_in_the_move_after_its_hq_is_lost() {
    let dir = started(&guards("when = \"hq_lost\"\nhq_wing = \"right\""));
    turn(dir.path());
    turn(dir.path());
    assert!(!has_guards(dir.path()), "arrived while the HQ was held");
    run(
        dir.path(),
        &[
            "edit",
            "s.umpire",
            "hand-over",
            "--reason",
            "Blue raiders burn the ford",
            "red",
            "right",
            "blue",
        ],
    );
    assert!(!has_guards(dir.path()), "the pencil brings no reinforcement");
    turn(dir.path());
    assert!(has_guards(dir.path()), "not sent when the right HQ fell");
    let log = run(dir.path(), &["log", "s.umpire"]);
    assert!(
        log.contains("(reinforcement, sent when the Red Army right HQ fell)"),
        "{log}"
    );
}

#[test]
fn replacements_come_every_n_game_moves_only_while_the_hq_is_held() {
    let dir = started(RED_REPLACEMENTS);
    let stands = |dir: &Path| {
        load(dir)
            .force(&ForceId::new("red-column"))
            .map_or(0, |f| f.stands.len())
    };
    // every = 2 from game move 1: game moves 3, 5, 7...
    let mut seen = Vec::new();
    for _ in 1..=4 {
        turn(dir.path());
        seen.push(stands(dir.path()));
    }
    assert_eq!(seen, [2, 2, 4, 4], "two companies join on game move 3 only");
    let c = load(dir.path());
    let column = c.force(&ForceId::new("red-column")).unwrap();
    assert_eq!(
        column
            .stands
            .iter()
            .map(|s| (s.id.0, s.name.as_str()))
            .collect::<Vec<_>>(),
        [
            (1, "1st Company"),
            (2, "2nd Company"),
            (12, "Draft Company 1"),
            (13, "Draft Company 2")
        ],
        "numbered on from the highest stand id, as the pencil numbers new stands"
    );
    // Blue takes Red's centre HQ (by the pencil): game move 5's draught does not come.
    run(
        dir.path(),
        &[
            "edit",
            "s.umpire",
            "hand-over",
            "--reason",
            "Blue cavalry in North Town",
            "red",
            "centre",
            "blue",
        ],
    );
    turn(dir.path());
    assert_eq!(stands(dir.path()), 4, "replacements came to an HQ in enemy hands");
    let log = run(dir.path(), &["log", "s.umpire"]);
    assert!(
        log.contains("No replacements reach the Red Army at North Town: the Red Army centre HQ is in the hands of the Blue Army."),
        "{log}"
    );
    assert!(
        log.contains("Replacements for the Red Army reach North Town at the Red Army centre HQ: 2 stands, 200 points join Red Column."),
        "{log}"
    );
    // The Red Column in North Town took it back in game move 5: game move 7's come.
    turn(dir.path());
    turn(dir.path());
    assert_eq!(stands(dir.path()), 6);
    let c = load(dir.path());
    let names: Vec<&str> = c
        .force(&ForceId::new("red-column"))
        .unwrap()
        .stands
        .iter()
        .map(|s| s.name.as_str())
        .collect();
    assert_eq!(
        &names[4..],
        ["Draft Company 3", "Draft Company 4"],
        "each stand's name is its own"
    );
}

#[test]
fn replacements_form_a_new_force_when_none_of_the_side_is_at_the_hq() {
    // Red's right HQ is at the ford, where no Red force stands.
    let dir = started(&RED_REPLACEMENTS.replace("\"centre\"", "\"right\""));
    turn(dir.path());
    turn(dir.path());
    assert!(
        load(dir.path())
            .force(&ForceId::new("red-replacements-3"))
            .is_none()
    );
    turn(dir.path());
    let c = load(dir.path());
    let formed = c
        .force(&ForceId::new("red-replacements-3"))
        .expect("formed on game move 3");
    assert_eq!(formed.region.as_str(), "ford");
    assert_eq!(formed.name, "Red Army replacements of game move 3");
    assert_eq!(formed.stands.len(), 2);
}

#[test]
fn undo_takes_an_arrival_back_and_the_move_brings_it_again() {
    let dir = started(&format!("{}{RED_REPLACEMENTS}", guards("turn = 3")));
    turn(dir.path());
    turn(dir.path());
    let before = load(dir.path());
    turn(dir.path());
    let arrived = load(dir.path());
    assert!(arrived.force(&ForceId::new("red-guards")).is_some());
    run(dir.path(), &["undo", "s.umpire"]);
    let undone = load(dir.path());
    assert_eq!(undone, before, "undo gives back the state before the arrival");
    assert_eq!(
        undone.reinforcements.len(),
        1,
        "the reinforcement is to come again"
    );
    assert!(undone.force(&ForceId::new("red-guards")).is_none());
    turn(dir.path());
    assert_eq!(
        load(dir.path()),
        arrived,
        "the game move replays the same arrival"
    );
}

#[test]
fn the_enemy_sights_an_arrival_only_as_the_fog_lets_it() {
    use common::fog_ground::{CAMPAIGN as FOG, MAP as FOG_MAP};
    // Two Blue reinforcements on game move 2: one on the plain, in sight of
    // Red's outpost, one at Bluehome, far beyond it.
    let extra = r#"
[[reinforcements]]
id = "plain-relief"
name = "Plain Relief"
side = "blue"
region = "plain"
turn = 2

  [[reinforcements.stands]]
  id = 40
  name = "Relief Company"
  kind = "line_infantry"

[[reinforcements]]
id = "home-relief"
name = "Home Relief"
side = "blue"
region = "blue-home"
turn = 2

  [[reinforcements.stands]]
  id = 41
  name = "Home Company"
  kind = "line_infantry"
"#;
    let dir = campaign_dir(FOG_MAP, &format!("{FOG}{extra}"));
    run(dir.path(), &["new", "campaign.toml", "s.umpire"]);
    turn(dir.path());
    let red = SideId::new("red");
    let sees = |c: &Campaign, force: &str| {
        c.knowledge
            .of(&red)
            .any(|s| s.force.as_str() == force && s.in_sight)
    };
    assert!(!sees(&load(dir.path()), "plain-relief"));
    let out = turn(dir.path());
    let c = load(dir.path());
    assert!(
        sees(&c, "plain-relief"),
        "Red's outpost does not see the relief land on the plain"
    );
    assert!(!sees(&c, "home-relief"), "Red sees at Bluehome, 200 miles off");
    assert!(out.contains("Plain Relief"), "{out}");
    // Red's report tells of the sighting, not of Blue's arrivals.
    run(dir.path(), &["report", "s.umpire", "red", "red.toml"]);
    let text = std::fs::read_to_string(dir.path().join("red.toml")).unwrap();
    assert!(
        !text.contains("arrives at"),
        "Red hears of Blue's arrival: {text}"
    );
    assert!(
        !text.contains("Home Relief"),
        "Red hears of the relief it cannot see: {text}"
    );
    // Blue's own report tells of both arrivals.
    run(dir.path(), &["report", "s.umpire", "blue", "blue.toml"]);
    let text = std::fs::read_to_string(dir.path().join("blue.toml")).unwrap();
    for name in ["Plain Relief", "Home Relief"] {
        assert!(
            text.contains(&format!("{name} of the Blue Army arrives at")),
            "Blue does not hear of its {name}: {text}"
        );
    }
}

#[test]
fn an_arrival_where_the_enemy_stands_makes_a_battle() {
    // Blue's host holds South Hills; Red's guards land there on game move 2.
    let dir = started(&guards("turn = 2").replace("region = \"ford\"", "region = \"south\""));
    turn(dir.path());
    assert!(load(dir.path()).battles.is_empty());
    turn(dir.path());
    let c = load(dir.path());
    let battle = c.battles.first().expect("a battle at South Hills");
    assert_eq!(battle.region.as_str(), "south");
    assert_eq!(
        battle.attacker,
        SideId::new("red"),
        "the side that came in attacks"
    );
    assert!(battle.forces.contains(&ForceId::new("red-guards")));
}

/// `umpire check` on the test campaign with `extra`: its stdout and stderr.
fn check(extra: &str) -> String {
    let dir = campaign_dir(MAP, &format!("{CAMPAIGN}{extra}"));
    let out = umpire(dir.path(), &["check", "campaign.toml"]);
    assert!(!out.status.success(), "the check passed:\n{extra}");
    format!("{}{}", stdout(&out), stderr(&out))
}

#[test]
fn check_reports_each_problem_of_the_new_sections_at_its_line() {
    let lines = CAMPAIGN.lines().count();
    // (what is appended, the line of the problem within it (1 = its first line), words of the message)
    let cases: &[(&str, usize, &str)] = &[
        (
            &guards("turn = 3").replace("\"ford\"", "\"fjord\""),
            6,
            "unknown region `fjord`",
        ),
        (
            &guards("turn = 3").replace("side = \"red\"", "side = \"green\""),
            5,
            "unknown side `green`",
        ),
        (
            &guards("turn = 3").replace("\"red-guards\"", "\"blue-host\""),
            3,
            "duplicate force id `blue-host`",
        ),
        (
            &guards("turn = 3").replace("id = 20", "id = 10"),
            10,
            "duplicate stand id `10`",
        ),
        (&guards("turn = 0"), 7, "before the campaign's first game move 1"),
        (
            &guards("date = 1895-02-20"),
            7,
            "before the campaign's start date 1895-03-01",
        ),
        (&guards(""), 3, "exactly one of `turn = N`"),
        (&guards("turn = 3\ndate = 1895-03-04"), 3, "it gives 2"),
        (
            &guards("when = \"hq_taken\"\nhq_wing = \"left\""),
            7,
            "unknown condition `hq_taken`",
        ),
        (&guards("when = \"hq_lost\""), 7, "name it with `hq_wing"),
        (
            &guards("when = \"hq_lost\"\nhq_wing = \"middle\""),
            8,
            "unknown wing `middle`",
        ),
        (
            &guards("turn = 3\nhq_wing = \"left\""),
            8,
            "`hq_side` and `hq_wing` name the HQ",
        ),
        (&guards("turn = 3\nspeed = 3"), 8, "unknown field `speed`"),
        (
            &RED_REPLACEMENTS.replace("every = 2", "every = 0"),
            4,
            "every = 0 must be",
        ),
        (
            &RED_REPLACEMENTS.replace("\"centre\"", "\"middle\""),
            5,
            "unknown HQ wing `middle`",
        ),
        (
            &RED_REPLACEMENTS.replace("count = 2", "count = 0"),
            9,
            "count = 0 must be",
        ),
        (
            &RED_REPLACEMENTS.replace("\"line_infantry\"", "\"hussars\""),
            8,
            "unknown stand kind `hussars`",
        ),
        (
            &RED_REPLACEMENTS.replace("side = \"red\"", "side = \"green\""),
            3,
            "unknown side `green`",
        ),
    ];
    for (extra, line, words) in cases {
        let out = check(extra);
        let at = format!("campaign.toml:{}:", lines + line);
        assert!(
            out.lines().any(|l| l.contains(&at) && l.contains(words)),
            "expected `{words}` at {at}, got:\n{out}"
        );
    }
}

#[test]
fn the_indian_contingent_lands_at_suez_on_game_move_6_of_the_egyptian_rebellion() {
    let dir = tempfile::tempdir().unwrap();
    let campaign = common::repo().join("campaigns/egyptian_rebellion_1895.toml");
    run(dir.path(), &["new", campaign.to_str().unwrap(), "s.umpire"]);
    let contingent = ForceId::new("indian-contingent");
    for _ in 1..=5 {
        turn(dir.path());
        assert!(
            load(dir.path()).force(&contingent).is_none(),
            "landed before game move 6"
        );
    }
    let out = turn(dir.path());
    let c = load(dir.path());
    let landed = c.force(&contingent).expect("landed on game move 6");
    assert_eq!(landed.region.as_str(), "suez");
    assert_eq!(landed.points(), 290);
    assert!(
        out.contains("Indian Contingent of the British Field Force arrives at Suez: 4 stands, 290 points (reinforcement, due on game move 6)."),
        "{out}"
    );
    // The depots' first draft reaches Alexandria the same move.
    assert!(
        out.contains("Replacements for the British Field Force reach Alexandria"),
        "{out}"
    );
}

#[test]
fn the_umpire_s_status_lists_the_troops_to_come_and_a_side_s_does_not() {
    let dir = started(&format!("{}{RED_REPLACEMENTS}", guards("turn = 3")));
    let status = run(dir.path(), &["status", "s.umpire"]);
    assert!(
        status.contains("To come:\n  Red Guards (Red Army) at The Ford: 2 stands, 200 points, due on game move 3\n  replacements for the Red Army: 2 × trained line infantry every 2 game moves at its centre HQ, while it holds it\n"),
        "{status}"
    );
    for side in ["red", "blue"] {
        let view = run(dir.path(), &["status", "s.umpire", "--side", side]);
        assert!(
            !view.contains("To come") && !view.contains("Red Guards"),
            "{view}"
        );
        let json = run(dir.path(), &["status", "s.umpire", "--side", side, "--json"]);
        assert!(!json.contains("\"coming\""), "{json}");
    }
    for _ in 1..=3 {
        turn(dir.path());
    }
    let status = run(dir.path(), &["status", "s.umpire"]);
    assert!(
        !status.contains("Red Guards (Red Army) at"),
        "arrived, yet still to come:\n{status}"
    );
}

#[test]
fn a_reinforcement_whose_id_and_name_were_taken_meanwhile_arrives_under_new_ones() {
    let dir = started(&guards("turn = 2"));
    run(
        dir.path(),
        &[
            "edit",
            "s.umpire",
            "add-force",
            "red-guards",
            "--name",
            "Red Guards",
            "--side",
            "red",
            "--region",
            "north",
            "--kind",
            "line_infantry",
            "--reason",
            "the umpire lands a guard of his own",
        ],
    );
    turn(dir.path());
    turn(dir.path());
    let c = load(dir.path());
    let landed = c
        .force(&ForceId::new("red-guards-2"))
        .expect("arrived as red-guards-2");
    assert_eq!(landed.name, "Red Guards 2");
    assert_eq!(landed.region.as_str(), "ford");
    assert_eq!(
        c.force(&ForceId::new("red-guards")).unwrap().region.as_str(),
        "north"
    );
}
