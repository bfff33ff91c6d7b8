//! Dice, from the battle's seeded ChaCha stream: the same seed throws the
//! same dice, so a battle replays exactly.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The battle's dice.
#[derive(Debug, Clone)]
pub struct Dice {
    stream: ChaCha8Rng,
    /// How many dice (and picks) have been thrown ([`Dice::thrown`]).
    thrown: u64,
    /// The count before and after the last throw for the move
    /// ([`Dice::move_thrown`]).
    for_move: (u64, u64),
}

impl Dice {
    pub fn new(seed: u64) -> Dice {
        Dice {
            stream: ChaCha8Rng::seed_from_u64(seed),
            thrown: 0,
            for_move: (0, 0),
        }
    }

    /// How many dice and picks have been thrown so far: the odds, which
    /// share the turns that threw no die but the throw for the move
    /// (`rules::approach`), ask what a turn threw.
    pub fn thrown(&self) -> u64 {
        self.thrown
    }

    /// Throws the turn's throw for the move by `throw`, counting what it
    /// throws ([`Dice::move_thrown`]).
    pub fn for_move<T>(&mut self, throw: impl FnOnce(&mut Dice) -> T) -> T {
        let before = self.thrown;
        let thrown = throw(self);
        self.for_move = (before, self.thrown);
        thrown
    }

    /// The count of dice thrown ([`Dice::thrown`]) before and after the
    /// last throw for the move ([`Dice::for_move`]).
    pub fn move_thrown(&self) -> (u64, u64) {
        self.for_move
    }

    /// One die of `faces` faces: 1 to `faces` (at least 1).
    pub fn roll(&mut self, faces: u32) -> u32 {
        self.thrown += 1;
        self.stream.random_range(1..=faces.max(1))
    }

    /// A six-sided die.
    pub fn d6(&mut self) -> u32 {
        self.roll(6)
    }

    /// A twelve-sided die, "marked 1 to 12" (`cordery-2009-late-19th-century-rules.txt`, note i).
    pub fn d12(&mut self) -> u32 {
        self.roll(12)
    }

    /// A number from 0 to `n - 1` (0 when `n` is 0), for choices among equals.
    pub fn pick(&mut self, n: usize) -> usize {
        self.thrown += 1;
        if n == 0 { 0 } else { self.stream.random_range(0..n) }
    }
}
