//! The approach shared between battles: the odds fight one scenario
//! thousands of times, and the first turns, while the armies march toward
//! each other, throw no dice but the throw for the move. Two battles whose
//! generals drew the same plans, and whose sides won the same throws for
//! the move turn by turn, stand the same at the end of each such turn (the
//! resolve each general threw counts only once a side has lost something):
//! the second takes the first's table and goes on from there with its own
//! dice and resolve. No battle changes; only work is saved.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use super::{Battle, Generals, throw_for_move};
use crate::rules::Outcome;
use crate::rules::doctrine::Plan;
use crate::rules::engine::{self, Setting};

/// At most this many tables are kept (some tens of KB each): a run of the
/// odds draws many fewer plans and throws in its first turns.
const MOST_KEPT: usize = 1024;

/// The first movers of at most this many turns are told apart (one bit a
/// turn).
const MOST_TURNS: u32 = u64::BITS;

/// The two sides' plans, the turns fought, and which side moved first in
/// each (bit `t` set when the second side moved first in turn `t + 1`).
type Key = ([Plan; 2], u32, u64);

/// A battle before its first turn, its generals drawn, or on the table.
/// One lives on the stack while a battle is fought; boxing the larger would
/// cost an allocation a battle for nothing.
#[allow(clippy::large_enum_variant)]
enum Stage<'a> {
    Drawn(Generals<'a>),
    Fought(Battle<'a>),
}

/// The tables at the end of quiet turns, shared by the battles of one run
/// of the odds on every core.
#[derive(Default)]
pub(in crate::rules::scruby1961) struct Approaches<'a> {
    kept: Mutex<HashMap<Key, Arc<Battle<'a>>>>,
    /// Turns taken from another battle, all told.
    taken: AtomicU64,
}

impl<'a> Approaches<'a> {
    /// Fights the battle of `seed` on `setting`, no log kept: the same
    /// outcome as `Battle::set_out(setting, seed, false)` run to its end,
    /// taking any quiet turn another battle here has fought.
    pub(in crate::rules::scruby1961) fn fight(&self, setting: &'a Setting<'a>, seed: u64) -> Outcome {
        let generals = Generals::draw(setting, seed);
        let plans = generals.sides.each_ref().map(|s| s.plan);
        let resolve = generals.resolve;
        // Set out only if its first turn is not taken from another battle.
        let mut stage = Stage::Drawn(generals);
        let mut movers = 0_u64;
        let mut turns = 0_u32;
        loop {
            let dice = match &stage {
                Stage::Drawn(g) => &g.dice,
                Stage::Fought(b) if !b.clock.over && turns < MOST_TURNS => &b.dice,
                Stage::Fought(_) => break,
            };
            // The throw for the move this turn would make, thrown on a copy
            // of the dice: the turn's first throw if the turn is quiet.
            let mut dice = dice.clone();
            let first = throw_for_move(&mut dice).map_or(0, |(first, _, _)| first);
            let key = (plans, turns + 1, movers | u64::from(first == 1) << turns);
            if let Some(shared) = self.get(&key) {
                self.taken.fetch_add(1, Ordering::Relaxed);
                let mut b = match stage {
                    Stage::Fought(mut b) => {
                        b.clone_from(&shared);
                        b
                    }
                    Stage::Drawn(_) => Battle::clone(&shared),
                };
                b.dice = dice;
                b.stands.resolve = resolve;
                stage = Stage::Fought(b);
            } else {
                let mut b = match stage {
                    Stage::Fought(b) => b,
                    Stage::Drawn(g) => Battle::lay_out(setting, g, false),
                };
                let start = b.dice.thrown();
                engine::play_turn(&mut b);
                let quiet = b.quiet_since(start);
                if quiet {
                    self.keep(key, &b);
                }
                stage = Stage::Fought(b);
                if !quiet {
                    break;
                }
            }
            turns += 1;
            movers = key.2;
        }
        let mut battle = match stage {
            Stage::Fought(b) => b,
            Stage::Drawn(g) => Battle::lay_out(setting, g, false),
        };
        battle.run();
        battle.outcome(seed)
    }

    fn get(&self, key: &Key) -> Option<Arc<Battle<'a>>> {
        self.kept
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(key)
            .cloned()
    }

    fn keep(&self, key: Key, battle: &Battle<'a>) {
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        if kept.len() < MOST_KEPT {
            kept.entry(key).or_insert_with(|| Arc::new(battle.clone()));
        }
    }
}

impl Battle<'_> {
    /// Whether the turn just fought, begun with `start` dice thrown, was
    /// quiet: it threw no die but the throw for the move, lost no side
    /// anything, and did not end the battle. Its end is then the same for
    /// every battle with the same plans and first movers.
    fn quiet_since(&self, start: u64) -> bool {
        self.move_thrown == (start, self.dice.thrown())
            && !self.clock.over
            && (0..2).all(|side| {
                let (brought, standing) = self.stands.points(side, super::Unit::points);
                brought == standing
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A battle that takes its opening turns from others is the battle
    /// fought alone, to the last stand and log-free verdict; and on the
    /// bundled Abu Tleih table, whose armies start apart, most battles do
    /// take some.
    #[test]
    fn shared_turns_change_no_battle() {
        let scenario = crate::rules::tests::scenario();
        let setting = Setting::new(&scenario);
        let approaches = Approaches::default();
        let runs = 200;
        for seed in 0..runs {
            let shared = approaches.fight(&setting, seed);
            let mut alone = Battle::set_out(&setting, seed, false);
            alone.run();
            assert_eq!(shared, alone.outcome(seed), "seed {seed}");
        }
        let taken = approaches.taken.load(Ordering::Relaxed);
        assert!(taken > runs, "{taken} turns taken from other battles in {runs}");
    }
}
