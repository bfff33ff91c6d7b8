//! `scruby-basic`: Jack Scruby's Basic War Game Rules, Soldier Factory News #1
//! (`scruby-basic-war-game-rules.txt`): a fast musket-period game with no
//! roster. Kills remove whole stands, by the Combat Table's count of stands.
//!
//! # The campaign's stands as the Basic rules' troops
//!
//! | campaign stand | Basic rules troop | models |
//! |---|---|---|
//! | line infantry, native regulars, native riflemen, native spearmen | Fusilier company (Infantry) | 4 |
//! | light infantry | Light Infantry company | 4 |
//! | grenadier infantry | Grenadier company (double value) | 4 |
//! | guard infantry | Guard company (as a Grenadier company) | 4 |
//! | heavy cavalry, mounted infantry | Heavy Cavalry | 3 |
//! | light cavalry | Light Cavalry | 2 |
//! | foot, horse artillery, machine gun | Artillery (one gun) | 4 |
//! | command, transport | no combat: captured if an enemy reaches it alone | - |
//!
//! A campaign stand at reduced strength brings fewer models:
//! `ceil(models * strength / full)`. Stands are never worn down on the
//! table: a stand is either standing (strength unchanged) or removed
//! (strength 0, Destroyed); a stand retired off the table is Routed; a
//! gun destroyed by counter-battery is Destroyed; command or transport
//! reached by the enemy with no friend beside it is Captured. Quality and
//! weapon are not used: the seed has neither.
//!
//! # Where the seed is silent, and what this program does
//!
//! - **Scale**: "If tabletop is smaller, cut movement and ranges to ratio":
//!   moves and ranges are multiplied by the table's depth over 72 inches
//!   when the table is shallower than six feet; a deeper table changes
//!   nothing ("Length of the table does not matter").
//! - **Stands as points**: a stand is its centre. Contact is within
//!   [`CONTACT_INCHES`] (the seed's "one-inch long stand"); a charger ends
//!   that far from its target. Infantry are "in two ranks" with another
//!   infantry stand of their side within [`RANK_INCHES`], else "caught in
//!   single rank". A stand in marching column counts half its stand for
//!   fire (a column four companies deep shows two ranks, and "two ranks ...
//!   are counted").
//! - **Facing**: every stand faces the enemy's table edge; an attacker
//!   whose line of approach is more than 45 degrees off the target's front
//!   catches it in flank (or rear). A square has no flank.
//! - **Artillery** moves with the infantry (the Fusilier row: "As per
//!   accompanying troops"). A gun as a target of musket fire or melee
//!   counts as a 4-model stand, and 4 models in morale. Guns fire at
//!   troops first and at guns (counter-battery) only when no troops are in
//!   range. "All fire" into a defensive position is halved, the guns' too.
//!   Casualties of canister fire fire their muskets before they go.
//! - **Defensive positions** are houses (built-up areas), woods, walls,
//!   hedges and entrenchments, the seed's list; a hill gives range, not
//!   cover. The hill's extra inch applies to carbines as to muskets.
//! - **Reduced firers**: a 4-model infantry stand uses the 4-man Combat
//!   Table; with 3 models or fewer the 3-man table, scaled by models over
//!   3; cavalry is scaled by models over a full stand. Mixed groups pool
//!   their shares of a kill ([`stand_share`]); the "over one-half" note
//!   rounds the last kill.
//! - **Which enemy a kill takes**: the stand fired at (or charged), then
//!   its nearest friends in the fight; a kill beyond them is lost.
//! - **Morale** is judged for each fight separately: the stands linked by
//!   fire (or by one melee). After fire it is judged only for a firefight,
//!   both sides having fired ("Post-volley morale", Sequence of Action 4;
//!   "morale must be judged after a firefight"): a stand shot at by guns or
//!   muskets it cannot answer takes its losses and does not retire, its
//!   general's resolve deciding. A tie goes to the dice (figures times the
//!   multiplier, thrown again while equal). A firefight with any of its
//!   stands in a defensive position is not judged (rule 5: "No morale
//!   judging is required when soldiers are attacking defensive positions by
//!   fire fighting"). Losses count Grenadier and Guard stands as two. Troops
//!   that retire may not advance, fire or charge on the next game move; they
//!   fight if attacked.
//! - **Melee counting**: attackers count up to two ranks, or three for an
//!   attack column (infantry making a fire and charge), for each defending
//!   stand; against a house twice the defenders; a square counts all its
//!   stands. Defenders in close support are those of the fight within one
//!   open move of the stand charged. Lancers: no campaign stand is marked
//!   as lancers, so cavalry never charge a square.
//! - **Pursuit**: winning cavalry follow the beaten stand they charged and
//!   melee it again on the next game move at half value; the other choice
//!   (attack another enemy) is not taken by this program.
//! - **Fire and charge**: the chargers close with the stand they called
//!   it on after the volleys and the melee is fought at once, before the
//!   post-volley morale ("'Fire and Charge' moves made and judged",
//!   Sequence of Action 3.1, before 4), its morale "judged from the results
//!   of the melee" (Fire and Charge 6); the post-volley morale then judges
//!   the stands that did not melee. Only stands that fired charge: the doctrine does not add columns
//!   that did not fire. The general orders it for every stand of his
//!   that can fire at the stand charged and reach it ("The attacker may use
//!   all troops who fired", Fire and Charge 4), not company by company, and
//!   weighs it by their sum.
//! - **Not modelled**: destroying houses and walls by artillery (the
//!   scenario gives no destruction rates, Artillery 4); howitzers firing
//!   blind (no campaign stand is a howitzer: every gun needs sight,
//!   Artillery 5); guns sheltering in squares (Artillery 6); the strategic
//!   rules (the campaign's).
//! - **The end**: the battle runs to the turn limit unless a side has
//!   nothing left or has lost more than its general's resolve
//!   ([`crate::rules::Resolve`], 1D6 before the battle,
//!   `battle::RESOLVE_THROW`: this program's own; the seed's battles go on
//!   until "one side or the other retires by its own decision"): it breaks
//!   and quits the field, a loss. At the turn limit the side holding more
//!   objectives wins; if they do not decide it,
//!   the last word ([`crate::rules::LastWord`]) is Judging the Morale for
//!   the two armies: "Each player counts up the loss he has sustained.
//!   Whoever had the greatest loss must retire" (the stands killed,
//!   Grenadiers and Guards as two); on equal losses each counts the model
//!   soldiers it has standing (Grenadiers and Guards double, 50% more in a
//!   defensive position, rule 6) times one die's multiplier (1-3 two, 4-6
//!   three), equal totals thrown again.
//! - **The doctrine** ([`crate::rules::doctrine`]; each general draws a
//!   [`crate::rules::doctrine::Plan`] by dice: the attack's flank or
//!   echelon, the odds he charges at, whether the defence holds back):
//!   - *The defender* posts a firing line about the objective it guards
//!     ([`crate::rules::doctrine::line_posts`]): a company on the objective
//!     itself, the rest of its foot, then its guns, on the best ground within
//!     15 inches (walls, hedges, entrenchments, houses, woods' edges, hills),
//!     up to 12 inches forward of the objective, or none forward of it when
//!     its general holds back; its horse waits 9 inches behind the objective
//!     (an army of horse alone holds with it). It deploys as near its posts
//!     as its zone allows. Off a defensive position it goes to meet an enemy
//!     within twice the attacker's engaging distance; on one it stays, and
//!     does not leave it to fire and charge. A company with no enemy in
//!     musket range marches to musket range of the nearest enemy its side is
//!     fighting (the reserves march to the fighting). Stands the scenario
//!     places hold where they are put.
//!   - *The attacker* concentrates: every stand makes for the goal (the
//!     objective nearest it), wide on its plan's flank while far from it,
//!     the trailing wing of an echelon a move or two behind. Its foot comes
//!     on in attack column (The Melee 2) and deploys into line a column move
//!     from the musket range of enemy foot or horse (at guns, whose fire
//!     takes no account of formation, only within musket range); a column
//!     that ends its move within musket range deploys to fire (the seed sets
//!     no cost on it). It closes to a column move and fires and charges when
//!     its general's odds favour it
//!     ([`crate::rules::doctrine::Plan::charge_favoured`]), at the enemy
//!     stand within reach where those odds are best (a stand in the open
//!     before one behind a wall, Moving Stands 11). A stand within range of
//!     an enemy gun goes straight at its goal: no swing to the flank, no wing
//!     of an echelon waiting under fire.
//!   - *Both*: guns advance until an enemy is in range and then stand.
//!     Infantry within an enemy cavalry charge, and no enemy infantry near,
//!     form square. Cavalry keep half an inch beyond musket range until a
//!     charge is favoured, then declare the special charge, weighing the
//!     fire the enemy may withhold for it as well as the melee; once every
//!     charge is declared, the side charged withholds the musketry and the
//!     guns' fire (canister where the ride comes within 6 inches) of the
//!     stands whose range each ride passes through, if together it shoots
//!     a charger down (Special Moves 2.4.1), and fires it in the regular
//!     combat otherwise. Until its side's foot is within
//!     musket range of the enemy, the horse comes on no nearer the enemy
//!     than its foremost foot and a rank behind it (out of the guns' way,
//!     near enough to charge what charges its foot). Each side's musket fire
//!     falls on the enemy stand most of its firers reach, a stand in a
//!     defensive position counting half of them (Musket Fire 3), then the
//!     nearest. Command
//!     and transport follow the middle of their side.
//! - **Who goes first**: each game move both sides throw a die, equal
//!   throws again; the higher moves first, and its charges are made and
//!   fought first ("The winner picks the flank he wishes to move first").

mod battle;
mod tables;

pub use tables::*;

use super::engine::Setting;
use super::{Outcome, RuleSet};
use crate::model::{ArmyKind, RuleSetId};
use crate::scenario::TableStand;

/// The Basic War Game Rules.
#[derive(Debug, Clone, Copy, Default)]
pub struct ScrubyBasic;

impl RuleSet for ScrubyBasic {
    fn id(&self) -> RuleSetId {
        RuleSetId::ScrubyBasic
    }

    fn seed_file(&self) -> &'static str {
        "scruby-basic-war-game-rules.txt"
    }

    fn publication(&self) -> super::Publication {
        super::SCRUBY_BASIC
    }

    fn fight_on(&self, setting: &Setting<'_>, seed: u64, keep_log: bool) -> Outcome {
        let mut b = battle::Battle::set_out(setting, seed, keep_log);
        b.run();
        b.outcome(seed)
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
            "each player counts up the stands he has lost (Grenadiers and Guards as two) and the \
             greater loss retires; on equal losses each counts his model soldiers still standing \
             (Grenadiers and Guards double, 50% more in a defensive position) times one die's \
             multiplier (1-3 two, 4-6 three), and the lower total retires (Judging the Morale, 1, 2, \
             4 and 6, judged for the two armies)",
        )
    }

    fn muster(&self, stand: &TableStand, _army: ArmyKind) -> String {
        let Some(troop) = troop_for(stand.kind) else {
            return "not on the table: does not fight".to_owned();
        };
        let left = models_at(troop, stand.strength, stand.full);
        format!(
            "company stand, {left} of {} models ({})",
            troop.models(),
            super::words(&format!("{troop:?}"))
        )
    }

    fn losses(&self, stand: &TableStand, _army: ArmyKind) -> super::Losses {
        super::Losses {
            boxes: troop_for(stand.kind).map_or(0, |t| models_at(t, stand.strength, stand.full)),
            each: "model".to_owned(),
        }
    }
}

/// Built: the registry offers it.
pub const RULE_SET: Option<&dyn RuleSet> = Some(&ScrubyBasic);
