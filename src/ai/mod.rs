//! Programmed opponents: orders for a side computed from that side's
//! [`Report`] alone.
//!
//! Every function here takes the report (and the commander's own memory of
//! its earlier decisions), never the [`Campaign`](crate::model::Campaign):
//! a hidden enemy force cannot reach the orders, by construction. The same
//! report, memory and seed give the same orders. Pure, like `model`.
//!
//! - [`Opponent::Commander`]: the programmed commander (`commander.rs`), who
//!   draws a plan by dice, keeps to it, scouts, guards and attacks only at
//!   good odds, and writes each choice to its log.
//! - [`Opponent::Rush`], [`Opponent::Turtle`], [`Opponent::Random`]: the
//!   scripted opponents the tournament measures it against (`scripted.rs`).

mod commander;
pub mod odds;
mod scripted;
mod view;

pub use commander::{Memory, Plan};
pub use view::Known;

use crate::model::report::Report;
use crate::strategy::OrderRequest;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Who gives a side's orders.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Opponent {
    /// The programmed commander.
    Commander,
    /// Every force marches on the nearest HQ its side does not hold.
    Rush,
    /// Every force goes to the nearest HQ its side holds and stays there.
    Turtle,
    /// Every force marches to a random neighbouring region, or holds.
    Random,
}

impl Opponent {
    pub const ALL: [Opponent; 4] = [
        Opponent::Commander,
        Opponent::Rush,
        Opponent::Turtle,
        Opponent::Random,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Opponent::Commander => "commander",
            Opponent::Rush => "rush",
            Opponent::Turtle => "turtle",
            Opponent::Random => "random",
        }
    }

    pub fn parse(word: &str) -> Option<Opponent> {
        Opponent::ALL.into_iter().find(|o| o.name() == word)
    }
}

/// A side's orders for one game move, what it remembers for the next, and
/// why, in sentences for the umpire.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    pub requests: Vec<OrderRequest>,
    pub memory: Memory,
    pub log: Vec<String>,
}

/// The orders `opponent` gives for `report`'s side, remembering `memory`
/// (its own from the last game move; `Memory::default()` at the start), with
/// dice from a ChaCha stream seeded by `seed` and the report's game move.
pub fn decide(opponent: Opponent, report: &Report, memory: &Memory, seed: u64) -> Decision {
    let mut rng =
        ChaCha8Rng::seed_from_u64(seed ^ u64::from(report.turn).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let known = Known::of(report);
    match opponent {
        Opponent::Commander => commander::decide(&known, memory, &mut rng),
        Opponent::Rush => scripted::rush(&known),
        Opponent::Turtle => scripted::turtle(&known),
        Opponent::Random => scripted::random(&known, &mut rng),
    }
}
