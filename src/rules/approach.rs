//! The approach shared between battles. The odds fight one scenario
//! thousands of times, and under the Scruby games and Harman's the first
//! turns, while the armies march toward each other, throw no dice but the
//! throw for the move (Harman's initiative). Two battles whose generals
//! drew the same plans, and whose sides won the same throws for the move
//! turn by turn, stand the same at the end of each such quiet turn (the
//! resolve each general threw counts only once a side has lost something):
//! the second takes the table the first left and goes on from there with
//! its own dice and resolve. No battle changes; only work is saved.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

use super::dice::Dice;
use super::doctrine::{Plan, SidePlan};
use super::engine::{self, Setting, Turns};
use super::{Outcome, Resolve, ResolveThrow, Seeds};

/// At most this many tables are kept by each core (some 17 KB each for
/// twenty stands a side, 70 MB in all on two cores): the run of the odds
/// draws fewer plans and throws in its first turns than this, but not in
/// its later ones (scruby-1961's 10,000 bench battles took 19% more work
/// with 1,024 kept in all than with 4,096).
const MOST_KEPT: usize = 2048;

/// The first movers of at most this many turns are told apart (one bit a
/// turn).
const MOST_TURNS: u32 = u64::BITS;

/// What the dice of a battle decide before it is set out: each general's
/// resolve, then each side's plan ([`SidePlan::in_inches`]), and the dice as
/// they then stand.
pub(crate) struct Generals<'a> {
    pub(crate) dice: Dice,
    pub(crate) resolve: Resolve,
    pub(crate) sides: [SidePlan<'a>; 2],
}

impl<'a> Generals<'a> {
    /// The generals of the battle of `seed` on `setting`, each throwing
    /// `throw` for his resolve, the attacker's `attacker_bonus` higher
    /// ([`Resolve::draw_by`]).
    pub(crate) fn draw(
        setting: &Setting<'a>,
        seed: u64,
        throw: ResolveThrow,
        attacker_bonus: f64,
    ) -> Generals<'a> {
        let mut dice = Dice::new(seed);
        let resolve = Resolve::draw_by(&mut dice, setting.scenario, throw, attacker_bonus);
        let sides = [
            SidePlan::in_inches(setting, 0, &mut dice),
            SidePlan::in_inches(setting, 1, &mut dice),
        ];
        Generals { dice, resolve, sides }
    }
}

/// A battle whose opening turns may be shared ([`fight_each`]): its dice
/// decide its generals ([`Generals`]) before it is set out, and every turn
/// begins with the throw for the move.
pub(crate) trait Opening<'a>: Turns + Clone + Send + Sized {
    /// How each general throws for his resolve ([`Resolve::draw_by`]).
    const RESOLVE_THROW: ResolveThrow;
    /// What the attacker adds to his resolve (`RuleSet::attacker_resolve`).
    const ATTACKER_RESOLVE: f64;
    /// The generals of the battle of `seed`, as the engine draws them.
    fn draw(setting: &'a Setting<'a>, seed: u64) -> Generals<'a> {
        Generals::draw(setting, seed, Self::RESOLVE_THROW, Self::ATTACKER_RESOLVE)
    }
    /// The battle set out, as `set_out` with no log kept gives it.
    fn lay_out(setting: &'a Setting<'a>, generals: Generals<'a>) -> Self;
    /// The side that moves first, the throw for the move thrown with `dice`
    /// as the turn throws it, after the turns `movers` (a throw may depend
    /// on who moved first before: Harman's initiative).
    fn first_mover(setting: &Setting<'a>, movers: Movers, dice: &mut Dice) -> usize;
    /// Its dice, each turn's throw for the move thrown by
    /// [`Dice::for_move`].
    fn dice(&self) -> &Dice;
    /// Goes on with these dice and this resolve (another battle's table).
    fn go_on_with(&mut self, dice: Dice, resolve: Resolve);
    /// Whether neither side has lost anything it brought on, as the army's
    /// break counts it.
    fn lost_nothing(&self) -> bool;
    fn outcome(self, seed: u64) -> Outcome;
}

/// Fights the battle of each of `seeds` on every core, handing `each` its
/// outcome: the battles share their quiet opening turns.
pub(crate) fn fight_each<'a, B: Opening<'a>>(
    setting: &'a Setting<'a>,
    seeds: Seeds<'_>,
    each: &(dyn Fn(&Outcome) + Sync),
) {
    use rayon::prelude::*;
    let approaches = Approaches::<B>::default();
    seeds
        .par_bridge()
        .for_each(|seed| each(&approaches.fight(setting, seed)));
}

/// Which side moved first in each turn fought so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub(crate) struct Movers {
    /// The turns fought.
    turns: u32,
    /// Bit `t` set when the second side moved first in turn `t + 1`.
    bits: u64,
}

impl Movers {
    /// These turns and then one in which side `first` moved first.
    fn then(self, first: usize) -> Movers {
        Movers {
            turns: self.turns + 1,
            bits: self.bits | u64::from(first == 1).checked_shl(self.turns).unwrap_or(0),
        }
    }

    /// How many turns running, to the last one fought, side `side` has
    /// moved first.
    pub(crate) fn streak(self, side: usize) -> u32 {
        let mut streak = 0;
        for t in (0..self.turns.min(MOST_TURNS)).rev() {
            if usize::from(self.bits >> t & 1 == 1) != side {
                break;
            }
            streak += 1;
        }
        streak
    }
}

/// The two sides' plans, and which side moved first in each turn fought.
type Key = ([Plan; 2], Movers);

/// A battle before its first turn, its generals drawn, or on the table.
/// One lives on the stack while a battle is fought; boxing the larger would
/// cost an allocation a battle for nothing.
#[allow(clippy::large_enum_variant)]
enum Stage<G, B> {
    Drawn(G),
    Fought(B),
}

/// The tables at the end of quiet turns, kept for the battles of one run of
/// the odds: each core keeps its own (a table is not shared between
/// threads: scruby-1965's keeps scratch in cells).
pub(crate) struct Approaches<B> {
    /// The first core's tables (and any core's past the last of `more`).
    kept: Mutex<HashMap<Key, B>>,
    /// The other cores' tables, one each.
    more: Vec<Mutex<HashMap<Key, B>>>,
    /// Turns taken from another battle, all told.
    taken: AtomicU64,
}

impl<B> Default for Approaches<B> {
    fn default() -> Self {
        Approaches {
            kept: Mutex::new(HashMap::new()),
            more: (1..rayon::current_num_threads())
                .map(|_| Mutex::new(HashMap::new()))
                .collect(),
            taken: AtomicU64::new(0),
        }
    }
}

impl<'a, B: Opening<'a>> Approaches<B> {
    /// Fights the battle of `seed` on `setting`, no log kept: the same
    /// outcome as the battle set out and fought alone, taking any quiet
    /// turn another battle here has fought.
    pub(crate) fn fight(&self, setting: &'a Setting<'a>, seed: u64) -> Outcome {
        let generals = B::draw(setting, seed);
        let plans = generals.sides.each_ref().map(|s| s.plan);
        let resolve = generals.resolve;
        // Set out only if its first turn is not taken from another battle.
        let mut stage: Stage<Generals<'a>, B> = Stage::Drawn(generals);
        let mut movers = Movers::default();
        loop {
            if let Stage::Fought(b) = &mut stage
                && (b.clock().over || movers.turns >= MOST_TURNS)
            {
                break;
            }
            let dice = match &stage {
                Stage::Drawn(g) => &g.dice,
                Stage::Fought(b) => b.dice(),
            };
            // The throw for the move this turn would make, thrown on a copy
            // of the dice: the turn's first throw if the turn is quiet.
            let mut dice = dice.clone();
            let first = B::first_mover(setting, movers, &mut dice);
            let key = (plans, movers.then(first));
            let kept = self.kept();
            if let Some(mut shared) = kept.get(&key) {
                // On to the last of the turns kept one after another from
                // here, each turn's throw for the move thrown on the way as
                // the turn would throw it: the battle copies one table.
                let (mut key, mut dice, mut taken) = (key, dice, 1);
                while key.1.turns < MOST_TURNS {
                    let mut ahead = dice.clone();
                    let next = (plans, key.1.then(B::first_mover(setting, key.1, &mut ahead)));
                    let Some(later) = kept.get(&next) else { break };
                    (shared, key, dice) = (later, next, ahead);
                    taken += 1;
                }
                self.taken.fetch_add(taken, Ordering::Relaxed);
                let mut b = match stage {
                    Stage::Fought(mut b) => {
                        b.clone_from(shared);
                        b
                    }
                    Stage::Drawn(_) => B::clone(shared),
                };
                drop(kept);
                b.go_on_with(dice, resolve);
                stage = Stage::Fought(b);
                movers = key.1;
            } else {
                drop(kept);
                let mut b = match stage {
                    Stage::Fought(b) => b,
                    Stage::Drawn(g) => B::lay_out(setting, g),
                };
                let start = b.dice().thrown();
                engine::play_turn(&mut b);
                let quiet = quiet_since(&mut b, start);
                if quiet {
                    self.keep(key, &b);
                }
                stage = Stage::Fought(b);
                if !quiet {
                    break;
                }
                movers = key.1;
            }
        }
        let mut battle = match stage {
            Stage::Fought(b) => b,
            Stage::Drawn(g) => B::lay_out(setting, g),
        };
        engine::run(&mut battle);
        battle.outcome(seed)
    }

    /// This core's tables.
    fn kept(&self) -> MutexGuard<'_, HashMap<Key, B>> {
        let core = rayon::current_thread_index().unwrap_or(0);
        let kept = core
            .checked_sub(1)
            .and_then(|k| self.more.get(k))
            .unwrap_or(&self.kept);
        kept.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn keep(&self, key: Key, battle: &B) {
        let mut kept = self.kept();
        if kept.len() < MOST_KEPT {
            kept.entry(key).or_insert_with(|| battle.clone());
        }
    }
}

/// Whether the turn `battle` just fought, begun with `start` dice thrown,
/// was quiet: it threw no die but the throw for the move, lost no side
/// anything, and did not end the battle. Its end is then the same for every
/// battle with the same plans and first movers.
fn quiet_since<'a, B: Opening<'a>>(battle: &mut B, start: u64) -> bool {
    battle.dice().move_thrown() == (start, battle.dice().thrown())
        && !battle.clock().over
        && battle.lost_nothing()
}

/// An engine's test: on `setting` (the bundled Abu Tleih table, whose
/// armies start apart, or part of it), 200 battles fought sharing their
/// opening turns are each the same, to the last stand, as the battle fought
/// alone; and turns are taken from other battles (some hundred and more).
#[cfg(test)]
pub(crate) fn check_shares<'a, B: Opening<'a>>(setting: &'a Setting<'a>) {
    let approaches = Approaches::<B>::default();
    let runs = 200;
    for seed in 0..runs {
        let mut alone = B::lay_out(setting, B::draw(setting, seed));
        engine::run(&mut alone);
        assert_eq!(
            approaches.fight(setting, seed),
            alone.outcome(seed),
            "seed {seed}"
        );
    }
    let taken = approaches.taken.load(Ordering::Relaxed);
    assert!(
        taken >= runs / 2,
        "{taken} turns taken from other battles in {runs}"
    );
}

#[cfg(test)]
mod tests {
    use super::Movers;

    /// A side's streak read from the first movers is the one a battle keeps
    /// turn by turn (Harman's initiative: the winner's streak goes up by
    /// one, the loser's to nought), after every order of first movers in up
    /// to twelve turns.
    #[test]
    fn a_streak_is_the_turns_running_a_side_moved_first() {
        for turns in 0..=12_u32 {
            for order in 0..1_u32 << turns {
                let mut movers = Movers::default();
                let mut kept = [0_u32; 2];
                for t in 0..turns {
                    let first = usize::from(order >> t & 1 == 1);
                    movers = movers.then(first);
                    for (side, streak) in kept.iter_mut().enumerate() {
                        *streak = if side == first { *streak + 1 } else { 0 };
                    }
                }
                assert_eq!(
                    [movers.streak(0), movers.streak(1)],
                    kept,
                    "{turns} turns, first movers {order:b}"
                );
            }
        }
    }
}
