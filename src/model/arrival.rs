//! Troops still to come: reinforcements (a force that arrives once, on a game
//! move, on a date or when an HQ falls) and replacements (stands a side
//! receives every few game moves at an HQ it holds), as the campaign file
//! wrote them. Kept in the [`Campaign`](super::Campaign) so that undo takes an
//! arrival back with the rest of the state; `strategy::arrivals` brings them on.
//!
//! The seeds are silent on both: the Strategic Rules of
//! `scruby-basic-war-game-rules.txt` and the 1961 Jumbo game fix each side's
//! troops at the start. Issue 16 asks for them, for long campaigns such as the
//! Egyptian Rebellion of 1895, in which troops arrived over weeks.

use super::campaign::Wing;
use super::date::Date;
use super::ids::{ForceId, RegionId, SideId};
use super::stand::{Quality, Stand, StandKind};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A force that is not yet on the map: it appears in `region` in the game
/// move its [`Arrival`] names.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reinforcement {
    pub id: ForceId,
    pub name: String,
    pub side: SideId,
    pub region: RegionId,
    pub arrives: Arrival,
    pub stands: Vec<Stand>,
}

/// When a reinforcement arrives.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "on", rename_all = "snake_case")]
pub enum Arrival {
    /// In this game move.
    Turn { turn: u32 },
    /// In the first game move whose date is this date or later.
    Date { date: Date },
    /// In the first game move that begins with this HQ in enemy hands.
    HqLost { side: SideId, wing: Wing },
}

impl Arrival {
    /// Why it arrives, for the log: "due on game move 6".
    pub fn reason(&self, side_name: impl Fn(&SideId) -> String) -> String {
        match self {
            Arrival::Turn { turn } => format!("due on game move {turn}"),
            Arrival::Date { date } => format!("due on {date}"),
            Arrival::HqLost { side, wing } => format!("sent when the {} {wing} HQ fell", side_name(side)),
        }
    }
}

/// Stands a side receives every `every` game moves at its `at` HQ, while it holds it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Replacements {
    pub side: SideId,
    /// Game moves between draughts: they arrive in game moves
    /// `start_turn + every`, `start_turn + 2 × every`, ...
    pub every: u32,
    /// The wing of the side's own HQ where they arrive.
    pub at: Wing,
    /// The name of the force they form when no force of the side is at the HQ.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub stands: Vec<NewStands>,
}

impl Replacements {
    /// Whether a draught is due in game move `turn` of a campaign that began on `start_turn`.
    pub fn due(&self, turn: u32, start_turn: u32) -> bool {
        let since = turn.saturating_sub(start_turn);
        self.every > 0 && since > 0 && since.is_multiple_of(self.every)
    }
}

/// `count` stands of one kind and quality, at full strength, numbered on
/// from the campaign's highest stand id when they arrive.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewStands {
    pub kind: StandKind,
    pub quality: Quality,
    pub count: u32,
    /// Their name (numbered when there are several); their kind's when none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

impl fmt::Display for NewStands {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} × {} {}", self.count, self.quality, self.kind.label())
    }
}
