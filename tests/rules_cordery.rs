//! The `cordery-2009` rule set: each table row and modifier of
//! `cordery-2009-late-19th-century-rules.txt`, movement and withdrawal on
//! small tables, whole battles (limits, determinism) and the odds.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use common::armies::cordery::*;
use common::table::{area, ground, patch, stand_in as stand};
use std::collections::BTreeMap;
use umpire::model::{ArmyKind, Quality, RuleSetId, StandId, StandKind};
use umpire::rules::cordery::*;
use umpire::rules::{Fate, RuleSet};
use umpire::scenario::{
    Cell, Cover, Ground, Objective, ObjectiveKind, Patch, Reserve, Scenario, TableStand, Weapon,
};

// ---------------------------------------------------------------------------
// Building scenarios.

// ---------------------------------------------------------------------------
// STAND VALUES, one test per row.

#[test]
fn guard_infantry_is_worth_4() {
    assert_eq!(stand_value(StandType::GuardInfantry), 4);
}

#[test]
fn regular_infantry_cavalry_and_heavy_artillery_are_worth_3() {
    assert_eq!(stand_value(StandType::RegularInfantry), 3);
    assert_eq!(stand_value(StandType::RegularCavalry), 3);
    assert_eq!(stand_value(StandType::HeavyArtillery), 3);
}

#[test]
fn irregular_and_native_troops_field_and_mountain_guns_and_machine_guns_are_worth_2() {
    for t in [
        StandType::IrregularInfantry,
        StandType::NativeInfantry,
        StandType::IrregularCavalry,
        StandType::NativeCavalry,
        StandType::FieldArtillery,
        StandType::MountainArtillery,
        StandType::MachineGun,
    ] {
        assert_eq!(stand_value(t), 2, "{t:?}");
    }
}

#[test]
fn generals_are_worth_3_2_and_1() {
    let general = |rating| StandType::General {
        rating,
        mounted: true,
    };
    assert_eq!(stand_value(general(Generalship::Exceptional)), 3);
    assert_eq!(stand_value(general(Generalship::Average)), 2);
    assert_eq!(stand_value(general(Generalship::Poor)), 1);
}

#[test]
fn transport_is_worth_1() {
    assert_eq!(stand_value(StandType::Transport), 1);
}

// ---------------------------------------------------------------------------
// MOVEMENT, one test per row.

#[test]
fn irregular_and_native_cavalry_move_5_squares() {
    assert_eq!(move_squares(StandType::IrregularCavalry), 5);
    assert_eq!(move_squares(StandType::NativeCavalry), 5);
}

#[test]
fn regular_cavalry_and_mounted_command_move_4_squares() {
    assert_eq!(move_squares(StandType::RegularCavalry), 4);
    let mounted = StandType::General {
        rating: Generalship::Average,
        mounted: true,
    };
    assert_eq!(move_squares(mounted), 4);
}

#[test]
fn irregular_and_native_infantry_move_3_squares() {
    assert_eq!(move_squares(StandType::IrregularInfantry), 3);
    assert_eq!(move_squares(StandType::NativeInfantry), 3);
}

#[test]
fn guards_regulars_dismounted_cavalry_guns_transport_and_command_on_foot_move_2_squares() {
    let on_foot = StandType::General {
        rating: Generalship::Poor,
        mounted: false,
    };
    for t in [
        StandType::GuardInfantry,
        StandType::RegularInfantry,
        StandType::DismountedCavalry,
        StandType::FieldArtillery,
        StandType::MountainArtillery,
        StandType::HeavyArtillery,
        StandType::MachineGun,
        StandType::Transport,
        on_foot,
    ] {
        assert_eq!(move_squares(t), 2, "{t:?}");
    }
}

// ---------------------------------------------------------------------------
// Fire Combat – Ranges, one test per row.

#[test]
fn hand_held_weapons_and_muskets_reach_1_square() {
    assert_eq!(range_squares(Weapon::HandHeld), 1);
    assert_eq!(range_squares(Weapon::Musket), 1);
}

#[test]
fn single_shot_rifles_reach_2_squares() {
    assert_eq!(range_squares(Weapon::SingleShotRifle), 2);
}

#[test]
fn magazine_rifles_reach_3_squares() {
    assert_eq!(range_squares(Weapon::MagazineRifle), 3);
}

#[test]
fn smooth_bore_mountain_guns_and_machine_guns_reach_4_squares() {
    assert_eq!(range_squares(Weapon::SmoothBoreMountainGun), 4);
    assert_eq!(range_squares(Weapon::MachineGun), 4);
}

#[test]
fn rifled_mountain_and_smooth_bore_field_guns_reach_5_squares() {
    assert_eq!(range_squares(Weapon::RifledMountainGun), 5);
    assert_eq!(range_squares(Weapon::SmoothBoreFieldGun), 5);
}

#[test]
fn rifled_field_and_smooth_bore_heavy_guns_reach_6_squares() {
    assert_eq!(range_squares(Weapon::RifledFieldGun), 6);
    assert_eq!(range_squares(Weapon::SmoothBoreHeavyGun), 6);
}

#[test]
fn rifled_heavy_guns_reach_8_squares() {
    assert_eq!(range_squares(Weapon::RifledHeavyGun), 8);
}

// ---------------------------------------------------------------------------
// The campaign's stands as Cordery's.

#[test]
fn regular_army_stands_map_to_regular_types_and_weapons() {
    use StandKind as K;
    let r = ArmyKind::Regular;
    let q = Quality::Trained;
    for k in [K::LineInfantry, K::LightInfantry, K::GrenadierInfantry] {
        assert_eq!(stand_type(k, q, r), StandType::RegularInfantry, "{k:?}");
        assert_eq!(default_weapon(k, r), Some(Weapon::MagazineRifle), "{k:?}");
    }
    assert_eq!(stand_type(K::GuardInfantry, q, r), StandType::GuardInfantry);
    for k in [K::HeavyCavalry, K::LightCavalry, K::MountedInfantry] {
        assert_eq!(stand_type(k, q, r), StandType::RegularCavalry, "{k:?}");
        assert_eq!(default_weapon(k, r), Some(Weapon::SingleShotRifle), "{k:?}");
    }
    for k in [K::FootArtillery, K::HorseArtillery] {
        assert_eq!(stand_type(k, q, r), StandType::FieldArtillery, "{k:?}");
        assert_eq!(default_weapon(k, r), Some(Weapon::RifledFieldGun), "{k:?}");
    }
    assert_eq!(stand_type(K::MachineGun, q, r), StandType::MachineGun);
    assert_eq!(default_weapon(K::MachineGun, r), Some(Weapon::MachineGun));
    assert_eq!(stand_type(K::Transport, q, r), StandType::Transport);
    assert_eq!(default_weapon(K::Transport, r), None);
}

#[test]
fn native_stands_map_to_native_types_and_weapons() {
    use StandKind as K;
    let q = Quality::Trained;
    for army in [ArmyKind::Regular, ArmyKind::Native] {
        assert_eq!(stand_type(K::NativeRegulars, q, army), StandType::RegularInfantry);
        assert_eq!(
            default_weapon(K::NativeRegulars, army),
            Some(Weapon::SingleShotRifle)
        );
        assert_eq!(stand_type(K::NativeSpearmen, q, army), StandType::NativeInfantry);
        assert_eq!(default_weapon(K::NativeSpearmen, army), Some(Weapon::HandHeld));
        assert_eq!(stand_type(K::NativeRiflemen, q, army), StandType::NativeInfantry);
        assert_eq!(
            default_weapon(K::NativeRiflemen, army),
            Some(Weapon::SingleShotRifle)
        );
    }
    let n = ArmyKind::Native;
    assert_eq!(stand_type(K::LightCavalry, q, n), StandType::NativeCavalry);
    assert_eq!(move_squares(stand_type(K::LightCavalry, q, n)), 5);
    assert_eq!(stand_type(K::FootArtillery, q, n), StandType::FieldArtillery);
    assert_eq!(
        default_weapon(K::FootArtillery, n),
        Some(Weapon::SmoothBoreFieldGun)
    );
}

#[test]
fn command_quality_sets_the_generals_rating() {
    let general = |q| stand_type(StandKind::Command, q, ArmyKind::Regular);
    assert_eq!(stand_value(general(Quality::Elite)), 3);
    assert_eq!(stand_value(general(Quality::Trained)), 2);
    assert_eq!(stand_value(general(Quality::Raw)), 1);
    assert_eq!(move_squares(general(Quality::Raw)), 4);
}

#[test]
fn kassassin_stands_get_their_types_on_the_table() {
    let s = kassassin();
    let battle = Battle::new(&s, 1, false);
    let of = |id| battle.stand_type_of(StandId(id)).unwrap();
    assert_eq!(of(1), StandType::RegularInfantry);
    assert_eq!(of(7), StandType::GuardInfantry);
    assert_eq!(of(9), StandType::RegularCavalry);
    assert_eq!(of(11), StandType::FieldArtillery);
    assert_eq!(
        of(13),
        StandType::General {
            rating: Generalship::Exceptional,
            mounted: true
        }
    );
    assert_eq!(of(101), StandType::RegularInfantry);
    assert_eq!(of(109), StandType::NativeInfantry);
    assert_eq!(of(112), StandType::NativeCavalry);
}

// ---------------------------------------------------------------------------
// Fire Combat – Additions and Subtractions, each alone.

fn firing(firer: StandType) -> Firing {
    Firing {
        firer,
        command: 0,
        target_adjacent: false,
        target_in_cover: false,
    }
}

#[test]
fn fire_adds_the_stands_value() {
    assert_eq!(fire_score(5, &firing(StandType::RegularInfantry)), 5 + 3);
    assert_eq!(fire_score(5, &firing(StandType::GuardInfantry)), 5 + 4);
    assert_eq!(fire_score(5, &firing(StandType::NativeInfantry)), 5 + 2);
}

#[test]
fn fire_adds_an_adjacent_commands_value() {
    let f = Firing {
        command: 3,
        ..firing(StandType::RegularInfantry)
    };
    assert_eq!(fire_score(5, &f), 5 + 3 + 3);
}

#[test]
fn artillery_firing_at_an_adjacent_enemy_adds_1() {
    let at = |firer| Firing {
        target_adjacent: true,
        ..firing(firer)
    };
    assert_eq!(fire_score(5, &at(StandType::FieldArtillery)), 5 + 2 + 1);
    assert_eq!(fire_score(5, &at(StandType::HeavyArtillery)), 5 + 3 + 1);
    // Not for other stands, and not at a distance.
    assert_eq!(fire_score(5, &at(StandType::MachineGun)), 5 + 2);
    assert_eq!(fire_score(5, &at(StandType::RegularInfantry)), 5 + 3);
    assert_eq!(fire_score(5, &firing(StandType::FieldArtillery)), 5 + 2);
}

#[test]
fn fire_at_an_enemy_behind_a_wall_entrenched_or_in_a_wood_deducts_2() {
    let f = Firing {
        target_in_cover: true,
        ..firing(StandType::RegularInfantry)
    };
    assert_eq!(fire_score(5, &f), 5 + 3 - 2);
}

#[test]
fn the_stand_fired_on_adds_its_value_and_its_command() {
    assert_eq!(fire_target_score(7, StandType::NativeInfantry, 0), 7 + 2);
    assert_eq!(fire_target_score(7, StandType::NativeInfantry, 2), 7 + 2 + 2);
}

#[test]
fn cover_from_fire_is_a_wall_an_entrenchment_a_wood_or_a_town() {
    let cell = |ground, cover| Cell {
        ground,
        level: 0,
        road: false,
        cover,
    };
    assert!(covered_from_fire(&cell(Ground::Open, Some(Cover::WallOrHedge))));
    assert!(covered_from_fire(&cell(Ground::Open, Some(Cover::Entrenchment))));
    assert!(covered_from_fire(&cell(Ground::ForestEdge, None)));
    assert!(covered_from_fire(&cell(Ground::ForestInterior, None)));
    assert!(!covered_from_fire(&cell(Ground::Open, None)));
    // This program's reading: a town's houses are walls.
    assert!(covered_from_fire(&cell(Ground::BuiltUpOuter, None)));
    assert!(covered_from_fire(&cell(Ground::BuiltUpInner, None)));
}

// ---------------------------------------------------------------------------
// Close Combat – Additions and Subtractions, each alone.

fn close(stand: StandType) -> CloseCombat {
    CloseCombat {
        stand,
        command: 0,
        same_type_adjacent: 0,
        same_type_same_square: 0,
        charge: None,
    }
}

fn charging(stand: StandType, charge: Charge) -> CloseCombat {
    CloseCombat {
        charge: Some(charge),
        ..close(stand)
    }
}

#[test]
fn close_combat_adds_the_stands_value() {
    assert_eq!(close_combat_score(6, &close(StandType::GuardInfantry)), 6 + 4);
    assert_eq!(close_combat_score(6, &close(StandType::Transport)), 6 + 1);
}

#[test]
fn close_combat_adds_an_adjacent_commands_value() {
    let c = CloseCombat {
        command: 2,
        ..close(StandType::NativeInfantry)
    };
    assert_eq!(close_combat_score(6, &c), 6 + 2 + 2);
}

#[test]
fn close_combat_adds_1_for_each_friend_of_the_same_type_adjacent() {
    let c = |n| CloseCombat {
        same_type_adjacent: n,
        ..close(StandType::NativeInfantry)
    };
    assert_eq!(close_combat_score(6, &c(1)), 6 + 2 + 1);
    assert_eq!(close_combat_score(6, &c(3)), 6 + 2 + 3);
}

#[test]
fn close_combat_adds_2_for_a_friend_of_the_same_type_in_the_same_square() {
    let c = CloseCombat {
        same_type_same_square: 1,
        ..close(StandType::NativeInfantry)
    };
    assert_eq!(close_combat_score(6, &c), 6 + 2 + 2);
}

#[test]
fn the_initiator_on_the_enemys_flank_or_rear_adds_2() {
    let c = charging(
        StandType::RegularInfantry,
        Charge {
            on_flank_or_rear: true,
            ..Charge::default()
        },
    );
    assert_eq!(close_combat_score(6, &c), 6 + 3 + 2);
}

#[test]
fn cavalry_charging_infantry_or_artillery_in_flat_open_country_adds_3() {
    let c = charging(
        StandType::RegularCavalry,
        Charge {
            cavalry_against_foot_in_open: true,
            ..Charge::default()
        },
    );
    assert_eq!(close_combat_score(6, &c), 6 + 3 + 3);
    // When it applies.
    let cav = StandType::NativeCavalry;
    assert!(cavalry_against_foot(cav, StandType::RegularInfantry, true));
    assert!(cavalry_against_foot(cav, StandType::FieldArtillery, true));
    assert!(!cavalry_against_foot(cav, StandType::RegularInfantry, false));
    assert!(!cavalry_against_foot(cav, StandType::RegularCavalry, true));
    assert!(!cavalry_against_foot(
        StandType::RegularInfantry,
        StandType::RegularInfantry,
        true
    ));
    let open = Cell::default();
    let hill = Cell { level: 1, ..open };
    let wood = Cell {
        ground: Ground::ForestEdge,
        ..open
    };
    assert!(flat_open(&open, &open));
    assert!(!flat_open(&open, &hill));
    assert!(!flat_open(&open, &wood));
}

#[test]
fn the_initiator_downhill_of_the_enemy_deducts_2() {
    let c = charging(
        StandType::RegularInfantry,
        Charge {
            downhill: true,
            ..Charge::default()
        },
    );
    assert_eq!(close_combat_score(6, &c), 6 + 3 - 2);
}

#[test]
fn charging_an_enemy_behind_a_wall_or_entrenched_deducts_2() {
    let c = charging(
        StandType::RegularInfantry,
        Charge {
            enemy_behind_wall_or_entrenched: true,
            ..Charge::default()
        },
    );
    assert_eq!(close_combat_score(6, &c), 6 + 3 - 2);
    let wall = Cell {
        cover: Some(Cover::WallOrHedge),
        ..Cell::default()
    };
    let trench = Cell {
        cover: Some(Cover::Entrenchment),
        ..Cell::default()
    };
    let wood = Cell {
        ground: Ground::ForestEdge,
        ..Cell::default()
    };
    assert!(behind_wall_or_entrenched(&wall));
    assert!(behind_wall_or_entrenched(&trench));
    assert!(!behind_wall_or_entrenched(&wood));
}

#[test]
fn all_the_additions_and_subtractions_add_up() {
    let c = CloseCombat {
        stand: StandType::RegularCavalry,
        command: 3,
        same_type_adjacent: 2,
        same_type_same_square: 1,
        charge: Some(Charge {
            on_flank_or_rear: true,
            cavalry_against_foot_in_open: true,
            downhill: true,
            enemy_behind_wall_or_entrenched: true,
        }),
    };
    assert_eq!(close_combat_score(4, &c), 4 + 3 + 3 + 2 + 2 + 2 + 3 - 2 - 2);
}

// ---------------------------------------------------------------------------
// Combat Results.

#[test]
fn an_initiator_scoring_lower_is_ineffective() {
    assert_eq!(result_of(7, 8), CombatResult::Ineffective);
    assert_eq!(result_of(0, 1), CombatResult::Ineffective);
}

#[test]
fn equal_scores_go_to_a_dice_off() {
    assert_eq!(result_of(9, 9), CombatResult::DiceOff);
}

#[test]
fn an_enemy_scoring_less_but_more_than_half_withdraws() {
    assert_eq!(result_of(10, 9), CombatResult::EnemyWithdraws);
    assert_eq!(result_of(10, 6), CombatResult::EnemyWithdraws);
    // Exactly half is not "less than half".
    assert_eq!(result_of(10, 5), CombatResult::EnemyWithdraws);
}

#[test]
fn an_enemy_scoring_less_than_half_is_destroyed() {
    assert_eq!(result_of(10, 4), CombatResult::EnemyDestroyed);
    assert_eq!(result_of(11, 5), CombatResult::EnemyDestroyed);
    assert_eq!(result_of(5, 0), CombatResult::EnemyDestroyed);
}

// ---------------------------------------------------------------------------
// Facing and arcs.

#[test]
fn the_front_arc_is_90_degrees_about_the_facing() {
    let up = Facing { dx: 0, dy: 1 };
    let o = (5, 5);
    assert!(in_front_arc(up, o, (5, 8)));
    assert!(in_front_arc(up, o, (8, 8)), "the 45° edge is in");
    assert!(in_front_arc(up, o, (6, 7)));
    assert!(!in_front_arc(up, o, (8, 7)), "beyond 45°");
    assert!(!in_front_arc(up, o, (6, 5)));
    assert!(!in_front_arc(up, o, (5, 3)));
    assert!(!in_front_arc(up, o, o));
    let diagonal = Facing { dx: 1, dy: 1 };
    assert!(in_front_arc(diagonal, o, (6, 5)));
    assert!(in_front_arc(diagonal, o, (8, 7)));
    assert!(!in_front_arc(diagonal, o, (7, 4)));
    assert!(in_rear_arc(up, o, (5, 2)));
    assert!(in_rear_arc(up, o, (3, 3)));
    assert!(!in_rear_arc(up, o, (3, 5)));
}

#[test]
fn flank_and_rear_are_outside_the_enemys_front_arc() {
    let down = Facing { dx: 0, dy: -1 };
    let enemy = (5, 5);
    assert!(!on_flank_or_rear(down, enemy, (5, 4)));
    assert!(!on_flank_or_rear(down, enemy, (4, 4)));
    assert!(on_flank_or_rear(down, enemy, (4, 5)));
    assert!(on_flank_or_rear(down, enemy, (6, 6)));
    assert!(on_flank_or_rear(down, enemy, (5, 6)));
}

#[test]
fn stands_face_the_enemy_at_deployment() {
    let s = scenario(9, 9, vec![], vec![infantry(1, (4, 0))], vec![infantry(2, (4, 8))]);
    let b = Battle::new(&s, 1, false);
    assert_eq!(b.facing_of(StandId(1)), Some(Facing { dx: 0, dy: 1 }));
    assert_eq!(b.facing_of(StandId(2)), Some(Facing { dx: 0, dy: -1 }));
}

// ---------------------------------------------------------------------------
// Movement on small tables.

#[test]
fn infantry_moves_two_squares_in_any_direction() {
    let s = scenario(
        12,
        12,
        vec![],
        vec![infantry(1, (5, 5))],
        vec![infantry(2, (0, 11))],
    );
    let b = Battle::new(&s, 1, false);
    let reach = b.reachable(StandId(1));
    assert_eq!(reach.len(), 25);
    assert!(reach.contains(&(7, 7)));
    assert!(!reach.contains(&(8, 5)));
}

#[test]
fn a_move_made_entirely_along_a_road_gains_a_square() {
    let road = Patch {
        road: Some(true),
        ..patch(5, 0, 1, 12)
    };
    let s = scenario(
        12,
        12,
        vec![road],
        vec![infantry(1, (5, 2)), infantry(3, (6, 2))],
        vec![infantry(2, (0, 11))],
    );
    let b = Battle::new(&s, 1, false);
    let on_road = b.reachable(StandId(1));
    assert!(on_road.contains(&(5, 5)), "three squares along the road");
    assert!(
        !on_road.contains(&(6, 5)),
        "not three squares if it leaves the road"
    );
    let off_road = b.reachable(StandId(3));
    assert!(!off_road.contains(&(6, 5)));
    assert!(
        !off_road.contains(&(5, 5)),
        "its move is not entirely along the road"
    );
}

#[test]
fn crossing_a_contour_costs_a_square() {
    let hill = Patch {
        level: Some(1),
        ..patch(0, 4, 12, 4)
    };
    let s = scenario(
        12,
        12,
        vec![hill],
        vec![infantry(1, (5, 2))],
        vec![infantry(2, (0, 11))],
    );
    let b = Battle::new(&s, 1, false);
    let reach = b.reachable(StandId(1));
    assert!(reach.contains(&(5, 3)));
    assert!(!reach.contains(&(5, 4)), "two squares and a contour is three");
    let flat = scenario(
        12,
        12,
        vec![],
        vec![infantry(1, (5, 2))],
        vec![infantry(2, (0, 11))],
    );
    assert!(
        Battle::new(&flat, 1, false)
            .reachable(StandId(1))
            .contains(&(5, 4))
    );
}

#[test]
fn stands_cannot_move_through_enemy_stands() {
    let enemies: Vec<TableStand> = (0..12)
        .map(|x| infantry(100 + x, (i32::try_from(x).unwrap(), 6)))
        .collect();
    let s = scenario(12, 12, vec![], vec![infantry(1, (5, 5))], enemies);
    let b = Battle::new(&s, 1, false);
    let reach = b.reachable(StandId(1));
    assert!(reach.iter().all(|sq| sq.1 < 6), "{reach:?}");
}

#[test]
fn stands_move_through_friends_but_stop_only_where_there_is_room() {
    // A table one square deep: the only way on is through the pair.
    let mut s = scenario(
        12,
        3,
        vec![],
        vec![infantry(1, (5, 0)), infantry(2, (6, 0)), infantry(3, (6, 0))],
        vec![infantry(9, (0, 0))],
    );
    s.table.depth = 1;
    s.sides[0].deployment = area(4, 0, 8, 1);
    s.sides[1].deployment = area(0, 0, 2, 1);
    s.sides[1].stands[1].at = Some((1.5, 0.5));
    let b = Battle::new(&s, 1, false);
    assert_eq!(b.stands_in((6, 0)), 2);
    let reach = b.reachable(StandId(1));
    assert!(!reach.contains(&(6, 0)), "no room for a third stand");
    assert!(reach.contains(&(7, 0)), "it passes through the pair");
}

#[test]
fn no_diagonal_move_between_two_enemies_or_an_enemy_and_an_obstacle() {
    let reaches = |terrain: Vec<Patch>, enemies: Vec<TableStand>| {
        let s = scenario(12, 12, terrain, vec![infantry(1, (5, 5))], enemies);
        Battle::new(&s, 1, false).reachable(StandId(1)).contains(&(6, 6))
    };
    let river = || vec![ground(5, 6, 1, 1, Ground::River)];
    assert!(!reaches(vec![], vec![infantry(2, (6, 5)), infantry(3, (5, 6))]));
    assert!(reaches(vec![], vec![infantry(2, (6, 5))]), "past one enemy alone");
    assert!(
        !reaches(river(), vec![infantry(2, (6, 5))]),
        "between an enemy and an obstacle"
    );
    assert!(
        reaches(river(), vec![infantry(2, (9, 9))]),
        "past an obstacle alone"
    );
}

#[test]
fn artillery_may_not_move_next_to_an_enemy() {
    let gun = stand(1, StandKind::FootArtillery, Some((5, 4)));
    let s = scenario(
        12,
        12,
        vec![],
        vec![gun, infantry(3, (6, 4))],
        vec![infantry(2, (5, 7))],
    );
    let b = Battle::new(&s, 1, false);
    let gun_reach = b.reachable(StandId(1));
    assert!(!gun_reach.contains(&(5, 6)));
    assert!(!gun_reach.contains(&(4, 6)));
    assert!(gun_reach.contains(&(5, 5)));
    assert!(b.reachable(StandId(3)).contains(&(6, 6)), "infantry may");
}

#[test]
fn only_infantry_enter_woods_or_cross_walls_off_the_road() {
    let terrain = vec![
        ground(3, 6, 1, 1, Ground::ForestEdge),
        Patch {
            cover: Some(Cover::WallOrHedge),
            ..patch(7, 6, 1, 1)
        },
    ];
    let horse = |id, at| stand(id, StandKind::HeavyCavalry, Some(at));
    let s = scenario(
        12,
        12,
        terrain,
        vec![
            horse(1, (3, 4)),
            horse(2, (7, 4)),
            infantry(3, (3, 5)),
            infantry(4, (7, 5)),
        ],
        vec![infantry(9, (0, 11))],
    );
    let b = Battle::new(&s, 1, false);
    assert!(!b.reachable(StandId(1)).contains(&(3, 6)));
    assert!(!b.reachable(StandId(2)).contains(&(7, 6)));
    assert!(b.reachable(StandId(3)).contains(&(3, 6)));
    assert!(b.reachable(StandId(4)).contains(&(7, 6)));
}

#[test]
fn no_stand_enters_the_river() {
    let s = scenario(
        12,
        12,
        vec![
            ground(0, 6, 12, 1, Ground::River),
            ground(3, 6, 1, 1, Ground::Ford),
        ],
        vec![infantry(1, (7, 5)), infantry(2, (3, 5))],
        vec![infantry(9, (0, 11))],
    );
    let b = Battle::new(&s, 1, false);
    assert!(b.reachable(StandId(1)).iter().all(|sq| sq.1 < 6));
    assert!(b.reachable(StandId(2)).contains(&(3, 7)), "the ford is passable");
    assert!(!b.reachable(StandId(2)).contains(&(2, 6)));
}

// ---------------------------------------------------------------------------
// At most two stands in a square.

#[test]
fn a_third_stand_set_down_in_a_full_square_goes_next_door() {
    let s = scenario(
        12,
        12,
        vec![],
        vec![infantry(1, (5, 1)), infantry(2, (5, 1)), infantry(3, (5, 1))],
        vec![infantry(9, (0, 11))],
    );
    let b = Battle::new(&s, 1, false);
    assert_eq!(b.stands_in((5, 1)), 2);
    let third = b.square_of(StandId(3)).unwrap();
    assert_ne!(third, (5, 1));
    assert_eq!(squares_apart(third, (5, 1)), 1);
}

#[test]
fn no_square_ever_holds_more_than_two_stands() {
    let mut scenarios = vec![kassassin(), crowd()];
    scenarios.push(mirror());
    for s in &scenarios {
        for seed in 0..40 {
            let mut b = Battle::new(s, seed, false);
            while !b.is_over() {
                b.play_turn();
                let mut count: BTreeMap<Square, usize> = BTreeMap::new();
                for (_, sq) in b.positions() {
                    *count.entry(sq).or_default() += 1;
                }
                let most = count.values().max().copied().unwrap_or(0);
                assert!(
                    most <= STANDS_PER_SQUARE,
                    "{} seed {seed} turn {}",
                    s.title,
                    b.turn()
                );
                for (sq, n) in count {
                    assert_eq!(b.stands_in(sq), n);
                }
            }
        }
    }
}

/// Many natives packed against a thin line: pairs form.
fn crowd() -> Scenario {
    let natives: Vec<TableStand> = (0..24)
        .map(|k| stand(100 + k, StandKind::NativeSpearmen, None))
        .collect();
    let line: Vec<TableStand> = (0..6)
        .map(|k| stand(k + 1, StandKind::LineInfantry, None))
        .collect();
    let mut s = scenario(12, 12, vec![], natives, line);
    drop_corner_generals(&mut s);
    s.title = "crowd".to_owned();
    s.sides[0].army = ArmyKind::Native;
    s.sides[0].deployment = area(2, 0, 8, 2);
    s
}

// ---------------------------------------------------------------------------
// Withdrawal.

/// A one-square-wide table: the stand at (0, 6) faces up the table toward
/// the enemy at (0, 7); friendly pairs fill the squares behind it.
fn corridor(full_behind: i32) -> Scenario {
    let mut mine = vec![infantry(1, (0, 6))];
    for k in 0..full_behind {
        let id = 10 + 2 * u32::try_from(k).unwrap();
        mine.push(infantry(id, (0, 5 - k)));
        mine.push(infantry(id + 1, (0, 5 - k)));
    }
    let mut s = scenario(1, 12, vec![], mine, vec![infantry(2, (0, 7))]);
    s.sides[0].deployment = area(0, 0, 1, 2);
    s.sides[1].deployment = area(0, 10, 1, 2);
    s
}

#[test]
fn a_withdrawing_stand_goes_back_until_no_enemy_is_next_to_it() {
    let s = corridor(0);
    let b = Battle::new(&s, 1, false);
    assert_eq!(
        b.withdrawal(StandId(1)),
        Withdrawal::To {
            square: (0, 5),
            squares: 1
        }
    );
}

#[test]
fn a_withdrawal_of_four_squares_is_allowed() {
    let s = corridor(3);
    let b = Battle::new(&s, 1, false);
    assert_eq!(b.stands_in((0, 3)), 2);
    assert_eq!(
        b.withdrawal(StandId(1)),
        Withdrawal::To {
            square: (0, 2),
            squares: 4
        }
    );
}

#[test]
fn a_stand_that_must_withdraw_more_than_four_squares_is_destroyed() {
    let s = corridor(4);
    let b = Battle::new(&s, 1, false);
    assert_eq!(b.withdrawal(StandId(1)), Withdrawal::Destroyed);
}

#[test]
fn a_stand_whose_withdrawal_is_blocked_by_an_obstacle_is_destroyed() {
    let river = ground(0, 5, 12, 1, Ground::River);
    let s = scenario(
        12,
        12,
        vec![river],
        vec![infantry(1, (5, 6))],
        vec![infantry(2, (5, 7))],
    );
    assert_eq!(
        Battle::new(&s, 1, false).withdrawal(StandId(1)),
        Withdrawal::Destroyed
    );
    // Woods stop cavalry but not infantry.
    let wood = ground(0, 5, 12, 1, Ground::ForestEdge);
    let s = scenario(
        12,
        12,
        vec![wood],
        vec![
            stand(1, StandKind::HeavyCavalry, Some((5, 6))),
            infantry(3, (9, 6)),
        ],
        vec![infantry(2, (5, 7)), infantry(4, (9, 7))],
    );
    let b = Battle::new(&s, 1, false);
    assert_eq!(b.withdrawal(StandId(1)), Withdrawal::Destroyed);
    assert_eq!(
        b.withdrawal(StandId(3)),
        Withdrawal::To {
            square: (9, 5),
            squares: 1
        }
    );
}

#[test]
fn a_stand_whose_withdrawal_is_blocked_by_enemy_stands_is_destroyed() {
    let enemies = vec![
        infantry(2, (5, 7)),
        infantry(3, (4, 5)),
        infantry(4, (5, 5)),
        infantry(5, (6, 5)),
    ];
    let s = scenario(12, 12, vec![], vec![infantry(1, (5, 6))], enemies);
    assert_eq!(
        Battle::new(&s, 1, false).withdrawal(StandId(1)),
        Withdrawal::Destroyed
    );
}

#[test]
fn a_withdrawal_keeps_to_the_90_degree_arc_to_the_rear() {
    // Straight back is next to an enemy: it goes half left, then on.
    let s = scenario(
        12,
        12,
        vec![],
        vec![infantry(1, (5, 6))],
        vec![infantry(2, (5, 7)), infantry(3, (5, 4))],
    );
    let b = Battle::new(&s, 1, false);
    let Withdrawal::To { square, squares } = b.withdrawal(StandId(1)) else {
        panic!("it can withdraw");
    };
    assert_eq!(squares, 2);
    assert!(in_rear_arc(Facing { dx: 0, dy: 1 }, (5, 6), square), "{square:?}");
    assert_eq!(square, (3, 4));
}

// ---------------------------------------------------------------------------
// The combat factors read off the table.

#[test]
fn an_adjacent_general_adds_his_value_to_fire() {
    let mut general = stand(5, StandKind::Command, Some((4, 5)));
    general.quality = Quality::Elite;
    let s = scenario(
        12,
        12,
        vec![],
        vec![infantry(1, (5, 5)), infantry(3, (8, 5)), general],
        vec![infantry(2, (5, 7)), infantry(4, (8, 7))],
    );
    let b = Battle::new(&s, 1, false);
    let (near, _) = b.fire_factors(StandId(1), StandId(2)).unwrap();
    assert_eq!(near.command, 3);
    let (far, _) = b.fire_factors(StandId(3), StandId(4)).unwrap();
    assert_eq!(far.command, 0);
}

#[test]
fn fire_factors_see_artillery_at_point_blank_and_cover() {
    let wood = ground(5, 6, 1, 1, Ground::ForestEdge);
    let s = scenario(
        12,
        12,
        vec![wood],
        vec![
            stand(1, StandKind::FootArtillery, Some((5, 5))),
            infantry(3, (8, 5)),
        ],
        vec![infantry(2, (5, 6)), infantry(4, (8, 7))],
    );
    let b = Battle::new(&s, 1, false);
    let (gun, _) = b.fire_factors(StandId(1), StandId(2)).unwrap();
    assert!(gun.target_adjacent && gun.target_in_cover);
    assert_eq!(fire_score(6, &gun), 6 + 2 + 1 - 2);
    let (rifle, _) = b.fire_factors(StandId(3), StandId(4)).unwrap();
    assert!(!rifle.target_adjacent && !rifle.target_in_cover);
}

#[test]
fn close_combat_factors_see_support_flank_slope_and_cover() {
    // Blue faces down the table (toward red); red's stand 1 comes at it from
    // the side, uphill of nothing, with friends of its type around it.
    let terrain = vec![
        Patch {
            level: Some(1),
            ..patch(6, 6, 1, 1)
        },
        Patch {
            cover: Some(Cover::Entrenchment),
            ..patch(6, 6, 1, 1)
        },
    ];
    let s = scenario(
        12,
        12,
        terrain,
        vec![
            infantry(1, (5, 6)),
            infantry(3, (4, 6)),
            infantry(4, (5, 5)),
            infantry(5, (5, 6)),
            stand(6, StandKind::HeavyCavalry, Some((4, 7))),
        ],
        vec![infantry(2, (6, 6)), infantry(7, (7, 6)), infantry(8, (7, 7))],
    );
    let b = Battle::new(&s, 1, false);
    let (mine, theirs) = b.close_combat_factors(StandId(1), StandId(2)).unwrap();
    assert_eq!(mine.same_type_adjacent, 2, "stands 3 and 4; not the cavalry");
    assert_eq!(mine.same_type_same_square, 1, "stand 5 behind it");
    let charge = mine.charge.unwrap();
    assert!(charge.on_flank_or_rear);
    assert!(charge.downhill);
    assert!(charge.enemy_behind_wall_or_entrenched);
    assert!(!charge.cavalry_against_foot_in_open);
    assert_eq!(theirs.same_type_adjacent, 2);
    assert_eq!(theirs.charge, None);
}

#[test]
fn a_trench_shelters_the_defenders_stand_not_the_attacker_come_into_it() {
    // Two trench squares: red (attacking) has come into the left one, blue
    // (defending) holds the right one.
    let trench = |x: u32| Patch {
        cover: Some(Cover::Entrenchment),
        ..patch(x, 6, 1, 1)
    };
    let s = scenario(
        12,
        12,
        vec![trench(5), trench(8)],
        vec![infantry(1, (5, 6)), infantry(3, (8, 5))],
        vec![infantry(2, (5, 7)), infantry(4, (8, 6))],
    );
    let b = Battle::new(&s, 1, false);
    let (at_attacker, _) = b.fire_factors(StandId(2), StandId(1)).unwrap();
    assert!(
        !at_attacker.target_in_cover,
        "the attacker stands before the parapet"
    );
    let (at_defender, _) = b.fire_factors(StandId(3), StandId(4)).unwrap();
    assert!(at_defender.target_in_cover, "the defender behind it");
    let (mine, _) = b.close_combat_factors(StandId(2), StandId(1)).unwrap();
    assert!(!mine.charge.unwrap().enemy_behind_wall_or_entrenched);
    let (mine, _) = b.close_combat_factors(StandId(3), StandId(4)).unwrap();
    assert!(mine.charge.unwrap().enemy_behind_wall_or_entrenched);
}

#[test]
fn cavalry_charging_infantry_in_the_open_gets_its_bonus_on_the_table() {
    let s = scenario(
        12,
        12,
        vec![],
        vec![stand(1, StandKind::HeavyCavalry, Some((5, 5)))],
        vec![infantry(2, (5, 6))],
    );
    let b = Battle::new(&s, 1, false);
    let (mine, _) = b.close_combat_factors(StandId(1), StandId(2)).unwrap();
    let charge = mine.charge.unwrap();
    assert!(charge.cavalry_against_foot_in_open);
    assert!(!charge.on_flank_or_rear, "it comes at the front");
    assert_eq!(close_combat_score(1, &mine), 1 + 3 + 3);
}

// ---------------------------------------------------------------------------
// Whole battles.

#[test]
fn the_battle_lasts_at_most_twelve_turns() {
    // The river keeps them apart: nothing decides the battle early.
    let river = ground(0, 6, 18, 1, Ground::River);
    let mut s = scenario(
        18,
        12,
        vec![river],
        vec![infantry(1, (5, 1))],
        vec![infantry(2, (5, 10))],
    );
    s.turn_limit = 40;
    let outcome = umpire::rules::fight(&s, RuleSetId::Cordery2009, 3).unwrap();
    assert_eq!(outcome.turns, 12);
    assert!(outcome.log.iter().all(|l| l.turn <= 12));
    s.turn_limit = 5;
    let outcome = umpire::rules::fight(&s, RuleSetId::Cordery2009, 3).unwrap();
    assert_eq!(outcome.turns, 5);
    for seed in 0..20 {
        assert!(
            umpire::rules::fight(&kassassin(), RuleSetId::Cordery2009, seed)
                .unwrap()
                .turns
                <= 12
        );
    }
}

#[test]
fn the_battle_ends_when_a_side_breaks_or_has_nothing_left() {
    let mut ended_early = 0;
    for seed in 0..60 {
        let o = umpire::rules::fight(&mismatch(), RuleSetId::Cordery2009, seed).unwrap();
        // (points brought on, points standing) of a side.
        let points = |side: &str| {
            let engaged = o
                .stands
                .iter()
                .filter(|s| s.side == side && s.fate != Fate::NotEngaged);
            engaged.fold((0u64, 0u64), |(before, after), s| {
                let standing = if s.fate == Fate::Stood {
                    s.strength_after
                } else {
                    0
                };
                (before + u64::from(s.strength_before), after + u64::from(standing))
            })
        };
        if o.turns < 12 {
            ended_early += 1;
            // The side that lost more of its points than its resolve allows
            // (or has nothing standing) broke, and lost.
            let loser = match o.winner.as_deref() {
                Some("red") => ("blue", 1),
                Some("blue") => ("red", 0),
                other => panic!("seed {seed}: a battle ended early has a winner, not {other:?}"),
            };
            let (before, standing) = points(loser.0);
            assert!(
                standing == 0 || o.resolve.broken(loser.1, before, standing),
                "seed {seed}: ended on turn {} with {} holding {standing} of {before} points, its resolve {}",
                o.turns,
                loser.0,
                o.resolve.of(loser.1)
            );
        }
    }
    assert!(ended_early > 0, "some battles end before the twelfth turn");
}

/// (turn, initiating stand name) for each combat in the log.
fn initiations(log: &[umpire::rules::LogLine]) -> Vec<(u32, String)> {
    log.iter()
        .filter_map(|l| {
            let at = l.text.find(" fires on ").or_else(|| l.text.find(" charges "))?;
            Some((l.turn, l.text[..at].to_owned()))
        })
        .collect()
}

#[test]
fn a_stand_initiates_combat_at_most_once_a_turn() {
    let mut combats = 0;
    for s in [kassassin(), mirror(), crowd()] {
        for seed in 0..30 {
            let o = umpire::rules::fight(&s, RuleSetId::Cordery2009, seed).unwrap();
            let mut seen = std::collections::BTreeSet::new();
            for (turn, who) in initiations(&o.log) {
                combats += 1;
                assert!(
                    seen.insert((turn, who.clone())),
                    "{who} twice on turn {turn} (seed {seed})"
                );
            }
        }
    }
    assert!(combats > 100);
}

#[test]
fn each_side_activates_no_more_than_its_d12_allows() {
    for seed in 0..30 {
        let o = umpire::rules::fight(&kassassin(), RuleSetId::Cordery2009, seed).unwrap();
        for turn in 1..=o.turns {
            let lines: Vec<&str> = o
                .log
                .iter()
                .filter(|l| l.turn == turn)
                .map(|l| l.text.as_str())
                .collect();
            // The generals' plans come first, before the first turn's throws.
            let plan = |l: &&&str| {
                l.contains(" attacks ") || l.contains(" holds forward") || l.contains(" holds back")
            };
            assert!(
                lines
                    .iter()
                    .find(|l| !plan(l))
                    .unwrap()
                    .contains("has the initiative"),
                "{lines:?}"
            );
            let throws: Vec<u32> = lines
                .iter()
                .filter_map(|l| l.split(" throws ").nth(1))
                .map(|rest| rest.split(':').next().unwrap().parse().unwrap())
                .collect();
            assert_eq!(throws.len(), 2, "both sides throw on turn {turn}");
            assert!(throws.iter().all(|t| (1..=12).contains(t)));
            // Stands acting (moving or initiating) never outnumber twice the
            // throws (each activation may be a pair).
            let acting: std::collections::BTreeSet<&str> = lines
                .iter()
                .filter_map(|l| {
                    [" moves from ", " fires on ", " charges "]
                        .iter()
                        .find_map(|w| l.find(w).map(|at| &l[..at]))
                })
                .collect();
            let allowed = usize::try_from(throws.iter().sum::<u32>()).unwrap() * 2;
            assert!(
                acting.len() <= allowed,
                "turn {turn}: {} acting, throws {throws:?}",
                acting.len()
            );
        }
    }
}

#[test]
fn destroyed_stands_end_at_strength_0_and_the_rest_keep_theirs() {
    let o = umpire::rules::fight(&kassassin(), RuleSetId::Cordery2009, 11).unwrap();
    assert_eq!(o.stands.len(), 13 + 16);
    for s in &o.stands {
        match s.fate {
            Fate::Destroyed => assert_eq!(s.strength_after, 0),
            Fate::Stood => assert_eq!(s.strength_after, s.strength_before),
            other => panic!("unexpected fate {other:?}"),
        }
    }
    assert!(o.stands.iter().any(|s| s.fate == Fate::Destroyed));
}

#[test]
fn a_side_without_a_command_stand_is_given_an_average_general() {
    let s = mirror();
    let mut bare = s.clone();
    bare.sides[1].stands.retain(|t| t.kind != StandKind::Command);
    let o = umpire::rules::fight(&bare, RuleSetId::Cordery2009, 4).unwrap();
    let line = o
        .log
        .iter()
        .find(|l| l.text.contains("has no Command stand"))
        .expect("the log says so");
    assert!(line.text.starts_with("The blue"));
    assert!(line.text.contains("Average General"));
    assert_eq!(
        o.stands.len(),
        13 + 12,
        "the umpire's General is not a campaign stand"
    );
    let b = Battle::new(&bare, 4, false);
    assert_eq!(b.positions().iter().filter(|(id, _)| id.is_none()).count(), 1);
    let with = umpire::rules::fight(&s, RuleSetId::Cordery2009, 4).unwrap();
    assert!(!with.log.iter().any(|l| l.text.contains("has no Command stand")));
}

#[test]
fn reserves_come_on_at_their_turn_or_are_not_engaged() {
    let mut s = mirror();
    s.sides[0].reserves.push(Reserve {
        turn: 3,
        area: area(0, 0, 3, 2),
        stands: vec![stand(50, StandKind::LineInfantry, None)],
    });
    s.sides[0].reserves.push(Reserve {
        turn: 99,
        area: area(0, 0, 3, 2),
        stands: vec![stand(51, StandKind::LineInfantry, None)],
    });
    let mut b = Battle::new(&s, 2, false);
    b.play_turn();
    b.play_turn();
    assert_eq!(b.square_of(StandId(50)), None);
    b.play_turn();
    let at = b.square_of(StandId(50)).expect("on the table on turn 3");
    assert!(area(0, 0, 3, 2).contains(f64::from(at.0) + 0.5, f64::from(at.1) + 0.5));
    let o = umpire::rules::fight(&s, RuleSetId::Cordery2009, 2).unwrap();
    let late = o.stands.iter().find(|r| r.id == StandId(51)).unwrap();
    assert_eq!(late.fate, Fate::NotEngaged);
    assert_eq!(late.strength_after, late.strength_before);
    assert!(o.log.iter().any(|l| l.turn == 3 && l.text.contains("comes on")));
}

#[test]
fn the_attacker_makes_for_the_objective() {
    let mut s = mirror();
    s.objectives.push(Objective {
        name: "The well".to_owned(),
        kind: ObjectiveKind::Hq,
        x: 9,
        y: 6,
    });
    let mut b = Battle::new(&s, 8, false);
    let distance = |b: &Battle| -> i32 {
        (1..=8)
            .filter_map(|id| b.square_of(StandId(id)))
            .map(|sq| squares_apart(sq, (9, 6)))
            .sum()
    };
    let before = distance(&b);
    b.play_turn();
    b.play_turn();
    let after = distance(&b);
    assert!(
        after < before,
        "red's infantry closed on the objective ({after} >= {before})"
    );
}

// ---------------------------------------------------------------------------
// The odds.

/// Not a test of the rules: how long 1,000 battles take (run with
/// `cargo test --release --test rules_cordery -- --ignored --nocapture`).
#[test]
#[ignore = "a timing, for release builds"]
fn time_odds_of_a_thousand_battles() {
    let s = kassassin();
    let start = std::time::Instant::now();
    let odds = umpire::rules::odds(&s, RuleSetId::Cordery2009, 1000, 1).unwrap();
    let took = start.elapsed();
    println!("odds(1000) on kassassin_bridge.json: {took:?}");
    for side in &odds.sides {
        println!("  {} wins {:.3}", side.name, side.wins.share);
    }
    let s = mirror_twenty();
    let start = std::time::Instant::now();
    umpire::rules::odds(&s, RuleSetId::Cordery2009, 1000, 1).unwrap();
    println!("odds(1000), 20 stands a side: {:?}", start.elapsed());
}

/// Twenty stands a side.
fn mirror_twenty() -> Scenario {
    let army = |base: u32| -> Vec<TableStand> {
        let mut v: Vec<TableStand> = (0..14)
            .map(|k| stand(base + k, StandKind::LineInfantry, None))
            .collect();
        v.extend((14..17).map(|k| stand(base + k, StandKind::HeavyCavalry, None)));
        v.extend((17..19).map(|k| stand(base + k, StandKind::FootArtillery, None)));
        v.push(stand(base + 19, StandKind::Command, None));
        v
    };
    let mut s = scenario(18, 12, vec![], army(1), army(101));
    drop_corner_generals(&mut s);
    s.sides[0].deployment = area(2, 0, 14, 3);
    s.sides[1].deployment = area(2, 9, 14, 3);
    s.sides[1].army = ArmyKind::Native;
    s
}

// ---------------------------------------------------------------------------
// The generals' doctrine and the last word.

/// Whether side `side`'s general drew a cautious plan (from the log).
fn cautious(o: &umpire::rules::Outcome, name: &str) -> bool {
    o.log
        .iter()
        .any(|l| l.text.starts_with(name) && l.text.contains("cautiously"))
}

#[test]
fn a_steady_or_bold_general_sets_his_infantry_down_in_pairs_a_cautious_one_in_a_line() {
    let s = mirror();
    let (mut paired, mut single) = (0, 0);
    for seed in 0..30 {
        let b = Battle::new(&s, seed, true);
        let squares: Vec<(Square, u32)> = b
            .positions()
            .into_iter()
            .filter_map(|(id, sq)| id.map(|id| (sq, id.0)))
            .collect();
        let o = Cordery2009.fight(&s, seed, true);
        for (name, ids) in [("The red", 1..=8), ("The blue", 101..=108)] {
            let infantry: Vec<Square> = squares
                .iter()
                .filter(|(_, id)| ids.contains(id))
                .map(|(sq, _)| *sq)
                .collect();
            let shared = infantry
                .iter()
                .filter(|sq| infantry.iter().filter(|o| o == sq).count() == 2)
                .count();
            if cautious(&o, name) {
                assert_eq!(shared, 0, "seed {seed}: {name}'s cautious general keeps a line");
                single += 1;
            } else {
                assert_eq!(shared, 8, "seed {seed}: {name}'s infantry stand in four pairs");
                paired += 1;
            }
        }
    }
    assert!(paired > 0 && single > 0, "both plans were drawn");
}

#[test]
fn a_pair_moves_as_one_activation_and_keeps_together() {
    let s = mirror();
    let mut pairs = 0;
    for seed in 0..20 {
        let o = Cordery2009.fight(&s, seed, true);
        if cautious(&o, "The red") {
            continue;
        }
        // The first turn's moves of red's infantry come two by two: the
        // two stands leaving a square together go to the same square. (A
        // stand whose mate was fired on and withdrew before it moved goes
        // alone.)
        let moves: Vec<&str> = o
            .log
            .iter()
            .filter(|l| l.turn == 1 && l.text.starts_with("line infantry") && l.text.contains(" moves from "))
            .map(|l| l.text.as_str())
            .collect();
        let from = |t: &str| {
            t.split(" moves from ")
                .nth(1)
                .and_then(|r| r.split(" to ").next())
                .unwrap_or("")
                .to_owned()
        };
        let to = |t: &str| t.rsplit(" to ").next().unwrap_or("").to_owned();
        let mut k = 0;
        while k < moves.len() {
            let a = moves[k];
            match moves.get(k + 1) {
                Some(b) if from(a) == from(b) => {
                    assert_eq!(to(a), to(b), "seed {seed}: {a} / {b}");
                    pairs += 1;
                    k += 2;
                }
                _ => k += 1,
            }
        }
    }
    assert!(pairs > 0, "pairs moved");
}

#[test]
fn the_defender_marches_to_posts_on_the_objective() {
    let mut s = mirror();
    s.objectives.push(Objective {
        name: "The well".to_owned(),
        kind: ObjectiveKind::Hq,
        x: 9,
        y: 6,
    });
    let mut b = Battle::new(&s, 3, false);
    let distance = |b: &Battle| -> i32 {
        (101..=108)
            .filter_map(|id| b.square_of(StandId(id)))
            .map(|sq| squares_apart(sq, (9, 6)))
            .sum()
    };
    let before = distance(&b);
    b.play_turn();
    b.play_turn();
    let after = distance(&b);
    assert!(
        after < before,
        "blue's infantry went forward to hold the objective ({after} >= {before})"
    );
}

#[test]
fn at_the_last_turn_even_losses_go_to_the_generals_throw_off() {
    // Two small forces too far apart to fight in one turn: neither loses a
    // point, and the throw-off says who withdraws.
    let mut s = mirror();
    s.turn_limit = 1;
    let mut held = [0; 2];
    for seed in 0..40 {
        let o = Cordery2009.fight(&s, seed, false);
        let word = o.last_word.clone().expect("a last word at the turn limit");
        let w = word.holds.expect("one side holds");
        held[w] += 1;
        assert!(word.why.contains("the Generals throw"), "{}", word.why);
        assert_eq!(o.winner.as_deref(), Some(s.sides[w].id.as_str()));
    }
    assert!(
        held[0] > 5 && held[1] > 5,
        "either side may win the throw: {held:?}"
    );
    assert!(Cordery2009.last_word_rule().is_some());
}

#[test]
fn a_battle_decided_before_the_last_turn_has_no_last_word() {
    let s = mismatch();
    for seed in 0..10 {
        let o = Cordery2009.fight(&s, seed, false);
        if o.turns < 12 {
            assert!(o.last_word.is_none(), "seed {seed}: {}", o.verdict);
        }
    }
}

#[test]
fn a_town_is_cover_in_close_combat_too() {
    let cell = |ground| Cell {
        ground,
        level: 0,
        road: false,
        cover: None,
    };
    assert!(behind_wall_or_entrenched(&cell(Ground::BuiltUpOuter)));
    assert!(behind_wall_or_entrenched(&cell(Ground::BuiltUpInner)));
    assert!(!behind_wall_or_entrenched(&cell(Ground::Open)));
}

/// The square in a log line's "... to (x, y)." ending.
fn square_after_to(line: &str) -> Option<(i32, i32)> {
    let tail = line.rsplit(" to (").next()?;
    let inner = tail.trim_end_matches('.').trim_end_matches(')');
    let mut parts = inner.split(", ");
    Some((parts.next()?.parse().ok()?, parts.next()?.parse().ok()?))
}

/// The lines of side `side`'s phase in turn `turn`: those after its throw
/// for activations, up to the other side's throw or the turn's end.
fn phase_of<'a>(o: &'a umpire::rules::Outcome, side: &str, turn: u32) -> Vec<&'a str> {
    o.log
        .iter()
        .filter(|l| l.turn == turn)
        .map(|l| l.text.as_str())
        .skip_while(|t| !(t.starts_with(side) && t.contains(" throws ")))
        .skip(1)
        .take_while(|t| !t.contains(" throws "))
        .collect()
}

#[test]
fn a_general_within_the_enemys_reach_moves_out_of_it_before_his_stands_act() {
    // Red's General stands four squares from blue's cavalry (which could
    // move four and charge him); his infantry is two squares behind him.
    let mut s = scenario(
        12,
        12,
        vec![],
        vec![
            infantry(1, (5, 3)),
            infantry(2, (6, 3)),
            stand(3, StandKind::Command, Some((5, 5))),
        ],
        vec![stand(101, StandKind::HeavyCavalry, Some((5, 9)))],
    );
    drop_corner_generals(&mut s);
    let mut checked = 0;
    for seed in 0..30 {
        let o = Cordery2009.fight(&s, seed, true);
        let red_first = o
            .log
            .iter()
            .any(|l| l.turn == 1 && l.text.starts_with("The red has the initiative"));
        if !red_first {
            continue;
        }
        let phase = phase_of(&o, "The red", 1);
        let first = phase.first().copied().unwrap_or("");
        assert!(
            first.starts_with("command 3 moves from (5, 5)"),
            "seed {seed}: the General acts first: {phase:?}"
        );
        let to = square_after_to(first).unwrap();
        assert!(
            squares_apart(to, (5, 9)) > 6,
            "seed {seed}: out of the cavalry's reach: {first}"
        );
        assert!(
            squares_apart(to, (5, 3)) <= 1 || squares_apart(to, (6, 3)) <= 1,
            "seed {seed}: next to his infantry: {first}"
        );
        checked += 1;
    }
    assert!(checked > 0, "red had the initiative in some battle");
}

#[test]
fn a_defender_with_nothing_in_range_steps_up_a_square_to_fire() {
    // Blue's rifles (3 squares) hold where the scenario puts them, four
    // squares from red's.
    let s = scenario(
        12,
        12,
        vec![],
        vec![infantry(1, (5, 4))],
        vec![infantry(101, (5, 8))],
    );
    let mut checked = 0;
    for seed in 0..30 {
        let o = Cordery2009.fight(&s, seed, true);
        let blue_first = o
            .log
            .iter()
            .any(|l| l.turn == 1 && l.text.starts_with("The blue has the initiative"));
        if !blue_first {
            continue;
        }
        let phase = phase_of(&o, "The blue", 1);
        let step = phase
            .iter()
            .position(|t| t.starts_with("line infantry 101 moves from (5, 8)"))
            .unwrap_or_else(|| panic!("seed {seed}: the defender steps up: {phase:?}"));
        let to = square_after_to(phase[step]).unwrap();
        assert_eq!(squares_apart(to, (5, 8)), 1, "seed {seed}: one square: {phase:?}");
        assert!(
            phase
                .get(step + 1)
                .is_some_and(|t| t.starts_with("line infantry 101 fires on line infantry 1 at 3 squares")),
            "seed {seed}: and fires: {phase:?}"
        );
        checked += 1;
    }
    assert!(checked > 0, "blue had the initiative in some battle");
}

#[test]
fn attacking_foot_in_range_come_on_and_then_fire() {
    // Red's rifles (3 squares) attack blue's, already in range of them:
    // they move toward their goal and then fire, rather than halt where
    // the enemy first came in range.
    let s = scenario(
        12,
        12,
        vec![],
        vec![infantry(1, (5, 4))],
        vec![infantry(101, (5, 7))],
    );
    let mut checked = 0;
    for seed in 0..30 {
        let o = Cordery2009.fight(&s, seed, true);
        let red_first = o
            .log
            .iter()
            .any(|l| l.turn == 1 && l.text.starts_with("The red has the initiative"));
        if !red_first {
            continue;
        }
        let phase = phase_of(&o, "The red", 1);
        let step = phase
            .iter()
            .position(|t| t.starts_with("line infantry 1 moves from (5, 4)"))
            .unwrap_or_else(|| panic!("seed {seed}: the attacker comes on: {phase:?}"));
        let to = square_after_to(phase[step]).unwrap();
        assert!(
            squares_apart(to, (5, 7)) < 3,
            "seed {seed}: closer to the enemy: {phase:?}"
        );
        assert!(
            phase
                .get(step + 1)
                .is_some_and(|t| t.starts_with("line infantry 1 fires on line infantry 101")),
            "seed {seed}: and fires: {phase:?}"
        );
        checked += 1;
    }
    assert!(checked > 0, "red had the initiative in some battle");
}
