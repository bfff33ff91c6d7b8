//! The Strategic Rules of `scruby-basic-war-game-rules.txt`, one test per
//! rule, with the seed's own numbers.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;
use common::world::*;
use umpire::model::*;
use umpire::strategy::{Action, OrderRequest, check_requests};

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

#[test]
fn forced_march_ten_stands_lose_one_a_move_eleven_lose_two() {
    // Strategic Rules 3.1: "For every 10 (or less) stands making the march,
    // you remove one stand on each game move the forced march is made."
    let mut c = long_road(vec![
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
    let moves = play(&mut c, 2);
    let losses = |m: usize, f: &str| {
        kinds(&moves[m], "forced_march_loss")
            .iter()
            .filter(|e| e.kind.payload()["force"] == f)
            .count()
    };
    assert_eq!((losses(0, "ten"), losses(0, "eleven")), (1, 2));
    // Next move: 9 stands lose 1, 9 stands lose 1.
    assert_eq!((losses(1, "ten"), losses(1, "eleven")), (1, 1));
    assert_eq!(force_of(&c, "ten").stands.len(), 8);
    assert_eq!(force_of(&c, "eleven").stands.len(), 8);
    // Each loss names its stand and its rule.
    let loss = kinds(&moves[0], "forced_march_loss")[0];
    assert_eq!(loss.kind.payload()["rule"], "Strategic Rules 3.1");
    let stand = loss.kind.payload()["stand"].as_u64().unwrap();
    assert!(
        loss.sentence
            .starts_with(&format!("line infantry {stand} falls out of")),
        "{}",
        loss.sentence
    );
}

#[test]
fn a_forced_march_is_three_regulation_moves() {
    // Strategic Rules 3.3: "A forced march = 3 regulation moves on one game move."
    let mut c = long_road(vec![
        marching(
            force("quick", "red", "home", stands(StandKind::LineInfantry, 2, 1)),
            &["far"],
            true,
        ),
        marching(
            force("steady", "red", "home", stands(StandKind::LineInfantry, 2, 10)),
            &["far"],
            false,
        ),
    ]);
    play(&mut c, 1);
    let miles = |id: &str| force_of(&c, id).en_route.as_ref().unwrap().miles;
    // Infantry on a road: 6 inches a move (Movement chart) at 2.5 miles an inch.
    assert_eq!(miles("steady"), 15.0);
    assert_eq!(miles("quick"), 45.0);
}

#[test]
fn three_forced_marches_in_a_row_then_a_move_of_rest() {
    // Strategic Rules 3.2: "Troops making three successive forced marches
    // must stop and 'rest' one game move thereafter (no movement)."
    let mut c = long_road(vec![marching(
        force("column", "red", "home", stands(StandKind::LightCavalry, 30, 1)),
        &["far"],
        true,
    )]);
    let moves = play(&mut c, 3);
    assert!(moves.iter().all(|m| kinds(m, "moved").len() == 1));
    assert_eq!(kinds(&moves[2], "must_rest").len(), 1);
    assert!(force_of(&c, "column").fatigue.must_rest);
    let resting = OrderRequest {
        force: ForceId::new("column"),
        action: Action::March(vec![RegionId::new("far")]),
        forced: false,
        by: Default::default(),
    };
    let refused = check_requests(&c, &SideId::new("red"), &[resting]).unwrap_err();
    assert!(
        refused[0].message.contains("must rest this game move"),
        "{}",
        refused[0].message
    );

    let before = force_of(&c, "column").en_route.clone();
    let rest = play(&mut c, 1);
    assert_eq!(kinds(&rest[0], "rested").len(), 1);
    assert!(kinds(&rest[0], "moved").is_empty());
    assert!(
        kinds(&rest[0], "forced_march_loss").is_empty(),
        "no losses while resting"
    );
    assert_eq!(
        force_of(&c, "column").en_route,
        before,
        "no movement while resting"
    );
    // Then it marches on, still under its forced-march order.
    let on = play(&mut c, 1);
    assert_eq!(kinds(&on[0], "moved").len(), 1);
    assert_eq!(
        kinds(&on[0], "forced_march_loss").len(),
        3,
        "21 stands left after three moves of 3 losses: three more"
    );
}

/// Red's HQs at `home`; red's `column` at `out`, cut off because blue holds
/// `pass`, the only road between.
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

#[test]
fn cut_off_losses_begin_on_the_fifth_cut_move_not_the_fourth() {
    // Strategic Rules 2.2: "If enemy troops cut the road leading from your HQ
    // to your troops in the field, after 4 game moves you must remove one
    // stand of troops from the field until the road is reopened."
    let mut c = cut_off(stands(StandKind::LineInfantry, 6, 1));
    let moves = play(&mut c, 6);
    let losses: Vec<usize> = moves.iter().map(|m| kinds(m, "supply_loss").len()).collect();
    assert_eq!(losses, [0, 0, 0, 0, 1, 1]);
    let cut = kinds(&moves[0], "supply_cut");
    assert_eq!(cut.len(), 1);
    assert_eq!(
        cut[0].kind.payload()["cut_at"],
        serde_json::json!(["pass"]),
        "the cut is named"
    );
    assert!(
        cut[0]
            .sentence
            .contains("the enemy holds Pass on its road to the nearest HQ"),
        "{}",
        cut[0].sentence
    );
    assert!(
        cut[0].sentence.contains("from game move 5"),
        "{}",
        cut[0].sentence
    );
    assert_eq!(force_of(&c, "column").stands.len(), 4);
    assert_eq!(
        kinds(&moves[4], "supply_loss")[0].kind.payload()["rule"],
        "Strategic Rules 2.2"
    );
}

#[test]
fn cut_off_losses_alternate_infantry_and_cavalry() {
    // Strategic Rules 2.2: "Removal of troops should be one Infantry stand on
    // one move and one cavalry stand on the next, etc."
    let mut column = stands(StandKind::LineInfantry, 4, 1);
    column.extend(stands(StandKind::HeavyCavalry, 4, 50));
    let mut c = cut_off(column);
    let moves = play(&mut c, 8);
    let arms: Vec<String> = moves
        .iter()
        .flat_map(|m| kinds(m, "supply_loss"))
        .map(|e| e.kind.payload()["arm"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(arms, ["infantry", "cavalry", "infantry", "cavalry"]);
}

#[test]
fn supply_is_restored_when_the_road_reopens() {
    let mut c = cut_off(stands(StandKind::LineInfantry, 6, 1));
    play(&mut c, 2);
    assert_eq!(force_of(&c, "column").supply.cut_moves, 2);
    // The blockers march away home; the road is open again.
    let blockers = c.forces.iter_mut().find(|f| f.id.as_str() == "blockers").unwrap();
    blockers.order = StandingOrder::March {
        path: vec![RegionId::new("blue-home")],
        forced: false,
        by: Conveyance::Foot,
    };
    let moves = play(&mut c, 1);
    assert_eq!(kinds(&moves[0], "supply_restored").len(), 1);
    assert_eq!(force_of(&c, "column").supply, Supply::default());
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
                stands(StandKind::LineInfantry, 8, 1),
            ),
        ],
    )
}

#[test]
fn hq_loss_costs_a_stand_a_move_from_the_second_move_after_the_capture() {
    // Strategic Rules 2.1: "If, however, your HQ is captured, on the second
    // game move thereafter, you must remove from the table one stand of
    // soldiers each game move until the HQ is recaptured."
    let mut c = hq_raid();
    let moves = play(&mut c, 4);
    assert_eq!(
        kinds(&moves[0], "hq_captured").len(),
        3,
        "all three of red's HQs stand in the town"
    );
    assert!(
        c.hqs
            .iter()
            .filter(|h| h.side.as_str() == "red")
            .all(|h| h.held_by.as_str() == "blue")
    );
    let losses: Vec<usize> = moves.iter().map(|m| kinds(m, "hq_loss").len()).collect();
    // Captured in move 1; the first move after is 2, the second is 3.
    assert_eq!(losses, [0, 0, 3, 3], "one stand a move for each HQ lost");
    assert_eq!(
        kinds(&moves[2], "hq_loss")[0].kind.payload()["rule"],
        "Strategic Rules 2.1"
    );
    assert_eq!(force_of(&c, "redcoats").stands.len(), 2);
}

#[test]
fn an_hq_is_retaken_by_its_own_side_and_the_losses_stop() {
    let mut c = hq_raid();
    play(&mut c, 1);
    // The raiders ride home; the redcoats march back into the town.
    c.forces
        .iter_mut()
        .find(|f| f.id.as_str() == "raiders")
        .unwrap()
        .order = StandingOrder::March {
        path: vec![RegionId::new("blue-home")],
        forced: false,
        by: Conveyance::Foot,
    };
    c.forces
        .iter_mut()
        .find(|f| f.id.as_str() == "redcoats")
        .unwrap()
        .order = StandingOrder::March {
        path: vec![RegionId::new("red-town")],
        forced: false,
        by: Conveyance::Foot,
    };
    let moves = play(&mut c, 6);
    let retaken: usize = moves.iter().map(|m| kinds(m, "hq_retaken").len()).sum();
    assert_eq!(retaken, 3);
    assert!(
        c.hqs
            .iter()
            .all(|h| h.held_by == h.side && h.captured_turn.is_none())
    );
    let lost: usize = moves.iter().map(|m| kinds(m, "hq_loss").len()).sum();
    let last = moves
        .iter()
        .rposition(|m| !kinds(m, "hq_loss").is_empty())
        .unwrap();
    let back = moves
        .iter()
        .position(|m| !kinds(m, "hq_retaken").is_empty())
        .unwrap();
    assert!(last < back, "no HQ losses once retaken");
    assert_eq!(force_of(&c, "redcoats").stands.len(), 8 - lost);
}

#[test]
fn an_hq_under_attack_holds_while_its_defenders_are_there() {
    let mut c = hq_raid();
    c.forces.push(force(
        "garrison",
        "red",
        "red-town",
        stands(StandKind::LineInfantry, 2, 90),
    ));
    let moves = play(&mut c, 1);
    assert!(kinds(&moves[0], "hq_captured").is_empty());
    let battle = &c.battles[0];
    assert_eq!(
        (battle.attacker.as_str(), battle.defender.as_str()),
        ("blue", "red")
    );
    assert_eq!(battle.region.as_str(), "red-town");
}

#[test]
fn a_force_marches_at_its_slowest_stand_and_cavalry_outmarch_foot() {
    let mut mixed = stands(StandKind::LightCavalry, 2, 1);
    mixed.extend(stands(StandKind::FootArtillery, 1, 3));
    let mut c = long_road(vec![
        marching(force("mixed", "red", "home", mixed), &["far"], false),
        marching(
            force("horse", "red", "home", stands(StandKind::LightCavalry, 2, 10)),
            &["far"],
            false,
        ),
    ]);
    play(&mut c, 1);
    let miles = |id: &str| force_of(&c, id).en_route.as_ref().unwrap().miles;
    // Guns march with the infantry: 6 inches; light cavalry 10 inches (Movement chart).
    assert_eq!(miles("mixed"), 15.0);
    assert_eq!(miles("horse"), 25.0);
}

/// Red holds `ford-town`; a red reserve waits 5 miles off at `near`, another 100 miles off at `distant`.
fn contact() -> Campaign {
    campaign(
        vec![
            region("ford-town", Terrain::Open),
            region("blue-home", Terrain::Open),
            region("near", Terrain::Open),
            region("distant", Terrain::Open),
            region("beyond", Terrain::Open),
        ],
        vec![
            road("blue-home", "ford-town", RoadKind::Road, 10.0),
            road("near", "ford-town", RoadKind::Road, 5.0),
            road("distant", "ford-town", RoadKind::Road, 100.0),
            road("ford-town", "beyond", RoadKind::Road, 10.0),
        ],
        "near",
        "blue-home",
        vec![
            force(
                "holders",
                "red",
                "ford-town",
                stands(StandKind::LineInfantry, 3, 1),
            ),
            force("reserve", "red", "near", stands(StandKind::LineInfantry, 3, 10)),
            force(
                "far-reserve",
                "red",
                "distant",
                stands(StandKind::LineInfantry, 3, 20),
            ),
            marching(
                force(
                    "attackers",
                    "blue",
                    "blue-home",
                    stands(StandKind::LineInfantry, 3, 500),
                ),
                &["ford-town", "beyond"],
                false,
            ),
        ],
    )
}

#[test]
fn forces_that_meet_in_a_region_make_a_pending_battle() {
    let mut c = contact();
    let moves = play(&mut c, 1);
    let created = kinds(&moves[0], "battle_created");
    assert_eq!(created.len(), 1);
    let battle = &c.battles[0];
    assert_eq!(battle.region.as_str(), "ford-town");
    assert_eq!(battle.attacker.as_str(), "blue", "the side that moved in attacks");
    assert_eq!(battle.defender.as_str(), "red");
    assert_eq!(battle.status, BattleStatus::Pending);
    let ids = |list: &[ForceId]| list.iter().map(|f| f.as_str().to_owned()).collect::<Vec<_>>();
    assert_eq!(ids(&battle.forces), ["holders", "attackers"]);
    assert_eq!(ids(&battle.reserves), ["reserve"], "only forces within one move");
    // The attackers halted: they do not march on to `beyond`.
    assert_eq!(force_of(&c, "attackers").region.as_str(), "ford-town");
    assert_eq!(force_of(&c, "attackers").order, StandingOrder::Hold);
    // The battle stays pending, and the game moves go on.
    play(&mut c, 2);
    assert_eq!(c.battles.len(), 1);
    assert_eq!(c.turn, 4);
}

#[test]
fn a_force_marching_into_a_pending_battle_stops_and_joins_it() {
    let mut c = contact();
    play(&mut c, 1);
    c.forces
        .iter_mut()
        .find(|f| f.id.as_str() == "reserve")
        .unwrap()
        .order = StandingOrder::March {
        path: vec![RegionId::new("ford-town"), RegionId::new("beyond")],
        forced: false,
        by: Conveyance::Foot,
    };
    let moves = play(&mut c, 1);
    assert_eq!(kinds(&moves[0], "battle_joined").len(), 1);
    assert_eq!(force_of(&c, "reserve").region.as_str(), "ford-town");
    assert!(c.battles[0].forces.iter().any(|f| f.as_str() == "reserve"));
    assert!(c.battles[0].reserves.is_empty());
}

#[test]
fn forces_passing_on_one_road_meet_there() {
    let mut c = campaign(
        vec![region("west", Terrain::Open), region("east", Terrain::Open)],
        vec![road("west", "east", RoadKind::Road, 40.0)],
        "west",
        "east",
        vec![
            marching(
                force("eastbound", "red", "west", stands(StandKind::LineInfantry, 2, 1)),
                &["east"],
                false,
            ),
            marching(
                force(
                    "westbound",
                    "blue",
                    "east",
                    stands(StandKind::LightCavalry, 2, 500),
                ),
                &["west"],
                false,
            ),
        ],
    );
    let moves = play(&mut c, 1);
    assert_eq!(kinds(&moves[0], "battle_created").len(), 1);
    let battle = &c.battles[0];
    // Infantry 15 miles a move, cavalry 25: they pass 15 miles out of west,
    // the nearer end; the cavalry were marching there, so they attack.
    assert_eq!(battle.region.as_str(), "west");
    assert_eq!(battle.attacker.as_str(), "blue");
    for id in ["eastbound", "westbound"] {
        let f = force_of(&c, id);
        assert_eq!(
            (f.region.as_str(), f.en_route.is_none()),
            ("west", true),
            "{id} halted in west"
        );
    }
}

#[test]
fn the_same_state_gives_the_same_events() {
    let mut a = hq_raid();
    let mut b = hq_raid();
    let first = play(&mut a, 5);
    let second = play(&mut b, 5);
    assert_eq!(first, second);
    assert_eq!(a.rng, b.rng);
    assert_ne!(a.rng.word_pos, 0, "the losses drew from the stream");
}

#[test]
fn a_force_on_the_road_marches_on_through_every_region_of_its_new_orders() {
    let mut c = campaign(
        vec![
            region("a", Terrain::Open),
            region("b", Terrain::Open),
            region("c", Terrain::Open),
            region("blue-home", Terrain::Open),
        ],
        vec![
            road("a", "b", RoadKind::Road, 20.0),
            road("b", "c", RoadKind::Road, 10.0),
            road("c", "blue-home", RoadKind::Road, 90.0),
        ],
        "a",
        "blue-home",
        vec![marching(
            force("column", "red", "a", stands(StandKind::LineInfantry, 2, 1)),
            &["b"],
            false,
        )],
    );
    play(&mut c, 1);
    let f = force_of(&c, "column");
    assert_eq!(
        f.en_route.as_ref().map(|e| (e.toward.as_str(), e.miles)),
        Some(("b", 15.0))
    );
    assert_eq!(
        f.order,
        StandingOrder::March {
            path: vec![RegionId::new("b")],
            forced: false,
            by: Conveyance::Foot,
        }
    );
    // New orders while on the road: on through b to c.
    let orders = check_requests(
        &c,
        &SideId::new("red"),
        &[OrderRequest {
            force: ForceId::new("column"),
            action: Action::March(vec![RegionId::new("b"), RegionId::new("c")]),
            forced: false,
            by: Default::default(),
        }],
    )
    .unwrap();
    let outcome = umpire::strategy::resolve(&c, &[orders]);
    let f = force_of(&outcome.campaign, "column");
    // 5 miles to b, then 10 more to c.
    assert_eq!((f.region.as_str(), f.en_route.is_none()), ("c", true));
    assert_eq!(f.order, StandingOrder::Hold);
}

#[test]
fn a_force_on_the_road_may_turn_back() {
    let mut c = long_road(vec![marching(
        force("column", "red", "home", stands(StandKind::LineInfantry, 2, 1)),
        &["far"],
        false,
    )]);
    play(&mut c, 1);
    let orders = check_requests(
        &c,
        &SideId::new("red"),
        &[OrderRequest {
            force: ForceId::new("column"),
            action: Action::March(vec![RegionId::new("home")]),
            forced: false,
            by: Default::default(),
        }],
    )
    .unwrap();
    let outcome = umpire::strategy::resolve(&c, &[orders]);
    let f = force_of(&outcome.campaign, "column");
    assert_eq!(
        (f.region.as_str(), f.en_route.is_none()),
        ("home", true),
        "15 miles back home"
    );
}

#[test]
fn a_force_splits_and_merges_in_its_region() {
    let mut c = long_road(vec![
        force("brigade", "red", "home", stands(StandKind::LineInfantry, 4, 1)),
        force("guns", "red", "home", stands(StandKind::FootArtillery, 1, 9)),
    ]);
    let red = SideId::new("red");
    let split = OrderRequest {
        force: ForceId::new("brigade"),
        action: Action::Split {
            stands: vec![StandId(3), StandId(4)],
            new_force: ForceId::new("detachment"),
            name: "The Detachment".to_owned(),
        },
        forced: false,
        by: Default::default(),
    };
    let merge = OrderRequest {
        force: ForceId::new("guns"),
        action: Action::MergeInto(ForceId::new("detachment")),
        forced: false,
        by: Default::default(),
    };
    let march = OrderRequest {
        force: ForceId::new("detachment"),
        action: Action::March(vec![RegionId::new("far")]),
        forced: false,
        by: Default::default(),
    };
    let orders = check_requests(&c, &red, &[split, merge, march]).unwrap();
    let outcome = umpire::strategy::resolve(&c, &[orders]);
    c = outcome.campaign;
    let ids = |f: &Force| f.stands.iter().map(|s| s.id.0).collect::<Vec<_>>();
    assert_eq!(ids(force_of(&c, "brigade")), [1, 2]);
    assert_eq!(ids(force_of(&c, "detachment")), [3, 4, 9]);
    assert!(c.force(&ForceId::new("guns")).is_none());
    assert!(
        force_of(&c, "detachment").en_route.is_some(),
        "the new force marched off"
    );
    let told: Vec<&str> = outcome.events.iter().map(|e| e.sentence.as_str()).collect();
    assert!(
        told.contains(&"Brigade splits at Home: line infantry 3, line infantry 4 form The Detachment."),
        "{told:?}"
    );
    assert!(
        told.contains(&"Guns joins The Detachment at Home (1 stand)."),
        "{told:?}"
    );
    // A merge across regions is refused.
    let apart = OrderRequest {
        force: ForceId::new("brigade"),
        action: Action::MergeInto(ForceId::new("detachment")),
        forced: false,
        by: Default::default(),
    };
    let refused = check_requests(&c, &red, &[apart]).unwrap_err();
    assert!(
        refused[0]
            .message
            .contains("must both stand in one region to merge"),
        "{}",
        refused[0].message
    );
}

#[test]
fn a_battle_one_side_has_no_force_left_in_is_called_off() {
    // The column marches into a blue picket at `beyond` (a battle) in the game
    // move its fifth cut move strips it of its last stand (Strategic Rules
    // 2.2): there is no one left to fight, so the battle is called off, not
    // left pending for ever.
    let mut c = cut_off(stands(StandKind::LineInfantry, 1, 1));
    c.forces[0].supply.cut_moves = 4;
    c.map.regions.push(region("beyond", Terrain::Open));
    c.map.roads.push(road("out", "beyond", RoadKind::Track, 5.0));
    c.forces.push(force(
        "picket",
        "blue",
        "beyond",
        stands(StandKind::LightCavalry, 1, 900),
    ));
    c.forces[0] = marching(c.forces[0].clone(), &["beyond"], false);
    let moves = play(&mut c, 1);
    assert_eq!(kinds(&moves[0], "battle_created").len(), 1, "{:#?}", moves[0]);
    assert_eq!(kinds(&moves[0], "supply_loss").len(), 1);
    let off = kinds(&moves[0], "battle_called_off");
    assert_eq!(off.len(), 1, "{:#?}", moves[0]);
    assert_eq!(off[0].kind.payload()["gone"], serde_json::json!(["red"]));
    assert_eq!(
        off[0].sentence,
        "Battle 1 at Beyond is called off: Red Army has no force left there, all lost before it could be fought; Blue Army holds Beyond."
    );
    assert_eq!(c.battles[0].status, BattleStatus::CalledOff);
    assert!(c.forces.iter().all(|f| f.id.as_str() != "column"));
    // Nothing waits on it: a result for it is refused with the reason.
    let err = umpire::handoff::pending_battle(&c, 1).unwrap_err().to_string();
    assert!(err.contains("was called off"), "{err}");
    let pending = play(&mut c, 1);
    assert_eq!(
        kinds(&pending[0], "turn_ended")[0].kind.payload()["battles_pending"],
        0
    );
}
