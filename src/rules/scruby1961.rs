//! `scruby-1961`: Jack Scruby's Strategy-Tactical Wargame of 1961
//! (`scruby-1961-strategy-tactical-wargame.txt`): regimental trays of four
//! figures on a table where 1 1/2 inches is a hundred yards, the 1961 fire
//! tables, cannon at 16 and 18 inches, an orderly stand-to-stand melee with
//! a morale throw, and concealed columns.
//!
//! # The campaign's stands
//!
//! | campaign stand | 1961 troop type |
//! |---|---|
//! | line infantry, native regulars, native riflemen, native spearmen | Line regiment |
//! | light infantry | Light Infantry |
//! | grenadier infantry, guard infantry | Grenadiers |
//! | heavy cavalry, mounted infantry | Heavy Cavalry |
//! | light cavalry | Light Cavalry |
//! | foot artillery, machine gun | Artillery |
//! | horse artillery | Horse Artillery |
//! | command, transport | no combat: captured if an enemy reaches it unescorted |
//!
//! A regiment's tray holds four figures, a cavalry squadron three (THE
//! TROOPS: "Three 20mm cavalry ... represent a squadron"): a stand at
//! `strength` of `full` has ceil(figures x strength / full) of them (0:
//! gone). Kills take figures off. After the battle a stand's strength is the
//! strength it brought times the share of its starting figures left, rounded
//! ([`tables::strength_after`]; for a full stand, strength x units left / 4).
//! A gun is one cannon: three hits destroy it (its strength after is its
//! strength times the share of the three hits it has not taken); a gun
//! whose crew is killed is silent until one side has held it three moves,
//! then fights for that side; a gun the enemy holds or mans at the end is
//! Captured. A gun whose crew is killed counts as lost to its army (for its
//! resolve in the battle and at the end alike) unless its own side holds
//! it; one left held by neither side at the end is Destroyed (0 points).
//! The stand's quality is not used: the seed has none. Its weapon gives the
//! musket range: 6 inches for muskets and smooth-bores, 9 for the later
//! period's rifles (RIFLE RANGE).
//!
//! # Where the seed is silent, and what this program does
//!
//! - **The game move**: both sides throw a die (ties throw again); the high
//!   die moves first and fires its cannons first, results at once; then
//!   the other side's cannons; rifle fire, simultaneous; the melees; guns
//!   held for three moves are manned; unescorted command and transport are
//!   taken. The battle ends at the turn limit, or when a side has nothing
//!   left or breaks (past its general's resolve, [`crate::rules::Resolve`]),
//!   checked after each side's cannons, after the rifle fire and after each
//!   melee: the side that breaks first quits the field (the fire tables kill
//!   alike on both sides, so checked only at the end of the move most even
//!   battles ended with both armies broken at once, a draw). That is how a
//!   side clearly beaten leaves the field: the seed has no other rule for
//!   giving up, and the program adds none.
//! - **The end** ([`crate::rules::judge`]): an army broken or with nothing
//!   left has lost; at the turn limit the side holding more objectives wins
//!   (THE BATTLE: the headquarters "become the OBJECTIVES of the game");
//!   failing that, the seed's own morale test, thrown for the two armies
//!   (the last word, [`RuleSet::last_word_rule`]): MORALE FACTOR AFTER A
//!   MELEE, "each player counts the total number of COMBAT POINTS he has
//!   left. He rolls one dice, and multiplies this by the total Combat
//!   Points he has. The High total wins the melee and holds his ground. The
//!   Low Total must retire three moves" ([`tables::army_holds`]; every
//!   fighter on the table at THE MELEE's combat value, guns none; equal
//!   totals throw again). So a battle ends in a draw only when both armies
//!   break at once or neither has a combat point left.
//! - **Stands are points** (their centres). In contact: within a tray's
//!   length (1 1/2 inches); a charger ends a tray's depth (1/2 inch) from
//!   its target; a reinforcing stand must be within 2 inches of the enemy
//!   it attacks; a crewless gun is held by a side with a stand within 2 1/2
//!   inches and no enemy as near.
//! - **Columns and concealment**: every stand but Light Cavalry (which
//!   "cannot be concealed") starts in a concealed Cross Country Column.
//!   Concealed stands cannot be fired on or charged (the enemy sees only the
//!   Concealment Stand) and do not fire. A column is exposed when an enemy
//!   stand comes within 16 inches, unless a friend already exposed stands
//!   within an inch of it (2 1/2 inches centre to centre) and nearer that
//!   enemy (the screen); in a village or forest it stays concealed until it
//!   acts. Infantry deploys into Line, without moving, exposing itself, with
//!   an enemy stand within 16 inches once it is where it is to stand (at its
//!   post, or halted where its order takes it), and stays in Line; an
//!   attacking column closing to charge keeps its column; guns and cavalry
//!   are exposed when they are seen or charge. Road Column is used when a
//!   move starts and ends on a road, and never by concealed troops. In a
//!   Cross Country Column only the stand at its head fires ("as if one
//!   Regiment were firing").
//! - **Light cavalry scouts** (rules 14-17): each game move, after the
//!   moves and before columns are exposed, every exposed Light Cavalry
//!   stand within 9 inches of an enemy screen (an exposed fighter within an
//!   inch of a concealed friend) or of enemy Light Cavalry fights the
//!   "morale combat", each pair once a move: 5 points a light cavalryman
//!   against the other's melee combat points, one die each multiplying
//!   them; the low total retires 3 moves (equal totals throw again).
//!   Against Light Infantry or Grenadiers the scouts first take their
//!   volley from the fire tables (at any range within the 9 inches; it is
//!   that stand's fire for the move). A screen driven off no longer screens,
//!   so its column is exposed if an enemy is within 16 inches. Light
//!   cavalry never charge, and only heavy cavalry charge them (rule 14: "not
//!   used as combat troops"; rule 16); when heavy cavalry melee them, light
//!   cavalry losing the morale throw expose the columns they screen at
//!   once, winning keep them concealed (17D). Rules 19-22 (villages,
//!   forests, seizing ground, removal once all is exposed) are not used;
//!   rifle fire of Line infantry still reaches light cavalry.
//! - **Terrain**: towns at road speed; in a forest a stand goes one 2-inch
//!   square a move; heavy cavalry and guns never enter forests, light
//!   cavalry only the edge; uphill ground costs double and a stand climbs
//!   one level a move ("one slope"); rivers stop movement. A defensive
//!   position (CASUALTY RATES 5 and 6) is a town, a forest, cover, or
//!   higher ground than the enemy's. The inner areas of villages and forests
//!   are immune to cannon fire; the inner area of a village to rifle fire;
//!   in a forest's interior rifles reach one square (2 inches). Flank fire
//!   is not modelled (stands have no facing).
//! - **"3-6" on the dice** is read like "1-3-6": the faces named, a 3 or a 6.
//! - **Rifle fire** goes at the nearest enemy in range with no friend in
//!   its line of fire, as the guns need "Lanes of Fire" (this program's
//!   reading: a regiment behind another cannot fire through it).
//! - **Artillery**: each gun fires at the nearest enemy it sees in range,
//!   not concealed nor in a melee, with no friend in its lane of fire; within
//!   musket range it fires canister, and the target's return fire (if
//!   infantry) is thrown at once, before the canister kill comes off; that
//!   stand does not fire again that move. Guns aim at guns as at anything
//!   else, the nearest.
//! - **Who charges**: infantry and cavalry charge the weakest enemy in
//!   their charge reach (the Charge Move, ending in contact: a tray's
//!   length, centre to centre) when the odds suit their general's plan:
//!   their combat points, with the friends already charging the target and
//!   those near enough to charge it too, against the target's and its
//!   friends' at the charger's flank where it ends (REINFORCED MELEES: only
//!   troops at "the flank or rear of the ENEMY troops" count). A bold
//!   general charges at even odds, a steady one at 5:4, a cautious one at
//!   3:2 ([`crate::rules::doctrine::Plan::charge_odds`]), at seven tenths of
//!   that in the second half of the day; an attack gone in at half of it; an attacker not holding its objective two thirds into the day
//!   at odds down to 1:2 (this program's own: an attacker that stands off
//!   until nightfall has lost anyway). A gun is charged on the same terms
//!   against its supports. Light cavalry never charge (rules 14, 17, 18;
//!   see above); they close to scouting distance, 8 1/2 inches, no nearer.
//!   "The Charge Move cannot be made by any troops uphill": infantry meet
//!   an enemy above them by their regulation move, a column's, halved
//!   ("All movement uphill is cut in half"; REINFORCED MELEES use
//!   "regulation movement"), and cavalry charge uphill at half their
//!   charge (FIGURE FOUR: "Cavalry may charge 'uphill', but must follow
//!   this procedure"), [`tables::melee_reach`].
//!   In a reinforced melee the other chargers fight the target's remnant
//!   (it strikes back at the first of them) and the defender's stands at the
//!   first charger's flank fight it (it strikes back at the first of them);
//!   then the morale throw with every stand in. Equal morale totals throw
//!   again. The loser retires three moves of its line move straight back;
//!   off the table it is Routed.
//! - **The generals** (`battle/command.rs`): THE BATTLE asks that "a 'plan
//!   of action' must be thought out before the game ever begins"; each
//!   side's general draws one by dice ([`crate::rules::doctrine::Plan`]:
//!   the attack on the left, the right, the centre or in echelon; bold,
//!   steady or cautious; a defence forward or held back two cells),
//!   after the commanders' plans of FIGURE 14:
//!   - The defender holds the key positions: its main body in a line of
//!     two ranks across its objective (FIGURE 8's "2 lines of 3 Regiments
//!     spaced somewhat apart"), foot in the middle of the front rank, guns
//!     next, horse at the back and ends, each on the nearest cell it may
//!     enter (no horse or guns in a wood); "a couple of units" at each other
//!     objective ("BLUE will have to maintain a couple of units at Bridge
//!     Z"); a quarter of its fighters, cavalry first, in reserve 8 inches
//!     behind. Its stands hold their posts (held back by the plan, they
//!     come forward for the last two moves), deploy into Line with an enemy
//!     in sight, charge what comes within reach at their general's odds,
//!     throw back an enemy on the ground they guard, and the reserve
//!     marches on an enemy within 7 inches of it; driven off, they go back.
//!   - The attacker marches on the nearest objective it does not yet hold
//!     ("The attack continues towards Bridge X"), wide of it on the flank
//!     its plan names (the trailing wing of an echelon waits a move a third
//!     of the front), in column, by a route round water and woods it may
//!     not cross (by the bridge, `battle/route.rs`); its stands halt out of
//!     cannon range (18 1/2 inches from the nearest enemy, unseen) until
//!     three in five of its fighters are up, the first has waited three
//!     moves, or half the day is gone; then the attack goes in ("a strong
//!     column moves to capture the VILLAGE") and stays in. Its foot comes
//!     on as a line: each regiment makes for its own place in one rank a
//!     tray's length and a half-inch apart, in its order across the front
//!     from the start (FIGURE 8's columns deployed side by side; each with
//!     its own lane of fire, "Lanes of Fire must be left between
//!     infantry"), the middle of the line a quarter of its width to the
//!     flank its plan names (an attack on the left or right overlaps that
//!     end of the enemy's line), and closes on the nearest enemy once in
//!     its place; none goes more than an inch ahead of the middle of its
//!     line until all are at the edge of the enemy's musket range. Its foot
//!     halts in musket range to fire (not in the enemy's charge reach and
//!     out of its own) until a charge is in prospect at its general's odds,
//!     or two thirds of the day is gone without the ground taken; then it
//!     closes to charge. Against an enemy in a defensive position it does
//!     not halt to fire (the defender's fire kills "automatically", the
//!     attacker's from the open on a 1-3-6, CASUALTY RATES 5 and 6, so a
//!     fire fight there is lost): it closes to charge. Cavalry keep out of musket range until a charge is
//!     in prospect; men near an enemy gun whose crew is killed go and hold
//!     it. A concealed regiment (of either side) with an exposed enemy in
//!     its musket range is exposed to fire (rule 13: "in order to fight,
//!     the player will have to expose his column to get firepower from it").
//!   - Guns with a target stay and fire; others move up to 15 inches from
//!     the nearest enemy, never into musket range; a defender's guns hold
//!     their posts, held back with its foot when its general holds back (a
//!     line held back does not leave its guns in front of it). Command and
//!     transport stay where they were deployed.
//!   - Horse and guns the doctrine deployed in a wood are set down on the
//!     nearest cell of their deployment they may enter; a stand set down on
//!     ground it may not enter may walk out of it.
//!
//! Every figure above not quoted from the seed is this program's own,
//! named with its reason in `battle/command.rs`.
mod battle;
pub mod tables;

pub use tables::*;

use super::engine::Setting;
use super::{Outcome, RuleSet};
use crate::model::{ArmyKind, RuleSetId};
use crate::scenario::TableStand;

/// The Strategy-Tactical Wargame of 1961.
#[derive(Debug, Clone, Copy, Default)]
pub struct Scruby1961;

impl RuleSet for Scruby1961 {
    fn attacker_resolve(&self) -> f64 {
        battle::ATTACKER_RESOLVE
    }

    fn id(&self) -> RuleSetId {
        RuleSetId::Scruby1961
    }

    fn seed_file(&self) -> &'static str {
        "scruby-1961-strategy-tactical-wargame.txt"
    }

    fn publication(&self) -> super::Publication {
        super::SCRUBY_1961
    }

    fn fight_on(&self, setting: &Setting<'_>, seed: u64, keep_log: bool) -> Outcome {
        let mut battle = battle::Battle::set_out(setting, seed, keep_log);
        battle.run();
        battle.outcome(seed)
    }

    /// The battles share their quiet opening turns ([`super::approach`]).
    fn fight_each(&self, setting: &Setting<'_>, seeds: super::Seeds<'_>, each: &(dyn Fn(&Outcome) + Sync)) {
        super::approach::fight_each::<battle::Battle>(setting, seeds, each);
    }

    fn last_word_rule(&self) -> Option<&'static str> {
        Some(
            "the seed's own morale test (MORALE FACTOR AFTER A MELEE), thrown for the two armies: each general counts the COMBAT POINTS his army has left (4 a line or light infantryman, 5 a light cavalryman, 6 a grenadier or heavy cavalryman; guns none), rolls one die and multiplies; the high total holds its ground and wins, the low total must retire three moves (equal totals throw again)",
        )
    }

    fn muster(&self, stand: &TableStand, _army: ArmyKind) -> String {
        let Some(troop) = tables::troop_for(stand.kind) else {
            return "not on the table: no combat power".to_owned();
        };
        let name = super::words(&format!("{troop:?}"));
        if troop.is_gun() {
            return format!("1 cannon ({name})");
        }
        let n = tables::figures(troop);
        let left = tables::units_from_strength(troop, stand.strength, stand.full);
        let holder = if troop.is_cavalry() { "squadron" } else { "tray" };
        format!("{left} of {n} figures on a {holder} ({name})")
    }

    fn losses(&self, stand: &TableStand, _army: ArmyKind) -> super::Losses {
        let (boxes, each) = match tables::troop_for(stand.kind) {
            None => (0, "figure"),
            Some(troop) if troop.is_gun() => (u32::from(stand.strength > 0), "cannon"),
            Some(troop) => (
                tables::units_from_strength(troop, stand.strength, stand.full),
                "figure",
            ),
        };
        super::Losses {
            boxes,
            each: each.to_owned(),
        }
    }
}

/// Not built until its tests pass: `None` keeps it out of the registry.
pub const RULE_SET: Option<&dyn RuleSet> = Some(&Scruby1961);
