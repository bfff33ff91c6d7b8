//! House rules: each setting of the campaign file's `[house_rules]` table
//! with the seed's number and a changed one, the rejoin house rule with and
//! without supply, and what `status` and the briefing say of them.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;
use common::world::*;
use common::{CAMPAIGN, MAP, campaign_dir, stderr, stdout, umpire};
use umpire::model::house_rules::{self, GraceCount, HouseRules};
use umpire::model::*;
use umpire::strategy::{TurnOutcome, fog};

/// A long straight road from the red HQ at `home` out to `far`, so forces
/// stay on the march; blue is out of the way at `blue-home`.
fn long_road(forces: Vec<Force>) -> Campaign {
    campaign(
        vec![
            region("home", Terrain::Open),
            region("far", Terrain::Open),
            region("blue-home", Terrain::Open),
        ],
        vec![
            road("home", "far", RoadKind::Road, 2000.0),
            road("far", "blue-home", RoadKind::Road, 50.0),
        ],
        "home",
        "blue-home",
        forces,
    )
}

/// Red's `column` at `out`, cut off because blue holds `pass`, the only road home.
fn cut_off(column: Vec<Stand>) -> Campaign {
    campaign(
        vec![
            region("home", Terrain::Open),
            region("pass", Terrain::Hills),
            region("out", Terrain::Desert),
            region("blue-home", Terrain::Open),
        ],
        vec![
            road("home", "pass", RoadKind::Road, 20.0),
            road("pass", "out", RoadKind::Track, 20.0),
            road("pass", "blue-home", RoadKind::Road, 30.0),
        ],
        "home",
        "blue-home",
        vec![
            force("column", "red", "out", column),
            force(
                "blockers",
                "blue",
                "pass",
                stands(StandKind::NativeSpearmen, 3, 500),
            ),
        ],
    )
}

/// Blue's raiders take red's undefended HQ town on the first move.
fn hq_raid() -> Campaign {
    campaign(
        vec![
            region("red-town", Terrain::Urban),
            region("blue-home", Terrain::Open),
            region("red-camp", Terrain::Open),
        ],
        vec![
            road("blue-home", "red-town", RoadKind::Road, 10.0),
            road("red-camp", "red-town", RoadKind::Road, 60.0),
        ],
        "red-town",
        "blue-home",
        vec![
            marching(
                force(
                    "raiders",
                    "blue",
                    "blue-home",
                    stands(StandKind::LightCavalry, 2, 500),
                ),
                &["red-town"],
                false,
            ),
            force(
                "redcoats",
                "red",
                "red-camp",
                stands(StandKind::LineInfantry, 20, 1),
            ),
        ],
    )
}

fn count(moves: &[TurnOutcome], kind: &str) -> Vec<usize> {
    moves.iter().map(|m| kinds(m, kind).len()).collect()
}

fn with(mut c: Campaign, rules: impl FnOnce(&mut HouseRules)) -> Campaign {
    rules(&mut c.house_rules);
    c
}

// ---------------------------------------------------------------------------
// Each setting: the seed's number, then a changed one.

#[test]
fn forced_march_loss_rate_one_in_ten_by_the_seed_one_in_five_by_house_rule() {
    // Strategic Rules 3.1: "For every 10 (or less) stands making the march,
    // you remove one stand". With 1 in 5, a 10-stand force loses 2 and an
    // 11-stand force 3.
    for (per, ten, eleven) in [(10, 1, 2), (5, 2, 3), (1, 10, 11), (20, 1, 1)] {
        let c = long_road(vec![
            marching(
                force("ten", "red", "home", stands(StandKind::LineInfantry, 10, 1)),
                &["far"],
                true,
            ),
            marching(
                force("eleven", "red", "home", stands(StandKind::LineInfantry, 11, 100)),
                &["far"],
                true,
            ),
        ]);
        let mut c = with(c, |h| h.forced_march_loss_per = per);
        let moves = play(&mut c, 1);
        let lost = |f: &str| {
            kinds(&moves[0], "forced_march_loss")
                .iter()
                .filter(|e| e.kind.payload()["force"] == f)
                .count()
        };
        assert_eq!((lost("ten"), lost("eleven")), (ten, eleven), "1 in {per}");
        let sentence = &kinds(&moves[0], "forced_march_loss")[0].sentence;
        assert!(
            sentence.contains(&format!(
                "one stand for every {per} or fewer marching; Strategic Rules 3.1"
            )),
            "{sentence}"
        );
        assert_eq!(
            sentence.contains("as the house rules set it"),
            per != 10,
            "{sentence}"
        );
    }
}

#[test]
fn forced_marches_before_rest_three_by_the_seed_two_by_house_rule() {
    // Strategic Rules 3.2: "Troops making three successive forced marches
    // must stop and 'rest' one game move thereafter".
    for (limit, rest_after) in [(3, 3), (2, 2), (5, 5)] {
        let c = long_road(vec![marching(
            force("column", "red", "home", stands(StandKind::LightCavalry, 60, 1)),
            &["far"],
            true,
        )]);
        let mut c = with(c, |h| h.forced_marches_before_rest = limit);
        let moves = play(&mut c, rest_after + 1);
        let rests = count(&moves, "must_rest");
        let mut expected = vec![0; rest_after + 1];
        expected[rest_after - 1] = 1;
        assert_eq!(rests, expected, "a rest after {limit}");
        assert_eq!(count(&moves, "rested")[rest_after], 1);
        assert!(
            kinds(&moves[rest_after - 1], "must_rest")[0]
                .sentence
                .contains(&format!("has made {limit} forced marches in a row")),
        );
    }
}

#[test]
fn supply_grace_four_moves_by_the_seed_and_as_the_house_rules_count_it() {
    // Strategic Rules 2.2: "after 4 game moves you must remove one stand".
    // The seed's reading: the move of the cut is the first of the four, so
    // the fifth move cut off is the first to lose a stand.
    let cases = [
        (4, GraceCount::FromTheCut, [0, 0, 0, 0, 1, 1, 1]),
        (2, GraceCount::FromTheCut, [0, 0, 1, 1, 1, 1, 1]),
        (4, GraceCount::AfterTheCut, [0, 0, 0, 0, 0, 1, 1]),
        (0, GraceCount::FromTheCut, [1, 1, 1, 1, 1, 1, 1]),
    ];
    for (grace, counts, losses) in cases {
        let c = cut_off(stands(StandKind::LineInfantry, 9, 1));
        let mut c = with(c, |h| {
            h.supply_grace_moves = grace;
            h.supply_grace_counts = counts;
        });
        let moves = play(&mut c, 7);
        assert_eq!(count(&moves, "supply_loss"), losses, "{grace} {counts:?}");
        let first_loss = losses.iter().position(|&l| l == 1).unwrap() + 1;
        if grace > 0 {
            let cut = &kinds(&moves[0], "supply_cut")[0].sentence;
            assert!(cut.contains(&format!("from game move {first_loss}")), "{cut}");
        }
        // The status tells the same game move.
        let mut c = cut_off(stands(StandKind::LineInfantry, 9, 1));
        c.house_rules = HouseRules {
            supply_grace_moves: grace,
            supply_grace_counts: counts,
            ..HouseRules::default()
        };
        play(&mut c, 1);
        let status = status::Status::of(&c);
        let column = status.sides[0].forces.iter().find(|f| f.id == "column").unwrap();
        assert_eq!(
            column.supply.losses_from_turn,
            // From the next game move, if losses have already begun.
            Some(u32::try_from(first_loss.max(2)).unwrap()),
            "{grace} {counts:?}"
        );
    }
}

#[test]
fn hq_loss_delay_two_moves_by_the_seed_one_by_house_rule() {
    // Strategic Rules 2.1: "on the second game move thereafter, you must
    // remove from the table one stand of soldiers each game move".
    for (delay, losses) in [(2, [0, 0, 3, 3]), (1, [0, 3, 3, 3]), (3, [0, 0, 0, 3])] {
        let mut c = with(hq_raid(), |h| h.hq_loss_delay_moves = delay);
        let moves = play(&mut c, 4);
        assert_eq!(count(&moves, "hq_loss"), losses, "delay {delay}");
        let captured = &kinds(&moves[0], "hq_captured")[0].sentence;
        assert!(
            captured.contains(&format!("From game move {} ", 1 + delay)),
            "{captured}"
        );
    }
}

/// Red watchers at the origin, a blue column `miles` east, in the open.
fn watched_at(miles: f64) -> Campaign {
    let mut near = region("near", Terrain::Open);
    near.x = miles;
    let mut blue_home = region("blue-home", Terrain::Open);
    blue_home.x = 1000.0;
    campaign(
        vec![region("red-home", Terrain::Open), near, blue_home],
        vec![
            road("red-home", "near", RoadKind::Road, miles),
            road("near", "blue-home", RoadKind::Road, 500.0),
        ],
        "red-home",
        "blue-home",
        vec![
            force(
                "watchers",
                "red",
                "red-home",
                stands(StandKind::LineInfantry, 1, 1),
            ),
            force("column", "blue", "near", stands(StandKind::LineInfantry, 2, 10)),
        ],
    )
}

fn red_sees_column(c: &Campaign) -> bool {
    c.knowledge
        .of(&SideId::new("red"))
        .any(|s| s.force.as_str() == "column" && s.in_sight)
}

#[test]
fn sight_range_eighteen_inches_by_the_seed_twelve_by_house_rule() {
    // Strategic Rules 4.2: "“Sight range” is 18 inches": 45 miles at 2.5
    // miles an inch; at 12 inches, 30 miles.
    for (inches, miles, seen) in [
        (18.0, 40.0, true),
        (18.0, 46.0, false),
        (12.0, 29.0, true),
        (12.0, 31.0, false),
    ] {
        let mut c = with(watched_at(miles), |h| h.sight_inches = inches);
        assert_eq!(fog::sight_miles(&c, Some(Terrain::Open)), inches * 2.5);
        play(&mut c, 1);
        assert_eq!(red_sees_column(&c), seen, "{inches} inches, {miles} miles");
    }
}

#[test]
fn scouting_range_nine_inches_by_the_seed_and_as_the_house_rules_set_it() {
    // Rule 17A (1961): "Whenever Light Cavalry approach enemy forces within 9
    // inches": 22.5 miles at 2.5 miles an inch. Red's scouts 20 miles from a
    // blue column concealed in a forest throw for it at 9 inches, not at 6.
    let scene = |inches: f64| {
        let mut wood = region("wood", Terrain::Forest);
        wood.x = 20.0;
        let mut blue_home = region("blue-home", Terrain::Open);
        blue_home.x = 1000.0;
        let mut c = campaign(
            vec![region("red-home", Terrain::Open), wood, blue_home],
            vec![
                road("red-home", "wood", RoadKind::Road, 20.0),
                road("wood", "blue-home", RoadKind::Road, 500.0),
            ],
            "red-home",
            "blue-home",
            vec![
                force("scouts", "red", "red-home", stands(StandKind::LightCavalry, 2, 1)),
                force("column", "blue", "wood", stands(StandKind::LineInfantry, 2, 10)),
            ],
        );
        c.house_rules.scouting_inches = inches;
        c
    };
    assert_eq!(fog::scouting_miles(&scene(9.0)), 22.5);
    assert_eq!(fog::scouting_miles(&scene(6.0)), 15.0);
    let throws = |inches: f64| {
        let mut c = scene(inches);
        let moves = play(&mut c, 1);
        moves[0]
            .events
            .iter()
            .filter(|e| e.kind.name().starts_with("scouts_"))
            .count()
    };
    assert_eq!(throws(9.0), 1, "within 9 inches the scouts throw");
    assert_eq!(throws(6.0), 0, "beyond 6 inches they do not");
}

#[test]
fn march_rates_by_arm_the_chart_by_the_seed_and_scaled_by_house_rule() {
    // Movement chart: infantry 6 inches on a road, light cavalry 10; at 2.5
    // miles an inch, 15 and 25 miles a game move.
    for (infantry, light_cavalry, foot, horse) in [
        (100, 100, 15.0, 25.0),
        (150, 100, 22.5, 25.0),
        (100, 50, 15.0, 12.5),
    ] {
        let c = long_road(vec![
            marching(
                force("foot", "red", "home", stands(StandKind::LineInfantry, 2, 1)),
                &["far"],
                false,
            ),
            marching(
                force("horse", "red", "home", stands(StandKind::LightCavalry, 2, 10)),
                &["far"],
                false,
            ),
        ]);
        let mut c = with(c, |h| {
            h.march_percent.infantry = infantry;
            h.march_percent.light_cavalry = light_cavalry;
        });
        play(&mut c, 1);
        let miles = |id: &str| force_of(&c, id).en_route.as_ref().unwrap().miles;
        assert_eq!(
            (miles("foot"), miles("horse")),
            (foot, horse),
            "{infantry}% / {light_cavalry}%"
        );
    }
}

// ---------------------------------------------------------------------------
// The rejoin house rule.

fn fallen_out_force(c: &Campaign) -> Vec<StandId> {
    force_of(c, "column")
        .fallen_out
        .iter()
        .map(|o| o.stand.id)
        .collect()
}

#[test]
fn without_the_house_rule_stands_fallen_out_are_gone_as_the_seed_says() {
    let mut c = long_road(vec![marching(
        force("column", "red", "home", stands(StandKind::LineInfantry, 10, 1)),
        &["far"],
        true,
    )]);
    let moves = play(&mut c, 4);
    assert!(fallen_out_force(&c).is_empty());
    assert_eq!(count(&moves, "stands_rejoined"), [0, 0, 0, 0]);
}

#[test]
fn a_stand_fallen_out_rejoins_after_n_game_moves_when_in_supply() {
    let c = long_road(vec![marching(
        force("column", "red", "home", stands(StandKind::LineInfantry, 10, 1)),
        &["far"],
        true,
    )]);
    let mut c = with(c, |h| h.rejoin_after_moves = Some(2));
    let first = play(&mut c, 1);
    let loss = &kinds(&first[0], "forced_march_loss")[0];
    assert!(
        loss.sentence
            .contains("it may rejoin on game move 3 if Column is then in supply (a house rule)"),
        "{}",
        loss.sentence
    );
    let fell = fallen_out_force(&c);
    assert_eq!(fell.len(), 1);
    assert_eq!(force_of(&c, "column").stands.len(), 9);
    // It marches on at an ordinary pace: no more losses.
    c.forces[0].order = StandingOrder::March {
        path: vec![RegionId::new("far")],
        forced: false,
        by: Conveyance::Foot,
    };
    let later = play(&mut c, 2);
    assert_eq!(count(&later, "stands_rejoined"), [0, 1]);
    let rejoined = &kinds(&later[1], "stands_rejoined")[0];
    assert_eq!(rejoined.kind.payload()["stands"], serde_json::json!([fell[0].0]));
    assert_eq!(rejoined.kind.payload()["force"], "column");
    assert!(
        rejoined.sentence.ends_with(
            "rejoins Column on the road from Home to Far, in supply (fallen out on a forced march; rejoining after 2 game moves is a house rule)."
        ),
        "{}",
        rejoined.sentence
    );
    assert_eq!(force_of(&c, "column").stands.len(), 10);
    assert!(fallen_out_force(&c).is_empty());
}

#[test]
fn a_stand_fallen_out_waits_while_its_force_is_cut_off() {
    let mut c = with(cut_off(stands(StandKind::LineInfantry, 4, 1)), |h| {
        h.rejoin_after_moves = Some(1);
        h.supply_grace_moves = 50;
    });
    let straggler = stands(StandKind::LineInfantry, 1, 99).remove(0);
    c.forces[0].fallen_out.push(FallenOut {
        stand: straggler,
        turn: 1,
    });
    let cut = play(&mut c, 3);
    assert_eq!(count(&cut, "stands_rejoined"), [0, 0, 0], "cut off: it waits");
    assert_eq!(fallen_out_force(&c), [StandId(99)]);
    // The blockers march away home; the road opens and the stand rejoins.
    let blockers = c.forces.iter_mut().find(|f| f.id.as_str() == "blockers").unwrap();
    blockers.order = StandingOrder::March {
        path: vec![RegionId::new("blue-home")],
        forced: false,
        by: Conveyance::Foot,
    };
    let open = play(&mut c, 1);
    assert_eq!(kinds(&open[0], "supply_restored").len(), 1);
    assert_eq!(kinds(&open[0], "stands_rejoined").len(), 1);
    assert!(force_of(&c, "column").stands.iter().any(|s| s.id == StandId(99)));
}

#[test]
fn a_force_struck_off_takes_its_stragglers_with_it() {
    // One stand on a forced march falls out: the force has none left and is
    // struck off; the stand has no force to rejoin and is lost.
    let c = long_road(vec![marching(
        force("column", "red", "home", stands(StandKind::LineInfantry, 1, 1)),
        &["far"],
        true,
    )]);
    let mut c = with(c, |h| h.rejoin_after_moves = Some(1));
    let moves = play(&mut c, 3);
    assert!(c.force(&ForceId::new("column")).is_none());
    assert_eq!(count(&moves, "stands_rejoined"), [0, 0, 0]);
}

#[test]
fn the_fog_sees_the_strength_a_rejoining_stand_brings() {
    // Blue watches red's column the whole time (every region at one spot):
    // it sees 9 stands after the fall-out, 10 once the stand rejoins.
    let mut c = long_road(vec![
        marching(
            force("column", "red", "home", stands(StandKind::LineInfantry, 10, 1)),
            &["far"],
            true,
        ),
        force(
            "watchers",
            "blue",
            "blue-home",
            stands(StandKind::LineInfantry, 1, 500),
        ),
    ]);
    c.house_rules.rejoin_after_moves = Some(1);
    let seen = |c: &Campaign| {
        c.knowledge
            .of(&SideId::new("blue"))
            .find(|s| s.force.as_str() == "column")
            .map(|s| s.seen.clone())
    };
    play(&mut c, 1);
    assert!(
        matches!(seen(&c), Some(Seen::Full { stands: 9, .. })),
        "{:?}",
        seen(&c)
    );
    c.forces[0].order = StandingOrder::Hold;
    let moves = play(&mut c, 1);
    assert_eq!(kinds(&moves[0], "stands_rejoined").len(), 1);
    assert!(
        matches!(seen(&c), Some(Seen::Full { stands: 10, .. })),
        "{:?}",
        seen(&c)
    );
    // Blue does not hear the event itself, only sees the column's strength.
    let log: Vec<Event> = moves[0].events.clone();
    let heard = report::heard_by(&c, &SideId::new("blue"), &log, &log.iter().collect::<Vec<_>>());
    assert!(heard.iter().all(|h| !h.sentence.contains("rejoins")), "{heard:?}");
    let heard = report::heard_by(&c, &SideId::new("red"), &log, &log.iter().collect::<Vec<_>>());
    assert!(heard.iter().any(|h| h.sentence.contains("rejoins")), "{heard:?}");
}

// ---------------------------------------------------------------------------
// What status and the briefing say.

#[test]
fn the_seeds_rules_differ_in_nothing() {
    let c = long_road(vec![]);
    assert!(house_rules::differences(&c).is_empty());
    assert!(status::Status::of(&c).house_rules.is_empty());
}

#[test]
fn every_changed_setting_is_stated_with_the_seed() {
    let mut c = long_road(vec![]);
    c.house_rules = HouseRules {
        forced_march_loss_per: 5,
        forced_marches_before_rest: 2,
        supply_grace_moves: 3,
        supply_grace_counts: GraceCount::AfterTheCut,
        hq_loss_delay_moves: 1,
        sight_inches: 12.0,
        scouting_inches: 6.0,
        march_percent: MarchPercent {
            heavy_cavalry: 120,
            ..MarchPercent::default()
        },
        rejoin_after_moves: Some(2),
        odds_in_reports: true,
    };
    c.miles_per_inch = 5.0;
    let said: Vec<String> = house_rules::differences(&c)
        .iter()
        .map(|d| d.sentence())
        .collect();
    assert_eq!(
        said,
        [
            "forced march loses 1 stand in 5 (the seed: 1 in 10, scruby-basic Strategic Rules 3.1)",
            "a force rests after 2 forced marches in a row (the seed: after 3, scruby-basic Strategic Rules 3.2)",
            "a force cut off loses stands after 3 game moves (the seed: after 4, scruby-basic Strategic Rules 2.2)",
            "the supply grace counts from the game move after the road is cut (the seed: the game move of the cut is the first, scruby-basic Strategic Rules 2.2)",
            "a side whose HQ is lost loses stands from 1 game move later (the seed: 2 game moves later, scruby-basic Strategic Rules 2.1)",
            "sight range 12\" (the seed: 18\", scruby-basic Strategic Rules 4.2)",
            "light cavalry scout within 6\" (the seed: 9\", scruby-1961 rule 17A)",
            "heavy cavalry march at 120% of the movement chart (the seed: 100%, scruby-basic Movement)",
            "stands fallen out on a forced march rejoin after 2 game moves if their force is in supply (the seed: they are removed, scruby-basic Strategic Rules 3.1)",
            "each side's report page gives the engine's odds of its pending battles (the seed: no odds: the seeds give the players none before a battle)",
            "5 miles to the inch (the seed: 2.5, this program's scale: the infantry road move of 6\" a 15-mile day)",
        ]
    );
}

fn ok(dir: &std::path::Path, args: &[&str]) -> String {
    let out = umpire(dir, args);
    assert!(
        out.status.success(),
        "umpire {args:?} failed:\n{}{}",
        stdout(&out),
        stderr(&out)
    );
    stdout(&out)
}

const HOUSE_RULES: &str = "rules = \"scruby-1965\"\n\n[house_rules]\nforced_march_loss_per = 5\nmiles_per_inch = 3.0\nrejoin_after_moves = 2\n\n[house_rules.march_percent]\nlight_cavalry = 80\n";

#[test]
fn status_states_the_house_rules_from_the_campaign_file_and_the_save_keeps_them() {
    let campaign = CAMPAIGN.replacen("rules = \"scruby-1965\"\n", HOUSE_RULES, 1);
    let dir = campaign_dir(MAP, &campaign);
    let check = ok(dir.path(), &["check", "campaign.toml"]);
    assert!(check.contains("campaign.toml: 0 errors, 0 warnings"), "{check}");
    ok(dir.path(), &["new", "campaign.toml", "war.umpire"]);
    let text = ok(dir.path(), &["status", "war.umpire"]);
    for line in [
        "House rules (where this campaign differs from the seeds):",
        "  forced march loses 1 stand in 5 (the seed: 1 in 10, scruby-basic Strategic Rules 3.1)",
        "  light cavalry march at 80% of the movement chart (the seed: 100%, scruby-basic Movement)",
        "  stands fallen out on a forced march rejoin after 2 game moves if their force is in supply",
        "  3 miles to the inch (the seed: 2.5,",
    ] {
        assert!(text.contains(line), "`{line}` in\n{text}");
    }
    // A side's status says the same: every side plays by them.
    let side = ok(dir.path(), &["status", "war.umpire", "--side", "blue"]);
    assert!(side.contains("forced march loses 1 stand in 5"), "{side}");
    let json: serde_json::Value =
        serde_json::from_str(&ok(dir.path(), &["status", "war.umpire", "--json"])).unwrap();
    let keys: Vec<&str> = json["house_rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["key"].as_str().unwrap())
        .collect();
    assert_eq!(
        keys,
        [
            "forced_march_loss_per",
            "march_percent.light_cavalry",
            "rejoin_after_moves",
            "miles_per_inch"
        ]
    );
    // The save keeps them: a game move and an undo later they are still there.
    ok(dir.path(), &["turn", "war.umpire"]);
    ok(dir.path(), &["undo", "war.umpire"]);
    let c = umpire::store::Store::open(&dir.path().join("war.umpire"))
        .unwrap()
        .load()
        .unwrap();
    assert_eq!(c.house_rules.forced_march_loss_per, 5);
    assert_eq!(c.house_rules.march_percent.light_cavalry, 80);
    assert_eq!(c.house_rules.rejoin_after_moves, Some(2));
    assert_eq!(c.miles_per_inch, 3.0);
}

#[test]
fn a_campaign_without_house_rules_says_nothing_of_them() {
    let dir = campaign_dir(MAP, CAMPAIGN);
    ok(dir.path(), &["new", "campaign.toml", "war.umpire"]);
    let text = ok(dir.path(), &["status", "war.umpire"]);
    assert!(!text.contains("House rules"), "{text}");
    let json = ok(dir.path(), &["status", "war.umpire", "--json"]);
    assert!(!json.contains("house_rules"), "{json}");
}

#[test]
fn the_old_top_level_miles_per_inch_is_still_read_and_stated_as_a_house_rule() {
    let campaign = CAMPAIGN.replacen("seed = 7\n", "seed = 7\nmiles_per_inch = 4.0\n", 1);
    let dir = campaign_dir(MAP, &campaign);
    ok(dir.path(), &["new", "campaign.toml", "war.umpire"]);
    let text = ok(dir.path(), &["status", "war.umpire"]);
    assert!(text.contains("  4 miles to the inch (the seed: 2.5,"), "{text}");
}

#[test]
fn fallen_out_stands_are_kept_in_the_save_and_shown_by_status() {
    let mut c = long_road(vec![marching(
        force("column", "red", "home", stands(StandKind::LineInfantry, 10, 1)),
        &["far"],
        true,
    )]);
    c.house_rules.rejoin_after_moves = Some(3);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("war.umpire");
    drop(umpire::store::Store::create(&path, &c, umpire::store::Overwrite::Refuse).unwrap());
    let (mut store, before, at) = umpire::store::Store::open_and_load_at(&path).unwrap();
    let outcome = umpire::strategy::resolve(&before, &[]);
    store.commit_turn(at, &before, &outcome).unwrap();
    drop(store);
    let loaded = umpire::store::Store::open(&path).unwrap().load().unwrap();
    assert_eq!(loaded.forces, outcome.campaign.forces);
    assert_eq!(loaded.forces[0].fallen_out.len(), 1);
    let text = ok(dir.path(), &["status", "war.umpire"]);
    assert!(
        text.contains("fallen out on a forced march; rejoins from game move 4 if in supply"),
        "{text}"
    );
}

#[test]
fn the_briefing_states_the_campaigns_house_rules() {
    // Red and blue start in one region: battle 1 in the first game move.
    let mut c = campaign(
        vec![region("field", Terrain::Open), region("blue-home", Terrain::Open)],
        vec![road("field", "blue-home", RoadKind::Road, 20.0)],
        "field",
        "blue-home",
        vec![
            force("reds", "red", "field", stands(StandKind::LineInfantry, 4, 1)),
            force("blues", "blue", "field", stands(StandKind::LineInfantry, 4, 100)),
        ],
    );
    c.house_rules.sight_inches = 24.0;
    play(&mut c, 1);
    let battle = c.battles.first().expect("a battle").clone();
    let handoff = umpire::handoff::build(&c, battle.id, c.rules).unwrap();
    let briefing = umpire::handoff::briefing::write_briefing(&c, &battle, &handoff);
    assert!(
        briefing.contains(
            "- House rules of the campaign (where it differs from the seeds):\n  - sight range 24\" (the seed: 18\", scruby-basic Strategic Rules 4.2)."
        ),
        "{briefing}"
    );
    c.house_rules = HouseRules::default();
    let plain = umpire::handoff::briefing::write_briefing(&c, &battle, &handoff);
    assert!(!plain.contains("House rules"), "{plain}");
}

#[test]
fn the_defaults_are_the_seeds_numbers() {
    let seed = HouseRules::default();
    assert_eq!(seed.forced_march_loss_per, 10, "Strategic Rules 3.1");
    assert_eq!(seed.forced_marches_before_rest, 3, "Strategic Rules 3.2");
    assert_eq!(seed.supply_grace_moves, 4, "Strategic Rules 2.2");
    assert_eq!(seed.supply_grace_counts, GraceCount::FromTheCut);
    assert_eq!(seed.hq_loss_delay_moves, 2, "Strategic Rules 2.1");
    assert_eq!(seed.sight_inches, 18.0, "Strategic Rules 4.2");
    assert_eq!(seed.sight_inches, fog::SIGHT_INCHES);
    assert_eq!(seed.scouting_inches, 9.0, "1961 rule 17A");
    assert_eq!(seed.scouting_inches, fog::SCOUTING_INCHES);
    assert_eq!(seed.march_percent, MarchPercent::default());
    assert_eq!(seed.rejoin_after_moves, None);
    assert!(seed.is_seed());
    // An old save's JSON, with no house rules, reads as the seeds'.
    let json = serde_json::json!({});
    assert_eq!(serde_json::from_value::<HouseRules>(json).unwrap(), seed);
}

#[test]
fn a_stand_waiting_to_rejoin_keeps_its_id_from_new_stands() {
    // Stand 4 fell out of the brigade in game move 1 and may rejoin after one
    // move; replacements come the same game move. The new stand must not take
    // id 4, or the save could not keep both.
    let mut red = force("brigade", "red", "home", stands(StandKind::LineInfantry, 3, 1));
    let mut lost = stands(StandKind::LineInfantry, 1, 4).remove(0);
    lost.name = "Fallen".to_owned();
    red.fallen_out = vec![FallenOut { stand: lost, turn: 1 }];
    let blue = force(
        "scouts",
        "blue",
        "blue-home",
        stands(StandKind::LineInfantry, 1, 100),
    );
    let mut c = campaign(
        vec![region("home", Terrain::Open), region("blue-home", Terrain::Open)],
        vec![road("home", "blue-home", RoadKind::Road, 200.0)],
        "home",
        "blue-home",
        vec![red, blue],
    );
    c.turn = 2;
    c.house_rules.rejoin_after_moves = Some(1);
    c.replacements = vec![Replacements {
        side: SideId::new("red"),
        every: 1,
        at: Wing::Left,
        name: None,
        stands: vec![NewStands {
            kind: StandKind::LineInfantry,
            quality: Quality::Trained,
            count: 1,
            name: None,
        }],
    }];
    let out = umpire::strategy::resolve(&c, &[]);
    let mut ids: Vec<u32> = out
        .campaign
        .forces
        .iter()
        .flat_map(|f| f.stands.iter().map(|s| s.id.0))
        .collect();
    assert!(ids.contains(&4), "stand 4 rejoined: {ids:?}");
    ids.sort_unstable();
    let before = ids.len();
    ids.dedup();
    assert_eq!(ids.len(), before, "a stand id twice: {ids:?}");
    let dir = tempfile::tempdir().unwrap();
    umpire::store::Store::create(
        &dir.path().join("s.umpire"),
        &out.campaign,
        umpire::store::Overwrite::Refuse,
    )
    .expect("the save keeps every stand");
}
