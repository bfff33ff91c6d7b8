//! Railways and river steamers: how fast and how much they carry.
//!
//! The seeds are silent on trains and steamers; every figure here is this
//! program's own choice for 1895 Egypt, stated where it is defined, and a
//! campaign file may set its own (`[railways]`, `[rivers]`).

use super::map::{Feature, RiverCrossing, Road, RoadKind};
use super::vocabulary;
use serde::{Deserialize, Serialize};

vocabulary! {
    /// How a force travels on a march: on foot (the seeds' marching), by train
    /// along railways, or by steamer along rivers.
    #[derive(Default)]
    pub enum Conveyance {
        #[default]
        Foot = "foot",
        Rail = "rail",
        River = "river",
    }
}

impl Conveyance {
    /// Whether it is the seeds' marching on foot (the default, left out of files).
    pub fn is_foot(&self) -> bool {
        *self == Conveyance::Foot
    }

    /// "on foot", "by train", "by steamer", for sentences.
    pub fn phrase(self) -> &'static str {
        match self {
            Conveyance::Foot => "on foot",
            Conveyance::Rail => "by train",
            Conveyance::River => "by steamer",
        }
    }

    /// The feature of a region where a force boards and leaves: a railway's
    /// `station`, a river's `port` (landing place); `None` on foot.
    pub fn stop_feature(self) -> Option<Feature> {
        match self {
            Conveyance::Foot => None,
            Conveyance::Rail => Some(Feature::Station),
            Conveyance::River => Some(Feature::Port),
        }
    }
}

impl Road {
    /// Whether a force travelling `by` train or steamer can use the road: a
    /// railway (where a bridge or ford carries it over any river) by train, a
    /// river by steamer. Nothing travels on foot this way.
    pub fn carries(&self, by: Conveyance) -> bool {
        match by {
            Conveyance::Foot => false,
            Conveyance::Rail => self.kind == RoadKind::Railway && self.river != Some(RiverCrossing::None),
            Conveyance::River => self.kind == RoadKind::River,
        }
    }
}

/// Miles a train carries a force in one game move, unless the campaign file
/// says. This program's choice: a military train of 1895 at about 15 miles an
/// hour, with a day's loading, unloading and waiting on a single line,
/// covers some 120 miles in a one-day game move: Cairo to Beni Suef (78
/// miles by Giza and Wasta) in one move, to Asyut (231) in two.
pub const DEFAULT_RAIL_MILES_PER_MOVE: f64 = 120.0;

/// Stands a line's trains carry for one side in one game move, unless the
/// campaign file says. This program's choice: about three battalions a day
/// (a battalion of eight companies fills two or three trains).
pub const DEFAULT_RAIL_STANDS_PER_MOVE: u32 = 24;

/// Miles a steamer carries a force upstream in one game move, unless the
/// campaign file says. This program's choice: a stern-wheeler towing its
/// barges against the Nile's current made some 5 miles an hour; steaming day
/// and night, as the military steamers did, about 100 miles a day (Esna to
/// Aswan, 98 miles, in one move).
pub const DEFAULT_RIVER_UPSTREAM_MILES_PER_MOVE: f64 = 100.0;

/// Miles a steamer carries a force downstream in one game move, unless the
/// campaign file says. This program's choice: with a current of some 2 miles
/// an hour, half as fast again: 150 miles a day.
pub const DEFAULT_RIVER_DOWNSTREAM_MILES_PER_MOVE: f64 = 150.0;

/// Stands a river's steamers carry for one side in one game move, unless the
/// campaign file says. This program's choice: one battalion a day, the
/// steamers and barges of the 1884-85 Nile flotilla carrying some 800 men.
pub const DEFAULT_RIVER_STANDS_PER_MOVE: u32 = 8;

/// The campaign's railways and river steamers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Transport {
    /// Miles a train goes in one game move.
    pub rail_miles_per_move: f64,
    /// Stands one line's trains carry for one side in one game move.
    pub rail_stands_per_move: u32,
    /// Miles a steamer goes against the current in one game move.
    pub river_upstream_miles_per_move: f64,
    /// Miles a steamer goes with the current in one game move.
    pub river_downstream_miles_per_move: f64,
    /// Stands one river's steamers carry for one side in one game move.
    pub river_stands_per_move: u32,
}

impl Default for Transport {
    fn default() -> Self {
        Transport {
            rail_miles_per_move: DEFAULT_RAIL_MILES_PER_MOVE,
            rail_stands_per_move: DEFAULT_RAIL_STANDS_PER_MOVE,
            river_upstream_miles_per_move: DEFAULT_RIVER_UPSTREAM_MILES_PER_MOVE,
            river_downstream_miles_per_move: DEFAULT_RIVER_DOWNSTREAM_MILES_PER_MOVE,
            river_stands_per_move: DEFAULT_RIVER_STANDS_PER_MOVE,
        }
    }
}

impl Transport {
    /// Whether every figure is this program's default (then saves leave it out).
    pub fn is_default(&self) -> bool {
        *self == Transport::default()
    }

    /// Stands a line carries for one side in one game move.
    pub fn capacity(&self, by: Conveyance) -> u32 {
        match by {
            Conveyance::Foot => u32::MAX,
            Conveyance::Rail => self.rail_stands_per_move,
            Conveyance::River => self.river_stands_per_move,
        }
    }

    /// Miles one game move covers by `by`; `upstream` only matters on a river.
    pub fn miles_per_move(&self, by: Conveyance, upstream: bool) -> f64 {
        match (by, upstream) {
            (Conveyance::Foot, _) => 0.0,
            (Conveyance::Rail, _) => self.rail_miles_per_move,
            (Conveyance::River, true) => self.river_upstream_miles_per_move,
            (Conveyance::River, false) => self.river_downstream_miles_per_move,
        }
    }
}
