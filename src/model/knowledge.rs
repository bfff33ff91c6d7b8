//! What each side knows of the others' forces: the fog of war.
//!
//! A side sees an enemy force while one of its own forces has it in sight,
//! after fighting it, or when its light cavalry scouts find it
//! (`strategy::fog` decides, game move by game move). What it saw is kept
//! here, with when and where it was last seen and how strong it looked, so
//! a side's view (`status --side`, `umpire report`) can be built from the
//! campaign alone. The umpire's key of each force seen (`Sighting::force`)
//! is kept too, but no view shows it to the side until the force is seen in full.

use super::campaign::EnRoute;
use super::ids::{ForceId, RegionId, SideId};
use super::vocabulary;
use serde::{Deserialize, Serialize};

vocabulary! {
    /// How a side came to see a force.
    pub enum How {
        /// One of its forces had it within sight range.
        Vision = "vision",
        /// Its light cavalry scouts drove off the screen or broke the cover.
        Scouts = "scouts",
        /// It is fighting it: the forces of a pending battle, and the reserves
        /// within a move, are in full view of both sides.
        Battle = "battle",
    }
}

/// What a side made of a force it saw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "as", rename_all = "snake_case")]
pub enum Seen {
    /// A blind: a marker in a place, a force it could not make out (screened,
    /// or hidden in a town, village or forest). No name, no strength.
    Blind,
    /// Seen in full: its name and how strong it looked.
    Full {
        name: String,
        /// Its strength then, in roster points.
        points: u64,
        stands: usize,
    },
}

impl Seen {
    pub fn is_blind(&self) -> bool {
        matches!(self, Seen::Blind)
    }

    /// The force's name, when it was seen in full.
    pub fn name(&self) -> Option<&str> {
        match self {
            Seen::Blind => None,
            Seen::Full { name, .. } => Some(name),
        }
    }
}

/// One side's memory of one enemy force: where and when it was last seen.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sighting {
    /// The side that knows.
    pub by: SideId,
    /// The force seen. The umpire's key: a view shows it to `by` only when
    /// the force was seen in full.
    pub force: ForceId,
    /// Whose force it is (a blind's colours show its side).
    pub side: SideId,
    /// The number `by` knows it by: "blind 3" (the seed's Concealment Stand
    /// "is numbered on the flag", scruby-1961, THE CONCEALED FORCES). Given
    /// when first seen and kept while it stays in sight; a blind found again
    /// after it was lost gets a new number, as nothing tells it is the same.
    pub marker: u32,
    /// The game move in which it was last seen.
    pub turn: u32,
    /// Where it was last seen: its region, or the region it last left when on a road.
    pub region: RegionId,
    #[serde(default)]
    pub en_route: Option<EnRoute>,
    /// Seen at the end of the latest game move; `false`: remembered only.
    pub in_sight: bool,
    pub seen: Seen,
    pub how: How,
}

/// The last marker number a side has given, so none is given twice.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MarkerCount {
    pub side: SideId,
    pub last: u32,
}

/// What every side knows of the others' forces.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Knowledge {
    /// Ordered by the knowing side (in the campaign's order), then marker.
    #[serde(default)]
    pub sightings: Vec<Sighting>,
    #[serde(default)]
    pub markers: Vec<MarkerCount>,
}

impl Knowledge {
    /// What `side` knows, by marker.
    pub fn of<'a>(&'a self, side: &SideId) -> impl Iterator<Item = &'a Sighting> + 'a {
        let side = side.clone();
        self.sightings.iter().filter(move |s| s.by == side)
    }

    /// Whether `side` has ever seen `force` in full, so knows its name.
    pub fn identified(&self, side: &SideId, force: &ForceId) -> bool {
        self.of(side).any(|s| &s.force == force && !s.seen.is_blind())
    }

    /// A new marker number for `side`: one more than any it has given.
    pub fn next_marker(&mut self, side: &SideId) -> u32 {
        match self.markers.iter_mut().find(|m| &m.side == side) {
            Some(m) => {
                m.last = m.last.saturating_add(1);
                m.last
            }
            None => {
                self.markers.push(MarkerCount {
                    side: side.clone(),
                    last: 1,
                });
                1
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_are_never_given_twice() {
        let mut k = Knowledge::default();
        let (red, blue) = (SideId::new("red"), SideId::new("blue"));
        assert_eq!(
            [k.next_marker(&red), k.next_marker(&red), k.next_marker(&blue)],
            [1, 2, 1]
        );
        assert_eq!(k.next_marker(&red), 3);
    }

    #[test]
    fn a_blind_has_no_name() {
        assert_eq!(Seen::Blind.name(), None);
        let full = Seen::Full {
            name: "Blue Host".to_owned(),
            points: 200,
            stands: 2,
        };
        assert_eq!(full.name(), Some("Blue Host"));
        assert_eq!(
            serde_json::to_value(&Seen::Blind).unwrap(),
            serde_json::json!({ "as": "blind" })
        );
    }
}
