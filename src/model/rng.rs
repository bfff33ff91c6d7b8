//! The campaign's seeded random stream.
//!
//! **Every random draw in umpire comes from this stream**, so a game move or a
//! battle replays exactly from the same save.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// Where the campaign's ChaCha stream stands: the seed from the campaign file
/// and how many 32-bit words have been drawn so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RngState {
    pub seed: u64,
    pub word_pos: u128,
}

impl RngState {
    /// A fresh stream at its start.
    pub fn new(seed: u64) -> RngState {
        RngState { seed, word_pos: 0 }
    }

    /// The generator, positioned where the stream stands.
    pub fn generator(&self) -> ChaCha8Rng {
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        rng.set_word_pos(self.word_pos);
        rng
    }

    /// Battle `battle`'s own stream: the campaign's seed with a stream number
    /// of its own, so a battle's table and seed replay exactly and never
    /// depend on, or move, the game moves' stream (stream 0).
    pub fn battle_stream(&self, battle: u32) -> ChaCha8Rng {
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        rng.set_stream(u64::from(battle) + 1);
        rng
    }

    /// Records how far `rng`, made by [`RngState::generator`], has drawn.
    pub fn advance_to(&mut self, rng: &ChaCha8Rng) {
        self.word_pos = rng.get_word_pos();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    #[test]
    fn a_stream_resumes_where_it_stopped() {
        let mut state = RngState::new(1895);
        let mut rng = state.generator();
        let first: Vec<u32> = (0..5).map(|_| rng.next_u32()).collect();
        state.advance_to(&rng);
        let mut resumed = state.generator();
        let mut straight = RngState::new(1895).generator();
        let all: Vec<u32> = (0..10).map(|_| straight.next_u32()).collect();
        let next: Vec<u32> = (0..5).map(|_| resumed.next_u32()).collect();
        assert_eq!(all[..5], first[..], "the first draws are the stream's start");
        assert_eq!(all[5..], next[..], "a resumed stream goes on where it stopped");
    }
}
