//! `harman-2021`: Arthur Harman's toy soldier battle rules
//! (`harman-2021-toy-soldier-battles.txt`).
//!
//! A battle on a grid of squares, a square a musket range. Each turn both
//! sides' artillery fires at once; both throw a D6 for the initiative (the
//! lower wins; a side that won it two turns running adds 1, three turns 2);
//! then each side in turn moves, fires and fights close combats. Fire and
//! close combat throw Tactical Dice, whose faces are an Officer (1), Targets
//! (2, 3), a Flag (4), Fire (5) and a Sabre (6); hits take Combat Value, Flags
//! halt, turn back or rout a unit. The battle ends at the scenario's turn
//! limit, or when a side breaks (`crate::rules::has_broken`) or has nothing
//! left.
//!
//! # The campaign's stands as Harman's units
//!
//! | campaign stand (`StandKind`) | Harman's unit |
//! |---|---|
//! | line, grenadier, guard infantry; native regulars | formed infantry |
//! | native spearmen | formed infantry with no fire (close combat only) |
//! | light infantry; native riflemen | skirmishers |
//! | heavy, light cavalry; mounted infantry | cavalry |
//! | foot artillery; machine gun | foot artillery |
//! | horse artillery | horse artillery |
//! | command | the side's first: its General; the rest: ADCs |
//! | transport | takes no part in combat |
//!
//! Quality elite / trained / raw: 4 / 3 / 2 Tactical Dice and a full Combat
//! Value of 10 / 7 / 4 ("Veteran, Guard or Elite ... Trained or Regular ...
//! Conscript, Militia or Raw"); artillery is always Trained (3 dice, CV 7).
//! A stand below full strength starts with CV * strength / full (at least 1);
//! it ends with its strength scaled by the CV left. A unit at 0 CV is
//! `Fate::Destroyed`; one that routs or retires off the field `Fate::Routed`;
//! a General killed `Destroyed`, one forced off by a wound `Routed`.
//!
//! # The seed's silences, and the readings taken
//!
//! - "When a Unit has lost over its Combat Value" has lost a word: read as
//!   over half. Such a unit throws a die fewer and only defends itself.
//! - A square is a musket range: musketry reaches the squares around the
//!   firer (diagonals too); artillery ranges are counted in squares. Movement
//!   is orthogonal, square by square; moving next to an enemy orthogonally
//!   is close combat, so a move never passes such a square.
//! - One fighting unit a square; Generals and ADCs ride with a unit.
//! - Initiative ties are thrown again; the winner moves first. The bonus
//!   for repeated wins is added to the winner's own die, so (the lower
//!   winning) it handicaps the repeated winner.
//! - Skirmish fire at formed troops hits on Fire (the seed says Fire and
//!   Target in two places; Fire is the die's "skirmishing Musketry"). A
//!   formed unit is screened by a friendly skirmisher in the square ahead of
//!   it or a forward diagonal.
//! - Bayonet charges: "Flags or Sabres and Flags" at least the Defenders'
//!   quality: they flee (rout); two or more Flags short of that: they fire
//!   back a die short and then retire unless they halt the Attackers; one
//!   Flag or none: as the seed's two paragraphs. The Attackers are halted
//!   when the return fire's Flags halt them (two or more) or worse. Sabres
//!   always hit.
//! - Cavalry passing through each other stay in their squares on the grid
//!   and charge again next turn; after the second turn the charger falls back
//!   to the square it charged from and both rest a turn. A charge at foot
//!   that does not break it ends with the cavalry back where it charged from.
//!   Cavalry do not charge a square already formed (the doctrine's choice).
//! - Entrenchments count as walls. Hills block sight when higher than both
//!   ends. Artillery does not fire through occupied squares except from a
//!   hill over lower ground. Transport cannot be attacked and keeps its
//!   strength. ADCs carry no orders here: the doctrine gives every unit its
//!   orders; they rally as Generals do but add no die and take no Flag.
//! - Rallying clears a halted or retiring unit that kept still and was not
//!   attacked this turn, on a 6; it does not restore Combat Value.
//! - The end: the seed sets no turn limit and no victory conditions; the
//!   battle lasts the scenario's turns (12 when it gives none) and ends
//!   sooner when an army breaks (the core's resolve). The seed has no
//!   morale test for a whole army, so no last word: the judge's objectives,
//!   then its loss margin, then a draw decide. Its one rule for an undecided
//!   fight is a single close combat's: "If there has been no decision after
//!   two turns of Close Combat, both sides will retire to rally, unless the
//!   Defenders were occupying a BUA, when only the Attackers will retire"
//!   (INFANTRY Vs INFANTRY, Bayonet Charges): a draw between two units,
//!   played as such (`tables::undecided_retire`); read for the armies at
//!   the last turn it would make every battle the objectives do not decide
//!   a draw, and is not.
//! - The generals (`battle/conduct.rs`, `battle/arms.rs`) draw plans by dice
//!   (`doctrine::Plan`); a unit charges when its Tactical Dice are at least
//!   the enemy's times its general's odds (a bold general's 1, a cautious
//!   one's 3:2, less late in the day), the Defenders' dice being their own
//!   (they fire back with at most those), or the enemy is halted or shaken.
//! - The attacker commits everything it has once half the day is gone
//!   (`doctrine::late`; `battle/arms.rs`, `commits`): its units charge
//!   whatever the dice, for an attacker that stands off until the turn
//!   limit has lost.
//! - The defender posts its foot on and about the objective it guards
//!   (`doctrine::posts`, each a square its unit may enter other than along
//!   a road; held back by a general who holds back), marches there from
//!   its deployment, and holds its post until the enemy comes within three
//!   squares; the log says when a unit takes post. Its horse, the reserve,
//!   makes for the best ground near the objective (`doctrine::goal`). Before this the
//!   defender stood in its deployment zone all day wherever the objective
//!   lay, and battles for a hill or a crossroads ended with no one on it.
//! - Foot closes with horse: the seed's Bayonet Charges are against "an
//!   enemy infantry or artillery unit" and its cavalry rules are the
//!   horse's own charges, so formed infantry that moves next to enemy horse
//!   fights the seed's general CLOSE COMBAT ("Throw a number of Tactical
//!   Dice for each unit engaged in Close Combat ... a Sabre ... deduct 1
//!   from its CV"; each side's Flags fall on the other), weighed as a
//!   bayonet charge is; foot with no fire standing next to horse fights it
//!   so each turn (`battle/melee.rs`, `close_combat`). Before this, horse
//!   across a road or at a bridge's far end stood untouched all day (the
//!   bundled campaign's Beni Suef was 62% bloodless).
//! - Formed infantry near the enemy (three squares or less) moves one square
//!   ("one square and engage in Fire and/or Close Combat"), else marches two.
//! - Cavalry charges enemy cavalry within its reach whatever the dice and
//!   the plan (`battle/arms.rs`, `horse_meets_horse`): under CAVALRY Vs
//!   CAVALRY the charger throws first and the charged unit at best
//!   counter-charges, so waiting to be charged never beats charging. Before
//!   this, a cautious general's horse stood off two squares from the
//!   enemy's all day and horse battles ended without a blow.
//! - Artillery takes position (`gun_position`): a battery with no target
//!   moves to the square it can reach nearest its goal from which it has
//!   one in range and sight, its line of fire clear of its own troops, no
//!   nearer the enemy than its canister range (`GUNS_KEEP_OFF`). Guns
//!   still cannot fire over their own infantry except from a hill, so once
//!   the attacker's foot is in contact its guns on the flat fall silent.
//! - The attacker closes on the enemy's open flanks (`open_flank`):
//!   infantry and cavalry within six squares of the enemy make for the
//!   nearest free square orthogonally next to an enemy they may engage from
//!   there, so that a larger army's second line marches round the first to
//!   the fighting rather than queueing behind it.
//! - Draws that remain are mostly the seed's own ground: rivers are crossed
//!   only at a bridge or ford and formed troops may not enter a forest, so
//!   a crossing is fought one unit at a time and the end finds both sides
//!   about the objective, neither 15% ahead in losses.

mod battle;
mod tables;

pub use battle::{Battle, Square, cheb};
pub use tables::*;

use super::engine::Setting;
use super::{Outcome, RuleSet};
use crate::model::{ArmyKind, RuleSetId};
use crate::scenario::TableStand;

/// Arthur Harman's 2021 rules.
#[derive(Debug, Clone, Copy, Default)]
pub struct Harman2021;

impl RuleSet for Harman2021 {
    fn attacker_resolve(&self) -> f64 {
        battle::ATTACKER_RESOLVE
    }

    fn id(&self) -> RuleSetId {
        RuleSetId::Harman2021
    }

    fn seed_file(&self) -> &'static str {
        "harman-2021-toy-soldier-battles.txt"
    }

    fn publication(&self) -> super::Publication {
        super::Publication {
            author: "Arthur Harman",
            title: "Fighting Toy Soldier Battles: For Shame",
            published: "Miniature Wargames issue 457 (online 10 November 2021)",
        }
    }

    fn fight_on(&self, setting: &Setting<'_>, seed: u64, keep_log: bool) -> Outcome {
        let mut battle = Battle::set_out(setting, seed, keep_log);
        while !battle.is_over() {
            battle.play_turn();
        }
        battle.finish()
    }

    fn fight_each(&self, setting: &Setting<'_>, seeds: super::Seeds<'_>, each: &(dyn Fn(&Outcome) + Sync)) {
        super::approach::fight_each::<Battle>(setting, seeds, each);
    }

    fn muster(&self, stand: &TableStand, _army: ArmyKind) -> String {
        let unit = tables::unit_of(stand.kind, false);
        let name = match unit {
            tables::Unit::FormedInfantry { fires: true } => "formed infantry",
            tables::Unit::FormedInfantry { fires: false } => "formed infantry, close combat only",
            tables::Unit::Skirmishers => "skirmishers",
            tables::Unit::FootArtillery => "foot artillery",
            tables::Unit::HorseArtillery => "horse artillery",
            tables::Unit::Cavalry => "cavalry",
            tables::Unit::General | tables::Unit::Adc => {
                "General if the side's first command stand, else ADC"
            }
            tables::Unit::Transport => "transport, takes no part in combat",
        };
        format!(
            "Combat Value {}, {:?} quality, {} dice ({name})",
            tables::combat_value(unit, stand.quality, stand.strength, stand.full),
            stand.quality,
            tables::tactical_dice(unit, stand.quality),
        )
    }

    fn losses(&self, stand: &TableStand, _army: ArmyKind) -> super::Losses {
        let unit = tables::unit_of(stand.kind, false);
        super::Losses {
            boxes: tables::combat_value(unit, stand.quality, stand.strength, stand.full),
            each: "Combat Value".to_owned(),
        }
    }
}

/// Registered: built in full.
pub const RULE_SET: Option<&dyn RuleSet> = Some(&Harman2021);
