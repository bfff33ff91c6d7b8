//! The campaign model: the map graph, sides, HQs, forces and stands, and the
//! checked reading of the TOML files a person writes.
//!
//! Pure: no file, network or database I/O, no egui. Every function here takes
//! values and returns values, and none panics on any input.

pub mod arrival;
mod campaign;
pub mod campaign_file;
pub mod check;
mod date;
mod diag;
pub mod end;
pub mod event;
pub mod history;
pub mod house_rules;
mod ids;
mod knowledge;
mod map;
pub mod map_edit;
pub mod map_file;
mod plain_toml;
pub mod report;
mod rng;
pub mod shapes;
mod stand;
pub mod status;
pub mod text;
pub mod timeline;
mod transport;

pub use arrival::{Arrival, NewStands, Reinforcement, Replacements};
pub use campaign::{
    Approach, ArmyKind, Battle, BattleRecord, BattleResult, BattleStatus, CUT_OFF_GRACE_MOVES, Campaign,
    Colour, DEFAULT_MILES_PER_INCH, EnRoute, FallenOut, Fatigue, Force, Hq, Prediction, ResultSource,
    RuleSetId, Side, SideLoss, SidePrediction, StandingOrder, Supply, Wing,
};
pub use date::Date;
pub use diag::{Diagnostic, Location, Severity};
pub use event::{Event, EventKind, EventLog};
pub use history::History;
pub use house_rules::{GraceCount, HouseRules, MarchPercent};
pub(crate) use ids::is_valid_key;
pub use ids::{ForceId, RegionId, SideId, StandId};
pub use knowledge::{How, Knowledge, MarkerCount, Seen, Sighting};
pub(crate) use map::connected_parts;
pub use map::{
    Background, Feature, Map, MapPoint, Region, RiverCrossing, Road, RoadKind, Terrain, Water, WaterKind,
};
pub use rng::RngState;
pub use stand::{Arm, Quality, Stand, StandKind};
pub use transport::{
    Conveyance, DEFAULT_RAIL_MILES_PER_MOVE, DEFAULT_RAIL_STANDS_PER_MOVE,
    DEFAULT_RIVER_DOWNSTREAM_MILES_PER_MOVE, DEFAULT_RIVER_STANDS_PER_MOVE,
    DEFAULT_RIVER_UPSTREAM_MILES_PER_MOVE, Transport,
};

/// Declares a closed vocabulary of domain words: an enum whose variants are
/// written in files, the database and JSON as fixed lowercase names.
macro_rules! vocabulary {
    (
        $(#[$meta:meta])*
        pub enum $name:ident { $( $(#[$vmeta:meta])* $variant:ident = $text:literal ),+ $(,)? }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
        pub enum $name { $( $(#[$vmeta])* #[serde(rename = $text)] $variant ),+ }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The name written in files, the database and JSON.
            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }

            /// Reads the name written in files; `None` for anything else.
            pub fn parse(text: &str) -> Option<Self> {
                match text { $($text => Some($name::$variant),)+ _ => None }
            }

            /// The accepted names, for error messages: `a | b | c`.
            pub fn choices() -> String {
                Self::ALL.iter().map(|v| v.as_str()).collect::<Vec<_>>().join(" | ")
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}
pub(crate) use vocabulary;
