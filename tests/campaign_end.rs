//! The campaign's end (issue 16, item 4): the campaign file's `[end]`
//! conditions, each met by a game move that says so with the final standing
//! (HQs held, then points: Strategic Rules 1.1 of
//! `scruby-basic-war-game-rules.txt`); the umpire's end with the pencil;
//! orders and game moves refused after it; undo taking it back.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use common::world::{campaign, force, marching, play, region, road, stands};
use common::{CAMPAIGN, MAP, campaign_dir, stderr, stdout, umpire};
use proptest::prelude::*;
use std::path::Path;
use umpire::desk;
use umpire::model::end::{AllHqs, EndReason, SidePoints};
use umpire::model::{Campaign, Date, EventKind, ForceId, RoadKind, SideId, StandKind, Terrain};
use umpire::store::{Overwrite, Store};
use umpire::strategy::{Action, OrderRequest, check_requests};

/// The test campaign with `end` (the `[end]` table's lines) put in.
fn campaign_with_end(end: &str) -> String {
    CAMPAIGN.replacen(
        "rules = \"scruby-1965\"\n",
        &format!("rules = \"scruby-1965\"\n\n[end]\n{end}\n"),
        1,
    )
}

fn run(dir: &Path, args: &[&str]) -> String {
    let out = umpire(dir, args);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    stdout(&out)
}

fn load(dir: &Path) -> Campaign {
    Store::open(&dir.join("c.umpire")).unwrap().load().unwrap()
}

/// The orders file giving Red Column a hold order for game move `turn`.
fn hold_orders(dir: &Path, turn: u32) -> String {
    let text = format!(
        "campaign = \"Test campaign\"\nside = \"red\"\nturn = {turn}\n\n[[orders]]\nforce = \"red-column\"\nhold = true\n"
    );
    std::fs::write(dir.join("red.toml"), text).unwrap();
    "red.toml".to_owned()
}

#[test]
fn a_ten_game_move_limit_ends_on_move_ten_with_the_standing_printed() {
    let dir = campaign_dir(MAP, &campaign_with_end("last_move = 10"));
    run(dir.path(), &["new", "campaign.toml", "c.umpire"]);
    let status = run(dir.path(), &["status", "c.umpire"]);
    assert!(
        status.contains("The campaign ends when game move 10 has been resolved."),
        "{status}"
    );
    for turn in 1..=9 {
        let out = run(dir.path(), &["turn", "c.umpire"]);
        assert!(!out.contains("campaign ends"), "game move {turn}: {out}");
    }
    let out = run(dir.path(), &["turn", "c.umpire"]);
    // Red: 100 + 60 points; Blue: spearmen 150 + riflemen 50. Three HQs each.
    assert!(
        out.contains(
            "The campaign ends on game move 10: game move 10 was the last (last_move = 10). \
             Final standing, by HQs held and then points: Blue Army 3 HQs, 200 points; Red Army 3 HQs, 160 points. \
             Blue Army wins on points, 200 to 160, both holding 3 HQs (a tie in HQs is broken by points: this program's choice)."
        ),
        "{out}"
    );
    let status = run(dir.path(), &["status", "c.umpire"]);
    for line in [
        "The campaign ended on game move 10: game move 10 was the last (last_move = 10).",
        "Final standing, by HQs held and then points:",
        "  1. Blue Army  3 HQs  200 points",
        "  2. Red Army   3 HQs  160 points",
        "Blue Army wins on points, 200 to 160",
    ] {
        assert!(status.contains(line), "{line:?} in\n{status}");
    }
    let json: serde_json::Value =
        serde_json::from_str(&run(dir.path(), &["status", "c.umpire", "--json"])).unwrap();
    let ended = &json["ended"];
    assert_eq!(ended["turn"], 10);
    assert_eq!(ended["condition"], "last_move");
    assert_eq!(ended["winner"], "blue");
    assert_eq!(ended["standing"][0]["side"], "blue");
    assert_eq!(ended["standing"][0]["hqs"], 3);
    assert_eq!(ended["standing"][0]["points"], 200);
    assert_eq!(ended["standing"][1]["points"], 160);
    // A side's view shows the same final standing.
    let red = run(dir.path(), &["status", "c.umpire", "--side", "red"]);
    assert!(red.contains("  1. Blue Army  3 HQs  200 points"), "{red}");
    // The log keeps the end.
    let log = run(dir.path(), &["log", "c.umpire"]);
    assert!(log.contains("The campaign ends on game move 10"), "{log}");
}

#[test]
fn after_the_end_orders_and_game_moves_are_refused_and_undo_takes_the_end_back() {
    let dir = campaign_dir(MAP, &campaign_with_end("last_move = 2"));
    run(dir.path(), &["new", "campaign.toml", "c.umpire"]);
    run(dir.path(), &["turn", "c.umpire"]);
    run(dir.path(), &["turn", "c.umpire"]);
    let ended = load(dir.path());
    assert_eq!(ended.turn, 3);
    assert_eq!(ended.end.ended.as_ref().map(|e| e.turn), Some(2));
    let save = std::fs::read(dir.path().join("c.umpire")).unwrap();

    let why = "the campaign ended on game move 2: game move 2 was the last (last_move = 2). No more orders or game moves are taken. \
               Only undo takes the end back (`umpire undo`, or Undo in the window); the pencil (`umpire edit`) still corrects forces and HQs";
    let orders = hold_orders(dir.path(), 3);
    for args in [
        &["turn", "c.umpire"][..],
        &["turn", "c.umpire", "--with-pending"],
        &["orders", "c.umpire", "red", &orders],
    ] {
        let out = umpire(dir.path(), args);
        assert!(!out.status.success(), "{args:?} was taken");
        assert!(stderr(&out).contains(why), "{args:?}: {}", stderr(&out));
    }
    assert_eq!(load(dir.path()), ended, "nothing changed");
    assert_eq!(
        std::fs::read(dir.path().join("c.umpire")).unwrap(),
        save,
        "not a byte of the save changed"
    );

    // Undo takes game move 2 back, and its end with it.
    run(dir.path(), &["undo", "c.umpire"]);
    let undone = load(dir.path());
    assert_eq!(undone.turn, 2);
    assert_eq!(undone.end.ended, None);
    let status = run(dir.path(), &["status", "c.umpire"]);
    assert!(!status.contains("The campaign ended"), "{status}");
    let orders = hold_orders(dir.path(), 2);
    run(dir.path(), &["orders", "c.umpire", "red", &orders]);
    let out = run(dir.path(), &["turn", "c.umpire"]);
    assert!(out.contains("The campaign ends on game move 2"), "{out}");
}

#[test]
fn the_umpire_ends_the_campaign_with_the_pencil_and_undo_takes_it_back() {
    let dir = campaign_dir(MAP, CAMPAIGN);
    run(dir.path(), &["new", "campaign.toml", "c.umpire"]);
    run(dir.path(), &["turn", "c.umpire"]);
    let blank = umpire(dir.path(), &["edit", "c.umpire", "end-campaign", "--reason", " "]);
    assert!(!blank.status.success());
    assert!(
        stderr(&blank).contains("the reason is blank"),
        "{}",
        stderr(&blank)
    );

    let out = run(
        dir.path(),
        &[
            "edit",
            "c.umpire",
            "end-campaign",
            "--reason",
            "the Mahdi sued for peace",
        ],
    );
    assert!(
        out.contains("The umpire's edit: the campaign is declared ended. Reason: the Mahdi sued for peace"),
        "{out}"
    );
    assert!(
        out.contains("The campaign ends at game move 2: the umpire declared it over (the Mahdi sued for peace). Final standing"),
        "{out}"
    );
    let c = load(dir.path());
    let ended = c.end.ended.as_ref().unwrap();
    assert_eq!(ended.turn, 2);
    assert_eq!(
        ended.why,
        EndReason::Declared {
            reason: "the Mahdi sued for peace".to_owned()
        }
    );
    let status = run(dir.path(), &["status", "c.umpire"]);
    assert!(
        status.contains(
            "The campaign ended at game move 2: the umpire declared it over (the Mahdi sued for peace)."
        ),
        "{status}"
    );
    let refused = umpire(dir.path(), &["turn", "c.umpire"]);
    assert!(
        stderr(&refused).contains("the campaign ended at game move 2: the umpire declared it over (the Mahdi sued for peace). No more orders"),
        "{}",
        stderr(&refused)
    );
    // Twice is refused; the pencil's other edits still work after the end.
    let again = umpire(
        dir.path(),
        &["edit", "c.umpire", "end-campaign", "--reason", "again"],
    );
    assert!(
        stderr(&again).contains("the campaign ended at game move 2 already: the umpire declared it over (the Mahdi sued for peace). Undo that first"),
        "{}",
        stderr(&again)
    );
    run(dir.path(), &["edit", "c.umpire", "ruling", "Red keeps the field"]);
    // The pencil's HQ handed over after the end changes the final standing.
    run(
        dir.path(),
        &[
            "edit",
            "c.umpire",
            "hand-over",
            "blue",
            "left",
            "red",
            "--reason",
            "terms of peace",
        ],
    );
    let status = run(dir.path(), &["status", "c.umpire"]);
    assert!(status.contains("Red Army wins, holding 4 HQs to 2."), "{status}");

    for _ in 0..3 {
        run(dir.path(), &["undo", "c.umpire"]);
    }
    assert_eq!(load(dir.path()).end.ended, None, "undo took the end back");
    run(dir.path(), &["turn", "c.umpire"]);
}

#[test]
fn a_side_below_its_share_of_starting_points_ends_the_next_game_move() {
    // Red starts with 160 points; below half is under 80.
    let dir = campaign_dir(MAP, &campaign_with_end("below_share = 0.5"));
    run(dir.path(), &["new", "campaign.toml", "c.umpire"]);
    let start = load(dir.path());
    assert_eq!(
        start.end.rules.start_points,
        vec![
            SidePoints {
                side: SideId::new("red"),
                points: 160
            },
            SidePoints {
                side: SideId::new("blue"),
                points: 200
            }
        ]
    );
    // 20 + 60 = 80: not below half.
    run(
        dir.path(),
        &["edit", "c.umpire", "strength", "1", "20", "--reason", "fever"],
    );
    let out = run(dir.path(), &["turn", "c.umpire"]);
    assert!(!out.contains("campaign ends"), "{out}");
    run(
        dir.path(),
        &[
            "edit",
            "c.umpire",
            "strength",
            "1",
            "19",
            "--reason",
            "more fever",
        ],
    );
    let out = run(dir.path(), &["turn", "c.umpire"]);
    assert!(
        out.contains("The campaign ends on game move 2: Red Army is down to 79 of its 160 starting points, below 50% (below_share = 0.5)."),
        "{out}"
    );
    assert!(out.contains("Blue Army wins on points, 200 to 79"), "{out}");
}

#[test]
fn the_bundled_campaigns_end_as_their_files_say() {
    for (file, texts) in [
        (
            "campaigns/scruby_jumbo_1961.toml",
            &[
                "when game move 20 has been resolved",
                "when one side holds every HQ of the enemy",
                "when a side falls below 25% of its starting points",
            ][..],
        ),
        (
            "campaigns/egyptian_rebellion_1895.toml",
            &[
                "with the game move whose days hold 1895-06-30",
                "when one side holds every HQ of the enemy",
                "when a side falls below 9.09% of its starting points",
            ],
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let path = common::repo().join(file);
        run(dir.path(), &["new", path.to_str().unwrap(), "c.umpire"]);
        let status = run(dir.path(), &["status", "c.umpire"]);
        for text in texts {
            assert!(status.contains(text), "{file}: {text:?} in\n{status}");
        }
    }
}

/// A line of three regions: red's HQs at one end, blue's at the other, an
/// empty field between; red has a column and blue a host.
fn line(red_at: &str, blue_at: &str) -> Campaign {
    campaign(
        vec![
            region("red-home", Terrain::Open),
            region("field", Terrain::Open),
            region("blue-home", Terrain::Open),
            region("far", Terrain::Open),
        ],
        vec![
            road("red-home", "field", RoadKind::Road, 5.0),
            road("field", "blue-home", RoadKind::Road, 5.0),
            road("blue-home", "far", RoadKind::Road, 5.0),
        ],
        "red-home",
        "blue-home",
        vec![
            force("red-column", "red", red_at, stands(StandKind::LineInfantry, 4, 1)),
            force(
                "blue-host",
                "blue",
                blue_at,
                stands(StandKind::NativeSpearmen, 2, 10),
            ),
        ],
    )
}

type Setup = fn(&mut Campaign);

/// The game move the end comes on, and its condition.
type Expected = Option<(u32, &'static str)>;

/// Each condition, in code: the campaign, the game moves played, and the
/// game move the end should come on (`None`: not within them) with its reason.
#[test]
fn each_condition_ends_the_game_move_that_meets_it() {
    let cases: &[(&str, Setup, usize, Expected)] = &[
        ("no conditions: never", |_| {}, 5, None),
        (
            "last_move = 3",
            |c| c.end.rules.last_move = Some(3),
            5,
            Some((3, "last_move")),
        ),
        (
            "last_date = 1895-03-04, a day a move: game move 4",
            |c| c.end.rules.last_date = Date::from_ymd(1895, 3, 4),
            5,
            Some((4, "last_date")),
        ),
        (
            "last_date = 1895-03-10, a week a move: the move of 03-08 to 03-14",
            |c| {
                c.days_per_turn = 7;
                c.end.rules.last_date = Date::from_ymd(1895, 3, 10);
            },
            5,
            Some((2, "last_date")),
        ),
        (
            "all_hqs = enemy: red marches into blue's HQs",
            |c| {
                c.end.rules.all_hqs = Some(AllHqs::Enemy);
                let red = c
                    .forces
                    .iter_mut()
                    .find(|f| f.id.as_str() == "red-column")
                    .unwrap();
                *red = marching(red.clone(), &["field", "blue-home"], false);
            },
            5,
            Some((1, "all_hqs")),
        ),
        (
            "all_hqs = every: not while blue holds a red HQ",
            |c| {
                c.end.rules.all_hqs = Some(AllHqs::Every);
                c.hqs[0].held_by = SideId::new("blue");
                let red = c
                    .forces
                    .iter_mut()
                    .find(|f| f.id.as_str() == "red-column")
                    .unwrap();
                *red = marching(red.clone(), &["field", "blue-home"], false);
            },
            5,
            None,
        ),
        (
            "below_share = 0.5: red's 400 points against a start of 801",
            |c| {
                c.end.rules.below_share = Some(0.5);
                c.end.rules.start_points = vec![
                    SidePoints {
                        side: SideId::new("red"),
                        points: 801,
                    },
                    SidePoints {
                        side: SideId::new("blue"),
                        points: 300,
                    },
                ];
            },
            5,
            Some((1, "below_share")),
        ),
        (
            "below_share = 0.5: red's 400 points against a start of 800, not below",
            |c| {
                c.end.rules.below_share = Some(0.5);
                c.end.rules.start_points = vec![SidePoints {
                    side: SideId::new("red"),
                    points: 800,
                }];
            },
            5,
            None,
        ),
        (
            "all_hqs met before last_move: the HQs are named",
            |c| {
                c.end.rules.last_move = Some(1);
                c.end.rules.all_hqs = Some(AllHqs::Enemy);
                let red = c
                    .forces
                    .iter_mut()
                    .find(|f| f.id.as_str() == "red-column")
                    .unwrap();
                *red = marching(red.clone(), &["field", "blue-home"], false);
            },
            5,
            Some((1, "all_hqs")),
        ),
    ];
    for (name, setup, moves, expected) in cases {
        let mut c = line("red-home", "far");
        setup(&mut c);
        let outcomes = play(&mut c, *moves);
        let ended: Vec<(u32, &str)> = outcomes
            .iter()
            .flat_map(|o| &o.events)
            .filter_map(|e| match &e.kind {
                EventKind::CampaignEnded(end) => Some((e.turn, end.why.condition())),
                _ => None,
            })
            .collect();
        // `play` resolves on regardless: the guard is the desk's. One end only.
        assert_eq!(ended, expected.iter().copied().collect::<Vec<_>>(), "{name}");
        assert_eq!(
            c.end.ended.as_ref().map(|e| e.turn),
            expected.map(|(t, _)| t),
            "{name}"
        );
    }
}

#[test]
fn all_the_enemys_hqs_name_the_side_and_the_winner_by_hqs() {
    let mut c = line("red-home", "far");
    c.end.rules.all_hqs = Some(AllHqs::Enemy);
    let red = c
        .forces
        .iter_mut()
        .find(|f| f.id.as_str() == "red-column")
        .unwrap();
    *red = marching(red.clone(), &["field", "blue-home"], false);
    let outcome = &play(&mut c, 1)[0];
    let told = outcome
        .events
        .iter()
        .find(|e| e.kind.name() == "campaign_ended")
        .unwrap();
    assert!(
        told.sentence.starts_with(
            "The campaign ends on game move 1: Red Army holds every HQ of the enemy, all 3 (all_hqs = \"enemy\"). \
             Final standing, by HQs held and then points: Red Army 6 HQs, 400 points; Blue Army 0 HQs, 300 points. \
             Red Army wins, holding 6 HQs to 0."
        ),
        "{}",
        told.sentence
    );
}

/// A store holding `c` and the campaign read back with its revision.
fn stored(dir: &Path, c: &Campaign) -> Store {
    Store::create(&dir.join("p.umpire"), c, Overwrite::Refuse).unwrap()
}

fn hold_request(force: &str) -> OrderRequest {
    OrderRequest {
        force: ForceId::new(force),
        action: Action::Hold,
        forced: false,
        by: Default::default(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, .. ProptestConfig::default() })]

    /// Once a campaign has ended, no orders are taken and no game move is
    /// resolved, by any of the desk's paths, and the save does not change;
    /// before its end both are taken.
    #[test]
    fn a_campaign_after_its_end_accepts_no_orders(last in 1u32..4, marching_on in any::<bool>(), extra in 1usize..3) {
        let dir = tempfile::tempdir().unwrap();
        let mut c = line("red-home", "far");
        c.end.rules.last_move = Some(last);
        c.end.rules.all_hqs = Some(AllHqs::Enemy);
        if marching_on {
            let red = c.forces.iter_mut().find(|f| f.id.as_str() == "red-column").unwrap();
            *red = marching(red.clone(), &["field", "blue-home"], false);
        }
        let mut store = stored(dir.path(), &c);
        loop {
            let (c, at) = store.read_at(Store::load).unwrap();
            let set = check_requests(&c, &SideId::new("blue"), &[hold_request("blue-host")]).unwrap();
            if c.end.ended.is_some() {
                break;
            }
            desk::submit_orders(&mut store, (&c, at), &set, "test").unwrap();
            let (c, at) = store.read_at(Store::load).unwrap();
            desk::game_move(&mut store, (&c, at)).unwrap();
        }
        let (ended, at) = store.read_at(Store::load).unwrap();
        let end = ended.end.ended.clone().unwrap();
        prop_assert!(end.turn <= last);
        prop_assert_eq!(ended.turn, end.turn + 1);
        for _ in 0..extra {
            let set = check_requests(&ended, &SideId::new("red"), &[hold_request("red-column")]).unwrap();
            let refused = desk::submit_orders(&mut store, (&ended, at), &set, "test").unwrap_err();
            prop_assert!(refused.to_string().starts_with("the campaign ended on game move"), "{}", refused);
            prop_assert!(desk::game_move(&mut store, (&ended, at)).is_err());
            let outcome = umpire::strategy::resolve(&ended, &[]);
            prop_assert!(desk::commit_turn(&mut store, (&ended, at), &outcome).is_err());
            prop_assert!(desk::still_open(&ended).is_err());
        }
        prop_assert_eq!(store.revision().unwrap(), at, "the save did not move");
        prop_assert!(store.pending_orders().unwrap().is_empty());
        prop_assert_eq!(&store.load().unwrap(), &ended);
        // Undo takes the end back, and orders are taken again.
        store.undo(at).unwrap();
        let (back, at) = store.read_at(Store::load).unwrap();
        prop_assert_eq!(back.end.ended.as_ref(), None);
        prop_assert_eq!(back.turn, end.turn);
        let set = check_requests(&back, &SideId::new("red"), &[hold_request("red-column")]).unwrap();
        prop_assert!(desk::submit_orders(&mut store, (&back, at), &set, "test").is_ok());
    }
}
