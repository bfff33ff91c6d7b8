//! The engine's phases one at a time, on small tables set up by hand.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use super::battle::{Battle, Status};
use super::tables::{MORALE_RETIRE_MOVES, PURSUIT_MOVES};
use crate::model::{ArmyKind, RuleSetId, StandId, StandKind};
use crate::rules::Fate;
use crate::scenario::{Area, Role, Scenario, ScenarioSide, Table, TableStand};

fn stand(id: u32, kind: StandKind, at: (f64, f64)) -> TableStand {
    TableStand {
        at: Some(at),
        ..TableStand::fresh(id, kind)
    }
}

/// A 40 x 40 open table of 1-inch cells (so positions read in inches):
/// the regulars defend the low edge, the natives attack from the high one.
fn table(british: Vec<TableStand>, natives: Vec<TableStand>) -> Scenario {
    let side = |id: &str, army, role, y, stands| ScenarioSide {
        id: id.to_owned(),
        name: id.to_owned(),
        army,
        role,
        colour: None,
        deployment: Area { x: 0, y, w: 40, h: 4 },
        stands,
        reserves: Vec::new(),
    };
    Scenario {
        title: "test".to_owned(),
        rules: RuleSetId::Scruby1965,
        seed: 0,
        turn_limit: 12,
        table: Table {
            width: 40,
            depth: 40,
            cell_inches: 1.0,
            grid: false,
            terrain: Vec::new(),
        },
        sides: vec![
            side("british", ArmyKind::Regular, Role::Defender, 0, british),
            side("rebels", ArmyKind::Native, Role::Attacker, 36, natives),
        ],
        objectives: Vec::new(),
        notes: None,
    }
}

fn index(battle: &Battle<'_>, id: u32) -> usize {
    battle.stands.iter().position(|u| u.id() == StandId(id)).unwrap()
}

fn strength(battle: &Battle<'_>, id: u32) -> u32 {
    battle.stands[index(battle, id)].strength
}

/// The seed's worked example: four 150-point stands win against three
/// 100-point stands; the winner loses 120 (30 a stand), the loser 160,
/// spread evenly (54, 53, 53).
fn worked_example() -> Scenario {
    table(
        vec![
            stand(1, StandKind::LineInfantry, (5.0, 30.0)),
            stand(2, StandKind::LineInfantry, (8.0, 30.0)),
            stand(3, StandKind::LineInfantry, (11.0, 30.0)),
        ],
        vec![
            stand(101, StandKind::NativeSpearmen, (5.0, 32.0)),
            stand(102, StandKind::NativeSpearmen, (7.0, 32.0)),
            stand(103, StandKind::NativeSpearmen, (9.0, 32.0)),
            stand(104, StandKind::NativeSpearmen, (11.0, 32.0)),
        ],
    )
}

#[test]
fn the_worked_example_through_the_melee() {
    let scenario = worked_example();
    for seed in 0..20 {
        let mut battle = Battle::new(&scenario, seed, true);
        // Three companies touching: closed order, 3 x 100 x 5 = 1500
        // against 4 x 150 x 3 = 1800.
        for id in 1..=3 {
            let i = index(&battle, id);
            battle.stands[i].closed = true;
        }
        battle.melee();
        for id in 101..=104 {
            assert_eq!(strength(&battle, id), 120, "seed {seed}");
        }
        let mut british: Vec<u32> = (1..=3).map(|id| strength(&battle, id)).collect();
        british.sort_unstable();
        assert_eq!(british, vec![46, 47, 47], "seed {seed}");
        let log: Vec<String> = battle
            .log
            .clone()
            .into_lines()
            .into_iter()
            .map(|l| l.text)
            .collect();
        assert!(
            log.iter()
                .any(|l| l.contains("(combat value 1500)") && l.contains("(1800)")),
            "{log:#?}"
        );
        assert!(
            log.iter()
                .any(|l| l.contains("rebels win; british lose 160, rebels lose 120")),
            "{log:#?}"
        );
        // Sequence 2 decides who retires, and someone does.
        assert!(log.iter().any(|l| l.starts_with("sequence 2:")), "{log:#?}");
        assert!(log.iter().any(|l| l.starts_with("sequence 3:")), "{log:#?}");
    }
}

#[test]
fn sequence_two_uses_the_original_values_and_the_loser_retires() {
    let scenario = worked_example();
    let (mut british_won, mut rebels_won) = (0, 0);
    for seed in 0..200 {
        let mut battle = Battle::new(&scenario, seed, true);
        let before: Vec<(f64, f64)> = battle.stands.iter().map(|u| u.at).collect();
        battle.melee();
        let log: Vec<String> = battle
            .log
            .clone()
            .into_lines()
            .into_iter()
            .map(|l| l.text)
            .collect();
        let second = log.iter().find(|l| l.starts_with("sequence 2:")).unwrap();
        // The values before the losses: 1500 (open order here: 900) and 1800.
        let moved = |id: u32| {
            let i = index(&battle, id);
            battle.stands[i].status != Status::Fighting || battle.stands[i].at != before[i]
        };
        if second.ends_with("british win") {
            british_won += 1;
            assert!((101..=104).all(moved), "{log:#?}");
            assert!(!(1..=3).any(moved), "{log:#?}");
        } else {
            rebels_won += 1;
            assert!((1..=3).all(moved), "{log:#?}");
        }
    }
    // 900 x die against 1800 x die: the British win about 1 in 5.
    assert!(british_won > 15 && british_won < 80, "{british_won} of 200");
    assert!(rebels_won > 120);
}

#[test]
fn the_pursued_loser_fights_at_half_morale_unless_fresh_troops_join() {
    // The worked example with a fourth company far off, fresh.
    let mut scenario = worked_example();
    scenario.sides[0]
        .stands
        .push(stand(4, StandKind::LineInfantry, (35.0, 5.0)));
    let mut pursued = 0;
    for seed in 0..100 {
        let mut battle = Battle::new(&scenario, seed, true);
        battle.melee();
        let log: Vec<String> = battle
            .log
            .clone()
            .into_lines()
            .into_iter()
            .map(|l| l.text)
            .collect();
        if !log.iter().any(|l| l.contains("rebels pursue")) {
            continue;
        }
        pursued += 1;
        // The British fell back two moves (6 inches each), the spearmen
        // followed, and both are locked in the melee.
        let first = index(&battle, 1);
        let u = &battle.stands[first];
        if u.status == Status::Fighting {
            assert!(u.locked && u.pursued);
            let back = f64::from(PURSUIT_MOVES) * 6.0;
            assert!((u.at.1 - (30.0 - back)).abs() < 1e-9, "{:?}", u.at);
        }
        let spearmen = index(&battle, 101);
        assert!(battle.stands[spearmen].locked);
        // The melee goes on next move: alone, the British morale is halved;
        // with the fresh company beside them, it is not.
        let mut supported = battle.clone();
        let fresh = index(&supported, 4);
        let beside = supported.stands[spearmen].at;
        supported.stands[fresh].at = (beside.0, beside.1 - 2.0);
        for b in [&mut battle, &mut supported] {
            b.turn = 2;
            b.melee();
        }
        let second_melee = |b: &Battle<'_>| {
            b.log
                .clone()
                .into_lines()
                .into_iter()
                .filter(|l| l.text.starts_with("melee:"))
                .nth(1)
                .unwrap()
                .text
        };
        assert!(
            second_melee(&battle).contains("(combat value")
                && second_melee(&battle).contains("morale halved")
        );
        let with_fresh = second_melee(&supported);
        assert!(with_fresh.contains("line infantry 4"), "{with_fresh}");
        assert!(!with_fresh.contains("morale halved"), "{with_fresh}");
    }
    assert!(pursued > 20, "{pursued}");
}

#[test]
fn a_gun_meleed_loses_its_crew_the_enemy_half_and_the_gun_is_taken() {
    let scenario = table(
        vec![stand(1, StandKind::FootArtillery, (10.0, 10.0))],
        vec![stand(101, StandKind::NativeSpearmen, (10.0, 12.0))],
    );
    let mut battle = Battle::new(&scenario, 1, true);
    battle.melee();
    battle.captures();
    assert_eq!(strength(&battle, 1), 0);
    // The spearmen win sequence 1 (450 against 180): the table's 30, and
    // half the crew of 60.
    assert_eq!(strength(&battle, 101), 150 - 30 - 30);
    assert_eq!(
        battle.stands[index(&battle, 1)].status,
        Status::Out(Fate::Captured)
    );
}

#[test]
fn four_hits_knock_a_gun_out() {
    // A British gun 15 inches from a native gun behind a wall: it aims at
    // the gun itself (fire at the crew would be halved).
    let mut scenario = table(
        vec![stand(1, StandKind::FootArtillery, (10.0, 3.0))],
        vec![stand(101, StandKind::FootArtillery, (10.0, 18.0))],
    );
    scenario.table.terrain.push(crate::scenario::Patch {
        area: Area {
            x: 10,
            y: 18,
            w: 1,
            h: 1,
        },
        ground: None,
        level: None,
        road: None,
        cover: Some(crate::scenario::Cover::WallOrHedge),
    });
    let mut battle = Battle::new(&scenario, 4, true);
    let target = index(&battle, 101);
    for turn in 1..=40 {
        battle.turn = turn;
        // Keep the British crew alive: only its fire is under test.
        let british = index(&battle, 1);
        battle.stands[british].strength = 60;
        battle.fire();
        if battle.stands[target].status != Status::Fighting {
            break;
        }
    }
    let gun = &battle.stands[target];
    assert_eq!(gun.status, Status::Out(Fate::Captured));
    assert_eq!(gun.gun_hits, 4);
    assert_eq!(gun.strength, 60, "the aim was the gun, not its crew");
}

#[test]
fn an_infantry_company_crews_a_silent_gun() {
    let scenario = table(
        vec![
            stand(1, StandKind::FootArtillery, (10.0, 3.0)),
            stand(2, StandKind::LineInfantry, (13.0, 3.0)),
        ],
        vec![stand(101, StandKind::NativeRiflemen, (10.0, 39.0))],
    );
    let mut battle = Battle::new(&scenario, 1, true);
    let gun = index(&battle, 1);
    battle.stands[gun].strength = 0;
    battle.move_side(0);
    assert_eq!(strength(&battle, 1), 60);
    assert_eq!(strength(&battle, 2), 40);
    assert!(battle.stands[index(&battle, 2)].held);
}

#[test]
fn a_gun_that_began_under_strength_is_crewed_again_only_to_its_starting_strength() {
    let mut gun_stand = stand(1, StandKind::FootArtillery, (10.0, 3.0));
    gun_stand.strength = 21;
    let scenario = table(
        vec![gun_stand, stand(2, StandKind::LineInfantry, (13.0, 3.0))],
        vec![stand(101, StandKind::NativeRiflemen, (10.0, 39.0))],
    );
    let mut battle = Battle::new(&scenario, 1, true);
    let gun = index(&battle, 1);
    battle.stands[gun].strength = 0;
    battle.move_side(0);
    // 21 men, not the seed's 60: the battle sends no stand back stronger.
    assert_eq!(strength(&battle, 1), 21);
    assert_eq!(strength(&battle, 2), 79);
}

#[test]
fn natives_under_fire_fall_back_two_moves_and_the_british_never_do() {
    let scenario = table(
        vec![stand(1, StandKind::LineInfantry, (10.0, 2.0))],
        vec![
            stand(101, StandKind::NativeRiflemen, (5.0, 10.0)),
            stand(102, StandKind::NativeRegulars, (15.0, 10.0)),
        ],
    );
    let (mut riflemen, mut regulars) = (0, 0);
    for seed in 0..600 {
        let mut battle = Battle::new(&scenario, seed, false);
        for flag in &mut battle.scratch.under_fire {
            *flag = true;
        }
        battle.morale();
        let british = &battle.stands[index(&battle, 1)];
        assert_eq!(british.at, (10.0, 2.0));
        assert!(!british.thrown_back);
        let r = &battle.stands[index(&battle, 101)];
        if r.thrown_back {
            riflemen += 1;
            // Two of its 8-inch moves toward its own edge.
            let back = f64::from(MORALE_RETIRE_MOVES) * 8.0;
            assert!((r.at.1 - (10.0 + back)).abs() < 1e-9 || r.status == Status::Out(Fate::Routed));
        }
        if battle.stands[index(&battle, 102)].thrown_back {
            regulars += 1;
        }
    }
    // 1 or 2 in six for the riflemen, 1 in six for the regulars.
    assert!((150..250).contains(&riflemen), "{riflemen}");
    assert!((60..140).contains(&regulars), "{regulars}");
}

#[test]
fn a_battle_with_odd_input_does_not_panic() {
    use crate::rules::RuleSet;
    let mut scenario = worked_example();
    scenario.sides.truncate(1);
    let outcome = super::Scruby1965.fight(&scenario, 1, true);
    assert_eq!(outcome.stands.len(), 3);
    let mut scenario = worked_example();
    scenario.table.cell_inches = 0.0;
    scenario.sides[0].stands[0].strength = 0;
    scenario.sides[1].stands[0].at = Some((f64::NAN, 1e300));
    let outcome = super::Scruby1965.fight(&scenario, 1, true);
    assert_eq!(outcome.stands.len(), 7);
}

// ---------------------------------------------------------------------------
// The doctrine and the end (issue 14)
// ---------------------------------------------------------------------------

fn log_of(battle: &Battle<'_>) -> Vec<String> {
    battle
        .log
        .clone()
        .into_lines()
        .into_iter()
        .map(|l| l.text)
        .collect()
}

/// The two numbers of "X throw A against Y's B and move first".
fn throws(line: &str) -> Option<(String, u32, u32)> {
    let (who, rest) = line.split_once(" throw ")?;
    let (a, rest) = rest.split_once(" against ")?;
    let (_, rest) = rest.split_once("'s ")?;
    let (b, _) = rest.split_once(" and move first")?;
    Some((who.to_owned(), a.parse().ok()?, b.parse().ok()?))
}

#[test]
fn the_higher_throw_moves_first_and_the_log_names_it() {
    let scenario = worked_example();
    let mut firsts = [0_u32; 2];
    for seed in 0..400 {
        let mut battle = Battle::new(&scenario, seed, true);
        battle.turn = 1;
        let first = battle.first_to_move();
        firsts[first] += 1;
        let line = log_of(&battle)
            .into_iter()
            .find(|l| l.contains(" throw "))
            .unwrap();
        let (who, high, low) = throws(&line).unwrap_or_else(|| panic!("{line}"));
        assert!(high > low, "seed {seed}: {line}");
        assert_eq!(who, battle.side(first).name, "seed {seed}: {line}");
    }
    // Either side moves first about half the time, whatever its role.
    assert!(firsts.iter().all(|&n| (150..250).contains(&n)), "{firsts:?}");
}

/// Two armies too far apart to meet in one game move.
fn out_of_reach(british: u32, natives: u32) -> Scenario {
    let mut s = table(
        (0..british)
            .map(|k| stand(1 + k, StandKind::LineInfantry, (5.0 + 3.0 * f64::from(k), 2.0)))
            .collect(),
        (0..natives)
            .map(|k| {
                stand(
                    101 + k,
                    StandKind::NativeSpearmen,
                    (5.0 + 5.0 * f64::from(k), 38.0),
                )
            })
            .collect(),
    );
    s.turn_limit = 1;
    s
}

#[test]
fn the_last_word_is_sequence_two_thrown_for_the_armies() {
    // 3 companies touching (3 x 100 x 5 = 1500 in closed order, 900 open)
    // against 4 stands of spearmen (4 x 150 x 3 = 1800): the higher product
    // of value and die holds its ground.
    let scenario = out_of_reach(3, 4);
    let mut held = [0_u32; 2];
    for seed in 0..300 {
        let mut battle = Battle::new(&scenario, seed, false);
        battle.run();
        let word = battle
            .last_word()
            .expect("the turn limit reached, no army broken");
        let w = word.holds.expect("equal throws are thrown again");
        held[w] += 1;
        assert!(
            word.why.starts_with("Sequence 2 for the armies, british "),
            "{}",
            word.why
        );
    }
    assert!(held[0] > 30 && held[1] > held[0], "{held:?}");
    // An army that broke has no last word.
    let mut battle = Battle::new(&scenario, 1, false);
    for u in battle.stands.iter_mut().filter(|u| u.side == 0) {
        u.strength = 10;
    }
    assert!(battle.last_word().is_none());
}

/// A defender's line about an objective at (20, 10) on a 40 x 40 table of
/// 1-inch cells, the attacker coming from the high edge: a hedge two cells
/// in front of the objective.
fn posts_test() -> Scenario {
    let mut s = table(
        vec![
            stand(1, StandKind::HeavyCavalry, (20.0, 1.0)),
            stand(2, StandKind::FootArtillery, (22.0, 1.0)),
            stand(3, StandKind::LineInfantry, (24.0, 1.0)),
            stand(4, StandKind::LineInfantry, (26.0, 1.0)),
        ],
        vec![
            stand(101, StandKind::LineInfantry, (20.0, 38.0)),
            stand(102, StandKind::FootArtillery, (22.0, 37.0)),
            stand(103, StandKind::HeavyCavalry, (18.0, 36.0)),
        ],
    );
    for side in &mut s.sides {
        for t in &mut side.stands {
            t.at = None;
        }
    }
    s.sides[1].army = ArmyKind::Regular;
    s.objectives.push(crate::scenario::Objective {
        name: "the knoll".to_owned(),
        kind: crate::scenario::ObjectiveKind::Hill,
        x: 20,
        y: 10,
    });
    s.table.terrain.push(crate::scenario::Patch {
        area: Area {
            x: 15,
            y: 12,
            w: 11,
            h: 1,
        },
        ground: None,
        level: None,
        road: None,
        cover: Some(crate::scenario::Cover::WallOrHedge),
    });
    s
}

#[test]
fn the_defender_posts_foot_on_the_objective_and_the_hedge_guns_next_horse_behind() {
    let scenario = posts_test();
    for seed in 0..20 {
        let battle = Battle::new(&scenario, seed, false);
        let post = |id: u32| battle.stands[index(&battle, id)].post.unwrap();
        let holds = |id: u32| battle.stands[index(&battle, id)].holds;
        // The first company of foot holds the objective's cell itself.
        assert_eq!(post(3), (20.5, 10.5), "seed {seed}");
        assert!(holds(3) && !holds(4) && !holds(2));
        // The second company and the gun stand behind the hedge, unless the
        // general holds back (no further forward than the objective).
        let hold_back = battle.side(0).plan.hold_back;
        for id in [4, 2] {
            let (_, y) = post(id);
            if hold_back {
                assert!(y <= 10.5 + 1e-9, "seed {seed}: {id} at {y}");
            } else {
                assert!((y - 12.5).abs() < 1e-9, "seed {seed}: {id} at {y}");
            }
        }
        // The horse waits three cells behind the objective.
        assert_eq!(post(1), (20.5, 7.5), "seed {seed}");
        // Each deploys as near its post as its zone (rows 0 to 3) allows.
        assert_eq!(battle.stands[index(&battle, 3)].at, (20.5, 3.5), "seed {seed}");
    }
}

#[test]
fn the_attackers_foot_leads_its_horse_and_guns() {
    let scenario = posts_test();
    let battle = Battle::new(&scenario, 3, false);
    let y = |id: u32| battle.stands[index(&battle, id)].at.1;
    // The attacker's edge is the high one: nearer the enemy is lower y.
    assert!(
        y(101) <= y(103) && y(103) <= y(102),
        "{} {} {}",
        y(101),
        y(103),
        y(102)
    );
}

#[test]
fn no_company_fires_through_its_own_side() {
    let scenario = table(
        vec![
            stand(1, StandKind::LineInfantry, (10.0, 2.0)),
            stand(2, StandKind::LineInfantry, (10.0, 6.0)),
            stand(3, StandKind::LineInfantry, (14.0, 2.0)),
        ],
        vec![stand(101, StandKind::NativeRegulars, (10.0, 18.0))],
    );
    let battle = Battle::new(&scenario, 1, false);
    let (one, two, three, enemy) = (
        index(&battle, 1),
        index(&battle, 2),
        index(&battle, 3),
        index(&battle, 101),
    );
    let at = |i: usize| battle.stands[i].at;
    // Company 2 stands between company 1 and the enemy: 1 cannot fire.
    assert!(battle.screened(one, at(one), at(enemy)));
    assert_eq!(battle.fire_target(one, 20.0, None), None);
    // Company 2 itself, and company 3 off to the side, fire.
    assert_eq!(battle.fire_target(two, 20.0, None).map(|t| t.0), Some(enemy));
    assert!(!battle.screened(three, at(three), at(enemy)));
    assert_eq!(battle.fire_target(three, 20.0, None).map(|t| t.0), Some(enemy));
    // The fire phase's list of the side's ranks screens the same.
    let ranks: Vec<_> = battle.ranks(0).collect();
    assert_eq!(ranks.len(), 3);
    assert_eq!(battle.fire_target(one, 20.0, Some(&ranks)), None);
    assert_eq!(
        battle.fire_target(three, 20.0, Some(&ranks)).map(|t| t.0),
        Some(enemy)
    );
}

#[test]
fn the_defenders_reserves_march_to_the_fighting_but_not_the_holder() {
    let scenario = table(
        vec![
            stand(1, StandKind::LineInfantry, (5.0, 2.0)),
            stand(2, StandKind::LineInfantry, (35.0, 2.0)),
        ],
        vec![stand(101, StandKind::NativeRegulars, (5.0, 15.0))],
    );
    let mut battle = Battle::new(&scenario, 1, false);
    battle.mark_engaged(0);
    let (one, two) = (index(&battle, 1), index(&battle, 2));
    let enemy = battle.stands[index(&battle, 101)].at;
    // Company 2, 30 inches off with nothing in range, marches on the enemy
    // company 1 is fighting.
    assert_eq!(battle.march_to_fighting(two), Some(enemy));
    battle.stands[two].holds = true;
    assert_eq!(battle.march_to_fighting(two), None, "the holder stays");
    // An attacker never marches off its goal for it.
    battle.mark_engaged(1);
    assert_eq!(battle.march_to_fighting(index(&battle, 101)), None);
    let _ = one;
}

#[test]
fn the_attack_goes_in_formed_up_or_late_in_the_day() {
    let scenario = table(
        vec![stand(1, StandKind::LineInfantry, (20.0, 2.0))],
        vec![
            stand(101, StandKind::NativeRegulars, (20.0, 26.0)),
            stand(102, StandKind::NativeRegulars, (24.0, 36.0)),
            stand(103, StandKind::NativeRegulars, (28.0, 36.0)),
        ],
    );
    let mut battle = Battle::new(&scenario, 1, false);
    battle.turn = 1;
    // One of three companies within a move of rifle range: not formed.
    assert!(!battle.formed_up(1));
    for id in [102, 103] {
        let i = index(&battle, id);
        battle.stands[i].at.1 = 27.0;
    }
    assert!(battle.formed_up(1));
    for id in [102, 103] {
        let i = index(&battle, id);
        battle.stands[i].at.1 = 36.0;
    }
    battle.turn = 7;
    assert!(battle.formed_up(1), "the second half of the day: it goes in");
}

#[test]
fn cavalry_rides_at_enemy_cavalry_and_they_fight() {
    // Two squadrons a side of British heavy cavalry, 30 inches apart.
    let mut scenario = table(
        vec![
            stand(1, StandKind::HeavyCavalry, (18.0, 4.0)),
            stand(2, StandKind::HeavyCavalry, (21.0, 4.0)),
        ],
        vec![
            stand(101, StandKind::HeavyCavalry, (18.0, 34.0)),
            stand(102, StandKind::HeavyCavalry, (21.0, 34.0)),
        ],
    );
    scenario.sides[1].army = ArmyKind::Regular;
    let mut fought = 0;
    for seed in 0..40 {
        let mut battle = Battle::new(&scenario, seed, true);
        battle.run();
        if log_of(&battle).iter().any(|l| l.starts_with("melee:")) {
            fought += 1;
        }
    }
    assert!(fought >= 30, "{fought} of 40");
}

#[test]
fn a_bold_attacker_presses_on_once_its_fire_is_winning_or_late_in_the_day() {
    // Two regular companies a side, 18 inches apart: within RIFLE RANGE.
    let mut scenario = table(
        vec![
            stand(1, StandKind::LineInfantry, (18.0, 4.0)),
            stand(2, StandKind::LineInfantry, (21.0, 4.0)),
        ],
        vec![
            stand(101, StandKind::LineInfantry, (18.0, 22.0)),
            stand(102, StandKind::LineInfantry, (21.0, 22.0)),
        ],
    );
    scenario.sides[1].army = ArmyKind::Regular;
    let mut battle = Battle::new(&scenario, 1, false);
    battle.sides[1].plan.boldness = crate::rules::doctrine::Boldness::Bold;
    battle.turn = 1;
    let attacker = index(&battle, 101);
    let presses = |battle: &mut Battle<'_>| {
        battle.scratch.ahead = battle.ahead_in_fire(1);
        battle.presses_on(attacker)
    };
    // No volley has told yet: it halts to fire.
    assert!(!presses(&mut battle));
    // Its own company has lost more than the enemy's: still it halts.
    battle.stands[attacker].strength /= 2;
    assert!(!presses(&mut battle));
    // The enemy has lost the greater share: it presses on.
    let (d1, d2) = (index(&battle, 1), index(&battle, 2));
    let full = battle.stands[d1].strength;
    battle.stands[d1].strength = 0;
    battle.stands[d2].strength /= 2;
    assert!(presses(&mut battle));
    // Late in the day (turn 7 of 12) it presses on though its fire is not winning.
    battle.stands[d1].strength = full;
    battle.stands[d2].strength = full;
    battle.turn = 7;
    assert!(!battle.ahead_in_fire(1));
    assert!(presses(&mut battle));
    // A cautious general never does.
    battle.sides[1].plan.boldness = crate::rules::doctrine::Boldness::Cautious;
    assert!(!presses(&mut battle));
}
