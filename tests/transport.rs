//! Railways and river steamers (issue 16, item 2): journeys by train and by
//! steamer, their rates and capacities, cut lines, and their orders.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;
use common::world::*;
use common::{campaign_dir, repo, stderr, stdout, umpire};
use proptest::prelude::*;
use umpire::model::*;
use umpire::strategy::{Action, OrderRequest, OrderSet, check_requests, journey_forecast, resolve};

fn stop(id: &str, feature: Feature) -> Region {
    let mut r = region(id, Terrain::Open);
    r.features = vec![feature];
    r
}

/// Red's HQ at `home`, a railway of three 50-mile legs home-b-c-d, all
/// stations; a river from `d` (a landing) down to `home` (a landing) in two
/// 60-mile reaches through `e`; blue at `blue-home`, off the line by road.
fn railway(forces: Vec<Force>) -> Campaign {
    let mut home = stop("home", Feature::Station);
    home.features.push(Feature::Port);
    let mut d = stop("d", Feature::Station);
    d.features.push(Feature::Port);
    campaign(
        vec![
            home,
            stop("b", Feature::Station),
            stop("c", Feature::Station),
            d,
            stop("e", Feature::Port),
            region("blue-home", Terrain::Open),
        ],
        vec![
            road("home", "b", RoadKind::Railway, 50.0),
            road("b", "c", RoadKind::Railway, 50.0),
            road("c", "d", RoadKind::Railway, 50.0),
            // Written from upstream: the current runs d -> e -> home.
            road("d", "e", RoadKind::River, 60.0),
            road("e", "home", RoadKind::River, 60.0),
            road("d", "blue-home", RoadKind::Road, 40.0),
        ],
        "home",
        "blue-home",
        forces,
    )
}

fn by(mut force: Force, path: &[&str], by: Conveyance) -> Force {
    force.order = StandingOrder::March {
        path: path.iter().map(|r| RegionId::new(*r)).collect(),
        forced: false,
        by,
    };
    force
}

fn foot(n: u32, first: u32) -> Vec<Stand> {
    stands(StandKind::LineInfantry, n, first)
}

fn request(force: &str, action: Action, forced: bool, by: Conveyance) -> OrderRequest {
    OrderRequest {
        force: ForceId::new(force),
        action,
        forced,
        by,
    }
}

fn refusal(c: &Campaign, request: OrderRequest) -> String {
    let problems = check_requests(c, &SideId::new("red"), &[request]).expect_err("the order is refused");
    problems
        .iter()
        .map(|p| p.message.clone())
        .collect::<Vec<_>>()
        .join("; ")
}

fn moved<'a>(outcome: &'a umpire::strategy::TurnOutcome, force: &str) -> &'a Event {
    outcome
        .events
        .iter()
        .find(|e| e.kind.name() == "moved" && e.kind.payload()["force"] == force)
        .unwrap_or_else(|| panic!("{force} has a moved event"))
}

#[test]
fn a_train_goes_the_rate_of_a_game_move_and_stops_at_a_station() {
    // 120 miles a game move (this program's default): home -> b -> c is 100
    // miles, c -> d would make 150, so the first move ends at c.
    let mut c = railway(vec![by(
        force("brigade", "red", "home", foot(9, 1)),
        &["b", "c", "d"],
        Conveyance::Rail,
    )]);
    let forecast = journey_forecast(
        &c,
        force_of(&c, "brigade"),
        &[RegionId::new("b"), RegionId::new("c"), RegionId::new("d")],
        false,
        Conveyance::Rail,
    )
    .unwrap();
    assert_eq!((forecast.game_moves, forecast.miles), (2, 150.0));
    assert_eq!(
        forecast.text(false),
        "2 game moves, 150 miles by train; no losses"
    );

    let moves = play(&mut c, 1);
    let event = moved(&moves[0], "brigade");
    assert_eq!(
        event.sentence,
        "Brigade went 100.0 miles by train from Home to C; it halted: a train goes no further in one game move."
    );
    assert_eq!(event.kind.payload()["by"], "rail");
    assert_eq!(force_of(&c, "brigade").region, RegionId::new("c"));
    assert_eq!(
        force_of(&c, "brigade").en_route,
        None,
        "trains set down only at stations"
    );
    // The rest of the journey is its standing order, still by train.
    assert_eq!(
        force_of(&c, "brigade").order,
        StandingOrder::March {
            path: vec![RegionId::new("d")],
            forced: false,
            by: Conveyance::Rail
        }
    );
    // Status says how it goes on: by train.
    let status = umpire::model::status::Status::of(&c);
    let entry = status
        .sides
        .iter()
        .flat_map(|s| &s.forces)
        .find(|f| f.id == "brigade")
        .unwrap();
    assert_eq!((entry.order.as_str(), entry.by), ("march", Conveyance::Rail));
    assert_eq!(serde_json::to_value(entry).unwrap()["by"], "rail");
    play(&mut c, 1);
    assert_eq!(force_of(&c, "brigade").region, RegionId::new("d"));
    assert_eq!(force_of(&c, "brigade").order, StandingOrder::Hold);
    // Carried, not marched: no forced-march losses, all nine stands arrive.
    assert_eq!(force_of(&c, "brigade").stands.len(), 9);
}

#[test]
fn the_campaign_file_sets_the_rate() {
    let mut c = railway(vec![by(
        force("brigade", "red", "home", foot(4, 1)),
        &["b", "c", "d"],
        Conveyance::Rail,
    )]);
    c.transport.rail_miles_per_move = 150.0;
    play(&mut c, 1);
    assert_eq!(force_of(&c, "brigade").region, RegionId::new("d"));
}

#[test]
fn a_line_carries_only_its_stands_a_game_move_first_come_first_served() {
    // 24 stands a line a side a game move: 16 go, the next 10 wait, then go.
    let mut c = railway(vec![
        by(
            force("first", "red", "home", foot(16, 1)),
            &["b"],
            Conveyance::Rail,
        ),
        by(
            force("second", "red", "home", foot(10, 100)),
            &["b"],
            Conveyance::Rail,
        ),
    ]);
    let moves = play(&mut c, 1);
    assert_eq!(force_of(&c, "first").region, RegionId::new("b"));
    assert_eq!(force_of(&c, "second").region, RegionId::new("home"));
    assert_eq!(
        moved(&moves[0], "second").sentence,
        "Second waited at Home for a train: the railway's trains carry 24 stands of Red Army a game move and 16 are taken already."
    );
    play(&mut c, 1);
    assert_eq!(force_of(&c, "second").region, RegionId::new("b"));
}

#[test]
fn the_enemy_on_the_line_cuts_it_and_the_train_stops_before() {
    let mut c = railway(vec![
        by(
            force("brigade", "red", "home", foot(4, 1)),
            &["b", "c"],
            Conveyance::Rail,
        ),
        force("raiders", "blue", "c", stands(StandKind::LightCavalry, 2, 50)),
    ]);
    let moves = play(&mut c, 1);
    assert_eq!(force_of(&c, "brigade").region, RegionId::new("b"));
    assert_eq!(
        moved(&moves[0], "brigade").sentence,
        "Brigade went 50.0 miles by train from Home to B; it halted: the railway is cut beyond B."
    );
}

#[test]
fn a_train_does_not_pass_an_enemy_force_on_the_line() {
    // Blue stands on the railway between b and c, 25 miles out of b.
    let mut raiders = force("raiders", "blue", "b", stands(StandKind::LightCavalry, 2, 50));
    raiders.en_route = Some(EnRoute {
        toward: RegionId::new("c"),
        miles: 25.0,
    });
    let mut c = railway(vec![
        by(
            force("brigade", "red", "home", foot(4, 1)),
            &["b", "c"],
            Conveyance::Rail,
        ),
        raiders,
    ]);
    let moves = play(&mut c, 1);
    assert_eq!(force_of(&c, "brigade").region, RegionId::new("b"));
    let sentence = &moved(&moves[0], "brigade").sentence;
    assert!(
        sentence.ends_with("it halted: the railway is cut beyond B."),
        "{sentence}"
    );
    // The sentence says the line is cut, never by whom.
    assert!(
        !sentence.contains("Raiders") && !sentence.contains("enemy"),
        "{sentence}"
    );
}

#[test]
fn a_journey_by_train_into_an_enemy_hq_is_refused_at_the_order() {
    // The enemy's HQs are public: a train cannot run into one the side does not hold.
    let mut c = railway(vec![force("brigade", "red", "home", foot(4, 1))]);
    for hq in c.hqs.iter_mut().filter(|h| h.side == SideId::new("blue")) {
        hq.region = RegionId::new("d");
    }
    let why = refusal(
        &c,
        request("brigade", Action::To(RegionId::new("d")), false, Conveyance::Rail),
    );
    assert!(
        why.contains("the enemy holds D on the railway: a train cannot pass it"),
        "{why}"
    );
    // Named in a march list, the problem is at the region's own step.
    let problems = check_requests(
        &c,
        &SideId::new("red"),
        &[request(
            "brigade",
            Action::March(
                ["home", "b", "c", "d"]
                    .iter()
                    .map(|r| RegionId::new(*r))
                    .collect(),
            ),
            false,
            Conveyance::Rail,
        )],
    )
    .unwrap_err();
    assert!(
        problems.iter().any(|p| p.part == umpire::strategy::Part::Step(3)),
        "{problems:?}"
    );
}

#[test]
fn a_train_does_not_leave_a_station_cut_off_from_every_hq() {
    // Blue at b cuts home from c: a brigade at c has no HQ behind it.
    let mut c = railway(vec![
        by(force("brigade", "red", "c", foot(4, 1)), &["d"], Conveyance::Rail),
        force("raiders", "blue", "b", stands(StandKind::LightCavalry, 2, 50)),
    ]);
    let moves = play(&mut c, 1);
    assert_eq!(force_of(&c, "brigade").region, RegionId::new("c"));
    assert_eq!(
        moved(&moves[0], "brigade").sentence,
        "Brigade waited at C for a train: the railway at C is cut off from every HQ of Red Army."
    );
}

#[test]
fn steamers_go_faster_with_the_current_than_against_it() {
    // Upstream 100 miles a move, downstream 150 (this program's defaults):
    // d -> e -> home is 120 miles downstream, one move; back up, two.
    let mut down = railway(vec![by(
        force("flotilla", "red", "d", foot(4, 1)),
        &["e", "home"],
        Conveyance::River,
    )]);
    play(&mut down, 1);
    assert_eq!(force_of(&down, "flotilla").region, RegionId::new("home"));

    let mut up = railway(vec![by(
        force("flotilla", "red", "home", foot(4, 1)),
        &["e", "d"],
        Conveyance::River,
    )]);
    let moves = play(&mut up, 1);
    assert_eq!(force_of(&up, "flotilla").region, RegionId::new("e"));
    assert_eq!(moved(&moves[0], "flotilla").kind.payload()["by"], "river");
    play(&mut up, 1);
    assert_eq!(force_of(&up, "flotilla").region, RegionId::new("d"));
}

#[test]
fn nobody_marches_on_a_river() {
    let c = railway(vec![force("brigade", "red", "d", foot(4, 1))]);
    let why = refusal(
        &c,
        request(
            "brigade",
            Action::March(vec![RegionId::new("e")]),
            false,
            Conveyance::Foot,
        ),
    );
    assert!(
        why.contains("crosses the river") || why.contains("no road"),
        "{why}"
    );
}

#[test]
fn orders_by_train_are_checked() {
    let mut c = railway(vec![
        force("brigade", "red", "home", foot(4, 1)),
        force("corps", "red", "home", foot(30, 100)),
        force("walkers", "red", "blue-home", foot(2, 200)),
    ]);
    c.map.regions[2].features.clear(); // c is no station now
    let to = |r: &str| Action::To(RegionId::new(r));
    let cases: [(OrderRequest, &str); 6] = [
        (
            request("brigade", to("b"), true, Conveyance::Rail),
            "is carried, not force-marched",
        ),
        (
            request("brigade", Action::Hold, false, Conveyance::Rail),
            "goes with a journey",
        ),
        (
            request("corps", to("b"), false, Conveyance::Rail),
            "force `corps` has 30 stands, but a railway's trains carry 24 a game move: split it",
        ),
        (
            request("walkers", to("d"), false, Conveyance::Rail),
            "Blue Home is not a station on a railway: force `walkers` must march to one first (the nearest is D)",
        ),
        (
            request("brigade", to("c"), false, Conveyance::Rail),
            "C is not a station: a journey by train must end at one",
        ),
        (
            request("brigade", to("blue-home"), false, Conveyance::Rail),
            "no railway joins Home to Blue Home",
        ),
    ];
    for (request, expected) in cases {
        let why = refusal(&c, request.clone());
        assert!(why.contains(expected), "{request:?}: {why}");
    }
    // A stretch between stations longer than a train goes in a game move.
    let mut far = railway(vec![force("brigade", "red", "home", foot(4, 1))]);
    far.map.roads[0].miles = 130.0;
    let why = refusal(&far, request("brigade", to("b"), false, Conveyance::Rail));
    assert!(
        why.contains(
            "from Home to the next station, B, is further than a train goes in a game move (120 miles)"
        ),
        "{why}"
    );
    // A good one: routed along the railway, kept by train.
    let set = check_requests(
        &c,
        &SideId::new("red"),
        &[request("brigade", to("d"), false, Conveyance::Rail)],
    )
    .unwrap();
    assert_eq!(
        set.orders,
        vec![umpire::strategy::Order::March {
            force: ForceId::new("brigade"),
            path: vec![RegionId::new("b"), RegionId::new("c"), RegionId::new("d")],
            forced: false,
            by: Conveyance::Rail,
        }]
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// A line's trains never carry more than its capacity in a game move,
    /// and a force that did not fit is told why and stays at its station.
    #[test]
    fn a_train_never_carries_more_than_its_capacity(
        sizes in prop::collection::vec(1u32..20, 1..8),
        capacity in 1u32..40,
    ) {
        let forces: Vec<Force> = sizes
            .iter()
            .enumerate()
            .map(|(i, n)| {
                let first = u32::try_from(i).unwrap() * 100 + 1;
                by(force(&format!("f{i}"), "red", "home", foot(*n, first)), &["b"], Conveyance::Rail)
            })
            .collect();
        let mut c = railway(forces);
        c.transport.rail_stands_per_move = capacity;
        let outcome = resolve(&c, &[] as &[OrderSet]);
        let mut carried = 0;
        for (i, n) in sizes.iter().enumerate() {
            let id = format!("f{i}");
            let f = outcome.campaign.force(&ForceId::new(&id)).unwrap();
            if f.region == RegionId::new("b") {
                carried += n;
            } else {
                prop_assert_eq!(&f.region, &RegionId::new("home"));
                prop_assert!(moved(&outcome, &id).sentence.contains("waited at Home for a train"));
            }
        }
        prop_assert!(carried <= capacity, "{carried} stands carried, capacity {capacity}");
        // First come, first served: the first force that fits always goes.
        if sizes[0] <= capacity {
            prop_assert!(carried >= sizes[0]);
        }
    }
}

// ---------------------------------------------------------------------------
// Files and the command line.

#[test]
fn the_bundled_rebellion_sends_the_highland_brigade_to_beni_suef_by_train_in_one_move() {
    let dir = tempfile::tempdir().unwrap();
    let repo = repo();
    let campaign = repo.join("campaigns/egyptian_rebellion_1895.toml");
    let run = |args: &[&str]| {
        let out = umpire(dir.path(), args);
        assert!(out.status.success(), "{args:?}: {}{}", stdout(&out), stderr(&out));
        stdout(&out)
    };
    run(&["new", campaign.to_str().unwrap(), "war.umpire"]);
    let route = run(&[
        "route",
        "war.umpire",
        "highland-brigade",
        "beni_suef",
        "--by",
        "rail",
    ]);
    assert!(
        route.contains("1 game move, 78 miles by train; no losses"),
        "{route}"
    );
    assert!(route.contains("by = \"rail\""), "{route}");
    let orders = repo.join("campaigns/orders/british_move1.toml");
    let given = run(&["orders", "war.umpire", "british", orders.to_str().unwrap()]);
    assert!(
        given.contains("highland-brigade: by train through Giza -> El Wasta -> Beni Suef"),
        "{given}"
    );
    let turn = run(&["turn", "war.umpire"]);
    assert!(
        turn.contains("Highland Brigade went 78.0 miles by train from Cairo to Beni Suef."),
        "{turn}"
    );
}

#[test]
fn an_orders_file_names_how_to_travel_and_a_wrong_word_is_shown_at_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let repo = repo();
    let campaign = repo.join("campaigns/egyptian_rebellion_1895.toml");
    let out = umpire(dir.path(), &["new", campaign.to_str().unwrap(), "war.umpire"]);
    assert!(out.status.success());
    std::fs::write(
        dir.path().join("o.toml"),
        "[[orders]]\nforce = \"highland-brigade\"\nto = \"beni_suef\"\nby = \"balloon\"\n",
    )
    .unwrap();
    let out = umpire(dir.path(), &["orders", "war.umpire", "british", "o.toml"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("o.toml:4"), "{err}");
    assert!(
        err.contains("unknown way to travel `balloon`: write `by = \"rail\"` or `by = \"river\"`"),
        "{err}"
    );
}

#[test]
fn the_campaign_file_checks_its_railway_and_river_figures_at_their_lines() {
    let campaign = common::CAMPAIGN.replacen(
        "[[sides]]",
        "[railways]\nmiles_per_move = -5\nstands_per_move = 0\n\n[rivers]\nupstream_miles_per_move = 80\n\n[[sides]]",
        1,
    );
    let dir = campaign_dir(common::MAP, &campaign);
    let out = umpire(dir.path(), &["check", "campaign.toml"]);
    assert!(!out.status.success());
    let err = stderr(&out) + &stdout(&out);
    assert!(
        err.contains(
            "campaign.toml:8:18: error: railways.miles_per_move -5 must be more than 0 and at most 10000"
        ),
        "{err}"
    );
    assert!(
        err.contains("campaign.toml:9:19: error: railways.stands_per_move 0 must be a whole number of stands from 1 to 100000"),
        "{err}"
    );
    assert!(!err.contains("upstream"), "a good figure is not reported: {err}");

    let campaign = common::CAMPAIGN.replacen("[[sides]]", "[rivers]\nspeed = 3\n\n[[sides]]", 1);
    let dir = campaign_dir(common::MAP, &campaign);
    let out = umpire(dir.path(), &["check", "campaign.toml"]);
    let err = stderr(&out) + &stdout(&out);
    assert!(
        err.contains(
            "campaign.toml:8:1: error: unknown field `speed`, expected one of `upstream_miles_per_move`"
        ),
        "{err}"
    );
}
