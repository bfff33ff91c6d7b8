//! Results applied to the campaign, and scenarios laid out from it, through
//! the public API on small campaigns built in code.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

#[path = "common/world.rs"]
mod world;
use umpire::handoff::{self, Edge};
use umpire::model::*;
use umpire::scenario::{Ground, Scenario};
use umpire::strategy::aftermath::{AftermathError, StandAfter, Verdict, apply};
use world::*;

/// Red holds `middle` with a gun; blue marches in from `east`. Red's HQs are
/// at `west`, blue's at `east`.
fn clash(middle: Terrain) -> Campaign {
    let mut mid = region("middle", middle);
    mid.x = 10.0;
    let mut west = region("west", Terrain::Open);
    west.x = 0.0;
    let mut east = region("east", Terrain::Open);
    east.x = 20.0;
    let mut guns = stands(StandKind::FootArtillery, 1, 20);
    guns.extend(stands(StandKind::LineInfantry, 3, 21));
    let mut c = campaign(
        vec![west, mid, east],
        vec![
            road("west", "middle", RoadKind::Road, 10.0),
            road("middle", "east", RoadKind::Road, 10.0),
        ],
        "west",
        "east",
        vec![
            force("holders", "red", "middle", guns),
            marching(
                force("raiders", "blue", "east", stands(StandKind::LineInfantry, 4, 40)),
                &["middle"],
                false,
            ),
        ],
    );
    play(&mut c, 2);
    assert_eq!(c.battles.len(), 1, "the raiders met the holders");
    c
}

fn verdict(winner: &str, stands: &[(u32, u32, bool)]) -> Verdict {
    Verdict {
        rules: RuleSetId::Scruby1965,
        source: ResultSource::Table { sheet: "test".into() },
        winner: Some(SideId::new(winner)),
        stands: stands
            .iter()
            .map(|&(id, after, captured)| StandAfter {
                id: StandId(id),
                after,
                captured,
            })
            .collect(),
        verdict: "test".into(),
    }
}

#[test]
fn a_beaten_defender_falls_back_toward_its_supply_and_its_gun_is_taken() {
    let c = clash(Terrain::Open);
    let id = c.battles[0].id;
    assert_eq!(c.battles[0].came_from[0].from.as_str(), "east");
    let (after, events) = apply(
        &c,
        id,
        &verdict(
            "blue",
            &[(20, 0, true), (21, 50, false), (22, 0, false), (40, 80, false)],
        ),
    )
    .unwrap();
    let holders = force_of(&after, "holders");
    assert_eq!(
        holders.region.as_str(),
        "west",
        "away from the enemy, toward its HQ"
    );
    let ids: Vec<u32> = holders.stands.iter().map(|s| s.id.0).collect();
    assert_eq!(ids, [21, 23], "the gun was taken and stand 22 destroyed");
    assert_eq!(holders.stands[0].strength, 50);
    let raiders = force_of(&after, "raiders");
    let gun = raiders
        .stands
        .iter()
        .find(|s| s.id.0 == 20)
        .expect("the gun changed side");
    assert_eq!(
        gun.strength,
        StandKind::FootArtillery.roster_points(),
        "crewless: taken at its starting strength"
    );
    assert_eq!(raiders.stands.iter().find(|s| s.id.0 == 40).unwrap().strength, 80);
    let kinds: Vec<&str> = events.iter().map(|e| e.kind.name()).collect();
    assert_eq!(
        kinds,
        [
            "battle_losses",
            "battle_losses",
            "gun_captured",
            "battle_fought",
            "retreated"
        ]
    );
    let b = &after.battles[0];
    assert_eq!(b.status, BattleStatus::Fought);
    let r = b.record.result.as_ref().unwrap();
    let lost = |s: &str| r.losses.iter().find(|l| l.side.as_str() == s).unwrap().points;
    // Red: the gun (60) whole, 50 of stand 21, 100 of stand 22; blue: 20.
    assert_eq!(
        (lost("red"), lost("blue")),
        (u64::from(StandKind::FootArtillery.roster_points()) + 150, 20)
    );
}

#[test]
fn a_beaten_force_with_no_road_open_is_destroyed() {
    let mut c = clash(Terrain::Open);
    // The only road away from the enemy is cut: blue stands at `west` too.
    c.forces.push(force(
        "cutters",
        "blue",
        "west",
        stands(StandKind::LightCavalry, 1, 60),
    ));
    let id = c.battles[0].id;
    let (after, events) = apply(&c, id, &verdict("blue", &[])).unwrap();
    assert!(
        after.force(&ForceId::new("holders")).is_none(),
        "struck from the roll"
    );
    let kinds: Vec<&str> = events.iter().map(|e| e.kind.name()).collect();
    assert!(
        kinds.contains(&"destroyed_in_retreat") && kinds.contains(&"force_destroyed"),
        "{kinds:?}"
    );
}

#[test]
fn an_hq_falls_when_its_defenders_lose() {
    let mut c = clash(Terrain::Open);
    // Red's HQs stand in the middle.
    for hq in c.hqs.iter_mut().filter(|h| h.side.as_str() == "red") {
        hq.region = RegionId::new("middle");
    }
    let id = c.battles[0].id;
    let (after, events) = apply(&c, id, &verdict("blue", &[])).unwrap();
    let taken: Vec<&Hq> = after.hqs.iter().filter(|h| h.side.as_str() == "red").collect();
    assert!(
        taken
            .iter()
            .all(|h| h.held_by.as_str() == "blue" && h.captured_turn == Some(c.turn))
    );
    assert_eq!(
        events.iter().filter(|e| e.kind.name() == "hq_captured").count(),
        3
    );
    // The defenders winning keeps it.
    let (kept, _) = apply(&c, id, &verdict("red", &[])).unwrap();
    assert!(kept.hqs.iter().all(|h| h.held_by == h.side));
    assert_eq!(
        force_of(&kept, "raiders").region.as_str(),
        "east",
        "the beaten raiders go back"
    );
}

#[test]
fn a_draw_sends_the_attacker_back_the_way_it_came() {
    let c = clash(Terrain::Open);
    let mut v = verdict("blue", &[]);
    v.winner = None;
    let (after, _) = apply(&c, c.battles[0].id, &v).unwrap();
    assert_eq!(force_of(&after, "raiders").region.as_str(), "east");
    assert_eq!(force_of(&after, "holders").region.as_str(), "middle");
}

#[test]
fn a_verdict_that_does_not_fit_the_battle_is_refused() {
    let c = clash(Terrain::Open);
    let id = c.battles[0].id;
    let cases = [
        (
            verdict("green", &[]),
            "the winner `green` is not a side in battle 1",
        ),
        (
            verdict("blue", &[(99, 0, false)]),
            "stand #99 was not in battle 1",
        ),
        (
            verdict("blue", &[(21, 101, false)]),
            "ends with 101 points, more than the 100 it had",
        ),
    ];
    for (v, message) in cases {
        let err = apply(&c, id, &v).unwrap_err();
        assert!(err.to_string().contains(message), "{err}");
    }
    assert_eq!(
        apply(&c, 42, &verdict("blue", &[])).unwrap_err(),
        AftermathError::NotPending(42)
    );
}

/// Cells of the scenario's table matching `pick`.
fn count(s: &Scenario, pick: impl Fn(&umpire::scenario::Cell) -> bool) -> usize {
    s.table.cells().iter().filter(|c| pick(c)).count()
}

#[test]
fn the_table_follows_the_region_terrain_and_features() {
    let built = |t: Terrain, features: &[Feature]| {
        let mut c = clash(t);
        c.map.regions[1].features = features.to_vec();
        handoff::build(&c, c.battles[0].id, RuleSetId::Scruby1965)
            .unwrap()
            .scenario
    };
    let hills = |s: &Scenario| count(s, |c| c.level > 0);
    let woods = |s: &Scenario| {
        count(s, |c| {
            matches!(c.ground, Ground::ForestEdge | Ground::ForestInterior)
        })
    };
    let crops = |s: &Scenario| count(s, |c| c.ground == Ground::TallCrops);
    let built_up = |s: &Scenario| {
        count(s, |c| {
            matches!(c.ground, Ground::BuiltUpOuter | Ground::BuiltUpInner)
        })
    };
    let (open, mountains, forest, farmland, desert) = (
        built(Terrain::Open, &[]),
        built(Terrain::Mountains, &[]),
        built(Terrain::Forest, &[]),
        built(Terrain::Cultivated, &[]),
        built(Terrain::Desert, &[]),
    );
    assert!(hills(&mountains) > 2 * hills(&open), "mountains are hilly");
    assert!(hills(&mountains) > hills(&desert));
    assert!(woods(&forest) > 3 * woods(&open).max(1), "forest is wooded");
    assert!(
        crops(&farmland) > 0 && crops(&desert) == 0,
        "crops grow on cultivated ground"
    );
    assert_eq!(built_up(&open), 0, "no town where the map has none");
    let town = built(Terrain::Open, &[Feature::Town, Feature::Bridge]);
    assert!(built_up(&town) > 0);
    assert_eq!(count(&town, |c| c.ground == Ground::Bridge), 1, "one bridge");
    assert!(count(&town, |c| c.ground == Ground::River) > 0, "over a river");
    let kinds: Vec<_> = town.objectives.iter().map(|o| o.kind).collect();
    use umpire::scenario::ObjectiveKind;
    assert!(
        kinds.contains(&ObjectiveKind::Town) && kinds.contains(&ObjectiveKind::Bridge),
        "{kinds:?}"
    );
    // With no town or crossing, the heights on the defender's half are the objective.
    let hilly = built(Terrain::Hills, &[]);
    let o = &hilly.objectives[0];
    assert_eq!(o.kind, ObjectiveKind::Hill);
    assert!(o.y < hilly.table.depth / 2, "on the defender's half: {o:?}");
    let cells = hilly.table.cells();
    let top = cells[(o.y * hilly.table.width + o.x) as usize].level;
    assert!(
        top > 0
            && cells
                .iter()
                .take((hilly.table.depth / 2 * hilly.table.width) as usize)
                .all(|c| c.level <= top)
    );
    // The same battle gives the same table: the battle's own stream.
    assert_eq!(built(Terrain::Hills, &[]), built(Terrain::Hills, &[]));
}

#[test]
fn each_force_comes_on_at_the_edge_it_marched_in_from_and_reserves_by_march_time() {
    let mut c = clash(Terrain::Open);
    // A second blue force arrives from the west in the battle (it marched
    // in from there), and a red reserve waits 5 miles north.
    let mut north = region("north", Terrain::Open);
    north.x = 10.0;
    north.y = -10.0;
    c.map.regions.push(north);
    c.map.roads.push(road("north", "middle", RoadKind::Road, 5.0));
    c.forces.push(force(
        "flankers",
        "blue",
        "middle",
        stands(StandKind::LineInfantry, 2, 70),
    ));
    c.forces.push(force(
        "reserve",
        "red",
        "north",
        stands(StandKind::LineInfantry, 2, 80),
    ));
    let b = &mut c.battles[0];
    b.forces.push(ForceId::new("flankers"));
    b.came_from.push(Approach {
        force: ForceId::new("flankers"),
        from: RegionId::new("west"),
    });
    b.reserves.push(ForceId::new("reserve"));
    let h = handoff::build(&c, 1, RuleSetId::Scruby1965).unwrap();
    let edge = |f: &str| {
        h.plan
            .forces
            .iter()
            .find(|e| e.force.as_str() == f)
            .unwrap()
            .clone()
    };
    assert_eq!(
        edge("raiders").edge,
        Edge::Near,
        "the main attack comes from the near edge"
    );
    assert_eq!(h.plan.near_faces, "east");
    assert_eq!(edge("flankers").edge, Edge::Far, "from the west: the far edge");
    assert_eq!(edge("holders").edge, Edge::Far);
    // North is on the right of an attacker facing west.
    assert_eq!(edge("reserve").edge, Edge::Right);
    // Infantry on a road: 6 inches a move (scruby-basic Movement chart) at 2.5
    // miles an inch is 15 miles in 8 hours; 5 miles take 2 h 40 min; a turn
    // is 8 h / 12 = 40 minutes: it arrives on turn 5.
    assert_eq!(edge("reserve").arrives, 5);
    let red = h.scenario.sides.iter().find(|s| s.id == "red").unwrap();
    assert_eq!(red.reserves.len(), 1);
    assert_eq!(red.reserves[0].turn, 5);
    assert_eq!(
        red.reserves[0].area.x + red.reserves[0].area.w,
        h.scenario.table.width,
        "on the right edge"
    );
    let blue = h.scenario.sides.iter().find(|s| s.id == "blue").unwrap();
    assert_eq!(blue.stands.len(), 4, "the raiders deploy at the start");
    assert_eq!(
        (blue.reserves[0].turn, blue.reserves[0].area.y),
        (1, 0),
        "the flankers come on turn 1 at the far edge"
    );
}

/// The river's row, if a row of the table is all water and crossings.
fn river_row(s: &Scenario) -> Option<u32> {
    let cells = s.table.cells();
    let w = s.table.width as usize;
    (0..s.table.depth).find(|&y| {
        let row = &cells[y as usize * w..(y as usize + 1) * w];
        row.iter().any(|c| c.ground == Ground::River)
            && row
                .iter()
                .all(|c| matches!(c.ground, Ground::River | Ground::Bridge | Ground::Ford))
    })
}

/// A table that makes sense: no wall, hedge or entrenchment in water (river,
/// bridge, ford); each side's deployment zone, and flank arrival areas, on
/// its own bank of a river; every stand on the table at the start on dry
/// ground of its own bank.
fn table_makes_sense(s: &Scenario) -> Result<(), String> {
    use umpire::rules::board::Board;
    use umpire::rules::doctrine;
    use umpire::scenario::Role;
    let cells = s.table.cells();
    let w = s.table.width;
    for (i, c) in cells.iter().enumerate() {
        if c.cover.is_some() && matches!(c.ground, Ground::River | Ground::Bridge | Ground::Ford) {
            return Err(format!(
                "{:?} in {:?} at ({}, {})",
                c.cover,
                c.ground,
                u32::try_from(i).unwrap() % w,
                u32::try_from(i).unwrap() / w
            ));
        }
    }
    let river = river_row(s);
    let on_own_bank = |role: Role, y0: f64, y1: f64| match (river, role) {
        (None, _) => true,
        (Some(r), Role::Defender) => y1 <= f64::from(r),
        (Some(r), Role::Attacker) => y0 >= f64::from(r + 1),
    };
    let board = Board::new(s);
    for (i, side) in s.sides.iter().enumerate() {
        let d = side.deployment;
        if !on_own_bank(side.role, f64::from(d.y), f64::from(d.y + d.h)) {
            return Err(format!(
                "{}'s deployment {d:?} crosses the river at {river:?}",
                side.name
            ));
        }
        for r in &side.reserves {
            let flank = r.area.x == 0 || r.area.x + r.area.w == w;
            let edge_strip = r.area.w < w / 2;
            if flank
                && edge_strip
                && !on_own_bank(side.role, f64::from(r.area.y), f64::from(r.area.y + r.area.h))
            {
                return Err(format!(
                    "{}'s flank reserve {:?} is across the river at {river:?}",
                    side.name, r.area
                ));
            }
        }
        for start in doctrine::starts(&board, s, i)
            .into_iter()
            .filter(|t| t.arrives == 0)
        {
            let (x, y) = start.at;
            let cell = board.cell_at((x, y));
            if cell.is_water() || !on_own_bank(side.role, y, y) {
                return Err(format!(
                    "{}'s stand {} starts at {:?} ({:?}), cut off by the river at {river:?}",
                    side.name, start.stand.id, start.at, cell.ground
                ));
            }
        }
    }
    Ok(())
}

/// A garrison starts in its works: a fort's entrenchments lie inside the
/// defender's deployment zone (which reaches down to them, short of the
/// attacker's), and its stands are set down in them, rather than racing the
/// attacker to a line in the middle of the table.
#[test]
fn a_forts_garrison_deploys_in_its_entrenchments() {
    use umpire::rules::board::Board;
    use umpire::rules::doctrine;
    use umpire::scenario::Cover;
    let mut c = clash(Terrain::Open);
    c.map.regions[1].features = vec![Feature::Fort];
    for rules in [
        RuleSetId::Scruby1961,
        RuleSetId::ScrubyBasic,
        RuleSetId::Scruby1965,
        RuleSetId::Harman2021,
        RuleSetId::Cordery2009,
    ] {
        let s = handoff::build(&c, 1, rules).unwrap().scenario;
        let works: Vec<(u32, u32)> = s
            .table
            .cells()
            .iter()
            .enumerate()
            .filter(|(_, c)| c.cover == Some(Cover::Entrenchment))
            .map(|(i, _)| u32::try_from(i).unwrap())
            .map(|i| (i % s.table.width, i / s.table.width))
            .collect();
        assert!(!works.is_empty(), "{rules}: a fort has entrenchments");
        let red = s.sides.iter().find(|x| x.id == "red").unwrap();
        let blue = s.sides.iter().find(|x| x.id == "blue").unwrap();
        let (d, a) = (red.deployment, blue.deployment);
        for &(x, y) in &works {
            assert!(
                y < d.y + d.h,
                "{rules}: works at ({x}, {y}) beyond the zone {d:?}"
            );
        }
        assert!(d.y + d.h < a.y, "{rules}: the zones {d:?} and {a:?} keep apart");
        let board = Board::new(&s);
        let i = s.sides.iter().position(|x| x.id == "red").unwrap();
        let in_works = doctrine::starts(&board, &s, i)
            .iter()
            .filter(|t| t.arrives == 0 && board.cell_at(t.at).cover == Some(Cover::Entrenchment))
            .count();
        assert!(
            in_works > 0,
            "{rules}: no stand of the garrison starts in its works"
        );
    }
}

#[test]
fn a_river_keeps_each_side_and_its_flank_reserves_on_its_own_bank() {
    let mut c = clash(Terrain::Cultivated);
    c.map.regions[1].features = vec![Feature::Bridge, Feature::Fort, Feature::Farm, Feature::Town];
    let mut north = region("north", Terrain::Open);
    north.x = 10.0;
    north.y = -10.0;
    c.map.regions.push(north);
    c.map.roads.push(road("north", "middle", RoadKind::Road, 5.0));
    c.forces.push(force(
        "reserve",
        "red",
        "north",
        stands(StandKind::LineInfantry, 2, 80),
    ));
    c.battles[0].reserves.push(ForceId::new("reserve"));
    for rules in [
        RuleSetId::Scruby1961,
        RuleSetId::ScrubyBasic,
        RuleSetId::Scruby1965,
        RuleSetId::Harman2021,
        RuleSetId::Cordery2009,
    ] {
        let s = handoff::build(&c, 1, rules).unwrap().scenario;
        let r = river_row(&s).expect("a bridge lays a river");
        table_makes_sense(&s).unwrap_or_else(|e| panic!("{rules}: {e}"));
        let red = s.sides.iter().find(|x| x.id == "red").unwrap();
        assert_eq!(
            red.deployment.y + red.deployment.h,
            r,
            "{rules}: the defender deploys down to its bank"
        );
        assert!(
            red.reserves[0].area.y + red.reserves[0].area.h <= r,
            "{rules}: {:?}",
            red.reserves[0].area
        );
        assert!(
            s.objectives.iter().any(|o| o.y == r),
            "{rules}: the crossing is an objective"
        );
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// Any terrain, any features, any rule set: a scenario the engine accepts,
    /// with every stand of the battle on its roll.
    #[test]
    fn every_battle_hands_off_to_every_rule_set(
        terrain in 0usize..8,
        features in proptest::collection::vec(0usize..9, 0..5),
        rules in 0usize..5,
        extra in 0u32..40,
    ) {
        let terrains = [Terrain::Open, Terrain::Desert, Terrain::Cultivated, Terrain::Hills,
            Terrain::Mountains, Terrain::Forest, Terrain::Marsh, Terrain::Urban];
        let all = [Feature::Town, Feature::Village, Feature::Bridge, Feature::Ford, Feature::Wells,
            Feature::Fort, Feature::Port, Feature::Farm, Feature::Station];
        let ids = [RuleSetId::Scruby1961, RuleSetId::ScrubyBasic, RuleSetId::Scruby1965,
            RuleSetId::Harman2021, RuleSetId::Cordery2009];
        let mut c = clash(terrains[terrain]);
        c.map.regions[1].features = features.iter().map(|&f| all[f]).collect();
        c.forces[1].stands.extend(stands(StandKind::NativeSpearmen, extra, 100));
        let h = handoff::build(&c, 1, ids[rules]).unwrap();
        proptest::prop_assert!(h.scenario.problems().is_empty(), "{:?}", h.scenario.problems());
        let placed: usize = h.scenario.sides.iter()
            .map(|s| s.stands.len() + s.reserves.iter().map(|r| r.stands.len()).sum::<usize>())
            .sum();
        let expected: usize = c.battles[0].forces.iter().map(|f| c.force(f).unwrap().stands.len()).sum();
        proptest::prop_assert_eq!(placed, expected);
        let sense = table_makes_sense(&h.scenario);
        proptest::prop_assert!(sense.is_ok(), "{:?}", sense);
    }
}

/// A gun the engine manned again with infantry ends stronger than it began:
/// the men moved, the side lost no more than it did, and a results sheet or
/// an engine result that makes men out of nothing is still refused.
#[test]
fn a_gun_manned_again_by_the_engine_takes_its_men_from_the_infantry() {
    let mut c = clash(Terrain::Open);
    let id = c.battles[0].id;
    // The gun (stand 20) came in with its crew nearly gone.
    let holders = c.forces.iter_mut().find(|f| f.id.as_str() == "holders").unwrap();
    holders
        .stands
        .iter_mut()
        .find(|s| s.id == StandId(20))
        .unwrap()
        .strength = 5;
    let engine = |stands: &[(u32, u32, bool)]| Verdict {
        source: ResultSource::Engine { seed: 1 },
        ..verdict("red", stands)
    };
    // 55 men of infantry stand 21 to the gun; blue loses 30 on stand 40.
    let (after, _) = apply(
        &c,
        id,
        &engine(&[(20, 57, false), (21, 45, false), (40, 70, false)]),
    )
    .unwrap();
    let holders = after.forces.iter().find(|f| f.id.as_str() == "holders").unwrap();
    let strength = |id: u32| {
        holders
            .stands
            .iter()
            .find(|s| s.id == StandId(id))
            .unwrap()
            .strength
    };
    assert_eq!((strength(20), strength(21)), (57, 45));
    let record = after.battles.iter().find(|b| b.id == id).unwrap();
    let lost = |side: &str| {
        record
            .record
            .result
            .as_ref()
            .unwrap()
            .losses
            .iter()
            .find(|l| l.side.as_str() == side)
            .unwrap()
            .points
    };
    assert_eq!(lost("red"), 3, "55 moved to the gun, 52 of them kept: 3 lost");
    assert_eq!(lost("blue"), 30);
    // The forces' losses told in the log add up to the side's.
    let told: u64 = after_events_lost(
        &c,
        id,
        &engine(&[(20, 57, false), (21, 45, false), (40, 70, false)]),
        "holders",
    );
    assert_eq!(told, 3);
    // Only a gun is manned again: infantry does not gain men in battle.
    let mut weak = c.clone();
    let holders = weak
        .forces
        .iter_mut()
        .find(|f| f.id.as_str() == "holders")
        .unwrap();
    holders
        .stands
        .iter_mut()
        .find(|s| s.id == StandId(22))
        .unwrap()
        .strength = 50;
    let err = apply(&weak, id, &engine(&[(22, 80, false), (21, 60, false)])).unwrap_err();
    assert!(
        err.to_string()
            .contains("ends with 80 points, more than the 50 it had"),
        "{err}"
    );
    // Men out of nothing: the side ends stronger than it began.
    let err = apply(&c, id, &engine(&[(20, 57, false)])).unwrap_err();
    assert!(
        err.to_string()
            .contains("ends with 57 points, more than the 5 it had"),
        "{err}"
    );
    // A results sheet may not do it either.
    let err = apply(&c, id, &verdict("red", &[(20, 57, false), (21, 45, false)])).unwrap_err();
    assert!(err.to_string().contains("more than the 5 it had"), "{err}");
}

/// The points lost by force `force` as the `battle_losses` events of `verdict` tell them.
fn after_events_lost(c: &Campaign, battle: u32, verdict: &Verdict, force: &str) -> u64 {
    let (_, events) = apply(c, battle, verdict).unwrap();
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::BattleLosses(l) if l.force.as_str() == force => Some(l.points),
            _ => None,
        })
        .sum()
}
