//! `cordery-2009`: Bob Cordery's grid rules for the late 19th and early 20th
//! centuries (`cordery-2009-late-19th-century-rules.txt`).
//!
//! A battle of at most twelve turns on a grid of squares. Each turn both
//! sides throw a D12 for the initiative (ties thrown again); the side with it
//! throws a D12 for the number of stands, or pairs of stands sharing a
//! square, it may activate, and activates them; then the other side does the
//! same. An activated stand moves and then fights, or fights and then moves.
//! Fire and close combat are one stand against one: each throws a D12, adds
//! and subtracts, and the scores decide: the enemy withdraws or is destroyed,
//! or nothing happens. Stands have no strength points: a stand stands or is
//! destroyed.
//!
//! # The campaign's stands as Cordery's
//!
//! | campaign stand (`StandKind`) | army | Cordery's type (value, move) | weapon (range) |
//! |---|---|---|---|
//! | line, light, grenadier infantry | regular | Regular Infantry (3, 2) | magazine rifle (3) |
//! | line, light, grenadier infantry | native | Regular Infantry (3, 2) | single-shot rifle (2) |
//! | guard infantry | regular | Guard Infantry (4, 2) | magazine rifle (3) |
//! | guard infantry | native | Guard Infantry (4, 2) | single-shot rifle (2) |
//! | native regulars | either | Regular Infantry (3, 2): drilled regulars | single-shot rifle (2) |
//! | native riflemen | either | Native Infantry (2, 3) | single-shot rifle (2) |
//! | native spearmen | either | Native Infantry (2, 3) | hand-held weapons (1) |
//! | heavy, light cavalry; mounted infantry | regular | Regular Cavalry (3, 4) | single-shot carbine (2) |
//! | heavy, light cavalry; mounted infantry | native | Native Cavalry (2, 5) | single-shot carbine (2) |
//! | foot, horse artillery | regular | Field Artillery (2, 2) | rifled field gun (6) |
//! | foot, horse artillery | native | Field Artillery (2, 2) | smooth-bore field gun (5) |
//! | machine gun | either | Machine Gun (2, 2) | machine gun (4) |
//! | transport | either | Transport (1, 2) | none |
//! | command | either | mounted General: elite Exceptional (3), trained Average (2), raw Poor (1); moves 4 | none |
//!
//! A stand's `weapon`, when the scenario gives one, overrides the weapon
//! above. Mounted infantry ride as Regular Cavalry. A side with no command
//! stand at all is given an Average General behind the centre of its line
//! ("Each side's army must have a Command stand", ARMIES); the log says so.
//! He is not a campaign stand and is not in the results.
//!
//! Results: a destroyed stand ends at strength 0 (`Fate::Destroyed`); a
//! stand still on the table keeps its strength (`Fate::Stood`); a reserve
//! that never came on is `Fate::NotEngaged`. Reserves come on at the start
//! of their turn in their area, and do not act that turn.
//!
//! # Readings of the seed
//!
//! - Facing: each stand faces one of the eight directions of the grid: at
//!   deployment toward the enemy's side of the table; after a move, the way
//!   it moved; after initiating a combat, toward the enemy it engaged. A
//!   stand that turns to face a target and fires has used its move on the
//!   turn. Two stands in a square face the same way. The 90° arc to the front
//!   takes in the squares within 45° of the facing, its edges included; a
//!   stand outside an enemy's front arc is on its flank or rear.
//! - Only the front stand of a pair may be fired on or charged; the stand
//!   behind supports it in close combat (note ix) with the "+2 for a stand of
//!   the same type in the same square".
//! - "Same type" is Cordery's type of stand (Regular Infantry, Native
//!   Infantry, ...), the list of STAND VALUES.
//! - A Command stand's value counts for stands in the squares adjacent to
//!   his, in fire and close combat alike, for the initiator and the enemy.
//!   In fire combat the enemy adds its value and its Generals; the other
//!   additions and subtractions are the firing stand's.
//! - Machine Guns are not Artillery (the seed lists them apart): no +1 at an
//!   adjacent target, free to move next to the enemy, and cavalry get no +3
//!   against them.
//! - "Inside a wood" is a forest square, edge or interior; "behind a wall"
//!   is a square with a wall or hedge; a built-up square is behind walls too
//!   (the seed names no towns: a village's houses are walls), for fire and
//!   close combat alike. "Flat, open country": both squares open ground with no
//!   cover, on the same level. "Downhill": on a lower level than the enemy.
//! - Obstacles (note viii) are walls and hedges, entrenchments, rivers and
//!   fords; the river itself cannot be entered, bridges and fords can.
//!   Stands other than infantry enter woods and walled squares only along a
//!   road. Crossing a contour costs a square going up or down.
//! - Withdrawal: at least one square, each step straight back or half left
//!   or right of it, to the first square with room and no enemy stand next
//!   to it; a step the stand could not make in a move (an enemy stand, an
//!   obstacle it may not cross, water, the table's edge) blocks it. More than
//!   four squares, or no way at all: destroyed. A withdrawing stand keeps its
//!   facing. The artillery's "not next to the enemy" does not bind a forced
//!   withdrawal.
//! - Combat results: an enemy score of exactly half the initiator's is not
//!   "less than half", so the enemy withdraws. In the throw-off after equal
//!   scores, equal throws are thrown again (as note vii for the initiative).
//!
//! # Where the seed is silent, and what this program does
//!
//! The generals (`conduct.rs`) follow the shared doctrine with a plan drawn
//! by dice (`doctrine::Plan`: how boldly their stands charge, bolder late in
//! the day). A steady or bold general sets his infantry and cavalry down in
//! pairs, two stands of a type to a square: a pair costs one activation
//! ("the number of stands – or pairs of stands that are sharing the same
//! square – they may activate", TURN SEQUENCE), moves as one, and charges
//! with the stand behind in support (note ix: "+2 for each friendly stand of
//! the same type that is in the same square"); pairs look for a charge
//! before they fire. A cautious general keeps every stand in the line, all
//! its rifles firing. The defender posts its stands on and about the
//! objective it guards (`doctrine::posts`), marches to them and holds them;
//! a destroyed stand's post passes to the stand posted farthest back. The
//! attacker may move into range and fire in one activation (ACTIVATION:
//! "it can move and then engage in combat"), and its foot with ground
//! still to cover to their goal come on and then fire even when already
//! in range, so long as they still have a target once moved (the seed's
//! fire does not weaken with range; a line that halts at the first enemy
//! in range stands off until the twelfth turn); so may the defender: a
//! defending stand with nothing in range steps up a square from its post
//! to bring the enemy under its fire, rather than wait to be shot at first
//! every time the enemy closes. A stand that moves back or across its
//! side's front halts facing that front (a stand moves facing the way it
//! goes, and the seed's fire is "within a 90° arc to the front"): a line
//! stepping back to its posts can still fire and meet a charge face on. The
//! General keeps next to his stands (his value is added to theirs in fire
//! and close combat) but out of the reach of enemy stands that could fire
//! on him or charge him in their next activation; within it, he is the
//! first of his side to act, and moves out.
//!
//! The end: the battle lasts twelve turns at most (TURN SEQUENCE) and ends
//! sooner when an army breaks (the core's resolve). The seed names no
//! victory conditions: the objectives decide, as under every rule set, and
//! when they do not and the two armies' losses are even (their shares within
//! `CLEAR_MARGIN` of each other) the seed's rule for equal scores has the
//! last word: "If both stands' final scores are equal, each stand throws a
//! D12 and the stand with the lowest score must withdraw" (COMBAT, Combat
//! Results), thrown by the two Generals, equal throws again (note vii). With
//! uneven losses the judge's margin decides.
//!
//! The doctrine that moves both sides is in `conduct.rs`. The squares a
//! stand can reach are searched in `bits.rs`, a row of squares at a time on
//! the going and the stands' squares kept as bits, to the same costs as
//! `movement.rs`'s search square by square, which serves a table wider than
//! 64 squares or of more than four hill levels.

mod battle;
mod bits;
mod combat;
mod conduct;
mod deploy;
mod movement;
mod tables;

use battle::Ground;
pub use battle::{Battle, Withdrawal};
pub use tables::{
    ARTILLERY_AT_ADJACENT, CAVALRY_IN_OPEN, CLOSE_COMBAT_AT_COVER, CONTOUR_COST, Charge, CloseCombat,
    CombatResult, DOWNHILL, FIRE_AT_COVER, FLANK_OR_REAR, Facing, Firing, Generalship, MAX_TURNS, ROAD_BONUS,
    SAME_TYPE_ADJACENT, SAME_TYPE_SAME_SQUARE, STANDS_PER_SQUARE, Square, StandType, WITHDRAW_AT_MOST,
    behind_wall_or_entrenched, cavalry_against_foot, close_combat_score, covered_from_fire, default_weapon,
    fire_score, fire_target_score, flat_open, generalship, in_front_arc, in_rear_arc, is_artillery,
    is_cavalry, is_general, is_infantry, is_obstacle, is_vertical_obstacle, is_wood, move_squares,
    on_flank_or_rear, range_squares, result_of, squares_apart, stand_type, stand_value,
};

use super::engine::Setting;
use super::{Outcome, RuleSet};
use crate::model::{ArmyKind, RuleSetId};
use crate::scenario::TableStand;

/// Bob Cordery's 2009 rules.
#[derive(Debug, Clone, Copy, Default)]
pub struct Cordery2009;

impl RuleSet for Cordery2009 {
    fn id(&self) -> RuleSetId {
        RuleSetId::Cordery2009
    }

    fn seed_file(&self) -> &'static str {
        "cordery-2009-late-19th-century-rules.txt"
    }

    fn publication(&self) -> super::Publication {
        super::Publication {
            author: "Bob Cordery",
            title: "Wargame Rules for the late 19th and early 20th centuries",
            published: "his blog, 9 June 2009",
        }
    }

    fn fight_on(&self, setting: &Setting<'_>, seed: u64, keep_log: bool) -> Outcome {
        fight(Battle::set_out(setting, seed, keep_log))
    }

    /// Each battle set out on the table's ground worked out once
    /// ([`Ground`]), not once a battle; the same battles as
    /// [`RuleSet::fight_on`] gives.
    fn fight_each(&self, setting: &Setting<'_>, seeds: super::Seeds<'_>, each: &(dyn Fn(&Outcome) + Sync)) {
        use rayon::prelude::*;
        let ground = Ground::of(setting);
        seeds
            .par_bridge()
            .for_each(|seed| each(&fight(Battle::set_out_on(setting, &ground, seed, false))));
    }

    fn muster(&self, stand: &TableStand, army: ArmyKind) -> String {
        let t = tables::stand_type(stand.kind, stand.quality, army);
        format!("{}, stand value {}", t.label(), tables::stand_value(t))
    }

    fn last_word_rule(&self) -> Option<&'static str> {
        Some(
            "If the twelfth turn ends with neither army broken, the objectives undecided and the two \
             armies' losses even, each General throws a D12 (equal throws again) and the side with \
             the lower throw must withdraw, as the rules settle equal scores in combat.",
        )
    }
}

/// Fights `battle` to its end.
fn fight(mut battle: Battle<'_>) -> Outcome {
    while !battle.is_over() {
        battle.play_turn();
    }
    battle.finish()
}

/// Registered: built in full.
pub const RULE_SET: Option<&dyn RuleSet> = Some(&Cordery2009);
