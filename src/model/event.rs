//! Events: the campaign's append-only history.

use serde::{Deserialize, Serialize};

/// One thing that happened, as kept in the save's event log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Event {
    /// The game move it happened in.
    pub turn: u32,
    /// Its order within the game move, from 0.
    pub seq: u32,
    /// Machine name of the kind of event, e.g. `campaign_created`.
    pub kind: String,
    /// The event's data.
    pub payload: serde_json::Value,
    /// The event told for people, for the turn log.
    pub sentence: String,
}
