//! Dice, from the battle's seeded ChaCha stream: the same seed throws the
//! same dice, so a battle replays exactly.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The battle's dice.
#[derive(Debug, Clone)]
pub struct Dice(ChaCha8Rng);

impl Dice {
    pub fn new(seed: u64) -> Dice {
        Dice(ChaCha8Rng::seed_from_u64(seed))
    }

    /// One die of `faces` faces: 1 to `faces` (at least 1).
    pub fn roll(&mut self, faces: u32) -> u32 {
        self.0.random_range(1..=faces.max(1))
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
        if n == 0 { 0 } else { self.0.random_range(0..n) }
    }
}
