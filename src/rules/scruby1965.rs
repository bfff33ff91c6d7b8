//! `scruby-1965`: Jack Scruby's "Unbalanced Equality" rules, the rules of the
//! Egyptian Rebellion of 1895 (`scruby-1965-unbalanced-equality.txt`):
//! British regulars against natives, on an inch-scale table, with a points
//! roster, morale values and a three-sequence melee.
//!
//! # The campaign's stands on the Combat Table
//!
//! A stand's strength is its roster points (the scenario gives them already
//! on the 1965 scale); kills come off `strength`. The row of the Combat Table
//! follows the stand's kind and its side's army ([`troop_for`]):
//!
//! | campaign stand | regular army | native army |
//! |---|---|---|
//! | line, light, grenadier, guard infantry | British Infantry | Native Regular Infantry |
//! | native regulars | Native Regular Infantry | Native Regular Infantry |
//! | mounted infantry | British Mounted Infantry | British Mounted Infantry (the only row) |
//! | heavy cavalry | British Heavy Cavalry | Native Heavy Cavalry |
//! | light cavalry | British Light Cavalry | Native Light Cavalry |
//! | native spearmen | Native Spearmen | Native Spearmen |
//! | native riflemen | Native Riflemen | Native Riflemen |
//! | machine gun | Maxim Gun with British crew | Maxim Gun with Native crew |
//! | foot, horse artillery | Cannons, British crew | Cannons, native crew |
//! | command, transport | not on the table: no combat power | the same |
//!
//! Command and transport move with their side and never fight: an enemy
//! that reaches one with no friend beside it takes it (Captured). A stand
//! brought to 0 is Destroyed; spearmen brought to 25 points or fewer leave
//! the table (Routed); a stand that retires off the table is Routed; a gun
//! knocked out by four hits, or whose crew is lost and which the enemy
//! reaches, is Captured (a crewless gun nobody takes ends Destroyed). The
//! stand's quality and weapon are not used: the seed has neither.
//!
//! # Where the seed is silent, and what this program does
//!
//! - **Turn sequence**: reserves arrive; natives thrown back dice to return;
//!   each side throws a die and the higher moves first (equal throws again;
//!   the 1965 text is silent, this is its author's practice in
//!   `scruby-1961-strategy-tactical-wargame.txt`: "each player rolls a die
//!   at the beginning of the move- high dice winner then chooses"), the log
//!   giving both throws; movement, the first mover's stands, then the
//!   other's (charges are moves into contact); fire, simultaneous (every
//!   shot is worked out from the table as it stands, then all the kills
//!   come off together); natives who came under fire dice for morale (after
//!   their own volley, as the seed says); melee for every group of enemy
//!   stands in contact; unescorted command, transport and crewless guns are
//!   taken.
//! - **The end**: the battle goes on to the scenario's turn limit, unless a
//!   side has nothing left on the table (and no reserve to come), or has
//!   lost more than its general's resolve ([`crate::rules::Resolve`], 1D6
//!   before the battle, `battle::RESOLVE_THROW`): it then breaks and quits
//!   the field, a loss, which [`crate::rules::judge`] applies. The seed has no end of its own; the
//!   army breaking is this program's, and it is how a clearly beaten side
//!   withdraws. At the turn limit the side holding more objectives wins; if
//!   they do not decide it, the last word ([`crate::rules::LastWord`]) is
//!   THE MELEE's Sequence 2 thrown for the two armies: "the original total
//!   Combat Values (combat power multiplied by Morale Values), each player
//!   now rolls one dice. Multiply the total Combat Value of each player by
//!   his dice roll. The highest such total is the winner, and the losing side
//!   is forced to retire", each army's total being what it has standing as
//!   the test is thrown (points times morale values, closed order or
//!   dismounted, +1 in a defensive position against the nearest enemy),
//!   equal totals thrown again.
//! - **Ranges**: Maxims and cannons fire at the one range the seed gives,
//!   20 inches ("RIFLE RANGE of all troops in our game is 20 inches"). Each
//!   stand fires at the nearest enemy in range and in sight, not locked in a
//!   melee (ties to the stand listed first).
//! - **Contact and closed order**: stands are points (their centres). Two
//!   stands are in contact, or touching, when their centres are within the
//!   basic stand's 3-inch front; a charger ends 2 inches (the stand's depth)
//!   from its target. Regular infantry is in closed order when it touches
//!   another regular infantry stand of its side and moved no more than its
//!   closed move (3 inches) this game move; otherwise in open order. To
//!   form, a company moves (3 inches a move) to stand beside the nearest
//!   company of its side. A stand not charging stops an inch short of
//!   contact (the open-order gap).
//! - **Defensive positions**: walls, entrenchments, houses and woods shelter
//!   against anyone; a hill only against an enemy lower down ("on top of a
//!   hill"), so troops on one slope have no advantage over each other. This
//!   halves fire and adds 1 to the morale value in melee.
//! - **Who charges**: any stand with men but a gun (spearmen with the
//!   throw-and-charge: 8 inches of move and 8 of throw, so their reach is 16
//!   inches), when its general's odds favour it
//!   ([`crate::rules::doctrine::Plan::charge_favoured`]).
//!   The weakest enemy within reach is charged first, by the nearest
//!   chargers, one by one until their combat value (with friends already in
//!   contact) beats the target's and its friends' in contact; the rest hold
//!   back, since every stand on a melee's winning side takes losses by the
//!   Melee Result Table. The spears are thrown in the fire phase, so their
//!   casualties, like the defenders' closing volley, come off before the
//!   melee ("All casualties are deducted before the charge sequence is made").
//! - **Melee ties**: equal values in Sequence 1 give no winner, and each side
//!   takes its own Melee Result Table losses; equal throws in Sequence 2 are
//!   thrown again. Guns in a melee add their combat value to their side;
//!   their crews are then killed and the other side loses half the crew
//!   (the Melee Result Table's last row), besides the table losses of the
//!   stands that are not guns. A loss a stand cannot take passes to the
//!   others of its side in the melee.
//! - **Who chooses the pursuit**: the winner of Sequence 2. A defender holds
//!   its ground and orders the panic retreat; an attacker orders the panic
//!   retreat when it drives a loser off the table, otherwise pursues when the
//!   odds against the loser at half morale favour it.
//! - **Retiring** is straight back toward the side's own table edge (away
//!   from the enemy's deployment), each "move" the stand's full move, taken
//!   at once. Natives who retire, after fire or a lost melee, are thrown
//!   back and dice to return; British troops are not ("European (British)
//!   troops have no morale problems"). A stand driven off the table is
//!   Routed, British or native.
//! - **Which natives test**: every native row ("all Native troops do"), the
//!   native regulars on a 1, the rest on a 1 or 2; fire from rifles, Maxims
//!   and cannons is "rifle fire", the spear throw is not. Natives thrown
//!   back stay where they are and neither fire nor charge until they return.
//! - **Firing at guns**: cannons aim at a gun's crew (the quicker way: a
//!   British gun's average 13 kills a shot takes a 60-point crew in about
//!   five shots, where four hits take about eight), unless the gun is in a
//!   defensive position (fire at the crew halved, hits not) or already has
//!   two hits. Other fire kills the crew. A miss on the Artillery Fire Table
//!   stays a miss against closed order (the 10 are added to kills).
//! - **Re-crewing**: an infantry stand of more than 60 points within its move
//!   of its side's crewless gun, and with no enemy in rifle range, gives 60
//!   points to crew it and stays that move.
//! - **Mounted infantry** ride 8 inches; they dismount (4 inches on the horse,
//!   4 on foot) when an enemy is within rifle range and one move; they fire
//!   dismounted without the 10 points of the horse-holder (one model of 10
//!   men); on foot they move 6 inches, British Infantry's open move.
//! - **No fire through friends**: a stand does not fire at an enemy with a
//!   stand of its own side between them (its centre within half a stand's
//!   front of the line of fire). The seed has no such rule; this program's
//!   reading, after the basic stand's "3 inches represented the front which
//!   a company could occupy" and the 1961 text's "we consider only the front
//!   rank of the column ... to be in position to fight".
//! - **The doctrine** ([`crate::rules::doctrine`]; each general draws a
//!   [`crate::rules::doctrine::Plan`] by dice: the attack's flank or
//!   echelon, how boldly he charges, whether the defence holds back):
//!   - *The defender* posts a firing line about the objective it guards
//!     ([`crate::rules::doctrine::line_posts`]): its first company of foot
//!     on the objective itself (it never leaves it), the rest of its foot,
//!     then its guns, on the best ground within 18 inches (walls, hedges,
//!     entrenchments, hill tops, the edges of towns and woods that see out
//!     toward the enemy, not their blind hearts), up to 12 inches forward
//!     of the objective, or none forward of it when its general holds back;
//!     its horse waits 9 inches behind the objective (an army of horse alone
//!     holds with its horse). It deploys as near its posts as its zone
//!     allows. Its stands hold their posts and fire; one with no enemy in
//!     range marches on the nearest enemy its side is fighting (the
//!     reserves march to the fighting), and goes back to its post when the
//!     fighting is over. Stands the scenario places hold where they are put.
//!   - *The attacker* deals out its starting places so that its foot stands
//!     nearest the enemy, its horse behind, its guns behind the horse. It
//!     makes for its goal (the objective nearest it, all its stands at the
//!     same one, so it concentrates), wide on the plan's flank while far
//!     from it, the trailing wing of an echelon a move or two behind. Its
//!     foot and guns halt an inch beyond the enemy's rifle range until three
//!     in four of them are within a move of it (or the day is half gone),
//!     so the line goes in together; companies touching take the last steps
//!     into range in closed order (3 inches), to volley on arrival. In range
//!     its infantry halts to fire in closed order; a general who would charge
//!     at even odds (a bold one all day, the others in the second half of the
//!     day) presses on in closed order, volleying, to charge distance, once
//!     its fire is winning (the enemy has lost the greater share of its
//!     points) or the day is half gone.
//!   - *Both*: spearmen make for the nearest enemy within a move and a
//!     throw; cavalry rides at enemy horse within two moves, else keeps out
//!     of rifle range until a charge is favoured (the attacker's closes late
//!     in the day); guns hold while they have a target in range, else come
//!     on; command and transport follow the middle of their side. Charges
//!     go in at the odds the general's plan takes (lower late in the day).

mod battle;
mod fire;
mod melee;
mod movement;
mod posts;
pub mod tables;
#[cfg(test)]
mod tests;

pub use tables::*;

use super::engine::Setting;
use super::{Outcome, RuleSet};
use crate::model::{ArmyKind, RuleSetId};
use crate::scenario::TableStand;

/// The "Unbalanced Equality" rules of 1965.
#[derive(Debug, Clone, Copy, Default)]
pub struct Scruby1965;

impl RuleSet for Scruby1965 {
    fn id(&self) -> RuleSetId {
        RuleSetId::Scruby1965
    }

    fn seed_file(&self) -> &'static str {
        "scruby-1965-unbalanced-equality.txt"
    }

    fn publication(&self) -> super::Publication {
        super::Publication {
            author: "Jack Scruby",
            title: "\u{201c}Unbalanced Equality\u{201d} War Game Rules",
            published: "Table Top Talk, November 1965",
        }
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

    fn resolve_throw(&self) -> crate::rules::ResolveThrow {
        battle::RESOLVE_THROW
    }

    fn last_word_rule(&self) -> Option<&'static str> {
        Some(
            "each player takes his army's total Combat Value (the points it has standing times \
             their Morale Values) and multiplies it by one die: the higher total holds its ground and \
             the other is forced to retire (THE MELEE, Sequence 2, thrown for the two armies)",
        )
    }

    fn muster(&self, stand: &TableStand, army: ArmyKind) -> String {
        match tables::troop_for(stand.kind, army) {
            Some(troop) => format!(
                "{} of {} points ({})",
                stand.strength,
                stand.full,
                super::words(&format!("{troop:?}"))
            ),
            None => "not on the table: no combat power".to_owned(),
        }
    }
}

/// Built: the registry offers it.
pub const RULE_SET: Option<&dyn RuleSet> = Some(&Scruby1965);
