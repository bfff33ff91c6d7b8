//! The `harman-2021` rule set: each rule of
//! `harman-2021-toy-soldier-battles.txt` as a small function, whole battles
//! (determinism, fates) and the odds.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use common::armies::harman2021::*;
use umpire::model::{Quality, RuleSetId, StandKind};
use umpire::rules::dice::Dice;
use umpire::rules::harman2021::*;
use umpire::rules::{Fate, RuleSet};
use umpire::scenario::{Cell, Cover, Ground};

// ---------------------------------------------------------------------------
// Building scenarios.

fn cell(ground: Ground) -> Cell {
    Cell {
        ground,
        ..Cell::default()
    }
}

fn walled() -> Cell {
    Cell {
        cover: Some(Cover::WallOrHedge),
        ..Cell::default()
    }
}

const INF: Unit = Unit::FormedInfantry { fires: true };

// ---------------------------------------------------------------------------
// Troop quality and Combat Value.

#[test]
fn quality_gives_four_three_or_two_tactical_dice() {
    assert_eq!(tactical_dice(INF, Quality::Elite), 4);
    assert_eq!(tactical_dice(INF, Quality::Trained), 3);
    assert_eq!(tactical_dice(INF, Quality::Raw), 2);
    // "Artillery is always Trained".
    assert_eq!(tactical_dice(Unit::FootArtillery, Quality::Raw), 3);
    assert_eq!(tactical_dice(Unit::HorseArtillery, Quality::Elite), 3);
}

#[test]
fn combat_value_is_10_7_4_and_scales_with_strength() {
    assert_eq!(combat_value(INF, Quality::Elite, 100, 100), 10);
    assert_eq!(combat_value(INF, Quality::Trained, 100, 100), 7);
    assert_eq!(combat_value(INF, Quality::Raw, 100, 100), 4);
    assert_eq!(combat_value(Unit::FootArtillery, Quality::Raw, 60, 60), 7);
    assert_eq!(combat_value(INF, Quality::Elite, 50, 100), 5);
    assert_eq!(combat_value(INF, Quality::Raw, 1, 100), 1, "at least 1");
    assert_eq!(strength_after(100, 10, 5), 50);
    assert_eq!(strength_after(100, 7, 0), 0);
}

#[test]
fn losing_over_half_the_combat_value_costs_a_die_and_all_of_it_spends_the_unit() {
    assert_eq!(condition(7, 7), Condition::Fresh);
    assert_eq!(
        condition(10, 5),
        Condition::Fresh,
        "exactly half is not over half"
    );
    assert_eq!(condition(10, 4), Condition::Shaken);
    assert_eq!(condition(7, 0), Condition::Spent);
    assert_eq!(dice_for_condition(3, Condition::Fresh), 3);
    assert_eq!(dice_for_condition(3, Condition::Shaken), 2);
}

#[test]
fn the_campaign_stands_map_to_harmans_units() {
    assert_eq!(unit_of(StandKind::GuardInfantry, false), INF);
    assert_eq!(unit_of(StandKind::NativeRegulars, false), INF);
    assert_eq!(
        unit_of(StandKind::NativeSpearmen, false),
        Unit::FormedInfantry { fires: false }
    );
    assert_eq!(unit_of(StandKind::LightInfantry, false), Unit::Skirmishers);
    assert_eq!(unit_of(StandKind::NativeRiflemen, false), Unit::Skirmishers);
    assert_eq!(unit_of(StandKind::MountedInfantry, false), Unit::Cavalry);
    assert_eq!(unit_of(StandKind::MachineGun, false), Unit::FootArtillery);
    assert_eq!(unit_of(StandKind::HorseArtillery, false), Unit::HorseArtillery);
    assert_eq!(unit_of(StandKind::Command, true), Unit::General);
    assert_eq!(unit_of(StandKind::Command, false), Unit::Adc);
    assert_eq!(unit_of(StandKind::Transport, false), Unit::Transport);
}

// ---------------------------------------------------------------------------
// The Tactical Dice, face by face.

#[test]
fn one_is_an_officer_casualty() {
    assert_eq!(face(1), Face::Officer);
    let t = Throw::of(&[1, 2]);
    assert!(t.endangers_officers(t.hits(Hit::Target)), "a hit and an Officer");
    let t = Throw::of(&[1, 4]);
    assert!(
        !t.endangers_officers(t.hits(Hit::Target)),
        "an Officer but no hit"
    );
}

#[test]
fn two_and_three_are_targets_for_volley_and_canister() {
    assert_eq!(face(2), Face::Target);
    assert_eq!(face(3), Face::Target);
    assert_eq!(Throw::of(&[2, 3, 5]).hits(Hit::Target), 2);
    assert_eq!(
        artillery_fire(Unit::FootArtillery, false, 3),
        Some((3, Hit::Target))
    );
}

#[test]
fn four_is_a_falling_flag() {
    assert_eq!(face(4), Face::Flag);
    assert_eq!(Throw::of(&[4, 4, 6]).flags, 2);
    assert_eq!(flag_effect(0, 3, false), FlagEffect::None);
    assert_eq!(flag_effect(1, 3, false), FlagEffect::OneDieLess);
    assert_eq!(flag_effect(2, 4, false), FlagEffect::Halts);
    assert_eq!(flag_effect(3, 3, false), FlagEffect::Retires);
    assert_eq!(flag_effect(4, 3, false), FlagEffect::Routs);
    // A General in the square ignores the first Flag.
    assert_eq!(flag_effect(1, 3, true), FlagEffect::None);
    assert_eq!(flag_effect(4, 3, true), FlagEffect::Retires);
}

#[test]
fn five_is_artillery_fire_at_effective_range_and_skirmishing() {
    assert_eq!(face(5), Face::Fire);
    assert_eq!(
        artillery_fire(Unit::FootArtillery, false, 8),
        Some((3, Hit::Fire))
    );
    assert_eq!(artillery_fire(Unit::FootArtillery, false, 9), None);
    assert_eq!(
        artillery_fire(Unit::HorseArtillery, false, 2),
        Some((3, Hit::Target))
    );
    assert_eq!(
        artillery_fire(Unit::HorseArtillery, false, 6),
        Some((3, Hit::Fire))
    );
    assert_eq!(artillery_fire(Unit::HorseArtillery, false, 7), None);
    assert_eq!(SKIRMISH_DICE, 1);
    assert_eq!(Throw::of(&[5, 5, 2]).hits(Hit::Fire), 2);
}

#[test]
fn six_is_a_sabre_for_close_combat() {
    assert_eq!(face(6), Face::Sabre);
    assert_eq!(Throw::of(&[6, 6, 6, 1]).hits(Hit::Sabre), 3);
}

#[test]
fn thrown_dice_come_from_the_seed() {
    let a = Throw::roll(&mut Dice::new(9), 50);
    let b = Throw::roll(&mut Dice::new(9), 50);
    assert_eq!(a, b);
    assert_eq!(a.officers + a.targets + a.flags + a.fires + a.sabres, 50);
    assert!(a.targets > a.flags, "two faces of six are Targets: {a:?}");
}

// ---------------------------------------------------------------------------
// The turn sequence.

#[test]
fn the_initiative_bonus_grows_with_repeated_wins() {
    assert_eq!(initiative_bonus(0), 0);
    assert_eq!(initiative_bonus(1), 0);
    assert_eq!(initiative_bonus(2), 1, "won the last two turns: +1");
    assert_eq!(initiative_bonus(3), 2, "the last three: +2");
    // The lower score wins, so a side with +5 (six wins running) wins only
    // when the other side throws a 6 and it throws a 1... never: 6 < 1+5 fails.
    let mut dice = Dice::new(3);
    let wins = (0..600).filter(|_| initiative(&mut dice, [6, 0]) == 0).count();
    assert!(wins < 40, "the handicapped side won {wins} of 600");
    let even = (0..600).filter(|_| initiative(&mut dice, [0, 0]) == 0).count();
    assert!((250..350).contains(&even), "{even} of 600");
}

// ---------------------------------------------------------------------------
// Generals and ADCs.

#[test]
fn a_generals_casualty_roll() {
    assert_eq!(casualty(1), Casualty::Killed);
    assert_eq!(casualty(2), Casualty::Wounded);
    for r in 3..=6 {
        assert_eq!(casualty(r), Casualty::Unscathed);
    }
    assert!(wounded_leaves(1));
    assert!(!wounded_leaves(2));
}

#[test]
fn a_general_rallies_a_still_unit_not_attacked_on_a_six() {
    assert!(rallies(6, true, false));
    assert!(!rallies(5, true, false));
    assert!(!rallies(6, false, false), "it must be stationary");
    assert!(!rallies(6, true, true), "not charged or fired upon");
}

#[test]
fn a_general_adds_a_die_in_close_combat() {
    let open = Cell::default();
    assert_eq!(close_combat_dice(3, false, &open), 3);
    assert_eq!(close_combat_dice(3, true, &open), 4);
}

// ---------------------------------------------------------------------------
// Terrain.

#[test]
fn forests_keep_out_formed_units_and_slow_skirmishers() {
    let wood = cell(Ground::ForestInterior);
    assert!(!may_enter(INF, &wood));
    assert!(!may_enter(Unit::Cavalry, &wood));
    assert!(may_enter(Unit::Skirmishers, &wood));
    assert!(may_enter(INF, &Cell { road: true, ..wood }), "on a road");
    assert_eq!(terrain_move_cap(Unit::Skirmishers, &wood), 1);
    assert!(blocks_sight(&wood, INF, 0));
    let open = Cell::default();
    assert!(forest_allows_skirmish_fire(&wood, &wood, true, 1));
    assert!(!forest_allows_skirmish_fire(&wood, &wood, false, 1));
    assert!(forest_allows_skirmish_fire(&wood, &open, false, 1));
    assert!(!forest_allows_skirmish_fire(&wood, &open, false, 2));
}

#[test]
fn hills_lengthen_artillery_range_and_block_sight() {
    assert_eq!(artillery_ranges(Unit::FootArtillery, true), (3, 9));
    assert_eq!(artillery_fire(Unit::FootArtillery, true, 9), Some((3, Hit::Fire)));
    assert_eq!(artillery_ranges(Unit::HorseArtillery, true), (2, 7));
    let hill = Cell {
        level: 1,
        ..Cell::default()
    };
    assert!(blocks_sight(&hill, INF, 0));
    assert!(!blocks_sight(&hill, INF, 1), "not to troops on the hill");
}

#[test]
fn built_up_areas() {
    let town = cell(Ground::BuiltUpOuter);
    assert!(must_stop(INF, &town));
    assert!(!must_stop(INF, &Cell { road: true, ..town }));
    assert!(!may_enter(Unit::Cavalry, &town));
    assert!(!may_enter(Unit::FootArtillery, &town));
    assert!(may_enter(Unit::Cavalry, &Cell { road: true, ..town }));
    let open = Cell::default();
    assert!(may_engage(INF, &open, &town));
    assert!(
        !may_engage(Unit::Cavalry, &open, &town),
        "only infantry fight in a BUA"
    );
    assert_eq!(fire_at(3, Hit::Target, &town), (1, Hit::Target), "two dice fewer");
    assert!(blocks_sight(&town, INF, 0));
    assert_eq!(
        undecided_retire(2, true),
        Some((true, false)),
        "only the attackers retire"
    );
}

#[test]
fn rivers_are_crossed_only_at_bridges_and_fords() {
    assert!(!may_enter(INF, &cell(Ground::River)));
    assert!(may_enter(INF, &cell(Ground::Bridge)));
    assert!(may_enter(Unit::Cavalry, &cell(Ground::Ford)));
    assert!(!blocks_sight(&cell(Ground::River), INF, 0));
}

#[test]
fn fields_of_tall_crops() {
    let crops = cell(Ground::TallCrops);
    assert_eq!(terrain_move_cap(INF, &crops), 1);
    assert_eq!(terrain_move_cap(Unit::Skirmishers, &crops), 1);
    assert_eq!(terrain_move_cap(Unit::Cavalry, &crops), 2);
    assert_eq!(close_combat_dice(3, false, &crops), 2);
    assert!(blocks_sight(&crops, INF, 0));
    assert!(blocks_sight(&crops, Unit::FootArtillery, 0));
    assert!(!blocks_sight(&crops, Unit::Cavalry, 0));
    assert!(!blocks_sight(&crops, Unit::General, 0));
}

#[test]
fn fences_and_walls() {
    let wall = walled();
    assert!(must_stop(INF, &wall));
    assert!(must_stop(Unit::Cavalry, &wall));
    assert!(!must_stop(Unit::Skirmishers, &wall));
    assert_eq!(fire_at(3, Hit::Target, &wall), (3, Hit::Fire), "only Fire hits");
    assert_eq!(close_combat_dice(3, false, &wall), 2);
    assert!(!may_engage(Unit::Cavalry, &Cell::default(), &wall));
    assert!(may_engage(INF, &Cell::default(), &wall));
    assert!(!blocks_sight(&wall, INF, 0));
}

// ---------------------------------------------------------------------------
// Movement.

#[test]
fn movement_allowances() {
    assert_eq!((INFANTRY_MARCH, INFANTRY_TACTICAL, SKIRMISHER_MOVE), (2, 1, 2));
    assert_eq!((FOOT_ARTILLERY_MOVE, HORSE_ARTILLERY_MOVE), (2, 3));
    assert_eq!((CAVALRY_MANOEUVRE, CAVALRY_CHARGE, LEADER_MOVE), (3, 4, 3));
    assert!(straight_finish((0, 0), &[(0, 1), (1, 1), (2, 1)]));
    assert!(!straight_finish((0, 0), &[(0, 1), (0, 2), (1, 2)]));
}

// ---------------------------------------------------------------------------
// Cavalry.

#[test]
fn cavalry_against_cavalry() {
    assert_eq!(cavalry_reply(0, 3), CavalryReply::CounterCharge);
    assert_eq!(cavalry_reply_dice(CavalryReply::CounterCharge, 3), 3);
    assert_eq!(cavalry_reply(2, 3), CavalryReply::AtDisadvantage);
    assert_eq!(cavalry_reply_dice(CavalryReply::AtDisadvantage, 3), 2);
    assert_eq!(cavalry_reply(3, 3), CavalryReply::Breaks);
    assert_eq!(cavalry_reply(2, 2), CavalryReply::Breaks);
    assert_eq!(cavalry_reply_dice(CavalryReply::Breaks, 3), 0);
}

#[test]
fn cavalry_against_infantry_and_artillery() {
    // Sabres and Flags reaching the quality: no square, a rout, pursuit +1 die.
    assert_eq!(cavalry_against_foot(1, 2, 3, false), SquareResult::Broken);
    assert_eq!(square_reply(SquareResult::Broken, false, 3), (0, true));
    assert_eq!(pursuit_dice(3), 4);
    // Fewer, with a Flag: square just formed, Sabres hit, one die of fire.
    assert_eq!(cavalry_against_foot(1, 1, 3, false), SquareResult::JustFormed);
    assert_eq!(square_reply(SquareResult::JustFormed, false, 3), (1, true));
    assert_eq!(
        square_reply(SquareResult::JustFormed, true, 3),
        (2, true),
        "gunners fire hastily"
    );
    // No Flags: formed in good time, Sabres ignored, half the dice rounded up.
    assert_eq!(cavalry_against_foot(0, 2, 4, false), SquareResult::FormedInTime);
    assert_eq!(square_reply(SquareResult::FormedInTime, false, 3), (2, false));
    assert_eq!(
        square_reply(SquareResult::FormedInTime, true, 3),
        (3, true),
        "canister, but Sabres hit"
    );
}

#[test]
fn a_square_breaks_only_on_flags_reaching_its_quality() {
    assert_eq!(cavalry_against_foot(2, 2, 3, true), SquareResult::FormedInTime);
    assert_eq!(cavalry_against_foot(3, 0, 3, true), SquareResult::Broken);
}

// ---------------------------------------------------------------------------
// Infantry against infantry.

#[test]
fn skirmishing() {
    assert_eq!(skirmish_falls_back(2, 1), Some(true));
    assert_eq!(skirmish_falls_back(0, 1), Some(false));
    assert_eq!(skirmish_falls_back(1, 1), None, "no ground gained");
    assert!(must_stop(INF, &walled()) && !must_stop(Unit::Skirmishers, &walled()));
}

#[test]
fn bayonet_charges() {
    assert_eq!(bayonet_answer(1, 2, 3), BayonetAnswer::Flee);
    assert_eq!(bayonet_answer(2, 0, 2), BayonetAnswer::Flee);
    assert_eq!(
        bayonet_return_dice(BayonetAnswer::Flee, 3),
        0,
        "they flee without Firing"
    );
    assert_eq!(bayonet_answer(2, 1, 4), BayonetAnswer::FireThenRetire);
    assert_eq!(bayonet_return_dice(BayonetAnswer::FireThenRetire, 4), 3);
    assert_eq!(bayonet_answer(1, 0, 3), BayonetAnswer::StandOneLess);
    assert_eq!(bayonet_return_dice(BayonetAnswer::StandOneLess, 3), 2);
    assert_eq!(bayonet_answer(0, 2, 3), BayonetAnswer::Stand);
    assert_eq!(bayonet_return_dice(BayonetAnswer::Stand, 3), 3);
    assert!(halted(FlagEffect::Halts) && halted(FlagEffect::Routs));
    assert!(!halted(FlagEffect::OneDieLess));
}

#[test]
fn close_combat_lasts_two_turns() {
    assert_eq!(CLOSE_COMBAT_TURNS, 2);
    assert_eq!(undecided_retire(1, false), None, "it continues next turn");
    assert_eq!(
        undecided_retire(2, false),
        Some((true, true)),
        "both retire to rally"
    );
}

// ---------------------------------------------------------------------------
// Whole battles.

#[test]
fn fates_follow_the_combat_value() {
    let s = mirror();
    for seed in 0..30 {
        let o = Harman2021.fight(&s, seed, false);
        assert!(o.turns <= 12);
        for r in &o.stands {
            assert!(r.strength_after <= r.strength_before);
            match r.fate {
                Fate::Destroyed => assert_eq!(r.strength_after, 0),
                Fate::Stood => assert!(r.strength_after > 0 || r.kind == StandKind::Command),
                _ => {}
            }
        }
    }
}

#[test]
fn battles_are_fought_to_a_decision_with_casualties() {
    let s = mirror();
    let o = Harman2021.fight(&s, 5, true);
    assert!(o.losses("red") + o.losses("blue") > 0, "{:#?}", o.log);
    let text: String = o.log.iter().map(|l| l.text.clone()).collect();
    assert!(text.contains("fires at"), "{text}");
}

/// Not a test of the rules: how long 1,000 battles take (run with
/// `cargo test --release --test rules_harman2021 -- --ignored --nocapture`).
#[test]
#[ignore = "a timing, for release builds"]
fn time_odds_of_a_thousand_battles() {
    let s = twenty();
    assert_eq!(s.sides[0].stands.len(), 20);
    umpire::rules::odds(&s, RuleSetId::Harman2021, 100, 1).unwrap();
    let start = std::time::Instant::now();
    let odds = umpire::rules::odds(&s, RuleSetId::Harman2021, 1000, 1).unwrap();
    println!("odds(1000), 20 stands a side: {:?}", start.elapsed());
    for side in &odds.sides {
        println!("  {} wins {:.3}", side.name, side.wins.share);
    }
}

#[test]
fn the_seed_has_no_last_word_for_the_armies() {
    let rules = Harman2021;
    assert!(rules.last_word_rule().is_none());
    let s = mirror();
    for seed in 0..5 {
        assert!(rules.fight(&s, seed, false).last_word.is_none());
    }
}

/// Horse against horse: whatever plan each general draws (a cautious one
/// too), cavalry within reach of enemy cavalry charges it (CAVALRY Vs
/// CAVALRY: the charger throws first; the charged at best counter-charges).
#[test]
fn cavalry_charges_enemy_cavalry_within_reach_whatever_the_plan() {
    let horse = |base: u32| -> Vec<umpire::scenario::TableStand> {
        (0..4)
            .map(|k| common::table::stand_of(base + k, StandKind::HeavyCavalry, Quality::Trained))
            .collect()
    };
    let s = scenario(horse(1), horse(101));
    for seed in 0..24 {
        let o = Harman2021.fight(&s, seed, true);
        let text: Vec<String> = o.log.iter().map(|l| l.text.clone()).collect();
        let cautious = text.iter().any(|t| t.contains("cautiously"));
        let charged = o
            .log
            .iter()
            .any(|l| l.turn <= 3 && l.text.contains("heavy cavalry") && l.text.contains(" charges "));
        assert!(charged, "seed {seed} (a cautious general: {cautious}): {text:#?}");
    }
}

// ---------------------------------------------------------------------------
// The generals' doctrine.

/// The defender marches from its deployment to posts on and about the
/// objective it guards, and holds them: in every battle some of its foot
/// takes post within the first two turns.
#[test]
fn the_defender_posts_on_the_objective() {
    let foot = |base: u32, n: u32| -> Vec<umpire::scenario::TableStand> {
        (0..n)
            .map(|k| common::table::stand_of(base + k, StandKind::LineInfantry, Quality::Trained))
            .collect()
    };
    let mut s = scenario(foot(1, 2), foot(101, 3));
    s.objectives.push(umpire::scenario::Objective {
        name: "the crossroads".to_owned(),
        kind: umpire::scenario::ObjectiveKind::Crossroads,
        x: 9,
        y: 7,
    });
    for seed in 0..12 {
        let o = Harman2021.fight(&s, seed, true);
        let posted = o
            .log
            .iter()
            .any(|l| l.turn <= 2 && l.text.contains("line infantry") && l.text.contains("takes post at"));
        assert!(posted, "seed {seed}: {:#?}", common::table::log_text(&o));
    }
}

/// Foot closes with horse in Close Combat, the seed's general rule ("Any
/// unit that moves into a square adjacent ... to an enemy unit will engage
/// it in Close Combat"): spearmen, who have no fire, are not left standing
/// before horse all day.
#[test]
fn foot_closes_with_horse() {
    let spears: Vec<umpire::scenario::TableStand> = (0..4)
        .map(|k| common::table::stand_of(1 + k, StandKind::NativeSpearmen, Quality::Trained))
        .collect();
    let horse = vec![common::table::stand_of(
        101,
        StandKind::HeavyCavalry,
        Quality::Raw,
    )];
    let s = scenario(spears, horse);
    let closed = (0..16).any(|seed| {
        let o = Harman2021.fight(&s, seed, true);
        common::table::logged(&o, "closes with heavy cavalry")
    });
    assert!(closed);
}

/// The attacker commits everything once half the day is gone (charging
/// whatever the dice); the defender never does.
#[test]
fn the_attacker_commits_everything_late_in_the_day() {
    use umpire::scenario::Role;
    for (role, turn, limit, commits) in [
        (Role::Attacker, 1, 12, false),
        (Role::Attacker, 6, 12, false),
        (Role::Attacker, 7, 12, true),
        (Role::Attacker, 12, 12, true),
        (Role::Attacker, 4, 6, true),
        (Role::Defender, 12, 12, false),
    ] {
        assert_eq!(
            attacker_commits(role, turn, limit),
            commits,
            "{role:?} turn {turn} of {limit}"
        );
    }
}
